"""solve_batch and count_solutions_batch: shapes, dtypes, bad rows, threads, GIL, fork."""

import multiprocessing
import signal
import sys
import threading
import time

import numpy as np
import pytest
import reference as ref
from helpers import NO_SOLUTION, Interrupted, counting_bars, read_lines

import sudoku_rs as sr


def as_array(lines):
    return np.array([ref.parse81(line) for line in lines], dtype=np.int64)


@pytest.fixture(scope="module")
def mixed(data_dir):
    """gen_invalid rows: none, one and several solutions, with reference counts."""
    lines = read_lines(data_dir / "gen_invalid", 30)
    counts = [ref.count_solutions(ref.parse81(p), 9, 3, 3, limit=2) for p in lines]
    assert {0, 2} <= set(counts), "the sample should mix unsolvable and multiple"
    return lines, counts


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16, np.uint32, np.int64, ">i4"])
@pytest.mark.parametrize("shape", ["flat", "square"])
def test_solve_batch_keeps_shape_and_dtype_and_zeroes_unsolvable_rows(mixed, dtype, shape):
    lines, counts = mixed
    puzzles = as_array(lines).astype(dtype)
    if shape == "square":
        puzzles = puzzles.reshape(-1, 9, 9)
    before = puzzles.copy()
    solved = sr.solve_batch(puzzles)
    assert solved.shape == puzzles.shape and solved.dtype == puzzles.dtype
    np.testing.assert_array_equal(puzzles, before)
    for line, count, row in zip(lines, counts, solved.reshape(len(lines), 81)):
        if count == 0:
            assert not row.any()
        else:
            assert ref.is_solution(ref.parse81(line), [int(v) for v in row], 9, 3, 3)


def test_batch_results_equal_single_calls_and_reference_counts(mixed):
    lines, counts = mixed
    puzzles = as_array(lines)
    np.testing.assert_array_equal(sr.count_solutions_batch(puzzles), counts)
    assert sr.count_solutions_batch(lines).tolist() == counts
    solved = sr.solve_batch(lines)
    for line, count, out in zip(lines, counts, solved):
        assert out == (sr.solve(line) if count else None)


def test_thread_count_does_not_change_results(data_dir):
    lines = read_lines(data_dir / "puzzles7_serg_benchmark", 30) + read_lines(
        data_dir / "gen_invalid", 30
    )
    puzzles = as_array(lines)
    one = sr.solve_batch(puzzles, threads=1)
    for threads in (2, 3, None):
        np.testing.assert_array_equal(sr.solve_batch(puzzles, threads=threads), one)
    counts = sr.count_solutions_batch(puzzles, limit=5, threads=1)
    np.testing.assert_array_equal(sr.count_solutions_batch(puzzles, limit=5, threads=2), counts)


