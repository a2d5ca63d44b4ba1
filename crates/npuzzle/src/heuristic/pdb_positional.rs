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
//! 5×5 pattern, 2.3 GB for the four, made from the compact bits in 1–2 s: a prefix's last
//! tile's compact fields are consecutive, so they are copied in one pass).
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
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, TryLockError, Weak};

/// Most positional entries per compact one.
pub const MAX_SPREAD: f64 = 2.0;
/// Fewest compact entries for a database to be laid out by positions (smaller ones mostly hit
/// the caches, where the compact layout's smaller span wins).
pub const MIN_COMPACT_ENTRIES: u64 = 32_000_000;

#[cfg(test)]
thread_local! {
    /// Set by a test on its own thread: small databases are laid out too, and an optimal
    /// search makes the layout after a short first stretch, so that tests reach the paths
    /// that 5×5's databases take (whose builds take minutes).
    pub(crate) static LAY_OUT_SMALL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// One database laid out by positions.
#[derive(Debug)]
pub struct PositionalTable {
    entries: Entries,
}

/// A positional table's memory, written in place by the threads that re-lay it: entries of a
/// byte, or zero-aware bits.
#[derive(Debug)]
enum Entries {
    Bytes(Frozen<AtomicU8>),
    Bits(Frozen<AtomicU64>),
}

/// The positional tables of one set while they are being made. They are filled a unit at a
/// time (one table's placements under one first cell, a `n`th of it), so that a search's
/// limits can stop the making between two units (30–200 ms apart), and the next
/// call goes on from the units already filled instead of starting again.
pub(crate) struct Making {
    tables: Vec<Filling>,
    /// `done[t · n + p0]`: whether table `t`'s unit under first cell `p0` is filled.
    done: Vec<bool>,
}

impl std::fmt::Debug for Making {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let filled = self.done.iter().filter(|d| **d).count();
        write!(f, "Making({filled} of {} units)", self.done.len())
    }
}

/// One table being made: its memory (zero from the system, so an unfilled unit costs no pages)
/// and its length in bytes.
enum Filling {
    Bytes(Zeroed<AtomicU8>, usize),
    Bits(Zeroed<AtomicU64>, usize),
}

/// The making of positional tables was stopped by the caller's `give_up` before it finished.
#[derive(Debug)]
pub(crate) struct GaveUp;

impl Making {
    /// Memory for the positional tables of `dbs` (of their zero-aware tables `zero`, when
    /// given) on `n` cells; `None` when there are too many entries or the system has not the
    /// memory.
    fn new(dbs: &[Arc<PatternDb>], zero: Option<&[ZeroAwareDb]>, n: usize) -> Option<Making> {
        let tables = dbs
            .iter()
            .map(|db| {
                let k = db.tiles().len();
                let placements = (n as u64)
                    .checked_pow(k as u32)
                    .filter(|&l| l < u32::MAX as u64 && k >= 1 && k < n)?;
                Some(if zero.is_some() {
                    let len = (placements * (n - k) as u64).div_ceil(8) as usize;
                    Filling::Bits(Zeroed::new(len.div_ceil(8))?, len)
                } else {
                    let len = placements as usize;
                    Filling::Bytes(Zeroed::new(len)?, len)
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Making {
            done: vec![false; tables.len() * n],
            tables,
        })
    }

    /// Fills the units not filled yet on plain threads (never on the rayon pool, whose tasks
    /// may be the ones waiting for the tables), asking `give_up` before each; true when every
    /// unit is filled.
    fn fill_until(
        &mut self,
        dbs: &[Arc<PatternDb>],
        zero: Option<&[ZeroAwareDb]>,
        n: usize,
        give_up: &(dyn Fn() -> bool + Sync),
    ) -> bool {
        let pending: Vec<usize> = (0..self.done.len()).filter(|&u| !self.done[u]).collect();
        let next = AtomicUsize::new(0);
        let filled: Vec<AtomicBool> = pending.iter().map(|_| AtomicBool::new(false)).collect();
        // As many threads as the caller's pool has (`--threads`), all cores outside one.
        let threads = crate::parallel::threads();
        let tables = &self.tables;
        std::thread::scope(|scope| {
            for _ in 0..threads.clamp(1, pending.len().max(1)) {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= pending.len() || give_up() {
                            break;
                        }
                        let (t, p0) = (pending[i] / n, pending[i] % n);
                        match &tables[t] {
                            Filling::Bytes(z, _) => fill_bytes_unit(z.atomics(), &dbs[t], n, p0),
                            Filling::Bits(z, _) => {
                                if let Some(zero) = zero {
                                    fill_bits_unit(z.atomics(), &zero[t], n, p0)
                                }
                            }
                        }
                        filled[i].store(true, Ordering::Relaxed);
                    }
                });
            }
        });
        for (i, &u) in pending.iter().enumerate() {
            self.done[u] |= filled[i].load(Ordering::Relaxed);
        }
        self.done.iter().all(|&d| d)
    }

