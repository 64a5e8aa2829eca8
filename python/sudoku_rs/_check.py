"""Bulk checking of answers (model output) against their puzzles."""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np
import numpy.typing as npt

from . import _sudoku_rs


def check_batch(
    puzzles,
    answers,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    unique: bool = False,
    threads: Optional[int] = None,
    progress: bool = False,
) -> npt.NDArray[np.void]:
    """Check one answer per puzzle on every core: a structured array of shape (N,) of bools.

    Fields: ``valid`` (the answer is a complete grid with no two equal digits in a row, column
    or box) and ``keeps_clues`` (every clue of the puzzle is in the answer, in its place); with
    ``unique=True`` also ``unique`` (the puzzle has exactly one solution) and ``correct`` (the
    puzzle is unique and the answer is its solution: valid, unique and keeps_clues).

    ``puzzles`` and ``answers`` take the inputs of :func:`solve_batch` (integer arrays of shape
    (N, n, n) or (N, n*n), any dtype, or lists of strings), not necessarily of the same kind;
    their lengths and grid sizes must match. A malformed puzzle row gets every flag False; a
    malformed answer row (a bad value, a string of the wrong length) is neither valid nor keeps
    clues. ``progress=True`` shows a tqdm bar (worth it with ``unique=True``, which counts
    every puzzle's solutions).
    """
    valid, keeps, is_unique, correct = _sudoku_rs._check_batch(
        puzzles, answers, box=box, unique=unique, threads=threads, progress=progress
    )
    names = ["valid", "keeps_clues"] + (["unique", "correct"] if unique else [])
    out = np.empty(len(valid), dtype=[(name, np.bool_) for name in names])
    out["valid"] = valid
    out["keeps_clues"] = keeps
    if unique:
        out["unique"] = is_unique
        out["correct"] = correct
    return out
