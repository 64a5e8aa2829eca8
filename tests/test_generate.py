"""sr.generate and sr.generate_batch: one solution (by the reference solver), the clue count
asked for, symmetry, minimality, and the seed contract."""

import signal
import time

import numpy as np
import pytest
import reference as ref
from helpers import Interrupted, box_for, counting_bars

import sudoku_rs as sr

# The seed contract: these puzzles must never change. If one of these fails, seeded puzzles
# changed for every user; fix the change, not the table.
PINNED = [
    (
        {"seed": 0},
        "....382....3.54......9..1...4..2368..8..1......9....7.3.4......1.73...46..8..1...",
    ),
    (
        {"seed": 1, "clues": 25},
        "951.........1...9...8.3...48...59.1..6..4...5......47.6....4....2..6.8.....52...6",
    ),
    (
        {"seed": 2, "symmetry": "rotate180"},
        "...6..8........95..43..5..2....8.72..8.4.9.3..12.6....6..7..34..94........8..1...",
    ),
    ({"seed": 3, "size": 6, "box": (2, 3)}, "....42.2....2.6....415..6..1........"),
    ({"seed": 4, "size": 4, "minimal": True}, "..4....3...21..."),
    (
        {"seed": 5, "size": 16, "clues": 120},
        (
            "1.G4.2..8B.9..A7.....6.8.4.D1B..3.DF4...C...2.G.A...5.13.2.G....4..D.8...6.3.G....9.A"
            "..B.....6857B..G9...8A.E.2D..F6..5D..G.3.9.......4CD39.B..2.....AFE..B8..6.9..3B.6..G"
            "4.F5E.BG.1..27F.C6.4.3...97F....5EG231F..BD.AG31.C..58..EA2.8....4.C.F.5.761.9..8....."
        ),
    ),
]

SYMMETRIES = {
    "rotate180": lambda n, r, c: (n - 1 - r, n - 1 - c),
    "mirror": lambda n, r, c: (r, n - 1 - c),
    "diagonal": lambda n, r, c: (c, r),
}


def clue_count(puzzle):
    return sum(v != 0 for v in ref.parse81(puzzle))


def ref_count(puzzle, box, limit=2):
    cells = ref.parse81(puzzle)
    return ref.count_solutions(cells, box[0] * box[1], *box, limit=limit)


@pytest.mark.parametrize(("kwargs", "expected"), PINNED)
def test_pinned_seeds_never_change(kwargs, expected):
    assert sr.generate(**kwargs) == expected


@pytest.mark.parametrize(
    ("size", "box", "clues"),
    [(4, None, 6), (4, None, None), (6, (2, 3), 14), (6, (3, 2), None), (9, None, 24)],
)
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_puzzles_have_one_solution_and_the_clues_asked_for(size, box, clues, seed):
    box = box or box_for(size)
    puzzle = sr.generate(size=size, box=box, clues=clues, seed=seed)
    assert isinstance(puzzle, str) and len(puzzle) == size * size
    assert ref_count(puzzle, box) == 1
    if clues is not None:
        assert clue_count(puzzle) == clues


def test_sixteen_by_sixteen_is_unique():
    puzzle = sr.generate(size=16, clues=150, seed=7)
    assert clue_count(puzzle) == 150
    assert ref_count(puzzle, (4, 4)) == 1


@pytest.mark.parametrize("symmetry", sorted(SYMMETRIES))
@pytest.mark.parametrize(("size", "clues"), [(9, 27), (9, 30), (4, 8), (9, None)])
def test_symmetry_keeps_the_clue_pattern(symmetry, size, clues):
    puzzle = ref.parse81(sr.generate(size=size, clues=clues, symmetry=symmetry, seed=size))
    image = SYMMETRIES[symmetry]
    for r in range(size):
        for c in range(size):
            r2, c2 = image(size, r, c)
            assert (puzzle[r * size + c] == 0) == (puzzle[r2 * size + c2] == 0), (r, c)
    if clues is not None:
        assert sum(v != 0 for v in puzzle) == clues
    box = box_for(size)
    assert ref.count_solutions(puzzle, size, *box, limit=2) == 1


