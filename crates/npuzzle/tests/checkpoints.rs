//! A long optimal search stopped between iterations goes on from its checkpoint as if it had
//! never stopped: the same solution length, the same states in all (one thread, so the counts
//! are exact), the same later checkpoints; and a checkpoint is refused by any other search.

use npuzzle::heuristic::HeuristicKind;
use npuzzle::search::{Checkpoint, CheckpointError, CheckpointHook, Limits, SearchError};
use npuzzle::{Algorithm, Board, Outcome, Shape, SolveError, Solver, SolverBuilder};
use std::sync::{Arc, Mutex};

/// Korf's 15-puzzle of 42 moves that IDA* with Manhattan distance solves in about 2·10⁶
/// states: past the size at which the engine orders its frontier, so the checkpoints carry
/// an order.
const BOARD: &str = "0 9 12 4 5 3 2 8 10 1 7 6 11 14 13 15";

fn solver() -> Solver {
    let goal = Board::goal(Shape::new(4, 4).unwrap());
    SolverBuilder::new(goal)
        .algorithm(Algorithm::IdaStar)
        .heuristic(Some(HeuristicKind::Manhattan))
        .single_thread(true)
        .build()
        .unwrap()
}

/// Solves `board` from `resume`, keeping every checkpoint handed out: its length (the
/// solution replayed to the goal), states expanded in this run, and the checkpoints.
fn run(
    solver: &Solver,
    board: &Board,
    resume: Option<Checkpoint>,
) -> Result<(usize, u64, Vec<Checkpoint>), SolveError> {
    let (found, kept) = run_within(solver, board, resume, None);
    found.map(|(length, expanded)| (length, expanded, kept))
}

/// [`run`] stopped after `max_nodes` states when given: the outcome and the checkpoints
/// handed out either way.
fn run_within(
    solver: &Solver,
    board: &Board,
    resume: Option<Checkpoint>,
    max_nodes: Option<u64>,
) -> (Result<(usize, u64), SolveError>, Vec<Checkpoint>) {
    let kept = Arc::new(Mutex::new(Vec::new()));
    let keep = kept.clone();
    let limits = Limits {
        max_nodes,
        resume: resume.map(Arc::new),
        checkpoint: Some(CheckpointHook(Arc::new(move |c: &Checkpoint| {
            keep.lock().unwrap().push(c.clone())
        }))),
        ..Limits::default()
    };
    let found = solver.solve_within(board, &limits).map(|outcome| {
        let Outcome::Solved(answer) = outcome else {
            panic!("{board:?} reported unsolvable");
        };
        answer.solution.verify(board, solver.goal()).unwrap();
        (answer.solution.len(), answer.stats.expanded)
    });
    let kept = kept.lock().unwrap().clone();
    (found, kept)
}

/// A checkpoint without its time (which no two runs share).
fn untimed(c: &Checkpoint) -> Checkpoint {
    Checkpoint {
        seconds: 0.0,
        ..c.clone()
    }
}

#[test]
fn a_search_goes_on_from_any_checkpoint_exactly() {
    let solver = solver();
    let board = Board::parse(BOARD).unwrap();
    let (length, expanded, kept) = run(&solver, &board, None).unwrap();
    assert_eq!(length, 42);
    assert!(expanded > 1_000_000, "{expanded}");
    assert!(kept.len() >= 3, "{} checkpoints", kept.len());
    // One a finished iteration: bounds and states rising, the last before the solution's.
    for w in kept.windows(2) {
        assert!(w[0].bound < w[1].bound && w[0].expanded < w[1].expanded);
        assert!(w[0].seconds <= w[1].seconds);
    }
    let last = kept.last().unwrap();
    assert_eq!(last.bound, 42);
    assert!(last.expanded < expanded);
    assert!(
        last.frontier_depth.is_some() && !last.nearest.is_empty(),
        "the last checkpoint carries the frontier's order"
    );
    for (i, c) in kept.iter().enumerate() {
        // Kept as text and read back, as a caller keeps it.
        let text = serde_json::to_string(c).unwrap();
        let back: Checkpoint = serde_json::from_str(&text).unwrap();
        let (l, more, later) = run(&solver, &board, Some(back)).unwrap();
        assert_eq!(l, length, "from checkpoint {i}");
        assert_eq!(c.expanded + more, expanded, "from checkpoint {i}");
        let later: Vec<Checkpoint> = later.iter().map(untimed).collect();
        let expected: Vec<Checkpoint> = kept[i + 1..].iter().map(untimed).collect();
        assert_eq!(later, expected, "from checkpoint {i}");
    }
}

