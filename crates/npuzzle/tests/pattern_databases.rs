//! Pattern databases on the 15-puzzle: optimal lengths from IDA* over additive databases agree
//! with bidirectional BFS on scrambled boards, and match the published optimum on the easiest
//! Korf instances; both goal conventions work through the canonical mapping.

use npuzzle::heuristic::HeuristicKind;
use npuzzle::heuristic::pdb_set::{Partition, PdbSet};
use npuzzle::search::Limits;
use npuzzle::{Algorithm, Board, Move, Outcome, Shape, Solver};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::{Arc, OnceLock};

fn quiet(_: u32, _: u64, _: u64, _: u64) {}

/// The 5-5-5 databases toward the blank-last goal, built once for all tests (well under a second).
fn five_five_five() -> Arc<PdbSet> {
    static SET: OnceLock<Arc<PdbSet>> = OnceLock::new();
    SET.get_or_init(|| {
        let shape = Shape::new(4, 4).unwrap();
        let partition = Partition::preset("5-5-5", shape).unwrap();
        let set = PdbSet::load_or_build(&Board::goal(shape), partition, None, &quiet, &mut |_| {})
            .unwrap();
        Arc::new(set)
    })
    .clone()
}

fn length(solver: &Solver, b: &Board) -> usize {
    match solver.solve(b).unwrap() {
        Outcome::Solved(a) => {
            a.solution.verify(b, solver.goal()).unwrap();
            a.solution.len()
        }
        Outcome::Unsolvable => panic!("{b:?} unsolvable"),
    }
}

#[test]
fn pdb_idastar_agrees_with_bidirectional_bfs() {
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal(shape);
    let pdb = Solver::with_pdbs(
        goal.clone(),
        Algorithm::Auto,
        five_five_five(),
        Limits::default(),
    )
    .unwrap();
    let pdb_astar = Solver::with_pdbs(
        goal.clone(),
        Algorithm::AStar,
        five_five_five(),
        Limits::default(),
    )
    .unwrap();
    let bfs = Solver::new(
        goal.clone(),
        Algorithm::Bidirectional,
        HeuristicKind::Manhattan,
        Limits::default(),
    )
    .unwrap();
    let mut rng = SmallRng::seed_from_u64(30);
    for _ in 0..12 {
        let mut b = goal.clone();
        for _ in 0..rng.random_range(10..=30) {
            b.apply(Move::ALL[rng.random_range(0..4)]);
        }
        let want = length(&bfs, &b);
        assert_eq!(length(&pdb, &b), want, "{b:?}");
        assert_eq!(length(&pdb_astar, &b), want, "{b:?}");
    }
}

#[test]
fn easiest_korf_instances_in_both_goal_conventions() {
    let blank_last = include_str!("../../npuzzle-cli/data/korf100_blank_last.txt");
    let blank_first = include_str!("../../npuzzle-cli/data/korf100.txt");
    let optimum = include_str!("../../npuzzle-cli/data/korf100_opt.txt");
    let shape = Shape::new(4, 4).unwrap();
    let last = Solver::with_pdbs(
        Board::goal(shape),
        Algorithm::Auto,
        five_five_five(),
        Limits::default(),
    )
    .unwrap();
    // Korf's own goal (blank first) through the half-turn mapping to the same databases.
    let first = Solver::with_pdbs(
        Board::goal_blank_first(shape),
        Algorithm::Auto,
        five_five_five(),
        Limits::default(),
    )
    .unwrap();
    let rows: Vec<(&str, &str, usize)> = blank_last
        .lines()
        .zip(blank_first.lines())
        .zip(optimum.lines())
        .map(|((l, f), o)| (l, f, o.trim().parse().unwrap()))
        .collect();
    let mut checked = 0;
    for (l, f, want) in rows.into_iter().filter(|r| r.2 <= 46) {
        let bl = Board::parse(l).unwrap();
        let bf = Board::parse(f).unwrap();
        assert_eq!(length(&last, &bl), want, "{l}");
        assert_eq!(length(&first, &bf), want, "{f}");
        checked += 1;
    }
    assert_eq!(checked, 14);
}

