"""npuzzle on a Ray cluster: batches of boards, and one hard board, spread over its nodes.

Ray schedules; npuzzle only cuts the work into tasks. Each worker process keeps one solver per
size and options (``npuzzle.solver``), so tables and pattern databases are made once per
process and loaded from the node's cache directory (``pdb_dir``, default
``$NPUZZLE_PDB_DIR`` or ``~/.cache/npuzzle/pdb``; built there once per node when missing and
``build`` allows it).

* ``solve_many(boards)``: boards in batches of ``batch_size``, one task per batch, results in
  input order; a ``ray.data.Dataset`` with a ``board`` column gets result columns instead.
* ``solve_one(board)``: an optimal search split by IDA* bounds. The subtree roots ``depth``
  moves below the board are found once; every iteration hands them out in ``tasks`` tasks that
  each search their subtrees to the current bound on one core and report (solution, next
  bound, states, and how near each subtree came to the goal). An iteration ends when all its
  tasks have answered; the first iteration that finds a solution has proved it optimal, since
  every smaller bound was exhausted. From the second iteration on, the library deals the
  subtrees nearest the goal first, so the last iteration (which stops at the first solution)
  is short.

Call ``ray.init(...)`` first (or let these functions start a local Ray).
"""

from __future__ import annotations

import logging
import math
import time
import uuid
from typing import Any, Dict, Iterable, List, Optional, Union

import ray

import npuzzle
from npuzzle import Board, Failure, SearchLimitError, Size, Solution

__all__ = ["solve_many", "solve_one", "SplitReport"]


def _options(size, goal, algorithm, heuristic, pdb_dir, partition, build, timeout, max_nodes,
             effort=1):
    return dict(
        size=size, goal=goal, algorithm=algorithm, heuristic=heuristic, pdb_dir=pdb_dir,
        partition=partition, build=build, timeout=timeout, max_nodes=max_nodes,
        single_thread=True, effort=effort,
    )


def _is_dataset(value: Any) -> bool:
    """Whether `value` is a ``ray.data.Dataset``, without importing ``ray.data`` (and its
    pandas) unless the value comes from it."""
    if not (type(value).__module__ or "").startswith("ray.data"):
        return False
    import ray.data

    return isinstance(value, ray.data.Dataset)


def _plain(board: Board) -> Union[str, List[int]]:
    if isinstance(board, (str, bytes)):
        return board
    try:
        return [int(t) for t in board]
    except (TypeError, ValueError):
        return board  # the task reports it, with its index


def _cluster_cpus() -> int:
    if not ray.is_initialized():
        ray.init()
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


@ray.remote
def _solve_batch(options: Dict[str, Any], boards: List[Any], start: int):
    """One batch on one core of some node; failures carry their index in the whole input."""
    solver = npuzzle.solver(**options)
    out = solver.solve_many(boards, errors="return", parallel=False)
    return [
        Failure(r.index + start, r.kind, r.message) if isinstance(r, Failure) else r for r in out
    ]


