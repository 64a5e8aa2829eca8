"""Every input kind comes back as the same kind, holding the solution, and
the input itself is never changed."""

import copy
import random

import helpers as h
import numpy as np
import pytest
import reference as ref

import sudoku_rs as sr

BOX9 = (3, 3)
LEETCODE_SOLUTION = ref.solve_first(h.LEETCODE, 9, *BOX9)

INT_DTYPES = h.INT_DTYPES


def solution_rows(cells, n=9):
    return h.rows_of(cells, n)


# ------------------------------------------------------------ the kinds


@pytest.mark.parametrize("kind", h.KINDS)
def test_solve_returns_same_kind(kind):
    grid = h.make_input(h.LEETCODE, 9, kind)
    result = sr.solve(grid)
    h.assert_kind(result, kind, 9)
    assert h.cells_of(result) == LEETCODE_SOLUTION


def test_leetcode_board_of_strings():
    result = sr.solve(copy.deepcopy(h.LEETCODE_BOARD))
    assert "".join(result[0]) == h.LEETCODE_FIRST_ROW
    assert result == [[str(v) for v in row] for row in solution_rows(LEETCODE_SOLUTION)]


def test_board_of_strings_with_zero_blanks():
    board = [["0" if v == "." else v for v in row] for row in h.LEETCODE_BOARD]
    assert "".join(sr.solve(board)[0]) == h.LEETCODE_FIRST_ROW


def test_list_of_ints():
    result = sr.solve(h.rows_of(h.LEETCODE, 9))
    assert result == solution_rows(LEETCODE_SOLUTION)


def test_tutorial_puzzle_as_text():
    result = sr.solve("".join(h.TUTORIAL_ROWS))
    assert (result[0:9], result[9:18], result[18:27]) == h.TUTORIAL_FIRST_ROWS
    h.assert_solution_of(h.TUTORIAL, result, 9, BOX9)


def test_text_with_zero_blanks():
    text = h.make_input(h.TUTORIAL, 9, "text").replace(".", "0")
    assert sr.solve(text) == ref.to_string(ref.solve_first(h.TUTORIAL, 9, *BOX9))


@pytest.mark.parametrize(
    "layout",
    [
        lambda rows: "\n".join(rows),
        lambda rows: "\n".join(rows) + "\n",
        lambda rows: "\r\n".join(rows) + "\r\n",
        lambda rows: "\n".join(" ".join(row) for row in rows),
        lambda rows: "\t".join(rows),
        lambda rows: "  \n" + "\n\n".join(rows) + "\n  ",
        lambda rows: "\n".join(row[:3] + " " + row[3:6] + " " + row[6:] for row in rows),
    ],
    ids=["lines", "final-newline", "crlf", "spaced", "tabs", "padded", "box-gaps"],
)
def test_text_keeps_layout(layout):
    puzzle_text = layout(h.TUTORIAL_ROWS)
    solution = ref.to_string(ref.solve_first(h.TUTORIAL, 9, *BOX9))
    expected = layout([solution[r * 9 : (r + 1) * 9] for r in range(9)])
    assert sr.solve(puzzle_text) == expected


def test_text_lowercase_letters_accepted():
    rng = random.Random(16)
    puzzle, _ = h.random_puzzle(16, 4, 4, rng, 0.5)
    text = ref.to_string(puzzle)
    assert any(c.isalpha() for c in text)
    result = sr.solve(text.lower())
    assert len(result) == len(text)
    h.assert_solution_of(puzzle, result, 16, (4, 4))
    # Blanks are filled with solution characters: digits or capitals.
    for p, s in zip(text, result):
        if p == ".":
            assert s in ref.CHARS[:16]


def test_board_of_strings_lowercase_letters_accepted():
    rng = random.Random(160)
    puzzle, _ = h.random_puzzle(16, 4, 4, rng, 0.5)
    board = [[c.lower() for c in row] for row in h.make_input(puzzle, 16, "strs")]
    result = sr.solve(board)
    h.assert_kind(result, "strs", 16)
    assert all(c in ref.CHARS[:16] for row in result for c in row)
    h.assert_solution_of(puzzle, result, 16, (4, 4))


# ------------------------------------------------------------ ints in lists


@pytest.mark.parametrize("scalar", [np.int8, np.int32, np.int64, np.uint8, np.uint64])
def test_numpy_scalars_in_lists(scalar):
    grid = [[scalar(v) for v in row] for row in h.rows_of(h.LEETCODE, 9)]
    result = sr.solve(grid)
    h.assert_kind(result, "ints", 9)
    assert result == solution_rows(LEETCODE_SOLUTION)


