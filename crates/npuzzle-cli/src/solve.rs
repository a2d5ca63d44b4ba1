//! `npuzzle solve`: read boards in any judge convention, answer each in order.
//!
//! Boards stream through in chunks: a reader thread parses the next chunk while the current one
//! is solved in parallel (rayon, order preserved) and written out, so a million boards are
//! never held in memory at once. A board that cannot be read or solved is reported on stderr
//! as `line N: …` and the batch goes on; the exit status is 1 when any board failed.

use crate::input::{self, BoardOptions, FormatArg};
use crate::output::{JsonAnswer, NO_ANSWER, Notation, show_steps, stats_line};
use crate::pdb::PdbOptions;
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::judge::{Format, Puzzle, RawLine, ReaderOptions};
use npuzzle::near::Effort;
use npuzzle::search::Limits;
use npuzzle::{Algorithm, Board, Building, Outcome, Shape, SolveError, Solver, SolverBuilder};
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::{Arc, mpsc};
use std::time::Duration;

/// Boards read per chunk.
const CHUNK: usize = 1 << 15;
/// Most bytes of raw lines in one chunk (about 50,000 3×3 boards, or 20 of 100×100).
const CHUNK_BYTES: usize = 1 << 20;
/// Most cells of the boards of one chunk.
const CHUNK_CELLS: usize = 1 << 16;
/// Boards per parallel task within a chunk.
const TASK: usize = 1 << 10;

/// Arguments of `npuzzle solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// A board's tiles (e.g. `2 3 4 1 5 x 7 6 8`), or one input file; standard input when
    /// omitted or `-`.
    #[arg(value_name = "BOARD|FILE", allow_negative_numbers = true)]
    pub input: Vec<String>,
    #[command(flatten)]
    pub board: BoardOptions,
    /// Solving method; `auto` picks the fastest optimal one for the board size.
    #[arg(long, value_enum, default_value = "auto")]
    pub algorithm: AlgorithmArg,
    /// Heuristic for astar, idastar, greedy and near (default: pattern databases for auto on
    /// boards of 16 to 32 cells, linear conflict otherwise). Naming one with auto on a board
    /// past 16 cells searches optimally with it instead of answering near-optimally.
    #[arg(long, value_enum)]
    pub heuristic: Option<HeuristicArg>,
    #[command(flatten)]
    pub pdb: PdbOptions,
    /// How to write the moves.
    #[arg(long, value_enum, default_value = "judge")]
    pub notation: Notation,
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
    #[arg(long, value_name = "1-5", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub effort: u8,
    /// Worker threads (0 = one per core; at most 256).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=256))]
    pub threads: u16,
}

/// Search limits on the command line.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Give up on a board after expanding this many states.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Give up on a board after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Give up on a board when a search (BFS, bidirectional, A*, greedy) holds more than this
    /// many states (the near-optimal solver's beam stops early instead, and its answer is
    /// longer); the default keeps memory to a few GB.
    #[arg(long, value_name = "N", default_value_t = 50_000_000)]
    pub max_stored: u64,
}

impl LimitArgs {
    /// The library's limits for these flags.
    pub fn to_limits(&self) -> Result<Limits> {
        let max_time = match self.timeout {
            Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s.min(1e9))),
            Some(s) => anyhow::bail!("--timeout must be a positive number of seconds, got {s}"),
            None => None,
        };
        Ok(Limits {
            max_nodes: self.max_nodes,
            max_time,
            max_stored: Some(self.max_stored),
            cancel: None,
            progress: crate::progress::search_progress(),
        })
    }
}

/// Solving methods on the command line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum AlgorithmArg {
    /// Fastest optimal method for the size: table (≤ 10 cells), IDA* with linear conflict
    /// (11 to 15 cells), IDA* over pattern databases (16 to 32 cells, built on first use);
    /// beyond, the near-optimal solver (not optimal).
    Auto,
    /// Complete reverse-BFS table (boards of at most 10 cells).
    Table,
    /// Forward breadth-first search (optimal; stores every state).
    Bfs,
    /// Breadth-first search from both ends (optimal).
    Bidirectional,
    /// A* with the heuristic (optimal).
    Astar,
    /// Iterative-deepening A* with the heuristic (optimal; stores only the path).
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

