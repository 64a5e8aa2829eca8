"""PDF pages of our own SVG drawing (see `_draw.grid`), written with reportlab.

reportlab (BSD) writes the file: its structure, the fonts embedded as subsets with a text
layer that copies and searches as Unicode, the transparency. What stays here is reading the
drawing: the boards and sheets are one SVG, and this walks it onto reportlab's canvas, so a
printed board is exactly the board on screen. The SVG readers that would do that walk for us
are LGPL (svglib) or need the system's cairo (cairosvg).

It reads the subset of SVG the drawing uses and fails loudly on anything else, so a new shape
in `_draw` shows up as a clear error here rather than a silently missing line:

- elements: svg (nested, with x/y/width/height/viewBox), g, rect, line, circle, path (M L H V Z,
  absolute or relative), text, title/desc (skipped);
- attributes: transform (translate, scale), fill, stroke (#rgb, #rrggbb, black, white, none,
  currentColor = black), fill-opacity, stroke-opacity, opacity, stroke-width,
  stroke-linecap, stroke-dasharray, font-size, font-weight, text-anchor, dominant-baseline.

Fonts. reportlab embeds TrueType outlines only (not the CFF outlines of Noto CJK or Source
Han), so the fonts shipped in ``fonts/`` are TrueType, under free licences that allow
redistributing a subset (their licence files are beside them), and subset by
``scripts/build_print_fonts.py`` to keep the wheel small:

- DejaVu Sans and DejaVu Sans Bold: Latin with its extensions, Greek and Cyrillic in one
  design close to the Helvetica/Verdana look of the screen drawing, with a real bold for the
  givens; Bitstream Vera licence (DejaVu's changes are public domain).
- Droid Sans Fallback, for what DejaVu lacks: kana, CJK punctuation, full-width forms and the
  2,965 common kanji of JIS X 0208 level 1; Apache-2.0, the plainest licence among the CJK
  fonts with TrueType outlines (IPA Gothic's licence makes a subset a derived font that must
  be renamed; Noto Sans CJK is CFF). It has no bold, so bold CJK text is set in its one weight.

Together they add about 0.8 MB to the wheel; a PDF embeds only the glyphs it uses.

Each character is set in the first font that holds it; a character neither holds raises
ValueError naming it.
"""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple
from xml.etree import ElementTree as ET

from .raster import INSTALL_HINT

SVG_NS = "{http://www.w3.org/2000/svg}"
FONTS = Path(__file__).with_name("fonts")

#: Registered font names (prefixed: reportlab's registry is shared with the whole process).
REGULAR = "sudoku_rs-DejaVuSans"
BOLD = "sudoku_rs-DejaVuSans-Bold"
CJK = "sudoku_rs-DroidSansFallback"
_FILES = {REGULAR: "DejaVuSans.ttf", BOLD: "DejaVuSans-Bold.ttf", CJK: "DroidSansFallback.ttf"}

#: Height of capitals and digits and of lower-case letters in DejaVu Sans, in em: centres
#: labels on `dominant-baseline`.
CAP_HEIGHT = 0.729
X_HEIGHT = 0.547


def _reportlab():  # type: ignore[no-untyped-def]
    try:
        import reportlab  # type: ignore[import-untyped,unused-ignore]
    except ImportError as err:
        raise ImportError(
            f"writing PDF needs reportlab, which the print extra installs: {INSTALL_HINT}"
        ) from err
    return reportlab


class _Fonts:
    """The shipped fonts, registered with reportlab once, and the characters each holds."""

    _lock = threading.Lock()
    _loaded: Optional[_Fonts] = None

    def __init__(self) -> None:
        _reportlab()
        from reportlab.pdfbase import pdfmetrics  # type: ignore[import-untyped,unused-ignore]
        from reportlab.pdfbase.ttfonts import TTFont  # type: ignore[import-untyped,unused-ignore]

        self.chars: Dict[str, frozenset] = {}
        for name, file in _FILES.items():
            font = TTFont(name, str(FONTS / file))
            pdfmetrics.registerFont(font)
            self.chars[name] = frozenset(font.face.charToGlyph)
        self.width = pdfmetrics.stringWidth

    @classmethod
    def get(cls) -> _Fonts:
        _reportlab()  # the install hint, even once the fonts are loaded
        with cls._lock:
            if cls._loaded is None:
                cls._loaded = _Fonts()
            return cls._loaded


def _font_of(ch: str, first: str, fonts: _Fonts, text: str) -> str:
    code = ord(ch)
    if code in fonts.chars[first]:
        return first
    if code in fonts.chars[CJK]:
        return CJK
    raise ValueError(
        f"cannot print {ch!r} (U+{code:04X}) in {text!r}: the PDF fonts hold Latin, Greek, "
        "Cyrillic, kana and the common kanji (DejaVu Sans, Droid Sans Fallback)"
    )


