"""The binding's structure, read from its source: every Python-visible function runs under the
one panic guard (`guard::entry` around its whole body), and `mod.rs` only registers.

A function without the guard lets a Rust panic reach Python as pyo3's PanicException, a
BaseException that `except Exception` does not catch."""

import re
from pathlib import Path

BINDINGS = Path(__file__).resolve().parent.parent / "src" / "bindings"

# `fn name(...) -> ... {` up to the first statement of its body.
FN = re.compile(r"\bfn\s+(\w+)\b[^{;]*?\{\s*(\S[^\n]*)", re.S)


def entry_points():
    """(file, function, first line of its body) for every #[pyfunction] and every method of a
    #[pymethods] block that can raise (returns PyResult), getters and dunders aside."""
    found = []
    for path in sorted(BINDINGS.glob("*.rs")):
        text = path.read_text()
        for m in re.finditer(r"#\[pyfunction\]", text):
            fn = FN.search(text, m.end())
            found.append((path.name, fn.group(1), fn.group(2)))
        for block in re.finditer(r"#\[pymethods\]\s*impl[^{]*\{(.*?)\n\}", text, re.S):
            body = block.group(1)
            for fn in FN.finditer(body):
                head = body[max(0, fn.start() - 200) : fn.start()]
                last_attr = head.rsplit("\n\n", 1)[-1]
                signature = fn.group(0)
                if "#[getter]" in last_attr or fn.group(1).startswith("__"):
                    continue
                if "PyResult" not in signature:
                    continue
                found.append((path.name, fn.group(1), fn.group(2)))
    return found


def test_the_scan_sees_the_entry_points():
    names = {name for _, name, _ in entry_points()}
    # Fails if the scan stops finding functions (then the next test would pass vacuously).
    assert {"solve", "solve_batch", "_format_lines", "_read_grid", "_techniques"} <= names
    assert len(names) > 30


def test_every_entry_point_runs_under_the_guard():
    unguarded = [
        f"{file}: {name}"
        for file, name, first in entry_points()
        if not re.match(r"(super::)?guard::entry\(", first)
    ]
    assert not unguarded, unguarded


def test_solution_iterator_next_is_guarded():
    text = (BINDINGS / "solutions.rs").read_text()
    body = text[text.index("fn __next__") :]
    first = FN.search(body).group(2)
    assert re.match(r"(super::)?guard::entry\(", first)


def test_mod_rs_only_registers():
    text = (BINDINGS / "mod.rs").read_text()
    outside = text[: text.index("#[pymodule]")]
    assert not re.search(r"\bfn\b", outside), "functions belong in their own files"
    inside = text[text.index("#[pymodule]") :]
    assert re.findall(r"\bfn\s+(\w+)", inside) == ["init"]


def calls(pattern):
    """(file, line) of every call of `pattern` in the binding, comments aside."""
    found = []
    for path in sorted(BINDINGS.glob("*.rs")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("//", 1)[0]
            if re.search(pattern, code) and not re.search(r"\bfn\s", code):
                found.append((path.name, number))
    return found


def test_box_and_rules_are_resolved_in_one_place():
    # One grid request per call (request.rs): the box asked for is read there, the box shape
    # of a side made there, and the jigsaw region policy is the core's Rules::box_for.
    assert [f for f, _ in calls(r"BoxArg::request\(")] == ["request.rs"]
    assert [f for f, _ in calls(r"BoxShape::for_size\(")] == ["request.rs"]
    assert calls(r"\bbox_under\b") == []


def test_one_chunk_loop():
    # The runner (chunks.rs) owns the chunk loop and hands every batch's rows to the core's
    # threads; a batch function gives it how to read, work on and write rows, never a loop.
    assert [f for f, _ in calls(r"\.chunks\(\)")] == ["chunks.rs"]
    assert [f for f, _ in calls(r"\bfor_each(_on|_with)?\(")] == ["chunks.rs"]
    assert [f for f, _ in calls(r"\bfor \(start, end\) in\b")] == ["chunks.rs"]


def test_batch_functions_are_compiled():
    # Every batch function is compiled: it takes its input through the one batch reader, runs
    # on the one chunk runner and makes its result natively (records in src/bindings/records.rs,
    # result classes imported from the package); none is a Python wrapper.
    import sudoku_rs as sr

    batches = {name for name in sr.__all__ if name.endswith("_batch")}
    wrapped = {name for name in batches if getattr(sr, name).__module__ != "sudoku_rs._sudoku_rs"}
    assert wrapped == set()
    assert {"rate_batch", "grade_batch", "explain_batch", "check_batch", "score_batch"} <= batches
    assert {"search_trace_batch", "logic_trace_batch", "parse_answer_batch"} <= batches
