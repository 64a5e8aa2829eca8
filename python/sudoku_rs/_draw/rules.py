"""Drawing variant rules on a board's SVG: the marks a player expects on a printed variant.

- diagonals: both long diagonals, faint, under the digits;
- windows and extra regions: shaded cells;
- jigsaw regions: the thick lines follow the regions instead of the boxes;
- killer cages: a dashed outline inset in each cage, its total in the top-left corner;
- the marks SudokuPad draws: thermometers (a bulb and a thick line), arrows (a circle and a
  shaft with a head), white and black dots and X/V letters on the edges, coloured lines for
  whispers (green), renban (purple), palindromes (grey), between lines (blue, circles at
  the ends), zipper (lavender), region sum (light blue), entropic (peach), modular (teal)
  and nabner (gold) lines, slow thermometers (a thermometer with a white core), double arrows (circles at both
  ends) and lockout lines (diamonds at both ends), indexing cells (shaded: rows green,
  columns red, boxes blue), odd circles and even squares, chevrons on minimum/maximum cells, quadruple circles
  with their digits at a corner, shaded clones, given pencil marks in small type, and the clues
  outside the grid (little killers with their arrow, sandwiches, X-sums, skyscrapers), for
  which the board grows a margin;
- rules with no natural mark (anti-knight, anti-king, non-consecutive, disjoint groups, the
  negative constraints): named in a caption.

It only draws: `grid.html_grid` asks for the layers and places them. Works on any size.
"""

from __future__ import annotations

import math
from html import escape
from typing import Any, FrozenSet, List, NamedTuple, Optional, Sequence, Tuple

_Cell = Tuple[int, int]

SHADE_OPACITY = "0.13"
DIAGONAL_OPACITY = "0.4"

# The four unit directions, clockwise from "up", as (row step, column step).
_UP, _RIGHT, _DOWN, _LEFT = (-1, 0), (0, 1), (1, 0), (0, -1)


class RuleLayers(NamedTuple):
    """What the rules add to a board drawing."""

    #: SVG drawn under the grid lines and digits (shading, diagonals).
    under: str
    #: SVG drawn over the grid lines (cage outlines and totals).
    over: str
    #: A path ``d`` for the thick region lines, replacing the box lines; None keeps the boxes.
    region_lines: Optional[str]
    #: One sentence for each rule that has no mark of its own.
    caption: Tuple[str, ...]
    #: Short names of every rule in force, for the board's accessible summary.
    names: Tuple[str, ...]
    #: Whether clues stand outside the grid (the board then leaves a margin of a cell).
    outside: bool = False


def rule_names(rules: Any) -> Tuple[str, ...]:
    """Plain names of the rules in force, in a fixed order."""
    names = []
    for attr, name in (
        ("diagonals", "diagonals"),
        ("windows", "windows"),
        ("anti_knight", "anti-knight"),
        ("anti_king", "anti-king"),
        ("non_consecutive", "non-consecutive"),
    ):
        if getattr(rules, attr):
            names.append(name)
    if not rules.diagonals:
        names += [name for attr, name in _SINGLE_DIAGONALS if getattr(rules, attr)]
    if rules.regions is not None:
        names.append("jigsaw regions")
    if rules.extra_regions:
        names.append("extra regions")
    if rules.cages:
        names.append("killer cages")
    names += [name for attr, name in _NAMED_KINDS if getattr(rules, attr)]
    return tuple(names)


_SINGLE_DIAGONALS = (("main_diagonal", "main diagonal"), ("anti_diagonal", "anti-diagonal"))
_NAMED_KINDS = (
    ("disjoint_groups", "disjoint groups"),
    ("little_killers", "little killers"),
    ("thermometers", "thermometers"),
    ("arrows", "arrows"),
    ("xv", "XV"),
    ("differences", "white dots"),
    ("ratios", "black dots"),
    ("negative_xv", "negative XV"),
    ("negative_ratio", "negative black dots"),
    ("sandwiches", "sandwiches"),
    ("whispers", "whispers"),
    ("renbans", "renban"),
    ("palindromes", "palindromes"),
    ("between_lines", "between lines"),
    ("odd_cells", "odd"),
    ("even_cells", "even"),
    ("minimum_cells", "minimum"),
    ("maximum_cells", "maximum"),
    ("quadruples", "quadruples"),
    ("clones", "clones"),
    ("x_sums", "X-sums"),
    ("skyscrapers", "skyscrapers"),
    ("pencil_marks", "pencil marks"),
    ("zipper_lines", "zipper lines"),
    ("region_sum_lines", "region sum lines"),
    ("entropic_lines", "entropic lines"),
    ("modular_lines", "modular lines"),
    ("slow_thermometers", "slow thermometers"),
    ("double_arrows", "double arrows"),
    ("lockout_lines", "lockout lines"),
    ("nabner_lines", "nabner lines"),
    ("row_indexers", "row indexers"),
    ("column_indexers", "column indexers"),
    ("box_indexers", "box indexers"),
)

