"""What crosses a process boundary (Dask, multiprocessing) pickles: the functions, compiled or
not, and the exceptions with their class and message."""

import multiprocessing
import pickle
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest
import reference as ref
from helpers import LEETCODE, NO_SOLUTION

import sudoku_rs as sr

EXCEPTIONS = [sr.SudokuError, sr.InvalidPuzzleError, sr.NoSolutionError]
PUBLIC_FUNCTIONS = [getattr(sr, name) for name in sr.__all__ if name[0].islower()]
PUBLIC_FUNCTIONS = [f for f in PUBLIC_FUNCTIONS if callable(f)]
# The compiled functions the public wrappers call, which a task graph may hold directly.
COMPILED = [sr._sudoku_rs.solve, sr._sudoku_rs._rate, sr._sudoku_rs._grade]

CONFLICT = "11" + "." * 79
CONFLICT_MESSAGE = (
    "conflicting clues: 1 appears twice in one row, at (0, 0) and (0, 1) "
    "(row, column, counted from 0)"
)


def test_public_functions_are_all_checked():
    names = {f.__name__ for f in PUBLIC_FUNCTIONS}
    assert {"solve", "solve_batch", "count_solutions_batch", "read_puzzles"} <= names


@pytest.mark.parametrize("fn", PUBLIC_FUNCTIONS + COMPILED, ids=lambda f: f.__name__)
def test_functions_pickle_by_reference(fn):
    assert pickle.loads(pickle.dumps(fn)) is fn


@pytest.mark.parametrize("cls", EXCEPTIONS, ids=lambda c: c.__name__)
def test_exceptions_keep_class_and_message(cls):
    again = pickle.loads(pickle.dumps(cls("row 3 is bad")))
    assert type(again) is cls
    assert str(again) == "row 3 is bad" and again.args == ("row 3 is bad",)
    assert isinstance(again, ValueError)


def test_raised_errors_keep_class_and_message():
    with pytest.raises(sr.InvalidPuzzleError) as invalid:
        sr.solve(CONFLICT)
    with pytest.raises(sr.NoSolutionError) as none:
        sr.solve(ref.to_string(NO_SOLUTION))
    for info in (invalid, none):
        again = pickle.loads(pickle.dumps(info.value))
        assert type(again) is info.type and str(again) == str(info.value)
    assert str(invalid.value) == CONFLICT_MESSAGE


@pytest.fixture(scope="module")
def other_process():
    """A pool of one fresh interpreter (spawn: nothing inherited from this process)."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


def test_calls_in_another_process_return_and_raise_as_in_process(other_process):
    leet = ref.to_string(LEETCODE)
    assert other_process.submit(sr.solve, leet).result() == sr.solve(leet)
    puzzles = np.array([LEETCODE, NO_SOLUTION], dtype=np.int16)
    got = other_process.submit(sr.solve_batch, puzzles, threads=1).result()
    np.testing.assert_array_equal(got, sr.solve_batch(puzzles))
    assert got.dtype == np.int16

    with pytest.raises(sr.InvalidPuzzleError) as invalid:
        other_process.submit(sr.solve, CONFLICT).result()
    assert type(invalid.value) is sr.InvalidPuzzleError
    assert str(invalid.value) == CONFLICT_MESSAGE
    with pytest.raises(sr.NoSolutionError, match=r"^the puzzle has no solution$"):
        other_process.submit(sr.solve, ref.to_string(NO_SOLUTION)).result()
