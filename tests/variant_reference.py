"""A slow, plain pure-Python reference for variant rules, the oracle of tests/test_variants.py.

It reads the rules only through their public attributes (``rules.diagonals``,
``rules.regions``, ``rules.cages``, ``rules.thermometers``, ...), turns each rule into the
plainest statement of it, and solves by backtracking that checks every rule on every placed
digit. Nothing here is shared with the Rust engine: no peer tables, no cage combinations, no
singles.

Every constraint beyond the all-different groups is a list of cells and a test of their digits
(`constraints`), checked once all its cells hold a digit: on a full grid that is the whole
rule, and on a partial one it never rejects a grid that has a completion.

A grid is a flat list of ints, row-major, 0 blank. Cells in rules are (row, col) from 0.
"""

from functools import cache
from itertools import islice

KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
KING = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
WINDOW_CORNERS = ((1, 1), (1, 5), (5, 1), (5, 5))


@cache
def distinct_groups(rules, n, box_rows, box_cols):
    """Every list of cell indices that must hold distinct digits (rules are hashable, so the
    lists are made once per rules and shape)."""
    idx = lambda r, c: r * n + c  # noqa: E731
    groups = [[idx(r, c) for c in range(n)] for r in range(n)]
    groups += [[idx(r, c) for r in range(n)] for c in range(n)]
    if rules is not None and rules.regions is not None:
        # A cell labelled None is in no region: only its row and column hold it.
        labels = [label for row in rules.regions for label in row]
        named = {label for label in labels if label is not None}
        groups += [[i for i in range(n * n) if labels[i] == k] for k in sorted(named)]
    else:
        for top in range(0, n, box_rows):
            for left in range(0, n, box_cols):
                groups.append(
                    [idx(top + a, left + b) for a in range(box_rows) for b in range(box_cols)]
                )
    if rules is None:
        return groups
    if rules.main_diagonal:
        groups.append([idx(i, i) for i in range(n)])
    if rules.anti_diagonal:
        groups.append([idx(i, n - 1 - i) for i in range(n)])
    if rules.disjoint_groups:
        for a in range(box_rows):
            for b in range(box_cols):
                groups.append(
                    [
                        idx(r, c)
                        for r in range(n)
                        for c in range(n)
                        if (r % box_rows, c % box_cols) == (a, b)
                    ]
                )
    if rules.windows:
        for top, left in WINDOW_CORNERS:
            groups.append([idx(top + a, left + b) for a in range(3) for b in range(3)])
    for region in rules.extra_regions:
        groups.append([idx(r, c) for r, c in region])
    for _, cells in rules.cages:
        groups.append([idx(r, c) for r, c in cells])
    return groups


@cache
def moves_apart(n, offsets):
    """Pairs (i, j), i < j, of cells one of `offsets` apart."""
    pairs = []
    for r in range(n):
        for c in range(n):
            for dr, dc in offsets:
                rr, cc = r + dr, c + dc
                if 0 <= rr < n and 0 <= cc < n and rr * n + cc > r * n + c:
                    pairs.append((r * n + c, rr * n + cc))
    return pairs


def broken(cells, rules, n, box_rows, box_cols):
    """True when the filled cells of `cells` already break a rule."""
    for group in distinct_groups(rules, n, box_rows, box_cols):
        values = [cells[i] for i in group if cells[i]]
        if len(values) != len(set(values)):
            return True
    if rules is None:
        return False
    same = []
    if rules.anti_knight:
        same += moves_apart(n, KNIGHT)
    if rules.anti_king:
        same += moves_apart(n, KING)
    if any(cells[i] and cells[i] == cells[j] for i, j in same):
        return True
    for i, j in consecutive_pairs(rules, n):
        if cells[i] and cells[j] and abs(cells[i] - cells[j]) == 1:
            return True
    for total, cage in rules.cages:
        if total is None:
            continue
        values = [cells[r * n + c] for r, c in cage]
        filled = [v for v in values if v]
        if len(filled) == len(values) and sum(filled) != total:
            return True
        if sum(filled) > total:
            return True
    for _, members, holds in constraints(rules, n, box_rows, box_cols):
        values = [cells[i] for i in members]
        if all(values) and not holds(values):
            return True
    return False


