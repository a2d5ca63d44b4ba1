//! Pattern databases laid out by plain tile positions, for the IDA* engine on large sets.
//!
//! On disk and in the compact layout a `k`-tile database has `n·(n-1)·…·(n-k+1)` entries,
//! indexed by the rank of the tiles' positions; the engine moves that rank along with the search
//! (see `pdb_eval`), but a vertical slide's correction still reads the board between, and
//! 6-tile 5×5 tables read that way run at 17–19 M states/s a thread against 26 M/s laid out
//! by positions (2026-11-26). Laid out as `n^k` entries indexed by the positions themselves
//! (most significant first), the index of a child is the parent's plus
//! `(to - from) · n^(k-1-slot)` for the one tile that moved: one multiply-add. The table is
//! larger (1.9 times for 6 tiles on 25 cells, the positions where two tiles coincide never
//! read) but every read already misses the caches at these sizes, and
//! the tables are placed in huge pages so that the larger span costs no more address
//! translation. Used only where the compact tables are far larger than the caches and the
//! positional ones at most [`MAX_SPREAD`] times their size (6-tile databases on 5×5: 977 MB for
//! the four, made in about 2 s); 4×4's tables stay compact (spread 4.7-fold for 7 tiles, 8.3-fold
//! for 8, and the smaller ones fit the caches).
//!
//! Zero-aware tables (see `zero_aware`) take the same layout: `n^k · (n - k)` bits, the
//! placement's positional index times `n - k` plus the blank's digit (580 MB for a 6-tile
//! 5×5 pattern, 2.3 GB for the four, made from the compact bits in about 4 s).
//!
//! The tables are made once per process for each set of databases (by goal and patterns) and
//! shared by every [`PdbSet`] holding those databases while any of them lives, so solvers made
//! with different limits (the Python package keeps several) do not each make their own.

use super::pdb::PatternDb;
#[cfg(any(doc, test))]
use super::pdb_set::PdbSet;
use super::zero_aware::ZeroAwareDb;
use crate::board::Tile;
use crate::rank::permutations_count;
use crate::zeroed::{Frozen, Zeroed};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// Most positional entries per compact one.
pub const MAX_SPREAD: f64 = 2.0;
/// Fewest compact entries for a database to be laid out by positions (smaller ones mostly hit
/// the caches, where the compact layout's smaller span wins).
pub const MIN_COMPACT_ENTRIES: u64 = 32_000_000;

/// One database laid out by positions.
#[derive(Debug)]
pub struct PositionalTable {
    entries: Entries,
}

/// A positional table's memory: entries re-laid into a map, or zero-aware bits written in
/// place by the threads that re-lay them.
#[derive(Debug)]
enum Entries {
    Bytes(memmap2::Mmap),
    Bits(Frozen<AtomicU64>),
}

impl PositionalTable {
    /// Whether a `k`-tile database on a board of `n` cells is laid out by positions for the
    /// engine.
    pub fn suits(n: usize, k: usize) -> bool {
        let compact = permutations_count(n, k);
        let spread = (n as u64).checked_pow(k as u32);
        compact >= MIN_COMPACT_ENTRIES
            && spread
                .is_some_and(|s| s < u32::MAX as u64 && s as f64 <= compact as f64 * MAX_SPREAD)
    }

