"""Checks of the oracle itself (tests/reference.py and the grid makers in
helpers.py): if these fail, no other test can be trusted."""

import random

import helpers as h
import pytest
import reference as ref


def test_reference_solves_leetcode_board():
    solution = ref.solve_first(h.LEETCODE, 9, 3, 3)
    assert ref.to_string(solution)[:9] == h.LEETCODE_FIRST_ROW
    assert ref.is_solution(h.LEETCODE, solution, 9, 3, 3)
    assert ref.count_solutions(h.LEETCODE, 9, 3, 3) == 1


def test_reference_solves_tutorial_puzzle():
    solution = ref.to_string(ref.solve_first(h.TUTORIAL, 9, 3, 3))
    assert (solution[0:9], solution[9:18], solution[18:27]) == h.TUTORIAL_FIRST_ROWS


def test_reference_counts_all_4x4_grids():
    # There are exactly 288 distinct 4x4 Sudoku grids.
    assert ref.count_solutions([0] * 16, 4, 2, 2) == 288
    assert ref.count_solutions([0] * 16, 4, 2, 2, limit=7) == 7


def test_reference_finds_no_solution():
    assert ref.conflicts(h.NO_SOLUTION, 9, 3, 3) == []
    assert ref.count_solutions(h.NO_SOLUTION, 9, 3, 3) == 0
    assert ref.solve_first(h.NO_SOLUTION, 9, 3, 3) is None


@pytest.mark.parametrize(
    ("i", "j"),
    [(0, 4), (9 * 1 + 3, 9 * 7 + 3), (9 * 3 + 3, 9 * 5 + 5)],
    ids=["row", "column", "box"],
)
def test_reference_conflicts(i, j):
    cells = [0] * 81
    cells[i] = cells[j] = 5
    assert ref.conflicts(cells, 9, 3, 3) == [(i, j)]
    assert ref.count_solutions(cells, 9, 3, 3) == 0


def test_reference_is_solution_rejects():
    full = ref.solve_first(h.LEETCODE, 9, 3, 3)
    assert ref.is_solution(h.LEETCODE, full, 9, 3, 3)
    assert not ref.is_solution(h.LEETCODE, full[:-1], 9, 3, 3)  # short
    holed = list(full)
    holed[40] = 0
    assert not ref.is_solution(h.LEETCODE, holed, 9, 3, 3)  # not full
    other_clues = list(h.LEETCODE)
    other_clues[2] = full[2] % 9 + 1
    assert not ref.is_solution(other_clues, full, 9, 3, 3)  # clue not kept
    swapped = list(full)
    swapped[0], swapped[1] = swapped[1], swapped[0]
    assert not ref.is_solution([0] * 81, swapped, 9, 3, 3)  # clashes


def test_parse_and_to_string():
    assert ref.parse81("1.0A\ng p") == [1, 0, 0, 10, 16, 25]
    line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
    assert ref.to_string(ref.parse81(line)) == line
    with pytest.raises(ValueError):
        ref.parse81("12?")


@pytest.mark.parametrize(
    ("n", "box"),
    [
        (4, (2, 2)),
        (6, (2, 3)),
        (6, (3, 2)),
        (8, (2, 4)),
        (9, (3, 3)),
        (12, (3, 4)),
        (16, (4, 4)),
        (25, (5, 5)),
    ],
)
def test_random_full_grids_are_valid(n, box):
    rng = random.Random(n)
    assert ref.is_solution([0] * n * n, h.pattern_grid(n, *box), n, *box)
    for _ in range(5):
        assert ref.is_solution([0] * n * n, h.random_full_grid(n, *box, rng), n, *box)


def test_two_solution_puzzle_has_two_solutions():
    full = ref.solve_first(h.LEETCODE, 9, 3, 3)
    puzzle = h.two_solution_puzzle(full, 9, 3, 3)
    assert ref.count_solutions(puzzle, 9, 3, 3) == 2
