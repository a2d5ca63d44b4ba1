//! Pattern databases as the IDA* engine's evaluator, over either table layout.
//!
//! Why one evaluator: each pattern's table index (for the board and for its reflection) travels
//! with the search, and a slide moves one tile, so one index moves and one entry is re-read
//! (and, only when that alone keeps the child within the bound, one for the reflection). How
//! the index moves is all that differs between the layouts:
//!
//! - **Positional** (`n^k` entries indexed by the tiles' cells, see `pdb_positional`): the
//!   moved tile's cell is one digit, so the index moves by `(to - from) · n^(k-1-slot)`.
//! - **Compact** (the files' `n·(n-1)·…·(n-k+1)` entries indexed by partial-permutation rank):
//!   digit `i` is tile `i`'s cell counted among the cells no earlier tile holds, with weight
//!   `W_i = (n-i-1)·…·(n-k+1)`. The moved tile's digit changes by `to - from`, less (in that
//!   direction) the earlier tiles on the cells strictly between; each later tile on a cell
//!   between gains or loses one in its own digit. A sideways slide has no cell between (the
//!   index moves by ± `W_slot`); a vertical one has the `w - 1` cells between, read from the
//!   board. So the compact tables are read
//!   with one add (and at most `w - 1` board reads) instead of a full rank: the 15-puzzle's
//!   7- and 8-tile tables, whose positional layouts would be 4.7 and 8.3 times larger, and
//!   7-tile 5×5 tables.
//!
//! Either layout holds bytes (the additive entries) or, with `ZERO`, the bits of zero-aware
//! tables (see `zero_aware`): the index is then the placement's times `n - k` plus the
//! blank's digit among the free cells (each pattern keeps a mask of its tiles' cells for it),
//! and the child's entry is the parent's ± 1 as the bit says. A zero-aware start is valued by
//! walking down its tables.

use super::pdb_positional::PositionalTable;
use super::pdb_set::{MAX_PATTERNS, PdbSet};
use super::zero_aware::{Descent, bit, blank_digit, next_value};
use crate::rank::{permutations_count, rank_partial};
use crate::search::eval::{Cells, Evaluator, MAX_CELLS, Slide};

/// Most tiles of one pattern.
const SLOTS: usize = super::pdb::MAX_PATTERN_TILES;
/// `db` of a tile in no pattern (the blank).
const NONE: u8 = u8::MAX;

/// Which pattern each tile is in, its slot there and the index step of its digit, under one
/// naming of the tiles (the board's own, or the reflected board's).
#[derive(Clone, Copy)]
struct Naming {
    db: [u8; MAX_CELLS],
    slot: [u8; MAX_CELLS],
    weight: [u32; MAX_CELLS],
    /// `tiles[d][s]`: the board's tile that is pattern `d`'s slot `s` under this naming.
    tiles: [[u8; SLOTS]; MAX_PATTERNS],
}

/// The reflection: its naming and the transposed cell of each cell (an involution).
struct Mirror {
    naming: Naming,
    cell: [u8; MAX_CELLS],
}

/// Pattern databases as the IDA* engine's evaluator (see the module documentation), over
/// `COMPACT` tables (indexed by rank, the files' layout) or positional ones, of additive
/// entries or `ZERO`-aware bits: parameters of the type, so that each kind's probe is compiled
/// without the others' branches.
pub(crate) struct PdbEval<'a, const COMPACT: bool, const ZERO: bool> {
    n: usize,
    count: usize,
    sizes: [u8; MAX_PATTERNS],
    tables: [&'a [u8]; MAX_PATTERNS],
    direct: Naming,
    mirror: Option<Mirror>,
    /// For zero-aware tables: walking down them (each slot's home cell, the goal's blank (on
    /// the diagonal where the reflection is taken, so the same for both), the board).
    home: [[u8; SLOTS]; MAX_PATTERNS],
    goal_blank: usize,
    neighbours: [u32; MAX_CELLS],
    width: usize,
}

