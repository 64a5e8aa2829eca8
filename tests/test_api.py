"""The public names, the exception classes and the call signatures."""

import helpers as h
import pytest

import sudoku_rs as sr

FUNCTIONS = ["solve", "solutions", "count_solutions", "is_unique", "is_valid"]


@pytest.mark.parametrize("name", FUNCTIONS)
def test_function_is_exported(name):
    assert callable(getattr(sr, name))


def test_exception_hierarchy():
    assert issubclass(sr.SudokuError, ValueError)
    assert issubclass(sr.InvalidPuzzleError, sr.SudokuError)
    assert issubclass(sr.NoSolutionError, sr.SudokuError)
    assert not issubclass(sr.InvalidPuzzleError, sr.NoSolutionError)
    assert not issubclass(sr.NoSolutionError, sr.InvalidPuzzleError)


def test_errors_can_be_caught_as_value_error():
    with pytest.raises(ValueError):
        sr.solve(h.make_input(h.NO_SOLUTION, 9, "ints"))
    with pytest.raises(ValueError):
        sr.solve("1" * 81)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_grid_is_positional_only(name):
    with pytest.raises(TypeError):
        getattr(sr, name)(grid=h.make_input(h.LEETCODE, 9, "text"))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_box_is_keyword_only(name):
    with pytest.raises(TypeError):
        getattr(sr, name)(h.make_input(h.LEETCODE, 9, "text"), (3, 3))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_box_keyword_accepted(name):
    # Just that the documented keyword exists; results are checked elsewhere.
    getattr(sr, name)(h.make_input(h.LEETCODE, 9, "text"), box=(3, 3))


@pytest.mark.parametrize("name", ["solutions", "count_solutions"])
def test_limit_is_keyword_only(name):
    with pytest.raises(TypeError):
        getattr(sr, name)(h.make_input(h.LEETCODE, 9, "text"), 2)


def test_default_limits():
    empty = h.make_input([0] * 81, 9, "text")
    assert len(sr.solutions(empty)) == 10
    assert sr.count_solutions(h.make_input([0] * 16, 4, "text")) == 288


def _stub_returns():
    """The names of the compiled module's stub whose functions all say what they return."""
    import ast
    from pathlib import Path

    stub = Path(sr.__file__).with_name("_sudoku_rs.pyi")
    typed, untyped = set(), set()
    for node in ast.walk(ast.parse(stub.read_text())):
        if isinstance(node, ast.FunctionDef):
            (typed if node.returns is not None else untyped).add(node.name)
    return typed - untyped


def test_every_batch_function_takes_progress():
    import inspect

    batches = [name for name in sr.__all__ if name.endswith("_batch")] + ["write_traces"]
    assert "candidates_batch" in batches and "generate_batch" in batches
    for name in batches:
        parameter = inspect.signature(getattr(sr, name)).parameters.get("progress")
        assert parameter is not None, name
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.default is False


def test_the_dataset_functions_take_progress_and_threads():
    import inspect

    names = ["encode", "decode", "encode_moves", "decode_moves", "export_hrm"]
    names += ["fill_from_solution", "solutions_batch", "search_trace_batch"]
    names += ["logic_trace_batch", "explain_batch"]
    for name in names:
        parameters = inspect.signature(getattr(sr, name)).parameters
        for parameter, default in (("progress", False), ("threads", None)):
            assert parameters[parameter].kind is inspect.Parameter.KEYWORD_ONLY, (name, parameter)
            assert parameters[parameter].default is default, (name, parameter)


def test_every_public_function_and_method_has_a_return_type():
    import inspect

    import sudoku_rs.dask as sd

    stubbed = _stub_returns()
    missing = []
    public = [(sr, name) for name in sr.__all__] + [(sd, name) for name in sd.__all__]
    for module, name in public:
        obj = getattr(module, name)
        if inspect.isbuiltin(obj):
            if name not in stubbed:
                missing.append(name)
        elif inspect.isfunction(obj):
            if inspect.signature(obj).return_annotation is inspect.Signature.empty:
                missing.append(f"{module.__name__}.{name}")
        elif inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_") and attr != "__init__":
                    continue
                function = member.fget if isinstance(member, property) else member
                function = getattr(function, "__func__", function)
                if inspect.isfunction(function):
                    annotation = inspect.signature(function).return_annotation
                    if annotation is inspect.Signature.empty and attr != "__init__":
                        missing.append(f"{name}.{attr}")
    assert missing == []
