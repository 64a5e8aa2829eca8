"""A plain pure-Python copy of the rating procedure, for tests/test_rate.py.

Naked singles (a cell with one candidate) and hidden singles (a digit with one place in a row,
column or box) are filled until nothing changes; then the search branches on the first cell,
row-major, with the fewest candidates, digits low to high, counting solutions up to 2. The
fixed point of singles does not depend on the order they are applied in, so this simple order
must give the same counts as the Rust core.
"""

from reference import peers


def units(n, box_rows, box_cols):
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [
        [(top + a) * n + left + b for a in range(box_rows) for b in range(box_cols)]
        for top in range(0, n, box_rows)
        for left in range(0, n, box_cols)
    ]
    return rows + cols + boxes


def candidates(cells, i, n, p):
    used = {cells[j] for j in p[i]}
    return [v for v in range(1, n + 1) if v not in used]


def singles(cells, n, box_rows, box_cols):
    """Fills singles in place. Returns 'contradiction', 'solved' or 'stuck'."""
    p = peers(n, box_rows, box_cols)
    all_units = units(n, box_rows, box_cols)
    while True:
        changed = False
        for i in range(n * n):
            if cells[i] == 0:
                cands = candidates(cells, i, n, p)
                if not cands:
                    return "contradiction"
                if len(cands) == 1:
                    cells[i] = cands[0]
                    changed = True
        for unit in all_units:
            for v in range(1, n + 1):
                if any(cells[i] == v for i in unit):
                    continue
                places = [i for i in unit if cells[i] == 0 and v in candidates(cells, i, n, p)]
                if not places:
                    return "contradiction"
                if len(places) == 1:
                    cells[places[0]] = v
                    changed = True
        if not changed:
            return "solved" if all(cells) else "stuck"


def rate(cells, n, box_rows, box_cols):
    """(guesses, backtracks, solutions up to 2) of the rating search."""
    p = peers(n, box_rows, box_cols)
    guesses = backtracks = found = 0
    stack = [list(cells)]
    while stack:
        state = stack.pop()
        outcome = singles(state, n, box_rows, box_cols)
        if outcome == "contradiction":
            backtracks += 1
        elif outcome == "solved":
            found += 1
            if found == 2:
                break
        else:
            blanks = [i for i in range(n * n) if state[i] == 0]
            cell = min(blanks, key=lambda i: len(candidates(state, i, n, p)))
            for v in reversed(candidates(state, cell, n, p)):
                child = list(state)
                child[cell] = v
                stack.append(child)
            guesses += len(candidates(state, cell, n, p))
    return guesses - len(stack), backtracks, found
