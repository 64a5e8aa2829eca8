"""The `sudoku-rs` command: solve, count or check a file of puzzles, streaming.

Input is one puzzle per line (81 characters for 9x9, '.' or '0' blank) or a CSV with a header
(use --column to pick the field); solve, count, check and rate also read a line of pencil
marks (a sukaku: 729 characters for 9x9, cell c owning characters 9c to 9c+8, '.' or '0' for a
removed candidate), mixed with grids of the same size. Output has one line per input puzzle, in
input order.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import math
import os
import stat
import sys
import time
from typing import BinaryIO, Callable, Iterator, Optional, cast

import numpy as np

from ._atomic import SameFileError, atomic_write, refuse_same_file, same_file
from ._files import Chunk, _format, bad_mask, iter_chunks
from ._rules_text import parse_rules
from ._status import Status
from ._sudoku_rs import (
    InvalidRulesError,
    Rules,
    _parse_lines,
    count_solutions_batch,
    se_rate_batch,
    solve_batch,
)

EPILOG = """\
commands:
  solve   writes each puzzle's first solution; an empty line where there is none
  count   writes each puzzle's number of solutions, counted up to --limit
  check   writes unique / multiple / none for each puzzle; exits 1 unless all are unique
  rate    writes each puzzle's line with its Sudoku Explainer rating, as serate's forum
          lists print it: 'LINE ED=ER/EP/ED' (e.g. ED=7.1/1.2/1.2); a puzzle SE does not rate
          gets 'LINE none' (no solution), 'LINE multiple' (several), 'LINE invalid'
          (conflicting givens, or not 9x9), 'LINE unknown' (past --time-limit), 'LINE
          unsolved' (SE's techniques get stuck: serate's 20.0); exits 1
          unless all are rated. Variant --rules are refused: SE rates classic sudoku only
  print   writes a PDF of puzzle sheets (-o FILE.pdf), answer keys at the back
  mcp     serves generate, hint, check and solve as MCP tools over stdio (the mcp extra)

With --max-guesses, a puzzle whose search runs out of guesses gets 'unknown' (count, check) or
an empty line (solve), and the summary says how many gave up.

Malformed lines stop the run with exit status 2 and a message naming the line, unless
--skip-invalid, which writes 'invalid' (an empty line for solve) and carries on. A summary goes
to stderr; a progress bar too when stderr is a terminal and tqdm is installed.

An output file (-o) is written beside its place and replaces it only when the run succeeds, so
a failed or interrupted run leaves it as it was; an output that is the input file itself (also
through a link) is refused with exit status 2.

--rules solves every puzzle under variant rules, given in the rules text form (the words of
sudoku_rs.parse_rules: diagonals, windows, anti-knight, anti-king, non-consecutive, regions=...,
extra=r1c1,..., cage=TOTAL:r1c1,...). A file holding a different variant on each line is read
with sudoku_rs.read_variant_puzzles.

examples:
  sudoku-rs solve puzzles.txt -o solutions.txt
  sudoku-rs check x-sudoku.txt --rules diagonals
  cat puzzles.txt | sudoku-rs check -
  sudoku-rs rate hardest.txt --threads 2 -o hardest.rated.txt
  sudoku-rs count train.csv --column 0 --limit 3 --threads 4
  sudoku-rs print puzzles.txt -o book.pdf --per-page 6 --title "Book 1"
"""


def _count(least: int) -> Callable[[str], int]:
    """An argparse type: a whole number of at least `least` (and below 2**63)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if not least <= value < 2**63:
            raise argparse.ArgumentTypeError(f"must be at least {least}, got {value}")
        return value

    return parse


