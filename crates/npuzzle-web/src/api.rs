//! The JSON API: `POST /api/solve`, `POST /api/check`, `GET /api/scramble`, `GET /api/health`.
//!
//! Every error is a JSON object `{"error": code, "message": text}` with a 4xx/5xx status:
//! 400 for a malformed request or board (or a body cut off by its connection closing), 408 for
//! a connection's first request head or a body that did not arrive in time, 413 for a body
//! over the limit, 415 for a body not declared as JSON, 422 for a board that cannot reach the
//! goal, 503 when every search slot stayed busy. A search that runs out of the server's budget is answered by the near-optimal
//! solver, labelled not optimal, with a `note`.

use crate::AppState;
use axum::Json;
use axum::body::Body;
use axum::extract::{Query, State};
use axum::http::header::{CONTENT_LENGTH, CONTENT_TYPE};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::judge::Verdict;
use npuzzle::names::NameError;
use npuzzle::search::{LimitKind, Limits, SearchError, Stats};
use npuzzle::{
    Algorithm, Answer, Board, NotOptimal, Outcome, Record, Shape, SolveError, Solver, SolverBuilder,
};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// An API error: status, short code and a message for people.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl ApiError {
    pub(crate) fn new(
        status: StatusCode,
        code: &'static str,
        message: impl Into<String>,
    ) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
        }
    }

    fn bad(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.code, "message": self.message });
        let mut response = (self.status, Json(body)).into_response();
        if self.code == INCOMPLETE_BODY {
            response.extensions_mut().insert(BodyCutOff);
        }
        response
    }
}

/// The code of the error for a body whose connection was closed before all of it arrived.
/// Nobody reads that answer when the client has gone; one that only closed its sending side
/// (`nc -N` with a miscounted length) does, and learns why.
const INCOMPLETE_BODY: &str = "incomplete_body";

/// Marks the answer to a request whose body was cut off by its client closing the connection
/// (see [`INCOMPLETE_BODY`]), so that the request log says so rather than a bare 400.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BodyCutOff;

/// Whether reading a body failed because the connection was closed (or reset) before the whole
/// body arrived: hyper reports an end of input inside the body as `UnexpectedEof`.
fn cut_off_by_client(e: &(dyn std::error::Error + 'static)) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionReset, UnexpectedEof};
    let mut source = Some(e);
    while let Some(err) = source {
        if let Some(h) = err.downcast_ref::<hyper::Error>()
            && (h.is_incomplete_message() || h.is_closed())
        {
            return true;
        }
        if let Some(io) = err.downcast_ref::<std::io::Error>()
            && matches!(
                io.kind(),
                ConnectionReset | ConnectionAborted | UnexpectedEof
            )
        {
            return true;
        }
        source = err.source();
    }
    false
}

/// An error and its causes, outermost first, each said once ("error reading a body from
/// connection: invalid chunk size line").
fn with_causes(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(cause) = source {
        let said = cause.to_string();
        if !text.ends_with(&said) {
            text = format!("{text}: {said}");
        }
        source = cause.source();
    }
    text
}

/// Unknown paths.
pub async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such page or endpoint",
    )
}

/// A known path with the wrong method.
pub async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this endpoint does not take that method (the API's POST endpoints are /api/solve, \
         /api/check and /api/board; the rest are GET)",
    )
}

/// `GET /api/health`.
pub async fn health() -> Json<serde_json::Value> {
    Json(serde_json::json!({ "status": "ok", "version": env!("CARGO_PKG_VERSION") }))
}

/// Query of `GET /api/scramble`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScrambleQuery {
    width: Option<usize>,
    height: Option<usize>,
}

/// `GET /api/scramble?width=&height=`: a uniformly random solvable board.
pub async fn scramble(
    State(state): State<Arc<AppState>>,
    query: Result<Query<ScrambleQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Query(q) = query.map_err(|e| {
        let why = match &e {
            axum::extract::rejection::QueryRejection::FailedToDeserializeQueryString(inner) => {
                query_words(&readable(
                    &std::error::Error::source(inner).map_or(e.body_text(), |c| c.to_string()),
                ))
            }
            _ => e.body_text(),
        };
        ApiError::bad(
            "bad_query",
            format!(
                "the query takes width and height, whole numbers from 2 to {} ({why})",
                state.config.max_side
            ),
        )
    })?;
    let shape = shape_of(&state, q.width.unwrap_or(3), q.height.unwrap_or(3))?;
    let goal = Board::goal(shape);
    let board = npuzzle::random::random_solvable(&goal, &mut rand::rng());
    Ok(Json(serde_json::json!({
        "board": board.to_judge_line(),
        "width": shape.width(),
        "height": shape.height(),
    })))
}

