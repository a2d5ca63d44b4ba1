//! A partition of the tiles into patterns and its databases: the additive heuristic, maximised
//! with the diagonal reflection where the goal allows it.
//!
//! Partitions are written as tile lists separated by `/` (`1,2,3,4,5,6,7,8/9,10,11,12,13,14,15`),
//! the presets `5-5-5`, `6-6-3` and `7-8` name the standard 4×4 partitions and `6-6-6-6` Korf and
//! Felner's 5×5 one (in the canonical blank-last labelling; see [`crate::symmetry`]), and
//! `blocks-K` cuts any board of at most 32 cells into compact blocks of `K` tiles.

use super::Heuristic;
use super::pdb::MAX_PATTERN_TILES;
use super::pdb::{PatternDb, PdbError, Progress};
use super::pdb_file::PdbCache;
use super::pdb_positional::{Making, PositionalTable, lock_unless};
use super::zero_aware::ZeroAwareDb;
use crate::board::{BLANK, Board, Shape, Tile};
use crate::symmetry::Reflection;
use std::sync::Arc;

/// Whether provisioning may build databases that are not cached (or damaged, or of an older
/// format): the same policy for a named partition and for the rule's choice.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum Building {
    /// Only cached databases are used.
    #[default]
    Never,
    /// Databases are built when they are small (at most [`QUICK_BUILD_ENTRIES`]
    /// entries in all: seconds, e.g. 6-6-3 on 4×4).
    Quick,
    /// Databases are built whatever they cost (minutes and 510 MB for 5×5).
    Always,
}

impl crate::names::Named for Building {
    const WHAT: &'static str = "building policy";
    const SPELLINGS: &'static [(&'static str, Building)] = &[
        ("never", Building::Never),
        ("quick", Building::Quick),
        ("always", Building::Always),
    ];
}

crate::names::from_str_by_name!(Building);

impl Building {
    /// Its name (`never`, `quick`, `always`).
    pub fn name(self) -> &'static str {
        crate::names::name_of(self)
    }

    /// Whether this policy lets `partition` be built for `shape` (any of its databases that
    /// is missing, damaged or outdated).
    pub fn allows(self, partition: &Partition, shape: Shape) -> bool {
        match self {
            Building::Never => false,
            Building::Quick => {
                partition
                    .patterns
                    .iter()
                    .map(|t| crate::rank::permutations_count(shape.cells(), t.len()))
                    .sum::<u64>()
                    <= QUICK_BUILD_ENTRIES
            }
            Building::Always => true,
        }
    }
}

/// A rough build time for `entries` entries on two cores (measured: 6 M entries a second for
/// 6-tile 5×5 databases, 4.7 M for 7-tile ones).
fn build_time(entries: u64) -> String {
    let seconds = entries / 5_000_000;
    match seconds {
        0..=9 => ", seconds".to_string(),
        10..=99 => format!(", about {} s on two cores", seconds.div_ceil(10) * 10),
        _ => format!(", about {} minutes on two cores", seconds.div_ceil(60)),
    }
}

/// Most entries of a default partition that [`Building::Quick`] builds.
pub const QUICK_BUILD_ENTRIES: u64 = 32_000_000;

/// Most patterns in one partition.
pub(crate) const MAX_PATTERNS: usize = 8;

/// A partition of the tiles into disjoint patterns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    /// Display name (a preset name or the spec).
    pub name: String,
    /// The patterns.
    pub patterns: Vec<Vec<Tile>>,
}

/// Preset names, strongest first (4×4 presets, then 5×5).
pub const PRESETS: [&str; 4] = ["7-8", "6-6-3", "5-5-5", "6-6-6-6"];

/// Most entries of one database in a default partition ([`Partition::default_for`]): the size
/// of a 6-tile 5×5 database, which builds in about a minute on two cores.
pub(crate) const MAX_DEFAULT_ENTRIES: u64 = 128_000_000;

/// The first `max` characters of `text` as a message shows them (control characters escaped).
pub(crate) fn shown(text: &str, max: usize) -> String {
    text.chars()
        .take(max)
        .flat_map(char::escape_debug)
        .collect()
}

impl Partition {
    /// A named preset for `shape`: `7-8`, `6-6-3`, `5-5-5` on 4×4, `6-6-6-6` on 5×5, and
    /// `blocks-K` (tiles in compact blocks of `K`, see [`Partition::blocks`]) on any board.
    pub fn preset(name: &str, shape: Shape) -> Option<Partition> {
        if let Some(k) = name.strip_prefix("blocks-") {
            return Partition::blocks(shape, k.parse().ok()?);
        }
        let (w, h) = (shape.width(), shape.height());
        let patterns: Vec<Vec<Tile>> = match (name, w, h) {
            // Goal:  1  2  3  4 /  5  6  7  8 /  9 10 11 12 / 13 14 15  _
            ("7-8", 4, 4) => vec![(1..=8).collect(), (9..=15).collect()],
            ("6-6-3", 4, 4) => vec![
                vec![1, 5, 6, 9, 10, 13],
                vec![7, 8, 11, 12, 14, 15],
                vec![2, 3, 4],
            ],
            ("5-5-5", 4, 4) => vec![
                vec![1, 2, 3, 5, 6],
                vec![4, 7, 8, 11, 12],
                vec![9, 10, 13, 14, 15],
            ],
            // Korf and Felner's 24-puzzle partition, turned to the blank-last goal:
            //  1  2  3  4  5 /  6  7  8  9 10 / 11 12 13 14 15 / 16 17 18 19 20 / 21 22 23 24 _
            ("6-6-6-6", 5, 5) => vec![
                vec![1, 2, 3, 6, 7, 8],
                vec![4, 5, 9, 10, 14, 15],
                vec![11, 12, 16, 17, 21, 22],
                vec![13, 18, 19, 20, 23, 24],
            ],
            _ => return None,
        };
        Some(Partition {
            name: name.to_string(),
            patterns,
        })
    }

    /// The one board a named preset of [`PRESETS`] is for (4×4 for `7-8`, `6-6-3`, `5-5-5`;
    /// 5×5 for `6-6-6-6`), so that naming the preset is enough to name the board.
    pub fn preset_shape(name: &str) -> Option<Shape> {
        if !PRESETS.contains(&name.trim()) {
            return None;
        }
        [16, 25]
            .into_iter()
            .filter_map(Shape::square_with_cells)
            .find(|&s| Partition::preset(name.trim(), s).is_some())
    }

