//! Complete tables: one reverse breadth-first search from a goal over every reachable state of a
//! small board (3×3, 2×3, 2×4, 2×5 …), so any board is answered optimally without searching.
//!
//! The table is indexed by the Cantor rank of the board's permutation (blank included). Each
//! entry is one byte: the distance to the goal in the high six bits and the first move of an
//! optimal solution in the low two, or `UNREACHABLE`. When every distance is at most 32 (true
//! for 3×3, whose maximum is 31) the search also stores, per rank, the whole optimal move
//! sequence packed two bits per move in a `u64`; answering a board is then one rank and one load,
//! with no walk and no allocation. States are packed four bits per cell during the build, so
//! the 181,440-state 3×3 search takes milliseconds.

use crate::board::{Board, Move, Shape, Tile};
use crate::rank::{factorial, rank};
use crate::solution::Solution;
use thiserror::Error;

/// Entry value for a state the goal cannot reach (the other parity class).
pub(crate) const UNREACHABLE: u8 = 0xFF;

/// Boards with more cells than this get no complete table (11! bytes is already 40 MB).
pub const MAX_TABLE_CELLS: usize = 10;

/// Why a table could not be built.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TableError {
    /// The board has too many states for a complete table.
    #[error(
        "a {shape} board has too many states for a complete table (at most {MAX_TABLE_CELLS} cells)"
    )]
    TooLarge {
        /// The board's shape.
        shape: Shape,
    },
}

/// Distances and optimal first moves for every state of a small board, toward one goal.
#[derive(Clone, Debug)]
pub struct Table {
    goal: Board,
    entries: Vec<u8>,
    paths: Option<Vec<u64>>,
    max_distance: u8,
    reachable: u64,
}

/// Packs up to 16 cells, four bits each, cell 0 in the low bits.
#[inline]
fn pack(cells: &[Tile]) -> u64 {
    cells
        .iter()
        .enumerate()
        .fold(0u64, |acc, (i, &t)| acc | (t as u64) << (4 * i))
}

/// The Cantor rank of a packed state of `n` cells.
#[inline]
fn rank_packed(packed: u64, n: usize) -> u64 {
    let mut used: u32 = 0;
    let mut r: u64 = 0;
    for i in 0..n {
        let v = ((packed >> (4 * i)) & 15) as u32;
        let below = v - (used & ((1u32 << v) - 1)).count_ones();
        r += below as u64 * factorial(n - 1 - i);
        used |= 1 << v;
    }
    r
}

/// Swaps the nibbles at cells `a` and `b`.
#[inline]
fn swap_cells(packed: u64, a: usize, b: usize) -> u64 {
    let ta = (packed >> (4 * a)) & 15;
    let tb = (packed >> (4 * b)) & 15;
    let cleared = packed & !(15 << (4 * a)) & !(15 << (4 * b));
    cleared | ta << (4 * b) | tb << (4 * a)
}

impl Table {
    /// Whether boards of this shape can have a complete table.
    pub fn supports(shape: Shape) -> bool {
        shape.cells() <= MAX_TABLE_CELLS
    }

    /// Runs the reverse BFS from `goal` over every reachable state.
    pub fn build(goal: &Board) -> Result<Table, TableError> {
        let shape = goal.shape();
        let n = shape.cells();
        if !Table::supports(shape) {
            return Err(TableError::TooLarge { shape });
        }
        let total = factorial(n) as usize;
        let mut entries = vec![UNREACHABLE; total];
        let mut paths = vec![0u64; total];
        let mut keep_paths = true;
        // Neighbour cells of each cell, per move.
        let neighbours: Vec<[Option<u8>; 4]> = (0..n)
            .map(|p| Move::ALL.map(|m| shape.neighbour(p, m).map(|q| q as u8)))
            .collect();

        let start = pack(goal.cells());
        let start_rank = rank_packed(start, n) as usize;
        entries[start_rank] = 0;
        // A path word holds the moves, two bits each from the low end, under a sentinel bit
        // just above the last: the goal's word is the sentinel alone, 0 means unreachable.
        paths[start_rank] = 1;
        // The queue holds (packed state, blank cell, rank); every reachable state enters once.
        let mut queue: Vec<(u64, u8, u32)> = Vec::with_capacity(total / 2);
        queue.push((start, goal.blank() as u8, start_rank as u32));
        let mut head = 0;
        let mut max_distance = 0u8;
        while head < queue.len() {
            let (state, blank, r) = queue[head];
            head += 1;
            let dist = entries[r as usize] >> 2;
            let path = paths[r as usize];
            for m in Move::ALL {
                let Some(to) = neighbours[blank as usize][m.index()] else {
                    continue;
                };
                let child = swap_cells(state, blank as usize, to as usize);
                let cr = rank_packed(child, n) as usize;
                if entries[cr] != UNREACHABLE {
                    continue;
                }
                // From the child, undoing `m` steps toward the goal.
                let back = m.inverse().index() as u64;
                let d = dist + 1;
                if d > 62 {
                    // Cannot happen for boards of at most 10 cells (2x5 has diameter 55).
                    keep_paths = false;
                    continue;
                }
                entries[cr] = (d << 2) | back as u8;
                if d <= 31 {
                    paths[cr] = back | (path << 2);
                } else {
                    keep_paths = false;
                }
                max_distance = max_distance.max(d);
                queue.push((child, to, cr as u32));
            }
        }
        Ok(Table {
            goal: goal.clone(),
            entries,
            paths: keep_paths.then_some(paths),
            max_distance,
            reachable: queue.len() as u64,
        })
    }

