//! The one batch: boards streamed from any judge input, answered in parallel, written in input
//! order as soon as each answer and every answer before it are known. The CLI's `solve`,
//! `bench eight`, Python's `solve_many` and `lengths`, and the Ray batch tasks all run here;
//! what they write is a [`Sink`].
//!
//! How it flows: a reader thread parses the next chunk of input while the current one is
//! answered on all rayon threads, so a million boards are never held at once. A chunk is cut
//! into tasks (a thousand table boards, or one board that needs a search), each task's replies
//! go into its own piece of output, and the calling thread hands pieces to the caller's `emit`
//! in order while later tasks still run. One-board-per-line input to a sink that takes judge
//! letters skips the board objects altogether: each line is ranked and looked up in the
//! complete table straight from its bytes (the 3×3 fast path).
//!
//! One solver per board shape ([`Solvers`]), made on first use by the [`crate::Plan`]; no
//! databases are built for a shape whose boards so far were solved already or could not reach
//! the goal. When a chunk holds enough searches to keep every core busy, each keeps to one
//! core; a few split over the cores left idle, so that one hard board does not hold up the
//! rest. The searches running side by side share one stored-state cap. A board that cannot be
//! read or solved gets an error reply in its place, and the batch goes on. Answers of a chunk
//! stream out as its searches finish, and whatever was written is flushed whenever the batch
//! waits (for a search, or for more input). A chunk ends early when the input has nothing
//! more ready (a pipe or a terminal, see `Pumped`), so that a board typed or sent on its own
//! is answered at once, not when a chunk is full or the input ends.

use crate::board::{Board, Shape};
use crate::judge::{Format, JudgeReader, Puzzle, RawLine, ReaderOptions};
use crate::search::{LimitKind, Limits, SearchError, Stats};
use crate::solution::Solution;
use crate::solver::{Algorithm, Answer, Outcome, SolveError, Solver, SolverBuilder};
use crate::table::Table;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashMap};
use std::io::{self, BufRead};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock, mpsc};

/// Boards read per chunk.
const CHUNK: usize = 1 << 15;
/// Most bytes of raw lines in one chunk (about 50,000 3×3 boards, or 20 of 100×100).
const CHUNK_BYTES: usize = 1 << 20;
/// Most cells of the boards of one chunk: large boards make short chunks, so that their
/// answers are written as they come.
const CHUNK_CELLS: usize = 1 << 16;
/// Boards per task when a table answers them.
const TABLE_TASK: usize = 1 << 10;

/// Which goal the boards of each size get.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goals {
    /// Tiles in order, blank last.
    Standard,
    /// Korf's convention: blank first, then tiles in order.
    BlankFirst,
    /// This goal (for boards of its size; other sizes get the standard goal).
    Fixed(Board),
}

impl Goals {
    /// A [`SolverBuilder`] to set options on and hand to [`Solvers::new`] as its template
    /// (whose goal each shape replaces).
    pub fn builder(&self) -> SolverBuilder {
        SolverBuilder::new(self.for_shape(Shape::new(3, 3).expect("3x3 is a board")))
    }

    /// The goal for boards of `shape`.
    pub fn for_shape(&self, shape: Shape) -> Board {
        match self {
            Goals::Fixed(g) if g.shape() == shape => g.clone(),
            Goals::BlankFirst => Board::goal_blank_first(shape),
            _ => Board::goal(shape),
        }
    }
}

/// The solvers of a batch: one per board shape, made on first use from a template builder
/// (its goal replaced by [`Goals::for_shape`]), so every shape gets the plan's choice.
pub struct Solvers {
    goals: Goals,
    template: SolverBuilder,
    by_shape: RwLock<HashMap<Shape, Made>>,
    /// The threads of this batch's parallel work, when not the global pool's.
    pool: Option<Arc<crate::parallel::Pool>>,
    /// Set from outside (a signal handler) to stop the batch: see [`Solvers::interrupted_by`].
    interrupt: Option<Arc<AtomicBool>>,
}

/// The solver made for one shape (or why it could not be).
type Made = Result<Pair, SolveError>;

/// One shape's solver: for a board searched alone (splitting over every core), and the same
/// solver keeping each search on one core (for boards side by side in a batch).
#[derive(Clone)]
struct Pair {
    alone: Arc<Solver>,
    one_core: Arc<Solver>,
}

impl Solvers {
    /// Solvers for boards toward `goals`, each made from `template` (method, heuristic,
    /// limits, databases, effort, fallback).
    pub fn new(goals: Goals, template: SolverBuilder) -> Solvers {
        Solvers {
            goals,
            template,
            by_shape: RwLock::new(HashMap::new()),
            pool: None,
            interrupt: None,
        }
    }

    /// The same batch, stopped when `flag` is set (e.g. by SIGINT): its searches are
    /// cancelled, every answer finished before the first unfinished one is still emitted (in
    /// order), nothing is emitted for the boards left, and [`Solvers::run`] returns with
    /// [`Summary::interrupted`] and the count of [`Summary::unanswered`] boards read.
    pub fn interrupted_by(mut self, flag: Arc<AtomicBool>) -> Solvers {
        // A database build the batch waits for is given up too.
        self.template = self.template.stop_builds(flag.clone());
        self.interrupt = Some(flag);
        self
    }

    fn is_interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// The same solvers (those made so far shared), answering on `threads` threads (0: one
    /// per core, the global pool).
    pub fn on_threads(&self, threads: usize) -> io::Result<Solvers> {
        let pool = if threads == 0 {
            None
        } else {
            let pool = crate::parallel::Pool::new(threads).map_err(io::Error::other)?;
            Some(Arc::new(pool))
        };
        let made = self.by_shape.read().map(|m| m.clone()).unwrap_or_default();
        Ok(Solvers {
            goals: self.goals.clone(),
            template: self.template.clone(),
            by_shape: RwLock::new(made),
            pool,
            interrupt: self.interrupt.clone(),
        })
    }

    /// Runs `f` on this batch's threads.
    fn in_pool<T: Send>(&self, f: impl FnOnce() -> T + Send) -> T {
        match &self.pool {
            Some(p) => p.run(f),
            None => crate::parallel::run(f),
        }
    }

    /// How many threads this batch's parallel work runs on.
    pub fn threads(&self) -> usize {
        self.pool
            .as_ref()
            .map_or_else(global_threads, |p| p.threads())
    }

    /// The goal for boards of `shape`.
    pub fn goal_for(&self, shape: Shape) -> Board {
        self.goals.for_shape(shape)
    }

    /// The settings every solver of the batch is made from.
    pub fn template(&self) -> &SolverBuilder {
        &self.template
    }

    /// Whether a solver for `shape` has been made (or failed to be).
    pub fn is_prepared(&self, shape: Shape) -> bool {
        self.by_shape.read().is_ok_and(|m| m.contains_key(&shape))
    }

    /// Whether answering `board` needs its shape's solver: not when it is the goal already or
    /// known by parity to be unable to reach it, so no databases are built for it.
    pub fn needed(&self, board: &Board) -> bool {
        if self.is_prepared(board.shape()) {
            return true;
        }
        let goal = self.goal_for(board.shape());
        board != &goal && crate::parity::is_solvable(board, &goal).unwrap_or(true)
    }

