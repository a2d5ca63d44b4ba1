//! UVa 716 ("Commedia dell' arte") input: sliding cubes of any number of dimensions, read as a
//! stream of cases and answered with the n-dimensional parity rule
//! ([`crate::parity::is_solvable_nd`]).

use crate::lines::BYTE_ORDER_MARK;
use crate::parity::{MAX_CUBE_CELLS, cell_count, is_solvable_nd};
use crate::parse::{ParseError, ParseErrorKind};

/// One case of a UVa 716 input: where it starts and its answer, or why it has none.
#[derive(Clone, Debug)]
pub struct CubeCase {
    /// 1-based line of the case's edge length.
    pub line: usize,
    /// Whether the arrangement can be solved, or what is wrong with the case.
    pub answer: Result<bool, ParseError>,
}

/// What a [`CubeReader`] yields.
#[derive(Clone, Debug)]
pub enum CubeItem {
    /// A declared case, answered or not.
    Case(CubeCase),
    /// A problem outside any case (a missing count, input past the declared cases, or fewer
    /// cases than declared); it gets no answer.
    Problem(ParseError),
}

/// One whitespace-separated token with the line it is on: a number, or the text (cut short)
/// that is not one.
type Token = (usize, Result<u64, String>);

/// Reads whitespace-separated tokens from a stream, tracking line numbers, in memory bounded
/// by the longest number (a gigabyte on one line is fine).
struct TokenStream<R> {
    input: R,
    line: usize,
    /// Line of the last token read (where a cut-off input is reported).
    last: usize,
    /// The last byte read was a `\r`: a `\n` right after it ends no further line (lines end
    /// as [`crate::lines`] says: `\n`, `\r\n` or a bare `\r`).
    after_cr: bool,
    /// Bytes of a leading UTF-8 byte-order mark matched so far (it is dropped, even when it
    /// arrives over several reads); `None` once past the start.
    mark: Option<usize>,
}

impl<R: std::io::BufRead> TokenStream<R> {
    fn next(&mut self) -> std::io::Result<Option<Token>> {
        const KEEP: usize = 24;
        let mut text: Vec<u8> = Vec::new();
        let mut started_on = 0;
        let mut too_long = false;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                // Input that ends inside what looked like a byte-order mark: those bytes are a
                // token.
                if let Some(matched @ 1..) = self.mark.take() {
                    started_on = self.line;
                    text.extend_from_slice(&BYTE_ORDER_MARK[..matched]);
                }
                break;
            }
            let mut used = 0;
            let mut ended = false;
            for &b in buf {
                if let Some(matched) = self.mark {
                    if b == BYTE_ORDER_MARK[matched] {
                        used += 1;
                        self.mark = (matched + 1 < BYTE_ORDER_MARK.len()).then_some(matched + 1);
                        continue;
                    }
                    // Not a byte-order mark: the bytes that looked like one begin a token.
                    self.mark = None;
                    if matched > 0 {
                        started_on = self.line;
                        text.extend_from_slice(&BYTE_ORDER_MARK[..matched]);
                    }
                }
                if crate::parse::is_space(b) {
                    if started_on > 0 {
                        ended = true;
                        break;
                    }
                    if b == b'\r' || (b == b'\n' && !self.after_cr) {
                        self.line += 1;
                    }
                    self.after_cr = b == b'\r';
                } else {
                    self.after_cr = false;
                    if started_on == 0 {
                        started_on = self.line;
                    }
                    if text.len() < KEEP {
                        text.push(b);
                    } else {
                        too_long = true;
                    }
                }
                used += 1;
            }
            self.input.consume(used);
            if ended {
                break;
            }
        }
        if started_on == 0 {
            return Ok(None);
        }
        let shown = String::from_utf8_lossy(&text).into_owned();
        let value = if too_long {
            Err(format!("{shown}…"))
        } else {
            shown.parse::<u64>().map_err(|_| shown)
        };
        self.last = started_on;
        Ok(Some((started_on, value)))
    }
}

/// Streams the cases of a UVa 716 input: a case count, then for each case an edge length `M`
/// and the `M^d` cells of a `d`-dimensional cube (`d` = 3 in the problem), tokens spread over
/// lines in any way. A bad cell value makes its case an error and the reader goes on with the
/// next case; a bad edge length or a cut-off input ends the reading, with the cases that could
/// not be read reported as one [`CubeItem::Problem`].
pub struct CubeReader<R> {
    tokens: TokenStream<R>,
    dimensions: usize,
    /// Declared count and its line, once read.
    declared: Option<(u64, usize)>,
    cases: u64,
    finished: bool,
}

impl<R: std::io::BufRead> CubeReader<R> {
    /// A reader of `dimensions`-dimensional cubes (3 for UVa 716) over `input`.
    pub fn new(input: R, dimensions: usize) -> CubeReader<R> {
        CubeReader {
            tokens: TokenStream {
                input,
                line: 1,
                last: 1,
                after_cr: false,
                mark: Some(0),
            },
            dimensions: dimensions.max(1),
            declared: None,
            cases: 0,
            finished: false,
        }
    }

