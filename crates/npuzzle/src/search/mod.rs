//! Searches over board states. Every search returns a [`Solution`] with [`Stats`] and honours
//! [`Limits`], failing with [`SearchError::Limit`] (still carrying the stats) instead of running
//! out of memory or time, so the CLI, the web page and the comparison table report the same
//! figures in the same way.
//!
//! `idastar` is the textbook IDA* over any [`crate::heuristic::Heuristic`], kept as the readable
//! version; `engine` is the one fast IDA* every production path runs (Manhattan, linear
//! conflict and pattern databases are its evaluators, through the interface of `eval`), with
//! `move_pruning` to skip redundant move sequences, on one core or all.

use crate::board::{BoardError, Move};
use crate::solution::Solution;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use thiserror::Error;

use engine::REPORT_EVERY;

/// What a search did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// States whose successors were generated.
    pub expanded: u64,
    /// Successor states generated.
    pub generated: u64,
    /// Most states held in memory at once (open + closed lists, or the IDA* path).
    pub peak_stored: u64,
    /// Wall time (serialized as whole microseconds).
    #[serde(serialize_with = "as_micros")]
    pub elapsed: Duration,
}

impl Stats {
    /// Adds the work of `other` (a search run as part of this one): states expanded and
    /// generated add up, the peak is the larger; the elapsed time is left to the caller, who
    /// knows whether the two ran one after the other.
    pub fn absorb(&mut self, other: &Stats) {
        self.expanded += other.expanded;
        self.generated += other.generated;
        self.peak_stored = self.peak_stored.max(other.peak_stored);
    }
}

fn as_micros<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_u64(u64::try_from(d.as_micros()).unwrap_or(u64::MAX))
}

/// Bounds on a search. `None` means unbounded.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Most states to expand.
    pub max_nodes: Option<u64>,
    /// Longest wall time.
    pub max_time: Option<Duration>,
    /// Most states to hold in memory at once.
    pub max_stored: Option<u64>,
    /// Set from elsewhere to stop the search early.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Stored states shared with every other search holding the same pool (e.g. all the
    /// calls of one Python process, whatever their threads): a search stops with the memory
    /// limit when it would take more than the pool has left, besides `max_stored`.
    pub stored_pool: Option<Arc<StoredPool>>,
    /// Receives progress reports from long searches (the IDA* engine reports its bound and
    /// states expanded about twice a second, the searches that store their states (BFS,
    /// bidirectional, A*, greedy) the states they hold and have expanded, the near-optimal
    /// solver's peeling of boards past 900 cells the cells left after every line).
    pub progress: Option<engine::ProgressHook>,
    /// Where an optimal search on the IDA* engine goes on from (its first iteration's bound,
    /// the subtrees of it already searched, the states and time spent before it, and the
    /// frontier's order), instead of from the start: the last [`Checkpoint`] an earlier search
    /// of the same board with the same solver handed to [`Limits::checkpoint`]. It is trusted
    /// as such: one edited by hand (a higher bound) can make the answer longer than optimal.
    /// The answer's [`Stats`] count this run alone. Other searches ignore it.
    pub resume: Option<Arc<Checkpoint>>,
    /// Receives a [`Checkpoint`] after every iteration of an optimal search on the IDA* engine
    /// that ends without a solution, every minute within a long iteration, and when the search
    /// stops within one: keep the last to go on later with [`Limits::resume`].
    pub checkpoint: Option<CheckpointHook>,
}

/// A time limit given in seconds that is not a positive number.
#[derive(Clone, Debug, PartialEq, Error)]
#[error("a time limit must be a positive number of seconds, not {0}")]
pub struct BadSeconds(pub f64);

/// `secs` seconds as a time limit: every front end reads its `timeout` option through this.
/// Any positive number is taken, up to about 31 years (more, infinity included, is that
/// much); zero, negative numbers and NaN are refused.
pub fn seconds(secs: f64) -> Result<Duration, BadSeconds> {
    if secs > 0.0 {
        Ok(Duration::from_secs_f64(secs.min(1e9)))
    } else {
        Err(BadSeconds(secs))
    }
}

