//! Boards of any width × height, the four blank moves, and goal boards.
//!
//! A board is a row-major list of tiles with `0` for the blank. Everything else in the crate
//! (parsing, solvability, tables, searches) speaks in terms of [`Board`], [`Shape`] and [`Move`],
//! so these types validate once on construction and are cheap to copy around afterwards: the
//! cells of boards up to 32 cells live inline, without a heap allocation.

use smallvec::SmallVec;
use std::fmt;
use thiserror::Error;

/// A tile label; `0` ([`BLANK`]) is the empty cell.
pub type Tile = u16;

/// The label of the empty cell.
pub const BLANK: Tile = 0;

/// The longest side a board may have.
pub const MAX_SIDE: usize = 256;

/// The most cells a board may have (tiles are `u16`, so `1..=65535` plus the blank).
pub const MAX_CELLS: usize = 1 << 16;

/// Inline storage for cells: boards up to 32 cells (4×4, 5×5 …) never touch the heap.
pub type Cells = SmallVec<[Tile; 32]>;

/// The dimensions of a board: `width` columns and `height` rows, each at least 2.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    width: u16,
    height: u16,
}

/// Why a board could not be built from a list of tiles, or a shape from two sides.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// A side is below 2, above [`MAX_SIDE`], or the board has too many cells.
    #[error("a {width}x{height} board is not supported (each side must be 2 to {MAX_SIDE})")]
    BadShape {
        /// Requested width.
        width: usize,
        /// Requested height.
        height: usize,
    },
    /// The number of tiles does not match the board.
    #[error("expected {expected} tiles for a {shape} board, found {found}")]
    WrongTileCount {
        /// The board's shape.
        shape: Shape,
        /// How many cells it has.
        expected: usize,
        /// How many tiles were given.
        found: usize,
    },
    /// The token count is not a perfect square, so the shape cannot be guessed.
    #[error("{}", not_square(*found))]
    NotSquare {
        /// How many tiles were given.
        found: usize,
    },
    /// A tile number is larger than the board allows.
    #[error(
        "tile {tile} at row {row}, column {column} is out of range (a {shape} board has tiles 1 to {max}{})",
        match (*no_blank, *tile == *max as u64 + 1) {
            (true, true) => ", and x or 0 for the blank",
            (true, false) => "; the board has no blank, x or 0",
            (false, _) => "",
        }
    )]
    TileOutOfRange {
        /// The offending value.
        tile: u64,
        /// Its cell's row (1-based).
        row: usize,
        /// Its cell's column (1-based).
        column: usize,
        /// The board's shape.
        shape: Shape,
        /// Largest allowed tile.
        max: usize,
        /// No cell holds the blank (so a tile one past the largest is likely the blank).
        no_blank: bool,
    },
    /// The same tile appears twice.
    #[error(
        "tile {tile} appears twice (row {first_row}, column {first_column} and row {row}, column {column})"
    )]
    DuplicateTile {
        /// The repeated tile.
        tile: Tile,
        /// Row of its first occurrence (1-based).
        first_row: usize,
        /// Column of its first occurrence (1-based).
        first_column: usize,
        /// Row of the repeat (1-based).
        row: usize,
        /// Column of the repeat (1-based).
        column: usize,
    },
    /// Two cells are blank.
    #[error("two blanks (row {first_row}, column {first_column} and row {row}, column {column})")]
    TwoBlanks {
        /// Row of the first blank.
        first_row: usize,
        /// Column of the first blank.
        first_column: usize,
        /// Row of the second blank.
        row: usize,
        /// Column of the second blank.
        column: usize,
    },
    /// Two boards that must agree in size do not.
    #[error("board sizes differ: {left} and {right}")]
    ShapeMismatch {
        /// One board's shape.
        left: Shape,
        /// The other's.
        right: Shape,
    },
}

/// Why `found` tokens make no board of a guessed shape.
fn not_square(found: usize) -> String {
    if found < 4 {
        format!(
            "{found} tile{} cannot make a board: the smallest, 2x2, has 4 cells",
            if found == 1 { "" } else { "s" }
        )
    } else {
        let shapes: Vec<String> = (2..=found / 2)
            .filter(|w| found.is_multiple_of(*w) && Shape::new(*w, found / w).is_ok())
            .map(|w| format!("{w}x{}", found / w))
            .collect();
        // One tile off a square board is the likelier slip (a line of a 3×3 batch with a tile
        // missing): said first.
        let side = found.isqrt();
        let slip = if (side + 1) * (side + 1) == found + 1 && Shape::new(side + 1, side + 1).is_ok()
        {
            format!(" (one tile short of a {0}x{0} board)", side + 1)
        } else if side * side == found - 1 && Shape::new(side, side).is_ok() {
            format!(" (one tile more than a {side}x{side} board)")
        } else {
            String::new()
        };
        match shapes.as_slice() {
            [] => format!(
                "{found} tiles make no board{slip}: no board of 2 to {MAX_SIDE} rows and columns has {found} cells"
            ),
            [only] => {
                format!(
                    "{found} tiles do not make a square board{slip}; for a {only} board, give the size"
                )
            }
            [rest @ .., last] => format!(
                "{found} tiles do not make a square board{slip}; for a {} or {last} board, give the size",
                rest.join(", ")
            ),
        }
    }
}

