//! Additive disjoint pattern databases: for a set of tiles (a pattern), the fewest moves *of
//! those tiles* needed to bring them home from any placement, minimised over the blank.
//!
//! Because each database counts only the moves of its own tiles and the patterns are disjoint,
//! the sum over a partition of all tiles is admissible, and far stronger than Manhattan distance.
//!
//! **Building.** The abstract state is the pattern tiles' positions plus the blank's *region*:
//! the blank slides through cells not holding pattern tiles at no cost, so every blank cell of
//! one connected free region is equivalent. A layered breadth-first search runs from the goal;
//! layer `d` holds the states first reached with `d` pattern-tile moves. Per partial-permutation
//! rank it keeps one mask of the free cells already visited (a whole region is marked at once),
//! atomic so both cores scan the rank range in parallel, and per layer one bit per rank: which
//! ranks the layer reached. Expanding a rank expands all its visited regions (the older ones only
//! lead to visited states, and most ranks have a single region); a region is never added to a
//! rank while its layer is expanded, since every tile move flips the parity of the pattern's
//! cell colours. An entry is the first layer that reaches its rank.
//! That is 1 entry byte, one mask (2 bytes up to 16 cells, 4 up to 32) and a quarter byte per
//! rank: the 8-tile 4×4 database (518,918,400 ranks) needs about 1.7 GB while building, a 6-tile
//! 5×5 one (127,512,000 ranks) 0.7 GB, a 7-tile 5×5 one (2,422,728,000 ranks) 12.7 GB.
//!
//! **Lookup.** The index is [`rank_partial`] of the pattern tiles'
//! cells in pattern order; one byte per entry.

use crate::board::{BLANK, Board, Shape, Tile};
use crate::rank::{permutations_count, rank_partial, unrank_partial};
use crate::zeroed::{ZeroValid, Zeroed};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering};
use thiserror::Error;

/// Largest board a database can be built for (cell masks are 32 bits).
pub const MAX_PDB_CELLS: usize = 32;

/// Largest pattern (8 tiles on 4×4 is 518,918,400 entries).
pub const MAX_PATTERN_TILES: usize = 8;

/// Most memory one database build may take (14 GiB): the 8-tile 4×4 database needs 1.7 GB, a
/// 7-tile 5×5 one 12.7 GB; an 8-tile 4×5 one (26.7 GB) is refused before anything is allocated.
pub const MAX_BUILD_BYTES: u64 = 14 << 30;

/// Bytes a build of a `k`-tile database on a board of `n` cells holds at its peak: per rank one
/// entry byte, one cell mask (2 bytes up to 16 cells, 4 beyond) and two layer bits.
pub(crate) fn build_bytes(n: usize, k: usize) -> u64 {
    let mask = if n <= 16 { 2 } else { 4 };
    let ranks = permutations_count(n, k);
    ranks
        .saturating_mul(1 + mask)
        .saturating_add(ranks.div_ceil(4))
}

/// Entry value of a rank no layer reached (impossible for a connected board).
pub(crate) const UNSET: u8 = 0xFF;

/// Why a database could not be built, loaded or used.
#[derive(Debug, Error)]
pub enum PdbError {
    /// The board or pattern is outside what is supported.
    #[error("{0}")]
    Unsupported(String),
    /// A pattern mentions a tile twice, the blank, or a tile not on the board.
    #[error("bad pattern: {0}")]
    BadPattern(String),
    /// Databases that are neither cached nor allowed to be built here.
    #[error("{0}")]
    NotCached(String),
    /// A file that is not a valid database.
    #[error("{path}: {reason}")]
    Corrupt {
        /// The file.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// The loading or build was stopped (the caller's flag) before it finished; nothing was
    /// saved.
    #[error("stopped before the pattern databases were loaded or built")]
    Stopped,
    /// The file system failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
}

/// Where a database's entries live.
pub(crate) enum Entries {
    /// Built in this process.
    Owned(Vec<u8>),
    /// Memory-mapped from a cache file; entries start at `offset`.
    Mapped {
        /// The mapping.
        map: memmap2::Mmap,
        /// Header length.
        offset: usize,
    },
}

/// One pattern database toward one goal.
pub struct PatternDb {
    pub(crate) shape: Shape,
    pub(crate) goal: Board,
    pub(crate) tiles: Vec<Tile>,
    pub(crate) entries: Entries,
}

impl std::fmt::Debug for PatternDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PatternDb({} {:?}, {} entries)",
            self.shape,
            self.tiles,
            self.len()
        )
    }
}

