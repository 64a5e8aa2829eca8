"""The batch functions besides solving under two builds of sudoku_rs, side by side in one run.

    python benches/batch_builds.py BEFORE_PYTHON AFTER_PYTHON
    python benches/batch_builds.py /tmp/before/bin/python .venv/bin/python --rows 3000 --rounds 7

Each PYTHON is an interpreter with one build of sudoku_rs installed (benches/twobuilds.py says
how to make one and how the two run side by side). Each figure is the median over the rounds
of the process CPU time per row with threads=1 (so the process's CPU is the work's, whatever
else loads the machine), and the last column is after over before in speed. The workers also
return a digest of every result: the two builds must agree on every row.

Workloads, on the first --rows puzzles of gen_easy35 (and their solutions):
`search_trace_batch`; `logic_trace_batch` without and with `states=True`; `parse_answer_batch`
on replies alternating a grid in a code fence, a list of moves and noise; `score_batch` with
the solutions given, on the grids, and on the `Answers` those replies parse to.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
from pathlib import Path

from twobuilds import Build, alternate, cpu_model, serve

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
WORKLOADS = [
    "search_trace_batch",
    "logic_trace_batch",
    "logic_trace_states",
    "parse_answer_batch",
    "score_batch",
    "score_answers",
]


def worker() -> None:
    """Answers each request: load the rows, or run one workload on them."""
    import time

    import numpy as np

    import sudoku_rs as sr

    state: dict = {}

    def load(path: str, rows: int) -> dict:
        lines = Path(path).read_text().split()[:rows]
        solutions = sr.solve_batch(lines)
        replies = []
        for i, (puzzle, solution) in enumerate(zip(lines, solutions)):
            if i % 3 == 0:
                body = "\n".join(solution[r * 9 : r * 9 + 9] for r in range(9))
                replies.append(f"Let me think.\n<answer>\n```\n{body}\n```\n</answer>")
            elif i % 3 == 1:
                blanks = [k for k, ch in enumerate(puzzle) if ch == "."][:10]
                moves = ", ".join(f"r{k // 9 + 1}c{k % 9 + 1}: {solution[k]}" for k in blanks)
                replies.append(f"The moves are {moves}.")
            else:
                replies.append("I cannot solve this puzzle. " * 4)
        state.update(lines=lines, solutions=solutions, replies=replies)
        return {"count": len(lines), "version": sr.__version__}

    def digest(out) -> str:
        h = hashlib.sha256()
        for part in out if isinstance(out, tuple) else (out,):
            if part is None:
                h.update(b"None")
            elif isinstance(part, np.ndarray):
                h.update(part.tobytes())
            else:
                h.update(repr(part).encode())
        return h.hexdigest()[:16]

    def run(work: str) -> dict:
        lines, solutions, replies = state["lines"], state["solutions"], state["replies"]
        answers = sr.parse_answer_batch(replies, threads=1) if work == "score_answers" else None
        start = time.process_time()
        if work == "search_trace_batch":
            out = tuple(sr.search_trace_batch(lines, threads=1))
        elif work == "logic_trace_batch":
            out = tuple(sr.logic_trace_batch(lines, threads=1))
        elif work == "logic_trace_states":
            out = tuple(sr.logic_trace_batch(lines, states=True, threads=1))
        elif work == "parse_answer_batch":
            a = sr.parse_answer_batch(replies, threads=1)
            out = (a.kind, a.grids, a.moves, a.offsets, a.errors)
        elif work == "score_batch":
            out = sr.score_batch(lines, solutions, solutions=solutions, threads=1)
        elif work == "score_answers":
            out = sr.score_batch(lines, answers, solutions=solutions, threads=1)
        else:
            raise ValueError(f"unknown workload {work!r}")
        cpu = time.process_time() - start
        return {"cpu_per_row": cpu / len(lines), "digest": digest(out)}

    def answer(req: dict) -> dict:
        if req["op"] == "load":
            return load(req["path"], req["rows"])
        return run(req["op"])

    serve(answer)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--rows", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--workloads", nargs="*", default=WORKLOADS, choices=WORKLOADS)
    args = parser.parse_args()
    before, after = Build("before", args.before, __file__), Build("after", args.after, __file__)
    print(
        f"machine: {cpu_model()}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.2f}; --rows {args.rows} --rounds {args.rounds}"
    )
    print(f"before: {args.before}\nafter: {args.after}")
    print(f"{'workload':20} {'before µs/row':>14} {'after µs/row':>13} {'after/before':>13}")
    try:
        for b in (before, after):
            b.ask(op="load", path=str(args.data / "gen_easy35"), rows=args.rows)
        for work in args.workloads:
            replies = alternate(before, after, args.rounds, op=work)
            if len({r["digest"] for side in replies.values() for r in side}) != 1:
                raise SystemExit(f"{work}: the builds disagree on the results")
            t = {
                k: statistics.median(r["cpu_per_row"] for r in v) * 1e6 for k, v in replies.items()
            }
            ratio = t["before"] / t["after"]
            print(f"{work:20} {t['before']:14.2f} {t['after']:13.2f} {ratio:12.3f}x")
    finally:
        before.close()
        after.close()


if __name__ == "__main__":
    import sys

    if sys.argv[1:] == ["--worker"]:
        worker()
    else:
        main()