/// One solver per board shape, made on first use.
pub struct Solvers {
    goal: Option<Board>,
    options: BoardOptions,
    algorithm: Algorithm,
    heuristic: Option<HeuristicKind>,
    limits: Limits,
    pdb: PdbOptions,
    /// Whether databases that are not cached may be built.
    building: Building,
    /// The near-optimal solver's effort, and whether it answers after a hit limit.
    effort: Effort,
    fallback: bool,
    by_shape: HashMap<Shape, Result<Arc<Solver>, SolveError>>,
}

impl Solvers {
    /// Solvers for the given goal options, method and limits.
    pub fn new(
        options: &BoardOptions,
        algorithm: Algorithm,
        heuristic: Option<HeuristicKind>,
        limits: Limits,
        pdb: PdbOptions,
    ) -> Result<Solvers> {
        Ok(Solvers {
            goal: options.goal_board()?,
            options: options.clone(),
            algorithm,
            heuristic,
            limits,
            pdb,
            building: Building::Always,
            effort: Effort::default(),
            fallback: false,
            by_shape: HashMap::new(),
        })
    }

    /// The near-optimal solver's effort, and whether it answers boards whose search hits a
    /// limit.
    pub fn near(mut self, effort: Effort, fallback: bool) -> Solvers {
        self.effort = effort;
        self.fallback = fallback;
        self
    }

    /// Builds only small databases (`check`: comparing with the optimum must not start a
    /// minutes-long build).
    pub fn quick_databases_only(mut self) -> Solvers {
        self.building = Building::Quick;
        self
    }

    /// Whether answering `board` needs a solver: not when it is already known to be unable to
    /// reach the goal (parity), so no databases are built for it.
    pub fn needed(&self, board: &Board) -> bool {
        if self.by_shape.contains_key(&board.shape()) {
            return true;
        }
        let goal = self.goal_for(board.shape());
        board != &goal && npuzzle::parity::is_solvable(board, &goal).unwrap_or(true)
    }

    /// The goal for boards of `shape`.
    pub fn goal_for(&self, shape: Shape) -> Board {
        self.options.goal_for(shape, self.goal.as_ref())
    }

    /// Makes sure a solver exists (or its error is remembered) for `shape`.
    pub fn prepare(&mut self, shape: Shape) {
        if !self.by_shape.contains_key(&shape) {
            let goal = self.options.goal_for(shape, self.goal.as_ref());
            // The library decides whether databases are wanted, and loads or builds them.
            let solver = SolverBuilder::new(goal)
                .algorithm(self.algorithm)
                .heuristic(self.heuristic)
                .limits(self.limits.clone())
                .pdb_source(self.pdb.source(self.building))
                .effort(self.effort)
                .fallback(self.fallback)
                .build()
                .map(Arc::new);
            self.by_shape.insert(shape, solver);
        }
    }

    /// Whether a solver (or its error) exists for `shape`.
    pub fn is_prepared(&self, shape: Shape) -> bool {
        self.by_shape.contains_key(&shape)
    }

    /// The complete tables of the solvers prepared so far (they answer lines directly).
    fn tables(&self) -> Vec<&npuzzle::table::Table> {
        self.by_shape
            .values()
            .filter_map(|s| s.as_ref().ok()?.table())
            .collect()
    }

    /// The solver for `shape` (after [`Solvers::prepare`]).
    pub fn get(&self, shape: Shape) -> Result<&Solver, SolveError> {
        match self.by_shape.get(&shape) {
            Some(Ok(s)) => Ok(s),
            Some(Err(e)) => Err(e.clone()),
            None => Err(SolveError::Search(
                npuzzle::search::SearchError::Unsupported(format!(
                    "no solver prepared for {shape} boards"
                )),
            )),
        }
    }
}

/// What to write for each board.
#[derive(Copy, Clone)]
struct Style {
    notation: Notation,
    show: bool,
    stats: bool,
    json: bool,
    uva: bool,
    /// The board came from the command line: messages name no line.
    arguments: bool,
    /// Judge letters straight from a table: no allocation per board.
    fast: bool,
}

