//! Linear conflict: Manhattan distance plus, for every row and column, two moves for each tile
//! that must step out of the line so that tiles belonging to the line can pass each other.
//!
//! For one line, the tiles whose goal lies in that line must end in goal order; the fewest that
//! must leave is the line's length minus the longest increasing subsequence of their goal
//! positions, and each one that leaves costs two extra moves. Lines are independent (a tile
//! leaving a row moves vertically, which Manhattan distance does not already count for that
//! row), so the sum stays admissible.

use super::manhattan::ManhattanEval;
use super::{Heuristic, Manhattan};
use crate::board::Move;
use crate::board::{BLANK, Board, Shape, Tile};
use crate::search::eval::{Cells, Evaluator, MAX_CELLS, Slide};
use smallvec::SmallVec;

/// Linear conflict toward one goal.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    shape: Shape,
    manhattan: Manhattan,
    /// Goal row and column of each tile.
    goal_row: Vec<u16>,
    goal_col: Vec<u16>,
    /// For lines of at most [`MAX_TABLED_LINE`] cells: the extra moves of every possible line
    /// content, indexed by a mixed-radix key (digit = 1 + goal position along the line for a
    /// tile that belongs to the line, 0 otherwise), so a line costs a few lookups.
    row_table: Vec<u8>,
    col_table: Vec<u8>,
    /// `row_table` followed by `col_table` (empty unless both exist), for [`Self::line_tables`].
    joined_lines: Vec<u8>,
    /// `row_digit[tile * height + r]`, `col_digit[tile * width + c]`: a tile's key digit.
    row_digit: Vec<u8>,
    col_digit: Vec<u8>,
    /// Weight of each position's digit in a row key (`(w+1)^c`) and a column key (`(h+1)^r`).
    row_weight: Vec<usize>,
    col_weight: Vec<usize>,
    /// Row and column of each cell (no division on the hot path).
    cell_row: Vec<u16>,
    cell_col: Vec<u16>,
}

/// Longest line that gets a lookup table ((len+1)^len entries: 117,649 for 6).
const MAX_TABLED_LINE: usize = 6;

/// Extra moves for every key of a line of `len` cells (see [`LinearConflict`]).
fn line_table(len: usize) -> Vec<u8> {
    if len > MAX_TABLED_LINE {
        return Vec::new();
    }
    let size = (len + 1).pow(len as u32);
    (0..size)
        .map(|mut key| {
            let mut seq: SmallVec<[u16; 16]> = SmallVec::new();
            for _ in 0..len {
                let digit = key % (len + 1);
                key /= len + 1;
                if digit > 0 {
                    seq.push(digit as u16 - 1);
                }
            }
            (2 * (seq.len() - lis(&seq))) as u8
        })
        .collect()
}

/// Length of the longest strictly increasing subsequence (patience sorting).
fn lis(seq: &[u16]) -> usize {
    let mut tails: SmallVec<[u16; 16]> = SmallVec::new();
    for &x in seq {
        match tails.binary_search(&x) {
            Ok(_) => {}
            Err(i) if i == tails.len() => tails.push(x),
            Err(i) => tails[i] = x,
        }
    }
    tails.len()
}

impl LinearConflict {
    /// The heuristic for `goal`.
    pub fn new(goal: &Board) -> LinearConflict {
        let shape = goal.shape();
        let n = shape.cells();
        let mut goal_row = vec![u16::MAX; n];
        let mut goal_col = vec![u16::MAX; n];
        for (cell, &t) in goal.cells().iter().enumerate() {
            if t != BLANK {
                goal_row[t as usize] = shape.row(cell) as u16;
                goal_col[t as usize] = shape.column(cell) as u16;
            }
        }
        let (w, h) = (shape.width(), shape.height());
        // Key digits only where the line tables exist (small boards): O(n) memory otherwise.
        let tabled = w <= MAX_TABLED_LINE && h <= MAX_TABLED_LINE;
        let (mut row_digit, mut col_digit) = (Vec::new(), Vec::new());
        if tabled {
            row_digit = vec![0u8; n * h];
            col_digit = vec![0u8; n * w];
            for t in 1..n {
                let (gr, gc) = (goal_row[t] as usize, goal_col[t] as usize);
                row_digit[t * h + gr] = gc as u8 + 1;
                col_digit[t * w + gc] = gr as u8 + 1;
            }
        }
        let row_table = if tabled { line_table(w) } else { Vec::new() };
        let col_table = if tabled { line_table(h) } else { Vec::new() };
        let joined_lines = if tabled {
            [&row_table[..], &col_table[..]].concat()
        } else {
            Vec::new()
        };
        LinearConflict {
            shape,
            manhattan: Manhattan::new(goal),
            goal_row,
            goal_col,
            row_table,
            col_table,
            joined_lines,
            row_digit,
            col_digit,
            // Key weights exist only with the line tables (sides ≤ 6; larger powers overflow).
            row_weight: (0..w)
                .filter(|_| tabled)
                .map(|c| (w + 1).pow(c as u32))
                .collect(),
            col_weight: (0..h)
                .filter(|_| tabled)
                .map(|r| (h + 1).pow(r as u32))
                .collect(),
            cell_row: (0..n).map(|p| shape.row(p) as u16).collect(),
            cell_col: (0..n).map(|p| shape.column(p) as u16).collect(),
        }
    }

