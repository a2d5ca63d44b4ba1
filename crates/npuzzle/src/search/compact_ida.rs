//! IDA* specialised for boards of at most 16 cells with Manhattan distance or linear conflict:
//! the same search as [`super::idastar`] (same children in the same order, same node counts),
//! but with everything a node touches in fixed-size arrays.
//!
//! Why a second IDA*: the generic one asks the heuristic for a delta through the
//! [`crate::heuristic::Heuristic`] trait, and linear conflict then re-reads a whole line of the
//! board to rebuild that line's table key. Here the row and column keys travel with the search
//! and a slide adjusts them by precomputed amounts, so a child costs a handful of table lookups:
//! its Manhattan change, and for linear conflict the two line keys the tile leaves and enters.
//! Children whose f exceeds the bound are counted and dropped without a call, and the path is
//! written only once, on the way back from the goal.

use super::move_pruning::{MovePruner, PRUNED, START};
use super::{Budget, Found, LimitKind, Limits, SearchError, Stats};
use crate::board::{Board, Move};
use crate::heuristic::{Heuristic, LinearConflict, Manhattan};
use crate::solution::Solution;

/// Largest board (in cells) this search handles.
pub const MAX_CELLS: usize = 16;
/// Longest row or column with linear-conflict line tables (see [`LinearConflict`]).
const MAX_LINE: usize = 6;

/// Whether [`compact_idastar`] handles boards of `cells` cells with heuristic `lc` (linear
/// conflict needs its line tables, i.e. sides of at most 6).
pub fn fits(cells: usize, lc: Option<&LinearConflict>) -> bool {
    cells <= MAX_CELLS && lc.is_none_or(|lc| lc.line_tables().is_some())
}

/// One slide the blank can make from a cell, with the line keys it touches. Keys live in one
/// array: rows at `0..height`, columns at `KEY_COLS..`.
#[derive(Copy, Clone, Default)]
struct Step {
    /// Move index (see [`Move::index`]).
    mi: u8,
    /// The cell the blank moves to (where the sliding tile comes from).
    to: u8,
    /// 0 when the tile crosses rows (a vertical slide), 1 when it crosses columns.
    cross: u8,
    /// Keys of the line the tile leaves, the line it enters, and the line it slides along.
    leave: u8,
    enter: u8,
    along: u8,
}

/// Index of column 0's key in the key array.
const KEY_COLS: usize = 8;

/// Per-search lookup tables, all indexed by small integers.
struct Tables<'a> {
    /// `md[tile][cell]`: the tile's Manhattan distance from home.
    md: [[u8; MAX_CELLS]; MAX_CELLS],
    /// `part[0][tile][cell]` / `part[1][tile][cell]`: what the tile adds to the key of the
    /// cell's row / column (see [`LinearConflict`]).
    part: [[[u32; MAX_CELLS]; MAX_CELLS]; 2],
    /// Extra moves per line key: the row table, then the column table (column keys carry the
    /// row table's length as an offset).
    extra: &'a [u8],
    /// The blank's possible slides from each cell.
    steps: [[Step; 4]; MAX_CELLS],
    step_count: [u8; MAX_CELLS],
}

struct Search<'a, const LINES: bool> {
    t: Tables<'a>,
    cells: [u8; MAX_CELLS],
    keys: [u32; 2 * KEY_COLS],
    bound: u32,
    next_bound: u32,
    /// The solution's moves, last first (pushed while unwinding from the goal).
    reversed: Vec<Move>,
    pruner: &'a MovePruner,
    stats: Stats,
    budget: Budget<'a>,
    stop: Option<LimitKind>,
}

