//! Manhattan distance: each tile's taxicab distance from its goal cell, summed.

use super::Heuristic;
use crate::board::{BLANK, Board, Shape, Tile};

/// Boards up to this many cells get a `tile × cell` lookup table (128 KB at most); larger
/// ones, where no search is feasible anyway, compute distances so memory stays linear.
const MAX_TABLED_CELLS: usize = 256;

/// Manhattan distance toward one goal.
#[derive(Clone, Debug)]
pub struct Manhattan {
    shape: Shape,
    n: usize,
    /// Goal cell of each tile.
    home: Vec<u32>,
    /// `table[tile * n + cell]`: distance of `tile` at `cell` from home (0 for the blank);
    /// empty for boards over [`MAX_TABLED_CELLS`].
    table: Vec<u16>,
}

impl Manhattan {
    /// The heuristic for `goal`.
    pub fn new(goal: &Board) -> Manhattan {
        let shape = goal.shape();
        let n = shape.cells();
        let mut home = vec![0u32; n];
        for (cell, &tile) in goal.cells().iter().enumerate() {
            home[tile as usize] = cell as u32;
        }
        let mut table = Vec::new();
        if n <= MAX_TABLED_CELLS {
            table = vec![0u16; n * n];
            for tile in 1..n {
                for cell in 0..n {
                    table[tile * n + cell] = shape.distance(home[tile] as usize, cell) as u16;
                }
            }
        }
        Manhattan {
            shape,
            n,
            home,
            table,
        }
    }

    /// Whether this is the heuristic toward `goal` (same shape, every tile's home the same).
    pub fn is_for(&self, goal: &Board) -> bool {
        goal.shape() == self.shape
            && goal
                .cells()
                .iter()
                .enumerate()
                .all(|(cell, &t)| self.home[t as usize] == cell as u32)
    }

    /// Distance of `tile` at `cell` from its goal cell.
    #[inline]
    pub fn distance(&self, tile: Tile, cell: usize) -> u32 {
        if !self.table.is_empty() {
            return self.table[tile as usize * self.n + cell] as u32;
        }
        if tile == BLANK {
            return 0;
        }
        self.shape.distance(self.home[tile as usize] as usize, cell) as u32
    }
}

impl Heuristic for Manhattan {
    fn name(&self) -> &'static str {
        "manhattan"
    }

    fn estimate(&self, cells: &[Tile]) -> u32 {
        cells
            .iter()
            .enumerate()
            .map(|(cell, &t)| self.distance(t, cell))
            .sum()
    }

    #[inline]
    fn delta(&self, _cells: &[Tile], tile: Tile, from: usize, to: usize) -> i32 {
        self.distance(tile, to) as i32 - self.distance(tile, from) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tabled_and_computed_distances_agree() {
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(5);
        let goal = Board::goal(Shape::new(16, 16).unwrap());
        let tabled = Manhattan::new(&goal);
        let mut computed = tabled.clone();
        computed.table.clear();
        for _ in 0..20 {
            let b = crate::random::random_board(goal.shape(), &mut rng);
            assert_eq!(tabled.estimate(b.cells()), computed.estimate(b.cells()));
        }
        // Large boards get no quadratic table.
        let big = Manhattan::new(&Board::goal(Shape::new(256, 256).unwrap()));
        assert!(big.table.is_empty());
        assert_eq!(big.distance(1, 65535), 255 + 255);
    }
}
