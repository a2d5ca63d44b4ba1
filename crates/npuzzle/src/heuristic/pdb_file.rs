//! Pattern databases on disk: a versioned, checksummed file format and a cache directory.
//!
//! A database takes minutes to build and must never be trusted blindly afterwards. Each file
//! starts with a 64-byte header: magic, format version, board size and pattern length (the entry
//! count follows from them), goal (up to 32 cells), pattern, a CRC-32 of the entries and a
//! CRC-32 of the header itself. Files are written to a temporary
//! name and renamed, so an interrupted build leaves no half-written database behind. How a
//! loaded file is held is a policy per caller ([`Loading`], chosen by `Use::loading`): the
//! server and Python read files of up to [`COPY_LIMIT`] bytes (every preset's) into memory, so
//! that another program truncating or rewriting a cache file in place cannot touch them (with a
//! memory map they would die of SIGBUS); short commands map them, for the quickest start. Every load checks the header against what the
//! caller expects, the entries against their checksum (about 0.1 s for the 518 MB 8-tile
//! database) and the entries' meaning ([`PatternDb::check_semantics`]), so a truncated,
//! corrupted or forged file is detected and rebuilt instead of used.

use super::pdb::{Entries, MAX_PATTERN_TILES, MAX_PDB_CELLS, PatternDb, PdbError};
use crate::board::{Board, Shape, Tile};
use crate::rank::permutations_count;
use rayon::prelude::*;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
#[cfg(unix)]
use std::sync::atomic::Ordering;

/// File magic.
const MAGIC: &[u8; 8] = b"NPZLPDB\x01";
/// Current format version (2: goals of up to 32 cells).
pub const FORMAT_VERSION: u32 = 2;
/// Header length in bytes.
pub const HEADER_LEN: usize = 64;

/// Largest database file read into memory on load (2 GiB); larger files are memory-mapped.
pub const COPY_LIMIT: u64 = 2 << 30;

/// What a database file's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdbHeader {
    /// Board shape.
    pub shape: Shape,
    /// Goal board.
    pub goal: Board,
    /// Pattern tiles.
    pub tiles: Vec<Tile>,
    /// Entry count.
    pub entries: u64,
    /// CRC-32 of the entries.
    pub checksum: u32,
}

pub(crate) fn corrupt(path: &Path, reason: impl Into<String>) -> PdbError {
    PdbError::Corrupt {
        path: path.display().to_string(),
        reason: reason.into(),
    }
}

/// Removes temporary files that an interrupted save of `path` left behind (`NAME.tmp.PID` of a
/// process that no longer runs, or older than a day where that cannot be told).
fn remove_stale_temporaries(path: &Path) {
    let (Some(dir), Some(stem)) = (path.parent(), path.file_stem()) else {
        return;
    };
    let prefix = format!("{}.tmp.", stem.to_string_lossy());
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name.strip_prefix(&prefix) else {
            continue;
        };
        let running = pid.parse::<u32>().is_ok_and(|pid| {
            pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists()
        });
        let proc_known = Path::new("/proc/self").exists();
        let old = entry
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age.as_secs() > 86_400);
        if (proc_known && !running) || (!proc_known && old) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

pub(crate) fn io_err(path: &Path, source: std::io::Error) -> PdbError {
    PdbError::Io {
        path: path.display().to_string(),
        source,
    }
}

/// Makes `dir` and its parents; a file where the directory should be is said as such, not as
/// "File exists".
fn make_dir(dir: &Path) -> Result<(), PdbError> {
    fs::create_dir_all(dir).map_err(|e| {
        // A file where the directory, or one of its parents, should be: named as such, not
        // as the system's "File exists" or "Not a directory (os error 20)".
        let in_the_way = dir.ancestors().find(|a| a.is_file());
        let e = match in_the_way {
            Some(f) if f == dir => {
                std::io::Error::new(std::io::ErrorKind::NotADirectory, "not a directory")
            }
            Some(f) => std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                format!("not a directory: {} is a file", f.display()),
            ),
            None => e,
        };
        io_err(dir, e)
    })
}

