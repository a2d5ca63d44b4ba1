//! Every one of the 9! = 362,880 3×3 boards through the library: the solvable ones get a
//! solution that replays to the goal in exactly the BFS distance, computed here by an
//! independent, deliberately simple BFS; the rest report unsolvable. The distance histogram
//! must match the published one (max 31).

use npuzzle::{Board, Outcome, Shape, Solver};
use std::collections::{HashMap, VecDeque};

/// Plain BFS over `[u8; 9]` arrays from the goal, sharing no code with the library.
fn independent_bfs() -> HashMap<[u8; 9], u8> {
    let goal = [1, 2, 3, 4, 5, 6, 7, 8, 0];
    let mut dist = HashMap::from([(goal, 0u8)]);
    let mut queue = VecDeque::from([goal]);
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        let b = s.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (b / 3, b % 3);
        let mut next = vec![];
        if r > 0 {
            next.push(b - 3);
        }
        if r < 2 {
            next.push(b + 3);
        }
        if c > 0 {
            next.push(b - 1);
        }
        if c < 2 {
            next.push(b + 1);
        }
        for n in next {
            let mut t = s;
            t.swap(b, n);
            if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(t) {
                e.insert(d + 1);
                queue.push_back(t);
            }
        }
    }
    dist
}

/// Replays judge letters on a raw array, independently of the library.
fn replay(mut s: [u8; 9], letters: &str) -> Option<[u8; 9]> {
    for ch in letters.chars() {
        let b = s.iter().position(|&t| t == 0)?;
        let n = match ch {
            'u' if b >= 3 => b - 3,
            'd' if b < 6 => b + 3,
            'l' if b % 3 > 0 => b - 1,
            'r' if b % 3 < 2 => b + 1,
            _ => return None,
        };
        s.swap(b, n);
    }
    Some(s)
}

fn all_permutations() -> Vec<[u8; 9]> {
    fn go(prefix: &mut Vec<u8>, used: &mut [bool; 9], out: &mut Vec<[u8; 9]>) {
        if prefix.len() == 9 {
            out.push(prefix.as_slice().try_into().unwrap());
            return;
        }
        for v in 0..9u8 {
            if !used[v as usize] {
                used[v as usize] = true;
                prefix.push(v);
                go(prefix, used, out);
                prefix.pop();
                used[v as usize] = false;
            }
        }
    }
    let mut out = Vec::with_capacity(362_880);
    go(&mut Vec::new(), &mut [false; 9], &mut out);
    out
}

fn published_histogram() -> Vec<u64> {
    let text = include_str!("data/eight_depths.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn every_3x3_board_is_answered_optimally() {
    let bfs = independent_bfs();
    assert_eq!(bfs.len(), 181_440);
    let shape = Shape::new(3, 3).unwrap();
    let solver = Solver::for_goal(Board::goal(shape)).unwrap();
    let mut histogram = vec![0u64; 32];
    let mut unsolvable = 0;
    for cells in all_permutations() {
        let tiles: Vec<u16> = cells.iter().map(|&t| t as u16).collect();
        let board = Board::new(shape, &tiles).unwrap();
        match (solver.solve(&board).unwrap(), bfs.get(&cells)) {
            (Outcome::Solved(a), Some(&d)) => {
                let letters = a.solution.to_letters();
                assert_eq!(letters.len(), d as usize, "{board:?}");
                assert_eq!(
                    replay(cells, &letters),
                    Some([1, 2, 3, 4, 5, 6, 7, 8, 0]),
                    "{board:?} {letters}"
                );
                // The allocation-free path must agree with the general one.
                let mut fast = Vec::new();
                assert!(solver.table().unwrap().write_letters(&board, &mut fast));
                assert_eq!(fast, letters.as_bytes());
                histogram[d as usize] += 1;
            }
            (Outcome::Unsolvable, None) => unsolvable += 1,
            (got, want) => panic!("{board:?}: got {got:?}, BFS says {want:?}"),
        }
    }
    assert_eq!(unsolvable, 181_440);
    assert_eq!(histogram, published_histogram());
    assert_eq!(solver.table().unwrap().histogram(), published_histogram());
    assert_eq!(solver.table().unwrap().max_distance(), 31);
}

#[test]
fn any_goal_gets_optimal_answers() {
    // Goal with the blank in the middle; distances checked by BFS from that goal.
    let goal = Board::parse("1 2 3 8 x 4 7 6 5").unwrap();
    let solver = Solver::for_goal(goal.clone()).unwrap();
    let mut dist = HashMap::from([(goal.clone(), 0usize)]);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[&b];
        for m in npuzzle::Move::ALL {
            if let Some(c) = b.moved(m)
                && !dist.contains_key(&c)
            {
                dist.insert(c.clone(), d + 1);
                queue.push_back(c);
            }
        }
    }
    assert_eq!(dist.len(), 181_440);
    for (board, &d) in dist.iter().step_by(97) {
        let Outcome::Solved(a) = solver.solve(board).unwrap() else {
            panic!("{board:?} should be solvable");
        };
        assert_eq!(a.solution.len(), d);
        a.solution.verify(board, &goal).unwrap();
    }
    let odd = Board::parse("2 1 3 8 x 4 7 6 5").unwrap();
    assert!(matches!(solver.solve(&odd).unwrap(), Outcome::Unsolvable));
}
