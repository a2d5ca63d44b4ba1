//! The three judge conventions of the Eight problem, read as a stream of boards.
//!
//! - **POJ 1077**: a single board (possibly over several lines).
//! - **HDU 1043**: one board per line until end of input.
//! - **UVa 652**: a count N, a blank line, then N datasets separated by blank lines; each
//!   dataset is one board, possibly over several lines. Answers are separated by a blank line.
//!
//! [`JudgeReader`] detects the convention from the first non-blank line (a lone number starts a
//! UVa input; a line holding a whole board means one board per line; otherwise boards span
//! lines and are separated by blank lines), then yields one [`Puzzle`] per board, in order,
//! each with its input line and either the board or the reason it was rejected. Lines are read
//! with a length limit, so a multi-megabyte junk line is skipped in bounded memory.

use crate::board::{Board, Shape};
use crate::parse::{ParseError, ParseErrorKind, TileCollector, tokens};
use std::collections::VecDeque;
use std::io::{self, BufRead};

/// A judge input/output convention.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// POJ 1077: one board, tokens possibly over several lines.
    Poj,
    /// HDU 1043: one board per line until end of input.
    Hdu,
    /// UVa 652: count, blank line, datasets separated by blank lines; answers separated by a blank line.
    Uva,
}

impl Format {
    /// The convention's name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Poj => "poj",
            Format::Hdu => "hdu",
            Format::Uva => "uva",
        }
    }

    /// Whether answers are separated by an empty line (UVa) rather than just a newline.
    pub fn blank_line_between_answers(self) -> bool {
        self == Format::Uva
    }
}

/// Default longest line accepted (bytes); a 256×256 board fits with room to spare.
pub const DEFAULT_MAX_LINE: usize = 1 << 20;

/// How to read the input.
#[derive(Copy, Clone, Debug)]
pub struct ReaderOptions {
    /// Force a convention; `None` detects it.
    pub format: Option<Format>,
    /// Board shape; `None` infers a square board from the tile count.
    pub shape: Option<Shape>,
    /// Longest line accepted, in bytes.
    pub max_line: usize,
}

impl Default for ReaderOptions {
    fn default() -> Self {
        ReaderOptions {
            format: None,
            shape: None,
            max_line: DEFAULT_MAX_LINE,
        }
    }
}

/// One board read from the input, or why the text at that place is not a board.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// 1-based line where the board starts.
    pub line: usize,
    /// The board, or the problem with it.
    pub board: Result<Board, ParseError>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mode {
    /// Nothing read yet.
    Start,
    /// Each non-blank line is one board.
    Lines,
    /// Boards span lines; a blank line (or a full board) ends one.
    Blocks,
}

/// Streams boards out of judge-format input. See the module docs for the detection rules.
pub struct JudgeReader<R> {
    input: R,
    options: ReaderOptions,
    detected: Option<Format>,
    mode: Mode,
    line_no: usize,
    buf: Vec<u8>,
    line_too_long: bool,
    collector: TileCollector,
    /// Tiles expected per board in block mode, once known.
    block_target: Option<usize>,
    /// UVa: declared dataset count and the line it was on.
    declared: Option<(u64, usize)>,
    datasets: u64,
    /// Block mode: a board of the current block was already emitted (stacked boards).
    block_has_output: bool,
    pending: VecDeque<Puzzle>,
    finished: bool,
}

impl<R: BufRead> JudgeReader<R> {
    /// A reader over `input`.
    pub fn new(input: R, options: ReaderOptions) -> JudgeReader<R> {
        JudgeReader {
            input,
            options,
            detected: options.format,
            mode: Mode::Start,
            line_no: 0,
            buf: Vec::new(),
            line_too_long: false,
            collector: TileCollector::new(),
            block_target: options.shape.map(Shape::cells),
            declared: None,
            datasets: 0,
            block_has_output: false,
            pending: VecDeque::new(),
            finished: false,
        }
    }

    /// The convention in use: forced, or detected from the first non-blank line.
    pub fn format(&self) -> Option<Format> {
        self.detected
    }

