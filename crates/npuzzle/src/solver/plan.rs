//! The plan: the one rule that decides which method, heuristic and databases answer the boards
//! of one goal, for every constructor, the CLI, `compare`, `bench`, the web server, Python and
//! the Ray workers alike (they all reach it through [`crate::SolverBuilder`]).
//!
//! The rule, for the default `auto`:
//! - a board with a complete table is looked up, optimally: boards of at most 10 cells (3×3,
//!   2×5 …) always have one, made in memory; 12-cell boards (4×3, 6×2 …) when it is
//!   cached or may be built ([`Plan::wants_table`]);
//! - with pattern databases (wanted for boards of 16 to 32 cells without a table, and for the
//!   `pdb` heuristic on boards of at most 32 cells that no complete table answers): IDA* over
//!   them, optimally;
//! - with a heuristic named: IDA* with it, optimally, however long that takes;
//! - otherwise IDA* with linear conflict up to 16 cells, and the near-optimal solver (labelled
//!   not optimal) past 16 cells, where an optimal search without databases is hopeless.
//!
//! An explicit method runs as asked, with the databases when they were wanted and provided,
//! else with the named heuristic or linear conflict (a method that searches without a
//! heuristic, such as `bfs`, wants no databases whatever is named). (A partition named for an explicit
//! `astar`, `idastar` or `greedy` without a heuristic reaches the plan as the `pdb`
//! heuristic: [`crate::SolverBuilder`] asks for what was named.) Whether databases may be built when they
//! are not cached is a policy per use ([`Use::building`]), not a decision of the front ends.

use crate::board::Shape;
use crate::heuristic::HeuristicKind;
use crate::heuristic::pdb_file::Loading;
use crate::heuristic::pdb_set::Building;
use crate::search::eval::MAX_CELLS;
use crate::solver::{Algorithm, SolveError};
use crate::table::Table;

/// The boards on which `auto` (and `near`) search with pattern databases when no complete table
/// answers: 16 to 32 cells. Below, IDA* with linear conflict is quick enough; past 32 cells
/// no databases exist.
pub const AUTO_DATABASE_CELLS: std::ops::RangeInclusive<usize> = 16..=MAX_CELLS;

// The plan wants databases up to the engine's cells: each must be one they can be built for.
const _: () = assert!(MAX_CELLS <= crate::heuristic::pdb::MAX_PDB_CELLS);

/// What the builder could provide for a plan: loaded or built pattern databases, a complete
/// table of a 12-cell board.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Provided {
    /// Pattern databases (those [`Plan::wants_databases`] asked for).
    pub databases: bool,
    /// A cached complete table (the one [`Plan::wants_table`] asked for).
    pub table: bool,
}

/// What answers the boards of one goal: decided once, by [`Plan::decide`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The method that runs (never [`Algorithm::Auto`]).
    pub method: Algorithm,
    /// The heuristic the method searches with (`None` for methods without one).
    pub heuristic: Option<HeuristicKind>,
    /// Whether the heuristic is the pattern databases provided for the goal.
    pub databases: bool,
}

impl Plan {
    /// Whether a solver for boards of `shape` asked for `algorithm` and `heuristic` (`None`:
    /// the rule's choice) wants pattern databases: for the `pdb` heuristic on boards of at most
    /// 32 cells (past them none exist, and [`Plan::decide`] refuses it before anything is
    /// built) when a method that searches with a heuristic asked for it, or `auto` on boards
    /// without a table made in memory (a 12-cell board's cached table, when it is provided,
    /// answers instead: [`crate::SolverBuilder`] then loads none); and for `auto` and `near`
    /// on boards of 16 to 32 cells without a complete table.
    pub fn wants_databases(
        shape: Shape,
        algorithm: Algorithm,
        heuristic: Option<HeuristicKind>,
    ) -> bool {
        // None exist past the engine's cells: nothing to load or build before the refusal;
        // nor for a method that searches without a heuristic, nor for `auto` where the
        // complete table, made in memory, answers anyway.
        let searches =
            algorithm.uses_heuristic() || (algorithm == Algorithm::Auto && !Table::is_quick(shape));
        shape.cells() <= MAX_CELLS && heuristic == Some(HeuristicKind::Pdb) && searches
            || (heuristic.is_none()
                && matches!(algorithm, Algorithm::Auto | Algorithm::Near)
                && !Table::supports(shape)
                && AUTO_DATABASE_CELLS.contains(&shape.cells()))
    }