    /// The goal the table leads to.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The board shape.
    pub fn shape(&self) -> Shape {
        self.goal.shape()
    }

    /// The largest distance of any reachable state (31 for 3×3).
    pub fn max_distance(&self) -> u8 {
        self.max_distance
    }

    /// Number of states that can reach the goal (half of all permutations).
    pub fn reachable_states(&self) -> u64 {
        self.reachable
    }

    /// Every distance, indexed by the Cantor rank of the board's cells (see
    /// [`crate::rank::rank`]; the blank counts as tile 0), `UNREACHABLE` for the states of the
    /// other parity: the whole table as data, e.g. for training a learned heuristic.
    pub fn distances(&self) -> Vec<u8> {
        self.entries
            .iter()
            .map(|&e| {
                if e == UNREACHABLE {
                    UNREACHABLE
                } else {
                    e >> 2
                }
            })
            .collect()
    }

    /// `histogram()[d]` = number of states at distance `d`.
    pub fn histogram(&self) -> Vec<u64> {
        let mut h = vec![0u64; self.max_distance as usize + 1];
        for &e in &self.entries {
            if e != UNREACHABLE {
                h[(e >> 2) as usize] += 1;
            }
        }
        h
    }

    #[inline]
    fn rank_of(&self, cells: &[Tile]) -> usize {
        let mut p = [0u8; MAX_TABLE_CELLS];
        for (slot, &t) in p.iter_mut().zip(cells) {
            *slot = t as u8;
        }
        rank(&p[..cells.len()]) as usize
    }

    /// Optimal distance from `board` to the goal, or `None` when it cannot reach it.
    /// The board must have the table's shape (other shapes give `None`).
    #[inline]
    pub fn distance(&self, board: &Board) -> Option<u8> {
        if board.shape() != self.shape() {
            return None;
        }
        match self.entries[self.rank_of(board.cells())] {
            UNREACHABLE => None,
            e => Some(e >> 2),
        }
    }

    /// The optimal distance of the board one input line holds (as [`Table::answer_line`]
    /// reads it): `Some(-1)` when it cannot reach the goal, `None` when the line is not one
    /// valid board of the table's shape.
    #[inline]
    pub fn distance_of_line(&self, line: &[u8]) -> Option<i32> {
        let r = self.rank_line(line)?;
        Some(match self.entries[r] {
            UNREACHABLE => -1,
            e => i32::from(e >> 2),
        })
    }

    /// An optimal solution from `board`, or `None` when it cannot reach the goal.
    pub fn solve(&self, board: &Board) -> Option<Solution> {
        let mut moves = Vec::new();
        self.for_each_move(board, |m| moves.push(m))?;
        Some(Solution::new(moves))
    }

    /// Appends the judge letters of an optimal solution to `out` (nothing for a solved board).
    /// Returns `false`, appending nothing, when the board cannot reach the goal. Allocation-free
    /// apart from `out` growing.
    #[inline]
    pub fn write_letters(&self, board: &Board, out: &mut Vec<u8>) -> bool {
        board.shape() == self.shape() && self.letters_of(board.cells(), out)
    }

    /// [`Table::write_letters`] for the cells of a valid board of the table's shape.
    #[inline]
    fn letters_of(&self, cells: &[Tile], out: &mut Vec<u8>) -> bool {
        match &self.paths {
            Some(paths) => {
                let w = paths[self.rank_of(cells)];
                w != 0 && {
                    let (letters, len) = path_letters(w);
                    out.extend_from_slice(&letters[..len]);
                    true
                }
            }
            None => self
                .moves_of(cells, |m| out.push(b"udlr"[m.index()]))
                .is_some(),
        }
    }

