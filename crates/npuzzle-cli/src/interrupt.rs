//! SIGINT and SIGTERM for long work (a batch, an exploration): the first sets a flag the
//! library polls, so finished work is written before the process exits 130 or 143; a second
//! signal ends it at once. A repeat within [`SAME_INTERRUPT`] of the first is the same interrupt:
//! `timeout` and some shells signal both the process and its process group, so one stop arrives
//! twice within microseconds, and taking the second for an impatient user would throw away the
//! summary of what was finished.

use anyhow::{Context, Result};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How soon after the first a second signal is taken as the same interrupt, not a second one.
pub const SAME_INTERRUPT: Duration = Duration::from_millis(250);

/// SIGINT and SIGTERM, caught so that a batch writes what it has finished before exiting
/// (see `Solvers::interrupted_by`); a second signal (past [`SAME_INTERRUPT`]) ends the process
/// at once.
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
        let flag = Arc::new(AtomicBool::new(false));
        let status = Arc::new(AtomicUsize::new(0));
        // When the first signal came, in nanoseconds since `epoch` (plus one: 0 is none yet).
        let first_at = Arc::new(AtomicU64::new(0));
        let epoch = Instant::now();
        for (signal, code) in [(SIGINT, 130), (SIGTERM, 143)] {
            let (flag, status, first_at) = (flag.clone(), status.clone(), first_at.clone());
            let handler = move || {
                // Async-signal-safe: atomics, the monotonic clock (clock_gettime) and _exit.
                let now = u64::try_from(epoch.elapsed().as_nanos())
                    .unwrap_or(u64::MAX - 1)
                    .saturating_add(1);
                match first_at.compare_exchange(0, now, Ordering::SeqCst, Ordering::SeqCst) {
                    Ok(_) => {
                        status.store(code, Ordering::SeqCst);
                        flag.store(true, Ordering::SeqCst);
                    }
                    Err(first) if now.saturating_sub(first) >= SAME_INTERRUPT.as_nanos() as u64 => {
                        signal_hook::low_level::exit(code as i32)
                    }
                    Err(_) => {}
                }
            };
            // SAFETY: the handler only touches atomics, reads the monotonic clock and calls
            // `_exit`, all async-signal-safe; it neither allocates nor locks.
            unsafe { signal_hook::low_level::register(signal, handler) }
                .context("installing the signal handlers")?;
        }
        Ok(Interrupt { flag, status })
    }

    /// The exit status the signal asks for.
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.status.load(Ordering::Relaxed).clamp(1, 255) as u8)
    }
}
