//! The threads the library's parallel loops run on, chosen in one place.
//!
//! Why: rayon's global pool does not survive `fork`. A child forked from a process whose pool
//! has started inherits the pool's bookkeeping but none of its threads, so the child's first
//! parallel loop would wait forever. Python's multiprocessing forks on Linux, and a
//! researcher labelling boards in a pool of workers is exactly who calls the library after
//! a fork. So every parallel loop of the library runs through [`run`]: in the process that
//! first ran one, on rayon's global pool as before; in any process forked from it (or from a
//! child of it), on a pool of that process's own, made by its first loop and kept.

use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, Ordering};

/// Runs `work`, whose parallel iterators then use threads that exist in this process.
pub(crate) fn run<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    // On a worker thread, the pool that runs it is alive here (nested loops stay on it).
    if rayon::current_thread_index().is_some() {
        return work();
    }
    match forked_pool() {
        Some(pool) => pool.install(work),
        None => work(),
    }
}

/// How many threads [`run`]'s loops get here (what `rayon::current_num_threads` says on the
/// pool they would run on). Use this, not rayon's, to size work: rayon's starts the global
/// pool, which in a forked process is the dead one it inherited.
pub(crate) fn threads() -> usize {
    if rayon::current_thread_index().is_some() {
        return rayon::current_num_threads();
    }
    match forked_pool() {
        Some(pool) => pool.current_num_threads(),
        None => rayon::current_num_threads(),
    }
}

/// This process's identity among the processes that share its memory's history: 1 in the
/// process that first asks, one more in each process forked from it (a fork handler counts),
/// so a value made here is never taken for a child's own, whatever the system's process ids
/// (which a child can reuse from a dead ancestor).
pub(crate) fn process() -> u64 {
    static FORKS: AtomicU64 = AtomicU64::new(0);
    static COUNTING: AtomicBool = AtomicBool::new(false);
    #[cfg(unix)]
    if !COUNTING.swap(true, Ordering::AcqRel) {
        extern "C" fn forked() {
            FORKS.fetch_add(1, Ordering::AcqRel);
        }
        // SAFETY: registers a handler that only adds to an atomic (async-signal-safe).
        unsafe {
            libc::pthread_atfork(None, None, Some(forked));
        }
    }
    #[cfg(not(unix))]
    let _ = &COUNTING;
    FORKS.load(Ordering::Acquire) + 1
}

/// A pool of a chosen number of threads (a batch's `--threads`). In a process forked after
/// it was made, where its threads do not exist, its work runs through [`run`] instead (on
/// that process's own default pool).
pub(crate) struct Pool {
    made_in: u64,
    pool: rayon::ThreadPool,
}

impl Pool {
    /// A pool of `threads` threads.
    pub(crate) fn new(threads: usize) -> Result<Pool, rayon::ThreadPoolBuildError> {
        Ok(Pool {
            made_in: process(),
            pool: rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()?,
        })
    }

    /// Runs `work` on this pool's threads (see [`Pool`] for a forked process).
    pub(crate) fn run<T: Send>(&self, work: impl FnOnce() -> T + Send) -> T {
        if process() == self.made_in {
            self.pool.install(work)
        } else {
            run(work)
        }
    }

    /// How many threads the pool's work runs on here.
    pub(crate) fn threads(&self) -> usize {
        if process() == self.made_in {
            self.pool.current_num_threads()
        } else {
            threads()
        }
    }
}

/// The process whose parallel loops use rayon's global pool: the first to run one (0 until
/// then).
static HOME: AtomicU64 = AtomicU64::new(0);

/// A forked process's own pool, and the process it belongs to.
struct Forked {
    process: u64,
    pool: rayon::ThreadPool,
}

/// The pool of the newest forked process to want one (a pool inherited from a parent is
/// dead weight of a few hundred bytes).
static FORKED: Published<Forked> = Published::new();

/// `None` in the home process; elsewhere this process's own pool, made on first use.
///
/// A fork made from one of the library's worker threads (a callback the library runs there,
/// such as a logging hook, that forks) is not covered: that thread looks like a live worker
/// to [`run`] in the child.
fn forked_pool() -> Option<&'static rayon::ThreadPool> {
    let me = process();
    match HOME.compare_exchange(0, me, Ordering::AcqRel, Ordering::Acquire) {
        Ok(_) => return None,
        Err(home) if home == me => return None,
        Err(_) => {}
    }
    loop {
        let seen = FORKED.get();
        if let Some(f) = seen
            && f.process == me
        {
            return Some(&f.pool);
        }
        // The inherited global pool has no threads: without threads of its own the work
        // would wait forever, so a process that cannot start any says so.
        let pool = match rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("npuzzle-worker-{i}"))
            .build()
        {
            Ok(pool) => pool,
            Err(e) => panic!("npuzzle: cannot start worker threads in a forked process: {e}"),
        };
        // Another thread of this process may publish first: then its pool is taken.
        FORKED.publish(seen, Forked { process: me, pool });
    }
}

