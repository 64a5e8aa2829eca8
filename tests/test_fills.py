"""fill_from_solution: givens kept, only solution digits added, exact clue counts, unique=True
results checked by counting, rows seeded by (seed, i) whatever the threads or the other rows, and
bad input named by row."""

import numpy as np
import pytest
import reference as ref

import sudoku_rs as sr

SHAPES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}


def solved_grids(count, n, seed):
    """`count` solved grids of side n, made from one reference solution by the package's
    transforms (what is checked here is the fill, not where the grids come from)."""
    br, bc = SHAPES[n]
    base = np.array(ref.solve_first([0] * (n * n), n, br, bc), np.uint8).reshape(1, n, n)
    grids = sr.augment_batch(np.repeat(base, count, axis=0), seed=seed, box=(br, bc))
    for grid in grids:
        assert ref.is_solution([0] * (n * n), grid.ravel().tolist(), n, br, bc)
    return grids


def blanked(solutions, givens, seed):
    """Each solution with all but `givens` cells blanked at random."""
    rng = np.random.default_rng(seed)
    out = solutions.reshape(len(solutions), -1).copy()
    for row in out:
        row[rng.permutation(row.size)[givens:]] = 0
    return out.reshape(solutions.shape)


def check_fill(puzzles, solutions, filled, clues):
    flat_p = puzzles.reshape(len(puzzles), -1)
    flat_s = solutions.reshape(len(solutions), -1)
    flat_f = filled.reshape(len(filled), -1)
    assert filled.shape == puzzles.shape and filled.dtype == puzzles.dtype
    assert ((flat_p == 0) | (flat_f == flat_p)).all(), "a given changed"
    assert ((flat_f == 0) | (flat_f == flat_s)).all(), "a digit not from the solution"
    assert ((flat_f != 0).sum(axis=1) == clues).all()


