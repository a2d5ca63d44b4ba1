//! `npuzzle explore WxH`: a breadth-first search of a whole state space (the library's
//! `space::explore`), printed as it goes: each distance's count, then the diameter, the
//! antipodes and the mean distance; `--format json` for the whole report, `--plot` for an SVG
//! histogram.

use crate::interrupt::Interrupt;
use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use npuzzle::heuristic::pdb_set::human_bytes;
use npuzzle::space::{self, ExploreError, ExploreOptions, Report, SweepEvent};
use npuzzle::{Board, Shape};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

/// Arguments of `npuzzle explore`.
#[derive(Args, Debug)]
pub struct ExploreArgs {
    /// The board size, WxH (columns x rows), at most 16 cells: 3x3, 4x3, 6x2, 7x2 ...
    #[arg(value_name = "WxH")]
    pub size: Shape,
    /// The goal (default: tiles in order, blank last); distances are counted toward it.
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// Most memory the search may take, in MiB (default: three quarters of what is available).
    /// The search needs two bits a state and is refused up front when that does not fit.
    #[arg(long, value_name = "MiB", allow_negative_numbers = true, value_parser = crate::input::at_least(1u64, u64::MAX >> 20))]
    pub max_memory: Option<u64>,
    /// `text`: each distance's count as it is found, then the summary; `json`: the whole report.
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
    /// Also write the histogram as an SVG bar chart to this file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// How many antipodes to list (all of them when there are at most this many).
    #[arg(long, default_value_t = space::DEFAULT_SAMPLE, value_name = "N", allow_negative_numbers = true, value_parser = crate::input::at_least(0usize, usize::MAX))]
    pub antipodes: usize,
}

/// How `explore` prints its report.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Lines for people.
    Text,
    /// One JSON object.
    Json,
}

