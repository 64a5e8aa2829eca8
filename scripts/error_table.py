"""Writes docs/errors.md: what each kind of bad input raises, with the exact message, by
calling the installed package. tests/test_error_table.py regenerates it and compares, so the
table cannot drift from the code.

    python scripts/error_table.py            # rewrite docs/errors.md
    python scripts/error_table.py --check    # exit 1 if docs/errors.md is out of date
"""

import sys
import tempfile
from pathlib import Path

import numpy as np

import sudoku_rs as sr

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT / "docs" / "errors.md"

LEETCODE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
NO_SOLUTION = "12345678." + "........9" + "." * 63
ROW_CLASH = "5...5" + "." * 76
X = sr.Rules.x()
JIGSAW6 = ["111222", "113322", "133424", "335444", "555664", "556666"]


def _rows(n, fill=0, at=None, value=None):
    grid = [[fill] * n for _ in range(n)]
    if at is not None:
        grid[at[0]][at[1]] = value
    return grid


# Files the cases read are made here; the table shows their paths without this directory.
_TMP = Path(tempfile.mkdtemp(prefix="sudoku_rs_errors_"))


def _bad_file():
    path = _TMP / "puzzles.txt"
    path.write_text(LEETCODE + "\n" + "." * 80 + "\n")
    return path


def _sukaku_file():
    path = _TMP / "sukaku.txt"
    path.write_text(LEETCODE + "\n" + "123456789" * 81 + "\n")
    return path


def _directory():
    path = _TMP / "results"
    path.mkdir(exist_ok=True)
    return path


