//! Duplicate-path pruning for depth-first searches: a finite automaton over blank moves that
//! rejects any move completing a sequence known to be redundant.
//!
//! Why: IDA* keeps no table of visited states, so besides the move straight back to the parent
//! it re-walks many short detours that end in a state some other path reaches no later, the
//! commonest being the blank circling a 2×2 block (seven quarter turns one way equal five the
//! other; six either way are the same board). Those subtrees are pure waste.
//!
//! **Learning** (`learning`, test-only: the list ships with the crate). An enumeration of move
//! strings on an unbounded grid, by length and within a length in move order (`u`, `d`, `l`,
//! `r`, the move indexes' order), records each string's effect (which cells end up holding which original contents). A string whose
//! effect an earlier string already has is *redundant* when the earlier one's blank path stays
//! inside the later one's bounding box, so it is legal on every board position where the later
//! one is. Strings containing a redundant string are never extended. Up to 16 moves there are
//! 138,856 redundant strings (2,540 up to 12, 18,700 up to 14).
//!
//! **Why pruning stays optimal.** Replacing a redundant substring by its earlier twin gives a
//! path to the same state that is shorter, or as long and earlier in move order, and still
//! on the board. Repeating that must stop, at a path of no greater length containing no
//! redundant string, which the automaton never prunes. So some optimal solution survives, and
//! IDA* with its usual bounds still returns an optimal one.
//!
//! **Searching.** The redundant strings go into an Aho–Corasick automaton; a search carries one
//! automaton state per node and follows one table entry per move. Reversals (`ud`, `lr`, …) are
//! redundant strings too, so the automaton subsumes the parent-move check. A board takes only
//! the strings that fit within its longer side (one automaton for each of four sizes, see
//! [`MovePruner::for_shape`]), which prunes the same and keeps the table small.
//!
//! **Why 16 moves.** Against 12, the 16-move strings expand 8–21 % fewer states on Korf's
//! 24-puzzles (#1 16 %, #5 21 %, #8 20 %, #22 8 %) and 4.5 % fewer on the 80-move 15-puzzles,
//! in 0.86–0.90 and 0.94 of the time (same runs; docs/algorithms.md, "Longer move pruning").
//! Learning them takes 4.7 GB, and 14 moves' list took about a twelfth of 16's work: 18 moves
//! would take more memory than the development machine has, and an automaton far past the
//! processor's caches.

use crate::board::Shape;
#[cfg(test)]
use std::collections::HashSet;
#[cfg(test)]
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

#[cfg(test)]
mod learning;

/// Automaton state of a fresh search (no moves yet).
pub const START: u32 = 0;
/// Transition value meaning "this move completes a redundant sequence: prune it".
pub const PRUNED: u32 = u32::MAX;

/// The automaton (see the module documentation).
#[derive(Debug)]
pub struct MovePruner {
    next: Vec<[u32; 4]>,
}

impl MovePruner {
    #[cfg(test)]
    /// Learns every redundant string of at most `longest` moves (capped at
    /// [`learning::LONGEST`]) and builds the automaton.
    pub fn learn(longest: usize) -> MovePruner {
        let longest = longest.min(learning::LONGEST);
        let redundant = learning::redundant_strings(longest);
        MovePruner {
            next: automaton(redundant),
        }
    }

