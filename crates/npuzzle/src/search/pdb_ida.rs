//! IDA* over additive pattern databases, built for speed on boards of up to 16 cells (4×4).
//!
//! Per node the work is constant: the board is 16 bytes, each pattern keeps its tiles' cells
//! in pattern order, and a move touches one tile, so exactly one database entry is re-read for
//! the board and one for its diagonal reflection (the heuristic is the larger of the two sums).
//! Moves completing a redundant blank-move sequence (the move straight back, and the detours
//! [`MovePruner`] has learned) are never generated. Nothing is allocated per node.
//!
//! **Both cores on one board**: each iteration first expands the tree breadth-first from the
//! root (pruned by the bound) until the frontier holds enough subtrees, then searches the
//! subtrees in parallel. Any solution found within the iteration's bound is optimal, because
//! every smaller bound was already exhausted; a shared flag stops the other subtrees.

use super::move_pruning::{MovePruner, PRUNED, START};
use super::state::NONE;
use super::{Found, LimitKind, Limits, SearchError, Stats};
use crate::board::{BLANK, Board, Move};
use crate::heuristic::pdb::{MAX_PATTERN_TILES, MAX_PDB_CELLS};
use crate::heuristic::pdb_set::{MAX_PATTERNS, PdbSet};
use crate::rank::rank_partial;
use crate::solution::Solution;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::Instant;

/// Read-only tables shared by every thread.
struct Context<'a> {
    n: usize,
    entries: Vec<&'a [u8]>,
    sizes: Vec<usize>,
    tile_db: [u8; MAX_PDB_CELLS],
    tile_slot: [u8; MAX_PDB_CELLS],
    /// Reflection: transposed cell and reflected tile name.
    mirror: Option<([u8; MAX_PDB_CELLS], [u8; MAX_PDB_CELLS])>,
    neighbours: [[u8; 4]; MAX_PDB_CELLS],
    pruner: &'a MovePruner,
    limits: &'a Limits,
    start: Instant,
    /// Set when any thread finds a solution or hits a limit.
    stop: AtomicBool,
    stop_kind: AtomicU32,
    expanded: AtomicU64,
}

/// One search position: the board and each pattern's cells, for the board and its reflection.
#[derive(Clone, Copy)]
struct Node {
    cells: [u8; MAX_PDB_CELLS],
    blank: u8,
    places: [[u8; MAX_PATTERN_TILES]; MAX_PATTERNS],
    parts: [u8; MAX_PATTERNS],
    sum: u32,
    mplaces: [[u8; MAX_PATTERN_TILES]; MAX_PATTERNS],
    mparts: [u8; MAX_PATTERNS],
    msum: u32,
}

