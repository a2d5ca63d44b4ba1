//! Zero-aware pattern databases at one bit an entry: the same breadth-first search as the
//! additive databases, keeping what they throw away.
//!
//! Why: an additive database stores, for the pattern tiles' cells, the fewest pattern-tile
//! moves *minimised over where the blank is*. But the blank cannot cross pattern tiles: the
//! free cells fall into regions, and a blank shut in the wrong region costs moves the minimum
//! forgets. The build already searches states of (pattern cells, blank's region); a zero-aware
//! database (Clausecker and Reinefeld's name) keeps each region's own distance. It never says
//! less than the additive database, and the sum over a partition stays admissible (each
//! database still counts only its own tiles' moves). Measured: Korf's 100 15-puzzles with 7-8
//! need 1.85 times fewer states, the 24-puzzle's instance 1 with 6-6-6-6 2.77 times fewer.
//!
//! **One bit an entry.** A state of the zero-aware search and its neighbour are one pattern
//! move apart *both ways* (the move back needs the blank where the tile was, which it is), so
//! their distances differ by at most one; and every pattern move flips the parity of the
//! pattern's cell colours, so they differ by exactly one. A search that knows the parent's
//! value therefore needs one bit to know the child's: bit 1 of the distance (`(h >> 1) & 1`)
//! tells `h + 1` from `h - 1`. The value of a search's start is found by walking down the
//! table: from any state some neighbour is one nearer, and the bit and the colour parity
//! (which gives bit 0) name it.
//!
//! **Index.** Entry `rank · (n - k) + d`, where `rank` is the pattern's partial-permutation
//! rank (as in the additive file) and `d` the blank's cell counted among the `n - k` cells no
//! pattern tile holds: every blank cell of a region carries its region's bit, so a lookup needs
//! no flood fill. The 8-tile 4×4 table is 519 MB, a 6-tile 5×5 one 303 MB.
//!
//! The file is a 64-byte header as the additive files' (its own magic), then the bits; loading
//! checks the header, the checksum and the meaning: for sampled placements the smallest value
//! over the blank's regions must equal the additive database's entry.

use super::pdb::{MAX_PATTERN_TILES, PatternDb, PdbError, Progress, neighbour_masks, region};
use super::pdb_file::{HEADER_LEN, Loading, checked_frame, checksum, corrupt, io_err, write_whole};
use crate::board::{Board, Tile};
use crate::rank::{permutations_count, rank_partial, unrank_partial};
use crate::zeroed::{Frozen, Zeroed};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU32, AtomicU64};

const MAGIC: &[u8; 8] = b"NPZLZPD\x01";
const VERSION: u32 = 1;
/// Placements checked for their meaning on every load.
const SEMANTIC_SAMPLES: u64 = 300;
/// Largest zero-aware table built beside a database (1 GiB of bits): every preset of 4×4
/// and 5×5's 6-tile databases; not 7-tile 5×5 ones (5.4 GB).
pub const MAX_ZERO_AWARE_BYTES: u64 = 1 << 30;

/// Bytes of the zero-aware table of a `k`-tile pattern on `n` cells.
pub fn table_bytes(n: usize, k: usize) -> u64 {
    permutations_count(n, k)
        .saturating_mul((n - k) as u64)
        .div_ceil(8)
}

/// Whether a `k`-tile database on `n` cells gets its zero-aware table when it is built: at
/// most [`MAX_ZERO_AWARE_BYTES`], and at least two tiles outside the pattern. (With one or none,
/// the permutation's parity leaves half the states of the search unreachable, and their bits
/// could not be checked on loading; such patterns are for tiny boards, whose complete tables
/// answer anyway.)
pub fn suits(n: usize, k: usize) -> bool {
    k + 3 <= n && table_bytes(n, k) <= MAX_ZERO_AWARE_BYTES
}

/// Bit `i` of `bits`.
#[inline(always)]
pub(crate) fn bit(bits: &[u8], i: u64) -> u8 {
    (bits[(i >> 3) as usize] >> (i & 7)) & 1
}

/// The value of a neighbour of a state of value `parent`, whose bit 1 is `b` (it is
/// `parent ± 1`: see the module documentation).
#[inline(always)]
pub(crate) fn next_value(parent: u8, b: u8) -> u8 {
    let up = (parent.wrapping_add(1) >> 1) & 1;
    parent.wrapping_sub(1).wrapping_add(2 * (1 ^ up ^ b))
}

