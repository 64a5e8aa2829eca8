"""The text form of variant rules, and files of variant puzzles.

Rules are written as space-separated words, in a fixed order, so equal rules write equally:

    diagonals main-diagonal anti-diagonal windows anti-knight anti-king non-consecutive
    disjoint-groups negative-xv negative-ratio
    regions=111222333111222333...      (n*n region labels, row by row, one character each;
                                        `.` for a cell in no region)
    extra=r1c1,r2c2,r3c3               (a set of cells holding distinct digits; repeatable)
    cage=15:r1c1,r1c2,r2c1             (a killer cage: its total, then its cells; repeatable;
                                        cage=:r1c1,r2c2 has no total)
    little-killer=15:r0c1:DR           (total, the clue outside the grid, the direction)
    thermo=r1c1,r1c2,r1c3              (from the bulb)
    arrow=r1c1:r1c2,r1c3               (circle cells, then the shaft from the circle)
    xv=X:r1c1,r1c2   difference=1:r1c1,r1c2   ratio=2:r1c1,r1c2   (the value may be left out
                                        of difference= and ratio=: 1 and 2)
    sandwich=15:r0c3   x-sum=15:r4c0   skyscraper=3:r10c2   (a value and a clue outside)
    whispers=r1c1,r1c2  (or whispers=4:r1c1,r1c2 with its least difference)
    renban=...   palindrome=...   between=...   (a line of cells)
    odd=r1c1,r2c2   even=...   minimum=...   maximum=...
    quadruple=1,2:r1c1                 (digits, then the top-left cell of the 2x2)
    clone=r1c1,r1c2:r9c1,r9c2          (cells, then the cells they clone)
    pencil=1,2,3:r1c1                  (a cell's given pencil marks)
    zipper=...   region-sum=...   entropic=...   modular=...   slow-thermo=...
    double-arrow=...   lockout=...   nabner=...   (a line of cells; a slow thermometer from
                                        its bulb)
    row-indexer=r1c1,r2c2   column-indexer=...   box-indexer=...   (indexing cells)

Cells use the usual 1-based rNcM notation of puzzle books (the Python API counts from 0);
clues outside the grid are in row or column 0 or n+1.
`classic` (or an empty text) means no variant rule. `x` and `windoku` are accepted as
shorthands when reading. A variant puzzle file has one puzzle a line: the grid, then its rules
after a space (`<81 characters> diagonals`); a line with no rules part is a classic puzzle.
"""

from __future__ import annotations

import os
import re
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

from ._atomic import atomic_write
from ._sudoku_rs import InvalidRulesError, Rules

# Flag words and the `Rules` keyword each one sets, in the order they are written.
_FLAGS = (
    ("diagonals", "diagonals"),
    ("main-diagonal", "main_diagonal"),
    ("anti-diagonal", "anti_diagonal"),
    ("windows", "windows"),
    ("anti-knight", "anti_knight"),
    ("anti-king", "anti_king"),
    ("non-consecutive", "non_consecutive"),
    ("disjoint-groups", "disjoint_groups"),
    ("negative-xv", "negative_xv"),
    ("negative-ratio", "negative_ratio"),
)
# List words and the `Rules` keyword each adds an item to, in the order they are written.
_LISTS = (
    ("little-killer", "little_killers"),
    ("thermo", "thermometers"),
    ("arrow", "arrows"),
    ("xv", "xv"),
    ("difference", "differences"),
    ("ratio", "ratios"),
    ("sandwich", "sandwiches"),
    ("whispers", "whispers"),
    ("renban", "renbans"),
    ("palindrome", "palindromes"),
    ("between", "between_lines"),
    ("odd", "odd_cells"),
    ("even", "even_cells"),
    ("minimum", "minimum_cells"),
    ("maximum", "maximum_cells"),
    ("quadruple", "quadruples"),
    ("clone", "clones"),
    ("x-sum", "x_sums"),
    ("skyscraper", "skyscrapers"),
    ("pencil", "pencil_marks"),
    ("zipper", "zipper_lines"),
    ("region-sum", "region_sum_lines"),
    ("entropic", "entropic_lines"),
    ("modular", "modular_lines"),
    ("slow-thermo", "slow_thermometers"),
    ("double-arrow", "double_arrows"),
    ("lockout", "lockout_lines"),
    ("nabner", "nabner_lines"),
    ("row-indexer", "row_indexers"),
    ("column-indexer", "column_indexers"),
    ("box-indexer", "box_indexers"),
)
# List words whose value is a set of cells, all written as one word.
_CELL_LISTS = (
    "odd_cells",
    "even_cells",
    "minimum_cells",
    "maximum_cells",
    "row_indexers",
    "column_indexers",
    "box_indexers",
)
_SHORTHANDS = {"x": ("diagonals",), "windoku": ("windows",), "classic": ()}
_CELL = re.compile(r"r(\d+)c(\d+)\Z", re.IGNORECASE)
# Region labels: any character but whitespace and '=' (so a label never ends the word).
_LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _cells_of(text: str, word: str, least: int = 1) -> List[Tuple[int, int]]:
    cells = []
    for part in text.split(","):
        match = _CELL.match(part.strip())
        if not match or int(match.group(1)) < least or int(match.group(2)) < least:
            raise InvalidRulesError(
                f"rules text: {word!r} needs cells written r<row>c<col> from {least}, got {part!r}"
            )
        cells.append((int(match.group(1)) - 1, int(match.group(2)) - 1))
    return cells


