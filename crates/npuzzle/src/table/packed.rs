//! Complete tables of 12-cell boards (3×4, 4×3, 2×6, 6×2): every state's distance
//! modulo 3, two bits a state over the dense numbering of [`crate::space`] (60 MB for 12
//! cells), built by the two-bit breadth-first search and cached on disk.
//!
//! Distance modulo 3 is enough: a move changes the distance by exactly one, so from any
//! state the neighbour whose entry is one less (modulo 3) is one move nearer the goal, and
//! walking down to the goal both finds an optimal solution and counts its length.
//!
//! The file is a 64-byte header (magic, version, size, goal blank, the number of distance
//! layers, CRC-32 of the body, CRC-32 of the header) and a body (the count of states at each
//! distance, then the entries). Loading reads it into memory and checks the header, the
//! checksum and the entries' meaning (the goal is at distance 0, the layer counts add up, and
//! sampled states have a neighbour one nearer and none as near), so a damaged or forged file is
//! rebuilt instead of trusted.

use crate::board::{BLANK, Board, Move, Shape, Tile};
use crate::heuristic::pdb::PdbError;
use crate::heuristic::pdb_file::{checked_frame, checksum, corrupt, io_err, write_whole};
use crate::space::index::{MAX_SPACE_CELLS, SpaceIndex, Spelled};
use crate::space::sweep::{Sweep, SweepEvent, TwoBits};
use crate::table::TableError;
use std::path::Path;
use std::sync::Arc;

const MAGIC: &[u8; 8] = b"NPZLTBL\x01";
const VERSION: u32 = 1;
const HEADER_LEN: usize = 64;
/// States checked for their meaning on every load.
const SEMANTIC_SAMPLES: u64 = 20_000;

/// The two-bit table of one goal blank cell, in the goal's own tile names.
#[derive(Clone, Debug)]
pub(crate) struct Packed {
    index: SpaceIndex,
    /// `relabel[t]`: the numbering's name (`1..m`) of the goal's tile `t`.
    relabel: [Tile; MAX_SPACE_CELLS],
    /// Shared by the tables of every goal with this blank cell.
    words: Arc<[u64]>,
    histogram: Arc<[u64]>,
}