/// Output of one parallel task: answers for stdout, reports for stderr.
#[derive(Default)]
struct Piece {
    out: Vec<u8>,
    err: Vec<u8>,
    answers: usize,
    failures: usize,
    problems: usize,
}

impl Piece {
    /// A board that gets no answer: the marker line in its place on stdout (a JSON error
    /// object in JSON lines), the reason on stderr.
    fn fail(&mut self, style: &Style, line: usize, message: &str) {
        self.failures += 1;
        if style.arguments {
            let _ = writeln!(self.err, "npuzzle: the board: {message}");
        } else {
            let _ = writeln!(self.err, "line {line}: {message}");
        }
        if style.json {
            let j = JsonAnswer::error(line, message.to_owned(), "error");
            let _ = serde_json::to_writer(&mut self.out, &j);
            self.out.push(b'\n');
            self.answers += 1;
        } else {
            self.begin_answer(style);
            self.out.extend_from_slice(NO_ANSWER.as_bytes());
            self.out.push(b'\n');
        }
    }

    /// The answer for a board that cannot reach the goal.
    fn unsolvable(&mut self, style: &Style, line: usize, board: &Board) {
        if style.json {
            let _ = serde_json::to_writer(&mut self.out, &JsonAnswer::unsolvable(line, board));
            self.out.push(b'\n');
            self.answers += 1;
        } else {
            self.begin_answer(style);
            self.out.extend_from_slice(b"unsolvable\n");
        }
    }

    /// The answer for a board that is the goal already: no moves.
    fn already_solved(&mut self, style: &Style, line: usize, board: &Board) {
        if style.json {
            let j = JsonAnswer {
                board: Some(board.to_judge_line()),
                moves: Some(String::new()),
                tiles: Some(String::new()),
                length: Some(0),
                optimal: Some(true),
                ..JsonAnswer::error(line, String::new(), "solved")
            };
            let _ = serde_json::to_writer(&mut self.out, &j);
            self.out.push(b'\n');
            self.answers += 1;
        } else {
            self.begin_answer(style);
            self.out.push(b'\n');
        }
    }

    /// A report about the input as a whole (not a board): stderr only.
    fn report(&mut self, line: usize, message: &str) {
        self.problems += 1;
        let _ = writeln!(self.err, "line {line}: {message}");
    }

    fn begin_answer(&mut self, style: &Style) {
        if style.uva {
            self.out.push(b'\n');
        }
        self.answers += 1;
    }
}

fn answer_one(piece: &mut Piece, style: &Style, solvers: &Solvers, puzzle: &Puzzle) {
    let line = puzzle.line;
    let board = match &puzzle.board {
        Ok(b) => b,
        Err(e) if !puzzle.answerable => return piece.report(e.line, &e.kind.to_string()),
        Err(e) => return piece.fail(style, e.line, &e.kind.to_string()),
    };
    let solver = match solvers.get(board.shape()) {
        Ok(s) => s,
        // No solver was made for a shape whose boards so far were solved already or could
        // not reach the goal (no databases built just to say so).
        Err(_) if !solvers.needed(board) => {
            return if board == &solvers.goal_for(board.shape()) {
                piece.already_solved(style, line, board)
            } else {
                piece.unsolvable(style, line, board)
            };
        }
        Err(e) => return piece.fail(style, line, &e.to_string()),
    };
    if style.fast
        && let Some(table) = solver.table()
    {
        piece.begin_answer(style);
        if !table.write_letters(board, &mut piece.out) {
            piece.out.extend_from_slice(b"unsolvable");
        }
        piece.out.push(b'\n');
        return;
    }
    match solver.solve(board) {
        Err(e) => piece.fail(style, line, &e.to_string()),
        Ok(Outcome::Unsolvable) => piece.unsolvable(style, line, board),
        Ok(Outcome::Solved(answer)) => {
            let databases = solver
                .pdbs()
                .filter(|_| answer.heuristic == Some(HeuristicKind::Pdb))
                .map(|p| p.partition().name.clone());
            if style.json {
                let mut j = JsonAnswer::solved(line, board, &answer);
                j.databases = databases;
                if !style.stats {
                    j.stats = None;
                }
                let _ = serde_json::to_writer(&mut piece.out, &j);
                piece.out.push(b'\n');
                piece.answers += 1;
                return;
            }
            piece.begin_answer(style);
            piece
                .out
                .extend_from_slice(style.notation.render(&answer.solution).as_bytes());
            piece.out.push(b'\n');
            if style.show {
                piece.out.extend_from_slice(
                    show_steps(board, &answer.solution, style.notation).as_bytes(),
                );
            }
            if style.stats {
                let _ = writeln!(
                    piece.err,
                    "{}",
                    stats_line(line, &answer, databases.as_deref())
                );
            } else if let Some(kind) = answer.fallback_after {
                let whose = if style.arguments {
                    "npuzzle: the board".to_string()
                } else {
                    format!("line {line}")
                };
                let _ = writeln!(
                    piece.err,
                    "{whose}: the search hit the {kind}; answered by {} (not optimal)",
                    match answer.algorithm {
                        Algorithm::Large => "the constructive solver",
                        _ => "the near-optimal solver",
                    }
                );
            }
        }
    }
}

