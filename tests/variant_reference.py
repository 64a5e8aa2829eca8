"""A slow, plain pure-Python reference for variant rules, the oracle of tests/test_variants.py.

It reads the rules only through their public attributes (``rules.diagonals``,
``rules.regions``, ``rules.cages``, ...), turns each rule into the plainest statement of it,
and solves by backtracking that checks every rule on every placed digit. Nothing here is
shared with the Rust engine: no peer tables, no cage combinations, no singles.

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
        labels = [label for row in rules.regions for label in row]
        groups += [[i for i in range(n * n) if labels[i] == k] for k in sorted(set(labels))]
    else:
        for top in range(0, n, box_rows):
            for left in range(0, n, box_cols):
                groups.append(
                    [idx(top + a, left + b) for a in range(box_rows) for b in range(box_cols)]
                )
    if rules is None:
        return groups
    if rules.diagonals:
        groups.append([idx(i, i) for i in range(n)])
        groups.append([idx(i, n - 1 - i) for i in range(n)])
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
    if rules.non_consecutive:
        for i, j in moves_apart(n, ORTHOGONAL):
            if cells[i] and cells[j] and abs(cells[i] - cells[j]) == 1:
                return True
    for total, cage in rules.cages:
        values = [cells[r * n + c] for r, c in cage]
        filled = [v for v in values if v]
        if len(filled) == len(values) and sum(filled) != total:
            return True
        if sum(filled) > total:
            return True
    return False


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
    if rules is not None and rules.non_consecutive:
        for i, j in moves_apart(n, ORTHOGONAL):
            if cells[i] and cells[j] and abs(cells[i] - cells[j]) == 1:
                marked.update((i, j))
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
