//! Admissible heuristics behind one trait, usable by A*, IDA* and greedy search.
//!
//! A heuristic gives an estimate for a whole board and, so that searches never re-evaluate a
//! board from scratch, the change in the estimate when one tile slides: Manhattan distance
//! changes by one table lookup, linear conflict only re-examines the two lines the tile left
//! and entered. Pattern databases implement the same trait.

mod linear_conflict;
mod manhattan;
pub mod pdb;
pub(crate) mod pdb_eval;
pub mod pdb_file;
pub(crate) mod pdb_positional;
pub mod pdb_set;
pub mod zero_aware;

pub use linear_conflict::LinearConflict;
pub(crate) use linear_conflict::{LinearConflictEval, LongLineConflictEval};
pub use manhattan::Manhattan;
pub(crate) use manhattan::ManhattanEval;

pub use crate::search::eval::Heuristic;

/// The heuristics available by name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    /// Sum of each tile's taxicab distance to its goal cell.
    Manhattan,
    /// Manhattan plus two moves per tile that must leave its line to let another pass.
    LinearConflict,
    /// Additive pattern databases (maximised with the diagonal reflection).
    Pdb,
}

impl HeuristicKind {
    /// Its name, as every front end prints and accepts it (see [`crate::names`]).
    pub fn name(self) -> &'static str {
        crate::names::name_of(self)
    }
}

impl crate::names::Named for HeuristicKind {
    const WHAT: &'static str = "heuristic";
    const SPELLINGS: &'static [(&'static str, HeuristicKind)] = &[
        ("manhattan", HeuristicKind::Manhattan),
        ("linear-conflict", HeuristicKind::LinearConflict),
        ("pdb", HeuristicKind::Pdb),
        ("md", HeuristicKind::Manhattan),
        ("lc", HeuristicKind::LinearConflict),
        ("pattern-databases", HeuristicKind::Pdb),
    ];
}

crate::names::from_str_by_name!(HeuristicKind);
