"""Puzzle files: one puzzle per line (the common dataset format) or a CSV with a header.

Parsing and formatting run in Rust on whole chunks of bytes: no Python object per puzzle.
"""

from __future__ import annotations

import math
import os
from typing import BinaryIO, Iterator, List, Literal, NamedTuple, Optional, Tuple, Union, overload

import numpy as np

from . import _sudoku_rs
from ._atomic import write_atomic
from ._sudoku_rs import InvalidPuzzleError, Rules

PathLike = Union[str, "os.PathLike[str]"]

#: Lines read per chunk when streaming: about 5 MB of 9x9 puzzles.
CHUNK_LINES = 65536


class Chunk(NamedTuple):
    """A chunk of puzzles read from a stream."""

    puzzles: np.ndarray  # (N, n*n) uint8, bad rows all zeros
    line_numbers: list  # 1-based line number of each row
    bad: list  # (row, message) for each malformed line
    marked: list  # (row, text) for each line of pencil marks (a sukaku; its row all zeros)
    text: bytes = b""  # with iter_chunks(text=True): the chunk's lines as read
    first_line: int = 1  # the 1-based line number of the first line of `text`


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
    rules: Optional[Rules] = None,
    marks: bool = False,
    text: bool = False,
) -> Iterator[Chunk]:
    """Reads a binary stream a chunk of whole lines at a time (all of it when ``chunk_lines``
    is 0), so memory stays flat for any size; bytes go to Rust without a Python object per
    line. Under jigsaw `rules` the regions replace the boxes, so no `box` is needed. With
    `marks` (and no `rules`), a line of a grid's pencil marks (a sukaku) is a puzzle: listed
    in the chunk's ``marked`` with its text, which the batch solvers read as they read any
    sukaku string; without, it is a bad line that says so. With `text`, each chunk also
    holds its lines as read (row i is line ``line_numbers[i] - first_line`` of it)."""
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
        puzzles, numbers, bad, seen_size, marked = _sudoku_rs._parse_lines(
            data,
            column=column,
            first_line=first_line,
            size=size,
            box=box,
            rules=rules,
            marks=marks,
        )
        chunk = Chunk(puzzles, numbers, bad, marked, data if text else b"", first_line)
        first_line += data.count(b"\n")
        size = size or seen_size
        yield chunk


@overload
def read_puzzles(
    path: PathLike,
    /,
    *,
    column: Union[int, str] = 0,
    box: Optional[Tuple[int, int]] = None,
    skip_invalid: bool = False,
    candidates: Literal[False] = False,
) -> np.ndarray: ...
@overload
def read_puzzles(
    path: PathLike,
    /,
    *,
    column: Union[int, str] = 0,
    box: Optional[Tuple[int, int]] = None,
    skip_invalid: bool = False,
    candidates: Literal[True],
) -> List[str]: ...
@overload
def read_puzzles(
    path: PathLike,
    /,
    *,
    column: Union[int, str] = 0,
    box: Optional[Tuple[int, int]] = None,
    skip_invalid: bool = False,
    candidates: bool = False,
) -> Union[np.ndarray, List[str]]: ...
def read_puzzles(
    path: PathLike,
    /,
    *,
    column: Union[int, str] = 0,
    box: Optional[Tuple[int, int]] = None,
    skip_invalid: bool = False,
    candidates: bool = False,
) -> Union[np.ndarray, List[str]]:
    """Reads a puzzle file into an (N, n*n) uint8 array, 0 = blank.

    The file has one puzzle per line ('.' or '0' blank, digits then letters for 10 and up), or
    is a CSV whose first line is a header such as Kaggle's ``quizzes,solutions``: ``column``
    picks the field (``column=1`` reads the solutions). Blank lines are skipped. A malformed line
    raises InvalidPuzzleError naming its line number, unless ``skip_invalid``, which leaves the
    line out.

    A line of pencil marks (a sukaku: 729 characters for 9x9, cell c owning characters 9c to
    9c+8, ``.`` or ``0`` for a removed candidate) is a puzzle an array of cells cannot hold.
    With ``candidates=True`` the file is read as a list of puzzle strings, one per puzzle in
    file order: a grid line as its n*n cells ('.' blank), a sukaku line as its text, so a file
    may mix both (of one grid size); :func:`solve_batch`, :func:`count_solutions_batch` and
    :func:`se_rate_batch` take that list as it is, marks and all. Without it a sukaku line
    raises InvalidPuzzleError naming its line and saying to pass ``candidates=True``
    (``skip_invalid`` leaves it out): an array never silently loses a line's marks.

    A Parquet file (such as :func:`write_parquet` writes; told by its first bytes) is read the
    same way, one puzzle per row: ``column`` is a column name or position (0, the first
    column, by default), a column of puzzle strings or of lists of n*n integer cells. A
    malformed or null row raises InvalidPuzzleError naming the row, unless ``skip_invalid``.
    Parquet needs pyarrow (``pip install 'sudoku_rs[arrow]'``).
    """
    with open(path, "rb") as f:
        parquet = f.read(4) == b"PAR1"
    if parquet:
        return _read_parquet(path, column, box, skip_invalid, candidates)
    if isinstance(column, str):
        raise TypeError(f"{os.fspath(path)}: a text file's column is a number, got {column!r}")
    source = os.fspath(path)
    with open(path, "rb") as f:
        chunks = list(iter_chunks(f, column=column, box=box, chunk_lines=0, marks=True))
    if not candidates:
        chunks = [_marks_refused(chunk) for chunk in chunks]
    if not skip_invalid:
        for chunk in chunks:
            _raise_first_bad(chunk, source)
    if candidates:
        return [text for chunk in chunks for text in _texts(chunk)]
    if not chunks:
        side = box[0] * box[1] if box else 9
        return np.zeros((0, side * side), dtype=np.uint8)
    kept = [good_rows(chunk) for chunk in chunks]
    return kept[0] if len(kept) == 1 else np.concatenate(kept)