impl<const LINES: bool> Search<'_, LINES> {
    /// Depth-first search below a node already known to have f ≤ bound.
    fn dfs(&mut self, blank: usize, g: u32, h: u32, seq: u32) -> bool {
        if h == 0 {
            // Manhattan distance 0 (and linear conflict ≥ it) means every tile is home.
            return true;
        }
        self.stats.expanded += 1;
        if let Some(kind) = self.budget.check(self.stats.expanded, g as u64) {
            self.stop = Some(kind);
            return false;
        }
        let blank = blank & (MAX_CELLS - 1);
        const K: usize = 2 * KEY_COLS - 1;
        for i in 0..self.t.step_count[blank] as usize {
            let s = self.t.steps[blank][i & 3];
            let next = self.pruner.step(seq, s.mi as usize);
            if next == PRUNED {
                continue;
            }
            let to = s.to as usize & (MAX_CELLS - 1);
            let tile = self.cells[to] as usize & (MAX_CELLS - 1);
            // The tile slides from `to` into `blank`.
            let md = &self.t.md[tile];
            let mut nh = h as i32 + md[blank] as i32 - md[to] as i32;
            let (leave, enter) = (s.leave as usize & K, s.enter as usize & K);
            let (mut key_leave, mut key_enter) = (0, 0);
            if LINES {
                // Only the lines the tile crosses between can change their extra moves.
                let part = &self.t.part[s.cross as usize & 1][tile];
                let (old_leave, old_enter) = (self.keys[leave], self.keys[enter]);
                key_leave = old_leave - part[to];
                key_enter = old_enter + part[blank];
                let ex = self.t.extra;
                nh += ex[key_leave as usize] as i32 + ex[key_enter as usize] as i32
                    - ex[old_leave as usize] as i32
                    - ex[old_enter as usize] as i32;
            }
            self.stats.generated += 1;
            let nh = nh as u32;
            let f = g + 1 + nh;
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            self.cells[blank] = tile as u8;
            self.cells[to] = 0;
            // The line the tile slides along keeps its order of tiles (so its extra moves),
            // but the tile's digit moves within its key.
            let (along, mut saved) = (s.along as usize & K, [0; 3]);
            if LINES {
                let part = &self.t.part[(s.cross as usize & 1) ^ 1][tile];
                saved = [self.keys[leave], self.keys[enter], self.keys[along]];
                self.keys[leave] = key_leave;
                self.keys[enter] = key_enter;
                self.keys[along] = saved[2].wrapping_add(part[blank]).wrapping_sub(part[to]);
            }
            if self.dfs(to, g + 1, nh, next) {
                self.reversed.push(Move::from_index(s.mi as usize));
                return true;
            }
            self.cells[to] = tile as u8;
            self.cells[blank] = 0;
            if LINES {
                self.keys[along] = saved[2];
                self.keys[enter] = saved[1];
                self.keys[leave] = saved[0];
            }
            if self.stop.is_some() {
                return false;
            }
        }
        false
    }

    /// Deepens the bound from `h0` until the goal is found, a limit stops the search, or no
    /// node is left above the bound (the goal is unreachable).
    fn run(mut self, blank: usize, h0: u32) -> Result<Found, SearchError> {
        self.bound = h0;
        loop {
            self.next_bound = u32::MAX;
            let found = self.dfs(blank, 0, h0, START);
            self.stats.peak_stored = self.stats.peak_stored.max(self.bound as u64 + 1);
            self.stats.elapsed = self.budget.elapsed();
            match super::next_iteration(found, self.stop, self.next_bound, self.stats)? {
                Some(bound) => self.bound = bound,
                None => {
                    self.reversed.reverse();
                    return Ok((Solution::new(self.reversed), self.stats));
                }
            }
        }
    }
}

