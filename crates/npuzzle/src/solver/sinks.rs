//! The batch's sinks: what each front end makes of the replies. [`Text`] writes judge letters,
//! tile notation, step-by-step boards or JSON lines (the CLI, `bench eight`); [`Collect`]
//! keeps each board's outcome (Python's `solve_many`, Ray's batch tasks); [`Lengths`] keeps
//! only each board's answer length (Python's `lengths`, for labelling millions of boards).

use crate::judge::{Format, NO_ANSWER, RawLine};
use crate::search::{SearchError, Stats};
use crate::solution::{Notation, show_steps};
use crate::solver::batch::{Emit, Reply, Sink};
use crate::solver::{Algorithm, Answer, Outcome, Record, SolveError};
use crate::table::Table;
use serde::Serialize;
use std::io::{self, Write};

/// What [`Text`] writes for each board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TextOptions {
    /// How moves are written.
    pub notation: Notation,
    /// Also the boards step by step.
    pub show: bool,
    /// Each board's search figures: on the error stream, or in the JSON line.
    pub stats: bool,
    /// One JSON object per board (a [`Record`] with `line`, and `stats` or `error`).
    pub json: bool,
    /// The board came from the command line: messages name no line.
    pub arguments: bool,
}

impl Default for TextOptions {
    fn default() -> TextOptions {
        TextOptions {
            notation: Notation::Judge,
            show: false,
            stats: false,
            json: false,
            arguments: false,
        }
    }
}

/// Writes answers as text: one line per board (judge letters, tile notation, `unsolvable`, or
/// the [`NO_ANSWER`] marker), answers of UVa input separated by blank lines, or JSON lines;
/// reasons and figures go to the error stream.
#[derive(Clone, Debug, Default)]
pub struct Text {
    options: TextOptions,
}

/// A task's text: answers and reports.
#[derive(Debug, Default)]
pub struct TextPiece {
    /// Answers.
    pub out: Vec<u8>,
    /// Reports (`line N: …`).
    pub err: Vec<u8>,
    uva: bool,
}

/// One JSON line: a board's [`Record`] with its input line, or an error in its place.
#[derive(Serialize)]
struct JsonLine<'a> {
    line: usize,
    #[serde(flatten)]
    record: Option<Record>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    stats: Option<&'a Stats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

impl Text {
    /// A text sink writing as `options` say.
    pub fn new(options: TextOptions) -> Text {
        Text { options }
    }

    /// Nothing but judge letters: answers may come straight from a table.
    fn plain(&self) -> bool {
        let o = &self.options;
        !o.json && !o.show && !o.stats && o.notation == Notation::Judge
    }

    fn begin_answer(piece: &mut TextPiece) {
        if piece.uva {
            piece.out.push(b'\n');
        }
    }

    fn json(piece: &mut TextPiece, line: JsonLine<'_>) {
        let _ = serde_json::to_writer(&mut piece.out, &line);
        piece.out.push(b'\n');
    }

    /// Who a report is about: `line N`, or the board given on the command line.
    fn whose(&self, line: usize) -> String {
        if self.options.arguments {
            "npuzzle: the board".into()
        } else {
            format!("line {line}")
        }
    }

    /// A board that gets no answer: the marker in its place (a JSON error object in JSON
    /// lines), the reason on the error stream.
    fn fail(&self, piece: &mut TextPiece, line: usize, message: &str) {
        let _ = writeln!(piece.err, "{}: {message}", self.whose(line));
        if self.options.json {
            Text::json(
                piece,
                JsonLine {
                    line,
                    record: None,
                    status: Some("error"),
                    stats: None,
                    error: Some(message),
                },
            );
        } else {
            Text::begin_answer(piece);
            piece.out.extend_from_slice(NO_ANSWER.as_bytes());
            piece.out.push(b'\n');
        }
    }

