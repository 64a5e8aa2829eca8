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
import os, tempfile
if "MANY" in {call!r}:
    MANY = np.ones((10**6, 81), np.uint8)  # 81 MB held before the limit: its text does not fit
if "BIG_FILE" in {call!r}:
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
    ("sr.se_rate_batch(HUGE)", "MemoryError"),
    ("sr.check_batch(HUGE, HUGE)", "MemoryError"),
    ("sr.score_batch(HUGE, HUGE, solutions=HUGE)", "MemoryError"),
    ("sr.parse_answer_batch([EMPTY9] * 3 * 10**6)", "MemoryError"),
    ("sr.generate_batch(10**8, seed=1)", "MemoryError"),
    ("sr.generate_batch(pow(81, -1, 2**64), seed=1)", "MemoryError"),
    ("sr.generate_batch(2**62, seed=1)", "MemoryError"),
    ("sr.solutions(EMPTY9, limit=10**7)", "MemoryError"),
    ("sr.solutions(EMPTY9, limit=None)", "MemoryError"),
    ("list(sr.iter_solutions(EMPTY9, limit=10**7))", "MemoryError"),
    ("sum(1 for _ in sr.iter_solutions(EMPTY9, limit=10**5))", "no error"),
    ("sr.format_puzzles(HUGE)", "MemoryError"),
    ("sr.format_puzzles(MANY)", "MemoryError"),
    ("sr.write_puzzles(os.devnull, HUGE)", "MemoryError"),
    ("sr.write_traces(os.devnull, HUGE)", "MemoryError"),
    ("sr.read_variant_puzzles(BIG_FILE)", "MemoryError"),
    ("sr.print_sheets(HUGE, os.path.join(tempfile.gettempdir(), 'never.pdf'))", "MemoryError"),
    ("sr.read_puzzles(BIG_FILE)", "MemoryError"),
    ("sr.candidates_batch(HUGE)", "MemoryError"),
    ("sr.grade_batch(HUGE)", "MemoryError"),
    ("sr.explain_batch(HUGE)", "MemoryError"),
    ('sr.encode(np.broadcast_to(np.zeros(81, np.uint8), (10**7, 81)), "onehot")', "MemoryError"),
    ('sr.encode(np.broadcast_to(np.zeros(81, np.uint8), (10**7, 81)), "tokens")', "MemoryError"),
    ('sr.encode(["." * 81] * 10**6, "onehot")', "MemoryError"),
    ('sr.decode(np.broadcast_to(np.zeros(9, bool), (10**7, 9, 9, 9)), "onehot")', "MemoryError"),
    ('sr.decode(np.broadcast_to(np.ones(81, np.uint8), (10**7, 81)), "tokens")', "MemoryError"),
    ("sr.encode_moves(np.broadcast_to(np.array([0, 0, 1]), (10**7, 10, 3)))", "MemoryError"),
    ("sr.decode_moves(np.broadcast_to(np.zeros(1, np.int32), (10**7, 10)))", "MemoryError"),
    (
        (
            "sr.export_hrm(os.path.join(tempfile.gettempdir(), 'never-hrm'), "
            "sr.generate_batch(1, seed=1), num_aug=10**12)"
        ),
        "MemoryError",
    ),
    ("sr.to_arrow(np.broadcast_to(np.zeros(81, np.uint8), (10**7, 81)))", "MemoryError"),
    (
        (
            "sr.write_parquet(os.path.join(tempfile.gettempdir(), 'never.parquet'), "
            "np.broadcast_to(np.zeros(81, np.uint8), (10**7, 81)))"
        ),
        "MemoryError",
    ),
    ("sr.search_trace_batch(HUGE)", "MemoryError"),
    ("sr.logic_trace_batch(HUGE, states=True)", "MemoryError"),
    ("sr.solutions_batch(HUGE, limit=10)", "MemoryError"),
    ("sr.solutions_batch(np.zeros((1000, 81), np.uint8), limit=10**7)", "MemoryError"),
    ("sr.solutions_batch(np.zeros((1000, 81), np.uint8), limit=2**62)", "MemoryError"),
    ("sr.fill_from_solution(HUGE, clues=30)", "MemoryError"),
    ("sr.fill_from_solution(HUGE, HUGE, clues=30)", "MemoryError"),
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


