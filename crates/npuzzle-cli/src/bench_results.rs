//! The results file of a long benchmark run (`bench korf24 --all --results FILE`).
//!
//! Korf's fifty 24-puzzles take hours to days, so the run must survive being stopped: each
//! finished instance is appended to the file as one JSON line and synced before the next one
//! starts, a run stopped for any reason loses at most the instance it was on, and a re-run
//! skips every instance the file already holds a solution for. A torn last line (the machine
//! lost power mid-write) is reported and ignored, never fatal. A run holds the file locked, so
//! a second run on the same file is refused instead of repeating the first's work (or taking
//! its line being written for a torn one). From the solved instances the summary projects the
//! rest (see [`project`]): states grow about geometrically with the optimal length, so a fit
//! of `ln states` against it, priced at the measured rate. A hard instance may need more
//! time than one run has: its search is kept beside the file as a [`KeptCheckpoint`] between
//! and within iterations, and the next run of the instance goes on from it.

use anyhow::{Context, Result, bail};
use npuzzle::search::Checkpoint;
use serde::{Deserialize, Serialize};
use std::ffi::{OsStr, OsString};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Longest results file read back (a file of fifty instances is a few kilobytes).
const MAX_FILE_BYTES: u64 = 16 << 20;

/// One finished instance, as one line of the results file.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct InstanceResult {
    /// Instance number, 1-based.
    pub instance: usize,
    /// Published optimal length.
    pub optimum: usize,
    /// Length found (every solution is replayed to the goal first), or `None` when the
    /// instance reached the time budget or was interrupted.
    pub found: Option<usize>,
    /// States expanded.
    pub expanded: u64,
    /// Search time in seconds.
    pub seconds: f64,
    /// The heuristic: partition, databases and whether the reflected lookup was on.
    pub heuristic: String,
    /// The form of the instances: `blank-first` (Korf's) or `blank-last`.
    #[serde(default = "blank_first")]
    pub goal: String,
    /// The heuristic's value at the start board.
    pub root_estimate: u32,
    /// Threads the search ran on.
    pub threads: usize,
    /// Seconds since the Unix epoch when the instance finished.
    pub finished_at: u64,
    /// The npuzzle version that ran it.
    pub version: String,
    /// Whether an interrupt (Ctrl-C, SIGTERM), not the budget, stopped this unsolved search; its states
    /// still count as a floor for the instance. Absent (false) on lines written before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub interrupted: bool,
    /// The solution found, as blank-move letters (`u`, `d`, `l`, `r`) from the instance in the
    /// line's goal form, so that hours of search keep their answer. Read back, it is replayed
    /// before the line counts (the bench's [`LineCheck`]). Absent on unsolved lines and on lines
    /// written before the field existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moves: Option<String>,
}

/// The form lines written before the field existed were run in.
fn blank_first() -> String {
    "blank-first".into()
}

impl InstanceResult {
    /// Whether the instance was solved (at any length: a mismatch is reported, still solved).
    pub fn solved(&self) -> bool {
        self.found.is_some()
    }
}

/// The lines of `held` that count for a run over `heuristic` (a [`PdbSet::describe`] line) in
/// `form` (`blank-first` or `blank-last`), and how many lines do not.
///
/// [`PdbSet::describe`]: npuzzle::heuristic::pdb_set::PdbSet::describe
pub fn counted<'a>(
    held: &'a [InstanceResult],
    heuristic: &str,
    form: &str,
) -> (Vec<&'a InstanceResult>, usize) {
    let (matching, other): (Vec<_>, Vec<_>) = held
        .iter()
        .partition(|h| h.heuristic == heuristic && h.goal == form);
    (matching, other.len())
}

/// The last solution of `instance` among `lines`, if any.
pub fn latest_solution<'a>(
    lines: &[&'a InstanceResult],
    instance: usize,
) -> Option<&'a InstanceResult> {
    lines
        .iter()
        .rev()
        .find(|h| h.instance == instance && h.solved())
        .copied()
}

/// What a line must pass to count, beyond being a result: `Err(why)` leaves it out, named on
/// stderr with its line number (the bench's check of the line's instance, optimum and moves).
pub type LineCheck<'a> = &'a dyn Fn(&InstanceResult) -> Result<(), String>;

/// A results file open for appending, with what it held when opened.
pub struct ResultsFile {
    path: PathBuf,
    file: File,
}

impl ResultsFile {
    /// Opens (or creates) `path` for appending, returning it and the results it holds. A torn
    /// last line (a write cut short) is reported and cut off; any other line that is not a
    /// result is an error (the file is not a results file), so nothing else is ever appended to.
    /// A line that fails `check` is named and left out of what it returns (the file keeps it).
    pub fn open(path: &Path, check: LineCheck) -> Result<(ResultsFile, Vec<InstanceResult>)> {
        refuse_special(path, "--results takes a file")?;
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .with_context(|| format!("opening the results file {}", path.display()))?;
        // One run a file: a second would repeat the first's instances, and could take the
        // first's line being written for a torn one and cut it off.
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => bail!(
                "{}: another run is writing to this results file; let it finish (or stop it: it resumes), or give this run another file",
                path.display()
            ),
            // A filesystem without locks: the run goes on, unguarded, as before locking.
            Err(TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
                eprintln!(
                    "npuzzle: {}: this filesystem cannot lock the results file; make sure no other run writes to it",
                    path.display()
                );
            }
            Err(TryLockError::Error(e)) => {
                return Err(e)
                    .with_context(|| format!("locking the results file {}", path.display()));
            }
        }
        let text = read_text(path, &mut file)?;
        let (held, good) = parse(path, &text, check)?;
        // A last line complete but for its newline (an edit): ended, so that the next line
        // appended is a line of its own.
        if good == text.len() && !text.is_empty() && !text.ends_with('\n') {
            file.write_all(b"\n")
                .with_context(|| format!("ending the last line of {}", path.display()))?;
        }
        if good < text.len() {
            eprintln!(
                "npuzzle: {}: the last line was cut short (a run stopped mid-write); removed",
                path.display()
            );
            file.set_len(good as u64)
                .with_context(|| format!("cutting the torn line off {}", path.display()))?;
        }
        // A new file's name is made durable with its first line.
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = File::open(dir).and_then(|d| d.sync_all());
        }
        Ok((
            ResultsFile {
                path: path.to_path_buf(),
                file,
            },
            held,
        ))
    }

    /// The results `path` holds, without writing anything: a torn last line is left out and
    /// named on stderr (as being written when a run holds the file, else as cut short: the
    /// next run with the file cuts it off). A line that fails `check` is named and left out.
    pub fn read(path: &Path, check: LineCheck) -> Result<Vec<InstanceResult>> {
        ResultsFile::read_as(path, check, Role::Results)
    }

    /// The results `path` holds, read as `--reference` (an earlier run's file, only ever
    /// read): as [`ResultsFile::read`], its messages naming that option.
    pub fn read_reference(path: &Path, check: LineCheck) -> Result<Vec<InstanceResult>> {
        ResultsFile::read_as(path, check, Role::Reference)
    }

    fn read_as(path: &Path, check: LineCheck, role: Role) -> Result<Vec<InstanceResult>> {
        let (option, what) = match role {
            Role::Results => ("--results takes a file", "results file"),
            Role::Reference => ("--reference takes a file", "reference results file"),
        };
        refuse_special(path, option)?;
        let mut file =
            File::open(path).with_context(|| format!("opening the {what} {}", path.display()))?;
        let text = read_text(path, &mut file)?;
        let (held, good) = parse(path, &text, check)?;
        if good < text.len() {
            // A run holding the file may be writing that line right now.
            let why = match file.try_lock() {
                Err(TryLockError::WouldBlock) => {
                    "being written by a run in progress; not counted yet"
                }
                held => {
                    if held.is_ok() {
                        let _ = file.unlock();
                    }
                    match role {
                        Role::Results => {
                            "cut short (a run stopped mid-write); not counted (the next run with this file removes it)"
                        }
                        Role::Reference => "cut short (a run stopped mid-write); not counted",
                    }
                }
            };
            eprintln!(
                "npuzzle: {} line {}: {why}",
                path.display(),
                text[..good].lines().count() + 1
            );
        }
        Ok(held)
    }

    /// Appends `r` as one line and syncs it to disk.
    pub fn append(&mut self, r: &InstanceResult) -> Result<()> {
        let mut line = serde_json::to_string(r)?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.sync_data())
            .with_context(|| format!("appending to {}", self.path.display()))
    }
}

