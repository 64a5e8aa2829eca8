"""Property tests (hypothesis): random puzzles of random kinds, checked
against the reference solver, and random bad input that must only ever
raise the documented exceptions."""

import copy
import re
import string

import helpers as h
import numpy as np
import pytest
import reference as ref
from hypothesis import assume, given
from hypothesis import strategies as st

import sudoku_rs as sr

INT_DTYPES = h.INT_DTYPES


# ------------------------------------------------------------ strategies


@st.composite
def full_grids(draw, n=9, box=(3, 3)):
    """A valid full grid: the pattern grid with digits relabelled, bands and
    stacks reordered, rows and columns reordered inside them, and (for
    square boxes) maybe transposed."""
    br, bc = box
    n_bands, n_stacks = n // br, n // bc
    cells = h.transform(
        h.pattern_grid(n, br, bc),
        n,
        br,
        bc,
        draw(st.permutations(range(1, n + 1))),
        draw(st.permutations(range(n_bands))),
        [draw(st.permutations(range(br))) for _ in range(n_bands)],
        draw(st.permutations(range(n_stacks))),
        [draw(st.permutations(range(bc))) for _ in range(n_stacks)],
    )
    if br == bc and draw(st.booleans()):
        cells = [cells[c * n + r] for r in range(n) for c in range(n)]
    return cells


@st.composite
def puzzles(draw, n=9, box=(3, 3), max_blanks=None):
    """A full grid with random cells blanked (about half, or at most
    `max_blanks`): always at least one solution."""
    full = draw(full_grids(n, box))
    if max_blanks is None:
        blank = draw(st.lists(st.booleans(), min_size=n * n, max_size=n * n))
        return [0 if b else v for v, b in zip(full, blank)]
    blanks = draw(st.sets(st.integers(0, n * n - 1), max_size=max_blanks))
    return [0 if i in blanks else v for i, v in enumerate(full)]


kinds = st.sampled_from(h.KINDS)
dtypes = st.sampled_from(INT_DTYPES)


def numpy_layout(arr, layout):
    """The same values as `arr`, laid out differently in memory."""
    if layout == "C":
        return arr
    if layout == "F":
        return np.asfortranarray(arr)
    if layout == "transposed":
        return arr.T.copy().T
    if layout == "strided":
        big = np.zeros((arr.shape[0] * 2, arr.shape[1] * 3), dtype=arr.dtype)
        big[::2, ::3] = arr
        return big[::2, ::3]
    if layout == "reversed":
        return arr[::-1, ::-1].copy()[::-1, ::-1]
    raise AssertionError(layout)


layouts = st.sampled_from(["C", "F", "transposed", "strided", "reversed"])


# ------------------------------------------------------------ solving


@given(puzzles(), kinds)
def test_solve_keeps_clues_and_is_valid(puzzle, kind):
    grid = h.make_input(puzzle, 9, kind)
    result = sr.solve(grid)
    h.assert_kind(result, kind, 9)
    h.assert_solution_of(puzzle, result, 9, (3, 3))
    assert sr.is_valid(grid) is True


@given(puzzles(), dtypes, layouts)
def test_numpy_any_dtype_and_layout(puzzle, dtype, layout):
    arr = numpy_layout(np.array(h.rows_of(puzzle, 9), dtype=dtype), layout)
    before = arr.copy()
    result = sr.solve(arr)
    h.assert_kind(result, "numpy", 9, dtype=dtype)
    h.assert_solution_of(puzzle, result, 9, (3, 3))
    assert np.array_equal(arr, before)
    # The memory layout must not change the answer.
    assert result.tolist() == sr.solve(h.rows_of(puzzle, 9))


@given(puzzles(), st.sampled_from(["ints", "strs", "numpy"]))
def test_input_never_modified(puzzle, kind):
    grid = h.make_input(puzzle, 9, kind)
    before = copy.deepcopy(grid)
    sr.solve(grid)
    sr.solutions(grid, limit=3)
    sr.count_solutions(grid, limit=3)
    sr.is_unique(grid)
    sr.is_valid(grid)
    assert h.same_grid(grid, before)