fn shape_of(state: &AppState, width: usize, height: usize) -> Result<Shape, ApiError> {
    let max = state.config.max_side;
    if !(2..=max).contains(&width) || !(2..=max).contains(&height) {
        return Err(ApiError::bad(
            "bad_size",
            format!("boards of 2x2 up to {max}x{max} are served (not {width}x{height})"),
        ));
    }
    Shape::new(width, height).map_err(|e| ApiError::bad("bad_size", e.to_string()))
}

/// Body of `POST /api/solve`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    /// The board in judge form (`2 3 4 1 5 x 7 6 8`).
    board: String,
    /// Columns (default: from the tile count, which must then be a square).
    width: Option<usize>,
    /// Rows.
    height: Option<usize>,
    /// Goal board (default: tiles in order, blank last).
    goal: Option<String>,
    /// `auto` (default), `table`, `bfs`, `bidirectional`, `astar`, `idastar`, `greedy`, `large`,
    /// `near`.
    algorithm: Option<String>,
    /// `manhattan`, `linear-conflict` or `pdb`.
    heuristic: Option<String>,
}

/// Body of a successful `POST /api/solve`: the library's [`Record`] of the board (the same
/// fields and values as a line of `npuzzle solve --format jsonl` and Python's
/// `Solution.to_dict()`), with the search's figures and, when the answer is not what was asked
/// for, a note.
#[derive(Serialize)]
pub struct SolveResponse {
    #[serde(flatten)]
    record: Record,
    /// Search figures.
    stats: Stats,
    /// Why the answer is not what was asked for (the search ran out of the server's budget).
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

/// A POST body as `T`: declared as JSON (so that a form posted by any other web page cannot
/// start solves here), within the size limit (a larger declared length is refused before any
/// byte is read), arrived within the body timeout, and valid JSON of the right shape.
async fn read_json<T: for<'de> Deserialize<'de>>(
    state: &AppState,
    headers: &HeaderMap,
    body: Body,
) -> Result<T, ApiError> {
    let json = headers
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "bad_content_type",
            "send the request body as JSON, with `Content-Type: application/json`",
        ));
    }
    let max = state.config.max_body;
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("request bodies are limited to {max} bytes"),
        )
    };
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > max as u64) {
        return Err(too_large());
    }
    let wait = state.config.body_timeout;
    let read = tokio::time::timeout(wait, Limited::new(body, max).collect())
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                "body_timeout",
                format!(
                    "the request body did not arrive within {} s",
                    wait.as_secs_f64()
                ),
            )
        })?;
    let bytes = match read {
        Ok(collected) => collected.to_bytes(),
        Err(e) if e.is::<LengthLimitError>() => return Err(too_large()),
        Err(e) if cut_off_by_client(e.as_ref()) => {
            let arrived = declared.map_or(String::new(), |n| format!(" (of {n} bytes declared)"));
            return Err(ApiError::bad(
                INCOMPLETE_BODY,
                format!(
                    "the connection was closed before the whole request body arrived{arrived}: {}",
                    with_causes(e.as_ref())
                ),
            ));
        }
        Err(e) => {
            return Err(ApiError::bad(
                "bad_body",
                format!("cannot read the request body: {}", with_causes(e.as_ref())),
            ));
        }
    };
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad("bad_json", readable(&e.to_string())))
}

/// A query parameter's parse error in words: Rust's own messages for a number that does not
/// parse ("invalid digit found in string") said as what the client sent wrong.
fn query_words(message: &str) -> String {
    [
        (
            "invalid digit found in string",
            "a value is not a whole number",
        ),
        ("cannot parse integer from empty string", "a value is empty"),
        (
            "number too large to fit in target type",
            "a value is too large",
        ),
    ]
    .iter()
    .find(|(rust, _)| message.contains(rust))
    .map_or_else(
        || message.to_string(),
        |(rust, said)| message.replace(rust, said),
    )
}

