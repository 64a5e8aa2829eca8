"""Validity-preserving transforms (sr.Transform, sr.augment_batch) and the canonical form
(sr.canonical, sr.canonical_batch), checked against the reference solver and, for the canonical
form of small grids, against a brute-force search of the whole group in pure Python."""

import copy
import itertools
import pickle
import random

import helpers as h
import numpy as np
import pytest
import reference as ref
from hypothesis import given
from hypothesis import strategies as st

import sudoku_rs as sr

# (n, box) for every shape the transforms are checked on; canonical stops at 9x9.
SHAPES = [(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4)), (9, (3, 3)), (16, (4, 4))]
CANONICAL_SHAPES = [(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4)), (9, (3, 3))]

LEETCODE_SOLUTION = ref.solve_first(h.LEETCODE, 9, 3, 3)


def is_valid_full(cells, n, box):
    return all(1 <= v <= n for v in cells) and not ref.conflicts(cells, n, *box)


def random_transforms(n, box, count, seed):
    return [sr.Transform.random(n, box=box, seed=seed, index=i) for i in range(count)]


# ------------------------------------------------------------ transforms keep validity


@pytest.mark.parametrize(("n", "box"), SHAPES)
def test_random_transforms_keep_solved_grids_solved(n, box):
    rng = random.Random(n * 10 + box[0])
    full = h.random_full_grid(n, *box, rng)
    for t in random_transforms(n, box, 30, seed=n):
        assert t.size == n and t.box == box
        out = h.cells_of(t.apply(h.make_input(full, n, "ints")))
        assert is_valid_full(out, n, box), t
        assert sorted(out) == sorted(full)  # a relabelling keeps every digit's count


@pytest.mark.parametrize(("n", "box"), [(4, (2, 2)), (6, (2, 3)), (6, (3, 2))])
def test_solution_counts_are_kept(n, box):
    rng = random.Random(5)
    for _ in range(4):
        puzzle, _ = h.random_puzzle(n, *box, rng, blank_fraction=0.6)
        expected = ref.count_solutions(puzzle, n, *box, limit=50)
        for t in random_transforms(n, box, 5, seed=rng.randrange(2**64)):
            moved = h.cells_of(t.apply(h.make_input(puzzle, n, "ints")))
            assert ref.count_solutions(moved, n, *box, limit=50) == expected


def test_puzzle_and_solution_stay_a_matching_pair():
    for t in random_transforms(9, (3, 3), 10, seed=7):
        puzzle = h.cells_of(t.apply(ref.to_string(h.LEETCODE)))
        solution = h.cells_of(t.apply(ref.to_string(LEETCODE_SOLUTION)))
        assert ref.is_solution(puzzle, solution, 9, 3, 3)
        assert sum(v != 0 for v in puzzle) == sum(v != 0 for v in h.LEETCODE)
        assert ref.count_solutions(puzzle, 9, 3, 3, limit=2) == 1


def test_augment_batch_keeps_pairs_matched_and_blanks_blank():
    rng = random.Random(3)
    pairs = [h.random_puzzle(6, 2, 3, rng, blank_fraction=0.5) for _ in range(40)]
    puzzles = np.array([p for p, _ in pairs], dtype=np.int16)
    solutions = np.array([s for _, s in pairs], dtype=np.uint8).reshape(40, 6, 6)
    out_p, out_s = sr.augment_batch(puzzles, solutions, seed=9, box=(2, 3))
    assert out_p.shape == (40, 36) and out_p.dtype == np.int16
    assert out_s.shape == (40, 6, 6) and out_s.dtype == np.uint8
    for i in range(40):
        p, s = out_p[i].tolist(), out_s[i].ravel().tolist()
        assert ref.is_solution(p, s, 6, 2, 3)
        assert (out_p[i] == 0).sum() == (puzzles[i] == 0).sum()
    assert not np.array_equal(out_p, puzzles)
    assert puzzles[0].tolist() == pairs[0][0]  # the input is untouched


# ------------------------------------------------------------ the group operations