impl Limits {
    /// What is left of these limits after `used` states expanded since `started`: fewer
    /// nodes (at least one) and less time; memory and cancellation as they were.
    pub fn remaining(&self, started: Instant, used: u64) -> Limits {
        Limits {
            max_nodes: self.max_nodes.map(|m| m.saturating_sub(used).max(1)),
            max_time: self.max_time.map(|t| t.saturating_sub(started.elapsed())),
            ..self.clone()
        }
    }

    /// Whether the time limit (counted from `start`) has passed or the cancel flag is set:
    /// the limits that do not count states, for work between searches (the budget of a
    /// search reads them through this too).
    pub fn time_or_cancel(&self, start: Instant) -> Option<LimitKind> {
        if self.max_time.is_some_and(|t| start.elapsed() > t) {
            Some(LimitKind::Time)
        } else if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            Some(LimitKind::Cancelled)
        } else {
            None
        }
    }

    /// These limits for the board of input line `line` of a batch: its progress reports carry
    /// the line, so that a front end can tell boards searched at once apart. `None` when
    /// there is no progress hook (nothing to label).
    pub fn reporting_line(&self, line: usize) -> Option<Limits> {
        let hook = self.progress.clone()?;
        Some(Limits {
            progress: Some(engine::ProgressHook(Arc::new(move |p: &SearchProgress| {
                (hook.0)(&SearchProgress {
                    line: Some(line),
                    ..*p
                })
            }))),
            ..self.clone()
        })
    }

    /// One of `parts` searches that run side by side: each holds its share of the
    /// stored-state cap (at least one state).
    pub fn share(&self, parts: usize) -> Limits {
        let parts = parts.max(1) as u64;
        Limits {
            max_stored: self.max_stored.map(|m| (m / parts).max(1)),
            ..self.clone()
        }
    }
}

/// A budget of stored states shared by concurrent searches (see [`Limits::stored_pool`]):
/// each search takes states from it as its open and closed lists grow (in steps of
/// [`StoredPool::STEP`]) and gives them back when it ends.
#[derive(Debug)]
pub struct StoredPool {
    total: u64,
    free: std::sync::atomic::AtomicU64,
}

impl StoredPool {
    /// States a search takes at a time.
    pub const STEP: u64 = 1 << 16;

    /// A pool of `total` stored states.
    pub fn new(total: u64) -> StoredPool {
        StoredPool {
            total,
            free: std::sync::atomic::AtomicU64::new(total),
        }
    }

    /// Its size.
    pub fn total(&self) -> u64 {
        self.total
    }

    /// States not taken now.
    pub fn free(&self) -> u64 {
        self.free.load(Ordering::Relaxed)
    }

    /// Takes `n` states if that many are free.
    fn take(&self, n: u64) -> bool {
        self.free
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |f| f.checked_sub(n))
            .is_ok()
    }

    fn give(&self, n: u64) {
        self.free.fetch_add(n, Ordering::AcqRel);
    }
}

/// A generous estimate of the memory one stored state costs in the searches that store states
/// (BFS, bidirectional BFS, A*, greedy): the packed board, its parent link and the hash table's
/// share (measured at 90–115 bytes on 5×5 boards with five million states stored).
pub const STORED_STATE_BYTES: u64 = 128;

impl Limits {
    /// The `max_stored` that keeps a storing search within about `bytes` of memory.
    pub fn stored_states_within(bytes: u64) -> u64 {
        (bytes / STORED_STATE_BYTES).max(1)
    }
}

/// Which limit stopped a search.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum LimitKind {
    /// `max_nodes` reached.
    Nodes,
    /// `max_time` reached.
    Time,
    /// `max_stored` reached.
    Memory,
    /// Cancelled from outside.
    Cancelled,
}

impl LimitKind {
    /// Its short name (`nodes`, `time`, `memory`, `cancelled`), as every front end prints it.
    pub fn name(self) -> &'static str {
        crate::names::name_of(self)
    }
}

