"""sr.grade_batch, sr.explain_batch and sr.write_traces against the one-puzzle sr.grade and
sr.explain, on every thread count."""

import json

import numpy as np
import pytest
from helpers import SAMPLE_DATA_DIR, read_lines

import sudoku_rs as sr

TOP = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
CONFLICT = "11" + "." * 79
# r1c9 must be 9, which r5c9 already holds: no conflict among the clues, but no solution.
NO_SOLUTION = "12345678." + "." * 27 + "........9" + "." * 36
EMPTY = "." * 81


def mixed():
    lines = []
    for name in ("gen_easy35", "gen_minimal", "puzzles2_17_clue", "puzzles3_magictour_top1465"):
        lines += read_lines(SAMPLE_DATA_DIR / name, 8)
    return lines + [TOP]


def expected_row(grade):
    return (grade.hardest or "", grade.score, grade.level, grade.solved, grade.unique)


LEVELS = ("easy", "medium", "hard", "expert", "extreme")
# Why a graded row has no level, as its level names it.
NO_LEVEL = {
    "invalid": sr.Status.INVALID,
    "no solution": sr.Status.NO_SOLUTION,
    "not unique": sr.Status.NOT_UNIQUE,
    "unsolved": sr.Status.UNSOLVED,
}


def expected_status(grade):
    return sr.Status.SOLVED if grade.level in LEVELS else NO_LEVEL[grade.level]


@pytest.mark.parametrize("threads", [1, 2])
def test_grade_batch_agrees_with_grade(threads):
    lines = mixed()
    got = sr.grade_batch(lines, threads=threads)
    assert got.dtype == sr.grade_batch([TOP]).dtype and got.shape == (len(lines),)
    rows = [tuple(r)[:5] for r in got.tolist()]
    assert rows == [expected_row(sr.grade(line)) for line in lines]
    assert got["status"].tolist() == [expected_status(sr.grade(line)) for line in lines]


def test_grade_batch_takes_arrays_and_techniques():
    lines = mixed()[:10]
    cells = np.array([[int(c) if c.isdigit() else 0 for c in line] for line in lines])
    for batch in (cells, cells.reshape(-1, 9, 9).astype(np.uint8)):
        assert (sr.grade_batch(batch) == sr.grade_batch(lines)).all()
    singles = ["full_house", "hidden_single", "naked_single"]
    got = sr.grade_batch(lines, techniques=singles)
    assert [tuple(r)[:5] for r in got.tolist()] == [
        expected_row(sr.grade(line, techniques=singles)) for line in lines
    ]
    with pytest.raises(ValueError, match="unknown technique 'nope'"):
        sr.grade_batch(lines, techniques=["nope"])


def test_rows_that_cannot_be_graded_say_why():
    hard = read_lines(SAMPLE_DATA_DIR / "puzzles3_magictour_top1465", 1)[0]
    singles = ["full_house", "hidden_single", "naked_single"]
    assert sr.grade(hard, techniques=singles).level == "unsolved"
    lines = [CONFLICT, "not a puzzle", NO_SOLUTION, EMPTY, "1" + "." * 80, hard]
    got = sr.grade_batch(lines, techniques=singles)
    assert got["level"].tolist() == [
        "invalid",
        "invalid",
        "no solution",
        "not unique",
        "not unique",
        "unsolved",
    ]
    assert got["status"].tolist() == [
        sr.Status.INVALID,
        sr.Status.INVALID,
        sr.Status.NO_SOLUTION,
        sr.Status.NOT_UNIQUE,
        sr.Status.NOT_UNIQUE,
        sr.Status.UNSOLVED,
    ]
    # The level of a row without one is its status's label, the one spelling of the outcome.
    assert got["level"].tolist() == [sr.Status(s).label for s in got["status"]]
    assert got["hardest"][0] == "" and not got["solved"][:3].any()
    assert sr.grade_batch([]).shape == (0,)


def test_sizes_other_than_nine():
    six = sr.generate(size=6, box=(2, 3), seed=3)
    sixteen = read_lines(SAMPLE_DATA_DIR / "gen_16x16", 2)
    assert sr.grade_batch([six], box=(2, 3))["level"][0] == sr.grade(six, box=(2, 3)).level
    assert sr.grade_batch(sixteen)["score"].tolist() == [sr.grade(p).score for p in sixteen]


@pytest.mark.parametrize("threads", [1, 2])
def test_explain_batch_is_explain_of_each_puzzle(threads):
    lines = mixed() + [CONFLICT, EMPTY]
    steps, grades = sr.explain_batch(lines, threads=threads)
    assert set(steps) == {
        "puzzle",
        "step",
        "technique",
        "placements",
        "eliminations",
        "text",
        "weight",
    }
    assert all(len(column) == len(steps["puzzle"]) for column in steps.values())
    expected = []
    for i, line in enumerate(lines[:-2]):
        for k, s in enumerate(sr.explain(line).steps):
            row = (i, k, s.technique, s.placements, s.eliminations, s.text, s.weight)
            expected.append(row)
    got = list(
        zip(
            steps["puzzle"].tolist(),
            steps["step"].tolist(),
            steps["technique"].tolist(),
            steps["placements"].tolist(),
            steps["eliminations"].tolist(),
            steps["text"].tolist(),
            steps["weight"].tolist(),
        )
    )
    got = [(a, b, c, list(d), list(e), f, g) for a, b, c, d, e, f, g in got]
    # The empty grid is explained as far as logic goes: nothing (no clue to reason from).
    assert got == expected
    assert (grades == sr.grade_batch(lines)).all()


def test_traces_are_the_same_for_every_thread_count():
    lines = mixed() * 3
    one = sr.explain_batch(lines, threads=1)
    two = sr.explain_batch(lines, threads=2)
    for name in one.steps:
        assert one.steps[name].tolist() == two.steps[name].tolist(), name
    assert (one.grades == two.grades).all()


def test_write_traces(tmp_path):
    lines = mixed()[:5] + [CONFLICT]
    path = tmp_path / "traces.jsonl"
    assert sr.write_traces(path, lines, threads=2) == len(lines)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [r["index"] for r in records] == list(range(len(lines)))
    for line, record in zip(lines, records):
        if record["level"] == "invalid":
            assert record["steps"] == [] and record["status"] == sr.Status.INVALID
            continue
        explanation = sr.explain(line)
        assert record["solved"] == explanation.solved
        assert record["level"] == explanation.grade.level
        assert [s["technique"] for s in record["steps"]] == [s.technique for s in explanation.steps]
        assert [[tuple(p) for p in s["placements"]] for s in record["steps"]] == [
            s.placements for s in explanation.steps
        ]
    # A failed run leaves the file as it was.
    before = path.read_text()
    with pytest.raises(TypeError):
        sr.write_traces(path, 42)
    assert path.read_text() == before
