"""sr.candidates, sr.hint, sr.explain and sr.grade against the plain model in logic_reference.py
and the reference solver."""

import pickle
import re
from functools import cache
from itertools import islice

import logic_reference as lr
import numpy as np
import pytest
import reference as ref
from helpers import data_dir, make_input, read_lines, spread_lines

import sudoku_rs as sr

TOP = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
SINGLES = ["full_house", "hidden_single", "naked_single"]
SIX = "1.....\n..3...\n....5.\n.2....\n...4..\n.....6"


@cache
def solution_of(line):
    """The reference solver's solution, checked to be the only one."""
    cells = ref.parse81(line)
    solutions = list(islice(ref.iter_solutions(cells, 9, 3, 3), 2))
    assert len(solutions) == 1
    return solutions[0]


def unique_samples():
    """Puzzles from every unique set, easy to hardest, picked (by line number in the tests/data
    samples) among those the reference solver proves unique in well under a second or two."""
    lines = []
    for name, picks in (
        ("gen_easy35", (0, 1, 2)),
        ("gen_minimal", (0, 1, 4)),
        ("puzzles2_17_clue", (1, 3, 5)),
        ("puzzles3_magictour_top1465", (0,)),
        ("puzzles5_forum_hardest_1905_11+", (1, 3, 5)),
        ("puzzles6_forum_hardest_1106", (1,)),
    ):
        sample = read_lines(data_dir() / name, 6)
        lines += [sample[i] for i in picks]
    return lines


# ---------------------------------------------------------------- candidates


@pytest.mark.parametrize("kind", ["ints", "strs", "text", "numpy"])
def test_candidates_follow_the_definition(kind):
    cells = ref.parse81(TOP)
    got = sr.candidates(make_input(cells, 9, kind))
    assert got.dtype == np.bool_ and got.shape == (9, 9, 9)
    assert got.tolist() == lr.as_bools(lr.candidates(cells, 9, 3, 3), 9)


@pytest.mark.parametrize(
    ("text", "box", "n"),
    [(SIX, (2, 3), 6), ("1...\n..2.\n....\n...4", None, 4)],
)
def test_candidates_on_other_shapes(text, box, n):
    cells = ref.parse81(text)
    br, bc = box or (2, 2)
    got = sr.candidates(text, box=box)
    assert got.tolist() == lr.as_bools(lr.candidates(cells, n, br, bc), n)


def test_candidates_of_16x16():
    line = read_lines(data_dir() / "gen_16x16", 1)[0]
    cells = ref.parse81(line)
    assert sr.candidates(line).tolist() == lr.as_bools(lr.candidates(cells, 16, 4, 4), 16)


def test_hints_on_big_grids_replay_on_the_model():
    """gen_25x25 puzzles have several solutions; sound steps hold in every one of them."""
    line = read_lines(data_dir() / "gen_25x25", 1)[0]
    cells = ref.parse81(line)
    solution = ref.parse81(sr.solve(line))
    assert ref.is_solution(cells, solution, 25, 5, 5)
    values = cells
    for _ in range(5):
        step = sr.hint(ref.to_string(values))
        values, _ = lr.replay(values, [step], 25, 5, 5, solution)


def test_candidates_batch_stacks_single_results_and_blanks_bad_rows():
    lines = spread_lines(data_dir() / "puzzles2_17_clue", 5)
    bad = "11" + "." * 79
    got = sr.candidates_batch(lines + [bad])
    assert got.shape == (6, 9, 9, 9)
    for line, marks in zip(lines, got):
        assert np.array_equal(marks, sr.candidates(line))
    assert not got[5].any()
    array = np.array([ref.parse81(line) for line in lines], dtype=np.int8).reshape(5, 9, 9)
    assert np.array_equal(sr.candidates_batch(array, threads=2), got[:5])


def test_conflicting_or_malformed_grids_raise_like_solve():
    with pytest.raises(sr.InvalidPuzzleError, match="conflicting"):
        sr.candidates("11" + "." * 79)
    for f in (sr.candidates, sr.hint, sr.explain, sr.grade):
        with pytest.raises(sr.InvalidPuzzleError):
            f("1" * 80)
        with pytest.raises(sr.InvalidPuzzleError):
            f("11" + "." * 79)
        with pytest.raises(TypeError):
            f(3.5)


def test_marks_text_round_trips():
    marks = sr.candidates(TOP)
    text = sr.format_candidates(marks)
    assert len(text) == 729 and text[:9] == "...4....."
    assert np.array_equal(sr.parse_candidates(text), marks)
    assert np.array_equal(sr.parse_candidates(text.replace(".", "0")), marks)
    six = sr.candidates(SIX, box=(2, 3))
    assert len(sr.format_candidates(six)) == 216
    with pytest.raises(sr.InvalidCandidatesError, match="729"):
        sr.parse_candidates(text[:-1])
    with pytest.raises(sr.InvalidCandidatesError, match="r1c1"):
        sr.parse_candidates("5" + text[1:])
    assert issubclass(sr.InvalidCandidatesError, sr.InvalidPuzzleError)


