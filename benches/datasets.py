"""Prints the speed of the dataset functions beside what writing their bytes costs.

    python benches/datasets.py                       # 100,000 puzzles, 5 rounds
    python benches/datasets.py --count 20000 --repeat 9 --num-aug 10
    python benches/datasets.py --no-export           # the encodings only

One run, side by side:

- ``encode`` and ``decode`` of tokens (uint8, int64) and one-hot (bool, uint8, float16,
  float32 as SATNet feeds it, float64), each beside ``np.save`` of the same bytes to a file in
  --dir (the page cache: a fast disk's best case). Each round times ``np.save``, then
  ``encode``, then ``decode``, so the three share the machine's load of that moment; the
  figures are the medians over --repeat rounds, and "x save" is the median of each round's
  own ratio. The goal is within 2x of writing the bytes.
- ``encode_moves`` / ``decode_moves`` of one move per blank cell (int32), beside ``np.save`` of
  the (N, k, 3) moves, in alternating rounds the same way.
- ``export_hrm`` of the puzzles with --num-aug augmentations each (test_fraction 0.1), once
  solving them (counting to 2 first) and once given their solutions (checked), beside
  ``np.save`` of the arrays it writes.

Puzzles come from ``gen_minimal`` in ../shared/data (100,000 unique 9x9 puzzles; the file is
repeated to reach --count). Figures are wall-clock (``export_hrm`` once, its ``np.save`` the
best of --repeat); on a shared machine the load shows in them, so the load average is printed
with them.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable, Tuple

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


def save_all(path: str, arrays: list) -> None:
    for array in arrays:
        np.save(path, array)


def row(name: str, seconds: float, saved: float, nbytes: int, count: int, ratio: float) -> None:
    print(
        f"{name:34} {seconds * 1e3:9.1f} {saved * 1e3:9.1f} {ratio:7.2f} "
        f"{nbytes / seconds / 1e9:8.2f} {count / seconds / 1e6:9.2f}"
    )


def timed(function: Callable[..., object], *args: object, **kwargs: object) -> float:
    start = time.perf_counter()
    function(*args, **kwargs)
    return time.perf_counter() - start


def side_by_side(rounds: int, array: np.ndarray, folder: str, calls: list) -> Tuple[float, list]:
    """Rounds of ``np.save(array)`` then each of ``calls`` (``(function, args, kwargs)``) in
    turn: the median save time and, per call, its median time and the median of its ratio to
    the same round's save."""
    path = os.path.join(folder, "bytes.npy")
    saves, times = [], [[] for _ in calls]
    for _ in range(rounds):
        saves.append(timed(np.save, path, array))
        os.remove(path)
        for spent, (function, args, kwargs) in zip(times, calls):
            spent.append(timed(function, *args, **kwargs))
    out = [
        (statistics.median(spent), statistics.median(t / s for t, s in zip(spent, saves)))
        for spent in times
    ]
    return statistics.median(saves), out


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
    parser.add_argument("--repeat", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--num-aug", type=int, default=10)
    parser.add_argument("--no-export", action="store_true", help="leave out export_hrm")
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
        f"load {os.getloadavg()[0]:.1f}; medians of {args.repeat} rounds; bytes to {folder}"
    )
    puzzles = load_puzzles(args.count)
    count = len(puzzles)
    print(f"{count:,} 9x9 puzzles from gen_minimal")
    print(f"{'call':34} {'ms':>9} {'save ms':>9} {'x save':>7} {'GB/s':>8} {'Mpuzzle/s':>9}")
    kinds = [("tokens", None), ("tokens", np.int64), ("onehot", None), ("onehot", np.uint8)]
    kinds += [("onehot", np.float16), ("onehot", np.float32), ("onehot", np.float64)]
    for kind, dtype in kinds:
        label = kind if dtype is None else f"{kind} {np.dtype(dtype).name}"
        encoded = sr.encode(puzzles, kind, dtype=dtype)
        saved, ((encode_s, encode_x), (decode_s, decode_x)) = side_by_side(
            args.repeat,
            encoded,
            folder,
            [(sr.encode, (puzzles, kind), {"dtype": dtype}), (sr.decode, (encoded, kind), {})],
        )
        row(f"encode {label}", encode_s, saved, encoded.nbytes, count, encode_x)
        row(f"decode {label}", decode_s, saved, encoded.nbytes, count, decode_x)
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
    saved, ((encode_s, encode_x), (decode_s, decode_x)) = side_by_side(
        args.repeat,
        moves,
        folder,
        [(sr.encode_moves, (moves,), {}), (sr.decode_moves, (ids,), {})],
    )
    row("encode_moves", encode_s, saved, moves.nbytes, count, encode_x)
    row("decode_moves", decode_s, saved, moves.nbytes, count, decode_x)
    if args.no_export:
        return

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
        name = f"export_hrm num_aug={args.num_aug}, {label}"
        row(name, seconds, saved, written, count, seconds / saved)
        shutil.rmtree(out)
    print(
        f"  export_hrm: train {meta['train']['total_groups']:,} groups x {1 + args.num_aug} "
        f"examples, test {meta['test']['total_groups']:,} groups; {written / 1e6:.0f} MB of .npy"
    )


if __name__ == "__main__":
    main()
