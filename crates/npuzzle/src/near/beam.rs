//! Carrying many tiles toward home at once, before and during the peeling: a beam search over
//! whole boards, or over strips of larger ones.
//!
//! The peeling of [`crate::near`] places one tile (or two) at a time and pays for each step a
//! tile takes: about 3.5 to 5 moves per unit of Manhattan distance on a 10×10 board, as the
//! blank must walk around the tile between its steps. Early on, a random board has so many
//! tiles that want to go somewhere that sequences of moves carrying one tile after another a
//! step toward home are easy to find, at 1.2 to 1.5 moves per unit removed on random square
//! boards of 10×10 to 30×30 (about 2 on regions left by peeling larger boards). A beam search
//! finds them: every depth keeps the [`Beam::width`] boards with the lowest weighted distance
//! (a board met in the last few hundred depths is not kept again) and the search follows the
//! best until that distance is down to each of [`TIDY_FRACTIONS`] of where it started, or
//! stops improving. Tiles of the lines the peeling places first weigh more, so the peeling
//! then starts from lines that are nearly done. The same beam, its weights on the next line
//! ([`close_line`]), brings each line nearly home before the placements finish it.
//!
//! A beam that keeps whichever boards score best soon crowds around one place: the tiles near
//! the blank are tidied, every way to others first undoes some of that, and the beam stalls.
//! So a depth keeps only a few boards per cell of the blank ([`SPREAD`]), and the beam keeps
//! moving over the board. Each depth copies every kept board, so the work is the width times
//! the cells times the depth, and the depth grows with the distance removed: the beam is run
//! on regions of at most [`BEAM_CELLS`] cells (30×30), with a narrower beam on larger regions,
//! and only on regions that are not thin ([`tidy_pays`]). Larger boards are peeled down to
//! that, and before each of their lines the line beam runs on strips of at most as many cells
//! ([`line_strips`], [`close_line_in`]) across the board, side by side along the line: a strip
//! as deep as the board reaches the line's tiles wherever they are, and carries them toward
//! the line together with the tiles of the next lines (100×100 2.53 → 2.40 times the
//! Manhattan bound, 50×50 2.57 → 2.40; thin boards too: 6×200 3.32 → 3.08). Measured with the
//! rest of the near-optimal solver (`npuzzle bench large`): 10×10 answers 2.36 → 2.08 times
//! the Manhattan bound with the tidying, 1.96 with the line beams and two handed-over boards;
//! 16×16 2.66 → 2.31 → 2.18; 30×30 2.74 → 2.38 → 2.29 (0.3 s, 1.3 s and 3.3 s a board; 1.96,
//! 2.21 and 2.29 since the beam's hash keys changed with the strips, which only breaks ties
//! differently). Memory: the two depths' boards, one link per board
//! kept (8 bytes) and the keys of the boards met in the last few hundred depths.

use super::rect::Rect;
use crate::board::{BLANK, Board, Move, Shape, Tile};
use crate::search::{Budget, LimitExceeded, LimitKind, Limits, Stats};
use rustc_hash::FxHashSet;

/// Largest board (in cells) the beam is run on.
pub const BEAM_CELLS: usize = 900;

/// Whether the beam pays on a region of this shape: sides of at least 6 cells, the longer at
/// most twice the shorter. On thin regions (2×150, 5×180) it removes distance at 2.6–3.2 moves
/// per unit, hardly cheaper than the placements, for 5 to 40 times the time.
pub fn tidy_pays(shape: Shape) -> bool {
    let (short, long) = (
        shape.width().min(shape.height()),
        shape.width().max(shape.height()),
    );
    short >= 6 && long <= 2 * short && shape.cells() <= BEAM_CELLS
}

/// The fractions of the start's weighted distance at which [`tidy`] hands over a board, one
/// answer each: the near-optimal solver finishes both and keeps the shorter (10×10: 1.99 with
/// 0.35 alone, 1.96 with both, `bench large`, 50 boards).
pub const TIDY_FRACTIONS: [f64; 2] = [0.4, 0.3];

