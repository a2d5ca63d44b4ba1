//! `npuzzle bench serve`: the web API under load, on loopback only.
//!
//! Starts the server in-process on 127.0.0.1 (a free port), then runs a bounded number of
//! requests from a fixed number of concurrent keep-alive connections and reports throughput,
//! latency percentiles and errors. A second phase repeats the 3×3 load while a burst of 4×4
//! and 5×5 solves runs, to show that heavy work cannot starve the cheap requests.

use crate::pdb::PdbOptions;
use anyhow::{Context, Result, bail};
use npuzzle::random::random_solvable;
use npuzzle::{Board, Shape};
use npuzzle_web::ServerConfig;
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Result of one load phase.
struct Phase {
    requests: usize,
    errors: usize,
    elapsed: Duration,
    latencies: Vec<Duration>,
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(name: &str, phase: &mut Phase) {
    phase.latencies.sort_unstable();
    println!(
        "{name}: {} requests, {} errors, {:.2} s, {:.0} requests/s, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        phase.requests,
        phase.errors,
        phase.elapsed.as_secs_f64(),
        phase.requests as f64 / phase.elapsed.as_secs_f64(),
        percentile(&phase.latencies, 0.50).as_secs_f64() * 1e3,
        percentile(&phase.latencies, 0.99).as_secs_f64() * 1e3,
        phase
            .latencies
            .last()
            .copied()
            .unwrap_or_default()
            .as_secs_f64()
            * 1e3,
    );
}

/// Sends `bodies` as solve requests from `connections` workers; each worker owns a client with
/// one keep-alive connection.
async fn hammer(base: String, bodies: Arc<Vec<String>>, connections: usize) -> Result<Phase> {
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..connections {
        let client = reqwest::Client::builder()
            .pool_max_idle_per_host(1)
            .timeout(Duration::from_secs(30))
            .build()?;
        let (bodies, next, url) = (bodies.clone(), next.clone(), format!("{base}/api/solve"));
        tasks.push(tokio::spawn(async move {
            let mut latencies = Vec::new();
            let mut errors = 0;
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(body) = bodies.get(i) else { break };
                let t = Instant::now();
                let ok = match client
                    .post(&url)
                    .header("content-type", "application/json")
                    .body(body.clone())
                    .send()
                    .await
                {
                    Ok(r) => r.status().is_success() && r.bytes().await.is_ok(),
                    Err(_) => false,
                };
                latencies.push(t.elapsed());
                errors += (!ok) as usize;
            }
            (latencies, errors)
        }));
    }
    let mut phase = Phase {
        requests: 0,
        errors: 0,
        elapsed: Duration::ZERO,
        latencies: Vec::new(),
    };
    for t in tasks {
        let (l, e) = t.await?;
        phase.requests += l.len();
        phase.errors += e;
        phase.latencies.extend(l);
    }
    phase.elapsed = started.elapsed();
    Ok(phase)
}

fn bodies(shape: Shape, count: usize, seed: u64) -> Result<Vec<String>> {
    let goal = Board::goal(shape);
    let mut rng = SmallRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let b = random_solvable(&goal, &mut rng);
            Ok(serde_json::to_string(&serde_json::json!({
                "board": b.to_judge_line(),
                "width": shape.width(),
                "height": shape.height(),
            }))?)
        })
        .collect()
}

/// Runs `npuzzle bench serve`.
pub fn run(
    requests: usize,
    connections: usize,
    heavy: usize,
    pdb: &PdbOptions,
) -> Result<ExitCode> {
    let pdbs = pdb.source(npuzzle::Use::Service).for_service()?;
    let config = ServerConfig {
        pdbs,
        log_requests: false,
        ..ServerConfig::default()
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let base = format!("http://{}", listener.local_addr()?);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(npuzzle_web::serve(listener, config, async {
            let _ = stopped.await;
        }));
        let eight = Arc::new(bodies(Shape::new(3, 3)?, requests, 1)?);
        // Warm-up (connections, caches), not counted.
        hammer(
            base.clone(),
            Arc::new(eight[..connections.min(eight.len())].to_vec()),
            connections,
        )
        .await?;

        let mut calm = hammer(base.clone(), eight.clone(), connections).await?;
        report("3x3 solves", &mut calm);

        // The same load while 4x4 and 5x5 solves run alongside.
        let mut big = bodies(Shape::new(4, 4)?, heavy / 2, 2)?;
        big.extend(bodies(Shape::new(5, 5)?, heavy - heavy / 2, 3)?);
        let burst = tokio::spawn(hammer(base.clone(), Arc::new(big), 8.min(heavy.max(1))));
        let mut busy = hammer(base.clone(), eight, connections).await?;
        report("3x3 solves during a 4x4/5x5 burst", &mut busy);
        let mut heavy_phase = burst.await??;
        report("  the 4x4/5x5 burst itself", &mut heavy_phase);
        let _ = stop.send(());
        server.await?.context("server")?;
        if calm.errors > 0 || busy.errors > 0 {
            bail!("{} failed 3x3 requests", calm.errors + busy.errors);
        }
        Ok::<_, anyhow::Error>(())
    })?;
    Ok(ExitCode::SUCCESS)
}
