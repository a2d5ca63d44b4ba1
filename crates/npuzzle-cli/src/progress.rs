//! Progress of long searches on a terminal: the library's engine reports its bound and states
//! expanded, the near-optimal solver the cells it has still to peel; here they become a spinner
//! line on stderr, shown only once a search has run for more than a second and never when
//! stderr is not a terminal. One hook serves every search of a run: the line appears while a
//! long search runs and is cleared when none does. Boards of a batch searched at once
//! share it: it shows the earliest in the input still running, headed by its line (the library's
//! reports carry it), and how many others run beside it. One line, not one a board, because
//! answers stream to the same terminal meanwhile, and redrawing several lines would wipe them.
//! The answers and reports themselves go through [`AroundProgress`], which takes the line off
//! the screen while they are written, so that none lands on it.

use indicatif::{ProgressBar, ProgressStyle};
use npuzzle::search::{ProgressHook, SearchProgress, Stage};
use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A hook drawing a spinner for searches longer than a second, or `None` off a terminal.
pub fn search_progress() -> Option<ProgressHook> {
    search_progress_labelled(String::new())
}

/// [`search_progress`] with `label` at the head of the line (e.g. which benchmark instance).
pub fn search_progress_labelled(label: String) -> Option<ProgressHook> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    // One line, whatever runs at once: several lines redrawn under answers streaming to the
    // same terminal would wipe them.
    let shown: Mutex<Shown> = Mutex::new(Shown::default());
    let hook = move |p: &SearchProgress| {
        let Ok(mut shown) = shown.lock() else {
            return;
        };
        if p.finished {
            shown.searches.remove(&p.line);
            if shown.searches.is_empty() {
                if let Some(b) = shown.bar.take() {
                    b.finish_and_clear();
                    if let Ok(mut on) = ON_SCREEN.lock() {
                        *on = None;
                    }
                }
            } else {
                shown.draw(&label);
            }
            return;
        }
        if p.elapsed < Duration::from_secs(1) {
            return;
        }
        let stage = match p.stage {
            Stage::Bound(bound) => format!("IDA* bound {bound}"),
            Stage::Peeling { left, cells } => format!("peeling: {left} of {cells} cells left"),
            Stage::Stored(stored) => format!("{stored} states stored"),
            Stage::Layout => "laying out the tables (once)".to_string(),
            _ => "searching".to_string(),
        };
        // No rate while the tables are laid out: nothing is expanded meanwhile.
        let rate = match p.stage {
            Stage::Layout => String::new(),
            _ => format!(", {:.1} M/s", p.rate() / 1e6),
        };
        let text = format!(
            "{stage}: {} states expanded{rate}, {:.0} s",
            p.expanded,
            p.elapsed.as_secs_f64()
        );
        shown.searches.insert(p.line, text);
        shown.draw(&label);
    };
    Some(ProgressHook(Arc::new(hook)))
}

/// The progress line on the screen, if any (one a process: searches report one at a time).
static ON_SCREEN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// A writer to the terminal that takes the progress line off the screen while it writes and
/// draws it again after, so that answers and reports never land on the line (a plain write
/// would be glued to its end, or wiped by its next redraw). Writes straight through when no
/// line is shown.
pub struct AroundProgress<W>(pub W);

impl<W: Write> Write for AroundProgress<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let bar = ON_SCREEN.lock().ok().and_then(|on| on.clone());
        match bar {
            Some(bar) => bar.suspend(|| self.0.write(buf)),
            None => self.0.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.flush()
    }
}

/// The searches in flight and the one terminal line that shows them.
#[derive(Default)]
struct Shown {
    bar: Option<ProgressBar>,
    /// Each search's latest report in words, by its board's input line.
    searches: BTreeMap<Option<usize>, String>,
}

impl Shown {
    /// Shows [`Shown::message`] on the line.
    fn draw(&mut self, label: &str) {
        let Some(message) = self.message(label) else {
            return;
        };
        let bar = self.bar.get_or_insert_with(|| {
            let b = ProgressBar::new_spinner();
            b.set_style(
                ProgressStyle::with_template("{spinner} {wide_msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            if let Ok(mut on) = ON_SCREEN.lock() {
                *on = Some(b.clone());
            }
            b
        });
        bar.set_message(message);
        bar.tick();
    }

    /// The search of the earliest input line still running, headed by that line, and how
    /// many others run beside it; `None` when none runs.
    fn message(&self, label: &str) -> Option<String> {
        let (line, text) = self.searches.first_key_value()?;
        // The others first, so that a line cut at the terminal's width keeps them.
        let more = match self.searches.len() - 1 {
            0 => String::new(),
            n => format!(" (and {n} more)"),
        };
        let board = line
            .map(|l| format!("line {l}{more}: "))
            .unwrap_or_default();
        Some(format!("{label}{board}{text}"))
    }
}

#[cfg(test)]
mod tests {
    use super::Shown;

    #[test]
    fn the_line_shows_the_earliest_search_and_counts_the_others() {
        let mut shown = Shown::default();
        assert_eq!(shown.message(""), None);
        shown.searches.insert(Some(7), "bound 93".into());
        assert_eq!(shown.message("").as_deref(), Some("line 7: bound 93"));
        // A later board that reports: the earlier line still heads.
        shown.searches.insert(Some(12), "bound 95".into());
        assert_eq!(
            shown.message("#1: ").as_deref(),
            Some("#1: line 7 (and 1 more): bound 93")
        );
        // An earlier board that starts reporting takes the head.
        shown.searches.insert(Some(3), "bound 60".into());
        assert_eq!(
            shown.message("").as_deref(),
            Some("line 3 (and 2 more): bound 60")
        );
        shown.searches.remove(&Some(3));
        shown.searches.remove(&Some(7));
        assert_eq!(shown.message("").as_deref(), Some("line 12: bound 95"));
        // A search on its own has no line.
        let mut alone = Shown::default();
        alone.searches.insert(None, "bound 50".into());
        assert_eq!(alone.message("").as_deref(), Some("bound 50"));
    }
}