impl Shape {
    /// A `width` × `height` shape; both sides must be 2..=[`MAX_SIDE`].
    pub fn new(width: usize, height: usize) -> Result<Shape, BoardError> {
        let ok = (2..=MAX_SIDE).contains(&width)
            && (2..=MAX_SIDE).contains(&height)
            && width * height <= MAX_CELLS;
        if ok {
            Ok(Shape {
                width: width as u16,
                height: height as u16,
            })
        } else {
            Err(BoardError::BadShape { width, height })
        }
    }

    /// The square shape with `cells` cells, if `cells` is a perfect square ≥ 4.
    pub fn square_with_cells(cells: usize) -> Option<Shape> {
        let side = (cells as f64).sqrt().round() as usize;
        if side * side == cells {
            Shape::new(side, side).ok()
        } else {
            None
        }
    }

    /// Number of columns.
    #[inline]
    pub fn width(self) -> usize {
        self.width as usize
    }

    /// Number of rows.
    #[inline]
    pub fn height(self) -> usize {
        self.height as usize
    }

    /// Number of cells (`width * height`).
    #[inline]
    pub fn cells(self) -> usize {
        self.width() * self.height()
    }

    /// The row (0-based) of cell `pos`.
    #[inline]
    pub fn row(self, pos: usize) -> usize {
        pos / self.width()
    }

    /// The column (0-based) of cell `pos`.
    #[inline]
    pub fn column(self, pos: usize) -> usize {
        pos % self.width()
    }

    /// The cell next to `pos` in direction `mv`, if it is on the board.
    #[inline]
    pub fn neighbour(self, pos: usize, mv: Move) -> Option<usize> {
        let w = self.width();
        match mv {
            Move::Up => pos.checked_sub(w),
            Move::Down => (pos + w < self.cells()).then_some(pos + w),
            Move::Left => (!pos.is_multiple_of(w)).then(|| pos - 1),
            Move::Right => (!(pos + 1).is_multiple_of(w)).then_some(pos + 1),
        }
    }

    /// Taxicab distance between two cells.
    #[inline]
    pub fn distance(self, a: usize, b: usize) -> usize {
        self.row(a).abs_diff(self.row(b)) + self.column(a).abs_diff(self.column(b))
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

impl std::str::FromStr for Shape {
    type Err = String;

    /// Parses `WxH` (e.g. `3x2` is three columns, two rows) or a single side `N` for `NxN`.
    fn from_str(s: &str) -> Result<Shape, String> {
        let bad = || format!("`{s}` is not a board size (expected WxH, e.g. 4x4 or 3x2)");
        let (w, h) = match s.split_once(['x', 'X', '×']) {
            Some((w, h)) => (w.trim(), h.trim()),
            None => (s.trim(), s.trim()),
        };
        let w: usize = w.parse().map_err(|_| bad())?;
        let h: usize = h.parse().map_err(|_| bad())?;
        Shape::new(w, h).map_err(|e| e.to_string())
    }
}

/// A move of the blank: the letter names the neighbour of the blank that swaps with it
/// (`Right` moves the blank one column right, i.e. the tile on its right slides left).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// Blank swaps with the tile above it (`u`).
    Up = 0,
    /// Blank swaps with the tile below it (`d`).
    Down = 1,
    /// Blank swaps with the tile to its left (`l`).
    Left = 2,
    /// Blank swaps with the tile to its right (`r`).
    Right = 3,
}

impl Move {
    /// All four moves, in index order.
    pub const ALL: [Move; 4] = [Move::Up, Move::Down, Move::Left, Move::Right];

    /// The move that undoes this one.
    #[inline]
    pub fn inverse(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }

    /// Index 0..4 (stable; used for packed encodings).
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The move with the given index (only the low two bits are used).
    #[inline]
    pub fn from_index(i: usize) -> Move {
        Move::ALL[i & 3]
    }

    /// The judge letter: `u`, `d`, `l` or `r` (direction the blank moves).
    #[inline]
    pub fn letter(self) -> char {
        b"udlr"[self.index()] as char
    }

    /// The move for a judge letter (`u d l r`, either case).
    pub fn from_letter(c: char) -> Option<Move> {
        match c {
            'u' | 'U' => Some(Move::Up),
            'd' | 'D' => Some(Move::Down),
            'l' | 'L' => Some(Move::Left),
            'r' | 'R' => Some(Move::Right),
            _ => None,
        }
    }

