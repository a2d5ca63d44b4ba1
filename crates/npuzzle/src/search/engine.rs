//! The one fast IDA* engine: every production IDA* path (Manhattan distance, linear conflict,
//! pattern databases; any board of at most [`MAX_CELLS`] cells; one core or all) runs here.
//!
//! **Why one engine.** The bound loop, the [`Budget`] (node, time and memory limits and
//! cancellation), duplicate-move pruning ([`MovePruner`]), statistics, progress reports and the
//! parallel tree split are the same whatever the heuristic; only the per-node evaluation
//! differs. So the driver is generic over an [`Evaluator`], and each heuristic provides its own
//! evaluator beside itself (`heuristic/manhattan.rs`, `linear_conflict.rs`, `pdb_set.rs`).
//! Generics, not trait objects: the evaluator is inlined into the depth-first loop, and nothing
//! is allocated per node.
//!
//! **Per node.** The board is two 32-byte arrays (tile per cell, cell per tile). A child is first
//! *probed*: the evaluator computes its heuristic from the parent's evaluation state and the one
//! tile that slides, and may stop early as soon as the child is known to exceed the bound (the
//! pattern-database evaluator skips the reflected lookup then). Only children within the bound
//! are *entered*: the evaluation state (a few bytes: line keys or database entries) is updated
//! in place, and restored from the same change on the way back.
//!
//! **Both cores on one board.** With `parallel`, each iteration first expands the tree
//! breadth-first under the bound until the frontier holds enough subtrees, then searches the
//! subtrees on all rayon threads, each taking the next subtree in order. Any solution found
//! within an iteration's bound is optimal (with an admissible evaluator), because every smaller
//! bound was exhausted first; a shared flag stops the other subtrees.
//!
//! The same two pieces (frontier expansion, bounded subtree search) are what a cluster engine
//! would schedule.
//!
//! **The last iteration first where the goal is likeliest.** Once a search is large (100,000
//! states), the split's depth is fixed and its subtrees are taken nearest-first: those whose
//! states came closest to the goal in the previous iteration ([`FrontierOrder`]). Only the
//! last iteration stops early, and it is most of a hard search's work; on Korf's 24-puzzles 1
//! and 5 this ordering cuts the last iteration about tenfold, and whole searches of instances
//! 1, 3, 4, 5 and 8 2.8–4.3-fold (serial searches use it too). The split's breadth-first levels
//! count toward the node limit and check the other limits level by level; under a stored-state
//! limit too small for the ordered frontier, the search is not ordered (IDA* then stores only
//! its path, as before).

use super::checkpoint::{self, Checkpoint, CheckpointError};
use super::eval::{Cells, Evaluator, MAX_CELLS, Slide};
use super::move_pruning::{MovePruner, PRUNED, START};
use super::{
    Budget, Found, LimitKind, Limits, SearchError, Split, Stats, SubtreeResult, nearest_first,
};
use crate::board::{Board, Move, Shape};
use crate::solution::Solution;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// What a long search is doing when it reports (more kinds of search may report later).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stage {
    /// IDA*: the current iteration's bound on solution length.
    Bound(u32),
    /// The near-optimal solver peeling a board past 900 cells: `left` of its `cells` cells are
    /// still to be placed (then the last 900 are finished quickly).
    Peeling {
        /// Cells not yet placed.
        left: usize,
        /// All cells of the board.
        cells: usize,
    },
    /// A search that stores the states it meets (breadth-first, bidirectional, A*, greedy):
    /// how many it holds now (what its stored-state limit counts).
    Stored(u64),
    /// IDA* on the pattern databases' compact tables went on past a first stretch, so the
    /// tables are being laid out by positions for the rest of the search (once a process:
    /// seconds for 5×5's); the search then goes on under the same limits, its states and
    /// time counted on from the first stretch's.
    Layout,
}

/// What a search reports while it runs (made by the library's searches only: more may be
/// reported later).
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct SearchProgress {
    /// Where the search is.
    pub stage: Stage,
    /// States expanded so far (all iterations).
    pub expanded: u64,
    /// Time since the start.
    pub elapsed: Duration,
    /// Of `elapsed`, the time spent laying tables out for the rest of the search (see
    /// [`Stage::Layout`]), in which nothing is expanded.
    pub layout: Duration,
    /// Whether this is the last report (the search ended: solved, exhausted or stopped).
    pub finished: bool,
    /// The input line of the board searched, when a batch reports it (several boards may be
    /// searched at once); `None` for a search on its own.
    pub line: Option<usize>,
}

impl SearchProgress {
    /// States expanded a second of searching: the layout's time left out.
    pub fn rate(&self) -> f64 {
        self.expanded as f64
            / self
                .elapsed
                .saturating_sub(self.layout)
                .as_secs_f64()
                .max(1e-9)
    }
}

/// A receiver of [`SearchProgress`] reports (about twice a second, and after every iteration).
#[derive(Clone)]
pub struct ProgressHook(pub std::sync::Arc<dyn Fn(&SearchProgress) + Send + Sync>);

impl std::fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressHook")
    }
}

/// How often a worker publishes its node count and checks the limits (power of two).
const CHECK_EVERY: u64 = 256;
/// Subtrees wanted per thread before searching in parallel.
const ITEMS_PER_THREAD: usize = 24;
/// Least time between two progress reports.
pub(crate) const REPORT_EVERY: Duration = Duration::from_millis(500);

/// Read-only tables and shared counters of one search.
struct Shared<'a, E> {
    eval: &'a E,
    /// `steps[cell]`: (neighbour cell, move index) for each move of a blank on `cell`.
    steps: [[(u8, u8); 4]; MAX_CELLS],
    step_count: [u8; MAX_CELLS],
    pruner: &'a MovePruner,
    limits: &'a Limits,
    start: Instant,
    /// Set when any worker finds the goal or hits a limit.
    stop: AtomicBool,
    /// 1 + the [`LimitKind`] that stopped the search, 0 for none.
    stop_kind: AtomicU8,
    /// Expansions published by the workers (each publishes every [`CHECK_EVERY`]).
    expanded: AtomicU64,
    /// Current bound and time of the last progress report (ms since start), for reports.
    bound: AtomicU32,
    last_report: AtomicU64,
}

impl<'a, E> Shared<'a, E> {
    /// The tables and counters for searching boards of `shape` (at most [`MAX_CELLS`] cells).
    fn new(eval: &'a E, shape: Shape, pruner: &'a MovePruner, limits: &'a Limits) -> Self {
        let mut steps = [[(0u8, 0u8); 4]; MAX_CELLS];
        let mut step_count = [0u8; MAX_CELLS];
        for cell in 0..shape.cells().min(MAX_CELLS) {
            for m in Move::ALL {
                if let Some(to) = shape.neighbour(cell, m) {
                    steps[cell][step_count[cell] as usize & 3] = (to as u8, m.index() as u8);
                    step_count[cell] += 1;
                }
            }
        }
        Shared {
            eval,
            steps,
            step_count,
            pruner,
            limits,
            start: Instant::now(),
            stop: AtomicBool::new(false),
            stop_kind: AtomicU8::new(0),
            expanded: AtomicU64::new(0),
            bound: AtomicU32::new(0),
            last_report: AtomicU64::new(0),
        }
    }

