//! Compact states for the searches that store states (BFS, bidirectional BFS, A*, greedy):
//! a board packed into one `u128`, `ceil(log2(cells))` bits per cell, so boards up to 25 cells
//! (5×5) fit and hashing or comparing a state is one or two machine words.

use super::SearchError;
#[cfg(test)]
use crate::board::Board;
use crate::board::{BLANK, Move, Shape, Tile};

/// A packed board.
pub type Packed = u128;

/// Packs and unpacks boards of one shape; also knows each cell's neighbours.
#[derive(Clone, Debug)]
pub struct Codec {
    shape: Shape,
    bits: u32,
    mask: u128,
    /// `neighbours[cell][move]`, `u8::MAX` when off the board.
    neighbours: Vec<[u8; 4]>,
}

/// Sentinel for "no neighbour".
pub const NONE: u8 = u8::MAX;

impl Codec {
    /// A codec for `shape`, or an error when the board is too large to pack.
    pub fn new(shape: Shape) -> Result<Codec, SearchError> {
        let n = shape.cells();
        let bits = usize::BITS - (n - 1).leading_zeros();
        if n * bits as usize > 128 || n > 255 {
            return Err(SearchError::Unsupported(format!(
                "a {shape} board is too large for this search's state encoding (at most 25 cells); use idastar"
            )));
        }
        let neighbours = (0..n)
            .map(|c| Move::ALL.map(|m| shape.neighbour(c, m).map_or(NONE, |x| x as u8)))
            .collect();
        Ok(Codec {
            shape,
            bits,
            mask: (1u128 << bits) - 1,
            neighbours,
        })
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Packs cells.
    pub fn pack(&self, cells: &[Tile]) -> Packed {
        cells.iter().enumerate().fold(0, |acc, (i, &t)| {
            acc | (t as u128) << (i as u32 * self.bits)
        })
    }

    /// Unpacks into `out` (length = cells).
    pub fn unpack(&self, s: Packed, out: &mut [Tile]) {
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = self.get(s, i);
        }
    }

    /// The tile at `cell`.
    #[inline]
    pub fn get(&self, s: Packed, cell: usize) -> Tile {
        ((s >> (cell as u32 * self.bits)) & self.mask) as Tile
    }

    /// The blank's cell.
    pub fn blank(&self, s: Packed) -> usize {
        (0..self.shape.cells())
            .find(|&c| self.get(s, c) == BLANK)
            .unwrap_or(0)
    }

    /// The neighbour of `cell` in direction `m`, or [`NONE`].
    #[inline]
    pub fn neighbour(&self, cell: usize, m: Move) -> u8 {
        self.neighbours[cell][m.index()]
    }

    /// Moves the blank from `blank` to `to`: the tile at `to` slides into `blank`.
    #[inline]
    pub fn slide(&self, s: Packed, blank: usize, to: usize) -> Packed {
        let tile = (s >> (to as u32 * self.bits)) & self.mask;
        let cleared = s & !(self.mask << (to as u32 * self.bits));
        cleared | tile << (blank as u32 * self.bits)
    }

    /// The board for a packed state.
    #[cfg(test)]
    pub fn board(&self, s: Packed) -> Board {
        let mut cells = vec![0; self.shape.cells()];
        self.unpack(s, &mut cells);
        Board::new(self.shape, &cells).unwrap_or_else(|_| Board::goal(self.shape))
    }
}

/// Follows parent moves back from `end` to `root` and returns the moves root → end.
/// `move_into(s)` is the blank move that produced `s` (`None` at the root).
pub fn trace_back(
    codec: &Codec,
    end: Packed,
    mut move_into: impl FnMut(Packed) -> Option<Move>,
) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut s = end;
    while let Some(m) = move_into(s) {
        moves.push(m);
        let blank = codec.blank(s);
        let back = codec.neighbour(blank, m.inverse());
        s = codec.slide(s, blank, back as usize);
    }
    moves.reverse();
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_up_to_5x5() {
        for (w, h) in [(2, 2), (3, 3), (4, 4), (5, 5), (2, 8)] {
            let shape = Shape::new(w, h).unwrap();
            let codec = Codec::new(shape).unwrap();
            let b = Board::goal(shape);
            let s = codec.pack(b.cells());
            assert_eq!(codec.board(s), b);
            assert_eq!(codec.blank(s), b.blank());
            let up = codec.neighbour(b.blank(), Move::Up) as usize;
            let moved = codec.slide(s, b.blank(), up);
            assert_eq!(codec.board(moved), b.moved(Move::Up).unwrap());
        }
        assert!(Codec::new(Shape::new(6, 5).unwrap()).is_err());
    }
}
