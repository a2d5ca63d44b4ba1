//! `npuzzle._npuzzle`: the native half of the `npuzzle` Python package.
//!
//! Only translation lives here: Python values in (boards as judge strings or int sequences,
//! sizes, options), library calls, Python values and exceptions out. Which method answers a
//! board and which pattern databases it loads or builds is the library's decision
//! ([`npuzzle::SolverBuilder`], [`npuzzle::PdbSource`]). Every search runs with the GIL
//! released, so other Python threads (and Ray's) go on meanwhile. The public, documented API is
//! the Python module `npuzzle` (python/npuzzle/__init__.py), which wraps this one.

use npuzzle::heuristic::HeuristicKind;
use npuzzle::heuristic::pdb_file::PdbCache;
use npuzzle::heuristic::pdb_set::PdbEvent;
use npuzzle::judge::Verdict;
use npuzzle::search::Limits;
use npuzzle::search::{LimitKind, SearchError};
use npuzzle::solver::batch::{Goals, Solvers, push_line};
use npuzzle::solver::cache::SolverCache;
use npuzzle::solver::sinks::{Collect, Collected, length};
use npuzzle::{
    Algorithm, Answer, Board, Building, Move, Outcome, PdbSource, Record, RecordWithStats, Shape,
    Solution, SolveError, SolverBuilder, Split, SplitIterations, SubtreeResult,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PySequence, PyString};
use rand::SeedableRng;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

create_exception!(
    npuzzle,
    SearchLimitError,
    PyRuntimeError,
    "A search stopped at its time, node or memory (stored states) limit before finding an answer."
);

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A solve failure as the Python exception it becomes.
fn solve_error(e: SolveError) -> PyErr {
    match e {
        SolveError::Search(SearchError::Limit(l)) => SearchLimitError::new_err(l.to_string()),
        other => value_error(other),
    }
}

/// A size: `"4x4"`, `4` (square) or `(width, height)`.
fn shape_of(size: &Bound<'_, PyAny>) -> PyResult<Shape> {
    let (w, h) = if let Ok(s) = size.cast::<PyString>() {
        let text = s.to_cow()?;
        let shape: Shape = text
            .parse()
            .map_err(|e| value_error(format!("size {text:?}: {e}")))?;
        (shape.width(), shape.height())
    } else if let Ok(n) = size.extract::<usize>() {
        (n, n)
    } else if let Ok((w, h)) = size.extract::<(usize, usize)>() {
        (w, h)
    } else {
        return Err(value_error(
            "size must be \"WxH\" (e.g. \"4x4\"), a side, or (width, height)",
        ));
    };
    Shape::new(w, h).map_err(value_error)
}

/// A board: a judge string (`"2 3 4 1 5 x 7 6 8"`) or a sequence of ints (0 = blank), of
/// `shape` when given, else square.
fn board_of(board: &Bound<'_, PyAny>, shape: Option<Shape>) -> PyResult<Board> {
    let text = board_text(board)?;
    Board::parse_with_shape(&text, shape).map_err(|e| value_error(e.kind))
}

/// A board's tokens as judge text (see [`board_of`]).
fn board_text(board: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = board.cast::<PyString>() {
        return Ok(s.to_cow()?.into_owned());
    }
    if let Ok(b) = board.cast::<PyBytes>() {
        return String::from_utf8(b.as_bytes().to_vec())
            .map_err(|_| value_error("a board given as bytes must be text (UTF-8)"));
    }
    let tiles: Vec<i64> = board.extract().map_err(|_| not_tiles(board))?;
    if let Some(&t) = tiles.iter().find(|&&t| t < 0) {
        return Err(value_error(format!("tile {t} is negative")));
    }
    Ok(tiles
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" "))
}

/// Why `board`, neither text nor a sequence of ints, is no board: the first tile of a sequence
/// that is not an int, else the object's own type.
fn not_tiles(board: &Bound<'_, PyAny>) -> PyErr {
    let type_of = |x: &Bound<'_, PyAny>| {
        x.get_type()
            .name()
            .map_or_else(|_| "something else".to_string(), |n| n.to_string())
    };
    if board.cast::<PySequence>().is_ok()
        && let Ok(items) = board.try_iter()
    {
        for (i, item) in items.enumerate() {
            let Ok(item) = item else { break };
            if item.extract::<i64>().is_err() {
                return value_error(if item.is_instance_of::<PyInt>() {
                    format!("the board's item {i}, {item}, is too large for a tile")
                } else {
                    format!(
                        "the board's item {i} is a {}, not an int (tiles are ints, 0 = blank)",
                        type_of(&item)
                    )
                });
            }
        }
    }
    value_error(format!(
        "a board is a string of tiles (\"1 2 3 x\") or a sequence of ints (0 = blank), not {}",
        type_of(board)
    ))
}

fn algorithm_of(name: &str) -> PyResult<Algorithm> {
    name.parse().map_err(value_error)
}

fn heuristic_of(name: Option<&str>) -> PyResult<Option<HeuristicKind>> {
    name.map(str::parse).transpose().map_err(value_error)
}

fn keep_going_of(errors: &str) -> PyResult<bool> {
    match errors {
        "raise" => Ok(false),
        "return" => Ok(true),
        other => Err(value_error(format!(
            "errors must be \"raise\" or \"return\", not {other:?}"
        ))),
    }
}

fn building_of(name: &str) -> PyResult<Building> {
    name.parse().map_err(value_error)
}

/// A whole-number option: `ValueError` (naming the option) unless it is at least `min` and
/// fits `T`. Every Python int within 128 bits arrives here (negative ones too), so an option out
/// of range is named; only one past 128 bits gets pyo3's `OverflowError`.
fn whole<T: TryFrom<i128>>(name: &str, value: i128, min: i128) -> PyResult<T> {
    if value < min {
        return Err(value_error(format!(
            "{name} must be at least {min}, not {value}"
        )));
    }
    T::try_from(value).map_err(|_| value_error(format!("{name} is too large: {value}")))
}

/// Runs `work` on a thread of its own while this one, taking the GIL a moment every tenth of a
/// second, lets Python's signal handlers run. When one raises (Ctrl-C's `KeyboardInterrupt`),
/// `stop` is set, the work (whose limits or options stop on it) is waited for, and the
/// handler's exception raised. Every call that can search for long goes through this, so a
/// search started from Python stops at Ctrl-C like Python code does.
fn interruptible<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    interruptible_until(py, stop, None, work)
}

