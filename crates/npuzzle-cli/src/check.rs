//! `npuzzle check PUZZLES ANSWERS`: judge answers the way a special judge would.
//!
//! Each answer must be a legal move string that reaches the goal, or `unsolvable` exactly when
//! the board cannot reach it. Valid answers are also compared with the optimal length where an
//! optimal solver answers for the size. Answers follow the puzzles' convention: one per line,
//! or for UVa separated by blank lines (so an empty answer, for a solved board, stays visible).

use crate::input::{self, BoardOptions};
use crate::output::NO_ANSWER;
use crate::solve::{LimitArgs, Solvers};
use anyhow::{Context, Result};
use clap::Args;
use npuzzle::judge::Format;
use npuzzle::parity::is_solvable;
use npuzzle::{Algorithm, Outcome, Solution};
use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Longest answer line read (bytes).
const MAX_ANSWER_LINE: u64 = 16 << 20;

/// Arguments of `npuzzle check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The puzzles, in any judge convention (`-` for standard input).
    pub puzzles: PathBuf,
    /// The answers: one per board (UVa: separated by blank lines).
    pub answers: PathBuf,
    #[command(flatten)]
    pub board: BoardOptions,
    /// Fail (exit 1) on a valid but longer-than-optimal answer too.
    #[arg(long)]
    pub require_optimal: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub pdb: crate::pdb::PdbOptions,
}

/// Reads answer lines with a length bound.
struct AnswerLines {
    input: Box<dyn BufRead + Send>,
    line_no: usize,
}

enum AnswerLine {
    Text(String),
    TooLong,
    End,
}

impl AnswerLines {
    fn next(&mut self) -> Result<AnswerLine> {
        let mut buf = Vec::new();
        let n = (&mut self.input)
            .take(MAX_ANSWER_LINE)
            .read_until(b'\n', &mut buf)
            .context("cannot read the answers")?;
        if n == 0 {
            return Ok(AnswerLine::End);
        }
        self.line_no += 1;
        if buf.last() != Some(&b'\n') && n as u64 == MAX_ANSWER_LINE {
            // Skip the rest of the overlong line.
            let mut sink = Vec::new();
            loop {
                sink.clear();
                let m = (&mut self.input)
                    .take(1 << 16)
                    .read_until(b'\n', &mut sink)?;
                if m == 0 || sink.last() == Some(&b'\n') {
                    break;
                }
            }
            return Ok(AnswerLine::TooLong);
        }
        Ok(AnswerLine::Text(
            String::from_utf8_lossy(&buf).trim().to_string(),
        ))
    }
}

#[derive(Default)]
struct Tally {
    boards: usize,
    valid: usize,
    invalid: usize,
    optimal: usize,
    suboptimal: usize,
    not_compared: usize,
}