#[test]
fn pdb_heuristic_is_admissible_and_beats_manhattan() {
    use npuzzle::heuristic::{Heuristic, Manhattan};
    let set = five_five_five();
    let goal = set.goal().clone();
    let md = Manhattan::new(&goal);
    let bfs = Solver::new(
        goal.clone(),
        Algorithm::Bidirectional,
        HeuristicKind::Manhattan,
        Limits::default(),
    )
    .unwrap();
    let mut rng = SmallRng::seed_from_u64(7);
    let mut stronger = 0;
    for _ in 0..40 {
        let mut b = goal.clone();
        for _ in 0..rng.random_range(5..=26) {
            b.apply(Move::ALL[rng.random_range(0..4)]);
        }
        let h = set.estimate(b.cells());
        assert!(h as usize <= length(&bfs, &b));
        assert!(h >= md.estimate(b.cells()));
    }
    // On uniformly random boards the databases beat Manhattan distance almost always.
    for _ in 0..200 {
        let b = npuzzle::random::random_solvable(&goal, &mut rng);
        stronger += (set.estimate(b.cells()) > md.estimate(b.cells())) as u32;
    }
    assert!(stronger > 150, "{stronger}");
}

#[test]
fn partitions_are_checked() {
    let shape = Shape::new(4, 4).unwrap();
    assert!(Partition::parse("1,2,3/4,5", shape).is_err());
    assert!(Partition::parse("1,2,3,4,5,6,7,8/8,9,10,11,12,13,14,15", shape).is_err());
    assert!(Partition::parse("1,2,x", shape).is_err());
    let p = Partition::parse("1,2,3,4,5,6,7/8,9,10,11,12,13,14,15", shape).unwrap();
    assert_eq!(p.patterns.len(), 2);
    assert_eq!(Partition::parse("6-6-3", shape).unwrap().patterns.len(), 3);
}

#[test]
fn configured_solvers_choose_databases_by_one_rule() {
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal(shape);
    let set = Some(five_five_five());
    let make = |g: &Board, a, h, pdbs: Option<Arc<PdbSet>>| {
        Solver::configured(g.clone(), a, h, pdbs, Limits::default())
    };
    // auto on 4x4 with no named heuristic: the databases
    let s = make(&goal, Algorithm::Auto, None, set.clone()).unwrap();
    assert_eq!(s.heuristic(), HeuristicKind::Pdb);
    // Korf's goal maps onto the same databases
    let korf = Board::goal_blank_first(shape);
    assert!(
        make(&korf, Algorithm::Auto, None, set.clone())
            .unwrap()
            .pdbs()
            .is_some()
    );
    // a goal they do not fit: auto falls back, an explicit pdb heuristic is an error
    let odd = Board::parse("1 2 3 4 5 x 6 7 8 9 10 11 12 13 14 15").unwrap();
    let s = make(&odd, Algorithm::Auto, None, set.clone()).unwrap();
    assert_eq!(s.heuristic(), HeuristicKind::LinearConflict);
    assert!(
        make(
            &odd,
            Algorithm::IdaStar,
            Some(HeuristicKind::Pdb),
            set.clone()
        )
        .is_err()
    );
    // a named heuristic wins over auto's default; no databases at hand means linear conflict
    let s = make(&goal, Algorithm::Auto, Some(HeuristicKind::Manhattan), set).unwrap();
    assert_eq!(s.heuristic(), HeuristicKind::Manhattan);
    let s = make(&goal, Algorithm::Auto, None, None).unwrap();
    assert_eq!(s.heuristic(), HeuristicKind::LinearConflict);
    let e = make(&goal, Algorithm::IdaStar, Some(HeuristicKind::Pdb), None).unwrap_err();
    assert!(
        e.to_string()
            .contains("pattern databases are available for 4x4")
    );
    assert!(!Solver::wants_pdbs(
        Shape::new(3, 3).unwrap(),
        Algorithm::Auto,
        None
    ));
}
