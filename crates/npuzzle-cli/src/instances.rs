//! The benchmark instances bundled with the binary: Korf's 100 15-puzzles, Korf and Felner's
//! 50 24-puzzles and the 17 15-puzzles that need 80 moves, with their published optimal
//! lengths (used by `bench` and its near-optimal comparison alike).

use anyhow::Result;
use npuzzle::{Board, Shape};

/// Which of Korf's instance sets a `bench korf…` run uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum KorfSet {
    /// The 100 15-puzzles (Korf 1985).
    Fifteen,
    /// The 50 24-puzzles (Korf and Felner 2002).
    TwentyFour,
    /// The 17 15-puzzles that need 80 moves, the most any needs (Brüngger, Marzetta, Fukuda
    /// and Nievergelt 1999).
    Fifteen80,
}

impl KorfSet {
    /// The board size of the set.
    pub fn shape(self) -> Result<Shape> {
        let side = match self {
            KorfSet::Fifteen | KorfSet::Fifteen80 => 4,
            KorfSet::TwentyFour => 5,
        };
        Ok(Shape::new(side, side)?)
    }

    /// The benchmark's name (`bench korf100`, `bench korf24`).
    pub fn name(self) -> &'static str {
        match self {
            KorfSet::Fifteen => "korf100",
            KorfSet::TwentyFour => "korf24",
            KorfSet::Fifteen80 => "fifteen80",
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
    let shape = set.shape()?;
    let (boards, lengths) = match (set, blank_last) {
        (KorfSet::Fifteen, true) => (
            include_str!("../data/korf100_blank_last.txt"),
            include_str!("../data/korf100_opt.txt"),
        ),
        (KorfSet::Fifteen, false) => (
            include_str!("../data/korf100.txt"),
            include_str!("../data/korf100_opt.txt"),
        ),
        (KorfSet::TwentyFour, true) => (
            include_str!("../data/korf24_50_blank_last.txt"),
            include_str!("../data/korf24_50_opt.txt"),
        ),
        (KorfSet::TwentyFour, false) => (
            include_str!("../data/korf24_50.txt"),
            include_str!("../data/korf24_50_opt.txt"),
        ),
        (KorfSet::Fifteen80, true) => (
            include_str!("../data/fifteen80.txt"),
            include_str!("../data/fifteen80_opt.txt"),
        ),
        (KorfSet::Fifteen80, false) => (
            include_str!("../data/fifteen80_blank_first.txt"),
            include_str!("../data/fifteen80_opt.txt"),
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

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::parity::is_solvable;

    /// Each set's two forms hold the same boards: the blank-first form is the blank-last one
    /// turned half a turn with every tile `t` renamed `cells - t`; every board is distinct
    /// and solvable toward its goal.
    #[test]
    fn both_forms_of_every_set_agree() {
        for set in [KorfSet::Fifteen, KorfSet::TwentyFour, KorfSet::Fifteen80] {
            let last = korf_instances(set, true).unwrap();
            let first = korf_instances(set, false).unwrap();
            assert_eq!(last.len(), first.len());
            let want = match set {
                KorfSet::Fifteen => 100,
                KorfSet::TwentyFour => 50,
                KorfSet::Fifteen80 => 17,
            };
            assert_eq!(last.len(), want);
            let mut seen = std::collections::HashSet::new();
            for ((no, l, opt), (_, f, opt_f)) in last.iter().zip(&first) {
                assert_eq!(opt, opt_f);
                let n = l.cells().len() as u16;
                let turned: Vec<u16> = l
                    .cells()
                    .iter()
                    .rev()
                    .map(|&t| if t == 0 { 0 } else { n - t })
                    .collect();
                assert_eq!(turned, f.cells(), "{} #{no}", set.name());
                assert!(is_solvable(l, &Board::goal(l.shape())).unwrap());
                assert!(is_solvable(f, &Board::goal_blank_first(f.shape())).unwrap());
                assert!(
                    seen.insert(l.cells().to_vec()),
                    "{} #{no} twice",
                    set.name()
                );
            }
        }
    }
}