/// [`interruptible`], also asking `stop_when` (a Python callable, when given) at every tenth of a
/// second whether to stop: once it answers true, `stop` is set and the work, waited for, returns
/// as its limits make it (a search: stopped by its cancel flag).
fn interruptible_until<T: Send>(
    py: Python<'_>,
    stop: &AtomicBool,
    stop_when: Option<&Bound<'_, PyAny>>,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    use std::sync::mpsc::RecvTimeoutError;
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        let worker = scope.spawn(move || {
            let _ = tx.send(work());
        });
        // Shared with the detached closures below (a receiver alone is not `Sync`).
        let rx = std::sync::Mutex::new(rx);
        let wait = |timeout| {
            rx.lock()
                .map_err(|_| RecvTimeoutError::Disconnected)
                .and_then(|r| r.recv_timeout(timeout))
        };
        loop {
            match py.detach(|| wait(std::time::Duration::from_millis(100))) {
                Ok(done) => return Ok(done),
                // The work panicked: its panic goes on here, with its message.
                Err(RecvTimeoutError::Disconnected) => match worker.join() {
                    Err(panic) => std::panic::resume_unwind(panic),
                    Ok(()) => {
                        return Err(PyRuntimeError::new_err("the search ended without a result"));
                    }
                },
                Err(RecvTimeoutError::Timeout) => {
                    // A signal handler's exception (Ctrl-C), else `stop_when` asked once a tick
                    // until it says stop (an exception of its own counts as one).
                    let asking = stop_when.filter(|_| !stop.load(Ordering::Relaxed));
                    let asked = py.check_signals().and_then(|()| match asking {
                        Some(f) => f.call0()?.is_truthy(),
                        None => Ok(false),
                    });
                    match asked {
                        Ok(false) => {}
                        // The work ends on the flag, and returns as it does then.
                        Ok(true) => stop.store(true, Ordering::Relaxed),
                        Err(e) => {
                            stop.store(true, Ordering::Relaxed);
                            let _ = py.detach(|| wait(std::time::Duration::MAX));
                            return Err(e);
                        }
                    }
                }
            }
        }
    })
}

/// States a search started from Python expands on the calling thread before it goes on a
/// thread of its own that Ctrl-C can stop (milliseconds; see `Solver::searching`).
const INLINE_STATES: u64 = 100_000;

/// Whether a search stopped at its node limit.
fn stopped_by_nodes(r: &Result<Outcome, SolveError>) -> bool {
    matches!(r, Err(SolveError::Search(SearchError::Limit(l))) if l.kind == LimitKind::Nodes)
}

/// A fresh flag for [`interruptible`], and `limits` that stop on it.
fn stoppable(limits: &Limits) -> (Arc<AtomicBool>, Limits) {
    let stop = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        cancel: Some(stop.clone()),
        ..limits.clone()
    };
    (stop, limits)
}

fn limits_of(timeout: Option<f64>, max_nodes: Option<i128>) -> PyResult<Limits> {
    let max_nodes = max_nodes
        .map(|n| whole::<u64>("max_nodes", n, 1))
        .transpose()?;
    let max_time = timeout.map(seconds_of).transpose()?;
    Ok(Limits {
        max_time,
        max_nodes,
        // Stored states (BFS, A* …) within about 4 GiB per call, a batch included, and
        // within the same 4 GiB for all the process's calls together, whatever their threads.
        max_stored: Some(Limits::stored_states_within(STORED_BYTES)),
        stored_pool: Some(STORED_POOL.clone()),
        ..Limits::default()
    })
}

/// Memory the searches that store states (BFS, bidirectional BFS, A*, greedy) may use, per
/// call and for the whole process together.
const STORED_BYTES: u64 = 4 << 30;

/// The process-wide budget behind [`STORED_BYTES`].
static STORED_POOL: std::sync::LazyLock<Arc<npuzzle::search::StoredPool>> =
    std::sync::LazyLock::new(|| {
        Arc::new(npuzzle::search::StoredPool::new(
            Limits::stored_states_within(STORED_BYTES),
        ))
    });

/// What a search cost.
#[pyclass(frozen, get_all, eq, module = "npuzzle")]
#[derive(Clone, PartialEq)]
struct Stats {
    /// States expanded.
    expanded: u64,
    /// States generated.
    generated: u64,
    /// Most states held at once.
    peak_stored: u64,
    /// Seconds.
    elapsed: f64,
}

#[pymethods]
impl Stats {
    #[new]
    fn new(expanded: u64, generated: u64, peak_stored: u64, elapsed: f64) -> Stats {
        Stats {
            expanded,
            generated,
            peak_stored,
            elapsed,
        }
    }

    /// Pickles as its constructor call (results cross processes in Ray and multiprocessing).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let s = slf.get();
        let args = (s.expanded, s.generated, s.peak_stored, s.elapsed);
        (slf.get_type(), args)
            .into_pyobject(slf.py())
            .map(|t| t.into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "Stats(expanded={}, generated={}, peak_stored={}, elapsed={:.6})",
            self.expanded, self.generated, self.peak_stored, self.elapsed
        )
    }
}

fn stats_of(s: &npuzzle::search::Stats) -> Stats {
    Stats {
        expanded: s.expanded,
        generated: s.generated,
        peak_stored: s.peak_stored,
        elapsed: s.elapsed.as_secs_f64(),
    }
}

/// A solved board.
#[pyclass(frozen, eq, name = "Solution", module = "npuzzle")]
struct Solution_ {
    /// Judge letters: the blank's moves (`u`, `d`, `l`, `r`).
    #[pyo3(get)]
    moves: String,
    /// Number of moves.
    #[pyo3(get)]
    length: usize,
    /// Whether the length is guaranteed to be the fewest possible.
    #[pyo3(get)]
    optimal: bool,
    /// The method that found it.
    #[pyo3(get)]
    algorithm: &'static str,
    /// The heuristic it searched with, if any.
    #[pyo3(get)]
    heuristic: Option<&'static str>,
    /// The pattern-database partition it searched over, if any.
    #[pyo3(get)]
    databases: Option<String>,
    /// The limit the asked-for search hit before the fallback answered, if it did.
    #[pyo3(get)]
    fallback_after: Option<&'static str>,
    /// What it cost.
    #[pyo3(get)]
    stats: Stats,
    /// The board it solves (as the caller gave it) and its size, when known (for `to_dict`).
    board: Option<(Py<PyAny>, usize, usize)>,
}

/// Solutions are equal when their answers are (the board objects they keep are not compared).
impl PartialEq for Solution_ {
    fn eq(&self, o: &Solution_) -> bool {
        (
            &self.moves,
            self.optimal,
            self.algorithm,
            self.heuristic,
            &self.databases,
            self.fallback_after,
            &self.stats,
        ) == (
            &o.moves,
            o.optimal,
            o.algorithm,
            o.heuristic,
            &o.databases,
            o.fallback_after,
            &o.stats,
        )
    }
}

