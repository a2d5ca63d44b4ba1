//! The one breadth-first search over a whole state space, two bits a state, on every core.
//!
//! Korf's two-bit breadth-first search: a state is *new*, in the *current* layer, in the
//! *next* layer or *done*, and the labels of current and next swap every layer, so no pass
//! is spent relabelling. Each layer scans the array for current states (a word of 32 entries
//! at a time), marks their new neighbours next and marks them done. Layers are kept in no
//! queue: 2×7's 4.4·10¹⁰ states take 10.9 GB, nothing more. Both the complete tables (which
//! also record each state's distance modulo 3, two more bits) and `explore` (which records
//! only the counts and the last layer) run this search.

use super::index::SpaceIndex;
use crate::zeroed::Zeroed;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};

const NEW: u64 = 0;
const DONE: u64 = 3;
/// Words per task: 2 M states.
const CHUNK_WORDS: usize = 1 << 16;
const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// An array of two-bit entries, 32 to a word, shared by the threads of a search (zeroed, in
/// huge pages: see [`crate::zeroed`]).
pub(crate) struct TwoBits {
    words: Zeroed<AtomicU64>,
}

impl TwoBits {
    /// `entries` entries, all 0; `None` when the system cannot give that much memory.
    pub(crate) fn zeroed(entries: u64) -> Option<TwoBits> {
        let words = usize::try_from(entries.div_ceil(32).max(1)).ok()?;
        Some(TwoBits {
            words: Zeroed::new(words)?,
        })
    }

    /// Bytes an array of `entries` entries takes.
    pub(crate) fn bytes_for(entries: u64) -> u64 {
        entries.div_ceil(32) * 8
    }

    /// The words, for threads to read and update.
    pub(crate) fn atomic(&self) -> &[AtomicU64] {
        self.words.atomics()
    }

    /// The words, copied out (for a table that keeps them).
    pub(crate) fn to_words(&self) -> std::sync::Arc<[u64]> {
        self.atomic().iter().map(|w| w.load(Relaxed)).collect()
    }

    /// Entry `i`.
    #[inline]
    pub(crate) fn get(words: &[u64], i: u64) -> u8 {
        ((words[(i / 32) as usize] >> (2 * (i % 32))) & 3) as u8
    }
}

/// Neighbours gathered before they are marked (see `mark_next`).
const PENDING: usize = 128;

/// Marks `next` every new state of `states`; returns how many were new.
#[inline]
fn mark_next(words: &[AtomicU64], states: &[u64], next: u64) -> u64 {
    let mut found = 0;
    for &j in states {
        let target = &words[(j / 32) as usize];
        let shift = 2 * (j % 32);
        if (target.load(Relaxed) >> shift) & 3 == NEW {
            let before = target.fetch_or(next << shift, Relaxed);
            found += u64::from((before >> shift) & 3 == NEW);
        }
    }
    found
}

/// Bit `2k` set wherever entry `k` of `word` equals `label`.
#[inline]
fn equal_mask(word: u64, label: u64) -> u64 {
    let x = word ^ (label * LOW_BITS);
    !(x | (x >> 1)) & LOW_BITS
}

/// One breadth-first layer: how many states lie at its distance, and the first few of them
/// by index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Layer {
    pub states: u64,
    pub sample: Vec<u64>,
}

/// What a search reports as it goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SweepEvent {
    /// Every state at `distance` is known (reported in order, distance 0 first).
    Layer {
        /// The distance.
        distance: u32,
        /// States at that distance.
        states: u64,
        /// States known so far, this layer included.
        known: u64,
    },
    /// Part of the array was scanned for the layer at `distance` (from worker threads,
    /// often: throttle what you draw).
    Scanning {
        /// The distance of the layer being expanded.
        distance: u32,
        /// States of the array scanned in this layer.
        scanned: u64,
        /// States in the array.
        total: u64,
        /// States whose distance is known so far.
        known: u64,
    },
}