    /// The automaton for boards of `shape`: every shipped redundant string (up to 16 moves)
    /// whose blank path fits within the board's longer side. No other string can complete
    /// there, so this prunes exactly what the whole list would, from a smaller table: 1.7k
    /// strings for boards of at most 3 cells a side, 27.6k for 4, 104k for 5, all 139k past
    /// that (one automaton for each of these four sizes, made once a process when first
    /// wanted: about 1, 18, 77 and 84 ms). Learning the strings takes a minute and gigabytes,
    /// so the list ships with the crate (`redundant_moves.txt`, checked against
    /// [`MovePruner::learn`] by the tests).
    pub fn for_shape(shape: Shape) -> &'static MovePruner {
        let size = size_of_shape(shape);
        SLOTS[size].get(|| MovePruner::of_size(size))
    }

    /// Starts making [`MovePruner::for_shape`]'s automaton for `shape` on a thread of its
    /// own, when no one has yet (at most one such thread a size, for the process's life), so
    /// that a caller about to load pattern databases for the IDA* engine (from 80 ms to
    /// seconds) has it by the end of the loading. A later [`MovePruner::for_shape`] in this
    /// process waits for the thread rather than make a second copy; in a child forked
    /// meanwhile (as Python's multiprocessing does), where the thread does not exist, it
    /// makes its own. If the thread cannot start, `for_shape` makes the automaton itself.
    pub fn prepare(shape: Shape) {
        let size = size_of_shape(shape);
        SLOTS[size].start(move || MovePruner::of_size(size));
    }

    /// The automaton of the shipped strings that fit boards of `size` (see [`size_of_side`]).
    fn of_size(size: usize) -> MovePruner {
        // The list is ordered by size: the strings that fit are the first ones.
        let fitting = shipped_lines().take_while(|l| size_of_side(side(l)) <= size);
        MovePruner {
            next: automaton(fitting.map(|l| l.iter().map(|&b| move_index(b)))),
        }
    }

    /// The automaton that prunes only the move straight back (textbook IDA*).
    #[cfg(test)]
    pub fn parent_only() -> &'static MovePruner {
        static PARENT: OnceLock<MovePruner> = OnceLock::new();
        PARENT.get_or_init(|| MovePruner::learn(2))
    }

    /// The state after move `m` (index as in [`crate::board::Move::index`]) from `state`, or
    /// [`PRUNED`].
    #[inline]
    pub fn step(&self, state: u32, m: usize) -> u32 {
        self.next[state as usize][m & 3]
    }

    /// Asks the processor to fetch `state`'s transitions, which a search will read when it
    /// enters the child in that state.
    #[inline]
    pub fn prefetch(&self, state: u32) {
        if let Some(row) = self.next.get(state as usize) {
            crate::prefetch::prefetch(row);
        }
    }
}

/// Longest redundant string of the shipped list.
#[cfg(test)]
pub const SHIPPED_LONGEST: usize = 16;

/// The learned redundant strings, one per line in judge letters (blank moves).
const SHIPPED: &str = include_str!("redundant_moves.txt");

/// Move index of a judge letter.
fn move_index(letter: u8) -> u8 {
    match letter {
        b'u' => 0,
        b'd' => 1,
        b'l' => 2,
        _ => 3,
    }
}

/// One size's automaton each, made once a process.
static SLOTS: [Slot; SIZES] = [const { Slot::new() }; SIZES];

/// An automaton made once a process, either on a background thread ([`Slot::start`]) or by
/// the first caller that wants it ([`Slot::get`]).
///
/// Why no lock: a process may fork while the automaton is being made, and the child has
/// none of its parent's other threads. Were the maker holding a lock that callers wait on
/// (a `OnceLock` being initialised), the child would wait forever. So the automaton is made
/// outside any lock and published by one compare-and-swap; a caller waits (polling) only for
/// a background thread of its own process, and otherwise makes its own copy.
struct Slot {
    /// The automaton once made.
    made: crate::parallel::Published<MovePruner>,
    /// Whether a background thread has been asked for (at most one a process).
    started: AtomicBool,
    /// The process (see [`crate::parallel::process`]) whose background thread is making the
    /// automaton, or 0.
    maker: AtomicU64,
}

impl Slot {
    /// How long a caller waits for the background thread before making its own copy (the
    /// thread takes at most about 100 ms; this only bounds a wait on a thread slowed by a
    /// machine far busier than the search).
    const PATIENCE: std::time::Duration = std::time::Duration::from_secs(5);

    const fn new() -> Slot {
        Slot {
            made: crate::parallel::Published::new(),
            started: AtomicBool::new(false),
            maker: AtomicU64::new(0),
        }
    }

