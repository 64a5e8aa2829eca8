"""Rebuilds the fonts PDF text is set in (python/sudoku_rs/_print/fonts/) from Debian's font
packages, subset to what titles and labels need so the wheel stays small.

    apt-get install -y fonts-dejavu-core fonts-droid-fallback
    pip install fonttools
    python scripts/build_print_fonts.py

Sources and what is kept (why these fonts: python/sudoku_rs/_print/pdf.py):
- DejaVu Sans and DejaVu Sans Bold (fonts-dejavu-core, Bitstream Vera licence + public
  domain): Latin with its extensions, Greek, Cyrillic, punctuation, currency and a few symbols.
- Droid Sans Fallback (fonts-droid-fallback, Apache-2.0): CJK punctuation, hiragana, katakana,
  full-width forms and the kanji of JIS X 0208 level 1 (the 2,965 most common ones, read from
  Python's own EUC-JP codec, so the set needs no list of its own).

The output is the same bytes for the same source files and fontTools version (the fonts in the
repository: fonts-dejavu-core 2.37-6, fonts-droid-fallback 1:6.0.1r16-1.1, fontTools 4.68.0).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "python" / "sudoku_rs" / "_print" / "fonts"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
DROID = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")

LATIN_GREEK_CYRILLIC = [
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x024F),  # Latin-1, Latin Extended-A and -B
    (0x0370, 0x03FF),  # Greek
    (0x0400, 0x052F),  # Cyrillic and its supplement
    (0x1E00, 0x1EFF),  # Latin Extended Additional (Vietnamese among others)
    (0x2000, 0x206F),  # general punctuation: dashes, quotes, ellipsis
    (0x20A0, 0x20C0),  # currency
    (0x2100, 0x215F),  # letterlike symbols, number forms
    (0x2190, 0x2199),  # arrows
    (0x2212, 0x2212),  # minus
    (0x2460, 0x2473),  # circled numbers
    (0x25A0, 0x25CF),  # squares and circles
]


def jis_level1_kanji() -> list[int]:
    """The kanji of JIS X 0208 level 1: rows 16 to 47, read through Python's EUC-JP codec
    (row r, cell c is the bytes 0xA0 + r, 0xA0 + c); the unassigned end of row 47 is skipped."""
    found = []
    for row in range(16, 48):
        for cell in range(1, 95):
            try:
                ch = bytes((0xA0 + row, 0xA0 + cell)).decode("euc_jp")
            except UnicodeDecodeError:
                continue
            found.append(ord(ch))
    return found


CJK = [
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x309F),  # hiragana
    (0x30A0, 0x30FF),  # katakana
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0xFF00, 0xFFEF),  # full-width and half-width forms
]


def codepoints(ranges) -> list[int]:
    return [c for lo, hi in ranges for c in range(lo, hi + 1)]


def build(source: Path, target: Path, unicodes: list[int]) -> None:
    options = subset.Options()
    options.layout_features = []  # no shaping tables: the PDF places glyphs one by one
    options.hinting = False  # print resolution needs no hints
    options.name_IDs = ["*"]  # keep the copyright and licence records
    options.notdef_outline = True
    options.glyph_names = False
    # The source's own timestamp, not the time of the run, so a rebuild gives the same bytes.
    font = TTFont(str(source), recalcTimestamp=False)
    sub = subset.Subsetter(options)
    sub.populate(unicodes=unicodes)
    sub.subset(font)
    font.save(str(target))
    print(f"{target.relative_to(ROOT)}: {target.stat().st_size:,} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    western = codepoints(LATIN_GREEK_CYRILLIC)
    build(DEJAVU / "DejaVuSans.ttf", OUT / "DejaVuSans.ttf", western)
    build(DEJAVU / "DejaVuSans-Bold.ttf", OUT / "DejaVuSans-Bold.ttf", western)
    build(DROID, OUT / "DroidSansFallback.ttf", codepoints(CJK) + jis_level1_kanji())


if __name__ == "__main__":
    main()