def _marks_refused(chunk: Chunk) -> Chunk:
    """The chunk with its sukaku rows as bad rows, for a reader that gives only cells."""
    if not chunk.marked:
        return chunk
    why = (
        "characters), which an array of cells cannot hold: pass candidates=True to read the "
        "file as a list of puzzle strings that keeps them"
    )
    refused = [
        (row, f"a line of pencil marks (a sukaku, {len(text.strip())} {why}")
        for row, text in chunk.marked
    ]
    return chunk._replace(bad=sorted(chunk.bad + refused), marked=[])


def _texts(chunk: Chunk) -> List[str]:
    """A chunk's good rows as puzzle strings: a grid's cells ('.' blank), a sukaku's text."""
    bad = bad_mask(chunk)
    size = math.isqrt(chunk.puzzles.shape[1])
    lines = _format(chunk.puzzles, size, ".").decode().split("\n")
    for row, text in chunk.marked:
        lines[row] = text.strip()
    return [line for line, skip in zip(lines, bad) if not skip]


def _read_parquet(
    path: PathLike,
    column: Union[int, str],
    box: Optional[Tuple[int, int]],
    skip_invalid: bool,
    candidates: bool,
) -> Union[np.ndarray, List[str]]:
    from ._arrow import read_parquet_column
    from ._datasets import _as_cells

    source = os.fspath(path)
    values = read_parquet_column(path, column)
    if isinstance(values, np.ndarray):
        try:
            cells, _ = _as_cells(values, f"{source}, row")
        except (TypeError, ValueError) as err:
            raise InvalidPuzzleError(str(err)) from None
        cells = np.ascontiguousarray(cells, dtype=np.uint8)
        if candidates:
            return _texts(Chunk(cells, list(range(len(cells))), [], []))
        return cells
    rows = [i for i, text in enumerate(values) if text is not None]
    parsed = _parse_rows([values[i] for i in rows], box, marks=True)
    if not candidates:
        parsed = _marks_refused(parsed)
    if not skip_invalid:
        bad = [(rows[row], message) for row, message in parsed.bad]
        bad += [(i, "null, not a puzzle") for i, text in enumerate(values) if text is None]
        if bad:
            row, message = min(bad)
            raise InvalidPuzzleError(f"{source}, row {row}: {message}")
    return _texts(parsed) if candidates else good_rows(parsed)


def _parse_rows(texts: list, box: Optional[Tuple[int, int]], marks: bool = False) -> Chunk:
    """Puzzle strings as a chunk, row i of the chunk the i-th string: one native parse of
    all of them when each is one line, else one string at a time. With `marks`, a one-line
    sukaku is listed in the chunk's ``marked`` (see :func:`iter_chunks`)."""
    joined = "\n".join(texts)
    if texts and joined.count("\n") == len(texts) - 1 and "," not in joined:
        puzzles, numbers, bad, _, marked = _sudoku_rs._parse_lines(
            joined.encode("utf-8", "surrogateescape"), first_line=2, box=box, marks=marks
        )
        if len(puzzles) == len(texts):
            return Chunk(puzzles, numbers, bad, marked)
    size, bad = 0, []
    found: list = []
    for i, text in enumerate(texts):
        try:
            cells, _ = _sudoku_rs._read_grid(text, box=box or _some_box(text))
            if size and len(cells) != size:
                raise InvalidPuzzleError(f"a {len(cells)}x{len(cells)} grid among {size}x{size}")
            size = len(cells)
            found.append(cells.reshape(-1))
        except InvalidPuzzleError as err:
            found.append(None)
            bad.append((i, str(err)))
    width = (size or 9) ** 2
    out = np.zeros((len(texts), width), dtype=np.uint8)
    for i, cells in enumerate(found):
        if cells is not None:
            out[i] = cells
    return Chunk(out, list(range(len(texts))), bad, [])