    fn answered(&self, piece: &mut TextPiece, line: usize, board: &crate::Board, outcome: Outcome) {
        let o = &self.options;
        if o.json {
            let stats = match &outcome {
                Outcome::Solved(a) if o.stats => Some(a.stats),
                _ => None,
            };
            let record = Record::new(board, &outcome);
            Text::json(
                piece,
                JsonLine {
                    line,
                    record: Some(record),
                    status: None,
                    stats: stats.as_ref(),
                    error: None,
                },
            );
            return;
        }
        Text::begin_answer(piece);
        let a = match outcome {
            Outcome::Unsolvable => {
                piece.out.extend_from_slice(b"unsolvable\n");
                return;
            }
            Outcome::Solved(a) => a,
        };
        piece
            .out
            .extend_from_slice(o.notation.render(&a.solution).as_bytes());
        piece.out.push(b'\n');
        if o.show {
            piece
                .out
                .extend_from_slice(show_steps(board, &a.solution, o.notation).as_bytes());
        }
        if o.stats {
            let _ = writeln!(piece.err, "{}", stats_line(line, &a));
        } else if let Some(kind) = a.fallback_after {
            let _ = writeln!(
                piece.err,
                "{}: the search hit the {kind}; answered by {} (not optimal)",
                self.whose(line),
                match a.algorithm {
                    Algorithm::Large => "the constructive solver",
                    _ => "the near-optimal solver",
                }
            );
        }
    }
}

/// The figures of one answer in one line, for people.
pub(crate) fn stats_line(line: usize, a: &Answer) -> String {
    format!(
        "line {line}: {}{}{} length={} optimal={}{} expanded={} generated={} peak_stored={} time={:.1}us",
        a.algorithm.name(),
        a.heuristic
            .map(|h| format!("+{}", h.name()))
            .unwrap_or_default(),
        a.databases
            .as_deref()
            .map(|d| format!(" databases={d}"))
            .unwrap_or_default(),
        a.solution.len(),
        a.optimal,
        a.fallback_after
            .map(|k| format!(" fallback_after={}", k.name()))
            .unwrap_or_default(),
        a.stats.expanded,
        a.stats.generated,
        a.stats.peak_stored,
        a.stats.elapsed.as_secs_f64() * 1e6
    )
}

impl Sink for Text {
    type Piece = TextPiece;

    fn piece(&self, format: Option<Format>) -> TextPiece {
        TextPiece {
            uva: !self.options.json && format == Some(Format::Uva),
            ..TextPiece::default()
        }
    }

    fn reply(&self, piece: &mut TextPiece, reply: Reply<'_>) {
        match reply {
            Reply::Problem { line, message } => {
                let _ = writeln!(piece.err, "line {line}: {message}");
            }
            Reply::Unreadable { line, message } => self.fail(piece, line, &message),
            Reply::Board {
                line,
                board,
                result,
            } => match result {
                Ok(outcome) => self.answered(piece, line, board, outcome),
                Err(e) => self.fail(piece, line, &e.to_string()),
            },
        }
    }

    fn takes_letters(&self) -> bool {
        self.plain()
    }

    fn table_lines(
        &self,
        piece: &mut TextPiece,
        table: &Table,
        lines: &[&[u8]],
        _raw: &[RawLine],
    ) -> usize {
        if !self.plain() || piece.uva {
            return 0;
        }
        table.answer_lines(lines, &mut piece.out)
    }
}

/// Writes [`TextPiece`]s in order to an answer stream and a report stream: the batch's `emit`
/// for [`Text`]. UVa answers get no separator before the first one; answers are flushed
/// before each report, so the two streams interleave in order on a terminal.
pub struct TextWriter<O: Write, E: Write> {
    /// The answer stream.
    pub out: O,
    /// The report stream.
    pub err: E,
    answered_any: bool,
}

impl<O: Write, E: Write> TextWriter<O, E> {
    /// A writer to `out` and `err`.
    pub fn new(out: O, err: E) -> TextWriter<O, E> {
        TextWriter {
            out,
            err,
            answered_any: false,
        }
    }

    /// Writes one piece; the answers are flushed whenever the batch waits (see
    /// [`TextWriter::idle`]) and before each report.
    pub fn write(&mut self, piece: TextPiece) -> io::Result<()> {
        let mut bytes = &piece.out[..];
        if piece.uva && !self.answered_any && bytes.first() == Some(&b'\n') {
            bytes = &bytes[1..]; // no separator before the first answer
        }
        self.answered_any |= !bytes.is_empty();
        self.out.write_all(bytes)?;
        if !piece.err.is_empty() {
            self.out.flush()?;
            self.err.write_all(&piece.err)?;
        }
        Ok(())
    }

