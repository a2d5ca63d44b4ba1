//! `npuzzle bench large`: how short the non-optimal solvers' answers are, and what they cost.
//!
//! For each size, seeded random solvable boards are solved with each method asked for (the
//! near-optimal solver and the constructive one by default); every answer is replayed to the
//! goal and must not be labelled optimal. Reported per size and method: the mean and worst
//! length over the Manhattan lower bound, mean and worst time per board, and the process's
//! peak memory while that row ran (the peak is reset before each row). On 5×5, Korf's 50
//! instances are solved as well, against their published optimal lengths.

use crate::instances::{InstanceSet, set_instances};
use crate::pdb::PdbOptions;
use crate::solve::AlgorithmArg;
use anyhow::{Result, bail};
use npuzzle::heuristic::Manhattan;
use npuzzle::near::Effort;
use npuzzle::{Algorithm, Board, Outcome, Shape, SolverBuilder};
use rand::SeedableRng;
use std::process::ExitCode;
use std::time::Instant;

/// What `bench large` measures.
pub struct LargeRun {
    /// Board sizes.
    pub sizes: Vec<Shape>,
    /// Random boards per size (`None`: by size, fewer for larger boards).
    pub boards: Option<usize>,
    /// Random seed.
    pub seed: u64,
    /// Methods to compare.
    pub algorithms: Vec<AlgorithmArg>,
    /// The near-optimal solver's effort.
    pub effort: Effort,
    /// Where pattern databases are cached (the near-optimal solver on 16 to 32 cells).
    pub pdb: PdbOptions,
    /// Also solve Korf's 50 24-puzzles (when 5×5 is among the sizes).
    pub korf24: bool,
}

/// A labelled set of boards toward one goal, with their optimal lengths where known.
type BoardSet = (String, Board, Vec<(Board, Option<usize>)>);

/// One row of the table.
#[derive(Default)]
struct Row {
    boards: usize,
    ratio_sum: f64,
    ratio_worst: f64,
    optimum_ratio_sum: f64,
    with_optimum: usize,
    time_sum: f64,
    time_worst: f64,
}

impl Row {
    fn add(&mut self, moves: usize, bound: usize, optimum: Option<usize>, secs: f64) {
        let ratio = moves as f64 / bound.max(1) as f64;
        self.boards += 1;
        self.ratio_sum += ratio;
        self.ratio_worst = self.ratio_worst.max(ratio);
        if let Some(opt) = optimum {
            self.optimum_ratio_sum += moves as f64 / opt.max(1) as f64;
            self.with_optimum += 1;
        }
        self.time_sum += secs;
        self.time_worst = self.time_worst.max(secs);
    }
}

/// Random boards per size when not given: enough for a stable mean, a few seconds per row.
fn default_boards(shape: Shape) -> usize {
    match shape.cells() {
        0..=121 => 50,
        122..=400 => 10,
        401..=2500 => 3,
        _ => 1,
    }
}

/// Resets the process's peak resident memory (Linux: `/proc/self/clear_refs`), so that the
/// next [`peak_rss_mb`] covers only what ran since.
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// The process's peak resident memory in MB (Linux), if known.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Runs `npuzzle bench large`.
pub fn run(run: LargeRun) -> Result<ExitCode> {
    println!(
        "{:<16} {:<14} {:>6} {:>9} {:>9} {:>9} {:>10} {:>10} {:>9}",
        "boards",
        "method",
        "count",
        "mean/MD",
        "worst/MD",
        "mean/opt",
        "mean time",
        "worst time",
        "peak MB"
    );
    // Each option-not-used sentence once, not once per size and algorithm.
    let mut said: Vec<String> = Vec::new();
    for &shape in &run.sizes {
        let goal = Board::goal(shape);
        let count = run.boards.unwrap_or_else(|| default_boards(shape));
        let mut rng = rand::rngs::SmallRng::seed_from_u64(run.seed);
        let boards: Vec<Board> = (0..count)
            .map(|_| npuzzle::random::random_solvable(&goal, &mut rng))
            .collect();
        let mut sets: Vec<BoardSet> = vec![(
            format!("{shape} random"),
            goal.clone(),
            boards.into_iter().map(|b| (b, None)).collect(),
        )];
        if run.korf24 && shape.width() == 5 && shape.height() == 5 {
            let korf = set_instances(InstanceSet::TwentyFour, false)?;
            let korf_goal = Board::goal_blank_first(shape);
            sets.push((
                "5x5 Korf's 50".into(),
                korf_goal,
                korf.into_iter().map(|(_, b, opt)| (b, Some(opt))).collect(),
            ));
        }
        for (label, goal, boards) in &sets {
            let bound = Manhattan::new(goal);
            for &alg in &run.algorithms {
                let algorithm = alg.algorithm();
                let builder = SolverBuilder::new(goal.clone())
                    .algorithm(algorithm)
                    .effort(run.effort)
                    .pdb_source(run.pdb.source(npuzzle::Use::Check));
                for unused in builder.unused_options() {
                    if !said.contains(&unused) {
                        eprintln!("npuzzle: warning: {unused}");
                        said.push(unused);
                    }
                }
                let solver = builder.build()?;
                reset_peak();
                let mut row = Row::default();
                for (board, optimum) in boards {
                    let started = Instant::now();
                    let answer = match solver.solve(board)? {
                        Outcome::Solved(a) => a,
                        Outcome::Unsolvable => {
                            bail!("{label}: a solvable board reported unsolvable")
                        }
                    };
                    let secs = started.elapsed().as_secs_f64();
                    answer.solution.verify(board, goal)?;
                    if answer.optimal && !algorithm.is_optimal() {
                        bail!("{label}: {} claimed an optimal answer", algorithm.name());
                    }
                    let md = npuzzle::heuristic::Heuristic::estimate(&bound, board.cells());
                    row.add(answer.solution.len(), md as usize, *optimum, secs);
                }
                let n = row.boards.max(1) as f64;
                let opt = if row.with_optimum > 0 {
                    format!("{:.3}", row.optimum_ratio_sum / row.with_optimum as f64)
                } else {
                    "-".into()
                };
                let peak = peak_rss_mb().map_or("-".into(), |m| format!("{m:.0}"));
                let method = match (algorithm, solver.pdbs()) {
                    (Algorithm::Near, Some(set)) => format!("near+{}", set.partition().name),
                    (a, _) => a.name().to_string(),
                };
                println!(
                    "{:<16} {:<14} {:>6} {:>9.3} {:>9.3} {:>9} {:>9.3}s {:>9.3}s {:>9}",
                    label,
                    method,
                    row.boards,
                    row.ratio_sum / n,
                    row.ratio_worst,
                    opt,
                    row.time_sum / n,
                    row.time_worst,
                    peak
                );
            }
        }
    }
    println!(
        "every answer replayed to the goal; none of the non-optimal methods' answers labelled optimal"
    );
    Ok(ExitCode::SUCCESS)
}