    fn halt(&self, kind: Option<LimitKind>) {
        if let Some(k) = kind {
            let _ = self.stop_kind.compare_exchange(
                0,
                k as u8 + 1,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
        }
        self.stop.store(true, Ordering::Relaxed);
    }

    fn stopped_by(&self) -> Option<LimitKind> {
        match self.stop_kind.load(Ordering::Relaxed) {
            0 => None,
            k => Some(
                [
                    LimitKind::Nodes,
                    LimitKind::Time,
                    LimitKind::Memory,
                    LimitKind::Cancelled,
                ][(k - 1) as usize & 3],
            ),
        }
    }

    fn report(&self, expanded: u64, force: bool, finished: bool) {
        let Some(hook) = &self.limits.progress else {
            return;
        };
        let elapsed = self.start.elapsed();
        let ms = elapsed.as_millis() as u64;
        let last = self.last_report.load(Ordering::Relaxed);
        if !force && ms < last + REPORT_EVERY.as_millis() as u64 {
            return;
        }
        if self
            .last_report
            .compare_exchange(last, ms, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
            && !force
        {
            return;
        }
        (hook.0)(&SearchProgress {
            stage: Stage::Bound(self.bound.load(Ordering::Relaxed)),
            expanded,
            elapsed,
            layout: Duration::ZERO,
            finished,
            line: None,
        });
    }
}

/// Depth-first search of subtrees under one bound.
struct Worker<'s, 'a, E: Evaluator> {
    sh: &'s Shared<'a, E>,
    budget: Budget<'a>,
    cells: Cells,
    state: E::State,
    bound: u32,
    next_bound: u32,
    /// Expansions not yet published to `sh.expanded`.
    unpublished: u64,
    /// Publish and check when `unpublished` reaches this ([`CHECK_EVERY`], less near a node
    /// limit so that a serial search stops exactly one state past it).
    check_at: u64,
    generated: u64,
    /// Expansions published so far (the subtree's states, once it is searched).
    expanded: u64,
    halted: bool,
    /// The solution's moves below the subtree root, last first.
    reversed: Vec<Move>,
    /// Least heuristic value of the states expanded so far (see [`FrontierOrder`]).
    nearest: u32,
}

impl<'s, 'a, E: Evaluator> Worker<'s, 'a, E> {
    /// A worker to search below a node with `cells` and evaluation `state` (estimate `h`) to
    /// `bound`, halted already when the search has stopped.
    fn new(sh: &'s Shared<'a, E>, cells: Cells, state: E::State, h: u32, bound: u32) -> Self {
        Worker {
            sh,
            budget: Budget::started_at(sh.limits, sh.start),
            cells,
            state,
            bound,
            next_bound: u32::MAX,
            unpublished: 0,
            check_at: check_interval(sh.limits, sh.expanded.load(Ordering::Relaxed)),
            generated: 0,
            expanded: 0,
            halted: sh.stop.load(Ordering::Relaxed),
            reversed: Vec::new(),
            nearest: h,
        }
    }

    /// Publishes the node count and checks every limit; true when the search must stop.
    #[cold]
    fn check(&mut self, depth: u32) -> bool {
        let total = self
            .sh
            .expanded
            .fetch_add(self.unpublished, Ordering::Relaxed)
            + self.unpublished;
        self.expanded += self.unpublished;
        self.unpublished = 0;
        self.check_at = check_interval(self.sh.limits, total);
        if let Some(kind) = self.budget.check_now(total, depth as u64) {
            self.sh.halt(Some(kind));
        }
        self.sh.report(total, false, false);
        self.halted = self.sh.stop.load(Ordering::Relaxed);
        self.halted
    }

    /// Searches below a node already known to have f ≤ bound.
    fn dfs(&mut self, blank: usize, g: u32, h: u32, seq: u32) -> bool {
        if h == 0 {
            return true;
        }
        self.nearest = self.nearest.min(h);
        self.unpublished += 1;
        if self.unpublished >= self.check_at && self.check(g) {
            return false;
        }
        let sh = self.sh;
        let blank = blank & (MAX_CELLS - 1);
        // h > 0 and g + h ≤ bound, so the child's limit cannot underflow.
        let limit = self.bound - g - 1;
        for i in 0..sh.step_count[blank] as usize {
            let (from, mi) = sh.steps[blank][i & 3];
            let (from, mi) = (from as usize, mi as usize);
            let next = sh.pruner.step(seq, mi);
            if next == PRUNED {
                continue;
            }
            sh.pruner.prefetch(next);
            self.generated += 1;
            let tile = self.cells.tiles[from & (MAX_CELLS - 1)] as usize;
            let slide = Slide {
                tile,
                from,
                to: blank,
                mi,
            };
            match sh.eval.probe(&self.state, &self.cells, h, slide, limit) {
                Err(lower) => self.next_bound = self.next_bound.min(g + 1 + lower),
                Ok((nh, change)) => {
                    sh.eval.enter(&mut self.state, &change);
                    self.cells.slide(tile, from, blank);
                    if self.dfs(from, g + 1, nh, next) {
                        self.reversed.push(Move::from_index(mi));
                        return true;
                    }
                    self.cells.slide(tile, blank, from);
                    sh.eval.leave(&mut self.state, &change);
                    if self.halted {
                        return false;
                    }
                }
            }
        }
        false
    }
}

/// Expansions until the next check, `total` being expanded so far.
fn check_interval(limits: &Limits, total: u64) -> u64 {
    match limits.max_nodes {
        Some(max) if max >= total => (max - total + 1).clamp(1, CHECK_EVERY),
        _ => CHECK_EVERY,
    }
}

/// A subtree root of the parallel phase.
#[derive(Clone)]
struct Item<S> {
    cells: Cells,
    state: S,
    g: u32,
    h: u32,
    seq: u32,
    path: Vec<Move>,
}

impl<S> Item<S> {
    /// The search's root: `start` as the evaluator sees it.
    fn root<E: Evaluator<State = S>>(eval: &E, start: &Board) -> Item<S> {
        let cells = Cells::of(start);
        let (state, h) = eval.root(&cells);
        Item {
            cells,
            state,
            g: 0,
            h,
            seq: START,
            path: Vec::new(),
        }
    }
}

/// One breadth-first level below `items`: every child not pruned by the move automaton, in
/// order. Under a `bound` a child whose estimate exceeds it is left out and lowers
/// `next_bound` instead (a split search's first levels); without one every child is kept
/// (a frontier handed out to other machines). Counts the states expanded and generated.
/// Stops adding children past `cap` (the caller treats that as too many).
fn expand_level<E: Evaluator>(
    sh: &Shared<'_, E>,
    items: &[Item<E::State>],
    bound: Option<u32>,
    next_bound: &mut u32,
    stats: &mut Stats,
    cap: usize,
) -> Vec<Item<E::State>> {
    let (eval, pruner) = (sh.eval, sh.pruner);
    let mut next = Vec::with_capacity(items.len() * 3);
    for it in items {
        stats.expanded += 1;
        let blank = it.cells.cell_of[0] as usize & (MAX_CELLS - 1);
        // With no bound the largest limit lets every probe through.
        let limit = bound.map_or(u32::MAX - 1, |b| b - it.g - 1);
        for &(from, mi) in &sh.steps[blank][..sh.step_count[blank] as usize] {
            let (from, mi) = (from as usize, mi as usize);
            let seq = pruner.step(it.seq, mi);
            if seq == PRUNED {
                continue;
            }
            stats.generated += 1;
            let tile = it.cells.tiles[from] as usize;
            let slide = Slide {
                tile,
                from,
                to: blank,
                mi,
            };
            let probed = eval.probe(&it.state, &it.cells, it.h, slide, limit);
            if let (Err(lower), true) = (&probed, bound.is_some()) {
                *next_bound = (*next_bound).min(it.g + 1 + lower);
                continue;
            }
            let mut child = it.clone();
            child.cells.slide(tile, from, blank);
            match probed {
                Ok((h, change)) => {
                    eval.enter(&mut child.state, &change);
                    child.h = h;
                }
                // An evaluator that refuses even the largest limit: the child is evaluated
                // whole (no panic on this path).
                Err(_) => (child.state, child.h) = eval.root(&child.cells),
            }
            child.g += 1;
            child.seq = seq;
            child.path.push(Move::from_index(mi));
            next.push(child);
            if next.len() > cap {
                return next;
            }
        }
    }
    next
}

/// The shape of `start`, when the engine takes boards of it (at most [`MAX_CELLS`] cells).
fn engine_shape(start: &Board) -> Result<Shape, SearchError> {
    let shape = start.shape();
    if shape.cells() > MAX_CELLS {
        return Err(SearchError::Unsupported(format!(
            "the IDA* engine takes boards of at most {MAX_CELLS} cells, not {shape}"
        )));
    }
    Ok(shape)
}

/// Optimal IDA* from `start` with `eval` (built for the goal `start` must reach; the caller has
/// checked solvability), pruning with `pruner`, under `limits`. With `parallel`, every
/// iteration is split over all rayon threads; a large search's iterations are split (and
/// ordered) on one thread too.
pub fn run<E: Evaluator>(
    start: &Board,
    eval: &E,
    pruner: &MovePruner,
    limits: &Limits,
    parallel: bool,
) -> Result<Found, SearchError> {
    let mut order = FrontierOrder::within(limits);
    run_ordered(start, eval, pruner, limits, parallel, &mut order)
}

/// [`run`] with the subtrees of each iteration taken in `order`.
fn run_ordered<E: Evaluator>(
    start: &Board,
    eval: &E,
    pruner: &MovePruner,
    limits: &Limits,
    parallel: bool,
    order: &mut FrontierOrder,
) -> Result<Found, SearchError> {
    let shape = engine_shape(start)?;
    let sh = Shared::new(eval, shape, pruner, limits);
    let root = Item::root(eval, start);
    let threads = if parallel {
        crate::parallel::threads()
    } else {
        1
    };
    let mut bound = root.h;
    // Going on from a checkpoint: its bound (never below the start's estimate) and the
    // frontier's order, and its states and time carried into the checkpoints handed on.
    let cells = shape.cells();
    let start_text = checkpoint::encode(&root.cells.tiles, cells);
    let (mut before_expanded, mut before_seconds) = (0, 0.0);
    if let Some(c) = &limits.resume {
        if c.start != start_text {
            return Err(CheckpointError::OtherBoard.into());
        }
        c.check(MAX_SPLIT_BOUND, MAX_SPLIT_DEPTH)?;
        order.restore(c, cells)?;
        bound = bound.max(c.bound);
        (before_expanded, before_seconds) = (c.expanded, c.seconds);
    }
    let mut stats = Stats::default();
    let mut split_budget = Budget::started_at(limits, sh.start);
    loop {
        sh.bound.store(bound, Ordering::Relaxed);
        let mut next_bound = u32::MAX;
        let mut found: Option<Vec<Move>> = None;
        let mut items = vec![root.clone()];
        // States before this iteration's split (a run going on within it splits again).
        let split_start = sh.expanded.load(Ordering::Relaxed);
        // Breadth-first split under this bound: to the ordered frontier's depth, or until
        // every thread has enough subtrees.
        let want = if threads > 1 {
            threads * ITEMS_PER_THREAD
        } else {
            1
        };
        let (mut depth, mut widest) = (0, 1);
        while found.is_none() && order.wants_deeper(depth, items.len(), want) {
            if let Some(goal) = items.iter().find(|it| it.h == 0) {
                found = Some(goal.path.clone());
                break;
            }
            // A level costs one expansion per root: where that would pass a node limit the
            // split stops, and the depth-first workers stop exactly at the limit.
            let before = sh.expanded.load(Ordering::Relaxed);
            if limits
                .max_nodes
                .is_some_and(|max| before + items.len() as u64 > max)
            {
                break;
            }
            let mut level = Stats::default();
            let cap = order.cap();
            let next = expand_level(&sh, &items, Some(bound), &mut next_bound, &mut level, cap);
            sh.expanded.fetch_add(level.expanded, Ordering::Relaxed);
            stats.generated += level.generated;
            if next.len() > cap {
                // The fixed frontier outgrew its cap: fixed one level shallower from now on.
                order.refix(depth);
                break;
            }
            items = next;
            depth += 1;
            widest = widest.max(items.len());
            // The split's own few roots were never counted (IDA* stores its path); an ordered
            // frontier and its memory are.
            let held = if order.large {
                items.len() + order.remembered()
            } else {
                0
            };
            let stored = bound as u64 + 1 + held as u64;
            if let Some(kind) = split_budget.check_now(before + level.expanded, stored) {
                sh.halt(Some(kind));
                break;
            }
            if items.is_empty() {
                break;
            }
        }
        order.arrange(&mut items, depth);
        let search = |it: &Item<E::State>| {
            let mut w = Worker::new(&sh, it.cells, it.state, it.h, bound);
            let hit = !w.halted && w.dfs(it.cells.cell_of[0] as usize, it.g, it.h, it.seq);
            // Searched whole, without the goal: a checkpoint need not search it again.
            let whole = !hit && !w.halted;
            if hit {
                sh.halt(None);
            }
            // Publish the rest and check the limits, so that many small subtrees cannot
            // overshoot them.
            w.check(it.g);
            let path = hit.then(|| {
                let mut p = it.path.clone();
                p.extend(w.reversed.iter().rev());
                p
            });
            RootOutcome {
                path,
                generated: w.generated,
                expanded: w.expanded,
                whole,
                next_bound: w.next_bound,
                nearest: w.nearest,
            }
        };
        // Going on within a checkpoint's iteration: the roots it searched whole are not
        // searched again, and what they met above the bound still counts.
        let mut skipped = Vec::new();
        // Only at the fixed frontier's depth: roots of another depth (a split cut short, a
        // frontier fixed shallower) are other subtrees.
        let carried = limits
            .resume
            .as_deref()
            .filter(|c| c.bound == bound && order.at_fixed)
            .filter(|c| c.searched.iter().all(|(p, _)| p.len() == depth));
        if let Some(c) = carried {
            let searched: HashMap<&str, u32> =
                c.searched.iter().map(|(p, n)| (p.as_str(), *n)).collect();
            if !searched.is_empty() {
                items.retain(|it| match searched.get(path_letters(&it.path).as_str()) {
                    Some(&near) => {
                        skipped.push((it.cells.tiles, near));
                        false
                    }
                    None => true,
                });
                next_bound = next_bound.min(c.searched_next_bound);
            }
        }
        // What this iteration has searched whole, for checkpoints taken within it.
        let within = Mutex::new(Within::carried(carried));
        let keep = order.at_fixed && limits.checkpoint.is_some();
        let keep_within = |within: &Within| {
            if let Some(hook) = &limits.checkpoint {
                (hook.0)(&Checkpoint {
                    searched: within.searched.clone(),
                    searched_next_bound: within.next_bound,
                    ..order.checkpoint(
                        start_text.clone(),
                        bound,
                        before_expanded
                            .saturating_add(split_start)
                            .saturating_add(within.expanded),
                        before_seconds + sh.start.elapsed().as_secs_f64(),
                        cells,
                    )
                });
            }
        };
        if found.is_none() {
            // Subtrees are taken in the frontier's order, each by the next free thread.
            let taken = AtomicUsize::new(0);
            let take = || {
                let mut done = Vec::new();
                loop {
                    let i = taken.fetch_add(1, Ordering::Relaxed);
                    match items.get(i) {
                        Some(it) if !sh.stop.load(Ordering::Relaxed) => {
                            let outcome = search(it);
                            if outcome.whole && keep {
                                let mut w = within.lock().unwrap_or_else(|e| e.into_inner());
                                if w.add(it, &outcome) {
                                    keep_within(&w);
                                }
                            }
                            done.push((i, outcome));
                        }
                        _ => return done,
                    }
                }
            };
            let outcomes: Vec<(usize, RootOutcome)> = if threads > 1 {
                crate::parallel::run(|| {
                    (0..threads)
                        .into_par_iter()
                        .flat_map_iter(|_| take())
                        .collect()
                })
            } else {
                take()
            };
            // Stopped within the iteration (a limit, a cancel): what it searched whole is kept.
            let hit = outcomes.iter().any(|(_, o)| o.path.is_some());
            if !hit && sh.stop.load(Ordering::Relaxed) {
                let w = within.into_inner().unwrap_or_else(|e| e.into_inner());
                if !w.searched.is_empty() {
                    keep_within(&w);
                }
            }
            for (i, outcome) in outcomes {
                stats.generated += outcome.generated;
                next_bound = next_bound.min(outcome.next_bound);
                order.remember(&items[i], outcome.nearest);
                if found.is_none() {
                    found = outcome.path;
                }
            }
            for (tiles, near) in skipped {
                order.remember_board(tiles, near);
            }
        }
        let mut report = stats;
        report.expanded += sh.expanded.load(Ordering::Relaxed);
        let held = (bound as u64 + 1).max(widest as u64 + bound as u64) + order.remembered() as u64;
        stats.peak_stored = stats.peak_stored.max(held);
        report.peak_stored = stats.peak_stored;
        report.elapsed = sh.start.elapsed();
        order.iteration_done(report.expanded);
        let stop = if found.is_some() {
            None
        } else {
            sh.stopped_by()
        };
        let next = super::next_iteration(found.is_some(), stop, next_bound, report);
        sh.report(report.expanded, true, !matches!(next, Ok(Some(_))));
        if let (Ok(Some(next)), Some(hook)) = (&next, &limits.checkpoint) {
            (hook.0)(&order.checkpoint(
                start_text.clone(),
                *next,
                before_expanded.saturating_add(report.expanded),
                before_seconds + report.elapsed.as_secs_f64(),
                cells,
            ));
        }
        match next? {
            // A next bound not above this one (only from a checkpoint's figures) would
            // repeat the iteration for ever.
            Some(next) if next <= bound => {
                return Err(CheckpointError::Inconsistent(format!(
                    "the next bound {next} is not above the bound {bound}"
                ))
                .into());
            }
            Some(next) => bound = next,
            None => return Ok((Solution::new(found.unwrap_or_default()), report)),
        }
    }
}

/// Least time between two checkpoints taken within an iteration.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(60);

/// The subtree roots an iteration has searched whole so far, for a [`Checkpoint`] within it.
struct Within {
    /// Their paths from the start (move letters) and nearest approaches, a checkpoint's
    /// before them.
    searched: Vec<(String, u32)>,
    /// Least f above the bound they met.
    next_bound: u32,
    /// States they expanded (a checkpoint's before them not included).
    expanded: u64,
    /// When a checkpoint was last handed on.
    kept_at: Instant,
}

impl Within {
    /// Nothing searched yet in the iteration, beyond what `carried` (a checkpoint within it,
    /// at the same depth) had searched.
    fn carried(carried: Option<&Checkpoint>) -> Within {
        Within {
            searched: carried.map_or_else(Vec::new, |c| c.searched.clone()),
            next_bound: carried.map_or(u32::MAX, |c| c.searched_next_bound),
            expanded: 0,
            kept_at: Instant::now(),
        }
    }

    /// Adds root `it`, searched whole with `outcome`; true when a checkpoint is due.
    fn add<S>(&mut self, it: &Item<S>, outcome: &RootOutcome) -> bool {
        self.searched
            .push((path_letters(&it.path), outcome.nearest));
        self.next_bound = self.next_bound.min(outcome.next_bound);
        self.expanded += outcome.expanded;
        if self.kept_at.elapsed() >= CHECKPOINT_EVERY {
            self.kept_at = Instant::now();
            true
        } else {
            false
        }
    }
}

/// `path` as move letters.
fn path_letters(path: &[Move]) -> String {
    path.iter().map(|m| m.letter()).collect()
}

/// What one subtree's depth-first search returns to the iteration.
struct RootOutcome {
    /// The whole solution, when the subtree held one.
    path: Option<Vec<Move>>,
    /// Children generated in the subtree.
    generated: u64,
    /// States expanded in the subtree.
    expanded: u64,
    /// Whether the subtree was searched whole (no goal, not stopped).
    whole: bool,
    /// Least f above the bound met in the subtree.
    next_bound: u32,
    /// Least heuristic value of the states expanded in the subtree (its root's when none).
    nearest: u32,
}

/// Iterations of at least this many states (all iterations so far) make the next ones search
/// an ordered frontier: below it, the split is not worth its cost. Low enough that a 15-puzzle's
/// last iteration (a few million states) is ordered by what the one before remembered.
const ORDER_AFTER: u64 = 100_000;

/// Subtree roots (at least) of an ordered frontier.
const ORDERED_ROOTS: usize = 4096;

/// Deepest breadth-first split (a narrow tree under the bound is searched depth-first below it).
const MAX_SPLIT_DEPTH: usize = 32;

/// A fixed frontier may grow (as bounds rise) to this many times [`ORDERED_ROOTS`]; past it the
/// frontier is fixed one level shallower.
const FRONTIER_GROWTH: usize = 16;

/// The order in which an iteration searches its subtrees: [`nearest_first`] (why, there).
///
/// Once the search is large, the frontier's depth is fixed (the same subtree roots every
/// iteration, plus those the larger bound admits), each root's nearest approach (least
/// heuristic value reached below it) is remembered, and the next iteration takes the roots
/// nearest first. On Korf's 24-puzzles 1 and 5 this cuts the last iteration about tenfold.
struct FrontierOrder {
    /// States (all iterations) after which the frontier is ordered ([`ORDER_AFTER`]).
    after: u64,
    /// Subtree roots (at least) of the ordered frontier ([`ORDERED_ROOTS`]).
    roots: usize,
    /// The ordered frontier's depth, once fixed.
    depth: Option<usize>,
    /// Whether this iteration's roots are the fixed frontier's (a split cut short by a limit
    /// or a regrown frontier is not).
    at_fixed: bool,
    /// Whether the searches so far were large enough to order the next iteration.
    large: bool,
    /// Each subtree root's nearest approach in the last iteration, by board.
    nearest: HashMap<[u8; MAX_CELLS], u32>,
}

impl FrontierOrder {
    /// The engine's ordering ([`ORDER_AFTER`], [`ORDERED_ROOTS`]), or none when `limits` allow
    /// fewer stored states than the ordered frontier may hold ([`Self::most_held`]): IDA*
    /// then stores only its path, as without it.
    fn within(limits: &Limits) -> FrontierOrder {
        let order = FrontierOrder::new(ORDER_AFTER, ORDERED_ROOTS);
        let need = order.most_held() + MAX_SPLIT_BOUND as u64;
        match limits.max_stored {
            Some(max) if max < need => FrontierOrder::new(u64::MAX, ORDERED_ROOTS),
            _ => order,
        }
    }

    /// Most states an ordered frontier holds: its roots at their cap and as many remembered.
    fn most_held(&self) -> u64 {
        2 * self.roots.saturating_mul(FRONTIER_GROWTH) as u64
    }

    /// Ordering once `after` states have been expanded, over at least `roots` subtree roots.
    fn new(after: u64, roots: usize) -> FrontierOrder {
        FrontierOrder {
            after,
            roots,
            depth: None,
            at_fixed: false,
            large: false,
            nearest: HashMap::new(),
        }
    }

    /// Whether the breadth-first split goes one level below `depth`, with `items` roots there
    /// and `want` roots wanted for the threads.
    fn wants_deeper(&self, depth: usize, items: usize, want: usize) -> bool {
        match self.depth {
            Some(fixed) => depth < fixed,
            None if depth >= MAX_SPLIT_DEPTH => false,
            None if self.large => items < self.roots.max(want),
            None => items < want,
        }
    }

    /// Most roots a level of the split may hold.
    fn cap(&self) -> usize {
        match self.depth {
            Some(_) => self.roots.saturating_mul(FRONTIER_GROWTH),
            None => usize::MAX,
        }
    }

    /// Fixes the frontier at `depth` instead (the deeper one grew past [`Self::cap`]), its
    /// roots' approaches unknown.
    fn refix(&mut self, depth: usize) {
        self.depth = Some(depth);
        self.nearest.clear();
    }

    /// Roots whose nearest approach is remembered (states held beside the frontier).
    fn remembered(&self) -> usize {
        self.nearest.len()
    }

    /// Fixes the frontier's depth once the search is large (the first split deep enough), and
    /// sorts `items` (the roots at `depth`) nearest approach first, then by their own
    /// estimate. Roots not searched in the last iteration (new under the larger bound, or all
    /// of them in the first ordered iteration) come after, in breadth-first order: sorting by
    /// the roots' own estimates alone does worse than no order.
    fn arrange<S>(&mut self, items: &mut [Item<S>], depth: usize) {
        if self.depth.is_none() && self.large && items.len() >= self.roots {
            self.depth = Some(depth);
        }
        self.at_fixed = self.depth == Some(depth);
        if self.at_fixed && !self.nearest.is_empty() {
            let nearest = &self.nearest;
            items.sort_by_cached_key(|it| {
                nearest_first(nearest.get(&it.cells.tiles).copied(), it.h)
            });
        }
    }

    /// Records a searched root's nearest approach (for a fixed frontier only; roots on the
    /// same board share one entry).
    fn remember<S>(&mut self, item: &Item<S>, nearest: u32) {
        self.remember_board(item.cells.tiles, nearest);
    }

    /// [`Self::remember`] for a root known by its board `tiles` alone.
    fn remember_board(&mut self, tiles: [u8; MAX_CELLS], nearest: u32) {
        if self.at_fixed {
            self.nearest.insert(tiles, nearest);
        }
    }

    /// Ends an iteration, `expanded` states having been expanded so far.
    fn iteration_done(&mut self, expanded: u64) {
        self.large |= expanded >= self.after;
    }

    /// Takes the order a [`Checkpoint`] kept (of boards of `cells` cells): the frontier's
    /// depth and its roots' nearest approaches, as if this search had made them.
    fn restore(&mut self, c: &Checkpoint, cells: usize) -> Result<(), CheckpointError> {
        let mut nearest = HashMap::with_capacity(c.nearest.len());
        for (board, near) in &c.nearest {
            let tiles = checkpoint::decode::<MAX_CELLS>(board, cells)
                .ok_or_else(|| CheckpointError::Malformed(board.clone()))?;
            nearest.insert(tiles, *near);
        }
        // Unordered (a stored-state limit too small for the frontier): it stays so.
        if self.after != u64::MAX {
            self.depth = c.frontier_depth;
            self.large = c.expanded >= self.after;
            self.nearest = nearest;
        }
        Ok(())
    }

    /// A [`Checkpoint`] before the iteration of `bound`, with this order (nothing of it
    /// searched yet).
    fn checkpoint(
        &self,
        start: String,
        bound: u32,
        expanded: u64,
        seconds: f64,
        cells: usize,
    ) -> Checkpoint {
        let mut nearest: Vec<(String, u32)> = self
            .nearest
            .iter()
            .map(|(tiles, &near)| (checkpoint::encode(tiles, cells), near))
            .collect();
        nearest.sort_unstable();
        Checkpoint {
            start,
            bound,
            expanded,
            seconds,
            frontier_depth: self.depth,
            nearest,
            searched: Vec::new(),
            searched_next_bound: u32::MAX,
        }
    }
}

/// Most subtree roots [`frontier`] hands out.
pub const MAX_FRONTIER: usize = 1_000_000;

/// Largest bound [`search_subtrees`] accepts: the depth-first search recurses once per move,
/// and no board of [`MAX_CELLS`] cells needs nearly this many.
pub const MAX_SPLIT_BOUND: u32 = 1000;

/// Walks `path` from the start: the node's cells, evaluation state, heuristic and pruning
/// state, or an error when the path leaves the board or is one the pruning never produces.
fn replay<E: Evaluator>(
    sh: &Shared<'_, E>,
    start: &Cells,
    path: &[Move],
) -> Result<(Cells, E::State, u32, u32), SearchError> {
    let mut cells = *start;
    let (mut state, mut h) = sh.eval.root(&cells);
    let mut seq = START;
    for &m in path {
        let blank = cells.cell_of[0] as usize;
        let step = sh.steps[blank & (MAX_CELLS - 1)]
            [..sh.step_count[blank & (MAX_CELLS - 1)] as usize]
            .iter()
            .find(|&&(_, mi)| mi as usize == m.index());
        let next = sh.pruner.step(seq, m.index());
        let (Some(&(from, mi)), false) = (step, next == PRUNED) else {
            return Err(SearchError::Unsupported(format!(
                "`{}` is not a path of this search's frontier (a frontier made for another \
                 board or goal, or by a build whose move pruning differs: the driver and every \
                 worker must run the same build)",
                crate::parse::shorten(path_letters(path).as_bytes())
            )));
        };
        h = advance(
            sh.eval,
            &mut cells,
            &mut state,
            h,
            from as usize,
            mi as usize,
        );
        seq = next;
    }
    Ok((cells, state, h, seq))
}

/// Slides the tile on `from` into the blank (the blank's move `mi`) with no bound to prune
/// by: updates the node's cells and evaluation state; the child's heuristic value.
fn advance<E: Evaluator>(
    eval: &E,
    cells: &mut Cells,
    state: &mut E::State,
    h: u32,
    from: usize,
    mi: usize,
) -> u32 {
    let blank = cells.cell_of[0] as usize;
    let tile = cells.tiles[from & (MAX_CELLS - 1)] as usize;
    let slide = Slide {
        tile,
        from,
        to: blank,
        mi,
    };
    // With the largest limit a probe succeeds; should an evaluator refuse anyway, the child
    // is evaluated whole instead (no panic on this path).
    match eval.probe(state, cells, h, slide, u32::MAX - 1) {
        Ok((nh, change)) => {
            eval.enter(state, &change);
            cells.slide(tile, from, blank);
            nh
        }
        Err(_) => {
            cells.slide(tile, from, blank);
            let (whole, nh) = eval.root(cells);
            *state = whole;
            nh
        }
    }
}

/// The subtree roots `depth` moves below `start` (breadth-first, with duplicate move sequences
/// pruned by `pruner`), or the goal when it is nearer. More than [`MAX_FRONTIER`] roots is an
/// error: ask for a smaller depth.
pub fn frontier<E: Evaluator>(
    start: &Board,
    eval: &E,
    pruner: &MovePruner,
    depth: usize,
) -> Result<Split, SearchError> {
    let shape = engine_shape(start)?;
    let limits = Limits::default();
    let sh = Shared::new(eval, shape, pruner, &limits);
    let root = Item::root(eval, start);
    let h0 = root.h;
    let mut level = vec![root];
    let (mut unused_bound, mut unused_stats) = (u32::MAX, Stats::default());
    for _ in 0..depth {
        if let Some(goal) = level.iter().find(|n| n.h == 0) {
            return Ok(Split::Solved(Solution::new(goal.path.clone())));
        }
        level = expand_level(
            &sh,
            &level,
            None,
            &mut unused_bound,
            &mut unused_stats,
            MAX_FRONTIER,
        );
        if level.len() > MAX_FRONTIER {
            return Err(SearchError::Unsupported(format!(
                "more than {MAX_FRONTIER} subtree roots at depth {depth}; choose a smaller depth"
            )));
        }
    }
    if let Some(goal) = level.iter().find(|n| n.h == 0) {
        return Ok(Split::Solved(Solution::new(goal.path.clone())));
    }
    Ok(Split::Roots {
        paths: level.into_iter().map(|n| n.path).collect(),
        first_bound: h0,
    })
}

/// Searches the subtrees at `roots` (paths from [`frontier`] for the same start, evaluator and
/// pruner) depth-first to `bound`, on the calling thread, under `limits`. Stops at the first
/// solution.
pub fn search_subtrees<E: Evaluator>(
    start: &Board,
    eval: &E,
    pruner: &MovePruner,
    roots: &[Vec<Move>],
    bound: u32,
    limits: &Limits,
) -> Result<SubtreeResult, SearchError> {
    let shape = engine_shape(start)?;
    if bound > MAX_SPLIT_BOUND {
        return Err(SearchError::Unsupported(format!(
            "a bound of {bound}: at most {MAX_SPLIT_BOUND}"
        )));
    }
    let sh = Shared::new(eval, shape, pruner, limits);
    sh.bound.store(bound, Ordering::Relaxed);
    let origin = Cells::of(start);
    let mut result = SubtreeResult {
        nearest: vec![None; roots.len()],
        ..SubtreeResult::default()
    };
    let mut next_bound = u32::MAX;
    for (path, nearest) in roots.iter().zip(&mut result.nearest) {
        let (cells, state, h, seq) = replay(&sh, &origin, path)?;
        let g = path.len() as u32;
        if g + h > bound {
            // Not searched: last next time, in its order, as the engine keeps new roots.
            next_bound = next_bound.min(g + h);
            continue;
        }
        let mut w = Worker::new(&sh, cells, state, h, bound);
        let hit = w.dfs(cells.cell_of[0] as usize, g, h, seq);
        w.check(g);
        result.stats.generated += w.generated;
        next_bound = next_bound.min(w.next_bound);
        *nearest = Some(w.nearest);
        if hit {
            let mut p = path.clone();
            p.extend(w.reversed.iter().rev());
            result.solution = Some(Solution::new(p));
            break;
        }
        if let Some(kind) = sh.stopped_by() {
            let stats = Stats {
                expanded: sh.expanded.load(Ordering::Relaxed),
                generated: result.stats.generated,
                peak_stored: bound as u64 + 1,
                elapsed: sh.start.elapsed(),
            };
            return Err(super::LimitExceeded::new(kind, stats).into());
        }
    }
    result.stats.expanded = sh.expanded.load(Ordering::Relaxed);
    result.stats.peak_stored = bound as u64 + 1;
    result.stats.elapsed = sh.start.elapsed();
    result.next_bound = (next_bound != u32::MAX).then_some(next_bound);
    Ok(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::heuristic::pdb_eval::CompactEval;
    use crate::heuristic::pdb_set::{Partition, PdbSet};
    use crate::heuristic::{
        LinearConflict, LinearConflictEval, LongLineConflictEval, Manhattan, ManhattanEval,
    };
    use crate::search::eval::Weighted;
    use crate::search::idastar;
    use rand::{Rng, SeedableRng, rngs::SmallRng};
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;

    /// `goal` after `steps` random blank moves.
    fn walk(goal: &Board, steps: usize, rng: &mut SmallRng) -> Board {
        let mut b = goal.clone();
        for _ in 0..steps {
            b.apply(Move::ALL[rng.random_range(0..4)]);
        }
        b
    }

    /// Weight 1 is the inner evaluator itself (same lengths and node counts); weight w keeps
    /// answers within ⌈w times the optimum⌉ and never below it; values are scaled up, 0 stays 0.
    #[test]
    fn weighted_evaluator_scales_and_bounds_lengths() {
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let table = crate::table::Table::build(&goal).unwrap();
        let md = Manhattan::new(&goal);
        let e = ManhattanEval::new(&md).unwrap();
        let pruner = MovePruner::for_shape(goal.shape());
        let none = Limits::default();
        let mut rng = SmallRng::seed_from_u64(4);
        for _ in 0..100 {
            let b = walk(&goal, 60, &mut rng);
            let opt = table.distance(&b).unwrap() as usize;
            let (plain, ps) = run(&b, &e, pruner, &none, false).unwrap();
            let (one, os) = run(&b, &Weighted::new(&e, 1, 1), pruner, &none, false).unwrap();
            assert_eq!((plain.len(), ps.expanded), (one.len(), os.expanded));
            for (num, den) in [(3, 2), (2, 1), (3, 1)] {
                let (s, _) = run(&b, &Weighted::new(&e, num, den), pruner, &none, false).unwrap();
                s.verify(&b, &goal).unwrap();
                // At most ⌈w · optimum⌉ (values are rounded up).
                assert!(
                    opt <= s.len() && s.len() * (den as usize) < opt * num as usize + den as usize
                );
            }
            let cells = Cells::of(&b);
            let (_, h) = e.root(&cells);
            assert_eq!(Weighted::new(&e, 3, 2).root(&cells).1, (h * 3).div_ceil(2));
        }
        assert_eq!(Weighted::new(&e, 3, 1).root(&Cells::of(&goal)).1, 0);
    }

    /// With only the parent move pruned and one thread, the engine is node for node the
    /// textbook IDA* (same lengths, expanded and generated counts), for Manhattan distance and
    /// both linear-conflict evaluators, on several shapes (sides over 6 included) and a custom
    /// goal; with full pruning and on all threads the lengths stay the same.
    #[test]
    fn agrees_with_textbook_idastar_node_for_node() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut goals: Vec<Board> = [
            (2, 3),
            (3, 2),
            (3, 3),
            (2, 4),
            (4, 4),
            (3, 5),
            (2, 8),
            (7, 2),
        ]
        .into_iter()
        .map(|(w, h)| Board::goal(Shape::new(w, h).unwrap()))
        .collect();
        goals.push(Board::parse("8 x 6 5 4 7 2 3 1").unwrap());
        for goal in goals {
            let md = Manhattan::new(&goal);
            let lc = LinearConflict::new(&goal);
            let md_eval = ManhattanEval::new(&md).unwrap();
            let tabled = LinearConflictEval::new(&lc);
            let long = LongLineConflictEval::new(&lc).unwrap();
            let count = if goal.shape().cells() > 12 { 6 } else { 40 };
            for _ in 0..count {
                let start = if goal.shape().cells() > 12 {
                    walk(&goal, 40, &mut rng)
                } else {
                    crate::random::random_solvable(&goal, &mut rng)
                };
                let none = Limits::default();
                let slow_md = idastar(&start, &goal, &md, &none).unwrap();
                let slow_lc = idastar(&start, &goal, &lc, &none).unwrap();
                let mut runs = vec![
                    (
                        &slow_md,
                        run(&start, &md_eval, MovePruner::parent_only(), &none, false),
                    ),
                    (
                        &slow_lc,
                        run(&start, &long, MovePruner::parent_only(), &none, false),
                    ),
                ];
                if let Some(e) = &tabled {
                    runs.push((
                        &slow_lc,
                        run(&start, e, MovePruner::parent_only(), &none, false),
                    ));
                }
                for (slow, fast) in runs {
                    let fast = fast.unwrap();
                    fast.0.verify(&start, &goal).unwrap();
                    assert_eq!(fast.0.len(), slow.0.len(), "{start:?}");
                    assert_eq!(fast.1.expanded, slow.1.expanded, "{start:?}");
                    assert_eq!(fast.1.generated, slow.1.generated, "{start:?}");
                }
                for parallel in [false, true] {
                    let pruned = run(
                        &start,
                        &long,
                        MovePruner::for_shape(start.shape()),
                        &none,
                        parallel,
                    )
                    .unwrap();
                    pruned.0.verify(&start, &goal).unwrap();
                    assert_eq!(pruned.0.len(), slow_lc.0.len(), "{start:?}");
                    assert!(pruned.1.expanded <= slow_lc.1.expanded + 1 || parallel);
                }
            }
        }
    }

    /// Once the ordered frontier is in use (small thresholds here, so that 3×3 boards reach it),
    /// answers stay optimal: the complete distance table's lengths, serial and split, with the
    /// frontier's depth fixed and the goal found below it or within it.
    #[test]
    fn ordered_frontier_keeps_answers_optimal() {
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let table = crate::table::Table::build(&goal).unwrap();
        let lc = LinearConflict::new(&goal);
        let long = LongLineConflictEval::new(&lc).unwrap();
        let mut rng = SmallRng::seed_from_u64(25);
        let none = Limits::default();
        let (mut used, mut runs) = (0, 0);
        for _ in 0..60 {
            let start = crate::random::random_solvable(&goal, &mut rng);
            let optimum = table.distance(&start).unwrap() as usize;
            for (parallel, roots) in [(false, 8), (true, 16), (true, 2)] {
                let mut order = FrontierOrder::new(100, roots);
                let (s, _) = run_ordered(
                    &start,
                    &long,
                    MovePruner::for_shape(start.shape()),
                    &none,
                    parallel,
                    &mut order,
                )
                .unwrap();
                s.verify(&start, &goal).unwrap();
                assert_eq!(s.len(), optimum, "{start:?}");
                runs += 1;
                used += usize::from(order.at_fixed && !order.nearest.is_empty());
            }
        }
        assert!(
            used * 2 > runs,
            "the ordered frontier was used in {used} of {runs} runs"
        );
    }

    /// The ordered frontier takes the roots remembered nearest first (then by their own
    /// estimate), and the rest after them in breadth-first order; it fixes its depth only once
    /// the search is large and the level is wide enough, and orders only the roots at that depth.
    #[test]
    fn frontier_order_takes_the_nearest_roots_first() {
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let md = Manhattan::new(&goal);
        let e = ManhattanEval::new(&md).unwrap();
        let mut rng = SmallRng::seed_from_u64(3);
        let items: Vec<Item<_>> = (0..6)
            .map(|_| Item::root(&e, &crate::random::random_solvable(&goal, &mut rng)))
            .collect();
        let mut order = FrontierOrder::new(10, 6);
        let mut arranged = items.clone();
        order.arrange(&mut arranged, 3);
        assert_eq!(order.depth, None, "fixed before the search was large");
        order.iteration_done(10);
        order.arrange(&mut arranged[..5], 3);
        assert_eq!(
            order.depth, None,
            "fixed on a level narrower than the roots wanted"
        );
        order.arrange(&mut arranged, 3);
        assert_eq!((order.depth, order.at_fixed), (Some(3), true));
        // Nothing remembered yet: breadth-first order kept.
        let tiles = |v: &[Item<_>]| v.iter().map(|it| it.cells.tiles).collect::<Vec<_>>();
        assert_eq!(tiles(&arranged), tiles(&items));
        // Remembered: items 4 (nearest 2), 1 and 5 (nearest 7: the lower own estimate first);
        // 0, 2 and 3 not searched.
        let (h1, h5) = (items[1].h, items[5].h);
        let (first7, second7) = if h1 <= h5 { (1, 5) } else { (5, 1) };
        for (i, nearest) in [(4, 2), (1, 7), (5, 7)] {
            order.remember(&items[i], nearest);
        }
        order.arrange(&mut arranged, 3);
        let expected = [4, first7, second7, 0, 2, 3].map(|i| items[i].cells.tiles);
        assert_eq!(tiles(&arranged), expected);
        // Roots of another depth are left as they are and not remembered.
        let mut other = items.clone();
        order.arrange(&mut other, 2);
        assert!(!order.at_fixed);
        assert_eq!(tiles(&other), tiles(&items));
        order.remember(&items[0], 0);
        assert_eq!(order.remembered(), 3);
        // A stored-state limit below what the ordered frontier may hold: no ordering.
        let limited = |max_stored| {
            FrontierOrder::within(&Limits {
                max_stored,
                ..Limits::default()
            })
            .after
        };
        assert_eq!(limited(None), ORDER_AFTER);
        assert_eq!(limited(Some(5000)), u64::MAX);
        assert_eq!(limited(Some(50_000_000)), ORDER_AFTER);
    }

    /// Node, time and cancel limits stop the pattern-database search, serial and split, ordered
    /// or not, with the figures so far.
    #[test]
    fn pattern_database_search_honours_limits_and_cancellation() {
        let shape = Shape::new(4, 4).unwrap();
        let goal = Board::goal(shape);
        let set = PdbSet::load_or_build(
            &goal,
            Partition::preset("5-5-5", shape).unwrap(),
            None,
            true,
            &|_, _, _, _| {},
            &mut |_| {},
            None,
        )
        .unwrap();
        let eval = CompactEval::new(&set).unwrap();
        let hard = Board::parse("15 14 13 12 11 10 9 8 7 6 5 4 3 1 2 x").unwrap();
        // Ordering from 1,000 states on (64 roots) as well, so that the limits are met while the
        // split is fixed and ordered.
        let runs = [
            (false, u64::MAX),
            (true, u64::MAX),
            (false, 1000),
            (true, 1000),
        ];
        for (parallel, after) in runs {
            let run = |b: &Board, limits: &Limits, parallel: bool| {
                let mut order = FrontierOrder::new(after, 64);
                run_ordered(
                    b,
                    &eval,
                    MovePruner::for_shape(b.shape()),
                    limits,
                    parallel,
                    &mut order,
                )
            };
            let limits = Limits {
                max_nodes: Some(5000),
                ..Limits::default()
            };
            let Err(SearchError::Limit(e)) = run(&hard, &limits, parallel) else {
                panic!("no node limit")
            };
            assert_eq!(e.kind, LimitKind::Nodes);
            assert!(
                e.stats.expanded > 5000 && e.stats.expanded < 5000 + 1024,
                "{e:?}"
            );

            let cancel = Arc::new(AtomicBool::new(true));
            let limits = Limits {
                cancel: Some(cancel),
                ..Limits::default()
            };
            let Err(SearchError::Limit(e)) = run(&hard, &limits, parallel) else {
                panic!("not cancelled")
            };
            assert_eq!(e.kind, LimitKind::Cancelled);
            assert!(e.stats.expanded < 5000, "{e:?}");

            let limits = Limits {
                max_time: Some(Duration::from_millis(30)),
                ..Limits::default()
            };
            let started = Instant::now();
            let Err(SearchError::Limit(e)) = run(&hard, &limits, parallel) else {
                panic!("no time limit")
            };
            assert_eq!(e.kind, LimitKind::Time);
            assert!(started.elapsed() < Duration::from_secs(2));
        }
        // And progress reports arrive, the last one marked finished.
        let reports = Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = reports.clone();
        let limits = Limits {
            progress: Some(ProgressHook(Arc::new(move |p: &SearchProgress| {
                sink.lock().unwrap().push(*p)
            }))),
            ..Limits::default()
        };
        let easy = walk(&goal, 30, &mut SmallRng::seed_from_u64(5));
        let (s, _) = run(
            &easy,
            &eval,
            MovePruner::for_shape(easy.shape()),
            &limits,
            true,
        )
        .unwrap();
        s.verify(&easy, &goal).unwrap();
        let reports = reports.lock().unwrap();
        assert!(
            reports
                .last()
                .is_some_and(|p| p.finished && p.stage == Stage::Bound(s.len() as u32))
        );
    }
}
