//! Iterative-deepening A*: depth-first searches bounded by f = g + h, the bound raised to the
//! smallest f that exceeded it, until the goal is reached. Memory is just the current path.
//!
//! The inner loop does O(1) work per node apart from the heuristic's `delta`: the board is one
//! mutable array, a move is two writes, the move back to the parent is never tried, and the
//! estimate is updated incrementally. Nothing is allocated per node.

use super::state::NONE;
use super::{Budget, Found, LimitKind, Limits, SearchError, Stats};
use crate::board::{BLANK, Board, Move, Tile};
use crate::search::eval::Heuristic;
use crate::solution::Solution;

struct Ida<'a, H: ?Sized> {
    cells: Vec<Tile>,
    goal: &'a [Tile],
    neighbours: Vec<[u8; 4]>,
    h: &'a H,
    path: Vec<Move>,
    bound: u32,
    next_bound: u32,
    stats: Stats,
    budget: Budget<'a>,
    stop: Option<LimitKind>,
}

impl<H: Heuristic + ?Sized> Ida<'_, H> {
    fn dfs(&mut self, blank: usize, g: u32, hv: u32, back: usize) -> bool {
        let f = g + hv;
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            return false;
        }
        if hv == 0 && self.cells == self.goal {
            return true;
        }
        self.stats.expanded += 1;
        if let Some(kind) = self.budget.check(self.stats.expanded, g as u64) {
            self.stop = Some(kind);
            return false;
        }
        for mi in 0..4 {
            if mi == back {
                continue;
            }
            let to = self.neighbours[blank][mi];
            if to == NONE {
                continue;
            }
            let to = to as usize;
            let tile = self.cells[to];
            self.cells[blank] = tile;
            self.cells[to] = BLANK;
            self.stats.generated += 1;
            let nh = (hv as i32 + self.h.delta(&self.cells, tile, to, blank)) as u32;
            self.path.push(Move::from_index(mi));
            if self.dfs(to, g + 1, nh, mi ^ 1) {
                return true;
            }
            self.path.pop();
            self.cells[to] = tile;
            self.cells[blank] = BLANK;
            if self.stop.is_some() {
                return false;
            }
        }
        false
    }
}

/// IDA* from `start` to `goal` with heuristic `h`; optimal when `h` is admissible.
pub fn idastar<H: Heuristic + ?Sized>(
    start: &Board,
    goal: &Board,
    h: &H,
    limits: &Limits,
) -> Result<Found, SearchError> {
    super::check_solvable(start, goal)?;
    let shape = start.shape();
    let neighbours = (0..shape.cells())
        .map(|c| Move::ALL.map(|m| shape.neighbour(c, m).map_or(NONE, |x| x as u8)))
        .collect::<Vec<_>>();
    if shape.cells() > 255 {
        return Err(SearchError::Unsupported(format!(
            "a {shape} board is too large for IDA* here (at most 255 cells)"
        )));
    }
    let h0 = h.estimate(start.cells());
    let mut ida = Ida {
        cells: start.cells().to_vec(),
        goal: goal.cells(),
        neighbours,
        h,
        path: Vec::with_capacity(256),
        bound: h0,
        next_bound: u32::MAX,
        stats: Stats::default(),
        budget: Budget::new(limits),
        stop: None,
    };
    loop {
        ida.next_bound = u32::MAX;
        let found = ida.dfs(start.blank(), 0, h0, 4);
        ida.stats.peak_stored = ida.stats.peak_stored.max(ida.bound as u64 + 1);
        ida.stats.elapsed = ida.budget.elapsed();
        match super::next_iteration(found, ida.stop, ida.next_bound, ida.stats)? {
            Some(bound) => ida.bound = bound,
            None => return Ok((Solution::new(ida.path), ida.stats)),
        }
    }
}