/// What `solve` writes, chosen once from the flags.
#[derive(Clone, Debug)]
pub struct OutputOptions {
    /// Move notation.
    pub notation: Notation,
    /// Print boards step by step.
    pub show: bool,
    /// Print search figures.
    pub stats: bool,
    /// Write JSON lines.
    pub json: bool,
    /// The board came from the command line (messages name no line).
    pub arguments: bool,
}

/// Totals of one streamed run.
#[derive(Copy, Clone, Debug, Default)]
pub struct RunSummary {
    /// Boards answered (solved or unsolvable).
    pub answered: usize,
    /// Boards that could not be read or solved.
    pub failures: usize,
    /// Problems with the input as a whole (no board, a UVa count it does not match).
    pub problems: usize,
}

/// What the reader thread hands over.
enum Chunk {
    /// Boards already read.
    Puzzles(Vec<Puzzle>),
    /// One-board-per-line input, not parsed yet: the bulk path answers these lines straight
    /// from the tables and hands the others to the general reader.
    Lines(Vec<u8>, Vec<RawLine>),
}

impl Style {
    fn of(options: &OutputOptions, format: Option<Format>) -> Style {
        Style {
            notation: options.notation,
            show: options.show,
            stats: options.stats,
            json: options.json,
            uva: !options.json && format == Some(Format::Uva),
            arguments: options.arguments,
            fast: options.plain(),
        }
    }
}

impl OutputOptions {
    /// Nothing but judge letters: answers may be written straight from a table.
    fn plain(&self) -> bool {
        !self.json && !self.show && !self.stats && self.notation == Notation::Judge
    }
}

/// What the reader thread sends: a chunk and the convention read so far.
type Message = io::Result<(Option<Format>, Chunk)>;