    /// The tiles of the canonical (blank-last) goal cut into compact blocks of at most `k`
    /// tiles: the board is walked in bands two cells deep along its longer side, and the walk is
    /// cut into patterns of `k` (the last two evened out when the remainder is small).
    pub fn blocks(shape: Shape, k: usize) -> Option<Partition> {
        let (w, h) = (shape.width(), shape.height());
        if k == 0 || k > super::pdb::MAX_PATTERN_TILES || shape.cells() > super::pdb::MAX_PDB_CELLS
        {
            return None;
        }
        // Cells in walk order: bands of two rows (columns on tall boards), a last odd row
        // joining the band before it.
        let (long, short) = if w >= h { (w, h) } else { (h, w) };
        let cell = |along: usize, across: usize| {
            if w >= h {
                across * w + along
            } else {
                along * w + across
            }
        };
        let mut walk = Vec::with_capacity(shape.cells());
        let mut band = 0;
        while band < short {
            let depth = if short - band == 3 {
                3
            } else {
                2.min(short - band)
            };
            for along in 0..long {
                for across in band..band + depth {
                    walk.push(cell(along, across));
                }
            }
            band += depth;
        }
        // Canonical goal: tile t on cell t - 1, blank on the last cell.
        let tiles: Vec<Tile> = walk
            .into_iter()
            .filter(|&c| c + 1 < shape.cells())
            .map(|c| c as Tile + 1)
            .collect();
        let mut sizes = vec![k; tiles.len() / k];
        let rest = tiles.len() % k;
        if rest > 0 {
            if rest * 2 < k && !sizes.is_empty() {
                let both = k + rest;
                sizes.pop();
                sizes.extend([both.div_ceil(2), both / 2]);
            } else {
                sizes.push(rest);
            }
        }
        if sizes.len() > MAX_PATTERNS {
            return None;
        }
        let mut patterns = Vec::with_capacity(sizes.len());
        let mut at = 0;
        for size in sizes {
            let mut p = tiles[at..at + size].to_vec();
            p.sort_unstable();
            patterns.push(p);
            at += size;
        }
        Some(Partition {
            name: format!("blocks-{k}"),
            patterns,
        })
    }

    /// The partition `auto` builds for `shape` when none is cached: 6-6-3 on 4×4 (seconds),
    /// 6-6-6-6 on 5×5, and elsewhere blocks of the largest size whose databases stay within
    /// `MAX_DEFAULT_ENTRIES` entries each.
    pub fn default_for(shape: Shape) -> Option<Partition> {
        let n = shape.cells();
        if !(4..=super::pdb::MAX_PDB_CELLS).contains(&n) {
            return None;
        }
        match (shape.width(), shape.height()) {
            (4, 4) => Partition::preset("6-6-3", shape),
            (5, 5) => Partition::preset("6-6-6-6", shape),
            _ => {
                let k = (1..=super::pdb::MAX_PATTERN_TILES.min(n - 1))
                    .rev()
                    .find(|&k| crate::rank::permutations_count(n, k) <= MAX_DEFAULT_ENTRIES)?;
                Partition::blocks(shape, k)
            }
        }
    }

    /// The strongest compact-blocks partition of `shape` that builds in seconds (at most
    /// [`QUICK_BUILD_ENTRIES`] entries in all), e.g. `blocks-5` on 5×5: what
    /// the near-optimal solver builds when nothing stronger is cached.
    pub fn quick_for(shape: Shape) -> Option<Partition> {
        let n = shape.cells();
        if !(4..=super::pdb::MAX_PDB_CELLS).contains(&n) {
            return None;
        }
        (1..=super::pdb::MAX_PATTERN_TILES.min(n - 1))
            .rev()
            .filter_map(|k| Partition::blocks(shape, k))
            .find(|p| {
                p.patterns
                    .iter()
                    .map(|t| crate::rank::permutations_count(n, t.len()))
                    .sum::<u64>()
                    <= QUICK_BUILD_ENTRIES
            })
    }

    /// The strongest partition of `shape` whose builds fit in `memory` bytes (and
    /// [`MAX_BUILD_BYTES`](super::pdb::MAX_BUILD_BYTES)): the first of
    /// [`Partition::candidates`] whose largest database builds within it, e.g. 7-8 on 4×4
    /// (1.7 GB while building the 8-tile database; 6-6-3 below that) and 6-6-6-6 on 5×5
    /// (0.7 GB). What `pdb build --best` builds.
    pub fn best_for(shape: Shape, memory: u64) -> Option<Partition> {
        let n = shape.cells();
        let room = memory.min(super::pdb::MAX_BUILD_BYTES);
        Partition::candidates(shape).into_iter().find(|p| {
            p.patterns
                .iter()
                .map(|t| super::pdb::build_bytes(n, t.len()))
                .max()
                .is_some_and(|peak| peak <= room)
        })
    }

    /// The presets for `shape`, strongest first, then its default (the order `auto` looks for
    /// them in the cache).
    pub fn candidates(shape: Shape) -> Vec<Partition> {
        let mut all: Vec<Partition> = PRESETS
            .iter()
            .filter_map(|name| Partition::preset(name, shape))
            .collect();
        if let Some(d) = Partition::default_for(shape)
            && !all.contains(&d)
        {
            all.push(d);
        }
        all
    }

