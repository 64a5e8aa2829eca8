"""Progress bars for long batch work: tqdm when it is installed, a clear error when not."""

from __future__ import annotations

import contextlib
from typing import Callable, Iterator, Optional


@contextlib.contextmanager
def progress_bar(
    enabled: bool, total: int, desc: str
) -> Iterator[Optional[Callable[[int], object]]]:
    """Yields a callback taking the number of puzzles just finished, or None when disabled.

    tqdm's auto mode draws a widget in Jupyter and a text bar in a terminal.
    """
    if not enabled:
        yield None
        return
    try:
        from tqdm.auto import tqdm  # type: ignore[import-untyped]
    except ImportError:
        raise ImportError(
            "progress=True needs tqdm: pip install tqdm (or pip install 'sudoku_rs[progress]')"
        ) from None
    with tqdm(total=total, desc=desc, unit="puzzle", unit_scale=True) as bar:
        yield bar.update
