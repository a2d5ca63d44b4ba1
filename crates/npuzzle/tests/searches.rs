//! Every search against the complete tables: optimal methods must return exactly the table's
//! length, every solution (greedy included) must replay to the goal, unsolvable boards must be
//! reported as such, and limits must stop searches quickly with their figures.

use npuzzle::heuristic::HeuristicKind;
use npuzzle::random::random_solvable;
use npuzzle::search::{LimitKind, Limits, SearchError};
use npuzzle::table::Table;
use npuzzle::{Algorithm, Board, Outcome, Shape, SolveError, Solver};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::time::Duration;

fn configurations() -> Vec<(Algorithm, HeuristicKind)> {
    use HeuristicKind::*;
    vec![
        (Algorithm::Bfs, Manhattan),
        (Algorithm::Bidirectional, Manhattan),
        (Algorithm::AStar, Manhattan),
        (Algorithm::AStar, LinearConflict),
        (Algorithm::IdaStar, Manhattan),
        (Algorithm::IdaStar, LinearConflict),
        (Algorithm::Greedy, Manhattan),
        (Algorithm::Greedy, LinearConflict),
    ]
}

fn check_board(solver: &Solver, table: &Table, board: &Board) {
    let outcome = solver.solve(board).unwrap();
    match (outcome, table.distance(board)) {
        (Outcome::Solved(a), Some(d)) => {
            a.solution.verify(board, table.goal()).unwrap();
            if a.optimal {
                assert_eq!(
                    a.solution.len(),
                    d as usize,
                    "{} on {board:?}",
                    a.algorithm.name()
                );
            } else {
                assert!(a.solution.len() >= d as usize);
            }
        }
        (Outcome::Unsolvable, None) => {}
        (got, want) => panic!("{board:?}: {got:?} but the table says {want:?}"),
    }
}

#[test]
fn every_small_board_with_every_search() {
    for (w, h) in [(2, 2), (2, 3), (3, 2)] {
        let shape = Shape::new(w, h).unwrap();
        let goal = Board::goal(shape);
        let table = Table::build(&goal).unwrap();
        let boards: Vec<Board> = Board::every(shape).collect();
        for (alg, heur) in configurations() {
            let solver = Solver::new(goal.clone(), alg, heur, Limits::default()).unwrap();
            for b in &boards {
                check_board(&solver, &table, b);
            }
        }
    }
}

#[test]
fn random_3x3_boards_with_every_search() {
    let table = Table::eight();
    let goal = table.goal().clone();
    let mut rng = SmallRng::seed_from_u64(2024);
    for (alg, heur) in configurations() {
        let solver = Solver::new(goal.clone(), alg, heur, Limits::default()).unwrap();
        let count = match alg {
            Algorithm::Bfs => 150,
            Algorithm::Bidirectional | Algorithm::AStar => 1000,
            _ => 2000,
        };
        for _ in 0..count {
            check_board(&solver, &table, &random_solvable(&goal, &mut rng));
        }
        // and one unsolvable board each
        let odd = Board::parse("2 1 3 4 5 6 7 8 x").unwrap();
        assert!(matches!(solver.solve(&odd).unwrap(), Outcome::Unsolvable));
    }
}

#[test]
fn the_deepest_3x3_boards() {
    let table = Table::eight();
    for text in ["8 6 7 2 5 4 3 x 1", "6 4 7 8 5 x 3 2 1"] {
        let b = Board::parse(text).unwrap();
        assert_eq!(table.distance(&b), Some(31));
        for (alg, heur) in configurations() {
            let solver = Solver::new(table.goal().clone(), alg, heur, Limits::default()).unwrap();
            check_board(&solver, &table, &b);
        }
    }
}

#[test]
fn any_goal_with_every_search() {
    let goal = Board::parse("1 2 3 8 x 4 7 6 5").unwrap();
    let table = Table::build(&goal).unwrap();
    let mut rng = SmallRng::seed_from_u64(9);
    for (alg, heur) in configurations() {
        let solver = Solver::new(goal.clone(), alg, heur, Limits::default()).unwrap();
        for _ in 0..40 {
            check_board(&solver, &table, &random_solvable(&goal, &mut rng));
        }
    }
}

#[test]
fn fifteen_puzzle_searches_agree() {
    // Boards a few dozen moves from the goal: IDA*, A* and bidirectional BFS must agree.
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal(shape);
    let mut rng = SmallRng::seed_from_u64(5);
    let solvers: Vec<Solver> = [
        (Algorithm::IdaStar, HeuristicKind::LinearConflict),
        (Algorithm::IdaStar, HeuristicKind::Manhattan),
        (Algorithm::AStar, HeuristicKind::LinearConflict),
        (Algorithm::Bidirectional, HeuristicKind::Manhattan),
    ]
    .into_iter()
    .map(|(a, h)| Solver::new(goal.clone(), a, h, Limits::default()).unwrap())
    .collect();
    for _ in 0..15 {
        let mut b = goal.clone();
        for _ in 0..24 {
            let m = npuzzle::Move::ALL[rand::Rng::random_range(&mut rng, 0..4)];
            b.apply(m);
        }
        let lengths: Vec<usize> = solvers
            .iter()
            .map(|s| match s.solve(&b).unwrap() {
                Outcome::Solved(a) => {
                    a.solution.verify(&b, &goal).unwrap();
                    a.solution.len()
                }
                Outcome::Unsolvable => panic!("scrambled board reported unsolvable"),
            })
            .collect();
        assert!(
            lengths.windows(2).all(|w| w[0] == w[1]),
            "{b:?}: {lengths:?}"
        );
    }
}