/// The blank's digit: its cell counted among the cells `occupied` leaves free.
#[inline(always)]
pub(crate) fn blank_digit(occupied: u32, blank: usize) -> u64 {
    (blank as u32 - (occupied & ((1u32 << blank) - 1)).count_ones()) as u64
}

/// What walking down a zero-aware table needs: the board, the pattern's home cells and the
/// goal blank (all in the table's frame), and how the table indexes a placement.
pub(crate) struct Descent<'t> {
    /// Cell masks of each cell's neighbours.
    pub neighbours: &'t [u32],
    /// The board's width.
    pub width: usize,
    /// Each slot's home cell.
    pub home: &'t [u8],
    /// The goal's blank cell.
    pub goal_blank: usize,
    /// The table's bits.
    pub bits: &'t [u8],
}

impl Descent<'_> {
    /// The value of the pattern at `pos` with the blank at `blank`: the number of steps down
    /// to the goal, each to the neighbour one nearer; `index(pos)` is the placement's index
    /// before the blank's digit (times `n - k`). `None` when the table leads nowhere within
    /// 255 steps (a damaged table).
    pub fn value(&self, pos: &[u8], blank: usize, index: impl Fn(&[u8]) -> u64) -> Option<u8> {
        let n = self.neighbours.len();
        let k = pos.len();
        let free_count = (n - k) as u64;
        let full: u32 = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        let mut pos_buf = [0u8; MAX_PATTERN_TILES];
        pos_buf[..k].copy_from_slice(pos);
        let pos = &mut pos_buf[..k];
        let mut blank = blank;
        let mut moved = [0u8; MAX_PATTERN_TILES];
        for steps in 0..=u8::MAX {
            let occupied = pos.iter().fold(0u32, |m, &p| m | 1 << p);
            let reg = region(self.neighbours, full & !occupied, blank);
            if *pos == self.home[..k] && reg & (1 << self.goal_blank) != 0 {
                return Some(steps);
            }
            let parity = pos
                .iter()
                .zip(self.home)
                .map(|(&p, &h)| {
                    let (p, h) = (p as usize, h as usize);
                    (p / self.width).abs_diff(h / self.width)
                        + (p % self.width).abs_diff(h % self.width)
                })
                .sum::<usize>()
                & 1;
            let here = index(pos) * free_count + blank_digit(occupied, blank);
            // The value modulo 4, and bit 1 of the value one less.
            let low = 2 * bit(self.bits, here) as usize + parity;
            let want = (((low + 3) % 4) >> 1) as u8;
            let mut next = None;
            'slots: for s in 0..k {
                let from = pos[s] as usize;
                let mut targets = self.neighbours[from] & reg;
                while targets != 0 {
                    let to = targets.trailing_zeros() as usize;
                    targets &= targets - 1;
                    moved[..k].copy_from_slice(pos);
                    moved[s] = to as u8;
                    let occ2 = (occupied & !(1 << from)) | 1 << to;
                    let i = index(&moved[..k]) * free_count + blank_digit(occ2, from);
                    if bit(self.bits, i) == want {
                        next = Some((s, to as u8, from));
                        break 'slots;
                    }
                }
            }
            let (s, to, from) = next?;
            pos[s] = to;
            blank = from;
        }
        None
    }
}

/// The file header of the zero-aware table of `tiles` toward `goal`, bits checksum `crc`.
fn header(goal: &Board, tiles: &[Tile], crc: u32) -> [u8; HEADER_LEN] {
    let shape = goal.shape();
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12] = shape.width() as u8;
    h[13] = shape.height() as u8;
    h[14] = tiles.len() as u8;
    for (i, &t) in goal.cells().iter().enumerate() {
        h[16 + i] = t as u8;
    }
    for (i, &t) in tiles.iter().enumerate() {
        h[48 + i] = t as u8;
    }
    h[56..60].copy_from_slice(&crc.to_le_bytes());
    let header_crc = crc32fast::hash(&h[..60]);
    h[60..64].copy_from_slice(&header_crc.to_le_bytes());
    h
}

