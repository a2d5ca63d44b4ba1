"""The npuzzle Python package: answers are replayed and their lengths compared with ones
computed independently (the complete 3x3 table, a second search method on 4x4)."""

import json
import os
import pickle
import subprocess
import sys
import threading

import pytest

import npuzzle

THREE_GOAL = "1 2 3 4 5 6 7 8 x"


def replays(board, solution, size=None, goal=None):
    verdict = npuzzle.check(board, solution.moves, size=size, goal=goal)
    assert verdict.valid, verdict.message
    assert verdict.length == solution.length == len(solution.moves)
    return solution.length


def test_judge_strings_int_sequences_and_the_table_agree():
    table = npuzzle.distance_table("3x3")
    assert table.shape == (362880,)
    assert int(table[table != 255].max()) == 31
    assert int((table == 31).sum()) == 2
    assert int((table != 255).sum()) == 181440
    for board in npuzzle.scramble("3x3", 200, seed=7):
        s = npuzzle.solve(board)
        assert s is not None and s.optimal and s.algorithm == "table"
        assert replays(board, s) == table[npuzzle.rank(board)]
        text = " ".join("x" if t == 0 else str(t) for t in board)
        assert npuzzle.solve(text).moves == s.moves
    s = npuzzle.solve("2 3 4 1 5 x 7 6 8")
    assert (s.length, s.stats.expanded) == (19, 19)
    assert npuzzle.solve(THREE_GOAL).moves == ""
    assert npuzzle.solve("1 2 3 4 5 6 8 7 x") is None


def test_solve_many_keeps_order_and_reports_bad_boards():
    boards = ["1 2 3 4 5 6 7 x 8", "1 2 3", "1 2 3 4 5 6 8 7 x", [1, 2, 3, 4, 5, 6, 7, 8, 0],
              "1 2 3 4 5 6 7 7 x"]
    out = npuzzle.solve_many(boards, errors="return")
    assert out[0].moves == "r"
    assert isinstance(out[1], npuzzle.Failure) and out[1].index == 1
    assert "9 tiles" in out[1].message
    assert out[2] is None
    assert out[3].length == 0
    assert out[4].index == 4 and "appears twice" in out[4].message
    with pytest.raises(ValueError, match="board 1:"):
        npuzzle.solve_many(boards)
    big = npuzzle.scramble(3, 20000, seed=3)
    table = npuzzle.distance_table()
    lengths = [s.length for s in npuzzle.solve_many(big)]
    assert lengths == [int(table[npuzzle.rank(b)]) for b in big]
    # The same lengths without result objects, and the codes for the odd ones.
    assert npuzzle.lengths(big).tolist() == lengths
    codes = npuzzle.lengths(boards, errors="return").tolist()
    assert codes == [1, -2, -1, 0, -2]
    with pytest.raises(ValueError, match="board 1:.*9 tiles"):
        npuzzle.lengths(boards)


@pytest.fixture
def ctrl_c():
    """Python's own Ctrl-C handler for the test, even when the tests were started with SIGINT
    ignored (a background job of a shell without job control, such as `cmd &` in a script):
    Python installs its handler only where SIGINT is not ignored, and without it a SIGINT
    raises nothing."""
    import signal

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.fixture(scope="module")
def pdb_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("pdb"))