#[test]
fn limits_stop_every_search_with_stats() {
    // A hard 15-puzzle instance: no search finishes within these limits.
    let board = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3").unwrap();
    let goal = Board::goal_blank_first(board.shape());
    for alg in [
        Algorithm::Bfs,
        Algorithm::Bidirectional,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Greedy,
    ] {
        let node_limit = Limits {
            max_nodes: Some(50),
            ..Limits::default()
        };
        let stored_limit = Limits {
            max_stored: Some(300),
            ..Limits::default()
        };
        let time_limit = Limits {
            max_time: Some(Duration::from_millis(20)),
            ..Limits::default()
        };
        for (limits, kind) in [
            (node_limit, LimitKind::Nodes),
            (stored_limit, LimitKind::Memory),
            (time_limit, LimitKind::Time),
        ] {
            if alg == Algorithm::IdaStar && kind == LimitKind::Memory {
                continue; // IDA* stores only its path
            }
            if alg == Algorithm::Greedy && kind != LimitKind::Nodes {
                continue; // greedy may well finish within these
            }
            let solver = Solver::new(goal.clone(), alg, HeuristicKind::Manhattan, limits).unwrap();
            match solver.solve(&board) {
                Err(SolveError::Search(SearchError::Limit(l))) => {
                    assert_eq!(l.kind, kind, "{}", alg.name());
                    assert!(l.stats.expanded > 0);
                    if kind == LimitKind::Nodes {
                        assert_eq!(l.stats.expanded, 51);
                    }
                    if kind == LimitKind::Time {
                        assert!(l.stats.elapsed < Duration::from_secs(5));
                    }
                }
                other => panic!("{} with {kind:?}: {other:?}", alg.name()),
            }
        }
    }
}

#[test]
fn state_encodings_have_clear_limits() {
    let shape = Shape::new(6, 6).unwrap();
    let goal = Board::goal(shape);
    let mut b = goal.clone();
    b.apply(npuzzle::Move::Up);
    let solver = Solver::new(
        goal.clone(),
        Algorithm::Bfs,
        HeuristicKind::Manhattan,
        Limits::default(),
    )
    .unwrap();
    let err = solver.solve(&b).unwrap_err();
    assert!(err.to_string().contains("too large"), "{err}");
    // IDA* handles big boards near the goal.
    let solver = Solver::new(
        goal.clone(),
        Algorithm::IdaStar,
        HeuristicKind::LinearConflict,
        Limits::default(),
    )
    .unwrap();
    let Outcome::Solved(a) = solver.solve(&b).unwrap() else {
        panic!()
    };
    assert_eq!(a.solution.len(), 1);
}

#[test]
fn answers_say_why_they_are_not_optimal() {
    use npuzzle::NotOptimal;
    let mut rng = SmallRng::seed_from_u64(17);
    let mut answer = |shape: Shape, algorithm: Algorithm| {
        let goal = Board::goal(shape);
        let b = random_solvable(&goal, &mut rng);
        // `auto` as the command line runs it (no heuristic named); others with linear conflict.
        let solver = match algorithm {
            Algorithm::Auto => Solver::for_goal(goal),
            _ => Solver::new(
                goal,
                algorithm,
                HeuristicKind::LinearConflict,
                Limits::default(),
            ),
        }
        .unwrap();
        match solver.solve(&b).unwrap() {
            Outcome::Solved(a) => {
                a.solution.verify(&b, solver.goal()).unwrap();
                (a.not_optimal(shape), a.optimal)
            }
            Outcome::Unsolvable => unreachable!("solvable by construction"),
        }
    };
    let s = |w, h| Shape::new(w, h).unwrap();
    assert_eq!(answer(s(3, 3), Algorithm::Auto), (None, true));
    assert_eq!(
        answer(s(3, 3), Algorithm::Greedy),
        (Some(NotOptimal::Method), false)
    );
    // `near` asked for on a board that wants no databases: the method's choice.
    assert_eq!(
        answer(s(3, 3), Algorithm::Near),
        (Some(NotOptimal::Method), false)
    );
    // 5x5 without databases: the near-optimal solver, which databases would replace.
    assert_eq!(
        answer(s(5, 5), Algorithm::Near),
        (Some(NotOptimal::NoDatabases), false)
    );
    assert_eq!(
        answer(s(7, 7), Algorithm::Auto),
        (Some(NotOptimal::TooLarge), false)
    );
}
