"""Prints fill_from_solution's speed: puzzles per second, unique=True beside the plain fill.

    python benches/fills.py                        # 20,000 puzzles, threads 1 and 2, best of 3
    python benches/fills.py --count 50000 --repeat 5

Cases (each one fill_from_solution call with seed=0, so every run makes the same puzzles):

- ``17 -> 34, solved``: the 17-clue set grown to 34 givens (the RRN layout), no solutions
  given, so each row is solved and checked unique first.
- ``17 -> 34, given``: the same with the solutions given (each checked against its puzzle; the
  puzzle is searched once more to confirm it is unique).
- ``empty -> 45, given``: empty grids with a solution each (transforms of the 17-clue
  solutions) grown to 45 givens: unique=True must pick digits where other solutions part.

Puzzles come from ``puzzles2_17_clue`` in ../shared/data (49,158 puzzles; repeated to reach
--count). Wall-clock figures, best of --repeat, with puzzles per CPU-second (process CPU time
over all threads), the steadier figure on a shared machine, and the load average.
"""

from __future__ import annotations

import argparse
import functools
import os
import platform
import time
from pathlib import Path

import numpy as np

import sudoku_rs as sr

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def load(count: int) -> np.ndarray:
    lines = (DATA / "puzzles2_17_clue").read_text().split()
    lines = (lines * (count // len(lines) + 1))[:count]
    return np.array([[0 if c == "." else int(c) for c in line] for line in lines], np.uint8)


def best_of(repeat: int, call) -> tuple[float, float]:
    """(wall seconds, CPU seconds), each the least of ``repeat`` calls."""
    wall, cpu = float("inf"), float("inf")
    for _ in range(repeat):
        w, c = time.perf_counter(), time.process_time()
        call()
        wall = min(wall, time.perf_counter() - w)
        cpu = min(cpu, time.process_time() - c)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()

    puzzles = load(args.count)
    solutions = sr.solve_batch(puzzles)
    empty = np.zeros_like(puzzles)
    shuffled = sr.augment_batch(solutions, seed=1)
    cases = [
        ("17 -> 34, solved", puzzles, None, 34),
        ("17 -> 34, given", puzzles, solutions, 34),
        ("empty -> 45, given", empty, shuffled, 45),
    ]
    print(
        f"sudoku_rs {sr.__version__}, {platform.processor() or platform.machine()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}"
    )
    print(f"{args.count:,} puzzles, best of {args.repeat}\n")
    print("| case | unique | threads | puzzles/s | puzzles/CPU-s |")
    print("|---|---|---|---:|---:|")
    for name, rows, given, clues in cases:
        for unique in (False, True):
            for threads in args.threads:
                call = functools.partial(
                    sr.fill_from_solution,
                    rows,
                    given,
                    clues=clues,
                    unique=unique,
                    threads=threads,
                )
                filled = call()
                assert isinstance(filled, np.ndarray)
                assert ((filled.reshape(len(rows), -1) != 0).sum(axis=1) == clues).all()
                if unique:
                    assert (sr.count_solutions_batch(filled) == 1).all()
                wall, cpu = best_of(args.repeat, call)
                print(
                    f"| {name} | {unique} | {threads} | {len(rows) / wall:,.0f} | "
                    f"{len(rows) / cpu:,.0f} |"
                )
    print(f"\nload after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
