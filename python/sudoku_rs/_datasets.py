"""Encodings for machine learning (one-hot, tokens, move ids) and HRM's dataset layout.

Every encoding is a whole-array numpy operation (tokens) or one compiled pass (one-hot both
ways for every numeric dtype, move ids both ways): no Python loop per row or cell, so they run
near the speed of copying the bytes. Decoders check what they read and name the first bad
row, since a model's output is the usual input.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any, Dict, NoReturn, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from . import _sudoku_rs
from ._atomic import PathLike, atomic_write, write_atomic
from ._progress import progress_bar

#: The encodings :func:`encode` and :func:`decode` know.
KINDS = ("onehot", "tokens")
#: The largest grid side an encoding takes: the generic engine's limit.
MAX_SIDE = 64


def _as_cells(puzzles: Any, what: str = "puzzles") -> Tuple[np.ndarray, int]:
    """What every batch function takes, as ``(cells, n)``: cells an (N, n*n) integer array with
    values 0..n (0 blank), n the grid side. An integer array is checked and reshaped in place
    (any n up to 64, no box needed: encodings do not depend on it); anything else is read by the
    compiled batch reader every batch function uses, its first malformed row raising
    InvalidPuzzleError named ``puzzles[i]`` (``solutions[i]``)."""
    if not (isinstance(puzzles, np.ndarray) and puzzles.dtype.kind in "iu"):
        box = None
        if isinstance(puzzles, (list, tuple)) and puzzles and isinstance(puzzles[0], str):
            from ._files import _some_box

            box = _some_box(puzzles[0])
        cells, side = _sudoku_rs._batch_cells(puzzles, box=box, name=what)
        return cells, side
    array = puzzles
    _sudoku_rs._check_batch_shape(array.shape)  # the batch readers' own rule and message
    side = array.shape[1] if array.ndim == 3 else math.isqrt(array.shape[1])
    if side > MAX_SIDE:
        raise ValueError(
            f"{what}: a batch of shape {array.shape} holds grids of side {side}; the largest "
            f"side is {MAX_SIDE}"
        )
    cells = array.reshape(len(array), side * side)
    if cells.size and (cells.min() < 0 or cells.max() > side):
        bad = (cells < 0) | (cells > side)
        row = int(np.flatnonzero(bad.any(axis=1))[0])
        cell = int(np.flatnonzero(bad[row])[0])
        raise ValueError(
            f"{what}[{row}]: cell ({cell // side}, {cell % side}) is {cells[row, cell]}, "
            f"outside 0..{side}"
        )
    return cells, side


def _kind(kind: str) -> str:
    if kind not in KINDS:
        raise ValueError(f"kind must be 'onehot' or 'tokens', got {kind!r}")
    return kind


def _first_bad(bad: np.ndarray, side: int, what: str) -> Tuple[int, str]:
    """The first row flagged in ``bad`` (N, n*n) and its first flagged cell as '(r, c)'."""
    row = int(np.flatnonzero(bad.reshape(len(bad), -1).any(axis=1))[0])
    cell = int(np.flatnonzero(bad[row].reshape(-1))[0])
    return row, f"{what}[{row}]: cell ({cell // side}, {cell % side})"


def encode(
    puzzles: Any,
    kind: str,
    *,
    dtype: Optional[npt.DTypeLike] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> np.ndarray:
    """Puzzles (or solutions) as a model's input.

    ``kind="onehot"``: an array of shape (N, n, n, n), the last axis the digit: cell (r, c)
    holding digit d has a 1 at ``[i, r, c, d - 1]``, a blank cell is all zeros (the SATNet
    layout). ``dtype`` is the element type (default ``bool``; ``np.float32`` for SATNet).

    ``kind="tokens"``: an (N, n*n) array, row-major cells, 1 for a blank and d + 1 for digit d,
    0 never (the padding token): HRM's vocabulary, of size n + 2. ``dtype`` defaults to uint8.

    Takes what :func:`solve_batch` takes: an integer array of shape (N, n, n) or (N, n*n), any
    dtype, or a list of puzzle strings (``None`` an all-zero row). A single puzzle string gives
    one grid's encoding, without the N axis: (n, n, n) or (n*n,). Grids up to 64x64.
    :func:`decode` inverts it exactly. A value outside 0..n raises ValueError naming the row and cell.
    One-hot is written in one compiled pass, split over ``threads`` threads (every core for
    None) for large batches; ``progress=True`` shows a bar, as every batch function does.
    """
    _kind(kind)
    if isinstance(puzzles, str):
        return encode([puzzles], kind, dtype=dtype, threads=threads)[0]
    cells, side = _as_cells(puzzles)
    count = len(cells)
    with progress_bar(progress, count, "encoding") as update:
        out = _encode(cells, side, kind, dtype, threads)
        if update is not None:
            update(count)
    return out


def _encode(
    cells: np.ndarray,
    side: int,
    kind: str,
    dtype: Optional[npt.DTypeLike],
    threads: Optional[int],
) -> np.ndarray:
    count = len(cells)
    if kind == "tokens":
        out_type = np.dtype(np.uint8 if dtype is None else dtype)
        tokens = np.add(cells, 1, dtype=np.uint8, casting="unsafe")
        return tokens if out_type == np.uint8 else tokens.astype(out_type)
    out_type = np.dtype(np.bool_ if dtype is None else dtype)
    one = _bits_of_one(out_type)
    if one is not None:
        # One native pass into numpy's uninitialised array: no zeroing pass before it.
        onehot = np.empty((count, side, side, side), dtype=out_type)
        items = onehot.reshape(-1).view(one.dtype)
        flat = np.ascontiguousarray(cells, dtype=np.uint8).reshape(-1)
        bad = _sudoku_rs._encode_onehot(flat, items, side, int(one), threads=threads)
        if bad >= 0:
            raise ValueError(f"puzzles[{bad // (side * side)}]: a cell outside 0..{side}")
        return onehot
    # Other dtypes (complex128, longdouble, big-endian): one row of the table per cell value
    # (row 0, the blank, all zeros); each cell's whole digit axis copied as one opaque item.
    table = np.ascontiguousarray(np.eye(side + 1, dtype=out_type)[:, 1:])
    rows = table.view(np.dtype((np.void, side * out_type.itemsize))).reshape(side + 1)
    index = cells if cells.dtype.itemsize <= 8 else cells.astype(np.intp)
    return np.take(rows, index).view(out_type).reshape(count, side, side, side)


def _bits_of_one(dtype: np.dtype) -> Optional[np.unsignedinteger]:
    """The bits of ``dtype``'s 1 as the unsigned integer of its width, for a numeric dtype of
    1, 2, 4 or 8 bytes in native byte order (whose 0 is all zero bits), else None: how the
    compiled one-hot passes read and write any such dtype."""
    if dtype.kind not in "biufc" or dtype.itemsize not in (1, 2, 4, 8) or not dtype.isnative:
        return None
    return np.ones((), dtype=dtype).reshape(1).view(f"u{dtype.itemsize}")[0]


def decode(
    array: Any, kind: str, *, threads: Optional[int] = None, progress: bool = False
) -> np.ndarray:
    """The grids an :func:`encode` array holds, as uint8 cells (0 blank).

    ``kind="onehot"``: an array of shape (N, n, n, n) (bool, integer or float, every value 0 or
    1, at most one 1 per cell) gives (N, n, n); a single (n, n, n) grid gives (n, n).
    ``kind="tokens"``: an integer array of shape (N, n*n), every value 1..n+1, gives (N, n*n);
    a single (n*n,) row gives (n*n,). Exact: ``decode(encode(p, kind), kind)`` is ``p`` as
    uint8 cells. A model's scores are not one-hot: take ``argmax`` first. A cell with two
    digits, a value other than 0 or 1, a pad token or a token above n+1 raises ValueError
    naming the row and cell. One-hot is read in one compiled pass, split over ``threads``
    threads (every core for None) for large batches; ``progress=True`` shows a bar.
    """
    _kind(kind)
    data = np.asarray(array)
    single = data.ndim == (3 if kind == "onehot" else 1)
    if single:
        return decode(data[np.newaxis], kind, threads=threads)[0]
    with progress_bar(progress, len(data) if data.ndim else 0, "decoding") as update:
        out = _decode_tokens(data) if kind == "tokens" else _decode_onehot(data, threads)
        if update is not None:
            update(len(out))
    return out


def _decode_tokens(tokens: np.ndarray) -> np.ndarray:
    if tokens.dtype.kind not in "iu":
        raise TypeError(f"tokens must be an integer array, got dtype {tokens.dtype}")
    side = math.isqrt(tokens.shape[1]) if tokens.ndim == 2 else 0
    if tokens.ndim != 2 or side * side != tokens.shape[1] or not 1 <= side <= MAX_SIDE:
        raise ValueError(
            f"tokens must have shape (N, n*n) with n from 1 to {MAX_SIDE}, got {tokens.shape}"
        )
    if tokens.size and (tokens.min() < 1 or tokens.max() > side + 1):
        row, where = _first_bad((tokens < 1) | (tokens > side + 1), side, "tokens")
        value = tokens[row][(tokens[row] < 1) | (tokens[row] > side + 1)][0]
        meaning = "the pad token, never a cell" if value == 0 else f"outside 1..{side + 1}"
        raise ValueError(f"{where} is token {value}: {meaning}")
    return np.subtract(tokens, 1, dtype=np.uint8, casting="unsafe")


def _decode_onehot(onehot: np.ndarray, threads: Optional[int]) -> np.ndarray:
    if onehot.dtype.kind not in "biuf":
        raise TypeError(f"a one-hot array must be bool, integer or float, got dtype {onehot.dtype}")
    shape = onehot.shape
    if onehot.ndim != 4 or not (shape[1] == shape[2] == shape[3]) or not 1 <= shape[1] <= MAX_SIDE:
        raise ValueError(
            f"a one-hot array must have shape (N, n, n, n) with n from 1 to {MAX_SIDE}, got {shape}"
        )
    count, side = shape[0], shape[1]
    onehot = np.ascontiguousarray(onehot)
    one = _bits_of_one(onehot.dtype)
    if one is not None:
        # Checked and decoded in one native pass, comparing bits; a cell it refuses (or a
        # float's -0.0, which is 0 with other bits) is looked at again below, by value.
        items = onehot.reshape(-1).view(one.dtype)
        cells, bad = _sudoku_rs._decode_onehot(items, side, int(one), threads=threads)
        if cells is not None:
            return cells.reshape(count, side, side)
        if onehot.dtype.kind != "f":
            row, cell = divmod(bad, side * side)
            values = onehot[row].reshape(side * side, side)[cell]
            if values.dtype.kind == "b":
                values = values.view(np.uint8)
            problem = (
                "a value other than 0 or 1"
                if ((values != 0) & (values != 1)).any()
                else "more than one digit set"
            )
            raise ValueError(f"onehot[{row}]: cell ({cell // side}, {cell % side}) has {problem}")
    if onehot.dtype.kind == "f":
        ones = (onehot != 0).view(np.uint8)
        exact = np.array_equal(onehot, ones)
    else:
        exact = onehot.size == 0 or (onehot.min() >= 0 and onehot.max() <= 1)
        ones = onehot.astype(np.uint8)
    if not exact:
        bad_values = ((onehot != 0) & (onehot != 1)).any(axis=-1)
        _, where = _first_bad(bad_values, side, "onehot")
        raise ValueError(f"{where} has a value other than 0 or 1")
    flat = ones.reshape(-1, side)
    cells = flat @ np.arange(1, side + 1, dtype=np.uint8)
    # A cell with one 1 gets its digit (never 0); a cell with k > 1 ones adds k to the count
    # of ones but at most 1 to the count of nonzero cells, whatever its sum wraps to.
    if np.count_nonzero(flat) != np.count_nonzero(cells):
        many = ones.reshape(count, side * side, side).sum(axis=-1, dtype=np.intp) > 1
        _, where = _first_bad(many, side, "onehot")
        raise ValueError(f"{where} has more than one digit set")
    return cells.reshape(count, side, side)


def encode_moves(
    moves: Any, size: int = 9, *, threads: Optional[int] = None, progress: bool = False
) -> np.ndarray:
    """Moves (row, col, digit) as action ids: an (N, k, 3) integer array (or nested lists), 0-based
    row and column, digits from 1, a move of three -1 the padding, gives an (N, k) int32 array
    of ``(row*size + col)*size + digit - 1``, the padding -1. A single (k, 3) list of moves
    gives (k,). :func:`decode_moves` inverts it exactly. A row, column or digit out of range,
    or a move only partly -1, raises ValueError naming the row and move. One compiled pass,
    split over ``threads`` threads (every core for None) for large arrays; ``progress=True``
    shows a bar.
    """
    side = _move_side(size)
    data = np.asarray(moves)
    if data.ndim == 2:
        return encode_moves(data[np.newaxis], size, threads=threads)[0]
    if data.size == 0 and data.ndim != 3:
        data = data.reshape(0, 0, 3)
    if data.dtype.kind not in "iu":
        raise TypeError(f"moves must be an integer array, got dtype {data.dtype}")
    if data.ndim != 3 or data.shape[2] != 3:
        raise ValueError(f"moves must have shape (N, k, 3), got {data.shape}")
    flat = _native_ints(data)
    with progress_bar(progress, len(data), "encoding") as update:
        ids, bad = _sudoku_rs._encode_moves(flat, side, threads=threads)
        if update is not None:
            update(len(data))
    if ids is None:
        n, k = divmod(bad, data.shape[1])
        _bad_move(data, n, k, side)
    return ids.reshape(data.shape[:2])


def _native_ints(data: np.ndarray) -> np.ndarray:
    """``data`` as a flat contiguous array of a native-endian integer type (a view when it
    already is one), what the compiled move converters read in one pass."""
    if not data.dtype.isnative:
        data = data.astype(data.dtype.newbyteorder("="))
    return np.ascontiguousarray(data).reshape(-1)


def _bad_move(data: np.ndarray, n: int, k: int, side: int) -> NoReturn:
    raise ValueError(
        f"moves[{n}][{k}] is {tuple(int(v) for v in data[n, k])}: a move is (row, col, digit) "
        f"with row and col 0..{side - 1} and digit 1..{side}, or (-1, -1, -1) for padding"
    )


def decode_moves(
    ids: Any, size: int = 9, *, threads: Optional[int] = None, progress: bool = False
) -> np.ndarray:
    """The moves of :func:`encode_moves` ids: an (N, k) integer array, each id -1 (padding) or
    0..size**3 - 1, gives an (N, k, 3) int32 array of (row, col, digit), 0-based row and column,
    digits from 1, padding as (-1, -1, -1). A single (k,) row gives (k, 3). An id out of range
    raises ValueError naming the row and position. One compiled pass, split over ``threads``
    threads (every core for None) for large arrays; ``progress=True`` shows a bar."""
    side = _move_side(size)
    data = np.asarray(ids)
    if data.ndim == 1:
        return decode_moves(data[np.newaxis], size, threads=threads)[0]
    if data.dtype.kind not in "iu":
        raise TypeError(f"move ids must be an integer array, got dtype {data.dtype}")
    if data.ndim != 2:
        raise ValueError(f"move ids must have shape (N, k), got {data.shape}")
    with progress_bar(progress, len(data), "decoding") as update:
        moves, bad = _sudoku_rs._decode_moves(_native_ints(data), side, threads=threads)
        if update is not None:
            update(len(data))
    if moves is None:
        n, k = divmod(bad, data.shape[1])
        raise ValueError(
            f"ids[{n}][{k}] is {data[n, k]}: a move id is -1 (padding) or 0..{side**3 - 1} "
            f"for a {side}x{side} grid"
        )
    return moves.reshape(data.shape + (3,))


def _move_side(size: int) -> int:
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise TypeError(f"size must be an int, got {type(size).__name__}")
    if not 1 <= size <= MAX_SIDE:
        raise ValueError(f"size must be 1..{MAX_SIDE}, got {size}")
    return int(size)


def export_hrm(
    out_dir: PathLike,
    puzzles: Any,
    solutions: Any = None,
    *,
    num_aug: int = 0,
    seed: Optional[int] = 0,
    test_fraction: float = 0.1,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Dict[str, Dict[str, Union[int, float, list]]]:
    """Writes a puzzle dataset in the layout of HRM's ``dataset/build_sudoku_dataset.py``
    (the Hierarchical and Tiny Recursive Models read it as is).

    ``out_dir/identifiers.json`` is ``["<blank>"]``; ``out_dir/train/`` and ``out_dir/test/``
    each hold ``all__inputs.npy`` and ``all__labels.npy`` (uint8 tokens of :func:`encode`:
    1 blank, d + 1 digit d), ``all__puzzle_indices.npy``, ``all__group_indices.npy`` and
    ``all__puzzle_identifiers.npy`` (int32: one example per puzzle, a group per original
    puzzle holding its copies, identifiers all 0) and ``dataset.json`` (``pad_id`` 0,
    ``ignore_label_id`` 0, ``blank_identifier_id`` 0, ``vocab_size`` n + 2, ``seq_len`` n*n,
    ``num_puzzle_identifiers`` 1, ``total_groups``, ``mean_puzzle_examples`` 1.0, ``sets``
    ``["all"]``). Each file is written all at once or not at all.

    ``puzzles`` (and ``solutions``) take what :func:`solve_batch` takes. Without
    ``solutions`` each puzzle is solved; a puzzle with no solution or several raises ValueError
    naming its row, as does a solution that is not a valid completion of its puzzle. The split
    is by equivalence class: puzzles with the same :func:`canonical_batch` form all go to train
    or all to test (about ``test_fraction`` of the puzzles, in classes drawn with ``seed``), so
    no test puzzle is a relabelled or reshuffled train puzzle; both keep the input order.
    Grids are first grouped by a cheap invariant of their equivalence class (the clue counts
    of every clue's row, column, box, band, stack and digit); only grids that share a group
    get a canonical form, so a dataset of distinct puzzles needs almost none. Past 9x9, where
    canonical forms do not exist, a group is kept whole: it may hold grids that are not
    equivalent, never split ones that are.
    In train, each puzzle's group holds it unchanged and then ``num_aug`` copies through
    :func:`augment_batch` (seeded with ``seed``); test is never augmented. Returns the two
    ``dataset.json`` contents, by set name.
    """
    if isinstance(num_aug, bool) or not isinstance(num_aug, (int, np.integer)) or num_aug < 0:
        raise ValueError(f"num_aug must be an int 0 or more, got {num_aug!r}")
    if not 0.0 <= float(test_fraction) <= 1.0:
        raise ValueError(f"test_fraction must be between 0 and 1, got {test_fraction!r}")
    from ._sudoku_rs import augment_batch, check_batch, count_solutions_batch, solve_batch

    cells, side = _as_cells(puzzles)
    count = len(cells)
    if solutions is None:
        counts = count_solutions_batch(cells, limit=2, box=box, threads=threads, progress=progress)
        if count and not (counts == 1).all():
            row = int(np.flatnonzero(counts != 1)[0])
            found = "no solution" if counts[row] == 0 else "more than one solution"
            raise ValueError(
                f"puzzles[{row}] has {found}: export_hrm needs puzzles with one solution, or "
                "their solutions"
            )
        answers = solve_batch(cells, box=box, threads=threads, progress=progress)
        answers = np.asarray(answers).reshape(count, side * side)
    else:
        answers, answer_side = _as_cells(solutions, "solutions")
        if len(answers) != count or answer_side != side:
            raise ValueError(
                f"solutions must pair up with puzzles: {count} puzzles of {side}x{side}, "
                f"{len(answers)} solutions of {answer_side}x{answer_side}"
            )
        checked = check_batch(cells, answers, box=box, threads=threads)
        wrong = ~(checked["valid"] & checked["keeps_clues"])
        if wrong.any():
            row = int(np.flatnonzero(wrong)[0])
            why = "is not a valid full grid" if not checked["valid"][row] else "changes a clue"
            raise ValueError(f"solutions[{row}] {why} of puzzles[{row}]")

    test = _split(cells, side, float(test_fraction), seed, box, threads, progress)
    sets = {"train": ~test, "test": test}
    out = os.fspath(out_dir)
    os.makedirs(out, exist_ok=True)
    metadata: Dict[str, Dict[str, Union[int, float, list]]] = {}
    for name, keep in sets.items():
        copies = 1 + (int(num_aug) if name == "train" else 0)
        inputs, labels = cells[keep], answers[keep]
        groups = len(inputs)
        if copies > 1 and groups:
            more_in, more_out = augment_batch(
                np.repeat(inputs, copies - 1, axis=0),
                np.repeat(labels, copies - 1, axis=0),
                seed=seed,
                box=box,
                threads=threads,
                progress=progress,
            )
            inputs = _interleave(inputs, more_in, copies)
            labels = _interleave(labels, more_out, copies)
        examples = groups * copies
        arrays = {
            "inputs": encode(inputs, "tokens"),
            "labels": encode(labels, "tokens"),
            "group_indices": np.arange(0, examples + 1, copies, dtype=np.int32),
            "puzzle_indices": np.arange(examples + 1, dtype=np.int32),
            "puzzle_identifiers": np.zeros(examples, dtype=np.int32),
        }
        folder = os.path.join(out, name)
        os.makedirs(folder, exist_ok=True)
        for key, array in arrays.items():
            with atomic_write(os.path.join(folder, f"all__{key}.npy")) as f:
                np.save(f, array, allow_pickle=False)
        metadata[name] = {
            "pad_id": 0,
            "ignore_label_id": 0,
            "blank_identifier_id": 0,
            "vocab_size": side + 2,
            "seq_len": side * side,
            "num_puzzle_identifiers": 1,
            "total_groups": groups,
            "mean_puzzle_examples": 1.0,
            "sets": ["all"],
        }
        write_atomic(os.path.join(folder, "dataset.json"), json.dumps(metadata[name]).encode())
    write_atomic(os.path.join(out, "identifiers.json"), json.dumps(["<blank>"]).encode())
    return metadata


def _interleave(first: np.ndarray, more: np.ndarray, copies: int) -> np.ndarray:
    """Each row of ``first`` followed by its ``copies - 1`` rows of ``more``."""
    out = np.empty((len(first), copies, first.shape[1]), dtype=np.uint8)
    out[:, 0] = first
    out[:, 1:] = np.asarray(more).reshape(len(first), copies - 1, -1)
    return out.reshape(-1, first.shape[1])


def _split(
    cells: np.ndarray,
    side: int,
    test_fraction: float,
    seed: Optional[int],
    box: Optional[Tuple[int, int]],
    threads: Optional[int],
    progress: bool,
) -> np.ndarray:
    """True for the rows that go to test: whole equivalence classes, drawn in a seeded random
    order until about ``test_fraction`` of the rows are taken."""
    count = len(cells)
    target = round(test_fraction * count)
    if target == 0:
        return np.zeros(count, dtype=bool)
    classes = _classes(cells, side, box, threads, progress)
    sizes = np.bincount(classes)
    order = np.random.default_rng(seed).permutation(len(sizes))
    before = np.cumsum(sizes[order]) - sizes[order]
    chosen = np.zeros(len(sizes), dtype=bool)
    chosen[order[before < target]] = True
    return chosen[classes]


def _classes(
    cells: np.ndarray,
    side: int,
    box: Optional[Tuple[int, int]],
    threads: Optional[int],
    progress: bool,
) -> np.ndarray:
    """A class number per row (0, 1, ... dense) such that equivalent grids share a class.

    Rows are grouped first by :func:`_invariant`, equal for equivalent grids; a row alone in
    its group is a class of its own, with no canonical form computed. Rows sharing a group get
    their :func:`canonical_batch` form, and only equal forms share a class. Past 9x9, where no
    canonical form exists, a group is one class: it may join grids that are not equivalent
    (more rarely the finer the invariant), never split ones that are.
    """
    from ._sudoku_rs import canonical_batch

    count = len(cells)
    if box is None:
        root = math.isqrt(side)
        if root * root != side:
            raise ValueError(f"a {side}x{side} grid has no square box: pass box=(rows, cols)")
        box = (root, root)
    keys = _invariant(cells, side, box)
    rows = keys.view(np.dtype((np.void, keys.shape[1] * keys.itemsize))).reshape(count)
    _, groups, sizes = np.unique(rows, return_inverse=True, return_counts=True)
    groups = groups.reshape(-1)
    shared = np.flatnonzero(sizes[groups] > 1)
    if len(shared):
        try:
            forms = canonical_batch(cells[shared], box=box, threads=threads, progress=progress)
        except ValueError:
            # No canonical form for this size: each group stays one class.
            return groups
        forms = np.ascontiguousarray(np.asarray(forms, dtype=np.uint8).reshape(len(shared), -1))
        formed = forms.view(np.dtype((np.void, forms.shape[1]))).reshape(len(shared))
        _, by_form = np.unique(formed, return_inverse=True)
        groups = groups.copy()
        groups[shared] = len(sizes) + by_form.reshape(-1)
    return np.unique(groups, return_inverse=True)[1].reshape(-1)


def _invariant(cells: np.ndarray, side: int, box: Tuple[int, int]) -> np.ndarray:
    """Per row, a key (two uint64) equal for equivalent grids, computed natively: two
    order-free hashes of its clues' descriptions (how many clues the clue's row, column, box,
    band and stack hold and how often its digit occurs), the smaller of the grid's and its
    transpose's for square boxes. Unequal keys prove two grids inequivalent."""
    rows = np.ascontiguousarray(cells, dtype=np.uint8).reshape(len(cells), side * side)
    return _sudoku_rs._class_keys(rows, box)
