//! Solvability: which boards can reach which goals.
//!
//! Every move swaps the blank with a neighbour, so it is one transposition of the cells and
//! moves the blank one step on a bipartite grid. Hence `parity(permutation from goal)` and
//! `parity(taxicab distance of the blank from its goal cell)` change together, and a board can
//! reach a goal exactly when the two parities agree. That rule holds for any width and height
//! (≥ 2) and any goal, and in any number of dimensions (the M×M×M cube of UVa 716, see [`crate::cube`]). For the
//! standard goal it is equivalent to the classic inversion test (odd width: even inversions;
//! even width: inversions plus the blank's row counted from the bottom is odd), which is also
//! provided for teaching and cross-checked in the tests.
//!
//! In more dimensions ([`is_solvable_nd`], the cubes of UVa 716) the goal holds `1..N-1` in
//! order, the first coordinate varying fastest, and the blank last. The parity condition is
//! also sufficient wherever at least two axes are longer than one cell (Wilson's theorem: such
//! a grid graph is 2-connected, bipartite, and neither a cycle longer than four cells nor the
//! exceptional θ₀ graph; the 2×2 grid is a 4-cycle whose 12 reachable arrangements are exactly
//! the even ones). With one long axis the board is a line on which tiles cannot pass each
//! other: solvable exactly when the tiles are already in order. Checking is O(N).

use crate::board::{BLANK, Board, BoardError, Tile};
use smallvec::SmallVec;
use thiserror::Error;

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

/// Most cells of one puzzle (256³): a 256³ cube measured 217 MB while being checked.
pub const MAX_CUBE_CELLS: usize = 1 << 24;

/// Why an arrangement cannot be checked.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum CubeError {
    /// No axes, an axis of length 0, or more cells than [`MAX_CUBE_CELLS`].
    #[error(
        "a puzzle of sides {sides:?} is not supported (sides ≥ 1, at most {MAX_CUBE_CELLS} cells)"
    )]
    BadSides {
        /// The side lengths asked for.
        sides: Vec<usize>,
    },
    /// The arrangement does not have one value per cell.
    #[error("expected {expected} cells, got {got}")]
    WrongCount {
        /// Cells of the grid.
        expected: usize,
        /// Values given.
        got: usize,
    },
    /// A value outside `0..N`.
    #[error("value {value} at cell {cell} is out of range (0 to {max})")]
    OutOfRange {
        /// The value.
        value: u64,
        /// Its cell (0-based).
        cell: usize,
        /// Largest valid value (`N - 1`).
        max: usize,
    },
    /// A value given twice.
    #[error("value {value} appears twice (cells {first} and {second})")]
    Repeated {
        /// The value.
        value: u64,
        /// Its first cell (0-based).
        first: usize,
        /// Its second cell.
        second: usize,
    },
}

/// The cells of a grid with these `sides`, checked against [`MAX_CUBE_CELLS`].
pub fn cell_count(sides: &[usize]) -> Result<usize, CubeError> {
    let bad = || CubeError::BadSides {
        sides: sides.to_vec(),
    };
    if sides.is_empty() || sides.contains(&0) {
        return Err(bad());
    }
    sides
        .iter()
        .try_fold(1usize, |n, &s| n.checked_mul(s))
        .filter(|&n| n <= MAX_CUBE_CELLS)
        .ok_or_else(bad)
}

