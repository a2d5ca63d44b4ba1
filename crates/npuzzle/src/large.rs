//! A constructive solver for boards of any size: quick, always finishes, not optimal.
//!
//! Optimal search is out of reach beyond 4×4 (and for 5×5 only with large databases), but a
//! player on a 10×10 board still wants an answer. This solver peels the board one line at a
//! time, always the row or column farthest from the goal's blank, until at most 3×3 is left:
//!
//! - every tile of the line but the last two is brought home by an exact breadth-first search
//!   over (tile cell, blank cell) inside the still-free region;
//! - the last two tiles go home together, by an exact search over (tile, tile, blank), which
//!   finds the classic corner manoeuvre by itself;
//! - the last region (2×2 to 3×3) is finished optimally with a complete table.
//!
//! Up to [`FULL_SEARCH_CELLS`] cells those searches cover the whole free region. Beyond, a
//! tile travels along a shortest path in hops of a few cells, each an exact search inside a
//! small window around the tile (the blank first walked there), and the last two tiles of a
//! line meet in a window at the corner; time and memory then grow with the answer itself
//! (a 100×100 board in about a second). Each step is exact within its own sub-problem, so no
//! hand-written move sequences are needed.

use crate::board::{BLANK, Board, Move, Shape, Tile};
use crate::search::{Budget, Found, Limits, SearchError, Stats};
use crate::solution::Solution;
use crate::table::Table;
use std::collections::VecDeque;

/// Boards up to this many cells place tiles by exact searches over the whole free region;
/// larger ones by short hops, each an exact search inside a small window (see
/// [`Builder::place_far`]), so that time and memory grow with the answer.
pub const FULL_SEARCH_CELLS: usize = 256;

/// The largest board this solver takes (128×128 or anything of at most as many cells).
pub const MAX_LARGE_CELLS: usize = 16_384;

/// The largest `cells × (width + height)` taken: answers grow about as `2.3 × cells ×
/// (width + height)` moves at worst (a reversed board), and must stay within
/// [`crate::solution::MAX_SOLUTION_MOVES`]; 128×128 is 4.2 M, 256×64 (5.2 M) is refused.
pub const MAX_LARGE_SPAN: usize = 128 * 128 * 256;

/// Cells a tile advances along its path per windowed search.
const HOP: usize = 3;

/// Tracks the board, the moves so far and the figures.
struct Builder<'a> {
    board: Board,
    /// `at[t]`: the cell of tile `t` (`at[0]` is the blank).
    at: Vec<usize>,
    moves: Vec<Move>,
    locked: Vec<bool>,
    stats: Stats,
    budget: Budget<'a>,
    /// Scratch for searches over cells: the window index of each cell (`u32::MAX` outside),
    /// and per-cell marks stamped with a generation so they need no clearing.
    local: Vec<u32>,
    came_by: Vec<u8>,
    stamp: Vec<u32>,
    generation: u32,
    parent: Vec<u32>,
}

/// A rectangle of rows `r0..r1` and columns `c0..c1`.
type Area = (usize, usize, usize, usize);

