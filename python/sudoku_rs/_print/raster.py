"""PNG pictures of our PDF pages: the one drawing, rasterised.

Rasterising text well needs a font renderer, which is the one thing not worth writing here: the
``print`` extra brings pypdfium2 (PDFium, the PDF engine of Chromium, as a self-contained wheel
with the standard fonts built in, Apache-2.0/BSD-3), which draws the page we already write as
PDF. The PNG encoding itself is a few lines of zlib.
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

INSTALL_HINT = "pip install 'sudoku_rs[print]'"


def _pdfium():  # type: ignore[no-untyped-def]
    try:
        import pypdfium2  # type: ignore[import-not-found,import-untyped,unused-ignore]
    except ImportError as err:
        raise ImportError(
            f"writing PNG needs pypdfium2, which the print extra installs: {INSTALL_HINT} "
            "(SVG needs nothing more)"
        ) from err
    return pypdfium2


def pdf_page_pixels(pdf: bytes, dpi: float, page: int = 0) -> np.ndarray:
    """Page `page` of a PDF as an (height, width, 3) uint8 RGB array at `dpi`."""
    pdfium = _pdfium()
    document = pdfium.PdfDocument(pdf)
    try:
        bitmap = document[page].render(scale=dpi / 72, rev_byteorder=True)
        pixels = np.array(bitmap.to_numpy()[:, :, :3], dtype=np.uint8)
    finally:
        document.close()
    return pixels


def png_bytes(pixels: np.ndarray, dpi: float) -> bytes:
    """An (height, width, 3) uint8 array as an 8-bit RGB PNG that records its resolution."""
    height, width, _ = pixels.shape

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    # Each row is preceded by its filter type; 0 (none) compresses well enough for line art.
    rows = np.concatenate([np.zeros((height, 1), np.uint8), pixels.reshape(height, -1)], axis=1)
    per_metre = round(dpi / 0.0254)
    return b"".join(
        [
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
            chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),
            chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)),
            chunk(b"IEND", b""),
        ]
    )
