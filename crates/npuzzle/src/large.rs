//! A constructive solver for boards of any size: quick, always finishes, not optimal.
//!
//! Optimal search is out of reach beyond 4×4 (and for 5×5 only with large databases), but a
//! player on a 10×10 board still wants an answer. This solver peels the board one line at a
//! time, always the row or column farthest from the goal's blank, until at most 3×3 is left:
//!
//! - every tile of the line but the last two is brought home by an exact breadth-first search
//!   over (tile cell, blank cell) inside the still-free region (at most 256² states);
//! - the last two tiles go home together, by an exact search over (tile, tile, blank) (at most
//!   100³ states on 10×10), which finds the classic corner manoeuvre by itself;
//! - the last region (2×2 to 3×3) is finished optimally with a complete table.
//!
//! Each step is exact within its own sub-problem, so no hand-written move sequences are needed.

use crate::board::{BLANK, Board, Move, Shape, Tile};
use crate::search::{Budget, Found, Limits, SearchError, Stats};
use crate::solution::Solution;
use crate::table::Table;
use std::collections::VecDeque;

/// The largest board this solver takes (the pair search keeps `cells³` bytes).
pub const MAX_LARGE_CELLS: usize = 256;

/// Tracks the board, the moves so far and the figures.
struct Builder<'a> {
    board: Board,
    moves: Vec<Move>,
    locked: Vec<bool>,
    stats: Stats,
    budget: Budget<'a>,
}

impl Builder<'_> {
    fn play(&mut self, moves: &[Move]) {
        for &m in moves {
            self.board.apply(m);
        }
        self.moves.extend_from_slice(moves);
    }

    fn check(&mut self) -> Result<(), SearchError> {
        let stored = self.stats.peak_stored;
        Ok(self.budget.enforce(&mut self.stats, stored)?)
    }

    /// Brings the given tiles (one or two) to their targets without entering locked cells.
    fn place(&mut self, tiles: &[(Tile, usize)]) -> Result<(), SearchError> {
        let shape = self.board.shape();
        let n = shape.cells();
        let pos = |t: Tile| self.board.position_of(t).unwrap_or(0);
        let (a, ta) = tiles[0];
        let two = tiles.len() == 2;
        let (b, tb) = if two { tiles[1] } else { (BLANK, 0) };
        // State index: ((pa * n) + pb) * n + blank; pb is 0 when placing one tile.
        let size = if two { n * n * n } else { n * n };
        let index = |pa: usize, pb: usize, bl: usize| (pa * if two { n } else { 1 } + pb) * n + bl;
        let start = (pos(a), if two { pos(b) } else { 0 }, self.board.blank());
        if start.0 == ta && (!two || start.1 == tb) {
            return Ok(());
        }
        const UNSEEN: u8 = 0xFF;
        let mut came_by = vec![UNSEEN; size];
        came_by[index(start.0, start.1, start.2)] = 4;
        let mut queue = VecDeque::from([start]);
        let mut end = None;
        while let Some((pa, pb, bl)) = queue.pop_front() {
            self.stats.expanded += 1;
            if self.stats.expanded.is_multiple_of(1 << 14) {
                self.check()?;
            }
            for m in Move::ALL {
                let Some(nb) = shape.neighbour(bl, m) else {
                    continue;
                };
                if self.locked[nb] {
                    continue;
                }
                let na = if nb == pa { bl } else { pa };
                let npb = if two && nb == pb { bl } else { pb };
                let i = index(na, npb, nb);
                if came_by[i] != UNSEEN {
                    continue;
                }
                came_by[i] = m.index() as u8;
                self.stats.generated += 1;
                if na == ta && (!two || npb == tb) {
                    end = Some((na, npb, nb));
                    break;
                }
                queue.push_back((na, npb, nb));
            }
            if end.is_some() {
                break;
            }
        }
        self.stats.peak_stored = self.stats.peak_stored.max(size as u64);
        let Some((mut pa, mut pb, mut bl)) = end else {
            return Err(SearchError::Unsupported(format!(
                "the constructive solver could not place tile {a} on this {shape} board"
            )));
        };
        // Walk back to the start, undoing each blank move.
        let mut path = Vec::new();
        loop {
            let m = came_by[index(pa, pb, bl)];
            if m == 4 {
                break;
            }
            let m = Move::from_index(m as usize);
            path.push(m);
            let prev = shape.neighbour(bl, m.inverse()).unwrap_or(bl);
            if pa == prev {
                pa = bl;
            } else if two && pb == prev {
                pb = bl;
            }
            bl = prev;
        }
        path.reverse();
        self.play(&path);
        Ok(())
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
    if n > MAX_LARGE_CELLS {
        return Err(SearchError::Unsupported(format!(
            "the constructive solver takes boards of at most {MAX_LARGE_CELLS} cells, not {shape}"
        )));
    }
    let mut b = Builder {
        board: start.clone(),
        moves: Vec::new(),
        locked: vec![false; n],
        stats: Stats::default(),
        budget: Budget::new(limits),
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
        // A goal with the blank in the middle.
        let goal = Board::parse("1 2 3 4 5 6 7 8 9 10 11 12 x 13 14 15 16 17 18 19 20 21 22 23 24")
            .unwrap();
        let b = crate::random::random_solvable(&goal, &mut rng);
        let (s, _) = solve_large(&b, &goal, &Limits::default()).unwrap();
        s.verify(&b, &goal).unwrap();
    }
}
