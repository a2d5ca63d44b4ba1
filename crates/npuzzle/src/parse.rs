//! Reading boards from text: tiles `1..N`, the blank as `x`, `X` or `0`, any ASCII whitespace
//! between tokens, and one board possibly spread over several lines.
//!
//! Errors carry the input line (and the column, for a bad token) so that a batch can report
//! `line N: what is wrong` and keep going. The judge-format reader in [`crate::judge`] feeds
//! lines into a `TileCollector`; [`Board::parse`] is the one-shot entry point for a string.

use crate::board::{BLANK, Board, BoardError, MAX_CELLS, Shape, Tile};
use crate::lines::Lines;
use std::fmt;
use thiserror::Error;

/// A board that could not be read, with the (1-based) input line it was found on.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct ParseError {
    /// 1-based input line of the problem (for a whole-board problem, the board's first line).
    pub line: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.kind)
    }
}

/// The ways a board's text can be wrong.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ParseErrorKind {
    /// A token that is neither a number nor a blank marker.
    #[error(
        "`{token}` at column {column} is not a tile (expected a number, or x, X or 0 for the blank){}",
        if *column == 1 && token.starts_with(['{', '[']) { "; JSON is not read as a board: boards are judge text such as `2 3 4 1 5 x 7 6 8`" } else { "" }
    )]
    NotATile {
        /// The token (shortened if very long).
        token: String,
        /// 1-based byte column.
        column: usize,
    },
    /// A number too large for any board.
    #[error(
        "tile `{token}` at column {column} is out of range (no board has a tile above {})",
        MAX_CELLS - 1
    )]
    TileTooLarge {
        /// The token (shortened if very long).
        token: String,
        /// 1-based byte column.
        column: usize,
    },
    /// The tiles do not form a board.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// A line longer than the reader accepts.
    #[error("line is longer than {limit} bytes; not a board")]
    LineTooLong {
        /// The limit in bytes.
        limit: usize,
    },
    /// More tokens than the largest board has cells.
    #[error("more than {MAX_CELLS} tiles; not a board")]
    TooManyTiles,
    /// No tokens at all.
    #[error("no tiles")]
    Empty,
    /// The input breaks the judge format (e.g. a dataset count that does not match).
    #[error("{0}")]
    Format(String),
}

/// What one token means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// A tile (`0` is the blank).
    Tile(Tile),
    /// A number, but larger than any board's tile.
    TooLarge,
    /// Not a number and not a blank marker.
    Invalid,
}

/// Reads one token: `x`, `X` → blank; decimal digits → that number (`0` → blank).
#[inline]
pub fn read_token(token: &[u8]) -> Token {
    match token {
        b"x" | b"X" => Token::Tile(BLANK),
        [] => Token::Invalid,
        digits => {
            let mut v: u32 = 0;
            for &d in digits {
                if !d.is_ascii_digit() {
                    return Token::Invalid;
                }
                v = v * 10 + (d - b'0') as u32;
                if v >= MAX_CELLS as u32 {
                    // Keep scanning so `12a…` still reads as invalid, not too large.
                    return if digits.iter().all(u8::is_ascii_digit) {
                        Token::TooLarge
                    } else {
                        Token::Invalid
                    };
                }
            }
            Token::Tile(v as Tile)
        }
    }
}

/// Whether `b` separates tokens: ASCII whitespace, the vertical tab included (which Rust's
/// `is_ascii_whitespace` leaves out, unlike C's `isspace`).
#[inline]
pub fn is_space(b: u8) -> bool {
    b.is_ascii_whitespace() || b == 0x0B
}

/// Splits `line` on whitespace ([`is_space`]), yielding `(byte offset, token)`.
#[inline]
pub fn tokens(line: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < line.len() && is_space(line[i]) {
            i += 1;
        }
        if i >= line.len() {
            return None;
        }
        let start = i;
        while i < line.len() && !is_space(line[i]) {
            i += 1;
        }
        Some((start, &line[start..i]))
    })
}

/// A token as messages show it: at most 24 bytes, control characters and escape sequences
/// escaped so that nothing from the input reaches a terminal raw.
pub(crate) fn shorten(token: &[u8]) -> String {
    // Characters that would break or hide in a one-line message escaped (a backslash too, so
    // that an escape stays unambiguous); quotes shown as typed.
    let mut s = String::new();
    for c in String::from_utf8_lossy(&token[..token.len().min(24)]).chars() {
        match c {
            '"' | '\'' => s.push(c),
            _ => s.extend(c.escape_debug()),
        }
    }
    if token.len() > 24 { s + "…" } else { s }
}

/// Accumulates the tiles of one board over one or more lines, reusing its buffer between
/// boards, and remembers the first problem it met.
#[derive(Debug, Default)]
pub(crate) struct TileCollector {
    tiles: Vec<Tile>,
    first_line: usize,
    /// Where each line's tiles begin: (index of its first tile, line), for lines with tiles,
    /// so that a board's error names the line of the tile it is about.
    line_starts: Vec<(usize, usize)>,
    error: Option<ParseError>,
}

