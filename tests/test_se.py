"""The Sudoku Explainer rating, checked against serate's own ratings (tests/data/se_reference.txt)."""

from __future__ import annotations

import math
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import sudoku_rs as sr

REFERENCE = Path(__file__).parent / "data" / "se_reference.txt"


def reference(max_er: float) -> list[tuple[str, tuple[float, float, float]]]:
    rows = []
    for line in REFERENCE.read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, rating, _ = line.split()
            er, ep, ed = (float(x) for x in rating.split("/"))
            if er < max_er:
                rows.append((puzzle, (er, ep, ed)))
    return rows


# Below 6.2 SE uses no chain: every technique there is this module's, and must agree exactly.
EASY = reference(6.2)


def test_the_sample_spans_the_techniques_below_chains():
    ers = {er for _, (er, _, _) in EASY}
    assert len(EASY) >= 100
    assert {1.2, 1.5, 2.0, 2.6, 3.4, 4.2, 4.5} <= ers


def test_se_rate_batch_agrees_with_serate_below_chains():
    got = sr.se_rate_batch([p for p, _ in EASY], threads=2)
    assert (got["status"] == sr.Status.SOLVED).all()
    mismatches = [
        (p, ref, (g["er"], g["ep"], g["ed"]))
        for (p, ref), g in zip(EASY, got)
        if not np.allclose((g["er"], g["ep"], g["ed"]), ref)
    ]
    assert mismatches == []


def test_se_rate_matches_the_batch():
    for puzzle, (er, ep, ed) in EASY[:20]:
        rating = sr.se_rate(puzzle)
        assert isinstance(rating, sr.SERating)
        assert rating == pytest.approx((er, ep, ed))
        assert all(round(x, 1) == x for x in rating)


def test_se_rate_takes_every_grid_kind():
    puzzle, ref = EASY[0]
    grid = np.array([0 if c == "." else int(c) for c in puzzle], np.uint8).reshape(9, 9)
    assert sr.se_rate(grid) == pytest.approx(ref)
    assert sr.se_rate(grid.tolist()) == pytest.approx(ref)


SOLVED = sr.solve(EASY[0][0])
CONFLICT = "11" + "." * 79
NOT_UNIQUE = "." * 81
NO_SOLUTION = "12345678." + "." * 8 + "9" + "." * 63


def test_se_rate_raises_the_usual_classes():
    with pytest.raises(sr.InvalidPuzzleError):
        sr.se_rate(CONFLICT)
    with pytest.raises(sr.InvalidPuzzleError, match="several solutions"):
        sr.se_rate(NOT_UNIQUE)
    with pytest.raises(sr.NoSolutionError):
        sr.se_rate(NO_SOLUTION)
    with pytest.raises(sr.InvalidRulesError, match="variant"):
        sr.se_rate(EASY[0][0], rules=sr.Rules(diagonals=True))
    with pytest.raises(sr.InvalidPuzzleError):
        sr.se_rate("1" * 16)


def test_se_rate_batch_statuses():
    got = sr.se_rate_batch([EASY[0][0], CONFLICT, NOT_UNIQUE, NO_SOLUTION])
    assert got["status"].tolist() == [
        sr.Status.SOLVED,
        sr.Status.INVALID,
        sr.Status.NOT_UNIQUE,
        sr.Status.NO_SOLUTION,
    ]
    assert not math.isnan(got["er"][0])
    assert np.isnan(got["er"][1:]).all() and np.isnan(got["ed"][1:]).all()
    with pytest.raises(sr.InvalidRulesError):
        sr.se_rate_batch([EASY[0][0]], rules=sr.Rules(diagonals=True))


def test_time_limit_stops_with_a_status():
    got = sr.se_rate_batch([EASY[0][0]] * 3, time_limit=0.0)
    assert (got["status"] == sr.Status.TIME_LIMIT).all()
    assert sr.Status.TIME_LIMIT.label == "time limit"
    with pytest.raises(TimeoutError):
        sr.se_rate(EASY[0][0], time_limit=0.0)
    with pytest.raises(ValueError, match="time_limit"):
        sr.se_rate(EASY[0][0], time_limit=-1.0)