@pytest.mark.parametrize(("call", "raised"), ENTRY_POINTS, ids=[c for c, _ in ENTRY_POINTS])
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


# Public names that allocate nothing in proportion to a number the caller gives (one grid, one
# step, a class or a constant), so they have no row above. Every other name of sr.__all__ must.
NOT_PROPORTIONAL = {
    "Board": "one grid",
    "Answer": "a result type",
    "Answers": "a result type",
    "Explanation": "a result type",
    "GenerateError": "an exception",
    "Grade": "a result type",
    "GuessLimitError": "an exception",
    "InvalidCandidatesError": "an exception",
    "InvalidPuzzleError": "an exception",
    "InvalidRulesError": "an exception",
    "LogicTraces": "a result type",
    "NoSolutionError": "an exception",
    "Puzzle": "one puzzle (its payload decodes to a capped length)",
    "Rating": "a result type",
    "Rules": "one set of rules",
    "SearchTraces": "a result type",
    "Status": "a constant table",
    "Step": "a result type",
    "SudokuError": "an exception",
    "TraceToken": "a constant table",
    "Traces": "a result type",
    "Transform": "one grid's transform",
    "__version__": "a string",
    "candidates": "one grid",
    "canonical": "one grid",
    "count_solutions": "counts without keeping solutions",
    "explain": "one grid's steps",
    "format_candidates": "one grid",
    "format_rules": "one set of rules",
    "generate": "one grid",
    "grade": "one grid",
    "hint": "one step",
    "is_unique": "counts to 2",
    "is_valid": "one grid",
    "parse_answer": "one reply",
    "parse_candidates": "one grid's text",
    "parse_rules": "one set of rules",
    "rate": "one grid",
    "se_rate": "one grid",
    "SERating": "a result type",
    "search_trace": "one grid's search, bounded by max_guesses",
    "solve": "one grid",
    "techniques": "a constant table",
    "to_prompt": "one grid",
    "write_variant_puzzles": "writes the caller's own list line by line",
}


def test_the_sweep_covers_every_public_name():
    import sudoku_rs as sr

    swept = {name for name in sr.__all__ for call, _ in ENTRY_POINTS if f"sr.{name}(" in call}
    unknown = set(sr.__all__) - swept - set(NOT_PROPORTIONAL)
    assert not unknown, f"add a row to ENTRY_POINTS (or NOT_PROPORTIONAL) for {sorted(unknown)}"
    assert not swept & set(NOT_PROPORTIONAL)
    assert set(NOT_PROPORTIONAL) <= set(sr.__all__), "NOT_PROPORTIONAL names a name gone"


# Under an absolute 2 GiB address space: 10**7 solutions of the empty grid (810 MB of cells,
# more as Python strings) either come back or raise MemoryError; either way no thread panics,
# and the process goes on to solve, and to iterate the same solutions lazily, in bounded memory.
TWO_GIB = r"""
import resource, sys
import sudoku_rs as sr
resource.setrlimit(resource.RLIMIT_AS, (2 * 2**30, resource.RLIM_INFINITY))
try:
    got = len(sr.solutions("." * 81, limit=10**7))
    print("finished", got)
except MemoryError:
    print("MemoryError")
got = None
assert sr.solve("." * 81)[:9] == "123456789"
seen = 0
for solution in sr.iter_solutions("." * 81, limit=10**6):
    seen += 1
assert seen == 10**6, seen
print("usable")
"""


def test_ten_million_solutions_under_two_gib_finish_or_raise_memory_error():
    done = subprocess.run(
        [sys.executable, "-c", TWO_GIB],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        env={**__import__("os").environ, "RUST_BACKTRACE": "1"},
    )
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stderr[-2000:]}"
    lines = done.stdout.split()
    assert lines[-1] == "usable", done.stdout
    assert done.stdout.startswith(("MemoryError", "finished 10000000")), done.stdout
    assert "panicked" not in done.stderr, done.stderr[-2000:]
    assert "PyObject pointer is null" not in done.stderr
