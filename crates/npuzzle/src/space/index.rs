//! A dense numbering of every state that can reach one goal: `0..states` with no gaps, so that a
//! whole state space is an array of two-bit entries.
//!
//! Half of all permutations can reach a goal, so numbering all of them (as a Cantor rank does)
//! wastes half of every table. Here a state is its blank cell `b` and the order of the other
//! tiles read row by row. Horizontal moves never change that order, and a vertical move slides
//! one tile past `width − 1` others, so the order's parity is fixed by the blank's row:
//! dropping the last Lehmer digit pair (whose value the parity decides) numbers the orders of
//! that parity densely (`h` in `0..m!/2` for `m` tiles). The index is `h · cells + b`, blank
//! minor, so a horizontal move stays in the same 64-bit word of a two-bit array.

use crate::board::{Board, Move, Shape, Tile};
use crate::rank::factorial;

/// Most cells of a board whose state space can be numbered (tiles fit four bits).
pub const MAX_SPACE_CELLS: usize = 16;

/// The numbering of the states of one shape that can reach a goal whose tiles are `1..m` in
/// reading order with the blank at `goal_blank` (any goal is such a goal after renaming its
/// tiles; see [`crate::symmetry::Canonical`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpaceIndex {
    shape: Shape,
    goal_blank: usize,
    /// `weights[i] = (m − 1 − i)! / 2` for the first `m − 2` Lehmer digits.
    weights: [u64; MAX_SPACE_CELLS],
    /// Each weight as a multiply-and-shift divisor, when every tile order's rank fits 32
    /// bits (boards of up to 14 cells): decoding then takes no division instruction.
    divisors: Option<[Divisor; MAX_SPACE_CELLS]>,
    /// `parity[b]`: the parity of the tiles' order whenever the blank is at `b`.
    parity: [u8; MAX_SPACE_CELLS],
    states: u64,
}

/// Division of numbers below 2³² by a fixed divisor as one multiplication and a shift
/// (Granlund and Montgomery's method: `m = ⌊2^(32+l) / d⌋ + 1` with `l = ⌈log₂ d⌉`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Divisor {
    magic: u64,
    shift: u32,
}

impl Divisor {
    fn new(d: u64) -> Divisor {
        let l = 64 - (d - 1).leading_zeros().min(63);
        let l = if d == 1 { 0 } else { l };
        let magic = ((1u128 << (32 + l)) / d as u128 + 1) as u64;
        Divisor {
            magic,
            shift: 32 + l,
        }
    }

    /// `x / d` for `x < 2³²`.
    #[inline]
    fn divide(&self, x: u64) -> u64 {
        ((x as u128 * self.magic as u128) >> self.shift) as u64
    }
}

/// One state spelled out: the blank's cell and the tiles (`0..m`, i.e. goal label − 1) in
/// reading order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Spelled {
    pub blank: usize,
    pub order: [u8; MAX_SPACE_CELLS],
}

impl SpaceIndex {
    /// The numbering for `shape` toward the ordered goal with the blank at `goal_blank`, or
    /// `None` for boards of more than [`MAX_SPACE_CELLS`] cells.
    pub fn new(shape: Shape, goal_blank: usize) -> Option<SpaceIndex> {
        let n = shape.cells();
        if !(4..=MAX_SPACE_CELLS).contains(&n) || goal_blank >= n {
            return None;
        }
        let m = n - 1;
        let mut weights = [0u64; MAX_SPACE_CELLS];
        for (i, w) in weights.iter_mut().enumerate().take(m - 2) {
            *w = factorial(m - 1 - i) / 2;
        }
        let mut parity = [0u8; MAX_SPACE_CELLS];
        let odd_jump = (shape.width() - 1) % 2;
        for (b, p) in parity.iter_mut().enumerate().take(n) {
            let rows = shape.row(b).abs_diff(shape.row(goal_blank));
            *p = ((rows * odd_jump) % 2) as u8;
        }
        let divisors = (factorial(m) / 2 <= u32::MAX as u64).then(|| {
            let mut d = [Divisor::new(1); MAX_SPACE_CELLS];
            for (slot, &w) in d.iter_mut().zip(&weights).take(m - 2) {
                *slot = Divisor::new(w);
            }
            d
        });
        Some(SpaceIndex {
            shape,
            goal_blank,
            weights,
            divisors,
            parity,
            states: n as u64 * (factorial(m) / 2),
        })
    }

