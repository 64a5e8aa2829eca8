"""Variant rules: the `Rules` value, and every solving call under rules checked against the
pure-Python reference in tests/variant_reference.py."""

import copy
import functools
import operator
import pickle

import numpy as np
import pytest
import variant_reference as ref
from helpers import Interrupted
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from published_variants import JANKO_108_REGIONS

import sudoku_rs as sr

EMPTY9 = "." * 81


def flat(grid):
    return [0 if ch == "." else int(ch, 36) for ch in grid]


# ------------------------------------------------------------------ the Rules value


def test_rules_are_values():
    a = sr.Rules(diagonals=True, anti_knight=True, cages=[(3, [(0, 0), (0, 1)])])
    b = sr.Rules(anti_knight=True, diagonals=True, cages=[(3, ((0, 0), (0, 1)))])
    assert a == b and hash(a) == hash(b)
    assert a != sr.Rules.x()
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.deepcopy(a) == a
    assert eval(repr(a), {"Rules": sr.Rules}) == a
    assert a.diagonals and a.anti_knight and not a.anti_king and not a.windows
    assert a.cages == ((3, ((0, 0), (0, 1))),)
    assert a.regions is None and a.extra_regions == () and a.size is None
    with pytest.raises(AttributeError):
        a.diagonals = False  # type: ignore[misc]
    assert sr.Rules() == sr.Rules.classic() and sr.Rules().is_classic
    assert repr(sr.Rules()) == "Rules()"
    assert sr.Rules.x() == sr.Rules(diagonals=True)
    assert sr.Rules.windoku() == sr.Rules(windows=True) and sr.Rules.windoku().size == 9


def test_regions_in_every_form_are_one_partition():
    strings = ["aabb", "aabb", "ccdd", "ccdd"]
    ints = [[7, 7, 3, 3], [7, 7, 3, 3], [1, 1, 0, 0], [1, 1, 0, 0]]
    forms = [strings, ints, np.array(ints, dtype=np.int16), tuple(map(tuple, ints))]
    rules = [sr.Rules(regions=f) for f in forms]
    assert all(r == rules[0] for r in rules)
    assert rules[0].regions == [[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]]
    assert rules[0].size == 4
    assert sr.Rules.jigsaw(strings) == rules[0]
    assert eval(repr(rules[0]), {"Rules": sr.Rules}) == rules[0]


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"regions": [[0] * 4] * 4}, "only one label"),
        ({"regions": ["aabb", "aabb", "ccdd"]}, "row 0 has 4"),
        ({"regions": ["aaab", "bbbb", "ccdd", "ccdd"]}, "4 cells each"),
        ({"cages": [(2, [(0, 0), (0, 1)])]}, "at least 3"),
        ({"cages": [(3, [(0, 0), (0, 0)])]}, "twice"),
        ({"cages": [(3, [])]}, "no cells"),
        ({"cages": [(-3, [(0, 0)])]}, "positive"),
        ({"cages": [(3, [(0, 0), (0, 1)]), (4, [(0, 1), (1, 1)])]}, "overlap"),
        ({"extra_regions": [[(0, -1)]]}, "count from 0"),
        ({"extra_regions": [[]]}, "no cells"),
        ({"windows": True, "regions": ["aabb", "aabb", "ccdd", "ccdd"]}, "windows"),
    ],
)
def test_rules_that_cannot_hold_are_refused(kwargs, says):
    with pytest.raises(sr.InvalidRulesError, match=says):
        sr.Rules(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"diagonals": 1},
        {"cages": [(3.0, [(0, 0), (0, 1)])]},
        {"cages": [(3, [(0, 0, 1)])]},
        {"cages": 5},
        {"regions": [[0.5] * 4] * 4},
        {"extra_regions": ["ab"]},
    ],
)
def test_rules_of_the_wrong_type_raise_type_error(kwargs):
    with pytest.raises(TypeError):
        sr.Rules(**kwargs)


