"""Leak check: many calls through every input kind and the batch and error paths, printing the
process's resident memory (VmRSS) as it goes. A leak shows as RSS that keeps growing after the
warm-up; steady RSS means none. Not a test (it takes a minute or more); run it by hand:

    python scripts/memory.py            # 1,000,000 single solves, then batches and errors
    python scripts/memory.py 100000     # fewer
"""

import contextlib
import sys
import time

import numpy as np

import sudoku_rs as sr

LEETCODE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def rss_mib():
    """Resident set size from /proc (Linux), in MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def kinds():
    """The same puzzle as every input kind, plus a 16x16 and a 6x6."""
    cells = [0 if c == "." else int(c) for c in LEETCODE]
    rows = [cells[i * 9 : (i + 1) * 9] for i in range(9)]
    return [
        (LEETCODE, None),
        (rows, None),
        ([["." if v == 0 else str(v) for v in row] for row in rows], None),
        (["".join(str(v) for v in row) for row in rows], None),
        (np.array(rows, dtype=np.int16), None),
        (np.asfortranarray(np.array(rows, dtype=">i8")), None),
        ("." * 36, (2, 3)),
    ]


def phase(name, calls, run):
    """Runs `run(i)` `calls` times, reporting RSS after the first tenth (the warm-up) and at
    the end."""
    warm = max(calls // 10, 1)
    start = time.perf_counter()
    before = rss_mib()
    for i in range(warm):
        run(i)
    warmed = rss_mib()
    for i in range(warm, calls):
        run(i)
    after = rss_mib()
    seconds = time.perf_counter() - start
    print(
        f"{name:<34} {calls:>9,} calls  RSS {before:7.1f} -> {warmed:7.1f} (warm) -> "
        f"{after:7.1f} MiB  growth after warm-up {after - warmed:+6.1f} MiB  ({seconds:.0f} s)",
        flush=True,
    )


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    inputs = kinds()
    print(f"sudoku_rs {sr.__version__}, start RSS {rss_mib():.1f} MiB")

    def solve(i):
        grid, box = inputs[i % len(inputs)]
        sr.solve(grid, box=box)

    phase("solve, mixed kinds", n, solve)

    def failing(i):
        bad = ["55" + "." * 79, [[10] * 9] * 9, "x", [[None] * 9] * 9, "." * 81][i % 5]
        with contextlib.suppress(ValueError, TypeError):
            sr.solve(bad, max_guesses=1 if i % 5 == 4 else None)

    phase("solve raising errors", n // 10, failing)

    puzzles = np.tile(np.array([0 if c == "." else int(c) for c in LEETCODE], np.int8), (10_000, 1))
    strings = [LEETCODE] * 10_000

    def batch(i):
        if i % 2:
            sr.solve_batch(puzzles, threads=2, status=True)
        else:
            sr.count_solutions_batch(strings, threads=2, max_guesses=100, status=True)

    phase("batches of 10,000", max(n // 5_000, 10), batch)


if __name__ == "__main__":
    main()
