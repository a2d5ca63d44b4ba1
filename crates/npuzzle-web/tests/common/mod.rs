//! What the API tests share: a server on a loopback port, and answer replay.
#![allow(dead_code)] // each test binary uses its own part

use npuzzle::{Board, Shape, Solution};
use npuzzle_web::{ServerConfig, serve};
use serde_json::Value;

/// A server running in this process until [`Server::stop`].
pub struct Server {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    handle: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
}

impl Server {
    /// Starts serving `config` on a free loopback port.
    pub async fn start(config: ServerConfig) -> Server {
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

    /// The loopback address (`127.0.0.1:PORT`).
    pub fn addr(&self) -> &str {
        self.base.trim_start_matches("http://")
    }

    /// POSTs JSON; the status and the JSON answer.
    pub async fn post(&self, path: &str, body: Value) -> (u16, Value) {
        let r = reqwest::Client::new()
            .post(format!("{}{path}", self.base))
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap())
    }

    /// GETs; the status and the JSON answer.
    pub async fn get(&self, path: &str) -> (u16, Value) {
        let r = reqwest::get(format!("{}{path}", self.base)).await.unwrap();
        let status = r.status().as_u16();
        (status, r.json().await.unwrap())
    }

    /// Asks the server to stop and waits until it has.
    pub async fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.handle.take().unwrap().await.unwrap().unwrap();
    }
}

/// The default configuration without request logs.
pub fn quiet() -> ServerConfig {
    ServerConfig {
        log_requests: false,
        ..ServerConfig::default()
    }
}

/// Replays `moves` on `board` (blank-last goal), panicking unless they reach the goal; the length.
pub fn replays(board: &str, shape: Shape, moves: &str) -> usize {
    let b = Board::parse_with_shape(board, Some(shape)).unwrap();
    let s = Solution::from_letters(moves).unwrap();
    s.verify(&b, &Board::goal(shape)).unwrap();
    s.len()
}