    /// The automaton: the background thread's once it is done (waited for while it is at
    /// work for this process, for at most [`Slot::PATIENCE`]), otherwise made here by `make`
    /// (two callers at once may both make one; the first published is kept).
    fn get(&self, make: impl FnOnce() -> MovePruner) -> &'static MovePruner {
        let me = crate::parallel::process();
        let since = std::time::Instant::now();
        loop {
            if let Some(p) = self.made.get() {
                return p;
            }
            if self.maker.load(Ordering::Acquire) != me || since.elapsed() > Slot::PATIENCE {
                break;
            }
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
        self.made.publish(None, make())
    }

    /// Starts a thread that makes the automaton with `make`, unless one was started before
    /// or the automaton is already made.
    fn start(&'static self, make: impl FnOnce() -> MovePruner + Send + 'static) {
        if self.made.get().is_some() || self.started.swap(true, Ordering::AcqRel) {
            return;
        }
        self.maker
            .store(crate::parallel::process(), Ordering::Release);
        /// Clears `maker` when the thread ends, even by a panic, so no caller waits on it.
        struct Done(&'static AtomicU64);
        impl Drop for Done {
            fn drop(&mut self) {
                self.0.store(0, Ordering::Release);
            }
        }
        let spawned = std::thread::Builder::new()
            .name("npuzzle-move-pruner".into())
            .spawn(move || {
                let _done = Done(&self.maker);
                self.made.publish(None, make());
            });
        if spawned.is_err() {
            self.maker.store(0, Ordering::Release);
        }
    }
}

/// How many sizes of board have an automaton of their own (see [`MovePruner::for_shape`]).
const SIZES: usize = 4;

/// The size for a board, or a blank path, of at most `side` columns and rows: 0 for 3 (or
/// fewer), 1 for 4, 2 for 5, 3 for anything larger.
fn size_of_side(side: usize) -> usize {
    side.clamp(3, 3 + SIZES - 1) - 3
}

/// The size of boards of `shape` (by their longer side: the strings that fit are the same
/// for a board and its transpose).
fn size_of_shape(shape: Shape) -> usize {
    size_of_side(shape.width().max(shape.height()))
}

/// How many columns or rows a blank path in judge letters spans, whichever is more.
fn side(letters: &[u8]) -> usize {
    let (mut x, mut y, mut bounds) = (0i32, 0i32, [0i32; 4]);
    for &b in letters {
        match b {
            b'u' => y -= 1,
            b'd' => y += 1,
            b'l' => x -= 1,
            _ => x += 1,
        }
        bounds = [
            bounds[0].min(x),
            bounds[1].min(y),
            bounds[2].max(x),
            bounds[3].max(y),
        ];
    }
    1 + (bounds[2] - bounds[0]).max(bounds[3] - bounds[1]) as usize
}

/// The shipped list's lines, in judge letters (`lines` also takes a checkout's `\r\n`).
fn shipped_lines() -> impl Iterator<Item = &'static [u8]> {
    SHIPPED.lines().map(str::as_bytes).filter(|l| !l.is_empty())
}

#[cfg(test)]
/// The shipped strings as move indexes.
fn shipped_strings() -> impl Iterator<Item = Vec<u8>> {
    shipped_lines().map(|l| l.iter().map(|&b| move_index(b)).collect())
}

