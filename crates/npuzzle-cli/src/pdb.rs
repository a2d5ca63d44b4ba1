//! Pattern databases from the command line: where they are cached, loading or building them
//! for `solve` (with a progress bar), and `npuzzle pdb build|info|verify`.

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use npuzzle::heuristic::pdb::PatternDb;
use npuzzle::heuristic::pdb_file::{HEADER_LEN, PdbCache, read_header};
use npuzzle::heuristic::pdb_set::{PRESETS, Partition, PdbEvent, PdbSet};
use npuzzle::symmetry::Canonical;
use npuzzle::{Board, Shape};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

/// Pattern-database options shared by `solve`, `check`, `bench` and `pdb`.
#[derive(Args, Clone, Debug, Default)]
pub struct PdbOptions {
    /// Pattern-database partition for 4×4 boards: 7-8, 6-6-3, 5-5-5 or tile lists such as
    /// 1,2,3,4,5,6,7,8/9,10,11,12,13,14,15 (default for auto: the strongest cached, else 6-6-3).
    #[arg(long, value_name = "PARTITION")]
    pub pdb: Option<String>,
    /// Directory of cached pattern databases.
    #[arg(long, value_name = "DIR", env = "NPUZZLE_PDB_DIR")]
    pub pdb_dir: Option<PathBuf>,
}

impl PdbOptions {
    /// The cache in use.
    pub fn cache(&self) -> PdbCache {
        let dir = self.pdb_dir.clone().unwrap_or_else(|| {
            dirs::cache_dir()
                .unwrap_or_else(std::env::temp_dir)
                .join("npuzzle")
                .join("pdb")
        });
        PdbCache::new(dir)
    }
}

/// Whether boards of this shape are solved with pattern databases by default.
pub fn shape_uses_pdbs(shape: Shape) -> bool {
    shape == Shape::new(4, 4).unwrap_or(shape) && shape.cells() == 16
}

fn progress_bar(label: String) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{elapsed_precise}] {wide_bar} {percent}% ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.set_message(label);
    bar
}

/// Loads (or builds and caches) the databases of `partition` for `goal`'s canonical form,
/// reporting on stderr what it does.
pub fn load_set(goal: &Board, partition: Partition, cache: &PdbCache) -> Result<Arc<PdbSet>> {
    let canonical = Canonical::of(goal).goal;
    let bar = progress_bar(format!("building {} databases", partition.name));
    let progress = |layer: u32, _states: u64, filled: u64, total: u64| {
        bar.set_length(total);
        bar.set_position(filled);
        bar.set_message(format!("pattern database layer {layer}"));
    };
    let mut events = |e: PdbEvent| match e {
        PdbEvent::Loaded(_) => {}
        PdbEvent::Building(tiles) => {
            eprintln!(
                "npuzzle: building the pattern database for tiles {tiles:?} (cached in {})",
                cache.dir().display()
            );
        }
        PdbEvent::Rebuilding(path, why) => {
            eprintln!(
                "npuzzle: {} is damaged ({why}); rebuilding it",
                path.display()
            );
        }
        PdbEvent::Built(tiles, secs) => {
            bar.finish_and_clear();
            eprintln!("npuzzle: built tiles {tiles:?} in {secs:.1} s");
        }
    };
    let set = PdbSet::load_or_build(&canonical, partition, Some(cache), &progress, &mut events)
        .context("pattern databases")?;
    bar.finish_and_clear();
    Ok(Arc::new(set))
}

/// Whether every database of `partition` for `goal` is in the cache (not checked further).
fn cached(goal: &Board, partition: &Partition, cache: &PdbCache) -> bool {
    partition
        .patterns
        .iter()
        .all(|p| cache.path_for(goal, p).exists())
}