impl Builder<'_> {
    fn play(&mut self, moves: &[Move]) {
        let shape = self.board.shape();
        for &m in moves {
            let blank = self.board.blank();
            if let Some(to) = shape.neighbour(blank, m) {
                let t = self.board.tile(to);
                self.board.apply(m);
                self.at[t as usize] = blank;
                self.at[0] = to;
            }
        }
        self.moves.extend_from_slice(moves);
    }

    fn check(&mut self) -> Result<(), SearchError> {
        if self.moves.len() > crate::solution::MAX_SOLUTION_MOVES {
            return Err(SearchError::Unsupported(format!(
                "the answer would pass {} moves",
                crate::solution::MAX_SOLUTION_MOVES
            )));
        }
        // The stored-state limit bounds searches whose memory grows with what they keep; this
        // solver's memory is bounded by construction (its placement searches use at most
        // FULL_SEARCH_CELLS³ bytes, then windows), so only time, nodes and cancellation apply.
        // Called every few thousand states: the clock and the cancel flag are read each time.
        Ok(self.budget.enforce_now(&mut self.stats, 0)?)
    }

    fn stuck(&self, tile: Tile) -> SearchError {
        SearchError::Unsupported(format!(
            "the constructive solver could not place tile {tile} on this {} board",
            self.board.shape()
        ))
    }

    /// Brings the given tiles (one or two) to their targets without entering locked cells.
    fn place(&mut self, tiles: &[(Tile, usize)]) -> Result<(), SearchError> {
        if self.board.shape().cells() <= FULL_SEARCH_CELLS {
            let free: Vec<usize> = (0..self.locked.len())
                .filter(|&c| !self.locked[c])
                .collect();
            return match self.place_in(tiles, &free)? {
                true => Ok(()),
                false => Err(self.stuck(tiles[0].0)),
            };
        }
        match *tiles {
            [(a, ta)] => self.place_far(a, ta),
            [(a, x), (b, y)] => self.place_pair_far((a, x), (b, y)),
            _ => Ok(()),
        }
    }

    /// The unlocked cells of `area`.
    fn window(&self, (r0, r1, c0, c1): Area) -> Vec<usize> {
        let w = self.board.shape().width();
        (r0..r1)
            .flat_map(|r| (c0..c1).map(move |c| r * w + c))
            .filter(|&c| !self.locked[c])
            .collect()
    }

    /// The smallest rectangle holding `cells`, grown by `margin` on every side.
    fn area(&self, cells: &[usize], margin: usize) -> Area {
        let shape = self.board.shape();
        let rows = cells.iter().map(|&c| shape.row(c));
        let cols = cells.iter().map(|&c| shape.column(c));
        let (r0, r1) = (rows.clone().min().unwrap_or(0), rows.max().unwrap_or(0));
        let (c0, c1) = (cols.clone().min().unwrap_or(0), cols.max().unwrap_or(0));
        (
            r0.saturating_sub(margin),
            (r1 + margin + 1).min(shape.height()),
            c0.saturating_sub(margin),
            (c1 + margin + 1).min(shape.width()),
        )
    }

    /// A new generation of cell marks.
    fn fresh_marks(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.generation
    }

    /// Breadth-first search over unlocked cells from `from`, never through `avoid`, to the
    /// first cell `goal` accepts; the cells of the path (start excluded), or `None`.
    fn cell_path(
        &mut self,
        from: usize,
        avoid: &[usize],
        goal: impl Fn(usize) -> bool,
    ) -> Option<Vec<usize>> {
        let shape = self.board.shape();
        let g = self.fresh_marks();
        self.stamp[from] = g;
        let mut queue = VecDeque::from([from]);
        while let Some(c) = queue.pop_front() {
            if goal(c) {
                let mut path = vec![c];
                let mut at = c;
                while at != from {
                    at = self.parent[at] as usize;
                    path.push(at);
                }
                path.pop();
                path.reverse();
                return Some(path);
            }
            for m in Move::ALL {
                let Some(nb) = shape.neighbour(c, m) else {
                    continue;
                };
                if self.locked[nb] || self.stamp[nb] == g || avoid.contains(&nb) {
                    continue;
                }
                self.stamp[nb] = g;
                self.parent[nb] = c as u32;
                queue.push_back(nb);
            }
        }
        None
    }

    /// Walks the blank into `area` without passing through `avoid`.
    fn bring_blank(&mut self, (r0, r1, c0, c1): Area, avoid: &[usize]) -> Result<(), SearchError> {
        let shape = self.board.shape();
        let inside =
            |c: usize| (r0..r1).contains(&shape.row(c)) && (c0..c1).contains(&shape.column(c));
        let path = self
            .cell_path(self.at[0], avoid, inside)
            .ok_or_else(|| self.stuck(BLANK))?;
        let mut moves = Vec::with_capacity(path.len());
        let mut at = self.at[0];
        for c in path {
            let m = Move::ALL
                .into_iter()
                .find(|&m| shape.neighbour(at, m) == Some(c))
                .ok_or_else(|| self.stuck(BLANK))?;
            moves.push(m);
            at = c;
        }
        self.stats.expanded += moves.len() as u64;
        self.play(&moves);
        Ok(())
    }

    /// Large boards: tile `a` travels along a shortest path to `ta` in hops of [`HOP`] cells,
    /// each an exact search in a window around the tile and the hop's end (widened when the
    /// window is too tight).
    fn place_far(&mut self, a: Tile, ta: usize) -> Result<(), SearchError> {
        let target = ta;
        let path = self
            .cell_path(self.at[a as usize], &[], |c| c == target)
            .ok_or_else(|| self.stuck(a))?;
        let mut i = 0;
        while self.at[a as usize] != ta {
            let hop_i = (i + HOP).min(path.len()) - 1;
            let hop = path[hop_i];
            let around = [self.at[a as usize], hop];
            if !self.place_windowed(&[(a, hop)], &around, &[1, 2, 4, 8])? {
                return Err(self.stuck(a));
            }
            i = hop_i + 1;
            self.check()?;
        }
        Ok(())
    }

    /// Large boards: the last two tiles of a line. `a` goes home to `x`; then, with `x` held,
    /// `b` goes next to `y` on the side away from the line; then one exact search in a small
    /// window around the corner finishes both (the classic corner manoeuvre).
    fn place_pair_far(
        &mut self,
        (a, x): (Tile, usize),
        (b, y): (Tile, usize),
    ) -> Result<(), SearchError> {
        if self.at[a as usize] == x && self.at[b as usize] == y {
            return Ok(());
        }
        let shape = self.board.shape();
        let inward = Move::ALL
            .into_iter()
            .filter_map(|m| shape.neighbour(y, m))
            .find(|&c| c != x && !self.locked[c])
            .ok_or_else(|| self.stuck(b))?;
        self.place_far(a, x)?;
        if self.at[b as usize] != y {
            self.locked[x] = true;
            let result = self.place_far(b, inward);
            self.locked[x] = false;
            result?;
        }
        let around = [x, y, self.at[b as usize]];
        match self.place_windowed(&[(a, x), (b, y)], &around, &[1, 2, 3, 5])? {
            true => Ok(()),
            false => Err(self.stuck(b)),
        }
    }

    /// [`Builder::place_in`] inside the rectangle around `around` grown by each of `margins`
    /// in turn, the blank first walked there without moving the tiles: `Ok(false)` when even
    /// the widest window does not allow it.
    fn place_windowed(
        &mut self,
        tiles: &[(Tile, usize)],
        around: &[usize],
        margins: &[usize],
    ) -> Result<bool, SearchError> {
        let hold: Vec<usize> = tiles.iter().map(|&(t, _)| self.at[t as usize]).collect();
        for &margin in margins {
            let area = self.area(around, margin);
            self.bring_blank(area, &hold)?;
            let cells = self.window(area);
            if self.place_in(tiles, &cells)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Exact breadth-first search moving the given tiles (one or two) to their targets with
    /// the blank, all inside `cells` (unlocked): `Ok(false)` when the window does not allow it.
    fn place_in(&mut self, tiles: &[(Tile, usize)], cells: &[usize]) -> Result<bool, SearchError> {
        let (a, ta) = tiles[0];
        let two = tiles.len() == 2;
        let (b, tb) = if two { tiles[1] } else { (BLANK, 0) };
        let start = (
            self.at[a as usize],
            if two { self.at[b as usize] } else { 0 },
            self.at[0],
        );
        if start.0 == ta && (!two || start.1 == tb) {
            return Ok(true);
        }
        for (i, &c) in cells.iter().enumerate() {
            self.local[c] = i as u32;
        }
        let found = self.search_window(cells, ta, (two, tb), start);
        for &c in cells {
            self.local[c] = u32::MAX;
        }
        let Some(path) = found? else {
            return Ok(false);
        };
        self.play(&path);
        Ok(true)
    }

    /// The search of [`Builder::place_in`], with `local` set for the window.
    fn search_window(
        &mut self,
        cells: &[usize],
        ta: usize,
        (two, tb): (bool, usize),
        start: (usize, usize, usize),
    ) -> Result<Option<Vec<Move>>, SearchError> {
        let shape = self.board.shape();
        let m = cells.len();
        let local = |c: usize| self.local[c] as usize;
        if [start.0, start.2]
            .iter()
            .chain(two.then_some(&start.1))
            .any(|&c| self.local[c] == u32::MAX)
            || self.local[ta] == u32::MAX
            || (two && self.local[tb] == u32::MAX)
        {
            return Ok(None);
        }
        let (lta, ltb) = (local(ta), if two { local(tb) } else { 0 });
        // State index: ((a * m) + b) * m + blank, in window indices; b is 0 for one tile.
        let size = if two { m * m * m } else { m * m };
        let index = |pa: usize, pb: usize, bl: usize| (pa * if two { m } else { 1 } + pb) * m + bl;
        const UNSEEN: u8 = 0xFF;
        self.came_by.clear();
        self.came_by.resize(size, UNSEEN);
        let s = (
            local(start.0),
            if two { local(start.1) } else { 0 },
            local(start.2),
        );
        self.came_by[index(s.0, s.1, s.2)] = 4;
        let mut queue = VecDeque::from([s]);
        let mut end = None;
        'search: while let Some((pa, pb, bl)) = queue.pop_front() {
            self.stats.expanded += 1;
            if self.stats.expanded.is_multiple_of(1 << 14) {
                self.check()?;
            }
            for mv in Move::ALL {
                let Some(nb) = shape.neighbour(cells[bl], mv) else {
                    continue;
                };
                let nb = self.local[nb];
                if nb == u32::MAX {
                    continue;
                }
                let nb = nb as usize;
                let na = if nb == pa { bl } else { pa };
                let npb = if two && nb == pb { bl } else { pb };
                let i = index(na, npb, nb);
                if self.came_by[i] != UNSEEN {
                    continue;
                }
                self.came_by[i] = mv.index() as u8;
                self.stats.generated += 1;
                if na == lta && (!two || npb == ltb) {
                    end = Some((na, npb, nb));
                    break 'search;
                }
                queue.push_back((na, npb, nb));
            }
        }
        self.stats.peak_stored = self.stats.peak_stored.max(size as u64);
        let Some((mut pa, mut pb, mut bl)) = end else {
            return Ok(None);
        };
        // Walk back to the start, undoing each blank move.
        let mut path = Vec::new();
        loop {
            let mv = self.came_by[index(pa, pb, bl)];
            if mv == 4 {
                break;
            }
            let mv = Move::from_index(mv as usize);
            path.push(mv);
            let prev = shape
                .neighbour(cells[bl], mv.inverse())
                .map_or(bl, |c| self.local[c] as usize);
            if pa == prev {
                pa = bl;
            } else if two && pb == prev {
                pb = bl;
            }
            bl = prev;
        }
        path.reverse();
        Ok(Some(path))
    }
}