# (section, the call as shown, a function making it). Order is the table's order.
CASES = [
    ("shape", 'solve("." * 80)', lambda: sr.solve("." * 80)),
    ("shape", 'solve("")', lambda: sr.solve("")),
    ("shape", "solve([[0] * 8] * 9)", lambda: sr.solve([[0] * 8] * 9)),
    ("shape", "solve([[0] * 9] * 8 + [[0] * 8])", lambda: sr.solve([[0] * 9] * 8 + [[0] * 8])),
    ("shape", "solve([])", lambda: sr.solve([])),
    ("shape", "solve(np.zeros((9, 8), int))", lambda: sr.solve(np.zeros((9, 8), int))),
    ("shape", "solve(np.zeros(81, int))", lambda: sr.solve(np.zeros(81, int))),
    (
        "shape",
        "solve(np.zeros((1, 10**6), np.int8))",
        lambda: sr.solve(np.zeros((1, 10**6), np.int8)),
    ),
    ("shape", 'solve("." * 40 * 40)', lambda: sr.solve("." * 1600)),
    ("size and box", "solve([[0] * 7] * 7)", lambda: sr.solve(_rows(7))),
    ("size and box", 'solve("." * 36)', lambda: sr.solve("." * 36)),
    (
        "size and box",
        "solve([[0] * 100] * 100, box=(10, 10))",
        lambda: sr.solve(_rows(100), box=(10, 10)),
    ),
    ("size and box", "solve(puzzle_9x9, box=(2, 2))", lambda: sr.solve(LEETCODE, box=(2, 2))),
    ("size and box", "solve(puzzle_9x9, box=(1, 9))", lambda: sr.solve(LEETCODE, box=(1, 9))),
    ("size and box", "solve(puzzle_9x9, box=(-1, 3))", lambda: sr.solve(LEETCODE, box=(-1, 3))),
    ("size and box", 'solve(puzzle_9x9, box="3x3")', lambda: sr.solve(LEETCODE, box="3x3")),
    ("cell values", "solve(rows) with rows[2][5] = 10", lambda: sr.solve(_rows(9, 0, (2, 5), 10))),
    ("cell values", "solve(rows) with rows[8][0] = -1", lambda: sr.solve(_rows(9, 0, (8, 0), -1))),
    (
        "cell values",
        "solve(rows) with rows[1][7] = 2.5",
        lambda: sr.solve(_rows(9, 0, (1, 7), 2.5)),
    ),
    (
        "cell values",
        'solve(rows) with rows[5][3] = float("nan")',
        lambda: sr.solve(_rows(9, 0, (5, 3), float("nan"))),
    ),
    (
        "cell values",
        'solve(board) with board[0][2] = "x"',
        lambda: sr.solve(_rows(9, ".", (0, 2), "x")),
    ),
    (
        "cell values",
        'solve(board) with board[5][1] = "12"',
        lambda: sr.solve(_rows(9, ".", (5, 1), "12")),
    ),
    ("cell values", 'solve("x" + "." * 80)', lambda: sr.solve("x" + "." * 80)),
    ("cell values", 'solve("A" + "." * 80)', lambda: sr.solve("A" + "." * 80)),
    (
        "cell values",
        "solve(np.uint8 array) with a[4, 4] = 200",
        lambda: sr.solve(np.array(_rows(9, 0, (4, 4), 200), np.uint8)),
    ),
    (
        "cell values",
        "solve(np.int64 array) with a[0, 0] = 2**63 - 1",
        lambda: sr.solve(np.array(_rows(9, 0, (0, 0), 2**63 - 1), np.int64)),
    ),
    ("conflicts", "solve: two 5s in row 0", lambda: sr.solve(ROW_CLASH)),
    (
        "conflicts",
        "solve: two 5s in column 3",
        lambda: sr.solve(_rows(9, 0, (1, 3), 5)[:7] + [[0, 0, 0, 5, 0, 0, 0, 0, 0]] + [[0] * 9]),
    ),
    (
        "conflicts",
        "solve: two 5s in one box only",
        lambda: sr.solve(
            [[5 if (r, c) in ((3, 3), (5, 5)) else 0 for c in range(9)] for r in range(9)]
        ),
    ),
    (
        "variant rules",
        "Rules(regions=[[0] * 9] * 9)",
        lambda: sr.Rules(regions=[[0] * 9] * 9),
    ),
    (
        "variant rules",
        'Rules(regions=["1122", "1122", "3344", "3444"])',
        lambda: sr.Rules(regions=["1122", "1122", "3344", "3444"]),
    ),
    (
        "variant rules",
        "Rules(cages=[(2, [(0, 0), (0, 1)])])",
        lambda: sr.Rules(cages=[(2, [(0, 0), (0, 1)])]),
    ),
    (
        "variant rules",
        "Rules(cages=[(3, [(0, 0), (0, 1)]), (4, [(0, 1), (1, 1)])])",
        lambda: sr.Rules(cages=[(3, [(0, 0), (0, 1)]), (4, [(0, 1), (1, 1)])]),
    ),
    (
        "variant rules",
        "Rules(extra_regions=[[(0, -1)]])",
        lambda: sr.Rules(extra_regions=[[(0, -1)]]),
    ),
    (
        "variant rules",
        'solve("." * 81, rules=Rules(cages=[(18, [(0, 0), (0, 1)])]))',
        lambda: sr.solve("." * 81, rules=sr.Rules(cages=[(18, [(0, 0), (0, 1)])])),
    ),
    (
        "variant rules",
        'solve("." * 16, rules=Rules.windoku())',
        lambda: sr.solve("." * 16, rules=sr.Rules.windoku()),
    ),
    (
        "variant rules",
        'solve("." * 16, box=(2, 2), rules=Rules.jigsaw(["aabb", "aabb", "ccdd", "ccdd"]))',
        lambda: sr.solve(
            "." * 16, box=(2, 2), rules=sr.Rules.jigsaw(["aabb", "aabb", "ccdd", "ccdd"])
        ),
    ),
    (
        "variant rules",
        'solve("." * 81, rules=Rules.jigsaw(["aabb", "aabb", "ccdd", "ccdd"]))',
        lambda: sr.solve("." * 81, rules=sr.Rules.jigsaw(["aabb", "aabb", "ccdd", "ccdd"])),
    ),
    (
        "variant rules",
        "solve: two 5s a knight's move apart, rules=Rules(anti_knight=True)",
        lambda: sr.solve("..5" + "." * 10 + "5" + "." * 67, rules=sr.Rules(anti_knight=True)),
    ),
    (
        "variant rules",
        "solve: a cage of total 3 holding 1 and 5",
        lambda: sr.solve("15" + "." * 79, rules=sr.Rules(cages=[(3, [(0, 0), (0, 1)])])),
    ),
    ("no solution", "solve(no_solution)", lambda: sr.solve(NO_SOLUTION)),
    (
        "guess limit",
        'count_solutions("." * 81, max_guesses=1000)',
        lambda: sr.count_solutions("." * 81, max_guesses=1000),
    ),
    (
        "guess limit",
        'solve("." * 625, max_guesses=10)',
        lambda: sr.solve("." * 625, max_guesses=10),
    ),
    ("wrong types", "solve(None)", lambda: sr.solve(None)),
    ("wrong types", "solve(42)", lambda: sr.solve(42)),
    ("wrong types", "solve({})", lambda: sr.solve({})),
    ("wrong types", 'solve(b"." * 81)', lambda: sr.solve(b"." * 81)),
    (
        "wrong types",
        "solve(rows) with rows[0][0] = None",
        lambda: sr.solve(_rows(9, 0, (0, 0), None)),
    ),
    (
        "wrong types",
        "solve(rows) with rows[2][2] = True",
        lambda: sr.solve(_rows(9, 0, (2, 2), True)),
    ),
    ("wrong types", "solve(np.zeros((9, 9)))", lambda: sr.solve(np.zeros((9, 9)))),
    ("wrong types", "solve(np.zeros((9, 9), bool))", lambda: sr.solve(np.zeros((9, 9), bool))),
    ("wrong types", "solve(np.zeros((9, 9), object))", lambda: sr.solve(np.zeros((9, 9), object))),
    (
        "arguments",
        "count_solutions(puzzle, limit=0)",
        lambda: sr.count_solutions(LEETCODE, limit=0),
    ),
    ("arguments", "solutions(puzzle, limit=-1)", lambda: sr.solutions(LEETCODE, limit=-1)),
    (
        "arguments",
        'count_solutions(puzzle, limit="2")',
        lambda: sr.count_solutions(LEETCODE, limit="2"),
    ),
    ("arguments", "solve(puzzle, max_guesses=0)", lambda: sr.solve(LEETCODE, max_guesses=0)),
    ("arguments", "solve(puzzle, max_guesses=1.5)", lambda: sr.solve(LEETCODE, max_guesses=1.5)),
    ("arguments", "solve_batch(puzzles, threads=0)", lambda: sr.solve_batch([LEETCODE], threads=0)),
    (
        "arguments",
        "solve_batch(puzzles, threads=True)",
        lambda: sr.solve_batch([LEETCODE], threads=True),
    ),
    ("arguments", "solutions(puzzle, limit=True)", lambda: sr.solutions(LEETCODE, limit=True)),
    (
        "arguments",
        "solve(puzzle, max_guesses=True)",
        lambda: sr.solve(LEETCODE, max_guesses=True),
    ),
    ("arguments", "solve(puzzle, box=(3, True))", lambda: sr.solve(LEETCODE, box=(3, True))),
    ("arguments", "solve(puzzle, box=(2**70, 3))", lambda: sr.solve(LEETCODE, box=(2**70, 3))),
    (
        "batches",
        "solve_batch(np.zeros((3, 80), int))",
        lambda: sr.solve_batch(np.zeros((3, 80), int)),
    ),
    ("batches", "solve_batch(np.zeros(81, int))", lambda: sr.solve_batch(np.zeros(81, int))),
    ("batches", "solve_batch(np.zeros((2, 81)))", lambda: sr.solve_batch(np.zeros((2, 81)))),
    ("batches", "solve_batch([[[0] * 9] * 9])", lambda: sr.solve_batch([[[0] * 9] * 9])),
    (
        "batches",
        "solve_batch(np.zeros((2, 6, 6), int))",
        lambda: sr.solve_batch(np.zeros((2, 6, 6), int)),
    ),
    ("batches", "count_solutions_batch(42)", lambda: sr.count_solutions_batch(42)),
    (
        "batches",
        "count_solutions_batch(puzzles, limit=0)",
        lambda: sr.count_solutions_batch([LEETCODE], limit=0),
    ),
    ("files", "read_puzzles(path) with a short line 2", lambda: sr.read_puzzles(_bad_file())),
    ("files", 'read_puzzles("missing.txt")', lambda: sr.read_puzzles("missing.txt")),
    ("files", "format_puzzles(np.zeros((2, 81)))", lambda: sr.format_puzzles(np.zeros((2, 81)))),
    (
        "files",
        "format_puzzles(np.full((1, 81), 10, np.int8))",
        lambda: sr.format_puzzles(np.full((1, 81), 10, np.int8)),
    ),
    ("files", "format_puzzles([puzzle, 5])", lambda: sr.format_puzzles([LEETCODE, 5])),
    (
        "files",
        'format_puzzles([puzzle, "." * 16])',
        lambda: sr.format_puzzles([LEETCODE, "." * 16]),
    ),
    (
        "files",
        'write_puzzles("results", puzzles), a directory',
        lambda: sr.write_puzzles(_directory(), [LEETCODE]),
    ),
    ("boards", 'Board("." * 80)', lambda: sr.Board("." * 80)),
    ("boards", "Board(puzzle_with_two_5s_in_row_0).solve()", lambda: sr.Board(ROW_CLASH).solve()),
    ("boards", "Board(no_solution).solve()", lambda: sr.Board(NO_SOLUTION).solve()),
    ("boards", "Board(puzzle, rules=Rules.x()).hint()", lambda: sr.Board(LEETCODE, rules=X).hint()),
    (
        "boards",
        "Board(puzzle, rules=Rules.x()).explain()",
        lambda: sr.Board(LEETCODE, rules=X).explain(),
    ),
    (
        "boards",
        "Board(puzzle, rules=Rules.x()).to_svg(pencil=True)",
        lambda: sr.Board(LEETCODE, rules=X).to_svg(pencil=True),
    ),
    ("generator", "generate(clues=16)", lambda: sr.generate(clues=16, seed=1)),
    (
        "generator",
        'generate(clues=5, symmetry="rotate180", size=4)',
        lambda: sr.generate(clues=5, symmetry="rotate180", size=4, seed=1),
    ),
    ("generator", 'generate(symmetry="spiral")', lambda: sr.generate(symmetry="spiral", seed=1)),
    ("generator", "generate(size=6)", lambda: sr.generate(size=6, seed=1)),
    ("generator", "generate(size=36)", lambda: sr.generate(size=36, seed=1)),
    ("generator", "generate(size=-1)", lambda: sr.generate(size=-1, seed=1)),
    ("generator", "generate(size=0)", lambda: sr.generate(size=0, seed=1)),
    ("generator", "generate(symmetry=1)", lambda: sr.generate(symmetry=1, seed=1)),
    ("generator", "generate(seed=-1)", lambda: sr.generate(seed=-1)),
    ("generator", "generate(seed=1.5)", lambda: sr.generate(seed=1.5)),
    ("generator", "generate_batch(-1)", lambda: sr.generate_batch(-1, seed=1)),
    (
        "generator",
        'generate(rules=Rules.x(), level="hard")',
        lambda: sr.generate(rules=X, level="hard", seed=1),
    ),
    (
        "generator",
        "generate(rules=Rules.windoku(), size=4)",
        lambda: sr.generate(rules=sr.Rules.windoku(), size=4, seed=1),
    ),
    (
        "generator",
        "generate(rules=Rules.jigsaw(six_by_six), box=(2, 3))",
        lambda: sr.generate(rules=sr.Rules.jigsaw(JIGSAW6), box=(2, 3), seed=1),
    ),
    (
        "generator",
        "generate(rules=Rules.jigsaw(six_by_six), size=9)",
        lambda: sr.generate(rules=sr.Rules.jigsaw(JIGSAW6), size=9, seed=1),
    ),
    (
        "generator",
        "generate(rules=Rules(cages=[(18, [(0, 0), (0, 1)])]), size=4)",
        lambda: sr.generate(rules=sr.Rules(cages=[(18, [(0, 0), (0, 1)])]), size=4, seed=1),
    ),
    (
        "generator",
        'generate(rules="diagonals")',
        lambda: sr.generate(rules="diagonals", seed=1),
    ),
    (
        "generator",
        'generate(level="brutal")',
        lambda: sr.generate(level="brutal", seed=1),
    ),
    (
        "generator",
        'generate(techniques=["naked_pair"])',
        lambda: sr.generate(techniques=["naked_pair"], seed=1),
    ),
    (
        "generator",
        'generate(level="hard", techniques=["hidden_single"])',
        lambda: sr.generate(level="hard", techniques=["hidden_single"], seed=1),
    ),
    (
        "generator",
        'generate(level="hard", techniques=["hidden_single", "unique_rectangle_1"])',
        lambda: sr.generate(
            level="hard", techniques=["hidden_single", "unique_rectangle_1"], seed=1
        ),
    ),
    (
        "generator",
        'generate(level="hard", minimal=True)',
        lambda: sr.generate(level="hard", minimal=True, seed=1),
    ),
    ("rating and checking", "rate(no_solution)", lambda: sr.rate(NO_SOLUTION)),
    ("rating and checking", "rate(puzzle_with_two_5s_in_row_0)", lambda: sr.rate(ROW_CLASH)),
    (
        "rating and checking",
        "check_batch(3 puzzles, 2 answers)",
        lambda: sr.check_batch(np.zeros((3, 81), int), np.zeros((2, 81), int)),
    ),
    (
        "rating and checking",
        "check_batch(9x9 puzzles, 4x4 answers)",
        lambda: sr.check_batch(np.zeros((1, 81), int), np.zeros((1, 16), int)),
    ),
    (
        "transforms",
        "Transform(rows=[0, 3, 1, ...], ...)",
        lambda: sr.Transform([0, 3, 1, 2, 4, 5, 6, 7, 8], list(range(9)), list(range(1, 10))),
    ),
    (
        "transforms",
        "Transform(..., digits=[1, 1, 2, ...])",
        lambda: sr.Transform(list(range(9)), list(range(9)), [1, 1, 2, 3, 4, 5, 6, 7, 8]),
    ),
    (
        "transforms",
        "Transform.random(6, box=(2, 3)).apply(puzzle_9x9)",
        lambda: sr.Transform.random(6, box=(2, 3), seed=1).apply(LEETCODE),
    ),
    ("transforms", "Transform.random(9, seed=-1)", lambda: sr.Transform.random(9, seed=-1)),
    ("transforms", "Transform.random(-1)", lambda: sr.Transform.random(-1)),
    (
        "transforms",
        "Transform.random(9, index=2**64)",
        lambda: sr.Transform.random(9, seed=1, index=2**64),
    ),
    (
        "transforms",
        "augment_batch(np.full((1, 81), 10))",
        lambda: sr.augment_batch(np.full((1, 81), 10), seed=1),
    ),
    ("transforms", 'augment_batch(["." * 80])', lambda: sr.augment_batch(["." * 80], seed=1)),
    ("transforms", "augment_batch(42)", lambda: sr.augment_batch(42, seed=1)),
    ("transforms", 'canonical("." * 256)', lambda: sr.canonical("." * 256)),
    (
        "transforms",
        "canonical(puzzle_with_two_5s_in_row_0)",
        lambda: sr.canonical(ROW_CLASH),
    ),
    ("hints and candidates", 'hint("5...5" + "." * 76)', lambda: sr.hint(ROW_CLASH)),
    (
        "hints and candidates",
        'hint(puzzle, techniques=["nope"])',
        lambda: sr.hint(LEETCODE, techniques=["nope"]),
    ),
    (
        "hints and candidates",
        "hint(puzzle, candidates=marks[:8])",
        lambda: sr.hint(LEETCODE, candidates=sr.candidates(LEETCODE)[:8]),
    ),
    (
        "hints and candidates",
        "hint(puzzle, candidates=marks) with r1c3 unmarked",
        lambda: sr.hint(LEETCODE, candidates=_marks_without(0, 2, None)),
    ),
    (
        "hints and candidates",
        "hint(puzzle, candidates=marks) without the solution's 4 at r1c3",
        lambda: sr.hint(LEETCODE, candidates=_marks_without(0, 2, 4)),
    ),
    (
        "hints and candidates",
        "hint(puzzle, candidates=marks.astype(float))",
        lambda: sr.hint(LEETCODE, candidates=sr.candidates(LEETCODE).astype(float)),
    ),
    (
        "hints and candidates",
        'hint(puzzle, candidates="1234" * 16)',
        lambda: sr.hint(LEETCODE, candidates="1234" * 16),
    ),
    ("hints and candidates", 'parse_candidates("." * 728)', lambda: sr.parse_candidates("." * 728)),
    (
        "hints and candidates",
        'parse_candidates("5" + "." * 728)',
        lambda: sr.parse_candidates("5" + "." * 728),
    ),
    ("pencil-mark puzzles", 'solve("5" * 729)', lambda: sr.solve("5" * 729)),
    ("pencil-mark puzzles", 'solve("." * 729)', lambda: sr.solve("." * 729)),
    (
        "pencil-mark puzzles",
        'rate("123456789" * 81)',
        lambda: sr.rate("123456789" * 81),
    ),
    (
        "pencil-mark puzzles",
        'solve("123456789" * 81, candidates=marks)',
        lambda: sr.solve("123456789" * 81, candidates="123456789" * 81),
    ),
    (
        "pencil-mark puzzles",
        'solve("." * 81, candidates=marks, rules=Rules(diagonals=True))',
        lambda: sr.solve("." * 81, candidates="123456789" * 81, rules=sr.Rules(diagonals=True)),
    ),
    (
        "pencil-mark puzzles",
        "read_puzzles(path) with a sukaku line 2",
        lambda: sr.read_puzzles(_sukaku_file()),
    ),
    ("print", 'board.save("board.jpg")', lambda: sr.Board(LEETCODE).save(_TMP / "board.jpg")),
    (
        "print",
        'board.save("missing/board.svg")',
        lambda: sr.Board(LEETCODE).save(_TMP / "missing" / "board.svg"),
    ),
    (
        "print",
        'board.save("board.png", dpi=0)',
        lambda: sr.Board(LEETCODE).save(_TMP / "board.png", dpi=0),
    ),
    (
        "print",
        'print_sheets(puzzles, "book.svg")',
        lambda: sr.print_sheets([LEETCODE], _TMP / "book.svg"),
    ),
    (
        "print",
        'print_sheets(puzzles, "book.pdf", page="B7")',
        lambda: sr.print_sheets([LEETCODE], _TMP / "book.pdf", page="B7"),
    ),
    (
        "print",
        'print_sheets(puzzles, "book.pdf", per_page=0)',
        lambda: sr.print_sheets([LEETCODE], _TMP / "book.pdf", per_page=0),
    ),
    (
        "print",
        'print_sheets(puzzles, "book.pdf", title="\uc2a4\ub3c4\ucfe0")',
        lambda: sr.print_sheets([LEETCODE], _TMP / "book.pdf", title="\uc2a4\ub3c4\ucfe0"),
    ),
    (
        "print",
        'print_sheets(puzzle, "book.pdf")',
        lambda: sr.print_sheets(LEETCODE, _TMP / "book.pdf"),
    ),
    ("print", 'print_sheets([], "book.pdf")', lambda: sr.print_sheets([], _TMP / "book.pdf")),
    (
        "print",
        'print_sheets([puzzle, "12"], "book.pdf")',
        lambda: sr.print_sheets([LEETCODE, "12"], _TMP / "book.pdf"),
    ),
    (
        "print",
        'print_sheets([puzzle, no_solution], "book.pdf")',
        lambda: sr.print_sheets([LEETCODE, NO_SOLUTION], _TMP / "book.pdf"),
    ),
    (
        "print",
        'print_sheets([puzzle], "book.pdf", rules=Rules.x(), grades=True)',
        lambda: sr.print_sheets([LEETCODE], _TMP / "book.pdf", rules=X, grades=True),
    ),
    (
        "print",
        'print_sheets([puzzle, puzzle], "book.pdf", rules=[Rules.x()])',
        lambda: sr.print_sheets([LEETCODE, LEETCODE], _TMP / "book.pdf", rules=[X]),
    ),
    (
        "print",
        'print_sheets([Board(puzzle)], "book.pdf", rules=Rules.x())',
        lambda: sr.print_sheets([sr.Board(LEETCODE)], _TMP / "book.pdf", rules=X),
    ),
]