# ---------------------------------------------------------------- soundness


@pytest.mark.parametrize("line", unique_samples())
def test_every_step_agrees_with_the_unique_solution(line):
    cells = ref.parse81(line)
    explanation = sr.explain(line)
    values, _ = lr.replay(cells, explanation.steps, 9, 3, 3, solution_of(line))
    assert explanation.solved == (0 not in values)
    assert explanation.remaining == [divmod(i, 9) for i, v in enumerate(values) if v == 0]
    assert explanation.grade == sr.grade(line)
    assert explanation.grade.unique
    assert explanation.grade.score == sum(s.weight for s in explanation.steps)


@pytest.mark.parametrize("line", unique_samples())
def test_each_technique_is_sound_alone_and_after_the_cheaper_ones(line):
    """Per technique, two runs: singles plus it, and every technique up to it in the table (so
    it fires as soon as the cheaper ones are stuck). The Rust tests check that each technique
    fires somewhere on the larger samples; here each step is replayed on the plain model."""
    cells = ref.parse81(line)
    names = [t for t, _, _ in sr.techniques()]
    for i, technique in enumerate(names):
        for allowed in (SINGLES + [technique], names[: i + 1]):
            steps = sr.explain(line, techniques=allowed).steps
            assert {s.technique for s in steps} <= set(allowed)
            lr.replay(cells, steps, 9, 3, 3, solution_of(line))


def test_rectangular_boxes_are_explained_soundly():
    for seed in range(8):
        puzzle = sr.generate(size=6, box=(2, 3), seed=seed)
        cells = ref.parse81(puzzle)
        solution = ref.solve_first(cells, 6, 2, 3)
        explanation = sr.explain(puzzle, box=(2, 3))
        assert explanation.solved
        lr.replay(cells, explanation.steps, 6, 2, 3, solution)


def test_a_hint_from_marks_continues_the_explanation():
    cells = ref.parse81(TOP)
    steps = sr.explain(TOP).steps
    solution = solution_of(TOP)
    for k in (0, 5, len(steps) - 1):
        values, marks = lr.replay(cells, steps[:k], 9, 3, 3, solution)
        grid = ref.to_string(values)
        bools = np.array(lr.as_bools(marks, 9))
        assert sr.hint(grid, candidates=bools) == steps[k]
        text = sr.format_candidates(bools)
        assert sr.hint(grid, candidates=text) == steps[k]
        assert sr.hint(grid, candidates=bools.astype(np.uint8)) == steps[k]


def test_explain_is_deterministic_and_grade_matches():
    a, b = sr.explain(TOP), sr.explain(TOP)
    assert a.steps == b.steps and a.grade == b.grade
    assert np.array_equal(a.candidates, b.candidates)
    assert sr.grade(TOP) == a.grade


# ---------------------------------------------------------------- steps


def test_step_difficulty_is_a_deprecated_alias_of_weight():
    step = sr.hint(TOP)
    with pytest.warns(DeprecationWarning, match="Step.weight"):
        assert step.difficulty == step.weight
    assert step._asdict()["weight"] == step.weight and "difficulty" not in step._fields


def test_hint_is_the_cheapest_step_and_reads_well():
    step = sr.hint(TOP)
    assert step.technique == "hidden_single"
    assert re.fullmatch(
        r"Hidden single: \d in (box|row|column) \d can only go in r\dc\d", step.text
    )
    assert step.weight == {t: w for t, w, _ in sr.techniques()}["hidden_single"]
    ((r, c, d),) = step.placements
    assert f"r{r + 1}c{c + 1}" in step.text and str(d) in step.text
    assert step.eliminations == [] and step.cells == [(r, c)]
    assert repr(step).startswith("<Step hidden_single: Hidden single")
    assert str(step) == step.text


def test_a_solved_grid_has_no_hint():
    solution = sr.solve(TOP)
    assert sr.hint(solution) is None
    explanation = sr.explain(solution)
    assert explanation.steps == [] and explanation.solved
    assert sr.grade(solution) == sr.Grade(None, 0, "easy", True, True)


def test_results_pickle():
    explanation = sr.explain(TOP, techniques=SINGLES + ["pointing"])
    step = explanation.steps[0]
    assert pickle.loads(pickle.dumps(step)) == step
    assert pickle.loads(pickle.dumps(explanation.grade)) == explanation.grade
    back = pickle.loads(pickle.dumps(explanation))
    assert back.steps == explanation.steps and back.grade == explanation.grade
    assert np.array_equal(back.candidates, explanation.candidates)
    assert "steps" in repr(explanation)


