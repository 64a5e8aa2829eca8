"""A small PDF writer that draws our own SVG: one drawing (see `_draw.grid`), printed.

Why our own and not a library: the boards and sheets are lines, rectangles and short labels, and
PDF's standard Helvetica draws the labels with no font file to embed. Written directly that is
a few hundred lines with nothing to install, exact output (no CreationDate, so the same puzzles
give the same bytes) and a real text layer; the libraries that turn SVG into PDF either need
the system's cairo (cairosvg), several more packages and their own SVG reading that misplaces
`dominant-baseline` (svglib with reportlab), or a second drawing API we would have to keep in
step with the SVG (reportlab's canvas, fpdf2).

It reads the subset of SVG the drawing uses and fails loudly on anything else, so a new shape
in `_draw` shows up as a clear error here rather than a silently missing line:

- elements: svg (nested, with x/y/width/height/viewBox), g, rect, line, circle, path (M L H V Z,
  absolute or relative), text, title/desc (skipped);
- attributes: transform (translate, scale), fill, stroke (#rgb, #rrggbb, black, white, none,
  currentColor = black), fill-opacity, stroke-opacity, opacity, stroke-width,
  stroke-linecap, stroke-dasharray, font-size, font-weight, text-anchor, dominant-baseline.

Text is set in Helvetica / Helvetica-Bold with WinAnsiEncoding, so it can hold Latin-1 and the
other characters of Windows-1252; anything else raises ValueError.
"""

from __future__ import annotations

import re
import unicodedata
import zlib
from typing import Dict, Iterator, List, Optional, Sequence, Tuple
from xml.etree import ElementTree as ET

SVG_NS = "{http://www.w3.org/2000/svg}"

# Advance widths (1/1000 em) of characters 32..126 in Helvetica and Helvetica-Bold: the
# published metrics of the PDF standard fonts (read from the metric-compatible Nimbus Sans
# AFM files). Used to centre and right-align text.
_WIDTHS = {
    False: (
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
    ),
    True: (
        278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
        975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
        333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
        611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
    ),
}  # fmt: skip

#: Height of capitals and digits in Helvetica, in em: centres labels on `dominant-baseline`.
CAP_HEIGHT = 0.718
X_HEIGHT = 0.523


def encode_text(text: str) -> bytes:
    """The bytes of `text` in the fonts' WinAnsiEncoding; ValueError naming a character the
    standard fonts cannot show."""
    try:
        return text.encode("cp1252")
    except UnicodeEncodeError as err:
        bad = text[err.start]
        raise ValueError(
            f"cannot print {bad!r} (U+{ord(bad):04X}) in {text!r}: PDF text uses the standard "
            "Helvetica font, which holds Latin-1 and the other Windows-1252 characters"
        ) from None


def text_width(text: str, size: float, bold: bool = False) -> float:
    """The width of `text` set in Helvetica (bold or not) at `size`. Accented letters take the
    width of their base letter, other characters beyond ASCII that of a digit."""
    widths = _WIDTHS[bold]
    total = 0
    for ch in text:
        code = ord(ch)
        if not 32 <= code <= 126:
            base = unicodedata.normalize("NFD", ch)[0]
            code = ord(base) if 32 <= ord(base) <= 126 else ord("0")
        total += widths[code - 32]
    return total * size / 1000


# ---------------------------------------------------------------- the document