@given(puzzles(), st.lists(st.sampled_from(" \t\n\r"), min_size=1, max_size=30), st.data())
def test_text_whitespace_kept_in_place(puzzle, spaces, data):
    plain = ref.to_string(puzzle)
    text = list(plain)
    for ch in spaces:
        text.insert(data.draw(st.integers(0, len(text))), ch)
    text = "".join(text)
    result = sr.solve(text)
    assert len(result) == len(text)
    for a, b in zip(text, result):
        assert a.isspace() == b.isspace()
        if a.isspace():
            assert a == b
    assert "".join(c for c in result if not c.isspace()) == sr.solve(plain)


# ------------------------------------------------------------ counting


@given(puzzles(n=4, box=(2, 2)))
def test_4x4_counts_match_reference(puzzle):
    grid = h.make_input(puzzle, 4, "ints")
    expected = ref.count_solutions(puzzle, 4, 2, 2)
    assert sr.count_solutions(grid) == expected
    assert sr.is_unique(grid) is (expected == 1)
    found = {ref.to_string(h.cells_of(s)) for s in sr.solutions(grid, limit=300)}
    assert found == {ref.to_string(s) for s in ref.iter_solutions(puzzle, 4, 2, 2)}


@given(puzzles(n=6, box=(2, 3)), st.integers(1, 30))
def test_6x6_counts_match_reference(puzzle, limit):
    grid = h.make_input(puzzle, 6, "text")
    expected = ref.count_solutions(puzzle, 6, 2, 3, limit=limit)
    assert sr.count_solutions(grid, limit=limit, box=(2, 3)) == expected
    sols = sr.solutions(grid, limit=limit, box=(2, 3))
    assert len(set(sols)) == len(sols) == expected
    for s in sols:
        h.assert_solution_of(puzzle, s, 6, (2, 3))
    assert sr.is_unique(grid, box=(2, 3)) is (ref.count_solutions(puzzle, 6, 2, 3, limit=2) == 1)


@given(st.lists(st.sampled_from([0, 0, 0, 1, 2, 3, 4]), min_size=16, max_size=16))
def test_4x4_any_clues_match_reference(cells):
    """Clues not taken from a full grid: they may clash or have no solution."""
    grid = h.make_input(cells, 4, "ints")
    if ref.conflicts(cells, 4, 2, 2):
        assert sr.is_valid(grid) is False
        with pytest.raises(sr.InvalidPuzzleError):
            sr.solve(grid)
        with pytest.raises(sr.InvalidPuzzleError):
            sr.count_solutions(grid)
        return
    assert sr.is_valid(grid) is True
    expected = ref.count_solutions(cells, 4, 2, 2)
    assert sr.count_solutions(grid) == expected
    assert sr.is_unique(grid) is (expected == 1)
    if expected == 0:
        with pytest.raises(sr.NoSolutionError):
            sr.solve(grid)
        assert sr.solutions(grid) == []
    else:
        h.assert_solution_of(cells, sr.solve(grid), 4, (2, 2))


@given(puzzles(), st.integers(1, 8))
def test_functions_agree(puzzle, limit):
    grid = h.make_input(puzzle, 9, "text")
    count = sr.count_solutions(grid, limit=limit)
    sols = sr.solutions(grid, limit=limit)
    assert 1 <= count <= limit
    assert len(sols) == count
    assert sols[0] == sr.solve(grid)
    assert sr.is_unique(grid) is (sr.count_solutions(grid, limit=2) == 1)


@given(puzzles(max_blanks=60), st.permutations(range(1, 10)))
def test_count_unchanged_by_relabelling(puzzle, digits):
    relabelled = [0 if v == 0 else digits[v - 1] for v in puzzle]
    transposed = [puzzle[c * 9 + r] for r in range(9) for c in range(9)]
    counts = {
        sr.count_solutions(h.make_input(cells, 9, "ints"), limit=10)
        for cells in (puzzle, relabelled, transposed)
    }
    assert len(counts) == 1