impl Context<'_> {
    #[inline]
    fn lookup(&self, d: usize, places: &[u8; MAX_PATTERN_TILES]) -> u8 {
        self.entries[d][rank_partial(&places[..self.sizes[d]], self.n) as usize]
    }

    fn node(&self, board: &Board) -> Node {
        let mut node = Node {
            cells: [0; MAX_PDB_CELLS],
            blank: board.blank() as u8,
            places: [[0; MAX_PATTERN_TILES]; MAX_PATTERNS],
            parts: [0; MAX_PATTERNS],
            sum: 0,
            mplaces: [[0; MAX_PATTERN_TILES]; MAX_PATTERNS],
            mparts: [0; MAX_PATTERNS],
            msum: 0,
        };
        for (p, &t) in board.cells().iter().enumerate() {
            node.cells[p] = t as u8;
            if t != BLANK {
                let (d, s) = (
                    self.tile_db[t as usize] as usize,
                    self.tile_slot[t as usize],
                );
                node.places[d][s as usize] = p as u8;
                if let Some((cell, tile)) = &self.mirror {
                    let mt = tile[t as usize] as usize;
                    let (md, ms) = (self.tile_db[mt] as usize, self.tile_slot[mt] as usize);
                    node.mplaces[md][ms] = cell[p];
                }
            }
        }
        for d in 0..self.entries.len() {
            node.parts[d] = self.lookup(d, &node.places[d]);
            node.sum += node.parts[d] as u32;
            if self.mirror.is_some() {
                node.mparts[d] = self.lookup(d, &node.mplaces[d]);
                node.msum += node.mparts[d] as u32;
            }
        }
        node
    }

    #[inline]
    fn h(&self, node: &Node) -> u32 {
        node.sum.max(node.msum)
    }

    /// Slides the tile at `to` into the blank; returns what `undo` needs.
    #[inline]
    fn apply(&self, node: &mut Node, to: usize) -> (u8, u8) {
        let blank = node.blank as usize;
        let t = node.cells[to] as usize;
        node.cells[blank] = t as u8;
        node.cells[to] = BLANK as u8;
        node.blank = to as u8;
        let (d, s) = (self.tile_db[t] as usize, self.tile_slot[t] as usize);
        let old = node.parts[d];
        node.places[d][s] = blank as u8;
        node.parts[d] = self.lookup(d, &node.places[d]);
        node.sum = node.sum + node.parts[d] as u32 - old as u32;
        let mut mold = 0;
        if let Some((cell, tile)) = &self.mirror {
            let mt = tile[t] as usize;
            let (md, ms) = (self.tile_db[mt] as usize, self.tile_slot[mt] as usize);
            mold = node.mparts[md];
            node.mplaces[md][ms] = cell[blank];
            node.mparts[md] = self.lookup(md, &node.mplaces[md]);
            node.msum = node.msum + node.mparts[md] as u32 - mold as u32;
        }
        (old, mold)
    }

    #[inline]
    fn undo(&self, node: &mut Node, from: usize, saved: (u8, u8)) {
        // The tile now at the old blank cell `from` goes back to the blank at `node.blank`.
        let to = node.blank as usize;
        let t = node.cells[from] as usize;
        node.cells[to] = t as u8;
        node.cells[from] = BLANK as u8;
        node.blank = from as u8;
        let (d, s) = (self.tile_db[t] as usize, self.tile_slot[t] as usize);
        node.places[d][s] = to as u8;
        node.sum = node.sum - node.parts[d] as u32 + saved.0 as u32;
        node.parts[d] = saved.0;
        if let Some((cell, tile)) = &self.mirror {
            let mt = tile[t] as usize;
            let (md, ms) = (self.tile_db[mt] as usize, self.tile_slot[mt] as usize);
            node.mplaces[md][ms] = cell[to];
            node.msum = node.msum - node.mparts[md] as u32 + saved.1 as u32;
            node.mparts[md] = saved.1;
        }
    }

    fn halt(&self, kind: Option<LimitKind>) {
        if let Some(k) = kind {
            self.stop_kind.store(k as u32 + 1, Ordering::Relaxed);
        }
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Checks limits every 4096 local expansions; returns true when the search must stop.
    fn check(&self, local: &mut u64) -> bool {
        *local += 1;
        if *local & 4095 != 0 {
            return false;
        }
        let total = self.expanded.fetch_add(4096, Ordering::Relaxed) + 4096;
        *local = 0;
        if self.limits.max_nodes.is_some_and(|m| total > m) {
            self.halt(Some(LimitKind::Nodes));
        } else if self
            .limits
            .max_time
            .is_some_and(|t| self.start.elapsed() > t)
        {
            self.halt(Some(LimitKind::Time));
        } else if self
            .limits
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            self.halt(Some(LimitKind::Cancelled));
        }
        self.stop.load(Ordering::Relaxed)
    }
}

/// Depth-first search below one node.
struct Worker<'c, 'a> {
    ctx: &'c Context<'a>,
    path: Vec<Move>,
    next_bound: u32,
    local: u64,
    generated: u64,
}

impl Worker<'_, '_> {
    fn dfs(&mut self, node: &mut Node, g: u32, bound: u32, seq: u32) -> bool {
        let h = self.ctx.h(node);
        if g + h > bound {
            self.next_bound = self.next_bound.min(g + h);
            return false;
        }
        if h == 0 {
            return true; // every pattern home: the goal
        }
        if self.ctx.check(&mut self.local) {
            return false;
        }
        let blank = node.blank as usize;
        for mi in 0..4 {
            let to = self.ctx.neighbours[blank][mi];
            let next = self.ctx.pruner.step(seq, mi);
            if to == NONE || next == PRUNED {
                continue;
            }
            self.generated += 1;
            let saved = self.ctx.apply(node, to as usize);
            self.path.push(Move::from_index(mi));
            if self.dfs(node, g + 1, bound, next) {
                return true;
            }
            self.path.pop();
            self.ctx.undo(node, blank, saved);
            if self.ctx.stop.load(Ordering::Relaxed) {
                return false;
            }
        }
        false
    }
}

/// A subtree root for the parallel phase.
#[derive(Clone)]
struct Item {
    node: Node,
    g: u32,
    /// Move-pruning automaton state.
    seq: u32,
    path: Vec<Move>,
}

/// Subtrees wanted per thread before searching in parallel.
const ITEMS_PER_THREAD: usize = 24;

