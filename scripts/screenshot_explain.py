"""A screenshot of a drawn logical step (`Board.hint()` / `Board.explain()[i]` in Jupyter), as
a browser draws it: `docs/explain-step.png`, in JupyterLab's light theme.

Not part of CI (Chromium is not on the CI machine). On Debian: `apt-get install -y chromium`,
then, with the package installed: `python scripts/screenshot_explain.py [--chromium PATH]`.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import sudoku_rs as sr

sys.path.insert(0, str(Path(__file__).resolve().parent))
from screenshot import ROOT, THEMES, capture, shown

# A hard puzzle (a finned X-wing): its explanation has steps that strike candidates out.
PUZZLE = "..6..4..59......16..1.7...3...3....91.758....84........5...........6...2...9..53."
WIDTH, HEIGHT = 900, 560


def main(argv: list | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=None, help="the browser binary")
    args = parser.parse_args(argv)
    browser = args.chromium or shutil.which("chromium") or shutil.which("chromium-browser")
    if not browser:
        print("chromium not found: apt-get install -y chromium", file=sys.stderr)
        return 1
    walk = sr.Board(PUZZLE).explain()
    placing = walk[0]
    removing = next(d for d in walk if d.eliminations and d.technique != "hidden_single")
    _, background, colour = THEMES[0]
    page = (
        "<!doctype html><html><head><meta charset='utf-8'></head>"
        f'<body style="margin:16px;background:{background};color:{colour};'
        'font-family:system-ui,sans-serif;font-size:14px">'
        '<div style="display:flex;gap:32px;align-items:flex-start">'
        f'<div style="width:400px">{placing._repr_html_()}</div>'
        f'<div style="width:400px">{removing._repr_html_()}</div>'
        "</div></body></html>"
    )
    target = ROOT / "docs" / "explain-step.png"
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "explain.html"
        source.write_text(page, encoding="utf-8")
        capture(browser, source, target, WIDTH, HEIGHT)
    print(f"wrote {shown(target)} ({target.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