/// Reads chunks of the input on its own thread, ahead of the solving.
fn read_ahead<R: std::io::BufRead + Send + 'static>(
    mut reader: npuzzle::judge::JudgeReader<R>,
    bulk_lines: bool,
) -> (mpsc::Receiver<Message>, std::thread::JoinHandle<()>) {
    let (tx, rx) = mpsc::sync_channel::<Message>(2);
    let thread = std::thread::spawn(move || {
        loop {
            if bulk_lines && reader.is_line_per_board() {
                let mut buf = Vec::with_capacity(CHUNK * 20);
                let mut lines = Vec::with_capacity(CHUNK);
                let more = match reader.raw_lines(CHUNK, CHUNK_BYTES, &mut buf, &mut lines) {
                    Ok(more) => more,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                if !lines.is_empty()
                    && tx
                        .send(Ok((reader.format(), Chunk::Lines(buf, lines))))
                        .is_err()
                {
                    return;
                }
                if !more {
                    return;
                }
                continue;
            }
            let mut chunk = Vec::with_capacity(CHUNK);
            let mut ended = false;
            let mut failed = None;
            // Large boards make short chunks, so that their answers are written as they come.
            let mut cells = 0;
            while chunk.len() < CHUNK && cells < CHUNK_CELLS {
                match reader.next_puzzle() {
                    Ok(Some(p)) => {
                        cells += p.board.as_ref().map_or(1, |b| b.shape().cells());
                        chunk.push(p);
                    }
                    Ok(None) => {
                        ended = true;
                        break;
                    }
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
                if bulk_lines && reader.is_line_per_board() {
                    break;
                }
            }
            if !chunk.is_empty()
                && tx
                    .send(Ok((reader.format(), Chunk::Puzzles(chunk))))
                    .is_err()
            {
                return;
            }
            if let Some(e) = failed {
                let _ = tx.send(Err(e));
                return;
            }
            if ended {
                return;
            }
        }
    });
    (rx, thread)
}

/// A parallel task's answers, and the boards of shapes that had no solver yet, each with the
/// place in the answers where its own answer goes.
type Answered = (Piece, Vec<(usize, Puzzle)>);

/// Answers raw lines in parallel: straight from a table where the line is one valid board of
/// its shape, else through the general reader.
fn answer_lines(
    buf: &[u8],
    lines: &[RawLine],
    style: &Style,
    solvers: &Solvers,
    reading: &ReaderOptions,
) -> Vec<Answered> {
    let tables = solvers.tables();
    // Lines short enough for a table board go many to a task; longer ones one each, since
    // each may need a search.
    let task = if buf.len() <= lines.len() * 64 {
        TASK
    } else {
        1
    };
    lines
        .par_chunks(task)
        .map(|task| {
            let mut piece = Piece::default();
            let mut later = Vec::new();
            // A line too long for the reader reads as empty here: never a board.
            let texts: Vec<&[u8]> = task
                .iter()
                .map(|r| {
                    if r.too_long {
                        &[][..]
                    } else {
                        &buf[r.start..r.end]
                    }
                })
                .collect();
            let mut i = 0;
            while i < task.len() {
                let run = tables
                    .iter()
                    .map(|t| t.answer_lines(&texts[i..], &mut piece.out))
                    .find(|&k| k > 0)
                    .unwrap_or(0);
                if run > 0 {
                    piece.answers += run;
                    i += run;
                    continue;
                }
                let raw = &task[i];
                i += 1;
                let p = reading.parse_line(raw, buf);
                match &p.board {
                    Ok(b) if !solvers.is_prepared(b.shape()) && solvers.needed(b) => {
                        later.push((piece.out.len(), p));
                    }
                    _ => answer_one(&mut piece, style, solvers, &p),
                }
            }
            (piece, later)
        })
        .collect()
}

/// Writes answers in order, keeping the totals and the UVa separators.
struct Writer<'a, O: Write, E: Write> {
    out: &'a mut O,
    err: &'a mut E,
    summary: RunSummary,
    answered_any: bool,
}

impl<O: Write, E: Write> Writer<'_, O, E> {
    /// `bytes` of `piece`'s answers; its reports and totals go with its last bytes (`last`).
    fn write(&mut self, piece: &Piece, bytes: &[u8], style: &Style, last: bool) -> io::Result<()> {
        let mut bytes = bytes;
        if style.uva && !self.answered_any && bytes.first() == Some(&b'\n') {
            bytes = &bytes[1..]; // no separator before the first answer
        }
        self.answered_any |= !bytes.is_empty();
        self.out.write_all(bytes)?;
        if last {
            if !piece.err.is_empty() {
                self.out.flush()?;
                self.err.write_all(&piece.err)?;
            }
            self.summary.answered += piece.answers - piece.failures.min(piece.answers);
            self.summary.failures += piece.failures;
            self.summary.problems += piece.problems;
        }
        Ok(())
    }
}