def _cell_text(cells: Iterable[Sequence[int]]) -> str:
    return ",".join(f"r{r + 1}c{c + 1}" for r, c in cells)


def _int_of(text: str, word: str) -> int:
    if not text.isdigit():
        raise InvalidRulesError(f"rules text: {word!r} needs a whole number, got {text!r}")
    return int(text)


def _split(value: str, word: str, parts: int) -> List[str]:
    pieces = value.split(":")
    if len(pieces) != parts:
        raise InvalidRulesError(
            f"rules text: {word!r} has {len(pieces)} ':'-separated parts, expected {parts}"
        )
    return pieces


def _outside_of(text: str, word: str) -> Tuple[int, int]:
    (cell,) = _cells_of(text, word, least=0)
    return cell


def _list_item(key: str, value: str, word: str) -> object:
    """The `Rules` item a list word's value describes."""
    if key == "little_killers":
        total, clue, direction = _split(value, word, 3)
        return (_int_of(total, word), _outside_of(clue, word), direction.upper())
    if key == "arrows":
        circle, shaft = _split(value, word, 2)
        return (_cells_of(circle, word), _cells_of(shaft, word))
    if key == "xv":
        letter, cells = _split(value, word, 2)
        return (*_cells_of(cells, word), letter.upper())
    if key in ("differences", "ratios", "whispers"):
        number, colon, cells = value.rpartition(":")
        line = _cells_of(cells, word)
        if key == "whispers":
            return (line, _int_of(number, word) if colon else None)
        return (*line, _int_of(number, word)) if colon else tuple(line)
    if key in ("sandwiches", "x_sums", "skyscrapers"):
        number, clue = _split(value, word, 2)
        return (_int_of(number, word), _outside_of(clue, word))
    if key in ("quadruples", "pencil_marks"):
        digits, cell = _split(value, word, 2)
        numbers = [_int_of(d, word) for d in digits.split(",")]
        (where,) = _cells_of(cell, word)
        return (where, numbers)
    if key == "clones":
        cells, copies = _split(value, word, 2)
        return (_cells_of(cells, word), _cells_of(copies, word))
    if key in _CELL_LISTS:
        return _cells_of(value, word)
    return _cells_of(value, word)  # a line: thermometer, renban, ..., the line kinds


def _list_text(key: str, item: Any) -> str:
    """The value of the list word for one `Rules` item (the inverse of `_list_item`)."""
    if key == "little_killers":
        total, clue, direction = item
        return f"{total}:{_cell_text([clue])}:{direction}"
    if key == "arrows":
        return f"{_cell_text(item[0])}:{_cell_text(item[1])}"
    if key == "xv":
        return f"{item[2]}:{_cell_text(item[:2])}"
    if key in ("differences", "ratios"):
        return f"{item[2]}:{_cell_text(item[:2])}"
    if key == "whispers":
        line, difference = item
        return _cell_text(line) if difference is None else f"{difference}:{_cell_text(line)}"
    if key in ("sandwiches", "x_sums", "skyscrapers"):
        return f"{item[0]}:{_cell_text([item[1]])}"
    if key in ("quadruples", "pencil_marks"):
        cell, digits = item
        return ",".join(map(str, digits)) + ":" + _cell_text([cell])
    if key == "clones":
        return f"{_cell_text(item[0])}:{_cell_text(item[1])}"
    return _cell_text(item)