@pytest.mark.parametrize(("n", "box"), SHAPES)
def test_inverse_and_then_round_trip(n, box):
    full = h.random_full_grid(n, *box, random.Random(1))
    grid = h.make_input(full, n, "numpy")
    ts = random_transforms(n, box, 10, seed=2)
    for a, b in zip(ts, ts[1:]):
        assert np.array_equal(a.inverse().apply(a.apply(grid)), grid)
        assert np.array_equal(a.then(b).apply(grid), b.apply(a.apply(grid)))
        assert a.then(a.inverse()) == sr.Transform.identity(n, box=box)
        assert a.inverse().inverse() == a


def test_rectangular_boxes_never_transpose():
    assert not any(t.transpose for t in random_transforms(6, (2, 3), 50, seed=4))
    assert any(t.transpose for t in random_transforms(9, (3, 3), 50, seed=4))
    with pytest.raises(ValueError, match="square boxes"):
        sr.Transform(range(6), range(6), range(1, 7), transpose=True, box=(2, 3))


def test_constructor_checks_its_parts():
    t = sr.Transform([1, 0, 3, 2], [2, 3, 0, 1], [4, 3, 2, 1], transpose=True)
    assert (t.rows, t.cols, t.digits, t.transpose, t.box) == (
        (1, 0, 3, 2),
        (2, 3, 0, 1),
        (4, 3, 2, 1),
        True,
        (2, 2),
    )
    # Output (0, 0) reads input (cols[0], rows[0]) = (2, 1) of the original, relabelled.
    grid = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
    assert t.apply(grid)[0][0] == 5 - grid[2][1]
    with pytest.raises(ValueError, match="keep each band of 2 together"):
        sr.Transform([0, 2, 1, 3], range(4), range(1, 5))
    with pytest.raises(ValueError, match=r"digits must list each of 1..4 once"):
        sr.Transform(range(4), range(4), [1, 1, 2, 3])
    with pytest.raises(ValueError, match="box=\\(2, 3\\)"):
        sr.Transform(range(6), range(6), range(1, 7))
    with pytest.raises(ValueError, match=r"rows must list each of 0..3 once, got -1"):
        sr.Transform([-1, 0, 3, 2], range(4), range(1, 5))
    with pytest.raises(ValueError, match=r"digits must list each of 1..4 once, got 300"):
        sr.Transform(range(4), range(4), [1, 2, 3, 300])
    with pytest.raises(ValueError, match="index must be 0 or more"):
        sr.Transform.random(4, seed=1, index=-1)


def test_value_semantics_repr_and_pickle():
    t = sr.Transform.random(9, seed=123)
    assert t == sr.Transform.random(9, seed=123)
    assert t != sr.Transform.random(9, seed=124)
    assert len({t, sr.Transform.random(9, seed=123)}) == 1
    assert eval(repr(t), {"Transform": sr.Transform}) == t
    for protocol in range(2, pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(t, protocol))
        assert back == t and hash(back) == hash(t)
    assert copy.deepcopy(t) == t
    assert sr.Transform.identity(4).apply("1234341221434321") == "1234341221434321"


def test_apply_rejects_a_grid_of_another_shape():
    t = sr.Transform.identity(9)
    with pytest.raises(sr.InvalidPuzzleError):
        t.apply("1234341221434321")
    with pytest.raises(TypeError):
        t.apply(42)
    with pytest.raises(ValueError, match="seed"):
        sr.Transform.random(9, seed=-1)


# ------------------------------------------------------------ kinds


@pytest.mark.parametrize("kind", [*h.KINDS, "rows"])
def test_apply_and_canonical_return_the_input_kind(kind):
    def as_kind(cells):
        if kind == "rows":
            return [ref.to_string(cells[r * 9 : r * 9 + 9]) for r in range(9)]
        return h.make_input(cells, 9, kind, dtype=np.int8)

    grid = as_kind(h.LEETCODE)
    original = copy.deepcopy(grid)
    t = sr.Transform.random(9, seed=1)
    expected = h.cells_of(t.apply(ref.to_string(h.LEETCODE)))
    for result, cells in [(t.apply(grid), expected), (sr.canonical(grid), None)]:
        if kind == "rows":
            assert type(result) is list and all(type(r) is str and len(r) == 9 for r in result)
            result = "".join(result)
        else:
            h.assert_kind(result, kind, 9, dtype=np.int8)
        if cells is not None:
            assert h.cells_of(result) == cells
    assert h.same_grid(grid, original)


# ------------------------------------------------------------ seeds