    /// Whether a solver for boards of `shape` asked for `algorithm` wants the complete table
    /// that is cached (or built once, when the policy allows) rather than made in memory:
    /// `auto` and `table` on boards of 12 cells.
    pub fn wants_table(shape: Shape, algorithm: Algorithm) -> bool {
        matches!(algorithm, Algorithm::Auto | Algorithm::Table)
            && Table::supports(shape)
            && !Table::is_quick(shape)
    }

    /// The plan for boards of `shape` asked for `algorithm` and `heuristic`, given what was
    /// `provided` of what it wanted ([`Plan::wants_databases`], [`Plan::wants_table`]). The
    /// `pdb` heuristic without databases, and the `table` method on a 12-cell board
    /// without its table, are errors.
    pub fn decide(
        shape: Shape,
        algorithm: Algorithm,
        heuristic: Option<HeuristicKind>,
        provided: Provided,
    ) -> Result<Plan, SolveError> {
        let databases = provided.databases && Plan::wants_databases(shape, algorithm, heuristic);
        let table = Table::is_quick(shape) || (Table::supports(shape) && provided.table);
        if algorithm == Algorithm::Table && Table::supports(shape) && !table {
            return Err(SolveError::NoTable(format!(
                "no complete table for {shape} boards is cached here, and none may be built (`npuzzle pdb build --size {shape}` builds it once, in seconds)"
            )));
        }
        let method = match algorithm {
            Algorithm::Auto if table => Algorithm::Table,
            Algorithm::Auto if databases || heuristic.is_some() || shape.cells() <= 16 => {
                Algorithm::IdaStar
            }
            Algorithm::Auto => Algorithm::Near,
            explicit => explicit,
        };
        if heuristic == Some(HeuristicKind::Pdb) && !databases && method.uses_heuristic() {
            let why = if shape.cells() > MAX_CELLS {
                format!("they exist for boards of at most {MAX_CELLS} cells")
            } else {
                "none are loaded or cached here".into()
            };
            return Err(SolveError::NoDatabases(format!(
                "no pattern databases for {shape} boards: {why}"
            )));
        }
        let searching = if databases {
            HeuristicKind::Pdb
        } else {
            heuristic.unwrap_or(HeuristicKind::LinearConflict)
        };
        Ok(Plan {
            method,
            heuristic: method.uses_heuristic().then_some(searching),
            databases,
        })
    }
}

/// Who makes a solver, which decides whether pattern databases that are not cached may be
/// built (see [`Use::building`]): the same policy wherever the same kind of caller is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Use {
    /// The command line's `solve` and `bench`: builds whatever is needed, with a notice of
    /// the size and time first (minutes and 510 MB for 5×5, once).
    Command,
    /// Judging answers (`npuzzle check`) and comparing methods (`npuzzle compare`): neither
    /// must start a minutes-long build, so only small databases are built.
    Check,
    /// A long-running service (the web server): loads what is cached at start-up, and builds
    /// only small databases then (4×4's, seconds; see `PdbSource::for_service`), never on a
    /// request.
    Service,
    /// A library or Python caller: cached databases, and small ones built (seconds); larger
    /// ones only when asked for explicitly.
    Library,
}

impl Use {
    /// How this kind of caller holds the databases it loads: a short command maps them (the
    /// quickest start); long-running callers read them into memory, so that a cache file
    /// rewritten in place cannot kill them.
    pub fn loading(self) -> Loading {
        match self {
            Use::Command | Use::Check => Loading::Map,
            Use::Service | Use::Library => Loading::Copy,
        }
    }