impl TileCollector {
    /// An empty collector.
    pub fn new() -> TileCollector {
        TileCollector::default()
    }

    /// Forgets the current board; the next line starts a new one.
    pub fn clear(&mut self) {
        self.tiles.clear();
        self.first_line = 0;
        self.line_starts.clear();
        self.error = None;
    }

    /// True when nothing has been collected.
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty() && self.error.is_none()
    }

    /// The first line of the board being collected.
    pub fn first_line(&self) -> usize {
        self.first_line
    }

    /// Records an error for the board being collected (the first one wins).
    pub fn fail(&mut self, line: usize, kind: ParseErrorKind) {
        if self.first_line == 0 {
            self.first_line = line;
        }
        if self.error.is_none() {
            self.error = Some(ParseError { line, kind });
        }
    }

    /// Adds the tokens of one input line (1-based `line`). Stops reading tokens once an error
    /// is recorded or the board is impossibly large, so junk costs no memory.
    pub fn push_line(&mut self, line: usize, text: &[u8]) {
        if self.first_line == 0 && tokens(text).next().is_some() {
            self.first_line = line;
        }
        if self.error.is_some() {
            return;
        }
        match self.line_starts.last_mut() {
            // The last line added no tile: this one takes its place.
            Some((start, at)) if *start == self.tiles.len() => *at = line,
            _ => self.line_starts.push((self.tiles.len(), line)),
        }
        for (offset, tok) in tokens(text) {
            match read_token(tok) {
                Token::Tile(t) => {
                    if self.tiles.len() >= MAX_CELLS {
                        self.fail(line, ParseErrorKind::TooManyTiles);
                        return;
                    }
                    self.tiles.push(t);
                }
                Token::TooLarge => {
                    // So large a number, among more tokens than any board has cells, is a
                    // board too large, not one wrong tile.
                    let rest = tokens(&text[offset..]).take(MAX_CELLS + 1).count();
                    let kind = if self.tiles.len() + rest > MAX_CELLS {
                        ParseErrorKind::TooManyTiles
                    } else {
                        ParseErrorKind::TileTooLarge {
                            token: shorten(tok),
                            column: offset + 1,
                        }
                    };
                    self.fail(line, kind);
                    return;
                }
                Token::Invalid => {
                    let kind = ParseErrorKind::NotATile {
                        token: shorten(tok),
                        column: offset + 1,
                    };
                    self.fail(line, kind);
                    return;
                }
            }
        }
    }

    /// Turns what was collected into a board of `shape` (or a square board when `None`).
    pub fn finish(&self, shape: Option<Shape>) -> Result<Board, ParseError> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let at = |kind| ParseError {
            line: self.first_line.max(1),
            kind,
        };
        if self.tiles.is_empty() {
            return Err(at(ParseErrorKind::Empty));
        }
        let shape = match shape {
            Some(s) => s,
            None => Shape::square_with_cells(self.tiles.len()).ok_or_else(|| {
                at(ParseErrorKind::Board(BoardError::NotSquare {
                    found: self.tiles.len(),
                }))
            })?,
        };
        Board::new(shape, &self.tiles).map_err(|e| {
            // A tile's own line, when the error is about one (the later of two).
            let cell = match e {
                BoardError::TileOutOfRange { row, column, .. }
                | BoardError::DuplicateTile { row, column, .. }
                | BoardError::TwoBlanks { row, column, .. } => {
                    Some((row - 1) * shape.width() + column - 1)
                }
                _ => None,
            };
            let line = cell.and_then(|cell| self.line_of(cell));
            ParseError {
                line: line.unwrap_or(self.first_line).max(1),
                kind: ParseErrorKind::Board(e),
            }
        })
    }

    /// When the tiles collected are several boards of `shape` (or of one square size), one
    /// a line: how many lines, and the tiles of each. Says why a block of lines is no board
    /// when the blank lines between boards were left out.
    pub fn lines_each_a_board(&self, shape: Option<Shape>) -> Option<(usize, usize)> {
        let n = self.line_starts.len();
        if n < 2 || self.error.is_some() {
            return None;
        }
        let k = self.tiles.len() / n;
        let shape = match shape {
            Some(s) => s,
            None => Shape::new(k.isqrt(), k.isqrt()).ok()?,
        };
        let even = self
            .line_starts
            .iter()
            .enumerate()
            .all(|(i, &(start, _))| start == i * k);
        if shape.cells() != k || !even || n * k != self.tiles.len() {
            return None;
        }
        // Most lines a board alone: not the rows of one board (a 4x4 board's rows hold 4
        // tiles each too, but tiles up to 15).
        let whole = self
            .tiles
            .chunks(k)
            .filter(|line| Board::new(shape, line).is_ok())
            .count();
        (2 * whole >= n).then_some((n, k))
    }

    /// The line holding the `cell`-th tile collected.
    fn line_of(&self, cell: usize) -> Option<usize> {
        let after = self
            .line_starts
            .partition_point(|&(start, _)| start <= cell);
        after.checked_sub(1).map(|i| self.line_starts[i].1)
    }
}

