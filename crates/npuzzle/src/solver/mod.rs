//! The facade: every decision about solvers is made here, once, and every front end (CLI, web,
//! Python, Ray) only translates.
//!
//! - [`plan`]: the one rule choosing method, heuristic and databases ([`Plan`]), and the
//!   building policy per kind of caller ([`Use`]);
//! - [`builder`]: [`SolverBuilder`] provides the databases the plan wants and makes the
//!   [`Solver`] (every constructor goes through it);
//! - [`Solver`]: answers one board (`auto`: a complete table up to 10 cells, IDA* over pattern
//!   databases or linear conflict, the near-optimal solver of [`crate::near`] beyond), all IDA*
//!   on the one engine; with pattern databases every board is first mapped into the databases'
//!   canonical goal space ([`crate::symmetry`]) and the moves mapped back; an explicit
//!   [`Algorithm`] picks any search for teaching and comparison;
//! - [`batch`] and [`sinks`]: a stream of boards answered in parallel, in order;
//! - [`record`]: the one serialized answer; [`Solver::judge`] the verdict on an answer;
//! - [`Solver::split`]: an optimal search cut into work for a cluster.

use crate::board::{Board, Move};
use crate::heuristic::pdb::PdbError;
use crate::heuristic::pdb_eval::{
    CompactEval, PositionalEval, ZeroCompactEval, ZeroPositionalEval,
};
use crate::heuristic::pdb_set::PdbSet;
use crate::heuristic::{
    Heuristic, HeuristicKind, LinearConflict, LinearConflictEval, LongLineConflictEval, Manhattan,
    ManhattanEval,
};
use crate::judge::Verdict;
use crate::near::Effort;
use crate::search::engine;
use crate::search::eval::{self, MAX_CELLS};
use crate::search::move_pruning::MovePruner;
use crate::search::{self, LimitExceeded, LimitKind, Limits, SearchError, Stats};
pub use crate::search::{Split, SubtreeResult};
use crate::solution::Solution;
use crate::symmetry::Canonical;
use crate::table::{Table, TableError};
pub use builder::{PdbSource, SolverBuilder};
pub use plan::{Plan, Use};
pub use record::{Record, RecordWithStats};
use std::sync::Arc;

pub mod batch;
pub mod builder;
pub mod cache;
pub mod plan;
pub mod record;
pub mod sinks;
use std::time::Instant;
use thiserror::Error;

/// A solving method.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// The fastest optimal method for the board's size.
    Auto,
    /// Complete reverse-BFS table lookup (boards of at most 10 cells).
    Table,
    /// Forward breadth-first search.
    Bfs,
    /// Breadth-first search from both ends.
    Bidirectional,
    /// A* with the chosen heuristic.
    AStar,
    /// Iterative-deepening A* with the chosen heuristic.
    IdaStar,
    /// Greedy best-first on the heuristic alone (not optimal).
    Greedy,
    /// Constructive line-by-line solver for any size (quick, not optimal).
    Large,
    /// Near-optimal answers for any size (weighted IDA*, after peeling lines on boards past
    /// 32 cells; see [`crate::near`]): short, quick, not optimal.
    Near,
}

impl Algorithm {
    /// Every concrete method, in teaching order.
    pub const ALL: [Algorithm; 8] = [
        Algorithm::Table,
        Algorithm::Bfs,
        Algorithm::Bidirectional,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Greedy,
        Algorithm::Large,
        Algorithm::Near,
    ];

    /// Its name, as every front end prints and accepts it (see [`crate::names`]).
    pub fn name(self) -> &'static str {
        crate::names::name_of(self)
    }

    /// Whether the method always returns a fewest-moves solution.
    pub fn is_optimal(self) -> bool {
        !matches!(self, Algorithm::Greedy | Algorithm::Large | Algorithm::Near)
    }

    /// Whether the method uses a heuristic.
    pub fn uses_heuristic(self) -> bool {
        matches!(
            self,
            Algorithm::AStar | Algorithm::IdaStar | Algorithm::Greedy | Algorithm::Near
        )
    }
}

impl crate::names::Named for Algorithm {
    const WHAT: &'static str = "algorithm";
    const SPELLINGS: &'static [(&'static str, Algorithm)] = &[
        ("auto", Algorithm::Auto),
        ("table", Algorithm::Table),
        ("bfs", Algorithm::Bfs),
        ("bidirectional", Algorithm::Bidirectional),
        ("astar", Algorithm::AStar),
        ("idastar", Algorithm::IdaStar),
        ("greedy", Algorithm::Greedy),
        ("large", Algorithm::Large),
        ("near", Algorithm::Near),
        ("a-star", Algorithm::AStar),
        ("a*", Algorithm::AStar),
        ("ida-star", Algorithm::IdaStar),
        ("ida*", Algorithm::IdaStar),
        ("bidir", Algorithm::Bidirectional),
    ];
}

crate::names::from_str_by_name!(Algorithm);

/// Why a solver could not be made or could not answer.
#[derive(Clone, Debug, Error)]
pub enum SolveError {
    /// The chosen method does not handle this board.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The `table` method on a 12-cell board whose table is neither cached nor
    /// allowed to be built.
    #[error("{0}")]
    NoTable(String),
    /// The search failed (limit, shape mismatch …).
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A solver that needs pattern databases has none (the `pdb` heuristic with none
    /// cached or given, or a board too large for them).
    #[error("{0}")]
    NoDatabases(String),
    /// The pattern databases given are for another goal.
    #[error("the pattern databases are for goal {databases}, not {goal}")]
    WrongDatabases {
        /// The databases' goal, in judge form.
        databases: String,
        /// The solver's goal, in judge form.
        goal: String,
    },
    /// Pattern databases could not be loaded or built.
    #[error(transparent)]
    Databases(Arc<PdbError>),
}

impl From<PdbError> for SolveError {
    fn from(e: PdbError) -> SolveError {
        SolveError::Databases(Arc::new(e))
    }
}

impl SolveError {
    /// The search figures, when the failure was a limit.
    pub fn limit_stats(&self) -> Option<&Stats> {
        match self {
            SolveError::Search(SearchError::Limit(l)) => Some(&l.stats),
            _ => None,
        }
    }
}

/// A solved board.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The moves.
    pub solution: Solution,
    /// What finding them cost.
    pub stats: Stats,
    /// Whether the method guarantees fewest moves.
    pub optimal: bool,
    /// The method that actually ran (`Auto` only when none had to: the board was the goal).
    pub algorithm: Algorithm,
    /// The heuristic it used, if any.
    pub heuristic: Option<HeuristicKind>,
    /// The pattern-database partition it searched over, if any (`7-8`, `6-6-6-6` …).
    pub databases: Option<String>,
    /// When the requested search hit this limit and the answer came from the fallback
    /// (see [`Solver::with_fallback`]).
    pub fallback_after: Option<search::LimitKind>,
}

