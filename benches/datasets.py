"""Prints the speed of the dataset functions beside what writing their bytes costs.

    python benches/datasets.py                       # 100,000 puzzles, best of 3
    python benches/datasets.py --count 20000 --repeat 5 --num-aug 10

One run, side by side:

- ``encode`` and ``decode`` of tokens (uint8) and one-hot (bool, and float32 as SATNet feeds
  it), each beside ``np.save`` of the same bytes to a file in --dir (the page cache: a fast
  disk's best case). The goal is within 2x of writing the bytes: the "x save" column.
- ``encode_moves`` / ``decode_moves`` of one move per blank cell (int32), beside ``np.save`` of
  the (N, k, 3) moves.
- ``export_hrm`` of the puzzles with --num-aug augmentations each (test_fraction 0.1), once
  solving them (counting to 2 first) and once given their solutions (checked), beside
  ``np.save`` of the arrays it writes.

Puzzles come from ``gen_minimal`` in ../shared/data (100,000 unique 9x9 puzzles; the file is
repeated to reach --count). Figures are wall-clock, best of --repeat; on a shared machine the
load shows in them, so the load average is printed with them.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np

import sudoku_rs as sr

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def best(repeat: int, function: Callable[..., object], *args: object, **kwargs: object) -> float:
    """The shortest of ``repeat`` calls of ``function(*args, **kwargs)``, in seconds."""
    seconds = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function(*args, **kwargs)
        seconds = min(seconds, time.perf_counter() - start)
    return seconds


def save_time(array: np.ndarray, folder: str, repeat: int) -> float:
    path = os.path.join(folder, "bytes.npy")
    seconds = best(repeat, np.save, path, array)
    os.remove(path)
    return seconds


def save_all(path: str, arrays: list) -> None:
    for array in arrays:
        np.save(path, array)


def row(name: str, seconds: float, saved: float, nbytes: int, count: int) -> None:
    print(
        f"{name:34} {seconds * 1e3:9.1f} {saved * 1e3:9.1f} {seconds / saved:7.2f} "
        f"{nbytes / seconds / 1e9:8.2f} {count / seconds / 1e6:9.2f}"
    )


def load_puzzles(count: int) -> np.ndarray:
    source = DATA / "gen_minimal"
    if not source.is_file():
        raise SystemExit(f"{source} is missing: see ../shared/data/README.md")
    puzzles = sr.read_puzzles(source)
    reps = -(-count // len(puzzles))
    return np.concatenate([puzzles] * reps)[:count] if reps > 1 else puzzles[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--num-aug", type=int, default=10)
    parser.add_argument("--dir", default=None, help="where the bytes go (default: a temp dir)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(dir=args.dir)
    try:
        run(args, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run(args: argparse.Namespace, folder: str) -> None:
    print(
        f"sudoku_rs {sr.__version__}, numpy {np.__version__}, Python "
        f"{platform.python_version()}, {platform.machine()}, {os.cpu_count()} cores, "
        f"load {os.getloadavg()[0]:.1f}; best of {args.repeat}; bytes to {folder}"
    )
    puzzles = load_puzzles(args.count)
    count = len(puzzles)
    print(f"{count:,} 9x9 puzzles from gen_minimal")
    print(f"{'call':34} {'ms':>9} {'save ms':>9} {'x save':>7} {'GB/s':>8} {'Mpuzzle/s':>9}")
    for kind, dtype in (("tokens", None), ("onehot", None), ("onehot", np.float32)):
        label = kind if dtype is None else f"{kind} {np.dtype(dtype).name}"
        encoded = sr.encode(puzzles, kind, dtype=dtype)
        saved = save_time(encoded, folder, args.repeat)
        seconds = best(args.repeat, sr.encode, puzzles, kind, dtype=dtype)
        row(f"encode {label}", seconds, saved, encoded.nbytes, count)
        seconds = best(args.repeat, sr.decode, encoded, kind)
        row(f"decode {label}", seconds, saved, encoded.nbytes, count)
        del encoded

    # One move per blank, in cell order: the moves that solve each puzzle.
    solutions = sr.solve_batch(puzzles).reshape(count, 81)
    flat = puzzles.reshape(count, 81)
    blanks = int((flat == 0).sum(axis=1).max())
    moves = np.full((count, blanks, 3), -1, dtype=np.int32)
    for i in range(0, count, 10_000):  # numpy per chunk of rows, to bound memory
        part = flat[i : i + 10_000] == 0
        order = np.argsort(~part, axis=1, kind="stable")[:, :blanks]
        taken = np.take_along_axis(part, order, axis=1)
        digit = np.take_along_axis(solutions[i : i + 10_000], order, axis=1)
        block = np.stack([order // 9, order % 9, digit.astype(np.int64)], axis=-1).astype(np.int32)
        block[~taken] = -1
        moves[i : i + 10_000] = block
    ids = sr.encode_moves(moves)
    # Beside saving the (N, k, 3) int32 moves, the larger side of the pair.
    saved = save_time(moves, folder, args.repeat)
    row("encode_moves", best(args.repeat, sr.encode_moves, moves), saved, moves.nbytes, count)
    row("decode_moves", best(args.repeat, sr.decode_moves, ids), saved, moves.nbytes, count)

    for given in (False, True):
        out = os.path.join(folder, f"hrm-{given}")
        start = time.perf_counter()
        meta = sr.export_hrm(
            out,
            puzzles,
            solutions if given else None,
            num_aug=args.num_aug,
            seed=0,
            test_fraction=0.1,
        )
        seconds = time.perf_counter() - start
        files = sorted(Path(out).rglob("*.npy"))
        written = sum(f.stat().st_size for f in files)
        arrays = [np.load(f) for f in files]
        scratch = os.path.join(folder, "x.npy")
        saved = best(args.repeat, save_all, scratch, arrays)
        label = "solutions given" if given else "solving"
        row(f"export_hrm num_aug={args.num_aug}, {label}", seconds, saved, written, count)
        shutil.rmtree(out)
    print(
        f"  export_hrm: train {meta['train']['total_groups']:,} groups x {1 + args.num_aug} "
        f"examples, test {meta['test']['total_groups']:,} groups; {written / 1e6:.0f} MB of .npy"
    )


if __name__ == "__main__":
    main()