def test_rules_must_fit_the_grid():
    with pytest.raises(sr.InvalidRulesError, match="outside the 4x4 grid"):
        sr.solve("." * 16, rules=sr.Rules(extra_regions=[[(0, 0), (4, 0)]]))
    with pytest.raises(sr.InvalidRulesError, match=r"3..17"):
        sr.solve(EMPTY9, rules=sr.Rules(cages=[(18, [(0, 0), (0, 1)])]))
    with pytest.raises(sr.InvalidRulesError, match="leave box out"):
        sr.solve("." * 16, box=(2, 2), rules=sr.Rules.jigsaw(["aabb", "aabb", "ccdd", "ccdd"]))
    with pytest.raises(sr.InvalidRulesError, match="regions are 4x4, but the grid is 9x9"):
        sr.solve(EMPTY9, rules=sr.Rules.jigsaw(["aabb", "aabb", "ccdd", "ccdd"]))
    with pytest.raises(sr.InvalidRulesError):
        sr.is_valid("." * 16, rules=sr.Rules.windoku())
    with pytest.raises(TypeError):
        sr.solve(EMPTY9, rules={"diagonals": True})


def test_conflicts_name_the_rule():
    knight = sr.Rules(anti_knight=True)
    grid = "..5" + "." * 10 + "5" + "." * 67
    assert sr.is_valid(grid) and not sr.is_valid(grid, rules=knight)
    with pytest.raises(sr.InvalidPuzzleError, match=r"^anti-knight: \(0, 2\) and \(1, 4\)"):
        sr.solve(grid, rules=knight)
    cage = sr.Rules(cages=[(3, [(0, 0), (0, 1)])])
    with pytest.raises(sr.InvalidPuzzleError, match="killer cage: cage 0 adds up to 6"):
        sr.count_solutions("15" + "." * 79, rules=cage)


def test_classic_rules_are_the_classic_answers():
    puzzle = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    assert sr.solve(puzzle, rules=sr.Rules()) == sr.solve(puzzle) == sr.solve(puzzle, rules=None)


# ------------------------------------------------------------------ against the reference


def check_against_reference(cells, rules, n, box, limit):
    """sr and the reference agree on validity, the count up to `limit`, and each solution."""
    rows, cols = box
    text = "".join(ref_char(v) for v in cells)
    kw = {} if (rules is not None and rules.regions is not None) or n in (4, 9) else {"box": box}
    if ref.broken(cells, rules, n, rows, cols):
        assert not sr.is_valid(text, rules=rules, **kw)
        with pytest.raises(sr.InvalidPuzzleError):
            sr.count_solutions(text, rules=rules, **kw)
        return
    assert sr.is_valid(text, rules=rules, **kw)
    want = ref.count_solutions(cells, rules, n, rows, cols, limit=limit)
    assert sr.count_solutions(text, limit=limit, rules=rules, **kw) == want
    found = sr.solutions(text, limit=limit, rules=rules, **kw)
    assert len(found) == want
    assert len(set(found)) == want
    for solution in found:
        assert ref.is_solution(cells, flat(solution), rules, n, rows, cols)


def ref_char(v):
    return "." if v == 0 else "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v - 1]


@st.composite
def small_rules(draw, n):
    cells = [(r, c) for r in range(n) for c in range(n)]
    regions = None
    if draw(st.booleans()):
        # Any partition into n sets of n cells (regions need not be connected).
        order = draw(st.permutations(range(n * n)))
        labels = [0] * (n * n)
        for k, i in enumerate(order):
            labels[i] = k // n
        regions = [labels[r * n : (r + 1) * n] for r in range(n)]
    extra = []
    if draw(st.booleans()):
        size = draw(st.integers(2, n))
        extra = [draw(st.lists(st.sampled_from(cells), min_size=size, max_size=size, unique=True))]
    cages = []
    free = list(cells)
    for _ in range(draw(st.integers(0, 3))):
        size = draw(st.integers(1, 3))
        chosen = draw(st.lists(st.sampled_from(free), min_size=size, max_size=size, unique=True))
        free = [c for c in free if c not in chosen]
        low, high = size * (size + 1) // 2, sum(range(n - size + 1, n + 1))
        cages.append((draw(st.integers(low, high)), chosen))
    return sr.Rules(
        diagonals=draw(st.booleans()),
        regions=regions,
        extra_regions=extra,
        anti_knight=draw(st.booleans()),
        anti_king=draw(st.booleans()),
        non_consecutive=draw(st.booleans()),
        cages=cages,
    )


def drawn_givens(data, n, most):
    """An n x n grid with up to `most` drawn givens, any digit in any cell (rules may break)."""
    givens = data.draw(
        st.lists(st.tuples(st.integers(0, n * n - 1), st.integers(1, n)), max_size=most)
    )
    cells = [0] * (n * n)
    for i, v in givens:
        cells[i] = v
    return cells