impl crate::names::Named for LimitKind {
    const WHAT: &'static str = "limit";
    const SPELLINGS: &'static [(&'static str, LimitKind)] = &[
        ("nodes", LimitKind::Nodes),
        ("time", LimitKind::Time),
        ("memory", LimitKind::Memory),
        ("cancelled", LimitKind::Cancelled),
    ];
}

crate::names::from_str_by_name!(LimitKind);

impl std::fmt::Display for LimitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LimitKind::Nodes => "node limit",
            LimitKind::Time => "time limit",
            LimitKind::Memory => "memory (stored states) limit",
            LimitKind::Cancelled => "cancellation",
        })
    }
}

/// A search stopped by one of its [`Limits`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "search stopped by the {kind} after expanding {} state{} in {:.3} s{}",
    stats.expanded,
    if stats.expanded == 1 { "" } else { "s" },
    stats.elapsed.as_secs_f64(),
    if *laying_out { ", while laying its tables out for the rest of the search" } else { "" }
)]
pub struct LimitExceeded {
    /// Which limit.
    pub kind: LimitKind,
    /// What the search had done by then.
    pub stats: Stats,
    /// Whether it stopped while the solver laid its databases out for the search (a 5×5
    /// optimal search's first long pause, see `Solver::solve`), not while searching.
    pub laying_out: bool,
}

impl LimitExceeded {
    /// A search stopped by `kind` while searching, having done `stats`.
    pub fn new(kind: LimitKind, stats: Stats) -> Self {
        Self {
            kind,
            stats,
            laying_out: false,
        }
    }
}

/// Why a search returned no solution.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SearchError {
    /// The board cannot reach the goal.
    #[error("the board cannot reach the goal")]
    Unsolvable,
    /// A limit was hit.
    #[error(transparent)]
    Limit(#[from] LimitExceeded),
    /// Start and goal differ in shape.
    #[error(transparent)]
    Shape(#[from] BoardError),
    /// The board is too large for this search's state encoding.
    #[error("{0}")]
    Unsupported(String),
    /// The search was asked to go on from a checkpoint that is not its own.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
}

/// A solution together with the search's figures.
pub type Found = (Solution, Stats);

/// The first level of an optimal search split between machines or tasks (see
/// `Solver::split`): the board solved within the frontier's depth, or the subtree roots to
/// hand out and the first bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Split {
    /// The board is solved within the frontier's depth: an optimal solution.
    Solved(Solution),
    /// The subtree roots to hand out (opaque paths in the solver's search space, for
    /// `Solver::search_subtrees` of a solver for the same goal) and the first bound.
    Roots {
        /// One path per subtree root.
        paths: Vec<Vec<Move>>,
        /// The first iteration's bound.
        first_bound: u32,
    },
}

impl Split {
    /// The subtree roots dealt into at most `tasks` chunks of neighbouring roots (none when
    /// solved).
    pub fn chunks(&self, tasks: usize) -> Vec<&[Vec<Move>]> {
        match self {
            Split::Solved(_) => Vec::new(),
            Split::Roots { paths, .. } => paths.chunks(per_chunk(paths.len(), tasks)).collect(),
        }
    }
}

/// Roots a chunk when `roots` are dealt into at most `tasks` chunks (the last may hold fewer).
fn per_chunk(roots: usize, tasks: usize) -> usize {
    roots.div_ceil(tasks.max(1)).max(1)
}

/// What one bounded search of some subtrees of a [`Split`] found: the same solution and
/// statistics as every other search, and the bound for the next iteration.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubtreeResult {
    /// Moves from the start to the goal within the bound (optimal when every smaller bound
    /// was searched without a solution).
    pub solution: Option<Solution>,
    /// The least f-value above the bound met (`None`: nothing beyond it, the subtrees are
    /// exhausted).
    pub next_bound: Option<u32>,
    /// What the search cost (the peak is the path: bound + 1).
    pub stats: Stats,
    /// Per root, in the order given: the least heuristic value of the states expanded below
    /// it (its own when none), `None` for roots not searched (beyond the bound, or after the
    /// solution). [`SplitIterations`] orders the next iteration by them.
    pub nearest: Vec<Option<u32>>,
}

