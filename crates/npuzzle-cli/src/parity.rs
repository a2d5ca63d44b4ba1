//! `npuzzle parity`: the solvability test on its own, with the numbers behind it.

use crate::input::{self, BoardOptions};
use anyhow::{Context, Result};
use clap::Args;
use npuzzle::parity::{inversions, is_solvable};
use std::io::Write;
use std::process::ExitCode;

/// Arguments of `npuzzle parity`.
#[derive(Args, Debug)]
pub struct ParityArgs {
    /// A board's tiles, or one input file; standard input when omitted or `-`.
    #[arg(value_name = "BOARD|FILE", allow_negative_numbers = true)]
    pub input: Vec<String>,
    #[command(flatten)]
    pub board: BoardOptions,
}

/// Runs `npuzzle parity`: one line per board, `solvable` or `unsolvable` and why.
pub fn run(args: ParityArgs) -> Result<ExitCode> {
    let goals = args.board.goals()?;
    let source = input::from_arguments(&args.input)?;
    let arguments = source.is_arguments();
    let mut reader = source.reader(&args.board)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let json = args.board.format == crate::input::FormatArg::Jsonl;
    let mut failures = 0;
    while let Some(p) = reader.next_puzzle().context("cannot read the input")? {
        let board = match p.board {
            Ok(b) => b,
            Err(e) => {
                if p.answerable && json {
                    let row = serde_json::json!({
                        "line": p.line, "status": "error", "error": e.kind.to_string(),
                    });
                    writeln!(out, "{row}")?;
                } else if p.answerable {
                    writeln!(out, "{}", npuzzle::judge::NO_ANSWER)?;
                }
                out.flush()?;
                if arguments {
                    eprintln!("npuzzle: the board: {}", e.kind);
                } else {
                    eprintln!("{e}");
                }
                failures += 1;
                continue;
            }
        };
        let shape = board.shape();
        let goal = goals.for_shape(shape);
        let solvable = is_solvable(&board, &goal)?;
        let verdict = if solvable { "solvable" } else { "unsolvable" };
        let row_from_bottom = shape.height() - shape.row(board.blank());
        let blank_steps = shape.distance(board.blank(), goal.blank());
        if json {
            let row = serde_json::json!({
                "line": p.line,
                "board": board.to_judge_line(),
                "status": verdict,
                "inversions": inversions(board.cells()),
                "blank_row_from_bottom": row_from_bottom,
                "width": shape.width(),
                "blank_distance_to_goal_cell": blank_steps,
            });
            writeln!(out, "{row}")?;
            continue;
        }
        writeln!(
            out,
            "{verdict}\tinversions={} blank_row_from_bottom={row_from_bottom} width={} blank_distance_to_goal_cell={blank_steps}",
            inversions(board.cells()),
            shape.width()
        )?;
    }
    out.flush()?;
    Ok(if failures > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