def test_seeded_augmentation_is_reproducible_and_thread_independent():
    puzzles = np.array([h.LEETCODE] * 300, dtype=np.uint8)
    runs = [sr.augment_batch(puzzles, seed=2024, threads=t) for t in (1, 2, 7, None)]
    for other in runs[1:]:
        assert np.array_equal(runs[0], other)
    assert not np.array_equal(runs[0], sr.augment_batch(puzzles, seed=2025))
    # Row i gets exactly Transform.random(n, seed, index=i).
    for i in (0, 1, 299):
        expected = sr.Transform.random(9, seed=2024, index=i).apply(puzzles[i].reshape(9, 9))
        assert np.array_equal(runs[0][i].reshape(9, 9), expected)
    # seed=None draws a fresh seed each call.
    assert not np.array_equal(sr.augment_batch(puzzles), sr.augment_batch(puzzles))


def test_augment_batch_in_chunks_keeps_each_rows_transform():
    # More rows than one internal chunk (4 MiB of cells): row i still gets transform i.
    puzzles = np.tile(np.array(h.LEETCODE, dtype=np.uint8), (60_000, 1))
    out = sr.augment_batch(puzzles, seed=3, threads=2)
    assert np.array_equal(out, sr.augment_batch(puzzles, seed=3, threads=1))
    for i in (0, 51_780, 51_781, 59_999):
        expected = sr.Transform.random(9, seed=3, index=i).apply(ref.to_string(h.LEETCODE))
        assert ref.to_string(out[i].tolist()) == expected


def test_seeds_are_pinned():
    # These values change only if the PRNG or the draw order changes: a breaking change for
    # anyone who recorded seeds.
    assert repr(sr.Transform.random(9, seed=0)) == PINNED_SEED_0
    row = sr.augment_batch(np.array([h.LEETCODE]), seed=42)[0]
    assert ref.to_string(row.tolist()) == PINNED_LEETCODE_42
    assert repr(sr.Transform.random(6, box=(2, 3), seed=1)) == PINNED_6X6_1


PINNED_SEED_0 = (
    "Transform([7, 6, 8, 5, 3, 4, 1, 2, 0], [8, 6, 7, 3, 4, 5, 2, 0, 1], [2, 5, 6, 1,"
    " 8, 7, 4, 9, 3], transpose=False, box=(3, 3))"
)
PINNED_LEETCODE_42 = (
    "564...7.1....4..38.......2..5...71..4.28.16.3.3...69.....51..4.....3....3987.4..."
)
PINNED_6X6_1 = (
    "Transform([3, 2, 4, 5, 1, 0], [2, 1, 0, 4, 3, 5], [5, 3, 1, 6, 2, 4], "
    "transpose=False, box=(2, 3))"
)


@pytest.mark.parametrize("dtype", h.INT_DTYPES)
def test_augment_batch_takes_every_integer_dtype(dtype):
    puzzles = np.array([h.LEETCODE, LEETCODE_SOLUTION], dtype=dtype)
    out = sr.augment_batch(puzzles, seed=5)
    assert out.dtype == np.dtype(dtype) and out.shape == puzzles.shape
    expected = sr.augment_batch(np.array([h.LEETCODE, LEETCODE_SOLUTION]), seed=5)
    assert np.array_equal(out.astype(np.int64), expected)


def test_augment_batch_errors_name_the_problem():
    good = np.array([h.LEETCODE] * 3)
    bad = good.copy()
    bad[2, 10] = 10
    with pytest.raises(sr.InvalidPuzzleError, match=r"puzzles\[2\]: invalid value 10 at row 1"):
        sr.augment_batch(bad, seed=1)
    with pytest.raises(
        sr.InvalidPuzzleError,
        match=r"one 9x9 grid per puzzle: puzzles has shape \(3, 81\), solutions \(2, 81\)",
    ):
        sr.augment_batch(good, good[:2], seed=1)
    with pytest.raises(sr.InvalidPuzzleError, match=r"shape \(N, n, n\) or \(N, n\*n\)"):
        sr.augment_batch(np.zeros((3, 80), dtype=int))
    with pytest.raises(TypeError, match="numpy array"):
        sr.augment_batch(42)
    with pytest.raises(sr.InvalidPuzzleError, match=r"puzzles\[1\]: a string of 80 cells"):
        sr.augment_batch([ref.to_string(h.LEETCODE), "." * 80], seed=1)
    with pytest.raises(TypeError, match="integer dtype"):
        sr.augment_batch(good.astype(float))
    with pytest.raises(ValueError, match="threads"):
        sr.augment_batch(good, threads=0)
    assert sr.augment_batch(np.zeros((0, 81), dtype=np.uint8), seed=1).shape == (0, 81)