    /// The rank of the board one input line holds, when the line is exactly one valid board
    /// of the table's shape (tiles as decimal numbers, `x`, `X` or `0` for the blank, any ASCII
    /// whitespace between); `None` for any other line (another tile count, a bad or repeated
    /// token). No allocation, no intermediate [`Board`].
    #[inline]
    fn rank_line(&self, line: &[u8]) -> Option<usize> {
        let n = self.shape().cells();
        let mut cells = [0 as Tile; MAX_TABLE_CELLS];
        let (mut count, mut seen, mut i) = (0usize, 0u32, 0usize);
        loop {
            while i < line.len() && line[i].is_ascii_whitespace() {
                i += 1;
            }
            if i == line.len() {
                break;
            }
            let v = match line[i] {
                b'x' | b'X' => {
                    i += 1;
                    0
                }
                _ => {
                    let start = i;
                    let mut v = 0u32;
                    while i < line.len() && line[i].is_ascii_digit() && i - start < 3 {
                        v = v * 10 + (line[i] - b'0') as u32;
                        i += 1;
                    }
                    if i == start {
                        return None;
                    }
                    v
                }
            };
            let ends = i == line.len() || line[i].is_ascii_whitespace();
            if !ends || count == n || v as usize >= n || seen & (1 << v) != 0 {
                return None;
            }
            seen |= 1 << v;
            cells[count] = v as Tile;
            count += 1;
        }
        (count == n).then(|| self.rank_of(&cells[..n]))
    }

    /// Answers one input line that holds exactly one board of the table's shape (see
    /// [`Table::answer_lines`]): appends the judge letters of an optimal solution, or
    /// `unsolvable`, and a newline. Returns `false`, appending nothing, for any other line,
    /// which the general reader then reports precisely.
    #[inline]
    pub fn answer_line(&self, line: &[u8], out: &mut Vec<u8>) -> bool {
        self.answer_lines(&[line], out) == 1
    }

    /// Answers a run of input lines in order, as [`Table::answer_line`] would, stopping at the
    /// first line that is not one valid board of the table's shape; returns how many were
    /// answered. This is the hot path of one-board-per-line input: lines are taken in groups
    /// whose table reads are issued together, so that their cache misses overlap.
    pub fn answer_lines(&self, lines: &[&[u8]], out: &mut Vec<u8>) -> usize {
        const GROUP: usize = 16;
        let n = self.shape().cells();
        let mut done = 0;
        for group in lines.chunks(GROUP) {
            let mut ranks = [0usize; GROUP];
            let mut k = 0;
            for line in group {
                match self.rank_line(line) {
                    Some(r) => {
                        ranks[k] = r;
                        k += 1;
                    }
                    None => break,
                }
            }
            if let Some(paths) = &self.paths {
                let mut words = [0u64; GROUP];
                for j in 0..k {
                    words[j] = paths[ranks[j]];
                }
                for &w in &words[..k] {
                    write_path(w, out);
                }
            } else {
                for &r in &ranks[..k] {
                    let mut cells = [0u8; MAX_TABLE_CELLS];
                    crate::rank::unrank(r as u64, &mut cells[..n]);
                    let mut tiles = [0 as Tile; MAX_TABLE_CELLS];
                    for (t, &c) in tiles.iter_mut().zip(&cells[..n]) {
                        *t = c as Tile;
                    }
                    if self
                        .moves_of(&tiles[..n], |m| out.push(b"udlr"[m.index()]))
                        .is_none()
                    {
                        out.extend_from_slice(b"unsolvable");
                    }
                    out.push(b'\n');
                }
            }
            done += k;
            if k < group.len() {
                break;
            }
        }
        done
    }

    /// Calls `f` with each move of an optimal solution; `None` when unsolvable or of another shape.
    #[inline]
    pub fn for_each_move(&self, board: &Board, f: impl FnMut(Move)) -> Option<usize> {
        if board.shape() != self.shape() {
            return None;
        }
        self.moves_of(board.cells(), f)
    }

    /// [`Table::for_each_move`] for the cells of a valid board of the table's shape.
    #[inline]
    fn moves_of(&self, cells: &[Tile], mut f: impl FnMut(Move)) -> Option<usize> {
        let r = self.rank_of(cells);
        let e = self.entries[r];
        if e == UNREACHABLE {
            return None;
        }
        let len = (e >> 2) as usize;
        if let Some(paths) = &self.paths {
            let mut p = paths[r];
            for _ in 0..len {
                f(Move::from_index(p as usize));
                p >>= 2;
            }
        } else {
            let mut b = Board::new(self.shape(), cells).ok()?;
            let mut e = e;
            for _ in 0..len {
                let m = Move::from_index(e as usize);
                f(m);
                b.apply(m);
                e = self.entries[self.rank_of(b.cells())];
            }
        }
        Some(len)
    }

    /// Builds the standard 3×3 table (goal `1 2 3 4 5 6 7 8 x`).
    pub fn eight() -> Table {
        let shape = Shape::new(3, 3).unwrap_or_else(|_| unreachable!("3x3 is a valid shape"));
        Table::build(&Board::goal(shape)).unwrap_or_else(|_| unreachable!("3x3 fits a table"))
    }
}

