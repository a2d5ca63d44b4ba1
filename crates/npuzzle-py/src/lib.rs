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
use npuzzle::search::Limits;
use npuzzle::{
    Algorithm, Board, Building, Move, Outcome, PdbSource, Shape, Solution, SolveError,
    SolverBuilder, Split,
};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use rand::SeedableRng;

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
        SolveError::Search(npuzzle::search::SearchError::Limit(l)) => {
            SearchLimitError::new_err(l.to_string())
        }
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
    let tiles: Vec<i64> = board.extract().map_err(|_| {
        value_error("a board is a string of tiles (\"1 2 3 x\") or a sequence of ints (0 = blank)")
    })?;
    if let Some(&t) = tiles.iter().find(|&&t| t < 0) {
        return Err(value_error(format!("tile {t} is negative")));
    }
    Ok(tiles
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(" "))
}

fn algorithm_of(name: &str) -> PyResult<Algorithm> {
    name.parse().map_err(value_error)
}

fn heuristic_of(name: Option<&str>) -> PyResult<Option<HeuristicKind>> {
    name.map(str::parse).transpose().map_err(value_error)
}

fn building_of(name: &str) -> PyResult<Building> {
    name.parse().map_err(value_error)
}

fn limits_of(timeout: Option<f64>, max_nodes: Option<u64>) -> PyResult<Limits> {
    let max_time = timeout
        .map(npuzzle::search::seconds)
        .transpose()
        .map_err(value_error)?;
    Ok(Limits {
        max_time,
        max_nodes,
        // Stored states (BFS, A* …) within about 4 GiB per call, a batch included.
        max_stored: Some(Limits::stored_states_within(4 << 30)),
        ..Limits::default()
    })
}

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
#[derive(Clone, PartialEq)]
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
    /// What it cost.
    #[pyo3(get)]
    stats: Stats,
}

