"""Batch entry points: progress handling around the compiled batch functions."""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

from . import _sudoku_rs
from ._progress import progress_bar
from ._sudoku_rs import Rules

# Looked up once: on a batch of one easy puzzle every lookup shows.
_ndarray = np.ndarray
_solve = _sudoku_rs._solve_batch
_count = _sudoku_rs._count_solutions_batch


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


def solve_batch(
    puzzles,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    max_guesses: Optional[int] = None,
    status: bool = False,
    rules: Optional[Rules] = None,
):
    """Solve many puzzles on every core.

    ``puzzles`` is a numpy integer array of shape (N, n, n) or (N, n*n), 0 = blank, any dtype and
    memory order: the result is a new array of the same shape and dtype. Or a list of puzzle
    strings (or any 1-D sequence of them with ``tolist``, such as a pandas column or a numpy
    str array): the result is a list of strings. A row that is malformed, has conflicting clues or
    has no solution comes back as all zeros (``None`` in a list). ``threads=None`` uses every
    core, ``threads=1`` only the calling thread; the result does not depend on it.
    ``progress=True`` shows a tqdm bar. The GIL is released while solving; Ctrl-C stops the batch.

    ``max_guesses`` bounds the search of each row (see :func:`solve`); a row that runs out comes
    back as all zeros (``None``), like one with no solution. ``status=True`` returns
    ``(solutions, status)``, where ``status`` is an int8 array of :class:`Status` codes telling
    those cases apart: 0 solved, 1 invalid, 2 no solution, 3 guess limit.

    ``rules`` (a :class:`Rules`) solves every puzzle under variant rules; a row whose clues
    break one is invalid. Rules that do not fit the batch raise :class:`InvalidRulesError`.
    """
    # An integer array needs no conversion; arguments go by position, and there is no
    # context manager without a bar: on a batch of one easy puzzle each would show.
    if type(puzzles) is not _ndarray or puzzles.dtype.kind not in "iu":
        puzzles = _as_batch(puzzles)
    if not progress:
        return _solve(puzzles, box, threads, None, max_guesses, status, rules)
    with progress_bar(progress, len(puzzles), "solving") as update:
        return _solve(puzzles, box, threads, update, max_guesses, status, rules)


def count_solutions_batch(
    puzzles,
    /,
    *,
    limit: Optional[int] = 2,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    max_guesses: Optional[int] = None,
    status: bool = False,
    rules: Optional[Rules] = None,
):
    """Count each puzzle's solutions up to ``limit`` (2 tells unique from not; None: all) on
    every core.

    Takes the same inputs as :func:`solve_batch` and returns an int64 array of shape (N,);
    a malformed or conflicting row counts 0. With ``max_guesses``, a row that runs out of
    guesses counts -1 (never a partial count); ``status=True`` returns ``(counts, status)``
    with the :class:`Status` code of each row, as :func:`solve_batch` does. ``rules`` counts
    under variant rules, as in :func:`solve_batch`.
    """
    if type(puzzles) is not _ndarray or puzzles.dtype.kind not in "iu":  # as in solve_batch
        puzzles = _as_batch(puzzles)
    if not progress:
        return _count(puzzles, limit, box, threads, None, max_guesses, status, rules)
    with progress_bar(progress, len(puzzles), "counting") as update:
        return _count(puzzles, limit, box, threads, update, max_guesses, status, rules)
