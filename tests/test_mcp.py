"""`sudoku-rs mcp`: the four tools, called in-process through the MCP SDK's own client, their
answers checked against the package's functions and a pure-Python reference, and bad input
coming back as a tool error rather than a crash. Skipped where the SDK (Python 3.10+) is not
installed."""

import asyncio
import json
import subprocess
import sys

import pytest

mcp = pytest.importorskip("mcp", reason="the mcp extra (Python 3.10+) is not installed")

from mcp import Client  # noqa: E402
from reference import count_solutions  # noqa: E402

import sudoku_rs as sr  # noqa: E402
from sudoku_rs._mcp import build_server  # noqa: E402

NINE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def call_all(calls):
    """Lists the tools, then makes each (name, arguments) call; the list and the results."""

    async def run():
        async with Client(build_server()) as client:
            tools = await client.list_tools()
            results = [await client.call_tool(name, args) for name, args in calls]
            return tools, results

    return asyncio.run(run())


def payload(result):
    assert not result.is_error, result.content
    return json.loads(result.content[0].text)


def grid_of(text):
    return [0 if ch in ".0" else int(ch) for ch in text]


def test_lists_the_four_tools_and_each_answers():
    solution = sr.solve(NINE)
    partial = solution[:40] + NINE[40:]
    wrong = NINE[:2] + "5" + NINE[3:]  # a second 5 in row 0 and box 0
    tools, results = call_all(
        [
            ("generate", {"level": "easy", "seed": 3}),
            ("hint", {"puzzle": NINE}),
            ("check", {"puzzle": NINE, "grid": partial}),
            ("check", {"puzzle": NINE, "grid": "r1c3=4"}),
            ("check", {"puzzle": NINE, "grid": wrong}),
            ("solve", {"puzzle": NINE}),
        ]
    )
    assert sorted(t.name for t in tools.tools) == ["check", "generate", "hint", "solve"]
    for tool in tools.tools:
        assert tool.description and tool.input_schema["type"] == "object"

    made = payload(results[0])
    assert made["puzzle"] == sr.generate(level="easy", seed=3)
    assert count_solutions(grid_of(made["puzzle"]), 9, 3, 3, limit=2) == 1
    assert made["grid"] == sr.to_prompt(made["puzzle"])

    step = payload(results[1])
    expected = sr.hint(NINE)
    assert step["technique"] == expected.technique and step["text"] == expected.text
    for row, col, digit in step["placements"]:
        assert solution[row * 9 + col] == str(digit)

    half = payload(results[2])
    assert half == {
        "complete": False,
        "keeps_givens": True,
        "conflict_cells": 0,
        "conflict_units": 0,
        "still_solvable": True,
        "solved": False,
    }
    # r1c3=4 is the solution's digit there (534...), placed on the puzzle.
    assert solution[2] == "4"
    assert payload(results[3])["still_solvable"] is True

    assert payload(results[4]) == {
        "complete": False,
        "keeps_givens": True,
        "conflict_cells": 2,
        "conflict_units": 2,
        "still_solvable": False,
        "solved": False,
    }

    solved = payload(results[5])
    assert solved == {"solution": solution, "unique": True}


@pytest.mark.parametrize(
    ("name", "args", "says"),
    [
        ("solve", {"puzzle": "12345"}, "InvalidPuzzleError"),
        ("solve", {"puzzle": "11" + "." * 79}, ""),
        ("hint", {"puzzle": "x" * 81}, ""),
        ("check", {"puzzle": NINE, "grid": "no grid here at all"}, "ValueError"),
        ("generate", {"level": "impossible"}, "level"),
        ("generate", {"size": "nine"}, ""),
        ("solve", {}, "puzzle"),
    ],
)
def test_bad_input_is_a_tool_error_and_the_server_goes_on(name, args, says):
    _, (result, after) = call_all([(name, args), ("solve", {"puzzle": NINE})])
    assert result.is_error
    assert says in result.content[0].text
    assert payload(after)["unique"] is True


def test_the_command_starts_a_stdio_server():
    # The real entry point over real pipes: the SDK's stdio client starts it.
    from mcp.client.stdio import StdioServerParameters

    params = StdioServerParameters(
        command=sys.executable, args=["-m", "sudoku_rs", "mcp"], env=None
    )

    async def run():
        async with Client(params) as client:
            tools = await client.list_tools()
            result = await client.call_tool("solve", {"puzzle": NINE})
            return tools, result

    tools, result = asyncio.run(run())
    assert len(tools.tools) == 4
    assert payload(result)["solution"] == sr.solve(NINE)


def test_without_the_sdk_the_command_says_what_to_install():
    code = (
        "import sys; sys.modules['mcp'] = None; "
        "from sudoku_rs.cli import main; sys.exit(main(['mcp']))"
    )
    done = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert done.returncode == 2
    assert "pip install 'sudoku_rs[mcp]'" in done.stderr
