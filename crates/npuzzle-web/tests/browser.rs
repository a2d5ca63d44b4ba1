//! The page in a real browser: Debian's Chromium, driven through chromedriver (WebDriver).
//!
//! The server runs in-process on a free loopback port. The test scrambles a 3×3 board, presses
//! Solve, waits for the animation to finish, and checks that the board shown is the goal and
//! that the move counter equals the optimal length (computed here from the complete table). It
//! also plays by keyboard, types bad boards to see the inline errors, pauses and resumes
//! playback, skips through a 10×10 answer, checks that board and answer stay in view at
//! 1280×800, and runs axe-core's accessibility rules on the page (axe is installed by `.ci/run`
//! with npm under `target/axe`). Desktop and phone screenshots are saved under the target
//! directory (and into `docs/` when `NPUZZLE_UPDATE_SCREENSHOT=1`). In CI a missing browser or
//! axe fails the test; elsewhere they are skipped with a message.

use fantoccini::{Client, ClientBuilder, Locator};
use hyper_util::client::legacy::connect::HttpConnector;
use npuzzle::{Board, Shape, table::Table};
use npuzzle_web::{ServerConfig, serve};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap()
}

async fn wait_for<F, Fut>(what: &str, timeout: Duration, mut ready: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    let start = Instant::now();
    while !ready().await {
        assert!(start.elapsed() < timeout, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn attr(c: &Client, css: &str, name: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .attr(name)
        .await
        .unwrap()
        .unwrap_or_default()
}

async fn text(c: &Client, css: &str) -> String {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

/// Types `board` into the board box and loads it, waiting for the server's reading of it.
async fn type_board(c: &Client, board: &str) {
    let read = attr(c, "#board-input", "data-read").await;
    let input = c.find(Locator::Css("#board-input")).await.unwrap();
    input.clear().await.unwrap();
    input.send_keys(board).await.unwrap();
    click(c, "#load").await;
    wait_for(
        "the typed board to be read",
        Duration::from_secs(10),
        || {
            let (c, read) = (c, &read);
            async move { attr(c, "#board-input", "data-read").await != *read }
        },
    )
    .await;
}

/// axe-core's script, from `NPUZZLE_AXE_JS` or where `.ci/run` installs it.
fn axe_script() -> Option<String> {
    let path = std::env::var_os("NPUZZLE_AXE_JS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../target/axe/node_modules/axe-core/axe.min.js")
        });
    let script = std::fs::read_to_string(&path).ok();
    if script.is_none() {
        let in_ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
        assert!(
            !in_ci,
            "axe-core is missing at {}; .ci/run installs it",
            path.display()
        );
        eprintln!(
            "skipping the accessibility check: `npm install --prefix target/axe axe-core@4` enables it"
        );
    }
    script
}

/// Runs axe-core on the page; the violations, one line each.
async fn axe_violations(c: &Client, script: &str) -> Vec<String> {
    c.execute(&format!("{script}\n;return true;"), vec![])
        .await
        .unwrap();
    let found = c
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] })
               .then((r) => done(r.violations.map((v) =>
                  `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)))
               .catch((e) => done([`axe failed: ${e}`]));",
            vec![],
        )
        .await
        .unwrap();
    serde_json::from_value(found).unwrap()
}

/// A Chromium session through chromedriver on `port`, emulating a device of `mobile` metrics
/// (`{"width", "height", "pixelRatio"}`) when given.
async fn browser(port: u16, profile: &Path, mobile: Option<serde_json::Value>) -> Client {
    let mut options = serde_json::json!({
        "binary": CHROMIUM,
        "args": [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
            "--window-size=760,1100",
            format!("--user-data-dir={}", profile.display()),
        ]
    });
    if let Some(metrics) = mobile {
        options["mobileEmulation"] = serde_json::json!({ "deviceMetrics": metrics });
    }
    let caps: serde_json::Map<String, serde_json::Value> =
        serde_json::from_value(serde_json::json!({ "goog:chromeOptions": options })).unwrap();
    let url = format!("http://127.0.0.1:{port}");
    for _ in 0..100 {
        match ClientBuilder::new(HttpConnector::new())
            .capabilities(caps.clone())
            .connect(&url)
            .await
        {
            Ok(c) => return c,
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    panic!("cannot connect to chromedriver on {url}");
}

/// Resizes the window so that the page's viewport (not the window) is `width`×`height`.
async fn set_viewport(c: &Client, width: u32, height: u32) {
    c.set_window_size(width, height).await.unwrap();
    let chrome = js(
        c,
        "return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]",
    )
    .await;
    let dw = chrome[0].as_u64().unwrap_or(0) as u32;
    let dh = chrome[1].as_u64().unwrap_or(0) as u32;
    c.set_window_size(width + dw, height + dh).await.unwrap();
}

/// Sets the control `id` to `value` as a user would (with its `event`).
async fn choose(c: &Client, id: &str, value: &str, event: &str) {
    let script = format!(
        "const s = document.getElementById('{id}'); s.value = '{value}'; \
         s.dispatchEvent(new Event('{event}')); return true;"
    );
    js(c, &script).await;
}

async fn js(c: &Client, script: &str) -> serde_json::Value {
    c.execute(script, vec![]).await.unwrap()
}

/// Saves a screenshot under the target directory, and into `docs/` (for the README) when
/// `publish` and `NPUZZLE_UPDATE_SCREENSHOT` is set.
async fn screenshot(c: &Client, name: &str, publish: bool) {
    let png = c.screenshot().await.unwrap();
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&out, &png).unwrap();
    if publish && std::env::var("NPUZZLE_UPDATE_SCREENSHOT").is_ok() {
        let docs = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs")
            .join(name);
        std::fs::write(docs, &png).unwrap();
    }
    eprintln!("screenshot: {}", out.display());
}

fn browser_available() -> bool {
    let present = Path::new(CHROMIUM).exists() && Path::new(CHROMEDRIVER).exists();
    if !present {
        let in_ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false");
        assert!(
            !in_ci,
            "Chromium or chromedriver is missing ({CHROMIUM}, {CHROMEDRIVER}); .ci/run installs them"
        );
        eprintln!("skipping the browser test: install chromium and chromium-driver to run it");
    }
    present
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    browser_missing,
    ignore = "chromium and chromium-driver are not installed (apt-get install chromium chromium-driver)"
)]
async fn scramble_solve_play_and_errors_in_chromium() {
    if !browser_available() {
        return;
    }
    // The server.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let config = ServerConfig {
        log_requests: false,
        ..ServerConfig::default()
    };
    let server = tokio::spawn(serve(listener, config, async {
        let _ = stopped.await;
    }));

    // The browser.
    let port = free_port();
    let _driver = Driver(
        Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver"),
    );
    let profile = std::env::temp_dir().join(format!("npuzzle-chromium-{}", std::process::id()));
    let c = browser(port, &profile, None).await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    let goal = "1 2 3 4 5 6 7 8 x";
    assert_eq!(attr(&c, "#board", "data-state").await, goal);
    // The first words are an invitation, not a report of a reset.
    assert_eq!(
        text(&c, "#status").await,
        "Scramble the board, or type one below."
    );
    click(&c, "#reset").await;
    assert_eq!(
        text(&c, "#status").await,
        "Back at the goal. Scramble to play again."
    );
    let axe = axe_script();
    if let Some(script) = &axe {
        let found = axe_violations(&c, script).await;
        assert!(
            found.is_empty(),
            "accessibility violations:\n{}",
            found.join("\n")
        );
    }

    // Scramble, remember the board, solve, watch.
    click(&c, "#scramble").await;
    wait_for("the scramble", Duration::from_secs(10), || {
        let c = &c;
        async move { attr(c, "#board", "data-state").await != goal }
    })
    .await;
    let scrambled = attr(&c, "#board", "data-state").await;
    assert_eq!(text(&c, "#move-count").await, "0");
    let table = Table::build(&Board::goal(Shape::new(3, 3).unwrap())).unwrap();
    let optimal = table
        .distance(&Board::parse(&scrambled).unwrap())
        .expect("scrambles are solvable") as usize;

    // Slow playback first: Solve again while it plays, pause, resume, skip to the end.
    choose(&c, "speed", "0", "input").await;
    click(&c, "#solve").await;
    wait_for("playback to start", Duration::from_secs(10), || {
        let c = &c;
        async move { text(c, "#status").await.contains("Playing") }
    })
    .await;
    click(&c, "#solve").await; // the answer is here: Solve leaves playback running
    assert_eq!(text(&c, "#play").await, "Pause");
    assert!(text(&c, "#status").await.contains("Playing"));
    click(&c, "#play").await; // pause
    let paused = text(&c, "#status").await;
    assert!(paused.starts_with("Paused at"), "{paused}");
    assert_eq!(text(&c, "#play").await, "Play");
    let played: usize = text(&c, "#move-count").await.parse().unwrap();
    assert_eq!(
        js(
            &c,
            "return document.querySelectorAll('#moves span.current').length"
        )
        .await
        .as_u64(),
        Some(1),
        "one move is highlighted"
    );
    assert_eq!(
        js(
            &c,
            "return document.querySelectorAll('#moves span.done').length"
        )
        .await
        .as_u64(),
        Some(played as u64)
    );
    click(&c, "#play").await; // resume
    assert!(text(&c, "#status").await.contains("Playing"));
    click(&c, "#end").await;
    wait_for("the end of the solution", Duration::from_secs(10), || {
        let c = &c;
        async move {
            attr(c, "#board", "data-solved").await == "true" && text(c, "#play").await == "Play"
        }
    })
    .await;
    assert_eq!(attr(&c, "#board", "data-state").await, goal);
    let length: usize = text(&c, "#solution-length").await.parse().unwrap();
    assert_eq!(length, optimal, "the page's solution is optimal");
    assert_eq!(text(&c, "#move-count").await, optimal.to_string());
    let done = text(&c, "#status").await;
    assert!(done.contains(&format!("{optimal} moves")), "{done}");
    assert_eq!(text(&c, "#optimal").await, "optimal");
    // Back to the start replays from the scrambled board.
    click(&c, "#restart").await;
    assert_eq!(attr(&c, "#board", "data-state").await, scrambled);
    assert_eq!(text(&c, "#move-count").await, "0");
    // Fast playback to the end.
    choose(&c, "speed", "7", "input").await;
    click(&c, "#play").await;
    wait_for("the solution to play out", Duration::from_secs(30), || {
        let c = &c;
        async move {
            attr(c, "#board", "data-solved").await == "true" && text(c, "#play").await == "Play"
        }
    })
    .await;
    assert_eq!(text(&c, "#move-count").await, optimal.to_string());
    // The tiles on screen stand where the state says: tile 8 is left of the gap.
    let tile8 = attr(&c, ".tile[data-tile='8']", "style").await;
    assert!(tile8.contains("translate(100%, 200%)"), "{tile8}");
    screenshot(&c, "web-solved.png", false).await;

    // Keyboard: one arrow key solves a board one move away.
    type_board(&c, "1 2 3 4 5 6 7 x 8").await;
    assert_eq!(text(&c, "#error").await, "");
    c.find(Locator::Css("body"))
        .await
        .unwrap()
        .send_keys("\u{E012}") // ArrowLeft: tile 8 slides left into the gap
        .await
        .unwrap();
    wait_for("the keyboard move", Duration::from_secs(5), || {
        let c = &c;
        async move { attr(c, "#board", "data-solved").await == "true" }
    })
    .await;
    assert_eq!(text(&c, "#move-count").await, "1");
    assert_eq!(text(&c, "#status").await, "Solved in 1 move.");

    // A 2x2 board typed in: the size follows, and a solved board is called solved.
    type_board(&c, "1 2 3 x").await;
    assert_eq!(
        js(&c, "return document.getElementById('size').value")
            .await
            .as_str(),
        Some("2x2")
    );
    assert!(text(&c, "#status").await.contains("already solved"));
    type_board(&c, goal).await;

    // Bad input is explained inline and leaves the board alone.
    for (bad, says) in [
        ("1 2 3 4 5 6 7 7 x", "appears twice"),
        ("2 1 3 4 5 6 7 8 x", "cannot reach the goal"),
        ("1 2 3 q 5 6 7 8 x", "is not a tile"),
        ("1 2 3 4 5", "5 tiles make no board"),
    ] {
        type_board(&c, bad).await;
        let error = text(&c, "#error").await;
        assert!(error.contains(says), "{bad}: {error}");
        assert_eq!(attr(&c, "#board", "data-state").await, goal);
    }

    // Commas, semicolons and pasted no-break spaces separate tiles too.
    type_board(&c, "2 3 4;1,5\u{a0}x 7 6 8").await;
    assert_eq!(text(&c, "#error").await, "");
    assert_eq!(attr(&c, "#board", "data-state").await, "2 3 4 1 5 x 7 6 8");
    type_board(&c, goal).await;

    // A 4x4 board typed in switches the size; Solve answers it through the API.
    type_board(&c, "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15").await;
    assert_eq!(
        attr(&c, "#board", "data-state").await,
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15"
    );
    click(&c, "#solve").await;
    wait_for("the 4x4 solution", Duration::from_secs(30), || {
        let c = &c;
        async move { attr(c, "#board", "data-solved").await == "true" }
    })
    .await;
    assert_eq!(text(&c, "#solution-length").await, "1");

    // An answer that arrives after the board changed is dropped, not played on the new board.
    type_board(&c, "10 11 8 12 13 9 2 6 3 5 7 4 x 15 14 1").await;
    click(&c, "#solve").await;
    click(&c, "#reset").await;
    wait_for(
        "the late answer to be dropped",
        Duration::from_secs(60),
        || {
            let c = &c;
            async move { text(c, "#status").await.contains("board changed") }
        },
    )
    .await;
    assert_eq!(
        attr(&c, "#board", "data-state").await,
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x"
    );

    // A 10x10 answer (a thousand moves and more) at 1280x800: the move list is a scrolled box,
    // board and answer stay in view, and End skips the playback.
    set_viewport(&c, 1280, 800).await;
    choose(&c, "speed", "3", "input").await;
    choose(&c, "size", "10x10", "change").await;
    click(&c, "#scramble").await;
    wait_for("the 10x10 scramble", Duration::from_secs(10), || {
        let c = &c;
        async move { text(c, "#status").await.starts_with("Scrambled") }
    })
    .await;
    let big = attr(&c, "#board", "data-state").await;
    click(&c, "#solve").await;
    wait_for("the 10x10 answer", Duration::from_secs(30), || {
        let c = &c;
        async move {
            !text(c, "#solution-length").await.is_empty()
                && text(c, "#status").await.contains("Playing")
        }
    })
    .await;
    let n = js(&c, "return document.querySelectorAll('#moves span').length")
        .await
        .as_u64()
        .unwrap();
    assert!(n > 300, "{n} moves");
    // A long answer starts faster than the chosen 8 moves/s.
    let fast: u64 = js(&c, "return document.getElementById('speed').value")
        .await
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(fast > 3, "speed {fast}");
    // Arrow keys in the move list scroll it; they do not move tiles.
    let before = attr(&c, "#board", "data-state").await;
    click(&c, "#play").await; // pause
    let before_moves = text(&c, "#move-count").await;
    c.find(Locator::Css("#moves"))
        .await
        .unwrap()
        .send_keys("\u{E015}") // ArrowDown
        .await
        .unwrap();
    assert_eq!(text(&c, "#move-count").await, before_moves);
    assert_ne!(attr(&c, "#board", "data-state").await, before); // it had played a little
    assert!(
        !text(&c, "#solution-length").await.is_empty(),
        "the answer is kept"
    );
    click(&c, "#play").await; // resume
    assert_eq!(text(&c, "#optimal").await, "not optimal");
    // From the top of the page, without scrolling.
    let in_view = js(
        &c,
        "window.scrollTo(0, 0);
         const b = document.getElementById('board').getBoundingClientRect();
         const r = document.getElementById('moves').getBoundingClientRect();
         return b.bottom <= innerHeight && r.bottom <= innerHeight && r.top >= 0;",
    )
    .await;
    assert_eq!(
        in_view,
        serde_json::json!(true),
        "board and answer in view at 1280x800"
    );
    screenshot(&c, "web-desktop.png", true).await;
    click(&c, "#end").await;
    wait_for("the 10x10 board solved", Duration::from_secs(10), || {
        let c = &c;
        async move { attr(c, "#board", "data-solved").await == "true" }
    })
    .await;
    assert_eq!(text(&c, "#move-count").await, n.to_string());
    click(&c, "#restart").await;
    assert_eq!(attr(&c, "#board", "data-state").await, big);
    if let Some(script) = &axe {
        let found = axe_violations(&c, script).await;
        assert!(
            found.is_empty(),
            "accessibility violations:\n{}",
            found.join("\n")
        );
    }
    // The next, short answer plays at the chosen speed again.
    choose(&c, "size", "3x3", "change").await;
    type_board(&c, "1 2 3 4 5 6 x 7 8").await;
    click(&c, "#solve").await;
    wait_for("the short answer", Duration::from_secs(10), || {
        let c = &c;
        async move { attr(c, "#board", "data-solved").await == "true" }
    })
    .await;
    assert_eq!(
        js(&c, "return document.getElementById('speed').value")
            .await
            .as_str(),
        Some("3")
    );
    // On a phone (390x844, emulated in a second session) the page stays short: the long
    // answer is a scrolled box.
    c.close().await.unwrap();
    let phone_metrics = serde_json::json!({"width": 390, "height": 844, "pixelRatio": 1.0});
    let c = browser(port, &profile, Some(phone_metrics)).await;
    c.goto(&format!("http://{addr}/")).await.unwrap();
    type_board(&c, &big).await;
    click(&c, "#solve").await;
    wait_for(
        "the 10x10 answer on the phone",
        Duration::from_secs(30),
        || {
            let c = &c;
            async move { text(c, "#status").await.contains("Playing") }
        },
    )
    .await;
    click(&c, "#play").await;
    assert_eq!(
        js(&c, "return [innerWidth, innerHeight]").await,
        serde_json::json!([390, 844])
    );
    let height = js(&c, "return document.documentElement.scrollHeight")
        .await
        .as_f64()
        .unwrap();
    assert!(height < 2200.0, "phone page {height} px tall");
    let wide = js(&c, "return document.documentElement.scrollWidth")
        .await
        .as_f64()
        .unwrap();
    assert!(wide <= 390.0, "phone page {wide} px wide");
    js(&c, "window.scrollTo(0, 0); return true").await;
    // The board and the playback fit the first screen, the five playback buttons on one row.
    let rows = js(
        &c,
        "return new Set([...document.querySelectorAll('.player button')]\
           .map(b => Math.round(b.getBoundingClientRect().top))).size",
    )
    .await;
    assert_eq!(
        rows,
        serde_json::json!(1),
        "playback buttons wrap on a phone"
    );
    let bottom = js(
        &c,
        "return document.querySelector('.player').getBoundingClientRect().bottom",
    )
    .await
    .as_f64()
    .unwrap();
    assert!(
        bottom <= 844.0,
        "playback ends at {bottom} px, below the first screen"
    );
    screenshot(&c, "web-phone.png", true).await;
    if let Some(script) = &axe {
        let found = axe_violations(&c, script).await;
        assert!(
            found.is_empty(),
            "accessibility violations:\n{}",
            found.join("\n")
        );
    }

    c.close().await.unwrap();
    let _ = stop.send(());
    server.await.unwrap().unwrap();
    let _ = std::fs::remove_dir_all(&profile);
}
