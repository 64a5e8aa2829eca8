"""Typed signatures of the compiled core (`sudoku_rs._sudoku_rs`)."""

from typing import Any, Callable, List, Optional, Sequence, Tuple, TypeVar, Union

import numpy as np
import numpy.typing as npt

#: Any grid the API accepts. The result of a call is the same kind as its input.
_GridLike = Union[
    str,
    Sequence[Sequence[int]],
    Sequence[Sequence[str]],
    Sequence[str],
    npt.NDArray[np.integer[Any]],
]

_G = TypeVar(
    "_G",
    str,
    List[List[int]],
    List[List[str]],
    List[str],
    npt.NDArray[np.integer[Any]],
)

__version__: str

class SudokuError(ValueError):
    """Base class of every error about a puzzle; a subclass of ValueError."""

class InvalidPuzzleError(SudokuError):
    """Wrong shape, a bad value, or two equal clues in one row, column or box."""

class NoSolutionError(SudokuError):
    """The givens are consistent but no completion exists."""

class GuessLimitError(SudokuError):
    """The search needed more guesses than max_guesses allows."""

def solve(
    grid: _G, /, *, box: Optional[Tuple[int, int]] = None, max_guesses: Optional[int] = None
) -> _G: ...
def solutions(
    grid: _G,
    /,
    *,
    limit: int = 10,
    box: Optional[Tuple[int, int]] = None,
    max_guesses: Optional[int] = None,
) -> List[_G]: ...
def count_solutions(
    grid: _GridLike,
    /,
    *,
    limit: Optional[int] = None,
    box: Optional[Tuple[int, int]] = None,
    max_guesses: Optional[int] = None,
) -> int: ...
def is_unique(
    grid: _GridLike,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    max_guesses: Optional[int] = None,
) -> bool: ...
def is_valid(grid: _GridLike, /, *, box: Optional[Tuple[int, int]] = None) -> bool: ...

# Private batch and file entry points; the public wrappers live in _batch.py and _files.py.
def _solve_batch(
    puzzles: Union[npt.NDArray[np.integer[Any]], Sequence[Optional[str]]],
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: Optional[Callable[[int], object]] = None,
    max_guesses: Optional[int] = None,
    status: bool = False,
) -> Any: ...
def _count_solutions_batch(
    puzzles: Union[npt.NDArray[np.integer[Any]], Sequence[Optional[str]]],
    /,
    *,
    limit: int = 2,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: Optional[Callable[[int], object]] = None,
    max_guesses: Optional[int] = None,
    status: bool = False,
) -> Any: ...
def _parse_lines(
    data: bytes,
    /,
    *,
    column: int = 0,
    first_line: int = 1,
    size: int = 0,
    box: Optional[Tuple[int, int]] = None,
) -> Tuple[npt.NDArray[np.uint8], List[int], List[Tuple[int, str]], int]: ...
def _format_lines(cells: bytes, /, *, size: int, blank: str = ".") -> bytes: ...
