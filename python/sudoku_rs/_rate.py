"""Difficulty ratings: the Rating type and the batch's structured array."""

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple

import numpy as np
import numpy.typing as npt

from . import _sudoku_rs
from ._status import _row_labels

#: The difficulty labels, from the core. A batch row that could not be rated has the label of
#: its :class:`Status` instead ('invalid' or 'no solution').
DIFFICULTIES = tuple(_sudoku_rs.DIFFICULTY_LABELS)

#: The dtype of :func:`rate_batch`'s result: the fields of :class:`Rating`, then the row's
#: :class:`Status` code.
RATING_DTYPE = np.dtype(
    [
        ("guesses", np.int64),
        ("backtracks", np.int64),
        ("singles_only", np.bool_),
        ("unique", np.bool_),
        ("difficulty", "U11"),
        ("status", np.int8),
    ]
)


class Rating(NamedTuple):
    """How hard a puzzle is for a fixed, plain search (see :func:`rate`).

    - ``guesses``: digits tried in cells with two or more candidates (branching decisions).
    - ``backtracks``: guesses that naked and hidden singles then proved wrong (dead ends).
    - ``singles_only``: naked and hidden singles alone solve the puzzle (no guess).
    - ``unique``: the puzzle has exactly one solution (the search counts to 2).
    - ``difficulty``: 'easy' (singles only), 'medium' (1-10 guesses), 'hard' (11-100) or
      'extreme' (over 100).
    """

    guesses: int
    backtracks: int
    singles_only: bool
    unique: bool
    difficulty: str


def rate(grid, /, *, box: Optional[Tuple[int, int]] = None) -> Rating:
    """Rate a puzzle (any grid kind) by how much guessing a fixed, plain search needs.

    The procedure never changes with solver optimisations, so a rating is reproducible: fill
    naked and hidden singles to a fixed point, then branch on the first cell (row-major) with
    the fewest candidates, digits low to high, and repeat, counting solutions up to 2 (the whole
    search tree for a unique puzzle). The difficulty thresholds were calibrated on the public
    benchmark sets (see the README, "Making and rating puzzles"). Conflicting clues raise
    :class:`InvalidPuzzleError`, no solution :class:`NoSolutionError`.
    """
    return Rating(*_sudoku_rs._rate(grid, box=box))


def rate_batch(
    puzzles,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> npt.NDArray[np.void]:
    """Rate many puzzles on every core: a structured array of shape (N,) whose fields are those
    of :class:`Rating` (``difficulty`` a ``<U11`` string), then ``status``, the row's
    :class:`Status` code (int8).

    Takes the same inputs as :func:`solve_batch`. A row that cannot be rated gets guesses and
    backtracks -1, both flags False, and, told apart as ``status=True`` does elsewhere,
    difficulty 'invalid' with status ``Status.INVALID`` (malformed or conflicting clues) or
    'no solution' with ``Status.NO_SOLUTION`` (the difficulty is the status's ``label``).
    """
    guesses, backtracks, singles, unique, codes, status = _sudoku_rs._rate_batch(
        puzzles, box=box, threads=threads, progress=progress
    )
    out = np.empty(len(guesses), dtype=RATING_DTYPE)
    out["guesses"] = guesses
    out["backtracks"] = backtracks
    out["singles_only"] = singles
    out["unique"] = unique
    out["difficulty"] = _row_labels(DIFFICULTIES, codes, status)
    out["status"] = status
    return out
