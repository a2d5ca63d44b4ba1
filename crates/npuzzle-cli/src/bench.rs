//! `npuzzle bench`: reproducible speed measurements of whole workloads, in release builds.
//!
//! `bench eight` pushes a seeded set of random 3×3 boards through exactly the pipeline
//! `npuzzle solve` uses (reader thread, parallel chunks, formatted output), times it, then
//! replays every answer to check it.

use crate::input::{BoardOptions, FormatArg};
use crate::output::Notation;
use crate::scramble::write_boards;
use crate::solve::{OutputOptions, Solvers, stream};
use anyhow::{Result, bail};
use clap::{Args, Subcommand};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::judge::{JudgeReader, ReaderOptions};
use npuzzle::search::Limits;
use npuzzle::{Algorithm, Board, Shape, Solution};
use std::io::Cursor;
use std::process::ExitCode;
use std::time::Instant;

/// Boards per second of the classic reverse-BFS C++ solution, measured on this kind of machine.
const CLASSIC_BOARDS_PER_SECOND: f64 = 12_700.0;

/// Arguments of `npuzzle bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub which: Which,
}

/// The available benchmarks.
#[derive(Subcommand, Debug)]
pub enum Which {
    /// Answer N random 3×3 boards end to end (parse, solve, format) and check every answer.
    Eight {
        /// How many boards.
        #[arg(long, default_value_t = 1_000_000)]
        boards: u64,
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Only solvable boards (default: uniformly random, half unsolvable).
        #[arg(long)]
        solvable_only: bool,
    },
}

fn eight(boards: u64, seed: u64, solvable_only: bool) -> Result<ExitCode> {
    let shape = Shape::new(3, 3)?;
    let goal = Board::goal(shape);
    let mut input = Vec::with_capacity(boards as usize * 18);
    write_boards(&mut input, &goal, boards, seed, !solvable_only)?;
    let input_bytes = input.len();

    let options = BoardOptions {
        format: FormatArg::Hdu,
        size: None,
        goal: None,
        blank_first: false,
    };
    let started = Instant::now();
    let mut solvers = Solvers::new(
        &options,
        Algorithm::Auto,
        HeuristicKind::LinearConflict,
        Limits::default(),
    )?;
    let reader = JudgeReader::new(Cursor::new(input), ReaderOptions::default());
    let mut out = Vec::with_capacity(boards as usize * 24);
    let mut err = Vec::new();
    let output = OutputOptions {
        notation: Notation::Judge,
        show: false,
        stats: false,
        json: false,
    };
    let summary = stream(reader, &mut solvers, &output, &mut out, &mut err)?;
    let elapsed = started.elapsed();

    // Check every answer: replay the moves (or the parity for `unsolvable`).
    let mut regenerated = Vec::new();
    write_boards(&mut regenerated, &goal, boards, seed, !solvable_only)?;
    let text = String::from_utf8(regenerated)?;
    let answers = String::from_utf8(out)?;
    let mut checked = 0u64;
    let mut moves = 0u64;
    for (line, answer) in text.lines().zip(answers.lines()) {
        let b = Board::parse(line)?;
        if answer == "unsolvable" {
            if npuzzle::parity::is_solvable(&b, &goal)? {
                bail!("wrong `unsolvable` for {line}");
            }
        } else {
            let s = Solution::from_letters(answer)?;
            s.verify(&b, &goal)?;
            moves += s.len() as u64;
        }
        checked += 1;
    }
    if checked != boards || summary.answered as u64 != boards || summary.failures > 0 {
        bail!("{checked} of {boards} boards answered and checked");
    }
    let per_second = boards as f64 / elapsed.as_secs_f64();
    println!(
        "bench eight: {boards} boards ({} MB in, {} MB out), {:.3} s wall, {:.0} ns/board, {:.2} M boards/s",
        input_bytes / 1_000_000,
        answers.len() / 1_000_000,
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1e9 / boards as f64,
        per_second / 1e6
    );
    println!(
        "  every answer replayed: {checked} ok, {moves} moves in total; {:.0}x the classic reverse-BFS solution ({CLASSIC_BOARDS_PER_SECOND} boards/s)",
        per_second / CLASSIC_BOARDS_PER_SECOND
    );
    Ok(ExitCode::SUCCESS)
}

/// Runs `npuzzle bench`.
pub fn run(args: BenchArgs) -> Result<ExitCode> {
    match args.which {
        Which::Eight {
            boards,
            seed,
            solvable_only,
        } => eight(boards, seed, solvable_only),
    }
}