/// A deserializer's message with the server's own type names said in JSON's words
/// (`expected usize` → `expected a whole number`, `expected struct SolveRequest with 6
/// elements` → `expected a JSON object`). Only the last `expected ` is serde's own (before
/// `at line L column C`); what the client sent, quoted earlier, stays as sent.
fn readable(message: &str) -> String {
    let Some(at) = message.rfind("expected ") else {
        return message.to_string();
    };
    let (head, after) = message.split_at(at + "expected ".len());
    let (said, skip) = if let Some(t) = after.strip_prefix("struct ") {
        // `struct Name`, perhaps `with N elements`.
        let name = t.find(|c: char| !c.is_alphanumeric()).unwrap_or(t.len());
        let elements = t[name..]
            .strip_prefix(" with ")
            .and_then(|w| {
                let digits = w.find(|c: char| !c.is_ascii_digit()).unwrap_or(w.len());
                w[digits..]
                    .starts_with(" elements")
                    .then_some(" with ".len() + digits + " elements".len())
            })
            .unwrap_or(0);
        ("a JSON object", "struct ".len() + name + elements)
    } else if let Some(t) = ["usize", "u64", "u32"]
        .iter()
        .find(|t| after.starts_with(**t))
    {
        ("a whole number", t.len())
    } else {
        ("", 0)
    };
    format!("{head}{said}{}", &after[skip..])
}

/// Reads a board of a request by the library's rules, of the given size (both sides, or
/// neither for a square); `what` names it in messages ("board", "goal"; `None`: the request's
/// only board, no name needed).
fn board_of(
    state: &AppState,
    text: &str,
    width: Option<usize>,
    height: Option<usize>,
    what: Option<&str>,
) -> Result<Board, ApiError> {
    let shape = match (width, height) {
        (Some(w), Some(h)) => Some(shape_of(state, w, h)?),
        (None, None) => None,
        _ => return Err(ApiError::bad("bad_size", "give both width and height")),
    };
    let board = Board::parse_with_shape(text, shape).map_err(|e| {
        let message = match what {
            None => e.kind.to_string(),
            Some(what) => format!("{what}: {}", e.kind),
        };
        ApiError::bad("bad_board", message)
    })?;
    let s = board.shape();
    if s.width() > state.config.max_side || s.height() > state.config.max_side {
        return Err(ApiError::bad("bad_size", "board too large"));
    }
    Ok(board)
}

/// The goal of a request: the given board (of the same size) or tiles in order, blank last.
fn goal_of(state: &AppState, goal: Option<&str>, board: &Board) -> Result<Board, ApiError> {
    let shape = board.shape();
    match goal {
        Some(g) => board_of(
            state,
            g,
            Some(shape.width()),
            Some(shape.height()),
            Some("goal"),
        ),
        None => Ok(Board::goal(shape)),
    }
}

/// Which solver serves a request.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SolverKey {
    goal: Board,
    algorithm: Algorithm,
    heuristic: Option<HeuristicKind>,
}

/// Solvers made on request that stay cached besides the ones made at start-up (a custom goal
/// on a board of 10 cells holds a table of 1.8 M entries).
pub const CACHED_SOLVERS: usize = 8;

/// Makes the solver for `key`; may build a table (up to about a second on 10 cells), so it
/// runs in a heavy-work slot except at start-up.
fn make_solver(state: &AppState, key: &SolverKey) -> Result<Solver, ApiError> {
    // Only the databases and tables loaded at start-up: nothing is built on a request.
    let builder = state
        .config
        .pdbs
        .iter()
        .fold(SolverBuilder::new(key.goal.clone()), |b, set| {
            b.pdb_set(set.clone())
        });
    state
        .config
        .tables
        .iter()
        .fold(builder, |b, table| b.table(table.clone()))
        .algorithm(key.algorithm)
        .heuristic(key.heuristic)
        // Every board gets an answer: past the budget, the near-optimal one, labelled.
        .fallback(true)
        .build()
        .map_err(|e| ApiError::bad("bad_request", e.to_string()))
}

/// Makes the standard solver for `goal` at start-up and keeps it for good.
pub(crate) fn warm(state: &AppState, goal: &Board) {
    let key = SolverKey {
        goal: goal.clone(),
        algorithm: Algorithm::Auto,
        heuristic: None,
    };
    if let Ok(solver) = make_solver(state, &key)
        && let Ok(mut cache) = state.solvers.lock()
    {
        cache.insert(key, Arc::new(solver), true);
    }
}

/// The solver for a goal and method: from the cache, or made in a heavy-work slot.
async fn solver_for(
    state: &Arc<AppState>,
    goal: &Board,
    algorithm: Algorithm,
    heuristic: Option<HeuristicKind>,
) -> Result<Arc<Solver>, ApiError> {
    let key = SolverKey {
        goal: goal.clone(),
        algorithm,
        heuristic,
    };
    if let Some(s) = state.solvers.lock().ok().and_then(|mut c| c.get(&key)) {
        return Ok(s);
    }
    // Cached inside the slot: a build whose client went away still serves the next request.
    let st = state.clone();
    run_heavy(state, move |_| {
        let solver = Arc::new(make_solver(&st, &key)?);
        if let Ok(mut cache) = st.solvers.lock() {
            cache.insert(key, solver.clone(), false);
        }
        Ok(solver)
    })
    .await?
}