    /// Both line tables in one slice (rows, then columns) and where the column table starts,
    /// when both exist (sides ≤ 6): a search keeping column keys offset by that amount reads
    /// either kind of line with one index.
    pub(crate) fn line_tables(&self) -> Option<(&[u8], u32)> {
        (!self.joined_lines.is_empty())
            .then_some((&self.joined_lines[..], self.row_table.len() as u32))
    }

    /// What `tile` standing on `cell` adds to the key of that cell's row and of its column
    /// (zero unless the line is the tile's goal line). Only meaningful with line tables.
    pub(crate) fn key_parts(&self, tile: Tile, cell: usize) -> (u32, u32) {
        let (w, h) = (self.shape.width(), self.shape.height());
        let (r, c) = (self.cell_row[cell] as usize, self.cell_col[cell] as usize);
        let t = tile as usize;
        (
            (self.row_digit[t * h + r] as usize * self.row_weight[c]) as u32,
            (self.col_digit[t * w + c] as usize * self.col_weight[r]) as u32,
        )
    }

    /// The table key of row `r` (tables present).
    #[inline]
    fn row_key(&self, cells: &[Tile], r: usize) -> usize {
        let (w, h) = (self.shape.width(), self.shape.height());
        (0..w).rev().fold(0, |key, c| {
            key * (w + 1) + self.row_digit[cells[r * w + c] as usize * h + r] as usize
        })
    }

    /// The table key of column `c` (tables present).
    #[inline]
    fn col_key(&self, cells: &[Tile], c: usize) -> usize {
        let (w, h) = (self.shape.width(), self.shape.height());
        (0..h).rev().fold(0, |key, r| {
            key * (h + 1) + self.col_digit[cells[r * w + c] as usize * w + c] as usize
        })
    }

    /// Extra moves for row `r`; `subst` replaces the tile in column `subst.0` by `subst.1`.
    #[inline]
    fn row_extra(&self, cells: &[Tile], r: usize, subst: Option<(usize, Tile)>) -> u32 {
        let (w, h) = (self.shape.width(), self.shape.height());
        if !self.row_table.is_empty() {
            let mut key = 0usize;
            for c in (0..w).rev() {
                let t = match subst {
                    Some((sc, st)) if sc == c => st,
                    _ => cells[r * w + c],
                };
                key = key * (w + 1) + self.row_digit[t as usize * h + r] as usize;
            }
            return self.row_table[key] as u32;
        }
        let mut seq: SmallVec<[u16; 16]> = SmallVec::new();
        for c in 0..w {
            let t = match subst {
                Some((sc, st)) if sc == c => st,
                _ => cells[r * w + c],
            };
            if t != BLANK && self.goal_row[t as usize] as usize == r {
                seq.push(self.goal_col[t as usize]);
            }
        }
        2 * (seq.len() - lis(&seq)) as u32
    }

    /// Extra moves for column `c`; `subst` replaces the tile in row `subst.0` by `subst.1`.
    #[inline]
    fn col_extra(&self, cells: &[Tile], c: usize, subst: Option<(usize, Tile)>) -> u32 {
        let (w, h) = (self.shape.width(), self.shape.height());
        if !self.col_table.is_empty() {
            let mut key = 0usize;
            for r in (0..h).rev() {
                let t = match subst {
                    Some((sr, st)) if sr == r => st,
                    _ => cells[r * w + c],
                };
                key = key * (h + 1) + self.col_digit[t as usize * w + c] as usize;
            }
            return self.col_table[key] as u32;
        }
        let mut seq: SmallVec<[u16; 16]> = SmallVec::new();
        for r in 0..self.shape.height() {
            let t = match subst {
                Some((sr, st)) if sr == r => st,
                _ => cells[r * w + c],
            };
            if t != BLANK && self.goal_col[t as usize] as usize == c {
                seq.push(self.goal_row[t as usize]);
            }
        }
        2 * (seq.len() - lis(&seq)) as u32
    }
}