    /// Flushes the answers written so far.
    pub fn idle(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

impl<O: Write, E: Write> Emit<TextPiece> for &mut TextWriter<O, E> {
    fn piece(&mut self, piece: TextPiece) -> io::Result<()> {
        self.write(piece)
    }

    fn idle(&mut self) -> io::Result<()> {
        TextWriter::idle(self)
    }
}

/// One board's outcome as [`Collect`] keeps it.
#[derive(Debug)]
pub enum Collected {
    /// Answered from a complete table: the judge letters of an optimal solution.
    Letters(String),
    /// The board cannot reach the goal.
    Unsolvable,
    /// Solved.
    Solved(Box<Answer>),
    /// The board could not be read.
    Unreadable(String),
    /// The board could not be solved.
    Failed(SolveError),
}

/// Keeps every board's outcome, by input line (see [`Collected`]).
#[derive(Clone, Copy, Debug)]
pub struct Collect {
    /// Whether boards a table answers come as bare judge letters ([`Collected::Letters`],
    /// the fast path) rather than as whole answers with their figures.
    pub letters: bool,
}

impl Default for Collect {
    fn default() -> Collect {
        Collect { letters: true }
    }
}

impl Sink for Collect {
    type Piece = Vec<(usize, Collected)>;

    fn piece(&self, _format: Option<Format>) -> Self::Piece {
        Vec::new()
    }

    fn reply(&self, piece: &mut Self::Piece, reply: Reply<'_>) {
        let (line, item) = match reply {
            Reply::Problem { .. } => return,
            Reply::Unreadable { line, message } => (line, Collected::Unreadable(message)),
            Reply::Board { line, result, .. } => (
                line,
                match result {
                    Ok(Outcome::Solved(a)) => Collected::Solved(Box::new(a)),
                    Ok(Outcome::Unsolvable) => Collected::Unsolvable,
                    Err(e) => Collected::Failed(e),
                },
            ),
        };
        piece.push((line, item));
    }

    fn takes_letters(&self) -> bool {
        self.letters
    }

    fn table_lines(
        &self,
        piece: &mut Self::Piece,
        table: &Table,
        lines: &[&[u8]],
        raw: &[RawLine],
    ) -> usize {
        if !self.letters {
            return 0;
        }
        let mut letters = Vec::with_capacity(lines.len() * 24);
        let n = table.answer_lines(lines, &mut letters);
        for (r, text) in raw.iter().zip(letters.split(|&b| b == b'\n')).take(n) {
            let item = if text == b"unsolvable" {
                Collected::Unsolvable
            } else {
                Collected::Letters(String::from_utf8_lossy(text).into_owned())
            };
            piece.push((r.line, item));
        }
        n
    }
}

/// A board's answer length as [`Lengths`] keeps it: the length, or one of the negative
/// markers.
pub mod length {
    /// The board cannot reach the goal.
    pub const UNSOLVABLE: i32 = -1;
    /// The board could not be read (or solved, other than by a limit).
    pub const UNREADABLE: i32 = -2;
    /// The search hit a limit.
    pub const LIMIT: i32 = -3;
}

/// Keeps each board's answer length (optimal where the method is), by input line; answers
/// from a table without building their moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lengths;

impl Sink for Lengths {
    type Piece = Vec<(usize, i32)>;

    fn piece(&self, _format: Option<Format>) -> Self::Piece {
        Vec::new()
    }

    fn reply(&self, piece: &mut Self::Piece, reply: Reply<'_>) {
        let (line, n) = match reply {
            Reply::Problem { .. } => return,
            Reply::Unreadable { line, .. } => (line, length::UNREADABLE),
            Reply::Board { line, result, .. } => (
                line,
                match result {
                    Ok(Outcome::Solved(a)) => i32::try_from(a.solution.len()).unwrap_or(i32::MAX),
                    Ok(Outcome::Unsolvable) => length::UNSOLVABLE,
                    Err(SolveError::Search(SearchError::Limit(_))) => length::LIMIT,
                    Err(_) => length::UNREADABLE,
                },
            ),
        };
        piece.push((line, n));
    }

    fn takes_letters(&self) -> bool {
        true
    }

    fn table_lines(
        &self,
        piece: &mut Self::Piece,
        table: &Table,
        lines: &[&[u8]],
        raw: &[RawLine],
    ) -> usize {
        let mut n = 0;
        for (text, r) in lines.iter().zip(raw) {
            match table.distance_of_line(text) {
                Some(d) => piece.push((r.line, d)),
                None => break,
            }
            n += 1;
        }
        n
    }
}
