"""Printing variant puzzles: `Board.save` and `print_sheets` draw the rules into the PDF
(diagonals and shaded windows with opacity, thick jigsaw region lines, dashed killer cages with
their totals, a caption for the rules with no mark), answers are solved under the rules, and
`sudoku-rs print --rules` prints a file of them. The PDF is read back by the structural reader
of test_print and its drawing operators checked."""

from __future__ import annotations

import re

import pytest
from published_variants import CASES
from test_print import pypdf_text, read_pdf, states

import sudoku_rs as sr
from sudoku_rs._draw.grid import cell_size
from sudoku_rs._print.raster import pdf_page_pixels
from sudoku_rs.cli import main as cli_main

X, X_PUZZLE, X_SOLUTION = CASES["x-udacity"]
WINDOKU, WINDOKU_PUZZLE, _ = CASES["windoku-wikipedia"]
JIGSAW, JIGSAW_PUZZLE, JIGSAW_SOLUTION = CASES["jigsaw-janko-108"]
KILLER, KILLER_PUZZLE, KILLER_SOLUTION = CASES["killer-wikipedia"]
ANTI_KNIGHT, ANTI_KNIGHT_PUZZLE, _ = CASES["anti-knight-funwithpuzzles"]

# A 6x6 jigsaw (regions of 6 cells that are not 2x3 boxes); no box shape is needed.
JIGSAW6 = sr.Rules(regions=["111222", "113322", "133424", "335444", "555664", "556666"])


def saved(tmp_path, board, name="b.pdf"):
    path = tmp_path / name
    board.save(path)
    data = path.read_bytes()
    _, streams, texts = read_pdf(data)
    return data, streams[0].decode("latin-1"), texts[0]


def test_diagonals_are_translucent_strokes(tmp_path):
    data, stream, _ = saved(tmp_path, sr.Board(X_PUZZLE, rules=X))
    end = 9 * cell_size(9)
    (name,) = [n for n, (key, alpha) in states(data).items() if (key, alpha) == ("CA", 0.4)]
    assert re.search(
        rf"/{name} gs\n1\.5 w\n0 J\nn 0 0 m {end} {end} l {end} 0 m 0 {end} l\nS", stream
    ), "both long diagonals, stroked at 40% opacity"