def test_none_symmetry_is_the_default():
    assert sr.generate(seed=9, symmetry="none") == sr.generate(seed=9, symmetry=None)
    assert sr.generate(seed=9) == sr.generate(seed=9, symmetry=None)


@pytest.mark.parametrize(
    "kwargs",
    [{"seed": 21}, {"seed": 22, "clues": 25}, {"seed": 23, "symmetry": "mirror"}],
)
def test_minimal_puzzles_lose_uniqueness_without_any_clue(kwargs):
    puzzle = ref.parse81(sr.generate(minimal=True, **kwargs))
    assert ref.count_solutions(puzzle, 9, 3, 3, limit=2) == 1
    if "clues" in kwargs:
        assert sum(v != 0 for v in puzzle) == kwargs["clues"]
    for i, v in enumerate(puzzle):
        if v:
            fewer = puzzle[:i] + [0] + puzzle[i + 1 :]
            assert ref.count_solutions(fewer, 9, 3, 3, limit=2) == 2, f"clue {i} could go"


def test_seeded_calls_repeat_and_seeds_differ():
    assert sr.generate(seed=5, clues=30) == sr.generate(seed=5, clues=30)
    assert sr.generate(seed=5, clues=30) != sr.generate(seed=6, clues=30)
    # Unseeded calls draw from the OS: two in a row are (overwhelmingly likely) different.
    assert sr.generate(clues=40) != sr.generate(clues=40)


def test_batches_do_not_depend_on_threads_or_length():
    one = sr.generate_batch(40, clues=26, seed=99, threads=1)
    assert one.shape == (40, 9, 9) and one.dtype == np.uint8
    assert np.array_equal(one, sr.generate_batch(40, clues=26, seed=99, threads=2))
    assert np.array_equal(one, sr.generate_batch(40, clues=26, seed=99, threads=5))
    assert np.array_equal(one[:7], sr.generate_batch(7, clues=26, seed=99))
    assert (np.count_nonzero(one.reshape(40, -1), axis=1) == 26).all()
    assert len({row.tobytes() for row in one}) == 40


def test_a_single_puzzle_is_item_zero_of_its_batch():
    batch = sr.generate_batch(3, seed=123, size=6, box=(2, 3), symmetry="rotate180")
    assert batch.shape == (3, 6, 6)
    single = ref.parse81(sr.generate(seed=123, size=6, box=(2, 3), symmetry="rotate180"))
    assert batch[0].ravel().tolist() == single


def test_batch_puzzles_are_unique_by_the_reference():
    batch = sr.generate_batch(12, seed=4, minimal=True)
    for row in batch.reshape(12, -1).tolist():
        assert ref.count_solutions(row, 9, 3, 3, limit=2) == 1


def test_empty_batch_and_progress(capsys, monkeypatch):
    assert sr.generate_batch(0, seed=1).shape == (0, 9, 9)
    with monkeypatch.context() as patched:
        bars = counting_bars(patched)
        sr.generate_batch(50, seed=1, progress=True)
    assert bars == [{"total": 50, "desc": "generating", "done": 50}]
    batch = sr.generate_batch(20, seed=1, clues=30, progress=True)
    assert batch.shape == (20, 9, 9)
    assert "generating" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"clues": 16}, "17 to 81"),
        ({"clues": 82}, "17 to 81"),
        ({"clues": 3, "size": 4}, "4 to 16"),
        ({"clues": -1}, "clues=-1"),
        ({"clues": 7, "size": 4, "symmetry": "rotate180"}, "even"),
        ({"clues": 9, "size": 4, "symmetry": "mirror"}, "even"),
        ({"size": 36}, "up to 35x35"),
    ],
)
def test_impossible_requests_raise_at_once(kwargs, message):
    kwargs.setdefault("seed", 1)
    with pytest.raises(sr.GenerateError, match=message) as info:
        sr.generate(**kwargs)
    assert isinstance(info.value, sr.SudokuError) and isinstance(info.value, ValueError)
    with pytest.raises(sr.GenerateError, match=message):
        sr.generate_batch(2, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        # An unknown symmetry is a bad argument, not a puzzle the generator failed to make.
        ({"symmetry": "spiral"}, ValueError, "unknown symmetry 'spiral'"),
        ({"symmetry": 3}, TypeError, "symmetry must be a str or None, got int"),
        # A bad side is the one bad-size error of every function.
        ({"size": -4}, sr.InvalidPuzzleError, "size=-4 is not a grid side"),
        ({"size": 0}, sr.InvalidPuzzleError, "size=0 is not a grid side"),
        ({"size": True}, TypeError, "size must be an int, got bool"),
        ({"clues": True}, TypeError, "clues must be an int or None, got bool"),
    ],
)
def test_bad_arguments_are_argument_errors(kwargs, error, message):
    kwargs.setdefault("seed", 1)
    for call in (sr.generate, lambda **kw: sr.generate_batch(2, **kw)):
        with pytest.raises(error, match=message) as info:
            call(**kwargs)
        assert not isinstance(info.value, sr.GenerateError)


