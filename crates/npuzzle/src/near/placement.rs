//! A constructive solver for boards of any size: quick, always finishes, not optimal.
//!
//! Optimal search is out of reach beyond 4×4 (and for 5×5 only with large databases), but a
//! player on a 10×10 board still wants an answer. This solver peels the board one line at a
//! time, always the row or column farthest from the goal's blank, until at most 3×3 is left:
//!
//! - every tile of the line but the last two is brought home by an exact breadth-first search
//!   over (tile cell, blank cell) inside the still-free region;
//! - the last two tiles go home together, by an exact search over (tile, tile, blank), which
//!   finds the classic corner manoeuvre by itself (also for two cells in the middle of the
//!   line: the near-optimal placements fill a line from both ends, first where tiles are
//!   home already, else where the blank is nearer);
//! - the last region (2×2 to 3×3) is finished optimally with a complete table.
//!
//! Up to [`FULL_SEARCH_CELLS`] cells those searches cover the whole free region. Beyond, a
//! tile travels along a shortest path in hops of a few cells, each an exact search inside a
//! small window around the tile (the blank first walked there), and the last two tiles of a
//! line meet in a window at the corner; time and memory then grow with the answer itself
//! (a 100×100 board in about a second). Each step is exact within its own sub-problem, so no
//! hand-written move sequences are needed.
//!
//! The same peeling serves the near-optimal solver of [`crate::near`], with placements that
//! weigh what each move does to the other tiles (cheapest paths instead of shortest, the tiles
//! of soon-placed lines weighing more on large boards, two tiles at a time on small regions,
//! larger windows) and the last region left to a weighted search.

use super::move_costs::{BUCKETS, MoveCosts, PLAIN};
use super::rect::Rect;
use crate::board::{BLANK, Board, Move, Shape, Tile};
use crate::search::{Budget, Found, Limits, SearchError, Stats};
use crate::solution::Solution;
use crate::table::Table;
use std::collections::VecDeque;

/// Boards up to this many cells place tiles by exact searches over the whole free region;
/// larger ones by short hops, each an exact search inside a small window (see
/// `Placer::place_far`), so that time and memory grow with the answer.
pub(crate) const FULL_SEARCH_CELLS: usize = 256;

/// The largest board this solver takes (128×128 or anything of at most as many cells).
pub(crate) const MAX_LARGE_CELLS: usize = 16_384;

/// The largest `cells × (width + height)` taken: answers grow about as `2.3 × cells ×
/// (width + height)` moves at worst (a reversed board), and must stay within
/// [`crate::solution::MAX_SOLUTION_MOVES`]; 128×128 is 4.2 M, 256×64 (5.2 M) is refused.
pub(crate) const MAX_LARGE_SPAN: usize = 128 * 128 * 256;

/// When placements weigh the other tiles, the last two tiles of a line are searched together
/// over the whole free region only up to this many free cells (the search holds `cells³`
/// states); beyond, in a window at the corner.
const PAIR_FULL_CELLS: usize = 144;

/// When placements weigh the other tiles and at most this many cells are free, the tiles of
/// a line are placed two at a time (one search over both tiles and the blank: about 10% shorter
/// answers on 10×10, twice the time).
const PAIRED_LINE_CELLS: usize = 120;

/// Cells a tile advances along its path per windowed search (shortest placements).
const HOP: usize = 3;

/// Tracks the board, the moves so far and the figures.
struct Placer<'a> {
    board: Board,
    /// `at[t]`: the cell of tile `t` (`at[0]` is the blank).
    at: Vec<usize>,
    moves: Vec<Move>,
    locked: Vec<bool>,
    stats: Stats,
    budget: Budget<'a>,
    /// Scratch for searches over cells: the window index of each cell (`u32::MAX` outside),
    /// and per-cell marks stamped with a generation so they need no clearing.
    local: Vec<u32>,
    came_by: Vec<u8>,
    /// Cost so far of each state of the current placement search.
    dist: Vec<u32>,
    /// `home[t]`: the goal cell of tile `t`.
    home: Vec<usize>,
    /// Whether a placement weighs what its moves do to the other tiles (priced by `costs`)
    /// instead of counting moves.
    weigh_others: bool,
    /// What a move costs a weighing placement.
    costs: MoveCosts,
    /// See [`Placement::WeighOthers`].
    whole_cells: usize,
    stamp: Vec<u32>,
    /// Cost of the cheapest walk to each cell in [`Placer::blank_path`] (valid where `stamp`
    /// is current).
    cell_cost: Vec<u32>,
    generation: u32,
    parent: Vec<u32>,
}