fn encode_header(db: &PatternDb, checksum: u32) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12] = db.shape.width() as u8;
    h[13] = db.shape.height() as u8;
    h[14] = db.tiles.len() as u8;
    for (i, &t) in db.goal.cells().iter().enumerate() {
        h[16 + i] = t as u8;
    }
    for (i, &t) in db.tiles.iter().enumerate() {
        h[48 + i] = t as u8;
    }
    h[56..60].copy_from_slice(&checksum.to_le_bytes());
    let header_crc = crc32fast::hash(&h[..60]);
    h[60..64].copy_from_slice(&header_crc.to_le_bytes());
    h
}

/// The 64-byte header of a cache file (a database or a complete table), after checking what
/// every such header shares: its length, `magic` (naming `what` the file should be), the
/// format `version` (bytes 8..12) and the header's own CRC-32 (bytes 60..64, over 0..60).
pub(crate) fn checked_frame<'a>(
    path: &Path,
    bytes: &'a [u8],
    magic: &[u8; 8],
    what: &str,
    version: u32,
) -> Result<&'a [u8], PdbError> {
    if bytes.len() < HEADER_LEN {
        return Err(corrupt(path, "shorter than a header: truncated"));
    }
    let h = &bytes[..HEADER_LEN];
    if &h[..8] != magic {
        return Err(corrupt(path, format!("not an npuzzle {what} (bad magic)")));
    }
    let found = u32::from_le_bytes([h[8], h[9], h[10], h[11]]);
    if found != version {
        return Err(corrupt(
            path,
            format!("format version {found}, this build reads {version}"),
        ));
    }
    let header_crc = u32::from_le_bytes([h[60], h[61], h[62], h[63]]);
    if crc32fast::hash(&h[..60]) != header_crc {
        return Err(corrupt(path, "header checksum mismatch"));
    }
    Ok(h)
}

/// Reads and validates a header (not the entries).
pub fn read_header(path: &Path, bytes: &[u8]) -> Result<PdbHeader, PdbError> {
    let h = checked_frame(path, bytes, MAGIC, "pattern database", FORMAT_VERSION)?;
    let shape =
        Shape::new(h[12] as usize, h[13] as usize).map_err(|e| corrupt(path, e.to_string()))?;
    let k = h[14] as usize;
    if shape.cells() > MAX_PDB_CELLS || k == 0 || k > MAX_PATTERN_TILES {
        return Err(corrupt(path, "unsupported size or pattern"));
    }
    let goal_tiles: Vec<Tile> = h[16..16 + shape.cells()]
        .iter()
        .map(|&t| t as Tile)
        .collect();
    let goal = Board::new(shape, &goal_tiles).map_err(|e| corrupt(path, e.to_string()))?;
    let tiles: Vec<Tile> = h[48..48 + k].iter().map(|&t| t as Tile).collect();
    super::pdb::check_pattern(&goal, &tiles).map_err(|e| corrupt(path, e.to_string()))?;
    let entries = permutations_count(shape.cells(), k);
    let checksum = u32::from_le_bytes([h[56], h[57], h[58], h[59]]);
    Ok(PdbHeader {
        shape,
        goal,
        tiles,
        entries,
        checksum,
    })
}

/// CRC-32 of `bytes`; large inputs are checksummed in chunks on all rayon threads (so both
/// cores fault pages in and hash at once) and the chunk CRCs combined in order.
pub(crate) fn checksum(bytes: &[u8]) -> u32 {
    const CHUNK: usize = 4 << 20;
    if bytes.len() <= 2 * CHUNK {
        return crc32fast::hash(bytes);
    }
    let parts: Vec<crc32fast::Hasher> = crate::parallel::run(|| {
        bytes
            .par_chunks(CHUNK)
            .map(|c| {
                let mut h = crc32fast::Hasher::new();
                h.update(c);
                h
            })
            .collect()
    });
    let mut total = crc32fast::Hasher::new();
    for p in &parts {
        total.combine(p);
    }
    total.finalize()
}