    /// A preset name or a spec like `1,2,3/4,5,6,7/8,9,10,11,12,13,14,15`, checked against
    /// `shape` (every tile once, each database small enough to build).
    pub fn parse(spec: &str, shape: Shape) -> Result<Partition, PdbError> {
        let spec = spec.trim();
        if let Some(p) = Partition::preset(spec, shape) {
            p.check(shape)?;
            return Ok(p);
        }
        // A sound partition, of another board: not a bad pattern.
        if let Some(home) = Partition::preset_shape(spec) {
            return Err(PdbError::Unsupported(format!(
                "the {spec} partition is for {home} boards, not {shape}; {}",
                Partition::choices(shape)
            )));
        }
        if let Some(fault) = Partition::spelling_fault(spec) {
            return Err(PdbError::BadPattern(format!(
                "{fault}; {}",
                Partition::choices(shape)
            )));
        }
        // `blocks-K` spelled right that `blocks` makes nothing of on this board.
        if spec.starts_with("blocks-") {
            let max_cells = super::pdb::MAX_PDB_CELLS;
            let why = if shape.cells() > max_cells {
                format!("blocks-K is for boards of at most {max_cells} cells, not {shape}")
            } else {
                format!(
                    "it makes more than {MAX_PATTERNS} patterns on {shape} boards; take K of at least {}",
                    (shape.cells() - 1).div_ceil(MAX_PATTERNS)
                )
            };
            return Err(PdbError::BadPattern(format!(
                "`{}`: {why}",
                shown(spec, 64)
            )));
        }
        // Every token is a tile (`spelling_fault` said so).
        let patterns: Vec<Vec<Tile>> = spec
            .split('/')
            .map(|group| {
                group
                    .split(',')
                    .filter_map(|t| t.trim().parse::<Tile>().ok())
                    .collect()
            })
            .collect();
        let p = Partition {
            name: spec.to_string(),
            patterns,
        };
        p.check(shape)?;
        Ok(p)
    }

    /// Whether `spec` is written as a partition at all, whatever the board: a preset's name,
    /// `blocks-K` with K from 1 to the most tiles a pattern takes, or tile lists of numbers
    /// separated by `,` and `/`. A front end checks this once, before any board is read;
    /// [`Partition::parse`] then checks the partition against each board's shape.
    pub fn check_spelling(spec: &str) -> Result<(), PdbError> {
        match Partition::spelling_fault(spec.trim()) {
            None => Ok(()),
            Some(fault) => {
                let presets: Vec<String> = [16, 25]
                    .into_iter()
                    .filter_map(Shape::square_with_cells)
                    .map(|shape| {
                        let names: Vec<&str> = PRESETS
                            .iter()
                            .copied()
                            .filter(|name| Partition::preset(name, shape).is_some())
                            .collect();
                        format!("{} on {shape}", names.join(", "))
                    })
                    .collect();
                Err(PdbError::BadPattern(format!(
                    "{fault}; expected a preset ({}), blocks-K, or tile lists such as 1,2,3/4,5,6 (every tile of the board once)",
                    presets.join("; ")
                )))
            }
        }
    }

    /// What is wrong with how `spec` (trimmed) is written, whatever the board; `None` when it
    /// is written as a partition.
    fn spelling_fault(spec: &str) -> Option<String> {
        if PRESETS.contains(&spec) {
            return None;
        }
        if let Some(k) = spec.strip_prefix("blocks-") {
            return match k.parse::<usize>() {
                Ok(k) if (1..=MAX_PATTERN_TILES).contains(&k) => None,
                _ => Some(format!(
                    "`{}`: blocks-K takes K from 1 to {MAX_PATTERN_TILES}",
                    shown(spec, 64)
                )),
            };
        }
        let mut tiles = spec.split('/').flat_map(|group| group.split(','));
        match tiles.find(|t| t.trim().parse::<Tile>().is_err()) {
            None if !spec.is_empty() => None,
            // One word that is no tile (`foo`, `7-7`): no partition at all, not a bad tile in one.
            Some(t) if spec.contains([',', '/']) => Some(format!(
                "`{}` in `{}` is not a tile",
                shown(t, 24),
                shown(spec, 64)
            )),
            _ => Some(format!("`{}` is not a partition", shown(spec, 64))),
        }
    }

    /// What a partition may be written as on `shape`, for messages.
    fn choices(shape: Shape) -> String {
        let presets: Vec<&str> = PRESETS
            .iter()
            .copied()
            .filter(|name| Partition::preset(name, shape).is_some())
            .collect();
        let mut text = format!(
            "expected tile lists such as 1,2,3/4,5,6 (every tile of the {shape} board once) or blocks-K"
        );
        if !presets.is_empty() {
            text += &format!(", or a {shape} preset: {}", presets.join(", "));
        }
        text
    }

    /// Every tile of the board in exactly one pattern, at most `MAX_PATTERNS` patterns.
    pub fn check(&self, shape: Shape) -> Result<(), PdbError> {
        let n = shape.cells();
        if self.patterns.is_empty() || self.patterns.len() > MAX_PATTERNS {
            return Err(PdbError::BadPattern(format!(
                "a partition has 1 to {MAX_PATTERNS} patterns"
            )));
        }
        let mut seen = vec![false; n];
        for &t in self.patterns.iter().flatten() {
            if t == BLANK || t as usize >= n || std::mem::replace(&mut seen[t as usize], true) {
                return Err(PdbError::BadPattern(format!(
                    "tile {t} is repeated or not a tile of a {shape} board"
                )));
            }
        }
        if let Some(missing) = (1..n).find(|&t| !seen[t]) {
            return Err(PdbError::BadPattern(format!(
                "tile {missing} is in no pattern; every tile must be in exactly one"
            )));
        }
        for pattern in &self.patterns {
            if pattern.len() > MAX_PATTERN_TILES {
                return Err(PdbError::BadPattern(format!(
                    "a pattern has 1 to {MAX_PATTERN_TILES} tiles, this one {}",
                    pattern.len()
                )));
            }
            super::pdb::check_build_size(shape, pattern.len())?;
        }
        Ok(())
    }
}

