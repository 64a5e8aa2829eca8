"""Pencil-mark puzzles (sukaku): a 729-character marks string as the grid, or candidates=
beside a grid, through solve, count_solutions, is_unique, hint, explain and grade, checked
against a plain brute-force search over the marks written here."""

import random
import subprocess
import sys
from itertools import islice

import numpy as np
import pytest
import reference as ref
from helpers import data_dir, read_lines

import sudoku_rs as sr
from sudoku_rs._files import iter_chunks

TOP = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


# ---------------------------------------------------------------- the reference


def marks_of_text(text, n=9):
    """One set of digits per cell from a marks string (n characters per cell, digit d at
    place d-1 or '.'/'0'), read as plainly as possible."""
    chars = [c for c in text if not c.isspace()]
    assert len(chars) == n * n * n
    return [{k + 1 for k in range(n) if chars[cell * n + k] not in ".0"} for cell in range(n * n)]


def text_of_marks(marks, n=9):
    return "".join(
        "".join(ref.CHARS[d - 1] if d in cell else "." for d in range(1, n + 1)) for cell in marks
    )


def iter_marked(marks, n=9, box=(3, 3)):
    """Every grid that keeps each cell's digit among its marks and the classic rules: a plain
    depth-first search, fewest candidates first."""
    return ref.iter_solutions([0] * (n * n), n, *box, marks=marks)


def keeps_marks(solution, marks):
    return all(v in m for v, m in zip(solution, marks))


def sukaku_of(puzzle):
    """The pencil marks a sukaku writes for a classic puzzle: each given alone, each empty cell
    every digit its given peers leave."""
    return sr.format_candidates(sr.candidates(puzzle))


def puzzles():
    top = read_lines(data_dir() / "puzzles3_magictour_top1465", 4)
    hard = read_lines(data_dir() / "puzzles6_forum_hardest_1106", 2)
    return [TOP, *top, *hard]


# ---------------------------------------------------------------- classic puzzles as marks


@pytest.mark.parametrize("puzzle", puzzles())
def test_a_puzzle_written_as_marks_is_the_same_puzzle(puzzle):
    sukaku = sukaku_of(puzzle)
    assert len(sukaku) == 729
    solution = sr.solve(puzzle)
    assert sr.solve(sukaku) == solution
    assert sr.count_solutions(sukaku) == 1
    assert sr.is_unique(sukaku)
    # The same marks beside a blank grid, as text, bool array, lists and 0/1 integers.
    blank = "." * 81
    bools = sr.parse_candidates(sukaku)
    for marks in [sukaku, bools, bools.tolist(), bools.astype(np.uint8)]:
        assert sr.solve(blank, candidates=marks) == solution
        assert sr.count_solutions(blank, candidates=marks, limit=5) == 1
    # And beside the puzzle itself, whose givens the marks keep.
    assert sr.solve(puzzle, candidates=sukaku) == solution
    marks = marks_of_text(sukaku)
    assert keeps_marks(ref.parse81(solution), marks)
    assert [ref.to_string(s) for s in islice(iter_marked(marks), 2)] == [solution]


def test_the_solution_of_a_sukaku_is_one_line_of_cells():
    laid_out = "\n".join(sukaku_of(TOP)[i : i + 81] for i in range(0, 729, 81))
    solution = sr.solve(laid_out)
    assert solution == sr.solve(TOP) and len(solution) == 81
    zeros = sukaku_of(TOP).replace(".", "0")
    assert sr.solve(zeros) == solution
    assert sr.solve(sukaku_of(TOP), box=(3, 3)) == solution


def test_explain_and_grade_start_from_the_marks():
    sukaku = sukaku_of(TOP)
    explanation = sr.explain(sukaku)
    assert explanation.solved and explanation.grade.unique
    # The givens are cells with one mark: naked singles, not givens.
    assert explanation.steps[0].technique in ("naked_single", "full_house", "hidden_single")
    solution = ref.parse81(sr.solve(TOP))
    grid = [0] * 81
    for step in explanation.steps:
        for r, c, d in step.placements:
            assert solution[r * 9 + c] == d
            grid[r * 9 + c] = d
        for r, c, d in step.eliminations:
            assert solution[r * 9 + c] != d
    assert grid == solution
    graded = sr.grade(sukaku)
    assert graded == explanation.grade
    assert sr.grade("." * 81, candidates=sukaku) == graded
    assert sr.explain("." * 81, candidates=sr.parse_candidates(sukaku)).grade == graded
    first = sr.hint(sukaku)
    assert first == explanation.steps[0]