def test_a_time_limit_stops_a_long_chain_step_promptly():
    # ER 11.1 (serate): after a few quick steps, one nested forcing chain step of seconds. The
    # limit is asked inside that step, not only between steps.
    hard = "98.7.......7.65.........7..7...4..3..3...7..2..56..9..2......1...89..5.......1..4"
    start = time.perf_counter()
    got = sr.se_rate_batch([hard], time_limit=0.05, threads=1)
    batch = time.perf_counter() - start
    assert got["status"][0] == sr.Status.TIME_LIMIT
    start = time.perf_counter()
    with pytest.raises(TimeoutError):
        sr.se_rate(hard, time_limit=0.05)
    single = time.perf_counter() - start
    assert batch < 0.5 and single < 0.5, (batch, single)


def test_chain_ratings_agree_with_serate_on_a_fast_subset():
    # Cycles, aligned triple exclusion, Nishio and cell/region chains: the quick part of the
    # chain range.
    rows = [(p, r) for p, r in reference(8.5) if r[0] >= 6.2][:40]
    assert len(rows) >= 20
    got = sr.se_rate_batch([p for p, _ in rows])
    mismatches = [
        (p, ref, (g["er"], g["ep"], g["ed"]))
        for (p, ref), g in zip(rows, got)
        if not np.allclose((g["er"], g["ep"], g["ed"]), ref)
    ]
    assert mismatches == []


SUKAKU = Path(__file__).parent / "data" / "se_sukaku_reference.txt"


def sukaku_reference() -> list[tuple[str, tuple[float, float, float]]]:
    rows = []
    for line in SUKAKU.read_text().splitlines():
        if line and not line.startswith("#"):
            puzzle, rating, _ = line.split()
            rows.append((puzzle, tuple(float(x) for x in rating.split("/"))))
    return rows


def bordered(marks: str) -> str:
    """SukakuExplainer's multi-line pencil-mark grid of a 729-character string, drawn here in
    Python as its "copy pencil marks" draws it (width of the widest cell, boxes ruled)."""
    cells = ["".join(c for c in marks[9 * i : 9 * i + 9] if c not in ".0") for i in range(81)]
    width = max(len(c) for c in cells)
    rule = "+" + ("-" * (3 * (width + 1) + 1) + "+") * 3
    lines = []
    for r in range(9):
        if r % 3 == 0:
            lines.append(rule)
        row = "|"
        for c in range(9):
            row += " " + cells[9 * r + c].ljust(width)
            if c % 3 == 2:
                row += " |"
        lines.append(row)
    return "\n".join(lines + [rule])


def test_sukaku_ratings_agree_with_serate():
    rows = sukaku_reference()
    assert len(rows) >= 50 and len({r for _, r in rows}) >= 5
    got = sr.se_rate_batch([p for p, _ in rows])
    mismatches = [
        (p, ref, (g["er"], g["ep"], g["ed"]))
        for (p, ref), g in zip(rows, got)
        if g["status"] != sr.Status.SOLVED or not np.allclose((g["er"], g["ep"], g["ed"]), ref)
    ]
    assert mismatches == []


def test_sukaku_forms_rate_alike():
    rows = sukaku_reference()
    puzzle, ref = max(rows, key=lambda row: row[1])
    assert sr.se_rate(puzzle) == pytest.approx(ref)
    assert sr.se_rate(bordered(puzzle)) == pytest.approx(ref)
    assert sr.se_rate("." * 81, candidates=puzzle) == pytest.approx(ref)
    marks = sr.parse_candidates(puzzle)
    assert sr.se_rate(np.zeros((9, 9), np.uint8), candidates=marks) == pytest.approx(ref)
    # One-row batches, lists mixing grids and sukaku, and the bordered form as a row.
    got = sr.se_rate_batch([puzzle])
    assert (got["er"][0], got["ep"][0], got["ed"][0]) == pytest.approx(ref)
    got = sr.se_rate_batch([EASY[0][0], puzzle, bordered(puzzle), "x" * 729])
    assert got["status"].tolist() == [sr.Status.SOLVED] * 3 + [sr.Status.INVALID]
    assert (got["er"][2], got["ep"][2], got["ed"][2]) == pytest.approx(ref)


def test_a_classic_puzzle_as_marks_rates_from_its_marks():
    # Givens as one-digit cells are givens again; a cell the givens leave one digit, which no
    # cell it sees is marked with, is taken as given too (SukakuExplainer reads it so): never
    # harder than the classic rating.
    for puzzle, (er, _, _) in EASY[:30]:
        marks = sr.format_candidates(sr.candidates(puzzle))
        rating = sr.se_rate(marks)
        assert rating.er <= er and rating == sr.se_rate(puzzle, candidates=marks)