impl Packed {
    /// Builds the table toward `goal` on all rayon threads, reporting to `progress`; given up
    /// when `stop` is set.
    pub(crate) fn build(
        goal: &Board,
        progress: &(dyn Fn(SweepEvent) + Sync),
        stop: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<Packed, TableError> {
        let shape = goal.shape();
        let index = SpaceIndex::for_goal(goal).ok_or(TableError::TooLarge { shape })?;
        let no_memory = || TableError::NoMemory {
            bytes: 2 * TwoBits::bytes_for(index.states()),
        };
        let marks = TwoBits::zeroed(index.states()).ok_or_else(no_memory)?;
        let distances = TwoBits::zeroed(index.states()).ok_or_else(no_memory)?;
        let layers = Sweep {
            index: &index,
            stop,
            progress,
            sample: 0,
        }
        .run(&marks, Some(&distances))
        .ok_or(TableError::Stopped)?;
        drop(marks);
        Ok(Packed {
            relabel: relabel_for(goal),
            index,
            words: distances.to_words(),
            histogram: layers.iter().map(|l| l.states).collect(),
        })
    }

    /// The same entries answering in the tile names of `goal`, when it has the table's size
    /// and blank cell.
    pub(crate) fn renamed(&self, goal: &Board) -> Option<Packed> {
        (goal.shape() == self.index.shape() && goal.blank() == self.index.goal_blank()).then(|| {
            Packed {
                relabel: relabel_for(goal),
                ..self.clone()
            }
        })
    }

    /// States at each distance.
    pub(crate) fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// Bytes the entries take.
    pub(crate) fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    /// Calls `f` with each move of an optimal solution from `cells` (the goal's tile names)
    /// and returns its length: `Ok(None)` when the board cannot reach the goal, `Err` when
    /// the walk finds the table damaged (no neighbour nearer the goal, or no end).
    pub(crate) fn walk(
        &self,
        cells: &[Tile],
        mut f: impl FnMut(Move),
    ) -> Result<Option<usize>, TableError> {
        let mut named = [BLANK; MAX_SPACE_CELLS];
        for (slot, &t) in named.iter_mut().zip(cells) {
            match self.relabel.get(t as usize) {
                Some(&r) => *slot = r,
                None => return Ok(None),
            }
        }
        let Some(mut s) = self.index.spell_cells(&named[..cells.len()]) else {
            return Ok(None);
        };
        let mut i = self.index.index_of_spelled(&s);
        let goal = self.index.goal_index();
        let mut steps = 0;
        while i != goal {
            let (m, next, j) = self.nearer(&s, i).ok_or(TableError::Damaged)?;
            f(m);
            s = next;
            i = j;
            steps += 1;
            // A valid table never needs this: it stops a damaged one from walking forever.
            if steps > self.histogram.len() {
                return Err(TableError::Damaged);
            }
        }
        Ok(Some(steps))
    }

    /// Checks every state as [`Packed::check_semantics`] checks a sample (seconds on all
    /// cores): together these prove each entry is its state's distance modulo 3, since a
    /// labelling in which neighbours differ by one and every state but the goal has a
    /// neighbour one lower is the distance itself.
    pub(crate) fn check_every_state(&self) -> Result<(), String> {
        use rayon::prelude::*;
        const CHUNK: u64 = 1 << 20;
        let states = self.index.states();
        crate::parallel::run(|| {
            (0..states.div_ceil(CHUNK))
                .into_par_iter()
                .try_for_each(|c| {
                    (c * CHUNK..((c + 1) * CHUNK).min(states)).try_for_each(|i| self.check_state(i))
                })
        })
    }

    /// The local rule at state `i`: an entry, no neighbour at the same distance, and (unless
    /// it is the goal) a neighbour one nearer.
    fn check_state(&self, i: u64) -> Result<(), String> {
        let v = TwoBits::get(&self.words, i);
        if v == 3 {
            return Err(format!("state {i} has no distance"));
        }
        let s = self.index.spell(i);
        let mut nearer = false;
        for m in Move::ALL {
            if let Some(n) = self.index.step(&s, m) {
                let w = TwoBits::get(&self.words, self.index.index_of_spelled(&n));
                if w == v {
                    return Err(format!("state {i} and a neighbour share a distance"));
                }
                nearer |= w == (v + 2) % 3;
            }
        }
        if !nearer && i != self.index.goal_index() {
            return Err(format!("state {i} has no neighbour nearer the goal"));
        }
        Ok(())
    }

    /// The move from state `s` (index `i`) to a neighbour one nearer the goal.
    #[inline]
    fn nearer(&self, s: &Spelled, i: u64) -> Option<(Move, Spelled, u64)> {
        let want = (TwoBits::get(&self.words, i) + 2) % 3;
        Move::ALL.into_iter().find_map(|m| {
            let next = self.index.step(s, m)?;
            let j = self.index.index_of_spelled(&next);
            (TwoBits::get(&self.words, j) == want).then_some((m, next, j))
        })
    }

    /// Writes the table to `path` (through a temporary file and a rename).
    pub(crate) fn save(&self, path: &Path) -> Result<(), PdbError> {
        let mut body = Vec::with_capacity(self.histogram.len() * 8 + self.words.len() * 8);
        for &c in self.histogram.iter() {
            body.extend_from_slice(&c.to_le_bytes());
        }
        for &w in self.words.iter() {
            body.extend_from_slice(&w.to_le_bytes());
        }
        let mut h = [0u8; HEADER_LEN];
        h[..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12] = self.index.shape().width() as u8;
        h[13] = self.index.shape().height() as u8;
        h[14] = self.index.goal_blank() as u8;
        h[15] = self.histogram.len() as u8;
        h[16..24].copy_from_slice(&self.index.states().to_le_bytes());
        h[56..60].copy_from_slice(&checksum(&body).to_le_bytes());
        let header_crc = crc32fast::hash(&h[..60]);
        h[60..64].copy_from_slice(&header_crc.to_le_bytes());
        write_whole(path, &[&h, &body])
    }

    /// Reads and checks the table at `path`; when `goal` is given, the file must be the one
    /// for its size and blank cell, and the table answers in its tile names.
    pub(crate) fn load(path: &Path, goal: Option<&Board>) -> Result<Packed, PdbError> {
        let meta = std::fs::metadata(path).map_err(|e| io_err(path, e))?;
        if !meta.is_file() {
            return Err(corrupt(path, "not a regular file"));
        }
        // The header first: the body is read only once its length is the one the header
        // calls for, so a junk file of any size costs no more than a header's read.
        let mut file = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
        let mut head = [0u8; HEADER_LEN];
        std::io::Read::read_exact(&mut file, &mut head)
            .map_err(|_| corrupt(path, "shorter than a header: truncated"))?;
        let h = checked_frame(path, &head, MAGIC, "complete table", VERSION)?;
        let shape =
            Shape::new(h[12] as usize, h[13] as usize).map_err(|e| corrupt(path, e.to_string()))?;
        let index = SpaceIndex::new(shape, h[14] as usize)
            .filter(|_| crate::table::Table::supports(shape))
            .ok_or_else(|| corrupt(path, "unsupported size or blank cell"))?;
        if let Some(g) = goal
            && (g.shape() != shape || g.blank() != index.goal_blank())
        {
            return Err(corrupt(path, "holds the table of another size or goal"));
        }
        let layers = h[15] as usize;
        let states = u64::from_le_bytes(h[16..24].try_into().unwrap_or_default());
        let words = TwoBits::bytes_for(index.states()) / 8;
        let wanted = layers as u64 * 8 + words * 8;
        let found = meta.len().saturating_sub(HEADER_LEN as u64);
        if states != index.states() || found != wanted {
            return Err(corrupt(
                path,
                format!(
                    "{found} bytes after the header where it calls for {wanted}: truncated or padded"
                ),
            ));
        }
        let mut body = vec![0u8; wanted as usize];
        std::io::Read::read_exact(&mut file, &mut body)
            .map_err(|_| corrupt(path, "shorter than its header says: truncated"))?;
        let body = &body[..];
        if checksum(body) != u32::from_le_bytes([h[56], h[57], h[58], h[59]]) {
            return Err(corrupt(
                path,
                "entries checksum mismatch: the file is corrupted",
            ));
        }
        let histogram: Arc<[u64]> = body[..layers * 8]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect();
        let words: Arc<[u64]> = body[layers * 8..]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()))
            .collect();
        let packed = Packed {
            relabel: relabel_for(&goal.cloned().unwrap_or_else(|| index_goal(&index))),
            index,
            words,
            histogram,
        };
        packed.check_semantics().map_err(|why| corrupt(path, why))?;
        Ok(packed)
    }

    /// The goal of the numbering (tiles in order, the blank at the goal's blank cell).
    pub(crate) fn goal(&self) -> Board {
        index_goal(&self.index)
    }

    /// Checks what the entries mean: the goal is at distance 0, the layer counts add up to
    /// every state, and sampled states each have a neighbour one nearer the goal and none at
    /// their own distance.
    fn check_semantics(&self) -> Result<(), String> {
        let goal = self.index.goal_index();
        if TwoBits::get(&self.words, goal) != 0 || self.histogram.first() != Some(&1) {
            return Err("the goal's entry is not distance 0".into());
        }
        if self.histogram.iter().sum::<u64>() != self.index.states() {
            return Err("the layer counts do not add up to every state".into());
        }
        let states = self.index.states();
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..SEMANTIC_SAMPLES {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            self.check_state(x % states)?;
        }
        Ok(())
    }
}

/// The numbering's goal: tiles `1..m` in reading order, the blank at its goal cell.
fn index_goal(index: &SpaceIndex) -> Board {
    let n = index.shape().cells();
    let mut cells = Vec::with_capacity(n);
    let mut next = 1;
    for p in 0..n {
        if p == index.goal_blank() {
            cells.push(BLANK);
        } else {
            cells.push(next);
            next += 1;
        }
    }
    Board::new(index.shape(), &cells).unwrap_or_else(|_| unreachable!("a permutation"))
}

/// The numbering's names of `goal`'s tiles: its `k`-th tile in reading order is `k`.
fn relabel_for(goal: &Board) -> [Tile; MAX_SPACE_CELLS] {
    let mut relabel = [BLANK; MAX_SPACE_CELLS];
    let mut next = 1;
    for &t in goal.cells() {
        if t != BLANK {
            relabel[t as usize] = next;
            next += 1;
        }
    }
    relabel
}