def solve_many(
    boards: Union[Iterable[Board], "ray.data.Dataset"],
    *,
    size: Optional[Size] = None,
    goal: Optional[Board] = None,
    algorithm: str = "auto",
    heuristic: Optional[str] = None,
    pdb_dir: Optional[str] = None,
    partition: Optional[str] = None,
    build: str = "quick",
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    errors: str = "raise",
    batch_size: Optional[int] = None,
    effort: int = 1,
):
    """Solves boards on the cluster, one core per task; like ``npuzzle.solve_many`` (the same
    options, ``effort`` included).

    Returns a list in input order (``Solution``, ``None`` for a board that cannot reach the
    goal, or with ``errors="return"`` a ``Failure``). ``batch_size`` boards go to one task
    (default: enough for about four tasks per core of the cluster, at least 64 boards each).
    Given a ``ray.data.Dataset`` with a ``board`` column, returns the dataset with the columns
    ``length``, ``moves``, ``optimal``, ``expanded`` and ``error`` added (lazily, in order).
    """
    if errors not in ("raise", "return"):
        raise ValueError(f'errors must be "raise" or "return", not {errors!r}')
    if _is_dataset(boards):
        return _solve_dataset(
            boards, _options(size, goal, algorithm, heuristic, pdb_dir, partition, build,
                             timeout, max_nodes, effort), batch_size)
    items = [_plain(b) for b in npuzzle._board_list(boards)]
    if not items:
        return []
    size = npuzzle._batch_size(items, size, errors)
    if size is None:
        return [Failure(i, "bad_board", str(npuzzle._size_error(b))) for i, b in enumerate(items)]
    options = _options(size, goal, algorithm, heuristic, pdb_dir, partition, build, timeout,
                       max_nodes, effort)
    # (Options are checked by the tasks: checking them here would build the databases on the
    # driver too.)
    if batch_size is None:
        batch_size = max(64, math.ceil(len(items) / (4 * _cluster_cpus())))
    elif batch_size < 1:
        raise ValueError("batch_size must be at least 1")
    else:
        _cluster_cpus()
    pending = [
        _solve_batch.options(scheduling_strategy="SPREAD").remote(options, items[i:i + batch_size], i)
        for i in range(0, len(items), batch_size)
    ]
    results: List[Any] = []
    for batch in ray.get(pending):
        results.extend(batch)
    if errors == "raise":
        for r in results:
            if isinstance(r, Failure):
                kind = SearchLimitError if r.kind == "limit" else ValueError
                raise kind(f"board {r.index}: {r.message}")
    return results


def _solve_dataset(ds: "ray.data.Dataset", options: Dict[str, Any], batch_size: Optional[int]):
    np = npuzzle._numpy()

    def label(batch: Dict[str, Any]) -> Dict[str, Any]:
        boards = [_plain(b) for b in batch["board"]]
        size = options["size"] or npuzzle._batch_size(boards, None, "return")
        if size is None:
            out = [Failure(i, "bad_board", str(npuzzle._size_error(b)))
                   for i, b in enumerate(boards)]
        else:
            solver = npuzzle.solver(**dict(options, size=size))
            out = solver.solve_many(boards, errors="return", parallel=False)
        solved = [r if isinstance(r, Solution) else None for r in out]
        batch = dict(batch)
        batch["length"] = np.array([-1 if s is None else s.length for s in solved],
                                   dtype=np.int64)
        batch["moves"] = np.array(["" if s is None else s.moves for s in solved], dtype=object)
        batch["optimal"] = np.array([s is not None and s.optimal for s in solved], dtype=bool)
        batch["expanded"] = np.array([0 if s is None else s.stats.expanded for s in solved],
                                     dtype=np.int64)
        batch["error"] = np.array(
            [r.message if isinstance(r, Failure) else ("unsolvable" if r is None else "")
             for r in out], dtype=object)
        return batch

    return ds.map_batches(label, batch_format="numpy", batch_size=batch_size or 1024)


# How the tasks still out learn that their search is over: the driver keeps a key in Ray's own
# key-value store (in its control service) while the search runs, and the tasks stop when it is
# gone, so a task that starts late (a retry, a cancel Ray dropped) stops at once. Asking the
# store does not count as the task waiting, as a `ray.get` or `ray.wait` on an actor's answer
# would: Ray lends a waiting task's core to another task and starts a worker process for it
# (which loads databases of its own). The module is Ray's, not public API: without it, or when
# the store cannot be reached, the tasks are cancelled after the grace instead.
try:
    from ray.experimental import internal_kv as _kv
except ImportError:  # pragma: no cover (a Ray without it)
    _kv = None

_KV_NAMESPACE = "npuzzle"


def _search_key(search: str) -> str:
    return f"running-{search}"


_warned = False


def _begin(search: str) -> Optional[str]:
    """Puts the running search's key; its name, or None where the store cannot be reached
    (its tasks then run until they finish or are cancelled; said once a process)."""
    global _warned
    if _kv is None:
        return None
    try:
        _kv._internal_kv_put(_search_key(search), b"1", namespace=_KV_NAMESPACE)
        return search
    except Exception as e:
        if not _warned:
            _warned = True
            logging.getLogger("npuzzle").warning(
                "Ray's key-value store cannot be reached (%s): tasks still out at the end of a "
                "split search are cancelled, their workers ended", e)
        return None