/// The Aho–Corasick automaton over `strings` (each a sequence of move indexes, 0 to 3):
/// transitions per state, [`PRUNED`] where a string completes, states numbered breadth-first
/// from [`START`]. Built straight from the strings, with no copy of them: about 18 ms for
/// 4×4's 27.6k strings, 77 ms for 5×5's 104k, 84 ms for all 139k.
fn automaton<S, M>(strings: S) -> Vec<[u32; 4]>
where
    S: IntoIterator<Item = M>,
    M: IntoIterator<Item = u8>,
{
    const NONE: u32 = u32::MAX;
    // The trie, states numbered as they are made.
    let mut goto: Vec<[u32; 4]> = vec![[NONE; 4]];
    let mut terminal = vec![false];
    for string in strings {
        let mut q = 0usize;
        for m in string {
            debug_assert!(m < 4, "move index {m}");
            let m = m as usize & 3;
            if goto[q][m] == NONE {
                goto[q][m] = goto.len() as u32;
                goto.push([NONE; 4]);
                terminal.push(false);
            }
            q = goto[q][m] as usize;
        }
        terminal[q] = true;
    }
    // Breadth-first, numbering the states anew as they are reached (so that `next` is
    // written in order), with failure links and full transitions. A state that completes a
    // string is never entered (every move into it is pruned), so it gets no row: 22 % of
    // the rows of 5×5's automaton.
    let mut order: Vec<u32> = vec![0];
    let mut fail: Vec<u32> = vec![0];
    let mut next: Vec<[u32; 4]> = Vec::with_capacity(goto.len());
    let mut i = 0;
    while i < order.len() {
        let (q, f) = (order[i] as usize, fail[i] as usize);
        let row = std::array::from_fn(|m| {
            let back = if i == 0 { START } else { next[f][m] };
            match goto[q][m] {
                NONE => back,
                c if terminal[c as usize] || back == PRUNED => PRUNED,
                c => {
                    order.push(c);
                    fail.push(back);
                    (order.len() - 1) as u32
                }
            }
        });
        next.push(row);
        i += 1;
    }
    next
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Move, Shape};
    use std::collections::HashMap;

    /// Runs `moves` through the automaton; true when none is pruned.
    fn accepted(p: &MovePruner, moves: &[u8]) -> bool {
        let mut q = START;
        moves.iter().all(|&m| {
            q = p.step(q, m as usize);
            q != PRUNED
        })
    }

    /// Redundant strings as the shipped file lists them: by the size of board they fit (see
    /// [`MovePruner::for_shape`]), then by length, then alphabetically.
    fn as_text(strings: &HashSet<Vec<u8>>) -> String {
        let mut lines: Vec<String> = strings
            .iter()
            .map(|s| s.iter().map(|&m| b"udlr"[m as usize] as char).collect())
            .collect();
        let size = |l: &String| size_of_side(side(l.as_bytes()));
        lines.sort_by(|a, b| (size(a), a.len(), a).cmp(&(size(b), b.len(), b)));
        lines.join("\n") + "\n"
    }

    /// The shipped list is what learning produces. Learning the strings up to 12 moves takes
    /// about a second, and the layers up to 12 do not depend on the longest length.
    #[test]
    fn shipped_list_starts_with_what_learning_finds() {
        let learned = learning::redundant_strings(12);
        let shipped: HashSet<Vec<u8>> = shipped_strings().filter(|s| s.len() <= 12).collect();
        assert_eq!(learned, shipped);
        assert!(shipped_strings().any(|s| s.len() == SHIPPED_LONGEST));
    }

    /// The whole list (about a minute and 4.7 GB in a release build):
    /// `cargo test --release -p npuzzle shipped_list_is_complete -- --ignored`; with
    /// `NPUZZLE_WRITE_REDUNDANT_MOVES=1` it rewrites `redundant_moves.txt` instead.
    #[test]
    #[ignore]
    fn shipped_list_is_complete() {
        let text = as_text(&learning::redundant_strings(SHIPPED_LONGEST));
        if std::env::var_os("NPUZZLE_WRITE_REDUNDANT_MOVES").is_some() {
            let path = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/search/move_pruning/redundant_moves.txt"
            );
            std::fs::write(path, &text).unwrap();
        }
        assert_eq!(text, SHIPPED);
    }

    /// The list is what `for_shape` takes it to be: judge letters only, ordered by size (so
    /// that a size's strings are the first lines), then length, then letters, and no string
    /// contains another; and every size's automaton accepts each string that fits up to its
    /// last move and prunes that move, and prunes none of a string that does not fit.
    #[test]
    fn every_shipped_string_is_pruned_where_it_fits_and_nowhere_else() {
        let lines: Vec<&[u8]> = shipped_lines().collect();
        assert!(lines.iter().all(|l| l.iter().all(|b| b"udlr".contains(b))));
        let key = |l: &&[u8]| (size_of_side(side(l)), l.len(), l.to_vec());
        assert!(lines.is_sorted_by_key(key), "the list is not in size order");
        for size in 0..SIZES {
            let shape = Shape::new(size + 3, size + 3).unwrap();
            let p = MovePruner::for_shape(shape);
            for l in &lines {
                let moves: Vec<usize> = l.iter().map(|&b| move_index(b) as usize).collect();
                let (last, before) = moves.split_last().unwrap();
                let q = before.iter().try_fold(START, |q, &m| match p.step(q, m) {
                    PRUNED => None,
                    next => Some(next),
                });
                let q = q.unwrap_or_else(|| panic!("a proper prefix of {l:?} is pruned"));
                let fits = size == SIZES - 1 || side(l) <= size + 3;
                assert_eq!(p.step(q, *last) == PRUNED, fits, "{:?} on {shape}", l);
            }
        }
    }

    /// Each size's automaton prunes a move exactly when it completes a shipped string that
    /// fits its boards: checked at every move along random walks of accepted moves (which
    /// reach deep states), against the list itself.
    #[test]
    fn the_automaton_prunes_exactly_the_shipped_strings_that_fit() {
        use rand::{SeedableRng, rngs::SmallRng};
        let fits = |l: &[u8], sides: usize| side(l) <= sides;
        for (sides, shape) in [(3, (3, 2)), (4, (4, 4)), (5, (3, 5)), (usize::MAX, (8, 4))] {
            let strings: HashSet<Vec<u8>> = shipped_lines()
                .filter(|l| fits(l, sides))
                .map(|l| l.iter().map(|&b| move_index(b)).collect())
                .collect();
            let p = MovePruner::for_shape(Shape::new(shape.0, shape.1).unwrap());
            prunes_exactly(p, &strings, &mut SmallRng::seed_from_u64(7));
        }
        let fitting = |sides| shipped_lines().filter(|l| fits(l, sides)).count();
        assert_eq!(
            [fitting(3), fitting(4), fitting(5), shipped_lines().count()],
            [1704, 27588, 104324, 138856]
        );
    }

    fn prunes_exactly(p: &MovePruner, strings: &HashSet<Vec<u8>>, rng: &mut impl rand::Rng) {
        let longest = strings.iter().map(Vec::len).max().unwrap();
        for _ in 0..100 {
            let (mut walked, mut q) = (Vec::new(), START);
            for _ in 0..60 {
                let mut accepted = Vec::new();
                for m in 0..4u8 {
                    walked.push(m);
                    let n = walked.len();
                    let completes =
                        (n.saturating_sub(longest)..n).any(|i| strings.contains(&walked[i..]));
                    walked.pop();
                    let next = p.step(q, m as usize);
                    assert_eq!(next == PRUNED, completes, "after {walked:?}, move {m}");
                    if next != PRUNED {
                        accepted.push((m, next));
                    }
                }
                if accepted.is_empty() {
                    break;
                }
                let (m, next) = accepted[rng.random_range(0..accepted.len())];
                walked.push(m);
                q = next;
            }
        }
    }

    #[test]
    fn rejects_reversals_and_the_long_way_round_a_square() {
        let p = MovePruner::learn(8);
        for m in 0..4u8 {
            assert!(!accepted(&p, &[m, m ^ 1]));
        }
        // right, down, left, up, ... : seven quarter turns round a 2×2 block.
        let round = [3u8, 1, 2, 0, 3, 1, 2];
        assert!(accepted(&p, &round[..5]));
        assert!(!accepted(&p, &round));
        assert!(accepted(&p, &[3, 3, 1, 1, 2, 0]));
    }

    /// A cheap automaton for the slot tests (the move straight back only).
    fn small() -> MovePruner {
        MovePruner::learn(2)
    }

    #[test]
    fn a_caller_waits_for_the_background_thread_instead_of_making_a_second_copy() {
        static SLOT: Slot = Slot::new();
        SLOT.start(|| {
            std::thread::sleep(std::time::Duration::from_millis(50));
            small()
        });
        let got = SLOT.get(|| panic!("made a second copy while the thread was at work"));
        assert!(std::ptr::eq(got, SLOT.made.get().unwrap()));
        assert_eq!(got.step(START, 0), small().step(START, 0));
        // Asking again starts nothing and returns the same automaton.
        SLOT.start(|| panic!("a second thread"));
        assert!(std::ptr::eq(SLOT.get(|| panic!("made again")), got));
    }

    #[test]
    fn a_forked_child_makes_its_own_automaton_instead_of_waiting_for_its_parents_thread() {
        // What a child forked while its parent's thread was at work sees: a thread asked for,
        // made by another process, and nothing made.
        static SLOT: Slot = Slot::new();
        SLOT.started.store(true, Ordering::Release);
        SLOT.maker
            .store(crate::parallel::process() + 1, Ordering::Release);
        let since = std::time::Instant::now();
        let got = SLOT.get(small);
        assert!(
            since.elapsed() < Slot::PATIENCE,
            "waited for a thread it does not have"
        );
        assert!(std::ptr::eq(got, SLOT.made.get().unwrap()));
        SLOT.start(|| panic!("a second thread"));
    }

    #[test]
    fn a_background_thread_that_fails_leaves_the_caller_to_make_the_automaton() {
        static SLOT: Slot = Slot::new();
        SLOT.start(|| panic!("the background thread fails (this panic is the test's)"));
        let got = SLOT.get(small);
        assert_eq!(got.step(START, 0), small().step(START, 0));
        assert_eq!(SLOT.maker.load(Ordering::Acquire), 0);
    }

    /// On a small board, every state within the depth is still reached by some accepted path
    /// of optimal length: breadth-first search over accepted paths gives the true distances.
    #[test]
    fn keeps_an_optimal_path_to_every_state() {
        for (w, h) in [(3, 3), (2, 4), (4, 3), (4, 4), (5, 3), (6, 3)] {
            let goal = Board::goal(Shape::new(w, h).unwrap());
            let p = MovePruner::for_shape(goal.shape());
            // True distances by plain BFS.
            let mut dist: HashMap<Board, u32> = HashMap::from([(goal.clone(), 0)]);
            let mut frontier = vec![goal.clone()];
            for d in 1..=SHIPPED_LONGEST as u32 {
                let mut next = vec![];
                for b in &frontier {
                    for m in Move::ALL {
                        let mut c = b.clone();
                        if c.apply(m) && !dist.contains_key(&c) {
                            dist.insert(c.clone(), d);
                            next.push(c);
                        }
                    }
                }
                frontier = next;
            }
            // Depth-first over accepted paths, recording the shallowest depth of each state.
            let mut best: HashMap<Board, u32> = HashMap::new();
            fn walk(
                p: &MovePruner,
                b: &mut Board,
                q: u32,
                depth: u32,
                best: &mut HashMap<Board, u32>,
            ) {
                let e = best.entry(b.clone()).or_insert(u32::MAX);
                *e = (*e).min(depth);
                if depth == SHIPPED_LONGEST as u32 {
                    return;
                }
                for m in Move::ALL {
                    let nq = p.step(q, m.index());
                    if nq == PRUNED {
                        continue;
                    }
                    if b.apply(m) {
                        walk(p, b, nq, depth + 1, best);
                        b.apply(m.inverse());
                    }
                }
            }
            let mut b = goal.clone();
            walk(p, &mut b, START, 0, &mut best);
            for (board, d) in &dist {
                assert_eq!(best.get(board), Some(d), "{w}x{h} {board:?}");
            }
        }
    }
}