#[pymethods]
impl Solution_ {
    #[new]
    #[pyo3(signature = (moves, optimal, algorithm, stats, heuristic=None, databases=None,
                        fallback_after=None, board=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        moves: String,
        optimal: bool,
        algorithm: &str,
        stats: &Bound<'_, Stats>,
        heuristic: Option<&str>,
        databases: Option<String>,
        fallback_after: Option<&str>,
        board: Option<(Py<PyAny>, usize, usize)>,
    ) -> PyResult<Solution_> {
        Solution::from_letters(&moves).map_err(value_error)?;
        let fallback_after = fallback_after
            .map(|k| k.parse::<LimitKind>().map(LimitKind::name))
            .transpose()
            .map_err(value_error)?;
        Ok(Solution_ {
            length: moves.len(),
            moves,
            optimal,
            algorithm: algorithm_of(algorithm)?.name(),
            heuristic: heuristic_of(heuristic)?.map(HeuristicKind::name),
            databases,
            fallback_after,
            stats: stats.get().clone(),
            board,
        })
    }

    /// The answer as a dict with the same fields and values as a line of
    /// `npuzzle solve --format jsonl --stats` and the body of `POST /api/solve` (`board`,
    /// `status`, `moves`, `tiles`, `length`, `optimal`, `algorithm`, `heuristic`, `databases`,
    /// `fallback_after`, `stats` with `elapsed` in microseconds); `board` only when the
    /// solution knows it.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let solution = Solution::from_letters(&self.moves).map_err(value_error)?;
        let answer = Answer {
            solution,
            stats: npuzzle::search::Stats {
                expanded: self.stats.expanded,
                generated: self.stats.generated,
                peak_stored: self.stats.peak_stored,
                elapsed: std::time::Duration::from_secs_f64(self.stats.elapsed.max(0.0)),
            },
            optimal: self.optimal,
            algorithm: algorithm_of(self.algorithm)?,
            heuristic: heuristic_of(self.heuristic)?,
            databases: self.databases.clone(),
            fallback_after: self
                .fallback_after
                .map(|k| k.parse::<LimitKind>())
                .transpose()
                .map_err(value_error)?,
        };
        let record = match &self.board {
            Some((board, w, h)) => {
                let shape = Shape::new(*w, *h).map_err(value_error)?;
                let board = board_of(board.bind(py), Some(shape))?;
                Record::solved(&board, &answer)
            }
            None => Record::answer(&answer),
        };
        let text = serde_json::to_string(&RecordWithStats {
            record,
            stats: answer.stats,
        })
        .map_err(value_error)?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// The same moves in tile notation (the tile's direction, with run lengths), made when
    /// asked for.
    #[getter]
    fn tiles(&self) -> PyResult<String> {
        Ok(Solution::from_letters(&self.moves)
            .map_err(value_error)?
            .to_tile_notation())
    }

    /// Pickles as its constructor call.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let s = slf.get();
        let args = (
            s.moves.clone(),
            s.optimal,
            s.algorithm,
            Py::new(slf.py(), s.stats.clone())?,
            s.heuristic,
            s.databases.clone(),
            s.fallback_after,
            s.board
                .as_ref()
                .map(|(b, w, h)| (b.clone_ref(slf.py()), *w, *h)),
        );
        (slf.get_type(), args)
            .into_pyobject(slf.py())
            .map(|t| t.into_any())
    }

    fn __repr__(&self) -> String {
        let shown: String = self.moves.chars().take(40).collect();
        let more = if self.moves.len() > 40 { "…" } else { "" };
        format!(
            "Solution(length={}, optimal={}, algorithm={:?}, moves={:?}{more})",
            self.length,
            if self.optimal { "True" } else { "False" },
            self.algorithm,
            shown
        )
    }

    fn __len__(&self) -> usize {
        self.length
    }

    /// Always true: a solved board, even one of no moves, is an answer (only `None` and a
    /// `Failure` are not).
    fn __bool__(&self) -> bool {
        true
    }
}

fn solution_of(outcome: Outcome, board: Option<(Py<PyAny>, Shape)>) -> Option<Solution_> {
    match outcome {
        Outcome::Unsolvable => None,
        Outcome::Solved(a) => Some(answer_solution(&a, board)),
    }
}

/// The Python solution of an answer, with the board it solves when known.
fn answer_solution(a: &Answer, board: Option<(Py<PyAny>, Shape)>) -> Solution_ {
    Solution_ {
        moves: a.solution.to_letters(),
        length: a.solution.len(),
        optimal: a.optimal,
        algorithm: a.algorithm.name(),
        heuristic: a.heuristic.map(HeuristicKind::name),
        databases: a.databases.clone(),
        fallback_after: a.fallback_after.map(LimitKind::name),
        stats: stats_of(&a.stats),
        board: board.map(|(t, s)| (t, s.width(), s.height())),
    }
}

/// The Python solution of judge letters from a complete table of `states` states: optimal,
/// with the figures the library gives a table answer.
fn table_solution(moves: String, board: (Py<PyAny>, Shape), states: u64) -> Solution_ {
    let length = moves.len();
    Solution_ {
        moves,
        length,
        optimal: true,
        algorithm: Algorithm::Table.name(),
        heuristic: None,
        databases: None,
        fallback_after: None,
        stats: Stats {
            expanded: length as u64,
            generated: 0,
            peak_stored: states,
            elapsed: 0.0,
        },
        board: Some((board.0, board.1.width(), board.1.height())),
    }
}

/// One board of a batch that got no answer (with `errors="return"`).
#[pyclass(frozen, get_all, eq, module = "npuzzle")]
#[derive(Clone, PartialEq)]
struct Failure {
    /// Its position in the batch.
    index: usize,
    /// `"bad_board"` (could not be read, or wrong size) or `"limit"` (the search stopped).
    kind: String,
    /// What went wrong.
    message: String,
}

#[pymethods]
impl Failure {
    #[new]
    fn new(index: usize, kind: String, message: String) -> Failure {
        Failure {
            index,
            kind,
            message,
        }
    }

    /// Pickles as its constructor call.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let f = slf.get();
        let args = (f.index, f.kind.clone(), f.message.clone());
        (slf.get_type(), args)
            .into_pyobject(slf.py())
            .map(|t| t.into_any())
    }

    fn __repr__(&self) -> String {
        format!(
            "Failure(index={}, kind={:?}, message={:?})",
            self.index, self.kind, self.message
        )
    }

    fn __bool__(&self) -> bool {
        false
    }
}

/// Solves boards toward one goal with one method; keeps its tables and pattern databases.
#[pyclass(frozen, module = "npuzzle")]
struct Solver {
    inner: Arc<npuzzle::Solver>,
    /// The library's batch over this one solver (its shape's).
    batch: Solvers,
    shape: Shape,
    limits: Limits,
}

/// A batch's boards as the library's batch input, one per line (see
/// [`npuzzle::solver::batch::push_line`]; a board that has no text, such as a list holding
/// something other than ints, gets a line that is no board, and its reason), with the board
/// objects themselves (kept by the solutions, for `to_dict`).
struct Batch {
    lines: Vec<u8>,
    boards: Vec<Py<PyAny>>,
    errors: Vec<Option<String>>,
}

/// Why a batch refuses a lone string: iterated, it would be one board per character.
const NOT_ONE_BOARD: &str = "boards must be an iterable of boards, not one board's string (solve() answers one board; or pass [board])";

fn batch_of(py: Python<'_>, boards: &Bound<'_, PyAny>) -> PyResult<Batch> {
    let mut b = Batch {
        lines: Vec::new(),
        boards: Vec::new(),
        errors: Vec::new(),
    };
    if boards.is_instance_of::<PyString>() || boards.is_instance_of::<pyo3::types::PyBytes>() {
        return Err(PyTypeError::new_err(NOT_ONE_BOARD));
    }
    for item in boards.try_iter()? {
        let item = item?;
        let error = if let Ok(s) = item.cast::<PyString>() {
            push_line(&mut b.lines, &s.to_cow()?);
            None
        } else {
            match board_text(&item) {
                Ok(t) => {
                    push_line(&mut b.lines, &t);
                    None
                }
                Err(e) => {
                    push_line(&mut b.lines, "");
                    Some(e.value(py).to_string())
                }
            }
        };
        b.boards.push(item.unbind());
        b.errors.push(error);
    }
    Ok(b)
}

