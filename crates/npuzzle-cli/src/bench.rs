//! `npuzzle bench`: reproducible speed measurements of whole workloads, in release builds.
//!
//! `bench eight` pushes a seeded set of random 3×3 boards through exactly the pipeline
//! `npuzzle solve` uses (the library's batch: reader thread, parallel chunks, text sink), times
//! it, then replays every answer to check it.

use crate::bench_results::{
    InstanceResult, KeptCheckpoint, LineCheck, ResultsFile, checkpoint_path, counted,
    latest_solution, pending, project,
};
use crate::instances::{InstanceSet, korf100_instances, set_instances};
use crate::scramble::write_boards;
use crate::solve::{AlgorithmArg, HeuristicArg};
use crate::units::human_seconds;
use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::judge::{JudgeReader, ReaderOptions};
use npuzzle::search::{Checkpoint, CheckpointHook, Limits};
use npuzzle::solver::batch::{Goals, Solvers, global_threads};
use npuzzle::solver::sinks::{Collect, Collected, Text, TextWriter};
use npuzzle::table::Table;
use npuzzle::{Algorithm, Board, Outcome, Shape, Solution, Solver, SolverBuilder};
use std::io::Cursor;
use std::process::ExitCode;
use std::time::Instant;

/// Boards per second of the classic reverse-BFS C++ solution, measured on this kind of machine.
const CLASSIC_BOARDS_PER_SECOND: f64 = 12_700.0;

/// Arguments of `npuzzle bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub which: Which,
}

impl BenchArgs {
    /// Whether this benchmark runs a web server.
    pub fn serves(&self) -> bool {
        matches!(self.which, Which::Serve { .. })
    }
}

/// The available benchmarks.
#[derive(Subcommand, Debug)]
pub enum Which {
    /// Answer N random 3×3 boards end to end (parse, solve, format) and check every answer.
    Eight {
        /// How many boards.
        #[arg(long, default_value_t = 1_000_000, allow_negative_numbers = true, value_parser = crate::input::at_least(1u64, u64::MAX))]
        boards: u64,
        /// Random seed.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::input::at_least(0u64, u64::MAX))]
        seed: u64,
        /// Only solvable boards (default: uniformly random, half unsolvable).
        #[arg(long)]
        solvable_only: bool,
    },
    /// Korf's 100 15-puzzles solved optimally with IDA* over pattern databases; every length
    /// is checked against the published optimum (exit 1 on a mismatch).
    Korf100 {
        /// Partition (default: the strongest cached preset of 7-8, 6-6-3 and 5-5-5, else 6-6-3
        /// built now).
        #[arg(long, value_parser = crate::input::partition)]
        partition: Option<String>,
        /// Directory of cached pattern databases (default: $NPUZZLE_PDB_DIR when set and not
        /// empty, else npuzzle/pdb in the user's cache directory).
        #[arg(long, value_name = "DIR", value_parser = crate::input::cache_dir())]
        pdb_dir: Option<std::path::PathBuf>,
        /// Use the blank-last form of the instances (default: Korf's blank-first form).
        #[arg(long)]
        blank_last: bool,
        /// How to use the cores.
        #[arg(long, value_enum, default_value = "tree")]
        split: Split,
        /// Only the first N instances.
        #[arg(long, default_value_t = 100, allow_negative_numbers = true, value_parser = crate::input::at_least(1usize, usize::MAX))]
        first: usize,
    },
    /// Korf and Felner's 50 24-puzzles solved optimally with IDA* over pattern databases
    /// (6-6-6-6 with the reflected lookup by default; built once, minutes), one instance at a
    /// time on all cores; every length is checked against the published optimum (exit 1 on a
    /// mismatch). An instance that reaches --budget is reported, not failed.
    Korf24 {
        /// Instance numbers, 1-based (e.g. 1,5,40).
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "1,5,40",
            conflicts_with = "all",
            allow_negative_numbers = true, value_parser = crate::input::whole_number(1usize, 50)
        )]
        instances: Vec<usize>,
        /// All fifty, in order (hours to days: use with --results).
        #[arg(long)]
        all: bool,
        /// Append each finished instance to FILE as a JSON line (a solved one with its moves,
        /// replayed before a later run counts the line), and skip the instances FILE already
        /// holds a solution for: a run stopped at any point resumes where it stopped.
        /// An instance stopped by the budget or an interrupt (Ctrl-C, SIGTERM) is recorded
        /// unsolved with the states it spent; its search goes on next time from its checkpoint
        /// (the iterations it finished and the subtrees of the current one it searched whole,
        /// kept beside FILE as FILE.N.FORM.NAME-HASH.checkpoint, NAME and HASH naming the
        /// databases, until it is solved).
        /// One run a file at a time (a second is refused while the first holds it).
        #[arg(long, value_name = "FILE")]
        results: Option<std::path::PathBuf>,
        /// Search nothing and load nothing: print what --results FILE holds for all fifty, with
        /// the projection for the rest (the databases counted are those of the file's last
        /// solved line of this form; see docs/cli.md for the fallbacks).
        #[arg(long, requires = "results", conflicts_with_all = ["instances", "budget", "partition", "pdb_dir"])]
        summary: bool,
        /// Price each instance still to solve from its solved line in FILE, an earlier results
        /// file of the fifty (another build or heuristic): its states there times the geometric
        /// mean, over the instances solved in both, of states here over states there (with at
        /// least three in common; the others are priced from the fit). FILE's lines counted are
        /// those of the databases this run counts, else of FILE's last solved line.
        #[arg(long, value_name = "FILE", requires = "results")]
        reference: Option<std::path::PathBuf>,
        /// Most seconds per instance.
        #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = crate::input::seconds)]
        budget: Option<f64>,
        /// Partition (default: 6-6-6-6, loaded when cached, else built now; blocks-K or a tile list
        /// only when named).
        #[arg(long, value_parser = crate::input::partition)]
        partition: Option<String>,
        /// Directory of cached pattern databases (default: $NPUZZLE_PDB_DIR when set and not
        /// empty, else npuzzle/pdb in the user's cache directory).
        #[arg(long, value_name = "DIR", value_parser = crate::input::cache_dir())]
        pdb_dir: Option<std::path::PathBuf>,
        /// Use the blank-last form of the instances (default: Korf's blank-first form).
        #[arg(long)]
        blank_last: bool,
    },
    /// The 17 15-puzzles that need 80 moves (the most any 15-puzzle needs), each solved
    /// optimally on all cores with IDA* over pattern databases; every length is checked
    /// (exit 1 on a mismatch).
    Fifteen80 {
        /// Partition (default: the strongest cached preset of 7-8, 6-6-3 and 5-5-5, else 6-6-3
        /// built now).
        #[arg(long, value_parser = crate::input::partition)]
        partition: Option<String>,
        /// Directory of cached pattern databases (default: $NPUZZLE_PDB_DIR when set and not
        /// empty, else npuzzle/pdb in the user's cache directory).
        #[arg(long, value_name = "DIR", value_parser = crate::input::cache_dir())]
        pdb_dir: Option<std::path::PathBuf>,
        /// Use the blank-first form (default: the blank-last form they were published in).
        #[arg(long)]
        blank_first: bool,
    },
    /// How short the non-optimal solvers' answers are: per size, mean and worst length over
    /// the Manhattan bound (and over the optimum on Korf's 50 24-puzzles), time per board and
    /// peak memory; every answer replayed.
    Large {
        /// Board sizes, WxH.
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "5x5,10x10,16x16,30x30,100x100"
        )]
        sizes: Vec<Shape>,
        /// Random boards per size (default: 50 up to 11×11, fewer for larger boards).
        #[arg(long, allow_negative_numbers = true, value_parser = crate::input::whole_number(1usize, 100_000))]
        boards: Option<usize>,
        /// Random seed.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::input::at_least(0u64, u64::MAX))]
        seed: u64,
        /// Methods to compare.
        #[arg(long, value_enum, value_delimiter = ',', default_value = "near,large")]
        algorithms: Vec<AlgorithmArg>,
        /// The near-optimal solver's effort, 1 to 5.
        #[arg(long, value_name = "1-5", default_value_t = 1, allow_negative_numbers = true, value_parser = crate::input::whole_number(1u8, 5))]
        effort: u8,
        /// Skip Korf's 50 24-puzzles on 5×5.
        #[arg(long)]
        no_korf24: bool,
        #[command(flatten)]
        pdb: crate::pdb::PdbOptions,
    },
    /// The web API under load: N solve requests for random 3×3 boards from C concurrent
    /// connections on loopback (throughput, p50/p99 latency, errors), then again while a
    /// burst of 4×4 and 5×5 solves runs.
    Serve {
        /// 3×3 solve requests per phase (1 to 10,000,000).
        #[arg(long, default_value_t = 20_000, allow_negative_numbers = true, value_parser = crate::input::whole_number(1usize, 10_000_000))]
        requests: usize,
        /// Concurrent connections (1 to 1024).
        #[arg(long, default_value_t = 64, allow_negative_numbers = true, value_parser = crate::input::whole_number(1usize, 1024))]
        connections: usize,
        /// Heavy (4×4 and 5×5) requests in the burst phase (0 to 1000).
        #[arg(long, default_value_t = 40, allow_negative_numbers = true, value_parser = crate::input::whole_number(0usize, 1000))]
        heavy: usize,
        #[command(flatten)]
        pdb: crate::pdb::PdbOptions,
    },
    /// Search speed: IDA* with linear conflict on every 3×3 board at depth 30-31, then A* and
    /// IDA* on Korf's 15-puzzles (blank-last form) whose optimum is at most --max-length.
    Search {
        /// Largest published optimum of the Korf instances to include.
        #[arg(long, default_value_t = 50, allow_negative_numbers = true, value_parser = crate::input::at_least(0usize, usize::MAX))]
        max_length: usize,
        /// Algorithms for the Korf instances.
        #[arg(
            long,
            value_enum,
            value_delimiter = ',',
            default_value = "idastar,astar"
        )]
        algorithms: Vec<AlgorithmArg>,
        /// Heuristics for the Korf instances.
        #[arg(
            long,
            value_enum,
            value_delimiter = ',',
            default_value = "manhattan,linear-conflict"
        )]
        heuristics: Vec<HeuristicArg>,
        /// Stop a run after this many expanded states per instance.
        #[arg(long, default_value_t = 2_000_000_000, allow_negative_numbers = true, value_parser = crate::input::at_least(1u64, u64::MAX))]
        max_nodes: u64,
        /// Most states A* may store per instance.
        #[arg(long, default_value_t = 60_000_000, allow_negative_numbers = true, value_parser = crate::input::at_least(1u64, u64::MAX))]
        max_stored: u64,
    },
}

