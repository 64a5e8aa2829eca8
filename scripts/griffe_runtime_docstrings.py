"""A griffe extension for the API reference (mkdocs.yml): the compiled module's docstrings come
from the built module itself.

griffe reads `sudoku_rs._sudoku_rs` from its stub (`_sudoku_rs.pyi`: the types) merged with what
it inspects in the installed extension; for classes it keeps only the stub's members, which carry
no docstrings. The docstrings are the Rust doc comments that pyo3 compiles in, the same text
`help()` shows, so this copies each one from the imported module onto griffe's object: one
source for the words (the Rust), one for the types (the stub).
"""

from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

import griffe

# What may carry a docstring of its own; anything else (an int, a str constant) has only its
# type's, which says nothing about the name.
_DOCUMENTED = (
    type,
    inspect.isroutine,
    inspect.isgetsetdescriptor,
    inspect.ismemberdescriptor,
    inspect.isdatadescriptor,
)


def _own_doc(value: Any) -> str | None:
    if not any(
        isinstance(value, kind) if isinstance(kind, type) else kind(value) for kind in _DOCUMENTED
    ):
        return None
    doc = getattr(value, "__doc__", None)
    return inspect.cleandoc(doc) if isinstance(doc, str) and doc.strip() else None


def _copy(target: griffe.Object, runtime: Any) -> None:
    for name, member in target.members.items():
        if name not in getattr(runtime, "__dict__", {}):
            continue
        if member.is_alias:
            # pyo3 classes say they live in `sudoku_rs`, so griffe sees an alias here.
            try:
                member = member.final_target
            except griffe.AliasResolutionError:
                continue
        # The attribute as Python resolves it: a static method's docstring is its function's,
        # not the `staticmethod` wrapper's that sits in the class's __dict__.
        value = getattr(runtime, name)
        doc = _own_doc(value)
        if doc:
            member.docstring = griffe.Docstring(doc, parent=member)
        if member.is_class:
            _copy(member, value)
            _constructor(member)


def _constructor(cls: Any) -> None:
    """pyo3 classes are built by `__new__`, which the stub spells out; mkdocstrings shows a
    class's signature from its `__init__` (`merge_init_into_class`), so give it one with the
    same parameters."""
    new = cls.members.get("__new__")
    if new is None or "__init__" in cls.members or not new.is_function:
        return
    init = griffe.Function(
        "__init__", lineno=new.lineno, endlineno=new.endlineno, parameters=new.parameters
    )
    cls.set_member("__init__", init)


# Sphinx roles, as the docstrings write cross-references (`help()` shows them as they are).
_ROLE = re.compile(r":(?:func|class|meth|attr|data|exc|mod):`~?([\w.]+)`")


def _objects(obj: griffe.Object, seen: set[int]) -> list[griffe.Object]:
    found = []
    for member in obj.members.values():
        if member.is_alias or id(member) in seen:
            continue
        seen.add(id(member))
        found.append(member)
        if member.is_module or member.is_class:
            found += _objects(member, seen)
    return found


def _links(pkg: griffe.Module) -> None:
    """Roles become Markdown: a link where the reference has the name (`sudoku_rs.__all__` and
    the members of its classes), plain code elsewhere (private helpers)."""
    public = importlib.import_module("sudoku_rs")

    def target(name: str) -> str | None:
        path = name.removeprefix("sudoku_rs.").split(".")
        if path[0] not in public.__all__:
            return None
        value: Any = public
        for part in path:
            value = getattr(value, part, None)
        return "sudoku_rs." + ".".join(path) if value is not None else None

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        shown = name.removeprefix("sudoku_rs.")
        path = target(name)
        return f"[`{shown}`][{path}]" if path else f"`{shown}`"

    for obj in _objects(pkg, set()):
        if obj.docstring is not None:
            obj.docstring.value = _ROLE.sub(replace, obj.docstring.value)


class RuntimeDocstrings(griffe.Extension):
    """Fills `sudoku_rs._sudoku_rs`'s docstrings from the installed, compiled module, and turns
    the docstrings' Sphinx roles into Markdown links."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        if pkg.name != "sudoku_rs":
            return
        compiled = importlib.import_module("sudoku_rs._sudoku_rs")
        _copy(pkg["_sudoku_rs"], compiled)
        _links(pkg)