def bad_mask(chunk: Chunk) -> np.ndarray:
    """True for the rows of a chunk that came from malformed lines."""
    mask = np.zeros(len(chunk.puzzles), dtype=bool)
    mask[[row for row, _ in chunk.bad]] = True
    return mask


def good_rows(chunk: Chunk) -> np.ndarray:
    """The puzzles of a chunk without the rows of malformed lines (all zeros, an empty grid)."""
    return chunk.puzzles[~bad_mask(chunk)] if chunk.bad else chunk.puzzles


def format_puzzles(puzzles, /, *, blank: str = ".") -> bytes:
    """The puzzles as lines of text, one line per row: an (N, n*n) or (N, n, n) integer array
    (or nested lists of ints), or a list of puzzle strings such as :func:`solve_batch` returns,
    where ``None`` (a row it could not solve) stands for an all-zero row, as in an array. A blank cell is ``blank``, so a
    blank puzzle is a line of n*n blanks, never an empty line: :func:`read_puzzles` reads back
    what this writes row for row."""
    array, size = _rows_of(puzzles)
    return _format(array, size, blank)


def _format(array: np.ndarray, size: int, blank: str, gaps: Optional[np.ndarray] = None) -> bytes:
    """Lines of the rows of a checked (N, size*size) array; a row flagged in ``gaps`` becomes
    an empty line (the CLI's mark for an unsolved or skipped line)."""
    cells = np.ascontiguousarray(array, dtype=np.uint8).tobytes()
    flags = None if gaps is None else np.ascontiguousarray(gaps, dtype=np.uint8).tobytes()
    return _sudoku_rs._format_lines(cells, size=size, blank=blank, gaps=flags)


def _rows_of(puzzles) -> Tuple[np.ndarray, int]:
    """The rows of what format_puzzles takes as an (N, n*n) array, values checked, and n."""
    if isinstance(puzzles, (list, tuple)) and (
        not puzzles or any(p is None or isinstance(p, str) for p in puzzles)
    ):
        return _rows_of_strings(puzzles)
    array = np.asarray(puzzles)  # also nested lists of ints
    if array.ndim == 1 and array.dtype.kind in "OU":  # a numpy or pandas column of strings
        return _rows_of_strings(array.tolist())
    if array.dtype.kind not in "iu":
        raise TypeError(
            f"expected an integer array or a list of puzzle strings, got dtype {array.dtype}"
        )
    _sudoku_rs._check_batch_shape(array.shape)  # the batch readers' own rule and message
    size = array.shape[2] if array.ndim == 3 else math.isqrt(array.shape[1])
    # Laid out before its values are scanned: a broadcast view bigger than memory (whose text
    # could not be held either) is a MemoryError at once, not after minutes of scanning.
    array = np.ascontiguousarray(array)
    if array.size and (array.min() < 0 or array.max() > size):
        raise InvalidPuzzleError(f"puzzle values must be 0..{size}")
    return array.reshape(len(array), size * size), size


def _some_box(text: str) -> Optional[Tuple[int, int]]:
    """A box for reading a grid of this many cells when no box is given: writing a grid does
    not depend on its box, but reading a 6x6 or 12x12 one needs some box."""
    n = math.isqrt(sum(1 for c in text if not c.isspace()))
    if n < 2 or math.isqrt(n) ** 2 == n:
        return None
    rows = next((r for r in range(2, n) if n % r == 0), None)
    return None if rows is None else (rows, n // rows)


def _rows_of_strings(items) -> Tuple[np.ndarray, int]:
    """Each string read as every string input is (whitespace ignored, '.' or '0' blank, no
    conflict check), None as an all-zero row; all must have one size."""
    rows: list = []
    size = 0
    for i, item in enumerate(items):
        if item is None:
            rows.append(None)
            continue
        if not isinstance(item, str):
            raise TypeError(f"row {i}: expected a puzzle string or None, got {type(item).__name__}")
        try:
            cells, _ = _sudoku_rs._read_grid(item, box=_some_box(item))
        except InvalidPuzzleError as err:
            raise InvalidPuzzleError(f"row {i}: {err}") from err
        if size and len(cells) != size:
            raise InvalidPuzzleError(
                f"row {i} is a {len(cells)}x{len(cells)} grid, the rows before are {size}x{size}"
            )
        size = len(cells)
        rows.append(cells.reshape(-1))
    size = size or 9  # only None rows: their size does not show in the text
    out = np.zeros((len(rows), size * size), dtype=np.uint8)
    for i, row in enumerate(rows):
        if row is not None:
            out[i] = row
    return out, size


def write_puzzles(path: PathLike, puzzles, /, *, blank: str = ".") -> None:
    """Writes what :func:`format_puzzles` takes as one puzzle per line; :func:`read_puzzles`
    reads it back row for row. The file is replaced all at once when the text is ready, so an
    error leaves it as it was."""
    write_atomic(path, format_puzzles(puzzles, blank=blank))