/// What a results file is read as.
#[derive(Clone, Copy)]
enum Role {
    /// `--results`: the run's own file.
    Results,
    /// `--reference`: an earlier run's, only read.
    Reference,
}

/// An error unless `path` is missing or a plain file: a directory, a device or a pipe is no
/// results file (and a pipe or `/dev/zero` would block or never end), refused before opening.
fn refuse_special(path: &Path, expected: &str) -> Result<()> {
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => {
            bail!("{} is a directory: {expected}", path.display())
        }
        Ok(meta) if !meta.is_file() => bail!(
            "{} is not a plain file (a device or a pipe): {expected}",
            path.display()
        ),
        _ => Ok(()),
    }
}

/// The whole of a results file: at most [`MAX_FILE_BYTES`] are read, whatever the file turns
/// out to be, and a longer one is refused.
fn read_text(path: &Path, file: &mut File) -> Result<String> {
    read_capped(
        path,
        file,
        MAX_FILE_BYTES,
        "a results file (they hold one short line per instance)",
    )
}

/// The whole of `file` (at `path`), `what` it should be: at most `max` bytes are read,
/// whatever the file turns out to be, and a longer one is refused.
fn read_capped(path: &Path, file: &mut File, max: u64, what: &str) -> Result<String> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0))
        .and_then(|_| (&*file).take(max + 1).read_to_string(&mut text))
        .map_err(|e| {
            let not = if e.kind() == std::io::ErrorKind::InvalidData {
                format!(": not {what} (not UTF-8 text)")
            } else {
                String::new()
            };
            anyhow::Error::new(e).context(format!("reading {}{not}", path.display()))
        })?;
    if text.len() as u64 > max {
        bail!("{} is over {} MiB: not {what}", path.display(), max >> 20);
    }
    Ok(text)
}

/// Largest checkpoint file read: a frontier's order is at most about 65,000 roots of a few
/// dozen bytes each.
const MAX_CHECKPOINT_BYTES: u64 = 64 << 20;

/// An instance's search between two iterations, kept beside the results file while it runs
/// ([`checkpoint_path`]): a run stopped by its budget or an interrupt loses none of the
/// iterations it finished, and the next run of the instance goes on from there. Kept with the
/// databases and goal form it was searched with, so that no other search takes it up.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct KeptCheckpoint {
    /// The instance's number.
    pub instance: usize,
    /// The databases searched with (as in the results file).
    pub heuristic: String,
    /// The goal form searched for.
    pub goal: String,
    /// Where the search stands.
    pub checkpoint: Checkpoint,
}

