//! Linear conflict: Manhattan distance plus, for every row and column, two moves for each tile
//! that must step out of the line so that tiles belonging to the line can pass each other.
//!
//! For one line, the tiles whose goal lies in that line must end in goal order; the fewest that
//! must leave is the line's length minus the longest increasing subsequence of their goal
//! positions, and each one that leaves costs two extra moves. Lines are independent (a tile
//! leaving a row moves vertically, which Manhattan distance does not already count for that
//! row), so the sum stays admissible.

use super::{Heuristic, Manhattan};
use crate::board::{BLANK, Board, Shape, Tile};
use smallvec::SmallVec;

/// Linear conflict toward one goal.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    shape: Shape,
    manhattan: Manhattan,
    /// Goal row and column of each tile.
    goal_row: Vec<u16>,
    goal_col: Vec<u16>,
}

/// Length of the longest strictly increasing subsequence (patience sorting).
fn lis(seq: &[u16]) -> usize {
    let mut tails: SmallVec<[u16; 16]> = SmallVec::new();
    for &x in seq {
        match tails.binary_search(&x) {
            Ok(_) => {}
            Err(i) if i == tails.len() => tails.push(x),
            Err(i) => tails[i] = x,
        }
    }
    tails.len()
}

impl LinearConflict {
    /// The heuristic for `goal`.
    pub fn new(goal: &Board) -> LinearConflict {
        let shape = goal.shape();
        let n = shape.cells();
        let mut goal_row = vec![u16::MAX; n];
        let mut goal_col = vec![u16::MAX; n];
        for (cell, &t) in goal.cells().iter().enumerate() {
            if t != BLANK {
                goal_row[t as usize] = shape.row(cell) as u16;
                goal_col[t as usize] = shape.column(cell) as u16;
            }
        }
        LinearConflict {
            shape,
            manhattan: Manhattan::new(goal),
            goal_row,
            goal_col,
        }
    }

    /// Extra moves for row `r`; `subst` replaces the tile in column `subst.0` by `subst.1`.
    fn row_extra(&self, cells: &[Tile], r: usize, subst: Option<(usize, Tile)>) -> u32 {
        let w = self.shape.width();
        let mut seq: SmallVec<[u16; 16]> = SmallVec::new();
        for c in 0..w {
            let t = match subst {
                Some((sc, st)) if sc == c => st,
                _ => cells[r * w + c],
            };
            if t != BLANK && self.goal_row[t as usize] as usize == r {
                seq.push(self.goal_col[t as usize]);
            }
        }
        2 * (seq.len() - lis(&seq)) as u32
    }

    /// Extra moves for column `c`; `subst` replaces the tile in row `subst.0` by `subst.1`.
    fn col_extra(&self, cells: &[Tile], c: usize, subst: Option<(usize, Tile)>) -> u32 {
        let w = self.shape.width();
        let mut seq: SmallVec<[u16; 16]> = SmallVec::new();
        for r in 0..self.shape.height() {
            let t = match subst {
                Some((sr, st)) if sr == r => st,
                _ => cells[r * w + c],
            };
            if t != BLANK && self.goal_col[t as usize] as usize == c {
                seq.push(self.goal_row[t as usize]);
            }
        }
        2 * (seq.len() - lis(&seq)) as u32
    }
}

impl Heuristic for LinearConflict {
    fn name(&self) -> &'static str {
        "linear-conflict"
    }

    fn estimate(&self, cells: &[Tile]) -> u32 {
        let rows: u32 = (0..self.shape.height())
            .map(|r| self.row_extra(cells, r, None))
            .sum();
        let cols: u32 = (0..self.shape.width())
            .map(|c| self.col_extra(cells, c, None))
            .sum();
        self.manhattan.estimate(cells) + rows + cols
    }

    fn delta(&self, cells: &[Tile], tile: Tile, from: usize, to: usize) -> i32 {
        let md = self.manhattan.delta(cells, tile, from, to);
        let s = self.shape;
        let (fr, fc, tr, tc) = (s.row(from), s.column(from), s.row(to), s.column(to));
        let lines = if fr == tr {
            // Horizontal slide: only columns `fc` and `tc` change.
            let after = self.col_extra(cells, fc, None) + self.col_extra(cells, tc, None);
            let before = self.col_extra(cells, fc, Some((fr, tile)))
                + self.col_extra(cells, tc, Some((tr, BLANK)));
            after as i32 - before as i32
        } else {
            // Vertical slide: only rows `fr` and `tr` change.
            let after = self.row_extra(cells, fr, None) + self.row_extra(cells, tr, None);
            let before = self.row_extra(cells, fr, Some((fc, tile)))
                + self.row_extra(cells, tr, Some((tc, BLANK)));
            after as i32 - before as i32
        };
        md + lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Table;

    #[test]
    fn admissible_and_dominates_manhattan_on_every_3x3_board() {
        let table = Table::eight();
        let goal = table.goal().clone();
        let lc = LinearConflict::new(&goal);
        let md = Manhattan::new(&goal);
        let mut p = [0u8; 9];
        let mut stronger = 0;
        for r in 0..crate::rank::factorial(9) {
            crate::rank::unrank(r, &mut p);
            let tiles: Vec<Tile> = p.iter().map(|&v| v as Tile).collect();
            let b = Board::new(goal.shape(), &tiles).unwrap();
            let Some(d) = table.distance(&b) else {
                continue;
            };
            let (h, m) = (lc.estimate(&tiles), md.estimate(&tiles));
            assert!(h <= d as u32, "{b:?}: lc {h} > {d}");
            assert!(h >= m);
            assert_eq!(
                h % 2,
                d as u32 % 2,
                "parity of the estimate matches the distance"
            );
            stronger += (h > m) as u32;
        }
        assert!(stronger > 50_000);
    }

    #[test]
    fn delta_matches_full_estimate() {
        use crate::board::Move;
        use rand::{Rng, SeedableRng, rngs::SmallRng};
        let mut rng = SmallRng::seed_from_u64(3);
        for (w, h) in [(3, 3), (4, 4), (5, 3), (2, 4)] {
            let goal = Board::goal(Shape::new(w, h).unwrap());
            let lc = LinearConflict::new(&goal);
            let md = Manhattan::new(&goal);
            let mut b = crate::random::random_solvable(&goal, &mut rng);
            for _ in 0..2000 {
                let m = Move::ALL[rng.random_range(0..4)];
                let before = b.clone();
                if !b.apply(m) {
                    continue;
                }
                // the tile moved from the blank's new cell into its old one
                let (from, to) = (b.blank(), before.blank());
                let tile = b.tile(to);
                for heur in [&lc as &dyn Heuristic, &md] {
                    let want =
                        heur.estimate(b.cells()) as i32 - heur.estimate(before.cells()) as i32;
                    assert_eq!(
                        heur.delta(b.cells(), tile, from, to),
                        want,
                        "{}",
                        heur.name()
                    );
                }
            }
        }
    }
}