/// Runs `npuzzle check`.
pub fn run(args: CheckArgs) -> Result<ExitCode> {
    if args.board.format == crate::input::FormatArg::Jsonl {
        anyhow::bail!(
            "check writes a report, not JSON lines; --format takes auto, poj, hdu or uva here (the puzzles' convention)"
        );
    }
    let limits = args.limits.to_limits()?;
    // 4x4 databases build in seconds; larger ones are used only when cached.
    let mut solvers = Solvers::new(&args.board, Algorithm::Auto, None, limits, args.pdb.clone())?
        .quick_databases_only();
    let mut reader = input::judge_reader(input::open(&args.puzzles)?, &args.board)?;
    let mut answers = AnswerLines {
        input: input::open(&args.answers)?,
        line_no: 0,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut t = Tally::default();
    let mut input_errors = 0usize;
    // Shapes whose boards cannot be compared with the optimum, once said why.
    let mut unexplained: Vec<npuzzle::Shape> = Vec::new();
    while let Some(puzzle) = reader.next_puzzle().context("cannot read the puzzles")? {
        if let Err(e) = &puzzle.board
            && !puzzle.answerable
        {
            eprintln!("puzzles: {e}");
            input_errors += 1;
            continue;
        }
        t.boards += 1;
        let n = t.boards;
        // UVa answers are separated by one blank line.
        if reader.format() == Some(Format::Uva) && n > 1 {
            match answers.next()? {
                AnswerLine::Text(s) if s.is_empty() => {}
                AnswerLine::End => {}
                _ => {
                    writeln!(
                        out,
                        "answers line {}: expected a blank line between answers",
                        answers.line_no
                    )?;
                    input_errors += 1;
                }
            }
        }
        let answer = answers.next()?;
        let answer_line = answers.line_no;
        let board = match &puzzle.board {
            Ok(b) => b,
            Err(e) => {
                writeln!(out, "board {n} ({e}): the puzzle itself is not a board")?;
                input_errors += 1;
                continue;
            }
        };
        let place = format!(
            "board {n} (puzzles line {}, answers line {answer_line})",
            puzzle.line
        );
        let text = match answer {
            AnswerLine::End => {
                writeln!(out, "{place}: invalid: no answer")?;
                t.invalid += 1;
                continue;
            }
            AnswerLine::TooLong => {
                writeln!(out, "{place}: invalid: answer line too long")?;
                t.invalid += 1;
                continue;
            }
            AnswerLine::Text(s) => s,
        };
        if solvers.needed(board) {
            solvers.prepare(board.shape());
        }
        let solver = solvers.get(board.shape());
        let goal = match &solver {
            Ok(s) => s.goal().clone(),
            Err(_) => args
                .board
                .goal_for(board.shape(), args.board.goal_board()?.as_ref()),
        };
        let solvable = is_solvable(board, &goal).unwrap_or(false);
        if text == NO_ANSWER {
            writeln!(
                out,
                "{place}: invalid: no answer (the solver marked this board `{NO_ANSWER}`)"
            )?;
            t.invalid += 1;
            continue;
        }
        if text.eq_ignore_ascii_case("unsolvable") {
            if solvable {
                writeln!(
                    out,
                    "{place}: invalid: `unsolvable`, but the board can reach the goal"
                )?;
                t.invalid += 1;
            } else {
                t.valid += 1;
                t.optimal += 1;
            }
            continue;
        }
        let solution = match Solution::from_letters(&text) {
            Ok(s) => s,
            Err(e) => {
                writeln!(out, "{place}: invalid: {e}")?;
                t.invalid += 1;
                continue;
            }
        };
        if let Err(e) = solution.verify(board, &goal) {
            writeln!(out, "{place}: invalid: {e}")?;
            t.invalid += 1;
            continue;
        }
        t.valid += 1;
        // Only a solver whose answer is optimal is run: another would be thrown away.
        let optimal_len = match &solver {
            Ok(s) if s.effective_algorithm().is_optimal() => match s.solve(board) {
                Ok(Outcome::Solved(a)) if a.optimal => Some(a.solution.len()),
                Ok(_) => None,
                Err(e) => {
                    eprintln!("npuzzle: board {n}: no optimum to compare with ({e})");
                    None
                }
            },
            other => {
                if !unexplained.contains(&board.shape()) {
                    unexplained.push(board.shape());
                    let why = match other {
                        Err(e) => e.to_string(),
                        Ok(_) => "no optimal solver here: check builds only small pattern databases; `npuzzle pdb build --size WxH` makes larger ones".into(),
                    };
                    eprintln!(
                        "npuzzle: {} boards are not compared with the optimum ({why})",
                        board.shape()
                    );
                }
                None
            }
        };
        match optimal_len {
            Some(best) if best == solution.len() => t.optimal += 1,
            Some(best) => {
                writeln!(
                    out,
                    "{place}: suboptimal: {} moves, the optimum is {best}",
                    solution.len()
                )?;
                t.suboptimal += 1;
            }
            None => t.not_compared += 1,
        }
    }
    let mut extra = 0usize;
    loop {
        match answers.next()? {
            AnswerLine::End => break,
            AnswerLine::Text(s) if s.is_empty() => {}
            _ => extra += 1,
        }
    }
    if extra > 0 {
        writeln!(out, "answers: {extra} answer(s) beyond the last board")?;
        input_errors += 1;
    }
    writeln!(
        out,
        "checked {} boards: {} valid ({} optimal, {} suboptimal, {} not compared), {} invalid",
        t.boards, t.valid, t.optimal, t.suboptimal, t.not_compared, t.invalid
    )?;
    if args.require_optimal && t.not_compared > 0 {
        eprintln!(
            "npuzzle: --require-optimal: {} board(s) could not be compared with the optimum",
            t.not_compared
        );
    }
    let failed = t.invalid > 0
        || input_errors > 0
        || (args.require_optimal && (t.suboptimal > 0 || t.not_compared > 0));
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
