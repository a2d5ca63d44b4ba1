//! Zeroed arrays of atomics taken straight from the system, for the breadth-first searches
//! that probe gigabytes at random from every core (the two-bit state-space search, the pattern
//! database builder).
//!
//! Why not a `Vec`: a fresh anonymous mapping is zero-filled by the kernel as it is first
//! touched, so there is no initialising pass over gigabytes, and it can be asked for huge pages
//! on 2 MiB boundaries: with 4 KiB pages nearly every random probe of a 10 GB array also misses
//! the address-translation cache.

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64};

/// An atomic integer whose all-zero bytes are a valid value (0).
///
/// # Safety
/// Implementors must be valid when every byte is zero.
pub(crate) unsafe trait ZeroValid: Send + Sync {}
// SAFETY: atomic integers have the layout of their integers; zero bytes are 0.
unsafe impl ZeroValid for AtomicU8 {}
// SAFETY: as above.
unsafe impl ZeroValid for AtomicU16 {}
// SAFETY: as above.
unsafe impl ZeroValid for AtomicU32 {}
// SAFETY: as above.
unsafe impl ZeroValid for AtomicU64 {}

const HUGE_PAGE: usize = 2 << 20;

/// The memory a search or build may take by default: three quarters of what the system reports
/// available (`MemAvailable`), or 4 GiB where that cannot be read. Mappings are made without
/// reserving swap, so a size past this would be found out only by the out-of-memory killer.
pub fn default_max_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| {
            m.lines()
                .find_map(|l| l.strip_prefix("MemAvailable:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(4 << 30, |kb| kb * 1024 / 4 * 3)
}

/// `len` atomics, all 0, in memory of their own, unmapped on drop.
pub(crate) struct Zeroed<A: ZeroValid> {
    ptr: std::ptr::NonNull<A>,
    len: usize,
    /// Bytes mapped (`len · size_of::<A>()` rounded up to whole huge pages).
    mapped: usize,
}

// SAFETY: the array is only reached through `&[A]`, and `A` is `Send + Sync`.
unsafe impl<A: ZeroValid> Send for Zeroed<A> {}
// SAFETY: as above.
unsafe impl<A: ZeroValid> Sync for Zeroed<A> {}

impl<A: ZeroValid> Zeroed<A> {
    /// `len` zero atomics; `None` when the system cannot map that much memory.
    pub(crate) fn new(len: usize) -> Option<Zeroed<A>> {
        let mapped = len
            .max(1)
            .checked_mul(std::mem::size_of::<A>())?
            .checked_next_multiple_of(HUGE_PAGE)?;
        // SAFETY: a fresh private anonymous mapping (zero-filled by the kernel as touched);
        // its result is checked before use.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                mapped,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return None;
        }
        // Advice only; the length is whole huge pages and the kernel aligns what it can inside
        // the mapping.
        #[cfg(target_os = "linux")]
        if mapped >= 8 * HUGE_PAGE {
            // SAFETY: advice on the mapping made above; it changes no contents.
            unsafe {
                libc::madvise(ptr, mapped, libc::MADV_HUGEPAGE);
            }
        }
        Some(Zeroed {
            ptr: std::ptr::NonNull::new(ptr as *mut A)?,
            len,
            mapped,
        })
    }

    /// The atomics, for threads to read and update.
    pub(crate) fn atomics(&self) -> &[A] {
        // SAFETY: `len` zero-initialised (valid, `ZeroValid`) atomics, page-aligned, mapped for
        // as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<A: ZeroValid> Zeroed<A> {
    /// The array frozen once every thread is done with it: its first `len` bytes (at most
    /// the array's), read-only from now on.
    pub(crate) fn freeze(self, len: usize) -> Frozen<A> {
        let len = len.min(self.len * std::mem::size_of::<A>());
        Frozen { zeroed: self, len }
    }
}

/// A [`Zeroed`] array that is only read from now on, as bytes (a built table).
pub(crate) struct Frozen<A: ZeroValid> {
    zeroed: Zeroed<A>,
    len: usize,
}

impl<A: ZeroValid> Frozen<A> {
    /// The bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        // SAFETY: `len` bytes inside the mapping, alive as long as `self`; the atomics were
        // given up with the `Zeroed` (nothing can write them any more), and any initialised
        // bytes are valid `u8`s.
        unsafe { std::slice::from_raw_parts(self.zeroed.ptr.as_ptr() as *const u8, self.len) }
    }
}

impl<A: ZeroValid> std::fmt::Debug for Frozen<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Frozen({} bytes)", self.len)
    }
}

impl<A: ZeroValid> Drop for Zeroed<A> {
    fn drop(&mut self) {
        // SAFETY: unmapping exactly the mapping `new` made; no reference outlives `self`.
        unsafe {
            libc::munmap(self.ptr.as_ptr() as *mut libc::c_void, self.mapped);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn arrays_start_at_zero_and_keep_what_is_stored() {
        let a = Zeroed::<AtomicU32>::new(5_000_000).unwrap();
        assert_eq!(a.atomics().len(), 5_000_000);
        assert!(a.atomics().iter().all(|x| x.load(Relaxed) == 0));
        a.atomics()[4_999_999].store(7, Relaxed);
        assert_eq!(a.atomics()[4_999_999].load(Relaxed), 7);
        let empty = Zeroed::<AtomicU8>::new(0).unwrap();
        assert!(empty.atomics().is_empty());
        assert!(Zeroed::<AtomicU64>::new(usize::MAX).is_none());
    }
}