def _end(search: Optional[str]) -> None:
    """Removes the search's key: its tasks still out stop within a tenth of a second."""
    if search is None:
        return
    try:
        _kv._internal_kv_del(_search_key(search), namespace=_KV_NAMESPACE)
    except Exception:  # the store gone: the tasks are cancelled after the grace instead
        pass


@ray.remote
def _search_chunk(options: Dict[str, Any], board: Any, roots: List[str], bound: int,
                  timeout: Optional[float], search: Optional[str]):
    """Searches some subtrees to `bound` on one core, within `timeout` seconds; (moves, next
    bound, expanded, generated, each root's nearest approach, node id), or None when the search
    `search` (its key, see `_begin`) is over before or while this task runs."""

    def over() -> bool:
        if search is None:
            return False
        try:
            return not _kv._internal_kv_exists(_search_key(search), namespace=_KV_NAMESPACE)
        except Exception:  # the store not answering: go on (the driver's grace still applies)
            return False

    if over():
        return None
    solver = npuzzle.solver(**options)
    result = solver.search_subtrees(board, roots, bound, timeout=timeout, stop_when=over)
    if result is None:
        return None
    return (*result, ray.get_runtime_context().get_node_id())


# Seconds the tasks still out get to stop on their own before they are cancelled.
_STOP_GRACE = 1.0


def _stop(pending, search: Optional[str]) -> int:
    """Stops the tasks still out: with the search's key gone they return within a tenth of a
    second, and their workers go on with what they loaded. Those still out after a short grace
    (loading databases, say) are cancelled: a queued one withdrawn, a running one by ending
    its worker (the search runs in Rust without the GIL, so nothing else stops it). The grace
    also keeps clear of a race in Ray between cancelling a task and its reply ("Check failed:
    it != submissible_tasks_.end() Tried to complete task that was not pending", which crashes
    the driver). Returns how many were cancelled."""
    _end(search)
    if not pending:
        return 0
    _, running = ray.wait(list(pending), num_returns=len(pending), timeout=_STOP_GRACE)
    for p in running:
        ray.cancel(p, force=True)
    return len(running)


class SplitReport:
    """What ``solve_one`` did: per iteration its bound, states expanded and seconds, the
    nodes (Ray node ids) whose workers ran tasks, and how many tasks still out at the end did
    not stop on their own within a second and were cancelled (withdrawn when not yet started,
    else their workers ended)."""

    def __init__(self) -> None:
        self.depth = 0
        self.roots = 0
        self.tasks = 0
        self.iterations: List[Dict[str, Any]] = []
        self.nodes: Dict[str, int] = {}
        self.cancelled = 0

    def __repr__(self) -> str:
        return (f"SplitReport(depth={self.depth}, roots={self.roots}, tasks={self.tasks}, "
                f"iterations={len(self.iterations)}, nodes={len(self.nodes)}, "
                f"cancelled={self.cancelled})")