/// Progress of a build: layer, states in the new layer, ranks with an entry so far, total ranks.
pub type Progress<'a> = &'a (dyn Fn(u32, u64, u64, u64) + Sync);

/// Refuses a build (`what`) that needs more memory than the machine can spare (three quarters
/// of what it reports available): the builder's memory is mapped without reserving swap, so an
/// excess would be met by the out-of-memory killer, not by an error.
pub(crate) fn check_memory(needed: u64, what: &str) -> Result<(), PdbError> {
    let usable = crate::zeroed::default_max_memory();
    if needed > usable {
        return Err(PdbError::Unsupported(format!(
            "building {what} needs {} of memory; this machine has {} to spare (three quarters \
             of what it reports available)",
            super::pdb_set::human_bytes(needed),
            super::pdb_set::human_bytes(usable)
        )));
    }
    Ok(())
}

/// Refuses a `k`-tile database on `shape` whose build would take more than [`MAX_BUILD_BYTES`].
pub(crate) fn check_build_size(shape: Shape, k: usize) -> Result<(), PdbError> {
    let n = shape.cells();
    let bytes = build_bytes(n, k);
    if bytes > MAX_BUILD_BYTES {
        return Err(PdbError::Unsupported(format!(
            "a pattern of {k} tiles on a {shape} board has {} entries and needs {:.1} GB to build, more than the {} GiB allowed; use smaller patterns",
            permutations_count(n, k),
            bytes as f64 / 1e9,
            MAX_BUILD_BYTES >> 30
        )));
    }
    Ok(())
}

/// Checks a pattern against a goal.
pub(crate) fn check_pattern(goal: &Board, tiles: &[Tile]) -> Result<(), PdbError> {
    let n = goal.shape().cells();
    if n > MAX_PDB_CELLS {
        return Err(PdbError::Unsupported(format!(
            "pattern databases are built for boards of at most {MAX_PDB_CELLS} cells, not {}",
            goal.shape()
        )));
    }
    if tiles.is_empty() || tiles.len() > MAX_PATTERN_TILES {
        return Err(PdbError::BadPattern(format!(
            "a pattern has 1 to {MAX_PATTERN_TILES} tiles, this one {}",
            tiles.len()
        )));
    }
    let mut seen = vec![false; n];
    for &t in tiles {
        if t == BLANK || t as usize >= n {
            return Err(PdbError::BadPattern(format!(
                "tile {t} is not a tile of a {} board",
                goal.shape()
            )));
        }
        if std::mem::replace(&mut seen[t as usize], true) {
            return Err(PdbError::BadPattern(format!("tile {t} appears twice")));
        }
    }
    check_build_size(goal.shape(), tiles.len())?;
    Ok(())
}

/// Cell masks of each cell's neighbours.
pub(crate) fn neighbour_masks(shape: Shape) -> Vec<u32> {
    (0..shape.cells())
        .map(|c| {
            crate::board::Move::ALL
                .iter()
                .filter_map(|&m| shape.neighbour(c, m))
                .fold(0u32, |acc, q| acc | 1 << q)
        })
        .collect()
}

/// A per-rank cell mask shared by the build threads: 16 bits where the board allows (half the
/// memory of the 4×4 8-tile build), 32 bits beyond.
pub(crate) trait MaskCell: ZeroValid {
    fn get(&self) -> u32;
    /// ORs `m` in; returns the mask before.
    fn or(&self, m: u32) -> u32;
}

macro_rules! mask_cell {
    ($atomic:ty, $int:ty) => {
        impl MaskCell for $atomic {
            #[inline]
            fn get(&self) -> u32 {
                self.load(Ordering::Relaxed) as u32
            }
            #[inline]
            fn or(&self, m: u32) -> u32 {
                self.fetch_or(m as $int, Ordering::Relaxed) as u32
            }
        }
    };
}
mask_cell!(AtomicU16, u16);
mask_cell!(AtomicU32, u32);

