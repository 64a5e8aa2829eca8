"""Typed signatures of the compiled core (`sudoku_rs._sudoku_rs`)."""

from typing import (
    Any,
    Dict,
    Generic,
    Iterable,
    List,
    Literal,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    Union,
    final,
    overload,
)

import numpy as np
import numpy.typing as npt

from ._llm import Answers
from ._logic_batch import Traces
from ._trace import LogicTraces, SearchTraces

#: Any grid the API accepts. The result of a call is the same kind as its input.
_GridLike = Union[
    str,
    Sequence[Sequence[int]],
    Sequence[Sequence[str]],
    Sequence[str],
    npt.NDArray[np.integer[Any]],
]

_G = TypeVar(
    "_G",
    str,
    List[List[int]],
    List[List[str]],
    List[str],
    npt.NDArray[np.integer[Any]],
)

_I = TypeVar("_I", bound=np.integer[Any])
_J = TypeVar("_J", bound=np.integer[Any])

__version__: str

class SudokuError(ValueError):
    """Base class of every error about a puzzle; a subclass of ValueError."""

class InvalidPuzzleError(SudokuError):
    """Wrong shape, a bad value, or two equal clues in one row, column or box."""

class InvalidCandidatesError(InvalidPuzzleError):
    """Pencil marks that do not fit the grid, or that rule out the one solution's digit."""

class InvalidRulesError(SudokuError):
    """Variant rules that cannot hold or do not fit the grid."""

class NoSolutionError(SudokuError):
    """The givens are consistent but no completion exists."""

class GenerateError(SudokuError):
    """The generator cannot make the puzzle asked for (impossible options, or not reached)."""

class GuessLimitError(SudokuError):
    """The search needed more guesses than max_guesses allows."""

#: A cell as (row, col), counted from 0.
_Cell = Tuple[int, int]

