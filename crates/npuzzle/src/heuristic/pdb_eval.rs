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

use super::pdb_positional::PositionalTable;
use super::pdb_set::{MAX_PATTERNS, PdbSet};
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
/// `COMPACT` tables (indexed by rank, the files' layout) or positional ones: a parameter of
/// the type, so that each layout's probe is compiled without the other's branch.
pub(crate) struct PdbEval<'a, const COMPACT: bool> {
    n: usize,
    count: usize,
    sizes: [u8; MAX_PATTERNS],
    tables: [&'a [u8]; MAX_PATTERNS],
    direct: Naming,
    mirror: Option<Mirror>,
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
}

impl PdbState {
    /// The heuristic value: the larger of the two sums.
    fn value(&self) -> u32 {
        self.sum.max(self.msum)
    }
}

/// The evaluator over the compact tables.
pub(crate) type CompactEval<'a> = PdbEval<'a, true>;
/// The evaluator over the positional tables.
pub(crate) type PositionalEval<'a> = PdbEval<'a, false>;

impl<'a> CompactEval<'a> {
    /// The evaluator over `set`'s own (compact) tables; `None` when the engine cannot take
    /// them: boards past 32 cells, more than 8 patterns or 8 tiles a pattern, a table of more
    /// than `u32::MAX` entries (see [`PdbEval::over`]).
    pub fn new(set: &'a PdbSet) -> Option<CompactEval<'a>> {
        let tables: Vec<&'a [u8]> = set.databases().iter().map(|db| db.entries()).collect();
        PdbEval::over(set, &tables)
    }
}

impl<'a> PositionalEval<'a> {
    /// The evaluator over `set`'s positional tables, when its databases take that layout
    /// (see [`PdbSet::positional_tables`]).
    pub fn positional(set: &'a PdbSet) -> Option<PositionalEval<'a>> {
        PositionalEval::laid_out(set, set.positional_tables()?)
    }

    /// The evaluator for `set` over `tables`, its databases laid out by positions.
    pub(crate) fn laid_out(
        set: &PdbSet,
        tables: &'a [PositionalTable],
    ) -> Option<PositionalEval<'a>> {
        let entries: Vec<&'a [u8]> = tables.iter().map(|t| t.entries()).collect();
        PdbEval::over(set, &entries)
    }
}

impl<'a, const COMPACT: bool> PdbEval<'a, COMPACT> {
    /// The evaluator over `tables` (one per database, in order, in this type's layout); `None`
    /// for boards past 32 cells, more than [`MAX_PATTERNS`] patterns or 8 tiles a pattern, a
    /// table whose length is not its layout's or is more than `u32::MAX`, or a reflection that
    /// is not its own inverse.
    pub(crate) fn over(set: &PdbSet, tables: &[&'a [u8]]) -> Option<PdbEval<'a, COMPACT>> {
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
        };
        for (d, (db, &table)) in dbs.iter().zip(tables).enumerate() {
            let k = db.tiles().len();
            // Every index the search can form is below the layout's length: a table of any
            // other length (or past u32 indexes) is refused here rather than read out of bounds.
            let length = if COMPACT {
                Some(permutations_count(n, k))
            } else {
                (n as u64).checked_pow(k as u32)
            };
            if k > SLOTS || length != Some(table.len() as u64) || table.len() > u32::MAX as usize {
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
            }
        }
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

    /// Database `d`'s index for `cells` under `naming`, cells mapped by `map`.
    fn index(
        &self,
        naming: &Naming,
        d: usize,
        cells: &Cells,
        map: Option<&[u8; MAX_CELLS]>,
    ) -> u32 {
        let k = self.sizes[d] as usize;
        let mut places = [0u8; SLOTS];
        for (s, place) in places[..k].iter_mut().enumerate() {
            let p = cells.cell_of[naming.tiles[d][s] as usize] as usize;
            *place = map.map_or(p as u8, |m| m[p]);
        }
        if COMPACT {
            rank_partial(&places[..k], self.n) as u32
        } else {
            places[..k]
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

impl<const COMPACT: bool> Evaluator for PdbEval<'_, COMPACT> {
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
        };
        for d in 0..self.count {
            st.idx[d] = self.index(&self.direct, d, cells, None);
            st.parts[d] = self.tables[d][st.idx[d] as usize];
            st.sum += st.parts[d] as u32;
            if let Some(m) = &self.mirror {
                st.midx[d] = self.index(&m.naming, d, cells, Some(&m.cell));
                st.mparts[d] = self.tables[d][st.midx[d] as usize];
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
        let part = self.tables[d][idx as usize];
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
            let mpart = self.tables[md][midx as usize];
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
    fn walk<const C: bool>(s: &PdbSet, e: &PdbEval<'_, C>, rng: &mut SmallRng) {
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
