"""The text form of variant rules, and files of variant puzzles.

Rules are written as space-separated words, in a fixed order, so equal rules write equally:

    diagonals windows anti-knight anti-king non-consecutive
    regions=111222333111222333...      (n*n region labels, row by row, one character each)
    extra=r1c1,r2c2,r3c3               (a set of cells holding distinct digits; repeatable)
    cage=15:r1c1,r1c2,r2c1             (a killer cage: its total, then its cells; repeatable)

Cells use the usual 1-based rNcM notation of puzzle books (the Python API counts from 0).
`classic` (or an empty text) means no variant rule. `x` and `windoku` are accepted as
shorthands when reading. A variant puzzle file has one puzzle a line: the grid, then its rules
after a space (`<81 characters> diagonals`); a line with no rules part is a classic puzzle.
"""

from __future__ import annotations

import os
import re
from typing import Iterable, List, Sequence, Tuple, Union

from ._atomic import atomic_write
from ._sudoku_rs import InvalidRulesError, Rules

# Flag words and the `Rules` keyword each one sets, in the order they are written.
_FLAGS = (
    ("diagonals", "diagonals"),
    ("windows", "windows"),
    ("anti-knight", "anti_knight"),
    ("anti-king", "anti_king"),
    ("non-consecutive", "non_consecutive"),
)
_SHORTHANDS = {"x": ("diagonals",), "windoku": ("windows",), "classic": ()}
_CELL = re.compile(r"r(\d+)c(\d+)\Z", re.IGNORECASE)
# Region labels: any character but whitespace and '=' (so a label never ends the word).
_LABELS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _cells_of(text: str, word: str) -> List[Tuple[int, int]]:
    cells = []
    for part in text.split(","):
        match = _CELL.match(part.strip())
        if not match or int(match.group(1)) < 1 or int(match.group(2)) < 1:
            raise InvalidRulesError(
                f"rules text: {word!r} needs cells written r<row>c<col> from 1, got {part!r}"
            )
        cells.append((int(match.group(1)) - 1, int(match.group(2)) - 1))
    return cells


def _cell_text(cells: Iterable[Sequence[int]]) -> str:
    return ",".join(f"r{r + 1}c{c + 1}" for r, c in cells)


def parse_rules(text: str, /) -> Rules:
    """The :class:`Rules` a rules text describes (see the module's doc for the form).

    Raises :class:`InvalidRulesError` naming the word that is wrong.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_rules expects a str, got {type(text).__name__}")
    options: dict = {}
    extra: List[List[Tuple[int, int]]] = []
    cages: List[Tuple[int, List[Tuple[int, int]]]] = []
    flags = dict(_FLAGS)
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
            if not colon or not total.isdigit():
                raise InvalidRulesError(
                    f"rules text: a cage is written cage=<total>:<cells>, got {word!r}"
                )
            cages.append((int(total), _cells_of(cells, word)))
        else:
            raise InvalidRulesError(
                f"rules text: unknown word {word!r}; expected one of "
                + ", ".join(w for w, _ in _FLAGS)
                + ", x, windoku, classic, regions=, extra=, cage="
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
    words = [word for word, key in _FLAGS if getattr(rules, key)]
    if rules.regions is not None:
        # Relabel in order of first appearance so equal regions always write the same text.
        order: dict = {}
        labels = []
        for row in rules.regions:
            for region in row:
                if region not in order:
                    order[region] = _LABELS[len(order)] if len(order) < len(_LABELS) else None
                if order[region] is None:
                    raise InvalidRulesError(
                        f"rules text: at most {len(_LABELS)} regions can be written"
                    )
                labels.append(order[region])
        words.append("regions=" + "".join(labels))
    words += ["extra=" + _cell_text(cells) for cells in rules.extra_regions]
    words += [f"cage={total}:{_cell_text(cells)}" for total, cells in rules.cages]
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