# ---------------------------------------------------------------- against the reference


def random_sukaku(seed, extra):
    """Marks around a random solution: its digit in every cell, and each other digit with
    probability `extra`."""
    rng = random.Random(seed)
    full = ref.parse81(sr.solve(sr.generate(seed=seed)))
    assert ref.is_solution([0] * 81, full, 9, 3, 3)
    return [{full[cell]} | {d for d in range(1, 10) if rng.random() < extra} for cell in range(81)]


@pytest.mark.parametrize("seed", range(12))
def test_counts_agree_with_a_brute_force_search(seed):
    marks = random_sukaku(seed, extra=0.35 if seed % 2 else 0.25)
    text = text_of_marks(marks)
    found = list(islice(iter_marked(marks), 30))
    assert sr.count_solutions(text, limit=30) == len(found)
    assert sr.is_unique(text) == (len(found) == 1)
    first = sr.solve(text)
    assert keeps_marks(ref.parse81(first), marks) and ref.parse81(first) in found
    graded = sr.grade(text)
    assert graded.unique == (len(found) == 1)
    if len(found) > 1:
        assert graded.level == "not unique"


@pytest.mark.parametrize("seed", range(6))
def test_small_grids_agree_with_the_brute_force_search_exhaustively(seed):
    """4x4 (64 characters, under box=(2, 2)) and 6x6 (216 characters, box=(2, 3))."""
    for n, box in [(4, (2, 2)), (6, (2, 3))]:
        rng = random.Random(seed)
        marks = [{d for d in range(1, n + 1) if rng.random() < 0.6} or {1} for _ in range(n * n)]
        text = text_of_marks(marks, n)
        found = list(iter_marked(marks, n, box))
        assert sr.count_solutions(text, box=box) == len(found)
        if found:
            assert ref.parse81(sr.solve(text, box=box)) in found
        else:
            with pytest.raises(sr.NoSolutionError):
                sr.solve(text, box=box)


def test_a_sukaku_with_several_solutions_and_one_with_none():
    # A puzzle with clues taken away: several solutions, the same count as marks.
    cells = ref.parse81(TOP)
    for i in [0, 4, 13, 16]:
        cells[i] = 0
    loose = ref.to_string(cells)
    expected = ref.count_solutions(cells, 9, 3, 3, limit=20)
    assert expected > 1
    sukaku = sukaku_of(loose)
    assert sr.count_solutions(sukaku, limit=20) == expected
    assert not sr.is_unique(sukaku)
    assert sr.grade(sukaku).level == "not unique"
    # Two cells of one row that may only hold the same single digit: no solution.
    marks = marks_of_text(sukaku_of(TOP))
    empty = [i for i in range(9) if len(marks[i]) > 1]
    marks[empty[0]] = marks[empty[1]] = {min(marks[empty[0]] & marks[empty[1]])}
    none = text_of_marks(marks)
    assert list(islice(iter_marked(marks), 1)) == []
    with pytest.raises(sr.NoSolutionError):
        sr.solve(none)
    assert sr.count_solutions(none) == 0
    assert not sr.is_unique(none)
    assert sr.grade(none).level == "no solution"


# ---------------------------------------------------------------- what is refused


def test_hostile_729_character_strings_say_what_a_sukaku_needs():
    good = sukaku_of(TOP)
    for bad, where in [
        ("5" * 729, "character 0 is '5'"),
        (good[:700] + "A" + good[701:], "character 700 is 'A'"),
        (good[:9] + "2" + good[10:], "character 9 is '2'"),
        ("\u00e9" * 729, "character 0"),
        ("-" * 729, "character 0 is '-'"),
    ]:
        with pytest.raises(sr.InvalidCandidatesError, match="sukaku") as err:
            sr.solve(bad)
        assert where in str(err.value)
    # Well formed, but a cell with no marks at all.
    with pytest.raises(sr.InvalidCandidatesError, match="r1c1 is empty and has no candidates"):
        sr.solve("." * 729)
    # Not 729: the usual message about the cell count.
    with pytest.raises(sr.InvalidPuzzleError, match="730 cells"):
        sr.solve(good + "1")
    # A 27x27 grid, when its box says so.
    assert len(sr.solve("." * 729, box=(3, 9))) == 729


