"""Per-row outcomes of the batch functions: the one vocabulary every batch reports with."""

from __future__ import annotations

from enum import IntEnum
from typing import Dict

from ._sudoku_rs import STATUSES as _STATUSES

_CODES: Dict[str, int] = {name: code for name, code, _ in _STATUSES}
_LABELS: Dict[int, str] = {code: label for _, code, label in _STATUSES}


class Status(IntEnum):
    """What became of one row of a batch: the int8 codes of ``status=True`` and of the
    ``status`` field of :func:`rate_batch` and :func:`grade_batch`.

    - ``SOLVED``: the row got its answer: solved, counted (up to ``limit``) with at least one
      solution, rated, or graded at a level.
    - ``INVALID``: not a well-formed puzzle of the batch's size, or its clues break a rule.
    - ``NO_SOLUTION``: the clues are consistent but no completion exists.
    - ``GUESS_LIMIT``: the search used up ``max_guesses``: whether a solution exists is unknown.
    - ``NOT_UNIQUE``: several solutions, so no level (grades only).
    - ``UNSOLVED``: one solution, but the allowed techniques get stuck (grades only).
    - ``TIME_LIMIT``: the row's work ran past ``time_limit``: the answer is unknown.

    The values come from the compiled core (``src/core/status.rs``) and never change; new
    outcomes get new values. ``label`` is how a text column (a rating's ``difficulty``, a
    grade's ``level``) spells the outcome of a row that has no rating or level.
    """

    SOLVED = _CODES["SOLVED"]
    INVALID = _CODES["INVALID"]
    NO_SOLUTION = _CODES["NO_SOLUTION"]
    GUESS_LIMIT = _CODES["GUESS_LIMIT"]
    NOT_UNIQUE = _CODES["NOT_UNIQUE"]
    UNSOLVED = _CODES["UNSOLVED"]
    TIME_LIMIT = _CODES["TIME_LIMIT"]

    @property
    def label(self) -> str:
        """The outcome as text columns spell it: ``'no solution'``, ``'not unique'``, ..."""
        return _LABELS[self.value]