/// What happened to one database while loading a set. More kinds may come: match with a
/// catch-all arm.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum PdbEvent {
    /// Loaded from the cache.
    Loaded(std::path::PathBuf),
    /// A cached file was damaged or of an older format and is being rebuilt.
    Rebuilding(std::path::PathBuf, String),
    /// Not cached; being built.
    Building(Vec<Tile>),
    /// Another process (or thread) sharing the cache is building this database: waited for,
    /// then loaded from its file.
    Waiting(Vec<Tile>),
    /// Databases of `partition` are about to be built: `databases` of them (this one and the
    /// ones after it that were not cached when the load began), `entries` in all (one byte each
    /// on disk), at most `peak_bytes` of memory while one builds. Said once, just before the
    /// first database this process builds itself; a process that only waits for another's
    /// builds does not say it.
    Plan {
        /// The board size the databases are for.
        shape: Shape,
        /// The partition's name.
        partition: String,
        /// How many databases will be built.
        databases: usize,
        /// Their entries together.
        entries: u64,
        /// Peak memory of the largest build.
        peak_bytes: u64,
        /// Bytes of the zero-aware tables built with them (0 when they get none).
        zero_aware_bytes: u64,
    },
    /// The complete table of a 12-cell board is about to be built: `states` states,
    /// `bytes` in memory and on disk (twice that while it builds).
    TablePlan {
        /// The board size.
        shape: Shape,
        /// States in the table.
        states: u64,
        /// Bytes of the table.
        bytes: u64,
    },
    /// A cached complete table is damaged and may not be rebuilt here: why, and what happens
    /// instead.
    TableUnavailable(String),
    /// The complete table was built (and saved, if a cache was given).
    TableBuilt {
        /// The board size.
        shape: Shape,
        /// Seconds it took.
        seconds: f64,
    },
    /// A database built here could not be saved to the cache; it is used from memory.
    NotSaved(std::path::PathBuf, String),
    /// Built (and saved, if a cache was given) in this many seconds.
    Built(Vec<Tile>, f64),
    /// A build finished breadth-first layer `layer`; `filled` of `total` entries are known.
    Layer {
        /// The layer (moves of the pattern's tiles).
        layer: u32,
        /// Entries known so far.
        filled: u64,
        /// Entries in all.
        total: u64,
    },
    /// The chosen partition is not the strongest for the board (that one is not cached).
    Weaker {
        /// The partition in use.
        using: String,
        /// The strongest preset, which `npuzzle pdb build` can build.
        stronger: String,
    },
    /// `auto` goes without databases: they could not be loaded or built.
    Unavailable(String),
    /// A partition (or a heuristic) was named for boards that `auto` answers another way (a
    /// complete table, or linear conflict below 16 cells): why it is not used.
    NotUsed(String),
    /// A cached zero-aware table is damaged and may not be rebuilt here: the searches read the
    /// additive entries instead. The file and why.
    ZeroAwareUnavailable(std::path::PathBuf, String),
}

impl PdbEvent {
    /// What to tell a person about the event, one line, the same words in every front end
    /// (`dir`: the cache directory, named where databases are built); `None` for loads and
    /// build progress, which front ends show their own way (a bar, a log line).
    pub fn message(&self, dir: Option<&std::path::Path>) -> Option<String> {
        let cached_in = match dir {
            Some(d) => format!("cached in {}", d.display()),
            None => "in memory only".to_string(),
        };
        Some(match self {
            PdbEvent::Loaded(_) | PdbEvent::Layer { .. } => return None,
            PdbEvent::Building(tiles) => {
                format!("building the pattern database for tiles {tiles:?} ({cached_in})")
            }
            PdbEvent::Waiting(tiles) => format!(
                "waiting for another process's build of the pattern database for tiles {tiles:?} ({cached_in})"
            ),
            PdbEvent::Rebuilding(path, why) => format!(
                "{} is damaged or outdated ({why}); rebuilding it",
                path.display()
            ),
            PdbEvent::Plan {
                shape,
                partition,
                databases,
                entries,
                peak_bytes,
                zero_aware_bytes,
            } => format!(
                "building {databases} {partition} pattern database(s) for {shape} boards{}: {} on disk, up to {} of memory while building{} (once; {cached_in})",
                if *zero_aware_bytes > 0 {
                    " with their zero-aware tables"
                } else {
                    ""
                },
                human_bytes(*entries + *zero_aware_bytes),
                human_bytes(*peak_bytes),
                build_time(*entries)
            ),
            PdbEvent::TablePlan {
                shape,
                states,
                bytes,
            } => format!(
                "building the complete table of {shape} boards: {states} states, {} on disk, up to {} of memory while building, under a minute on two cores (once; {cached_in})",
                human_bytes(*bytes),
                human_bytes(2 * *bytes)
            ),
            PdbEvent::TableUnavailable(why) => format!("warning: {why}"),
            PdbEvent::TableBuilt { shape, seconds } => {
                format!("built the {shape} table in {seconds:.1} s")
            }
            PdbEvent::NotSaved(path, why) => {
                let shown = path.display().to_string();
                let why = if why.contains(&shown) {
                    why.clone()
                } else {
                    format!("{shown}: {why}")
                };
                format!(
                    "warning: cannot save to the cache ({why}); using what was built from memory"
                )
            }
            PdbEvent::Built(tiles, secs) => format!("built tiles {tiles:?} in {secs:.1} s"),
            PdbEvent::Weaker { using, stronger } => format!(
                "using the {using} pattern databases; `npuzzle pdb build --partition {stronger}` builds stronger ones (minutes, once)"
            ),
            PdbEvent::Unavailable(why) => {
                format!("no pattern databases ({why}); solving without them")
            }
            PdbEvent::NotUsed(why) => format!("warning: {why}"),
            PdbEvent::ZeroAwareUnavailable(path, why) => format!(
                "warning: {} is unusable ({why}); searching with the additive entries (`npuzzle pdb build` rebuilds it)",
                path.display()
            ),
        })
    }
}

/// `bytes` for people: kilobytes below a megabyte, megabytes below a gigabyte, else gigabytes.
pub fn human_bytes(bytes: u64) -> String {
    if bytes < 1_000 {
        format!("{bytes} bytes")
    } else if bytes < 1_000_000 {
        format!("{:.0} kB", bytes as f64 / 1e3)
    } else if bytes < 1_000_000_000 {
        format!("{:.0} MB", bytes as f64 / 1e6)
    } else {
        format!("{:.1} GB", bytes as f64 / 1e9)
    }
}

/// The databases of one partition toward one goal.
#[derive(Debug)]
pub struct PdbSet {
    goal: Board,
    partition: Partition,
    dbs: Vec<Arc<PatternDb>>,
    /// `tile_db[t]`, `tile_slot[t]`: which database tile `t` is in and where.
    tile_db: Vec<u8>,
    tile_slot: Vec<u8>,
    reflection: Option<Reflection>,
    /// The databases' zero-aware tables, when every one has its table (the engine then reads
    /// them instead).
    zero: Option<Arc<[ZeroAwareDb]>>,
    /// The tables the engine reads (the zero-aware ones where the set has them, else the
    /// databases) laid out by positions, made on first use where they suit.
    positional: std::sync::OnceLock<Option<Arc<[PositionalTable]>>>,
    /// Those tables while they are being made, kept when a search's limits stopped the making
    /// so that the next one goes on from there.
    making: std::sync::Mutex<Option<Making>>,
}