/// Where instance `instance`'s checkpoint of a search with `heuristic` (a [`PdbSet::describe`]
/// line) for the `goal` form is kept beside the results file `results`:
/// `FILE.N.FORM.NAME-HASH.checkpoint`, NAME the databases' short name and HASH a digest of their
/// whole description. One results file may hold runs of several forms and databases; each
/// keeps its own checkpoint of an instance, and none stops on another's.
///
/// [`PdbSet::describe`]: npuzzle::heuristic::pdb_set::PdbSet::describe
pub fn checkpoint_path(results: &Path, instance: usize, heuristic: &str, goal: &str) -> PathBuf {
    // A named partition's name ("6-6-6-6", "blocks-4"); one given tile by tile is "custom".
    let name = heuristic
        .split_whitespace()
        .next()
        .filter(|n| n.len() <= 24 && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .unwrap_or("custom");
    let form: String = goal
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    beside_results(
        results,
        &format!(
            ".{instance}.{form}.{name}-{:08x}.checkpoint",
            digest(heuristic)
        ),
    )
}

/// Where earlier builds kept instance `instance`'s checkpoint before the name carried the form
/// and the databases: a run adopts one that fits ([`KeptCheckpoint::find`]).
fn unlabelled_checkpoint_path(results: &Path, instance: usize) -> PathBuf {
    beside_results(results, &format!(".{instance}.checkpoint"))
}

/// The file named the results file's own name followed by `suffix`, beside it. The name is kept
/// as the system gave it (not made valid UTF-8), so results files whose names differ only in
/// bytes that are not UTF-8 keep their checkpoints apart.
fn beside_results(results: &Path, suffix: &str) -> PathBuf {
    let mut name = results_name(results);
    name.push(suffix);
    results.with_file_name(name)
}

/// The results file's own name, the stem of its checkpoints' names.
fn results_name(results: &Path) -> OsString {
    results
        .file_name()
        .map_or_else(|| "results".into(), OsStr::to_os_string)
}

/// A digest of `text` that stays the same across platforms and versions (FNV-1a, 64 bits,
/// folded to 32): it tells two database descriptions apart in a file name, where the
/// description itself (the whole partition) would be too long.
fn digest(text: &str) -> u32 {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    (hash ^ (hash >> 32)) as u32
}

impl KeptCheckpoint {
    /// Whatever checkpoint is kept at `path`, whichever instance, databases and form it is of;
    /// `None` when there is none, an error naming the file when it is no checkpoint.
    pub fn open(path: &Path) -> Result<Option<Self>> {
        if !path.exists() {
            return Ok(None);
        }
        refuse_special(path, "a checkpoint is a file npuzzle writes")?;
        let mut file = File::open(path)
            .with_context(|| format!("opening the checkpoint {}", path.display()))?;
        let text = read_capped(path, &mut file, MAX_CHECKPOINT_BYTES, "a checkpoint")?;
        serde_json::from_str(&text)
            .map(Some)
            .with_context(|| format!("{} is not a checkpoint npuzzle wrote", path.display()))
    }

    /// The checkpoint at `path` when it is `instance`'s with these databases and goal form,
    /// whose bound is at most the instance's `optimum`; `None` when there is none. Anything
    /// else there (another instance's or other databases' checkpoint, a bound past the
    /// optimum, a file that is no checkpoint) is an error naming it and saying why: a run
    /// never overwrites it, and a summary does not count it.
    fn read(
        path: &Path,
        instance: usize,
        heuristic: &str,
        goal: &str,
        optimum: usize,
    ) -> Result<Option<Self>> {
        let Some(kept) = Self::open(path)? else {
            return Ok(None);
        };
        kept.fits(path, instance, heuristic, goal, optimum)?;
        Ok(Some(kept))
    }

    /// Instance `instance`'s checkpoint for a run with these databases and goal form beside the
    /// results file `results`, with where it is; `None` when there is none. The one at its
    /// own name ([`checkpoint_path`]) must fit (see [`Self::read`]). One an earlier build kept
    /// under the name without form and databases is this run's only when it fits, and is then
    /// renamed to its own name when `adopt` (a run about to search; a check or a summary only
    /// reads). One that does not fit is another run's, left alone (said so when `adopt`); one
    /// that cannot be renamed is searched on from where it is (said so).
    pub fn find(
        results: &Path,
        instance: usize,
        heuristic: &str,
        goal: &str,
        optimum: usize,
        adopt: bool,
    ) -> Result<Option<(PathBuf, Self)>> {
        let own = checkpoint_path(results, instance, heuristic, goal);
        if let Some(kept) = Self::read(&own, instance, heuristic, goal, optimum)? {
            return Ok(Some((own, kept)));
        }
        let old = unlabelled_checkpoint_path(results, instance);
        let fitting = Self::open(&old).and_then(|kept| match kept {
            Some(k) => k
                .fits(&old, instance, heuristic, goal, optimum)
                .map(|()| Some(k)),
            None => Ok(None),
        });
        let kept = match fitting {
            Ok(Some(k)) => k,
            Ok(None) => return Ok(None),
            Err(why) => {
                if adopt {
                    eprintln!("npuzzle: left alone: {why:#}");
                }
                return Ok(None);
            }
        };
        if !adopt {
            return Ok(Some((old, kept)));
        }
        match std::fs::rename(&old, &own) {
            Ok(()) => {
                eprintln!(
                    "npuzzle: #{instance}'s checkpoint {} is renamed {} (a checkpoint's name now carries its form and databases)",
                    old.display(),
                    own.display()
                );
                Ok(Some((own, kept)))
            }
            Err(e) => {
                eprintln!(
                    "npuzzle: #{instance}'s checkpoint {} could not be renamed {}: {e}; the search goes on from it where it is",
                    old.display(),
                    own.display()
                );
                Ok(Some((old, kept)))
            }
        }
    }

    /// Every checkpoint kept beside the results file `results` under the name its contents give
    /// it (or the name earlier builds gave), with where it is, lowest instance first.
    pub fn beside(results: &Path) -> Vec<(PathBuf, Self)> {
        let mut stem = results_name(results);
        stem.push(".");
        let dir = match results.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let mut kept: Vec<(PathBuf, Self)> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|entry| entry.path())
            .filter(|p| {
                p.file_name().is_some_and(|n| {
                    // FILE.N.…checkpoint: others (FILE.old.…) are not read at all.
                    let n = n.as_encoded_bytes();
                    n.strip_prefix(stem.as_encoded_bytes())
                        .is_some_and(|rest| rest.first().is_some_and(u8::is_ascii_digit))
                        && n.ends_with(b".checkpoint")
                })
            })
            .filter_map(|p| Self::open(&p).ok().flatten().map(|k| (p, k)))
            // Another file's (`FILE.old.…`) or a copy's is not this file's.
            .filter(|(p, k)| {
                let own = checkpoint_path(results, k.instance, &k.heuristic, &k.goal);
                let old = unlabelled_checkpoint_path(results, k.instance);
                p.file_name() == own.file_name() || p.file_name() == old.file_name()
            })
            .collect();
        kept.sort_by(|a, b| (a.1.instance, &a.0).cmp(&(b.1.instance, &b.0)));
        kept
    }

    /// Whether this checkpoint, read from `path`, is `instance`'s with these databases and
    /// goal form, at a bound no search of an instance of `optimum` moves can have passed; an
    /// error naming the file and why when not.
    pub fn fits(
        &self,
        path: &Path,
        instance: usize,
        heuristic: &str,
        goal: &str,
        optimum: usize,
    ) -> Result<()> {
        // Named by what differs: the full database names are long.
        let path = path.display();
        if self.instance != instance {
            bail!(
                "{path} is #{}'s checkpoint, not #{instance}'s",
                self.instance
            );
        }
        if self.goal != goal {
            bail!(
                "{path} is a checkpoint of the {} goal, not the {goal} goal",
                self.goal
            );
        }
        if self.heuristic != heuristic {
            bail!(
                "{path} is a checkpoint with databases {}, not {heuristic}",
                self.heuristic
            );
        }
        if self.checkpoint.bound as usize > optimum {
            bail!(
                "{path}: its bound {} is past #{instance}'s optimum {optimum}: no search of #{instance} wrote it",
                self.checkpoint.bound
            );
        }
        Ok(())
    }

    /// Writes it to `path` whole or not at all (a temporary file renamed over it).
    pub fn write(&self, path: &Path) -> Result<()> {
        let tmp = path.with_extension("checkpoint.tmp");
        let text = serde_json::to_string(self)?;
        std::fs::write(&tmp, text)
            .and_then(|_| File::open(&tmp)?.sync_all())
            .and_then(|_| std::fs::rename(&tmp, path))
            .inspect_err(|_| {
                // A partial temporary file is no use to anyone.
                let _ = std::fs::remove_file(&tmp);
            })
            .with_context(|| {
                format!(
                    "writing the checkpoint {} (through {})",
                    path.display(),
                    tmp.display()
                )
            })
    }
}

