"""Bad input gives a clear, documented exception, never a crash or a wrong
answer: InvalidPuzzleError for bad shapes, values and clashing clues,
TypeError for values of the wrong type, NoSolutionError for clues with no
completion, ValueError for a bad limit."""

import contextlib
import re

import helpers as h
import numpy as np
import pytest
import reference as ref

import sudoku_rs as sr

RAISING = ["solve", "solutions", "count_solutions", "is_unique"]
ALL = RAISING + ["is_valid"]


def rows(n, fill=0):
    return [[fill] * n for _ in range(n)]


def with_cell(grid_rows, r, c, value):
    grid_rows[r][c] = value
    return grid_rows


def text_with_cell(n, r, c, char, sep=""):
    cells = [["."] * n for _ in range(n)]
    cells[r][c] = char
    return sep.join("".join(row) for row in cells)


def call(func, grid, box=None):
    """sr.<func>(grid, box=box); with a limit where there is one, so that a
    grid wrongly accepted fails the test instead of searching for ever."""
    if func in ("solutions", "count_solutions"):
        return getattr(sr, func)(grid, limit=2, box=box)
    return getattr(sr, func)(grid, box=box)


def assert_names_cell(message, r, c):
    assert re.search(rf"\brow {r}\b", message), message
    assert re.search(rf"\bcolumn {c}\b", message), message


# ------------------------------------------------------------ shape and size

# The shape seen, as "9x8" or as numpy writes it, "(9, 8)".
SHAPE_9X8 = ("9x8", "(9, 8)")
SHAPE_8X9 = ("8x9", "(8, 9)")

# (grid factory, box, what the message must show: one of the alternatives)
BAD_SHAPES = {
    "ints-9x8": (lambda: [[0] * 8 for _ in range(9)], None, SHAPE_9X8),
    "ints-8x9": (lambda: [[0] * 9 for _ in range(8)], None, SHAPE_8X9),
    "strs-9x8": (lambda: [["."] * 8 for _ in range(9)], None, SHAPE_9X8),
    "numpy-9x8": (lambda: np.zeros((9, 8), dtype=np.int64), None, SHAPE_9X8),
    "numpy-1d": (lambda: np.zeros(81, dtype=np.int64), None, ()),
    "numpy-3d": (lambda: np.zeros((9, 9, 1), dtype=np.int64), None, ()),
    "ragged-ints": (lambda: [[0] * (8 if r == 3 else 9) for r in range(9)], None, ()),
    "ragged-strs": (lambda: [["."] * (10 if r == 5 else 9) for r in range(9)], None, ()),
    "text-80": (lambda: "." * 80, None, ("80",)),
    "text-82": (lambda: "." * 82, None, ("82",)),
    "text-80-lines": (lambda: "\n".join(["." * 9] * 8 + ["." * 8]), None, ("80",)),
    "empty-list": (list, None, ()),
    "empty-row": (lambda: [[]], None, ()),
    "empty-text": (lambda: "", None, ()),
    "blank-text": (lambda: " \n\t ", None, ()),
    "empty-numpy": (lambda: np.zeros((0, 0), dtype=np.int64), None, ()),
    "1x1": (lambda: [[0]], None, ()),
    "2x2": (lambda: rows(2), None, ()),
    "3x3": (lambda: rows(3), None, ()),
    "5x5": (lambda: rows(5), None, ()),
    "5x5-text": (lambda: "." * 25, None, ()),
    "7x7": (lambda: rows(7), None, ()),
    "6x6-no-box": (lambda: rows(6), None, ("box",)),
    "8x8-no-box": (lambda: rows(8), None, ("box",)),
    "12x12-text-no-box": (lambda: "." * 144, None, ("box",)),
    "9x9-box-2x2": (lambda: rows(9), (2, 2), ()),
    "9x9-box-3x2": (lambda: rows(9), (3, 2), ()),
    "9x9-box-1x9": (lambda: rows(9), (1, 9), ()),
    "9x9-box-9x1": (lambda: rows(9), (9, 1), ()),
    "4x4-box-1x4": (lambda: rows(4), (1, 4), ()),
    "6x6-box-2x2": (lambda: rows(6), (2, 2), ()),
    "100x100": (lambda: rows(100), (10, 10), ()),
    "36x36-text": (lambda: "." * 36 * 36, None, ()),
}


@pytest.mark.parametrize("func", RAISING)
@pytest.mark.parametrize("case", BAD_SHAPES.keys())
def test_bad_shape_raises(case, func):
    make, box, shown = BAD_SHAPES[case]
    with pytest.raises(sr.InvalidPuzzleError) as info:
        call(func, make(), box)
    if shown:
        assert any(s in str(info.value) for s in shown), str(info.value)


@pytest.mark.parametrize("case", BAD_SHAPES.keys())
def test_bad_shape_is_not_valid(case):
    make, box, _ = BAD_SHAPES[case]
    assert sr.is_valid(make(), box=box) is False


# ------------------------------------------------------------ cell values