/// Each database's entry for the board and for its reflection, and their sums.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PdbState {
    parts: [u8; MAX_PATTERNS],
    mparts: [u8; MAX_PATTERNS],
    sum: u32,
    msum: u32,
    idx: [u32; MAX_PATTERNS],
    midx: [u32; MAX_PATTERNS],
    /// Zero-aware tables only: the cells each pattern's tiles hold (under each naming).
    occ: [u32; MAX_PATTERNS],
    mocc: [u32; MAX_PATTERNS],
}

/// What entering a child changes: one database's entry and index for the board, one for the
/// reflection, with the old values to restore.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PdbChange {
    d: u8,
    md: u8,
    part: u8,
    old: u8,
    mpart: u8,
    mold: u8,
    idx: u32,
    old_idx: u32,
    midx: u32,
    old_midx: u32,
    /// Zero-aware tables only: the two cells the slide changes, under each naming.
    flip: u32,
    mflip: u32,
}

impl PdbState {
    /// The heuristic value: the larger of the two sums.
    fn value(&self) -> u32 {
        self.sum.max(self.msum)
    }
}

/// The evaluator over the compact tables.
pub(crate) type CompactEval<'a> = PdbEval<'a, true, false>;
/// The evaluator over the positional tables.
pub(crate) type PositionalEval<'a> = PdbEval<'a, false, false>;
/// The evaluator over the zero-aware tables, compact.
pub(crate) type ZeroCompactEval<'a> = PdbEval<'a, true, true>;
/// The evaluator over the zero-aware tables laid out by positions.
pub(crate) type ZeroPositionalEval<'a> = PdbEval<'a, false, true>;

