"""The argument module: every option means and says the same in every function (issue 14).
bool is not a number, None means "no limit", a bad size or box is one error everywhere, big
ints are values out of range (not OverflowError), and pyo3's own conversion messages never
reach users."""

import numpy as np
import pytest

import sudoku_rs as sr

LEETCODE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
ARRAY = np.array([[int(c) if c != "." else 0 for c in LEETCODE]] * 2)

# (name, a call taking the option as keyword arguments)
THREADS = [
    ("solve_batch", lambda **kw: sr.solve_batch([LEETCODE], **kw)),
    ("count_solutions_batch", lambda **kw: sr.count_solutions_batch([LEETCODE], **kw)),
    ("canonical_batch", lambda **kw: sr.canonical_batch([LEETCODE], **kw)),
    ("augment_batch", lambda **kw: sr.augment_batch(ARRAY, seed=1, **kw)),
    ("rate_batch", lambda **kw: sr.rate_batch([LEETCODE], **kw)),
    ("check_batch", lambda **kw: sr.check_batch([LEETCODE], [LEETCODE], **kw)),
    ("generate_batch", lambda **kw: sr.generate_batch(2, seed=1, **kw)),
]
LIMIT = [
    ("solutions", lambda **kw: sr.solutions(LEETCODE, **kw)),
    ("count_solutions", lambda **kw: sr.count_solutions(LEETCODE, **kw)),
    ("count_solutions_batch", lambda **kw: sr.count_solutions_batch([LEETCODE], **kw)),
]
MAX_GUESSES = [
    ("solve", lambda **kw: sr.solve(LEETCODE, **kw)),
    ("solutions", lambda **kw: sr.solutions(LEETCODE, **kw)),
    ("count_solutions", lambda **kw: sr.count_solutions(LEETCODE, **kw)),
    ("is_unique", lambda **kw: sr.is_unique(LEETCODE, **kw)),
    ("solve_batch", lambda **kw: sr.solve_batch([LEETCODE], **kw)),
    ("count_solutions_batch", lambda **kw: sr.count_solutions_batch([LEETCODE], **kw)),
]
SIZE = [
    ("generate", lambda size: sr.generate(size=size, seed=1)),
    ("generate_batch", lambda size: sr.generate_batch(1, size=size, seed=1)),
    ("Transform.random", lambda size: sr.Transform.random(size, seed=1)),
    ("Transform.identity", lambda size: sr.Transform.identity(size)),
]


def _ids(cases):
    return [name for name, _ in cases]


@pytest.mark.parametrize(("name", "call"), THREADS, ids=_ids(THREADS))
def test_threads_everywhere(name, call):
    with pytest.raises(TypeError, match="threads must be an int or None, got bool"):
        call(threads=True)
    with pytest.raises(ValueError, match="threads must be a positive integer, got 0"):
        call(threads=0)
    with pytest.raises(TypeError, match="threads must be an int or None, got float"):
        call(threads=1.0)
    # Far more threads than rows or cores: capped, same result.
    first, again = call(threads=1), call(threads=10**30)
    if isinstance(first, np.ndarray):
        assert np.array_equal(first, again)
    else:
        assert str(first) == str(again)


@pytest.mark.parametrize(("name", "call"), LIMIT, ids=_ids(LIMIT))
def test_limit_everywhere(name, call):
    with pytest.raises(TypeError, match="limit must be an int or None, got bool"):
        call(limit=True)
    with pytest.raises(ValueError, match="limit must be a positive integer, got 0"):
        call(limit=0)
    with pytest.raises(TypeError, match="limit must be an int or None, got str"):
        call(limit="2")
    # None is no limit; a limit past 2**64 is no practical limit.
    none, big = call(limit=None), call(limit=2**80)
    assert len(none) == 1 if isinstance(none, list) else int(np.sum(none)) == 1
    assert str(none) == str(big)


def test_limit_none_counts_every_solution():
    assert sr.count_solutions("." * 16, limit=None) == 288
    assert len(sr.solutions("." * 16, limit=None)) == 288
    assert sr.count_solutions_batch(["." * 16], limit=None).tolist() == [288]


