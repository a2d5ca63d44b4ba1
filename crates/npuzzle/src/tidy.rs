//! Carrying many tiles toward home at once, before the peeling: a beam search over whole
//! boards.
//!
//! The peeling of [`crate::near`] places one tile (or two) at a time and pays for each step a
//! tile takes: about 3.5 to 5 moves per unit of Manhattan distance on a 10×10 board, as the
//! blank must walk around the tile between its steps. Early on, a random board has so many
//! tiles that want to go somewhere that sequences of moves carrying one tile after another a
//! step toward home are easy to find, at 1.2 to 1.5 moves per unit removed on random square
//! boards of 10×10 to 30×30 (about 2 on regions left by peeling larger boards). A beam search
//! finds them: every depth keeps the [`Tidy::width`] boards with the lowest weighted distance
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
//! on regions of at most [`TIDY_CELLS`] cells (30×30; larger boards are first peeled down to
//! that), with a narrower beam on larger regions, and only on regions that are not thin
//! ([`tidy_pays`]). Measured with the rest of the near-optimal solver (`npuzzle bench
//! large`): 10×10 answers 2.36 → 2.08 times the Manhattan bound with the tidying, 1.96 with
//! the line beams and two handed-over boards; 16×16 2.66 → 2.31 → 2.18; 30×30 2.74 → 2.38 →
//! 2.29 (0.3 s, 1.3 s and 3.3 s a board). Memory: the two depths' boards, one link per board
//! kept (8 bytes) and the keys of the boards met in the last few hundred depths.

use crate::board::{BLANK, Board, Move, Shape, Tile};
use crate::search::{Budget, LimitExceeded, LimitKind, Limits, Stats};
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashSet;

/// Largest board (in cells) the beam is run on.
pub const TIDY_CELLS: usize = 900;