/// How `bench korf100` uses the two cores.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Split {
    /// Solve instances in parallel (each may still split its tree when a thread is idle).
    Boards,
    /// Solve instances one after another, each split across all threads.
    Tree,
    /// One thread, one instance at a time.
    Serial,
}

/// What a `bench korf…` run does.
pub struct KorfRun {
    /// The instance set.
    pub set: InstanceSet,
    /// Partition (default: the strongest cached preset, else the shape's default built now).
    pub partition: Option<String>,
    /// Directory of cached pattern databases (default: $NPUZZLE_PDB_DIR when set and not
    /// empty, else npuzzle/pdb in the user's cache directory).
    pub pdb_dir: Option<std::path::PathBuf>,
    /// Blank-last form of the instances.
    pub blank_last: bool,
    /// How to use the cores.
    pub split: Split,
    /// Instance numbers (1-based), in order.
    pub instances: Vec<usize>,
    /// Time limit per instance.
    pub budget: Option<f64>,
    /// The results file to resume from and append to.
    pub results: Option<std::path::PathBuf>,
    /// Only report what the results file holds.
    pub summary: bool,
    /// An earlier results file whose solved lines price the instances still to solve.
    pub reference: Option<std::path::PathBuf>,
}

/// One instance's result, as its row of the table shows it.
#[derive(Clone, Debug)]
struct KorfLine {
    /// Instance number, 1-based.
    instance: usize,
    /// Length found, `None` when a limit stopped the search.
    found: Option<usize>,
    /// Published optimal length.
    optimum: usize,
    /// States expanded.
    expanded: u64,
    /// Search time in seconds.
    seconds: f64,
    /// The solution's move letters (replayed to the goal), when solved in this run or kept
    /// by the results file.
    moves: Option<String>,
}

impl KorfLine {
    /// The row of a results file's line.
    fn of_record(r: &InstanceResult) -> KorfLine {
        KorfLine {
            instance: r.instance,
            found: r.found,
            optimum: r.optimum,
            expanded: r.expanded,
            seconds: r.seconds,
            moves: r.moves.clone(),
        }
    }
}

/// An instance's line from its outcome (a solution is replayed to the goal; a limit is a
/// line with no length).
fn korf_line(
    (no, b, want): &(usize, Board, usize),
    result: Result<Outcome, npuzzle::SolveError>,
    goal: &Board,
) -> Result<KorfLine> {
    match result {
        Ok(Outcome::Solved(a)) => {
            a.solution.verify(b, goal)?;
            Ok(KorfLine {
                instance: *no,
                found: Some(a.solution.len()),
                optimum: *want,
                expanded: a.stats.expanded,
                seconds: a.stats.elapsed.as_secs_f64(),
                moves: Some(a.solution.to_letters()),
            })
        }
        Ok(Outcome::Unsolvable) => bail!("#{no} reported unsolvable"),
        Err(e) => match e.limit_stats() {
            Some(stats) => Ok(KorfLine {
                instance: *no,
                found: None,
                optimum: *want,
                expanded: stats.expanded,
                seconds: stats.elapsed.as_secs_f64(),
                moves: None,
            }),
            None => Err(e.into()),
        },
    }
}

/// The head of the per-instance table.
const TABLE_HEAD: &str = "  #  length  optimum  estimate        expanded          time    rate";

