//! A partition of the tiles into patterns and its databases: the additive heuristic, maximised
//! with the diagonal reflection where the goal allows it.
//!
//! Partitions are written as tile lists separated by `/` (`1,2,3,4,5,6,7,8/9,10,11,12,13,14,15`),
//! and the presets `5-5-5`, `6-6-3` and `7-8` name the standard 4×4 partitions (in the canonical
//! blank-last labelling; see [`crate::symmetry`]).

use super::Heuristic;
use super::pdb::{PatternDb, PdbError, Progress};
use super::pdb_file::PdbCache;
use crate::board::{BLANK, Board, Shape, Tile};
use crate::symmetry::Reflection;
use std::sync::Arc;

/// Most patterns in one partition.
pub const MAX_PATTERNS: usize = 8;

/// A partition of the tiles into disjoint patterns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    /// Display name (a preset name or the spec).
    pub name: String,
    /// The patterns.
    pub patterns: Vec<Vec<Tile>>,
}

/// Preset names, strongest first.
pub const PRESETS: [&str; 3] = ["7-8", "6-6-3", "5-5-5"];

impl Partition {
    /// A preset for a 4×4 board (`7-8`, `6-6-3`, `5-5-5`).
    pub fn preset(name: &str, shape: Shape) -> Option<Partition> {
        if shape != Shape::new(4, 4).ok()? {
            return None;
        }
        let patterns: Vec<Vec<Tile>> = match name {
            // Goal:  1  2  3  4 /  5  6  7  8 /  9 10 11 12 / 13 14 15  _
            "7-8" => vec![(1..=8).collect(), (9..=15).collect()],
            "6-6-3" => vec![
                vec![1, 5, 6, 9, 10, 13],
                vec![7, 8, 11, 12, 14, 15],
                vec![2, 3, 4],
            ],
            "5-5-5" => vec![
                vec![1, 2, 3, 5, 6],
                vec![4, 7, 8, 11, 12],
                vec![9, 10, 13, 14, 15],
            ],
            _ => return None,
        };
        Some(Partition {
            name: name.to_string(),
            patterns,
        })
    }

    /// A preset name or a spec like `1,2,3/4,5,6,7/8,9,10,11,12,13,14,15`.
    pub fn parse(spec: &str, shape: Shape) -> Result<Partition, PdbError> {
        if let Some(p) = Partition::preset(spec, shape) {
            return Ok(p);
        }
        let patterns = spec
            .split('/')
            .map(|group| {
                group
                    .split(',')
                    .map(|t| {
                        t.trim().parse::<Tile>().map_err(|_| {
                            PdbError::BadPattern(format!(
                                "`{t}` in `{spec}` is not a tile (expected e.g. 1,2,3/4,5,6 or one of {})",
                                PRESETS.join(", ")
                            ))
                        })
                    })
                    .collect::<Result<Vec<Tile>, PdbError>>()
            })
            .collect::<Result<Vec<_>, _>>()?;
        let p = Partition {
            name: spec.to_string(),
            patterns,
        };
        p.check(shape)?;
        Ok(p)
    }

    /// Every tile of the board in exactly one pattern, at most [`MAX_PATTERNS`] patterns.
    pub fn check(&self, shape: Shape) -> Result<(), PdbError> {
        let n = shape.cells();
        if self.patterns.is_empty() || self.patterns.len() > MAX_PATTERNS {
            return Err(PdbError::BadPattern(format!(
                "a partition has 1..={MAX_PATTERNS} patterns"
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
        Ok(())
    }
}

/// What happened to one database while loading a set.
#[derive(Clone, Debug)]
pub enum PdbEvent {
    /// Loaded from the cache.
    Loaded(std::path::PathBuf),
    /// A cached file was damaged and is being rebuilt.
    Rebuilding(std::path::PathBuf, String),
    /// Not cached; being built.
    Building(Vec<Tile>),
    /// Built (and saved, if a cache was given) in this many seconds.
    Built(Vec<Tile>, f64),
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
        })
    }

    /// Loads each database from `cache` (when given) or builds it, saving what it builds.
    /// Damaged cache files are reported through `events` and rebuilt.
    pub fn load_or_build(
        goal: &Board,
        partition: Partition,
        cache: Option<&PdbCache>,
        progress: Progress,
        events: &mut dyn FnMut(PdbEvent),
    ) -> Result<PdbSet, PdbError> {
        partition.check(goal.shape())?;
        let mut dbs = Vec::new();
        for pattern in &partition.patterns {
            if let Some(cache) = cache {
                let path = cache.path_for(goal, pattern);
                match cache.load(goal, pattern) {
                    Ok(Some(db)) => {
                        events(PdbEvent::Loaded(path));
                        dbs.push(Arc::new(db));
                        continue;
                    }
                    Ok(None) => events(PdbEvent::Building(pattern.clone())),
                    Err(e) => events(PdbEvent::Rebuilding(path, e.to_string())),
                }
            } else {
                events(PdbEvent::Building(pattern.clone()));
            }
            let started = std::time::Instant::now();
            let db = PatternDb::build(goal, pattern, progress)?;
            if let Some(cache) = cache {
                db.save(&cache.path_for(goal, pattern))?;
            }
            events(PdbEvent::Built(
                pattern.clone(),
                started.elapsed().as_secs_f64(),
            ));
            dbs.push(Arc::new(db));
        }
        PdbSet::new(goal, partition, dbs)
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The partition.
    pub fn partition(&self) -> &Partition {
        &self.partition
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