# SudokuPad's line colours.
WHISPERS_COLOUR = "#4fc24f"
RENBAN_COLOUR = "#d35fd3"
PALINDROME_COLOUR = "#a0a0a0"
BETWEEN_COLOUR = "#7fa7e0"
CLONE_COLOUR = "#f0c040"
THERMO_COLOUR = "#c4c4c4"
ZIPPER_COLOUR = "#c5a8ea"
REGION_SUM_COLOUR = "#2ecbff"
ENTROPIC_COLOUR = "#f5b57a"
MODULAR_COLOUR = "#33bbbb"
DOUBLE_ARROW_COLOUR = "#a0a0a0"
LOCKOUT_COLOUR = "#3c7fd0"
NABNER_COLOUR = "#c9c883"


def _centre(cell: Sequence[int], size: int) -> Tuple[float, float]:
    return (cell[1] * size + size / 2, cell[0] * size + size / 2)


def _polyline(cells: Sequence[Sequence[int]], size: int) -> str:
    points = [_centre(c, size) for c in cells]
    return "".join(f"{'M' if i == 0 else 'L'}{x:g} {y:g}" for i, (x, y) in enumerate(points))


def _line(cells: Sequence[Sequence[int]], size: int, colour: str, width: float, attrs: str) -> str:
    if len(cells) < 2:
        return ""
    return (
        f'<path d="{_polyline(cells, size)}" stroke="{colour}" stroke-width="{width:g}" '
        f'stroke-linecap="round" fill="none" {attrs}/>'
    )


def _edge(a: Sequence[int], b: Sequence[int], size: int) -> Tuple[float, float]:
    (ax, ay), (bx, by) = _centre(a, size), _centre(b, size)
    return ((ax + bx) / 2, (ay + by) / 2)


def _text(x: float, y: float, label: str, font: float, colour: str, attrs: str = "") -> str:
    return (
        f'<g fill="{colour}" font-size="{font:g}" text-anchor="middle" '
        f'dominant-baseline="central" {attrs}><text x="{x:g}" y="{y:g}">{escape(label)}</text></g>'
    )


def _arrow_head(x1: float, y1: float, x2: float, y2: float, length: float) -> str:
    """Path data of a two-stroke head at (x2, y2) for a segment coming from (x1, y1)."""
    dx, dy = x2 - x1, y2 - y1
    norm = math.hypot(dx, dy) or 1.0
    ux, uy = dx / norm, dy / norm
    parts = []
    for sign in (1, -1):
        # The head's strokes at 40 degrees either side of the shaft.
        hx = x2 - length * (ux * 0.766 - sign * uy * 0.643)
        hy = y2 - length * (uy * 0.766 + sign * ux * 0.643)
        parts.append(f"M{x2:g} {y2:g}L{hx:g} {hy:g}")
    return "".join(parts)