def test_integral_floats_in_lists():
    grid = [[float(v) for v in row] for row in h.rows_of(h.LEETCODE, 9)]
    result = sr.solve(grid)
    assert type(result) is list and len(result) == 9
    assert result == solution_rows(LEETCODE_SOLUTION)


def test_list_result_is_new():
    grid = h.rows_of(LEETCODE_SOLUTION, 9)  # already solved: nothing to fill
    result = sr.solve(grid)
    assert result == grid
    assert result is not grid
    assert all(a is not b for a, b in zip(result, grid))


# ------------------------------------------------------------ numpy


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_numpy_dtypes(dtype):
    arr = h.make_input(h.LEETCODE, 9, "numpy", dtype=dtype)
    result = sr.solve(arr)
    h.assert_kind(result, "numpy", 9, dtype=dtype)
    assert result.tolist() == solution_rows(LEETCODE_SOLUTION)


@pytest.mark.parametrize("dtype", ["int8", "uint8", ">i2"])
def test_numpy_dtypes_25x25(dtype):
    rng = random.Random(25)
    puzzle, _ = h.random_puzzle(25, 5, 5, rng, 0.4)
    result = sr.solve(h.make_input(puzzle, 25, "numpy", dtype=dtype))
    h.assert_kind(result, "numpy", 25, dtype=dtype)
    h.assert_solution_of(puzzle, result, 25, (5, 5))


def _fortran(cells):
    return np.asfortranarray(np.array(h.rows_of(cells, 9)))


def _transposed_storage(cells):
    # Memory holds the transpose; the view shows the puzzle itself.
    return np.array(h.rows_of(cells, 9)).T.copy().T


def _strided(cells):
    big = np.full((18, 27), 7, dtype=np.int32)
    big[::2, ::3] = h.rows_of(cells, 9)
    return big[::2, ::3]


def _read_only(cells):
    arr = np.array(h.rows_of(cells, 9), dtype=np.int16)
    arr.flags.writeable = False
    return arr


def _negative_strides(cells):
    # Memory holds the puzzle turned 180 degrees; the view turns it back.
    return np.array(h.rows_of(cells, 9))[::-1, ::-1].copy()[::-1, ::-1]


@pytest.mark.parametrize(
    "make",
    [_fortran, _transposed_storage, _strided, _read_only, _negative_strides],
    ids=["fortran", "transposed-storage", "strided", "read-only", "negative-strides"],
)
def test_numpy_memory_layouts(make):
    arr = make(h.LEETCODE)
    assert arr.tolist() == h.rows_of(h.LEETCODE, 9)  # the view shows the puzzle
    before = arr.copy()
    result = sr.solve(arr)
    h.assert_kind(result, "numpy", 9, dtype=arr.dtype)
    assert result.tolist() == solution_rows(LEETCODE_SOLUTION)
    assert np.array_equal(arr, before)


def test_numpy_transposed_view_is_read_as_shown():
    arr = np.array(h.rows_of(h.LEETCODE, 9)).T  # shows the transposed puzzle
    result = sr.solve(arr)
    # The transpose of a Sudoku is a Sudoku; its solution is the transpose.
    assert result.tolist() == np.array(solution_rows(LEETCODE_SOLUTION)).T.tolist()


def test_numpy_rotated_view_is_read_as_shown():
    arr = np.array(h.rows_of(h.LEETCODE, 9))[::-1, ::-1]  # puzzle turned 180 degrees
    result = sr.solve(arr)
    assert result.tolist() == np.array(solution_rows(LEETCODE_SOLUTION))[::-1, ::-1].tolist()


def test_numpy_result_is_new_array():
    arr = np.array(h.rows_of(LEETCODE_SOLUTION, 9), dtype=np.int32)  # already solved
    result = sr.solve(arr)
    assert result is not arr
    assert not np.shares_memory(result, arr)
    assert np.array_equal(result, arr)


# ------------------------------------------------------------ all functions


