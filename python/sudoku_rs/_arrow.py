"""Puzzles as Arrow tables and Parquet files (pyarrow, the ``arrow`` extra), for Hugging Face
``datasets``, pandas, Polars and DuckDB.

Grid columns are built from whole buffers (the text of every row formatted in one native
call), never from a Python object per row.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from ._atomic import PathLike, atomic_write
from ._datasets import _as_cells

#: How a grid column is laid out: ``"string"`` (one puzzle string per row, '.' blank) or
#: ``"list"`` (a fixed-size list of n*n uint8 cells per row, 0 blank).
LAYOUTS = ("string", "list")


def _pyarrow() -> Any:
    try:
        import pyarrow  # type: ignore[import-untyped,unused-ignore]
    except ModuleNotFoundError:
        # Only a missing module: an installed pyarrow that fails to load says why itself.
        raise ImportError(
            "Arrow tables and Parquet files need pyarrow: pip install pyarrow "
            "(or pip install 'sudoku_rs[arrow]')"
        ) from None
    return pyarrow


def _grid_data(grids: Any, layout: str, what: str) -> Tuple[np.ndarray, int]:
    """The bytes of a grid column, ``(rows, width)``: each row the n*n characters of a puzzle
    string, or its n*n cells, as an (N, width) uint8 array."""
    from . import _sudoku_rs

    cells, side = _as_cells(grids, what)
    count, width = len(cells), side * side
    cells = np.ascontiguousarray(cells, dtype=np.uint8)
    if layout == "list":
        return cells, width
    text = _sudoku_rs._format_lines(cells.tobytes(), size=side, blank=".")
    # Lines of exactly n*n characters and a newline: without the newlines, the offsets of the
    # strings are a plain arithmetic sequence.
    chars = np.frombuffer(text, dtype=np.uint8).reshape(count, width + 1)[:, :width]
    return np.ascontiguousarray(chars), width


def _grid_column(pa: Any, data: np.ndarray, width: int, layout: str) -> Any:
    count = len(data)
    if layout == "list":
        return pa.FixedSizeListArray.from_arrays(pa.array(data.reshape(-1)), width)
    offsets = np.arange(0, (count + 1) * width, width, dtype=np.int32)[: count + 1]
    buffers = [None, pa.py_buffer(offsets), pa.py_buffer(data)]
    return pa.Array.from_buffers(pa.string(), count, buffers)


def _other_column(pa: Any, values: Any, name: str) -> Any:
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        return values
    if isinstance(values, np.ndarray):
        if values.dtype.names:
            fields = [_other_column(pa, values[field], field) for field in values.dtype.names]
            return pa.StructArray.from_arrays(fields, names=list(values.dtype.names))
        if values.ndim >= 2:
            flat = values.reshape(len(values), -1)
            inner = pa.array(np.ascontiguousarray(flat).reshape(-1))
            return pa.FixedSizeListArray.from_arrays(inner, flat.shape[1])
        if values.dtype.kind in "US":
            return pa.array(values.tolist())
        return pa.array(values)
    return pa.array(list(values))


def to_arrow(
    puzzles: Any, /, solutions: Any = None, *, layout: str = "string", **columns: Any
) -> Any:
    """Puzzles as a ``pyarrow.Table``: a ``puzzle`` column, a ``solution`` column when
    ``solutions`` are given, then one column per keyword, named by it.

    ``puzzles`` and ``solutions`` take what :func:`solve_batch` takes. ``layout="string"``
    stores each grid as its puzzle string ('.' blank, digits then letters: grids up to 35x35);
    ``layout="list"`` as a fixed-size list of n*n uint8 cells (0 blank), for any size. Other
    columns: a structured array (what :func:`grade_batch`, :func:`rate_batch` and
    :func:`check_batch` return) becomes a struct column, a 2-D array a fixed-size list column,
    a 1-D array or a list a plain column; pyarrow arrays pass through. Every column must have
    one row per puzzle. Needs pyarrow (``pip install 'sudoku_rs[arrow]'``).
    """
    if layout not in LAYOUTS:
        raise ValueError(f"layout must be 'string' or 'list', got {layout!r}")
    # The grids first: their errors come before any need of pyarrow.
    grids = {"puzzle": _grid_data(puzzles, layout, "puzzles")}
    if solutions is not None:
        grids["solution"] = _grid_data(solutions, layout, "solutions")
    pa = _pyarrow()
    names = list(grids)
    arrays = [_grid_column(pa, data, width, layout) for data, width in grids.values()]
    for name, values in columns.items():
        names.append(name)
        arrays.append(_other_column(pa, values, name))
    rows = len(arrays[0])
    for name, array in zip(names, arrays):
        if len(array) != rows:
            raise ValueError(f"column {name!r} has {len(array)} rows, the puzzles {rows}")
    return pa.Table.from_arrays(arrays, names=names)


def write_parquet(
    path: PathLike,
    puzzles: Any,
    /,
    solutions: Any = None,
    *,
    layout: str = "string",
    compression: Optional[str] = "zstd",
    **columns: Any,
) -> None:
    """Writes :func:`to_arrow` of the same arguments as a Parquet file, all at once or not at
    all (an error leaves ``path`` as it was). :func:`read_puzzles` reads its grid columns back;
    pandas, Polars, DuckDB and ``datasets.Dataset.from_parquet`` read all of it.
    ``compression`` is any codec pyarrow knows (``None`` for none). Needs pyarrow."""
    table = to_arrow(puzzles, solutions, layout=layout, **columns)
    import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

    with atomic_write(path) as f:
        pq.write_table(table, f, compression=compression)


def read_parquet_column(path: PathLike, column: Any) -> Any:
    """The values of one grid column of a Parquet file: puzzle strings (``None`` for a null),
    or an (N, n*n) array for a list column. ``column`` is a name or a position."""
    pa = _pyarrow()
    import pyarrow.parquet as pq  # type: ignore[import-untyped,unused-ignore]

    names = pq.read_schema(path).names
    if isinstance(column, str):
        if column not in names:
            raise ValueError(f"{path}: no column {column!r}; the columns are {names}")
        name = column
    else:
        if not 0 <= column < len(names):
            raise ValueError(f"{path}: no column {column}; the file has {len(names)} columns")
        name = names[column]
    values = pq.read_table(path, columns=[name]).column(name)
    kind = values.type
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        return values.to_pylist()
    if pa.types.is_fixed_size_list(kind) or pa.types.is_list(kind) or pa.types.is_large_list(kind):
        if values.null_count:
            raise ValueError(f"{path}: column {name!r} has a null row")
        flat = values.combine_chunks().flatten().to_numpy(zero_copy_only=False)
        return flat.reshape(len(values), -1) if len(values) else flat.reshape(0, 81)
    raise TypeError(
        f"{path}: column {name!r} is {kind}; puzzles are strings or lists of integer cells"
    )
