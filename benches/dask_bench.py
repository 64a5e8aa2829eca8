"""Prints puzzles/second of sudoku_rs.dask on a LocalCluster beside the in-process batch API.

    python benches/dask_bench.py                      # gen_easy35 and puzzles2_17_clue
    python benches/dask_bench.py --sets gen_minimal --repeat 5 --workers 2

Each set is read with sr.read_puzzles and tiled to at least --min-puzzles rows, so every run
lasts long enough to time. Columns, best of --repeat rounds (each round runs every column once,
in turn):

- in-process: sr.solve_batch(puzzles, threads=1) and threads=<cores>;
- threaded: sudoku_rs.dask.solve_batch(..., threads=1) under dask's threaded scheduler in this
  process (one dask thread per core);
- cluster: a LocalCluster of --workers processes with one thread each, threads=1 per task.
  "on workers": the puzzles are already in the workers' memory (scattered and persisted
  before timing), so the figure is scheduling, the solving and sending the solutions back;
  "from client": scattering the puzzles from this process is timed too.

Needs the dask extra (pip install "sudoku_rs[dask]"). On a shared or loaded machine the
figures move from run to run; compare columns of one run, not runs.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from pathlib import Path

import dask
import dask.array as da
import distributed
import numpy as np

import sudoku_rs as sr
import sudoku_rs.dask as srd

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def best_rates(fns, count: int, repeat: int) -> list[float]:
    """count / best seconds of each function. Rounds run every function once in turn, so a
    burst of load from other processes hits all columns alike instead of one."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for k, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            best[k] = min(best[k], time.perf_counter() - start)
    return [count / seconds for seconds in best]


def on_workers(client: distributed.Client, puzzles: np.ndarray, chunk: int) -> da.Array:
    """The puzzles as a dask array whose chunks live in the workers' memory."""
    parts = [puzzles[i : i + chunk] for i in range(0, len(puzzles), chunk)]
    futures = client.scatter(parts, hash=False)  # fresh keys: each call ships the data again
    blocks = [da.from_delayed(f, shape=p.shape, dtype=p.dtype) for f, p in zip(futures, parts)]
    return da.concatenate(blocks)


def bench_set(client, path: Path, args, cores: int) -> str:
    one = sr.read_puzzles(path)
    puzzles = np.concatenate([one] * math.ceil(args.min_puzzles / len(one)))
    n = len(puzzles)
    chunk = math.ceil(n / (args.workers * args.tasks_per_worker))
    persisted = client.persist(on_workers(client, puzzles, chunk))
    distributed.wait(persisted)

    def threaded():
        lazy = da.from_array(puzzles, chunks=(chunk, puzzles.shape[1]))
        return srd.solve_batch(lazy, threads=1).compute(scheduler="threads")

    def cluster_on_workers():
        return srd.solve_batch(persisted, threads=1).compute()

    def cluster_from_client():
        return srd.solve_batch(on_workers(client, puzzles, chunk), threads=1).compute()

    expected = sr.solve_batch(puzzles)
    for fn in (threaded, cluster_on_workers, cluster_from_client):
        assert np.array_equal(fn(), expected), f"{fn.__name__} differs from in-process"
    rates = best_rates(
        [
            lambda: sr.solve_batch(puzzles, threads=1),
            lambda: sr.solve_batch(puzzles, threads=cores),
            threaded,
            cluster_on_workers,
            cluster_from_client,
        ],
        n,
        args.repeat,
    )
    return f"{path.name:<18} {n:9,} " + " ".join(f"{r:12,.0f}" for r in rates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--sets", nargs="+", default=["gen_easy35", "puzzles2_17_clue"])
    parser.add_argument("--min-puzzles", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tasks-per-worker", type=int, default=4)
    args = parser.parse_args()

    cores = os.cpu_count() or 1
    print(
        f"sudoku_rs {sr.__version__}, dask {dask.__version__}, {cores} cores; "
        f"puzzles/s, best of {args.repeat}; cluster: {args.workers} processes x 1 thread"
    )
    print(
        f"{'set':<18} {'puzzles':>9} {'in-proc t=1':>12} {f'in-proc t={cores}':>12} "
        f"{'threaded':>12} {'on workers':>12} {'from client':>12}"
    )
    cluster = distributed.LocalCluster(
        n_workers=args.workers, threads_per_worker=1, processes=True, dashboard_address=":0"
    )
    with cluster, distributed.Client(cluster) as client:
        for name in args.sets:
            print(bench_set(client, args.data / name, args, cores), flush=True)


if __name__ == "__main__":
    main()
