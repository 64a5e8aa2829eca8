"""Print: Board.to_svg / Board.save (SVG, PDF, PNG), sr.print_sheets, `sudoku-rs print`.

PDFs are checked twice: by a small structural reader here (every object the cross-reference
table points at is there, every page and its compressed drawing decode) and, where pypdf is
installed (scripts/test.sh installs it), by pypdf for the page count, page size and text layer.
"""

from __future__ import annotations

import importlib.util
import os
import re
import struct
import sys
import zlib
from pathlib import Path
from xml.etree import ElementTree as ET

import numpy as np
import pytest
from helpers import SAMPLE_DATA_DIR, TUTORIAL, read_lines

import sudoku_rs as sr
from sudoku_rs import _atomic
from sudoku_rs._draw import grid as _display
from sudoku_rs._print import pdf as _pdf
from sudoku_rs.cli import main as cli_main

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[1]
PUZZLE = "".join(str(v) if v else "." for v in TUTORIAL)
SIXES = [sr.generate(size=6, box=(2, 3), seed=s) for s in range(5)]
SIXTEENS = read_lines(SAMPLE_DATA_DIR / "gen_16x16", 3)
NINES = read_lines(SAMPLE_DATA_DIR / "gen_easy35", 10)
GREEK = "Σουντόκου — Βιβλίο 1"
JAPANESE = "数独 パズル集 第1巻"


# ---------------------------------------------------------------- a reader for our PDFs


def _stream(body: bytes) -> bytes:
    """The decoded data of a stream object's body (its dictionary, then the stream)."""
    length = int(re.search(rb"/Length (\d+)", body).group(1))
    begin = re.search(rb"stream\r?\n", body).end()
    assert body[begin + length :].strip() == b"endstream", "the stream's /Length is off"
    data = body[begin : begin + length]
    return zlib.decompress(data) if b"/FlateDecode" in body[:begin] else data


_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}


def _literal(raw: bytes) -> bytes:
    """The bytes of a PDF literal string's contents (escapes resolved)."""
    return re.sub(
        rb"\\([0-7]{1,3}|.)",
        lambda m: (
            bytes([int(m.group(1), 8)])
            if m.group(1)[:1].isdigit()
            else _ESCAPES.get(m.group(1), m.group(1))
        ),
        raw,
        flags=re.S,
    )


def _to_unicode(cmap: bytes):
    """{code: text} from a ToUnicode CMap's bfchar and bfrange entries."""
    table = {}
    for block in re.findall(rb"beginbfchar(.*?)endbfchar", cmap, re.S):
        for code, text in re.findall(rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block):
            table[int(code, 16)] = bytes.fromhex(text.decode()).decode("utf-16-be")
    for block in re.findall(rb"beginbfrange(.*?)endbfrange", cmap, re.S):
        for lo, hi, first in re.findall(
            rb"<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>", block
        ):
            for i, code in enumerate(range(int(lo, 16), int(hi, 16) + 1)):
                table[code] = chr(int(first, 16) + i)
    return table


