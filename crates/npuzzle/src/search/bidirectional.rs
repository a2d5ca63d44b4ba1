//! Bidirectional breadth-first search: layers grow alternately from the start and from the goal
//! (always the smaller frontier), so each side only goes about half as deep. A layer is always
//! finished before stopping and the shortest meeting is kept, which keeps the answer optimal.

use super::bfs::ROOT;
use super::state::{Codec, NONE, Packed, trace_back};
use super::{Budget, Found, Limits, SearchError, Stats};
use crate::board::{Board, Move};
use crate::solution::Solution;
use rustc_hash::FxHashMap;

/// Per side: state -> (depth << 3 | blank move that reached it, or ROOT).
type Side = FxHashMap<Packed, u32>;

fn depth(v: u32) -> u32 {
    v >> 3
}

fn came_by(v: u32) -> Option<Move> {
    match (v & 7) as u8 {
        ROOT => None,
        m => Some(Move::from_index(m as usize)),
    }
}

/// Bidirectional BFS between `start` and `goal`.
pub fn bidirectional(start: &Board, goal: &Board, limits: &Limits) -> Result<Found, SearchError> {
    super::check_solvable(start, goal)?;
    let codec = Codec::new(start.shape())?;
    let mut budget = Budget::new(limits).reporting();
    let mut stats = Stats::default();
    let (s0, target) = (codec.pack(start.cells()), codec.pack(goal.cells()));
    if s0 == target {
        stats.elapsed = budget.elapsed();
        return Ok((Solution::default(), stats));
    }
    let mut fwd: Side = FxHashMap::default();
    let mut bwd: Side = FxHashMap::default();
    fwd.insert(s0, ROOT as u32);
    bwd.insert(target, ROOT as u32);
    let mut fwd_frontier = vec![(s0, start.blank() as u8)];
    let mut bwd_frontier = vec![(target, goal.blank() as u8)];
    loop {
        let forward = fwd_frontier.len() <= bwd_frontier.len();
        let (this, other, frontier) = if forward {
            (&mut fwd, &bwd, &mut fwd_frontier)
        } else {
            (&mut bwd, &fwd, &mut bwd_frontier)
        };
        if frontier.is_empty() {
            return Err(SearchError::Unsolvable);
        }
        let mut next = Vec::with_capacity(frontier.len() * 2);
        let mut best: Option<(u32, Packed)> = None;
        for &(s, blank) in frontier.iter() {
            stats.expanded += 1;
            budget.enforce(&mut stats, (this.len() + other.len()) as u64)?;
            let v = this[&s];
            let d = depth(v) + 1;
            let back = came_by(v).map(Move::inverse);
            for m in Move::ALL {
                if Some(m) == back {
                    continue;
                }
                let to = codec.neighbour(blank as usize, m);
                if to == NONE {
                    continue;
                }
                let child = codec.slide(s, blank as usize, to as usize);
                stats.generated += 1;
                if this.contains_key(&child) {
                    continue;
                }
                this.insert(child, d << 3 | m.index() as u32);
                if let Some(&ov) = other.get(&child) {
                    let total = d + depth(ov);
                    if best.is_none_or(|(b, _)| total < b) {
                        best = Some((total, child));
                    }
                }
                next.push((child, to));
            }
        }
        *frontier = next;
        stats.peak_stored = stats.peak_stored.max((fwd.len() + bwd.len()) as u64);
        if let Some((_, meet)) = best {
            let mut moves = trace_back(&codec, meet, |s| came_by(fwd[&s]));
            // From the meeting state, undo the backward search's moves toward the goal.
            let mut s = meet;
            while let Some(m) = came_by(bwd[&s]) {
                let step = m.inverse();
                let blank = codec.blank(s);
                s = codec.slide(s, blank, codec.neighbour(blank, step) as usize);
                moves.push(step);
            }
            stats.elapsed = budget.elapsed();
            return Ok((Solution::new(moves), stats));
        }
    }
}
