//! Pattern databases from the command line: where they are cached, loading or building them
//! for `solve` (with a progress bar), and `npuzzle pdb build|info|verify`.

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use npuzzle::heuristic::pdb_file::{HEADER_LEN, PdbCache, read_header};
use npuzzle::heuristic::pdb_set::{Partition, PdbEvent, PdbSet};
use npuzzle::symmetry::Canonical;
use npuzzle::table::Table;
use npuzzle::{Board, Shape};
use npuzzle::{PdbSource, Use};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Pattern-database options shared by `solve`, `check`, `bench` and `pdb`.
#[derive(Args, Clone, Debug, Default)]
pub struct PdbOptions {
    /// Pattern-database partition: 7-8, 6-6-3, 5-5-5 (4×4), 6-6-6-6 (5×5), blocks-K (any board
    /// of 16 to 32 cells) or tile lists such as 1,2,3,4,5,6,7,8/9,10,11,12,13,14,15 (default
    /// for auto: the strongest cached preset, else 6-6-3 on 4×4, 6-6-6-6 on 5×5; blocks-K on other
    /// boards). Where it is not used (a board answered from its complete table, with linear
    /// conflict below 16 cells or past 32 cells, a method without a heuristic), stderr says
    /// so.
    #[arg(long, value_name = "PARTITION", value_parser = crate::input::partition)]
    pub pdb: Option<String>,
    /// Directory of cached pattern databases (default: $NPUZZLE_PDB_DIR when set and not
    /// empty, else npuzzle/pdb in the user's cache directory).
    #[arg(long, value_name = "DIR", value_parser = crate::input::cache_dir())]
    pub pdb_dir: Option<PathBuf>,
}

impl PdbOptions {
    /// The cache in use.
    pub fn cache(&self) -> PdbCache {
        match &self.pdb_dir {
            Some(dir) => PdbCache::new(dir),
            None => PdbCache::standard(),
        }
    }

    /// The cache as `user` holds what it loads ([`Use::loading`]).
    pub fn cache_for(&self, user: Use) -> PdbCache {
        self.cache().loading(user.loading())
    }
}

/// Set once a database built in this run could not be saved to the cache (`pdb build` then
/// fails: the work would be lost at exit).
static NOT_SAVED: AtomicBool = AtomicBool::new(false);

fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{elapsed_precise}] {wide_bar} {percent}% ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

impl PdbOptions {
    /// The library's database source for these options and this kind of caller (`user`:
    /// whether what is not cached may be built, and how what is loaded is held): it reports
    /// on stderr what it loads and builds, with a progress bar on a terminal.
    pub fn source(&self, user: Use) -> PdbSource {
        let build = user.building();
        let cache = self.cache_for(user);
        let dir = cache.dir().to_path_buf();
        let bar = progress_bar();
        let events = move |e: &PdbEvent| {
            // Once per run, however many solvers a run makes: every database of a set would
            // fail to save the same way, and every solver would name the stronger set.
            static WEAKER: AtomicBool = AtomicBool::new(false);
            match e {
                PdbEvent::Layer {
                    layer,
                    filled,
                    total,
                } => {
                    bar.set_length(*total);
                    bar.set_position(*filled);
                    bar.set_message(format!("breadth-first layer {layer}"));
                    return;
                }
                PdbEvent::Building(_) | PdbEvent::Rebuilding(..) | PdbEvent::TablePlan { .. } => {
                    bar.reset();
                    bar.set_message("");
                }
                PdbEvent::Built(..) | PdbEvent::TableBuilt { .. } => bar.finish_and_clear(),
                PdbEvent::NotSaved(..) if NOT_SAVED.swap(true, Ordering::Relaxed) => return,
                PdbEvent::Weaker { .. } if WEAKER.swap(true, Ordering::Relaxed) => return,
                _ => {}
            }
            // Said with the bar off the screen, so that the message is not glued to it.
            if let Some(m) = e.message(Some(&dir)) {
                bar.suspend(|| eprintln!("npuzzle: {m}"));
            }
        };
        PdbSource {
            cache: Some(cache),
            partition: self.pdb.clone(),
            build,
            events: Some(Arc::new(events)),
            stop: None,
        }
    }
}