/// The line keys one slide touches (see [`LinearConflictEval`]). Keys live in one array: rows
/// at `0..height`, columns at `KEY_COLS..`.
#[derive(Copy, Clone, Default)]
struct LineStep {
    /// 0 when the tile crosses rows (a vertical slide), 1 when it crosses columns.
    cross: u8,
    /// Keys of the line the tile leaves, the line it enters, and the line it slides along.
    leave: u8,
    enter: u8,
    along: u8,
}

/// Index of column 0's key in the key array.
const KEY_COLS: usize = 8;

/// Linear conflict as the IDA* engine's evaluator, for boards with sides of at most 6 (where
/// the line tables exist): the row and column keys travel with the search and a slide adjusts
/// them by precomputed amounts, so a child costs its Manhattan change and, for the two lines
/// the tile leaves and enters, two table lookups.
pub struct LinearConflictEval {
    md: ManhattanEval,
    /// `part[0][tile][cell]` / `part[1][tile][cell]`: what the tile adds to the key of the
    /// cell's row / column.
    part: [[[u32; MAX_CELLS]; MAX_CELLS]; 2],
    /// Extra moves per line key: the row table, then the column table (column keys carry the
    /// row table's length as an offset).
    extra: Vec<u8>,
    col_offset: u32,
    /// `steps[to][mi]`: the lines touched when a tile slides into `to` with blank move `mi`.
    steps: [[LineStep; 4]; MAX_CELLS],
    shape: Shape,
}

/// The keys that change on entering a child: (index, new key, old key) for the lines the tile
/// leaves, enters and slides along.
#[derive(Copy, Clone)]
pub struct KeyChange([(u8, u32, u32); 3]);

impl LinearConflictEval {
    /// The evaluator for `lc`'s goal, when the board has at most [`MAX_CELLS`] cells and line
    /// tables (sides of at most 6); else `None` (see [`LongLineConflictEval`]).
    pub fn new(lc: &LinearConflict) -> Option<LinearConflictEval> {
        let (extra, col_offset) = lc.line_tables()?;
        let md = ManhattanEval::new(&lc.manhattan)?;
        let shape = lc.shape;
        let mut e = LinearConflictEval {
            md,
            part: [[[0; MAX_CELLS]; MAX_CELLS]; 2],
            extra: extra.to_vec(),
            col_offset,
            steps: [[LineStep::default(); 4]; MAX_CELLS],
            shape,
        };
        let row_key = |cell: usize| shape.row(cell) as u8;
        let col_key = |cell: usize| (KEY_COLS + shape.column(cell)) as u8;
        for cell in 0..shape.cells() {
            for m in Move::ALL {
                // The blank on `cell` moves by `m`: the tile from `from` slides into `cell`.
                if let Some(from) = shape.neighbour(cell, m) {
                    e.steps[cell][m.index()] = if matches!(m, Move::Up | Move::Down) {
                        LineStep {
                            cross: 0,
                            leave: row_key(from),
                            enter: row_key(cell),
                            along: col_key(from),
                        }
                    } else {
                        LineStep {
                            cross: 1,
                            leave: col_key(from),
                            enter: col_key(cell),
                            along: row_key(from),
                        }
                    };
                }
            }
            for tile in 1..shape.cells() {
                (e.part[0][tile][cell], e.part[1][tile][cell]) = lc.key_parts(tile as Tile, cell);
            }
        }
        Some(e)
    }
}

impl Evaluator for LinearConflictEval {
    type State = [u32; 2 * KEY_COLS];
    type Change = KeyChange;