def _marks_without(row, col, digit):
    """The givens' candidates of the LeetCode board with one digit of a cell (or all) removed."""
    marks = sr.candidates(LEETCODE)
    if digit is None:
        marks[row, col] = False
    else:
        marks[row, col, digit - 1] = False
    return marks


HEADER = """\
# Errors: input -> exception -> message

Every error sudoku_rs raises for bad input, with its exact message. Errors about a puzzle are
`sudoku_rs.SudokuError` subclasses (all `ValueError`): `InvalidPuzzleError` (shape, size, box,
a bad value, two equal clues; its subclass `InvalidCandidatesError` for pencil marks that do
not fit the grid or rule out the one solution), `NoSolutionError`, `GuessLimitError`, and `GenerateError` (the
generator cannot make what was asked). A value of the wrong type is a `TypeError`; a bad
argument (`limit`, `max_guesses`, `threads`, `seed`) a `ValueError` or `TypeError`.
Rows and columns are counted from 0. In `solve_batch`, `count_solutions_batch`, `rate_batch`,
`check_batch` and `canonical_batch` a bad *row* never raises: it comes back as zeros (`None`),
count 0, rating `'invalid'`, and status `Status.INVALID` (see [Batches and
files](batches.md#per-row-status)); only a bad batch as a whole raises. `augment_batch` raises
on a bad value instead (a silently zeroed training pair would be worse), and `generate_batch` on
the first puzzle it cannot make.

Generated by `python scripts/error_table.py` from the installed package;
`tests/test_error_table.py` fails when this file and the code disagree.
`puzzle` is the LeetCode 37 board as a string, `rows` a 9x9 list of int rows (0 = blank),
`board` a 9x9 list of one-character strings.
"""


def _message(make):
    try:
        make()
    except Exception as err:  # the table records whatever comes out
        name = type(err).__name__
        text = str(err)
        if name.endswith("Error") and type(err).__module__ == "sudoku_rs":
            name = f"sr.{name}"
        return name, text
    return "(no error)", ""


def _cell(text):
    return text.replace("|", "\\|").replace("\n", " ")


def render():
    out = [HEADER]
    section = None
    for where, shown, make in CASES:
        if where != section:
            section = where
            out.append(f"\n## {section.capitalize()}\n")
            out.append("| call | raises | message |")
            out.append("|---|---|---|")
        name, text = _message(make)
        text = text.replace(f"{_TMP}/", "")
        out.append(f"| `{_cell(shown)}` | `{name}` | {_cell(text)} |")
    return "\n".join(out) + "\n"


def main(argv):
    text = render()
    if "--check" in argv:
        if TABLE.read_text() != text:
            print(f"{TABLE} is out of date: run python scripts/error_table.py", file=sys.stderr)
            return 1
        return 0
    TABLE.parent.mkdir(exist_ok=True)
    TABLE.write_text(text)
    print(f"wrote {TABLE} ({len(CASES)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