# (grid factory, box, row, column, text the message must contain or None)
BAD_VALUES = {
    "int-10": (lambda: with_cell(rows(9), 2, 5, 10), None, 2, 5, "10"),
    "int-negative": (lambda: with_cell(rows(9), 8, 0, -1), None, 8, 0, "-1"),
    "int-huge": (lambda: with_cell(rows(9), 4, 4, 10**30), None, 4, 4, str(10**30)),
    "int-5-in-4x4": (lambda: with_cell(rows(4), 3, 3, 5), None, 3, 3, "5"),
    "int-7-in-6x6": (lambda: with_cell(rows(6), 0, 5, 7), (2, 3), 0, 5, "7"),
    "float-fraction": (lambda: with_cell(rows(9), 1, 7, 2.5), None, 1, 7, "2.5"),
    "float-10": (lambda: with_cell(rows(9), 6, 2, 10.0), None, 6, 2, "10"),
    "float-nan": (lambda: with_cell(rows(9), 5, 3, float("nan")), None, 5, 3, None),
    "float-inf": (lambda: with_cell(rows(9), 0, 1, float("inf")), None, 0, 1, None),
    "numpy-int-10": (lambda: with_cell(rows(9), 7, 7, np.int64(10)), None, 7, 7, "10"),
    "str-x": (lambda: with_cell(rows(9, "."), 0, 2, "x"), None, 0, 2, "'x'"),
    "str-A-in-9x9": (lambda: with_cell(rows(9, "."), 6, 6, "A"), None, 6, 6, "'A'"),
    "str-dash": (lambda: with_cell(rows(9, "."), 3, 8, "-"), None, 3, 8, "'-'"),
    "str-two-chars": (lambda: with_cell(rows(9, "."), 5, 1, "12"), None, 5, 1, "'12'"),
    "str-H-in-16x16": (lambda: with_cell(rows(16, "."), 10, 11, "H"), None, 10, 11, "'H'"),
    "text-x": (lambda: text_with_cell(9, 3, 4, "x"), None, 3, 4, "'x'"),
    "text-x-lines": (lambda: text_with_cell(9, 7, 2, "x", sep="\n"), None, 7, 2, "'x'"),
    "text-x-spaced": (lambda: text_with_cell(9, 8, 8, "x", sep=" "), None, 8, 8, "'x'"),
    "text-A-in-9x9": (lambda: text_with_cell(9, 2, 0, "A"), None, 2, 0, "'A'"),
    "text-H-in-16x16": (lambda: text_with_cell(16, 15, 3, "H"), None, 15, 3, "'H'"),
    "text-7-in-6x6": (lambda: text_with_cell(6, 4, 1, "7"), (2, 3), 4, 1, "'7'"),
    "numpy-10": (lambda: np.array(with_cell(rows(9), 2, 5, 10)), None, 2, 5, "10"),
    "numpy-int8-negative": (
        lambda: np.array(with_cell(rows(9), 0, 8, -3), dtype=np.int8),
        None,
        0,
        8,
        "-3",
    ),
    "numpy-uint8-200": (
        lambda: np.array(with_cell(rows(9), 4, 4, 200), dtype=np.uint8),
        None,
        4,
        4,
        "200",
    ),
    "numpy-17-in-16x16": (lambda: np.array(with_cell(rows(16), 9, 14, 17)), None, 9, 14, "17"),
    "numpy-fortran-10": (
        lambda: np.asfortranarray(np.array(with_cell(rows(9), 1, 6, 10))),
        None,
        1,
        6,
        "10",
    ),
    "numpy-transposed-10": (
        # Stored at [6, 1]; the transposed view shows it at row 1, column 6.
        lambda: np.array(with_cell(rows(9), 6, 1, 10)).T,
        None,
        1,
        6,
        "10",
    ),
}


@pytest.mark.parametrize("func", RAISING)
@pytest.mark.parametrize("case", BAD_VALUES.keys())
def test_bad_value_raises_naming_the_cell(case, func):
    make, box, r, c, shown = BAD_VALUES[case]
    with pytest.raises(sr.InvalidPuzzleError) as info:
        call(func, make(), box)
    message = str(info.value)
    assert_names_cell(message, r, c)
    if shown is not None:
        assert shown in message, message


@pytest.mark.parametrize("case", BAD_VALUES.keys())
def test_bad_value_is_not_valid(case):
    make, box, *_ = BAD_VALUES[case]
    assert sr.is_valid(make(), box=box) is False


# ------------------------------------------------------------ wrong types