def _marks(rules: Any, n: int, size: int, colour: str) -> Tuple[List[str], List[str]]:
    """The SudokuPad-style marks of the constraint kinds beyond groups and cages: (under the
    grid lines, over them)."""
    under: List[str] = []
    over: List[str] = []
    for cells, copies in rules.clones:
        under.append(_shade(list(cells) + list(copies), size, CLONE_COLOUR, 'data-clone="1"'))
    for kind, cells, tint in (
        ("row-indexer", rules.row_indexers, "#7cc77c"),
        ("column-indexer", rules.column_indexers, "#c77c7c"),
        ("box-indexer", rules.box_indexers, "#7c7cc7"),
    ):
        if cells:
            rects = "".join(
                f'<rect x="{c * size}" y="{r * size}" width="{size}" height="{size}"/>'
                for r, c in cells
            )
            under.append(f'<g fill="{tint}" fill-opacity="0.35" data-{kind}="1">{rects}</g>')
    for line in rules.thermometers:
        # One solid grey, so the bulb and the line do not darken where they overlap.
        bulb_x, bulb_y = _centre(line[0], size)
        under.append(
            f'<g fill="{THERMO_COLOUR}" data-thermometer="1">'
            f'<circle cx="{bulb_x:g}" cy="{bulb_y:g}" r="{size * 0.38:g}"/>'
            + _line(line, size, THERMO_COLOUR, size * 0.3, "")
            + "</g>"
        )
    for kind, lines, tint in (
        ("whispers", [line for line, _ in rules.whispers], WHISPERS_COLOUR),
        ("renban", rules.renbans, RENBAN_COLOUR),
        ("palindrome", rules.palindromes, PALINDROME_COLOUR),
        ("between", rules.between_lines, BETWEEN_COLOUR),
    ):
        for line in lines:
            under.append(
                _line(line, size, tint, size * 0.18, f'stroke-opacity="0.8" data-{kind}="1"')
            )
            if kind == "between":
                for end in (line[0], line[-1]):
                    x, y = _centre(end, size)
                    under.append(
                        f'<circle cx="{x:g}" cy="{y:g}" r="{size * 0.38:g}" fill="#ffffff" '
                        f'stroke="{BETWEEN_COLOUR}" stroke-width="2" data-between-end="1"/>'
                    )
    for kind, lines, tint in (
        ("zipper", rules.zipper_lines, ZIPPER_COLOUR),
        ("region-sum", rules.region_sum_lines, REGION_SUM_COLOUR),
        ("entropic", rules.entropic_lines, ENTROPIC_COLOUR),
        ("modular", rules.modular_lines, MODULAR_COLOUR),
        ("nabner", rules.nabner_lines, NABNER_COLOUR),
    ):
        under.extend(
            _line(line, size, tint, size * 0.16, f'stroke-opacity="0.85" data-{kind}="1"')
            for line in lines
        )
    for line in rules.slow_thermometers:
        # A thermometer with a white core: digits may repeat along it.
        bulb_x, bulb_y = _centre(line[0], size)
        under.append(
            f'<g fill="{THERMO_COLOUR}" data-slow-thermometer="1">'
            f'<circle cx="{bulb_x:g}" cy="{bulb_y:g}" r="{size * 0.38:g}"/>'
            + _line(line, size, THERMO_COLOUR, size * 0.3, "")
            + f'<circle cx="{bulb_x:g}" cy="{bulb_y:g}" r="{size * 0.22:g}" fill="#ffffff"/>'
            + _line(line, size, "#ffffff", size * 0.1, "")
            + "</g>"
        )
    for line in rules.double_arrows:
        parts = [_line(line, size, DOUBLE_ARROW_COLOUR, size * 0.08, "")]
        for end in (line[0], line[-1]):
            x, y = _centre(end, size)
            parts.append(
                f'<circle cx="{x:g}" cy="{y:g}" r="{size * 0.38:g}" fill="#ffffff" '
                f'stroke="{DOUBLE_ARROW_COLOUR}" stroke-width="2"/>'
            )
        under.append(f'<g data-double-arrow="1">{"".join(parts)}</g>')
    for line in rules.lockout_lines:
        parts = [_line(line, size, LOCKOUT_COLOUR, size * 0.12, "")]
        for end in (line[0], line[-1]):
            x, y = _centre(end, size)
            r = size * 0.36
            parts.append(
                f'<path d="M{x:g} {y - r:g}L{x + r:g} {y:g}L{x:g} {y + r:g}L{x - r:g} {y:g}Z" '
                f'fill="#ffffff" stroke="{LOCKOUT_COLOUR}" stroke-width="2"/>'
            )
        under.append(f'<g data-lockout="1">{"".join(parts)}</g>')
    for cell in rules.odd_cells:
        x, y = _centre(cell, size)
        under.append(
            f'<circle cx="{x:g}" cy="{y:g}" r="{size * 0.38:g}" fill="{colour}" '
            f'fill-opacity="0.18" data-odd="1"/>'
        )
    for r, c in rules.even_cells:
        inset = size * 0.14
        under.append(
            f'<rect x="{c * size + inset:g}" y="{r * size + inset:g}" width="{size - 2 * inset:g}" '
            f'height="{size - 2 * inset:g}" fill="{colour}" fill-opacity="0.18" data-even="1"/>'
        )
    for circle, shaft in rules.arrows:
        # The circle: round for one cell, a rounded box around several.
        if len(circle) == 1:
            cx, cy = _centre(circle[0], size)
            ring = (
                f'<circle cx="{cx:g}" cy="{cy:g}" r="{size * 0.4:g}" fill="#ffffff" '
                f'fill-opacity="0.9"/>'
            )
        else:
            rows = [r for r, _ in circle]
            cols = [c for _, c in circle]
            pad = size * 0.1
            x0, y0 = min(cols) * size + pad, min(rows) * size + pad
            w = (max(cols) - min(cols) + 1) * size - 2 * pad
            h = (max(rows) - min(rows) + 1) * size - 2 * pad
            ring = (
                f'<rect x="{x0:g}" y="{y0:g}" width="{w:g}" height="{h:g}" fill="#ffffff" '
                f'fill-opacity="0.9"/>'
            )
        first = shaft[0]
        start = min(circle, key=lambda c: (c[0] - first[0]) ** 2 + (c[1] - first[1]) ** 2)
        (sx, sy), (fx, fy) = _centre(start, size), _centre(first, size)
        dist = math.hypot(fx - sx, fy - sy) or 1.0
        sx, sy = sx + (fx - sx) / dist * size * 0.4, sy + (fy - sy) / dist * size * 0.4
        points = [(sx, sy)] + [_centre(c, size) for c in shaft]
        d = "".join(f"{'M' if i == 0 else 'L'}{x:g} {y:g}" for i, (x, y) in enumerate(points))
        (px, py), (tx, ty) = points[-2], points[-1]
        d += _arrow_head(px, py, tx, ty, size * 0.3)
        under.append(
            f'<g stroke="{colour}" stroke-opacity="0.6" stroke-width="2" data-arrow="1">'
            f'{ring}<path d="{d}" fill="none" stroke-linecap="round"/></g>'
        )
    for marked, outward, kind in (
        (rules.minimum_cells, False, "minimum"),
        (rules.maximum_cells, True, "maximum"),
    ):
        chevrons = []
        for r, c in marked:
            cx, cy = _centre((r, c), size)
            for dr, dc in (_UP, _RIGHT, _DOWN, _LEFT):
                if not (0 <= r + dr < n and 0 <= c + dc < n) or (r + dr, c + dc) in marked:
                    continue
                # A chevron near the edge, pointing out of the cell (maximum) or into it.
                tip = size * (0.42 if outward else 0.3)
                back = size * (0.3 if outward else 0.42)
                wing = size * 0.12
                tx, ty = cx + dc * tip, cy + dr * tip
                bx, by = cx + dc * back, cy + dr * back
                ax, ay = bx + dr * wing, by + dc * wing
                ex, ey = bx - dr * wing, by - dc * wing
                chevrons.append(f"M{ax:g} {ay:g}L{tx:g} {ty:g}L{ex:g} {ey:g}")
        if chevrons:
            under.append(
                f'<path d="{"".join(chevrons)}" stroke="{colour}" stroke-opacity="0.6" '
                f'stroke-width="1.5" fill="none" data-{kind}="1"/>'
            )
    dot = size * 0.13
    for kind, pairs, fill in (
        ("white", rules.differences, "#ffffff"),
        ("black", rules.ratios, "#000000"),
    ):
        default = 1 if kind == "white" else 2
        for a, b, value in pairs:
            x, y = _edge(a, b, size)
            over.append(
                f'<circle cx="{x:g}" cy="{y:g}" r="{dot:g}" fill="{fill}" stroke="#000000" '
                f'stroke-width="1" data-{kind}-dot="{value}"/>'
            )
            if value != default:
                text_colour = "#000000" if kind == "white" else "#ffffff"
                over.append(_text(x, y, str(value), dot * 1.4, text_colour))
    for a, b, letter in rules.xv:
        x, y = _edge(a, b, size)
        over.append(
            f'<rect x="{x - size * 0.13:g}" y="{y - size * 0.15:g}" width="{size * 0.26:g}" '
            f'height="{size * 0.3:g}" fill="#ffffff" fill-opacity="0.9"/>'
            + _text(x, y, letter, size * 0.32, colour, f'font-weight="700" data-xv="{letter}"')
        )
    for (r, c), digits in rules.quadruples:
        x, y = (c + 1) * size, (r + 1) * size
        over.append(
            f'<circle cx="{x:g}" cy="{y:g}" r="{size * 0.3:g}" fill="#ffffff" stroke="{colour}" '
            f'stroke-width="1" data-quadruple="1"/>'
        )
        label = "".join(map(str, digits)) if len(digits) <= 2 else " ".join(map(str, digits))
        font = size * (0.22 if len(digits) <= 2 else 0.15)
        over.append(_text(x, y, label, font, "#000000"))
    for (r, c), digits in rules.pencil_marks:
        over.append(
            _text(
                c * size + size / 2,
                r * size + size * 0.84,
                "".join(map(str, digits)) if n <= 9 else " ".join(map(str, digits)),
                max(6, size * 0.18),
                colour,
                'data-pencil-marks="1"',
            )
        )
    # Clues outside the grid, at the centre of the place they stand.
    for kind, clues in (
        ("sandwich", rules.sandwiches),
        ("x-sum", rules.x_sums),
        ("skyscraper", rules.skyscrapers),
    ):
        for value, clue in clues:
            x, y = _centre(clue, size)
            over.append(_text(x, y, str(value), size * 0.45, colour, f'data-{kind}="1"'))
    for total, clue, direction in rules.little_killers:
        x, y = _centre(clue, size)
        dr, dc = {"UR": (-1, 1), "UL": (-1, -1), "DR": (1, 1), "DL": (1, -1)}[direction]
        over.append(
            _text(
                x - dc * size * 0.12,
                y - dr * size * 0.12,
                str(total),
                size * 0.34,
                colour,
                'data-little-killer="1"',
            )
        )
        x1, y1 = x + dc * size * 0.22, y + dr * size * 0.22
        x2, y2 = x + dc * size * 0.45, y + dr * size * 0.45
        over.append(
            f'<path d="M{x1:g} {y1:g}L{x2:g} {y2:g}{_arrow_head(x1, y1, x2, y2, size * 0.1)}" '
            f'stroke="{colour}" stroke-width="1.2" fill="none"/>'
        )
    return under, over


