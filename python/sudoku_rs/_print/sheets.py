"""Puzzle sheets: many boards laid out on PDF pages, answer keys at the back.

Each board is the print drawing of `Board.to_svg`, placed on a page drawn as SVG and written by
`pdf`, so a sheet shows exactly what `Board.save` does.
"""

from __future__ import annotations

import contextlib
import math
import os
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union
from xml.etree import ElementTree as ET

import numpy as np

from .. import _sudoku_rs
from .._atomic import atomic_write
from .._logic import grade
from .._sudoku_rs import InvalidRulesError, Rules, SudokuError
from ..board import Board
from . import pdf as _pdf
from .export import file_format

#: Page sizes in points (1/72 inch), portrait.
PAGES = {
    "a3": (841.89, 1190.55),
    "a4": (595.276, 841.89),
    "a5": (419.528, 595.276),
    "letter": (612.0, 792.0),
    "legal": (612.0, 1008.0),
}
MARGIN = 40.0
HEADING = 30.0  # the band at the top: title, then what the page holds
FOOTER = 20.0  # the band at the bottom: the page number
LABEL = 15.0  # above each board: its number
GAP = 14.0  # between boards
#: The default number of answers per page is the most that keep cells at least this big.
MIN_ANSWER_CELL = 9.0
ANSWER_COUNTS = (20, 16, 12, 9, 6, 4, 2, 1)


def _page_size(page: Any) -> Tuple[float, float]:
    if isinstance(page, str):
        size = PAGES.get(page.lower())
        if size is None:
            raise ValueError(
                f"unknown page size {page!r}: use one of {', '.join(p.title() for p in PAGES)} "
                "or (width, height) in points"
            )
        return size
    try:
        width, height = (float(v) for v in page)
    except (TypeError, ValueError):
        raise TypeError(
            f"page must be a name such as 'A4' or (width, height) in points, got {page!r}"
        ) from None
    if not (144 <= width <= 14400 and 144 <= height <= 14400):
        raise ValueError(f"page size must be 144 to 14400 points a side, got {page!r}")
    return width, height


def _count(name: str, value: Any, most: int = 100) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be a whole number, got {value!r}")
    if not 1 <= value <= most:
        raise ValueError(f"{name} must be from 1 to {most}, got {value}")
    return int(value)


def _variant(rules: Optional[Rules]) -> Optional[Rules]:
    """None for classic rules, however given."""
    return None if rules is None or rules.is_classic else rules


def _rules_each(rules: Any, count: int) -> List[Optional[Rules]]:
    """`rules=` as one entry per puzzle: None, one Rules for all, or a sequence of Rules (or
    None) such as `read_variant_puzzles` returns."""
    if rules is None or isinstance(rules, Rules):
        return [rules] * count
    if isinstance(rules, (str, bytes)):
        raise TypeError(
            "rules must be a sudoku_rs.Rules or a list of them, one per puzzle; for the rules "
            "text form use sudoku_rs.parse_rules"
        )
    try:
        each = list(rules)
    except TypeError:
        raise TypeError(
            f"rules must be a sudoku_rs.Rules or a list of them, got {type(rules).__name__}"
        ) from None
    for number, item in enumerate(each, 1):
        if item is not None and not isinstance(item, Rules):
            raise TypeError(
                f"rules for puzzle {number} must be a sudoku_rs.Rules or None, "
                f"got {type(item).__name__}"
            )
    if len(each) != count:
        raise ValueError(f"{count} puzzles but {len(each)} rules: give one Rules per puzzle")
    return each


