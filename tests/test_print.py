"""Print: Board.to_svg / Board.save (SVG, PDF, PNG).

PDFs are checked twice: by a small structural reader here (every object the cross-reference
table points at is there, every page and its compressed drawing decode) and, where pypdf is
installed (scripts/test.sh installs it), by pypdf for the page count, page size and text layer.
"""

from __future__ import annotations

import os
import re
import struct
import sys
import zlib
from xml.etree import ElementTree as ET

import numpy as np
import pytest
from helpers import SAMPLE_DATA_DIR, TUTORIAL, read_lines

import sudoku_rs as sr
from sudoku_rs import _atomic, _pdf

NS = "{http://www.w3.org/2000/svg}"
PUZZLE = "".join(str(v) if v else "." for v in TUTORIAL)
SIXES = [sr.generate(size=6, box=(2, 3), seed=s) for s in range(5)]
SIXTEENS = read_lines(SAMPLE_DATA_DIR / "gen_16x16", 3)
NINES = read_lines(SAMPLE_DATA_DIR / "gen_easy35", 10)


# ---------------------------------------------------------------- a reader for our PDFs


def read_pdf(data: bytes):
    """(page sizes, drawing streams, text strings) of a PDF, checking its structure: the
    header, that each xref offset starts the object it names, the trailer's /Root and /Size,
    the page tree's /Count and every page's /Contents stream."""
    assert data.startswith(b"%PDF-1.")
    assert data.rstrip().endswith(b"%%EOF")
    start = int(re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", data).group(1))
    assert data[start:].startswith(b"xref")
    head = re.match(rb"xref\s+0 (\d+)\s+", data[start:])
    count = int(head.group(1))
    table = data[start + head.end() : start + head.end() + 20 * count]
    entries = [table[i : i + 20] for i in range(0, len(table), 20)]
    objects = {}
    for number, entry in enumerate(entries[1:], 1):
        offset = int(entry[:10])
        assert entry[17:18] == b"n"
        found = re.match(rb"(\d+) 0 obj\n", data[offset:])
        assert found and int(found.group(1)) == number, f"xref of object {number} is off"
        end = data.index(b"\nendobj", offset)
        objects[number] = data[offset + found.end() : end]
    trailer = data[data.index(b"trailer", start) :]
    assert int(re.search(rb"/Size (\d+)", trailer).group(1)) == count
    root = int(re.search(rb"/Root (\d+) 0 R", trailer).group(1))
    pages_ref = int(re.search(rb"/Pages (\d+) 0 R", objects[root]).group(1))
    tree = objects[pages_ref]
    kids = [
        int(k) for k in re.findall(rb"(\d+) 0 R", re.search(rb"/Kids \[(.*?)\]", tree).group(1))
    ]
    assert int(re.search(rb"/Count (\d+)", tree).group(1)) == len(kids)
    sizes, streams, texts = [], [], []
    for kid in kids:
        page = objects[kid]
        assert b"/Type /Page" in page
        box = [float(v) for v in re.search(rb"/MediaBox \[(.*?)\]", page).group(1).split()]
        sizes.append((box[2], box[3]))
        content = objects[int(re.search(rb"/Contents (\d+) 0 R", page).group(1))]
        length = int(re.search(rb"/Length (\d+)", content).group(1))
        body = content[content.index(b"stream\n") + 7 :]
        assert body[length:] == b"\nendstream"
        stream = zlib.decompress(body[:length])
        streams.append(stream)
        texts.append([t.decode("cp1252") for t in re.findall(rb"\((.*?)\) Tj", stream)])
    return sizes, streams, texts


def pypdf_text(path):
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(str(path))
    return reader, [page.extract_text() for page in reader.pages]


# ---------------------------------------------------------------- to_svg


def svg_of(board, **kw):
    text = board.to_svg(**kw)
    assert text.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<svg ')
    return ET.fromstring(text.encode())


@pytest.mark.parametrize(
    "grid, box",
    [(PUZZLE, None), (SIXES[0], (2, 3)), (SIXTEENS[0], None)],
    ids=["9x9", "6x6", "16x16"],
)
def test_svg_has_one_label_per_filled_cell(grid, box):
    board = sr.Board(grid, box=box)
    n = board.size
    for b, filled in ((board, board.givens.sum()), (board.solve(), n * n)):
        root = svg_of(b)
        texts = root.findall(f".//{NS}text")
        assert len(texts) == filled
        givens = root.findall(f".//{NS}g[@data-given='1']/{NS}text")
        assert len(givens) == board.givens.sum()
        # Box lines: one thick segment per box edge across, n // box + 1 each way.
        thick = [p for p in root.iter(f"{NS}path") if p.get("stroke-width") == "2"]
        rows, cols = board.box
        assert thick[0].get("d").count("H") == n // rows + 1
        assert thick[0].get("d").count("V") == n // cols + 1


def test_svg_print_colours_black_on_white():
    root = svg_of(sr.Board(PUZZLE).solve())
    text = ET.tostring(root).decode()
    assert "currentColor" not in text
    background = root.find(f"{NS}rect")
    assert background.get("fill") == "#ffffff" and background.get("width") == root.get("width")
    given = root.find(f".//{NS}g[@data-given='1']")
    assert given.get("fill") == "#000000" and given.get("font-weight") == "700"
    filled = root.find(f".//{NS}g[@data-given='0']")
    assert filled.get("font-weight") == "400"
    # Jupyter keeps the theme's colours: same drawing, other scheme.
    html = sr.Board(PUZZLE)._repr_html_()
    assert "currentColor" in html and 'fill="#ffffff"' not in html


def candidates(grid, n, box_rows, box_cols):
    """Brute force: the values each blank cell may still take."""
    out = {}
    for r in range(n):
        for c in range(n):
            if grid[r][c]:
                continue
            seen = set(grid[r]) | {grid[i][c] for i in range(n)}
            r0, c0 = r - r % box_rows, c - c % box_cols
            seen |= {grid[i][j] for i in range(r0, r0 + box_rows) for j in range(c0, c0 + box_cols)}
            out[(r, c)] = set(range(1, n + 1)) - seen
    return out


@pytest.mark.parametrize("grid, box", [(PUZZLE, None), (SIXES[1], (2, 3))], ids=["9x9", "6x6"])
def test_svg_pencil_marks_are_the_candidates(grid, box):
    board = sr.Board(grid, box=box)
    n = board.size
    rows, cols = board.box
    expected = candidates(board.to_list(), n, rows, cols)
    assert not svg_of(board).findall(f".//{NS}g[@data-pencil='1']")
    marks = svg_of(board, pencil=True).find(f".//{NS}g[@data-pencil='1']")
    size = sr._display.cell_size(n)
    found = {}
    for t in marks:
        x, y = float(t.get("x")), float(t.get("y"))
        r, c = int(y // size), int(x // size)
        value = int(t.text)
        found.setdefault((r, c), set()).add(value)
        # Value v sits in its own spot of a box-shaped mini-grid.
        spot = (int((y - r * size) // (size / rows)), int((x - c * size) // (size / cols)))
        assert spot == divmod(value - 1, cols)
    assert found == {k: v for k, v in expected.items() if v}


# ---------------------------------------------------------------- save


def test_save_svg_pdf(tmp_path):
    board = sr.Board(PUZZLE)
    board.save(tmp_path / "b.svg")
    assert (tmp_path / "b.svg").read_text() == board.to_svg()
    board.save(str(tmp_path / "b.PDF"), pencil=True)
    data = (tmp_path / "b.PDF").read_bytes()
    sizes, streams, texts = read_pdf(data)
    side = float(svg_of(board).get("width")) * 0.75
    assert sizes == [(pytest.approx(side), pytest.approx(side))]
    # Every given as text (and, with pencil, the candidates too).
    clues = 81 - PUZZLE.count(".")
    marks = sum(len(v) for v in candidates(board.to_list(), 9, 3, 3).values())
    assert len(texts[0]) == clues + marks
    assert sorted(os.listdir(tmp_path)) == ["b.PDF", "b.svg"]  # no temporary files left


def test_save_png(tmp_path):
    pytest.importorskip("pypdfium2")
    board = sr.Board(SIXES[2], box=(2, 3)).solve()
    board.save(tmp_path / "b.png", dpi=144)
    data = (tmp_path / "b.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    side = round(float(svg_of(board).get("width")) * 0.75 * 2)
    assert (width, height, depth, colour) == (side, side, 8, 2)
    idat = b"".join(
        data[m.end() : m.end() + struct.unpack(">I", data[m.start() - 4 : m.start()])[0]]
        for m in re.finditer(rb"IDAT", data)
    )
    rows = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, 1 + 3 * width)
    assert not rows[:, 0].any()  # filter 0 on every row
    pixels = rows[:, 1:].reshape(height, width, 3)
    dark = (pixels < 60).all(axis=2).mean()
    assert (pixels == 255).all(axis=2).mean() > 0.5 and 0.02 < dark < 0.5


def test_save_png_without_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pypdfium2", None)
    with pytest.raises(ImportError, match=r"sudoku_rs\[print\]"):
        sr.Board(PUZZLE).save(tmp_path / "b.png")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name", ["b.jpg", "b", "b.svg.txt", "dir/"])
def test_save_unknown_extension(tmp_path, name):
    with pytest.raises(ValueError, match="cannot tell the format"):
        sr.Board(PUZZLE).save(tmp_path / name)


def test_save_unwritable(tmp_path):
    board = sr.Board(PUZZLE)
    with pytest.raises(FileNotFoundError, match="missing"):
        board.save(tmp_path / "missing" / "b.svg")
    (tmp_path / "d.svg").mkdir()
    with pytest.raises(IsADirectoryError):
        board.save(tmp_path / "d.svg")
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        with pytest.raises(PermissionError):
            board.save(locked / "b.pdf")


def test_save_bad_dpi(tmp_path):
    with pytest.raises(ValueError, match="dpi"):
        sr.Board(PUZZLE).save(tmp_path / "b.png", dpi=0)
    with pytest.raises(TypeError, match="dpi"):
        sr.Board(PUZZLE).save(tmp_path / "b.png", dpi="300")


# ---------------------------------------------------------------- atomic writes


def test_atomic_write_keeps_the_old_file_on_failure(tmp_path):
    target = tmp_path / "out.txt"
    target.write_bytes(b"old")
    with pytest.raises(RuntimeError):
        with _atomic.atomic_write(target) as f:
            f.write(b"half")
            raise RuntimeError("stop")
    assert target.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["out.txt"]
    with _atomic.atomic_write(target) as f:
        f.write(b"new")
    assert target.read_bytes() == b"new"
    assert os.listdir(tmp_path) == ["out.txt"]


def test_atomic_write_follows_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        with _atomic.atomic_write(tmp_path / "f") as f:
            f.write(b"x")
    finally:
        os.umask(old)
    assert (tmp_path / "f").stat().st_mode & 0o777 == 0o644


# ---------------------------------------------------------------- the PDF writer


def test_pdf_text_outside_the_font():
    with pytest.raises(ValueError, match="U\\+65E5"):
        _pdf.encode_text("Sudoku 日")
    assert _pdf.encode_text("Sudoku für Anfänger – Band 1") == (
        "Sudoku für Anfänger – Band 1".encode("cp1252")
    )


def test_pdf_refuses_svg_it_cannot_draw():
    root = ET.fromstring('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                         '<ellipse cx="1" cy="1" rx="1" ry="2"/></svg>')  # fmt: skip
    with pytest.raises(ValueError, match="ellipse"):
        _pdf.svg_pages(iter([(root, 10, 10)]), None)
    root = ET.fromstring('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                         '<path d="M0 0C1 1 2 2 3 3" stroke="#000"/></svg>')  # fmt: skip
    with pytest.raises(ValueError, match="path command"):
        _pdf.svg_pages(iter([(root, 10, 10)]), None)


def test_pdf_centres_text_with_the_font_metrics():
    assert _pdf.text_width("8", 10) == pytest.approx(5.56)
    assert _pdf.text_width("W", 10, bold=True) == pytest.approx(9.44)
    assert _pdf.text_width("é", 10) == _pdf.text_width("e", 10)