/// The databases `auto` uses for a 4×4 goal: the partition asked for, else the strongest
/// preset already cached, else 6-6-3 built now (seconds).
pub fn for_auto(goal: &Board, options: &PdbOptions) -> Result<Arc<PdbSet>> {
    let cache = options.cache();
    let shape = goal.shape();
    let canonical = Canonical::of(goal).goal;
    if let Some(spec) = &options.pdb {
        return load_set(goal, Partition::parse(spec, shape)?, &cache);
    }
    for name in PRESETS {
        let Some(p) = Partition::preset(name, shape) else {
            continue;
        };
        if cached(&canonical, &p, &cache) {
            if name != PRESETS[0] {
                eprintln!(
                    "npuzzle: using the {name} pattern databases; `npuzzle pdb build --partition 7-8` builds stronger ones (several minutes, 580 MB)"
                );
            }
            return load_set(goal, p, &cache);
        }
    }
    let p = Partition::preset("6-6-3", shape).context("no preset for this size")?;
    let set = load_set(goal, p, &cache)?;
    eprintln!(
        "npuzzle: built the 6-6-3 pattern databases; `npuzzle pdb build --partition 7-8` builds stronger ones (several minutes, 580 MB)"
    );
    Ok(set)
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

/// Arguments of `npuzzle pdb`.
#[derive(Args, Debug)]
pub struct PdbArgs {
    #[command(subcommand)]
    pub action: PdbAction,
}

/// What `npuzzle pdb` does.
#[derive(Subcommand, Debug)]
pub enum PdbAction {
    /// Build (or rebuild) and cache the databases of a partition.
    Build {
        /// Partition: 7-8, 6-6-3, 5-5-5 or tile lists separated by `/`.
        #[arg(long, default_value = "6-6-3")]
        partition: String,
        /// Goal board (default: tiles in order, blank last).
        #[arg(long)]
        goal: Option<String>,
        /// Rebuild even when a valid file is cached.
        #[arg(long)]
        force: bool,
        #[arg(long, value_name = "DIR", env = "NPUZZLE_PDB_DIR")]
        /// Directory of cached pattern databases.
        pdb_dir: Option<PathBuf>,
    },
    /// List the cached databases with their headers.
    Info {
        #[arg(long, value_name = "DIR", env = "NPUZZLE_PDB_DIR")]
        /// Directory of cached pattern databases.
        pdb_dir: Option<PathBuf>,
    },
    /// Check every cached database (header and checksum); exit 1 if any is damaged.
    Verify {
        #[arg(long, value_name = "DIR", env = "NPUZZLE_PDB_DIR")]
        /// Directory of cached pattern databases.
        pdb_dir: Option<PathBuf>,
    },
}

/// Runs `npuzzle pdb`.
pub fn run(args: PdbArgs) -> Result<ExitCode> {
    let verify = matches!(args.action, PdbAction::Verify { .. });
    match args.action {
        PdbAction::Build {
            partition,
            goal,
            force,
            pdb_dir,
        } => {
            let cache = PdbOptions { pdb: None, pdb_dir }.cache();
            let goal = match goal {
                Some(g) => Board::parse(&g).map_err(|e| anyhow::anyhow!("--goal: {}", e.kind))?,
                None => Board::goal(Shape::new(4, 4)?),
            };
            let canonical = Canonical::of(&goal).goal;
            let p = Partition::parse(&partition, goal.shape())?;
            if force {
                for pattern in &p.patterns {
                    let _ = std::fs::remove_file(cache.path_for(&canonical, pattern));
                }
            }
            let started = Instant::now();
            let set = load_set(&goal, p, &cache)?;
            let bytes: usize = set.databases().iter().map(|d| d.len()).sum();
            println!(
                "{} databases ready in {:.1} s: {} entries ({:.0} MB) in {}",
                set.partition().name,
                started.elapsed().as_secs_f64(),
                bytes,
                bytes as f64 / 1e6,
                cache.dir().display()
            );
            Ok(ExitCode::SUCCESS)
        }
        PdbAction::Info { pdb_dir } | PdbAction::Verify { pdb_dir } => {
            let cache = PdbOptions { pdb: None, pdb_dir }.cache();
            let files = cache.files();
            if files.is_empty() {
                println!("no pattern databases in {}", cache.dir().display());
                return Ok(ExitCode::SUCCESS);
            }
            let mut damaged = 0;
            for path in files {
                let result = if verify {
                    PatternDb::load(&path, None).map(|db| {
                        let (max, mean) = db.summary();
                        format!(
                            "ok: {} tiles {:?}, {} entries, max {max}, mean {mean:.2}",
                            db.shape(),
                            db.tiles(),
                            db.len()
                        )
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
            if damaged > 0 {
                bail!("{damaged} damaged database file(s); `npuzzle pdb build` rebuilds them");
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