/// Why an answer is not proven the fewest moves ([`Answer::not_optimal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotOptimal {
    /// The optimal search hit this limit and the near-optimal solver answered instead.
    Fallback(search::LimitKind),
    /// The near-optimal solver answered, without pattern databases, a board small enough for
    /// an optimal search over them: `auto` does so when none are available (`npuzzle pdb
    /// build --size WxH` builds them once).
    NoDatabases,
    /// Past 32 cells only the near-optimal solver answers.
    TooLarge,
    /// A method that does not promise the fewest moves was asked for (greedy, large, near).
    Method,
}

impl NotOptimal {
    /// Why answers of `algorithm` (over databases or not; after the optimal search hit
    /// `fallback_after`) for boards of `shape` are not proven the fewest moves.
    fn of(
        algorithm: Algorithm,
        databases: bool,
        fallback_after: Option<search::LimitKind>,
        shape: crate::board::Shape,
    ) -> NotOptimal {
        match fallback_after {
            Some(kind) => NotOptimal::Fallback(kind),
            None if shape.cells() > MAX_CELLS => NotOptimal::TooLarge,
            // Near-optimal without databases where an optimal search over them would run;
            // with databases, or on boards too small to want them, `near` was asked for.
            None if algorithm == Algorithm::Near && !databases && shape.cells() >= 16 => {
                NotOptimal::NoDatabases
            }
            None => NotOptimal::Method,
        }
    }

    /// The reason in words, for boards of `shape` (a verdict's `not compared` says it).
    pub fn reason(self, shape: crate::board::Shape) -> String {
        match self {
            NotOptimal::Fallback(kind) => format!("the optimal search stopped at its {kind}"),
            NotOptimal::NoDatabases => format!(
                "no pattern databases for {shape} boards were loaded; `npuzzle pdb build --size {shape}` caches them, once"
            ),
            NotOptimal::TooLarge => {
                format!("no optimal method answers boards past {MAX_CELLS} cells")
            }
            NotOptimal::Method => "the method asked for does not promise the fewest moves".into(),
        }
    }
}

impl Answer {
    /// Why this answer (for a board of `shape`) is not proven the fewest moves; `None` when
    /// it is.
    pub fn not_optimal(&self, shape: crate::board::Shape) -> Option<NotOptimal> {
        (!self.optimal).then(|| {
            NotOptimal::of(
                self.algorithm,
                self.databases.is_some(),
                self.fallback_after,
                shape,
            )
        })
    }
}

/// The result of solving one board.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// A solution was found.
    Solved(Answer),
    /// The board cannot reach the goal (opposite parity).
    Unsolvable,
}

/// The IDA* engine's evaluator for the solver's Manhattan or linear-conflict heuristic, built
/// once per solver (boards of at most 32 cells).
#[allow(clippy::large_enum_variant)] // one per solver, behind an `Arc`
enum FastEval {
    Manhattan(ManhattanEval),
    Lines(LinearConflictEval),
    LongLines(LongLineConflictEval),
}

impl std::fmt::Debug for FastEval {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FastEval::Manhattan(_) => "FastEval::Manhattan",
            FastEval::Lines(_) => "FastEval::Lines",
            FastEval::LongLines(_) => "FastEval::LongLines",
        })
    }
}

/// The heuristic tables a solver built for its goal.
#[derive(Clone, Debug)]
enum Heuristics {
    Manhattan(Arc<Manhattan>),
    LinearConflict(Arc<LinearConflict>),
    Pdb {
        set: Arc<PdbSet>,
        canonical: Canonical,
    },
}

/// Solves boards toward one goal with one method.
#[derive(Clone, Debug)]
pub struct Solver {
    goal: Board,
    /// The method asked for (maybe `Auto`).
    algorithm: Algorithm,
    /// The method the plan chose (never `Auto`).
    method: Algorithm,
    heuristic: HeuristicKind,
    heuristics: Heuristics,
    limits: Limits,
    table: Option<Arc<Table>>,
    fast: Option<Arc<FastEval>>,
    /// Answer with the near-optimal solver (labelled not optimal) when a search hits a limit.
    fallback: bool,
    /// Keep every search on one core (deterministic node counts, e.g. for comparisons).
    single_thread: bool,
    /// How long the near-optimal solver may work for a shorter answer.
    effort: Effort,
}

/// A piece of work for the IDA* engine, run with whichever evaluator a solver uses (see
/// [`Solver::engine_job`]): a whole search, the frontier of a split one, or some of its subtrees.
trait EngineJob {
    type Out;
    /// Whether the job may expand billions of states, so that the pattern databases' fast
    /// positional layout pays for its making (seconds, and about twice the memory once; see
    /// [`PdbSet::positional_tables`]): optimal searches and their subtrees, not the
    /// near-optimal solver's bounded rungs or a split's first levels.
    fn long(&self) -> bool;
    fn run<E: eval::Evaluator>(
        self,
        board: &Board,
        eval: &E,
        pruner: &MovePruner,
    ) -> Result<Self::Out, SearchError>;
}

/// States an optimal search spends on the compact pattern-database tables before it makes
/// the positional layout (see [`Solver::solve`]): about a second.
pub(crate) const COMPACT_FIRST_STATES: u64 = 20_000_000;

/// The error of a search stopped by `kind` while its databases were laid out, before it
/// expanded a state.
fn layout_stopped(kind: LimitKind, started: Instant) -> SearchError {
    let stats = Stats {
        elapsed: started.elapsed(),
        ..Stats::default()
    };
    SearchError::Limit(LimitExceeded {
        kind,
        stats,
        laying_out: true,
    })
}

