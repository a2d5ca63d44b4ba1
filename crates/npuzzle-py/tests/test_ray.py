"""npuzzle.ray on real Ray, on this machine only: a local ray.init, and a two-node cluster
started with `ray start` (head plus a second node joining it). Lengths must equal the local
solver's; tasks must run on both nodes of the two-node cluster."""

import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import pytest

# Token authentication, as Ray's documentation advises, even on loopback; every process of a
# cluster shares the token through the environment. Ray reads it when imported.
os.environ.setdefault("RAY_AUTH_MODE", "token")
os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(16))

import npuzzle  # noqa: E402

ray = pytest.importorskip("ray")
import npuzzle.ray as nray  # noqa: E402


@pytest.fixture(scope="module")
def pdb_dir(tmp_path_factory):
    return str(tmp_path_factory.mktemp("pdb"))


def replays(board, s):
    v = npuzzle.check(board, s.moves)
    assert v.valid, v.message


def near_boards(count, seed, fraction=0.6):
    """4x4 boards part of the way back from random ones (quick to solve optimally)."""
    local = npuzzle.Solver("4x4", algorithm="idastar", heuristic="linear-conflict")
    out = []
    for b in npuzzle.scramble("4x4", count, seed=seed):
        board = list(b)
        s = npuzzle.solve(board, partition="5-5-5", build="quick")
        for letter in s.moves[: int(len(s.moves) * fraction)]:
            i = board.index(0)
            j = i + {"u": -4, "d": 4, "l": -1, "r": 1}[letter]
            board[i], board[j] = board[j], board[i]
        out.append(board)
    return out, local


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             _node_ip_address="127.0.0.1")
    yield
    ray.shutdown()


def test_solve_many_on_a_local_cluster(local_ray, pdb_dir):
    boards = npuzzle.scramble("4x4", 40, seed=21)
    here = npuzzle.solve_many(boards, pdb_dir=pdb_dir, partition="5-5-5")
    there = nray.solve_many(boards, pdb_dir=pdb_dir, partition="5-5-5", batch_size=7)
    assert [s.length for s in there] == [s.length for s in here]
    for b, s in zip(boards, there):
        replays(b, s)
        assert s.optimal
    # Bad boards keep their place (and their index in the whole input).
    mixed = ["1 2 3 4 5 6 7 8 9 10 11 12 13 14 x 15", "1 2 3", boards[0],
             "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 x"]
    out = nray.solve_many(mixed, pdb_dir=pdb_dir, partition="5-5-5", batch_size=2,
                          errors="return")
    assert out[0].length == 1
    assert isinstance(out[1], npuzzle.Failure) and out[1].index == 1
    assert out[2].length == here[0].length
    assert out[3] is None
    with pytest.raises(ValueError, match="board 1:"):
        nray.solve_many(mixed, pdb_dir=pdb_dir, partition="5-5-5", batch_size=2)


def test_plain_ray_is_enough_for_lists():
    """The [ray] extra is plain Ray: run-tests runs this file first without Ray Data's
    dependencies (NPUZZLE_PLAIN_RAY=1), where importing ray.data fails."""
    if os.environ.get("NPUZZLE_PLAIN_RAY") != "1":
        pytest.skip("only in the plain-ray run of run-tests")
    with pytest.raises(ImportError):
        import ray.data  # noqa: F401


def test_solve_many_on_a_dataset(local_ray, pdb_dir):
    try:
        import ray.data  # noqa: F401
    except ImportError:
        pytest.skip("Ray Data is not installed (pip install 'npuzzle[data]')")
    boards = [" ".join(str(t) for t in b) for b in npuzzle.scramble("3x3", 300, seed=4)]
    ds = ray.data.from_items([{"board": b} for b in boards])
    rows = nray.solve_many(ds, batch_size=64).take_all()
    table = npuzzle.distance_table()
    by_board = {r["board"]: r for r in rows}
    assert len(by_board) == len(set(boards))
    for b in boards:
        assert by_board[b]["length"] == table[npuzzle.rank(b)]
        assert by_board[b]["optimal"]
    # A solved board is an answer of length 0, not a failure.
    solved = nray.solve_many(ray.data.from_items([{"board": "1 2 3 4 5 6 7 8 x"}])).take_all()
    assert (solved[0]["length"], solved[0]["optimal"], solved[0]["error"]) == (0, True, "")


def test_solve_one_on_a_local_cluster(local_ray, pdb_dir):
    boards, linear = near_boards(3, seed=8)
    for b in boards:
        report = nray.SplitReport()
        s = nray.solve_one(b, pdb_dir=pdb_dir, partition="5-5-5", report=report)
        replays(b, s)
        assert s.optimal
        assert s.length == linear.solve(b).length
        assert report.tasks > 1 and report.iterations
    assert nray.solve_one("2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 x", pdb_dir=pdb_dir,
                          partition="5-5-5") is None
    near = "1 2 3 4 5 6 7 8 9 10 11 12 13 x 14 15"
    assert nray.solve_one(near, pdb_dir=pdb_dir, partition="5-5-5").length == 2
    # The library's rule for time limits: infinity is no limit in practice, zero is refused.
    assert nray.solve_one(near, pdb_dir=pdb_dir, partition="5-5-5",
                          timeout=float("inf")).length == 2
    with pytest.raises(ValueError, match="positive number of seconds, not 0"):
        nray.solve_one(near, pdb_dir=pdb_dir, partition="5-5-5", timeout=0.0)
    with pytest.raises(ValueError, match="split"):
        nray.solve_one(npuzzle.scramble(3, 1, seed=1)[0])


