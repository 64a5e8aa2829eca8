"""The docs: the site builds with `mkdocs build --strict`, every python example in the README and
on the site's pages runs, and every public name has a docstring (what `help()` shows and what
the API reference renders).

Examples run page by page, each page's blocks in order in one namespace (so a page may build on
its earlier blocks), in a fresh Python process whose working directory holds stand-ins for the
files examples read (`puzzles.txt`, `train.csv`). A block whose first line is a `# not run:`
comment saying why is skipped; keep those for what truly cannot run here (a display, a network).
"""

from __future__ import annotations

import dataclasses
import enum
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import sudoku_rs as sr

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```python\n(.*?)^```[ \t]*$", re.M | re.S)
NOT_RUN = "# not run:"
# An example must not use what is deprecated; other warnings (a busy dashboard port) are the
# machine's, not the example's.
WARNINGS_AS_ERRORS = ["-W", "error::DeprecationWarning", "-W", "error::FutureWarning"]
# The examples' stand-in files come from the small samples the tests ship.
SAMPLES = ["gen_easy35", "puzzles7_serg_benchmark", "puzzles2_17_clue"]

RUNNER = r"""
import json, sys, traceback


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        blocks = json.load(f)
    namespace = {"__name__": "__main__"}
    for block in blocks:
        # Padded so that a traceback's line numbers are the page's.
        code = "\n" * (block["line"] - 1) + block["code"]
        try:
            exec(compile(code, block["page"], "exec"), namespace)
        except BaseException:
            traceback.print_exc()
            print(f"the example at {block['page']}:{block['line']} failed", file=sys.stderr)
            sys.exit(1)


# Worker processes that Dask or multiprocessing spawn import this file again.
if __name__ == "__main__":
    main()
"""


def python_blocks(path: Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start(1)) + 1, m.group(1)) for m in FENCE.finditer(text)]


def runnable(code: str) -> bool:
    return not code.lstrip().startswith(NOT_RUN)


def pages_with_examples() -> list[Path]:
    return [p for p in PAGES if python_blocks(p)]


def write_stand_ins(directory: Path) -> None:
    lines: list[str] = []
    for name in SAMPLES:
        lines += (ROOT / "tests" / "data" / name).read_text().split()
    (directory / "puzzles.txt").write_text("\n".join(lines) + "\n")
    quizzes = lines[:20]
    solved = sr.solve_batch(quizzes)
    rows = [f"{q},{s}" for q, s in zip(quizzes, solved)]
    (directory / "train.csv").write_text("quizzes,solutions\n" + "\n".join(rows) + "\n")


def test_the_collector_finds_the_examples():
    readme = python_blocks(ROOT / "README.md")
    assert len(readme) >= 5
    assert all(code.strip() for _, code in readme)
    assert len(pages_with_examples()) >= 10


def test_missing_modules_names_only_what_is_absent():
    code = "import numpy as np\nfrom no_such_module_here import x\nimport sudoku_rs.env\n"
    assert missing_modules([code]) == ["no_such_module_here"]


def test_examples_opt_out_only_with_a_reason():
    for page in PAGES:
        for line, code in python_blocks(page):
            first = code.lstrip().splitlines()[0] if code.strip() else ""
            if first.startswith(NOT_RUN):
                assert len(first) > len(NOT_RUN) + 5, f"{page.name}:{line} says not why"
    skipped = [
        (p.name, line) for p in PAGES for line, code in python_blocks(p) if not runnable(code)
    ]
    assert len(skipped) <= 3, skipped


IMPORT = re.compile(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", re.M)


def missing_modules(codes: list[str]) -> list[str]:
    """Top-level modules the examples import that are not installed here: an optional extra
    (gymnasium, dask, ...) that scripts/test.sh installs but a narrower environment may lack."""
    names = {name for code in codes for name in IMPORT.findall(code)}
    return sorted(n for n in names if importlib.util.find_spec(n) is None)


@pytest.mark.parametrize("page", pages_with_examples(), ids=lambda p: p.name)
def test_every_example_on_the_page_runs(page, tmp_path):
    blocks = [
        {"page": str(page.relative_to(ROOT)), "line": line, "code": code}
        for line, code in python_blocks(page)
        if runnable(code)
    ]
    missing = missing_modules([b["code"] for b in blocks])
    if missing:
        pytest.skip(f"the examples need {', '.join(missing)}, not installed here")
    write_stand_ins(tmp_path)
    (tmp_path / "blocks.json").write_text(json.dumps(blocks), encoding="utf-8")
    (tmp_path / "run.py").write_text(RUNNER, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, *WARNINGS_AS_ERRORS, "run.py", "blocks.json"],
        check=False,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-4000:]


