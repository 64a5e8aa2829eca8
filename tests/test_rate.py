"""sr.rate and sr.rate_batch against a pure-Python copy of the rating procedure."""

import numpy as np
import pytest
import rating_reference as rr
import reference as ref
from helpers import (
    LEETCODE,
    NO_SOLUTION,
    counting_bars,
    data_dir,
    make_input,
    spread_lines,
    two_solution_puzzle,
)

import sudoku_rs as sr

ESCARGOT = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


def expected_label(singles_only, guesses):
    """The documented table: easy = singles only, medium <= 10 guesses, hard <= 100."""
    if singles_only:
        return "easy"
    return "medium" if guesses <= 10 else "hard" if guesses <= 100 else "extreme"


def sample_puzzles():
    """A spread of easy to extreme 9x9 puzzles from the data sets."""
    lines = []
    for name in ("gen_easy35", "gen_minimal", "puzzles7_serg_benchmark", "puzzles2_17_clue"):
        lines += spread_lines(data_dir() / name, 6)
    return lines + [ESCARGOT]


@pytest.mark.parametrize("line", sample_puzzles())
def test_rating_matches_the_reference_procedure(line):
    cells = ref.parse81(line)
    guesses, backtracks, found = rr.rate(cells, 9, 3, 3)
    r = sr.rate(line)
    assert (r.guesses, r.backtracks, r.unique) == (guesses, backtracks, found == 1)
    assert r.singles_only == (rr.singles(list(cells), 9, 3, 3) == "solved")
    assert r.singles_only == (r.guesses == 0)
    assert r.difficulty == expected_label(r.singles_only, r.guesses)


def test_a_hard_puzzle_is_rated_hard_and_the_same_every_time():
    r = sr.rate(ESCARGOT)
    assert isinstance(r, sr.Rating)
    assert not r.singles_only and r.unique and r.backtracks > 0
    assert r.difficulty in ("hard", "extreme")
    assert sr.rate(ESCARGOT) == r
    assert r._fields == ("guesses", "backtracks", "singles_only", "unique", "difficulty")
    with pytest.raises(AttributeError):
        r.guesses = 0  # type: ignore[misc]


@pytest.mark.parametrize("kind", ["ints", "strs", "text", "numpy"])
def test_every_grid_kind_rates_the_same(kind):
    grid = make_input(ref.parse81(ESCARGOT), 9, kind)
    assert sr.rate(grid) == sr.rate(ESCARGOT)


def test_other_sizes_and_non_unique_puzzles():
    six = ref.parse81(sr.generate(size=6, box=(2, 3), seed=3))
    expected = rr.rate(six, 6, 2, 3)
    r = sr.rate(ref.to_string(six), box=(2, 3))
    assert (r.guesses, r.backtracks, r.unique) == (expected[0], expected[1], True)
    two = two_solution_puzzle(ref.solve_first(LEETCODE, 9, 3, 3), 9, 3, 3)
    r = sr.rate(ref.to_string(two))
    assert not r.unique and not r.singles_only and r.guesses >= 1


def test_bad_puzzles_raise():
    with pytest.raises(sr.NoSolutionError):
        sr.rate(ref.to_string(NO_SOLUTION))
    with pytest.raises(sr.InvalidPuzzleError, match="conflicting clues"):
        sr.rate("55" + "." * 79)
    with pytest.raises(sr.InvalidPuzzleError):
        sr.rate("." * 80)


def test_batch_rows_match_single_ratings_and_flag_bad_rows():
    lines = sample_puzzles()
    bad = ["55" + "." * 79, "x" * 81, "." * 80]
    unsolvable = [ref.to_string(NO_SOLUTION)]
    batch = sr.rate_batch(lines + bad + unsolvable, threads=2)
    assert batch.dtype.names == (*sr.Rating._fields, "status")
    assert batch.shape == (len(lines) + len(bad) + 1,)
    for line, row in zip(lines, batch):
        assert tuple(row.tolist()) == (*sr.rate(line), sr.Status.SOLVED)
    for row in batch[len(lines) : len(lines) + len(bad)]:
        assert tuple(row.tolist()) == (-1, -1, False, False, "invalid", sr.Status.INVALID)
    # No solution is told apart from malformed, as Status does (rate raises NoSolutionError).
    assert tuple(batch[-1].tolist()) == (-1, -1, False, False, "no solution", sr.Status.NO_SOLUTION)


def test_batch_status_matches_solve_batch_status():
    lines = sample_puzzles()[:20] + ["55" + "." * 79, ref.to_string(NO_SOLUTION), "x"]
    _, status = sr.solve_batch(lines, status=True)
    rated = sr.rate_batch(lines)
    assert rated["status"].tolist() == status.tolist()
    labels = {sr.Status.INVALID: "invalid", sr.Status.NO_SOLUTION: "no solution"}
    for row in rated:
        if row["status"] != sr.Status.SOLVED:
            assert row["difficulty"] == labels[row["status"]]


def test_batch_takes_arrays_and_ignores_threads():
    lines = sample_puzzles()
    array = np.array([ref.parse81(line) for line in lines], dtype=np.int16)
    by_strings = sr.rate_batch(lines, threads=1)
    assert np.array_equal(sr.rate_batch(array, threads=3), by_strings)
    assert np.array_equal(sr.rate_batch(array.reshape(-1, 9, 9)), by_strings)


def test_batch_progress(capsys, monkeypatch):
    lines = sample_puzzles()
    with monkeypatch.context() as patched:
        bars = counting_bars(patched)
        sr.rate_batch(lines * 5, progress=True)
    assert bars == [{"total": len(lines) * 5, "desc": "rating", "done": len(lines) * 5}]
    assert len(sr.rate_batch(lines, progress=True)) == len(lines)
    assert "rating" in capsys.readouterr().err
