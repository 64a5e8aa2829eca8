"""The Sudoku Explainer rating: the SERating type and the batch's structured array."""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Tuple

from . import _sudoku_rs
from ._logic import _Marks, _marks


class SERating(NamedTuple):
    """A puzzle's Sudoku Explainer 1.2.1 rating, one decimal each, as SE prints them.

    - ``er``: the hardest step on the way to the solution (the number puzzles are sorted by).
    - ``ep``: the hardest step up to and including the first that places a digit.
    - ``ed``: the first step's difficulty.
    """

    er: float
    ep: float
    ed: float


def _no_rules(rules: Any) -> None:
    if rules is not None:
        raise _sudoku_rs.InvalidRulesError(
            "the Sudoku Explainer rating is for classic sudoku: it does not rate variant rules"
        )


def se_rate(
    grid,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    candidates: Optional[_Marks] = None,
    time_limit: Optional[float] = None,
    rules: Any = None,
) -> SERating:
    """Rate a classic 9x9 puzzle (any grid kind) the way Sudoku Explainer 1.2.1 does.

    SE solves step by step, always taking the first hint of the first technique in its fixed
    order that finds one (singles, intersections, subsets, fish, wings, uniqueness, aligned
    exclusion, then ever stronger chains), and rates the puzzle by the difficulties of those
    steps (see :class:`SERating`). Conflicting clues raise :class:`InvalidPuzzleError`, several
    solutions too (SE rates only proper puzzles), no solution :class:`NoSolutionError`; a
    rating that runs past ``time_limit`` seconds raises ``TimeoutError``; variant ``rules``
    raise :class:`InvalidRulesError` (SE does not rate them).

    A pencil-mark puzzle (a sukaku) is rated as SukakuExplainer rates it: a 729-character
    string (cell c owns characters 9c to 9c+8, digit d's place holding d if it is a candidate,
    ``.`` or ``0`` if not), SukakuExplainer's bordered multi-line pencil-mark grid, or a grid
    with ``candidates`` (as for :func:`hint`; they are taken less the digits the givens' peers
    hold). A cell marked with a single digit that no cell it sees is marked with counts as
    given; any other cell is solved, and rated, step by step.
    """
    _no_rules(rules)
    er, ep, ed = _sudoku_rs._se_rate(
        grid, box=box, candidates=_marks(candidates), time_limit=time_limit
    )
    return SERating(er / 10, ep / 10, ed / 10)