impl Solver {
    /// `search` with this solver's limits, stopped by Ctrl-C ([`interruptible`]). A solver
    /// that answers from a table (microseconds) runs it here, and so does one whose searches
    /// can tell they were `cut_short` by a node limit: first within [`INLINE_STATES`], which
    /// answers most boards without the cost of a thread, then, cut short, over again on a
    /// thread of its own.
    fn searching<T: Send>(
        &self,
        py: Python<'_>,
        search: impl Fn(&Limits) -> T + Send + Sync,
        cut_short: Option<fn(&T) -> bool>,
    ) -> PyResult<T> {
        if self.inner.effective_algorithm() == Algorithm::Table {
            return Ok(py.detach(|| search(&self.limits)));
        }
        if let Some(cut_short) = cut_short {
            // The solver's own node limit, when within the first states, is the whole search.
            let own = self.limits.max_nodes.filter(|&n| n <= INLINE_STATES);
            let first = Limits {
                max_nodes: Some(own.unwrap_or(INLINE_STATES)),
                ..self.limits.clone()
            };
            let answer = py.detach(|| search(&first));
            if own.is_some() || !cut_short(&answer) {
                return Ok(answer);
            }
        }
        let (stop, limits) = stoppable(&self.limits);
        interruptible(py, &stop, || search(&limits))
    }

    /// `work` on this solver's batch (its solvers made once) on `threads` threads (0: all
    /// cores), stopped by Ctrl-C ([`interruptible`]).
    fn batching<T: Send, E: From<std::io::Error> + Send>(
        &self,
        py: Python<'_>,
        threads: usize,
        work: impl FnOnce(&Solvers) -> Result<T, E> + Send,
    ) -> PyResult<Result<T, E>> {
        let stop = Arc::new(AtomicBool::new(false));
        interruptible(py, &stop, || {
            work(&self.batch.on_threads(threads)?.interrupted_by(stop.clone()))
        })
    }

    fn board(&self, board: &Bound<'_, PyAny>) -> PyResult<Board> {
        board_of(board, Some(self.shape))
    }