def parse_rules(text: str, /) -> Rules:
    """The :class:`Rules` a rules text describes (see the module's doc for the form).

    Raises :class:`InvalidRulesError` naming the word that is wrong.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_rules expects a str, got {type(text).__name__}")
    options: dict = {}
    extra: List[List[Tuple[int, int]]] = []
    cages: List[Tuple[Optional[int], List[Tuple[int, int]]]] = []
    flags = dict(_FLAGS)
    lists = dict(_LISTS)
    for word in text.split():
        name, sep, value = word.partition("=")
        lowered = name.lower()
        if not sep and lowered in _SHORTHANDS:
            for flag in _SHORTHANDS[lowered]:
                options[flags[flag]] = True
        elif not sep and lowered in flags:
            options[flags[lowered]] = True
        elif sep and lowered == "regions":
            side = round(len(value) ** 0.5)
            if not value or side * side != len(value):
                raise InvalidRulesError(
                    f"rules text: regions= needs n*n labels, one per cell; got {len(value)}"
                )
            options["regions"] = [value[i * side : (i + 1) * side] for i in range(side)]
        elif sep and lowered == "extra":
            extra.append(_cells_of(value, word))
        elif sep and lowered == "cage":
            total, colon, cells = value.partition(":")
            if not colon or not (total.isdigit() or total == ""):
                raise InvalidRulesError(
                    f"rules text: a cage is written cage=<total>:<cells>, got {word!r}"
                )
            cages.append((int(total) if total else None, _cells_of(cells, word)))
        elif sep and lowered in lists:
            key = lists[lowered]
            item = _list_item(key, value, word)
            if key in _CELL_LISTS:
                options.setdefault(key, []).extend(item)
            else:
                options.setdefault(key, []).append(item)
        else:
            raise InvalidRulesError(
                f"rules text: unknown word {word!r}; expected one of "
                + ", ".join(w for w, _ in _FLAGS)
                + ", x, windoku, classic, regions=, extra=, cage=, "
                + ", ".join(f"{w}=" for w, _ in _LISTS)
            )
    if extra:
        options["extra_regions"] = extra
    if cages:
        options["cages"] = cages
    return Rules(**options)


def format_rules(rules: Rules, /) -> str:
    """The text form of `rules`; ``parse_rules(format_rules(r)) == r``. Classic rules give
    ``"classic"``."""
    if not isinstance(rules, Rules):
        raise TypeError(f"format_rules expects sudoku_rs.Rules, got {type(rules).__name__}")
    words = [
        word
        for word, key in _FLAGS
        if getattr(rules, key)
        and not (key in ("main_diagonal", "anti_diagonal") and rules.diagonals)
    ]
    if rules.regions is not None:
        # Relabel in order of first appearance so equal regions always write the same text.
        order: dict = {}
        labels = []
        for row in rules.regions:
            for region in row:
                if region is None:
                    labels.append(".")
                    continue
                if region not in order:
                    order[region] = _LABELS[len(order)] if len(order) < len(_LABELS) else None
                if order[region] is None:
                    raise InvalidRulesError(
                        f"rules text: at most {len(_LABELS)} regions can be written"
                    )
                labels.append(order[region])
        words.append("regions=" + "".join(labels))
    words += ["extra=" + _cell_text(cells) for cells in rules.extra_regions]
    words += [
        f"cage={'' if total is None else total}:{_cell_text(cells)}" for total, cells in rules.cages
    ]
    for word, key in _LISTS:
        items = getattr(rules, key)
        if key in _CELL_LISTS:
            if items:
                words.append(f"{word}={_cell_text(items)}")
        else:
            words += [f"{word}={_list_text(key, item)}" for item in items]
    return " ".join(words) or "classic"


def read_variant_puzzles(path: Union[str, os.PathLike[str]], /) -> Tuple[List[str], List[Rules]]:
    """Reads a variant puzzle file: returns the puzzles (grid strings) and, row for row, their
    rules. Blank lines and lines starting with '#' are skipped; a bad rules part raises
    :class:`InvalidRulesError` naming the line."""
    puzzles: List[str] = []
    rules: List[Rules] = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            grid, _, spec = stripped.partition(" ")
            try:
                parsed = parse_rules(spec)
            except InvalidRulesError as err:
                raise InvalidRulesError(f"{os.fspath(path)}, line {number}: {err}") from None
            puzzles.append(grid)
            rules.append(parsed)
    return puzzles, rules


def write_variant_puzzles(
    path: Union[str, os.PathLike[str]],
    puzzles: Sequence[str],
    rules: Union[Rules, Sequence[Rules]],
    /,
) -> None:
    """Writes puzzles (grid strings without spaces) with their rules, one a line, all at once
    or not at all. `rules` is one :class:`Rules` for every puzzle or one per puzzle."""
    if isinstance(rules, Rules):
        rules = [rules] * len(puzzles)
    if len(rules) != len(puzzles):
        raise ValueError(f"write_variant_puzzles: {len(puzzles)} puzzles but {len(rules)} rules")
    lines = []
    for i, (grid, rule) in enumerate(zip(puzzles, rules)):
        if not isinstance(grid, str) or not grid or any(ch.isspace() for ch in grid):
            raise ValueError(
                f"write_variant_puzzles: puzzle {i} must be a grid string without spaces"
            )
        lines.append(f"{grid} {format_rules(rule)}\n")
    with atomic_write(path, encoding="utf-8") as handle:
        handle.writelines(lines)