def test_sukaku_errors_are_the_usual_classes():
    with pytest.raises(sr.InvalidCandidatesError):
        sr.se_rate("5" * 729)
    with pytest.raises(sr.InvalidCandidatesError):
        sr.se_rate("." * 729)
    with pytest.raises(sr.InvalidPuzzleError, match="several solutions"):
        sr.se_rate("123456789" * 81)
    no_solution = "1" + "." * 8 + ("1" + "." * 8) + "123456789" * 79
    with pytest.raises(sr.NoSolutionError):
        sr.se_rate(no_solution)
    with pytest.raises(sr.InvalidCandidatesError, match="already"):
        sr.se_rate(sukaku_reference()[0][0], candidates="123456789" * 81)
    got = sr.se_rate_batch(["123456789" * 81, no_solution, "." * 729])
    assert got["status"].tolist() == [
        sr.Status.NOT_UNIQUE,
        sr.Status.NO_SOLUTION,
        sr.Status.INVALID,
    ]


# ---------------------------------------------------------------- the command line


SUKAKU_REFERENCE = Path(__file__).parent / "data" / "se_sukaku_reference.txt"


def run_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "sudoku_rs", *args],
        check=False,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_rate_command_prints_each_line_with_serates_rating(tmp_path):
    rows = [(p, f"ED={er:.1f}/{ep:.1f}/{ed:.1f}") for p, (er, ep, ed) in EASY[::9]]
    for line in SUKAKU_REFERENCE.read_text().splitlines()[:40]:
        if line and not line.startswith("#"):
            marks, rating, _ = line.split()
            rows.append((marks, f"ED={rating}"))
    solved = sr.solve(EASY[0][0])
    several = "." * 18 + solved[18:27] + "." * 54
    assert sr.count_solutions(several, limit=2) == 2
    none = "12345678." + "." * 8 + "9" + "." * 63  # r1c9 sees every digit, no conflict
    clash = "11" + "." * 79
    rows += [(several, "multiple"), (none, "none"), (clash, "invalid")]
    src = tmp_path / "puzzles.txt"
    # The line as written comes back, blanks and all ('0' here), CRLF or not.
    written = [(p.replace(".", "0") if i % 2 else p) for i, (p, _) in enumerate(rows)]
    src.write_text("\r\n".join(written) + "\n")
    result = run_cli("rate", str(src), "--threads", "2")
    assert result.returncode == 1, result.stderr  # some are not rated
    expected = [f"{p} {label}" for p, (_, label) in zip(written, rows)]
    assert result.stdout.splitlines() == expected
    rated = len(rows) - 3
    assert f"{rated} rated" in result.stderr and "1 with several solutions" in result.stderr
    assert "1 with no solution" in result.stderr and "1 invalid" in result.stderr
    # One thread, stdin, an output file: the same lines; all rated exits 0.
    out = tmp_path / "rated.txt"
    good = "\n".join(written[:rated]) + "\n"
    result = run_cli("rate", "-", "--threads", "1", "-q", "-o", str(out), stdin=good)
    assert result.returncode == 0 and result.stderr == ""
    assert out.read_text().splitlines() == expected[:rated]


def test_the_rate_command_names_bad_lines_and_refuses_variants(tmp_path):
    puzzle, (er, ep, ed) = EASY[-1]
    src = tmp_path / "puzzles.txt"
    src.write_text(f"{puzzle}\nnot a puzzle\n")
    result = run_cli("rate", str(src))
    assert result.returncode == 2 and f"{src}:2:" in result.stderr and result.stdout == ""
    result = run_cli("rate", str(src), "--skip-invalid", "-q")
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{puzzle} ED={er:.1f}/{ep:.1f}/{ed:.1f}",
        "not a puzzle invalid",
    ]
    result = run_cli("rate", str(src), "--rules", "diagonals")
    assert result.returncode == 2 and "does not rate variant rules" in result.stderr
    result = run_cli("rate", str(src), "--time-limit", "0")
    assert result.returncode == 2 and "positive number of seconds" in result.stderr
    # A puzzle past its time budget is 'unknown', not a rating.
    hardest = next(p for p, (er, _, _) in reference(20.0) if er >= 9.0)
    src.write_text(f"{hardest}\n")
    result = run_cli("rate", str(src), "--time-limit", "0.001")
    assert result.returncode == 1
    assert result.stdout == f"{hardest} unknown\n" and "1 past --time-limit" in result.stderr
