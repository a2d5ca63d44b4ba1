//! `npuzzle solve`: the flags translated into the library's batch (`npuzzle::solver::batch`),
//! which reads boards in any judge convention, answers them in parallel and writes each answer
//! in order as soon as it is known. A board that cannot be read or solved is reported on
//! stderr as `line N: …` and the batch goes on; the exit status is 1 when any board failed.

use crate::input::{self, BoardOptions, FormatArg};
use crate::interrupt::Interrupt;
use crate::output::NotationArg;
use crate::pdb::PdbOptions;
use crate::progress::AroundProgress;
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use npuzzle::Algorithm;
use npuzzle::heuristic::HeuristicKind;
use npuzzle::judge::NO_ANSWER;
use npuzzle::near::Effort;
use npuzzle::search::Limits;
use npuzzle::solver::batch::{Solvers, Summary};
use npuzzle::solver::sinks::{Text, TextOptions, TextWriter};
use std::io;
use std::process::ExitCode;

/// Arguments of `npuzzle solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// A board's tiles (e.g. `2 3 4 1 5 x 7 6 8`), or one input file; standard input when
    /// omitted or `-`.
    #[arg(value_name = "BOARD|FILE", allow_negative_numbers = true)]
    pub input: Vec<String>,
    #[command(flatten)]
    pub board: BoardOptions,
    /// Solving method; `auto` picks the fastest optimal one up to 32 cells and the near-optimal
    /// solver beyond.
    #[arg(long, value_enum, default_value = "auto")]
    pub algorithm: AlgorithmArg,
    /// Heuristic for astar, idastar, greedy and near (default: pattern databases for auto on
    /// boards of 16 to 32 cells, and for near there where they are cached or quick to build;
    /// for astar, idastar and greedy when --pdb names a partition; linear conflict otherwise).
    /// Naming one with auto on a board past 32 cells searches optimally with it instead of
    /// answering near-optimally; on boards auto answers from a complete table, or for a method
    /// without a heuristic, stderr says it is not used.
    #[arg(long, value_enum)]
    pub heuristic: Option<HeuristicArg>,
    #[command(flatten)]
    pub pdb: PdbOptions,
    /// How to write the moves.
    #[arg(long, value_enum, default_value = "judge")]
    pub notation: NotationArg,
    /// Also print the boards step by step.
    #[arg(long)]
    pub show: bool,
    /// Print each board's search figures on stderr (in the JSON with --format jsonl).
    #[arg(long)]
    pub stats: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// When a search hits --timeout, --max-nodes or --max-stored, answer with the
    /// near-optimal solver instead (marked not optimal, with the limit it hit).
    #[arg(long)]
    pub fallback: bool,
    /// Time the near-optimal solver (`--algorithm near`, `auto` past 32 cells, --fallback)
    /// may spend for a shorter answer: 1 (quickest) to 5.
    #[arg(long, value_name = "1-5", default_value_t = 1, allow_negative_numbers = true, value_parser = crate::input::whole_number(1u8, 5))]
    pub effort: u8,
    /// Worker threads (0 = one per core; at most 256).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::input::whole_number(0u16, 256))]
    pub threads: u16,
}

/// Search limits on the command line.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Give up on a board after expanding this many states.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::input::at_least(1u64, u64::MAX))]
    pub max_nodes: Option<u64>,
    /// Give up on a board after this many seconds.
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true, value_parser = crate::input::seconds)]
    pub timeout: Option<f64>,
    /// Give up on a board when a search (BFS, bidirectional, A*, greedy) holds more than this
    /// many states (the near-optimal solver's beam stops early instead, and its answer is
    /// longer); the searches of a batch that run side by side share it (one per thread). IDA*
    /// does not order its last iteration under about 131,000. The default keeps memory to a
    /// few GB.
    #[arg(long, value_name = "N", default_value_t = 50_000_000, allow_negative_numbers = true, value_parser = crate::input::at_least(1u64, u64::MAX))]
    pub max_stored: u64,
}

impl LimitArgs {
    /// The library's limits for these flags.
    pub fn to_limits(&self) -> Result<Limits> {
        let max_time = self
            .timeout
            .map(npuzzle::search::seconds)
            .transpose()
            .context("--timeout")?;
        Ok(Limits {
            max_nodes: self.max_nodes,
            max_time,
            max_stored: Some(self.max_stored),
            progress: crate::progress::search_progress(),
            ..Limits::default()
        })
    }
}

/// Solving methods on the command line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum AlgorithmArg {
    /// Fastest optimal method for the size: table (≤ 12 cells; 12-cell ones built once and
    /// cached), IDA* with linear conflict (13 to 15 cells), IDA* over pattern databases (16
    /// to 32 cells, built on first use);
    /// beyond, the near-optimal solver (not optimal).
    Auto,
    /// Complete breadth-first table (boards of at most 12 cells).
    Table,
    /// Forward breadth-first search (optimal; stores every state).
    Bfs,
    /// Breadth-first search from both ends (optimal).
    Bidirectional,
    /// A* with the heuristic (optimal).
    Astar,
    /// Iterative-deepening A* with the heuristic (optimal; stores its path, and on long searches
    /// up to about 131,000 subtree roots to order the last iteration, unless --max-stored is
    /// smaller).
    Idastar,
    /// Greedy best-first on the heuristic alone (fast, NOT optimal).
    Greedy,
    /// Constructive line-by-line solver for any size (quick, long answers, NOT optimal).
    Large,
    /// Near-optimal solver for any size: weighted search, after peeling lines past 32 cells
    /// (short answers: 0.3 s on 10×10, about 3.4 s on 30×30, 38 s on 100×100, NOT optimal; see
    /// --effort).
    Near,
}