    fn root(&self, cells: &Cells) -> (Self::State, u32) {
        let mut keys = [0u32; 2 * KEY_COLS];
        for c in 0..self.shape.width() {
            keys[KEY_COLS + c] = self.col_offset;
        }
        for cell in 0..self.shape.cells() {
            let t = cells.tiles[cell] as usize;
            keys[self.shape.row(cell)] += self.part[0][t][cell];
            keys[KEY_COLS + self.shape.column(cell)] += self.part[1][t][cell];
        }
        let lines: u32 = keys[..self.shape.height()]
            .iter()
            .chain(&keys[KEY_COLS..KEY_COLS + self.shape.width()])
            .map(|&k| self.extra[k as usize] as u32)
            .sum();
        (keys, self.md.total(cells) + lines)
    }

    #[inline(always)]
    fn probe(
        &self,
        keys: &Self::State,
        _: &Cells,
        h: u32,
        s: Slide,
        limit: u32,
    ) -> Result<(u32, KeyChange), u32> {
        const K: usize = 2 * KEY_COLS - 1;
        let st = self.steps[s.to & (MAX_CELLS - 1)][s.mi & 3];
        let tile = s.tile & (MAX_CELLS - 1);
        let (leave, enter, along) = (
            st.leave as usize & K,
            st.enter as usize & K,
            st.along as usize & K,
        );
        // Only the lines the tile crosses between can change their extra moves.
        let part = &self.part[st.cross as usize & 1][tile];
        let (old_leave, old_enter) = (keys[leave], keys[enter]);
        let key_leave = old_leave - part[s.from & (MAX_CELLS - 1)];
        let key_enter = old_enter + part[s.to & (MAX_CELLS - 1)];
        let ex = &self.extra[..];
        let nh =
            (self.md.after(h, s) + ex[key_leave as usize] as u32 + ex[key_enter as usize] as u32)
                - ex[old_leave as usize] as u32
                - ex[old_enter as usize] as u32;
        if nh > limit {
            return Err(nh);
        }
        // The line the tile slides along keeps its order of tiles (so its extra moves), but the
        // tile's digit moves within its key.
        let part = &self.part[(st.cross as usize & 1) ^ 1][tile];
        let key_along = keys[along]
            .wrapping_add(part[s.to & (MAX_CELLS - 1)])
            .wrapping_sub(part[s.from & (MAX_CELLS - 1)]);
        Ok((
            nh,
            KeyChange([
                (leave as u8, key_leave, old_leave),
                (enter as u8, key_enter, old_enter),
                (along as u8, key_along, keys[along]),
            ]),
        ))
    }

    #[inline(always)]
    fn enter(&self, keys: &mut Self::State, change: &KeyChange) {
        for &(i, new, _) in &change.0 {
            keys[i as usize & (2 * KEY_COLS - 1)] = new;
        }
    }

    #[inline(always)]
    fn leave(&self, keys: &mut Self::State, change: &KeyChange) {
        for &(i, _, old) in &change.0 {
            keys[i as usize & (2 * KEY_COLS - 1)] = old;
        }
    }
}

/// Linear conflict as the IDA* engine's evaluator for boards with a side over 6 (2×8, 3×7,
/// 4×8 …), which have no line tables: each line's extra moves travel with the search, and a
/// slide recomputes only the two lines the tile leaves and enters.
pub struct LongLineConflictEval {
    lc: LinearConflict,
    md: ManhattanEval,
}

/// Index of column 0's extra moves in [`LongLineConflictEval`]'s state.
const LONG_COLS: usize = MAX_CELLS / 2;

impl LongLineConflictEval {
    /// The evaluator for `lc`'s goal (boards of at most [`MAX_CELLS`] cells).
    pub fn new(lc: &LinearConflict) -> Option<LongLineConflictEval> {
        Some(LongLineConflictEval {
            md: ManhattanEval::new(&lc.manhattan)?,
            lc: lc.clone(),
        })
    }

    /// Extra moves of row (`vertical == false`) or column `line`, reading cell `p` as `at(p)`.
    fn line(&self, column: bool, line: usize, at: impl Fn(usize) -> usize) -> u32 {
        let (w, h) = (self.lc.shape.width(), self.lc.shape.height());
        let mut seq: SmallVec<[u16; 16]> = SmallVec::new();
        let len = if column { h } else { w };
        for i in 0..len {
            let cell = if column { i * w + line } else { line * w + i };
            let t = at(cell);
            if t == 0 {
                continue;
            }
            let (goal_line, goal_pos) = if column {
                (self.lc.goal_col[t], self.lc.goal_row[t])
            } else {
                (self.lc.goal_row[t], self.lc.goal_col[t])
            };
            if goal_line as usize == line {
                seq.push(goal_pos);
            }
        }
        2 * (seq.len() - lis(&seq)) as u32
    }
}