/// The results in `text`, and the length of the part that holds them: everything but a torn
/// last line (one with no newline that does not read as a result).
fn parse(path: &Path, text: &str, check: LineCheck) -> Result<(Vec<InstanceResult>, usize)> {
    let mut held = Vec::new();
    let mut at = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let complete = line.ends_with('\n');
        let body = line.trim();
        if !body.is_empty() {
            match serde_json::from_str::<InstanceResult>(body) {
                Ok(r) => match check(&r) {
                    Ok(()) => held.push(r),
                    Err(why) => eprintln!(
                        "npuzzle: {} line {}: {why}; not counted",
                        path.display(),
                        i + 1
                    ),
                },
                // A last line cut short by a stop mid-write: the start of a JSON object, or
                // anything after results. A file of other text is refused whole.
                Err(_) if !complete && (body.starts_with('{') || !held.is_empty()) => {
                    return Ok((held, at));
                }
                Err(e) => bail!(
                    "{} line {}: not a result ({e}); a results file holds only the JSON lines npuzzle writes",
                    path.display(),
                    i + 1
                ),
            }
        }
        at += line.len();
    }
    Ok((held, at))
}

/// What the instances not yet solved are expected to cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Projection {
    /// Each pending instance's expected states expanded, in the order given.
    pub each: Vec<f64>,
    /// States per second measured over the solved instances.
    pub rate: f64,
    /// The fit of states to the optimal length, when one could be made (three solved
    /// instances of more than one length); without it only a reference prices.
    pub fit: Option<Fit>,
    /// When a reference run prices (three or more instances solved in both): how (see
    /// [`project`]).
    pub scaled: Option<Scaled>,
    /// Whether each pending instance, in the order given, was priced from its reference line.
    pub from_reference: Vec<bool>,
    /// Instances solved both here and in the reference (the reference prices from three).
    pub common: usize,
}

impl Projection {
    /// How many pending instances were priced from their reference lines (the others,
    /// without one or where a run already spent far more than it says, from the fit).
    pub fn priced_from_reference(&self) -> usize {
        self.from_reference.iter().filter(|&&f| f).count()
    }
}

/// The fit of `ln states` to the optimal length (see [`project`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// States multiply by `growth` per move of optimal length.
    pub growth: f64,
    /// How far one instance strays from the fit: the fitted standard deviation of `ln states`,
    /// as a factor (`spread`× more or fewer states is one standard deviation).
    pub spread: f64,
}

/// Pending instances priced from their own lines in a reference run (an earlier run of the
/// same instances, with another build or heuristic): each at its reference states times
/// `ratio`.
#[derive(Clone, Debug, PartialEq)]
pub struct Scaled {
    /// The geometric mean, over the instances solved both here and in the reference
    /// ([`Projection::common`]), of states here over states in the reference.
    pub ratio: f64,
    /// The least and the greatest of those ratios.
    pub range: (f64, f64),
}

impl Projection {
    /// States expanded, summed over the instances projected (the expected value).
    pub fn states(&self) -> f64 {
        self.each.iter().sum()
    }

    /// Seconds for them at the measured rate.
    pub fn seconds(&self) -> f64 {
        self.states() / self.rate
    }
}

/// One instance still to solve: its optimal length, and the most states a run already spent
/// on it before its budget or an interrupt stopped it (0 when none did): solving it takes at
/// least those.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pending {
    /// Instance number, 1-based.
    pub instance: usize,
    /// The published optimal length.
    pub optimum: usize,
    /// The most states any run stopped unsolved had expanded on it.
    pub at_least: u64,
}

/// The instances of `instances` (number, optimum) not in `solved`, each with the most states an
/// unsolved line of `lines` spent on it.
pub fn pending(
    instances: impl IntoIterator<Item = (usize, usize)>,
    solved: &[InstanceResult],
    lines: &[&InstanceResult],
) -> Vec<Pending> {
    instances
        .into_iter()
        .filter(|(no, _)| !solved.iter().any(|r| r.instance == *no))
        .map(|(no, optimum)| Pending {
            instance: no,
            optimum,
            at_least: lines
                .iter()
                .filter(|r| r.instance == no && !r.solved())
                .map(|r| r.expanded)
                .max()
                .unwrap_or(0),
        })
        .collect()
}

