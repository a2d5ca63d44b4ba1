//! A rectangle of a board: the one shape every near-optimal step works in.
//!
//! Peeling keeps the region still to solve, placements search in windows around a tile, the
//! beams run over strips, and the polish searches the rectangle a stretch of the answer
//! stays in. All four are the same thing, rows `r0..r1` and columns `c0..c1` (half-open),
//! and each of them cuts a small board out of the big one, so both live here once.

use crate::board::{BLANK, Board, BoardError, Shape, Tile};

/// Rows `r0..r1` and columns `c0..c1` of a board (half-open: empty when `r0 == r1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rect {
    /// First row.
    pub r0: usize,
    /// One past the last row.
    pub r1: usize,
    /// First column.
    pub c0: usize,
    /// One past the last column.
    pub c1: usize,
}

impl Rect {
    /// Rows `rows` and columns `cols`.
    pub fn new(rows: (usize, usize), cols: (usize, usize)) -> Rect {
        Rect {
            r0: rows.0,
            r1: rows.1,
            c0: cols.0,
            c1: cols.1,
        }
    }

    /// The whole board.
    pub fn whole(shape: Shape) -> Rect {
        Rect::new((0, shape.height()), (0, shape.width()))
    }

    /// The one cell `cell`.
    pub fn at(shape: Shape, cell: usize) -> Rect {
        let (r, c) = (shape.row(cell), shape.column(cell));
        Rect::new((r, r + 1), (c, c + 1))
    }

    /// The smallest rectangle holding `cells` (at least the first cell of the board), grown by
    /// `margin` on every side as far as the board goes.
    pub fn around(shape: Shape, cells: &[usize], margin: usize) -> Rect {
        let mut rect = Rect::at(shape, cells.first().copied().unwrap_or(0));
        for &c in cells {
            rect = rect.with(shape, c);
        }
        Rect::new(
            (
                rect.r0.saturating_sub(margin),
                (rect.r1 + margin).min(shape.height()),
            ),
            (
                rect.c0.saturating_sub(margin),
                (rect.c1 + margin).min(shape.width()),
            ),
        )
    }

    /// This rectangle grown to hold `cell`.
    pub fn with(self, shape: Shape, cell: usize) -> Rect {
        let (r, c) = (shape.row(cell), shape.column(cell));
        Rect::new(
            (self.r0.min(r), self.r1.max(r + 1)),
            (self.c0.min(c), self.c1.max(c + 1)),
        )
    }

    /// This rectangle widened to at least two rows and two columns where the board allows (a
    /// one-wide strip leaves the blank no room to do anything but undo itself).
    pub fn widened(self, shape: Shape) -> Rect {
        let widen = |lo: usize, hi: usize, len: usize| {
            if hi - lo >= 2 || len < 2 {
                (lo, hi)
            } else if hi < len {
                (lo, hi + 1)
            } else {
                (lo - 1, hi)
            }
        };
        Rect::new(
            widen(self.r0, self.r1, shape.height()),
            widen(self.c0, self.c1, shape.width()),
        )
    }

    /// Rows.
    pub fn height(self) -> usize {
        self.r1.saturating_sub(self.r0)
    }

    /// Columns.
    pub fn width(self) -> usize {
        self.c1.saturating_sub(self.c0)
    }

    /// Cells.
    pub fn len(self) -> usize {
        self.width() * self.height()
    }

    /// Whether the rectangle holds a cell and lies inside a board of `shape`.
    pub fn fits(self, shape: Shape) -> bool {
        self.r0 < self.r1
            && self.c0 < self.c1
            && self.r1 <= shape.height()
            && self.c1 <= shape.width()
    }

    /// Whether `cell` of a board of `shape` lies in the rectangle.
    pub fn contains(self, shape: Shape, cell: usize) -> bool {
        (self.r0..self.r1).contains(&shape.row(cell))
            && (self.c0..self.c1).contains(&shape.column(cell))
    }

    /// The rectangle's cells of a board of `shape`, row by row.
    pub fn cells(self, shape: Shape) -> impl Iterator<Item = usize> {
        (self.r0..self.r1).flat_map(move |r| (self.c0..self.c1).map(move |c| r * shape.width() + c))
    }

    /// The rectangle as a board shape of its own.
    pub fn shape(self) -> Result<Shape, BoardError> {
        Shape::new(self.width(), self.height())
    }

    /// The rectangle of `board` as a board of its own, each tile renamed by `rename` (the
    /// blank stays the blank).
    pub fn cut(self, board: &Board, rename: impl Fn(Tile) -> Tile) -> Result<Board, BoardError> {
        let tiles: Vec<Tile> = self
            .cells(board.shape())
            .map(|c| match board.tile(c) {
                BLANK => BLANK,
                t => rename(t),
            })
            .collect();
        Board::new(self.shape()?, &tiles)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_widens_and_lists_cells_row_by_row() {
        let shape = Shape::new(5, 4).unwrap();
        let r = Rect::at(shape, 7).with(shape, 8);
        assert_eq!(r, Rect::new((1, 2), (2, 4)));
        assert_eq!((r.width(), r.height(), r.len()), (2, 1, 2));
        assert_eq!(r.cells(shape).collect::<Vec<_>>(), vec![7, 8]);
        assert_eq!(r.widened(shape), Rect::new((1, 3), (2, 4)));
        // On the last row the strip widens upward.
        let bottom = Rect::at(shape, 17).with(shape, 18);
        assert_eq!(bottom.widened(shape), Rect::new((2, 4), (2, 4)));
        assert!(r.contains(shape, 8) && !r.contains(shape, 9) && !r.contains(shape, 12));
        assert_eq!(Rect::around(shape, &[7], 1), Rect::new((0, 3), (1, 4)));
        assert_eq!(Rect::around(shape, &[0, 19], 2), Rect::whole(shape));
        assert!(Rect::whole(shape).fits(shape));
        assert!(!Rect::new((0, 5), (0, 1)).fits(shape));
        assert!(!Rect::new((1, 1), (0, 1)).fits(shape));
    }

    #[test]
    fn cuts_a_board() {
        let b = Board::new(Shape::new(3, 3).unwrap(), &[1, 2, 3, 4, 5, 6, 7, 8, 0]).unwrap();
        let r = Rect::new((1, 3), (1, 3));
        let small = r
            .cut(&b, |t| [0, 0, 0, 0, 0, 1, 2, 0, 3][t as usize])
            .unwrap();
        assert_eq!(small.cells(), &[1, 2, 3, 0]);
    }
}
