"""Prints puzzles/second for each benchmark set in ../shared/data.

    python benches/bench.py                  # batch API, threads=1 and every core
    python benches/bench.py --single         # one call per puzzle, µs per call, per input kind
    python benches/bench.py --sets gen_easy35 --limit 0 --repeat 5
    python benches/bench.py --compare --limit 2000   # then the native core and the sudoku crate

Batch mode reads each file with sr.read_puzzles and times solve_batch and
count_solutions_batch(limit=2) on the numpy array at threads=1 and every core, in --repeat
rounds that rotate which of the four goes first; each figure is the best round, by the wall
clock, measured on this machine in this run (the load average is printed: threads share the
machine with whatever else runs).

Single mode times Python loops of one call per puzzle (the first --limit puzzles of each set,
1,000 by default) for each input kind: an 81-character str, a list of lists of ints, a
LeetCode board (lists of one-character strs, '.' blank), numpy arrays of three dtypes; then
count_solutions(limit=2) on a str and a numpy array; then one-row solve_batch and
count_solutions_batch calls for each kind a batch takes (a list of one str, numpy arrays of
shape (1, 9, 9) in the three dtypes and (1, 81)), each set beside the single call on the same
input; all beside the search alone (solve_batch and count_solutions_batch over all the
puzzles at threads=1, per puzzle) and beside
sudoku_solver_rs (the `sudoku` crate behind pyo3, from PyPI; benchmark-only, never a
dependency; --no-sudoku-solver-rs or not installed: left out). Every column runs once per
round over the same puzzles, rounds rotate which goes first, and each figure is the median
over --repeat rounds of µs per call by the thread's CPU clock (--clock wall for the wall
clock). sudoku_solver_rs returns a solution only for a puzzle with exactly one ("" otherwise),
so it searches for a second: the work of count_solutions(limit=2) plus the solution.

--compare then runs the native comparison runner (`cargo run --release --example compare`, see
examples/compare.rs) on the same sets and puzzles with --repeat rounds, timed by the clock this
script's figures use (the wall clock in batch mode, --clock with --single): the core called
from Rust, single thread, beside the `sudoku` crate. Last
comes the Python-path overhead: how much longer the one-thread Python figure (batch, or one
call per puzzle with --single) takes per puzzle than the core on the same puzzles.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import importlib.metadata
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import sudoku_rs as sr

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
SETS = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "gen_easy35",
    "gen_minimal",
    "gen_invalid",
    "gen_16x16",
]


# --single: 9x9 sets of valid puzzles, from easy to hard.
SINGLE_SETS = [
    "gen_easy35",
    "puzzles2_17_clue",
    "puzzles7_serg_benchmark",
    "puzzles6_forum_hardest_1106",
]


# What each call is set beside in --single: the same search alone in a batch, then
# sudoku_solver_rs on the same input; a one-row batch beside the single call on the same input.
PEERS = {
    "sr.solve(str)": "sudoku_solver_rs.from_str_line(str)",
    "sr.count_solutions(str, limit=2)": "sudoku_solver_rs.from_str_line(str)",
    "sr.solve(list of lists of int)": "sudoku_solver_rs.from_num_list(list of lists of int)",
    "sr.solve(numpy uint8 (9, 9))": "sudoku_solver_rs.from_num_list(numpy uint8 (9, 9)), gives lists",
    "sr.solve_batch([str])": "sr.solve(str)",
    "sr.solve_batch(numpy uint8 (1, 9, 9))": "sr.solve(numpy uint8 (9, 9))",
    "sr.solve_batch(numpy int32 (1, 9, 9))": "sr.solve(numpy int32 (9, 9))",
    "sr.solve_batch(numpy int64 (1, 9, 9))": "sr.solve(numpy int64 (9, 9))",
    "sr.solve_batch(numpy uint8 (1, 81))": "sr.solve(numpy uint8 (9, 9))",
    "sr.count_solutions_batch([str])": "sr.count_solutions(str, limit=2)",
    "sr.count_solutions_batch(numpy uint8 (1, 9, 9))": "sr.count_solutions(numpy uint8 (9, 9), limit=2)",
}


# The search alone that each of our calls does, by the call's name.
ALONE = {
    "sr.solve": "search alone: solve_batch, threads=1",
    "sr.solve_batch": "search alone: solve_batch, threads=1",
    "sr.count_solutions": "search alone: count_solutions_batch, threads=1",
    "sr.count_solutions_batch": "search alone: count_solutions_batch, threads=1",
}


def solve_each(puzzles) -> None:
    for p in puzzles:
        with contextlib.suppress(sr.NoSolutionError):
            sr.solve(p)


def count_each(puzzles) -> None:
    for p in puzzles:
        sr.count_solutions(p, limit=2)


def call_each(fn, puzzles) -> None:
    for p in puzzles:
        fn(p)


def single_columns(lines: list[str], array, with_ss: bool) -> dict:
    """The timed columns of one set: name -> (function running the whole loop, calls made)."""
    import numpy as np

    n = len(lines)
    rows = [[[int(v) for v in r] for r in grid.reshape(9, 9)] for grid in array]
    # As a LeetCode board arrives (parsed from JSON text): one-character strings, which CPython
    # shares, one object per character. Cells made by str(int) are new objects each, which the
    # reading recognises by value instead (benches/results/2026-11-24-python-inputs.md).
    board = [[list("".join(str(v) if v else "." for v in r)) for r in grid] for grid in rows]
    kinds = {
        "str": lines,
        "list of lists of int": rows,
        "LeetCode board": board,
        "numpy uint8 (9, 9)": [g.reshape(9, 9).copy() for g in array],
        "numpy int32 (9, 9)": [g.reshape(9, 9).astype(np.int32) for g in array],
        "numpy int64 (9, 9)": [g.reshape(9, 9).astype(np.int64) for g in array],
    }
    columns = {
        "search alone: solve_batch, threads=1": (lambda: sr.solve_batch(array, threads=1), n),
        "search alone: count_solutions_batch, threads=1": (
            lambda: sr.count_solutions_batch(array, threads=1),
            n,
        ),
    }
    for kind, grids in kinds.items():
        columns[f"sr.solve({kind})"] = (lambda grids=grids: solve_each(grids), n)
    columns["sr.count_solutions(str, limit=2)"] = (lambda: count_each(lines), n)
    columns["sr.count_solutions(numpy uint8 (9, 9), limit=2)"] = (
        lambda: count_each(kinds["numpy uint8 (9, 9)"]),
        n,
    )
    # One-row batches of each kind a batch takes (nested lists are not a batch).
    one_row = {
        "[str]": [[p] for p in lines],
        **{
            f"numpy {dtype} (1, 9, 9)": [g.reshape(1, 9, 9) for g in kinds[f"numpy {dtype} (9, 9)"]]
            for dtype in ("uint8", "int32", "int64")
        },
        "numpy uint8 (1, 81)": [array[i : i + 1] for i in range(n)],
    }
    for kind, batches in one_row.items():
        columns[f"sr.solve_batch({kind})"] = (
            lambda batches=batches: call_each(sr.solve_batch, batches),
            n,
        )
    for kind in ("[str]", "numpy uint8 (1, 9, 9)"):
        columns[f"sr.count_solutions_batch({kind})"] = (
            lambda batches=one_row[kind]: call_each(sr.count_solutions_batch, batches),
            n,
        )
    if with_ss:
        import sudoku_solver_rs as ss

        columns["sudoku_solver_rs.from_str_line(str)"] = (
            lambda: call_each(ss.from_str_line, lines),
            n,
        )
        columns["sudoku_solver_rs.from_num_list(list of lists of int)"] = (
            lambda: call_each(ss.from_num_list, rows),
            n,
        )
        columns["sudoku_solver_rs.from_num_list(numpy uint8 (9, 9)), gives lists"] = (
            lambda: call_each(ss.from_num_list, kinds["numpy uint8 (9, 9)"]),
            n,
        )
    return columns


def check_single(lines: list[str], with_ss: bool) -> None:
    """A one-row batch gives the same solution as the single call, and sudoku_solver_rs the
    same as ours, so that every column does the same work."""
    for p in lines:
        want = sr.solve(p)
        count = sr.count_solutions(p, limit=2)
        if sr.solve_batch([p]) != [want] or sr.count_solutions_batch([p]).tolist() != [count]:
            raise SystemExit(f"a one-row batch disagrees with the single call on {p}")
        if with_ss:
            import sudoku_solver_rs as ss

            got = ss.from_str_line(p)
            # It returns "" for a puzzle without exactly one solution (after looking for two).
            if got != want and not (got == "" and count != 1):
                raise SystemExit(f"sudoku_solver_rs disagrees on {p}: {got!r} != {want!r}")


def bench_single(
    path: Path, limit: int | None, repeat: int, with_ss: bool, clock
) -> tuple[float, float]:
    """Prints the set's table of µs per call; returns the str solve and count2 rates."""
    lines = [line.strip() for line in path.open() if line.strip()][:limit]
    array = sr.read_puzzles(path)[:limit]
    check_single(lines, with_ss)
    columns = single_columns(lines, array, with_ss)
    times: dict[str, list[float]] = {name: [] for name in columns}
    names = list(columns)
    for r in range(repeat):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            run, calls = columns[name]
            start = clock()
            run()
            times[name].append((clock() - start) / calls * 1e6)
    us = {name: statistics.median(t) for name, t in times.items()}
    print(f"\n{path.name}: {len(lines):,} puzzles; µs per call, median of {repeat} rounds")
    print(f"  {'call':66} {'µs':>7} {'+ alone':>8}  time / peer (peer)")
    for name, value in us.items():
        # The call's own cost: its µs less those of the same search alone in a batch.
        alone = ALONE.get(name.split("(")[0])
        extra = f"{value - us[alone]:+8.2f}" if alone else f"{'':8}"
        peer = PEERS.get(name)
        shown = f"{value / us[peer]:6.2f}x ({peer})" if peer in us else ""
        print(f"  {name:66} {value:7.2f} {extra}  {shown}")
    return 1e6 / us["sr.solve(str)"], 1e6 / us["sr.count_solutions(str, limit=2)"]


