"""ARCHITECTURE.md names every source file of the crate and the package with its path, and names
no file that is gone, so the map cannot fall behind a move."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [("src", {".rs"}), ("python/sudoku_rs", {".py", ".pyi", ".typed"})]


def source_files():
    found = set()
    for top, suffixes in SOURCES:
        for path in (ROOT / top).rglob("*"):
            if path.is_file() and path.suffix in suffixes and "__pycache__" not in path.parts:
                found.add(path.relative_to(ROOT).as_posix())
    return found


def named_paths():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    return set(re.findall(r"`((?:src|python/sudoku_rs)/[^`\s]+\.(?:rs|py|pyi|typed))`", text))


def test_the_scan_sees_the_tree():
    files = source_files()
    assert "src/lib.rs" in files
    assert "python/sudoku_rs/__init__.py" in files
    assert "python/sudoku_rs/py.typed" in files


def test_every_source_file_is_named_with_its_path():
    missing = sorted(source_files() - named_paths())
    assert not missing, (
        f"ARCHITECTURE.md does not name {missing}: add a row to its file table "
        "(| `path` | what it holds |) beside the file's neighbours"
    )


def test_every_named_file_exists():
    stale = sorted(p for p in named_paths() if not (ROOT / p).is_file())
    assert not stale, (
        f"ARCHITECTURE.md names files that are gone: {stale}: drop or rename their rows"
    )


def test_it_has_a_picture_of_the_layers():
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    assert "```mermaid" in text
    for layer in ("src/core", "src/bindings", "python/sudoku_rs", "tests/"):
        assert layer in text
