//! What a move costs a placement that weighs the other tiles.
//!
//! The constructive placements of [`super::placement`] count moves; the near-optimal solver
//! asks them to count what each move does to the tile it slides instead (toward its goal
//! cell or away, and how soon that tile will be placed itself), so that placing one tile
//! does not scatter the others. The prices and the bookkeeping of which lines come soon live
//! here, apart from the searches that use them.

use crate::board::{Board, Tile};

/// Costs of one move when placements weigh the other tiles: a move that takes the sliding tile
/// one step toward its goal, one that the board before the search cannot tell about, one that
/// takes it away. Measured on random 10×10 and 30×30 boards, 1:3:5 gave the shortest answers
/// (0:1:2 let the blank wander for free; 1:2:3 weighs the others too little).
pub(crate) const HOMEWARD: u32 = 1;
pub(crate) const PLAIN: u32 = 3;
const AWAY: u32 = 5;

/// When placements tell soon tiles from late ones (`Placement::WeighOthers`'s `soon_lines`):
/// a move that takes a tile of the next lines away from home costs this, and moves of tiles
/// placed later cost [`LATE_HOMEWARD`] or [`LATE_AWAY`]. Tidying a tile that will be placed
/// much later is mostly undone by the placements before it; a tile placed soon keeps what it
/// gains. Measured (before the strip beams of `beam::close_line_in`) on 50×50 (3 boards)
/// 2.669 → 2.559 times the Manhattan bound, 100×100 2.633 → 2.532 with the next 45 lines soon
/// (30 lines: 2.567, 60: 2.544, all: 2.623).
const SOON_AWAY: u32 = 7;
/// See [`SOON_AWAY`].
const LATE_HOMEWARD: u32 = 2;
/// See [`SOON_AWAY`].
const LATE_AWAY: u32 = 4;

/// Dial's buckets: one more than the dearest move.
pub(crate) const BUCKETS: usize = SOON_AWAY as usize + 1;

/// The price list of one weighted peeling: the tiles of the next `soon_lines` lines (0: all
/// alike) are priced apart from the others while the lines are placed one by one.
#[derive(Clone, Debug)]
pub(crate) struct MoveCosts {
    soon_lines: usize,
    /// `line_of[t]`: how soon tile `t`'s goal cell is peeled (the first line has the highest
    /// number, 0 is never peeled).
    line_of: Vec<usize>,
    /// The number of the line being placed.
    current_line: usize,
}

impl MoveCosts {
    /// Every tile alike: [`HOMEWARD`] toward its goal cell, [`AWAY`] away from it.
    pub fn alike() -> MoveCosts {
        MoveCosts {
            soon_lines: 0,
            line_of: Vec::new(),
            current_line: 0,
        }
    }

    /// The tiles of the next `soon_lines` lines (at least one) weigh more ([`SOON_AWAY`]),
    /// the lines numbered by `priority` (per cell of `goal`, as `placement::peel_priority`
    /// gives it).
    pub fn soon(goal: &Board, priority: &[usize], soon_lines: usize) -> MoveCosts {
        let mut line_of = vec![0; goal.shape().cells()];
        for (cell, &t) in goal.cells().iter().enumerate() {
            line_of[t as usize] = priority[cell];
        }
        MoveCosts {
            soon_lines: soon_lines.max(1),
            line_of,
            current_line: priority.iter().copied().max().unwrap_or(0),
        }
    }

    /// What a move that slides `tile` costs: `homeward` when it takes the tile one step nearer
    /// its goal cell.
    #[inline]
    pub fn of(&self, tile: Tile, homeward: bool) -> u32 {
        if self.soon_lines == 0 {
            return if homeward { HOMEWARD } else { AWAY };
        }
        let line = self.line_of[tile as usize];
        let soon = line > 0 && line + self.soon_lines > self.current_line;
        match (soon, homeward) {
            (true, true) => HOMEWARD,
            (true, false) => SOON_AWAY,
            (false, true) => LATE_HOMEWARD,
            (false, false) => LATE_AWAY,
        }
    }

    /// One line placed: the next ones come sooner.
    pub fn line_placed(&mut self) {
        self.current_line = self.current_line.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;

    #[test]
    fn soon_tiles_cost_more_to_move_away() {
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        // Rows peeled first to last: row 0 is line 2, row 1 line 1, row 2 stays.
        let priority = [2, 2, 2, 1, 1, 1, 0, 0, 0];
        let mut costs = MoveCosts::soon(&goal, &priority, 1);
        assert_eq!(
            (costs.of(1, false), costs.of(1, true)),
            (SOON_AWAY, HOMEWARD)
        );
        assert_eq!(
            (costs.of(4, false), costs.of(4, true)),
            (LATE_AWAY, LATE_HOMEWARD)
        );
        costs.line_placed();
        assert_eq!(costs.of(4, false), SOON_AWAY);
        // Tiles never peeled are late throughout.
        assert_eq!(costs.of(7, false), LATE_AWAY);
        let alike = MoveCosts::alike();
        assert_eq!((alike.of(7, false), alike.of(7, true)), (AWAY, HOMEWARD));
        assert!(BUCKETS as u32 > SOON_AWAY.max(AWAY).max(PLAIN));
    }
}