def bench_batch(path: Path, limit: int | None, repeat: int, cores: int) -> tuple[str, float, float]:
    """The table row, then the one-thread solve and count2 rates. The four timings run once
    per round, rounds rotating which goes first, so that load from other processes falls on
    all of them alike; each figure is the best round. `cpu` is the process's CPU time at every
    core over that at one thread (best rounds): above 1 the threads add work of their own,
    which no idle machine would hide; a wall ratio far under `cores / cpu` means the threads
    waited for a core (other processes)."""
    puzzles = sr.read_puzzles(path)[:limit]
    n = len(puzzles)
    runs = [
        (fn, threads) for fn in (sr.solve_batch, sr.count_solutions_batch) for threads in (1, cores)
    ]
    best = [float("inf")] * len(runs)
    cpu = [float("inf")] * len(runs)
    for r in range(repeat):
        for k in [(r + i) % len(runs) for i in range(len(runs))]:
            fn, threads = runs[k]
            start, start_cpu = time.perf_counter(), time.process_time()
            fn(puzzles, threads=threads)
            best[k] = min(best[k], time.perf_counter() - start)
            cpu[k] = min(cpu[k], time.process_time() - start_cpu)
    rates = [n / b for b in best]
    cells = [
        f"{rates[i]:12,.0f} {rates[i + 1]:12,.0f} {rates[i + 1] / rates[i]:6.2f}x "
        f"{cpu[i + 1] / cpu[i]:5.2f}"
        for i in (0, 2)
    ]
    return f"{n:9,} " + " ".join(cells), rates[0], rates[2]