    /// `db` re-laid by positions (in huge pages where the system allows), filled on plain
    /// threads (never on the rayon pool, whose tasks may be the ones waiting for the table).
    pub(crate) fn of(db: &PatternDb, n: usize) -> std::io::Result<PositionalTable> {
        let k = db.tiles().len();
        let len = (n as u64)
            .checked_pow(k as u32)
            .filter(|&l| l < u32::MAX as u64 && k >= 1)
            .ok_or_else(|| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "too many positional entries",
                )
            })? as usize;
        let mut map = memmap2::MmapMut::map_anon(len)?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        let compact = db.entries();
        if k == 1 {
            map.copy_from_slice(&compact[..n]);
        } else {
            // One block per first cell, the blocks dealt out to the threads in runs.
            let block = n.pow(k as u32 - 1);
            let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
            let per = n.div_ceil(threads.clamp(1, n)) * block;
            std::thread::scope(|scope| {
                for (i, run) in map.chunks_mut(per).enumerate() {
                    scope.spawn(move || {
                        for (j, out) in run.chunks_mut(block).enumerate() {
                            let p0 = i * per / block + j;
                            fill(out, compact, n, k, 1, 1u64 << p0, p0 as u64);
                        }
                    });
                }
            });
        }
        Ok(PositionalTable {
            entries: Entries::Bytes(map.make_read_only()?),
        })
    }

    /// `z`'s zero-aware bits re-laid by positions (see the module documentation), in huge
    /// pages where the system allows, filled on plain threads.
    pub(crate) fn of_zero(z: &ZeroAwareDb, n: usize) -> std::io::Result<PositionalTable> {
        let k = z.tiles().len();
        let too_many = || {
            std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "too many positional entries",
            )
        };
        let placements = (n as u64)
            .checked_pow(k as u32)
            .filter(|&l| l < u32::MAX as u64 && k >= 1 && k < n)
            .ok_or_else(too_many)?;
        let free = n - k;
        let bits = placements * free as u64;
        let len = bits.div_ceil(8) as usize;
        let zeroed = Zeroed::<AtomicU64>::new(len.div_ceil(8))
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::OutOfMemory, "no memory"))?;
        let words = zeroed.atomics();
        let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
        let per = n.div_ceil(threads.clamp(1, n));
        let source = z.bits();
        std::thread::scope(|scope| {
            for first in (0..n).step_by(per) {
                scope.spawn(move || {
                    // A run of first cells per thread, whose fields come in increasing order:
                    // each word is written once, atomically only where two runs meet.
                    let block = (n as u64).pow(k as u32 - 1) * free as u64;
                    let end = (first + per).min(n) as u64;
                    let mut walk = ZeroWalk {
                        words,
                        source,
                        n,
                        k,
                        edges: (
                            (first as u64 * block) >> 6,
                            (end * block).saturating_sub(1) >> 6,
                        ),
                        word: (first as u64 * block) >> 6,
                        acc: 0,
                    };
                    for p0 in first as u64..end {
                        if k == 1 {
                            walk.leaf(p0, p0);
                        } else {
                            walk.fill(1, 1u64 << p0, p0, p0);
                        }
                    }
                    walk.flush();
                });
            }
        });
        Ok(PositionalTable {
            entries: Entries::Bits(zeroed.freeze(len)),
        })
    }

    /// The positional tables of `dbs` (toward the goal `goal`, on `n` cells), or of their
    /// zero-aware tables `zero` when given, when every one suits: made once and shared while
    /// any set holds them (see the module docs). `None` when they do not suit or cannot be
    /// made (no memory): the search then reads the compact ones.
    pub(crate) fn shared(
        goal: &[Tile],
        dbs: &[Arc<PatternDb>],
        zero: Option<&[ZeroAwareDb]>,
        n: usize,
    ) -> Option<Arc<[PositionalTable]>> {
        type Key = (Vec<Tile>, Vec<Vec<Tile>>, bool);
        static MADE: Mutex<Vec<(Key, Weak<[PositionalTable]>)>> = Mutex::new(Vec::new());
        if !dbs
            .iter()
            .all(|db| PositionalTable::suits(n, db.tiles().len()))
        {
            return None;
        }
        let key: Key = (
            goal.to_vec(),
            dbs.iter().map(|db| db.tiles().to_vec()).collect(),
            zero.is_some(),
        );
        // Held while making them, so that two solvers wanting the same tables make them once.
        let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
        made.retain(|(_, w)| w.strong_count() > 0);
        if let Some(tables) = made
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, w)| w.upgrade())
        {
            return Some(tables);
        }
        let tables: Arc<[PositionalTable]> = match zero {
            Some(zero) => zero
                .iter()
                .map(|z| PositionalTable::of_zero(z, n).ok())
                .collect::<Option<Vec<_>>>()?,
            None => dbs
                .iter()
                .map(|db| PositionalTable::of(db, n).ok())
                .collect::<Option<Vec<_>>>()?,
        }
        .into();
        made.push((key, Arc::downgrade(&tables)));
        Some(tables)
    }

    /// Every database of `set` laid out by positions, whether or not they suit it (tests).
    #[cfg(test)]
    pub(crate) fn all_of(set: &PdbSet) -> Vec<PositionalTable> {
        let n = set.goal().shape().cells();
        set.databases()
            .iter()
            .map(|db| PositionalTable::of(db, n).unwrap())
            .collect()
    }

    /// Every zero-aware table of `set` laid out by positions, whether or not they suit it
    /// (tests).
    #[cfg(test)]
    pub(crate) fn zero_aware_of(set: &PdbSet) -> Vec<PositionalTable> {
        let n = set.goal().shape().cells();
        set.zero_aware()
            .expect("a set with zero-aware tables")
            .iter()
            .map(|z| PositionalTable::of_zero(z, n).unwrap())
            .collect()
    }

    /// The entries, `n^k` of them (for zero-aware tables, the bytes of `n^k · (n - k)` bits).
    #[inline(always)]
    pub fn entries(&self) -> &[u8] {
        match &self.entries {
            Entries::Bytes(map) => map,
            Entries::Bits(frozen) => frozen.bytes(),
        }
    }
}

