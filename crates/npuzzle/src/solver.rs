//! Choosing and running a solver for a goal: the one entry point the CLI and the web server use.
//!
//! `auto` answers from a complete table where the board has one (at most 10 cells: 3×3, 2×5 …),
//! runs IDA* over pattern databases when the solver was given them (boards of 16 to 32 cells,
//! see [`crate::builder`], which decides and provides them), IDA* with linear conflict otherwise
//! up to 16 cells, and the constructive (not optimal) solver of [`crate::large`] beyond. Every
//! IDA* runs on the one engine of [`crate::search::engine`]. With pattern databases every board is first mapped into the databases'
//! canonical goal space ([`crate::symmetry`]) and the moves mapped back. An
//! explicit [`Algorithm`] picks any search for teaching and comparison. Everything a search needs
//! that does not depend on the board (tables, heuristic tables) is built once per solver.

use crate::board::Board;
use crate::heuristic::pdb_set::{PdbEval, PdbSet};
use crate::heuristic::{
    Heuristic, HeuristicKind, LinearConflict, LinearConflictEval, LongLineConflictEval, Manhattan,
    ManhattanEval,
};
use crate::search::engine::{self, MAX_CELLS};
use crate::search::move_pruning::MovePruner;
use crate::search::{self, Limits, SearchError, Stats};
use crate::solution::Solution;
use crate::symmetry::Canonical;
use crate::table::{Table, TableError};
use std::sync::Arc;
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
}

impl Algorithm {
    /// Every concrete method, in teaching order.
    pub const ALL: [Algorithm; 7] = [
        Algorithm::Table,
        Algorithm::Bfs,
        Algorithm::Bidirectional,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Greedy,
        Algorithm::Large,
    ];

    /// Name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Table => "table",
            Algorithm::Bfs => "bfs",
            Algorithm::Bidirectional => "bidirectional",
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
            Algorithm::Greedy => "greedy",
            Algorithm::Large => "large",
        }
    }

    /// The method for a command-line name.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        [Algorithm::Auto]
            .into_iter()
            .chain(Algorithm::ALL)
            .find(|a| a.name() == name)
    }

    /// Whether the method always returns a fewest-moves solution.
    pub fn is_optimal(self) -> bool {
        !matches!(self, Algorithm::Greedy | Algorithm::Large)
    }

    /// Whether the method uses a heuristic.
    pub fn uses_heuristic(self) -> bool {
        matches!(
            self,
            Algorithm::AStar | Algorithm::IdaStar | Algorithm::Greedy
        )
    }
}

/// Why a solver could not be made or could not answer.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SolveError {
    /// The chosen method does not handle this board.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The search failed (limit, shape mismatch …).
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The pattern databases do not fit the goal, or none were given.
    #[error("{0}")]
    Pdb(String),
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
    /// The method that actually ran (never `Auto`).
    pub algorithm: Algorithm,
    /// The heuristic it used, if any.
    pub heuristic: Option<HeuristicKind>,
    /// When the requested search hit this limit and the answer came from the fallback
    /// (see [`Solver::with_fallback`]).
    pub fallback_after: Option<search::LimitKind>,
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
    algorithm: Algorithm,
    heuristic: HeuristicKind,
    heuristics: Heuristics,
    limits: Limits,
    table: Option<Arc<Table>>,
    fast: Option<Arc<FastEval>>,
    /// Answer with the constructive solver (labelled not optimal) when a search hits a limit.
    fallback: bool,
    /// Keep every search on one core (deterministic node counts, e.g. for comparisons).
    single_thread: bool,
}

impl Solver {
    /// The `auto` solver for `goal` with no limits.
    pub fn for_goal(goal: Board) -> Result<Solver, SolveError> {
        Solver::new(
            goal,
            Algorithm::Auto,
            HeuristicKind::LinearConflict,
            Limits::default(),
        )
    }