/// Projects the states and time the `pending` instances will take from the `solved` ones. For a
/// fixed heuristic an IDA* search grows about geometrically with the solution length (Korf, Reid
/// and Edelkamp 2001), so `ln states = a + b·optimum + ε` is fitted, `ε` normal (the instances
/// scatter widely about the line, about normally in `ln states`).
///
/// An instance a run stopped unsolved after `S` states is no missing point but a censored one:
/// it needs more than `S`. Left out, the fit would learn only from the instances that happened
/// to finish (with a short budget, the easiest) and price the rest as easy as those; so the fit
/// is the censored-normal (Tobit) one, found by expectation-maximisation from the least-squares
/// line of the solved (the variance with the usual `n - 2` correction, so that without stopped
/// instances it is the least-squares fit itself). Each pending instance is priced at the fit's
/// median, a stopped one at the median given that it needs more than `S` (never less than `S`),
/// which is at least the unconditional median: on the fifty's measured lines the lognormal means
/// overpriced the rest two to six times (one instance strays from the fit by a factor of 5–7,
/// and the mean follows that tail), where the medians came within 15 % (see
/// `docs/algorithms.md`). `None` below three solved instances, when their optimal lengths are
/// all equal (no slope to fit), or without a rate.
///
/// `reference` holds the states each instance took in a reference run (solved lines of an
/// earlier run of the same set, `(instance, states)`). An instance's own hardness strays from
/// the fit by a factor of about 4 either way, while a change of build or heuristic moves every
/// instance's states by a similar factor (0.74–0.86 for the 16-move pruning against the
/// 12-move one on the 24-puzzle). So when at least three solved instances have a reference
/// line, `ln(states / reference states)` over them is taken as normal, and each pending
/// instance with a reference line is priced from it at that distribution's median (a stopped
/// one at its median given that it needs more than it spent), the others from the fit, as is
/// a stopped one that has spent more than three spreads above its reference price (the
/// reference is wrong about it). The ratio is taken from the solved instances alone: where the
/// change gains more on harder instances, and a short budget left only easy ones solved, it
/// is biased (the fit's censoring is not carried over).
/// The censored-normal fit of `ln states = a + b·optimum` (see [`project`]): `(a, b, variance)`,
/// or `None` below three points, with no spread in the lengths, or when it does not settle on
/// finite values.
fn fit_line(points: &[(f64, f64)], pending: &[Pending]) -> Option<(f64, f64, f64)> {
    if points.len() < 3 {
        return None;
    }
    let line = |pts: &[(f64, f64)]| -> Option<(f64, f64)> {
        let n = pts.len() as f64;
        let mx = pts.iter().map(|p| p.0).sum::<f64>() / n;
        let my = pts.iter().map(|p| p.1).sum::<f64>() / n;
        let sxx: f64 = pts.iter().map(|p| (p.0 - mx).powi(2)).sum();
        if sxx <= f64::EPSILON {
            return None;
        }
        let b = pts.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum::<f64>() / sxx;
        Some((my - b * mx, b))
    };
    let (mut a, mut b) = line(points)?;
    let dof = (points.len() as f64 - 2.0).max(1.0);
    let mut variance = points
        .iter()
        .map(|p| (p.1 - a - b * p.0).powi(2))
        .sum::<f64>()
        / dof;
    let censored: Vec<(f64, f64)> = pending
        .iter()
        .filter(|p| p.at_least > 0)
        .map(|p| (p.optimum as f64, (p.at_least as f64).ln()))
        .collect();
    if !censored.is_empty() {
        let dof = points.len() as f64 + censored.len() as f64 - 2.0;
        let mut filled = points.to_vec();
        for _ in 0..1000 {
            let sigma = variance.sqrt().max(1e-3);
            // The expected ln states (and their squares) of each censored instance given the
            // current fit and that it needs more than its floor, after the solved points.
            filled.truncate(points.len());
            let mut squares = 0.0;
            for &(x, c) in &censored {
                let mu = a + b * x;
                let z = (c - mu) / sigma;
                let lambda = (ln_normal_density(z) - ln_upper_tail(z)).exp();
                let ey = mu + sigma * lambda;
                let ey2 = mu * mu + sigma * sigma + sigma * lambda * (c + mu);
                filled.push((x, ey));
                squares += (ey2 - ey * ey).max(0.0);
            }
            let (na, nb) = line(&filled)?;
            let residual: f64 = filled.iter().map(|p| (p.1 - na - nb * p.0).powi(2)).sum();
            let nv = (residual + squares) / dof;
            let settled =
                (na - a).abs() < 1e-9 && (nb - b).abs() < 1e-9 && (nv - variance).abs() < 1e-9;
            (a, b, variance) = (na, nb, nv);
            if settled {
                break;
            }
        }
    }
    let fitted = a.is_finite() && b.is_finite() && variance.is_finite() && variance >= 0.0;
    fitted.then_some((a, b, variance))
}