/// [`close_line`] stops once the line's weighted distance is down to this fraction of the
/// start's: the placements finish the line.
const LINE_LEFT: f64 = 0.1;

/// A depth keeps at most this many times `width / cells` boards with the blank on any one cell
/// (at least one), so that the beam spreads over the board instead of crowding around one
/// place it has tidied.
const SPREAD: usize = 3;

/// How many depths the beam remembers the boards it met for (between one and two times this).
const FORGET_AFTER: usize = 256;

/// Depths without a better board after which the beam gives up.
const STALL_DEPTHS: usize = 100;

/// How wide a beam.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Beam {
    /// Boards kept at every depth.
    pub width: usize,
}

/// What the beam sees of a window of a board: the window as a board of its own (its tiles
/// renamed 1, 2, … in reading order, the blank 0), each tile's weight and its goal cell in the
/// whole board, so that a tile's weighted distance from any window cell costs a few
/// operations (no table of cells × cells to fill for every window).
struct View {
    /// The window's tiles, renamed.
    start: Board,
    /// `weight[t]`: what one step of renamed tile `t` (0 for the blank) away from home costs.
    weight: Vec<u32>,
    /// `home[t]`: the row and column of renamed tile `t`'s goal cell in the whole board.
    home: Vec<(u32, u32)>,
    /// `goal_cell[t]`: that goal cell.
    goal_cell: Vec<usize>,
    /// Each window cell's row and column in the whole board.
    place: Vec<(u32, u32)>,
}

impl View {
    /// The view of `window` of `board` (whose goal is `goal`), a tile weighing `weight(its
    /// goal cell)`; `None` unless the window lies inside the board, holds a cell and the blank.
    fn new(
        board: &Board,
        goal: &Board,
        window: Rect,
        weight: impl Fn(usize) -> usize,
    ) -> Option<View> {
        let shape = board.shape();
        if !window.fits(shape) || !window.contains(shape, board.blank()) {
            return None;
        }
        let mut goal_of = vec![0; shape.cells()];
        for (cell, &t) in goal.cells().iter().enumerate() {
            goal_of[t as usize] = cell;
        }
        let (mut tiles, mut place) = (Vec::new(), Vec::new());
        let (mut weights, mut home, mut goal_cell) = (vec![0], vec![(0, 0)], vec![0]);
        for cell in window.cells(shape) {
            place.push((shape.row(cell) as u32, shape.column(cell) as u32));
            let t = board.tile(cell);
            if t == BLANK {
                tiles.push(BLANK);
                continue;
            }
            let g = goal_of[t as usize];
            tiles.push(home.len() as Tile);
            weights.push(weight(g) as u32);
            home.push((shape.row(g) as u32, shape.column(g) as u32));
            goal_cell.push(g);
        }
        Some(View {
            start: Board::new(window.shape().ok()?, &tiles).ok()?,
            weight: weights,
            home,
            goal_cell,
            place,
        })
    }

    /// Renamed tile `t`'s weight times its Manhattan distance from window cell `cell` to home.
    #[inline]
    fn cost(&self, t: usize, cell: usize) -> u32 {
        let (hr, hc) = self.home[t];
        let (r, c) = self.place[cell];
        self.weight[t] * (hr.abs_diff(r) + hc.abs_diff(c))
    }

