"""docs/logic.md's technique table is sr.techniques() (scripts/technique_table.py writes it)."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_technique_table_is_current():
    spec = importlib.util.spec_from_file_location(
        "technique_table", ROOT / "scripts" / "technique_table.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (ROOT / "docs" / "logic.md").read_text(encoding="utf-8")
    assert module.render(text) == text, "run python scripts/technique_table.py"