def read_pdf(data: bytes):
    """(page sizes, drawing streams, text strings) of a PDF, checking its structure: the
    header, that each xref offset starts the object it names, the trailer's /Root and /Size,
    the page tree's /Count and every page's /Contents stream. The text strings are those of
    each Tj, read through their font's ToUnicode map."""
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
        found = re.match(rb"(\d+) 0 obj\s", data[offset:])
        assert found and int(found.group(1)) == number, f"xref of object {number} is off"
        body = data[offset + found.end() :]
        # A stream's data may hold anything, "endobj" included: cut it by its /Length.
        dictionary_end = body.index(b"endobj")
        at_stream = re.search(rb">>\s*stream\r?\n", body[: dictionary_end + 1])
        if at_stream:
            length = int(re.search(rb"/Length (\d+)", body[: at_stream.start()]).group(1))
            dictionary_end = (
                at_stream.end() + length + body[at_stream.end() + length :].index(b"endobj")
            )
        objects[number] = body[:dictionary_end]
    trailer = data[data.index(b"trailer", start) :]
    assert int(re.search(rb"/Size (\d+)", trailer).group(1)) == count
    root = int(re.search(rb"/Root (\d+) 0 R", trailer).group(1))
    pages_ref = int(re.search(rb"/Pages (\d+) 0 R", objects[root]).group(1))
    tree = objects[pages_ref]
    kids = [
        int(k)
        for k in re.findall(rb"(\d+) 0 R", re.search(rb"/Kids \[(.*?)\]", tree, re.S).group(1))
    ]
    assert int(re.search(rb"/Count (\d+)", tree).group(1)) == len(kids)
    sizes, streams, texts = [], [], []
    for kid in kids:
        page = objects[kid]
        assert re.search(rb"/Type /Page\b", page)
        box = [float(v) for v in re.search(rb"/MediaBox \[(.*?)\]", page).group(1).split()]
        sizes.append((box[2], box[3]))
        stream = _stream(objects[int(re.search(rb"/Contents (\d+) 0 R", page).group(1))])
        streams.append(stream)
        fonts = re.search(rb"/Font (\d+) 0 R", page)
        names = objects[int(fonts.group(1))] if fonts else b""
        maps = {}
        for name, ref in re.findall(rb"/(\S+) (\d+) 0 R", names):
            cmap = re.search(rb"/ToUnicode (\d+) 0 R", objects[int(ref)])
            maps[name] = _to_unicode(_stream(objects[int(cmap.group(1))]))
        shown, font = [], None
        for name, raw in re.findall(rb"/(\S+) [\d.]+ Tf|\(((?:\\.|[^\\)])*)\) Tj", stream, re.S):
            if name:
                font = maps[name]
            else:
                shown.append("".join(font[code] for code in _literal(raw)))
        texts.append(shown)
    return sizes, streams, texts


def states(data):
    """The PDF's ExtGState opacities: {name: (key, value)}."""
    return {
        name: (key, float(value))
        for name, key, value in re.findall(
            r"/(\w+) <<\s*/(ca|CA) ([0-9.]+)\s*>>", data.decode("latin-1")
        )
    }


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
    ("grid", "box"),
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


@pytest.mark.parametrize(("grid", "box"), [(PUZZLE, None), (SIXES[1], (2, 3))], ids=["9x9", "6x6"])
def test_svg_pencil_marks_are_the_candidates(grid, box):
    board = sr.Board(grid, box=box)
    n = board.size
    rows, cols = board.box
    expected = candidates(board.to_list(), n, rows, cols)
    assert not svg_of(board).findall(f".//{NS}g[@data-pencil='1']")
    marks = svg_of(board, pencil=True).find(f".//{NS}g[@data-pencil='1']")
    size = _display.cell_size(n)
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
    sizes, _streams, texts = read_pdf(data)
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


def test_save_pdf_without_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "reportlab", None)
    with pytest.raises(ImportError, match=r"reportlab.*sudoku_rs\[print\]"):
        sr.Board(PUZZLE).save(tmp_path / "b.pdf")
    with pytest.raises(ImportError, match=r"sudoku_rs\[print\]"):
        sr.print_sheets([PUZZLE], tmp_path / "book.pdf", title="T")
    assert os.listdir(tmp_path) == []
    sr.Board(PUZZLE).save(tmp_path / "b.svg")  # SVG needs nothing


@pytest.mark.parametrize("name", ["b.jpg", "b", "b.svg.txt", "dir/"])
def test_save_unknown_extension(tmp_path, name):
    with pytest.raises(ValueError, match="cannot tell the format"):
        sr.Board(PUZZLE).save(tmp_path / name)


def test_save_unwritable(tmp_path):
    board = sr.Board(PUZZLE)
    with pytest.raises(FileNotFoundError, match="missing") as err:
        board.save(tmp_path / "missing" / "b.svg")
    assert err.value.filename == str(tmp_path / "missing" / "b.svg")  # not the temporary file
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
    with pytest.raises(RuntimeError), _atomic.atomic_write(target) as f:
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


