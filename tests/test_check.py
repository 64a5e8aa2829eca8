"""sr.check_batch against plain Python checks, on right answers and corrupted ones."""

import random

import numpy as np
import pytest
import reference as ref
from helpers import LEETCODE, counting_bars, random_full_grid, two_solution_puzzle

import sudoku_rs as sr


def py_flags(puzzle, answer, n=9, box=(3, 3)):
    """(valid, keeps_clues, unique, correct) by the reference."""
    valid = all(1 <= v <= n for v in answer) and not ref.conflicts(answer, n, *box)
    keeps = all(p == 0 or p == a for p, a in zip(puzzle, answer))
    unique = ref.count_solutions(puzzle, n, *box, limit=2) == 1
    return valid, keeps, unique, valid and keeps and unique


def cases():
    """(puzzle, answer) pairs: right answers and every kind of wrong one."""
    rng = random.Random(5)
    puzzles = [r.ravel().tolist() for r in sr.generate_batch(6, seed=8, clues=28)]
    out = []
    for puzzle in puzzles:
        solution = ref.solve_first(puzzle, 9, 3, 3)
        out.append((puzzle, solution))  # right
        blank = [i for i, v in enumerate(puzzle) if v == 0]
        clue = [i for i, v in enumerate(puzzle) if v != 0]
        flipped = list(solution)  # a blank cell's digit changed: a clash
        i = rng.choice(blank)
        flipped[i] = flipped[i] % 9 + 1
        out.append((puzzle, flipped))
        dropped = list(solution)  # a clue's cell left empty
        dropped[rng.choice(clue)] = 0
        out.append((puzzle, dropped))
        relabelled = [v % 9 + 1 for v in solution]  # valid grid, clues lost
        out.append((puzzle, relabelled))
        out.append((puzzle, random_full_grid(9, 3, 3, rng)))  # another valid grid
    # A puzzle with two solutions: the other solution is valid and keeps the clues, but the
    # puzzle is not unique, so it is not "correct".
    solution = ref.solve_first(LEETCODE, 9, 3, 3)
    two = two_solution_puzzle(solution, 9, 3, 3)
    other = next(s for s in ref.iter_solutions(two, 9, 3, 3) if s != solution)
    out += [(two, solution), (two, other)]
    return out


def test_flags_agree_with_plain_python():
    pairs = cases()
    puzzles = np.array([p for p, _ in pairs], dtype=np.uint8)
    answers = np.array([a for _, a in pairs], dtype=np.int32)
    result = sr.check_batch(puzzles, answers, unique=True)
    assert result.dtype.names == ("valid", "keeps_clues", "unique", "correct")
    for (puzzle, answer), row in zip(pairs, result.tolist()):
        assert row == py_flags(puzzle, answer), (ref.to_string(puzzle), ref.to_string(answer))
    # Each kind of corruption shows up at least once, so every flag is exercised both ways.
    for field in result.dtype.names:
        assert result[field].any() and not result[field].all(), field


def test_without_unique_only_the_cheap_flags():
    pairs = cases()
    puzzles = [ref.to_string(p) for p, _ in pairs]
    answers = np.array([a for _, a in pairs], dtype=np.int64).reshape(-1, 9, 9)
    result = sr.check_batch(puzzles, answers, threads=2)
    assert result.dtype.names == ("valid", "keeps_clues")
    expected = [py_flags(p, a)[:2] for p, a in pairs]
    assert result.tolist() == expected
    assert np.array_equal(result, sr.check_batch(puzzles, answers, threads=1))


def test_bad_rows_are_flags_not_errors():
    puzzle = ref.to_string(LEETCODE)
    solution = ref.to_string(ref.solve_first(LEETCODE, 9, 3, 3))
    puzzles = [puzzle, puzzle, "x" * 81, puzzle]
    answers = [solution, "x" * 81, solution, solution[:80]]
    result = sr.check_batch(puzzles, answers, unique=True).tolist()
    assert result == [
        (True, True, True, True),
        (False, False, True, False),  # a malformed answer; the puzzle is still unique
        (False, False, False, False),  # a malformed puzzle
        (False, False, True, False),  # an answer of the wrong length
    ]


def test_other_sizes():
    puzzle = ref.parse81(sr.generate(size=6, box=(2, 3), seed=1))
    solution = ref.solve_first(puzzle, 6, 2, 3)
    result = sr.check_batch(
        np.array([puzzle, puzzle]), np.array([solution, puzzle]), box=(2, 3), unique=True
    )
    assert result.tolist() == [(True, True, True, True), (False, True, True, False)]


def test_mismatched_batches_raise():
    grids = np.zeros((3, 81), dtype=np.uint8)
    with pytest.raises(sr.InvalidPuzzleError, match="3 puzzles but 2 answers"):
        sr.check_batch(grids, grids[:2])
    with pytest.raises(sr.InvalidPuzzleError, match="do not fit the puzzles, which are 9x9"):
        sr.check_batch(grids, np.zeros((3, 16), dtype=np.uint8))
    with pytest.raises(TypeError):
        sr.check_batch(grids, np.zeros((3, 81), dtype=np.float64))
    with pytest.raises(TypeError):
        sr.check_batch(grids, 42)


def test_progress_reports_every_row(capsys, monkeypatch):
    puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    puzzles = [puzzle] * 40
    answers = [sr.solve(puzzle)] * 40
    with monkeypatch.context() as patched:
        bars = counting_bars(patched)
        sr.check_batch(puzzles, answers, unique=True, progress=True)
    assert bars == [{"total": 40, "desc": "checking", "done": 40}]
    flags = sr.check_batch(puzzles, answers, unique=True, progress=True)
    assert flags["correct"].all()
    assert "checking" in capsys.readouterr().err