#[test]
fn a_search_stopped_within_an_iteration_keeps_the_subtrees_it_searched() {
    let solver = solver();
    let board = Board::parse(BOARD).unwrap();
    let (length, expanded, whole) = run(&solver, &board, None).unwrap();
    let last_between = whole.last().unwrap().clone();
    // Stopped at several points of the last iteration, and once more within the iteration
    // the first stop's checkpoint goes on with: each time the subtrees it searched whole are
    // kept, and going on from there expands exactly the states the whole search did.
    for share in [0.2, 0.5, 0.8] {
        let stop_at =
            last_between.expanded + ((expanded - last_between.expanded) as f64 * share) as u64;
        let (stopped, kept) = run_within(&solver, &board, None, Some(stop_at));
        assert!(
            matches!(stopped, Err(SolveError::Search(SearchError::Limit(_)))),
            "{stopped:?}"
        );
        let within = kept.last().unwrap().clone();
        assert_eq!(
            within.bound, length as u32,
            "taken within the last iteration"
        );
        assert!(!within.searched.is_empty(), "{share}");
        assert!(within.expanded > last_between.expanded && within.expanded <= stop_at);
        let (l, more, _) = run(&solver, &board, Some(within.clone())).unwrap();
        assert_eq!((l, within.expanded + more), (length, expanded), "{share}");
        // Stopped again, a little further on: its checkpoint holds both runs' subtrees.
        let (again, kept) = run_within(&solver, &board, Some(within.clone()), Some(more / 2));
        assert!(again.is_err());
        let further = kept.last().unwrap().clone();
        assert!(further.searched.len() >= within.searched.len(), "{share}");
        assert!(further.searched[..within.searched.len()] == within.searched[..]);
        assert_eq!(
            further.nearest, within.nearest,
            "the order of the iteration it is within"
        );
        let (l, more, _) = run(&solver, &board, Some(further.clone())).unwrap();
        assert_eq!((l, further.expanded + more), (length, expanded), "{share}");
    }
    // Stopped within the iteration before: going on, that iteration ends with the checkpoint
    // the whole search handed on there (the same bound, states and order).
    let before = &whole[whole.len() - 2];
    let stop_at = (before.expanded + last_between.expanded) / 2;
    let (stopped, kept) = run_within(&solver, &board, None, Some(stop_at));
    assert!(stopped.is_err());
    let within = kept.last().unwrap().clone();
    assert_eq!(within.bound, before.bound);
    assert!(!within.searched.is_empty());
    let (l, more, later) = run(&solver, &board, Some(within.clone())).unwrap();
    assert_eq!((l, within.expanded + more), (length, expanded));
    assert_eq!(
        later.iter().map(untimed).collect::<Vec<_>>(),
        vec![untimed(&last_between)]
    );
}

#[test]
fn a_checkpoint_is_refused_by_another_search() {
    let solver = solver();
    let board = Board::parse(BOARD).unwrap();
    let (_, _, kept) = run(&solver, &board, None).unwrap();
    let c = kept.last().unwrap().clone();
    let other = Board::parse("5 10 14 4 6 12 11 1 9 0 15 7 13 2 8 3").unwrap();
    assert!(matches!(
        run(&solver, &other, Some(c.clone())),
        Err(SolveError::Search(SearchError::Checkpoint(
            CheckpointError::OtherBoard
        )))
    ));
    let mut bad = c.clone();
    bad.nearest[0].0.truncate(5);
    assert!(matches!(
        run(&solver, &board, Some(bad)),
        Err(SolveError::Search(SearchError::Checkpoint(
            CheckpointError::Malformed(_)
        )))
    ));
    // Figures no search hands on are refused, before searching.
    for (bound, next, seconds) in [
        (4_000_000_000, u32::MAX, 0.0),
        (40, 40, 0.0),
        (40, u32::MAX, -5.0),
    ] {
        let mut odd = c.clone();
        odd.bound = bound;
        odd.searched_next_bound = next;
        odd.seconds = seconds;
        assert!(matches!(
            run(&solver, &board, Some(odd)),
            Err(SolveError::Search(SearchError::Checkpoint(
                CheckpointError::Inconsistent(_)
            )))
        ));
    }
    // A bound below the start's estimate is raised to it: the search is still optimal.
    let mut low = c;
    low.bound = 0;
    low.expanded = 0;
    assert_eq!(run(&solver, &board, Some(low)).unwrap().0, 42);
    // Searches other than the optimal engine's ignore it.
    let astar = SolverBuilder::new(solver.goal().clone())
        .algorithm(Algorithm::AStar)
        .heuristic(Some(HeuristicKind::Manhattan))
        .build()
        .unwrap();
    let (l, _, kept) = run(&astar, &other, Some(kept[0].clone())).unwrap();
    assert_eq!((l, kept.len()), (41, 0));
}
