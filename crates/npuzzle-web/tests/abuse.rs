//! The server under misbehaving clients, on loopback only and within a few seconds: clients
//! that disconnect mid-search, bursts of table builds, slow and lying clients, oversized
//! boards, and shutdown while clients hang on. The server runs in this test process (its own
//! test binary, one test), so the process's thread count and memory are the server's.

mod common;
use common::{Server, quiet, replays};
use npuzzle::Shape;
use npuzzle_web::ServerConfig;
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Threads and resident megabytes of this process.
fn threads_and_rss() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
            .unwrap_or(0)
    };
    (field("Threads:"), field("VmRSS:") / 1024)
}

/// Sends raw bytes and reads the answer until the server closes or `wait` passes.
async fn raw(addr: &str, bytes: &[u8], wait: Duration) -> String {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(bytes).await.unwrap();
    let mut out = Vec::new();
    let _ = tokio::time::timeout(wait, s.read_to_end(&mut out)).await;
    String::from_utf8_lossy(&out).into_owned()
}

/// A POST of `body` to /api/solve whose client goes away after `after`.
async fn post_and_leave(addr: &str, body: &Value, after: Duration) {
    let body = body.to_string();
    let mut s = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(body.as_bytes()).await.unwrap();
    tokio::time::sleep(after).await;
}