/// Whether the beam pays on a region of this shape: sides of at least 6 cells, the longer at
/// most twice the shorter. On thin regions (2×150, 5×180) it removes distance at 2.6–3.2 moves
/// per unit, hardly cheaper than the placements, for 5 to 40 times the time.
pub fn tidy_pays(shape: Shape) -> bool {
    let (short, long) = (
        shape.width().min(shape.height()),
        shape.width().max(shape.height()),
    );
    short >= 6 && long <= 2 * short && shape.cells() <= TIDY_CELLS
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
pub(crate) struct Tidy {
    /// Boards kept at every depth.
    pub width: usize,
}

/// The weighted distances and hash keys of one goal.
struct Weights {
    /// `cost[tile * cells + cell]`: the tile's weight times its Manhattan distance from `cell`
    /// to its goal cell.
    cost: Vec<u32>,
    /// `key[tile * cells + cell]`: random bits for the tile on the cell (Zobrist hashing).
    key: Vec<u64>,
}

impl Weights {
    /// A tile weighs `weight(its goal cell)`.
    fn new(goal: &Board, weight: impl Fn(usize) -> usize) -> Weights {
        let shape = goal.shape();
        let n = shape.cells();
        let mut cost = vec![0; n * n];
        for home in 0..n {
            let tile = goal.tile(home) as usize;
            if tile == BLANK as usize {
                continue;
            }
            let weight = weight(home);
            for cell in 0..n {
                cost[tile * n + cell] = (weight * shape.distance(home, cell)) as u32;
            }
        }
        let mut rng = rand::rngs::SmallRng::seed_from_u64(0x7157);
        let key = (0..n * n).map(|_| rng.random()).collect();
        Weights { cost, key }
    }

    /// The weighted distance of `board` to `goal`, counting the tiles whose goal cells pass
    /// `count`.
    fn distance(&self, board: &Board, goal: &Board, count: impl Fn(usize) -> bool) -> u32 {
        let n = board.shape().cells();
        let mut at = vec![0; n];
        for (cell, &t) in board.cells().iter().enumerate() {
            at[t as usize] = cell;
        }
        (0..n)
            .filter(|&home| goal.tile(home) != BLANK && count(home))
            .map(|home| {
                let t = goal.tile(home) as usize;
                self.cost[t * n + at[t]]
            })
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
/// peeling places it: [`crate::large::peel_priority`]). A hit node or time limit, or
/// cancellation, is an error; at the memory limit the beam stops and hands over the best
/// board so far.
pub(crate) fn tidy(
    start: &Board,
    goal: &Board,
    priority: &[usize],
    how: Tidy,
    limits: &Limits,
) -> Result<(Vec<Vec<Move>>, Stats), LimitExceeded> {
    let w = Weights::new(goal, |home| 2 + priority.get(home).copied().unwrap_or(0));
    let h0 = w.distance(start, goal, |_| true);
    let targets = TIDY_FRACTIONS.map(|f| (h0 as f64 * f) as u32);
    beam(start, &w, h0, &targets, how, limits)
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
    how: Tidy,
    limits: &Limits,
) -> Result<(Vec<Move>, Stats), LimitExceeded> {
    let top = priority.iter().copied().max().unwrap_or(0);
    let weight = |home: usize| {
        let p = priority.get(home).copied().unwrap_or(0);
        2 + if p == top { 2 * top } else { p }
    };
    let w = Weights::new(goal, weight);
    let h0 = w.distance(start, goal, |_| true);
    let line = w.distance(start, goal, |home| priority.get(home) == Some(&top));
    let target = h0 - ((1.0 - LINE_LEFT) * line as f64) as u32;
    let (mut found, stats) = beam(start, &w, h0, &[target], how, limits)?;
    Ok((found.pop().unwrap_or_default(), stats))
}

/// The beam of [`tidy`] and [`close_line`]: moves from `start` (weighted distance `h0`) to
/// the best board when the weighted distance first came down to each of `targets`
/// (descending), the best board of all for targets never reached.
fn beam(
    start: &Board,
    w: &Weights,
    h0: u32,
    targets: &[u32],
    how: Tidy,
    limits: &Limits,
) -> Result<(Vec<Vec<Move>>, Stats), LimitExceeded> {
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
            .map(|c| w.key[start.tile(c) as usize * n + c])
            .fold(0, |a, k| a ^ k),
    );
    // The boards met in the last `FORGET_AFTER` to `2 * FORGET_AFTER` depths (a beam that goes
    // on improving does not come back to older ones): memory stays bounded however deep.
    let (mut seen, mut seen_before) = (FxHashSet::default(), FxHashSet::default());
    seen.insert(layer.key[0]);
    let mut links_kept = 0usize;
    // parents[d][i]: the index at depth d of the parent of board i at depth d + 1, and the move.
    let mut parents: Vec<Vec<(u32, Move)>> = Vec::new();
    let mut best = (h0, 0usize, 0usize);
    // Boards kept per cell of the blank at one depth.
    let per_blank_cell = (SPREAD * width / n).max(1);
    let mut kept_at = vec![0usize; n];
    let mut next = Layer::default();
    let mut candidates: Vec<(u32, u64, u32, Move, usize)> = Vec::new();
    while best.0 > last_target && parents.len() - best.1 < STALL_DEPTHS {
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
                let h = layer.h[i] + w.cost[t * n + blank] - w.cost[t * n + from];
                let key = layer.key[i]
                    ^ w.key[t * n + from]
                    ^ w.key[t * n + blank]
                    ^ w.key[from] // the blank (tile 0) leaves `blank` for `from`
                    ^ w.key[blank];
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
        if h < best.0 {
            best = (h, parents.len(), i);
            for (r, &t) in reached.iter_mut().zip(targets) {
                if r.is_none() && h <= t {
                    *r = Some((best.1, i));
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
    use crate::large::peel_priority;
    use crate::solution::Solution;

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
                    Tidy { width: 1000 },
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
            let start = crate::random::random_solvable(&goal, &mut rng);
            let priority = peel_priority(&goal, |r, c| r * c <= 25);
            let top = *priority.iter().max().unwrap();
            let line_distance = |b: &Board| {
                (0..goal.shape().cells())
                    .filter(|&c| priority[c] == top)
                    .map(|c| b.shape().distance(c, b.position_of(goal.tile(c)).unwrap()))
                    .sum::<usize>()
            };
            // As the near-optimal solver uses it: after the tidying.
            let (how, limits) = (Tidy { width: 500 }, Limits::default());
            let (tidied, _) = tidy(&start, &goal, &priority, how, &limits).unwrap();
            let start = Solution::new(tidied[1].clone()).replay(&start).unwrap();
            let (moves, _) = close_line(&start, &goal, &priority, how, &limits).unwrap();
            let end = Solution::new(moves.clone()).replay(&start).unwrap();
            let (before, after) = (line_distance(&start), line_distance(&end));
            assert!(after * 2 <= before, "{w}x{h}: line {before} -> {after}");
            // The other tiles are not scattered for it.
            assert!(manhattan(&end, &goal) <= manhattan(&start, &goal));
        }
    }

    #[test]
    fn a_solved_board_needs_no_moves_and_limits_are_kept() {
        let goal = Board::goal(Shape::new(9, 9).unwrap());
        let (found, _) = tidy(&goal, &goal, &[], Tidy { width: 100 }, &Limits::default()).unwrap();
        assert!(found.iter().all(|moves| moves.is_empty()));
        let mut rng = rand::rngs::SmallRng::seed_from_u64(22);
        let start = crate::random::random_solvable(&goal, &mut rng);
        let limits = Limits {
            max_nodes: Some(2_000),
            ..Limits::default()
        };
        let e = tidy(&start, &goal, &[], Tidy { width: 1000 }, &limits).unwrap_err();
        assert_eq!(e.kind, LimitKind::Nodes);
        assert_eq!(e.stats.expanded, 2_001);
        // At the memory limit it stops with what it has: moves that bring the board nearer.
        let limits = Limits {
            max_stored: Some(20_000),
            ..Limits::default()
        };
        let (found, stats) = tidy(&start, &goal, &[], Tidy { width: 1000 }, &limits).unwrap();
        let moves = &found[0];
        let end = Solution::new(moves.clone()).replay(&start).unwrap();
        assert!(!moves.is_empty() && manhattan(&end, &goal) < manhattan(&start, &goal));
        assert!(stats.peak_stored > 20_000 && stats.peak_stored < 30_000);
    }
}
