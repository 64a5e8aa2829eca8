"""The Sudoku Explainer rating, checked against serate's own ratings (tests/data/se_reference.txt)."""

from __future__ import annotations

import math
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
