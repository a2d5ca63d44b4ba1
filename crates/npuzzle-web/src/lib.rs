//! The web page and JSON API that `npuzzle serve` runs: play, scramble, solve and watch.
//!
//! One binary serves everything: the page's HTML, CSS and JavaScript are compiled in
//! ([`assets`]), and the API ([`api`]) answers from the same library the CLI uses.
//!
//! **Bounded whatever the clients do.** Boards with a complete table already built (3×3) are
//! answered inline in microseconds; every other piece of work (a search, or building a table
//! for a new goal) runs on the blocking pool behind one semaphore of `heavy_solves` slots. A
//! slot is held until the work has really stopped, not until its request is gone, and a
//! request that disappears (the client disconnected) cancels its search, so the number of
//! running searches, and their memory, never exceed the slots. Each search may hold
//! `search_memory / heavy_solves` bytes of states and stops at `solve_budget`. Connections
//! are capped, headers and bodies must arrive within their timeouts, a client that stops
//! reading is cut off at the write timeout ([`connection`]), and shutdown waits for open
//! connections only `shutdown_grace` long.

pub mod api;
pub mod assets;
pub mod connection;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use npuzzle::heuristic::pdb_set::PdbSet;
use npuzzle::solver::cache::SolverCache;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

/// How the server behaves.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Longest a single solve may search before it is cancelled.
    pub solve_budget: Duration,
    /// Most pieces of heavy work (searches, table builds) running at once.
    pub heavy_solves: usize,
    /// Bytes that all running searches together may hold in stored states (split evenly
    /// between the `heavy_solves` slots).
    pub search_memory: u64,
    /// How long a request waits for a search slot before the server answers "busy".
    pub queue_wait: Duration,
    /// Pattern databases kept loaded (blank-last canonical goals, one set per shape at most;
    /// see `PdbSource::for_service`).
    pub pdbs: Vec<Arc<PdbSet>>,
    /// Complete tables of 12-cell boards kept loaded (see `PdbSource::tables_for_service`);
    /// without one, those boards are searched.
    pub tables: Vec<Arc<npuzzle::table::Table>>,
    /// Largest request body accepted, in bytes.
    pub max_body: usize,
    /// Largest board side the API accepts.
    pub max_side: usize,
    /// Most connections open at once; further clients wait in the listen backlog.
    pub max_connections: usize,
    /// Longest a client may take to send a request's headers (also the idle time allowed
    /// between requests on a kept-alive connection).
    pub header_timeout: Duration,
    /// Longest a client may take to send a request's body.
    pub body_timeout: Duration,
    /// Longest a response write may wait for a client that does not read.
    pub write_timeout: Duration,
    /// After shutdown is asked for, how long open connections get to finish.
    pub shutdown_grace: Duration,
    /// Log one line per request.
    pub log_requests: bool,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            solve_budget: Duration::from_secs(10),
            heavy_solves: 2,
            search_memory: 1 << 30,
            queue_wait: Duration::from_secs(5),
            pdbs: Vec::new(),
            tables: Vec::new(),
            max_body: 16 * 1024,
            max_side: 16,
            max_connections: 256,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(10),
            shutdown_grace: Duration::from_secs(3),
            log_requests: true,
        }
    }
}

/// Everything the handlers share.
pub struct AppState {
    /// The configuration.
    pub config: ServerConfig,
    /// Solvers by goal and method, made on first use.
    pub(crate) solvers: Mutex<SolverCache<api::SolverKey>>,
    /// Slots for heavy work (searches and table builds).
    pub(crate) heavy: Arc<Semaphore>,
    /// Set when the server begins shutting down: requests dropped from then on were cut off
    /// by the shutdown, not by their clients.
    pub(crate) stopping: AtomicBool,
}

impl AppState {
    /// State for `config`, with the standard 3×3 table built up front (and kept).
    pub fn new(config: ServerConfig) -> Arc<AppState> {
        let state = Arc::new(AppState {
            heavy: Arc::new(Semaphore::new(config.heavy_solves.max(1))),
            config,
            solvers: Mutex::new(SolverCache::new(api::CACHED_SOLVERS)),
            stopping: AtomicBool::new(false),
        });
        // Warm the 3×3 table (milliseconds) so the first request is as fast as the rest.
        if let Ok(shape) = npuzzle::Shape::new(3, 3) {
            api::warm(&state, &npuzzle::Board::goal(shape));
        }
        state
    }
}

/// Largest request head (headers) answered, in bytes; larger ones get a JSON 431 (and past four
/// times this, the HTTP library's own 431).
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

