"""The variant constraint kinds as a model: keywords, attributes, equality, pickling, repr, the
checks on bad input, and the engine refusing (never ignoring) a kind it does not solve."""

import copy
import pickle

import pytest

import sudoku_rs as sr

# One example of every kind, as constructor keywords (9x9 cells).
EXAMPLES = {
    "main_diagonal": True,
    "anti_diagonal": True,
    "disjoint_groups": True,
    "cages": [(None, [(5, 0), (6, 0)]), (10, [(7, 7), (7, 8)])],
    "little_killers": [(10, (-1, 2), "DR"), (12, (9, 4), "UL")],
    "thermometers": [[(0, 0), (0, 1), (0, 2)]],
    "arrows": [([(1, 1)], [(1, 2), (1, 3)]), ([(3, 0), (3, 1)], [(4, 0), (5, 1)])],
    "xv": [((2, 2), (2, 3), "X"), ((2, 6), (3, 6), "V")],
    "differences": [((3, 3), (3, 4)), ((3, 7), (4, 7), 3)],
    "ratios": [((4, 4), (4, 5)), ((5, 5), (5, 6), 3)],
    "negative_xv": True,
    "negative_ratio": True,
    "sandwiches": [(5, (-1, 0)), (0, (4, -1))],
    "whispers": [[(5, 5), (5, 6)], ([(6, 6), (6, 7)], 4)],
    "renbans": [[(7, 0), (7, 1), (7, 2)]],
    "palindromes": [[(2, 5), (3, 5), (4, 5)]],
    "between_lines": [[(0, 4), (1, 4), (2, 4)]],
    "odd_cells": [(8, 8)],
    "even_cells": [(8, 7)],
    "minimum_cells": [(6, 3)],
    "maximum_cells": [(6, 4)],
    "quadruples": [((0, 7), [1, 2]), ((7, 4), [3, 3])],
    "clones": [([(0, 3)], [(8, 3)])],
    "x_sums": [(6, (9, 3)), (15, (0, 9))],
    "skyscrapers": [(3, (2, -1))],
    "pencil_marks": [((4, 0), [1, 2])],
    "zipper_lines": [[(1, 5), (1, 6), (1, 7)]],
    "region_sum_lines": [[(2, 1), (3, 1), (3, 2)]],
    "entropic_lines": [[(4, 1), (4, 2), (4, 3)]],
    "modular_lines": [[(5, 1), (5, 2), (5, 3)]],
    "slow_thermometers": [[(8, 0), (8, 1), (8, 2)]],
    "double_arrows": [[(6, 6), (7, 6), (8, 6)]],
    "lockout_lines": [[(4, 6), (5, 7), (6, 8)]],
    "nabner_lines": [[(0, 6), (0, 7)]],
    "row_indexers": [(0, 5)],
    "column_indexers": [(1, 0), (2, 0)],
    "box_indexers": [(7, 7)],
}


def test_every_kind_round_trips_through_its_attribute_pickle_and_repr():
    rules = sr.Rules(**EXAMPLES)
    again = sr.Rules(**{key: getattr(rules, key) for key in EXAMPLES})
    assert again == rules and hash(again) == hash(rules)
    assert pickle.loads(pickle.dumps(rules)) == rules
    assert copy.deepcopy(rules) == rules
    assert eval("sr." + repr(rules)) == rules
    for key, value in EXAMPLES.items():
        one = sr.Rules(**{key: value})
        assert one != sr.Rules.classic() and not one.is_classic
        assert eval("sr." + repr(one)) == one, key
        assert pickle.loads(pickle.dumps(one)) == one


