"""Helpers shared by the test files: known puzzles, turning a flat grid into
each input kind the package takes (and back), making random full grids,
checking a solver result against the reference solver, seeded killer cages
(benches/variants.py uses them too), and the exception the `alarm` fixture
raises in place of Ctrl-C."""

import math
import random
from pathlib import Path

import numpy as np
import reference as ref

TESTS_DIR = Path(__file__).resolve().parent
SAMPLE_DATA_DIR = TESTS_DIR / "data"
# ../shared/data beside the repository: the full benchmark sets, when present.
SHARED_DATA_DIR = TESTS_DIR.parents[1] / "shared" / "data"

# The input kinds of the API, by name.
KINDS = ("ints", "strs", "text", "numpy")

# Every integer dtype a grid array may have, in both byte orders.
INT_DTYPES = [
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    ">i2",
    ">i4",
    ">i8",
    ">u2",
    ">u4",
    ">u8",
    "<i4",
]


# LeetCode 36/37 example board (unique solution).
LEETCODE_BOARD = [
    ["5", "3", ".", ".", "7", ".", ".", ".", "."],
    ["6", ".", ".", "1", "9", "5", ".", ".", "."],
    [".", "9", "8", ".", ".", ".", ".", "6", "."],
    ["8", ".", ".", ".", "6", ".", ".", ".", "3"],
    ["4", ".", ".", "8", ".", "3", ".", ".", "1"],
    ["7", ".", ".", ".", "2", ".", ".", ".", "6"],
    [".", "6", ".", ".", ".", ".", "2", "8", "."],
    [".", ".", ".", "4", "1", "9", ".", ".", "5"],
    [".", ".", ".", ".", "8", ".", ".", "7", "9"],
]
LEETCODE = ref.parse81("".join("".join(row) for row in LEETCODE_BOARD))
LEETCODE_FIRST_ROW = "534678912"

# A tutorial puzzle (unique solution), rows split by '/'.
TUTORIAL_ROWS = [
    "31.5784.2",
    ".29.3...8",
    "4..629.31",
    "2.3.1..8.",
    ".7.863..5",
    "8.1.9.6..",
    "13....25.",
    "692.5..74",
    "7..2.63..",
]
TUTORIAL = ref.parse81("".join(TUTORIAL_ROWS))
TUTORIAL_FIRST_ROWS = ("316578492", "529134768", "487629531")

# Valid 9x9 clues with no completion: row 0 holds 1-8, and the 9 at (1, 8)
# leaves cell (0, 8) without a candidate. No two clues clash.
NO_SOLUTION = [0] * 81
NO_SOLUTION[0:8] = [1, 2, 3, 4, 5, 6, 7, 8]
NO_SOLUTION[1 * 9 + 8] = 9


def box_for(n):
    """The default box of an n x n grid: square boxes when n is a square."""
    root = math.isqrt(n)
    assert root * root == n, f"{n}x{n} needs an explicit box"
    return (root, root)


def char_of(v):
    return "." if v == 0 else ref.CHARS[v - 1]


def rows_of(cells, n):
    return [list(cells[r * n : (r + 1) * n]) for r in range(n)]


def make_input(cells, n, kind, dtype=np.int64):
    """The flat grid `cells` as an input of the given kind."""
    if kind == "ints":
        return rows_of(cells, n)
    if kind == "strs":
        return [[char_of(v) for v in row] for row in rows_of(cells, n)]
    if kind == "text":
        return ref.to_string(cells)
    if kind == "numpy":
        return np.array(rows_of(cells, n), dtype=dtype)
    raise AssertionError(f"unknown kind {kind!r}")


def cells_of(grid):
    """Flat list of ints from a grid of any kind (0 for a blank)."""
    if isinstance(grid, str):
        return ref.parse81(grid)
    if isinstance(grid, np.ndarray):
        return [int(v) for row in grid.tolist() for v in row]
    return [ref.parse81(v)[0] if isinstance(v, str) else int(v) for row in grid for v in row]


def assert_kind(result, kind, n, dtype=np.int64):
    """The result has the kind (and shape) of an input of `kind`."""
    if kind == "ints":
        assert type(result) is list and len(result) == n
        for row in result:
            assert type(row) is list and len(row) == n
            assert all(type(v) is int for v in row), row
    elif kind == "strs":
        assert type(result) is list and len(result) == n
        for row in result:
            assert type(row) is list and len(row) == n
            assert all(type(v) is str and len(v) == 1 for v in row), row
    elif kind == "text":
        assert type(result) is str and len(result) == n * n
    elif kind == "numpy":
        assert isinstance(result, np.ndarray)
        assert result.shape == (n, n)
        assert result.dtype == np.dtype(dtype)
    else:
        raise AssertionError(f"unknown kind {kind!r}")


def assert_solution_of(puzzle, result, n, box):
    """`result` (any kind) is a full valid grid keeping every clue of the
    flat `puzzle`, as the reference judges it."""
    got = cells_of(result)
    assert ref.is_solution(puzzle, got, n, *box), (
        f"not a solution of\n{ref.to_string(puzzle)}\ngot\n{ref.to_string(got)}"
    )


