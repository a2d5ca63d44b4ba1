//! Lines of text as users' files hold them, read in bounded memory.
//!
//! Files end their lines with `\n` (Unix), `\r\n` (Windows) or a bare `\r` (classic Mac OS, and
//! some spreadsheet and terminal exports). All three end a line here, so a line number is the one
//! an editor shows, whichever wrote the file; a bare `\r` read as part of a line would instead
//! merge a whole file into one line. A line longer than the caller's limit is skipped, not kept,
//! so a multi-megabyte junk line costs no memory. A UTF-8 byte-order mark opening the input (as
//! Windows editors write) is dropped.
//!
//! Every reader of line-structured user text reads through [`Lines`]: the judge conventions
//! ([`crate::judge::JudgeReader`]), [`crate::Board::parse`], and the answers `npuzzle check`
//! judges. The UVa 716 cube reader ([`crate::cube`]) streams tokens instead (a cube's cells may
//! fill a gigabyte on one line), and counts its lines by the same three endings.
//!
//! An ending written the wrong way round, `\n\r`, is a line end and then another (an empty
//! line).

use std::io::{self, BufRead};

/// The UTF-8 byte-order mark.
pub(crate) const BYTE_ORDER_MARK: &[u8] = &[0xEF, 0xBB, 0xBF];

/// What [`Lines::read`] found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line, now in the buffer (without its ending).
    Line,
    /// A line longer than the limit: skipped, the buffer left empty.
    TooLong,
}

/// Splits a byte stream into numbered lines at `\n`, `\r\n` or a bare `\r`.
///
/// ```
/// use npuzzle::lines::{LineRead, Lines};
/// let mut lines = Lines::new(&b"1 2\r3 4\r\n\nx"[..]);
/// let mut buf = Vec::new();
/// let mut got = Vec::new();
/// while let Some(LineRead::Line) = lines.read(&mut buf, 100).unwrap() {
///     got.push((lines.number(), String::from_utf8(buf.clone()).unwrap()));
/// }
/// assert_eq!(got, [(1, "1 2".into()), (2, "3 4".into()), (3, "".into()), (4, "x".into())]);
/// ```
pub struct Lines<R> {
    input: R,
    /// The last line ended in `\r`: a `\n` right after it belongs to that ending.
    after_cr: bool,
    /// Lines read so far.
    number: usize,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `input`, none read yet.
    pub fn new(input: R) -> Lines<R> {
        Lines {
            input,
            after_cr: false,
            number: 0,
        }
    }

    /// The number of the line read last (1 for the first; 0 before any).
    pub fn number(&self) -> usize {
        self.number
    }

    /// Reads the next line into `buf` (cleared first), without its ending, keeping at most
    /// `max` bytes: a longer line is consumed whole and reported as [`LineRead::TooLong`].
    /// `None` at the end of the input. Never waits for more input than the line itself: a
    /// line ended by `\r` is returned before the next byte (a `\n` or not) arrives.
    pub fn read(&mut self, buf: &mut Vec<u8>, max: usize) -> io::Result<Option<LineRead>> {
        buf.clear();
        let mut any = false;
        let mut too_long = false;
        loop {
            let avail = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if std::mem::take(&mut self.after_cr) && avail.first() == Some(&b'\n') {
                self.input.consume(1);
                continue;
            }
            if avail.is_empty() {
                if !any {
                    return Ok(None);
                }
                break;
            }
            any = true;
            let end = memchr::memchr2(b'\n', b'\r', avail);
            let chunk = &avail[..end.unwrap_or(avail.len())];
            if !too_long {
                if buf.len() + chunk.len() > max {
                    too_long = true;
                    buf.clear();
                } else {
                    buf.extend_from_slice(chunk);
                }
            }
            match end {
                Some(i) => {
                    self.after_cr = avail[i] == b'\r';
                    self.input.consume(i + 1);
                    break;
                }
                None => {
                    let n = avail.len();
                    self.input.consume(n);
                }
            }
        }
        self.number += 1;
        if self.number == 1 && buf.starts_with(BYTE_ORDER_MARK) {
            buf.drain(..BYTE_ORDER_MARK.len());
        }
        Ok(Some(if too_long {
            LineRead::TooLong
        } else {
            LineRead::Line
        }))
    }