/// One bit per rank, set by any build thread: a breadth-first layer.
struct RankBits {
    words: Zeroed<AtomicU64>,
}

impl RankBits {
    fn new(ranks: usize) -> Result<RankBits, PdbError> {
        Ok(RankBits {
            words: zeroed(ranks.div_ceil(64))?,
        })
    }

    #[inline]
    fn get(&self, r: usize) -> bool {
        self.words.atomics()[r / 64].load(Ordering::Relaxed) & 1 << (r % 64) != 0
    }

    #[inline]
    fn set(&self, r: usize) {
        self.words.atomics()[r / 64].fetch_or(1 << (r % 64), Ordering::Relaxed);
    }

    fn clear(&self) {
        crate::parallel::run(|| {
            self.words
                .atomics()
                .par_iter()
                .for_each(|w| w.store(0, Ordering::Relaxed))
        });
    }
}

/// `len` zero atomics for a build, or the error naming the memory it could not get.
fn zeroed<A: ZeroValid>(len: usize) -> Result<Zeroed<A>, PdbError> {
    Zeroed::new(len).ok_or_else(|| {
        PdbError::Unsupported(format!(
            "the system gave no {} of memory for a pattern database build",
            super::pdb_set::human_bytes((len * std::mem::size_of::<A>()) as u64)
        ))
    })
}

/// The free region containing `start` (flood fill over `free`).
#[inline]
pub(crate) fn region(neighbours: &[u32], free: u32, start: usize) -> u32 {
    let mut region = 1u32 << start;
    let mut edge = region;
    while edge != 0 {
        let mut grown = 0u32;
        let mut e = edge;
        while e != 0 {
            let c = e.trailing_zeros() as usize;
            e &= e - 1;
            grown |= neighbours[c];
        }
        grown &= free & !region;
        region |= grown;
        edge = grown;
    }
    region
}

impl PatternDb {
    /// Builds the database of `tiles` toward `goal`, on all rayon threads.
    pub fn build(goal: &Board, tiles: &[Tile], progress: Progress) -> Result<PatternDb, PdbError> {
        PatternDb::build_until(goal, tiles, progress, None)
    }

    /// [`PatternDb::build`], given up with [`PdbError::Stopped`] after the breadth-first
    /// layer during which `stop` is set (a Ctrl-C during a minutes-long build).
    pub fn build_until(
        goal: &Board,
        tiles: &[Tile],
        progress: Progress,
        stop: Option<&AtomicBool>,
    ) -> Result<PatternDb, PdbError> {
        check_pattern(goal, tiles)?;
        check_memory(
            build_bytes(goal.shape().cells(), tiles.len()),
            &format!("the database of tiles {tiles:?} on {}", goal.shape()),
        )?;
        let entries = if goal.shape().cells() <= 16 {
            Self::layers::<AtomicU16>(goal, tiles, progress, stop, None)?
        } else {
            Self::layers::<AtomicU32>(goal, tiles, progress, stop, None)?
        };
        Ok(PatternDb::from_entries(goal, tiles, entries))
    }

    /// The database of `tiles` toward `goal` with these entries (a build's).
    pub(crate) fn from_entries(goal: &Board, tiles: &[Tile], entries: Vec<u8>) -> PatternDb {
        PatternDb {
            shape: goal.shape(),
            goal: goal.clone(),
            tiles: tiles.to_vec(),
            entries: Entries::Owned(entries),
        }
    }

