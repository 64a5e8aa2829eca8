"""Sudoku Explainer ratings: sudoku_rs's se_rate beside serate (SukakuExplainer), agreement per
ER band and speed, on the same puzzles in one run.

    python benches/se.py                                  # agreement on the whole sample
    python benches/se.py --serate /work/serate/classes --out table.md
    python benches/se.py --serate /work/serate/classes --below 10   # skip the slowest bands

The samples are ``tests/data/se_reference.txt`` (classic puzzles from the shared sets) and
``tests/data/se_sukaku_reference.txt`` (pencil-mark puzzles), each puzzle with the ER/EP/ED
serate printed for it (SE 1.2.1's technique set). Agreement compares ``se_rate_batch`` with
those stored ratings.

With ``--serate CLASSES`` (a directory of compiled SukakuExplainer classes, ``java`` on the
path) the speed part times both raters band by band on the same puzzles, alternating: serate
rates a band's puzzles in one JVM from an input file (as it is run on a puzzle collection),
then ``se_rate_batch`` rates them on one thread, then the next band, for ``--rounds`` rounds.
serate's time has the JVM's start-up (its time on a file of one solved grid, the median of
three) taken off; its warm-up (class loading, the JIT) stays in, spread over the band's
puzzles. serate also prints its own time per puzzle (``%e``, hundredths of a second), whose
median is shown too. serate runs single-threaded (``--threads=1``), as ``se_rate_batch`` does
here.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np

import sudoku_rs as sr

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
REFERENCE = DATA / "se_reference.txt"
SUKAKU = DATA / "se_sukaku_reference.txt"
#: SE 1.2.1's technique set among SukakuExplainer's.
TECHS = "1111111111010111011011011011000010100010111111"
BANDS = [(1.0, 2.0), (2.0, 4.0), (4.0, 6.2), (6.2, 7.5), (7.5, 9.0), (9.0, 10.0), (10.0, 12.0)]

Row = Tuple[str, Tuple[float, float, float], str]


def load(path: Path) -> List[Row]:
    rows = []
    for line in path.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        puzzle, rating, source = line.split()
        er, ep, ed = (float(x) for x in rating.split("/"))
        rows.append((puzzle, (er, ep, ed), source))
    return rows


def band_of(er: float) -> int:
    return next(i for i, (lo, hi) in enumerate(BANDS) if lo <= er < hi)


def agreement(rows: List[Row], name: str) -> List[str]:
    """The per-band agreement table of se_rate_batch against the stored serate ratings."""
    start = time.perf_counter()
    got = sr.se_rate_batch([p for p, _, _ in rows], threads=1)
    seconds = time.perf_counter() - start
    lines = [
        f"{name}: {len(rows)} puzzles; se_rate_batch on 1 thread {seconds:.2f} s",
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
    return lines


def serate_time(text: str) -> float:
    """Seconds from serate's ``%e``: ``1.23s``, ``2m35s``, ``1h02m03s``."""
    found = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?([\d.]+)s", text)
    if found is None:
        raise ValueError(f"not a serate time: {text!r}")
    hours, minutes, seconds = found.groups()
    return int(hours or 0) * 3600 + int(minutes or 0) * 60 + float(seconds)


def serate(classes: str, puzzles: List[str], timeout: Optional[float]) -> Tuple[float, List[str]]:
    """Wall seconds of one serate run (one JVM) over `puzzles`, and its output lines
    (``ER/EP/ED seconds`` per puzzle)."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("".join(p + "\n" for p in puzzles))
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
                "--format=%r/%p/%d %e",
                f"--input={f.name}",
                "--output=-",
            ],
            capture_output=True,
            text=True,
            check=True,
            timeout=timeout,
        ).stdout
        return time.perf_counter() - start, out.splitlines()
    finally:
        os.unlink(f.name)


def speed(rows: List[Row], classes: str, per_band: int, below: float, rounds: int) -> List[str]:
    solved = "".join(map(str, np.ravel(sr.solve(rows[0][0]))))
    startup = statistics.median(serate(classes, [solved], None)[0] for _ in range(3))
    bands = []
    for b, (lo, hi) in enumerate(BANDS):
        if lo >= below:
            continue
        puzzles = [p for p, r, _ in rows if band_of(r[0]) == b][:per_band]
        if puzzles:
            bands.append((lo, hi, puzzles))
    java: Dict[float, List[float]] = {lo: [] for lo, _, _ in bands}
    rust: Dict[float, List[float]] = {lo: [] for lo, _, _ in bands}
    own: Dict[float, List[float]] = {lo: [] for lo, _, _ in bands}
    for _ in range(rounds):
        for lo, _, puzzles in bands:
            seconds, out = serate(classes, puzzles, None)
            java[lo].append(max(seconds - startup, 1e-6) / len(puzzles))
            own[lo] += [serate_time(line.split()[-1]) for line in out if line.strip()]
            start = time.perf_counter()
            sr.se_rate_batch(puzzles, threads=1)
            rust[lo].append((time.perf_counter() - start) / len(puzzles))
    lines = [
        (
            f"speed: each band's puzzles rated by serate (one JVM, start-up {startup:.2f} s "
            f"taken off) then by se_rate_batch (1 thread), alternating, {rounds} round(s); "
            "best round per rater"
        ),
        "",
        (
            "| serate ER | puzzles | serate s/puzzle | serate's own median | se_rate s/puzzle "
            "| speed-up | goal |"
        ),
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for lo, hi, puzzles in bands:
        js, rs = min(java[lo]), min(rust[lo])
        goal = "1,000x" if hi <= 9.0 else "100x"
        lines.append(
            f"| {lo:.1f}-{hi:.1f} | {len(puzzles)} | {js:.4f} | {statistics.median(own[lo]):.2f} "
            f"| {rs:.6f} | {js / rs:,.0f}x | {goal} |"
        )
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serate", help="SukakuExplainer's compiled classes, to time serate")
    parser.add_argument("--timing", type=int, default=100, help="most puzzles timed per band")
    parser.add_argument(
        "--timing-below", type=float, default=12.0, help="time only bands below this ER"
    )
    parser.add_argument("--rounds", type=int, default=1, help="alternating rounds of timing")
    parser.add_argument(
        "--below",
        type=float,
        default=12.0,
        help="only the puzzles serate rated below this ER, in agreement and timing",
    )
    parser.add_argument("--out", help="also write the tables to this file")
    args = parser.parse_args()
    rows = [row for row in load(REFERENCE) if row[1][0] < args.below]
    lines = [
        (
            f"machine: {platform.machine()}, {os.cpu_count()} cores, "
            f"load {os.getloadavg()[0]:.1f}; sudoku_rs {sr.__version__}"
        ),
        "",
    ]
    lines += agreement(rows, f"classic sample ({REFERENCE.name})")
    sukaku = [row for row in load(SUKAKU) if row[1][0] < args.below]
    lines += [""] + agreement(sukaku, f"sukaku sample ({SUKAKU.name})")
    if args.serate:
        lines += [""] + speed(rows, args.serate, args.timing, args.timing_below, args.rounds)
    text = "\n".join(lines)
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
