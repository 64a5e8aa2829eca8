"""max_guesses: a bounded search that gives up with GuessLimitError (never a wrong answer, a
partial count or "no solution"), and the batch status codes that tell a row that gave up from
one that is invalid or unsolvable."""

import numpy as np
import pytest
import reference as ref
from helpers import LEETCODE, NO_SOLUTION, read_lines

import sudoku_rs as sr
from sudoku_rs.cli import main

EMPTY = "." * 81
LEETCODE_TEXT = ref.to_string(LEETCODE)
NO_SOLUTION_TEXT = ref.to_string(NO_SOLUTION)
MESSAGE = r"gave up after 1000 guesses \(max_guesses=1000\)"


# Consistent clues with no solution that take hundreds of guesses to refute: the first
# forum-hardest puzzle with one wrong (but not clashing) clue, a 2 at row 0, column 0.
HARD_UNSOLVABLE = (
    "2.......8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3"
)


@pytest.fixture(scope="module")
def hard_unsolvable():
    assert ref.count_solutions(ref.parse81(HARD_UNSOLVABLE), 9, 3, 3, limit=1) == 0
    return HARD_UNSOLVABLE


def test_every_search_function_gives_up_with_a_clear_error():
    calls = [
        lambda m: sr.solve(EMPTY, max_guesses=m),
        lambda m: sr.solutions(EMPTY, limit=10**6, max_guesses=m),
        lambda m: sr.count_solutions(EMPTY, max_guesses=m),
        lambda m: sr.is_unique(EMPTY, max_guesses=m),
    ]
    for call in calls:
        with pytest.raises(sr.GuessLimitError, match=MESSAGE.replace("1000", "5")):
            call(5)
    with pytest.raises(sr.GuessLimitError, match=MESSAGE):
        sr.count_solutions(EMPTY, max_guesses=1000)
    err = sr.GuessLimitError("x")
    assert isinstance(err, sr.SudokuError) and isinstance(err, ValueError)


def test_a_budget_large_enough_gives_the_unbounded_answer():
    assert sr.solve(LEETCODE_TEXT, max_guesses=1) == sr.solve(LEETCODE_TEXT)
    assert sr.solve(EMPTY, max_guesses=1000) == sr.solve(EMPTY)
    assert sr.count_solutions(EMPTY, limit=5, max_guesses=1000) == 5
    assert sr.solutions(EMPTY, limit=3, max_guesses=1000) == sr.solutions(EMPTY, limit=3)
    assert sr.is_unique(LEETCODE_TEXT, max_guesses=1) is True
    with pytest.raises(sr.NoSolutionError):
        sr.solve(NO_SOLUTION_TEXT, max_guesses=1)


def test_running_out_is_never_no_solution_or_a_count(hard_unsolvable):
    with pytest.raises(sr.GuessLimitError):
        sr.solve(hard_unsolvable, max_guesses=1)
    with pytest.raises(sr.GuessLimitError):
        sr.count_solutions(hard_unsolvable, max_guesses=1)
    with pytest.raises(sr.NoSolutionError):
        sr.solve(hard_unsolvable, max_guesses=10**9)
    assert sr.count_solutions(hard_unsolvable, max_guesses=10**9) == 0


@pytest.mark.parametrize("bad", [0, -1, -(2**63)])
def test_max_guesses_must_be_positive(bad):
    with pytest.raises(ValueError, match=f"max_guesses must be a positive integer, got {bad}"):
        sr.solve(LEETCODE_TEXT, max_guesses=bad)
    with pytest.raises(ValueError, match="max_guesses"):
        sr.count_solutions_batch([LEETCODE_TEXT], max_guesses=bad)


def test_huge_budgets_mean_no_practical_limit():
    # Past 2**63: no OverflowError (not a ValueError), just a budget nothing reaches.
    assert sr.count_solutions(NO_SOLUTION_TEXT, max_guesses=10**30) == 0
    assert sr.solve_batch([LEETCODE_TEXT], max_guesses=2**64, threads=10**30)[0]
    with pytest.raises(ValueError, match="max_guesses must be a positive integer"):
        sr.solve(LEETCODE_TEXT, max_guesses=-(10**30))