    /// The same lines, reading on from `f(input)` (which must yield the bytes `input` would
    /// have: a wrapper around it).
    pub(crate) fn map_input<S: BufRead>(self, f: impl FnOnce(R) -> S) -> Lines<S> {
        Lines {
            input: f(self.input),
            after_cr: self.after_cr,
            number: self.number,
        }
    }
}

/// Input that holds some bytes and then fails instead of waiting for more: a reader that
/// reads past what it needs fails on it.
#[cfg(test)]
pub(crate) struct ThenFail(pub &'static [u8]);

#[cfg(test)]
impl io::Read for ThenFail {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        Err(io::Error::other("read past the bytes given"))
    }
}

#[cfg(test)]
impl BufRead for ThenFail {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.0.is_empty() {
            Err(io::Error::other("waited for more input"))
        } else {
            Ok(self.0)
        }
    }
    fn consume(&mut self, n: usize) {
        self.0 = &self.0[n..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufReader;

    /// Every line of `text` (`None` for a line too long), read through buffers of every size
    /// from 1 byte up, so that each ending is met split across two reads too.
    fn lines(text: &[u8], max: usize) -> Vec<Option<String>> {
        let mut first = None;
        for capacity in 1..=text.len().max(1) {
            let mut lines = Lines::new(BufReader::with_capacity(capacity, text));
            let (mut buf, mut got) = (Vec::new(), Vec::new());
            while let Some(r) = lines.read(&mut buf, max).unwrap() {
                assert_eq!(lines.number(), got.len() + 1);
                got.push((r == LineRead::Line).then(|| String::from_utf8(buf.clone()).unwrap()));
            }
            match &first {
                None => first = Some(got),
                Some(f) => assert_eq!(&got, f, "buffer of {capacity} bytes"),
            }
        }
        first.unwrap()
    }

    fn some(v: &[&str]) -> Vec<Option<String>> {
        v.iter().map(|s| Some(s.to_string())).collect()
    }

    #[test]
    fn all_three_line_endings_end_a_line() {
        assert_eq!(lines(b"a\nb\r\nc\rd", 100), some(&["a", "b", "c", "d"]));
        assert_eq!(lines(b"a\r\rb\r", 100), some(&["a", "", "b"]));
        assert_eq!(lines(b"a\r\n\r\nb\n\n", 100), some(&["a", "", "b", ""]));
        assert_eq!(lines(b"\n\r\n\r", 100), some(&["", "", ""]));
        assert_eq!(lines(b"a\n\rb", 100), some(&["a", "", "b"]));
        assert_eq!(lines(b"", 100), some(&[]));
    }

    #[test]
    fn long_lines_are_skipped_whole() {
        let text = b"abc\rabcdef\r\nab\nabcd";
        assert_eq!(
            lines(text, 3),
            [Some("abc".into()), None, Some("ab".into()), None]
        );
    }

    #[test]
    fn a_leading_byte_order_mark_is_dropped() {
        assert_eq!(
            lines(b"\xEF\xBB\xBF1 2\r\xEF\xBB\xBF", 100),
            [Some("1 2".into()), Some("\u{feff}".into())]
        );
    }

    #[test]
    fn a_line_ended_by_cr_needs_no_further_byte() {
        let mut lines = Lines::new(ThenFail(b"1 2 3\r"));
        let mut buf = Vec::new();
        assert_eq!(lines.read(&mut buf, 100).unwrap(), Some(LineRead::Line));
        assert_eq!(buf, b"1 2 3");
        assert!(lines.read(&mut buf, 100).is_err());
    }
}