/// `outcome`'s stats (of an answer, or of the limit that stopped it) with `before` added (the
/// states of an earlier part of the same search) and its time counted from `started` (the
/// layout's included).
fn counted_from(
    outcome: Result<search::Found, SearchError>,
    before: &Stats,
    started: Instant,
) -> Result<search::Found, SearchError> {
    let count = |mut stats: Stats| {
        stats.absorb(before);
        stats.elapsed = started.elapsed();
        stats
    };
    match outcome {
        Ok((s, stats)) => Ok((s, count(stats))),
        Err(SearchError::Limit(l)) => Err(SearchError::Limit(LimitExceeded {
            stats: count(l.stats),
            ..l
        })),
        Err(e) => Err(e),
    }
}

/// [`COMPACT_FIRST_STATES`], or 2,000 in a test that lays small databases out.
fn compact_first_states() -> u64 {
    #[cfg(test)]
    if crate::heuristic::pdb_positional::LAY_OUT_SMALL.get() {
        return 2_000;
    }
    COMPACT_FIRST_STATES
}

/// A whole IDA* search: optimal, or weighted by `num / den` (the near-optimal solver's
/// ladder rungs, see [`eval::Weighted`]).
struct Run<'a> {
    limits: &'a Limits,
    parallel: bool,
    weight: Option<(u32, u32)>,
    /// Whether to read the positional layout (see [`EngineJob::long`]).
    long: bool,
}

impl EngineJob for Run<'_> {
    type Out = search::Found;
    fn long(&self) -> bool {
        self.long && self.weight.is_none()
    }
    fn run<E: eval::Evaluator>(
        self,
        board: &Board,
        eval: &E,
        pruner: &MovePruner,
    ) -> Result<search::Found, SearchError> {
        match self.weight {
            None => engine::run(board, eval, pruner, self.limits, self.parallel),
            Some((num, den)) => {
                let weighted = eval::Weighted::new(eval, num, den);
                engine::run(board, &weighted, pruner, self.limits, self.parallel)
            }
        }
    }
}

/// The frontier of a split search.
struct FrontierJob(usize);

impl EngineJob for FrontierJob {
    type Out = Split;
    fn long(&self) -> bool {
        false
    }
    fn run<E: eval::Evaluator>(
        self,
        board: &Board,
        eval: &E,
        pruner: &MovePruner,
    ) -> Result<Split, SearchError> {
        engine::frontier(board, eval, pruner, self.0)
    }
}

/// Some subtrees of a split search under one bound.
struct SubtreesJob<'a> {
    roots: &'a [Vec<Move>],
    bound: u32,
    limits: &'a Limits,
}

impl EngineJob for SubtreesJob<'_> {
    type Out = SubtreeResult;
    fn long(&self) -> bool {
        true
    }
    fn run<E: eval::Evaluator>(
        self,
        board: &Board,
        eval: &E,
        pruner: &MovePruner,
    ) -> Result<SubtreeResult, SearchError> {
        engine::search_subtrees(board, eval, pruner, self.roots, self.bound, self.limits)
    }
}

/// How moves found in the engine's space map back to the caller's board.
enum MovesBack<'a> {
    Same,
    Canonical(&'a Canonical),
}

impl MovesBack<'_> {
    fn moves(&self, moves: Vec<Move>) -> Vec<Move> {
        match self {
            MovesBack::Same => moves,
            MovesBack::Canonical(c) => moves.into_iter().map(|m| c.move_back(m)).collect(),
        }
    }

    fn solution(&self, s: Solution) -> Solution {
        Solution::new(self.moves(s.into_moves()))
    }
}

/// The deepest [`Solver::split`] goes when it chooses the depth itself.
const MAX_SPLIT_DEPTH: usize = 19;

impl Solver {
    /// The `auto` solver for `goal` with no limits, as the command line's `solve` would
    /// answer (optimal up to 32 cells where the databases are cached; small ones, such as
    /// 4×4's 6-6-3, are built in seconds): [`SolverBuilder`] with the library's
    /// building policy ([`Use::Library`]).
    pub fn for_goal(goal: Board) -> Result<Solver, SolveError> {
        SolverBuilder::new(goal)
            .pdb_source(PdbSource::standard(Use::Library))
            .build()
    }

    /// A solver using `algorithm` with `heuristic` under `limits`, without pattern databases
    /// (the `pdb` heuristic needs [`Solver::with_pdbs`]): [`SolverBuilder`] in short.
    pub fn new(
        goal: Board,
        algorithm: Algorithm,
        heuristic: HeuristicKind,
        limits: Limits,
    ) -> Result<Solver, SolveError> {
        SolverBuilder::new(goal)
            .algorithm(algorithm)
            .heuristic(Some(heuristic))
            .limits(limits)
            .build()
    }

    /// A solver whose heuristic is the pattern databases `set`, which may be built for `goal`
    /// itself or for its canonical form (e.g. blank-last databases serve Korf's blank-first
    /// goal): [`SolverBuilder`] in short.
    pub fn with_pdbs(
        goal: Board,
        algorithm: Algorithm,
        set: Arc<PdbSet>,
        limits: Limits,
    ) -> Result<Solver, SolveError> {
        SolverBuilder::new(goal)
            .algorithm(algorithm)
            .heuristic(Some(HeuristicKind::Pdb))
            .pdb_set(set)
            .limits(limits)
            .build()
    }

