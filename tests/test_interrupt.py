"""Ctrl-C (any exception raised by a signal handler) stops long work and leaves the process usable.

A SIGALRM handler stands in for Ctrl-C: it raises in the main thread exactly as SIGINT's does.
"""

import signal
import time

import numpy as np
import pytest
from helpers import Interrupted

import sudoku_rs as sr

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")

LEET = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_a_long_single_count_stops(alarm):
    alarm(0.2)
    start = time.perf_counter()
    with pytest.raises(Interrupted):
        sr.count_solutions("." * 256)  # every 16x16 grid: would run for ages
    assert time.perf_counter() - start < 3
    assert sr.solve(LEET).startswith("534678912")


@pytest.mark.parametrize("threads", [1, 2])
def test_a_long_batch_stops(alarm, threads):
    empty = np.zeros((64, 256), dtype=np.uint8)
    alarm(0.3)
    start = time.perf_counter()
    with pytest.raises(Interrupted):
        sr.count_solutions_batch(empty, limit=10**12, threads=threads)
    assert time.perf_counter() - start < 3
    assert sr.count_solutions_batch([LEET], threads=threads).tolist() == [1]


def test_a_long_iter_solutions_wait_stops_and_the_iterator_goes_on(alarm):
    # The first buffer of solutions of an empty 64x64 takes over a second to search.
    it = sr.iter_solutions(np.zeros((64, 64), np.uint8))
    alarm(0.2)
    start = time.perf_counter()
    with pytest.raises(Interrupted):
        next(it)
    assert time.perf_counter() - start < 3
    first = next(it)  # the buffer the interrupted wait asked for
    assert np.array_equal(first, sr.solve(np.zeros((64, 64), np.uint8)))
    del it
    assert sr.solve(LEET).startswith("534678912")
