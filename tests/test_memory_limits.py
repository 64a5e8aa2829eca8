"""Requests that cannot fit in memory, each run in a child process under a lowered address-space
limit (RLIMIT_AS): every entry point that allocates in proportion to a user's number must raise
MemoryError (or a clear ValueError before any work), never abort the process or let pyo3's
PanicException out, and the interpreter must keep running afterwards.

ENTRY_POINTS is the list of what is checked and what each raises; `python
tests/test_memory_limits.py` prints it as a table.
"""

import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="RLIMIT_AS and /proc are Linux")

# Run in the child before each case: the limit is what the interpreter already maps plus
# HEADROOM, so the case's own allocations are what fails.
PRELUDE = r"""
import resource, sys
import numpy as np
import sudoku_rs as sr
EMPTY9 = "." * 81
HUGE = np.broadcast_to(np.zeros(81, np.uint8), (10**9, 81))  # a view: takes no memory
HUGE_BIG = np.broadcast_to(np.zeros(256, np.uint8), (10**8, 256))
if "BIG_FILE" in {call!r}:
    import os, tempfile
    fd, BIG_FILE = tempfile.mkstemp(suffix=".txt")
    with os.fdopen(fd, "wb") as f:
        f.write((EMPTY9 + "\n").encode() * 600_000)  # 49 MB
vm = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (vm + {headroom}, resource.RLIM_INFINITY))
try:
    {call}
    outcome = "no error"
except MemoryError:
    outcome = "MemoryError"  # numpy's own is a subclass
except BaseException as err:
    outcome = type(err).__name__
if "BIG_FILE" in {call!r}:
    os.remove(BIG_FILE)
# The interpreter is still usable: solve a puzzle and say what happened.
assert sr.solve(EMPTY9)[0] == "1"
print(outcome)
"""

HEADROOM = 96 * 2**20

# (the call, what it must raise). The calls are written as the child runs them.
ENTRY_POINTS = [
    ("sr.solve_batch(HUGE)", "MemoryError"),
    ("sr.solve_batch(HUGE, status=True)", "MemoryError"),
    ("sr.count_solutions_batch(HUGE)", "MemoryError"),
    ("sr.canonical_batch(HUGE)", "MemoryError"),
    ("sr.augment_batch(HUGE, seed=1)", "MemoryError"),
    ("sr.augment_batch(HUGE_BIG, seed=1)", "MemoryError"),
    ("sr.rate_batch(HUGE)", "MemoryError"),
    ("sr.check_batch(HUGE, HUGE)", "MemoryError"),
    ("sr.generate_batch(10**8, seed=1)", "MemoryError"),
    ("sr.generate_batch(pow(81, -1, 2**64), seed=1)", "MemoryError"),
    ("sr.generate_batch(2**62, seed=1)", "MemoryError"),
    ("sr.solutions(EMPTY9, limit=10**7)", "MemoryError"),
    ("sr.solutions(EMPTY9, limit=None)", "MemoryError"),
    ("sr.read_puzzles(BIG_FILE)", "MemoryError"),
    ("sr.candidates_batch(HUGE)", "MemoryError"),
    ("sr.grade_batch(HUGE)", "MemoryError"),
    ("sr.explain_batch(HUGE)", "MemoryError"),
    ("sr.solve_batch(np.zeros((20000, 81), np.uint8), threads=10**6)", "no error"),
]


def run_case(call, headroom=HEADROOM):
    code = PRELUDE.format(headroom=headroom, call=call)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("call, raised", ENTRY_POINTS, ids=[c for c, _ in ENTRY_POINTS])
def test_out_of_memory_is_memory_error(call, raised):
    done = run_case(call)
    assert done.returncode == 0, f"{call}: exit {done.returncode}\n{done.stderr[-2000:]}"
    assert done.stdout.strip() == raised, done.stderr[-2000:]
    assert "PanicException" not in done.stderr


if __name__ == "__main__":
    print("| call | raises under RLIMIT_AS = mapped + 96 MiB |\n| --- | --- |")
    for call, _ in ENTRY_POINTS:
        done = run_case(call)
        got = done.stdout.strip() or f"exit {done.returncode}"
        print(f"| `{call}` | {got} |")
