"""Drawing a board: the text grid for ``str(board)`` and the SVG for Jupyter.

Everything here works on plain numpy arrays (cells as uint8, 0 = blank; boolean masks) and a
box shape, so it knows nothing about solving.
"""

from __future__ import annotations

import re
from html import escape
from typing import Any, List, NamedTuple, Optional, Tuple

import numpy as np

from .. import _sudoku_rs
from .rules import rule_layers

#: Cell characters of the core's text form: '1'-'9', then 'A' = 10 .. 'Z' = 35.
CHARS: str = _sudoku_rs.CELL_CHARS
#: The largest value a single character can hold.
MAX_CHAR_VALUE: int = _sudoku_rs.MAX_TEXT_SIZE


def char_of(value: int) -> str:
    """The text-form character of a cell value, '.' for a blank."""
    return "." if value == 0 else CHARS[value - 1]


def cell_labels(cells: np.ndarray) -> List[List[str]]:
    """Rows of cell labels, all the same width: one character while the text form can hold
    the grid, else right-aligned numbers (a 36x36 grid and up)."""
    n = cells.shape[0]
    if n <= MAX_CHAR_VALUE:
        return [[char_of(v) for v in row] for row in cells.tolist()]
    width = len(str(n))
    return [[(str(v) if v else ".").rjust(width) for v in row] for row in cells.tolist()]


def text_grid(cells: np.ndarray, box: Tuple[int, int]) -> str:
    """The familiar text grid: '|' between boxes, '-' and '+' between bands, '.' blank."""
    box_rows, box_cols = box
    if box_rows == 1:
        # Rows as boxes (a prime side): a line under every row would only repeat the grid.
        box_rows = box_cols = len(cells)
    labels = cell_labels(cells)
    lines = []
    separator = ""
    for r, row in enumerate(labels):
        groups = [" ".join(row[c : c + box_cols]) for c in range(0, len(row), box_cols)]
        line = " | ".join(groups)
        if r and r % box_rows == 0:
            if not separator:
                separator = "-+-".join("-" * len(g) for g in groups)
            lines.append(separator)
        lines.append(line)
    return "\n".join(lines)


# ---------------------------------------------------------------- HTML (inline SVG)
#
# Why SVG and not an HTML table: notebook front ends restyle tables (JupyterLab stripes rows,
# right-aligns cells, adds padding and hover colours; VS Code and nbviewer differ again), so a
# table's borders and alignment depend on where it is shown. An inline SVG with presentation
# attributes is drawn the same everywhere, needs no <style> element (nothing global, so two
# boards on one page cannot clash: there are no ids or class names at all), scales cleanly from
# 4x4 to 64x64, and is well-formed XML, which the tests parse.

# Two colour schemes for the one drawing: the screen's (Jupyter) and print's (`Board.to_svg`,
# PDF, PNG, sheets).
#
# Screen colours work on light and dark themes alike: lines and givens use currentColor (the
# notebook's text colour), the background is transparent, filled-in digits use a mid blue
# (contrast 4.1:1 on white, 4.6:1 on JupyterLab dark #111, 4.1:1 on VS Code dark #1e1e1e) and
# conflicts a translucent red tint inside a red frame, readable on white and on near-black.
#
# Print is black on white: paper has no theme, and a grey-scale printer must not lose
# anything, so filled-in digits are a dark grey in regular weight beside the bold black givens,
# and the fonts are the PDF standard Helvetica the PDF writer uses.


class Scheme(NamedTuple):
    """How the drawing is coloured: lines, the two kinds of labels, conflicts, background."""

    line: str
    thin_opacity: str
    thin_width: str
    given: str
    filled: str
    pencil: str
    conflict: str
    conflict_opacity: str
    background: Optional[str]
    font_family: str
    #: Extra attributes on the root element (screen only: the notebook's layout).
    root_style: str


SCREEN = Scheme(
    line="currentColor",
    thin_opacity="0.35",
    thin_width="1",
    given="currentColor",
    filled="#2f7de1",
    pencil="currentColor",
    conflict="#e5484d",
    conflict_opacity="0.3",
    background=None,
    font_family="ui-sans-serif, system-ui, -apple-system, Segoe UI, Roboto, sans-serif",
    root_style="max-width:100%;height:auto;display:block;margin:4px 0;background:transparent",
)

