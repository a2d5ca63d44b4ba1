//! The `npuzzle` binary end to end: judge conventions, bad input, `--goal`, and `check`.
//! Every move string the tests see is replayed on its board and must reach the goal.

use npuzzle::{Board, Solution};
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn npuzzle(args: &[&str], stdin: &str) -> Output {
    // Never touch the user's own database cache; one under the target directory is reused
    // from run to run and leaves nothing in /tmp.
    let cache = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("npuzzle-test-pdb");
    let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .env("NPUZZLE_PDB_DIR", cache)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// The address a server's log `line` names: what follows `after`, up to `end`.
fn address_in(line: &str, after: &str, end: char) -> String {
    line.split(after)
        .nth(1)
        .and_then(|rest| rest.split(end).next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Asserts that `answer` solves `board` toward `goal` in exactly `len` moves.
fn assert_solves(board: &str, answer: &str, goal: &str, len: usize) {
    let b = Board::parse(board).unwrap();
    let g = Board::parse(goal).unwrap();
    let s = Solution::from_letters(answer).unwrap();
    s.verify(&b, &g).unwrap();
    assert_eq!(s.len(), len, "{board}: {answer}");
}

const GOAL: &str = "1 2 3 4 5 6 7 8 x";

#[test]
fn poj_sample() {
    let o = npuzzle(&["solve"], " 2  3  4  1  5  x  7  6  8 \n");
    assert!(o.status.success());
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1);
    assert_solves("2 3 4 1 5 x 7 6 8", out.trim_end(), GOAL, 19);
}

#[test]
fn poj_board_over_several_lines_and_arguments() {
    let o = npuzzle(&["solve"], "2 3 4\r\n1 5 x\r\n7 6 8\r\n");
    assert_solves("2 3 4 1 5 x 7 6 8", stdout(&o).trim_end(), GOAL, 19);
    let o = npuzzle(&["solve", "2", "3", "4", "1", "5", "x", "7", "6", "8"], "");
    assert_solves("2 3 4 1 5 x 7 6 8", stdout(&o).trim_end(), GOAL, 19);
    let o = npuzzle(&["solve", "2 3 4 1 5 0 7 6 8"], "");
    assert_solves("2 3 4 1 5 x 7 6 8", stdout(&o).trim_end(), GOAL, 19);
}

#[test]
fn hdu_one_board_per_line() {
    let boards = [
        ("2 3 4 1 5 x 7 6 8", Some(19)),
        ("1 2 3 4 5 6 7 8 x", Some(0)),
        ("2 1 3 4 5 6 7 8 x", None),
        ("8 6 7 2 5 4 3 x 1", Some(31)),
        ("6 4 7 8 5 x 3 2 1", Some(31)),
        ("1 2 3 4 5 6 7 x 8", Some(1)),
    ];
    let input: String = boards.iter().map(|(b, _)| format!("{b}\n")).collect();
    let o = npuzzle(&["solve"], &input);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), boards.len());
    for ((board, len), answer) in boards.iter().zip(&lines) {
        match len {
            Some(n) => assert_solves(board, answer, GOAL, *n),
            None => assert_eq!(*answer, "unsolvable"),
        }
    }
    assert_eq!(lines[1], "", "a solved board prints an empty line");
}

#[test]
fn uva_sample_and_separators() {
    let o = npuzzle(&["solve"], "1\n\n2  3  4  1  5  x  7  6  8\n");
    assert!(o.status.success());
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 1);
    assert_solves("2 3 4 1 5 x 7 6 8", out.trim_end(), GOAL, 19);

    let input = "3\n\n2 3 4\n1 5 x\n7 6 8\n\n1 2 3\n4 5 6\n7 8 x\n\n2 1 3 4 5 6 7 8 x\n";
    let o = npuzzle(&["solve"], input);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out:?}");
    assert_solves("2 3 4 1 5 x 7 6 8", lines[0], GOAL, 19);
    assert_eq!(lines[1], "");
    assert_eq!(lines[2], "", "solved board");
    assert_eq!(lines[3], "");
    assert_eq!(lines[4], "unsolvable");
    assert!(out.ends_with("unsolvable\n"));
}

#[test]
fn forced_formats() {
    let o = npuzzle(&["solve", "--format", "hdu"], "1\n2 3 4 1 5 x 7 6 8\n");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("line 1:"));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "error");
    assert_solves("2 3 4 1 5 x 7 6 8", lines[1], GOAL, 19);
    let o = npuzzle(&["solve", "--format", "poj"], "2 3 4 1\n5 x\n7 6 8\n");
    assert_solves("2 3 4 1 5 x 7 6 8", stdout(&o).trim_end(), GOAL, 19);
}

#[test]
fn bad_boards_are_reported_and_the_batch_goes_on() {
    let input = "2 3 4 1 5 x 7 6 8\n\
                 1 2 3 4 5 6 7 8\n\
                 1 2 3 4 5 6 7 7 x\n\
                 1 2 3 4 5 6 7 8 9\n\
                 1 2 3 4 x 6 7 8 0\n\
                 1 2 3 4 5 6 7 8 q\n\
                 1 2 3 4 5 6 7 x 8\n";
    let o = npuzzle(&["solve"], input);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    // One line per board, in order: the bad ones marked `error`.
    assert_eq!(lines.len(), 7);
    assert_solves("2 3 4 1 5 x 7 6 8", lines[0], GOAL, 19);
    assert_eq!(lines[1..6], ["error"; 5]);
    assert_solves("1 2 3 4 5 6 7 x 8", lines[6], GOAL, 1);
    let err = stderr(&o);
    for (line, what) in [
        (2, "8 tiles do not make a square board"),
        (3, "tile 7 appears twice"),
        (4, "out of range"),
        (5, "two blanks"),
        (6, "`q` at column 17 is not a tile"),
    ] {
        assert!(
            err.contains(&format!("line {line}: ")) && err.contains(what),
            "missing line {line}: {what} in {err}"
        );
    }
}

#[test]
fn junk_line_of_a_million_tokens() {
    let mut input = String::from("2 3 4 1 5 x 7 6 8\n");
    input.push_str(&"5 ".repeat(1_000_000));
    input.push_str("\n1 2 3 4 5 6 7 x 8\n");
    let o = npuzzle(&["solve"], &input);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[1], "error");
    assert!(stderr(&o).contains("line 2: line is longer than"));
}

/// A directory given for a file of boards is named as such, with a usage error's status.
#[test]
fn a_directory_for_a_file_of_boards_is_named() {
    let dir = std::env::temp_dir();
    let o = npuzzle(&["solve", dir.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(2));
    let want = format!("cannot read {}: it is a directory", dir.display());
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
}

/// A partition no board could take is a usage error before any board is read (it used to be
/// one error per board); one that only the board's shape refuses stays an error in its place.
#[test]
fn a_partition_no_board_takes_is_a_usage_error() {
    let boards = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15\n2 3 4 1 5 x 7 6 8\n";
    for (args, says) in [
        (&["solve", "--pdb", "foo"][..], "`foo` is not a partition"),
        (
            &["check", "--pdb", "1,2,x", "-"][..],
            "`x` in `1,2,x` is not a tile",
        ),
        (
            &["pdb", "build", "--partition", "blocks-9"][..],
            "blocks-K takes K from 1 to 8",
        ),
        (
            &["bench", "korf100", "--partition", "7-7"][..],
            "`7-7` is not a partition",
        ),
    ] {
        let o = npuzzle(args, boards);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
    let o = npuzzle(&["solve", "--pdb", "6-6-6-6"], boards);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), "error\nullddrurdllurrdlurd\n");
    assert!(
        stderr(&o).contains("line 1: the 6-6-6-6 partition is for 5x5 boards, not 4x4; expected")
    );
}

/// Past 32 cells no pattern database exists: asked for, a board is refused before anything is
/// announced or built; named with `auto`, the partition is said to be unused.
#[test]
fn pattern_databases_on_a_board_past_32_cells() {
    // One move from the goal (the blank one cell left of its home).
    let six: Vec<String> = (1..35).map(|t| t.to_string()).collect();
    let board = format!("{} x 35\n", six.join(" "));
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let o = npuzzle(
        &[
            "solve",
            "--heuristic",
            "pdb",
            "--pdb",
            "1,2,3/4,5,6",
            "--pdb-dir",
            d,
        ],
        &board,
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), "error\n");
    assert!(
        stderr(&o).contains(
            "line 1: no pattern databases for 6x6 boards: they exist for boards of at most 32 cells"
        ),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("building"), "{}", stderr(&o));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let o = npuzzle(&["solve", "--pdb", "5-5-5", "--pdb-dir", d], &board);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "r\n");
    assert!(
        stderr(&o).contains("partition 5-5-5 does not fit 6x6 boards"),
        "{}",
        stderr(&o)
    );
}