pub fn project(
    solved: &[&InstanceResult],
    pending: &[Pending],
    reference: &[(usize, u64)],
) -> Option<Projection> {
    let points: Vec<(f64, f64)> = solved
        .iter()
        .filter(|r| r.expanded > 0)
        .map(|r| (r.optimum as f64, (r.expanded as f64).ln()))
        .collect();
    let fit = fit_line(&points, pending);
    let seconds: f64 = solved.iter().map(|r| r.seconds).sum();
    let done: f64 = solved.iter().map(|r| r.expanded as f64).sum();
    if seconds <= 0.0 || done <= 0.0 {
        return None;
    }
    let rate = done / seconds;
    let reference_of = |instance: usize| {
        reference
            .iter()
            .find(|&&(no, states)| no == instance && states > 0)
            .map(|&(_, states)| (states as f64).ln())
    };
    // ln(states here / states there) over the instances solved in both.
    let ratios: Vec<f64> = solved
        .iter()
        .filter(|r| r.expanded > 0)
        .filter_map(|r| Some((r.expanded as f64).ln() - reference_of(r.instance)?))
        .collect();
    // The ratios' mean, and the spread of a new instance's ratio about it (the sample's, widened
    // by the mean's own uncertainty).
    let by_reference = (ratios.len() >= 3).then(|| {
        let n = ratios.len() as f64;
        let mean = ratios.iter().sum::<f64>() / n;
        let sd = (ratios.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        (mean, sd * (1.0 + 1.0 / n).sqrt())
    });
    let mut from_reference = Vec::with_capacity(pending.len());
    let each: Option<Vec<f64>> = pending
        .iter()
        .map(|p| {
            let floor = p.at_least as f64;
            // From the reference, unless a run has already spent far more than it says (three
            // spreads above its price): then it is wrong about this instance, and the fit
            // prices it (a tight ratio would otherwise price it at hardly more than its floor).
            let scaled = match (by_reference, reference_of(p.instance)) {
                (Some((mean, sd)), Some(there))
                    if p.at_least == 0 || floor.ln() - (there + mean) <= 3.0 * sd =>
                {
                    Some((there + mean, sd))
                }
                _ => None,
            };
            from_reference.push(scaled.is_some());
            // Without a fit, only a reference prices.
            let (mu, sigma) = scaled.or_else(|| {
                let (a, b, variance) = fit?;
                Some((a + b * p.optimum as f64, variance.sqrt()))
            })?;
            if p.at_least == 0 || sigma < 1e-9 {
                return Some(mu.exp().max(floor));
            }
            // The median of X given X > S: exp(μ + σ·t) where Q(t) = Q(z) / 2, z = (ln S -
            // μ) / σ and Q the normal upper tail (found by bisection, Q being monotone).
            let z = (floor.ln() - mu) / sigma;
            let half = ln_upper_tail(z) - std::f64::consts::LN_2;
            let (mut lo, mut hi) = (z, z.max(0.0) + 40.0);
            for _ in 0..100 {
                let mid = 0.5 * (lo + hi);
                if ln_upper_tail(mid) > half {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            Some((mu + sigma * 0.5 * (lo + hi)).exp().max(floor))
        })
        .collect();
    let each = each?;
    let scaled = by_reference.map(|(mean, _)| Scaled {
        ratio: mean.exp(),
        range: ratios
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &r| {
                (lo.min(r.exp()), hi.max(r.exp()))
            }),
    });
    Some(Projection {
        each,
        rate,
        fit: fit.map(|(_, b, variance)| Fit {
            growth: b.exp(),
            spread: variance.sqrt().exp(),
        }),
        scaled,
        from_reference,
        common: ratios.len(),
    })
}

/// `ln φ(z)`, the standard normal density.
fn ln_normal_density(z: f64) -> f64 {
    -0.5 * z * z - 0.5 * (2.0 * std::f64::consts::PI).ln()
}

/// `ln Q(z)`, `Q(z) = P(Z > z)` for a standard normal `Z`, accurate far into the tail (where
/// `Q` itself underflows): from `erfc`'s Chebyshev fit (fractional error below 1.2·10⁻⁷).
fn ln_upper_tail(z: f64) -> f64 {
    // ln erfc(x) for x ≥ 0.
    fn ln_erfc(x: f64) -> f64 {
        let t = 1.0 / (1.0 + 0.5 * x);
        let poly = -1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77))))))));
        t.ln() - x * x + poly
    }
    let x = z / std::f64::consts::SQRT_2;
    if x >= 0.0 {
        0.5f64.ln() + ln_erfc(x)
    } else {
        (-0.5 * ln_erfc(-x).exp()).ln_1p()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checkpoint's name carries the instance, the form, the databases' short name (or
    /// `custom`) and a digest telling apart descriptions that share it.
    #[test]
    fn checkpoint_names_tell_runs_apart() {
        let file = Path::new("/runs/korf24.jsonl");
        let name = |no, heuristic, goal| {
            checkpoint_path(file, no, heuristic, goal)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        };
        let korf = "6-6-6-6 [1, 2, 3, 6, 7, 8] [4, 5, 9, 10, 14, 15] +reflection zero-aware";
        let other = "6-6-6-6 [1, 2, 3, 6, 7, 11] [4, 5, 8, 9, 10, 15] +reflection zero-aware";
        let a = name(25, korf, "blank-first");
        assert!(a.starts_with("korf24.jsonl.25.blank-first.6-6-6-6-"), "{a}");
        assert!(a.ends_with(".checkpoint"), "{a}");
        assert_eq!(a, name(25, korf, "blank-first"));
        assert_ne!(a, name(25, other, "blank-first"));
        assert_ne!(a, name(25, korf, "blank-last"));
        assert_ne!(a, name(26, korf, "blank-first"));
        let custom = name(
            25,
            "1,2,6,7/3,4,8,9 [1, 2, 6, 7] [3, 4, 8, 9]",
            "blank-first",
        );
        assert!(
            custom.starts_with("korf24.jsonl.25.blank-first.custom-"),
            "{custom}"
        );
        assert_eq!(
            checkpoint_path(file, 25, korf, "blank-first").parent(),
            Some(Path::new("/runs"))
        );
    }

    /// Results files whose names differ only in bytes that are not UTF-8 keep their checkpoints
    /// apart: the name is kept as the system gave it.
    #[cfg(unix)]
    #[test]
    fn checkpoint_names_keep_a_name_that_is_not_utf8() {
        use std::os::unix::ffi::OsStrExt;
        let korf = "6-6-6-6 [1, 2, 3, 6, 7, 8] +reflection zero-aware";
        let a = Path::new(OsStr::from_bytes(b"/runs/r\xff.jsonl"));
        let b = Path::new(OsStr::from_bytes(b"/runs/r\xfe.jsonl"));
        let (ca, cb) = (
            checkpoint_path(a, 3, korf, "blank-first"),
            checkpoint_path(b, 3, korf, "blank-first"),
        );
        assert_ne!(ca, cb);
        assert!(
            ca.as_os_str()
                .as_bytes()
                .starts_with(b"/runs/r\xff.jsonl.3.")
        );
        assert_ne!(
            unlabelled_checkpoint_path(a, 3),
            unlabelled_checkpoint_path(b, 3)
        );
    }

    fn result(instance: usize, optimum: usize, root: u32, expanded: u64) -> InstanceResult {
        InstanceResult {
            instance,
            optimum,
            found: Some(optimum),
            expanded,
            seconds: expanded as f64 / 1e6,
            heuristic: "test".into(),
            goal: "blank-first".into(),
            root_estimate: root,
            threads: 2,
            finished_at: 0,
            version: "0".into(),
            interrupted: false,
            moves: None,
        }
    }

    /// The check that lets every line count.
    fn accept(_: &InstanceResult) -> Result<(), String> {
        Ok(())
    }

    /// A fresh directory of this test's own, removed when dropped.
    fn scratch() -> tempfile::TempDir {
        tempfile::Builder::new()
            .prefix("npuzzle-results-")
            .tempdir()
            .unwrap()
    }

    #[test]
    fn a_torn_last_line_is_cut_off_and_any_other_bad_line_refused() {
        let dir = scratch();
        let path = dir.path().join("r.jsonl");
        assert!(
            ResultsFile::read(&path, &accept).is_err(),
            "a missing file is no summary"
        );
        let (mut f, held) = ResultsFile::open(&path, &accept).unwrap();
        assert!(held.is_empty());
        f.append(&result(1, 95, 81, 1000)).unwrap();
        drop(f);
        // A second line torn mid-write.
        let mut raw = OpenOptions::new().append(true).open(&path).unwrap();
        raw.write_all(b"{\"instance\": 2, \"opt").unwrap();
        drop(raw);
        // Reading leaves it; opening to append cuts it off.
        assert_eq!(
            ResultsFile::read(&path, &accept).unwrap(),
            vec![result(1, 95, 81, 1000)]
        );
        assert!(std::fs::read_to_string(&path).unwrap().ends_with("\"opt"));
        let (mut f, held) = ResultsFile::open(&path, &accept).unwrap();
        assert_eq!(held, vec![result(1, 95, 81, 1000)]);
        f.append(&result(3, 97, 83, 2000)).unwrap();
        drop(f);
        let (_, held) = ResultsFile::open(&path, &accept).unwrap();
        assert_eq!(held, vec![result(1, 95, 81, 1000), result(3, 97, 83, 2000)]);
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 2);
        // Notes, or any complete line that is not a result: not a results file, left alone.
        let dir = scratch();
        let notes = dir.path().join("n.txt");
        std::fs::write(&notes, "my notes\nline two\n").unwrap();
        let e = ResultsFile::open(&notes, &accept)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("line 1: not a result"), "{e}");
        assert_eq!(
            std::fs::read_to_string(&notes).unwrap(),
            "my notes\nline two\n"
        );
        // One line of notes without a newline is not a torn result either.
        std::fs::write(&notes, "my notes").unwrap();
        let e = ResultsFile::open(&notes, &accept)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("line 1: not a result"), "{e}");
        assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes");
    }

    #[test]
    fn a_second_run_on_the_same_file_is_refused_until_the_first_ends() {
        let dir = scratch();
        let path = dir.path().join("r.jsonl");
        let (mut first, _) = ResultsFile::open(&path, &accept).unwrap();
        first.append(&result(1, 95, 81, 1000)).unwrap();
        let e = ResultsFile::open(&path, &accept).err().unwrap().to_string();
        assert!(e.contains("another run is writing"), "{e}");
        // Reading (the summary) is not refused.
        assert_eq!(ResultsFile::read(&path, &accept).unwrap().len(), 1);
        drop(first);
        let (_, held) = ResultsFile::open(&path, &accept).unwrap();
        assert_eq!(held, vec![result(1, 95, 81, 1000)]);
    }

    #[test]
    fn a_line_that_fails_the_check_is_left_out_and_kept_in_the_file() {
        let dir = scratch();
        let path = dir.path().join("r.jsonl");
        let (mut f, _) = ResultsFile::open(&path, &accept).unwrap();
        let good = InstanceResult {
            moves: Some("rd".into()),
            ..result(1, 2, 2, 10)
        };
        let bad = InstanceResult {
            moves: Some("ru".into()),
            ..result(2, 2, 2, 10)
        };
        f.append(&good).unwrap();
        f.append(&bad).unwrap();
        drop(f);
        let check = |r: &InstanceResult| match r.moves.as_deref() {
            Some("ru") => Err("its moves do not reach the goal".to_string()),
            _ => Ok(()),
        };
        assert_eq!(
            ResultsFile::read(&path, &check).unwrap(),
            vec![good.clone()]
        );
        let (_, held) = ResultsFile::open(&path, &check).unwrap();
        assert_eq!(held, vec![good]);
        // The line stays in the file, for whoever wants to look at it.
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 2);
    }

    #[test]
    fn an_oversized_file_is_refused() {
        let dir = scratch();
        let path = dir.path().join("big");
        File::create(&path)
            .unwrap()
            .set_len(MAX_FILE_BYTES + 1)
            .unwrap();
        assert!(ResultsFile::open(&path, &accept).is_err());
    }

    #[test]
    fn the_projection_recovers_an_exponential_growth() {
        // States = 1000 · 3^(optimum - 90) exactly: the fit finds growth 3, no spread, and
        // prices an optimum of 100.
        let solved: Vec<InstanceResult> = [92usize, 94, 96, 98]
            .iter()
            .enumerate()
            .map(|(i, &opt)| result(i + 1, opt, 0, (1000.0 * 3f64.powi(opt as i32 - 90)) as u64))
            .collect();
        let refs: Vec<&InstanceResult> = solved.iter().collect();
        let at = |optimum, at_least| Pending {
            instance: 0,
            optimum,
            at_least,
        };
        let p = project(&refs, &[at(100, 0)], &[]).unwrap();
        assert!((p.fit.unwrap().growth - 3.0).abs() < 1e-6, "{p:?}");
        assert!((p.fit.unwrap().spread - 1.0).abs() < 1e-6, "{p:?}");
        let want = 1000.0 * 3f64.powi(10);
        assert!((p.states() - want).abs() / want < 1e-6, "{p:?}");
        assert!((p.rate - 1e6).abs() < 1e-3);
        assert!((p.seconds() - want / 1e6).abs() / (want / 1e6) < 1e-6);
        // A run that stopped at its budget after more states than the fit says: priced above
        // those, and the fit raised for the others of that length too.
        let floor = 5 * want as u64;
        let f = project(&refs, &[at(100, floor), at(100, 0)], &[]).unwrap();
        assert_eq!(f.each.len(), 2);
        assert!(f.each[0] > floor as f64 && f.each[1] > want, "{f:?}");
        assert!(f.fit.unwrap().growth > p.fit.unwrap().growth, "{f:?}");
        // A floor below what the fit expects anyway changes little.
        let g = project(&refs, &[at(100, 10), at(100, 0)], &[]).unwrap();
        assert!((g.each[0] - want).abs() / want < 0.01, "{g:?}");
        assert!((g.each[1] - want).abs() / want < 0.01, "{g:?}");
        // Scatter about the line shows as the spread; a stopped instance, however low its
        // floor, is never priced below one not started, and a higher floor never lowers it.
        let mut noisy = solved.clone();
        noisy[0].expanded *= 4;
        noisy[1].expanded /= 4;
        let refs: Vec<&InstanceResult> = noisy.iter().collect();
        let q = project(&refs, &[at(100, 0)], &[]).unwrap();
        assert!(q.fit.unwrap().spread > 1.5, "{q:?}");
        let mut last = q.each[0];
        for floor in [1u64, 1000, 1_000_000, 50_000_000, 1_000_000_000] {
            let r = project(&refs, &[at(100, floor), at(100, 0)], &[]).unwrap();
            assert!(r.each[0] >= r.each[1] * (1.0 - 1e-6), "{floor}: {r:?}");
            assert!(
                r.each[0] >= last * (1.0 - 1e-6) && r.each[0] >= floor as f64,
                "{floor}: {r:?}"
            );
            last = r.each[0];
        }
        // Too few points, or no spread in the lengths: no projection.
        assert_eq!(project(&refs[..2], &[at(100, 0)], &[]), None);
        let flat = [
            result(1, 100, 0, 10),
            result(2, 100, 0, 20),
            result(3, 100, 0, 30),
        ];
        let flat: Vec<&InstanceResult> = flat.iter().collect();
        assert_eq!(project(&flat, &[at(100, 0)], &[]), None);
    }

    #[test]
    fn a_reference_run_prices_each_instance_from_its_own_line() {
        // Four solved instances took 0.7, 0.9, 0.8 and 0.8 of their states in the reference
        // (their geometric mean 0.797); their own states scatter far from any fit.
        let there = [
            (1usize, 1e9),
            (2, 5e6),
            (3, 3e10),
            (4, 2e8),
            (7, 4e11),
            (8, 9e9),
        ];
        let here = [0.7, 0.9, 0.8, 0.8];
        let solved: Vec<InstanceResult> = (0..4)
            .map(|i| result(i + 1, 90 + 2 * i, 0, (there[i].1 * here[i]) as u64))
            .collect();
        let refs: Vec<&InstanceResult> = solved.iter().collect();
        let reference: Vec<(usize, u64)> = there.iter().map(|&(n, s)| (n, s as u64)).collect();
        let pend = [
            Pending {
                instance: 7,
                optimum: 100,
                at_least: 0,
            },
            Pending {
                instance: 8,
                optimum: 100,
                at_least: 0,
            },
            // No reference line: priced from the fit, as without a reference.
            Pending {
                instance: 9,
                optimum: 100,
                at_least: 0,
            },
        ];
        let p = project(&refs, &pend, &reference).unwrap();
        let ratio = (0.7f64 * 0.9 * 0.8 * 0.8).powf(0.25);
        let s = p.scaled.clone().unwrap();
        assert_eq!((p.common, p.priced_from_reference()), (4, 2), "{p:?}");
        assert!((s.ratio - ratio).abs() < 1e-6, "{p:?}");
        assert!((s.range.0 - 0.7).abs() < 1e-6 && (s.range.1 - 0.9).abs() < 1e-6);
        assert!((p.each[0] / (4e11 * ratio) - 1.0).abs() < 1e-6, "{p:?}");
        assert!((p.each[1] / (9e9 * ratio) - 1.0).abs() < 1e-6, "{p:?}");
        let fit = project(&refs, &pend, &[]).unwrap();
        assert_eq!(fit.scaled, None);
        assert!(
            (p.each[2] - fit.each[2]).abs() < 1e-6 * fit.each[2],
            "{p:?} {fit:?}"
        );
        assert_eq!(p.from_reference, [true, true, false]);
        // A stopped instance near its reference price is priced from it, above what it spent.
        let stopped = |at_least: f64| {
            [Pending {
                instance: 8,
                optimum: 100,
                at_least: at_least as u64,
            }]
        };
        let q = project(&refs, &stopped(7e9), &reference).unwrap();
        assert_eq!(q.from_reference, [true]);
        assert!(q.each[0] > 7e9 && q.each[0] < 9e9 * 0.9, "{q:?}");
        // One that has spent far more than its reference says (2.7 times, 0.99 in ln against a
        // spread of 0.115) is priced by the fit, as without the reference.
        let q = project(&refs, &stopped(2e10), &reference).unwrap();
        let unreferenced = project(&refs, &stopped(2e10), &[]).unwrap();
        assert_eq!(q.from_reference, [false]);
        assert!(q.scaled.is_some());
        assert_eq!(q.priced_from_reference(), 0);
        assert!(
            (q.each[0] - unreferenced.each[0]).abs() < 1e-6 * q.each[0],
            "{q:?}"
        );
        assert!(q.each[0] > 2e10, "{q:?}");
        // Identical runs: no spread, each priced at exactly its reference states.
        let same: Vec<(usize, u64)> = solved
            .iter()
            .map(|r| (r.instance, r.expanded))
            .chain([(7, 1000)])
            .collect();
        let q = project(&refs, &pend[..1], &same).unwrap();
        assert_eq!(q.scaled.as_ref().map(|s| s.ratio), Some(1.0));
        assert!((q.each[0] - 1000.0).abs() < 1e-6, "{q:?}");
        // Solved instances all of one length: no fit, but the reference prices those it has a
        // line for; an instance without one leaves no projection.
        let flat: Vec<InstanceResult> = (0..4)
            .map(|i| result(i + 1, 100, 0, (there[i].1 * here[i]) as u64))
            .collect();
        let flat: Vec<&InstanceResult> = flat.iter().collect();
        let f = project(&flat, &pend[..2], &reference).unwrap();
        assert_eq!(f.fit, None);
        assert!((f.each[0] / (4e11 * ratio) - 1.0).abs() < 1e-6, "{f:?}");
        assert_eq!(project(&flat, &pend, &reference), None);
        // Fewer than three instances in common: the fit prices them all.
        let r = project(&refs, &pend, &reference[..2]).unwrap();
        assert_eq!((r.scaled, r.common), (None, 2));
        assert_eq!(r.each, fit.each);
    }

    #[test]
    fn the_normal_tail_is_accurate_far_out() {
        // Published values of Q(z) = P(Z > z).
        for (z, q) in [
            (0.0, 0.5),
            (-1.0, 0.841_344_746),
            (1.96, 0.024_997_895),
            (5.0, 2.866_515_7e-7),
            (20.0, 2.753_624e-89),
        ] {
            let got = ln_upper_tail(z).exp();
            assert!((got - q).abs() / q < 1e-6, "Q({z}) = {got}, not {q}");
        }
    }

    #[test]
    fn instances_stopped_by_a_budget_raise_the_fit() {
        // States = 1000 · 3^(optimum - 90) with a factor-2 scatter. A short budget lets only
        // the easy ones finish; the hard ones stop at 10⁶ states. Fitted on the finished
        // alone, the hard ones would be priced near 10⁶ at most; taking the stopped ones as
        // needing more, the fit recovers a growth near 3 and prices them near the truth.
        let truth = |opt: usize, k: usize| {
            let scatter = [0.5, 2.0, 1.0, 0.7, 1.4][k % 5];
            1000.0 * 3f64.powi(opt as i32 - 90) * scatter
        };
        let budget = 1e6;
        let mut solved = Vec::new();
        let mut pend = Vec::new();
        for (k, opt) in (90..=110).step_by(2).enumerate() {
            for j in 0..5 {
                let states = truth(opt, k + j);
                if states <= budget {
                    solved.push(result(solved.len() + 1, opt, 0, states as u64));
                } else {
                    pend.push(Pending {
                        instance: 100 + pend.len(),
                        optimum: opt,
                        at_least: budget as u64,
                    });
                }
            }
        }
        let refs: Vec<&InstanceResult> = solved.iter().collect();
        let p = project(&refs, &pend, &[]).unwrap();
        assert!((p.fit.unwrap().growth - 3.0).abs() < 0.6, "{p:?}");
        let want: f64 = (90..=110)
            .step_by(2)
            .enumerate()
            .flat_map(|(k, opt)| (0..5).map(move |j| truth(opt, k + j)))
            .filter(|&s| s > budget)
            .sum();
        assert!(
            p.states() > want / 3.0 && p.states() < want * 3.0,
            "{} against {want}",
            p.states()
        );
        assert!(p.each.iter().all(|&e| e >= budget));
        // Without the stopped ones' floors, the fit sees only the easy instances: less.
        let floorless: Vec<Pending> = pend.iter().map(|q| Pending { at_least: 0, ..*q }).collect();
        let naive = project(&refs, &floorless, &[]).unwrap();
        assert!(
            naive.states() < p.states(),
            "{} against {}",
            naive.states(),
            p.states()
        );
    }
}
