"""The encodings for machine learning (one-hot, tokens, move ids), each checked against a
per-cell pure-Python reference, round-tripped exactly, and refused with a message naming the
row when the input is bad."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sudoku_rs as sr

# --- per-cell references: what each encoding means, one cell at a time ------------------------


def onehot_reference(grids, side):
    out = np.zeros((len(grids), side, side, side), dtype=np.float64)
    for i, grid in enumerate(grids):
        for cell, value in enumerate(grid):
            if value:
                out[i, cell // side, cell % side, value - 1] = 1.0
    return out


def tokens_reference(grids):
    return [[value + 1 for value in grid] for grid in grids]


def move_id_reference(move, side):
    row, col, digit = move
    if (row, col, digit) == (-1, -1, -1):
        return -1
    return (row * side + col) * side + digit - 1


def move_of_id_reference(move_id, side):
    if move_id == -1:
        return (-1, -1, -1)
    digit = move_id % side + 1
    cell = move_id // side
    return (cell // side, cell % side, digit)


def random_grids(rng, count, side):
    return rng.integers(0, side + 1, size=(count, side * side))


# --- encode and decode ----------------------------------------------------------------------


@pytest.mark.parametrize("side", [1, 4, 6, 9, 16, 25, 64])
@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.uint16, np.int8])
def test_both_kinds_match_the_reference_and_invert_exactly(side, dtype):
    rng = np.random.default_rng(side)
    grids = random_grids(rng, 7, side).astype(dtype)
    as_lists = grids.astype(int).tolist()
    onehot = sr.encode(grids, "onehot")
    assert onehot.dtype == np.bool_ and onehot.shape == (7, side, side, side)
    assert np.array_equal(onehot, onehot_reference(as_lists, side))
    tokens = sr.encode(grids, "tokens")
    assert tokens.dtype == np.uint8 and tokens.shape == (7, side * side)
    assert tokens.tolist() == tokens_reference(as_lists)
    decoded = sr.decode(onehot, "onehot")
    assert decoded.dtype == np.uint8 and decoded.shape == (7, side, side)
    assert decoded.reshape(7, -1).tolist() == as_lists
    assert sr.decode(tokens, "tokens").tolist() == as_lists
    # (N, n, n) stacks read the same as (N, n*n).
    square = grids.reshape(7, side, side)
    assert np.array_equal(sr.encode(square, "onehot"), onehot)
    assert np.array_equal(sr.encode(square, "tokens"), tokens)


@given(st.integers(0, 2**32 - 1), st.sampled_from([4, 9, 12]), st.integers(0, 5))
def test_random_stacks_round_trip(seed, side, count):
    grids = random_grids(np.random.default_rng(seed), count, side)
    for kind in ("onehot", "tokens"):
        encoded = sr.encode(grids, kind)
        assert sr.decode(encoded, kind).reshape(count, side * side).tolist() == grids.tolist()
        assert np.array_equal(sr.encode(sr.decode(encoded, kind), kind), encoded)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.uint8, np.int32, np.float16])
def test_onehot_dtype_for_satnet(dtype):
    grids = random_grids(np.random.default_rng(1), 5, 9)
    onehot = sr.encode(grids, "onehot", dtype=dtype)
    assert onehot.dtype == dtype
    assert np.array_equal(onehot, onehot_reference(grids.tolist(), 9))
    assert sr.decode(onehot, "onehot").reshape(5, -1).tolist() == grids.tolist()


@pytest.mark.parametrize("dtype", [np.bool_, np.float32, np.int64, np.complex64, ">f4", ">i2"])
def test_onehot_of_every_dtype_past_the_thread_split(dtype):
    # 7,000 grids: 567,000 cells, enough for the compiled passes to split over the cores.
    grids = random_grids(np.random.default_rng(7), 7000, 9)
    onehot = sr.encode(grids, "onehot", dtype=dtype)
    assert onehot.dtype == np.dtype(dtype) and onehot.shape == (7000, 9, 9, 9)
    want = np.zeros((7000 * 81, 9), dtype=bool)
    filled = np.flatnonzero(grids.reshape(-1))
    want[filled, grids.reshape(-1)[filled] - 1] = True
    assert np.array_equal(onehot.reshape(-1, 9), want.astype(dtype))
    if np.dtype(dtype).kind != "c":
        assert np.array_equal(sr.decode(onehot, "onehot").reshape(7000, 81), grids)
        # A bad cell in the last piece is still the first one named.
        onehot[6999, 8, 8, :2] = 1
        with pytest.raises(ValueError, match=r"onehot\[6999\]: cell \(8, 8\) has more"):
            sr.decode(onehot, "onehot")


def test_threads_and_progress_change_nothing(capsys):
    grids = random_grids(np.random.default_rng(8), 7000, 9)
    moves = np.stack([grids // 9 % 9, grids % 9, grids % 9 + 1], axis=-1)
    for kind in ("onehot", "tokens"):
        one = sr.encode(grids, kind, threads=1)
        assert np.array_equal(sr.encode(grids, kind, threads=2, progress=True), one)
        assert np.array_equal(sr.decode(one, kind, threads=2, progress=True), sr.decode(one, kind))
    ids = sr.encode_moves(moves, threads=1)
    assert np.array_equal(sr.encode_moves(moves, threads=2, progress=True), ids)
    assert np.array_equal(sr.decode_moves(ids, threads=2, progress=True), moves)
    assert "7.00k" in capsys.readouterr().err


def test_decode_onehot_reads_values_not_bits():
    # -0.0 is 0 with other bits than 0.0's; a bool whose byte is 2 is no 0 or 1.
    onehot = sr.encode(np.array([[0, 1, 2, 3] * 4]), "onehot", dtype=np.float32)
    onehot[0, 0, 0, 3] = -0.0
    assert sr.decode(onehot, "onehot").reshape(-1).tolist() == [0, 1, 2, 3] * 4
    raw = sr.encode(np.array([[0, 1, 2, 3] * 4]), "onehot")
    raw.view(np.uint8)[0, 1, 1, 1] = 2
    with pytest.raises(ValueError, match=r"onehot\[0\]: cell \(1, 1\) has a value other"):
        sr.decode(raw, "onehot")


def test_tokens_dtype():
    grids = random_grids(np.random.default_rng(2), 3, 9)
    tokens = sr.encode(grids, "tokens", dtype=np.int64)
    assert tokens.dtype == np.int64 and tokens.tolist() == tokens_reference(grids.tolist())
    assert sr.decode(tokens, "tokens").tolist() == grids.tolist()


def test_strings_read_as_the_batch_functions_read_them():
    puzzles = sr.generate_batch(6, seed=3)
    flat = puzzles.reshape(6, -1)
    text = sr.format_puzzles(puzzles).decode().split()
    assert np.array_equal(sr.encode(text, "tokens"), flat + 1)
    assert np.array_equal(sr.encode(np.array(text), "onehot"), sr.encode(puzzles, "onehot"))
    with_zeros = [line.replace(".", "0") for line in text]
    assert np.array_equal(sr.encode(with_zeros, "tokens"), flat + 1)
    # Grids laid out over lines read as solve_batch reads them; a None row (what solve_batch
    # gives for an unsolved row) is no puzzle.
    spread = ["\n".join(line[r * 9 : r * 9 + 9] for r in range(9)) for line in text]
    assert np.array_equal(sr.encode(spread, "tokens"), flat + 1)
    with pytest.raises(sr.InvalidPuzzleError, match=r"puzzles\[1\]"):
        sr.encode([text[0], None], "tokens")
    # 6x6 strings, read with their 2x3 boxes.
    six = sr.generate_batch(2, size=6, box=(2, 3), seed=1)
    lines = sr.format_puzzles(six).decode().split()
    assert np.array_equal(sr.encode(lines, "tokens"), six.reshape(2, -1) + 1)


def test_a_single_string_gives_one_grid():
    text = sr.format_puzzles(sr.generate_batch(1, seed=4), blank="0").decode().strip()
    onehot = sr.encode(text, "onehot")
    assert onehot.shape == (9, 9, 9)
    assert sr.decode(onehot, "onehot").shape == (9, 9)
    tokens = sr.encode(text, "tokens")
    assert tokens.shape == (81,)
    assert sr.decode(tokens, "tokens").tolist() == [int(c) for c in text]


def test_empty_batches():
    empty = np.zeros((0, 81), dtype=np.uint8)
    assert sr.encode(empty, "onehot").shape == (0, 9, 9, 9)
    assert sr.encode(empty, "tokens").shape == (0, 81)
    assert sr.decode(np.zeros((0, 9, 9, 9), bool), "onehot").shape == (0, 9, 9)
    assert sr.decode(np.zeros((0, 81), np.uint8), "tokens").shape == (0, 81)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (np.zeros((2, 80), np.uint8), "shape"),
        (np.zeros((2, 9, 8), np.uint8), "shape"),
        (np.zeros(81, np.uint8), "shape"),
        (np.zeros((1, 65 * 65), np.uint8), "shape"),
    ],
)
def test_encode_refuses_bad_shapes(bad, message):
    with pytest.raises(ValueError, match=message):
        sr.encode(bad, "tokens")


def test_encode_names_the_row_of_a_bad_value():
    grids = np.zeros((4, 81), np.int64)
    grids[2, 10] = 10
    with pytest.raises(ValueError, match=r"puzzles\[2\]: cell \(1, 1\) is 10"):
        sr.encode(grids, "onehot")
    grids[2, 10] = -1
    with pytest.raises(ValueError, match=r"puzzles\[2\]"):
        sr.encode(grids, "tokens")
    with pytest.raises(sr.InvalidPuzzleError, match=r"puzzles\[1\]"):
        sr.encode(["." * 81, "x" * 81], "tokens")
    with pytest.raises(TypeError, match="nested"):
        sr.encode([[0] * 81], "tokens")
    with pytest.raises(TypeError, match="float"):
        sr.encode(np.zeros((1, 81)), "tokens")
    with pytest.raises(ValueError, match="kind"):
        sr.encode(grids * 0, "bits")


def test_decode_onehot_names_the_row_of_a_cell_with_two_digits():
    onehot = sr.encode(random_grids(np.random.default_rng(5), 4, 9), "onehot")
    onehot[2, 3, 4, :] = False
    onehot[2, 3, 4, [1, 7]] = True
    with pytest.raises(ValueError, match=r"onehot\[2\]: cell \(3, 4\) has more than one digit"):
        sr.decode(onehot, "onehot")
    # Every digit set: the weighted sum wraps to anything, the count still catches it.
    for side in (9, 16, 64):
        full = np.zeros((1, side, side, side), np.uint8)
        full[0, 0, 0, :] = 1
        with pytest.raises(ValueError, match=r"onehot\[0\]: cell \(0, 0\)"):
            sr.decode(full, "onehot")
    # The digits 64, 63, 62, 61 and 6 add up to 256, which wraps to 0 in uint8.
    wrap = np.zeros((1, 64, 64, 64), bool)
    wrap[0, 5, 7, [63, 62, 61, 60, 5]] = True
    with pytest.raises(ValueError, match=r"onehot\[0\]: cell \(5, 7\)"):
        sr.decode(wrap, "onehot")


@pytest.mark.parametrize("value", [0.5, 2.0, -1.0, np.nan])
def test_decode_onehot_refuses_values_other_than_0_and_1(value):
    onehot = sr.encode(np.zeros((3, 16), np.uint8), "onehot", dtype=np.float32)
    onehot[1, 2, 3, 0] = value
    with pytest.raises(ValueError, match=r"onehot\[1\]: cell \(2, 3\) has a value other than"):
        sr.decode(onehot, "onehot")
    for dtype in (np.int16, np.uint8, np.int8):  # the wide and the one-byte paths
        as_int = np.zeros((2, 4, 4, 4), dtype)
        as_int[1, 0, 2, 1] = 2
        with pytest.raises(ValueError, match=r"onehot\[1\]: cell \(0, 2\) has a value other"):
            sr.decode(as_int, "onehot")


def test_decode_refuses_bad_shapes_and_types():
    with pytest.raises(ValueError, match="shape"):
        sr.decode(np.zeros((2, 9, 9, 8), bool), "onehot")
    with pytest.raises(ValueError, match="shape"):
        sr.decode(np.zeros((2, 80), np.uint8), "tokens")
    with pytest.raises(TypeError, match="integer"):
        sr.decode(np.ones((2, 81)), "tokens")
    with pytest.raises(TypeError):
        sr.decode(np.zeros((1, 4, 4, 4), dtype="U1"), "onehot")


@pytest.mark.parametrize(("token", "meaning"), [(0, "pad"), (11, "outside 1..10")])
def test_decode_tokens_names_the_row_of_a_bad_token(token, meaning):
    tokens = np.ones((3, 81), np.uint8)
    tokens[1, 80] = token
    with pytest.raises(ValueError, match=rf"tokens\[1\]: cell \(8, 8\) is token {token}"):
        sr.decode(tokens, "tokens")
    with pytest.raises(ValueError, match=meaning):
        sr.decode(tokens, "tokens")


# --- moves ----------------------------------------------------------------------------------


@pytest.mark.parametrize("side", [4, 9, 16, 64])
def test_moves_match_the_reference_and_invert_exactly(side):
    rng = np.random.default_rng(side)
    moves = np.stack(
        [
            rng.integers(0, side, (5, 7)),
            rng.integers(0, side, (5, 7)),
            rng.integers(1, side + 1, (5, 7)),
        ],
        axis=-1,
    )
    moves[1, 4:] = -1  # padding at the end of a row
    moves[3, 0] = -1
    ids = sr.encode_moves(moves, side)
    assert ids.dtype == np.int32 and ids.shape == (5, 7)
    assert ids.tolist() == [[move_id_reference(tuple(m), side) for m in row] for row in moves]
    back = sr.decode_moves(ids, side)
    assert back.shape == (5, 7, 3) and np.array_equal(back, moves)
    every = np.arange(-1, side**3, dtype=np.int64)[np.newaxis]
    decoded = sr.decode_moves(every, side)
    assert [tuple(m) for m in decoded[0].tolist()] == [
        move_of_id_reference(i, side) for i in every[0].tolist()
    ]
    assert np.array_equal(sr.encode_moves(decoded, side), every)


def test_moves_default_to_the_classic_grid_and_take_lists():
    assert sr.encode_moves([[[0, 0, 1], [8, 8, 9], [-1, -1, -1]]]).tolist() == [[0, 728, -1]]
    assert sr.encode_moves([[4, 5, 6]]).tolist() == [(4 * 9 + 5) * 9 + 5]
    assert sr.decode_moves([0, 728, -1]).tolist() == [[0, 0, 1], [8, 8, 9], [-1, -1, -1]]
    assert sr.encode_moves(np.zeros((2, 0, 3), np.int64)).shape == (2, 0)
    assert sr.decode_moves(np.zeros((2, 0), np.int32)).shape == (2, 0, 3)


@pytest.mark.parametrize(
    "move",
    [(9, 0, 1), (0, -2, 1), (0, 0, 0), (0, 0, 10), (-1, -1, 5), (-1, 0, 1), (2**32, 0, 1)],
)
def test_encode_moves_names_the_bad_move(move):
    moves = np.ones((3, 4, 3), np.int64)
    moves[2, 1] = move
    with pytest.raises(ValueError, match=r"moves\[2\]\[1\]"):
        sr.encode_moves(moves)


def test_decode_moves_names_the_bad_id_and_checks_its_arguments():
    ids = np.zeros((2, 3), np.int64)
    ids[1, 2] = 729
    with pytest.raises(ValueError, match=r"ids\[1\]\[2\] is 729"):
        sr.decode_moves(ids)
    ids[1, 2] = -2
    with pytest.raises(ValueError, match=r"ids\[1\]\[2\]"):
        sr.decode_moves(ids)
    with pytest.raises(ValueError, match="shape"):
        sr.encode_moves(np.zeros((2, 3, 2), np.int64))
    with pytest.raises(TypeError):
        sr.encode_moves(np.zeros((2, 3, 3)))
    with pytest.raises(TypeError):
        sr.decode_moves(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="size"):
        sr.decode_moves(np.zeros((2, 3), np.int32), 65)
    with pytest.raises(TypeError, match="size"):
        sr.encode_moves([[0, 0, 1]], 9.0)  # type: ignore[arg-type]
