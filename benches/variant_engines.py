"""Two builds of sudoku_rs side by side on the variant engine: solve, count to 2 and generate per
variant, on the same generated puzzles, one thread, in alternating rounds; prints after/before.

    python benches/variant_engines.py --before /tmp/before-venv/bin/python \\
        --after .venv/bin/python [--count 20] [--rounds 3] [--only non-consecutive,killer]

A build is a Python interpreter that imports the sudoku_rs to time (a venv with that build
installed, e.g. `pip install .` of a checkout of the other commit). Each runs this file as a
worker in its own process, kept for the whole run, and times its own calls; the two are asked in
turn, the order swapped every round, so load on a shared machine falls on both alike. Only
ratios are meaningful: each is the "before" time over the "after" time, best round of each
(above 1: the after build is faster). The puzzles come from `generate_batch` in the after build
(the variants and their rules are benches/variants.py's); both builds must agree on every
count and on every unique puzzle's solution, and generating must give both the same puzzles
(a seed names one puzzle), or the run stops.
"""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def worker():
    """Answers one JSON request a line on stdin with one JSON line on stdout."""
    sys.path.insert(0, HERE)
    from variants import variants

    import sudoku_rs as sr

    rules_of = {}
    for line in sys.stdin:
        req = json.loads(line)
        seed = req["seed"]
        if seed not in rules_of:
            rules_of[seed] = variants(seed)
        rules = rules_of[seed][req["variant"]]
        op = req["op"]
        start = time.perf_counter()
        if op == "generate":
            out = sr.generate_batch(req["count"], seed=seed, rules=rules, threads=1)
            seconds = time.perf_counter() - start
            result = ["".join(".123456789"[v] for v in p.reshape(-1)) for p in out]
        elif op == "solve":
            result = sr.solve_batch(req["puzzles"], rules=rules, threads=1)
            seconds = time.perf_counter() - start
        elif op == "count":
            out = sr.count_solutions_batch(req["puzzles"], rules=rules, limit=2, threads=1)
            seconds = time.perf_counter() - start
            result = [int(v) for v in out]
        else:
            raise ValueError(op)
        print(json.dumps({"seconds": seconds, "result": result, "version": sr.__version__}))
        sys.stdout.flush()


class Build:
    def __init__(self, name, python):
        self.name = name
        self.proc = subprocess.Popen(
            [python, os.path.abspath(__file__), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, **req):
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            sys.exit(f"the {self.name} worker stopped")
        return json.loads(line)

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", required=True, help="Python of the before build")
    parser.add_argument("--after", required=True, help="Python of the after build")
    parser.add_argument("--count", type=int, default=20, help="puzzles per variant")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", default="", help="comma-separated variants (default: all)")
    args = parser.parse_args()

    sys.path.insert(0, HERE)
    from variants import JIGSAW  # noqa: F401 (the variants file must import here too)

    names = ["x", "windoku", "jigsaw", "anti-knight", "anti-king", "non-consecutive", "killer"]
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    before, after = Build("before", args.before), Build("after", args.after)
    print(
        f"{os.cpu_count()} cores; {args.count} puzzles per variant, seed {args.seed}, "
        f"{args.rounds} alternating rounds, one thread; ratio = before time / after time"
    )
    print(f"{'variant':16} {'op':9} {'before s':>10} {'after s':>10} {'after/before':>13}")
    for name in names:
        common = {"variant": name, "seed": args.seed}
        puzzles = after.ask(op="generate", count=args.count, **common)["result"]
        tasks = [
            ("solve", {"op": "solve", "puzzles": puzzles}),
            ("count 2", {"op": "count", "puzzles": puzzles}),
            ("generate", {"op": "generate", "count": args.count}),
        ]
        for label, req in tasks:
            best = {"before": float("inf"), "after": float("inf")}
            results = {}
            for r in range(args.rounds):
                order = (before, after) if r % 2 == 0 else (after, before)
                for build in order:
                    answer = build.ask(**req, **common)
                    best[build.name] = min(best[build.name], answer["seconds"])
                    results[build.name] = answer["result"]
            if results["before"] != results["after"]:
                if label != "solve":
                    sys.exit(f"{name} {label}: the builds disagree")
                counts = after.ask(op="count", puzzles=puzzles, **common)["result"]
                for i, (a, b) in enumerate(zip(results["before"], results["after"])):
                    if a != b and counts[i] == 1:
                        sys.exit(f"{name} solve: the builds disagree on unique puzzle {i}")
            ratio = best["before"] / best["after"]
            print(f"{name:16} {label:9} {best['before']:10.4f} {best['after']:10.4f} {ratio:13.3f}")
            sys.stdout.flush()
    before.close()
    after.close()


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        worker()
    else:
        main()
