"""docs/errors.md is exactly what scripts/error_table.py produces from the installed package,
so the documented messages are the real ones."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_script():
    spec = importlib.util.spec_from_file_location(
        "error_table", ROOT / "scripts" / "error_table.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_docs_errors_md_matches_the_code():
    table = load_script()
    expected = table.render()
    actual = (ROOT / "docs" / "errors.md").read_text()
    assert actual == expected, "docs/errors.md is stale: run python scripts/error_table.py"


def test_every_case_raises_a_documented_error_type():
    table = load_script()
    # OSError subclasses about a path (missing, a directory) stay what the OS calls them.
    allowed = {"TypeError", "FileNotFoundError", "IsADirectoryError"} | {
        f"sr.{name}"
        for name in (
            "InvalidPuzzleError",
            "InvalidCandidatesError",
            "NoSolutionError",
            "GuessLimitError",
            "GenerateError",
            "InvalidRulesError",
            "SudokuError",
        )
    }
    for _, shown, make in table.CASES:
        name, message = table._message(make)
        assert name in allowed or name == "ValueError", (shown, name)
        assert message, shown
