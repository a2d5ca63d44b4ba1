//! Shorter answers by re-solving short stretches of them exactly.
//!
//! The peeling of [`crate::near`] builds an answer from many small searches, each blind to
//! the moves around it, so a stretch of a few dozen moves whose blank stays inside a small
//! rectangle can often be done in fewer moves. This pass walks the answer and, at every move,
//! takes the longest stretch that follows whose blank stays within a rectangle of at most
//! [`Polish::window_cells`] cells. The tiles outside never move, so the rectangle is a small
//! puzzle of its own, from the stretch's first board to its last; IDA* on the one engine
//! (Manhattan distance within the rectangle, under a node allowance per rectangle) looks for
//! a shorter way there, and a shorter way replaces the stretch.
//!
//! Time grows with the answer's length (each move starts at most one bounded search) and
//! memory with the answer itself. The caller's limits apply: when one is reached the pass
//! stops and the answer as polished so far, still valid, is kept.

use super::rect::Rect;
use crate::board::{BLANK, Board, Move, Tile};
use crate::heuristic::{Manhattan, ManhattanEval};
use crate::search::engine::search_subtrees;
use crate::search::eval::{Cells, Evaluator, MAX_CELLS};
use crate::search::move_pruning::MovePruner;
use crate::search::{Budget, Limits, SearchError, Stats};

/// Longest stretch re-solved at once (moves).
const MAX_STRETCH: usize = 48;

/// How hard the pass works.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Polish {
    /// Largest rectangle (in cells, at most 32) the blank of one stretch may roam.
    pub window_cells: usize,
    /// States one rectangle's search may expand.
    pub window_nodes: u64,
}

/// Shortens `moves` (from `start`) stretch by stretch as the module docs describe, under
/// `limits` (what is left of the caller's); the states expanded are added to `stats`, which
/// starts at zero for the pass. Stops early, keeping what it has, when a limit is reached.
pub(crate) fn polish(
    start: &Board,
    mut moves: Vec<Move>,
    how: Polish,
    limits: &Limits,
    stats: &mut Stats,
) -> Vec<Move> {
    let shape = start.shape();
    let window_cells = how.window_cells.min(MAX_CELLS);
    if shape.width() < 2 || shape.height() < 2 || window_cells < 4 {
        return moves;
    }
    let mut budget = Budget::new(limits);
    let mut board = start.clone();
    let mut i = 0;
    while i < moves.len() {
        let spent = limits.max_nodes.is_some_and(|m| stats.expanded >= m);
        if spent || budget.enforce_now(stats, 0).is_err() {
            break;
        }
        // The longest stretch from move i whose blank stays within the allowed rectangle.
        let mut rect = Rect::at(shape, board.blank());
        let mut blank = board.blank();
        let mut j = i;
        while j < moves.len() && j - i < MAX_STRETCH {
            let Some(next) = shape.neighbour(blank, moves[j]) else {
                break;
            };
            let grown = rect.with(shape, next);
            if grown.widened(shape).len() > window_cells {
                break;
            }
            rect = grown;
            blank = next;
            j += 1;
        }
        if j - i >= 4
            && let Some(shorter) = shorter_way(
                &board,
                rect.widened(shape),
                &moves[i..j],
                how.window_nodes,
                limits,
                &mut budget,
                stats,
            )
        {
            moves.splice(i..j, shorter);
            // Try again from the same board: the stretch from here may now reach further.
            continue;
        }
        board.apply(moves[i]);
        i += 1;
    }
    moves
}

/// A way shorter than `stretch` from `board` to where `stretch` leads, with the blank inside
/// `rect` throughout; `None` when the search finds none within its allowance.
fn shorter_way(
    board: &Board,
    rect: Rect,
    stretch: &[Move],
    window_nodes: u64,
    limits: &Limits,
    budget: &mut Budget,
    stats: &mut Stats,
) -> Option<Vec<Move>> {
    let shape = board.shape();
    let sub_shape = rect.shape().ok()?;
    let cells: Vec<usize> = rect.cells(shape).collect();
    // The rectangle's tiles before and after the stretch (the blank never leaves it).
    let before: Vec<Tile> = cells.iter().map(|&c| board.tile(c)).collect();
    let mut after = before.clone();
    let mut blank = before.iter().position(|&t| t == BLANK)?;
    for &m in stretch {
        let next = sub_shape.neighbour(blank, m)?;
        after.swap(blank, next);
        blank = next;
    }
    // Relabel: the tile on the k-th cell after the stretch is tile k + 1 of the small puzzle.
    let label = |t: Tile| -> Tile {
        if t == BLANK {
            return BLANK;
        }
        let at = after.iter().position(|&a| a == t).unwrap_or(0);
        (at + 1 - usize::from(at > blank)) as Tile
    };
    let goal_tiles: Vec<Tile> = after.iter().map(|&t| label(t)).collect();
    let start_tiles: Vec<Tile> = before.iter().map(|&t| label(t)).collect();
    let goal = Board::new(sub_shape, &goal_tiles).ok()?;
    let start = Board::new(sub_shape, &start_tiles).ok()?;
    let stretch_len = stretch.len();
    // Manhattan distance: the evaluators with more tables cost more to build than the few
    // thousand states of a rectangle's search.
    let eval = ManhattanEval::new(&Manhattan::new(&goal))?;
    let way = search_within(
        &start,
        &eval,
        stretch_len,
        window_nodes,
        limits,
        budget,
        stats,
    )?;
    // Accept only what provably does the same (the small puzzle's goal is reached).
    let mut check = start.clone();
    let replayed = way.iter().all(|&m| check.apply(m));
    (replayed && check == goal && way.len() < stretch_len).then_some(way)
}