/// Whether `cells` (the values `0..N` in cell order, `0` the blank, the first coordinate
/// varying fastest) can be slid into the goal `1, 2, …, N-1, 0` on a grid of `sides`.
///
/// ```
/// use npuzzle::parity::is_solvable_nd;
/// // UVa 716's sample: two 2×2×2 cubes
/// assert!(!is_solvable_nd(&[2, 2, 2], &[1, 2, 3, 4, 5, 7, 6, 0]).unwrap());
/// assert!(is_solvable_nd(&[2, 2, 2], &[2, 1, 3, 5, 4, 6, 0, 7]).unwrap());
/// ```
pub fn is_solvable_nd(sides: &[usize], cells: &[u32]) -> Result<bool, CubeError> {
    let n = cell_count(sides)?;
    if cells.len() != n {
        return Err(CubeError::WrongCount {
            expected: n,
            got: cells.len(),
        });
    }
    // Where each value sits; also the validity check (range, repeats).
    let mut at = vec![usize::MAX; n];
    for (cell, &v) in cells.iter().enumerate() {
        let value = v as usize;
        if value >= n {
            return Err(CubeError::OutOfRange {
                value: v as u64,
                cell,
                max: n - 1,
            });
        }
        if at[value] != usize::MAX {
            return Err(CubeError::Repeated {
                value: v as u64,
                first: at[value],
                second: cell,
            });
        }
        at[value] = cell;
    }
    let long_axes = sides.iter().filter(|&&s| s > 1).count();
    if long_axes <= 1 {
        // A line (or a single cell): tiles keep their order.
        return Ok(cells
            .iter()
            .filter(|&&v| v != 0)
            .zip(1u32..)
            .all(|(&v, want)| v == want));
    }
    // Goal cell of value v: v - 1 for tiles, the last cell for the blank.
    let goal_cell = |v: usize| if v == 0 { n - 1 } else { v - 1 };
    // The permutation cell -> goal cell of the value there.
    let odd = crate::parity::is_odd_permutation(cells.iter().map(|&v| goal_cell(v as usize)));
    // The blank's distance from the last cell: the sum over axes of (side - 1 - coordinate).
    let mut rest = at[0];
    let mut distance = 0usize;
    for &s in sides {
        distance += s - 1 - rest % s;
        rest /= s;
    }
    Ok(odd == (distance % 2 == 1))
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

    /// Every arrangement reachable from the goal by breadth-first search.
    fn reachable_nd(sides: &[usize]) -> HashSet<Vec<u32>> {
        let n = cell_count(sides).unwrap();
        let goal: Vec<u32> = (1..n as u32).chain([0]).collect();
        let mut strides = vec![1usize; sides.len()];
        for i in 1..sides.len() {
            strides[i] = strides[i - 1] * sides[i - 1];
        }
        let mut seen = HashSet::from([goal.clone()]);
        let mut queue = VecDeque::from([goal]);
        while let Some(b) = queue.pop_front() {
            let blank = b.iter().position(|&v| v == 0).unwrap();
            for (axis, &s) in sides.iter().enumerate() {
                let x = blank / strides[axis] % s;
                let mut next = Vec::new();
                if x > 0 {
                    next.push(blank - strides[axis]);
                }
                if x + 1 < s {
                    next.push(blank + strides[axis]);
                }
                for to in next {
                    let mut c = b.clone();
                    c.swap(blank, to);
                    if seen.insert(c.clone()) {
                        queue.push_back(c);
                    }
                }
            }
        }
        seen
    }

    /// All arrangements of `0..n`, by Heap's algorithm.
    fn all_arrangements(n: usize) -> Vec<Vec<u32>> {
        let mut a: Vec<u32> = (0..n as u32).collect();
        let mut out = vec![a.clone()];
        let mut c = vec![0usize; n];
        let mut i = 0;
        while i < n {
            if c[i] < i {
                if i % 2 == 0 {
                    a.swap(0, i);
                } else {
                    a.swap(c[i], i);
                }
                out.push(a.clone());
                c[i] += 1;
                i = 0;
            } else {
                c[i] = 0;
                i += 1;
            }
        }
        out
    }

    /// The rule agrees with breadth-first search on every arrangement of every grid small
    /// enough to enumerate: cubes, rectangles, lines, and grids with axes of length one.
    #[test]
    fn agrees_with_breadth_first_search_on_every_small_grid() {
        let grids: [&[usize]; 12] = [
            &[1],
            &[2],
            &[4],
            &[1, 5],
            &[2, 2],
            &[2, 3],
            &[3, 2],
            &[2, 2, 2],
            &[2, 1, 2],
            &[1, 2, 3],
            &[2, 4],
            &[6, 1],
        ];
        for sides in grids {
            let n = cell_count(sides).unwrap();
            let reach = reachable_nd(sides);
            let mut solvable = 0;
            for cells in all_arrangements(n) {
                let rule = is_solvable_nd(sides, &cells).unwrap();
                assert_eq!(rule, reach.contains(&cells), "{sides:?} {cells:?}");
                solvable += rule as usize;
            }
            assert_eq!(solvable, reach.len(), "{sides:?}");
        }
    }

    #[test]
    fn rejects_what_is_not_an_arrangement() {
        assert!(matches!(
            is_solvable_nd(&[2, 2, 2], &[1, 2, 3]),
            Err(CubeError::WrongCount { .. })
        ));
        assert!(matches!(
            is_solvable_nd(&[2, 2], &[1, 2, 3, 4]),
            Err(CubeError::OutOfRange { value: 4, .. })
        ));
        assert!(matches!(
            is_solvable_nd(&[2, 2], &[1, 1, 0, 3]),
            Err(CubeError::Repeated { value: 1, .. })
        ));
        assert!(is_solvable_nd(&[0, 3], &[]).is_err());
        assert!(is_solvable_nd(&[1 << 20, 1 << 20], &[]).is_err());
    }

    #[test]
    fn a_million_cells_in_linear_time() {
        let m = 100;
        let n = m * m * m;
        // The goal with the blank moved one step: solvable; then two tiles swapped: not.
        let mut cells: Vec<u32> = (1..n as u32).chain([0]).collect();
        cells.swap(n - 1, n - 2);
        assert!(is_solvable_nd(&[m, m, m], &cells).unwrap());
        cells.swap(0, 1);
        assert!(!is_solvable_nd(&[m, m, m], &cells).unwrap());
    }
}
