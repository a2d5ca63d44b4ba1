//! Solvers kept between requests: the ones made for good (pinned) and the most recently used
//! few others, each holding its tables and databases. One cache for every long-lived caller
//! that makes solvers on demand for many goals and options (the web server, and the Python
//! package's `npuzzle.solver`, which keeps its own wrappers of solvers in it).

use crate::solver::Solver;
use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;

/// Solvers (or what holds them, `V`) by key: pinned ones always, and the `capacity` most
/// recently used others.
#[derive(Debug)]
pub struct SolverCache<K, V = Arc<Solver>> {
    solvers: HashMap<K, Cached<V>>,
    clock: u64,
    capacity: usize,
}

#[derive(Debug)]
struct Cached<V> {
    solver: V,
    used: u64,
    pinned: bool,
}

impl<K: Eq + Hash + Clone, V: Clone> SolverCache<K, V> {
    /// A cache keeping `capacity` solvers besides the pinned ones.
    pub fn new(capacity: usize) -> SolverCache<K, V> {
        SolverCache {
            solvers: HashMap::new(),
            clock: 0,
            capacity,
        }
    }

    /// The solver for `key`, if kept (it becomes the most recently used).
    pub fn get(&mut self, key: &K) -> Option<V> {
        self.clock += 1;
        let c = self.solvers.get_mut(key)?;
        c.used = self.clock;
        Some(c.solver.clone())
    }

    /// Keeps `solver` for `key`: for good when `pinned`, else until it is the least recently
    /// used of more than the capacity.
    pub fn insert(&mut self, key: K, solver: V, pinned: bool) {
        self.clock += 1;
        if !pinned && !self.solvers.contains_key(&key) {
            while self.solvers.values().filter(|c| !c.pinned).count() >= self.capacity {
                let oldest = self
                    .solvers
                    .iter()
                    .filter(|(_, c)| !c.pinned)
                    .min_by_key(|(_, c)| c.used)
                    .map(|(k, _)| k.clone());
                match oldest {
                    Some(k) => self.solvers.remove(&k),
                    None => break,
                };
            }
        }
        let used = self.clock;
        self.solvers.insert(
            key,
            Cached {
                solver,
                used,
                pinned,
            },
        );
    }

    /// How many solvers are kept.
    pub fn len(&self) -> usize {
        self.solvers.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.solvers.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Shape};

    #[test]
    fn keeps_the_pinned_and_the_most_recently_used() {
        let solver = Arc::new(Solver::for_goal(Board::goal(Shape::new(2, 2).unwrap())).unwrap());
        let mut c: SolverCache<i32> = SolverCache::new(2);
        c.insert(0, solver.clone(), true);
        c.insert(1, solver.clone(), false);
        c.insert(2, solver.clone(), false);
        assert!(c.get(&1).is_some()); // 2 is now the least recently used
        c.insert(3, solver.clone(), false);
        assert!(c.get(&0).is_some() && c.get(&1).is_some() && c.get(&3).is_some());
        assert!(c.get(&2).is_none());
        assert_eq!(c.len(), 3);
    }
}