/// The entries of `file` (after the header), read in chunks on all rayon threads, each
/// chunk checksummed as it arrives (reading and checking overlap, from a cold page cache
/// too), and checked against the header's checksum.
fn read_checked(path: &Path, file: &File, header: &PdbHeader) -> Result<Vec<u8>, PdbError> {
    use std::os::unix::fs::FileExt;
    const CHUNK: usize = 4 << 20;
    // The kernel reads the whole file ahead at once (from a cold page cache that read is
    // most of the load time), while the chunks below are copied and checked as they arrive.
    {
        use std::os::fd::AsRawFd;
        // SAFETY: advice on an open descriptor; it changes no data.
        unsafe {
            libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_WILLNEED);
        }
    }
    // Zeroed by the allocator's fresh pages, not by a pass over them.
    let mut body = vec![0u8; header.entries as usize];
    let parts: Vec<std::io::Result<crc32fast::Hasher>> = crate::parallel::run(|| {
        body.par_chunks_mut(CHUNK)
            .enumerate()
            .map(|(i, chunk)| {
                file.read_exact_at(chunk, (HEADER_LEN + i * CHUNK) as u64)?;
                let mut h = crc32fast::Hasher::new();
                h.update(chunk);
                Ok(h)
            })
            .collect()
    });
    let mut total = crc32fast::Hasher::new();
    for p in parts {
        total.combine(&p.map_err(|e| io_err(path, e))?);
    }
    if total.finalize() != header.checksum {
        return Err(corrupt(
            path,
            "entries checksum mismatch: the file is corrupted",
        ));
    }
    Ok(body)
}

/// Writes `parts` one after the other to `path` through a temporary file that is synced and
/// renamed into place, so that no reader ever sees half a file (the parent directory is
/// created first).
pub(crate) fn write_whole(path: &Path, parts: &[&[u8]]) -> Result<(), PdbError> {
    if let Some(dir) = path.parent() {
        make_dir(dir)?;
    }
    remove_stale_temporaries(path);
    let tmp = path.with_extension(format!("tmp.{}", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = File::create(&tmp)?;
        for part in parts {
            f.write_all(part)?;
        }
        f.sync_all()?;
        fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io_err(path, e)
    })
}

impl PatternDb {
    /// Writes the database to `path` (via a temporary file and a rename).
    pub fn save(&self, path: &Path) -> Result<(), PdbError> {
        let entries = self.entries();
        let header = encode_header(self, checksum(entries));
        write_whole(path, &[&header, entries])
    }

    /// Maps a database file, checking its header and its checksum. When `expect` is given, the
    /// file must be the database of exactly that goal and pattern.
    pub fn load(path: &Path, expect: Option<(&Board, &[Tile])>) -> Result<PatternDb, PdbError> {
        PatternDb::load_as(path, expect, Loading::Copy)
    }

    /// [`PatternDb::load`], holding the entries as `loading` says (files past [`COPY_LIMIT`]
    /// are always mapped).
    pub fn load_as(
        path: &Path,
        expect: Option<(&Board, &[Tile])>,
        loading: Loading,
    ) -> Result<PatternDb, PdbError> {
        // Never open anything but a regular file: a FIFO would block, a directory cannot map.
        let meta = fs::metadata(path).map_err(|e| io_err(path, e))?;
        if !meta.is_file() {
            return Err(corrupt(path, "not a regular file"));
        }
        let mut file = File::open(path).map_err(|e| io_err(path, e))?;
        if loading == Loading::Copy && meta.len() <= COPY_LIMIT {
            let mut head = [0u8; HEADER_LEN];
            std::io::Read::read_exact(&mut file, &mut head)
                .map_err(|_| corrupt(path, "shorter than a header: truncated"))?;
            let header = check_header(path, &head, expect, meta.len())?;
            let body = read_checked(path, &file, &header)?;
            let db = PatternDb {
                shape: header.shape,
                goal: header.goal,
                tiles: header.tiles,
                entries: Entries::Owned(body),
            };
            db.check_semantics().map_err(|why| corrupt(path, why))?;
            return Ok(db);
        }
        // SAFETY: the mapping is read-only and private to this process; the cache files are
        // written whole and renamed into place, never modified in place by npuzzle. (Files
        // this large are not copied; another program rewriting one in place would be beyond
        // what the process can survive.)
        let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| io_err(path, e))?;
        // Ask the kernel to read the whole file ahead now: the checksum pass below needs all
        // of it, and from a cold page cache that read is most of the load time.
        let _ = map.advise(memmap2::Advice::WillNeed);
        let header = check_header(path, &map, expect, map.len() as u64)?;
        check_entries(path, &map[HEADER_LEN..], &header)?;
        let db = PatternDb {
            shape: header.shape,
            goal: header.goal,
            tiles: header.tiles,
            entries: Entries::Mapped {
                map,
                offset: HEADER_LEN,
            },
        };
        db.check_semantics().map_err(|why| corrupt(path, why))?;
        Ok(db)
    }
}

