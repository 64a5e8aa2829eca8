"""The rules text form and variant puzzle files: round trips, errors, and that a file's rules
solve the same as the Rules they came from."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sudoku_rs as sr

# A valid jigsaw layout: the 3x3 boxes with two pairs of cells swapped between regions.
JIGSAW = [[(r // 3) * 3 + c // 3 for c in range(9)] for r in range(9)]
JIGSAW[2][2], JIGSAW[2][3] = JIGSAW[2][3], JIGSAW[2][2]
JIGSAW[6][5], JIGSAW[5][5] = JIGSAW[5][5], JIGSAW[6][5]


def test_words_name_each_rule():
    rules = sr.parse_rules("x anti-knight cage=15:r1c1,r1c2 extra=r5c5,r5c6")
    assert rules == sr.Rules(
        diagonals=True,
        anti_knight=True,
        cages=[(15, [(0, 0), (0, 1)])],
        extra_regions=[[(4, 4), (4, 5)]],
    )
    assert sr.format_rules(rules) == "diagonals anti-knight extra=r5c5,r5c6 cage=15:r1c1,r1c2"
    assert sr.parse_rules("windoku") == sr.Rules.windoku()
    assert sr.parse_rules("") == sr.parse_rules("classic") == sr.Rules.classic()
    assert sr.format_rules(sr.Rules.classic()) == "classic"


def test_regions_round_trip_with_relabelling():
    rules = sr.Rules(regions=JIGSAW)
    text = sr.format_rules(rules)
    assert text.startswith("regions=111222333")
    assert sr.parse_rules(text) == rules


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("foo", "unknown word 'foo'"),
        ("cage=x", "cage=<total>:<cells>"),
        ("cage=15:a1", "r<row>c<col>"),
        ("extra=r0c1", "r<row>c<col>"),
        ("regions=12", "n*n labels"),
        ("cage=2:r1c1,r1c2", "at least 3"),  # an impossible total: the Rules check names it
    ],
)
def test_bad_words_raise_invalid_rules(text, fragment):
    with pytest.raises(sr.InvalidRulesError, match=fragment):
        sr.parse_rules(text)


def test_type_errors():
    with pytest.raises(TypeError):
        sr.parse_rules(3)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        sr.format_rules("x")  # type: ignore[arg-type]


@st.composite
def random_rules(draw):
    options = {
        key: draw(st.booleans())
        for key in ("diagonals", "windows", "anti_knight", "anti_king", "non_consecutive")
    }
    if draw(st.booleans()):
        options["regions"] = JIGSAW
    # Cages: disjoint horizontal runs in distinct rows, totals within the possible range.
    rows = draw(st.lists(st.integers(0, 8), unique=True, max_size=3))
    cages = []
    for row in rows:
        start = draw(st.integers(0, 6))
        length = draw(st.integers(1, 3))
        low, high = sum(range(1, length + 1)), sum(range(10 - length, 10))
        cages.append((draw(st.integers(low, high)), [(row, start + i) for i in range(length)]))
    if cages:
        options["cages"] = cages
    return sr.Rules(**options)


@settings(max_examples=60, deadline=None)
@given(random_rules())
def test_text_round_trips(rules):
    assert sr.parse_rules(sr.format_rules(rules)) == rules


def test_variant_file_round_trip(tmp_path):
    puzzles = ["." * 81, "1" + "." * 80, "." * 80 + "9"]
    rules = [sr.Rules.x(), sr.Rules.classic(), sr.Rules(regions=JIGSAW, anti_king=True)]
    path = tmp_path / "variants.txt"
    sr.write_variant_puzzles(path, puzzles, rules)
    assert path.read_text().splitlines()[1] == "1" + "." * 80 + " classic"
    assert sr.read_variant_puzzles(path) == (puzzles, rules)
    sr.write_variant_puzzles(path, puzzles[:1], sr.Rules.windoku())
    assert sr.read_variant_puzzles(path) == (puzzles[:1], [sr.Rules.windoku()])


def test_variant_file_errors_name_the_line(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text("# a comment\n" + "." * 81 + " x\n" + "." * 81 + " nonsense\n")
    with pytest.raises(sr.InvalidRulesError, match=r"line 3: .*unknown word 'nonsense'"):
        sr.read_variant_puzzles(path)
    with pytest.raises(ValueError, match="2 puzzles but 1 rules"):
        sr.write_variant_puzzles(path, ["." * 81] * 2, [sr.Rules.x()])
    with pytest.raises(ValueError, match="without spaces"):
        sr.write_variant_puzzles(path, ["... ..."], sr.Rules.x())
    # A refused write leaves the old file as it was.
    assert "nonsense" in path.read_text()


def test_file_rules_solve_like_the_rules_they_describe(tmp_path):
    puzzle = "." * 81
    rules = sr.Rules.x()
    path = tmp_path / "x.txt"
    sr.write_variant_puzzles(path, [puzzle], rules)
    [grid], [read_rules] = sr.read_variant_puzzles(path)
    assert sr.solve(grid, rules=read_rules) == sr.solve(puzzle, rules=rules)
