//! The three judge conventions of the Eight problem, read as a stream of boards.
//!
//! - **POJ 1077**: a single board (possibly over several lines).
//! - **HDU 1043**: one board per line until end of input.
//! - **UVa 652**: a count N, a blank line, then N datasets separated by blank lines; each
//!   dataset is one board, possibly over several lines. Answers are separated by a blank line.
//!
//! [`JudgeReader`] detects the convention from the first non-blank line (a lone number starts a
//! UVa input; a line holding a whole board means one board per line, unless it may be the first
//! row of a larger board, a 2×2 board or the tiles `0 1 … k−1`, and the next line continues that
//! board; otherwise boards span lines), then yields one [`Puzzle`] per board, in order, each with
//! its input line and either the board or the reason it was rejected. How lines make boards:
//!
//! - UVa: a dataset is everything between blank lines, one board however its tokens are spread
//!   over lines. Exactly the declared number of datasets are boards; datasets past the count,
//!   or a count the input falls short of, are reported as [`Puzzle`]s that expect no answer.
//! - POJ (forced): the whole input is one board, unless its first line holds a whole board, in
//!   which case every line is one board.
//! - Detected multi-line input without a count: boards are separated by blank lines. Boards
//!   stacked without blank lines are recognised only when they are unmistakable: at least two
//!   whole boards of at least 3×3 written one row per line. From then on every `height` lines
//!   are one board whatever they hold, so a damaged row (a token missing or extra, a bad
//!   token) costs its own board only and the boards after it keep their frame; a line that is
//!   a whole board of another width, between boards, is a board of its own (unless it is one
//!   token off a row's width, as a damaged row would be).
//!
//! Lines are read through [`crate::lines::Lines`]: `\n`, `\r\n` and a bare `\r` each end one,
//! and a multi-megabyte junk line is skipped in bounded memory.
//!
//! [`Verdict`] judges an answer (legal, reaches the goal, optimal), for every front end.

mod verdict;
pub use verdict::{Finding, NO_ANSWER, Verdict};

use crate::board::{Board, Shape};
use crate::lines::{LineRead, Lines};
use crate::parse::{ParseError, ParseErrorKind, TileCollector, Token, read_token, tokens};
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

impl ReaderOptions {
    /// The puzzle of one raw line of one-board-per-line input (see
    /// [`JudgeReader::raw_lines`]), exactly as [`JudgeReader::next_puzzle`] would have read it.
    pub fn parse_line(&self, raw: &RawLine, buf: &[u8]) -> Puzzle {
        if raw.too_long {
            let kind = ParseErrorKind::LineTooLong {
                limit: self.max_line,
            };
            return Puzzle::board(
                raw.line,
                Err(ParseError {
                    line: raw.line,
                    kind,
                }),
            );
        }
        let mut collector = TileCollector::new();
        collector.push_line(raw.line, &buf[raw.start..raw.end]);
        Puzzle::board(raw.line, collector.finish(self.shape))
    }
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
    /// Whether this place of the input expects an answer: false for a report about the input
    /// as a whole (a UVa count the input does not match, datasets past the count), which
    /// belongs on the error stream only.
    pub answerable: bool,
}

impl Puzzle {
    fn board(line: usize, board: Result<Board, ParseError>) -> Puzzle {
        Puzzle {
            line,
            board,
            answerable: true,
        }
    }

    fn report(line: usize, message: String) -> Puzzle {
        Puzzle {
            line,
            board: Err(ParseError {
                line,
                kind: ParseErrorKind::Format(message),
            }),
            answerable: false,
        }
    }
}

/// One line of one-board-per-line input, unparsed (see [`JudgeReader::raw_lines`]).
#[derive(Copy, Clone, Debug)]
pub struct RawLine {
    /// 1-based input line.
    pub line: usize,
    /// Its bytes in the caller's buffer.
    pub start: usize,
    /// End of its bytes.
    pub end: usize,
    /// Longer than the reader's limit (its bytes were dropped).
    pub too_long: bool,
}

/// Most bytes of forced-POJ lines held back while deciding whether each line is a board.
const POJ_LOOKAHEAD_BYTES: usize = 1 << 20;

/// The width most of `lines` have (the first such on a tie; 0 for none) and how many lines
/// have another.
fn common_width(lines: &[(usize, Vec<u8>)]) -> (usize, usize) {
    let widths: Vec<usize> = lines.iter().map(|(_, t)| tokens(t).count()).collect();
    let count = |w: usize| widths.iter().filter(|&&x| x == w).count();
    let w = widths
        .iter()
        .copied()
        .max_by_key(|&w| {
            (
                count(w),
                std::cmp::Reverse(widths.iter().position(|&x| x == w)),
            )
        })
        .unwrap_or(0);
    (w, widths.len() - count(w))
}

/// Most bytes of block lines held back while deciding whether boards are stacked.
const STACK_LOOKAHEAD_BYTES: usize = 1 << 16;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mode {
    /// Nothing read yet.
    Start,
    /// Detected input began with a line that is not a valid board, or is one that may begin a
    /// larger board (see `may_begin_a_square`): one board per line (with a bad first one), or
    /// boards spread over lines, depending on what follows (see [`JudgeReader::probe_line`]).
    Undecided,
    /// Detected input began with a lone number: a UVa count if a blank line or a whole board
    /// follows, else the first tile of a board spread over lines.
    CountOrTile,
    /// Each non-blank line is one board.
    Lines,
    /// Boards span lines; a blank line (or a full board) ends one.
    Blocks,
}