/// The judge letters of a path word (moves two bits each from the low end, under a sentinel
/// bit; not 0) and how many there are.
#[inline]
fn path_letters(w: u64) -> ([u8; 32], usize) {
    let len = (((63 - w.leading_zeros()) / 2) as usize).min(32);
    let mut letters = [0u8; 32];
    let mut p = w;
    for slot in &mut letters[..len] {
        *slot = b"udlr"[(p & 3) as usize];
        p >>= 2;
    }
    (letters, len)
}

/// Appends a line's answer for a path word: its letters, or `unsolvable` for 0.
#[inline]
fn write_path(w: u64, out: &mut Vec<u8>) {
    if w == 0 {
        out.extend_from_slice(b"unsolvable\n");
    } else {
        let (letters, len) = path_letters(w);
        out.extend_from_slice(&letters[..len]);
        out.push(b'\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The line fast path answers exactly the lines that hold one valid board, like the
    /// general reader, and nothing else.
    #[test]
    fn answer_line_agrees_with_the_reader() {
        let t = Table::eight();
        for line in [
            "2 3 4 1 5 x 7 6 8",
            "  2\t3 4 1 5 X 7 6 8\r",
            "1 2 3 4 5 6 7 8 0",
            "2 1 3 4 5 6 7 8 x",
            "1 2 3 4 5 6 7 8",
            "1 2 3 4 5 6 7 8 x 9",
            "1 2 3 4 5 6 7 7 x",
            "1 2 3 4 5 6 7 8 9",
            "1 2 3 4 5 6 7 8 x0",
            "1 2 3 4 5 6 7 8 08",
            "1 2 3 4 5 6 7 8 0008",
            "1 2 3 4 5 6 7 8 xx",
            "",
            "1 2 3 4 5 6 7 8 -x",
        ] {
            let mut fast = Vec::new();
            let answered = t.answer_line(line.as_bytes(), &mut fast);
            let general = Board::parse(line).ok().filter(|b| b.shape() == t.shape());
            assert_eq!(answered, general.is_some(), "{line:?}");
            if let Some(b) = general {
                let mut slow = Vec::new();
                if !t.write_letters(&b, &mut slow) {
                    slow.extend_from_slice(b"unsolvable");
                }
                slow.push(b'\n');
                assert_eq!(fast, slow, "{line:?}");
            } else {
                assert!(fast.is_empty());
            }
        }
    }

    /// Tables too deep for packed paths (2×4: 36 moves) answer lines the long way, the same.
    #[test]
    fn answer_lines_without_packed_paths() {
        let shape = Shape::new(2, 4).unwrap();
        let t = Table::build(&Board::goal(shape)).unwrap();
        let lines = [
            "2 1 3 4 5 6 7 x",
            "x 7 6 5 4 3 2 1",
            "1 2 3 4 5 6 x 7",
            "1 2 3",
        ];
        let texts: Vec<&[u8]> = lines.iter().map(|l| l.as_bytes()).collect();
        let mut out = Vec::new();
        assert_eq!(t.answer_lines(&texts, &mut out), 3);
        let mut expected = Vec::new();
        for l in &lines[..3] {
            let b = Board::parse_with_shape(l, Some(shape)).unwrap();
            if !t.write_letters(&b, &mut expected) {
                expected.extend_from_slice(b"unsolvable");
            }
            expected.push(b'\n');
        }
        assert_eq!(out, expected);
    }

    #[test]
    fn eight_table_shape() {
        let t = Table::eight();
        assert_eq!(t.reachable_states(), 181_440);
        assert_eq!(t.max_distance(), 31);
        let b = Board::parse("2 3 4 1 5 x 7 6 8").unwrap();
        let s = t.solve(&b).unwrap();
        s.verify(&b, t.goal()).unwrap();
        assert_eq!(Some(s.len() as u8), t.distance(&b));
        assert_eq!(t.solve(t.goal()).unwrap().len(), 0);
        assert!(
            t.solve(&Board::parse("2 1 3 4 5 6 7 8 x").unwrap())
                .is_none()
        );
    }

    #[test]
    fn walk_matches_paths_on_2x5() {
        // 2x5 has distances beyond 32, so it answers by walking the first-move bytes.
        let shape = Shape::new(5, 2).unwrap();
        let t = Table::build(&Board::goal(shape)).unwrap();
        assert!(t.paths.is_none());
        assert_eq!(t.reachable_states(), 1_814_400);
        let mut b = Board::goal(shape);
        for m in [
            Move::Up,
            Move::Left,
            Move::Left,
            Move::Down,
            Move::Left,
            Move::Up,
        ] {
            b.apply(m);
        }
        let s = t.solve(&b).unwrap();
        s.verify(&b, t.goal()).unwrap();
        assert_eq!(s.len(), 6);
    }
}
