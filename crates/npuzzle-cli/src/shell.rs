//! Shell integration a command-line tool is expected to have: completion scripts and a manual
//! page, both generated from the same clap definitions as `--help`, so they never drift.

use anyhow::{Context, Result, bail};
use clap::{Args, CommandFactory};
use clap_complete::Shell;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Options of `npuzzle completions`.
#[derive(Args)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_enum)]
    shell: Shell,
}

/// Writes the completion script for the chosen shell to standard output.
pub fn completions<C: CommandFactory>(args: CompletionsArgs) -> Result<ExitCode> {
    let mut cmd = C::command();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut cmd, "npuzzle", &mut out);
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Options of `npuzzle man`.
#[derive(Args)]
pub struct ManArgs {
    /// Write every page (npuzzle.1, npuzzle-solve.1, …) into this directory instead of
    /// printing the main one.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
}

/// Prints the main manual page (roff: `npuzzle man | man -l -`), or writes one page per
/// subcommand too into `--dir`.
pub fn man<C: CommandFactory>(args: ManArgs) -> Result<ExitCode> {
    let cmd = C::command();
    if let Some(dir) = args.dir {
        // Anything there but a directory (a file, a broken link) is named as such.
        if dir.symlink_metadata().is_ok() && !dir.is_dir() {
            bail!(
                "{} is not a directory: --dir takes one (made if missing)",
                dir.display()
            );
        }
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        clap_mangen::generate_to(cmd, &dir)
            .with_context(|| format!("writing the pages into {}", dir.display()))?;
        eprintln!("npuzzle: manual pages written to {}", dir.display());
        return Ok(ExitCode::SUCCESS);
    }
    let mut out = std::io::stdout().lock();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
