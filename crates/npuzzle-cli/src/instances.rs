//! The benchmark instances bundled with the binary: Korf's 100 15-puzzles and Korf and
//! Felner's 50 24-puzzles, with their published optimal lengths (used by `bench` and its
//! near-optimal comparison alike).

use anyhow::Result;
use npuzzle::{Board, Shape};

/// Which of Korf's instance sets a `bench korf…` run uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum KorfSet {
    /// The 100 15-puzzles (Korf 1985).
    Fifteen,
    /// The 50 24-puzzles (Korf and Felner 2002).
    TwentyFour,
}

impl KorfSet {
    /// The benchmark's name (`bench korf100`, `bench korf24`).
    pub fn name(self) -> &'static str {
        match self {
            KorfSet::Fifteen => "korf100",
            KorfSet::TwentyFour => "korf24",
        }
    }
}

/// Korf's 100 instances with their published optimal lengths, in Korf's own form (blank
/// first) or in the blank-last form (same optimal lengths).
pub fn korf100_instances(blank_last: bool) -> Result<Vec<(usize, Board, usize)>> {
    korf_instances(KorfSet::Fifteen, blank_last)
}

/// One of Korf's instance sets with the published optimal lengths, in Korf's own form (blank
/// first) or in the blank-last form (same optimal lengths).
pub fn korf_instances(set: KorfSet, blank_last: bool) -> Result<Vec<(usize, Board, usize)>> {
    let (shape, boards, lengths) = match (set, blank_last) {
        (KorfSet::Fifteen, true) => (
            Shape::new(4, 4)?,
            include_str!("../data/korf100_blank_last.txt"),
            include_str!("../data/korf100_opt.txt"),
        ),
        (KorfSet::Fifteen, false) => (
            Shape::new(4, 4)?,
            include_str!("../data/korf100.txt"),
            include_str!("../data/korf100_opt.txt"),
        ),
        (KorfSet::TwentyFour, true) => (
            Shape::new(5, 5)?,
            include_str!("../data/korf24_50_blank_last.txt"),
            include_str!("../data/korf24_50_opt.txt"),
        ),
        (KorfSet::TwentyFour, false) => (
            Shape::new(5, 5)?,
            include_str!("../data/korf24_50.txt"),
            include_str!("../data/korf24_50_opt.txt"),
        ),
    };
    boards
        .lines()
        .zip(lengths.lines())
        .enumerate()
        .map(|(i, (b, l))| {
            Ok((
                i + 1,
                Board::parse_with_shape(b, Some(shape))?,
                l.trim().parse()?,
            ))
        })
        .collect()
}
