//! Cantor (Lehmer-code) ranking of permutations and of partial permutations.
//!
//! A complete table over all states of a small board is an array indexed by the rank of the
//! board's permutation; a pattern database is an array indexed by the rank of the positions of
//! its tiles (a partial permutation). Ranking is on the query path, so it is O(n) using a bit
//! mask of the values already used and a popcount instead of the textbook O(n²) double loop.

/// Largest `n` whose factorial fits in a `u64`.
pub const MAX_RANK_LEN: usize = 20;

const FACTORIALS: [u64; MAX_RANK_LEN + 1] = {
    let mut f = [1u64; MAX_RANK_LEN + 1];
    let mut i = 1;
    while i <= MAX_RANK_LEN {
        f[i] = f[i - 1] * i as u64;
        i += 1;
    }
    f
};

/// `n!` for `n <= 20`.
#[inline]
pub fn factorial(n: usize) -> u64 {
    FACTORIALS[n]
}

/// Number of ordered selections of `k` items out of `n`: `n! / (n-k)!`.
pub fn permutations_count(n: usize, k: usize) -> u64 {
    (n - k + 1..=n).map(|x| x as u64).product()
}

/// The Cantor rank (0..n!) of a permutation of `0..n`, `n <= 20`, in lexicographic order.
///
/// ```
/// use npuzzle::rank::{rank, unrank};
/// assert_eq!(rank(&[0, 1, 2]), 0);
/// assert_eq!(rank(&[2, 1, 0]), 5);
/// let mut p = [0u8; 3];
/// unrank(3, &mut p);
/// assert_eq!(rank(&p), 3);
/// ```
#[inline]
pub fn rank(perm: &[u8]) -> u64 {
    let n = perm.len();
    debug_assert!(n <= MAX_RANK_LEN);
    let mut used: u32 = 0;
    let mut r: u64 = 0;
    for (i, &v) in perm.iter().enumerate() {
        let below = v as u32 - (used & ((1u32 << v) - 1)).count_ones();
        r += below as u64 * FACTORIALS[n - 1 - i];
        used |= 1 << v;
    }
    r
}

/// Writes into `out` the permutation of `0..out.len()` whose [`rank`] is `r`.
pub fn unrank(mut r: u64, out: &mut [u8]) {
    let n = out.len();
    debug_assert!(n <= MAX_RANK_LEN && r < FACTORIALS[n]);
    let mut free: u32 = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
    for (i, slot) in out.iter_mut().enumerate() {
        let f = FACTORIALS[n - 1 - i];
        let k = (r / f) as u32;
        r %= f;
        let v = nth_set_bit(free, k);
        *slot = v as u8;
        free &= !(1 << v);
    }
}

/// Index of the `k`-th (0-based) set bit of `x`.
#[inline]
fn nth_set_bit(mut x: u32, k: u32) -> u32 {
    for _ in 0..k {
        x &= x - 1;
    }
    x.trailing_zeros()
}

/// Rank of an ordered selection of `k = items.len()` distinct values from `0..n` (`n <= 64`),
/// in `0..permutations_count(n, k)`. Used to index pattern databases by tile positions.
#[inline]
pub fn rank_partial(items: &[u8], n: usize) -> u64 {
    let mut used: u64 = 0;
    let mut r: u64 = 0;
    for (i, &v) in items.iter().enumerate() {
        let below = v as u64 - (used & ((1u64 << v) - 1)).count_ones() as u64;
        // Remaining choices at position i: n - i; radix for later positions: P(n-1-i, k-1-i).
        r = r * (n - i) as u64 + below;
        used |= 1 << v;
    }
    r
}

/// Inverse of [`rank_partial`]: fills `out` (length k) with the selection of rank `r` from `0..n`.
pub fn unrank_partial(mut r: u64, n: usize, out: &mut [u8]) {
    let k = out.len();
    // Mixed radix, most significant digit first: digit i has radix n - i.
    let mut digits = [0u32; 64];
    for i in (0..k).rev() {
        let radix = (n - i) as u64;
        digits[i] = (r % radix) as u32;
        r /= radix;
    }
    let mut free: u64 = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    for (i, slot) in out.iter_mut().enumerate() {
        let mut x = free;
        for _ in 0..digits[i] {
            x &= x - 1;
        }
        let v = x.trailing_zeros();
        *slot = v as u8;
        free &= !(1u64 << v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_is_a_bijection_on_small_n() {
        for n in 0..=8 {
            let mut seen = vec![false; factorial(n) as usize];
            let mut p = vec![0u8; n];
            for r in 0..factorial(n) {
                unrank(r, &mut p);
                let mut sorted = p.clone();
                sorted.sort();
                assert_eq!(sorted, (0..n as u8).collect::<Vec<_>>());
                assert_eq!(rank(&p), r);
                assert!(!std::mem::replace(&mut seen[r as usize], true));
            }
        }
    }

    #[test]
    fn rank_is_lexicographic() {
        let mut p = [0u8; 6];
        let mut prev = [0u8; 6];
        unrank(0, &mut prev);
        for r in 1..factorial(6) {
            unrank(r, &mut p);
            assert!(p > prev);
            prev = p;
        }
    }

    #[test]
    fn partial_rank_is_a_bijection() {
        for (n, k) in [(6, 3), (9, 4), (16, 2), (7, 7)] {
            let count = permutations_count(n, k);
            let mut seen = vec![false; count as usize];
            let mut out = vec![0u8; k];
            for r in 0..count {
                unrank_partial(r, n, &mut out);
                assert_eq!(rank_partial(&out, n), r);
                assert!(!std::mem::replace(&mut seen[r as usize], true));
            }
        }
    }

    #[test]
    fn large_permutation_round_trips() {
        let p: Vec<u8> = (0..20).rev().collect();
        assert_eq!(rank(&p), factorial(20) - 1);
        let mut q = [0u8; 20];
        unrank(factorial(20) - 1, &mut q);
        assert_eq!(&q[..], &p[..]);
    }
}