def _boards(puzzles: Any, box: Optional[Tuple[int, int]], rules: Any = None) -> List[Board]:
    """The puzzles as Boards: Boards as they are, grids read like Board(grid, box=box,
    rules=rules), and the rows of an (N, n*n) or (N, n, n) array one by one. `rules` is one
    Rules for every puzzle or one per puzzle; a Board keeps its own, which must agree."""
    if isinstance(puzzles, (str, bytes, Board)):
        raise TypeError("expected a sequence of puzzles; for one puzzle pass [puzzle]")
    if isinstance(puzzles, np.ndarray):
        _sudoku_rs._check_batch_shape(puzzles.shape)  # the batch readers' rule and message
        if puzzles.ndim == 2:
            side = math.isqrt(puzzles.shape[1])
            puzzles = puzzles.reshape(len(puzzles), side, side)
    try:
        items = list(puzzles)
    except TypeError:
        raise TypeError(f"expected a sequence of puzzles, got {type(puzzles).__name__}") from None
    boards = []
    for number, (item, own) in enumerate(zip(items, _rules_each(rules, len(items))), 1):
        if isinstance(item, Board):
            if own is not None and _variant(own) != _variant(item.rules):
                has = "classic rules" if item.rules is None else f"rules {item.rules!r}"
                raise InvalidRulesError(
                    f"puzzle {number} is a Board with {has}, but rules= gives {own!r} for it: "
                    "a Board keeps its own rules"
                )
            boards.append(item)
            continue
        try:
            boards.append(Board(item, box=box, rules=own))
        except SudokuError as err:
            raise type(err)(f"puzzle {number}: {err}") from None
        except TypeError as err:
            raise TypeError(f"puzzle {number}: {err}") from None
    if not boards:
        raise ValueError("no puzzles to print")
    return boards


def _grid(count: int, width: float, height: float, label: float) -> Tuple[int, int, float]:
    """(columns, rows, board side) placing `count` square boards in width x height with the
    biggest side; ties go to fewer empty places."""
    best = (1, count, 0.0)
    for cols in range(1, count + 1):
        rows = math.ceil(count / cols)
        side = min(width / cols - GAP, height / rows - label - GAP)
        if side > best[2] + 1e-6:
            best = (cols, rows, side)
    return best


def _text(
    parent: ET.Element, x: float, y: float, text: str, size: float, *, bold=False, anchor="start"
) -> None:
    _pdf.check_text(text)  # a clear error, before drawing, for characters no font holds
    element = ET.SubElement(
        parent,
        "text",
        {
            "x": f"{x:.2f}",
            "y": f"{y:.2f}",
            "font-size": f"{size:g}",
            "font-weight": "700" if bold else "400",
            "text-anchor": anchor,
            "fill": "#000000",
        },
    )
    element.text = text


