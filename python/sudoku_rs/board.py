"""`Board`: an immutable grid that draws itself in the terminal and in Jupyter.

A thin layer over the compiled functions: the cells are read by the core (same errors as
`solve`), solving, counting and finding conflicting clues go to the core, and only drawing
happens here.
"""

from __future__ import annotations

import os
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

import numpy as np

from . import _logic, _sudoku_rs, _walk
from ._draw import grid as _display
from ._sudoku_rs import Rules


def _frozen(array: np.ndarray) -> np.ndarray:
    array.flags.writeable = False
    return array


class Board:
    """An immutable Sudoku board that prints as a grid and draws itself in Jupyter.

    ``Board(grid, /, *, box=None)`` takes any grid the API takes (a string, a list of rows of
    ints or one-character strings, a list of row strings, a 2-D numpy integer array); the
    input is copied, never modified. A malformed grid raises the same `InvalidPuzzleError`
    as `solve`. A grid whose clues conflict is allowed, so it can be shown with the
    conflicts highlighted (see `conflicts`); solving it raises.

    The clues of the grid it was made from are its givens; `solve` returns a new board that
    remembers which cells it filled in, and draws those differently.

    Two boards are equal when they have the same cells, box shape and rules; which cells are
    givens does not count, so ``Board(p).solve() == Board(sr.solve(p))``.

    ``rules=`` (a `Rules`) makes a variant board: solving, counting and `is_valid` follow the
    rules (see `rules`), and under jigsaw regions ``box=`` is an error, as for `solve`.
    `conflicts` then also marks clues that break a variant rule with another clue.

    A `Puzzle` (``Board(sr.Puzzle.from_url(link))``) brings its grid and its rules.
    """

    __slots__ = ("_box", "_cells", "_givens", "_rules")

    _cells: np.ndarray
    _givens: np.ndarray
    _box: Tuple[int, int]
    _rules: Optional[Rules]

    def __init__(
        self, grid: Any, /, *, box: Optional[Tuple[int, int]] = None, rules: Optional[Rules] = None
    ) -> None:
        if isinstance(grid, _sudoku_rs.Puzzle):
            if box is not None or rules is not None:
                raise TypeError(
                    "a Puzzle carries its rules and box: pass rules= and box= only with a "
                    "plain grid"
                )
            grid, box, rules = grid.grid, grid.box, grid.rules
        cells, shape = _sudoku_rs._read_grid(grid, box=box, rules=rules)
        self._cells = _frozen(cells)
        self._givens = _frozen(cells != 0)
        self._box = (int(shape[0]), int(shape[1]))
        self._rules = None if rules is None or rules.is_classic else rules

    @classmethod
    def _make(
        cls,
        cells: np.ndarray,
        givens: np.ndarray,
        box: Tuple[int, int],
        rules: Optional[Rules] = None,
    ) -> Board:
        board = cls.__new__(cls)
        board._cells = _frozen(np.array(cells, dtype=np.uint8))
        board._givens = _frozen(np.array(givens, dtype=bool))
        board._box = box
        board._rules = rules
        return board

    # ------------------------------------------------------------ logic

    def hint(self, *, techniques: Optional[Iterable[str]] = None) -> Optional[_walk.DrawnStep]:
        """The next logical step (see `sr.hint`) on this board, which draws itself in Jupyter:
        the grid with pencil marks, the units and cells involved tinted, eliminated
        candidates struck out, placed digits marked, the sentence under it. None when the
        board is full or no allowed technique applies."""
        self._classic_logic("hint")
        step = _logic.hint(self._cells, box=self._box, techniques=techniques)
        if step is None:
            return None
        return next(_walk.walk(self, self._marks(), [step]))

    def explain(self, *, techniques: Optional[Iterable[str]] = None) -> _walk.Walkthrough:
        """Every step of a logical solution (see `sr.explain`), to page through:
        ``board.explain()[i]`` draws step i on the board as it was then; in Jupyter the whole
        walkthrough shows as a sequence of small grids."""
        self._classic_logic("explain")
        explanation = _logic.explain(self._cells, box=self._box, techniques=techniques)
        return _walk.Walkthrough(self, self._marks(), explanation)

    def _classic_logic(self, what: str) -> None:
        # The techniques reason about rows, columns and boxes only; under variant rules their
        # steps would be wrong, so refuse rather than mislead.
        if self._rules is not None:
            raise _sudoku_rs.InvalidRulesError(
                f"{what} follows classic rules only; this board has variant rules ({self._rules!r})"
            )

    def _marks(self) -> np.ndarray:
        return _logic.candidates(self._cells, box=self._box)

    def _where(self) -> Dict[str, Any]:
        """How the solving calls are to read this board: its box as its rules have it (none
        where they replace the boxes), and its rules."""
        if self._rules is None:
            return {"box": self._box, "rules": None}
        return {"box": self._rules._box_arg(self._box), "rules": self._rules}

    # ------------------------------------------------------------ solving

    def solve(self, *, max_guesses: Optional[int] = None) -> Board:
        """A new board with every blank filled in (the first solution `sr.solve` finds).

        The cells it filled are not givens. Raises `InvalidPuzzleError` if clues conflict,
        `NoSolutionError` if there is no completion and `GuessLimitError` past `max_guesses`.
        """
        solution = _sudoku_rs.solve(self._cells, max_guesses=max_guesses, **self._where())
        return Board._make(solution, self._givens, self._box, self._rules)

    def count_solutions(
        self, *, limit: Optional[int] = None, max_guesses: Optional[int] = None
    ) -> int:
        """The number of solutions, stopping at `limit` when one is given."""
        return _sudoku_rs.count_solutions(
            self._cells, limit=limit, max_guesses=max_guesses, **self._where()
        )

    def is_unique(self, *, max_guesses: Optional[int] = None) -> bool:
        """Whether the board has exactly one solution."""
        return _sudoku_rs.is_unique(self._cells, max_guesses=max_guesses, **self._where())

    def is_valid(self) -> bool:
        """Whether no two equal clues share a row, column or box, and no clue breaks a rule
        of `rules` (says nothing about solvability)."""
        return _sudoku_rs.is_valid(self._cells, **self._where())

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
    def rules(self) -> Optional[Rules]:
        """The variant rules the board is solved under; None for classic rules."""
        return self._rules

    @property
    def givens(self) -> np.ndarray:
        """An (n, n) bool array, True where the cell is a clue of the original puzzle."""
        return self._givens.copy()

    @property
    def conflicts(self) -> List[Tuple[int, int]]:
        """The cells (row, col), from 0 and sorted, whose clue another clue repeats in the
        same row, column or box (or, under `rules`, breaks a variant rule with); empty for a
        valid board."""
        rows, cols = np.nonzero(self._conflicts_mask())
        return list(zip(rows.tolist(), cols.tolist()))

    def _conflicts_mask(self) -> np.ndarray:
        return _sudoku_rs._conflicts(self._cells, **self._where())

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
        in small type, and a board whose clues conflict raises `InvalidPuzzleError` (a board
        with variant rules draws them; its pencil marks would follow classic rules only, so
        ``pencil=True`` raises `InvalidRulesError`). The
        same drawing as in Jupyter, where the colours follow the notebook's theme."""
        marks = None
        if pencil:
            self._classic_logic("pencil=True")
            blank = (self._cells == 0)[:, :, None]
            marks = _sudoku_rs._candidates(self._cells, box=self._box) & blank
        svg = _display.svg_grid(
            self._cells,
            self._givens,
            self._conflicts_mask(),
            self._box,
            _display.PRINT,
            marks,
            rules=self._rules,
        )
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + svg + "\n"

    def save(
        self, path: Union[str, os.PathLike[str]], /, *, pencil: bool = False, dpi: int = 200
    ) -> None:
        """Writes the board's print drawing (see `to_svg`) to `path` in the format its
        extension names: ``.svg``, ``.pdf`` (one page the size of the drawing, text as text in
        embedded fonts) or ``.png`` (at `dpi`). PDF and PNG need the ``print`` extra
        (``pip install sudoku_rs[print]``); without it they raise ImportError saying so.

        The file is replaced only once it was written whole. An unknown extension raises
        ValueError, an unwritable path OSError."""
        from ._print.export import save_board

        save_board(self, path, pencil=pencil, dpi=dpi)

    # ------------------------------------------------------------ Python protocols

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return (
            self._box == other._box
            and self._rules == other._rules
            and np.array_equal(self._cells, other._cells)
        )

    def __hash__(self) -> int:
        return hash((self._box, self._rules, self._cells.tobytes()))

    def __reduce__(self) -> Tuple[Any, ...]:
        # Rebuilt through _make so the arrays come back read-only and the givens survive.
        state = (self._cells.tobytes(), self._givens.tobytes(), self._box, self._rules)
        return (_restore, state)

    def __repr__(self) -> str:
        # The arguments that read the board back: no box under jigsaw regions, which refuse one.
        args = "".join(f", {key}={value!r}" for key, value in self._where().items() if value)
        if self.size > _display.MAX_CHAR_VALUE:
            return f"Board({self.to_list()!r}{args})"
        return f"Board({self.to_string()!r}{args})"

    def __str__(self) -> str:
        if self._rules is not None and self._rules.regions is not None:
            # The box lines would cut across the regions, which replace the boxes: none drawn.
            return _display.text_grid(self._cells, (self.size, self.size))
        return _display.text_grid(self._cells, self._box)

    def _repr_html_(self) -> str:
        return _display.html_grid(
            self._cells, self._givens, self._conflicts_mask(), self._box, self._rules
        )


def _restore(
    cells: bytes, givens: bytes, box: Tuple[int, int], rules: Optional[Rules] = None
) -> Board:
    n = box[0] * box[1]
    return Board._make(
        np.frombuffer(cells, dtype=np.uint8).reshape(n, n),
        np.frombuffer(givens, dtype=bool).reshape(n, n),
        (int(box[0]), int(box[1])),
        rules,
    )