impl Board {
    /// Parses a board from text (tokens over any number of lines); the board must be square.
    ///
    /// ```
    /// let b = npuzzle::Board::parse("2 3 4\n1 5 x\n7 6 8").unwrap();
    /// assert_eq!(b.blank(), 5);
    /// ```
    pub fn parse(text: &str) -> Result<Board, ParseError> {
        Board::parse_with_shape(text, None)
    }

    /// Parses a board of the given shape (or a square one when `shape` is `None`).
    pub fn parse_with_shape(text: &str, shape: Option<Shape>) -> Result<Board, ParseError> {
        let mut c = TileCollector::new();
        let mut lines = Lines::new(text.as_bytes());
        let mut line = Vec::new();
        // Reading from memory cannot fail, and no line is too long for it.
        while let Ok(Some(_)) = lines.read(&mut line, usize::MAX) {
            c.push_line(lines.number(), &line);
        }
        c.finish(shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_all_blank_markers_and_whitespace() {
        for text in [
            "2 3 4 1 5 x 7 6 8",
            "2\t3 4\r\n1 5 X\r\n7 6 8\r\n",
            "  2 3 4 1 5 0\n\n 7 6 8  ",
            "2\x0b3\x0c4 1 5 x 7 6\x0b8",
        ] {
            let b = Board::parse(text).unwrap();
            assert_eq!(b.cells(), &[2, 3, 4, 1, 5, 0, 7, 6, 8], "{text:?}");
        }
    }

    #[test]
    fn reports_position_of_bad_token() {
        let e = Board::parse("1 2 3\n4 5 y 6\n7 8 x").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(matches!(e.kind, ParseErrorKind::NotATile { column: 5, .. }));
        assert!(e.to_string().starts_with("line 2: `y` at column 5"));
        assert!(!e.to_string().contains("JSON"));
        // A JSON line (say `scramble --format jsonl`) is told so.
        let e = Board::parse(r#"{"board": "1 2 3 4 5 6 7 8 x"}"#).unwrap_err();
        assert!(e.to_string().contains("JSON is not read as a board"), "{e}");
        assert!(
            e.to_string()
                .starts_with(r#"line 1: `{"board":` at column 1"#),
            "{e}"
        );
        let e = Board::parse("1 2 3 4 5 6 7 8 99999999999").unwrap_err();
        assert!(matches!(e.kind, ParseErrorKind::TileTooLarge { .. }));
        // A board past every size on one line, its tiles shuffled: too many tiles, not one
        // wrong tile (the first one past 65535 comes early).
        let huge: Vec<String> = (0..70_000u32)
            .map(|t| ((t * 7919) % 70_000).to_string())
            .collect();
        let e = Board::parse(&huge.join(" ")).unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::TooManyTiles, "{e}");
        // A board's problem with one tile names that tile's line (the later of two tiles);
        // one with the whole board, its first line.
        for (text, line) in [
            ("1 2 3\n4 5 6\n7 8 9", 3),
            ("\n1 2\n3\n\n4 5 6 7 8 9", 5),
            ("1 2 3\n4 5 1\n7 8 x", 2),
            ("1 x 3\n4 5 6\n7 8 x", 3),
            ("1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 x\n1 2 3", 1),
            ("\n\n1 2 3\n4 5 6\n7 8", 3),
        ] {
            let e = Board::parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
        }
    }

    #[test]
    fn reports_board_problems() {
        let e = Board::parse("1 2 3 4 5 6 7 8").unwrap_err();
        assert!(matches!(
            e.kind,
            ParseErrorKind::Board(BoardError::NotSquare { found: 8 })
        ));
        let s = Shape::new(3, 3).unwrap();
        let e = Board::parse_with_shape("1 2 3 4 5 6 7 8", Some(s)).unwrap_err();
        assert!(matches!(
            e.kind,
            ParseErrorKind::Board(BoardError::WrongTileCount {
                expected: 9,
                found: 8,
                ..
            })
        ));
        let e = Board::parse("1 2 3 4 5 6 7 7 x").unwrap_err();
        assert!(e.to_string().contains("tile 7 appears twice"), "{e}");
        let e = Board::parse("1 2 3 4 5 6 7 8 9").unwrap_err();
        assert!(e.to_string().contains("out of range"), "{e}");
        let e = Board::parse("1 2 3 4 x 6 7 8 0").unwrap_err();
        assert!(e.to_string().contains("two blanks"), "{e}");
        let e = Board::parse("").unwrap_err();
        assert_eq!(e.kind, ParseErrorKind::Empty);
        let b = Board::parse_with_shape("1 2 3 4 5 x", Some(Shape::new(3, 2).unwrap())).unwrap();
        assert_eq!(b.shape().height(), 2);
    }
}