class Document:
    """Pages of PDF drawing commands, written as one file by `to_bytes`."""

    def __init__(self, title: Optional[str] = None) -> None:
        self.title = title
        self.pages: List[Tuple[float, float, bytes]] = []
        self._alphas: Dict[Tuple[str, float], str] = {}

    def add_svg(self, svg: ET.Element, width: float, height: float) -> None:
        """Adds a page `width` x `height` points with the SVG drawn to fill it."""
        painter = _Painter(self)
        painter.out.append(f"1 0 0 -1 0 {_num(height)} cm")
        painter.draw_root(svg, 0.0, 0.0, width, height)
        self.pages.append((width, height, "\n".join(painter.out).encode("latin-1")))

    def graphics_state(self, kind: str, alpha: float) -> str:
        """The name of an ExtGState setting fill ('ca') or stroke ('CA') opacity.

        Real transparency rather than the colour blended onto white beforehand: translucent
        layers that overlap (an extra region across a window, a conflict's tint on a shade)
        then darken each other as in the SVG, and PDF 1.4 transparency is read by every
        current viewer and printer driver."""
        key = (kind, round(alpha, 3))
        if key not in self._alphas:
            self._alphas[key] = f"GS{len(self._alphas)}"
        return self._alphas[key]

    def to_bytes(self) -> bytes:
        objects: List[bytes] = []

        def add(body: bytes) -> int:
            objects.append(body)
            return len(objects)

        catalog = add(b"")  # filled in once the page tree's number is known
        fonts = [
            add(
                b"<< /Type /Font /Subtype /Type1 /BaseFont /" + name + b" "
                b"/Encoding /WinAnsiEncoding >>"
            )
            for name in (b"Helvetica", b"Helvetica-Bold")
        ]
        states = " ".join(
            f"/{name} << /Type /ExtGState /{kind} {_num(alpha)} >>"
            for (kind, alpha), name in self._alphas.items()
        )
        resources = add(
            f"<< /Font << /F0 {fonts[0]} 0 R /F1 {fonts[1]} 0 R >> "
            f"/ExtGState << {states} >> >>".encode()
        )
        tree = len(objects) + 1 + 2 * len(self.pages)
        kids = []
        for width, height, content in self.pages:
            packed = zlib.compress(content)
            stream = add(
                f"<< /Length {len(packed)} /Filter /FlateDecode >>\nstream\n".encode()
                + packed
                + b"\nendstream"
            )
            kids.append(
                add(
                    f"<< /Type /Page /Parent {tree} 0 R "
                    f"/MediaBox [0 0 {_num(width)} {_num(height)}] "
                    f"/Resources {resources} 0 R /Contents {stream} 0 R >>".encode()
                )
            )
        assert (
            add(
                f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] "
                f"/Count {len(kids)} >>".encode()
            )
            == tree
        )
        objects[catalog - 1] = f"<< /Type /Catalog /Pages {tree} 0 R >>".encode()
        about = b"<< /Producer (sudoku_rs)"
        if self.title:
            about += b" /Title " + _pdf_string(self.title)
        info = add(about + b" >>")

        out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for number, body in enumerate(objects, 1):
            offsets.append(len(out))
            out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
        for offset in offsets:
            out += f"{offset:010d} 00000 n \n".encode()
        out += (
            f"trailer\n<< /Size {len(objects) + 1} /Root {catalog} 0 R /Info {info} 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n"
        ).encode()
        return bytes(out)


def _num(value: float) -> str:
    """A number as PDF writes it: no exponent, at most 3 decimals."""
    if value == int(value):
        return str(int(value))
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _pdf_string(text: str) -> bytes:
    raw = encode_text(text)
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


# ---------------------------------------------------------------- SVG to drawing commands

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


_COLOURS: Dict[str, Optional[Tuple[float, float, float]]] = {}