impl<'a> CompactEval<'a> {
    /// The evaluator over `set`'s own (compact) tables; `None` when the engine cannot take
    /// them: boards past 32 cells, more than 8 patterns or 8 tiles a pattern, a table of more
    /// than `u32::MAX` entries (see [`PdbEval::over`]).
    pub fn new(set: &'a PdbSet) -> Option<CompactEval<'a>> {
        let tables: Vec<&'a [u8]> = set.databases().iter().map(|db| db.entries()).collect();
        PdbEval::over(set, &tables)
    }
}

impl<'a> ZeroCompactEval<'a> {
    /// The evaluator over `set`'s zero-aware tables, when it has them.
    pub fn zero_aware(set: &'a PdbSet) -> Option<ZeroCompactEval<'a>> {
        let tables: Vec<&'a [u8]> = set.zero_aware()?.iter().map(|z| z.bits()).collect();
        PdbEval::over(set, &tables)
    }
}

impl<'a, const ZERO: bool> PdbEval<'a, false, ZERO> {
    /// The evaluator over `set`'s positional tables (of its zero-aware tables where it has
    /// them, of its databases otherwise), when they take that layout (see
    /// [`PdbSet::positional_tables`]).
    pub fn positional(set: &'a PdbSet) -> Option<PdbEval<'a, false, ZERO>> {
        if set.zero_aware().is_some() != ZERO {
            return None;
        }
        PdbEval::laid_out(set, set.positional_tables()?)
    }

    /// The evaluator for `set` over `tables`, its databases (or zero-aware tables) laid out
    /// by positions.
    pub(crate) fn laid_out(
        set: &PdbSet,
        tables: &'a [PositionalTable],
    ) -> Option<PdbEval<'a, false, ZERO>> {
        let entries: Vec<&'a [u8]> = tables.iter().map(|t| t.entries()).collect();
        PdbEval::over(set, &entries)
    }
}

impl<'a, const COMPACT: bool, const ZERO: bool> PdbEval<'a, COMPACT, ZERO> {
    /// The evaluator over `tables` (one per database, in order, in this type's layout); `None`
    /// for boards past 32 cells, more than [`MAX_PATTERNS`] patterns or 8 tiles a pattern, a
    /// table whose length is not its layout's or is more than `u32::MAX`, or a reflection that
    /// is not its own inverse.
    pub(crate) fn over(set: &PdbSet, tables: &[&'a [u8]]) -> Option<PdbEval<'a, COMPACT, ZERO>> {
        let n = set.goal().shape().cells();
        let dbs = set.databases();
        if n > MAX_CELLS || dbs.len() > MAX_PATTERNS || tables.len() != dbs.len() {
            return None;
        }
        let mut e = PdbEval {
            n,
            count: dbs.len(),
            sizes: [0; MAX_PATTERNS],
            tables: [&[]; MAX_PATTERNS],
            direct: Naming {
                db: [NONE; MAX_CELLS],
                slot: [0; MAX_CELLS],
                weight: [0; MAX_CELLS],
                tiles: [[0; SLOTS]; MAX_PATTERNS],
            },
            mirror: None,
            home: [[0; SLOTS]; MAX_PATTERNS],
            goal_blank: set.goal().blank(),
            neighbours: [0; MAX_CELLS],
            width: set.goal().shape().width(),
        };
        for (d, (db, &table)) in dbs.iter().zip(tables).enumerate() {
            let k = db.tiles().len();
            // Every index the search can form is below the layout's length: a table of any
            // other length (or past u32 indexes) is refused here rather than read out of bounds.
            let placements = if COMPACT {
                Some(permutations_count(n, k))
            } else {
                (n as u64).checked_pow(k as u32)
            };
            // Zero-aware: a bit for each blank digit of each placement.
            let length = if ZERO {
                placements.map(|p| (p * (n - k) as u64).div_ceil(8))
            } else {
                placements
            };
            let indexes_fit = placements.is_some_and(|p| p <= u32::MAX as u64);
            if k > SLOTS || k >= n || length != Some(table.len() as u64) || !indexes_fit {
                return None;
            }
            e.tables[d] = table;
            e.sizes[d] = k as u8;
            for (s, &t) in db.tiles().iter().enumerate() {
                let t = t as usize;
                e.direct.db[t] = d as u8;
                e.direct.slot[t] = s as u8;
                e.direct.weight[t] = if COMPACT {
                    (s + 1..k).map(|j| (n - j) as u32).product()
                } else {
                    (n as u32).pow((k - 1 - s) as u32)
                };
                e.direct.tiles[d][s] = t as u8;
                e.home[d][s] = set.goal().position_of(t as crate::board::Tile)? as u8;
            }
        }
        let neighbours = super::pdb::neighbour_masks(set.goal().shape());
        e.neighbours[..n].copy_from_slice(&neighbours);

        let involution = set
            .reflection()
            .is_none_or(|r| (0..n).all(|c| r.cell[r.cell[c] as usize] as usize == c));
        if !involution {
            return None;
        }
        e.mirror = set.reflection().map(|r| {
            // Tile `t` of the board is tile `r.tile[t]` of the reflected board: it takes
            // that tile's pattern, slot and weight.
            let mut naming = e.direct;
            let mut original = [0u8; MAX_CELLS];
            let mut cell = [0u8; MAX_CELLS];
            cell[..n].copy_from_slice(&r.cell[..n]);
            for (t, &named) in r.tile.iter().enumerate().take(n) {
                let named = named as usize;
                original[named] = t as u8;
                naming.db[t] = e.direct.db[named];
                naming.slot[t] = e.direct.slot[named];
                naming.weight[t] = e.direct.weight[named];
            }
            for d in 0..e.count {
                for s in 0..e.sizes[d] as usize {
                    naming.tiles[d][s] = original[e.direct.tiles[d][s] as usize];
                }
            }
            Mirror { naming, cell }
        });
        Some(e)
    }

    /// Database `d`'s tiles' cells for `cells` under `naming`, cells mapped by `map` (the
    /// unused slots 0).
    fn places(
        &self,
        naming: &Naming,
        d: usize,
        cells: &Cells,
        map: Option<&[u8; MAX_CELLS]>,
    ) -> [u8; SLOTS] {
        let mut places = [0u8; SLOTS];
        for (s, place) in places[..self.sizes[d] as usize].iter_mut().enumerate() {
            let p = cells.cell_of[naming.tiles[d][s] as usize] as usize;
            *place = map.map_or(p as u8, |m| m[p]);
        }
        places
    }

    /// The index of a pattern whose tiles are on `places` (for a zero-aware table, before
    /// the blank's digit).
    fn index_of(&self, places: &[u8]) -> u32 {
        if COMPACT {
            rank_partial(places, self.n) as u32
        } else {
            places
                .iter()
                .fold(0u32, |i, &p| i * self.n as u32 + p as u32)
        }
    }

    /// How database `d`'s index moves when tile `t` (of `d` under `naming`) slides from cell
    /// `a` to cell `b` (both under `map`), the board being `cells` before the slide (see the
    /// module documentation).
    #[inline(always)]
    fn step(
        &self,
        naming: &Naming,
        d: usize,
        t: usize,
        (a, b): (usize, usize),
        cells: &Cells,
        map: Option<&[u8; MAX_CELLS]>,
    ) -> u32 {
        let t = t & (MAX_CELLS - 1);
        let weight = naming.weight[t];
        let mut step = (b as u32).wrapping_sub(a as u32).wrapping_mul(weight);
        if COMPACT && a.abs_diff(b) > 1 {
            let slot = naming.slot[t];
            let (lo, hi) = (a.min(b), a.max(b));
            // Passed over: an earlier tile takes one cell off the moved tile's count; a later
            // tile's own digit moves one the other way.
            // Without branches: which tiles count is as unpredictable as the board.
            let mut fix = 0u32;
            for c in lo + 1..hi {
                let c = c & (MAX_CELLS - 1);
                let on = map.map_or(c, |m| m[c] as usize) & (MAX_CELLS - 1);
                let u = cells.tiles[on] as usize & (MAX_CELLS - 1);
                let mine = 0u32.wrapping_sub((naming.db[u] as usize == d) as u32);
                let term = if naming.slot[u] < slot {
                    weight.wrapping_neg()
                } else {
                    naming.weight[u]
                };
                fix = fix.wrapping_add(term & mine);
            }
            step = step.wrapping_add(if b > a { fix } else { fix.wrapping_neg() });
        }
        step
    }
}

impl<const COMPACT: bool, const ZERO: bool> PdbEval<'_, COMPACT, ZERO> {
    /// Database `d`'s entry at index `idx` for a child whose parent's entry is `parent`; for a
    /// zero-aware table, its tiles on `occupied` and the blank on `blank` after the slide.
    #[inline(always)]
    fn read(&self, d: usize, idx: u32, parent: u8, occupied: u32, blank: usize) -> u8 {
        if ZERO {
            let free = (self.n - self.sizes[d] as usize) as u64;
            let i = idx as u64 * free + blank_digit(occupied, blank & (MAX_CELLS - 1));
            next_value(parent, bit(self.tables[d], i))
        } else {
            self.tables[d][idx as usize]
        }
    }

    /// Database `d`'s entry for the board `cells` under `naming` (cells mapped by `map`): its
    /// index, the entry, and its tiles' cells.
    fn entry(
        &self,
        naming: &Naming,
        d: usize,
        cells: &Cells,
        map: Option<&[u8; MAX_CELLS]>,
    ) -> (u32, u8, u32) {
        let k = self.sizes[d] as usize;
        let places = self.places(naming, d, cells, map);
        let idx = self.index_of(&places[..k]);
        if !ZERO {
            return (idx, self.tables[d][idx as usize], 0);
        }
        let occupied = places[..k].iter().fold(0u32, |m, &p| m | 1 << p);
        let blank = cells.cell_of[0] as usize;
        let blank = map.map_or(blank, |m| m[blank] as usize);
        let value = Descent {
            neighbours: &self.neighbours[..self.n],
            width: self.width,
            home: &self.home[d][..k],
            goal_blank: self.goal_blank,
            bits: self.tables[d],
        }
        .value(&places[..k], blank, |p| self.index_of(p) as u64);
        // A table that leads nowhere fails the checks every table passes (on loading, and
        // after a build); 0 keeps this path total.
        (idx, value.unwrap_or(0), occupied)
    }
}

impl<const COMPACT: bool, const ZERO: bool> Evaluator for PdbEval<'_, COMPACT, ZERO> {
    type State = PdbState;
    type Change = PdbChange;

