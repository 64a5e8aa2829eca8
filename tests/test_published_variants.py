"""Published variant puzzles with their published solutions (tests/published_variants.py).

The test checks that each solution meets every rule by the pure-Python reference
(tests/variant_reference.py), that sudoku_rs finds exactly that solution and no other, and that
the puzzle needs its variant rule (under classic rules alone it has other solutions), where that
is so.
"""

import pytest
import variant_reference as ref
from published_variants import CASES, JIGSAW_JANKO_108, KILLER_WIKIPEDIA

import sudoku_rs as sr


def digits(line):
    return [0 if ch == "." else int(ch) for ch in line]


@pytest.mark.parametrize("name", CASES)
def test_published_solution_is_the_only_one(name):
    rules, puzzle, solution = CASES[name]
    assert ref.is_solution(digits(puzzle), digits(solution), rules, 9, 3, 3)
    assert sr.solve(puzzle, rules=rules) == solution
    assert sr.count_solutions(puzzle, rules=rules) == 1
    assert sr.is_unique(puzzle, rules=rules)
    assert sr.is_valid(solution, rules=rules)
    assert sr.solve_batch([puzzle, puzzle], rules=rules) == [solution, solution]


@pytest.mark.parametrize("name", ["x-udacity", "windoku-wikipedia", "anti-knight-funwithpuzzles"])
def test_the_variant_rule_is_what_makes_it_unique(name):
    _rules, puzzle, _ = CASES[name]
    assert sr.count_solutions(puzzle, limit=2) == 2


def test_the_jigsaw_regions_replace_the_boxes():
    rules, _puzzle, solution = JIGSAW_JANKO_108
    # The solution breaks classic boxes, so classic rules reject it.
    assert not sr.is_valid(solution)
    assert sr.is_valid(solution, rules=rules)


def test_killer_cages_alone_fix_the_grid():
    rules, _, solution = KILLER_WIKIPEDIA
    changed = solution[:0] + "1" + solution[1:]
    assert not sr.is_valid(changed, rules=rules)
    assert sr.Board("." * 81, rules=rules).solve().to_string() == solution
    # The generator digs every given away: the cages alone make the puzzle.
    assert sr.generate(rules=rules, seed=1, clues=0) == "." * 81