def same_grid(a, b):
    """Equality that also works for numpy arrays."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.dtype == b.dtype
            and np.array_equal(a, b)
        )
    return a == b


# ---------------------------------------------------------------- full grids


def pattern_grid(n, box_rows, box_cols):
    """A valid full grid for any box shape (the usual shifted-rows pattern)."""
    return [
        (box_cols * (r % box_rows) + r // box_rows + c) % n + 1 for r in range(n) for c in range(n)
    ]


def transform(cells, n, box_rows, box_cols, digits, bands, rows_in_band, stacks, cols_in_stack):
    """Apply validity-keeping changes to a full grid.

    digits: a permutation of 1..n (relabelling); bands: order of the
    horizontal bands; rows_in_band[b]: order of the rows inside band b;
    likewise stacks / cols_in_stack for the vertical stacks.
    """
    row_order = [band * box_rows + r for band in bands for r in rows_in_band[band]]
    col_order = [stack * box_cols + c for stack in stacks for c in cols_in_stack[stack]]
    return [digits[cells[r * n + c] - 1] for r in row_order for c in col_order]


def random_full_grid(n, box_rows, box_cols, rng):
    """A valid full grid made by shuffling pattern_grid with `rng`
    (a random.Random)."""

    def shuffled(k):
        items = list(range(k))
        rng.shuffle(items)
        return items

    n_bands, n_stacks = n // box_rows, n // box_cols
    digits = [d + 1 for d in shuffled(n)]
    return transform(
        pattern_grid(n, box_rows, box_cols),
        n,
        box_rows,
        box_cols,
        digits,
        shuffled(n_bands),
        [shuffled(box_rows) for _ in range(n_bands)],
        shuffled(n_stacks),
        [shuffled(box_cols) for _ in range(n_stacks)],
    )


def random_puzzle(n, box_rows, box_cols, rng, blank_fraction):
    """(puzzle, full grid): a random full grid with about `blank_fraction`
    of its cells blanked. It always has at least one solution."""
    full = random_full_grid(n, box_rows, box_cols, rng)
    puzzle = [0 if rng.random() < blank_fraction else v for v in full]
    return puzzle, full


def two_solution_puzzle(solution, n, box_rows, box_cols):
    """A puzzle with exactly two solutions: `solution` with the four corners
    of a swappable rectangle (a, b / b, a, in two rows of one band and two
    stacks) blanked."""
    for r1 in range(n):
        for r2 in range(r1 + 1, n):
            if r1 // box_rows != r2 // box_rows:
                continue
            for c1 in range(n):
                for c2 in range(c1 + 1, n):
                    if c1 // box_cols == c2 // box_cols:
                        continue
                    a, b = solution[r1 * n + c1], solution[r1 * n + c2]
                    if solution[r2 * n + c1] == b and solution[r2 * n + c2] == a:
                        puzzle = list(solution)
                        for i in (r1 * n + c1, r1 * n + c2, r2 * n + c1, r2 * n + c2):
                            puzzle[i] = 0
                        return puzzle
    raise AssertionError("no swappable rectangle in this grid")


# ---------------------------------------------------------------- data sets


def data_dir():
    """../shared/data when present, else the samples in tests/data."""
    return SHARED_DATA_DIR if SHARED_DATA_DIR.is_dir() else SAMPLE_DATA_DIR


def read_lines(path, k=None):
    """The first k puzzle lines of a data file (all when k is None)."""
    lines = []
    with open(path, encoding="ascii") as f:
        for line in f:
            line = line.strip()
            if line:
                lines.append(line)
                if k is not None and len(lines) == k:
                    break
    return lines


def spread_lines(path, count):
    """About `count` lines taken evenly from the whole file."""
    lines = read_lines(path)
    step = max(1, len(lines) // count)
    return lines[::step][:count]


def cages_over(solution, n, seed, max_cells=3):
    """Cages covering `solution` (flat digits): seeded random groups of 1..max_cells
    orthogonally connected cells with distinct digits, totals taken from the solution."""
    rng = random.Random(seed)
    free = set(range(n * n))
    cages = []
    for start in range(n * n):
        if start not in free:
            continue
        cage = [start]
        free.discard(start)
        want = rng.randint(1, max_cells)
        while len(cage) < want:
            steps = []
            for i in cage:
                r, c = divmod(i, n)
                for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    j = rr * n + cc
                    if (
                        0 <= rr < n
                        and 0 <= cc < n
                        and j in free
                        and solution[j] not in {solution[k] for k in cage}
                    ):
                        steps.append(j)
            if not steps:
                break
            j = rng.choice(sorted(steps))
            cage.append(j)
            free.discard(j)
        cages.append((sum(solution[i] for i in cage), [divmod(i, n) for i in cage]))
    return cages


class Interrupted(Exception):
    """What the `alarm` fixture (conftest.py) raises from its SIGALRM handler: it stands in for
    Ctrl-C, raising in the main thread exactly as SIGINT's handler does."""


def raise_interrupted(signum, frame):
    raise Interrupted


def counting_bars(monkeypatch):
    """Puts a stand-in for ``tqdm.auto.tqdm`` in place for the test and returns the list of
    bars it makes, each a dict of the ``total`` and ``desc`` it was made with and the ``done``
    its updates add up to."""
    import sys
    import types

    bars = []

    class Bar:
        def __init__(self, total, desc, **_):
            self.record = {"total": total, "desc": desc, "done": 0}
            bars.append(self.record)

        def update(self, k):
            self.record["done"] += k

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    module = types.ModuleType("tqdm.auto")
    module.tqdm = Bar
    monkeypatch.setitem(sys.modules, "tqdm.auto", module)
    return bars