    /// A case that cannot be read, after which nothing can be: it is answered with its error.
    fn unreadable(&mut self, line: usize, message: String) -> CubeItem {
        self.finished = true;
        CubeItem::Case(CubeCase {
            line,
            answer: Err(ParseError {
                line,
                kind: ParseErrorKind::Format(message),
            }),
        })
    }

    fn problem(&mut self, line: usize, message: String) -> CubeItem {
        self.finished = true;
        CubeItem::Problem(ParseError {
            line,
            kind: ParseErrorKind::Format(message),
        })
    }

    /// The next case or problem; `None` at the end.
    pub fn next_item(&mut self) -> std::io::Result<Option<CubeItem>> {
        if self.finished {
            return Ok(None);
        }
        let (declared, declared_line) = match self.declared {
            Some(d) => d,
            None => match self.tokens.next()? {
                None => return Ok(Some(self.problem(1, "the input is empty".into()))),
                Some((line, Ok(n))) => {
                    self.declared = Some((n, line));
                    (n, line)
                }
                Some((line, Err(text))) => {
                    return Ok(Some(self.problem(
                        line,
                        format!("expected the number of cases, found `{}`", escape(&text)),
                    )));
                }
            },
        };
        if self.cases == declared {
            self.finished = true;
            return Ok(self.tokens.next()?.map(|(line, _)| {
                CubeItem::Problem(ParseError {
                    line,
                    kind: ParseErrorKind::Format(format!(
                        "input continues after the {declared} case(s) declared on line {declared_line}; the rest is ignored"
                    )),
                })
            }));
        }
        let short = |read: u64| {
            format!(
                "the input declares {declared} case(s) on line {declared_line} but ends after {read}"
            )
        };
        let (line, side) = match self.tokens.next()? {
            None => {
                let message = short(self.cases);
                return Ok(Some(self.problem(self.tokens.last, message)));
            }
            Some((line, Ok(m))) => (line, m),
            Some((line, Err(text))) => {
                self.cases += 1;
                return Ok(Some(self.unreadable(
                    line,
                    format!(
                        "case {}: expected the edge length, found `{}`; cannot read on",
                        self.cases,
                        escape(&text)
                    ),
                )));
            }
        };
        self.cases += 1;
        let sides = vec![usize::try_from(side).unwrap_or(usize::MAX); self.dimensions];
        let n = match cell_count(&sides) {
            Ok(n) => n,
            Err(_) => {
                return Ok(Some(self.unreadable(
                    line,
                    format!(
                        "case {}: edge length {side} is not supported (1 to {} in {} dimensions); cannot read on",
                        self.cases,
                        max_side(self.dimensions),
                        self.dimensions
                    ),
                )));
            }
        };
        // Grown as values arrive: memory follows the input, not the size it declares.
        let mut cells = Vec::new();
        let mut first_bad: Option<ParseError> = None;
        for i in 0..n {
            match self.tokens.next()? {
                None => {
                    let message = format!(
                        "case {}: the input ends after {i} of its {n} cells",
                        self.cases
                    );
                    self.finished = true;
                    return Ok(Some(CubeItem::Case(CubeCase {
                        line,
                        answer: Err(first_bad.unwrap_or(ParseError {
                            line: self.tokens.last,
                            kind: ParseErrorKind::Format(message),
                        })),
                    })));
                }
                Some((_, Ok(v))) if v < n as u64 => cells.push(v as u32),
                Some((at, bad)) => {
                    let what = match bad {
                        Ok(v) => format!("cell value {v} is out of range (0 to {})", n - 1),
                        Err(text) => format!("`{}` is not a cell value", escape(&text)),
                    };
                    first_bad.get_or_insert(ParseError {
                        line: at,
                        kind: ParseErrorKind::Format(format!("case {}: {what}", self.cases)),
                    });
                }
            }
        }
        let answer = match first_bad {
            Some(e) => Err(e),
            None => is_solvable_nd(&sides, &cells).map_err(|e| ParseError {
                line,
                kind: ParseErrorKind::Format(format!("case {}: {e}", self.cases)),
            }),
        };
        Ok(Some(CubeItem::Case(CubeCase { line, answer })))
    }
}

impl<R: std::io::BufRead> Iterator for CubeReader<R> {
    type Item = std::io::Result<CubeItem>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_item().transpose()
    }
}

/// Largest edge length of a `d`-dimensional cube within [`MAX_CUBE_CELLS`].
pub fn max_side(dimensions: usize) -> usize {
    let fits = |m: usize| {
        (0..dimensions)
            .try_fold(1usize, |n, _| {
                n.checked_mul(m).filter(|&n| n <= MAX_CUBE_CELLS)
            })
            .is_some()
    };
    let mut m = (MAX_CUBE_CELLS as f64)
        .powf(1.0 / dimensions.max(1) as f64)
        .floor() as usize
        + 1;
    while m > 1 && !fits(m) {
        m -= 1;
    }
    m.max(1)
}