    /// Whether making the solver for `shape` may take long: it wants pattern databases or a
    /// cached complete table (loaded in a second, or built for minutes), and is not made yet.
    pub fn slow_to_prepare(&self, shape: Shape) -> bool {
        !self.is_prepared(shape) && self.template.wants_provisions(shape)
    }

    /// Makes the solver for `shape` (or remembers why it cannot be made), once. It may load or
    /// build databases: call it outside the parallel part of a batch.
    pub fn prepare(&self, shape: Shape) {
        if self.is_prepared(shape) {
            return;
        }
        let builder = self.template.clone().goal(self.goal_for(shape));
        let made = self.in_pool(|| builder.build()).map(|s| Pair {
            one_core: Arc::new(s.clone().with_single_thread(true)),
            alone: Arc::new(s),
        });
        if let Ok(mut m) = self.by_shape.write() {
            m.entry(shape).or_insert(made);
        }
    }

    /// The solver for `shape` (after [`Solvers::prepare`]): for a board searched alone (all
    /// cores), or beside others (`alone` false: one core).
    pub fn get(&self, shape: Shape, alone: bool) -> Result<Arc<Solver>, SolveError> {
        let made = self
            .by_shape
            .read()
            .ok()
            .and_then(|m| m.get(&shape).cloned());
        match made {
            Some(Err(e)) => Err(e),
            Some(Ok(pair)) => Ok(if alone { pair.alone } else { pair.one_core }),
            None => Err(SolveError::Search(SearchError::Unsupported(format!(
                "no solver prepared for {shape} boards"
            )))),
        }
    }