impl Placer<'_> {
    fn play(&mut self, moves: &[Move]) {
        let shape = self.board.shape();
        for &m in moves {
            let blank = self.board.blank();
            if let Some(to) = shape.neighbour(blank, m) {
                let t = self.board.tile(to);
                self.board.apply(m);
                self.at[t as usize] = blank;
                self.at[0] = to;
            }
        }
        self.moves.extend_from_slice(moves);
    }

    fn check(&mut self) -> Result<(), SearchError> {
        if self.moves.len() > crate::solution::MAX_SOLUTION_MOVES {
            return Err(SearchError::Unsupported(format!(
                "the answer would pass {} moves",
                crate::solution::MAX_SOLUTION_MOVES
            )));
        }
        // The stored-state limit bounds searches whose memory grows with what they keep; this
        // solver's memory is bounded by construction (its placement searches use at most
        // FULL_SEARCH_CELLS³ bytes, then windows), so only time, nodes and cancellation apply.
        // Called every few thousand states: the clock and the cancel flag are read each time.
        Ok(self.budget.enforce_now(&mut self.stats, 0)?)
    }

    /// How far the blank is from the nearest of the goal's tiles for `cells`: a line fills
    /// next at the end whose tile the blank reaches first. (Adding the tiles' own distances
    /// home, weighted 1 to 12, gave longer answers on every size measured: 10×10 2.392 against
    /// 2.359, 30×30 2.770 against 2.742 with weight 3, `bench large` seed 1.)
    fn blank_reach(&self, goal: &Board, cells: &[usize]) -> usize {
        let shape = self.board.shape();
        cells
            .iter()
            .map(|&c| shape.distance(self.at[0], self.at[goal.tile(c) as usize]))
            .min()
            .unwrap_or(0)
    }

    fn stuck(&self, tile: Tile) -> SearchError {
        SearchError::Unsupported(format!(
            "the line-by-line placement could not place tile {tile} on this {} board",
            self.board.shape()
        ))
    }

    /// Brings the given tiles (one or two) to their targets without entering locked cells.
    fn place(&mut self, tiles: &[(Tile, usize)]) -> Result<(), SearchError> {
        let free_cells = self.locked.iter().filter(|&&l| !l).count();
        let whole = self.board.shape().cells() <= FULL_SEARCH_CELLS
            && (tiles.len() == 1 || !self.weigh_others || free_cells <= PAIR_FULL_CELLS);
        if whole {
            let free: Vec<usize> = (0..self.locked.len())
                .filter(|&c| !self.locked[c])
                .collect();
            return match self.place_in(tiles, &free)? {
                true => Ok(()),
                false => Err(self.stuck(tiles[0].0)),
            };
        }
        match *tiles {
            [(a, ta)] => self.place_far(a, ta),
            [(a, x), (b, y)] => self.place_pair_far((a, x), (b, y)),
            _ => Ok(()),
        }
    }

    /// The unlocked cells of `area`.
    fn window(&self, area: Rect) -> Vec<usize> {
        area.cells(self.board.shape())
            .filter(|&c| !self.locked[c])
            .collect()
    }

    /// A new generation of cell marks.
    fn fresh_marks(&mut self) -> u32 {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.generation = 1;
        }
        self.generation
    }

    /// Breadth-first search over unlocked cells from `from`, never through `avoid`, to the
    /// first cell `goal` accepts; the cells of the path (start excluded), or `None`.
    fn cell_path(
        &mut self,
        from: usize,
        avoid: &[usize],
        goal: impl Fn(usize) -> bool,
    ) -> Option<Vec<usize>> {
        let shape = self.board.shape();
        let g = self.fresh_marks();
        self.stamp[from] = g;
        let mut queue = VecDeque::from([from]);
        while let Some(c) = queue.pop_front() {
            if goal(c) {
                return Some(self.cells_back(from, c));
            }
            for m in Move::ALL {
                let Some(nb) = shape.neighbour(c, m) else {
                    continue;
                };
                if self.locked[nb] || self.stamp[nb] == g || avoid.contains(&nb) {
                    continue;
                }
                self.stamp[nb] = g;
                self.parent[nb] = c as u32;
                queue.push_back(nb);
            }
        }
        None
    }

    /// The cells from `from` (excluded) to `to`, following `parent` links back from `to`.
    fn cells_back(&self, from: usize, to: usize) -> Vec<usize> {
        let mut path = vec![to];
        let mut at = to;
        while at != from {
            at = self.parent[at] as usize;
            path.push(at);
        }
        path.pop();
        path.reverse();
        path
    }

    /// The blank's cheapest walk over unlocked cells, never through `avoid`, to the first cell
    /// `goal` accepts, each move costed as in the weighed placements by what it does to the
    /// tile it moves (known exactly: a shortest walk never revisits a cell); the cells of the
    /// walk (start excluded), or `None`.
    fn blank_path(&mut self, avoid: &[usize], goal: impl Fn(usize) -> bool) -> Option<Vec<usize>> {
        let shape = self.board.shape();
        let from = self.at[0];
        let g = self.fresh_marks();
        if self.cell_cost.len() < self.locked.len() {
            self.cell_cost.resize(self.locked.len(), 0);
        }
        self.stamp[from] = g;
        self.cell_cost[from] = 0;
        let mut buckets: [VecDeque<usize>; BUCKETS] = Default::default();
        buckets[0].push_back(from);
        let (mut d, mut pending) = (0u32, 1usize);
        while pending > 0 {
            let Some(c) = buckets[d as usize % BUCKETS].pop_front() else {
                d += 1;
                continue;
            };
            pending -= 1;
            if self.cell_cost[c] != d {
                continue;
            }
            if goal(c) {
                return Some(self.cells_back(from, c));
            }
            for m in Move::ALL {
                let Some(nb) = shape.neighbour(c, m) else {
                    continue;
                };
                if self.locked[nb] || avoid.contains(&nb) {
                    continue;
                }
                let tile = self.board.tile(nb);
                let home = self.home[tile as usize];
                let cost = self
                    .costs
                    .of(tile, shape.distance(c, home) < shape.distance(nb, home));
                let nd = d + cost;
                if self.stamp[nb] == g && self.cell_cost[nb] <= nd {
                    continue;
                }
                self.stamp[nb] = g;
                self.cell_cost[nb] = nd;
                self.parent[nb] = c as u32;
                buckets[nd as usize % BUCKETS].push_back(nb);
                pending += 1;
            }
        }
        None
    }

    /// Walks the blank into `area` without passing through `avoid`.
    fn bring_blank(&mut self, area: Rect, avoid: &[usize]) -> Result<(), SearchError> {
        let shape = self.board.shape();
        let inside = |c: usize| area.contains(shape, c);
        let path = if self.weigh_others {
            self.blank_path(avoid, inside)
        } else {
            self.cell_path(self.at[0], avoid, inside)
        }
        .ok_or_else(|| self.stuck(BLANK))?;
        let mut moves = Vec::with_capacity(path.len());
        let mut at = self.at[0];
        for c in path {
            let m = Move::ALL
                .into_iter()
                .find(|&m| shape.neighbour(at, m) == Some(c))
                .ok_or_else(|| self.stuck(BLANK))?;
            moves.push(m);
            at = c;
        }
        self.stats.expanded += moves.len() as u64;
        self.play(&moves);
        Ok(())
    }

    /// Large boards: tile `a` travels along a shortest path to `ta` in hops of [`HOP`] cells,
    /// each an exact search in a window around the tile and the hop's end (widened when the
    /// window is too tight).
    fn place_far(&mut self, a: Tile, ta: usize) -> Result<(), SearchError> {
        let target = ta;
        if self.weigh_others {
            // One search over the rectangle around the tile, its target and the blank, when
            // that is small enough: the blank's approach is weighed too.
            let around = [self.at[a as usize], ta, self.at[0]];
            let area = Rect::around(self.board.shape(), &around, 2);
            if area.len() <= self.whole_cells {
                let cells = self.window(area);
                if self.place_in(&[(a, ta)], &cells)? {
                    return Ok(());
                }
            }
        }
        let path = match self.weigh_others {
            // A staircase costs the blank about 3 moves per step of the tile, a straight line 5.
            true => self.staircase(self.at[a as usize], ta),
            false => None,
        };
        let path = match path {
            Some(p) => p,
            None => self
                .cell_path(self.at[a as usize], &[], |c| c == target)
                .ok_or_else(|| self.stuck(a))?,
        };
        let mut i = 0;
        // Weighed placements take longer hops in wider windows (measured on 50×50: 3.11 times
        // the Manhattan bound with hops of 3, 2.98 with 5).
        let (hop_cells, margins): (usize, &[usize]) = match self.weigh_others {
            true => (5, &[3, 4, 6, 8]),
            false => (HOP, &[1, 2, 4, 8]),
        };
        while self.at[a as usize] != ta {
            let hop_i = (i + hop_cells).min(path.len()) - 1;
            let hop = path[hop_i];
            let around = [self.at[a as usize], hop];
            if !self.place_windowed(&[(a, hop)], &around, margins)? {
                return Err(self.stuck(a));
            }
            i = hop_i + 1;
            self.check()?;
        }
        Ok(())
    }

    /// A shortest path from `from` to `to` that alternates row and column steps while both
    /// differ (the tile's cheapest route), or `None` when it would cross a locked cell.
    fn staircase(&self, from: usize, to: usize) -> Option<Vec<usize>> {
        let shape = self.board.shape();
        let (tr, tc) = (shape.row(to), shape.column(to));
        let mut at = from;
        let mut path = Vec::with_capacity(shape.distance(from, to));
        while at != to {
            let (r, c) = (shape.row(at), shape.column(at));
            let (dr, dc) = (r.abs_diff(tr), c.abs_diff(tc));
            let vertical = dr > dc || (dr == dc && path.len() % 2 == 0);
            let m = match (vertical, r < tr, c < tc) {
                (true, true, _) => Move::Down,
                (true, false, _) => Move::Up,
                (false, _, true) => Move::Right,
                (false, _, false) => Move::Left,
            };
            at = shape.neighbour(at, m)?;
            if self.locked[at] {
                return None;
            }
            path.push(at);
        }
        Some(path)
    }

    /// Large boards: the last two tiles of a line. `a` goes home to `x`; then, with `x` held,
    /// `b` goes next to `y` on the side away from the line; then one exact search in a small
    /// window around the corner finishes both (the classic corner manoeuvre).
    fn place_pair_far(
        &mut self,
        (a, x): (Tile, usize),
        (b, y): (Tile, usize),
    ) -> Result<(), SearchError> {
        if self.at[a as usize] == x && self.at[b as usize] == y {
            return Ok(());
        }
        let shape = self.board.shape();
        let inward = Move::ALL
            .into_iter()
            .filter_map(|m| shape.neighbour(y, m))
            .find(|&c| c != x && !self.locked[c])
            .ok_or_else(|| self.stuck(b))?;
        self.place_far(a, x)?;
        if self.at[b as usize] != y {
            self.locked[x] = true;
            let result = self.place_far(b, inward);
            self.locked[x] = false;
            result?;
        }
        let around = [x, y, self.at[b as usize]];
        match self.place_windowed(&[(a, x), (b, y)], &around, &[1, 2, 3, 5])? {
            true => Ok(()),
            false => Err(self.stuck(b)),
        }
    }

    /// [`Placer::place_in`] inside the rectangle around `around` grown by each of `margins`
    /// in turn, the blank first walked there without moving the tiles: `Ok(false)` when even
    /// the widest window does not allow it.
    fn place_windowed(
        &mut self,
        tiles: &[(Tile, usize)],
        around: &[usize],
        margins: &[usize],
    ) -> Result<bool, SearchError> {
        let hold: Vec<usize> = tiles.iter().map(|&(t, _)| self.at[t as usize]).collect();
        for &margin in margins {
            let area = Rect::around(self.board.shape(), around, margin);
            self.bring_blank(area, &hold)?;
            let cells = self.window(area);
            if self.place_in(tiles, &cells)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Exact search moving the given tiles (one or two) to their targets with the blank, all
    /// inside `cells` (unlocked): breadth-first for the fewest moves, or cheapest-first when
    /// placements weigh the other tiles. `Ok(false)` when the window does not allow it.
    fn place_in(&mut self, tiles: &[(Tile, usize)], cells: &[usize]) -> Result<bool, SearchError> {
        let (a, ta) = tiles[0];
        let two = tiles.len() == 2;
        let (b, tb) = if two { tiles[1] } else { (BLANK, 0) };
        let start = (
            self.at[a as usize],
            if two { self.at[b as usize] } else { 0 },
            self.at[0],
        );
        if start.0 == ta && (!two || start.1 == tb) {
            return Ok(true);
        }
        for (i, &c) in cells.iter().enumerate() {
            self.local[c] = i as u32;
        }
        let found = self.search_window(cells, ta, (two, tb), start);
        for &c in cells {
            self.local[c] = u32::MAX;
        }
        let Some(path) = found? else {
            return Ok(false);
        };
        self.play(&path);
        Ok(true)
    }

    /// The search of [`Placer::place_in`], with `local` set for the window.
    fn search_window(
        &mut self,
        cells: &[usize],
        ta: usize,
        (two, tb): (bool, usize),
        start: (usize, usize, usize),
    ) -> Result<Option<Vec<Move>>, SearchError> {
        let shape = self.board.shape();
        let m = cells.len();
        let local = |c: usize| self.local[c] as usize;
        if [start.0, start.2]
            .iter()
            .chain(two.then_some(&start.1))
            .any(|&c| self.local[c] == u32::MAX)
            || self.local[ta] == u32::MAX
            || (two && self.local[tb] == u32::MAX)
        {
            return Ok(None);
        }
        let (lta, ltb) = (local(ta), if two { local(tb) } else { 0 });
        // State index: ((a * m) + b) * m + blank, in window indices; b is 0 for one tile.
        let size = if two { m * m * m } else { m * m };
        let index = |pa: usize, pb: usize, bl: usize| (pa * if two { m } else { 1 } + pb) * m + bl;
        const UNSEEN: u8 = 0xFF;
        self.came_by.clear();
        self.came_by.resize(size, UNSEEN);
        // Shortest placements need no costs: a state is settled when first reached.
        self.dist.clear();
        if self.weigh_others {
            self.dist.resize(size, u32::MAX);
        }
        let s = (
            local(start.0),
            if two { local(start.1) } else { 0 },
            local(start.2),
        );
        let start_cells = [start.0, start.1, start.2];
        self.came_by[index(s.0, s.1, s.2)] = 4;
        if self.weigh_others {
            self.dist[index(s.0, s.1, s.2)] = 0;
        }
        // Dial's algorithm: costs are less than BUCKETS, so BUCKETS buckets in turn hold every
        // open state (all within the dearest move of the cost being settled).
        let mut buckets: [VecDeque<(usize, usize, usize)>; BUCKETS] = Default::default();
        buckets[0].push_back(s);
        let mut d = 0u32;
        let mut end = None;
        let mut pending = 1usize;
        'search: while pending > 0 {
            let Some((pa, pb, bl)) = buckets[d as usize % BUCKETS].pop_front() else {
                d += 1;
                continue;
            };
            pending -= 1;
            if self.weigh_others && self.dist[index(pa, pb, bl)] != d {
                continue; // reached more cheaply since
            }
            if pa == lta && (!two || pb == ltb) {
                end = Some((pa, pb, bl));
                break 'search;
            }
            self.stats.expanded += 1;
            // The node limit is compared on every state (the clock every few thousand).
            self.budget.enforce(&mut self.stats, 0)?;
            for mv in Move::ALL {
                let Some(nb_cell) = shape.neighbour(cells[bl], mv) else {
                    continue;
                };
                let nb = self.local[nb_cell];
                if nb == u32::MAX {
                    continue;
                }
                let nb = nb as usize;
                let na = if nb == pa { bl } else { pa };
                let npb = if two && nb == pb { bl } else { pb };
                let i = index(na, npb, nb);
                let cost = if !self.weigh_others {
                    1
                } else {
                    // The tile that slides, as far as the board before this search tells.
                    let tile = if nb == pa {
                        Some(self.board.tile(start.0))
                    } else if two && nb == pb {
                        Some(self.board.tile(start.1))
                    } else if start_cells.contains(&nb_cell) {
                        None
                    } else {
                        Some(self.board.tile(nb_cell))
                    };
                    match tile {
                        Some(t) => {
                            let home = self.home[t as usize];
                            let before = shape.distance(nb_cell, home);
                            let after = shape.distance(cells[bl], home);
                            self.costs.of(t, after < before)
                        }
                        None => PLAIN,
                    }
                };
                let nd = d + cost;
                if self.weigh_others {
                    if nd >= self.dist[i] {
                        continue;
                    }
                    self.dist[i] = nd;
                } else if self.came_by[i] != UNSEEN {
                    continue;
                }
                self.came_by[i] = mv.index() as u8;
                self.stats.generated += 1;
                // Breadth-first (no costs): the first time the targets are reached is the
                // shortest.
                if !self.weigh_others && na == lta && (!two || npb == ltb) {
                    end = Some((na, npb, nb));
                    break 'search;
                }
                buckets[nd as usize % BUCKETS].push_back((na, npb, nb));
                pending += 1;
            }
        }
        self.stats.peak_stored = self.stats.peak_stored.max(size as u64);
        let Some((mut pa, mut pb, mut bl)) = end else {
            return Ok(None);
        };
        // Walk back to the start, undoing each blank move.
        let mut path = Vec::new();
        loop {
            let mv = self.came_by[index(pa, pb, bl)];
            if mv == 4 {
                break;
            }
            let mv = Move::from_index(mv as usize);
            path.push(mv);
            let prev = shape
                .neighbour(cells[bl], mv.inverse())
                .map_or(bl, |c| self.local[c] as usize);
            if pa == prev {
                pa = bl;
            } else if two && pb == prev {
                pb = bl;
            }
            bl = prev;
        }
        path.reverse();
        Ok(Some(path))
    }
}

