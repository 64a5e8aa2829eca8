"""sr.generate(level=..., techniques=...): puzzles for a logical target, seeded."""

import pytest

import sudoku_rs as sr


def line(cells):
    return "".join(str(v) if v else "." for v in cells.reshape(-1).tolist())


PAIRS = ["full_house", "hidden_single", "naked_single", "naked_pair", "hidden_pair"]


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_level_is_met_and_the_seed_decides(level):
    puzzle = sr.generate(level=level, seed=11)
    assert sr.grade(puzzle).level == level
    assert sr.is_unique(puzzle)
    assert sr.generate(level=level, seed=11) == puzzle
    batch = sr.generate_batch(3, level=level, seed=11, threads=2)
    assert line(batch[0]) == puzzle
    assert [sr.grade(p).level for p in batch] == [level] * 3
    assert (sr.generate_batch(3, level=level, seed=11, threads=1) == batch).all()


def test_only_the_listed_techniques():
    for seed in range(3):
        puzzle = sr.generate(techniques=PAIRS, seed=seed)
        assert sr.grade(puzzle, techniques=PAIRS).solved
        assert sr.is_unique(puzzle)
    medium = sr.generate(techniques=PAIRS, level="medium", seed=4, symmetry="rotate180")
    assert sr.grade(medium).level == "medium"
    assert sr.grade(medium, techniques=PAIRS).solved


def test_other_sizes_and_clue_counts():
    six = sr.generate(size=6, box=(2, 3), level="easy", seed=1)
    assert sr.grade(six, box=(2, 3)).level == "easy"
    many = sr.generate(clues=40, level="easy", seed=1)
    assert sum(c != "." for c in many) == 40 and sr.grade(many).level == "easy"


def test_the_plain_generator_is_unchanged():
    # Without a logical target the seed contract stands: generate(seed=s) is batch row 0.
    plain = sr.generate(seed=3)
    assert sr.generate(seed=3, level=None, techniques=None) == plain
    assert line(sr.generate_batch(1, seed=3)[0]) == plain


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"level": "nope"}, "unknown level 'nope'"),
        ({"techniques": ["x_wing"]}, "must include a single"),
        ({"techniques": ["hidden_single"], "level": "hard"}, "no allowed technique"),
        ({"level": "easy", "minimal": True}, "minimal=True cannot be combined"),
        ({"level": "easy", "clues": 10}, "impossible"),
        ({"techniques": ["nope"]}, "unknown technique 'nope'"),
        ({"level": "easy", "rules": sr.Rules.x()}, "cannot be combined with rules="),
    ],
)
def test_impossible_targets_fail_at_once(kwargs, message):
    with pytest.raises(ValueError, match=message):
        sr.generate(seed=1, **kwargs)
    with pytest.raises(ValueError, match=message):
        sr.generate_batch(2, seed=1, **kwargs)


def test_out_of_reach_gives_up_after_bounded_attempts():
    # Singles alone never reach 17 clues.
    with pytest.raises(sr.GenerateError, match="after 200 attempts"):
        sr.generate(clues=18, techniques=["naked_single"], seed=1)


def test_difficulty_is_a_deprecated_alias_of_level():
    puzzle = sr.generate(level="medium", seed=5)
    with pytest.warns(DeprecationWarning, match=r"use level="):
        assert sr.generate(difficulty="medium", seed=5) == puzzle
    with pytest.warns(DeprecationWarning, match=r"generate_batch\(difficulty=.*use level="):
        batch = sr.generate_batch(2, difficulty="medium", seed=5)
    assert (batch == sr.generate_batch(2, level="medium", seed=5)).all()
    assert line(batch[0]) == puzzle


@pytest.mark.parametrize("make", [sr.generate, lambda **kw: sr.generate_batch(1, **kw)])
def test_level_and_difficulty_together_are_a_type_error(make):
    with pytest.raises(TypeError, match="not both"):
        make(level="easy", difficulty="easy", seed=1)