@final
class Rules:
    """Variant rules: diagonals, windows, jigsaw regions, extra regions, anti-knight,
    anti-king, non-consecutive, disjoint groups, killer cages, little killers, thermometers,
    arrows, XV, Kropki dots, sandwiches, whispers, renban, palindromes, between lines,
    odd/even, minimum/maximum, quadruples, clones, X-sums, skyscrapers, given pencil marks,
    zipper, region sum, entropic, modular, lockout and nabner lines, slow thermometers, double arrows
    and row, column and box indexing cells. Immutable, hashable, picklable."""

    def __new__(
        cls,
        *,
        diagonals: bool = False,
        windows: bool = False,
        regions: Optional[Union[Sequence[Sequence[int]], Sequence[str], npt.NDArray[Any]]] = None,
        extra_regions: Optional[Sequence[Sequence[_Cell]]] = None,
        anti_knight: bool = False,
        anti_king: bool = False,
        non_consecutive: bool = False,
        cages: Optional[Sequence[Tuple[Optional[int], Sequence[_Cell]]]] = None,
        main_diagonal: bool = False,
        anti_diagonal: bool = False,
        disjoint_groups: bool = False,
        little_killers: Optional[Sequence[Tuple[int, _Cell, str]]] = None,
        thermometers: Optional[Sequence[Sequence[_Cell]]] = None,
        arrows: Optional[Sequence[Tuple[Sequence[_Cell], Sequence[_Cell]]]] = None,
        xv: Optional[Sequence[Tuple[_Cell, _Cell, str]]] = None,
        differences: Optional[
            Sequence[Union[Tuple[_Cell, _Cell], Tuple[_Cell, _Cell, int]]]
        ] = None,
        ratios: Optional[Sequence[Union[Tuple[_Cell, _Cell], Tuple[_Cell, _Cell, int]]]] = None,
        negative_xv: bool = False,
        negative_ratio: bool = False,
        sandwiches: Optional[Sequence[Tuple[int, _Cell]]] = None,
        whispers: Optional[
            Sequence[Union[Sequence[_Cell], Tuple[Sequence[_Cell], Optional[int]]]]
        ] = None,
        renbans: Optional[Sequence[Sequence[_Cell]]] = None,
        palindromes: Optional[Sequence[Sequence[_Cell]]] = None,
        between_lines: Optional[Sequence[Sequence[_Cell]]] = None,
        odd_cells: Optional[Sequence[_Cell]] = None,
        even_cells: Optional[Sequence[_Cell]] = None,
        minimum_cells: Optional[Sequence[_Cell]] = None,
        maximum_cells: Optional[Sequence[_Cell]] = None,
        quadruples: Optional[Sequence[Tuple[_Cell, Sequence[int]]]] = None,
        clones: Optional[Sequence[Tuple[Sequence[_Cell], Sequence[_Cell]]]] = None,
        x_sums: Optional[Sequence[Tuple[int, _Cell]]] = None,
        skyscrapers: Optional[Sequence[Tuple[int, _Cell]]] = None,
        pencil_marks: Optional[Sequence[Tuple[_Cell, Sequence[int]]]] = None,
        zipper_lines: Optional[Sequence[Sequence[_Cell]]] = None,
        region_sum_lines: Optional[Sequence[Sequence[_Cell]]] = None,
        entropic_lines: Optional[Sequence[Sequence[_Cell]]] = None,
        modular_lines: Optional[Sequence[Sequence[_Cell]]] = None,
        slow_thermometers: Optional[Sequence[Sequence[_Cell]]] = None,
        double_arrows: Optional[Sequence[Sequence[_Cell]]] = None,
        lockout_lines: Optional[Sequence[Sequence[_Cell]]] = None,
        nabner_lines: Optional[Sequence[Sequence[_Cell]]] = None,
        row_indexers: Optional[Sequence[_Cell]] = None,
        column_indexers: Optional[Sequence[_Cell]] = None,
        box_indexers: Optional[Sequence[_Cell]] = None,
    ) -> Rules: ...
    @staticmethod
    def classic() -> Rules: ...
    @staticmethod
    def x() -> Rules: ...
    @staticmethod
    def windoku() -> Rules: ...
    @staticmethod
    def jigsaw(
        regions: Union[Sequence[Sequence[int]], Sequence[str], npt.NDArray[Any]], /
    ) -> Rules: ...
    @staticmethod
    def killer(cages: Sequence[Tuple[Optional[int], Sequence[_Cell]]], /) -> Rules: ...
    @property
    def diagonals(self) -> bool: ...
    @property
    def windows(self) -> bool: ...
    @property
    def regions(self) -> Optional[List[List[int]]]: ...
    @property
    def extra_regions(self) -> Tuple[Tuple[_Cell, ...], ...]: ...
    @property
    def anti_knight(self) -> bool: ...
    @property
    def anti_king(self) -> bool: ...
    @property
    def non_consecutive(self) -> bool: ...
    @property
    def cages(self) -> Tuple[Tuple[Optional[int], Tuple[_Cell, ...]], ...]: ...
    @property
    def main_diagonal(self) -> bool: ...
    @property
    def anti_diagonal(self) -> bool: ...
    @property
    def disjoint_groups(self) -> bool: ...
    @property
    def little_killers(self) -> Tuple[Tuple[int, _Cell, str], ...]: ...
    @property
    def thermometers(self) -> Tuple[Tuple[_Cell, ...], ...]: ...
    @property
    def arrows(self) -> Tuple[Tuple[Tuple[_Cell, ...], Tuple[_Cell, ...]], ...]: ...
    @property
    def xv(self) -> Tuple[Tuple[_Cell, _Cell, str], ...]: ...
    @property
    def differences(self) -> Tuple[Tuple[_Cell, _Cell, int], ...]: ...
    @property
    def ratios(self) -> Tuple[Tuple[_Cell, _Cell, int], ...]: ...
    @property
    def negative_xv(self) -> bool: ...
    @property
    def negative_ratio(self) -> bool: ...
    @property
    def sandwiches(self) -> Tuple[Tuple[int, _Cell], ...]: ...
    @property
    def whispers(self) -> Tuple[Tuple[Tuple[_Cell, ...], Optional[int]], ...]: ...
    @property
    def renbans(self) -> Tuple[Tuple[_Cell, ...], ...]: ...
    @property
    def palindromes(self) -> Tuple[Tuple[_Cell, ...], ...]: ...
    @property
    def between_lines(self) -> Tuple[Tuple[_Cell, ...], ...]: ...
    @property
    def odd_cells(self) -> Tuple[_Cell, ...]: ...
    @property
    def even_cells(self) -> Tuple[_Cell, ...]: ...
    @property
    def minimum_cells(self) -> Tuple[_Cell, ...]: ...
    @property
    def maximum_cells(self) -> Tuple[_Cell, ...]: ...
    @property
    def quadruples(self) -> Tuple[Tuple[_Cell, Tuple[int, ...]], ...]: ...
    @property
    def clones(self) -> Tuple[Tuple[Tuple[_Cell, ...], Tuple[_Cell, ...]], ...]: ...
    @property
    def x_sums(self) -> Tuple[Tuple[int, _Cell], ...]: ...
    @property
    def skyscrapers(self) -> Tuple[Tuple[int, _Cell], ...]: ...
    @property
    def pencil_marks(self) -> Tuple[Tuple[_Cell, Tuple[int, ...]], ...]: ...
    @property
    def zipper_lines(self) -> Tuple[Tuple[_Cell, ...], ...]: ...
    @property
    def region_sum_lines(self) -> Tuple[Tuple[_Cell, ...], ...]: ...
    @property
    def entropic_lines(self) -> Tuple[Tuple[_Cell, ...], ...]: ...
    @property
    def modular_lines(self) -> Tuple[Tuple[_Cell, ...], ...]: ...
    @property
    def slow_thermometers(self) -> Tuple[Tuple[_Cell, ...], ...]: ...
    @property
    def double_arrows(self) -> Tuple[Tuple[_Cell, ...], ...]: ...
    @property
    def lockout_lines(self) -> Tuple[Tuple[_Cell, ...], ...]: ...
    @property
    def nabner_lines(self) -> Tuple[Tuple[_Cell, ...], ...]: ...
    @property
    def row_indexers(self) -> Tuple[_Cell, ...]: ...
    @property
    def column_indexers(self) -> Tuple[_Cell, ...]: ...
    @property
    def box_indexers(self) -> Tuple[_Cell, ...]: ...
    @property
    def kinds(self) -> List[str]: ...
    @property
    def size(self) -> Optional[int]: ...
    @property
    def is_classic(self) -> bool: ...
    def _box_arg(self, box: Tuple[int, int], /) -> Optional[Tuple[int, int]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __getnewargs_ex__(self) -> Tuple[Tuple[()], Dict[str, Any]]: ...

@final
class Puzzle:
    """A grid with its rules and what was published with it."""

    def __new__(
        cls,
        grid: _GridLike,
        /,
        *,
        rules: Optional[Rules] = None,
        title: Optional[str] = None,
        author: Optional[str] = None,
        rules_text: Optional[str] = None,
        solution: Optional[_GridLike] = None,
    ) -> Puzzle: ...
    @staticmethod
    def from_url(link: str, /) -> Puzzle: ...
    @staticmethod
    def from_fpuzzles(data: Union[str, Dict[str, Any]], /) -> Puzzle: ...
    def to_fpuzzles(self) -> Dict[str, Any]: ...
    def to_url(self, site: Literal["f-puzzles", "sudokupad"] = "f-puzzles") -> str: ...
    @property
    def grid(self) -> List[List[int]]: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def size(self) -> int: ...
    @property
    def box(self) -> Optional[Tuple[int, int]]: ...
    @property
    def title(self) -> Optional[str]: ...
    @property
    def author(self) -> Optional[str]: ...
    @property
    def rules_text(self) -> Optional[str]: ...
    @property
    def solution(self) -> Optional[List[List[int]]]: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __reduce__(self) -> Tuple[Any, Tuple[str]]: ...

# Constants the core owns (see src/bindings/constants.rs).
STATUSES: List[Tuple[str, int, str]]
DIFFICULTY_LABELS: List[str]
LEVEL_LABELS: List[str]
CELL_CHARS: str
MAX_TEXT_SIZE: int
TRACE_PAD: int
TRACE_PLACE: int
TRACE_GUESS: int
TRACE_BACKTRACK: int
TRACE_DEAD_END: int
TRACE_SOLVED: int
TRACE_NO_SOLUTION: int
TRACE_ELIMINATE: int
TRACE_TECHNIQUE: int
TRACE_ROW: int
TRACE_COLUMN: int
TRACE_DIGIT: int
TRACE_VOCABULARY_SIZE: int

@overload
def solve(
    grid: Puzzle,
    /,
    *,
    box: None = None,
    max_guesses: Optional[int] = None,
    rules: None = None,
    candidates: _MarksArg = None,
) -> List[List[int]]: ...
@overload
def solve(
    grid: _G,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    max_guesses: Optional[int] = None,
    rules: Optional[Rules] = None,
    candidates: _MarksArg = None,
) -> _G: ...
@overload
def solutions(
    grid: Puzzle,
    /,
    *,
    limit: Optional[int] = 10,
    box: None = None,
    max_guesses: Optional[int] = None,
    rules: None = None,
) -> List[List[List[int]]]: ...
@overload
def solutions(
    grid: _G,
    /,
    *,
    limit: Optional[int] = 10,
    box: Optional[Tuple[int, int]] = None,
    max_guesses: Optional[int] = None,
    rules: Optional[Rules] = None,
) -> List[_G]: ...

@final
class SolutionIterator(Generic[_G]):
    def __iter__(self) -> SolutionIterator[_G]: ...
    def __next__(self) -> _G: ...

@overload
def iter_solutions(
    grid: Puzzle,
    /,
    *,
    limit: Optional[int] = None,
    box: None = None,
    max_guesses: Optional[int] = None,
    rules: None = None,
) -> SolutionIterator[List[List[int]]]: ...
@overload
def iter_solutions(
    grid: _G,
    /,
    *,
    limit: Optional[int] = None,
    box: Optional[Tuple[int, int]] = None,
    max_guesses: Optional[int] = None,
    rules: Optional[Rules] = None,
) -> SolutionIterator[_G]: ...
def count_solutions(
    grid: Union[_GridLike, Puzzle],
    /,
    *,
    limit: Optional[int] = None,
    box: Optional[Tuple[int, int]] = None,
    max_guesses: Optional[int] = None,
    rules: Optional[Rules] = None,
    candidates: _MarksArg = None,
) -> int: ...
def is_unique(
    grid: Union[_GridLike, Puzzle],
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    max_guesses: Optional[int] = None,
    rules: Optional[Rules] = None,
    candidates: _MarksArg = None,
) -> bool: ...
def is_valid(
    grid: Union[_GridLike, Puzzle],
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    rules: Optional[Rules] = None,
) -> bool: ...

@final
class Transform:
    """A validity-preserving transform of n x n grids: rows and columns reordered band by band
    and stack by stack, digits relabelled, and (square boxes only) a transpose."""

    def __new__(
        cls,
        rows: Sequence[int],
        cols: Sequence[int],
        digits: Sequence[int],
        *,
        transpose: bool = False,
        box: Optional[Tuple[int, int]] = None,
    ) -> Transform: ...
    @staticmethod
    def identity(size: int = 9, *, box: Optional[Tuple[int, int]] = None) -> Transform: ...
    @staticmethod
    def random(
        size: int = 9,
        *,
        box: Optional[Tuple[int, int]] = None,
        seed: Optional[int] = None,
        index: int = 0,
    ) -> Transform: ...
    @staticmethod
    def to_canonical(grid: _GridLike, /, *, box: Optional[Tuple[int, int]] = None) -> Transform: ...
    @property
    def size(self) -> int: ...
    @property
    def box(self) -> Tuple[int, int]: ...
    @property
    def rows(self) -> Tuple[int, ...]: ...
    @property
    def cols(self) -> Tuple[int, ...]: ...
    @property
    def digits(self) -> Tuple[int, ...]: ...
    @property
    def transpose(self) -> bool: ...
    def apply(self, grid: _G, /) -> _G: ...
    def inverse(self) -> Transform: ...
    def then(self, other: Transform, /) -> Transform: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...
    def __getnewargs_ex__(
        self,
    ) -> Tuple[Tuple[List[int], List[int], List[int]], Dict[str, Any]]: ...

def canonical(grid: _G, /, *, box: Optional[Tuple[int, int]] = None) -> _G: ...

# A batch comes back in its kind: an integer array of its dtype, else a list of strings.
@overload
def augment_batch(
    puzzles: npt.NDArray[_I],
    solutions: None = None,
    /,
    *,
    seed: Optional[int] = None,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> npt.NDArray[_I]: ...
@overload
def augment_batch(
    puzzles: npt.NDArray[_I],
    solutions: npt.NDArray[_J],
    /,
    *,
    seed: Optional[int] = None,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Tuple[npt.NDArray[_I], npt.NDArray[_J]]: ...
@overload
def augment_batch(
    puzzles: Union[Sequence[Optional[str]], Any],
    solutions: None = None,
    /,
    *,
    seed: Optional[int] = None,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> List[Optional[str]]: ...
@overload
def augment_batch(
    puzzles: Union[Sequence[Optional[str]], Any],
    solutions: Any,
    /,
    *,
    seed: Optional[int] = None,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Tuple[Any, Any]: ...

# Batches are compiled: the public ones here, and the private ones whose columns the package
# shapes into records take the puzzles and progress= as given.
def _check_batch_shape(dims: Sequence[Optional[int]]) -> None: ...
def _decode_onehot(
    onehot: npt.NDArray[np.unsignedinteger[Any]],
    /,
    n: int,
    one: int,
    threads: Optional[int] = None,
) -> Tuple[Optional[npt.NDArray[np.uint8]], int]: ...
def _encode_onehot(
    cells: npt.NDArray[np.uint8],
    out: npt.NDArray[np.unsignedinteger[Any]],
    /,
    n: int,
    one: int,
    threads: Optional[int] = None,
) -> int: ...
def _class_keys(
    cells: npt.NDArray[np.uint8], /, box: Tuple[int, int]
) -> npt.NDArray[np.uint64]: ...
def _encode_moves(
    moves: npt.NDArray[np.integer[Any]], /, n: int, threads: Optional[int] = None
) -> Tuple[Optional[npt.NDArray[np.int32]], int]: ...
def _decode_moves(
    ids: npt.NDArray[np.integer[Any]], /, n: int, threads: Optional[int] = None
) -> Tuple[Optional[npt.NDArray[np.int32]], int]: ...
def _batch_cells(
    puzzles: Any, /, *, box: Optional[Tuple[int, int]] = None, name: str = "puzzles"
) -> Tuple[npt.NDArray[np.uint8], int]: ...

# status=True adds the int8 Status codes.
@overload
def solve_batch(
    puzzles: npt.NDArray[_I],
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    max_guesses: Optional[int] = None,
    status: Literal[False] = False,
    rules: Optional[Rules] = None,
) -> npt.NDArray[_I]: ...
@overload
def solve_batch(
    puzzles: npt.NDArray[_I],
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    max_guesses: Optional[int] = None,
    status: Literal[True],
    rules: Optional[Rules] = None,
) -> Tuple[npt.NDArray[_I], npt.NDArray[np.int8]]: ...
@overload
def solve_batch(
    puzzles: Union[Sequence[Optional[str]], Any],
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    max_guesses: Optional[int] = None,
    status: Literal[False] = False,
    rules: Optional[Rules] = None,
) -> List[Optional[str]]: ...
@overload
def solve_batch(
    puzzles: Union[Sequence[Optional[str]], Any],
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    max_guesses: Optional[int] = None,
    status: Literal[True],
    rules: Optional[Rules] = None,
) -> Tuple[List[Optional[str]], npt.NDArray[np.int8]]: ...
@overload
def solve_batch(
    puzzles: Any,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    max_guesses: Optional[int] = None,
    status: bool = False,
    rules: Optional[Rules] = None,
) -> Any: ...
@overload
def count_solutions_batch(
    puzzles: Any,
    /,
    *,
    limit: Optional[int] = 2,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    max_guesses: Optional[int] = None,
    status: Literal[False] = False,
    rules: Optional[Rules] = None,
) -> npt.NDArray[np.int64]: ...
@overload
def count_solutions_batch(
    puzzles: Any,
    /,
    *,
    limit: Optional[int] = 2,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    max_guesses: Optional[int] = None,
    status: Literal[True],
    rules: Optional[Rules] = None,
) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.int8]]: ...
@overload
def count_solutions_batch(
    puzzles: Any,
    /,
    *,
    limit: Optional[int] = 2,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    max_guesses: Optional[int] = None,
    status: bool = False,
    rules: Optional[Rules] = None,
) -> Union[npt.NDArray[np.int64], Tuple[npt.NDArray[np.int64], npt.NDArray[np.int8]]]: ...

# status=True adds the int8 Status codes; rows that could not be filled come back unchanged.
@overload
def fill_from_solution(
    puzzles: npt.NDArray[_I],
    solutions: Optional[Any] = None,
    *,
    empty: Optional[int] = None,
    clues: Optional[int] = None,
    seed: int = 0,
    unique: bool = False,
    status: Literal[False] = False,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> npt.NDArray[_I]: ...
@overload
def fill_from_solution(
    puzzles: npt.NDArray[_I],
    solutions: Optional[Any] = None,
    *,
    empty: Optional[int] = None,
    clues: Optional[int] = None,
    seed: int = 0,
    unique: bool = False,
    status: Literal[True],
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Tuple[npt.NDArray[_I], npt.NDArray[np.int8]]: ...
@overload
def fill_from_solution(
    puzzles: Union[Sequence[str], Any],
    solutions: Optional[Any] = None,
    *,
    empty: Optional[int] = None,
    clues: Optional[int] = None,
    seed: int = 0,
    unique: bool = False,
    status: Literal[False] = False,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> List[str]: ...
@overload
def fill_from_solution(
    puzzles: Union[Sequence[str], Any],
    solutions: Optional[Any] = None,
    *,
    empty: Optional[int] = None,
    clues: Optional[int] = None,
    seed: int = 0,
    unique: bool = False,
    status: Literal[True],
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Tuple[List[str], npt.NDArray[np.int8]]: ...
@overload
def fill_from_solution(
    puzzles: Any,
    solutions: Optional[Any] = None,
    *,
    empty: Optional[int] = None,
    clues: Optional[int] = None,
    seed: int = 0,
    unique: bool = False,
    status: bool = False,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Any: ...
def solutions_batch(
    puzzles: Any,
    limit: int = 10,
    *,
    rules: Optional[Rules] = None,
    box: Optional[Tuple[int, int]] = None,
    max_guesses: Optional[int] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]: ...
@overload
def canonical_batch(
    puzzles: npt.NDArray[_I],
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> npt.NDArray[_I]: ...
@overload
def canonical_batch(
    puzzles: Union[Sequence[Optional[str]], Any],
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> List[Optional[str]]: ...
def _parse_lines(
    data: bytes,
    /,
    *,
    column: int = 0,
    first_line: int = 1,
    size: int = 0,
    box: Optional[Tuple[int, int]] = None,
    rules: Optional[Rules] = None,
    marks: bool = False,
) -> Tuple[npt.NDArray[np.uint8], List[int], List[Tuple[int, str]], int, List[Tuple[int, str]]]: ...
def _format_lines(
    cells: bytes, /, *, size: int, blank: str = ".", gaps: Optional[bytes] = None
) -> bytes: ...
def _read_grid(
    grid: _GridLike, /, *, box: Optional[Tuple[int, int]] = None, rules: Optional[Rules] = None
) -> Tuple[npt.NDArray[np.uint8], Tuple[int, int]]: ...
def _conflicts(
    grid: _GridLike, /, *, box: Optional[Tuple[int, int]] = None, rules: Optional[Rules] = None
) -> npt.NDArray[np.bool_]: ...
def _apply_step(
    grid: _GridLike,
    candidates: Union[npt.NDArray[np.bool_], str],
    placements: Sequence[Tuple[int, int, int]],
    eliminations: Sequence[Tuple[int, int, int]],
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
) -> Tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]: ...

# Private generator, rating and checking entry points; the public wrappers live in
# _generate.py and _rate.py.
def _generate(
    *,
    seed: Optional[int] = None,
    clues: Optional[int] = None,
    size: Optional[int] = None,
    box: Optional[Tuple[int, int]] = None,
    symmetry: Optional[str] = None,
    minimal: bool = False,
    rules: Optional[Rules] = None,
    level: Optional[str] = None,
    techniques: Optional[Iterable[str]] = None,
    difficulty: Optional[str] = None,
) -> str: ...
def generate_batch(
    count: int,
    *,
    clues: Optional[int] = None,
    size: Optional[int] = None,
    box: Optional[Tuple[int, int]] = None,
    seed: Optional[int] = None,
    symmetry: Optional[str] = None,
    minimal: bool = False,
    level: Optional[str] = None,
    techniques: Optional[Iterable[str]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    rules: Optional[Rules] = None,
    difficulty: Optional[str] = None,
) -> npt.NDArray[np.uint8]: ...
def _rate(
    grid: _GridLike, /, *, box: Optional[Tuple[int, int]] = None
) -> Tuple[int, int, bool, bool, str]: ...
def _se_rate(
    grid: _GridLike,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    candidates: _MarksArg = None,
    time_limit: Optional[float] = None,
) -> Tuple[int, int, int]: ...
def se_rate_batch(
    puzzles: Any,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    time_limit: Optional[float] = None,
    rules: Any = None,
) -> npt.NDArray[np.void]: ...
def rate_batch(
    puzzles: Any,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> npt.NDArray[np.void]: ...
def check_batch(
    puzzles: Any,
    answers: Any,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    unique: bool = False,
    threads: Optional[int] = None,
    progress: bool = False,
) -> npt.NDArray[np.void]: ...
def score_batch(
    puzzles: Any,
    answers: Any,
    /,
    *,
    solutions: Any = None,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> npt.NDArray[np.void]: ...

# Reading replies (src/bindings/answer.rs); parse_answer's wrapper and Answers are in _llm.py.
def _parse_answer(
    text: str, /, size: int = 9
) -> Tuple[str, Optional[npt.NDArray[np.uint8]], List[Tuple[int, int, int]]]: ...
def parse_answer_batch(
    texts: Sequence[str],
    /,
    size: int = 9,
    *,
    threads: Optional[int] = None,
    progress: bool = False,
) -> Answers: ...
def _answer_grids(answers: Answers, /) -> Tuple[npt.NDArray[np.uint8], npt.NDArray[np.bool_]]: ...

# Private logic entry points; the public wrappers live in _logic.py.
_StepTuple = Tuple[
    str,
    List[Tuple[int, int, int]],
    List[Tuple[int, int, int]],
    List[Tuple[int, int]],
    List[Tuple[str, int]],
    List[int],
    str,
    int,
]
_GradeTuple = Tuple[Optional[str], int, str, bool, bool]
_MarksArg = Union[npt.NDArray[Any], str, Sequence[Any], None]

def _candidates(
    grid: _GridLike, /, *, box: Optional[Tuple[int, int]] = None
) -> npt.NDArray[np.bool_]: ...
def candidates_batch(
    puzzles: Any,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> npt.NDArray[np.bool_]: ...
def _format_candidates(marks: npt.NDArray[np.bool_]) -> str: ...
def _parse_candidates(text: str) -> npt.NDArray[np.bool_]: ...
def _hint(
    grid: _GridLike,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    techniques: Optional[Iterable[str]] = None,
    candidates: _MarksArg = None,
    max_guesses: Optional[int] = None,
) -> Optional[_StepTuple]: ...
def _explain(
    grid: _GridLike,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    techniques: Optional[Iterable[str]] = None,
    candidates: _MarksArg = None,
    max_guesses: Optional[int] = None,
) -> Tuple[List[_StepTuple], _GradeTuple, List[Tuple[int, int]], npt.NDArray[np.bool_]]: ...
def _grade(
    grid: _GridLike,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    techniques: Optional[Iterable[str]] = None,
    candidates: _MarksArg = None,
    max_guesses: Optional[int] = None,
) -> _GradeTuple: ...
def _techniques() -> List[Tuple[str, int, str]]: ...
def grade_batch(
    puzzles: Any,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    techniques: Optional[Iterable[str]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> npt.NDArray[np.void]: ...
@overload
def explain_batch(
    puzzles: Any,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    techniques: Optional[Iterable[str]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    tokens: Literal[False] = False,
    states: Literal[False] = False,
) -> Traces: ...
@overload
def explain_batch(
    puzzles: Any,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    techniques: Optional[Iterable[str]] = None,
    threads: Optional[int] = None,
    progress: bool = False,
    tokens: Literal[True],
    states: bool = False,
) -> LogicTraces: ...

# The environments of sudoku_rs.env (env.py): one batch, stepped in one call.
_EnvArrays = Tuple[
    npt.NDArray[np.uint8],
    npt.NDArray[np.int8],
    Optional[npt.NDArray[np.int8]],
    npt.NDArray[np.float64],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    npt.NDArray[np.int64],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    npt.NDArray[np.int64],
]

@final
class _EnvBatch:
    def __new__(
        cls,
        count: int,
        *,
        puzzles: Optional[npt.NDArray[np.uint8]] = None,
        size: Optional[int] = None,
        box: Optional[Tuple[int, int]] = None,
        rules: Optional[Rules] = None,
        level: Optional[str] = None,
        clues: Optional[int] = None,
        on_invalid: str = "mask",
        rewards: Sequence[float] = ...,
        max_steps: int = 1,
        undo: bool = False,
        candidates: bool = False,
    ) -> _EnvBatch: ...
    def reset(
        self, seeds: Sequence[Optional[int]], puzzle: Optional[Sequence[int]] = None
    ) -> _EnvArrays: ...
    def step(self, actions: npt.NDArray[np.integer[Any]]) -> _EnvArrays: ...
    def action_masks(self) -> npt.NDArray[np.bool_]: ...
    def sample_legal_actions(self, seed: Optional[int] = None) -> npt.NDArray[np.int64]: ...
    def solutions(self) -> npt.NDArray[np.uint8]: ...
    @property
    def box(self) -> Tuple[int, int]: ...

# Search traces and logical steps as token ids (src/bindings/trace.rs); search_trace's public
# wrapper and the batches' result classes are in _trace.py.
def _search_trace(
    grid: Any,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    max_guesses: Optional[int] = None,
    rules: Optional[Rules] = None,
) -> npt.NDArray[np.uint8]: ...
def search_trace_batch(
    puzzles: Any,
    /,
    *,
    rules: Optional[Rules] = None,
    box: Optional[Tuple[int, int]] = None,
    max_guesses: Optional[int] = None,
    threads: Optional[int] = None,
    progress: bool = False,
) -> SearchTraces: ...
def logic_trace_batch(
    puzzles: Any,
    /,
    *,
    box: Optional[Tuple[int, int]] = None,
    techniques: Optional[Iterable[str]] = None,
    states: bool = False,
    threads: Optional[int] = None,
    progress: bool = False,
) -> LogicTraces: ...