    /// The Python result of one board of a batch: a `Solution`, `None` or a `Failure` (or
    /// the error to raise, unless `keep_going`).
    fn result(
        &self,
        py: Python<'_>,
        i: usize,
        board: Py<PyAny>,
        error: Option<String>,
        item: Collected,
        keep_going: bool,
    ) -> PyResult<Py<PyAny>> {
        let failure = |kind: &str, message: String| Failure {
            index: i,
            kind: kind.into(),
            message,
        };
        let fail = |kind: &str, message: String, limit: bool| -> PyResult<Py<PyAny>> {
            if keep_going {
                return Ok(Py::new(py, failure(kind, message))?.into_any());
            }
            let text = format!("board {i}: {message}");
            Err(if limit {
                SearchLimitError::new_err(text)
            } else {
                value_error(text)
            })
        };
        if let Some(message) = error {
            return fail("bad_board", message, false);
        }
        let board = (board, self.shape);
        Ok(match item {
            Collected::Letters(moves) => {
                let states = self.inner.table().map_or(0, |t| t.reachable_states());
                Py::new(py, table_solution(moves, board, states))?.into_any()
            }
            Collected::Solved(a) => Py::new(py, answer_solution(&a, Some(board)))?.into_any(),
            Collected::Unsolvable => py.None(),
            Collected::Unreadable(message) => return fail("bad_board", message, false),
            Collected::Failed(e) => {
                let limit = e.limit_stats().is_some();
                let kind = if limit { "limit" } else { "bad_board" };
                let message = solve_error(e).value(py).to_string();
                return fail(kind, message, limit);
            }
        })
    }
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (size, goal=None, algorithm="auto", heuristic=None, pdb_dir=None,
                        partition=None, build="quick", timeout=None, max_nodes=None,
                        single_thread=false, effort=1))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        size: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
        algorithm: &str,
        heuristic: Option<&str>,
        pdb_dir: Option<std::path::PathBuf>,
        partition: Option<String>,
        build: &str,
        timeout: Option<f64>,
        max_nodes: Option<i128>,
        single_thread: bool,
        effort: i64,
    ) -> PyResult<Solver> {
        let effort = u8::try_from(effort)
            .ok()
            .and_then(npuzzle::near::Effort::new)
            .ok_or_else(|| value_error(format!("effort is 1 to 5, not {effort}")))?;
        let shape = shape_of(size)?;
        let goal = match goal {
            Some(g) => board_of(g, Some(shape))?,
            None => Board::goal(shape),
        };
        let limits = limits_of(timeout, max_nodes)?;
        let cache = pdb_dir
            .map(PdbCache::new)
            .unwrap_or_else(PdbCache::standard);
        let source = PdbSource {
            events: Some(build_announcer(cache.dir().to_path_buf())),
            cache: Some(cache),
            partition,
            build: building_of(build)?,
            stop: None,
        };
        let builder = SolverBuilder::new(goal.clone())
            .algorithm(algorithm_of(algorithm)?)
            .heuristic(heuristic_of(heuristic)?)
            .limits(limits.clone())
            .pdb_source(source)
            .single_thread(single_thread)
            .effort(effort);
        for unused in builder.unused_options() {
            let message = std::ffi::CString::new(unused).unwrap_or_default();
            PyErr::warn(
                py,
                &py.get_type::<pyo3::exceptions::PyUserWarning>(),
                &message,
                1,
            )?;
        }
        // Building tables or databases can take seconds to minutes: without the GIL, and a
        // Ctrl-C gives the build up after its current layer (nothing of it saved).
        let stop = Arc::new(AtomicBool::new(false));
        let batch = Solvers::new(Goals::Fixed(goal), builder.stop_builds(stop.clone()));
        let inner = interruptible(py, &stop, || {
            batch.prepare(shape);
            batch.get(shape, true)
        })?
        .map_err(solve_error)?;
        Ok(Solver {
            inner,
            batch,
            shape,
            limits,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Solver(size=\"{}\", goal={:?}, algorithm={:?}, databases={})",
            self.shape,
            self.inner.goal().to_judge_line(),
            self.inner.effective_algorithm().name(),
            self.inner
                .pdbs()
                .map_or("None".to_owned(), |p| format!("{:?}", p.partition().name))
        )
    }

    /// The board size, as (width, height).
    #[getter]
    fn size(&self) -> (usize, usize) {
        (self.shape.width(), self.shape.height())
    }

    /// The goal as a judge string.
    #[getter]
    fn goal(&self) -> String {
        self.inner.goal().to_judge_line()
    }

    /// The method that answers boards (`auto` resolved).
    #[getter]
    fn algorithm(&self) -> &'static str {
        self.inner.effective_algorithm().name()
    }

    /// The pattern-database partition in use, if any.
    #[getter]
    fn databases(&self) -> Option<String> {
        self.inner.pdbs().map(|p| p.partition().name.clone())
    }

    /// Whether searches run on the IDA* engine (and can be split with `frontier`).
    #[getter]
    fn splittable(&self) -> bool {
        self.inner.uses_engine()
    }

    /// Solves one board; `None` when it cannot reach the goal.
    fn solve(&self, py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<Option<Solution_>> {
        let b = self.board(board)?;
        let outcome = self
            .searching(
                py,
                |limits| self.inner.solve_within(&b, limits),
                Some(stopped_by_nodes),
            )?
            .map_err(solve_error)?;
        Ok(solution_of(
            outcome,
            Some((board.clone().unbind(), self.shape)),
        ))
    }

    /// Solves boards in parallel on all cores (one after another with `parallel=False`), on
    /// the library's batch; results in input order. With `errors="raise"` the first bad
    /// board or hit limit raises (naming its index); with `errors="return"` it becomes a
    /// `Failure` in its place.
    #[pyo3(signature = (boards, errors="raise", parallel=true))]
    fn solve_many(
        &self,
        py: Python<'_>,
        boards: &Bound<'_, PyAny>,
        errors: &str,
        parallel: bool,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let keep_going = keep_going_of(errors)?;
        let Batch {
            lines,
            boards,
            errors,
        } = batch_of(py, boards)?;
        if !keep_going
            && let Some((i, Some(e))) = errors.iter().enumerate().find(|(_, e)| e.is_some())
        {
            // A board that is not even text fails the batch before anything is solved.
            return Err(value_error(format!("board {i}: {e}")));
        }
        let (count, shape) = (boards.len(), Some(self.shape));
        let collected = self
            .batching(py, if parallel { 0 } else { 1 }, |solvers| {
                solvers.collect_lines(lines, count, shape, Collect::default())
            })?
            .map_err(value_error)?;
        // A million result objects would set off Python's cycle collector again and again
        // (they hold no cycles): paused while they are made.
        let gc = py.import("gc")?;
        let collecting = gc.call_method0("isenabled")?.is_truthy()?;
        if collecting {
            gc.call_method0("disable")?;
        }
        let made: PyResult<Vec<Py<PyAny>>> = boards
            .into_iter()
            .zip(errors)
            .zip(collected)
            .enumerate()
            .map(|(i, ((board, error), item))| self.result(py, i, board, error, item, keep_going))
            .collect();
        if collecting {
            gc.call_method0("enable")?;
        }
        made
    }

    /// The length of each board's answer as little-endian `i32`s (for a NumPy array): -1 for
    /// a board that cannot reach the goal, -2 for one that could not be read, -3 where the
    /// search hit a limit. On the library's batch, without building moves where a table
    /// answers.
    fn lengths_bytes<'py>(
        &self,
        py: Python<'py>,
        boards: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let Batch {
            lines,
            boards,
            errors: failed,
        } = batch_of(py, boards)?;
        let count = boards.len();
        let lengths = self
            .batching(py, 0, |solvers| {
                solvers.lengths_lines(lines, count, Some(self.shape))
            })?
            .map_err(value_error)?;
        let mut out = Vec::with_capacity(lengths.len() * 4);
        for (n, error) in lengths.into_iter().zip(failed) {
            let n = if error.is_some() {
                length::UNREADABLE
            } else {
                n
            };
            out.extend_from_slice(&n.to_le_bytes());
        }
        Ok(PyBytes::new(py, &out))
    }

    /// The verdict on an answer (judge letters, or `"unsolvable"`) for `board`, compared
    /// with the optimum where this solver's method is optimal (searching, without the GIL,
    /// within the solver's limits).
    fn check(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        moves: &str,
    ) -> PyResult<CheckResult> {
        let b = self.board(board)?;
        let verdict = self.searching(
            py,
            |limits| self.inner.judge_within(&b, moves, limits),
            None,
        )?;
        Ok(CheckResult { verdict })
    }

    /// The first level of a split search: `("solved", Solution)` when the board is solved
    /// within `depth` moves, else `("roots", paths, first_bound)` with the subtree roots as
    /// opaque strings, for `search_subtrees` of a solver with the same goal and options.
    fn frontier(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        depth: i128,
    ) -> PyResult<Py<PyAny>> {
        let b = self.board(board)?;
        let depth: usize = whole("depth", depth, 0)?;
        if depth > 64 {
            return Err(value_error("depth must be at most 64"));
        }
        let split = py.detach(|| self.inner.frontier(&b, depth));
        match split {
            Err(SolveError::Search(SearchError::Unsolvable)) => Ok(py.None()),
            Err(e) => Err(solve_error(e)),
            Ok(Split::Solved(s)) => {
                let sol = solved_split(s, 0, 0, 0.0);
                Ok(("solved", Py::new(py, sol)?)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind())
            }
            Ok(Split::Roots { paths, first_bound }) => {
                let paths: Vec<String> = paths.iter().map(|p| letters(p)).collect();
                Ok(("roots", paths, first_bound)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind())
            }
        }
    }

    /// The first level of a search split for `tasks` workers (the library's
    /// `Solver::split`): `("solved", Solution)`, `None` when the board cannot reach the goal,
    /// or `("roots", chunks, first_bound, depth)` with the subtree roots dealt into at most
    /// `tasks` chunks (lists of opaque strings for `search_subtrees`). `depth` defaults to the
    /// least with at least 16 roots per task.
    #[pyo3(signature = (board, tasks, depth=None))]
    fn split(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        tasks: i128,
        depth: Option<i128>,
    ) -> PyResult<Py<PyAny>> {
        let b = self.board(board)?;
        let tasks: usize = whole("tasks", tasks, 1)?;
        let depth: Option<usize> = depth.map(|d| whole("depth", d, 0)).transpose()?;
        if depth.is_some_and(|d| d > 64) {
            return Err(value_error("depth must be at most 64"));
        }
        if tasks == 0 {
            return Err(value_error("tasks must be at least 1"));
        }
        let split = py.detach(|| self.inner.split(&b, tasks, depth));
        match split {
            Err(SolveError::Search(SearchError::Unsolvable)) => Ok(py.None()),
            Err(e) => Err(solve_error(e)),
            Ok((Split::Solved(s), _)) => {
                let sol = solved_split(s, 0, 0, 0.0);
                Ok(("solved", Py::new(py, sol)?)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind())
            }
            Ok((split @ Split::Roots { first_bound, .. }, depth)) => {
                let chunks: Vec<Vec<String>> = split
                    .chunks(tasks)
                    .iter()
                    .map(|c| c.iter().map(|p| letters(p)).collect())
                    .collect();
                Ok(("roots", chunks, first_bound, depth)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind())
            }
        }
    }

    /// Searches the subtrees at `roots` (from `frontier`) to `bound`, on one core, under
    /// `timeout`/`max_nodes` (default: the solver's). Returns `(moves or None, next_bound or
    /// None, expanded, generated, nearest)`, `nearest` holding per root the least estimate
    /// reached below it (`None`: not searched, being beyond the bound or after the solution),
    /// which `SplitIterations` orders by. `stop_when`, a callable asked every tenth of a second,
    /// stops the search once it returns something true: then `None` is returned, or the result
    /// when the search had finished meanwhile (how a Ray task learns that another has found the
    /// solution, and its worker goes on with its databases loaded); its exception is raised.
    #[pyo3(signature = (board, roots, bound, timeout=None, max_nodes=None, stop_when=None))]
    #[allow(clippy::too_many_arguments)]
    fn search_subtrees(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        roots: Vec<String>,
        bound: i128,
        timeout: Option<f64>,
        max_nodes: Option<i128>,
        stop_when: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<SubtreeTuple>> {
        if let Some(f) = stop_when.filter(|f| !f.is_callable()) {
            return Err(PyTypeError::new_err(format!(
                "stop_when must be callable, not {}",
                f.get_type().name()?
            )));
        }
        let b = self.board(board)?;
        let bound: u32 = whole("bound", bound, 0)?;
        let mut paths = Vec::with_capacity(roots.len());
        for r in &roots {
            let s = Solution::from_letters(r).map_err(value_error)?;
            paths.push(s.into_moves());
        }
        let limits = if timeout.is_some() || max_nodes.is_some() {
            limits_of(timeout, max_nodes)?
        } else {
            self.limits.clone()
        };
        let (stop, limits) = stoppable(&limits);
        let r = interruptible_until(py, &stop, stop_when, || {
            self.inner.search_subtrees(&b, &paths, bound, &limits)
        })?;
        if let Err(SolveError::Search(SearchError::Limit(l))) = &r
            && l.kind == LimitKind::Cancelled
            && stop_when.is_some()
        {
            return Ok(None);
        }
        let r = r.map_err(solve_error)?;
        Ok(Some((
            r.solution.map(|s| letters(s.moves())),
            r.next_bound,
            r.stats.expanded,
            r.stats.generated,
            r.nearest,
        )))
    }

    /// The `Solution` of a split search whose `iterations` found one (checked to reach the
    /// goal), with the totals of all its tasks and the scheduler's `elapsed` seconds.
    #[pyo3(signature = (board, iterations, elapsed=0.0))]
    fn split_solution(
        &self,
        board: &Bound<'_, PyAny>,
        iterations: &Iterations,
        elapsed: f64,
    ) -> PyResult<Solution_> {
        let b = self.board(board)?;
        let it = iterations.lock()?;
        let s = it
            .found()
            .ok_or_else(|| value_error("the split search has found no solution"))?;
        s.verify(&b, self.inner.goal()).map_err(value_error)?;
        let st = it.stats();
        Ok(solved_split(s.clone(), st.expanded, st.generated, elapsed))
    }
}

/// What `search_subtrees` returns: moves or None, next bound or None, expanded, generated,
/// and each root's nearest approach.
type SubtreeTuple = (Option<String>, Option<u32>, u64, u64, Vec<Option<u32>>);

/// The iterations of a split search (the library's `SplitIterations`): `record` every task's
/// `search_subtrees` result under `bound`; `advance` ends the iteration with the next bound,
/// or `None` once a solution is found (`found`) or the subtrees are exhausted. Given the
/// `chunks` of `split`, they deal them: each iteration's `chunks` (the roots given, re-cut
/// evenly) come nearest the goal first (as the iteration before found), which keeps the last
/// iteration short; search those and record each result (all five values) with the index of
/// its chunk.
#[pyclass(name = "SplitIterations", module = "npuzzle")]
struct Iterations {
    inner: std::sync::Mutex<SplitIterations>,
}

#[pymethods]
impl Iterations {
    #[new]
    #[pyo3(signature = (first_bound, chunks=None))]
    fn new(first_bound: i128, chunks: Option<Vec<Vec<String>>>) -> PyResult<Iterations> {
        let first_bound: u32 = whole("first_bound", first_bound, 0)?;
        let inner = match chunks {
            None => SplitIterations::new(first_bound),
            Some(chunks) => {
                let tasks = chunks.len();
                let mut paths = Vec::new();
                for root in chunks.iter().flatten() {
                    paths.push(
                        Solution::from_letters(root)
                            .map_err(value_error)?
                            .into_moves(),
                    );
                }
                if paths.is_empty() {
                    return Err(value_error("chunks must hold at least one root"));
                }
                SplitIterations::dealing(Split::Roots { paths, first_bound }, tasks)
                    .ok_or_else(|| value_error("chunks must hold at least one root"))?
            }
        };
        Ok(Iterations {
            inner: std::sync::Mutex::new(inner),
        })
    }

    /// The bound of the current iteration.
    #[getter]
    fn bound(&self) -> PyResult<u32> {
        Ok(self.lock()?.bound())
    }

    /// This iteration's chunks, in the order to hand them out (empty unless the iterations
    /// were given the chunks to deal).
    #[getter]
    fn chunks(&self) -> PyResult<Vec<Vec<String>>> {
        Ok(self
            .lock()?
            .chunks()
            .iter()
            .map(|c| c.iter().map(|p| letters(p)).collect())
            .collect())
    }

    /// Counts one task's `search_subtrees` result (its five values, or the first four);
    /// `chunk` is the index in `chunks` the task searched, when the iterations deal them.
    /// `True` once a solution is known (stop the other tasks).
    #[pyo3(signature = (result, chunk=None))]
    fn record(&self, result: &Bound<'_, PyAny>, chunk: Option<i128>) -> PyResult<bool> {
        let chunk: Option<usize> = chunk.map(|c| whole("chunk", c, 0)).transpose()?;
        let (moves, next_bound, expanded, generated, nearest): SubtreeTuple = match result
            .extract::<SubtreeTuple>(
        ) {
            Ok(r) => r,
            Err(_) => {
                let (m, n, e, g): (Option<String>, Option<u32>, u64, u64) =
                        result.extract().map_err(|_| {
                            value_error(
                                "a result is the tuple search_subtrees returns: (moves, next_bound, expanded, generated, nearest)",
                            )
                        })?;
                (m, n, e, g, Vec::new())
            }
        };
        let solution = match moves {
            Some(m) => Some(Solution::from_letters(&m).map_err(value_error)?),
            None => None,
        };
        let stats = npuzzle::search::Stats {
            expanded,
            generated,
            ..Default::default()
        };
        let r = SubtreeResult {
            solution,
            next_bound,
            stats,
            nearest,
        };
        let mut it = self.lock()?;
        let sizes: Vec<usize> = it.chunks().iter().map(|c| c.len()).collect();
        let dealt = sizes.len();
        Ok(match chunk {
            Some(i) if i >= dealt => {
                return Err(value_error(format!(
                    "chunk {i}: this iteration deals {dealt} chunks"
                )));
            }
            Some(i) if r.nearest.len() != sizes[i] => {
                return Err(value_error(format!(
                    "chunk {i} holds {} roots, the result reports {}: record each result with the index of the chunk (of .chunks) it searched",
                    sizes[i],
                    r.nearest.len()
                )));
            }
            Some(i) => it.record_chunk(i, r),
            None if dealt > 0 => {
                return Err(value_error(
                    "these iterations deal the chunks: record each result with the index of the chunk (of .chunks) it searched",
                ));
            }
            None => it.record(r),
        })
    }

    /// Ends the iteration: the next bound, or `None` when a solution was found or the
    /// subtrees are exhausted.
    fn advance(&self) -> PyResult<Option<u32>> {
        Ok(self.lock()?.advance())
    }

    /// The solution's moves once found (optimal), else `None`.
    #[getter]
    fn found(&self) -> PyResult<Option<String>> {
        Ok(self.lock()?.found().map(|s| s.to_letters()))
    }

    /// States expanded by every task recorded.
    #[getter]
    fn expanded(&self) -> PyResult<u64> {
        Ok(self.lock()?.stats().expanded)
    }
}

impl Iterations {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, SplitIterations>> {
        self.inner
            .lock()
            .map_err(|_| PyRuntimeError::new_err("a split search's iterations were poisoned"))
    }
}

/// Says what building databases does through the `npuzzle` logger (shown on stderr by
/// default: see `__init__.py`), in the library's words; build progress at most every five
/// seconds.
fn build_announcer(dir: std::path::PathBuf) -> npuzzle::solver::builder::PdbEvents {
    let last = std::sync::Mutex::new(std::time::Instant::now());
    Arc::new(move |e: &PdbEvent| {
        let line = match e {
            PdbEvent::Layer {
                layer,
                filled,
                total,
            } => {
                let Ok(mut last) = last.lock() else { return };
                if last.elapsed().as_secs() < 5 {
                    return;
                }
                *last = std::time::Instant::now();
                format!(
                    "building: layer {layer}, {:.0}% of the entries known",
                    100.0 * *filled as f64 / (*total).max(1) as f64
                )
            }
            other => match other.message(Some(&dir)) {
                Some(m) => m,
                None => return,
            },
        };
        Python::attach(|py| {
            let logged = py
                .import("logging")
                .and_then(|l| l.call_method1("getLogger", ("npuzzle",)))
                .and_then(|log| log.call_method1("info", (line,)));
            // Builds run on a thread of their own (see `interruptible`), where Python raises no
            // KeyboardInterrupt: a Ctrl-C reaches the waiting call, which gives the build up.
            if let Err(e) = logged {
                e.write_unraisable(py, None);
            }
        });
    })
}

fn letters(moves: &[Move]) -> String {
    moves.iter().map(|m| m.letter()).collect()
}

/// The answer of a split search: optimal, by the IDA* engine.
fn solved_split(s: Solution, expanded: u64, generated: u64, elapsed: f64) -> Solution_ {
    Solution_ {
        moves: s.to_letters(),
        length: s.len(),
        optimal: true,
        algorithm: Algorithm::IdaStar.name(),
        heuristic: None,
        databases: None,
        fallback_after: None,
        stats: Stats {
            expanded,
            generated,
            peak_stored: 0,
            elapsed,
        },
        board: None,
    }
}

/// Whether `board` can reach `goal` (default: tiles in order, blank last).
#[pyfunction]
#[pyo3(signature = (board, size=None, goal=None))]
fn is_solvable(
    board: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<bool> {
    let shape = size.map(shape_of).transpose()?;
    let b = board_of(board, shape)?;
    let g = match goal {
        Some(g) => board_of(g, Some(b.shape()))?,
        None => Board::goal(b.shape()),
    };
    npuzzle::parity::is_solvable(&b, &g).map_err(value_error)
}

/// The verdict on an answer (the library's, as `npuzzle check` and `POST /api/check` give it).
#[pyclass(frozen, eq, name = "CheckResult", module = "npuzzle")]
#[derive(Clone, PartialEq)]
struct CheckResult {
    verdict: Verdict,
}

#[pymethods]
impl CheckResult {
    /// Whether the answer is accepted (legal moves that reach the goal, or a right
    /// `unsolvable`).
    #[getter]
    fn valid(&self) -> bool {
        self.verdict.valid
    }

    /// What was found: `optimal`, `suboptimal`, `not_compared`, `unsolvable`,
    /// `wrongly_unsolvable`, `not_moves`, `illegal_move` or `misses_goal`.
    #[getter]
    fn finding(&self) -> &'static str {
        self.verdict.finding.name()
    }

    /// The answer's number of moves, when it is a move string.
    #[getter]
    fn length(&self) -> Option<usize> {
        self.verdict.length
    }

    /// The fewest moves, when known.
    #[getter]
    fn optimal_length(&self) -> Option<usize> {
        self.verdict.optimal_length
    }

    /// Whether the answer is as short as can be; `None` when not compared.
    #[getter]
    fn optimal(&self) -> Option<bool> {
        self.verdict.optimal
    }

    /// The verdict for people.
    #[getter]
    fn message(&self) -> &str {
        &self.verdict.message
    }

    /// The verdict as a dict, with the same fields and values as `POST /api/check` and a line
    /// of `npuzzle check --format jsonl`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let text = serde_json::to_string(&self.verdict).map_err(value_error)?;
        py.import("json")?.call_method1("loads", (text,))
    }

    /// `(valid, length, message)`, so that `valid, length, message = check(…)` unpacks.
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = &self.verdict;
        (v.valid, v.length, v.message.clone())
            .into_pyobject(py)?
            .try_iter()
            .map(|i| i.into_any())
    }

    fn __bool__(&self) -> bool {
        self.verdict.valid
    }

    fn __repr__(&self) -> String {
        let v = &self.verdict;
        // As Python writes the values (None, True, False).
        let py_bool = |b: bool| if b { "True" } else { "False" };
        let length = v.length.map_or("None".to_string(), |l| l.to_string());
        format!(
            "CheckResult(valid={}, finding={:?}, length={length}, optimal={}, message={:?})",
            py_bool(v.valid),
            v.finding.name(),
            v.optimal.map_or("None", py_bool),
            v.message
        )
    }
}

