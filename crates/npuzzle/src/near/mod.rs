//! Short answers where an optimal search is out of reach: the near-optimal solver (`near`).
//!
//! Optimal search ends around 5×5 (and there only with large databases and minutes per hard
//! board); the constructive solver of `placement` answers anything, but with about 2.5
//! to 5 times the Manhattan bound. Between the two, this solver aims at answers close to the
//! optimum in about the time it takes to show them. It is never labelled optimal.
//!
//! - **Boards of at most 32 cells** (5×5, 4×6, 3×8 …): weighted IDA* on the one engine
//!   (a weighted evaluator around the solver's own evaluator: pattern
//!   databases where the solver has them, else linear conflict). A ladder of weights runs
//!   from coarse to fine, each run under a node allowance; the shortest answer found is kept.
//!   Weighted IDA* with weight w answers within about w times the optimum, after far fewer
//!   states than the optimal search.
//! - **Larger boards**: the lines of `placement` are peeled until at most 900
//!   cells (30×30) are left (none on boards that small already), before each line a beam
//!   over strips across the board carrying that line's tiles and the next lines' toward it
//!   (`beam::close_line_in`); unless that region is thin,
//!   a beam search then carries many of its tiles toward home at once, those of the lines
//!   peeled first weighing most (module `tidy`: 1.2–1.5 moves per unit of distance removed on
//!   random square boards, against 3.5–5 for the placements). The beam hands over two boards,
//!   tidied less and more, and each is finished (on two threads where allowed), keeping the
//!   shorter answer: line by line, a second beam brings the next line nearly home
//!   (`beam::close_line`) and the placements finish it, down to at most
//!   `CORE_CELLS` cells, which the ladder above finishes. Every placement weighs what its
//!   moves do to the other tiles: of two routes for the blank, the one that carries more
//!   tiles toward home is preferred even when it is a little longer, since those tiles then
//!   have less far to go; while the region is being reached, the tiles of the next
//!   `SOON_LINES` lines weigh more (tidying a tile placed much later is mostly undone). A
//!   line fills from both ends, first where its tiles are home already, else at the end whose
//!   tile the blank reaches first. The answer is then polished (module `polish`): every
//!   stretch whose blank stays within a small rectangle is searched again for a shorter way.
//!
//! [`Effort`] trades time for length: more rungs on the ladder with larger allowances, wider
//! beams, larger rectangles for the polish, and on boards past 256 cells larger rectangles
//! searched whole for each placement; past 32 cells every level up to the one asked for runs
//! and the shortest answer is kept, so more effort is never longer (without limits: one that
//! stops a later level leaves the answer already found). Time and memory grow with the answer
//! (the peeling is windowed on large boards, the beam bounded by its 900-cell region), and
//! every limit of the caller applies; if no rung finishes within its allowance the
//! constructive answer is given, so the solver always answers a solvable board.

pub(crate) mod beam;
pub(crate) mod move_costs;
pub(crate) mod placement;
pub(crate) mod polish;
pub(crate) mod rect;

use crate::board::{Board, Move};
use crate::near::beam::{
    BEAM_CELLS, Beam, close_line, close_line_in, line_strips, tidy, tidy_pays,
};
use crate::near::placement::{Placement, peel_priority, reduce};
use crate::near::polish::{Polish, polish};
use crate::search::{
    Found, LimitExceeded, LimitKind, Limits, SearchError, SearchProgress, Stage, Stats,
};
use crate::solution::Solution;
use rayon::prelude::*;
use std::time::Instant;

/// The largest region left for the weighted search after peeling (5×5, 4×6, 3×8, 2×12).
pub(crate) const CORE_CELLS: usize = 25;

/// While boards past 900 cells are peeled down to 900, the placements count the tiles
/// of the next this many lines as soon placed (see `move_costs::SOON_AWAY`). Within the beam's
/// region every line is finished by a beam first, so all tiles weigh alike there (30×30: 2.306
/// with soon lines against 2.292 without).
pub(crate) const SOON_LINES: usize = 45;

/// How much time the near-optimal solver may spend for a shorter answer: 1 (quickest) to
/// [`Effort::MAX`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Effort(u8);

