"""Prints how long `sr.generate(rules=...)` takes per constraint kind, one thread.

    python benches/variant_generate.py                       # every kind, seeds 1-5
    python benches/variant_generate.py --kinds sandwiches renbans --seeds 1 2 3 --cap 120

Each kind's rules are drawn on a fixed solution grid as benches/variants.py draws its generated
families (what 12 draws of the kind give, so the rules hold; where they give none, draws go on
to 4 items), then one puzzle is generated per seed with
`sr.generate(rules=rules, seed=seed)` on the calling thread. Times are process CPU seconds
(steadier than wall time on a shared machine) per puzzle, median and worst over the seeds; a
call still running after --cap CPU seconds is stopped (an exception from a signal handler, as
Ctrl-C stops it) and counted at the cap, marked with '>'. Killer is drawn as cages covering the grid.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import signal
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from helpers import cages_over
from test_variant_engine import as_keyword, draw

import sudoku_rs as sr

KINDS = [
    "thermometers",
    "arrows",
    "differences",
    "ratios",
    "xv",
    "cages",
    "killer",
    "little_killers",
    "sandwiches",
    "whispers",
    "renbans",
    "palindromes",
    "between_lines",
    "x_sums",
    "skyscrapers",
    "quadruples",
]


class Capped(Exception):
    pass


def rules_for(kind: str, seed: int) -> sr.Rules:
    sol = sr.solve(sr.generate(seed=seed))
    digits = [int(ch) for ch in sol]
    if kind == "killer":
        return sr.Rules.killer(cages_over(digits, 9, seed, max_cells=4))
    g = {(i // 9, i % 9): d for i, d in enumerate(digits)}
    rng = random.Random(f"{seed}{kind}")
    items = [x for x in (draw(kind, g, 9, rng) for _ in range(12)) if x is not None]
    # Some kinds rarely fit a random spot (an arrow's sum, a palindrome's mirror): when 12
    # draws gave none, draw on to 4.
    for _ in range(2000 if not items else 0):
        if len(items) >= 4:
            break
        item = draw(kind, g, 9, rng)
        if item is not None:
            items.append(item)
    return sr.Rules(**{kind: as_keyword(kind, items)})


def timed(rules: sr.Rules, seed: int, cap: float) -> tuple[float, bool]:
    """CPU seconds of one generate call, and whether it hit the cap."""

    def stop(signum, frame):
        raise Capped

    old = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, cap)
    c0 = time.process_time()
    try:
        sr.generate(rules=rules, seed=seed)
        capped = False
    except Capped:
        capped = True
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    return time.process_time() - c0, capped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kinds", nargs="+", default=KINDS, choices=KINDS)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    parser.add_argument("--rules-seed", type=int, default=2026)
    parser.add_argument("--cap", type=float, default=60.0, help="CPU seconds per puzzle")
    args = parser.parse_args()
    print(
        f"sudoku_rs {sr.__version__}, Python {platform.python_version()}, {platform.machine()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}; seeds {args.seeds}, "
        f"cap {args.cap:g} s"
    )
    print(f"{'kind':16} {'median s':>9} {'worst s':>9}  per seed (CPU s)")
    for kind in args.kinds:
        rules = rules_for(kind, args.rules_seed)
        runs = [timed(rules, seed, args.cap) for seed in args.seeds]
        times = [t for t, _ in runs]
        worst = max(times)
        mark = ">" if any(c for _, c in runs) else ""
        each = " ".join(f"{'>' if c else ''}{t:.2f}" for t, c in runs)
        print(
            f"{kind:16} {statistics.median(times):9.2f} {mark:>1}{worst:8.2f}  {each}", flush=True
        )


if __name__ == "__main__":
    main()