/// The header of a file of `len` bytes, checked against what the caller `expect`s and the
/// file's length.
fn check_header(
    path: &Path,
    bytes: &[u8],
    expect: Option<(&Board, &[Tile])>,
    len: u64,
) -> Result<PdbHeader, PdbError> {
    let header = read_header(path, bytes)?;
    if let Some((goal, tiles)) = expect
        && (&header.goal != goal || header.tiles != tiles)
    {
        return Err(corrupt(path, "holds a different goal or pattern"));
    }
    let body = len.saturating_sub(HEADER_LEN as u64);
    if body != header.entries {
        return Err(corrupt(
            path,
            format!(
                "{body} entries, the header says {}: truncated or padded",
                header.entries
            ),
        ));
    }
    Ok(header)
}

/// Checks the entries against the header's checksum.
fn check_entries(path: &Path, body: &[u8], header: &PdbHeader) -> Result<(), PdbError> {
    if checksum(body) != header.checksum {
        return Err(corrupt(
            path,
            "entries checksum mismatch: the file is corrupted",
        ));
    }
    Ok(())
}

/// That the cache file at `path`, whose header describes `what`, has the name the cache would
/// look it up by (`expected`): a file under another's name is reported, not trusted.
pub(crate) fn check_named(path: &Path, expected: &Path, what: &str) -> Result<(), PdbError> {
    if expected.file_name() == path.file_name() {
        return Ok(());
    }
    let name = expected
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Err(corrupt(
        path,
        format!("its header is for {what}, which the cache names {name}"),
    ))
}

/// Held while one database is built into a cache (see [`PdbCache::lock_build`]); dropping it
/// releases the lock.
#[derive(Debug)]
pub(crate) struct BuildLock {
    _file: File,
}

/// A directory of cached databases.
#[derive(Clone, Debug)]
pub struct PdbCache {
    dir: PathBuf,
    loading: Loading,
}

/// How a cached database is held once loaded.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Loading {
    /// Read into the process's memory (files up to [`COPY_LIMIT`]): another program truncating
    /// or rewriting the file in place cannot touch a running search. For long-running
    /// processes (the server, Python); costs about 0.1 s per 500 MB more than a map when the
    /// file is in the page cache, and about the same from disk.
    #[default]
    Copy,
    /// Memory-mapped: the quickest start for a short command (the page cache is shared), at
    /// the price of a SIGBUS should another program shrink the file while it runs.
    Map,
}

impl PdbCache {
    /// A cache in `dir` (created on first save).
    pub fn new(dir: impl Into<PathBuf>) -> PdbCache {
        PdbCache {
            dir: dir.into(),
            loading: Loading::Copy,
        }
    }

    /// The same cache, holding what it loads as `loading` says.
    pub fn loading(mut self, loading: Loading) -> PdbCache {
        self.loading = loading;
        self
    }

    /// The standard cache: `$NPUZZLE_PDB_DIR` when set, else `npuzzle/pdb` in the user's cache
    /// directory (`~/.cache` on Linux), else in the temporary directory. The CLI, the Python
    /// package and their cluster workers all share it.
    pub fn standard() -> PdbCache {
        match std::env::var_os("NPUZZLE_PDB_DIR").filter(|d| !d.is_empty()) {
            Some(dir) => PdbCache::new(dir),
            None => PdbCache::new(
                dirs::cache_dir()
                    .unwrap_or_else(std::env::temp_dir)
                    .join("npuzzle")
                    .join("pdb"),
            ),
        }
    }

