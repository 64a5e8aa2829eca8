"""A slow, plain pure-Python Sudoku solver that the tests use as the oracle.

The Rust solver in ``sudoku_rs`` is fast and clever. This module is neither:
it is short enough to check by reading it. The tests compare every result of
the Rust solver with what this module says (is it a solution, does it keep
the clues, how many solutions are there), so a mistake in the clever code
cannot hide behind the same mistake in the test.

A grid is a flat list of ints in row-major order, 0 for a blank cell, with
side ``n = box_rows * box_cols``. Boxes are ``box_rows`` tall and
``box_cols`` wide.

The search is plain recursive backtracking. The only trick is that it fills
first the empty cell with the fewest candidates, which keeps hard 9x9
puzzles to seconds instead of hours. Recursion goes one level per cell, so
grids beyond about 30x30 are too big for it.
"""

from functools import cache
from itertools import islice

# Cell characters: digits 1-9, then A=10, B=11, ... Z=35.
CHARS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BLANKS = ".0"


@cache
def peers(n, box_rows, box_cols):
    """For each cell index, the frozenset of the other cells that share its
    row, its column or its box."""
    assert box_rows * box_cols == n, (n, box_rows, box_cols)
    result = []
    for i in range(n * n):
        r, c = divmod(i, n)
        top, left = r - r % box_rows, c - c % box_cols
        same_row = {r * n + k for k in range(n)}
        same_col = {k * n + c for k in range(n)}
        same_box = {(top + a) * n + (left + b) for a in range(box_rows) for b in range(box_cols)}
        result.append(frozenset((same_row | same_col | same_box) - {i}))
    return tuple(result)


def conflicts(cells, n, box_rows, box_cols):
    """Pairs (i, j), i < j, of cells that hold the same clue and share a
    row, column or box."""
    assert len(cells) == n * n
    p = peers(n, box_rows, box_cols)
    return [
        (i, j)
        for i in range(n * n)
        if cells[i] != 0
        for j in sorted(p[i])
        if j > i and cells[j] == cells[i]
    ]


def is_solution(puzzle, solution, n, box_rows, box_cols):
    """True when `solution` is a full valid grid that keeps every clue of
    `puzzle`."""
    if len(puzzle) != n * n or len(solution) != n * n:
        return False
    if any(not (1 <= v <= n) for v in solution):
        return False
    if any(p != 0 and p != s for p, s in zip(puzzle, solution)):
        return False
    return not conflicts(solution, n, box_rows, box_cols)


def iter_solutions(cells, n, box_rows, box_cols, marks=None):
    """Yield every completion of `cells` (each a new list), each cell's digit among its
    `marks` (a set per cell) when given. Yields nothing when the clues conflict or cannot be
    completed."""
    if conflicts(cells, n, box_rows, box_cols):
        return
    p = peers(n, box_rows, box_cols)
    grid = list(cells)

    def candidates(i):
        used = {grid[j] for j in p[i]}
        allowed = range(1, n + 1) if marks is None else sorted(marks[i])
        return [v for v in allowed if v not in used]

    def search():
        best, best_candidates = None, None
        for i in range(n * n):
            if grid[i] == 0:
                cands = candidates(i)
                if best is None or len(cands) < len(best_candidates):
                    best, best_candidates = i, cands
                    if len(cands) <= 1:
                        break
        if best is None:
            yield list(grid)
            return
        for v in best_candidates:
            grid[best] = v
            yield from search()
        grid[best] = 0

    yield from search()


def count_solutions(cells, n, box_rows, box_cols, limit=None):
    """Number of completions, stopping once `limit` are found (if given)."""
    return sum(1 for _ in islice(iter_solutions(cells, n, box_rows, box_cols), limit))


def solve_first(cells, n, box_rows, box_cols):
    """The first completion found, or None when there is none."""
    return next(iter_solutions(cells, n, box_rows, box_cols), None)


def parse81(line):
    """Cells of a puzzle line: '.' or '0' blank, '1'-'9', then 'A'.. ('a'..)
    for 10 and up. Whitespace is skipped. Works for any size, not only 81."""
    cells = []
    for ch in line:
        if ch.isspace():
            continue
        if ch in BLANKS:
            cells.append(0)
        else:
            cells.append(CHARS.index(ch.upper()) + 1)  # ValueError if unknown
    return cells


def to_string(cells):
    """Inverse of parse81: one character per cell, '.' for blanks."""
    return "".join("." if v == 0 else CHARS[v - 1] for v in cells)
