"""sr.Board: construction from every input kind, solving and counting against the reference,
conflicts, the text and HTML drawings, equality, hashing and pickling, errors."""

import copy
import pickle
import random
import re
import xml.etree.ElementTree as ET

import helpers as h
import numpy as np
import pytest
import reference as ref
from hypothesis import given
from hypothesis import strategies as st

import sudoku_rs as sr
from sudoku_rs._draw import grid as _display

LEETCODE_TEXT = ref.to_string(h.LEETCODE)
SVG = "{http://www.w3.org/2000/svg}"

# Shapes drawn in the tests: (n, box).
SHAPES = [(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (9, (3, 3)), (16, (4, 4))]


def puzzle_of(n, box, seed=1, blank_fraction=0.5):
    return h.random_puzzle(n, *box, random.Random(seed), blank_fraction)[0]


def brute_force_conflicts(cells, n, box):
    """Every cell of every pair of equal clues sharing a unit, by the reference's pair check."""
    cells_in_pairs = {i for pair in ref.conflicts(cells, n, *box) for i in pair}
    return sorted(divmod(i, n) for i in cells_in_pairs)


# ------------------------------------------------------------ construction


@pytest.mark.parametrize("kind", h.KINDS)
def test_every_kind_gives_the_same_board(kind):
    board = sr.Board(h.make_input(h.LEETCODE, 9, kind))
    assert board.to_list() == h.rows_of(h.LEETCODE, 9)
    assert board.size == 9 and board.box == (3, 3)
    assert board.givens.tolist() == [[v != 0 for v in row] for row in h.rows_of(h.LEETCODE, 9)]
    assert board == sr.Board(LEETCODE_TEXT)


def test_leetcode_rows_row_strings_and_tuples():
    rows = ["".join(row) for row in h.LEETCODE_BOARD]
    expected = sr.Board(LEETCODE_TEXT)
    assert sr.Board(h.LEETCODE_BOARD) == expected
    assert sr.Board(rows) == expected
    assert sr.Board(tuple(tuple(r) for r in h.rows_of(h.LEETCODE, 9))) == expected


@pytest.mark.parametrize("dtype", h.INT_DTYPES)
def test_numpy_dtypes(dtype):
    board = sr.Board(h.make_input(h.LEETCODE, 9, "numpy", dtype=dtype))
    assert board.to_list() == h.rows_of(h.LEETCODE, 9)


def test_strided_and_read_only_arrays():
    big = np.zeros((18, 18), dtype=np.int32)
    big[::2, ::2] = h.rows_of(h.LEETCODE, 9)
    big.flags.writeable = False
    assert sr.Board(big[::2, ::2]) == sr.Board(LEETCODE_TEXT)


@pytest.mark.parametrize("kind", h.KINDS)
def test_input_is_not_modified_nor_shared(kind):
    grid = h.make_input(h.LEETCODE, 9, kind)
    before = copy.deepcopy(grid)
    board = sr.Board(grid)
    board.solve()
    assert h.same_grid(grid, before)
    if kind == "numpy":
        grid[0, 2] = 4  # a later change to the input does not reach the board
    elif kind != "text":
        grid[0][2] = 4 if kind == "ints" else "4"
    assert board.to_list() == h.rows_of(h.LEETCODE, 9)


def test_boards_are_immutable():
    board = sr.Board(LEETCODE_TEXT)
    array, givens = board.to_numpy(), board.givens
    array[0, 2] = 4
    givens[:] = False
    assert board.to_list() == h.rows_of(h.LEETCODE, 9)
    assert board.givens.sum() == sum(v != 0 for v in h.LEETCODE)
    assert array.dtype == np.uint8 and array.flags.writeable
    with pytest.raises(AttributeError):
        board.size = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        board.extra = 1  # type: ignore[attr-defined]


# ------------------------------------------------------------ solving and counting


@pytest.mark.parametrize(("n", "box"), SHAPES)
def test_solve_against_reference(n, box):
    puzzle = puzzle_of(n, box)
    board = sr.Board(h.rows_of(puzzle, n), box=box)
    solved = board.solve()
    assert solved is not board and solved.box == box
    h.assert_solution_of(puzzle, solved.to_list(), n, box)
    # The filled-in cells are remembered as not givens; the clues stay givens.
    assert solved.givens.tolist() == [[v != 0 for v in row] for row in h.rows_of(puzzle, n)]
    assert board.to_list() == h.rows_of(puzzle, n)  # the original board is unchanged
    assert solved == sr.Board(sr.solve(h.rows_of(puzzle, n), box=box), box=box)
    assert solved.solve() == solved and solved.solve().givens.tolist() == solved.givens.tolist()


def test_solve_a_16x16_from_the_data(load_dataset):
    line = load_dataset("gen_16x16", 1)[0]
    solved = sr.Board(line).solve()
    h.assert_solution_of(ref.parse81(line), solved.to_string(), 16, (4, 4))


def test_counting_against_reference():
    two = h.two_solution_puzzle(ref.solve_first(h.LEETCODE, 9, 3, 3), 9, 3, 3)
    board = sr.Board(ref.to_string(two))
    assert board.count_solutions() == ref.count_solutions(two, 9, 3, 3) == 2
    assert board.count_solutions(limit=1) == 1
    assert not board.is_unique()
    assert sr.Board(LEETCODE_TEXT).is_unique()
    assert sr.Board(ref.to_string(h.NO_SOLUTION)).count_solutions() == 0
    with pytest.raises(sr.NoSolutionError):
        sr.Board(ref.to_string(h.NO_SOLUTION)).solve()
    with pytest.raises(ValueError, match="limit must be a positive integer"):
        board.count_solutions(limit=0)


# ------------------------------------------------------------ conflicts


def test_conflicting_board_exists_but_does_not_solve():
    text = "55" + LEETCODE_TEXT[2:]
    with pytest.raises(sr.InvalidPuzzleError):
        sr.solve(text)
    board = sr.Board(text)
    assert not board.is_valid()
    assert board.conflicts == [(0, 0), (0, 1)]
    with pytest.raises(sr.InvalidPuzzleError, match="conflicting clues"):
        board.solve()
    with pytest.raises(sr.InvalidPuzzleError, match="conflicting clues"):
        board.count_solutions()


@st.composite
def noisy_grids(draw):
    """A grid of any shape with random clues, often conflicting: (n, box, cells)."""
    n, box = draw(st.sampled_from(SHAPES[:4]))
    cells = draw(st.lists(st.one_of(st.just(0), st.integers(1, n)), min_size=n * n, max_size=n * n))
    return n, box, cells


@given(noisy_grids())
def test_conflicts_match_brute_force(grid):
    n, box, cells = grid
    board = sr.Board(h.rows_of(cells, n), box=box)
    expected = brute_force_conflicts(cells, n, box)
    assert board.conflicts == expected
    assert board.is_valid() == (not expected) == sr.is_valid(h.rows_of(cells, n), box=box)


def test_conflicts_in_column_and_rectangular_box():
    cells = [0] * 36
    cells[0] = cells[4 * 6] = 3  # column 0, rows 0 and 4: a clash for any box shape
    cells[2 * 6 + 1] = cells[3 * 6 + 2] = 5  # (2, 1) and (3, 2): one box only when 2x3
    board = sr.Board(h.rows_of(cells, 6), box=(2, 3))
    assert board.conflicts == [(0, 0), (2, 1), (3, 2), (4, 0)]
    assert sr.Board(h.rows_of(cells, 6), box=(3, 2)).conflicts == [(0, 0), (4, 0)]


# ------------------------------------------------------------ text


def test_str_4x4():
    board = sr.Board("1...2.3..4...3.1")
    assert str(board) == ("1 . | . .\n2 . | 3 .\n----+----\n. 4 | . .\n. 3 | . 1")


def test_str_6x6_with_2x3_boxes():
    rows = [[1, 2, 3, 4, 5, 6], [4, 5, 6, 1, 2, 3]] + [[0] * 6] * 3 + [[2, 0, 0, 0, 0, 0]]
    assert str(sr.Board(rows, box=(2, 3))) == "\n".join(
        [
            "1 2 3 | 4 5 6",
            "4 5 6 | 1 2 3",
            "------+------",
            ". . . | . . .",
            ". . . | . . .",
            "------+------",
            ". . . | . . .",
            "2 . . | . . .",
        ]
    )


def test_str_9x9():
    assert str(sr.Board(LEETCODE_TEXT)) == "\n".join(
        [
            "5 3 . | . 7 . | . . .",
            "6 . . | 1 9 5 | . . .",
            ". 9 8 | . . . | . 6 .",
            "------+-------+------",
            "8 . . | . 6 . | . . 3",
            "4 . . | 8 . 3 | . . 1",
            "7 . . | . 2 . | . . 6",
            "------+-------+------",
            ". 6 . | . . . | 2 8 .",
            ". . . | 4 1 9 | . . 5",
            ". . . | . 8 . | . 7 9",
        ]
    )


@pytest.mark.parametrize("n", [16, 25])
def test_str_big_grids_are_aligned(n):
    root = int(n**0.5)
    board = sr.Board(h.rows_of(h.pattern_grid(n, root, root), n))
    lines = str(board).split("\n")
    assert len(lines) == n + root - 1
    assert len({len(line) for line in lines}) == 1  # every line the same width
    separators = [i for i, line in enumerate(lines) if set(line) <= set("-+")]
    assert separators == [k * (root + 1) - 1 for k in range(1, root)]
    bars = {m.start() for m in re.finditer(r"\|", lines[0])}
    pluses = {m.start() for m in re.finditer(r"\+", lines[separators[0]])}
    assert bars == pluses and len(bars) == root - 1
    assert lines[0].replace(" | ", " ").split(" ") == [
        _display.char_of(v) for v in board.to_list()[0]
    ]
    assert "G" in str(board)  # 16 is written as in the text form


def test_to_string_matches_the_text_form():
    full = h.pattern_grid(16, 4, 4)
    board = sr.Board(h.rows_of(full, 16))
    assert board.to_string() == ref.to_string(full)
    assert sr.Board(board.to_string()) == board


def test_grids_beyond_the_text_form():
    board = sr.Board(np.zeros((36, 36), dtype=np.uint8), box=(6, 6))
    with pytest.raises(ValueError, match="no text form"):
        board.to_string()
    assert eval(repr(board), {"Board": sr.Board}) == board
    lines = str(board).split("\n")
    assert len({len(line) for line in lines}) == 1
    assert lines[0].startswith(" .  .")


@pytest.mark.parametrize(("n", "box"), SHAPES)
def test_repr_round_trips(n, box):
    board = sr.Board(h.rows_of(puzzle_of(n, box), n), box=box)
    text = repr(board)
    assert text == f"Board({board.to_string()!r}, box={box!r})"
    assert eval(text, {"Board": sr.Board}) == board


# ------------------------------------------------------------ equality, hashing, pickling


def test_equality_and_hash():
    a = sr.Board(LEETCODE_TEXT)
    b = sr.Board(h.make_input(h.LEETCODE, 9, "numpy", dtype=np.int16))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    other = sr.Board("1" + LEETCODE_TEXT[1:])
    assert a != other
    assert a != LEETCODE_TEXT and a != h.rows_of(h.LEETCODE, 9)
    # Givens do not count: a solved board equals the same grid typed in.
    solved = a.solve()
    typed = sr.Board(solved.to_string())
    assert solved == typed and hash(solved) == hash(typed)
    assert solved.givens.sum() < typed.givens.sum()


def test_box_shape_counts_for_equality():
    rows = h.rows_of(h.pattern_grid(6, 2, 3), 6)
    assert sr.Board(rows, box=(2, 3)) != sr.Board(rows, box=(3, 2))


@pytest.mark.parametrize(("n", "box"), SHAPES)
def test_pickle_round_trip(n, box):
    solved = sr.Board(h.rows_of(puzzle_of(n, box), n), box=box).solve()
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(solved, protocol=protocol))
        assert back == solved and hash(back) == hash(solved) and back.box == box
        assert back.givens.tolist() == solved.givens.tolist()
        assert back._repr_html_() == solved._repr_html_()
        with pytest.raises(AttributeError):
            back.size = 1  # type: ignore[misc]
        copy_array = back.to_numpy()
        copy_array[:] = 0
        assert back == solved