/// A board partly solved by peeling lines: everything outside `region` is home.
pub(crate) struct Reduced {
    /// The board after the peeling moves.
    pub board: Board,
    /// The moves so far.
    pub moves: Vec<Move>,
    /// What they cost to find.
    pub stats: Stats,
    /// The rows and columns still to solve.
    pub region: Rect,
}

/// How [`reduce`] places tiles.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Placement {
    /// Fewest moves for each placement.
    Shortest,
    /// Fewest moves once what they do to the other tiles is counted (see [`MoveCosts`]; the
    /// board's contents as they were before the placement). On boards past
    /// [`FULL_SEARCH_CELLS`], a tile whose rectangle with its target and the blank has at
    /// most `whole_cells` cells is placed by one search over that rectangle (larger: slower,
    /// shorter), others in hops.
    WeighOthers {
        /// See above.
        whole_cells: usize,
        /// With `Some(k)`, the tiles of the next `k` lines weigh more than the others
        /// ([`MoveCosts::soon`]); `None`: all alike.
        soon_lines: Option<usize>,
    },
}

/// Peels lines off `start` (see the module docs) until `small(rows, columns)` holds for the
/// region left, which always keeps the goal's blank, or `max_lines` lines are placed (the
/// soon lines of [`Placement::WeighOthers`] still count from the whole peeling to `small`).
pub(crate) fn reduce(
    start: &Board,
    goal: &Board,
    limits: &Limits,
    placement: Placement,
    small: impl Fn(usize, usize) -> bool,
    max_lines: usize,
) -> Result<Reduced, SearchError> {
    crate::search::check_solvable(start, goal)?;
    let shape = start.shape();
    let n = shape.cells();
    if n > MAX_LARGE_CELLS || n * (shape.width() + shape.height()) > MAX_LARGE_SPAN {
        return Err(SearchError::Unsupported(format!(
            "boards past 128x128 are not taken (at most {MAX_LARGE_CELLS} cells, and no longer sides for as many cells: answers would pass {} moves), not {shape}",
            crate::solution::MAX_SOLUTION_MOVES
        )));
    }
    let mut at = vec![0usize; n];
    for (cell, &t) in start.cells().iter().enumerate() {
        at[t as usize] = cell;
    }
    let mut home = vec![0usize; n];
    for (cell, &t) in goal.cells().iter().enumerate() {
        home[t as usize] = cell;
    }
    let mut b = Placer {
        board: start.clone(),
        at,
        moves: Vec::new(),
        locked: vec![false; n],
        stats: Stats::default(),
        budget: Budget::new(limits),
        local: vec![u32::MAX; n],
        came_by: Vec::new(),
        dist: Vec::new(),
        home,
        weigh_others: placement != Placement::Shortest,
        whole_cells: match placement {
            Placement::WeighOthers { whole_cells, .. } => whole_cells,
            Placement::Shortest => 0,
        },
        costs: match placement {
            Placement::WeighOthers {
                soon_lines: Some(k),
                ..
            } => MoveCosts::soon(goal, &peel_priority(goal, &small), k),
            _ => MoveCosts::alike(),
        },
        stamp: vec![0; n],
        cell_cost: vec![0; n],
        generation: 0,
        parent: vec![0; n],
    };
    let mut region = Region::whole(shape);
    let mut lines_done = 0;
    while lines_done < max_lines
        && let Some(line) = region.peel(goal, &small)
    {
        lines_done += 1;
        let k = line.len();
        let free = b.locked.iter().filter(|&&l| !l).count();
        // On small regions, weighed placements take two neighbouring tiles at a time: the
        // blank serves both on one route.
        let step = if b.weigh_others && free <= PAIRED_LINE_CELLS {
            2
        } else {
            1
        };
        // A line fills from both ends (when placements weigh the other tiles: next at an end
        // already home, else at the end whose tile the blank reaches first), until two
        // neighbouring cells are left. The open cells stay one run: one or two open cells
        // between locked ones could not be filled.
        let (mut lo, mut hi) = (0usize, k - 1);
        while hi - lo + 1 > 2 {
            let n = if hi - lo + 1 >= 4 { step } else { 1 };
            let ends = [
                (lo..lo + n).map(|j| line[j]).collect::<Vec<_>>(),
                (hi + 1 - n..=hi).rev().map(|j| line[j]).collect::<Vec<_>>(),
            ];
            // An end whose tiles are home already is taken first (it costs nothing), so that
            // the line closes where tiles are missing; else the end the blank reaches first.
            let home = |cells: &[usize]| cells.iter().all(|&c| b.board.tile(c) == goal.tile(c));
            let right = b.weigh_others
                && match (home(&ends[0]), home(&ends[1])) {
                    (false, true) => true,
                    (true, false) => false,
                    _ => b.blank_reach(goal, &ends[1]) < b.blank_reach(goal, &ends[0]),
                };
            let tiles: Vec<(Tile, usize)> = ends[right as usize]
                .iter()
                .map(|&c| (goal.tile(c), c))
                .collect();
            b.place(&tiles)?;
            for &(_, cell) in &tiles {
                b.locked[cell] = true;
            }
            if right {
                hi -= n;
            } else {
                lo += n;
            }
        }
        // A cell at the line's end is the pair's second, as the corner manoeuvre expects.
        let (x, y) = if lo == 0 && hi + 1 < k {
            (line[1], line[0])
        } else {
            (line[lo], line[hi])
        };
        b.place(&[(goal.tile(x), x), (goal.tile(y), y)])?;
        b.locked[x] = true;
        b.locked[y] = true;
        b.costs.line_placed();
        b.check()?;
    }
    Ok(Reduced {
        board: b.board,
        moves: b.moves,
        stats: b.stats,
        region: region.rect,
    })
}