def test_attributes_say_what_was_given():
    rules = sr.Rules(**EXAMPLES)
    assert rules.diagonals and rules.main_diagonal and rules.anti_diagonal
    assert sr.Rules(main_diagonal=True, anti_diagonal=True) == sr.Rules.x()
    assert not sr.Rules(anti_diagonal=True).diagonals
    assert rules.cages[0] == (None, ((5, 0), (6, 0)))
    assert rules.little_killers[1] == (12, (9, 4), "UL")
    assert rules.arrows[1] == (((3, 0), (3, 1)), ((4, 0), (5, 1)))
    assert rules.xv == (((2, 2), (2, 3), "X"), ((2, 6), (3, 6), "V"))
    assert rules.differences == (((3, 3), (3, 4), 1), ((3, 7), (4, 7), 3))
    assert rules.ratios[0] == ((4, 4), (4, 5), 2)
    assert rules.whispers == ((((5, 5), (5, 6)), None), (((6, 6), (6, 7)), 4))
    assert rules.quadruples[1] == ((7, 4), (3, 3))
    assert rules.pencil_marks == (((4, 0), (1, 2)),)
    assert rules.kinds[:3] == ["main_diagonal", "anti_diagonal", "disjoint_groups"]
    assert len(rules.kinds) == len(EXAMPLES)


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"thermometers": [[(0, 0), (0, 0)]]}, "thermometer 0 lists cell (0, 0) twice"),
        ({"thermometers": [[(0, c) for c in range(9)] + [(1, 0)]]}, "thermometer 0 has 10"),
        ({"arrows": [([(0, 0)], [])]}, "the shaft of arrow 0 has 0 cells"),
        ({"arrows": [([(0, 0)], [(0, 0)])]}, "arrow 0 has cell (0, 0) both"),
        ({"xv": [((0, 0), (1, 1), "X")]}, "not orthogonal neighbours"),
        ({"xv": [((0, 0), (0, 1), "Y")]}, "'X' (adds up to 10) or 'V'"),
        ({"ratios": [((0, 0), (0, 1), 1)]}, "black dot 0 has ratio 1"),
        ({"differences": [((0, 0), (0, 1), 9)]}, "white dot 0 has value 9"),
        ({"little_killers": [(10, (-1, 8), "DR")]}, "little killer 0 stands at (-1, 8)"),
        ({"little_killers": [(10, (-1, 2), "XX")]}, "'UR', 'UL', 'DR' or 'DL'"),
        ({"little_killers": [(100, (-1, 2), "DR")]}, "little killer 0 (total 100)"),
        ({"sandwiches": [(99, (-1, 0))]}, "sandwich clue 0 is 99"),
        ({"skyscrapers": [(3, (-1, -1))]}, "skyscraper clue 0 stands at (-1, -1)"),
        ({"x_sums": [(3, (4, 4))]}, "X-sum clue 0 stands at (4, 4)"),
        ({"odd_cells": [(0, 0)], "even_cells": [(0, 0)]}, "both odd and even"),
        ({"quadruples": [((8, 8), [1])]}, "quadruple 0 names cell (8, 9)"),
        ({"quadruples": [((0, 0), [1, 2, 3, 4, 5])]}, "at most 4"),
        ({"quadruples": [((0, 0), [10])]}, "quadruple 0 lists 10"),
        ({"clones": [([(0, 0)], [(1, 0), (2, 0)])]}, "clone 0 has 1 cells but its copy has 2"),
        ({"pencil_marks": [((0, 0), [1]), ((0, 0), [2])]}, "given twice for cell (0, 0)"),
        ({"pencil_marks": [((0, 0), [])]}, "lists no digits"),
        ({"whispers": [([(0, 0), (0, 1)], 9)]}, "whispers line 0 has difference 9"),
        ({"renbans": [[(9, 0)]]}, "renban line 0 names cell (9, 0), outside the 9x9 grid"),
        ({"between_lines": [[(0, 0)]]}, "between line 0 has 1 cells"),
        ({"double_arrows": [[(0, 0), (0, 1)]]}, "double arrow 0 has 2 cells; it needs at least 3"),
        ({"lockout_lines": [[(0, 0)]]}, "lockout line 0 has 1 cells"),
        ({"zipper_lines": [[(0, 0), (0, 0)]]}, "zipper line 0 lists cell (0, 0) twice"),
        ({"slow_thermometers": [[(9, 9)]]}, "slow thermometer 0 names cell (9, 9), outside"),
        ({"nabner_lines": [[(0, 0), (9, 0)]]}, "nabner line 0 names cell (9, 0), outside"),
    ],
)
def test_bad_constraints_name_the_constraint_and_its_cells(options, says):
    with pytest.raises(sr.InvalidRulesError) as err:
        rules = sr.Rules(**options)
        sr.count_solutions("." * 81, rules=rules)  # size-dependent checks wait for the grid
    assert says in str(err.value)