def solution_with_blanks(data, rules, most):
    """A 6x6 puzzle made from a solution under `rules` (which the reference checks) with up to
    `most` drawn cells blanked; None when the solver finds no solution within its budget."""
    kw = {} if rules.regions is not None else {"box": (2, 3)}
    try:
        solution = flat(sr.solve("." * 36, rules=rules, max_guesses=10_000, **kw))
    except (sr.NoSolutionError, sr.GuessLimitError):
        return None
    assert ref.is_solution([0] * 36, solution, rules, 6, 2, 3)
    blanks = data.draw(st.lists(st.integers(0, 35), max_size=most, unique=True))
    return [0 if i in blanks else v for i, v in enumerate(solution)]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_4x4_counts_match_the_reference(data):
    rules = data.draw(small_rules(4))
    check_against_reference(drawn_givens(data, 4, 4), rules, 4, (2, 2), limit=300)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_6x6_counts_match_the_reference(data):
    rules = data.draw(small_rules(6))
    cells = solution_with_blanks(data, rules, 18)
    if cells is not None:
        check_against_reference(cells, rules, 6, (2, 3), limit=50)


@st.composite
def pair_rules(draw, n):
    """Pair relations on orthogonal neighbours (black and white dots, X and V, minimum cells)
    with or without the negative constraints: what the variant engine points through."""
    pairs = [((r, c), (r, c + 1)) for r in range(n) for c in range(n - 1)]
    pairs += [((r, c), (r + 1, c)) for r in range(n - 1) for c in range(n)]
    marked = draw(st.lists(st.sampled_from(pairs), max_size=4, unique=True))
    ratios, differences, xv = [], [], []
    for a, b in marked:
        kind = draw(st.sampled_from(["ratio", "difference", "xv"]))
        if kind == "ratio":
            ratios.append((a, b, draw(st.sampled_from([2, 3]))))
        elif kind == "difference":
            differences.append((a, b, draw(st.integers(1, 2))))
        else:
            xv.append((a, b, "V" if n < 9 else draw(st.sampled_from("XV"))))
    cells = [(r, c) for r in range(n) for c in range(n)]
    minimum = draw(st.lists(st.sampled_from(cells), max_size=1))
    return sr.Rules(
        ratios=ratios,
        differences=differences,
        xv=xv,
        negative_ratio=draw(st.booleans()),
        negative_xv=draw(st.booleans()),
        minimum_cells=minimum,
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_pair_relations_count_as_the_reference_on_4x4(data):
    rules = data.draw(pair_rules(4))
    check_against_reference(drawn_givens(data, 4, 3), rules, 4, (2, 2), limit=300)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_pair_relations_count_as_the_reference_on_6x6(data):
    rules = data.draw(pair_rules(6))
    cells = solution_with_blanks(data, rules, 20)
    if cells is not None:
        check_against_reference(cells, rules, 6, (2, 3), limit=50)


NINE_BY_NINE = [
    sr.Rules.x(),
    sr.Rules.windoku(),
    sr.Rules(anti_knight=True),
    sr.Rules(anti_king=True),
    sr.Rules(non_consecutive=True),
    sr.Rules(diagonals=True, anti_knight=True),
]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_9x9_counts_match_the_reference(data):
    rules = data.draw(st.sampled_from(NINE_BY_NINE))
    solution = flat(sr.solve(EMPTY9, rules=rules))
    assert ref.is_solution([0] * 81, solution, rules, 9, 3, 3)
    blanks = data.draw(st.lists(st.integers(0, 80), max_size=30, unique=True))
    cells = [0 if i in blanks else v for i, v in enumerate(solution)]
    # A clue changed to another digit: often breaks a rule, sometimes a new puzzle.
    if data.draw(st.booleans()):
        i = data.draw(st.integers(0, 80))
        cells[i] = data.draw(st.integers(0, 9))
    check_against_reference(cells, rules, 9, (3, 3), limit=20)


# ------------------------------------------------------------------ batches, budgets, threads


def generated(rules, count=4, seed=5, **kw):
    return sr.generate_batch(count, seed=seed, rules=rules, **kw)


JIGSAW9 = sr.Rules.jigsaw(JANKO_108_REGIONS)


# Non-consecutive and diagonals with anti-knight generate slowly (about a second a puzzle);
# the small-grid generation test covers them.
QUICK = NINE_BY_NINE[:4] + [JIGSAW9]


@pytest.mark.parametrize("rules", QUICK)
def test_batches_agree_with_single_calls_on_any_thread_count(rules):
    puzzles = generated(rules)
    lines = ["".join(".123456789"[v] for v in p.reshape(-1)) for p in puzzles]
    single = [sr.solve(line, rules=rules) for line in lines]
    for threads in (1, 2, None):
        assert sr.solve_batch(lines, rules=rules, threads=threads) == single
        solved = sr.solve_batch(puzzles, rules=rules, threads=threads)
        assert ["".join(map(str, s.reshape(-1))) for s in solved] == single
        counts = sr.count_solutions_batch(puzzles, rules=rules, threads=threads)
        assert counts.tolist() == [1] * len(lines)


def test_batch_rows_that_break_a_rule_are_invalid():
    knight = sr.Rules(anti_knight=True)
    clash = "..5" + "." * 10 + "5" + "." * 67
    solved, status = sr.solve_batch([clash, EMPTY9, "bad"], rules=knight, status=True)
    assert solved[0] is None and solved[1] is not None and solved[2] is None
    assert status.tolist() == [1, 0, 1]
    counts, status = sr.count_solutions_batch([clash, "1" * 81], rules=knight, status=True)
    assert counts.tolist() == [0, 0] and status.tolist() == [1, 1]
    with pytest.raises(sr.InvalidRulesError):
        sr.solve_batch(["." * 16], rules=sr.Rules.windoku())


def test_guess_budgets_hold_under_rules():
    x = sr.Rules.x()
    with pytest.raises(sr.GuessLimitError):
        sr.count_solutions(EMPTY9, rules=x, max_guesses=50)
    counts, status = sr.count_solutions_batch(
        [EMPTY9], rules=x, limit=10**6, max_guesses=50, status=True
    )
    assert counts.tolist() == [-1] and status.tolist() == [3]
    # Within the budget the answer is exact.
    assert sr.count_solutions(EMPTY9, rules=x, limit=3, max_guesses=10**6) == 3


def test_threads_with_different_rules_do_not_mix():
    from concurrent.futures import ThreadPoolExecutor

    cases = [(rules, line) for rules in NINE_BY_NINE for line in [EMPTY9]]
    want = [sr.solve(line, rules=rules) for rules, line in cases]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            got = list(pool.map(lambda c: sr.solve(c[1], rules=c[0]), cases * 4))
            assert got == want * 4


def test_bad_input_is_refused_as_for_classic():
    x = sr.Rules.x()
    for bad in ["." * 80, [[0] * 8] * 9, np.zeros((9, 8), int)]:
        with pytest.raises(sr.InvalidPuzzleError):
            sr.solve(bad, rules=x)
        assert not sr.is_valid(bad, rules=x)
    with pytest.raises(TypeError):
        sr.solve(3.5, rules=x)


def test_results_come_back_in_the_kind_that_came_in():
    x = sr.Rules.x()
    line = sr.solve(EMPTY9, rules=x)
    grid = np.zeros((9, 9), np.int16)
    out = sr.solve(grid, rules=x)
    assert out.dtype == np.int16 and "".join(map(str, out.reshape(-1))) == line
    rows = sr.solve([[0] * 9 for _ in range(9)], rules=x)
    assert "".join(str(v) for row in rows for v in row) == line
    assert not grid.any()


# ------------------------------------------------------------------ generation


@pytest.mark.parametrize("rules", QUICK)
def test_generated_variant_puzzles_are_unique_and_seeded(rules):
    a = sr.generate(rules=rules, seed=11)
    assert a == sr.generate(rules=rules, seed=11)
    assert a != sr.generate(rules=rules, seed=12)
    assert sr.count_solutions(a, rules=rules, limit=2) == 1
    solution = flat(sr.solve(a, rules=rules))
    assert ref.is_solution(flat(a), solution, rules, 9, 3, 3)
    assert sr.generate_batch(2, rules=rules, seed=11)[0].reshape(-1).tolist() == flat(a)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_small_puzzles_are_unique_by_the_reference(data):
    n, box = data.draw(st.sampled_from([(4, (2, 2)), (6, (2, 3))]))
    rules = data.draw(small_rules(n))
    kw = {} if rules.regions is not None else {"box": box, "size": n}
    try:
        puzzle = sr.generate(rules=rules, seed=data.draw(st.integers(0, 2**64 - 1)), **kw)
    except sr.GenerateError:
        # Only rules no grid meets: the reference agrees there is none.
        if n == 4:
            assert ref.count_solutions([0] * 16, rules, 4, 2, 2, limit=1) == 0
        return
    assert ref.count_solutions(flat(puzzle), rules, n, *box, limit=2) == 1


def test_killer_puzzles_dig_as_deep_as_the_cages_allow():
    grid = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]
    shapes = [[(0, 0), (1, 0)], [(0, 1), (0, 2)], [(0, 3), (1, 3), (1, 2)], [(1, 1)]]
    shapes += [[(2, 0), (2, 1)], [(3, 0), (3, 1)], [(2, 2)], [(2, 3)], [(3, 2), (3, 3)]]
    rules = sr.Rules.killer([(sum(grid[r][c] for r, c in cells), cells) for cells in shapes])
    assert ref.is_solution([0] * 16, functools.reduce(operator.iadd, grid, []), rules, 4, 2, 2)
    for seed in range(5):
        puzzle = sr.generate(rules=rules, seed=seed, size=4)
        assert ref.count_solutions(flat(puzzle), rules, 4, 2, 2, limit=2) == 1
    if ref.count_solutions([0] * 16, rules, 4, 2, 2, limit=2) == 1:
        assert sr.generate(rules=rules, seed=0, size=4) == "." * 16


