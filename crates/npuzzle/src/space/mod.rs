//! Whole state spaces: every board of a shape that can reach a goal, numbered densely and
//! searched breadth-first two bits a state.
//!
//! Why a module of its own: the complete tables of 12-cell boards ([`crate::table`])
//! and the `explore` report (the number of states at each distance, the diameter, the
//! antipodes) are the same search over the same numbering; only what they keep differs.
//! - [`index`]: the dense numbering (blank cell × tile order of the goal's parity).
//! - `sweep`: the breadth-first search, parallel, two bits a state.
//! - [`explore`](mod@explore): the report, with its memory check made before anything is allocated.

pub mod explore;
pub mod index;
pub(crate) mod sweep;

pub use explore::{
    DEFAULT_SAMPLE, ExploreError, ExploreOptions, Report, default_max_memory, explore,
    explore_memory,
};
pub use index::{MAX_SPACE_CELLS, SpaceIndex};
pub use sweep::SweepEvent;
