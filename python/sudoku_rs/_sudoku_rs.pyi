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

class GenerateError(SudokuError):
    """The generator cannot make the puzzle asked for (impossible options, or not reached)."""

def solve(grid: _G, /, *, box: Optional[Tuple[int, int]] = None) -> _G: ...
def solutions(
    grid: _G, /, *, limit: int = 10, box: Optional[Tuple[int, int]] = None
) -> List[_G]: ...
def count_solutions(
    grid: _GridLike, /, *, limit: Optional[int] = None, box: Optional[Tuple[int, int]] = None
) -> int: ...
def is_unique(grid: _GridLike, /, *, box: Optional[Tuple[int, int]] = None) -> bool: ...
def is_valid(grid: _GridLike, /, *, box: Optional[Tuple[int, int]] = None) -> bool: ...

# Private batch and file entry points; the public wrappers live in _batch.py and _files.py.
def _solve_batch(
    puzzles: Union[npt.NDArray[np.integer[Any]], Sequence[Optional[str]]],
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: Optional[Callable[[int], object]] = None,
) -> Union[npt.NDArray[np.integer[Any]], List[Optional[str]]]: ...
def _count_solutions_batch(
    puzzles: Union[npt.NDArray[np.integer[Any]], Sequence[Optional[str]]],
    /,
    *,
    limit: int = 2,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: Optional[Callable[[int], object]] = None,
) -> npt.NDArray[np.int64]: ...
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

# Private generator, rating and checking entry points; the public wrappers live in
# _generate.py, _rate.py and _check.py.
def _generate(
    *,
    seed: int,
    clues: Optional[int] = None,
    size: int = 9,
    box: Optional[Tuple[int, int]] = None,
    symmetry: Optional[str] = None,
    minimal: bool = False,
) -> str: ...
def _generate_batch(
    count: int,
    /,
    *,
    seed: int,
    clues: Optional[int] = None,
    size: int = 9,
    box: Optional[Tuple[int, int]] = None,
    symmetry: Optional[str] = None,
    minimal: bool = False,
    threads: Optional[int] = None,
    progress: Optional[Callable[[int], object]] = None,
) -> npt.NDArray[np.uint8]: ...
def _rate(
    grid: _GridLike, /, *, box: Optional[Tuple[int, int]] = None
) -> Tuple[int, int, bool, bool, str]: ...
def _rate_batch(
    puzzles: Union[npt.NDArray[np.integer[Any]], Sequence[Optional[str]]],
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: Optional[Callable[[int], object]] = None,
) -> Tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int64],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    npt.NDArray[np.uint8],
]: ...
def _check_batch(
    puzzles: Union[npt.NDArray[np.integer[Any]], Sequence[Optional[str]]],
    answers: Union[npt.NDArray[np.integer[Any]], Sequence[Optional[str]]],
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    unique: bool = False,
    threads: Optional[int] = None,
) -> Tuple[
    npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.bool_]
]: ...
