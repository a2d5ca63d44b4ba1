//! Where boards come from (arguments, a file, standard input) and the options that say how to
//! read them (`--format`, `--size`, `--goal`), shared by every subcommand.

use anyhow::{Context, Result, bail};
use clap::{Args, ValueEnum};
use npuzzle::judge::{Format, JudgeReader, ReaderOptions};
use npuzzle::parse::{Token, read_token};
use npuzzle::{Board, Shape};
use std::fs::File;
use std::io::{self, BufRead, BufReader};
use std::path::PathBuf;

/// Input convention on the command line.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Detect POJ, HDU or UVa from the input.
    Auto,
    /// POJ 1077: one board, possibly over several lines.
    Poj,
    /// HDU 1043: one board per line.
    Hdu,
    /// UVa 652: a count, then datasets separated by blank lines.
    Uva,
    /// Detect the input convention; write one JSON object per board.
    Jsonl,
}

impl FormatArg {
    /// The forced input convention, if any.
    pub fn input_format(self) -> Option<Format> {
        match self {
            FormatArg::Poj => Some(Format::Poj),
            FormatArg::Hdu => Some(Format::Hdu),
            FormatArg::Uva => Some(Format::Uva),
            FormatArg::Auto | FormatArg::Jsonl => None,
        }
    }
}

/// Options describing the boards and their goal.
#[derive(Args, Clone, Debug)]
pub struct BoardOptions {
    /// Input convention (and output: `jsonl` writes JSON lines).
    #[arg(long, value_enum, default_value = "auto")]
    pub format: FormatArg,
    /// Board size WxH (columns x rows) when the tile count does not make it obvious, e.g. 3x2.
    #[arg(long, value_name = "WxH", allow_hyphen_values = true)]
    pub size: Option<Shape>,
    /// Goal board (default: tiles in order, blank last), e.g. "1 2 3 8 x 4 7 6 5".
    #[arg(long, value_name = "BOARD")]
    pub goal: Option<String>,
    /// Use Korf's goal convention: blank first, then tiles in order.
    #[arg(long, conflicts_with = "goal")]
    pub blank_first: bool,
}

impl BoardOptions {
    /// The goal board, if one was given; it fixes the board size.
    pub fn goal_board(&self) -> Result<Option<Board>> {
        let Some(text) = &self.goal else {
            return Ok(None);
        };
        let goal = Board::parse_with_shape(text, self.size)
            .map_err(|e| anyhow::anyhow!("{}", e.kind))
            .context("--goal is not a valid board")?;
        Ok(Some(goal))
    }

    /// The library's goal rule for these options.
    pub fn goals(&self) -> Result<npuzzle::solver::batch::Goals> {
        use npuzzle::solver::batch::Goals;
        Ok(match self.goal_board()? {
            Some(g) => Goals::Fixed(g),
            None if self.blank_first => Goals::BlankFirst,
            None => Goals::Standard,
        })
    }

    /// The shape every board must have, if known up front.
    pub fn fixed_shape(&self) -> Result<Option<Shape>> {
        Ok(match self.goal_board()? {
            Some(g) => Some(g.shape()),
            None => self.size,
        })
    }

    /// Reader options for these flags.
    pub fn reader_options(&self) -> Result<ReaderOptions> {
        Ok(ReaderOptions {
            format: self.format.input_format(),
            shape: self.fixed_shape()?,
            ..ReaderOptions::default()
        })
    }
}

/// A command-line value parser for a pattern-database partition (`--pdb`, `--partition`):
/// one that no board could take is a usage error before any board is read; the library checks
/// the rest against each board's shape.
pub fn partition(spec: &str) -> std::result::Result<String, String> {
    match npuzzle::heuristic::pdb_set::Partition::check_spelling(spec) {
        Ok(()) => Ok(spec.to_string()),
        Err(npuzzle::heuristic::pdb::PdbError::BadPattern(why)) => Err(why),
        Err(e) => Err(e.to_string()),
    }
}

/// A command-line value parser for a database cache directory (`--pdb-dir`): anything there
/// but a directory (a file, a broken link) is a usage error before anything is read or built,
/// and so is an empty value (which would name the current directory); a missing directory is
/// made when something is saved there. Any path the system takes, UTF-8 or not.
pub fn cache_dir() -> impl clap::builder::TypedValueParser<Value = std::path::PathBuf> {
    use clap::builder::TypedValueParser;
    clap::builder::PathBufValueParser::new().try_map(|dir: std::path::PathBuf| {
        if dir.as_os_str().is_empty() {
            Err("an empty value names no directory")
        } else if dir.symlink_metadata().is_ok() && !dir.is_dir() {
            Err("not a directory")
        } else {
            Ok(dir)
        }
    })
}