/// The rows and columns still to solve while peeling.
#[derive(Clone, Copy, Debug)]
struct Region {
    rect: Rect,
    shape: Shape,
}

impl Region {
    fn whole(shape: Shape) -> Region {
        Region {
            rect: Rect::whole(shape),
            shape,
        }
    }

    /// Takes the next line off the region and returns its cells, in order along the line;
    /// `None` once `small(rows, columns)` holds or 2×2 is left. The line is one of the
    /// longer dimension (a row when there are more rows), the one farther from `goal`'s
    /// blank, which therefore always stays in the region.
    fn peel(&mut self, goal: &Board, small: impl Fn(usize, usize) -> bool) -> Option<Vec<usize>> {
        let shape = self.shape;
        let (br, bc) = (shape.row(goal.blank()), shape.column(goal.blank()));
        let Rect { r0, r1, c0, c1 } = &mut self.rect;
        if small(*r1 - *r0, *c1 - *c0) || (*r1 - *r0 <= 2 && *c1 - *c0 <= 2) {
            return None;
        }
        Some(if *r1 - *r0 >= *c1 - *c0 {
            let row = if br - *r0 >= *r1 - 1 - br {
                *r0 += 1;
                *r0 - 1
            } else {
                *r1 -= 1;
                *r1
            };
            (*c0..*c1).map(|c| row * shape.width() + c).collect()
        } else {
            let col = if bc - *c0 >= *c1 - 1 - bc {
                *c0 += 1;
                *c0 - 1
            } else {
                *c1 -= 1;
                *c1
            };
            (*r0..*r1).map(|r| r * shape.width() + col).collect()
        })
    }
}

