"""Sliding-tile puzzles solved from Python, by the npuzzle Rust library.

Boards are judge strings (``"2 3 4 1 5 x 7 6 8"``, ``x`` or ``0`` for the blank) or sequences
of ints (``0`` = blank), listed row by row. Sizes are ``"4x4"``, a side (``4``) or
``(width, height)``; without one a board must be square. Moves are judge letters: the blank's
neighbour that swaps with it (``u``, ``d``, ``l``, ``r``).

>>> import npuzzle
>>> npuzzle.solve("2 3 4 1 5 x 7 6 8").moves
'ullddrurdllurrdlurd'

``solve`` answers one board, ``solve_many`` a batch on all cores (the GIL released),
``Solver`` keeps tables and pattern databases between calls; ``npuzzle.ray`` spreads batches
and single hard searches over a Ray cluster.

Options are checked before any work starts: a value of the right type that is not allowed
(``max_nodes=-1``, ``effort=9``, ``algorithm="fastest"``) raises ``ValueError`` naming the
option; a value of the wrong type (``algorithm=None``, ``max_nodes="many"``) raises
``TypeError``.

Searches that store states (``bfs``, ``bidirectional``, ``astar``, ``greedy``) use at most
about 4 GiB: per call, and for all of the process's calls together, whatever their threads
(a search that would pass it raises ``SearchLimitError``, a memory limit).

Building pattern databases can take minutes (4x4's 7-8: about six, once; they are cached).
What is built, its size and its progress go to the ``npuzzle`` logger, which prints them on
stderr by default; ``logging.getLogger("npuzzle").setLevel(logging.WARNING)`` silences them.
"""

from __future__ import annotations

import logging
import numbers
from typing import TYPE_CHECKING, Any, Iterable, List, Optional, Sequence, Tuple, Union

if TYPE_CHECKING:
    import numpy

from ._npuzzle import (
    CheckResult,
    Failure,
    SearchLimitError,
    Solution,
    Solver,
    SplitIterations,
    Stats,
    cached_solver as _cached_solver,
    distance_table_bytes as _distance_table_bytes,
    explore as _explore,
    _NOT_ONE_BOARD,
    __version__,
    is_solvable as _is_solvable,
    make_solver as _make_solver,
    rank as _rank,
    scramble as _scramble,
    square_side as _square_side,
    time_limit as _time_limit,
)

# Long builds announce themselves (see the module docs): visible by default, like the
# command line's notices, unless the application configured the logger itself.
_log = logging.getLogger("npuzzle")
if not _log.handlers and _log.level == logging.NOTSET:
    _handler = logging.StreamHandler()
    _handler.setFormatter(logging.Formatter("npuzzle: %(message)s"))
    _log.addHandler(_handler)
    _log.setLevel(logging.INFO)
    _log.propagate = False


def _numpy() -> Any:
    """NumPy, or an ImportError that says how to install it."""
    try:
        import numpy
    except ImportError:
        raise ImportError(
            "this function returns NumPy arrays: pip install 'npuzzle[numpy]' (or numpy)"
        ) from None
    return numpy


__all__ = [
    "Board",
    "Check",
    "CheckResult",
    "Failure",
    "SearchLimitError",
    "Size",
    "Solution",
    "Solver",
    "SplitIterations",
    "Stats",
    "check",
    "distance_table",
    "is_solvable",
    "lengths",
    "rank",
    "explore",
    "scramble",
    "solve",
    "solve_many",
    "solver",
]

def __dir__() -> List[str]:
    """The package's own names (not what it imports for itself)."""
    return sorted(set(__all__) | {"__version__"})


Board = Union[str, Sequence[int]]
Size = Union[str, int, Tuple[int, int]]



def _size_of(board: Board, size: Optional[Size]) -> Size:
    """The size given, or the side of the square board the tiles make (decided in Rust)."""
    if size is not None:
        return size
    return _square_side(board)


def _batch_size(boards: List[Board], size: Optional[Size], errors: str) -> Optional[Size]:
    """The size of a batch: given, or that of its first square board (with errors="raise",
    its first board must be one); `None` when no board has a square size."""
    if size is not None:
        return size
    if errors == "raise":
        try:
            return _size_of(boards[0], None)
        except ValueError as e:
            raise ValueError(f"board 0: {e}") from None
    for b in boards:
        try:
            return _size_of(b, None)
        except ValueError:
            continue
    return None


def _size_error(board: Board) -> ValueError:
    try:
        _size_of(board, None)
    except ValueError as e:
        return e
    return ValueError("no size")


