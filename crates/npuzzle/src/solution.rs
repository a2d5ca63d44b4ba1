//! Solutions: a list of blank moves, written in judge letters or speed-solving tile notation,
//! and replayed to check that they are legal and reach the goal.
//!
//! Judge letters (`udlr`) name the direction the *blank* moves, as the Eight problem's statement
//! does. Tile notation (`R3 D2 L`) names the direction the *tile* moves, with run lengths, as
//! speed-solvers write it. Both are views of the same [`Solution`].

use crate::board::{Board, Move};
use std::fmt;
use thiserror::Error;

/// A sequence of blank moves.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Solution {
    moves: Vec<Move>,
}

/// Why a move string could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum NotationError {
    /// A character that is not a move letter.
    #[error("`{}` at position {position} is not a move (expected one of u, d, l, r)", found.escape_debug())]
    BadLetter {
        /// The character.
        found: char,
        /// 1-based character position.
        position: usize,
    },
    /// A malformed tile-notation group such as `R0` or `Q2`.
    #[error("`{}` is not a tile move (expected U, D, L or R with an optional count)", group.escape_debug())]
    BadGroup {
        /// The offending group.
        group: String,
    },
    /// More moves than the reader accepts.
    #[error("more than {limit} moves")]
    TooLong {
        /// The limit.
        limit: usize,
    },
}

/// Why a solution does not solve a board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ReplayError {
    /// Move number `index` (1-based) would push the blank off the board.
    #[error("move {index} (`{letter}`) leaves the board")]
    IllegalMove {
        /// 1-based move number.
        index: usize,
        /// Its judge letter.
        letter: char,
    },
    /// All moves are legal but the final board is not the goal.
    #[error("the moves end on [{}], not the goal", .final_board.to_judge_line())]
    NotAtGoal {
        /// Where the moves ended.
        final_board: Board,
    },
    /// Start and goal differ in shape.
    #[error(transparent)]
    Shape(#[from] crate::board::BoardError),
}

/// The longest move string the readers accept (a safety bound against junk input).
pub const MAX_SOLUTION_MOVES: usize = 10_000_000;

impl Solution {
    /// A solution from a list of moves.
    pub fn new(moves: Vec<Move>) -> Solution {
        Solution { moves }
    }

    /// The moves, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True for the empty solution (board already solved).
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// Consumes the solution, returning the moves.
    pub fn into_moves(self) -> Vec<Move> {
        self.moves
    }

    /// Reads judge letters (`udlr`, either case); whitespace is ignored.
    pub fn from_letters(text: &str) -> Result<Solution, NotationError> {
        let mut moves = Vec::new();
        for (i, c) in text.chars().enumerate() {
            if c.is_whitespace() {
                continue;
            }
            if moves.len() >= MAX_SOLUTION_MOVES {
                return Err(NotationError::TooLong {
                    limit: MAX_SOLUTION_MOVES,
                });
            }
            moves.push(Move::from_letter(c).ok_or(NotationError::BadLetter {
                found: c,
                position: i + 1,
            })?);
        }
        Ok(Solution { moves })
    }

