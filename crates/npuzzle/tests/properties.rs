//! Properties over random inputs: ranking is a bijection for every length up to 20, parsing
//! never panics and accepts exactly what the board constructor accepts, and solvability agrees
//! with the moves that can actually be made.

use npuzzle::rank::{factorial, rank, rank_partial, unrank, unrank_partial};
use npuzzle::{Board, Move, Shape};
use proptest::prelude::*;

proptest! {
    #[test]
    fn rank_round_trips(n in 1usize..=20, seed in any::<u64>()) {
        let r = seed % factorial(n);
        let mut p = vec![0u8; n];
        unrank(r, &mut p);
        prop_assert_eq!(rank(&p), r);
    }

    #[test]
    fn partial_rank_round_trips(n in 2usize..=16, k in 1usize..=8, seed in any::<u64>()) {
        let k = k.min(n);
        let count: u64 = (n - k + 1..=n).map(|x| x as u64).product();
        let r = seed % count;
        let mut out = vec![0u8; k];
        unrank_partial(r, n, &mut out);
        prop_assert_eq!(rank_partial(&out, n), r);
    }

    /// Every reader of user input survives arbitrary bytes (the same entry point as the
    /// cargo-fuzz target in `fuzz/`), biased toward digits, blanks and the tile letters.
    #[test]
    fn readers_survive_arbitrary_input(
        data in prop_oneof![
            proptest::collection::vec(any::<u8>(), 0..200),
            "[0-9xXudlrUDLR \\t\\r\\n/,-]{0,200}".prop_map(String::into_bytes),
        ]
    ) {
        let _ = npuzzle::fuzzing::exercise_readers(&data);
    }

    #[test]
    fn parsing_never_panics(text in "[0-9xX \\t\\r\\n-]{0,80}") {
        let _ = Board::parse(&text);
        let _ = npuzzle::judge::read_all(&text, Default::default());
    }

    #[test]
    fn printed_boards_parse_back(w in 2usize..=6, h in 2usize..=6, seed in any::<u64>()) {
        use rand::SeedableRng;
        let shape = Shape::new(w, h).unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let b = npuzzle::random::random_board(shape, &mut rng);
        prop_assert_eq!(Board::parse_with_shape(&b.to_judge_line(), Some(shape)).unwrap(), b.clone());
        prop_assert_eq!(Board::parse_with_shape(&b.to_string(), Some(shape)).unwrap(), b);
    }

    #[test]
    fn moves_keep_boards_solvable(w in 2usize..=5, h in 2usize..=5, moves in prop::collection::vec(0usize..4, 0..200)) {
        let goal = Board::goal(Shape::new(w, h).unwrap());
        let mut b = goal.clone();
        for m in moves {
            b.apply(Move::ALL[m]);
        }
        prop_assert!(npuzzle::parity::is_solvable(&b, &goal).unwrap());
        prop_assert_eq!(npuzzle::parity::is_solvable_by_inversions(&b), true);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// The near-optimal solver answers every solvable board of any shape toward any goal with
    /// moves that replay to the goal, and never calls them optimal.
    #[test]
    fn near_answers_replay(w in 2usize..=12, h in 2usize..=12, seed in any::<u64>()) {
        use npuzzle::{Algorithm, Outcome, Solver};
        use rand::SeedableRng;
        let shape = Shape::new(w, h).unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let goal = npuzzle::random::random_board(shape, &mut rng);
        let b = npuzzle::random::random_solvable(&goal, &mut rng);
        let s = Solver::new(
            goal.clone(),
            Algorithm::Near,
            npuzzle::heuristic::HeuristicKind::LinearConflict,
            Default::default(),
        )
        .unwrap()
        .with_single_thread(true);
        match s.solve(&b).unwrap() {
            Outcome::Solved(a) => {
                a.solution.verify(&b, &goal).unwrap();
                prop_assert!(!a.optimal);
            }
            Outcome::Unsolvable => prop_assert!(false, "solvable board reported unsolvable"),
        }
    }
}
