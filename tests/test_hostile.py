"""Hostile input: whatever object comes in, every function either answers correctly or raises
TypeError / ValueError (a SudokuError when it is about the puzzle). Never a pyo3 PanicException
(a BaseException that `except Exception` would miss), a crash or a hang: every search here runs
under max_guesses, and huge shapes must be refused before anything is allocated."""

import numpy as np
import pytest
from helpers import LEETCODE, assert_solution_of, cells_of
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sudoku_rs as sr

BUDGET = 2_000
SINGLE = ["solve", "solutions", "count_solutions", "is_unique", "is_valid"]
BATCH = ["solve_batch", "count_solutions_batch"]


def call(name, obj, **kw):
    func = getattr(sr, name)
    if name in ("solutions", "count_solutions", "count_solutions_batch"):
        kw.setdefault("limit", 2)
    if name != "is_valid":
        kw.setdefault("max_guesses", BUDGET)
    return func(obj, **kw)


def survives(obj, names=SINGLE + BATCH):
    """Calls each function on `obj`; only documented outcomes are allowed. Returns what
    solve gave, or None when it raised."""
    answer = None
    for name in names:
        try:
            result = call(name, obj)
        except (TypeError, ValueError):
            continue
        # BaseException (PanicException, SystemError...) propagates and fails the test.
        if name == "solve":
            answer = result
    return answer


class Raises:
    """An object whose conversions all raise, to check errors propagate as they are."""

    def __init__(self, error):
        self.error = error

    def __index__(self):
        raise self.error

    __int__ = __float__ = __index__

    def __len__(self):
        raise self.error

    def __iter__(self):
        raise self.error

    def __getitem__(self, i):
        raise self.error


