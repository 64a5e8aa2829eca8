"""Prints what printing costs: time and file size of sr.print_sheets and Board.save.

    python benches/print_sheets.py                 # 100 9x9 puzzles, best and median of 5
    python benches/print_sheets.py --count 400 --size 16 --repeat 3

The puzzles come from sr.generate_batch with a fixed seed, so every run prints the same book
(and, the PDF being deterministic, the same bytes). Besides wall-clock seconds it prints process
CPU seconds: on a shared, loaded machine wall time measures the load as much as the code.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import time

import sudoku_rs as sr


def timed(make):
    wall, cpu = time.perf_counter(), time.process_time()
    result = make()
    return result, time.perf_counter() - wall, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--size", type=int, default=9, choices=(4, 9, 16, 25))
    parser.add_argument("--per-page", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    print(f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    puzzles = sr.generate_batch(args.count, size=args.size, seed=2024)
    folder = tempfile.mkdtemp(prefix="sudoku_rs_print_")
    book = os.path.join(folder, "book.pdf")
    walls, cpus = [], []
    for _ in range(args.repeat):
        pages, wall, cpu = timed(lambda: sr.print_sheets(puzzles, book, per_page=args.per_page))
        walls.append(wall)
        cpus.append(cpu)
    print(
        f"print_sheets: {args.count} {args.size}x{args.size} puzzles with answers, A4, "
        f"{args.per_page} a page: {pages} pages, {os.path.getsize(book):,} bytes; "
        f"wall s best {min(walls):.3f} median {statistics.median(walls):.3f}; "
        f"CPU s best {min(cpus):.3f}"
    )
    board = sr.Board(puzzles[0].reshape(args.size, args.size))
    for kind in ("svg", "pdf", "png"):
        path = os.path.join(folder, f"board.{kind}")
        try:
            runs = [timed(lambda p=path: board.save(p))[1] for _ in range(args.repeat)]
        except ImportError as err:
            print(f"board.save(.{kind}): skipped ({err})")
            continue
        print(
            f"board.save(.{kind}): {os.path.getsize(path):,} bytes, best {min(runs) * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