def window_cells(n: int) -> List[List[_Cell]]:
    """The four Windoku windows of a 9x9: the 3x3 blocks starting at rows/columns 1 and 5."""
    return [
        [(r, c) for r in range(top, top + 3) for c in range(left, left + 3)]
        for top in (1, 5)
        for left in (1, 5)
    ]


def region_boundaries(regions: List[List[int]], size: int) -> str:
    """Path ``d`` of the edges between cells of different regions, and the outer border."""
    n = len(regions)
    end = n * size
    parts = [f"M0 0H{end}V{end}H0Z"]
    for r in range(n):
        for c in range(n):
            if c + 1 < n and regions[r][c] != regions[r][c + 1]:
                x = (c + 1) * size
                parts.append(f"M{x} {r * size}V{(r + 1) * size}")
            if r + 1 < n and regions[r][c] != regions[r + 1][c]:
                y = (r + 1) * size
                parts.append(f"M{c * size} {y}H{(c + 1) * size}")
    return "".join(parts)


def _shade(cells: List[_Cell], size: int, colour: str, attrs: str) -> str:
    rects = "".join(
        f'<rect x="{c * size}" y="{r * size}" width="{size}" height="{size}"/>' for r, c in cells
    )
    return f'<g fill="{colour}" fill-opacity="{SHADE_OPACITY}" {attrs}>{rects}</g>'


