//! Writing answers: judge letters, tile notation, step-by-step boards, and JSON lines.

use clap::ValueEnum;
use npuzzle::search::{LimitKind, Stats};
use npuzzle::{Answer, Board, Solution};
use serde::Serialize;
use std::fmt::Write as _;

/// The line written in place of an answer for a board that could not be read or solved: not
/// a move string (no move letter `e`), not `unsolvable`, and understood by `npuzzle check`.
pub const NO_ANSWER: &str = "error";

/// How moves are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Notation {
    /// Judge letters: `u d l r` name the neighbour of the blank that swaps with it.
    Judge,
    /// Speed-solving notation: the direction each tile slides, with run lengths (`R3 D2 L`).
    Tiles,
}

impl Notation {
    /// The solution in this notation.
    pub fn render(self, s: &Solution) -> String {
        match self {
            Notation::Judge => s.to_letters(),
            Notation::Tiles => s.to_tile_notation(),
        }
    }
}

/// One board's result as a JSON line.
#[derive(Serialize)]
pub struct JsonAnswer<'a> {
    /// 1-based input line of the board.
    pub line: usize,
    /// The board in judge form, when it could be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// `solved`, `unsolvable` or `error`.
    pub status: &'a str,
    /// Judge letters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub moves: Option<String>,
    /// Tile notation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tiles: Option<String>,
    /// Number of moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<usize>,
    /// Whether the length is guaranteed minimal.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimal: Option<bool>,
    /// The method that ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub algorithm: Option<&'a str>,
    /// The heuristic it used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heuristic: Option<&'a str>,
    /// The pattern-database partition, when one was used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub databases: Option<String>,
    /// When the requested search hit a limit (`nodes`, `time`, `memory`) and `--fallback`
    /// answered with the near-optimal solver.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fallback_after: Option<String>,
    /// The search's figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
    /// What went wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl<'a> JsonAnswer<'a> {
    /// A JSON line for a solved board.
    pub fn solved(line: usize, board: &Board, a: &'a Answer) -> JsonAnswer<'a> {
        JsonAnswer {
            line,
            board: Some(board.to_judge_line()),
            status: "solved",
            moves: Some(a.solution.to_letters()),
            tiles: Some(a.solution.to_tile_notation()),
            length: Some(a.solution.len()),
            optimal: Some(a.optimal),
            algorithm: Some(a.algorithm.name()),
            heuristic: a.heuristic.map(|h| h.name()),
            databases: None,
            fallback_after: a.fallback_after.map(|k| limit_name(k).to_string()),
            stats: Some(a.stats),
            error: None,
        }
    }

    /// A JSON line for a board that cannot reach the goal.
    pub fn unsolvable(line: usize, board: &Board) -> JsonAnswer<'a> {
        JsonAnswer {
            board: Some(board.to_judge_line()),
            ..JsonAnswer::error(line, String::new(), "unsolvable")
        }
    }

    /// A JSON line for a board that could not be read or solved.
    pub fn error(line: usize, message: String, status: &'a str) -> JsonAnswer<'a> {
        JsonAnswer {
            line,
            board: None,
            status,
            moves: None,
            tiles: None,
            length: None,
            optimal: None,
            algorithm: None,
            heuristic: None,
            databases: None,
            fallback_after: None,
            stats: None,
            error: (!message.is_empty()).then_some(message),
        }
    }
}

/// The short name of a limit (`nodes`, `time`, `memory`, `cancelled`).
pub fn limit_name(kind: LimitKind) -> &'static str {
    match kind {
        LimitKind::Nodes => "nodes",
        LimitKind::Time => "time",
        LimitKind::Memory => "memory",
        LimitKind::Cancelled => "cancelled",
    }
}

/// The stats of one answer in one human-readable line.
pub fn stats_line(line: usize, a: &Answer, databases: Option<&str>) -> String {
    format!(
        "line {line}: {}{}{} length={} optimal={}{} expanded={} generated={} peak_stored={} time={:.1}us",
        a.algorithm.name(),
        a.heuristic
            .map(|h| format!("+{}", h.name()))
            .unwrap_or_default(),
        databases
            .map(|d| format!(" databases={d}"))
            .unwrap_or_default(),
        a.solution.len(),
        a.optimal,
        a.fallback_after
            .map(|k| format!(" fallback_after={}", limit_name(k)))
            .unwrap_or_default(),
        a.stats.expanded,
        a.stats.generated,
        a.stats.peak_stored,
        a.stats.elapsed.as_secs_f64() * 1e6
    )
}

/// Most cells shown by `--show` for one answer (boards × cells): about 4 MB of text.
pub const MAX_SHOWN_CELLS: usize = 1_000_000;

/// The boards along a solution side by side, joined by arrows naming each move in `notation`
/// (the judge letter, or the direction the tile slides), in bands that fit about 100 columns.
pub fn show_steps(start: &Board, solution: &Solution, notation: Notation) -> String {
    let shown = (solution.len() + 1).saturating_mul(start.shape().cells());
    if shown > MAX_SHOWN_CELLS {
        return format!(
            "(--show skipped: {} boards of {} would be {shown} cells, more than {MAX_SHOWN_CELLS})\n",
            solution.len() + 1,
            start.shape()
        );
    }
    let Ok(boards) = solution.boards(start) else {
        return String::new();
    };
    let rendered: Vec<Vec<String>> = boards
        .iter()
        .map(|b| b.to_string().lines().map(str::to_owned).collect())
        .collect();
    let height = start.shape().height();
    let board_width = rendered[0].iter().map(String::len).max().unwrap_or(0);
    let per_band = (100 / (board_width + 6)).max(1);
    let mid = height / 2;
    let mut out = String::new();
    for (band_no, band) in rendered.chunks(per_band).enumerate() {
        if band_no > 0 {
            out.push('\n');
        }
        for row in 0..height {
            let mut line = String::new();
            for (i, b) in band.iter().enumerate() {
                let index = band_no * per_band + i;
                if i > 0 || band_no > 0 {
                    let m = solution.moves()[index - 1];
                    let letter = match notation {
                        Notation::Judge => m.letter(),
                        Notation::Tiles => m.tile_letter(),
                    };
                    if row == mid {
                        let _ = write!(line, " -{letter}-> ");
                    } else {
                        line.push_str("      ");
                    }
                }
                let _ = write!(line, "{:<board_width$}", b[row]);
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_show_every_board() {
        let b = Board::parse("1 2 3 4 5 6 7 x 8").unwrap();
        let s = Solution::from_letters("r").unwrap();
        let text = show_steps(&b, &s, Notation::Judge);
        assert_eq!(
            text,
            "1 2 3      1 2 3\n4 5 6 -r-> 4 5 6\n7 x 8      7 8 x\n"
        );
        let text = show_steps(&b, &s, Notation::Tiles);
        assert_eq!(
            text,
            "1 2 3      1 2 3\n4 5 6 -L-> 4 5 6\n7 x 8      7 8 x\n"
        );
    }
}
