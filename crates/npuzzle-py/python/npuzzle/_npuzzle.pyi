"""Type stubs of the native module (the documented API is ``npuzzle``)."""

import os
from typing import (Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple,
                    Union, overload)

Board = Union[str, Sequence[int]]
Size = Union[str, int, Tuple[int, int]]
# What ``Solver.search_subtrees`` returns: (moves, next bound, expanded, generated, nearest).
SubtreeResult = Tuple[Optional[str], Optional[int], int, int, List[Optional[int]]]

__version__: str
_NOT_ONE_BOARD: str

class SearchLimitError(RuntimeError):
    """A search stopped at its time or node limit (or was cancelled) before an answer."""

class Stats:
    """What a search cost."""
    expanded: int
    generated: int
    peak_stored: int
    elapsed: float
    def __init__(self, expanded: int, generated: int, peak_stored: int, elapsed: float) -> None: ...

class Solution:
    """A solved board."""
    moves: str
    tiles: str
    length: int
    optimal: bool
    algorithm: str
    heuristic: Optional[str]
    databases: Optional[str]
    fallback_after: Optional[str]
    stats: Stats
    def __init__(self, moves: str, optimal: bool, algorithm: str, stats: Stats,
                 heuristic: Optional[str] = None, databases: Optional[str] = None,
                 fallback_after: Optional[str] = None,
                 board: Optional[Tuple[Board, int, int]] = None) -> None: ...
    @property
    def tiles(self) -> str: ...
    def to_dict(self) -> Dict[str, Any]:
        """The fields of ``npuzzle solve --format jsonl --stats`` and ``POST /api/solve``."""
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...

class Failure:
    """A board of a batch that got no answer (``errors="return"``)."""
    index: int
    kind: str
    message: str
    def __init__(self, index: int, kind: str, message: str) -> None: ...
    def __bool__(self) -> bool: ...

class CheckResult:
    """The verdict on an answer (as ``npuzzle check`` and ``POST /api/check`` give it)."""
    valid: bool
    finding: str
    length: Optional[int]
    optimal_length: Optional[int]
    optimal: Optional[bool]
    message: str
    def to_dict(self) -> Dict[str, Any]: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __bool__(self) -> bool: ...

class Solver:
    """Solves boards toward one goal with one method; keeps tables and databases."""
    def __init__(self, size: Size, goal: Optional[Board] = None, algorithm: str = "auto",
                 heuristic: Optional[str] = None,
                 pdb_dir: Optional[Union[str, os.PathLike]] = None,
                 partition: Optional[str] = None, build: str = "quick",
                 timeout: Optional[float] = None, max_nodes: Optional[int] = None,
                 single_thread: bool = False, effort: int = 1) -> None: ...
    @property
    def size(self) -> Tuple[int, int]: ...
    @property
    def goal(self) -> str: ...
    @property
    def algorithm(self) -> str: ...
    @property
    def databases(self) -> Optional[str]: ...
    @property
    def splittable(self) -> bool: ...
    def solve(self, board: Board) -> Optional[Solution]: ...
    def solve_many(self, boards: Iterable[Board], errors: str = "raise",
                   parallel: bool = True) -> List[Union[Solution, None, Failure]]: ...
    def lengths_bytes(self, boards: Iterable[Board]) -> bytes: ...
    def check(self, board: Board, moves: str) -> CheckResult: ...
    def frontier(self, board: Board, depth: int) -> Optional[
        Union[Tuple[str, Solution], Tuple[str, List[str], int]]]: ...
    def split(self, board: Board, tasks: int, depth: Optional[int] = None) -> Optional[
        Union[Tuple[str, Solution], Tuple[str, List[List[str]], int, int]]]: ...
    @overload
    def search_subtrees(self, board: Board, roots: List[str], bound: int,
                        timeout: Optional[float] = None, max_nodes: Optional[int] = None,
                        stop_when: None = None) -> SubtreeResult: ...
    @overload
    def search_subtrees(self, board: Board, roots: List[str], bound: int,
                        timeout: Optional[float] = None, max_nodes: Optional[int] = None,
                        stop_when: Callable[[], object] = ...) -> Optional[SubtreeResult]: ...
    def split_solution(self, board: Board, iterations: SplitIterations,
                       elapsed: float = 0.0) -> Solution: ...

class SplitIterations:
    """The iterations of a split search: record each task's result, then advance. Given the
    chunks of ``split``, they re-cut and deal them, nearest the goal first: search ``chunks``
    and record each result with its chunk's index."""
    def __init__(self, first_bound: int,
                 chunks: Optional[List[List[str]]] = None) -> None: ...
    @property
    def bound(self) -> int: ...
    @property
    def chunks(self) -> List[List[str]]: ...
    def record(self, result: Union[Tuple[Optional[str], Optional[int], int, int],
                                   Tuple[Optional[str], Optional[int], int, int,
                                         List[Optional[int]]]],
               chunk: Optional[int] = None) -> bool: ...
    def advance(self) -> Optional[int]: ...
    @property
    def found(self) -> Optional[str]: ...
    @property
    def expanded(self) -> int: ...

def is_solvable(board: Board, size: Optional[Size] = None,
                goal: Optional[Board] = None) -> bool: ...
def check(board: Board, moves: str, size: Optional[Size] = None,
          goal: Optional[Board] = None, optimum: Optional[int] = None) -> CheckResult: ...
def scramble(size: Size, count: int = 1, seed: Optional[int] = None,
             goal: Optional[Board] = None) -> List[List[int]]: ...
def distance_table_bytes(size: Size, goal: Optional[Board] = None) -> bytes: ...
def explore(size: Size, goal: Optional[Board] = None, max_memory_mb: Optional[int] = None,
            antipodes: int = 20) -> dict: ...
def rank(board: Board, size: Optional[Size] = None) -> int: ...
def square_side(board: Board) -> int: ...
def cached_solver(key: str) -> Optional[Solver]: ...
def make_solver(key: str, options: dict) -> Solver: ...
