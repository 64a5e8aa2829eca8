"""Prints puzzles/second for each benchmark set in ../shared/data.

    python benches/bench.py [--sets NAME ...] [--limit N] [--repeat R]

Single-call mode times `sr.solve` and `sr.count_solutions(limit=2)` called once per puzzle from
Python, on the set's own strings, so the figure includes the Python call and conversion. Every
figure is measured on this machine in this run; the best of `--repeat` runs is reported.
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


def read_lines(path: Path, limit: int | None) -> list[str]:
    with path.open() as f:
        lines = [line.strip() for line in f if line.strip()]
    return lines[:limit] if limit else lines


def best_rate(fn, puzzles: list[str], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn(puzzles)
        best = min(best, time.perf_counter() - start)
    return len(puzzles) / best


def solve_each(puzzles: list[str]) -> None:
    for p in puzzles:
        try:
            sr.solve(p)
        except sr.NoSolutionError:
            pass


def count_each(puzzles: list[str]) -> None:
    for p in puzzles:
        sr.count_solutions(p, limit=2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--sets", nargs="*", default=SETS)
    parser.add_argument("--limit", type=int, default=20000, help="puzzles per set (0: all)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    print(
        f"sudoku_rs {sr.__version__}, Python {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} cores"
    )
    print(f"{'set':34} {'puzzles':>8} {'solve/s':>12} {'count2/s':>12}")
    for name in args.sets:
        path = args.data / name
        if not path.exists():
            print(f"{name:34} missing")
            continue
        puzzles = read_lines(path, args.limit or None)
        solve_rate = best_rate(solve_each, puzzles, args.repeat)
        count_rate = best_rate(count_each, puzzles, args.repeat)
        print(f"{name:34} {len(puzzles):8} {solve_rate:12,.0f} {count_rate:12,.0f}", flush=True)


if __name__ == "__main__":
    main()
