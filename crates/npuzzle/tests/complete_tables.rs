//! The complete tables of 12-cell boards: answers agree with IDA*, replay to the goal and are
//! found the same through the cache; a damaged or forged file is detected; `auto` plans the
//! table when the source may provide it and searches when it may not.

use npuzzle::heuristic::HeuristicKind;
use npuzzle::heuristic::pdb_file::PdbCache;
use npuzzle::random::random_solvable;
use npuzzle::search::Limits;
use npuzzle::table::Table;
use npuzzle::{Algorithm, Board, Building, Outcome, PdbSource, Shape, Solver, SolverBuilder};
use rand::SeedableRng;
use rand::rngs::SmallRng;
use std::sync::OnceLock;

/// One 12-cell table for the whole file (seconds to build): 4×3 toward the standard goal.
fn table() -> &'static (Board, Table) {
    static TABLE: OnceLock<(Board, Table)> = OnceLock::new();
    TABLE.get_or_init(|| {
        let goal = Board::goal(Shape::new(4, 3).unwrap());
        let table = Table::build(&goal).unwrap();
        (goal, table)
    })
}

/// A published histogram from `tests/data` (lines `depth count`, `#` comments).
fn published(name: &str) -> Vec<u64> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect()
}

#[test]
fn distances_agree_with_ida_star() {
    let (goal, table) = table();
    assert_eq!(table.reachable_states(), 239_500_800);
    let ida = Solver::new(
        goal.clone(),
        Algorithm::IdaStar,
        HeuristicKind::LinearConflict,
        Limits::default(),
    )
    .unwrap();
    let mut rng = SmallRng::seed_from_u64(12);
    for _ in 0..25 {
        let board = random_solvable(goal, &mut rng);
        let solution = table.solve(&board).unwrap();
        solution.verify(&board, goal).unwrap();
        let Outcome::Solved(a) = ida.solve(&board).unwrap() else {
            panic!("solvable")
        };
        assert_eq!(
            solution.len(),
            a.solution.len(),
            "{}",
            board.to_judge_line()
        );
        assert_eq!(table.distance(&board), Some(solution.len() as u8));
    }
    assert_eq!(table.solve(goal).unwrap().len(), 0);
    // The other parity cannot reach the goal.
    let mut cells = goal.cells().to_vec();
    let (a, b) = if cells[0] == 0 || cells[1] == 0 {
        (2, 3)
    } else {
        (0, 1)
    };
    cells.swap(a, b);
    let odd = Board::new(goal.shape(), &cells).unwrap();
    assert!(table.solve(&odd).is_none());
    assert_eq!(table.distance(&odd), None);
}

/// The table's layers are the published counts of 4×3 (diameter 53), and the two-bit
/// search that builds it gives 5×2's published counts too (diameter 55).
#[test]
fn histograms_are_the_published_ones() {
    let (_, table) = table();
    assert_eq!(table.histogram(), published("four_by_three_depths.txt"));
    assert_eq!(table.max_distance(), 53);
    let five_by_two =
        npuzzle::space::explore(&Board::goal(Shape::new(5, 2).unwrap()), &Default::default())
            .unwrap();
    assert_eq!(five_by_two.histogram, published("five_by_two_depths.txt"));
}

