//! How answers are written, as command-line choices: the library's notations (see
//! `npuzzle::solution::Notation`), with help text for each.

use clap::ValueEnum;
use npuzzle::solution::Notation;

/// How moves are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum NotationArg {
    /// Judge letters: `u d l r` name the neighbour of the blank that swaps with it.
    Judge,
    /// Speed-solving notation: the direction each tile slides, with run lengths (`R3 D2 L`).
    Tiles,
}

impl NotationArg {
    /// The library's notation.
    pub fn notation(self) -> Notation {
        match self {
            NotationArg::Judge => Notation::Judge,
            NotationArg::Tiles => Notation::Tiles,
        }
    }
}