/// Whether a line that is a whole board may instead be the first row of a larger square
/// board: any 2×2 board (`x 1 2 3` or `1 0 2 3` begin a 4×4 board as well), and the tiles
/// 0, 1, …, k−1 in order, the first row of a k×k board written blank first.
fn may_begin_a_square(text: &[u8]) -> bool {
    tokens(text).count() == 4
        || tokens(text)
            .enumerate()
            .all(|(i, (_, t))| matches!(read_token(t), Token::Tile(v) if v as usize == i))
}

/// Whether `text` can continue a k×k board whose first row was a whole board of `k` tiles
/// (0 to k−1): at most k² − k tiles, all from k to k² − 1.
fn continues_a_square(k: usize, text: &[u8]) -> bool {
    let cells = k.saturating_mul(k);
    tokens(text).count() <= cells - k
        && tokens(text).all(
            |(_, t)| matches!(read_token(t), Token::Tile(v) if (k..cells).contains(&(v as usize))),
        )
}

/// Streams boards out of judge-format input. See the module docs for the detection rules.
pub struct JudgeReader<R> {
    lines: Lines<R>,
    options: ReaderOptions,
    detected: Option<Format>,
    mode: Mode,
    line_no: usize,
    buf: Vec<u8>,
    line_too_long: bool,
    collector: TileCollector,
    /// UVa: declared dataset count and the line it was on.
    declared: Option<(u64, usize)>,
    datasets: u64,
    /// Detected multi-line input: lines of the current block held back (line, text) while it
    /// may still turn out to be stacked boards; `None` once they went to the collector.
    held: Option<Vec<(usize, Vec<u8>)>>,
    held_bytes: usize,
    /// Lines read in [`Mode::Undecided`].
    probe: Vec<(usize, Vec<u8>)>,
    /// A first line that was a lone number, until the next line settles what it is.
    first_line: Option<(usize, Vec<u8>)>,
    /// Detected multi-line input: the row width of stacked boards, once recognised, and the
    /// rows of the current board read so far.
    stacked: Option<(usize, usize)>,
    pending: VecDeque<Puzzle>,
    finished: bool,
}

impl<R: BufRead> JudgeReader<R> {
    /// A reader over `input`.
    pub fn new(input: R, options: ReaderOptions) -> JudgeReader<R> {
        JudgeReader {
            lines: Lines::new(input),
            options,
            detected: options.format,
            mode: Mode::Start,
            line_no: 0,
            buf: Vec::new(),
            line_too_long: false,
            collector: TileCollector::new(),
            declared: None,
            datasets: 0,
            held: Some(Vec::new()),
            held_bytes: 0,
            first_line: None,
            probe: Vec::new(),
            stacked: None,
            pending: VecDeque::new(),
            finished: false,
        }
    }

    /// The same reader, reading on from `f(input)` (which must yield the bytes `input` would
    /// have: a wrapper around it).
    pub(crate) fn map_input<S: BufRead>(self, f: impl FnOnce(R) -> S) -> JudgeReader<S> {
        JudgeReader {
            lines: self.lines.map_input(f),
            options: self.options,
            detected: self.detected,
            mode: self.mode,
            line_no: self.line_no,
            buf: self.buf,
            line_too_long: self.line_too_long,
            collector: self.collector,
            declared: self.declared,
            datasets: self.datasets,
            held: self.held,
            held_bytes: self.held_bytes,
            probe: self.probe,
            first_line: self.first_line,
            stacked: self.stacked,
            pending: self.pending,
            finished: self.finished,
        }
    }

    /// The convention in use: forced, or detected from the first non-blank line.
    pub fn format(&self) -> Option<Format> {
        self.detected
    }

    /// Reads one line into `buf` (without its ending), keeping at most `max_line` bytes.
    /// Returns `false` at end of input.
    fn next_line(&mut self) -> io::Result<bool> {
        let read = self.lines.read(&mut self.buf, self.options.max_line)?;
        self.line_no = self.lines.number();
        self.line_too_long = read == Some(LineRead::TooLong);
        Ok(read.is_some())
    }

