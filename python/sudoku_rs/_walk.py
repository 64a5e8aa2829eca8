"""Logical steps on a board, drawn: `Board.hint()` and `Board.explain()` in Jupyter.

A drawn step is the board's one drawing (`_draw.grid.html_grid`) with layers added: the units
and cells involved tinted under the grid, and over it the pencil marks of the blank cells, the
eliminated candidates struck out in red, the pattern's digits in bold, and the placed digits in
green. The sentence goes under the picture. Nothing here solves: the steps come from the core
(`sr.hint`, `sr.explain`), and the core replays them on the pencil marks
(`_sudoku_rs._apply_step`), to draw each step on the marks it was found in.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Iterator, List, Optional, Sequence, Tuple

import numpy as np

from . import _sudoku_rs
from ._draw import grid as _display
from ._logic import Explanation, Step

if TYPE_CHECKING:
    from .board import Board

# Tints under the grid: the units a person looks along, and, stronger, the pattern's cells.
# Translucent, so they read on light and dark notebook themes alike.
UNIT_COLOUR = "#f2c94c"
UNIT_OPACITY = "0.22"
CELL_COLOUR = "#f2994a"
CELL_OPACITY = "0.45"
# Over the grid: struck-out candidates, placed digits, the pattern's digits.
STRUCK_COLOUR = "#e5484d"
PLACED_COLOUR = "#2da44e"
PATTERN_COLOUR = "#2f7de1"
#: A whole explanation is drawn as small grids: pixels per cell.
SMALL_CELL = 18


def _unit_cells(kind: str, index: int, n: int, box: Tuple[int, int]) -> List[Tuple[int, int]]:
    if kind == "row":
        return [(index, c) for c in range(n)]
    if kind == "column":
        return [(r, index) for r in range(n)]
    box_rows, box_cols = box
    top = index // (n // box_cols) * box_rows
    left = index % (n // box_cols) * box_cols
    return [(top + r, left + c) for r in range(box_rows) for c in range(box_cols)]


def _layers(
    cells: np.ndarray,
    marks: np.ndarray,
    step: Step,
    box: Tuple[int, int],
    size: int,
) -> Tuple[str, str]:
    """(under, over): the SVG layers of a step drawn on `cells` with pencil `marks`."""
    n = cells.shape[0]
    box_rows, box_cols = box
    under: List[str] = []
    tinted = set()
    for kind, index in step.units:
        for r, c in _unit_cells(kind, index, n, box):
            if (r, c) not in tinted:
                tinted.add((r, c))
                under.append(
                    f'<rect x="{c * size}" y="{r * size}" width="{size}" height="{size}"/>'
                )
    focus = [
        f'<rect x="{c * size}" y="{r * size}" width="{size}" height="{size}"/>'
        for r, c in step.cells
    ]
    under_svg = (
        f'<g fill="{UNIT_COLOUR}" fill-opacity="{UNIT_OPACITY}" data-unit="1">{"".join(under)}</g>'
        f'<g fill="{CELL_COLOUR}" fill-opacity="{CELL_OPACITY}" data-cell="1">{"".join(focus)}</g>'
    )
    placed = {(r, c): d for r, c, d in step.placements}
    struck = {(r, c, d) for r, c, d in step.eliminations}
    pattern = set(step.digits)
    focus_cells = set(step.cells)
    step_x, step_y = size / box_cols, size / box_rows
    font = round(min(step_x, step_y) * 0.72, 1)
    plain: List[str] = []
    bold: List[str] = []
    red: List[str] = []
    strikes: List[str] = []
    for r, c, v in zip(*np.nonzero(marks & (cells == 0)[:, :, None])):
        r, c, d = int(r), int(c), int(v) + 1
        if (r, c) in placed:
            continue
        x = c * size + (v % box_cols + 0.5) * step_x
        y = r * size + (v // box_cols + 0.5) * step_y
        label = escape(_display.char_of(d) if n <= _display.MAX_CHAR_VALUE else str(d))
        text = f'<text x="{x:.4g}" y="{y:.4g}">{label}</text>'
        if (r, c, d) in struck:
            red.append(text)
            half = min(step_x, step_y) * 0.4
            strikes.append(f"M{x - half:.4g} {y + half:.4g}L{x + half:.4g} {y - half:.4g}")
        elif (r, c) in focus_cells and d in pattern:
            bold.append(text)
        else:
            plain.append(text)
    big = round(size * 0.6)
    half_cell = size / 2
    placed_svg = "".join(
        f'<text x="{c * size + half_cell:g}" y="{r * size + half_cell:g}">'
        f"{escape(_display.char_of(d) if n <= _display.MAX_CHAR_VALUE else str(d))}</text>"
        for (r, c), d in placed.items()
    )
    over_svg = (
        f'<g font-size="{font:g}" text-anchor="middle" dominant-baseline="central">'
        f'<g fill="currentColor" fill-opacity="0.75" data-pencil="1">{"".join(plain)}</g>'
        f'<g fill="{PATTERN_COLOUR}" font-weight="700" data-pattern="1">{"".join(bold)}</g>'
        f'<g fill="{STRUCK_COLOUR}" font-weight="700" data-struck="1">{"".join(red)}</g>'
        "</g>"
        f'<path d="{"".join(strikes)}" stroke="{STRUCK_COLOUR}" stroke-width="1.5" fill="none"/>'
        f'<g font-size="{big}" text-anchor="middle" dominant-baseline="central" '
        f'fill="{PLACED_COLOUR}" font-weight="700" data-placed="1">{placed_svg}</g>'
    )
    return under_svg, over_svg


def step_svg(
    cells: np.ndarray,
    givens: np.ndarray,
    marks: np.ndarray,
    step: Step,
    box: Tuple[int, int],
    size: Optional[int] = None,
) -> str:
    """The board's drawing with the step's layers (see the module docstring)."""
    n = cells.shape[0]
    svg = _display.html_grid(cells, givens, np.zeros((n, n), dtype=bool), box)
    under, over = _layers(cells, marks, step, box, _display.cell_size(n))
    width = None if size is None else n * size
    return _display.with_layers(svg, under, over, width=width)


class DrawnStep:
    """A logical step on a board (from `Board.hint()` or an item of `Board.explain()`): the
    :class:`Step` (its fields read through: ``.technique``, ``.text``, ...), the ``board``
    and the pencil marks (``candidates``) it was found in, and ``after``, the board with its
    placements made. In Jupyter it draws itself: the grid with pencil marks, the units and
    cells involved tinted, eliminated candidates struck out in red, placed digits in green,
    the sentence under it."""

    __slots__ = ("after", "board", "candidates", "step")

    def __init__(self, step: Step, board: Board, candidates: np.ndarray, after: Board):
        self.step = step
        self.board = board
        self.candidates = candidates
        self.after = after

    def __getattr__(self, name: str):
        return getattr(self.step, name)

    def __repr__(self) -> str:
        return repr(self.step)

    def __str__(self) -> str:
        return self.step.text

    def svg(self, *, cell: Optional[int] = None) -> str:
        """The drawing as an SVG string; ``cell``: pixels per cell."""
        board = self.board
        return step_svg(board._cells, board._givens, self.candidates, self.step, board._box, cell)

    def _repr_html_(self) -> str:
        return f"<figure style='margin:0'>{self.svg()}{_caption(self.step)}</figure>"


def _caption(step: Step, number: Optional[int] = None) -> str:
    prefix = f"{number}. " if number is not None else ""
    return (
        f"<figcaption style='max-width:100%'>{escape(prefix)}<b>{escape(step.technique)}</b>: "
        f"{escape(step.text)}</figcaption>"
    )


def walk(board: Board, marks: np.ndarray, steps: Sequence[Step]) -> Iterator[DrawnStep]:
    """Each step drawn on the board and marks before it."""
    from .board import Board

    cells = board._cells
    marks = np.array(marks)
    for step in steps:
        marks.flags.writeable = False
        before = Board._make(cells, board._givens, board._box)
        # The core applies the step as its explanations do; the arrays it returns are new.
        cells, after_marks = _sudoku_rs._apply_step(
            cells, marks, step.placements, step.eliminations, box=board._box
        )
        after = Board._make(cells, board._givens, board._box)
        yield DrawnStep(step, before, marks, after)
        marks = after_marks


class Walkthrough(Sequence[DrawnStep]):
    """A logical solution of a board, to page through: ``walkthrough[i]`` is step i drawn
    (a :class:`DrawnStep`), ``len()`` the number of steps; ``explanation`` is the
    :class:`Explanation` (``.solved``, ``.grade``, ``.remaining``). In Jupyter the whole
    solution shows as a sequence of small grids, each with its sentence."""

    def __init__(self, board: Board, marks: np.ndarray, explanation: Explanation):
        self.explanation = explanation
        self._drawn = list(walk(board, marks, explanation.steps))

    def __len__(self) -> int:
        return len(self._drawn)

    def __getitem__(self, i):  # type: ignore[override]
        return self._drawn[i]

    def __repr__(self) -> str:
        return repr(self.explanation)

    def _repr_html_(self) -> str:
        figures = [
            "<figure style='margin:0;width:"
            f"{d.board.size * SMALL_CELL + 8}px'>{d.svg(cell=SMALL_CELL)}"
            f"<small>{_caption(d.step, i + 1)}</small></figure>"
            for i, d in enumerate(self._drawn)
        ]
        grade = self.explanation.grade
        state = (
            "solved"
            if self.explanation.solved
            else f"stuck with {len(self.explanation.remaining)} cells left"
        )
        head = (
            f"<p>{len(self._drawn)} steps, {escape(state)}, level <b>{escape(grade.level)}</b>"
            f" (score {grade.score}, hardest {escape(str(grade.hardest))})</p>"
        )
        return (
            f"<div>{head}<div style='display:flex;flex-wrap:wrap;gap:10px'>"
            f"{''.join(figures)}</div></div>"
        )