    /// A solver using `algorithm` (and `heuristic`, for the methods that take one) under
    /// `limits`; builds the complete table when the method needs one (milliseconds for 3×3).
    pub fn new(
        goal: Board,
        algorithm: Algorithm,
        heuristic: HeuristicKind,
        limits: Limits,
    ) -> Result<Solver, SolveError> {
        let wants_table = match algorithm {
            Algorithm::Table => true,
            Algorithm::Auto => Table::supports(goal.shape()),
            _ => false,
        };
        let table = if wants_table {
            Some(Arc::new(Table::build(&goal)?))
        } else {
            None
        };
        let fits = goal.shape().cells() <= MAX_CELLS
            && matches!(algorithm, Algorithm::Auto | Algorithm::IdaStar)
            && table.is_none();
        let (heuristics, fast) = match heuristic {
            HeuristicKind::Manhattan => {
                let md = Manhattan::new(&goal);
                let fast = ManhattanEval::new(&md)
                    .filter(|_| fits)
                    .map(FastEval::Manhattan);
                (Heuristics::Manhattan(Arc::new(md)), fast)
            }
            HeuristicKind::LinearConflict => {
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
            HeuristicKind::Pdb => {
                return Err(SolveError::Pdb(
                    "pattern databases must be supplied (Solver::with_pdbs)".into(),
                ));
            }
        };
        Ok(Solver {
            goal,
            algorithm,
            heuristic,
            heuristics,
            limits,
            table,
            fast: fast.map(Arc::new),
            fallback: false,
            single_thread: false,
        })
    }

    /// A solver whose heuristic is the pattern databases `set`. The databases may be built for
    /// `goal` itself or for its canonical form (e.g. blank-last databases serve Korf's
    /// blank-first goal).
    pub fn with_pdbs(
        goal: Board,
        algorithm: Algorithm,
        set: Arc<PdbSet>,
        limits: Limits,
    ) -> Result<Solver, SolveError> {
        let canonical = if set.goal() == &goal {
            Canonical::identity(&goal)
        } else {
            let c = Canonical::of(&goal);
            if &c.goal != set.goal() {
                return Err(SolveError::Pdb(format!(
                    "the pattern databases are for goal {:?}, not {:?}",
                    set.goal(),
                    goal
                )));
            }
            c
        };
        let mut solver = Solver::new(goal, algorithm, HeuristicKind::Manhattan, limits)?;
        solver.heuristic = HeuristicKind::Pdb;
        solver.heuristics = Heuristics::Pdb { set, canonical };
        solver.fast = None;
        Ok(solver)
    }

    /// The same solver, answering with the constructive solver (not optimal, and labelled so)
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

    /// The method that runs for boards of this solver's goal.
    pub fn effective_algorithm(&self) -> Algorithm {
        match (self.algorithm, &self.table) {
            (Algorithm::Auto, Some(_)) => Algorithm::Table,
            (Algorithm::Auto, None) if self.pdbs().is_none() && self.goal.shape().cells() > 16 => {
                Algorithm::Large
            }
            (Algorithm::Auto, None) => Algorithm::IdaStar,
            (a, _) => a,
        }
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
            Algorithm::Large => crate::large::solve_large(board, goal, limits),
            _ => search::idastar(board, goal, h, limits),
        }
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
            return Ok(match table.solve(board) {
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
                    fallback_after: None,
                }),
            });
        }
        // The engine splits a search over all cores for pattern databases and boards past 4×4;
        // small boards stay on one core (a batch already keeps every core busy).
        let parallel =
            !self.single_thread && (self.pdbs().is_some() || self.goal.shape().cells() > 16);
        let pruner = MovePruner::standard();
        let found = match (&self.heuristics, self.fast.as_deref()) {
            (_, Some(fast)) if algorithm == Algorithm::IdaStar => {
                search::check_solvable(board, &self.goal).and_then(|()| match fast {
                    FastEval::Manhattan(e) => engine::run(board, e, pruner, limits, parallel),
                    FastEval::Lines(e) => engine::run(board, e, pruner, limits, parallel),
                    FastEval::LongLines(e) => engine::run(board, e, pruner, limits, parallel),
                })
            }
            (Heuristics::Manhattan(h), _) => {
                self.run(algorithm, board, &self.goal, h.as_ref(), limits)
            }
            (Heuristics::LinearConflict(h), _) => {
                self.run(algorithm, board, &self.goal, h.as_ref(), limits)
            }
            (Heuristics::Pdb { set, canonical }, _) => {
                let b = canonical.board(board);
                let found = match PdbEval::new(set) {
                    Some(e) if algorithm == Algorithm::IdaStar => {
                        search::check_solvable(&b, set.goal())
                            .and_then(|()| engine::run(&b, &e, pruner, limits, parallel))
                    }
                    _ => self.run(algorithm, &b, set.goal(), set.as_ref(), limits),
                };
                found.map(|(s, stats)| {
                    let moves = s.moves().iter().map(|&m| canonical.move_back(m)).collect();
                    (Solution::new(moves), stats)
                })
            }
        };
        match found {
            Ok((solution, stats)) => Ok(Outcome::Solved(Answer {
                solution,
                stats,
                optimal: algorithm.is_optimal(),
                algorithm,
                heuristic: algorithm.uses_heuristic().then_some(self.heuristic),
                fallback_after: None,
            })),
            Err(SearchError::Unsolvable) => Ok(Outcome::Unsolvable),
            Err(SearchError::Limit(l))
                if self.fallback && l.kind != search::LimitKind::Cancelled =>
            {
                // The fallback is quick and bounded, but still stops when the caller cancels.
                let fallback_limits = Limits {
                    cancel: limits.cancel.clone(),
                    ..Limits::default()
                };
                let (solution, mut stats) =
                    crate::large::solve_large(board, &self.goal, &fallback_limits)?;
                stats.expanded += l.stats.expanded;
                stats.generated += l.stats.generated;
                stats.elapsed += l.stats.elapsed;
                Ok(Outcome::Solved(Answer {
                    solution,
                    stats,
                    optimal: false,
                    algorithm: Algorithm::Large,
                    heuristic: None,
                    fallback_after: Some(l.kind),
                }))
            }
            Err(e) => Err(e.into()),
        }
    }
}