    /// Hash bits for renamed tile `t` on window cell `cell` (Zobrist hashing; the blank needs
    /// none: the tiles' cells tell where it is).
    #[inline]
    fn key(t: usize, cell: usize) -> u64 {
        // A multiply and a shift-xor: well mixed enough for Zobrist keys, and cheap.
        let z = ((t as u64) << 32 | cell as u64 | 1 << 63).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (z ^ (z >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9)
    }

    /// The weighted distance of the window's start, counting the tiles whose goal cells (in
    /// the whole board) pass `count`.
    fn distance(&self, count: impl Fn(usize) -> bool) -> u32 {
        let tiles = self.start.cells();
        (0..tiles.len())
            .filter(|&c| tiles[c] != BLANK && count(self.goal_cell[tiles[c] as usize]))
            .map(|c| self.cost(tiles[c] as usize, c))
            .sum()
    }
}

/// One depth of the beam: its boards, flat.
#[derive(Default)]
struct Layer {
    tiles: Vec<Tile>,
    blank: Vec<usize>,
    h: Vec<u32>,
    key: Vec<u64>,
}

impl Layer {
    fn clear(&mut self) {
        self.tiles.clear();
        self.blank.clear();
        self.h.clear();
        self.key.clear();
    }
}

/// Moves from `start` that carry tiles toward `goal` as the module docs describe, one list for
/// each of [`TIDY_FRACTIONS`] (the best board when the distance first came down to it; the
/// best of all where it never did, or none when nothing beat the start), and the search's
/// figures. A tile's distance weighs 2 plus the `priority` of its goal cell (how soon the
/// peeling places it: [`crate::near::placement::peel_priority`]). A hit node or time limit, or
/// cancellation, is an error; at the memory limit the beam stops and hands over the best
/// board so far.
pub(crate) fn tidy(
    start: &Board,
    goal: &Board,
    priority: &[usize],
    how: Beam,
    limits: &Limits,
) -> Result<(Vec<Vec<Move>>, Stats), LimitExceeded> {
    let whole = Rect::whole(start.shape());
    let weight = |home: usize| 2 + priority.get(home).copied().unwrap_or(0);
    let Some(view) = View::new(start, goal, whole, weight) else {
        return Ok((vec![Vec::new(); TIDY_FRACTIONS.len()], Stats::default()));
    };
    let h0 = view.distance(|_| true);
    let targets = TIDY_FRACTIONS.map(|f| (h0 as f64 * f) as u32);
    beam(&view, h0, &targets, 0, how, limits)
}

/// The next line to peel (the goal cells of the highest `priority`), the weight of its tiles
/// and a tile's weight for the line beams: 2 plus its priority as in [`tidy`], the line's
/// tiles 2 plus twice it.
fn line_weight(priority: &[usize]) -> (usize, usize, impl Fn(usize) -> usize) {
    let top = priority.iter().copied().max().unwrap_or(0);
    let line_step = 2 + 2 * top;
    let weight = move |home: usize| {
        let p = priority.get(home).copied().unwrap_or(0);
        if p == top { line_step } else { 2 + p }
    };
    (top, line_step, weight)
}

/// Moves from `start` that bring most tiles of the line the peeling places next (the goal
/// cells of the highest `priority`) home, with a beam as in [`tidy`] whose line tiles weigh
/// twice as much as the next line's; the other tiles weigh as in [`tidy`], so that the beam
/// does not undo what was tidied. It stops once the line's weighted distance is down to
/// [`LINE_LEFT`] of the start's (the placements finish the line), or stops improving. Limits
/// as in [`tidy`]. Measured with the rest of the near-optimal solver (`bench large`): 10×10
/// 2.08 → 2.00, 16×16 2.30 → 2.24, 30×30 2.38 → 2.34 (before the two handed-over boards).
pub(crate) fn close_line(
    start: &Board,
    goal: &Board,
    priority: &[usize],
    how: Beam,
    limits: &Limits,
) -> Result<(Vec<Move>, Stats), LimitExceeded> {
    let whole = Rect::whole(start.shape());
    line_beam(start, goal, priority, whole, LINE_LEFT, 0, how, limits)
}

/// The strips of `board` that [`close_line_in`] runs on, one after another, before the
/// placements finish the next line (the goal cells of the highest `priority`): side by side
/// along the line, each as deep as the board (sides are at most 256 cells) and as wide as
/// makes it at most [`BEAM_CELLS`] cells (at least 3), the last one overlapping its neighbour
/// so that every cell of the line is covered.
pub(crate) fn line_strips(board: &Board, priority: &[usize]) -> Vec<Rect> {
    let shape = board.shape();
    let top = priority.iter().copied().max().unwrap_or(0);
    let mut line = (0..shape.cells()).filter(|&c| priority.get(c) == Some(&top));
    let Some(first) = line.next() else {
        return Vec::new();
    };
    let is_row = line.all(|c| shape.row(c) == shape.row(first));
    let (along, across) = match is_row {
        true => (shape.width(), shape.height()),
        false => (shape.height(), shape.width()),
    };
    let wide = (BEAM_CELLS / across).clamp(1, along);
    let mut starts: Vec<usize> = (0..=along - wide).step_by(wide).collect();
    if starts.last() != Some(&(along - wide)) {
        starts.push(along - wide);
    }
    starts
        .into_iter()
        .map(|s| match is_row {
            true => Rect::new((0, across), (s, s + wide)),
            false => Rect::new((s, s + wide), (0, across)),
        })
        .collect()
}

/// A move's cost for [`close_line_in`], as a share of one step of a line tile (in whole weight
/// units, so none on the last few lines before the strips end): among the boards the beam
/// meets, the one with the least weighted distance plus that cost per move is handed over
/// (unless the stop target is reached first), and the beam gives up when that total stops
/// improving. Measured on 100×100 (one board, with the rest of the near-optimal solver): a
/// twelfth 2.396 times the Manhattan bound, a sixth 2.403, a third 2.537; without it 2.394,
/// but 2.74 to 3.05 with a narrower beam or wider strips: the beam then trades many moves of
/// late tiles for a step of a line tile.
const STRIP_MOVE_SHARE: u64 = 12;

/// Moves that bring the tiles of the next line nearer home (weights as in [`close_line`]),
/// moving only the tiles of `window` of `board` (besides the blank's walk into it): a beam as
/// in [`tidy`] over the window alone, each tile weighted by its distance to its own goal cell
/// (outside the window too), and each move costing [`STRIP_MOVE_SHARE`] of a line tile's step.
/// It hands over the first board whose weighted distance has come down by as much as the
/// line's tiles with goal cells in the window weigh, else the best board counting the moves'
/// cost, once that stops improving. No moves when the window is not inside the board. Limits
/// as in [`tidy`]. Measured with the rest of the near-optimal solver on strips of 900 cells
/// across the board: 100×100 2.53 → 2.40 times the Manhattan bound; strips 30 cells deep
/// 2.51, 45 2.47, 90 2.43.
pub(crate) fn close_line_in(
    board: &Board,
    goal: &Board,
    priority: &[usize],
    window: Rect,
    how: Beam,
    limits: &Limits,
) -> Result<(Vec<Move>, Stats), LimitExceeded> {
    let shape = board.shape();
    if !window.fits(shape) {
        return Ok((Vec::new(), Stats::default()));
    }
    let Rect { r0, r1, c0, c1 } = window;
    // Walk the blank into the window (each step brings it nearer: at most a board's span).
    let mut walk = Vec::new();
    let mut board = board.clone();
    loop {
        let blank = board.blank();
        let (r, c) = (shape.row(blank), shape.column(blank));
        let m = match () {
            _ if r < r0 => Move::Down,
            _ if r >= r1 => Move::Up,
            _ if c < c0 => Move::Right,
            _ if c >= c1 => Move::Left,
            _ => break,
        };
        board.apply(m);
        walk.push(m);
    }
    let (mut moves, stats) = line_beam(
        &board,
        goal,
        priority,
        window,
        0.0,
        STRIP_MOVE_SHARE,
        how,
        limits,
    )?;
    walk.append(&mut moves);
    Ok((walk, stats))
}

/// The beam of [`close_line`] and [`close_line_in`] over `window` of `board` (the blank in
/// it): it stops once the weighted distance has come down by `1 - left` of the line tiles'
/// (those with goal cells in the window); with `move_share` (not 0) a move costs that share
/// of a line tile's step, rounded down.
#[allow(clippy::too_many_arguments)]
fn line_beam(
    board: &Board,
    goal: &Board,
    priority: &[usize],
    window: Rect,
    left: f64,
    move_share: u64,
    how: Beam,
    limits: &Limits,
) -> Result<(Vec<Move>, Stats), LimitExceeded> {
    let (top, line_step, weight) = line_weight(priority);
    let Some(view) = View::new(board, goal, window, weight) else {
        return Ok((Vec::new(), Stats::default()));
    };
    let shape = board.shape();
    let h0 = view.distance(|_| true);
    let line =
        view.distance(|home| priority.get(home) == Some(&top) && window.contains(shape, home));
    let target = h0 - ((1.0 - left) * line as f64) as u32;
    // In whole weight units: none on the last few lines before the strips end (top ≤ 4),
    // which measured shorter on thin boards (4×250 3.305 against 3.357 with the exact share).
    let per_move = (line_step as u64).checked_div(move_share).unwrap_or(0);
    let (mut found, stats) = beam(&view, h0, &[target], per_move, how, limits)?;
    Ok((found.pop().unwrap_or_default(), stats))
}

/// The beam of [`tidy`] and the line beams: moves from `view`'s start (weighted distance
/// `h0`) to the best board when the weighted distance first came down to each of `targets`
/// (descending), the best board of all for targets never reached: the one with the least
/// weighted distance plus `per_move` for each move.
fn beam(
    view: &View,
    h0: u32,
    targets: &[u32],
    per_move: u64,
    how: Beam,
    limits: &Limits,
) -> Result<(Vec<Vec<Move>>, Stats), LimitExceeded> {
    let start = &view.start;
    let shape = start.shape();
    let n = shape.cells();
    let width = how.width.max(1);
    let mut budget = Budget::new(limits);
    let mut stats = Stats::default();

    let mut layer = Layer::default();
    layer.tiles.extend_from_slice(start.cells());
    layer.blank.push(start.blank());
    layer.h.push(h0);
    let last_target = targets.last().copied().unwrap_or(0);
    // Where the best board was when each target was first reached: (depth, index).
    let mut reached: Vec<Option<(usize, usize)>> = targets
        .iter()
        .map(|&t| (h0 <= t).then_some((0, 0)))
        .collect();
    layer.key.push(
        (0..n)
            .filter(|&c| start.tile(c) != BLANK)
            .map(|c| View::key(start.tile(c) as usize, c))
            .fold(0, |a, k| a ^ k),
    );
    // The boards met in the last `FORGET_AFTER` to `2 * FORGET_AFTER` depths (a beam that goes
    // on improving does not come back to older ones): memory stays bounded however deep.
    let (mut seen, mut seen_before) = (FxHashSet::default(), FxHashSet::default());
    seen.insert(layer.key[0]);
    let mut links_kept = 0usize;
    // parents[d][i]: the index at depth d of the parent of board i at depth d + 1, and the move.
    let mut parents: Vec<Vec<(u32, Move)>> = Vec::new();
    // The best board (least weighted distance plus moves): (score, depth, index).
    let mut best = (h0 as u64, 0usize, 0usize);
    let mut least = h0;
    // Boards kept per cell of the blank at one depth.
    let per_blank_cell = (SPREAD * width / n).max(1);
    let mut kept_at = vec![0usize; n];
    let mut next = Layer::default();
    let mut candidates: Vec<(u32, u64, u32, Move, usize)> = Vec::new();
    while least > last_target && parents.len() - best.1 < STALL_DEPTHS {
        candidates.clear();
        for i in 0..layer.blank.len() {
            let blank = layer.blank[i];
            let tiles = &layer.tiles[i * n..(i + 1) * n];
            stats.expanded += 1;
            // The node limit holds exactly (the clock is read every few thousand boards).
            budget.enforce(&mut stats, 0)?;
            for m in Move::ALL {
                let Some(from) = shape.neighbour(blank, m) else {
                    continue;
                };
                stats.generated += 1;
                let t = tiles[from] as usize;
                let h = layer.h[i] + view.cost(t, blank) - view.cost(t, from);
                let key = layer.key[i] ^ View::key(t, from) ^ View::key(t, blank);
                candidates.push((h, key, i as u32, m, from));
            }
        }
        candidates.sort_unstable_by_key(|c| (c.0, c.1));
        next.clear();
        let mut links = Vec::with_capacity(width);
        kept_at.fill(0);
        for &(h, key, parent, m, from) in &candidates {
            if links.len() == width {
                break;
            }
            if kept_at[from] == per_blank_cell {
                continue;
            }
            kept_at[from] += 1;
            if seen_before.contains(&key) || !seen.insert(key) {
                continue;
            }
            let p = parent as usize;
            let at = next.tiles.len();
            next.tiles
                .extend_from_slice(&layer.tiles[p * n..(p + 1) * n]);
            next.tiles.swap(at + layer.blank[p], at + from);
            next.blank.push(from);
            next.h.push(h);
            next.key.push(key);
            links.push((parent, m));
        }
        if links.is_empty() {
            break;
        }
        links_kept += links.len();
        parents.push(links);
        if parents.len().is_multiple_of(FORGET_AFTER) {
            seen_before = std::mem::take(&mut seen);
        }
        std::mem::swap(&mut layer, &mut next);
        let (i, &h) = layer
            .h
            .iter()
            .enumerate()
            .min_by_key(|&(_, h)| *h)
            .unwrap_or((0, &u32::MAX));
        let score = h as u64 + per_move * parents.len() as u64;
        if score < best.0 {
            best = (score, parents.len(), i);
        }
        if h < least {
            least = h;
            for (r, &t) in reached.iter_mut().zip(targets) {
                if r.is_none() && h <= t {
                    *r = Some((parents.len(), i));
                }
            }
        }
        // Boards, keys and links (8 bytes each) counted as stored states.
        let stored = (2 * width + seen.len() + seen_before.len() + links_kept / 16) as u64;
        stats.peak_stored = stats.peak_stored.max(stored);
        match budget.enforce_now(&mut stats, stored) {
            // Out of memory: the best board so far is as good an answer as any.
            Err(e) if e.kind == LimitKind::Memory => break,
            other => other?,
        }
    }
    // Back from each board handed over to the start.
    let path = |(depth, mut i): (usize, usize)| {
        let mut moves = Vec::with_capacity(depth);
        for links in parents[..depth].iter().rev() {
            let (parent, m) = links[i];
            moves.push(m);
            i = parent as usize;
        }
        moves.reverse();
        moves
    };
    let found = reached
        .iter()
        .map(|r| path(r.unwrap_or((best.1, best.2))))
        .collect();
    stats.elapsed = budget.elapsed();
    Ok((found, stats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::near::placement::peel_priority;
    use crate::solution::Solution;
    use rand::SeedableRng;

    fn manhattan(b: &Board, goal: &Board) -> usize {
        use crate::heuristic::{Heuristic, Manhattan};
        Manhattan::new(goal).estimate(b.cells()) as usize
    }

    #[test]
    fn tidied_boards_are_much_nearer_home_for_few_moves() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(21);
        for (w, h) in [(10, 10), (8, 6), (3, 12)] {
            let shape = Shape::new(w, h).unwrap();
            let random_goal = crate::random::random_board(shape, &mut rng);
            for goal in [Board::goal(shape), random_goal] {
                let start = crate::random::random_solvable(&goal, &mut rng);
                let (found, stats) = tidy(
                    &start,
                    &goal,
                    &peel_priority(&goal, |r, c| r * c <= 25),
                    Beam { width: 1000 },
                    &Limits::default(),
                )
                .unwrap();
                assert_eq!(found.len(), TIDY_FRACTIONS.len());
                assert!(stats.expanded > 0, "{shape}");
                for moves in found {
                    let end = Solution::new(moves.clone()).replay(&start).unwrap();
                    let (before, after) = (manhattan(&start, &goal), manhattan(&end, &goal));
                    assert!(!moves.is_empty(), "{shape}");
                    // Fewer than two moves per unit of distance removed, and a real reduction.
                    assert!(after * 4 < before * 3, "{shape}: {before} -> {after}");
                    assert!(
                        moves.len() < 2 * (before - after),
                        "{shape}: {} moves, {before} -> {after}",
                        moves.len()
                    );
                }
            }
        }
    }

    #[test]
    fn the_line_beam_brings_most_of_the_next_line_home() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(23);
        for (w, h) in [(10, 10), (7, 9)] {
            let goal = Board::goal(Shape::new(w, h).unwrap());
            let priority = peel_priority(&goal, |r, c| r * c <= 25);
            let top = *priority.iter().max().unwrap();
            let line_distance = |b: &Board| {
                (0..goal.shape().cells())
                    .filter(|&c| priority[c] == top)
                    .map(|c| b.shape().distance(c, b.position_of(goal.tile(c)).unwrap()))
                    .sum::<usize>()
            };
            // Over a few boards (one board's figures depend on how the beam breaks ties).
            let (mut line, mut all) = ((0, 0), (0, 0));
            for _ in 0..4 {
                let start = crate::random::random_solvable(&goal, &mut rng);
                // As the near-optimal solver uses it: after the tidying.
                let (how, limits) = (Beam { width: 500 }, Limits::default());
                let (tidied, _) = tidy(&start, &goal, &priority, how, &limits).unwrap();
                let start = Solution::new(tidied[0].clone()).replay(&start).unwrap();
                let (moves, _) = close_line(&start, &goal, &priority, how, &limits).unwrap();
                let end = Solution::new(moves.clone()).replay(&start).unwrap();
                line.0 += line_distance(&start);
                line.1 += line_distance(&end);
                all.0 += manhattan(&start, &goal);
                all.1 += manhattan(&end, &goal);
            }
            assert!(line.1 * 2 <= line.0, "{w}x{h}: line {line:?}");
            // The other tiles are not scattered for it.
            assert!(all.1 <= all.0, "{w}x{h}: Manhattan {all:?}");
        }
    }

    #[test]
    fn strips_cross_the_board_and_cover_the_next_line() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(24);
        for (w, h) in [
            (100, 100),
            (40, 35),
            (31, 30),
            (13, 26),
            (128, 128),
            (4, 250),
            (250, 4),
        ] {
            let shape = Shape::new(w, h).unwrap();
            for goal in [
                Board::goal(shape),
                crate::random::random_board(shape, &mut rng),
            ] {
                let priority = peel_priority(&goal, |r, c| r * c <= BEAM_CELLS);
                let top = *priority.iter().max().unwrap();
                let strips = line_strips(&goal, &priority);
                for &strip in &strips {
                    assert!(strip.fits(shape), "{shape}");
                    assert!(strip.len() <= BEAM_CELLS, "{shape}");
                    // As deep as the board (each side of these is under 300).
                    assert!(strip.height() == h || strip.width() == w, "{shape}");
                }
                for cell in (0..shape.cells()).filter(|&c| priority[c] == top) {
                    assert!(
                        strips.iter().any(|s| s.contains(shape, cell)),
                        "{shape}: line cell {cell} in no strip"
                    );
                }
            }
        }
    }

