//! `npuzzle serve`: the web page and JSON API on one address, until Ctrl-C.

use crate::pdb::PdbOptions;
use anyhow::{Context, Result};
use clap::Args;
use npuzzle_web::ServerConfig;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Arguments of `npuzzle serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// Seconds a single solve may search before it is cancelled (at most an hour: more is
    /// taken as 3600).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, allow_negative_numbers = true, value_parser = crate::input::seconds)]
    pub budget: f64,
    /// Searches (anything but 3×3 table lookups) allowed at once (1 to 64).
    #[arg(long, value_name = "N", default_value_t = 2, allow_negative_numbers = true, value_parser = crate::input::whole_number(1u8, 64))]
    pub heavy: u8,
    /// MiB that all running searches together may hold (split between the --heavy slots; a
    /// search that needs more is answered by the near-optimal solver, labelled).
    #[arg(long, value_name = "MiB", default_value_t = 1024,
          allow_negative_numbers = true, value_parser = crate::input::whole_number(16u64, 1 << 20))]
    pub max_memory: u64,
    /// Most connections open at once (more wait to be accepted).
    #[arg(long, value_name = "N", default_value_t = 256, allow_negative_numbers = true, value_parser = crate::input::whole_number(1u32, 65536))]
    pub max_connections: u32,
    /// Serve without pattern databases (4×4 by IDA* with linear conflict under the budget,
    /// larger boards by the near-optimal solver).
    #[arg(long)]
    pub no_pdb: bool,
    /// Do not log requests.
    #[arg(long)]
    pub quiet: bool,
    #[command(flatten)]
    pub pdb: PdbOptions,
}

/// Runs `npuzzle serve`.
pub fn run(args: ServeArgs) -> Result<ExitCode> {
    if !args.quiet {
        use std::io::IsTerminal;
        tracing_subscriber::fmt()
            .with_target(false)
            .with_ansi(std::io::stderr().is_terminal())
            .with_writer(std::io::stderr)
            .init();
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async move {
        // The address first: a taken one is reported before any database is loaded or built.
        // It listens only once they are loaded, so that a client meanwhile is refused at once
        // instead of waiting unanswered.
        let cannot = || format!("cannot listen on {}", args.addr);
        let socket = match args.addr {
            SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4(),
            SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6(),
        }
        .with_context(cannot)?;
        socket.set_reuseaddr(true).with_context(cannot)?;
        socket.bind(args.addr).with_context(cannot)?;
        let bound = socket.local_addr().with_context(cannot)?;
        let loading = Instant::now();
        // Which databases to keep loaded is the library's decision (see
        // `PdbSource::for_service`).
        let (pdbs, tables) = if args.no_pdb {
            (Vec::new(), Vec::new())
        } else {
            let when = "takes connections once they are loaded";
            eprintln!("npuzzle: loading the pattern databases; {bound} {when}");
            let source = args.pdb.source(npuzzle::Use::Service);
            tokio::task::block_in_place(|| {
                anyhow::Ok((
                    source.for_service().context("pattern databases")?,
                    source.tables_for_service(),
                ))
            })?
        };
        let config = ServerConfig {
            solve_budget: Duration::from_secs_f64(args.budget.min(3600.0)),
            heavy_solves: args.heavy as usize,
            search_memory: args.max_memory << 20,
            max_connections: args.max_connections as usize,
            pdbs,
            tables,
            log_requests: !args.quiet,
            ..ServerConfig::default()
        };
        // Installed before the first connection is taken (a signal that came before would
        // end the process without the graceful shutdown); SIGTERM shuts down as Ctrl-C does.
        use tokio::signal::unix::{SignalKind, signal};
        let handler = |kind| signal(kind).context("installing the signal handlers");
        let mut interrupt = handler(SignalKind::interrupt())?;
        let mut terminate = handler(SignalKind::terminate())?;
        let shutdown = async move {
            tokio::select! {
                _ = interrupt.recv() => {}
                _ = terminate.recv() => {}
            }
            eprintln!("npuzzle: shutting down");
        };
        let listener = socket.listen(1024).with_context(cannot)?;
        let addr = listener.local_addr()?;
        let loaded = if args.no_pdb {
            String::new()
        } else {
            format!(
                "; databases loaded in {:.1} s",
                loading.elapsed().as_secs_f64()
            )
        };
        eprintln!("npuzzle: serving http://{addr}/ (Ctrl-C stops{loaded})");
        npuzzle_web::serve(listener, config, shutdown)
            .await
            .context("server failed")
    })?;
    // Searches of dropped requests were cancelled; do not wait long for them to notice.
    runtime.shutdown_timeout(Duration::from_secs(2));
    Ok(ExitCode::SUCCESS)
}