/// One instance's row of the table.
fn print_line(line: &KorfLine, estimate: u32, note: &str) {
    let (no, want, expanded, secs) = (line.instance, line.optimum, line.expanded, line.seconds);
    let (found, flag) = match line.found {
        Some(l) if l == want => (l.to_string(), ""),
        Some(l) => (l.to_string(), "  MISMATCH"),
        None => ("-".to_string(), "  budget reached"),
    };
    println!(
        "{no:>3}  {found:>6}  {want:>7}  {estimate:>8}  {expanded:>14}  {:>10.3} s  {:>6.1} M/s{flag}{note}",
        secs,
        expanded as f64 / secs.max(1e-9) / 1e6
    );
}

/// An earlier results file (`--reference FILE`), read before any search so that a bad one
/// fails at once; its lines are chosen when the run's databases are known ([`Reference::priced`]).
struct Reference {
    path: std::path::PathBuf,
    held: Vec<InstanceResult>,
}

/// What a reference prices with: the states of each instance's latest solved line of the
/// run's form, from the lines chosen.
struct Priced {
    path: std::path::PathBuf,
    /// `(instance, states)`.
    states: Vec<(usize, u64)>,
    /// The databases of the lines chosen, when they are not the run's own.
    heuristic: Option<String>,
}

impl Reference {
    /// Reads `path`'s lines, each passing `check` (the run's own line check).
    fn read(path: &std::path::Path, check: LineCheck) -> Result<Reference> {
        let held = ResultsFile::read_reference(path, check).context("--reference")?;
        Ok(Reference {
            path: path.to_path_buf(),
            held,
        })
    }

    /// The lines of `form` to price with: those of `heuristic` (the run's databases) when
    /// any is solved, else those of the databases the last solved line of `form` names.
    fn priced(&self, heuristic: &str, form: &str) -> Priced {
        let solved_of = |h: &str| {
            let (lines, _) = counted(&self.held, h, form);
            let mut numbers: Vec<usize> = lines.iter().map(|r| r.instance).collect();
            numbers.sort_unstable();
            numbers.dedup();
            numbers
                .into_iter()
                .filter_map(|no| latest_solution(&lines, no).map(|r| (no, r.expanded)))
                .collect::<Vec<_>>()
        };
        let own = solved_of(heuristic);
        let other = last_solved_heuristic(&self.held, form).filter(|_| own.is_empty());
        Priced {
            path: self.path.clone(),
            states: other.as_deref().map_or(own, solved_of),
            heuristic: other,
        }
    }
}

/// The databases the last solved line of `form` in `held` names.
fn last_solved_heuristic(held: &[InstanceResult], form: &str) -> Option<String> {
    held.iter()
        .rev()
        .find(|h| h.goal == form && h.solved())
        .map(|h| h.heuristic.clone())
}

/// The solved count, their search time, and the projection for the rest of `instances`, each
/// at least what an unsolved line of `lines` (a run stopped by its budget or an interrupt) or
/// its checkpoint in `kept` spent on it; then the instances left, cheapest first, each with its
/// price (without a projection, only those a run stopped unsolved, with what it spent) and
/// where its checkpoint stands.
fn print_projection(
    records: &[InstanceResult],
    lines: &[&InstanceResult],
    instances: &[(usize, Board, usize)],
    kept: &[(usize, Checkpoint)],
    reference: Option<&Priced>,
) {
    // Folded from +0.0: an empty f64 sum is -0.0, printed "-0.000".
    let spent: f64 = records.iter().fold(0.0, |s, r| s + r.seconds);
    // All solved: their total (one instance's is in its row).
    if records.len() >= instances.len() {
        if instances.len() > 1 {
            println!(
                "  solved all {} in {} of search",
                instances.len(),
                human_seconds(spent)
            );
        }
        return;
    }
    // Nothing to say when nothing was spent on any.
    if records.is_empty() && lines.is_empty() && kept.is_empty() {
        return;
    }
    let kept_of = |no: usize| kept.iter().find(|(k, _)| *k == no).map(|(_, c)| c);
    let mut pending = pending(
        instances.iter().map(|(no, _, want)| (*no, *want)),
        records,
        lines,
    );
    // What an unsolved line says a run spent, before the checkpoints raise the floors.
    let in_lines: Vec<u64> = pending.iter().map(|p| p.at_least).collect();
    // A kept checkpoint is a floor too (a killed run writes no unsolved line).
    for p in &mut pending {
        if let Some(c) = kept_of(p.instance) {
            p.at_least = p.at_least.max(c.expanded);
        }
    }
    let solved: Vec<&InstanceResult> = records.iter().collect();
    let projection = project(&solved, &pending, reference.map_or(&[], |r| &r.states));
    match &projection {
        Some(p) => {
            println!(
                "  solved {} of {} in {} of search; the other {} projected at {:.2e} states, {} at {:.1} M/s; measured plus projected {}",
                records.len(),
                instances.len(),
                human_seconds(spent),
                pending.len(),
                p.states(),
                human_seconds(p.seconds()),
                p.rate / 1e6,
                human_seconds(spent + p.seconds()),
            );
            // Without a fit, the reference priced every instance (else there is no projection).
            let fit = p.fit.map_or(String::new(), |f| format!(
                "ln states fitted to the optimal length over the solved, and over any stopped as needing more than they spent, x{:.2} per move; one instance typically strays from the fit by a factor of {:.1} either way",
                f.growth, f.spread
            ));
            let priced = p.priced_from_reference();
            let how = match (&p.scaled, reference) {
                (Some(sc), Some(r)) if priced == 0 => format!(
                    "{fit} ({}, x{:.2} over the {} instances solved in both, prices none of them: it has no line for any instance left, or runs here already spent far more than it says)",
                    r.path.display(),
                    sc.ratio,
                    p.common
                ),
                (Some(sc), Some(r)) => {
                    let rest = pending.len() - priced;
                    format!(
                        "{} of them each from its line in {}{}: x{:.2} the states it took there, the geometric mean over the {} instances solved in both ({:.2} to {:.2}){}",
                        priced,
                        r.path.display(),
                        r.heuristic
                            .as_ref()
                            .map_or(String::new(), |h| format!(" (databases {h})")),
                        sc.ratio,
                        p.common,
                        sc.range.0,
                        sc.range.1,
                        if rest > 0 {
                            format!("; the other {rest} from {fit}")
                        } else {
                            String::new()
                        }
                    )
                }
                _ => fit,
            };
            println!(
                "  (projection: {how}; each is priced at a median, a stopped one at its median given that it needs more than it spent)"
            );
            if let (None, Some(r)) = (&p.scaled, reference) {
                println!(
                    "  ({} not used: {} instance(s) solved both there and here, three are needed)",
                    r.path.display(),
                    p.common
                );
            }
        }
        None => println!(
            "  solved {} of {} in {} of search; a projection for the other {} needs three solved instances, not all of one optimal length{}",
            records.len(),
            instances.len(),
            human_seconds(spent),
            pending.len(),
            if reference.is_some() {
                " (or, from the reference, three solved in both files and a line there for every instance left)"
            } else {
                ""
            }
        ),
    }
    // Each instance still to solve, the cheapest first: what to run next, and its budget.
    // Without a projection, only those a run already spent on.
    let mut rows: Vec<(f64, String)> = pending
        .iter()
        .enumerate()
        .filter(|(_, p)| projection.is_some() || p.at_least > 0)
        .map(|(i, p)| {
            let cost = projection.as_ref().map_or(p.at_least as f64, |q| q.each[i]);
            let floor = p.at_least as f64;
            let mut row = format!("    #{:<3} {:>3} moves", p.instance, p.optimum);
            match &projection {
                // The price is never below the floor: here it is the floor.
                Some(q) if p.at_least > 0 && floor >= cost => {
                    row += &format!(
                        "  at least {cost:.2e} states, {} (where a run stopped unsolved)",
                        human_seconds(cost / q.rate)
                    )
                }
                Some(q) => {
                    row += &format!("  {cost:.2e} states, {}", human_seconds(cost / q.rate));
                    if q.from_reference[i] {
                        row += " (from its line in the reference)";
                    }
                }
                None => {}
            }
            // Without a line (a killed run), the checkpoint below says what was spent.
            if in_lines[i] > 0 && (projection.is_none() || floor < cost) {
                row += &format!(" (a run stopped unsolved after {floor:.2e} states)");
            }
            if let Some(c) = kept_of(p.instance) {
                row += &format!(
                    "; goes on from its checkpoint at bound {}, {:.2e} states in {} so far",
                    c.bound,
                    c.expanded as f64,
                    human_seconds(c.seconds)
                );
            }
            (cost, row)
        })
        .collect();
    rows.sort_by(|a, b| a.0.total_cmp(&b.0));
    if !rows.is_empty() {
        if projection.is_some() {
            println!("  to go, cheapest first:");
        } else {
            println!("  stopped unsolved, fewest states first:");
        }
        for (_, row) in rows {
            println!("{row}");
        }
    }
}