def _key(value: Any) -> Any:
    """A hashable stand-in for a size or goal (any int-like, str or sequence)."""
    if value is None or isinstance(value, (str, bytes)):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    try:
        return tuple(_key(v) for v in value)
    except TypeError:
        return repr(value)


def solver(
    size: Size,
    goal: Optional[Board] = None,
    *,
    algorithm: str = "auto",
    heuristic: Optional[str] = None,
    pdb_dir: Optional[str] = None,
    partition: Optional[str] = None,
    build: str = "quick",
    timeout: Optional[float] = None,
    max_nodes: Optional[int] = None,
    single_thread: bool = False,
    effort: int = 1,
) -> Solver:
    """The shared ``Solver`` for these options (made once, kept among the last few used).

    ``build`` says which pattern databases may be built when not cached: ``"quick"`` (the
    default: seconds, e.g. 4x4), ``"always"`` (5x5's take minutes and 510 MB) or ``"never"``.
    ``single_thread`` keeps each search on one core (for schedulers that give one core per
    task). ``effort`` (1 to 5) lets the near-optimal solver (``algorithm="near"``, and ``"auto"``
    past 32 cells) work longer for shorter answers.
    """
    key = (
        _key(size), _key(goal), algorithm, heuristic, pdb_dir, partition, build, timeout, max_nodes,
        single_thread, effort,
    )
    # The library's solver cache (a few: each may hold a table or pattern databases).
    found = _cached_solver(repr(key))
    if found is not None:
        return found
    options = dict(size=size, goal=goal, algorithm=algorithm, heuristic=heuristic,
                   pdb_dir=pdb_dir, partition=partition, build=build, timeout=timeout,
                   max_nodes=max_nodes, single_thread=single_thread, effort=effort)
    # Made and kept in one native call. A Ctrl-C while it is made gives up a database build
    # after its current layer (what finished is saved) and raises: nothing is kept.
    return _make_solver(repr(key), options)


def solve(
    board: Board,
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
    effort: int = 1,
) -> Optional[Solution]:
    """Solves one board: a ``Solution`` (``.moves``, ``.tiles``, ``.length``, ``.optimal``,
    ``.algorithm``, ``.stats``), or ``None`` when the board cannot reach the goal.

    ``algorithm`` is ``"auto"`` (optimal up to 5x5 where databases are available, the
    near-optimal solver beyond), ``"table"``, ``"bfs"``, ``"bidirectional"``, ``"astar"``,
    ``"idastar"``, ``"greedy"``, ``"large"`` (constructive: quick, long answers) or ``"near"``
    (near-optimal: short answers quickly, any size; ``effort`` 1 to 5 trades time for
    length); ``heuristic`` is ``"manhattan"``,
    ``"linear-conflict"`` or ``"pdb"``. Raises ``ValueError`` for a bad board or option and
    ``SearchLimitError`` when ``timeout`` (seconds) or ``max_nodes`` stops the search.
    """
    s = solver(
        _size_of(board, size), goal, algorithm=algorithm, heuristic=heuristic, pdb_dir=pdb_dir,
        partition=partition, build=build, timeout=timeout, max_nodes=max_nodes, effort=effort,
    )
    return s.solve(board)


def _board_list(boards: Iterable[Board]) -> list:
    """``boards`` as a list; a lone string or bytes (one board, which would be iterated
    character by character) raises ``TypeError``."""
    if isinstance(boards, (str, bytes)):
        raise TypeError(_NOT_ONE_BOARD)
    return list(boards)


def solve_many(
    boards: Iterable[Board],
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
    effort: int = 1,
) -> List[Union[Solution, None, Failure]]:
    """Solves boards in parallel on all cores, with the GIL released; results in input order
    (``None`` for a board that cannot reach the goal).

    With ``errors="raise"`` (the default) a bad board raises ``ValueError`` naming its index,
    and a hit limit raises ``SearchLimitError``; with ``errors="return"`` each becomes a
    ``Failure`` (``.index``, ``.kind``, ``.message``) in its place and the batch goes on.
    Every board must have the same size: ``size``, or else the first board's (square) size.
    """
    boards = _board_list(boards)
    if not boards:
        return []
    batch_size = _batch_size(boards, size, errors)
    if batch_size is None:
        return [Failure(i, "bad_board", str(_size_error(b))) for i, b in enumerate(boards)]
    s = solver(
        batch_size, goal, algorithm=algorithm, heuristic=heuristic,
        pdb_dir=pdb_dir, partition=partition, build=build, timeout=timeout, max_nodes=max_nodes,
        effort=effort,
    )
    return s.solve_many(boards, errors=errors)