#[test]
fn a_cached_table_is_the_same_and_damage_is_detected() {
    let (goal, table) = table();
    let dir = std::env::temp_dir().join(format!("npuzzle-table-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = PdbCache::new(&dir);
    let path = cache.table_path(goal);
    table.save(&path).unwrap();
    let loaded = Table::load(&path, goal).unwrap();
    let mut rng = SmallRng::seed_from_u64(3);
    for _ in 0..200 {
        let board = random_solvable(goal, &mut rng);
        assert_eq!(loaded.solve(&board), table.solve(&board));
    }
    assert!(Table::verify(&path).is_ok());
    // Under another name (here 3x4's), `verify` reports what `solve` would reject.
    let renamed_file = dir.join("3x4-blank11.table");
    std::fs::copy(&path, &renamed_file).unwrap();
    let e = Table::verify(&renamed_file).unwrap_err().to_string();
    assert!(e.contains("which the cache names 4x3-blank11.table"), "{e}");
    std::fs::remove_file(&renamed_file).unwrap();
    // Any goal with the same blank cell shares the file, in its own tile names: here the
    // tiles reversed, so board `b` of this goal is board `rename(b)` of the standard one.
    let rename = |b: &Board| {
        let cells: Vec<_> = b
            .cells()
            .iter()
            .map(|&t| if t == 0 { 0 } else { 12 - t })
            .collect();
        Board::new(b.shape(), &cells).unwrap()
    };
    let reversed = rename(goal);
    assert_eq!(cache.table_path(&reversed), path);
    let renamed = Table::load(&path, &reversed).unwrap();
    for _ in 0..100 {
        let board = random_solvable(goal, &mut rng);
        let theirs = rename(&board);
        let solution = renamed.solve(&theirs).unwrap();
        solution.verify(&theirs, &reversed).unwrap();
        assert_eq!(Some(solution.len() as u8), table.distance(&board));
    }
    // A table for another blank cell is refused for a goal.
    let blank_first = Board::goal_blank_first(goal.shape());
    assert!(Table::load(&path, &blank_first).is_err());

    let bytes = std::fs::read(&path).unwrap();
    // One flipped bit in the entries: the checksum.
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1000;
    flipped[last] ^= 0x10;
    std::fs::write(&path, &flipped).unwrap();
    let e = Table::load(&path, goal).unwrap_err().to_string();
    assert!(e.contains("checksum"), "{e}");
    // Truncated.
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let e = Table::verify(&path).unwrap_err().to_string();
    assert!(e.contains("truncated"), "{e}");
    // Forged: entries shifted by one state and both checksums recomputed.
    let mut forged = bytes.clone();
    let layers = forged[15] as usize;
    let body_start = 64 + layers * 8;
    let entries = forged[body_start..].to_vec();
    let mut words: Vec<u64> = entries
        .chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    let mut carry = 0;
    for w in &mut words {
        let next = *w >> 62;
        *w = (*w << 2) | carry;
        carry = next;
    }
    for (i, w) in words.iter().enumerate() {
        forged[body_start + 8 * i..body_start + 8 * i + 8].copy_from_slice(&w.to_le_bytes());
    }
    let crc = crc32fast::hash(&forged[64..]);
    forged[56..60].copy_from_slice(&crc.to_le_bytes());
    let header_crc = crc32fast::hash(&forged[..60]);
    forged[60..64].copy_from_slice(&header_crc.to_le_bytes());
    std::fs::write(&path, &forged).unwrap();
    let e = Table::load(&path, goal).unwrap_err().to_string();
    assert!(
        e.contains("distance") || e.contains("neighbour"),
        "a forged table must fail its semantic check: {e}"
    );
    // One entry changed (the first board's, off by one) and both checksums recomputed: the
    // sampled check on load may miss it, but a walk through it never answers wrongly, and
    // `verify` checks every state.
    let mut forged = bytes.clone();
    let board = random_solvable(goal, &mut rng);
    let index = npuzzle::space::SpaceIndex::for_goal(goal).unwrap();
    let i = index.index_of_cells(board.cells()).unwrap();
    let (word, shift) = (body_start + 8 * (i / 32) as usize, 2 * (i % 32));
    let mut w = u64::from_le_bytes(forged[word..word + 8].try_into().unwrap());
    let v = (w >> shift) & 3;
    w = (w & !(3 << shift)) | (((v + 1) % 3) << shift);
    forged[word..word + 8].copy_from_slice(&w.to_le_bytes());
    let crc = crc32fast::hash(&forged[64..]);
    forged[56..60].copy_from_slice(&crc.to_le_bytes());
    let header_crc = crc32fast::hash(&forged[..60]);
    forged[60..64].copy_from_slice(&header_crc.to_le_bytes());
    std::fs::write(&path, &forged).unwrap();
    let e = Table::verify(&path).unwrap_err().to_string();
    assert!(e.contains("distance") || e.contains("neighbour"), "{e}");
    if let Ok(loaded) = Table::load(&path, goal) {
        match loaded.try_solve(&board) {
            Ok(Some(s)) => {
                s.verify(&board, goal).unwrap();
                assert_eq!(Some(s.len() as u8), table.distance(&board));
            }
            Ok(None) => panic!("a solvable board answered unsolvable"),
            Err(e) => assert!(e.to_string().contains("damaged"), "{e}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `auto` looks 12-cell boards up when the source provides the table (cached, or built when
/// the policy allows) and searches with linear conflict when it may not build it.
#[test]
fn auto_uses_the_table_when_it_may_have_it() {
    let (goal, table) = table();
    let dir = std::env::temp_dir().join(format!("npuzzle-table-auto-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let source = |build| PdbSource {
        cache: Some(PdbCache::new(&dir)),
        build,
        ..PdbSource::default()
    };
    let without = SolverBuilder::new(goal.clone())
        .pdb_source(source(Building::Never))
        .build()
        .unwrap();
    assert_eq!(without.effective_algorithm(), Algorithm::IdaStar);
    table.save(&PdbCache::new(&dir).table_path(goal)).unwrap();
    let with = SolverBuilder::new(goal.clone())
        .pdb_source(source(Building::Never))
        .build()
        .unwrap();
    assert_eq!(with.effective_algorithm(), Algorithm::Table);
    let mut rng = SmallRng::seed_from_u64(9);
    let board = random_solvable(goal, &mut rng);
    let Outcome::Solved(a) = with.solve(&board).unwrap() else {
        panic!("solvable")
    };
    assert!(a.optimal);
    a.solution.verify(&board, goal).unwrap();
    assert_eq!(Some(a.solution.len() as u8), table.distance(&board));
    let _ = std::fs::remove_dir_all(&dir);
}
