"""The Sudoku Explainer rating: the SERating type and the batch's structured array."""

from __future__ import annotations

from typing import Any, NamedTuple, Optional, Tuple

import numpy as np
import numpy.typing as npt

from . import _sudoku_rs

#: The dtype of :func:`se_rate_batch`'s result: ER, EP, ED (NaN where the row has no rating),
#: then the row's :class:`Status` code.
SE_RATING_DTYPE = np.dtype(
    [("er", np.float64), ("ep", np.float64), ("ed", np.float64), ("status", np.int8)]
)


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
    """
    _no_rules(rules)
    er, ep, ed = _sudoku_rs._se_rate(grid, box=box, time_limit=time_limit)
    return SERating(er / 10, ep / 10, ed / 10)


def se_rate_batch(
    puzzles,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    time_limit: Optional[float] = None,
    rules: Any = None,
) -> npt.NDArray[np.void]:
    """Rate many puzzles as :func:`se_rate` does, on every core: a structured array of shape
    (N,) with float fields ``er``, ``ep``, ``ed`` and ``status``, the row's :class:`Status` code.

    Takes the same inputs as :func:`solve_batch`. A row that is not rated has NaN ratings and
    status ``INVALID`` (malformed or conflicting clues), ``NO_SOLUTION``, ``NOT_UNIQUE``
    (several solutions), ``TIME_LIMIT`` (its rating ran past ``time_limit`` seconds) or
    ``UNSOLVED`` (SE's techniques get stuck: serate's 20.0). Variant ``rules`` raise
    :class:`InvalidRulesError`.
    """
    _no_rules(rules)
    er, ep, ed, status = _sudoku_rs._se_rate_batch(
        puzzles, box=box, threads=threads, progress=progress, time_limit=time_limit
    )
    out = np.empty(len(er), dtype=SE_RATING_DTYPE)
    for name, column in (("er", er), ("ep", ep), ("ed", ed)):
        out[name] = np.where(column < 0, np.nan, column / 10)
    out["status"] = status
    return out