impl PdbSet {
    /// A set from databases already at hand (one per pattern, in order).
    pub fn new(
        goal: &Board,
        partition: Partition,
        dbs: Vec<Arc<PatternDb>>,
    ) -> Result<PdbSet, PdbError> {
        partition.check(goal.shape())?;
        let n = goal.shape().cells();
        let mut tile_db = vec![u8::MAX; n];
        let mut tile_slot = vec![u8::MAX; n];
        for (d, (db, pattern)) in dbs.iter().zip(&partition.patterns).enumerate() {
            if db.goal() != goal || db.tiles() != pattern.as_slice() {
                return Err(PdbError::BadPattern(
                    "a database does not match its pattern or goal".into(),
                ));
            }
            for (s, &t) in pattern.iter().enumerate() {
                tile_db[t as usize] = d as u8;
                tile_slot[t as usize] = s as u8;
            }
        }
        if dbs.len() != partition.patterns.len() {
            return Err(PdbError::BadPattern("one database per pattern".into()));
        }
        Ok(PdbSet {
            goal: goal.clone(),
            reflection: Reflection::for_goal(goal),
            partition,
            dbs,
            tile_db,
            tile_slot,
            zero: None,
            positional: std::sync::OnceLock::new(),
            making: std::sync::Mutex::new(None),
        })
    }

    /// This set with the zero-aware tables `zero` (one per database, in order, of the same
    /// goal and patterns), which the engine then reads.
    pub fn with_zero_aware(mut self, zero: Vec<ZeroAwareDb>) -> Result<PdbSet, PdbError> {
        let matches = zero.len() == self.dbs.len()
            && zero
                .iter()
                .zip(&self.dbs)
                .all(|(z, db)| z.goal() == db.goal() && z.tiles() == db.tiles());
        if !matches {
            return Err(PdbError::BadPattern(
                "a zero-aware table does not match its database".into(),
            ));
        }
        self.zero = Some(zero.into());
        self.positional = std::sync::OnceLock::new();
        self.making = std::sync::Mutex::new(None);
        Ok(self)
    }

    /// The zero-aware tables, when the set has one for every database.
    pub fn zero_aware(&self) -> Option<&[ZeroAwareDb]> {
        self.zero.as_deref()
    }