def _page(
    size: Tuple[float, float],
    boards: Sequence[Tuple[int, Board]],
    slots: int,
    *,
    title: Optional[str],
    heading: str,
    numbered: bool,
    notes: Dict[int, str],
    page_number: int,
    page_count: int,
) -> ET.Element:
    """One page: the heading, `boards` (number, board) in a grid of `slots` places, each
    labelled with its number and its note (a grade) if any, the page number at the foot."""
    width, height = size
    root = ET.Element(
        "svg", {"width": f"{width:g}", "height": f"{height:g}", "viewBox": f"0 0 {width} {height}"}
    )
    ET.SubElement(root, "rect", {"width": f"{width:g}", "height": f"{height:g}", "fill": "#fff"})
    top = MARGIN + 14
    if title:
        _text(root, MARGIN, top, title, 14, bold=True)
    if heading:
        _text(root, width - MARGIN, top, heading, 10, anchor="end")
    ET.SubElement(
        root,
        "path",
        {
            "d": f"M{MARGIN} {top + 7}H{width - MARGIN}",
            "stroke": "#000",
            "stroke-width": "0.5",
            "fill": "none",
        },
    )
    _text(root, width / 2, height - MARGIN + 6, f"{page_number} / {page_count}", 9,
          anchor="middle")  # fmt: skip

    area_w = width - 2 * MARGIN + GAP
    area_h = height - 2 * MARGIN - HEADING - FOOTER + GAP
    label = LABEL if numbered or notes else 0.0
    cols, rows, side = _grid(slots, area_w, area_h, label)
    # Across: columns reach the margins, up to three gaps apart, the rest centred. Down: equal
    # space between the rows and around them (centring each board in its own share would
    # double the gaps between rows).
    free_x = width - 2 * MARGIN - cols * side
    space_x = min(free_x / (cols - 1), 3 * GAP) if cols > 1 else 0.0
    left = MARGIN + (free_x - space_x * (cols - 1)) / 2
    space_y = (area_h - GAP - rows * (side + label)) / (rows + 1)
    for index, (number, board) in enumerate(boards):
        row, col = divmod(index, cols)
        x = left + col * (side + space_x)
        y = MARGIN + HEADING + space_y + row * (side + label + space_y)
        if numbered:
            _text(root, x, y + label - 5, f"Puzzle {number}", min(10.0, label * 0.7), bold=True)
        if number in notes:
            _text(root, x + side, y + label - 5, notes[number], 9, anchor="end")
        drawing = ET.fromstring(board.to_svg().encode())
        drawing.set("x", f"{x:.2f}")
        drawing.set("y", f"{y + label:.2f}")
        # A caption under the grid (variant rules with no mark of their own) makes the drawing
        # taller than wide: it keeps the slot's height, and its left edge stays under the label
        # rather than being centred in the square.
        _, _, wide, tall = (float(v) for v in drawing.get("viewBox", "0 0 1 1").split())
        drawing.set("width", f"{side * min(1.0, wide / tall):.2f}")
        drawing.set("height", f"{side:.2f}")
        root.append(drawing)
    return root