/// A named partition is never silently dropped: with an explicit search method it makes
/// `pdb` the heuristic (and must fit the board); where `auto` answers from the complete table,
/// or the method uses no heuristic, stderr says it is not used.
#[test]
fn a_named_partition_is_used_or_said_unused() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().to_str().unwrap();
    let board = "2 3 4 1 5 x 7 6 8\n";
    let replayed = |o: &Output| assert_solves(board, stdout(o).trim(), GOAL, 19);
    let args = |extra: &[&'static str]| {
        let mut a = vec!["solve", "--stats", "--pdb-dir", d];
        a.extend_from_slice(extra);
        a
    };
    let o = npuzzle(
        &args(&["--algorithm", "idastar", "--pdb", "1,2,3,4/5,6,7,8"]),
        board,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    replayed(&o);
    assert!(
        stderr(&o).contains("idastar+pdb databases=1,2,3,4/5,6,7,8 length=19"),
        "{}",
        stderr(&o)
    );
    let o = npuzzle(&args(&["--algorithm", "idastar", "--pdb", "7-8"]), board);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), "error\n");
    assert!(
        stderr(&o).contains("line 1: the 7-8 partition is for 4x4 boards, not 3x3"),
        "{}",
        stderr(&o)
    );
    // Said once for the size, however many boards: two lines here.
    let o = npuzzle(&args(&["--pdb", "7-8"]), &board.repeat(2));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let answers: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(answers.len(), 2, "{}", stdout(&o));
    for a in &answers {
        assert_solves(board, a, GOAL, 19);
    }
    let said = "warning: the partition 7-8 is not used for 3x3 boards: the complete table answers them (the partition does not fit them either)";
    assert_eq!(stderr(&o).matches(said).count(), 1, "{}", stderr(&o));
    // A heuristic named with auto where the table answers: said, not loaded or built.
    let o = npuzzle(
        &args(&["--heuristic", "pdb", "--pdb", "1,2,3,4/5,6,7,8"]),
        board,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    replayed(&o);
    assert!(
        stderr(&o).contains("warning: the partition 1,2,3,4/5,6,7,8 and the heuristic pdb are not used for 3x3 boards: the complete table answers them"),
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("table length=19") && !stderr(&o).contains("building"),
        "{}",
        stderr(&o)
    );
    // 13 to 15 cells: no table, linear conflict answers under auto.
    let five_by_three = "1 2 3 4 5 6 7 8 9 10 11 12 13 x 14\n";
    let o = npuzzle(
        &args(&["--size", "5x3", "--pdb", "1,2,3,4,5,6,7/8,9,10,11,12,13,14"]),
        five_by_three,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "r\n");
    assert!(
        stderr(&o).contains("is not used for 5x3 boards: idastar+linear-conflict answers them (the pdb heuristic searches with the partition)"),
        "{}",
        stderr(&o)
    );
    // Past 32 cells an explicit search is refused, saying why the databases were wanted.
    let six: Vec<String> = (1..35).map(|t| t.to_string()).collect();
    let o = npuzzle(
        &args(&["--algorithm", "idastar", "--pdb", "5-5-5"]),
        &format!("{} x 35\n", six.join(" ")),
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), "error\n");
    assert!(
        stderr(&o).contains("(the partition 5-5-5, named for idastar, makes pdb its heuristic)"),
        "{}",
        stderr(&o)
    );
    // One quick comparison with the partition 7-8 named, for the given `--algorithms`.
    let compare_78 = |algorithms: &str| {
        npuzzle(
            &[
                "compare",
                "--per-depth",
                "1",
                "--algorithms",
                algorithms,
                "--pdb",
                "7-8",
            ],
            "",
        )
    };
    // That comparison succeeds and its stderr holds `text`.
    let compare_78_says = |algorithms: &str, text: &str| {
        let o = compare_78(algorithms);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains(text), "{}", stderr(&o));
    };
    // A comparison without a row over databases says the partition is idle.
    let o = npuzzle(&["compare", "--per-depth", "1", "--pdb", "7-8"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the partition 7-8 is not used: no row of this comparison searches with pattern databases"),
        "{}",
        stderr(&o)
    );
    let o = npuzzle(
        &args(&["--algorithm", "bfs", "--pdb", "1,2,3,4/5,6,7,8"]),
        board,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    replayed(&o);
    assert!(
        stderr(&o).contains(
            "the partition 1,2,3,4/5,6,7,8 is not used: the algorithm bfs searches without a heuristic"
        ),
        "{}",
        stderr(&o)
    );
    // A heuristic named for a method without one: said, and no databases loaded or built
    // (a 4x4 board two moves from the goal, which bfs answers at once).
    let near_goal = "1 2 3 4 5 6 7 8 9 10 11 12 13 x 14 15\n";
    let o = npuzzle(
        &args(&["--algorithm", "bfs", "--heuristic", "pdb"]),
        near_goal,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "rr\n");
    let said =
        "warning: the heuristic pdb is not used: the algorithm bfs searches without a heuristic";
    assert_eq!(stderr(&o).matches(said).count(), 1, "{}", stderr(&o));
    assert!(
        !stderr(&o).contains("building") && !stderr(&o).contains("6-6-3"),
        "{}",
        stderr(&o)
    );
    // A partition beside another heuristic where the table answers: one sentence each.
    let o = npuzzle(
        &args(&["--heuristic", "manhattan", "--pdb", "1,2,3,4/5,6,7,8"]),
        board,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    replayed(&o);
    assert_eq!(
        stderr(&o).matches("the partition").count(),
        1,
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains("the partition 1,2,3,4/5,6,7,8 is not used: the heuristic manhattan searches without pattern databases")
            && stderr(&o).contains("warning: the heuristic manhattan is not used for 3x3 boards: the complete table answers them"),
        "{}",
        stderr(&o)
    );
    // Near rows take their heuristic from --heuristics: without pdb there, none is used.
    compare_78_says(
        "near",
        "the partition 7-8 is not used: no row of this comparison searches with pattern databases (`--heuristics pdb` adds such rows)",
    );
    // Auto's rows are spoken of by the solver, board size by board size: said once.
    let o = compare_78("auto");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).matches("the partition 7-8").count(),
        1,
        "{}",
        stderr(&o)
    );
    assert!(
        stderr(&o).contains(
            "the partition 7-8 is not used for 3x3 boards: the complete table answers them"
        ),
        "{}",
        stderr(&o)
    );
    // compare names what adds pattern-database rows.
    compare_78_says(
        "bfs",
        "(astar, idastar, greedy or near in `--algorithms` with `--heuristics pdb` adds such rows, and so does auto on boards of 16 to 32 cells)",
    );
    // Past 32 cells no heuristic choice adds such rows: the hint says so instead.
    let dir = tempfile::tempdir().unwrap();
    let six = dir.path().join("six.txt");
    let mut tiles: Vec<String> = (1..36).map(|t| t.to_string()).collect();
    tiles.insert(34, "x".into());
    std::fs::write(&six, tiles.join(" ") + "\n").unwrap();
    let o = npuzzle(
        &[
            "compare",
            six.to_str().unwrap(),
            "--algorithms",
            "idastar",
            "--heuristics",
            "manhattan",
            "--pdb",
            "5-5-5",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the partition 5-5-5 is not used: no row of this comparison searches with pattern databases (no board here has at most 32 cells, the most they serve)"),
        "{}",
        stderr(&o)
    );
}

/// A size starting with a minus sign is read as a (bad) size, not taken for an option. (Not
/// `explore`'s positional size: there a mistyped option would be read as the size.)
#[test]
fn a_negative_size_is_named() {
    for args in [
        &["solve", "--size", "-5x3", "1 2 3"][..],
        &["scramble", "--size", "-5x3"][..],
        &["pdb", "build", "--size", "-5x3"][..],
    ] {
        let o = npuzzle(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("is not a board size (expected WxH"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn goal_option() {
    let goal = "1 2 3 8 x 4 7 6 5";
    let o = npuzzle(
        &["solve", "--goal", goal],
        "2 8 3 1 6 4 7 x 5\n2 1 3 8 x 4 7 6 5\n",
    );
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_solves("2 8 3 1 6 4 7 x 5", lines[0], goal, 5);
    assert_eq!(lines[1], "unsolvable");
    let o = npuzzle(&["solve", "--goal", "1 2 3"], "1 2 3 4 5 6 7 8 x\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--goal"));
}

#[test]
fn tile_notation_and_show() {
    let o = npuzzle(
        &["solve", "--notation", "tiles", "--show"],
        "1 2 3 4 5 6 x 7 8\n",
    );
    let out = stdout(&o);
    assert_eq!(out.lines().next(), Some("L2"));
    assert!(out.contains("-L->") && !out.contains("-r->"), "{out}");
    assert_eq!(out.matches("7 8 x").count(), 1);
}

#[test]
fn check_judges_answers() {
    let dir = std::env::temp_dir().join(format!("npuzzle-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let puzzles = dir.join("p.txt");
    let answers = dir.join("a.txt");
    std::fs::write(
        &puzzles,
        "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 x\n2 1 3 4 5 6 7 8 x\n",
    )
    .unwrap();
    let p = puzzles.to_str().unwrap();
    let a = answers.to_str().unwrap();

    std::fs::write(&answers, "ullddrurdllurdruldr\n\nunsolvable\n").unwrap();
    let o = npuzzle(&["check", p, a], "");
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("3 valid (3 optimal"));

    // a longer valid answer: valid but suboptimal
    std::fs::write(&answers, "ullddrurdllurdruldrlr\n\nunsolvable\n").unwrap();
    let o = npuzzle(&["check", p, a], "");
    assert!(o.status.success());
    assert!(stdout(&o).contains("suboptimal: 21 moves, the optimum is 19"));
    let o = npuzzle(&["check", "--require-optimal", p, a], "");
    assert_eq!(o.status.code(), Some(1));

    // Not compared with the optimum, and why (the library's words, once per size): a limit
    // stopped the search (a 5x3 board), or no optimal method exists (past 32 cells). Both
    // answers are the boards' solutions backwards.
    let five = "1 2 3 4 5 6 7 8 9 10 11 12 x 13 14\n";
    let six: String = (1..36)
        .map(|t| t.to_string())
        .chain(["x".to_string()])
        .collect::<Vec<_>>()
        .join(" ");
    let six = six.replace("34 35 x", "34 x 35") + "\n";
    for (puzzle, size, answer, why) in [
        (five, "5x3", "rr\n", "search stopped by the node limit"),
        (
            six.as_str(),
            "6x6",
            "r\n",
            "no optimal method answers boards past 32 cells",
        ),
    ] {
        std::fs::write(&puzzles, puzzle).unwrap();
        std::fs::write(&answers, answer).unwrap();
        let o = npuzzle(
            &[
                "check",
                "--size",
                size,
                "--max-nodes",
                "1",
                "--format",
                "jsonl",
                p,
                a,
            ],
            "",
        );
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(
            stderr(&o).matches("not compared with the optimum").count(),
            1
        );
        assert!(stderr(&o).contains(why), "{}", stderr(&o));
        let line = stdout(&o);
        assert!(
            line.contains(r#""finding":"not_compared""#) && line.contains(why),
            "{line}"
        );
    }
    std::fs::write(
        &puzzles,
        "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 8 x\n2 1 3 4 5 6 7 8 x\n",
    )
    .unwrap();

    // illegal move, wrong unsolvable claim, missing answer
    std::fs::write(&answers, "rr\nunsolvable\n").unwrap();
    let o = npuzzle(&["check", p, a], "");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("board 1") && out.contains("leaves the board"),
        "{out}"
    );
    assert!(
        out.contains("board 2") && out.contains("can reach the goal"),
        "{out}"
    );
    assert!(
        out.contains("board 3") && out.contains("no answer"),
        "{out}"
    );
    assert!(out.contains("0 valid"));

    // UVa answers separated by blank lines
    std::fs::write(&puzzles, "2\n\n2 3 4 1 5 x 7 6 8\n\n1 2 3 4 5 6 7 8 x\n").unwrap();
    std::fs::write(&answers, "ullddrurdllurdruldr\n\n\n").unwrap();
    let o = npuzzle(&["check", p, a], "");
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("2 valid"));

    // A missing separator is reported, and the answers after it keep their boards.
    std::fs::write(
        &puzzles,
        "3\n\n2 3 4 1 5 x 7 6 8\n\n1 2 3 4 5 6 7 8 x\n\n2 1 3 4 5 6 7 8 x\n",
    )
    .unwrap();
    std::fs::write(&answers, "ullddrurdllurdruldr\n\n\nunsolvable\n").unwrap();
    let o = npuzzle(&["check", p, a], "");
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains(
            "answers line 4: expected a blank line between answers (read as board 3's answer)"
        ),
        "{out}"
    );
    assert!(out.contains("3 valid (3 optimal"), "{out}");

    // The same with Windows and classic Mac line endings, in either file.
    for (puzzle_end, answer_end) in [("\r\n", "\r"), ("\r", "\r\n"), ("\r", "\r")] {
        let uva = "2\n\n2 3 4 1 5 x 7 6 8\n\n1 2 3 4 5 6 7 8 x\n";
        std::fs::write(&puzzles, uva.replace('\n', puzzle_end)).unwrap();
        std::fs::write(
            &answers,
            "ullddrurdllurdruldr\n\n\n".replace('\n', answer_end),
        )
        .unwrap();
        let o = npuzzle(&["check", p, a], "");
        assert!(
            o.status.success(),
            "{puzzle_end:?} {answer_end:?}: {}",
            stdout(&o)
        );
        assert!(stdout(&o).contains("2 valid"));
    }

    // A puzzle that is not a board is counted in the summary, apart, and fails the check.
    std::fs::write(&puzzles, "2\n\n2 3 4 1 5 x 7 6 8\n\n1 1 3 4 5 6 7 8 x\n").unwrap();
    std::fs::write(&answers, "ullddrurdllurdruldr\n\nerror\n").unwrap();
    let o = npuzzle(&["check", p, a], "");
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains("board 2 (line 5: tile 1 appears twice"),
        "{out}"
    );
    assert!(
        out.contains("1 valid (1 optimal, 0 suboptimal, 0 not compared), 0 invalid, 1 not checked (the puzzle is not a board)"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_output_passes_check() {
    // Round trip: whatever `solve` prints, `check` accepts as optimal.
    let dir = std::env::temp_dir().join(format!("npuzzle-rt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let puzzles = dir.join("p.txt");
    let answers = dir.join("a.txt");
    let mut text = String::from("4\n\n");
    for b in [
        "8 6 7 2 5 4 3 x 1",
        "1 2 3 4 5 6 7 8 x",
        "x 1 2 3 4 5 6 7 8",
        "2 1 3 4 5 6 7 8 x",
    ] {
        text.push_str(b);
        text.push_str("\n\n");
    }
    std::fs::write(&puzzles, &text).unwrap();
    let o = npuzzle(&["solve", puzzles.to_str().unwrap()], "");
    assert!(o.status.success());
    std::fs::write(&answers, &o.stdout).unwrap();
    let o = npuzzle(
        &[
            "check",
            "--require-optimal",
            puzzles.to_str().unwrap(),
            answers.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(stdout(&o).contains("4 valid (4 optimal"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_algorithm_from_the_command_line() {
    for alg in [
        "auto",
        "table",
        "bfs",
        "bidirectional",
        "astar",
        "idastar",
        "greedy",
    ] {
        for heur in ["manhattan", "linear-conflict"] {
            let o = npuzzle(
                &["solve", "--algorithm", alg, "--heuristic", heur, "--stats"],
                "8 6 7 2 5 4 3 x 1\n2 1 3 4 5 6 7 8 x\n",
            );
            assert!(o.status.success(), "{alg}: {}", stderr(&o));
            let out = stdout(&o);
            let lines: Vec<&str> = out.lines().collect();
            let len = if alg == "greedy" {
                Solution::from_letters(lines[0]).unwrap().len()
            } else {
                31
            };
            assert_solves("8 6 7 2 5 4 3 x 1", lines[0], GOAL, len);
            assert_eq!(lines[1], "unsolvable");
            let err = stderr(&o);
            assert!(
                err.contains("line 1:") && err.contains("expanded="),
                "{err}"
            );
            assert!(
                err.contains(&format!("optimal={}", alg != "greedy")),
                "{err}"
            );
        }
    }
}

#[test]
fn rectangular_and_larger_boards() {
    // 3 columns x 2 rows needs --size; IDA* answers 4x4 boards.
    let o = npuzzle(&["solve", "--size", "3x2"], "1 2 3 4 x 5\nx 1 2 4 5 3\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let goal = Board::goal(npuzzle::Shape::new(3, 2).unwrap());
    for (text, answer) in ["1 2 3 4 x 5", "x 1 2 4 5 3"].iter().zip(&lines) {
        let b = Board::parse_with_shape(text, Some(goal.shape())).unwrap();
        Solution::from_letters(answer)
            .unwrap()
            .verify(&b, &goal)
            .unwrap();
    }
    let o = npuzzle(
        &["solve", "--pdb", "5-5-5"],
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15\n",
    );
    assert!(o.status.success());
    assert_eq!(stdout(&o), "r\n");
    let o = npuzzle(&["solve"], "1 2 3 4 x 5\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("give the size"));
}

#[test]
fn jsonl_output() {
    let o = npuzzle(
        &[
            "solve",
            "--format",
            "jsonl",
            "--stats",
            "--algorithm",
            "greedy",
        ],
        "2 3 4 1 5 x 7 6 8\n2 1 3 4 5 6 7 8 x\n1 2\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let rows: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["status"], "solved");
    assert_eq!(rows[0]["optimal"], false);
    assert_eq!(rows[0]["algorithm"], "greedy");
    assert!(rows[0]["stats"]["expanded"].as_u64().unwrap() > 0);
    let moves = rows[0]["moves"].as_str().unwrap();
    let len = rows[0]["length"].as_u64().unwrap() as usize;
    assert_solves("2 3 4 1 5 x 7 6 8", moves, GOAL, len);
    assert_eq!(rows[1]["status"], "unsolvable");
    assert_eq!(rows[2]["status"], "error");
    assert_eq!(rows[2]["line"], 3);
}

#[test]
fn limits_from_the_command_line() {
    let o = npuzzle(
        &["solve", "--algorithm", "bfs", "--max-nodes", "10"],
        "8 6 7 2 5 4 3 x 1\n1 2 3 4 5 6 7 x 8\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("line 1: search stopped by the node limit"));
    assert_eq!(stdout(&o), "error\nr\n");
    let o = npuzzle(
        &["solve", "--algorithm", "astar", "--timeout", "0.05"],
        "13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("stopped by the time limit"));
}

#[test]
fn compare_table_and_plot() {
    let svg = std::env::temp_dir().join(format!("npuzzle-cmp-{}.svg", std::process::id()));
    let o = npuzzle(
        &[
            "compare",
            "--per-depth",
            "2",
            "--plot",
            svg.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for name in [
        "| table |",
        "| bfs |",
        "| bidirectional |",
        "| astar+manhattan |",
        "| idastar+linear-conflict |",
        "| greedy+manhattan |",
    ] {
        assert!(out.contains(name), "{name} missing from\n{out}");
    }
    // every optimal method is reported optimal; greedy is never claimed to be
    for line in out
        .lines()
        .filter(|l| l.starts_with("| ") && !l.contains("greedy"))
    {
        if !line.contains("algorithm") {
            assert!(line.contains("| yes |"), "{line}");
        }
    }
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.starts_with("<svg") && text.contains("idastar+manhattan"));
    std::fs::remove_file(&svg).unwrap();

    // On 4×4 the table says it does not handle the boards (and why), not that it hit a
    // limit; a search stopped at a limit shows '-' for what only solved boards have.
    let boards = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15\n5 1 2 3 9 6 7 4 13 10 11 8 14 15 12 x\n";
    let o = npuzzle(
        &[
            "compare",
            "--algorithms",
            "table,bfs,idastar",
            "--heuristics",
            "manhattan",
            "--max-nodes",
            "1000",
            "-",
        ],
        boards,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let row = |name: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("| {name} |")))
            .unwrap_or_else(|| panic!("{name} missing from\n{out}"))
            .to_string()
    };
    assert!(
        row("table").contains("0/2 (2 not handled: a 4x4 board has too many states"),
        "{out}"
    );
    // bfs solves the one-move board within 1000 states and stops on the 12-move one.
    let bfs = row("bfs");
    assert!(bfs.contains("| 1/2 (1 hit a limit) | 1.00 |"), "{bfs}");
    assert!(row("idastar+manhattan").contains("| 2/2 |"), "{out}");
}

#[test]
fn pattern_database_workflow() {
    let dir = std::env::temp_dir().join(format!("npuzzle-pdb-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    // A directory named on the command line that does not exist is an error, not an empty cache.
    for action in ["info", "verify"] {
        let o = npuzzle(&["pdb", action, "--pdb-dir", d], "");
        assert_eq!(o.status.code(), Some(1), "{action}: {}", stdout(&o));
        assert!(stderr(&o).contains("no such directory"), "{}", stderr(&o));
    }
    let o = npuzzle(
        &["pdb", "build", "--partition", "5-5-5", "--pdb-dir", d],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("5-5-5 databases ready"));
    let o = npuzzle(&["pdb", "verify", "--pdb-dir", d], "");
    assert!(o.status.success());
    assert_eq!(stdout(&o).matches(": ok:").count(), 3);
    // A directory named like a database: `info` lists the databases and says it left one
    // entry out; `verify` names it.
    let odd = dir.join("odd.pdb");
    std::fs::create_dir(&odd).unwrap();
    let o = npuzzle(&["pdb", "info", "--pdb-dir", d], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 3, "{}", stdout(&o));
    assert!(
        stderr(&o).contains("1 entry named like a database is not a regular file, left out"),
        "{}",
        stderr(&o)
    );
    let o = npuzzle(&["pdb", "verify", "--pdb-dir", d], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("NOT A FILE") && stdout(&o).contains("odd.pdb: a directory"),
        "{}",
        stdout(&o)
    );
    // Nothing a rebuild mends: it is told to move the entry away, not to rebuild.
    let says = "1 directory is named like a database or table; move it out of the cache";
    assert!(
        stderr(&o).contains(says) && !stderr(&o).contains("damaged"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir(&odd).unwrap();

    // 4x4 boards: auto uses the cached 5-5-5 databases and says a stronger set exists.
    let boards = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15\n\
                  5 1 2 3 9 6 7 4 13 10 11 8 14 x 15 12\n";
    let o = npuzzle(&["solve", "--pdb-dir", d, "--stats"], boards);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("using the 5-5-5 pattern databases"));
    assert!(stderr(&o).contains("idastar+pdb databases=5-5-5"));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let goal = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x";
    assert_solves("1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15", lines[0], goal, 1);
    assert_solves("5 1 2 3 9 6 7 4 13 10 11 8 14 x 15 12", lines[1], goal, 10);

    // Korf's goal convention (blank first) through the same databases.
    let o = npuzzle(
        &["solve", "--pdb-dir", d, "--blank-first"],
        "1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let s = Solution::from_letters(stdout(&o).trim()).unwrap();
    let b = Board::parse("1 2 3 0 4 5 6 7 8 9 10 11 12 13 14 15").unwrap();
    s.verify(&b, &Board::goal_blank_first(b.shape())).unwrap();
    assert_eq!(s.len(), 3);

    // A damaged file is detected by verify, and solve rebuilds it instead of using it.
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_str().unwrap().ends_with("1_2_3_5_6.pdb"))
        .unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[1000] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let o = npuzzle(&["pdb", "verify", "--pdb-dir", d], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("DAMAGED") && stdout(&o).contains("checksum"));
    let o = npuzzle(&["solve", "--pdb-dir", d, "--pdb", "5-5-5"], boards);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("is damaged"), "{}", stderr(&o));
    let o = npuzzle(&["pdb", "verify", "--pdb-dir", d], "");
    assert!(o.status.success());
    // truncated
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let o = npuzzle(&["pdb", "verify", "--pdb-dir", d], "");
    assert!(stdout(&o).contains("truncated"), "{}", stdout(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pdb_heuristic_on_boards_up_to_32_cells() {
    // Any board up to 32 cells gets databases (3x3: one 8-tile block, built at once).
    let o = npuzzle(
        &["solve", "--algorithm", "idastar", "--heuristic", "pdb"],
        "2 3 4 1 5 x 7 6 8\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "ullddrurdllurdruldr\n");
    // 5x5 with a small named partition: optimal (as long as IDA* with linear conflict finds),
    // and the answer replays.
    let goal = Board::goal(npuzzle::Shape::new(5, 5).unwrap());
    let text = "6 1 2 3 5 11 7 8 4 9 12 x 13 14 10 16 17 18 19 15 21 22 23 24 20";
    let o = npuzzle(&["solve", "--pdb", "blocks-4", "--stats"], text);
    assert!(o.status.success(), "{}", stderr(&o));
    let b = Board::parse(text).unwrap();
    let s = Solution::from_letters(stdout(&o).trim()).unwrap();
    s.verify(&b, &goal).unwrap();
    assert!(stderr(&o).contains("idastar+pdb") && stderr(&o).contains("optimal=true"));
    let lc = npuzzle(
        &[
            "solve",
            "--algorithm",
            "idastar",
            "--heuristic",
            "linear-conflict",
        ],
        text,
    );
    assert!(lc.status.success(), "{}", stderr(&lc));
    assert_eq!(s.len(), stdout(&lc).trim().len());
    assert!(s.len() >= 10, "{}", s.len());
    // Beyond 32 cells there are none.
    let big: Vec<String> = (1..35)
        .map(|t| t.to_string())
        .chain(["x".into(), "35".into()])
        .collect();
    let o = npuzzle(
        &["solve", "--heuristic", "pdb", "--algorithm", "idastar"],
        &big.join(" "),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("line 1: no pattern databases for 6x6"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn parity_command() {
    let o = npuzzle(
        &["parity"],
        "2 3 4 1 5 x 7 6 8\n2 1 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 x\n1 2 3\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("solvable\tinversions=4"), "{out}");
    assert!(lines[1].starts_with("unsolvable\tinversions=1"), "{out}");
    assert!(lines[2].starts_with("unsolvable\tinversions=1 blank_row_from_bottom=1 width=4"));
    assert!(stderr(&o).contains("line 4:"));
    let o = npuzzle(
        &["parity", "--goal", "1 2 3 8 x 4 7 6 5", "2 8 3 1 6 4 7 x 5"],
        "",
    );
    assert!(stdout(&o).starts_with("solvable"));
}

/// A batch with bad boards keeps one output line per board, so `check` lines them up.
#[test]
fn solve_then_check_lines_up_around_bad_boards() {
    let dir = std::env::temp_dir().join(format!("npuzzle-mixed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let puzzles = dir.join("mixed.txt");
    std::fs::write(
        &puzzles,
        "2 3 4 1 5 x 7 6 8\n1 2 3 4 5 6 7 7 x\n2 1 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 x 8\n",
    )
    .unwrap();
    let o = npuzzle(&["solve", puzzles.to_str().unwrap()], "");
    assert_eq!(o.status.code(), Some(1));
    let answers = dir.join("answers.txt");
    std::fs::write(&answers, &o.stdout).unwrap();
    assert_eq!(stdout(&o).lines().nth(1), Some("error"));
    let o = npuzzle(
        &[
            "check",
            puzzles.to_str().unwrap(),
            answers.to_str().unwrap(),
        ],
        "",
    );
    let report = stdout(&o);
    assert!(report.contains("board 2"), "{report}");
    assert!(
        report.contains("checked 4 boards: 3 valid (3 optimal"),
        "{report}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// UVa: datasets spread over lines are one board each; exactly the declared count is
/// answered, extras reported on stderr only.
#[test]
fn uva_count_and_datasets_over_lines() {
    let o = npuzzle(&["solve"], "1\n\n1 2\n3 4\n5 6 7 8 x\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "\n");
    let o = npuzzle(
        &["solve"],
        "1\n\n1 2 3\n4 5 6\n7 8 9\n10 11 12 13 14 15 x\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = npuzzle(
        &["solve"],
        "2\n\n2 3 4 1 5 x 7 6 8\n\n1 2 3 4 5 6 7 x 8\n\n1 2 3 4 5 6 7 8 x\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let blocks: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(blocks.len(), 2, "{out:?}");
    assert_eq!(blocks[1], "r\n");
    let err = stderr(&o);
    assert!(
        err.contains("line 7: dataset 3 is past the 2 declared"),
        "{err}"
    );
    assert!(!err.contains("could not be answered"), "{err}");
}

#[test]
fn empty_input_says_so() {
    for (input, says) in [
        ("", "line 1: the input holds no board: it is empty"),
        (
            "  \n\n\t\n",
            "line 1: the input holds no board: its 3 lines are blank",
        ),
        (
            "\n",
            "line 1: the input holds no board: its only line is blank",
        ),
    ] {
        let o = npuzzle(&["solve"], input);
        assert_eq!(o.status.code(), Some(1));
        assert!(stderr(&o).contains(says), "{}", stderr(&o));
        assert_eq!(stdout(&o), "");
    }
}

/// An unsolvable 4×4 board is answered at once: no databases are built for it.
#[test]
fn unsolvable_four_by_four_builds_nothing() {
    let dir = std::env::temp_dir().join(format!("npuzzle-unsolvable-{}", std::process::id()));
    let o = npuzzle(
        &["solve", "--pdb-dir", dir.to_str().unwrap()],
        "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 x\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "unsolvable\n");
    assert!(!stderr(&o).contains("building"), "{}", stderr(&o));
    assert!(!dir.exists());
}

/// UVa 716: the sample, tokens over lines, and bad cases reported by line.
#[test]
fn cube_command() {
    let o = npuzzle(&["cube"], "2\n2\n1 2 3 4 5 7 6 0\n2\n2 1 3 5 4 6 0 7\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "Puzzle is unsolvable.\nPuzzle can be solved.\n");
    let o = npuzzle(
        &["cube"],
        "3\n2 1 2 3\n4 5 6 7 9\n2\n2 1 3 5 4 6 0 7\n2\n1 2\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "error\nPuzzle can be solved.\nerror\n");
    let err = stderr(&o);
    assert!(
        err.contains("line 3: case 1: cell value 9 is out of range (0 to 7)"),
        "{err}"
    );
    assert!(
        err.contains("line 7: case 3: the input ends after 2 of its 8 cells"),
        "{err}"
    );
    let o = npuzzle(&["cube", "--dimensions", "2"], "1\n3\n1 2 3 4 5 6 7 0 8\n");
    assert_eq!(stdout(&o), "Puzzle can be solved.\n");
}

/// One board per line, the bulk path: boards of a new shape in the middle of a run of 3×3
/// boards, unsolvable and bad lines all keep their places.
#[test]
fn bulk_lines_keep_their_order() {
    let mut input = String::new();
    for _ in 0..3000 {
        input.push_str("1 2 3 4 5 6 7 x 8\n");
    }
    input.push_str("1 2 x 3\n2 1 3 4 5 6 7 8 x\n1 2 3 4 5 6 7 8 8\n1 2 3 4 5 6 7 8 x\n");
    for _ in 0..3000 {
        input.push_str("1 2 3 4 5 6 x 7 8\n");
    }
    let o = npuzzle(&["solve"], &input);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6004);
    assert!(lines[..3000].iter().all(|l| *l == "r"));
    assert_eq!(lines[3000], "r");
    assert_eq!(lines[3001], "unsolvable");
    assert_eq!(lines[3002], "error");
    assert_eq!(lines[3003], "");
    assert!(lines[3004..].iter().all(|l| *l == "rr"));
    assert!(
        stderr(&o).contains("line 3003: tile 8 appears twice"),
        "{}",
        stderr(&o)
    );
}

/// Review findings: `--show` on a big answer is skipped, not rendered into memory; a cube
/// case with an unreadable edge length gets its `error` line; an already solved board needs
/// no solver.
#[test]
fn big_show_bad_edge_and_solved_boards() {
    let scramble = npuzzle(&["scramble", "--size", "30x30", "--seed", "3"], "");
    let o = npuzzle(&["solve", "--show"], &stdout(&scramble));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("(--show skipped"),
        "{}",
        &stdout(&o)[..200]
    );
    let o = npuzzle(&["cube"], "1\n1000000\n");
    assert_eq!(stdout(&o), "error\n");
    assert_eq!(o.status.code(), Some(1));
    let solved: Vec<String> = (1..25).map(|t| t.to_string()).chain(["x".into()]).collect();
    let o = npuzzle(&["solve", "--format", "jsonl"], &solved.join(" "));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(r#""length":0"#), "{}", stdout(&o));
    assert!(!stderr(&o).contains("building"), "{}", stderr(&o));
}

/// A taken port is reported at once, before any pattern database is built.
#[test]
fn serve_reports_a_taken_port_before_building() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let dir = std::env::temp_dir().join(format!("npuzzle-taken-port-{}", std::process::id()));
    let o = npuzzle(
        &[
            "serve",
            "--quiet",
            "--addr",
            &addr,
            "--pdb-dir",
            dir.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot listen"), "{}", stderr(&o));
    assert!(!dir.exists());
}

/// While its databases load (here: 4x4's 6-6-3, built at start-up), the server refuses
/// connections instead of leaving them unanswered; then it answers.
#[test]
fn serve_refuses_connections_until_its_databases_are_loaded() {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpStream;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve-loading");
    let _ = std::fs::remove_dir_all(&dir);
    let mut server = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(["serve", "--quiet", "--addr", "127.0.0.1:0", "--pdb-dir"])
        .arg(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut log = BufReader::new(server.stderr.take().unwrap()).lines();
    let mut line = |what: &str| loop {
        let l = log.next().expect("the server's log ended").unwrap();
        if l.contains(what) {
            return l;
        }
    };
    let loading = line("loading the pattern databases");
    let addr = address_in(&loading, "; ", ' ');
    // The build takes seconds: the port is bound but not listening yet.
    let early = TcpStream::connect(&addr).map(|_| ()).map_err(|e| e.kind());
    assert_eq!(early, Err(std::io::ErrorKind::ConnectionRefused));
    let serving = line("serving http://");
    assert!(serving.contains(&addr), "{serving}");
    let mut c = TcpStream::connect(&addr).unwrap();
    c.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut reply = String::new();
    c.read_to_string(&mut reply).unwrap();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    // SAFETY: signalling our own child process.
    assert_eq!(unsafe { libc::kill(server.id() as i32, libc::SIGINT) }, 0);
    let status = server.wait().unwrap();
    let rest: Vec<String> = log.map_while(Result::ok).collect();
    assert!(status.success(), "{status:?} {rest:?}");
}

/// A request body cut off by its connection closing is answered `incomplete_body` (read by a
/// client that closed only its sending side) and logged as cut off, not as a bare 400; a
/// malformed body is still a 400 `bad_json`.
#[test]
fn serve_logs_a_body_cut_off_by_its_client() {
    use std::io::{BufRead, BufReader, Read};
    use std::net::{Shutdown, TcpStream};
    use std::sync::mpsc;
    use std::time::Duration;
    let mut server = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(["serve", "--no-pdb", "--addr", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The log's lines, read on a thread of their own so that a missing line fails the test
    // after a wait instead of blocking it.
    let (tx, log) = mpsc::channel::<String>();
    let stderr = BufReader::new(server.stderr.take().unwrap());
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let wait = Duration::from_secs(20);
    let next_line = |what: &str| {
        log.recv_timeout(wait)
            .unwrap_or_else(|_| panic!("no {what} in the server's log"))
    };
    let first = next_line("first line");
    let addr = address_in(&first, "http://", '/');
    let body = r#"{"board": "1 2 3 4 5 6 7 8 x"}"#;
    let post = |sent: &str, length: usize| {
        let mut s = TcpStream::connect(&addr).unwrap();
        s.set_read_timeout(Some(wait)).unwrap();
        let head = format!(
            "POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
             Content-Length: {length}\r\nConnection: close\r\n\r\n{sent}"
        );
        s.write_all(head.as_bytes()).unwrap();
        s
    };
    let answer = |mut s: TcpStream| {
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        text
    };
    // Half the body, then the connection closed: nobody to answer.
    drop(post(&body[..10], body.len()));
    // Half the body, then only the sending side closed: the client reads why.
    let half = post(&body[..10], body.len());
    half.shutdown(Shutdown::Write).unwrap();
    let told = answer(half);
    assert!(told.starts_with("HTTP/1.1 400"), "{told}");
    assert!(told.contains(r#""error":"incomplete_body""#), "{told}");
    assert!(told.contains("bytes declared"), "{told}");
    // A complete but malformed body: a plain 400.
    let told = answer(post("{\"board\":", 9));
    assert!(told.starts_with("HTTP/1.1 400"), "{told}");
    assert!(told.contains(r#""error":"bad_json""#), "{told}");
    let mut lines = Vec::new();
    while lines.len() < 3 {
        let line = next_line("request line");
        if line.contains("POST /api/solve") {
            lines.push(line);
        }
    }
    let _ = server.kill();
    let _ = server.wait();
    // The connections are served apart, so their lines may come in any order.
    let cut = |l: &String| l.contains("-> client closed the connection while sending the body");
    assert_eq!(lines.iter().filter(|l| cut(l)).count(), 2, "{lines:?}");
    assert_eq!(
        lines.iter().filter(|l| l.contains("-> 400 in")).count(),
        1,
        "{lines:?}"
    );
}

#[test]
fn fallback_and_effort_from_the_command_line() {
    // Korf's 15-puzzle #1 (57 moves) with A* under 100 states: answered anyway, marked.
    let board = "13 6 8 12 15 14 x 10 11 7 4 5 9 1 3 2";
    let goal = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 x";
    let o = npuzzle(
        &[
            "solve",
            "--algorithm",
            "astar",
            "--max-nodes",
            "100",
            "--fallback",
        ],
        &format!("{board}\n"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let answer = out.trim_end();
    let len = Solution::from_letters(answer).unwrap().len();
    assert!(len >= 57);
    assert_solves(board, answer, goal, len);
    assert!(
        stderr(&o)
            .contains("line 1: the search hit the node limit; answered by the near-optimal solver"),
        "{}",
        stderr(&o)
    );
    let o = npuzzle(
        &[
            "solve",
            "--format",
            "jsonl",
            "--algorithm",
            "astar",
            "--max-nodes",
            "100",
            "--fallback",
        ],
        &format!("{board}\n"),
    );
    let row: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        (&row["optimal"], &row["algorithm"], &row["fallback_after"]),
        (
            &serde_json::json!(false),
            &serde_json::json!("near"),
            &serde_json::json!("nodes")
        )
    );
    // Without --fallback the limit is an error, as before.
    let o = npuzzle(
        &["solve", "--algorithm", "astar", "--max-nodes", "100"],
        board,
    );
    assert_eq!(o.status.code(), Some(1));
    // --effort where nothing uses it is pointed out; out-of-range values are refused.
    let o = npuzzle(
        &["solve", "--algorithm", "idastar", "--effort", "3"],
        "1 2 3 4 5 6 7 x 8\n",
    );
    assert!(o.status.success());
    assert!(
        stderr(&o).contains("effort 3 is not used"),
        "{}",
        stderr(&o)
    );
    let o = npuzzle(&["solve", "--effort", "6"], "1 2 3 4 5 6 7 x 8\n");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn completions_and_manual_pages_cover_every_subcommand() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = npuzzle(&["completions", shell], "");
        assert!(o.status.success(), "{shell}: {}", stderr(&o));
        let script = stdout(&o);
        for sub in ["solve", "check", "scramble", "pdb", "serve", "completions"] {
            assert!(script.contains(sub), "{shell} completions lack {sub}");
        }
    }
    let o = npuzzle(&["completions", "tcsh"], "");
    assert_eq!(o.status.code(), Some(2));
    let o = npuzzle(&["man"], "");
    assert!(o.status.success());
    let page = stdout(&o);
    assert!(
        page.starts_with(".ie") || page.contains(".TH npuzzle"),
        "{page}"
    );
    assert!(page.contains("solve") && page.contains("check"));
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("npuzzle-man");
    let _ = std::fs::remove_dir_all(&dir);
    let o = npuzzle(&["man", "--dir", dir.to_str().unwrap()], "");
    assert!(o.status.success(), "{}", stderr(&o));
    for page in [
        "npuzzle.1",
        "npuzzle-solve.1",
        "npuzzle-check.1",
        "npuzzle-pdb.1",
    ] {
        let text = std::fs::read_to_string(dir.join(page)).unwrap();
        assert!(text.contains(".TH"), "{page}");
    }
    let solve = std::fs::read_to_string(dir.join("npuzzle-solve.1")).unwrap();
    assert!(
        solve.contains("algorithm"),
        "the solve page lists its options"
    );
    // A file or a broken link where the directory should be is named as such.
    let file = dir.join("npuzzle.1");
    let broken = dir.join("broken");
    std::os::unix::fs::symlink(dir.join("nowhere"), &broken).unwrap();
    for path in [&file, &broken] {
        let o = npuzzle(&["man", "--dir", path.to_str().unwrap()], "");
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("is not a directory"), "{}", stderr(&o));
    }
}

/// A batch interrupted by SIGINT or SIGTERM writes every answer it finished (in order, each
/// one correct), marks none of the rest, says how many it left, and exits 130 or 143.
#[test]
fn an_interrupted_batch_keeps_its_finished_answers() {
    use std::io::{BufRead, BufReader};
    // Two quick boards, then 4x4 boards that IDA* with Manhattan distance takes seconds to
    // minutes over (one thread: they come strictly one after the other).
    let quick = [
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15",
        "1 2 3 4 5 6 7 8 9 10 11 12 13 x 14 15",
    ];
    let o = npuzzle(
        &["scramble", "--size", "4x4", "--count", "12", "--seed", "2"],
        "",
    );
    let slow = stdout(&o);
    // Third, an 80-move board, which this search takes far longer than the test over: the
    // signal always lands inside its search.
    let long = include_str!("../data/fifteen80.txt")
        .lines()
        .next()
        .unwrap();
    let input = format!("{}\n{}\n{long}\n{slow}", quick[0], quick[1]);
    let boards: Vec<&str> = input.lines().collect();
    for (signal, status) in [(libc::SIGINT, 130), (libc::SIGTERM, 143)] {
        let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("interrupted.txt");
        std::fs::write(&path, &input).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
            .args(["solve", "--threads", "1", "--algorithm", "idastar"])
            .args(["--heuristic", "manhattan", path.to_str().unwrap()])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The quick answers are written (flushed) while the batch goes on.
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut lines = Vec::new();
        for _ in 0..2 {
            let mut line = String::new();
            out.read_line(&mut line).unwrap();
            lines.push(line.trim_end().to_string());
        }
        // Into the third board's search.
        std::thread::sleep(std::time::Duration::from_millis(300));
        // Twice at once, as `timeout` signals the process and then its group: one interrupt,
        // not a second that would end the process before it says what it finished.
        for _ in 0..2 {
            // SAFETY: signalling our own child process.
            assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
        }
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
        lines.extend(rest.lines().map(str::to_string));
        let done = child.wait_with_output().unwrap();
        let err = String::from_utf8(done.stderr).unwrap();
        assert_eq!(done.status.code(), Some(status), "{err}");
        assert!(lines.len() >= 2 && lines.len() < boards.len(), "{lines:?}");
        for (board, answer) in boards.iter().zip(&lines) {
            let b = Board::parse(board).unwrap();
            let s = Solution::from_letters(answer).unwrap();
            s.verify(&b, &Board::goal(b.shape())).unwrap();
        }
        let left = boards.len() - lines.len();
        assert!(
            err.contains(&format!("{left} board(s) read were left unanswered")),
            "{err}"
        );
        // The search the signal stopped is named by its line, with what it had spent.
        let stopped = format!(
            "npuzzle: line {}: its search was stopped after expanding ",
            lines.len() + 1
        );
        assert!(
            err.contains(&stopped) && err.contains(" states in "),
            "{err}"
        );
        assert!(!err.contains("error"), "{err}");
    }
}

/// Searches that run on the thread that writes the answers (so that nothing else is left to
/// cancel them) still stop at an interrupt: a board whose solver is made after the answers
/// before it are out (its databases loaded on that thread), and a board of another shape
/// among one-board-per-line table boards (such a chunk is answered whole on that thread).
/// Both used to search to the end, minutes here.
#[test]
fn an_interrupt_stops_a_search_on_the_thread_that_writes_the_answers() {
    use std::io::{BufRead, BufReader};
    use std::time::{Duration, Instant};
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("interrupted-later");
    let d = dir.to_str().unwrap();
    let o = npuzzle(
        &[
            "pdb",
            "build",
            "--size",
            "4x4",
            "--partition",
            "5-5-5",
            "--pdb-dir",
            d,
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // An 80-move 15-puzzle, which 5-5-5 takes minutes over.
    let hard = "0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1";
    let three = "2 3 4 1 5 x 7 6 8\n";
    let left_for_later = format!("{three}{three}{hard}\n");
    let among_lines = format!(
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15\n{}{hard}\n{three}",
        three.repeat(40)
    );
    for input in [left_for_later, among_lines] {
        let path = dir.join("later.txt");
        std::fs::write(&path, &input).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
            .args(["solve", "--threads", "1", "--pdb-dir", d])
            .arg(&path)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (tx, notices) = std::sync::mpsc::channel::<String>();
        let err = BufReader::new(child.stderr.take().unwrap());
        let log = std::thread::spawn(move || {
            let mut all = String::new();
            for line in err.lines().map_while(Result::ok) {
                let _ = tx.send(line.clone());
                all += &line;
                all += "\n";
            }
            all
        });
        // Its 4x4 solver is made (the notice says which databases), then it searches (the
        // second input: after the first line's answer and the 3x3 lines are handed over).
        loop {
            match notices.recv_timeout(Duration::from_secs(20)) {
                Ok(notice) if notice.contains("using the 5-5-5") => break,
                Ok(_) => {}
                Err(e) => {
                    let _ = child.kill();
                    panic!(
                        "no notice of the 5-5-5 databases ({e}): {}",
                        log.join().unwrap()
                    );
                }
            }
        }
        std::thread::sleep(Duration::from_millis(1000));
        // SAFETY: signalling our own child process.
        assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
        let signalled = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if signalled.elapsed() > Duration::from_secs(20) {
                let _ = child.kill();
                panic!("still searching 20 s after the interrupt");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let done = child.wait_with_output().unwrap();
        let err = log.join().unwrap();
        assert_eq!(done.status.code(), Some(130), "{err}");
        // Every board before the hard one answered, and none after it.
        let answered = String::from_utf8(done.stdout).unwrap().lines().count();
        let before = input.lines().position(|l| l == hard).unwrap();
        assert_eq!(answered, before, "{err}");
        assert!(err.contains("board(s) read were left unanswered"), "{err}");
    }
}

/// `pdb verify` checks what loading checks and everything named like a database; `pdb build`
/// fails when it cannot keep what it builds.
#[test]
fn the_database_cache_never_says_ok_to_what_solve_would_reject() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("npuzzle-verify");
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let o = npuzzle(
        &[
            "pdb",
            "build",
            "--size",
            "3x3",
            "--partition",
            "blocks-4",
            "--pdb-dir",
            d,
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = npuzzle(&["pdb", "verify", "--pdb-dir", d], "");
    assert!(o.status.success(), "{}", stdout(&o));
    assert_eq!(stdout(&o).matches(": ok:").count(), 2);
    // A 3x3 file under a 4x4 name, a link to /dev/zero, a directory, a dangling link.
    let good = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "pdb"))
        .unwrap();
    std::fs::copy(&good, dir.join("4x4-123456789abcdef0-1_2_3.pdb")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.pdb")).unwrap();
    std::fs::create_dir(dir.join("dir.pdb")).unwrap();
    std::os::unix::fs::symlink("/nonexistent", dir.join("dangling.pdb")).unwrap();
    // A forged one: entries shifted, both checksums recomputed (as `save` writes them).
    let bytes = std::fs::read(&good).unwrap();
    let (head, body) = bytes.split_at(64);
    let mut body = body.to_vec();
    body.rotate_right(1);
    let mut head = head.to_vec();
    head[56..60].copy_from_slice(&crc32fast::hash(&body).to_le_bytes());
    let crc = crc32fast::hash(&head[..60]);
    head[60..64].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&good, [head, body].concat()).unwrap();
    let o = npuzzle(&["pdb", "verify", "--pdb-dir", d], "");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert_eq!(out.matches("DAMAGED").count(), 4, "{out}");
    assert!(
        out.contains("NOT A FILE") && out.contains("dir.pdb: a directory"),
        "{out}"
    );
    assert!(out.contains("which the cache names"), "{out}");
    assert!(
        out.contains("goal's entry") || out.contains("more than one move"),
        "{out}"
    );
    // Solving with the forged file present never trusts it.
    let name = good.file_name().unwrap().to_str().unwrap().to_string();
    let o = npuzzle(
        &[
            "solve",
            "--pdb",
            "blocks-4",
            "--pdb-dir",
            d,
            "--heuristic",
            "pdb",
            "--algorithm",
            "idastar",
            "8 6 7 2 5 4 3 x 1",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(&name), "{}", stderr(&o));
    assert_solves(
        "8 6 7 2 5 4 3 x 1",
        stdout(&o).trim(),
        "1 2 3 4 5 6 7 8 x",
        31,
    );
    // A cache directory that is a file: nothing is built, exit 2.
    let file = dir.join("a-file");
    std::fs::write(&file, b"").unwrap();
    let o = npuzzle(
        &[
            "pdb",
            "build",
            "--size",
            "3x3",
            "--partition",
            "blocks-4",
            "--pdb-dir",
            file.to_str().unwrap(),
        ],
        "",
    );
    // Named as a file where the directory should be, not as the system's "File exists"; a
    // usage error, for every command taking the option, before anything is read or built.
    let said = |o: &Output| {
        assert_eq!(o.status.code(), Some(2), "{}", stderr(o));
        assert_eq!(stdout(o), "");
        let said = stderr(o);
        assert!(
            said.contains(&format!(
                "invalid value '{}' for '--pdb-dir <DIR>': not a directory",
                file.display()
            )),
            "{said}"
        );
        assert!(
            !said.contains("File exists") && !said.contains("building"),
            "{said}"
        );
    };
    said(&o);
    let f = file.to_str().unwrap();
    said(&npuzzle(
        &["solve", "--pdb", "5-5-5", "--pdb-dir", f],
        "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15\n",
    ));
    said(&npuzzle(&["pdb", "info", "--pdb-dir", f], ""));
    said(&npuzzle(&["bench", "korf100", "--pdb-dir", f], ""));
    // A broken link in its place is no directory either; an empty value names none.
    let dangling = dir.join("dangling-link");
    let _ = std::fs::remove_file(&dangling);
    std::os::unix::fs::symlink("/nonexistent", &dangling).unwrap();
    let o = npuzzle(
        &["pdb", "info", "--pdb-dir", dangling.to_str().unwrap()],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a directory"), "{}", stderr(&o));
    let o = npuzzle(&["pdb", "info", "--pdb-dir", ""], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // Below a file: the directory cannot be made, and `pdb build` says so before building.
    let below = file.join("sub");
    let o = npuzzle(
        &[
            "pdb",
            "build",
            "--size",
            "3x3",
            "--partition",
            "blocks-4",
            "--pdb-dir",
            below.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let said = stderr(&o);
    assert!(
        said.contains(&format!(
            "cannot save pattern databases: {}: not a directory: {} is a file",
            below.display(),
            file.display()
        )),
        "{said}"
    );
    assert!(!said.contains("building"), "{said}");
}

/// `explore` prints each distance as it goes and the summary; JSON holds the whole report;
/// the SVG plot is written; too large a board is refused before anything is allocated.
#[test]
fn explore_reports_whole_state_spaces() {
    let o = npuzzle(&["explore", "3x3"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("diameter: 31"), "{text}");
    assert!(text.contains("antipodes: 2"), "{text}");
    assert!(text.contains("8 6 7 2 5 4 3 x 1"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["31", "2", "181440"])
    );

    let plot = std::env::temp_dir().join(format!("npuzzle-explore-{}.svg", std::process::id()));
    let o = npuzzle(
        &[
            "explore",
            "2x5",
            "--goal",
            "x 1 2 3 4 5 6 7 8 9",
            "--format",
            "json",
            "--plot",
            plot.to_str().unwrap(),
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(r["states"], 1_814_400);
    assert_eq!(
        r["histogram"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .sum::<u64>(),
        1_814_400
    );
    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.matches("<rect").count() > 50,
        "{svg}"
    );
    let _ = std::fs::remove_file(&plot);

    let o = npuzzle(&["explore", "4x4"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("needs 2615.3 GB"), "{}", stderr(&o));
    let o = npuzzle(&["explore", "3x3", "--max-memory", "0"], "");
    assert_eq!(o.status.code(), Some(2));
    // Refused up front: nothing on standard output, not even the header.
    assert_eq!(stdout(&o), "");
    let o = npuzzle(&["explore", "5x4"], "");
    assert!(stderr(&o).contains("at most 16 cells"), "{}", stderr(&o));
}

/// Ctrl-C during a minutes-long database build ends the batch within a layer of the build:
/// the answers before it are kept, nothing half-built is cached, and the exit status is 130.
#[test]
fn an_interrupt_during_a_database_build_stops_it() {
    use std::io::{BufRead, BufReader};
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("interrupted-build");
    let _ = std::fs::remove_dir_all(&dir);
    let five = stdout(&npuzzle(&["scramble", "--size", "5x5", "--seed", "2"], ""));
    // A board after it, which must get no line (nor take the 5x5 board's place).
    let input = format!("2 3 4 1 5 x 7 6 8\n{five}1 2 3 4 5 6 7 x 8\n");
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("interrupted-build.txt");
    std::fs::write(&path, &input).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args([
            "solve",
            "--pdb-dir",
            dir.to_str().unwrap(),
            path.to_str().unwrap(),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert_eq!(first.trim_end(), "ullddrurdllurrdlurd");
    // The 5x5 board waits for its 6-6-6-6 databases (minutes): interrupt the build.
    std::thread::sleep(std::time::Duration::from_secs(3));
    let asked = std::time::Instant::now();
    // SAFETY: signalling our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8(done.stderr).unwrap();
    assert!(asked.elapsed().as_secs() < 30, "{err}");
    assert_eq!(done.status.code(), Some(130), "{err}");
    assert_eq!(rest, "", "nothing after the first answer: {err}");
    assert!(
        err.contains("1 answer(s) written; 2 board(s) read were left unanswered"),
        "{err}"
    );
    assert!(!err.contains("solving without them"), "{err}");
    let cached: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(
        cached
            .iter()
            .all(|p| p.extension().is_some_and(|x| x == "lock")),
        "{cached:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fresh directory for a `bench korf24` results file, and the file in it.
fn korf24_results_dir(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("npuzzle-korf24-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("korf24.jsonl");
    (dir, file)
}

/// The arguments of `bench korf24` over 4-tile databases (built in seconds) writing to
/// `file`, with a per-instance `budget` when given.
fn korf24_args<'a>(instances: &'a str, budget: Option<&'a str>, file: &'a str) -> Vec<&'a str> {
    let mut args = vec!["bench", "korf24", "--instances", instances];
    if let Some(b) = budget {
        args.extend(["--budget", b]);
    }
    args.extend(["--partition", "blocks-4", "--results", file]);
    args
}

/// `bench korf24 --summary` of the results file `file`, which must succeed (it only reads).
fn korf24_summary(file: &str) -> Output {
    let o = npuzzle(&["bench", "korf24", "--summary", "--results", file], "");
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

/// A results line of instance `no` solved at its optimum `opt` with `heuristic`.
fn solved_line(no: u32, opt: u32, heuristic: &str) -> String {
    format!(
        r#"{{"instance":{no},"optimum":{opt},"found":{opt},"expanded":1000,"seconds":1.0,"heuristic":"{heuristic}","goal":"blank-first","root_estimate":80,"threads":2,"finished_at":0,"version":"0"}}"#
    )
}

/// `--reference OLD` prices each instance left from its own line in OLD, scaled by how the
/// instances solved in both compare; without three in common it says it is not used.
#[test]
fn korf24_summary_prices_from_a_reference_run() {
    let (dir, file) = korf24_results_dir("reference");
    let old = dir.join("old.jsonl");
    let heuristic = "6-6-6-6 test";
    let line = |no: u32, opt: u32, states: u64| {
        solved_line(no, opt, heuristic).replace(
            r#""expanded":1000,"seconds":1.0"#,
            &format!(r#""expanded":{states},"seconds":{}"#, states as f64 / 1e6),
        )
    };
    // Here: 0.8, 0.9, 0.8 and 0.8 of the states there (geometric mean 0.824).
    let here = [
        line(1, 95, 800_000),
        line(2, 96, 900_000),
        line(3, 97, 1_600_000),
        line(4, 98, 3_200_000),
    ];
    let there = [
        line(1, 95, 1_000_000),
        line(2, 96, 1_000_000),
        line(3, 97, 2_000_000),
        line(4, 98, 4_000_000),
        line(9, 113, 1_000_000_000_000),
    ];
    std::fs::write(&file, here.join("\n") + "\n").unwrap();
    std::fs::write(&old, there.join("\n") + "\n").unwrap();
    let (f, r) = (file.to_str().unwrap(), old.to_str().unwrap());
    let with_reference = |reference: &str| {
        npuzzle(
            &[
                "bench",
                "korf24",
                "--summary",
                "--results",
                f,
                "--reference",
                reference,
            ],
            "",
        )
    };
    let o = with_reference(r);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "1 of them each from its line in {r}: x0.82 the states it took there, the geometric mean over the 4 instances solved in both (0.80 to 0.90); the other 45 from ln states fitted"
        )),
        "{out}"
    );
    assert!(out.contains("#9   113 moves  8.24e11 states"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.contains("#9 ") && l.ends_with("(from its line in the reference)")),
        "{out}"
    );
    assert!(
        !out.lines()
            .any(|l| l.contains("#10 ") && l.contains("from its line")),
        "{out}"
    );
    // Without the reference, #9 is priced from the fit alone, far lower.
    let alone = stdout(&korf24_summary(f));
    assert!(!alone.contains("8.24e11"), "{alone}");
    // A reference with no line for any instance left prices none: said so.
    std::fs::write(&old, there[..4].join("\n") + "\n").unwrap();
    let o = with_reference(r);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("over the 4 instances solved in both, prices none of them"),
        "{}",
        stdout(&o)
    );
    // Two in common are too few: said, and the fit prices every instance.
    std::fs::write(
        &old,
        [&there[0], &there[1], &there[4]]
            .map(|l| l.as_str())
            .join("\n")
            + "\n",
    )
    .unwrap();
    let o = with_reference(r);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!(
            "({r} not used: 2 instance(s) solved both there and here, three are needed)"
        )),
        "{}",
        stdout(&o)
    );
    // A reference that is missing fails at once, named.
    let o = with_reference("/nonexistent/x");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--reference"), "{}", stderr(&o));
    // A directory is refused in the option's own words.
    let d = dir.to_str().unwrap();
    let o = with_reference(d);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("{d} is a directory: --reference takes a file")),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn korf24_results_file_resumes_and_skips_what_it_holds() {
    let (dir, file) = korf24_results_dir("results");
    let f = file.to_str().unwrap();
    let run = |instances: &str| npuzzle(&korf24_args(instances, Some("0.2"), f), "");
    let lines = || -> Vec<serde_json::Value> {
        std::fs::read_to_string(&file)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    // A first run records instance 25 (solved at 81, or stopped at the budget).
    let o = run("25");
    assert!(o.status.success(), "{}", stderr(&o));
    let first = lines();
    assert_eq!(first.len(), 1, "{first:?}");
    let r = &first[0];
    assert_eq!(
        (r["instance"].as_u64(), r["optimum"].as_u64()),
        (Some(25), Some(81))
    );
    assert!(r["found"].is_null() || r["found"] == 81);
    assert!(r["expanded"].as_u64().unwrap() > 0);
    assert_eq!(r["goal"], "blank-first");
    let heuristic = r["heuristic"].as_str().unwrap().to_string();
    assert!(heuristic.starts_with("blocks-4 ["), "{heuristic}");
    // An earlier run of these databases solved instance 1; one of other databases solved 2;
    // then a run died mid-line.
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str(&solved_line(1, 95, &heuristic));
    text.push('\n');
    text.push_str(&solved_line(2, 96, "6-6-6-6"));
    text.push_str("\n{\"instance\":3,\"opt");
    std::fs::write(&file, &text).unwrap();
    // --summary writes nothing and loads nothing.
    let o = korf24_summary(f);
    assert!(
        stdout(&o).contains("line(s) of other databases or form not counted"),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains("line 4: cut short (a run stopped mid-write); not counted"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);
    // While a run holds the file, its last line may be one being written.
    {
        let held = std::fs::File::open(&file).unwrap();
        held.lock().unwrap();
        let o = korf24_summary(f);
        assert!(
            stderr(&o).contains("line 4: being written by a run in progress; not counted yet"),
            "{}",
            stderr(&o)
        );
    }
    // The summary searches nothing, so it refuses what only a search would use.
    for extra in [
        ["--budget", "5"],
        ["--instances", "3"],
        ["--partition", "6-6-6-6"],
        ["--pdb-dir", "/tmp"],
    ] {
        let mut args = vec!["bench", "korf24", "--summary", "--results", f];
        args.extend(extra);
        let o = npuzzle(&args, "");
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    }
    // A run of blocks-4 skips 1, searches 2 (the 6-6-6-6 line does not count), and cuts the
    // torn line off before appending.
    let o = run("1,2");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("(earlier run)"), "{}", stdout(&o));
    assert!(stderr(&o).contains("cut short"), "{}", stderr(&o));
    let after = lines();
    assert_eq!(after.len(), 4, "{after:?}");
    assert_eq!(after[3]["instance"], 2);
    assert_eq!(after[3]["heuristic"], heuristic.as_str());
    // A run of what the file holds searches nothing and appends nothing.
    let o = run("1");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("1 of 1 instances solved, 1 optimal, 0 at the budget"),
        "{}",
        stdout(&o)
    );
    assert_eq!(lines().len(), 4);
    // Anything else is not a results file, and is left alone.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").unwrap();
    let o = npuzzle(
        &[
            "bench",
            "korf24",
            "--instances",
            "40",
            "--results",
            notes.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("line 1: not a result"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "my notes\n");
    // A directory or a device is named as such, by a run and by the summary, before it is
    // opened (a pipe or /dev/zero would block or never end).
    for (path, what) in [
        (
            dir.to_str().unwrap(),
            "is a directory: --results takes a file",
        ),
        ("/dev/null", "is not a plain file"),
    ] {
        let run = korf24_args("40", Some("0.2"), path);
        let summary = ["bench", "korf24", "--summary", "--results", path];
        for args in [&run[..], &summary[..]] {
            let o = npuzzle(args, "");
            assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
            assert!(stderr(&o).contains(what), "{}", stderr(&o));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C during an instance of `bench korf24 --results` keeps what it spent: the instance is
/// recorded unsolved with its states (marked interrupted), the summary takes them as a floor,
/// and the next run goes on with it.
#[test]
fn an_interrupted_korf24_instance_is_recorded_unsolved_with_its_states() {
    use std::io::{BufRead, BufReader};
    let (dir, file) = korf24_results_dir("interrupt");
    let f = file.to_str().unwrap();
    // Instance 2 takes far longer than this test with 4-tile databases.
    let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args(korf24_args("2,1", None, f))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut head = String::new();
    out.read_line(&mut head).unwrap();
    assert!(head.contains("expanded"), "{head}");
    // The table's head comes once the databases are loaded: let the search run a while.
    std::thread::sleep(std::time::Duration::from_secs(2));
    // SAFETY: signalling our own child process.
    assert_eq!(unsafe { libc::kill(child.id() as i32, libc::SIGINT) }, 0);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut out, &mut rest).unwrap();
    let done = child.wait_with_output().unwrap();
    let err = String::from_utf8(done.stderr).unwrap();
    assert_eq!(done.status.code(), Some(130), "{err}");
    assert!(err.contains("#2 stopped by the interrupt after"), "{err}");
    assert!(err.contains("recorded unsolved in"), "{err}");
    // Instance 1 was not started.
    assert!(
        !rest.lines().any(|l| l.trim_start().starts_with("1 ")),
        "{rest}"
    );
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1, "{text}");
    let r = &lines[0];
    assert_eq!(r["instance"], 2);
    assert!(r["found"].is_null(), "{r}");
    assert_eq!(r["interrupted"], true);
    let spent = r["expanded"].as_u64().unwrap();
    assert!(spent > 0, "{r}");
    // The run's totals count the states it spent, as a budget's are counted.
    assert!(
        rest.contains(&format!(
            "0 of 2 instances solved, 0 optimal, 0 at the budget, #2 interrupted after {spent} states; {spent} states expanded"
        )),
        "{rest}"
    );
    // With three instances solved (written here), the summary prices #2 at no less than
    // what the interrupted run spent.
    let heuristic = r["heuristic"].as_str().unwrap();
    let mut text = text;
    // With one solved there is no projection, but the stopped run's states are still shown.
    text.push_str(&solved_line(40, 82, heuristic));
    text.push('\n');
    std::fs::write(&file, &text).unwrap();
    let o = korf24_summary(f);
    let out = stdout(&o);
    assert!(out.contains("needs three solved instances"), "{out}");
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("    #")).collect();
    assert_eq!(rows.len(), 1, "{out}");
    assert!(
        rows[0].starts_with("    #2 ")
            && rows[0].contains(&format!(
                "stopped unsolved after {:.2e} states",
                spent as f64
            )),
        "{out}"
    );
    for (no, opt) in [(25, 81), (38, 96)] {
        text.push_str(&solved_line(no, opt, heuristic));
        text.push('\n');
    }
    // A trial of other databases stopped after them does not hide these results.
    text.push_str(r#"{"instance":9,"optimum":113,"found":null,"expanded":5,"seconds":1.0,"heuristic":"trial","goal":"blank-first","root_estimate":80,"threads":2,"finished_at":0,"version":"0","interrupted":true}"#);
    text.push('\n');
    std::fs::write(&file, &text).unwrap();
    let o = korf24_summary(f);
    // Listed with what is left, the cheapest first, with what the stopped run spent.
    let out = stdout(&o);
    let row = out
        .lines()
        .find(|l| l.starts_with("    #2 "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(row.contains(" 96 moves"), "{row}");
    // The fit (over three solved of other lengths, and #2 as needing more than the stopped
    // run spent) prices #2 above what that run spent, and says what it spent.
    assert!(
        row.contains(&format!(
            "(a run stopped unsolved after {:.2e} states)",
            spent as f64
        )),
        "{row}"
    );
    let price: f64 = row[..row.find(" states").unwrap()]
        .rsplit(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(price >= spent as f64 * 0.99, "{row}");
    assert!(out.contains("to go, cheapest first:"), "{out}");
    // 47 rows, the cheapest first.
    let prices: Vec<f64> = out
        .lines()
        .filter(|l| l.starts_with("    #"))
        .map(|l| {
            let before = &l[..l.find(" states").unwrap()];
            before.rsplit(' ').next().unwrap().parse().unwrap()
        })
        .collect();
    assert_eq!(prices.len(), 47, "{out}");
    assert!(prices.windows(2).all(|w| w[0] <= w[1]), "{out}");
    assert!(
        stdout(&o).contains("3 of 50 instances solved"),
        "{}",
        stdout(&o)
    );
    // A run of instances the file holds all solved searches nothing and gives their total
    // time (one second each here).
    let o = npuzzle(&korf24_args("25,38,40", None, f), "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("solved all 3 in 3.00 s of search"),
        "{}",
        stdout(&o)
    );
    // The next run goes on with #2 (here to a short budget), adding a line.
    let o = npuzzle(&korf24_args("2", Some("0.2"), f), "");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text.lines().count(), 6, "{text}");
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert!(last.get("interrupted").is_none(), "{last}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The checkpoint files beside `dir`'s results file, by name.
fn checkpoints_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".checkpoint"))
        .collect();
    names.sort();
    names
}

/// An instance stopped at its budget keeps its finished iterations in a checkpoint beside the
/// results file, named by instance, form and databases; the next run goes on from it, counts
/// what the earlier run spent before it, and removes it once the instance is solved; the
/// summary lists it, even beside a results file with no line yet. A run of the other form
/// keeps its own. A checkpoint under the name earlier builds gave (no form or databases) is
/// adopted. A checkpoint of other databases, one with a bound past the optimum, and a file
/// that is no checkpoint are errors naming the file and why, found before any instance is
/// searched, and the file is left as it was; the summary names them, with why, as not counted.
#[test]
fn a_stopped_korf24_instance_goes_on_from_its_checkpoint() {
    let (dir, file) = korf24_results_dir("checkpoint");
    let f = file.to_str().unwrap();
    // #40 (82 moves) takes blocks-4 some seconds: a second's budget stops it unsolved.
    let o = npuzzle(&korf24_args("40", Some("1"), f), "");
    assert!(o.status.success(), "{}", stderr(&o));
    let names = checkpoints_in(&dir);
    assert!(
        names.len() == 1 && names[0].starts_with("korf24.jsonl.40.blank-first.blocks-4-"),
        "{names:?}"
    );
    let kept = dir.join(&names[0]);
    let first: serde_json::Value =
        serde_json::from_str(std::fs::read_to_string(&file).unwrap().trim()).unwrap();
    assert!(first["found"].is_null(), "{first}");
    let c: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&kept).unwrap()).unwrap();
    assert_eq!(
        (c["instance"].as_u64(), &c["goal"]),
        (Some(40), &first["goal"])
    );
    assert_eq!(c["heuristic"], first["heuristic"]);
    let (bound, before) = (
        c["checkpoint"]["bound"].as_u64().unwrap(),
        c["checkpoint"]["expanded"].as_u64().unwrap(),
    );
    assert!(
        bound > first["root_estimate"].as_u64().unwrap() && bound <= 82,
        "{c}"
    );
    assert!(
        before > 0 && before <= first["expanded"].as_u64().unwrap(),
        "{c}"
    );
    // The summary names the search in progress and prices #40 at no less than it spent.
    let o = korf24_summary(f);
    assert!(
        stdout(&o).contains(&format!(
            "#40   82 moves (a run stopped unsolved after {:.2e} states); goes on from its checkpoint at bound {bound}, {:.2e} states",
            first["expanded"].as_u64().unwrap() as f64,
            before as f64
        )),
        "{}",
        stdout(&o)
    );
    // A first run killed before its line was written leaves an empty file and the checkpoint:
    // the summary takes the databases from the checkpoint and lists it, with no empty table.
    let line = std::fs::read_to_string(&file).unwrap();
    std::fs::write(&file, "").unwrap();
    let o = korf24_summary(f);
    assert!(
        stdout(&o).contains("0 of 50 instances solved")
            && !stdout(&o).contains("  #  length")
            && stdout(&o).contains(&format!(
                "#40   82 moves; goes on from its checkpoint at bound {bound}, {:.2e} states",
                before as f64
            )),
        "{}",
        stdout(&o)
    );
    // Another file's checkpoint (FILE.old.…) gives it nothing.
    let elsewhere = dir.join(names[0].replace("korf24.jsonl.", "korf24.jsonl.old."));
    std::fs::rename(&kept, &elsewhere).unwrap();
    let o = korf24_summary(f);
    assert!(
        stdout(&o).contains("korf24.jsonl: no results counted"),
        "{}",
        stdout(&o)
    );
    std::fs::rename(&elsewhere, &kept).unwrap();
    std::fs::write(&file, line).unwrap();
    // An instance named twice goes on the second time from where the first stopped.
    let o = npuzzle(&korf24_args("40,40", Some("1"), f), "");
    assert!(o.status.success(), "{}", stderr(&o));
    let went_on: Vec<u64> = stderr(&o)
        .lines()
        .filter_map(|l| l.strip_prefix("npuzzle: #40 goes on from bound "))
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    assert!(
        went_on.len() == 2 && went_on[0] == before && went_on[1] > before,
        "{}",
        stderr(&o)
    );
    let c: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&kept).unwrap()).unwrap();
    let (bound, before) = (
        c["checkpoint"]["bound"].as_u64().unwrap(),
        c["checkpoint"]["expanded"].as_u64().unwrap(),
    );
    // A run of the blank-last form in the same file keeps its own checkpoint beside it.
    let mut args = korf24_args("40", Some("1"), f);
    args.push("--blank-last");
    let o = npuzzle(&args, "");
    assert!(o.status.success(), "{}", stderr(&o));
    let names = checkpoints_in(&dir);
    assert!(
        names.len() == 2 && names[1].starts_with("korf24.jsonl.40.blank-last.blocks-4-"),
        "{names:?}"
    );
    let unchanged: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&kept).unwrap()).unwrap();
    assert!(unchanged == c, "the blank-first checkpoint changed");
    std::fs::remove_file(dir.join(&names[1])).unwrap();
    // Kept by an earlier build under the name without form and databases: adopted.
    let unlabelled = dir.join("korf24.jsonl.40.checkpoint");
    std::fs::rename(&kept, &unlabelled).unwrap();
    // Solved from there, with the states before the checkpoint counted; the checkpoint goes.
    let o = npuzzle(&korf24_args("40", None, f), "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("#40 goes on from bound {bound}: {before} states"))
            && stderr(&o).contains("korf24.jsonl.40.checkpoint is renamed"),
        "{}",
        stderr(&o)
    );
    assert!(!unlabelled.exists());
    let text = std::fs::read_to_string(&file).unwrap();
    let solved: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(solved["found"], 82, "{solved}");
    assert!(solved["expanded"].as_u64().unwrap() > before, "{solved}");
    assert!(!kept.exists());
    // The line keeps the solution, which a later run replays before counting the line.
    let moves = solved["moves"].as_str().unwrap().to_string();
    assert_eq!(moves.len(), 82, "{solved}");
    let start = include_str!("../data/korf24_50.txt")
        .lines()
        .nth(39)
        .unwrap();
    let start = Board::parse(start).unwrap();
    let goal = Board::goal_blank_first(start.shape());
    Solution::from_letters(&moves)
        .unwrap()
        .verify(&start, &goal)
        .unwrap();
    let at = text.lines().count();
    for (tampered, says) in [
        (
            text.replace(&moves, &moves[..80]),
            "#40's kept moves do not solve it",
        ),
        (
            text.replace("\"found\":82", "\"found\":81"),
            "#40 says it found 81 moves but keeps 82 moves",
        ),
    ] {
        std::fs::write(&file, &tampered).unwrap();
        let o = korf24_summary(f);
        assert!(
            stderr(&o).contains(&format!("korf24.jsonl line {at}: {says}"))
                && stderr(&o).contains("; not counted")
                && !stdout(&o).contains("1 of 50 instances solved"),
            "{}{}",
            stdout(&o),
            stderr(&o)
        );
    }
    std::fs::write(&file, &text).unwrap();
    // A solved instance's leftover checkpoint (its removal failed) goes on the next run.
    std::fs::write(&kept, c.to_string()).unwrap();
    let o = npuzzle(&korf24_args("40", Some("0.2"), f), "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("#40 is solved in the results file; its leftover checkpoint"),
        "{}",
        stderr(&o)
    );
    assert!(!kept.exists());
    // A checkpoint of other databases, one whose bound no search of #25 can have left, and a
    // file that is no checkpoint, each under #25's name, stop a run of #38 and #25, named,
    // before #38 is searched; none is touched.
    let kept25 = dir.join(names[0].replace(".40.", ".25."));
    let lines_before = std::fs::read_to_string(&file).unwrap().lines().count();
    let mut other = c.clone();
    other["instance"] = 25.into();
    other["heuristic"] = "6-6-6-6".into();
    let mut past = c.clone();
    past["instance"] = 25.into();
    past["checkpoint"]["bound"] = 83.into();
    for (text, says) in [
        (
            other.to_string(),
            "is a checkpoint with databases 6-6-6-6, not blocks-4",
        ),
        (
            past.to_string(),
            "bound 83 is past #25's optimum 81: no search of #25 wrote it",
        ),
        (
            "my notes\n".to_string(),
            "is not a checkpoint npuzzle wrote",
        ),
    ] {
        std::fs::write(&kept25, &text).unwrap();
        let o = npuzzle(&korf24_args("38,25", Some("0.2"), f), "");
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{}", stdout(&o));
        assert_eq!(
            std::fs::read_to_string(&file).unwrap().lines().count(),
            lines_before
        );
        assert!(
            stderr(&o).contains(kept25.file_name().unwrap().to_str().unwrap())
                && stderr(&o).contains(says)
                && stderr(&o).contains("move it away to search #25 afresh"),
            "{}",
            stderr(&o)
        );
        assert_eq!(std::fs::read_to_string(&kept25).unwrap(), text);
        // The summary does not count it, and says why.
        let o = korf24_summary(f);
        assert!(
            stderr(&o).contains("not counted: ") && stderr(&o).contains(says),
            "{}",
            stderr(&o)
        );
    }
    // Under the name earlier builds gave, another form's checkpoint is left alone, said so.
    std::fs::remove_file(&kept25).unwrap();
    let unlabelled25 = dir.join("korf24.jsonl.25.checkpoint");
    let mut other_form = c.clone();
    other_form["instance"] = 25.into();
    other_form["goal"] = "blank-last".into();
    std::fs::write(&unlabelled25, other_form.to_string()).unwrap();
    let o = npuzzle(&korf24_args("25", Some("0.2"), f), "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("left alone: ")
            && stderr(&o).contains("is a checkpoint of the blank-last goal"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&unlabelled25).unwrap(),
        other_form.to_string()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pdb_build_best_names_no_partition_of_its_own() {
    let o = npuzzle(&["pdb", "build", "--best", "--partition", "5-5-5"], "");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--partition"), "{}", stderr(&o));
    // Boards of at most 12 cells have complete tables, not databases.
    let o = npuzzle(&["pdb", "build", "--best", "--size", "2x2"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("complete table"), "{}", stdout(&o));
}
