"""The benchmark sets: every answer checked by the reference solver.

The first lines of each set come from ../shared/data when present, else from
the samples in tests/data. With ../shared/data present, a few hundred
puzzles spread over each whole set are checked too. The reference solver is
slow on hard puzzles, so it only counts solutions on the easy sets; on the
hard ones its is_solution check judges the answer and the README's known
counts judge the count.
"""

import helpers as h
import pytest
import reference as ref

import sudoku_rs as sr

UNIQUE_9X9 = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "gen_easy35",
    "gen_minimal",
]
MULTI_9X9 = "puzzles7_serg_benchmark"
MIXED_9X9 = "gen_invalid"
# Sets on which the reference solver counts to 2 quickly.
REFERENCE_COUNTABLE = ["gen_easy35", "gen_minimal", MULTI_9X9, MIXED_9X9]
LARGE = {"gen_16x16": 16, "gen_25x25": 25}

FIRST = 30  # lines of each 9x9 set, as in tests/data
SPREAD = 300  # lines spread over each whole 9x9 set, with ../shared/data


def kind_for(i):
    """Rotate through the input kinds so every kind meets real puzzles."""
    return h.KINDS[i % len(h.KINDS)]


def check_solved(line, n, kind, expected_count=None):
    """solve gives a solution that keeps the clues, the count to 2 is 1 or 2
    (`expected_count` if given), and solutions(limit=2) finds that many
    distinct solutions. Returns the count."""
    box = h.box_for(n)
    puzzle = ref.parse81(line)
    grid = h.make_input(puzzle, n, kind)
    first = sr.solve(grid)
    h.assert_solution_of(puzzle, first, n, box)
    count = sr.count_solutions(grid, limit=2)
    if expected_count is not None:
        assert count == expected_count, line
    assert count in (1, 2), line
    sols = sr.solutions(grid, limit=2)
    assert len(sols) == count, line
    assert h.same_grid(sols[0], first), line
    for s in sols[1:]:
        h.assert_solution_of(puzzle, s, n, box)
        assert not h.same_grid(s, first), line
    assert sr.is_valid(grid) is True, line
    return count


# ------------------------------------------------------------ first lines


@pytest.mark.parametrize("name", UNIQUE_9X9)
def test_unique_sets(name, load_dataset):
    for i, line in enumerate(load_dataset(name, FIRST)):
        check_solved(line, 9, kind_for(i), expected_count=1)
        assert sr.is_unique(line) is True, line


def test_serg_benchmark_has_several_solutions(load_dataset):
    for i, line in enumerate(load_dataset(MULTI_9X9, FIRST)):
        check_solved(line, 9, kind_for(i), expected_count=2)
        assert sr.is_unique(line) is False, line


@pytest.mark.parametrize("name", REFERENCE_COUNTABLE)
def test_counts_match_reference(name, load_dataset):
    for i, line in enumerate(load_dataset(name, FIRST)):
        puzzle = ref.parse81(line)
        grid = h.make_input(puzzle, 9, kind_for(i))
        expected = ref.count_solutions(puzzle, 9, 3, 3, limit=2)
        assert sr.count_solutions(grid, limit=2) == expected, line
        assert sr.is_unique(grid) is (expected == 1), line
        assert len(sr.solutions(grid, limit=2)) == expected, line
        if expected == 0:
            with pytest.raises(sr.NoSolutionError):
                sr.solve(grid)
        else:
            h.assert_solution_of(puzzle, sr.solve(grid), 9, (3, 3))


def test_gen_invalid_is_valid_but_often_unsolvable(load_dataset):
    # Its changed clues clash with no peer: well-formed, yet mostly no solution.
    counts = []
    for i, line in enumerate(load_dataset(MIXED_9X9, FIRST)):
        grid = h.make_input(ref.parse81(line), 9, kind_for(i))
        assert sr.is_valid(grid) is True, line
        counts.append(sr.count_solutions(grid, limit=2))
    assert 0 in counts and 2 in counts


@pytest.mark.parametrize("name", LARGE.keys())
def test_large_sets(name, load_dataset):
    n = LARGE[name]
    for i, line in enumerate(load_dataset(name, 5)):
        check_solved(line, n, kind_for(i))


# ------------------------------------------------------------ whole sets


@pytest.mark.parametrize("name", UNIQUE_9X9 + [MULTI_9X9])
def test_spread_over_whole_set(name, shared_data_dir):
    expected = 2 if name == MULTI_9X9 else 1
    for i, line in enumerate(h.spread_lines(shared_data_dir / name, SPREAD)):
        check_solved(line, 9, kind_for(i), expected_count=expected)


def test_spread_gen_invalid_matches_reference(shared_data_dir):
    for i, line in enumerate(h.spread_lines(shared_data_dir / MIXED_9X9, SPREAD)):
        puzzle = ref.parse81(line)
        grid = h.make_input(puzzle, 9, kind_for(i))
        assert sr.count_solutions(grid, limit=2) == ref.count_solutions(puzzle, 9, 3, 3, limit=2)
        assert sr.is_valid(grid) is True


def test_spread_16x16(shared_data_dir):
    for i, line in enumerate(h.spread_lines(shared_data_dir / "gen_16x16", 40)):
        check_solved(line, 16, kind_for(i))


def test_spread_25x25_solve(shared_data_dir):
    # Only solve: counting to 2 on these many-solution 25x25 grids can take
    # seconds each, and the first lines already test counting at this size.
    for i, line in enumerate(h.spread_lines(shared_data_dir / "gen_25x25", 10)):
        puzzle = ref.parse81(line)
        result = sr.solve(h.make_input(puzzle, 25, kind_for(i)))
        h.assert_solution_of(puzzle, result, 25, (5, 5))