    /// Reads one line into `buf` (without the newline), keeping at most `max_line` bytes.
    /// Returns `false` at end of input.
    fn next_line(&mut self) -> io::Result<bool> {
        self.buf.clear();
        self.line_too_long = false;
        let mut any = false;
        loop {
            let avail = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                if any {
                    self.line_no += 1;
                }
                return Ok(any);
            }
            any = true;
            let newline = memchr::memchr(b'\n', avail);
            let chunk = &avail[..newline.unwrap_or(avail.len())];
            if !self.line_too_long {
                if self.buf.len() + chunk.len() > self.options.max_line {
                    self.line_too_long = true;
                    self.buf.clear();
                } else {
                    self.buf.extend_from_slice(chunk);
                }
            }
            let used = newline.map_or(avail.len(), |i| i + 1);
            self.input.consume(used);
            if newline.is_some() {
                self.line_no += 1;
                return Ok(true);
            }
        }
    }

    fn is_blank_line(&self) -> bool {
        !self.line_too_long && self.buf.iter().all(u8::is_ascii_whitespace)
    }

    fn too_long(&self) -> ParseErrorKind {
        ParseErrorKind::LineTooLong {
            limit: self.options.max_line,
        }
    }

    /// Chooses the mode from the first non-blank line (already in `buf`). Returns `true` when
    /// the line was consumed (a UVa count) rather than being a board line.
    fn detect(&mut self) -> bool {
        let count = tokens(&self.buf).count();
        let lone_number = count == 1 && {
            let t = tokens(&self.buf).next().map(|(_, t)| t).unwrap_or(b"");
            t.iter().all(u8::is_ascii_digit)
        };
        let whole_board = match self.options.shape {
            Some(s) => count == s.cells(),
            None => Shape::square_with_cells(count).is_some(),
        };
        let format = match self.options.format {
            Some(f) => f,
            None if self.line_too_long => Format::Hdu,
            None if lone_number => Format::Uva,
            None if whole_board => Format::Hdu,
            None => Format::Poj,
        };
        self.detected = Some(format);
        match format {
            Format::Hdu => {
                self.mode = Mode::Lines;
                false
            }
            Format::Poj => {
                self.mode = Mode::Blocks;
                false
            }
            Format::Uva => {
                self.mode = Mode::Blocks;
                let text = String::from_utf8_lossy(&self.buf).trim().to_string();
                match text.parse::<u64>() {
                    Ok(n) if count == 1 => {
                        self.declared = Some((n, self.line_no));
                        true
                    }
                    _ => {
                        // Forced UVa without a count: report it, then read datasets anyway.
                        let kind = ParseErrorKind::Format(format!(
                            "expected the number of datasets, found `{}`",
                            text.chars().take(24).collect::<String>()
                        ));
                        self.pending.push_back(Puzzle {
                            line: self.line_no,
                            board: Err(ParseError {
                                line: self.line_no,
                                kind,
                            }),
                        });
                        true
                    }
                }
            }
        }
    }

    /// Emits the board being collected in block mode, if any.
    fn finish_block_board(&mut self) {
        if self.collector.is_empty() {
            return;
        }
        let line = self.collector.first_line();
        let board = self.collector.finish(self.options.shape);
        self.pending.push_back(Puzzle { line, board });
        self.collector.clear();
    }

    /// Handles a blank line or end of input in block mode.
    fn end_block(&mut self) {
        if !self.collector.is_empty() || self.block_has_output {
            self.datasets += 1;
        }
        self.finish_block_board();
        self.block_has_output = false;
        if self.options.shape.is_none() {
            self.block_target = None;
        }
    }

    fn block_line(&mut self) {
        let line = self.line_no;
        if self.line_too_long {
            let kind = self.too_long();
            self.collector.fail(line, kind);
            return;
        }
        if self.collector.is_empty() && self.block_target.is_none() {
            // Rows on lines: a first line of w tiles suggests a w×w board.
            let w = tokens(&self.buf).count();
            self.block_target = Some(w * w).filter(|_| w >= 2);
        }
        self.collector.push_line(line, &self.buf);
        if Some(self.collector.len()) == self.block_target {
            // A full board ends here even without a blank line (stacked boards).
            self.finish_block_board();
            self.block_has_output = true;
        }
    }

    fn lines_line(&mut self) {
        let line = self.line_no;
        let board = if self.line_too_long {
            Err(ParseError {
                line,
                kind: self.too_long(),
            })
        } else {
            self.collector.clear();
            self.collector.push_line(line, &self.buf);
            self.collector.finish(self.options.shape)
        };
        self.pending.push_back(Puzzle { line, board });
    }

    fn at_end(&mut self) {
        if self.mode == Mode::Blocks {
            self.end_block();
        }
        if let Some((n, line)) = self.declared
            && n != self.datasets
        {
            let kind = ParseErrorKind::Format(format!(
                "the input declares {n} datasets but holds {}",
                self.datasets
            ));
            self.pending.push_back(Puzzle {
                line,
                board: Err(ParseError { line, kind }),
            });
        }
        self.finished = true;
    }

    /// The next board (or rejected board), `None` at end of input.
    pub fn next_puzzle(&mut self) -> io::Result<Option<Puzzle>> {
        loop {
            if let Some(p) = self.pending.pop_front() {
                return Ok(Some(p));
            }
            if self.finished {
                return Ok(None);
            }
            if !self.next_line()? {
                self.at_end();
                continue;
            }
            let blank = self.is_blank_line();
            match self.mode {
                Mode::Start => {
                    if blank {
                        continue;
                    }
                    if self.detect() {
                        continue;
                    }
                    match self.mode {
                        Mode::Lines => self.lines_line(),
                        _ => self.block_line(),
                    }
                }
                Mode::Lines => {
                    if !blank {
                        self.lines_line();
                    }
                }
                Mode::Blocks => {
                    if blank {
                        self.end_block();
                    } else {
                        self.block_line();
                    }
                }
            }
        }
    }
}

