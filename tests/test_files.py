"""read_puzzles / write_puzzles and the `sudoku-rs` command line."""

import subprocess
import sys

import helpers as h
import numpy as np
import pytest
import reference as ref
from helpers import read_lines
from hypothesis import given
from hypothesis import strategies as st

import sudoku_rs as sr

LEET = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def run_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "sudoku_rs", *args],
        check=False,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_read_write_round_trip(tmp_path, data_dir):
    lines = read_lines(data_dir / "puzzles2_17_clue", 30)
    path = tmp_path / "in.txt"
    path.write_text("\n".join(lines) + "\n\n")
    puzzles = sr.read_puzzles(path)
    assert puzzles.shape == (30, 81) and puzzles.dtype == np.uint8
    assert puzzles[0].tolist() == ref.parse81(lines[0])
    out = tmp_path / "out.txt"
    sr.write_puzzles(out, puzzles)
    assert out.read_text().split() == lines


def test_read_kaggle_csv_both_columns(tmp_path):
    solution = sr.solve(LEET)
    path = tmp_path / "sudoku.csv"
    path.write_text(f"quizzes,solutions\n{LEET.replace('.', '0')},{solution}\n")
    quizzes = sr.read_puzzles(path)
    solutions = sr.read_puzzles(path, column=1)
    np.testing.assert_array_equal(sr.solve_batch(quizzes), solutions)