PRINT = Scheme(
    line="#000000",
    thin_opacity="1",
    thin_width="0.6",
    given="#000000",
    filled="#4d4d4d",
    pencil="#4d4d4d",
    conflict="#e5484d",
    conflict_opacity="0.3",
    background="#ffffff",
    font_family="Helvetica, Arial, sans-serif",
    root_style="",
)


def cell_size(n: int) -> int:
    """Pixels per cell: a 9x9 is about 380 px wide; big grids get smaller cells, but never so
    small that two-letter labels stop being readable."""
    return max(22, min(44, round(380 / n)))


def html_grid(
    cells: np.ndarray,
    givens: np.ndarray,
    conflicts: np.ndarray,
    box: Tuple[int, int],
    rules: Optional[Any] = None,
) -> str:
    """An inline SVG of the board for Jupyter: the screen colours."""
    return svg_grid(cells, givens, conflicts, box, SCREEN, rules=rules)


def svg_grid(
    cells: np.ndarray,
    givens: np.ndarray,
    conflicts: np.ndarray,
    box: Tuple[int, int],
    scheme: Scheme,
    pencil: Optional[np.ndarray] = None,
    rules: Optional[Any] = None,
) -> str:
    """An SVG of the board: thick lines around boxes, givens bold, filled-in digits in the
    scheme's second colour, conflicting cells tinted, and, when `pencil` (an (n, n, n) bool
    array, True where value v+1 is a candidate) is given, each blank cell's candidates in small
    type on a mini-grid shaped like a box; variant `rules` (an `sr.Rules`) add their marks
    (see `rules`)."""
    n = cells.shape[0]
    box_rows, box_cols = box
    size = cell_size(n)
    thick = 2
    # The outer border is centred on the grid edge: a margin keeps it from being clipped.
    margin = thick
    layers = None if rules is None or rules.is_classic else rule_layers(rules, n, size, scheme.line)
    if layers and layers.outside:
        margin += size  # clues outside the grid stand in the margin
    side = n * size + 2 * margin
    caption_lines = layers.caption if layers else ()
    caption_font = max(11, round(size * 0.3))
    height = side + len(caption_lines) * round(caption_font * 1.4)
    labels = cell_labels(cells)
    font = round(size * (0.6 if n <= MAX_CHAR_VALUE else 0.42))
    clues = int(np.count_nonzero(givens & (cells != 0)))
    filled = int(np.count_nonzero(~givens & (cells != 0)))
    n_conflicts = int(np.count_nonzero(conflicts))
    summary = f"{n}x{n} sudoku board, box {box_rows}x{box_cols}: {clues} givens, {filled} filled"
    if n_conflicts:
        summary += f", {n_conflicts} cells in conflict"
    if layers:
        summary += ", rules: " + ", ".join(layers.names)

    style = f'style="{scheme.root_style}" ' if scheme.root_style else ""
    parts = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{height}" '
            f'viewBox="0 0 {side} {height}" role="img" aria-label="{escape(summary)}" '
            f'{style}font-family="{scheme.font_family}">'
        ),
        f"<title>{escape(summary)}</title>",
    ]
    if scheme.background:
        parts.append(f'<rect width="{side}" height="{height}" fill="{scheme.background}"/>')
    parts.append(f'<g transform="translate({margin},{margin})">')
    # A tint alone is faint on a dark page; the frame, inset so grid lines do not cover it,
    # makes conflicts plain on both themes.
    for r, c in zip(*np.nonzero(conflicts)):
        parts.append(
            f'<rect x="{c * size + 2}" y="{r * size + 2}" width="{size - 4}" height="{size - 4}" '
            f'fill="{scheme.conflict}" fill-opacity="{scheme.conflict_opacity}" '
            f'stroke="{scheme.conflict}" stroke-width="2" data-conflict="1"/>'
        )
    if layers:
        parts.append(layers.under)
    # Thin lines first, thick box lines drawn over them; jigsaw regions replace the boxes.
    end = n * size
    thin: List[str] = []
    bold: List[str] = []
    regions = layers.region_lines if layers else None
    # Rows as boxes (a prime side): only the border is thick, as f-puzzles draws it.
    line_rows, line_cols = (n, n) if box_rows == 1 else (box_rows, box_cols)
    for i in range(n + 1):
        pos = i * size
        across = regions is None and i % line_rows == 0
        down = regions is None and i % line_cols == 0
        (bold if across else thin).append(f"M0 {pos}H{end}")
        (bold if down else thin).append(f"M{pos} 0V{end}")
    if regions is not None:
        bold.append(regions)
    parts.append(
        f'<path d="{"".join(thin)}" stroke="{scheme.line}" '
        f'stroke-opacity="{scheme.thin_opacity}" stroke-width="{scheme.thin_width}" fill="none"/>'
    )
    parts.append(
        f'<path d="{"".join(bold)}" stroke="{scheme.line}" stroke-width="{thick}" '
        'stroke-linecap="square" fill="none"/>'
    )
    if layers:
        parts.append(layers.over)
    # Labels go in two groups that carry the shared attributes, givens and filled-in digits,
    # so each cell costs only its position: a full 25x25 board is about 20 KB.
    half = size / 2
    given_labels: List[str] = []
    filled_labels: List[str] = []
    for r, row in enumerate(labels):
        for c, label in enumerate(row):
            if cells[r, c] == 0:
                continue
            # Labels come from our own digit alphabet; escaped anyway so nothing reaches the
            # page unescaped.
            (given_labels if givens[r, c] else filled_labels).append(
                f'<text x="{c * size + half:g}" y="{r * size + half:g}">'
                f"{escape(label.strip())}</text>"
            )
    parts.append(
        f'<g font-size="{font}" text-anchor="middle" dominant-baseline="central">'
        f'<g fill="{scheme.given}" font-weight="700" data-given="1">{"".join(given_labels)}</g>'
        f'<g fill="{scheme.filled}" font-weight="400" data-given="0">{"".join(filled_labels)}</g>'
        "</g>"
    )
    if pencil is not None:
        parts.append(_pencil_marks(cells, pencil, box, size, scheme))
    for i, line in enumerate(caption_lines):
        y = n * size + margin + round(caption_font * (1.4 * i + 1.1))
        parts.append(
            f'<text x="0" y="{y}" font-size="{caption_font}" fill="{scheme.line}" '
            f'data-caption="1">{escape(line)}</text>'
        )
    parts.append("</g></svg>")
    return "".join(parts)


