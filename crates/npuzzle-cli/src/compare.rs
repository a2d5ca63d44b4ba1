//! `npuzzle compare`: the algorithms side by side on the same boards, as the original material
//! teaches the problem: one table of lengths, optimality, states expanded, memory and time, and
//! optionally an SVG chart of time and states expanded against solution depth.

use crate::input::{self, BoardOptions, FormatArg};
use crate::solve::{AlgorithmArg, HeuristicArg, LimitArgs};
use crate::units::human_seconds;
use anyhow::{Context, Result, bail};
use clap::Args;
use npuzzle::heuristic::HeuristicKind;
use npuzzle::random::random_solvable;
use npuzzle::solver::batch::{Goals, Solvers};
use npuzzle::solver::plan::AUTO_DATABASE_CELLS;
use npuzzle::solver::sinks::{Collect, Collected};
use npuzzle::table::Table;
use npuzzle::{Algorithm, Board, Plan, Shape, Use};
use plotters::prelude::*;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `npuzzle compare`.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Boards to compare on (any judge format); default: a built-in seeded set of random 3×3
    /// boards at depths 4 to 31.
    pub file: Option<PathBuf>,
    /// Algorithms to run, comma-separated.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "table,bfs,bidirectional,astar,idastar,greedy"
    )]
    pub algorithms: Vec<AlgorithmArg>,
    /// Heuristics for astar, idastar, greedy and near, comma-separated.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "manhattan,linear-conflict"
    )]
    pub heuristics: Vec<HeuristicArg>,
    /// Write an SVG chart of time and states expanded against solution depth.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Seed of the built-in board set.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::input::at_least(0u64, u64::MAX))]
    pub seed: u64,
    /// Boards per depth in the built-in set (1 to 1000).
    #[arg(long, default_value_t = 4, allow_negative_numbers = true, value_parser = crate::input::whole_number(1u16, 1000))]
    pub per_depth: u16,
    #[command(flatten)]
    pub board: BoardOptions,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub pdb: crate::pdb::PdbOptions,
}

/// Depths of the built-in 3×3 set.
const DEPTHS: [u8; 8] = [4, 8, 12, 16, 20, 24, 28, 31];

/// The built-in boards: `per_depth` random 3×3 boards at each of [`DEPTHS`].
fn builtin_boards(seed: u64, per_depth: usize) -> Result<Vec<Board>> {
    let table = Table::eight();
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for &d in &DEPTHS {
        let mut found = 0;
        // Depth 31 has two boards among 181,440: rejection sampling needs ~10^5 draws, ~10 ms.
        for _ in 0..50_000_000u64 {
            let b = random_solvable(table.goal(), &mut rng);
            if table.distance(&b) == Some(d) {
                out.push(b);
                found += 1;
                if found == per_depth {
                    break;
                }
            }
        }
    }
    Ok(out)
}

/// One solved board: (optimal depth, states expanded, seconds).
type Point = (usize, u64, f64);

