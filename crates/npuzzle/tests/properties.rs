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

    /// Boards stacked one row per line (no blank lines), one of them damaged in one row (a
    /// token dropped, one added, one replaced by junk, or a tile repeated): every other board
    /// is read as written, in its place, and the damaged one is one error.
    #[test]
    fn one_damaged_stacked_board_costs_only_itself(
        side in 3usize..=5,
        count in 2usize..=12,
        damaged in any::<prop::sample::Index>(),
        row in any::<prop::sample::Index>(),
        kind in 0usize..4,
        seed in any::<u64>(),
    ) {
        use rand::SeedableRng;
        let shape = Shape::new(side, side).unwrap();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let boards: Vec<Board> = (0..count)
            .map(|_| npuzzle::random::random_board(shape, &mut rng))
            .collect();
        let bad = damaged.index(count);
        let bad_row = row.index(side);
        let mut text = String::new();
        for (i, b) in boards.iter().enumerate() {
            let line = b.to_judge_line();
            let tokens: Vec<&str> = line.split(' ').collect();
            for (r, cells) in tokens.chunks(side).enumerate() {
                let mut cells: Vec<String> = cells.iter().map(|t| t.to_string()).collect();
                if i == bad && r == bad_row {
                    match kind {
                        0 => { cells.pop(); }
                        1 => cells.push("1".into()),
                        2 => cells[0] = "y".into(),
                        _ => cells[0] = cells[1].clone(),
                    }
                }
                text.push_str(&cells.join(" "));
                text.push('\n');
            }
        }
        // A first line that is a whole board means one board per line (HDU), as documented:
        // a 4x4 board whose first row is `1 2 3 x` (a 2x2 board) cannot start a stack.
        let first = text.lines().next().unwrap_or("");
        prop_assume!(Board::parse(first).is_err());
        let (_, read) = npuzzle::judge::read_all(&text, Default::default());
        prop_assert_eq!(read.len(), count, "{}\n{:?}", text, read);
        for (i, (p, b)) in read.iter().zip(&boards).enumerate() {
            if i == bad {
                prop_assert!(p.board.is_err(), "board {} should be damaged", i);
            } else {
                prop_assert_eq!(p.board.as_ref().ok(), Some(b), "board {}", i);
            }
        }
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
