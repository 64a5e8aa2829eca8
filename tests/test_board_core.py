"""What `Board` asks of the core besides solving: which clues conflict (`_conflicts`, under any
rules) and the pencil marks after a logical step (`_apply_step`, which a walkthrough replays),
against plain statements of the same rules in `variant_reference` and `logic_reference`."""

import random

import helpers as h
import logic_reference as lref
import numpy as np
import pytest
import variant_reference as vref
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_variants import small_rules

import sudoku_rs as sr
from sudoku_rs import _sudoku_rs

SHAPES = [(4, (2, 2)), (6, (2, 3)), (6, (3, 2))]


def noisy(draw, n, blank_weight=1):
    """n*n random cells, often conflicting."""
    values = st.one_of(*[st.just(0)] * blank_weight, st.integers(1, n))
    return draw(st.lists(values, min_size=n * n, max_size=n * n))


def board_of(cells, n, box, rules):
    if rules is not None and rules.regions is not None:
        return sr.Board(h.rows_of(cells, n), rules=rules)
    return sr.Board(h.rows_of(cells, n), box=box, rules=rules)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_conflicts_match_the_reference_under_any_rules(data):
    n, box = data.draw(st.sampled_from(SHAPES))
    rules = data.draw(st.one_of(st.none(), small_rules(n)))
    cells = noisy(data.draw, n, blank_weight=data.draw(st.integers(1, 4)))
    board = board_of(cells, n, box, rules)
    expected = vref.conflict_cells(cells, board.rules, n, *board.box)
    assert board.conflicts == [divmod(i, n) for i in expected]
    mask = _sudoku_rs._conflicts(h.rows_of(cells, n), **board._where())
    assert mask.shape == (n, n) and mask.dtype == np.bool_
    assert np.flatnonzero(mask).tolist() == expected


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_conflicts_under_windows_diagonals_and_moves_on_9x9(data):
    rules = sr.Rules(
        windows=data.draw(st.booleans()),
        diagonals=data.draw(st.booleans()),
        anti_king=data.draw(st.booleans()),
        anti_knight=data.draw(st.booleans()),
        non_consecutive=data.draw(st.booleans()),
    )
    cells = noisy(data.draw, 9, blank_weight=6)
    board = sr.Board(h.rows_of(cells, 9), rules=rules)
    expected = vref.conflict_cells(cells, board.rules, 9, 3, 3)
    assert board.conflicts == [divmod(i, 9) for i in expected]


def test_conflicts_of_a_large_board_and_a_valid_one():
    n = 16
    cells = h.random_puzzle(n, 4, 4, random.Random(3), 0.5)[0]
    assert sr.Board(h.rows_of(cells, n)).conflicts == []
    blank = cells.index(0)
    cells[blank] = next(v for v in cells if v)  # a clue repeated somewhere: the reference says
    expected = vref.conflict_cells(cells, None, n, 4, 4)
    assert expected and sr.Board(h.rows_of(cells, n)).conflicts == [divmod(i, n) for i in expected]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_apply_step_matches_the_reference(data):
    n, box = data.draw(st.sampled_from(SHAPES + [(9, (3, 3))]))
    seed = data.draw(st.integers(0, 10**6))
    cells = h.random_puzzle(n, *box, random.Random(seed), 0.6)[0]
    marks = lref.candidates(cells, n, *box)
    open_marks = [(i // n, i % n, d) for i in range(n * n) if not cells[i] for d in marks[i]]
    eliminations = data.draw(st.lists(st.sampled_from(open_marks), max_size=6))
    placements = data.draw(st.lists(st.sampled_from(open_marks), max_size=3))
    grid = h.rows_of(cells, n)
    bools = np.array(lref.as_bools(marks, n))
    after, after_marks = _sudoku_rs._apply_step(grid, bools, placements, eliminations, box=box)
    values, expected = lref.apply_step(cells, marks, placements, eliminations, n, *box)
    assert after.dtype == np.uint8 and after.reshape(-1).tolist() == values
    assert after_marks.tolist() == lref.as_bools(expected, n)
    assert bools.tolist() == lref.as_bools(marks, n)  # the input is left as it was


@pytest.mark.parametrize(
    ("puzzle", "n", "box"),
    [(h.TUTORIAL, 9, (3, 3)), (h.LEETCODE, 9, (3, 3))]
    + [(h.random_puzzle(n, *box, random.Random(n), 0.55)[0], n, box) for n, box in SHAPES],
)
def test_a_walkthrough_shows_the_reference_replay(puzzle, n, box):
    board = sr.Board(h.rows_of(puzzle, n), box=box)
    values, marks = list(puzzle), lref.candidates(puzzle, n, *box)
    walk = board.explain()
    assert len(walk) > 0
    for drawn in walk:
        assert drawn.board.to_list() == h.rows_of(values, n)
        assert drawn.candidates.tolist() == lref.as_bools(marks, n)
        assert not drawn.candidates.flags.writeable
        step = drawn.step
        values, marks = lref.apply_step(values, marks, step.placements, step.eliminations, n, *box)
        assert drawn.after.to_list() == h.rows_of(values, n)
    assert (0 not in values) == walk.explanation.solved


def test_apply_step_refuses_what_does_not_fit_the_grid():
    grid = h.rows_of(h.TUTORIAL, 9)
    marks = sr.candidates(grid)
    for bad in [(9, 0, 1), (0, 9, 1), (0, 2, 0), (0, 2, 10)]:
        with pytest.raises(ValueError, match="is not a \\(row, col, digit\\) of a 9x9 grid"):
            _sudoku_rs._apply_step(grid, marks, [bad], [])
        with pytest.raises(ValueError, match="is not a \\(row, col, digit\\) of a 9x9 grid"):
            _sudoku_rs._apply_step(grid, marks, [], [bad])
    with pytest.raises(sr.InvalidCandidatesError):
        _sudoku_rs._apply_step(grid, np.zeros((9, 9, 9), dtype=bool), [], [])
    with pytest.raises(sr.InvalidCandidatesError):
        _sudoku_rs._apply_step(grid, np.ones((4, 4, 4), dtype=bool), [], [])
