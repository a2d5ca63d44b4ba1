//! # npuzzle
//!
//! Sliding-tile puzzles of any size: the 8-puzzle ("Eight": POJ 1077, HDU 1043, UVa 652), the
//! 15- and 24-puzzles and beyond.
//!
//! - [`Board`], [`Shape`], [`Move`]: boards of any width × height and the four blank moves.
//! - [`Board::parse`] and [`judge::JudgeReader`]: reading boards and whole judge inputs, line by
//!   line through [`lines::Lines`] (any line ending, bounded memory).
//! - [`parity`]: which boards can reach which goals; [`rank`]: Cantor ranking.
//! - [`cube`]: solvability of sliding puzzles in any number of dimensions (UVa 716).
//! - [`table::Table`]: complete reverse-BFS tables (every 3×3 board answered optimally).
//! - [`Solver`]: picks (through the one [`Plan`]) and runs the right method for a board and
//!   returns a [`Solution`]; [`solver::batch`] answers a stream of boards in parallel, in order.
//! - [`judge::Verdict`]: the verdict on an answer; [`Record`]: the one serialized answer.
//!
//! ```
//! use npuzzle::{Board, Solver, Outcome};
//! let board = Board::parse("2 3 4 1 5 x 7 6 8").unwrap();
//! let solver = Solver::for_goal(Board::goal(board.shape())).unwrap();
//! match solver.solve(&board).unwrap() {
//!     Outcome::Solved(answer) => {
//!         assert_eq!(answer.solution.len(), 19);
//!         answer.solution.verify(&board, solver.goal()).unwrap();
//!     }
//!     Outcome::Unsolvable => unreachable!(),
//! }
//! ```

pub mod board;
pub mod cube;
#[doc(hidden)]
pub mod fuzzing;
pub mod heuristic;
pub mod judge;
pub mod lines;
pub mod names;
pub mod near;
pub(crate) mod parallel;
pub mod parity;
pub mod parse;
pub(crate) mod prefetch;
pub mod random;
pub mod rank;
pub mod search;
pub mod solution;
pub mod solver;
pub mod space;
pub mod symmetry;
pub mod table;
pub(crate) mod zeroed;

pub use board::{BLANK, Board, BoardError, Move, Shape, Tile};
pub use heuristic::pdb_set::Building;
pub use parse::{ParseError, ParseErrorKind};
pub use search::SplitIterations;
pub use solution::{ReplayError, Solution};
pub use solver::builder::{PdbSource, SolverBuilder};
pub use solver::plan::{Plan, Use};
pub use solver::{
    Algorithm, Answer, NotOptimal, Outcome, Record, RecordWithStats, SolveError, Solver, Split,
    SubtreeResult,
};

/// The README's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeExamples;

/// The library guide's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/library.md")]
pub struct LibraryGuideExamples;
