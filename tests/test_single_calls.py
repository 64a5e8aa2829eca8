"""Single calls on small grids search with the GIL held until their first poll, then start again
with it released: the answers are the same either way, a long 9x9 search still lets other
threads run and stops on Ctrl-C, and a batch on the same thread never inherits a single call's
settings."""

import signal
import sys
import threading
import time

import numpy as np
import pytest
from helpers import Interrupted

import sudoku_rs as sr

LEET = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
EMPTY = "." * 81
# A 9x9 count that takes many poll intervals (1024 nodes each).
MANY = 200_000


def test_a_search_past_the_first_poll_gives_the_batch_answer():
    for limit in (1, 2, 1000, 5000):
        single = sr.count_solutions(EMPTY, limit=limit)
        batch = sr.count_solutions_batch([EMPTY], limit=limit, threads=1)
        assert single == batch[0] == limit
    assert sr.solve(EMPTY) == sr.solve_batch([EMPTY])[0]
    assert sr.is_unique(LEET) and not sr.is_unique(EMPTY)


def test_a_guess_limit_is_reported_the_same_before_and_after_the_first_poll():
    with pytest.raises(sr.GuessLimitError):
        sr.count_solutions(EMPTY, limit=MANY, max_guesses=10)
    with pytest.raises(sr.GuessLimitError):
        sr.count_solutions(EMPTY, limit=MANY, max_guesses=5000)


def test_a_batch_after_a_budgeted_single_call_has_no_budget():
    with pytest.raises(sr.GuessLimitError):
        sr.count_solutions(EMPTY, limit=MANY, max_guesses=10)
    counts = sr.count_solutions_batch([EMPTY], limit=5000, threads=1)
    assert counts.tolist() == [5000]
    solved = sr.solve_batch(np.zeros((1, 81), dtype=np.uint8), threads=1)
    assert sr.is_valid(solved[0].reshape(9, 9)) and solved.all()


def _runs_during(call):
    """Whether another Python thread ran while `call` ran. With a huge switch interval the
    calling thread keeps the GIL between bytecodes, so the other thread can only run when the
    call releases it."""
    counter = [0]
    stop = threading.Event()

    def spin():
        while not stop.is_set():
            counter[0] += 1
            time.sleep(0)  # hands the GIL back at once

    previous = sys.getswitchinterval()
    # Set before the thread starts, so that it never waits for the GIL under the old interval:
    # a wait begun then could ask for the GIL back in the middle of the call.
    sys.setswitchinterval(100)
    thread = threading.Thread(target=spin)
    try:
        thread.start()
        while counter[0] == 0:
            time.sleep(0.001)
        before = counter[0]
        call()
        after = counter[0]
    finally:
        sys.setswitchinterval(previous)
        stop.set()
        if thread.is_alive():
            thread.join()
    return after != before


def test_other_threads_run_during_a_long_search_but_not_a_short_one():
    assert _runs_during(lambda: sr.count_solutions(EMPTY, limit=MANY))
    assert not _runs_during(lambda: [sr.solve(LEET) for _ in range(100)])


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
def test_a_long_9x9_count_stops_on_a_signal(alarm):
    alarm(0.2)
    start = time.perf_counter()
    with pytest.raises(Interrupted):
        sr.count_solutions(EMPTY, limit=10**15)  # every 9x9 grid: would run for ages
    assert time.perf_counter() - start < 3
    assert sr.solve(LEET).startswith("534678912")


def test_cells_read_on_the_fast_paths_and_the_general_one_agree():
    rows = [[int(c) if c != "." else 0 for c in LEET[r * 9 : r * 9 + 9]] for r in range(9)]
    board = [list(LEET[r * 9 : r * 9 + 9]) for r in range(9)]
    solution = sr.solve(LEET)
    want_rows = [[int(c) for c in solution[r * 9 : r * 9 + 9]] for r in range(9)]

    class Str(str):
        pass

    class Int(int):
        pass

    mixed_board = [
        [Str(c) if (r + k) % 2 else c for k, c in enumerate(row)] for r, row in enumerate(board)
    ]
    mixed_rows = [
        [Int(v) if (r + k) % 2 else v for k, v in enumerate(row)] for r, row in enumerate(rows)
    ]
    assert sr.solve(rows) == sr.solve(mixed_rows) == want_rows
    want_board = [list(solution[r * 9 : r * 9 + 9]) for r in range(9)]
    assert sr.solve(board) == sr.solve(mixed_board) == want_board
    for dtype in (np.uint8, np.int16, np.int64, ">i4"):
        grid = np.array(rows, dtype=dtype)
        for layout in (grid, np.asfortranarray(grid), grid.T.copy().T, grid[::1, ::1]):
            out = sr.solve(layout)
            assert out.dtype == grid.dtype and out.shape == (9, 9)
            assert out.tolist() == want_rows
    # Long or laid-out text, and whitespace outside ASCII, keep their layout.
    laid = "\n".join(LEET[r * 9 : r * 9 + 9] for r in range(9)) + "\n"
    assert sr.solve(laid) == "\n".join(solution[r * 9 : r * 9 + 9] for r in range(9)) + "\n"
    wide = "\u00a0".join(LEET)
    assert sr.solve(wide) == "\u00a0".join(solution)
    padded = " " * 300 + LEET
    assert sr.solve(padded) == " " * 300 + solution