    /// The tables, read-only from now on (every unit filled).
    fn finish(self) -> Vec<PositionalTable> {
        self.tables
            .into_iter()
            .map(|f| PositionalTable {
                entries: match f {
                    Filling::Bytes(z, len) => Entries::Bytes(z.freeze(len)),
                    Filling::Bits(z, len) => Entries::Bits(z.freeze(len)),
                },
            })
            .collect()
    }
}

/// `mutex` locked, or `None` once `give_up` (asked every 10 ms while another holds it) says
/// to stop waiting: a search waiting for another's layout keeps to its own limits.
pub(crate) fn lock_unless<'a, T>(
    mutex: &'a Mutex<T>,
    give_up: &(dyn Fn() -> bool + Sync),
) -> Option<MutexGuard<'a, T>> {
    loop {
        match mutex.try_lock() {
            Ok(guard) => return Some(guard),
            Err(TryLockError::Poisoned(e)) => return Some(e.into_inner()),
            Err(TryLockError::WouldBlock) if give_up() => return None,
            Err(TryLockError::WouldBlock) => {
                std::thread::sleep(std::time::Duration::from_millis(10))
            }
        }
    }
}

/// Fills the unit of a byte table under first cell `p0` from `db`'s compact entries.
fn fill_bytes_unit(out: &[AtomicU8], db: &PatternDb, n: usize, p0: usize) {
    let k = db.tiles().len();
    let compact = db.entries();
    if k == 1 {
        out[p0].store(compact[p0], Ordering::Relaxed);
        return;
    }
    let block = n.pow(k as u32 - 1);
    fill(
        &out[p0 * block..(p0 + 1) * block],
        compact,
        n,
        k,
        1,
        1u64 << p0,
        p0 as u64,
    );
}

/// Fills the unit of a zero-aware table under first cell `p0` from `z`'s compact bits: its
/// first and last words may be shared with the neighbouring units, so they are or-ed in.
fn fill_bits_unit(words: &[AtomicU64], z: &ZeroAwareDb, n: usize, p0: usize) {
    let k = z.tiles().len();
    let free = (n - k) as u64;
    let block = (n as u64).pow(k as u32 - 1) * free;
    let (start, end) = (p0 as u64 * block, (p0 as u64 + 1) * block);
    let mut walk = ZeroWalk {
        words,
        source: z.bits(),
        n,
        k,
        edges: (start >> 6, end.saturating_sub(1) >> 6),
        word: start >> 6,
        acc: 0,
    };
    if k == 1 {
        walk.put(start, bits_at(z.bits(), start, free as usize));
    } else {
        walk.fill(1, 1u64 << p0, p0 as u64, p0 as u64);
    }
    walk.flush();
}

impl PositionalTable {
    /// Whether a `k`-tile database on a board of `n` cells is laid out by positions for the
    /// engine.
    pub fn suits(n: usize, k: usize) -> bool {
        let compact = permutations_count(n, k);
        let spread = (n as u64).checked_pow(k as u32);
        #[cfg(test)]
        let least = if LAY_OUT_SMALL.get() {
            0
        } else {
            MIN_COMPACT_ENTRIES
        };
        #[cfg(not(test))]
        let least = MIN_COMPACT_ENTRIES;
        compact >= least
            && spread
                .is_some_and(|s| s < u32::MAX as u64 && s as f64 <= compact as f64 * MAX_SPREAD)
    }

