//! Choosing and running a solver for a goal: the one entry point the CLI and the web server use.
//!
//! `auto` answers from a complete table where the board has one (3×3 and smaller), and otherwise
//! runs the strongest optimal search available for the size. An explicit [`Algorithm`] picks any
//! search for teaching and comparison.

use crate::board::Board;
use crate::search::{Limits, SearchError, Stats};
use crate::solution::Solution;
use crate::table::{Table, TableError};
use std::sync::Arc;
use std::time::Instant;
use thiserror::Error;

/// A solving method.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// The fastest optimal method for the board's size.
    Auto,
    /// Complete reverse-BFS table lookup (small boards only).
    Table,
}

impl Algorithm {
    /// Name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::Table => "table",
        }
    }

    /// Whether the method always returns a fewest-moves solution.
    pub fn is_optimal(self) -> bool {
        true
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
}

/// The result of solving one board.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// A solution was found.
    Solved(Answer),
    /// The board cannot reach the goal (opposite parity).
    Unsolvable,
}

/// Solves boards toward one goal with one method.
#[derive(Clone, Debug)]
pub struct Solver {
    goal: Board,
    algorithm: Algorithm,
    limits: Limits,
    table: Option<Arc<Table>>,
}

impl Solver {
    /// The `auto` solver for `goal` with no limits.
    pub fn for_goal(goal: Board) -> Result<Solver, SolveError> {
        Solver::new(goal, Algorithm::Auto, Limits::default())
    }

    /// A solver using `algorithm` under `limits`; builds the complete table when the method
    /// needs one (milliseconds for 3×3).
    pub fn new(goal: Board, algorithm: Algorithm, limits: Limits) -> Result<Solver, SolveError> {
        let wants_table = match algorithm {
            Algorithm::Table => true,
            Algorithm::Auto => Table::supports(goal.shape()),
        };
        let table = if wants_table {
            Some(Arc::new(Table::build(&goal)?))
        } else {
            None
        };
        Ok(Solver {
            goal,
            algorithm,
            limits,
            table,
        })
    }

    /// The goal board.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// The complete table, when this solver answers from one.
    pub fn table(&self) -> Option<&Table> {
        self.table.as_deref()
    }

    /// The limits searches run under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Solves one board.
    pub fn solve(&self, board: &Board) -> Result<Outcome, SolveError> {
        board
            .check_same_shape(&self.goal)
            .map_err(SearchError::from)?;
        let start = Instant::now();
        if let Some(table) = &self.table {
            return Ok(match table.solve(board) {
                None => Outcome::Unsolvable,
                Some(solution) => {
                    let stats = Stats {
                        expanded: solution.len() as u64,
                        generated: 0,
                        peak_stored: table.reachable_states(),
                        elapsed: start.elapsed(),
                    };
                    Outcome::Solved(Answer {
                        solution,
                        stats,
                        optimal: true,
                        algorithm: Algorithm::Table,
                    })
                }
            });
        }
        Err(SearchError::Unsupported(format!("no solver for {} boards yet", board.shape())).into())
    }
}
