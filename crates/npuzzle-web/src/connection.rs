//! Guards on a connection before HTTP parsing: the first request's head (request line and
//! headers) is read (peeked, not consumed) and checked, so that malformed HTTP, over-long
//! request lines and oversized heads get the API's documented JSON error instead of the HTTP
//! library's empty one. Later requests on a kept-alive connection are checked by the library
//! and by the router's header limit.

use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

/// Longest request line accepted (method, target and version), in bytes.
pub const MAX_REQUEST_LINE: usize = 8 * 1024;

/// What is wrong with a connection's first request head.
#[derive(Debug, PartialEq, Eq)]
pub enum LineProblem {
    /// Not `METHOD target HTTP/1.x`, or a header line without `name:`.
    Malformed,
    /// A request line longer than [`MAX_REQUEST_LINE`].
    TooLong,
    /// Headers longer than [`crate::MAX_HEADER_BYTES`].
    HeadersTooLarge,
}

/// Waits (up to `timeout`) for the first request's head on `stream` and checks it, without
/// consuming anything. `None` when it is fine, or when the client sent nothing usable in time
/// (the HTTP library's own header timeout then closes the connection).
pub async fn first_line_problem(stream: &TcpStream, timeout: Duration) -> Option<LineProblem> {
    let max = MAX_REQUEST_LINE + crate::MAX_HEADER_BYTES;
    let mut buf = vec![0u8; max + 4];
    let start = Instant::now();
    let mut seen = 0;
    loop {
        let n = match tokio::time::timeout(timeout, stream.peek(&mut buf)).await {
            Ok(Ok(n)) => n,
            _ => return None,
        };
        if n == 0 {
            return None; // closed
        }
        if let Some(problem) = head_problem(&buf[..n], n > max) {
            return problem;
        }
        // The head is not complete yet: wait for more bytes (peek returns at once while any
        // are buffered, so pause instead of spinning), within the timeout.
        if start.elapsed() >= timeout {
            return None;
        }
        if n == seen {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        seen = n;
    }
}

/// The verdict on the bytes of a head received so far (`full`: no more will be looked at):
/// `None` while more are needed, `Some(None)` when the head is fine.
fn head_problem(bytes: &[u8], full: bool) -> Option<Option<LineProblem>> {
    let mut lines = bytes.split(|&b| b == b'\n');
    let mut consumed = 0;
    let mut first = true;
    loop {
        let line = lines.next()?;
        let is_last = consumed + line.len() >= bytes.len();
        if is_last {
            // No newline yet after this line.
            return if first && line.len() > MAX_REQUEST_LINE {
                Some(Some(LineProblem::TooLong))
            } else if full {
                Some(Some(if first {
                    LineProblem::TooLong
                } else {
                    LineProblem::HeadersTooLarge
                }))
            } else {
                None
            };
        }
        consumed += line.len() + 1;
        let Some(line) = line.strip_suffix(b"\r") else {
            return Some(Some(LineProblem::Malformed));
        };
        if first {
            if line.len() > MAX_REQUEST_LINE {
                return Some(Some(LineProblem::TooLong));
            }
            if !request_line_ok(line) {
                return Some(Some(LineProblem::Malformed));
            }
            first = false;
        } else if line.is_empty() {
            return Some(None); // end of the head
        } else if !header_line_ok(line) {
            return Some(Some(LineProblem::Malformed));
        } else if consumed > MAX_REQUEST_LINE + crate::MAX_HEADER_BYTES {
            return Some(Some(LineProblem::HeadersTooLarge));
        }
    }
}

/// Whether `line` is `name: value` with a token name.
fn header_line_ok(line: &[u8]) -> bool {
    match line.iter().position(|&b| b == b':') {
        Some(colon) if colon > 0 => line[..colon].iter().all(is_token),
        _ => false,
    }
}

fn is_token(b: &u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(b)
}

/// Whether `line` is `METHOD SP target SP HTTP/1.0|1.1` with a token method.
fn request_line_ok(line: &[u8]) -> bool {
    let mut parts = line.split(|&b| b == b' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    !method.is_empty()
        && method.iter().all(is_token)
        && !target.is_empty()
        && target.iter().all(|b| b.is_ascii_graphic())
        && (version == b"HTTP/1.1" || version == b"HTTP/1.0")
}

/// Answers `problem` with its JSON error and closes the connection.
pub async fn reject(mut stream: TcpStream, problem: LineProblem) {
    let (status, code, message) = match problem {
        LineProblem::Malformed => (
            "400 Bad Request",
            "bad_request",
            "not an HTTP/1.1 request (malformed request line or header)",
        ),
        LineProblem::TooLong => (
            "414 URI Too Long",
            "uri_too_long",
            "the request line is longer than 8 KiB",
        ),
        LineProblem::HeadersTooLarge => (
            "431 Request Header Fields Too Large",
            "headers_too_large",
            "request headers are limited to 16 KiB",
        ),
    };
    let body = serde_json::json!({ "error": code, "message": message }).to_string();
    let response = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         connection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(2), async {
        let _ = stream.write_all(response.as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_lines() {
        assert!(request_line_ok(b"GET / HTTP/1.1"));
        assert!(request_line_ok(b"POST /api/solve?x=1 HTTP/1.0"));
        for bad in [
            &b"GARBAGE"[..],
            b"GET /",
            b"GET  / HTTP/1.1",
            b"GET / HTTP/2.0",
            b"G(T / HTTP/1.1",
            b"GET / HTTP/1.1 x",
            b"",
        ] {
            assert!(!request_line_ok(bad), "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn heads() {
        let ok = b"GET / HTTP/1.1\r\nHost: x\r\n\r\n";
        assert_eq!(head_problem(ok, false), Some(None));
        // Every strict prefix needs more bytes, and is fine once complete.
        for cut in 1..ok.len() {
            assert_eq!(head_problem(&ok[..cut], false), None, "{cut}");
        }
        assert_eq!(
            head_problem(b"GET / HTTP/1.1\r\nHost x\r\n\r\n", false),
            Some(Some(LineProblem::Malformed))
        );
        assert_eq!(
            head_problem(b"GARBAGE\r\n", false),
            Some(Some(LineProblem::Malformed))
        );
        assert_eq!(
            head_problem(b"GET / HTTP/1.1\n", false),
            Some(Some(LineProblem::Malformed))
        );
        let long = [b'a'; MAX_REQUEST_LINE + 1];
        assert_eq!(head_problem(&long, false), Some(Some(LineProblem::TooLong)));
        let mut big = b"GET / HTTP/1.1\r\n".to_vec();
        while big.len() <= MAX_REQUEST_LINE + crate::MAX_HEADER_BYTES {
            big.extend_from_slice(b"X-A: 0123456789012345678901234567890123456789\r\n");
        }
        assert_eq!(
            head_problem(&big, false),
            Some(Some(LineProblem::HeadersTooLarge))
        );
    }
}
