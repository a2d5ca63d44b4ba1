//! Entry points for fuzzers and property tests: arbitrary bytes fed to every reader of user
//! input (judge formats, single boards, move strings in both notations, UVa 716 cubes,
//! partition specs). Each must return an answer or an error; a panic, a hang or a huge
//! allocation is a bug. `fuzz/` drives this with cargo-fuzz; the property tests drive it with
//! random inputs on every test run.

use crate::cube::CubeReader;
use crate::heuristic::pdb_set::Partition;
use crate::judge::{Format, JudgeReader, ReaderOptions};
use crate::{Board, Shape, Solution};

/// Feeds `data` to every reader; returns how many items they produced (so that nothing is
/// optimised away).
pub fn exercise_readers(data: &[u8]) -> usize {
    let mut items = 0;
    let text = String::from_utf8_lossy(data);
    for format in [
        None,
        Some(Format::Poj),
        Some(Format::Hdu),
        Some(Format::Uva),
    ] {
        for shape in [None, Shape::new(3, 2).ok()] {
            let options = ReaderOptions {
                format,
                shape,
                max_line: 4096,
            };
            let mut reader = JudgeReader::new(data, options);
            while let Ok(Some(p)) = reader.next_puzzle() {
                if let Ok(b) = &p.board {
                    // A board that was read is a valid board of its shape.
                    items += Board::new(b.shape(), b.cells()).is_ok() as usize;
                }
                items += 1;
            }
        }
    }
    items += Board::parse(&text).is_ok() as usize;
    if let Ok(s) = Solution::from_letters(&text) {
        items += s.len();
    }
    if let Ok(s) = Solution::from_tile_notation(&text) {
        items += s.len();
    }
    for dimensions in [1, 2, 3] {
        items += CubeReader::new(data, dimensions).take(64).count();
    }
    if let Ok(four) = Shape::new(4, 4) {
        items += Partition::parse(&text, four).is_ok() as usize;
    }
    items
}