def lengths(
    boards: Iterable[Board],
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
    effort: int = 1,
) -> "numpy.ndarray":
    """The answer length of every board as a NumPy ``int32`` array (optimal where the method
    is), solved in parallel without building result objects: the way to label millions of
    boards. -1 marks a board that cannot reach the goal. With ``errors="return"``, -2 marks a
    board that could not be read and -3 one whose search hit a limit; with ``errors="raise"``
    (the default) they raise ``ValueError`` / ``SearchLimitError`` naming the index.
    """
    np = _numpy()

    if errors not in ("raise", "return"):
        raise ValueError(f'errors must be "raise" or "return", not {errors!r}')
    boards = _board_list(boards)
    if not boards:
        return np.zeros(0, dtype=np.int32)
    batch_size = _batch_size(boards, size, errors)
    if batch_size is None:
        return np.full(len(boards), -2, dtype=np.int32)
    s = solver(
        batch_size, goal, algorithm=algorithm, heuristic=heuristic, pdb_dir=pdb_dir,
        partition=partition, build=build, timeout=timeout, max_nodes=max_nodes, effort=effort,
    )
    out = np.frombuffer(s.lengths_bytes(boards), dtype="<i4").astype(np.int32)
    if errors == "raise":
        bad = np.flatnonzero(out <= -2)
        if bad.size:
            i = int(bad[0])
            # The same board again, for its message.
            failure = s.solve_many([boards[i]], errors="return")[0]
            kind = SearchLimitError if out[i] == -3 else ValueError
            message = failure.message if isinstance(failure, Failure) else "failed"
            raise kind(f"board {i}: {message}")
    return out


def check(
    board: Board, moves: str, *, size: Optional[Size] = None, goal: Optional[Board] = None
) -> CheckResult:
    """The verdict on an answer (judge letters, or ``"unsolvable"``): a ``CheckResult`` with
    ``.valid``, ``.finding``, ``.length``, ``.optimal_length``, ``.optimal`` and ``.message``
    (the same verdict as ``npuzzle check`` and ``POST /api/check``; ``.to_dict()`` gives their
    fields). An answer that reaches the goal is compared with the optimum where an optimal
    method answers (as ``npuzzle check`` does: tables, pattern databases, small ones built
    when missing); it unpacks as ``valid, length, message``."""
    return solver(_size_of(board, size), goal).check(board, moves)


# The verdict's old name.
Check = CheckResult


def is_solvable(
    board: Board, *, size: Optional[Size] = None, goal: Optional[Board] = None
) -> bool:
    """Whether ``board`` can reach ``goal`` (default: tiles in order, blank last)."""
    return _is_solvable(board, size=size, goal=goal)


def scramble(
    size: Size, count: int = 1, seed: Optional[int] = None, *, goal: Optional[Board] = None
) -> List[List[int]]:
    """``count`` uniformly random boards that can reach ``goal``, as lists of ints (0 = blank);
    the same ``seed`` gives the same boards."""
    return _scramble(size, count=count, seed=seed, goal=goal)


def rank(board: Board, *, size: Optional[Size] = None) -> int:
    """The board's index in ``distance_table``: the Cantor rank of its cells (blank = 0)."""
    return _rank(board, size=size)


def explore(
    size: Size,
    *,
    goal: Optional[Board] = None,
    max_memory_mb: Optional[int] = None,
    antipodes: int = 20,
) -> dict:
    """Every state of ``size`` (at most 16 cells) that can reach ``goal``, searched
    breadth-first two bits a state on all cores: a dict with ``histogram`` (states at each
    distance), ``diameter``, ``antipodes`` (their count), ``antipode_sample`` (judge lines),
    ``mean_distance``, ``states``, ``seconds``, ``memory_bytes``, ``threads``. ``"4x3"`` takes
    seconds and 60 MB; ``"7x2"`` about an hour and 10.9 GB. Raises ``ValueError``, before
    allocating anything, when the search needs more than ``max_memory_mb`` MiB (default: three
    quarters of the memory available)."""
    return _explore(size, goal=goal, max_memory_mb=max_memory_mb, antipodes=antipodes)


def distance_table(size: Size = "3x3", *, goal: Optional[Board] = None) -> "numpy.ndarray":
    """The optimal distance of every board of a small size (at most 10 cells) as a NumPy
    ``uint8`` array indexed by ``rank(board)``; 255 where the goal cannot be reached."""
    np = _numpy()

    return np.frombuffer(_distance_table_bytes(size, goal=goal), dtype=np.uint8).copy()