    /// Reads tile notation such as `R3 D2 L` (groups may also be run together: `R3D2L`).
    pub fn from_tile_notation(text: &str) -> Result<Solution, NotationError> {
        let mut moves = Vec::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_whitespace() {
                continue;
            }
            let bad = |g: String| NotationError::BadGroup { group: g };
            let m = Move::from_tile_letter(c).ok_or_else(|| bad(c.to_string()))?;
            let mut count: usize = 0;
            let mut digits = String::new();
            while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                let digit = chars.next().unwrap_or('0');
                if digits.len() < 24 {
                    digits.push(digit);
                }
                count = count.saturating_mul(10).saturating_add(d as usize);
            }
            if digits.is_empty() {
                count = 1;
            } else if count == 0 {
                return Err(bad(format!("{c}{digits}")));
            }
            if count > MAX_SOLUTION_MOVES - moves.len() {
                return Err(NotationError::TooLong {
                    limit: MAX_SOLUTION_MOVES,
                });
            }
            moves.extend(std::iter::repeat_n(m, count));
        }
        Ok(Solution { moves })
    }

    /// The judge letters, e.g. `ullddrurdllurdruldr`.
    pub fn to_letters(&self) -> String {
        self.moves.iter().map(|m| m.letter()).collect()
    }

    /// Tile notation with run lengths, e.g. `D L2 U`: the direction each *tile* slides.
    pub fn to_tile_notation(&self) -> String {
        let mut out = String::new();
        let mut i = 0;
        while i < self.moves.len() {
            let m = self.moves[i];
            let run = self.moves[i..].iter().take_while(|&&x| x == m).count();
            if !out.is_empty() {
                out.push(' ');
            }
            out.push(m.tile_letter());
            if run > 1 {
                out.push_str(&run.to_string());
            }
            i += run;
        }
        out
    }

    /// Applies the moves to a copy of `start` and returns the final board.
    pub fn replay(&self, start: &Board) -> Result<Board, ReplayError> {
        let mut b = start.clone();
        for (i, &m) in self.moves.iter().enumerate() {
            if !b.apply(m) {
                return Err(ReplayError::IllegalMove {
                    index: i + 1,
                    letter: m.letter(),
                });
            }
        }
        Ok(b)
    }

    /// Checks that the moves are legal from `start` and end on `goal`.
    pub fn verify(&self, start: &Board, goal: &Board) -> Result<(), ReplayError> {
        start.check_same_shape(goal)?;
        let end = self.replay(start)?;
        if &end == goal {
            Ok(())
        } else {
            Err(ReplayError::NotAtGoal { final_board: end })
        }
    }

    /// Every board along the way, `start` first and the final board last.
    pub fn boards(&self, start: &Board) -> Result<Vec<Board>, ReplayError> {
        let mut b = start.clone();
        let mut out = vec![b.clone()];
        for (i, &m) in self.moves.iter().enumerate() {
            if !b.apply(m) {
                return Err(ReplayError::IllegalMove {
                    index: i + 1,
                    letter: m.letter(),
                });
            }
            out.push(b.clone());
        }
        Ok(out)
    }
}

impl fmt::Display for Solution {
    /// The judge letters.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for m in &self.moves {
            fmt::Write::write_char(f, m.letter())?;
        }
        Ok(())
    }
}

impl From<Vec<Move>> for Solution {
    fn from(moves: Vec<Move>) -> Solution {
        Solution { moves }
    }
}

/// How moves are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Judge letters: `u d l r` name the neighbour of the blank that swaps with it.
    Judge,
    /// Speed-solving notation: the direction each tile slides, with run lengths (`R3 D2 L`).
    Tiles,
}

impl crate::names::Named for Notation {
    const WHAT: &'static str = "notation";
    const SPELLINGS: &'static [(&'static str, Notation)] = &[
        ("judge", Notation::Judge),
        ("tiles", Notation::Tiles),
        ("letters", Notation::Judge),
        ("tile", Notation::Tiles),
    ];
}

crate::names::from_str_by_name!(Notation);

impl Notation {
    /// `s` in this notation.
    pub fn render(self, s: &Solution) -> String {
        match self {
            Notation::Judge => s.to_letters(),
            Notation::Tiles => s.to_tile_notation(),
        }
    }
}

/// Most cells shown by `--show` for one answer (boards × cells): about 4 MB of text.
pub const MAX_SHOWN_CELLS: usize = 1_000_000;