/// One pattern's zero-aware table (see the module documentation).
#[derive(Debug)]
pub struct ZeroAwareDb {
    goal: Board,
    tiles: Vec<Tile>,
    bits: Bits,
}

/// Where a table's bits live: built here, or read or mapped from its file (`len` bytes from
/// `offset`, after the header in a mapped file).
#[derive(Debug)]
enum Bits {
    Built(Frozen<AtomicU64>),
    File {
        map: memmap2::Mmap,
        offset: usize,
        len: usize,
    },
}

/// Anonymous memory of `len` bytes (in huge pages where the system allows), filled by `fill`.
fn huge_bytes(
    len: usize,
    fill: impl FnOnce(&mut [u8]) -> Result<(), PdbError>,
) -> Result<memmap2::Mmap, PdbError> {
    let no_memory = |e: std::io::Error| {
        PdbError::Unsupported(format!(
            "the system gave no {} of memory for a zero-aware table: {e}",
            super::pdb_set::human_bytes(len as u64)
        ))
    };
    let mut map = memmap2::MmapMut::map_anon(len.max(1)).map_err(no_memory)?;
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    fill(&mut map[..len])?;
    map.make_read_only().map_err(no_memory)
}

impl ZeroAwareDb {
    /// Builds the additive database of `tiles` toward `goal` and its zero-aware table, in one
    /// breadth-first search on all rayon threads (given up after the layer during which
    /// `stop` is set).
    pub fn build_with(
        goal: &Board,
        tiles: &[Tile],
        progress: Progress,
        stop: Option<&AtomicBool>,
    ) -> Result<(PatternDb, ZeroAwareDb), PdbError> {
        let n = goal.shape().cells();
        let k = tiles.len();
        super::pdb::check_pattern(goal, tiles)?;
        if !suits(n, k) {
            return Err(PdbError::Unsupported(format!(
                "a zero-aware table of {k} tiles on {} would take {} (at most {})",
                goal.shape(),
                super::pdb_set::human_bytes(table_bytes(n, k)),
                super::pdb_set::human_bytes(MAX_ZERO_AWARE_BYTES)
            )));
        }
        let bytes = table_bytes(n, k) as usize;
        super::pdb::check_memory(
            super::pdb::build_bytes(n, k) + bytes as u64,
            &format!(
                "the zero-aware database of tiles {tiles:?} on {}",
                goal.shape()
            ),
        )?;
        // The bits are written in place by the build's threads.
        let words = Zeroed::<AtomicU64>::new(bytes.div_ceil(8)).ok_or_else(|| {
            PdbError::Unsupported(format!(
                "the system gave no {} of memory for a zero-aware table",
                super::pdb_set::human_bytes(bytes as u64)
            ))
        })?;
        let entries = if n <= 16 {
            PatternDb::layers::<AtomicU16>(goal, tiles, progress, stop, Some(words.atomics()))?
        } else {
            PatternDb::layers::<AtomicU32>(goal, tiles, progress, stop, Some(words.atomics()))?
        };
        let db = PatternDb::from_entries(goal, tiles, entries);
        let z = ZeroAwareDb {
            goal: goal.clone(),
            tiles: tiles.to_vec(),
            bits: Bits::Built(words.freeze(bytes)),
        };
        // As a loaded table is (cheap: a few hundred walks down it).
        z.check_semantics(&db).map_err(|why| {
            PdbError::Unsupported(format!(
                "the zero-aware table just built fails its check: {why}"
            ))
        })?;
        Ok((db, z))
    }

    /// The pattern tiles.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The goal.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The bits, `rank · (n - k) + blank digit` (see the module documentation).
    pub fn bits(&self) -> &[u8] {
        match &self.bits {
            Bits::Built(frozen) => frozen.bytes(),
            Bits::File { map, offset, len } => &map[*offset..*offset + *len],
        }
    }

    /// The value of the pattern at `pos` (in pattern order) with the blank at `blank`, read by
    /// walking down the table; `None` if the table is damaged.
    pub fn value(&self, pos: &[u8], blank: usize) -> Option<u8> {
        let n = self.goal.shape().cells();
        self.with_descent(|walk| walk.value(pos, blank, |p| rank_partial(p, n)))
    }