async fn health_ms(s: &Server) -> f64 {
    let t = Instant::now();
    let (code, _) = tokio::time::timeout(Duration::from_secs(5), s.get("/api/health"))
        .await
        .expect("health answered within 5 s");
    assert_eq!(code, 200);
    t.elapsed().as_secs_f64() * 1e3
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bounded_under_hostile_clients() {
    let config = ServerConfig {
        // The server's default budget: a 16x16 board's near-optimal answer takes 1.4-3.7 s
        // (release build, depending on the machine's day), and every board the page hands
        // out must be answered (step 4).
        solve_budget: Duration::from_secs(10),
        heavy_solves: 2,
        search_memory: 256 << 20,
        queue_wait: Duration::from_secs(2),
        max_connections: 64,
        header_timeout: Duration::from_millis(800),
        body_timeout: Duration::from_millis(800),
        write_timeout: Duration::from_millis(800),
        ..quiet()
    };
    let s = Server::start(config).await;
    assert!(health_ms(&s).await < 1000.0);
    let (threads0, rss0) = threads_and_rss();

    // 1. Twenty 5x5 breadth-first searches whose clients leave after 50 ms: each search is
    // cancelled, at most two run at once, and memory stays within the searches' share.
    let five = json!({"board": "20 7 10 16 14 21 17 6 24 12 23 5 4 22 8 x 9 11 3 2 13 18 19 15 1",
                      "algorithm": "bfs"});
    let mut peak = (0, 0);
    for _ in 0..20 {
        post_and_leave(s.addr(), &five, Duration::from_millis(50)).await;
        let now = threads_and_rss();
        peak = (peak.0.max(now.0), peak.1.max(now.1));
    }
    for _ in 0..10 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let now = threads_and_rss();
        peak = (peak.0.max(now.0), peak.1.max(now.1));
    }
    assert!(peak.0 <= threads0 + 4, "threads {threads0} -> {}", peak.0);
    assert!(peak.1 <= rss0 + 400, "resident MB {rss0} -> {}", peak.1);
    // Their slots are free again at once (not after twenty budgets): a search gets one.
    let t = Instant::now();
    let (code, v) = s
        .post(
            "/api/solve",
            json!({"board": "5 1 2 3 9 6 7 4 13 10 11 8 14 x 15 12", "algorithm": "idastar"}),
        )
        .await;
    assert_eq!((code, v["length"].as_u64()), (200, Some(10)), "{v}");
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());

    // 2. Forty custom goals on 2x5 boards (each a table build) at once: they go through the
    // two slots (some are told the server is busy), and health stays fast meanwhile.
    let builds = tokio::spawn({
        let base = s.base.clone();
        async move {
            let client = reqwest::Client::new();
            let mut codes = Vec::new();
            let mut tasks = tokio::task::JoinSet::new();
            for i in 0..40u64 {
                let (client, base) = (client.clone(), base.clone());
                tasks.spawn(async move {
                    let mut cells: Vec<u64> = (0..10).collect();
                    cells.rotate_left((i % 10) as usize);
                    cells.swap(0, 1 + (i / 10) as usize);
                    cells.swap(2, 5);
                    let goal = cells
                        .iter()
                        .map(|&t| if t == 0 { "x".into() } else { t.to_string() })
                        .collect::<Vec<_>>()
                        .join(" ");
                    let body = json!({"board": goal, "goal": goal, "width": 5, "height": 2});
                    let r = client
                        .post(format!("{base}/api/solve"))
                        .json(&body)
                        .send()
                        .await
                        .unwrap();
                    r.status().as_u16()
                });
            }
            while let Some(code) = tasks.join_next().await {
                codes.push(code.unwrap());
            }
            codes
        }
    });
    let mut latencies = Vec::new();
    while !builds.is_finished() {
        latencies.push(health_ms(&s).await);
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    let codes = builds.await.unwrap();
    assert!(codes.iter().all(|&c| c == 200 || c == 503), "{codes:?}");
    assert!(codes.contains(&200));
    latencies.sort_by(f64::total_cmp);
    let median = latencies[latencies.len() / 2];
    let max = latencies[latencies.len() - 1];
    assert!(
        median < 50.0 && max < 500.0,
        "health median {median} ms, max {max} ms"
    );
    // The 4x4 search split over the cores made the search pool, once: one thread a core.
    let pool = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
    let threads = threads_and_rss().0;
    assert!(
        threads <= threads0 + 4 + pool,
        "threads {threads0} -> {threads}"
    );

    // 3. Slow and lying clients. Partial headers are cut off at the header timeout, with a
    // 408 saying so; a connection that sends nothing (a browser's spare one) is just closed.
    let mut slow = Vec::new();
    for _ in 0..100 {
        let mut c = TcpStream::connect(s.addr()).await.unwrap();
        c.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        slow.push(c);
    }
    let t = Instant::now();
    for mut c in slow {
        let mut got = Vec::new();
        let r = tokio::time::timeout(Duration::from_secs(5), c.read_to_end(&mut got)).await;
        assert!(r.is_ok(), "still open");
        let text = String::from_utf8_lossy(&got);
        assert!(
            text.starts_with("HTTP/1.1 408") && text.contains(r#""error":"header_timeout""#),
            "{text}"
        );
    }
    // 64 at once (the cap) closed at the header timeout (0.8 s), then the 36 that waited to be
    // accepted: two timeouts in all, not more.
    assert!(
        t.elapsed() < Duration::from_millis(2200),
        "{:?}",
        t.elapsed()
    );
    // ... and the server answers again at once (the 100 were past the connection cap).
    assert!(health_ms(&s).await < 500.0);
    // An idle connection, and one with bare line ends, are closed silently at the timeout.
    for sent in [&b""[..], b"\r\n\r\n"] {
        let mut idle = TcpStream::connect(s.addr()).await.unwrap();
        idle.write_all(sent).await.unwrap();
        let t = Instant::now();
        let mut got = Vec::new();
        let r = tokio::time::timeout(Duration::from_secs(5), idle.read_to_end(&mut got)).await;
        assert!(matches!(r, Ok(Ok(0))), "{sent:?}: {r:?} {got:?}");
        assert!(
            t.elapsed() >= Duration::from_millis(700),
            "{:?}",
            t.elapsed()
        );
    }
    // 300 bytes of binary without a line end (a TLS greeting) are refused at once, not left
    // to the timeout.
    let mut tls = TcpStream::connect(s.addr()).await.unwrap();
    let mut hello = vec![0x16u8, 0x03, 0x01];
    hello.resize(300, 0xab);
    tls.write_all(&hello).await.unwrap();
    let t = Instant::now();
    let mut got = Vec::new();
    let r = tokio::time::timeout(Duration::from_secs(5), tls.read_to_end(&mut got)).await;
    let text = String::from_utf8_lossy(&got);
    assert!(r.is_ok() && text.starts_with("HTTP/1.1 400"), "{text}");
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    // Clients that send requests but never read the answers: cut off at the write timeout,
    // so that 64 of them (the whole connection cap) cannot lock everyone out.
    let mut readers = Vec::new();
    for _ in 0..64 {
        let c = TcpStream::connect(s.addr()).await.unwrap();
        let sock = socket2::SockRef::from(&c);
        let _ = sock.set_recv_buffer_size(4096);
        readers.push(c);
    }
    let pipelined = b"GET /app.js HTTP/1.1\r\nHost: x\r\n\r\n".repeat(2000);
    for c in &mut readers {
        let _ = tokio::time::timeout(Duration::from_millis(200), c.write_all(&pipelined)).await;
    }
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let t = Instant::now();
    assert!(health_ms(&s).await < 1000.0, "health after slow readers");
    assert!(t.elapsed() < Duration::from_secs(4));
    drop(readers);
    // A body that never comes: 408 at the body timeout; a declared body over the limit: 413
    // before anything is read.
    let t = Instant::now();
    let answer = raw(
        s.addr(),
        b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\n\r\n{\"board\":",
        Duration::from_secs(5),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"body_timeout\""), "{answer}");
    assert!(t.elapsed() < Duration::from_secs(3));
    let answer = raw(
        s.addr(),
        b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 99999999999\r\n\r\n{\"board\":",
        Duration::from_secs(1),
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    // Not HTTP, an endless request line, a huge header: JSON errors too.
    let answer = raw(s.addr(), b"HELLO\r\n\r\n", Duration::from_secs(2)).await;
    assert!(answer.starts_with("HTTP/1.1 400") && answer.contains("\"bad_request\""));
    let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(10_000));
    let answer = raw(s.addr(), long.as_bytes(), Duration::from_secs(2)).await;
    assert!(answer.starts_with("HTTP/1.1 414") && answer.contains("\"uri_too_long\""));
    let big = format!("GET / HTTP/1.1\r\nX-Big: {}\r\n\r\n", "a".repeat(20_000));
    let answer = raw(s.addr(), big.as_bytes(), Duration::from_secs(2)).await;
    assert!(answer.starts_with("HTTP/1.1 431") && answer.contains("headers_too_large"));

    // 4. Every board the API hands out is answered: 14x13 and 16x16 scrambles.
    for (w, h) in [(14, 13), (16, 16)] {
        let (code, v) = s.get(&format!("/api/scramble?width={w}&height={h}")).await;
        assert_eq!(code, 200);
        let board = v["board"].as_str().unwrap().to_string();
        let (code, v) = s
            .post(
                "/api/solve",
                json!({"board": board, "width": w, "height": h}),
            )
            .await;
        assert_eq!(code, 200, "{w}x{h}: {v}");
        replays(
            &board,
            Shape::new(w, h).unwrap(),
            v["moves"].as_str().unwrap(),
        );
        assert_eq!(v["optimal"], false);
    }
    // A search past its memory share is answered too, labelled.
    let (code, v) = s
        .post(
            "/api/solve",
            json!({"board": five["board"], "algorithm": "bfs"}),
        )
        .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["optimal"], false);
    assert!(v["note"].as_str().unwrap().contains("memory"), "{v}");
    assert!(threads_and_rss().1 <= rss0 + 400);
    // A large board's near-optimal answer stops when its client goes: the slot is free again
    // well before the answer would have been finished.
    let (_, v) = s.get("/api/scramble?width=16&height=16").await;
    let sixteen = json!({"board": v["board"], "width": 16, "height": 16});
    post_and_leave(s.addr(), &sixteen, Duration::from_millis(50)).await;
    post_and_leave(s.addr(), &sixteen, Duration::from_millis(50)).await;
    let t = Instant::now();
    let (code, _) = s
        .post(
            "/api/solve",
            json!({"board": "5 1 2 3 9 6 7 4 13 10 11 8 14 x 15 12", "algorithm": "idastar"}),
        )
        .await;
    assert_eq!(code, 200);
    assert!(
        t.elapsed() < Duration::from_millis(1200),
        "{:?}",
        t.elapsed()
    );

    // 5. Shutdown while a client hangs on mid-request and a search runs: done in seconds.
    let mut hanging = TcpStream::connect(s.addr()).await.unwrap();
    hanging
        .write_all(b"GET /api/health HTTP/1.1\r\n")
        .await
        .unwrap();
    let search = tokio::spawn({
        let addr = s.addr().to_string();
        async move { post_and_leave(&addr, &five, Duration::from_secs(30)).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let t = Instant::now();
    s.stop().await;
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    search.abort();
}