def test_bad_rows_do_not_spoil_the_batch():
    good = ref.parse81(
        "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    )
    conflict = [5, 5] + [0] * 79
    out_of_range = [10] + [0] * 80
    negative = [-1] + [0] * 80
    puzzles = np.array([good, conflict, out_of_range, negative, good])
    solved = sr.solve_batch(puzzles)
    assert not solved[1:4].any()
    assert ref.is_solution(good, solved[0].tolist(), 9, 3, 3)
    np.testing.assert_array_equal(solved[0], solved[4])
    assert sr.count_solutions_batch(puzzles).tolist() == [1, 0, 0, 0, 1]
    # A bad first string (another size, or a size with no box) does not set the batch's size.
    for first in ("." * 36, "abcdefghijklmnop"):
        assert sr.solve_batch([first, ref.to_string(good)])[1] == sr.solve(ref.to_string(good))
    with pytest.raises(TypeError, match=r"np.array"):
        sr.solve_batch([[[0] * 9] * 9])
    texts = ["5" * 81, "x" * 81, None, "." * 80, ref.to_string(good)]
    assert sr.solve_batch(texts)[:4] == [None] * 4
    assert sr.count_solutions_batch(texts).tolist() == [0, 0, 0, 0, 1]


def test_empty_batches_and_bad_overall_shapes():
    assert sr.solve_batch(np.zeros((0, 81), dtype=np.int32)).shape == (0, 81)
    assert sr.solve_batch([]) == []
    assert sr.count_solutions_batch(np.zeros((0, 9, 9), dtype=np.uint8)).shape == (0,)
    with pytest.raises(sr.InvalidPuzzleError, match=r"\(3, 80\)"):
        sr.solve_batch(np.zeros((3, 80), dtype=np.int64))
    with pytest.raises(sr.InvalidPuzzleError, match=r"\(81,\)"):
        sr.solve_batch(np.zeros(81, dtype=np.int64))
    with pytest.raises(TypeError, match="float64"):
        sr.solve_batch(np.zeros((2, 81)))
    with pytest.raises(ValueError, match="threads"):
        sr.solve_batch(np.zeros((1, 81), dtype=np.int64), threads=0)
    with pytest.raises(ValueError, match="limit"):
        sr.count_solutions_batch(np.zeros((1, 81), dtype=np.int64), limit=0)


def test_bigger_grids_and_rectangular_boxes(data_dir):
    lines = read_lines(data_dir / "gen_16x16", 5)
    solved = sr.solve_batch(lines)
    for line, out in zip(lines, solved):
        assert ref.is_solution(ref.parse81(line), ref.parse81(out), 16, 4, 4)
    six = np.zeros((3, 6, 6), dtype=np.int16)
    six[1, 0, :2] = [1, 1]  # a conflict in row 0
    out = sr.solve_batch(six, box=(2, 3))
    assert ref.is_solution([0] * 36, out[0].ravel().tolist(), 6, 2, 3)
    assert not out[1].any()
    with pytest.raises(sr.InvalidPuzzleError, match="box"):
        sr.solve_batch(six)


def test_progress_counts_every_puzzle_of_an_array_and_with_status(mixed, monkeypatch):
    lines, _ = mixed
    bars = counting_bars(monkeypatch)
    rows = len(lines) * 10
    sr.solve_batch(as_array(lines * 10), progress=True)
    sr.count_solutions_batch(as_array(lines * 10), progress=True, status=True)
    assert bars == [
        {"total": rows, "desc": "solving", "done": rows},
        {"total": rows, "desc": "counting", "done": rows},
    ]


def test_progress_true_uses_tqdm(mixed, capsys):
    pytest.importorskip("tqdm")
    lines, counts = mixed
    assert sr.count_solutions_batch(lines, progress=True).tolist() == counts
    assert "counting" in capsys.readouterr().err


def test_progress_true_without_tqdm_says_how_to_get_it(mixed, monkeypatch):
    lines, _ = mixed
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    for call in (sr.solve_batch, sr.count_solutions_batch):
        with pytest.raises(ImportError, match=r"progress=True needs tqdm: pip install tqdm"):
            call(lines, progress=True)
        # Any false value is no bar, as `if progress:` reads it.
        assert len(call(lines, progress=0)) == len(lines)


# Every batch function of the package that takes puzzles, as a call on puzzles and keywords,
# with what its progress bar says.
BATCHES = {
    "solving": sr.solve_batch,
    "counting": sr.count_solutions_batch,
    "candidates": sr.candidates_batch,
    "canonical": sr.canonical_batch,
    "augmenting": lambda puzzles, **kw: sr.augment_batch(puzzles, seed=1, **kw),
    "checking": lambda puzzles, **kw: sr.check_batch(puzzles, puzzles, **kw),
    "rating": sr.rate_batch,
    "grading": sr.grade_batch,
    "explaining": sr.explain_batch,
}


def plain(result):
    """A batch result as plain lists, so results of different inputs compare."""
    if isinstance(result, sr.Traces):
        return [plain(result.grades), {k: plain(v) for k, v in result.steps.items()}]
    if isinstance(result, tuple):
        return [plain(part) for part in result]
    return result.tolist() if isinstance(result, np.ndarray) else result


@pytest.mark.parametrize("desc", BATCHES)
def test_every_batch_shows_one_bar_over_its_rows(mixed, monkeypatch, desc):
    lines, _ = mixed
    bars = counting_bars(monkeypatch)
    with_bar = BATCHES[desc](lines, progress=True)
    assert bars == [{"total": len(lines), "desc": desc, "done": len(lines)}]
    assert plain(with_bar) == plain(BATCHES[desc](lines))
    assert len(bars) == 1  # no bar without progress=True


@pytest.mark.parametrize("desc", BATCHES)
def test_every_batch_without_tqdm_says_how_to_get_it(mixed, monkeypatch, desc):
    lines, _ = mixed
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    with pytest.raises(ImportError, match=r"progress=True needs tqdm: pip install tqdm"):
        BATCHES[desc](lines, progress=True)
    assert plain(BATCHES[desc](lines, progress=0)) == plain(BATCHES[desc](lines))


@pytest.mark.parametrize("desc", BATCHES)
def test_every_batch_takes_any_string_column_and_refuses_nested_lists(mixed, desc):
    pd = pytest.importorskip("pandas")
    lines, _ = mixed
    lines = lines[:8]
    expected = plain(BATCHES[desc](lines))
    columns = [
        tuple(lines),
        np.array(lines),
        np.array(lines, dtype=object),
        np.array(lines, dtype="S"),
        pd.Series(lines),
    ]
    for column in columns:
        assert plain(BATCHES[desc](column)) == expected, type(column)
    nested = as_array(lines).reshape(-1, 9, 9).tolist()
    with pytest.raises(TypeError, match=r"convert nested lists with np\.array\(puzzles\)"):
        BATCHES[desc](nested)
    with pytest.raises(TypeError, match=r"a batch is a numpy array .*; got int"):
        BATCHES[desc](42)


def test_batch_entry_points_show_their_signatures():
    import inspect

    solve = str(inspect.signature(sr.solve_batch))
    assert solve.startswith("(puzzles, /, *, box=None, threads=None, progress=False,")
    assert "(puzzles, /, *, limit=2, box=None" in str(inspect.signature(sr.count_solutions_batch))
    for compiled in (sr.candidates_batch, sr.canonical_batch):
        assert str(inspect.signature(compiled)) == (
            "(puzzles, /, *, box=None, threads=None, progress=False)"
        )
    assert str(inspect.signature(sr.augment_batch)) == (
        "(puzzles, solutions=None, /, *, seed=None, box=None, threads=None, progress=False)"
    )
    with pytest.raises(TypeError):
        sr.solve_batch([LEET], (3, 3))  # keyword-only, as documented


def test_other_threads_run_while_a_batch_solves(data_dir):
    puzzles = as_array(read_lines(data_dir / "puzzles6_forum_hardest_1106", 30) * 20)
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.001)

    thread = threading.Thread(target=ticker)
    thread.start()
    try:
        sr.count_solutions_batch(puzzles, threads=1)
    finally:
        stop.set()
        thread.join()
    # With the GIL held for the whole batch the ticker would get at most a couple of turns.
    assert len(ticks) > 5


