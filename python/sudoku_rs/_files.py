"""Puzzle files: one puzzle per line (the common dataset format) or a CSV with a header.

Parsing and formatting run in Rust on whole chunks of bytes: no Python object per puzzle.
"""

from __future__ import annotations

import math
import os
from typing import BinaryIO, Iterator, NamedTuple, Optional, Tuple, Union

import numpy as np

from . import _sudoku_rs
from ._sudoku_rs import InvalidPuzzleError

PathLike = Union[str, "os.PathLike[str]"]

#: Lines read per chunk when streaming: about 5 MB of 9x9 puzzles.
CHUNK_LINES = 65536


class Chunk(NamedTuple):
    """A chunk of puzzles read from a stream."""

    puzzles: np.ndarray  # (N, n*n) uint8, bad rows all zeros
    line_numbers: list  # 1-based line number of each row
    bad: list  # (row, message) for each malformed line


def _raise_first_bad(chunk: Chunk, source: str) -> None:
    if chunk.bad:
        row, message = chunk.bad[0]
        raise InvalidPuzzleError(f"{source}, line {chunk.line_numbers[row]}: {message}")


def iter_chunks(
    stream: BinaryIO,
    *,
    column: int = 0,
    box: Optional[Tuple[int, int]] = None,
    chunk_lines: int = CHUNK_LINES,
) -> Iterator[Chunk]:
    """Reads a binary stream a chunk of whole lines at a time (all of it when ``chunk_lines``
    is 0), so memory stays flat for any size; bytes go to Rust without a Python object per
    line."""
    first_line, size = 1, 0
    block = chunk_lines * 82 if chunk_lines else -1
    rest = b""
    while True:
        read = stream.read(block)
        data = rest + read
        if not data:
            return
        rest = b""
        if read and block > 0:
            # Not at the end: hold back a partial last line for the next chunk.
            cut = data.rfind(b"\n") + 1
            data, rest = data[:cut], data[cut:]
            if not data:
                continue  # one line longer than a block: read on
        puzzles, numbers, bad, seen_size = _sudoku_rs._parse_lines(
            data, column=column, first_line=first_line, size=size, box=box
        )
        first_line += data.count(b"\n")
        size = size or seen_size
        yield Chunk(puzzles, numbers, bad)


def read_puzzles(
    path: PathLike,
    /,
    *,
    column: int = 0,
    box: Optional[Tuple[int, int]] = None,
    skip_invalid: bool = False,
) -> np.ndarray:
    """Reads a puzzle file into an (N, n*n) uint8 array, 0 = blank.

    The file has one puzzle per line ('.' or '0' blank, digits then letters for 10 and up), or
    is a CSV whose first line is a header such as Kaggle's ``quizzes,solutions``: ``column``
    picks the field (``column=1`` reads the solutions). Blank lines are skipped. A malformed line
    raises InvalidPuzzleError naming its line number, unless ``skip_invalid``, which leaves the
    line out.
    """
    with open(path, "rb") as f:
        chunks = list(iter_chunks(f, column=column, box=box, chunk_lines=0))
    if not chunks:
        side = box[0] * box[1] if box else 9
        return np.zeros((0, side * side), dtype=np.uint8)
    if not skip_invalid:
        for chunk in chunks:
            _raise_first_bad(chunk, os.fspath(path))
    kept = [good_rows(chunk) for chunk in chunks]
    return kept[0] if len(kept) == 1 else np.concatenate(kept)


def bad_mask(chunk: Chunk) -> np.ndarray:
    """True for the rows of a chunk that came from malformed lines."""
    mask = np.zeros(len(chunk.puzzles), dtype=bool)
    mask[[row for row, _ in chunk.bad]] = True
    return mask


def good_rows(chunk: Chunk) -> np.ndarray:
    """The puzzles of a chunk without the rows of malformed lines (all zeros, an empty grid)."""
    return chunk.puzzles[~bad_mask(chunk)] if chunk.bad else chunk.puzzles


def format_puzzles(puzzles: np.ndarray, /, *, blank: str = ".") -> bytes:
    """The puzzles of an (N, n*n) or (N, n, n) integer array as lines of text; a row of all
    zeros (say, an unsolvable puzzle from solve_batch) becomes an empty line."""
    array = np.asarray(puzzles)
    if array.dtype.kind not in "iu":
        raise TypeError(f"expected an integer array, got dtype {array.dtype}")
    width = int(np.prod(array.shape[1:])) if array.ndim in (2, 3) else 0
    size = math.isqrt(width)
    square = array.ndim == 3 and array.shape[1] == array.shape[2]
    if not (square or (array.ndim == 2 and size * size == width)) or size == 0:
        raise InvalidPuzzleError(
            f"expected an array of shape (N, n*n) or (N, n, n), got shape {array.shape}"
        )
    if array.size and (array.min() < 0 or array.max() > size):
        raise InvalidPuzzleError(f"puzzle values must be 0..{size}")
    cells = np.ascontiguousarray(array, dtype=np.uint8).tobytes()
    return _sudoku_rs._format_lines(cells, size=size, blank=blank)


def write_puzzles(path: PathLike, puzzles: np.ndarray, /, *, blank: str = ".") -> None:
    """Writes an (N, n*n) or (N, n, n) integer array as one puzzle per line."""
    with open(path, "wb") as f:
        f.write(format_puzzles(puzzles, blank=blank))