/// A command-line value parser for whole numbers from `min` to `max`, with a message saying
/// so in words (clap's own range check would print Rust's `1..=5`).
pub fn whole_number<T>(
    min: T,
    max: T,
) -> impl Fn(&str) -> std::result::Result<T, String> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    bounded(min, max, format!("from {min} to {max}"), false)
}

/// A command-line value parser for a positive number of seconds (a time limit; infinity is
/// taken as about 31 years, the library's rule), with a message saying so in words.
pub fn seconds(text: &str) -> std::result::Result<f64, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("an empty value is not a number of seconds".into());
    }
    let v: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    // The library's rule for every time limit (and its message).
    npuzzle::search::seconds(v)
        .map(|_| v)
        .map_err(|e| e.to_string())
}

/// [`whole_number`] for numbers with no upper bound but their type's (`type_max`): its
/// messages ask for "at least `min`", or say "too large", instead of naming a twenty-digit
/// maximum.
pub fn at_least<T>(
    min: T,
    type_max: T,
) -> impl Fn(&str) -> std::result::Result<T, String> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    bounded(min, type_max, format!("of at least {min}"), true)
}

/// The parser of [`whole_number`] and [`at_least`]: `range_words` name the range, and
/// `type_max` says that `max` is the type's own (a number past it is just too large).
fn bounded<T>(
    min: T,
    max: T,
    range_words: String,
    type_max: bool,
) -> impl Fn(&str) -> std::result::Result<T, String> + Clone + Send + Sync + 'static
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text: &str| {
        let text = text.trim();
        let range = |shown: &str| format!("{shown} is not a whole number {range_words}");
        let too_large = |shown: &str| format!("{shown} is too large");
        if text.is_empty() {
            return Err("an empty value is not a whole number".into());
        }
        let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
        // `-0` is 0 (an unsigned parse refuses the sign).
        let unsigned =
            if text.starts_with('-') && !digits.is_empty() && digits.bytes().all(|b| b == b'0') {
                digits
            } else {
                text
            };
        let v: T = unsigned.parse().map_err(|_| {
            // Digits too many for the type are out of range all the same.
            if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                if type_max && !text.starts_with('-') {
                    too_large(text)
                } else {
                    range(text)
                }
            } else {
                format!("`{text}` is not a whole number {range_words}")
            }
        })?;
        if (min..=max).contains(&v) {
            Ok(v)
        } else if type_max && v > max {
            Err(too_large(&v.to_string()))
        } else {
            Err(range(&v.to_string()))
        }
    }
}

/// Checks before a long job that a file can be made at `path` afterwards (its directory
/// exists), so that a mistyped `--plot` path fails at once, not after an hour of work.
pub fn writable_later(path: &std::path::Path, option: &str) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if !dir.is_dir() {
        bail!(
            "{option} {}: {} is not a directory",
            path.display(),
            dir.display()
        );
    }
    if path.is_dir() {
        bail!("{option} {}: that is a directory", path.display());
    }
    Ok(())
}

/// Opens a file, or standard input for `-`.
pub fn open(path: &PathBuf) -> Result<Box<dyn BufRead + Send>> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(BufReader::with_capacity(1 << 16, io::stdin())));
    }
    let f = File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        bail!(
            "cannot read {}: it is a directory, not a file of boards",
            path.display()
        );
    }
    Ok(Box::new(BufReader::with_capacity(1 << 16, f)))
}

/// Where `solve`'s boards come from.
pub enum Source {
    /// Tiles given as arguments: one board, reported without a line number.
    Arguments(Box<dyn BufRead + Send>),
    /// A file or standard input.
    Stream(Box<dyn BufRead + Send>),
}

impl Source {
    /// Whether the board came from the command line.
    pub fn is_arguments(&self) -> bool {
        matches!(self, Source::Arguments(_))
    }

    /// A judge reader over the input. Tiles given as arguments are one board (as with
    /// `--format poj`) unless a format is forced: `solve 0` is a one-tile board, not a UVa
    /// count of no datasets.
    pub fn reader(self, options: &BoardOptions) -> Result<JudgeReader<Box<dyn BufRead + Send>>> {
        let mut reading = options.reader_options()?;
        let input = match self {
            Source::Arguments(r) => {
                reading.format = reading.format.or(Some(Format::Poj));
                r
            }
            Source::Stream(r) => r,
        };
        Ok(JudgeReader::new(input, reading))
    }
}

