"""The variant engine on every constraint kind: constraints drawn to hold on a random solution
grid, then the solver's answers checked against plain Python (each rule checked the obvious
way, every grid enumerated), on 4x4 and 6x6; generating under fixed rules of each kind gives
unique puzzles whose solution keeps every rule."""

import random

import pytest
import variant_reference as ref

import sudoku_rs as sr

STEPS = [(0, 1), (1, 0), (0, -1), (-1, 0)]


def pairs(line):
    return list(zip(line, line[1:]))


def classic_grids(n, box_rows, box_cols, cells=None):
    """Every classic completion of `cells` (row-major, 0 = blank), by backtracking."""
    cells = list(cells or [0] * (n * n))

    def fits(i, v):
        r, c = divmod(i, n)
        br, bc = r // box_rows * box_rows, c // box_cols * box_cols
        for k in range(n):
            if cells[r * n + k] == v or cells[k * n + c] == v:
                return False
        for rr in range(br, br + box_rows):
            for cc in range(bc, bc + box_cols):
                if cells[rr * n + cc] == v:
                    return False
        return True

    def walk(i):
        while i < n * n and cells[i]:
            i += 1
        if i == n * n:
            yield tuple(cells)
            return
        for v in range(1, n + 1):
            if fits(i, v):
                cells[i] = v
                yield from walk(i + 1)
                cells[i] = 0

    yield from walk(0)


def outside_line(clue, n):
    """The cells a clue outside the grid faces, nearest first."""
    r, c = clue
    if r == -1:
        return [(k, c) for k in range(n)]
    if r == n:
        return [(n - 1 - k, c) for k in range(n)]
    if c == -1:
        return [(r, k) for k in range(n)]
    return [(r, n - 1 - k) for k in range(n)]


def diagonal(clue, direction, n):
    dr, dc = {"UR": (-1, 1), "UL": (-1, -1), "DR": (1, 1), "DL": (1, -1)}[direction]
    r, c = clue[0] + dr, clue[1] + dc
    cells = []
    while 0 <= r < n and 0 <= c < n:
        cells.append((r, c))
        r, c = r + dr, c + dc
    return cells


LINE_KINDS = [
    "zipper_lines",
    "region_sum_lines",
    "entropic_lines",
    "modular_lines",
    "slow_thermometers",
    "double_arrows",
    "lockout_lines",
    "nabner_lines",
]
INDEXERS = ["row_indexers", "column_indexers", "box_indexers"]
BOXES = {4: (2, 2), 6: (2, 3), 9: (3, 3)}


def holds(kind, item, g, n):
    """Whether the complete grid `g` (g[(r, c)] -> digit) keeps one constraint."""
    if kind in LINE_KINDS or kind in INDEXERS:
        rules = sr.Rules(**{kind: [item]})
        ((_, members, test),) = ref.line_constraints(rules, n, *BOXES[n])
        return test([g[divmod(i, n)] for i in members])
    if kind == "little_killers":
        total, clue, direction = item
        return sum(g[x] for x in diagonal(clue, direction, n)) == total
    if kind == "thermometers":
        return all(g[a] < g[b] for a, b in pairs(item))
    if kind == "arrows":
        circle, shaft = item
        number = int("".join(str(g[x]) for x in sorted(circle)))
        return sum(g[x] for x in shaft) == number
    if kind == "xv":
        a, b, mark = item
        return g[a] + g[b] == (10 if mark == "X" else 5)
    if kind == "differences":
        a, b, d = item
        return abs(g[a] - g[b]) == d
    if kind == "ratios":
        a, b, k = item
        return g[a] == k * g[b] or g[b] == k * g[a]
    if kind == "sandwiches":
        total, clue = item
        digits = [g[x] for x in outside_line(clue, n)]
        i, j = sorted((digits.index(1), digits.index(n)))
        return sum(digits[i + 1 : j]) == total
    if kind == "whispers":
        cells, d = item
        return all(abs(g[a] - g[b]) >= d for a, b in pairs(cells))
    if kind == "renbans":
        digits = sorted(g[x] for x in item)
        return digits == list(range(digits[0], digits[0] + len(digits)))
    if kind == "palindromes":
        return [g[x] for x in item] == [g[x] for x in reversed(item)]
    if kind == "between_lines":
        lo, hi = sorted((g[item[0]], g[item[-1]]))
        return all(lo < g[x] < hi for x in item[1:-1])
    if kind == "x_sums":
        total, clue = item
        digits = [g[x] for x in outside_line(clue, n)]
        return sum(digits[: digits[0]]) == total
    if kind == "skyscrapers":
        seen, top = 0, 0
        for d in (g[x] for x in outside_line(item[1], n)):
            if d > top:
                seen, top = seen + 1, d
        return seen == item[0]
    if kind == "quadruples":
        (r, c), digits = item
        here = [g[(r + dr, c + dc)] for dr in (0, 1) for dc in (0, 1)]
        return all(here.count(d) >= digits.count(d) for d in digits)
    if kind == "cages":
        total, cells = item
        digits = [g[x] for x in cells]
        return len(set(digits)) == len(digits) and (total is None or sum(digits) == total)
    raise AssertionError(kind)