    fn root(&self, cells: &Cells) -> (PdbState, u32) {
        let mut st = PdbState {
            parts: [0; MAX_PATTERNS],
            mparts: [0; MAX_PATTERNS],
            sum: 0,
            msum: 0,
            idx: [0; MAX_PATTERNS],
            midx: [0; MAX_PATTERNS],
            occ: [0; MAX_PATTERNS],
            mocc: [0; MAX_PATTERNS],
        };
        for d in 0..self.count {
            (st.idx[d], st.parts[d], st.occ[d]) = self.entry(&self.direct, d, cells, None);
            st.sum += st.parts[d] as u32;
            if let Some(m) = &self.mirror {
                (st.midx[d], st.mparts[d], st.mocc[d]) =
                    self.entry(&m.naming, d, cells, Some(&m.cell));
                st.msum += st.mparts[d] as u32;
            }
        }
        (st, st.value())
    }

    #[inline(always)]
    fn probe(
        &self,
        st: &PdbState,
        cells: &Cells,
        _: u32,
        s: Slide,
        limit: u32,
    ) -> Result<(u32, PdbChange), u32> {
        let t = s.tile & (MAX_CELLS - 1);
        let d = self.direct.db[t] as usize & (MAX_PATTERNS - 1);
        let idx =
            st.idx[d].wrapping_add(self.step(&self.direct, d, t, (s.from, s.to), cells, None));
        let flip = if ZERO {
            (1u32 << (s.from & (MAX_CELLS - 1))) | (1u32 << (s.to & (MAX_CELLS - 1)))
        } else {
            0
        };
        let part = self.read(d, idx, st.parts[d], st.occ[d] ^ flip, s.from);
        let sum = st.sum + part as u32 - st.parts[d] as u32;
        if sum > limit {
            return Err(sum);
        }
        let mut change = PdbChange {
            d: d as u8,
            md: 0,
            part,
            old: st.parts[d],
            mpart: st.mparts[0],
            mold: st.mparts[0],
            idx,
            old_idx: st.idx[d],
            midx: st.midx[0],
            old_midx: st.midx[0],
            flip,
            mflip: 0,
        };
        let mut h = sum;
        if let Some(m) = &self.mirror {
            let md = m.naming.db[t] as usize & (MAX_PATTERNS - 1);
            let (a, b) = (
                m.cell[s.from & (MAX_CELLS - 1)] as usize,
                m.cell[s.to & (MAX_CELLS - 1)] as usize,
            );
            let midx =
                st.midx[md].wrapping_add(self.step(&m.naming, md, t, (a, b), cells, Some(&m.cell)));
            let mflip = if ZERO { (1u32 << a) | (1u32 << b) } else { 0 };
            let mpart = self.read(md, midx, st.mparts[md], st.mocc[md] ^ mflip, a);
            let msum = st.msum + mpart as u32 - st.mparts[md] as u32;
            h = h.max(msum);
            if h > limit {
                return Err(h);
            }
            change.md = md as u8;
            change.mpart = mpart;
            change.mold = st.mparts[md];
            change.midx = midx;
            change.old_midx = st.midx[md];
            change.mflip = mflip;
        }
        Ok((h, change))
    }