/// Re-lays zero-aware bits by positions: the fields of `n - k` bits move from each compact
/// rank's place to its positional index's, in increasing order of the index.
struct ZeroWalk<'a> {
    words: &'a [AtomicU64],
    source: &'a [u8],
    n: usize,
    k: usize,
    /// The first and last word of this walk's range (another walk may write them too).
    edges: (u64, u64),
    /// The word being filled, and its bits so far.
    word: u64,
    acc: u64,
}

impl ZeroWalk<'_> {
    /// Every placement whose first `depth` cells are those in `used`, with compact rank
    /// `rank` and positional index `index` for that prefix.
    fn fill(&mut self, depth: usize, used: u64, rank: u64, index: u64) {
        let n = self.n;
        for v in 0..n {
            if used & (1 << v) != 0 {
                continue;
            }
            let below = v as u64 - (used & ((1u64 << v) - 1)).count_ones() as u64;
            let rank = rank * (n - depth) as u64 + below;
            let index = index * n as u64 + v as u64;
            if depth + 1 < self.k {
                self.fill(depth + 1, used | (1 << v), rank, index);
            } else {
                self.leaf(rank, index);
            }
        }
    }

    /// Moves one placement's field.
    #[inline]
    fn leaf(&mut self, rank: u64, index: u64) {
        let free = (self.n - self.k) as u64;
        let field = bits_at(self.source, rank * free, free as usize);
        let at = index * free;
        let (w, sh) = (at >> 6, at & 63);
        if w != self.word {
            self.flush();
            self.word = w;
        }
        self.acc |= field << sh;
        if sh + free > 64 {
            self.flush();
            self.word = w + 1;
            self.acc = field >> (64 - sh);
        }
    }

    /// Writes the word being filled.
    fn flush(&mut self) {
        let w = self.word;
        if w == self.edges.0 || w == self.edges.1 {
            self.words[w as usize].fetch_or(self.acc, Ordering::Relaxed);
        } else if self.acc != 0 {
            self.words[w as usize].store(self.acc, Ordering::Relaxed);
        }
        self.acc = 0;
    }
}

/// Bits `at .. at + len` of `bytes` (`len` at most 56), the first the lowest.
fn bits_at(bytes: &[u8], at: u64, len: usize) -> u64 {
    let first = (at >> 3) as usize;
    let mut word = [0u8; 8];
    let take = bytes.len().saturating_sub(first).min(8);
    word[..take].copy_from_slice(&bytes[first..first + take]);
    (u64::from_le_bytes(word) >> (at & 7)) & ((1u64 << len) - 1)
}