    /// The solvers made so far that answer from a complete table.
    fn tables(&self) -> Vec<Arc<Solver>> {
        self.by_shape
            .read()
            .map(|m| {
                m.values()
                    .filter_map(|made| made.as_ref().ok().map(|p| &p.alone))
                    .filter(|s| s.table().is_some() && s.effective_algorithm() == Algorithm::Table)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The reply for one read board: solved by its shape's solver (on one core, or splitting
    /// its search over idle cores when `one_core` is false) under `limits`; a board that
    /// needed no solver (see [`Solvers::needed`]) is answered without one.
    fn answer(
        &self,
        board: &Board,
        one_core: bool,
        limits: &Limits,
    ) -> Result<Outcome, SolveError> {
        match self.get(board.shape(), !one_core) {
            Ok(s) => s.solve_within(board, limits),
            Err(_) if !self.needed(board) => {
                let goal = self.goal_for(board.shape());
                Ok(if board == &goal {
                    // No method had to run: `Auto` says so (a record names none).
                    Outcome::Solved(Answer {
                        solution: Solution::default(),
                        stats: Default::default(),
                        optimal: true,
                        algorithm: Algorithm::Auto,
                        heuristic: None,
                        databases: None,
                        fallback_after: None,
                    })
                } else {
                    Outcome::Unsolvable
                })
            }
            Err(e) => Err(e),
        }
    }

    /// The limits of each of `searches` searches of a batch: the template's, with the
    /// stored-state cap shared between those that run side by side (at most one per thread).
    fn shared_limits(&self, searches: usize) -> Limits {
        self.template
            .limits_ref()
            .share(searches.clamp(1, self.threads()))
    }

    /// Answers every board of `reader`, in order: each reply goes to `sink` (in parallel,
    /// into a piece per task) and each finished piece to `emit` (in input order, on this
    /// thread, as soon as it and every piece before it are done; [`Emit::idle`] whenever the
    /// batch is about to wait, and at the end). Returns the totals, or the first error of
    /// reading the input or of `emit` (then the answers still being searched are dropped).
    pub fn run<R, S>(
        &self,
        reader: JudgeReader<R>,
        sink: &S,
        mut emit: impl Emit<S::Piece>,
    ) -> Result<Summary, BatchError>
    where
        R: BufRead + Send + 'static,
        S: Sink,
    {
        let reading = *reader.options();
        let letters = sink.takes_letters();
        let (chunks, reader_thread) = read_ahead(reader, letters);
        let mut summary = Summary::default();
        loop {
            if summary.interrupted || self.is_interrupted() {
                // The reader may be blocked on a terminal: it is left behind, not joined.
                summary.interrupted = true;
                emit.idle().map_err(BatchError::Write)?;
                return Ok(summary);
            }
            // Whatever was written goes out before waiting for more input.
            let message = match chunks.try_recv() {
                Ok(m) => m,
                Err(mpsc::TryRecvError::Disconnected) => break,
                Err(mpsc::TryRecvError::Empty) => {
                    emit.idle().map_err(BatchError::Write)?;
                    match self.wait(&chunks) {
                        Some(m) => m,
                        None if self.is_interrupted() => continue,
                        None => break,
                    }
                }
            };
            let (format, chunk) = message.map_err(BatchError::Read)?;
            let run = ChunkRun {
                solvers: self,
                sink,
                format,
                reading: &reading,
            };
            run.answer(chunk, &mut summary, &mut emit)?;
        }
        emit.idle().map_err(BatchError::Write)?;
        let _ = reader_thread.join();
        Ok(summary)
    }
}

impl Solvers {
    /// The next message of `rx`; `None` when it is closed, or as soon as the batch is
    /// interrupted (checked every 50 ms while waiting).
    fn wait<T>(&self, rx: &mpsc::Receiver<T>) -> Option<T> {
        if self.interrupt.is_none() {
            return rx.recv().ok();
        }
        loop {
            match rx.recv_timeout(std::time::Duration::from_millis(50)) {
                Ok(m) => return Some(m),
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                Err(mpsc::RecvTimeoutError::Timeout) if self.is_interrupted() => return None,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// Runs the batch over boards given one per text (judge form, as on a line of HDU
    /// input; a text that is not one board of the solvers' `shape` gets an error reply), and
    /// returns the pieces in order. This is how callers holding boards in memory (Python, the
    /// benchmarks) use the same path as a file.
    pub fn run_texts<T: AsRef<str>, S: Sink>(
        &self,
        texts: &[T],
        shape: Option<Shape>,
        sink: &S,
    ) -> io::Result<Vec<S::Piece>> {
        self.run_lines(lines_of(texts), shape, sink)
    }

    /// Runs the batch over `lines`, one board per line as [`push_line`] writes them (line
    /// `i + 1` is the `i`-th board), and returns the pieces in order.
    pub fn run_lines<S: Sink>(
        &self,
        lines: Vec<u8>,
        shape: Option<Shape>,
        sink: &S,
    ) -> io::Result<Vec<S::Piece>> {
        let options = ReaderOptions {
            format: Some(Format::Hdu),
            shape,
            ..ReaderOptions::default()
        };
        let reader = JudgeReader::new(io::Cursor::new(lines), options);
        let mut pieces = Vec::new();
        self.run(reader, sink, |p| -> io::Result<()> {
            pieces.push(p);
            Ok(())
        })?;
        Ok(pieces)
    }

    /// Every board's outcome, in the order of `texts` (see [`Solvers::run_texts`] and
    /// [`Collect`](crate::solver::sinks::Collect)).
    pub fn collect<T: AsRef<str>>(
        &self,
        texts: &[T],
        shape: Option<Shape>,
        sink: crate::solver::sinks::Collect,
    ) -> io::Result<Vec<crate::solver::sinks::Collected>> {
        self.collect_lines(lines_of(texts), texts.len(), shape, sink)
    }

    /// Every board's outcome for `count` boards written by [`push_line`], in order.
    pub fn collect_lines(
        &self,
        lines: Vec<u8>,
        count: usize,
        shape: Option<Shape>,
        sink: crate::solver::sinks::Collect,
    ) -> io::Result<Vec<crate::solver::sinks::Collected>> {
        use crate::solver::sinks::Collected;
        let out = self.by_line(lines, count, shape, &sink)?;
        Ok(out
            .into_iter()
            .map(|c| c.unwrap_or_else(|| Collected::Unreadable("no answer".into())))
            .collect())
    }

    /// Every board's answer length for `count` boards written by [`push_line`], in order
    /// (see [`Lengths`](crate::solver::sinks::Lengths)).
    pub fn lengths_lines(
        &self,
        lines: Vec<u8>,
        count: usize,
        shape: Option<Shape>,
    ) -> io::Result<Vec<i32>> {
        use crate::solver::sinks::{Lengths, length};
        let out = self.by_line(lines, count, shape, &Lengths)?;
        Ok(out
            .into_iter()
            .map(|n| n.unwrap_or(length::UNREADABLE))
            .collect())
    }

    /// The items of a sink whose pieces are `(line, item)` lists, each in its board's place.
    fn by_line<T, S: Sink<Piece = Vec<(usize, T)>>>(
        &self,
        lines: Vec<u8>,
        count: usize,
        shape: Option<Shape>,
        sink: &S,
    ) -> io::Result<Vec<Option<T>>> {
        let mut out: Vec<Option<T>> = (0..count).map(|_| None).collect();
        for piece in self.run_lines(lines, shape, sink)? {
            for (line, item) in piece {
                if let Some(slot) = out.get_mut(line.wrapping_sub(1)) {
                    *slot = Some(item);
                }
            }
        }
        Ok(out)
    }
}

/// `texts` as a batch's input, one per line (see [`push_line`]).
fn lines_of<T: AsRef<str>>(texts: &[T]) -> Vec<u8> {
    let mut buf = Vec::with_capacity(texts.iter().map(|t| t.as_ref().len() + 1).sum());
    for t in texts {
        push_line(&mut buf, t.as_ref());
    }
    buf
}

/// Appends one board's text to a batch's input as one line (see [`Solvers::run_lines`]): its
/// line breaks become spaces, and an empty text a line that is no board, so that every text
/// keeps its line and gets exactly one reply.
pub fn push_line(buf: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    if text.trim().is_empty() {
        buf.extend_from_slice(b"(empty)");
    } else if memchr::memchr2(b'\n', b'\r', bytes).is_none() {
        buf.extend_from_slice(bytes);
    } else {
        buf.extend(bytes.iter().map(|&b| match b {
            b'\n' | b'\r' => b' ',
            b => b,
        }));
    }
    buf.push(b'\n');
}

/// How many threads the global pool has (batches and parallel searches that are not given
/// their own, see [`Solvers::on_threads`]).
pub fn global_threads() -> usize {
    crate::parallel::threads()
}

/// Where a batch's pieces go, in input order, on the thread that runs the batch.
pub trait Emit<P> {
    /// The next piece.
    fn piece(&mut self, piece: P) -> io::Result<()>;

    /// Nothing more is ready for now (the batch is about to wait for the next piece): the
    /// moment to flush what was written.
    fn idle(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<P, F: FnMut(P) -> io::Result<()>> Emit<P> for F {
    fn piece(&mut self, piece: P) -> io::Result<()> {
        self(piece)
    }
}

/// Totals of a batch.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Boards answered (solved or unable to reach the goal).
    pub answered: usize,
    /// Boards that could not be read or solved (each got an error reply in its place).
    pub failures: usize,
    /// Problems with the input as a whole (no board, a UVa count it does not match).
    pub problems: usize,
    /// Whether the batch was interrupted ([`Solvers::interrupted_by`]).
    pub interrupted: bool,
    /// Boards read but left without any reply when the batch was interrupted (the input
    /// after them was not read).
    pub unanswered: usize,
    /// The first board (in input order) whose search the interrupt stopped, and how far it
    /// had got: what a long search spent is said, not lost. `None` when the interrupt stopped
    /// no search (it came between boards, or before any search started).
    pub stopped: Option<Stopped>,
}

/// A search the interrupt stopped before its answer was known.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// 1-based input line where the board starts.
    pub line: usize,
    /// What the search had done by then.
    pub stats: Stats,
}

impl Summary {
    fn add(&mut self, other: Summary) {
        self.answered += other.answered;
        self.failures += other.failures;
        self.problems += other.problems;
        self.unanswered += other.unanswered;
        self.stopped = self.stopped.or(other.stopped);
    }

    /// Boards (and problems) this summary counts a reply for.
    fn replies(&self) -> usize {
        self.answered + self.failures + self.problems
    }
}

/// What the batch says about one place of the input.
#[derive(Debug)]
pub enum Reply<'a> {
    /// A board, and its outcome or why it could not be solved.
    Board {
        /// 1-based input line where the board starts.
        line: usize,
        /// The board.
        board: &'a Board,
        /// Its outcome, or why none.
        result: Result<Outcome, SolveError>,
    },
    /// A place that should hold a board but does not: an error in its place.
    Unreadable {
        /// 1-based input line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A problem with the input as a whole, with no answer in its place.
    Problem {
        /// 1-based input line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// Where a batch's replies go: each task of a batch fills its own piece, in parallel; the
/// pieces reach the caller in input order.
pub trait Sink: Sync {
    /// A task's output.
    type Piece: Send;

    /// An empty piece for a task of input in `format` (`None` while undetected).
    fn piece(&self, format: Option<Format>) -> Self::Piece;

    /// Adds one reply to `piece`.
    fn reply(&self, piece: &mut Self::Piece, reply: Reply<'_>);

    /// Whether this sink takes one-board-per-line answers straight from a table
    /// ([`Sink::table_lines`]): the fast path.
    fn takes_letters(&self) -> bool {
        false
    }

    /// Answers a run of one-board-per-line input lines from `table` (see
    /// [`Table::answer_lines`]); returns how many it answered (0 when it takes none).
    /// `raw` are the same lines as the reader gave them (with their line numbers).
    fn table_lines(
        &self,
        _piece: &mut Self::Piece,
        _table: &Table,
        _lines: &[&[u8]],
        _raw: &[RawLine],
    ) -> usize {
        0
    }
}

/// What the reader thread hands over.
enum Chunk {
    /// Boards already read.
    Puzzles(Vec<Puzzle>),
    /// One-board-per-line input, not parsed yet.
    Lines(Vec<u8>, Vec<RawLine>),
}

/// A chunk and the convention read so far.
type Message = io::Result<(Option<Format>, Chunk)>;

/// Bytes handed from [`Pumped`]'s reading thread at a time, at most.
const PUMP_BLOCK: usize = 1 << 16;

/// The input's bytes, read on a thread of their own and handed over in blocks (about 16 held
/// ahead at most), so that the chunk reader learns when its next read would wait for more
/// input (a pipe, a terminal): `before_wait` runs first, and hands over the boards read so far.
/// Each board is then answered as soon as it is complete, not when a chunk is full or the
/// input ends.
struct Pumped {
    blocks: mpsc::Receiver<io::Result<Vec<u8>>>,
    block: Vec<u8>,
    at: usize,
    ended: bool,
    failed: Option<io::Error>,
    before_wait: Box<dyn FnMut()>,
}

impl Pumped {
    /// Starts reading `input` on a thread of its own (it ends at the end of the input, on an
    /// error, or once this side is dropped and its next block cannot be handed over).
    fn new<R: BufRead + Send + 'static>(mut input: R, before_wait: Box<dyn FnMut()>) -> Pumped {
        let (tx, blocks) = mpsc::sync_channel(16);
        std::thread::spawn(move || {
            loop {
                let block = match input.fill_buf() {
                    Ok([]) => return,
                    Ok(b) => b[..b.len().min(PUMP_BLOCK)].to_vec(),
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                input.consume(block.len());
                if tx.send(Ok(block)).is_err() {
                    return;
                }
            }
        });
        Pumped {
            blocks,
            block: Vec::new(),
            at: 0,
            ended: false,
            failed: None,
            before_wait,
        }
    }

    /// Takes the next block (or the error, or the end) handed over: waits when `wait`, else
    /// returns `false` when nothing has been handed over yet.
    fn next_block(&mut self, wait: bool) -> bool {
        let message = if wait {
            self.blocks
                .recv()
                .map_err(|_| mpsc::TryRecvError::Disconnected)
        } else {
            self.blocks.try_recv()
        };
        match message {
            Ok(Ok(block)) => (self.block, self.at) = (block, 0),
            Ok(Err(e)) => self.failed = Some(e),
            Err(mpsc::TryRecvError::Disconnected) => self.ended = true,
            Err(mpsc::TryRecvError::Empty) => return false,
        }
        true
    }
}

impl io::Read for Pumped {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = {
            let held = self.fill_buf()?;
            let n = held.len().min(out.len());
            out[..n].copy_from_slice(&held[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Pumped {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.at == self.block.len() && !self.ended {
            if let Some(e) = self.failed.take() {
                return Err(e);
            }
            if !self.next_block(false) {
                (self.before_wait)();
                self.next_block(true);
            }
        }
        Ok(&self.block[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.block.len());
    }
}

/// The boards read and not handed over yet, and the convention read so far.
#[derive(Default)]
struct Held {
    format: Option<Format>,
    puzzles: Vec<Puzzle>,
    cells: usize,
    buf: Vec<u8>,
    lines: Vec<RawLine>,
}

impl Held {
    /// Whether the chunk is full.
    fn full(&self) -> bool {
        self.puzzles.len() >= CHUNK
            || self.cells >= CHUNK_CELLS
            || self.lines.len() >= CHUNK
            || self.buf.len() >= CHUNK_BYTES
    }

    /// Hands what is held over to `tx`; `false` when nobody takes it any more.
    fn hand_over(cell: &std::cell::RefCell<Held>, tx: &mpsc::SyncSender<Message>) -> bool {
        let mut held = cell.borrow_mut();
        let chunk = if !held.puzzles.is_empty() {
            held.cells = 0;
            Chunk::Puzzles(std::mem::take(&mut held.puzzles))
        } else if !held.lines.is_empty() {
            Chunk::Lines(
                std::mem::take(&mut held.buf),
                std::mem::take(&mut held.lines),
            )
        } else {
            return true;
        };
        let format = held.format;
        drop(held);
        tx.send(Ok((format, chunk))).is_ok()
    }
}

/// Reads chunks of the input on its own thread, ahead of the answering. A chunk is handed
/// over when it is full, and whenever the input has nothing more ready (see [`Pumped`]).
fn read_ahead<R: BufRead + Send + 'static>(
    reader: JudgeReader<R>,
    bulk_lines: bool,
) -> (mpsc::Receiver<Message>, std::thread::JoinHandle<()>) {
    let (tx, rx) = mpsc::sync_channel::<Message>(2);
    let thread = std::thread::spawn(move || {
        let held = std::rc::Rc::new(std::cell::RefCell::new(Held::default()));
        let before_wait = {
            let (held, tx) = (held.clone(), tx.clone());
            Box::new(move || {
                Held::hand_over(&held, &tx);
            })
        };
        let mut reader = reader.map_input(|input| Pumped::new(input, before_wait));
        let (mut buf, mut lines) = (Vec::new(), Vec::new());
        loop {
            let by_lines = bulk_lines && reader.is_line_per_board();
            let read = if by_lines {
                // One line at a time: into the held chunk when read (nothing is borrowed
                // while reading, when the input may hand the chunk over).
                let more = reader.raw_lines(1, CHUNK_BYTES, &mut buf, &mut lines);
                let mut h = held.borrow_mut();
                h.format = reader.format();
                for l in lines.drain(..) {
                    let start = h.buf.len();
                    h.buf.extend_from_slice(&buf[l.start..l.end]);
                    let end = h.buf.len();
                    h.lines.push(RawLine { start, end, ..l });
                }
                buf.clear();
                more
            } else {
                reader.next_puzzle().map(|p| match p {
                    Some(p) => {
                        let mut h = held.borrow_mut();
                        h.cells += p.board.as_ref().map_or(1, |b| b.shape().cells());
                        h.puzzles.push(p);
                        h.format = reader.format();
                        true
                    }
                    None => false,
                })
            };
            // Boards read before an error or the end are handed over first; so are boards read
            // one by one before the input turned out to be one board a line.
            let switching = !by_lines && bulk_lines && reader.is_line_per_board();
            let full = switching || held.borrow().full();
            if (full || !matches!(read, Ok(true))) && !Held::hand_over(&held, &tx) {
                return;
            }
            match read {
                Ok(true) => {}
                Ok(false) => return,
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            }
        }
    });
    (rx, thread)
}

/// A task's output: pieces, split where a board of a shape without a solver yet was met (its
/// answer comes after its solver is made, in its place).
enum Part<P> {
    Done(P, Summary),
    Later(Puzzle),
    /// Boards whose searches the interrupt cancelled, or never started: no reply.
    Interrupted(usize),
}

/// A task's number in its chunk, and its parts.
type Answered<P> = (usize, Vec<Part<P>>);

/// Answers `items` in tasks of `task` on all threads and sends the parts to the emitting
/// thread: each task as it finishes when tasks are single boards (searches, which may take
/// long: their answers stream out), the whole chunk at once when they are many table boards
/// (milliseconds in all; a message per task would only wake the emitting thread a thousand
/// times).
fn hand_over<T: Sync, P: Send>(
    items: &[T],
    task: usize,
    tx: &mpsc::Sender<Vec<Answered<P>>>,
    answer: impl Fn(&[T]) -> Vec<Part<P>> + Sync,
) {
    let tasks = items.par_chunks(task).enumerate();
    if task > 1 {
        let all: Vec<Answered<P>> = tasks.map(|(i, t)| (i, answer(t))).collect();
        let _ = tx.send(all);
    } else {
        tasks.for_each_with(tx.clone(), |tx, (i, t)| {
            let _ = tx.send(vec![(i, answer(t))]);
        });
    }
}

/// Searches per thread in a chunk from which each search keeps to one core.
const ONE_CORE_SEARCHES: usize = 4;

/// How the searches of a chunk run.
struct Searching {
    /// Each on one core (else each may split over idle cores).
    one_core: bool,
    /// Each one's limits (the stored-state cap shared by those side by side).
    limits: Limits,
}

/// Why a batch stopped.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// The input could not be read.
    #[error("cannot read the input")]
    Read(#[source] io::Error),
    /// The answers could not be written.
    #[error("cannot write the answers")]
    Write(#[source] io::Error),
}

impl BatchError {
    /// The underlying error.
    pub fn io(&self) -> &io::Error {
        match self {
            BatchError::Read(e) | BatchError::Write(e) => e,
        }
    }
}

impl From<BatchError> for io::Error {
    fn from(e: BatchError) -> io::Error {
        match e {
            BatchError::Read(e) | BatchError::Write(e) => e,
        }
    }
}

/// One chunk being answered.
struct ChunkRun<'a, S> {
    solvers: &'a Solvers,
    sink: &'a S,
    format: Option<Format>,
    reading: &'a ReaderOptions,
}

impl<S: Sink> ChunkRun<'_, S> {
    /// Replies for `puzzle` into `piece`; `false` (and no reply) when the batch was
    /// interrupted before its answer was known.
    fn reply(
        &self,
        piece: &mut S::Piece,
        totals: &mut Summary,
        puzzle: &Puzzle,
        searching: &Searching,
    ) -> bool {
        let reply = match &puzzle.board {
            Err(e) if !puzzle.answerable => {
                totals.problems += 1;
                Reply::Problem {
                    line: e.line,
                    message: e.kind.to_string(),
                }
            }
            Err(e) => {
                totals.failures += 1;
                Reply::Unreadable {
                    line: e.line,
                    message: e.kind.to_string(),
                }
            }
            Ok(board) => {
                if self.solvers.is_interrupted() {
                    return false;
                }
                let labelled = searching.limits.reporting_line(puzzle.line);
                let limits = labelled.as_ref().unwrap_or(&searching.limits);
                let result = self.solvers.answer(board, searching.one_core, limits);
                if let Err(SolveError::Search(SearchError::Limit(l))) = &result
                    && l.kind == LimitKind::Cancelled
                    && self.solvers.is_interrupted()
                {
                    totals.stopped = Some(Stopped {
                        line: puzzle.line,
                        stats: l.stats,
                    });
                    return false;
                }
                if result.is_ok() {
                    totals.answered += 1;
                } else {
                    totals.failures += 1;
                }
                Reply::Board {
                    line: puzzle.line,
                    board,
                    result,
                }
            }
        };
        self.sink.reply(piece, reply);
        true
    }

    /// Answers a task of read boards.
    fn puzzles(&self, task: &[Puzzle], searching: &Searching) -> Vec<Part<S::Piece>> {
        let mut parts = Vec::new();
        let mut piece = self.sink.piece(self.format);
        let mut totals = Summary::default();
        for (i, p) in task.iter().enumerate() {
            match &p.board {
                // Its shape's solver may take long to make: made in order, when every answer
                // before it is out.
                Ok(b) if !self.solvers.is_prepared(b.shape()) && self.solvers.needed(b) => {
                    let done = std::mem::replace(&mut piece, self.sink.piece(self.format));
                    parts.push(Part::Done(done, std::mem::take(&mut totals)));
                    parts.push(Part::Later(p.clone()));
                }
                _ => {
                    if !self.reply(&mut piece, &mut totals, p, searching) {
                        parts.push(Part::Done(piece, totals));
                        parts.push(Part::Interrupted(task.len() - i));
                        return parts;
                    }
                }
            }
        }
        parts.push(Part::Done(piece, totals));
        parts
    }

    /// Answers a task of raw lines: straight from a table where a line is one valid board of
    /// its shape, else through the general reader; boards of shapes without a solver yet are
    /// left for later.
    fn lines(
        &self,
        buf: &[u8],
        task: &[RawLine],
        tables: &[Arc<Solver>],
        searching: &Searching,
    ) -> Vec<Part<S::Piece>> {
        let mut parts = Vec::new();
        let mut piece = self.sink.piece(self.format);
        let mut totals = Summary::default();
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
                .filter_map(|s| s.table())
                .map(|t| {
                    self.sink
                        .table_lines(&mut piece, t, &texts[i..], &task[i..])
                })
                .find(|&k| k > 0)
                .unwrap_or(0);
            if run > 0 {
                totals.answered += run;
                i += run;
                continue;
            }
            let p = self.reading.parse_line(&task[i], buf);
            i += 1;
            match &p.board {
                Ok(b) if !self.solvers.is_prepared(b.shape()) && self.solvers.needed(b) => {
                    let done = std::mem::replace(&mut piece, self.sink.piece(self.format));
                    parts.push(Part::Done(done, std::mem::take(&mut totals)));
                    parts.push(Part::Later(p));
                }
                _ => {
                    if !self.reply(&mut piece, &mut totals, &p, searching) {
                        let left = task.len() - i + 1;
                        parts.push(Part::Done(piece, totals));
                        parts.push(Part::Interrupted(left));
                        return parts;
                    }
                }
            }
        }
        parts.push(Part::Done(piece, totals));
        parts
    }

    /// Answers a whole chunk, handing pieces to `emit` in order as they finish.
    fn answer(
        &self,
        chunk: Chunk,
        summary: &mut Summary,
        emit: &mut impl Emit<S::Piece>,
    ) -> Result<(), BatchError> {
        // Raw lines are for table boards. When the first of them need searches, the chunk is
        // read whole first: parsing is nothing beside searching, and every board is then known.
        let chunk = match chunk {
            Chunk::Lines(buf, lines) if self.first_lines_search(&buf, &lines) => Chunk::Puzzles(
                lines
                    .iter()
                    .map(|r| self.reading.parse_line(r, &buf))
                    .collect(),
            ),
            chunk => chunk,
        };
        // Solvers are made here, before the parallel part: those made at once, and the first
        // board's. One that may take long (databases or a table to load or build) for a later
        // board is made in order, once every answer before that board is out (its boards are
        // left for later by their tasks, as lines of another size among raw lines are).
        let searches = match &chunk {
            Chunk::Puzzles(puzzles) => {
                let mut first = true;
                for p in puzzles {
                    if let Ok(b) = &p.board
                        && self.solvers.needed(b)
                    {
                        let slow = self.solvers.slow_to_prepare(b.shape());
                        if first || !slow {
                            // Answers of earlier chunks go out before minutes of building.
                            if slow {
                                emit.idle().map_err(BatchError::Write)?;
                            }
                            self.solvers.prepare(b.shape());
                        }
                        first = false;
                    }
                }
                puzzles.iter().filter(|p| self.searches(p)).count()
            }
            Chunk::Lines(..) => 0,
        };
        let tables = self.solvers.tables();
        // Boards a table answers go many to a task; a board that needs a search gets a task
        // of its own (they differ a thousandfold in cost, and each answer streams out).
        let task = if searches > 0 { 1 } else { TABLE_TASK };
        // Searches keep to one core each when there are enough of them to keep every core
        // busy; a few split over the cores left idle (the engine's parallel split), so that
        // one hard board at the end does not leave the others waiting. Those running side by
        // side share the stored-state cap.
        let threads = self.solvers.threads();
        // Should the answers no longer be wanted (the output closed), the chunk's searches
        // stop (unless the caller cancels them by its own flag). A chunk of table boards is
        // answered whole on this thread, which then cannot set the flag: its few searches
        // (boards of another shape among the lines) take the interrupt flag instead.
        let stop = Arc::new(AtomicBool::new(false));
        let watched = task == 1;
        let searching = Searching {
            one_core: searches >= ONE_CORE_SEARCHES * threads,
            limits: self.cancelled_by(self.solvers.shared_limits(searches), &stop, watched),
        };
        // A board left for later is searched on this thread, and so is a chunk of lines
        // (table boards, answered whole here), whose odd boards may need a search.
        let here = Searching {
            one_core: true,
            limits: self.cancelled_by(self.solvers.shared_limits(threads), &stop, false),
        };
        let (tx, rx) = mpsc::channel::<Vec<Answered<S::Piece>>>();
        let work = |tx: mpsc::Sender<Vec<Answered<S::Piece>>>| {
            self.solvers.in_pool(|| match &chunk {
                Chunk::Puzzles(puzzles) => {
                    hand_over(puzzles, task, &tx, |t| self.puzzles(t, &searching))
                }
                Chunk::Lines(buf, lines) => {
                    hand_over(lines, task, &tx, |t| self.lines(buf, t, &tables, &here))
                }
            })
        };
        if task > 1 {
            // Table boards: the chunk takes milliseconds (unless a line of another shape
            // needs a search), answered whole and then written.
            work(tx);
            return self.emit_in_order(rx, summary, emit, &here, &stop);
        }
        // Searches: answered on the pool while this thread writes each answer as it comes.
        std::thread::scope(|scope| {
            scope.spawn(move || work(tx));
            self.emit_in_order(rx, summary, emit, &here, &stop)
        })
    }

    /// Whether the first boards of raw lines need a search (not a table lookup).
    fn first_lines_search(&self, buf: &[u8], lines: &[RawLine]) -> bool {
        lines.iter().take(16).any(|r| {
            let p = self.reading.parse_line(r, buf);
            if let Ok(b) = &p.board
                && self.solvers.needed(b)
            {
                if self.solvers.slow_to_prepare(b.shape()) {
                    // Made in order by `answer`; its boards will need searches, most likely.
                    return true;
                }
                self.solvers.prepare(b.shape());
            }
            self.searches(&p)
        })
    }

    /// Whether answering `p` runs a search (its shape's solver does not look it up).
    fn searches(&self, p: &Puzzle) -> bool {
        p.board.as_ref().is_ok_and(|b| {
            self.solvers
                .get(b.shape(), false)
                .is_ok_and(|s| s.effective_algorithm() != Algorithm::Table)
        })
    }

    /// `limits` with the flag that cancels a chunk's search: the caller's own, where it has
    /// one; else the chunk's `stop`, which the emitting thread sets, when that thread is free
    /// to (`watched`); else (the search runs on that thread, or holds it up) the batch's
    /// interrupt flag, where there is one.
    fn cancelled_by(&self, mut limits: Limits, stop: &Arc<AtomicBool>, watched: bool) -> Limits {
        if limits.cancel.is_none() {
            limits.cancel = Some(match &self.solvers.interrupt {
                Some(flag) if !watched => flag.clone(),
                _ => stop.clone(),
            });
        }
        limits
    }

    /// Emits the tasks' parts in task order as they arrive; a board left for later is
    /// answered here (under `here`), after its shape's solver is made, in its place.
    fn emit_in_order(
        &self,
        rx: mpsc::Receiver<Vec<Answered<S::Piece>>>,
        summary: &mut Summary,
        emit: &mut impl Emit<S::Piece>,
        here: &Searching,
        stop: &AtomicBool,
    ) -> Result<(), BatchError> {
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        let mut failed = None;
        loop {
            let answered = match rx.try_recv() {
                Ok(a) => a,
                Err(mpsc::TryRecvError::Disconnected) => break,
                Err(mpsc::TryRecvError::Empty) => {
                    if failed.is_none()
                        && let Err(e) = emit.idle()
                    {
                        failed = Some(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                    match self.solvers.wait(&rx) {
                        Some(a) => a,
                        None if self.solvers.is_interrupted() => {
                            // Cancel the chunk's searches; their tasks then report at once.
                            stop.store(true, Ordering::Relaxed);
                            match rx.recv() {
                                Ok(a) => a,
                                Err(_) => break,
                            }
                        }
                        None => break,
                    }
                }
            };
            for (i, parts) in answered {
                waiting.insert(i, parts);
            }
            while let Some(parts) = waiting.remove(&next) {
                next += 1;
                if failed.is_some() {
                    continue; // drain, so the tasks finish
                }
                for part in parts {
                    if summary.interrupted {
                        // Past the first board left unanswered: nothing more is emitted.
                        summary.unanswered += match part {
                            // A search the interrupt stopped there is still the one to name
                            // when the first board left never started.
                            Part::Done(_, totals) => {
                                summary.stopped = summary.stopped.or(totals.stopped);
                                totals.replies()
                            }
                            Part::Later(_) => 1,
                            Part::Interrupted(n) => n,
                        };
                        continue;
                    }
                    let piece = match part {
                        Part::Done(piece, totals) => {
                            summary.add(totals);
                            piece
                        }
                        Part::Interrupted(n) => {
                            summary.interrupted = true;
                            summary.unanswered += n;
                            stop.store(true, Ordering::Relaxed);
                            continue;
                        }
                        Part::Later(p) if self.solvers.is_interrupted() => {
                            summary.interrupted = true;
                            summary.unanswered += 1;
                            drop(p);
                            continue;
                        }
                        Part::Later(p) => {
                            if let Ok(b) = &p.board {
                                // What is written goes out before a solver that may take
                                // minutes to make.
                                if self.solvers.slow_to_prepare(b.shape())
                                    && let Err(e) = emit.idle()
                                {
                                    failed = Some(e);
                                    stop.store(true, Ordering::Relaxed);
                                    break;
                                }
                                self.solvers.prepare(b.shape());
                            }
                            let mut piece = self.sink.piece(self.format);
                            let mut totals = Summary::default();
                            if !self.reply(&mut piece, &mut totals, &p, here) {
                                // Interrupted while its solver was made or its search ran:
                                // no line for it, and none after it.
                                summary.interrupted = true;
                                summary.unanswered += 1;
                                summary.stopped = summary.stopped.or(totals.stopped);
                                stop.store(true, Ordering::Relaxed);
                                continue;
                            }
                            summary.add(totals);
                            piece
                        }
                    };
                    if let Err(e) = emit.piece(piece) {
                        failed = Some(e);
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                }
            }
        }
        failed.map_or(Ok(()), |e| Err(BatchError::Write(e)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::HeuristicKind;
    use crate::solver::sinks::{
        Collect, Collected, Lengths, Text, TextOptions, TextWriter, length,
    };

    fn solvers() -> Solvers {
        let three = Board::goal(Shape::new(3, 3).unwrap());
        Solvers::new(Goals::Standard, SolverBuilder::new(three))
    }

    fn text_run(solvers: &Solvers, input: &str, options: TextOptions) -> (String, String, Summary) {
        let reader = JudgeReader::new(
            io::Cursor::new(input.as_bytes().to_vec()),
            ReaderOptions::default(),
        );
        let mut w = TextWriter::new(Vec::new(), Vec::new());
        let summary = solvers.run(reader, &Text::new(options), &mut w).unwrap();
        (
            String::from_utf8(w.out).unwrap(),
            String::from_utf8(w.err).unwrap(),
            summary,
        )
    }

    /// Mixed sizes, bad lines, solved and odd boards, one per line: one answer per line, in
    /// order, each replayed to its goal; bad lines get the marker in place and a report.
    #[test]
    fn answers_in_order_with_bad_lines_in_place() {
        let mut lines = Vec::new();
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(7);
        for i in 0..3000 {
            let shape = match i % 7 {
                3 => Shape::new(2, 2).unwrap(),
                5 if i % 35 == 5 => Shape::new(3, 4).unwrap(),
                _ => Shape::new(3, 3).unwrap(),
            };
            let goal = Board::goal(shape);
            let line = match i % 11 {
                4 => "1 2 3 4 5 6 7 7 x".to_string(),
                8 => goal.to_judge_line(),
                _ if shape.cells() == 12 => {
                    // near boards: a quick optimal search
                    let mut b = goal.clone();
                    for _ in 0..12 {
                        let m = crate::Move::ALL[rand::Rng::random_range(&mut rng, 0..4)];
                        b.apply(m);
                    }
                    b.to_judge_line()
                }
                _ => crate::random::random_board(goal.shape(), &mut rng).to_judge_line(),
            };
            lines.push(line);
        }
        let input = lines.join("\n") + "\n";
        let (out, err, summary) = text_run(&solvers(), &input, TextOptions::default());
        let answers: Vec<&str> = out.split('\n').collect();
        assert_eq!(answers.len(), lines.len() + 1, "one answer per line");
        let mut bad = 0;
        for (i, (line, answer)) in lines.iter().zip(&answers).enumerate() {
            match Board::parse(line) {
                Err(_) => {
                    bad += 1;
                    assert_eq!(*answer, "error", "line {}", i + 1);
                    assert!(err.contains(&format!("line {}: ", i + 1)), "{err}");
                }
                Ok(b) => {
                    let goal = Board::goal(b.shape());
                    if *answer == "unsolvable" {
                        assert!(!crate::parity::is_solvable(&b, &goal).unwrap());
                    } else {
                        let s = Solution::from_letters(answer).unwrap();
                        s.verify(&b, &goal).unwrap();
                        if b.shape().cells() <= 9 {
                            let t = Table::build(&goal).unwrap();
                            assert_eq!(t.distance(&b).map(usize::from), Some(s.len()));
                        }
                    }
                }
            }
        }
        assert_eq!(summary.failures, bad);
        assert_eq!(summary.answered, lines.len() - bad);
    }

    /// Searches stream: each piece reaches `emit` on its own, in order.
    #[test]
    fn searches_are_emitted_one_by_one_in_order() {
        let goal = Board::goal(Shape::new(4, 3).unwrap());
        let mut texts = Vec::new();
        let mut b = goal.clone();
        for m in "ldruldrulldrr".chars() {
            b.apply(crate::Move::from_letter(m).unwrap());
            texts.push(b.to_judge_line());
        }
        let solvers = Solvers::new(Goals::Standard, SolverBuilder::new(goal.clone()));
        let pieces = solvers
            .run_texts(&texts, Some(goal.shape()), &Collect::default())
            .unwrap();
        assert_eq!(pieces.len(), texts.len(), "a piece per board");
        let lines: Vec<usize> = pieces.iter().flatten().map(|(l, _)| *l).collect();
        assert_eq!(lines, (1..=texts.len()).collect::<Vec<_>>());
        for (text, piece) in texts.iter().zip(&pieces) {
            let b = Board::parse_with_shape(text, Some(goal.shape())).unwrap();
            match &piece[0].1 {
                Collected::Solved(a) => a.solution.verify(&b, &goal).unwrap(),
                other => panic!("{other:?}"),
            }
        }
    }

    /// Boards searched at once report their progress under their own input lines.
    #[test]
    fn progress_reports_name_the_board_line() {
        let goal = Board::goal(Shape::new(4, 3).unwrap());
        let mut texts = vec!["1 2 3".to_string()];
        let mut b = goal.clone();
        for m in "ldruldrulldrr".chars() {
            b.apply(crate::Move::from_letter(m).unwrap());
            texts.push(b.to_judge_line());
        }
        let reports = Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = reports.clone();
        let limits = Limits {
            progress: Some(crate::search::ProgressHook(Arc::new(
                move |p: &crate::search::SearchProgress| sink.lock().unwrap().push(p.line),
            ))),
            ..Limits::default()
        };
        let template = SolverBuilder::new(goal.clone())
            .algorithm(Algorithm::IdaStar)
            .heuristic(Some(HeuristicKind::Manhattan))
            .limits(limits);
        let solvers = Solvers::new(Goals::Standard, template)
            .on_threads(2)
            .unwrap();
        let c = solvers
            .collect(&texts, Some(goal.shape()), Collect::default())
            .unwrap();
        assert!(matches!(&c[0], Collected::Unreadable(_)), "{:?}", c[0]);
        assert!(c[1..].iter().all(|c| matches!(c, Collected::Solved(_))));
        let mut lines: Vec<Option<usize>> = reports.lock().unwrap().clone();
        lines.sort();
        lines.dedup();
        // Every board searched reports under its line (the first is not a board).
        assert_eq!(lines, (2..=texts.len()).map(Some).collect::<Vec<_>>());
    }

    #[test]
    fn collect_and_lengths_answer_every_text_in_its_place() {
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let table = Table::build(&goal).unwrap();
        let mut rng = <rand::rngs::SmallRng as rand::SeedableRng>::seed_from_u64(3);
        let mut texts: Vec<String> = (0..2000)
            .map(|_| crate::random::random_board(goal.shape(), &mut rng).to_judge_line())
            .collect();
        texts[5] = "1 2 3".into();
        texts[6] = String::new();
        texts[7] = "1 2 3\n4 5 6\n7 8 x".into();
        let solvers = solvers();
        let collected = solvers
            .collect(&texts, Some(goal.shape()), Collect::default())
            .unwrap();
        assert_eq!(collected.len(), texts.len());
        let mut lengths = vec![0; texts.len()];
        for piece in solvers
            .run_texts(&texts, Some(goal.shape()), &Lengths)
            .unwrap()
        {
            for (line, n) in piece {
                lengths[line - 1] = n;
            }
        }
        for (i, (text, c)) in texts.iter().zip(&collected).enumerate() {
            let Ok(b) = Board::parse_with_shape(text, Some(goal.shape())) else {
                assert!(matches!(c, Collected::Unreadable(_)), "{i}: {c:?}");
                assert_eq!(lengths[i], length::UNREADABLE);
                continue;
            };
            let d = table.distance(&b);
            match (c, d) {
                (Collected::Letters(m), Some(d)) => {
                    let s = Solution::from_letters(m).unwrap();
                    s.verify(&b, &goal).unwrap();
                    assert_eq!(s.len(), d as usize);
                    assert_eq!(lengths[i], i32::from(d));
                }
                (Collected::Unsolvable, None) => assert_eq!(lengths[i], length::UNSOLVABLE),
                other => panic!("{i}: {other:?}"),
            }
        }
    }

    /// The stored-state cap is shared by the searches that run side by side, and a search
    /// that hits it is a failure in its place, not the end of the batch.
    #[test]
    fn one_stored_state_cap_for_the_batch() {
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let limits = Limits {
            max_stored: Some(1000),
            ..Limits::default()
        };
        let template = SolverBuilder::new(goal.clone())
            .algorithm(Algorithm::Bfs)
            .heuristic(Some(HeuristicKind::Manhattan))
            .limits(limits);
        let two = Solvers::new(Goals::Standard, template)
            .on_threads(2)
            .unwrap();
        assert_eq!(two.threads(), 2);
        assert_eq!(two.shared_limits(3).max_stored, Some(500));
        assert_eq!(two.shared_limits(1).max_stored, Some(1000));
        let texts = [
            "1 2 3 4 5 6 7 x 8",
            "8 6 7 2 5 4 3 x 1",
            "1 2 3 4 5 6 x 7 8",
        ];
        let c = two.collect(&texts, None, Collect::default()).unwrap();
        assert!(matches!(&c[0], Collected::Solved(a) if a.solution.len() == 1));
        // Stopped near its share (500), far below the whole cap.
        assert!(
            matches!(&c[1], Collected::Failed(e) if e.limit_stats().is_some_and(|s| (500..600).contains(&s.peak_stored))),
            "{:?}",
            c[1]
        );
        assert!(matches!(&c[2], Collected::Solved(a) if a.solution.len() == 2));
    }

    #[test]
    fn json_lines_carry_the_record() {
        let input = "2 3 4 1 5 x 7 6 8\n2 1 3 4 5 6 7 8 x\n1 2 3\n";
        let options = TextOptions {
            json: true,
            stats: true,
            ..TextOptions::default()
        };
        let (out, _, summary) = text_run(&solvers(), input, options);
        let v: Vec<serde_json::Value> = out
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(v.len(), 3);
        assert_eq!(v[0]["line"], 1);
        assert_eq!(v[0]["status"], "solved");
        assert_eq!(v[0]["length"], 19);
        assert_eq!(v[0]["board"], "2 3 4 1 5 x 7 6 8");
        assert!(v[0]["stats"]["expanded"].is_u64());
        assert_eq!(v[1]["status"], "unsolvable");
        assert_eq!(v[2]["status"], "error");
        assert!(
            v[2]["error"].as_str().unwrap().contains("3 tiles"),
            "{}",
            v[2]
        );
        assert_eq!((summary.answered, summary.failures), (2, 1));
    }

    /// A board that arrives on its own (through a pipe, as from a terminal) is answered at
    /// once: before the next one is sent, not when a chunk fills or the input ends. One board
    /// a line, and UVa's datasets.
    #[test]
    fn a_board_sent_on_its_own_is_answered_before_the_next_is_sent() {
        use std::io::Write;
        let boards = [
            "2 3 4 1 5 x 7 6 8",
            "8 6 7 2 5 4 3 x 1",
            "1 2 3 4 5 6 x 7 8",
        ];
        let line_per_board = boards.map(|b| format!("{b}\n"));
        let rows = |b: &str| {
            let rows: Vec<String> = b
                .split(' ')
                .collect::<Vec<_>>()
                .chunks(3)
                .map(|r| r.join(" "))
                .collect();
            rows.join("\n")
        };
        // A dataset ends at the blank line after it (it could have more rows), the last at
        // the end of the input.
        let (a, b, c) = (rows(boards[0]), rows(boards[1]), rows(boards[2]));
        // Each form: its parts, and before each part how many answers must be out.
        let forms: [(Vec<String>, [usize; 3]); 4] = [
            (line_per_board.to_vec(), [0, 1, 2]),
            // A line's end arrives with the start of the next.
            (
                vec![
                    format!("{}\n8 6 7 2", boards[0]),
                    " 5 4 3 x 1\n1 2 3".to_string(),
                    " 4 5 6 x 7 8\n".to_string(),
                ],
                [0, 1, 2],
            ),
            (
                vec![
                    format!("3\n\n{a}\n\n"),
                    format!("{b}\n\n"),
                    format!("{c}\n"),
                ],
                [0, 1, 2],
            ),
            // The blank line that ends a dataset arrives with the next one.
            (
                vec![
                    format!("3\n\n{a}\n"),
                    format!("\n{b}\n"),
                    format!("\n{c}\n"),
                ],
                [0, 0, 1],
            ),
        ];
        for (parts, needed) in forms {
            let (from_pipe, mut into_pipe) = io::pipe().unwrap();
            let (answered, answers) = mpsc::channel::<()>();
            // Sends each part once the answers it needs are out (or gives up).
            let sent = parts.clone();
            let sender = std::thread::spawn(move || {
                let mut out = 0;
                for (i, part) in sent.iter().enumerate() {
                    while out < needed[i] {
                        let waited = std::time::Duration::from_secs(20);
                        if answers.recv_timeout(waited).is_err() {
                            return Some(i);
                        }
                        out += 1;
                    }
                    into_pipe.write_all(part.as_bytes()).unwrap();
                }
                None
            });
            let reader = JudgeReader::new(io::BufReader::new(from_pipe), ReaderOptions::default());
            let mut replies = Vec::new();
            solvers()
                .run(reader, &Collect::default(), |piece: Vec<_>| {
                    for _ in &piece {
                        let _ = answered.send(());
                    }
                    replies.extend(piece);
                    Ok(())
                })
                .unwrap();
            let late = sender.join().unwrap();
            assert_eq!(
                late, None,
                "{parts:?}: part before this one not answered on its own"
            );
            let goal = Board::goal(Shape::new(3, 3).unwrap());
            assert_eq!(replies.len(), 3, "{parts:?}");
            for ((_, reply), text) in replies.iter().zip(boards) {
                let solution = match reply {
                    Collected::Solved(a) => a.solution.clone(),
                    Collected::Letters(l) => Solution::from_letters(l).unwrap(),
                    other => panic!("{other:?}"),
                };
                solution
                    .verify(&Board::parse(text).unwrap(), &goal)
                    .unwrap();
            }
        }
    }

    /// An output that fails ends the batch with a write error (its searches are stopped).
    #[test]
    fn a_failing_output_is_a_write_error() {
        let goal = Board::goal(Shape::new(4, 3).unwrap());
        let texts: Vec<String> = ["1 2 3 4 5 6 7 8 9 10 x 11"; 40]
            .iter()
            .map(|t| t.to_string())
            .collect();
        let solvers = Solvers::new(Goals::Standard, SolverBuilder::new(goal.clone()));
        let reader = JudgeReader::new(
            io::Cursor::new(lines_of(&texts)),
            ReaderOptions {
                shape: Some(goal.shape()),
                ..ReaderOptions::default()
            },
        );
        let e = solvers
            .run(reader, &Collect::default(), |_| -> io::Result<()> {
                Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
            })
            .unwrap_err();
        assert!(matches!(e, BatchError::Write(_)), "{e:?}");
        assert_eq!(e.io().kind(), io::ErrorKind::BrokenPipe);
    }
}