def test_pdf_text_outside_the_fonts():
    with pytest.raises(ValueError, match="U\\+C2A4"):
        _pdf.check_text("스도쿠")  # Korean: the fonts hold no Hangul
    with pytest.raises(ValueError, match="U\\+1F9E9"):
        _pdf.check_text("Sudoku \U0001f9e9")
    for text in ("Sudoku für Anfänger – Band 1", GREEK, JAPANESE, "Судоку"):
        _pdf.check_text(text)
    # Kana and kanji come from the CJK font; Latin, Greek and Cyrillic from DejaVu.
    assert _pdf.runs("Sudoku 数独") == [(_pdf.REGULAR, "Sudoku "), (_pdf.CJK, "数独")]
    assert _pdf.runs("Σ", bold=True) == [(_pdf.BOLD, "Σ")]


def test_pdf_refuses_svg_it_cannot_draw():
    root = ET.fromstring('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                         '<ellipse cx="1" cy="1" rx="1" ry="2"/></svg>')  # fmt: skip
    with pytest.raises(ValueError, match="ellipse"):
        _pdf.svg_pages(iter([(root, 10, 10)]), None)
    root = ET.fromstring('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
                         '<path d="M0 0C1 1 2 2 3 3" stroke="#000"/></svg>')  # fmt: skip
    with pytest.raises(ValueError, match="path command"):
        _pdf.svg_pages(iter([(root, 10, 10)]), None)


def advance(font_file, text, size):
    """The width of `text` at `size` from the font file's own advance widths (fontTools)."""
    ttlib = pytest.importorskip("fontTools.ttLib")
    font = ttlib.TTFont(str(font_file))
    cmap, metrics = font.getBestCmap(), font["hmtx"].metrics
    return sum(metrics[cmap[ord(ch)]][0] for ch in text) * size / font["head"].unitsPerEm


def test_shipped_fonts_hold_what_the_build_script_keeps():
    ttlib = pytest.importorskip("fontTools.ttLib")
    spec = importlib.util.spec_from_file_location(
        "build_print_fonts", ROOT / "scripts" / "build_print_fonts.py"
    )
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    fonts = _pdf.FONTS
    western = set(script.codepoints(script.LATIN_GREEK_CYRILLIC))
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        held = set(ttlib.TTFont(str(fonts / name)).getBestCmap())
        assert held <= western and {ord(c) for c in "AzÄΣωЖя–€"} <= held
    kanji = script.jis_level1_kanji()
    assert len(kanji) == 2965 and ord("数") in kanji and ord("独") in kanji
    held = set(ttlib.TTFont(str(fonts / "DroidSansFallback.ttf")).getBestCmap())
    assert set(kanji) <= held and {ord(c) for c in "あア。！"} <= held
    assert {p.name for p in fonts.iterdir()} >= {"LICENSE.txt", "LICENSE-Apache-2.0.txt"}


def test_pdf_centres_text_with_the_font_metrics():
    fonts = _pdf.FONTS
    assert _pdf.text_width("8", 10) == pytest.approx(advance(fonts / "DejaVuSans.ttf", "8", 10))
    assert _pdf.text_width("W\u03a9", 10, bold=True) == pytest.approx(
        advance(fonts / "DejaVuSans-Bold.ttf", "W\u03a9", 10)
    )
    assert _pdf.text_width("A\u6570", 12) == pytest.approx(
        advance(fonts / "DejaVuSans.ttf", "A", 12)
        + advance(fonts / "DroidSansFallback.ttf", "\u6570", 12)
    )


# ---------------------------------------------------------------- print_sheets


def test_sheets_pages_and_text_layer(tmp_path):
    path = tmp_path / "book.pdf"
    pages = sr.print_sheets(NINES, path, title="Easy (book 1)")
    # 10 puzzles at 4 a page, then 10 answers on one page.
    assert pages == 4
    data = path.read_bytes()
    sizes, _, texts = read_pdf(data)
    assert sizes == [(pytest.approx(595.276), pytest.approx(841.89))] * 4
    assert texts[0][:2] == ["Easy (book 1)", "Puzzles 1\u20134"]
    labels = [t for page in texts for t in page if t.startswith("Puzzle ")]
    assert labels == [f"Puzzle {i}" for i in range(1, 11)] * 2
    assert "Answers 1\u201310" in texts[3]
    # The answers hold every cell; the puzzles only their givens.
    digits = [t for t in texts[3] if len(t) == 1]
    assert len(digits) == 10 * 81
    assert sum(len(t) == 1 for t in texts[0]) == sum(81 - p.count(".") for p in NINES[:4])
    reader, text = pypdf_text(path)
    assert len(reader.pages) == 4
    assert reader.metadata.title == "Easy (book 1)"
    assert "Puzzle 10" in text[2] and "Answers" in text[3]
    assert float(reader.pages[0].mediabox.width) == pytest.approx(595.276)


@pytest.mark.parametrize("title", [GREEK, JAPANESE, "Судоку: Sudoku für Anfänger"])
def test_sheets_print_unicode_titles(tmp_path, title):
    path = tmp_path / "book.pdf"
    assert sr.print_sheets(NINES[:2], path, title=title, answers=False) == 1
    _, _, texts = read_pdf(path.read_bytes())
    # The title is drawn in runs, one per font: together they are the title.
    assert "".join(texts[0]).startswith(title)
    reader, text = pypdf_text(path)
    assert reader.metadata.title == title
    assert text[0].startswith(title)


def test_sheets_embed_only_the_glyphs_they_use(tmp_path):
    # The CJK font holds thousands of kanji; a book with two of them stays small.
    plain, titled = tmp_path / "plain.pdf", tmp_path / "titled.pdf"
    sr.print_sheets(NINES[:2], plain, title="Sudoku", answers=False)
    sr.print_sheets(NINES[:2], titled, title="数独", answers=False)
    grown = titled.stat().st_size - plain.stat().st_size
    assert 0 < grown < 20_000, grown


def test_sheets_same_input_same_bytes(tmp_path):
    sr.print_sheets(NINES[:3], tmp_path / "a.pdf")
    sr.print_sheets(NINES[:3], tmp_path / "b.pdf")
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_sheets_options(tmp_path):
    path = tmp_path / "x.pdf"
    assert sr.print_sheets(NINES, path, per_page=6, answers=False, page="Letter") == 2
    sizes, _, texts = read_pdf(path.read_bytes())
    assert sizes[0] == (612, 792)
    assert sr.print_sheets(NINES, path, per_page=1, answers_per_page=3, numbered=False) == 14
    _, _, texts = read_pdf(path.read_bytes())
    assert not any(t.startswith("Puzzle") for page in texts for t in page)
    assert sr.print_sheets(NINES[:2], path, page=(400, 300), first_number=41) == 2
    sizes, _, texts = read_pdf(path.read_bytes())
    assert sizes[0] == (400, 300)
    assert "Puzzle 42" in texts[0]


def test_sheets_kinds_and_sizes(tmp_path):
    path = tmp_path / "x.pdf"
    array = sr.read_puzzles(SAMPLE_DATA_DIR / "gen_16x16")[:3]
    assert sr.print_sheets(array, path) == 2
    _, _, texts = read_pdf(path.read_bytes())
    assert sum(len(t) == 1 for t in texts[1]) == 3 * 256
    six = np.stack([sr.Board(s, box=(2, 3)).to_numpy() for s in SIXES])
    assert sr.print_sheets(six, path, box=(2, 3), per_page=2) == 4
    reader, text = pypdf_text(path)
    assert len(reader.pages) == 4 and "Puzzle 5" in text[2]
    mixed = [sr.Board(PUZZLE), sr.Board(SIXES[0], box=(2, 3)), SIXTEENS[1]]
    assert sr.print_sheets(mixed, path) == 2


def test_sheets_default_answers_per_page_keeps_cells_readable():
    from sudoku_rs._print import sheets as _sheets

    a4 = _sheets.PAGES["a4"]
    counts = {n: _sheets._answer_count(a4, n, True) for n in (4, 6, 9, 16, 25)}
    assert counts[9] == 20 and counts[4] == 20
    assert counts[25] < counts[16] < counts[9]


def test_sheets_errors(tmp_path):
    path = tmp_path / "x.pdf"
    with pytest.raises(ValueError, match="cannot tell the format"):
        sr.print_sheets(NINES, tmp_path / "x.svg")
    with pytest.raises(ValueError, match="unknown page size 'B7'"):
        sr.print_sheets(NINES, path, page="B7")
    with pytest.raises(ValueError, match="per_page must be from 1 to 100"):
        sr.print_sheets(NINES, path, per_page=0)
    with pytest.raises(TypeError, match="per_page"):
        sr.print_sheets(NINES, path, per_page=2.5)
    with pytest.raises(ValueError, match="U\\+C2A4"):
        sr.print_sheets(NINES, path, title="스도쿠")
    with pytest.raises(TypeError, match="one puzzle pass"):
        sr.print_sheets(PUZZLE, path)
    with pytest.raises(ValueError, match="no puzzles"):
        sr.print_sheets([], path)
    with pytest.raises(sr.InvalidPuzzleError, match=r"^puzzle 2: "):
        sr.print_sheets([PUZZLE, "12"], path)
    unsolvable = "12345678." + "." * 8 + "9" + "." * 63
    with pytest.raises(sr.NoSolutionError, match=r"^puzzle 2: "):
        sr.print_sheets([PUZZLE, unsolvable], path)
    sr.print_sheets([PUZZLE, unsolvable], path, answers=False)  # no answers, no solving
    path.write_bytes(b"old")
    with pytest.raises(FileNotFoundError):
        sr.print_sheets(NINES, tmp_path / "no" / "x.pdf")
    with pytest.raises(sr.NoSolutionError):
        sr.print_sheets([unsolvable], path)
    assert path.read_bytes() == b"old"


# ---------------------------------------------------------------- the CLI


def test_cli_print(tmp_path, capsys):
    source = tmp_path / "p.txt"
    source.write_text("\n".join(NINES[:5]) + "\n")
    out = tmp_path / "book.pdf"
    assert cli_main(["print", str(source), "-o", str(out), "--per-page", "2"]) == 0
    assert "5 puzzles on 4 pages" in capsys.readouterr().err
    sizes, _, texts = read_pdf(out.read_bytes())
    assert len(sizes) == 4 and "Puzzle 5" in texts[2]
    args = ["print", str(source), "-o", str(out), "--no-answers", "--title", "T", "-q"]
    assert cli_main(args + ["--page", "A5", "--no-numbers"]) == 0
    assert capsys.readouterr().err == ""
    sizes, _, texts = read_pdf(out.read_bytes())
    assert len(sizes) == 2 and sizes[0] == (pytest.approx(419.528), pytest.approx(595.276))


def test_cli_print_errors(tmp_path, capsys):
    source = tmp_path / "p.txt"
    source.write_text(NINES[0] + "\nxyz\n")
    assert cli_main(["print", str(source)]) == 2
    assert "-o FILE.pdf" in capsys.readouterr().err
    out = tmp_path / "b.pdf"
    assert cli_main(["print", str(source), "-o", str(out)]) == 2
    assert ":2: " in capsys.readouterr().err
    assert cli_main(["print", str(source), "-o", str(out), "--skip-invalid"]) == 0
    assert "1 invalid lines skipped" in capsys.readouterr().err
    assert cli_main(["print", str(source), "-o", str(tmp_path / "b.png")]) == 2
    assert "cannot tell the format" in capsys.readouterr().err
    assert cli_main(["print", str(source), "-o", str(out), "--page", "B9"]) == 2
    assert "unknown page size" in capsys.readouterr().err
    assert cli_main(["print", str(tmp_path / "none.txt"), "-o", str(out)]) == 2
    assert "none.txt" in capsys.readouterr().err
    empty = tmp_path / "e.txt"
    empty.write_text("")
    assert cli_main(["print", str(empty), "-o", str(out)]) == 2
    assert "no puzzles" in capsys.readouterr().err


def test_cli_print_6x6(tmp_path):
    source = tmp_path / "p.txt"
    source.write_text("\n".join(SIXES) + "\n")
    out = tmp_path / "six.pdf"
    assert cli_main(["print", str(source), "-o", str(out), "--box", "2", "3", "-q"]) == 0
    sizes, _, _texts = read_pdf(out.read_bytes())
    assert len(sizes) == 3


def test_pdf_draws_conflicts_translucent(tmp_path):
    clash = "5...5" + "." * 76
    sr.Board(clash).save(tmp_path / "c.pdf")
    data = (tmp_path / "c.pdf").read_bytes()
    _, streams, _ = read_pdf(data)
    (name,) = [n for n, (key, alpha) in states(data).items() if (key, alpha) == ("ca", 0.3)]
    assert streams[0].count(f"/{name} gs".encode()) == 2  # the two clashing 5s
    pypdf = pytest.importorskip("pypdf")
    assert len(pypdf.PdfReader(str(tmp_path / "c.pdf")).pages) == 1


def test_sheets_show_grades(tmp_path):
    path = tmp_path / "g.pdf"
    puzzles = NINES[:3] + [SIXES[0]]
    boards = [sr.Board(p, box=(2, 3) if len(p) == 36 else None) for p in puzzles]
    assert sr.print_sheets(boards, path, grades=True, answers=False) == 1
    _, _, texts = read_pdf(path.read_bytes())
    levels = [sr.grade(b.to_numpy(), box=b.box).level for b in boards]
    words = [t for t in texts[0] if t.isalpha() or t in ("not unique", "no solution")]
    assert words == levels
    # Without numbers the grades still get their line; the answers never show them.
    sr.print_sheets(boards, path, grades=True, numbered=False)
    _, _, texts = read_pdf(path.read_bytes())
    assert [t for t in texts[0] if t in levels] == levels
    assert not any(t in levels for t in texts[1])


def test_sheets_show_sudoku_explainer_ratings(tmp_path):
    path = tmp_path / "er.pdf"
    # Ratings from the serate reference (tests/data/se_reference.txt), not from se_rate.
    rated = {
        "9..1...4661.2...5...2.3..1.847.....339.8..1.21.5.6..9.2.169.7..5.....4.94.....63.": 1.2,
        "...94.........8.2...5..7.486.3...4.9.....5.3...1..2....1....6..468.....5...8..1..": 2.6,
    }
    puzzles = list(rated)
    assert sr.print_sheets(puzzles, path, er=True, answers=False) == 1
    _, _, texts = read_pdf(path.read_bytes())
    assert [t for t in texts[0] if t.startswith("ER ")] == [f"ER {er:.1f}" for er in rated.values()]
    # Beside a grade; "ER ?" once a rating runs out of time; never on the answers.
    sr.print_sheets(puzzles, path, er=True, grades=True, time_limit=0)
    _, _, texts = read_pdf(path.read_bytes())
    levels = [sr.grade(p).level for p in puzzles]
    assert [t for t in texts[0] if "ER" in t] == [f"{level} \u00b7 ER ?" for level in levels]
    assert not any("ER" in t for t in texts[1])
    with pytest.raises(ValueError, match="puzzle 2: Sudoku Explainer rates 9x9"):
        sr.print_sheets([puzzles[0], sr.Board(SIXES[0], box=(2, 3))], path, er=True)
    with pytest.raises(sr.InvalidPuzzleError, match=r"puzzle 1: .*several solutions"):
        sr.print_sheets(["." * 81], path, er=True, answers=False)
    with pytest.raises(sr.InvalidRulesError, match="puzzle 1: Sudoku Explainer"):
        sr.print_sheets(puzzles[:1], path, er=True, rules=sr.Rules(diagonals=True))


def test_cli_print_er(tmp_path):
    source = tmp_path / "p.txt"
    source.write_text("\n".join(NINES[:2]) + "\n")
    out = tmp_path / "book.pdf"
    assert cli_main(["print", str(source), "-o", str(out), "--er", "-q"]) == 0
    _, _, texts = read_pdf(out.read_bytes())
    ratings = [f"ER {sr.se_rate(p).er:.1f}" for p in NINES[:2]]
    assert [t for t in texts[0] if t.startswith("ER ")] == ratings


def test_svg_pencil_marks_need_a_valid_board():
    with pytest.raises(sr.InvalidPuzzleError, match="conflicting clues"):
        sr.Board("5...5" + "." * 76).to_svg(pencil=True)
    assert "data-conflict" in sr.Board("5...5" + "." * 76).to_svg()


def test_cli_print_grades(tmp_path):
    source = tmp_path / "p.txt"
    source.write_text("\n".join(NINES[:2]) + "\n")
    out = tmp_path / "book.pdf"
    assert cli_main(["print", str(source), "-o", str(out), "--grades", "-q"]) == 0
    _, _, texts = read_pdf(out.read_bytes())
    levels = {sr.grade(p).level for p in NINES[:2]}
    assert levels <= set(texts[0])
