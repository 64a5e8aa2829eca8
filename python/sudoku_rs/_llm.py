"""Puzzles for language models: prompts in, replies read back (the reading is the core's;
`parse_answer_batch` is compiled and returns the :class:`Answers` defined here)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Literal, Optional, Tuple

import numpy as np
import numpy.typing as npt

from . import _sudoku_rs
from ._files import _some_box

_STYLES = ("grid", "line", "givens")


def to_prompt(
    grid,
    /,
    style: Literal["grid", "line", "givens"] = "grid",
    *,
    box: Optional[Tuple[int, int]] = None,
) -> str:
    """The puzzle ``grid`` (any grid input, any size) as text for a language model.

    ``style``:

    - ``"grid"``: one line per row, cells apart by spaces, ``|`` between boxes and a
      ``-``/``+`` line between bands of boxes (``5 3 . | . 7 . | . . .``).
    - ``"line"``: the one-line form, ``.`` for a blank: the 81 characters of a 9x9 grid.
    - ``"givens"``: one clue a line as ``r1c1=5`` (rows and columns from 1).

    Blanks are ``.``. Up to 9x9 a cell is one character; on bigger grids every cell is a
    number (``12``), right-aligned to two characters in the grid style and apart by spaces in
    the line style, and the givens list writes rows, columns and digits as numbers too. What
    :func:`parse_answer` reads includes each of these forms.
    """
    if style not in _STYLES:
        raise ValueError(f"style must be one of {', '.join(map(repr, _STYLES))}, got {style!r}")
    if box is None and isinstance(grid, str):
        box = _some_box(grid)
    cells, (box_rows, box_cols) = _sudoku_rs._read_grid(grid, box=box)
    n = cells.shape[0]
    width = 1 if n <= 9 else 2

    def cell(v: int) -> str:
        return ("." if v == 0 else str(v)).rjust(width)

    if style == "givens":
        return "\n".join(
            f"r{r + 1}c{c + 1}={cells[r, c]}" for r in range(n) for c in range(n) if cells[r, c]
        )
    if style == "line":
        sep = "" if n <= 9 else " "
        return sep.join(cell(int(v)).strip() for v in cells.ravel())
    lines = []
    for r in range(n):
        if r and r % box_rows == 0:
            lines.append(
                "-+-".join("-" * ((width + 1) * box_cols - 1) for _ in range(n // box_cols))
            )
        parts = [
            " ".join(cell(int(v)) for v in cells[r, c : c + box_cols])
            for c in range(0, n, box_cols)
        ]
        lines.append(" | ".join(parts))
    return "\n".join(lines)


@dataclass(frozen=True)
class Answer:
    """A model's reply as :func:`parse_answer` read it.

    ``kind`` is ``"grid"`` or ``"moves"``. For a grid, ``grid`` is an (n, n) uint8 array (0 =
    blank) and ``moves`` is empty; for moves, ``grid`` is None and ``moves`` holds
    ``(row, col, digit)`` tuples in the reply's order, row and column from 0 (``r3c6: 5`` is
    ``(2, 5, 5)``), digits from 1.
    """

    kind: Literal["grid", "moves"]
    grid: Optional[npt.NDArray[np.uint8]]
    moves: Tuple[Tuple[int, int, int], ...]

    def as_grid(self, puzzle=None) -> npt.NDArray[np.uint8]:
        """The answer as an (n, n) uint8 grid: a copy of ``grid``, or the moves placed in order
        over ``puzzle`` (any grid input; a later move to the same cell wins)."""
        if self.grid is not None:
            return self.grid.copy()
        if puzzle is None:
            raise ValueError("an answer of moves needs the puzzle to place them on")
        cells, _ = _sudoku_rs._read_grid(
            puzzle, box=_some_box(puzzle) if isinstance(puzzle, str) else None
        )
        cells = cells.copy()
        n = cells.shape[0]
        for row, col, digit in self.moves:
            if row >= n or col >= n or digit > n:
                raise ValueError(f"the move r{row + 1}c{col + 1}={digit} is outside the puzzle")
            cells[row, col] = digit
        return cells


def parse_answer(text: str, /, size: int = 9) -> Answer:
    """Read a language model's reply to a puzzle of side ``size``, tolerantly.

    Where: the last ``<answer>…</answer>`` block (tags in any case; an unclosed one runs to the
    end of the reply), else the whole reply; inside it, the last code fence is tried first.
    What: a grid, as rows of digits with or without ``|``, ``-``, ``+`` separators (``.`` or
    ``0`` blank; on grids past 9x9, numbers apart by spaces or separators), the last such block
    of exactly ``size*size`` cells winning, or the one-line form (81 characters for 9x9); else
    a list of moves such as ``r3c6: 5``, ``R3C6=5`` or ``r3c6 -> 5`` (rows, columns and digits
    from 1, two digits each on big grids). Returns an :class:`Answer`; a reply with neither
    raises ``ValueError`` saying what was found instead. The work is linear in the reply's
    length: a long reply of noise is refused as fast as it is read.
    """
    kind, grid, moves = _sudoku_rs._parse_answer(text, size)
    return Answer(kind="grid" if kind == "grid" else "moves", grid=grid, moves=tuple(moves))


@dataclass(frozen=True)
class Answers:
    """Many replies as :func:`parse_answer_batch` read them, as arrays.

    - ``kind``: (N,) str array, ``"grid"``, ``"moves"`` or ``"error"`` per reply.
    - ``grids``: (N, n, n) uint8, the grid of each ``"grid"`` row (0 = blank), zeros elsewhere.
    - ``moves``: (M, 3) uint8, the moves of every ``"moves"`` row, ``(row, col, digit)`` with row
      and column from 0; row i's are ``moves[offsets[i]:offsets[i + 1]]`` (:meth:`moves_of`).
    - ``offsets``: (N + 1,) int64.
    - ``errors``: per reply, why it could not be read, or None.

    :func:`score_batch` takes an ``Answers`` as its answers.
    """

    kind: npt.NDArray[np.str_]
    grids: npt.NDArray[np.uint8]
    moves: npt.NDArray[np.uint8]
    offsets: npt.NDArray[np.int64]
    errors: List[Optional[str]]

    def __len__(self) -> int:
        return len(self.kind)

    def moves_of(self, i: int) -> npt.NDArray[np.uint8]:
        """Row ``i``'s moves, an (m, 3) array of ``(row, col, digit)``."""
        return self.moves[self.offsets[i] : self.offsets[i + 1]]

    def as_grids(self) -> Tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]:
        """``(grids, placed)``: an (N, n, n) uint8 array with every row's moves placed in order
        on a blank grid (a later move to the same cell wins) and the grids kept, and a bool mask
        of the ``"moves"`` rows, whose blanks stand for the puzzle's clues."""
        return _sudoku_rs._answer_grids(self)
