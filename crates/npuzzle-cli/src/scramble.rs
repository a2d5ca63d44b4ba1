//! `npuzzle scramble`: random boards for practice or as benchmark input, written in any of the
//! judge conventions or as JSON lines.

use crate::input::{BoardOptions, FormatArg};
use anyhow::{Context, Result, bail};
use clap::Args;
use npuzzle::random::{random_board, random_solvable};
use npuzzle::{Board, Shape};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::io::{self, Write};
use std::process::ExitCode;

/// Arguments of `npuzzle scramble`.
#[derive(Args, Debug)]
pub struct ScrambleArgs {
    /// How many boards.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::input::at_least(0u64, u64::MAX))]
    pub count: u64,
    /// Random seed (default: from the clock); the same seed gives the same boards.
    #[arg(long, allow_negative_numbers = true, value_parser = crate::input::at_least(0u64, u64::MAX))]
    pub seed: Option<u64>,
    /// Uniformly random arrangements of either parity (half cannot be solved).
    #[arg(long)]
    pub any_parity: bool,
    /// Board size WxH (default 3x3, or the size of --goal).
    #[arg(long, value_name = "WxH", allow_hyphen_values = true)]
    pub size: Option<Shape>,
    /// The goal the boards must be able to reach (default: tiles in order, blank last).
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// Boards solvable toward Korf's goal (blank first, then tiles in order).
    #[arg(long, conflicts_with = "goal")]
    pub blank_first: bool,
    /// How to write the boards (`hdu`, `poj` and `uva` are inputs of `npuzzle solve`; `jsonl`
    /// is for other programs).
    #[arg(long, value_enum, default_value = "hdu")]
    pub format: ScrambleFormat,
}

/// How `npuzzle scramble` writes its boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ScrambleFormat {
    /// One board per line (HDU 1043 input).
    #[value(alias = "auto")]
    Hdu,
    /// One board on one line (POJ 1077 input; needs --count 1).
    Poj,
    /// UVa 652 input: the count, then each board after a blank line, one row per line.
    Uva,
    /// One JSON object per board: board, width, height, solvable.
    Jsonl,
}

/// Writes `count` boards of `shape` (solvable toward `goal` unless `any_parity`), one per line.
pub fn write_boards(
    out: &mut impl Write,
    goal: &Board,
    count: u64,
    seed: u64,
    any_parity: bool,
) -> io::Result<()> {
    write_formatted(out, goal, count, seed, any_parity, ScrambleFormat::Hdu)
}

/// Writes the boards in `format`.
fn write_formatted(
    out: &mut impl Write,
    goal: &Board,
    count: u64,
    seed: u64,
    any_parity: bool,
    format: ScrambleFormat,
) -> io::Result<()> {
    let mut rng = SmallRng::seed_from_u64(seed);
    if format == ScrambleFormat::Uva {
        writeln!(out, "{count}")?;
    }
    for _ in 0..count {
        let b = if any_parity {
            random_board(goal.shape(), &mut rng)
        } else {
            random_solvable(goal, &mut rng)
        };
        match format {
            ScrambleFormat::Uva => {
                writeln!(out)?;
                let width = b.shape().width();
                let line = b.to_judge_line();
                let tokens: Vec<&str> = line.split(' ').collect();
                for row in tokens.chunks(width) {
                    writeln!(out, "{}", row.join(" "))?;
                }
            }
            ScrambleFormat::Jsonl => {
                let solvable = npuzzle::parity::is_solvable(&b, goal).unwrap_or(false);
                let row = serde_json::json!({
                    "board": b.to_judge_line(),
                    "width": b.shape().width(),
                    "height": b.shape().height(),
                    "solvable": solvable,
                });
                writeln!(out, "{row}")?;
            }
            _ => writeln!(out, "{}", b.to_judge_line())?,
        }
    }
    Ok(())
}

/// Runs `npuzzle scramble`.
pub fn run(args: ScrambleArgs) -> Result<ExitCode> {
    if args.format == ScrambleFormat::Poj && args.count != 1 {
        bail!(
            "--format poj holds exactly one board; use --count 1, or --format hdu|uva|jsonl for {}",
            args.count
        );
    }
    let options = BoardOptions {
        format: FormatArg::Auto,
        size: args.size,
        goal: args.goal.clone(),
        blank_first: args.blank_first,
    };
    let shape = options.fixed_shape()?.unwrap_or(Shape::new(3, 3)?);
    let goal = options.goals()?.for_shape(shape);
    // A board's tile count alone names its size only when it is square.
    if shape.width() != shape.height() && args.format != ScrambleFormat::Jsonl && args.count > 0 {
        let goal_flag = match (&args.goal, args.blank_first) {
            (Some(g), _) => format!(" --goal '{g}'"),
            (None, true) => " --blank-first".to_string(),
            (None, false) => String::new(),
        };
        eprintln!(
            "npuzzle: {shape} boards are read back with `npuzzle solve --size {shape}{goal_flag}` (their tile count alone does not say their shape)"
        );
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    write_formatted(
        &mut out,
        &goal,
        args.count,
        seed,
        args.any_parity,
        args.format,
    )
    .and_then(|()| out.flush())
    .context("cannot write the boards")?;
    Ok(ExitCode::SUCCESS)
}
