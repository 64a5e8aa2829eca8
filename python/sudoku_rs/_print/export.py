"""Saving a board: SVG, PDF or PNG by the file's extension, written atomically."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Union
from xml.etree import ElementTree as ET

from .._atomic import atomic_write
from . import pdf as _pdf
from . import raster as _raster

if TYPE_CHECKING:
    from ..board import Board

#: CSS pixels per point: the SVG's units are pixels, PDF's are points (1/72 in).
PT_PER_PX = 0.75
FORMATS = (".svg", ".pdf", ".png")


def file_format(path: Union[str, os.PathLike[str]], allowed=FORMATS) -> str:
    """The lower-case extension of `path`; ValueError unless it is one of `allowed`."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in allowed:
        shown = repr(suffix) if suffix else "no extension"
        choice = allowed[0] if len(allowed) == 1 else "one of " + ", ".join(allowed)
        raise ValueError(f"cannot tell the format of {os.fspath(path)!r} ({shown}): use {choice}")
    return suffix


def board_pdf(board: Board, pencil: bool) -> bytes:
    """One page the size of the board's drawing (taller than wide with a caption)."""
    root = ET.fromstring(board.to_svg(pencil=pencil).encode())
    width, height = (float(root.get(k, "0")) * PT_PER_PX for k in ("width", "height"))
    return _pdf.svg_pages(iter([(root, width, height)]), None)


def save_board(board: Board, path: Union[str, os.PathLike[str]], *, pencil: bool, dpi: int) -> None:
    kind = file_format(path)
    if isinstance(dpi, bool) or not isinstance(dpi, int):
        raise TypeError(f"dpi must be a whole number, got {dpi!r}")
    if not 10 <= dpi <= 2400:
        raise ValueError(f"dpi must be from 10 to 2400, got {dpi}")
    if kind == ".svg":
        data = board.to_svg(pencil=pencil).encode()
    elif kind == ".pdf":
        data = board_pdf(board, pencil)
    else:
        # Rasterise before opening the file, so a missing extra leaves nothing behind.
        data = _raster.png_bytes(_raster.pdf_page_pixels(board_pdf(board, pencil), dpi), dpi)
    with atomic_write(path) as f:
        f.write(data)
