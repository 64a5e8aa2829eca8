"""Per-row outcome codes of the batch functions (``status=True``)."""

from enum import IntEnum


class Status(IntEnum):
    """What became of one row of a batch; the int8 codes of ``status=True``.

    The values match the compiled core (``src/core/status.rs``) and never change.
    """

    #: Solved, or counted exactly (up to ``limit``) with at least one solution.
    SOLVED = 0
    #: Not a well-formed puzzle of the batch's size, or two equal clues share a unit.
    INVALID = 1
    #: The clues are consistent but no completion exists.
    NO_SOLUTION = 2
    #: The search used up ``max_guesses``: whether a solution exists is unknown.
    GUESS_LIMIT = 3