def consecutive_pairs(rules, n):
    """The orthogonal pairs non-consecutive forbids: all of them but those a white dot joins."""
    if rules is None or not rules.non_consecutive:
        return []
    dotted = {frozenset((a[0] * n + a[1], b[0] * n + b[1])) for a, b, _ in rules.differences}
    return [(i, j) for i, j in moves_apart(n, ORTHOGONAL) if frozenset((i, j)) not in dotted]


def outside_line(clue, n):
    """The row or column a clue outside the grid faces, nearest it first (cell indices)."""
    row, col = clue
    if row == -1:
        return [r * n + col for r in range(n)]
    if row == n:
        return [r * n + col for r in reversed(range(n))]
    if col == -1:
        return [row * n + c for c in range(n)]
    return [row * n + c for c in reversed(range(n))]


# The constraints on one cell or on two that flag the clues breaking them.
PAIRWISE = {"xv", "white dot", "black dot", "negative", "odd", "even", "min/max", "clone"}
PAIRWISE |= {"pencil marks"}

STEPS = {"UR": (-1, 1), "UL": (-1, -1), "DR": (1, 1), "DL": (1, -1)}


def diagonal_line(clue, direction, n):
    """A little killer's cells: from its clue along `direction` while inside the grid."""
    dr, dc = STEPS[direction]
    r, c = clue[0] + dr, clue[1] + dc
    cells = []
    while 0 <= r < n and 0 <= c < n:
        cells.append(r * n + c)
        r, c = r + dr, c + dc
    return cells


def sandwich_sum(values, n):
    a, b = values.index(1), values.index(n)
    return sum(values[min(a, b) + 1 : max(a, b)])


def seen(values):
    count, tallest = 0, 0
    for v in values:
        if v > tallest:
            count, tallest = count + 1, v
    return count


def read_number(digits):
    number = 0
    for d in digits:
        number = number * 10 + d
    return number


