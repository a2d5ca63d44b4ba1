//! Forward breadth-first search: optimal, simple, and memory-hungry (every visited state is
//! stored), which is exactly what the comparison table should show.

use super::state::{Codec, NONE, Packed, trace_back};
use super::{Budget, Found, Limits, SearchError, Stats};
use crate::board::{Board, Move};
use crate::solution::Solution;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// Marks the start state in a parent-move map.
pub(crate) const ROOT: u8 = 4;

/// Breadth-first search from `start` to `goal`.
pub fn bfs(start: &Board, goal: &Board, limits: &Limits) -> Result<Found, SearchError> {
    super::check_solvable(start, goal)?;
    let codec = Codec::new(start.shape())?;
    let mut budget = Budget::new(limits).reporting();
    let (s0, target) = (codec.pack(start.cells()), codec.pack(goal.cells()));
    let mut stats = Stats::default();
    // state -> blank move that reached it
    let mut seen: FxHashMap<Packed, u8> = FxHashMap::default();
    seen.insert(s0, ROOT);
    let mut queue: VecDeque<(Packed, u8)> = VecDeque::from([(s0, start.blank() as u8)]);
    let mut found = s0 == target;
    'search: while !found {
        let Some((s, blank)) = queue.pop_front() else {
            break;
        };
        stats.expanded += 1;
        budget.enforce(&mut stats, seen.len() as u64)?;
        let came_by = seen[&s];
        for m in Move::ALL {
            if came_by != ROOT && m == Move::from_index(came_by as usize).inverse() {
                continue;
            }
            let to = codec.neighbour(blank as usize, m);
            if to == NONE {
                continue;
            }
            let child = codec.slide(s, blank as usize, to as usize);
            stats.generated += 1;
            if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(child) {
                e.insert(m.index() as u8);
                if child == target {
                    found = true;
                    break 'search;
                }
                queue.push_back((child, to));
            }
        }
    }
    stats.peak_stored = seen.len() as u64;
    stats.elapsed = budget.elapsed();
    if !found {
        return Err(SearchError::Unsolvable);
    }
    let moves = trace_back(&codec, target, |s| match seen[&s] {
        ROOT => None,
        m => Some(Move::from_index(m as usize)),
    });
    Ok((Solution::new(moves), stats))
}