    /// The positional tables of `dbs` (toward the goal `goal`, on `n` cells), or of their
    /// zero-aware tables `zero` when given, when every one suits: made once and shared while
    /// any set holds them (see the module docs). `Ok(None)` when they do not suit or cannot
    /// be made (no memory): the search then reads the compact ones. [`GaveUp`] when
    /// `give_up` said so before they were finished: what was made is kept in `making` for the
    /// next call.
    pub(crate) fn shared(
        goal: &[Tile],
        dbs: &[Arc<PatternDb>],
        zero: Option<&[ZeroAwareDb]>,
        n: usize,
        making: &mut Option<Making>,
        give_up: &(dyn Fn() -> bool + Sync),
    ) -> Result<Option<Arc<[PositionalTable]>>, GaveUp> {
        if !dbs
            .iter()
            .all(|db| PositionalTable::suits(n, db.tiles().len()))
        {
            return Ok(None);
        }
        type Key = (Vec<Tile>, Vec<Vec<Tile>>, bool);
        static MADE: Mutex<Vec<(Key, Weak<[PositionalTable]>)>> = Mutex::new(Vec::new());
        let key: Key = (
            goal.to_vec(),
            dbs.iter().map(|db| db.tiles().to_vec()).collect(),
            zero.is_some(),
        );
        // Held while making them, so that two solvers wanting the same tables make them once
        // (another waits for it, within its own limits).
        let mut made = lock_unless(&MADE, give_up).ok_or(GaveUp)?;
        made.retain(|(_, w)| w.strong_count() > 0);
        if let Some(tables) = made
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, w)| w.upgrade())
        {
            *making = None;
            return Ok(Some(tables));
        }
        if making.is_none() {
            *making = Making::new(dbs, zero, n);
        }
        let Some(work) = making else {
            return Ok(None);
        };
        if !work.fill_until(dbs, zero, n, give_up) {
            return Err(GaveUp);
        }
        let Some(work) = making.take() else {
            return Ok(None);
        };
        let tables: Arc<[PositionalTable]> = work.finish().into();
        made.push((key, Arc::downgrade(&tables)));
        Ok(Some(tables))
    }

    /// Every database of `set` laid out by positions, whether or not they suit it (tests).
    #[cfg(test)]
    pub(crate) fn all_of(set: &PdbSet) -> Vec<PositionalTable> {
        let n = set.goal().shape().cells();
        let work = Making::new(set.databases(), None, n).unwrap();
        PositionalTable::finish_whole(work, set.databases(), None, n)
    }

    /// Every zero-aware table of `set` laid out by positions, whether or not they suit it
    /// (tests).
    #[cfg(test)]
    pub(crate) fn zero_aware_of(set: &PdbSet) -> Vec<PositionalTable> {
        let n = set.goal().shape().cells();
        let zero = set.zero_aware().expect("a set with zero-aware tables");
        let work = Making::new(set.databases(), Some(zero), n).unwrap();
        PositionalTable::finish_whole(work, set.databases(), Some(zero), n)
    }

    /// `work` filled to the end and taken apart into its tables (tests).
    #[cfg(test)]
    fn finish_whole(
        mut work: Making,
        dbs: &[Arc<PatternDb>],
        zero: Option<&[ZeroAwareDb]>,
        n: usize,
    ) -> Vec<PositionalTable> {
        assert!(work.fill_until(dbs, zero, n, &|| false));
        work.finish()
    }

    /// The entries, `n^k` of them (for zero-aware tables, the bytes of `n^k · (n - k)` bits).
    #[inline(always)]
    pub fn entries(&self) -> &[u8] {
        match &self.entries {
            Entries::Bytes(frozen) => frozen.bytes(),
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
        if depth + 1 == self.k {
            self.last(used, rank, index);
            return;
        }
        for v in 0..n {
            if used & (1 << v) != 0 {
                continue;
            }
            let below = v as u64 - (used & ((1u64 << v) - 1)).count_ones() as u64;
            let rank = rank * (n - depth) as u64 + below;
            let index = index * n as u64 + v as u64;
            self.fill(depth + 1, used | (1 << v), rank, index);
        }
    }

    /// Every placement of the last tile after a prefix on the cells in `used` (compact rank
    /// `rank`, positional index `index`): its compact fields are consecutive, one for each
    /// free cell in order, and its positional ones one for each cell (those on `used` stay
    /// zero, never read).
    fn last(&mut self, used: u64, rank: u64, index: u64) {
        let (n, free) = (self.n, (self.n - self.k) as u64);
        let mut from = rank * (n + 1 - self.k) as u64 * free;
        let mut at = index * n as u64 * free;
        for v in 0..n {
            if used & (1 << v) == 0 {
                self.put(at, bits_at(self.source, from, free as usize));
                from += free;
            }
            at += free;
        }
    }

    /// Writes `field` (`n - k` bits) at bit `at`, past every bit written before.
    #[inline(always)]
    fn put(&mut self, at: u64, field: u64) {
        let free = (self.n - self.k) as u64;
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
#[inline(always)]
fn bits_at(bytes: &[u8], at: u64, len: usize) -> u64 {
    let first = (at >> 3) as usize;
    let word = match bytes.get(first..).and_then(<[u8]>::first_chunk::<8>) {
        // One unaligned load: all but the table's last seven bytes.
        Some(eight) => u64::from_le_bytes(*eight),
        // The last bytes, zeros past them (and past the end: no panic on any `at`).
        None => {
            let tail = bytes.get(first..).unwrap_or_default();
            let mut word = [0u8; 8];
            word[..tail.len()].copy_from_slice(tail);
            u64::from_le_bytes(word)
        }
    };
    (word >> (at & 7)) & ((1u64 << len) - 1)
}

/// Fills `out` (the entries whose first `depth` positions are the cells in `used`, with
/// compact rank `rank` for that prefix) from the compact entries.
fn fill(out: &[AtomicU8], compact: &[u8], n: usize, k: usize, depth: usize, used: u64, rank: u64) {
    if depth == k - 1 {
        // The last position: consecutive compact ranks over the unused cells, in order.
        let mut c = (rank * (n - depth) as u64) as usize;
        for (v, e) in out.iter().enumerate().take(n) {
            if used & (1 << v) == 0 {
                e.store(compact[c], Ordering::Relaxed);
                c += 1;
            }
        }
        return;
    }
    let block = n.pow((k - 1 - depth) as u32);
    for (v, chunk) in out.chunks(block).enumerate().take(n) {
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
            for (db, table) in s.databases().iter().zip(PositionalTable::all_of(&s)) {
                let k = db.tiles().len();
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
            for (z, table) in s
                .zero_aware()
                .unwrap()
                .iter()
                .zip(PositionalTable::zero_aware_of(&s))
            {
                let k = z.tiles().len();
                let free = (n - k) as u64;
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

    /// A making stopped between units and taken up again, over and over, ends with the same
    /// tables as one made at once (bytes and zero-aware bits, whose units may share their edge
    /// words), and a `give_up` that is true at once fills nothing.
    #[test]
    fn a_layout_made_in_stretches_is_the_layout_made_at_once() {
        use std::sync::atomic::AtomicUsize;
        // 3×5's units end inside words (15³ · 11 bits), 4×4's on word boundaries.
        for (shape, spec) in [
            (Shape::new(3, 5).unwrap(), "blocks-4"),
            (Shape::new(4, 4).unwrap(), "6-6-3"),
        ] {
            let s = set(shape, spec);
            let n = shape.cells();
            let dbs = s.databases();
            let zero = s.zero_aware().unwrap();
            let whole: Vec<Vec<u8>> = PositionalTable::all_of(&s)
                .iter()
                .chain(&PositionalTable::zero_aware_of(&s))
                .map(|t| t.entries().to_vec())
                .collect();
            let mut made = Vec::new();
            for zero in [None, Some(zero)] {
                let mut work = Making::new(dbs, zero, n).unwrap();
                assert!(!work.fill_until(dbs, zero, n, &|| true));
                assert!(
                    work.done.iter().all(|d| !d),
                    "gave up before the first unit"
                );
                let mut stretches = 0;
                loop {
                    let calls = AtomicUsize::new(0);
                    let give_up = || calls.fetch_add(1, Ordering::Relaxed) >= 5;
                    stretches += 1;
                    if work.fill_until(dbs, zero, n, &give_up) {
                        break;
                    }
                    assert!(stretches < 100, "{spec}: no progress");
                }
                assert!(stretches > 3, "{spec}: made in {stretches} stretches");
                made.extend(work.finish().iter().map(|t| t.entries().to_vec()));
            }
            assert_eq!(made, whole, "{spec}");
        }
    }

    /// A caller waiting for another's layout stops waiting when its own `give_up` says so,
    /// and takes the lock once it is free.
    #[test]
    fn a_waiting_caller_keeps_to_its_own_limits() {
        use std::sync::atomic::AtomicUsize;
        let mutex = Mutex::new(0);
        let held = mutex.lock().unwrap();
        std::thread::scope(|s| {
            s.spawn(|| {
                let asked = AtomicUsize::new(0);
                let give_up = || asked.fetch_add(1, Ordering::Relaxed) >= 3;
                assert!(lock_unless(&mutex, &give_up).is_none());
                assert_eq!(asked.load(Ordering::Relaxed), 4);
            });
        });
        drop(held);
        assert!(lock_unless(&mutex, &|| true).is_some());
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
                let pruner = MovePruner::for_shape(b.shape());
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

    /// A field is read whole by one load inside a table, and zero-filled in its last bytes and
    /// past its end.
    #[test]
    fn fields_read_anywhere_in_a_table() {
        let bytes: Vec<u8> = (0..20u8).map(|b| b.wrapping_mul(37) ^ 0x5a).collect();
        let slow = |at: u64, len: usize| -> u64 {
            (0..len as u64)
                .map(|i| {
                    let b = at + i;
                    let byte = bytes.get((b >> 3) as usize).copied().unwrap_or(0);
                    (((byte >> (b & 7)) & 1) as u64) << i
                })
                .sum()
        };
        for at in 0..200 {
            for len in [1, 7, 19, 56] {
                assert_eq!(bits_at(&bytes, at, len), slow(at, len), "at {at} len {len}");
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