/// The boards along a solution side by side, joined by arrows naming each move in `notation`
/// (the judge letter, or the direction the tile slides), in bands that fit about 100 columns.
pub fn show_steps(start: &Board, solution: &Solution, notation: Notation) -> String {
    use std::fmt::Write as _;
    let shown = (solution.len() + 1).saturating_mul(start.shape().cells());
    if shown > MAX_SHOWN_CELLS {
        return format!(
            "(--show skipped: {} boards of {} would be {shown} cells, more than {MAX_SHOWN_CELLS})\n",
            solution.len() + 1,
            start.shape()
        );
    }
    let Ok(boards) = solution.boards(start) else {
        return String::new();
    };
    let rendered: Vec<Vec<String>> = boards
        .iter()
        .map(|b| b.to_string().lines().map(str::to_owned).collect())
        .collect();
    let height = start.shape().height();
    let board_width = rendered[0].iter().map(String::len).max().unwrap_or(0);
    let per_band = (100 / (board_width + 6)).max(1);
    let mid = height / 2;
    let mut out = String::new();
    for (band_no, band) in rendered.chunks(per_band).enumerate() {
        if band_no > 0 {
            out.push('\n');
        }
        for row in 0..height {
            let mut line = String::new();
            for (i, b) in band.iter().enumerate() {
                let index = band_no * per_band + i;
                if i > 0 || band_no > 0 {
                    let m = solution.moves()[index - 1];
                    let letter = match notation {
                        Notation::Judge => m.letter(),
                        Notation::Tiles => m.tile_letter(),
                    };
                    if row == mid {
                        let _ = write!(line, " -{letter}-> ");
                    } else {
                        line.push_str("      ");
                    }
                }
                let _ = write!(line, "{:<board_width$}", b[row]);
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn steps_show_every_board() {
        let b = Board::parse("1 2 3 4 5 6 7 x 8").unwrap();
        let s = Solution::from_letters("r").unwrap();
        let text = show_steps(&b, &s, Notation::Judge);
        assert_eq!(
            text,
            "1 2 3      1 2 3\n4 5 6 -r-> 4 5 6\n7 x 8      7 8 x\n"
        );
        let text = show_steps(&b, &s, Notation::Tiles);
        assert_eq!(
            text,
            "1 2 3      1 2 3\n4 5 6 -L-> 4 5 6\n7 x 8      7 8 x\n"
        );
    }

    use super::*;

    #[test]
    fn statement_example_replays() {
        let start = Board::parse("2 3 4 1 5 x 7 6 8").unwrap();
        let goal = Board::parse("1 2 3 4 5 6 7 8 x").unwrap();
        let s = Solution::from_letters("ullddrurdllurdruldr").unwrap();
        s.verify(&start, &goal).unwrap();
        let bad = Solution::from_letters("ullddrurdllurdruld").unwrap();
        assert!(matches!(
            bad.verify(&start, &goal),
            Err(ReplayError::NotAtGoal { .. })
        ));
        let off = Solution::from_letters("rr").unwrap();
        assert!(matches!(
            off.verify(&start, &goal),
            Err(ReplayError::IllegalMove { index: 1, .. })
        ));
        assert!(Solution::from_letters("ulq").is_err());
    }

    /// Found by fuzzing: a run length past `usize` once overflowed the length check and
    /// panicked allocating; every oversized run is an error now.
    #[test]
    fn huge_run_lengths_are_errors() {
        for text in [
            " l d88888888888888888888888888",
            "R18446744073709551615",
            "U9999999 D9999999",
        ] {
            assert!(
                matches!(
                    Solution::from_tile_notation(text),
                    Err(NotationError::TooLong { .. })
                ),
                "{text}"
            );
        }
    }

    #[test]
    fn tile_notation_round_trips() {
        let s = Solution::from_letters("rrrddlu").unwrap();
        assert_eq!(s.to_tile_notation(), "L3 U2 R D");
        assert_eq!(Solution::from_tile_notation("L3 U2 R D").unwrap(), s);
        assert_eq!(Solution::from_tile_notation("L3U2RD").unwrap(), s);
        assert!(Solution::from_tile_notation("L0").is_err());
        assert!(Solution::from_tile_notation("Q").is_err());
        assert_eq!(Solution::default().to_tile_notation(), "");
    }
}