    /// The numbering toward `goal`'s blank cell (its tiles renamed to `1..m` in reading order).
    pub fn for_goal(goal: &Board) -> Option<SpaceIndex> {
        SpaceIndex::new(goal.shape(), goal.blank())
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The goal's blank cell.
    pub fn goal_blank(&self) -> usize {
        self.goal_blank
    }

    /// How many states can reach the goal (`cells · (cells − 1)! / 2`).
    pub fn states(&self) -> u64 {
        self.states
    }

    /// The goal's index.
    pub fn goal_index(&self) -> u64 {
        self.goal_blank as u64
    }

    /// The dense rank of a tile order of the right parity.
    #[inline]
    pub(crate) fn order_rank(&self, order: &[u8]) -> u64 {
        let m = self.shape.cells() - 1;
        let mut used: u32 = 0;
        let mut h = 0u64;
        for (&v, &weight) in order.iter().zip(&self.weights).take(m - 2) {
            let v = v as u32;
            let below = v - (used & ((1u32 << v) - 1)).count_ones();
            h += below as u64 * weight;
            used |= 1 << v;
        }
        h
    }

    /// The index of a spelled state (which must be reachable).
    #[inline]
    pub(crate) fn index_of_spelled(&self, s: &Spelled) -> u64 {
        self.order_rank(&s.order) * self.shape.cells() as u64 + s.blank as u64
    }

    /// The state with index `i`.
    #[inline]
    pub(crate) fn spell(&self, i: u64) -> Spelled {
        let n = self.shape.cells() as u64;
        let m = self.shape.cells() - 1;
        let blank = (i % n) as usize;
        let mut h = i / n;
        let mut free: u32 = (1u32 << m) - 1;
        let mut order = [0u8; MAX_SPACE_CELLS];
        let mut inversions = 0u64;
        for (i, slot) in order.iter_mut().enumerate().take(m - 2) {
            let w = self.weights[i];
            let d = match &self.divisors {
                Some(divisors) => divisors[i].divide(h),
                None => h / w,
            };
            h -= d * w;
            inversions += d;
            let mut f = free;
            for _ in 0..d {
                f &= f - 1;
            }
            let v = f.trailing_zeros();
            *slot = v as u8;
            free &= !(1 << v);
        }
        let lo = free.trailing_zeros() as u8;
        let hi = (31 - free.leading_zeros()) as u8;
        if inversions % 2 == self.parity[blank] as u64 {
            order[m - 2] = lo;
            order[m - 1] = hi;
        } else {
            order[m - 2] = hi;
            order[m - 1] = lo;
        }
        Spelled { blank, order }
    }

    /// The state `m` leads to from `s`, if the move is on the board.
    #[inline]
    pub(crate) fn step(&self, s: &Spelled, m: Move) -> Option<Spelled> {
        let w = self.shape.width();
        let b = s.blank;
        let to = self.shape.neighbour(b, m)?;
        let mut next = *s;
        next.blank = to;
        match m {
            Move::Left | Move::Right => {}
            // The tile above (order position b − w) drops to just before the old blank cell.
            Move::Up => next.order[b - w..b].rotate_left(1),
            // The tile below (order position b + w − 1) rises to the old blank cell.
            Move::Down => next.order[b..b + w].rotate_right(1),
        }
        Some(next)
    }

    /// The index of every state one move from index `i`, calling `f` for each.
    #[cfg(test)]
    pub(crate) fn for_each_neighbour(&self, i: u64, f: impl FnMut(u64)) {
        self.for_each_neighbour_of(&self.spell(i), i, f)
    }

    /// [`SpaceIndex::for_each_neighbour`] of the state `s` spelled already (index `i`): the
    /// hot loop of a breadth-first search.
    #[inline]
    pub(crate) fn for_each_neighbour_of(&self, s: &Spelled, i: u64, mut f: impl FnMut(u64)) {
        let n = self.shape.cells() as u64;
        let col = s.blank % self.shape.width();
        if col > 0 {
            f(i - 1);
        }
        if col + 1 < self.shape.width() {
            f(i + 1);
        }
        for m in [Move::Up, Move::Down] {
            if let Some(next) = self.step(s, m) {
                f(self.order_rank(&next.order) * n + next.blank as u64);
            }
        }
    }

    /// Turns `s`, the state of index `h · cells + b'`, into the state of index `i` when `i`
    /// has the same tile-order rank `h`: the order is the same but for its last two tiles,
    /// which swap when the blank's row changes the parity. Saves decoding the rank again for
    /// states that share a word of a search's array.
    #[inline]
    pub(crate) fn respell(&self, s: &mut Spelled, i: u64) {
        let b = (i % self.shape.cells() as u64) as usize;
        if self.parity[b] != self.parity[s.blank] {
            let m = self.shape.cells() - 1;
            s.order.swap(m - 2, m - 1);
        }
        s.blank = b;
    }

    /// The board (goal labels `1..m`, blank 0) of a spelled state.
    pub(crate) fn board_cells(&self, s: &Spelled) -> [Tile; MAX_SPACE_CELLS] {
        let mut cells = [0 as Tile; MAX_SPACE_CELLS];
        let mut k = 0;
        for (p, c) in cells.iter_mut().enumerate().take(self.shape.cells()) {
            if p != s.blank {
                *c = s.order[k] as Tile + 1;
                k += 1;
            }
        }
        cells
    }

    /// The spelled state of a board's cells (goal labels; the blank 0), or `None` when it is
    /// not a permutation of the right size or cannot reach the goal.
    pub(crate) fn spell_cells(&self, cells: &[Tile]) -> Option<Spelled> {
        let n = self.shape.cells();
        if cells.len() != n {
            return None;
        }
        let mut s = Spelled {
            blank: n,
            order: [0; MAX_SPACE_CELLS],
        };
        let mut k = 0;
        let mut seen = 0u32;
        for (p, &t) in cells.iter().enumerate() {
            let t = t as usize;
            if t >= n || seen & (1 << t) != 0 {
                return None;
            }
            seen |= 1 << t;
            if t == 0 {
                s.blank = p;
            } else {
                s.order[k] = (t - 1) as u8;
                k += 1;
            }
        }
        let order = &s.order[..n - 1];
        let inversions: usize = (0..order.len())
            .map(|i| order[i + 1..].iter().filter(|&&v| v < order[i]).count())
            .sum();
        (inversions % 2 == self.parity[s.blank] as usize).then_some(s)
    }

    /// The index of a board's cells (goal labels), or `None` when it cannot reach the goal.
    pub fn index_of_cells(&self, cells: &[Tile]) -> Option<u64> {
        self.spell_cells(cells).map(|s| self.index_of_spelled(&s))
    }

    /// The cells (goal labels `1..m`, blank 0) of the state with index `i`.
    pub fn cells_of(&self, i: u64) -> Vec<Tile> {
        let s = self.spell(i);
        self.board_cells(&s)[..self.shape.cells()].to_vec()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use std::collections::HashSet;

    /// Every index spells a distinct reachable state that indexes back to itself, and its
    /// neighbours are the boards one move away.
    #[test]
    fn the_numbering_is_a_bijection_onto_the_reachable_states() {
        for (w, h, gb) in [
            (2, 2, 3),
            (3, 2, 5),
            (2, 3, 0),
            (3, 3, 4),
            (4, 2, 1),
            (2, 4, 7),
        ] {
            let shape = Shape::new(w, h).unwrap();
            let index = SpaceIndex::new(shape, gb).unwrap();
            let n = shape.cells();
            let mut seen = HashSet::new();
            for i in 0..index.states() {
                let cells = index.cells_of(i);
                assert_eq!(index.index_of_cells(&cells), Some(i), "{w}x{h} {i}");
                assert!(seen.insert(cells.clone()));
                let board = Board::new(shape, &cells).unwrap();
                let mut expected: Vec<u64> = board
                    .legal_moves()
                    .map(|m| {
                        let b = board.moved(m).unwrap();
                        index.index_of_cells(b.cells()).unwrap()
                    })
                    .collect();
                let mut got = Vec::new();
                index.for_each_neighbour(i, |j| got.push(j));
                // Respelled from the state before it, when they share a tile order.
                if i > 0 && i / n as u64 == (i - 1) / n as u64 {
                    let mut s = index.spell(i - 1);
                    index.respell(&mut s, i);
                    assert_eq!(s, index.spell(i), "{w}x{h} {i}");
                }
                expected.sort();
                got.sort();
                assert_eq!(got, expected, "{w}x{h} {i}");
            }
            assert_eq!(seen.len() as u64, crate::rank::factorial(n) / 2);
        }
    }

    #[test]
    fn multiply_and_shift_divides_exactly() {
        for d in [
            1u64,
            2,
            3,
            7,
            12,
            60,
            360,
            20_160,
            181_440,
            19_958_400,
            239_500_800,
        ] {
            let div = Divisor::new(d);
            for x in (0..u32::MAX as u64)
                .step_by(9_973)
                .chain([u32::MAX as u64, d - 1, d])
            {
                assert_eq!(div.divide(x), x / d, "{x} / {d}");
            }
        }
    }

    #[test]
    fn the_goal_is_its_blank_cell() {
        let shape = Shape::new(4, 3).unwrap();
        let goal = Board::goal(shape);
        let index = SpaceIndex::for_goal(&goal).unwrap();
        assert_eq!(index.index_of_cells(goal.cells()), Some(index.goal_index()));
        assert_eq!(index.states(), 239_500_800);
        assert!(SpaceIndex::new(Shape::new(5, 4).unwrap(), 0).is_none());
    }
}