# ------------------------------------------------------------ bad input


def only_bad_values(cells, bad):
    """True when the cells outside `bad` do not clash, so that the bad
    values are the only fault to report (which fault is reported first when
    there are several is not part of the contract)."""
    good = [0 if divmod(i, 4) in bad else v for i, v in enumerate(cells)]
    return not ref.conflicts(good, 4, 2, 2)


def named_cell(message):
    """(row, column) named in an error message."""
    r = re.search(r"\brow (\d+)\b", message)
    c = re.search(r"\bcolumn (\d+)\b", message)
    assert r and c, message
    return int(r.group(1)), int(c.group(1))


@given(st.lists(st.integers(-3, 8), min_size=16, max_size=16))
def test_out_of_range_ints_name_a_bad_cell(cells):
    bad = {divmod(i, 4) for i, v in enumerate(cells) if not 0 <= v <= 4}
    assume(bad)
    grid = h.make_input(cells, 4, "ints")
    with pytest.raises(sr.InvalidPuzzleError) as info:
        sr.solve(grid)
    assert sr.is_valid(grid) is False
    if only_bad_values(cells, bad):
        assert named_cell(str(info.value)) in bad


@given(st.text(alphabet=".0123456789abcdefgABCDEFG!?x-", min_size=16, max_size=16))
def test_4x4_text_matches_reference(text):
    """Any 16-character text: bad characters, clashes and unsolvable clues
    each give their documented outcome."""
    bad = {divmod(i, 4) for i, ch in enumerate(text) if ch not in ".01234"}
    if bad:
        with pytest.raises(sr.InvalidPuzzleError) as info:
            sr.solve(text)
        assert sr.is_valid(text) is False
        if only_bad_values([int(ch) if ch in "01234" else 0 for ch in text], bad):
            assert named_cell(str(info.value)) in bad
        return
    cells = ref.parse81(text)
    if ref.conflicts(cells, 4, 2, 2):
        with pytest.raises(sr.InvalidPuzzleError):
            sr.solve(text)
        assert sr.is_valid(text) is False
    elif ref.count_solutions(cells, 4, 2, 2, limit=1) == 0:
        with pytest.raises(sr.NoSolutionError):
            sr.solve(text)
        assert sr.is_valid(text) is True
    else:
        h.assert_solution_of(cells, sr.solve(text), 4, (2, 2))


def check_only_documented_errors(grid):
    """solve either answers or raises a documented error, and is_valid
    agrees with it."""
    try:
        sr.solve(grid)
    except TypeError:
        with pytest.raises(TypeError):
            sr.is_valid(grid)
    except sr.InvalidPuzzleError:
        assert sr.is_valid(grid) is False
    except sr.NoSolutionError:
        assert sr.is_valid(grid) is True
    else:
        assert sr.is_valid(grid) is True


@given(st.text(alphabet=string.printable, max_size=120))
def test_garbage_text(text):
    check_only_documented_errors(text)


garbage_cells = st.one_of(
    st.integers(-(2**70), 2**70),
    st.integers(0, 9),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=2),
    st.none(),
    st.booleans(),
    st.lists(st.integers(0, 9), max_size=2),
)


@given(st.lists(st.lists(garbage_cells, min_size=0, max_size=10), min_size=0, max_size=10))
def test_garbage_lists(grid):
    before = repr(grid)  # repr, not ==: NaN is not equal to itself
    check_only_documented_errors(grid)
    assert repr(grid) == before


@given(
    st.integers(0, 10),
    st.integers(0, 10),
    st.sampled_from(INT_DTYPES),
    st.data(),
)
def test_garbage_arrays(rows, cols, dtype, data):
    info = np.iinfo(np.dtype(dtype))
    values = data.draw(
        st.lists(
            st.integers(max(info.min, -20), min(info.max, 20)),
            min_size=rows * cols,
            max_size=rows * cols,
        )
    )
    arr = np.array(values, dtype=dtype).reshape(rows, cols)
    check_only_documented_errors(arr)