/// Turns `solve`'s positional arguments into an input: standard input when there are none (or
/// just `-`), one file when the single argument names one (or cannot be a board), and
/// otherwise the arguments' tokens as one board, so that a bad tile gets the same message as
/// on standard input.
pub fn from_arguments(args: &[String]) -> Result<Source> {
    let board_like = |a: &str| {
        a.split_ascii_whitespace().count() > 1
            || matches!(read_token(a.trim().as_bytes()), Token::Tile(_))
            || a.trim().starts_with('-') && a.trim().len() > 1
            || a.trim().chars().all(|c| c.is_ascii_digit())
    };
    if args.len() > 1
        && let Some(file) = args
            .iter()
            .find(|a| std::path::Path::new(a.as_str()).is_file())
    {
        anyhow::bail!("expected one input file or a board's tiles, got the file {file} and more");
    }
    match args {
        [] => Ok(Source::Stream(open(&PathBuf::from("-"))?)),
        [one] if one == "-" || !board_like(one) || std::path::Path::new(one).is_file() => {
            Ok(Source::Stream(open(&PathBuf::from(one))?))
        }
        many => Ok(Source::Arguments(Box::new(io::Cursor::new(
            many.join(" ").into_bytes(),
        )))),
    }
}

/// A reader of judge-format boards over `input`.
pub fn judge_reader(
    input: Box<dyn BufRead + Send>,
    options: &BoardOptions,
) -> Result<JudgeReader<Box<dyn BufRead + Send>>> {
    Ok(JudgeReader::new(input, options.reader_options()?))
}

/// Whether an error is a closed output pipe (e.g. `npuzzle solve … | head`).
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::{at_least, whole_number};

    #[test]
    fn whole_numbers_are_refused_in_words() {
        let threads = whole_number(0u16, 256);
        for (text, read) in [
            ("12", Ok(12)),
            (" 256 ", Ok(256)),
            ("-0", Ok(0)),
            ("300", Err("300 is not a whole number from 0 to 256")),
            (
                "99999999999999999999",
                Err("99999999999999999999 is not a whole number from 0 to 256"),
            ),
            ("1.5", Err("`1.5` is not a whole number from 0 to 256")),
        ] {
            assert_eq!(threads(text), read.map_err(String::from), "{text}");
        }
        let nodes = at_least(1u64, u64::MAX);
        // A cap below the type's own (MiB that fit in bytes) is "too large" past it too.
        let mib = at_least(1u64, u64::MAX >> 20);
        for (parse, text, read) in [
            (&nodes, "1000", Ok(1000)),
            (&nodes, "0", Err("0 is not a whole number of at least 1")),
            (&nodes, "-5", Err("-5 is not a whole number of at least 1")),
            (
                &nodes,
                "99999999999999999999",
                Err("99999999999999999999 is too large"),
            ),
            (
                &nodes,
                "many",
                Err("`many` is not a whole number of at least 1"),
            ),
            (&nodes, "", Err("an empty value is not a whole number")),
            (
                &nodes,
                "+-5",
                Err("`+-5` is not a whole number of at least 1"),
            ),
            (&mib, "20000000000000", Err("20000000000000 is too large")),
        ] {
            assert_eq!(parse(text), read.map_err(String::from), "{text}");
        }
    }

    #[test]
    fn seconds_are_positive_numbers() {
        use super::seconds;
        assert_eq!(seconds("2.5"), Ok(2.5));
        assert_eq!(
            seconds("abc"),
            Err("`abc` is not a number of seconds".into())
        );
        assert_eq!(
            seconds(""),
            Err("an empty value is not a number of seconds".into())
        );
        // Past parsing, the library's rule for every time limit, and its words.
        // Past 31 years, infinity included, is 31 years: no limit in practice.
        for huge in ["inf", "1e400", "1e300"] {
            assert_eq!(
                seconds(huge).map(|s| npuzzle::search::seconds(s).unwrap().as_secs()),
                Ok(1_000_000_000)
            );
        }
        for (bad, shown) in [("0", "0"), ("-1", "-1"), ("-inf", "-inf"), ("nan", "NaN")] {
            assert_eq!(
                seconds(bad),
                Err(format!(
                    "a time limit must be a positive number of seconds, not {shown}"
                ))
            );
        }
    }
}