impl std::str::FromStr for Effort {
    type Err = crate::names::NameError;
    /// `1` to `5`.
    fn from_str(s: &str) -> Result<Effort, Self::Err> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(Effort::new)
            .ok_or_else(|| crate::names::NameError {
                what: "effort",
                given: s.chars().take(64).collect(),
                expected: "1, 2, 3, 4, 5".into(),
            })
    }
}

impl Effort {
    /// The most effort.
    pub const MAX: u8 = 5;

    /// Effort `level`, 1 to [`Effort::MAX`]; `None` outside.
    pub fn new(level: u8) -> Option<Effort> {
        (1..=Self::MAX).contains(&level).then_some(Effort(level))
    }

    /// The level, 1 to [`Effort::MAX`].
    pub fn level(self) -> u8 {
        self.0
    }

    /// On boards past 256 cells, the largest rectangle searched whole for one placement.
    fn whole_cells(self) -> usize {
        [400, 900, 1600, 2500, 4096][(self.0 as usize - 1).min(4)]
    }

    /// How wide the beam that tidies a region of `cells` (at most [`BEAM_CELLS`]): 1000 boards
    /// up to 256 cells, fewer on larger regions (300 on 30×30), doubled per level up to 8×.
    fn tidy(self, cells: usize) -> Beam {
        let width = (256_000 / cells.max(1)).clamp(300, 1000);
        Beam {
            width: width << (self.0 - 1).min(3),
        }
    }

    /// How wide the beam that brings a line of a region of `cells` cells nearly home
    /// ([`close_line`]): twice the tidying beam up to 256 cells (2000 boards), as wide past
    /// (30×30: 600 boards took 4.9 s a board against 3.4 s for 300, for the same lengths).
    fn line(self, cells: usize) -> Beam {
        let Beam { width } = self.tidy(cells);
        Beam {
            width: if cells <= 256 { 2 * width } else { width },
        }
    }

    /// How hard the answers of boards of `cells` cells are polished: larger rectangles at more
    /// effort, smaller ones on very large boards (whose answers are long).
    fn polish(self, cells: usize) -> Polish {
        let level = self.0 as usize - 1;
        let window_cells = if cells > 2_500 { 12 } else { 16 } + 2 * level;
        Polish {
            window_cells,
            window_nodes: 20_000 << level,
        }
    }

    /// The weights tried, coarse to fine (as `num / den`), and the states each may expand.
    fn ladder(self) -> impl Iterator<Item = ((u32, u32), u64)> {
        const WEIGHTS: [(u32, u32); 6] = [(3, 1), (2, 1), (3, 2), (5, 4), (9, 8), (17, 16)];
        let rungs = 2 + self.0 as usize;
        let allowance = 2_000_000u64 << (2 * (self.0 as u64 - 1));
        WEIGHTS.into_iter().take(rungs).map(move |w| (w, allowance))
    }
}

impl Default for Effort {
    fn default() -> Self {
        Effort(1)
    }
}

/// Runs weighted IDA* (through `run`, given a weight and limits) down the effort's ladder on a
/// board of at most 32 cells, and keeps the shortest answer; the constructive answer when no
/// rung finishes within its allowance. The caller's limits bound the whole.
pub(crate) fn weighted_ladder(
    start: &Board,
    goal: &Board,
    effort: Effort,
    limits: &Limits,
    run: impl Fn((u32, u32), &Limits) -> Result<Found, SearchError>,
) -> Result<Found, SearchError> {
    let started = Instant::now();
    let mut best: Option<Solution> = None;
    let mut total = Stats::default();
    for (weight, allowance) in effort.ladder() {
        let used = total.expanded;
        let left_for_caller = limits.max_nodes.map(|m| m.saturating_sub(used));
        let (cap, ours) = match left_for_caller {
            Some(left) if left <= allowance => (left, false),
            _ => (allowance, true),
        };
        let rung = Limits {
            max_nodes: Some(cap),
            ..limits.remaining(started, 0)
        };
        match run(weight, &rung) {
            Ok((s, stats)) => {
                total.absorb(&stats);
                if best.as_ref().is_none_or(|b| s.len() < b.len()) {
                    best = Some(s);
                }
            }
            Err(SearchError::Limit(l)) => {
                total.absorb(&l.stats);
                // A finer weight would cost more: stop at the first rung past its allowance.
                if !(ours && l.kind == LimitKind::Nodes) && best.is_none() {
                    return Err(SearchError::Limit(LimitExceeded {
                        stats: total_with_time(total, started),
                        ..l
                    }));
                }
                break;
            }
            Err(e) => return Err(e),
        }
    }
    let solution = match best {
        Some(s) => s,
        None => {
            let fallback = Limits {
                max_nodes: None,
                ..limits.remaining(started, 0)
            };
            let (s, stats) = crate::near::placement::solve_large(start, goal, &fallback)?;
            total.absorb(&stats);
            s
        }
    };
    Ok((solution, total_with_time(total, started)))
}