def _seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def _rules(text: str) -> Rules:
    """An argparse type: the rules text form."""
    try:
        return parse_rules(text)
    except InvalidRulesError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sudoku-rs",
        description=__doc__.splitlines()[0],
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("command", choices=["solve", "count", "check", "rate", "print", "mcp"])
    parser.add_argument("input", nargs="?", default="-", help="puzzle file, or - for stdin")
    parser.add_argument("-o", "--output", default="-", help="output file (default: stdout)")
    parser.add_argument("--threads", type=_count(1), default=None, help="default: every core")
    parser.add_argument(
        "--limit", type=_count(1), default=2, help="count: stop counting here (default 2)"
    )
    parser.add_argument(
        "--column", type=_count(0), default=0, help="CSV field holding the puzzle (from 0)"
    )
    parser.add_argument(
        "--box",
        type=_count(2),
        nargs=2,
        metavar=("ROWS", "COLS"),
        help="box shape, e.g. --box 2 3 for 6x6",
    )
    parser.add_argument(
        "--max-guesses",
        type=_count(1),
        default=None,
        help="give up on a puzzle after this many guesses (default: no limit)",
    )
    parser.add_argument(
        "--rules",
        type=_rules,
        default=None,
        metavar="RULES",
        help="variant rules for every puzzle, in the rules text form, e.g. 'diagonals' or "
        "'anti-knight cage=15:r1c1,r1c2' (see sudoku_rs.parse_rules)",
    )
    parser.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        metavar="SECONDS",
        help="rate: give up on a puzzle after this many seconds (default: no limit)",
    )
    parser.add_argument("--skip-invalid", action="store_true", help="carry on past bad lines")
    sheets = parser.add_argument_group("print")
    sheets.add_argument("--per-page", type=_count(1), default=4, help="puzzles per page (4)")
    sheets.add_argument("--page", default="A4", help="A4, A5, A3, Letter or Legal (A4)")
    sheets.add_argument("--title", default=None, help="heading on every page")
    sheets.add_argument("--no-answers", action="store_true", help="leave out the answer pages")
    sheets.add_argument(
        "--answers-per-page", type=_count(1), default=None, help="default: as many as fit"
    )
    sheets.add_argument("--no-numbers", action="store_true", help="no puzzle numbers")
    sheets.add_argument("--grades", action="store_true", help="show each puzzle's grade")
    sheets.add_argument(
        "--er", action="store_true", help="show each puzzle's Sudoku Explainer rating (ER)"
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no summary or progress")
    return parser


@contextlib.contextmanager
def _open_in(name: str) -> Iterator[BinaryIO]:
    if name == "-":
        yield sys.stdin.buffer
    else:
        with open(name, "rb") as f:
            yield f


@contextlib.contextmanager
def _open_out(name: str, src: BinaryIO, src_name: str) -> Iterator[BinaryIO]:
    """The output: stdout, or a file that replaces `name` only when the run succeeds (see
    `_atomic`). An output that is the input itself is refused before anything is written."""
    try:
        source = os.fstat(src.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        source = None  # not a real file (a test's BytesIO): nothing to collide with
    if name == "-":
        out = None
        if source is not None and stat.S_ISREG(source.st_mode):
            with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
                out = os.fstat(sys.stdout.fileno())
        # `sudoku-rs solve p.txt >> p.txt` would read its own output forever.
        if out is not None and source is not None and same_file(out, source):
            raise SameFileError(
                f"the output (stdout) is the input {src_name!r} (the same file); "
                "choose another output"
            )
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
        return
    if source is not None and stat.S_ISREG(source.st_mode):
        refuse_same_file(name, source, src_name)
    with atomic_write(name) as f:
        yield cast(BinaryIO, f)  # binary: no encoding given


class _Stop(Exception):
    """Ends a run early with an exit status, the output left as it was."""

    def __init__(self, status: int) -> None:
        super().__init__(status)
        self.status = status


@contextlib.contextmanager
def _byte_progress(stream: BinaryIO, enabled: bool) -> Iterator[Callable[[], None]]:
    """A bar over the bytes of the input file; a no-op when disabled or tqdm is missing."""
    bar = None
    if enabled:
        try:
            from tqdm import tqdm  # type: ignore[import-untyped]

            total = os.fstat(stream.fileno()).st_size if stream.seekable() else None
            bar = tqdm(total=total, unit="B", unit_scale=True, file=sys.stderr, leave=False)
        except (ImportError, OSError, ValueError):
            bar = None
    if bar is None:
        yield lambda: None
        return
    with bar:
        last = [stream.tell() if stream.seekable() else 0]

        def update() -> None:
            if stream.seekable():
                now = stream.tell()
                bar.update(now - last[0])
                last[0] = now

        yield update


def run(args: argparse.Namespace) -> int:
    if args.command == "mcp":
        from ._mcp import serve

        return serve()
    if args.command == "print":
        from ._print.sheets import print_command

        return print_command(args)
    if args.command == "rate" and args.rules is not None:
        print(
            "sudoku-rs: the Sudoku Explainer rating is for classic sudoku: "
            "it does not rate variant rules (--rules)",
            file=sys.stderr,
        )
        return 2
    box = tuple(args.box) if args.box else None
    totals = {
        "puzzles": 0,
        "bad": 0,
        "none": 0,
        "unique": 0,
        "multiple": 0,
        "gave_up": 0,
        "rated": 0,
        "invalid": 0,
        "unsolved": 0,
    }
    start = time.perf_counter()
    show = not args.quiet
    name = "<stdin>" if args.input == "-" else args.input
    try:
        # One `with` for the three would pass the line length, and Python 3.9 documents no
        # parenthesised form.
        with _open_in(args.input) as src, _open_out(args.output, src, name) as out:  # noqa: SIM117
            with _byte_progress(src, show and sys.stderr.isatty()) as tick:
                chunks = iter_chunks(
                    src,
                    column=args.column,
                    box=box,
                    rules=args.rules,
                    marks=args.rules is None,
                    text=args.command == "rate",
                )
                for chunk in chunks:
                    if chunk.bad and not args.skip_invalid:
                        row, message = chunk.bad[0]
                        print(f"{name}:{chunk.line_numbers[row]}: {message}", file=sys.stderr)
                        raise _Stop(2)  # leaves a file output untouched
                    work = _rate if args.command == "rate" else _process
                    out.write(work(args, chunk, box, totals))
                    tick()
    except _Stop as stop:
        return stop.status
    if show:
        _summary(args.command, totals, time.perf_counter() - start)
    if args.command == "check" and totals["unique"] != totals["puzzles"]:
        return 1
    if args.command == "rate" and totals["rated"] != totals["puzzles"]:
        return 1
    return 0


def _rate(args: argparse.Namespace, chunk: Chunk, box, totals: dict) -> bytes:
    """Rates a chunk's good rows in one se_rate_batch call (grids and sukaku lines alike:
    the batch reads each sukaku text with its marks) and writes each input line, as read,
    with its rating or why it has none (serate's "%g ED=%r/%p/%d" shape)."""
    bad = bad_mask(chunk)
    count = len(chunk.puzzles)
    totals["puzzles"] += count
    totals["bad"] += int(bad.sum())
    lines = chunk.text.split(b"\n")
    rows = [
        lines[number - chunk.first_line].strip().decode("utf-8", "replace")
        for number in chunk.line_numbers
    ]
    labels = ["invalid"] * count
    good = np.flatnonzero(~bad)
    if len(good):
        marked = dict(chunk.marked)
        size = math.isqrt(chunk.puzzles.shape[1])
        texts = _format(chunk.puzzles[good], size, ".").decode().split("\n")
        puzzles = [marked.get(int(row), text) for row, text in zip(good, texts)]
        rated = se_rate_batch(puzzles, box=box, threads=args.threads, time_limit=args.time_limit)
        for row, (er, ep, ed, status) in zip(good.tolist(), rated.tolist()):
            labels[row] = _RATE_LABELS.get(status) or f"ED={er:.1f}/{ep:.1f}/{ed:.1f}"
        status = rated["status"]
        totals["rated"] += int((status == Status.SOLVED).sum())
        totals["none"] += int((status == Status.NO_SOLUTION).sum())
        totals["multiple"] += int((status == Status.NOT_UNIQUE).sum())
        totals["invalid"] += int((status == Status.INVALID).sum())
        totals["gave_up"] += int((status == Status.TIME_LIMIT).sum())
        totals["unsolved"] += int((status == Status.UNSOLVED).sum())
    out = [f"{row} {label}" if row else label for row, label in zip(rows, labels)]
    return ("\n".join(out) + "\n").encode() if out else b""


#: What `rate` writes for a puzzle SE does not rate, by se_rate_batch's status.
_RATE_LABELS = {
    Status.INVALID: "invalid",
    Status.NO_SOLUTION: "none",
    Status.NOT_UNIQUE: "multiple",
    Status.TIME_LIMIT: "unknown",
    Status.UNSOLVED: "unsolved",
}


def _process(args: argparse.Namespace, chunk: Chunk, box, totals: dict) -> bytes:
    """Runs the command on a chunk's good rows; malformed rows (skipped) keep their place in
    the output as an empty line (solve) or 'invalid'. Lines of pencil marks (sukaku) go to
    the same batch call as their texts, which it reads with their marks."""
    bad = bad_mask(chunk)
    totals["puzzles"] += len(chunk.puzzles)
    totals["bad"] += int(bad.sum())
    grids = ~bad
    marked = np.array([row for row, _ in chunk.marked], dtype=np.intp)
    grids[marked] = False
    texts = [text for _, text in chunk.marked]
    options: dict = {
        "box": box,
        "threads": args.threads,
        "max_guesses": args.max_guesses,
        "rules": args.rules,
    }
    if args.command == "solve":
        solved = np.zeros_like(chunk.puzzles)
        unsolved = ~grids
        status = np.zeros(len(chunk.puzzles), dtype=np.int8)
        if grids.any():
            solved[grids], status[grids] = solve_batch(chunk.puzzles[grids], status=True, **options)
        if texts:
            lines, status[marked] = solve_batch(texts, status=True, **options)
            solved[marked] = _line_cells(lines, chunk.puzzles.shape[1], box)
        done = grids.copy()
        done[marked] = True
        unsolved[done] = status[done] != Status.SOLVED
        totals["gave_up"] += int((status[done] == Status.GUESS_LIMIT).sum())
        totals["none"] += int((status[done] == Status.NO_SOLUTION).sum())
        totals["none"] += int((status[done] == Status.INVALID).sum())  # conflicting clues
        side = math.isqrt(solved.shape[1])
        return _format(solved, side, ".", gaps=unsolved)
    limit = args.limit if args.command == "count" else 2
    counts = np.zeros(len(chunk.puzzles), dtype=np.int64)
    if grids.any():
        counts[grids] = count_solutions_batch(chunk.puzzles[grids], limit=limit, **options)
    if texts:
        counts[marked] = count_solutions_batch(texts, limit=limit, **options)
    good_counts = counts[~bad]
    totals["gave_up"] += int((good_counts < 0).sum())
    totals["none"] += int((good_counts == 0).sum())
    totals["unique"] += int((good_counts == 1).sum())
    totals["multiple"] += int((good_counts >= 2).sum())
    if args.command == "count":
        labels = counts.astype(str).astype(object)
    else:
        labels = np.array(["none", "unique", "multiple"], dtype=object)[np.clip(counts, 0, 2)]
    labels[counts < 0] = "unknown"  # ran out of --max-guesses
    labels[bad] = "invalid"
    lines = labels.tolist()
    return ("\n".join(lines) + "\n").encode() if lines else b""


def _line_cells(lines: list, cells: int, box) -> np.ndarray:
    """The cells of solve_batch's solution lines for sukaku rows (None, unsolved, as blank),
    read natively in one call."""
    blank = "." * cells
    data = "\n".join(blank if line is None else line for line in lines).encode()
    return _parse_lines(data, size=math.isqrt(cells), box=box)[0]


def _summary(command: str, totals: dict, seconds: float) -> None:
    n = totals["puzzles"]
    rate = n / seconds if seconds > 0 else float("inf")
    parts = [f"{n:,} puzzles in {seconds:.2f} s ({rate:,.0f}/s)"]
    if command == "rate":
        parts.append(f"{totals['rated']:,} rated")
        for key, what in [
            ("multiple", "with several solutions"),
            ("none", "with no solution"),
            ("invalid", "invalid"),
            ("unsolved", "stuck (serate's 20.0)"),
        ]:
            if totals[key]:
                parts.append(f"{totals[key]:,} {what}")
        if totals["gave_up"]:
            parts.append(f"{totals['gave_up']:,} past --time-limit")
    elif command == "solve":
        parts.append(
            f"{n - totals['none'] - totals['bad'] - totals['gave_up']:,} solved, "
            f"{totals['none']:,} with no solution"
        )
    else:
        parts.append(
            f"{totals['unique']:,} unique, {totals['multiple']:,} multiple, "
            f"{totals['none']:,} with no solution"
        )
    if totals["gave_up"] and command != "rate":
        parts.append(f"{totals['gave_up']:,} gave up (--max-guesses)")
    if totals["bad"]:
        parts.append(f"{totals['bad']:,} invalid lines skipped")
    print("sudoku-rs: " + "; ".join(parts), file=sys.stderr)


def main(argv: Optional[list] = None) -> int:
    parser = build_parser()
    # Intermixed: options may come before or after the input file.
    args = parser.parse_intermixed_args(argv)
    try:
        return run(args)
    except KeyboardInterrupt:
        print("sudoku-rs: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (say, `| head`); stop quietly like other Unix tools.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    # A missing or unreadable file; -o the input; --rules that do not fit the puzzles' size.
    except (OSError, SameFileError, InvalidRulesError) as err:
        print(f"sudoku-rs: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
