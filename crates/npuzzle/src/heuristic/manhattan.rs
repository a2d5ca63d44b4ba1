//! Manhattan distance: each tile's taxicab distance from its goal cell, summed.

use super::Heuristic;
use crate::board::{BLANK, Board, Tile};

/// Manhattan distance toward one goal, from a `tile × cell` table.
#[derive(Clone, Debug)]
pub struct Manhattan {
    n: usize,
    /// `table[tile * n + cell]`: distance of `tile` at `cell` from its goal cell (0 for the blank).
    table: Vec<u16>,
}

impl Manhattan {
    /// The heuristic for `goal`.
    pub fn new(goal: &Board) -> Manhattan {
        let shape = goal.shape();
        let n = shape.cells();
        let mut table = vec![0u16; n * n];
        for (home, &tile) in goal.cells().iter().enumerate() {
            if tile == BLANK {
                continue;
            }
            for cell in 0..n {
                table[tile as usize * n + cell] = shape.distance(home, cell) as u16;
            }
        }
        Manhattan { n, table }
    }

    /// Distance of `tile` at `cell` from its goal cell.
    #[inline]
    pub fn distance(&self, tile: Tile, cell: usize) -> u32 {
        self.table[tile as usize * self.n + cell] as u32
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