/// A chart panel: its title and the value it plots for a point.
type Panel = (&'static str, fn(&Point) -> f64);

/// One row of the comparison.
struct Row {
    label: String,
    algorithm: Algorithm,
    solved: usize,
    /// Boards whose search stopped at a limit.
    limited: usize,
    /// Answers that did not replay to the goal (a bug: the exit status is then 1).
    wrong: usize,
    /// Boards the method does not handle at all, and why (the first reason).
    refused: usize,
    refusal: Option<String>,
    lengths: Vec<usize>,
    longer_than_optimal: usize,
    /// (depth, expanded, seconds) per solved board.
    points: Vec<Point>,
    peak_stored: u64,
    total: Duration,
}

fn run_row(
    boards: &[Board],
    goals: &Goals,
    reference: &[Option<usize>],
    algorithm: Algorithm,
    heuristic: Option<HeuristicKind>,
    limits: &npuzzle::search::Limits,
    pdb: &crate::pdb::PdbOptions,
) -> Row {
    let label = match heuristic {
        Some(h) => format!("{}+{}", algorithm.name(), h.name()),
        None => algorithm.name().to_string(),
    };
    let mut row = Row {
        label,
        algorithm,
        solved: 0,
        limited: 0,
        wrong: 0,
        refused: 0,
        refusal: None,
        lengths: vec![],
        longer_than_optimal: 0,
        points: vec![],
        peak_stored: 0,
        total: Duration::ZERO,
    };
    // The library's batch on one core: each board searched alone on it, in order; the same
    // rule as `solve` for databases (4×4 `auto`, `pdb`), built only when small.
    let mut limits = limits.clone();
    if limits.progress.is_some() {
        limits.progress = crate::progress::search_progress_labelled(format!("{}: ", row.label));
    }
    let template = goals
        .builder()
        .algorithm(algorithm)
        .heuristic(heuristic)
        .limits(limits)
        .pdb_source(pdb.source(Use::Check));
    let solvers = match Solvers::new(goals.clone(), template).on_threads(1) {
        Ok(s) => s,
        Err(e) => {
            row.refused = boards.len();
            row.refusal = Some(e.to_string());
            return row;
        }
    };
    let shape = boards
        .first()
        .map(|b| b.shape())
        .filter(|s| boards.iter().all(|b| b.shape() == *s));
    let texts: Vec<String> = boards.iter().map(Board::to_judge_line).collect();
    let collected = match solvers.collect(&texts, shape, Collect { letters: false }) {
        Ok(c) => c,
        Err(e) => {
            row.refused = boards.len();
            row.refusal = Some(e.to_string());
            return row;
        }
    };
    for ((b, best), c) in boards.iter().zip(reference).zip(collected) {
        match c {
            Collected::Solved(a) => {
                if a.solution.verify(b, &goals.for_shape(b.shape())).is_err() {
                    row.wrong += 1;
                    continue;
                }
                row.solved += 1;
                row.lengths.push(a.solution.len());
                if best.is_some_and(|best| a.solution.len() > best) {
                    row.longer_than_optimal += 1;
                }
                let depth = best.unwrap_or(a.solution.len());
                row.points
                    .push((depth, a.stats.expanded, a.stats.elapsed.as_secs_f64()));
                row.peak_stored = row.peak_stored.max(a.stats.peak_stored);
                row.total += a.stats.elapsed;
            }
            Collected::Unsolvable => row.solved += 1,
            Collected::Failed(e) => match e.limit_stats() {
                // What the search spent before its limit counts too (its time, its memory).
                Some(stats) => {
                    row.total += stats.elapsed;
                    row.peak_stored = row.peak_stored.max(stats.peak_stored);
                    row.limited += 1;
                }
                None => {
                    row.refused += 1;
                    row.refusal.get_or_insert_with(|| e.to_string());
                }
            },
            Collected::Letters(_) | Collected::Unreadable(_) => {
                row.refused += 1;
                row.refusal
                    .get_or_insert_with(|| "a reply that is no answer".into());
            }
        }
    }
    row
}

fn human(n: f64) -> String {
    if n >= 1e6 {
        format!("{:.2}M", n / 1e6)
    } else if n >= 1e4 {
        format!("{:.1}k", n / 1e3)
    } else {
        format!("{n:.0}")
    }
}

/// One row's figures, as both the table and the JSON lines show them.
#[derive(serde::Serialize)]
struct Figures<'a> {
    algorithm: &'a str,
    boards: usize,
    solved: usize,
    hit_a_limit: usize,
    /// Answers that did not reach the goal (none, unless something is broken).
    wrong_answers: usize,
    /// Boards the method does not handle (`not_handled_because` says why).
    not_handled: usize,
    not_handled_because: Option<&'a str>,
    /// Over the boards solved (`None` when none was).
    mean_length: Option<f64>,
    optimal: String,
    /// Over the boards solved (`None` when none was).
    mean_expanded: Option<f64>,
    max_expanded: Option<u64>,
    peak_stored: u64,
    total_seconds: f64,
    /// Over the boards searched (`None` when the method searched none).
    seconds_per_board: Option<f64>,
}