/// The order in which a bounded iteration should take its subtree roots: nearest approach in
/// the iteration before first (ties by the root's own estimate `h`, where the caller knows
/// it; else 0: ties keep their order), roots not searched then last, keeping their order. The
/// key of one root, for a stable sort.
///
/// **Why.** Every iteration but the last must be searched whole, so their order does not
/// matter; the last one stops at the first solution, and on hard boards it is most of the
/// work. A subtree whose states came nearest the goal one bound lower is the likeliest to
/// hold a solution now (on Korf's 24-puzzles 1 and 5 the last iteration shrinks about
/// tenfold). Sorting by the roots' own estimates alone does worse than no order.
pub(crate) fn nearest_first(nearest: Option<u32>, h: u32) -> (bool, u32, u32) {
    match nearest {
        Some(n) => (false, n, h),
        None => (true, 0, 0),
    }
}

/// The iterations of a split search, kept by whoever hands out the subtrees (a scheduler such
/// as Ray, or a test): every subtree search under the current [`SplitIterations::bound`]
/// reports with [`SplitIterations::record`]; once all have answered (or one found the goal),
/// [`SplitIterations::advance`] gives the next bound. The first solution found under a bound
/// is optimal, since every smaller bound was searched in full.
///
/// Made with [`SplitIterations::dealing`], the iterations also deal the roots: each
/// iteration's [`SplitIterations::chunks`] hold the roots nearest the goal in the iteration
/// before first, so that the last iteration, which stops at the first solution, is short, as
/// in the engine on one machine.
#[derive(Clone, Debug)]
pub struct SplitIterations {
    bound: u32,
    next_bound: Option<u32>,
    found: Option<Solution>,
    stats: Stats,
    deal: Option<Deal>,
}

/// Roots dealt by [`SplitIterations`] itself.
#[derive(Clone, Debug)]
struct Deal {
    /// The roots, in this iteration's order.
    roots: Vec<Vec<Move>>,
    /// Each root's nearest approach in this iteration so far (`None`: not reported).
    nearest: Vec<Option<u32>>,
    /// Roots a chunk (the last may hold fewer).
    per_chunk: usize,
}

impl SplitIterations {
    /// Iterations starting at `first_bound` (from [`Split::Roots`]), over roots the caller
    /// deals.
    pub fn new(first_bound: u32) -> SplitIterations {
        SplitIterations {
            bound: first_bound,
            next_bound: None,
            found: None,
            stats: Stats::default(),
            deal: None,
        }
    }

    /// Iterations of `split` that deal its roots into at most `tasks` chunks, nearest first
    /// from the second iteration on; `None` when the split is solved already.
    pub fn dealing(split: Split, tasks: usize) -> Option<SplitIterations> {
        let Split::Roots { paths, first_bound } = split else {
            return None;
        };
        let per_chunk = per_chunk(paths.len(), tasks);
        let mut it = SplitIterations::new(first_bound);
        it.deal = Some(Deal {
            nearest: vec![None; paths.len()],
            roots: paths,
            per_chunk,
        });
        Some(it)
    }

    /// The bound of the current iteration.
    pub fn bound(&self) -> u32 {
        self.bound
    }

    /// This iteration's chunks of roots, in the order to hand them out (nearest first);
    /// empty unless made by [`SplitIterations::dealing`].
    pub fn chunks(&self) -> Vec<&[Vec<Move>]> {
        match &self.deal {
            Some(d) => d.roots.chunks(d.per_chunk).collect(),
            None => Vec::new(),
        }
    }

    /// Counts one subtree search of the current iteration; `true` once a solution is known
    /// (the searches still running can be stopped: it is optimal).
    pub fn record(&mut self, result: SubtreeResult) -> bool {
        self.stats.absorb(&result.stats);
        if let Some(b) = result.next_bound {
            self.next_bound = Some(self.next_bound.map_or(b, |n| n.min(b)));
        }
        if self.found.is_none() {
            self.found = result.solution;
        }
        self.found.is_some()
    }

