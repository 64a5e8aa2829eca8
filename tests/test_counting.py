"""count_solutions, solutions and is_unique: exact counts, limits, distinct
solutions, and solve's answer being the first one, deterministically."""

import helpers as h
import pytest
import reference as ref

import sudoku_rs as sr

BOX9 = (3, 3)
LEETCODE_SOLUTION = ref.solve_first(h.LEETCODE, 9, *BOX9)
TWO_SOLUTIONS = h.two_solution_puzzle(LEETCODE_SOLUTION, 9, *BOX9)
EMPTY4 = [0] * 16
EMPTY9 = [0] * 81


def distinct_solutions(puzzle, results, n, box):
    """Every result solves `puzzle`; returns them as a set of strings."""
    for result in results:
        h.assert_solution_of(puzzle, result, n, box)
    found = {ref.to_string(h.cells_of(result)) for result in results}
    assert len(found) == len(results), "solutions repeat"
    return found


# ------------------------------------------------------------ exact counts


@pytest.mark.parametrize("kind", h.KINDS)
def test_empty_4x4_has_288_solutions(kind):
    grid = h.make_input(EMPTY4, 4, kind)
    assert sr.count_solutions(grid) == 288
    assert sr.count_solutions(grid, limit=None) == 288
    assert sr.count_solutions(grid, limit=1000) == 288
    assert sr.is_unique(grid) is False


def test_all_4x4_solutions():
    sols = sr.solutions(h.make_input(EMPTY4, 4, "text"), limit=300)
    assert len(sols) == 288
    assert distinct_solutions(EMPTY4, sols, 4, (2, 2)) == {
        ref.to_string(s) for s in ref.iter_solutions(EMPTY4, 4, 2, 2)
    }


@pytest.mark.parametrize("kind", h.KINDS)
def test_unique_puzzle(kind):
    grid = h.make_input(h.LEETCODE, 9, kind)
    assert sr.count_solutions(grid) == 1
    assert sr.count_solutions(grid, limit=1) == 1
    assert sr.count_solutions(grid, limit=2) == 1
    assert sr.is_unique(grid) is True
    sols = sr.solutions(grid)
    assert len(sols) == 1
    assert h.cells_of(sols[0]) == LEETCODE_SOLUTION


@pytest.mark.parametrize("kind", h.KINDS)
def test_two_solution_puzzle(kind):
    grid = h.make_input(TWO_SOLUTIONS, 9, kind)
    assert sr.count_solutions(grid) == 2
    assert sr.count_solutions(grid, limit=1) == 1
    assert sr.count_solutions(grid, limit=2) == 2
    assert sr.is_unique(grid) is False
    sols = sr.solutions(grid, limit=5)
    assert distinct_solutions(TWO_SOLUTIONS, sols, 9, BOX9) == {
        ref.to_string(s) for s in ref.iter_solutions(TWO_SOLUTIONS, 9, *BOX9)
    }
    assert len(sr.solutions(grid, limit=1)) == 1


def test_full_grid_is_its_own_unique_solution():
    grid = h.make_input(LEETCODE_SOLUTION, 9, "ints")
    assert sr.count_solutions(grid) == 1
    assert sr.is_unique(grid) is True
    assert sr.solve(grid) == grid
    assert sr.solutions(grid) == [grid]


# ------------------------------------------------------------ limits


@pytest.mark.parametrize("limit", [1, 2, 3, 5, 17])
def test_count_stops_at_limit(limit):
    grid = h.make_input(EMPTY9, 9, "text")
    assert sr.count_solutions(grid, limit=limit) == limit


@pytest.mark.parametrize("limit", [1, 2, 5, 10, 25])
def test_solutions_stops_at_limit(limit):
    sols = sr.solutions(h.make_input(EMPTY9, 9, "ints"), limit=limit)
    assert len(sols) == limit
    distinct_solutions(EMPTY9, sols, 9, BOX9)


def test_solutions_default_limit_is_10():
    grid = h.make_input(EMPTY9, 9, "strs")
    assert len(sr.solutions(grid)) == 10


@pytest.mark.parametrize("limit", [1, 2, 3, 100])
def test_limit_above_count(limit):
    grid = h.make_input(TWO_SOLUTIONS, 9, "numpy")
    assert sr.count_solutions(grid, limit=limit) == min(limit, 2)
    assert len(sr.solutions(grid, limit=limit)) == min(limit, 2)


def test_empty_9x9_count_with_limit_5():
    assert sr.count_solutions(h.make_input(EMPTY9, 9, "ints"), limit=5) == 5
    assert sr.is_unique(h.make_input(EMPTY9, 9, "ints")) is False


# ------------------------------------------------------------ first solution


@pytest.mark.parametrize("kind", h.KINDS)
@pytest.mark.parametrize("cells", [EMPTY9, TWO_SOLUTIONS], ids=["empty", "two"])
def test_solve_is_first_of_solutions(kind, cells):
    grid = h.make_input(cells, 9, kind)
    first = sr.solve(grid)
    h.assert_solution_of(cells, first, 9, BOX9)
    for limit in (1, 2, 10):
        assert h.same_grid(sr.solutions(grid, limit=limit)[0], first)


@pytest.mark.parametrize("cells", [EMPTY9, TWO_SOLUTIONS, EMPTY4], ids=["empty9", "two", "empty4"])
def test_results_are_deterministic(cells):
    n = 4 if len(cells) == 16 else 9
    grid = h.make_input(cells, n, "text")
    first = sr.solve(grid)
    sols = sr.solutions(grid, limit=20)
    for _ in range(3):
        assert sr.solve(grid) == first
        assert sr.solutions(grid, limit=20) == sols


def test_solve_does_not_depend_on_kind():
    found = {
        ref.to_string(h.cells_of(sr.solve(h.make_input(TWO_SOLUTIONS, 9, kind))))
        for kind in h.KINDS
    }
    assert len(found) == 1
