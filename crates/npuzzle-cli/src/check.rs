//! `npuzzle check PUZZLES ANSWERS`: judge answers the way a special judge would, through the
//! library's verdict (`npuzzle::judge::Verdict`, the same as `POST /api/check` and
//! `npuzzle.check`).
//!
//! Each answer must be a legal move string that reaches the goal, or `unsolvable` exactly when
//! the board cannot reach it. Valid answers are also compared with the optimal length where an
//! optimal solver answers for the size. Answers follow the puzzles' convention: one per line,
//! or for UVa separated by blank lines (so an empty answer, for a solved board, stays visible).
//! `--format jsonl` writes one JSON object per board (its verdict, with the input lines).

use crate::input::{self, BoardOptions, FormatArg};
use crate::solve::{LimitArgs, SolverOptions};
use anyhow::{Context, Result};
use clap::Args;
use npuzzle::judge::{Finding, Format, Verdict};
use npuzzle::lines::{LineRead, Lines};
use npuzzle::near::Effort;
use npuzzle::{Algorithm, Use};
use serde::Serialize;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

/// Longest answer line read (bytes).
const MAX_ANSWER_LINE: usize = 16 << 20;

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

/// The answers' lines, read with a length bound.
struct AnswerLines {
    lines: Lines<Box<dyn BufRead + Send>>,
    buf: Vec<u8>,
}

enum AnswerLine {
    Text(String),
    TooLong,
    End,
}

impl AnswerLines {
    fn next(&mut self) -> Result<AnswerLine> {
        let read = self
            .lines
            .read(&mut self.buf, MAX_ANSWER_LINE)
            .context("cannot read the answers")?;
        Ok(match read {
            None => AnswerLine::End,
            Some(LineRead::TooLong) => AnswerLine::TooLong,
            Some(LineRead::Line) => {
                AnswerLine::Text(String::from_utf8_lossy(&self.buf).trim().to_string())
            }
        })
    }

    /// The number of the answers line read last.
    fn line_no(&self) -> usize {
        self.lines.number()
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
    /// Puzzles that are not boards (no verdict: counted apart).
    unreadable: usize,
}

/// One board's verdict as a JSON line.
#[derive(Serialize)]
struct JsonVerdict<'a> {
    /// Puzzles line where the board starts.
    line: usize,
    /// Answers line of its answer (`None` when the answers ran out).
    answers_line: Option<usize>,
    /// The board in judge form, when it could be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    board: Option<String>,
    #[serde(flatten)]
    verdict: &'a Verdict,
}

/// Writes verdicts: as a report (problems only, and a closing tally) or as JSON lines.
struct Report<W: Write> {
    out: W,
    json: bool,
    t: Tally,
}

impl<W: Write> Report<W> {
    fn verdict(
        &mut self,
        place: &str,
        line: usize,
        answers_line: Option<usize>,
        board: Option<&npuzzle::Board>,
        v: &Verdict,
    ) -> Result<()> {
        match v.finding {
            Finding::Optimal | Finding::Unsolvable => self.t.optimal += 1,
            Finding::Suboptimal => self.t.suboptimal += 1,
            Finding::NotCompared => self.t.not_compared += 1,
            _ => {}
        }
        if v.valid {
            self.t.valid += 1;
        } else {
            self.t.invalid += 1;
        }
        if self.json {
            let j = JsonVerdict {
                line,
                answers_line,
                board: board.map(|b| b.to_judge_line()),
                verdict: v,
            };
            serde_json::to_writer(&mut self.out, &j)?;
            writeln!(self.out)?;
        } else if !v.valid {
            writeln!(self.out, "{place}: invalid: {}", v.message)?;
        } else if v.finding == Finding::Suboptimal {
            writeln!(self.out, "{place}: {}", v.message)?;
        }
        Ok(())
    }

    /// A puzzle that is not a board: reported in its place (a JSON line with an `error`).
    fn unreadable(&mut self, n: usize, line: usize, answers_line: usize, e: &str) -> Result<()> {
        self.t.unreadable += 1;
        if self.json {
            #[derive(Serialize)]
            struct Unreadable {
                line: usize,
                answers_line: usize,
                error: String,
            }
            let j = Unreadable {
                line,
                answers_line,
                error: format!("the puzzle itself is not a board: {e}"),
            };
            serde_json::to_writer(&mut self.out, &j)?;
            writeln!(self.out)?;
            eprintln!("npuzzle: board {n} ({e}): the puzzle itself is not a board");
            Ok(())
        } else {
            self.problem(&format!(
                "board {n} ({e}): the puzzle itself is not a board"
            ))
        }
    }

    /// A problem with the inputs themselves (not a verdict on an answer).
    fn problem(&mut self, text: &str) -> Result<()> {
        if self.json {
            eprintln!("npuzzle: {text}");
        } else {
            writeln!(self.out, "{text}")?;
        }
        Ok(())
    }
}