/// Runs `npuzzle explore`.
pub fn run(args: ExploreArgs) -> Result<ExitCode> {
    if let Some(path) = &args.plot {
        crate::input::writable_later(path, "--plot")?;
    }
    let goal = match &args.goal {
        Some(text) => Board::parse_with_shape(text, Some(args.size))
            .map_err(|e| anyhow::anyhow!("{}", e.kind))
            .context("--goal is not a valid board of that size")?,
        None => Board::goal(args.size),
    };
    if goal.shape() != args.size {
        bail!("--goal is a {} board, not {}", goal.shape(), args.size);
    }
    let signals = Interrupt::install()?;
    let text = args.format == ReportFormat::Text;
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = ProgressBar::new(0);
        b.set_style(
            ProgressStyle::with_template(
                "{spinner} distance {msg} [{bar:30}] {percent}% of the array scanned, {elapsed}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    });
    // The header goes out with the first distance, once the search has started: a search
    // refused up front (too large, memory) prints nothing on standard output.
    let header = text.then(|| {
        let needed = space::explore_memory(args.size).unwrap_or(0);
        format!(
            "exploring {} toward {} ({} for the search)\n{:>8} {:>16} {:>16}",
            args.size,
            goal.to_judge_line(),
            human_bytes(needed),
            "distance",
            "states",
            "known"
        )
    });
    let printed = Mutex::new((std::io::stdout(), header));
    let progress_bar = bar.clone();
    let report_layers = text;
    let progress = move |e: SweepEvent| match e {
        SweepEvent::Layer {
            distance,
            states,
            known,
        } => {
            if report_layers && let Ok(mut guard) = printed.lock() {
                let (out, header) = &mut *guard;
                let mut line = format!("{distance:>8} {states:>16} {known:>16}");
                if let Some(h) = header.take() {
                    line = format!("{h}\n{line}");
                }
                match &progress_bar {
                    Some(b) => b.println(line),
                    None => {
                        let _ = writeln!(out, "{line}");
                        let _ = out.flush();
                    }
                }
            }
        }
        SweepEvent::Scanning {
            distance,
            scanned,
            total,
            ..
        } => {
            if let Some(b) = &progress_bar {
                b.set_length(total);
                b.set_position(scanned);
                b.set_message(distance.to_string());
            }
        }
    };
    let options = ExploreOptions {
        max_memory: args.max_memory.map(|mib| mib.saturating_mul(1 << 20)),
        sample: Some(args.antipodes),
        stop: Some(signals.flag.clone()),
        progress: Some(Arc::new(progress)),
    };
    let result = space::explore(&goal, &options);
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let report = match result {
        Ok(r) => r,
        Err(ExploreError::Stopped) => {
            eprintln!("npuzzle: interrupted: the search was stopped before it finished");
            return Ok(signals.exit_code());
        }
        Err(e @ ExploreError::NotEnoughMemory { .. }) => {
            eprintln!("npuzzle: error: {e}; raise --max-memory (MiB) if this machine has it");
            return Ok(ExitCode::from(2));
        }
        Err(e) => {
            eprintln!("npuzzle: error: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    if let Some(path) = &args.plot {
        std::fs::write(path, svg_histogram(&report))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if text {
        print_summary(&report);
    } else {
        println!("{}", serde_json::to_string(&report)?);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_summary(r: &Report) {
    println!("states: {}", r.states);
    println!("diameter: {}", r.diameter);
    println!("antipodes: {}", r.antipodes);
    let listed = r.antipode_sample.len() as u64;
    if listed > 0 && listed < r.antipodes {
        println!("  the first {listed} by index:");
    }
    for a in &r.antipode_sample {
        println!("  {a}");
    }
    println!("mean distance: {:.4}", r.mean_distance);
    println!(
        "time: {:.2} s on {} threads; memory: {}",
        r.seconds,
        r.threads,
        human_bytes(r.memory_bytes)
    );
}

/// The histogram as an SVG bar chart (one bar per distance, a logarithmic and a linear
/// reading are both useful; this draws the linear one, with the counts in each bar's title).
fn svg_histogram(r: &Report) -> String {
    let (w, h, left, bottom, top) = (900.0, 420.0, 80.0, 40.0, 40.0);
    let max = r.histogram.iter().copied().max().unwrap_or(1).max(1) as f64;
    let bars = r.histogram.len().max(1) as f64;
    let slot = (w - left - 20.0) / bars;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{left}\" y=\"24\" font-size=\"15\">{} sliding puzzle: states at each distance ({} states, diameter {}, mean {:.2})</text>\n",
        r.size, r.states, r.diameter, r.mean_distance
    );
    let plot_h = h - top - bottom;
    for (d, &c) in r.histogram.iter().enumerate() {
        let bh = c as f64 / max * plot_h;
        let x = left + d as f64 * slot;
        let y = top + plot_h - bh;
        s += &format!(
            "<rect x=\"{x:.2}\" y=\"{y:.2}\" width=\"{:.2}\" height=\"{bh:.2}\" fill=\"#3b6ea8\"><title>distance {d}: {c} state{}</title></rect>\n",
            (slot * 0.85).max(0.5),
            if c == 1 { "" } else { "s" }
        );
    }
    let axis_y = top + plot_h;
    s += &format!(
        "<line x1=\"{left}\" y1=\"{axis_y}\" x2=\"{}\" y2=\"{axis_y}\" stroke=\"black\"/>\n",
        w - 20.0
    );
    let step = (r.histogram.len() / 10).max(1);
    for d in (0..r.histogram.len()).step_by(step) {
        let x = left + (d as f64 + 0.5) * slot;
        s += &format!(
            "<text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{d}</text>\n",
            axis_y + 16.0
        );
    }
    s += &format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">distance (moves)</text>\n",
        left + (w - left) / 2.0,
        h - 6.0
    );
    s += &format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n<text x=\"{:.1}\" y=\"{axis_y:.1}\" text-anchor=\"end\">0</text>\n",
        left - 6.0,
        top + 4.0,
        max as u64,
        left - 6.0
    );
    s += "</svg>\n";
    s
}
