"""Solving like a person: pencil marks, hints, step-by-step explanations, technique grades."""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Iterable, Iterator, List, NamedTuple, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _sudoku_rs

#: Pencil marks: a bool array (n, n, n), ``[row, col, d-1]`` true where d is a candidate, or
#: the marks string (n characters per cell, '.' or '0' for a removed candidate).
_Marks = Union[npt.NDArray[np.bool_], str]


class Step(NamedTuple):
    """One logical step. Rows and columns count from 0, digits from 1.

    - ``technique``: the technique's stable name, e.g. ``'hidden_single'``, ``'x_wing'``.
    - ``placements``: ``(row, col, digit)`` for each digit put into a cell.
    - ``eliminations``: ``(row, col, digit)`` for each candidate removed.
    - ``cells``: the cells whose candidates make the deduction (what a person looks at).
    - ``units``: ``(kind, index)`` of the units involved, kind ``'row'``, ``'column'`` or
      ``'box'`` (boxes numbered row-major from 0).
    - ``digits``: the digits the pattern is made of.
    - ``text``: one plain English sentence in the usual 1-based notation (``r4c6``).
    - ``weight``: the technique's weight (see :func:`techniques`); a grade's score is the sum
      of its steps' weights. ``difficulty`` is a deprecated alias, kept one release.
    """

    technique: str
    placements: List[Tuple[int, int, int]]
    eliminations: List[Tuple[int, int, int]]
    cells: List[Tuple[int, int]]
    units: List[Tuple[str, int]]
    digits: List[int]
    text: str
    weight: int

    @property
    def difficulty(self) -> int:
        """Deprecated alias of :attr:`weight` (warns); removed in the next release."""
        warnings.warn(
            "Step.difficulty is deprecated; use Step.weight (the technique's weight)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.weight

    def __repr__(self) -> str:
        return f"<Step {self.technique}: {self.text}>"

    def __str__(self) -> str:
        return self.text


class Grade(NamedTuple):
    """A technique-based grade (see :func:`grade`).

    - ``hardest``: the name of the highest-weight technique used (None if no step was needed).
    - ``score``: the sum of the weights of every step of the logical solution.
    - ``level``: ``'easy'``, ``'medium'``, ``'hard'``, ``'expert'`` or ``'extreme'`` (the level
      of the hardest technique) when the logic solves a puzzle with one solution; otherwise
      ``'unsolved'`` (one solution, but the allowed techniques get stuck), ``'not unique'`` or
      ``'no solution'``.
    - ``solved``: the allowed techniques fill the grid.
    - ``unique``: the puzzle has exactly one solution.
    """

    hardest: Optional[str]
    score: int
    level: str
    solved: bool
    unique: bool


@dataclass(frozen=True, eq=False)
class Explanation:
    """A logical solution, step by step, as far as the allowed techniques go.

    ``steps`` until solved or stuck; ``solved``; ``grade`` (a :class:`Grade`); ``remaining``,
    the empty cells left when stuck (row-major, empty when solved); ``candidates``, the pencil
    marks after the last step as a bool array (n, n, n), to go on from by hand.
    """

    steps: List[Step]
    grade: Grade
    remaining: List[Tuple[int, int]]
    candidates: npt.NDArray[np.bool_] = field(repr=False)

    @property
    def solved(self) -> bool:
        """Whether the allowed techniques fill the grid (the grade's ``solved``)."""
        return self.grade.solved

    def __len__(self) -> int:
        return len(self.steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __repr__(self) -> str:
        state = "solved" if self.solved else f"stuck with {len(self.remaining)} cells left"
        return f"<Explanation: {len(self.steps)} steps, {state}, level {self.grade.level!r}>"


def _marks(candidates):
    """Marks as the compiled core takes them: a str, or a C-ordered bool array. Lists and 0/1
    integer arrays are converted; anything else is left for the core to refuse."""
    if candidates is None or isinstance(candidates, str):
        return candidates
    array = np.asarray(candidates)
    if array.dtype == np.bool_:
        return np.ascontiguousarray(array)
    if array.dtype.kind in "iu":
        if array.size and not np.isin(array, (0, 1)).all():
            raise _sudoku_rs.InvalidCandidatesError(
                "candidates must be 0/1 or True/False for each (row, col, digit)"
            )
        return np.ascontiguousarray(array, dtype=np.bool_)
    raise TypeError(
        "candidates must be a bool array of shape (n, n, n) or a marks string, "
        f"got an array of {array.dtype}"
    )


def candidates(grid, /, *, box: Optional[Tuple[int, int]] = None) -> npt.NDArray[np.bool_]:
    """The pencil marks the givens leave: a bool array (n, n, n), ``[row, col, d-1]`` true where
    digit d is still possible (a filled cell: its own digit only). No deduction beyond the
    givens. Conflicting clues raise :class:`InvalidPuzzleError`."""
    return _sudoku_rs._candidates(grid, box=box)


def format_candidates(candidates: npt.NDArray[np.bool_]) -> str:
    """Pencil marks as the common text form: per cell (row-major) n characters, digit d's
    character at place d where it is a candidate, '.' elsewhere (729 characters for 9x9)."""
    return _sudoku_rs._format_candidates(_marks(candidates))


def parse_candidates(text: str) -> npt.NDArray[np.bool_]:
    """The bool array (n, n, n) of a marks string (see :func:`format_candidates`); '0' also
    marks a removed candidate, whitespace is ignored."""
    return _sudoku_rs._parse_candidates(text)


def techniques() -> List[Tuple[str, int, str]]:
    """The techniques as ``(name, weight, level)``, in the order :func:`hint` tries them."""
    return _sudoku_rs._techniques()


def hint(
    grid,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    techniques: Optional[Iterable[str]] = None,
    candidates: Optional[_Marks] = None,
    max_guesses: Optional[int] = None,
) -> Optional[Step]:
    """The next logical step: the cheapest technique that applies (only those named in
    ``techniques``, if given). None when the grid is full or no allowed technique applies.

    ``candidates``: pencil marks (a bool array as from :func:`candidates`, or a marks
    string), the player's mid-solve, or those of a pencil-mark puzzle; ``grid`` may also be a
    marks string itself (a sukaku: see :func:`solve`). Marks are part of the puzzle: its
    solutions are the grid's that keep to them. They are intersected with what the filled cells
    allow; an empty cell must keep at least one. When the grid alone has one solution, marks
    that rule out its digit in some cell raise :class:`InvalidCandidatesError` naming the
    cell. Malformed grids and conflicting clues raise :class:`InvalidPuzzleError`; a puzzle with
    no or several solutions still gets sound steps as far as logic goes. The solver runs only to
    check marks or when a uniqueness technique needs to know the solution is unique, so a hint
    costs microseconds even on big grids. ``max_guesses`` bounds that search as in
    :func:`solve` (:class:`GuessLimitError` past it).
    """
    found = _sudoku_rs._hint(
        grid,
        box=box,
        techniques=techniques,
        candidates=_marks(candidates),
        max_guesses=max_guesses,
    )
    return None if found is None else Step(*found)


def explain(
    grid,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    techniques: Optional[Iterable[str]] = None,
    candidates: Optional[_Marks] = None,
    max_guesses: Optional[int] = None,
) -> Explanation:
    """Every step of a logical solution, each as from :func:`hint`, until the grid is full or
    no allowed technique applies; see :class:`Explanation`. Deterministic. ``candidates``
    (and a sukaku string as ``grid``) as for :func:`hint`: the steps start from those marks.
    A puzzle with no or several solutions is explained as far as logic goes, and its grade says which (the solver
    counts solutions only when the logic gets stuck: a grid the logic fills has one; on big
    grids with many solutions that count can take seconds, and ``max_guesses`` bounds it as in
    :func:`solve`)."""
    steps, graded, remaining, marks = _sudoku_rs._explain(
        grid,
        box=box,
        techniques=techniques,
        candidates=_marks(candidates),
        max_guesses=max_guesses,
    )
    return Explanation([Step(*s) for s in steps], Grade(*graded), remaining, marks)


def grade(
    grid,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    techniques: Optional[Iterable[str]] = None,
    candidates: Optional[_Marks] = None,
    max_guesses: Optional[int] = None,
) -> Grade:
    """Grade a puzzle by the techniques its logical solution needs (the steps of
    :func:`explain`): ``level`` is the hardest technique's level, ``score`` the sum of every
    step's weight. A puzzle with no solution or several gets level ``'no solution'`` or
    ``'not unique'`` rather than an exception; malformed grids and conflicting clues raise
    :class:`InvalidPuzzleError`; ``max_guesses`` bounds the solution count as in :func:`explain`.
    A pencil-mark puzzle (a sukaku string as ``grid``, or ``candidates``) is graded from its
    marks, as :func:`explain` steps through it.
    """
    return Grade(
        *_sudoku_rs._grade(
            grid,
            box=box,
            techniques=techniques,
            candidates=_marks(candidates),
            max_guesses=max_guesses,
        )
    )