def test_generation_refuses_what_cannot_be():
    with pytest.raises(sr.GenerateError, match="no grid"):
        # Both cages need the digits 1 and 2, in one row.
        cages = [(3, [(0, 0), (0, 1)]), (3, [(0, 2), (0, 3)])]
        sr.generate(size=4, rules=sr.Rules.killer(cages))
    with pytest.raises(sr.InvalidRulesError):
        sr.generate(size=4, rules=sr.Rules.windoku())
    assert len(sr.generate(rules=sr.Rules.windoku(), seed=3)) == 81
    six = sr.Rules.jigsaw(["aaabbb", "aaabbb", "cccddd", "cccddd", "eeefff", "eeefff"])
    assert len(sr.generate(rules=six, seed=3)) == 36


# ------------------------------------------------------------------ Ctrl-C and boards


def test_ctrl_c_stops_a_variant_count_and_batch(alarm):
    import time

    alarm(0.2)
    start = time.perf_counter()
    with pytest.raises(Interrupted):
        sr.count_solutions(EMPTY9, rules=sr.Rules.x())  # every X-Sudoku: runs for ages
    assert time.perf_counter() - start < 3
    alarm(0.3)
    start = time.perf_counter()
    with pytest.raises(Interrupted):
        sr.count_solutions_batch(
            np.zeros((16, 81), np.uint8), rules=sr.Rules(anti_king=True), limit=10**12, threads=2
        )
    assert time.perf_counter() - start < 3
    assert sr.count_solutions(EMPTY9, rules=sr.Rules.x(), limit=2) == 2