def test_techniques_table():
    table = sr.techniques()
    names = [t for t, _, _ in table]
    assert names[:3] == SINGLES
    assert len(set(names)) == len(names)
    weights = [w for _, w, _ in table]
    assert weights == sorted(weights)
    assert {level for _, _, level in table} <= {"easy", "medium", "hard", "expert", "extreme"}
    for required in ("pointing", "claiming", "naked_pair", "hidden_quad", "x_wing", "jellyfish"):
        assert required in names


def test_unknown_or_bad_technique_names():
    with pytest.raises(ValueError, match=r"unknown technique 'nope'.*hidden_single"):
        sr.hint(TOP, techniques=["nope"])
    with pytest.raises(TypeError):
        sr.hint(TOP, techniques=[3])
    assert sr.hint(TOP, techniques="pointing").technique == "pointing"  # one name alone


# ---------------------------------------------------------------- stuck, not unique, no solution


def test_stuck_explanations_say_where():
    hard = read_lines(data_dir() / "puzzles6_forum_hardest_1106", 1)[0]
    explanation = sr.explain(hard, techniques=SINGLES)
    assert not explanation.solved and explanation.remaining
    marks = explanation.candidates
    for r, c in explanation.remaining:
        assert marks[r, c].sum() >= 2
    graded = explanation.grade
    assert graded.level == "unsolved" and not graded.solved and graded.unique
    assert "stuck" in repr(explanation)


def test_a_puzzle_with_several_solutions_is_graded_not_unique():
    line = read_lines(data_dir() / "puzzles7_serg_benchmark", 1)[0]
    cells = ref.parse81(line)
    graded = sr.grade(line)
    assert graded.level == "not unique" and not graded.unique and not graded.solved
    explanation = sr.explain(line)
    assert not explanation.solved
    # Sound logic agrees with every solution.
    for solution in islice(ref.iter_solutions(cells, 9, 3, 3), 3):
        lr.replay(cells, explanation.steps, 9, 3, 3, solution)


def test_a_puzzle_without_solution_is_graded_so():
    cells = [0] * 81
    cells[:8] = range(1, 9)
    cells[4 * 9 + 8] = 9  # r1c9 needs 9, but column 9 already has it
    grid = ref.to_string(cells)
    graded = sr.grade(grid)
    assert graded.level == "no solution" and not graded.unique and not graded.solved
    explanation = sr.explain(grid)  # as far as logic goes
    assert not explanation.solved and explanation.grade == graded


# ---------------------------------------------------------------- bad marks


def test_marks_that_rule_out_the_solution_name_the_cell():
    marks = sr.candidates(TOP)
    solution = ref.parse81(sr.solve(TOP))
    marks[0, 1, solution[1] - 1] = False
    with pytest.raises(sr.InvalidCandidatesError, match=r"r1c2 .*one solution"):
        sr.hint(TOP, candidates=marks)


def test_malformed_marks_are_refused_clearly():
    marks = sr.candidates(TOP)
    with pytest.raises(sr.InvalidCandidatesError, match="shape"):
        sr.hint(TOP, candidates=marks[:8])
    empty = marks.copy()
    empty[0, 1] = False
    with pytest.raises(sr.InvalidCandidatesError, match="r1c2 is empty and has no candidates"):
        sr.hint(TOP, candidates=empty)
    given = marks.copy()
    given[0, 0] = False
    given[0, 0, 0] = True  # r1c1 holds 4
    with pytest.raises(sr.InvalidCandidatesError, match="r1c1 holds 4"):
        sr.explain(TOP, candidates=given)
    with pytest.raises(sr.InvalidCandidatesError, match="0/1"):
        sr.hint(TOP, candidates=marks.astype(np.int8) * 2)
    with pytest.raises(TypeError):
        sr.hint(TOP, candidates=marks.astype(float))
    with pytest.raises(sr.InvalidCandidatesError, match="4x4"):
        sr.hint(TOP, candidates="1234" * 16)
    # A filled cell may carry no marks, and stale marks are dropped.
    lenient = marks.copy()
    lenient[0, 0] = False
    lenient[0, 1] = True
    assert sr.hint(TOP, candidates=lenient) == sr.hint(TOP)
    assert sr.hint(TOP, candidates=marks.tolist()) == sr.hint(TOP)


def test_max_guesses_bounds_the_solution_count():
    """A stuck run counts solutions; on a hard puzzle one guess is not enough."""
    hard = read_lines(data_dir() / "puzzles6_forum_hardest_1106", 1)[0]
    with pytest.raises(sr.GuessLimitError):
        sr.grade(hard, techniques=SINGLES, max_guesses=1)
    with pytest.raises(sr.GuessLimitError):
        sr.explain(hard, techniques=SINGLES, max_guesses=1)
    with pytest.raises(ValueError, match="max_guesses"):
        sr.hint(hard, max_guesses=0)
    # Singles fill an easy grid without any search, so even one guess is plenty.
    easy = read_lines(data_dir() / "gen_easy35", 1)[0]
    assert sr.grade(easy, max_guesses=1).level == "easy"
    assert sr.hint(hard, max_guesses=1) is not None