def cage_outline(
    cells: FrozenSet[_Cell], size: int, inset: float, notch: Tuple[_Cell, float, float]
) -> str:
    """Path ``d`` of a dashed outline `inset` pixels inside the cage's border.

    Each border edge of a cell (one whose neighbour across it is outside the cage) becomes a
    segment on the line `inset` inside it. Its ends meet the next segment: at a convex corner
    it stops `inset` short of the cell corner, where it continues straight into the next cell
    it runs to the corner, and at a concave corner it runs `inset` past it. `notch` leaves
    room for the total: (cell, width, height) kept clear in that cell's top-left corner.
    """
    notch_cell, notch_w, notch_h = notch
    parts = []
    for r, c in sorted(cells):
        for (dr, dc), (ar, ac) in (
            (_UP, _LEFT),
            (_RIGHT, _UP),
            (_DOWN, _RIGHT),
            (_LEFT, _DOWN),
        ):
            if (r + dr, c + dc) in cells:
                continue
            # The edge runs from the corner on side `a` to the corner on side -a.
            ends = []
            for sr, sc in ((ar, ac), (-ar, -ac)):
                side_in = (r + sr, c + sc) in cells
                diagonal_in = (r + sr + dr, c + sc + dc) in cells
                if not side_in:
                    reach = -inset  # convex: stop short of the corner
                elif not diagonal_in:
                    reach = 0.0  # straight on into the neighbour's edge
                else:
                    reach = inset  # concave: run on to meet the turning edge
                ends.append(reach)
            # Cell centre, then the edge's line and its two ends along it.
            cx, cy = c * size + size / 2, r * size + size / 2
            half = size / 2
            lx, ly = cx + dc * (half - inset), cy + dr * (half - inset)
            x1, y1 = lx + ac * (half + ends[0]), ly + ar * (half + ends[0])
            x2, y2 = lx - ac * (half + ends[1]), ly - ar * (half + ends[1])
            if (r, c) == notch_cell:
                left, top = c * size + inset, r * size + inset
                if (dr, dc) == _UP:  # x1 is its left end: start it right of the total
                    x1 = max(x1, left + notch_w)
                    if x1 >= x2:
                        continue
                elif (dr, dc) == _LEFT:  # y2 is its top end: start it below the total
                    y2 = max(y2, top + notch_h)
                    if y1 <= y2:
                        continue
            parts.append(f"M{x1:g} {y1:g}L{x2:g} {y2:g}")
    return "".join(parts)


