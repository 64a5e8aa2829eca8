"""Difficulty ratings: the Rating type (rate_batch is compiled: its records are made natively)."""

from __future__ import annotations

from typing import NamedTuple, Optional, Tuple

from . import _sudoku_rs


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
