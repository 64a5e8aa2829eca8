"""Prints puzzles/second for each benchmark set in ../shared/data.

    python benches/bench.py                  # batch API, threads=1 and every core
    python benches/bench.py --single         # one sr.solve / sr.count_solutions call per puzzle
    python benches/bench.py --sets gen_easy35 --limit 0 --repeat 5
    python benches/bench.py --compare --limit 2000   # then the native core and the sudoku crate

Batch mode reads each file with sr.read_puzzles and times solve_batch and
count_solutions_batch(limit=2) on the numpy array. Single mode times a Python loop of calls on
the set's strings, so its figure includes the call and the conversion. Each figure is the best
of --repeat runs, measured on this machine in this run.

--compare then runs the native comparison runner (`cargo run --release --features baseline-engine --example compare`, see
examples/compare.rs) on the same sets and puzzles with --repeat rounds, timed by the wall clock
like this script: the core called from Rust, single thread, beside the `sudoku` crate. Last
comes the Python-path overhead: how much longer the one-thread Python figure (batch, or one
call per puzzle with --single) takes per puzzle than the core on the same puzzles.
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
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


def best_rate(fn, count: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return count / best


def solve_each(puzzles: list[str]) -> None:
    for p in puzzles:
        try:
            sr.solve(p)
        except sr.NoSolutionError:
            pass


def count_each(puzzles: list[str]) -> None:
    for p in puzzles:
        sr.count_solutions(p, limit=2)


def bench_single(path: Path, limit: int | None, repeat: int) -> tuple[str, float, float]:
    """The table row, then the solve and count2 rates."""
    with path.open() as f:
        puzzles = [line.strip() for line in f if line.strip()][:limit]
    solve = best_rate(lambda: solve_each(puzzles), len(puzzles), repeat)
    count = best_rate(lambda: count_each(puzzles), len(puzzles), repeat)
    return f"{len(puzzles):9,} {solve:12,.0f} {count:12,.0f}", solve, count


def bench_batch(path: Path, limit: int | None, repeat: int, cores: int) -> tuple[str, float, float]:
    """The table row, then the one-thread solve and count2 rates."""
    puzzles = sr.read_puzzles(path)[:limit]
    n = len(puzzles)
    cells = []
    single_thread = []
    for fn in (sr.solve_batch, sr.count_solutions_batch):
        one = best_rate(lambda fn=fn: fn(puzzles, threads=1), n, repeat)
        every = best_rate(lambda fn=fn: fn(puzzles, threads=cores), n, repeat)
        cells.append(f"{one:12,.0f} {every:12,.0f} {every / one:6.2f}x")
        single_thread.append(one)
    return f"{n:9,} " + " ".join(cells), single_thread[0], single_thread[1]


def run_compare(
    args: argparse.Namespace, sets: list[str], python: dict[str, tuple[float, float]]
) -> int:
    """Runs examples/compare.rs on `sets`, which prints its own table, then prints the Python
    path's overhead over the core for each set; returns the runner's exit status."""
    label = "one call per puzzle" if args.single else "batch, threads=1"
    print("\nnative core (Rust, no Python) beside the sudoku crate: examples/compare.rs")
    with tempfile.TemporaryDirectory() as tmp:
        tsv = Path(tmp) / "rates.tsv"
        command = ["cargo", "run", "--release", "--quiet", "--features", "baseline-engine"]
        command += ["--example", "compare", "--"]
        command += ["--data", str(args.data), "--limit", str(args.limit)]
        # The wall clock, as this script uses, so the overhead compares like with like.
        command += ["--rounds", str(args.repeat), "--clock", "wall", "--tsv", str(tsv)]
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
    parser.add_argument("--limit", type=int, default=0, help="puzzles per set (0: all)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--single", action="store_true", help="time one call per puzzle")
    parser.add_argument(
        "--compare",
        action="store_true",
        help="then run the native core and the sudoku crate (cargo run --example compare)",
    )
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    limit = args.limit or None

    print(
        f"sudoku_rs {sr.__version__}, Python {platform.python_version()}, "
        f"{platform.processor() or platform.machine()}, {cores} cores; puzzles/s, best of "
        f"{args.repeat}"
    )
    if args.single:
        print(f"{'set':34} {'puzzles':>9} {'solve':>12} {'count2':>12}")
    else:
        print(
            f"{'set':34} {'puzzles':>9} {'solve t=1':>12} {f'solve t={cores}':>12} {'':>7} "
            f"{'count2 t=1':>12} {f'count2 t={cores}':>12}"
        )
    python: dict[str, tuple[float, float]] = {}
    for name in args.sets:
        path = args.data / name
        if not path.exists():
            print(f"{name:34} missing")
            continue
        if args.single:
            row, solve, count = bench_single(path, limit, args.repeat)
        else:
            row, solve, count = bench_batch(path, limit, args.repeat, cores)
        python[name] = (solve, count)
        print(f"{name:34} {row}", flush=True)
    if args.compare and python:
        sys.exit(run_compare(args, list(python), python))


if __name__ == "__main__":
    main()