    /// The speed-solving letter: the direction the *tile* moves (`U D L R`), opposite the blank.
    #[inline]
    pub fn tile_letter(self) -> char {
        b"DURL"[self.index()] as char
    }

    /// The blank move for a speed-solving (tile direction) letter.
    pub fn from_tile_letter(c: char) -> Option<Move> {
        Move::from_letter(c).map(Move::inverse)
    }
}

/// A board: a shape, its cells in row-major order (`0` = blank) and the blank's position.
///
/// Always a valid permutation of `0..cells`; construct with [`Board::new`], [`Board::goal`]
/// or the parsers in [`crate::parse`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    cells: Cells,
    blank: usize,
}

impl Board {
    /// Builds a board from row-major tiles (`0` = blank), checking that they are exactly
    /// `0..width*height` once each.
    pub fn new(shape: Shape, tiles: &[Tile]) -> Result<Board, BoardError> {
        let n = shape.cells();
        if tiles.len() != n {
            return Err(BoardError::WrongTileCount {
                shape,
                expected: n,
                found: tiles.len(),
            });
        }
        // Position of each tile seen so far (+1; 0 = unseen).
        let mut seen: SmallVec<[u32; 32]> = SmallVec::from_elem(0, n);
        let rc = |pos: usize| (shape.row(pos) + 1, shape.column(pos) + 1);
        for (pos, &tile) in tiles.iter().enumerate() {
            let t = tile as usize;
            if t >= n {
                let (row, column) = rc(pos);
                return Err(BoardError::TileOutOfRange {
                    tile: tile as u64,
                    row,
                    column,
                    shape,
                    max: n - 1,
                    no_blank: !tiles.contains(&0),
                });
            }
            if seen[t] != 0 {
                let (first_row, first_column) = rc(seen[t] as usize - 1);
                let (row, column) = rc(pos);
                return Err(if tile == BLANK {
                    BoardError::TwoBlanks {
                        first_row,
                        first_column,
                        row,
                        column,
                    }
                } else {
                    BoardError::DuplicateTile {
                        tile,
                        first_row,
                        first_column,
                        row,
                        column,
                    }
                });
            }
            seen[t] = pos as u32 + 1;
        }
        // n distinct values all below n: a permutation, so the blank is present.
        Ok(Board {
            shape,
            cells: Cells::from_slice(tiles),
            blank: seen[0] as usize - 1,
        })
    }

    /// The standard goal: tiles `1..n-1` in order, blank in the last cell.
    pub fn goal(shape: Shape) -> Board {
        let n = shape.cells();
        let cells: Cells = (1..n as u32)
            .map(|t| t as Tile)
            .chain(std::iter::once(BLANK))
            .collect();
        Board {
            shape,
            cells,
            blank: n - 1,
        }
    }

    /// Korf's goal convention: blank first, then tiles `1..n-1`.
    pub fn goal_blank_first(shape: Shape) -> Board {
        let n = shape.cells();
        let cells: Cells = (0..n as u32).map(|t| t as Tile).collect();
        Board {
            shape,
            cells,
            blank: 0,
        }
    }

    /// Every arrangement of a small board (all `n!`, both parity classes), in Cantor-rank
    /// order: for exhaustive checks and studies. Sensible up to about 10 cells.
    pub fn every(shape: Shape) -> impl Iterator<Item = Board> {
        let n = shape.cells().min(crate::rank::MAX_RANK_LEN);
        let mut perm = vec![0u8; n];
        (0..crate::rank::factorial(n)).map(move |r| {
            crate::rank::unrank(r, &mut perm);
            let blank = perm.iter().position(|&v| v == 0).unwrap_or(0);
            Board {
                shape,
                cells: perm.iter().map(|&v| v as Tile).collect(),
                blank,
            }
        })
    }

    /// The board's shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Row-major tiles, `0` for the blank.
    #[inline]
    pub fn cells(&self) -> &[Tile] {
        &self.cells
    }

    /// The blank's cell index.
    #[inline]
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The tile at cell `pos`.
    #[inline]
    pub fn tile(&self, pos: usize) -> Tile {
        self.cells[pos]
    }

    /// Whether `mv` stays on the board.
    #[inline]
    pub fn can_move(&self, mv: Move) -> bool {
        self.shape.neighbour(self.blank, mv).is_some()
    }

    /// Applies `mv` in place; returns `false` (and leaves the board alone) if it would leave the board.
    #[inline]
    pub fn apply(&mut self, mv: Move) -> bool {
        match self.shape.neighbour(self.blank, mv) {
            Some(to) => {
                self.cells.swap(self.blank, to);
                self.blank = to;
                true
            }
            None => false,
        }
    }