/// Runs `npuzzle check`.
pub fn run(args: CheckArgs) -> Result<ExitCode> {
    if args.puzzles.as_os_str() == "-" && args.answers.as_os_str() == "-" {
        anyhow::bail!(
            "the puzzles and the answers cannot both come from standard input (`-`): give one of them as a file"
        );
    }
    let json = args.board.format == FormatArg::Jsonl;
    let limits = args.limits.to_limits()?;
    // Comparing with the optimum must not start a minutes-long build (see `Use::Check`).
    let solvers = SolverOptions {
        board: &args.board,
        algorithm: Algorithm::Auto,
        heuristic: None,
        limits,
        pdb: &args.pdb,
        user: Use::Check,
        effort: Effort::default(),
        fallback: false,
    }
    .solvers()?;
    let mut reader = input::judge_reader(input::open(&args.puzzles)?, &args.board)?;
    let mut answers = AnswerLines {
        lines: Lines::new(input::open(&args.answers)?),
        buf: Vec::new(),
    };
    let stdout = std::io::stdout();
    let mut r = Report {
        out: stdout.lock(),
        json,
        t: Tally::default(),
    };
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
        r.t.boards += 1;
        let n = r.t.boards;
        // UVa answers are separated by one blank line. A missing one is reported, and the line
        // in its place is this board's answer, so the answers after it keep their boards.
        let mut in_separator_place = None;
        if reader.format() == Some(Format::Uva) && n > 1 {
            match answers.next()? {
                AnswerLine::Text(s) if s.is_empty() => {}
                AnswerLine::End => in_separator_place = Some(AnswerLine::End),
                line => {
                    r.problem(&format!(
                        "answers line {}: expected a blank line between answers (read as board {n}'s answer)",
                        answers.line_no()
                    ))?;
                    input_errors += 1;
                    in_separator_place = Some(line);
                }
            }
        }
        let answer = match in_separator_place {
            Some(line) => line,
            None => answers.next()?,
        };
        let answer_line = answers.line_no();
        let board = match &puzzle.board {
            Ok(b) => b,
            Err(e) => {
                r.unreadable(n, puzzle.line, answer_line, &e.to_string())?;
                input_errors += 1;
                continue;
            }
        };
        let place = match &answer {
            AnswerLine::End => format!(
                "board {n} (puzzles line {}, past the last answers line)",
                puzzle.line
            ),
            _ => format!(
                "board {n} (puzzles line {}, answers line {answer_line})",
                puzzle.line
            ),
        };
        // The answer, or why there is none, and the answers line it is on.
        let (text, answers_line) = match answer {
            AnswerLine::End => (Err("no answer"), None),
            AnswerLine::TooLong => (Err("answer line too long"), Some(answer_line)),
            AnswerLine::Text(s) => (Ok(s), Some(answer_line)),
        };
        if solvers.needed(board) {
            solvers.prepare(board.shape());
        }
        let solver = solvers.get(board.shape(), true);
        let goal = solvers.goal_for(board.shape());
        // The library's verdict: compared with the optimum where an optimal method answers
        // within the limits (no solver was made for a board already at the goal).
        let verdict = match (&text, &solver) {
            (Err(why), _) => Verdict::no_answer(why),
            (Ok(text), Ok(s)) => s.judge(board, text),
            // Only the goal itself, of the boards that need no solver, has moves to compare.
            (Ok(text), Err(_)) if !solvers.needed(board) => {
                Verdict::judge(board, &goal, text, || Ok(0))
            }
            (Ok(text), Err(e)) => Verdict::judge(board, &goal, text, || Err(e.to_string())),
        };
        // Why a board size is not compared, said once (the library's words).
        if let Some(why) = &verdict.not_compared
            && !unexplained.contains(&board.shape())
        {
            unexplained.push(board.shape());
            eprintln!(
                "npuzzle: {} boards are not compared with the optimum ({why})",
                board.shape()
            );
        }
        r.verdict(&place, puzzle.line, answers_line, Some(board), &verdict)?;
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
        r.problem(&format!("answers: {extra} answer(s) beyond the last board"))?;
        input_errors += 1;
    }
    let t = &r.t;
    let mut summary = format!(
        "checked {} board{}: {} valid ({} optimal, {} suboptimal, {} not compared), {} invalid",
        t.boards,
        if t.boards == 1 { "" } else { "s" },
        t.valid,
        t.optimal,
        t.suboptimal,
        t.not_compared,
        t.invalid
    );
    if t.unreadable > 0 {
        summary += &format!(", {} not checked (the puzzle is not a board)", t.unreadable);
    }
    let layout = input_errors.saturating_sub(t.unreadable);
    if layout > 0 {
        summary += &format!("; {layout} problem(s) with the input's layout (said above)");
    }
    if json {
        eprintln!("npuzzle: {summary}");
    } else {
        writeln!(r.out, "{summary}")?;
    }
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
