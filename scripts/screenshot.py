"""Screenshots of `sudoku_rs.Board` as a browser draws it, in a light and a dark theme.

Renders one page of boards (a 9x9 puzzle, its solution, an invalid board, a 6x6 with 2x3
boxes, a 16x16 and a 25x25, the last two solved) with each board's `_repr_html_`, and has
headless Chromium save `docs/boards-light.png` and `docs/boards-dark.png`. The themes copy the
text and background colours of JupyterLab's light and dark themes, which is all the boards
inherit (they draw with currentColor on a transparent background).

Not part of CI (Chromium is not on the CI machine). On Debian: `apt-get install -y chromium`,
then, with the package installed: `python scripts/screenshot.py [--chromium PATH] [--keep-html]`.
With Pillow installed the PNGs are also re-saved with a small palette to keep them small.
"""

from __future__ import annotations

import argparse
import html
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import sudoku_rs as sr

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"

# (name, page background, text colour): JupyterLab's --jp-layout-color0 and
# --jp-content-font-color1 in its light and dark themes.
THEMES = [
    ("light", "#ffffff", "rgba(0, 0, 0, 0.87)"),
    ("dark", "#111111", "rgba(255, 255, 255, 1)"),
]

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
# The puzzle with an extra 5 at (0, 7), which clashes with the 5 at (0, 0) in row 0.
INVALID = PUZZLE[:7] + "5" + PUZZLE[8:]
SIX = [
    [0, 0, 3, 0, 1, 0],
    [5, 6, 0, 3, 2, 0],
    [0, 5, 4, 2, 0, 3],
    [2, 0, 6, 4, 5, 0],
    [0, 1, 2, 0, 4, 5],
    [0, 4, 0, 1, 0, 0],
]

WIDTH = 1240


def first_line(name: str) -> str:
    with open(DATA / name, encoding="ascii") as f:
        return f.readline().strip()


def boards() -> list:
    """(caption, board) pairs, in page order."""
    puzzle = sr.Board(PUZZLE)
    return [
        ("9x9 puzzle", puzzle),
        ("its solution: givens bold, filled-in digits blue", puzzle.solve()),
        ("invalid: the clashing clues are marked red", sr.Board(INVALID)),
        ("6x6, box=(2, 3), solved", sr.Board(SIX, box=(2, 3)).solve()),
        ("16x16, solved", sr.Board(first_line("gen_16x16")).solve()),
        ("25x25, solved", sr.Board(first_line("gen_25x25")).solve()),
    ]


def page(theme: tuple, items: list) -> str:
    name, background, colour = theme
    figures = "".join(
        f'<figure style="margin:0 24px 24px 0">{board._repr_html_()}'
        f'<figcaption style="font-size:13px;opacity:0.8">{html.escape(caption)}</figcaption>'
        "</figure>"
        for caption, board in items
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>boards, {name}</title></head>"
        f'<body style="margin:16px;background:{background};color:{colour};'
        'font-family:system-ui,sans-serif">'
        f'<div style="display:flex;flex-wrap:wrap;align-items:flex-start;width:{WIDTH - 32}px">'
        f"{figures}</div></body></html>"
    )


def shrink(path: Path) -> None:
    """Re-saves a screenshot with a 64-colour palette when Pillow is installed: a quarter of
    the size, with no visible change for flat colours and anti-aliased text."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    small.save(path, optimize=True)


def capture(browser: str, source: Path, target: Path, width: int, height: int) -> None:
    """Screenshots the page `source` at `width` x `height` CSS pixels into `target`, shrunk."""
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            f"--window-size={width},{height}",
            f"--screenshot={target}",
            source.as_uri(),
        ],
        check=True,
        capture_output=True,
    )
    shrink(target)


def shown(path: Path) -> str:
    """`path` for the "wrote" line: relative to the repository when it is inside it (docs/),
    else as given (an --out folder anywhere else, or given relative to the current folder)."""
    full = path.resolve()
    return str(full.relative_to(ROOT)) if full.is_relative_to(ROOT) else str(path)


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=None, help="the browser binary")
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="output folder")
    parser.add_argument("--height", type=int, default=1480, help="page height in pixels")
    parser.add_argument("--keep-html", action="store_true", help="also write the HTML pages")
    args = parser.parse_args(argv)
    browser = args.chromium or shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        print(
            "chromium not found: apt-get install -y chromium, or pass --chromium", file=sys.stderr
        )
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    items = boards()
    with tempfile.TemporaryDirectory() as tmp:
        for theme in THEMES:
            source = Path(tmp) / f"boards-{theme[0]}.html"
            source.write_text(page(theme, items), encoding="utf-8")
            if args.keep_html:
                shutil.copy(source, args.out / source.name)
            target = args.out / f"boards-{theme[0]}.png"
            capture(browser, source, target, WIDTH, args.height)
            print(f"wrote {shown(target)} ({target.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