    /// `f` given the walk down this table (board, home cells and bits, made once).
    fn with_descent<R>(&self, f: impl FnOnce(&Descent<'_>) -> R) -> R {
        let shape = self.goal.shape();
        let neighbours = neighbour_masks(shape);
        let home: Vec<u8> = self
            .tiles
            .iter()
            .map(|&t| self.goal.position_of(t).unwrap_or(0) as u8)
            .collect();
        f(&Descent {
            neighbours: &neighbours,
            width: shape.width(),
            home: &home,
            goal_blank: self.goal.blank(),
            bits: self.bits(),
        })
    }

    /// Writes the table to `path` (via a temporary file and a rename).
    pub fn save(&self, path: &Path) -> Result<(), PdbError> {
        write_whole(
            path,
            &[
                &header(&self.goal, &self.tiles, checksum(self.bits())),
                self.bits(),
            ],
        )
    }

    /// Reads the table at `path`, which must be the one of `db`'s goal and pattern, checking
    /// its header, its checksum and its meaning against `db`; held as `loading` says (a copy
    /// is in huge pages where the system allows: about 7 % faster searches on 4×4, 0.4 s more
    /// to load 7-8's two tables).
    pub fn load(path: &Path, db: &PatternDb, loading: Loading) -> Result<ZeroAwareDb, PdbError> {
        let meta = std::fs::metadata(path).map_err(|e| io_err(path, e))?;
        if !meta.is_file() {
            return Err(corrupt(path, "not a regular file"));
        }
        let (n, k) = (db.shape().cells(), db.tiles().len());
        let bytes = table_bytes(n, k);
        if meta.len() != HEADER_LEN as u64 + bytes {
            return Err(corrupt(
                path,
                format!(
                    "{} bytes, a zero-aware table of {k} tiles on {} has {}: truncated or padded",
                    meta.len(),
                    db.shape(),
                    HEADER_LEN as u64 + bytes
                ),
            ));
        }
        let file = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
        let mut head = [0u8; HEADER_LEN];
        use std::os::unix::fs::FileExt;
        file.read_exact_at(&mut head, 0)
            .map_err(|_| corrupt(path, "shorter than a header: truncated"))?;
        let h = checked_frame(path, &head, MAGIC, "zero-aware pattern database", VERSION)?;
        let crc = u32::from_le_bytes([h[56], h[57], h[58], h[59]]);
        if header(db.goal(), db.tiles(), crc)[..60] != h[..60] {
            return Err(corrupt(path, "holds a different goal or pattern"));
        }
        let (map, offset) = if loading == Loading::Copy {
            let bits = huge_bytes(bytes as usize, |out| {
                // Both cores fault the pages in and read.
                use rayon::prelude::*;
                const CHUNK: usize = 4 << 20;
                crate::parallel::run(|| {
                    out.par_chunks_mut(CHUNK)
                        .enumerate()
                        .try_for_each(|(i, c)| {
                            file.read_exact_at(c, (HEADER_LEN + i * CHUNK) as u64)
                                .map_err(|e| io_err(path, e))
                        })
                })
            })?;
            (bits, 0)
        } else {
            // SAFETY: read-only and private; cache files are written whole and renamed into
            // place, never modified in place by npuzzle (see `Loading::Map`).
            let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| io_err(path, e))?;
            let _ = map.advise(memmap2::Advice::WillNeed);
            (map, HEADER_LEN)
        };
        if checksum(&map[offset..offset + bytes as usize]) != crc {
            return Err(corrupt(
                path,
                "entries checksum mismatch: the file is corrupted",
            ));
        }
        let z = ZeroAwareDb {
            goal: db.goal().clone(),
            tiles: db.tiles().to_vec(),
            bits: Bits::File {
                map,
                offset,
                len: bytes as usize,
            },
        };
        z.check_semantics(db).map_err(|why| corrupt(path, why))?;
        Ok(z)
    }

    /// Checks that the bits mean what they say, against the additive database `db` of the same
    /// pattern: for sampled placements (and the goal's), walking down from the blank in each
    /// region reaches the goal, the state's own bit agrees with the distance walked, and the
    /// smallest of the regions' values is `db`'s entry.
    pub fn check_semantics(&self, db: &PatternDb) -> Result<(), String> {
        let n = self.goal.shape().cells();
        let k = self.tiles.len();
        let ranks = permutations_count(n, k);
        let full: u32 = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
        self.with_descent(|walk| self.check_walks(walk, db, n, k, ranks, full))
    }

