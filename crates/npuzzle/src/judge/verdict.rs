//! The verdict on an answer, as a special judge gives it: is it legal, does it reach the goal,
//! is it the fewest moves? One function for `npuzzle check`, `POST /api/check` and
//! `npuzzle.check`, so the three agree on every answer and every message.

use crate::board::Board;
use crate::parity::is_solvable;
use crate::solution::Solution;
use serde::Serialize;

/// The line a solver writes in place of an answer for a board it could not read or solve: not
/// a move string (no move letter `e`), not `unsolvable`.
pub const NO_ANSWER: &str = "error";

/// What the verdict found.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Finding {
    /// Legal moves that reach the goal in the fewest moves there are.
    Optimal,
    /// Legal moves that reach the goal, in more moves than the fewest.
    Suboptimal,
    /// Legal moves that reach the goal, not compared with the optimum (none was at hand).
    NotCompared,
    /// `unsolvable`, rightly: the board cannot reach the goal.
    Unsolvable,
    /// `unsolvable` for a board that can reach the goal.
    WronglyUnsolvable,
    /// Not a move string (or the [`NO_ANSWER`] marker, or nothing).
    NotMoves,
    /// A move pushes the blank off the board.
    IllegalMove,
    /// Legal moves that end elsewhere than at the goal.
    MissesGoal,
}

impl Finding {
    /// Its name, as JSON writes it (`optimal`, `not_compared`, `illegal_move` …).
    pub fn name(self) -> &'static str {
        match self {
            Finding::Optimal => "optimal",
            Finding::Suboptimal => "suboptimal",
            Finding::NotCompared => "not_compared",
            Finding::Unsolvable => "unsolvable",
            Finding::WronglyUnsolvable => "wrongly_unsolvable",
            Finding::NotMoves => "not_moves",
            Finding::IllegalMove => "illegal_move",
            Finding::MissesGoal => "misses_goal",
        }
    }
}

/// The verdict on one answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Whether the answer is accepted (legal, reaches the goal; or a right `unsolvable`).
    pub valid: bool,
    /// What was found.
    pub finding: Finding,
    /// The answer's number of moves, when it is a move string.
    pub length: Option<usize>,
    /// The fewest moves, when it was known.
    pub optimal_length: Option<usize>,
    /// Whether the answer is as short as can be: `None` when it could not be compared.
    pub optimal: Option<bool>,
    /// The verdict for people.
    pub message: String,
    /// Why a valid answer was not compared with the optimum (finding `not_compared`): the
    /// same words end `message`; kept apart for a front end that says it once per board size.
    #[serde(skip)]
    pub not_compared: Option<String>,
}

impl Verdict {
    /// The verdict when there is no answer to judge (`reason`: the answers ran out, the line
    /// was too long …).
    pub fn no_answer(reason: &str) -> Verdict {
        Verdict {
            valid: false,
            finding: Finding::NotMoves,
            length: None,
            optimal_length: None,
            optimal: Some(false),
            message: reason.to_string(),
            not_compared: None,
        }
    }