impl Evaluator for LongLineConflictEval {
    /// Extra moves per line: rows at `0..height`, columns at `LONG_COLS..`.
    type State = [u8; MAX_CELLS];
    /// (leave line, its new extra, enter line, its new extra, their old extras).
    type Change = [u8; 6];

    fn root(&self, cells: &Cells) -> (Self::State, u32) {
        let mut extras = [0u8; MAX_CELLS];
        let at = |p: usize| cells.tiles[p] as usize;
        let (w, h) = (self.lc.shape.width(), self.lc.shape.height());
        for (r, x) in extras[..h].iter_mut().enumerate() {
            *x = self.line(false, r, at) as u8;
        }
        for (c, x) in extras[LONG_COLS..LONG_COLS + w].iter_mut().enumerate() {
            *x = self.line(true, c, at) as u8;
        }
        let lines: u32 = extras.iter().map(|&x| x as u32).sum();
        (extras, self.md.total(cells) + lines)
    }

    fn probe(
        &self,
        extras: &Self::State,
        cells: &Cells,
        h: u32,
        s: Slide,
        limit: u32,
    ) -> Result<(u32, Self::Change), u32> {
        let (rows, cols) = (&self.lc.cell_row, &self.lc.cell_col);
        let column = rows[s.from] == rows[s.to]; // a horizontal slide crosses columns
        let (leave, enter, base) = if column {
            (cols[s.from] as usize, cols[s.to] as usize, LONG_COLS)
        } else {
            (rows[s.from] as usize, rows[s.to] as usize, 0)
        };
        let at = |p: usize| {
            if p == s.from {
                0
            } else if p == s.to {
                s.tile
            } else {
                cells.tiles[p] as usize
            }
        };
        // Only the tile's own goal line can change its extra moves (at most one of the two).
        let t = s.tile;
        let home = if column {
            self.lc.goal_col[t] as usize
        } else {
            self.lc.goal_row[t] as usize
        };
        let (li, ei) = (
            (base + leave) & (MAX_CELLS - 1),
            (base + enter) & (MAX_CELLS - 1),
        );
        let new_leave = if home == leave {
            self.line(column, leave, at)
        } else {
            extras[li] as u32
        };
        let new_enter = if home == enter {
            self.line(column, enter, at)
        } else {
            extras[ei] as u32
        };
        let nh =
            (self.md.after(h, s) + new_leave + new_enter) - extras[li] as u32 - extras[ei] as u32;
        if nh > limit {
            return Err(nh);
        }
        Ok((
            nh,
            [
                li as u8,
                new_leave as u8,
                ei as u8,
                new_enter as u8,
                extras[li],
                extras[ei],
            ],
        ))
    }

    fn enter(&self, extras: &mut Self::State, c: &Self::Change) {
        extras[c[0] as usize & (MAX_CELLS - 1)] = c[1];
        extras[c[2] as usize & (MAX_CELLS - 1)] = c[3];
    }

    fn leave(&self, extras: &mut Self::State, c: &Self::Change) {
        extras[c[2] as usize & (MAX_CELLS - 1)] = c[5];
        extras[c[0] as usize & (MAX_CELLS - 1)] = c[4];
    }
}