def test_calls_that_take_grids_only_say_what_the_string_is():
    good = sukaku_of(TOP)
    for call in [sr.rate, sr.is_valid, sr.solutions, sr.canonical]:
        if call is sr.is_valid:
            assert not call(good)
            continue
        with pytest.raises(sr.InvalidPuzzleError, match="pencil marks of a 9x9 grid"):
            call(good)


def test_marks_given_twice_or_under_rules_are_refused():
    good = sukaku_of(TOP)
    with pytest.raises(sr.InvalidCandidatesError, match="already"):
        sr.solve(good, candidates=good)
    with pytest.raises(sr.InvalidRulesError, match="classic rules"):
        sr.solve("." * 81, candidates=good, rules=sr.Rules(diagonals=True))
    with pytest.raises(sr.InvalidCandidatesError, match="0/1"):
        sr.solve("." * 81, candidates=sr.parse_candidates(good).astype(np.int8) * 2)
    with pytest.raises(TypeError):
        sr.solve("." * 81, candidates=3.5)
    with pytest.raises(sr.InvalidCandidatesError, match="4x4"):
        sr.count_solutions(TOP, candidates="1234" * 16)
    # Marks that contradict a given.
    marks = sr.parse_candidates(good)
    marks[0, 0] = False
    marks[0, 0, 0] = True  # r1c1 holds 4
    with pytest.raises(sr.InvalidCandidatesError, match="r1c1 holds 4"):
        sr.solve(TOP, candidates=marks)


# ---------------------------------------------------------------- batches and the bordered form


def bordered_of(marks, n=9, box=(3, 3)):
    """SukakuExplainer's multi-line pencil marks: each cell its candidates, padded to the
    widest, boxes ruled with +---+ and |, drawn here as plainly as possible."""
    cells = ["".join(ref.CHARS[d - 1] for d in sorted(m)) for m in marks]
    width = max(len(c) for c in cells)
    rows, cols = box
    rule = "+" + ("-" * (cols * (width + 1) + 1) + "+") * (n // cols)
    out = []
    for r in range(n):
        if r % rows == 0:
            out.append(rule)
        line = "|"
        for c in range(n):
            line += " " + cells[r * n + c].ljust(width)
            if c % cols == cols - 1:
                line += " |"
        out.append(line)
    return "\n".join(out + [rule])


@pytest.mark.parametrize("seed", range(4))
def test_the_bordered_form_is_the_same_puzzle(seed):
    marks = random_sukaku(seed, extra=0.3)
    text, drawn = text_of_marks(marks), bordered_of(marks)
    assert sr.count_solutions(drawn, limit=5) == sr.count_solutions(text, limit=5)
    assert sr.solve(drawn) == sr.solve(text)
    # HoDoKu draws its corners with '.' and ':', and its rules with ':' between boxes.
    hodoku = drawn.replace("+", ".")
    assert sr.solve(hodoku) == sr.solve(text)
    with pytest.raises(sr.InvalidPuzzleError, match="bordered grid of candidate lists"):
        sr.rate(drawn)
    with pytest.raises(sr.InvalidCandidatesError, match="r1c1's candidates"):
        sr.solve(drawn.replace("| ", "| x", 1))


def test_batches_take_sukaku_rows_beside_grids():
    marks = [random_sukaku(seed, extra=0.3) for seed in range(6)]
    texts = [text_of_marks(m) for m in marks]
    rows = [TOP, *texts, bordered_of(marks[0]), "5" * 729, sukaku_of(TOP)]
    expected_counts = [sr.count_solutions(t, limit=3) for t in rows[:-2]] + [0, 1]
    counts, status = sr.count_solutions_batch(rows, limit=3, status=True)
    assert counts.tolist() == expected_counts
    assert status[-2] == sr.Status.INVALID and status[-1] == sr.Status.SOLVED
    solved = sr.solve_batch(rows)
    for text, got in zip(rows, solved):
        if text == "5" * 729:
            assert got is None
            continue
        want = sr.solve(text)
        # A sukaku's solution is one line of cells, whatever the row's layout.
        assert got == want, text
        if len(text) != 81:
            assert got is None or len(got) == 81
    # One-row batches take the general path for a sukaku.
    assert sr.solve_batch([texts[1]]) == [sr.solve(texts[1])]
    assert sr.count_solutions_batch([texts[1]], limit=3).tolist() == [expected_counts[2]]
    # Under variant rules a sukaku row is a bad row, as a single call refuses it.
    got = sr.solve_batch([texts[1]], rules=sr.Rules(diagonals=True), status=True)
    assert got[0] == [None] and got[1].tolist() == [sr.Status.INVALID]


# ---------------------------------------------------------------- files and the command line


def run_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "sudoku_rs", *args],
        check=False,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def mixed_file_rows():
    """Grids and sukaku lines (both blank characters) mixed, with what the reference search
    says of each: its solutions, up to 3."""
    marks = [random_sukaku(seed, extra=0.3) for seed in range(5)]
    texts = [text_of_marks(m) for m in marks]
    texts[1] = texts[1].replace(".", "0")
    cells = ref.parse81(TOP)
    for i in [0, 4, 13, 16]:
        cells[i] = 0
    loose = ref.to_string(cells)
    rows = [texts[0], TOP, texts[1], loose, *texts[2:], sukaku_of(loose)]
    found = []
    for row in rows:
        if len(row) == 81:
            found.append(list(islice(ref.iter_solutions(ref.parse81(row), 9, 3, 3), 3)))
        else:
            found.append(list(islice(iter_marked(marks_of_text(row)), 3)))
    return rows, found