def rule_layers(rules: Any, n: int, size: int, colour: str) -> RuleLayers:
    """The SVG layers for `rules` on an n x n board of `size`-pixel cells; `colour` is the
    stroke/text colour the board uses (``currentColor`` on screen, black in print)."""
    under: List[str] = []
    over: List[str] = []
    if rules.windows:
        under.append(
            _shade([c for w in window_cells(n) for c in w], size, colour, 'data-window="1"')
        )
    for i, cells in enumerate(rules.extra_regions):
        under.append(_shade(list(cells), size, colour, f'data-extra-region="{i}"'))
    if rules.main_diagonal or rules.anti_diagonal:
        end = n * size
        d = (f"M0 0L{end} {end}" if rules.main_diagonal else "") + (
            f"M{end} 0L0 {end}" if rules.anti_diagonal else ""
        )
        under.append(
            f'<path d="{d}" stroke="{colour}" '
            f'stroke-opacity="{DIAGONAL_OPACITY}" stroke-width="1.5" fill="none" '
            'data-diagonals="1"/>'
        )
    if rules.cages:
        inset = max(2.5, size * 0.08)
        font = max(7, round(size * 0.26))
        dash = max(2, round(size * 0.08))
        paths: List[str] = []
        totals: List[str] = []
        for total, cells in rules.cages:
            members = frozenset((int(r), int(c)) for r, c in cells)
            anchor = min(members)
            label = "" if total is None else str(total)
            notch = (anchor, font * 0.62 * len(label) + 2 if label else 0, font + 1 if label else 0)
            d = cage_outline(members, size, inset, notch)
            paths.append(f'<path d="{d}" data-cage="{label}"/>')
            r, c = anchor
            if label:
                totals.append(
                    f'<text x="{c * size + inset:g}" y="{r * size + inset:g}">{escape(label)}</text>'
                )
        over.append(
            f'<g stroke="{colour}" stroke-width="1" stroke-dasharray="{dash} {dash}" '
            f'fill="none">{"".join(paths)}</g>'
            f'<g fill="{colour}" font-size="{font}" dominant-baseline="hanging" '
            f'text-anchor="start" data-cage-totals="1">{"".join(totals)}</g>'
        )
    marks_under, marks_over = _marks(rules, n, size, colour)
    under.extend(marks_under)
    over.extend(marks_over)
    region_lines = None
    if rules.regions is not None:
        region_lines = region_boundaries([list(row) for row in rules.regions], size)
    caption = tuple(
        sentence
        for attr, sentence in (
            ("anti_knight", "Anti-knight: equal digits are never a knight's move apart."),
            ("anti_king", "Anti-king: equal digits never touch, not even diagonally."),
            ("non_consecutive", "Non-consecutive: side-by-side cells never differ by 1."),
            ("disjoint_groups", "Disjoint groups: cells in the same place of their boxes differ."),
            ("negative_xv", "Every X and V is given: no other neighbours add up to 10 or 5."),
            ("negative_ratio", "Every black dot is given: no other neighbours have ratio 2."),
        )
        if getattr(rules, attr)
    )
    outside = bool(rules.little_killers or rules.sandwiches or rules.x_sums or rules.skyscrapers)
    return RuleLayers(
        "".join(under), "".join(over), region_lines, caption, rule_names(rules), outside
    )