    /// Takes the cache's build lock for one database (a `.lock` file beside it, locked with
    /// `flock`), waiting while another process or thread holds it, so that workers sharing a
    /// cache build each database once: whoever waited loads what the first one saved. `Ok(None)`
    /// where no lock can be had (no such directory, read-only, not Unix): build anyway.
    /// [`PdbError::Stopped`] when `stop` is set while waiting (a Ctrl-C while another process
    /// builds for minutes). `waiting` is called once when the lock is held elsewhere.
    pub(crate) fn lock_build(
        &self,
        goal: &Board,
        tiles: &[Tile],
        stop: Option<&AtomicBool>,
        waiting: &mut dyn FnMut(),
    ) -> Result<Option<BuildLock>, PdbError> {
        self.lock_file(&self.path_for(goal, tiles), stop, waiting)
    }

    /// [`PdbCache::lock_build`] for the cache file `file` (a `.lock` file beside it).
    pub(crate) fn lock_file(
        &self,
        file: &Path,
        stop: Option<&AtomicBool>,
        waiting: &mut dyn FnMut(),
    ) -> Result<Option<BuildLock>, PdbError> {
        let path = file.with_extension("lock");
        let opened = fs::create_dir_all(&self.dir).and_then(|()| {
            fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
        });
        let Ok(file) = opened else { return Ok(None) };
        #[cfg(unix)]
        {
            use std::io::ErrorKind;
            use std::os::fd::AsRawFd;
            // Tried without waiting first; then, without a stop flag, the wait blocks, and with
            // one it polls the lock and the flag.
            let mut how = libc::LOCK_EX | libc::LOCK_NB;
            let mut waited = false;
            loop {
                // SAFETY: flock on a descriptor this function owns; it only locks the file.
                if unsafe { libc::flock(file.as_raw_fd(), how) } == 0 {
                    return Ok(Some(BuildLock { _file: file }));
                }
                match std::io::Error::last_os_error().kind() {
                    ErrorKind::Interrupted => {}
                    ErrorKind::WouldBlock => {
                        if !std::mem::replace(&mut waited, true) {
                            waiting();
                        }
                        match stop {
                            None => how = libc::LOCK_EX,
                            Some(s) if s.load(Ordering::Relaxed) => return Err(PdbError::Stopped),
                            Some(_) => std::thread::sleep(std::time::Duration::from_millis(50)),
                        }
                    }
                    _ => return Ok(None),
                }
            }
        }
        #[cfg(not(unix))]
        {
            let _ = (stop, waiting); // no lock to wait for
            drop(file);
            Ok(None)
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file name for a goal and pattern: size, goal in hex digits, then the tiles.
    pub fn path_for(&self, goal: &Board, tiles: &[Tile]) -> PathBuf {
        let goal_hex: String = goal
            .cells()
            .iter()
            .map(|&t| char::from_digit(t as u32 % 36, 36).unwrap_or('?'))
            .collect();
        let tiles: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
        self.dir.join(format!(
            "{}-{goal_hex}-{}.pdb",
            goal.shape(),
            tiles.join("_")
        ))
    }

    /// Whether files can be saved here (see [`PdbCache::ensure_writable`]).
    pub fn writable(&self) -> bool {
        self.ensure_writable().is_ok()
    }

    /// Checks that files can be saved here: the directory is made if need be, and a probe
    /// file written and removed. The error names the directory and what is wrong (a file in
    /// its place, no permission, a full disk).
    pub fn ensure_writable(&self) -> Result<(), PdbError> {
        make_dir(&self.dir)?;
        let probe = self.dir.join(format!(".write-test.{}", std::process::id()));
        fs::write(&probe, b"")
            .and_then(|_| fs::remove_file(&probe))
            .map_err(|e| io_err(&self.dir, e))
    }

    /// The file name of the zero-aware table beside the database of `tiles` toward `goal`:
    /// the database's, ending `.zpdb`.
    pub fn zero_aware_path_for(&self, goal: &Board, tiles: &[Tile]) -> PathBuf {
        self.path_for(goal, tiles).with_extension("zpdb")
    }

    /// Loads the zero-aware table of `db`'s pattern if a valid file exists (`Ok(None)` when
    /// there is none; `Err` when one exists but is damaged).
    pub fn load_zero_aware(
        &self,
        db: &PatternDb,
    ) -> Result<Option<super::zero_aware::ZeroAwareDb>, PdbError> {
        let path = self.zero_aware_path_for(db.goal(), db.tiles());
        if !path.exists() {
            return Ok(None);
        }
        super::zero_aware::ZeroAwareDb::load(&path, db, self.loading).map(Some)
    }

    /// The file name for the complete table toward `goal` (12-cell boards and smaller; any
    /// goal with the same blank cell shares it): size, then the blank's cell.
    pub fn table_path(&self, goal: &Board) -> PathBuf {
        self.dir
            .join(format!("{}-blank{}.table", goal.shape(), goal.blank()))
    }

    /// Loads the database if a valid file exists. `Ok(None)` when there is no file;
    /// `Err` when a file exists but is damaged (the caller decides whether to rebuild).
    pub fn load(&self, goal: &Board, tiles: &[Tile]) -> Result<Option<PatternDb>, PdbError> {
        let path = self.path_for(goal, tiles);
        if !path.exists() {
            return Ok(None);
        }
        PatternDb::load_as(&path, Some((goal, tiles)), self.loading).map(Some)
    }

    /// Every entry of the cache directory that is named like a database or a complete table
    /// (`*.pdb`, `*.table`), whatever it is (a regular file, a link, a directory, a FIFO),
    /// sorted: what `verify` checks.
    pub fn entries(&self) -> Vec<PathBuf> {
        let mut all: Vec<PathBuf> = fs::read_dir(&self.dir)
            .map(|rd| {
                rd.filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "pdb" || x == "table"))
                    .collect()
            })
            .unwrap_or_default();
        all.sort();
        all
    }