/// The hook that keeps instance `instance`'s checkpoints in `path` (whole or not at all). A
/// write that fails is reported once, and again when writing works once more: the search goes
/// on either way, its last kept checkpoint still there.
fn keeping_checkpoints(
    path: std::path::PathBuf,
    instance: usize,
    heuristic: &str,
    goal: &str,
) -> CheckpointHook {
    let (heuristic, goal) = (heuristic.to_string(), goal.to_string());
    let failing = std::sync::atomic::AtomicBool::new(false);
    CheckpointHook(std::sync::Arc::new(move |c: &Checkpoint| {
        let kept = KeptCheckpoint {
            instance,
            heuristic: heuristic.clone(),
            goal: goal.clone(),
            checkpoint: c.clone(),
        };
        let result = kept.write(&path);
        let was = failing.swap(result.is_err(), std::sync::atomic::Ordering::Relaxed);
        match result {
            Err(e) if !was => eprintln!(
                "npuzzle: {e:#} (the search goes on; this is not repeated until a write succeeds)"
            ),
            Ok(()) if was => eprintln!(
                "npuzzle: the checkpoint {} is written again",
                path.display()
            ),
            _ => {}
        }
    }))
}

/// Removes solved instance `instance`'s checkpoint at `path`; whether it is gone (a failure
/// loses nothing, the solved line makes every run skip the instance, and is reported).
fn remove_checkpoint(path: &std::path::Path, instance: usize) -> bool {
    match std::fs::remove_file(path) {
        Ok(()) => true,
        Err(e) => {
            eprintln!(
                "npuzzle: #{instance} is solved, but its checkpoint {} stays: {e}",
                path.display()
            );
            false
        }
    }
}

/// The checkpoints kept beside the results file `path` for the unsolved `instances` with
/// these databases and goal form. One that is not (another instance's, another run's databases
/// or form, a bound past the optimum, a file that is no checkpoint) is named on stderr as not
/// counted, with why: a summary only reads.
fn kept_checkpoints(
    path: &std::path::Path,
    instances: &[(usize, Board, usize)],
    solved: &[InstanceResult],
    heuristic: &str,
    form: &str,
) -> Vec<(usize, Checkpoint)> {
    instances
        .iter()
        .filter(|(no, ..)| !solved.iter().any(|r| r.instance == *no))
        .filter_map(|&(no, _, optimum)| {
            match KeptCheckpoint::find(path, no, heuristic, form, optimum, false) {
                Ok(kept) => kept.map(|(_, k)| (no, k.checkpoint)),
                Err(e) => {
                    eprintln!("npuzzle: not counted: {e:#}");
                    None
                }
            }
        })
        .collect()
}

/// The check a results file's line must pass to count (a [`LineCheck`]): a line of `form` must
/// name one of the instances (in `all`) with its published optimum, and a line that keeps moves
/// must replay from its instance to `goal` in exactly the length it says it found (an unsolved
/// line keeps none), so that an edited or damaged line never passes for a solution. Lines of
/// the other form are not counted by this run anyway, and lines written before the moves were
/// kept have nothing to replay.
///
/// [`LineCheck`]: crate::bench_results::LineCheck
fn replays<'a>(
    all: &'a [(usize, Board, usize)],
    goal: &'a Board,
    form: &'a str,
) -> impl Fn(&InstanceResult) -> Result<(), String> + 'a {
    move |r| {
        if r.goal != form {
            return Ok(());
        }
        let no = r.instance;
        let Some((_, start, optimum)) = all.get(no.wrapping_sub(1)) else {
            return Err(format!(
                "there is no instance {no} (they are 1 to {})",
                all.len()
            ));
        };
        if r.optimum != *optimum {
            return Err(format!(
                "#{no}'s optimum is {optimum}, not the {} the line says",
                r.optimum
            ));
        }
        let Some(letters) = r.moves.as_deref() else {
            return Ok(());
        };
        let solution = Solution::from_letters(letters)
            .map_err(|e| format!("#{no}'s kept moves are not move letters ({e})"))?;
        solution
            .verify(start, goal)
            .map_err(|e| format!("#{no}'s kept moves do not solve it ({e})"))?;
        match r.found {
            Some(found) if found == solution.len() => Ok(()),
            found => Err(format!(
                "#{no} says it found {} but keeps {} moves",
                found.map_or("no solution".to_string(), |f| format!("{f} moves")),
                solution.len()
            )),
        }
    }
}

