"""Drawing variant rules on a board's SVG: the marks a player expects on a printed variant.

- diagonals: both long diagonals, faint, under the digits;
- windows and extra regions: shaded cells;
- jigsaw regions: the thick lines follow the regions instead of the boxes;
- killer cages: a dashed outline inset in each cage, its total in the top-left corner;
- rules with no natural mark (anti-knight, anti-king, non-consecutive): named in a caption.

It only draws: `grid.html_grid` asks for the layers and places them. Works on any size.
"""

from __future__ import annotations

from html import escape
from typing import Any, FrozenSet, List, NamedTuple, Optional, Tuple

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
    if rules.regions is not None:
        names.append("jigsaw regions")
    if rules.extra_regions:
        names.append("extra regions")
    if rules.cages:
        names.append("killer cages")
    return tuple(names)


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
    if rules.diagonals:
        end = n * size
        under.append(
            f'<path d="M0 0L{end} {end}M{end} 0L0 {end}" stroke="{colour}" '
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
            label = str(total)
            notch = (anchor, font * 0.62 * len(label) + 2, font + 1)
            d = cage_outline(members, size, inset, notch)
            paths.append(f'<path d="{d}" data-cage="{total}"/>')
            r, c = anchor
            totals.append(
                f'<text x="{c * size + inset:g}" y="{r * size + inset:g}">{escape(label)}</text>'
            )
        over.append(
            f'<g stroke="{colour}" stroke-width="1" stroke-dasharray="{dash} {dash}" '
            f'fill="none">{"".join(paths)}</g>'
            f'<g fill="{colour}" font-size="{font}" dominant-baseline="hanging" '
            f'text-anchor="start" data-cage-totals="1">{"".join(totals)}</g>'
        )
    region_lines = None
    if rules.regions is not None:
        region_lines = region_boundaries([list(row) for row in rules.regions], size)
    caption = tuple(
        sentence
        for attr, sentence in (
            ("anti_knight", "Anti-knight: equal digits are never a knight's move apart."),
            ("anti_king", "Anti-king: equal digits never touch, not even diagonally."),
            ("non_consecutive", "Non-consecutive: side-by-side cells never differ by 1."),
        )
        if getattr(rules, attr)
    )
    return RuleLayers("".join(under), "".join(over), region_lines, caption, rule_names(rules))