def test_malformed_items_are_type_errors():
    with pytest.raises(TypeError, match="little killer 0 must be"):
        sr.Rules(little_killers=[(10, (-1, 2))])
    with pytest.raises(TypeError, match="arrow 0 must be"):
        sr.Rules(arrows=[[(0, 0), (0, 1), (0, 2)]])
    with pytest.raises(TypeError, match="must be an int"):
        sr.Rules(sandwiches=[(1.5, (-1, 0))])


def test_a_cage_without_a_total_keeps_its_digits_distinct():
    rules = sr.Rules(cages=[(None, [(0, 0), (4, 4)])])
    grid = sr.solve("." * 81, rules=rules)
    assert grid[0] != grid[40]
    with pytest.raises(sr.InvalidPuzzleError, match="killer cage"):
        sr.solve("5" + "." * 39 + "5" + "." * 40, rules=rules)


def test_single_diagonals_and_disjoint_groups_are_solved():
    anti = sr.solve("." * 81, rules=sr.Rules(anti_diagonal=True))
    assert len({anti[r * 9 + 8 - r] for r in range(9)}) == 9
    disjoint = sr.solve("." * 81, rules=sr.Rules(disjoint_groups=True))
    for position in range(9):
        r0, c0 = divmod(position, 3)
        digits = {disjoint[(r0 + 3 * br) * 9 + c0 + 3 * bc] for br in range(3) for bc in range(3)}
        assert len(digits) == 9


def test_the_engine_solves_every_kind():
    for key, value in EXAMPLES.items():
        rules = sr.Rules(**{key: value})
        assert sr.count_solutions("." * 81, rules=rules, limit=1) in (0, 1), key


def test_every_kind_round_trips_through_the_text_form():
    rules = sr.Rules(**EXAMPLES)
    text = sr.format_rules(rules)
    assert sr.parse_rules(text) == rules, text
    assert "little-killer=10:r0c3:DR" in text and "x-sum=6:r10c4" in text
    for key, value in EXAMPLES.items():
        one = sr.Rules(**{key: value})
        assert sr.parse_rules(sr.format_rules(one)) == one, key
    assert sr.parse_rules("difference=r1c1,r1c2 ratio=r2c1,r2c2") == sr.Rules(
        differences=[((0, 0), (0, 1))], ratios=[((1, 0), (1, 1))]
    )
    assert sr.format_rules(sr.Rules(main_diagonal=True, anti_diagonal=True)) == "diagonals"
    with pytest.raises(sr.InvalidRulesError, match="'thermo=r1c1,x'"):
        sr.parse_rules("thermo=r1c1,x")
    with pytest.raises(sr.InvalidRulesError, match="expected 3"):
        sr.parse_rules("little-killer=10:r0c3")


def test_every_kind_is_drawn_and_prints(tmp_path):
    board = sr.Board("." * 81, rules=sr.Rules(**EXAMPLES))
    svg = board._repr_html_()
    for mark in (
        "data-thermometer",
        "data-arrow",
        "data-xv",
        "data-white-dot",
        "data-black-dot",
        "data-whispers",
        "data-renban",
        "data-palindrome",
        "data-between",
        "data-odd",
        "data-even",
        "data-minimum",
        "data-maximum",
        "data-quadruple",
        "data-clone",
        "data-pencil-marks",
        "data-little-killer",
        "data-sandwich",
        "data-x-sum",
        "data-skyscraper",
        "data-cage",
        "data-zipper",
        "data-region-sum",
        "data-entropic",
        "data-modular",
        "data-slow-thermometer",
        "data-double-arrow",
        "data-lockout",
        "data-nabner",
        "data-row-indexer",
        "data-column-indexer",
        "data-box-indexer",
    ):
        assert mark in svg, mark
    assert "Disjoint groups" in svg and "Every X and V is given" in svg
    path = tmp_path / "all.pdf"
    board.save(path)
    assert path.read_bytes().startswith(b"%PDF")
    sheets = tmp_path / "sheets.pdf"
    sr.print_sheets(["." * 81], sheets, rules=sr.Rules(**EXAMPLES), answers=False)
    assert sheets.stat().st_size > 1000