@pytest.mark.parametrize("kind", h.KINDS)
def test_solutions_same_kind_and_first_is_solve(kind):
    puzzle = h.two_solution_puzzle(LEETCODE_SOLUTION, 9, *BOX9)
    grid = h.make_input(puzzle, 9, kind)
    sols = sr.solutions(grid)
    assert type(sols) is list and len(sols) == 2
    for s in sols:
        h.assert_kind(s, kind, 9)
        h.assert_solution_of(puzzle, s, 9, BOX9)
    assert h.cells_of(sols[0]) != h.cells_of(sols[1])
    assert h.same_grid(sols[0], sr.solve(grid))


@pytest.mark.parametrize("kind", h.KINDS)
def test_predicates_accept_every_kind(kind):
    grid = h.make_input(h.LEETCODE, 9, kind)
    assert sr.is_valid(grid) is True
    assert sr.is_unique(grid) is True
    assert sr.count_solutions(grid) == 1


@pytest.mark.parametrize("kind", ["ints", "strs", "numpy"])
@pytest.mark.parametrize("func", ["solve", "solutions", "count_solutions", "is_unique", "is_valid"])
def test_input_never_modified(kind, func):
    puzzle = h.two_solution_puzzle(LEETCODE_SOLUTION, 9, *BOX9)
    grid = h.make_input(puzzle, 9, kind)
    before = copy.deepcopy(grid)
    getattr(sr, func)(grid)
    assert h.same_grid(grid, before)


def test_numpy_float_scalars_in_lists_count_when_integral():
    rows = [[np.float32(v) for v in row] for row in h.rows_of(h.LEETCODE, 9)]
    assert sr.solve(rows)[0] == [int(c) for c in h.LEETCODE_FIRST_ROW]
    rows[0][2] = np.float32(2.5)
    with pytest.raises(sr.InvalidPuzzleError, match="row 0, column 2"):
        sr.solve(rows)


class _Row(list):
    pass


class _Int(int):
    pass


class _Str(str):
    pass


def test_plain_and_general_readings_agree():
    # Exact lists of exact ints (or one-character strs) take a quicker reading than
    # subclasses, tuples and other cell types; the answers and the errors are the same.
    rows = h.rows_of(h.LEETCODE, 9)
    board = [list(row) for row in h.LEETCODE_BOARD]
    plain = sr.solve(rows)
    assert sr.solve([_Row(r) for r in rows]) == plain
    assert sr.solve([tuple(r) for r in rows]) == plain
    assert sr.solve([[_Int(v) for v in r] for r in rows]) == plain
    for bad in (
        [r[:] for r in rows[:8]],
        [rows[0][:8]] + [r[:] for r in rows[1:]],
        [[10] + rows[0][1:]] + [r[:] for r in rows[1:]],
        [[-1] + rows[0][1:]] + [r[:] for r in rows[1:]],
        [[2**70] + rows[0][1:]] + [r[:] for r in rows[1:]],
        [[True] + rows[0][1:]] + [r[:] for r in rows[1:]],
        [[str(v) for v in rows[0]]] + [r[:] for r in rows[1:]],
        [["A"] + board[0][1:]] + [r[:] for r in board[1:]],
        [["a"] + board[0][1:]] + [r[:] for r in board[1:]],
        [],
    ):
        errors = []
        for grid in (bad, [_Row(r) for r in bad]):
            with pytest.raises((ValueError, TypeError)) as caught:
                sr.solve(grid)
            errors.append((type(caught.value), str(caught.value)))
        assert errors[0] == errors[1], bad


def test_cells_read_alike_whether_or_not_they_are_pythons_shared_objects():
    # CPython keeps one object per small int and per one-character ASCII string; a cell that
    # is one of those is read by its address, any other cell through its value.
    rows = h.rows_of(h.LEETCODE, 9)
    shared = [list(row) for row in h.LEETCODE_BOARD]
    made = [[str(v) if v else "." for v in r] for r in rows]  # str(int) makes a new str
    subclassed = [[_Str(c) for c in r] for r in shared]
    answer = sr.solve(shared)
    assert answer == [[str(v) for v in r] for r in solution_rows(LEETCODE_SOLUTION)]
    assert sr.solve(made) == answer
    assert sr.solve(subclassed) == answer
    assert sr.count_solutions(made) == sr.count_solutions(shared) == 1
    # Out of range for a 9x9 grid however the cell is made: the general reading's error.
    for cell, grid in (("A", shared), (_Str("A"), shared), (10, rows), (_Int(10), rows)):
        with pytest.raises(sr.InvalidPuzzleError, match="row 0, column 0"):
            sr.solve([[cell] + grid[0][1:]] + grid[1:])
