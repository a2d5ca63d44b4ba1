//! The web page and JSON API that `npuzzle serve` runs: play, scramble, solve and watch.
//!
//! One binary serves everything: the page's HTML, CSS and JavaScript are compiled in
//! ([`assets`]), and the API ([`api`]) answers from the same library the CLI uses. Solving is
//! kept responsive under load: boards with a complete table (3×3) are answered inline in
//! microseconds; every other solve runs on the blocking pool behind a semaphore (a burst of
//! 4×4 or 5×5 work can never take all threads from 3×3 requests), under a time budget whose
//! expiry cancels the search, so no thread is left spinning after its request is answered.

pub mod api;
pub mod assets;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get, post};
use npuzzle::heuristic::pdb_set::PdbSet;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// How the server behaves.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Longest a single solve may search before it is cancelled.
    pub solve_budget: Duration,
    /// Most searches (anything but table lookups) running at once.
    pub heavy_solves: usize,
    /// How long a request waits for a search slot before the server answers "busy".
    pub queue_wait: Duration,
    /// Pattern databases kept loaded (blank-last canonical goals, one set per shape at most;
    /// see `PdbSource::for_service`).
    pub pdbs: Vec<Arc<PdbSet>>,
    /// Largest request body accepted, in bytes.
    pub max_body: usize,
    /// Largest board side the API accepts.
    pub max_side: usize,
    /// Log one line per request.
    pub log_requests: bool,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            solve_budget: Duration::from_secs(10),
            heavy_solves: 2,
            queue_wait: Duration::from_secs(5),
            pdbs: Vec::new(),
            max_body: 16 * 1024,
            max_side: 16,
            log_requests: true,
        }
    }
}

/// Everything the handlers share.
pub struct AppState {
    /// The configuration.
    pub config: ServerConfig,
    /// Solvers by goal and method, made on first use.
    pub(crate) solvers: Mutex<HashMap<api::SolverKey, Arc<npuzzle::Solver>>>,
    /// Slots for searches.
    pub(crate) heavy: Semaphore,
}

impl AppState {
    /// State for `config`, with the standard 3×3 table built up front.
    pub fn new(config: ServerConfig) -> Arc<AppState> {
        let state = Arc::new(AppState {
            heavy: Semaphore::new(config.heavy_solves.max(1)),
            config,
            solvers: Mutex::new(HashMap::new()),
        });
        // Warm the 3×3 table (milliseconds) so the first request is as fast as the rest.
        if let Ok(shape) = npuzzle::Shape::new(3, 3) {
            let _ = api::solver_for(
                &state,
                &npuzzle::Board::goal(shape),
                npuzzle::Algorithm::Auto,
                None,
            );
        }
        state
    }
}

async fn log_request(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let uri = req.uri().clone();
    let started = Instant::now();
    let response = next.run(req).await;
    tracing::info!(
        "{method} {uri} -> {} in {:.1} ms",
        response.status().as_u16(),
        started.elapsed().as_secs_f64() * 1e3
    );
    response
}

/// The page and the API.
pub fn router(state: Arc<AppState>) -> Router {
    let log = state.config.log_requests;
    let limit = state.config.max_body;
    let app = Router::new()
        .route("/", get(assets::index))
        .route("/app.js", get(assets::script))
        .route("/style.css", get(assets::style))
        .route("/api/health", get(api::health))
        .route("/api/scramble", get(api::scramble))
        .route("/api/solve", post(api::solve))
        .route("/api/check", post(api::check))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(limit))
        .with_state(state);
    if log {
        app.layer(middleware::from_fn(log_request))
    } else {
        app
    }
}

/// Serves on `listener` until `shutdown` completes, then finishes the requests in flight.
pub async fn serve(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let app = router(AppState::new(config));
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown)
        .await
}