/// Fills `out` (the entries whose first `depth` positions are the cells in `used`, with
/// compact rank `rank` for that prefix) from the compact entries.
fn fill(out: &mut [u8], compact: &[u8], n: usize, k: usize, depth: usize, used: u64, rank: u64) {
    if depth == k - 1 {
        // The last position: consecutive compact ranks over the unused cells, in order.
        let mut c = (rank * (n - depth) as u64) as usize;
        for (v, e) in out.iter_mut().enumerate().take(n) {
            if used & (1 << v) == 0 {
                *e = compact[c];
                c += 1;
            }
        }
        return;
    }
    let block = n.pow((k - 1 - depth) as u32);
    for (v, chunk) in out.chunks_mut(block).enumerate().take(n) {
        if used & (1 << v) != 0 {
            continue;
        }
        let below = v as u64 - (used & ((1u64 << v) - 1)).count_ones() as u64;
        let rank = rank * (n - depth) as u64 + below;
        fill(chunk, compact, n, k, depth + 1, used | (1 << v), rank);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Move, Shape};
    use crate::heuristic::pdb_eval::{
        CompactEval, PositionalEval, ZeroCompactEval, ZeroPositionalEval,
    };
    use crate::heuristic::pdb_set::{Partition, PdbSet};
    use crate::heuristic::zero_aware::bit;
    use crate::rank::unrank_partial;
    use crate::search::Limits;
    use crate::search::engine::run;
    use crate::search::eval::{Cells, Evaluator};
    use crate::search::move_pruning::MovePruner;
    use rand::{Rng, SeedableRng, rngs::SmallRng};

    fn quiet(_: u32, _: u64, _: u64, _: u64) {}

    fn set(shape: Shape, spec: &str) -> PdbSet {
        let p = Partition::parse(spec, shape).unwrap();
        PdbSet::load_or_build(
            &Board::goal(shape),
            p,
            None,
            true,
            &quiet,
            &mut |_| {},
            None,
        )
        .unwrap()
    }

    /// Every entry of the compact layout is found at its tiles' positions in the positional one.
    #[test]
    fn positional_layout_holds_every_compact_entry() {
        for (shape, spec) in [
            (Shape::new(4, 4).unwrap(), "5-5-5"),
            (Shape::new(3, 5).unwrap(), "blocks-4"),
        ] {
            let s = set(shape, spec);
            let n = shape.cells();
            for db in s.databases() {
                let k = db.tiles().len();
                let table = PositionalTable::of(db, n).unwrap();
                assert_eq!(table.entries().len(), n.pow(k as u32));
                let mut places = vec![0u8; k];
                for (r, &e) in db.entries().iter().enumerate() {
                    unrank_partial(r as u64, n, &mut places);
                    let at = places.iter().fold(0usize, |i, &p| i * n + p as usize);
                    assert_eq!(table.entries()[at], e, "rank {r} at {places:?}");
                }
            }
        }
    }

    /// Every zero-aware bit of the compact layout is found at its placement's positions in
    /// the positional one (each thread's run of first cells meets the next in a shared word),
    /// and no other bit is set.
    #[test]
    fn positional_layout_holds_every_zero_aware_bit() {
        for (shape, spec) in [
            (Shape::new(4, 4).unwrap(), "5-5-5"),
            (Shape::new(4, 4).unwrap(), "6-6-3"),
            (Shape::new(3, 5).unwrap(), "blocks-4"),
            (Shape::new(5, 5).unwrap(), "blocks-3"),
            (Shape::new(3, 3).unwrap(), "1/2,3,4/5,6,7,8"),
        ] {
            let s = set(shape, spec);
            let n = shape.cells();
            for z in s.zero_aware().unwrap() {
                let k = z.tiles().len();
                let free = (n - k) as u64;
                let table = PositionalTable::of_zero(z, n).unwrap();
                let bits = (n as u64).pow(k as u32) * free;
                assert_eq!(table.entries().len() as u64, bits.div_ceil(8));
                let mut places = vec![0u8; k];
                let mut ones = 0u64;
                for r in 0..permutations_count(n, k) {
                    unrank_partial(r, n, &mut places);
                    let at = places.iter().fold(0u64, |i, &p| i * n as u64 + p as u64);
                    for d in 0..free {
                        let want = bit(z.bits(), r * free + d);
                        assert_eq!(bit(table.entries(), at * free + d), want, "{spec} rank {r}");
                        ones += want as u64;
                    }
                }
                let set_bits: u64 = table.entries().iter().map(|b| b.count_ones() as u64).sum();
                assert_eq!(set_bits, ones, "{spec}: stray bits");
            }
        }
    }

    /// Over the positional tables the engine does exactly what it does over the compact ones:
    /// same lengths, same states expanded and generated, reflection included (4×4) or not (3×5),
    /// additive entries or zero-aware bits.
    #[test]
    fn positional_evaluator_agrees_node_for_node() {
        let mut rng = SmallRng::seed_from_u64(5);
        for (shape, spec) in [
            (Shape::new(4, 4).unwrap(), "5-5-5"),
            (Shape::new(3, 5).unwrap(), "blocks-5"),
        ] {
            let s = set(shape, spec);
            let tables = PositionalTable::all_of(&s);
            let positional = PositionalEval::laid_out(&s, &tables).unwrap();
            let compact = CompactEval::new(&s).unwrap();
            agree(&s, &positional, &compact, &mut rng);
            let zero_tables = PositionalTable::zero_aware_of(&s);
            let zero_positional = ZeroPositionalEval::laid_out(&s, &zero_tables).unwrap();
            let zero_compact = ZeroCompactEval::zero_aware(&s).unwrap();
            agree(&s, &zero_positional, &zero_compact, &mut rng);
        }
    }

    /// `positional` and `compact` search a dozen random boards state for state alike.
    fn agree<P: Evaluator, C: Evaluator>(
        s: &PdbSet,
        positional: &P,
        compact: &C,
        rng: &mut SmallRng,
    ) {
        {
            for _ in 0..12 {
                let mut b = s.goal().clone();
                for _ in 0..rng.random_range(20..60) {
                    b.apply(Move::ALL[rng.random_range(0..4)]);
                }
                let cells = Cells::of(&b);
                assert_eq!(positional.root(&cells).1, compact.root(&cells).1);
                let none = Limits::default();
                let pruner = MovePruner::standard();
                let (a, sa) = run(&b, positional, pruner, &none, false).unwrap();
                let (c, sc) = run(&b, compact, pruner, &none, false).unwrap();
                a.verify(&b, s.goal()).unwrap();
                assert_eq!(
                    (a.len(), sa.expanded, sa.generated),
                    (c.len(), sc.expanded, sc.generated)
                );
            }
        }
    }

    /// Only large databases whose positional layout is at most twice their size are re-laid:
    /// 6 tiles on 5×5, not 5 or 7 there, nor 4×4's (the 7- and 8-tile ones would spread 4.7-
    /// and 8.3-fold, the smaller fit the caches).
    #[test]
    fn the_layout_suits_only_large_databases() {
        let five = crate::heuristic::pdb::PatternDb::build(
            &Board::goal(Shape::new(5, 5).unwrap()),
            &[1, 2],
            &quiet,
        )
        .unwrap();
        assert!(!PositionalTable::suits(25, five.tiles().len()));
        assert!(PositionalTable::suits(25, 6));
        assert!(!PositionalTable::suits(25, 5) && !PositionalTable::suits(25, 7));
        assert!(!PositionalTable::suits(16, 7) && !PositionalTable::suits(16, 8));
        assert!(!PositionalTable::suits(20, 6) && !PositionalTable::suits(16, 6));
    }
}
