//! Learning the redundant blank-move strings (test-only: the list ships with the crate).
//!
//! Why a module of its own: the rule is short (see the parent module), but finding every
//! redundant string of up to 16 moves means comparing tens of millions of strings' effects,
//! and the first learner, which kept every string and its effect as vectors, ran out of 24 GB
//! past 14 moves. This one keeps a string as 2 bits a move and its effect as a 64-bit
//! fingerprint, and confirms every fingerprint match by replaying the earlier string and
//! comparing effects exactly, so a fingerprint collision can never make a string redundant
//! that is not (nor hide a twin: strings of one fingerprint share a chain).
//!
//! **Order.** Strings are taken by length, and within a length in move order (`u`, `d`, `l`,
//! `r`: the order of the move indexes, not the letters'), so "earlier" means shorter, or as
//! long and earlier in that order. Each length is one depth-first pass over the strings that
//! contain no redundant string yet found (an Aho–Corasick automaton over the shorter redundant
//! strings tells), whose leaves come in that order; the effects of every earlier string are
//! kept between passes.

use super::{PRUNED, START, automaton};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Side of the square grid walked on. The blank starts at its centre, so no string of up to
/// [`LONGEST`] moves reaches an edge.
const SIDE: usize = 64;
/// Longest strings this learner takes: 2 bits a move fit 32 moves in a `u64`, and the blank
/// may walk 31 cells from the grid's centre before it would reach an edge.
pub(super) const LONGEST: usize = 31;
/// The blank's starting cell.
const ORIGIN: usize = (SIDE / 2) * SIDE + SIDE / 2;
/// How the blank's cell changes with move index `m` (up, down, left, right).
const OFFSET: [isize; 4] = [-(SIDE as isize), SIDE as isize, -1, 1];