def runs(text: str, bold: bool = False) -> List[Tuple[str, str]]:
    """`text` cut into (font name, piece) runs, each character in the first shipped font that
    holds it; ValueError naming a character none holds."""
    return list(_runs(text, bold))


# Remembered: a page sets the same few digits hundreds of times. Plain dicts rather than
# lru_cache, whose wrapper hides the signature from stubtest; cleared when they grow large.
_RUNS: Dict[Tuple[str, bool], Tuple[Tuple[str, str], ...]] = {}
_WIDTHS: Dict[Tuple[str, float, bool], float] = {}
_MEMO_SIZE = 4096


def _runs(text: str, bold: bool) -> Tuple[Tuple[str, str], ...]:
    key = (text, bold)
    found = _RUNS.get(key)
    if found is None:
        if len(_RUNS) >= _MEMO_SIZE:
            _RUNS.clear()
        found = _RUNS[key] = _split(text, bold)
    return found


def _split(text: str, bold: bool) -> Tuple[Tuple[str, str], ...]:
    fonts = _Fonts.get()
    first = BOLD if bold else REGULAR
    out: List[Tuple[str, str]] = []
    for ch in text:
        font = first if ch == " " else _font_of(ch, first, fonts, text)
        if out and out[-1][0] == font:
            out[-1] = (font, out[-1][1] + ch)
        else:
            out.append((font, ch))
    return tuple(out)


def _width(text: str, size: float, bold: bool) -> float:
    key = (text, size, bold)
    found = _WIDTHS.get(key)
    if found is None:
        if len(_WIDTHS) >= _MEMO_SIZE:
            _WIDTHS.clear()
        width = _Fonts.get().width
        found = float(sum(width(piece, font, size) for font, piece in _runs(text, bold)))
        _WIDTHS[key] = found
    return found