    /// [`SplitIterations::record`] for the search of chunk `chunk` of
    /// [`SplitIterations::chunks`], whose roots' nearest approaches order the next iteration
    /// (values past the chunk's roots, or for a chunk that does not exist, are not kept; the
    /// rest of the result counts as with `record`).
    pub fn record_chunk(&mut self, chunk: usize, result: SubtreeResult) -> bool {
        if let Some(d) = &mut self.deal {
            let at = chunk.saturating_mul(d.per_chunk).min(d.nearest.len());
            let end = (at + d.per_chunk).min(d.nearest.len());
            for (slot, n) in d.nearest[at..end].iter_mut().zip(&result.nearest) {
                *slot = *n;
            }
        }
        self.record(result)
    }

    /// Ends the current iteration: the next one's bound, or `None` when a solution was found
    /// ([`SplitIterations::found`]) or the subtrees are exhausted (the goal is unreachable).
    pub fn advance(&mut self) -> Option<u32> {
        if self.found.is_some() {
            return None;
        }
        let next = self.next_bound.take()?;
        self.bound = next;
        if let Some(d) = &mut self.deal {
            let mut keyed: Vec<(Vec<Move>, Option<u32>)> = std::mem::take(&mut d.roots)
                .into_iter()
                .zip(d.nearest.iter().copied())
                .collect();
            keyed.sort_by_key(|(_, n)| nearest_first(*n, 0));
            d.roots = keyed.into_iter().map(|(root, _)| root).collect();
            d.nearest.fill(None);
        }
        Some(next)
    }

    /// The optimal solution, once found.
    pub fn found(&self) -> Option<&Solution> {
        self.found.as_ref()
    }

    /// What every subtree search recorded so far cost together (the elapsed time is the
    /// scheduler's to measure).
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
}

/// Checks limits cheaply from a hot loop: the clock and the cancel flag are read only every
/// 4096 calls. For the searches that store their states ([`Budget::reporting`]) it also sends
/// the limits' progress hook a report (about twice a second, when the clock is read) of the
/// states stored and expanded, and a last one, marked finished, when it is dropped.
pub(crate) struct Budget<'a> {
    limits: &'a Limits,
    start: Instant,
    calls: u32,
    /// States taken from the limits' stored pool, given back on drop.
    taken: u64,
    /// Whether to report progress, and the time of the last report (`None`: none yet).
    reports: bool,
    last_report: Option<Duration>,
    /// The counts at the last reading of the clock (at most 4096 checks old), for the last
    /// report.
    reported: (u64, u64),
}

impl Drop for Budget<'_> {
    fn drop(&mut self) {
        if let Some(pool) = &self.limits.stored_pool {
            pool.give(self.taken);
        }
        if self.last_report.is_some() {
            let (expanded, stored) = self.reported;
            self.report(expanded, stored, true);
        }
    }
}

