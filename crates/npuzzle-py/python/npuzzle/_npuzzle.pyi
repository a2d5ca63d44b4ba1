"""Type stubs of the native module (the documented API is ``npuzzle``)."""

from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

Board = Union[str, Sequence[int]]
Size = Union[str, int, Tuple[int, int]]

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
    stats: Stats
    def __init__(self, moves: str, optimal: bool, algorithm: str, stats: Stats) -> None: ...
    def __len__(self) -> int: ...

class Failure:
    """A board of a batch that got no answer (``errors="return"``)."""
    index: int
    kind: str
    message: str
    def __init__(self, index: int, kind: str, message: str) -> None: ...
    def __bool__(self) -> bool: ...

class Solver:
    """Solves boards toward one goal with one method; keeps tables and databases."""
    def __init__(self, size: Size, goal: Optional[Board] = None, algorithm: str = "auto",
                 heuristic: Optional[str] = None, pdb_dir: Optional[str] = None,
                 partition: Optional[str] = None, build: str = "quick",
                 timeout: Optional[float] = None, max_nodes: Optional[int] = None,
                 single_thread: bool = False) -> None: ...
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
    def frontier(self, board: Board, depth: int) -> Optional[
        Union[Tuple[str, Solution], Tuple[str, List[str], int]]]: ...
    def search_subtrees(self, board: Board, roots: List[str], bound: int,
                        timeout: Optional[float] = None, max_nodes: Optional[int] = None
                        ) -> Tuple[Optional[str], Optional[int], int, int]: ...
    def split_solution(self, board: Board, moves: str, expanded: int = 0, generated: int = 0,
                       elapsed: float = 0.0) -> Solution: ...

def is_solvable(board: Board, size: Optional[Size] = None,
                goal: Optional[Board] = None) -> bool: ...
def check(board: Board, moves: str, size: Optional[Size] = None,
          goal: Optional[Board] = None) -> Tuple[bool, Optional[int], str]: ...
def scramble(size: Size, count: int = 1, seed: Optional[int] = None,
             goal: Optional[Board] = None) -> List[List[int]]: ...
def distance_table_bytes(size: Size, goal: Optional[Board] = None) -> bytes: ...
def rank(board: Board, size: Optional[Size] = None) -> int: ...