@pytest.mark.parametrize("n", [4, 6, 9])
def test_fills_keep_givens_and_add_solution_digits(n):
    solutions = solved_grids(40, n, seed=n)
    puzzles = blanked(solutions, n, seed=1)
    for clues in [n, n * n // 2, n * n]:
        filled = sr.fill_from_solution(puzzles, solutions, clues=clues, seed=3, box=SHAPES[n])
        check_fill(puzzles, solutions, filled, clues)
    filled = sr.fill_from_solution(puzzles, solutions, empty=n, seed=3, box=SHAPES[n])
    check_fill(puzzles, solutions, filled, n * n - n)


def test_without_solutions_each_puzzle_is_solved():
    solutions = solved_grids(20, 9, seed=5)
    puzzles = sr.generate_batch(20, seed=2)
    truth = sr.solve_batch(puzzles)
    filled = sr.fill_from_solution(puzzles, clues=50, seed=1)
    check_fill(puzzles, truth, filled, 50)
    # The same as passing the solutions.
    same = sr.fill_from_solution(puzzles, truth, clues=50, seed=1)
    assert (same == filled).all()
    assert solutions.shape == puzzles.shape


@pytest.mark.parametrize("n", [4, 6, 9])
def test_unique_fills_have_one_solution(n):
    solutions = solved_grids(30, n, seed=n + 1)
    puzzles = blanked(solutions, 1, seed=2)  # far from unique
    clues = {4: 12, 6: 28, 9: 45}[n]
    filled = sr.fill_from_solution(
        puzzles, solutions, clues=clues, seed=4, unique=True, box=SHAPES[n]
    )
    check_fill(puzzles, solutions, filled, clues)
    assert (sr.count_solutions_batch(filled, limit=2, box=SHAPES[n]) == 1).all()
    # On the small grids, the pure-Python count agrees.
    if n < 9:
        br, bc = SHAPES[n]
        for row in filled.reshape(len(filled), -1):
            assert ref.count_solutions(row.tolist(), n, br, bc, limit=2) == 1


def test_unique_when_the_count_is_too_small_raises_or_reports():
    solutions = solved_grids(6, 9, seed=8)
    puzzles = blanked(solutions, 0, seed=2)
    with pytest.raises(sr.SudokuError, match=r"puzzles\[0\]: still has several solutions"):
        sr.fill_from_solution(puzzles, solutions, clues=12, unique=True)
    filled, status = sr.fill_from_solution(puzzles, solutions, clues=12, unique=True, status=True)
    assert status.dtype == np.int8
    assert (status == sr.Status.NOT_UNIQUE).all()
    assert (filled == puzzles).all(), "refused rows come back unchanged"
    # Without unique=True the same count is a plain fill.
    filled = sr.fill_from_solution(puzzles, solutions, clues=12)
    check_fill(puzzles, solutions, filled, 12)


def test_rows_without_one_solution():
    good = sr.generate_batch(3, seed=9)
    puzzles = good.copy()
    puzzles[1] = 0  # several solutions
    puzzles[2, 0, :2] = [5, 5]  # conflicting givens
    with pytest.raises(sr.SudokuError, match=r"puzzles\[1\]: has several solutions"):
        sr.fill_from_solution(puzzles, clues=40)
    filled, status = sr.fill_from_solution(puzzles, clues=40, status=True)
    assert status.tolist() == [sr.Status.SOLVED, sr.Status.NOT_UNIQUE, sr.Status.INVALID]
    assert (filled[1:] == puzzles[1:]).all()
    check_fill(good[:1], sr.solve_batch(good[:1]), filled[:1], 40)
    puzzles[1] = good[1]
    with pytest.raises(sr.InvalidPuzzleError, match=r"puzzles\[2\]: conflicting clues"):
        sr.fill_from_solution(puzzles, clues=40)
    # Consistent givens with no completion.
    dead = np.zeros((1, 4, 4), np.uint8)
    dead[0, 0, :3] = [1, 2, 3]
    dead[0, 1, 3] = 4
    assert ref.count_solutions(dead.ravel().tolist(), 4, 2, 2) == 0
    with pytest.raises(sr.NoSolutionError, match=r"puzzles\[0\]"):
        sr.fill_from_solution(dead, clues=10)
    assert sr.fill_from_solution(dead, clues=10, status=True)[1].tolist() == [sr.Status.NO_SOLUTION]


def test_rows_depend_only_on_seed_index_and_row():
    solutions = solved_grids(300, 9, seed=11)
    puzzles = blanked(solutions, 20, seed=3)

    def fill(rows, **kwargs):
        return sr.fill_from_solution(
            rows, solutions, clues=36, seed=7, unique=True, status=True, **kwargs
        )

    runs = [fill(puzzles, threads=t) for t in (1, 2, None)]
    for filled, status in runs:
        assert (filled == runs[0][0]).all() and (status == runs[0][1]).all()
    assert (runs[0][1] == sr.Status.SOLVED).mean() > 0.5
    # Other rows changed: row 5 stays as it was.
    other = puzzles.copy()
    other[:5] = 0
    other[6:] = 0
    again, _ = fill(other)
    assert (again[5] == runs[0][0][5]).all()
    # Another seed gives other fills.
    moved = sr.fill_from_solution(puzzles, solutions, clues=36, seed=8, unique=True, status=True)
    assert (moved[0] != runs[0][0]).any()


def test_kinds_and_layouts():
    solutions = solved_grids(5, 9, seed=12)
    puzzles = blanked(solutions, 25, seed=4)
    expected = sr.fill_from_solution(puzzles, solutions, clues=40, seed=2)
    flat = sr.fill_from_solution(
        puzzles.reshape(5, 81).astype(np.int64), solutions.reshape(5, 81), clues=40, seed=2
    )
    assert flat.shape == (5, 81) and flat.dtype == np.int64
    assert (flat == expected.reshape(5, 81)).all()
    strings = ["".join(str(v) for v in row) for row in puzzles.reshape(5, 81)]
    texts = sr.fill_from_solution(strings, solutions, clues=40, seed=2)
    assert texts == ["".join(str(v or ".") for v in row) for row in expected.reshape(5, 81)]
    assert sr.fill_from_solution(puzzles[:0], clues=40).shape == (0, 9, 9)


def test_bad_input_names_the_row():
    solutions = solved_grids(4, 9, seed=13)
    puzzles = blanked(solutions, 30, seed=5)
    with pytest.raises(ValueError, match=r"exactly one of clues= .* and empty="):
        sr.fill_from_solution(puzzles, solutions)
    with pytest.raises(ValueError, match="exactly one of clues="):
        sr.fill_from_solution(puzzles, solutions, clues=40, empty=40)
    with pytest.raises(ValueError, match="clues=82 is more than the 81 cells"):
        sr.fill_from_solution(puzzles, solutions, clues=82)
    with pytest.raises(ValueError, match="empty=100 is more than the 81 cells"):
        sr.fill_from_solution(puzzles, solutions, empty=100)
    with pytest.raises(ValueError, match="clues must be an int of 0 or more"):
        sr.fill_from_solution(puzzles, solutions, clues=-1)
    with pytest.raises(TypeError, match="clues must be an int"):
        sr.fill_from_solution(puzzles, solutions, clues=40.0)
    fuller = puzzles.copy()
    fuller[2] = solutions[2]
    with pytest.raises(
        sr.InvalidPuzzleError, match=r"puzzles\[2\]: has 81 givens, more than clues=40"
    ):
        sr.fill_from_solution(fuller, solutions, clues=40)
    wrong = solutions.copy()
    wrong[3, 0, [0, 1]] = wrong[3, 0, [1, 0]]
    with pytest.raises(sr.InvalidPuzzleError, match=r"solutions\[3\] does not solve puzzles\[3\]"):
        sr.fill_from_solution(puzzles, wrong, clues=40)
    partial = solutions.copy()
    partial[1, 4, 4] = 0
    with pytest.raises(sr.InvalidPuzzleError, match=r"solutions\[1\] .*blank at \(4, 4\)"):
        sr.fill_from_solution(puzzles, partial, clues=40)
    with pytest.raises(sr.InvalidPuzzleError, match="solutions must hold one 9x9 grid per puzzle"):
        sr.fill_from_solution(puzzles, solutions[:3], clues=40)
    bad = puzzles.copy()
    bad[1, 0, 0] = 12
    with pytest.raises(sr.InvalidPuzzleError, match=r"puzzles\[1\]"):
        sr.fill_from_solution(bad, solutions, clues=40)