@pytest.mark.parametrize(("name", "call"), MAX_GUESSES, ids=_ids(MAX_GUESSES))
def test_max_guesses_everywhere(name, call):
    with pytest.raises(TypeError, match="max_guesses must be an int or None, got bool"):
        call(max_guesses=True)
    with pytest.raises(ValueError, match="max_guesses must be a positive integer, got -1"):
        call(max_guesses=-1)
    call(max_guesses=np.int64(10**6))


@pytest.mark.parametrize(("name", "call"), SIZE, ids=_ids(SIZE))
@pytest.mark.parametrize("size", [-1, 0, -(2**70)])
def test_a_bad_size_is_one_error_everywhere(name, call, size):
    with pytest.raises(sr.InvalidPuzzleError, match=r"size=-?\d* ?.*is not a grid side"):
        call(size)


@pytest.mark.parametrize(("name", "call"), SIZE, ids=_ids(SIZE))
def test_size_must_be_an_int(name, call):
    with pytest.raises(TypeError, match="size must be an int, got bool"):
        call(True)


@pytest.mark.parametrize(
    "call",
    [
        lambda box: sr.solve(LEETCODE, box=box),
        lambda box: sr.solve_batch([LEETCODE], box=box),
        lambda box: sr.generate(seed=1, box=box),
        lambda box: sr.Transform.random(9, box=box),
        lambda box: sr.canonical(LEETCODE, box=box),
    ],
)
def test_a_bad_box_is_one_error_everywhere(call):
    for box in [(-1, 3), (1, 9), (2**70, 3), (3, -(2**70))]:
        with pytest.raises(sr.InvalidPuzzleError, match="is not a box shape"):
            call(box)
    for box in ["3x3", (3,), (3, 3.0), (True, 3), [3, 3]]:
        with pytest.raises(TypeError, match=r"box must be a \(rows, cols\) pair of ints"):
            call(box)


def test_is_valid_says_false_for_a_bad_box():
    assert sr.is_valid(LEETCODE, box=(-1, 3)) is False
    assert sr.is_valid(LEETCODE, box=(2**70, 3)) is False


def test_big_ints_are_value_errors_not_overflow():
    with pytest.raises(ValueError, match=r"index must be an int in 0\.\.2\*\*64"):
        sr.Transform.random(9, seed=1, index=2**64)
    with pytest.raises(ValueError, match="index must be 0 or more"):
        sr.Transform.random(9, seed=1, index=-(2**70))
    with pytest.raises(ValueError, match=r"seed must be an int in 0\.\.2\*\*64"):
        sr.generate(seed=2**64)
    with pytest.raises(MemoryError):
        sr.generate_batch(2**70, seed=1)
    assert sr.Transform.random(9, seed=1, index=2**64 - 1) is not None
    with pytest.raises(ValueError, match=rf"rows must list each of 0\.\.3 once, got {2**70} in"):
        sr.Transform([2**70, 0, 1, 2], range(4), range(1, 5))
    with pytest.raises(
        ValueError, match=r"digits must list each of 1\.\.4 once, got a number below"
    ):
        sr.Transform(range(4), range(4), [1, 2, 3, -(2**200)])


def test_transform_lists_are_lists_of_ints():
    with pytest.raises(TypeError, match="rows must be a list of ints, got bool"):
        sr.Transform([True, 0, 1, 2], range(4), range(1, 5))
    with pytest.raises(TypeError, match="cols must be a list of ints, got str"):
        sr.Transform(range(4), "0123", range(1, 5))
    with pytest.raises(TypeError, match="digits must be a list of ints, got int"):
        sr.Transform(range(4), range(4), 5)
    # Any iterable of ints will do, read once.
    t = sr.Transform((r for r in range(4)), iter(range(4)), (d for d in range(1, 5)))
    assert t == sr.Transform.identity(4)


def test_symmetry_is_an_argument_error():
    with pytest.raises(ValueError, match="unknown symmetry 'spiral'") as info:
        sr.generate(symmetry="spiral", seed=1)
    assert not isinstance(info.value, sr.GenerateError)
    with pytest.raises(TypeError, match="symmetry must be a str or None"):
        sr.generate_batch(1, symmetry=180, seed=1)


def test_signatures_show_the_defaults():
    import inspect

    shown = str(inspect.signature(sr.solutions))
    assert "limit=10" in shown and "Ellipsis" not in shown
    assert "index=0" in str(inspect.signature(sr.Transform.random))
