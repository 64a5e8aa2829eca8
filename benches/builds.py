"""Classic speed under two builds of sudoku_rs, side by side in one run.

    python benches/builds.py BEFORE_PYTHON AFTER_PYTHON
    python benches/builds.py /tmp/ab-before/bin/python .venv/bin/python --limit 5000 --rounds 5
    python benches/builds.py B A --empty 25 36 49 64 --sets gen_16x16 gen_25x25 --limit 40

Each PYTHON is an interpreter with one build of sudoku_rs installed (benches/twobuilds.py says
how to make one and how the two run side by side). Each figure is the median over the rounds
of the process CPU time per puzzle (threads=1, so the process's CPU is the search's), and the
last column is after over before in speed. The workers also return a digest of their results:
the two builds must agree on every answer.

Workloads: `solve_batch` and `count_solutions_batch(limit=2)` on a numpy stack, a Python
loop of `sr.solve(str)` and one of one-row `solve_batch` calls (`solve_batch1`, the first
--single puzzles, each a (1, n, n) array), on sets of any size. Only functions every
build since 0.1 has, with classic rules (no `rules=`), so a build from before variant rules can
stand on either side. `--empty 25 36 49 64` also times `sr.solve` on an empty grid of each side
(a figure per grid, not per puzzle): the generic engine filling a big grid from nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import os
import statistics
import sys
from pathlib import Path

from twobuilds import Build, alternate, cpu_model, serve

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SETS = [
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
    "gen_easy35",
    "gen_minimal",
]
WORKLOADS = ["solve_batch", "count2_batch", "solve_str", "solve_batch1"]
# The text form: '.' or '0' blank, 1-9, then A for 10, B for 11, ...
VALUES = {ch: i + 1 for i, ch in enumerate("123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")}


def worker() -> None:
    """Answers each request: time an empty grid, load a set, or run a workload on a set."""
    import time

    import numpy as np

    import sudoku_rs as sr

    loaded: dict[str, tuple[np.ndarray, list[str]]] = {}

    def empty(side: int) -> dict:
        start = time.process_time()
        out = sr.solve(np.zeros((side, side), np.uint8))
        cpu = time.process_time() - start
        # Any filling is an answer; the builds need not agree on which.
        digits = np.arange(1, side + 1)
        rows = (np.sort(out, axis=1) == digits).all()
        cols = (np.sort(out.T, axis=1) == digits).all()
        return {"cpu_per_puzzle": cpu, "digest": str(bool(rows and cols))}

    def load(name: str, path: str, limit: int, single: int) -> dict:
        lines = Path(path).read_text().split()[:limit]
        side = math.isqrt(len(lines[0]))
        grid = np.array([[VALUES.get(ch, 0) for ch in s] for s in lines], dtype=np.uint8)
        loaded[name] = (grid.reshape(-1, side, side), lines[:single])
        return {"count": len(lines), "version": sr.__version__}

    def run(work: str, name: str) -> dict:
        grid, lines = loaded[name]
        start = time.process_time()
        if work == "solve_batch":
            out, n = sr.solve_batch(grid, threads=1), len(grid)
        elif work == "count2_batch":
            out, n = sr.count_solutions_batch(grid, limit=2, threads=1), len(grid)
        elif work == "solve_str":
            out, n = [sr.solve(s) for s in lines], len(lines)
        elif work == "solve_batch1":
            rows = [grid[i : i + 1] for i in range(len(lines))]
            start = time.process_time()
            out, n = [sr.solve_batch(row, threads=1) for row in rows], len(rows)
        else:
            raise ValueError(f"unknown workload {work!r}")
        cpu = time.process_time() - start
        digest = hashlib.sha256(np.asarray(out).tobytes()).hexdigest()[:16]
        return {"cpu_per_puzzle": cpu / n, "digest": digest}

    def answer(req: dict) -> dict:
        if req["op"] == "empty":
            return empty(req["side"])
        if req["op"] == "load":
            return load(req["set"], req["path"], req["limit"], req["single"])
        return run(req["op"], req["set"])

    serve(answer)


def main() -> None:
    if sys.argv[1:2] == ["--worker"]:
        worker()
        return
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--sets", nargs="*", default=SETS)
    parser.add_argument("--workloads", nargs="*", default=WORKLOADS, choices=WORKLOADS)
    parser.add_argument("--limit", type=int, default=2000, help="puzzles per set")
    parser.add_argument("--single", type=int, default=1000, help="puzzles for solve_str")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--empty", type=int, nargs="*", default=[], metavar="SIDE")
    args = parser.parse_args()

    before, after = Build("before", args.before, __file__), Build("after", args.after, __file__)
    print(
        f"machine: {cpu_model()}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.2f}; --limit {args.limit} --rounds {args.rounds}"
    )
    print(f"before: {args.before}\nafter: {args.after}")
    print(f"{'set':34} {'workload':13} {'before µs':>10} {'after µs':>10} {'after/before':>13}")

    def side_by_side(label: str, work: str, **req) -> None:
        replies = alternate(before, after, args.rounds, op=work, **req)
        if len({r["digest"] for side in replies.values() for r in side}) != 1:
            raise SystemExit(f"{label} {work}: the builds disagree on the results")
        t = {k: statistics.median(r["cpu_per_puzzle"] for r in v) * 1e6 for k, v in replies.items()}
        ratio = t["before"] / t["after"]
        print(f"{label:34} {work:13} {t['before']:10.2f} {t['after']:10.2f} {ratio:12.3f}x")

    try:
        for side in args.empty:
            side_by_side(f"empty {side}x{side}", "empty", side=side)
        for name in args.sets:
            path = args.data / name
            if not path.exists():
                print(f"{name}: not found in {args.data}")
                continue
            for b in (before, after):
                b.ask(op="load", set=name, path=str(path), limit=args.limit, single=args.single)
            for work in args.workloads:
                side_by_side(name, work, set=name)
    finally:
        before.close()
        after.close()


if __name__ == "__main__":
    main()
