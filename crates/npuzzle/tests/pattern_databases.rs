//! Pattern databases on the 15-puzzle: optimal lengths from IDA* over additive databases agree
//! with bidirectional BFS on scrambled boards, and match the published optimum on the easiest
//! Korf instances; both goal conventions work through the canonical mapping.

use npuzzle::heuristic::HeuristicKind;
use npuzzle::heuristic::pdb_set::PdbEvent;
use npuzzle::heuristic::pdb_set::{Partition, PdbSet};
use npuzzle::search::Limits;
use npuzzle::{
    Algorithm, Board, Building, Move, Outcome, PdbSource, Plan, Shape, Solver, SolverBuilder,
};
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
        let set = PdbSet::load_or_build(
            &Board::goal(shape),
            partition,
            None,
            true,
            &quiet,
            &mut |_| {},
            None,
        )
        .unwrap();
        Arc::new(set)
    })
    .clone()
}

/// Bidirectional breadth-first search toward `goal`: the independent optimal lengths.
fn bidirectional(goal: &Board) -> Solver {
    Solver::new(
        goal.clone(),
        Algorithm::Bidirectional,
        HeuristicKind::Manhattan,
        Limits::default(),
    )
    .unwrap()
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
    let bfs = bidirectional(&goal);
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
    let bfs = bidirectional(&goal);
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

/// Zero-aware tables, built with the databases, are what the engine reads; on the 8-puzzle,
/// whose complete distance table builds in a second, IDA* over them (with the reflection)
/// finds exactly the table's length for every board sampled, and the estimate never exceeds
/// it.
#[test]
fn zero_aware_idastar_agrees_with_the_complete_table_on_3x3() {
    use npuzzle::heuristic::Heuristic;
    let table = npuzzle::table::Table::eight();
    let goal = table.goal().clone();
    let shape = goal.shape();
    for spec in ["1,2,3,4/5,6,7,8", "1,4,7/2,5,8/3,6"] {
        let partition = Partition::parse(spec, shape).unwrap();
        let set = Arc::new(
            PdbSet::load_or_build(&goal, partition, None, true, &quiet, &mut |_| {}, None).unwrap(),
        );
        assert!(set.zero_aware().is_some(), "{spec}");
        let solver = Solver::with_pdbs(
            goal.clone(),
            Algorithm::IdaStar,
            set.clone(),
            Limits::default(),
        )
        .unwrap();
        assert!(solver.uses_engine());
        let mut rng = SmallRng::seed_from_u64(9);
        for _ in 0..300 {
            let b = npuzzle::random::random_solvable(&goal, &mut rng);
            let want = table.distance(&b).unwrap() as usize;
            assert!(set.estimate(b.cells()) as usize <= want);
            assert_eq!(length(&solver, &b), want, "{spec} {b:?}");
        }
    }
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
    // a preset of another shape, and a partition too large to build, say so before any work
    let five = Shape::new(5, 5).unwrap();
    let e = Partition::parse("7-8", five).unwrap_err().to_string();
    assert!(e.contains("for 4x4 boards") && e.contains("6-6-6-6"), "{e}");
    let e = Partition::parse("blocks-8", five).unwrap_err().to_string();
    assert!(e.contains("GB to build"), "{e}");
    let e = Partition::parse("blocks-9", five).unwrap_err().to_string();
    assert!(e.contains("blocks-K takes K from 1 to 8"), "{e}");
    let e = Partition::parse("1,2/3,x", Shape::new(6, 5).unwrap())
        .unwrap_err()
        .to_string();
    assert!(e.contains("blocks-K") && !e.contains("7-8"), "{e}");
    // 7 tiles on 5x5 (12.7 GB while building) is allowed, 8 on 4x5 (26.7 GB) is not
    assert!(Partition::parse("blocks-7", five).is_ok());
    assert!(Partition::parse("blocks-8", Shape::new(4, 5).unwrap()).is_err());
    let source = PdbSource {
        partition: Some("blocks-8".into()),
        build: Building::Always,
        ..PdbSource::default()
    };
    assert!(source.provide(&Board::goal(five)).is_err());
}

#[test]
fn the_builder_chooses_databases_by_one_rule() {
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal(shape);
    let make = |g: &Board, a, h, with_set: bool| {
        let b = SolverBuilder::new(g.clone()).algorithm(a).heuristic(h);
        if with_set {
            b.pdb_set(five_five_five()).build()
        } else {
            b.build()
        }
    };
    // auto on 4x4 with no named heuristic: the databases
    let s = make(&goal, Algorithm::Auto, None, true).unwrap();
    assert_eq!(s.heuristic(), HeuristicKind::Pdb);
    // Korf's goal maps onto the same databases
    let korf = Board::goal_blank_first(shape);
    assert!(
        make(&korf, Algorithm::Auto, None, true)
            .unwrap()
            .pdbs()
            .is_some()
    );
    // a goal they do not fit: auto falls back, an explicit pdb heuristic is an error
    let odd = Board::parse("1 2 3 4 5 x 6 7 8 9 10 11 12 13 14 15").unwrap();
    let s = make(&odd, Algorithm::Auto, None, true).unwrap();
    assert_eq!(s.heuristic(), HeuristicKind::LinearConflict);
    assert!(make(&odd, Algorithm::IdaStar, Some(HeuristicKind::Pdb), true).is_err());
    // a named heuristic wins over auto's default; no databases at hand means linear conflict
    let s = make(&goal, Algorithm::Auto, Some(HeuristicKind::Manhattan), true).unwrap();
    assert_eq!(s.heuristic(), HeuristicKind::Manhattan);
    let s = make(&goal, Algorithm::Auto, None, false).unwrap();
    assert_eq!(s.heuristic(), HeuristicKind::LinearConflict);
    let e = make(&goal, Algorithm::IdaStar, Some(HeuristicKind::Pdb), false).unwrap_err();
    assert!(e.to_string().contains("no pattern databases"), "{e}");
    // 3x3 has its table; 5x5 wants databases, and without them auto is the near-optimal solver
    let (three, five) = (Shape::new(3, 3).unwrap(), Shape::new(5, 5).unwrap());
    assert!(!Plan::wants_databases(three, Algorithm::Auto, None));
    assert!(Plan::wants_databases(five, Algorithm::Auto, None));
    let five = SolverBuilder::new(Board::goal(five));
    assert_eq!(five.build().unwrap().effective_algorithm(), Algorithm::Near);
    // an explicitly named partition on 5x5 is built (in memory, no cache) and used
    let source = PdbSource {
        partition: Some("blocks-3".into()),
        build: Building::Always,
        ..PdbSource::default()
    };
    let s = SolverBuilder::new(Board::goal(Shape::new(5, 5).unwrap()))
        .pdb_source(source)
        .build()
        .unwrap();
    assert_eq!(s.effective_algorithm(), Algorithm::IdaStar);
    assert_eq!(s.pdbs().unwrap().partition().name, "blocks-3");
    // auto with a named heuristic past 16 cells searches optimally with it
    let s = SolverBuilder::new(Board::goal(Shape::new(5, 5).unwrap()))
        .heuristic(Some(HeuristicKind::LinearConflict))
        .build()
        .unwrap();
    assert_eq!(s.effective_algorithm(), Algorithm::IdaStar);
    assert_eq!(s.heuristic(), HeuristicKind::LinearConflict);
}

/// A damaged zero-aware table: where building is not allowed it is reported and the searches
/// read the additive entries (still optimal); where it is, it is rebuilt with its database.
#[test]
fn damaged_zero_aware_tables_fall_back_or_are_rebuilt() {
    use npuzzle::heuristic::pdb_file::PdbCache;
    use std::sync::Mutex;
    let dir = std::env::temp_dir().join(format!("npuzzle-zpdb-policy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = PdbCache::new(&dir);
    let goal = Board::goal(Shape::new(4, 4).unwrap());
    let events = Arc::new(Mutex::new(Vec::<String>::new()));
    let source = |build| {
        let seen = events.clone();
        PdbSource {
            cache: Some(cache.clone()),
            partition: Some("5-5-5".into()),
            build,
            events: Some(Arc::new(move |e: &PdbEvent| {
                seen.lock()
                    .unwrap()
                    .push(e.message(None).unwrap_or_default())
            })),
            stop: None,
        }
    };
    let set = source(Building::Quick).provide(&goal).unwrap().unwrap();
    assert!(set.zero_aware().is_some());
    let path = cache.zero_aware_path_for(set.goal(), &set.partition().patterns[1]);
    let good = std::fs::read(&path).unwrap();
    let mut bytes = good.clone();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x20;
    std::fs::write(&path, &bytes).unwrap();
    events.lock().unwrap().clear();
    let set = source(Building::Never).provide(&goal).unwrap().unwrap();
    assert!(set.zero_aware().is_none());
    let said = events.lock().unwrap().join("\n");
    assert!(
        said.contains("unusable") && said.contains("checksum"),
        "{said}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), bytes, "left alone");
    let solver =
        Solver::with_pdbs(goal.clone(), Algorithm::IdaStar, set, Limits::default()).unwrap();
    let bfs = bidirectional(&goal);
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..5 {
        let b = scramble_walk(&goal, 30, &mut rng);
        assert_eq!(length(&solver, &b), length(&bfs, &b), "{b:?}");
    }
    events.lock().unwrap().clear();
    let set = source(Building::Quick).provide(&goal).unwrap().unwrap();
    assert!(set.zero_aware().is_some());
    let said = events.lock().unwrap().join("\n");
    assert!(said.contains("checksum"), "{said}");
    assert_eq!(std::fs::read(&path).unwrap(), good, "rebuilt");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The building policy holds for damaged and outdated files too: where building is not
/// allowed they are reported and left alone, never rebuilt; where it is, they are rebuilt.
#[test]
fn damaged_files_are_rebuilt_only_where_building_is_allowed() {
    use npuzzle::heuristic::pdb_file::PdbCache;
    use std::sync::Mutex;
    let dir = std::env::temp_dir().join(format!("npuzzle-policy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = PdbCache::new(&dir);
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal(shape);
    let named = |build| PdbSource {
        cache: Some(cache.clone()),
        partition: Some("5-5-5".into()),
        build,
        ..PdbSource::default()
    };
    // not cached and not buildable: an error naming what is missing
    let e = named(Building::Never).provide(&goal).unwrap_err();
    assert!(e.to_string().contains("not cached"), "{e}");
    assert_eq!(cache.files(), (vec![], 0));
    // built once, then loaded
    let set = named(Building::Quick).provide(&goal).unwrap().unwrap();
    let (files, _) = cache.files();
    assert_eq!(files.len(), set.partition().patterns.len());
    // a damaged file: reported, not rebuilt, under Never; auto goes without databases
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x01;
    std::fs::write(&files[0], &bytes).unwrap();
    let e = named(Building::Never).provide(&goal).unwrap_err();
    assert!(e.to_string().contains("checksum"), "{e}");
    assert_eq!(std::fs::read(&files[0]).unwrap(), bytes);
    let events = Arc::new(Mutex::new(Vec::new()));
    let seen = events.clone();
    let auto = PdbSource {
        cache: Some(cache.clone()),
        partition: None,
        build: Building::Never,
        events: Some(Arc::new(move |e: &PdbEvent| {
            seen.lock().unwrap().push(format!("{e:?}"))
        })),
        stop: None,
    };
    let s = SolverBuilder::new(goal.clone())
        .pdb_source(auto)
        .build()
        .unwrap();
    assert!(s.pdbs().is_none());
    assert!(
        events
            .lock()
            .unwrap()
            .iter()
            .any(|e| e.contains("Unavailable")),
        "{events:?}"
    );
    assert_eq!(std::fs::read(&files[0]).unwrap(), bytes);
    // where building is allowed it is rebuilt, and loads again
    named(Building::Quick).provide(&goal).unwrap().unwrap();
    assert_ne!(std::fs::read(&files[0]).unwrap(), bytes);
    named(Building::Never).provide(&goal).unwrap().unwrap();
    // a service loads what is cached (and, with building allowed, 4x4's default only)
    let service = PdbSource {
        cache: Some(cache.clone()),
        partition: None,
        build: Building::Never,
        events: None,
        stop: None,
    };
    let sets = service.for_service().unwrap();
    assert_eq!(sets.len(), 1);
    assert_eq!(sets[0].goal().shape(), shape);
    assert_eq!(sets[0].partition().name, "5-5-5");
    // a named partition that fits no shape is an error
    assert!(
        PdbSource {
            partition: Some("1,2/3".into()),
            ..service.clone()
        }
        .for_service()
        .is_err()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `goal` after `steps` random blank moves that never undo the previous one.
fn scramble_walk(goal: &Board, steps: usize, rng: &mut SmallRng) -> Board {
    let mut b = goal.clone();
    let mut last: Option<Move> = None;
    let mut done = 0;
    while done < steps {
        let m = Move::ALL[rng.random_range(0..4)];
        if last.is_some_and(|l| l.inverse() == m) || !b.apply(m) {
            continue;
        }
        last = Some(m);
        done += 1;
    }
    b
}

/// Beyond 4×4: small block partitions (built in well under a second) on 5×5, 4×5 and 3×6
/// give the same optimal lengths as IDA* with linear conflict on boards up to ~45 moves from
/// the goal; every answer replays; the reflected estimate never exceeds the distance left at
/// any state along an optimal path.
#[test]
fn larger_boards_agree_with_linear_conflict() {
    use npuzzle::heuristic::Heuristic;
    let mut rng = SmallRng::seed_from_u64(24);
    for ((w, h), k, walks) in [
        ((5, 5), 4, [30, 40, 45]),
        ((4, 5), 4, [30, 40, 45]),
        ((3, 6), 3, [30, 40, 45]),
    ] {
        let shape = Shape::new(w, h).unwrap();
        let goal = Board::goal(shape);
        let partition = Partition::blocks(shape, k).unwrap();
        partition.check(shape).unwrap();
        let set = Arc::new(
            PdbSet::load_or_build(&goal, partition, None, true, &quiet, &mut |_| {}, None).unwrap(),
        );
        assert_eq!(set.reflection().is_some(), w == h);
        assert!(
            set.zero_aware().is_some(),
            "{shape}: zero-aware tables built with the databases"
        );
        let pdb = SolverBuilder::new(goal.clone())
            .pdb_set(set.clone())
            .build()
            .unwrap();
        assert_eq!(pdb.heuristic(), HeuristicKind::Pdb);
        let lc = Solver::new(
            goal.clone(),
            Algorithm::IdaStar,
            HeuristicKind::LinearConflict,
            Limits::default(),
        )
        .unwrap();
        for steps in walks {
            let b = scramble_walk(&goal, steps, &mut rng);
            let Outcome::Solved(a) = pdb.solve(&b).unwrap() else {
                panic!("{b:?} unsolvable")
            };
            assert!(a.optimal);
            a.solution.verify(&b, &goal).unwrap();
            assert_eq!(a.solution.len(), length(&lc, &b), "{b:?}");
            // Admissible with the reflection, all along the optimal path.
            let mut at = b.clone();
            for (i, &m) in a.solution.moves().iter().enumerate() {
                let left = (a.solution.len() - i) as u32;
                assert!(set.estimate(at.cells()) <= left, "{at:?}");
                at.apply(m);
            }
            assert_eq!(set.estimate(at.cells()), 0);
        }
    }
}

/// Default partitions exist and are valid for every board of 16 to 32 cells, with databases
/// small enough to build on demand; 5×5 gets 6-6-6-6.
#[test]
fn default_partitions_cover_every_board_up_to_32_cells() {
    for w in 2..=16 {
        for h in 2..=16 {
            let Ok(shape) = Shape::new(w, h) else {
                continue;
            };
            let n = shape.cells();
            if !(16..=32).contains(&n) {
                continue;
            }
            let p = Partition::default_for(shape).unwrap();
            p.check(shape).unwrap();
            for pattern in &p.patterns {
                let entries: u64 = (n - pattern.len() + 1..=n).map(|x| x as u64).product();
                assert!(entries <= 128_000_000, "{shape} {p:?}");
            }
        }
    }
    let five = Partition::default_for(Shape::new(5, 5).unwrap()).unwrap();
    assert_eq!(five.name, "6-6-6-6");
    assert!(five.patterns.iter().all(|p| p.len() == 6));
}

/// A damaged 5×5 database file is detected on load, as 4×4 ones are.
#[test]
fn damaged_five_by_five_file_is_detected() {
    use npuzzle::heuristic::pdb::PatternDb;
    use npuzzle::heuristic::pdb_file::{HEADER_LEN, PdbCache};
    let dir = std::env::temp_dir().join(format!("npuzzle-pdb5-{}", std::process::id()));
    let cache = PdbCache::new(&dir);
    let goal = Board::goal(Shape::new(5, 5).unwrap());
    let tiles = [18, 19, 23, 24];
    let db = PatternDb::build(&goal, &tiles, &quiet).unwrap();
    let path = cache.path_for(&goal, &tiles);
    db.save(&path).unwrap();
    let loaded = cache.load(&goal, &tiles).unwrap().unwrap();
    assert_eq!(loaded.entries(), db.entries());
    assert_eq!(loaded.goal(), &goal);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[HEADER_LEN + 1000] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    assert!(
        cache
            .load(&goal, &tiles)
            .unwrap_err()
            .to_string()
            .contains("checksum")
    );
    bytes[HEADER_LEN + 1000] ^= 0x10;
    bytes[40] ^= 0x01; // a goal cell past the 16th
    std::fs::write(&path, &bytes).unwrap();
    assert!(
        cache
            .load(&goal, &tiles)
            .unwrap_err()
            .to_string()
            .contains("header")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The split search as a scheduler would drive it (frontier once, then every subtree under
/// each bound in turn, in chunks): optimal lengths equal to the one-machine search, answers
/// that replay from the board, for pattern databases toward a goal that needs the canonical
/// mapping and for linear conflict; a board solved within the frontier is answered from it.
#[test]
fn split_search_finds_the_optimal_length() {
    let shape = Shape::new(4, 4).unwrap();
    let blank_first = Board::goal_blank_first(shape);
    let pdb = SolverBuilder::new(blank_first.clone())
        .pdb_set(five_five_five())
        .build()
        .unwrap();
    assert!(pdb.uses_engine());
    let lines = SolverBuilder::new(Board::goal(shape))
        .heuristic(Some(HeuristicKind::LinearConflict))
        .algorithm(Algorithm::IdaStar)
        .build()
        .unwrap();
    let mut rng = SmallRng::seed_from_u64(11);
    for (solver, count) in [(&pdb, 6), (&lines, 4)] {
        for i in 0..count {
            let mut b = solver.goal().clone();
            for _ in 0..rng.random_range(20..50) {
                b.apply(Move::ALL[rng.random_range(0..4)]);
            }
            let want = length(solver, &b);
            let got = match solver.frontier(&b, 4).unwrap() {
                npuzzle::Split::Solved(s) => s,
                // Every other board: the iterations deal the roots, nearest first.
                split if i % 2 == 0 => dealt_search(solver, &b, split),
                npuzzle::Split::Roots { paths, first_bound } => {
                    let mut it = npuzzle::SplitIterations::new(first_bound);
                    loop {
                        for chunk in paths.chunks(7) {
                            let r = solver
                                .search_subtrees(&b, chunk, it.bound(), &Limits::default())
                                .unwrap();
                            if it.record(r) {
                                break;
                            }
                        }
                        let before = it.bound();
                        match it.advance() {
                            Some(next) => assert!(next > before),
                            None => break it.found().expect("solvable").clone(),
                        }
                    }
                }
            };
            got.verify(&b, solver.goal()).unwrap();
            assert_eq!(got.len(), want, "{b:?}");
        }
    }
    // Three moves from the goal, frontier four deep: solved by the frontier itself.
    let mut near = blank_first.clone();
    for m in [Move::Down, Move::Right, Move::Down] {
        assert!(near.apply(m));
    }
    match pdb.frontier(&near, 4).unwrap() {
        npuzzle::Split::Solved(s) => {
            s.verify(&near, &blank_first).unwrap();
            assert_eq!(s.len(), 3);
        }
        other => panic!("{other:?}"),
    }
    // A path the frontier never hands out is refused.
    let e = pdb
        .search_subtrees(&near, &[vec![Move::Up, Move::Down]], 80, &Limits::default())
        .unwrap_err();
    let e = e.to_string();
    // It names the path and what to check (a driver and workers of different builds).
    assert!(
        e.contains("`ud` is not a path of this search's frontier"),
        "{e}"
    );
    assert!(e.contains("same build"), "{e}");
    // A long path is shown by its start only.
    let long = vec![Move::Up; 5000];
    let e = pdb
        .search_subtrees(&near, &[long], 80, &Limits::default())
        .unwrap_err()
        .to_string();
    assert!(e.contains(&format!("`{}…`", "u".repeat(24))), "{e}");
    assert!(e.len() < 400, "{e}");
}

/// A split search whose iterations deal the roots (in chunks, as a scheduler hands them out):
/// its answer, after checking that each iteration after the first takes the roots in the order
/// of their nearest approach (least estimate reached below them) in the iteration before.
fn dealt_search(solver: &Solver, b: &Board, split: npuzzle::Split) -> npuzzle::Solution {
    let mut it = npuzzle::SplitIterations::dealing(split, 5).expect("roots");
    loop {
        let chunks: Vec<Vec<Vec<Move>>> = it.chunks().iter().map(|c| c.to_vec()).collect();
        assert!(!chunks.is_empty() && chunks.len() <= 5);
        let mut nearest = std::collections::HashMap::new();
        for (i, chunk) in chunks.iter().enumerate() {
            let r = solver
                .search_subtrees(b, chunk, it.bound(), &Limits::default())
                .unwrap();
            assert_eq!(r.nearest.len(), chunk.len());
            for (root, n) in chunk.iter().zip(&r.nearest) {
                nearest.insert(root.clone(), *n);
            }
            if it.record_chunk(i, r) {
                break;
            }
        }
        if it.advance().is_none() {
            return it.found().expect("solvable").clone();
        }
        // Searched roots in the order of their approach, the rest after.
        let keys: Vec<(bool, u32)> = it
            .chunks()
            .iter()
            .flat_map(|c| c.iter())
            .map(|root| match nearest[root] {
                Some(n) => (false, n),
                None => (true, 0),
            })
            .collect();
        assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{keys:?}");
    }
}

/// Two builders sharing an empty cache (two threads here; two worker processes on a cluster
/// node alike): each database is built once, the other builder waits and loads it.
#[test]
fn builders_sharing_a_cache_build_each_database_once() {
    use npuzzle::heuristic::pdb_file::PdbCache;
    let dir = std::env::temp_dir().join(format!("npuzzle-lock-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let shape = Shape::new(4, 4).unwrap();
    let goal = Board::goal(shape);
    let built = std::sync::atomic::AtomicUsize::new(0);
    let loaded = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let cache = PdbCache::new(&dir);
                let set = PdbSet::load_or_build(
                    &goal,
                    Partition::preset("5-5-5", shape).unwrap(),
                    Some(&cache),
                    true,
                    &quiet,
                    &mut |e| match e {
                        PdbEvent::Built(..) => {
                            built.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                        PdbEvent::Loaded(_) => {
                            loaded.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                        _ => {}
                    },
                    None,
                )
                .unwrap();
                assert_eq!(set.partition().name, "5-5-5");
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        built.into_inner(),
        3,
        "each of the three databases built once"
    );
    assert_eq!(loaded.into_inner(), 3, "and loaded by the other builder");
}