    /// Checks the database at `path` exactly as a search loading it would (a regular file,
    /// header, checksums, the entries' meaning) and that its header matches its name (the
    /// goal, board size and tiles the cache would look it up by).
    pub fn verify(&self, path: &Path) -> Result<PatternDb, PdbError> {
        let db = PatternDb::load_as(path, None, self.loading)?;
        check_named(
            path,
            &self.path_for(db.goal(), db.tiles()),
            &format!(
                "{} goal [{}] tiles {:?}",
                db.shape(),
                db.goal().to_judge_line(),
                db.tiles()
            ),
        )?;
        Ok(db)
    }

    /// Every regular file (or link to one) of the cache named like a database or a complete
    /// table, sorted: what `npuzzle pdb info` lists; and how many other entries so named
    /// (directories, FIFOs, broken links) it leaves out, from the same listing.
    pub fn files(&self) -> (Vec<PathBuf>, usize) {
        let (files, others): (Vec<PathBuf>, Vec<PathBuf>) = self
            .entries()
            .into_iter()
            .partition(|p| fs::metadata(p).is_ok_and(|m| m.is_file()));
        (files, others.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(_: u32, _: u64, _: u64, _: u64) {}

    #[test]
    fn a_loaded_database_survives_its_file_being_truncated_in_place() {
        let dir = std::env::temp_dir().join(format!("npuzzle-pdb-trunc-{}", std::process::id()));
        let cache = PdbCache::new(&dir);
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let tiles = [1, 2, 5, 6];
        let db = PatternDb::build(&goal, &tiles, &quiet).unwrap();
        let path = cache.path_for(&goal, &tiles);
        db.save(&path).unwrap();
        let loaded = cache.load(&goal, &tiles).unwrap().unwrap();
        // Another program truncates and rewrites the file in place (a memory map of it would
        // now raise SIGBUS on the next read of a lost page).
        fs::File::create(&path)
            .unwrap()
            .write_all(b"garbage")
            .unwrap();
        assert_eq!(loaded.entries(), db.entries());
        assert!(cache.load(&goal, &tiles).is_err());
        let _ = fs::remove_dir_all(&dir);
    }

    #[test]
    fn round_trip_and_damage_detection() {
        let dir = std::env::temp_dir().join(format!("npuzzle-pdb-{}", std::process::id()));
        let cache = PdbCache::new(&dir);
        let goal = Board::goal(Shape::new(4, 4).unwrap());
        let tiles = [1, 2, 3];
        let db = PatternDb::build(&goal, &tiles, &quiet).unwrap();
        assert!(cache.load(&goal, &tiles).unwrap().is_none());
        let path = cache.path_for(&goal, &tiles);
        db.save(&path).unwrap();
        let loaded = cache.load(&goal, &tiles).unwrap().unwrap();
        assert!(!loaded.is_mapped(), "read into memory: below COPY_LIMIT");
        assert_eq!(loaded.entries(), db.entries());
        assert_eq!(cache.files(), (vec![path.clone()], 0));

        // A different pattern is refused.
        assert!(PatternDb::load(&path, Some((&goal, &[1, 2, 4]))).is_err());

        // A flipped byte in the entries.
        let mut bytes = fs::read(&path).unwrap();
        bytes[HEADER_LEN + 100] ^= 0x01;
        fs::write(&path, &bytes).unwrap();
        let e = cache.load(&goal, &tiles).unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");

        // A flipped byte in the header.
        bytes[HEADER_LEN + 100] ^= 0x01;
        bytes[20] ^= 0x01;
        fs::write(&path, &bytes).unwrap();
        assert!(
            cache
                .load(&goal, &tiles)
                .unwrap_err()
                .to_string()
                .contains("header")
        );

        // A truncated file.
        bytes[20] ^= 0x01;
        fs::write(&path, &bytes[..bytes.len() - 10]).unwrap();
        let e = cache.load(&goal, &tiles).unwrap_err();
        assert!(e.to_string().contains("truncated"), "{e}");
        fs::write(&path, &bytes[..30]).unwrap();
        assert!(cache.load(&goal, &tiles).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A file where the cache directory belongs makes a save fail saying so (the OS's own
    /// words would be "File exists").
    #[test]
    fn a_file_in_place_of_the_cache_is_not_a_directory() {
        let file = std::env::temp_dir().join(format!("npuzzle-pdb-file-{}", std::process::id()));
        fs::write(&file, b"").unwrap();
        let e = write_whole(&file.join("x.pdb"), &[b"entries"]).unwrap_err();
        assert!(e.to_string().contains("not a directory"), "{e}");
        fs::remove_file(&file).unwrap();
    }

    /// A FIFO or a directory where a database file belongs is reported, never opened (a FIFO
    /// would block); a save replaces it and removes temporaries of saves that died.
    #[test]
    fn odd_files_in_the_cache_never_block() {
        let dir = std::env::temp_dir().join(format!("npuzzle-pdb-odd-{}", std::process::id()));
        let cache = PdbCache::new(&dir);
        let goal = Board::goal(Shape::new(3, 3).unwrap());
        let tiles = [1, 2];
        let path = cache.path_for(&goal, &tiles);
        fs::create_dir_all(&dir).unwrap();
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .is_ok_and(|s| s.success());
        if made {
            let e = cache.load(&goal, &tiles).unwrap_err().to_string();
            assert!(e.contains("not a regular file"), "{e}");
            assert_eq!(cache.files(), (vec![], 1));
            fs::remove_file(&path).unwrap();
        }
        fs::create_dir_all(&path).unwrap();
        assert!(cache.load(&goal, &tiles).is_err());
        assert_eq!(cache.files(), (vec![], 1));
        fs::remove_dir_all(&path).unwrap();
        // A temporary of a process that is gone is removed by the next save.
        let stale = path.with_extension("tmp.4000000000");
        fs::write(&stale, b"half a database").unwrap();
        let db = PatternDb::build(&goal, &tiles, &quiet).unwrap();
        db.save(&path).unwrap();
        assert!(!stale.exists());
        assert!(cache.load(&goal, &tiles).unwrap().is_some());
        fs::remove_dir_all(&dir).unwrap();
    }
}
