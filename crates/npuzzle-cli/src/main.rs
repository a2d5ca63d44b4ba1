//! `npuzzle`: solve, check and compare sliding-tile puzzles from the command line.

mod bench;
mod bench_large;
mod bench_results;
mod check;
mod compare;
mod cube;
mod explore;
mod input;
mod instances;
mod interrupt;
mod load;
mod output;
mod parity;
mod pdb;
mod progress;
mod scramble;
mod serve;
mod shell;
mod solve;
mod units;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Sliding-tile puzzle toolkit: optimal solutions for the 8-puzzle (POJ 1077, HDU 1043,
/// UVa 652) and boards of other sizes.
#[derive(Parser)]
#[command(name = "npuzzle", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve boards given as arguments, in a file, or on standard input (judge formats).
    Solve(solve::SolveArgs),
    /// Judge answers: every move string must be legal and reach the goal.
    Check(check::CheckArgs),
    /// Run the algorithms side by side on the same boards.
    Compare(compare::CompareArgs),
    /// Say whether boards can reach the goal, with the inversion count and blank row.
    Parity(parity::ParityArgs),
    /// UVa 716: whether sliding cubes (any number of dimensions) can be solved.
    Cube(cube::CubeArgs),
    /// Search a board's whole state space: states at each distance, diameter, antipodes.
    Explore(explore::ExploreArgs),
    /// Build, list and verify cached pattern databases.
    Pdb(pdb::PdbArgs),
    /// Print random boards (uniform over solvable states unless --any-parity).
    Scramble(scramble::ScrambleArgs),
    /// Serve the web page and the JSON API.
    Serve(serve::ServeArgs),
    /// Measure whole workloads (release builds): eight, search, korf100, korf24, fifteen80, large, serve.
    Bench(bench::BenchArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(shell::CompletionsArgs),
    /// Print the manual page (roff: `npuzzle man | man -l -`), or write every page to a directory.
    Man(shell::ManArgs),
}

/// Lets a closed output pipe (`npuzzle bench | head -1`) end the process quietly, as it does
/// for other command-line tools, instead of failing a `println!`. The server keeps Rust's
/// default (sockets report a closed peer as an error, never a signal).
fn exit_quietly_on_closed_pipe() {
    // SAFETY: restoring the default disposition of SIGPIPE at start-up, before any thread
    // exists, has no other effect on the process.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let serves = matches!(cli.command, Command::Serve(_))
        || matches!(&cli.command, Command::Bench(b) if b.serves());
    if !serves {
        exit_quietly_on_closed_pipe();
    }
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Check(args) => check::run(args),
        Command::Compare(args) => compare::run(args),
        Command::Parity(args) => parity::run(args),
        Command::Cube(args) => cube::run(args),
        Command::Explore(args) => explore::run(args),
        Command::Pdb(args) => pdb::run(args),
        Command::Scramble(args) => scramble::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Completions(args) => shell::completions::<Cli>(args),
        Command::Man(args) => shell::man::<Cli>(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            if input::is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            eprintln!("npuzzle: error: {e:#}");
            ExitCode::from(2)
        }
    }
}