def test_four_by_four_with_databases_matches_linear_conflict(pdb_dir):
    solver = npuzzle.Solver("4x4", pdb_dir=pdb_dir, partition="5-5-5")
    assert (solver.algorithm, solver.databases, solver.splittable) == ("idastar", "5-5-5", True)
    assert repr(solver).endswith('algorithm="idastar", databases="5-5-5")'), repr(solver)
    other = npuzzle.Solver("4x4", algorithm="idastar", heuristic="linear-conflict")
    boards = npuzzle.scramble("4x4", 12, seed=5)
    # Random boards are 50-60 moves from the goal; keep the check quick with nearer ones.
    near = []
    for b in boards:
        s = solver.solve(b)
        replays(b, s)
        assert s.optimal
        moves = s.moves[: len(s.moves) // 2]
        board = b
        for m in moves:
            board = _step(board, m, 4)
        near.append(board)
    many = solver.solve_many(near)
    for b, s in zip(near, many):
        assert replays(b, s) == other.solve(b).length
    assert npuzzle.lengths(near, pdb_dir=pdb_dir, partition="5-5-5").tolist() == [
        s.length for s in many]


def _step(board, letter, width):
    board = list(board)
    i = board.index(0)
    j = i + {"u": -width, "d": width, "l": -1, "r": 1}[letter]
    board[i], board[j] = board[j], board[i]
    return board


def test_goals_sizes_and_errors():
    goal = "x 1 2 3 4 5"
    boards = npuzzle.scramble((3, 2), 10, seed=1, goal=goal)
    for b in boards:
        s = npuzzle.solve(b, size=(3, 2), goal=goal)
        replays(b, s, size=(3, 2), goal=goal)
    assert npuzzle.scramble("4x4", 3, seed=9) == npuzzle.scramble("4x4", 3, seed=9)
    assert all(npuzzle.is_solvable(b) for b in npuzzle.scramble(5, 5, seed=2))
    assert not npuzzle.is_solvable("2 1 3 4 5 6 7 8 x")
    for bad, match in [
        ("1 2 3 4 5 6 7 8", "square board \\(one tile short of a 3x3 board\\)"),
        ([1, 2, 3], "the smallest, 2x2"),
        (["1", "2", "3", "4", "5", "6", "7", "8", "x"], "item 0 is a str, not an int"),
        ([1, 2, 3, 4, 5, 6, 7, 2**70, 0], "item 7, 1180591620717411303424, is too large"),
        ("1 2 3 4 5 6 7 8 9", "out of range|no blank|9"),
        ("1 2 q 4 5 6 7 8 x", "q"),
        ("garbage", "`garbage` at column 1 is not a tile"),
        ([1, 2, 3, -4, 5, 6, 7, 8, 0], "negative"),
        ("1 " * 10**6, "not supported"),
    ]:
        with pytest.raises(ValueError, match=match):
            npuzzle.solve(bad)
    with pytest.raises(ValueError, match="algorithm"):
        npuzzle.solve(THREE_GOAL, algorithm="magic")
    with pytest.raises(ValueError, match="size"):
        npuzzle.solve(THREE_GOAL, size="3by3")
    with pytest.raises(ValueError, match="256"):
        npuzzle.scramble((5000, 2))
    with pytest.raises(ValueError, match="timeout"):
        npuzzle.solve(THREE_GOAL, timeout=-1)
    with pytest.raises(npuzzle.SearchLimitError, match="time limit"):
        npuzzle.solve("13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2", algorithm="astar", timeout=0.2)
    out = npuzzle.solve_many(["13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2"], algorithm="astar",
                             timeout=0.2, errors="return")
    assert out[0].kind == "limit"
    assert npuzzle.check(THREE_GOAL, "").valid is True
    assert npuzzle.check(THREE_GOAL, "u").valid is False
    assert npuzzle.check("1 2 3 4 5 6 7 x 8", "l").valid is False
    assert npuzzle.check("2 1 3 4 5 6 7 8 x", "unsolvable").valid is True


def test_large_boards_are_answered_not_optimally():
    b = npuzzle.scramble("10x10", 1, seed=4)[0]
    s = npuzzle.solve(b)
    assert not s.optimal and s.algorithm == "near"
    replays(b, s)


def test_exceptions_truth_and_equality():
    err = None
    try:
        npuzzle.solve("13 6 8 12 15 14 0 10 11 7 4 5 9 1 3 2", algorithm="astar", max_nodes=10)
    except npuzzle.SearchLimitError as e:
        err = e
    back = pickle.loads(pickle.dumps(err))
    assert isinstance(back, npuzzle.SearchLimitError) and str(back) == str(err)
    solved = npuzzle.solve(THREE_GOAL)
    assert solved and solved.length == 0  # an answer of no moves is still an answer
    assert pickle.loads(pickle.dumps(solved)) == solved
    with pytest.raises(ValueError, match="at most 1000"):
        npuzzle.Solver(3, algorithm="idastar").search_subtrees("8 6 7 2 5 4 3 x 1", [""], 50000)
    with pytest.raises(ValueError, match="board 0:"):
        npuzzle.solve_many(["1 2 3", THREE_GOAL])
    with pytest.raises(ValueError, match="not NoneType"):
        npuzzle.solve(None)
    assert npuzzle.solve(b"1 2 3 4 5 6 7 x 8").moves == "r"
    assert npuzzle.distance_table().flags.writeable


def test_results_pickle():
    s = npuzzle.solve("2 3 4 1 5 x 7 6 8")
    back = pickle.loads(pickle.dumps(s))
    assert (back.moves, back.length, back.optimal, back.stats.expanded) == (
        s.moves, s.length, s.optimal, s.stats.expanded)
    f = npuzzle.solve_many(["1 2"], errors="return")[0]
    g = pickle.loads(pickle.dumps(f))
    assert (g.index, g.kind, g.message) == (f.index, f.kind, f.message)


def test_searches_release_the_gil(pdb_dir):
    solver = npuzzle.Solver("4x4", pdb_dir=pdb_dir, partition="5-5-5")
    boards = npuzzle.scramble("4x4", 24, seed=11)
    worker = threading.Thread(target=lambda: solver.solve_many(boards))
    worker.start()
    spins = 0
    while worker.is_alive():
        spins += 1
    worker.join()
    assert spins > 10000, spins


def test_near_optimal_answers_any_size_and_is_never_called_optimal():
    table = npuzzle.distance_table("3x3")
    for board in npuzzle.scramble("3x3", 50, seed=3):
        s = npuzzle.solve(board, algorithm="near")
        assert s is not None and not s.optimal and s.algorithm == "near"
        optimum = int(table[npuzzle.rank(board)])
        assert optimum <= replays(board, s) <= 3 * optimum
    for size in ["12x12", "2x40", "40x2"]:
        board = npuzzle.scramble(size, 1, seed=5)[0]
        quick = npuzzle.solve(board, size=size, algorithm="near")
        more = npuzzle.solve(board, size=size, algorithm="near", effort=2)
        auto = npuzzle.solve(board, size=size)
        for s in (quick, more, auto):
            assert not s.optimal and s.algorithm == "near"
            replays(board, s, size=size)
    with pytest.raises(ValueError, match="effort"):
        npuzzle.solve("1 2 3 4 5 6 7 x 8", algorithm="near", effort=9)


def test_records_and_verdicts_have_the_front_ends_fields():
    s = npuzzle.solve("2 3 4 1 5 x 7 6 8")
    d = s.to_dict()
    assert d["board"] == "2 3 4 1 5 x 7 6 8"
    assert (d["status"], d["length"], d["optimal"], d["algorithm"]) == ("solved", 19, True, "table")
    assert d["moves"] == s.moves and d["tiles"] == s.tiles
    assert set(d["stats"]) == {"expanded", "generated", "peak_stored", "elapsed"}
    many = npuzzle.solve_many(["2 3 4 1 5 x 7 6 8", "1 2 3 4 5 6 7 x 8"])
    assert [m.to_dict()["board"] for m in many] == ["2 3 4 1 5 x 7 6 8", "1 2 3 4 5 6 7 x 8"]
    assert pickle.loads(pickle.dumps(s)).to_dict() == d
    v = npuzzle.check("2 3 4 1 5 x 7 6 8", s.moves + "lr")
    assert (v.valid, v.finding, v.length, v.optimal_length, v.optimal) == (
        True, "suboptimal", 21, 19, False)
    assert v.to_dict() == {
        "valid": True, "finding": "suboptimal", "length": 21, "optimal_length": 19,
        "optimal": False, "message": "suboptimal: 21 moves, the optimum is 19"}
    valid, length, message = npuzzle.check("2 3 4 1 5 x 7 6 8", "rr")
    assert (valid, length) == (False, 2) and "leaves the board" in message
    assert npuzzle.check("2 1 3 4 5 6 7 8 x", "unsolvable").finding == "unsolvable"
    # names are the library's, in either spelling
    assert npuzzle.solve("1 2 3 4 5 6 7 x 8", algorithm="ida*", heuristic="linear_conflict"
                         ).algorithm == "idastar"
    with pytest.raises(ValueError, match="expected one of"):
        npuzzle.solve("1 2 3 4 5 6 7 x 8", heuristic="vibes")


@pytest.mark.skipif(not os.environ.get("NPUZZLE_BIN"), reason="NPUZZLE_BIN names the CLI")
def test_the_cli_writes_the_same_records_and_verdicts(tmp_path):
    boards = npuzzle.scramble("3x3", 20, seed=4) + [[1, 2, 3, 4, 5, 6, 8, 7, 0]]
    texts = [" ".join("x" if t == 0 else str(t) for t in b) for b in boards]
    puzzles = tmp_path / "p.txt"
    puzzles.write_text("\n".join(texts) + "\n")
    out = subprocess.run([os.environ["NPUZZLE_BIN"], "solve", "--format", "jsonl", "--stats",
                          str(puzzles)], capture_output=True, text=True, check=True).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    assert len(lines) == len(texts)
    for text, line in zip(texts, lines):
        s = npuzzle.solve(text)
        line.pop("line")
        if s is None:
            assert line == {"board": text, "status": "unsolvable"}
            continue
        mine = s.to_dict()
        for d in (line, mine):
            d["stats"].pop("elapsed")
            d["stats"].pop("peak_stored")
        assert line == mine
    answers = tmp_path / "a.txt"
    answers.write_text("\n".join(["rr", "unsolvable"] + ["u"] * (len(texts) - 2)) + "\n")
    out = subprocess.run([os.environ["NPUZZLE_BIN"], "check", "--format", "jsonl", str(puzzles),
                          str(answers)], capture_output=True, text=True).stdout
    verdicts = [json.loads(line) for line in out.splitlines()]
    assert len(verdicts) == len(texts)
    for text, answer, v in zip(texts, answers.read_text().split("\n"), verdicts):
        assert v.pop("board") == text
        v.pop("line"), v.pop("answers_line")
        assert v == npuzzle.check(text, answer).to_dict()


def test_a_split_search_driven_by_hand_is_optimal():
    """What npuzzle.ray.solve_one does, without Ray: split, search every chunk under each
    bound, let the library keep the iterations."""
    solver = npuzzle.Solver(4, algorithm="idastar", heuristic="linear-conflict")
    for board in npuzzle.scramble(4, 3, seed=21):
        want = solver.solve(board).length
        split = solver.split(board, 4, depth=3)
        assert split[0] == "roots"
        _, chunks, first_bound, depth = split
        assert depth == 3 and 1 <= len(chunks) <= 4
        iterations = npuzzle.SplitIterations(first_bound)
        bounds = [iterations.bound]
        while True:
            for chunk in chunks:
                if iterations.record(solver.search_subtrees(board, chunk, iterations.bound)):
                    break
            bound = iterations.advance()
            if bound is None:
                break
            assert bound > bounds[-1]
            bounds.append(bound)
        assert iterations.found is not None and iterations.expanded > 0
        s = solver.split_solution(board, iterations, elapsed=0.5)
        assert s.length == want and s.optimal and s.moves == iterations.found
        assert s.stats.expanded == iterations.expanded
        replayed = npuzzle.check(board, s.moves)
        assert replayed.valid and replayed.length == want
    with pytest.raises(ValueError, match="no solution"):
        solver.split_solution(npuzzle.scramble(4, 1, seed=1)[0], npuzzle.SplitIterations(3))


def test_split_iterations_deal_the_nearest_chunks_first():
    """Given split's chunks, the iterations deal them: every iteration after the first takes
    the roots in the order of how near the goal each came (search_subtrees' fifth value) in the
    iteration before; the answer stays optimal."""
    solver = npuzzle.Solver(4, algorithm="idastar", heuristic="linear-conflict")
    reordered = 0
    for board in npuzzle.scramble(4, 3, seed=21):
        want = solver.solve(board).length
        _, chunks, first_bound, _ = solver.split(board, 4, depth=3)
        iterations = npuzzle.SplitIterations(first_bound, chunks)
        assert iterations.chunks == chunks
        while True:
            nearest = {}
            for i, chunk in enumerate(iterations.chunks):
                result = solver.search_subtrees(board, chunk, iterations.bound)
                assert len(result) == 5 and len(result[4]) == len(chunk)
                nearest.update(zip(chunk, result[4]))
                if iterations.record(result, i):
                    break
            if iterations.advance() is None:
                break
            order = [root for chunk in iterations.chunks for root in chunk]
            assert sorted(order) == sorted(r for c in chunks for r in c)
            keys = [(nearest[root] is None, nearest[root] or 0) for root in order]
            assert keys == sorted(keys), keys
            reordered += order != [r for c in chunks for r in c]
        s = solver.split_solution(board, iterations)
        assert s.length == want and npuzzle.check(board, s.moves).length == want
    assert reordered > 0
    dealt = npuzzle.SplitIterations(first_bound, chunks)
    with pytest.raises(ValueError, match="chunk 9"):
        dealt.record((None, None, 0, 0, []), 9)
    with pytest.raises(ValueError, match="holds"):
        dealt.record((None, None, 0, 0, [1] * (len(chunks[0]) + 1)), 0)
    with pytest.raises(ValueError, match="index of the chunk"):
        dealt.record((None, None, 0, 0, []))
    with pytest.raises(ValueError, match="chunk"):
        dealt.record((None, None, 0, 0, []), -1)
    for bad, says in [(-1, "must be at least 0"), (2**32, "is too large")]:
        with pytest.raises(ValueError, match=f"first_bound {says}"):
            npuzzle.SplitIterations(bad)


def test_a_missing_numpy_says_how_to_install_it():
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "import npuzzle\n"
        "for f in (lambda: npuzzle.lengths([npuzzle.scramble(3, 1, seed=1)[0]]),\n"
        "          npuzzle.distance_table):\n"
        "    try:\n"
        "        f()\n"
        "    except ImportError as e:\n"
        "        print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.count("pip install 'npuzzle[numpy]'") == 2, out


def test_builds_are_announced_on_the_npuzzle_logger(tmp_path, caplog):
    """A build says what it builds, its size and its time (the CLI's words), visible by
    default; here the quick 4x4 6-6-3 databases into an empty cache."""
    import logging

    log = logging.getLogger("npuzzle")
    assert log.level == logging.INFO and log.handlers  # shown by default
    log.propagate = True
    try:
        with caplog.at_level(logging.INFO, logger="npuzzle"):
            npuzzle.Solver("4x4", pdb_dir=str(tmp_path), partition="6-6-3")
    finally:
        log.propagate = False
    text = caplog.text
    assert "building 3 6-6-3 pattern database(s)" in text and "MB on disk" in text, text
    assert "built tiles" in text and str(tmp_path) in text



FORK_CHILD = r"""
import os, sys, threading, time
import npuzzle
pdb_dir, delay = sys.argv[1], float(sys.argv[2])
# Loading 4x4 databases starts the library's own thread making the 4x4 move pruning.
loader = threading.Thread(
    target=npuzzle.Solver, args=("4x4",), kwargs=dict(pdb_dir=pdb_dir, partition="6-6-3"))
loader.start()
time.sleep(delay)
pid = os.fork()
if pid == 0:
    code = 4  # an exception in the child
    try:
        # The child wants the same move pruning: a 4x3 board, IDA* without databases (and
        # judged by the same solver: the module's own would build the 4x3 table, seconds).
        board = npuzzle.scramble("4x3", 1, seed=3)[0]
        solver = npuzzle.Solver("4x3", algorithm="idastar")
        s = solver.solve(board)
        code = 0 if s is not None and solver.check(board, s.moves).valid else 3
    finally:
        os._exit(code)
loader.join()
deadline = time.time() + 20
while time.time() < deadline:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        sys.exit(os.waitstatus_to_exitcode(status))
    time.sleep(0.05)
os.kill(pid, 9)
os.waitpid(pid, 0)
sys.exit("the forked child hung")
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_process_forked_while_databases_load_does_not_hang(tmp_path):
    """Python's multiprocessing forks on Linux. A child forked while the library's thread was
    making the move pruning (beside the database loading) makes its own instead of waiting
    for a thread it does not have (it hung at delays of 5-20 ms before)."""
    npuzzle.Solver("4x4", pdb_dir=str(tmp_path), partition="6-6-3")  # built once, here
    for delay in (0.0, 0.005, 0.01, 0.015, 0.02, 0.04):
        run = subprocess.run([sys.executable, "-c", FORK_CHILD, str(tmp_path), str(delay)],
                             capture_output=True, text=True, timeout=60)
        assert run.returncode == 0, (delay, run.stderr)


FORK_POOL = r"""
import multiprocessing, sys
import npuzzle
boards = npuzzle.scramble("3x3", 20000, seed=3)
if sys.argv[1] == "search":
    # Only a search (466,015 states, 50 moves), whose engine sizes its split by the worker
    # threads: a first use of the threads that is not a batch.
    import random
    board, blank, rng, back = list(range(1, 16)) + [0], 15, random.Random(2), None
    for _ in range(200):  # a walk of the blank
        steps = [d for d in (-4, 4, -1, 1) if 0 <= blank + d < 16 and d != back
                 and not (d in (-1, 1) and (blank + d) // 4 != blank // 4)]
        d = rng.choice(steps)
        board[blank], board[blank + d] = board[blank + d], board[blank]
        blank, back = blank + d, -d
    assert npuzzle.Solver("4x4", algorithm="idastar", heuristic="manhattan").solve(board)
want = npuzzle.lengths(boards).tolist()  # the parent's worker threads are running now
solver = npuzzle.Solver("3x3", algorithm="idastar")  # made before the fork
def label(chunk):
    return npuzzle.lengths(chunk).tolist(), [s.length for s in solver.solve_many(chunk)]
if __name__ == "__main__":
    with multiprocessing.get_context("fork").Pool(2) as pool:
        # Waited for with a limit, so that hung workers end with the pool instead of outliving
        # the test.
        got = pool.map_async(label, [boards[:10000], boards[10000:]]).get(timeout=60)
    ok = sum((g[0] for g in got), []) == want == sum((g[1] for g in got), [])
    sys.exit(0 if ok else 3)
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_forked_multiprocessing_workers_answer_after_the_parent_ran_a_batch():
    """Rayon's threads do not survive a fork: workers forked after the parent had run a
    parallel batch waited forever on threads they did not have. Each now runs on its own."""
    for first in ("batch", "search"):
        run = subprocess.run([sys.executable, "-c", FORK_POOL, first], capture_output=True,
                             text=True, timeout=120)
        assert run.returncode == 0, (first, run.stderr)

BAD_OPTIONS = [
    dict(max_nodes=-1), dict(max_nodes=0), dict(max_nodes=2**70), dict(timeout=-1.0),
    dict(timeout=float("nan")), dict(effort=0), dict(effort=9), dict(algorithm="fastest"),
    dict(heuristic="psychic"), dict(build="sometimes"),
]


@pytest.mark.parametrize("options", BAD_OPTIONS, ids=lambda o: next(iter(o)))
def test_every_bad_option_is_a_value_error_naming_it(options):
    board = "2 3 4 1 5 x 7 6 8"
    name = next(iter(options))
    for call in (lambda: npuzzle.solve(board, **options),
                 lambda: npuzzle.solve_many([board], **options),
                 lambda: npuzzle.Solver(3, **options)):
        with pytest.raises(ValueError) as e:
            call()
        assert name.split("_")[0] in str(e.value) or name in str(e.value), str(e.value)


def test_an_infinite_timeout_is_no_limit_in_practice():
    s = npuzzle.solve("2 3 4 1 5 x 7 6 8", algorithm="idastar", timeout=float("inf"))
    assert s.length == 19
    assert npuzzle._time_limit(float("inf")) == 1e9
    assert npuzzle._time_limit(2.5) == 2.5


def test_other_bad_values_and_wrong_types():
    with pytest.raises(ValueError, match="count"):
        npuzzle.scramble(3, count=-1)
    with pytest.raises(ValueError, match="seed"):
        npuzzle.scramble(3, seed=-5)
    with pytest.raises(ValueError, match="partition|pattern"):
        npuzzle.Solver(4, partition="banana")
    with pytest.raises(ValueError, match="tasks"):
        npuzzle.Solver(4, algorithm="idastar").split(npuzzle.scramble(4, 1, seed=1)[0], 0)
    for options in (dict(algorithm=None), dict(max_nodes="many"), dict(timeout="soon")):
        with pytest.raises(TypeError):
            npuzzle.solve("2 3 4 1 5 x 7 6 8", **options)
    # One board's string where a batch is wanted (iterated, a board per character).
    for batch in (npuzzle.solve_many, npuzzle.lengths, npuzzle.Solver(3).solve_many):
        with pytest.raises(TypeError, match="not one board's string"):
            batch("2 3 4 1 5 x 7 6 8")


def test_the_package_shows_its_own_names_and_python_values():
    assert isinstance(npuzzle.__version__, str) and npuzzle.__version__[0].isdigit()
    names = dir(npuzzle)
    assert "solve" in names and "__version__" in names
    assert not {"Optional", "Union", "logging", "numbers"} & set(names)
    r = repr(npuzzle.check("2 3 4 1 5 x 7 6 8", "u"))
    assert "length=1" in r and "optimal=False" in r and "Some(" not in r, r
    assert "length=None" in repr(npuzzle.check("2 3 4 1 5 x 7 6 8", "hello"))
    r = repr(npuzzle.Solver("3x3", algorithm="idastar"))
    assert r.endswith("databases=None)") and "Some(" not in r, r


def test_explore_reports_a_whole_state_space():
    r = npuzzle.explore("3x3")
    assert r["states"] == 181440 and r["diameter"] == 31 and r["antipodes"] == 2
    assert sum(r["histogram"]) == r["states"] and r["histogram"][:3] == [1, 2, 4]
    for line in r["antipode_sample"]:
        assert len(npuzzle.solve(line).moves) == 31
    five_by_two = npuzzle.explore("5x2", goal="x 1 2 3 4 5 6 7 8 9")
    assert five_by_two["states"] == 1814400
    with pytest.raises(ValueError, match="needs"):
        npuzzle.explore("4x4")  # 2.6 TB: refused before allocating
    with pytest.raises(ValueError, match="max_memory_mb"):
        npuzzle.explore("3x3", max_memory_mb=0)
    with pytest.raises(ValueError, match="at most 16 cells"):
        npuzzle.explore("5x4")


def test_explore_stops_on_ctrl_c(ctrl_c):
    import os
    import signal
    import threading
    import time

    threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        npuzzle.explore("4x3")  # about 15 s whole
    assert time.monotonic() - started < 5


def test_ctrl_c_during_a_database_build_gives_the_build_up(tmp_path, ctrl_c):
    """A Ctrl-C while databases are built gives the build up after its current layer and
    raises from the call that builds: nothing half built is kept or saved."""
    import signal

    options = dict(algorithm="idastar", heuristic="pdb", partition="6-6-3", pdb_dir=str(tmp_path))
    files = lambda: sorted(p.name for p in tmp_path.iterdir() if p.suffix in (".pdb", ".zpdb"))
    # 6-6-3 takes seconds to build (three databases and their zero-aware tables).
    timer = threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    returned = False
    try:
        with pytest.raises(KeyboardInterrupt):
            npuzzle.solver("4x4", **options)
            returned = True
    finally:
        timer.cancel()  # built before the signal (a machine far quicker than ours): no stray one
    assert not returned
    key = (npuzzle._key("4x4"), npuzzle._key(None), "idastar", "pdb", str(tmp_path), "6-6-3",
           "quick", None, None, False, 1)
    assert npuzzle._cached_solver(repr(key)) is None
    # Given up before the set was complete (each database is saved when it is done).
    assert len(files()) < 6
    # The next call builds what is missing and answers.
    made = npuzzle.solver("4x4", **options)
    assert len(files()) == 6
    assert npuzzle._cached_solver(repr(key)) is made
    one_move = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15"
    assert replays(one_move, made.solve(one_move)) == 1


def test_search_subtrees_stops_when_asked():
    """`stop_when` is asked while the subtrees are searched: once it says stop the search
    returns None; its exception is raised; one that never says stop changes nothing."""
    solver = npuzzle.Solver("4x4", algorithm="idastar", heuristic="manhattan", timeout=120)
    board = LONG_FOUR
    _, chunks, first_bound, _ = solver.split(board, 1, depth=2)
    asked = []

    def after_three():
        asked.append(1)
        return len(asked) >= 3

    # Korf's #82 to bound 62 on Manhattan distance: minutes, unless stopped.
    assert solver.search_subtrees(board, chunks[0], 62, stop_when=after_three) is None
    assert len(asked) == 3

    def broken():
        raise ZeroDivisionError("asked")

    with pytest.raises(ZeroDivisionError, match="asked"):
        solver.search_subtrees(board, chunks[0], 62, stop_when=broken)
    with pytest.raises(TypeError, match="stop_when must be callable, not int"):
        solver.search_subtrees(board, chunks[0], 62, stop_when=1)
    # Never asked to stop: the same result as without it.
    three = npuzzle.Solver(3, algorithm="idastar", heuristic="manhattan")
    hardest = "8 6 7 2 5 4 3 x 1"
    _, few, _, _ = three.split(hardest, 1, depth=2)
    got = three.search_subtrees(hardest, few[0], 31, stop_when=lambda: False)
    assert got == three.search_subtrees(hardest, few[0], 31)
    verdict = npuzzle.check(hardest, got[0])
    assert verdict.valid and verdict.length == 31


# Korf's #82 (62 moves), blank last: minutes of IDA* on Manhattan distance alone.
LONG_FOUR = "0 12 11 1 4 10 13 9 5 8 7 3 15 14 6 2"


@pytest.mark.parametrize("call", ["solve", "solve_many", "lengths_bytes", "check"])
def test_long_searches_stop_on_ctrl_c(call, ctrl_c):
    import signal
    import time

    solver = npuzzle.Solver("4x4", algorithm="idastar", heuristic="manhattan", timeout=120)
    # A valid answer, far from optimal: checking it searches for the optimum.
    long_answer = npuzzle.solve(LONG_FOUR, algorithm="large").moves
    run = {
        "solve": lambda: solver.solve(LONG_FOUR),
        "solve_many": lambda: solver.solve_many([LONG_FOUR, LONG_FOUR]),
        "lengths_bytes": lambda: solver.lengths_bytes([LONG_FOUR]),
        "check": lambda: solver.check(LONG_FOUR, long_answer),
    }[call]
    threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run()
    assert time.monotonic() - started < 5
    # The solver still answers afterwards.
    one_move = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15"
    assert replays(one_move, solver.solve(one_move)) == 1