def test_the_command_line_reads_sukaku_lines_among_grids(tmp_path):
    rows, found = mixed_file_rows()
    src = tmp_path / "mixed.txt"
    src.write_text("\n".join(rows) + "\n")
    counted = run_cli("count", str(src), "--limit", "3", "-q")
    assert counted.returncode == 0, counted.stderr
    assert [int(c) for c in counted.stdout.split()] == [len(f) for f in found]
    checked = run_cli("check", str(src))
    labels = {1: "unique", 2: "multiple", 3: "multiple"}
    assert checked.stdout.split() == [labels.get(len(f), "none") for f in found]
    assert checked.returncode == (0 if all(len(f) == 1 for f in found) else 1)
    solved = run_cli("solve", str(src), "--threads", "2")
    assert solved.returncode == 0, solved.stderr
    out = solved.stdout.split("\n")[:-1]
    assert len(out) == len(rows)
    for row, line, solutions in zip(rows, out, found):
        if len(solutions) == 1:
            assert ref.parse81(line) == solutions[0]
        else:  # any of several: one that keeps the givens or marks
            given = [0] * 81 if len(row) == 729 else ref.parse81(row)
            assert ref.is_solution(given, ref.parse81(line), 9, 3, 3)
            assert len(row) == 81 or keeps_marks(ref.parse81(line), marks_of_text(row))
    assert f"{len(rows)} puzzles" in solved.stderr
    # A CSV column, read from stdin, across chunks of a few lines each.
    csv = "puzzle,n\n" + "".join(f"{row},{i}\n" for i, row in enumerate(rows))
    counted = run_cli("count", "-", "--limit", "3", "-q", stdin=csv)
    assert [int(c) for c in counted.stdout.split()] == [len(f) for f in found]
    with open(src, "rb") as f:
        chunks = list(iter_chunks(f, chunk_lines=2, marks=True))
    assert sum(len(c.puzzles) for c in chunks) == len(rows)
    marked = [c.line_numbers[row] for c in chunks for row, _ in c.marked]
    assert marked == [i + 1 for i, row in enumerate(rows) if len(row) == 729]


