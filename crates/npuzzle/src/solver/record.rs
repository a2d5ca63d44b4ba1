//! The one serializable record of a solved board: the same field names and values in
//! `npuzzle solve --format jsonl`, `POST /api/solve` (which answers a board that cannot reach
//! the goal with a 422 error instead) and Python's `Solution.to_dict()`. Front
//! ends may wrap it in their own envelope (`line`, `stats`, `error`, `note`) but never rename
//! a field of it.

use crate::board::Board;
use crate::search::Stats;
use crate::solver::{Algorithm, Answer, Outcome};
use serde::Serialize;

/// One board's answer, as every front end writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record {
    /// The board, in judge form (`2 3 4 1 5 x 7 6 8`), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// `solved` or `unsolvable`.
    pub status: &'static str,
    /// Judge letters (the blank's moves), when solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<String>,
    /// Tile notation (the tiles' moves, with run lengths), when solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiles: Option<String>,
    /// Number of moves, when solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<usize>,
    /// Whether the length is guaranteed to be the fewest, when solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimal: Option<bool>,
    /// The method that ran, when solved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<&'static str>,
    /// Its heuristic, if it used one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heuristic: Option<&'static str>,
    /// The pattern-database partition it searched over, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub databases: Option<String>,
    /// The limit (`nodes`, `time`, `memory`) the asked-for search hit before the fallback
    /// answered (see [`crate::Solver::with_fallback`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback_after: Option<&'static str>,
}

impl Record {
    /// The record of `board`'s outcome.
    pub fn new(board: &Board, outcome: &Outcome) -> Record {
        match outcome {
            Outcome::Solved(a) => Record::solved(board, a),
            Outcome::Unsolvable => Record::unsolvable(board),
        }
    }

    /// The record of a solved board.
    pub fn solved(board: &Board, a: &Answer) -> Record {
        Record {
            board: Some(board.to_judge_line()),
            ..Record::answer(a)
        }
    }

    /// The record of an answer whose board is not at hand (no `board` field).
    pub fn answer(a: &Answer) -> Record {
        Record {
            board: None,
            status: "solved",
            moves: Some(a.solution.to_letters()),
            tiles: Some(a.solution.to_tile_notation()),
            length: Some(a.solution.len()),
            optimal: Some(a.optimal),
            // `Auto` in an answer: no method had to run (the board was the goal).
            algorithm: (a.algorithm != Algorithm::Auto).then(|| a.algorithm.name()),
            heuristic: a.heuristic.map(|h| h.name()),
            databases: a.databases.clone(),
            fallback_after: a.fallback_after.map(|k| k.name()),
        }
    }

    /// The record of a board that cannot reach the goal.
    pub fn unsolvable(board: &Board) -> Record {
        Record {
            board: Some(board.to_judge_line()),
            status: "unsolvable",
            moves: None,
            tiles: None,
            length: None,
            optimal: None,
            algorithm: None,
            heuristic: None,
            databases: None,
            fallback_after: None,
        }
    }
}

/// A [`Record`] with the search's figures, as the front ends that show them write it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RecordWithStats {
    /// The record.
    #[serde(flatten)]
    pub record: Record,
    /// What the search cost.
    pub stats: Stats,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Solver;

    #[test]
    fn fields_of_solved_and_unsolvable_boards() {
        let b = Board::parse("2 3 4 1 5 x 7 6 8").unwrap();
        let solver = Solver::for_goal(Board::goal(b.shape())).unwrap();
        let r = Record::new(&b, &solver.solve(&b).unwrap());
        let v = serde_json::to_value(&r).unwrap();
        assert_eq!(v["board"], "2 3 4 1 5 x 7 6 8");
        assert_eq!(v["status"], "solved");
        assert_eq!(v["length"], 19);
        assert_eq!(v["optimal"], true);
        assert_eq!(v["algorithm"], "table");
        assert!(v.get("heuristic").is_none());
        let moves = crate::Solution::from_letters(v["moves"].as_str().unwrap()).unwrap();
        moves.verify(&b, solver.goal()).unwrap();
        let tiles = crate::Solution::from_tile_notation(v["tiles"].as_str().unwrap()).unwrap();
        assert_eq!(tiles, moves);

        let odd = Board::parse("2 1 3 4 5 6 7 8 x").unwrap();
        let v = serde_json::to_value(Record::new(&odd, &solver.solve(&odd).unwrap())).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"board": "2 1 3 4 5 6 7 8 x", "status": "unsolvable"})
        );
    }
}