fn total_with_time(mut total: Stats, started: Instant) -> Stats {
    total.elapsed = started.elapsed();
    total
}

/// Near-optimal answer for a board of more than 32 cells (see the module docs): peel, then
/// finish the last region with `core` (the weighted ladder on that region's own board and
/// goal), at the level (`core`'s third argument) being run. Each effort level up to `effort`
/// is run in turn and the shortest answer kept, so that more effort is never longer (without
/// limits). With `parallel`, the boards the beam hands over are finished at once on two
/// threads (unless a node limit is set, which needs one count).
pub(crate) fn solve_by_peeling(
    start: &Board,
    goal: &Board,
    effort: Effort,
    limits: &Limits,
    parallel: bool,
    core: impl Fn(&Board, &Board, Effort, &Limits) -> Result<Found, SearchError> + Sync,
) -> Result<Found, SearchError> {
    let started = Instant::now();
    let mut shortest = Shortest::default();
    for level in 1..=effort.level() {
        let at = limits.remaining(started, shortest.total.expanded);
        if !shortest.offer(peel_at(start, goal, Effort(level), &at, parallel, &core)) {
            break;
        }
    }
    let (moves, stats) = shortest.into_result(started)?;
    Ok((Solution::new(moves), stats))
}

/// Keeps the shortest of several answers to one board and the figures of all. A limit (or any
/// error) that stops one candidate leaves the answer another found, as the ladder keeps its
/// best rung (`weighted_ladder`); without any answer the first candidate's error stands, with
/// the figures of all.
#[derive(Default)]
struct Shortest {
    best: Option<Vec<Move>>,
    failure: Option<SearchError>,
    total: Stats,
}

impl Shortest {
    /// Takes one candidate's outcome; `false` once one has failed (no point going on).
    fn offer(&mut self, result: Result<(Vec<Move>, Stats), SearchError>) -> bool {
        match result {
            Ok((moves, stats)) => {
                self.total.absorb(&stats);
                if self.best.as_ref().is_none_or(|b| moves.len() < b.len()) {
                    self.best = Some(moves);
                }
                true
            }
            Err(e) => {
                if let SearchError::Limit(l) = &e {
                    self.total.absorb(&l.stats);
                }
                self.failure.get_or_insert(e);
                false
            }
        }
    }

    /// The shortest answer with the figures of all candidates, or why there is none.
    fn into_result(self, started: Instant) -> Result<(Vec<Move>, Stats), SearchError> {
        let stats = total_with_time(self.total, started);
        match (self.best, self.failure) {
            (Some(moves), _) => Ok((moves, stats)),
            (None, Some(SearchError::Limit(l))) => {
                Err(SearchError::Limit(LimitExceeded { stats, ..l }))
            }
            (None, Some(e)) => Err(e),
            (None, None) => Err(SearchError::Unsupported(
                "the near-optimal solver found no answer".into(),
            )),
        }
    }
}

/// `e` with the figures of the work before it (`total`) added, so that a limit reports all
/// that was spent.
fn charged(e: impl Into<SearchError>, total: &Stats) -> SearchError {
    match e.into() {
        SearchError::Limit(mut l) => {
            l.stats.absorb(total);
            SearchError::Limit(l)
        }
        other => other,
    }
}