WRONG_TYPES = {
    "none-cell": lambda: with_cell(rows(9), 0, 0, None),
    "object-cell": lambda: with_cell(rows(9), 4, 5, object()),
    "list-cell": lambda: with_cell(rows(9), 8, 8, [1]),
    "true-cell": lambda: with_cell(rows(9), 2, 2, True),
    "false-cell": lambda: with_cell(rows(9), 3, 1, False),
    "numpy-bool-cell": lambda: with_cell(rows(9), 1, 1, np.True_),
    "none-in-board": lambda: with_cell(rows(9, "."), 6, 0, None),
    "none": lambda: None,
    "int": lambda: 42,
    "float": lambda: 3.5,
    "dict": dict,
    "object": lambda: object(),
    "numpy-float64": lambda: np.zeros((9, 9), dtype=np.float64),
    "numpy-float32": lambda: np.zeros((9, 9), dtype=np.float32),
    "numpy-float16": lambda: np.zeros((9, 9), dtype=np.float16),
    "numpy-bool": lambda: np.zeros((9, 9), dtype=bool),
    "numpy-object": lambda: np.zeros((9, 9), dtype=object),
    "numpy-complex": lambda: np.zeros((9, 9), dtype=np.complex128),
}


@pytest.mark.parametrize("func", ALL)
@pytest.mark.parametrize("case", WRONG_TYPES.keys())
def test_wrong_type_raises_type_error(case, func):
    with pytest.raises(TypeError):
        call(func, WRONG_TYPES[case]())


# Rows that are not lists: the contract does not say whether this is a bad
# type or a bad shape, only that it is not a crash and not an answer.
NOT_ROWS = {
    "none-rows": lambda: [None] * 9,
    "int-rows": lambda: [5] * 9,
    "mixed-rows": lambda: [[0] * 9] * 8 + [None],
}


@pytest.mark.parametrize("func", RAISING)
@pytest.mark.parametrize("case", NOT_ROWS.keys())
def test_rows_not_lists_raise(case, func):
    with pytest.raises((TypeError, sr.InvalidPuzzleError)):
        call(func, NOT_ROWS[case]())


@pytest.mark.parametrize("case", NOT_ROWS.keys())
def test_rows_not_lists_not_valid(case):
    with contextlib.suppress(TypeError):
        assert sr.is_valid(NOT_ROWS[case]()) is False


# ------------------------------------------------------------ clashing clues

# Two 5s that share a row, a column, or only a box.
CLASHES = {"row": ((0, 0), (0, 4)), "column": ((1, 3), (7, 3)), "box": ((3, 3), (5, 5))}


def clash_grid(kind, a, b):
    cells = [0] * 81
    cells[a[0] * 9 + a[1]] = cells[b[0] * 9 + b[1]] = 5
    return h.make_input(cells, 9, kind)


@pytest.mark.parametrize("func", RAISING)
@pytest.mark.parametrize("kind", h.KINDS)
@pytest.mark.parametrize("unit", CLASHES.keys())
def test_clash_raises_naming_both_cells(unit, kind, func):
    a, b = CLASHES[unit]
    with pytest.raises(sr.InvalidPuzzleError) as info:
        call(func, clash_grid(kind, a, b))
    message = str(info.value)
    assert f"({a[0]}, {a[1]})" in message, message
    assert f"({b[0]}, {b[1]})" in message, message


@pytest.mark.parametrize("kind", h.KINDS)
@pytest.mark.parametrize("unit", CLASHES.keys())
def test_clash_is_not_valid(unit, kind):
    assert sr.is_valid(clash_grid(kind, *CLASHES[unit])) is False


def test_clash_in_full_grid():
    # A finished grid with two cells swapped: every clue given, still invalid.
    full = ref.solve_first(h.LEETCODE, 9, 3, 3)
    full[0], full[1] = full[1], full[0]
    grid = h.make_input(full, 9, "ints")
    assert sr.is_valid(grid) is False
    with pytest.raises(sr.InvalidPuzzleError):
        sr.solve(grid)


# ------------------------------------------------------------ no solution


@pytest.mark.parametrize("kind", h.KINDS)
def test_no_solution(kind):
    grid = h.make_input(h.NO_SOLUTION, 9, kind)
    with pytest.raises(sr.NoSolutionError):
        sr.solve(grid)
    assert sr.solutions(grid) == []
    assert sr.solutions(grid, limit=3) == []
    assert sr.count_solutions(grid) == 0
    assert sr.count_solutions(grid, limit=1) == 0
    assert sr.is_unique(grid) is False
    # The clues are well-formed and do not clash: valid, just unsolvable.
    assert sr.is_valid(grid) is True


def test_no_solution_is_not_invalid_puzzle_error():
    with pytest.raises(sr.SudokuError) as info:
        sr.solve(h.make_input(h.NO_SOLUTION, 9, "text"))
    assert not isinstance(info.value, sr.InvalidPuzzleError)


# ------------------------------------------------------------ limits


@pytest.mark.parametrize("limit", [0, -1, -100])
def test_count_solutions_bad_limit(limit):
    with pytest.raises(ValueError):
        sr.count_solutions(h.make_input(h.LEETCODE, 9, "text"), limit=limit)


@pytest.mark.parametrize("limit", [0, -1])
def test_solutions_bad_limit(limit):
    with pytest.raises(ValueError):
        sr.solutions(h.make_input(h.LEETCODE, 9, "text"), limit=limit)