    /// The solver that carries out `plan` (decided for `asked`) toward `goal`, with `set`
    /// when the plan searches over pattern databases and the cached `table` when it looks
    /// boards up (else it builds the table: milliseconds for 3×3). Only [`SolverBuilder`]
    /// calls this.
    pub(crate) fn assemble(
        goal: Board,
        asked: Algorithm,
        plan: Plan,
        (set, table): (Option<Arc<PdbSet>>, Option<Arc<Table>>),
        limits: Limits,
    ) -> Result<Solver, SolveError> {
        let table = match table {
            Some(t) if plan.method == Algorithm::Table => Some(t),
            _ if plan.method == Algorithm::Table => Some(Arc::new(Table::build(&goal)?)),
            _ => None,
        };
        let fits = goal.shape().cells() <= MAX_CELLS
            && matches!(plan.method, Algorithm::IdaStar | Algorithm::Near);
        let kind = plan.heuristic.unwrap_or(HeuristicKind::LinearConflict);
        let (heuristics, fast) = match (kind, set) {
            (HeuristicKind::Pdb, Some(set)) if plan.databases => {
                let canonical = if set.goal() == &goal {
                    Canonical::identity(&goal)
                } else {
                    let c = Canonical::of(&goal);
                    if &c.goal != set.goal() {
                        return Err(SolveError::WrongDatabases {
                            databases: set.goal().to_judge_line(),
                            goal: goal.to_judge_line(),
                        });
                    }
                    c
                };
                (Heuristics::Pdb { set, canonical }, None)
            }
            (HeuristicKind::Pdb, _) => {
                return Err(SolveError::NoDatabases(
                    "the plan searches over pattern databases, but none were provided".into(),
                ));
            }
            (HeuristicKind::Manhattan, _) => {
                let md = Manhattan::new(&goal);
                let fast = ManhattanEval::new(&md)
                    .filter(|_| fits)
                    .map(FastEval::Manhattan);
                (Heuristics::Manhattan(Arc::new(md)), fast)
            }
            (HeuristicKind::LinearConflict, _) => {
                let lc = LinearConflict::new(&goal);
                let fast = if !fits {
                    None
                } else if let Some(e) = LinearConflictEval::new(&lc) {
                    Some(FastEval::Lines(e))
                } else {
                    LongLineConflictEval::new(&lc).map(FastEval::LongLines)
                };
                (Heuristics::LinearConflict(Arc::new(lc)), fast)
            }
        };
        Ok(Solver {
            goal,
            algorithm: asked,
            method: plan.method,
            heuristic: kind,
            heuristics,
            limits,
            table,
            fast: fast.map(Arc::new),
            fallback: false,
            single_thread: false,
            effort: Effort::default(),
        })
    }

    /// The same solver, with the near-optimal solver working at `effort` (see [`Effort`]).
    pub fn with_effort(mut self, effort: Effort) -> Solver {
        self.effort = effort;
        self
    }

    /// The effort of the near-optimal solver.
    pub fn effort(&self) -> Effort {
        self.effort
    }

    /// The same solver, answering with the near-optimal solver (not optimal, and labelled so)
    /// when a search hits a time, node or memory limit (but not when cancelled).
    pub fn with_fallback(mut self, fallback: bool) -> Solver {
        self.fallback = fallback;
        self
    }

    /// The same solver, keeping every search on one core when `single` (node counts are then
    /// the same on every run; by default searches with pattern databases or on boards past
    /// 16 cells are split over all cores).
    pub fn with_single_thread(mut self, single: bool) -> Solver {
        self.single_thread = single;
        self
    }

    /// The heuristic searches use.
    pub fn heuristic(&self) -> HeuristicKind {
        self.heuristic
    }

    /// The pattern databases, when the solver has them.
    pub fn pdbs(&self) -> Option<&PdbSet> {
        match &self.heuristics {
            Heuristics::Pdb { set, .. } => Some(set),
            _ => None,
        }
    }

    /// The heuristic's value at `board` (after the same relabelling the search applies): the
    /// lower bound an optimal search starts from, e.g. to predict how long a search will take.
    /// `None` for a board of another shape.
    pub fn estimate(&self, board: &Board) -> Option<u32> {
        if board.shape() != self.goal.shape() {
            return None;
        }
        Some(match &self.heuristics {
            Heuristics::Manhattan(h) => h.estimate(board.cells()),
            Heuristics::LinearConflict(h) => h.estimate(board.cells()),
            Heuristics::Pdb { set, canonical } => set.estimate(canonical.board(board).cells()),
        })
    }

    /// The name of the solver's pattern-database partition, for an answer whose search used
    /// the solver's heuristic (`used`).
    fn databases_named(&self, used: bool) -> Option<String> {
        self.pdbs()
            .filter(|_| used)
            .map(|p| p.partition().name.clone())
    }

    /// The verdict on `answer` (judge letters, `unsolvable`) for `board` toward this
    /// solver's goal (see [`Verdict::judge`]), under the solver's limits.
    pub fn judge(&self, board: &Board, answer: &str) -> Verdict {
        self.judge_within(board, answer, &self.limits)
    }

    /// The verdict on `answer` under `limits`: an answer that reaches the goal is compared
    /// with the optimum when this solver's method is optimal (a table lookup, or a search
    /// within `limits`; a search that runs out leaves it not compared, and the verdict says
    /// which limit stopped it, or that no optimal method answers the board here).
    pub fn judge_within(&self, board: &Board, answer: &str, limits: &Limits) -> Verdict {
        let shape = board.shape();
        let optimum = || {
            if !self.method.is_optimal() {
                let databases = self.databases_named(self.method.uses_heuristic()).is_some();
                return Err(NotOptimal::of(self.method, databases, None, shape).reason(shape));
            }
            match self.solve_within(board, limits) {
                Ok(Outcome::Solved(a)) => match a.not_optimal(shape) {
                    None => Ok(a.solution.len()),
                    Some(why) => Err(why.reason(shape)),
                },
                Ok(Outcome::Unsolvable) => Err("the board cannot reach the goal".into()),
                Err(e) => Err(e.to_string()),
            }
        };
        Verdict::judge(board, &self.goal, answer, optimum)
    }

    /// The goal board.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The method asked for (possibly `Auto`).
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The complete table, when this solver answers from one.
    pub fn table(&self) -> Option<&Table> {
        self.table.as_deref()
    }

    /// The limits searches run under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The method that runs for boards of this solver's goal (see [`Plan`]).
    pub fn effective_algorithm(&self) -> Algorithm {
        self.method
    }

    /// Whether this solver's searches run on the IDA* engine (with its Manhattan,
    /// linear-conflict or pattern-database evaluator).
    pub fn uses_engine(&self) -> bool {
        self.effective_algorithm() == Algorithm::IdaStar && self.has_engine_evaluator()
    }

    /// Whether the solver has an evaluator for the IDA* engine (Manhattan, linear conflict
    /// or pattern databases, on a board of at most 32 cells).
    fn has_engine_evaluator(&self) -> bool {
        (self.fast.is_some() || matches!(self.heuristics, Heuristics::Pdb { .. }))
            && self.goal.shape().cells() <= MAX_CELLS
    }

