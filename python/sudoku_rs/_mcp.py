"""`sudoku-rs mcp`: generate, hint, check and solve as Model Context Protocol tools over stdio.

A thin layer over the package's functions (the `mcp` extra, the official SDK 2.x, Python
3.10+): each tool reads its arguments, calls one or two `sudoku_rs` functions and returns
plain JSON. Bad input (a malformed puzzle, an unreadable grid, an unknown level) comes back
to the client as a tool error saying why, never as a crash of the server. `check` answers
what a player may know without being told the solution: conflicts, the clues kept, and
whether the grid can still be completed.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Dict, List, Optional, TypeVar

import sudoku_rs as sr

from ._files import _some_box
from ._sudoku_rs import _read_grid

INSTRUCTIONS = (
    "Sudoku tools. Puzzles are strings of n*n cells read row by row, '.' or '0' for a blank "
    "(81 characters for 9x9). Rows, columns and digits in results count rows and columns from "
    "0 and digits from 1; the 'text' of a hint uses the usual 1-based r4c6 notation."
)

F = TypeVar("F", bound=Callable[..., Any])


def _side(puzzle: str) -> int:
    cells, _ = _read_grid(puzzle, box=_some_box(puzzle))
    return int(cells.shape[0])


def build_server() -> Any:
    """The MCP server (an ``mcp.server.mcpserver.MCPServer``) with the four tools; ``run()``
    serves it over stdio. Needs the ``mcp`` extra (``pip install 'sudoku_rs[mcp]'``)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer("sudoku_rs", instructions=INSTRUCTIONS, version=sr.__version__)

    def reported(fn: F) -> F:
        """The tool ``fn`` with the package's errors (ValueError, TypeError and their
        subclasses) raised as tool errors that keep their message for the client."""

        @functools.wraps(fn)
        def tool(*args: Any, **kwargs: Any) -> Any:
            try:
                return fn(*args, **kwargs)
            except (ValueError, TypeError) as err:
                raise ToolError(f"{type(err).__name__}: {err}") from err

        return tool  # type: ignore[return-value]

    @server.tool()
    @reported
    def generate(
        level: Optional[str] = None,
        size: int = 9,
        clues: Optional[int] = None,
        seed: Optional[int] = None,
    ) -> Dict[str, Any]:
        """A new puzzle with one solution: `level` a technique level (easy, medium, hard,
        expert, ...) for 9x9, `size` the grid side (4, 6, 8, 9, 12, 16, ...), `clues` how many
        givens, `seed` to make it again. Returns the puzzle string and a text rendering."""
        puzzle = sr.generate(level=level, size=size, clues=clues, seed=seed)
        return {"puzzle": puzzle, "grid": sr.to_prompt(puzzle)}

    @server.tool()
    @reported
    def hint(puzzle: str) -> Dict[str, Any]:
        """The next logical step for `puzzle` (a grid in progress is a puzzle too): the
        cheapest technique that applies, its placements and eliminations as [row, col, digit]
        from 0 (digits from 1), and a sentence. `technique` is null when the grid is full or
        no technique applies."""
        step = sr.hint(puzzle)
        if step is None:
            return {"technique": None, "text": "the grid is full, or no technique applies"}
        return {
            "technique": step.technique,
            "text": step.text,
            "placements": [list(p) for p in step.placements],
            "eliminations": [list(e) for e in step.eliminations],
        }

    @server.tool()
    @reported
    def check(puzzle: str, grid: str) -> Dict[str, Any]:
        """Checks a partial or full `grid` against `puzzle` without revealing the solution.
        `grid` is a grid of the puzzle's size (any layout parse_answer reads: digits with or
        without separators, '.' or '0' blank) or moves such as 'r3c6=5' placed on the puzzle.
        Returns whether it is complete, keeps every given, how many cells and units conflict,
        whether it can still be completed to a solution, and whether it is solved."""
        cells = sr.parse_answer(grid, size=_side(puzzle)).as_grid(puzzle)
        row = sr.score_batch([puzzle], cells[None])[0]
        return {
            "complete": bool(row["complete"]),
            "keeps_givens": bool(row["keeps_clues"]),
            "conflict_cells": int(row["conflict_cells"]),
            "conflict_units": int(row["conflict_units"]),
            "still_solvable": bool(row["completable"]),
            "solved": bool(row["solved"]),
        }

    @server.tool()
    @reported
    def solve(puzzle: str) -> Dict[str, Any]:
        """A solution of `puzzle` and whether it is the only one."""
        solution = sr.solve(puzzle)
        return {"solution": solution, "unique": sr.count_solutions(puzzle, limit=2) == 1}

    return server


def serve(argv: Optional[List[str]] = None) -> int:
    """Runs the server over stdio until the client closes it; 2, with a message saying what
    to install, when the ``mcp`` SDK is missing."""
    import sys

    try:
        server = build_server()
    except ImportError:
        print(
            "sudoku-rs mcp needs the mcp extra (Python 3.10+): pip install 'sudoku_rs[mcp]'",
            file=sys.stderr,
        )
        return 2
    server.run("stdio")
    return 0