impl<'a> Figures<'a> {
    fn of(r: &'a Row, boards: usize, checked: bool) -> Figures<'a> {
        let expanded: Vec<u64> = r.points.iter().map(|p| p.1).collect();
        let optimal = if r.solved == 0 {
            "-".to_string()
        } else if !checked {
            "not checked".to_string()
        } else if r.longer_than_optimal == 0 && r.limited == 0 && r.refused == 0 && r.wrong == 0 {
            if r.algorithm.is_optimal() {
                "yes".to_string()
            } else {
                "yes here (not guaranteed)".to_string()
            }
        } else if r.longer_than_optimal == 0 {
            "yes (where solved)".to_string()
        } else {
            format!("no ({} of {} longer)", r.longer_than_optimal, r.solved)
        };
        Figures {
            algorithm: &r.label,
            boards,
            solved: r.solved,
            hit_a_limit: r.limited,
            wrong_answers: r.wrong,
            not_handled: r.refused,
            not_handled_because: r.refusal.as_deref(),
            mean_length: (!r.lengths.is_empty())
                .then(|| r.lengths.iter().sum::<usize>() as f64 / r.lengths.len() as f64),
            optimal,
            mean_expanded: (!expanded.is_empty())
                .then(|| expanded.iter().sum::<u64>() as f64 / expanded.len() as f64),
            max_expanded: expanded.iter().copied().max(),
            peak_stored: r.peak_stored,
            total_seconds: r.total.as_secs_f64(),
            // Over the boards searched, to an answer or to a limit.
            seconds_per_board: (r.solved + r.limited > 0)
                .then(|| r.total.as_secs_f64() / (r.solved + r.limited) as f64),
        }
    }
}

fn print_table(out: &mut impl Write, rows: &[Row], boards: usize, checked: bool) -> Result<()> {
    writeln!(
        out,
        "| algorithm | solved | mean length | optimal | mean expanded | max expanded | peak stored | total time | per board |"
    )?;
    writeln!(out, "|---|---:|---:|---|---:|---:|---:|---:|---:|")?;
    for r in rows {
        let f = Figures::of(r, boards, checked);
        let mut solved = format!("{}/{}", f.solved, boards);
        if f.hit_a_limit > 0 {
            solved += &format!(" ({} hit a limit)", f.hit_a_limit);
        }
        if f.wrong_answers > 0 {
            solved += &format!(" ({} answers do not reach the goal)", f.wrong_answers);
        }
        if let Some(why) = f.not_handled_because {
            solved += &format!(" ({} not handled: {why})", f.not_handled);
        }
        // What only solved (or searched) boards have: `-` without any.
        let or_dash = |v: Option<f64>, show: fn(f64) -> String| v.map_or("-".to_string(), show);
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            f.algorithm,
            solved,
            or_dash(f.mean_length, |m| format!("{m:.2}")),
            f.optimal,
            or_dash(f.mean_expanded, human),
            or_dash(f.max_expanded.map(|m| m as f64), human),
            human(f.peak_stored as f64),
            human_seconds(f.total_seconds),
            or_dash(f.seconds_per_board, human_seconds),
        )?;
    }
    Ok(())
}

/// Mean of `value` per depth, for the chart.
fn by_depth(points: &[Point], value: impl Fn(&Point) -> f64) -> Vec<(f64, f64)> {
    let mut depths: Vec<usize> = points.iter().map(|p| p.0).collect();
    depths.sort_unstable();
    depths.dedup();
    depths
        .into_iter()
        .map(|d| {
            let vals: Vec<f64> = points.iter().filter(|p| p.0 == d).map(&value).collect();
            (d as f64, vals.iter().sum::<f64>() / vals.len() as f64)
        })
        .collect()
}

fn plot(path: &PathBuf, rows: &[Row]) -> Result<()> {
    let root = SVGBackend::new(path, (1200, 520)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
    let panels = root.split_evenly((1, 2));
    let max_depth = rows
        .iter()
        .flat_map(|r| r.points.iter().map(|p| p.0))
        .max()
        .unwrap_or(31) as f64
        + 1.0;
    let series: [Panel; 2] = [
        ("time per board (microseconds)", |p| (p.2 * 1e6).max(0.1)),
        ("states expanded per board", |p| (p.1 as f64).max(1.0)),
    ];
    for (panel, (title, value)) in panels.iter().zip(series) {
        let all: Vec<f64> = rows
            .iter()
            .flat_map(|r| r.points.iter().map(value))
            .collect();
        let lo = all.iter().copied().fold(f64::INFINITY, f64::min).max(0.1) / 2.0;
        let hi = all.iter().copied().fold(1.0, f64::max) * 2.0;
        let mut chart = ChartBuilder::on(panel)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64)
            .build_cartesian_2d(0f64..max_depth, (lo..hi).log_scale())
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        chart
            .configure_mesh()
            .x_desc("optimal solution length")
            .draw()
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        for (i, r) in rows.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let line = by_depth(&r.points, value);
            chart
                .draw_series(LineSeries::new(line.clone(), color.stroke_width(2)))
                .map_err(|e| anyhow::anyhow!("{e}"))?
                .label(r.label.clone())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
                });
            chart
                .draw_series(line.iter().map(|&p| Circle::new(p, 3, color.filled())))
                .map_err(|e| anyhow::anyhow!("{e}"))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    root.present().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}