    #[test]
    fn strip_beams_move_only_their_strip_and_bring_the_line_nearer() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(25);
        let goal = Board::goal(Shape::new(40, 40).unwrap());
        let shape = goal.shape();
        let start = crate::random::random_solvable(&goal, &mut rng);
        let priority = peel_priority(&goal, |r, c| r * c <= BEAM_CELLS);
        let top = *priority.iter().max().unwrap();
        let line_distance = |b: &Board| {
            (0..shape.cells())
                .filter(|&c| priority[c] == top)
                .map(|c| shape.distance(c, b.position_of(goal.tile(c)).unwrap()))
                .sum::<usize>()
        };
        let (how, limits) = (Beam { width: 300 }, Limits::default());
        // The blank in a corner away from the first strip, so that it must walk in.
        let mut board = start.clone();
        while board.apply(Move::Right) || board.apply(Move::Down) {}
        let start = board.clone();
        let mut walked = 0;
        let mut total = 0;
        for window in line_strips(&board, &priority) {
            let cells_in = |cell: usize| window.contains(shape, cell);
            let (moves, _) = close_line_in(&board, &goal, &priority, window, how, &limits).unwrap();
            // The blank walks in straight (the cells it crosses shift by one), then only the
            // strip's tiles move.
            let mut path = vec![board.blank()];
            let mut walking = board.clone();
            for &m in &moves {
                if cells_in(walking.blank()) {
                    break;
                }
                walking.apply(m);
                path.push(walking.blank());
                walked += 1;
            }
            let end = Solution::new(moves.clone()).replay(&board).unwrap();
            for cell in (0..shape.cells()).filter(|&c| !cells_in(c) && !path.contains(&c)) {
                assert_eq!(
                    board.tile(cell),
                    end.tile(cell),
                    "cell {cell} off {window:?}"
                );
            }
            // Each tile the walk crosses moved one cell back along it, and stays there.
            for pair in path.windows(2) {
                assert_eq!(end.tile(pair[0]), board.tile(pair[1]), "walk {path:?}");
            }
            assert!(path.len() <= shape.width() + shape.height());
            total += moves.len();
            board = end;
        }
        assert!(walked > 0, "the blank never had to walk in");
        // Windows that are empty or not inside the board give no moves.
        for window in [
            Rect::new((3, 3), (0, 40)),
            Rect::new((0, 41), (0, 5)),
            Rect::new((0, 40), (38, 42)),
        ] {
            let (moves, _) = close_line_in(&board, &goal, &priority, window, how, &limits).unwrap();
            assert!(moves.is_empty(), "{window:?}");
        }
        let (before, after) = (line_distance(&start), line_distance(&board));
        // The placements finish the line: the strips take a good part of the way (1395 -> 842).
        assert!(after * 4 <= before * 3, "line {before} -> {after}");
        // For a fair number of moves: the other tiles are not scattered for it.
        let removed = manhattan(&start, &goal) as i64 - manhattan(&board, &goal) as i64;
        assert!(
            removed > 0 && total < 6 * before,
            "{total} moves, line {before} -> {after}, Manhattan -{removed}"
        );
    }

    #[test]
    fn a_solved_board_needs_no_moves_and_limits_are_kept() {
        let goal = Board::goal(Shape::new(9, 9).unwrap());
        let (found, _) = tidy(&goal, &goal, &[], Beam { width: 100 }, &Limits::default()).unwrap();
        assert!(found.iter().all(|moves| moves.is_empty()));
        let mut rng = rand::rngs::SmallRng::seed_from_u64(22);
        let start = crate::random::random_solvable(&goal, &mut rng);
        let limits = Limits {
            max_nodes: Some(2_000),
            ..Limits::default()
        };
        let e = tidy(&start, &goal, &[], Beam { width: 1000 }, &limits).unwrap_err();
        assert_eq!(e.kind, LimitKind::Nodes);
        assert_eq!(e.stats.expanded, 2_001);
        // At the memory limit it stops with what it has: moves that bring the board nearer.
        let limits = Limits {
            max_stored: Some(20_000),
            ..Limits::default()
        };
        let (found, stats) = tidy(&start, &goal, &[], Beam { width: 1000 }, &limits).unwrap();
        let moves = &found[0];
        let end = Solution::new(moves.clone()).replay(&start).unwrap();
        assert!(!moves.is_empty() && manhattan(&end, &goal) < manhattan(&start, &goal));
        assert!(stats.peak_stored > 20_000 && stats.peak_stored < 30_000);
    }
}
