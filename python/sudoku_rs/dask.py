"""Batch solving on Dask: the batch API, lazily, one chunk or partition per task.

Import it explicitly (``import sudoku_rs.dask``); it needs the ``dask`` extra,
``pip install "sudoku_rs[dask]"``. Each function takes

- a dask array of shape (N, n*n) or (N, n, n), any integer dtype, chunked along the first axis
  (puzzle axes split across chunks are joined first), or
- a dask Series of puzzle strings, such as a column of ``dd.read_csv(...)``,

and returns a lazy result of the same kind, computed block by block with the function of the
same name in ``sudoku_rs``, so it equals the in-process result row for row. Options are checked
when the graph is built, not inside a worker.

Threads: each task calls the in-process function with ``threads=`` (``None``: every core of the
worker's machine). Dask runs several tasks at once as well, so keep dask threads times
sudoku_rs threads near the number of cores: one worker process per machine with one dask
thread and ``threads=None``, or one process per core with ``threads=1``; under the threaded
scheduler (the default for ``.compute()``), pass ``threads=1``. The GIL is released while
solving, so threads need no separate processes.
"""

from __future__ import annotations

import functools
import math
import sys
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple, Union

import numpy as np

import sudoku_rs
from sudoku_rs import _sudoku_rs

if TYPE_CHECKING:
    # Only named in annotations: importing dask.dataframe costs pandas and pyarrow.
    import dask.dataframe as dd
    from dask.array import Array


def _dask_array():
    try:
        import dask.array
    except ImportError as err:
        raise ImportError(
            'sudoku_rs.dask needs dask; install the extra with: pip install "sudoku_rs[dask]"'
        ) from err
    return dask.array


da = _dask_array()

__all__ = ["count_solutions_batch", "rate_batch", "solve_batch"]


def solve_batch(
    puzzles,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
) -> Union[Array, dd.Series]:
    """Lazily solve every puzzle; see :func:`sudoku_rs.solve_batch`.

    A dask array gives a dask array of the same shape, chunks and dtype; a dask Series of
    strings gives a Series of solution strings (missing where a row is malformed, conflicting
    or unsolvable) with the same index.
    """
    return _lazy(sudoku_rs.solve_batch, puzzles, box=box, threads=threads, max_guesses=max_guesses)


def count_solutions_batch(
    puzzles,
    /,
    *,
    limit: int = 2,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    max_guesses: Optional[int] = None,
) -> Union[Array, dd.Series]:
    """Lazily count each puzzle's solutions up to ``limit``; see
    :func:`sudoku_rs.count_solutions_batch`.

    A dask array gives an int64 dask array of shape (N,), chunked like the puzzles' first axis;
    a dask Series gives an int64 Series with the same index.
    """
    return _lazy(
        sudoku_rs.count_solutions_batch,
        puzzles,
        limit=limit,
        box=box,
        threads=threads,
        max_guesses=max_guesses,
    )


def rate_batch(
    puzzles,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
) -> Union[Array, dd.DataFrame]:
    """Lazily rate each puzzle; see :func:`sudoku_rs.rate_batch`.

    A dask array gives a dask array of shape (N,) with the structured dtype of
    ``sudoku_rs.rate_batch`` (fields ``guesses``, ``backtracks``, ``singles_only``, ``unique``,
    ``difficulty``, ``status``); a dask Series gives a dask DataFrame with those columns and the
    same index.
    """
    return _lazy(sudoku_rs.rate_batch, puzzles, box=box, threads=threads)


# Another batch function `f(puzzles, /, **options)` that returns an array with one entry (a
# value, record, row or grid) per puzzle, or a list of strings for strings, joins the same way.


def _lazy(batch_fn: Callable[..., Any], puzzles, **options):
    """`batch_fn(block, **options)` on every block of a dask array or partition of a dask
    Series, as one lazy collection."""
    if isinstance(puzzles, da.Array):
        return _on_array(batch_fn, puzzles, options)
    # A dask Series can only exist once dask.dataframe is imported; importing it here would
    # cost pandas and pyarrow to users who only have arrays.
    dd = sys.modules.get("dask.dataframe")
    if dd is not None and isinstance(puzzles, dd.Series):
        return _on_series(batch_fn, puzzles, options)
    if dd is not None and isinstance(puzzles, dd.DataFrame):
        raise TypeError(
            "expected a dask Series of puzzle strings, got a dask DataFrame; pass one column, "
            "for example df['quizzes']"
        )
    raise TypeError(
        "expected a dask array of shape (N, n, n) or (N, n*n), or a dask Series of puzzle "
        f"strings; got {type(puzzles).__name__} (for data in memory use "
        f"sudoku_rs.{batch_fn.__name__})"
    )


def _on_array(batch_fn, puzzles, options):
    shape = puzzles.shape
    # The batch readers' own rule and message; a chunked length is unknown (NaN) until computed.
    _sudoku_rs._check_batch_shape([None if math.isnan(d) else int(d) for d in shape])
    # One puzzle must sit whole in one block; joining split puzzle axes keeps the first axis's
    # chunks, so the result still has one block per input block.
    if any(len(c) > 1 for c in puzzles.chunks[1:]):
        puzzles = puzzles.rechunk(dict.fromkeys(range(1, puzzles.ndim), -1))
    # The function on zero puzzles checks dtype, shape, box and options with the in-process
    # messages, here on the client, and its result is the meta of every block.
    meta = batch_fn(np.zeros((0, *shape[1:]), dtype=puzzles.dtype), **options)
    # One result block per input block, whatever the result's shape per puzzle: (n, n) or
    # (n*n,) for solutions, () for counts.
    return puzzles.map_blocks(
        functools.partial(batch_fn, **options),
        dtype=meta.dtype,
        meta=meta,
        chunks=(puzzles.chunks[0], *((d,) for d in meta.shape[1:])),
        drop_axis=list(range(meta.ndim, puzzles.ndim)),
        new_axis=list(range(puzzles.ndim, meta.ndim)),
    )


def _on_series(batch_fn, puzzles, options):
    import pandas as pd  # type: ignore[import-untyped]

    # A numeric column can hold no puzzle string: it is a file read without dtype=str, where
    # pandas turned all-digit lines ('0' blanks) into numbers. Every row would come back bad.
    if not pd.api.types.is_string_dtype(puzzles.dtype):
        raise TypeError(
            f"expected a Series of puzzle strings, got dtype {puzzles.dtype}; read the file "
            "with dtype=str, for example dd.read_csv(path, dtype=str)"
        )
    probe = batch_fn([], **options)
    if isinstance(probe, np.ndarray) and probe.dtype.names:
        # Records (ratings) become a DataFrame with one column per field.
        meta = pd.DataFrame(probe)
        return puzzles.map_partitions(_records_block, batch_fn, options, meta=meta)
    # Strings back keep the input's string dtype (object or pandas' str); numbers their own.
    dtype = puzzles.dtype if isinstance(probe, list) else probe.dtype
    meta = pd.Series([], dtype=dtype, name=puzzles.name)
    return puzzles.map_partitions(_series_block, batch_fn, options, dtype, meta=meta)


def _series_block(part, batch_fn, options, dtype):
    """One partition: the batch call, then a Series on the partition's index."""
    import pandas as pd  # type: ignore[import-untyped]

    return pd.Series(batch_fn(part, **options), index=part.index, name=part.name, dtype=dtype)


def _records_block(part, batch_fn, options):
    """One partition of a function that returns records: a DataFrame on the partition's index."""
    import pandas as pd  # type: ignore[import-untyped]

    return pd.DataFrame(batch_fn(part, **options), index=part.index)
