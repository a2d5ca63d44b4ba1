//! One client connection before and around HTTP parsing.
//!
//! **The first request's head is read here** (request line and headers, within the header
//! timeout) and checked, so that malformed HTTP, over-long request lines, oversized heads and
//! bad framing headers get the API's documented JSON error instead of the HTTP library's empty
//! one; a head begun but not finished within the timeout gets 408 `header_timeout`, and a
//! connection that sends nothing (or bare line ends) in time is closed. The bytes read are then
//! replayed to the HTTP library ([`ClientIo`]). Later requests on a kept-alive connection are
//! checked by the library (an empty-bodied status for broken HTTP) and by the router's header
//! limit.
//!
//! **Writes have a deadline**: a client that stops reading its responses (a full socket buffer)
//! is cut off after the write timeout instead of holding its connection slot forever.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

/// Longest request line accepted (method, target and version), in bytes.
pub const MAX_REQUEST_LINE: usize = 8 * 1024;

/// Most header lines in a request.
pub const MAX_HEADERS: usize = 96;

/// What is wrong with a connection's first request head.
#[derive(Debug, PartialEq, Eq)]
pub enum HeadProblem {
    /// Not `METHOD target HTTP/1.x`, a malformed header line, or bad framing headers.
    Malformed(&'static str),
    /// A request line longer than [`MAX_REQUEST_LINE`].
    TooLong,
    /// Headers longer than [`crate::MAX_HEADER_BYTES`], or more than [`MAX_HEADERS`].
    HeadersTooLarge,
    /// Part of a head came, but not the whole of it within the header timeout (these seconds).
    TimedOut(Duration),
}

/// How the first request's head turned out.
pub enum Head {
    /// Complete and well-formed: serve the connection (the bytes read are inside).
    Ready(ClientIo),
    /// Wrong: answer with the JSON error and close.
    Rejected(TcpStream, HeadProblem),
    /// Closed, or nothing at all within the timeout: just close.
    Gone,
}

/// Reads the first request's head from `stream` within `timeout` and checks it.
pub async fn read_head(mut stream: TcpStream, timeout: Duration, write_timeout: Duration) -> Head {
    let max = MAX_REQUEST_LINE + crate::MAX_HEADER_BYTES;
    let deadline = Instant::now() + timeout;
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    loop {
        let read = tokio::time::timeout_at(deadline, stream.read(&mut chunk)).await;
        let n = match read {
            Ok(Ok(n)) if n > 0 => n,
            // At the deadline, what was sent is judged once more (a wrong start is said as
            // such). A client that began a request and stalled is told why it is cut off; an
            // idle connection (a browser's spare one, or bare line ends) is closed without a
            // word.
            Err(_) if buf.iter().any(|&b| b != b'\r' && b != b'\n') => {
                let problem = match head_problem(&buf, false) {
                    Some(Some(problem)) => problem,
                    _ => HeadProblem::TimedOut(timeout),
                };
                return Head::Rejected(stream, problem);
            }
            _ => return Head::Gone,
        };
        let before = buf.len();
        buf.extend_from_slice(&chunk[..n]);
        // The head is checked from its start, so only when it can have changed verdict: a new
        // line ended, the method was still being read (the first 64 bytes), or the buffer is
        // full. A client sending one byte at a time then costs at most a scan per line (96
        // lines).
        let full = buf.len() > max;
        if !(full || before < 64 || chunk[..n].contains(&b'\n')) {
            continue;
        }
        match head_problem(&buf, full) {
            None => continue,
            Some(Some(problem)) => return Head::Rejected(stream, problem),
            Some(None) => {
                return Head::Ready(ClientIo {
                    inner: stream,
                    prefix: buf,
                    replayed: 0,
                    write_timeout,
                    stalled: None,
                });
            }
        }
    }
}

/// The verdict on the bytes of a head received so far (`full`: no more will be read): `None`
/// while more are needed, `Some(None)` when the head is fine. Lines may end in CRLF or a bare
/// LF, and empty lines before the request line are skipped (RFC 9112 §2.2).
fn head_problem(bytes: &[u8], full: bool) -> Option<Option<HeadProblem>> {
    use HeadProblem::*;
    let verdict = |p: HeadProblem| Some(Some(p));
    // Refuse at once what cannot become a request line (TLS, SSH, binary).
    let start = bytes
        .iter()
        .position(|&b| b != b'\r' && b != b'\n')
        .unwrap_or(bytes.len());
    let method_end = bytes[start..]
        .iter()
        .position(|b| !is_token(b))
        .map(|i| start + i);
    if let Some(end) = method_end
        && (end == start || bytes[end] != b' ')
    {
        return verdict(Malformed("not an HTTP/1.1 request line"));
    }
    let mut first = true;
    let mut headers = 0;
    let mut lengths: Vec<&[u8]> = Vec::new();
    let mut rest = &bytes[start..];
    loop {
        let Some(nl) = rest.iter().position(|&b| b == b'\n') else {
            return if first && rest.len() > MAX_REQUEST_LINE {
                verdict(TooLong)
            } else if full {
                verdict(if first { TooLong } else { HeadersTooLarge })
            } else {
                None
            };
        };
        let line = rest[..nl].strip_suffix(b"\r").unwrap_or(&rest[..nl]);
        rest = &rest[nl + 1..];
        if first {
            if line.len() > MAX_REQUEST_LINE {
                return verdict(TooLong);
            }
            if !request_line_ok(line) {
                return verdict(Malformed("not an HTTP/1.1 request line"));
            }
            first = false;
            continue;
        }
        if line.is_empty() {
            // End of the head: the framing headers must be unambiguous.
            if lengths.windows(2).any(|w| w[0] != w[1]) {
                return verdict(Malformed("conflicting Content-Length headers"));
            }
            return Some(None);
        }
        headers += 1;
        if headers > MAX_HEADERS {
            return verdict(HeadersTooLarge);
        }
        let Some(colon) = line.iter().position(|&b| b == b':') else {
            return verdict(Malformed("a header line without `name:`"));
        };
        let (name, value) = (&line[..colon], line[colon + 1..].trim_ascii());
        if colon == 0 || !name.iter().all(is_token) {
            return verdict(Malformed("a header name that is not a token"));
        }
        if value.iter().any(|&b| (b < 0x20 && b != b'\t') || b == 0x7f) {
            return verdict(Malformed("a control character in a header value"));
        }
        if name.eq_ignore_ascii_case(b"content-length") {
            if value.is_empty() || value.len() > 19 || !value.iter().all(u8::is_ascii_digit) {
                return verdict(Malformed("Content-Length is not a number"));
            }
            lengths.push(value);
        }
        if name.eq_ignore_ascii_case(b"transfer-encoding")
            && !value.eq_ignore_ascii_case(b"chunked")
        {
            return verdict(Malformed("only the chunked transfer coding is accepted"));
        }
    }
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

fn is_token(b: &u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(b)
}

/// Answers `problem` with its JSON error and closes the connection.
pub async fn reject(mut stream: TcpStream, problem: HeadProblem) {
    let (status, code, message) = match problem {
        HeadProblem::Malformed(what) => ("400 Bad Request", "bad_request", what.to_string()),
        HeadProblem::TooLong => (
            "414 URI Too Long",
            "uri_too_long",
            "the request line is longer than 8 KiB".to_string(),
        ),
        HeadProblem::HeadersTooLarge => (
            "431 Request Header Fields Too Large",
            "headers_too_large",
            "request headers are limited to 16 KiB and 96 lines".to_string(),
        ),
        HeadProblem::TimedOut(limit) => (
            "408 Request Timeout",
            "header_timeout",
            format!(
                "the request line and headers did not arrive within {} s",
                limit.as_secs_f64()
            ),
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

/// A client's socket as the HTTP library sees it: the head already read comes first, and a
/// write that makes no progress for `write_timeout` fails (the client stopped reading).
pub struct ClientIo {
    inner: TcpStream,
    prefix: Vec<u8>,
    replayed: usize,
    write_timeout: Duration,
    stalled: Option<Pin<Box<Sleep>>>,
}

impl ClientIo {
    /// `Pending` from a write: starts or checks the stall clock.
    fn stall(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<usize>> {
        let timeout = self.write_timeout;
        let sleep = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match sleep.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for ClientIo {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        if this.replayed < this.prefix.len() {
            let rest = &this.prefix[this.replayed..];
            let n = rest.len().min(buf.remaining());
            buf.put_slice(&rest[..n]);
            this.replayed += n;
            if this.replayed == this.prefix.len() {
                this.prefix = Vec::new();
                this.replayed = 0;
            }
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for ClientIo {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_write(cx, data) {
            Poll::Pending => this.stall(cx),
            ready => {
                this.stalled = None;
                ready
            }
        }
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.inner).poll_write_vectored(cx, bufs) {
            Poll::Pending => this.stall(cx),
            ready => {
                this.stalled = None;
                ready
            }
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
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
        use HeadProblem::*;
        let ok = b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n";
        assert_eq!(head_problem(ok, false), Some(None));
        // Every strict prefix needs more bytes, and is fine once complete.
        for cut in 1..ok.len() {
            assert_eq!(head_problem(&ok[..cut], false), None, "{cut}");
        }
        // Bare LF and empty lines before the request line are accepted.
        assert_eq!(
            head_problem(b"\r\nGET / HTTP/1.1\nHost: x\n\n", false),
            Some(None)
        );
        let malformed =
            |bytes: &[u8]| matches!(head_problem(bytes, false), Some(Some(Malformed(_))));
        for bad in [
            &b"GET / HTTP/1.1\r\nHost x\r\n\r\n"[..],
            b"GARBAGE\r\n",
            b"\x16\x03\x01\x02\x00",
            b"SSH-2.0-OpenSSH_9.0\r\n",
            b"GET / HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
            b"GET / HTTP/1.1\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            b"GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
            b"GET / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
            b"GET / HTTP/1.1\r\nX-A: a\x00b\r\n\r\n",
        ] {
            assert!(malformed(bad), "{}", String::from_utf8_lossy(bad));
        }
        let long = [b'a'; MAX_REQUEST_LINE + 1];
        assert_eq!(head_problem(&long, false), Some(Some(TooLong)));
        let mut big = b"GET / HTTP/1.1\r\n".to_vec();
        for _ in 0..=MAX_HEADERS {
            big.extend_from_slice(b"X-A: 0\r\n");
        }
        assert_eq!(head_problem(&big, false), Some(Some(HeadersTooLarge)));
    }
}