def test_boards_carry_their_rules():
    x = sr.Rules.x()
    board = sr.Board(EMPTY9, rules=x)
    assert board.rules == x and sr.Board(EMPTY9).rules is None
    assert board.solve().to_string() == sr.solve(EMPTY9, rules=x)
    assert board.solve().rules == x
    assert board.count_solutions(limit=3) == 3 and not board.is_unique()
    assert board != sr.Board(EMPTY9)
    assert pickle.loads(pickle.dumps(board)) == board
    assert "rules=Rules(diagonals=True)" in repr(board)
    knight = sr.Board("..5" + "." * 10 + "5" + "." * 67, rules=sr.Rules(anti_knight=True))
    assert not knight.is_valid()
    assert knight.conflicts == [(0, 2), (1, 4)]
    assert sr.Board("..5" + "." * 10 + "5" + "." * 67).conflicts == []
    jig = sr.Rules.jigsaw(["aaabbb", "aaabbb", "cccddd", "cccddd", "eeefff", "eeefff"])
    assert sr.Board("." * 36, rules=jig).solve().to_string() == sr.solve("." * 36, rules=jig)


def test_board_logic_refuses_variant_rules():
    board = sr.Board("." * 81, rules=sr.Rules.x())
    with pytest.raises(sr.InvalidRulesError, match="hint follows classic rules"):
        board.hint()
    with pytest.raises(sr.InvalidRulesError, match="explain follows classic rules"):
        board.explain()


