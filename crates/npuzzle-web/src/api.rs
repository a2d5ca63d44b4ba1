//! The JSON API: `POST /api/solve`, `POST /api/check`, `GET /api/scramble`, `GET /api/health`.
//!
//! Every error is a JSON object `{"error": code, "message": text}` with a 4xx/5xx status:
//! 400 for a malformed request or board, 413 for a body over the limit, 422 for a board that
//! cannot reach the goal or a search that ran out of its time budget, 503 when every search
//! slot stayed busy.

use crate::AppState;
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Query, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use npuzzle::heuristic::HeuristicKind;
use npuzzle::search::{Limits, SearchError, Stats};
use npuzzle::{Algorithm, Board, Outcome, Shape, Solution, SolveError, Solver, SolverBuilder};
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
    fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
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
        (self.status, Json(body)).into_response()
    }
}

/// Unknown paths.
pub async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "no such page or endpoint",
    )
}

/// `GET /api/health`.
pub async fn health() -> Json<serde_json::Value> {
    Json(serde_json::json!({ "status": "ok", "version": env!("CARGO_PKG_VERSION") }))
}

/// Query of `GET /api/scramble`.
#[derive(Deserialize)]
pub struct ScrambleQuery {
    width: Option<usize>,
    height: Option<usize>,
}

/// `GET /api/scramble?width=&height=`: a uniformly random solvable board.
pub async fn scramble(
    State(state): State<Arc<AppState>>,
    query: Result<Query<ScrambleQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad("bad_query", e.body_text()))?;
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
    if width > max || height > max {
        return Err(ApiError::bad(
            "bad_size",
            format!("boards up to {max}x{max} are served"),
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
    /// `auto` (default), `table`, `bfs`, `bidirectional`, `astar`, `idastar`, `greedy`, `large`.
    algorithm: Option<String>,
    /// `manhattan`, `linear-conflict` or `pdb`.
    heuristic: Option<String>,
}

/// Body of a successful `POST /api/solve`.
#[derive(Serialize)]
pub struct SolveResponse {
    /// Judge letters (blank moves).
    moves: String,
    /// Speed-solving notation (tile moves with run lengths).
    tiles_notation: String,
    /// Number of moves.
    length: usize,
    /// Whether the length is guaranteed minimal.
    optimal: bool,
    /// The method that ran.
    algorithm: &'static str,
    /// Its heuristic, if any.
    heuristic: Option<&'static str>,
    /// The pattern-database partition, if used.
    databases: Option<String>,
    /// Search figures.
    stats: Stats,
}

/// A POST body as `T`: within the size limit, declared as JSON (so that a form posted by any
/// other web page cannot start solves here), and valid JSON of the right shape.
fn parse_body<T: for<'de> Deserialize<'de>>(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let bytes = body.map_err(|e| {
        ApiError::new(
            e.status(),
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                "too_large"
            } else {
                "bad_body"
            },
            e.body_text(),
        )
    })?;
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
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad("bad_json", e.to_string()))
}

fn board_of(
    state: &AppState,
    text: &str,
    width: Option<usize>,
    height: Option<usize>,
    what: &str,
) -> Result<Board, ApiError> {
    let shape = match (width, height) {
        (Some(w), Some(h)) => Some(shape_of(state, w, h)?),
        (None, None) => None,
        _ => return Err(ApiError::bad("bad_size", "give both width and height")),
    };
    let board = Board::parse_with_shape(text, shape)
        .map_err(|e| ApiError::bad("bad_board", format!("{what}: {}", e.kind)))?;
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
        Some(g) => board_of(state, g, Some(shape.width()), Some(shape.height()), "goal"),
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

/// The solver for a goal and method, made once and shared.
pub fn solver_for(
    state: &AppState,
    goal: &Board,
    algorithm: Algorithm,
    heuristic: Option<HeuristicKind>,
) -> Result<Arc<Solver>, ApiError> {
    let key = SolverKey {
        goal: goal.clone(),
        algorithm,
        heuristic,
    };
    if let Some(s) = state.solvers.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return Ok(s);
    }
    // Only the databases loaded at start-up: nothing is built on a request.
    let made = state
        .config
        .pdbs
        .iter()
        .fold(SolverBuilder::new(goal.clone()), |b, set| {
            b.pdb_set(set.clone())
        })
        .algorithm(algorithm)
        .heuristic(heuristic)
        // `auto` answers every board: past the budget, with the constructive solver.
        .fallback(algorithm == Algorithm::Auto)
        .build()
        .map_err(|e| ApiError::bad("bad_request", e.to_string()))?;
    let solver = Arc::new(made);
    if let Ok(mut m) = state.solvers.lock() {
        if m.len() > 64 {
            m.clear(); // custom goals: keep the cache bounded
        }
        m.insert(key, solver.clone());
    }
    Ok(solver)
}