/// The verdict on an answer (judge letters, or `"unsolvable"`) for `board` toward `goal`,
/// compared with `optimum` (the fewest moves) when it is given.
#[pyfunction]
#[pyo3(signature = (board, moves, size=None, goal=None, optimum=None))]
fn check(
    board: &Bound<'_, PyAny>,
    moves: &str,
    size: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
    optimum: Option<i128>,
) -> PyResult<CheckResult> {
    let optimum: Option<usize> = optimum.map(|o| whole("optimum", o, 0)).transpose()?;
    let shape = size.map(shape_of).transpose()?;
    let b = board_of(board, shape)?;
    let g = match goal {
        Some(g) => board_of(g, Some(b.shape()))?,
        None => Board::goal(b.shape()),
    };
    Ok(CheckResult {
        verdict: Verdict::judge(&b, &g, moves, || {
            optimum.ok_or_else(|| "no optimum was given".to_string())
        }),
    })
}

/// `count` uniformly random boards that can reach `goal`, as lists of ints (0 = blank).
#[pyfunction]
#[pyo3(signature = (size, count=1, seed=None, goal=None))]
fn scramble(
    py: Python<'_>,
    size: &Bound<'_, PyAny>,
    count: i128,
    seed: Option<i128>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Vec<u32>>> {
    let count: usize = whole("count", count, 0)?;
    let seed: Option<u64> = seed.map(|s| whole("seed", s, 0)).transpose()?;
    let shape = shape_of(size)?;
    if count.saturating_mul(shape.cells()) > 1 << 31 {
        return Err(value_error(
            "too many boards at once (at most 2**31 cells in all)",
        ));
    }
    let g = match goal {
        Some(g) => board_of(g, Some(shape))?,
        None => Board::goal(shape),
    };
    Ok(py.detach(|| {
        let mut rng = match seed {
            Some(s) => rand::rngs::SmallRng::seed_from_u64(s),
            None => rand::rngs::SmallRng::from_rng(&mut rand::rng()),
        };
        (0..count)
            .map(|_| {
                npuzzle::random::random_solvable(&g, &mut rng)
                    .cells()
                    .iter()
                    .map(|&t| t as u32)
                    .collect()
            })
            .collect()
    }))
}

/// `seconds` as the library reads a time limit (any positive number, infinity included, up to
/// about 31 years); `ValueError` with the library's words otherwise. For the Python side's
/// own clocks (the cluster's `solve_one`), so that they take what `timeout=` takes here.
#[pyfunction]
fn time_limit(seconds: f64) -> PyResult<f64> {
    seconds_of(seconds).map(|d| d.as_secs_f64())
}

/// A `timeout=` argument as a time limit, through the library's rule and words.
fn seconds_of(seconds: f64) -> PyResult<std::time::Duration> {
    npuzzle::search::seconds(seconds).map_err(|e| value_error(format!("timeout: {e}")))
}

/// The complete distance table of a small board (at most 10 cells) toward `goal`, one byte
/// per permutation rank (255 where the goal cannot be reached).
#[pyfunction]
#[pyo3(signature = (size, goal=None))]
fn distance_table_bytes<'py>(
    py: Python<'py>,
    size: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let shape = shape_of(size)?;
    let g = match goal {
        Some(g) => board_of(g, Some(shape))?,
        None => Board::goal(shape),
    };
    use npuzzle::table::{Table, TableError};
    if !Table::is_quick(shape) {
        return Err(value_error(if Table::supports(shape) {
            TableError::NotRanked { shape }
        } else {
            TableError::TooLarge { shape }
        }));
    }
    let distances = py
        .detach(|| Table::build(&g).and_then(|t| t.distances()))
        .map_err(value_error)?;
    Ok(PyBytes::new(py, &distances))
}

