"""Search traces and logical steps as token ids, for sequence models that learn to search
(guess and backtrack) or to solve step by step. The batches (`search_trace_batch`,
`logic_trace_batch`) are compiled and return the classes defined here."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple, Optional, Tuple

import numpy as np
import numpy.typing as npt

from . import _sudoku_rs
from ._sudoku_rs import Rules


class TraceToken(IntEnum):
    """The token ids of :func:`search_trace` and :func:`logic_trace_batch`: one vocabulary for
    every grid size, every id a byte (the values come from the compiled core and never
    change).

    - ``PAD`` (0): padding after a trace or a step's tokens.
    - ``PLACE`` (1), then row, column, digit: propagation forced the digit (a naked or hidden
      single), or a logical step placed it.
    - ``GUESS`` (2), then row, column, digit: the search saves its state, then tries the digit.
    - ``BACKTRACK`` (3): back to the state saved by the latest guess not yet backtracked.
    - ``DEAD_END`` (4): propagation found a contradiction.
    - ``SOLVED`` (5): the grid is full; the last token of a solved trace.
    - ``NO_SOLUTION`` (6): every guess failed; the last token of a trace with no solution.
    - ``ELIMINATE`` (7), then row, column, digit: a logical step removes the candidate, or
      the 9x9 search rules it out after backtracking from its guess.
    - ``TECHNIQUE`` (16): technique ``t`` (its index in :func:`techniques`) is
      ``TECHNIQUE + t``.
    - ``ROW`` (64): row ``r`` (from 0) is ``ROW + r``; ``COLUMN`` (128): column ``c`` is
      ``COLUMN + c``; ``DIGIT`` (192): digit ``d`` (from 1) is ``DIGIT + d - 1``.
    - ``VOCABULARY_SIZE`` (256), not a token: every id is below it (an embedding's size).
    """

    PAD = _sudoku_rs.TRACE_PAD
    PLACE = _sudoku_rs.TRACE_PLACE
    GUESS = _sudoku_rs.TRACE_GUESS
    BACKTRACK = _sudoku_rs.TRACE_BACKTRACK
    DEAD_END = _sudoku_rs.TRACE_DEAD_END
    SOLVED = _sudoku_rs.TRACE_SOLVED
    NO_SOLUTION = _sudoku_rs.TRACE_NO_SOLUTION
    ELIMINATE = _sudoku_rs.TRACE_ELIMINATE
    TECHNIQUE = _sudoku_rs.TRACE_TECHNIQUE
    ROW = _sudoku_rs.TRACE_ROW
    COLUMN = _sudoku_rs.TRACE_COLUMN
    DIGIT = _sudoku_rs.TRACE_DIGIT
    VOCABULARY_SIZE = _sudoku_rs.TRACE_VOCABULARY_SIZE


_VOCABULARY = """
    The vocabulary (:class:`TraceToken`; the same for every grid size, every id a byte):

    | token | id | meaning |
    |---|---|---|
    | ``PAD`` | 0 | padding |
    | ``PLACE`` | 1 | then row, column, digit: a forced digit |
    | ``GUESS`` | 2 | then row, column, digit: save the state, try the digit |
    | ``BACKTRACK`` | 3 | back to the state saved by the latest open guess |
    | ``DEAD_END`` | 4 | propagation found a contradiction |
    | ``SOLVED`` | 5 | the grid is full (the last token) |
    | ``NO_SOLUTION`` | 6 | every guess failed (the last token) |
    | ``ELIMINATE`` | 7 | then row, column, digit: a removed candidate (steps; 9x9 negations) |
    | technique ``t`` | 16 + t | a logical step; ``t`` its index in :func:`techniques` |
    | row ``r`` | 64 + r | rows from 0 |
    | column ``c`` | 128 + c | columns from 0 |
    | digit ``d`` | 191 + d | digits from 1 |
"""


def search_trace(
    puzzle,
    /,
    *,
    rules: Optional[Rules] = None,
    box: Optional[Tuple[int, int]] = None,
    max_guesses: Optional[int] = None,
) -> npt.NDArray[np.uint8]:
    """The depth-first search of ``puzzle`` up to its first solution, as a 1-D uint8 array of
    token ids: every digit propagation forces (``PLACE``), every guess (``GUESS``, the state
    saved first), every contradiction (``DEAD_END``) and every return to a saved state
    (``BACKTRACK``), ending with ``SOLVED`` or, when there is no solution, ``NO_SOLUTION``
    after backtracking to the start. The givens are not in the trace: replay it on the puzzle.
    {vocabulary}
    Guesses and backtracks nest like brackets: a trace that ends ``NO_SOLUTION`` has as many of
    each, and one that ends ``SOLVED`` has as many more guesses as guesses still open.

    The trace is the search of the engine that solves the grid. On the classic 9x9 grid that
    is the 9x9 engine, the one :func:`solve` runs, so the trace ends at the solution
    :func:`solve` returns: its propagation is singles and locked candidates, and a
    propagation's placements are told once it settles, in row-major order (a placement is
    forced by the propagation as a whole, not necessarily a single on its own); its branch is
    a digit and then the digit's negation, told as ``BACKTRACK`` then ``ELIMINATE`` row column
    digit. Every other shape is traced from the generic engine, in one complete search in a
    fixed order without the restarts big grids otherwise use: propagation is naked and hidden
    singles, one placement at a time (on 16x16 and up also locked candidates, on 25x25 to
    35x35 an all-different pass, whose eliminations are not tokens but whose consequences
    are), and after a ``BACKTRACK`` it guesses the next digit of the same cell. Either way the
    trace is the same on every run and machine. ``max_guesses`` bounds the search: past it,
    :class:`GuessLimitError`. A puzzle whose clues conflict raises
    :class:`InvalidPuzzleError`; variant ``rules`` are refused (:class:`InvalidRulesError`):
    only the classic engines are traced.
    """
    return _sudoku_rs._search_trace(puzzle, box=box, max_guesses=max_guesses, rules=rules)


search_trace.__doc__ = (search_trace.__doc__ or "").replace("{vocabulary}", _VOCABULARY)


class SearchTraces(NamedTuple):
    """What :func:`search_trace_batch` returns.

    - ``tokens``: uint8 (N, L), row i the trace of puzzle i (as :func:`search_trace` gives
      it), padded with ``TraceToken.PAD`` (0) to the longest trace L;
    - ``lengths``: int64 (N,), each trace's length (0 for an invalid row);
    - ``status``: int8 (N,), each row's :class:`Status`: ``SOLVED`` (ends ``SOLVED``),
      ``NO_SOLUTION`` (ends ``NO_SOLUTION``), ``INVALID`` (malformed or conflicting clues: no
      tokens), ``GUESS_LIMIT`` (past ``max_guesses``: no tokens).
    """

    tokens: npt.NDArray[np.uint8]
    lengths: npt.NDArray[np.int64]
    status: npt.NDArray[np.int8]


class LogicTraces(NamedTuple):
    """What :func:`logic_trace_batch` returns: one row per step of every puzzle, in puzzle
    order then step order (the steps of :func:`explain_batch`), and the puzzles' grades.

    - ``tokens``: uint8 (S, L), a step's tokens, padded with ``TraceToken.PAD`` to the longest L:
      the technique (``TraceToken.TECHNIQUE`` + its index in :func:`techniques`), then ``PLACE``
      row column digit for each placement, then ``ELIMINATE`` row column digit for each
      removed candidate. A puzzle's whole sequence is its rows' tokens, without padding, one
      after the other;
    - ``lengths``: int32 (S,), each step's token count;
    - ``puzzle``: int64 (S,), the step's puzzle index; ``step``: int32 (S,), its number
      within its puzzle, from 0;
    - ``grids``: uint8 (S, n, n), the grid after the step (0 blank), and ``candidates``: bool
      (S, n, n, n), the pencil marks after it (``[row, col, d - 1]``; a filled cell true at
      its digit only, as :func:`candidates` gives them), or both None without ``states=True``;
    - ``grades``: the :func:`grade_batch` array of the puzzles: whether each sequence ends
      solved, its level, and the status of rows that could not be explained (no steps).
    """

    tokens: npt.NDArray[np.uint8]
    lengths: npt.NDArray[np.int32]
    puzzle: npt.NDArray[np.int64]
    step: npt.NDArray[np.int32]
    grids: Optional[npt.NDArray[np.uint8]]
    candidates: Optional[npt.NDArray[np.bool_]]
    grades: np.ndarray
