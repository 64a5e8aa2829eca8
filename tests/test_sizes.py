"""Grid sizes and box shapes other than 9x9: n from 4 to 64, square and
non-square boxes, the box= argument, and letters for values of 10 and up."""

import math
import random

import helpers as h
import pytest
import reference as ref

import sudoku_rs as sr

# (n, (box rows, box cols))
SIZES = [
    (4, (2, 2)),
    (6, (2, 3)),
    (6, (3, 2)),
    (8, (2, 4)),
    (8, (4, 2)),
    (9, (3, 3)),
    (10, (2, 5)),
    (12, (3, 4)),
    (12, (4, 3)),
    (12, (2, 6)),
    (15, (3, 5)),
    (16, (4, 4)),
    (20, (4, 5)),
    (25, (5, 5)),
    (35, (5, 7)),
    (36, (6, 6)),
    (49, (7, 7)),
    (64, (8, 8)),
]
SMALL = [(n, box) for n, box in SIZES if n <= 8]
TEXT_MAX = 35  # one character a cell: letters stop at Z = 35


def size_id(size):
    n, (br, bc) = size
    return f"{n}x{n}-box{br}x{bc}"


def is_square(n):
    return math.isqrt(n) ** 2 == n


def size_kind_params():
    for size in SIZES:
        for kind in h.KINDS:
            if kind in ("text", "strs") and size[0] > TEXT_MAX:
                continue
            yield pytest.param(size, kind, id=f"{size_id(size)}-{kind}")


def box_arg(n, box):
    """What a user passes: nothing for square boxes, the box otherwise."""
    return None if is_square(n) and box[0] == box[1] else box


@pytest.mark.parametrize(("size", "kind"), list(size_kind_params()))
def test_random_puzzle(size, kind):
    n, box = size
    rng = random.Random(n * 100 + box[0])
    puzzle, _ = h.random_puzzle(n, *box, rng, 0.5 if n <= 25 else 0.3)
    dtype = "uint8" if n > 25 else "int16"
    grid = h.make_input(puzzle, n, kind, dtype=dtype)
    result = sr.solve(grid, box=box_arg(n, box))
    h.assert_kind(result, kind, n, dtype=dtype)
    h.assert_solution_of(puzzle, result, n, box)
    assert sr.is_valid(grid, box=box_arg(n, box)) is True


@pytest.mark.parametrize("size", [s for s in SIZES if s[0] <= 16], ids=size_id)
def test_empty_grid(size):
    n, box = size
    empty = [0] * n * n
    grid = h.make_input(empty, n, "ints")
    h.assert_solution_of(empty, sr.solve(grid, box=box), n, box)
    assert sr.count_solutions(grid, limit=3, box=box) == 3
    sols = sr.solutions(grid, limit=3, box=box)
    assert len({ref.to_string(h.cells_of(s)) for s in sols}) == 3
    for s in sols:
        h.assert_solution_of(empty, s, n, box)


@pytest.mark.parametrize("size", SMALL, ids=size_id)
@pytest.mark.parametrize("seed", range(4))
def test_small_counts_match_reference(size, seed):
    n, box = size
    rng = random.Random(seed * 1000 + n + box[0])
    puzzle, _ = h.random_puzzle(n, *box, rng, 0.6)
    limit = 20
    expected = ref.count_solutions(puzzle, n, *box, limit=limit)
    grid = h.make_input(puzzle, n, "ints")
    assert sr.count_solutions(grid, limit=limit, box=box) == expected
    assert sr.is_unique(grid, box=box) is (expected == 1)
    found = {ref.to_string(h.cells_of(s)) for s in sr.solutions(grid, limit=limit, box=box)}
    assert len(found) == expected
    if expected < limit:  # all of them: the two solvers must find the same set
        assert found == {ref.to_string(s) for s in ref.iter_solutions(puzzle, n, *box)}
    else:
        for s in found:
            assert ref.is_solution(puzzle, ref.parse81(s), n, *box)


@pytest.mark.parametrize("size", [s for s in SIZES if s[0] in (4, 9, 16, 25)], ids=size_id)
def test_square_box_is_optional(size):
    n, box = size
    rng = random.Random(n)
    puzzle, _ = h.random_puzzle(n, *box, rng, 0.5)
    text = ref.to_string(puzzle)
    assert sr.solve(text) == sr.solve(text, box=box)


@pytest.mark.parametrize(("n", "box"), [(6, (2, 3)), (8, (2, 4)), (10, (2, 5)), (12, (3, 4))])
@pytest.mark.parametrize("kind", h.KINDS)
def test_non_square_needs_box(n, box, kind):
    grid = h.make_input([0] * n * n, n, kind)
    with pytest.raises(sr.InvalidPuzzleError, match="box"):
        sr.solve(grid)
    assert sr.is_valid(grid) is False
    assert sr.is_valid(grid, box=box) is True


def test_box_shape_changes_the_rules():
    # 1s at (0, 0) and (1, 2): one box when boxes are 2x3, two when 3x2.
    cells = [0] * 36
    cells[0] = cells[1 * 6 + 2] = 1
    assert ref.conflicts(cells, 6, 2, 3) and not ref.conflicts(cells, 6, 3, 2)
    grid = h.make_input(cells, 6, "ints")
    assert sr.is_valid(grid, box=(2, 3)) is False
    with pytest.raises(sr.InvalidPuzzleError):
        sr.solve(grid, box=(2, 3))
    assert sr.is_valid(grid, box=(3, 2)) is True
    h.assert_solution_of(cells, sr.solve(grid, box=(3, 2)), 6, (3, 2))


@pytest.mark.parametrize(("n", "box", "other"), [(6, (2, 3), (3, 2)), (16, (4, 4), (2, 8))])
def test_full_grid_judged_by_given_box(n, box, other):
    full = h.random_full_grid(n, *box, random.Random(7))
    grid = h.make_input(full, n, "numpy")
    assert sr.is_valid(grid, box=box) is True
    assert sr.is_valid(grid, box=other) is (not ref.conflicts(full, n, *other))


def test_16x16_with_2x8_boxes():
    empty = [0] * 256
    result = sr.solve(h.make_input(empty, 16, "text"), box=(2, 8))
    h.assert_solution_of(empty, result, 16, (2, 8))


@pytest.mark.parametrize(("n", "box"), [(16, (4, 4)), (25, (5, 5)), (35, (5, 7))])
def test_letters_for_big_values(n, box):
    rng = random.Random(n)
    puzzle, _ = h.random_puzzle(n, *box, rng, 0.3)
    result = sr.solve(ref.to_string(puzzle), box=box_arg(n, box))
    assert set(result) == set(ref.CHARS[:n])  # every digit and letter up to n
    h.assert_solution_of(puzzle, result, n, box)
    board = sr.solve(h.make_input(puzzle, n, "strs"), box=box_arg(n, box))
    assert {c for row in board for c in row} == set(ref.CHARS[:n])


def test_64x64_values_as_ints():
    rng = random.Random(64)
    puzzle, _ = h.random_puzzle(64, 8, 8, rng, 0.2)
    result = sr.solve(h.make_input(puzzle, 64, "ints"))
    assert max(max(row) for row in result) == 64
    h.assert_solution_of(puzzle, result, 64, (8, 8))