    /// [`ZeroAwareDb::check_semantics`] over `walk`.
    fn check_walks(
        &self,
        walk: &Descent<'_>,
        db: &PatternDb,
        n: usize,
        k: usize,
        ranks: u64,
        full: u32,
    ) -> Result<(), String> {
        let neighbours = walk.neighbours;
        let goal_rank = rank_partial(walk.home, n);
        let mut pos = [0u8; MAX_PATTERN_TILES];
        let step = (ranks / SEMANTIC_SAMPLES).max(1);
        let samples = (0..SEMANTIC_SAMPLES.min(ranks)).map(|i| (i * step + i * 7919) % ranks);
        for r in std::iter::once(goal_rank).chain(samples) {
            unrank_partial(r, n, &mut pos[..k]);
            let occupied = pos[..k].iter().fold(0u32, |m, &p| m | 1 << p);
            let mut left = full & !occupied;
            let mut least = u8::MAX;
            while left != 0 {
                let start = left.trailing_zeros() as usize;
                left &= !region(neighbours, full & !occupied, start);
                let v = walk
                    .value(&pos[..k], start, |p| rank_partial(p, n))
                    .ok_or_else(|| format!("placement {r} leads nowhere"))?;
                // The walk reads bits relative to each other; this anchors them.
                let at = r * (n - k) as u64 + blank_digit(occupied, start);
                if bit(self.bits(), at) != (v >> 1) & 1 {
                    return Err(format!(
                        "placement {r}: the bit of a state at distance {v} is wrong"
                    ));
                }
                least = least.min(v);
            }
            let entry = db.entries()[r as usize];
            if least != entry {
                return Err(format!(
                    "placement {r}: the least value over the blank's regions is {least}, the additive entry {entry}"
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::heuristic::pdb_file::PdbCache;

    fn quiet(_: u32, _: u64, _: u64, _: u64) {}

    /// A damaged file is refused on load, whichever part is damaged: the bits (checksum), the
    /// header, the length, and bits forged with a matching checksum (their meaning).
    #[test]
    fn damaged_files_are_detected() {
        let dir = std::env::temp_dir().join(format!("npuzzle-zpdb-{}", std::process::id()));
        let cache = PdbCache::new(&dir);
        let goal = Board::goal(Shape::new(5, 5).unwrap());
        let tiles = [18, 19, 23, 24];
        let (db, z) = ZeroAwareDb::build_with(&goal, &tiles, &quiet, None).unwrap();
        let path = cache.zero_aware_path_for(&goal, &tiles);
        z.save(&path).unwrap();
        for loading in [Loading::Copy, Loading::Map] {
            let loaded = ZeroAwareDb::load(&path, &db, loading).unwrap();
            assert_eq!(loaded.bits(), z.bits());
        }
        let good = std::fs::read(&path).unwrap();
        let refused = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            ZeroAwareDb::load(&path, &db, Loading::Copy)
                .unwrap_err()
                .to_string()
        };
        let mut bytes = good.clone();
        bytes[HEADER_LEN + 1000] ^= 0x10;
        assert!(refused(&bytes).contains("checksum"));
        let mut bytes = good.clone();
        bytes[48] ^= 0x01; // a pattern tile
        assert!(refused(&bytes).contains("header"));
        assert!(refused(&good[..good.len() - 1]).contains("truncated"));
        // Bits inverted, the checksums made to match: only their meaning gives them away.
        let mut bytes = good.clone();
        for b in &mut bytes[HEADER_LEN..] {
            *b = !*b;
        }
        let crc = crc32fast::hash(&bytes[HEADER_LEN..]);
        bytes[56..60].copy_from_slice(&crc.to_le_bytes());
        let header_crc = crc32fast::hash(&bytes[..60]);
        bytes[60..64].copy_from_slice(&header_crc.to_le_bytes());
        let why = refused(&bytes);
        assert!(why.contains("placement"), "{why}");
        // And a cache loads only the good one.
        std::fs::write(&path, &good).unwrap();
        assert!(cache.load_zero_aware(&db).unwrap().is_some());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
