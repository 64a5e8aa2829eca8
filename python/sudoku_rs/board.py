"""`Board`: an immutable grid that draws itself in the terminal and in Jupyter.

A thin layer over the compiled functions: the cells are read by the core (same errors as
`solve`), solving and counting go to the core, and only drawing happens here.
"""

from __future__ import annotations

import os
from typing import Any, Iterable, List, Optional, Tuple, Union

import numpy as np

from . import _display, _logic, _sudoku_rs, _walk


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


def _conflict_mask(cells: np.ndarray, box: Tuple[int, int]) -> np.ndarray:
    """True for every clue that shares a row, column or box with an equal clue."""
    n = cells.shape[0]
    box_rows, box_cols = box
    index = np.arange(n * n).reshape(n, n)
    boxes = index.reshape(n // box_rows, box_rows, n // box_cols, box_cols)
    # One row of flat cell indices per unit: the n rows, the n columns, the n boxes.
    units = np.concatenate([index, index.T, boxes.transpose(0, 2, 1, 3).reshape(n, n)])
    values = cells.reshape(-1)[units].astype(np.intp)
    # Count each value within each unit in one bincount: unit u's counts sit at u*(n+1)+value.
    slots = values + (n + 1) * np.arange(3 * n)[:, None]
    counts = np.bincount(slots.reshape(-1), minlength=3 * n * (n + 1))
    clash = (counts[slots] > 1) & (values != 0)
    mask = np.zeros(n * n, dtype=bool)
    mask[units[clash]] = True
    return mask.reshape(n, n)


class Board:
    """An immutable Sudoku board that prints as a grid and draws itself in Jupyter.

    ``Board(grid, /, *, box=None)`` takes any grid the API takes (a string, a list of rows of
    ints or one-character strings, a list of row strings, a 2-D numpy integer array); the
    input is copied, never modified. A malformed grid raises the same `InvalidPuzzleError`
    as `solve`. A grid whose clues conflict is allowed, so it can be shown with the
    conflicts highlighted (see `conflicts`); solving it raises.

    The clues of the grid it was made from are its givens; `solve` returns a new board that
    remembers which cells it filled in, and draws those differently.

    Two boards are equal when they have the same cells and box shape; which cells are givens
    does not count, so ``Board(p).solve() == Board(sr.solve(p))``.
    """

    __slots__ = ("_box", "_cells", "_givens")

    _cells: np.ndarray
    _givens: np.ndarray
    _box: Tuple[int, int]

    def __init__(self, grid: Any, /, *, box: Optional[Tuple[int, int]] = None) -> None:
        cells, shape = _sudoku_rs._read_grid(grid, box=box)
        self._cells = _frozen(cells)
        self._givens = _frozen(cells != 0)
        self._box = (int(shape[0]), int(shape[1]))

    @classmethod
    def _make(cls, cells: np.ndarray, givens: np.ndarray, box: Tuple[int, int]) -> Board:
        board = cls.__new__(cls)
        board._cells = _frozen(np.array(cells, dtype=np.uint8))
        board._givens = _frozen(np.array(givens, dtype=bool))
        board._box = box
        return board

    # ------------------------------------------------------------ logic

    def hint(self, *, techniques: Optional[Iterable[str]] = None) -> Optional[_walk.DrawnStep]:
        """The next logical step (see `sr.hint`) on this board, which draws itself in Jupyter:
        the grid with pencil marks, the units and cells involved tinted, eliminated
        candidates struck out, placed digits marked, the sentence under it. None when the
        board is full or no allowed technique applies."""
        step = _logic.hint(self._cells, box=self._box, techniques=techniques)
        if step is None:
            return None
        return next(_walk.walk(self, self._marks(), [step]))

    def explain(self, *, techniques: Optional[Iterable[str]] = None) -> _walk.Walkthrough:
        """Every step of a logical solution (see `sr.explain`), to page through:
        ``board.explain()[i]`` draws step i on the board as it was then; in Jupyter the whole
        walkthrough shows as a sequence of small grids."""
        explanation = _logic.explain(self._cells, box=self._box, techniques=techniques)
        return _walk.Walkthrough(self, self._marks(), explanation)

    def _marks(self) -> np.ndarray:
        return _logic.candidates(self._cells, box=self._box)

    # ------------------------------------------------------------ solving

    def solve(self, *, max_guesses: Optional[int] = None) -> Board:
        """A new board with every blank filled in (the first solution `sr.solve` finds).

        The cells it filled are not givens. Raises `InvalidPuzzleError` if clues conflict,
        `NoSolutionError` if there is no completion and `GuessLimitError` past `max_guesses`.
        """
        solution = _sudoku_rs.solve(self._cells, box=self._box, max_guesses=max_guesses)
        return Board._make(solution, self._givens, self._box)

    def count_solutions(
        self, *, limit: Optional[int] = None, max_guesses: Optional[int] = None
    ) -> int:
        """The number of solutions, stopping at `limit` when one is given."""
        return _sudoku_rs.count_solutions(
            self._cells, limit=limit, box=self._box, max_guesses=max_guesses
        )

    def is_unique(self, *, max_guesses: Optional[int] = None) -> bool:
        """Whether the board has exactly one solution."""
        return _sudoku_rs.is_unique(self._cells, box=self._box, max_guesses=max_guesses)

    def is_valid(self) -> bool:
        """Whether no two equal clues share a row, column or box (says nothing about
        solvability)."""
        return _sudoku_rs.is_valid(self._cells, box=self._box)

    # ------------------------------------------------------------ contents

    @property
    def size(self) -> int:
        """The side n of the n x n grid."""
        return int(self._cells.shape[0])

    @property
    def box(self) -> Tuple[int, int]:
        """The box shape (rows, cols)."""
        return self._box

    @property
    def givens(self) -> np.ndarray:
        """An (n, n) bool array, True where the cell is a clue of the original puzzle."""
        return self._givens.copy()

    @property
    def conflicts(self) -> List[Tuple[int, int]]:
        """The cells (row, col), from 0 and sorted, whose clue another clue repeats in the
        same row, column or box; empty for a valid board."""
        rows, cols = np.nonzero(self._conflicts_mask())
        return list(zip(rows.tolist(), cols.tolist()))

    def _conflicts_mask(self) -> np.ndarray:
        return _conflict_mask(self._cells, self._box)

    def to_list(self) -> List[List[int]]:
        """The cells as a list of int rows, 0 = blank."""
        return self._cells.tolist()

    def to_numpy(self) -> np.ndarray:
        """The cells as a new, writable (n, n) uint8 array, 0 = blank."""
        return self._cells.copy()

    def to_string(self) -> str:
        """The cells as n*n characters of the text form: '.' blank, '1'-'9', then 'A'..
        (up to 35x35; larger grids have no text form and raise ValueError)."""
        if self.size > _display.MAX_CHAR_VALUE:
            raise ValueError(
                f"a {self.size}x{self.size} board has no text form: cell characters end at "
                f"'Z' = {_display.MAX_CHAR_VALUE}; use to_list() or to_numpy()"
            )
        return "".join(_display.char_of(v) for v in self._cells.reshape(-1).tolist())

    # ------------------------------------------------------------ print

    def to_svg(self, *, pencil: bool = False) -> str:
        """The board as a standalone SVG document in print colours: black on white, givens
        bold, filled-in digits regular and dark grey; with ``pencil=True`` each blank cell
        also shows its candidates (`sr.candidates`: values not yet in its row, column or box)
        in small type, and a board whose clues conflict raises `InvalidPuzzleError`. The
        same drawing as in Jupyter, where the colours follow the notebook's theme."""
        marks = None
        if pencil:
            blank = (self._cells == 0)[:, :, None]
            marks = _sudoku_rs._candidates(self._cells, box=self._box) & blank
        svg = _display.svg_grid(
            self._cells, self._givens, self._conflicts_mask(), self._box, _display.PRINT, marks
        )
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + svg + "\n"

    def save(
        self, path: Union[str, "os.PathLike[str]"], /, *, pencil: bool = False, dpi: int = 200
    ) -> None:
        """Writes the board's print drawing (see `to_svg`) to `path` in the format its
        extension names: ``.svg``, ``.pdf`` (one page the size of the board, text as text) or
        ``.png`` (at `dpi`; needs the ``print`` extra: ``pip install sudoku_rs[print]``).

        The file is replaced only once it was written whole. An unknown extension raises
        ValueError, an unwritable path OSError."""
        from ._export import save_board

        save_board(self, path, pencil=pencil, dpi=dpi)

    # ------------------------------------------------------------ Python protocols

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._box == other._box and np.array_equal(self._cells, other._cells)

    def __hash__(self) -> int:
        return hash((self._box, self._cells.tobytes()))

    def __reduce__(self) -> Tuple[Any, ...]:
        # Rebuilt through _make so the arrays come back read-only and the givens survive.
        return (_restore, (self._cells.tobytes(), self._givens.tobytes(), self._box))

    def __repr__(self) -> str:
        if self.size > _display.MAX_CHAR_VALUE:
            return f"Board({self.to_list()!r}, box={self._box!r})"
        return f"Board({self.to_string()!r}, box={self._box!r})"

    def __str__(self) -> str:
        return _display.text_grid(self._cells, self._box)

    def _repr_html_(self) -> str:
        return _display.html_grid(self._cells, self._givens, self._conflicts_mask(), self._box)


def _restore(cells: bytes, givens: bytes, box: Tuple[int, int]) -> Board:
    n = box[0] * box[1]
    return Board._make(
        np.frombuffer(cells, dtype=np.uint8).reshape(n, n),
        np.frombuffer(givens, dtype=bool).reshape(n, n),
        (int(box[0]), int(box[1])),
    )
