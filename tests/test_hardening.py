"""Hardening of the binding (issue 14): arrays read in place only when Rust can read them
exactly, user exceptions kept, nested calls from signal handlers and callbacks, and memory
given back after a big search."""

import signal
import sys
import threading
import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sudoku_rs as sr

LEETCODE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
CELLS = np.array([0 if c == "." else int(c) for c in LEETCODE], dtype=np.int64)
SOLVED = np.array([int(c) for c in sr.solve(LEETCODE)], dtype=np.int64)


def _rows(count, seed):
    """`count` different valid 9x9 puzzles: the LeetCode puzzle under seeded transforms."""
    return sr.augment_batch(np.tile(CELLS, (count, 1)), seed=seed)


def _odd_views(base, dtype, layout):
    """`base` (N, 81) as an array Rust cannot read in place, with the same values."""
    dtype = np.dtype(dtype)
    if layout == "packed-field":
        # A field after a one-byte field of a packed record: strides (1 + 81*size, size).
        rec = np.zeros(len(base), dtype=[("id", "u1"), ("grid", dtype, (81,))])
        rec["grid"] = base
        return rec["grid"]
    if layout == "unaligned":
        raw = np.zeros(base.size * dtype.itemsize + 1, np.uint8)
        view = raw[1:].view(dtype).reshape(base.shape)
        view[...] = base
        return view
    if layout == "byteswapped":
        return base.astype(dtype.newbyteorder())
    if layout == "reversed-columns":
        return np.ascontiguousarray(base[:, ::-1]).astype(dtype)[:, ::-1]
    raise AssertionError(layout)


LAYOUTS = ["packed-field", "unaligned", "byteswapped", "reversed-columns"]
WIDE = ["<i2", ">i2", "<u4", ">i4", "<i8", ">u8"]


@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(1, 40),
    seed=st.integers(0, 2**64 - 1),
    dtype=st.sampled_from(WIDE),
    layout=st.sampled_from(LAYOUTS),
)
def test_every_array_entry_point_reads_odd_layouts_exactly(count, seed, dtype, layout):
    plain = _rows(count, seed)
    odd = _odd_views(plain, dtype, layout)
    assert np.array_equal(odd, plain)
    # Batches.
    assert np.array_equal(sr.solve_batch(odd), sr.solve_batch(plain))
    assert np.array_equal(sr.count_solutions_batch(odd), sr.count_solutions_batch(plain))
    assert np.array_equal(sr.canonical_batch(odd), sr.canonical_batch(plain))
    assert np.array_equal(sr.augment_batch(odd, seed=1), sr.augment_batch(plain, seed=1))
    assert np.array_equal(sr.rate_batch(odd), sr.rate_batch(plain))
    assert np.array_equal(sr.check_batch(odd, odd), sr.check_batch(plain, plain))
    # Single grids: row 0 as a 9x9 view of the odd array.
    grid, plain_grid = odd[0].reshape(9, 9), plain[0].reshape(9, 9)
    assert np.array_equal(sr.solve(grid), sr.solve(plain_grid))
    assert sr.count_solutions(grid) == 1
    assert sr.is_valid(grid) and sr.is_unique(grid)
    assert np.array_equal(sr.canonical(grid), sr.canonical(plain_grid))
    assert sr.rate(grid) == sr.rate(plain_grid)
    t = sr.Transform.random(9, seed=seed)
    assert np.array_equal(t.apply(grid), t.apply(plain_grid))


def test_the_packed_record_of_the_issue_solves_correctly():
    puzzles = _rows(200, 7)
    rec = np.zeros(len(puzzles), dtype=[("id", "u1"), ("grid", "<i4", (81,))])
    rec["grid"] = puzzles
    grids = rec["grid"]
    assert grids.strides == (325, 4)
    solved, status = sr.solve_batch(grids, status=True)
    assert (status == sr.Status.SOLVED).all()
    assert sr.check_batch(puzzles, solved)["valid"].all()
    assert sr.check_batch(puzzles, solved)["keeps_clues"].all()


class _Raises:
    def __init__(self, err):
        self.err = err

    def __index__(self):
        raise self.err


@pytest.mark.parametrize("err", [KeyboardInterrupt(), MemoryError(), SystemExit(3)])
def test_control_exceptions_from_a_cell_pass_through(err):
    rows = [[0] * 9 for _ in range(9)]
    rows[4][4] = _Raises(err)
    with pytest.raises(type(err)) as info:
        sr.solve(rows)
    assert info.value is err