/// [`solve_by_peeling`] at one effort level.
fn peel_at(
    start: &Board,
    goal: &Board,
    effort: Effort,
    limits: &Limits,
    parallel: bool,
    core: &(impl Fn(&Board, &Board, Effort, &Limits) -> Result<Found, SearchError> + Sync),
) -> Result<(Vec<Move>, Stats), SearchError> {
    let started = Instant::now();
    let (outer, mut total, region, region_goal) = peel_outer(start, goal, effort, limits)?;
    let mut polished = Stats::default();
    let mut moves = polish(
        start,
        outer,
        effort.polish(start.shape().cells()),
        &limits.remaining(started, total.expanded),
        &mut polished,
    );
    total.absorb(&polished);
    // Beam it, handing over a board at each of the beam's fractions.
    let tidied = if region.shape().cells() > CORE_CELLS && tidy_pays(region.shape()) {
        let priority = peel_priority(&region_goal, core_region);
        let (mut tidied, stats) = tidy(
            &region,
            &region_goal,
            &priority,
            effort.tidy(region.shape().cells()),
            &limits.remaining(started, total.expanded),
        )
        .map_err(|e| charged(e, &total))?;
        total.absorb(&stats);
        tidied.dedup();
        tidied
    } else {
        vec![Vec::new()]
    };
    // Finish each, keep the shortest.
    let mut shortest = Shortest {
        total,
        ..Shortest::default()
    };
    if parallel && limits.max_nodes.is_none() && tidied.len() > 1 {
        // At once, each under an even share of the stored-state limit.
        let share = Limits {
            max_stored: limits.max_stored.map(|m| (m / tidied.len() as u64).max(1)),
            ..limits.clone()
        };
        let used = shortest.total.expanded;
        let finished: Vec<_> = crate::parallel::run(|| {
            tidied
                .par_iter()
                .map(|tidying| {
                    let limits = share.remaining(started, used);
                    finish_region(&region, &region_goal, tidying, effort, &limits, core)
                })
                .collect()
        });
        for result in finished {
            shortest.offer(result);
        }
    } else {
        for tidying in &tidied {
            let limits = limits.remaining(started, shortest.total.expanded);
            let result = finish_region(&region, &region_goal, tidying, effort, &limits, core);
            if !shortest.offer(result) {
                break;
            }
        }
    }
    let (region_moves, stats) = shortest.into_result(started)?;
    moves.extend_from_slice(&region_moves);
    Ok((moves, stats))
}

/// Moves that peel `start` down to a region of at most [`BEAM_CELLS`] cells, the figures, and
/// that region's board and goal: line by line, the line beams over strips ([`close_line_in`])
/// bring the next line's tiles nearer home, and the placements finish it, the tiles of the
/// next `SOON_LINES` lines weighing more. Unlike the beams on whole regions, the strips pay
/// on thin boards too (seed 1, 2–3 boards: 20×60 2.81 → 2.61 times the Manhattan bound, 6×200
/// 3.32 → 3.08, 4×250 3.41 → 3.31, for 1.6 to 2.7 times the time). Reports its progress (the
/// cells left after each line, and a last report however it ends) to the limits' hook.
fn peel_outer(
    start: &Board,
    goal: &Board,
    effort: Effort,
    limits: &Limits,
) -> Result<(Vec<Move>, Stats, Board, Board), SearchError> {
    let placement = Placement::WeighOthers {
        whole_cells: effort.whole_cells(),
        soon_lines: Some(SOON_LINES),
    };
    let mut p = Peeling::new(start, goal, &[], limits);
    let report = |p: &Peeling, expanded: u64, finished: bool| {
        if let Some(hook) = &limits.progress {
            (hook.0)(&SearchProgress {
                stage: Stage::Peeling {
                    left: p.board.shape().cells(),
                    cells: start.shape().cells(),
                },
                expanded,
                elapsed: p.started.elapsed(),
                layout: std::time::Duration::ZERO,
                finished,
                line: None,
            });
        }
    };
    let mut peel = || -> Result<(), SearchError> {
        while p.board.shape().cells() > BEAM_CELLS {
            let priority = peel_priority(&p.goal, beam_region);
            for window in line_strips(&p.board, &priority) {
                let how = effort.line(BEAM_CELLS);
                p.play(close_line_in(
                    &p.board,
                    &p.goal,
                    &priority,
                    window,
                    how,
                    &p.left(),
                ))?;
            }
            p.place_lines(placement, beam_region, 1)?;
            report(&p, p.total.expanded, false);
        }
        Ok(())
    };
    let peeled = peel();
    if start.shape().cells() > BEAM_CELLS {
        // After a limit, the error's count (it includes the step that stopped).
        let expanded = match &peeled {
            Err(SearchError::Limit(l)) => l.stats.expanded,
            _ => p.total.expanded,
        };
        report(&p, expanded, true);
    }
    peeled?;
    Ok((p.moves, p.total, p.board, p.goal))
}

