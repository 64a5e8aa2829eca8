"""Variant solving speed: puzzles/s per variant on generated puzzles, one thread and all cores,
side by side with `sudoku-engine` (PyPI) on the variants it has, in alternating rounds.

    python benches/variants.py                      # sudoku_rs only
    python benches/variants.py --compare            # also sudoku-engine, if importable

`sudoku-engine` is a benchmark-only comparison: install it into a separate bench venv together
with this package (never a dependency of sudoku_rs). Every puzzle is generated here by
`sr.generate_batch(rules=...)` from a fixed seed, so each has exactly one solution, and both
solvers' answers are checked against each other. sudoku-engine gets a time limit per puzzle
(its killer check runs only on complete grids); a puzzle it does not finish counts as such.
"""

import argparse
import os
import platform
import random
import signal
import sys
import time
from pathlib import Path

import numpy as np

import sudoku_rs as sr

# The tests' helpers: the published jigsaw layout (Janko.at Chaos Sudoku 108) from their
# table of published variant puzzles, and the seeded killer cage layouts they test with.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from helpers import cages_over
from published_variants import JANKO_108_REGIONS


def killer_cages(seed, max_size=4):
    """Cages covering a classic solution grid: random connected groups of 1..max_size cells
    with distinct digits, totals taken from the grid. Seeded, so the layout is fixed."""
    digits = [int(ch) for ch in sr.solve(sr.generate(seed=seed))]
    return cages_over(digits, 9, seed, max_cells=max_size)


def variants(seed):
    return {
        "x": sr.Rules.x(),
        "windoku": sr.Rules.windoku(),
        "jigsaw": sr.Rules.jigsaw(JANKO_108_REGIONS),
        "anti-knight": sr.Rules(anti_knight=True),
        "anti-king": sr.Rules(anti_king=True),
        "non-consecutive": sr.Rules(non_consecutive=True),
        "killer": sr.Rules.killer(killer_cages(seed)),
    }


def engine_puzzle(name, rules, grid):
    """The sudoku-engine object for one puzzle, or None for a variant it does not have."""
    import sudoku as se

    board = [[v or None for v in row] for row in grid.tolist()]
    if name == "x":
        return se.DiagonalSudoku(size=9, board=board)
    if name == "windoku":
        return se.HyperSudoku(size=9, board=board)
    if name == "jigsaw":
        regions = {}
        for r, row in enumerate(rules.regions):
            for c, k in enumerate(row):
                regions.setdefault(k, set()).add((r, c))
        return se.JigsawSudoku(size=9, board=board, jigsaw_regions=list(regions.values()))
    if name == "killer":
        cages = [se.Cage(cells=frozenset(cells), target=total) for total, cells in rules.cages]
        return se.KillerSudoku(size=9, board=board, cages=cages)
    return None


class TimeLimit(Exception):
    pass


def _alarm(signum, frame):
    raise TimeLimit


def engine_solve(puzzle, limit_s):
    """sudoku-engine's first solution as a grid of ints, or None past `limit_s` seconds. Its
    own `solve()` rebuilds the puzzle without the jigsaw regions (and fails there), so this
    calls the solver it wraps."""
    from sudoku.base_sudoku import Solver

    signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit_s)
    try:
        return Solver(puzzle, max_solutions=1).solve_one()
    except TimeLimit:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def rate(count, seconds):
    return count / seconds if seconds > 0 else float("inf")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=200, help="puzzles per variant")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--compare", action="store_true", help="also time sudoku-engine")
    parser.add_argument("--compare-count", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--engine-limit", type=float, default=10.0, help="seconds per puzzle")
    args = parser.parse_args()

    print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    print(
        f"sudoku_rs {sr.__version__}; {args.count} generated puzzles per variant, seed {args.seed}"
    )
    header = (
        f"{'variant':16} {'clues':>6} {'generate/s':>11} {'solve 1 thread/s':>17} "
        f"{'solve all cores/s':>18} {'solve() calls/s':>16}"
    )
    print(header)
    made = {}
    for name, rules in variants(args.seed).items():
        t = time.perf_counter()
        puzzles = sr.generate_batch(args.count, seed=args.seed, rules=rules, threads=1)
        gen = rate(args.count, time.perf_counter() - t)
        made[name] = (rules, puzzles)
        clues = float(np.mean((puzzles != 0).sum(axis=(1, 2))))
        best = {}
        for _ in range(args.rounds):
            for threads in (1, None):
                t = time.perf_counter()
                sr.solve_batch(puzzles, rules=rules, threads=threads)
                best[threads] = max(best.get(threads, 0), rate(args.count, time.perf_counter() - t))
        lines = ["".join(".123456789"[v] for v in p.reshape(-1)) for p in puzzles]
        t = time.perf_counter()
        for line in lines:
            sr.solve(line, rules=rules)
        calls = rate(len(lines), time.perf_counter() - t)
        print(
            f"{name:16} {clues:6.1f} {gen:11.0f} {best[1]:17.0f} {best[None]:18.0f} {calls:16.0f}"
        )

    if not args.compare:
        return
    try:
        import sudoku  # noqa: F401
    except ImportError:
        print("sudoku-engine is not installed here: pip install sudoku-engine (bench venv only)")
        return
    random.seed(args.seed)  # sudoku-engine shuffles digits with the global random module
    print(
        f"\nside by side, {args.compare_count} puzzles per variant, one thread, {args.rounds} "
        f"alternating rounds, sudoku-engine limit {args.engine_limit} s per puzzle"
    )
    print(
        f"{'variant':16} {'sudoku_rs/s':>12} {'sudoku-engine/s':>16} {'unfinished':>11} {'ratio':>10}"
    )
    for name, (rules, puzzles) in made.items():
        subset = puzzles[: args.compare_count]
        if engine_puzzle(name, rules, subset[0]) is None:
            continue
        lines = ["".join(".123456789"[v] for v in p.reshape(-1)) for p in subset]
        ours, theirs, unfinished = [], [], 0
        for _ in range(args.rounds):
            t = time.perf_counter()
            answers = [sr.solve(line, rules=rules) for line in lines]
            ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            unfinished = 0
            for grid, answer in zip(subset, answers):
                solved = engine_solve(engine_puzzle(name, rules, grid), args.engine_limit)
                if solved is None:
                    unfinished += 1
                    continue
                got = "".join(str(v) for row in solved for v in row)
                assert got == answer, (name, got, answer)
            theirs.append(time.perf_counter() - t)
        a, b = rate(len(lines), min(ours)), rate(len(lines) - unfinished, min(theirs))
        print(
            f"{name:16} {a:12.0f} {b:16.2f} {unfinished:11d} {a / b if b else float('inf'):9.0f}x"
        )


if __name__ == "__main__":
    main()