@pytest.mark.parametrize("bad", ["10", 1.5, [1]])
def test_max_guesses_must_be_an_int(bad):
    with pytest.raises(TypeError):
        sr.count_solutions(LEETCODE_TEXT, max_guesses=bad)
    with pytest.raises(TypeError):
        sr.solve_batch([LEETCODE_TEXT], max_guesses=bad)


def batch_rows(hard_unsolvable):
    """One row of each status, in Status order, as 81-character strings."""
    return [LEETCODE_TEXT, "55" + "." * 79, NO_SOLUTION_TEXT, hard_unsolvable]


def test_status_codes_tell_every_outcome_apart(hard_unsolvable):
    lines = batch_rows(hard_unsolvable) + [EMPTY, "x" * 81, None]
    expected = [0, 1, 2, 3, 0, 1, 1]
    solved, status = sr.solve_batch(lines, max_guesses=100, status=True)
    assert status.dtype == np.int8 and status.tolist() == expected
    assert [sr.Status(s) for s in status[:4]] == list(sr.Status)[:4]
    assert solved[0] == sr.solve(LEETCODE_TEXT)
    assert solved[1:4] == [None, None, None]
    assert solved[4] == sr.solve(EMPTY)  # needs a few dozen guesses
    puzzles = np.array([ref.parse81(line) for line in batch_rows(hard_unsolvable)], np.int16)
    grids, status = sr.solve_batch(puzzles.reshape(-1, 9, 9), max_guesses=1, status=True)
    assert grids.shape == (4, 9, 9) and grids.dtype == np.int16
    assert status.tolist() == [0, 1, 2, 3] and not grids[1:].any()


def test_counts_mark_rows_that_ran_out_with_minus_one(hard_unsolvable):
    lines = batch_rows(hard_unsolvable) + [EMPTY]
    counts = sr.count_solutions_batch(lines, max_guesses=1)
    assert counts.tolist() == [1, 0, 0, -1, -1]
    counts, status = sr.count_solutions_batch(lines, limit=2, max_guesses=1, status=True)
    assert counts.tolist() == [1, 0, 0, -1, -1]
    assert status.tolist() == [0, 1, 2, 3, 3]
    # Without a budget nothing changes: exact counts, no sentinel.
    assert sr.count_solutions_batch(lines).tolist() == [1, 0, 0, 0, 2]
    counts, status = sr.count_solutions_batch(lines, status=True)
    assert status.tolist() == [0, 1, 2, 2, 0]


def test_batch_budgets_do_not_depend_on_threads(data_dir):
    lines = read_lines(data_dir / "puzzles6_forum_hardest_1106", 20) + read_lines(
        data_dir / "puzzles7_serg_benchmark", 20
    )
    one = sr.count_solutions_batch(lines, max_guesses=20, threads=1, status=True)
    assert {0, 3} <= set(one[1].tolist()), "the budget should stop some rows, not all"
    for threads in (2, 4):
        two = sr.count_solutions_batch(lines, max_guesses=20, threads=threads, status=True)
        np.testing.assert_array_equal(one[0], two[0])
        np.testing.assert_array_equal(one[1], two[1])


def test_cli_max_guesses(tmp_path, hard_unsolvable, capsys):
    src = tmp_path / "in.txt"
    src.write_text("\n".join([LEETCODE_TEXT, hard_unsolvable, EMPTY]) + "\n")
    out = tmp_path / "out.txt"
    assert main(["count", str(src), "-o", str(out), "--max-guesses", "1", "-q"]) == 0
    assert out.read_text().split("\n") == ["1", "unknown", "unknown", ""]
    assert main(["check", str(src), "-o", str(out), "--max-guesses", "1"]) == 1
    assert out.read_text().split("\n") == ["unique", "unknown", "unknown", ""]
    assert "2 gave up" in capsys.readouterr().err
    assert main(["solve", str(src), "-o", str(out), "--max-guesses", "1", "-q"]) == 0
    solved = out.read_text().split("\n")
    assert solved[:2] == [sr.solve(LEETCODE_TEXT), ""]
    with pytest.raises(SystemExit):
        main(["solve", str(src), "--max-guesses", "0"])