def test_the_site_builds_strictly(tmp_path):
    if importlib.util.find_spec("mkdocs") is None:
        pytest.skip("the docs tools are not installed here (scripts/test.sh installs them)")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        check=False,
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert (tmp_path / "reference" / "index.html").is_file()


# --- docstrings ---------------------------------------------------------------------------

PUBLIC = [name for name in sr.__all__ if name != "__version__"]
# What a NamedTuple field or an int's __doc__ says when nobody wrote one.
GENERATED = re.compile(r"^(Alias for field number \d+|Return number of occurrences|int\(\[x\]\))")


def own_doc(value) -> str:
    doc = getattr(value, "__doc__", None) or ""
    return "" if GENERATED.match(doc) else doc.strip()


def public_members(cls) -> dict[str, object]:
    """What a user reaches on the class beyond what every tuple, int or object has: methods and
    properties (a value), and fields of a NamedTuple, dataclass or enum (None)."""
    members: dict[str, object] = {n: getattr(cls, n) for n in vars(cls) if not n.startswith("_")}
    if issubclass(cls, tuple) and hasattr(cls, "_fields"):
        members.update(dict.fromkeys(cls._fields))
    if dataclasses.is_dataclass(cls):
        members.update(dict.fromkeys(f.name for f in dataclasses.fields(cls)))
    if issubclass(cls, enum.Enum):
        members.update(dict.fromkeys(cls.__members__))
    return members


def mentioned(name: str, doc: str) -> bool:
    return re.search(rf"`{re.escape(name)}`", doc) is not None


def undocumented_members(cls) -> list[str]:
    """A method or property needs a docstring of its own; a field counts as documented when its
    class's docstring names it in backticks (fields cannot carry one at run time)."""
    doc = own_doc(cls)
    return [
        f"{cls.__name__}.{name}"
        for name, value in public_members(cls).items()
        if not (own_doc(value) if value is not None else mentioned(name, doc))
    ]


def test_every_public_name_has_a_docstring():
    missing = [name for name in PUBLIC if not own_doc(getattr(sr, name))]
    assert not missing, f"no docstring: {missing}"


def test_the_dask_extras_names_have_docstrings():
    srd = pytest.importorskip("sudoku_rs.dask")
    missing = [name for name in srd.__all__ if not own_doc(getattr(srd, name))]
    assert not missing, f"no docstring: {missing}"


def test_every_public_method_and_attribute_has_a_docstring():
    # A field of a NamedTuple, dataclass or enum counts as documented when its class's
    # docstring names it in backticks; anything else needs a docstring of its own.
    classes = [getattr(sr, n) for n in PUBLIC if isinstance(getattr(sr, n), type)]
    assert len(classes) >= 10
    missing = [m for cls in classes for m in undocumented_members(cls)]
    assert not missing, f"no docstring: {missing}"


def test_the_checks_can_fail():
    class Bare:
        def method(self):
            pass

    assert undocumented_members(Bare) == ["Bare.method"]
    assert own_doc(sr.Rating.guesses) == ""  # a NamedTuple field's generated text
    assert not mentioned("guess", "``guesses``")


def test_the_reference_renders_every_public_name():
    text = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^::: sudoku_rs\.(\w+)", text, re.M))
    assert set(PUBLIC) <= listed, sorted(set(PUBLIC) - listed)
    assert "::: sudoku_rs.dask" in text


def test_the_reference_sees_the_docstrings():
    """What mkdocstrings renders: griffe's view of the installed package, through the extension
    mkdocs.yml names, has a docstring for every public name and public method."""
    griffe = pytest.importorskip("griffe")
    spec = importlib.util.spec_from_file_location(
        "griffe_runtime_docstrings", ROOT / "scripts" / "griffe_runtime_docstrings.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    package = griffe.load(
        "sudoku_rs", extensions=griffe.load_extensions(module.RuntimeDocstrings())
    )
    missing = []
    for name in PUBLIC:
        obj = package[name]
        if not obj.docstring or not obj.docstring.value.strip():
            missing.append(name)
            continue
        if obj.is_class:
            for member_name, member in obj.members.items():
                if member_name.startswith("_") or not (
                    member.is_function or "property" in member.labels
                ):
                    continue
                if not member.docstring or not member.docstring.value.strip():
                    missing.append(f"{name}.{member_name}")
    assert not missing, f"the reference shows no docstring for {missing}"