    fn is_blank_line(&self) -> bool {
        !self.line_too_long && self.buf.iter().all(|&b| crate::parse::is_space(b))
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
            None if lone_number => {
                self.mode = Mode::CountOrTile;
                self.first_line = Some((self.line_no, self.buf.clone()));
                return true;
            }
            // A whole board that may be the first row of a larger one (`0 1 2 3`, see
            // `may_begin_a_square`), unless the shape is given: the next line settles it (see
            // `probe_line`).
            None if whole_board
                && self.is_board_line(&self.buf)
                && (self.options.shape.is_some() || !may_begin_a_square(&self.buf)) =>
            {
                Format::Hdu
            }
            None => {
                self.mode = Mode::Undecided;
                self.probe = vec![(self.line_no, self.buf.clone())];
                return true;
            }
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
                        let message = format!(
                            "expected the number of datasets, found `{}`; reading the datasets anyway",
                            text.chars()
                                .take(24)
                                .flat_map(char::escape_debug)
                                .collect::<String>()
                        );
                        self.pending
                            .push_back(Puzzle::report(self.line_no, message));
                        // The line is read as the first dataset's.
                        false
                    }
                }
            }
        }
    }

    /// Whether the line in `text` is, on its own, a valid board.
    fn is_board_line(&self, text: &[u8]) -> bool {
        let mut c = TileCollector::new();
        c.push_line(1, text);
        c.finish(self.options.shape).is_ok()
    }

    /// Settles a first line that was a lone number, given the next line (`None` at the end):
    /// a UVa count before a blank line, a whole board or nothing; else the first tile of a
    /// board spread over lines.
    fn settle_count(&mut self, next_blank: Option<bool>) {
        let Some((line, text)) = self.first_line.take() else {
            return;
        };
        let count = match next_blank {
            None | Some(true) => true,
            Some(false) => !self.line_too_long && self.is_board_line(&self.buf),
        };
        self.mode = Mode::Blocks;
        if count {
            self.detected = Some(Format::Uva);
            self.held = None;
            match String::from_utf8_lossy(&text).trim().parse::<u64>() {
                Ok(n) => self.declared = Some((n, line)),
                Err(_) => self.pending.push_back(Puzzle::report(
                    line,
                    "the dataset count is too large; reading the datasets anyway".into(),
                )),
            }
        } else {
            self.detected = Some(Format::Poj);
            let current = std::mem::replace(&mut self.buf, text);
            let current_line = std::mem::replace(&mut self.line_no, line);
            self.block_line();
            self.buf = current;
            self.line_no = current_line;
        }
    }

    /// In [`Mode::Undecided`], takes the current line (`end` at the end of input) and decides
    /// once the first block is complete: boards spread over lines (POJ) when its lines together
    /// are a valid board, or when they are all rows of one width (3 or more) and none a board
    /// alone (stacked boards; the first line may be a board alone when it may begin one); anything
    /// else is one board per line (HDU). The second line settles it at once when it can (see
    /// `settles_at_second`). Held lines are then read again in the chosen mode.
    fn probe_line(&mut self, end: bool) {
        let blank = end || self.is_blank_line();
        let too_long = !end && self.line_too_long;
        // Whether the second line settled one board a line (it is asked once, when it comes).
        let mut settled = false;
        if !blank && !too_long {
            self.probe.push((self.line_no, self.buf.clone()));
            let bytes: usize = self.probe.iter().map(|(_, t)| t.len()).sum();
            settled = self.probe.len() == 2 && self.settles_at_second();
            if bytes <= STACK_LOOKAHEAD_BYTES && !settled {
                return;
            }
        }
        let first_is_board = self.is_board_line(&self.probe[0].1);
        let one_a_line = settled || (self.probe.len() == 1 && first_is_board);
        let mut joined = TileCollector::new();
        for (line, text) in &self.probe {
            joined.push_line(*line, text);
        }
        // Rows of stacked boards: every line the same width (3 or more), none a board alone;
        // or the first two boards' rows make a stack frame (one of them may be damaged).
        let w = tokens(&self.probe[0].1).count();
        // Lines whose tiles all fit a board of the line's own length are damaged boards (two
        // lines of nine such tiles are two 3×3 boards, not two rows of a 9×9 one), and so are
        // lines that write the blank as the line's length (`1 2 3 4 5 6 7 8 9`): two or more
        // rows of a wider board cannot all hold tiles up to `w` only (they need `2w` distinct).
        let damaged_boards = self.probe.iter().all(|(_, t)| {
            tokens(t)
                .all(|(_, tile)| matches!(read_token(tile), Token::Tile(v) if (v as usize) <= w))
        });
        // A first line that is a board and was continued (`0 1 … k−1`, then larger tiles) is a
        // row too.
        let first_row = first_is_board && !one_a_line;
        let uniform = w >= 3
            && self.probe.iter().enumerate().all(|(i, (_, t))| {
                tokens(t).count() == w && ((i == 0 && first_row) || !self.is_board_line(t))
            });
        let (width, _) = common_width(&self.probe);
        let frame = 2 * self.stacked_rows(width);
        let rows = !damaged_boards
            && (uniform
                || (self.probe.len() >= frame && self.stack_frame(&self.probe[..frame]).is_some()));
        let spread = !one_a_line && ((blank && joined.finish(self.options.shape).is_ok()) || rows);
        let (format, mode) = if spread {
            (Format::Poj, Mode::Blocks)
        } else {
            (Format::Hdu, Mode::Lines)
        };
        self.detected = Some(format);
        self.mode = mode;
        let current = std::mem::take(&mut self.buf);
        let current_line = self.line_no;
        self.line_too_long = false;
        for (line, text) in std::mem::take(&mut self.probe) {
            self.buf = text;
            self.line_no = line;
            match mode {
                Mode::Lines => self.lines_line(),
                _ => self.block_line(),
            }
        }
        self.buf = current;
        self.line_no = current_line;
        self.line_too_long = too_long;
        if too_long {
            self.lines_line();
        } else if blank && !end && mode == Mode::Blocks {
            self.end_block();
        }
    }

    /// Whether the probe's second line settles one board a line: after a first line that is a
    /// whole board (one that may begin a larger board, see `detect`), unless it continues that
    /// board; or when it is itself a whole board of 9 tiles or more (a row of a larger board
    /// that holds exactly the tiles 0 to k−1 is too unlikely to wait for), so that an
    /// interactive batch whose first line is damaged is answered line by line.
    fn settles_at_second(&self) -> bool {
        let (first, second) = (&self.probe[0].1, &self.probe[1].1);
        if self.is_board_line(first) {
            return !continues_a_square(tokens(first).count(), second);
        }
        tokens(second).count() >= 9 && self.is_board_line(second)
    }

    /// Emits the board being collected in block mode, if any.
    fn finish_block_board(&mut self) {
        if self.collector.is_empty() {
            return;
        }
        let line = self.collector.first_line();
        let mut board = self.collector.finish(self.options.shape);
        if self.detected == Some(Format::Uva)
            && let Err(e) = &mut board
            && let Some((n, k)) = self.collector.lines_each_a_board(self.options.shape)
        {
            e.kind = ParseErrorKind::Format(format!(
                "{}; its {n} lines hold {k} tiles each, a board a line: UVa datasets are \
                 separated by blank lines",
                e.kind
            ));
        }
        self.collector.clear();
        if self.detected == Some(Format::Uva)
            && let Some((n, at)) = self.declared
        {
            self.datasets += 1;
            if self.datasets > n {
                let message = format!(
                    "dataset {} is past the {n} declared on line {at}; not answered",
                    self.datasets
                );
                self.pending.push_back(Puzzle::report(line, message));
                return;
            }
        }
        self.pending.push_back(Puzzle::board(line, board));
    }

    /// Sends held-back lines to the collector (they are one board, or part of one).
    fn release_held(&mut self) {
        if let Some(held) = self.held.take() {
            for (line, text) in &held {
                self.collector.push_line(*line, text);
            }
        }
        self.held_bytes = 0;
    }

    /// Handles a blank line or end of input in block mode.
    fn end_block(&mut self) {
        if self.options.format == Some(Format::Poj)
            && let Some(held) = self.held.take_if(|h| h.len() >= 2)
        {
            // Forced POJ whose every line is a whole board: one board per line.
            self.held_bytes = 0;
            for (line, text) in held {
                self.line_board(line, &text);
            }
        }
        self.release_held();
        self.finish_block_board();
        self.held = Some(Vec::new());
        self.stacked = None;
    }

    /// Whether a row width can be one of stacked boards (square, at least 3×3, or the given
    /// shape's width).
    fn stackable_width(&self, w: usize) -> bool {
        match self.options.shape {
            Some(s) => s.width() == w,
            None => w >= 3 && 2 * w * w <= crate::board::MAX_CELLS,
        }
    }

    /// Whether `lines` are the rows of two stacked boards, one row per line (both boards'
    /// rows exactly, fewer than half of them a board alone): every line of one width `w` (3 or more), or
    /// all but one, when that one spoils a board (its tokens and the others' are no single
    /// board, and one of the two is a whole board). The row width, if so.
    fn stack_frame(&self, lines: &[(usize, Vec<u8>)]) -> Option<usize> {
        let (w, odd) = common_width(lines);
        let h = self.stacked_rows(w);
        if !self.stackable_width(w) || lines.len() != 2 * h || odd > 1 {
            return None;
        }
        // Boards one per line are no stack; a row that happens to be a small board alone
        // (`1 2 3 x` of a 4×4 board) does not make them so.
        let alone = lines.iter().filter(|(_, t)| self.is_board_line(t)).count();
        if 2 * alone >= lines.len() {
            return None;
        }
        let board = |ls: &[(usize, Vec<u8>)]| {
            let mut c = TileCollector::new();
            for (line, text) in ls {
                c.push_line(*line, text);
            }
            c.finish(self.options.shape).is_ok()
        };
        let whole = odd == 0 || (!board(lines) && (board(&lines[..h]) || board(&lines[h..])));
        whole.then_some(w)
    }

    /// Rows per stacked board of width `w`.
    fn stacked_rows(&self, w: usize) -> usize {
        self.options.shape.map_or(w, Shape::height)
    }

    /// A line over the limit spoils the board being collected; true when it was one.
    fn fail_too_long(&mut self) -> bool {
        if self.line_too_long {
            self.release_held();
            let kind = self.too_long();
            self.collector.fail(self.line_no, kind);
        }
        self.line_too_long
    }

    fn block_line(&mut self) {
        if self.options.format == Some(Format::Poj) {
            return self.poj_line();
        }
        let line = self.line_no;
        if self.fail_too_long() {
            return;
        }
        let count = tokens(&self.buf).count();
        // Boards may be stacked only in detected multi-line input (not UVa, not forced POJ).
        let may_stack = self.options.format.is_none() && self.detected == Some(Format::Poj);
        if let Some((w, rows)) = self.stacked {
            if rows == 0 && count.abs_diff(w) > 1 && self.is_board_line(&self.buf) {
                // A whole board of another width between stacked boards: a board of its own
                // (not one a token from a row, which is a damaged row: `2 3 x 1` where a
                // 3-wide row stood is that row with a token too many, not a 2x2 board).
                let text = std::mem::take(&mut self.buf);
                self.line_board(line, &text);
                self.buf = text;
                return;
            }
            // Every `height` lines are one board, whatever they hold: a damaged row spoils its
            // own board, and the boards after it keep their frame.
            self.collector.push_line(line, &self.buf);
            if rows + 1 == self.stacked_rows(w) {
                self.finish_block_board();
                self.stacked = Some((w, 0));
            } else {
                self.stacked = Some((w, rows + 1));
            }
            return;
        }
        if !may_stack {
            self.held = None;
        }
        let Some(mut held) = self.held.take() else {
            self.collector.push_line(line, &self.buf);
            return;
        };
        held.push((line, self.buf.clone()));
        self.held_bytes += self.buf.len();
        let rows = held.len();
        let (w, odd) = common_width(&held);
        let stack_rows = self.stacked_rows(w);
        // A first line or two of another width may still be a damaged row.
        let hopeless = rows >= 3 && (odd > 1 || !self.stackable_width(w));
        if hopeless || rows > 2 * stack_rows || self.held_bytes > STACK_LOOKAHEAD_BYTES {
            self.held = Some(held);
            self.release_held();
        } else if rows == 2 * stack_rows {
            match self.stack_frame(&held) {
                // Two boards, one row per line: stacked boards.
                Some(w) => {
                    self.held_bytes = 0;
                    for board in held.chunks(stack_rows) {
                        for (l, text) in board {
                            self.collector.push_line(*l, text);
                        }
                        self.finish_block_board();
                    }
                    self.stacked = Some((w, 0));
                }
                None => {
                    self.held = Some(held);
                    self.release_held();
                }
            }
        } else {
            self.held = Some(held);
        }
    }

    /// Emits the board of one line.
    fn line_board(&mut self, line: usize, text: &[u8]) {
        self.collector.clear();
        self.collector.push_line(line, text);
        let board = self.collector.finish(self.options.shape);
        self.collector.clear();
        self.pending.push_back(Puzzle::board(line, board));
    }

    fn lines_line(&mut self) {
        let line = self.line_no;
        if self.line_too_long {
            let board = Err(ParseError {
                line,
                kind: self.too_long(),
            });
            self.pending.push_back(Puzzle::board(line, board));
        } else {
            let text = std::mem::take(&mut self.buf);
            self.line_board(line, &text);
            self.buf = text;
        }
    }

    /// Forced POJ: the whole input is one board, unless every line is a whole board (decided
    /// at the end, or once the lines held back pass [`POJ_LOOKAHEAD_BYTES`]).
    fn poj_line(&mut self) {
        let line = self.line_no;
        if self.fail_too_long() {
            return;
        }
        if self.held.is_some() && self.is_board_line(&self.buf) {
            self.held_bytes += self.buf.len();
            self.held
                .get_or_insert_with(Vec::new)
                .push((line, self.buf.clone()));
            if self.held_bytes > POJ_LOOKAHEAD_BYTES {
                self.held_bytes = 0;
                self.mode = Mode::Lines;
                for (l, text) in self.held.take().unwrap_or_default() {
                    self.line_board(l, &text);
                }
            }
            return;
        }
        self.release_held();
        self.collector.push_line(line, &self.buf);
    }

    fn at_end(&mut self) {
        if self.mode == Mode::Undecided {
            self.probe_line(true);
        }
        if self.mode == Mode::CountOrTile {
            self.settle_count(None);
        }
        if self.mode == Mode::Blocks {
            self.end_block();
        }
        if let Some((n, line)) = self.declared
            && n > self.datasets
        {
            let message = format!(
                "the input declares {n} datasets but holds {}; the missing ones are not answered",
                self.datasets
            );
            self.pending.push_back(Puzzle::report(line, message));
        }
        if self.mode == Mode::Start {
            // Blamed on the first line: none of them holds anything.
            let message = match self.line_no {
                0 => "the input holds no board: it is empty".to_string(),
                1 => "the input holds no board: its only line is blank".to_string(),
                n => format!("the input holds no board: its {n} lines are blank"),
            };
            self.pending.push_back(Puzzle::report(1, message));
        }
        self.finished = true;
    }

    /// Whether the input has settled into one board per line (HDU) with nothing pending, so
    /// that [`JudgeReader::raw_lines`] may take over.
    pub fn is_line_per_board(&self) -> bool {
        self.mode == Mode::Lines && self.pending.is_empty() && !self.finished
    }

    /// One-board-per-line input only (see [`JudgeReader::is_line_per_board`]): appends up to
    /// `max` further non-blank lines (and not many more than `max_bytes`) to `buf` without
    /// parsing them, each as a [`RawLine`] in `lines`, for callers that answer lines in bulk
    /// and hand the odd ones to [`ReaderOptions::parse_line`]. Returns `false` at the end of
    /// input.
    pub fn raw_lines(
        &mut self,
        max: usize,
        max_bytes: usize,
        buf: &mut Vec<u8>,
        lines: &mut Vec<RawLine>,
    ) -> io::Result<bool> {
        let mut taken = 0;
        while taken < max && buf.len() < max_bytes {
            if !self.next_line()? {
                self.finished = true;
                return Ok(false);
            }
            if self.is_blank_line() {
                continue;
            }
            let start = buf.len();
            buf.extend_from_slice(&self.buf);
            lines.push(RawLine {
                line: self.line_no,
                start,
                end: buf.len(),
                too_long: self.line_too_long,
            });
            taken += 1;
        }
        Ok(true)
    }

    /// The options the reader was made with.
    pub fn options(&self) -> &ReaderOptions {
        &self.options
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
                Mode::Undecided => self.probe_line(false),
                Mode::CountOrTile => {
                    self.settle_count(Some(blank));
                    if !blank {
                        self.block_line();
                    }
                }
                Mode::Lines => {
                    if !blank {
                        self.lines_line();
                    }
                }
                Mode::Blocks => {
                    let one_board = self.options.format == Some(Format::Poj);
                    if !blank {
                        self.block_line();
                    } else if !one_board {
                        self.end_block();
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
    use crate::lines::ThenFail;

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
        // A bad first line of any length does not turn the input into one big board.
        for first in ["1 2 3 4 5 6 7 8", "1 2 3 4 5 6 7 8 x 9", "junk"] {
            let (f, b) = boards(&format!("{first}\n2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 x 8\n"));
            assert_eq!(f, Some(Format::Hdu), "{first}");
            assert_eq!(b.len(), 3, "{first}: {b:?}");
            assert!(b[0].is_err() && b[1].is_ok() && b[2].is_ok(), "{b:?}");
        }
        // Forced UVa without a count: reported, and the first line is still a dataset.
        let uva = ReaderOptions {
            format: Some(Format::Uva),
            ..ReaderOptions::default()
        };
        let (_, ps) = read_all("2 3 4 1 5 x 7 6 8\n\n1 2 3 4 5 6 7 x 8\n", uva);
        let boards_read = ps.iter().filter(|p| p.board.is_ok()).count();
        assert_eq!(boards_read, 2, "{ps:?}");
        assert!(!ps[0].answerable);
        let (f, b) = boards("1 1 2 3 4 5 6 7 8\n2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 x\n");
        assert_eq!(f, Some(Format::Hdu));
        assert_eq!(b.len(), 3);
        assert!(b[0].is_err() && b[1].is_ok() && b[2].is_ok(), "{b:?}");
        // Every line a damaged board of its own length: one error each, not the lines read
        // as rows of one wider board.
        // Also past the lines that would frame two stacked boards (2 × 9, and 2 × 8 for
        // lines of a 3×3 batch with a tile missing).
        for text in [
            "1 1 3 4 5 6 7 8 x\n2 2 3 4 5 6 7 8 x\n".to_string(),
            "1 1 3 4 5 6 7 8 x\n2 2 3 4 5 6 7 8 x\n3 3 1 2 4 5 6 7 8\n".to_string(),
            "1 1 3 4 5 6 7 8 x\n".repeat(18),
            "1 2 3 4 5 6 7 x\n".repeat(20),
            "1 2 3 4 5 6 7 8 9\n".repeat(2),
            "1 2 3 4 5 6 7 8 9\n".repeat(9),
            "2 1 3 4 5 6 7 8 9\n".repeat(18),
        ] {
            let text = text.as_str();
            let (f, b) = boards(text);
            assert_eq!(f, Some(Format::Hdu), "{text}");
            assert_eq!(b.len(), text.lines().count(), "{text}: {b:?}");
            for (i, answer) in b.iter().enumerate() {
                let at = format!("line {}:", i + 1);
                assert!(answer.as_ref().unwrap_err().starts_with(&at), "{b:?}");
            }
        }
        // Rows of a wider board still read as one (tiles past a line's own length).
        let rows: Vec<String> = (0..9)
            .map(|r| {
                (0..9)
                    .map(|c| ((r * 9 + c + 1) % 81).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let (f, b) = boards(&format!("{}\n", rows.join("\n")));
        assert_eq!(f, Some(Format::Poj));
        assert_eq!(b.len(), 1);
        assert_eq!(b[0].as_ref().map(Vec::len), Ok(81));
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
        // Datasets a line each, the blank lines between them left out: said so.
        let (_, b) = boards("3\n2 3 4 1 5 x 7 6 8\n8 6 7 2 5 4 3 x 1\n1 2 3 4 5 6 7 8 x\n");
        let e = b[0].as_ref().unwrap_err();
        assert!(e.contains("its 3 lines hold 9 tiles each"), "{e}");
        assert!(e.contains("separated by blank lines"), "{e}");
        // Not for a block whose lines are rows, nor lines of different lengths.
        for text in [
            "1\n\n1 2 3\n4 5 6\n7 8\n",
            "1\n\n1 2 3 4 5 6 7 8 x\n1 2 3 4\n",
            // A 4x4 board in rows (4 tiles a line, like 2x2 boards a line), one tile repeated.
            "1\n\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 14 x\n",
        ] {
            let (_, b) = boards(text);
            let e = b[0].as_ref().unwrap_err();
            assert!(!e.contains("blank lines"), "{text:?}: {e}");
        }
    }

    /// The three conventions read the same boards, with the same line numbers, whichever of
    /// `\n`, `\r\n` or a bare `\r` ends the lines.
    #[test]
    fn every_line_ending_reads_the_same() {
        for text in [
            "2 3 4 1 5 x 7 6 8\n1 2 3\n1 2 3 4 5 6 7 8 x\n",
            "2\n\n2 3 4\n1 5 x\n7 6 8\n\n1 2 3 4 5 6 7 8 x\n",
            "2 3 4\n1 5 x\n7 6 8\n",
            "2 3 4\n1 5 x\n7 6 8\n1 2 3\n4 5 6\n7 8 x\n",
        ] {
            let read = |text: &str| {
                let (f, ps) = read_all(text, ReaderOptions::default());
                let ps: Vec<_> = ps.iter().map(|p| (p.line, p.board.clone())).collect();
                (f, ps)
            };
            let unix = read(text);
            assert!(!unix.1.is_empty());
            for ending in ["\r\n", "\r"] {
                assert_eq!(
                    read(&text.replace('\n', ending)),
                    unix,
                    "{ending:?}: {text}"
                );
            }
        }
    }

    /// A first line that is a 2×2 board, or the tiles 0 to k−1 in order, can be the first row
    /// of a larger board written blank first; one such board a line is still read as such.
    #[test]
    fn a_first_line_board_may_be_a_row() {
        // A 9×9 board written blank first, row by row: one board, not a 3×3 one and 8 errors.
        let rows: Vec<String> = (0..9)
            .map(|r| {
                let row: Vec<String> = (0..9).map(|c| (r * 9 + c).to_string()).collect();
                row.join(" ")
            })
            .collect();
        let (f, b) = boards(&format!("{}\n", rows.join("\n")));
        assert_eq!(f, Some(Format::Poj));
        assert_eq!(b, vec![Ok((0..81).collect::<Vec<u16>>())]);
        // So is a 121×121 one, whose rows fill the 64 KiB looked ahead before it ends.
        let rows: Vec<String> = (0..121)
            .map(|r| {
                let row: Vec<String> = (0..121).map(|c| (r * 121 + c).to_string()).collect();
                row.join(" ")
            })
            .collect();
        let text = format!("{}\n", rows.join("\n"));
        assert!(text.len() > STACK_LOOKAHEAD_BYTES);
        let (f, b) = boards(&text);
        assert_eq!(f, Some(Format::Poj));
        assert_eq!(b, vec![Ok((0..121 * 121).collect::<Vec<u16>>())]);
        let (f, b) = boards("x 1 2 3 4 5 6 7 8\n2 3 4 1 5 x 7 6 8\n");
        assert_eq!(f, Some(Format::Hdu));
        assert_eq!(b.len(), 2);
        let goal16: Vec<u16> = (0..16).collect();
        for text in [
            "0 1 2 3\n4 5 6 7\n8 9 10 11\n12 13 14 15\n",
            "x 1 2 3\n4 5 6 7\n8 9 10 11\n12 13 14 15",
            "0 1 2 3\n4 5 6 7 8 9 10 11\n12 13 14 15\n\n",
        ] {
            let (f, b) = boards(text);
            assert_eq!(
                (f, b),
                (Some(Format::Poj), vec![Ok(goal16.clone())]),
                "{text}"
            );
        }
        let (_, b) = boards(
            "0 1 2 3\n4 5 6 7\n8 9 10 11\n12 13 14 15\n"
                .repeat(3)
                .as_str(),
        );
        assert_eq!(b, vec![Ok(goal16.clone()); 3]);
        let (f, b) = boards("x 1 2 3\n1 x 2 3\n1 1 2 3\n3 2 1 x\n");
        assert_eq!(f, Some(Format::Hdu));
        assert_eq!(b.len(), 4, "{b:?}");
        assert!(b[0].is_ok() && b[1].is_ok() && b[2].is_err() && b[3].is_ok());
        let (f, b) = boards("x 1 2 3\n1 1 2 3\n3 2 1 x\n");
        assert_eq!(f, Some(Format::Hdu));
        assert_eq!(b.len(), 3, "{b:?}");
        let (_, b) = boards("x 1 2 3\n");
        assert_eq!(b, vec![Ok(vec![0, 1, 2, 3])]);
        // A blank line after the first board keeps one board a line.
        let (f, b) = boards("x 1 2 3\n\n1 x 2 3\n2 1 x 3\n");
        assert_eq!(f, Some(Format::Hdu));
        assert_eq!(b.len(), 3, "{b:?}");
        assert!(b.iter().all(Result::is_ok), "{b:?}");
    }

    /// Where the first line cannot begin a larger board (the shape is given, or it is not a 2×2
    /// board or `0 1 … k−1`), or the second cannot continue it, or the first is damaged and the
    /// second a whole board, one board a line is settled before the third line is read: an
    /// interactive user is answered at once.
    #[test]
    fn one_board_a_line_is_settled_early() {
        let two = ReaderOptions {
            shape: Some(Shape::new(2, 2).unwrap()),
            ..ReaderOptions::default()
        };
        for (text, options, answered) in [
            ("x 1 2 3\n", two, 1),
            ("2 3 4 1 5 x 7 6 8\n", ReaderOptions::default(), 1),
            ("x 1 2 3\n1 x 2 3\n", ReaderOptions::default(), 2),
            ("x 1 2 3\n1 1 2 3\n", ReaderOptions::default(), 2),
            ("x 1 2 3\n4 5 6 x\n", ReaderOptions::default(), 2),
            (
                "0 1 2 3 4 5 6 7 8\n1 2 3 4 5 6 7 8 0\n",
                ReaderOptions::default(),
                2,
            ),
            (
                "x 1 2 3 4 5 6 7 8\n1 2 3 4 5 6 7 8 x\n",
                ReaderOptions::default(),
                2,
            ),
            // A damaged first line, then whole boards: each answered at its line.
            (
                "1 1 3 4 5 6 7 8 x\n2 3 4 1 5 x 7 6 8\n",
                ReaderOptions::default(),
                2,
            ),
            (
                "1 2 3 4 5 6 7 8 9\n2 3 4 1 5 x 7 6 8\n",
                ReaderOptions::default(),
                2,
            ),
            (
                "junk\n2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 x\n",
                ReaderOptions::default(),
                3,
            ),
        ] {
            let mut reader = JudgeReader::new(ThenFail(text.as_bytes()), options);
            for i in 0..answered {
                let p = reader.next_puzzle();
                assert!(matches!(p, Ok(Some(_))), "{text:?} board {i}: {p:?}");
            }
            assert!(reader.next_puzzle().is_err(), "{text:?}");
        }
    }

    #[test]
    fn stacked_boards_without_separators() {
        let (_, b) = boards("2 3 4\n1 5 x\n7 6 8\n1 2 3\n4 5 6\n7 8 x\n");
        assert_eq!(b.len(), 2);
        assert!(b.iter().all(Result::is_ok));
    }

    /// Every way of spreading a 3×3 board over lines reads as that one board: in UVa input,
    /// forced POJ, and detected input alike.
    #[test]
    fn a_board_spread_over_lines_is_one_board() {
        let tokens = ["2", "3", "4", "1", "5", "x", "7", "6", "8"];
        for split in 0u32..256 {
            let mut text = String::from(tokens[0]);
            for (i, t) in tokens.iter().enumerate().skip(1) {
                text.push(if split >> (i - 1) & 1 == 1 { '\n' } else { ' ' });
                text.push_str(t);
            }
            text.push('\n');
            let forced_poj = ReaderOptions {
                format: Some(Format::Poj),
                ..ReaderOptions::default()
            };
            for (input, options) in [
                (format!("1\n\n{text}"), ReaderOptions::default()),
                (text.clone(), forced_poj),
                (text.clone(), ReaderOptions::default()),
            ] {
                let (_, ps) = read_all(&input, options);
                assert_eq!(ps.len(), 1, "{input:?}: {ps:?}");
                assert_eq!(
                    ps[0].board.as_ref().map(|b| b.cells().to_vec()).ok(),
                    Some(SAMPLE.to_vec()),
                    "{input:?}"
                );
            }
        }
        // A 4×4 dataset whose first rows have three tiles is still one 4×4 board.
        let (_, ps) = read_all(
            "1\n\n1 2 3\n4 5 6\n7 8 9\n10 11 12 13 14 15 x\n",
            ReaderOptions::default(),
        );
        assert_eq!(ps.len(), 1);
        assert_eq!(ps[0].board.as_ref().unwrap().shape().cells(), 16);
        // Forced POJ ignores blank lines inside the board; one board per line when the first
        // line is a whole board.
        let forced = ReaderOptions {
            format: Some(Format::Poj),
            ..ReaderOptions::default()
        };
        let (_, ps) = read_all("2 3 4\n\n1 5 x\n\n7 6 8\n", forced);
        assert_eq!(ps.len(), 1);
        assert!(ps[0].board.is_ok());
        let (_, ps) = read_all("2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 x\n", forced);
        assert_eq!(ps.len(), 2);
    }

    #[test]
    fn the_uva_count_is_obeyed() {
        let text = "2\n\n2 3 4 1 5 x 7 6 8\n\n1 2 3\n4 5 6\n7 8 x\n\n1 2 3 4 5 6 7 8 x\n\n2 3 4 1 5 x 7 6 8\n";
        let (f, ps) = read_all(text, ReaderOptions::default());
        assert_eq!(f, Some(Format::Uva));
        let answerable: Vec<bool> = ps.iter().map(|p| p.answerable).collect();
        assert_eq!(answerable, [true, true, false, false]);
        assert!(
            ps[2]
                .board
                .as_ref()
                .unwrap_err()
                .to_string()
                .contains("line 9: dataset 3 is past the 2 declared on line 1; not answered")
        );
        // Too few datasets: a report, no answer expected.
        let (_, ps) = read_all("3\n\n1 2 3 4 5 6 7 8 x\n", ReaderOptions::default());
        assert_eq!(ps.len(), 2);
        assert!(ps[0].answerable && !ps[1].answerable);
        // A byte-order mark before the count is not part of it.
        let (f, ps) = read_all("\u{feff}1\n\n1 2 3 4 5 6 7 x 8\n", ReaderOptions::default());
        assert_eq!(f, Some(Format::Uva));
        assert_eq!(ps.len(), 1);
        assert!(ps[0].board.is_ok());
    }

    #[test]
    fn empty_input_says_so() {
        for text in ["", "\n  \n\t\n"] {
            let (_, ps) = read_all(text, ReaderOptions::default());
            assert_eq!(ps.len(), 1);
            assert!(!ps[0].answerable);
            assert!(
                ps[0]
                    .board
                    .as_ref()
                    .unwrap_err()
                    .to_string()
                    .contains("no board")
            );
        }
    }

    #[test]
    fn stacked_boards_end_where_the_rows_change() {
        // Two stacked 3×3 boards, a third, then a board whose rows differ: four boards.
        let text =
            "2 3 4\n1 5 x\n7 6 8\n1 2 3\n4 5 6\n7 8 x\n1 2 3\n4 5 6\n7 x 8\n\n1 2\n3 4 5 6 7 8 x\n";
        let (_, b) = boards(text);
        assert_eq!(b.len(), 4, "{b:?}");
        assert!(b.iter().all(Result::is_ok), "{b:?}");
        // Stacked 4×4 boards, one row per line (each row of four is no 2×2 board).
        let text =
            "1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 x 15\n1 2 3 4\n5 6 7 8\n9 10 11 12\n13 14 15 x\n";
        let (_, b) = boards(text);
        assert_eq!(b.len(), 2, "{b:?}");
        assert!(b.iter().all(Result::is_ok), "{b:?}");
        // A bad token spoils only its own stacked board.
        let text = "2 3 4\n1 5 x\n7 6 8\n1 2 3\n4 y 6\n7 8 x\n1 2 3\n4 5 6\n7 x 8\n";
        let (_, b) = boards(text);
        assert_eq!(b.len(), 3, "{b:?}");
        assert!(b[0].is_ok() && b[1].is_err() && b[2].is_ok(), "{b:?}");
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
