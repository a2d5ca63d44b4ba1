//! Manhattan distance: each tile's taxicab distance from its goal cell, summed.

use super::Heuristic;
use crate::board::{BLANK, Board, Shape, Tile};
use crate::search::eval::{Cells, Evaluator, MAX_CELLS, Slide};

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

/// Manhattan distance as the IDA* engine's evaluator: a `tile × cell` byte table, one lookup
/// pair per child and no state carried along the path.
#[derive(Clone, Debug)]
pub struct ManhattanEval {
    md: [[u8; MAX_CELLS]; MAX_CELLS],
}

impl ManhattanEval {
    /// The evaluator for `manhattan`'s goal (boards of at most [`MAX_CELLS`] cells).
    pub fn new(manhattan: &Manhattan) -> Option<ManhattanEval> {
        if manhattan.n > MAX_CELLS {
            return None;
        }
        let mut md = [[0u8; MAX_CELLS]; MAX_CELLS];
        for (tile, row) in md.iter_mut().enumerate().take(manhattan.n).skip(1) {
            for (cell, d) in row.iter_mut().enumerate().take(manhattan.n) {
                *d = manhattan.distance(tile as Tile, cell) as u8;
            }
        }
        Some(ManhattanEval { md })
    }

    /// Distance of `tile` on `cell` from home.
    #[inline(always)]
    pub(crate) fn distance(&self, tile: usize, cell: usize) -> u32 {
        self.md[tile & (MAX_CELLS - 1)][cell & (MAX_CELLS - 1)] as u32
    }

    /// The whole board's distance.
    pub(crate) fn total(&self, cells: &Cells) -> u32 {
        (0..MAX_CELLS)
            .map(|p| self.distance(cells.tiles[p] as usize, p))
            .sum()
    }

    /// Distance after `slide`, from the distance `h` before it.
    #[inline(always)]
    pub(crate) fn after(&self, h: u32, s: Slide) -> u32 {
        h + self.distance(s.tile, s.to) - self.distance(s.tile, s.from)
    }
}

impl Evaluator for ManhattanEval {
    type State = ();
    type Change = ();

    fn root(&self, cells: &Cells) -> ((), u32) {
        ((), self.total(cells))
    }

    #[inline(always)]
    fn probe(&self, _: &(), _: &Cells, h: u32, s: Slide, limit: u32) -> Result<(u32, ()), u32> {
        let nh = self.after(h, s);
        if nh > limit { Err(nh) } else { Ok((nh, ())) }
    }

    #[inline(always)]
    fn enter(&self, _: &mut (), _: &()) {}

    #[inline(always)]
    fn leave(&self, _: &mut (), _: &()) {}
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
