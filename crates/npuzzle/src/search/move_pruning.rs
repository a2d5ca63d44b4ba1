//! Duplicate-path pruning for depth-first searches: a finite automaton over blank moves that
//! rejects any move completing a sequence known to be redundant.
//!
//! Why: IDA* keeps no table of visited states, so besides the move straight back to the parent
//! it re-walks many short detours that end in a state some other path reaches no later, the
//! commonest being the blank circling a 2×2 block (seven quarter turns one way equal five the
//! other; six either way are the same board). Those subtrees are pure waste.
//!
//! **Learning.** A breadth-first enumeration of move strings on an unbounded grid, in
//! lexicographic order within each length, records each string's effect (which cells end up
//! holding which original contents). A string whose effect an earlier string already has is
//! *redundant* when the earlier one's blank path stays inside the later one's bounding box, so
//! it is legal on every board position where the later one is. Strings containing a redundant
//! string are never extended.
//!
//! **Why pruning stays optimal.** Replacing a redundant substring by its earlier twin gives a
//! path to the same state that is shorter, or as long and lexicographically smaller, and still
//! on the board. Repeating that must stop, at a path of no greater length containing no
//! redundant string, which the automaton never prunes. So some optimal solution survives, and
//! IDA* with its usual bounds still returns an optimal one.
//!
//! **Searching.** The redundant strings go into an Aho–Corasick automaton; a search carries one
//! automaton state per node and follows one table entry per move. Reversals (`ud`, `lr`, …) are
//! redundant strings too, so the automaton subsumes the parent-move check.

#[cfg(test)]
use std::collections::HashMap;
use std::collections::HashSet;
use std::sync::OnceLock;

/// Automaton state of a fresh search (no moves yet).
pub const START: u32 = 0;
/// Transition value meaning "this move completes a redundant sequence: prune it".
pub const PRUNED: u32 = u32::MAX;

#[cfg(test)]
/// Blank displacement of move index `m` (up, down, left, right), as (column, row).
const STEP: [(i8, i8); 4] = [(0, -1), (0, 1), (-1, 0), (1, 0)];

/// The automaton (see the module documentation).
#[derive(Debug)]
pub struct MovePruner {
    next: Vec<[u32; 4]>,
}

#[cfg(test)]
/// A cell of the unbounded grid, relative to the blank's starting cell.
type Cell = (i8, i8);

#[cfg(test)]
/// Bounding box of a blank path: min column, min row, max column, max row.
type Bounds = [i8; 4];

#[cfg(test)]
fn inside(a: &Bounds, b: &Bounds) -> bool {
    a[0] >= b[0] && a[1] >= b[1] && a[2] <= b[2] && a[3] <= b[3]
}

#[cfg(test)]
/// One string being extended: where each displaced content now sits.
#[derive(Clone)]
struct Walk {
    moves: Vec<u8>,
    /// `(cell, original cell of its content)` for every cell whose content moved.
    moved: Vec<(Cell, Cell)>,
    blank: Cell,
    bounds: Bounds,
}

#[cfg(test)]
impl Walk {
    fn content(&self, cell: Cell) -> Cell {
        self.moved
            .iter()
            .find(|(c, _)| *c == cell)
            .map_or(cell, |&(_, src)| src)
    }

    fn set(&mut self, cell: Cell, src: Cell) {
        self.moved.retain(|(c, _)| *c != cell);
        if src != cell {
            self.moved.push((cell, src));
        }
    }

    fn step(&self, m: usize) -> Walk {
        let (dx, dy) = STEP[m];
        let to = (self.blank.0 + dx, self.blank.1 + dy);
        let mut w = self.clone();
        w.moves.push(m as u8);
        let tile = self.content(to);
        let blank_src = self.content(self.blank);
        w.set(self.blank, tile);
        w.set(to, blank_src);
        w.blank = to;
        w.bounds = [
            w.bounds[0].min(to.0),
            w.bounds[1].min(to.1),
            w.bounds[2].max(to.0),
            w.bounds[3].max(to.1),
        ];
        w
    }

    fn effect(&self) -> Vec<(Cell, Cell)> {
        let mut e = self.moved.clone();
        e.sort_unstable();
        e
    }
}

impl MovePruner {
    #[cfg(test)]
    /// Learns every redundant string of at most `longest` moves (capped at
    /// [`MAX_LEARNED_LENGTH`]: the work grows about 12-fold per two moves) and builds the
    /// automaton.
    pub fn learn(longest: usize) -> MovePruner {
        let longest = longest.min(MAX_LEARNED_LENGTH);
        let redundant = learn_strings(longest);
        MovePruner {
            next: automaton(&redundant),
        }
    }

    /// The automaton for every redundant string of up to 12 moves. Learning
    /// them takes seconds, so the list ships with the crate (`redundant_moves.txt`, checked
    /// against `MovePruner::learn` by the tests) and only the automaton is built, once per
    /// process, in about a millisecond.
    pub fn standard() -> &'static MovePruner {
        static STANDARD: OnceLock<MovePruner> = OnceLock::new();
        STANDARD.get_or_init(|| {
            let strings: HashSet<Vec<u8>> = shipped_strings().collect();
            MovePruner {
                next: automaton(&strings),
            }
        })
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
}

#[cfg(test)]
/// Longest strings [`MovePruner::learn`] considers (14 moves take about 40 s and 85k automaton
/// states; more would take minutes and gigabytes).
pub const MAX_LEARNED_LENGTH: usize = 14;