def test_unreachable_clue_counts_give_up_clearly():
    with pytest.raises(sr.GenerateError, match=r"could not reach 17 clues .* after 200 attempts"):
        sr.generate(clues=17, seed=1)
    with pytest.raises(sr.GenerateError, match=r"puzzle 0: could not reach 17 clues"):
        sr.generate_batch(3, clues=17, seed=1, threads=1)


def test_bad_arguments():
    with pytest.raises(sr.InvalidPuzzleError, match=r"box=\(2, 3\)"):
        sr.generate(size=6)
    with pytest.raises(sr.InvalidPuzzleError, match="fits a 6x6 grid"):
        sr.generate(box=(2, 3))
    with pytest.raises(TypeError, match="seed"):
        sr.generate(seed="1")
    with pytest.raises(TypeError, match="seed"):
        sr.generate(seed=True)
    with pytest.raises(ValueError, match=r"seed must be an int in 0\.\.2\*\*64, got -1"):
        sr.generate(seed=-1)
    with pytest.raises(ValueError, match="count"):
        sr.generate_batch(-1, seed=1)
    with pytest.raises(ValueError, match="threads"):
        sr.generate_batch(2, seed=1, threads=0)


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="needs SIGALRM")
@pytest.mark.parametrize("threads", [None, 1, 2])
def test_a_long_generation_stops_on_a_signal(threads, alarm):
    """A signal handler's exception (as Ctrl-C's KeyboardInterrupt) stops the search."""
    alarm(0.2)
    start = time.perf_counter()
    with pytest.raises(Interrupted):
        # Proving 25x25 puzzles unique near 300 clues takes minutes with this seed.
        if threads is None:
            sr.generate(size=25, clues=300, seed=2026)
        else:
            sr.generate_batch(8, size=25, clues=300, seed=2026, threads=threads)
    assert time.perf_counter() - start < 1.5
    assert sr.generate(seed=1, clues=30).count(".") == 51


def test_seeds_are_checked_alike_everywhere():
    # A numpy integer is a seed like any int, for the generator and the transforms alike.
    assert sr.generate(seed=np.uint64(5)) == sr.generate(seed=5)
    assert sr.Transform.random(9, seed=np.int64(5)) == sr.Transform.random(9, seed=5)
    for bad in [True, 1.5, "1"]:
        messages = set()
        for call in (lambda s: sr.generate(seed=s), lambda s: sr.Transform.random(9, seed=s)):
            with pytest.raises(TypeError) as err:
                call(bad)
            messages.add(str(err.value))
        assert len(messages) == 1 and "seed must be an int or None" in messages.pop()
    for call in (lambda s: sr.generate(seed=s), lambda s: sr.Transform.random(9, seed=s)):
        with pytest.raises(ValueError, match=r"seed must be an int in 0\.\.2\*\*64, got -1"):
            call(-1)
