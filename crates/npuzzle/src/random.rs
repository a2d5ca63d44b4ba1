//! Random boards: uniformly random permutations (any parity) and uniformly random *solvable*
//! states, as scrambles for players and as benchmark inputs. Seeded generators make benchmark
//! sets reproducible.

use crate::board::{BLANK, Board, Shape, Tile};
use crate::parity::is_solvable;
use rand::Rng;

/// A uniformly random arrangement of the tiles (half of them cannot reach the goal).
pub fn random_board(shape: Shape, rng: &mut impl Rng) -> Board {
    let mut tiles: Vec<Tile> = (0..shape.cells() as u32).map(|t| t as Tile).collect();
    for i in (1..tiles.len()).rev() {
        let j = rng.random_range(0..=i);
        tiles.swap(i, j);
    }
    // A shuffle of 0..n is always a valid board.
    Board::new(shape, &tiles).unwrap_or_else(|_| Board::goal(shape))
}

/// A uniformly random board that can reach `goal`: a random arrangement, with two non-blank
/// tiles swapped when its parity is wrong (a bijection between the two classes, so the result
/// is uniform over the solvable half).
pub fn random_solvable(goal: &Board, rng: &mut impl Rng) -> Board {
    let board = random_board(goal.shape(), rng);
    if is_solvable(&board, goal).unwrap_or(true) {
        return board;
    }
    let mut tiles = board.cells().to_vec();
    let (a, b) = if tiles[0] != BLANK && tiles[1] != BLANK {
        (0, 1)
    } else {
        (tiles.len() - 2, tiles.len() - 1)
    };
    tiles.swap(a, b);
    Board::new(goal.shape(), &tiles).unwrap_or(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::SmallRng;

    #[test]
    fn solvable_boards_are_solvable_and_varied() {
        let mut rng = SmallRng::seed_from_u64(1);
        for (w, h) in [(3, 3), (4, 4), (2, 2), (5, 3)] {
            let goal = Board::goal(Shape::new(w, h).unwrap());
            let mut seen = std::collections::HashSet::new();
            for _ in 0..200 {
                let b = random_solvable(&goal, &mut rng);
                assert!(is_solvable(&b, &goal).unwrap());
                seen.insert(b);
            }
            assert!(seen.len() > if w * h == 4 { 10 } else { 190 });
        }
    }
}
