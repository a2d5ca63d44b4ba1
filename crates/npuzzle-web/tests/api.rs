//! The JSON API over real HTTP on loopback: answers are replayed, errors are JSON with the
//! documented status codes, the time budget cancels searches, and heavy solves are bounded.

use npuzzle::{Board, Shape, Solution};
use npuzzle_web::ServerConfig;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

mod common;
use common::{Server, quiet, replays};

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
    let tiles = Solution::from_tile_notation(v["tiles"].as_str().unwrap()).unwrap();
    assert_eq!(tiles.to_letters(), v["moves"].as_str().unwrap());

    // Any algorithm by name; greedy is reported as not optimal.
    for alg in [
        "bfs",
        "bidirectional",
        "astar",
        "idastar",
        "greedy",
        "large",
        "near",
    ] {
        let (code, v) = s
            .post(
                "/api/solve",
                json!({"board": "8 6 7 2 5 4 3 x 1", "algorithm": alg}),
            )
            .await;
        assert_eq!(code, 200, "{alg}: {v}");
        let n = replays("8 6 7 2 5 4 3 x 1", three, v["moves"].as_str().unwrap());
        assert_eq!(v["optimal"], !matches!(alg, "greedy" | "large" | "near"));
        if v["optimal"] == true {
            assert_eq!(n, 31);
        }
    }

    // Rectangles, custom goals, larger boards (near-optimal, not optimal).
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
        assert_eq!(v["algorithm"], "near");
        replays(&board, shape, v["moves"].as_str().unwrap());
        // Why not optimal, in words true with or without `--no-pdb`; and so for `check`.
        let note = v["note"].as_str().unwrap();
        assert!(
            note.contains(&format!("no pattern databases loaded for {shape}")),
            "{v}"
        );
        let (code, c) = s
            .post(
                "/api/check",
                json!({"board": board, "width": w, "height": h, "moves": v["moves"]}),
            )
            .await;
        assert_eq!((code, &c["valid"]), (200, &json!(true)), "{c}");
        let says = format!("no pattern databases for {shape} boards were loaded");
        assert!(c["message"].as_str().unwrap().contains(&says), "{c}");
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