/// Input text made safe to print: control characters escaped.
fn escape(text: &str) -> String {
    text.chars().flat_map(char::escape_debug).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<String> {
        answers(CubeReader::new(text.as_bytes(), 3))
    }

    fn answers<R: std::io::BufRead>(reader: CubeReader<R>) -> Vec<String> {
        reader
            .map(|item| match item.unwrap() {
                CubeItem::Case(c) => match c.answer {
                    Ok(true) => format!("{}: solvable", c.line),
                    Ok(false) => format!("{}: unsolvable", c.line),
                    Err(e) => format!("case error {e}"),
                },
                CubeItem::Problem(e) => format!("problem {e}"),
            })
            .collect()
    }

    #[test]
    fn reads_the_uva_sample_and_tokens_over_any_lines() {
        assert_eq!(
            read("2\n2\n1 2 3 4 5 7 6 0\n2\n2 1 3 5 4 6 0 7\n"),
            ["2: unsolvable", "4: solvable"]
        );
        assert_eq!(
            read("2 2 1 2\n3 4\n\n 5 7 6 0 2 2 1 3 5 4 6 0\t7"),
            ["1: unsolvable", "4: solvable"]
        );
        assert_eq!(read("1\n1\n0\n"), ["2: solvable"]);
        // Line numbers count `\r\n` and a bare `\r` as one line end each; a byte-order mark
        // opening the input is dropped.
        let sample = "2\n2\n1 2 3 4 5 7 6 0\n2\n2 1 3 5 4 6 0 7\n";
        for ending in ["\r\n", "\r"] {
            let text = format!("\u{feff}{}", sample.replace('\n', ending));
            assert_eq!(read(&text), ["2: unsolvable", "4: solvable"], "{ending:?}");
        }
        // The mark split over reads (a one-byte buffer) is dropped too.
        let text = format!("\u{feff}{sample}");
        let reader = CubeReader::new(std::io::BufReader::with_capacity(1, text.as_bytes()), 3);
        assert_eq!(answers(reader), ["2: unsolvable", "4: solvable"]);
        // Bytes that only begin like the mark are a token's (here not a number).
        for text in [&b"\xEF\xBB2\n2\n1 2 3 4 5 7 6 0\n"[..], b"\xEF\xBB"] {
            let got = answers(CubeReader::new(text, 3));
            assert!(
                got[0].contains("line 1: expected the number of cases"),
                "{got:?}"
            );
        }
    }

    #[test]
    fn bad_cases_are_reported_and_reading_goes_on() {
        let got = read("3\n2\n1 2 3 4 5 7 6 9\n2\n1 2 3 x 5 6 7 0\n2\n2 1 3 5 4 6 0 7\n");
        assert_eq!(got.len(), 3, "{got:?}");
        assert!(
            got[0].contains("line 3: case 1: cell value 9 is out of range"),
            "{got:?}"
        );
        assert!(
            got[1].contains("line 5: case 2: `x` is not a cell value"),
            "{got:?}"
        );
        assert_eq!(got[2], "6: solvable");
        let got = read("2\n2\n1 2 3 4 5 6 7 7\n");
        assert!(got[0].contains("value 7 appears twice"), "{got:?}");
        assert!(
            got[1].contains("declares 2 case(s) on line 1 but ends after 1"),
            "{got:?}"
        );
        let got = read("1\n2\n1 2 3\n");
        assert!(got[0].contains("ends after 3 of its 8 cells"), "{got:?}");
        let got = read("1\n2\n2 1 3 5 4 6 0 7\n5\n");
        assert_eq!(got[0], "2: solvable");
        assert!(
            got[1].contains("line 4: input continues after the 1 case(s)"),
            "{got:?}"
        );
        assert!(read("")[0].contains("empty"));
        assert!(
            read("\x1b[31m")[0].contains("\\u{1b}[31m"),
            "{:?}",
            read("\x1b[31m")
        );
        let got = read("2\n2\n1 2 3 4 5 6 7 0\nabc\n");
        assert!(
            got[1].contains("case 2: expected the edge length"),
            "{got:?}"
        );
        let got = read("2\n300\n");
        assert!(
            got[0].contains("edge length 300 is not supported"),
            "{got:?}"
        );
        assert_eq!(got.len(), 1);
        let long = format!("1\n2\n{}", "9".repeat(1 << 20));
        assert!(read(&long)[0].contains("…` is not a cell value"));
    }

    #[test]
    fn largest_sides() {
        assert_eq!(max_side(3), 256);
        assert_eq!(max_side(2), 4096);
        assert_eq!(max_side(1), MAX_CUBE_CELLS);
        assert_eq!(max_side(24), 2);
    }
}