def check_text(text: str) -> None:
    """ValueError naming the first character of `text` the shipped fonts cannot show."""
    runs(text)


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of `text` set at `size` in the fonts it prints in."""
    return _width(text, size, bold)


# ---------------------------------------------------------------- SVG onto the canvas

_INHERITED = (
    "fill",
    "stroke",
    "fill-opacity",
    "stroke-opacity",
    "stroke-width",
    "stroke-linecap",
    "stroke-dasharray",
    "font-size",
    "font-weight",
    "text-anchor",
    "dominant-baseline",
)
_DEFAULTS = {
    "fill": "#000000",
    "stroke": "none",
    "fill-opacity": "1",
    "stroke-opacity": "1",
    "stroke-width": "1",
    "stroke-linecap": "butt",
    "stroke-dasharray": "none",
    "font-size": "16",
    "font-weight": "400",
    "text-anchor": "start",
    "dominant-baseline": "auto",
}
_NAMED = {"black": (0.0, 0.0, 0.0), "white": (1.0, 1.0, 1.0), "currentcolor": (0.0, 0.0, 0.0)}
_CAPS = {"butt": 0, "round": 1, "square": 2}
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_BOLD_WEIGHTS = ("bold", "bolder", "600", "700", "800", "900")

_COLOURS: Dict[str, Optional[Tuple[float, float, float]]] = {}


def _colour(value: str) -> Optional[Tuple[float, float, float]]:
    """An SVG colour as r, g, b in 0..1 (remembered: a page asks for a few colours a
    thousand times)."""
    if value not in _COLOURS:
        _COLOURS[value] = _parse_colour(value)
    return _COLOURS[value]


def _parse_colour(value: str) -> Optional[Tuple[float, float, float]]:
    value = value.strip().lower()
    if value == "none":
        return None
    if value in _NAMED:
        return _NAMED[value]
    if re.fullmatch(r"#[0-9a-f]{3}", value):
        return tuple(int(ch * 2, 16) / 255 for ch in value[1:])  # type: ignore[return-value]
    if re.fullmatch(r"#[0-9a-f]{6}", value):
        return tuple(int(value[i : i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]
    raise ValueError(f"cannot print the colour {value!r}")


def _numbers(text: str) -> List[float]:
    return [float(x) for x in _NUMBER.findall(text)]


class _Painter:
    """Draws SVG elements onto one reportlab canvas page."""

    def __init__(self, canvas) -> None:  # type: ignore[no-untyped-def]
        self.canvas = canvas

    def draw_root(self, svg: ET.Element, x: float, y: float, width: float, height: float) -> None:
        """Draws an <svg> element into the box (x, y, width, height) of the current space,
        scaling its viewBox uniformly and centring it (SVG's default xMidYMid meet)."""
        box = _numbers(svg.get("viewBox", ""))
        if len(box) == 4 and box[2] > 0 and box[3] > 0:
            vx, vy, vw, vh = box
        else:
            vx, vy = 0.0, 0.0
            vw = (_numbers(svg.get("width", "")) or [width])[0]
            vh = (_numbers(svg.get("height", "")) or [height])[0]
        scale = min(width / vw, height / vh)
        dx = x + (width - vw * scale) / 2 - vx * scale
        dy = y + (height - vh * scale) / 2 - vy * scale
        self.canvas.saveState()
        self.canvas.transform(scale, 0, 0, scale, dx, dy)
        self._children(svg, dict(_DEFAULTS))
        self.canvas.restoreState()

    def _children(self, element: ET.Element, style: Dict[str, str]) -> None:
        for child in element:
            self._element(child, style)

    def _element(self, element: ET.Element, parent: Dict[str, str]) -> None:
        tag = element.tag.replace(SVG_NS, "")
        if tag in ("title", "desc"):
            return
        style = dict(parent)
        for name in _INHERITED:
            if name in element.attrib:
                style[name] = element.attrib[name]
        if "opacity" in element.attrib:
            alpha = float(element.attrib["opacity"])
            for name in ("fill-opacity", "stroke-opacity"):
                style[name] = str(float(style[name]) * alpha)
        transform = element.get("transform")
        if transform:
            self.canvas.saveState()
            self.canvas.transform(*_transform(transform))
        if tag == "g":
            children = list(element)
            plain = {"x", "y"}
            if children and all(
                c.tag.replace(SVG_NS, "") == "text" and set(c.attrib) <= plain for c in children
            ):
                self._texts(children, style)
            else:
                self._children(element, style)
        elif tag == "svg":
            n = [_numbers(element.get(k, "")) for k in ("x", "y", "width", "height")]
            x, y = (n[0] or [0.0])[0], (n[1] or [0.0])[0]
            if not (n[2] and n[3]):
                raise ValueError("a nested <svg> needs a width and a height to print")
            self.draw_root(element, x, y, n[2][0], n[3][0])
        elif tag == "rect":
            x, y, w, h = (float(element.get(k, "0")) for k in ("x", "y", "width", "height"))
            path = self.canvas.beginPath()
            path.rect(x, y, w, h)
            self._shape(path, style)
        elif tag == "line":
            x1, y1, x2, y2 = (float(element.get(k, "0")) for k in ("x1", "y1", "x2", "y2"))
            path = self.canvas.beginPath()
            path.moveTo(x1, y1)
            path.lineTo(x2, y2)
            self._shape(path, style)
        elif tag == "circle":
            cx, cy, r = (float(element.get(k, "0")) for k in ("cx", "cy", "r"))
            path = self.canvas.beginPath()
            path.circle(cx, cy, r)
            self._shape(path, style)
        elif tag == "path":
            path = self.canvas.beginPath()
            if _path(element.get("d", ""), path):
                self._shape(path, style)
        elif tag == "text":
            self._texts([element], style)
        else:
            raise ValueError(f"cannot print the SVG element <{tag}>")
        if transform:
            self.canvas.restoreState()

    def _paint(self, style: Dict[str, str], what: str) -> bool:
        """Sets the colour and opacity for filling ('fill') or stroking ('stroke'); False
        when there is nothing to paint."""
        colour = _colour(style[what])
        alpha = float(style[f"{what}-opacity"])
        if colour is None or alpha <= 0:
            return False
        if what == "fill":
            self.canvas.setFillColorRGB(*colour)
            if alpha < 1:
                self.canvas.setFillAlpha(alpha)
        else:
            self.canvas.setStrokeColorRGB(*colour)
            if alpha < 1:
                self.canvas.setStrokeAlpha(alpha)
        return True

    def _shape(self, path, style: Dict[str, str]) -> None:  # type: ignore[no-untyped-def]
        # Each paint in its own saved state, so its colour and opacity do not leak on.
        canvas = self.canvas
        if _colour(style["fill"]) is not None and float(style["fill-opacity"]) > 0:
            canvas.saveState()
            self._paint(style, "fill")
            # SVG's default fill rule is nonzero; reportlab's is even-odd.
            canvas.drawPath(path, stroke=0, fill=1, fillMode=_NONZERO)
            canvas.restoreState()
        width = float(style["stroke-width"])
        if width <= 0 or _colour(style["stroke"]) is None or float(style["stroke-opacity"]) <= 0:
            return
        canvas.saveState()
        self._paint(style, "stroke")
        canvas.setLineWidth(width)
        canvas.setLineCap(_CAPS.get(style["stroke-linecap"], 0))
        dashes = style["stroke-dasharray"]
        if dashes != "none":
            canvas.setDash(_numbers(dashes), 0)
        canvas.drawPath(path, stroke=1, fill=0)
        canvas.restoreState()

    def _texts(self, elements: List[ET.Element], style: Dict[str, str]) -> None:
        """Text elements that share `style`, in one text object with one colour: a board's
        labels are most of a page."""
        canvas = self.canvas
        if _colour(style["fill"]) is None or float(style["fill-opacity"]) <= 0:
            return
        size = float(style["font-size"])
        bold = style["font-weight"] in _BOLD_WEIGHTS
        anchor = style["text-anchor"]
        shift = {"central": CAP_HEIGHT / 2, "middle": X_HEIGHT / 2, "hanging": CAP_HEIGHT}
        drop = shift.get(style["dominant-baseline"], 0.0) * size
        canvas.saveState()
        self._paint(style, "fill")
        block = canvas.beginText()
        current = None
        for element in elements:
            text = "".join(element.itertext()).strip()
            if not text:
                continue
            pieces = _runs(text, bold)
            x, y = float(element.get("x", "0")), float(element.get("y", "0")) + drop
            if anchor in ("middle", "end"):
                width = _width(text, size, bold)
                x -= width / 2 if anchor == "middle" else width
            # The page is flipped (SVG's y grows down); the text matrix flips the glyphs back.
            block.setTextTransform(1, 0, 0, -1, x, y)
            for font, piece in pieces:
                if font != current:
                    block.setFont(font, size)
                    current = font
                block.textOut(piece)
        canvas.drawText(block)
        canvas.restoreState()


_NONZERO = 1  # reportlab.pdfgen.canvas.FILL_NON_ZERO, without importing reportlab early


def _transform(text: str) -> Tuple[float, float, float, float, float, float]:
    """An SVG transform list (translate and scale) as one matrix."""
    a, d, e, f = 1.0, 1.0, 0.0, 0.0
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text):
        values = _numbers(args)
        if name == "translate" and values:
            tx, ty = values[0], values[1] if len(values) > 1 else 0.0
            e, f = e + a * tx, f + d * ty
        elif name == "scale" and values:
            sx, sy = values[0], values[1] if len(values) > 1 else values[0]
            a, d = a * sx, d * sy
        else:
            raise ValueError(f"cannot print the SVG transform {name}({args})")
    return (a, 0.0, 0.0, d, e, f)


