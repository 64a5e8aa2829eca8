"""export_hrm: the files HRM's build_sudoku_dataset.py writes, loaded back and checked pair by
pair with the pure-Python reference, with the group and puzzle indices and a split that keeps
equivalent puzzles on one side."""

from __future__ import annotations

import json
import os

import helpers as h
import numpy as np
import pytest
import reference as ref

import sudoku_rs as sr

FILES = ["inputs", "labels", "puzzle_indices", "group_indices", "puzzle_identifiers"]


def load(folder):
    arrays = {}
    for key in FILES:
        arrays[key] = np.load(os.path.join(folder, f"all__{key}.npy"), allow_pickle=False)
    with open(os.path.join(folder, "dataset.json"), encoding="utf-8") as f:
        meta = json.load(f)
    return arrays, meta


def tokens_to_cells(tokens):
    # The per-cell meaning of HRM's tokens: 1 blank, d + 1 digit d.
    return [[int(t) - 1 for t in row] for row in tokens]


def canonical_key(cells, box):
    return tuple(np.asarray(sr.canonical(np.asarray(cells).reshape(box[0] * box[1], -1))).ravel())


def puzzles_with_equivalent_copies(count, seed):
    """Unique puzzles, some of them present several times under different transforms, so the
    split has classes of more than one puzzle to keep together."""
    base = sr.generate_batch(count, seed=seed).reshape(count, -1)
    copies = sr.augment_batch(base[: count // 3], seed=seed + 1)
    mixed = np.concatenate([base, copies, base[:2]])
    order = np.random.default_rng(seed).permutation(len(mixed))
    return mixed[order]


@pytest.mark.parametrize("given_solutions", [False, True])
def test_every_pair_indices_and_split(tmp_path, given_solutions):
    puzzles = puzzles_with_equivalent_copies(30, seed=7)
    count, num_aug = len(puzzles), 3
    solutions = sr.solve_batch(puzzles) if given_solutions else None
    meta = sr.export_hrm(tmp_path, puzzles, solutions, num_aug=num_aug, seed=11, test_fraction=0.25)
    with open(tmp_path / "identifiers.json", encoding="utf-8") as f:
        assert json.load(f) == ["<blank>"]
    seen = {}
    for name, copies in (("train", 1 + num_aug), ("test", 1)):
        arrays, info = load(tmp_path / name)
        assert info == meta[name]
        inputs, labels = arrays["inputs"], arrays["labels"]
        assert inputs.dtype == labels.dtype == np.uint8
        for key in ("puzzle_indices", "group_indices", "puzzle_identifiers"):
            assert arrays[key].dtype == np.int32
        examples = len(inputs)
        groups = examples // copies
        assert examples == groups * copies and labels.shape == (examples, 81)
        assert arrays["puzzle_indices"].tolist() == list(range(examples + 1))
        assert arrays["group_indices"].tolist() == [g * copies for g in range(groups + 1)]
        assert arrays["puzzle_identifiers"].tolist() == [0] * examples
        assert info == {
            "pad_id": 0,
            "ignore_label_id": 0,
            "blank_identifier_id": 0,
            "vocab_size": 11,
            "seq_len": 81,
            "num_puzzle_identifiers": 1,
            "total_groups": groups,
            "mean_puzzle_examples": 1.0,
            "sets": ["all"],
        }
        cells, answers = tokens_to_cells(inputs), tokens_to_cells(labels)
        for puzzle, solution in zip(cells, answers):
            assert ref.is_solution(puzzle, solution, 9, 3, 3)
            assert all(v != 0 for v in solution)
        # Each group: the original first, then copies equivalent to it, solutions alongside.
        originals = []
        for g in range(groups):
            first = cells[g * copies]
            originals.append(first)
            key = canonical_key(first, (3, 3))
            for k in range(1, copies):
                assert canonical_key(cells[g * copies + k], (3, 3)) == key
        seen[name] = originals
    # No test puzzle is equivalent to a train puzzle.
    train_keys = {canonical_key(p, (3, 3)) for p in seen["train"]}
    test_keys = {canonical_key(p, (3, 3)) for p in seen["test"]}
    assert not train_keys & test_keys
    # Every puzzle lands once, in input order on its side.
    rows = [list(map(int, p)) for p in puzzles]
    assert seen["test"] == [r for r in rows if canonical_key(r, (3, 3)) in test_keys]
    assert seen["train"] == [r for r in rows if canonical_key(r, (3, 3)) in train_keys]
    assert 0.1 * count <= len(seen["test"]) <= 0.45 * count


def test_the_files_depend_on_the_seed_only(tmp_path):
    puzzles = puzzles_with_equivalent_copies(12, seed=3)
    for out in ("a", "b"):
        sr.export_hrm(tmp_path / out, puzzles, num_aug=2, seed=5, threads=1 if out == "a" else 2)
    for name in ("train", "test"):
        for key in FILES:
            a = np.load(tmp_path / "a" / name / f"all__{key}.npy")
            b = np.load(tmp_path / "b" / name / f"all__{key}.npy")
            assert np.array_equal(a, b)
    assert not [f for f in os.listdir(tmp_path / "a" / "train") if f.endswith(".tmp")]


def test_no_test_set_and_bigger_grids(tmp_path):
    rng = __import__("random").Random(4)
    box = (4, 4)
    full = h.random_full_grid(16, 4, 4, rng)
    puzzle = [0 if k % 3 == 0 else v for k, v in enumerate(full)]
    grids = np.array([puzzle, full], dtype=np.uint8)
    meta = sr.export_hrm(tmp_path, grids, np.array([full, full]), num_aug=1, test_fraction=0)
    assert meta["train"]["vocab_size"] == 18 and meta["train"]["seq_len"] == 256
    assert meta["test"]["total_groups"] == 0
    arrays, _ = load(tmp_path / "train")
    assert arrays["inputs"].shape == (4, 256)
    for p, s in zip(tokens_to_cells(arrays["inputs"]), tokens_to_cells(arrays["labels"])):
        assert ref.is_solution(p, s, 16, *box)
    test, _ = load(tmp_path / "test")
    assert test["inputs"].shape == (0, 256) and test["group_indices"].tolist() == [0]


@pytest.mark.parametrize(("size", "box"), [(16, (4, 4)), (6, (2, 3)), (12, (3, 4))])
def test_the_split_keeps_equivalent_puzzles_together_on_every_size(tmp_path, size, box):
    # Sizes with and without canonical forms: copies made by augment_batch (row, column, band,
    # stack orders, relabelling, transposes) of each base puzzle stay on one side.
    base = sr.generate_batch(8, size=size, box=box, seed=5).reshape(8, -1)
    answers = sr.solve_batch(base, box=box).reshape(8, -1)
    copies, copy_answers = sr.augment_batch(
        np.repeat(base, 2, axis=0), np.repeat(answers, 2, axis=0), seed=6, box=box
    )
    puzzles = np.concatenate([base, copies.reshape(16, -1)])
    solutions = np.concatenate([answers, copy_answers.reshape(16, -1)])
    origin = np.concatenate([np.arange(8), np.repeat(np.arange(8), 2)])
    meta = sr.export_hrm(tmp_path, puzzles, solutions, test_fraction=0.5, box=box, seed=1)
    assert 0 < meta["test"]["total_groups"] < 24
    test, _ = load(tmp_path / "test")
    in_test = {bytes(row) for row in np.asarray(test["inputs"]) - 1}
    side = [bytes(p.astype(np.uint8)) in in_test for p in puzzles]
    for k in range(8):
        assert len({s for s, o in zip(side, origin) if o == k}) == 1
    # The invariant grouping them is equal on every copy.
    from sudoku_rs._datasets import _invariant

    keys = _invariant(puzzles.astype(np.uint8), size, box)
    for p, o in zip(keys, origin):
        assert (p == keys[o]).all()


def test_puzzles_without_one_solution_are_refused_by_row(tmp_path):
    puzzles = sr.generate_batch(4, seed=2).reshape(4, -1)
    solution = sr.solve_batch(puzzles[1:2])[0]
    two = h.two_solution_puzzle(list(map(int, solution)), 9, 3, 3)
    several = puzzles.copy()
    several[2] = two
    with pytest.raises(ValueError, match=r"puzzles\[2\] has more than one solution"):
        sr.export_hrm(tmp_path, several)
    conflicting = puzzles.copy()
    conflicting[3, :2] = 5
    with pytest.raises(ValueError, match=r"puzzles\[3\] has no solution"):
        sr.export_hrm(tmp_path, conflicting)
    assert not os.path.exists(tmp_path / "train")


def test_wrong_solutions_are_refused_by_row(tmp_path):
    puzzles = sr.generate_batch(3, seed=9).reshape(3, -1)
    solutions = sr.solve_batch(puzzles)
    bad = solutions.copy()
    bad[1, [0, 1]] = bad[1, [1, 0]]
    with pytest.raises(ValueError, match=r"solutions\[1\]"):
        sr.export_hrm(tmp_path, puzzles, bad)
    with pytest.raises(ValueError, match="pair up"):
        sr.export_hrm(tmp_path, puzzles, solutions[:2])
    with pytest.raises(ValueError, match="num_aug"):
        sr.export_hrm(tmp_path, puzzles, num_aug=-1)
    with pytest.raises(ValueError, match="test_fraction"):
        sr.export_hrm(tmp_path, puzzles, test_fraction=1.5)