# ------------------------------------------------------------ HTML


def parse_svg(board):
    html = board._repr_html_()
    return html, ET.fromstring(html)


def drawn_cells(root, n):
    """{(row, col): (label, group)} from the SVG's text elements, with the group that styles
    each one (givens or filled-in digits)."""
    size = _display.cell_size(n)
    out = {}
    for group in root.iter(SVG + "g"):
        if group.get("data-given") is None:
            continue
        for text in group.iter(SVG + "text"):
            row, col = int(float(text.get("y")) // size), int(float(text.get("x")) // size)
            assert (row, col) not in out
            out[(row, col)] = (text.text, group)
    return out


@pytest.mark.parametrize(("n", "box"), SHAPES)
def test_html_givens_and_filled_digits_differ(n, box):
    puzzle = puzzle_of(n, box)
    solved = sr.Board(h.rows_of(puzzle, n), box=box).solve()
    _, root = parse_svg(solved)
    cells = drawn_cells(root, n)
    values = solved.to_list()
    assert len(cells) == n * n
    for (r, c), (label, group) in cells.items():
        assert label == _display.char_of(values[r][c])
        if puzzle[r * n + c] != 0:
            assert group.get("fill") == "currentColor" and group.get("font-weight") == "700"
        else:
            assert group.get("fill") == _display.SCREEN.filled
            assert group.get("font-weight") == "400"


def test_html_blank_cells_draw_nothing():
    _, root = parse_svg(sr.Board(LEETCODE_TEXT))
    assert sorted(drawn_cells(root, 9)) == [
        divmod(i, 9) for i, v in enumerate(h.LEETCODE) if v != 0
    ]


def thick_lines(root):
    """(y positions of horizontal, x positions of vertical) thick lines, in cell units."""
    paths = [p for p in root.iter(SVG + "path") if p.get("stroke-opacity") is None]
    assert len(paths) == 1
    d = paths[0].get("d")
    rows = sorted(int(y) for y in re.findall(r"M0 (\d+)H", d))
    cols = sorted(int(x) for x in re.findall(r"M(\d+) 0V", d))
    return rows, cols


@pytest.mark.parametrize(("n", "box"), SHAPES)
def test_html_thick_lines_frame_the_boxes(n, box):
    _, root = parse_svg(sr.Board("." * (n * n), box=box))
    size = _display.cell_size(n)
    rows, cols = thick_lines(root)
    assert rows == [k * box[0] * size for k in range(n // box[0] + 1)]
    assert cols == [k * box[1] * size for k in range(n // box[1] + 1)]


def test_html_highlights_exactly_the_conflicts():
    text = "5" + LEETCODE_TEXT[1:7] + "5" + LEETCODE_TEXT[8:]
    board = sr.Board(text)
    html, root = parse_svg(board)
    size = _display.cell_size(9)
    marked = sorted(
        (int(float(rect.get("y")) // size), int(float(rect.get("x")) // size))
        for rect in root.iter(SVG + "rect")
        if rect.get("data-conflict")
    )
    assert marked == board.conflicts == [(0, 0), (0, 7)]
    assert "2 cells in conflict" in html
    _, valid = parse_svg(sr.Board(LEETCODE_TEXT))
    assert not [r for r in valid.iter(SVG + "rect") if r.get("data-conflict")]


def test_html_is_self_contained_and_theme_neutral():
    html, root = parse_svg(sr.Board(LEETCODE_TEXT).solve())
    assert root.tag == SVG + "svg"
    for banned in ("<style", "<script", " id=", " class=", "href", "url(", "@import"):
        assert banned not in html
    # Lines and givens follow the theme's text colour; nothing paints a background.
    assert "background:transparent" in root.get("style")
    colours = {e.get("fill") for e in root.iter() if e.get("fill") not in (None, "none")}
    assert colours == {"currentColor", _display.SCREEN.filled}


@pytest.mark.parametrize(("n", "box"), [(4, (2, 2)), (9, (3, 3)), (16, (4, 4)), (25, (5, 5))])
def test_html_scales_with_the_grid(n, box):
    _, root = parse_svg(sr.Board("." * (n * n), box=box))
    width = float(root.get("width"))
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert 150 <= width <= 600
    assert _display.cell_size(n) >= 22


# ------------------------------------------------------------ errors


@pytest.mark.parametrize(
    ("grid", "kwargs"),
    [
        ("1" * 80, {}),
        ([[1, 2], [3]], {}),
        ([[0] * 6] * 6, {}),
        ([[0] * 6] * 6, {"box": (2, 2)}),
        ("x" + "." * 80, {}),
        ([[10] + [0] * 8] + [[0] * 9] * 8, {}),
        (np.zeros((9, 8), dtype=np.int8), {}),
        ("." * 81, {"box": (-1, 3)}),
    ],
)
def test_bad_grids_raise_like_the_api(grid, kwargs):
    with pytest.raises(sr.InvalidPuzzleError) as expected:
        sr.solve(grid, **kwargs)
    with pytest.raises(sr.InvalidPuzzleError) as got:
        sr.Board(grid, **kwargs)
    assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("grid", [None, 81, [[None] * 4] * 4, np.zeros((4, 4))])
def test_wrong_types_raise_type_error(grid):
    with pytest.raises(TypeError):
        sr.Board(grid)


def test_box_is_keyword_only():
    with pytest.raises(TypeError):
        sr.Board("." * 36, (2, 3))  # type: ignore[misc]


def test_a_guess_budget_reaches_the_board_methods():
    hard = h.read_lines(h.data_dir() / "puzzles6_forum_hardest_1106", 1)[0]
    board = sr.Board(hard)
    with pytest.raises(sr.GuessLimitError, match="max_guesses=1"):
        board.solve(max_guesses=1)
    with pytest.raises(sr.GuessLimitError):
        board.count_solutions(max_guesses=1)
    with pytest.raises(sr.GuessLimitError):
        board.is_unique(max_guesses=1)
    assert board.solve(max_guesses=100_000) == sr.Board(sr.solve(hard))