async fn limit_headers(req: Request, next: Next) -> Response {
    let size: usize = req
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + value.len() + 4)
        .sum();
    if size > MAX_HEADER_BYTES {
        return api::ApiError::new(
            axum::http::StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            "headers_too_large",
            "request headers are limited to 16 KiB",
        )
        .into_response();
    }
    next.run(req).await
}

/// Logs a request when its answer is ready, or when it is dropped unanswered (its client went
/// away, or the server's shutdown cut it off), so that an operator sees both.
async fn log_request(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    struct Pending {
        what: String,
        started: Instant,
        answered: bool,
        state: Arc<AppState>,
    }
    impl Drop for Pending {
        fn drop(&mut self) {
            if !self.answered {
                let why = if self.state.stopping.load(Ordering::Relaxed) {
                    "cancelled by the server's shutdown"
                } else {
                    "client went away"
                };
                tracing::info!(
                    "{} -> {why} after {:.1} ms",
                    self.what,
                    self.started.elapsed().as_secs_f64() * 1e3
                );
            }
        }
    }
    let mut pending = Pending {
        what: format!("{} {}", req.method(), req.uri()),
        started: Instant::now(),
        answered: false,
        state,
    };
    let response = next.run(req).await;
    pending.answered = true;
    if response.extensions().get::<api::BodyCutOff>().is_some() {
        // A client that closed only its sending side still reads the 400; one that went away
        // does not: on reading, the two look the same.
        tracing::info!(
            "{} -> client closed the connection while sending the body (answered 400 \
             incomplete_body) after {:.1} ms",
            pending.what,
            pending.started.elapsed().as_secs_f64() * 1e3
        );
        return response;
    }
    tracing::info!(
        "{} -> {} in {:.1} ms",
        pending.what,
        response.status().as_u16(),
        pending.started.elapsed().as_secs_f64() * 1e3
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
        .route("/favicon.ico", get(assets::favicon))
        .route("/favicon.svg", get(assets::favicon))
        .route("/api/health", get(api::health))
        .route("/api/scramble", get(api::scramble))
        .route("/api/board", post(api::board))
        .route("/api/solve", post(api::solve))
        .route("/api/check", post(api::check))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .layer(middleware::from_fn(limit_headers))
        .with_state(state.clone());
    if log {
        app.layer(middleware::from_fn_with_state(state, log_request))
    } else {
        app
    }
}

/// Serves on `listener` until `shutdown` completes, then gives the open connections
/// `shutdown_grace` to finish and drops the rest (their searches are cancelled).
pub async fn serve(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let grace = config.shutdown_grace;
    let header_timeout = config.header_timeout;
    let write_timeout = config.write_timeout;
    let connections = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let state = AppState::new(config);
    let service = TowerToHyperService::new(router(state.clone()));
    let graceful = GracefulShutdown::new();
    let mut open = tokio::task::JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        // At the cap, wait for a connection to end before accepting the next: new clients
        // queue in the kernel's backlog instead of taking more descriptors, and the header
        // timeout guarantees that slow clients make room.
        let permit = tokio::select! {
            () = &mut shutdown => break,
            Some(_) = open.join_next(), if !open.is_empty() => continue,
            permit = connections.clone().acquire_owned() => match permit {
                Ok(p) => p,
                Err(_) => break,
            },
        };
        let (stream, _) = tokio::select! {
            () = &mut shutdown => break,
            // Reap finished connections so the set stays as small as the open connections.
            Some(_) = open.join_next(), if !open.is_empty() => continue,
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors and the like: let connections close, then go on.
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        // The first request's head is read and checked before the HTTP library parses it,
        // in the connection's own task (a slow client holds only its own slot).
        let service = service.clone();
        let watcher = graceful.watcher();
        open.spawn(async move {
            let io = match connection::read_head(stream, header_timeout, write_timeout).await {
                connection::Head::Ready(io) => io,
                connection::Head::Rejected(stream, problem) => {
                    connection::reject(stream, problem).await;
                    return;
                }
                connection::Head::Gone => return,
            };
            let conn = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout)
                .max_buf_size(MAX_HEADER_BYTES * 4)
                .serve_connection(TokioIo::new(io), service);
            let _ = watcher.watch(conn).await;
            drop(permit);
        });
    }
    drop(listener);
    state.stopping.store(true, Ordering::Relaxed);
    tracing::info!(
        "shutting down: open requests get {:.1} s to finish",
        grace.as_secs_f64()
    );
    // In-flight requests get the grace period; connections still open after it are dropped,
    // which drops their requests and so cancels their searches.
    let _ = tokio::time::timeout(grace, graceful.shutdown()).await;
    open.shutdown().await;
    Ok(())
}