    /// The verdict on `answer` (judge letters, `unsolvable`, or the [`NO_ANSWER`] marker)
    /// for `board` toward `goal` (of the same shape). `optimum` is asked for the fewest moves
    /// only when the answer reaches the goal (it may search, or say why it does not know).
    pub fn judge(
        board: &Board,
        goal: &Board,
        answer: &str,
        optimum: impl FnOnce() -> Result<usize, String>,
    ) -> Verdict {
        let answer = answer.trim();
        let invalid = |finding, length, message: String| Verdict {
            valid: false,
            finding,
            length,
            optimal_length: None,
            optimal: Some(false),
            message,
            not_compared: None,
        };
        let solvable = match is_solvable(board, goal) {
            Ok(s) => s,
            Err(e) => return invalid(Finding::MissesGoal, None, e.to_string()),
        };
        if answer == NO_ANSWER {
            return invalid(
                Finding::NotMoves,
                None,
                format!("no answer (the solver marked this board `{NO_ANSWER}`)"),
            );
        }
        if answer.eq_ignore_ascii_case("unsolvable") {
            return if solvable {
                invalid(
                    Finding::WronglyUnsolvable,
                    None,
                    format!("`{answer}`, but the board can reach the goal"),
                )
            } else if answer != "unsolvable" {
                invalid(
                    Finding::NotMoves,
                    None,
                    format!("`{answer}`: a judge expects `unsolvable`, in lowercase"),
                )
            } else {
                Verdict {
                    valid: true,
                    finding: Finding::Unsolvable,
                    length: None,
                    optimal_length: None,
                    optimal: Some(true),
                    message: "correct: the board cannot reach the goal".into(),
                    not_compared: None,
                }
            };
        }
        // A judge compares letters exactly: lowercase, one word (`from_letters` below takes
        // either case and spaces, and names any other character).
        if let Some((i, c)) = answer
            .chars()
            .enumerate()
            .find(|&(_, c)| !matches!(c, 'u' | 'd' | 'l' | 'r'))
            && (c.is_whitespace() || matches!(c, 'U' | 'D' | 'L' | 'R'))
        {
            let why = if c.is_whitespace() {
                format!(
                    "a space at column {}: a judge expects the moves as one word",
                    i + 1
                )
            } else {
                format!(
                    "`{c}` at column {}: a judge expects the blank's moves in lowercase u, d, l, r \
                     (uppercase letters are the speed-solvers' tile moves, the other way round)",
                    i + 1
                )
            };
            return invalid(Finding::NotMoves, None, why);
        }
        let solution = match Solution::from_letters(answer) {
            Ok(s) => s,
            Err(e) => return invalid(Finding::NotMoves, None, e.to_string()),
        };
        if !solvable {
            return invalid(
                Finding::MissesGoal,
                Some(solution.len()),
                "the board cannot reach the goal (its permutation parity is the other one): \
                 the answer is `unsolvable`"
                    .into(),
            );
        }
        let length = solution.len();
        if let Err(e) = solution.verify(board, goal) {
            let finding = match e {
                crate::solution::ReplayError::IllegalMove { .. } => Finding::IllegalMove,
                _ => Finding::MissesGoal,
            };
            return invalid(finding, Some(length), e.to_string());
        }
        let (best, not_compared) = match optimum() {
            Ok(b) => (Some(b), None),
            Err(why) => (None, Some(why)),
        };
        let (finding, message) = match (best, &not_compared) {
            (Some(b), _) if b == length => (
                Finding::Optimal,
                format!("the moves reach the goal in the fewest moves ({length})"),
            ),
            (Some(b), _) => (
                Finding::Suboptimal,
                format!("suboptimal: {length} moves, the optimum is {b}"),
            ),
            (None, why) => (
                Finding::NotCompared,
                format!(
                    "the moves reach the goal in {length} moves (not compared with the optimum: {})",
                    why.as_deref().unwrap_or("unknown")
                ),
            ),
        };
        Verdict {
            valid: true,
            finding,
            length: Some(length),
            optimal_length: best,
            optimal: best.map(|b| b == length),
            message,
            not_compared,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Table;

    fn judge(board: &str, answer: &str) -> Verdict {
        let b = Board::parse(board).unwrap();
        let goal = Board::goal(b.shape());
        let table = Table::build(&goal).unwrap();
        Verdict::judge(&b, &goal, answer, || {
            table
                .distance(&b)
                .map(usize::from)
                .ok_or_else(|| "not in the table".to_string())
        })
    }

    #[test]
    fn every_finding() {
        let start = "2 3 4 1 5 x 7 6 8";
        let cases = [
            (
                start,
                "ullddrurdllurdruldr",
                true,
                Finding::Optimal,
                Some(19),
            ),
            (
                start,
                "ullddrurdllurdruldrlr",
                true,
                Finding::Suboptimal,
                Some(21),
            ),
            (start, "rr", false, Finding::IllegalMove, Some(2)),
            (start, "u", false, Finding::MissesGoal, Some(1)),
            (start, "hello", false, Finding::NotMoves, None),
            (start, "error", false, Finding::NotMoves, None),
            (start, "unsolvable", false, Finding::WronglyUnsolvable, None),
            (
                "2 1 3 4 5 6 7 8 x",
                "unsolvable",
                true,
                Finding::Unsolvable,
                None,
            ),
            // A judge compares exactly: other cases, and spaces, are not accepted.
            (
                "2 1 3 4 5 6 7 8 x",
                "UNSOLVABLE",
                false,
                Finding::NotMoves,
                None,
            ),
            (start, "ULLDDRURDLLURDRULDR", false, Finding::NotMoves, None),
            (
                start,
                "ulldd rurdllurdruldr",
                false,
                Finding::NotMoves,
                None,
            ),
            // Moves for a board that cannot reach the goal (here none: an empty line).
            ("2 1 3 4 5 6 7 8 x", "", false, Finding::MissesGoal, Some(0)),
            ("1 2 3 4 5 6 7 8 x", "", true, Finding::Optimal, Some(0)),
        ];
        for (board, answer, valid, finding, length) in cases {
            let v = judge(board, answer);
            assert_eq!(
                (v.valid, v.finding, v.length),
                (valid, finding, length),
                "{board} / {answer}: {v:?}"
            );
            assert!(!v.message.is_empty());
        }
        let v = judge(start, "ullddrurdllurdruldrlr");
        assert_eq!((v.optimal_length, v.optimal), (Some(19), Some(false)));
        assert!(v.message.contains("the optimum is 19"), "{}", v.message);
        let say = |board, answer| judge(board, answer).message;
        assert!(say(start, "ullDd").contains("`D` at column 4"));
        assert!(say(start, "ul ld").contains("space at column 3"));
        assert!(say("2 1 3 4 5 6 7 8 x", "").contains("the answer is `unsolvable`"));
        assert!(say("2 1 3 4 5 6 7 8 x", "Unsolvable").contains("in lowercase"));
        let v = judge(start, "UNSOLVABLE");
        assert_eq!(v.finding, Finding::WronglyUnsolvable, "{v:?}");
    }

    #[test]
    fn the_optimum_is_asked_only_for_answers_that_reach_the_goal() {
        let b = Board::parse("2 3 4 1 5 x 7 6 8").unwrap();
        let goal = Board::goal(b.shape());
        let v = Verdict::judge(&b, &goal, "rr", || panic!("not asked"));
        assert!(!v.valid);
        let v = Verdict::judge(&b, &goal, "ullddrurdllurdruldr", || {
            Err("no optimum here".into())
        });
        assert_eq!((v.finding, v.optimal), (Finding::NotCompared, None));
        assert_eq!(v.not_compared.as_deref(), Some("no optimum here"));
        assert!(
            v.message
                .ends_with("(not compared with the optimum: no optimum here)")
        );
    }
}
