"""How `sr.grade_batch` scales with threads: the same puzzles on each thread count in alternating
rounds in one run, wall time and the process's CPU time (all threads) per round.

    python benches/grade_threads.py [--set NAME] [--limit N] [--threads 1 2] [--rounds 3]

A shared machine gives each thread only its share of a core, so the wall rate alone mixes the
code's scaling with the load: the CPU figures say how much CPU the batch got (CPU / wall is the
cores it used on average) and what one CPU-second of grading buys (puzzles per CPU-second stays
flat when threads add no overhead). The load average is printed at the start and the end.
"""

import argparse
import os
import platform
import resource
import time
from pathlib import Path

import sudoku_rs as sr

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data"


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="puzzles3_magictour_top1465")
    parser.add_argument("--limit", type=int, default=0, help="first N puzzles (0: all)")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    puzzles = sr.read_puzzles(str(DATA / args.set))
    if args.limit:
        puzzles = puzzles[: args.limit]
    load = "/".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"# {platform.machine()}, {os.cpu_count()} CPUs, sudoku_rs {sr.__version__}, "
        f"{args.set}: {len(puzzles)} puzzles, load average at start {load} (1/5/15 min)"
    )
    print("| round | threads | wall s | puzzles/s | CPU s | CPU / wall | puzzles per CPU-s |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    best: dict[int, float] = {}
    levels = None
    for r in range(1, args.rounds + 1):
        for t in args.threads:
            wall, cpu = time.perf_counter(), cpu_seconds()
            grades = sr.grade_batch(puzzles, threads=t)
            wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
            # The same rows on every thread count (determinism), checked while we are here.
            if levels is None:
                levels = grades.tolist()
            elif grades.tolist() != levels:
                raise SystemExit(f"threads={t}: grades differ from the first round's")
            rate = len(puzzles) / wall
            best[t] = max(best.get(t, 0.0), rate)
            print(
                f"| {r} | {t} | {wall:.2f} | {rate:,.0f} | {cpu:.2f} | {cpu / wall:.2f} | "
                f"{len(puzzles) / cpu:,.0f} |"
            )
    load = "/".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\nload average at end {load}")
    base = best[args.threads[0]]
    for t in args.threads:
        print(
            f"threads={t}: best {best[t]:,.0f} puzzles/s, {best[t] / base:.2f}x threads={args.threads[0]}"
        )


if __name__ == "__main__":
    main()