class Lies:
    """Claims 9 items but yields a different number; a sequence that changes as it is read."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return 9

    def __iter__(self):
        return iter([[0] * 9 for _ in range(self.n)])

    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError(i)
        return [0] * 9


# ------------------------------------------------------------ strings


@given(st.text(max_size=400))
def test_arbitrary_unicode_text(text):
    solved = survives(text)
    if solved is not None:
        assert sr.is_valid(text)


@given(st.text(alphabet="123456789.0\x00 \n\t\u00a0\u2003١٢٣", min_size=75, max_size=90))
def test_near_grids_with_nul_and_unicode_digits_and_spaces(text):
    solved = survives(text)
    if solved is not None:
        assert len(solved) == len(text)


def test_huge_and_odd_strings_are_refused_quickly():
    for text in ["." * 10**7, "\x00" * 81, "." * 80 + "\x00", "١" * 81, "\ud800" * 81, ""]:
        survives(text, ["solve", "is_valid"])
    with pytest.raises(sr.InvalidPuzzleError, match="10000000 cells"):
        sr.solve("." * 10**7)


# ------------------------------------------------------------ nested lists

cell_values = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(),
    st.integers(),
    st.integers(-(2**64), 2**64),
    st.sampled_from([2**63 - 1, -(2**63), 2**64 - 1, 2**64, -(2**64), 10**100]),
    st.binary(max_size=2),
    st.text(max_size=2),
    st.dictionaries(st.integers(0, 3), st.integers(0, 3), max_size=2),
    st.sampled_from([np.int64(3), np.uint64(2**64 - 1), np.float64("nan"), np.int8(-128)]),
    st.builds(Raises, st.sampled_from([ValueError("v"), TypeError("t"), OverflowError("o")])),
)


@given(st.lists(st.lists(cell_values, max_size=10), max_size=10))
def test_nested_lists_of_arbitrary_objects(grid):
    before = repr(grid)
    survives(grid)
    assert repr(grid) == before


@given(st.lists(st.lists(cell_values, min_size=4, max_size=4), min_size=4, max_size=4))
def test_4x4_grids_of_arbitrary_objects(grid):
    survives(grid)


@pytest.mark.parametrize(
    "obj",
    [
        Raises(ValueError("x")),
        [Raises(TypeError("x"))] * 9,
        [[0] * 9] * 8 + [Raises(RuntimeError("x"))],
        Lies(8),
        Lies(10),
        [Lies(8)] * 9,
        b"." * 81,
        bytearray(b"." * 81),
        memoryview(b"." * 81),
        {i: [0] * 9 for i in range(9)},
        iter([[0] * 9] * 9),
        range(81),
        [[0] * 9] * 9 + [[]],
        [[[0]] * 9] * 9,
    ],
    ids=repr,
)
def test_hostile_containers(obj):
    try:
        survives(obj)
    except RuntimeError as err:
        # An exception raised by the user's own object comes back unchanged.
        assert str(err) == "x"


# ------------------------------------------------------------ numpy arrays

ALL_DTYPES = [
    "bool",
    "int8",
    "uint64",
    ">i8",
    ">u4",
    "float16",
    "float64",
    "complex64",
    "object",
    "datetime64[s]",
    "timedelta64[ns]",
    "U1",
    "S1",
    "V8",
]


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape", [(9, 9), (0, 0), (), (0,), (81,), (9, 9, 1), (2, 9, 9)])
def test_numpy_arrays_of_every_dtype(dtype, shape):
    arr = np.zeros(shape, dtype=dtype)
    survives(arr)


@pytest.mark.parametrize("dtype", ["int64", "uint64", "int8", ">i2"])
def test_integer_limits(dtype):
    info = np.iinfo(dtype)
    for value in (info.min, info.max):
        grid = np.zeros((9, 9), dtype=dtype)
        grid[4, 5] = value
        if 0 <= value <= 9:
            assert sr.is_valid(grid)
            continue
        with pytest.raises(sr.InvalidPuzzleError, match="row 4, column 5"):
            sr.solve(grid)
        rows = grid.reshape(1, 81)
        assert sr.count_solutions_batch(rows).tolist() == [0]
        assert sr.solve_batch(rows, status=True)[1].tolist() == [sr.Status.INVALID]


@given(
    hnp.arrays(
        dtype=hnp.integer_dtypes(endianness="=") | hnp.integer_dtypes(endianness=">"),
        shape=st.sampled_from([(4, 4), (9, 9), (1, 16), (3, 81), (2, 4, 4)]),
        elements=None,
    )
)
def test_integer_arrays_with_any_values(arr):
    before = arr.copy()
    solved = survives(arr)
    np.testing.assert_array_equal(arr, before)
    if solved is not None and arr.shape in ((4, 4), (9, 9)):
        n = arr.shape[0]
        assert_solution_of(cells_of(arr), solved, n, (2, 2) if n == 4 else (3, 3))


def test_non_contiguous_and_read_only_views():
    base = np.zeros((18, 18, 2), dtype=np.int32)
    base[::2, ::2, 0] = np.array(LEETCODE).reshape(9, 9)
    view = base[::2, ::2, 0]
    view.flags.writeable = False
    assert sr.solve(view).tolist() == sr.solve(np.array(LEETCODE).reshape(9, 9)).tolist()
    batch = np.broadcast_to(np.array(LEETCODE, dtype=np.int16), (5, 81))  # zero strides
    assert (sr.count_solutions_batch(batch) == 1).all()


@pytest.mark.parametrize(
    "shape", [(1, 10**6), (10**6, 1), (10**4, 10**4), (2**31, 2**31), (10**5, 10**5, 10**5)]
)
def test_huge_shapes_are_refused_without_allocating(shape):
    # A zero-stride view of one element: any attempt to copy or walk it would take gigabytes
    # or minutes, so a quick refusal is the only way this test passes.
    arr = np.lib.stride_tricks.as_strided(np.zeros(1, dtype=np.int8), shape, (0,) * len(shape))
    for name in SINGLE[:-1]:
        with pytest.raises(sr.InvalidPuzzleError):
            call(name, arr)
    assert sr.is_valid(arr) is False
    for name in BATCH:
        with pytest.raises(sr.InvalidPuzzleError):
            call(name, arr)


# ------------------------------------------------------------ batches


@given(
    st.lists(
        st.one_of(
            st.none(),
            st.text(max_size=90),
            st.text(alphabet="123456789.", min_size=81, max_size=81),
            st.integers(),
            st.binary(max_size=81),
        ),
        max_size=12,
    )
)
def test_batches_of_arbitrary_rows(rows):
    for name in BATCH:
        try:
            result = call(name, rows, status=True)
        except (TypeError, ValueError):
            continue
        values, status = result
        assert len(values) == len(status) == len(rows)
        for row, code, value in zip(rows, status.tolist(), values):
            if code != sr.Status.INVALID:
                assert isinstance(row, str)
            if name == "solve_batch" and code == sr.Status.SOLVED:
                assert_solution_of(cells_of(row), value, 9, (3, 3))