def test_a_bad_sukaku_line_is_named_and_readers_of_cells_say_what_it_is(tmp_path):
    good = sukaku_of(TOP)
    src = tmp_path / "bad.txt"
    src.write_text(f"{TOP}\n{good}\n{good[:9] + '2' + good[10:]}\n")
    result = run_cli("solve", str(src))
    assert result.returncode == 2
    assert f"{src}:3:" in result.stderr and "character 9 is '2'" in result.stderr
    result = run_cli("count", str(src), "--skip-invalid")
    assert result.stdout.split() == ["1", "1", "invalid"]
    # A line of no marks for a cell names the cell.
    src.write_text(f"{good}\n{'.' * 729}\n")
    result = run_cli("check", str(src))
    assert result.returncode == 2 and f"{src}:2:" in result.stderr
    assert "r1c1 is empty and has no candidates" in result.stderr
    # Readers that give cells, and variant rules, name the line and say what it is.
    src.write_text(f"{TOP}\n{good}\n")
    with pytest.raises(sr.InvalidPuzzleError, match=r"line 2: .*pencil marks.*candidates=True"):
        sr.read_puzzles(src)
    assert sr.read_puzzles(src, skip_invalid=True).shape == (1, 81)
    assert sr.read_puzzles(src, candidates=True) == [TOP, good]
    result = run_cli("check", str(src), "--rules", "diagonals")
    assert result.returncode == 2
    assert f"{src}:2:" in result.stderr and "(a sukaku)" in result.stderr
    # Lines of another size than the file's are refused as before.
    src.write_text(f"{good}\n{'.' * 4096}\n")
    result = run_cli("count", str(src))
    assert result.returncode == 2 and "expected 81 cells" in result.stderr


def test_a_file_of_sukaku_lines_rates_and_solves_as_a_list_of_them(tmp_path):
    rows, found = mixed_file_rows()
    src = tmp_path / "mixed.txt"
    src.write_text("\r\n".join(rows) + "\r\n")
    lines = src.read_text().split()
    counts = sr.count_solutions_batch(lines, limit=3)
    assert counts.tolist() == [len(f) for f in found]
    rated = sr.se_rate_batch([TOP, sukaku_of(TOP)])
    assert rated["er"][0] == rated["er"][1] == sr.se_rate(TOP).er


def test_read_puzzles_keeps_the_marks_of_sukaku_lines_as_strings(tmp_path):
    rows, found = mixed_file_rows()
    src = tmp_path / "mixed.txt"
    src.write_text("\r\n".join(rows) + "\r\n")
    read = sr.read_puzzles(src, candidates=True)
    # Grid lines as their cells ('.' blank), sukaku lines as they are (here one with '0').
    assert read == rows
    assert sr.count_solutions_batch(read, limit=3).tolist() == [len(f) for f in found]
    # Without candidates=True the array would lose them: the first sukaku line is named.
    with pytest.raises(sr.InvalidPuzzleError, match=r"line 1: .*candidates=True"):
        sr.read_puzzles(src)
    cells = sr.read_puzzles(src, skip_invalid=True)
    assert [sr.format_puzzles(row[None]).decode().strip() for row in cells] == [
        row for row in rows if len(row) == 81
    ]
    # A bad line among them is named, or left out with skip_invalid.
    bad = sukaku_of(TOP)[:-1] + "5"
    src.write_text("\n".join([*rows, bad, TOP]) + "\n")
    with pytest.raises(sr.InvalidPuzzleError, match=rf"line {len(rows) + 1}:"):
        sr.read_puzzles(src, candidates=True)
    assert sr.read_puzzles(src, candidates=True, skip_invalid=True) == [*rows, TOP]
    # A file of grids only, and an empty one, read as strings too.
    src.write_text(f"{TOP}\n\n{TOP.replace('.', '0')}\n")
    assert sr.read_puzzles(src, candidates=True) == [TOP, TOP]
    src.write_text("")
    assert sr.read_puzzles(src, candidates=True) == []


def test_read_puzzles_keeps_the_marks_of_parquet_rows(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rows, _ = mixed_file_rows()
    path = tmp_path / "mixed.parquet"
    pq.write_table(pa.table({"puzzle": rows}), path)
    assert sr.read_puzzles(path, candidates=True) == rows
    with pytest.raises(sr.InvalidPuzzleError, match=r"row 0: .*candidates=True"):
        sr.read_puzzles(path)
    grids = tmp_path / "grids.parquet"
    sr.write_parquet(grids, [TOP, TOP])
    assert sr.read_puzzles(grids, candidates=True) == [TOP, TOP]
