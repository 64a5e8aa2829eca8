"""Variant solving speed per constraint family, side by side in one run with OR-tools CP-SAT (a
model written here) and pencilmark's solver: median and worst time to solve and to count to 2.

    python benches/variants.py                       # sudoku_rs, CP-SAT and pencilmark
    python benches/variants.py --count 10 --rounds 3 --families thermometers,xv
    python benches/variants.py --sudoku-engine       # the seven older types vs sudoku-engine

Two sources of puzzles per family. *published*: the corpus of tests/data/published_links.json
(dclamage's SudokuVariantSolverJS puzzles, CC BY 4.0), every puzzle listed under each kind its
rules hold, each loaded from its link by every solver (pencilmark imports the same f-puzzles
link). *generated*: constraints of the family drawn to hold on a fixed solution grid (as
tests/test_variant_engine.py draws them), then `sr.generate_batch(rules=...)` makes unique
puzzles under those rules.

Timing: process CPU time of one call, one thread everywhere (CP-SAT with one worker), the
least over the rounds per puzzle, the solvers asked in turn within each round. sudoku_rs:
`sr.solve(puzzle)` and `sr.count_solutions(puzzle, limit=2)` on a loaded `sr.Puzzle`.
CP-SAT: building the model and solving (what answering a new puzzle costs); counting to 2
solves, forbids the solution found and solves again. pencilmark, two columns: *pencilmark*
is its public solver, `pencilmark.solve(p)` (what a user calls: `decide(load(p), limit=2)`,
the C++ search compiling the puzzle each call, so it always searches to 2), on the puzzle
already imported with `pencilmark.load`; its `load` is inside the call but is a no-op on a
loaded puzzle, so the link import is not counted. *pencilmark C++* is that solver's internal
exhaustive search alone (`cbackend.brute_solve` with limit 1 or 2) on the puzzle already
compiled, shown so that nothing is hidden. Every answer is checked: each solver's count and
solution must agree with sudoku_rs, or the disagreement is printed and that puzzle left out
of that solver's figures. A solver that refuses a puzzle (a kind it does not model) is left
out for it, and each ratio is taken over the puzzles both answered: the peer's median over
them / sudoku_rs's median over the same puzzles (`both` says how many when it is fewer than
sudoku_rs's `n`).

ortools, pencilmark and sudoku-engine are benchmark dependencies only: install them into a
separate bench venv together with this package, never as dependencies of sudoku_rs:

    python3 -m venv /work/bench-venv
    /work/bench-venv/bin/pip install ortools pencilmark pytest numpy maturin
    /work/bench-venv/bin/pip install --no-build-isolation --no-deps .
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import sys
import time
from pathlib import Path

import sudoku_rs as sr

# The tests' helpers: the published jigsaw layout (Janko.at Chaos Sudoku 108), the seeded
# killer cage layouts, and the constraint drawing of the variant engine's tests.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from helpers import cages_over
from published_variants import JANKO_108_REGIONS
from test_variant_engine import as_keyword, diagonal, draw, outside_line

ROOT = Path(__file__).resolve().parent.parent

# Families generated: drawn on a solution grid as the tests draw them.
GENERATED = [
    "thermometers",
    "arrows",
    "differences",
    "ratios",
    "xv",
    "cages",
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


def killer_cages(seed, max_size=4):
    """Cages covering a classic solution grid: random connected groups of 1..max_size cells
    with distinct digits, totals taken from the grid. Seeded, so the layout is fixed."""
    digits = [int(ch) for ch in sr.solve(sr.generate(seed=seed))]
    return cages_over(digits, 9, seed, max_cells=max_size)


def variants(seed):
    """The seven rule types sudoku_rs had before links (benches/variant_engines.py's too)."""
    return {
        "x": sr.Rules.x(),
        "windoku": sr.Rules.windoku(),
        "jigsaw": sr.Rules.jigsaw(JANKO_108_REGIONS),
        "anti-knight": sr.Rules(anti_knight=True),
        "anti-king": sr.Rules(anti_king=True),
        "non-consecutive": sr.Rules(non_consecutive=True),
        "killer": sr.Rules.killer(killer_cages(seed)),
    }


# ---------------------------------------------------------------- puzzles


def published():
    """(family, title, sr.Puzzle, link) for every 9x9 corpus puzzle sudoku_rs reads."""
    corpus = json.loads((ROOT / "tests" / "data" / "published_links.json").read_text("utf-8"))
    out = []
    for entry in corpus["puzzles"]:
        try:
            puzzle = sr.Puzzle.from_url(entry["link"])
        except sr.SudokuError:
            continue
        if puzzle.size != 9:
            continue
        kinds = puzzle.rules.kinds or ["classic"]
        out.extend((kind, entry["title"], puzzle, entry["link"]) for kind in kinds)
    return out


def generated(count, seed, families):
    """(family, label, sr.Puzzle, link) for `count` generated puzzles of each of `families`."""
    sol = sr.solve(sr.generate(seed=seed))
    g = {(i // 9, i % 9): int(ch) for i, ch in enumerate(sol)}
    out = []
    for kind in families:
        print(f"generating {kind}", file=sys.stderr, flush=True)
        rng = random.Random(f"{seed}{kind}")
        items = [x for x in (draw(kind, g, 9, rng) for _ in range(12)) if x is not None]
        rules = sr.Rules(**{kind: as_keyword(kind, items)})
        grids = sr.generate_batch(count, seed=seed, rules=rules, threads=1)
        for i, grid in enumerate(grids):
            puzzle = sr.Puzzle(grid, rules=rules)
            out.append((kind, f"{kind} #{i}", puzzle, puzzle.to_url()))
    return out


# ---------------------------------------------------------------- CP-SAT


class Unmodelled(Exception):
    pass


def cpsat_model(puzzle):
    """The CP-SAT model of a 9x9 `sr.Puzzle`: one integer and nine booleans per cell."""
    from ortools.sat.python import cp_model

    n = puzzle.size
    rules = puzzle.rules
    m = cp_model.CpModel()
    cells = [(r, c) for r in range(n) for c in range(n)]
    b = {(x, d): m.NewBoolVar("") for x in cells for d in range(1, n + 1)}
    v = {}
    for x in cells:
        m.AddExactlyOne(b[x, d] for d in range(1, n + 1))
        v[x] = m.NewIntVar(1, n, "")
        m.Add(v[x] == sum(d * b[x, d] for d in range(1, n + 1)))
    for x in cells:
        given = puzzle.grid[x[0]][x[1]]
        if given:
            m.Add(b[x, given] == 1)

    def distinct(group):
        group = list(group)
        if len(group) == n:
            for d in range(1, n + 1):
                m.AddExactlyOne(b[x, d] for x in group)
        else:
            for d in range(1, n + 1):
                m.AddAtMostOne(b[x, d] for x in group)

    def table(a, z, ok):
        for d in range(1, n + 1):
            for e in range(1, n + 1):
                if not ok(d, e):
                    m.AddBoolOr([b[a, d].Not(), b[z, e].Not()])

    for i in range(n):
        distinct((i, c) for c in range(n))
        distinct((r, i) for r in range(n))
    regions = rules.regions
    if regions is None:
        for k in range(n):
            distinct((k // 3 * 3 + i // 3, k % 3 * 3 + i % 3) for i in range(n))
    else:
        for k in range(n):
            distinct(x for x in cells if regions[x[0]][x[1]] == k)
    if rules.diagonals or rules.main_diagonal:
        distinct((i, i) for i in range(n))
    if rules.diagonals or rules.anti_diagonal:
        distinct((i, n - 1 - i) for i in range(n))
    if rules.windows:
        for top, left in [(1, 1), (1, 5), (5, 1), (5, 5)]:
            distinct((top + i // 3, left + i % 3) for i in range(9))
    if rules.disjoint_groups:
        for k in range(n):
            distinct(x for x in cells if x[0] % 3 * 3 + x[1] % 3 == k)
    for region in rules.extra_regions:
        distinct(region)
    moves = []
    if rules.anti_knight:
        moves += [(1, 2), (2, 1), (1, -2), (2, -1)]
    if rules.anti_king:
        moves += [(1, 1), (1, -1)]
    for r, c in cells:
        for dr, dc in moves:
            z = (r + dr, c + dc)
            if z in v:
                table((r, c), z, lambda d, e: d != e)
    for total, cage in rules.cages:
        distinct(cage)
        if total is not None:
            m.Add(sum(v[x] for x in cage) == total)
    for total, clue, direction in rules.little_killers:
        m.Add(sum(v[x] for x in diagonal(clue, direction, n)) == total)
    for thermo in rules.thermometers:
        for a, z in zip(thermo, thermo[1:]):
            m.Add(v[a] < v[z])
    for circle, shaft in rules.arrows:
        weights = [10**i for i in range(len(circle))][::-1]
        number = sum(w * v[x] for w, x in zip(weights, sorted(circle)))
        m.Add(sum(v[x] for x in shaft) == number)

    def orthogonal_pairs():
        for r, c in cells:
            for z in ((r, c + 1), (r + 1, c)):
                if z in v:
                    yield (r, c), z

    def marked(pairs):
        return {frozenset((a, z)) for a, z, *_ in pairs}

    for a, z, letter in rules.xv:
        table(a, z, lambda d, e, s=10 if letter == "X" else 5: d + e == s)
    for a, z, k in rules.differences:
        table(a, z, lambda d, e, k=k: abs(d - e) == k)
    for a, z, k in rules.ratios:
        table(a, z, lambda d, e, k=k: d == k * e or e == k * d)
    if rules.negative_xv:
        dotted = marked(rules.xv)
        for a, z in orthogonal_pairs():
            if frozenset((a, z)) not in dotted:
                table(a, z, lambda d, e: d + e not in (5, 10))
    if rules.negative_ratio:
        dotted = marked(rules.ratios)
        ks = {2} | {k for _, _, k in rules.ratios}
        for a, z in orthogonal_pairs():
            if frozenset((a, z)) not in dotted:
                table(a, z, lambda d, e: not any(d == k * e or e == k * d for k in ks))
    if rules.non_consecutive:
        dotted = marked(rules.differences)
        for a, z in orthogonal_pairs():
            if frozenset((a, z)) not in dotted:
                table(a, z, lambda d, e: abs(d - e) != 1)
    for line, k in rules.whispers:
        k = k if k is not None else (n + 1) // 2
        for a, z in zip(line, line[1:]):
            table(a, z, lambda d, e, k=k: abs(d - e) >= k)
    for line in rules.renbans:
        distinct(line)
        hi, lo = m.NewIntVar(1, n, ""), m.NewIntVar(1, n, "")
        m.AddMaxEquality(hi, [v[x] for x in line])
        m.AddMinEquality(lo, [v[x] for x in line])
        m.Add(hi - lo == len(line) - 1)
    for line in rules.palindromes:
        for a, z in zip(line, line[::-1]):
            m.Add(v[a] == v[z])
    for line in rules.between_lines:
        up = m.NewBoolVar("")
        for x in line[1:-1]:
            m.Add(v[line[0]] < v[x]).OnlyEnforceIf(up)
            m.Add(v[x] < v[line[-1]]).OnlyEnforceIf(up)
            m.Add(v[line[0]] > v[x]).OnlyEnforceIf(up.Not())
            m.Add(v[x] > v[line[-1]]).OnlyEnforceIf(up.Not())
    odd = [d for d in range(1, n + 1) if d % 2]
    for x in rules.odd_cells:
        m.AddBoolOr([b[x, d] for d in odd])
    for x in rules.even_cells:
        m.AddBoolOr([b[x, d] for d in range(2, n + 1, 2)])
    for x, digits in rules.pencil_marks:
        m.AddBoolOr([b[x, d] for d in digits])
    # A minimum is below its orthogonal neighbours not marked the same way, a maximum above.
    for marked_cells, sign in ((rules.minimum_cells, 1), (rules.maximum_cells, -1)):
        group = set(marked_cells)
        for r, c in marked_cells:
            for z in ((r, c + 1), (r + 1, c), (r, c - 1), (r - 1, c)):
                if z in v and z not in group:
                    m.Add(sign * v[r, c] < sign * v[z])
    for (r, c), digits in rules.quadruples:
        here = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
        for d in set(digits):
            m.Add(sum(b[x, d] for x in here) >= digits.count(d))
    for a_cells, z_cells in rules.clones:
        for a, z in zip(a_cells, z_cells):
            m.Add(v[a] == v[z])
    for total, clue in rules.sandwiches:
        line = outside_line(clue, n)
        options = []
        for i in range(n):
            for j in range(i + 1, n):
                here = m.NewBoolVar("")
                ends = [(b[line[i], 1], b[line[j], n]), (b[line[j], 1], b[line[i], n])]
                one = [m.NewBoolVar(""), m.NewBoolVar("")]
                for o, (p, q) in zip(one, ends):
                    m.AddBoolAnd([p, q]).OnlyEnforceIf(o)
                    m.AddBoolOr([p.Not(), q.Not(), o])
                m.AddBoolOr(one).OnlyEnforceIf(here)
                for o in one:
                    m.AddImplication(o, here)
                m.Add(sum(v[x] for x in line[i + 1 : j]) == total).OnlyEnforceIf(here)
                options.append(here)
        m.AddExactlyOne(options)
    for total, clue in rules.x_sums:
        line = outside_line(clue, n)
        for k in range(1, n + 1):
            m.Add(sum(v[x] for x in line[:k]) == total).OnlyEnforceIf(b[line[0], k])
    for seen, clue in rules.skyscrapers:
        line = outside_line(clue, n)
        visible = [m.NewConstant(1)]
        top = v[line[0]]
        for x in line[1:]:
            here = m.NewBoolVar("")
            m.Add(v[x] > top).OnlyEnforceIf(here)
            m.Add(v[x] <= top).OnlyEnforceIf(here.Not())
            higher = m.NewIntVar(1, n, "")
            m.AddMaxEquality(higher, [top, v[x]])
            visible.append(here)
            top = higher
        m.Add(sum(visible) == seen)
    known = {
        "regions",
        "diagonals",
        "main_diagonal",
        "anti_diagonal",
        "windows",
        "disjoint_groups",
        "extra_regions",
        "anti_knight",
        "anti_king",
        "cages",
        "little_killers",
        "thermometers",
        "arrows",
        "xv",
        "differences",
        "ratios",
        "negative_xv",
        "negative_ratio",
        "non_consecutive",
        "whispers",
        "renbans",
        "palindromes",
        "between_lines",
        "odd_cells",
        "even_cells",
        "pencil_marks",
        "minimum_cells",
        "maximum_cells",
        "quadruples",
        "clones",
        "sandwiches",
        "x_sums",
        "skyscrapers",
    }
    left = set(rules.kinds) - known
    if left:
        raise Unmodelled(", ".join(sorted(left)))
    return m, b, cells


def cpsat(puzzle, limit):
    """CP-SAT's count up to `limit` (1 or 2) and first solution as a digit string."""
    from ortools.sat.python import cp_model

    m, b, cells = cpsat_model(puzzle)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    found = []
    while len(found) < limit:
        if solver.Solve(m) not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            break
        digits = [next(d for d in range(1, 10) if solver.Value(b[x, d])) for x in cells]
        found.append("".join(map(str, digits)))
        m.AddBoolOr([b[x, d].Not() for x, d in zip(cells, digits)])
    return len(found), found[0] if found else None


# ---------------------------------------------------------------- the solvers


class Solvers:
    """Each solver's prepared form of a puzzle, and a timed answer."""

    def __init__(self, use_cpsat, use_pencilmark):
        self.use_cpsat = use_cpsat
        self.use_pencilmark = use_pencilmark

    def prepare(self, puzzle, link):
        forms = {"sudoku_rs": puzzle}
        if self.use_cpsat:
            try:
                cpsat_model(puzzle)
                forms["CP-SAT"] = puzzle
            except Unmodelled:
                pass
        if self.use_pencilmark:
            from pencilmark import cbackend, sources
            from pencilmark.api import load

            try:
                loaded = load(sources.load(link, fetch=False))
                forms["pencilmark"] = loaded
                forms["pencilmark C++"] = (loaded, cbackend.to_cpuzzle(loaded))
            except Exception:  # any refusal leaves pencilmark out for this puzzle
                pass
        return forms

    @staticmethod
    def answer(name, form, limit):
        """(CPU seconds, count, first solution as a digit string)."""
        start = time.process_time()
        if name == "sudoku_rs":
            if limit == 1:
                grid = sr.solve(form)
                seconds, count = time.process_time() - start, 1
            else:
                count = sr.count_solutions(form, limit=2)
                seconds = time.process_time() - start
                # The solution is for the check only, not timed.
                grid = sr.solve(form)
            return seconds, count, "".join(str(d) for row in grid for d in row)
        if name == "CP-SAT":
            count, sol = cpsat(form, limit)
            return time.process_time() - start, count, sol
        if name == "pencilmark":
            import pencilmark

            try:
                sol = "".join(map(str, pencilmark.solve(form)))
                count = 1
            except pencilmark.NotUnique:
                sol, count = None, 2
            except pencilmark.NoSolution:
                sol, count = None, 0
            except pencilmark.Undecided:
                sol, count = None, None
            return time.process_time() - start, count, sol
        from pencilmark import cbackend

        loaded, compiled = form
        found = cbackend.brute_solve(loaded, limit=limit, cpuzzle=compiled)
        seconds = time.process_time() - start
        if not found.complete:
            return seconds, None, None
        sol = "".join(map(str, found[0])) if len(found) else None
        return seconds, len(found), sol


def run(rows, solvers, rounds):
    """Per (source, family, solver, op): {puzzle label: the least CPU seconds} for each
    puzzle that solver answered."""
    times = {}
    disagreements = []
    for source, family, label, puzzle, link in rows:
        print(f"{source} {label}", file=sys.stderr, flush=True)
        forms = solvers.prepare(puzzle, link)
        for op, limit in (("solve", 1), ("count 2", 2)):
            best = {name: float("inf") for name in forms}
            answers = {}
            for r in range(rounds):
                names = list(forms) if r % 2 == 0 else list(forms)[::-1]
                for name in names:
                    seconds, count, sol = solvers.answer(name, forms[name], limit)
                    best[name] = min(best[name], seconds)
                    answers[name] = (count, sol)
            # Every puzzle here has one solution: each solver must give it (and count 1).
            ours = answers["sudoku_rs"]
            for name in forms:
                theirs = answers[name]
                if theirs == ours:
                    times.setdefault((source, family, name, op), {})[label] = best[name]
                else:
                    disagreements.append((source, label, name, op, theirs[0], ours[0]))
    return times, disagreements


def main():
    if "--sudoku-engine" in sys.argv:
        sudoku_engine_main()
        return
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=10, help="generated puzzles per family")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--families", default="", help="comma-separated (default: all)")
    parser.add_argument("--no-cpsat", action="store_true")
    parser.add_argument("--no-pencilmark", action="store_true")
    parser.add_argument("--timeout", type=float, default=600, help="seconds for the whole run")
    args = parser.parse_args()
    signal.alarm(int(args.timeout))

    wanted = set(args.families.split(",")) if args.families else None
    rows = [("published", *row) for row in published() if not wanted or row[0] in wanted]
    kinds = [kind for kind in GENERATED if args.count and (not wanted or kind in wanted)]
    rows += [("generated", *row) for row in generated(args.count, args.seed, kinds)]
    solvers = Solvers(not args.no_cpsat, not args.no_pencilmark)
    load = os.getloadavg()[0]
    print(
        f"machine: {cpu_model()}, {os.cpu_count()} cores, load average {load:.2f}; "
        f"sudoku_rs {sr.__version__}; {args.count} generated puzzles per family, seed "
        f"{args.seed}, {args.rounds} rounds, one thread, process CPU ms per puzzle"
    )
    times, disagreements = run(rows, solvers, args.rounds)
    peers = []
    if solvers.use_cpsat:
        peers.append("CP-SAT")
    if solvers.use_pencilmark:
        peers += ["pencilmark", "pencilmark C++"]
    print(
        "x = the peer's median / sudoku_rs's median, both over the puzzles both answered "
        "(`both` puzzles when fewer than n); a peer's med/worst are over those puzzles too; "
        "pencilmark = its public pencilmark.solve(p) (always to 2), pencilmark C++ = its "
        "internal search cbackend.brute_solve on the compiled puzzle"
    )
    head = f"{'source':9} {'family':15} {'op':7} {'n':>3} {'sudoku_rs med/worst':>20}"
    for name in peers:
        head += f" {name + ' med/worst':>26} {'x':>6} {'both':>4}"
    print(head)
    families = sorted({(s, f) for s, f, _, _ in times}, key=lambda k: (k[0] != "published", k[1]))
    for source, family in families:
        for op in ("solve", "count 2"):
            ours = times.get((source, family, "sudoku_rs", op))
            if not ours:
                continue
            line = (
                f"{source:9} {family:15} {op:7} {len(ours):3d} "
                f"{statistics.median(ours.values()) * 1e3:9.3f}/"
                f"{max(ours.values()) * 1e3:<10.3f}"
            )
            for name in peers:
                theirs = times.get((source, family, name, op), {})
                both = [label for label in theirs if label in ours]
                if not both:
                    line += f" {'-':>26} {'-':>6} {'':>4}"
                    continue
                t = [theirs[label] for label in both]
                o = [ours[label] for label in both]
                ratio = statistics.median(t) / max(statistics.median(o), 1e-9)
                shown = f"{len(both):4d}" if len(both) < len(ours) else f"{'':4}"
                line += (
                    f" {statistics.median(t) * 1e3:12.3f}/{max(t) * 1e3:<13.3f}"
                    f" {ratio:5.0f}x {shown}"
                )
            print(line)
    for source, label, name, op, got, want in disagreements:
        print(f"disagree: {source} {label!r} {name} {op}: {got} solutions, sudoku_rs {want}")


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


# ---------------------------------------------------------------- sudoku-engine


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


def sudoku_engine_main():
    """The seven older rule types against `sudoku-engine` (PyPI) on generated puzzles."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--sudoku-engine", action="store_true")
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--engine-limit", type=float, default=10.0, help="seconds per puzzle")
    args = parser.parse_args()
    random.seed(args.seed)  # sudoku-engine shuffles digits with the global random module
    print(
        f"{'variant':16} {'sudoku_rs/s':>12} {'sudoku-engine/s':>16} {'unfinished':>11} {'ratio':>10}"
    )
    for name, rules in variants(args.seed).items():
        puzzles = sr.generate_batch(args.count, seed=args.seed, rules=rules, threads=1)
        if engine_puzzle(name, rules, puzzles[0]) is None:
            continue
        lines = ["".join(".123456789"[v] for v in p.reshape(-1)) for p in puzzles]
        ours, theirs, unfinished = [], [], 0
        for _ in range(args.rounds):
            t = time.perf_counter()
            answers = [sr.solve(line, rules=rules) for line in lines]
            ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            unfinished = 0
            for grid, answer in zip(puzzles, answers):
                solved = engine_solve(engine_puzzle(name, rules, grid), args.engine_limit)
                if solved is None:
                    unfinished += 1
                    continue
                got = "".join(str(v) for row in solved for v in row)
                assert got == answer, (name, got, answer)
            theirs.append(time.perf_counter() - t)
        a = len(lines) / min(ours)
        b = (len(lines) - unfinished) / min(theirs)
        print(
            f"{name:16} {a:12.0f} {b:16.2f} {unfinished:11d} {a / b if b else float('inf'):9.0f}x"
        )


if __name__ == "__main__":
    main()