    /// Runs `job` on the engine with this solver's evaluator, on `board` mapped into the
    /// evaluator's space; also says how to map moves back. The board must be able to reach
    /// the goal.
    fn engine_job<J: EngineJob>(
        &self,
        board: &Board,
        job: J,
    ) -> Result<(J::Out, MovesBack<'_>), SolveError> {
        board
            .check_same_shape(&self.goal)
            .map_err(SearchError::from)?;
        let engine_method = matches!(
            self.effective_algorithm(),
            Algorithm::IdaStar | Algorithm::Near
        );
        if !engine_method || !self.has_engine_evaluator() {
            return Err(SearchError::Unsupported(format!(
                "this solver ({}) does not search with the IDA* engine",
                self.effective_algorithm().name()
            ))
            .into());
        }
        let pruner = MovePruner::for_shape(board.shape());
        match (&self.heuristics, self.fast.as_deref()) {
            (Heuristics::Pdb { set, canonical }, _) => {
                let b = canonical.board(board);
                search::check_solvable(&b, set.goal())?;
                let back = MovesBack::Canonical(canonical);
                // The zero-aware tables where the set has them (1.2–2.8 times fewer states for
                // about 1.4 times the cost of one on 5×5),
                // laid out by positions for long searches where they suit.
                if set.zero_aware().is_some() {
                    if job.long()
                        && let Some(e) = ZeroPositionalEval::positional(set)
                    {
                        return Ok((job.run(&b, &e, pruner)?, back));
                    }
                    if let Some(e) = ZeroCompactEval::zero_aware(set) {
                        return Ok((job.run(&b, &e, pruner)?, back));
                    }
                }
                if job.long()
                    && let Some(e) = PositionalEval::positional(set)
                {
                    return Ok((job.run(&b, &e, pruner)?, back));
                }
                let e = CompactEval::new(set).ok_or_else(|| {
                    SearchError::Unsupported(
                        "the IDA* engine takes at most 8 patterns of at most 8 tiles, tables of at most 4,294,967,295 entries and boards of at most 32 cells".into(),
                    )
                })?;
                Ok((job.run(&b, &e, pruner)?, back))
            }
            (_, Some(fast)) => {
                search::check_solvable(board, &self.goal)?;
                let out = match fast {
                    FastEval::Manhattan(e) => job.run(board, e, pruner),
                    FastEval::Lines(e) => job.run(board, e, pruner),
                    FastEval::LongLines(e) => job.run(board, e, pruner),
                }?;
                Ok((out, MovesBack::Same))
            }
            _ => Err(SearchError::Unsupported("no engine evaluator".into()).into()),
        }
    }

    /// The first level of an optimal search split between machines: every subtree root
    /// `depth` moves below `board` (duplicate sequences pruned), to be searched with
    /// [`Solver::search_subtrees`] under bounds rising from `first_bound` — all subtrees
    /// under one bound before the next, the first solution found under a bound being optimal.
    /// Solvers with the IDA* engine only ([`Solver::uses_engine`]).
    pub fn frontier(&self, board: &Board, depth: usize) -> Result<Split, SolveError> {
        let (f, back) = self.engine_job(board, FrontierJob(depth))?;
        Ok(match f {
            Split::Solved(s) => Split::Solved(back.solution(s)),
            roots => roots,
        })
    }

    /// The first level of an optimal search of `board` for a cluster of `tasks` workers: the
    /// frontier ([`Solver::frontier`]) at `depth`, or by default at the least depth (up to
    /// 19) with at least 16 subtree roots per task; and the depth used. Deal the roots out
    /// with [`SplitIterations::dealing`](crate::SplitIterations::dealing) (nearest the goal
    /// first from the second iteration on) or [`Split::chunks`]; each iteration searches every
    /// chunk under its bound ([`Solver::search_subtrees`]), the next bound is the least any
    /// chunk reports, and the first solution found under a bound is optimal.
    pub fn split(
        &self,
        board: &Board,
        tasks: usize,
        depth: Option<usize>,
    ) -> Result<(Split, usize), SolveError> {
        if let Some(d) = depth {
            return Ok((self.frontier(board, d)?, d));
        }
        let mut d = 1;
        loop {
            let split = self.frontier(board, d)?;
            let enough = match &split {
                Split::Solved(_) => true,
                Split::Roots { paths, .. } => paths.len() >= 16 * tasks.max(1),
            };
            if enough || d == MAX_SPLIT_DEPTH {
                return Ok((split, d));
            }
            d += 1;
        }
    }

    /// Searches the subtrees at `roots` (paths from [`Solver::frontier`] for the same board and
    /// goal) depth-first to `bound`, on the calling thread; a solution comes back as moves
    /// from `board`.
    pub fn search_subtrees(
        &self,
        board: &Board,
        roots: &[Vec<Move>],
        bound: u32,
        limits: &Limits,
    ) -> Result<SubtreeResult, SolveError> {
        // A task of a split search on another machine lays the tables out first, within its
        // limits (a cancelled task stops within about two tenths of a second).
        let started = Instant::now();
        let after = self
            .lay_out(limits, started, 0)
            .map_err(|kind| layout_stopped(kind, started))?;
        let job = SubtreesJob {
            roots,
            bound,
            limits: &after,
        };
        let with_layout = |mut stats: Stats| {
            stats.elapsed = started.elapsed();
            stats
        };
        let (mut r, back) = self.engine_job(board, job).map_err(|e| match e {
            SolveError::Search(SearchError::Limit(l)) => {
                SolveError::Search(SearchError::Limit(LimitExceeded {
                    stats: with_layout(l.stats),
                    ..l
                }))
            }
            other => other,
        })?;
        r.solution = r.solution.map(|s| back.solution(s));
        r.stats = with_layout(r.stats);
        Ok(r)
    }

    /// The near-optimal answer (see [`crate::near`]): the weighted ladder on the engine with
    /// this solver's evaluator for boards of at most 32 cells, else peeling lines and the
    /// ladder on the last region with its own linear-conflict (or Manhattan) solver.
    fn near(
        &self,
        board: &Board,
        limits: &Limits,
        parallel: bool,
    ) -> Result<search::Found, SearchError> {
        let as_search = |e: SolveError| match e {
            SolveError::Search(e) => e,
            other => SearchError::Unsupported(other.to_string()),
        };
        if self.has_engine_evaluator() {
            return crate::near::weighted_ladder(
                board,
                &self.goal,
                self.effort,
                limits,
                |weight, limits| {
                    let job = Run {
                        limits,
                        parallel,
                        weight: Some(weight),
                        long: false,
                    };
                    self.engine_job(board, job)
                        .map(|((s, stats), back)| (back.solution(s), stats))
                        .map_err(as_search)
                },
            );
        }
        let heuristic = match self.heuristic {
            HeuristicKind::Manhattan => HeuristicKind::Manhattan,
            _ => HeuristicKind::LinearConflict,
        };
        crate::near::solve_by_peeling(
            board,
            &self.goal,
            self.effort,
            limits,
            parallel,
            |start, goal, effort, limits| {
                let core = Solver::new(goal.clone(), Algorithm::Near, heuristic, limits.clone())
                    .map_err(as_search)?
                    .with_effort(effort)
                    .with_single_thread(!parallel);
                if !core.has_engine_evaluator() {
                    return crate::near::placement::solve_large(start, goal, limits);
                }
                core.near(start, limits, parallel)
            },
        )
    }