/// What a search needs besides the index.
pub(crate) struct Sweep<'a> {
    pub index: &'a SpaceIndex,
    /// Set to stop between chunks; the search then returns `None`.
    pub stop: Option<&'a AtomicBool>,
    /// Told of each finished layer, and of progress after every chunk.
    pub progress: &'a (dyn Fn(SweepEvent) + Sync),
    /// How many states of each layer to keep as a sample (the smallest indices).
    pub sample: usize,
}

impl Sweep<'_> {
    /// Runs the search from the goal over `marks` (all zero, [`SpaceIndex::states`]
    /// entries); when `distances` is given (as many entries), each state's distance modulo 3
    /// is written there. Returns the layers (distance 0 first), or `None` when stopped.
    pub(crate) fn run(&self, marks: &TwoBits, distances: Option<&TwoBits>) -> Option<Vec<Layer>> {
        let words = marks.atomic();
        let dist_words = distances.map(TwoBits::atomic);
        let goal = self.index.goal_index();
        let total = self.index.states();
        words[(goal / 32) as usize].store(1 << (2 * (goal % 32)), Relaxed);
        let mut layers: Vec<Layer> = vec![Layer {
            states: 1,
            sample: Vec::new(),
        }];
        let mut known = 1u64;
        (self.progress)(SweepEvent::Layer {
            distance: 0,
            states: 1,
            known,
        });
        for distance in 0u32.. {
            let (current, next) = if distance % 2 == 0 { (1, 2) } else { (2, 1) };
            let scanned = AtomicU64::new(0);
            let results: Vec<Option<(u64, Vec<u64>)>> = crate::parallel::run(|| {
                words
                    .par_chunks(CHUNK_WORDS)
                    .enumerate()
                    .map(|(c, chunk)| {
                        if self.stop.is_some_and(|s| s.load(Relaxed)) {
                            return None;
                        }
                        let mut found = 0u64;
                        let mut sample = Vec::new();
                        let cells = self.index.shape().cells() as u64;
                        // The last state decoded: its neighbours in the array often share its
                        // tile order (see `SpaceIndex::respell`).
                        let mut last_rank = u64::MAX;
                        // Neighbours are marked in batches, their words prefetched when they are
                        // found, so that the cache misses of a batch overlap.
                        let mut pending = [0u64; PENDING];
                        let mut waiting = 0;
                        let mut spelled = self.index.spell(0);
                        for (k, w) in chunk.iter().enumerate() {
                            let mask = equal_mask(w.load(Relaxed), current);
                            if mask == 0 {
                                continue;
                            }
                            let word = (c * CHUNK_WORDS + k) as u64;
                            let mut bits = mask;
                            while bits != 0 {
                                let i = word * 32 + (bits.trailing_zeros() / 2) as u64;
                                bits &= bits - 1;
                                if sample.len() < self.sample {
                                    sample.push(i);
                                }
                                if i / cells == last_rank {
                                    self.index.respell(&mut spelled, i);
                                } else {
                                    spelled = self.index.spell(i);
                                    last_rank = i / cells;
                                }
                                self.index.for_each_neighbour_of(&spelled, i, |j| {
                                    crate::prefetch::prefetch(&words[(j / 32) as usize]);
                                    pending[waiting] = j;
                                    waiting += 1;
                                });
                                if waiting >= PENDING - 4 {
                                    found += mark_next(words, &pending[..waiting], next);
                                    waiting = 0;
                                }
                            }
                            w.fetch_or(mask * DONE, Relaxed);
                            if let Some(d) = dist_words {
                                // Only this task touches this word of the distances.
                                d[c * CHUNK_WORDS + k]
                                    .fetch_or(mask * u64::from(distance % 3), Relaxed);
                            }
                        }
                        found += mark_next(words, &pending[..waiting], next);
                        let done = scanned.fetch_add(chunk.len() as u64 * 32, Relaxed);
                        (self.progress)(SweepEvent::Scanning {
                            distance,
                            scanned: (done + chunk.len() as u64 * 32).min(total),
                            total,
                            known,
                        });
                        Some((found, sample))
                    })
                    .collect()
            });
            let mut found = 0;
            let mut sample = Vec::new();
            for r in results {
                let (f, s) = r?;
                found += f;
                if sample.len() < self.sample {
                    sample.extend(s.into_iter().take(self.sample - sample.len()));
                }
            }
            layers[distance as usize].sample = sample;
            if found == 0 {
                return Some(layers);
            }
            known += found;
            (self.progress)(SweepEvent::Layer {
                distance: distance + 1,
                states: found,
                known,
            });
            layers.push(Layer {
                states: found,
                sample: Vec::new(),
            });
        }
        unreachable!("the loop returns when a layer finds nothing")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Shape};
    use std::collections::{HashMap, VecDeque};

    /// An independent count: a plain breadth-first search over boards in a hash map.
    fn plain_histogram(goal: &Board) -> Vec<u64> {
        let mut dist: HashMap<Board, u32> = HashMap::new();
        let mut queue = VecDeque::new();
        dist.insert(goal.clone(), 0);
        queue.push_back(goal.clone());
        let mut hist = vec![0u64];
        hist[0] = 1;
        while let Some(b) = queue.pop_front() {
            let d = dist[&b];
            for m in b.legal_moves().collect::<Vec<_>>() {
                let c = b.moved(m).unwrap();
                if !dist.contains_key(&c) {
                    dist.insert(c.clone(), d + 1);
                    if hist.len() <= d as usize + 1 {
                        hist.push(0);
                    }
                    hist[d as usize + 1] += 1;
                    queue.push_back(c);
                }
            }
        }
        hist
    }

    fn sweep_histogram(goal: &Board) -> (Vec<u64>, TwoBits) {
        let index = SpaceIndex::for_goal(goal).unwrap();
        let marks = TwoBits::zeroed(index.states()).unwrap();
        let distances = TwoBits::zeroed(index.states()).unwrap();
        let layers = Sweep {
            index: &index,
            stop: None,
            progress: &|_| {},
            sample: 4,
        }
        .run(&marks, Some(&distances))
        .unwrap();
        (layers.iter().map(|l| l.states).collect(), distances)
    }

    /// The two-bit search counts what a plain search over boards counts, toward goals with
    /// the blank anywhere, and records every state's distance modulo 3.
    #[test]
    fn histograms_equal_an_independent_count() {
        for (w, h, blank_first) in [
            (2, 3, false),
            (3, 2, true),
            (2, 4, false),
            (4, 2, false),
            (3, 3, false),
            (3, 3, true),
            (5, 2, false),
        ] {
            let shape = Shape::new(w, h).unwrap();
            let goal = if blank_first {
                Board::goal_blank_first(shape)
            } else {
                Board::goal(shape)
            };
            let expected = plain_histogram(&goal);
            let (got, distances) = sweep_histogram(&goal);
            assert_eq!(got, expected, "{w}x{h}");
            let table = crate::table::Table::build(&goal).unwrap();
            let index = SpaceIndex::for_goal(&goal).unwrap();
            let words = distances.to_words();
            for i in (0..index.states()).step_by(97) {
                let b = Board::new(shape, &index.cells_of(i)).unwrap();
                let d = table.distance(&b).unwrap();
                assert_eq!(TwoBits::get(&words, i), d % 3, "{w}x{h} {b:?}");
            }
        }
        let eight = sweep_histogram(&Board::goal(Shape::new(3, 3).unwrap())).0;
        assert_eq!(eight.len(), 32);
        assert_eq!(eight[31], 2);
    }

    #[test]
    fn a_stopped_search_returns_nothing() {
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let index = SpaceIndex::for_goal(&goal).unwrap();
        let stop = AtomicBool::new(true);
        let marks = TwoBits::zeroed(index.states()).unwrap();
        let run = Sweep {
            index: &index,
            stop: Some(&stop),
            progress: &|_| {},
            sample: 0,
        }
        .run(&marks, None);
        assert!(run.is_none());
    }
}