    /// A copy of the board with `mv` applied, if legal.
    pub fn moved(&self, mv: Move) -> Option<Board> {
        let mut b = self.clone();
        b.apply(mv).then_some(b)
    }

    /// The legal moves from this board.
    pub fn legal_moves(&self) -> impl Iterator<Item = Move> + '_ {
        Move::ALL.into_iter().filter(|&m| self.can_move(m))
    }

    /// The cell holding `tile`.
    pub fn position_of(&self, tile: Tile) -> Option<usize> {
        self.cells.iter().position(|&t| t == tile)
    }

    /// Fails unless both boards have the same shape.
    pub fn check_same_shape(&self, other: &Board) -> Result<(), BoardError> {
        if self.shape == other.shape {
            Ok(())
        } else {
            Err(BoardError::ShapeMismatch {
                left: self.shape,
                right: other.shape,
            })
        }
    }

    /// The board in one-line judge form: tiles separated by spaces, `x` for the blank.
    pub fn to_judge_line(&self) -> String {
        let mut s = String::with_capacity(self.cells.len() * 3);
        for (i, &t) in self.cells.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            if t == BLANK {
                s.push('x');
            } else {
                s.push_str(&t.to_string());
            }
        }
        s
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({} [{}])", self.shape, self.to_judge_line())
    }
}

/// Multi-line grid, columns aligned, `x` for the blank.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = (self.cells.len() - 1).to_string().len();
        for row in 0..self.shape.height() {
            for col in 0..self.shape.width() {
                let t = self.cells[row * self.shape.width() + col];
                if col > 0 {
                    f.write_str(" ")?;
                }
                if t == BLANK {
                    write!(f, "{:>width$}", "x")?;
                } else {
                    write!(f, "{t:>width$}")?;
                }
            }
            if row + 1 < self.shape.height() {
                f.write_str("\n")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_stay_on_board_and_undo() {
        let s = Shape::new(3, 2).unwrap();
        let mut b = Board::goal(s);
        assert_eq!(b.blank(), 5);
        assert!(!b.apply(Move::Down));
        assert!(!b.apply(Move::Right));
        assert!(b.apply(Move::Up));
        assert_eq!(b.cells(), &[1, 2, 0, 4, 5, 3]);
        assert!(b.apply(Move::Left));
        assert!(b.apply(Move::Right));
        assert!(b.apply(Move::Down));
        assert_eq!(b, Board::goal(s));
    }

    #[test]
    fn rejects_bad_tiles() {
        let s = Shape::new(2, 2).unwrap();
        assert!(matches!(
            Board::new(s, &[1, 2, 3]),
            Err(BoardError::WrongTileCount { .. })
        ));
        assert!(matches!(
            Board::new(s, &[1, 2, 4, 0]),
            Err(BoardError::TileOutOfRange { tile: 4, .. })
        ));
        // A tile one past the largest is most likely the blank written as the cell count.
        let range = "is out of range (a 2x2 board has tiles 1 to 3";
        for (tiles, says) in [
            (
                [1, 2, 3, 4],
                format!("tile 4 at row 2, column 2 {range}, and x or 0 for the blank)"),
            ),
            ([1, 2, 5, 0], format!("tile 5 at row 2, column 1 {range})")),
            (
                [1, 2, 3, 5],
                format!("tile 5 at row 2, column 2 {range}; the board has no blank, x or 0)"),
            ),
            ([1, 0, 3, 4], format!("tile 4 at row 2, column 2 {range})")),
        ] {
            assert_eq!(Board::new(s, &tiles).unwrap_err().to_string(), says);
        }
        assert!(matches!(
            Board::new(s, &[1, 1, 3, 0]),
            Err(BoardError::DuplicateTile { tile: 1, .. })
        ));
        assert!(matches!(
            Board::new(s, &[1, 0, 3, 0]),
            Err(BoardError::TwoBlanks { .. })
        ));
        assert!(Shape::new(1, 5).is_err());
        assert_eq!("3x2".parse::<Shape>().unwrap().width(), 3);
        assert_eq!("4".parse::<Shape>().unwrap().cells(), 16);
    }

    #[test]
    fn every_lists_each_arrangement_once() {
        let shape = Shape::new(3, 2).unwrap();
        let all: std::collections::HashSet<Board> = Board::every(shape).collect();
        assert_eq!(all.len(), 720);
        for b in &all {
            assert_eq!(Board::new(shape, b.cells()).as_ref(), Ok(b));
        }
    }

    #[test]
    fn letters_round_trip() {
        for m in Move::ALL {
            assert_eq!(Move::from_letter(m.letter()), Some(m));
            assert_eq!(Move::from_tile_letter(m.tile_letter()), Some(m));
            assert_eq!(m.inverse().inverse(), m);
        }
    }
}
