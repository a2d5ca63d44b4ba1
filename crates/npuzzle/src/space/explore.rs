//! `explore`: a breadth-first search of a board's whole state space, reported as researchers
//! quote it: the states at each distance, the diameter ("God's number"), the antipodes and the
//! mean distance, with the time and memory it took.
//!
//! The memory a search needs is known before it starts (two bits a state, see
//! [`explore_memory`]), so a board that does not fit the caller's limit is refused before
//! anything is allocated.

use super::index::{MAX_SPACE_CELLS, SpaceIndex};
use super::sweep::{Sweep, SweepEvent, TwoBits};
use crate::board::{BLANK, Board, Shape, Tile};
use crate::heuristic::pdb_set::human_bytes;
pub use crate::zeroed::default_max_memory;
use serde::Serialize;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Antipodes listed by default (all of them when there are at most this many).
pub const DEFAULT_SAMPLE: usize = 20;

/// Why a state space was not explored.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ExploreError {
    /// The board has too many cells to number its states.
    #[error(
        "a {shape} board has {cells} cells; explore numbers the states of boards of at most {MAX_SPACE_CELLS} cells"
    )]
    TooLarge {
        /// The shape asked for.
        shape: Shape,
        /// Its cells.
        cells: usize,
    },
    /// The search would need more memory than allowed.
    #[error(
        "exploring {shape} needs {} ({states} states at two bits each), more than the {} allowed",
        human_bytes(*needed), human_bytes(*limit)
    )]
    NotEnoughMemory {
        /// The shape asked for.
        shape: Shape,
        /// Its reachable states.
        states: u64,
        /// Bytes the search needs.
        needed: u64,
        /// Bytes allowed.
        limit: u64,
    },
    /// The system would not give the memory the search needs.
    #[error("the system would not give the {} the search needs", human_bytes(*bytes))]
    NoMemory {
        /// Bytes asked for.
        bytes: u64,
    },
    /// Stopped by the caller's flag.
    #[error("stopped before the search finished")]
    Stopped,
}

/// How to explore.
#[derive(Clone, Default)]
pub struct ExploreOptions {
    /// Most bytes the search may allocate; `None`: [`default_max_memory`].
    pub max_memory: Option<u64>,
    /// Antipodes to list (`None`: [`DEFAULT_SAMPLE`]).
    pub sample: Option<usize>,
    /// Set to stop the search between chunks of work.
    pub stop: Option<Arc<AtomicBool>>,
    /// Told of progress, often (from worker threads): throttle what you draw.
    pub progress: Option<Arc<dyn Fn(SweepEvent) + Send + Sync>>,
}

impl std::fmt::Debug for ExploreOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExploreOptions")
            .field("max_memory", &self.max_memory)
            .field("sample", &self.sample)
            .finish_non_exhaustive()
    }
}

/// What a whole breadth-first search found.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Report {
    /// The board size, `WxH`.
    pub size: String,
    /// The goal, as a judge line.
    pub goal: String,
    /// States that can reach the goal (the goal included).
    pub states: u64,
    /// `histogram[d]`: states at distance `d` (moves of the blank).
    pub histogram: Vec<u64>,
    /// The largest distance.
    pub diameter: u32,
    /// How many states lie at the diameter.
    pub antipodes: u64,
    /// Antipodes as judge lines (all of them when few, else the first by index).
    pub antipode_sample: Vec<String>,
    /// The mean distance over all states.
    pub mean_distance: f64,
    /// Wall time of the search, seconds.
    pub seconds: f64,
    /// Bytes the search allocated.
    pub memory_bytes: u64,
    /// Worker threads.
    pub threads: usize,
}

/// Bytes exploring `shape` takes (two bits a reachable state), or `None` when it is too large
/// to number.
pub fn explore_memory(shape: Shape) -> Option<u64> {
    SpaceIndex::new(shape, shape.cells() - 1).map(|i| TwoBits::bytes_for(i.states()))
}