/// Streams boards from `reader` to `out` (answers) and `err` (reports): a reader thread reads
/// chunks ahead while the current chunk is answered in parallel, in order. One-board-per-line
/// input with plain output goes the bulk way (see [`answer_lines`]).
pub fn stream<R: std::io::BufRead + Send + 'static>(
    reader: npuzzle::judge::JudgeReader<R>,
    solvers: &mut Solvers,
    options: &OutputOptions,
    out: &mut impl Write,
    err: &mut impl Write,
) -> Result<RunSummary> {
    let reading = *reader.options();
    let (rx, reader_thread) = read_ahead(reader, options.plain());
    let mut w = Writer {
        out,
        err,
        summary: RunSummary::default(),
        answered_any: false,
    };
    for message in rx {
        let (format, chunk) = message.context("cannot read the input")?;
        let style = Style::of(options, format);
        let pieces: Vec<Answered> = match &chunk {
            Chunk::Puzzles(puzzles) => {
                for p in puzzles {
                    if let Ok(b) = &p.board
                        && solvers.needed(b)
                    {
                        solvers.prepare(b.shape());
                    }
                }
                let solvers = &*solvers;
                // Table lookups are cheap: many boards per task. Searches: one board per task.
                let all_tables = puzzles.iter().all(|p| {
                    p.board.as_ref().map_or(true, |b| {
                        solvers.get(b.shape()).is_ok_and(|s| s.table().is_some())
                    })
                });
                let task = if style.fast && all_tables { TASK } else { 1 };
                puzzles
                    .par_chunks(task)
                    .map(|task| {
                        let mut piece = Piece::default();
                        for p in task {
                            answer_one(&mut piece, &style, solvers, p);
                        }
                        (piece, Vec::new())
                    })
                    .collect()
            }
            Chunk::Lines(buf, lines) => answer_lines(buf, lines, &style, solvers, &reading),
        };
        for (piece, later) in pieces {
            // Boards of new shapes: their solvers are made now, their answers go in place.
            let mut at = 0;
            for (offset, p) in &later {
                w.write(&piece, &piece.out[at..*offset], &style, false)?;
                at = *offset;
                if let Ok(b) = &p.board {
                    solvers.prepare(b.shape());
                }
                let mut one = Piece::default();
                answer_one(&mut one, &style, solvers, p);
                w.write(&one, &one.out, &style, true)?;
            }
            w.write(&piece, &piece.out[at..], &style, true)?;
        }
    }
    w.out.flush()?;
    let _ = reader_thread.join();
    Ok(w.summary)
}

/// Runs `npuzzle solve`.
pub fn run(args: SolveArgs) -> Result<ExitCode> {
    if args.threads > 0 {
        // Fails only if a pool already exists, which is harmless.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads as usize)
            .build_global();
    }
    let limits = args.limits.to_limits()?;
    if let (Some(partition), Some(h)) = (&args.pdb.pdb, args.heuristic)
        && h.kind() != HeuristicKind::Pdb
    {
        eprintln!(
            "npuzzle: warning: --pdb {partition} is not used: --heuristic {} searches without pattern databases",
            h.kind().name()
        );
    }
    let mut solvers = Solvers::new(
        &args.board,
        args.algorithm.algorithm(),
        args.heuristic.map(HeuristicArg::kind),
        limits,
        args.pdb.clone(),
    )?
    .near(
        Effort::new(args.effort).context("--effort is 1 to 5")?,
        args.fallback,
    );
    let near_runs =
        args.fallback || matches!(args.algorithm, AlgorithmArg::Near | AlgorithmArg::Auto);
    if args.effort != 1 && !near_runs {
        eprintln!(
            "npuzzle: warning: --effort {} is not used: --algorithm {} never runs the near-optimal solver (add --fallback for searches that hit a limit)",
            args.effort,
            args.algorithm.algorithm().name()
        );
    }
    let source = input::from_arguments(&args.input)?;
    let arguments = source.is_arguments();
    let reader = input::judge_reader(source.into_input(), &args.board)?;
    let options = OutputOptions {
        notation: args.notation,
        show: args.show,
        stats: args.stats,
        json: args.board.format == FormatArg::Jsonl,
        arguments,
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(1 << 20, stdout.lock());
    let summary = stream(reader, &mut solvers, &options, &mut out, &mut io::stderr())?;
    if summary.failures > 0 {
        eprintln!(
            "npuzzle: {} board(s) could not be answered (marked `{NO_ANSWER}` in the output; reasons above)",
            summary.failures
        );
    }
    Ok(if summary.failures > 0 || summary.problems > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
