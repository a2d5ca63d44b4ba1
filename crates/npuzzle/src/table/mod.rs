//! Complete tables: every reachable state of a small board with its distance to one goal, so
//! any board is answered optimally without searching.
//!
//! Two layouts, one [`Table`]:
//! - **Boards of up to 10 cells** (3×3, 2×5 …): a reverse breadth-first search in this module,
//!   one byte per Cantor rank of the board's permutation (blank included): the distance in
//!   the high six bits and the first move of an optimal solution in the low two, or
//!   `UNREACHABLE`. When every distance is at most 32 (3×3, whose maximum is 31) the search
//!   also stores, per rank, the whole optimal move sequence packed two bits per move in a
//!   `u64`; answering a board is then one rank and one load, with no walk and no allocation.
//!   States are packed four bits per cell during the build, so 3×3 takes milliseconds.
//! - **12 cells** (3×4, 4×3, 2×6, 6×2: 239,500,800 states): two bits a state, the
//!   distance modulo 3 (`packed`), built in seconds by the two-bit search of
//!   [`crate::space`] and cached on disk beside the pattern databases; answers walk down to
//!   the goal, a few microseconds each.

use crate::board::{Board, Move, Shape, Tile};
use crate::heuristic::pdb::PdbError;
use crate::rank::{factorial, rank};
use crate::solution::Solution;
use crate::space::SweepEvent;
use packed::Packed;
use std::path::Path;
use thiserror::Error;

pub(crate) mod packed;

/// Entry value for a state the goal cannot reach (the other parity class).
pub(crate) const UNREACHABLE: u8 = 0xFF;

/// Boards with more cells than this get no complete table (12 cells: 239,500,800 states).
pub const MAX_TABLE_CELLS: usize = 12;

/// Boards of at most this many cells get a byte per permutation rank, built in a second at
/// most (10 cells: 3.6 M bytes); larger ones the two-bit layout, cached on disk.
pub const MAX_RANKED_CELLS: usize = 10;

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
    /// The system would not give the memory the build needs.
    #[error("the system would not give the {bytes} bytes the table's build needs")]
    NoMemory {
        /// Bytes asked for.
        bytes: u64,
    },
    /// A walk down the table found no way to the goal from a board that can reach it: the
    /// table is damaged (`npuzzle pdb verify` checks every state).
    #[error(
        "the complete table is damaged: a board that can reach the goal has no way down to it (rebuild it: npuzzle pdb build --size WxH --force)"
    )]
    Damaged,
    /// The build was stopped by the caller's flag.
    #[error("stopped before the table was built")]
    Stopped,
    /// The table holds no byte per permutation rank (boards of 12 cells).
    #[error(
        "the {shape} table is kept two bits a state, not a byte per permutation rank (only boards of at most {MAX_RANKED_CELLS} cells have one)"
    )]
    NotRanked {
        /// The board's shape.
        shape: Shape,
    },
}

/// Distances and optimal moves for every state of a small board, toward one goal.
#[derive(Clone, Debug)]
pub struct Table {
    goal: Board,
    store: Store,
    max_distance: u8,
    reachable: u64,
}

/// How a table holds its entries (see the module documentation).
#[derive(Clone, Debug)]
enum Store {
    /// A byte per Cantor rank, and the whole paths when they fit.
    Ranked {
        entries: Vec<u8>,
        paths: Option<Vec<u64>>,
    },
    /// Two bits a reachable state.
    Packed(Box<Packed>),
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

    /// Whether the table of this shape is made in a second at most, in memory (at most
    /// [`MAX_RANKED_CELLS`] cells); larger ones take seconds and are cached.
    pub fn is_quick(shape: Shape) -> bool {
        shape.cells() <= MAX_RANKED_CELLS
    }

    /// Bytes the table of `shape` keeps (on disk too, for cached ones), when it can have one.
    pub fn bytes_for(shape: Shape) -> Option<u64> {
        if Table::is_quick(shape) {
            Some(factorial(shape.cells()))
        } else {
            crate::space::explore_memory(shape).filter(|_| Table::supports(shape))
        }
    }

    /// Runs the reverse breadth-first search from `goal` over every reachable state.
    pub fn build(goal: &Board) -> Result<Table, TableError> {
        Table::build_with(goal, &|_| {}, None)
    }

    /// [`Table::build`], telling `progress` of each layer and of the scan (tables of 11 and
    /// 12 cells, which take seconds; from worker threads), and given up with
    /// [`TableError::Stopped`] once `stop` is set.
    pub fn build_with(
        goal: &Board,
        progress: &(dyn Fn(SweepEvent) + Sync),
        stop: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<Table, TableError> {
        let shape = goal.shape();
        let n = shape.cells();
        if !Table::supports(shape) {
            return Err(TableError::TooLarge { shape });
        }
        if !Table::is_quick(shape) {
            let packed = Packed::build(goal, progress, stop)?;
            return Ok(Table::of_packed(goal, packed));
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
            store: Store::Ranked {
                entries,
                paths: keep_paths.then_some(paths),
            },
            max_distance,
            reachable: queue.len() as u64,
        })
    }

