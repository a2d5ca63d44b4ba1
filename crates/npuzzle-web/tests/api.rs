//! The JSON API over real HTTP on loopback: answers are replayed, errors are JSON with the
//! documented status codes, the time budget cancels searches, and heavy solves are bounded.

use npuzzle::{Board, Shape, Solution};
use npuzzle_web::{ServerConfig, serve};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

struct Server {
    base: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    handle: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl Server {
    async fn start(config: ServerConfig) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let handle = tokio::spawn(serve(listener, config, async {
            let _ = stopped.await;
        }));
        Server {
            base,
            stop: Some(stop),
            handle: Some(handle),
        }
    }

    async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let r = reqwest::Client::new()
            .post(format!("{}{path}", self.base))
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap())
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        let r = reqwest::get(format!("{}{path}", self.base)).await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap())
    }

    async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.handle.take().unwrap().await.unwrap().unwrap();
    }
}

fn quiet() -> ServerConfig {
    ServerConfig {
        log_requests: false,
        ..ServerConfig::default()
    }
}

fn replays(board: &str, shape: Shape, moves: &str) -> usize {
    let b = Board::parse_with_shape(board, Some(shape)).unwrap();
    let s = Solution::from_letters(moves).unwrap();
    s.verify(&b, &Board::goal(shape)).unwrap();
    s.len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solve_scramble_check_and_health() {
    let s = Server::start(quiet()).await;
    let (code, v) = s.get("/api/health").await;
    assert_eq!((code, v["status"].as_str()), (200, Some("ok")));

    let three = Shape::new(3, 3).unwrap();
    let (code, v) = s
        .post("/api/solve", json!({"board": "2 3 4 1 5 x 7 6 8"}))
        .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(
        replays("2 3 4 1 5 x 7 6 8", three, v["moves"].as_str().unwrap()),
        19
    );
    assert_eq!(v["length"], 19);
    assert_eq!(v["optimal"], true);
    assert_eq!(v["algorithm"], "table");
    let tiles = Solution::from_tile_notation(v["tiles_notation"].as_str().unwrap()).unwrap();
    assert_eq!(tiles.to_letters(), v["moves"].as_str().unwrap());

    // Any algorithm by name; greedy is reported as not optimal.
    for alg in [
        "bfs",
        "bidirectional",
        "astar",
        "idastar",
        "greedy",
        "large",
    ] {
        let (code, v) = s
            .post(
                "/api/solve",
                json!({"board": "8 6 7 2 5 4 3 x 1", "algorithm": alg}),
            )
            .await;
        assert_eq!(code, 200, "{alg}: {v}");
        let n = replays("8 6 7 2 5 4 3 x 1", three, v["moves"].as_str().unwrap());
        assert_eq!(v["optimal"], !matches!(alg, "greedy" | "large"));
        if v["optimal"] == true {
            assert_eq!(n, 31);
        }
    }

    // Rectangles, custom goals, larger boards (constructive, not optimal).
    let (code, v) = s
        .post(
            "/api/solve",
            json!({"board": "1 2 3 4 x 5", "width": 3, "height": 2}),
        )
        .await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(v["moves"], "r");
    let (code, v) = s
        .post(
            "/api/solve",
            json!({"board": "2 8 3 1 6 4 7 x 5", "goal": "1 2 3 8 x 4 7 6 5"}),
        )
        .await;
    assert_eq!((code, v["length"].as_u64()), (200, Some(5)));
    for (w, h) in [(5, 5), (7, 4)] {
        let (code, v) = s.get(&format!("/api/scramble?width={w}&height={h}")).await;
        assert_eq!(code, 200);
        let board = v["board"].as_str().unwrap().to_string();
        let shape = Shape::new(w, h).unwrap();
        let b = Board::parse_with_shape(&board, Some(shape)).unwrap();
        assert!(npuzzle::parity::is_solvable(&b, &Board::goal(shape)).unwrap());
        let (code, v) = s
            .post(
                "/api/solve",
                json!({"board": board, "width": w, "height": h}),
            )
            .await;
        assert_eq!(code, 200, "{v}");
        assert_eq!(v["optimal"], false);
        replays(&board, shape, v["moves"].as_str().unwrap());
    }

    // check
    let (code, v) = s
        .post(
            "/api/check",
            json!({"board": "2 3 4 1 5 x 7 6 8", "moves": "ullddrurdllurdruldr"}),
        )
        .await;
    assert_eq!(code, 200);
    assert_eq!(
        (v["valid"].as_bool(), v["optimal"].as_bool()),
        (Some(true), Some(true))
    );
    let (_, v) = s
        .post(
            "/api/check",
            json!({"board": "2 3 4 1 5 x 7 6 8", "moves": "rr"}),
        )
        .await;
    assert_eq!(v["valid"], false);
    assert!(v["message"].as_str().unwrap().contains("leaves the board"));
    let (_, v) = s
        .post(
            "/api/check",
            json!({"board": "2 1 3 4 5 6 7 8 x", "moves": "unsolvable"}),
        )
        .await;
    assert_eq!(v["valid"], true);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_are_json_with_the_right_status() {
    let s = Server::start(quiet()).await;
    let cases = [
        (json!({"board": "2 1 3 4 5 6 7 8 x"}), 422, "unsolvable"),
        (json!({"board": "1 2 3 4 5 6 7 7 x"}), 400, "bad_board"),
        (json!({"board": "1 2 3"}), 400, "bad_board"),
        (
            json!({"board": "1 2 3 4 5 6 7 8 x", "algorithm": "magic"}),
            400,
            "bad_algorithm",
        ),
        (
            json!({"board": "1 2 3 4 5 6 7 8 x", "heuristic": "vibes"}),
            400,
            "bad_heuristic",
        ),
        (
            json!({"board": "1 2 3 4 5 6 7 8 x", "width": 3}),
            400,
            "bad_size",
        ),
        (
            json!({"board": "1 2 3 4 5 6 7 8 x", "colour": "red"}),
            400,
            "bad_json",
        ),
        (
            json!({"board": "1 2 3 4 5 6 7 8 x", "algorithm": "table", "width": 5, "height": 4}),
            400,
            "bad_board",
        ),
    ];
    for (body, status, code) in cases {
        let (got, v) = s.post("/api/solve", body.clone()).await;
        assert_eq!(
            (got, v["error"].as_str()),
            (status, Some(code)),
            "{body}: {v}"
        );
        assert!(!v["message"].as_str().unwrap().is_empty());
    }
    // Not JSON at all, and a body over the limit.
    let client = reqwest::Client::new();
    let r = client
        .post(format!("{}/api/solve", s.base))
        .header("content-type", "application/json")
        .body("{not json")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    // A form post (what any other web page could send) is refused before any work.
    let r = client
        .post(format!("{}/api/solve", s.base))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(r#"{"board": "2 3 4 1 5 x 7 6 8"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 415);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"], "bad_content_type");
    let r = client
        .post(format!("{}/api/solve", s.base))
        .body(vec![b' '; 100_000])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 413);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"], "too_large");
    let (code, v) = s.get("/api/scramble?width=99&height=2").await;
    assert_eq!((code, v["error"].as_str()), (400, Some("bad_size")));
    let (code, _) = s.get("/api/nothing").await;
    assert_eq!(code, 404);
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn budget_cancels_and_heavy_solves_are_bounded() {
    let s = Server::start(ServerConfig {
        solve_budget: Duration::from_millis(300),
        heavy_solves: 1,
        queue_wait: Duration::from_millis(100),
        ..quiet()
    })
    .await;
    // Korf #1 (57 moves) with plain A*: far beyond a 0.3 s budget.
    let hard = json!({"board": "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2", "algorithm": "astar"});
    let started = Instant::now();
    let (code, v) = s.post("/api/solve", hard.clone()).await;
    assert_eq!(
        (code, v["error"].as_str()),
        (422, Some("time_limit")),
        "{v}"
    );
    assert!(started.elapsed() < Duration::from_secs(3));

    // Two at once with one slot: one waits past its queue time and is told the server is busy.
    let (a, b) = tokio::join!(s.post("/api/solve", hard.clone()), async {
        tokio::time::sleep(Duration::from_millis(20)).await;
        s.post("/api/solve", hard.clone()).await
    });
    let mut codes = [
        a.1["error"].as_str().unwrap_or(""),
        b.1["error"].as_str().unwrap_or(""),
    ];
    codes.sort();
    assert_eq!(codes, ["busy", "time_limit"]);

    // Meanwhile 3x3 requests never wait for a slot.
    let (hard_result, quick) = tokio::join!(s.post("/api/solve", hard), async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let t = Instant::now();
        let r = s
            .post("/api/solve", json!({"board": "8 6 7 2 5 4 3 x 1"}))
            .await;
        (r, t.elapsed())
    });
    assert_eq!(hard_result.0, 422);
    assert_eq!((quick.0).0, 200);
    assert!(quick.1 < Duration::from_millis(200), "{:?}", quick.1);

    // The slot is free again once the budget ran out: a feasible 4x4 search succeeds.
    let (code, v) = s
        .post(
            "/api/solve",
            json!({"board": "5 1 2 3 9 6 7 4 13 10 11 8 14 x 15 12", "algorithm": "idastar"}),
        )
        .await;
    assert_eq!((code, v["length"].as_u64()), (200, Some(10)), "{v}");
    s.stop().await;
}
