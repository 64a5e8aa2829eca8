"""The public names, the exception classes and the call signatures."""

import helpers as h
import pytest

import sudoku_rs as sr

FUNCTIONS = ["solve", "solutions", "count_solutions", "is_unique", "is_valid"]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_function_is_exported(name):
    assert callable(getattr(sr, name))


def test_exception_hierarchy():
    assert issubclass(sr.SudokuError, ValueError)
    assert issubclass(sr.InvalidPuzzleError, sr.SudokuError)
    assert issubclass(sr.NoSolutionError, sr.SudokuError)
    assert not issubclass(sr.InvalidPuzzleError, sr.NoSolutionError)
    assert not issubclass(sr.NoSolutionError, sr.InvalidPuzzleError)


def test_errors_can_be_caught_as_value_error():
    with pytest.raises(ValueError):
        sr.solve(h.make_input(h.NO_SOLUTION, 9, "ints"))
    with pytest.raises(ValueError):
        sr.solve("1" * 81)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_grid_is_positional_only(name):
    with pytest.raises(TypeError):
        getattr(sr, name)(grid=h.make_input(h.LEETCODE, 9, "text"))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_box_is_keyword_only(name):
    with pytest.raises(TypeError):
        getattr(sr, name)(h.make_input(h.LEETCODE, 9, "text"), (3, 3))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_box_keyword_accepted(name):
    # Just that the documented keyword exists; results are checked elsewhere.
    getattr(sr, name)(h.make_input(h.LEETCODE, 9, "text"), box=(3, 3))


@pytest.mark.parametrize("name", ["solutions", "count_solutions"])
def test_limit_is_keyword_only(name):
    with pytest.raises(TypeError):
        getattr(sr, name)(h.make_input(h.LEETCODE, 9, "text"), 2)


def test_default_limits():
    empty = h.make_input([0] * 81, 9, "text")
    assert len(sr.solutions(empty)) == 10
    assert sr.count_solutions(h.make_input([0] * 16, 4, "text")) == 288