/// Optimal IDA* with the databases of `set` (whose goal must be the board's goal).
pub fn pdb_idastar(start: &Board, set: &PdbSet, limits: &Limits) -> Result<Found, SearchError> {
    super::check_solvable(start, set.goal())?;
    let n = start.shape().cells();
    let dbs = set.databases();
    let mut tile_db = [0u8; MAX_PDB_CELLS];
    let mut tile_slot = [0u8; MAX_PDB_CELLS];
    for t in 1..n {
        let (d, s) = set.place_of(t as u16);
        tile_db[t] = d as u8;
        tile_slot[t] = s as u8;
    }
    let mut neighbours = [[NONE; 4]; MAX_PDB_CELLS];
    for (c, nb) in neighbours.iter_mut().enumerate().take(n) {
        *nb = Move::ALL.map(|m| start.shape().neighbour(c, m).map_or(NONE, |x| x as u8));
    }
    let mirror = set.reflection().map(|r| {
        let mut cell = [0u8; MAX_PDB_CELLS];
        let mut tile = [0u8; MAX_PDB_CELLS];
        for p in 0..n {
            cell[p] = r.cell[p];
            tile[p] = r.tile[p] as u8;
        }
        (cell, tile)
    });
    let ctx = Context {
        n,
        entries: dbs.iter().map(|d| d.entries()).collect(),
        sizes: dbs.iter().map(|d| d.tiles().len()).collect(),
        tile_db,
        tile_slot,
        mirror,
        neighbours,
        pruner: MovePruner::standard(),
        limits,
        start: Instant::now(),
        stop: AtomicBool::new(false),
        stop_kind: AtomicU32::new(0),
        expanded: AtomicU64::new(0),
    };
    let root = ctx.node(start);
    let mut bound = ctx.h(&root);
    let mut stats = Stats::default();
    let threads = rayon::current_num_threads();
    loop {
        let next_bound = AtomicU32::new(u32::MAX);
        // Breadth-first split of the tree under this bound.
        let mut items = vec![Item {
            node: root,
            g: 0,
            seq: START,
            path: Vec::new(),
        }];
        let mut generated = 0u64;
        let mut found: Option<Vec<Move>> = None;
        while threads > 1 && items.len() < threads * ITEMS_PER_THREAD && found.is_none() {
            let mut next = Vec::with_capacity(items.len() * 3);
            for it in &items {
                let h = ctx.h(&it.node);
                if it.g + h > bound {
                    next_bound.fetch_min(it.g + h, Ordering::Relaxed);
                    continue;
                }
                if h == 0 {
                    found = Some(it.path.clone());
                    break;
                }
                stats.expanded += 1;
                let blank = it.node.blank as usize;
                for mi in 0..4 {
                    let to = ctx.neighbours[blank][mi];
                    let seq = ctx.pruner.step(it.seq, mi);
                    if to == NONE || seq == PRUNED {
                        continue;
                    }
                    generated += 1;
                    let mut child = it.clone();
                    ctx.apply(&mut child.node, to as usize);
                    child.g += 1;
                    child.seq = seq;
                    child.path.push(Move::from_index(mi));
                    next.push(child);
                }
            }
            if next.is_empty() || found.is_some() {
                items = next;
                break;
            }
            items = next;
        }
        if found.is_none() {
            let results: Vec<(Option<Vec<Move>>, u64, u64, u32)> = items
                .par_iter()
                .map(|it| {
                    if ctx.stop.load(Ordering::Relaxed) {
                        return (None, 0, 0, u32::MAX);
                    }
                    let mut w = Worker {
                        ctx: &ctx,
                        path: it.path.clone(),
                        next_bound: u32::MAX,
                        local: 0,
                        generated: 0,
                    };
                    let mut node = it.node;
                    let hit = w.dfs(&mut node, it.g, bound, it.seq);
                    if hit {
                        ctx.halt(None);
                    }
                    (hit.then_some(w.path), w.local, w.generated, w.next_bound)
                })
                .collect();
            for (path, local, made, nb) in results {
                ctx.expanded.fetch_add(local, Ordering::Relaxed);
                generated += made;
                next_bound.fetch_min(nb, Ordering::Relaxed);
                if found.is_none() {
                    found = path;
                }
            }
        }
        stats.generated += generated;
        stats.peak_stored = stats.peak_stored.max(bound as u64 + items.len() as u64);
        stats.elapsed = ctx.start.elapsed();
        let mut report = stats;
        report.expanded = stats.expanded + ctx.expanded.load(Ordering::Relaxed);
        let stop = match ctx.stop_kind.load(Ordering::Relaxed) {
            0 => None,
            k => Some(
                [
                    LimitKind::Nodes,
                    LimitKind::Time,
                    LimitKind::Memory,
                    LimitKind::Cancelled,
                ][(k - 1) as usize],
            ),
        };
        let nb = next_bound.load(Ordering::Relaxed);
        match super::next_iteration(found.is_some(), stop, nb, report)? {
            Some(next) => bound = next,
            None => return Ok((Solution::new(found.unwrap_or_default()), report)),
        }
    }
}
