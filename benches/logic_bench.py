"""Grading speed and level agreement: sr.grade beside hodoku-py's Solver.rate, per data set.

For a sample of each 9x9 set in ../shared/data (puzzles spread evenly over the file), times
`sr.grade` (one call per puzzle), `sr.grade_batch(threads=1)` and hodoku-py's `Solver().rate`
on the same puzzles, one thread each, in alternating rounds in one run, and prints puzzles/s
(ours: best of a few timings per puzzle), the speed-up, and how often our level agrees with HoDoKu's.

hodoku-py is GPL: it is never a dependency of sudoku_rs and this script installs nothing.
Install it yourself into the environment that runs the benchmark (`pip install hodoku-py`);
without it only our figures are printed.

Level mapping: HoDoKu's EASY, MEDIUM, HARD, UNFAIR, EXTREME against our easy, medium, hard,
expert, extreme (UNFAIR is our expert). A puzzle our techniques do not finish ('unsolved')
counts as a disagreement. Under each row, the puzzles where the levels differ are listed
with our level, hardest technique and score, and HoDoKu's level and score.

    python benches/logic_bench.py [--sample 10] [--rounds 3] [--budget 60] [--sets NAME ...]
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections import Counter
from pathlib import Path

import sudoku_rs as sr

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"
SETS = [
    "gen_easy35",
    "gen_minimal",
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
]
#: HoDoKu's level names (DifficultyType) as ours.
LEVEL_OF_HODOKU = {
    "EASY": "easy",
    "MEDIUM": "medium",
    "HARD": "hard",
    "UNFAIR": "expert",
    "EXTREME": "extreme",
    "INCOMPLETE": "unsolved",
}


def sample(name: str, k: int) -> list:
    with open(DATA / name, encoding="ascii") as f:
        lines = [line.strip() for line in f if line.strip()]
    lines = [line for line in lines if len(line) == 81]
    step = max(1, len(lines) // k)
    return lines[::step][:k]


def timed(fn, puzzles):
    start = time.perf_counter()
    out = fn(puzzles)
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=10, help="puzzles per set")
    parser.add_argument("--rounds", type=int, default=3, help="timings of ours per puzzle (best)")
    parser.add_argument("--sets", nargs="*", default=SETS)
    parser.add_argument(
        "--budget", type=float, default=60.0, help="seconds of hodoku-py per set at most"
    )
    args = parser.parse_args()
    try:
        import hodoku
    except ImportError:
        hodoku = None
        print("hodoku-py is not installed: only sudoku_rs is timed (pip install hodoku-py)")

    print(
        f"# {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
        f"sudoku_rs {sr.__version__}, one thread, alternating puzzle by puzzle (ours: best of {args.rounds})"
    )
    header = "| set | n | sr.grade /s | grade_batch(threads=1) /s |"
    if hodoku:
        header += " hodoku-py rate /s | speed-up (sr.grade) | levels agree | ours vs HoDoKu |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    solver = hodoku.Solver() if hodoku else None

    def ours_batch(puzzles):
        return sr.grade_batch(puzzles, threads=1)["level"].tolist()

    for name in args.sets:
        if not (DATA / name).exists():
            continue
        puzzles = sample(name, args.sample)
        # Alternating puzzle by puzzle: ours (best of `rounds`), then HoDoKu on the same
        # puzzle, so both see the same machine load; a set stops when HoDoKu has used its
        # time budget, and both are compared on the puzzles done.
        ours_s, theirs_s, done = 0.0, 0.0, []
        levels = {"ours": [], "theirs": []}
        differ = []
        for p in puzzles:
            best = float("inf")
            for _ in range(args.rounds):
                start = time.perf_counter()
                grade = sr.grade(p)
                best = min(best, time.perf_counter() - start)
            level = grade.level
            ours_s += best
            levels["ours"].append(level)
            done.append(p)
            if hodoku:
                start = time.perf_counter()
                rating = solver.rate(p)
                theirs_s += time.perf_counter() - start
                levels["theirs"].append(LEVEL_OF_HODOKU[rating.level.name])
                if levels["theirs"][-1] != level:
                    differ.append((p, grade, rating))
                if theirs_s > args.budget:
                    break
        batch_s = min(timed(ours_batch, done)[0] for _ in range(args.rounds))
        n = len(done)
        row = f"| {name} | {n} | {n / ours_s:,.0f} | {n / batch_s:,.0f} |"
        if hodoku:
            agree = sum(a == b for a, b in zip(levels["ours"], levels["theirs"]))
            pairs = Counter(zip(levels["ours"], levels["theirs"]))
            detail = ", ".join(f"{a}/{b}: {c}" for (a, b), c in sorted(pairs.items()))
            row += f" {n / theirs_s:,.2f} | {theirs_s / ours_s:,.0f}x | {agree}/{n} | {detail} |"
        print(row, flush=True)
        # The puzzles behind a disagreement, so the results file can say why they differ.
        for p, grade, rating in differ:
            print(
                f"    {p} ours {grade.level} (hardest {grade.hardest}, score {grade.score}, "
                f"unique {grade.unique}) HoDoKu {rating.level.name} (score {rating.score})",
                flush=True,
            )


if __name__ == "__main__":
    main()