def _count_in_child(queue, rows):
    queue.put(sr.count_solutions_batch(np.array(rows, dtype=np.int64), threads=2).tolist())


def test_batch_works_in_a_forked_child(mixed):
    lines, counts = mixed
    sr.count_solutions_batch(as_array(lines), threads=2)  # threads used in the parent first
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_count_in_child, args=(queue, as_array(lines).tolist()))
    child.start()
    try:
        assert queue.get(timeout=60) == counts
    finally:
        child.join(timeout=60)
    assert child.exitcode == 0


def test_string_columns_from_numpy_work_like_lists(mixed):
    lines, counts = mixed
    for column in (np.array(lines), np.array(lines, dtype=object), np.array(lines, dtype="S")):
        assert sr.count_solutions_batch(column).tolist() == counts
        assert sr.solve_batch(column) == sr.solve_batch(lines)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int64, np.uint64])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_any_memory_order_reads_the_same_rows(mixed, dtype, layout):
    lines, _ = mixed
    puzzles = as_array(lines).astype(dtype)
    # Out-of-range values mark their row bad in every layout: too big, and (signed) negative.
    puzzles[1, 5] = 10
    if np.issubdtype(dtype, np.signedinteger):
        puzzles[2, 7] = -1
    expected = sr.solve_batch(np.ascontiguousarray(puzzles), threads=1)
    if layout == "F":
        arranged = np.asfortranarray(puzzles)
    elif layout == "strided":
        arranged = np.repeat(puzzles, 2, axis=0)[::2]
    else:
        arranged = puzzles
    got = sr.solve_batch(arranged, threads=1)
    np.testing.assert_array_equal(got, expected)
    assert not expected[1].any()
    counts = sr.count_solutions_batch(arranged, threads=1)
    assert counts[1] == 0
    if np.issubdtype(dtype, np.signedinteger):
        assert not expected[2].any() and counts[2] == 0
    square = arranged.reshape(len(lines), 9, 9)
    np.testing.assert_array_equal(sr.solve_batch(square, threads=1).reshape(-1, 81), expected)