    /// Loads each database from `cache` (when given); the ones not cached, or damaged or
    /// outdated there, are built when `may_build` allows (announced by a [`PdbEvent::Plan`]
    /// before the first build) and saved (a cache that cannot be written is reported and the
    /// databases are used from memory). Without `may_build` a missing database is a
    /// [`PdbError::NotCached`]. Once `stop` is set, the loading is given up
    /// ([`PdbError::Stopped`]) before the next file, and a build after its layer.
    pub fn load_or_build(
        goal: &Board,
        partition: Partition,
        cache: Option<&PdbCache>,
        may_build: bool,
        progress: Progress,
        events: &mut dyn FnMut(PdbEvent),
        stop: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<PdbSet, PdbError> {
        partition.check(goal.shape())?;
        let n = goal.shape().cells();
        let mut dbs: Vec<Option<Arc<PatternDb>>> = Vec::with_capacity(partition.patterns.len());
        let mut damaged: Vec<Option<(std::path::PathBuf, String)>> = Vec::new();
        let stopped = || stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        for pattern in &partition.patterns {
            if stopped() {
                return Err(PdbError::Stopped);
            }
            let (db, bad) = match cache {
                Some(cache) => {
                    let path = cache.path_for(goal, pattern);
                    match cache.load(goal, pattern) {
                        Ok(Some(db)) => {
                            events(PdbEvent::Loaded(path));
                            (Some(Arc::new(db)), None)
                        }
                        Ok(None) => (None, None),
                        Err(PdbError::Corrupt { reason, .. }) => (None, Some((path, reason))),
                        Err(e) => (None, Some((path, e.to_string()))),
                    }
                }
                None => (None, None),
            };
            dbs.push(db);
            damaged.push(bad);
        }
        let missing: Vec<usize> = (0..dbs.len()).filter(|&i| dbs[i].is_none()).collect();
        if !missing.is_empty() && !may_build {
            let what: Vec<String> = missing
                .iter()
                .map(|&i| match &damaged[i] {
                    Some((path, why)) => format!("{} is unusable ({why})", path.display()),
                    None => format!("tiles {:?} are not cached", partition.patterns[i]),
                })
                .collect();
            return Err(PdbError::NotCached(format!(
                "the {} databases for {} cannot be loaded and may not be built here: {}",
                partition.name,
                goal.shape(),
                what.join("; ")
            )));
        }
        // Zero-aware tables, where every database takes one: loaded beside the cached
        // databases. They are an extra: a missing or damaged one is built (in its database's
        // search) when the policy lets the databases be built, the memory allows, and (for a
        // database already cached) the cache can keep it; otherwise the searches read the
        // additive entries.
        let zero_suits = partition
            .patterns
            .iter()
            .all(|t| super::zero_aware::suits(n, t.len()));
        let mut zeros: Vec<Option<ZeroAwareDb>> = (0..dbs.len()).map(|_| None).collect();
        let mut zero_damaged: Vec<Option<(std::path::PathBuf, String)>> =
            (0..dbs.len()).map(|_| None).collect();
        if zero_suits && let Some(cache) = cache {
            for (i, db) in dbs.iter().enumerate() {
                let Some(db) = db else { continue };
                if stopped() {
                    return Err(PdbError::Stopped);
                }
                match cache.load_zero_aware(db) {
                    Ok(z) => zeros[i] = z,
                    Err(e) => {
                        let path = cache.zero_aware_path_for(goal, db.tiles());
                        let why = match e {
                            PdbError::Corrupt { reason, .. } => reason,
                            other => other.to_string(),
                        };
                        zero_damaged[i] = Some((path, why));
                    }
                }
            }
        }
        // A cached database's missing table is built only where it can be kept.
        let cached_lacking = (0..dbs.len()).any(|i| dbs[i].is_some() && zeros[i].is_none());
        let allowed =
            zero_suits && may_build && (!cached_lacking || cache.is_none_or(|c| c.writable()));
        let mut with_zero: Vec<bool> = vec![false; dbs.len()];
        if allowed {
            // All or none: the engine reads them only when every database has its table.
            let mut short = None;
            for (i, want) in with_zero.iter_mut().enumerate() {
                let k = partition.patterns[i].len();
                let need = super::pdb::build_bytes(n, k) + super::zero_aware::table_bytes(n, k);
                *want = zeros[i].is_none();
                if *want && let Err(e) = super::pdb::check_memory(need, "its zero-aware table") {
                    short = Some((i, e.to_string()));
                }
            }
            if let Some((i, why)) = short {
                with_zero.fill(false);
                if let Some(cache) = cache {
                    let path = cache.zero_aware_path_for(goal, &partition.patterns[i]);
                    events(PdbEvent::ZeroAwareUnavailable(path, why));
                }
            }
        }
        for (i, damage) in zero_damaged.iter_mut().enumerate() {
            if !with_zero[i]
                && let Some((path, why)) = damage.take()
            {
                events(PdbEvent::ZeroAwareUnavailable(path, why));
            }
        }
        let to_build: Vec<usize> = (0..dbs.len())
            .filter(|&i| dbs[i].is_none() || with_zero[i])
            .collect();
        let zero_bytes = |i: usize| {
            if with_zero[i] {
                super::zero_aware::table_bytes(n, partition.patterns[i].len())
            } else {
                0
            }
        };
        let peak_bytes = |left: &[usize]| {
            left.iter()
                .map(|&i| super::pdb::build_bytes(n, partition.patterns[i].len()) + zero_bytes(i))
                .max()
                .unwrap_or(0)
        };
        if !to_build.is_empty() {
            // Every build checks its own need again; checked here first, no build runs in vain.
            super::pdb::check_memory(
                peak_bytes(&to_build),
                &format!("the {} databases for {}", partition.name, goal.shape()),
            )?;
        }
        // Announced when this process starts its first build, not before: a process that only
        // waits for another's builds (and loads what they saved) builds nothing, says nothing.
        let plan = |left: &[usize]| PdbEvent::Plan {
            shape: goal.shape(),
            partition: partition.name.clone(),
            databases: left.len(),
            entries: left
                .iter()
                .filter(|i| missing.contains(i))
                .map(|&i| crate::rank::permutations_count(n, partition.patterns[i].len()))
                .sum(),
            peak_bytes: peak_bytes(left),
            zero_aware_bytes: left.iter().map(|&i| zero_bytes(i)).sum(),
        };
        let mut planned = false;
        let mut zero_saved = vec![false; dbs.len()];
        for (at, &i) in to_build.iter().enumerate() {
            // Given up between databases too (a wait for another's build, a load, may be long).
            if stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed)) {
                return Err(PdbError::Stopped);
            }
            let pattern = &partition.patterns[i];
            // Another process or thread sharing the cache may be building this very database:
            // wait for it (said so), then load what it saved instead of building it twice.
            let build_lock = match cache {
                Some(c) => c.lock_build(goal, pattern, stop, &mut || {
                    events(PdbEvent::Waiting(pattern.clone()))
                })?,
                None => None,
            };
            if let Some(c) = cache
                && build_lock.is_some()
            {
                if dbs[i].is_none()
                    && let Ok(Some(db)) = c.load(goal, pattern)
                {
                    events(PdbEvent::Loaded(c.path_for(goal, pattern)));
                    dbs[i] = Some(Arc::new(db));
                }
                if with_zero[i]
                    && let Some(db) = &dbs[i]
                {
                    zeros[i] = c.load_zero_aware(db).ok().flatten();
                }
                if dbs[i].is_some() && (!with_zero[i] || zeros[i].is_some()) {
                    continue;
                }
            }
            if !std::mem::replace(&mut planned, true) {
                events(plan(&to_build[at..]));
            }
            match (damaged[i].take(), zero_damaged[i].take()) {
                (Some((path, why)), _) | (None, Some((path, why))) => {
                    events(PdbEvent::Rebuilding(path, why))
                }
                (None, None) => events(PdbEvent::Building(pattern.clone())),
            }
            let started = std::time::Instant::now();
            let (db, zero) = if with_zero[i] {
                match ZeroAwareDb::build_with(goal, pattern, progress, stop) {
                    Ok((db, z)) => (db, Some(z)),
                    // Only the zero-aware table was missing: the cached set still serves.
                    Err(e) if dbs[i].is_some() && !matches!(e, PdbError::Stopped) => {
                        let path = cache.map(|c| c.zero_aware_path_for(goal, pattern));
                        events(PdbEvent::ZeroAwareUnavailable(
                            path.unwrap_or_default(),
                            e.to_string(),
                        ));
                        continue;
                    }
                    Err(e) => return Err(e),
                }
            } else {
                (PatternDb::build_until(goal, pattern, progress, stop)?, None)
            };
            let mut saved = dbs[i].is_some();
            if let Some(cache) = cache {
                if !saved {
                    let path = cache.path_for(goal, pattern);
                    match db.save(&path) {
                        Ok(()) => saved = true,
                        Err(e) => events(PdbEvent::NotSaved(path, e.to_string())),
                    }
                }
                if let Some(z) = &zero {
                    let path = cache.zero_aware_path_for(goal, pattern);
                    match z.save(&path) {
                        Ok(()) => zero_saved[i] = true,
                        Err(e) => events(PdbEvent::NotSaved(path, e.to_string())),
                    }
                }
            }
            events(PdbEvent::Built(
                pattern.clone(),
                started.elapsed().as_secs_f64(),
            ));
            drop(build_lock); // saved: waiting builders may load it now
            // What was saved is loaded from its file once every build is done, so that no
            // build's peak is added to the tables built before it (7-tile 5×5: 2.4 GB each).
            if !zero_saved[i] {
                zeros[i] = zero;
            }
            if !saved {
                dbs[i] = Some(Arc::new(db));
            }
        }
        if let Some(cache) = cache {
            for &i in &missing {
                if dbs[i].is_some() {
                    continue;
                }
                let pattern = &partition.patterns[i];
                let db = match cache.load(goal, pattern) {
                    Ok(Some(db)) => db,
                    // Gone or damaged since it was saved (another process, the disk): built
                    // again and kept in memory.
                    other => {
                        let why = match other {
                            Err(e) => e.to_string(),
                            _ => "missing".to_string(),
                        };
                        events(PdbEvent::Rebuilding(cache.path_for(goal, pattern), why));
                        PatternDb::build_until(goal, pattern, progress, stop)?
                    }
                };
                dbs[i] = Some(Arc::new(db));
            }
        }
        if let Some(cache) = cache {
            for i in (0..dbs.len()).filter(|&i| zero_saved[i]) {
                if let Some(db) = &dbs[i] {
                    zeros[i] = cache.load_zero_aware(db).ok().flatten();
                }
            }
        }
        let set = PdbSet::new(goal, partition, dbs.into_iter().flatten().collect())?;
        match zeros.into_iter().collect::<Option<Vec<ZeroAwareDb>>>() {
            Some(zeros) if zero_suits => set.with_zero_aware(zeros),
            _ => Ok(set),
        }
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The partition.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// One line naming the set: the partition, each database's tiles, when they are taken the
    /// reflected lookup and the zero-aware tables (e.g. `6-6-6-6 [1, 2, 3, 6, 7, 8] …
    /// +reflection zero-aware`); results files record it, so runs over different heuristics
    /// are told apart.
    pub fn describe(&self) -> String {
        let mut text = self.partition.name.clone();
        for db in &self.dbs {
            text.push_str(&format!(" {:?}", db.tiles()));
        }
        if self.reflection.is_some() {
            text.push_str(" +reflection");
        }
        if self.zero.is_some() {
            text.push_str(" zero-aware");
        }
        text
    }