impl AlgorithmArg {
    /// The library's algorithm.
    pub fn algorithm(self) -> Algorithm {
        match self {
            AlgorithmArg::Auto => Algorithm::Auto,
            AlgorithmArg::Table => Algorithm::Table,
            AlgorithmArg::Bfs => Algorithm::Bfs,
            AlgorithmArg::Bidirectional => Algorithm::Bidirectional,
            AlgorithmArg::Astar => Algorithm::AStar,
            AlgorithmArg::Idastar => Algorithm::IdaStar,
            AlgorithmArg::Greedy => Algorithm::Greedy,
            AlgorithmArg::Large => Algorithm::Large,
            AlgorithmArg::Near => Algorithm::Near,
        }
    }
}

/// Heuristics on the command line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum HeuristicArg {
    /// Sum of taxicab distances.
    Manhattan,
    /// Manhattan plus linear conflicts.
    LinearConflict,
    /// Additive pattern databases (boards of at most 32 cells; see --pdb).
    Pdb,
}

impl HeuristicArg {
    /// The library's heuristic.
    pub fn kind(self) -> HeuristicKind {
        match self {
            HeuristicArg::Manhattan => HeuristicKind::Manhattan,
            HeuristicArg::LinearConflict => HeuristicKind::LinearConflict,
            HeuristicArg::Pdb => HeuristicKind::Pdb,
        }
    }
}

/// The batch's solvers for the boards and goal options, method, limits and databases of a
/// command (`solve`, `check`, `bench eight`), built when allowed by `building`.
pub struct SolverOptions<'a> {
    /// Boards and goal.
    pub board: &'a BoardOptions,
    /// The method (`auto`: the plan's choice).
    pub algorithm: Algorithm,
    /// The heuristic (`None`: the plan's choice).
    pub heuristic: Option<HeuristicKind>,
    /// Limits of every search.
    pub limits: Limits,
    /// Where databases come from.
    pub pdb: &'a PdbOptions,
    /// Whether databases that are not cached may be built.
    pub user: npuzzle::Use,
    /// The near-optimal solver's effort.
    pub effort: Effort,
    /// Whether a search that hits a limit is answered by the near-optimal solver.
    pub fallback: bool,
}

impl SolverOptions<'_> {
    /// The library's per-shape solvers for these options.
    pub fn solvers(&self) -> Result<Solvers> {
        let goals = self.board.goals()?;
        let template = goals
            .builder()
            .algorithm(self.algorithm)
            .heuristic(self.heuristic)
            .limits(self.limits.clone())
            .pdb_source(self.pdb.source(self.user))
            .effort(self.effort)
            .fallback(self.fallback);
        Ok(Solvers::new(goals, template))
    }
}

/// Runs `npuzzle solve`.
pub fn run(args: SolveArgs) -> Result<ExitCode> {
    let limits = args.limits.to_limits()?;
    let effort = Effort::new(args.effort).context("--effort is 1 to 5")?;
    let solvers = SolverOptions {
        board: &args.board,
        algorithm: args.algorithm.algorithm(),
        heuristic: args.heuristic.map(HeuristicArg::kind),
        limits,
        pdb: &args.pdb,
        user: npuzzle::Use::Command,
        effort,
        fallback: args.fallback,
    }
    .solvers()?
    .on_threads(args.threads as usize)?;
    let signals = Interrupt::install()?;
    let solvers = solvers.interrupted_by(signals.flag.clone());
    for unused in solvers.template().unused_options() {
        eprintln!("npuzzle: warning: {unused}");
    }
    let source = input::from_arguments(&args.input)?;
    let arguments = source.is_arguments();
    let reader = source.reader(&args.board)?;
    let sink = Text::new(TextOptions {
        notation: args.notation.notation(),
        show: args.show,
        stats: args.stats,
        json: args.board.format == FormatArg::Jsonl,
        arguments,
    });
    let stdout = io::stdout();
    // Written around the progress line (see `progress`), whole writes at a time.
    let mut writer = TextWriter::new(
        io::BufWriter::with_capacity(1 << 20, AroundProgress(stdout.lock())),
        AroundProgress(io::stderr()),
    );
    let summary = solvers.run(reader, &sink, &mut writer)?;
    if summary.interrupted {
        eprintln!(
            "npuzzle: interrupted: {} answer(s) written; {} board(s) read were left unanswered (and input past them, if any, was not read)",
            summary.answered + summary.failures,
            summary.unanswered
        );
        if let Some(s) = summary.stopped {
            eprintln!(
                "npuzzle: line {}: its search was stopped after expanding {} states in {}",
                s.line,
                s.stats.expanded,
                crate::units::human_seconds(s.stats.elapsed.as_secs_f64())
            );
        }
        return Ok(signals.exit_code());
    }
    Ok(exit_code(&summary))
}

/// The exit status for a batch's totals (1 when a board failed or the input had problems),
/// after saying how many boards failed.
pub fn exit_code(summary: &Summary) -> ExitCode {
    if summary.failures > 0 {
        eprintln!(
            "npuzzle: {} board(s) could not be answered (marked `{NO_ANSWER}` in the output; reasons above)",
            summary.failures
        );
    }
    if summary.failures > 0 || summary.problems > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