#[pymethods]
impl Solution_ {
    #[new]
    fn new(
        moves: String,
        optimal: bool,
        algorithm: &str,
        stats: &Bound<'_, Stats>,
    ) -> PyResult<Solution_> {
        Solution::from_letters(&moves).map_err(value_error)?;
        Ok(Solution_ {
            length: moves.len(),
            moves,
            optimal,
            algorithm: algorithm_of(algorithm)?.name(),
            stats: stats.get().clone(),
        })
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

fn solution_of(outcome: Outcome) -> Option<Solution_> {
    match outcome {
        Outcome::Unsolvable => None,
        Outcome::Solved(a) => Some(Solution_ {
            moves: a.solution.to_letters(),
            length: a.solution.len(),
            optimal: a.optimal,
            algorithm: a.algorithm.name(),
            stats: stats_of(&a.stats),
        }),
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
    inner: npuzzle::Solver,
    shape: Shape,
    limits: Limits,
}

impl Solver {
    fn board(&self, board: &Bound<'_, PyAny>) -> PyResult<Board> {
        board_of(board, Some(self.shape))
    }

    /// Every board of an iterable, each read or the reason it could not be. Under the GIL
    /// only the text is taken out; boards are read on all cores.
    fn parse_all(
        &self,
        py: Python<'_>,
        boards: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<Result<Board, String>>> {
        let mut texts: Vec<Result<String, String>> = Vec::new();
        for item in boards.try_iter()? {
            texts.push(board_text(&item?).map_err(|e| e.value(py).to_string()));
        }
        let shape = self.shape;
        Ok(py.detach(|| {
            use rayon::prelude::*;
            texts
                .into_par_iter()
                .map(|t| {
                    t.and_then(|t| {
                        Board::parse_with_shape(&t, Some(shape)).map_err(|e| e.kind.to_string())
                    })
                })
                .collect()
        }))
    }

    /// The Python results of a batch: a `Solution`, `None` or a `Failure` per board (or the
    /// first error, unless `keep_going`).
    fn results(
        &self,
        py: Python<'_>,
        parsed: Vec<Result<Board, String>>,
        solved: Vec<Result<Outcome, SolveError>>,
        keep_going: bool,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let mut solved = solved.into_iter();
        let mut out = Vec::with_capacity(parsed.len());
        for (i, p) in parsed.into_iter().enumerate() {
            let failure = |kind: &str, message: String| Failure {
                index: i,
                kind: kind.into(),
                message,
            };
            let item: Py<PyAny> = match p {
                Err(message) => Py::new(py, failure("bad_board", message))?.into_any(),
                Ok(_) => match solved.next().expect("one result per good board") {
                    Ok(outcome) => match solution_of(outcome) {
                        Some(s) => Py::new(py, s)?.into_any(),
                        None => py.None(),
                    },
                    Err(e) if keep_going => {
                        let kind = if e.limit_stats().is_some() {
                            "limit"
                        } else {
                            "bad_board"
                        };
                        Py::new(py, failure(kind, e.to_string()))?.into_any()
                    }
                    Err(e) => {
                        let err = solve_error(e);
                        let text = format!("board {i}: {}", err.value(py));
                        return Err(if err.is_instance_of::<SearchLimitError>(py) {
                            SearchLimitError::new_err(text)
                        } else {
                            value_error(text)
                        });
                    }
                },
            };
            out.push(item);
        }
        Ok(out)
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
        max_nodes: Option<u64>,
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
        let source = PdbSource {
            cache: Some(
                pdb_dir
                    .map(PdbCache::new)
                    .unwrap_or_else(PdbCache::standard),
            ),
            partition,
            build: building_of(build)?,
            events: None,
        };
        let builder = SolverBuilder::new(goal)
            .algorithm(algorithm_of(algorithm)?)
            .heuristic(heuristic_of(heuristic)?)
            .limits(limits.clone())
            .pdb_source(source)
            .single_thread(single_thread)
            .effort(effort);
        // Building tables or databases can take seconds: without the GIL.
        let inner = py.detach(|| builder.build()).map_err(solve_error)?;
        Ok(Solver {
            inner,
            shape,
            limits,
        })
    }

    fn __repr__(&self) -> String {
        format!(
            "Solver(size=\"{}\", goal={:?}, algorithm={:?}, databases={:?})",
            self.shape,
            self.inner.goal().to_judge_line(),
            self.inner.effective_algorithm().name(),
            self.inner.pdbs().map(|p| p.partition().name.clone())
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
        let outcome = py
            .detach(|| self.inner.solve_within(&b, &self.limits))
            .map_err(solve_error)?;
        Ok(solution_of(outcome))
    }

    /// Solves boards in parallel on all cores (one after another with `parallel=False`);
    /// results in input order. With
    /// `errors="raise"` the first bad board or hit limit raises (naming its index); with
    /// `errors="return"` it becomes a `Failure` in its place.
    #[pyo3(signature = (boards, errors="raise", parallel=true))]
    fn solve_many(
        &self,
        py: Python<'_>,
        boards: &Bound<'_, PyAny>,
        errors: &str,
        parallel: bool,
    ) -> PyResult<Vec<Py<PyAny>>> {
        let keep_going = match errors {
            "raise" => false,
            "return" => true,
            other => {
                return Err(value_error(format!(
                    "errors must be \"raise\" or \"return\", not {other:?}"
                )));
            }
        };
        let parsed = self.parse_all(py, boards)?;
        if !keep_going
            && let Some((i, Err(e))) = parsed.iter().enumerate().find(|(_, r)| r.is_err())
        {
            return Err(value_error(format!("board {i}: {e}")));
        }
        let good: Vec<Board> = parsed
            .iter()
            .filter_map(|r| r.as_ref().ok().cloned())
            .collect();
        let solved = py.detach(|| {
            if parallel {
                self.inner.solve_many(&good, &self.limits)
            } else {
                good.iter()
                    .map(|b| self.inner.solve_within(b, &self.limits))
                    .collect()
            }
        });
        // A million result objects would set off Python's cycle collector again and again
        // (they hold no cycles): paused while they are made.
        let gc = py.import("gc")?;
        let collecting = gc.call_method0("isenabled")?.is_truthy()?;
        if collecting {
            gc.call_method0("disable")?;
        }
        let made = self.results(py, parsed, solved, keep_going);
        if collecting {
            gc.call_method0("enable")?;
        }
        made
    }

    /// The length of each board's answer as little-endian `i32`s (for a NumPy array): -1 for
    /// a board that cannot reach the goal, -2 for one that could not be read, -3 where the
    /// search hit a limit. On all cores, without building moves where a table answers.
    fn lengths_bytes<'py>(
        &self,
        py: Python<'py>,
        boards: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let parsed = self.parse_all(py, boards)?;
        let good: Vec<Board> = parsed
            .iter()
            .filter_map(|r| r.as_ref().ok().cloned())
            .collect();
        let lengths = py.detach(|| self.inner.lengths_many(&good, &self.limits));
        let mut lengths = lengths.into_iter();
        let mut out = Vec::with_capacity(parsed.len() * 4);
        for p in &parsed {
            let v: i32 = match p {
                Err(_) => -2,
                Ok(_) => match lengths.next().expect("one result per good board") {
                    Ok(Some(n)) => i32::try_from(n).unwrap_or(i32::MAX),
                    Ok(None) => -1,
                    Err(_) => -3,
                },
            };
            out.extend_from_slice(&v.to_le_bytes());
        }
        Ok(PyBytes::new(py, &out))
    }

    /// The first level of a split search: `("solved", Solution)` when the board is solved
    /// within `depth` moves, else `("roots", paths, first_bound)` with the subtree roots as
    /// opaque strings, for `search_subtrees` of a solver with the same goal and options.
    fn frontier(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        depth: usize,
    ) -> PyResult<Py<PyAny>> {
        let b = self.board(board)?;
        if depth > 64 {
            return Err(value_error("depth must be at most 64"));
        }
        let split = py.detach(|| self.inner.frontier(&b, depth));
        match split {
            Err(SolveError::Search(npuzzle::search::SearchError::Unsolvable)) => Ok(py.None()),
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

    /// Searches the subtrees at `roots` (from `frontier`) to `bound`, on one core, under
    /// `timeout`/`max_nodes` (default: the solver's). Returns `(moves or None, next_bound or
    /// None, expanded, generated)`.
    #[pyo3(signature = (board, roots, bound, timeout=None, max_nodes=None))]
    fn search_subtrees(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        roots: Vec<String>,
        bound: u32,
        timeout: Option<f64>,
        max_nodes: Option<u64>,
    ) -> PyResult<(Option<String>, Option<u32>, u64, u64)> {
        let b = self.board(board)?;
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
        let r = py
            .detach(|| self.inner.search_subtrees(&b, &paths, bound, &limits))
            .map_err(solve_error)?;
        Ok((
            r.solution.map(|m| letters(&m)),
            r.next_bound,
            r.expanded,
            r.generated,
        ))
    }

    /// A `Solution` for moves found by a split search (checked to reach the goal), with the
    /// totals of all its tasks.
    #[pyo3(signature = (board, moves, expanded=0, generated=0, elapsed=0.0))]
    fn split_solution(
        &self,
        board: &Bound<'_, PyAny>,
        moves: &str,
        expanded: u64,
        generated: u64,
        elapsed: f64,
    ) -> PyResult<Solution_> {
        let b = self.board(board)?;
        let s = Solution::from_letters(moves).map_err(value_error)?;
        s.verify(&b, self.inner.goal()).map_err(value_error)?;
        Ok(solved_split(s, expanded, generated, elapsed))
    }
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
        stats: Stats {
            expanded,
            generated,
            peak_stored: 0,
            elapsed,
        },
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

/// Checks an answer: `(valid, length, message)`; `moves` is judge letters or `"unsolvable"`.
#[pyfunction]
#[pyo3(signature = (board, moves, size=None, goal=None))]
fn check(
    board: &Bound<'_, PyAny>,
    moves: &str,
    size: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<(bool, Option<usize>, String)> {
    let shape = size.map(shape_of).transpose()?;
    let b = board_of(board, shape)?;
    let g = match goal {
        Some(g) => board_of(g, Some(b.shape()))?,
        None => Board::goal(b.shape()),
    };
    let solvable = npuzzle::parity::is_solvable(&b, &g).map_err(value_error)?;
    if moves.trim().eq_ignore_ascii_case("unsolvable") {
        return Ok(if solvable {
            (false, None, "the board can reach the goal".into())
        } else {
            (
                true,
                None,
                "correct: the board cannot reach the goal".into(),
            )
        });
    }
    let s = Solution::from_letters(moves).map_err(value_error)?;
    Ok(match s.verify(&b, &g) {
        Ok(()) => (true, Some(s.len()), "the moves reach the goal".into()),
        Err(e) => (false, Some(s.len()), e.to_string()),
    })
}

/// `count` uniformly random boards that can reach `goal`, as lists of ints (0 = blank).
#[pyfunction]
#[pyo3(signature = (size, count=1, seed=None, goal=None))]
fn scramble(
    py: Python<'_>,
    size: &Bound<'_, PyAny>,
    count: usize,
    seed: Option<u64>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<Vec<u32>>> {
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
    let table = py
        .detach(|| npuzzle::table::Table::build(&g))
        .map_err(value_error)?;
    Ok(PyBytes::new(py, &table.distances()))
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

/// The native module.
#[pymodule]
fn _npuzzle(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Solver>()?;
    m.add_class::<Solution_>()?;
    m.add_class::<Stats>()?;
    m.add_class::<Failure>()?;
    m.add("SearchLimitError", m.py().get_type::<SearchLimitError>())?;
    m.add_function(wrap_pyfunction!(is_solvable, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(scramble, m)?)?;
    m.add_function(wrap_pyfunction!(distance_table_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(rank, m)?)?;
    Ok(())
}
