"""Prints generator throughput: puzzles/second for sr.generate_batch.

    python benches/generate.py                 # 9x9 cases at threads=1 and 2, best of 3
    python benches/generate.py --count 2000 --repeat 5 --big

Each figure is the best of --repeat runs of one generate_batch call with a fixed seed, so every
run makes the same puzzles. Besides wall-clock puzzles/s it prints puzzles per CPU-second
(process CPU time over all threads): on a shared, loaded machine wall time measures the load
as much as the code, and CPU time is the steadier figure. --big adds 16x16 and 25x25 cases.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

import sudoku_rs as sr

CASES = [
    ("9x9 clues=25", {"clues": 25}),
    ("9x9 clues=None", {}),
    ("9x9 minimal=True", {"minimal": True}),
    ("9x9 clues=22", {"clues": 22}),
    ("9x9 rotate180", {"symmetry": "rotate180"}),
]
BIG = [
    ("16x16 clues=None", {"size": 16}),
    ("16x16 clues=120", {"size": 16, "clues": 120}),
    ("25x25 clues=350", {"size": 25, "clues": 350}),
]


def best_of(kwargs: dict, count: int, threads: int, repeat: int) -> tuple[float, float, float]:
    """(wall puzzles/s, CPU puzzles/s, mean clues), best of `repeat` runs."""
    wall, cpu, clues = float("inf"), float("inf"), 0.0
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        batch = sr.generate_batch(count, seed=2026, threads=threads, **kwargs)
        wall = min(wall, time.perf_counter() - w0)
        cpu = min(cpu, time.process_time() - c0)
        clues = float(np.count_nonzero(batch.reshape(count, -1), axis=1).mean())
    return count / wall, count / max(cpu, 1e-9), clues


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=400, help="puzzles per 9x9 run")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--big", action="store_true", help="add 16x16 and 25x25 cases")
    args = parser.parse_args()
    print(
        f"sudoku_rs {sr.__version__}, Python {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; best of {args.repeat}"
    )
    print(f"{'case':22} {'threads':>7} {'puzzles/s':>10} {'per CPU-s':>10} {'clues':>7}")
    cases = CASES + (BIG if args.big else [])
    for name, kwargs in cases:
        count = args.count if name.startswith("9x9") else max(4, args.count // 50)
        for threads in args.threads:
            wall, cpu, clues = best_of(kwargs, count, threads, args.repeat)
            print(f"{name:22} {threads:>7} {wall:>10,.0f} {cpu:>10,.0f} {clues:>7.1f}")


if __name__ == "__main__":
    main()
