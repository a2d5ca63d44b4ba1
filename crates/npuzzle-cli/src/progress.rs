//! Progress of long searches on a terminal: the library's engine reports its bound and states
//! expanded, the near-optimal solver the cells it has still to peel; here they become a spinner
//! line on stderr, shown only once a search has run for more than a second and never when
//! stderr is not a terminal. One hook serves every search of a run: a line appears for each
//! long search and is cleared when that search ends. Boards of a batch searched at once each
//! have their own line, headed by their input line (the library's reports carry it).

use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use npuzzle::search::{ProgressHook, SearchProgress, Stage};
use std::collections::HashMap;
use std::io::IsTerminal;
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
    // One line per search in flight (at most one per thread), keyed by the board's input line.
    let lines = MultiProgress::new();
    let bars: Mutex<HashMap<Option<usize>, ProgressBar>> = Mutex::new(HashMap::new());
    let hook = move |p: &SearchProgress| {
        let Ok(mut bars) = bars.lock() else {
            return;
        };
        if p.finished {
            if let Some(b) = bars.remove(&p.line) {
                b.finish_and_clear();
                lines.remove(&b);
            }
            return;
        }
        if p.elapsed < Duration::from_secs(1) {
            return;
        }
        let b = bars.entry(p.line).or_insert_with(|| {
            let b = lines.add(ProgressBar::new_spinner());
            b.set_style(
                ProgressStyle::with_template("{spinner} {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            b
        });
        let board = p.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        let rate = p.rate();
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
            _ => format!(", {:.1} M/s", rate / 1e6),
        };
        b.set_message(format!(
            "{label}{board}{stage}: {} states expanded{rate}, {:.0} s",
            p.expanded,
            p.elapsed.as_secs_f64()
        ));
        b.tick();
    };
    Some(ProgressHook(Arc::new(hook)))
}
