"""Prints puzzles/second for each benchmark set in ../shared/data.

    python benches/bench.py                  # batch API, threads=1 and every core
    python benches/bench.py --single         # one sr.solve / sr.count_solutions call per puzzle
    python benches/bench.py --sets gen_easy35 --limit 0 --repeat 5

Batch mode reads each file with sr.read_puzzles and times solve_batch and
count_solutions_batch(limit=2) on the numpy array. Single mode times a Python loop of calls on
the set's strings, so its figure includes the call and the conversion. Each figure is the best
of --repeat runs, measured on this machine in this run.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from pathlib import Path

import sudoku_rs as sr

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
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


def bench_single(path: Path, limit: int | None, repeat: int) -> str:
    with path.open() as f:
        puzzles = [line.strip() for line in f if line.strip()][:limit]
    solve = best_rate(lambda: solve_each(puzzles), len(puzzles), repeat)
    count = best_rate(lambda: count_each(puzzles), len(puzzles), repeat)
    return f"{len(puzzles):9,} {solve:12,.0f} {count:12,.0f}"


def bench_batch(path: Path, limit: int | None, repeat: int, cores: int) -> str:
    puzzles = sr.read_puzzles(path)[:limit]
    n = len(puzzles)
    cells = []
    for fn in (sr.solve_batch, sr.count_solutions_batch):
        one = best_rate(lambda fn=fn: fn(puzzles, threads=1), n, repeat)
        every = best_rate(lambda fn=fn: fn(puzzles, threads=cores), n, repeat)
        cells.append(f"{one:12,.0f} {every:12,.0f} {every / one:6.2f}x")
    return f"{n:9,} " + " ".join(cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--sets", nargs="*", default=SETS)
    parser.add_argument("--limit", type=int, default=0, help="puzzles per set (0: all)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--single", action="store_true", help="time one call per puzzle")
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
    for name in args.sets:
        path = args.data / name
        if not path.exists():
            print(f"{name:34} missing")
            continue
        if args.single:
            row = bench_single(path, limit, args.repeat)
        else:
            row = bench_batch(path, limit, args.repeat, cores)
        print(f"{name:34} {row}", flush=True)


if __name__ == "__main__":
    main()