/// A breadth-first search of every state of `size` that can reach `goal` (at most 16 cells,
/// two bits a state): the library's `space::explore` report as a dict. Refused up front, with
/// the memory it would need, when that exceeds `max_memory_mb`.
#[pyfunction]
#[pyo3(signature = (size, goal=None, max_memory_mb=None, antipodes=20))]
fn explore<'py>(
    py: Python<'py>,
    size: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    max_memory_mb: Option<i128>,
    antipodes: i128,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let antipodes: usize = whole("antipodes", antipodes, 0)?;
    let max_memory: Option<u64> = max_memory_mb
        .map(|m| whole::<u64>("max_memory_mb", m, 1))
        .transpose()?
        .map(|mib| mib.saturating_mul(1 << 20));
    let shape = shape_of(size)?;
    let g = match goal {
        Some(g) => board_of(g, Some(shape))?,
        None => Board::goal(shape),
    };
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let options = npuzzle::space::ExploreOptions {
        max_memory,
        sample: Some(antipodes),
        stop: Some(stop.clone()),
        ..Default::default()
    };
    let report =
        interruptible(py, &stop, || npuzzle::space::explore(&g, &options))?.map_err(value_error)?;
    let d = pyo3::types::PyDict::new(py);
    d.set_item("size", &report.size)?;
    d.set_item("goal", &report.goal)?;
    d.set_item("states", report.states)?;
    d.set_item("histogram", &report.histogram)?;
    d.set_item("diameter", report.diameter)?;
    d.set_item("antipodes", report.antipodes)?;
    d.set_item("antipode_sample", &report.antipode_sample)?;
    d.set_item("mean_distance", report.mean_distance)?;
    d.set_item("seconds", report.seconds)?;
    d.set_item("memory_bytes", report.memory_bytes)?;
    d.set_item("threads", report.threads)?;
    Ok(d)
}