/// `bench korf24 --summary`: what the results file holds for the run's form, and the
/// projection, without loading any database or writing anything. The lines counted are those
/// of the databases the file's last solved line names (a file may hold runs of several).
fn korf_summary(
    run: &KorfRun,
    path: &std::path::Path,
    instances: &[(usize, Board, usize)],
    check: LineCheck,
    form: &str,
) -> Result<ExitCode> {
    let held = ResultsFile::read(path, check)?;
    let reference = run
        .reference
        .as_deref()
        .map(|r| Reference::read(r, check))
        .transpose()?;
    // The databases of the last solved line (a trial run's unsolved line must not hide the
    // file's results), or of the last line when none is solved, or, when there is no line (a
    // first run killed before any instance ended), of the lowest-numbered checkpoint beside it
    // that `fits` its own instance, this form and the optimum.
    let Some(heuristic) = last_solved_heuristic(&held, form)
        .or_else(|| {
            held.iter()
                .rev()
                .find(|h| h.goal == form)
                .map(|h| h.heuristic.clone())
        })
        .or_else(|| {
            KeptCheckpoint::beside(path)
                .into_iter()
                .find(|(at, k)| {
                    instances.iter().any(|&(no, _, optimum)| {
                        k.fits(at, no, &k.heuristic, form, optimum).is_ok()
                    })
                })
                .map(|(_, k)| k.heuristic)
        })
    else {
        if held.is_empty() {
            println!("{}: no results counted", path.display());
        } else {
            println!(
                "{}: no {form} results ({} line(s) of the other form)",
                path.display(),
                held.len()
            );
        }
        return Ok(ExitCode::SUCCESS);
    };
    let (matching, other) = counted(&held, &heuristic, form);
    let mut records: Vec<InstanceResult> = Vec::new();
    for (no, ..) in instances {
        if let Some(h) = latest_solution(&matching, *no) {
            // The table's head over its first row: a file with nothing solved has no table.
            if records.is_empty() {
                println!("{TABLE_HEAD}");
            }
            print_line(&KorfLine::of_record(h), h.root_estimate, "");
            records.push(h.clone());
        }
    }
    let nodes: u64 = records.iter().map(|r| r.expanded).sum();
    println!(
        "{} ({form} goal, databases {heuristic}): {} of {} instances solved, {nodes} states expanded{}",
        run.set.name(),
        records.len(),
        instances.len(),
        if other > 0 {
            format!(" ({other} line(s) of other databases or form not counted)")
        } else {
            String::new()
        }
    );
    let kept = kept_checkpoints(path, instances, &records, &heuristic, form);
    let priced = reference.map(|r| r.priced(&heuristic, form));
    print_projection(&records, &matching, instances, &kept, priced.as_ref());
    Ok(ExitCode::SUCCESS)
}