def test_tasks_still_out_stop_on_their_own(local_ray):
    """Once one task has the solution, the tasks still searching learn it and return within
    about a tenth of a second: none is cancelled (its worker ended, its databases lost). Korf's
    #3 on Manhattan distance in two tasks: when the first finds the solution, the other still
    has seconds of its share to search."""
    board = open(os.path.join(os.path.dirname(__file__), "..", "..", "npuzzle-cli", "data",
                              "korf100_blank_last.txt")).read().splitlines()[2]
    report = nray.SplitReport()
    s = nray.solve_one(board, heuristic="manhattan", tasks=2, report=report)
    replays(board, s)
    assert s.optimal and s.length == 59
    assert report.tasks == 2 and report.cancelled == 0
    # The search's key in Ray's key-value store went with it.
    from ray.experimental import internal_kv

    assert internal_kv._internal_kv_list("running-", namespace="npuzzle") == []


def _node(*args, env):
    """`ray start --block …` in its own process group: the node lives until the group is
    ended, and ending it stops only this test's Ray processes (not `ray stop`, which would
    stop every Ray on the machine)."""
    return subprocess.Popen([os.path.join(os.path.dirname(sys.executable), "ray"), "start",
                             "--block", *args], env=env, start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _end(node):
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(node.pid, sig)
            node.wait(timeout=20)
            return
        except (ProcessLookupError, subprocess.TimeoutExpired):
            continue


def _wait_for_nodes(count, timeout=60):
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if len([n for n in ray.nodes() if n["Alive"]]) >= count:
            return
        time.sleep(0.5)
    raise AssertionError(f"{count} Ray nodes did not come up")


def test_two_nodes(pdb_dir):
    """`ray start --head` and a second `ray start --address` on this machine; tasks of one
    batch and of one split search run on both nodes."""
    if ray.is_initialized():
        ray.shutdown()
    port = 20000 + secrets.randbelow(20000)
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    # A short directory: Ray's sockets live under it (at most 107 bytes per path).
    temp = tempfile.mkdtemp(prefix="npr", dir="/tmp")
    head = _node("--head", "--node-ip-address", "127.0.0.1", "--port", str(port),
                 "--num-cpus", "1", "--include-dashboard", "false", "--temp-dir", temp, env=env)
    nodes = [head]
    try:
        # The head is up once a driver can connect.
        for _ in range(120):
            probe = subprocess.run(
                [sys.executable, "-c",
                 f"import ray; ray.init(address='127.0.0.1:{port}', log_to_driver=False)"],
                env=env, capture_output=True, timeout=60)
            if probe.returncode == 0:
                break
            assert head.poll() is None, head.stderr.read().decode()
            time.sleep(0.5)
        nodes.append(_node("--address", f"127.0.0.1:{port}", "--node-ip-address", "127.0.0.1",
                           "--num-cpus", "1", env=env))
        ray.init(address=f"127.0.0.1:{port}", log_to_driver=False,
                 _node_ip_address="127.0.0.1")
        try:
            _wait_for_nodes(2)
            alive = [n for n in ray.nodes() if n["Alive"]]
            assert len(alive) == 2
            # Ray replaces 127.0.0.1 with this machine's own reachable address: still no
            # other host.
            import psutil

            own = {a.address for addrs in psutil.net_if_addrs().values() for a in addrs}
            assert {n["NodeManagerAddress"] for n in alive} <= own
            # A batch first: it also starts workers on both nodes.
            many = npuzzle.scramble("4x4", 16, seed=3)
            out = nray.solve_many(many, pdb_dir=pdb_dir, partition="5-5-5", batch_size=1)
            assert [s.length for s in out] == [
                s.length for s in npuzzle.solve_many(many, pdb_dir=pdb_dir, partition="5-5-5")]
            boards, linear = near_boards(3, seed=13, fraction=0.2)
            seen = {}
            for b in boards:
                report = nray.SplitReport()
                s = nray.solve_one(b, pdb_dir=pdb_dir, partition="5-5-5", tasks=16,
                                   report=report)
                assert s.length == linear.solve(b).length
                replays(b, s)
                for node, count in report.nodes.items():
                    seen[node] = seen.get(node, 0) + count
            assert len(seen) == 2, seen
        finally:
            ray.shutdown()
    finally:
        for node in reversed(nodes):
            _end(node)
        shutil.rmtree(temp, ignore_errors=True)