def _range(kind: str, numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"{kind[:-1]} {numbers[0]}"
    return f"{kind} {numbers[0]}\u2013{numbers[-1]}"


def print_sheets(
    puzzles: Iterable[Any],
    path: Union[str, os.PathLike[str]],
    /,
    *,
    per_page: int = 4,
    page: Union[str, Tuple[float, float]] = "A4",
    answers: bool = True,
    title: Optional[str] = None,
    numbered: bool = True,
    box: Optional[Tuple[int, int]] = None,
    answers_per_page: Optional[int] = None,
    first_number: int = 1,
    grades: bool = False,
    rules: Union[Rules, Sequence[Optional[Rules]], None] = None,
    er: bool = False,
    time_limit: Optional[float] = None,
) -> int:
    """Writes a PDF of puzzle sheets to `path` and returns its number of pages.

    `puzzles` is a sequence of Boards or grids of any kind the API takes (read with `box`), or
    an (N, n*n) or (N, n, n) array such as `read_puzzles` gives; sizes and box shapes may mix.
    They are laid out `per_page` to a page (in the grid that makes them biggest) on `page`
    ('A4', 'A5', 'A3', 'Letter', 'Legal' or (width, height) in points), under `title`, each
    labelled "Puzzle N" from `first_number` unless ``numbered=False``. With `answers`, the
    solutions follow on their own pages, `answers_per_page` to a page (by default as many as
    keep the cells at least 9 points wide), givens bold and the filled-in digits regular.
    With `grades`, each puzzle's label also shows its `sr.grade` level ('easy' .. 'extreme',
    or 'unsolved' when the logic gets stuck). With `er`, it shows the puzzle's Sudoku
    Explainer rating, "ER 7.1" (`sr.se_rate_batch`, every core; with `time_limit`, each
    rating's seconds), or "ER ?" where SE's techniques get stuck or the rating runs past
    `time_limit`. Ratings are for classic 9x9 puzzles with one solution: another is refused,
    naming it.

    ``rules=`` prints variant puzzles: one `Rules` for every puzzle, or one per puzzle (None
    for a classic one), as `read_variant_puzzles` returns them; Boards carry their own. Each
    board draws its rules (diagonals, shaded windows and extra regions, thick lines around
    jigsaw regions, dashed killer cages with their totals, a caption for the rules with no
    mark) and its answer is solved under them. `grades` and `er` follow classic rules only,
    so they are refused for variant puzzles.

    Text is set in fonts embedded in the PDF: a title may be written in Latin, Greek or
    Cyrillic letters, kana and the common kanji; another character raises ValueError.
    Needs reportlab, which the print extra installs.
    The file is replaced only once it was written whole. Raises ValueError for a path not
    ending in .pdf and for bad options, InvalidPuzzleError naming the puzzle for a malformed
    one, NoSolutionError naming it when `answers` and it has no solution, InvalidRulesError
    naming it when its rules do not fit it, OSError when the file cannot be written.
    """
    file_format(path, (".pdf",))
    size = _page_size(page)
    per_page = _count("per_page", per_page)
    if answers_per_page is not None:
        answers_per_page = _count("answers_per_page", answers_per_page)
    if isinstance(first_number, bool) or not isinstance(first_number, (int, np.integer)):
        raise TypeError(f"first_number must be a whole number, got {first_number!r}")
    if title is not None:
        if not isinstance(title, str):
            raise TypeError(f"title must be a string, got {type(title).__name__}")
        _pdf.check_text(title)
    boards = _boards(puzzles, box, rules)
    numbers = [int(first_number) + i for i in range(len(boards))]
    notes: Dict[int, str] = {}
    if grades:
        for number, board in zip(numbers, boards):
            if board.rules is not None:
                # A grade counts classic techniques, which know nothing of the variant rules.
                raise InvalidRulesError(
                    f"puzzle {number}: grades follow classic rules only, and this puzzle has "
                    f"variant rules ({board.rules!r})"
                )
            try:
                notes[number] = grade(board.to_numpy(), box=board.box).level
            except SudokuError as err:
                raise type(err)(f"puzzle {number}: {err}") from None

    if er:
        for number, text in _er_notes(numbers, boards, time_limit).items():
            notes[number] = f"{notes[number]} \u00b7 {text}" if number in notes else text

    solved: List[Board] = []
    if answers:
        for number, board in zip(numbers, boards):
            try:
                solved.append(board.solve())
            except SudokuError as err:
                raise type(err)(f"puzzle {number}: {err}") from None
        if answers_per_page is None:
            answers_per_page = _answer_count(size, max(b.size for b in boards), numbered)

    groups: List[Tuple[str, Sequence[Tuple[int, Board]], int]] = []
    pairs = list(zip(numbers, boards))
    for start in range(0, len(pairs), per_page):
        chunk = pairs[start : start + per_page]
        groups.append(("Puzzles", chunk, per_page))
    if answers:
        assert answers_per_page is not None
        pairs = list(zip(numbers, solved))
        for start in range(0, len(pairs), answers_per_page):
            chunk = pairs[start : start + answers_per_page]
            groups.append(("Answers", chunk, answers_per_page))

    def pages():  # type: ignore[no-untyped-def]
        for index, (kind, chunk, slots) in enumerate(groups, 1):
            shown = [n for n, _ in chunk]
            heading = _range(kind, shown) if numbered else ("Answers" if kind == "Answers" else "")
            root = _page(
                size,
                chunk,
                slots,
                title=title,
                heading=heading,
                numbered=numbered,
                notes=notes if kind == "Puzzles" else {},
                page_number=index,
                page_count=len(groups),
            )
            yield root, size[0], size[1]

    data = _pdf.svg_pages(pages(), title)
    with atomic_write(path) as f:
        f.write(data)
    return len(groups)


def _er_notes(
    numbers: Sequence[int], boards: Sequence[Board], time_limit: Optional[float]
) -> Dict[int, str]:
    """Each puzzle's "ER 7.1" (or "ER ?" where SE gets stuck or runs out of time), rated in
    one batch; a puzzle SE does not rate raises, named by its number."""
    from .._se import se_rate
    from .._status import Status

    for number, board in zip(numbers, boards):
        if board.rules is not None:
            raise InvalidRulesError(
                f"puzzle {number}: Sudoku Explainer ratings follow classic rules only, and "
                f"this puzzle has variant rules ({board.rules!r})"
            )
        if board.size != 9:
            raise ValueError(
                f"puzzle {number}: Sudoku Explainer rates 9x9 puzzles, this one is "
                f"{board.size}x{board.size}"
            )
    grids = np.stack([board.to_numpy().reshape(81) for board in boards])
    table = _sudoku_rs.se_rate_batch(grids, time_limit=time_limit)
    notes = {}
    for number, board, row in zip(numbers, boards, table):
        status = Status(int(row["status"]))
        if status == Status.SOLVED:
            notes[number] = f"ER {row['er']:.1f}"
        elif status in (Status.UNSOLVED, Status.TIME_LIMIT):
            notes[number] = "ER ?"
        else:
            try:  # the single call's exception says what is wrong with the puzzle
                se_rate(board.to_numpy())
            except SudokuError as err:
                raise type(err)(f"puzzle {number}: {err}") from None
            raise SudokuError(f"puzzle {number}: not rated ({status.label})")
    return notes


def _answer_count(size: Tuple[float, float], n: int, numbered: bool) -> int:
    width, height = size
    area_w = width - 2 * MARGIN + GAP
    area_h = height - 2 * MARGIN - HEADING - FOOTER + GAP
    label = LABEL if numbered else 0.0
    for count in ANSWER_COUNTS:
        if _grid(count, area_w, area_h, label)[2] / n >= MIN_ANSWER_CELL:
            return count
    return 1


def print_command(args: Any) -> int:
    """`sudoku-rs print`: the puzzles of a file (one per line or CSV, as for solve) as sheets."""
    import sys
    import time

    from .._files import bad_mask, iter_chunks

    if args.output == "-":
        print("sudoku-rs: print writes a PDF file: give it with -o FILE.pdf", file=sys.stderr)
        return 2
    try:
        # Options first: a typo should not wait for a large file to be read.
        file_format(args.output, (".pdf",))
        _page_size(args.page)
    except ValueError as err:
        print(f"sudoku-rs: {err}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    box = tuple(args.box) if args.box else None
    name = "<stdin>" if args.input == "-" else args.input
    rows = []
    skipped = 0
    with contextlib.ExitStack() as stack:
        src = sys.stdin.buffer if args.input == "-" else stack.enter_context(open(args.input, "rb"))
        for chunk in iter_chunks(src, column=args.column, box=box, rules=args.rules):
            if chunk.bad and not args.skip_invalid:
                row, message = chunk.bad[0]
                print(f"{name}:{chunk.line_numbers[row]}: {message}", file=sys.stderr)
                return 2
            skipped += len(chunk.bad)
            rows.append(chunk.puzzles[~bad_mask(chunk)])
    puzzles = np.concatenate(rows) if rows else np.zeros((0, 81), np.uint8)
    if not len(puzzles):
        print(f"sudoku-rs: no puzzles in {name}", file=sys.stderr)
        return 2
    try:
        pages = print_sheets(
            puzzles,
            args.output,
            per_page=args.per_page,
            page=args.page,
            answers=not args.no_answers,
            title=args.title,
            numbered=not args.no_numbers,
            box=box,
            answers_per_page=args.answers_per_page,
            grades=args.grades,
            er=args.er,
            rules=args.rules,
        )
    except (ValueError, TypeError, ImportError) as err:
        print(f"sudoku-rs: {err}", file=sys.stderr)
        return 2
    if not args.quiet:
        note = f"; {skipped:,} invalid lines skipped" if skipped else ""
        print(
            f"sudoku-rs: {len(puzzles):,} puzzles on {pages:,} pages in {args.output} "
            f"({time.perf_counter() - start:.2f} s){note}",
            file=sys.stderr,
        )
    return 0
