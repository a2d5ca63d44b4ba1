//! `npuzzle scramble`: random boards, one per line, for practice or as benchmark input.

use crate::input::BoardOptions;
use anyhow::Result;
use clap::Args;
use npuzzle::Shape;
use npuzzle::random::{random_board, random_solvable};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::io::{self, Write};
use std::process::ExitCode;

/// Arguments of `npuzzle scramble`.
#[derive(Args, Debug)]
pub struct ScrambleArgs {
    /// How many boards.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Random seed (default: from the clock).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Uniformly random arrangements of either parity (half cannot be solved).
    #[arg(long)]
    pub any_parity: bool,
    #[command(flatten)]
    pub board: BoardOptions,
}

/// Writes `count` boards of `shape` (solvable toward `goal` unless `any_parity`).
pub fn write_boards(
    out: &mut impl Write,
    goal: &npuzzle::Board,
    count: u64,
    seed: u64,
    any_parity: bool,
) -> io::Result<()> {
    let mut rng = SmallRng::seed_from_u64(seed);
    for _ in 0..count {
        let b = if any_parity {
            random_board(goal.shape(), &mut rng)
        } else {
            random_solvable(goal, &mut rng)
        };
        writeln!(out, "{}", b.to_judge_line())?;
    }
    Ok(())
}

/// Runs `npuzzle scramble`.
pub fn run(args: ScrambleArgs) -> Result<ExitCode> {
    let shape = args.board.fixed_shape()?.unwrap_or(Shape::new(3, 3)?);
    let goal = args
        .board
        .goal_for(shape, args.board.goal_board()?.as_ref());
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
    });
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    write_boards(&mut out, &goal, args.count, seed, args.any_parity)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