    fn run<H: Heuristic + ?Sized>(
        &self,
        algorithm: Algorithm,
        board: &Board,
        goal: &Board,
        h: &H,
        limits: &Limits,
    ) -> Result<search::Found, SearchError> {
        match algorithm {
            Algorithm::Bfs => search::bfs(board, goal, limits),
            Algorithm::Bidirectional => search::bidirectional(board, goal, limits),
            Algorithm::AStar => search::astar(board, goal, h, limits),
            Algorithm::Greedy => search::greedy(board, goal, h, limits),
            Algorithm::Large => crate::near::placement::solve_large(board, goal, limits),
            _ => search::idastar(board, goal, h, limits),
        }
    }

    /// Makes the databases' positional layout if it is still to be made (see
    /// [`PdbSet::prepare_layout_until`]), reading `limits`' time limit (counted from
    /// `started`) and cancel flag between its units; its progress goes to `limits`' hook as
    /// [`engine::Stage::Layout`], with `expanded` states spent before it. Then the limits
    /// for the rest of the search: what is left of them after `expanded` states since
    /// `started`, with a progress hook that counts on from there. Else the limit that stopped
    /// it (what was made is kept for the next search).
    fn lay_out(
        &self,
        limits: &Limits,
        started: Instant,
        expanded: u64,
    ) -> Result<Limits, LimitKind> {
        let layout_began = started.elapsed();
        let report = |finished: bool| {
            if let Some(hook) = &limits.progress {
                let elapsed = started.elapsed();
                (hook.0)(&engine::SearchProgress {
                    stage: engine::Stage::Layout,
                    expanded,
                    elapsed,
                    layout: elapsed.saturating_sub(layout_began),
                    finished,
                    line: None,
                })
            }
        };
        let last_report = std::sync::Mutex::new(Instant::now());
        let give_up = || {
            if let Ok(mut last) = last_report.try_lock()
                && last.elapsed() >= engine::REPORT_EVERY
            {
                *last = Instant::now();
                report(false);
            }
            limits.time_or_cancel(started).is_some()
        };
        let pending = self.pdbs().filter(|s| s.positional_pending());
        if let Some(set) = pending
            && !set.prepare_layout_until(&give_up)
        {
            report(true);
            // The limit that stopped it still holds (time only passes, the flag stays set).
            return Err(limits
                .time_or_cancel(started)
                .unwrap_or(LimitKind::Cancelled));
        }
        let offset = started.elapsed();
        let laid_out = match pending {
            Some(_) => offset.saturating_sub(layout_began),
            None => std::time::Duration::ZERO,
        };
        Ok(Limits {
            progress: limits.progress.as_ref().map(|hook| {
                let hook = hook.clone();
                engine::ProgressHook(Arc::new(move |p: &engine::SearchProgress| {
                    (hook.0)(&engine::SearchProgress {
                        expanded: p.expanded + expanded,
                        elapsed: p.elapsed + offset,
                        layout: p.layout + laid_out,
                        ..*p
                    })
                }))
            }),
            ..limits.remaining(started, expanded)
        })
    }

    /// An optimal search on the engine. When the databases take the positional layout (see
    /// [`PdbSet::positional_tables`]) and this process has not made it yet, the search starts
    /// on the compact tables under [`COMPACT_FIRST_STATES`]: most boards end there, and only a
    /// search that goes on pays for the layout (1–2 s and 2.3 GB for 5×5's zero-aware tables,
    /// depending on the machine) and goes on over it from the first part's last checkpoint
    /// (its finished iterations, and the subtrees of the current one it searched whole, are
    /// not searched again; the split's levels and the subtrees cut short are). The states and
    /// time of both parts, and
    /// of making the layout, count against `limits`: the time limit and the cancel flag stop
    /// the making too (what was made is kept for the next search), and the progress hook sees
    /// one search, [`engine::Stage::Layout`] in between, its counts going on across the parts.
    fn optimal_on_engine(
        &self,
        board: &Board,
        limits: &Limits,
        parallel: bool,
    ) -> Result<search::Found, SearchError> {
        let run = |limits: &Limits, long: bool| {
            let job = Run {
                limits,
                parallel,
                weight: None,
                long,
            };
            self.engine_job(board, job)
                .map_err(|e| match e {
                    SolveError::Search(e) => e,
                    other => SearchError::Unsupported(other.to_string()),
                })
                .map(|((s, stats), back)| (back.solution(s), stats))
        };
        let pending = match &self.heuristics {
            Heuristics::Pdb { set, .. } => set.positional_pending(),
            _ => false,
        };
        let started = Instant::now();
        // A search going on from a checkpoint, or handing them on, is a long one: straight to
        // the layout (two parts would hand on two runs' checkpoints).
        if pending && (limits.resume.is_some() || limits.checkpoint.is_some()) {
            let after = self
                .lay_out(limits, started, 0)
                .map_err(|kind| layout_stopped(kind, started))?;
            return counted_from(run(&after, true), &Stats::default(), started);
        }
        if !pending
            || limits
                .max_nodes
                .is_some_and(|m| m <= compact_first_states())
        {
            return run(limits, !pending);
        }
        // One progress line for the whole search: the first stretch's closing report is held
        // back (sent only if the search ends there), the layout reports its own stage, and
        // the rest counts its states and time on from the first stretch's. The rest goes on
        // from where the first stretch stopped (its last checkpoint), not from the start.
        let held = Arc::new(std::sync::Mutex::new(None));
        let kept: Arc<std::sync::Mutex<Option<search::Checkpoint>>> = Arc::default();
        let first = Limits {
            max_nodes: Some(compact_first_states()),
            checkpoint: Some(search::CheckpointHook(Arc::new({
                let kept = kept.clone();
                move |c: &search::Checkpoint| {
                    *kept.lock().unwrap_or_else(|e| e.into_inner()) = Some(c.clone())
                }
            }))),
            progress: limits.progress.as_ref().map(|hook| {
                let (hook, held) = (hook.clone(), held.clone());
                engine::ProgressHook(Arc::new(move |p: &engine::SearchProgress| {
                    if p.finished {
                        *held.lock().unwrap_or_else(|e| e.into_inner()) = Some(*p);
                    } else {
                        (hook.0)(p)
                    }
                }))
            }),
            ..limits.clone()
        };
        let closing = |report: Option<engine::SearchProgress>| {
            if let (Some(hook), Some(p)) = (&limits.progress, report) {
                (hook.0)(&p)
            }
        };
        let spent = match run(&first, false) {
            Err(SearchError::Limit(l)) if l.kind == LimitKind::Nodes => l.stats,
            other => {
                closing(held.lock().unwrap_or_else(|e| e.into_inner()).take());
                return other;
            }
        };
        let rest = match self.lay_out(limits, started, spent.expanded) {
            Ok(rest) => rest,
            Err(kind) => return counted_from(Err(layout_stopped(kind, started)), &spent, started),
        };
        let resume = kept.lock().unwrap_or_else(|e| e.into_inner()).take();
        let resumed = Limits {
            resume: resume.map(Arc::new),
            ..rest.clone()
        };
        let outcome = match run(&resumed, true) {
            // A checkpoint this search cannot take up (it should not happen): from the start.
            Err(SearchError::Checkpoint(_)) => run(&rest, true),
            other => other,
        };
        counted_from(outcome, &spent, started)
    }