def draw(kind, g, n, rng):
    """One constraint of `kind` that holds on `g`."""
    cells = list(g)

    def path(length):
        at = rng.choice(cells)
        out = [at]
        while len(out) < length:
            nxt = [
                (at[0] + dr, at[1] + dc)
                for dr, dc in STEPS
                if (at[0] + dr, at[1] + dc) in g and (at[0] + dr, at[1] + dc) not in out
            ]
            if not nxt:
                break
            at = rng.choice(nxt)
            out.append(at)
        return out

    def outside():
        k = rng.randrange(n)
        return rng.choice([(-1, k), (n, k), (k, -1), (k, n)])

    if kind == "little_killers":
        while True:
            clue, direction = outside(), rng.choice(["UR", "UL", "DR", "DL"])
            line = diagonal(clue, direction, n)
            if line:
                return (sum(g[x] for x in line), clue, direction)
    if kind == "thermometers":
        return sorted(path(rng.randint(2, 4)), key=g.get)
    if kind == "arrows":
        line = path(rng.randint(2, 4))
        if sum(g[x] for x in line[1:]) == g[line[0]]:
            return ([line[0]], line[1:])
        return None
    if kind in ("xv", "differences", "ratios"):
        for _ in range(50):
            pair = path(2)
            if len(pair) < 2:
                continue
            a, b = pair
            s, d = g[a] + g[b], abs(g[a] - g[b])
            if kind == "xv" and s in (5, 10):
                return (a, b, "X" if s == 10 else "V")
            if kind == "differences":
                return (a, b, d)
            hi, lo = max(g[a], g[b]), min(g[a], g[b])
            if kind == "ratios" and hi % lo == 0 and hi != lo:
                return (a, b, hi // lo)
        return None
    if kind == "sandwiches":
        clue = outside()
        digits = [g[x] for x in outside_line(clue, n)]
        i, j = sorted((digits.index(1), digits.index(n)))
        return (sum(digits[i + 1 : j]), clue)
    if kind == "whispers":
        line = path(rng.randint(2, 4))
        d = min(abs(g[a] - g[b]) for a, b in pairs(line))
        return (line, d) if d > 0 else None
    if kind == "renbans":
        line = path(rng.randint(2, 3))
        digits = sorted(g[x] for x in line)
        return line if digits == list(range(digits[0], digits[0] + len(line))) else None
    if kind == "palindromes":
        line = path(3)
        return line if len(line) == 3 and g[line[0]] == g[line[2]] else None
    if kind == "between_lines":
        line = path(rng.randint(3, 4))
        lo, hi = sorted((g[line[0]], g[line[-1]]))
        return line if all(lo < g[x] < hi for x in line[1:-1]) else None
    if kind == "x_sums":
        clue = outside()
        digits = [g[x] for x in outside_line(clue, n)]
        return (sum(digits[: digits[0]]), clue)
    if kind == "skyscrapers":
        clue = outside()
        return (holds_count(g, clue, n), clue)
    if kind == "quadruples":
        r, c = rng.randrange(n - 1), rng.randrange(n - 1)
        here = [g[(r + dr, c + dc)] for dr in (0, 1) for dc in (0, 1)]
        return ((r, c), sorted(rng.sample(here, rng.randint(1, 4))))
    if kind in INDEXERS:
        for _ in range(60):
            cell = rng.choice(cells)
            if holds(kind, cell, g, n):
                return cell
        return None
    if kind in LINE_KINDS:
        least = {"double_arrows": 3, "lockout_lines": 2}.get(kind, 2)
        for _ in range(60):
            line = path(rng.randint(least, 4))
            if len(line) < least:
                continue
            if kind == "slow_thermometers":
                line.sort(key=g.get)
            if holds(kind, line, g, n):
                return line
        return None
    if kind == "cages":
        line = path(rng.randint(1, 3))
        digits = [g[x] for x in line]
        if len(set(digits)) < len(digits):
            return None
        return (rng.choice([None, sum(digits)]), line)
    raise AssertionError(kind)


def holds_count(g, clue, n):
    seen, top = 0, 0
    for d in (g[x] for x in outside_line(clue, n)):
        if d > top:
            seen, top = seen + 1, d
    return seen


KINDS = [
    "little_killers",
    "thermometers",
    "arrows",
    "xv",
    "differences",
    "ratios",
    "sandwiches",
    "whispers",
    "renbans",
    "palindromes",
    "between_lines",
    "x_sums",
    "skyscrapers",
    "quadruples",
    "cages",
    *LINE_KINDS,
    *INDEXERS,
]


def as_keyword(kind, items):
    if kind in INDEXERS:
        return list(dict.fromkeys(items))  # a cell indexes once
    if kind == "whispers":
        return [(list(cells), d) for cells, d in items]
    if kind == "cages":
        # Cages may not overlap: keep the first of any that do.
        kept, used = [], set()
        for total, cells in items:
            if used.isdisjoint(cells):
                kept.append((total, cells))
                used.update(cells)
        return kept
    return items


ALL4 = list(classic_grids(4, 2, 2))


@pytest.mark.parametrize("kind", KINDS)
def test_counts_agree_with_plain_python_on_4x4(kind):
    assert len(ALL4) == 288
    rng = random.Random(kind)
    for _ in range(25):
        sol = rng.choice(ALL4)
        g = {(i // 4, i % 4): v for i, v in enumerate(sol)}
        items = [x for x in (draw(kind, g, 4, rng) for _ in range(2)) if x is not None]
        items = as_keyword(kind, items)
        if not items:
            continue
        rules = sr.Rules(**{kind: items})
        want = [
            grid
            for grid in ALL4
            if all(
                holds(kind, item, {(i // 4, i % 4): v for i, v in enumerate(grid)}, 4)
                for item in normalised(kind, rules)
            )
        ]
        puzzle = [[0] * 4 for _ in range(4)]
        assert sr.count_solutions(puzzle, rules=rules) == len(want), (kind, items)
        got = sorted(
            tuple(v for row in s for v in row)
            for s in sr.solutions(puzzle, rules=rules, limit=None)
        )
        assert got == sorted(want), (kind, items)


def normalised(kind, rules):
    """The rule's items as `holds` reads them, from the Rules attribute (defaults filled)."""
    items = getattr(rules, kind)
    if kind == "whispers":
        return [(cells, d if d is not None else 2) for cells, d in items]
    return items


@pytest.mark.parametrize("kind", KINDS)
def test_6x6_answers_keep_every_drawn_rule_and_counts_agree(kind):
    rng = random.Random("six" + kind)
    for _ in range(6):
        sol = sr.solve([[0] * 6 for _ in range(6)], box=(2, 3))
        # A random classic 6x6 grid: relabel the digits and shuffle rows within bands.
        perm = list(range(1, 7))
        rng.shuffle(perm)
        rows = [
            r for band in rng.sample([0, 1, 2], 3) for r in rng.sample([2 * band, 2 * band + 1], 2)
        ]
        grid = [[perm[sol[r][c] - 1] for c in range(6)] for r in rows]
        g = {(r, c): grid[r][c] for r in range(6) for c in range(6)}
        items = [x for x in (draw(kind, g, 6, rng) for _ in range(3)) if x is not None]
        items = as_keyword(kind, items)
        if not items:
            continue
        rules = sr.Rules(**{kind: items})
        puzzle = [[grid[r][c] if rng.random() < 0.45 else 0 for c in range(6)] for r in range(6)]
        flat = [v for row in puzzle for v in row]
        want = [
            s
            for s in classic_grids(6, 2, 3, flat)
            if all(
                holds(kind, item, {(i // 6, i % 6): v for i, v in enumerate(s)}, 6)
                for item in normalised(kind, rules)
            )
        ]
        assert want, "the drawn rules hold on the grid they were drawn from"
        assert sr.count_solutions(puzzle, rules=rules, box=(2, 3)) == len(want), (kind, items)
        answer = sr.solve(puzzle, rules=rules, box=(2, 3))
        ga = {(r, c): answer[r][c] for r in range(6) for c in range(6)}
        assert all(holds(kind, item, ga, 6) for item in normalised(kind, rules))


# Rules fixed by the caller, drawn once from a 9x9 solution; the generator digs givens under them.
GENERATED = [
    "thermometers",
    "arrows",
    "differences",
    "ratios",
    "xv",
    "cages",
    "little_killers",
    "sandwiches",
    "zipper_lines",
    "slow_thermometers",
    "region_sum_lines",
    "double_arrows",
]


@pytest.mark.parametrize("kind", GENERATED)
def test_generate_makes_unique_puzzles_under_fixed_rules(kind):
    rng = random.Random("gen" + kind)
    sol = sr.solve(sr.generate(seed=5))
    g = {(i // 9, i % 9): int(ch) for i, ch in enumerate(sol)}
    items = [x for x in (draw(kind, g, 9, rng) for _ in range(12)) if x is not None]
    rules = sr.Rules(**{kind: as_keyword(kind, items)})
    puzzles = sr.generate_batch(3, seed=11, rules=rules, threads=1)
    for p in puzzles:
        assert sr.count_solutions(p, rules=rules, limit=2) == 1
        answer = sr.solve(p, rules=rules)
        ga = {(r, c): int(answer[r][c]) for r in range(9) for c in range(9)}
        assert all(holds(kind, item, ga, 9) for item in normalised(kind, rules))
    one = sr.generate(seed=3, rules=rules)
    assert sr.count_solutions(one, rules=rules, limit=2) == 1