/// The answer for a board that cannot reach its goal.
fn unsolvable() -> ApiError {
    ApiError::new(
        StatusCode::UNPROCESSABLE_ENTITY,
        "unsolvable",
        "this board cannot reach the goal (the tiles' parity differs)",
    )
}

fn outcome_response(board: &Board, outcome: Outcome) -> Result<SolveResponse, ApiError> {
    match outcome {
        Outcome::Unsolvable => Err(unsolvable()),
        Outcome::Solved(a) => Ok(SolveResponse {
            record: Record::solved(board, &a),
            note: note(board, &a),
            stats: a.stats,
        }),
    }
}

/// Why an answer is not the fewest moves, in words for the page (`None` when it is).
fn note(board: &Board, a: &Answer) -> Option<String> {
    let near = "here is a near-optimal answer instead (maybe not the fewest moves)";
    Some(match a.not_optimal(board.shape())? {
        NotOptimal::Fallback(LimitKind::Memory) => {
            format!("this board needs more memory than this server gives one search; {near}")
        }
        NotOptimal::Fallback(_) => {
            format!("this board needs a longer search than this server allows; {near}")
        }
        NotOptimal::NoDatabases => format!(
            "this server has no pattern databases loaded for {shape}, so the answer is \
             near-optimal (short, but not proven the fewest moves); with them cached \
             (`npuzzle pdb build --size {shape}`, once) and loaded when the server starts, \
             answers are optimal",
            shape = board.shape()
        ),
        NotOptimal::TooLarge => "boards this large are answered by the near-optimal solver: \
             short answers, but not proven the fewest moves"
            .to_string(),
        NotOptimal::Method => {
            format!("{} does not promise the fewest moves", a.algorithm.name())
        }
    })
}

fn solve_error(e: SolveError) -> ApiError {
    match e {
        SolveError::Search(SearchError::Limit(l)) => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "time_limit",
            format!(
                "this board needs a longer search than this server allows ({} states searched); \
                 try a closer board",
                l.stats.expanded
            ),
        ),
        other => ApiError::bad("bad_request", other.to_string()),
    }
}

/// Sets its flag when dropped: a request future dropped because its client went away cancels
/// the search it started.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs `work` on the blocking pool in one of the `heavy_solves` slots, with the limits of one
/// search (time budget, this slot's share of the search memory, cancellation). The slot is
/// held until `work` returns, even if the request is gone by then; dropping the request
/// cancels the search.
async fn run_heavy<R: Send + 'static>(
    state: &Arc<AppState>,
    work: impl FnOnce(Limits) -> R + Send + 'static,
) -> Result<R, ApiError> {
    let config = &state.config;
    let permit = tokio::time::timeout(config.queue_wait, state.heavy.clone().acquire_owned())
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                "every search slot is busy; try again shortly",
            )
        })?
        .map_err(|_| ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "busy", "shutting down"))?;
    let cancel = Arc::new(AtomicBool::new(false));
    let _cancel_on_drop = CancelOnDrop(cancel.clone());
    let slots = config.heavy_solves.max(1) as u64;
    let limits = Limits {
        max_time: Some(config.solve_budget),
        max_stored: Some(Limits::stored_states_within(config.search_memory / slots)),
        cancel: Some(cancel.clone()),
        ..Limits::default()
    };
    let task = tokio::task::spawn_blocking(move || {
        let _slot = permit;
        work(limits)
    });
    // The search stops itself at the budget; the grace only guards against a stuck task,
    // which keeps its slot until it does stop.
    let grace = std::time::Duration::from_secs(5);
    match tokio::time::timeout(config.solve_budget + grace, task).await {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(join)) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            format!("the search failed: {join}"),
        )),
        Err(_) => Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "time_limit",
            "no answer within this server's budget",
        )),
    }
}