/// IDA* from `start` to `goal` (at most 16 cells) with Manhattan distance `md`, or
/// with linear conflict when `lc` is given; both must have been built for `goal`. Moves are
/// pruned by `pruner`: with [`MovePruner::parent_only`] this is node for node the same search
/// as [`super::idastar`]; [`MovePruner::standard`] also skips redundant detours. Optimal.
pub fn compact_idastar(
    start: &Board,
    goal: &Board,
    md: &Manhattan,
    lc: Option<&LinearConflict>,
    pruner: &MovePruner,
    limits: &Limits,
) -> Result<Found, SearchError> {
    super::check_solvable(start, goal)?;
    let shape = start.shape();
    let n = shape.cells();
    if !fits(n, lc) {
        return Err(SearchError::Unsupported(format!(
            "the compact IDA* takes boards of at most {MAX_CELLS} cells with sides of at most {MAX_LINE} for linear conflict, not {shape}"
        )));
    }
    if !md.is_for(goal) || lc.is_some_and(|lc| !lc.manhattan().is_for(goal)) {
        return Err(SearchError::Unsupported(
            "the heuristic was built for a different goal".into(),
        ));
    }
    let (extra, col_offset) = lc.and_then(LinearConflict::line_tables).unwrap_or((&[], 0));
    let mut t = Tables {
        md: [[0; MAX_CELLS]; MAX_CELLS],
        part: [[[0; MAX_CELLS]; MAX_CELLS]; 2],
        extra,
        steps: [[Step::default(); 4]; MAX_CELLS],
        step_count: [0; MAX_CELLS],
    };
    let row_key = |cell: usize| shape.row(cell) as u8;
    let col_key = |cell: usize| (KEY_COLS + shape.column(cell)) as u8;
    for cell in 0..n {
        for m in Move::ALL {
            if let Some(to) = shape.neighbour(cell, m) {
                let vertical = matches!(m, Move::Up | Move::Down);
                let k = t.step_count[cell] as usize;
                t.steps[cell][k] = if vertical {
                    Step {
                        mi: m.index() as u8,
                        to: to as u8,
                        cross: 0,
                        leave: row_key(to),
                        enter: row_key(cell),
                        along: col_key(to),
                    }
                } else {
                    Step {
                        mi: m.index() as u8,
                        to: to as u8,
                        cross: 1,
                        leave: col_key(to),
                        enter: col_key(cell),
                        along: row_key(to),
                    }
                };
                t.step_count[cell] += 1;
            }
        }
        for tile in 1..n {
            t.md[tile][cell] = md.distance(tile as u16, cell) as u8;
            if let Some(lc) = lc {
                (t.part[0][tile][cell], t.part[1][tile][cell]) = lc.key_parts(tile as u16, cell);
            }
        }
    }
    let mut cells = [0u8; MAX_CELLS];
    let mut keys = [0u32; 2 * KEY_COLS];
    if lc.is_some() {
        for c in 0..shape.width() {
            keys[KEY_COLS + c] = col_offset;
        }
    }
    for (cell, &tile) in start.cells().iter().enumerate() {
        cells[cell] = tile as u8;
        if lc.is_some() {
            keys[row_key(cell) as usize] += t.part[0][tile as usize][cell];
            keys[col_key(cell) as usize] += t.part[1][tile as usize][cell];
        }
    }
    let h0 = match lc {
        Some(lc) => lc.estimate(start.cells()),
        None => md.estimate(start.cells()),
    };
    macro_rules! search {
        ($lines:expr) => {
            Search::<$lines> {
                t,
                cells,
                keys,
                bound: h0,
                next_bound: u32::MAX,
                reversed: Vec::with_capacity(128),
                pruner,
                stats: Stats::default(),
                budget: Budget::new(limits),
                stop: None,
            }
            .run(start.blank(), h0)
        };
    }
    if lc.is_some() {
        search!(true)
    } else {
        search!(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::search::idastar;
    use rand::{Rng, SeedableRng, rngs::SmallRng};

    /// `goal` after `steps` random blank moves.
    fn walk(goal: &Board, steps: usize, rng: &mut SmallRng) -> Board {
        let mut b = goal.clone();
        for _ in 0..steps {
            b.apply(Move::ALL[rng.random_range(0..4)]);
        }
        b
    }

    /// Same solution lengths and the very same node counts as the generic IDA*, for both
    /// heuristics, on several shapes and a custom goal.
    #[test]
    fn agrees_with_generic_idastar_node_for_node() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut goals: Vec<Board> = [(2, 3), (3, 2), (3, 3), (2, 4), (4, 4), (3, 5)]
            .into_iter()
            .map(|(w, h)| Board::goal(Shape::new(w, h).unwrap()))
            .collect();
        goals.push(Board::parse("8 x 6 5 4 7 2 3 1").unwrap());
        for goal in goals {
            let md = Manhattan::new(&goal);
            let lc = LinearConflict::new(&goal);
            let count = if goal.shape().cells() > 12 { 6 } else { 60 };
            for _ in 0..count {
                let start = if goal.shape().cells() > 12 {
                    walk(&goal, 40, &mut rng)
                } else {
                    crate::random::random_solvable(&goal, &mut rng)
                };
                for with_lc in [false, true] {
                    let lines = with_lc.then_some(&lc);
                    let parent = MovePruner::parent_only();
                    let fast =
                        compact_idastar(&start, &goal, &md, lines, parent, &Limits::default())
                            .unwrap();
                    let slow = if with_lc {
                        idastar(&start, &goal, &lc, &Limits::default())
                    } else {
                        idastar(&start, &goal, &md, &Limits::default())
                    }
                    .unwrap();
                    fast.0.verify(&start, &goal).unwrap();
                    assert_eq!(fast.0.len(), slow.0.len(), "{start:?}");
                    assert_eq!(fast.1.expanded, slow.1.expanded, "{start:?}");
                    assert_eq!(fast.1.generated, slow.1.generated, "{start:?}");
                    let pruned = compact_idastar(
                        &start,
                        &goal,
                        &md,
                        lines,
                        MovePruner::standard(),
                        &Limits::default(),
                    )
                    .unwrap();
                    pruned.0.verify(&start, &goal).unwrap();
                    assert_eq!(pruned.0.len(), slow.0.len(), "{start:?}");
                    assert!(pruned.1.expanded <= slow.1.expanded + 1, "{start:?}");
                }
            }
        }
    }

    #[test]
    fn refuses_what_it_cannot_hold_and_honours_limits() {
        let goal = Board::goal(Shape::new(2, 8).unwrap());
        let lc = LinearConflict::new(&goal);
        let md = Manhattan::new(&goal);
        let start = walk(&goal, 30, &mut SmallRng::seed_from_u64(2));
        assert!(matches!(
            compact_idastar(
                &start,
                &goal,
                &md,
                Some(&lc),
                MovePruner::standard(),
                &Limits::default()
            ),
            Err(SearchError::Unsupported(_))
        ));
        // A heuristic for another goal is refused, not trusted.
        let other = Manhattan::new(&Board::goal(Shape::new(3, 3).unwrap()));
        assert!(matches!(
            compact_idastar(
                &start,
                &goal,
                &other,
                None,
                MovePruner::standard(),
                &Limits::default()
            ),
            Err(SearchError::Unsupported(_))
        ));
        // Manhattan alone has no line tables to need.
        assert!(
            compact_idastar(
                &start,
                &goal,
                &md,
                None,
                MovePruner::standard(),
                &Limits::default()
            )
            .is_ok()
        );
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let hard = Board::parse("15 14 13 12 11 10 9 8 7 6 5 4 3 1 2 x").unwrap();
        let limits = Limits {
            max_nodes: Some(1000),
            ..Limits::default()
        };
        let err = compact_idastar(
            &hard,
            &goal,
            &Manhattan::new(&goal),
            None,
            MovePruner::standard(),
            &limits,
        )
        .unwrap_err();
        let SearchError::Limit(e) = err else {
            panic!("{err:?}")
        };
        assert_eq!(e.kind, LimitKind::Nodes);
        assert!(e.stats.expanded > 1000 && e.stats.expanded < 1100);
    }
}
