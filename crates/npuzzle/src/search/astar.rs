//! A* (optimal with an admissible heuristic; ties broken toward larger g, i.e. deeper nodes)
//! and greedy best-first search (h alone: fast, not optimal), sharing one implementation.
//!
//! Nodes live in one arena indexed by `u32`; a hash map from packed state to node gives
//! duplicate detection; the open list is a binary heap of `(priority, node)` with stale entries
//! skipped on pop. Each expansion unpacks the state once and gets every child's estimate from
//! the heuristic's incremental `delta`.

use super::state::{Codec, NONE, Packed};
use super::{Budget, Found, Limits, SearchError, Stats};
use crate::board::{BLANK, Board, Move, Tile};
use crate::search::eval::Heuristic;
use crate::solution::Solution;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Clone, Copy)]
struct Node {
    state: Packed,
    parent: u32,
    g: u32,
    h: u32,
    blank: u8,
    /// Blank move that reached this node; 4 at the root.
    mv: u8,
}

/// A* search with heuristic `h`; the solution is optimal when `h` is admissible.
pub fn astar<H: Heuristic + ?Sized>(
    start: &Board,
    goal: &Board,
    h: &H,
    limits: &Limits,
) -> Result<Found, SearchError> {
    best_first(start, goal, h, limits, false)
}

/// Greedy best-first search on `h` alone: usually quick, solutions not optimal.
pub fn greedy<H: Heuristic + ?Sized>(
    start: &Board,
    goal: &Board,
    h: &H,
    limits: &Limits,
) -> Result<Found, SearchError> {
    best_first(start, goal, h, limits, true)
}

fn priority(greedy: bool, g: u32, h: u32) -> u64 {
    let primary = if greedy { h } else { g + h } as u64;
    // Smaller primary first; among equals, larger g first.
    primary << 32 | (u32::MAX - g) as u64
}

fn best_first<H: Heuristic + ?Sized>(
    start: &Board,
    goal: &Board,
    h: &H,
    limits: &Limits,
    greedy: bool,
) -> Result<Found, SearchError> {
    super::check_solvable(start, goal)?;
    let codec = Codec::new(start.shape())?;
    let mut budget = Budget::new(limits).reporting();
    let mut stats = Stats::default();
    let target = codec.pack(goal.cells());
    let root = Node {
        state: codec.pack(start.cells()),
        parent: u32::MAX,
        g: 0,
        h: h.estimate(start.cells()),
        blank: start.blank() as u8,
        mv: 4,
    };
    let mut nodes = vec![root];
    let mut index: FxHashMap<Packed, u32> = FxHashMap::default();
    index.insert(root.state, 0);
    let mut open = BinaryHeap::new();
    open.push(Reverse((priority(greedy, 0, root.h), 0u32)));
    let mut cells: Vec<Tile> = vec![0; codec.shape().cells()];
    let mut reached = (root.state == target).then_some(0u32);
    while reached.is_none() {
        let Some(Reverse((key, id))) = open.pop() else {
            break;
        };
        let node = nodes[id as usize];
        if key != priority(greedy, node.g, node.h) {
            continue; // stale entry: the node was reached more cheaply since
        }
        if node.state == target {
            reached = Some(id);
            break;
        }
        stats.expanded += 1;
        budget.enforce(&mut stats, nodes.len() as u64)?;
        codec.unpack(node.state, &mut cells);
        let blank = node.blank as usize;
        for m in Move::ALL {
            if node.mv != 4 && m == Move::from_index(node.mv as usize).inverse() {
                continue;
            }
            let to = codec.neighbour(blank, m);
            if to == NONE {
                continue;
            }
            let to = to as usize;
            let tile = cells[to];
            cells[blank] = tile;
            cells[to] = BLANK;
            let ch = (node.h as i32 + h.delta(&cells, tile, to, blank)) as u32;
            cells[to] = tile;
            cells[blank] = BLANK;
            let child = codec.slide(node.state, blank, to);
            stats.generated += 1;
            let g = node.g + 1;
            let fresh = Node {
                state: child,
                parent: id,
                g,
                h: ch,
                blank: to as u8,
                mv: m.index() as u8,
            };
            let cid = match index.get(&child) {
                Some(&existing) => {
                    let e = &mut nodes[existing as usize];
                    if greedy || e.g <= g {
                        continue;
                    }
                    *e = fresh;
                    existing
                }
                None => {
                    let cid = nodes.len() as u32;
                    nodes.push(fresh);
                    index.insert(child, cid);
                    cid
                }
            };
            if greedy && child == target {
                reached = Some(cid);
                break;
            }
            open.push(Reverse((priority(greedy, g, ch), cid)));
        }
    }
    stats.peak_stored = nodes.len() as u64;
    stats.elapsed = budget.elapsed();
    let Some(mut id) = reached else {
        return Err(SearchError::Unsolvable);
    };
    let mut moves = Vec::with_capacity(nodes[id as usize].g as usize);
    while nodes[id as usize].mv != 4 {
        moves.push(Move::from_index(nodes[id as usize].mv as usize));
        id = nodes[id as usize].parent;
    }
    moves.reverse();
    Ok((Solution::new(moves), stats))
}
