//! The benchmark instances bundled with the binary: Korf's 100 15-puzzles, Korf and Felner's
//! 50 24-puzzles and the 17 15-puzzles that need 80 moves, with their published optimal
//! lengths (used by `bench` and its near-optimal comparison alike).

use anyhow::Result;
use npuzzle::{Board, Shape};

/// Which bundled instance set a `bench` run uses (`korf100`, `korf24` or `fifteen80`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InstanceSet {
    /// The 100 15-puzzles (Korf 1985).
    Fifteen,
    /// The 50 24-puzzles (Korf and Felner 2002).
    TwentyFour,
    /// The 17 15-puzzles that need 80 moves, the most any needs (Brüngger, Marzetta, Fukuda
    /// and Nievergelt 1999).
    Fifteen80,
}

impl InstanceSet {
    /// The board size of the set.
    pub fn shape(self) -> Result<Shape> {
        let side = match self {
            InstanceSet::Fifteen | InstanceSet::Fifteen80 => 4,
            InstanceSet::TwentyFour => 5,
        };
        Ok(Shape::new(side, side)?)
    }

    /// The benchmark's name (`bench korf100`, `bench korf24`, `bench fifteen80`).
    pub fn name(self) -> &'static str {
        match self {
            InstanceSet::Fifteen => "korf100",
            InstanceSet::TwentyFour => "korf24",
            InstanceSet::Fifteen80 => "fifteen80",
        }
    }
}

/// Korf's 100 instances with their published optimal lengths, in Korf's own form (blank
/// first) or in the blank-last form (same optimal lengths).
pub fn korf100_instances(blank_last: bool) -> Result<Vec<(usize, Board, usize)>> {
    set_instances(InstanceSet::Fifteen, blank_last)
}

/// One bundled instance set with its published optimal lengths, in Korf's own form (blank
/// first) or in the blank-last form (same optimal lengths).
pub fn set_instances(set: InstanceSet, blank_last: bool) -> Result<Vec<(usize, Board, usize)>> {
    let shape = set.shape()?;
    let (boards, lengths) = match (set, blank_last) {
        (InstanceSet::Fifteen, true) => (
            include_str!("../data/korf100_blank_last.txt"),
            include_str!("../data/korf100_opt.txt"),
        ),
        (InstanceSet::Fifteen, false) => (
            include_str!("../data/korf100.txt"),
            include_str!("../data/korf100_opt.txt"),
        ),
        (InstanceSet::TwentyFour, true) => (
            include_str!("../data/korf24_50_blank_last.txt"),
            include_str!("../data/korf24_50_opt.txt"),
        ),
        (InstanceSet::TwentyFour, false) => (
            include_str!("../data/korf24_50.txt"),
            include_str!("../data/korf24_50_opt.txt"),
        ),
        (InstanceSet::Fifteen80, true) => (
            include_str!("../data/fifteen80.txt"),
            include_str!("../data/fifteen80_opt.txt"),
        ),
        (InstanceSet::Fifteen80, false) => (
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
        for set in [
            InstanceSet::Fifteen,
            InstanceSet::TwentyFour,
            InstanceSet::Fifteen80,
        ] {
            let last = set_instances(set, true).unwrap();
            let first = set_instances(set, false).unwrap();
            assert_eq!(last.len(), first.len());
            let want = match set {
                InstanceSet::Fifteen => 100,
                InstanceSet::TwentyFour => 50,
                InstanceSet::Fifteen80 => 17,
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
