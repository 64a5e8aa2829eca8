"""Many Python threads calling into the library at once get exactly the serial results: the
per-thread solver caches, the batch threads and the GIL release do not mix up calls."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from helpers import make_input, read_lines
from reference import parse81

import sudoku_rs as sr


@pytest.fixture(scope="module")
def mixed(data_dir):
    """9x9 puzzles (unique, several solutions, none, conflicting), plus 4x4, 6x6 and 16x16."""
    nine = read_lines(data_dir / "puzzles7_serg_benchmark", 12) + read_lines(
        data_dir / "gen_invalid", 12
    )
    calls = []
    for i, line in enumerate(nine):
        kind = ("text", "ints", "strs", "numpy")[i % 4]
        calls.append((make_input(parse81(line), 9, kind), None))
    calls.extend((line, None) for line in read_lines(data_dir / "gen_16x16", 3))
    calls += [("." * 16, None), ("1" + "." * 35, (2, 3)), ("55" + "." * 79, None)]
    return nine, calls


def outcome(func, grid, box):
    """A comparable result of one call: the value, or the exception type and message."""
    try:
        result = sr.solve(grid, box=box) if func is sr.solve else func(grid, limit=3, box=box)
    except sr.SudokuError as err:
        return (type(err).__name__, str(err))
    return repr(np.asarray(result).tolist()) if isinstance(result, np.ndarray) else repr(result)


def test_eight_threads_hammering_give_the_serial_results(mixed):
    nine, calls = mixed
    jobs = [(f, g, b) for f in (sr.solve, sr.count_solutions, sr.solutions) for g, b in calls]
    jobs = jobs * 6
    serial = [outcome(*job) for job in jobs]
    batch = np.array([parse81(line) for line in nine], dtype=np.int32)
    serial_batch = (sr.solve_batch(batch, threads=2), sr.count_solutions_batch(nine, limit=3))

    def batches(_):
        return (sr.solve_batch(batch, threads=2), sr.count_solutions_batch(nine, limit=3))

    with ThreadPoolExecutor(max_workers=8) as pool:
        singles = pool.map(lambda job: outcome(*job), jobs)
        many = pool.map(batches, range(16))
        assert list(singles) == serial
        for solved, counts in many:
            np.testing.assert_array_equal(solved, serial_batch[0])
            np.testing.assert_array_equal(counts, serial_batch[1])