/// Longest redundant string [`MovePruner::standard`] knows.
#[cfg(test)]
pub const STANDARD_LENGTH: usize = 12;

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

fn shipped_strings() -> impl Iterator<Item = Vec<u8>> {
    SHIPPED
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.bytes().map(move_index).collect())
}

#[cfg(test)]
/// Every redundant string of at most `longest` moves (see the module documentation).
fn learn_strings(longest: usize) -> HashSet<Vec<u8>> {
    let mut seen: HashMap<Vec<(Cell, Cell)>, Vec<Bounds>> = HashMap::new();
    let mut redundant: HashSet<Vec<u8>> = HashSet::new();
    let root = Walk {
        moves: Vec::new(),
        moved: Vec::new(),
        blank: (0, 0),
        bounds: [0; 4],
    };
    seen.insert(root.effect(), vec![root.bounds]);
    let mut layer = vec![root];
    for _ in 0..longest {
        let mut next = Vec::new();
        for w in &layer {
            for m in 0..4 {
                let t = w.step(m);
                // Substrings ending earlier were checked when `w` was made.
                if (1..t.moves.len()).any(|i| redundant.contains(&t.moves[i..])) {
                    continue;
                }
                let twins = seen.entry(t.effect()).or_default();
                if twins.iter().any(|b| inside(b, &t.bounds)) {
                    redundant.insert(t.moves);
                    continue;
                }
                twins.push(t.bounds);
                next.push(t);
            }
        }
        layer = next;
    }
    redundant
}

/// Aho–Corasick over `strings`: transitions per state, [`PRUNED`] where a string completes.
fn automaton(strings: &HashSet<Vec<u8>>) -> Vec<[u32; 4]> {
    const NONE: u32 = u32::MAX - 1;
    let mut goto: Vec<[u32; 4]> = vec![[NONE; 4]];
    let mut terminal = vec![false];
    let mut sorted: Vec<&Vec<u8>> = strings.iter().collect();
    sorted.sort();
    for s in sorted {
        let mut q = 0usize;
        for &m in s {
            let m = m as usize;
            if goto[q][m] == NONE {
                goto[q][m] = goto.len() as u32;
                goto.push([NONE; 4]);
                terminal.push(false);
            }
            q = goto[q][m] as usize;
        }
        terminal[q] = true;
    }
    // Breadth-first: failure links and full transitions.
    let mut fail = vec![0u32; goto.len()];
    let mut next = vec![[0u32; 4]; goto.len()];
    let mut queue = std::collections::VecDeque::new();
    for m in 0..4 {
        match goto[0][m] {
            NONE => next[0][m] = 0,
            c => {
                next[0][m] = c;
                fail[c as usize] = 0;
                queue.push_back(c);
            }
        }
    }
    while let Some(q) = queue.pop_front() {
        let q = q as usize;
        terminal[q] |= terminal[fail[q] as usize];
        for m in 0..4 {
            match goto[q][m] {
                NONE => next[q][m] = next[fail[q] as usize][m],
                c => {
                    next[q][m] = c;
                    fail[c as usize] = next[fail[q] as usize][m];
                    queue.push_back(c);
                }
            }
        }
    }
    for row in next.iter_mut() {
        for t in row.iter_mut() {
            if terminal[*t as usize] {
                *t = PRUNED;
            }
        }
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

    /// Redundant strings as the shipped file lists them: by length, then alphabetically.
    fn as_text(strings: &HashSet<Vec<u8>>) -> String {
        let mut lines: Vec<String> = strings
            .iter()
            .map(|s| s.iter().map(|&m| b"udlr"[m as usize] as char).collect())
            .collect();
        lines.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
        lines.join("\n") + "\n"
    }

    /// The shipped list is what learning produces. Learning the strings up to 10 moves takes
    /// a fraction of a second, and the layers up to 10 do not depend on the longest length.
    #[test]
    fn shipped_list_starts_with_what_learning_finds() {
        let learned = learn_strings(10);
        let shipped: HashSet<Vec<u8>> = shipped_strings().filter(|s| s.len() <= 10).collect();
        assert_eq!(learned, shipped);
        assert!(shipped_strings().any(|s| s.len() == STANDARD_LENGTH));
    }

    /// The whole list (a few seconds in a release build):
    /// `cargo test --release -p npuzzle shipped_list_is_complete -- --ignored`; with
    /// `NPUZZLE_WRITE_REDUNDANT_MOVES=1` it rewrites `redundant_moves.txt` instead.
    #[test]
    #[ignore]
    fn shipped_list_is_complete() {
        let text = as_text(&learn_strings(STANDARD_LENGTH));
        if std::env::var_os("NPUZZLE_WRITE_REDUNDANT_MOVES").is_some() {
            let path = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/search/redundant_moves.txt"
            );
            std::fs::write(path, &text).unwrap();
        }
        assert_eq!(text, SHIPPED);
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

    /// On a small board, every state within the depth is still reached by some accepted path
    /// of optimal length: breadth-first search over accepted paths gives the true distances.
    #[test]
    fn keeps_an_optimal_path_to_every_state() {
        let p = MovePruner::standard();
        for (w, h) in [(3, 3), (2, 4), (4, 3)] {
            let goal = Board::goal(Shape::new(w, h).unwrap());
            // True distances by plain BFS.
            let mut dist: HashMap<Board, u32> = HashMap::from([(goal.clone(), 0)]);
            let mut frontier = vec![goal.clone()];
            for d in 1..=12 {
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
                if depth == 12 {
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
