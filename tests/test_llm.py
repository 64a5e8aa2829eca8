"""Language-model evaluation: sr.to_prompt, sr.parse_answer(_batch) and sr.score_batch against
plain Python references."""

import contextlib
import random
import time

import numpy as np
import pytest
import reference as ref
from helpers import LEETCODE, random_full_grid, two_solution_puzzle

import sudoku_rs as sr

SOLUTION = "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def cells(line):
    return [0 if ch == "." else int(ch) for ch in line]


def grid_of(line):
    return np.array(cells(line), dtype=np.uint8).reshape(9, 9)


# --- to_prompt ---------------------------------------------------------------------------


def test_prompt_styles_of_a_classic_grid():
    text = sr.to_prompt(PUZZLE)
    lines = text.splitlines()
    assert lines[0] == "5 3 . | . 7 . | . . ."
    assert lines[3] == "------+-------+------"
    assert len(lines) == 11
    assert sr.to_prompt(PUZZLE, "line") == PUZZLE
    givens = sr.to_prompt(PUZZLE, "givens").splitlines()
    assert givens[:3] == ["r1c1=5", "r1c2=3", "r1c5=7"]
    assert len(givens) == sum(ch != "." for ch in PUZZLE)
    with pytest.raises(ValueError, match="style"):
        sr.to_prompt(PUZZLE, "fancy")  # type: ignore[arg-type]


@pytest.mark.parametrize(("n", "box"), [(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (16, (4, 4))])
@pytest.mark.parametrize("style", ["grid", "line"])
def test_every_prompt_style_reads_back(n, box, style):
    rng = random.Random(n)
    grid = np.array(random_full_grid(n, *box, rng), dtype=np.uint8)
    grid[rng.sample(range(n * n), n)] = 0
    text = sr.to_prompt(grid.reshape(n, n), style, box=box)
    got = sr.parse_answer(text, n)
    assert got.kind == "grid"
    assert got.grid.tolist() == grid.reshape(n, n).tolist()


def test_givens_of_a_big_grid_use_two_digit_numbers():
    rng = random.Random(3)
    grid = np.array(random_full_grid(16, 4, 4, rng), dtype=np.uint8).reshape(16, 16)
    text = sr.to_prompt(grid, "givens")
    assert "r16c16=" in text
    moves = sr.parse_answer(text, 16).moves
    assert len(moves) == 256
    assert all(grid[r, c] == d for r, c, d in moves)


# --- parse_answer ------------------------------------------------------------------------


def boxed(line):
    return sr.to_prompt(line)


@pytest.mark.parametrize(
    "text",
    [
        SOLUTION,
        boxed(SOLUTION),
        boxed(SOLUTION).replace(" ", "").replace("|", ""),
        f"Sure! The solved puzzle is {SOLUTION}.",
        f"Reasoning first.\n\nFinal grid:\n{boxed(SOLUTION)}\nHope it helps.",
        f"```\n{boxed(SOLUTION)}\n```",
        f"<think>{PUZZLE}</think>\n<Answer>\n{boxed(SOLUTION)}\n</ANSWER>",
        f"<answer>{'1' * 81}</answer> wait, no: <answer>{SOLUTION}</answer>",
        str([[int(ch) for ch in SOLUTION[r * 9 : r * 9 + 9]] for r in range(9)]),
        boxed(SOLUTION).replace("|", "│").replace("-", "─").replace("+", "┼"),
        boxed(SOLUTION).replace("\n", "\r\n"),
    ],
)
def test_grids_in_the_shapes_models_write(text):
    answer = sr.parse_answer(text)
    assert answer.kind == "grid" and answer.moves == ()
    assert answer.grid.dtype == np.uint8
    assert answer.grid.tolist() == grid_of(SOLUTION).tolist()


def test_a_partial_grid_keeps_its_blanks():
    assert sr.parse_answer(PUZZLE).grid.tolist() == grid_of(PUZZLE).tolist()
    zeros = PUZZLE.replace(".", "0")
    assert sr.parse_answer(boxed(zeros)).grid.tolist() == grid_of(PUZZLE).tolist()


def test_moves_come_back_as_moves():
    answer = sr.parse_answer("First r3c6: 5, then R3C7=1; finally r9c9 -> 9.")
    assert answer.kind == "moves" and answer.grid is None
    assert answer.moves == ((2, 5, 5), (2, 6, 1), (8, 8, 9))
    placed = answer.as_grid(PUZZLE)
    assert placed[2, 5] == 5 and placed[0, 0] == 5
    big = sr.parse_answer("r12c16: 13\nr1c1=16", 16)
    assert big.moves == ((11, 15, 13), (0, 0, 16))


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("I could not solve it.", "no 9x9 grid"),
        (SOLUTION[:80], "80 cells"),
        ("<answer>   </answer>", "empty"),
        ("r10c1=5", "outside a 9x9 grid"),
        ("r1c1=0", "outside"),
    ],
)
def test_unreadable_replies_say_why(text, why):
    with pytest.raises(ValueError, match=why):
        sr.parse_answer(text)