/// The side of the square board a board given without a size makes: the library's rule and
/// its message (a count one off a square says so), so that Python decides nothing itself. A
/// count that makes a square is taken without checking its tiles (solving does); otherwise a
/// token that is no tile is named first. A square too large for the library says so.
#[pyfunction]
fn square_side(board: &Bound<'_, PyAny>) -> PyResult<usize> {
    let text = board_text(board)?;
    let found = npuzzle::parse::tokens(text.as_bytes()).count();
    if let Some(shape) = Shape::square_with_cells(found) {
        return Ok(shape.width());
    }
    let side = found.isqrt();
    if side >= 2 && side * side == found {
        // A perfect square past the largest board: the shape's own error.
        return Shape::new(side, side)
            .map(Shape::width)
            .map_err(value_error);
    }
    // A token that is no tile is named first, as the CLI and the web API name it.
    match Board::parse_with_shape(&text, None) {
        Err(e) => Err(value_error(e.kind)),
        Ok(_) => Err(value_error(npuzzle::BoardError::NotSquare { found })),
    }
}

/// The Cantor rank of a board's cells (the blank counts as tile 0): its index in
/// `distance_table`.
#[pyfunction]
#[pyo3(signature = (board, size=None))]
fn rank(board: &Bound<'_, PyAny>, size: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    let shape = size.map(shape_of).transpose()?;
    let b = board_of(board, shape)?;
    if b.shape().cells() > 20 {
        return Err(value_error(
            "ranks are given for boards of at most 20 cells",
        ));
    }
    let cells: Vec<u8> = b.cells().iter().map(|&t| t as u8).collect();
    Ok(npuzzle::rank::rank(&cells))
}

/// The solvers `npuzzle.solver` keeps (the library's solver cache), by the text of their
/// options.
static SOLVERS: std::sync::Mutex<Option<SolverCache<String, Arc<Py<Solver>>>>> =
    std::sync::Mutex::new(None);

/// Solvers `npuzzle.solver` keeps besides none pinned.
const CACHED_SOLVERS: usize = 8;

/// The kept solver for these options (`key`: their text), if any.
#[pyfunction]
fn cached_solver(py: Python<'_>, key: String) -> Option<Py<Solver>> {
    let mut cache = SOLVERS.lock().ok()?;
    cache
        .get_or_insert_with(|| SolverCache::new(CACHED_SOLVERS))
        .get(&key)
        .map(|s| s.clone_ref(py))
}

/// Makes a `Solver` of `options` (its keyword arguments) and keeps it for these options (`key`:
/// their text), dropping the least recently used beyond a few. One native call, so nothing
/// comes between making the solver and keeping it; a Ctrl-C while it is made (a build given
/// up after its current layer, a load finished) raises instead, and nothing is kept.
#[pyfunction]
fn make_solver(
    py: Python<'_>,
    key: String,
    options: &Bound<'_, pyo3::types::PyDict>,
) -> PyResult<Py<Solver>> {
    let made: Py<Solver> = py.get_type::<Solver>().call((), Some(options))?.extract()?;
    if let Ok(mut cache) = SOLVERS.lock() {
        cache
            .get_or_insert_with(|| SolverCache::new(CACHED_SOLVERS))
            .insert(key, Arc::new(made.clone_ref(py)), false);
    }
    Ok(made)
}

/// The native module.
#[pymodule]
fn _npuzzle(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Solver>()?;
    m.add_class::<Solution_>()?;
    m.add_class::<Stats>()?;
    m.add_class::<Failure>()?;
    m.add_class::<CheckResult>()?;
    m.add_class::<Iterations>()?;
    m.add("SearchLimitError", m.py().get_type::<SearchLimitError>())?;
    m.add_function(wrap_pyfunction!(is_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(scramble, m)?)?;
    m.add_function(wrap_pyfunction!(distance_table_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(time_limit, m)?)?;
    m.add_function(wrap_pyfunction!(rank, m)?)?;
    m.add_function(wrap_pyfunction!(square_side, m)?)?;
    m.add_function(wrap_pyfunction!(explore, m)?)?;
    m.add_function(wrap_pyfunction!(cached_solver, m)?)?;
    m.add_function(wrap_pyfunction!(make_solver, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("_NOT_ONE_BOARD", NOT_ONE_BOARD)?;
    Ok(())
}