def with_layers(svg: str, under: str, over: str, *, width: Optional[int] = None) -> str:
    """A drawing from :func:`html_grid` with SVG layers added in grid coordinates: ``under``
    beneath everything (tints), ``over`` on top (marks); ``width`` (pixels) scales it down,
    for a row of small grids."""
    head, sep, rest = svg.partition('<g transform="translate(')
    opening, _, body = rest.partition(">")
    assert sep and body.endswith("</g></svg>"), "html_grid's layout"
    out = f"{head}{sep}{opening}>{under}{body[: -len('</g></svg>')]}{over}</g></svg>"
    if width is not None:
        out = re.sub(
            r'width="[0-9.]+" height="[0-9.]+"', f'width="{width}" height="{width}"', out, count=1
        )
    return out


def _pencil_marks(
    cells: np.ndarray, pencil: np.ndarray, box: Tuple[int, int], size: int, scheme: Scheme
) -> str:
    """Each blank cell's candidates on a mini-grid shaped like a box (3x3 in a 9x9, 2 rows of
    3 in a 6x6 with 2x3 boxes), value v always in the same spot."""
    n = cells.shape[0]
    box_rows, box_cols = box
    step_x, step_y = size / box_cols, size / box_rows
    font = round(min(step_x, step_y) * 0.72, 1)
    marks: List[str] = []
    for r, c, v in zip(*np.nonzero(pencil & (cells == 0)[:, :, None])):
        x = c * size + (v % box_cols + 0.5) * step_x
        y = r * size + (v // box_cols + 0.5) * step_y
        label = char_of(int(v) + 1) if n <= MAX_CHAR_VALUE else str(int(v) + 1)
        marks.append(f'<text x="{x:.4g}" y="{y:.4g}">{escape(label)}</text>')
    return (
        f'<g font-size="{font:g}" text-anchor="middle" dominant-baseline="central" '
        f'fill="{scheme.pencil}" font-weight="400" data-pencil="1">{"".join(marks)}</g>'
    )