    fn of_packed(goal: &Board, packed: Packed) -> Table {
        Table {
            goal: goal.clone(),
            max_distance: packed.histogram().len().saturating_sub(1) as u8,
            reachable: packed.histogram().iter().sum(),
            store: Store::Packed(Box::new(packed)),
        }
    }

    /// Loads the cached table at `path` for `goal` (any goal whose blank is where the file's
    /// is), checking it as every load does: header, checksum, the entries' meaning. Only
    /// 12-cell tables are kept in files.
    pub fn load(path: &Path, goal: &Board) -> Result<Table, PdbError> {
        Packed::load(path, Some(goal)).map(|p| Table::of_packed(goal, p))
    }

    /// This table answering toward `goal` instead, sharing the entries, when `goal` has the
    /// same size and blank cell (any tile names): how one cached 12-cell table serves every
    /// goal with its blank where the table's is. `None` otherwise, and for tables of at most
    /// 10 cells (rebuilt in a second).
    pub fn renamed(&self, goal: &Board) -> Option<Table> {
        match &self.store {
            Store::Packed(p) => p.renamed(goal).map(|p| Table::of_packed(goal, p)),
            Store::Ranked { .. } => None,
        }
    }

    /// Checks the table file at `path` as loading it does, for whatever goal it names, and
    /// then every state (seconds: a forged file that passes the checksums and the sampled
    /// check on load is caught here); the table toward that goal (tiles in order).
    /// The file must also be named as the cache names the table its header describes.
    pub fn verify(path: &Path) -> Result<Table, PdbError> {
        use crate::heuristic::pdb_file::{PdbCache, check_named, corrupt};
        let packed = Packed::load(path, None)?;
        let goal = packed.goal();
        let cache = PdbCache::new(path.parent().unwrap_or(Path::new("")));
        check_named(
            path,
            &cache.table_path(&goal),
            &format!(
                "the {} table with the blank in cell {}",
                goal.shape(),
                goal.blank()
            ),
        )?;
        packed
            .check_every_state()
            .map_err(|why| corrupt(path, why))?;
        Ok(Table::of_packed(&goal, packed))
    }

    /// Checks a table file's header, checksum and a sample of its entries, as loading does
    /// (`npuzzle pdb info`); [`Table::verify`] checks every state.
    pub fn inspect(path: &Path) -> Result<Table, PdbError> {
        let packed = Packed::load(path, None)?;
        Ok(Table::of_packed(&packed.goal(), packed))
    }

    /// Writes the table to `path` (12 cells; smaller ones are rebuilt in a second
    /// and never saved).
    pub fn save(&self, path: &Path) -> Result<(), PdbError> {
        match &self.store {
            Store::Packed(p) => p.save(path),
            Store::Ranked { .. } => Err(PdbError::Unsupported(format!(
                "the {} table is rebuilt in memory, never saved",
                self.shape()
            ))),
        }
    }