def run_compare(
    args: argparse.Namespace, sets: list[str], python: dict[str, tuple[float, float]]
) -> int:
    """Runs examples/compare.rs on `sets`, which prints its own table, then prints the Python
    path's overhead over the core for each set; returns the runner's exit status."""
    label = "one call per puzzle" if args.single else "batch, threads=1"
    print("\nnative core (Rust, no Python) beside the sudoku crate: examples/compare.rs")
    with tempfile.TemporaryDirectory() as tmp:
        tsv = Path(tmp) / "rates.tsv"
        command = ["cargo", "run", "--release", "--quiet"]
        command += ["--example", "compare", "--"]
        command += ["--data", str(args.data), "--limit", str(args.limit)]
        # The clock this script's figures use, so the overhead compares like with like.
        clock = args.clock if args.single else "wall"
        command += ["--rounds", str(args.repeat), "--clock", clock, "--tsv", str(tsv)]
        command += ["--sets", *sets]
        sys.stdout.flush()
        status = subprocess.run(command, cwd=ROOT, check=False).returncode
        if not tsv.exists():
            return status or 1
        with tsv.open(newline="") as f:
            native = {row["set"]: row for row in csv.DictReader(f, delimiter="\t")}
    print(f"\nPython path ({label}) against the core on the same puzzles; overhead = extra")
    print("time per puzzle over the core's")
    print(
        f"{'set':34} {'py solve':>12} {'core solve':>12} {'overhead':>9} "
        f"{'py count2':>12} {'core count2':>12} {'overhead':>9}"
    )
    for name, rates in python.items():
        if name not in native:
            continue
        cells = []
        for py, key in zip(rates, ("ours_solve", "ours_count2")):
            core = float(native[name][key])
            cells.append(f"{py:12,.0f} {core:12,.0f} {core / py - 1:+9.0%}")
        print(f"{name:34} " + " ".join(cells))
    return status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--sets", nargs="*", default=SETS)
    parser.add_argument(
        "--limit", type=int, help="puzzles per set (0: all; the default, 1,000 with --single)"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--single", action="store_true", help="time one call per puzzle")
    parser.add_argument(
        "--no-sudoku-solver-rs",
        action="store_true",
        help="leave sudoku_solver_rs out of --single (it is left out when not installed)",
    )
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="--single: the thread's CPU clock (default) or the wall clock",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="then run the native core and the sudoku crate (cargo run --example compare)",
    )
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    if args.limit is None:
        args.limit = 1000 if args.single else 0
    limit = args.limit or None
    if args.single and args.sets == SETS:
        args.sets = SINGLE_SETS
    with_ss = False
    if args.single and not args.no_sudoku_solver_rs:
        try:
            import sudoku_solver_rs  # noqa: F401

            with_ss = True
        except ImportError:
            print("sudoku_solver_rs is not installed: its columns are left out")
    clock = time.thread_time if args.clock == "cpu" else time.perf_counter

    machine = (
        f"sudoku_rs {sr.__version__}, Python {platform.python_version()}, "
        f"{platform.processor() or platform.machine()}, {cores} cores, load average "
        + " ".join(f"{x:.1f}" for x in os.getloadavg())
    )
    if args.single:
        other = ""
        if with_ss:
            other = f", sudoku_solver_rs {importlib.metadata.version('sudoku_solver_rs')}"
        print(f"{machine}{other}; {args.clock} clock")
    else:
        print(f"{machine}; puzzles/s, best of {args.repeat}")
    if not args.single:
        print(
            f"{'set':34} {'puzzles':>9} {'solve t=1':>12} {f'solve t={cores}':>12} {'':>7} "
            f"{'cpu':>5} {'count2 t=1':>12} {f'count2 t={cores}':>12} {'':>7} {'cpu':>5}"
        )
    python: dict[str, tuple[float, float]] = {}
    for name in args.sets:
        path = args.data / name
        if not path.exists():
            print(f"{name:34} missing")
            continue
        if args.single:
            solve, count = bench_single(path, limit, args.repeat, with_ss, clock)
        else:
            row, solve, count = bench_batch(path, limit, args.repeat, cores)
            print(f"{name:34} {row}", flush=True)
        python[name] = (solve, count)
    if args.compare and python:
        sys.exit(run_compare(args, list(python), python))


if __name__ == "__main__":
    main()
