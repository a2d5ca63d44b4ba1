//! Symmetries that let one set of pattern databases serve many goals.
//!
//! - **Relabelling**: any goal becomes "tiles 1..n-1 in reading order, blank where the goal has
//!   it" by renaming tiles; distances do not change.
//! - **Half turn**: a goal with the blank in the first cell (Korf's convention) becomes the
//!   blank-last goal by rotating the board 180° and renaming `t → n − t`; every move flips
//!   direction (up ↔ down, left ↔ right).
//! - **Diagonal reflection**: on a square board whose goal has the blank on the main diagonal,
//!   transposing the board and renaming tiles maps the goal to itself, so a board and its
//!   reflection are equally far from the goal and a heuristic may take the larger estimate.

use crate::board::{BLANK, Board, Move, Tile};

/// The map from a goal's space into its canonical space.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The canonical goal (ordered tiles; blank last when a half turn applies).
    pub goal: Board,
    /// `relabel[t]`: the canonical name of original tile `t` (before any half turn).
    relabel: Vec<Tile>,
    /// Whether boards are turned 180°.
    half_turn: bool,
}

impl Canonical {
    /// The canonical form of `goal`.
    pub fn of(goal: &Board) -> Canonical {
        let n = goal.shape().cells();
        let mut relabel = vec![BLANK; n];
        let mut next = 1;
        for &t in goal.cells() {
            if t != BLANK {
                relabel[t as usize] = next;
                next += 1;
            }
        }
        let half_turn = goal.blank() == 0;
        let mut c = Canonical {
            goal: goal.clone(),
            relabel,
            half_turn,
        };
        c.goal = c.board(goal);
        c
    }

    /// The identity map for `goal` (its own space is used as it is).
    pub fn identity(goal: &Board) -> Canonical {
        Canonical {
            goal: goal.clone(),
            relabel: (0..goal.cells().len() as Tile).collect(),
            half_turn: false,
        }
    }

    /// Whether the canonical space is the goal's own (no renaming, no turn).
    pub fn is_identity(&self) -> bool {
        !self.half_turn
            && self
                .relabel
                .iter()
                .enumerate()
                .all(|(t, &r)| t == r as usize)
    }

    /// A board in canonical space.
    pub fn board(&self, b: &Board) -> Board {
        let n = b.cells().len();
        let mut cells = vec![BLANK; n];
        for (p, &t) in b.cells().iter().enumerate() {
            let r = self.relabel[t as usize];
            if self.half_turn {
                cells[n - 1 - p] = if r == BLANK { BLANK } else { n as Tile - r };
            } else {
                cells[p] = r;
            }
        }
        Board::new(b.shape(), &cells).unwrap_or_else(|_| b.clone())
    }

    /// The move in the original space for a move in canonical space.
    pub fn move_back(&self, m: Move) -> Move {
        if self.half_turn { m.inverse() } else { m }
    }
}

/// The diagonal reflection of a square board toward a goal with the blank on the diagonal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reflection {
    /// `cell[p]`: the transposed cell.
    pub cell: Vec<u8>,
    /// `tile[t]`: the name of tile `t` in the reflected board.
    pub tile: Vec<Tile>,
}

impl Reflection {
    /// The reflection for `goal`, if the board is square and the goal's blank is on the diagonal.
    pub fn for_goal(goal: &Board) -> Option<Reflection> {
        let shape = goal.shape();
        let w = shape.width();
        if w != shape.height() || shape.row(goal.blank()) != shape.column(goal.blank()) {
            return None;
        }
        let n = shape.cells();
        let cell: Vec<u8> = (0..n).map(|p| ((p % w) * w + p / w) as u8).collect();
        let mut tile = vec![BLANK; n];
        for (p, &t) in goal.cells().iter().enumerate() {
            tile[t as usize] = goal.tile(cell[p] as usize);
        }
        Some(Reflection { cell, tile })
    }

    /// The reflected board.
    pub fn board(&self, b: &Board) -> Board {
        let mut cells = vec![BLANK; b.cells().len()];
        for (p, &t) in b.cells().iter().enumerate() {
            cells[self.cell[p] as usize] = self.tile[t as usize];
        }
        Board::new(b.shape(), &cells).unwrap_or_else(|_| b.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Shape;
    use crate::table::Table;

    #[test]
    fn canonical_forms_preserve_distances() {
        let shape = Shape::new(3, 3).unwrap();
        for goal_text in [
            "x 1 2 3 4 5 6 7 8",
            "1 2 3 8 x 4 7 6 5",
            "8 7 6 5 4 3 2 1 x",
        ] {
            let goal = Board::parse(goal_text).unwrap();
            let c = Canonical::of(&goal);
            assert_eq!(c.board(&goal), c.goal);
            let original = Table::build(&goal).unwrap();
            let canonical = Table::build(&c.goal).unwrap();
            let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(1);
            for _ in 0..300 {
                let b = crate::random::random_board(shape, &mut rng);
                let cb = c.board(&b);
                assert_eq!(original.distance(&b), canonical.distance(&cb));
                if let Some(s) = canonical.solve(&cb) {
                    let moves: Vec<Move> = s.moves().iter().map(|&m| c.move_back(m)).collect();
                    crate::Solution::new(moves).verify(&b, &goal).unwrap();
                }
            }
        }
        let korf = Board::goal_blank_first(Shape::new(4, 4).unwrap());
        assert_eq!(
            Canonical::of(&korf).goal,
            Board::goal(Shape::new(4, 4).unwrap())
        );
    }

    #[test]
    fn reflection_preserves_distances() {
        let table = Table::eight();
        let r = Reflection::for_goal(table.goal()).unwrap();
        assert_eq!(&r.board(table.goal()), table.goal());
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(2);
        for _ in 0..500 {
            let b = crate::random::random_board(table.goal().shape(), &mut rng);
            assert_eq!(table.distance(&b), table.distance(&r.board(&b)));
        }
        assert!(Reflection::for_goal(&Board::parse("1 2 3 4 5 x 7 8 6").unwrap()).is_none());
    }
}