    /// Bytes the entries take in memory.
    pub fn bytes(&self) -> u64 {
        match &self.store {
            Store::Packed(p) => p.bytes(),
            Store::Ranked { entries, paths } => {
                entries.len() as u64 + paths.as_ref().map_or(0, |p| p.len() as u64 * 8)
            }
        }
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
    /// other parity: the whole table as data, e.g. for training a learned heuristic. Only
    /// tables of at most [`MAX_RANKED_CELLS`] cells hold one.
    pub fn distances(&self) -> Result<Vec<u8>, TableError> {
        let Store::Ranked { entries, .. } = &self.store else {
            return Err(TableError::NotRanked {
                shape: self.shape(),
            });
        };
        Ok(entries
            .iter()
            .map(|&e| {
                if e == UNREACHABLE {
                    UNREACHABLE
                } else {
                    e >> 2
                }
            })
            .collect())
    }

    /// `histogram()[d]` = number of states at distance `d`.
    pub fn histogram(&self) -> Vec<u64> {
        let entries = match &self.store {
            Store::Packed(p) => return p.histogram().to_vec(),
            Store::Ranked { entries, .. } => entries,
        };
        let mut h = vec![0u64; self.max_distance as usize + 1];
        for &e in entries {
            if e != UNREACHABLE {
                h[(e >> 2) as usize] += 1;
            }
        }
        h
    }

    #[inline]
    fn rank_of(cells: &[Tile]) -> usize {
        let mut p = [0u8; MAX_TABLE_CELLS];
        for (slot, &t) in p.iter_mut().zip(cells) {
            *slot = t as u8;
        }
        rank(&p[..cells.len()]) as usize
    }

    /// Optimal distance from `board` to the goal, or `None` when it cannot reach it (or a
    /// 12-cell table is found damaged on the way: [`Table::try_solve`] tells them apart).
    /// The board must have the table's shape (other shapes give `None`).
    #[inline]
    pub fn distance(&self, board: &Board) -> Option<u8> {
        if board.shape() != self.shape() {
            return None;
        }
        self.distance_of_cells(board.cells())
    }

    #[inline]
    fn distance_of_cells(&self, cells: &[Tile]) -> Option<u8> {
        match &self.store {
            Store::Ranked { entries, .. } => match entries[Table::rank_of(cells)] {
                UNREACHABLE => None,
                e => Some(e >> 2),
            },
            Store::Packed(p) => p.walk(cells, |_| {}).ok().flatten().map(|d| d as u8),
        }
    }

    /// The optimal distance of the board one input line holds (as [`Table::answer_line`]
    /// reads it): `Some(-1)` when it cannot reach the goal, `None` when the line is not one
    /// valid board of the table's shape.
    #[inline]
    pub fn distance_of_line(&self, line: &[u8]) -> Option<i32> {
        let cells = self.parse_line(line)?;
        let n = self.shape().cells();
        if let Store::Packed(p) = &self.store {
            // A damaged table is left to the general path, which reports it.
            return p
                .walk(&cells[..n], |_| {})
                .ok()?
                .map_or(Some(-1), |d| Some(d as i32));
        }
        Some(self.distance_of_cells(&cells[..n]).map_or(-1, i32::from))
    }

    /// An optimal solution from `board`, or `None` when it cannot reach the goal (or the
    /// table is found damaged: see [`Table::try_solve`]).
    pub fn solve(&self, board: &Board) -> Option<Solution> {
        self.try_solve(board).ok().flatten()
    }

    /// [`Table::solve`], telling a board that cannot reach the goal (`Ok(None)`) from a
    /// table found damaged on the way ([`TableError::Damaged`]).
    pub fn try_solve(&self, board: &Board) -> Result<Option<Solution>, TableError> {
        if board.shape() != self.shape() {
            return Ok(None);
        }
        let mut moves = Vec::new();
        let found = match &self.store {
            Store::Packed(p) => p.walk(board.cells(), |m| moves.push(m))?,
            Store::Ranked { .. } => self.moves_of(board.cells(), |m| moves.push(m)),
        };
        Ok(found.map(|_| Solution::new(moves)))
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
        match &self.store {
            Store::Ranked {
                paths: Some(paths), ..
            } => {
                let w = paths[Table::rank_of(cells)];
                w != 0 && {
                    let (letters, len) = path_letters(w);
                    out.extend_from_slice(&letters[..len]);
                    true
                }
            }
            _ => {
                let mark = out.len();
                let found = self
                    .moves_of(cells, |m| out.push(b"udlr"[m.index()]))
                    .is_some();
                if !found {
                    out.truncate(mark);
                }
                found
            }
        }
    }

    /// The cells of the board one input line holds, when the line is exactly one valid board
    /// of the table's shape (tiles as decimal numbers, `x`, `X` or `0` for the blank, any ASCII
    /// whitespace between); `None` for any other line (another tile count, a bad or repeated
    /// token). No allocation, no intermediate [`Board`].
    #[inline]
    fn parse_line(&self, line: &[u8]) -> Option<[Tile; MAX_TABLE_CELLS]> {
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
        (count == n).then_some(cells)
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
    /// answered. This is the hot path of one-board-per-line input: with whole paths stored
    /// (3×3), lines are taken in groups whose table reads are issued together, so that their
    /// cache misses overlap.
    pub fn answer_lines(&self, lines: &[&[u8]], out: &mut Vec<u8>) -> usize {
        const GROUP: usize = 16;
        let n = self.shape().cells();
        let mut done = 0;
        for group in lines.chunks(GROUP) {
            let mut boards = [[0 as Tile; MAX_TABLE_CELLS]; GROUP];
            let mut k = 0;
            for line in group {
                match self.parse_line(line) {
                    Some(cells) => {
                        boards[k] = cells;
                        k += 1;
                    }
                    None => break,
                }
            }
            if let Store::Ranked {
                paths: Some(paths), ..
            } = &self.store
            {
                let mut words = [0u64; GROUP];
                for j in 0..k {
                    words[j] = paths[Table::rank_of(&boards[j][..n])];
                }
                for &w in &words[..k] {
                    write_path(w, out);
                }
            } else {
                for (j, cells) in boards[..k].iter().enumerate() {
                    if !self.letters_of(&cells[..n], out) {
                        // Unsolvable by parity, or a damaged table: that the general path
                        // tells apart (and reports).
                        if self.goal.shape().cells() > MAX_RANKED_CELLS
                            && crate::parity::is_solvable(
                                &Board::new(self.shape(), &cells[..n])
                                    .unwrap_or_else(|_| self.goal.clone()),
                                &self.goal,
                            )
                            .unwrap_or(false)
                        {
                            return done + j;
                        }
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
        let (entries, paths) = match &self.store {
            Store::Packed(p) => return p.walk(cells, f).ok().flatten(),
            Store::Ranked { entries, paths } => (entries, paths),
        };
        let r = Table::rank_of(cells);
        let e = entries[r];
        if e == UNREACHABLE {
            return None;
        }
        let len = (e >> 2) as usize;
        if let Some(paths) = paths {
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
                e = entries[Table::rank_of(b.cells())];
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
        assert!(matches!(t.store, Store::Ranked { paths: None, .. }));
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
