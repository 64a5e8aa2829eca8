"""Per-row outcome codes of the batch functions (``status=True``)."""

from enum import IntEnum

from ._sudoku_rs import STATUS_CODES as _CODES


class Status(IntEnum):
    """What became of one row of a batch; the int8 codes of ``status=True``.

    The values come from the compiled core (``src/core/status.rs``) and never change.
    """

    #: Solved, or counted exactly (up to ``limit``) with at least one solution.
    SOLVED = _CODES["SOLVED"]
    #: Not a well-formed puzzle of the batch's size, or two equal clues share a unit.
    INVALID = _CODES["INVALID"]
    #: The clues are consistent but no completion exists.
    NO_SOLUTION = _CODES["NO_SOLUTION"]
    #: The search used up ``max_guesses``: whether a solution exists is unknown.
    GUESS_LIMIT = _CODES["GUESS_LIMIT"]
