"""Sudoku Explainer ratings: sudoku_rs's se_rate beside serate (SukakuExplainer), agreement per
ER band and speed, on the same puzzles in one run.

    python benches/se.py                                  # agreement on the whole sample
    python benches/se.py --serate /work/serate/classes --timing 3 --out table.md

The sample is ``tests/data/se_reference.txt``: puzzles from the shared sets with the ER/EP/ED
serate printed for them (SE 1.2.1's technique set). Agreement compares ``se_rate_batch`` with
those stored ratings. With ``--serate CLASSES`` (a directory of compiled SukakuExplainer classes,
``java`` on the path) the speed part runs serate and ``se_rate`` alternately on up to
``--timing`` puzzles of every band, one fresh JVM per puzzle as serate is used from the command
line; serate's time is shown with the JVM's start-up (its time on a solved grid) taken off.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

import sudoku_rs as sr

REFERENCE = Path(__file__).resolve().parents[1] / "tests" / "data" / "se_reference.txt"
#: SE 1.2.1's technique set among SukakuExplainer's.
TECHS = "1111111111010111011011011011000010100010111111"
BANDS = [(1.0, 2.0), (2.0, 4.0), (4.0, 6.2), (6.2, 7.5), (7.5, 9.0), (9.0, 10.0), (10.0, 12.0)]


def load() -> list[tuple[str, tuple[float, float, float], str]]:
    rows = []
    for line in REFERENCE.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        puzzle, rating, source = line.split()
        er, ep, ed = (float(x) for x in rating.split("/"))
        rows.append((puzzle, (er, ep, ed), source))
    return rows


def band_of(er: float) -> int:
    return next(i for i, (lo, hi) in enumerate(BANDS) if lo <= er < hi)


def serate_seconds(classes: str, puzzle: str) -> tuple[float, str]:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(puzzle + "\n")
    try:
        start = time.perf_counter()
        out = subprocess.run(
            [
                "java",
                "-cp",
                classes,
                "diuf.sudoku.test.serate",
                f"--techs={TECHS}",
                "--threads=1",
                "--format=%r/%p/%d",
                f"--input={f.name}",
                "--output=-",
            ],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        return time.perf_counter() - start, out
    finally:
        os.unlink(f.name)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serate", help="SukakuExplainer's compiled classes, to time serate")
    parser.add_argument("--timing", type=int, default=3, help="puzzles timed per band")
    parser.add_argument(
        "--timing-below", type=float, default=12.0, help="time only bands below this ER"
    )
    parser.add_argument("--out", help="also write the tables to this file")
    args = parser.parse_args()
    rows = load()
    puzzles = [p for p, _, _ in rows]
    start = time.perf_counter()
    got = sr.se_rate_batch(puzzles, threads=1)
    batch_seconds = time.perf_counter() - start
    lines = [
        (
            f"machine: {platform.machine()}, {os.cpu_count()} cores, "
            f"load {os.getloadavg()[0]:.1f}; sudoku_rs {sr.__version__}"
        ),
        (
            f"sample: {len(rows)} puzzles ({REFERENCE.name}); se_rate_batch on 1 thread "
            f"{batch_seconds:.2f} s"
        ),
        "",
        "| serate ER | puzzles | ER equal | ER within 0.3 | EP equal | ED equal |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    totals = np.zeros(5, int)
    for b, (lo, hi) in enumerate(BANDS):
        idx = [i for i, (_, r, _) in enumerate(rows) if band_of(r[0]) == b]
        if not idx:
            continue
        ref = np.array([rows[i][1] for i in idx])
        mine = np.array([[got[i]["er"], got[i]["ep"], got[i]["ed"]] for i in idx])
        close = np.isclose(mine, ref)
        counts = np.array(
            [
                len(idx),
                close[:, 0].sum(),
                (np.abs(mine[:, 0] - ref[:, 0]) <= 0.3 + 1e-9).sum(),
                close[:, 1].sum(),
                close[:, 2].sum(),
            ]
        )
        totals += counts
        lines.append(
            f"| {lo:.1f}-{hi:.1f} | {counts[0]} | "
            + " | ".join(f"{c / counts[0]:.0%}" for c in counts[1:])
            + " |"
        )
    lines.append(
        f"| all | {totals[0]} | " + " | ".join(f"{c / totals[0]:.0%}" for c in totals[1:]) + " |"
    )
    if args.serate:
        solved = sr.solve(puzzles[0])
        startup = statistics.median(
            serate_seconds(args.serate, "".join(map(str, np.ravel(solved))))[0] for _ in range(3)
        )
        lines += [
            "",
            (
                f"speed, alternating serate and se_rate per puzzle (serate's JVM start-up "
                f"{startup:.2f} s taken off):"
            ),
            "",
            "| serate ER | puzzles | serate s/puzzle | se_rate s/puzzle | speed-up |",
            "|---|---:|---:|---:|---:|",
        ]
        for b, (lo, hi) in enumerate(BANDS):
            idx = [i for i, (_, r, _) in enumerate(rows) if band_of(r[0]) == b][: args.timing]
            if not idx or lo >= args.timing_below:
                continue
            java, rust = [], []
            for i in idx:
                seconds, _ = serate_seconds(args.serate, puzzles[i])
                java.append(max(seconds - startup, 1e-3))
                t = time.perf_counter()
                sr.se_rate_batch([puzzles[i]], threads=1)
                rust.append(time.perf_counter() - t)
            js, rs = statistics.mean(java), statistics.mean(rust)
            lines.append(
                f"| {lo:.1f}-{hi:.1f} | {len(idx)} | {js:.3f} | {rs:.6f} | {js / rs:,.0f}x |"
            )
    text = "\n".join(lines)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