def _colour(value: str) -> Optional[Tuple[float, float, float]]:
    """An SVG colour as PDF's r g b in 0..1 (remembered: a page asks for a few colours a
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
    def __init__(self, doc: Document) -> None:
        self.doc = doc
        self.out: List[str] = []

    def draw_root(self, svg: ET.Element, x: float, y: float, width: float, height: float) -> None:
        """Draws an <svg> element into the box (x, y, width, height) of the current space,
        scaling its viewBox uniformly and centring it (SVG's default xMidYMid meet)."""
        box = _numbers(svg.get("viewBox", ""))
        if len(box) == 4 and box[2] > 0 and box[3] > 0:
            vx, vy, vw, vh = box
        else:
            vx, vy = 0.0, 0.0
            vw = _numbers(svg.get("width", "")) or [width]  # type: ignore[assignment]
            vh = _numbers(svg.get("height", "")) or [height]  # type: ignore[assignment]
            vw, vh = vw[0], vh[0]  # type: ignore[index]
        scale = min(width / vw, height / vh)
        dx = x + (width - vw * scale) / 2 - vx * scale
        dy = y + (height - vh * scale) / 2 - vy * scale
        self.out.append("q")
        self.out.append(f"{_num(scale)} 0 0 {_num(scale)} {_num(dx)} {_num(dy)} cm")
        self._children(svg, dict(_DEFAULTS))
        self.out.append("Q")

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
            self.out.append("q")
            self.out.append(_transform(transform))
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
            self._shape(f"{_num(x)} {_num(y)} {_num(w)} {_num(h)} re", style)
        elif tag == "line":
            x1, y1, x2, y2 = (float(element.get(k, "0")) for k in ("x1", "y1", "x2", "y2"))
            self._shape(f"{_num(x1)} {_num(y1)} m {_num(x2)} {_num(y2)} l", style)
        elif tag == "circle":
            cx, cy, r = (float(element.get(k, "0")) for k in ("cx", "cy", "r"))
            self._shape(_circle(cx, cy, r), style)
        elif tag == "path":
            self._shape(_path(element.get("d", "")), style)
        elif tag == "text":
            self._text(element, style)
        else:
            raise ValueError(f"cannot print the SVG element <{tag}>")
        if transform:
            self.out.append("Q")

    def _paint(self, style: Dict[str, str], what: str) -> Optional[Tuple[float, float, float]]:
        """Sets the colour and opacity for filling ('fill') or stroking ('stroke'); None when
        there is nothing to paint."""
        colour = _colour(style[what])
        alpha = float(style[f"{what}-opacity"])
        if colour is None or alpha <= 0:
            return None
        r, g, b = (_num(c) for c in colour)
        self.out.append(f"{r} {g} {b} {'rg' if what == 'fill' else 'RG'}")
        if alpha < 1:
            kind = "ca" if what == "fill" else "CA"
            self.out.append(f"/{self.doc.graphics_state(kind, alpha)} gs")
        return colour

    def _shape(self, geometry: str, style: Dict[str, str]) -> None:
        if not geometry:
            return
        # Each paint in its own q/Q, so its colour and opacity do not leak into the next.
        mark = len(self.out)
        self.out.append("q")
        if self._paint(style, "fill") is not None:
            self.out.append(geometry + " f")
            self.out.append("Q")
        else:
            del self.out[mark:]
        width = float(style["stroke-width"])
        if width <= 0:
            return
        mark = len(self.out)
        self.out.append("q")
        if self._paint(style, "stroke") is not None:
            self.out.append(f"{_num(width)} w {_CAPS.get(style['stroke-linecap'], 0)} J")
            dashes = style["stroke-dasharray"]
            if dashes != "none":
                self.out.append(f"[{' '.join(_num(d) for d in _numbers(dashes))}] 0 d")
            self.out.append(geometry + " S")
            self.out.append("Q")
        else:
            del self.out[mark:]

    def _text(self, element: ET.Element, style: Dict[str, str]) -> None:
        self._texts([element], style)

    def _texts(self, elements: List[ET.Element], style: Dict[str, str]) -> None:
        """Text elements that share `style`, in one BT/ET block with one colour: a board's
        labels are most of a page."""
        mark = len(self.out)
        self.out.append("q")
        if self._paint(style, "fill") is None:
            del self.out[mark:]
            return
        size = float(style["font-size"])
        bold = style["font-weight"] in ("bold", "bolder", "600", "700", "800", "900")
        anchor = style["text-anchor"]
        baseline = style["dominant-baseline"]
        shift = {"central": CAP_HEIGHT / 2, "middle": X_HEIGHT / 2, "hanging": CAP_HEIGHT}
        drop = shift.get(baseline, 0.0) * size
        self.out.append(f"BT /F{int(bold)} {_num(size)} Tf")
        for element in elements:
            text = "".join(element.itertext()).strip()
            if not text:
                continue
            x, y = float(element.get("x", "0")), float(element.get("y", "0")) + drop
            if anchor in ("middle", "end"):
                width = text_width(text, size, bold)
                x -= width / 2 if anchor == "middle" else width
            # The page is flipped (SVG's y grows down); the text matrix flips the glyphs back.
            self.out.append(
                f"1 0 0 -1 {_num(x)} {_num(y)} Tm {_pdf_string(text).decode('latin-1')} Tj"
            )
        self.out.append("ET")
        self.out.append("Q")


def _transform(text: str) -> str:
    """An SVG transform list (translate and scale) as one PDF `cm`."""
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
    return f"{_num(a)} 0 0 {_num(d)} {_num(e)} {_num(f)} cm"


def _path(d: str) -> str:
    """SVG path data of straight segments (M L H V Z, absolute or relative) as PDF path
    operators."""
    ops: List[str] = []
    x = y = start_x = start_y = 0.0
    for command, args in re.findall(r"([A-Za-z])([^A-Za-z]*)", d):
        values = _numbers(args)
        upper = command.upper()
        relative = command != upper
        if upper == "Z":
            ops.append("h")
            x, y = start_x, start_y
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
            move = upper == "M" and i == 0
            ops.append(f"{_num(nx)} {_num(ny)} {'m' if move else 'l'}")
            x, y = nx, ny
            if move:
                start_x, start_y = x, y
    return " ".join(ops)


def _circle(cx: float, cy: float, r: float) -> str:
    """A circle as four cubic Béziers."""
    k = 0.5523 * r
    pts: Sequence[Tuple[float, ...]] = (
        (cx + r, cy + k, cx + k, cy + r, cx, cy + r),
        (cx - k, cy + r, cx - r, cy + k, cx - r, cy),
        (cx - r, cy - k, cx - k, cy - r, cx, cy - r),
        (cx + k, cy - r, cx + r, cy - k, cx + r, cy),
    )
    curves = " ".join(" ".join(_num(v) for v in p) + " c" for p in pts)
    return f"{_num(cx + r)} {_num(cy)} m {curves} h"


def svg_pages(svgs: Iterator[Tuple[ET.Element, float, float]], title: Optional[str]) -> bytes:
    """A PDF with one page per (svg, width, height), sizes in points."""
    doc = Document(title)
    for svg, width, height in svgs:
        doc.add_svg(svg, width, height)
    return doc.to_bytes()
