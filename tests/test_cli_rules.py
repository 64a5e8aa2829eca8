"""`sudoku-rs ... --rules`: every puzzle of a file solved, counted or checked under variant
rules given in the rules text form, with the same answers as the API."""

import subprocess
import sys

import sudoku_rs as sr


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "sudoku_rs", *args],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )


def x_puzzles():
    """Three X-sudoku puzzles cut from one solved X grid: one unique, two not."""
    solved = sr.solve("." * 81, rules=sr.Rules.x())
    keep_most = "".join(ch if i % 3 else "." for i, ch in enumerate(solved))
    return [keep_most, "." * 81, solved[:9] + "." * 72]


def test_solve_count_and_check_follow_the_rules(tmp_path):
    puzzles = x_puzzles()
    path = tmp_path / "x.txt"
    path.write_text("\n".join(puzzles) + "\n")
    rules = sr.Rules.x()

    solved = run_cli("solve", str(path), "--rules", "diagonals", "-q")
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout.split() == [sr.solve(p, rules=rules) for p in puzzles]

    counted = run_cli("count", str(path), "--rules", "x", "--limit", "5", "-q")
    assert counted.returncode == 0, counted.stderr
    expected = [sr.count_solutions(p, limit=5, rules=rules) for p in puzzles]
    assert [int(v) for v in counted.stdout.split()] == expected
    assert expected[0] == 1 and expected[1] == 5

    checked = run_cli("check", str(path), "--rules", "diagonals", "-q")
    assert checked.returncode == 1  # not every puzzle is unique
    assert checked.stdout.split()[0] == "unique"


def test_classic_answers_differ_without_the_rules(tmp_path):
    # The first classic solution of an empty grid breaks the diagonals; under --rules it cannot.
    path = tmp_path / "empty.txt"
    path.write_text("." * 81 + "\n")
    plain = run_cli("solve", str(path), "-q").stdout.split()[0]
    x = run_cli("solve", str(path), "--rules", "diagonals", "-q").stdout.split()[0]
    assert plain != x
    assert sr.is_valid(x, rules=sr.Rules.x()) and not sr.is_valid(plain, rules=sr.Rules.x())


def test_bad_rules_text_is_a_usage_error(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("." * 81 + "\n")
    result = run_cli("solve", str(path), "--rules", "diagonal")
    assert result.returncode == 2
    assert "unknown word 'diagonal'" in result.stderr


def test_rules_that_do_not_fit_the_puzzles_are_a_clean_error(tmp_path):
    path = tmp_path / "four.txt"
    path.write_text("." * 16 + "\n")
    result = run_cli("solve", str(path), "--rules", "windows")  # windows are 9x9's
    assert result.returncode == 2
    assert result.stderr.startswith("sudoku-rs: ") and "Traceback" not in result.stderr


def test_jigsaw_regions_need_no_box(tmp_path):
    # A 6x6 file under jigsaw regions: the regions replace the boxes, so no --box is asked for
    # (and one given beside them is refused).
    rules = sr.Rules(regions=["111222", "113322", "133424", "335444", "555664", "556666"])
    puzzles = [sr.generate(rules=rules, seed=s) for s in range(3)]
    path = tmp_path / "j6.txt"
    path.write_text("\n".join(puzzles) + "\n")
    text = sr.format_rules(rules)
    solved = run_cli("solve", str(path), "--rules", text, "-q")
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout.split() == [sr.solve(p, rules=rules) for p in puzzles]
    boxed = run_cli("check", str(path), "--rules", text, "--box", "2", "3")
    assert boxed.returncode == 2
    assert "leave box out" in boxed.stderr