/// `POST /api/board` reads a typed board as the library does (the page's "Load"): the board
/// in judge form with its size, or the library's reason, as `/api/solve` would give it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn typed_boards_are_read_by_the_librarys_rules() {
    let s = Server::start(quiet()).await;
    for (body, board, w, h) in [
        (
            json!({"board": "2 3 4\n1 5 X\n7 6 8"}),
            "2 3 4 1 5 x 7 6 8",
            3,
            3,
        ),
        (json!({"board": " 1 2 3 0 "}), "1 2 3 x", 2, 2),
        (
            json!({"board": "1 2 3 4 x 5", "width": 3, "height": 2}),
            "1 2 3 4 x 5",
            3,
            2,
        ),
    ] {
        let (code, v) = s.post("/api/board", body.clone()).await;
        assert_eq!(code, 200, "{body}: {v}");
        assert_eq!(
            v,
            json!({"board": board, "width": w, "height": h}),
            "{body}"
        );
    }
    for (board, code, error, says) in [
        (
            "1 2 3 4 5 6 7 7 x",
            400,
            "bad_board",
            "tile 7 appears twice",
        ),
        (
            "1 2 3 q 5 6 7 8 x",
            400,
            "bad_board",
            "`q` at column 7 is not a tile",
        ),
        (
            "1 2 3 4 5 6 7 8",
            400,
            "bad_board",
            "one tile short of a 3x3 board",
        ),
        (
            "1 2 3 4 5 6 7 8 9",
            400,
            "bad_board",
            "and x or 0 for the blank",
        ),
        (
            "2 1 3 4 5 6 7 8 x",
            422,
            "unsolvable",
            "cannot reach the goal",
        ),
    ] {
        let (got, v) = s.post("/api/board", json!({"board": board})).await;
        assert_eq!(
            (got, v["error"].as_str()),
            (code, Some(error)),
            "{board}: {v}"
        );
        let message = v["message"].as_str().unwrap();
        assert!(message.contains(says), "{board}: {message}");
    }
    // Past the server's largest side (16).
    let tiles: Vec<String> = (1..17 * 17).map(|t| t.to_string()).collect();
    let too_wide = format!("{} x", tiles.join(" "));
    let (code, v) = s.post("/api/board", json!({"board": too_wide})).await;
    assert_eq!((code, v["error"].as_str()), (400, Some("bad_size")), "{v}");
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
        .header("content-type", "application/json")
        .body(vec![b' '; 100_000])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 413);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"], "too_large");
    let (code, v) = s.get("/api/scramble?width=99&height=2").await;
    assert_eq!((code, v["error"].as_str()), (400, Some("bad_size")));
    let (code, v) = s.get("/api/scramble?width=0&height=0").await;
    assert_eq!((code, v["error"].as_str()), (400, Some("bad_size")));
    assert!(
        v["message"].as_str().unwrap().contains("up to 16x16"),
        "{v}"
    );
    // An unknown or malformed query is said so, in the API's words, not ignored.
    for query in ["size=4x4", "width=abc", "width=-1"] {
        let (code, v) = s.get(&format!("/api/scramble?{query}")).await;
        assert_eq!((code, v["error"].as_str()), (400, Some("bad_query")), "{v}");
        let message = v["message"].as_str().unwrap();
        assert!(!message.contains("deserialize"), "{v}");
        assert!(message.contains("whole numbers from 2 to 16"), "{v}");
    }
    // Messages name JSON's types, not the server's.
    for body in [
        json!([]),
        json!({"board": "1 2 3 4 5 6 7 8 x", "width": 3.5}),
    ] {
        let (code, v) = s.post("/api/solve", body).await;
        let message = v["message"].as_str().unwrap();
        assert_eq!((code, v["error"].as_str()), (400, Some("bad_json")), "{v}");
        assert!(
            !message.contains("struct") && !message.contains("usize"),
            "{v}"
        );
    }
    let (code, v) = s.get("/api/nothing").await;
    assert_eq!((code, v["error"].as_str()), (404, Some("not_found")));
    let (code, v) = s.get("/api/solve").await;
    assert_eq!(
        (code, v["error"].as_str()),
        (405, Some("method_not_allowed"))
    );
    let (code, v) = s.get("/api/board").await;
    assert_eq!(code, 405);
    assert!(v["message"].as_str().unwrap().contains("/api/board"), "{v}");
    // An unsolvable claim is answered with the same fields as any other check.
    let (_, moves) = s
        .post(
            "/api/check",
            json!({"board": "1 2 3 4 5 6 7 x 8", "moves": "r"}),
        )
        .await;
    let (_, claim) = s
        .post(
            "/api/check",
            json!({"board": "2 1 3 4 5 6 7 8 x", "moves": "unsolvable"}),
        )
        .await;
    let keys = |v: &Value| {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(keys(&moves), keys(&claim));
    assert_eq!(claim["valid"], true);
    let icon = reqwest::get(format!("{}/favicon.ico", s.base))
        .await
        .unwrap();
    assert_eq!(icon.status().as_u16(), 200);
    assert!(icon.text().await.unwrap().starts_with("<svg"));
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
    // Korf #1 (57 moves) with plain A*: far beyond a 0.3 s budget. The search is stopped
    // there and the board answered by the near-optimal solver, labelled as such.
    let hard = json!({"board": "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2", "algorithm": "astar"});
    let started = Instant::now();
    let (code, v) = s.post("/api/solve", hard.clone()).await;
    assert_eq!(code, 200, "{v}");
    assert_eq!(
        (v["optimal"].as_bool(), v["algorithm"].as_str()),
        (Some(false), Some("near"))
    );
    assert!(v["note"].as_str().unwrap().contains("longer search"), "{v}");
    replays(
        "13 6 8 12 15 14 x 10 11 7 4 5 9 1 3 2",
        Shape::new(4, 4).unwrap(),
        v["moves"].as_str().unwrap(),
    );
    assert!(started.elapsed() < Duration::from_secs(3));

    // Two at once with one slot: one waits past its queue time and is told the server is busy.
    let (a, b) = tokio::join!(s.post("/api/solve", hard.clone()), async {
        tokio::time::sleep(Duration::from_millis(20)).await;
        s.post("/api/solve", hard.clone()).await
    });
    let mut codes = [a.0, b.0];
    codes.sort();
    assert_eq!(codes, [200, 503]);

    // Meanwhile 3x3 requests never wait for a slot.
    let (hard_result, quick) = tokio::join!(s.post("/api/solve", hard), async {
        tokio::time::sleep(Duration::from_millis(50)).await;
        let t = Instant::now();
        let r = s
            .post("/api/solve", json!({"board": "8 6 7 2 5 4 3 x 1"}))
            .await;
        (r, t.elapsed())
    });
    assert_eq!(hard_result.0, 200);
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

/// The API's answers and verdicts are the library's record and verdict, field for field, as
/// `npuzzle solve --format jsonl` and Python's `to_dict()` write them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn solve_and_check_bodies_are_the_librarys_record_and_verdict() {
    let s = Server::start(quiet()).await;
    let boards = [
        "2 3 4 1 5 x 7 6 8",
        "1 2 3 4 5 6 7 8 x",
        "8 6 7 2 5 4 3 x 1",
        "1 2 3 4 5 6 x 7 8",
    ];
    for text in boards {
        let board = Board::parse(text).unwrap();
        let solver = npuzzle::Solver::for_goal(Board::goal(board.shape())).unwrap();
        let outcome = solver.solve(&board).unwrap();
        let (code, mut v) = s.post("/api/solve", json!({ "board": text })).await;
        assert_eq!(code, 200, "{v}");
        let stats = v.as_object_mut().unwrap().remove("stats").unwrap();
        assert!(stats["expanded"].is_u64(), "{stats}");
        assert_eq!(
            v,
            serde_json::to_value(npuzzle::Record::new(&board, &outcome)).unwrap()
        );
        let npuzzle::Outcome::Solved(a) = outcome else {
            panic!("{text}")
        };
        for answer in [
            a.solution.to_letters(),
            "rr".into(),
            "unsolvable".into(),
            "x".into(),
        ] {
            let (code, v) = s
                .post("/api/check", json!({ "board": text, "moves": answer }))
                .await;
            assert_eq!(code, 200, "{v}");
            assert_eq!(
                v,
                serde_json::to_value(solver.judge(&board, &answer)).unwrap(),
                "{text} / {answer}"
            );
        }
    }
    s.stop().await;
}