def _path(d: str, path) -> bool:  # type: ignore[no-untyped-def]
    """Adds SVG path data of straight segments (M L H V Z, absolute or relative) to a
    reportlab path; False when there was nothing to add."""
    x = y = 0.0
    start = (0.0, 0.0)
    drawn = False
    for command, args in re.findall(r"([A-Za-z])([^A-Za-z]*)", d):
        values = _numbers(args)
        upper = command.upper()
        relative = command != upper
        if upper == "Z":
            path.close()
            x, y = start
            continue
        if upper not in "MLHV":
            raise ValueError(f"cannot print the SVG path command {command!r}")
        step = 2 if upper in "ML" else 1
        if not values or len(values) % step:
            raise ValueError(f"bad SVG path data after {command!r}: {args.strip()!r}")
        for i in range(0, len(values), step):
            if upper in "ML":
                nx, ny = values[i], values[i + 1]
                if relative:
                    nx, ny = x + nx, y + ny
            elif upper == "H":
                nx, ny = (x + values[i] if relative else values[i]), y
            else:
                nx, ny = x, (y + values[i] if relative else values[i])
            if upper == "M" and i == 0:
                path.moveTo(nx, ny)
                start = (nx, ny)
            else:
                path.lineTo(nx, ny)
            x, y = nx, ny
            drawn = True
    return drawn


_SAVE_LOCK = threading.Lock()


def svg_pages(svgs: Iterator[Tuple[ET.Element, float, float]], title: Optional[str]) -> bytes:
    """A PDF with one page per (svg, width, height), sizes in points."""
    _reportlab()
    _Fonts.get()
    from reportlab import rl_config  # type: ignore[import-untyped,unused-ignore]
    from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped,unused-ignore]

    if title is not None:
        check_text(title)
    out = io.BytesIO()
    # invariant: no creation date or random file id, so the same puzzles give the same bytes.
    canvas = Canvas(out, invariant=1, pageCompression=1, initialFontName=REGULAR)
    canvas.setProducer("sudoku_rs")
    canvas.setCreator("sudoku_rs")
    if title:
        canvas.setTitle(title)
    for svg, width, height in svgs:
        canvas.setPageSize((width, height))
        canvas.transform(1, 0, 0, -1, 0, height)
        _Painter(canvas).draw_root(svg, 0.0, 0.0, width, height)
        canvas.showPage()
    # The file is binary anyway: streams need no ASCII85 layer over their compression (it
    # adds a quarter). reportlab reads that switch from its global config while writing.
    with _SAVE_LOCK:
        before = rl_config.useA85
        rl_config.useA85 = 0
        try:
            canvas.save()
        finally:
            rl_config.useA85 = before
    return out.getvalue()