/// A value made outside any lock, published by one compare-and-swap and never freed: what
/// a process can read after a fork without waiting on a lock that one of its parent's
/// threads, absent in the child, was holding (a `OnceLock` being initialised, a `Mutex`).
pub(crate) struct Published<T> {
    /// Null, or a pointer from `Box::into_raw` that is never freed (nor set back to null).
    ptr: AtomicPtr<T>,
}

impl<T> Published<T> {
    /// Nothing published yet.
    pub(crate) const fn new() -> Published<T> {
        Published {
            ptr: AtomicPtr::new(std::ptr::null_mut()),
        }
    }

    /// The value published last, if any.
    pub(crate) fn get(&self) -> Option<&'static T> {
        // SAFETY: `ptr` holds null or a pointer from `Box::into_raw` that is never freed.
        unsafe { self.ptr.load(Ordering::Acquire).as_ref() }
    }

    /// Publishes `value` in place of `seen` (what [`Published::get`] returned), unless
    /// another value was published since (then `value` is dropped); returns the value
    /// published now, either way.
    pub(crate) fn publish(&self, seen: Option<&'static T>, value: T) -> &'static T {
        let seen = seen.map_or(std::ptr::null_mut(), |s| s as *const T as *mut T);
        let mine = Box::into_raw(Box::new(value));
        match self
            .ptr
            .compare_exchange(seen, mine, Ordering::AcqRel, Ordering::Acquire)
        {
            // SAFETY: just published, never freed.
            Ok(_) => unsafe { &*mine },
            Err(now) => {
                // SAFETY: `mine` came from `Box::into_raw` above and was never shared.
                drop(unsafe { Box::from_raw(mine) });
                // SAFETY: the pointer moved from `seen`, and it only ever moves to published
                // values, so `now` is one (not null), never freed.
                unsafe { &*now }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn loops_run_in_the_home_process_and_nest() {
        let sum: u64 = run(|| {
            (0..1000u64)
                .into_par_iter()
                .map(|i| run(|| (0..i).into_par_iter().sum::<u64>()))
                .sum()
        });
        assert_eq!(
            sum,
            (0..1000u64)
                .map(|i| i * i.saturating_sub(1) / 2)
                .sum::<u64>()
        );
        assert!(forked_pool().is_none());
    }

    #[test]
    fn the_first_value_published_in_place_of_one_seen_is_kept() {
        static P: Published<u32> = Published::new();
        assert!(P.get().is_none());
        let first = P.publish(None, 1);
        assert_eq!(*first, 1);
        // Published over nothing again: the first stays.
        assert!(std::ptr::eq(P.publish(None, 2), first));
        // Published over the one seen: replaces it, and a stale `seen` no longer does.
        let third = P.publish(Some(first), 3);
        assert_eq!((*third, *P.get().unwrap()), (3, 3));
        assert!(std::ptr::eq(P.publish(Some(first), 4), third));
    }

    #[cfg(unix)]
    #[test]
    fn a_forked_child_runs_its_loops_on_threads_of_its_own() {
        fn sum() -> u64 {
            run(|| (0..100_000u64).into_par_iter().sum())
        }
        let want = sum(); // the global pool is running in this process now
        let home = process();
        // SAFETY: the child only runs `sum` (allocating, which glibc keeps fork-safe, and
        // starting threads) and leaves by `_exit`, never returning into the test harness.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            // A panic here must not unwind into the harness (whose thread would then end the
            // child with status 0).
            let ok = std::panic::catch_unwind(|| sum() == want && process() > 1);
            let code = match ok {
                Ok(true) => 0,
                Ok(false) => 1,
                Err(_) => 2,
            };
            // SAFETY: ends the child at once, as a forked child of a threaded process should.
            unsafe { libc::_exit(code) };
        }
        let since = std::time::Instant::now();
        let mut status = 0;
        loop {
            // SAFETY: waits on our own child, with a valid pointer for its status.
            let done = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
            if done == pid {
                break;
            }
            assert!(done == 0, "waitpid failed");
            if since.elapsed() > std::time::Duration::from_secs(30) {
                // SAFETY: our own child.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, &mut status, 0);
                }
                panic!("the forked child's parallel loop hung");
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(
            libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
            "{status}"
        );
        assert_eq!(
            process(),
            home,
            "the child's fork count leaked into the parent"
        );
    }
}
