//! A software prefetch hint, in one place: the searches whose next read is known well before
//! it is made (the move pruner's next row, a sweep's next words) ask for it early, so that it
//! arrives while other work runs.

/// Asks the processor to load the cache line holding `value` (a hint: nothing is read
/// architecturally, and on other processors it does nothing).
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch hint reads nothing architecturally; the address is a live reference.
    #[allow(unused_unsafe)]
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(value as *const T as *const i8);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
