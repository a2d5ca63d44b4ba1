//! `npuzzle cube`: UVa 716 ("Commedia dell' arte"), whether M×M×M sliding cubes can be solved.
//! The reading and the rule live in [`npuzzle::cube`]; this prints one verdict per case.

use crate::input;
use anyhow::{Context, Result};
use clap::Args;
use npuzzle::cube::{CubeItem, CubeReader};
use npuzzle::judge::NO_ANSWER;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `npuzzle cube`.
#[derive(Args, Debug)]
pub struct CubeArgs {
    /// Input file (UVa 716: a case count, then per case an edge length M and the M³ cells, 0
    /// the empty one); standard input when omitted or `-`.
    #[arg(value_name = "FILE", default_value = "-")]
    pub input: PathBuf,
    /// Dimensions of the cube (3 in UVa 716; 2 reads square boards, 4 and up hypercubes).
    #[arg(long, default_value_t = 3, allow_negative_numbers = true, value_parser = crate::input::whole_number(1u8, 32))]
    pub dimensions: u8,
}

/// Runs `npuzzle cube`: `Puzzle can be solved.` or `Puzzle is unsolvable.` per case, the
/// marker line for a case that could not be read, reasons on stderr.
pub fn run(args: CubeArgs) -> Result<ExitCode> {
    let reader = CubeReader::new(input::open(&args.input)?, args.dimensions as usize);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut failures, mut problems) = (0usize, 0usize);
    for item in reader {
        match item.context("cannot read the input")? {
            CubeItem::Case(case) => match case.answer {
                Ok(true) => writeln!(out, "Puzzle can be solved.")?,
                Ok(false) => writeln!(out, "Puzzle is unsolvable.")?,
                Err(e) => {
                    writeln!(out, "{NO_ANSWER}")?;
                    out.flush()?;
                    eprintln!("{e}");
                    failures += 1;
                }
            },
            CubeItem::Problem(e) => {
                out.flush()?;
                eprintln!("{e}");
                problems += 1;
            }
        }
    }
    out.flush()?;
    if failures > 0 {
        eprintln!(
            "npuzzle: {failures} case(s) could not be answered (marked `{NO_ANSWER}`; reasons above)"
        );
    }
    Ok(if failures + problems > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