/// A board being peeled line by line: the region left (as a board of its own, with its goal),
/// the moves so far from the start, and what finding them cost, charged to the caller's
/// limits.
struct Peeling<'a> {
    board: Board,
    goal: Board,
    moves: Vec<Move>,
    total: Stats,
    started: Instant,
    limits: &'a Limits,
}

impl<'a> Peeling<'a> {
    /// `start` (whose goal is `goal`) after `moves`.
    fn new(start: &Board, goal: &Board, moves: &[Move], limits: &'a Limits) -> Peeling<'a> {
        let mut p = Peeling {
            board: start.clone(),
            goal: goal.clone(),
            moves: Vec::new(),
            total: Stats::default(),
            started: Instant::now(),
            limits,
        };
        p.apply(moves);
        p
    }

    /// What is left of the caller's limits.
    fn left(&self) -> Limits {
        self.limits.remaining(self.started, self.total.expanded)
    }

    /// Applies `moves` to the board.
    fn apply(&mut self, moves: &[Move]) {
        for &m in moves {
            self.board.apply(m);
        }
        self.moves.extend_from_slice(moves);
    }

    /// Applies what a beam found, counting its figures; a limit it hit is charged with all the
    /// work so far.
    fn play(
        &mut self,
        found: Result<(Vec<Move>, Stats), LimitExceeded>,
    ) -> Result<(), SearchError> {
        let (moves, stats) = found.map_err(|e| charged(e, &self.total))?;
        self.total.absorb(&stats);
        self.apply(&moves);
        Ok(())
    }

    /// The placements peel up to `max_lines` lines (of the peeling down to `small`); the region
    /// left becomes the board.
    fn place_lines(
        &mut self,
        placement: Placement,
        small: impl Fn(usize, usize) -> bool,
        max_lines: usize,
    ) -> Result<(), SearchError> {
        let lines = reduce(
            &self.board,
            &self.goal,
            &self.left(),
            placement,
            small,
            max_lines,
        )
        .map_err(|e| charged(e, &self.total))?;
        self.total.absorb(&lines.stats);
        self.moves.extend_from_slice(&lines.moves);
        (self.board, self.goal) = lines
            .region(&self.goal)
            .map_err(|e| charged(e, &self.total))?;
        Ok(())
    }
}

/// Regions the beams take whole ([`BEAM_CELLS`]).
fn beam_region(rows: usize, cols: usize) -> bool {
    rows * cols <= BEAM_CELLS
}

/// Regions of at most this many cells are left to [`Effort::ladder`]'s weighted search.
fn core_region(rows: usize, cols: usize) -> bool {
    rows * cols <= CORE_CELLS
}

/// Moves from `region` (tidied by `tidying`) to `goal`: each line is brought nearly home by
/// the line beam ([`close_line`]) and finished by the placements, while the region is not
/// thin; then the placements peel down to the core, which `core` solves; the whole is
/// polished.
fn finish_region(
    region: &Board,
    goal: &Board,
    tidying: &[Move],
    effort: Effort,
    limits: &Limits,
    core: &impl Fn(&Board, &Board, Effort, &Limits) -> Result<Found, SearchError>,
) -> Result<(Vec<Move>, Stats), SearchError> {
    let placement = Placement::WeighOthers {
        whole_cells: effort.whole_cells(),
        soon_lines: None,
    };
    let mut p = Peeling::new(region, goal, tidying, limits);
    while p.board.shape().cells() > CORE_CELLS && tidy_pays(p.board.shape()) {
        let priority = peel_priority(&p.goal, core_region);
        let how = effort.line(p.board.shape().cells());
        p.play(close_line(&p.board, &p.goal, &priority, how, &p.left()))?;
        // The placements finish that line.
        p.place_lines(placement, core_region, 1)?;
    }
    p.place_lines(placement, core_region, usize::MAX)?;
    let (rest, stats) =
        core(&p.board, &p.goal, effort, &p.left()).map_err(|e| charged(e, &p.total))?;
    p.total.absorb(&stats);
    p.moves.extend_from_slice(rest.moves());
    let mut polished = Stats::default();
    let moves = polish(
        region,
        p.moves,
        effort.polish(region.shape().cells()),
        &limits.remaining(p.started, p.total.expanded),
        &mut polished,
    );
    p.total.absorb(&polished);
    Ok((moves, total_with_time(p.total, p.started)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::HeuristicKind;
    use crate::search::LimitKind;
    use crate::solver::{Algorithm, Answer, Outcome, Solver};
    use crate::table::Table;
    use crate::{Board, Shape};
    use rand::SeedableRng;
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    fn near(goal: &Board, effort: u8) -> Solver {
        Solver::new(
            goal.clone(),
            Algorithm::Near,
            HeuristicKind::LinearConflict,
            Limits::default(),
        )
        .unwrap()
        .with_effort(Effort::new(effort).unwrap())
        .with_single_thread(true)
    }

    fn solved(s: &Solver, b: &Board) -> Answer {
        match s.solve(b).unwrap() {
            Outcome::Solved(a) => a,
            Outcome::Unsolvable => panic!("{b:?} reported unsolvable"),
        }
    }

    #[test]
    fn answers_replay_on_every_size_and_are_never_called_optimal() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        for (w, h) in [
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (2, 7),
            (7, 2),
            (3, 9),
            (6, 6),
            (10, 10),
            (17, 16),
            (2, 128),
            (128, 2),
            (3, 40),
        ] {
            let shape = Shape::new(w, h).unwrap();
            // The usual goals and a random one.
            let random_goal = crate::random::random_board(shape, &mut rng);
            for goal in [
                Board::goal(shape),
                Board::goal_blank_first(shape),
                random_goal,
            ] {
                let s = near(&goal, 1);
                let b = crate::random::random_solvable(&goal, &mut rng);
                let a = solved(&s, &b);
                a.solution.verify(&b, &goal).unwrap();
                assert!(!a.optimal, "{shape}");
                assert_eq!(a.algorithm, Algorithm::Near);
                assert_eq!(solved(&s, &goal).solution.len(), 0);
            }
        }
    }

    #[test]
    fn boards_past_the_beams_region_are_peeled_first_and_stay_short() {
        // Past 900 cells the strip beams and the placements peel lines (soon-placed tiles
        // weighing more) down to the beams' region; thin regions skip its beams. Answers
        // replay, are never called optimal, and stay well under the constructive solver's 4.6
        // times the Manhattan bound (about 2.3 on 31×30, 3.0 on 12×80).
        let mut rng = rand::rngs::SmallRng::seed_from_u64(31);
        for (w, h) in [(31, 30), (12, 80)] {
            let shape = Shape::new(w, h).unwrap();
            for goal in [
                Board::goal(shape),
                crate::random::random_board(shape, &mut rng),
            ] {
                let b = crate::random::random_solvable(&goal, &mut rng);
                let a = solved(&near(&goal, 1), &b);
                a.solution.verify(&b, &goal).unwrap();
                assert!(!a.optimal);
                use crate::heuristic::{Heuristic, Manhattan};
                let manhattan = Manhattan::new(&goal).estimate(b.cells()) as usize;
                assert!(
                    a.solution.len() * 10 <= manhattan * 35,
                    "{shape}: {} moves, Manhattan {manhattan}",
                    a.solution.len()
                );
            }
        }
    }

    #[test]
    fn lengths_stay_within_the_coarsest_weight_of_the_optimum() {
        // Weighted IDA* with weight 3 over an admissible heuristic is at most 3 times the
        // optimum; the ladder keeps the shortest of its rungs. Optima from the complete table.
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let table = Table::build(&goal).unwrap();
        let s = near(&goal, 1);
        let mut rng = rand::rngs::SmallRng::seed_from_u64(5);
        for _ in 0..200 {
            let b = crate::random::random_solvable(&goal, &mut rng);
            let opt = table.distance(&b).unwrap() as usize;
            let len = solved(&s, &b).solution.len();
            assert!(
                len >= opt && len <= 3 * opt,
                "{b:?}: {len} vs optimum {opt}"
            );
        }
    }

    #[test]
    fn more_effort_is_never_longer() {
        // Up to 32 cells more effort adds rungs to the ladder; past that every lower level is
        // run too and the shortest answer kept.
        let mut rng = rand::rngs::SmallRng::seed_from_u64(9);
        for (w, h) in [(4, 4), (5, 5), (8, 7), (10, 10)] {
            let goal = Board::goal(Shape::new(w, h).unwrap());
            let (one, two) = (near(&goal, 1), near(&goal, 2));
            for _ in 0..3 {
                let b = crate::random::random_solvable(&goal, &mut rng);
                let (a, c) = (solved(&one, &b), solved(&two, &b));
                c.solution.verify(&b, &goal).unwrap();
                assert!(c.solution.len() <= a.solution.len(), "{w}x{h}");
            }
        }
    }

    #[test]
    fn limits_and_cancellation_stop_it() {
        let goal = Board::goal(Shape::new(100, 100).unwrap());
        let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
        let b = crate::random::random_solvable(&goal, &mut rng);
        let s = near(&goal, 1);
        let quick = Limits {
            max_time: Some(Duration::from_millis(20)),
            ..Limits::default()
        };
        let started = std::time::Instant::now();
        let e = s.solve_within(&b, &quick).unwrap_err();
        assert!(e.limit_stats().is_some(), "{e}");
        assert!(started.elapsed() < Duration::from_secs(2));
        let cancel = Arc::new(AtomicBool::new(true));
        let cancelled = Limits {
            cancel: Some(cancel),
            ..Limits::default()
        };
        let e = s.solve_within(&b, &cancelled).unwrap_err();
        assert!(e.limit_stats().is_some(), "{e}");
        // A node limit covers the peeling and the last region together.
        let goal = Board::goal(Shape::new(10, 10).unwrap());
        let b = crate::random::random_solvable(&goal, &mut rng);
        let s = near(&goal, 3);
        let cap = 1_500_000;
        let capped = Limits {
            max_nodes: Some(cap),
            ..Limits::default()
        };
        match s.solve_within(&b, &capped) {
            Ok(Outcome::Solved(a)) => {
                a.solution.verify(&b, &goal).unwrap();
                assert!(a.stats.expanded <= cap + 1000, "{}", a.stats.expanded);
            }
            Ok(Outcome::Unsolvable) => panic!("solvable board reported unsolvable"),
            Err(e) => assert!(e.limit_stats().is_some(), "{e}"),
        }
    }

    #[test]
    fn fallback_answers_a_search_past_its_limit() {
        // Korf's 15-puzzle #1 (57 moves) with plain IDA* and Manhattan under 1,000 states.
        let goal = Board::goal_blank_first(Shape::new(4, 4).unwrap());
        let b = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3").unwrap();
        let limits = Limits {
            max_nodes: Some(1000),
            ..Limits::default()
        };
        let s = Solver::new(
            goal.clone(),
            Algorithm::IdaStar,
            HeuristicKind::Manhattan,
            limits,
        )
        .unwrap();
        assert!(s.solve(&b).is_err());
        let a = solved(&s.with_fallback(true), &b);
        a.solution.verify(&b, &goal).unwrap();
        assert_eq!(
            (a.optimal, a.algorithm, a.fallback_after),
            (false, Algorithm::Near, Some(LimitKind::Nodes))
        );
        assert!(a.solution.len() >= 57);
    }
}