/// The cells of a rectangular region, row-major.
fn region_cells(shape: Shape, rows: (usize, usize), cols: (usize, usize)) -> Vec<usize> {
    (rows.0..rows.1)
        .flat_map(|r| (cols.0..cols.1).map(move |c| r * shape.width() + c))
        .collect()
}

/// Solves `start` toward `goal` constructively (see the module docs); not optimal.
pub fn solve_large(start: &Board, goal: &Board, limits: &Limits) -> Result<Found, SearchError> {
    crate::search::check_solvable(start, goal)?;
    let shape = start.shape();
    let n = shape.cells();
    if n > MAX_LARGE_CELLS || n * (shape.width() + shape.height()) > MAX_LARGE_SPAN {
        return Err(SearchError::Unsupported(format!(
            "the constructive solver takes boards up to 128x128 (at most {MAX_LARGE_CELLS} cells, and no longer sides for as many cells: its answers would pass {} moves), not {shape}",
            crate::solution::MAX_SOLUTION_MOVES
        )));
    }
    let mut at = vec![0usize; n];
    for (cell, &t) in start.cells().iter().enumerate() {
        at[t as usize] = cell;
    }
    let mut b = Builder {
        board: start.clone(),
        at,
        moves: Vec::new(),
        locked: vec![false; n],
        stats: Stats::default(),
        budget: Budget::new(limits),
        local: vec![u32::MAX; n],
        came_by: Vec::new(),
        stamp: vec![0; n],
        generation: 0,
        parent: vec![0; n],
    };
    let (br, bc) = (shape.row(goal.blank()), shape.column(goal.blank()));
    let (mut r0, mut r1, mut c0, mut c1) = (0, shape.height(), 0, shape.width());
    while r1 - r0 > 3 || c1 - c0 > 3 {
        // Peel the longer dimension's far line: a row when there are more rows.
        let line: Vec<usize> = if r1 - r0 >= c1 - c0 {
            let row = if br - r0 >= r1 - 1 - br {
                r0 += 1;
                r0 - 1
            } else {
                r1 -= 1;
                r1
            };
            (c0..c1).map(|c| row * shape.width() + c).collect()
        } else {
            let col = if bc - c0 >= c1 - 1 - bc {
                c0 += 1;
                c0 - 1
            } else {
                c1 -= 1;
                c1
            };
            (r0..r1).map(|r| r * shape.width() + col).collect()
        };
        let k = line.len();
        for &cell in &line[..k - 2] {
            b.place(&[(goal.tile(cell), cell)])?;
            b.locked[cell] = true;
        }
        let (x, y) = (line[k - 2], line[k - 1]);
        b.place(&[(goal.tile(x), x), (goal.tile(y), y)])?;
        b.locked[x] = true;
        b.locked[y] = true;
        b.check()?;
    }
    // Finish the last region optimally with a complete table of that small board.
    let cells = region_cells(shape, (r0, r1), (c0, c1));
    let small = Shape::new(c1 - c0, r1 - r0).map_err(SearchError::from)?;
    let mut rename = vec![BLANK; n];
    let mut next: Tile = 1;
    for &cell in &cells {
        let t = goal.tile(cell);
        if t != BLANK {
            rename[t as usize] = next;
            next += 1;
        }
    }
    let relabel = |board: &Board| -> Result<Board, SearchError> {
        let tiles: Vec<Tile> = cells
            .iter()
            .map(|&c| rename[board.tile(c) as usize])
            .collect();
        Ok(Board::new(small, &tiles)?)
    };
    let sub_goal = relabel(goal)?;
    let sub_start = relabel(&b.board)?;
    let table = Table::build(&sub_goal).map_err(|e| SearchError::Unsupported(e.to_string()))?;
    let Some(rest) = table.solve(&sub_start) else {
        return Err(SearchError::Unsolvable);
    };
    b.stats.expanded += rest.len() as u64;
    b.stats.peak_stored = b.stats.peak_stored.max(table.reachable_states());
    b.play(rest.moves());
    b.stats.elapsed = b.budget.elapsed();
    Ok((Solution::new(b.moves), b.stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn solves_many_sizes_and_goals() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        for (w, h) in [
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (2, 7),
            (7, 2),
            (6, 4),
            (10, 10),
            (3, 8),
        ] {
            let shape = Shape::new(w, h).unwrap();
            for goal in [Board::goal(shape), Board::goal_blank_first(shape)] {
                for _ in 0..3 {
                    let b = crate::random::random_solvable(&goal, &mut rng);
                    let (s, _) = solve_large(&b, &goal, &Limits::default()).unwrap();
                    s.verify(&b, &goal).unwrap();
                }
            }
        }
        // Past FULL_SEARCH_CELLS: windowed hops, on squares and on thin strips.
        for (w, h) in [
            (17, 17),
            (40, 30),
            (2, 150),
            (150, 2),
            (3, 100),
            (100, 3),
            (2, 256),
        ] {
            let shape = Shape::new(w, h).unwrap();
            for goal in [Board::goal(shape), Board::goal_blank_first(shape)] {
                let b = crate::random::random_solvable(&goal, &mut rng);
                let (s, _) = solve_large(&b, &goal, &Limits::default()).unwrap();
                s.verify(&b, &goal).unwrap();
            }
        }
        // Past MAX_LARGE_CELLS: refused before any work.
        for (w, h) in [(200, 200), (256, 64)] {
            let huge = Board::goal(Shape::new(w, h).unwrap());
            assert!(matches!(
                solve_large(&huge, &huge, &Limits::default()),
                Err(SearchError::Unsupported(_))
            ));
        }
        // A goal with the blank in the middle.
        let goal = Board::parse("1 2 3 4 5 6 7 8 9 10 11 12 x 13 14 15 16 17 18 19 20 21 22 23 24")
            .unwrap();
        let b = crate::random::random_solvable(&goal, &mut rng);
        let (s, _) = solve_large(&b, &goal, &Limits::default()).unwrap();
        s.verify(&b, &goal).unwrap();
    }
}