    /// The building policy of this kind of caller.
    pub fn building(self) -> Building {
        match self {
            Use::Command => Building::Always,
            Use::Check | Use::Library | Use::Service => Building::Quick,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Algorithm::*;
    use HeuristicKind::*;

    fn shape(w: usize, h: usize) -> Shape {
        Shape::new(w, h).unwrap()
    }

    /// (size, asked method, asked heuristic, databases provided) → (method, heuristic, uses
    /// databases).
    type Case = (
        (usize, usize),
        Algorithm,
        Option<HeuristicKind>,
        bool,
        Algorithm,
        Option<HeuristicKind>,
        bool,
    );

    /// Every case of the rule.
    #[test]
    fn the_rule_table() {
        #[rustfmt::skip]
        let cases: &[Case] = &[
            // auto: tables up to 10 cells, whatever the heuristic
            ((3, 3), Auto, None, false, Table, None, false),
            ((2, 5), Auto, None, false, Table, None, false),
            ((3, 3), Auto, Some(Manhattan), false, Table, None, false),
            // 12 cells: the cached table (the rows below without it)
            ((4, 3), Auto, None, false, Table, None, false),
            ((6, 2), Auto, Some(Manhattan), false, Table, None, false),
            ((2, 6), Table, None, false, Table, None, false),
            ((4, 3), IdaStar, None, false, IdaStar, Some(LinearConflict), false),
            // auto without tables up to 16 cells: IDA* with linear conflict or the named one
            ((3, 5), Auto, None, false, IdaStar, Some(LinearConflict), false),
            ((3, 5), Auto, Some(Manhattan), false, IdaStar, Some(Manhattan), false),
            // 16 to 32 cells: databases when provided, else near-optimal ...
            ((4, 4), Auto, None, true, IdaStar, Some(Pdb), true),
            ((4, 4), Auto, None, false, IdaStar, Some(LinearConflict), false),
            ((5, 5), Auto, None, true, IdaStar, Some(Pdb), true),
            ((5, 5), Auto, None, false, Near, Some(LinearConflict), false),
            // ... but a named heuristic searches optimally with it (the old disagreement
            // between Solver::new and the builder: both are this row now)
            ((5, 5), Auto, Some(LinearConflict), false, IdaStar, Some(LinearConflict), false),
            ((5, 5), Auto, Some(LinearConflict), true, IdaStar, Some(LinearConflict), false),
            ((5, 5), Auto, Some(Pdb), true, IdaStar, Some(Pdb), true),
            // the pdb heuristic where a complete table answers auto: the table, no databases
            ((3, 3), Auto, Some(Pdb), false, Table, None, false),
            ((4, 3), Auto, Some(Pdb), false, Table, None, false),
            // past 32 cells: near-optimal, or IDA* with a named heuristic
            ((10, 10), Auto, None, false, Near, Some(LinearConflict), false),
            ((10, 10), Auto, None, true, Near, Some(LinearConflict), false),
            ((6, 6), Auto, Some(Manhattan), false, IdaStar, Some(Manhattan), false),
            // explicit methods
            ((5, 5), Near, None, true, Near, Some(Pdb), true),
            ((5, 5), Near, None, false, Near, Some(LinearConflict), false),
            ((4, 4), Near, Some(Manhattan), false, Near, Some(Manhattan), false),
            ((3, 3), IdaStar, None, false, IdaStar, Some(LinearConflict), false),
            ((4, 4), IdaStar, Some(Pdb), true, IdaStar, Some(Pdb), true),
            ((4, 4), AStar, Some(Pdb), true, AStar, Some(Pdb), true),
            ((3, 3), AStar, Some(Manhattan), false, AStar, Some(Manhattan), false),
            ((3, 3), Bfs, None, false, Bfs, None, false),
            ((3, 3), Bfs, Some(Manhattan), false, Bfs, None, false),
            ((4, 4), Bfs, Some(Pdb), false, Bfs, None, false),
            ((3, 3), Table, Some(Pdb), false, Table, None, false),
            ((3, 3), Bidirectional, None, false, Bidirectional, None, false),
            ((3, 3), Table, None, false, Table, None, false),
            ((3, 3), Greedy, None, false, Greedy, Some(LinearConflict), false),
            ((9, 9), Large, None, false, Large, None, false),
            // databases provided but not wanted are not used
            ((3, 3), IdaStar, None, true, IdaStar, Some(LinearConflict), false),
        ];
        for &((w, h), asked, heuristic, have, method, searching, databases) in cases {
            let provided = Provided {
                databases: have,
                table: true,
            };
            let plan = Plan::decide(shape(w, h), asked, heuristic, provided).unwrap();
            assert_eq!(
                plan,
                Plan {
                    method,
                    heuristic: searching,
                    databases
                },
                "{w}x{h} {asked:?} {heuristic:?} databases provided: {have}"
            );
        }
    }

    #[test]
    fn which_boards_want_databases() {
        assert!(Plan::wants_databases(shape(4, 4), Auto, None));
        assert!(Plan::wants_databases(shape(5, 5), Near, None));
        assert!(Plan::wants_databases(shape(8, 4), Auto, None));
        assert!(Plan::wants_databases(shape(3, 3), IdaStar, Some(Pdb)));
        assert!(!Plan::wants_databases(shape(3, 3), Auto, None));
        assert!(!Plan::wants_databases(shape(3, 5), Auto, None));
        assert!(!Plan::wants_databases(shape(9, 4), Auto, None));
        assert!(!Plan::wants_databases(
            shape(4, 4),
            Auto,
            Some(LinearConflict)
        ));
        assert!(!Plan::wants_databases(shape(4, 4), IdaStar, None));
        // Not even asked for by name past 32 cells: refused before any is built.
        assert!(!Plan::wants_databases(shape(6, 6), IdaStar, Some(Pdb)));
        // Nor by methods that search without a heuristic, nor by auto on boards whose table
        // is made in memory; a 12-cell board's depends on its cached table (the builder's).
        for method in [Bfs, Bidirectional, Table, Large] {
            assert!(
                !Plan::wants_databases(shape(4, 4), method, Some(Pdb)),
                "{method:?}"
            );
        }
        assert!(!Plan::wants_databases(shape(3, 3), Auto, Some(Pdb)));
        assert!(Plan::wants_databases(shape(4, 3), Auto, Some(Pdb)));
        assert!(Plan::wants_databases(shape(4, 4), Near, Some(Pdb)));
    }

    #[test]
    fn the_pdb_heuristic_needs_databases() {
        let none = Provided::default();
        let e = Plan::decide(shape(4, 4), IdaStar, Some(Pdb), none).unwrap_err();
        assert!(e.to_string().contains("none are loaded"), "{e}");
        let e = Plan::decide(shape(10, 10), Auto, Some(Pdb), none).unwrap_err();
        assert!(e.to_string().contains("at most 32 cells"), "{e}");
    }

    /// Without their cached table, 12-cell boards search (auto) or are refused (table).
    #[test]
    fn twelve_cells_without_their_table() {
        let none = Provided::default();
        let plan = Plan::decide(shape(4, 3), Auto, None, none).unwrap();
        assert_eq!(
            (plan.method, plan.heuristic),
            (IdaStar, Some(LinearConflict))
        );
        let e = Plan::decide(shape(6, 2), Table, None, none).unwrap_err();
        assert!(e.to_string().contains("pdb build --size 6x2"), "{e}");
        // The pdb heuristic searches there, and wants its databases.
        let e = Plan::decide(shape(4, 3), Auto, Some(Pdb), none).unwrap_err();
        assert!(e.to_string().contains("none are loaded"), "{e}");
        assert_eq!(
            Plan::decide(shape(3, 3), Auto, None, none).unwrap().method,
            Table
        );
        assert!(Plan::wants_table(shape(3, 4), Auto));
        assert!(!Plan::wants_table(shape(3, 3), Auto));
        assert!(!Plan::wants_table(shape(4, 3), IdaStar));
        assert!(!Plan::wants_table(shape(4, 4), Auto));
    }

    #[test]
    fn each_use_has_its_building_policy() {
        assert_eq!(Use::Command.building(), Building::Always);
        assert_eq!(Use::Check.building(), Building::Quick);
        assert_eq!(Use::Library.building(), Building::Quick);
        assert_eq!(Use::Service.building(), Building::Quick);
    }
}