impl<'a> Budget<'a> {
    /// Starts the clock.
    pub fn new(limits: &'a Limits) -> Budget<'a> {
        Budget::started_at(limits, Instant::now())
    }

    /// A budget whose clock started at `start` (for workers of one search sharing its clock).
    pub fn started_at(limits: &'a Limits, start: Instant) -> Budget<'a> {
        Budget {
            limits,
            start,
            calls: 0,
            // Without a pool nothing is ever taken: the check stays one comparison.
            taken: if limits.stored_pool.is_some() {
                0
            } else {
                u64::MAX
            },
            reports: false,
            last_report: None,
            reported: (0, 0),
        }
    }

    /// The same budget, reporting progress ([`Stage::Stored`]) to the limits' hook, if any:
    /// for the searches that store their states (breadth-first, bidirectional, A*, greedy),
    /// which report nothing else. The last report's counts are those of the last time the
    /// clock was read (within 4096 checks of the end).
    pub fn reporting(mut self) -> Budget<'a> {
        self.reports = self.limits.progress.is_some();
        self
    }

    /// Sends the hook a report of `expanded` and `stored` states (`finished`: the last).
    #[cold]
    fn report(&mut self, expanded: u64, stored: u64, finished: bool) {
        let elapsed = self.start.elapsed();
        let due = self.last_report.map_or(elapsed >= REPORT_EVERY, |last| {
            elapsed >= last + REPORT_EVERY
        });
        if !(finished || due) {
            return;
        }
        self.last_report = Some(elapsed);
        if let Some(hook) = &self.limits.progress {
            (hook.0)(&SearchProgress {
                stage: Stage::Stored(stored),
                expanded,
                elapsed,
                layout: Duration::ZERO,
                finished,
                line: None,
            });
        }
    }

    /// Time since the start.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Fails with [`LimitExceeded`] (carrying `stats`, completed with the states `stored` now
    /// and the time so far) when a limit is exceeded.
    #[inline]
    pub fn enforce(&mut self, stats: &mut Stats, stored: u64) -> Result<(), LimitExceeded> {
        let kind = self.check(stats.expanded, stored);
        self.verdict(kind, stats, stored)
    }

    /// Like [`Budget::enforce`], but reads the clock and the cancel flag on every call (for
    /// callers that already call it only every so many states).
    pub fn enforce_now(&mut self, stats: &mut Stats, stored: u64) -> Result<(), LimitExceeded> {
        let kind = self.check_now(stats.expanded, stored);
        self.verdict(kind, stats, stored)
    }

    fn verdict(
        &self,
        kind: Option<LimitKind>,
        stats: &mut Stats,
        stored: u64,
    ) -> Result<(), LimitExceeded> {
        match kind {
            None => Ok(()),
            Some(kind) => {
                stats.peak_stored = stats.peak_stored.max(stored);
                stats.elapsed = self.elapsed();
                Err(LimitExceeded::new(kind, *stats))
            }
        }
    }

    /// Which limit, if any, the search has now exceeded with `expanded` and `stored` states
    /// (the clock and the cancel flag are read every 4096 calls).
    #[inline]
    pub fn check(&mut self, expanded: u64, stored: u64) -> Option<LimitKind> {
        self.calls = self.calls.wrapping_add(1);
        self.check_counts(expanded, stored).or_else(|| {
            if self.calls.is_multiple_of(4096) {
                self.check_clock(expanded, stored)
            } else {
                None
            }
        })
    }

    /// Like [`Budget::check`], but reads the clock and the cancel flag on every call (for
    /// callers that already call it only every so many states).
    #[inline]
    pub fn check_now(&mut self, expanded: u64, stored: u64) -> Option<LimitKind> {
        self.check_counts(expanded, stored)
            .or_else(|| self.check_clock(expanded, stored))
    }

    /// The node and memory limits (taking states from the stored pool as the search grows).
    #[inline]
    fn check_counts(&mut self, expanded: u64, stored: u64) -> Option<LimitKind> {
        if self.limits.max_nodes.is_some_and(|m| expanded > m) {
            Some(LimitKind::Nodes)
        } else if self.limits.max_stored.is_some_and(|m| stored > m)
            || (stored > self.taken && !self.take_stored(stored))
        {
            Some(LimitKind::Memory)
        } else {
            None
        }
    }

    /// Takes from the stored pool (if any) enough for `stored` states; false when the pool
    /// has not that many left.
    #[cold]
    fn take_stored(&mut self, stored: u64) -> bool {
        let Some(pool) = &self.limits.stored_pool else {
            return true;
        };
        let need = stored - self.taken;
        for n in [need.max(StoredPool::STEP), need] {
            if pool.take(n) {
                self.taken += n;
                return true;
            }
        }
        false
    }

    /// The time limit and the cancel flag (and a progress report, when one is due).
    fn check_clock(&mut self, expanded: u64, stored: u64) -> Option<LimitKind> {
        if self.reports {
            self.reported = (expanded, stored);
            self.report(expanded, stored, false);
        }
        self.limits.time_or_cancel(self.start)
    }
}

/// The end of one IDA* iteration, shared by the IDA* variants: `Ok(None)` when the goal was
/// found, `Ok(Some(bound))` to search again under the next bound, or the error that ends the
/// search (a limit, carrying `stats`; or nothing left above the bound: the goal is unreachable).
pub(crate) fn next_iteration(
    found: bool,
    stop: Option<LimitKind>,
    next_bound: u32,
    stats: Stats,
) -> Result<Option<u32>, SearchError> {
    if found {
        return Ok(None);
    }
    if let Some(kind) = stop {
        return Err(LimitExceeded::new(kind, stats).into());
    }
    if next_bound == u32::MAX {
        return Err(SearchError::Unsolvable);
    }
    Ok(Some(next_bound))
}

mod astar;
mod bfs;
mod bidirectional;
pub(crate) mod checkpoint;
pub(crate) mod engine;
pub(crate) mod eval;
mod idastar;
pub(crate) mod move_pruning;
pub(crate) mod state;

pub use astar::{astar, greedy};
pub use bfs::bfs;
pub use bidirectional::bidirectional;
pub use checkpoint::{Checkpoint, CheckpointError, CheckpointHook};
pub use engine::{ProgressHook, SearchProgress, Stage};
pub use eval::Heuristic;
pub use idastar::idastar;

/// Fails early, without searching, when the shapes differ or the goal is out of reach.
pub(crate) fn check_solvable(
    start: &crate::board::Board,
    goal: &crate::board::Board,
) -> Result<(), SearchError> {
    if crate::parity::is_solvable(start, goal)? {
        Ok(())
    } else {
        Err(SearchError::Unsolvable)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stopped search's message counts its states in words ("1 state", "2 states").
    #[test]
    fn a_limit_names_the_states_it_counted() {
        let stopped = |expanded| {
            LimitExceeded::new(
                LimitKind::Nodes,
                Stats {
                    expanded,
                    ..Stats::default()
                },
            )
            .to_string()
        };
        assert!(
            stopped(1).contains("after expanding 1 state in"),
            "{}",
            stopped(1)
        );
        assert!(
            stopped(2).contains("after expanding 2 states in"),
            "{}",
            stopped(2)
        );
    }

    /// The searches that store their states report how many they hold while they run (a
    /// long search is not silent), and a last report, marked finished, when they stop.
    #[test]
    fn searches_that_store_states_report_progress() {
        // Korf's first 15-puzzle (57 moves; blank-last form): none of the three finishes it
        // within the limit.
        let board = crate::Board::parse("13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2").unwrap();
        let goal = crate::Board::goal(board.shape());
        let h = crate::heuristic::Manhattan::new(&goal);
        type Search = Box<dyn Fn(&Limits) -> Result<Found, SearchError>>;
        let (b, g) = (board.clone(), goal.clone());
        let (b2, g2) = (board.clone(), goal.clone());
        let searches: [(&str, Search); 3] = [
            ("bfs", Box::new(move |l| bfs(&b, &g, l))),
            (
                "bidirectional",
                Box::new(move |l| bidirectional(&b2, &g2, l)),
            ),
            ("astar", Box::new(move |l| astar(&board, &goal, &h, l))),
        ];
        for (name, search) in searches {
            let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
            let into = seen.clone();
            let limits = Limits {
                max_time: Some(Duration::from_millis(1300)),
                progress: Some(ProgressHook(Arc::new(move |p: &SearchProgress| {
                    into.lock().unwrap().push(*p)
                }))),
                ..Limits::default()
            };
            assert!(
                matches!(search(&limits), Err(SearchError::Limit(_))),
                "{name}"
            );
            let seen = seen.lock().unwrap();
            assert!(seen.len() >= 2, "{name}: {seen:?}");
            let (last, running) = seen.split_last().unwrap();
            assert!(
                last.finished && running.iter().all(|p| !p.finished),
                "{name}"
            );
            for p in running {
                let Stage::Stored(stored) = p.stage else {
                    panic!("{name}: {p:?}")
                };
                assert!(stored > 0 && p.expanded > 0, "{name}: {p:?}");
                assert!(p.elapsed >= REPORT_EVERY, "{name}: {p:?}");
            }
        }
    }

    /// Dealt iterations hand out the roots in chunks, and after an iteration the roots nearest
    /// the goal first (ties and the unreported in their order before); a solution ends them.
    #[test]
    fn split_iterations_deal_the_nearest_roots_first() {
        let roots: Vec<Vec<Move>> = [Move::Up, Move::Down, Move::Left, Move::Right]
            .iter()
            .flat_map(|&a| [vec![a], vec![a, a]])
            .collect();
        let split = Split::Roots {
            paths: roots.clone(),
            first_bound: 10,
        };
        let mut it = SplitIterations::dealing(split, 3).unwrap();
        let chunks: Vec<Vec<Vec<Move>>> = it.chunks().iter().map(|c| c.to_vec()).collect();
        assert_eq!(chunks.iter().map(Vec::len).collect::<Vec<_>>(), [3, 3, 2]);
        assert_eq!(chunks.concat(), roots);
        let report = |nearest: Vec<Option<u32>>| SubtreeResult {
            next_bound: Some(12),
            nearest,
            ..SubtreeResult::default()
        };
        // Chunk 1 is reported first; chunk 2 never (its roots keep their order, last).
        assert!(!it.record_chunk(1, report(vec![Some(4), Some(9), Some(4)])));
        assert!(!it.record_chunk(0, report(vec![Some(7), None, Some(2)])));
        assert!(
            !it.record_chunk(7, report(vec![Some(0)])),
            "no such chunk: ignored"
        );
        assert_eq!(it.advance(), Some(12));
        let order: Vec<Vec<Move>> = it.chunks().concat();
        let want: Vec<Vec<Move>> = [2, 3, 5, 0, 4, 1, 6, 7]
            .iter()
            .map(|&i| roots[i].clone())
            .collect();
        assert_eq!(order, want);
        assert_eq!(it.bound(), 12);
        // A solution ends the iterations, whatever else was reported.
        let found = Solution::new(vec![Move::Up]);
        let mut hit = report(vec![Some(0)]);
        hit.solution = Some(found.clone());
        assert!(it.record_chunk(0, hit));
        assert_eq!(it.advance(), None);
        assert_eq!(it.found(), Some(&found));
        assert!(SplitIterations::dealing(Split::Solved(found), 3).is_none());
        assert!(SplitIterations::new(5).chunks().is_empty());
    }

    #[test]
    fn searches_sharing_a_stored_pool_stay_within_it_together() {
        let pool = Arc::new(StoredPool::new(3 * StoredPool::STEP));
        let limits = Limits {
            stored_pool: Some(pool.clone()),
            ..Limits::default()
        };
        let mut stats = Stats::default();
        let mut first = Budget::new(&limits);
        assert!(first.enforce(&mut stats, 2 * StoredPool::STEP).is_ok());
        {
            let mut second = Budget::new(&limits);
            assert!(second.enforce(&mut stats, StoredPool::STEP / 2).is_ok());
            // The pool is spent: growing further is the memory limit, for either search.
            let e = second
                .enforce(&mut stats, 2 * StoredPool::STEP)
                .unwrap_err();
            assert_eq!(e.kind, LimitKind::Memory);
        }
        // The second search ended and gave its states back: the first may grow again.
        assert!(first.enforce(&mut stats, 3 * StoredPool::STEP).is_ok());
        assert_eq!(pool.free(), 0);
        drop(first);
        assert_eq!(pool.free(), pool.total());
        // Without a pool nothing is taken or limited beyond `max_stored`.
        let plain = Limits::default();
        assert!(
            Budget::new(&plain)
                .enforce(&mut stats, u64::MAX / 2)
                .is_ok()
        );
    }
}