/// For every cell of `goal`'s board, how soon [`reduce`] peels it (stopping where `small`
/// holds): the first line's cells get the number of lines peeled, the next line's one less,
/// and so on to 1 for the last line; cells left in the region get 0.
pub(crate) fn peel_priority(goal: &Board, small: impl Fn(usize, usize) -> bool) -> Vec<usize> {
    let mut region = Region::whole(goal.shape());
    let mut order = Vec::new();
    while let Some(line) = region.peel(goal, &small) {
        order.push(line);
    }
    let mut priority = vec![0; goal.shape().cells()];
    for (i, line) in order.iter().enumerate() {
        for &cell in line {
            priority[cell] = order.len() - i;
        }
    }
    priority
}

impl Reduced {
    /// The region left as a board of its own, with the goal's tiles there renamed 1, 2, …
    /// in goal order: `(start, goal)`.
    pub fn region(&self, goal: &Board) -> Result<(Board, Board), SearchError> {
        let shape = goal.shape();
        let mut rename = vec![BLANK; shape.cells()];
        let mut next: Tile = 1;
        for cell in self.region.cells(shape) {
            let t = goal.tile(cell);
            if t != BLANK {
                rename[t as usize] = next;
                next += 1;
            }
        }
        let rename = |t: Tile| rename[t as usize];
        Ok((
            self.region.cut(&self.board, rename)?,
            self.region.cut(goal, rename)?,
        ))
    }