# A one-thread batch of up to 4 rows searches with the GIL held until a row's first poll (1024
# nodes), then runs that row and the rest detached: rows on both sides of that point, with bad
# rows among them, must keep their own results and statuses.
EMPTY = "." * 81
LEET = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
CONFLICT = "11" + "." * 79
NO_SOLUTION_TEXT = ref.to_string(NO_SOLUTION)


@pytest.mark.parametrize("kind", ["list", "array"])
def test_a_small_batch_past_its_first_poll_keeps_every_rows_status(kind):
    # EMPTY needs far more than one poll interval for 200,000 solutions and runs out of its
    # 5,000 guesses past it; LEET finishes before it; a conflict and a malformed row are
    # invalid on either side of it.
    rows = [CONFLICT, EMPTY, "x" * 81, LEET]
    if kind == "array":
        puzzles = np.array([ref.parse81(r.replace("x", ".")) for r in rows], dtype=np.int16)
        puzzles[2, 0] = 10  # out of range: a malformed row
    else:
        puzzles = rows
    counts, status = sr.count_solutions_batch(
        puzzles, limit=200_000, max_guesses=5000, threads=1, status=True
    )
    assert counts.tolist() == [0, -1, 0, 1]
    assert status.tolist() == [
        sr.Status.INVALID,
        sr.Status.GUESS_LIMIT,
        sr.Status.INVALID,
        sr.Status.SOLVED,
    ]
    # Without a budget the long row counts to its limit, after the rows before its first poll.
    counts, status = sr.count_solutions_batch(puzzles[::-1], limit=200_000, threads=1, status=True)
    assert counts.tolist() == [1, 0, 200_000, 0]
    assert status.tolist() == [
        sr.Status.SOLVED,
        sr.Status.INVALID,
        sr.Status.SOLVED,
        sr.Status.INVALID,
    ]
    # A budget spent before the first poll: the same statuses from the attached step alone.
    solved, status = sr.solve_batch(puzzles, max_guesses=1, threads=1, status=True)
    assert status.tolist() == [
        sr.Status.INVALID,
        sr.Status.GUESS_LIMIT,
        sr.Status.INVALID,
        sr.Status.SOLVED,
    ]
    if kind == "array":
        assert not solved[:3].any() and solved[3].tolist() == ref.parse81(sr.solve(LEET))
    else:
        assert solved == [None, None, None, sr.solve(LEET)]


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
# Four rows take the general path, one row the single call's; every 9x9 grid would take ages.
@pytest.mark.parametrize(
    "rows",
    [[CONFLICT, LEET, EMPTY, "x"], [EMPTY], np.zeros((1, 9, 9), dtype=np.uint8)],
    ids=["four", "one string", "one array"],
)
def test_a_small_batch_past_its_first_poll_stops_on_a_signal(rows, alarm):
    alarm(0.2)
    start = time.perf_counter()
    with pytest.raises(Interrupted):
        sr.count_solutions_batch(rows, limit=10**15, threads=1)
    assert time.perf_counter() - start < 3
    assert sr.count_solutions_batch([CONFLICT, LEET], threads=1).tolist() == [0, 1]


@pytest.mark.parametrize(
    ("row", "options"),
    [
        (LEET, {}),
        (EMPTY, {}),
        (EMPTY, {"max_guesses": 1}),  # out of guesses: None
        (CONFLICT, {}),
        (NO_SOLUTION_TEXT, {}),
        ("x" * 81, {}),
        ("." * 80, {}),
        (None, {}),
        (5, {}),
        ("\n".join(LEET[r * 9 : r * 9 + 9] for r in range(9)) + "\n", {}),  # laid out
        ("\u00a0".join(LEET), {}),  # whitespace outside ASCII
        ("\ud800" * 81, {}),  # a lone surrogate: no UTF-8 form at all
        ("." * 16, {}),
        ("." * 36, {"box": (2, 3)}),
        (LEET, {"box": (2, 3)}),  # a good box that does not fit the row
    ],
)
def test_a_one_string_batch_gives_what_its_row_in_a_longer_batch_gets(row, options):
    # A list of one string is searched as a single call is; a longer list takes the general
    # path. EMPTY with limit=5000 counts past its first poll.
    one = sr.solve_batch([row], **options)
    two = sr.solve_batch([row, row], **options)
    assert one == two[:1]
    assert one == sr.solve_batch((row,), **options)  # a tuple takes the general path too
    counts = sr.count_solutions_batch([row], limit=5000, **options)
    np.testing.assert_array_equal(
        counts, sr.count_solutions_batch([row, row], limit=5000, **options)[:1]
    )
    assert counts.dtype == np.int64 and counts.shape == (1,)