def test_bad_arguments():
    with pytest.raises(TypeError, match="str"):
        sr.parse_answer(b"123")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        sr.parse_answer(SOLUTION, 7)


def test_ten_megabytes_of_noise_fail_fast():
    rng = random.Random(1)
    alphabet = "0123456789.|-+ \nabcrRcC<>/`=:answer"
    noise = "".join(rng.choices(alphabet, k=1 << 16)) * 160
    assert len(noise) >= 10_000_000
    for text in (noise, "<answer>" + noise, "```" + noise, "7" * 10_000_000, "r1c" * 3_000_000):
        start = time.perf_counter()
        with contextlib.suppress(ValueError):
            sr.parse_answer(text)
        assert time.perf_counter() - start < 5.0


def test_batch_matches_one_by_one():
    texts = [
        SOLUTION,
        boxed(PUZZLE),
        "r1c3=4 r1c4: 6",
        "nothing here",
        f"<answer>{SOLUTION}</answer>",
        "R9C9=9",
    ] * 50
    batch = sr.parse_answer_batch(texts, threads=2)
    assert len(batch) == len(texts)
    assert batch.grids.shape == (len(texts), 9, 9)
    assert batch.offsets[-1] == len(batch.moves)
    for i, text in enumerate(texts):
        try:
            one = sr.parse_answer(text)
        except ValueError as err:
            assert batch.kind[i] == "error" and batch.errors[i] == str(err)
            continue
        assert batch.kind[i] == one.kind and batch.errors[i] is None
        if one.kind == "grid":
            assert batch.grids[i].tolist() == one.grid.tolist()
        else:
            assert [tuple(m) for m in batch.moves_of(i).tolist()] == list(one.moves)
    empty = sr.parse_answer_batch([])
    assert len(empty) == 0 and empty.moves.shape == (0, 3)
    with pytest.raises(TypeError, match=r"texts\[1\]"):
        sr.parse_answer_batch(["x", 3])  # type: ignore[list-item]


# --- score_batch -------------------------------------------------------------------------


