"""Two builds of sudoku_rs side by side on the variant engine: solve, count to 2 and generate per
variant, on the same generated puzzles, one thread, in alternating rounds; prints after/before.

    python benches/variant_engines.py --before /tmp/before-venv/bin/python \\
        --after .venv/bin/python [--count 20] [--rounds 3] [--only non-consecutive,killer]

A build is a Python interpreter that imports the sudoku_rs to time; benches/twobuilds.py says
how to make one and how the two run side by side. Each figure is the median over the rounds of
the worker's process CPU time, and each ratio the "before" time over the "after" time (above 1:
the after build is faster). The puzzles come from `generate_batch` in the after build (the
variants and their rules are benches/variants.py's); both builds must agree on every count and
on every unique puzzle's solution, and generating must give both the same puzzles (a seed names
one puzzle), or the run stops.
"""

import argparse
import os
import statistics
import sys
import time

from twobuilds import Build, alternate, serve

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = ["x", "windoku", "jigsaw", "anti-knight", "anti-king", "non-consecutive", "killer"]


def worker():
    """Answers each request: generate, solve or count one variant's puzzles."""
    from variants import variants

    import sudoku_rs as sr

    rules_of = {}

    def answer(req):
        seed = req["seed"]
        if seed not in rules_of:
            rules_of[seed] = variants(seed)
        rules = rules_of[seed][req["variant"]]
        op = req["op"]
        start = time.process_time()
        if op == "generate":
            out = sr.generate_batch(req["count"], seed=seed, rules=rules, threads=1)
            seconds = time.process_time() - start
            result = ["".join(".123456789"[v] for v in p.reshape(-1)) for p in out]
        elif op == "solve":
            result = sr.solve_batch(req["puzzles"], rules=rules, threads=1)
            seconds = time.process_time() - start
        elif op == "count":
            out = sr.count_solutions_batch(req["puzzles"], rules=rules, limit=2, threads=1)
            seconds = time.process_time() - start
            result = [int(v) for v in out]
        else:
            raise ValueError(op)
        return {"seconds": seconds, "result": result, "version": sr.__version__}

    serve(answer)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", required=True, help="Python of the before build")
    parser.add_argument("--after", required=True, help="Python of the after build")
    parser.add_argument("--count", type=int, default=20, help="puzzles per variant")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", default="", help="comma-separated variants (default: all)")
    args = parser.parse_args()

    names = [n for n in NAMES if not args.only or n in args.only.split(",")]
    before = Build("before", args.before, __file__)
    after = Build("after", args.after, __file__)
    print(
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; {args.count} puzzles "
        f"per variant, seed {args.seed}, {args.rounds} alternating rounds, one thread; "
        "ratio = before time / after time"
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
            replies = alternate(before, after, args.rounds, **req, **common)
            t = {k: statistics.median(r["seconds"] for r in v) for k, v in replies.items()}
            got = {k: v[-1]["result"] for k, v in replies.items()}
            if got["before"] != got["after"]:
                if label != "solve":
                    sys.exit(f"{name} {label}: the builds disagree")
                counts = after.ask(op="count", puzzles=puzzles, **common)["result"]
                for i, (a, b) in enumerate(zip(got["before"], got["after"])):
                    if a != b and counts[i] == 1:
                        sys.exit(f"{name} solve: the builds disagree on unique puzzle {i}")
            ratio = t["before"] / t["after"]
            print(f"{name:16} {label:9} {t['before']:10.4f} {t['after']:10.4f} {ratio:13.3f}")
            sys.stdout.flush()
    before.close()
    after.close()


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    if sys.argv[1:] == ["--worker"]:
        worker()
    else:
        main()
