"""Smoke test of an *installed* sudoku_rs: what a user does first after `pip install`.

    python scripts/smoke.py      # with the venv's python; run by scripts/compat.sh

Solves one puzzle in three input kinds, a numpy batch, a 6x6 with 2x3 boxes, draws a Board as
HTML, runs the `sudoku-rs` command from the venv, and checks that the package came from
site-packages (not the source tree), that `__version__` is the installed distribution's, and
that no Rust toolchain was within reach. Every result is checked by rule, not compared with a
stored answer only. Runs on Python 3.9+ with only numpy installed; exits non-zero on failure.
"""

import importlib.metadata
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import sudoku_rs as sr

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SIX_SOLVED = "123456456123231564564231312645645312"  # 2x3 boxes: 2 rows, 3 columns
HARD = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def is_solution(solved: str, puzzle: str, box=(3, 3)) -> bool:
    """Every unit holds each digit once and the clues are kept."""
    n = box[0] * box[1]
    rows = [solved[r * n : r * n + n] for r in range(n)]
    units = rows + ["".join(row[c] for row in rows) for c in range(n)]
    for br in range(0, n, box[0]):
        for bc in range(0, n, box[1]):
            units.append(
                "".join(rows[r][c] for r in range(br, br + box[0]) for c in range(bc, bc + box[1]))
            )
    digits = set("123456789"[:n])
    kept = all(p in ".0" or p == s for p, s in zip(puzzle, solved))
    return kept and len(solved) == n * n and all(set(u) == digits for u in units)


def main() -> None:
    assert shutil.which("cargo") is None and shutil.which("rustc") is None, "Rust is on PATH"
    site = Path(sr.__file__).resolve()
    assert Path(sys.prefix).resolve() in site.parents, f"sudoku_rs imported from {site}"
    installed = importlib.metadata.version("sudoku_rs")
    assert sr.__version__ == installed, (sr.__version__, installed)

    # One puzzle, three kinds in, the same kind out.
    solved = sr.solve(PUZZLE)
    assert is_solution(solved, PUZZLE), solved
    assert sr.is_unique(PUZZLE) and sr.count_solutions(PUZZLE) == 1
    board = [list(PUZZLE[r * 9 : r * 9 + 9]) for r in range(9)]
    assert "".join(map("".join, sr.solve(board))) == solved
    grid = np.array([[0 if c == "." else int(c) for c in row] for row in board], dtype=np.int8)
    out = sr.solve(grid)
    assert out.dtype == np.int8 and "".join(map(str, out.ravel())) == solved
    assert (grid == 0).sum() == PUZZLE.count("."), "the input was modified"

    # A batch on every core: an (N, 81) stack in, the same shape and dtype out.
    stack = np.array([[0 if c == "." else int(c) for c in p] for p in [PUZZLE, HARD] * 8])
    solutions = sr.solve_batch(stack)
    assert solutions.shape == stack.shape and solutions.dtype == stack.dtype
    for row, puzzle in zip(solutions, [PUZZLE, HARD] * 8):
        assert is_solution("".join(map(str, row)), puzzle)
    counts = sr.count_solutions_batch(stack, limit=2)
    assert counts.tolist() == [1] * 16, counts

    # A 6x6 with 2x3 boxes goes through the generic engine.
    six = "".join(c if i % 2 else "." for i, c in enumerate(SIX_SOLVED))
    six_solved = sr.solve(six, box=(2, 3))
    assert is_solution(six_solved, six, box=(2, 3)), six_solved

    # Board's drawing in Jupyter.
    html = sr.Board(PUZZLE)._repr_html_()
    assert html.startswith("<svg") and html.rstrip().endswith("</svg>"), html[:200]
    assert "30 givens" in html, html[:200]

    # The command line from the venv's bin directory.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "puzzles.txt")
        with open(path, "w") as f:
            f.write(f"{PUZZLE}\n{HARD}\n")
        exe = shutil.which("sudoku-rs", path=os.path.dirname(sys.executable))
        assert exe is not None, "the sudoku-rs command was not installed"
        run = subprocess.run([exe, "solve", path], capture_output=True, text=True, check=True)
        lines = run.stdout.split()
        assert len(lines) == 2 and lines[0] == solved and is_solution(lines[1], HARD), run
        check = subprocess.run([exe, "check", path], check=False, capture_output=True, text=True)
        assert check.returncode == 0 and check.stdout.split() == ["unique"] * 2, check

    print(
        f"smoke ok: sudoku_rs {sr.__version__}, Python {platform.python_version()}, "
        f"numpy {np.__version__}"
    )


if __name__ == "__main__":
    main()
