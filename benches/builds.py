"""Classic 9x9 speed under two builds of sudoku_rs, side by side in one run.

    python benches/builds.py BEFORE_PYTHON AFTER_PYTHON
    python benches/builds.py /tmp/ab-before/bin/python .venv/bin/python --limit 5000 --rounds 5

Each PYTHON is an interpreter with one build of sudoku_rs installed (make one with
`python3 -m venv V && V/bin/pip install maturin numpy && V/bin/pip install <checkout>`). Both
are started once as workers that read the same puzzles; then every workload runs on one build
and then the other, the order swapped every round, so load on the machine falls on both alike.
Each figure is the median over the rounds of the process CPU time per puzzle (threads=1, so the
process's CPU is the search's), and the last column is after over before in speed. The workers
also return a digest of their results: the two builds must agree on every answer.

Workloads: `solve_batch` and `count_solutions_batch(limit=2)` on a numpy stack, and a Python
loop of `sr.solve(str)` (the first --single puzzles), on sets of any size. Only functions every build since 0.1 has,
with classic rules (no `rules=`), so a build from before variant rules can stand on either side.
`--empty 25 36 49 64` also times `sr.solve` on an empty grid of each side (a figure per grid,
not per puzzle): the generic engine filling a big grid from nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

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
WORKLOADS = ["solve_batch", "count2_batch", "solve_str"]


def worker() -> None:
    """Answers one JSON request a line on stdin: load a set, or run a workload on it."""
    import time

    import numpy as np

    import sudoku_rs as sr

    loaded: dict[str, tuple[np.ndarray, list[str]]] = {}
    for line in sys.stdin:
        req = json.loads(line)
        if req["op"] == "empty":
            grid = np.zeros((req["side"], req["side"]), np.uint8)
            start = time.process_time()
            out = sr.solve(grid)
            cpu = time.process_time() - start
            # Any filling is an answer; the builds need not agree on which.
            digits = np.arange(1, req["side"] + 1)
            ok = bool(
                (np.sort(out, axis=1) == digits).all() and (np.sort(out.T, axis=1) == digits).all()
            )
            reply = {"cpu_per_puzzle": cpu, "digest": str(ok)}
        elif req["op"] == "load":
            lines = Path(req["path"]).read_text().split()[: req["limit"]]
            side = math.isqrt(len(lines[0]))
            # The text form: '.' or '0' blank, 1-9, then A for 10, B for 11, ...
            values = {ch: i + 1 for i, ch in enumerate("123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")}
            grid = np.array(
                [[values.get(ch, 0) for ch in s] for s in lines], dtype=np.uint8
            ).reshape(-1, side, side)
            loaded[req["set"]] = (grid, lines[: req["single"]])
            reply = {"count": len(lines), "version": sr.__version__}
        else:
            grid, lines = loaded[req["set"]]
            work = req["op"]
            start = time.process_time()
            if work == "solve_batch":
                out = sr.solve_batch(grid, threads=1)
                n = len(grid)
            elif work == "count2_batch":
                out = sr.count_solutions_batch(grid, limit=2, threads=1)
                n = len(grid)
            elif work == "solve_str":
                out = [sr.solve(s) for s in lines]
                n = len(lines)
            else:
                raise ValueError(f"unknown workload {work!r}")
            cpu = time.process_time() - start
            digest = hashlib.sha256(np.asarray(out).tobytes()).hexdigest()[:16]
            reply = {"cpu_per_puzzle": cpu / n, "digest": digest}
        print(json.dumps(reply), flush=True)


class Build:
    def __init__(self, python: str) -> None:
        self.proc = subprocess.Popen(
            [python, __file__, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, **req) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("a worker died; run it by hand to see why")
        return json.loads(line)

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait()


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

    builds = {"before": Build(args.before), "after": Build(args.after)}
    model = (
        next(
            (
                line.split(":", 1)[1].strip()
                for line in open("/proc/cpuinfo")
                if "model name" in line
            ),
            platform.processor() or platform.machine(),
        )
        if Path("/proc/cpuinfo").exists()
        else platform.machine()
    )
    print(
        f"machine: {model}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.2f}; --limit {args.limit} --rounds {args.rounds}"
    )
    for side, python in (("before", args.before), ("after", args.after)):
        print(f"{side}: {python}")
    print(f"{'set':34} {'workload':13} {'before µs':>10} {'after µs':>10} {'after/before':>13}")

    def side_by_side(label: str, work: str, **req) -> None:
        times: dict[str, list[float]] = {"before": [], "after": []}
        digests = set()
        for r in range(args.rounds):
            for side in ["before", "after"] if r % 2 == 0 else ["after", "before"]:
                reply = builds[side].ask(op=work, **req)
                times[side].append(reply["cpu_per_puzzle"])
                digests.add(reply["digest"])
        if len(digests) != 1:
            raise SystemExit(f"{label} {work}: the builds disagree on the results")
        before = statistics.median(times["before"]) * 1e6
        after = statistics.median(times["after"]) * 1e6
        print(f"{label:34} {work:13} {before:10.2f} {after:10.2f} {before / after:12.3f}x")

    try:
        for side in args.empty:
            side_by_side(f"empty {side}x{side}", "empty", side=side)
        for name in args.sets:
            path = args.data / name
            if not path.exists():
                print(f"{name}: not found in {args.data}")
                continue
            for b in builds.values():
                b.ask(op="load", set=name, path=str(path), limit=args.limit, single=args.single)
            for work in args.workloads:
                side_by_side(name, work, set=name)
    finally:
        for b in builds.values():
            b.close()


if __name__ == "__main__":
    main()