    /// Appends the region's solution (moves inside the region are the same moves on the
    /// whole board) and its figures.
    pub fn finish(mut self, rest: &[Move], stats: &Stats, started: std::time::Instant) -> Found {
        self.moves.extend_from_slice(rest);
        self.stats.absorb(stats);
        self.stats.elapsed = started.elapsed();
        (Solution::new(self.moves), self.stats)
    }
}

/// Solves `start` toward `goal` constructively (see the module docs); not optimal.
pub(crate) fn solve_large(
    start: &Board,
    goal: &Board,
    limits: &Limits,
) -> Result<Found, SearchError> {
    let started = std::time::Instant::now();
    let reduced = reduce(
        start,
        goal,
        limits,
        Placement::Shortest,
        |r, c| r <= 3 && c <= 3,
        usize::MAX,
    )?;
    // Finish the last region optimally with a complete table of that small board.
    let (sub_start, sub_goal) = reduced.region(goal)?;
    let table = Table::build(&sub_goal).map_err(|e| SearchError::Unsupported(e.to_string()))?;
    let Some(rest) = table.solve(&sub_start) else {
        return Err(SearchError::Unsolvable);
    };
    let stats = Stats {
        expanded: rest.len() as u64,
        peak_stored: table.reachable_states(),
        ..Stats::default()
    };
    Ok(reduced.finish(rest.moves(), &stats, started))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn weighed_peeling_fills_lines_from_both_ends() {
        // Lines filled from either end leave their last pair at the left end, the right end
        // or in the middle; every peeled cell must hold its goal tile and the moves must
        // replay to the reduced board, past FULL_SEARCH_CELLS too (windowed corner pairs).
        let mut rng = rand::rngs::SmallRng::seed_from_u64(21);
        for (w, h) in [(10, 10), (9, 7), (30, 30), (40, 7), (7, 40)] {
            let shape = Shape::new(w, h).unwrap();
            for round in 0..3 {
                let goal = crate::random::random_board(shape, &mut rng);
                let b = crate::random::random_solvable(&goal, &mut rng);
                // Tiles of soon-placed lines weighing more or all alike.
                let placement = Placement::WeighOthers {
                    whole_cells: 400,
                    soon_lines: (round > 0).then_some(5 * round),
                };
                let r = reduce(
                    &b,
                    &goal,
                    &Limits::default(),
                    placement,
                    |r, c| r * c <= 25,
                    usize::MAX,
                )
                .unwrap();
                let mut replay = b.clone();
                for &m in &r.moves {
                    replay.apply(m);
                }
                assert_eq!(replay, r.board);
                for c in 0..shape.cells() {
                    let inside = r.region.contains(shape, c);
                    if !inside {
                        assert_eq!(r.board.tile(c), goal.tile(c), "{shape} cell {c}");
                    }
                }
            }
        }
    }

    #[test]
    fn peel_priority_follows_the_peeling_order() {
        // 10×10, blank last: row 0 first, then column 0, row 1, column 1 … down to 5×5.
        let shape = Shape::new(10, 10).unwrap();
        let p = peel_priority(&Board::goal(shape), |r, c| r * c <= 25);
        let at = |r: usize, c: usize| p[r * 10 + c];
        assert!((0..10).all(|c| at(0, c) == 10));
        assert!((1..10).all(|r| at(r, 0) == 9));
        assert!((1..10).all(|c| at(1, c) == 8));
        assert_eq!((at(4, 4), at(5, 4), at(5, 5), at(9, 9)), (2, 1, 0, 0));
        // Blank first: the far lines are the last row and column. A tall board: rows first.
        let p = peel_priority(&Board::goal_blank_first(shape), |r, c| r * c <= 25);
        assert!((0..10).all(|c| p[90 + c] == 10) && p[0] == 0);
        let tall = Shape::new(4, 12).unwrap();
        let p = peel_priority(&Board::goal(tall), |r, c| r * c <= 16);
        assert_eq!(p.iter().max(), Some(&8));
        assert!((0..4).all(|c| p[c] == 8 && p[7 * 4 + c] == 1 && p[8 * 4 + c] == 0));
    }

    #[test]
    fn node_limit_stops_the_peeling_on_time() {
        let shape = Shape::new(30, 30).unwrap();
        let goal = Board::goal(shape);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
        let b = crate::random::random_solvable(&goal, &mut rng);
        for cap in [1_000, 5_000] {
            let limits = Limits {
                max_nodes: Some(cap),
                ..Limits::default()
            };
            let placement = Placement::WeighOthers {
                whole_cells: 400,
                soon_lines: None,
            };
            match reduce(
                &b,
                &goal,
                &limits,
                placement,
                |r, c| r * c <= 25,
                usize::MAX,
            ) {
                Err(SearchError::Limit(l)) => {
                    assert!(l.stats.expanded <= cap + 1, "{} > {cap}", l.stats.expanded)
                }
                Err(e) => panic!("{e}"),
                Ok(_) => panic!("a 30x30 board peeled within {cap} states"),
            }
        }
    }

    #[test]
    fn solves_many_sizes_and_goals() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        for (w, h) in [
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (2, 7),
            (7, 2),
            (6, 4),
            (10, 10),
            (3, 8),
        ] {
            let shape = Shape::new(w, h).unwrap();
            for goal in [Board::goal(shape), Board::goal_blank_first(shape)] {
                for _ in 0..3 {
                    let b = crate::random::random_solvable(&goal, &mut rng);
                    let (s, _) = solve_large(&b, &goal, &Limits::default()).unwrap();
                    s.verify(&b, &goal).unwrap();
                }
            }
        }
        // Past FULL_SEARCH_CELLS: windowed hops, on squares and on thin strips.
        for (w, h) in [
            (17, 17),
            (40, 30),
            (2, 150),
            (150, 2),
            (3, 100),
            (100, 3),
            (2, 256),
        ] {
            let shape = Shape::new(w, h).unwrap();
            for goal in [Board::goal(shape), Board::goal_blank_first(shape)] {
                let b = crate::random::random_solvable(&goal, &mut rng);
                let (s, _) = solve_large(&b, &goal, &Limits::default()).unwrap();
                s.verify(&b, &goal).unwrap();
            }
        }
        // Past MAX_LARGE_CELLS: refused before any work.
        for (w, h) in [(200, 200), (256, 64)] {
            let huge = Board::goal(Shape::new(w, h).unwrap());
            assert!(matches!(
                solve_large(&huge, &huge, &Limits::default()),
                Err(SearchError::Unsupported(_))
            ));
        }
        // A goal with the blank in the middle.
        let goal = Board::parse("1 2 3 4 5 6 7 8 9 10 11 12 x 13 14 15 16 17 18 19 20 21 22 23 24")
            .unwrap();
        let b = crate::random::random_solvable(&goal, &mut rng);
        let (s, _) = solve_large(&b, &goal, &Limits::default()).unwrap();
        s.verify(&b, &goal).unwrap();
    }
}
