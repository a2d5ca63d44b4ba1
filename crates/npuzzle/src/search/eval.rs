//! What a search asks of a heuristic, in one module that both `search/` and `heuristic/` depend
//! on (the heuristics implement these traits; the searches call them), so that neither imports
//! the other's internals.
//!
//! Two interfaces: [`Heuristic`] (whole-board estimate plus the change of one slide) for the
//! textbook searches, and [`Evaluator`] for the fast IDA* engine: an evaluation state carried
//! along the path, probed before a child is entered and updated in place, over the engine's
//! fixed-size board ([`Cells`], at most [`MAX_CELLS`] cells).

use crate::board::{BLANK, Board, Tile};

/// An estimate of the moves left to reach a fixed goal.
pub trait Heuristic: Send + Sync {
    /// Short name for reports.
    fn name(&self) -> &'static str;

    /// The estimate for a whole board.
    fn estimate(&self, cells: &[Tile]) -> u32;

    /// How the estimate changes when `tile` slides from cell `from` into the blank at `to`;
    /// `cells` is the board *after* the move (the blank is now at `from`).
    fn delta(&self, cells: &[Tile], tile: Tile, from: usize, to: usize) -> i32;
}

/// Largest board (in cells) the engine handles.
pub const MAX_CELLS: usize = 32;

/// A board as the engine keeps it: the tile on each cell and the cell of each tile.
#[derive(Clone, Copy, Debug)]
pub struct Cells {
    /// `tiles[cell]`: the tile there (0 = blank).
    pub tiles: [u8; MAX_CELLS],
    /// `cell_of[tile]`: where the tile is (`cell_of[0]` is the blank).
    pub cell_of: [u8; MAX_CELLS],
}

impl Cells {
    /// The engine's view of `board` (at most [`MAX_CELLS`] cells).
    pub fn of(board: &Board) -> Cells {
        let mut c = Cells {
            tiles: [0; MAX_CELLS],
            cell_of: [0; MAX_CELLS],
        };
        for (p, &t) in board.cells().iter().enumerate().take(MAX_CELLS) {
            c.tiles[p] = t as u8;
            c.cell_of[t as usize & (MAX_CELLS - 1)] = p as u8;
        }
        c
    }

    /// Slides `tile` from `from` into the blank at `to`.
    #[inline(always)]
    pub(crate) fn slide(&mut self, tile: usize, from: usize, to: usize) {
        self.tiles[to & (MAX_CELLS - 1)] = tile as u8;
        self.tiles[from & (MAX_CELLS - 1)] = BLANK as u8;
        self.cell_of[tile & (MAX_CELLS - 1)] = to as u8;
        self.cell_of[0] = from as u8;
    }
}

/// One slide: `tile` moves from cell `from` into the blank at cell `to`; the blank's move (as a
/// [`Move::index`](crate::board::Move::index)) is `mi`.
#[derive(Clone, Copy, Debug)]
pub struct Slide {
    /// The sliding tile.
    pub tile: usize,
    /// Its cell before the move (the blank's cell after).
    pub from: usize,
    /// Its cell after the move (the blank's cell before).
    pub to: usize,
    /// The blank's move index.
    pub mi: usize,
}

/// Incremental node evaluation for one heuristic toward one goal.
///
/// Contract: the value is 0 exactly on the goal (so the engine needs no separate goal test), and
/// it is admissible for the engine's answers to be optimal (every evaluator is, except
/// [`Weighted`], whose answers are labelled not optimal).
pub trait Evaluator: Sync {
    /// What the evaluator carries along the search path (line keys, database entries …).
    type State: Copy + Send + Sync;
    /// What a successful probe hands to [`Evaluator::enter`].
    type Change: Copy;

    /// The evaluation state and heuristic value of a whole board.
    fn root(&self, cells: &Cells) -> (Self::State, u32);

    /// The heuristic value of the child reached by `slide` from a node with state `state`,
    /// heuristic `h` and board `cells` (still the parent's). `Err(lower)` when the value is
    /// known to exceed `limit`, with a lower bound on it that is itself above `limit`.
    fn probe(
        &self,
        state: &Self::State,
        cells: &Cells,
        h: u32,
        slide: Slide,
        limit: u32,
    ) -> Result<(u32, Self::Change), u32>;

    /// Turns the parent's state into the child's, after a successful probe.
    fn enter(&self, state: &mut Self::State, change: &Self::Change);

    /// Undoes [`Evaluator::enter`] with the same change.
    fn leave(&self, state: &mut Self::State, change: &Self::Change);
}

/// An evaluator whose values are another's times `num / den` (rounded up): IDA* with it
/// is weighted IDA*, which finds a solution at most about that factor longer than the optimum
/// after far fewer states. Its values are not admissible, so the engine's answer is not
/// optimal; 0 stays 0 exactly on the goal.
#[derive(Clone, Copy, Debug)]
pub struct Weighted<'e, E> {
    inner: &'e E,
    num: u32,
    den: u32,
}

impl<'e, E: Evaluator> Weighted<'e, E> {
    /// `inner`'s values times `num / den` (`num ≥ den ≥ 1`).
    pub fn new(inner: &'e E, num: u32, den: u32) -> Self {
        let den = den.max(1);
        Weighted {
            inner,
            num: num.max(den),
            den,
        }
    }

    #[inline(always)]
    fn scale(&self, h: u32) -> u32 {
        ((h as u64 * self.num as u64).div_ceil(self.den as u64)).min(u32::MAX as u64) as u32
    }
}

impl<E: Evaluator> Evaluator for Weighted<'_, E> {
    /// The inner state and the inner value of the node.
    type State = (E::State, u32);
    /// The inner change, and the inner values of the child and of the parent.
    type Change = (E::Change, u32, u32);

    fn root(&self, cells: &Cells) -> (Self::State, u32) {
        let (state, h) = self.inner.root(cells);
        ((state, h), self.scale(h))
    }

    #[inline(always)]
    fn probe(
        &self,
        state: &Self::State,
        cells: &Cells,
        _h: u32,
        slide: Slide,
        limit: u32,
    ) -> Result<(u32, Self::Change), u32> {
        // The inner value v passes exactly when scale(v) ≤ limit, i.e. v ≤ limit·den/num.
        let inner_limit = (limit as u64 * self.den as u64 / self.num as u64) as u32;
        match self
            .inner
            .probe(&state.0, cells, state.1, slide, inner_limit)
        {
            Ok((h, change)) => Ok((self.scale(h), (change, h, state.1))),
            Err(lower) => Err(self.scale(lower).max(limit.saturating_add(1))),
        }
    }

    #[inline(always)]
    fn enter(&self, state: &mut Self::State, change: &Self::Change) {
        self.inner.enter(&mut state.0, &change.0);
        state.1 = change.1;
    }

    #[inline(always)]
    fn leave(&self, state: &mut Self::State, change: &Self::Change) {
        self.inner.leave(&mut state.0, &change.0);
        state.1 = change.2;
    }
}
