"""solutions_batch: every solution up to limit of each row, checked against the pure-Python
reference on 4x4, 6x6 and sparse 9x9 grids."""

import numpy as np
import pytest
import reference as ref

import sudoku_rs as sr

SHAPES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}


def sparse(n, count, givens, seed):
    """`count` puzzles of side n: a solved grid (transformed per row) with `givens` cells kept."""
    br, bc = SHAPES[n]
    base = np.array(ref.solve_first([0] * (n * n), n, br, bc), np.uint8).reshape(1, n, n)
    grids = sr.augment_batch(np.repeat(base, count, axis=0), seed=seed, box=(br, bc))
    grids = grids.reshape(count, -1)
    rng = np.random.default_rng(seed)
    for row in grids:
        row[rng.permutation(n * n)[givens:]] = 0
    return grids.reshape(count, n, n)


def check_against_reference(puzzles, limit):
    n = puzzles.shape[-1]
    br, bc = SHAPES[n]
    solutions, counts = sr.solutions_batch(puzzles, limit=limit, box=(br, bc))
    assert solutions.shape == (len(puzzles), limit, n, n) and solutions.dtype == np.uint8
    assert counts.shape == (len(puzzles),) and counts.dtype == np.int64
    for puzzle, found, count in zip(puzzles, solutions, counts):
        cells = puzzle.ravel().tolist()
        every = {tuple(s) for s in ref.iter_solutions(cells, n, br, bc)}
        assert count == min(len(every), limit)
        got = [tuple(s.ravel().tolist()) for s in found[:count]]
        assert len(set(got)) == count, "a solution twice"
        assert set(got) <= every
        if len(every) <= limit:
            assert set(got) == every
        assert not found[count:].any(), "zeros past the count"
        # The order of solutions() for one grid.
        assert got == [
            tuple(s.ravel().tolist()) for s in sr.solutions(puzzle, limit=limit, box=(br, bc))
        ]


@pytest.mark.parametrize(("n", "givens"), [(4, 2), (4, 5), (6, 10), (6, 16)])
def test_small_grids_match_the_reference(n, givens):
    check_against_reference(sparse(n, 12, givens, seed=n + givens), limit=5)
    check_against_reference(sparse(n, 4, givens, seed=givens), limit=200)


def test_sparse_nine_with_a_handful_of_solutions():
    puzzles = sparse(9, 10, 60, seed=3)
    counts = sr.count_solutions_batch(puzzles, limit=None)
    assert (counts > 1).any()
    check_against_reference(puzzles, limit=int(counts.max()))
    check_against_reference(puzzles, limit=2)


def test_kinds_threads_and_bad_rows():
    puzzles = sparse(9, 50, 55, seed=4)
    expected = sr.solutions_batch(puzzles, limit=3, threads=1)
    for threads in (2, None):
        got = sr.solutions_batch(puzzles, 3, threads=threads)
        assert (got[0] == expected[0]).all() and (got[1] == expected[1]).all()
    flat = puzzles.reshape(50, 81).astype(np.int32)
    got = sr.solutions_batch(flat, limit=3)
    assert (got[0] == expected[0]).all()
    strings = ["".join(str(v) for v in row) for row in flat]
    strings[1] = "not a puzzle"
    conflict = list(strings[2])
    conflict[:2] = ["7", "7"]
    strings[2] = "".join(conflict)
    sols, counts = sr.solutions_batch(strings, limit=3)
    assert counts[0] == expected[1][0] and (sols[0] == expected[0][0]).all()
    assert counts[1] == counts[2] == 0 and not sols[1:3].any()
    empty = sr.solutions_batch(puzzles[:0], limit=4)
    assert empty[0].shape == (0, 4, 9, 9) and empty[1].shape == (0,)


def test_guess_limit_counts_minus_one():
    sols, counts = sr.solutions_batch(np.zeros((2, 16, 16), np.uint8), limit=2, max_guesses=1)
    assert counts.tolist() == [-1, -1] and not sols.any()
    sols, counts = sr.solutions_batch(np.zeros((2, 16, 16), np.uint8), limit=2)
    assert counts.tolist() == [2, 2]
    for s in sols.reshape(4, 256):
        assert ref.is_solution([0] * 256, s.tolist(), 16, 4, 4)


def test_limit_must_be_positive():
    puzzles = sparse(4, 2, 3, seed=1)
    with pytest.raises(ValueError, match="limit must be a positive integer"):
        sr.solutions_batch(puzzles, limit=None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="limit must be a positive integer"):
        sr.solutions_batch(puzzles, limit=0)
