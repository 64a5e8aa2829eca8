"""Puzzle generation: `generate`'s signature and docstring over the compiled generator (which
reads the seed, the level and its deprecated alias); `generate_batch` is compiled."""

from __future__ import annotations

from typing import Iterable, Optional, Tuple

from . import _sudoku_rs
from ._sudoku_rs import Rules


def generate(
    *,
    clues: Optional[int] = None,
    size: Optional[int] = None,
    box: Optional[Tuple[int, int]] = None,
    seed: Optional[int] = None,
    symmetry: Optional[str] = None,
    minimal: bool = False,
    rules: Optional[Rules] = None,
    level: Optional[str] = None,
    techniques: Optional[Iterable[str]] = None,
    difficulty: Optional[str] = None,
) -> str:
    """Make one puzzle with exactly one solution, as a string of n*n characters ('.' blank).

    ``clues=N`` gives exactly N clues, or raises :class:`GenerateError` (a ValueError): at once
    when N is impossible (9x9: 17 to 81; 4x4: 4 to 16; 6x6: 8 to 36; otherwise n-1 to n*n; or
    an odd N when every symmetric orbit is a pair), and after 200 failed attempts when digging
    does not get there (9x9 below about 21 clues). ``clues=None`` removes clues until none can
    go in the seeded order. ``size`` and ``box`` pick the grid: ``size=6, box=(2, 3)``; sizes
    up to 35. ``symmetry`` keeps the clue pattern symmetric, clues going in pairs:
    ``'rotate180'`` (half-turn), ``'mirror'`` (left-right), ``'diagonal'`` (main diagonal), or
    None / ``'none'``. ``minimal=True`` guarantees that no single clue can be removed with the
    solution staying unique (every clue is checked).

    ``level`` and ``techniques`` ask for a logical target (see :func:`grade`): a puzzle whose
    logical solution needs the technique level ``level`` (``'easy'``, ``'medium'``, ``'hard'``,
    ``'expert'`` or ``'extreme'``: its hardest technique has that level, so its
    ``grade().level`` is ``level``), and/or that the listed ``techniques`` alone solve (for
    instance ``['full_house', 'hidden_single', 'naked_single', 'naked_pair', 'hidden_pair']``).
    Clues are then removed only while those techniques still solve the puzzle (so it has one
    solution by construction), and an attempt that does not need the level is dropped.
    Targets no puzzle meets raise :class:`GenerateError` at once (no single among the
    techniques, a level none of them has, ``minimal=True``); after 200 attempts that miss, it
    raises too. The techniques that need a puzzle known to have one solution (the unique
    rectangles, ``bug_plus_one``, ``nested_forcing_chain``) are not used to make puzzles: a
    puzzle being dug is not yet known to be unique. So a level that only they reach among the
    allowed techniques raises at once too.

    The same ``seed`` (an int, 0 to 2**64-1) gives the same puzzle on every machine and in every
    future version (for the same options: a logical target digs differently, so it gives
    another puzzle than the call without it); ``seed=None`` draws one from the OS.
    ``generate(seed=s)`` is ``generate_batch(k, seed=s)[0]`` as a string. The GIL is released;
    Ctrl-C stops it.

    ``rules`` (a :class:`Rules`) makes a puzzle with one solution under variant rules, seeded
    the same way. ``size=None`` means the rules' size (jigsaw regions fix it, windows mean 9),
    else 9. Under rules any clue count from 0 may be asked for: a killer's cages can pin the
    solution with no given digit at all. Rules no grid can meet raise :class:`GenerateError`,
    and so does a logical target (``level``/``techniques``) under variant rules.

    ``difficulty`` is the deprecated former name of ``level`` (it warns; giving both raises
    TypeError). It is not the scale of :func:`rate`'s ``difficulty``, which counts guesses.
    """
    return _sudoku_rs._generate(
        seed=seed,
        clues=clues,
        size=size,
        box=box,
        symmetry=symmetry,
        minimal=minimal,
        rules=rules,
        level=level,
        techniques=techniques,
        difficulty=difficulty,
    )