/// The databases `auto` uses for `goal` (see [`npuzzle::solver::builder`]), built when not
/// cached; loading and building give up once `stop` is set (a Ctrl-C).
pub fn set_for(
    goal: &Board,
    options: &PdbOptions,
    stop: Option<Arc<AtomicBool>>,
) -> Result<Arc<PdbSet>> {
    PdbSource {
        stop,
        ..options.source(npuzzle::Use::Command)
    }
    .provide(goal)
    .context("pattern databases")?
    .with_context(|| format!("no pattern databases for {} boards", goal.shape()))
}

/// The first bytes of a file, enough for its header.
fn read_header_only(path: &std::path::Path) -> Result<Vec<u8>, npuzzle::heuristic::pdb::PdbError> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(HEADER_LEN as u64).read_to_end(&mut bytes))
        .map_err(|e| npuzzle::heuristic::pdb::PdbError::Io {
            path: path.display().to_string(),
            source: e,
        })?;
    Ok(bytes)
}

/// `npuzzle pdb build` for a board of at most 12 cells without a partition named: its
/// complete table (12 cells; smaller ones are made in memory in a second and never
/// cached).
fn build_table(goal: &Board, force: bool, pdb_dir: Option<PathBuf>) -> Result<ExitCode> {
    let shape = goal.shape();
    if Table::is_quick(shape) {
        println!(
            "{shape} boards need nothing cached: their complete table is made in memory in under a second"
        );
        return Ok(ExitCode::SUCCESS);
    }
    let options = PdbOptions { pdb: None, pdb_dir };
    let cache = options.cache();
    if force {
        let _ = std::fs::remove_file(cache.table_path(goal));
    }
    let started = Instant::now();
    let table = options
        .source(Use::Command)
        .table(goal)
        .with_context(|| format!("the {shape} table could not be made"))?;
    if NOT_SAVED.load(Ordering::Relaxed) {
        eprintln!(
            "npuzzle: error: the {shape} table was built but could not be saved in {} (see the warning above); nothing is cached",
            cache.dir().display()
        );
        return Ok(ExitCode::from(1));
    }
    println!(
        "{shape} table ready in {:.1} s: {} states, diameter {} ({}) in {}",
        started.elapsed().as_secs_f64(),
        table.reachable_states(),
        table.max_distance(),
        npuzzle::heuristic::pdb_set::human_bytes(table.bytes()),
        cache.table_path(goal).display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Arguments of `npuzzle pdb`.
#[derive(Args, Debug)]
pub struct PdbArgs {
    #[command(subcommand)]
    pub action: PdbAction,
}

/// What `npuzzle pdb` does.
#[derive(Subcommand, Debug)]
pub enum PdbAction {
    /// Build (or rebuild) and cache the databases of a partition, or the complete table of a
    /// 12-cell board (4x3, 3x4, 6x2, 2x6).
    Build {
        /// Partition: 7-8, 6-6-3, 5-5-5 (4x4), 6-6-6-6 (5x5), blocks-K (any board) or tile
        /// lists separated by `/` (default: the board's default, 6-6-3 on 4x4).
        #[arg(long, value_parser = crate::input::partition)]
        partition: Option<String>,
        /// The strongest partition whose build fits in this machine's available memory
        /// (7-8 on 4x4, 6-6-6-6 on 5x5), announced with its size before it starts.
        #[arg(long, conflicts_with = "partition")]
        best: bool,
        /// Board size WxH (default: the size of --goal, else the board a preset --partition
        /// is for, else 4x4).
        #[arg(long, value_name = "WxH", allow_hyphen_values = true)]
        size: Option<Shape>,
        /// Goal board (default: tiles in order, blank last).
        #[arg(long)]
        goal: Option<String>,
        /// Rebuild even when a valid file is cached.
        #[arg(long)]
        force: bool,
        #[arg(long, value_name = "DIR", value_parser = crate::input::cache_dir())]
        /// Directory of cached pattern databases (default: $NPUZZLE_PDB_DIR when set and not
        /// empty, else npuzzle/pdb in the user's cache directory).
        pdb_dir: Option<PathBuf>,
    },
    /// List the cached databases and tables with their headers.
    Info {
        #[arg(long, value_name = "DIR", value_parser = crate::input::cache_dir())]
        /// Directory of cached pattern databases (default: $NPUZZLE_PDB_DIR when set and not
        /// empty, else npuzzle/pdb in the user's cache directory).
        pdb_dir: Option<PathBuf>,
    },
    /// Check every cached database and table as loading does (header, checksums, the
    /// entries' meaning); exit 1 if any is damaged.
    Verify {
        #[arg(long, value_name = "DIR", value_parser = crate::input::cache_dir())]
        /// Directory of cached pattern databases (default: $NPUZZLE_PDB_DIR when set and not
        /// empty, else npuzzle/pdb in the user's cache directory).
        pdb_dir: Option<PathBuf>,
    },
}

fn cache_of(dir: &Option<PathBuf>) -> PdbCache {
    PdbOptions {
        pdb: None,
        pdb_dir: dir.clone(),
    }
    .cache()
}

/// Runs `npuzzle pdb`.
pub fn run(args: PdbArgs) -> Result<ExitCode> {
    let verify = matches!(args.action, PdbAction::Verify { .. });
    match args.action {
        PdbAction::Build {
            mut partition,
            best,
            size,
            goal,
            force,
            pdb_dir,
        } => {
            let goal = match goal {
                Some(g) => Board::parse_with_shape(&g, size)
                    .map_err(|e| anyhow::anyhow!("--goal: {}", e.kind))?,
                None => Board::goal(match size {
                    Some(s) => s,
                    None => match partition.as_deref().and_then(Partition::preset_shape) {
                        Some(s) => s,
                        None => Shape::new(4, 4)?,
                    },
                }),
            };
            // Boards of at most 12 cells are answered from a complete table; databases for
            // them only when a partition is named (for `--heuristic pdb` experiments).
            if Table::supports(goal.shape()) && partition.is_none() {
                return build_table(&goal, force, pdb_dir);
            }
            if best {
                if Partition::default_for(goal.shape()).is_none() {
                    bail!("no pattern databases for {} boards", goal.shape());
                }
                let memory = npuzzle::space::default_max_memory();
                let p = Partition::best_for(goal.shape(), memory).with_context(|| {
                    format!(
                        "no pattern databases for {} boards build within {} of memory",
                        goal.shape(),
                        npuzzle::heuristic::pdb_set::human_bytes(memory)
                    )
                })?;
                eprintln!(
                    "npuzzle: --best: {} is the strongest {} partition that builds within {} of memory",
                    p.name,
                    goal.shape(),
                    npuzzle::heuristic::pdb_set::human_bytes(memory)
                );
                partition = Some(p.name);
            }
            let canonical = Canonical::of(&goal).goal;
            let p = match &partition {
                Some(spec) => Partition::parse(spec, goal.shape())?,
                None => Partition::default_for(goal.shape())
                    .with_context(|| format!("no pattern databases for {} boards", goal.shape()))?,
            };
            if force {
                let cache = cache_of(&pdb_dir);
                for pattern in &p.patterns {
                    let _ = std::fs::remove_file(cache.path_for(&canonical, pattern));
                    let _ = std::fs::remove_file(cache.zero_aware_path_for(&canonical, pattern));
                }
            }
            let options = PdbOptions {
                pdb: Some(p.name.clone())
                    .filter(|_| partition.is_none())
                    .or(partition),
                pdb_dir,
            };
            let cache = options.cache();
            // Minutes of building are not started for a cache that cannot keep them.
            if let Err(e) = cache.ensure_writable() {
                eprintln!("npuzzle: error: cannot save pattern databases: {e}");
                return Ok(ExitCode::from(1));
            }
            let started = Instant::now();
            let set = set_for(&goal, &options, None)?;
            let bytes: usize = set.databases().iter().map(|d| d.len()).sum::<usize>()
                + set
                    .zero_aware()
                    .map_or(0, |z| z.iter().map(|t| t.bits().len()).sum());
            if NOT_SAVED.load(Ordering::Relaxed) {
                eprintln!(
                    "npuzzle: error: the {} databases were built but could not be saved in {} (see the warning above); nothing is cached",
                    set.partition().name,
                    cache.dir().display()
                );
                return Ok(ExitCode::from(1));
            }
            println!(
                "{} databases ready in {:.1} s: {:.0} MB{} in {}",
                set.partition().name,
                started.elapsed().as_secs_f64(),
                bytes as f64 / 1e6,
                if set.zero_aware().is_some() {
                    " with their zero-aware tables"
                } else {
                    ""
                },
                cache.dir().display()
            );
            Ok(ExitCode::SUCCESS)
        }
        PdbAction::Info { pdb_dir } | PdbAction::Verify { pdb_dir } => {
            let cache = cache_of(&pdb_dir);
            // `verify` looks at everything named like a database; `info` at regular files.
            // What `info` leaves out (a directory or a FIFO named like a database) is said.
            let (files, others) = if verify {
                (cache.entries(), 0)
            } else {
                cache.files()
            };
            // A directory named on the command line must exist; the default cache (or
            // NPUZZLE_PDB_DIR) may not yet, before anything is built.
            let problem = match std::fs::metadata(cache.dir()) {
                Ok(m) if !m.is_dir() => Some("not a directory".to_string()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && pdb_dir.is_some() => {
                    Some("no such directory".to_string())
                }
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => Some(e.to_string()),
                _ => None,
            };
            if let Some(why) = problem {
                eprintln!("npuzzle: error: {}: {why}", cache.dir().display());
                return Ok(ExitCode::from(1));
            }
            if others > 0 {
                eprintln!(
                    "npuzzle: {others} {} named like a database {}, left out (`npuzzle pdb verify` names {})",
                    either(others, "entry", "entries"),
                    either(others, "is not a regular file", "are not regular files"),
                    either(others, "it", "them"),
                );
            }
            if files.is_empty() {
                let named = match &pdb_dir {
                    Some(dir) => format!(" --pdb-dir {}", dir.display()),
                    None => String::new(),
                };
                println!(
                    "no pattern databases in {} yet (`npuzzle pdb build --size 4x4{named}` builds the 15-puzzle's, in seconds)",
                    cache.dir().display()
                );
                return Ok(ExitCode::SUCCESS);
            }
            let (mut damaged, mut strangers) = (0, 0);
            for path in files {
                // A directory: the one entry a rebuild (written aside, then renamed over the
                // name) cannot replace. A link or a FIFO is damaged, and a rebuild replaces it.
                if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir()) {
                    strangers += 1;
                    println!("NOT A FILE {}: a directory", path.display());
                    continue;
                }
                let is_table = path.extension().is_some_and(|x| x == "table");
                let result = if is_table {
                    let table = if verify {
                        Table::verify(&path)
                    } else {
                        Table::inspect(&path)
                    };
                    table.map(|t| {
                        format!(
                            "{}{} complete table toward [{}], {} states, diameter {}, {}",
                            if verify { "ok: " } else { "" },
                            t.shape(),
                            t.goal().to_judge_line(),
                            t.reachable_states(),
                            t.max_distance(),
                            npuzzle::heuristic::pdb_set::human_bytes(t.bytes())
                        )
                    })
                } else if verify {
                    cache.verify(&path).and_then(|db| {
                        let (max, mean) = db.summary();
                        // Its zero-aware table, when it has one, is checked against it.
                        let zero = match cache.load_zero_aware(&db)? {
                            Some(_) => ", and its zero-aware table",
                            None => "",
                        };
                        Ok(format!(
                            "ok: {} tiles {:?}, {} entries, max {max}, mean {mean:.2}{zero}",
                            db.shape(),
                            db.tiles(),
                            db.len()
                        ))
                    })
                } else {
                    read_header_only(&path)
                        .and_then(|bytes| read_header(&path, &bytes))
                        .map(|h| {
                            format!(
                                "{} goal [{}] tiles {:?}, {} entries",
                                h.shape,
                                h.goal.to_judge_line(),
                                h.tiles,
                                h.entries
                            )
                        })
                };
                match result {
                    Ok(text) => println!("{}: {text}", path.display()),
                    Err(e) => {
                        damaged += 1;
                        println!("DAMAGED {e}");
                    }
                }
            }
            if strangers > 0 {
                let them = either(strangers, "it", "them");
                eprintln!(
                    "npuzzle: {strangers} {} {} named like a database or table; move {them} out of the cache (no rebuild replaces {them})",
                    either(strangers, "directory", "directories"),
                    either(strangers, "is", "are"),
                );
            }
            if damaged > 0 {
                eprintln!(
                    "npuzzle: {damaged} damaged file(s); `npuzzle pdb build --size WxH --force` (with --partition for databases) rebuilds one, and `npuzzle solve` rebuilds what it needs"
                );
            }
            if damaged + strangers > 0 {
                return Ok(ExitCode::from(1));
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `one` for a count of one, `many` otherwise (a message's words agreeing with its count).
fn either<'a>(count: usize, one: &'a str, many: &'a str) -> &'a str {
    if count == 1 { one } else { many }
}
