//! Solvability: which boards can reach which goals.
//!
//! Every move swaps the blank with a neighbour, so it is one transposition of the cells and
//! moves the blank one step on a bipartite grid. Hence `parity(permutation from goal)` and
//! `parity(taxicab distance of the blank from its goal cell)` change together, and a board can
//! reach a goal exactly when the two parities agree. That rule holds for any width and height
//! (≥ 2) and any goal, and in any number of dimensions (the M×M×M cube of UVa 716). For the
//! standard goal it is equivalent to the classic inversion test (odd width: even inversions;
//! even width: inversions plus the blank's row counted from the bottom is odd), which is also
//! provided for teaching and cross-checked in the tests.

use crate::board::{BLANK, Board, BoardError, Tile};
use smallvec::SmallVec;

/// Parity of a permutation given as `perm[i]` = image of `i`; `true` when odd. O(n).
pub fn is_odd_permutation(perm: impl IntoIterator<Item = usize> + Clone) -> bool {
    let p: SmallVec<[usize; 32]> = perm.into_iter().collect();
    let mut seen: SmallVec<[bool; 32]> = SmallVec::from_elem(false, p.len());
    let mut transpositions = 0usize;
    for start in 0..p.len() {
        if seen[start] {
            continue;
        }
        let mut len = 0;
        let mut i = start;
        while !seen[i] {
            seen[i] = true;
            i = p[i];
            len += 1;
        }
        transpositions += len - 1;
    }
    transpositions % 2 == 1
}

/// Whether `board` can be slid into `goal` (same shape required).
///
/// ```
/// use npuzzle::{Board, parity::is_solvable};
/// let goal = Board::parse("1 2 3 4 5 6 7 8 x").unwrap();
/// assert!(is_solvable(&Board::parse("2 3 4 1 5 x 7 6 8").unwrap(), &goal).unwrap());
/// assert!(!is_solvable(&Board::parse("2 1 3 4 5 6 7 8 x").unwrap(), &goal).unwrap());
/// ```
pub fn is_solvable(board: &Board, goal: &Board) -> Result<bool, BoardError> {
    board.check_same_shape(goal)?;
    let shape = board.shape();
    let mut goal_pos: SmallVec<[usize; 32]> = SmallVec::from_elem(0, shape.cells());
    for (pos, &t) in goal.cells().iter().enumerate() {
        goal_pos[t as usize] = pos;
    }
    let odd = is_odd_permutation(board.cells().iter().map(|&t| goal_pos[t as usize]));
    let blank_steps = shape.distance(board.blank(), goal.blank());
    Ok(odd == (blank_steps % 2 == 1))
}

