"""sudoku_rs: a fast Sudoku solver with a Rust core.

A grid is any of: a string of n*n cells ('.' or '0' blank), a list of rows of ints (0 blank),
a list of rows of one-character strings (the LeetCode board), a list of row strings, or a 2-D
numpy integer array. Results come back in the kind that came in; the input is never modified.
"""

from ._arrow import to_arrow, write_parquet
from ._check import check_batch, score_batch
from ._datasets import decode, decode_moves, encode, encode_moves, export_hrm
from ._files import format_puzzles, read_puzzles, write_puzzles
from ._generate import generate, generate_batch
from ._llm import Answer, Answers, parse_answer, parse_answer_batch, to_prompt
from ._logic import (
    Explanation,
    Grade,
    Step,
    candidates,
    explain,
    format_candidates,
    grade,
    hint,
    parse_candidates,
    techniques,
)
from ._logic_batch import Traces, explain_batch, grade_batch, write_traces
from ._print.sheets import print_sheets
from ._rate import Rating, rate, rate_batch
from ._rules_text import format_rules, parse_rules, read_variant_puzzles, write_variant_puzzles
from ._status import Status
from ._sudoku_rs import (
    GenerateError,
    GuessLimitError,
    InvalidCandidatesError,
    InvalidPuzzleError,
    InvalidRulesError,
    NoSolutionError,
    Rules,
    SudokuError,
    Transform,
    __version__,
    augment_batch,
    candidates_batch,
    canonical,
    canonical_batch,
    count_solutions,
    count_solutions_batch,
    is_unique,
    is_valid,
    iter_solutions,
    solutions,
    solve,
    solve_batch,
)
from ._trace import (
    LogicTraces,
    SearchTraces,
    TraceToken,
    logic_trace_batch,
    search_trace,
    search_trace_batch,
)
from .board import Board

__all__ = [
    "Answer",
    "Answers",
    "Board",
    "Explanation",
    "GenerateError",
    "Grade",
    "GuessLimitError",
    "InvalidCandidatesError",
    "InvalidPuzzleError",
    "InvalidRulesError",
    "LogicTraces",
    "NoSolutionError",
    "Rating",
    "Rules",
    "SearchTraces",
    "Status",
    "Step",
    "SudokuError",
    "TraceToken",
    "Traces",
    "Transform",
    "__version__",
    "augment_batch",
    "candidates",
    "candidates_batch",
    "canonical",
    "canonical_batch",
    "check_batch",
    "count_solutions",
    "count_solutions_batch",
    "decode",
    "decode_moves",
    "encode",
    "encode_moves",
    "explain",
    "explain_batch",
    "export_hrm",
    "format_candidates",
    "format_puzzles",
    "format_rules",
    "generate",
    "generate_batch",
    "grade",
    "grade_batch",
    "hint",
    "is_unique",
    "is_valid",
    "iter_solutions",
    "logic_trace_batch",
    "parse_answer",
    "parse_answer_batch",
    "parse_candidates",
    "parse_rules",
    "print_sheets",
    "rate",
    "rate_batch",
    "read_puzzles",
    "read_variant_puzzles",
    "score_batch",
    "search_trace",
    "search_trace_batch",
    "solutions",
    "solve",
    "solve_batch",
    "techniques",
    "to_arrow",
    "to_prompt",
    "write_parquet",
    "write_puzzles",
    "write_traces",
    "write_variant_puzzles",
]
