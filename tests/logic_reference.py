"""A plain pure-Python model of pencil marks, to check sr.candidates, sr.hint and sr.explain.

Marks are a list of sets, one per cell: the digits still possible there (a filled cell holds
just its digit). Everything here follows the definitions directly, without bitmasks.
"""

import reference as ref


def units(n, box_rows, box_cols):
    """Every unit as (kind, index, cells): rows, columns, then boxes numbered row-major."""
    out = [("row", r, [r * n + c for c in range(n)]) for r in range(n)]
    out += [("column", c, [r * n + c for r in range(n)]) for c in range(n)]
    boxes_per_band = n // box_cols
    for b in range(n):
        top, left = (b // boxes_per_band) * box_rows, (b % boxes_per_band) * box_cols
        cells = [(top + i) * n + left + j for i in range(box_rows) for j in range(box_cols)]
        out.append(("box", b, cells))
    return out


def unit_cells(kind, index, n, box_rows, box_cols):
    for k, i, cells in units(n, box_rows, box_cols):
        if (k, i) == (kind, index):
            return cells
    raise AssertionError(f"no unit {kind} {index}")


def candidates(cells, n, box_rows, box_cols):
    """The marks the filled cells leave: by definition, digits no peer holds."""
    p = ref.peers(n, box_rows, box_cols)
    marks = []
    for i, v in enumerate(cells):
        if v:
            marks.append({v})
        else:
            marks.append(set(range(1, n + 1)) - {cells[j] for j in p[i]})
    return marks


def as_bools(marks, n):
    """Marks as nested lists [row][col][d-1] of bools."""
    return [[[d + 1 in marks[r * n + c] for d in range(n)] for c in range(n)] for r in range(n)]


def check_claim(step, marks, values, n, box_rows, box_cols):
    """For the techniques whose claim is a plain fact about the marks, check that fact."""
    t = step.technique
    if t in ("full_house", "hidden_single", "naked_single"):
        ((r, c, d),) = step.placements
        i = r * n + c
        assert d in marks[i]
        if t == "naked_single":
            assert marks[i] == {d}, step
        else:
            ((kind, index),) = step.units
            cells = unit_cells(kind, index, n, box_rows, box_cols)
            if t == "full_house":
                assert [j for j in cells if not values[j]] == [i], step
            else:
                assert [j for j in cells if not values[j] and d in marks[j]] == [i], step
    if t in ("pointing", "claiming"):
        (d,) = step.digits
        (inside_kind, inside), (target_kind, target) = step.units
        inside_cells = unit_cells(inside_kind, inside, n, box_rows, box_cols)
        target_cells = unit_cells(target_kind, target, n, box_rows, box_cols)
        places = [j for j in inside_cells if not values[j] and d in marks[j]]
        assert len(places) >= 2 and set(places) <= set(target_cells), step
        expected = [
            (j // n, j % n, d)
            for j in target_cells
            if j not in inside_cells and not values[j] and d in marks[j]
        ]
        assert step.eliminations == expected, step


def apply_step(values, marks, placements, eliminations, n, box_rows, box_cols):
    """New (values, marks) after a step, by definition: each eliminated digit leaves its
    cell's marks, then each placement into a blank cell fills it (its marks become just the
    digit) and the digit leaves the marks of every blank peer."""
    p = ref.peers(n, box_rows, box_cols)
    values, marks = list(values), [set(m) for m in marks]
    for r, c, d in eliminations:
        marks[r * n + c].discard(d)
    for r, c, d in placements:
        i = r * n + c
        if values[i]:
            continue
        values[i] = d
        marks[i] = {d}
        for j in p[i]:
            if not values[j]:
                marks[j].discard(d)
    return values, marks


def replay(puzzle, steps, n, box_rows, box_cols, solution, marks=None):
    """Applies the steps to the marks, checking each against the solution: a placement puts
    the solution's digit, an elimination removes a digit that is a candidate and not the
    solution's. Returns the final (values, marks)."""
    p = ref.peers(n, box_rows, box_cols)
    values = list(puzzle)
    marks = candidates(puzzle, n, box_rows, box_cols) if marks is None else marks
    for step in steps:
        check_claim(step, marks, values, n, box_rows, box_cols)
        assert step.placements or step.eliminations, step
        for r, c, d in step.eliminations:
            i = r * n + c
            assert values[i] == 0 and d in marks[i], step
            assert solution[i] != d, f"{step.text}: removes the solution's digit"
            marks[i].discard(d)
        for r, c, d in step.placements:
            i = r * n + c
            assert solution[i] == d, f"{step.text}: places a wrong digit"
            assert values[i] == 0 and d in marks[i], step
            values[i] = d
            marks[i] = {d}
            for j in p[i]:
                if not values[j]:
                    marks[j].discard(d)
    return values, marks