/// IDA* from `start` toward `eval`'s goal for a way shorter than `stretch_len` moves, within
/// `window_nodes` states and the caller's `limits`.
fn search_within<E: Evaluator>(
    start: &Board,
    eval: &E,
    stretch_len: usize,
    window_nodes: u64,
    limits: &Limits,
    budget: &mut Budget,
    stats: &mut Stats,
) -> Option<Vec<Move>> {
    let (_, mut bound) = eval.root(&Cells::of(start));
    let longest = stretch_len as u32 - 2;
    let mut spent = 0;
    while bound <= longest && spent < window_nodes {
        let caller_left = limits
            .max_nodes
            .map_or(u64::MAX, |m| m.saturating_sub(stats.expanded));
        let allowance = Limits {
            max_nodes: Some((window_nodes - spent).min(caller_left)),
            ..limits.clone()
        };
        let result = match search_subtrees(
            start,
            eval,
            MovePruner::for_shape(start.shape()),
            &[Vec::new()],
            bound,
            &allowance,
        ) {
            Ok(r) => r,
            // Out of allowance: count what the search did, and give up on this rectangle.
            Err(SearchError::Limit(l)) => {
                stats.absorb(&l.stats);
                return None;
            }
            Err(_) => return None,
        };
        spent += result.stats.expanded.max(1);
        stats.absorb(&result.stats);
        if budget.enforce_now(stats, 0).is_err() {
            return None;
        }
        if let Some(s) = result.solution {
            return Some(s.into_moves());
        }
        bound = result.next_bound?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::solution::Solution;
    use rand::{Rng, SeedableRng};

    /// A random walk of the blank (no immediate reversals) from `start`.
    fn walk(start: &Board, len: usize, rng: &mut rand::rngs::SmallRng) -> Vec<Move> {
        let mut b = start.clone();
        let mut moves: Vec<Move> = Vec::new();
        while moves.len() < len {
            let m = Move::ALL[rng.random_range(0..4)];
            if moves.last().is_some_and(|l| l.inverse() == m) || !b.apply(m) {
                continue;
            }
            moves.push(m);
        }
        moves
    }

    #[test]
    fn polished_answers_reach_the_same_board_and_are_never_longer() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(11);
        for (w, h) in [(2, 2), (3, 3), (7, 5), (2, 30), (30, 2), (12, 12)] {
            let shape = Shape::new(w, h).unwrap();
            let start = crate::random::random_board(shape, &mut rng);
            for len in [0, 3, 40, 400] {
                let moves = walk(&start, len, &mut rng);
                let target = Solution::new(moves.clone()).replay(&start).unwrap();
                let how = Polish {
                    window_cells: 16,
                    window_nodes: 20_000,
                };
                let mut stats = Stats::default();
                let out = polish(&start, moves.clone(), how, &Limits::default(), &mut stats);
                Solution::new(out.clone()).verify(&start, &target).unwrap();
                assert!(out.len() <= moves.len(), "{shape}: {} > {}", out.len(), len);
                if len == 400 && w * h >= 16 {
                    // A long random walk is far from the shortest way.
                    assert!(out.len() < moves.len(), "{shape}: {}", out.len());
                }
            }
        }
    }

    #[test]
    fn loops_of_the_blank_are_cut_out() {
        // Three times around a 2×2 block rotates its three tiles back home: the twelve moves
        // do nothing, and with one more move after them only that move is needed.
        let shape = Shape::new(6, 6).unwrap();
        let start = Board::goal(shape);
        let letters =
            |s: &str| -> Vec<Move> { s.chars().map(|c| Move::from_letter(c).unwrap()).collect() };
        let how = Polish {
            window_cells: 16,
            window_nodes: 100_000,
        };
        for (moves, best) in [("uldruldruldr", ""), ("uldruldruldru", "u")] {
            let mut stats = Stats::default();
            let out = polish(&start, letters(moves), how, &Limits::default(), &mut stats);
            assert_eq!(out, letters(best), "{moves}");
        }
    }

    #[test]
    fn a_node_limit_stops_the_pass_with_a_valid_answer() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(12);
        let shape = Shape::new(10, 10).unwrap();
        let start = crate::random::random_board(shape, &mut rng);
        let moves = walk(&start, 2000, &mut rng);
        let target = Solution::new(moves.clone()).replay(&start).unwrap();
        let limits = Limits {
            max_nodes: Some(5_000),
            ..Limits::default()
        };
        let how = Polish {
            window_cells: 16,
            window_nodes: 1_000,
        };
        let mut stats = Stats::default();
        let out = polish(&start, moves.clone(), how, &limits, &mut stats);
        Solution::new(out.clone()).verify(&start, &target).unwrap();
        assert!(stats.expanded <= 5_000 + 1_000, "{}", stats.expanded);
        assert!(out.len() < moves.len());
    }
}
