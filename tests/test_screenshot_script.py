"""scripts/screenshot.py names what it wrote: relative to the repository inside it, and as
given for an --out folder elsewhere (naming it must not fail once the pictures are written)."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_script():
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        spec = importlib.util.spec_from_file_location(
            "screenshot", ROOT / "scripts" / "screenshot.py"
        )
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    return module


def test_inside_the_repository_is_shown_relative_to_it():
    script = load_script()
    assert script.shown(ROOT / "docs" / "boards-light.png") == str(Path("docs/boards-light.png"))


def test_outside_the_repository_is_shown_as_given(tmp_path, monkeypatch):
    script = load_script()
    outside = tmp_path / "shots" / "boards-dark.png"
    assert script.shown(outside) == str(outside)
    monkeypatch.chdir(tmp_path)
    assert script.shown(Path("shots/boards-dark.png")) == str(Path("shots/boards-dark.png"))