    /// The databases, one per pattern.
    pub fn databases(&self) -> &[Arc<PatternDb>] {
        &self.dbs
    }

    /// Which database tile `t` belongs to and its slot there.
    #[inline]
    pub fn place_of(&self, t: Tile) -> (usize, usize) {
        (
            self.tile_db[t as usize] as usize,
            self.tile_slot[t as usize] as usize,
        )
    }

    /// Makes the engine's fast positional layout of these databases now, where they suit it
    /// (1–2 s and 2.3 GB for 5×5's zero-aware 6-6-6-6, once per process; otherwise a
    /// search pays for it once it has gone on for a while): for long-running services and
    /// benchmarks that should not time it.
    pub fn prepare_layout(&self) {
        self.prepare_layout_until(&|| false);
    }

    /// [`PdbSet::prepare_layout`], asking `give_up` between units of the work (30–200 ms
    /// each), and every 10 ms while another caller is making the same layout: false when it
    /// gave up first (a Ctrl-C, a search's time limit). The part already made is kept, and
    /// the next call goes on from it.
    pub fn prepare_layout_until(&self, give_up: &(dyn Fn() -> bool + Sync)) -> bool {
        self.positional_tables_until(give_up).is_some()
    }

    /// The databases laid out by positions for the engine (see `heuristic::pdb_positional`)
    /// when every database suits that layout: made on the first call (the solver asks only
    /// once a search has gone on for a while, see `solver::COMPACT_FIRST_STATES`), or shared
    /// with another set of the same databases.
    pub(crate) fn positional_tables(&self) -> Option<&[PositionalTable]> {
        self.positional_tables_until(&|| false).flatten()
    }

    /// [`PdbSet::positional_tables`], `None` when `give_up` stopped the making first.
    fn positional_tables_until(
        &self,
        give_up: &(dyn Fn() -> bool + Sync),
    ) -> Option<Option<&[PositionalTable]>> {
        if let Some(tables) = self.positional.get() {
            return Some(tables.as_deref());
        }
        // One maker a set; another caller waits here (within its own limits) and then finds
        // the tables made, or goes on with what the first left.
        let mut making = lock_unless(&self.making, give_up)?;
        if let Some(tables) = self.positional.get() {
            return Some(tables.as_deref());
        }
        let tables = PositionalTable::shared(
            self.goal.cells(),
            &self.dbs,
            self.zero.as_deref(),
            self.goal.shape().cells(),
            &mut making,
            give_up,
        )
        .ok()?;
        Some(self.positional.get_or_init(|| tables).as_deref())
    }

    /// Whether the databases take the positional layout and this set has not got it yet.
    pub fn positional_pending(&self) -> bool {
        let n = self.goal.shape().cells();
        self.positional.get().is_none()
            && self
                .dbs
                .iter()
                .all(|db| PositionalTable::suits(n, db.tiles().len()))
    }

    /// The diagonal reflection, when the goal allows it.
    pub fn reflection(&self) -> Option<&Reflection> {
        self.reflection.as_ref()
    }

    /// The additive sum for `cells` (no reflection).
    fn sum(&self, cells: &[Tile]) -> u32 {
        let mut places = [[0u8; super::pdb::MAX_PATTERN_TILES]; MAX_PATTERNS];
        for (p, &t) in cells.iter().enumerate() {
            if t != BLANK {
                let (d, s) = self.place_of(t);
                places[d][s] = p as u8;
            }
        }
        self.dbs
            .iter()
            .enumerate()
            .map(|(d, db)| db.lookup_cells(&places[d][..db.tiles().len()]) as u32)
            .sum()
    }
}