def test_board_svg_draws_rules_and_refuses_classic_pencil_marks():
    plain = sr.Board("." * 81).to_svg()
    drawn = sr.Board("." * 81, rules=sr.Rules.x()).to_svg()
    assert drawn != plain
    with pytest.raises(sr.InvalidRulesError, match="pencil=True follows classic rules"):
        sr.Board("." * 81, rules=sr.Rules.x()).to_svg(pencil=True)


# ------------------------------------------------------------------ prime sides, cells in no region


@st.composite
def regions_of_side(draw, n, holes=True):
    """Any partition of an n x n grid into n sets of n cells, some cells then in no region."""
    order = draw(st.permutations(range(n * n)))
    labels = [0] * (n * n)
    for k, i in enumerate(order):
        labels[i] = k // n
    if holes:
        for i in draw(st.lists(st.integers(0, n * n - 1), max_size=3, unique=True)):
            labels[i] = None
    return [labels[r * n : (r + 1) * n] for r in range(n)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_5x5_jigsaw_counts_match_the_reference(data):
    # A prime side has no box; its regions are all there is besides rows and columns.
    rules = sr.Rules(regions=data.draw(regions_of_side(5)))
    # Start from a solution when there is one (the reference checks it), then blank cells.
    try:
        solution = flat(sr.solve("." * 25, rules=rules))
    except sr.NoSolutionError:
        return
    assert ref.is_solution([0] * 25, solution, rules, 5, 1, 5)
    blanks = data.draw(st.lists(st.integers(0, 24), max_size=14, unique=True))
    cells = [0 if i in blanks else v for i, v in enumerate(solution)]
    if data.draw(st.booleans()):
        cells[data.draw(st.integers(0, 24))] = data.draw(st.integers(0, 5))
    check_against_reference(cells, rules, 5, (1, 5), limit=40)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_cells_in_no_region_count_as_the_reference_says(data):
    rules = sr.Rules(regions=data.draw(regions_of_side(4)), anti_king=data.draw(st.booleans()))
    givens = data.draw(st.lists(st.tuples(st.integers(0, 15), st.integers(1, 4)), max_size=3))
    cells = [0] * 16
    for i, v in givens:
        cells[i] = v
    check_against_reference(cells, rules, 4, (2, 2), limit=300)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_latin_squares_of_a_prime_side_count_as_the_reference_says(data):
    # box=(1, n): the boxes are the rows, f-puzzles' default regions on a prime side.
    n = data.draw(st.sampled_from([3, 5]))
    cells = [0] * (n * n)
    for i, v in data.draw(st.lists(st.tuples(st.integers(0, n * n - 1), st.integers(1, n)))):
        cells[i] = v
    rules = data.draw(st.sampled_from([None, sr.Rules(diagonals=True), sr.Rules(anti_king=True)]))
    text = "".join(ref_char(v) for v in cells)
    if ref.broken(cells, rules, n, 1, n):
        assert not sr.is_valid(text, box=(1, n), rules=rules)
        return
    want = ref.count_solutions(cells, rules, n, 1, n, limit=60)
    assert sr.count_solutions(text, box=(1, n), rules=rules, limit=60) == want
    for solution in sr.solutions(text, box=(1, n), rules=rules, limit=60):
        assert ref.is_solution(cells, flat(solution), rules, n, 1, n)


def test_latin_square_totals():
    assert sr.count_solutions("." * 9, box=(1, 3), limit=100) == 12
    assert sr.count_solutions("." * 25, box=(1, 5), limit=200_000) == 161_280


def test_prime_sides_need_rows_as_boxes_or_regions():
    with pytest.raises(sr.InvalidPuzzleError, match=r"box=\(1, 7\) for rows as boxes"):
        sr.solve("." * 49)
    # Rows as boxes only where no real box exists.
    with pytest.raises(sr.InvalidPuzzleError, match="at least 2"):
        sr.solve("." * 81, box=(1, 9))
    five = ["11122", "11222", "33344", "33544", "55554"]
    rules = sr.Rules(regions=five)
    assert rules.size == 5
    puzzle = sr.generate(rules=rules, seed=4)
    assert sr.is_unique(puzzle, rules=rules)
    assert sr.parse_rules(sr.format_rules(rules)) == rules
    with pytest.raises(sr.InvalidRulesError, match="both say where the boxes are"):
        sr.solve(puzzle, rules=rules, box=(1, 5))


def test_cells_in_no_region_in_every_form():
    rows = ["1.22", "1122", "3344", "3.44"]
    rules = sr.Rules(regions=rows)
    assert rules.regions == [[0, None, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, None, 3, 3]]
    assert sr.Rules(regions=rules.regions) == rules
    assert eval(repr(rules), {"Rules": sr.Rules}) == rules
    assert sr.format_rules(rules) == "regions=1.22112233443.44"
    assert sr.parse_rules(sr.format_rules(rules)) == rules
    # A region may be short where a cell is in none, never long.
    with pytest.raises(sr.InvalidRulesError, match="at most 4 cells"):
        sr.Rules(regions=["1.22", "1122", "3344", "3141"])
    board = sr.Board(sr.solve("." * 16, rules=rules), rules=rules)
    assert board.is_valid() and "<svg" in board.to_svg()


@pytest.mark.parametrize(
    ("loose", "clash"),
    [
        # (0, 0) in no region leaves box 0 a cell short; the band's other boxes hold each digit
        # once, so box 0 and (0, 0) together hold each digit once: two 5s there clash.
        ([(0, 0)], [(0, 0, 5), (1, 1, 5)]),
        # Two cells of one band in no region: the stacks' counts pair each with its box.
        ([(0, 0), (0, 4)], [(0, 0, 7), (2, 2, 7)]),
        ([(0, 0), (0, 4)], [(0, 4, 3), (2, 3, 3)]),
        # Two loose cells in one box: the box's seven cells and both hold each digit once.
        ([(4, 4), (5, 5)], [(4, 4, 1), (3, 3, 1)]),
    ],
)
def test_a_clash_only_counting_shows_is_found_without_search(loose, clash):
    regions = [[r // 3 * 3 + c // 3 for c in range(9)] for r in range(9)]
    for r, c in loose:
        regions[r][c] = None
    rules = sr.Rules(regions=regions)
    grid = [[0] * 9 for _ in range(9)]
    for r, c, d in clash[:1]:
        grid[r][c] = d
    assert sr.count_solutions(grid, rules=rules, limit=2, max_guesses=200) == 2
    for r, c, d in clash:
        grid[r][c] = d
    # Neither clue breaks a rule with the other, and no search is needed to see there is no
    # solution: it once took minutes.
    assert sr.is_valid(grid, rules=rules)
    assert sr.count_solutions(grid, rules=rules, limit=2, max_guesses=1) == 0


@pytest.mark.parametrize(
    "call",
    [
        lambda r: sr.solve("." * 81, rules=r),
        lambda r: sr.is_valid("." * 81, rules=r),
        lambda r: sr.generate(rules=r, seed=1),
        lambda r: sr.solve_batch(["." * 81], rules=r),
        lambda r: sr.Board("." * 81, rules=r),
    ],
    ids=["solve", "is_valid", "generate", "solve_batch", "Board"],
)
def test_rules_must_be_a_rules_object(call):
    with pytest.raises(
        TypeError, match=r"rules must be a sudoku_rs.Rules or None, got str; .*parse_rules"
    ):
        call("diagonals")
    with pytest.raises(TypeError, match=r"rules must be a sudoku_rs.Rules or None, got int"):
        call(3)


def test_jigsaw_board_repr_reads_back_and_str_has_no_box_lines():
    rules = sr.Rules(regions=["111222", "113322", "133424", "335444", "555664", "556666"])
    board = sr.Board(sr.generate(rules=rules, seed=1), rules=rules)
    # The box would be refused beside the regions, so the repr leaves it out.
    assert "box=" not in repr(board)
    assert eval(repr(board), {"Board": sr.Board, "Rules": sr.Rules}) == board
    # Box lines would cut across the regions: the text grid has none.
    text = str(board)
    assert "|" not in text and "-" not in text
    assert text.split() == list(board.to_string())
    x = sr.Board("." * 81, rules=sr.Rules.x())
    assert "box=(3, 3)" in repr(x) and eval(repr(x), {"Board": sr.Board, "Rules": sr.Rules}) == x
    assert "|" in str(x)
