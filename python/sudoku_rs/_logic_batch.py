"""Logical solution traces of many puzzles as a dataset: the Traces that the compiled
explain_batch returns, and write_traces (grade_batch and explain_batch are compiled: their
records are made natively)."""

from __future__ import annotations

import json
import os
from typing import Dict, Iterable, NamedTuple, Optional, Tuple

import numpy as np

from ._atomic import atomic_write


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
    from ._sudoku_rs import explain_batch

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