def test_windows_are_shaded_with_fill_opacity(tmp_path):
    data, stream, _ = saved(tmp_path, sr.Board(WINDOKU_PUZZLE, rules=WINDOKU))
    (name,) = [n for n, (key, alpha) in states(data).items() if (key, alpha) == ("ca", 0.13)]
    size = cell_size(9)
    shaded = {
        (int(x) // size, int(y) // size)
        for x, y in re.findall(rf"/{name} gs\nn (\d+) (\d+) {size} {size} re\nf\n", stream)
    }
    windows = {(c, r) for top in (1, 5) for left in (1, 5) for r in range(top, top + 3)
               for c in range(left, left + 3)}  # fmt: skip
    assert shaded == windows


def region_edges(regions, size):
    """PDF segments 'x1 y1 m x2 y2 l' of every edge between two regions."""
    n = len(regions)
    edges = set()
    for r in range(n):
        for c in range(n):
            if c + 1 < n and regions[r][c] != regions[r][c + 1]:
                x = (c + 1) * size
                edges.add(f"{x} {r * size} m {x} {(r + 1) * size} l")
            if r + 1 < n and regions[r][c] != regions[r + 1][c]:
                y = (r + 1) * size
                edges.add(f"{c * size} {y} m {(c + 1) * size} {y} l")
    return edges


@pytest.mark.parametrize(("rules", "puzzle"), [(JIGSAW, JIGSAW_PUZZLE), (JIGSAW6, "." * 36)])
def test_jigsaw_regions_are_the_thick_lines(tmp_path, rules, puzzle):
    _, stream, _ = saved(tmp_path, sr.Board(puzzle, rules=rules))
    n = len(rules.regions)
    thick = re.search(r"2 w\n2 J\nn ([^\n]*)\nS", stream).group(1)
    segments = set(re.findall(r"\d+ \d+ m \d+ \d+ l", thick))
    edges = region_edges(rules.regions, cell_size(n))
    assert edges <= segments
    # Only the regions and the frame: no box line that is not a region edge.
    end = n * cell_size(n)
    frame = {s for s in segments if re.fullmatch(rf"(0|{end}) \d+ m \1 \d+ l|\d+ (0|{end}) m \d+ \2 l", s)}  # fmt: skip
    assert segments - frame == edges


def test_killer_cages_are_dashed_with_their_totals(tmp_path):
    _, stream, texts = saved(tmp_path, sr.Board(KILLER_PUZZLE, rules=KILLER))
    size = cell_size(9)
    dash = max(2, round(size * 0.08))
    dashed = re.findall(rf"1 w\n0 J\n\[{dash} {dash}\] 0 d\nn [^\n]*\nS", stream)
    assert len(dashed) == len(KILLER.cages), "each cage outlined with a dash pattern"
    totals = sorted(int(t) for t in texts)
    assert totals == sorted(total for total, _ in KILLER.cages)


def test_rules_without_a_mark_get_a_caption(tmp_path):
    _, _, texts = saved(tmp_path, sr.Board(ANTI_KNIGHT_PUZZLE, rules=ANTI_KNIGHT))
    assert "Anti-knight: equal digits are never a knight's move apart." in texts


def drawn(puzzle, solution):
    """An answer's digits in the order the drawing sets them: givens, then filled-in ones."""
    given = [d for p, d in zip(puzzle, solution) if p != "."]
    return "".join(given + [d for p, d in zip(puzzle, solution) if p == "."])


def test_sheets_take_one_rules_for_all(tmp_path):
    path = tmp_path / "x.pdf"
    puzzles = [X_PUZZLE, sr.generate(rules=X, seed=1)]
    assert sr.print_sheets(puzzles, path, rules=X) == 2
    data = path.read_bytes()
    _, streams, texts = read_pdf(data)
    end = 9 * cell_size(9)
    assert streams[0].count(f"0 0 m {end} {end} l".encode()) == 2
    assert streams[1].count(f"0 0 m {end} {end} l".encode()) == 2
    # The answers are the solutions under the rules, not the classic first solutions.
    digits = "".join(t for t in texts[1] if len(t) == 1 and t.isdigit())
    assert digits == "".join(drawn(p, sr.solve(p, rules=X)) for p in puzzles)
    assert sr.solve(puzzles[0]) != X_SOLUTION
    assert sr.print_sheets(puzzles, tmp_path / "again.pdf", rules=X) == 2
    assert (tmp_path / "again.pdf").read_bytes() == data, "same input, same bytes"


def test_sheets_take_rules_per_puzzle_from_a_variant_file(tmp_path):
    source = tmp_path / "mixed.txt"
    puzzles = [X_PUZZLE, KILLER_PUZZLE, JIGSAW_PUZZLE, ANTI_KNIGHT_PUZZLE, "." * 36]
    rules = [X, KILLER, JIGSAW, ANTI_KNIGHT, JIGSAW6]
    sr.write_variant_puzzles(source, puzzles, rules)
    grids, read = sr.read_variant_puzzles(source)
    path = tmp_path / "mixed.pdf"
    assert sr.print_sheets(grids, path, rules=read, per_page=5, answers=False) == 1
    _, streams, texts = read_pdf(path.read_bytes())
    assert b"] 0 d" in streams[0]  # the killer's cages
    assert "Anti-knight: equal digits are never a knight's move apart." in texts[0]
    # None in the list is a classic puzzle; Boards keep their own rules.
    boards = [sr.Board(KILLER_PUZZLE, rules=KILLER), X_PUZZLE, NINE]
    sr.print_sheets(boards, path, rules=[None, X, None], answers=False)
    _, streams, _ = read_pdf(path.read_bytes())
    assert b"] 0 d" in streams[0]


NINE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def test_sheets_rules_errors(tmp_path):
    path = tmp_path / "e.pdf"
    with pytest.raises(ValueError, match="2 puzzles but 1 rules"):
        sr.print_sheets([X_PUZZLE, NINE], path, rules=[X])
    with pytest.raises(TypeError, match="parse_rules"):
        sr.print_sheets([X_PUZZLE], path, rules="diagonals")
    with pytest.raises(TypeError, match=r"puzzle 2 must be a sudoku_rs.Rules"):
        sr.print_sheets([X_PUZZLE, NINE], path, rules=[X, 3])
    with pytest.raises(sr.InvalidRulesError, match="puzzle 1 is a Board with rules"):
        sr.print_sheets([sr.Board(KILLER_PUZZLE, rules=KILLER)], path, rules=X)
    with pytest.raises(sr.InvalidRulesError, match=r"puzzle 2: .*windows"):
        sr.print_sheets([NINE, "." * 16], path, rules=WINDOKU)
    with pytest.raises(sr.InvalidRulesError, match="puzzle 1: grades follow classic rules"):
        sr.print_sheets([X_PUZZLE], path, rules=X, grades=True)
    assert not path.exists()


def test_sheets_answers_need_a_solution_under_the_rules(tmp_path):
    # A classic grid with both diagonals blanked: one classic answer, none with diagonals.
    classic = sr.solve("." * 81)
    puzzle = "".join(
        "." if r == c or r + c == 8 else classic[r * 9 + c] for r in range(9) for c in range(9)
    )
    with pytest.raises(sr.NoSolutionError, match="puzzle 1"):
        sr.print_sheets([puzzle], tmp_path / "n.pdf", rules=X)
    assert sr.print_sheets([puzzle], tmp_path / "n.pdf") == 2


def test_cli_print_with_rules(tmp_path, capsys):
    source = tmp_path / "k.txt"
    source.write_text(KILLER_PUZZLE + "\n")
    out = tmp_path / "k.pdf"
    text = sr.format_rules(KILLER)
    assert cli_main(["print", str(source), "-o", str(out), "--rules", text, "-q"]) == 0
    data = out.read_bytes()
    _, streams, texts = read_pdf(data)
    assert b"] 0 d" in streams[0] and b"] 0 d" in streams[1]
    digits = "".join(t for t in texts[1] if len(t) == 1 and t.isdigit())
    cage_totals = sum(len(str(total)) == 1 for total, _ in KILLER.cages)
    assert digits[cage_totals:] == drawn(KILLER_PUZZLE, KILLER_SOLUTION)
    _, words = pypdf_text(out)
    assert "Puzzle 1" in words[0]


def test_cli_print_jigsaw_needs_no_box(tmp_path, capsys):
    source = tmp_path / "j6.txt"
    puzzles = [sr.generate(rules=JIGSAW6, seed=s) for s in range(2)]
    source.write_text("\n".join(puzzles) + "\n")
    out = tmp_path / "j6.pdf"
    text = sr.format_rules(JIGSAW6)
    assert cli_main(["print", str(source), "-o", str(out), "--rules", text, "-q"]) == 0
    _, streams, _ = read_pdf(out.read_bytes())
    edges = region_edges(JIGSAW6.regions, cell_size(6))
    assert all(e.encode() in streams[0] for e in edges)
    # A box beside the regions is refused: they say the same thing differently.
    bad = ["print", str(source), "-o", str(out), "--rules", text, "--box", "2", "3"]
    assert cli_main(bad) == 2
    assert "leave box out" in capsys.readouterr().err


def test_sheets_keep_a_captioned_board_under_its_label(tmp_path):
    # The anti-knight caption makes the drawing taller than wide; its grid still starts at the
    # left edge of its place, under "Puzzle 1", rather than centred and shifted right.
    path = tmp_path / "a.pdf"
    sr.print_sheets([ANTI_KNIGHT_PUZZLE], path, rules=ANTI_KNIGHT, answers=False)
    _, streams, _ = read_pdf(path.read_bytes())
    stream = streams[0].decode("latin-1")
    # The heading on the right says "Puzzle 1" too; the label is the leftmost.
    labels = re.findall(
        r"1 0 0 -1 ([\d.]+) [\d.]+ Tm (?:/\S+ [\d.]+ Tf [\d.]+ TL )?\(Puzzle 1\) Tj", stream
    )
    x = min(labels, key=float)
    scales = re.findall(r"\n([\d.]+) 0 0 \1 ([\d.]+) [\d.]+ cm", stream)
    assert any(left == x for scale, left in scales if scale != "1"), (x, scales)


# Every rule the drawing knows, alone and together: each prints, on a board and on a sheet.
DIAGONAL_BAND = [(r, r) for r in range(9)]
EVERY_RULE = {
    "x": X,
    "windoku": WINDOKU,
    "jigsaw": JIGSAW,
    "killer": KILLER,
    "anti-knight": ANTI_KNIGHT,
    "anti-king": sr.Rules(anti_king=True),
    "non-consecutive": sr.Rules(non_consecutive=True),
    "extra-region": sr.Rules(extra_regions=[DIAGONAL_BAND]),
    "x-windoku": sr.Rules(diagonals=True, windows=True),
}


def pixels(pdf_path):
    """The first page of a PDF as PNGs are made (PDFium at 72 dpi), in grey levels."""
    pytest.importorskip("pypdfium2")
    return pdf_page_pixels(pdf_path.read_bytes(), 72).astype(int).mean(axis=2)


@pytest.mark.parametrize("name", sorted(EVERY_RULE))
def test_every_rule_prints_its_marks(tmp_path, name):
    rules = EVERY_RULE[name]
    n = len(rules.regions) if rules.regions is not None else 9
    blank = "." * (n * n)
    sr.Board(blank, rules=rules).save(tmp_path / "variant.pdf")
    sr.Board(blank).save(tmp_path / "classic.pdf")
    variant, classic = pixels(tmp_path / "variant.pdf"), pixels(tmp_path / "classic.pdf")
    # The page is the drawing's size: a caption under the grid makes it taller, not narrower.
    assert variant.shape[1] == classic.shape[1] and variant.shape[0] >= classic.shape[0]
    grid = variant[: classic.shape[0]]
    below = variant[classic.shape[0] :]
    # The marks show: ink is added where the rules draw (a light shade counts), or a caption
    # is written under the grid. Only jigsaw regions move lines rather than add them.
    changed = (abs(grid - classic) > 20).mean()
    caption = (below < 128).mean() if below.size else 0.0
    assert changed > 0.002 or caption > 0.002, name
    if rules.regions is None and variant.shape == classic.shape:
        assert (grid < 250).sum() > (classic < 250).sum(), name


@pytest.mark.parametrize("name", sorted(EVERY_RULE))
def test_every_rule_prints_on_sheets_with_answers(tmp_path, name):
    rules = EVERY_RULE[name]
    puzzle = sr.generate(rules=rules, seed=5)
    solution = sr.solve(puzzle, rules=rules)
    path = tmp_path / "book.pdf"
    assert sr.print_sheets([puzzle], path, rules=rules, title="Σουντόκου 数独") == 2
    _, _, texts = read_pdf(path.read_bytes())
    cages = sum(len(str(total)) == 1 for total, _ in rules.cages)
    digits = "".join(t for t in texts[1] if len(t) == 1 and t.isdigit())
    assert digits[cages:] == drawn(puzzle, solution)
    assert pixels(path).min() < 60  # PDFium draws it
