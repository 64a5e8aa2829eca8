"""Batch transforms (canonical forms, augmentation): progress around the compiled ones."""

from __future__ import annotations

from typing import Optional, Tuple

from . import _sudoku_rs
from ._batch import _as_batch
from ._progress import progress_bar


def canonical_batch(
    puzzles,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
):
    """The canonical form of every grid of a batch, on every core.

    Row i of the result is ``canonical(puzzles[i])``: the lexicographically smallest grid
    equivalent to it under digit relabelling, row and column swaps within bands and stacks, band
    and stack swaps and (square boxes) the transpose. Two rows are equivalent exactly when their
    canonical forms are equal, so this deduplicates a dataset::

        flat = sr.canonical_batch(puzzles).reshape(len(puzzles), -1)
        forms, first = np.unique(flat, axis=0, return_index=True)
        distinct = puzzles[np.sort(first)]      # one puzzle per equivalence class

    Takes what :func:`solve_batch` takes: a numpy integer array of shape (N, n, n) or (N, n*n)
    (the result has the same shape and dtype) or a list of puzzle strings (the result is a list
    of strings). A malformed row comes back as all zeros (``None`` in a list). Sizes 4x4, 6x6,
    8x8 and 9x9; larger grids raise ValueError. ``threads=None`` uses every core; the result
    does not depend on it. ``progress=True`` shows a tqdm bar. The GIL is released.
    """
    puzzles = _as_batch(puzzles)
    with progress_bar(progress, len(puzzles), "canonical") as update:
        return _sudoku_rs._canonical_batch(puzzles, box=box, threads=threads, progress=update)


def augment_batch(
    puzzles,
    solutions=None,
    /,
    *,
    seed: Optional[int] = None,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
):
    """Data augmentation: one random validity-preserving transform per row, the same for
    ``puzzles[i]`` and ``solutions[i]``, so each pair stays a puzzle and its solution.

    Takes what :func:`solve_batch` takes: numpy integer arrays of shape (N, n, n) or (N, n*n),
    any dtype (the result has the same shape and dtype), or lists of puzzle strings (the result
    is a list of strings). Returns the transformed puzzles, or a tuple ``(puzzles, solutions)``
    when solutions are given; the two may be of different kinds and layouts, as long as they
    pair up one to one. Blanks stay blank. Row i's transform is
    ``Transform.random(n, box=box, seed=seed, index=i)``: it depends only on (seed, i), so
    results are the same for any ``threads`` and on every machine; ``seed=None`` draws a fresh
    seed. A malformed row raises :class:`InvalidPuzzleError` naming it (``puzzles[2]: ...``).
    ``progress=True`` shows a tqdm bar. The GIL is released.
    """
    puzzles = _as_batch(puzzles)
    if solutions is not None:
        solutions = _as_batch(solutions)
    with progress_bar(progress, len(puzzles), "augmenting") as update:
        return _sudoku_rs._augment_batch(
            puzzles, solutions, seed=seed, box=box, threads=threads, progress=update
        )