# ------------------------------------------------------------ canonical form


def brute_force_canonical(cells, n, box):
    """The smallest relabelled grid over every row order, column order and transpose: the
    definition, enumerated in full (fine for 4x4 and 6x6)."""
    br, bc = box

    def orders(block):
        for blocks in itertools.permutations(range(n // block)):
            for inner in itertools.product(itertools.permutations(range(block)), repeat=n // block):
                yield [b * block + inner[k][i] for k, b in enumerate(blocks) for i in range(block)]

    grids = [cells]
    if br == bc:
        grids.append([cells[c * n + r] for r in range(n) for c in range(n)])
    col_orders = list(orders(bc))
    best = None
    for g in grids:
        for rows in orders(br):
            for cols in col_orders:
                labels = {0: 0}
                out = [labels.setdefault(g[r * n + c], len(labels)) for r in rows for c in cols]
                if best is None or out < best:
                    best = out
    return best


@pytest.mark.parametrize(("n", "box", "count"), [(4, (2, 2), 25), (6, (2, 3), 3), (6, (3, 2), 2)])
def test_canonical_matches_brute_force(n, box, count):
    rng = random.Random(n + box[0])
    for k in range(count):
        puzzle, full = h.random_puzzle(n, *box, rng, blank_fraction=k / count)
        for grid in (puzzle, full):
            got = sr.canonical(h.make_input(grid, n, "ints"), box=box)
            assert h.cells_of(got) == brute_force_canonical(grid, n, box)


@pytest.mark.parametrize(("n", "box"), CANONICAL_SHAPES)
def test_canonical_is_shared_by_transformed_copies_and_idempotent(n, box):
    rng = random.Random(n * box[0])
    copies = 12 if n < 9 else 6
    for blank_fraction in (0.0, 0.7):
        puzzle, _ = h.random_puzzle(n, *box, rng, blank_fraction)
        grid = h.make_input(puzzle, n, "numpy")
        form = sr.canonical(grid, box=box)
        for t in random_transforms(n, box, copies, seed=rng.randrange(2**64)):
            assert np.array_equal(sr.canonical(t.apply(grid), box=box), form)
        assert np.array_equal(sr.canonical(form, box=box), form)
        to = sr.Transform.to_canonical(grid, box=box)
        assert np.array_equal(to.apply(grid), form)  # the form is equivalent to the input
        assert h.cells_of(form) <= h.cells_of(grid)


def test_canonical_tells_different_grids_apart():
    solution = ref.to_string(LEETCODE_SOLUTION)
    puzzle = ref.to_string(h.LEETCODE)
    assert sr.canonical(puzzle) != sr.canonical(solution)
    # One clue removed: fewer clues, never equivalent.
    fewer = "." + puzzle[1:]
    assert sr.canonical(fewer) != sr.canonical(puzzle)
    # A two-solution puzzle and its unique parent differ too.
    two = ref.to_string(h.two_solution_puzzle(LEETCODE_SOLUTION, 9, 3, 3))
    assert sr.canonical(two) != sr.canonical(solution)
    # Another solved grid: equivalent only if the search says so by equal forms.
    other = ref.to_string(h.random_full_grid(9, 3, 3, random.Random(0)))
    assert sr.canonical(other) != sr.canonical(solution)
    assert sr.canonical(other)[:9] == "123456789"


def test_to_canonical_carries_the_solution_along():
    t = sr.Transform.to_canonical(ref.to_string(h.LEETCODE))
    puzzle = h.cells_of(t.apply(ref.to_string(h.LEETCODE)))
    solution = h.cells_of(t.apply(ref.to_string(LEETCODE_SOLUTION)))
    assert puzzle == h.cells_of(sr.canonical(ref.to_string(h.LEETCODE)))
    assert ref.is_solution(puzzle, solution, 9, 3, 3)


def test_canonical_refuses_sizes_too_large_to_search():
    with pytest.raises(ValueError, match="16x16"):
        sr.canonical("." * 256)
    with pytest.raises(ValueError, match="16x16"):
        sr.canonical_batch(np.zeros((2, 16, 16), dtype=np.uint8))
    with pytest.raises(sr.InvalidPuzzleError):
        sr.canonical("12")


def test_canonical_batch_rows_match_single_calls_and_deduplicate(load_dataset):
    lines = load_dataset("puzzles2_17_clue", 30)
    base = np.array([ref.parse81(line) for line in lines], dtype=np.uint8)
    # Each puzzle three times: as is and under two random transforms.
    moved = [sr.augment_batch(base, seed=s) for s in (1, 2)]
    stack = np.concatenate([base, *moved])
    forms = sr.canonical_batch(stack, threads=2)
    assert forms.shape == stack.shape and forms.dtype == np.uint8
    assert np.array_equal(forms, sr.canonical_batch(stack, threads=1))
    for i in (0, 31, 89):
        assert ref.to_string(forms[i].tolist()) == sr.canonical(ref.to_string(stack[i].tolist()))
    distinct = np.unique(forms.reshape(len(forms), -1), axis=0)
    assert len(distinct) == len(set(lines))
    # Strings in, strings out; a malformed row is None, as in solve_batch.
    strings = [ref.to_string(row.tolist()) for row in stack[:3]] + ["not a puzzle"]
    out = sr.canonical_batch(strings)
    assert out[:3] == [ref.to_string(row.tolist()) for row in forms[:3]] and out[3] is None
    grids = stack[:2].reshape(2, 9, 9).astype(">i4")
    assert np.array_equal(sr.canonical_batch(grids).reshape(2, 81), forms[:2])


def test_canonical_refuses_conflicting_clues():
    # Two equivalent 4x4 grids (rows swapped within a band) with a 1 twice in row 0: a grid
    # that breaks the rules has no well-defined canonical form (equivalent ones could get
    # different forms), so it is refused as the solver refuses it.
    a = [1, 0, 0, 1] + [0] * 12
    b = [0] * 4 + a[:4] + [0] * 8
    for grid in (h.make_input(a, 4, "ints"), h.make_input(b, 4, "numpy")):
        with pytest.raises(sr.InvalidPuzzleError, match="conflicting clues"):
            sr.canonical(grid, box=(2, 2))
        with pytest.raises(sr.InvalidPuzzleError, match="conflicting clues"):
            sr.Transform.to_canonical(grid, box=(2, 2))
    good = ref.to_string(h.LEETCODE)
    conflicting = "55" + "." * 79
    out = sr.canonical_batch([good, conflicting, "not a puzzle"])
    assert out == [sr.canonical(good), None, None]
    array = np.array([ref.parse81(good), ref.parse81(conflicting)], dtype=np.int16)
    forms = sr.canonical_batch(array)
    assert forms.dtype == np.int16 and not forms[1].any()
    assert ref.to_string(forms[0].tolist()) == sr.canonical(good)


# Every size canonical accepts, both box orientations of the rectangular ones.
ALL_CANONICAL_SHAPES = [
    (4, (2, 2)),
    (6, (2, 3)),
    (6, (3, 2)),
    (8, (2, 4)),
    (8, (4, 2)),
    (9, (3, 3)),
]


@given(
    st.sampled_from(ALL_CANONICAL_SHAPES),
    st.integers(0, 2**32),
    st.floats(0.0, 1.0),
    st.integers(0, 2**64 - 1),
)
def test_canonical_is_invariant_under_random_transforms(shape, grid_seed, blank_fraction, seed):
    n, box = shape
    cells, _ = h.random_puzzle(n, *box, random.Random(grid_seed), blank_fraction)
    puzzle = h.make_input(cells, n, "numpy")
    form = sr.canonical(puzzle, box=box)
    for t in random_transforms(n, box, 3, seed):
        moved = t.apply(puzzle)
        assert np.array_equal(sr.canonical(moved, box=box), form)
        assert np.array_equal(sr.Transform.to_canonical(moved, box=box).apply(moved), form)
    assert np.array_equal(sr.canonical(form, box=box), form)
    assert h.cells_of(form) <= cells