/// Runs `npuzzle compare`.
pub fn run(args: CompareArgs) -> Result<ExitCode> {
    let limits = args.limits.to_limits()?;
    let algorithms: Vec<Algorithm> = args.algorithms.iter().map(|a| a.algorithm()).collect();
    if let Some(path) = &args.plot {
        input::writable_later(path, "--plot")?;
    }
    let boards: Vec<Board> = match &args.file {
        None => builtin_boards(args.seed, args.per_depth as usize)?,
        Some(path) => {
            let mut reader = input::judge_reader(input::open(path)?, &args.board)?;
            let mut out = vec![];
            while let Some(p) = reader.next_puzzle().context("cannot read the boards")? {
                match p.board {
                    Ok(b) => out.push(b),
                    Err(e) => eprintln!("skipping {e}"),
                }
            }
            out
        }
    };
    if boards.is_empty() {
        bail!("no boards to compare");
    }
    // Rows that may search with pattern databases: a heuristic search (near included) given
    // `--heuristics pdb`, and auto, whose rows the solver builder says of, board size by board
    // size, when it does not use the partition.
    let listed_pdb = args.heuristics.contains(&HeuristicArg::Pdb);
    let pdb_rows = algorithms
        .iter()
        .any(|a| *a == Algorithm::Auto || a.uses_heuristic() && listed_pdb);
    if let Some(partition) = &args.pdb.pdb
        && !pdb_rows
    {
        // Whether any board here is one pattern databases serve: the library's rule.
        let served = boards.iter().any(|b| {
            Plan::wants_databases(b.shape(), Algorithm::IdaStar, Some(HeuristicKind::Pdb))
        });
        let adds = if !served {
            format!(
                "no board here has at most {} cells, the most they serve",
                AUTO_DATABASE_CELLS.end()
            )
        } else if algorithms.iter().any(|a| a.uses_heuristic()) {
            "`--heuristics pdb` adds such rows".to_owned()
        } else {
            format!(
                "astar, idastar, greedy or near in `--algorithms` with `--heuristics pdb` adds such rows, and so does auto on boards of {} to {} cells",
                AUTO_DATABASE_CELLS.start(),
                AUTO_DATABASE_CELLS.end()
            )
        };
        eprintln!(
            "npuzzle: warning: the partition {partition} is not used: no row of this comparison searches with pattern databases ({adds})"
        );
    }
    let goals = args.board.goals()?;
    let goal_of = |shape: Shape| goals.for_shape(shape);
    // Optimal lengths from complete tables where the size has one.
    let mut tables: Vec<Table> = vec![];
    let reference: Vec<Option<usize>> = boards
        .iter()
        .map(|b| {
            if !Table::supports(b.shape()) {
                return None;
            }
            if !tables.iter().any(|t| t.shape() == b.shape()) {
                tables.push(Table::build(&goal_of(b.shape())).ok()?);
            }
            let t = tables.iter().find(|t| t.shape() == b.shape())?;
            t.distance(b).map(usize::from)
        })
        .collect();
    let checked = reference.iter().all(Option::is_some);
    let mut rows = vec![];
    for a in &args.algorithms {
        let alg = a.algorithm();
        if alg.uses_heuristic() {
            for h in &args.heuristics {
                let row = run_row(
                    &boards,
                    &goals,
                    &reference,
                    alg,
                    Some(h.kind()),
                    &limits,
                    &args.pdb,
                );
                rows.push(row);
            }
        } else {
            rows.push(run_row(
                &boards, &goals, &reference, alg, None, &limits, &args.pdb,
            ));
        }
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.board.format == FormatArg::Jsonl {
        for r in &rows {
            serde_json::to_writer(&mut out, &Figures::of(r, boards.len(), checked))?;
            writeln!(out)?;
        }
    }
    let depths: Vec<usize> = reference.iter().flatten().copied().collect();
    let header = format!(
        "{} boards{}; optimality {}; single thread; times are search only",
        boards.len(),
        if depths.is_empty() {
            String::new()
        } else {
            format!(
                ", optimal lengths {} to {}",
                depths.iter().min().unwrap_or(&0),
                depths.iter().max().unwrap_or(&0)
            )
        },
        if checked {
            "checked against the complete table"
        } else {
            "not checked (no complete table for this size)"
        }
    );
    if args.board.format != FormatArg::Jsonl {
        writeln!(out, "{header}")?;
        print_table(&mut out, &rows, boards.len(), checked)?;
    }
    out.flush()?;
    if let Some(path) = &args.plot {
        plot(path, &rows).with_context(|| format!("cannot write {}", path.display()))?;
        eprintln!("wrote {}", path.display());
    }
    let wrong = rows
        .iter()
        .any(|r| r.wrong > 0 || (r.algorithm.is_optimal() && r.longer_than_optimal > 0));
    Ok(if wrong {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