def test_bad_line_is_named_or_skipped(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_text(f"{LEET}\n{LEET[:80]}x\n{LEET}\n")
    with pytest.raises(
        sr.InvalidPuzzleError, match=r"line 2: invalid value 'x' at row 8, column 8"
    ):
        sr.read_puzzles(path)
    puzzles = sr.read_puzzles(path, skip_invalid=True)
    assert puzzles.shape == (2, 81) and puzzles.all(axis=1).sum() == 0
    np.testing.assert_array_equal(puzzles[0], puzzles[1])


def test_headers_bom_and_a_bad_first_line_of_a_bigger_grid(tmp_path, data_dir):
    line16 = read_lines(data_dir / "gen_16x16", 1)[0]
    path = tmp_path / "big.csv"
    path.write_bytes(("\ufeff\nPUZZLE,Solution\nnot a puzzle,x\n" + line16 + ",y\n").encode())
    puzzles = sr.read_puzzles(path, skip_invalid=True)
    assert puzzles.shape == (1, 256)
    assert puzzles[0].tolist() == ref.parse81(line16)


def test_format_puzzles_refuses_what_it_cannot_write():
    with pytest.raises(sr.InvalidPuzzleError, match=r"\(81, 80\)"):
        sr.format_puzzles(np.ones((81, 80), dtype=np.uint8))
    with pytest.raises(sr.InvalidPuzzleError, match="36x36"):
        sr.format_puzzles(np.zeros((1, 36, 36), dtype=np.uint8))
    with pytest.raises(ValueError, match="blank"):
        sr.format_puzzles(np.zeros((1, 81), dtype=np.uint8), blank=" ")


def test_cli_solve_streams_in_order(tmp_path, data_dir):
    lines = read_lines(data_dir / "gen_invalid", 30)
    src = tmp_path / "in.txt"
    src.write_text("\n".join(lines) + "\n")
    dst = tmp_path / "out.txt"
    result = run_cli("solve", str(src), "-o", str(dst), "--threads", "2")
    assert result.returncode == 0, result.stderr
    out = dst.read_text().split("\n")[:-1]
    assert len(out) == len(lines)
    for puzzle, solved in zip(lines, out):
        if solved:
            assert ref.is_solution(ref.parse81(puzzle), ref.parse81(solved), 9, 3, 3)
        else:
            assert ref.count_solutions(ref.parse81(puzzle), 9, 3, 3, limit=1) == 0
    assert "30 puzzles" in result.stderr


def test_cli_check_and_count_from_stdin(data_dir):
    lines = read_lines(data_dir / "gen_invalid", 30)
    counts = [ref.count_solutions(ref.parse81(p), 9, 3, 3, limit=2) for p in lines]
    result = run_cli("count", "-", "-q", stdin="\n".join(lines) + "\n")
    assert result.returncode == 0 and result.stderr == ""
    assert [int(c) for c in result.stdout.split()] == counts
    result = run_cli("check", "-", stdin="\n".join(lines) + "\n")
    assert result.returncode == 1  # not all unique
    labels = {0: "none", 1: "unique", 2: "multiple"}
    assert result.stdout.split() == [labels[c] for c in counts]
    assert run_cli("check", "-", stdin=LEET + "\n").returncode == 0


def test_cli_malformed_line(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text(f"{LEET}\n{LEET[:40]}\n{LEET}\n")
    result = run_cli("solve", str(src))
    assert result.returncode == 2
    assert f"{src}:2:" in result.stderr and "got 40" in result.stderr
    result = run_cli("count", "--skip-invalid", str(src))  # options before the input work too
    assert result.returncode == 0
    assert result.stdout.split() == ["1", "invalid", "1"]
    result = run_cli("solve", "--skip-invalid", str(src))
    assert result.stdout.split("\n")[:3] == [sr.solve(LEET), "", sr.solve(LEET)]
    assert "2 solved, 0 with no solution; 1 invalid" in result.stderr


def test_cli_reports_bad_arguments_and_files_without_a_traceback(tmp_path):
    for args in (["count", "--limit", "0", "-"], ["solve", "--column", "-1", "-"]):
        result = run_cli(*args, stdin=LEET + "\n")
        assert result.returncode == 2 and "Traceback" not in result.stderr
    result = run_cli("check", str(tmp_path / "missing.txt"))
    assert result.returncode == 2 and "No such file" in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_help_documents_the_commands():
    result = run_cli("--help")
    assert result.returncode == 0
    for word in ("solve", "count", "check", "--threads", "--skip-invalid", "--column"):
        assert word in result.stdout


# ------------------------------------------------------------ round trips

# (n, box) for every size the text form holds, square and rectangular boxes.
TEXT_SHAPES = [(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (8, (2, 4)), (9, (3, 3)), (12, (3, 4))]
TEXT_SHAPES += [(16, (4, 4)), (25, (5, 5))]


@st.composite
def written_batches(draw):
    """(what to write, the rows it stands for, box): an array of any integer dtype and layout,
    nested lists of ints, or a list of strings in any spelling with None rows; rows of any
    values, many blank."""
    n, box = draw(st.sampled_from(TEXT_SHAPES))
    count = draw(st.integers(0, 6))
    row = st.one_of(
        st.just([0] * (n * n)),
        st.lists(st.integers(0, n), min_size=n * n, max_size=n * n),
        st.lists(st.sampled_from([0, 0, 0, 1, n]), min_size=n * n, max_size=n * n),
    )
    rows = draw(st.lists(row, min_size=count, max_size=count))
    expected = np.array(rows, dtype=np.uint8).reshape(count, n * n)
    kind = draw(st.sampled_from(["array", "nested lists", "strings"]))
    if kind != "strings":
        dtype = draw(st.sampled_from(["uint8", "int16", ">i4", "int64"]))
        array = expected.astype(dtype)
        if draw(st.booleans()):
            array = array.reshape(count, n, n)
        return (array.tolist() if kind == "nested lists" and count else array), expected, box
    missing = draw(st.lists(st.booleans(), min_size=count, max_size=count))
    if all(missing) and n != 9:
        missing = [False] * count  # only None rows: nothing says the size, so 9x9 is written
    items = []
    for cells, gone in zip(rows, missing):
        if gone:
            items.append(None)
            continue
        blank = draw(st.sampled_from(".0"))
        text = "".join(blank if v == 0 else h.char_of(v) for v in cells)
        if draw(st.booleans()):  # a grid laid out in lines, lowercase letters
            text = "\n".join(text[r * n : (r + 1) * n] for r in range(n)).lower()
        items.append(text)
    expected[np.array(missing, dtype=bool)] = 0
    return items, expected, box


@given(written_batches(), st.sampled_from(".0"))
def test_write_then_read_keeps_every_row(tmp_path_factory, batch, blank):
    puzzles, expected, box = batch
    path = tmp_path_factory.mktemp("round") / "p.txt"
    sr.write_puzzles(path, puzzles, blank=blank)
    assert path.read_bytes() == sr.format_puzzles(puzzles, blank=blank)
    back = sr.read_puzzles(path, box=box)
    assert back.shape == expected.shape
    np.testing.assert_array_equal(back, expected)


def test_a_blank_puzzle_is_a_line_of_blanks(tmp_path):
    puzzles = np.zeros((3, 81), dtype=np.uint8)
    puzzles[0] = ref.parse81(LEET)
    puzzles[2] = ref.parse81(LEET)
    path = tmp_path / "p.txt"
    sr.write_puzzles(path, puzzles)
    assert path.read_text().split("\n") == [LEET, "." * 81, LEET, ""]
    np.testing.assert_array_equal(sr.read_puzzles(path), puzzles)


def test_format_puzzles_takes_what_solve_batch_returns():
    lines = [LEET, "55" + "." * 79, "." * 81]
    solved = sr.solve_batch(lines)
    assert solved[1] is None
    text = sr.format_puzzles(solved).decode().split("\n")
    assert text == [sr.solve(LEET), "." * 81, solved[2], ""]
    # The same as the array solve_batch returns: None and an all-zero row are one thing.
    array = sr.solve_batch(np.array([ref.parse81(line) for line in lines], dtype=np.int8))
    assert sr.format_puzzles(array) == sr.format_puzzles(solved)
    assert sr.format_puzzles([]) == b""
    assert sr.format_puzzles(np.array(solved, dtype=object)) == sr.format_puzzles(solved)


def test_format_puzzles_names_a_bad_list_row():
    with pytest.raises(TypeError, match="row 1: expected a puzzle string or None, got int"):
        sr.format_puzzles([LEET, 5])
    with pytest.raises(sr.InvalidPuzzleError, match="row 1: "):
        sr.format_puzzles([LEET, "x" * 81])
    with pytest.raises(sr.InvalidPuzzleError, match="row 1 is a 4x4 grid"):
        sr.format_puzzles([LEET, "." * 16])