def one_row_arrays():
    """One-row arrays in every form the batch functions take, with the options to pass."""
    leet = np.array(ref.parse81(LEET), dtype=np.int64)
    out_of_range = leet.copy()
    out_of_range[40] = 10
    flat_16 = np.zeros(256, dtype=np.int64)
    flat_16[0] = 16
    cases = {
        "uint8 (1, 9, 9)": (leet.astype(np.uint8).reshape(1, 9, 9), {}),
        "int64 (1, 81)": (leet.reshape(1, 81), {}),
        "int8 (1, 81)": (leet.astype(np.int8).reshape(1, 81), {}),
        "byte-swapped": (leet.astype(">i4").reshape(1, 9, 9), {}),
        "column-major": (np.asfortranarray(leet.astype(np.int16).reshape(1, 9, 9)), {}),
        "strided": (np.repeat(leet.reshape(1, 81), 2, axis=1)[:, ::2], {}),
        "unaligned": (
            np.frombuffer(b"\0" + leet.astype(np.int32).tobytes(), np.int32, 81, 1).reshape(1, 81),
            {},
        ),
        "empty, out of guesses": (np.zeros((1, 81), dtype=np.uint16), {"max_guesses": 1}),
        "conflict": (np.array([ref.parse81(CONFLICT)], dtype=np.int32), {}),
        "no solution": (np.array([ref.parse81(NO_SOLUTION_TEXT)], dtype=np.int32), {}),
        "out of range": (out_of_range.reshape(1, 81), {}),
        "16x16": (flat_16.reshape(1, 16, 16), {}),
        "6x6 with 2x3 boxes": (np.zeros((1, 36), dtype=np.uint8), {"box": (2, 3)}),
    }
    return [pytest.param(a, o, id=k) for k, (a, o) in cases.items()]


@pytest.mark.parametrize(("row", "options"), one_row_arrays())
def test_a_one_row_array_gives_what_its_row_in_a_longer_batch_gets(row, options):
    # An array of one row is searched as a single call is; a longer one takes the general path.
    before = row.copy()
    two = np.concatenate([row, row])
    one = sr.solve_batch(row, **options)
    assert one.shape == row.shape and one.dtype == row.dtype
    np.testing.assert_array_equal(one, sr.solve_batch(two, **options)[:1])
    counts = sr.count_solutions_batch(row, limit=5000, **options)
    np.testing.assert_array_equal(counts, sr.count_solutions_batch(two, limit=5000, **options)[:1])
    assert counts.dtype == np.int64 and counts.shape == (1,)
    np.testing.assert_array_equal(row, before)


@pytest.mark.parametrize(
    "row",
    [
        np.zeros((1, 9, 8), dtype=np.int64),
        np.zeros((1, 80), dtype=np.int64),
        np.zeros((1, 0, 0), dtype=np.int64),
        np.zeros((1,), dtype=np.int64),
        np.zeros((1, 81), dtype=np.float64),
        np.zeros((1, 81), dtype=bool),
        np.zeros((1, 49), dtype=np.int64),  # 7x7: no box shape
    ],
    ids=["(1, 9, 8)", "(1, 80)", "(1, 0, 0)", "(1,)", "float", "bool", "7x7"],
)
def test_a_one_row_array_is_refused_as_a_longer_one_is(row):
    two = np.concatenate([row, row])
    for call in (sr.solve_batch, sr.count_solutions_batch):
        with pytest.raises((TypeError, ValueError)) as longer:
            call(two)
        with pytest.raises(type(longer.value)) as one:
            call(row)
        # The same message, but for the batch's shape where it names it.
        assert str(longer.value) in (str(one.value), str(one.value).replace("(1,", "(2,"))


def test_a_one_string_batch_with_a_bad_box_raises_as_a_longer_one_does():
    for rows in ([LEET], [LEET, LEET], ["x"], [None]):
        for call in (sr.solve_batch, sr.count_solutions_batch):
            with pytest.raises(sr.InvalidPuzzleError, match="is not a box shape"):
                call(rows, box=(1, 9))