/// Number of inversions among the tiles (the blank ignored), in O(n log n).
pub fn inversions(cells: &[Tile]) -> u64 {
    // Fenwick tree over tile values counting tiles already seen.
    let n = cells.len() + 1;
    let mut tree = vec![0u32; n + 1];
    let mut inv = 0u64;
    for (seen, &t) in cells.iter().filter(|&&t| t != BLANK).enumerate() {
        let seen = seen as u64;
        // tiles seen so far that are larger than t
        let mut i = t as usize;
        let mut not_larger = 0u64;
        while i > 0 {
            not_larger += tree[i] as u64;
            i &= i - 1;
        }
        inv += seen - not_larger;
        let mut i = t as usize;
        while i <= n {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    inv
}

/// The classic inversion-count test against the standard goal (tiles in order, blank last).
pub fn is_solvable_by_inversions(board: &Board) -> bool {
    let shape = board.shape();
    let inv = inversions(board.cells());
    if shape.width() % 2 == 1 {
        inv.is_multiple_of(2)
    } else {
        let row_from_bottom = shape.height() - shape.row(board.blank());
        (inv + row_from_bottom as u64) % 2 == 1
    }
}

/// Why an n-dimensional puzzle could not be checked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CubeError {
    /// Some side is smaller than 2 or the cell count does not match.
    #[error("expected {expected} cells for the given sides, found {found}")]
    WrongCellCount {
        /// Product of the sides.
        expected: usize,
        /// Cells given.
        found: usize,
    },
    /// A side below 2.
    #[error("every side must be at least 2")]
    SideTooSmall,
    /// The cells are not exactly `0..n` once each.
    #[error("the cells are not a permutation of 0..{n}")]
    NotAPermutation {
        /// Cell count.
        n: usize,
    },
}

/// Solvability of a puzzle on a grid of any dimension (e.g. UVa 716's M×M×M cube): `cells` lists
/// the grid in row-major order (last coordinate fastest), `0` is the blank, and the goal is
/// `1..n-1` in order with the blank in the last cell.
pub fn is_solvable_nd(sides: &[usize], cells: &[usize]) -> Result<bool, CubeError> {
    if sides.iter().any(|&s| s < 2) {
        return Err(CubeError::SideTooSmall);
    }
    let n = sides
        .iter()
        .try_fold(1usize, |acc, &s| acc.checked_mul(s))
        .unwrap_or(usize::MAX);
    if n != cells.len() {
        return Err(CubeError::WrongCellCount {
            expected: n,
            found: cells.len(),
        });
    }
    let mut seen = vec![false; n];
    for &c in cells {
        if c >= n || std::mem::replace(&mut seen[c], true) {
            return Err(CubeError::NotAPermutation { n });
        }
    }
    // goal position of tile t: t - 1, blank at n - 1
    let goal_pos = |t: usize| if t == 0 { n - 1 } else { t - 1 };
    let odd = is_odd_permutation(cells.iter().map(|&t| goal_pos(t)));
    let blank = cells.iter().position(|&c| c == 0).unwrap_or(0);
    // taxicab distance from the blank's cell to the last cell
    let mut rest = blank;
    let mut steps = 0;
    for &side in sides.iter().rev() {
        steps += side - 1 - rest % side;
        rest /= side;
    }
    Ok(odd == (steps % 2 == 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Move, Shape};
    use std::collections::{HashSet, VecDeque};

    fn reachable(goal: &Board) -> HashSet<Vec<Tile>> {
        let mut seen = HashSet::new();
        let mut q = VecDeque::from([goal.clone()]);
        seen.insert(goal.cells().to_vec());
        while let Some(b) = q.pop_front() {
            for m in Move::ALL {
                if let Some(c) = b.moved(m)
                    && seen.insert(c.cells().to_vec())
                {
                    q.push_back(c);
                }
            }
        }
        seen
    }

    #[test]
    fn parity_rule_matches_reachability_for_any_goal() {
        for (w, h) in [(2, 2), (2, 3), (3, 2), (2, 4)] {
            let shape = Shape::new(w, h).unwrap();
            let boards: Vec<Board> = Board::every(shape).collect();
            // two goals: the standard one and an odd one with the blank elsewhere
            let odd_goal = Board::new(shape, &{
                let mut t: Vec<Tile> = (0..shape.cells() as Tile).collect();
                t.swap(1, 2);
                t
            })
            .unwrap();
            for goal in [Board::goal(shape), odd_goal] {
                let reach = reachable(&goal);
                assert_eq!(reach.len(), boards.len() / 2);
                for b in &boards {
                    assert_eq!(
                        is_solvable(b, &goal).unwrap(),
                        reach.contains(b.cells()),
                        "{b:?} -> {goal:?}"
                    );
                    if goal == Board::goal(shape) {
                        assert_eq!(is_solvable_by_inversions(b), reach.contains(b.cells()));
                    }
                }
            }
        }
    }

    #[test]
    fn inversion_rule_matches_on_larger_boards() {
        // deterministic pseudo-random boards on several shapes
        let mut x = 0x9e3779b97f4a7c15u64;
        for (w, h) in [(3, 3), (4, 4), (5, 5), (4, 3), (10, 7)] {
            let shape = Shape::new(w, h).unwrap();
            let goal = Board::goal(shape);
            for _ in 0..200 {
                let mut t: Vec<Tile> = (0..shape.cells() as Tile).collect();
                for i in (1..t.len()).rev() {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    t.swap(i, (x % (i as u64 + 1)) as usize);
                }
                let b = Board::new(shape, &t).unwrap();
                assert_eq!(
                    is_solvable(&b, &goal).unwrap(),
                    is_solvable_by_inversions(&b)
                );
            }
        }
    }

    #[test]
    fn cube_rule_matches_bfs_on_2x2x2() {
        // BFS over the 2x2x2 cube from the goal.
        let sides = [2usize, 2, 2];
        let n = 8;
        let goal: Vec<usize> = (1..n).chain([0]).collect();
        let mut seen = HashSet::from([goal.clone()]);
        let mut q = VecDeque::from([goal]);
        while let Some(s) = q.pop_front() {
            let b = s.iter().position(|&c| c == 0).unwrap();
            for bit in [1usize, 2, 4] {
                let mut t = s.clone();
                t.swap(b, b ^ bit);
                if seen.insert(t.clone()) {
                    q.push_back(t);
                }
            }
        }
        assert_eq!(seen.len(), 20160);
        let mut p = [0u8; 8];
        for r in 0..crate::rank::factorial(8) {
            crate::rank::unrank(r, &mut p);
            let cells: Vec<usize> = p.iter().map(|&v| v as usize).collect();
            assert_eq!(
                is_solvable_nd(&sides, &cells).unwrap(),
                seen.contains(&cells)
            );
        }
        assert!(is_solvable_nd(&[3, 3], &[1, 2, 3, 4, 5, 6, 7, 8]).is_err());
        assert!(is_solvable_nd(&[1, 3], &[1, 2, 0]).is_err());
    }
}
