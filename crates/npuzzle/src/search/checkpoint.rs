//! Where an optimal IDA* search stands between iterations, so that a long search can stop and
//! go on later (another day, another process) without searching its finished iterations again.
//!
//! An iteration that ends without a solution proves that none is shorter than the next bound;
//! that bound, the states and time spent so far, and the ordered frontier's memory (which roots
//! came nearest the goal, so that the next iteration takes them first) are all the engine needs
//! to go on exactly as if it had never stopped. The engine hands a [`Checkpoint`] to
//! [`Limits::checkpoint`](super::Limits::checkpoint) after every such iteration and starts from
//! [`Limits::resume`](super::Limits::resume). It is plain data (serde), for the caller to keep.

use serde::{Deserialize, Serialize};
use std::sync::Arc;
use thiserror::Error;

/// An optimal IDA* search between two iterations, or within one: everything needed to go on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The board the engine searches from, in its own frame, as hex digit pairs (one a cell).
    pub start: String,
    /// The next iteration's bound: the finished iterations prove no solution is shorter.
    pub bound: u32,
    /// States expanded by the finished iterations and the subtrees in
    /// [`Checkpoint::searched`] (of every run that led here).
    pub expanded: u64,
    /// Search time in seconds up to the checkpoint (of every run that led here; within an
    /// iteration it includes the partly searched subtrees a run going on searches again).
    pub seconds: f64,
    /// The ordered frontier's depth, once the search had fixed it.
    pub frontier_depth: Option<usize>,
    /// Each frontier root's nearest approach to the goal in the last finished iteration (the
    /// order of the next): the root's board (as [`Checkpoint::start`]) and the least
    /// heuristic value below it.
    pub nearest: Vec<(String, u32)>,
    /// The frontier roots the iteration of [`Checkpoint::bound`] has already searched whole,
    /// without the goal (a checkpoint taken within it, every minute and when the search is
    /// stopped): each root's path from the start (move letters) and its nearest approach in
    /// this iteration. Empty between iterations.
    #[serde(default)]
    pub searched: Vec<(String, u32)>,
    /// The least f above the bound met in [`Checkpoint::searched`] (the next bound, should
    /// the rest hold nothing lower).
    #[serde(default = "unbounded")]
    pub searched_next_bound: u32,
}

/// No f above the bound met yet.
fn unbounded() -> u32 {
    u32::MAX
}

/// A checkpoint that does not belong to the search it was given to.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CheckpointError {
    /// It was taken searching from another board.
    #[error("the checkpoint is for another board (or another goal or heuristic frame)")]
    OtherBoard,
    /// A board in it is not hex digit pairs of the search's size.
    #[error("the checkpoint holds a malformed board {0:?}")]
    Malformed(String),
    /// Its figures cannot come from a search (a bound past the engine's, a next bound not
    /// above the bound, a negative time …).
    #[error("the checkpoint is inconsistent: {0}")]
    Inconsistent(String),
}

impl Checkpoint {
    /// An error unless its figures can come from a search whose bounds stay within
    /// `max_bound` and whose frontier is at most `max_depth` deep.
    pub(crate) fn check(&self, max_bound: u32, max_depth: usize) -> Result<(), CheckpointError> {
        let bad = |what: String| Err(CheckpointError::Inconsistent(what));
        if self.bound > max_bound {
            return bad(format!("bound {} is past {max_bound}", self.bound));
        }
        if self.searched_next_bound <= self.bound {
            return bad(format!(
                "the next bound {} is not above the bound {}",
                self.searched_next_bound, self.bound
            ));
        }
        if self.frontier_depth.is_some_and(|d| d > max_depth) {
            return bad(format!(
                "a frontier {} deep",
                self.frontier_depth.unwrap_or(0)
            ));
        }
        if !self.searched.is_empty() && self.frontier_depth.is_none() {
            return bad("subtrees searched without a fixed frontier".into());
        }
        if !(self.seconds.is_finite() && self.seconds >= 0.0) {
            return bad(format!("{} seconds", self.seconds));
        }
        Ok(())
    }
}

/// Receives a [`Checkpoint`] after every iteration that ends without a solution, every minute
/// within a long iteration, and when the search stops within one.
#[derive(Clone)]
pub struct CheckpointHook(pub Arc<dyn Fn(&Checkpoint) + Send + Sync>);

impl std::fmt::Debug for CheckpointHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CheckpointHook")
    }
}

/// The first `cells` entries of `tiles` as hex digit pairs.
pub(crate) fn encode(tiles: &[u8], cells: usize) -> String {
    tiles[..cells.min(tiles.len())]
        .iter()
        .map(|t| format!("{t:02x}"))
        .collect()
}

/// `text` (from [`encode`]) back into `N` entries, zero past the first `cells`; `None` unless
/// it is exactly `cells` hex digit pairs.
pub(crate) fn decode<const N: usize>(text: &str, cells: usize) -> Option<[u8; N]> {
    let bytes = text.as_bytes();
    if cells > N || bytes.len() != 2 * cells {
        return None;
    }
    let mut out = [0u8; N];
    for (slot, pair) in out.iter_mut().zip(bytes.chunks_exact(2)) {
        let digits = std::str::from_utf8(pair).ok()?;
        *slot = u8::from_str_radix(digits, 16).ok()?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::{decode, encode};

    #[test]
    fn boards_round_trip_and_bad_text_is_refused() {
        let tiles = [3u8, 0, 24, 17, 0, 0];
        let text = encode(&tiles, 4);
        assert_eq!(text, "03001811");
        assert_eq!(decode::<6>(&text, 4), Some([3, 0, 24, 17, 0, 0]));
        assert_eq!(decode::<6>(&text, 3), None);
        assert_eq!(decode::<6>("0300181g", 4), None);
        assert_eq!(decode::<3>(&text, 4), None);
        assert_eq!(decode::<6>("03é0181", 4), None);
    }
}
