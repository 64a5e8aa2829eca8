"""Grades and logical solution traces of many puzzles on every core, for publishers grading
thousands of puzzles and for reasoning datasets (step-by-step traces)."""

from __future__ import annotations

import json
import os
from typing import Dict, Iterable, NamedTuple, Optional, Tuple

import numpy as np

from . import _sudoku_rs
from ._atomic import atomic_write
from ._logic import _names
from ._status import _row_labels

#: The five levels of :func:`grade`, from the core. A batch row without one has the label of
#: its :class:`Status` instead ('unsolved', 'not unique', 'no solution' or 'invalid').
LEVELS = tuple(_sudoku_rs.LEVEL_LABELS)


def _name_width() -> int:
    return max(len(name) for name, _, _ in _sudoku_rs._techniques())


def grade_dtype() -> np.dtype:
    """The dtype of :func:`grade_batch`'s result: the fields of :class:`Grade`, then the row's
    :class:`Status` code."""
    return np.dtype(
        [
            ("hardest", f"U{_name_width()}"),
            ("score", np.int64),
            ("level", "U11"),
            ("solved", np.bool_),
            ("unique", np.bool_),
            ("status", np.int8),
        ]
    )


def _grades(columns) -> np.ndarray:
    hardest, score, level, solved, unique, status = columns
    names = np.array([name for name, _, _ in _sudoku_rs._techniques()] + [""])
    out = np.empty(len(score), dtype=grade_dtype())
    out["hardest"] = names[hardest]  # -1 (no step needed) picks the trailing ""
    out["score"] = score
    out["level"] = _row_labels(LEVELS, level, status)
    out["solved"] = solved
    out["unique"] = unique
    out["status"] = status
    return out


def grade_batch(
    puzzles,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    techniques: Optional[Iterable[str]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> np.ndarray:
    """:func:`grade` of many puzzles on every core (the inputs of :func:`solve_batch`): a
    structured array of shape (N,) with fields ``hardest`` (technique name, '' when no step
    was needed), ``score``, ``level``, ``solved``, ``unique`` (as in :class:`Grade`) and
    ``status`` (a :class:`Status` code).

    A row is never an exception. A row with a level has status ``Status.SOLVED``; one without
    has the :class:`Status` that says why and that status's ``label`` as its level: a
    malformed row or one with conflicting clues 'invalid' (``Status.INVALID``), one with no
    solution 'no solution' (``Status.NO_SOLUTION``), several 'not unique'
    (``Status.NOT_UNIQUE``), and one the allowed techniques get stuck on 'unsolved'
    (``Status.UNSOLVED``); the last two are graded as far as logic goes (``hardest``,
    ``score``). Each puzzle is graded on its own, so the result is the same for every thread
    count.
    """
    columns = _sudoku_rs._grade_batch(
        puzzles, box=box, techniques=_names(techniques), threads=threads, progress=progress
    )
    return _grades(columns)


class Traces(NamedTuple):
    """What :func:`explain_batch` returns.

    - ``steps``: a dict of columns with one entry per step of every puzzle, in puzzle order
      then step order, ready for ``pandas.DataFrame(steps)`` or ``pyarrow.table(steps)``:

      - ``puzzle`` (int64): the puzzle's index in the batch;
      - ``step`` (int32): the step's number within its puzzle, from 0;
      - ``technique`` (str): the technique's stable name;
      - ``placements``, ``eliminations``: per step a list of ``(row, col, digit)`` (rows and
        columns from 0, digits from 1), which Arrow stores as ``list<list<int64>>``;
      - ``text`` (str): the sentence; ``weight`` (int32): the technique's weight
        (the column was called ``difficulty`` before).

    - ``grades``: the :func:`grade_batch` array of the same puzzles (whether each trace ends
      solved, its level, and the status of rows that could not be explained).
    """

    steps: Dict[str, np.ndarray]
    grades: np.ndarray


def explain_batch(
    puzzles,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    techniques: Optional[Iterable[str]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Traces:
    """:func:`explain` of many puzzles on every core, as columns a data pipeline can store; see
    :class:`Traces`. A row that cannot be explained (malformed, conflicting clues, no solution)
    has no steps and its grade says why. Each puzzle is explained on its own, so the traces
    are the same for every thread count. To write a dataset file, see :func:`write_traces`.
    """
    rows, columns = _sudoku_rs._explain_batch(
        puzzles, box=box, techniques=_names(techniques), threads=threads, progress=progress
    )
    count = len(rows)
    index = np.fromiter((i for i, _ in rows), dtype=np.int64, count=count)
    # Step numbers restart at each new puzzle index.
    number = np.arange(count, dtype=np.int64)
    if count:
        first = np.r_[True, index[1:] != index[:-1]]
        number -= np.maximum.accumulate(np.where(first, number, 0))
    placements = np.empty(count, dtype=object)
    eliminations = np.empty(count, dtype=object)
    placements[:] = [s[1] for _, s in rows]
    eliminations[:] = [s[2] for _, s in rows]
    steps: Dict[str, np.ndarray] = {
        "puzzle": index,
        "step": number.astype(np.int32),
        "technique": np.array([s[0] for _, s in rows], dtype=f"U{_name_width()}"),
        "placements": placements,
        "eliminations": eliminations,
        "text": np.array([s[6] for _, s in rows], dtype=object),
        "weight": np.fromiter((s[7] for _, s in rows), dtype=np.int32, count=count),
    }
    return Traces(steps, _grades(columns))


def write_traces(
    path,
    puzzles,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    techniques: Optional[Iterable[str]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> int:
    """Writes the logical solution trace of every puzzle to ``path`` as JSON lines, one object
    per puzzle in batch order: ``index``, ``level``, ``score``, ``hardest``, ``solved``,
    ``status`` (as in :func:`grade_batch`) and ``steps``, a list of ``{"technique",
    "placements", "eliminations", "text"}`` with ``[row, col, digit]`` triples (rows and
    columns from 0, digits from 1). The file is written all at once or not at all. Returns
    the number of puzzles written.
    """
    traces = explain_batch(
        puzzles, box=box, techniques=techniques, threads=threads, progress=progress
    )
    steps, grades = traces
    bounds = np.searchsorted(steps["puzzle"], np.arange(len(grades) + 1))
    with atomic_write(os.fspath(path), encoding="utf-8") as out:
        for i, grade in enumerate(grades):
            lo, hi = bounds[i], bounds[i + 1]
            record = {
                "index": i,
                "level": str(grade["level"]),
                "score": int(grade["score"]),
                "hardest": str(grade["hardest"]) or None,
                "solved": bool(grade["solved"]),
                "status": int(grade["status"]),
                "steps": [
                    {
                        "technique": str(steps["technique"][k]),
                        "placements": [list(p) for p in steps["placements"][k]],
                        "eliminations": [list(e) for e in steps["eliminations"][k]],
                        "text": steps["text"][k],
                    }
                    for k in range(lo, hi)
                ],
            }
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
    return len(grades)