impl<R: BufRead> Iterator for JudgeReader<R> {
    type Item = io::Result<Puzzle>;

    fn next(&mut self) -> Option<io::Result<Puzzle>> {
        self.next_puzzle().transpose()
    }
}

/// Reads every board of a string (convenience for tests and small inputs).
pub fn read_all(text: &str, options: ReaderOptions) -> (Option<Format>, Vec<Puzzle>) {
    let mut r = JudgeReader::new(text.as_bytes(), options);
    let mut out = Vec::new();
    while let Ok(Some(p)) = r.next_puzzle() {
        out.push(p);
    }
    (r.format(), out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boards(text: &str) -> (Option<Format>, Vec<Result<Vec<u16>, String>>) {
        let (f, ps) = read_all(text, ReaderOptions::default());
        (
            f,
            ps.into_iter()
                .map(|p| {
                    p.board
                        .map(|b| b.cells().to_vec())
                        .map_err(|e| e.to_string())
                })
                .collect(),
        )
    }

    const SAMPLE: [u16; 9] = [2, 3, 4, 1, 5, 0, 7, 6, 8];

    #[test]
    fn poj_single_board_on_one_or_many_lines() {
        assert_eq!(
            boards("2  3  4  1  5  x  7  6  8\n"),
            (Some(Format::Hdu), vec![Ok(SAMPLE.to_vec())])
        );
        assert_eq!(
            boards("2 3 4\n1 5 x\n7 6 8\n"),
            (Some(Format::Poj), vec![Ok(SAMPLE.to_vec())])
        );
        // A first line of 4 tokens reads as a 2x2 board unless POJ is forced.
        let forced = ReaderOptions {
            format: Some(Format::Poj),
            ..ReaderOptions::default()
        };
        let (f, ps) = read_all("2 3 4 1\n5 x\n7 6 8", forced);
        assert_eq!(f, Some(Format::Poj));
        assert_eq!(ps.len(), 1);
        assert_eq!(ps[0].board.as_ref().unwrap().cells(), &SAMPLE);
    }

    #[test]
    fn hdu_many_lines_with_a_bad_one() {
        let (f, b) = boards("2 3 4 1 5 x 7 6 8\r\n1 2 3\n\n1 2 3 4 5 6 7 8 x\n");
        assert_eq!(f, Some(Format::Hdu));
        assert_eq!(b.len(), 3);
        assert!(b[1].as_ref().unwrap_err().starts_with("line 2:"));
        assert_eq!(b[2], Ok(vec![1, 2, 3, 4, 5, 6, 7, 8, 0]));
    }

    #[test]
    fn uva_datasets_over_several_lines() {
        let text = "2\n\n2 3 4\n1 5 x\n7 6 8\n\n1 2 3 4 5 6 7 8 x\n";
        let (f, b) = boards(text);
        assert_eq!(f, Some(Format::Uva));
        assert_eq!(
            b,
            vec![Ok(SAMPLE.to_vec()), Ok(vec![1, 2, 3, 4, 5, 6, 7, 8, 0])]
        );
        let (_, b) = boards("3\n\n2 3 4 1 5 x 7 6 8\n");
        assert_eq!(b.len(), 2);
        assert!(
            b[1].as_ref()
                .unwrap_err()
                .contains("declares 3 datasets but holds 1")
        );
    }

    #[test]
    fn stacked_boards_without_separators() {
        let (_, b) = boards("2 3 4\n1 5 x\n7 6 8\n1 2 3\n4 5 6\n7 8 x\n");
        assert_eq!(b.len(), 2);
        assert!(b.iter().all(Result::is_ok));
    }

    #[test]
    fn long_line_is_rejected_in_bounded_memory() {
        let mut text = String::from("1 2 3 4 5 6 7 8 x\n");
        text.push_str(&"7 ".repeat(1_000_000));
        text.push_str("\n2 3 4 1 5 x 7 6 8\n");
        let opts = ReaderOptions {
            max_line: 4096,
            ..ReaderOptions::default()
        };
        let mut r = JudgeReader::new(text.as_bytes(), opts);
        let mut got = Vec::new();
        while let Some(p) = r.next_puzzle().unwrap() {
            assert!(r.buf.capacity() <= 3 * 4096 + 8192);
            got.push(p);
        }
        assert_eq!(got.len(), 3);
        assert!(got[0].board.is_ok() && got[2].board.is_ok());
        let e = got[1].board.as_ref().unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.to_string().contains("longer than 4096 bytes"));
    }

    #[test]
    fn explicit_shape_reads_rectangles() {
        let opts = ReaderOptions {
            shape: Some(Shape::new(3, 2).unwrap()),
            ..ReaderOptions::default()
        };
        let (f, ps) = read_all("1 2 3 4 x 5\n1 2 3\n4 5 x\n", opts);
        assert_eq!(f, Some(Format::Hdu));
        assert_eq!(ps.len(), 3);
        assert!(ps[0].board.is_ok());
        assert!(ps[1].board.is_err() && ps[2].board.is_err());
    }
}