def py_score(puzzle, answer, n=9, box=(3, 3)):
    """The score_batch row by plain Python."""
    pairs = ref.conflicts(answer, n, *box)
    conflict_cells = len({i for pair in pairs for i in pair})
    units = set()
    for i, j in pairs:
        (ri, ci), (rj, cj) = divmod(i, n), divmod(j, n)
        if ri == rj:
            units.add(("row", ri))
        if ci == cj:
            units.add(("col", ci))
        if (ri // box[0], ci // box[1]) == (rj // box[0], cj // box[1]):
            units.add(("box", ri // box[0], ci // box[1]))
    complete = all(answer)
    keeps = all(p == 0 or p == a for p, a in zip(puzzle, answer))
    solutions = (
        list(ref.iter_solutions(puzzle, n, *box)) if not ref.conflicts(puzzle, n, *box) else []
    )
    unique = solutions[0] if len(solutions) == 1 else None
    matching = -1 if unique is None else sum(a != 0 and a == s for a, s in zip(answer, unique))
    merged = [a or p for a, p in zip(answer, puzzle)]
    changed = any(p and a and p != a for p, a in zip(puzzle, answer))
    completable = (
        not changed
        and not ref.conflicts(merged, n, *box)
        and any(all(m == 0 or m == s for m, s in zip(merged, sol)) for sol in solutions)
    )
    solved = complete and keeps and not pairs
    exact = unique is not None and list(answer) == unique
    return (True, complete, keeps, conflict_cells, len(units), matching, completable, solved, exact)


def score_cases():
    rng = random.Random(11)
    out = []
    for puzzle in sr.generate_batch(5, seed=3, clues=30):
        puzzle = puzzle.ravel().tolist()
        solution = ref.solve_first(puzzle, 9, 3, 3)
        blanks = [i for i, v in enumerate(puzzle) if v == 0]
        clues = [i for i, v in enumerate(puzzle) if v != 0]
        out.append((puzzle, solution))
        out.append((puzzle, puzzle))  # nothing filled in
        partial = list(solution)
        for i in rng.sample(blanks, 20):
            partial[i] = 0
        out.append((puzzle, partial))  # right so far
        wrong = list(partial)
        i = next(i for i in blanks if wrong[i] != 0)
        wrong[i] = wrong[i] % 9 + 1
        out.append((puzzle, wrong))  # a wrong digit, maybe a clash
        changed = list(solution)
        changed[rng.choice(clues)] = 0
        out.append((puzzle, changed))  # a clue dropped
        out.append((puzzle, [v % 9 + 1 for v in solution]))  # valid, clues lost
        out.append((puzzle, random_full_grid(9, 3, 3, rng)))
        noisy = [rng.randrange(10) for _ in range(81)]
        out.append((puzzle, noisy))
    solution = ref.solve_first(LEETCODE, 9, 3, 3)
    two = two_solution_puzzle(solution, 9, 3, 3)
    other = next(s for s in ref.iter_solutions(two, 9, 3, 3) if s != solution)
    half = [v if i % 2 else 0 for i, v in enumerate(other)]
    out += [(two, solution), (two, other), (two, half), (two, two)]
    return out


def test_scores_agree_with_plain_python():
    pairs = score_cases()
    puzzles = np.array([p for p, _ in pairs], dtype=np.uint8)
    answers = np.array([a for _, a in pairs], dtype=np.int16)
    result = sr.score_batch(puzzles, answers, threads=2)
    assert result.dtype.names == (
        "well_formed",
        "complete",
        "keeps_clues",
        "conflict_cells",
        "conflict_units",
        "matching_cells",
        "completable",
        "solved",
        "exact",
    )
    for (puzzle, answer), row in zip(pairs, result.tolist()):
        assert row == py_score(puzzle, answer), (ref.to_string(puzzle), ref.to_string(answer))
    for field in result.dtype.names[1:]:
        assert len(set(result[field].tolist())) > 1, field
    # The same checker as check_batch: solved is valid and keeps_clues.
    check = sr.check_batch(puzzles, answers)
    assert (result["solved"] == (check["valid"] & check["keeps_clues"])).all()


def test_given_solutions_give_the_same_scores_on_unique_puzzles():
    pairs = [(p, a) for p, a in score_cases() if ref.count_solutions(p, 9, 3, 3, limit=2) == 1]
    puzzles = np.array([p for p, _ in pairs], dtype=np.uint8)
    answers = np.array([a for _, a in pairs], dtype=np.uint8)
    solutions = sr.solve_batch(puzzles)
    searched = sr.score_batch(puzzles, answers)
    given = sr.score_batch(puzzles, answers, solutions=solutions)
    assert given.tolist() == searched.tolist()
    strings = [ref.to_string(a) for a in answers]
    assert sr.score_batch(puzzles, strings, solutions=solutions).tolist() == given.tolist()


def test_scoring_parsed_replies():
    solution = cells(SOLUTION)
    blank_moves = [i for i, ch in enumerate(PUZZLE) if ch == "."]
    moves_text = " ".join(f"r{i // 9 + 1}c{i % 9 + 1}={solution[i]}" for i in blank_moves[:5])
    texts = [
        f"<answer>{SOLUTION}</answer>",
        moves_text,
        moves_text + " r1c1=9",  # overwrites a clue
        "no idea",
        boxed(PUZZLE),
    ]
    parsed = sr.parse_answer_batch(texts)
    puzzles = [PUZZLE] * len(texts)
    result = sr.score_batch(puzzles, parsed)
    assert result["well_formed"].tolist() == [True, True, True, False, True]
    assert result["exact"].tolist() == [True, False, False, False, False]
    assert result["completable"].tolist() == [True, True, False, False, True]
    assert result["keeps_clues"].tolist() == [True, True, False, False, True]
    clues = sum(ch != "." for ch in PUZZLE)
    assert result["matching_cells"].tolist() == [81, clues + 5, clues + 4, 0, clues]


def test_bad_rows_raise_naming_the_row():
    puzzles = [PUZZLE, PUZZLE]
    with pytest.raises(sr.InvalidPuzzleError, match=r"answers\[1\]"):
        sr.score_batch(puzzles, [SOLUTION, SOLUTION[:80]])
    with pytest.raises(sr.InvalidPuzzleError, match=r"puzzles\[0\]"):
        sr.score_batch([PUZZLE[:79], PUZZLE], [SOLUTION, SOLUTION])
    with pytest.raises(ValueError, match="2 puzzles but 1 answers"):
        sr.score_batch(puzzles, [SOLUTION])
    with pytest.raises(ValueError, match="do not fit"):
        sr.score_batch(puzzles, np.zeros((2, 16), dtype=np.uint8))
    with pytest.raises(sr.InvalidPuzzleError, match=r"answers\[0\]"):
        sr.score_batch([PUZZLE], np.full((1, 81), 10, dtype=np.uint8))
    with pytest.raises(sr.InvalidPuzzleError, match=r"solutions\[0\]"):
        sr.score_batch([PUZZLE], [SOLUTION], solutions=[SOLUTION[:3]])


def test_scores_on_other_sizes():
    rng = random.Random(2)
    for n, box in [(4, (2, 2)), (6, (2, 3)), (16, (4, 4))]:
        full = random_full_grid(n, *box, rng)
        puzzle = [0 if rng.random() < 0.4 else v for v in full]
        answers = [full, [v if rng.random() < 0.7 else 0 for v in full], [1] * (n * n)]
        result = sr.score_batch(
            np.array([puzzle] * 3, dtype=np.uint8),
            np.array(answers, dtype=np.uint8),
            box=box,
            solutions=np.array([full] * 3, dtype=np.uint8),
        )
        assert result["solved"].tolist() == [True, False, False]
        assert result["conflict_units"][2] == 3 * n
        assert result["conflict_cells"][2] == n * n
