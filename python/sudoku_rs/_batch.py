"""What every batch function does to its puzzles first (:func:`_as_batch`). ``solve_batch`` and
``count_solutions_batch`` are compiled; they call it for any input that is not already an
integer array or a list of strings."""

from __future__ import annotations

import numpy as np


def _as_batch(puzzles):
    """Integer arrays and lists of strings pass through; other 1-D sequences of strings (a
    pandas Series, a numpy array of str, bytes or object) become a list of strings, so a
    DataFrame column works. Nested lists are refused: they would be read as bad strings."""
    if isinstance(puzzles, (list, tuple)):
        if puzzles and isinstance(puzzles[0], (list, tuple, np.ndarray)):
            raise TypeError(
                "a batch is a numpy array of shape (N, n, n) or (N, n*n), or a list of puzzle "
                "strings; convert nested lists with np.array(puzzles)"
            )
        return puzzles
    if isinstance(puzzles, np.ndarray):
        if puzzles.dtype.kind == "S" and puzzles.ndim == 1:
            return np.char.decode(puzzles, "ascii", "replace").tolist()
        if puzzles.dtype.kind in "OU" and puzzles.ndim == 1:
            return puzzles.tolist()
        return puzzles
    if hasattr(puzzles, "tolist"):
        return _as_batch(np.asarray(puzzles))
    raise TypeError(
        "a batch is a numpy array of shape (N, n, n) or (N, n*n), or a list of puzzle strings; "
        f"got {type(puzzles).__name__}"
    )