    /// The layered breadth-first search of [`PatternDb::build`], with masks of type `M`.
    pub(crate) fn layers<M: MaskCell>(
        goal: &Board,
        tiles: &[Tile],
        progress: Progress,
        stop: Option<&AtomicBool>,
        zero: Option<&[AtomicU64]>,
    ) -> Result<Vec<u8>, PdbError> {
        let shape = goal.shape();
        let n = shape.cells();
        let k = tiles.len();
        let ranks = permutations_count(n, k);
        let size = usize::try_from(ranks)
            .map_err(|_| PdbError::Unsupported("database too large".into()))?;
        let full: u32 = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let neighbours = neighbour_masks(shape);
        let visited_cells = zeroed::<M>(size)?;
        let visited = visited_cells.atomics();
        let mut frontier = RankBits::new(size)?;
        let mut next = RankBits::new(size)?;
        // Entries are stored plus one, so that the zeroed memory reads as "not reached".
        let stored = zeroed::<AtomicU8>(size)?;
        let entries = stored.atomics();

        let home: Vec<u8> = tiles
            .iter()
            .map(|&t| goal.position_of(t).unwrap_or(0) as u8)
            .collect();
        let r0 = rank_partial(&home, n) as usize;
        let occupied0 = home.iter().fold(0u32, |m, &p| m | 1 << p);
        let reg0 = region(&neighbours, full & !occupied0, goal.blank());
        visited[r0].or(reg0);
        frontier.set(r0);
        entries[r0].store(1, Ordering::Relaxed);
        let filled = AtomicU64::new(1);

        // Ranks in words of 64; a chunk of words is one unit of parallel work.
        const CHUNK_WORDS: usize = 1 << 8;
        for depth in 0u32.. {
            let reached = AtomicU64::new(0);
            let d1 = (depth + 1).min(UNSET as u32 - 1) as u8;
            crate::parallel::run(|| {
                frontier
                    .words
                    .atomics()
                    .par_chunks(CHUNK_WORDS)
                    .enumerate()
                    .for_each(|(chunk_no, words)| {
                        let mut pos = [0u8; MAX_PATTERN_TILES];
                        let mut moved = [0u8; MAX_PATTERN_TILES];
                        let (mut new_states, mut new_entries) = (0u64, 0u64);
                        for (w, word) in words.iter().enumerate() {
                            let mut bits = word.load(Ordering::Relaxed);
                            while bits != 0 {
                                let r = (chunk_no * CHUNK_WORDS + w) * 64
                                    + bits.trailing_zeros() as usize;
                                bits &= bits - 1;
                                unrank_partial(r as u64, n, &mut pos[..k]);
                                let occupied = pos[..k].iter().fold(0u32, |m, &p| m | 1 << p);
                                let free = full & !occupied;
                                // Every region of the rank: those reached before this layer only
                                // lead to visited states. None is being added while the layer runs:
                                // a tile move flips the parity of the pattern's cell colours (the
                                // board is a chequerboard), so all regions of one rank lie at
                                // depths of one parity, and this layer adds only the other.
                                let mut reps = visited[r].get();
                                while reps != 0 {
                                    let rep = reps.trailing_zeros() as usize;
                                    let reg = region(&neighbours, free, rep);
                                    reps &= !reg;
                                    for ti in 0..k {
                                        let from = pos[ti] as usize;
                                        let mut targets = neighbours[from] & reg;
                                        while targets != 0 {
                                            let to = targets.trailing_zeros() as usize;
                                            targets &= targets - 1;
                                            moved[..k].copy_from_slice(&pos[..k]);
                                            moved[ti] = to as u8;
                                            let r2 = rank_partial(&moved[..k], n) as usize;
                                            // The blank is now where the tile was.
                                            if visited[r2].get() & (1 << from) != 0 {
                                                continue;
                                            }
                                            let free2 = (free & !(1 << to)) | 1 << from;
                                            let reg2 = region(&neighbours, free2, from);
                                            debug_assert!(!frontier.get(r2), "parity");
                                            let before = visited[r2].or(reg2);
                                            if before & (1 << from) != 0 {
                                                continue; // another thread got there first
                                            }
                                            next.set(r2);
                                            new_states += 1;
                                            if let Some(z) = zero
                                                && d1 & 2 != 0
                                            {
                                                let base = r2 as u64 * (n - k) as u64;
                                                let mut m = 0u64;
                                                let mut rr = reg2;
                                                while rr != 0 {
                                                    let c = rr.trailing_zeros();
                                                    rr &= rr - 1;
                                                    m |= 1
                                                        << (free2 & ((1u32 << c) - 1)).count_ones();
                                                }
                                                let (w, sh) = ((base >> 6) as usize, base & 63);
                                                z[w].fetch_or(m << sh, Ordering::Relaxed);
                                                if sh as usize + (n - k) > 64 {
                                                    z[w + 1].fetch_or(
                                                        m >> (64 - sh),
                                                        Ordering::Relaxed,
                                                    );
                                                }
                                            }
                                            if entries[r2]
                                                .compare_exchange(
                                                    0,
                                                    d1 + 1,
                                                    Ordering::Relaxed,
                                                    Ordering::Relaxed,
                                                )
                                                .is_ok()
                                            {
                                                new_entries += 1;
                                            }
                                        }
                                    }
                                }
                            }
                        }
                        reached.fetch_add(new_states, Ordering::Relaxed);
                        filled.fetch_add(new_entries, Ordering::Relaxed);
                    })
            });
            let layer = reached.load(Ordering::Relaxed);
            progress(depth + 1, layer, filled.load(Ordering::Relaxed), ranks);
            if layer == 0 {
                break;
            }
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return Err(PdbError::Stopped);
            }
            std::mem::swap(&mut frontier, &mut next);
            next.clear();
        }
        drop((visited_cells, frontier, next));
        Ok(crate::parallel::run(|| {
            entries
                .par_iter()
                .map(|e| e.load(Ordering::Relaxed).wrapping_sub(1))
                .collect()
        }))
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal it counts toward.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The pattern's tiles, in index order.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The raw entries, indexed by partial-permutation rank.
    #[inline]
    pub fn entries(&self) -> &[u8] {
        match &self.entries {
            Entries::Owned(v) => v,
            Entries::Mapped { map, offset } => &map[*offset..],
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    /// True when there are no entries (never for a built database).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the entries are memory-mapped from a file.
    pub fn is_mapped(&self) -> bool {
        matches!(self.entries, Entries::Mapped { .. })
    }

    /// The entry for the pattern tiles at `cells` (in pattern order).
    #[inline]
    pub fn lookup_cells(&self, cells: &[u8]) -> u8 {
        self.entries()[rank_partial(cells, self.shape.cells()) as usize]
    }

    /// The entry for a board.
    pub fn lookup(&self, board: &Board) -> u8 {
        let mut cells = [0u8; MAX_PATTERN_TILES];
        for (slot, &t) in cells.iter_mut().zip(&self.tiles) {
            *slot = board.position_of(t).unwrap_or(0) as u8;
        }
        self.lookup_cells(&cells[..self.tiles.len()])
    }

    /// Checks that the entries mean what they say, cheaply (a few thousand lookups): the
    /// goal's pattern has entry 0, every sampled entry was reached, and where the free cells
    /// form one region before and after, one move of a pattern tile to a free neighbouring
    /// cell changes the entry by at most one (the two placements are then one move apart both
    /// ways in the breadth-first search). A file forged or damaged with its checksums
    /// recomputed fails this; a sound one always passes. The reason, if not.
    pub fn check_semantics(&self) -> Result<(), String> {
        let n = self.shape.cells();
        let k = self.tiles.len();
        let mut home = [0u8; MAX_PATTERN_TILES];
        for (slot, &t) in home.iter_mut().zip(&self.tiles) {
            *slot = self.goal.position_of(t).unwrap_or(0) as u8;
        }
        let at_goal = self.lookup_cells(&home[..k]);
        if at_goal != 0 {
            return Err(format!("the goal's entry is {at_goal}, not 0"));
        }
        let entries = self.entries();
        let total = entries.len() as u64;
        let neighbours = neighbour_masks(self.shape);
        let full: u32 = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let connected = |cells: &[u8]| {
            let free = full & !cells.iter().fold(0u32, |m, &p| m | 1 << p);
            free == 0 || region(&neighbours, free, free.trailing_zeros() as usize) == free
        };
        // Where the free cells are one region, a pattern tile's move to a free neighbour
        // changes the entry by at most one.
        let around = |pos: &[u8], here: u8| -> Result<(), String> {
            if !connected(pos) {
                return Ok(());
            }
            let mut moved = [0u8; MAX_PATTERN_TILES];
            for j in 0..k {
                let from = pos[j] as usize;
                for m in crate::board::Move::ALL {
                    let Some(to) = self.shape.neighbour(from, m) else {
                        continue;
                    };
                    if pos.contains(&(to as u8)) {
                        continue;
                    }
                    moved[..k].copy_from_slice(pos);
                    moved[j] = to as u8;
                    if !connected(&moved[..k]) {
                        continue;
                    }
                    let there = self.lookup_cells(&moved[..k]);
                    if here.abs_diff(there) > 1 {
                        return Err(format!(
                            "entries {here} and {there} of neighbouring placements differ by more than one move"
                        ));
                    }
                }
            }
            Ok(())
        };
        around(&home[..k], 0)?;
        // A fixed spread of ranks (no randomness: the same file always gets the same verdict).
        let samples = 4096.min(total);
        let mut pos = [0u8; MAX_PATTERN_TILES];
        for i in 0..samples {
            let r = (i * total / samples.max(1) + i * 7919) % total.max(1);
            unrank_partial(r, n, &mut pos[..k]);
            let here = entries[r as usize];
            if here == UNSET {
                // A pattern of all tiles but one or none leaves placements of the other
                // permutation parity unreached; any other entry is reached.
                if !self.reachable(&pos[..k]) {
                    continue;
                }
                return Err(format!("entry {r} was never reached"));
            }
            around(&pos[..k], here)?;
        }
        Ok(())
    }

    /// Whether some board with the pattern's tiles on `cells` can reach the goal. With two or
    /// more tiles outside the pattern, always: swapping two of them changes the parity. With
    /// one or none, the parity of the cells left fixes it.
    fn reachable(&self, cells: &[u8]) -> bool {
        let n = self.shape.cells();
        let others: Vec<Tile> = (1..n as Tile).filter(|t| !self.tiles.contains(t)).collect();
        if others.len() >= 2 {
            return true;
        }
        let mut board = vec![BLANK; n];
        for (&t, &c) in self.tiles.iter().zip(cells) {
            board[c as usize] = t;
        }
        let free: Vec<usize> = (0..n).filter(|&c| !cells.contains(&(c as u8))).collect();
        let solvable = |board: &[Tile]| {
            Board::new(self.shape, board)
                .and_then(|b| crate::parity::is_solvable(&b, &self.goal))
                .unwrap_or(false)
        };
        match others.first() {
            None => solvable(&board),
            // The other tile on either free cell, the blank on the other.
            Some(&t) => free.iter().any(|&c| {
                let mut b = board.clone();
                b[c] = t;
                solvable(&b)
            }),
        }
    }

    /// Largest entry and mean entry, over the placements reached.
    pub fn summary(&self) -> (u8, f64) {
        let (mut max, mut sum, mut count) = (0u8, 0u64, 0u64);
        for &v in self.entries().iter().filter(|&&v| v != UNSET) {
            max = max.max(v);
            sum += v as u64;
            count += 1;
        }
        (max, sum as f64 / count.max(1) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Table;
    use std::sync::Mutex;

    fn quiet(_: u32, _: u64, _: u64, _: u64) {}

    #[test]
    fn sound_databases_pass_the_semantic_checks_and_forged_ones_fail() {
        let shape = Shape::new(4, 4).unwrap();
        let goal = Board::goal(shape);
        for tiles in [&[1u16, 2, 3][..], &[1, 2, 5, 6], &[3, 4, 7, 8, 11, 12]] {
            let tiles: Vec<Tile> = tiles.iter().map(|&t| t as Tile).collect();
            let db = PatternDb::build(&goal, &tiles, &quiet).unwrap();
            db.check_semantics().unwrap();
            let forged = |entries: Vec<u8>| PatternDb {
                shape,
                goal: goal.clone(),
                tiles: tiles.clone(),
                entries: Entries::Owned(entries),
            };
            // Shifted by one place (the forgery of the issue): the goal's entry moves away.
            let mut shifted = db.entries().to_vec();
            shifted.rotate_right(1);
            let e = forged(shifted).check_semantics().unwrap_err();
            assert!(
                e.contains("goal's entry") || e.contains("more than one"),
                "{e}"
            );
            // The goal kept at 0, noise added to everything else: neighbours disagree.
            let noisy: Vec<u8> = db
                .entries()
                .iter()
                .enumerate()
                .map(|(i, &v)| if v == 0 { 0 } else { v + (i * 7 % 5) as u8 })
                .collect();
            let e = forged(noisy).check_semantics().unwrap_err();
            assert!(e.contains("more than one"), "{e}");
            // Every entry raised by two but the goal's: inconsistent with its neighbours.
            let raised: Vec<u8> = db
                .entries()
                .iter()
                .map(|&v| if v == 0 { 0 } else { v.saturating_add(2) })
                .collect();
            assert!(forged(raised).check_semantics().is_err());
        }
    }

    #[test]
    fn patterns_of_all_tiles_but_one_pass_the_checks() {
        // One tile left out: placements whose two free cells admit no solvable board are
        // never reached, and that is sound.
        for (w, h, tiles) in [
            (3, 3, vec![1, 2, 3, 4, 5, 6, 7]),
            (5, 2, vec![1, 2, 3, 4, 5, 6, 7, 8]),
            (2, 2, vec![1, 2]),
            (4, 2, vec![1, 2, 3, 4, 5, 6]),
        ] {
            let goal = Board::goal(Shape::new(w, h).unwrap());
            let db = PatternDb::build(&goal, &tiles, &quiet).unwrap();
            db.check_semantics().unwrap();
            assert!(db.entries().contains(&UNSET), "{w}x{h}");
        }
    }

    #[test]
    fn full_pattern_equals_the_complete_table() {
        // With every tile in the pattern, the database is the exact distance.
        let table = Table::eight();
        let goal = table.goal().clone();
        let db = PatternDb::build(&goal, &[1, 2, 3, 4, 5, 6, 7, 8], &quiet).unwrap();
        // Half the placements (the other parity) are never reached, and that is sound.
        db.check_semantics().unwrap();
        for b in Board::every(goal.shape()) {
            if let Some(d) = table.distance(&b) {
                assert_eq!(db.lookup(&b), d, "{b:?}");
            }
        }
    }

    #[test]
    fn additive_partitions_are_admissible_on_3x3() {
        let table = Table::eight();
        let goal = table.goal().clone();
        for partition in [
            vec![vec![1, 2, 3, 4], vec![5, 6, 7, 8]],
            vec![vec![1, 4, 7], vec![2, 5, 8], vec![3, 6]],
            vec![vec![8], vec![1, 2, 3, 4, 5, 6, 7]],
        ] {
            let dbs: Vec<PatternDb> = partition
                .iter()
                .map(|t| PatternDb::build(&goal, t, &quiet).unwrap())
                .collect();
            let md = crate::heuristic::Manhattan::new(&goal);
            let mut beats_manhattan = 0;
            for b in Board::every(goal.shape()) {
                let Some(d) = table.distance(&b) else {
                    continue;
                };
                let sum: u32 = dbs.iter().map(|db| db.lookup(&b) as u32).sum();
                assert!(sum <= d as u32, "{partition:?} {b:?}: {sum} > {d}");
                use crate::heuristic::Heuristic;
                let m = md.estimate(b.cells());
                assert!(sum >= m || partition[0].len() < 4);
                beats_manhattan += (sum > m) as u32;
            }
            assert!(beats_manhattan > 1000, "{partition:?}");
        }
    }

    /// Every (pattern cells, blank cell) state's distance by a plain 0-1 breadth-first search
    /// with free blank moves: no regions, no ranks, no sharing between threads.
    type Distances = std::collections::HashMap<(Vec<u8>, u8), u8>;

    /// The database from [`Distances`] (the least over the blank's cells). Also the number of
    /// (pattern cells, free region) states first reached at each distance, what the builder
    /// reports per layer, and the distances themselves (what a zero-aware table holds).
    fn reference_entries(
        goal: &Board,
        tiles: &[Tile],
    ) -> (std::collections::HashMap<Vec<u8>, u8>, Vec<u64>, Distances) {
        use std::collections::{HashMap, VecDeque};
        let shape = goal.shape();
        let home: Vec<u8> = tiles
            .iter()
            .map(|&t| goal.position_of(t).unwrap() as u8)
            .collect();
        let mut dist: HashMap<(Vec<u8>, u8), u8> = HashMap::new();
        let mut queue = VecDeque::from([(home, goal.blank() as u8, 0u8)]);
        while let Some((pos, blank, d)) = queue.pop_front() {
            if dist.contains_key(&(pos.clone(), blank)) {
                continue;
            }
            dist.insert((pos.clone(), blank), d);
            for m in crate::board::Move::ALL {
                let Some(next) = shape.neighbour(blank as usize, m) else {
                    continue;
                };
                let mut moved = pos.clone();
                match pos.iter().position(|&p| p as usize == next) {
                    // A pattern tile slides into the blank: one move.
                    Some(i) => {
                        moved[i] = blank;
                        queue.push_back((moved, next as u8, d + 1));
                    }
                    // Any other tile: free.
                    None => queue.push_front((moved, next as u8, d)),
                }
            }
        }
        // Every blank cell of one free region has the same distance (its moves are free), so
        // a region is counted once, at its lowest blank cell.
        let neighbours = neighbour_masks(shape);
        let mut layers = vec![0u64; 256];
        let mut best: HashMap<Vec<u8>, u8> = HashMap::new();
        for ((pos, blank), &d) in &dist {
            let occupied = pos.iter().fold(0u32, |m, &p| m | 1 << p);
            let free = ((1u64 << shape.cells()) - 1) as u32 & !occupied;
            if region(&neighbours, free, *blank as usize).trailing_zeros() == *blank as u32 {
                layers[d as usize] += 1;
            }
            let e = best.entry(pos.clone()).or_insert(d);
            *e = (*e).min(d);
        }
        while layers.last() == Some(&0) {
            layers.pop();
        }
        (best, layers, dist)
    }

    /// The cases of the tests against [`reference_entries`]: small boards where pattern tiles
    /// often cut the free cells into several regions (narrow boards, corners), with goals
    /// whose blank is not in a corner too.
    fn small_cases() -> Vec<(Board, Vec<Tile>)> {
        [
            ("1 2 3 4 x 5 6 7 8", vec![1, 2, 3, 4]),
            ("1 2 3 4 5 6 7 8 x", vec![2, 4, 6, 8]),
            ("1 2 3 4 5 6 7 8 9 x", vec![1, 2, 6, 7]),
            ("1 2 3 4 5 6 7 8 9 x", vec![3, 4, 5, 8, 9]),
            ("1 2 x 3 4 5 6 7 8 9 10 11", vec![1, 4, 6, 9, 11]),
        ]
        .into_iter()
        .map(|(goal, tiles)| {
            let cells: Vec<Tile> = goal
                .split(' ')
                .map(|t| if t == "x" { BLANK } else { t.parse().unwrap() })
                .collect();
            let shape = match cells.len() {
                9 => Shape::new(3, 3),
                10 => Shape::new(5, 2),
                _ => Shape::new(4, 3),
            }
            .unwrap();
            (Board::new(shape, &cells).unwrap(), tiles)
        })
        .collect()
    }

    /// The zero-aware table gives every (pattern cells, blank cell) state exactly its distance
    /// in the plain search (read by walking down the bits), and its database is the one built
    /// alone.
    #[test]
    fn zero_aware_values_equal_a_plain_search() {
        use crate::heuristic::zero_aware::ZeroAwareDb;
        for (goal, tiles) in small_cases() {
            let (z_db, z) = ZeroAwareDb::build_with(&goal, &tiles, &quiet, None).unwrap();
            let db = PatternDb::build(&goal, &tiles, &quiet).unwrap();
            assert_eq!(z_db.entries(), db.entries());
            z.check_semantics(&db).unwrap();
            let (_, _, distances) = reference_entries(&goal, &tiles);
            for ((pos, blank), d) in distances {
                let v = z.value(&pos, blank as usize);
                assert_eq!(v, Some(d), "{goal:?} {tiles:?} {pos:?} blank {blank}");
            }
        }
    }

    #[test]
    fn entries_equal_a_plain_search_where_the_free_cells_fall_apart() {
        for (goal, tiles) in small_cases() {
            let layers = Mutex::new(vec![1u64]);
            let record = |_: u32, states: u64, _: u64, _: u64| {
                layers.lock().unwrap().push(states);
            };
            let db = PatternDb::build(&goal, &tiles, &record).unwrap();
            let (reference, reference_layers, _) = reference_entries(&goal, &tiles);
            let mut layers = layers.into_inner().unwrap();
            assert_eq!(layers.pop(), Some(0)); // the empty last layer
            assert_eq!(layers, reference_layers, "{goal:?} {tiles:?}");
            assert_eq!(reference.len(), db.len(), "{goal:?} {tiles:?}");
            for (pos, d) in reference {
                assert_eq!(db.lookup_cells(&pos), d, "{goal:?} {tiles:?} {pos:?}");
            }
        }
    }
}