def test_other_exceptions_from_a_cell_are_chained():
    rows = [[0] * 9 for _ in range(9)]
    rows[4][4] = _Raises(ZeroDivisionError("mine"))
    with pytest.raises(TypeError, match="row 4, column 4") as info:
        sr.solve(rows)
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    assert str(info.value.__cause__) == "mine"


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs setitimer")
def test_a_signal_handler_may_solve_during_a_long_count():
    assert threading.current_thread() is threading.main_thread()
    seen = []

    def handler(signum, frame):
        seen.append(sr.solve(LEETCODE))
        signal.setitimer(signal.ITIMER_REAL, 0)

    old = signal.signal(signal.SIGALRM, handler)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.02, 0.02)
        # Long enough (about half a second) for the timer to fire inside the search.
        count = sr.count_solutions("." * 81, limit=400_000)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert count == 400_000
    assert seen and seen[0] == sr.solve(LEETCODE)


def test_a_progress_callback_may_call_the_solver(monkeypatch):
    solved = []

    class Bar:  # a stand-in for tqdm's bar whose update calls the solver
        def __init__(self, total, desc, **_):
            pass

        def update(self, done):
            solved.append(sr.count_solutions(LEETCODE))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    monkeypatch.setitem(sys.modules, "tqdm.auto", types.SimpleNamespace(tqdm=Bar))
    puzzles = np.tile(CELLS, (3000, 1))
    out = sr.solve_batch(puzzles, threads=2, progress=True)
    assert (out == SOLVED).all()
    assert solved and set(solved) == {1}


def _rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="reads /proc")
def test_a_big_search_does_not_keep_its_arena():
    grid = np.zeros((64, 64), np.uint8)
    before = _rss_mib()
    sr.solve(grid)
    # An empty 64x64 grows the search arena to 133 MiB; the cached solver keeps about 1 MiB.
    assert _rss_mib() - before < 32


def test_thread_cap_keeps_results():
    puzzles = np.tile(CELLS, (100, 1))
    assert (sr.solve_batch(puzzles, threads=10**6) == SOLVED).all()


def test_constants_come_from_the_core():
    native = sr._sudoku_rs
    assert [(s.name, int(s), s.label) for s in sr.Status] == [tuple(s) for s in native.STATUSES]
    assert native.DIFFICULTY_LABELS == ["easy", "medium", "hard", "extreme"]
    assert native.LEVEL_LABELS == ["easy", "medium", "hard", "expert", "extreme"]
    assert native.CELL_CHARS[:9] == "123456789" and native.CELL_CHARS[-1] == "Z"
    assert len(native.CELL_CHARS) == native.MAX_TEXT_SIZE == 35
    labels = set(sr.rate_batch(["." * 80, LEETCODE])["difficulty"])
    assert labels == {"invalid", "easy"} <= set(native.DIFFICULTY_LABELS) | {"invalid"}


def test_status_codes_never_change():
    # Published codes: new outcomes are added at the end, never renumbered.
    assert {s.name: int(s) for s in sr.Status} == {
        "SOLVED": 0,
        "INVALID": 1,
        "NO_SOLUTION": 2,
        "GUESS_LIMIT": 3,
        "NOT_UNIQUE": 4,
        "UNSOLVED": 5,
        "TIME_LIMIT": 6,
    }
    assert sr.Status.NO_SOLUTION.label == "no solution"
    assert sr.Status.NOT_UNIQUE.label == "not unique"


def test_iter_solutions_matches_solutions():
    for grid, limit in [("." * 16, None), ("." * 16, 5), ("." * 81, 200), (LEETCODE, None)]:
        lazy = list(sr.iter_solutions(grid, limit=limit))
        assert lazy == sr.solutions(grid, limit=limit)
    rows = [[0] * 4 for _ in range(4)]
    assert list(sr.iter_solutions(rows, limit=3)) == sr.solutions(rows, limit=3)
    assert list(sr.iter_solutions(NO_SOLUTION_ROWS)) == []


NO_SOLUTION_ROWS = "12345678." + "........9" + "." * 63


def test_iter_solutions_is_lazy_and_can_be_dropped():
    # Far more solutions than could be held; taking a few is quick and the rest never exist.
    it = sr.iter_solutions(np.zeros((16, 16), np.uint8))
    first = [next(it) for _ in range(1000)]
    assert np.array_equal(first[0], sr.solve(np.zeros((16, 16), np.uint8)))
    assert len({f.tobytes() for f in first}) == 1000
    del it


def test_iter_solutions_errors():
    with pytest.raises(sr.InvalidPuzzleError):
        sr.iter_solutions("55" + "." * 79)
    it = sr.iter_solutions("." * 81, max_guesses=1, limit=100)
    with pytest.raises(sr.GuessLimitError):
        list(it)
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(TypeError, match="limit must be an int or None, got bool"):
        sr.iter_solutions("." * 81, limit=True)