    /// Solves one board under the solver's limits.
    pub fn solve(&self, board: &Board) -> Result<Outcome, SolveError> {
        self.solve_within(board, &self.limits)
    }

    /// Solves one board under other limits (e.g. a per-request time budget and cancel flag).
    pub fn solve_within(&self, board: &Board, limits: &Limits) -> Result<Outcome, SolveError> {
        board
            .check_same_shape(&self.goal)
            .map_err(SearchError::from)?;
        let algorithm = self.effective_algorithm();
        if let Some(table) = self
            .table
            .as_ref()
            .filter(|_| algorithm == Algorithm::Table)
        {
            let start = Instant::now();
            return Ok(match table.try_solve(board)? {
                None => Outcome::Unsolvable,
                Some(solution) => Outcome::Solved(Answer {
                    stats: Stats {
                        expanded: solution.len() as u64,
                        generated: 0,
                        peak_stored: table.reachable_states(),
                        elapsed: start.elapsed(),
                    },
                    solution,
                    optimal: true,
                    algorithm,
                    heuristic: None,
                    databases: None,
                    fallback_after: None,
                }),
            });
        }
        // The engine splits a search over all cores unless the solver keeps to one (a batch's
        // chunk of several boards already keeps every core busy): a lone board, a batch's
        // first line included, gets them all. Not boards of at most 12 cells without
        // databases: their searches take microseconds to milliseconds, less than splitting
        // costs (3×3 at depth 30–31: 437 µs a board split, 165 µs on one core).
        let parallel =
            !self.single_thread && (self.pdbs().is_some() || self.goal.shape().cells() > 12);
        // Checkpoints are the optimal engine's: no other search takes or hands them on.
        let plain = Limits {
            resume: None,
            checkpoint: None,
            ..limits.clone()
        };
        let found = if algorithm == Algorithm::Near {
            self.near(board, &plain, parallel)
        } else if self.uses_engine() {
            self.optimal_on_engine(board, limits, parallel)
        } else {
            let limits = &plain;
            match &self.heuristics {
                Heuristics::Manhattan(h) => {
                    self.run(algorithm, board, &self.goal, h.as_ref(), limits)
                }
                Heuristics::LinearConflict(h) => {
                    self.run(algorithm, board, &self.goal, h.as_ref(), limits)
                }
                Heuristics::Pdb { set, canonical } => {
                    let b = canonical.board(board);
                    self.run(algorithm, &b, set.goal(), set.as_ref(), limits)
                        .map(|(s, stats)| (MovesBack::Canonical(canonical).solution(s), stats))
                }
            }
        };
        match found {
            Ok((solution, stats)) => Ok(Outcome::Solved(Answer {
                solution,
                stats,
                optimal: algorithm.is_optimal(),
                algorithm,
                heuristic: algorithm.uses_heuristic().then_some(self.heuristic),
                databases: self.databases_named(algorithm.uses_heuristic()),
                fallback_after: None,
            })),
            Err(SearchError::Unsolvable) => Ok(Outcome::Unsolvable),
            Err(SearchError::Limit(l))
                if self.fallback && l.kind != search::LimitKind::Cancelled =>
            {
                // The fallback is quick and bounded (the near-optimal solver at the least effort,
                // or the constructive one when the near-optimal solver itself ran out), but
                // still stops when the caller cancels.
                let fallback_limits = Limits {
                    cancel: limits.cancel.clone(),
                    ..Limits::default()
                };
                let fallen_back = if algorithm == Algorithm::Near {
                    crate::near::placement::solve_large(board, &self.goal, &fallback_limits)
                } else {
                    self.clone().with_effort(Effort::default()).near(
                        board,
                        &fallback_limits,
                        parallel,
                    )
                };
                // A fallback cancelled says what the whole search spent, the first part's too.
                let (solution, mut stats) = fallen_back.map_err(|e| match e {
                    SearchError::Limit(mut f) => {
                        f.stats.absorb(&l.stats);
                        f.stats.elapsed += l.stats.elapsed;
                        SearchError::Limit(f)
                    }
                    other => other,
                })?;
                stats.absorb(&l.stats);
                stats.elapsed += l.stats.elapsed;
                Ok(Outcome::Solved(Answer {
                    solution,
                    stats,
                    optimal: false,
                    algorithm: if algorithm == Algorithm::Near {
                        Algorithm::Large
                    } else {
                        Algorithm::Near
                    },
                    heuristic: (algorithm != Algorithm::Near).then_some(self.heuristic),
                    databases: self.databases_named(algorithm != Algorithm::Near),
                    fallback_after: Some(l.kind),
                }))
            }
            Err(e) => Err(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::heuristic::pdb_positional::LAY_OUT_SMALL;
    use crate::heuristic::pdb_set::Partition;
    use crate::search::engine::{ProgressHook, SearchProgress, Stage};
    use rand::{Rng, SeedableRng, rngs::SmallRng};
    use std::sync::Mutex;
    use std::sync::atomic::AtomicBool;

    fn quiet(_: u32, _: u64, _: u64, _: u64) {}

    /// A solver over 3×5's `blocks-4` databases with their zero-aware tables, which this
    /// thread lays out by positions as it would 5×5's.
    fn laid_out_solver() -> (Solver, Arc<PdbSet>) {
        LAY_OUT_SMALL.set(true);
        let shape = Shape::new(3, 5).unwrap();
        let goal = Board::goal(shape);
        let p = Partition::parse("blocks-4", shape).unwrap();
        let set = PdbSet::load_or_build(&goal, p, None, true, &quiet, &mut |_| {}, None);
        let set = Arc::new(set.unwrap());
        assert!(set.zero_aware().is_some() && set.positional_pending());
        let solver = crate::solver::builder::SolverBuilder::new(goal)
            .algorithm(Algorithm::IdaStar)
            .heuristic(Some(HeuristicKind::Pdb))
            .pdb_set(set.clone())
            .build()
            .unwrap();
        (solver, set)
    }

    /// The layout stops at the time limit or the cancel flag between its units, keeps what
    /// it made, and is finished by the next call within the limits.
    #[test]
    fn the_layout_stops_at_the_limits_and_goes_on_later() {
        let (solver, set) = laid_out_solver();
        let cancelled = Limits {
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..Limits::default()
        };
        assert_eq!(
            solver.lay_out(&cancelled, Instant::now(), 7).err(),
            Some(LimitKind::Cancelled)
        );
        // A split search's task (Ray) stops there too, before searching a state.
        let board = set.goal().clone();
        match solver.search_subtrees(&board, &[Vec::new()], 40, &cancelled) {
            Err(SolveError::Search(SearchError::Limit(l))) => {
                assert_eq!((l.kind, l.stats.expanded), (LimitKind::Cancelled, 0));
                assert!(l.laying_out && l.to_string().contains("laying its tables out"));
            }
            other => panic!("{other:?}"),
        }
        // A search stopped before its layout says nothing of it.
        let mut far = set.goal().clone();
        for m in [Move::Left, Move::Up, Move::Left, Move::Up, Move::Right] {
            far.apply(m);
        }
        match solver.solve_within(&far, &cancelled) {
            Err(SolveError::Search(SearchError::Limit(l))) => {
                assert!(l.kind == LimitKind::Cancelled && !l.laying_out);
                assert!(!l.to_string().contains("laying"));
            }
            other => panic!("{other:?}"),
        }
        let no_time = Limits {
            max_time: Some(std::time::Duration::ZERO),
            ..Limits::default()
        };
        let long_ago = Instant::now() - std::time::Duration::from_millis(5);
        assert_eq!(
            solver.lay_out(&no_time, long_ago, 7).err(),
            Some(LimitKind::Time)
        );
        assert!(set.positional_pending());
        let rest = solver.lay_out(&Limits::default(), Instant::now(), 7);
        assert!(rest.is_ok() && !set.positional_pending());
    }

    /// A search that goes past its first stretch on the compact tables lays them out and
    /// goes on from the first stretch's checkpoint: optimal answers (the lengths IDA* with
    /// linear conflicts finds), stats counting both parts, and one progress line whose counts
    /// and bounds never go back, closed once at the end.
    #[test]
    fn a_search_in_two_parts_reports_as_one() {
        let mut rng = SmallRng::seed_from_u64(11);
        let mut lengths = Vec::new();
        let mut two_parts = 0;
        for _ in 0..6 {
            let (solver, set) = laid_out_solver();
            let mut board = set.goal().clone();
            for _ in 0..200 {
                board.apply(Move::ALL[rng.random_range(0..4)]);
            }
            let reports: Arc<Mutex<Vec<SearchProgress>>> = Arc::default();
            let sink = reports.clone();
            let limits = Limits {
                progress: Some(ProgressHook(Arc::new(move |p: &SearchProgress| {
                    sink.lock().unwrap().push(*p)
                }))),
                ..Limits::default()
            };
            let Outcome::Solved(answer) = solver.solve_within(&board, &limits).unwrap() else {
                panic!("unsolved")
            };
            answer.solution.verify(&board, set.goal()).unwrap();
            assert!(answer.optimal);
            let reports = reports.lock().unwrap();
            let last = reports.last().expect("a closing report");
            assert!(last.finished && last.stage == Stage::Bound(answer.solution.len() as u32));
            assert_eq!(reports.iter().filter(|p| p.finished).count(), 1);
            assert!(reports.windows(2).all(|w| w[0].expanded <= w[1].expanded
                && w[0].elapsed <= w[1].elapsed
                && w[0].layout <= w[1].layout));
            // The layout's seconds are counted apart, so that a rate leaves them out.
            assert!(reports.iter().all(|p| p.layout <= p.elapsed));
            // The second part goes on from the first's bound, not from the start's estimate.
            let bounds: Vec<u32> = reports
                .iter()
                .filter_map(|p| match p.stage {
                    Stage::Bound(b) => Some(b),
                    _ => None,
                })
                .collect();
            assert!(bounds.windows(2).all(|w| w[0] <= w[1]), "{bounds:?}");
            if answer.stats.expanded > compact_first_states() {
                two_parts += 1;
                assert!(!set.positional_pending(), "laid out");
                assert!(last.expanded > compact_first_states());
                assert!(last.layout > std::time::Duration::ZERO);
                assert!(last.rate() > last.expanded as f64 / last.elapsed.as_secs_f64());
            } else {
                assert_eq!(last.layout, std::time::Duration::ZERO);
            }
            lengths.push((board, answer.solution.len()));
        }
        assert!(
            two_parts >= 3,
            "{two_parts} of 6 went past the first stretch"
        );
        // The optimal lengths, by IDA* with linear conflicts.
        let goal = Board::goal(Shape::new(3, 5).unwrap());
        let solver = crate::solver::builder::SolverBuilder::new(goal)
            .algorithm(Algorithm::IdaStar)
            .heuristic(Some(HeuristicKind::LinearConflict))
            .build()
            .unwrap();
        for (board, len) in lengths {
            let Outcome::Solved(answer) = solver.solve(&board).unwrap() else {
                panic!("unsolved")
            };
            assert_eq!(answer.solution.len(), len);
        }
    }
}
