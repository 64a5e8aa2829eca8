"""Rows a second of the language-model evaluation functions, per core.

    python benches/eval.py                 # 200,000 rows, threads=1 and every core
    python benches/eval.py --rows 1000000 --repeat 5
    python benches/eval.py --cpu           # CPU seconds: rows a second per core, on a busy machine

Puzzles come from sr.generate_batch (seeded); answers are a mix of the solutions, partial
answers (a third of the blanks left open, right so far) and wrong ones (one digit changed).
Timed, each the best of --repeat rounds by the wall clock:

- score_batch with solutions= (no search: the fast path) at threads=1 and every core;
- score_batch without solutions (every puzzle solved to two solutions) at threads=1;
- parse_answer_batch on the answers written as 81-character lines and as boxed grids.

The load average is printed: the machine may be shared.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

import sudoku_rs as sr

CPU = False


def best(fn, repeat):
    """The best of ``repeat`` rounds: the wall clock, or with ``--cpu`` the process's CPU time
    (every thread's), which a machine shared with other work does not inflate."""
    clock = time.process_time if CPU else time.perf_counter
    times = []
    for _ in range(repeat):
        start = clock()
        fn()
        times.append(clock() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=200_000)
    parser.add_argument("--puzzles", type=int, default=2_000, help="distinct puzzles, tiled")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--cpu", action="store_true", help="time by CPU seconds: rows a second per core"
    )
    args = parser.parse_args()
    global CPU
    CPU = args.cpu

    distinct = sr.generate_batch(args.puzzles, seed=1).reshape(args.puzzles, 81)
    solved = sr.solve_batch(distinct).reshape(args.puzzles, 81)
    reps = -(-args.rows // args.puzzles)
    puzzles = np.tile(distinct, (reps, 1))[: args.rows]
    solutions = np.tile(solved, (reps, 1))[: args.rows]
    rng = np.random.default_rng(2)
    answers = solutions.copy()
    kind = np.arange(args.rows) % 3
    partial = (kind == 1)[:, None] & (puzzles == 0) & (rng.random(answers.shape) < 1 / 3)
    answers[partial] = 0
    wrong = np.flatnonzero(kind == 2)
    cells = rng.integers(0, 81, len(wrong))
    answers[wrong, cells] = answers[wrong, cells] % 9 + 1

    cores = os.cpu_count() or 1
    clock = "CPU time (all threads)" if CPU else "wall clock"
    print(f"rows {args.rows:,}; cores {cores}; load average {os.getloadavg()[0]:.2f}; {clock}")

    def rate(seconds, rows=args.rows):
        return f"{rows / seconds:>14,.0f} rows/s"

    for threads in (1, None):
        t = best(
            lambda threads=threads: sr.score_batch(
                puzzles, answers, solutions=solutions, threads=threads
            ),
            args.repeat,
        )
        print(f"score_batch, solutions given, threads={threads or cores}: {rate(t)}")
    small = min(args.rows, 20_000)
    t = best(lambda: sr.score_batch(puzzles[:small], answers[:small], threads=1), args.repeat)
    print(f"score_batch, puzzles searched, threads=1:      {rate(t, small)}")

    lines = ["".join(map(str, row)).replace("0", ".") for row in answers[:small]]
    boxed = [sr.to_prompt(line) for line in lines[:2_000]] * (small // 2_000)
    for name, texts in (("81-character lines", lines), ("boxed grids", boxed)):
        for threads in (1, None):
            t = best(
                lambda texts=texts, threads=threads: sr.parse_answer_batch(texts, threads=threads),
                args.repeat,
            )
            print(f"parse_answer_batch, {name}, threads={threads or cores}: {rate(t, len(texts))}")


if __name__ == "__main__":
    main()