def region_of(rules, n, box_rows, box_cols, cell):
    """The region a cell is in: its jigsaw region (None for none), else its box."""
    r, c = cell
    if rules.regions is not None:
        return rules.regions[r][c]
    return (r // box_rows, c // box_cols)


def stretches(regions):
    """Positions along a line split where the region changes; a cell in no region (None) is
    left out and does not split its neighbours' stretch."""
    out = []
    last = None
    for i, region in enumerate(regions):
        if region is None:
            continue
        if out and region == last:
            out[-1].append(i)
        else:
            out.append([i])
        last = region
    return out


def rank(d, n):
    """An entropic line's class of digit d: 0 low, 1 middle, 2 high. The low and high ranks
    are the same size; the middle one differs when 3 does not divide n."""
    edge = n // 3 + 1 if n % 3 == 2 else n // 3
    return 0 if d <= edge else 2 if d > n - edge else 1


def zipper_holds(v):
    k = len(v)
    totals = [v[i] + v[k - 1 - i] for i in range(k // 2)]
    if k % 2:
        totals.append(v[k // 2])
    return len(set(totals)) <= 1


def windows_of_three_differ(classes):
    """Every three cells in a row (and a line of two) hold different classes."""
    return all(len(set(classes[i : i + 3])) == len(classes[i : i + 3]) for i in range(len(classes)))


def lockout_holds(v, n):
    lo, hi = sorted((v[0], v[-1]))
    return hi - lo >= n // 2 and all(x < lo or x > hi for x in v[1:-1])


def nabner_holds(v):
    """No two digits on the line equal or consecutive, neighbours or not."""
    return all(abs(a - b) >= 2 for i, a in enumerate(v) for b in v[i + 1 :])


def line_constraints(rules, n, box_rows, box_cols):
    """The line kinds as (kind, cell indices, test of their digits in order)."""
    idx = lambda cell: cell[0] * n + cell[1]  # noqa: E731
    out = []
    for line in rules.zipper_lines:
        out.append(("zipper", [idx(c) for c in line], zipper_holds))  # noqa: PERF401
    for line in rules.region_sum_lines:
        groups = stretches([region_of(rules, n, box_rows, box_cols, c) for c in line])
        out.append(
            (
                "region sum",
                [idx(c) for c in line],
                lambda v, gs=groups: len({sum(v[i] for i in g) for g in gs}) <= 1,
            )
        )
    for line in rules.entropic_lines:
        out.append(  # noqa: PERF401
            (
                "entropic",
                [idx(c) for c in line],
                lambda v: windows_of_three_differ([rank(d, n) for d in v]),
            )
        )
    for line in rules.modular_lines:
        out.append(  # noqa: PERF401
            (
                "modular",
                [idx(c) for c in line],
                lambda v: windows_of_three_differ([d % 3 for d in v]),
            )
        )
    for line in rules.slow_thermometers:
        out.append(  # noqa: PERF401
            ("slow thermometer", [idx(c) for c in line], lambda v: v == sorted(v))
        )
    for line in rules.double_arrows:
        out.append(  # noqa: PERF401
            ("double arrow", [idx(c) for c in line], lambda v: v[0] + v[-1] == sum(v[1:-1]))
        )
    for line in rules.lockout_lines:
        out.append(("lockout", [idx(c) for c in line], lambda v: lockout_holds(v, n)))  # noqa: PERF401
    for line in rules.nabner_lines:
        out.append(("nabner", [idx(c) for c in line], nabner_holds))  # noqa: PERF401
    for cell, line, place in indexed(rules, n, box_rows, box_cols):
        # The indexer's digit v names the v-th cell of its line, which holds the indexer's place.
        out.append(("indexer", [cell, *line], lambda v, p=place: v[v[0]] == p))
    return out


def indexed(rules, n, box_rows, box_cols):
    """Each indexing cell as (its index, the cells it indexes in order, its own place from 1)."""
    out = []
    for r, c in rules.row_indexers:
        out.append((r * n + c, [k * n + c for k in range(n)], r + 1))
    for r, c in rules.column_indexers:
        out.append((r * n + c, [r * n + k for k in range(n)], c + 1))
    for r, c in rules.box_indexers:
        own = region_of(rules, n, box_rows, box_cols, (r, c))
        region = [
            i for i in range(n * n) if region_of(rules, n, box_rows, box_cols, divmod(i, n)) == own
        ]
        # A cell in no region, or in one short of n cells, indexes nothing.
        if own is not None and len(region) == n:
            out.append((r * n + c, region, region.index(r * n + c) + 1))
    return out


def line_pairs(rules, n):
    """The pair relations within the line kinds a clue conflict is flagged on: entropic and
    modular lines (a multiple of three apart: the same class, else different), slow
    thermometers (never down), nabner lines (every two cells at least 2 apart) and a lockout
    line's two ends."""
    idx = lambda cell: cell[0] * n + cell[1]  # noqa: E731
    out = []
    for lines, cls in (
        (rules.entropic_lines, lambda d: rank(d, n)),
        (rules.modular_lines, lambda d: d % 3),
    ):
        for line in lines:
            for a in range(len(line)):
                for b in range(a + 1, len(line)):
                    same = (b - a) % 3 == 0
                    out.append(
                        (
                            [idx(line[a]), idx(line[b])],
                            lambda v, same=same, cls=cls: (cls(v[0]) == cls(v[1])) == same,
                        )
                    )
    for line in rules.slow_thermometers:
        for a in range(len(line)):
            for b in range(a + 1, len(line)):
                out.append(([idx(line[a]), idx(line[b])], lambda v: v[0] <= v[1]))  # noqa: PERF401
    for line in rules.nabner_lines:
        for a in range(len(line)):
            for b in range(a + 1, len(line)):
                out.append(([idx(line[a]), idx(line[b])], lambda v: abs(v[0] - v[1]) >= 2))  # noqa: PERF401
    out += [
        ([idx(line[0]), idx(line[-1])], lambda v: abs(v[0] - v[1]) >= n // 2)
        for line in rules.lockout_lines
    ]
    return out


def constraints(rules, n, box_rows=None, box_cols=None):
    """Every constraint beyond the groups as (kind, cell indices, test of their digits in
    order); the line kinds need the box shape (region sum lines follow the boxes)."""
    if rules is None:
        return []
    idx = lambda cell: cell[0] * n + cell[1]  # noqa: E731
    out = []
    for total, clue, direction in rules.little_killers:
        out.append(
            ("little killer", diagonal_line(clue, direction, n), lambda v, t=total: sum(v) == t)
        )
    for line in rules.thermometers:
        out.append(  # noqa: PERF401
            ("thermometer", [idx(c) for c in line], lambda v: all(a < b for a, b in zip(v, v[1:])))
        )
    for circle, shaft in rules.arrows:
        k = len(circle)
        # The circle reads as one number in row-major order, whatever order its cells come in.
        cells = sorted(idx(c) for c in circle) + [idx(c) for c in shaft]
        out.append(("arrow", cells, lambda v, k=k: read_number(v[:k]) == sum(v[k:])))
    for a, b, letter in rules.xv:
        total = 10 if letter == "X" else 5
        out.append(("xv", [idx(a), idx(b)], lambda v, t=total: v[0] + v[1] == t))
    for a, b, d in rules.differences:
        out.append(("white dot", [idx(a), idx(b)], lambda v, d=d: abs(v[0] - v[1]) == d))
    for a, b, k in rules.ratios:
        out.append(("black dot", [idx(a), idx(b)], lambda v, k=k: max(v) == k * min(v)))
    marked_xv = {frozenset((idx(a), idx(b))) for a, b, _ in rules.xv}
    marked_black = {frozenset((idx(a), idx(b))) for a, b, _ in rules.ratios}
    black_ratios = {2} | {k for _, _, k in rules.ratios}
    for i, j in moves_apart(n, ORTHOGONAL):
        if rules.negative_xv and frozenset((i, j)) not in marked_xv:
            out.append(("negative", [i, j], lambda v: v[0] + v[1] not in (5, 10)))
        if rules.negative_ratio and frozenset((i, j)) not in marked_black:
            out.append(
                ("negative", [i, j], lambda v: all(max(v) != k * min(v) for k in black_ratios))
            )
    for total, clue in rules.sandwiches:
        out.append(("sandwich", outside_line(clue, n), lambda v, t=total: sandwich_sum(v, n) == t))
    for line, difference in rules.whispers:
        d = (n + 1) // 2 if difference is None else difference
        cells = [idx(c) for c in line]
        out.append(
            ("whispers", cells, lambda v, d=d: all(abs(a - b) >= d for a, b in zip(v, v[1:])))
        )
    for line in rules.renbans:
        cells = [idx(c) for c in line]
        out.append(("renban", cells, lambda v: sorted(v) == list(range(min(v), min(v) + len(v)))))
    for line in rules.palindromes:
        out.append(("palindrome", [idx(c) for c in line], lambda v: v == v[::-1]))  # noqa: PERF401
    for line in rules.between_lines:
        cells = [idx(c) for c in line]
        out.append(
            (
                "between",
                cells,
                lambda v: all(min(v[0], v[-1]) < x < max(v[0], v[-1]) for x in v[1:-1]),
            )
        )
    for cell in rules.odd_cells:
        out.append(("odd", [idx(cell)], lambda v: v[0] % 2 == 1))  # noqa: PERF401
    for cell in rules.even_cells:
        out.append(("even", [idx(cell)], lambda v: v[0] % 2 == 0))  # noqa: PERF401
    for marked, lower in ((rules.minimum_cells, True), (rules.maximum_cells, False)):
        for r, c in marked:
            for dr, dc in ORTHOGONAL:
                other = (r + dr, c + dc)
                if 0 <= other[0] < n and 0 <= other[1] < n and other not in marked:
                    test = (lambda v: v[0] < v[1]) if lower else (lambda v: v[0] > v[1])
                    out.append(("min/max", [idx((r, c)), idx(other)], test))
    for (r, c), digits in rules.quadruples:
        cells = [idx((r + a, c + b)) for a in (0, 1) for b in (0, 1)]
        out.append(
            ("quadruple", cells, lambda v, ds=digits: all(v.count(d) >= ds.count(d) for d in ds))
        )
    for cells, copies in rules.clones:
        for a, b in zip(cells, copies):
            out.append(("clone", [idx(a), idx(b)], lambda v: v[0] == v[1]))
    for total, clue in rules.x_sums:
        out.append(("x-sum", outside_line(clue, n), lambda v, t=total: sum(v[: v[0]]) == t))
    for count, clue in rules.skyscrapers:
        out.append(("skyscraper", outside_line(clue, n), lambda v, k=count: seen(v) == k))
    for cell, digits in rules.pencil_marks:
        out.append(("pencil marks", [idx(cell)], lambda v, ds=digits: v[0] in ds))
    if box_rows is not None:
        out += line_constraints(rules, n, box_rows, box_cols)
    return out


def conflict_cells(cells, rules, n, box_rows, box_cols):
    """The sorted indices of the clues that break a rule with another clue: an equal clue in
    a group of distinct digits or a knight's or king's move away, or a consecutive orthogonal
    neighbour under non-consecutive. (Cage sums concern whole cages: not a pair of clues.)"""
    marked = set()
    for group in distinct_groups(rules, n, box_rows, box_cols):
        for i in group:
            if cells[i] and any(j != i and cells[j] == cells[i] for j in group):
                marked.add(i)
    same = []
    if rules is not None and rules.anti_knight:
        same += moves_apart(n, KNIGHT)
    if rules is not None and rules.anti_king:
        same += moves_apart(n, KING)
    for i, j in same:
        if cells[i] and cells[i] == cells[j]:
            marked.update((i, j))
    for i, j in consecutive_pairs(rules, n):
        if cells[i] and cells[j] and abs(cells[i] - cells[j]) == 1:
            marked.update((i, j))
    # Constraints on one cell or on a pair of cells flag their clues; longer ones (sums,
    # arrows, renban, between lines, quadruples, clues outside the grid) do not.
    pairwise = []
    if rules is not None:
        idx = lambda cell: cell[0] * n + cell[1]  # noqa: E731
        for line in rules.thermometers:
            for a in range(len(line)):
                for b in range(a + 1, len(line)):
                    pairwise.append(  # noqa: PERF401
                        ([idx(line[a]), idx(line[b])], lambda v, k=b - a: v[1] - v[0] >= k)
                    )
        for kind, members, holds in constraints(rules, n):
            if kind in PAIRWISE:
                pairwise.append((members, holds))
        for line in rules.palindromes:
            for a in range(len(line) // 2):
                pair = [idx(line[a]), idx(line[len(line) - 1 - a])]
                pairwise.append((pair, lambda v: v[0] == v[1]))
        for line, difference in rules.whispers:
            d = (n + 1) // 2 if difference is None else difference
            for a, b in zip(line, line[1:]):
                pairwise.append(([idx(a), idx(b)], lambda v, d=d: abs(v[0] - v[1]) >= d))
        pairwise += line_pairs(rules, n)
        for cell, line, place in indexed(rules, n, box_rows, box_cols):
            if cells[cell]:
                target = line[cells[cell] - 1]
                if cells[target] and cells[target] != place:
                    marked.update((cell, target))
    for members, holds in pairwise:
        values = [cells[i] for i in members]
        if all(values) and not holds(values):
            marked.update(members)
    return sorted(marked)


def is_solution(puzzle, solution, rules, n, box_rows, box_cols):
    """A full grid of digits 1..n, keeping the clues, breaking no rule."""
    return (
        len(solution) == n * n
        and all(1 <= v <= n for v in solution)
        and all(p in (0, s) for p, s in zip(puzzle, solution))
        and not broken(solution, rules, n, box_rows, box_cols)
    )


def iter_solutions(cells, rules, n, box_rows, box_cols):
    """Every completion of `cells`, in row-major, low-digit-first order."""
    grid = list(cells)
    if broken(grid, rules, n, box_rows, box_cols):
        return

    def walk(start):
        blank = next((i for i in range(start, n * n) if grid[i] == 0), None)
        if blank is None:
            yield list(grid)
            return
        for v in range(1, n + 1):
            grid[blank] = v
            if not broken(grid, rules, n, box_rows, box_cols):
                yield from walk(blank + 1)
        grid[blank] = 0

    yield from walk(0)


def count_solutions(cells, rules, n, box_rows, box_cols, limit=None):
    """Completions of `cells`, stopping at `limit`."""
    return sum(1 for _ in islice(iter_solutions(cells, rules, n, box_rows, box_cols), limit))