/// `POST /api/solve`.
pub async fn solve(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<SolveResponse>, ApiError> {
    let req: SolveRequest = read_json(&state, &headers, body).await?;
    let board = board_of(&state, &req.board, req.width, req.height, Some("board"))?;
    let goal = goal_of(&state, req.goal.as_deref(), &board)?;
    let algorithm = match req.algorithm.as_deref() {
        None => Algorithm::Auto,
        Some(name) => name
            .parse()
            .map_err(|e: NameError| ApiError::bad("bad_algorithm", e.to_string()))?,
    };
    let heuristic = req
        .heuristic
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(|e: NameError| ApiError::bad("bad_heuristic", e.to_string()))?;
    let solver = solver_for(&state, &goal, algorithm, heuristic).await?;
    let outcome = if solver.table().is_some() && solver.effective_algorithm() == Algorithm::Table {
        // Microseconds: answer inline.
        solver.solve(&board).map_err(solve_error)?
    } else {
        let (s, b) = (solver.clone(), board.clone());
        run_heavy(&state, move |limits| s.solve_within(&b, &limits))
            .await?
            .map_err(solve_error)?
    };
    Ok(Json(outcome_response(&board, outcome)?))
}

/// Body of `POST /api/board`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRequest {
    /// The board as typed (tiles row by row, `x` or `0` for the blank).
    board: String,
    /// Columns (default: from the tile count, which must then be a square).
    width: Option<usize>,
    /// Rows.
    height: Option<usize>,
}

/// `POST /api/board`: reads a typed board by the library's rules, for the page to play: the
/// board in judge form with its size, or why it cannot be played, as `POST /api/solve` would
/// say (400 `bad_board` or `bad_size`, 422 `unsolvable`). Nothing is searched.
pub async fn board(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<serde_json::Value>, ApiError> {
    let req: BoardRequest = read_json(&state, &headers, body).await?;
    let board = board_of(&state, &req.board, req.width, req.height, None)?;
    let goal = Board::goal(board.shape());
    if !matches!(npuzzle::parity::is_solvable(&board, &goal), Ok(true)) {
        return Err(unsolvable());
    }
    Ok(Json(serde_json::json!({
        "board": board.to_judge_line(),
        "width": board.shape().width(),
        "height": board.shape().height(),
    })))
}

/// Body of `POST /api/check`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CheckRequest {
    board: String,
    /// Judge letters, or `unsolvable`.
    moves: String,
    width: Option<usize>,
    height: Option<usize>,
    goal: Option<String>,
}

/// `POST /api/check`: the library's verdict (the same as `npuzzle check` and
/// `npuzzle.check`): is this answer legal, does it reach the goal, is it optimal (compared
/// where an optimal method answers within the server's budget)?
pub async fn check(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<Verdict>, ApiError> {
    let req: CheckRequest = read_json(&state, &headers, body).await?;
    let board = board_of(&state, &req.board, req.width, req.height, Some("board"))?;
    let goal = goal_of(&state, req.goal.as_deref(), &board)?;
    let solver = solver_for(&state, &goal, Algorithm::Auto, None).await?;
    if solver.effective_algorithm() == Algorithm::Table {
        // A lookup: answered inline.
        return Ok(Json(solver.judge(&board, &req.moves)));
    }
    // The optimum may take a search: in a heavy-work slot, under the server's budget.
    let verdict = run_heavy(&state, move |limits| {
        solver.judge_within(&board, &req.moves, &limits)
    })
    .await?;
    Ok(Json(verdict))
}

#[cfg(test)]
mod tests {
    use super::{query_words, readable};

    #[test]
    fn messages_name_json_types_and_keep_what_the_client_sent() {
        let cases = [
            (
                "invalid length 0, expected struct SolveRequest with 6 elements at line 1 column 2",
                "invalid length 0, expected a JSON object at line 1 column 2",
            ),
            (
                "invalid type: floating point `3.5`, expected usize at line 1 column 40",
                "invalid type: floating point `3.5`, expected a whole number at line 1 column 40",
            ),
            (
                "unknown field `struct X`, expected one of `board`, `width`",
                "unknown field `struct X`, expected one of `board`, `width`",
            ),
            ("expected struct CheckRequest", "expected a JSON object"),
            (
                "invalid type: string \"expected usize\", expected usize at line 1 column 9",
                "invalid type: string \"expected usize\", expected a whole number at line 1 column 9",
            ),
            ("", ""),
        ];
        for (serde, said) in cases {
            assert_eq!(readable(serde), said);
        }
    }

    #[test]
    fn query_numbers_are_refused_in_words() {
        assert_eq!(
            query_words("invalid digit found in string"),
            "a value is not a whole number"
        );
        assert_eq!(
            query_words("width: cannot parse integer from empty string"),
            "width: a value is empty"
        );
        assert_eq!(query_words("unknown field `size`"), "unknown field `size`");
    }
}