impl Heuristic for PdbSet {
    fn name(&self) -> &'static str {
        "pdb"
    }

    fn estimate(&self, cells: &[Tile]) -> u32 {
        let direct = self.sum(cells);
        match &self.reflection {
            None => direct,
            Some(r) => {
                let mut mirrored = [BLANK; super::pdb::MAX_PDB_CELLS];
                for (p, &t) in cells.iter().enumerate() {
                    mirrored[r.cell[p] as usize] = r.tile[t as usize];
                }
                direct.max(self.sum(&mirrored[..cells.len()]))
            }
        }
    }

    fn delta(&self, cells: &[Tile], tile: Tile, from: usize, to: usize) -> i32 {
        // General (A*, greedy) use: recompute; the dedicated IDA* updates one entry per move.
        let mut before = [BLANK; super::pdb::MAX_PDB_CELLS];
        before[..cells.len()].copy_from_slice(cells);
        before[from] = tile;
        before[to] = BLANK;
        self.estimate(cells) as i32 - self.estimate(&before[..cells.len()]) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_named_preset_names_its_board() {
        let four = Shape::new(4, 4).unwrap();
        let five = Shape::new(5, 5).unwrap();
        for name in PRESETS {
            let shape = Partition::preset_shape(name).unwrap();
            assert!(Partition::parse(name, shape).is_ok(), "{name}");
            assert_eq!(shape, if name == "6-6-6-6" { five } else { four });
        }
        for other in ["blocks-4", "1,2,3/4,5,6,7,8", "7-7", ""] {
            assert_eq!(Partition::preset_shape(other), None, "{other}");
        }
    }

    #[test]
    fn the_best_partition_is_the_strongest_that_fits_in_memory() {
        let four = Shape::new(4, 4).unwrap();
        let five = Shape::new(5, 5).unwrap();
        let gib = 1u64 << 30;
        let best = |shape, memory| Partition::best_for(shape, memory).map(|p| p.name);
        assert_eq!(best(four, 16 * gib).as_deref(), Some("7-8"));
        // The 8-tile build needs 1.7 GB: below that the next strongest.
        assert_eq!(best(four, gib).as_deref(), Some("6-6-3"));
        assert_eq!(best(five, 16 * gib).as_deref(), Some("6-6-6-6"));
        assert_eq!(best(five, 1 << 20), None);
        assert_eq!(
            best(Shape::new(6, 4).unwrap(), 16 * gib),
            Partition::default_for(Shape::new(6, 4).unwrap()).map(|p| p.name)
        );
    }

    /// A word that is no partition is called that; a bad tile in a list is named in it.
    #[test]
    fn bad_partitions_are_named() {
        let four = Shape::new(4, 4).unwrap();
        for (spec, said) in [
            ("foo", "`foo` is not a partition; "),
            ("7-7", "`7-7` is not a partition; "),
            ("1,2,x/3", "`x` in `1,2,x/3` is not a tile; "),
        ] {
            let e = Partition::parse(spec, four).unwrap_err().to_string();
            assert!(e.contains(said) && e.contains("7-8, 6-6-3, 5-5-5"), "{e}");
        }
        assert!(Partition::parse("7-8", four).is_ok());
        // The same words before any board is known; anything a board may take passes.
        for (spec, said) in [
            ("foo", "`foo` is not a partition; "),
            ("7-7", "`7-7` is not a partition; "),
            ("", "`` is not a partition; "),
            ("1,2,x/3", "`x` in `1,2,x/3` is not a tile; "),
            ("1,2,,3", "`` in `1,2,,3` is not a tile; "),
            ("blocks-0", "`blocks-0`: blocks-K takes K from 1 to 8"),
            ("blocks-x", "`blocks-x`: blocks-K takes K from 1 to 8"),
        ] {
            let e = Partition::check_spelling(spec).unwrap_err().to_string();
            assert!(e.contains(said), "{spec}: {e}");
        }
        for spec in [
            "7-8",
            "6-6-6-6",
            " 5-5-5 ",
            "blocks-4",
            "1,2,3/4,5,6,7,8",
            "99",
        ] {
            assert!(Partition::check_spelling(spec).is_ok(), "{spec}");
        }
        assert!(Partition::parse("1,2,3/4,5,6,7,8", four).is_err());
        // blocks-K spelled right but unfit for the board says why.
        let five = Shape::new(5, 5).unwrap();
        for (spec, shape, said) in [
            (
                "blocks-2",
                five,
                "`blocks-2`: it makes more than 8 patterns on 5x5 boards; take K of at least 3",
            ),
            (
                "blocks-1",
                four,
                "`blocks-1`: it makes more than 8 patterns on 4x4 boards; take K of at least 2",
            ),
            (
                "blocks-4",
                Shape::new(6, 6).unwrap(),
                "`blocks-4`: blocks-K is for boards of at most 32 cells, not 6x6",
            ),
            ("blocks-9", four, "`blocks-9`: blocks-K takes K from 1 to 8"),
        ] {
            let e = Partition::parse(spec, shape).unwrap_err().to_string();
            assert!(e.contains(said), "{spec}: {e}");
        }
        assert!(Partition::parse("blocks-3", five).is_ok());
        assert!(Partition::parse("blocks-2", four).is_ok());
    }

    /// A builder waiting for another's build of the same database (a process sharing the
    /// cache, a thread here) gives up once its stop flag is set, rather than waiting out a
    /// build of minutes; with the other's lock gone it goes on.
    #[test]
    fn a_wait_for_another_build_stops_on_the_flag() {
        use std::sync::atomic::{AtomicBool, Ordering};
        let dir = std::env::temp_dir().join(format!("npuzzle-lock-stop-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cache = PdbCache::new(&dir);
        let shape = Shape::new(3, 3).unwrap();
        let goal = Board::goal(shape);
        let partition = Partition::parse("1,2,3,4/5,6,7,8", shape).unwrap();
        let held = cache
            .lock_build(&goal, &partition.patterns[0], None, &mut || {})
            .unwrap()
            .expect("a lock in a fresh temporary directory");
        let stop = AtomicBool::new(false);
        let told = std::sync::Mutex::new(Vec::new());
        let build = || {
            PdbSet::load_or_build(
                &goal,
                partition.clone(),
                Some(&cache),
                true,
                &|_, _, _, _| {},
                &mut |e| {
                    if let Some(m) = e.message(None) {
                        told.lock().unwrap().push(m);
                    }
                },
                Some(&stop),
            )
        };
        std::thread::scope(|scope| {
            let waiter = scope.spawn(build);
            std::thread::sleep(std::time::Duration::from_millis(200));
            assert!(!waiter.is_finished(), "it waits while the lock is held");
            stop.store(true, Ordering::Relaxed);
            assert!(matches!(waiter.join().unwrap(), Err(PdbError::Stopped)));
        });
        // It said it was waiting, once, and nothing about building (not even the plan).
        let said = std::mem::take(&mut *told.lock().unwrap());
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].starts_with(
                "waiting for another process's build of the pattern database for tiles [1, 2, 3, 4]"
            ),
            "{said:?}"
        );
        // With the flag already set, nothing is waited for or built.
        assert!(matches!(build(), Err(PdbError::Stopped)));
        drop(held);
        stop.store(false, Ordering::Relaxed);
        let set = build().unwrap();
        assert_eq!(set.partition().patterns, partition.patterns);
        // The one that builds says its plan first, then each build.
        let said = std::mem::take(&mut *told.lock().unwrap());
        assert!(
            said[0].starts_with("building 2 1,2,3,4/5,6,7,8"),
            "{said:?}"
        );
        assert!(
            said[1].starts_with("building the pattern database for tiles [1, 2, 3, 4]"),
            "{said:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
