"""Variant rules on the board drawing: each rule leaves its mark, cage outlines close, and
the SVG stays well-formed XML."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter

import numpy as np
import pytest

import sudoku_rs as sr
from sudoku_rs._draw import grid as _display
from sudoku_rs._draw.rules import cage_outline, region_boundaries

SVG = "{http://www.w3.org/2000/svg}"
JIGSAW = [[(r // 3) * 3 + c // 3 for c in range(9)] for r in range(9)]
JIGSAW[2][2], JIGSAW[2][3] = JIGSAW[2][3], JIGSAW[2][2]


def draw(rules, n=9, box=(3, 3)):
    cells = np.zeros((n, n), np.uint8)
    blank = np.zeros((n, n), bool)
    svg = _display.html_grid(cells, blank, blank, box, rules)
    return svg, ET.fromstring(svg)


def find(root, attr):
    return [el for el in root.iter() if attr in el.attrib]


def test_classic_rules_draw_exactly_like_no_rules():
    cells = np.zeros((9, 9), np.uint8)
    blank = np.zeros((9, 9), bool)
    plain = _display.html_grid(cells, blank, blank, (3, 3))
    assert _display.html_grid(cells, blank, blank, (3, 3), sr.Rules.classic()) == plain


def test_diagonals_and_windows():
    _, root = draw(sr.Rules(diagonals=True, windows=True))
    assert len(find(root, "data-diagonals")) == 1
    [windows] = find(root, "data-window")
    assert len(windows.findall(f"{SVG}rect")) == 36
    assert "rules: diagonals, windows" in root.find(f"{SVG}title").text


def test_extra_regions_are_shaded():
    _, root = draw(sr.Rules(extra_regions=[[(0, 0), (4, 4), (8, 8)], [(0, 8), (8, 0)]]))
    shaded = find(root, "data-extra-region")
    assert [len(g.findall(f"{SVG}rect")) for g in shaded] == [3, 2]


def thick_path(root):
    paths = [el for el in root.iter(f"{SVG}path") if el.get("stroke-width") == "2"]
    assert len(paths) == 1
    return paths[0].get("d")


def test_jigsaw_regions_replace_the_box_lines():
    size = _display.cell_size(9)
    _, root = draw(sr.Rules(regions=JIGSAW))
    d = thick_path(root)
    # The swapped cell r3c3 sits in the second region: a thick edge on its left...
    assert f"M{2 * size} {2 * size}V{3 * size}" in d
    # ...and the classic box line across the whole grid is gone.
    assert f"M0 {3 * size}H{9 * size}" not in d
    assert d == region_boundaries(JIGSAW, size) or d.endswith(region_boundaries(JIGSAW, size))


def test_boxes_stay_thick_without_regions():
    size = _display.cell_size(9)
    _, root = draw(sr.Rules(anti_king=True))
    assert f"M0 {3 * size}H{9 * size}" in thick_path(root)


def test_cages_have_outlines_and_totals():
    cages = [(10, [(0, 0), (0, 1), (1, 0)]), (17, [(4, 4), (4, 5)]), (9, [(8, 8)])]
    _, root = draw(sr.Rules(cages=cages))
    outlines = find(root, "data-cage")
    assert [el.get("data-cage") for el in outlines] == ["10", "17", "9"]
    [totals] = find(root, "data-cage-totals")
    assert [t.text for t in totals] == ["10", "17", "9"]


def endpoints(d):
    segments = re.findall(r"M([\d.e+-]+) ([\d.e+-]+)L([\d.e+-]+) ([\d.e+-]+)", d)
    ends = Counter()
    for x1, y1, x2, y2 in segments:
        ends[(round(float(x1), 6), round(float(y1), 6))] += 1
        ends[(round(float(x2), 6), round(float(y2), 6))] += 1
    return segments, ends


@pytest.mark.parametrize(
    "cells",
    [
        [(0, 0)],
        [(0, 0), (0, 1), (1, 0)],  # an L: one concave corner
        [(1, 1), (1, 2), (2, 2), (3, 2), (3, 1)],  # a U
        [(0, 1), (1, 0), (1, 1), (1, 2), (2, 1)],  # a plus: four concave corners
        [(0, 0), (1, 1), (1, 0), (0, 1)],  # a square
    ],
)
def test_cage_outlines_are_closed_loops(cells):
    """Without the notch for the total, every segment end meets exactly one other segment."""
    d = cage_outline(frozenset(cells), 40, 3.0, ((-1, -1), 0.0, 0.0))
    segments, ends = endpoints(d)
    assert segments
    assert set(ends.values()) == {2}
    # And the loop stays inside the cage: every corner lies in one of its cells (or on the
    # border between two of them).
    for x, y in ends:
        assert any(c * 40 <= x <= (c + 1) * 40 and r * 40 <= y <= (r + 1) * 40 for r, c in cells)


def test_rules_without_marks_get_a_caption():
    _svg, root = draw(sr.Rules(anti_knight=True, non_consecutive=True))
    captions = [el.text for el in find(root, "data-caption")]
    assert len(captions) == 2
    assert captions[0].startswith("Anti-knight")
    assert captions[1].startswith("Non-consecutive")
    # The caption lines are below the grid: the picture is taller than it is wide.
    assert int(root.get("height")) > int(root.get("width"))


@pytest.mark.parametrize(("n", "box"), [(4, (2, 2)), (6, (2, 3)), (16, (4, 4))])
def test_other_sizes(n, box):
    regions = [[(r // box[0]) * (n // box[1]) + c // box[1] for c in range(n)] for r in range(n)]
    rules = sr.Rules(
        diagonals=True,
        regions=regions,
        cages=[(3, [(0, 0), (0, 1)])],
        anti_king=True,
    )
    _svg, root = draw(rules, n, box)
    assert len(find(root, "data-cage")) == 1
    assert len(find(root, "data-diagonals")) == 1


def test_the_notch_only_shortens_the_first_cells_top_and_left_edges():
    cage = frozenset([(0, 0), (0, 1), (1, 0), (1, 1)])
    full = cage_outline(cage, 40, 3.0, ((-1, -1), 0.0, 0.0))
    notched = cage_outline(cage, 40, 3.0, ((0, 0), 10.0, 12.0))
    assert "M13 3L40 3" in notched and "M3 3L40 3" in full  # top edge starts after the total
    assert "M3 40L3 15" in notched and "M3 40L3 3" in full  # left edge stops below it
    assert len(endpoints(notched)[0]) == len(endpoints(full)[0])
