"""Each constraint kind's check (`is_valid`, the Board's conflicts) against the pure-Python
reference of tests/variant_reference.py, on random solution grids: constraints drawn from the
grid (so they hold), and drawn at random (so many break)."""

import random

import pytest
import variant_reference as ref

import sudoku_rs as sr
from sudoku_rs import _sudoku_rs

SHAPES = [(2, 2), (2, 3), (3, 3)]
KING = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
ORTH = [(0, 1), (1, 0), (0, -1), (-1, 0)]


def random_solution(rng, box_rows, box_cols):
    """A random full grid: a pattern grid with rows, columns, bands, stacks and digits shuffled."""
    n = box_rows * box_cols

    def order(groups, size):
        bands = list(range(groups))
        rng.shuffle(bands)
        out = []
        for b in bands:
            inner = list(range(size))
            rng.shuffle(inner)
            out += [b * size + i for i in inner]
        return out

    rows = order(n // box_rows, box_rows)
    cols = order(n // box_cols, box_cols)
    digits = list(range(1, n + 1))
    rng.shuffle(digits)
    pattern = lambda r, c: (box_cols * (r % box_rows) + r // box_rows + c) % n  # noqa: E731
    return [digits[pattern(rows[r], cols[c])] for r in range(n) for c in range(n)]


def walk(rng, n, length, steps=KING):
    cell = (rng.randrange(n), rng.randrange(n))
    path = [cell]
    while len(path) < length:
        options = [
            (path[-1][0] + dr, path[-1][1] + dc)
            for dr, dc in steps
            if 0 <= path[-1][0] + dr < n and 0 <= path[-1][1] + dc < n
        ]
        options = [o for o in options if o not in path]
        if not options:
            break
        path.append(rng.choice(options))
    return path


def ring(rng, n, corners=False):
    while True:
        row, col = rng.randrange(-1, n + 1), rng.randrange(-1, n + 1)
        on_edge = row in (-1, n) or col in (-1, n)
        corner = row in (-1, n) and col in (-1, n)
        if on_edge and (corners or not corner):
            return (row, col)


def draw(kind, rng, sol, n):
    """One random constraint of `kind` (a value for that keyword, a list of one item), its
    numbers read from `sol` half the time."""
    at = lambda cell: sol[cell[0] * n + cell[1]]  # noqa: E731
    truth = rng.random() < 0.5
    if kind == "little_killers":
        while True:
            clue, d = ring(rng, n, corners=True), rng.choice(["UR", "UL", "DR", "DL"])
            line = ref.diagonal_line(clue, d, n)
            if line:
                break
        total = sum(sol[i] for i in line) if truth else rng.randint(len(line), len(line) * n)
        return [(total, clue, d)]
    if kind in ("thermometers", "renbans", "palindromes", "between_lines"):
        return [walk(rng, n, rng.randint(2, min(5, n)))]
    if kind in LINE_KINDS:
        least = {"double_arrows": 3, "lockout_lines": 2}.get(kind, 1)
        line = walk(rng, n, rng.randint(least, min(6, n)))
        if len(line) < least:
            line = [(0, c) for c in range(least)]
        if kind == "slow_thermometers" and truth:
            line.sort(key=at)
        return [line]
    if kind == "whispers":
        return [(walk(rng, n, rng.randint(2, 4)), rng.choice([None, 1, 2, n // 2]))]
    if kind == "arrows":
        path = walk(rng, n, rng.randint(2, 4), ORTH)
        # Two-cell circles too, their cells in either order: the circle reads row-major.
        k = 2 if len(path) >= 3 and rng.random() < 0.3 else 1
        circle = path[:k]
        rng.shuffle(circle)
        return [(circle, path[k:])]
    if kind in ("xv", "differences", "ratios"):
        a = (rng.randrange(n), rng.randrange(n - 1))
        b = (a[0], a[1] + 1)
        if rng.random() < 0.5:
            a, b = (a[1], a[0]), (b[1], b[0])
        x, y = at(a), at(b)
        if kind == "xv":
            letter = ("X" if x + y == 10 else "V") if truth else rng.choice("XV")
            return [(a, b, letter)]
        if kind == "differences":
            return [(a, b, abs(x - y) if truth else rng.randint(1, n - 1))]
        k = max(x, y) // min(x, y)
        return [(a, b, k if truth and k >= 2 else rng.randint(2, n))]
    if kind in ("sandwiches", "x_sums", "skyscrapers"):
        clue = ring(rng, n)
        values = [sol[i] for i in ref.outside_line(clue, n)]
        if kind == "sandwiches":
            real, most = ref.sandwich_sum(values, n), n * (n + 1) // 2 - 1 - n
            return [(real if truth else rng.randint(0, most), clue)]
        if kind == "x_sums":
            real = sum(values[: values[0]])
            return [(real if truth else rng.randint(1, n * (n + 1) // 2), clue)]
        return [(ref.seen(values) if truth else rng.randint(1, n), clue)]
    if kind in ("odd_cells", "even_cells", "minimum_cells", "maximum_cells", *INDEXERS):
        return [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(1, 3))]
    if kind == "quadruples":
        corner = (rng.randrange(n - 1), rng.randrange(n - 1))
        four = [at((corner[0] + a, corner[1] + b)) for a in (0, 1) for b in (0, 1)]
        picked = rng.sample(four, rng.randint(1, 4)) if truth else [rng.randint(1, n)]
        return [(corner, picked)]
    if kind == "clones":
        a, b = walk(rng, n, 1), walk(rng, n, 1)
        return [(a, b)]
    if kind == "pencil_marks":
        cell = (rng.randrange(n), rng.randrange(n))
        marks = rng.sample(range(1, n + 1), rng.randint(1, n - 1))
        if truth and at(cell) not in marks:
            marks.append(at(cell))
        return [(cell, marks)]
    if kind == "cages":
        cells = walk(rng, n, rng.randint(2, 4), ORTH)
        return [(None, cells)]
    raise AssertionError(kind)


KINDS = [
    "little_killers",
    "thermometers",
    "renbans",
    "palindromes",
    "between_lines",
    "whispers",
    "arrows",
    "xv",
    "differences",
    "ratios",
    "sandwiches",
    "x_sums",
    "skyscrapers",
    "odd_cells",
    "even_cells",
    "minimum_cells",
    "maximum_cells",
    "quadruples",
    "clones",
    "pencil_marks",
    "cages",
]
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
KINDS += LINE_KINDS + INDEXERS
FLAGS = ["main_diagonal", "anti_diagonal", "disjoint_groups", "negative_xv", "negative_ratio"]


def rules_or_none(options):
    try:
        return sr.Rules(**options)
    except sr.InvalidRulesError:
        return None  # e.g. a cell marked both odd and even, or a long renban on a 4x4


def as_rows(cells, n):
    return [list(cells[r * n : (r + 1) * n]) for r in range(n)]


@pytest.mark.parametrize("seed", range(40))
def test_each_kind_agrees_with_the_reference_on_a_full_grid(seed):
    rng = random.Random(seed)
    box = SHAPES[seed % len(SHAPES)]
    n = box[0] * box[1]
    sol = random_solution(rng, *box)
    kept = {}
    for kind in KINDS:
        for _ in range(6):
            options = {kind: draw(kind, rng, sol, n)}
            if rng.random() < 0.2:
                options[rng.choice(FLAGS)] = True
            if kind == "differences" and rng.random() < 0.5:
                options["non_consecutive"] = True
            rules = rules_or_none(options)
            if rules is None:
                continue
            expected = not ref.broken(sol, rules, n, *box)
            got = sr.is_valid(as_rows(sol, n), rules=rules, box=box)
            assert got == expected, (options, sol)
            if expected:
                kept.setdefault(kind, []).extend(options[kind])
    # Everything that holds, together: valid, and so is every part of the grid.
    rules = rules_or_none(kept)
    if rules is None:
        return
    assert sr.is_valid(as_rows(sol, n), rules=rules, box=box)
    for _ in range(5):
        partial = [v if rng.random() < 0.6 else 0 for v in sol]
        assert sr.is_valid(as_rows(partial, n), rules=rules, box=box), (kept, partial)
        assert not _sudoku_rs._conflicts(as_rows(partial, n), rules=rules, box=box).any()


@pytest.mark.parametrize("seed", range(40))
def test_conflicting_clues_match_the_reference(seed):
    rng = random.Random(1000 + seed)
    box = SHAPES[seed % len(SHAPES)]
    n = box[0] * box[1]
    sol = random_solution(rng, *box)
    options = {kind: draw(kind, rng, sol, n) for kind in rng.sample(KINDS, 6)}
    for flag in rng.sample(FLAGS, 2):
        options[flag] = True
    options["non_consecutive"] = rng.random() < 0.3
    rules = rules_or_none(options)
    if rules is None:
        return
    for _ in range(5):
        cells = [
            (v if rng.random() < 0.8 else rng.randint(1, n)) if rng.random() < 0.6 else 0
            for v in sol
        ]
        flags = _sudoku_rs._conflicts(as_rows(cells, n), rules=rules, box=box).reshape(-1)
        got = [i for i, f in enumerate(flags) if f]
        assert got == ref.conflict_cells(cells, rules, n, *box), (options, cells)
        if any(got):
            assert not sr.is_valid(as_rows(cells, n), rules=rules, box=box)


def test_a_broken_thermometer_is_invalid():
    rules = sr.Rules(thermometers=[[(0, 0), (0, 1)]], xv=[((1, 0), (1, 1), "X")])
    grid = [[0] * 4 for _ in range(4)]
    grid[0][0], grid[0][1] = 3, 2
    assert not sr.is_valid(grid, rules=rules)
    grid[0][1] = 4
    assert sr.is_valid(grid, rules=rules)


def test_an_arrow_circle_reads_row_major_whatever_order_its_cells_are_given_in():
    # The circle (0,1),(0,0) holds 2 and 1: it reads 12 (row-major), which the shaft's
    # 3 + 4 + 5 makes; read in the given order it would be 21.
    grid = [[0] * 9 for _ in range(9)]
    grid[0][0], grid[0][1] = 1, 2
    grid[1][0], grid[1][1], grid[1][2] = 3, 4, 5
    for circle in ([(0, 1), (0, 0)], [(0, 0), (0, 1)]):
        rules = sr.Rules(arrows=[(circle, [(1, 0), (1, 1), (1, 2)])])
        assert sr.is_valid(grid, rules=rules)
        assert not ref.broken([v for row in grid for v in row], rules, 9, 3, 3)
        assert not _sudoku_rs._conflicts(grid, rules=rules).any()
        assert sr.count_solutions(grid, rules=rules, limit=1) == 1
