"""Scoring answers (model output) against their puzzles in bulk (check_batch is compiled)."""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np
import numpy.typing as npt

from . import _sudoku_rs

SCORE_FIELDS = [
    ("well_formed", np.bool_),
    ("complete", np.bool_),
    ("keeps_clues", np.bool_),
    ("conflict_cells", np.int32),
    ("conflict_units", np.int32),
    ("matching_cells", np.int32),
    ("completable", np.bool_),
    ("solved", np.bool_),
    ("exact", np.bool_),
]


def score_batch(
    puzzles,
    answers,
    /,
    *,
    solutions=None,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> npt.NDArray[np.void]:
    """Score one answer per puzzle on every core, finer than :func:`check_batch` (the same
    checker): a structured array of shape (N,) with these fields.

    - ``well_formed``: the answer could be read (False only for the ``"error"`` rows of an
      :class:`Answers`; every other field of such a row is False or 0).
    - ``complete``: no blank cell.
    - ``keeps_clues``: every clue of the puzzle is in the answer, in its place.
    - ``conflict_cells`` (int32): filled cells holding the digit of another cell in one of
      their rows, columns or boxes; ``conflict_units``: the rows, columns and boxes that hold
      some digit twice.
    - ``matching_cells`` (int32): filled cells equal to the puzzle's solution; -1 when the
      puzzle has no unique solution.
    - ``completable``: the answer's filled cells, with the clues, still lead to a solution of
      the puzzle (no clue changed, no conflict, a completion exists).
    - ``solved``: complete, free of conflicts and keeping every clue (``check_batch``'s
      ``valid & keeps_clues``); ``exact``: equal to the puzzle's unique solution.

    ``puzzles`` and ``answers`` take the inputs of :func:`check_batch`; answers may be partial
    (0 or ``.`` blank). ``answers`` may also be the :class:`Answers` of
    :func:`parse_answer_batch`: a grid reply is scored as it stands, a reply of moves as the
    moves placed over its puzzle. Without ``solutions`` every puzzle is solved (to two
    solutions) to know its solution; ``solutions`` (same inputs, the puzzles' unique
    solutions, trusted) skips that search, the fast path. A row that is not a well-formed grid
    of the puzzles' size, in any of the three, raises ``InvalidPuzzleError`` naming it
    (``answers[3]: ...``); lengths that differ raise it too.
    """
    from ._llm import Answers

    overlay = None
    well_formed = None
    if isinstance(answers, Answers):
        well_formed = answers.kind != "error"
        answers, overlay = answers.as_grids()
    bits, conflict_cells, conflict_units, matching = _sudoku_rs._score_batch(
        puzzles,
        answers,
        solutions=solutions,
        overlay=overlay,
        box=box,
        threads=threads,
        progress=progress,
    )
    out = np.zeros(len(bits), dtype=SCORE_FIELDS)
    out["well_formed"] = True
    out["complete"] = bits & 1 != 0
    out["keeps_clues"] = bits & 2 != 0
    out["completable"] = bits & 4 != 0
    out["solved"] = bits & 8 != 0
    out["exact"] = bits & 16 != 0
    out["conflict_cells"] = conflict_cells
    out["conflict_units"] = conflict_units
    out["matching_cells"] = matching
    if well_formed is not None:
        out[~well_formed] = np.zeros(1, dtype=SCORE_FIELDS)
    return out
