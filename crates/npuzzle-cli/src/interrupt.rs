//! SIGINT and SIGTERM for long work (a batch, an exploration): the first sets a flag the
//! library polls, so finished work is written before the process exits 130 or 143; a second
//! SIGINT ends it at once.

use anyhow::{Context, Result};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// SIGINT and SIGTERM, caught so that a batch writes what it has finished before exiting
/// (see `Solvers::interrupted_by`); a second SIGINT ends the process at once.
pub struct Interrupt {
    /// Set when a signal arrives.
    pub flag: Arc<AtomicBool>,
    /// The exit status the signal asks for: 130 (SIGINT) or 143 (SIGTERM).
    status: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Installs the handlers.
    pub fn install() -> Result<Interrupt> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        use signal_hook::flag;
        let flag = Arc::new(AtomicBool::new(false));
        let status = Arc::new(AtomicUsize::new(0));
        for (signal, code) in [(SIGINT, 130), (SIGTERM, 143)] {
            // Once the flag is set, the same signal again exits at once (registered first,
            // so that it sees the flag as it was before this signal).
            flag::register_conditional_shutdown(signal, code as i32, flag.clone())
                .context("installing the signal handlers")?;
            flag::register_usize(signal, status.clone(), code)
                .context("installing the signal handlers")?;
            flag::register(signal, flag.clone()).context("installing the signal handlers")?;
        }
        Ok(Interrupt { flag, status })
    }

    /// The exit status the signal asks for.
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.status.load(Ordering::Relaxed).clamp(1, 255) as u8)
    }
}
