"""Arrow tables and Parquet files (the arrow extra): grid columns as strings or fixed-size
lists, other columns as given, read back by read_puzzles; and the Hugging Face datasets recipe
on docs/datasets.md, run where datasets is installed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import sudoku_rs as sr

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

ROOT = Path(__file__).resolve().parents[1]


def text_of(cells):
    # The per-cell meaning of the string layout: '.' blank, the digit's character otherwise.
    return "".join("." if v == 0 else "123456789ABCDEFG"[v - 1] for v in cells)


@pytest.fixture(scope="module")
def batch():
    puzzles = sr.generate_batch(8, seed=21).reshape(8, -1)
    return puzzles, sr.solve_batch(puzzles)


def test_strings_layout_with_other_columns(batch):
    puzzles, solutions = batch
    grades = sr.grade_batch(puzzles)
    table = sr.to_arrow(puzzles, solutions, grades=grades, source=["gen"] * 8, n=np.arange(8))
    assert table.column_names == ["puzzle", "solution", "grades", "source", "n"]
    assert table.column("puzzle").to_pylist() == [text_of(p) for p in puzzles.tolist()]
    assert table.column("solution").to_pylist() == [text_of(s) for s in solutions.tolist()]
    assert table.column("n").to_pylist() == list(range(8))
    assert table.column("grades").to_pylist()[3] == {
        name: grades[3][name].item() for name in grades.dtype.names
    }
    assert table.schema.field("puzzle").type == pa.string()


def test_list_layout_any_size():
    grids = np.random.default_rng(0).integers(0, 65, size=(3, 64 * 64), dtype=np.uint8)
    table = sr.to_arrow(grids, layout="list", ratings=np.zeros((3, 2)))
    assert table.schema.field("puzzle").type == pa.list_(pa.uint8(), 64 * 64)
    assert table.column("puzzle").to_pylist() == grids.tolist()
    assert table.column("ratings").to_pylist() == [[0.0, 0.0]] * 3
    with pytest.raises(ValueError, match="35"):
        sr.to_arrow(grids)


def test_bad_arguments():
    puzzles = np.zeros((2, 81), np.uint8)
    with pytest.raises(ValueError, match="layout"):
        sr.to_arrow(puzzles, layout="bits")
    with pytest.raises(ValueError, match="'extra' has 3 rows"):
        sr.to_arrow(puzzles, extra=[1, 2, 3])
    bad = puzzles.copy()
    bad[1, 0] = 12
    with pytest.raises(ValueError, match=r"puzzles\[1\]"):
        sr.to_arrow(bad)


@pytest.mark.parametrize("layout", ["string", "list"])
def test_parquet_round_trip(tmp_path, batch, layout):
    puzzles, solutions = batch
    path = tmp_path / "set.parquet"
    sr.write_parquet(path, puzzles, solutions, layout=layout, ratings=sr.rate_batch(puzzles))
    assert np.array_equal(sr.read_puzzles(path), puzzles)
    assert np.array_equal(sr.read_puzzles(path, column=1), solutions)
    assert np.array_equal(sr.read_puzzles(path, column="solution"), solutions)
    assert pq.read_table(path).num_rows == 8
    with pytest.raises(ValueError, match="no column 'nope'"):
        sr.read_puzzles(path, column="nope")
    with pytest.raises(TypeError, match="struct"):
        sr.read_puzzles(path, column="ratings")


def test_read_puzzles_names_the_bad_row(tmp_path):
    path = tmp_path / "mixed.parquet"
    rows = ["." * 81, "1" * 80 + "x", None, "2" + "." * 80]
    pq.write_table(pa.table({"quizzes": rows}), path)
    with pytest.raises(sr.InvalidPuzzleError, match=r"row 1"):
        sr.read_puzzles(path)
    kept = sr.read_puzzles(path, skip_invalid=True)
    assert kept.shape == (2, 81) and kept[1, 0] == 2
    pq.write_table(pa.table({"quizzes": ["." * 81, None]}), path)
    with pytest.raises(sr.InvalidPuzzleError, match=r"row 1: null"):
        sr.read_puzzles(path)
    # Strings the line parser cannot take whole (over several lines, blank) go one at a time.
    spread = "\n".join(["." * 9] * 9)
    pq.write_table(pa.table({"q": [spread, "", "3" + "." * 80]}), path)
    with pytest.raises(sr.InvalidPuzzleError, match=r"row 1"):
        sr.read_puzzles(path)
    assert sr.read_puzzles(path, skip_invalid=True)[:, 0].tolist() == [0, 3]


def test_writing_is_atomic(tmp_path, batch):
    path = tmp_path / "set.parquet"
    sr.write_parquet(path, batch[0])
    before = path.read_bytes()
    with pytest.raises(ValueError):
        sr.write_parquet(path, batch[0], extra=[1])
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["set.parquet"]


def test_without_pyarrow_the_error_says_what_to_install(tmp_path):
    code = (
        "import sys; sys.modules['pyarrow'] = None\n"
        "import numpy as np, sudoku_rs as sr\n"
        "try:\n"
        "    sr.to_arrow(np.zeros((1, 81), np.uint8))\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'sudoku_rs[arrow]'" in out.stdout


def recipe_blocks():
    text = (ROOT / "docs" / "datasets.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```python\n(.*?)^```", text, re.M | re.S)
    return [b for b in blocks if b.startswith("# not run: needs Hugging Face datasets")]


def test_the_hugging_face_recipe_runs(tmp_path):
    pytest.importorskip("datasets")
    blocks = recipe_blocks()
    assert blocks
    script = "\n".join(blocks)
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