/// A fingerprint of one displaced content: `content` (its original cell) standing on `cell`.
fn term(cell: usize, content: u16) -> u64 {
    // splitmix64's finaliser over the pair.
    let mut z = (cell as u64) << 16 | content as u64;
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The grid under a string of moves: which original cell's content stands on each cell, and
/// the fingerprint of the effect (the XOR of [`term`] over the cells whose content moved).
struct Grid {
    content: Vec<u16>,
    blank: usize,
    fingerprint: u64,
}

impl Grid {
    fn new() -> Grid {
        Grid {
            content: (0..SIDE * SIDE).map(|c| c as u16).collect(),
            blank: ORIGIN,
            fingerprint: 0,
        }
    }

    fn put(&mut self, cell: usize, content: u16) {
        let old = self.content[cell];
        if old as usize != cell {
            self.fingerprint ^= term(cell, old);
        }
        if content as usize != cell {
            self.fingerprint ^= term(cell, content);
        }
        self.content[cell] = content;
    }

    /// Moves the blank by move index `m`; the same call with the reverse move undoes it.
    fn step(&mut self, m: usize) {
        let to = self.blank.wrapping_add_signed(OFFSET[m]);
        let (tile, blank) = (self.content[to], self.content[self.blank]);
        self.put(self.blank, tile);
        self.put(to, blank);
        self.blank = to;
    }

    /// The displaced contents among `cells` (every cell a string's blank visited), sorted.
    fn effect(&self, cells: &[usize]) -> Vec<(usize, u16)> {
        let mut e: Vec<(usize, u16)> = cells
            .iter()
            .filter(|&&c| self.content[c] as usize != c)
            .map(|&c| (c, self.content[c]))
            .collect();
        e.sort_unstable();
        e.dedup();
        e
    }
}

/// Bounding box of a blank path: least column, least row, greatest column, greatest row.
type Bounds = [u8; 4];

fn inside(a: &Bounds, b: &Bounds) -> bool {
    a[0] >= b[0] && a[1] >= b[1] && a[2] <= b[2] && a[3] <= b[3]
}

/// A string: its moves, 2 bits each, the first in the lowest bits.
#[derive(Clone, Copy)]
struct Packed {
    moves: u64,
    len: u8,
}

impl Packed {
    fn moves(self) -> impl Iterator<Item = usize> {
        (0..self.len).map(move |i| (self.moves >> (2 * i)) as usize & 3)
    }
}

/// An earlier string with some effect: the string, its bounding box, and the next string
/// whose effect has the same fingerprint.
#[derive(Clone, Copy)]
struct Twin {
    string: Packed,
    bounds: Bounds,
    next: u32,
}

/// The effects' fingerprints are already hashes: used as they are.
#[derive(Default)]
struct Fingerprint(u64);

impl Hasher for Fingerprint {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("only u64 keys")
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// Every earlier string, by its effect's fingerprint.
struct Earlier {
    first: HashMap<u64, u32, BuildHasherDefault<Fingerprint>>,
    twins: Vec<Twin>,
    /// A grid to replay a candidate twin on.
    scratch: Grid,
}

impl Earlier {
    /// Whether an earlier string whose blank path stays within `bounds` has the effect of
    /// `string`, just walked on `grid` (its blank on the cells `visited`); if none has,
    /// `string` joins the earlier ones.
    fn earlier_twin_else_record(
        &mut self,
        grid: &Grid,
        visited: &[usize],
        string: Packed,
        bounds: Bounds,
    ) -> bool {
        let mut at = self.first.get(&grid.fingerprint).copied();
        let mut effect = None;
        while let Some(i) = at {
            let Twin {
                string: theirs,
                bounds: box_,
                next,
            } = self.twins[i as usize];
            if inside(&box_, &bounds) {
                let mine = effect.get_or_insert_with(|| grid.effect(visited));
                if self.same_effect(theirs, mine) {
                    return true;
                }
            }
            at = (next != u32::MAX).then_some(next);
        }
        let next = self.first.insert(grid.fingerprint, self.twins.len() as u32);
        self.twins.push(Twin {
            string,
            bounds,
            next: next.unwrap_or(u32::MAX),
        });
        false
    }

    /// Whether `string`, replayed from the start, has exactly `effect`.
    fn same_effect(&mut self, string: Packed, effect: &[(usize, u16)]) -> bool {
        let mut visited = vec![ORIGIN];
        for m in string.moves() {
            self.scratch.step(m);
            visited.push(self.scratch.blank);
        }
        let same = self.scratch.effect(&visited) == effect;
        for m in string.moves().collect::<Vec<_>>().into_iter().rev() {
            self.scratch.step(m ^ 1);
        }
        same
    }
}

/// One pass's depth-first walk over the strings of one length.
struct Pass<'a> {
    automaton: &'a [[u32; 4]],
    length: usize,
    grid: Grid,
    /// The blank's cells so far, the start's first.
    visited: Vec<usize>,
    earlier: &'a mut Earlier,
    found: Vec<Packed>,
}

impl Pass<'_> {
    fn walk(&mut self, string: Packed, state: u32) {
        for m in 0..4 {
            let next = self.automaton[state as usize][m];
            if next == PRUNED {
                continue;
            }
            self.grid.step(m);
            self.visited.push(self.grid.blank);
            let longer = Packed {
                moves: string.moves | (m as u64) << (2 * string.len),
                len: string.len + 1,
            };
            if longer.len as usize == self.length {
                let bounds = self.bounds();
                if self
                    .earlier
                    .earlier_twin_else_record(&self.grid, &self.visited, longer, bounds)
                {
                    self.found.push(longer);
                }
            } else {
                self.walk(longer, next);
            }
            self.visited.pop();
            self.grid.step(m ^ 1);
        }
    }

    fn bounds(&self) -> Bounds {
        self.visited.iter().fold([u8::MAX, u8::MAX, 0, 0], |b, &c| {
            let (x, y) = ((c % SIDE) as u8, (c / SIDE) as u8);
            [b[0].min(x), b[1].min(y), b[2].max(x), b[3].max(y)]
        })
    }
}

/// Every redundant string of at most `longest` moves (at most [`LONGEST`]; see the parent
/// module's documentation for the rule).
pub(super) fn redundant_strings(longest: usize) -> HashSet<Vec<u8>> {
    assert!(longest <= LONGEST, "strings of at most {LONGEST} moves");
    let mut earlier = Earlier {
        first: HashMap::default(),
        twins: Vec::new(),
        scratch: Grid::new(),
    };
    // The empty string, before every other.
    let start = Grid::new();
    let empty = Packed { moves: 0, len: 0 };
    let origin = [(ORIGIN % SIDE) as u8, (ORIGIN / SIDE) as u8];
    let bounds = [origin[0], origin[1], origin[0], origin[1]];
    earlier.earlier_twin_else_record(&start, &[ORIGIN], empty, bounds);
    let mut redundant: HashSet<Vec<u8>> = HashSet::new();
    for length in 1..=longest {
        let automaton = automaton(redundant.iter().map(|s| s.iter().copied()));
        let mut pass = Pass {
            automaton: &automaton,
            length,
            grid: Grid::new(),
            visited: vec![ORIGIN],
            earlier: &mut earlier,
            found: Vec::new(),
        };
        pass.walk(empty, START);
        redundant.extend(
            pass.found
                .iter()
                .map(|s| s.moves().map(|m| m as u8).collect::<Vec<u8>>()),
        );
    }
    redundant
}