impl Heuristic for LinearConflict {
    fn name(&self) -> &'static str {
        "linear-conflict"
    }

    fn estimate(&self, cells: &[Tile]) -> u32 {
        let rows: u32 = (0..self.shape.height())
            .map(|r| self.row_extra(cells, r, None))
            .sum();
        let cols: u32 = (0..self.shape.width())
            .map(|c| self.col_extra(cells, c, None))
            .sum();
        self.manhattan.estimate(cells) + rows + cols
    }

    #[inline]
    fn delta(&self, cells: &[Tile], tile: Tile, from: usize, to: usize) -> i32 {
        let md = self.manhattan.delta(cells, tile, from, to);
        let s = self.shape;
        let (fr, fc) = (self.cell_row[from] as usize, self.cell_col[from] as usize);
        let (tr, tc) = (self.cell_row[to] as usize, self.cell_col[to] as usize);
        if !self.row_table.is_empty() && !self.col_table.is_empty() {
            // Only the line the tile belongs to can change, and only in the tile's own digit.
            let (w, h) = (s.width(), s.height());
            let t = tile as usize;
            return md
                + if fr == tr {
                    let (gc, r) = (self.goal_col[t] as usize, fr);
                    if gc != fc && gc != tc {
                        return md;
                    }
                    let digit = self.col_digit[t * w + gc] as usize;
                    let weight = self.col_weight[r];
                    let key_after = self.col_key(cells, gc);
                    let after = self.col_table[key_after] as i32;
                    let key_before = if gc == fc {
                        key_after + digit * weight
                    } else {
                        key_after - digit * weight
                    };
                    after - self.col_table[key_before] as i32
                } else {
                    let (gr, c) = (self.goal_row[t] as usize, fc);
                    if gr != fr && gr != tr {
                        return md;
                    }
                    let digit = self.row_digit[t * h + gr] as usize;
                    let weight = self.row_weight[c];
                    let key_after = self.row_key(cells, gr);
                    let after = self.row_table[key_after] as i32;
                    let key_before = if gr == fr {
                        key_after + digit * weight
                    } else {
                        key_after - digit * weight
                    };
                    after - self.row_table[key_before] as i32
                };
        }
        let lines = if fr == tr {
            // Horizontal slide: only columns `fc` and `tc` change.
            let after = self.col_extra(cells, fc, None) + self.col_extra(cells, tc, None);
            let before = self.col_extra(cells, fc, Some((fr, tile)))
                + self.col_extra(cells, tc, Some((tr, BLANK)));
            after as i32 - before as i32
        } else {
            // Vertical slide: only rows `fr` and `tr` change.
            let after = self.row_extra(cells, fr, None) + self.row_extra(cells, tr, None);
            let before = self.row_extra(cells, fr, Some((fc, tile)))
                + self.row_extra(cells, tr, Some((tc, BLANK)));
            after as i32 - before as i32
        };
        md + lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Table;

    #[test]
    fn admissible_and_dominates_manhattan_on_every_3x3_board() {
        let table = Table::eight();
        let goal = table.goal().clone();
        let lc = LinearConflict::new(&goal);
        let md = Manhattan::new(&goal);
        let mut stronger = 0;
        for b in Board::every(goal.shape()) {
            let tiles = b.cells();
            let Some(d) = table.distance(&b) else {
                continue;
            };
            let (h, m) = (lc.estimate(tiles), md.estimate(tiles));
            assert!(h <= d as u32, "{b:?}: lc {h} > {d}");
            assert!(h >= m);
            assert_eq!(
                h % 2,
                d as u32 % 2,
                "parity of the estimate matches the distance"
            );
            stronger += (h > m) as u32;
        }
        assert!(stronger > 50_000);
    }

    #[test]
    fn line_tables_agree_with_direct_computation() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(4);
        for (w, h) in [(4, 4), (5, 5), (3, 6), (6, 2)] {
            let goal = Board::goal(Shape::new(w, h).unwrap());
            let lc = LinearConflict::new(&goal);
            let mut direct = lc.clone();
            direct.row_table.clear();
            direct.col_table.clear();
            for _ in 0..300 {
                let b = crate::random::random_board(goal.shape(), &mut rng);
                assert_eq!(lc.estimate(b.cells()), direct.estimate(b.cells()));
            }
        }
    }

    #[test]
    fn delta_matches_full_estimate() {
        use crate::board::Move;
        use rand::{Rng, SeedableRng, rngs::SmallRng};
        let mut rng = SmallRng::seed_from_u64(3);
        for (w, h) in [(3, 3), (4, 4), (5, 3), (2, 4)] {
            let goal = Board::goal(Shape::new(w, h).unwrap());
            let lc = LinearConflict::new(&goal);
            let md = Manhattan::new(&goal);
            let mut b = crate::random::random_solvable(&goal, &mut rng);
            for _ in 0..2000 {
                let m = Move::ALL[rng.random_range(0..4)];
                let before = b.clone();
                if !b.apply(m) {
                    continue;
                }
                // the tile moved from the blank's new cell into its old one
                let (from, to) = (b.blank(), before.blank());
                let tile = b.tile(to);
                for heur in [&lc as &dyn Heuristic, &md] {
                    let want =
                        heur.estimate(b.cells()) as i32 - heur.estimate(before.cells()) as i32;
                    assert_eq!(
                        heur.delta(b.cells(), tile, from, to),
                        want,
                        "{}",
                        heur.name()
                    );
                }
            }
        }
    }
}