    #[inline(always)]
    fn enter(&self, st: &mut PdbState, c: &PdbChange) {
        let (d, md) = (
            c.d as usize & (MAX_PATTERNS - 1),
            c.md as usize & (MAX_PATTERNS - 1),
        );
        st.sum = st.sum + c.part as u32 - st.parts[d] as u32;
        st.parts[d] = c.part;
        st.idx[d] = c.idx;
        st.msum = st.msum + c.mpart as u32 - st.mparts[md] as u32;
        st.mparts[md] = c.mpart;
        st.midx[md] = c.midx;
        if ZERO {
            st.occ[d] ^= c.flip;
            st.mocc[md] ^= c.mflip;
        }
    }

    #[inline(always)]
    fn leave(&self, st: &mut PdbState, c: &PdbChange) {
        let (d, md) = (
            c.d as usize & (MAX_PATTERNS - 1),
            c.md as usize & (MAX_PATTERNS - 1),
        );
        st.msum = st.msum + c.mold as u32 - c.mpart as u32;
        st.mparts[md] = c.mold;
        st.midx[md] = c.old_midx;
        st.sum = st.sum + c.old as u32 - c.part as u32;
        st.parts[d] = c.old;
        st.idx[d] = c.old_idx;
        if ZERO {
            st.occ[d] ^= c.flip;
            st.mocc[md] ^= c.mflip;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Move, Shape};
    use crate::heuristic::pdb_set::Partition;
    use rand::{Rng, SeedableRng, rngs::SmallRng};

    fn set(shape: Shape, spec: &str) -> PdbSet {
        PdbSet::load_or_build(
            &Board::goal(shape),
            Partition::parse(spec, shape).unwrap(),
            None,
            true,
            &|_, _, _, _| {},
            &mut |_| {},
            None,
        )
        .unwrap()
    }

    /// Along random walks, every slide moves each index (board and reflection, compact and
    /// positional layouts) to exactly the index computed afresh for the child, and leaving the
    /// child restores the parent's state.
    #[test]
    fn indexes_moved_by_a_slide_equal_fresh_ones() {
        let mut rng = SmallRng::seed_from_u64(11);
        for (shape, spec) in [
            (Shape::new(4, 4).unwrap(), "5-5-5"),
            (Shape::new(5, 5).unwrap(), "blocks-3"),
            (Shape::new(3, 3).unwrap(), "blocks-4"),
            (Shape::new(3, 5).unwrap(), "blocks-4"),
            (
                Shape::new(4, 4).unwrap(),
                "1,6,11,15,2/3,5,9,4,7/8,10,12,13,14",
            ),
        ] {
            let s = set(shape, spec);
            let tables = PositionalTable::all_of(&s);
            let compact = CompactEval::new(&s).unwrap();
            let positional = PositionalEval::laid_out(&s, &tables).unwrap();
            assert_eq!(compact.mirror.is_some(), shape.width() == shape.height());
            walk(&s, &compact, &mut rng);
            walk(&s, &positional, &mut rng);
            // The zero-aware tables (built with the databases), in both layouts.
            let zero_tables = PositionalTable::zero_aware_of(&s);
            let zero = ZeroCompactEval::zero_aware(&s).unwrap();
            walk(&s, &zero, &mut rng);
            walk(
                &s,
                &ZeroPositionalEval::laid_out(&s, &zero_tables).unwrap(),
                &mut rng,
            );
        }
    }

    /// Zero-aware values are never below the additive ones, often above, and never above
    /// the true distance (the length IDA* finds with them, which linear conflict confirms).
    #[test]
    fn zero_aware_values_are_at_least_the_additive_ones() {
        let mut rng = SmallRng::seed_from_u64(5);
        // Three tiles seldom cut 25 cells apart; five often cut 16.
        for (shape, spec, least_above) in [
            (Shape::new(4, 4).unwrap(), "5-5-5", 30),
            (Shape::new(5, 5).unwrap(), "blocks-3", 1),
        ] {
            let s = set(shape, spec);
            let additive = CompactEval::new(&s).unwrap();
            let zero = ZeroCompactEval::zero_aware(&s).unwrap();
            let mut above = 0;
            for _ in 0..300 {
                let b = crate::random::random_solvable(s.goal(), &mut rng);
                let cells = Cells::of(&b);
                let (a, z) = (additive.root(&cells).1, zero.root(&cells).1);
                assert!(z >= a, "{spec}: {b:?}");
                above += (z > a) as u32;
            }
            assert!(above >= least_above, "{spec}: {above} of 300 above");
        }
    }

    /// Tables of the wrong length for their layout are refused, not read out of bounds.
    #[test]
    fn tables_of_the_wrong_length_are_refused() {
        let s = set(Shape::new(3, 3).unwrap(), "blocks-4");
        let tables = PositionalTable::all_of(&s);
        let positional: Vec<&[u8]> = tables.iter().map(|t| t.entries()).collect();
        let compact: Vec<&[u8]> = s.databases().iter().map(|db| db.entries()).collect();
        assert!(CompactEval::over(&s, &compact).is_some());
        assert!(PositionalEval::over(&s, &positional).is_some());
        assert!(CompactEval::over(&s, &positional).is_none());
        assert!(PositionalEval::over(&s, &compact).is_none());
        let short: Vec<&[u8]> = compact.iter().map(|t| &t[..t.len() - 1]).collect();
        assert!(CompactEval::over(&s, &short).is_none());
    }

    /// Random slides from the goal, each checked against a fresh evaluation.
    fn walk<const C: bool, const Z: bool>(s: &PdbSet, e: &PdbEval<'_, C, Z>, rng: &mut SmallRng) {
        let shape = s.goal().shape();
        let spec = &s.partition().name;
        let mut board = s.goal().clone();
        let mut cells = Cells::of(&board);
        let (mut st, _) = e.root(&cells);
        for _ in 0..400 {
            let m = Move::ALL[rng.random_range(0..4)];
            let blank = cells.cell_of[0] as usize;
            let Some(from) = shape.neighbour(blank, m) else {
                continue;
            };
            let slide = Slide {
                tile: cells.tiles[from] as usize,
                from,
                to: blank,
                mi: m.index(),
            };
            let before = st;
            // Under any limit, the probe lets the child through exactly when its value (taken
            // afresh) is within it, and otherwise reports a bound above the limit and no
            // higher than that value.
            let mut child = board.clone();
            child.apply(m);
            let fresh = e.root(&Cells::of(&child)).1;
            for limit in fresh.saturating_sub(2)..=fresh + 1 {
                match e.probe(&st, &cells, 0, slide, limit) {
                    Ok((h, _)) => assert!(h == fresh && h <= limit, "{spec}: {h} {fresh} {limit}"),
                    Err(lower) => assert!(
                        fresh > limit && lower > limit && lower <= fresh,
                        "{spec}: {lower} {fresh} {limit}"
                    ),
                }
            }
            let (h, change) = e.probe(&st, &cells, 0, slide, u32::MAX - 1).unwrap();
            e.enter(&mut st, &change);
            board.apply(m);
            cells = Cells::of(&board);
            let (fresh, fh) = e.root(&cells);
            assert_eq!(h, fh, "{spec} on {shape}");
            assert_eq!(
                (st.idx, st.midx),
                (fresh.idx, fresh.midx),
                "{spec} on {shape}"
            );
            assert_eq!((st.parts, st.mparts), (fresh.parts, fresh.mparts));
            if rng.random_range(0..5) == 0 {
                e.leave(&mut st, &change);
                let restored = (st.idx, st.midx, st.sum, st.msum);
                assert_eq!(restored, (before.idx, before.midx, before.sum, before.msum));
                e.enter(&mut st, &change);
            }
        }
    }
}
