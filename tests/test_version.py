"""One version everywhere: the compiled module's __version__ (Cargo.toml's version), the
installed distribution's metadata (the wheel pip installed) and CHANGELOG.md's top entry."""

import importlib.metadata
import re
from pathlib import Path

import sudoku_rs as sr

CHANGELOG = Path(__file__).resolve().parent.parent / "CHANGELOG.md"


def changelog_top_version() -> str:
    for line in CHANGELOG.read_text(encoding="utf-8").splitlines():
        m = re.match(r"## (\S+)", line)
        if m:
            return m.group(1)
    raise AssertionError("CHANGELOG.md has no '## <version>' heading")


def test_version_is_the_installed_distributions():
    assert sr.__version__ == importlib.metadata.version("sudoku_rs")


def test_version_is_the_changelogs_top_entry():
    assert sr.__version__ == changelog_top_version()


def test_version_is_pep440():
    # The public-version part of PEP 440 (what an index accepts), e.g. 0.1.0, 1.2.0rc1.
    assert re.fullmatch(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", sr.__version__)