fn korf(run: KorfRun) -> Result<ExitCode> {
    let started = Instant::now();
    let all = set_instances(run.set, run.blank_last)?;
    let mut instances = Vec::with_capacity(run.instances.len());
    for &no in &run.instances {
        match all.get(no.wrapping_sub(1)) {
            Some(i) => instances.push(i.clone()),
            None => bail!("there is no instance {no} (they are 1 to {})", all.len()),
        }
    }
    let max_time = run
        .budget
        .map(npuzzle::search::seconds)
        .transpose()
        .context("--budget")?;
    let form = if run.blank_last {
        "blank-last"
    } else {
        "blank-first"
    };
    // The partition and the results file are checked before minutes of loading or building.
    if let Some(spec) = &run.partition {
        npuzzle::heuristic::pdb_set::Partition::parse(spec, run.set.shape()?)
            .context("--partition")?;
    }
    let goal = if run.blank_last {
        Board::goal(run.set.shape()?)
    } else {
        Board::goal_blank_first(run.set.shape()?)
    };
    let mut file = None;
    let mut held = Vec::new();
    let mut reference = None;
    if let Some(path) = &run.results {
        let check = replays(&all, &goal, form);
        if run.summary {
            return korf_summary(&run, path, &instances, &check, form);
        }
        // A bad reference fails before the results file is opened (and locked, and mended).
        reference = run
            .reference
            .as_deref()
            .map(|r| Reference::read(r, &check))
            .transpose()?;
        let (f, h) = ResultsFile::open(path, &check)?;
        file = Some(f);
        held = h;
    }
    let options = crate::pdb::PdbOptions {
        pdb: run.partition.clone(),
        pdb_dir: run.pdb_dir.clone(),
    };
    // Ctrl-C stops the loading, or the running instance; what finished is kept, summarised
    // and (with --results) already on disk.
    let signals = crate::interrupt::Interrupt::install()?;
    let interrupted = || signals.flag.load(std::sync::atomic::Ordering::Relaxed);
    let set = crate::pdb::set_for(&goal, &options, Some(signals.flag.clone()));
    let stopped_loading = || {
        eprintln!("npuzzle: interrupted while loading the databases; nothing was searched");
        Ok(signals.exit_code())
    };
    let set = match set {
        _ if interrupted() => return stopped_loading(),
        set => set?,
    };
    let heuristic = set.describe();
    // The results file's lines of this run's databases and form (it may hold others').
    let (matching, other) = counted(&held, &heuristic, form);
    // The engine's positional layout, where the databases take it, is made with the loading
    // (not when the results file already holds every instance asked for: nothing is searched).
    let unsolved_asked: Vec<&(usize, Board, usize)> = instances
        .iter()
        .filter(|i| latest_solution(&matching, i.0).is_none())
        .collect();
    let to_search = run.split != Split::Tree || !unsolved_asked.is_empty();
    if to_search && !set.prepare_layout_until(&interrupted) {
        return stopped_loading();
    }
    let loaded = started.elapsed();
    let limits = Limits {
        max_time,
        progress: crate::progress::search_progress(),
        cancel: Some(signals.flag.clone()),
        ..Limits::default()
    };
    let limits_for_batch = Limits {
        progress: None,
        ..limits.clone()
    };
    let solver = SolverBuilder::new(goal.clone())
        .algorithm(Algorithm::IdaStar)
        .heuristic(Some(HeuristicKind::Pdb))
        .pdb_set(set.clone())
        .limits(limits.clone())
        .build()?;
    // Each instance's progress line names it and the bound it will stop at.
    let solve = |i: &(usize, Board, usize),
                 resume: Option<Checkpoint>,
                 checkpoint: Option<CheckpointHook>| {
        // What earlier runs spent before the checkpoint counts too.
        let before = resume
            .as_ref()
            .map_or((0, 0.0), |c| (c.expanded, c.seconds));
        let labelled = Limits {
            progress: limits.progress.as_ref().and_then(|_| {
                crate::progress::search_progress_labelled(format!("#{} (optimum {}): ", i.0, i.2))
            }),
            resume: resume.map(std::sync::Arc::new),
            checkpoint,
            ..limits.clone()
        };
        korf_line(i, solver.solve_within(&i.1, &labelled), &goal).map(|line| KorfLine {
            expanded: line.expanded.saturating_add(before.0),
            seconds: line.seconds + before.1,
            ..line
        })
    };
    let from_batch = |i: &(usize, Board, usize), c: Collected| {
        let result = match c {
            Collected::Solved(a) => Ok(Outcome::Solved(*a)),
            Collected::Unsolvable => Ok(Outcome::Unsolvable),
            Collected::Failed(e) => Err(e),
            Collected::Letters(_) | Collected::Unreadable(_) => {
                bail!("#{}: not searched", i.0)
            }
        };
        korf_line(i, result, &goal)
    };
    let search_started = Instant::now();
    // The heuristic's value at an instance's start: the bound of the first iteration.
    let root_estimate = |no: usize| {
        all.get(no.wrapping_sub(1))
            .and_then(|(_, b, _)| solver.estimate(b))
            .unwrap_or(0)
    };
    let print_noted =
        |line: &KorfLine, note: &str| print_line(line, root_estimate(line.instance), note);
    let print = |line: &KorfLine| print_noted(line, "");
    // Every instance answered in this run or held by the results file, with its root estimate.
    let mut records: Vec<InstanceResult> = Vec::new();
    // This run's instances stopped at the budget.
    let mut unsolved: Vec<InstanceResult> = Vec::new();
    // An instance's checkpoint that is not this run's: what to do about it.
    let not_this_runs =
        |e: anyhow::Error, no: usize| anyhow::anyhow!("{e:#}; move it away to search #{no} afresh");
    // Every unsolved instance's checkpoint is checked before anything is searched or printed:
    // one that is not this run's stops the run now, not after hours of the instances before
    // it. (Each is read again when its instance's turn comes: the run may have written it.)
    if let (Some(p), Split::Tree) = (&run.results, run.split) {
        for i in &unsolved_asked {
            KeptCheckpoint::find(p, i.0, &heuristic, form, i.2, false)
                .map_err(|e| not_this_runs(e, i.0))?;
        }
    }
    println!("{TABLE_HEAD}");
    let results: Vec<KorfLine> = match run.split {
        Split::Boards => {
            // The library's batch: one instance per core, in order.
            let solvers = Solvers::new(
                Goals::Fixed(goal.clone()),
                SolverBuilder::new(goal.clone())
                    .algorithm(Algorithm::IdaStar)
                    .heuristic(Some(HeuristicKind::Pdb))
                    .pdb_set(set.clone())
                    .limits(limits_for_batch.clone()),
            );
            let texts: Vec<String> = instances
                .iter()
                .map(|(_, b, _)| b.to_judge_line())
                .collect();
            let collected =
                solvers.collect(&texts, Some(run.set.shape()?), Collect { letters: false })?;
            let r: Result<Vec<_>> = instances
                .iter()
                .zip(collected)
                .map(|(i, c)| from_batch(i, c))
                .collect();
            // Instances an interrupt cut short are left out, not reported as at a budget.
            let r: Vec<KorfLine> = r?
                .into_iter()
                .filter(|l| l.found.is_some() || !interrupted())
                .collect();
            r.iter().for_each(print);
            r
        }
        Split::Tree => {
            let mut r = Vec::new();
            if other > 0 {
                eprintln!(
                    "npuzzle: {other} line(s) of the results file are from other databases or the other form; not counted"
                );
            }
            for (no, ..) in &instances {
                if let Some(h) = latest_solution(&matching, *no) {
                    let line = KorfLine::of_record(h);
                    print_noted(&line, "  (earlier run)");
                    r.push(line);
                    records.push(h.clone());
                }
            }
            for i in &instances {
                // A search an earlier run stopped goes on from its checkpoint beside the results
                // file (its finished iterations and the subtrees of the current one searched
                // whole); this run keeps its own progress there.
                let find = |adopt| match &run.results {
                    Some(p) => KeptCheckpoint::find(p, i.0, &heuristic, form, i.2, adopt),
                    None => Ok(None),
                };
                if records.iter().any(|h| h.instance == i.0) {
                    // A solved instance's own checkpoint (left when its removal failed) is
                    // done with; anything else there is left alone.
                    if let Ok(Some((at, _))) = find(false)
                        && remove_checkpoint(&at, i.0)
                    {
                        eprintln!(
                            "npuzzle: #{} is solved in the results file; its leftover checkpoint {} is removed",
                            i.0,
                            at.display()
                        );
                    }
                    continue;
                }
                if interrupted() {
                    break;
                }
                let found = find(true).map_err(|e| not_this_runs(e, i.0))?;
                // Where this run keeps the instance's checkpoints, and where it went on from.
                let kept_at = run
                    .results
                    .as_ref()
                    .map(|p| checkpoint_path(p, i.0, &heuristic, form));
                let (resumed_from, resume) = found.unzip();
                if let Some(k) = &resume {
                    eprintln!(
                        "npuzzle: #{} goes on from bound {}: {} states in {} before it, in earlier runs",
                        i.0,
                        k.checkpoint.bound,
                        k.checkpoint.expanded,
                        human_seconds(k.checkpoint.seconds)
                    );
                }
                let hook = kept_at
                    .clone()
                    .map(|path| keeping_checkpoints(path, i.0, &heuristic, form));
                let line = solve(i, resume.map(|k| k.checkpoint), hook).with_context(|| {
                    match &resumed_from {
                        Some(p) => format!(
                            "#{} going on from {} (move it away to search #{} afresh)",
                            i.0,
                            p.display(),
                            i.0
                        ),
                        None => format!("#{}", i.0),
                    }
                })?;
                // An interrupted search is kept as unsolved, with the states it spent: the
                // summary prices the instance at no less, and a re-run goes on from its
                // checkpoint.
                let stopped = interrupted() && line.found.is_none();
                if !stopped {
                    print(&line);
                }
                // An interrupt before the first state leaves nothing worth a line.
                let recorded = !stopped || line.expanded > 0;
                let record = InstanceResult {
                    instance: line.instance,
                    optimum: line.optimum,
                    found: line.found,
                    expanded: line.expanded,
                    seconds: line.seconds,
                    heuristic: heuristic.clone(),
                    goal: form.to_string(),
                    root_estimate: root_estimate(i.0),
                    threads: global_threads(),
                    finished_at: std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map_or(0, |d| d.as_secs()),
                    version: env!("CARGO_PKG_VERSION").to_string(),
                    interrupted: stopped,
                    moves: line.moves.clone(),
                };
                if let Some(f) = file.as_mut().filter(|_| recorded) {
                    f.append(&record)?;
                }
                // Solved and recorded: its checkpoints are done with (where this run kept it,
                // and where it went on from, if not renamed); a failure to remove one loses
                // nothing, the solved line makes the next run skip the instance.
                if record.solved() {
                    for p in kept_at.iter().chain(&resumed_from).filter(|p| p.exists()) {
                        remove_checkpoint(p, i.0);
                    }
                }
                if stopped {
                    eprintln!(
                        "npuzzle: #{} stopped by the interrupt after {} states in {}: {}",
                        i.0,
                        record.expanded,
                        human_seconds(record.seconds),
                        match run.results.as_ref().filter(|_| recorded) {
                            Some(path) => format!(
                                "recorded unsolved in {} (a floor for the projection; the next run goes on from its checkpoint: the iterations and subtrees it finished)",
                                path.display()
                            ),
                            None => "not recorded".to_string(),
                        }
                    );
                }
                if record.solved() {
                    records.push(record);
                } else {
                    unsolved.push(record);
                }
                if stopped {
                    break;
                }
                r.push(line);
            }
            r
        }
        Split::Serial => {
            let one_core = solver.clone().with_single_thread(true);
            let r: Result<Vec<_>> = instances
                .iter()
                .map(|i| korf_line(i, one_core.solve(&i.1), &goal))
                .collect();
            let r: Vec<KorfLine> = r?
                .into_iter()
                .filter(|l| l.found.is_some() || !interrupted())
                .collect();
            r.iter().for_each(print);
            r
        }
    };
    let searched = search_started.elapsed();
    let mismatches = results
        .iter()
        .filter(|l| l.found.is_some_and(|f| f != l.optimum))
        .count();
    let optimal = results
        .iter()
        .filter(|l| l.found == Some(l.optimum))
        .count();
    // A run stops at its first interrupted instance: at most one. Its states and time count
    // in the totals, as a budget's do.
    let cut = unsolved.iter().find(|r| r.interrupted);
    let nodes: u64 =
        results.iter().map(|r| r.expanded).sum::<u64>() + cut.map_or(0, |r| r.expanded);
    // Folded from +0.0: an empty f64 sum is -0.0, printed "-0.000".
    let cpu: f64 = results.iter().fold(0.0, |s, r| s + r.seconds) + cut.map_or(0.0, |r| r.seconds);
    let solved = results.iter().filter(|l| l.found.is_some()).count();
    let counted_instances = results.len() + usize::from(cut.is_some());
    let cut_note = cut.map_or(String::new(), |r| {
        format!(", #{} interrupted after {} states", r.instance, r.expanded)
    });
    println!(
        "{} ({} goal, databases {heuristic}): {solved} of {} instances solved, {optimal} optimal, {} at the budget{cut_note}; {nodes} states expanded ({:.0} per instance)",
        run.set.name(),
        if run.blank_last {
            "blank-last"
        } else {
            "blank-first"
        },
        instances.len(),
        results.len() - solved,
        nodes as f64 / counted_instances.max(1) as f64
    );
    println!(
        "  wall: {:.3} s total = {:.3} s loading databases + {:.3} s searching ({:?} on {} threads); search time summed over instances {:.3} s",
        started.elapsed().as_secs_f64(),
        loaded.as_secs_f64(),
        searched.as_secs_f64(),
        run.split,
        global_threads(),
        cpu
    );
    let (mut lines, _) = counted(&held, &heuristic, form);
    lines.extend(&unsolved);
    // Without a results file, a run that solved nothing has nothing to project from.
    if let Some(path) = &run.results {
        let kept = kept_checkpoints(path, &instances, &records, &heuristic, form);
        let priced = reference.as_ref().map(|r| r.priced(&heuristic, form));
        print_projection(&records, &lines, &instances, &kept, priced.as_ref());
    } else if !records.is_empty() {
        print_projection(&records, &lines, &instances, &[], None);
    }
    if interrupted() {
        match &run.results {
            Some(path) => eprintln!(
                "npuzzle: interrupted; every finished instance is in {}: run the same command again to go on",
                path.display()
            ),
            None => {
                eprintln!("npuzzle: interrupted; the instances above are the ones that finished")
            }
        }
        return Ok(signals.exit_code());
    }
    Ok(if mismatches > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn search(
    max_length: usize,
    algorithms: &[AlgorithmArg],
    heuristics: &[HeuristicArg],
    max_nodes: u64,
    max_stored: u64,
) -> Result<ExitCode> {
    // 1. IDA* + linear conflict on every 3x3 board at distance 30 or 31.
    let table = npuzzle::table::Table::eight();
    let goal = table.goal().clone();
    let solver = Solver::new(
        goal.clone(),
        Algorithm::IdaStar,
        HeuristicKind::LinearConflict,
        Limits::default(),
    )?;
    let mut times = vec![];
    let mut nodes = 0u64;
    let mut most = 0u64;
    for b in Board::every(goal.shape()) {
        let Some(d) = table.distance(&b).filter(|&d| d >= 30) else {
            continue;
        };
        let Outcome::Solved(a) = solver.solve(&b)? else {
            bail!("{b:?} reported unsolvable");
        };
        a.solution.verify(&b, &goal)?;
        if a.solution.len() != d as usize {
            bail!("{b:?}: {} moves, optimum {d}", a.solution.len());
        }
        times.push(a.stats.elapsed.as_secs_f64());
        nodes += a.stats.expanded;
        most = most.max(a.stats.expanded);
    }
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    let max = times.iter().copied().fold(0.0, f64::max);
    println!(
        "3x3 depth 30-31, idastar+linear-conflict: {} boards, all optimal; mean {:.1} us, max {:.1} us per board; {:.0} expanded per board, at most {most}",
        times.len(),
        mean * 1e6,
        max * 1e6,
        nodes as f64 / times.len() as f64
    );

    // 2. Korf's instances with optimum <= max_length.
    let instances: Vec<_> = korf100_instances(true)?
        .into_iter()
        .filter(|(_, _, l)| *l <= max_length)
        .collect();
    let goal = Board::goal(Shape::new(4, 4)?);
    println!(
        "Korf 15-puzzles with optimum <= {max_length}: {} instances (blank-last form), one thread",
        instances.len()
    );
    let mut failed = false;
    for alg in algorithms.iter().filter(|_| !instances.is_empty()) {
        for h in heuristics {
            let limits = Limits {
                max_nodes: Some(max_nodes),
                max_stored: Some(max_stored),
                ..Limits::default()
            };
            let solver = Solver::new(goal.clone(), alg.algorithm(), h.kind(), limits)?;
            let label = format!("{}+{}", alg.algorithm().name(), h.kind().name());
            let (mut expanded, mut generated, mut secs, mut solved) = (0u64, 0u64, 0f64, 0);
            for (no, b, want) in &instances {
                match solver.solve(b) {
                    Ok(Outcome::Solved(a)) => {
                        a.solution.verify(b, &goal)?;
                        if a.optimal && a.solution.len() != *want {
                            println!(
                                "  #{no}: {} moves, published optimum {want}",
                                a.solution.len()
                            );
                            failed = true;
                        }
                        expanded += a.stats.expanded;
                        generated += a.stats.generated;
                        secs += a.stats.elapsed.as_secs_f64();
                        solved += 1;
                    }
                    Ok(Outcome::Unsolvable) => bail!("#{no} reported unsolvable"),
                    Err(e) => {
                        println!("  {label} #{no}: {e}");
                        if let Some(s) = e.limit_stats() {
                            expanded += s.expanded;
                            generated += s.generated;
                            secs += s.elapsed.as_secs_f64();
                        }
                    }
                }
            }
            println!(
                "  {label:<26} solved {solved}/{}, all optimal: {}; {expanded} expanded, {generated} generated, {secs:.2} s, {:.1} M expanded/s, {:.1} M generated/s",
                instances.len(),
                !failed,
                expanded as f64 / secs / 1e6,
                generated as f64 / secs / 1e6
            );
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn eight(boards: u64, seed: u64, solvable_only: bool) -> Result<ExitCode> {
    let shape = Shape::new(3, 3)?;
    let goal = Board::goal(shape);
    let mut input = Vec::with_capacity(boards as usize * 18);
    write_boards(&mut input, &goal, boards, seed, !solvable_only)?;
    let input_bytes = input.len();

    let started = Instant::now();
    let solvers = Solvers::new(Goals::Standard, SolverBuilder::new(goal.clone()));
    let reader = JudgeReader::new(Cursor::new(input), ReaderOptions::default());
    let mut writer = TextWriter::new(Vec::with_capacity(boards as usize * 24), Vec::new());
    let summary = solvers.run(reader, &Text::default(), &mut writer)?;
    let out = writer.out;
    let elapsed = started.elapsed();

    // Check every answer: replay the moves (or the parity for `unsolvable`).
    let mut regenerated = Vec::new();
    write_boards(&mut regenerated, &goal, boards, seed, !solvable_only)?;
    let text = String::from_utf8(regenerated)?;
    let answers = String::from_utf8(out)?;
    let mut checked = 0u64;
    let mut moves = 0u64;
    for (line, answer) in text.lines().zip(answers.lines()) {
        let b = Board::parse(line)?;
        if answer == "unsolvable" {
            if npuzzle::parity::is_solvable(&b, &goal)? {
                bail!("wrong `unsolvable` for {line}");
            }
        } else {
            let s = Solution::from_letters(answer)?;
            s.verify(&b, &goal)?;
            moves += s.len() as u64;
        }
        checked += 1;
    }
    if checked != boards || summary.answered as u64 != boards || summary.failures > 0 {
        bail!("{checked} of {boards} boards answered and checked");
    }
    let per_second = boards as f64 / elapsed.as_secs_f64();
    println!(
        "bench eight: {boards} boards ({} MB in, {} MB out), {:.3} s wall, {:.0} ns/board, {:.2} M boards/s",
        input_bytes / 1_000_000,
        answers.len() / 1_000_000,
        elapsed.as_secs_f64(),
        elapsed.as_secs_f64() * 1e9 / boards as f64,
        per_second / 1e6
    );
    // The floor on the same input: one thread, the table already built, nothing but parse,
    // rank, look up and write each line, with no error reporting; the same answers are
    // required.
    let table = Table::build(&goal).map_err(|e| anyhow::anyhow!("{e}"))?;
    let floor_started = Instant::now();
    let mut floor_out = Vec::with_capacity(answers.len());
    let lines: Vec<&[u8]> = text
        .as_bytes()
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    if table.answer_lines(&lines, &mut floor_out) != lines.len() {
        bail!("the floor loop cannot read every line");
    }
    let floor = floor_started.elapsed();
    if floor_out != answers.as_bytes() {
        bail!("the floor loop's answers differ from the pipeline's");
    }
    println!(
        "  floor (parse, rank, look up, write; one thread, table prebuilt): {:.3} s; the pipeline takes {:.2}x the floor",
        floor.as_secs_f64(),
        elapsed.as_secs_f64() / floor.as_secs_f64()
    );
    println!(
        "  every answer replayed: {checked} ok, {moves} moves in total; {:.0}x the classic reverse-BFS solution ({CLASSIC_BOARDS_PER_SECOND} boards/s)",
        per_second / CLASSIC_BOARDS_PER_SECOND
    );
    Ok(ExitCode::SUCCESS)
}

/// Runs `npuzzle bench`.
pub fn run(args: BenchArgs) -> Result<ExitCode> {
    match args.which {
        Which::Eight {
            boards,
            seed,
            solvable_only,
        } => eight(boards, seed, solvable_only),
        Which::Korf100 {
            partition,
            pdb_dir,
            blank_last,
            split,
            first,
        } => korf(KorfRun {
            set: InstanceSet::Fifteen,
            partition,
            pdb_dir,
            blank_last,
            split,
            instances: (1..=first.min(100)).collect(),
            budget: None,
            results: None,
            summary: false,
            reference: None,
        }),
        Which::Korf24 {
            instances,
            all,
            results,
            summary,
            reference,
            budget,
            partition,
            pdb_dir,
            blank_last,
        } => korf(KorfRun {
            set: InstanceSet::TwentyFour,
            partition,
            pdb_dir,
            blank_last,
            split: Split::Tree,
            instances: if all || summary {
                (1..=50).collect()
            } else {
                instances
            },
            budget,
            results,
            summary,
            reference,
        }),
        Which::Fifteen80 {
            partition,
            pdb_dir,
            blank_first,
        } => korf(KorfRun {
            set: InstanceSet::Fifteen80,
            partition,
            pdb_dir,
            blank_last: !blank_first,
            split: Split::Tree,
            instances: (1..=17).collect(),
            budget: None,
            results: None,
            summary: false,
            reference: None,
        }),
        Which::Large {
            sizes,
            boards,
            seed,
            algorithms,
            effort,
            no_korf24,
            pdb,
        } => crate::bench_large::run(crate::bench_large::LargeRun {
            sizes,
            boards,
            seed,
            algorithms,
            effort: npuzzle::near::Effort::new(effort).context("--effort is 1 to 5")?,
            pdb,
            korf24: !no_korf24,
        }),
        Which::Serve {
            requests,
            connections,
            heavy,
            pdb,
        } => crate::load::run(requests, connections, heavy, &pdb),
        Which::Search {
            max_length,
            algorithms,
            heuristics,
            max_nodes,
            max_stored,
        } => search(max_length, &algorithms, &heuristics, max_nodes, max_stored),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line of instance `instance` (optimum `optimum`) of `form`, found at `found`.
    fn line(
        instance: usize,
        optimum: usize,
        found: Option<usize>,
        moves: Option<&str>,
        form: &str,
    ) -> InstanceResult {
        InstanceResult {
            instance,
            optimum,
            found,
            expanded: 10,
            seconds: 0.1,
            heuristic: "test".into(),
            goal: form.into(),
            root_estimate: 1,
            threads: 1,
            finished_at: 0,
            version: "0".into(),
            interrupted: false,
            moves: moves.map(str::to_string),
        }
    }

    #[test]
    fn a_results_line_counts_only_when_it_replays() {
        let start = Board::parse("1 2 3 4 5 6 7 x 8").unwrap();
        let goal = Board::goal(start.shape());
        let all = vec![(1, start, 1)];
        let check = replays(&all, &goal, "blank-last");
        let form = "blank-last";
        // Its moves solve it in the length it says: counted; so is an old line without moves,
        // and an unsolved one.
        assert_eq!(check(&line(1, 1, Some(1), Some("r"), form)), Ok(()));
        assert_eq!(check(&line(1, 1, Some(1), None, form)), Ok(()));
        assert_eq!(check(&line(1, 1, None, None, form)), Ok(()));
        // The other form's lines are not this run's to judge.
        assert_eq!(
            check(&line(7, 9, Some(3), Some("x"), "blank-first")),
            Ok(())
        );
        let refused = |l: InstanceResult| check(&l).unwrap_err();
        assert!(refused(line(1, 1, Some(1), Some("l"), form)).contains("do not solve it"));
        assert!(refused(line(1, 1, Some(1), Some("r?"), form)).contains("not move letters"));
        assert!(
            refused(line(1, 1, Some(3), Some("r"), form))
                .contains("says it found 3 moves but keeps 1")
        );
        assert!(
            refused(line(1, 1, None, Some("r"), form)).contains("found no solution but keeps 1")
        );
        assert!(refused(line(1, 3, Some(1), Some("r"), form)).contains("optimum is 1, not the 3"));
        assert!(
            refused(line(2, 1, Some(1), None, form))
                .contains("there is no instance 2 (they are 1 to 1)")
        );
        assert!(refused(line(0, 1, Some(1), None, form)).contains("there is no instance 0"));
    }
}