fn outcome_response(solver: &Solver, outcome: Outcome) -> Result<SolveResponse, ApiError> {
    match outcome {
        Outcome::Unsolvable => Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "unsolvable",
            "this board cannot reach the goal (the tiles' parity differs)",
        )),
        Outcome::Solved(a) => Ok(SolveResponse {
            moves: a.solution.to_letters(),
            tiles_notation: a.solution.to_tile_notation(),
            length: a.solution.len(),
            optimal: a.optimal,
            algorithm: a.algorithm.name(),
            heuristic: a.heuristic.map(HeuristicKind::name),
            databases: solver
                .pdbs()
                .filter(|_| a.heuristic == Some(HeuristicKind::Pdb))
                .map(|p| p.partition().name.clone()),
            stats: a.stats,
        }),
    }
}

fn solve_error(e: SolveError) -> ApiError {
    match e {
        SolveError::Search(SearchError::Limit(l)) => ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "time_limit",
            format!(
                "no solution within this server's budget ({} states searched); try a closer board",
                l.stats.expanded
            ),
        ),
        other => ApiError::bad("bad_request", other.to_string()),
    }
}

/// Runs a search on the blocking pool, at most `heavy_solves` at once, cancelled at the budget.
async fn run_heavy(
    state: &Arc<AppState>,
    solver: Arc<Solver>,
    board: Board,
) -> Result<Outcome, ApiError> {
    let permit = tokio::time::timeout(state.config.queue_wait, state.heavy.acquire())
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
    let limits = Limits {
        max_time: Some(state.config.solve_budget),
        max_stored: Some(5_000_000),
        cancel: Some(cancel.clone()),
        ..Limits::default()
    };
    let task = tokio::task::spawn_blocking(move || solver.solve_within(&board, &limits));
    // The search stops itself at the budget; the extra second only guards against a stuck task.
    let result = tokio::time::timeout(
        state.config.solve_budget + std::time::Duration::from_secs(1),
        task,
    )
    .await;
    drop(permit);
    match result {
        Ok(Ok(outcome)) => outcome.map_err(solve_error),
        Ok(Err(join)) => Err(ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            join.to_string(),
        )),
        Err(_) => {
            cancel.store(true, Ordering::Relaxed);
            Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                "time_limit",
                "no solution within this server's budget",
            ))
        }
    }
}

/// `POST /api/solve`.
pub async fn solve(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<SolveResponse>, ApiError> {
    let req: SolveRequest = parse_body(&headers, body)?;
    let board = board_of(&state, &req.board, req.width, req.height, "board")?;
    let goal = goal_of(&state, req.goal.as_deref(), &board)?;
    let algorithm = match req.algorithm.as_deref() {
        None => Algorithm::Auto,
        Some(name) => Algorithm::from_name(name)
            .ok_or_else(|| ApiError::bad("bad_algorithm", format!("unknown algorithm `{name}`")))?,
    };
    let heuristic = match req.heuristic.as_deref() {
        None => None,
        Some("manhattan") => Some(HeuristicKind::Manhattan),
        Some("linear-conflict") => Some(HeuristicKind::LinearConflict),
        Some("pdb") => Some(HeuristicKind::Pdb),
        Some(other) => {
            return Err(ApiError::bad(
                "bad_heuristic",
                format!("unknown heuristic `{other}`"),
            ));
        }
    };
    let solver = solver_for(&state, &goal, algorithm, heuristic)?;
    let outcome = if solver.table().is_some() && solver.effective_algorithm() == Algorithm::Table {
        // Microseconds: answer inline.
        solver.solve(&board).map_err(solve_error)?
    } else {
        run_heavy(&state, solver.clone(), board).await?
    };
    Ok(Json(outcome_response(&solver, outcome)?))
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

/// `POST /api/check`: is this answer legal, does it reach the goal, is it optimal?
pub async fn check(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let req: CheckRequest = parse_body(&headers, body)?;
    let board = board_of(&state, &req.board, req.width, req.height, "board")?;
    let goal = goal_of(&state, req.goal.as_deref(), &board)?;
    let solvable = npuzzle::parity::is_solvable(&board, &goal)
        .map_err(|e| ApiError::bad("bad_board", e.to_string()))?;
    let optimal_length = npuzzle::table::Table::supports(board.shape())
        .then(|| solver_for(&state, &goal, Algorithm::Auto, None).ok())
        .flatten()
        .and_then(|s| s.table().and_then(|t| t.distance(&board)));
    if req.moves.trim().eq_ignore_ascii_case("unsolvable") {
        return Ok(Json(serde_json::json!({
            "valid": !solvable,
            "message": if solvable { "the board can reach the goal" } else { "correct: the board cannot reach the goal" },
        })));
    }
    let solution = Solution::from_letters(&req.moves)
        .map_err(|e| ApiError::bad("bad_moves", e.to_string()))?;
    let verdict = solution.verify(&board, &goal);
    Ok(Json(serde_json::json!({
        "valid": verdict.is_ok(),
        "length": solution.len(),
        "optimal_length": optimal_length,
        "optimal": optimal_length.map(|d| verdict.is_ok() && d as usize == solution.len()),
        "message": match verdict {
            Ok(()) => "the moves reach the goal".to_string(),
            Err(e) => e.to_string(),
        },
    })))
}