def solve_one(
    board: Board,
    *,
    size: Optional[Size] = None,
    goal: Optional[Board] = None,
    heuristic: Optional[str] = None,
    pdb_dir: Optional[str] = None,
    partition: Optional[str] = None,
    build: str = "quick",
    depth: Optional[int] = None,
    tasks: Optional[int] = None,
    timeout: Optional[float] = None,
    report: Optional[SplitReport] = None,
) -> Optional[Solution]:
    """Solves one board optimally with IDA* split over the cluster (see the module notes).

    ``depth`` is how far below the board the subtree roots lie (default: the least depth with
    at least 16 roots per task); ``tasks`` how many tasks each iteration is cut into (default:
    four per core of the cluster). ``timeout`` bounds the whole search in seconds
    (``SearchLimitError`` after it). Returns the optimal ``Solution`` (its stats summed over all
    tasks) or ``None`` when the board cannot reach the goal; pass a ``SplitReport`` to learn
    how the work was spread.
    """
    board = _plain(board)
    size = npuzzle._size_of(board, size)
    if timeout is not None:
        # The library's rule for every time limit (infinity is about 31 years).
        timeout = npuzzle._time_limit(timeout)
    options = _options(size, goal, "auto", heuristic, pdb_dir, partition, build, None, None)
    local = npuzzle.solver(**options)
    if not local.splittable:
        raise ValueError(
            f"{local.algorithm} cannot be split: solve_one needs the IDA* engine (boards of at "
            "most 32 cells, with pattern databases beyond 4x4)")
    started = time.monotonic()
    cpus = _cluster_cpus()
    if tasks is None:
        tasks = 4 * cpus
    if tasks < 1:
        raise ValueError("tasks must be at least 1")
    report = report if report is not None else SplitReport()
    # The library chooses the depth and deals the roots into chunks.
    split = local.split(board, tasks, depth)
    if split is None:
        return None
    if split[0] == "solved":
        return split[1]
    _, chunks, first_bound, report.depth = split
    report.roots = sum(len(c) for c in chunks)
    report.tasks = len(chunks)
    board_ref = ray.put(board)
    # The library keeps the iterations (next bound, the solution, the totals) and deals the
    # chunks, nearest the goal first from the second iteration on; Ray runs them.
    iterations = npuzzle.SplitIterations(first_bound, chunks)
    bound: Optional[int] = first_bound
    # The tasks out when the search ends early (the time is up, a task's error, Ctrl-C in the
    # driver) are stopped on the way out; the search's key goes in every case.
    pending: List[Any] = []
    chunk_of: Dict[Any, int] = {}
    dealt: List[List[str]] = []  # this iteration's chunks
    # The search's key (see `_begin`; None: none could be put), and the key its tasks ask for
    # (None once they cannot: see the resubmission below).
    key: Optional[str] = None
    asked: Optional[str] = None

    def submit(i: int) -> None:
        """Submits chunk `i` of the current iteration with the time left."""
        left = None if timeout is None else max(0.001, timeout - (time.monotonic() - started))
        ref = _search_chunk.options(scheduling_strategy="SPREAD").remote(
            options, board_ref, dealt[i], bound, left, asked)
        chunk_of[ref] = i
        pending.append(ref)

    def out_of_time() -> SearchLimitError:
        """The error of a search whose time is up (the driver's clock or a task's)."""
        return SearchLimitError(f"no solution within {timeout} s (bound {bound}, "
                                f"{iterations.expanded} states expanded)")

    try:
        key = asked = _begin(uuid.uuid4().hex)
        while bound is not None:
            iteration_start = time.monotonic()
            expanded_before = iterations.expanded
            # SPREAD: tasks go to every node rather than fill the driver's node first. Each task
            # also stops itself when the whole search's time is up. Submitted in the library's
            # order, so the nearest chunks start first.
            chunk_of.clear()
            dealt = iterations.chunks  # made afresh on each read: once an iteration
            pending = []
            for i in range(len(dealt)):
                submit(i)
            while pending:
                left = None
                if timeout is not None:
                    left = timeout - (time.monotonic() - started)
                    if left <= 0:
                        raise out_of_time()
                done, pending = ray.wait(pending, num_returns=1, timeout=left)
                solved = False
                for ref in done:
                    try:
                        value = ray.get(ref)
                    except SearchLimitError:
                        raise out_of_time() from None
                    if value is None:
                        # The search's key went while it runs (the store restarted without
                        # it): the chunk, and those after it, searched by tasks that do not ask
                        # (cancelled after the grace at the end).
                        asked = None
                        submit(chunk_of[ref])
                        continue
                    *result, node = value
                    report.nodes[node] = report.nodes.get(node, 0) + 1
                    solved = iterations.record(tuple(result), chunk_of[ref]) or solved
                if solved:
                    # Optimal already: every smaller bound was exhausted.
                    report.cancelled += _stop(pending, key)
                    pending = []
            report.iterations.append(dict(bound=bound,
                                          expanded=iterations.expanded - expanded_before,
                                          seconds=time.monotonic() - iteration_start))
            bound = iterations.advance()
    except BaseException:
        report.cancelled += _stop(pending, key)
        raise
    finally:
        _end(key)
    if iterations.found is None:
        return None
    return local.split_solution(board, iterations, elapsed=time.monotonic() - started)