/// Explores every state that can reach `goal` (any goal of at most [`MAX_SPACE_CELLS`]
/// cells), breadth-first on all rayon threads.
pub fn explore(goal: &Board, options: &ExploreOptions) -> Result<Report, ExploreError> {
    let shape = goal.shape();
    let index = SpaceIndex::for_goal(goal).ok_or(ExploreError::TooLarge {
        shape,
        cells: shape.cells(),
    })?;
    let needed = TwoBits::bytes_for(index.states());
    let limit = options.max_memory.unwrap_or_else(default_max_memory);
    if needed > limit {
        return Err(ExploreError::NotEnoughMemory {
            shape,
            states: index.states(),
            needed,
            limit,
        });
    }
    let start = Instant::now();
    let marks = TwoBits::zeroed(index.states()).ok_or(ExploreError::NoMemory { bytes: needed })?;
    let sample = options.sample.unwrap_or(DEFAULT_SAMPLE);
    let quiet = |_: SweepEvent| {};
    let layers = Sweep {
        index: &index,
        stop: options.stop.as_deref(),
        progress: match &options.progress {
            Some(p) => p.as_ref(),
            None => &quiet,
        },
        sample,
    }
    .run(&marks, None)
    .ok_or(ExploreError::Stopped)?;
    drop(marks);
    let elapsed: Duration = start.elapsed();
    // The goal's own tiles for the numbering's labels 1..m (its tiles in reading order).
    let labels: Vec<Tile> = goal
        .cells()
        .iter()
        .copied()
        .filter(|&t| t != BLANK)
        .collect();
    let last = layers.last().cloned().unwrap_or_default();
    let antipode_sample = last
        .sample
        .iter()
        .map(|&i| {
            let cells: Vec<Tile> = index
                .cells_of(i)
                .iter()
                .map(|&c| {
                    if c == BLANK {
                        BLANK
                    } else {
                        labels[c as usize - 1]
                    }
                })
                .collect();
            Board::new(shape, &cells)
                .map(|b| b.to_judge_line())
                .unwrap_or_default()
        })
        .collect();
    let histogram: Vec<u64> = layers.iter().map(|l| l.states).collect();
    let total: u64 = histogram.iter().sum();
    let weighted: f64 = histogram
        .iter()
        .enumerate()
        .map(|(d, &c)| d as f64 * c as f64)
        .sum();
    Ok(Report {
        size: shape.to_string(),
        goal: goal.to_judge_line(),
        states: total,
        diameter: histogram.len() as u32 - 1,
        antipodes: last.states,
        antipode_sample,
        mean_distance: weighted / total as f64,
        histogram,
        seconds: elapsed.as_secs_f64(),
        memory_bytes: needed,
        threads: crate::parallel::threads(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_puzzle_report() {
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let r = explore(&goal, &ExploreOptions::default()).unwrap();
        assert_eq!(r.states, 181_440);
        assert_eq!(r.diameter, 31);
        assert_eq!(r.antipodes, 2);
        assert_eq!(r.histogram[..4], [1, 2, 4, 8]);
        let mut antipodes = r.antipode_sample.clone();
        antipodes.sort();
        assert_eq!(antipodes, ["6 4 7 8 5 x 3 2 1", "8 6 7 2 5 4 3 x 1"]);
        assert!(
            (r.mean_distance - 21.97).abs() < 0.01,
            "{}",
            r.mean_distance
        );
    }

    /// Antipodes are named in the goal's own tiles, for any goal.
    #[test]
    fn antipodes_of_another_goal_are_its_farthest_boards() {
        let goal = Board::parse("x 1 2 3 4 5 6 7 8").unwrap();
        let r = explore(&goal, &ExploreOptions::default()).unwrap();
        let table = crate::table::Table::build(&goal).unwrap();
        assert_eq!(r.diameter, 31);
        for line in &r.antipode_sample {
            let b = Board::parse(line).unwrap();
            assert_eq!(table.distance(&b), Some(31), "{line}");
        }
    }

    /// A board too large for the memory allowed is refused before anything is allocated
    /// (4×4 would need 2.6 TB: allocating it would fail outright).
    #[test]
    fn too_large_for_the_memory_is_refused_up_front() {
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let e = explore(&goal, &ExploreOptions::default()).unwrap_err();
        match e {
            ExploreError::NotEnoughMemory { needed, .. } => {
                assert_eq!(needed, 16 * 653_837_184_000 / 4)
            }
            e => panic!("{e}"),
        }
        let small = ExploreOptions {
            max_memory: Some(1000),
            ..ExploreOptions::default()
        };
        let e = explore(&Board::goal(Shape::new(3, 3).unwrap()), &small).unwrap_err();
        assert!(e.to_string().contains("needs 45 kB"), "{e}");
        let e = explore(&Board::goal(Shape::new(5, 4).unwrap()), &small).unwrap_err();
        assert!(matches!(e, ExploreError::TooLarge { cells: 20, .. }));
    }
}
