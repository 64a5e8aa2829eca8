"""Search traces and logical steps as tokens: every trace is replayed by a pure-Python
interpreter that checks each token against the grid at that point, and the step tokens and
states are checked against explain() step by step."""

import numpy as np
import pytest
from helpers import data_dir, read_lines

import sudoku_rs as sr

T = sr.TraceToken

TOP = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"
# Two solutions (digits taken out of TOP's solution while two remained).
TWO = ".6......77......3..9....4....47..2......1.6....5.89....4...27......6...2..73..18."
# Consistent givens, no completion: r1c9 can only be 9, which column 9 already holds.
NONE = "12345678." + "." * 8 + "9" + "." * 63
# A unique 6x6 (boxes of 2 rows by 3 columns).
SIX = "...........5..6.....1.4..1...2.34.1."

R, C, D = int(T.ROW), int(T.COLUMN), int(T.DIGIT)


def cells_of(text, n):
    values = [0 if ch in ".0" else int(ch, 36) for ch in text if not ch.isspace()]
    assert len(values) == n * n
    return values


def units(n, br, bc):
    """Every row, column and box as lists of cell indices."""
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [
        [(top + i) * n + left + j for i in range(br) for j in range(bc)]
        for top in range(0, n, br)
        for left in range(0, n, bc)
    ]
    return rows + cols + boxes


def candidates(grid, n, unit_list):
    """Per cell, the digits none of its units holds (empty for a filled cell)."""
    out = []
    for cell in range(n * n):
        if grid[cell]:
            out.append(set())
            continue
        seen = {grid[x] for u in unit_list if cell in u for x in u}
        out.append(set(range(1, n + 1)) - seen)
    return out


def forced(grid, n, unit_list, cell, digit):
    """Whether `digit` is a naked or a hidden single at `cell`."""
    cand = candidates(grid, n, unit_list)
    if cand[cell] == {digit}:
        return True
    return any(cell in u and [x for x in u if digit in cand[x]] == [cell] for u in unit_list)


def contradicts(grid, n, unit_list):
    """A blank cell without candidates, or a unit where a missing digit has no place."""
    cand = candidates(grid, n, unit_list)
    if any(not grid[x] and not cand[x] for x in range(n * n)):
        return True
    for u in unit_list:
        missing = set(range(1, n + 1)) - {grid[x] for x in u}
        if any(not any(d in cand[x] for x in u) for d in missing):
            return True
    return False


def completions(grid, n, unit_list, ruled_out, limit=1):
    """Up to ``limit`` completions of ``grid`` without the (cell, digit) pairs of
    ``ruled_out``, by a plain depth-first search on the cell with the fewest candidates."""
    peers = [
        sorted({x for u in unit_list if cell in u for x in u} - {cell}) for cell in range(n * n)
    ]
    grid = list(grid)
    found = []

    def search():
        best, best_digits = None, None
        for cell in range(n * n):
            if grid[cell]:
                continue
            digits = set(range(1, n + 1)) - {grid[x] for x in peers[cell]}
            digits = {d for d in digits if (cell, d) not in ruled_out}
            if best is None or len(digits) < len(best_digits):
                best, best_digits = cell, digits
                if not digits:
                    return False
        if best is None:
            found.append(list(grid))
            return len(found) >= limit
        for d in sorted(best_digits):
            grid[best] = d
            if search():
                return True
        grid[best] = 0
        return False

    search()
    return found


def replay(puzzle, tokens, n, br, bc, classic=None, solution=None, dead_ends_checked=8):
    """Runs a trace on the puzzle, checking every token where it stands; returns the final
    grid, the last token, the guess and backtrack counts and the guesses still open.

    ``classic`` (9x9 with 3x3 boxes unless told) is the 9x9 engine's trace: its propagation
    includes locked candidates and tells a propagation's placements once it settles, so a
    placement is checked against the units and the candidates ruled out (and, outside every
    guess, against ``solution`` when given), and the first ``dead_ends_checked`` dead
    ends by a plain search finding no completion; ``ELIMINATE`` after a backtrack rules a
    candidate out until the guess before it is backtracked. Other traces' placements are
    singles, checked one by one."""
    if classic is None:
        classic = (n, br, bc) == (9, 3, 3)
    unit_list = units(n, br, bc)
    grid = list(puzzle)
    ruled_out = set()
    saved = []
    guesses = backtracks = dead_ends = 0
    tokens = [int(t) for t in tokens]
    i = 0
    while i < len(tokens):
        kind = tokens[i]
        if kind in (T.PLACE, T.GUESS, T.ELIMINATE):
            r, c, d = tokens[i + 1] - R, tokens[i + 2] - C, tokens[i + 3] - D + 1
            assert 0 <= r < n and 0 <= c < n and 1 <= d <= n, (i, tokens[i : i + 4])
            cell = r * n + c
            assert grid[cell] == 0, f"token {i} names a filled cell"
            assert d in candidates(grid, n, unit_list)[cell], f"token {i} breaks a unit"
            assert (cell, d) not in ruled_out, f"token {i} names a candidate ruled out"
            if kind == T.ELIMINATE:
                assert classic, "only the 9x9 engine eliminates"
                assert tokens[i - 1] == T.BACKTRACK, f"token {i}: no backtrack before"
                ruled_out.add((cell, d))
                i += 4
                continue
            if kind == T.GUESS:
                saved.append((list(grid), set(ruled_out)))
                guesses += 1
            elif not classic:
                if n < 16:
                    # Below 16x16 propagation is singles only, so each placement is one.
                    assert forced(grid, n, unit_list, cell, d), f"token {i} is not forced"
            elif not saved and solution is not None:
                assert solution[cell] == d, f"token {i} places a digit of no solution"
            grid[cell] = d
            i += 4
        elif kind == T.BACKTRACK:
            assert saved, f"token {i} backtracks with no guess open"
            grid, ruled_out = saved.pop()
            backtracks += 1
            i += 1
        elif kind == T.DEAD_END:
            if classic:
                if dead_ends < dead_ends_checked:
                    assert not completions(grid, n, unit_list, ruled_out), f"token {i}"
                dead_ends += 1
            elif n < 16:
                assert contradicts(grid, n, unit_list), f"token {i}: no contradiction"
            i += 1
        elif kind in (T.SOLVED, T.NO_SOLUTION):
            assert i == len(tokens) - 1, "the end token is the last"
            if kind == T.SOLVED:
                assert all(grid)
            else:
                assert not saved
                assert grid == list(puzzle) or not completions(grid, n, unit_list, ruled_out)
            return grid, kind, guesses, backtracks, len(saved)
        else:
            raise AssertionError(f"token {i}: unknown id {kind}")
    raise AssertionError("the trace has no end token")


def samples():
    lines = []
    for name in ("gen_easy35", "puzzles2_17_clue", "puzzles5_forum_hardest_1905_11+"):
        lines += read_lines(data_dir() / name, 3)
    return lines


def test_vocabulary_is_fixed_and_fits_a_byte():
    assert (T.PAD, T.PLACE, T.GUESS, T.BACKTRACK) == (0, 1, 2, 3)
    assert (T.DEAD_END, T.SOLVED, T.NO_SOLUTION) == (4, 5, 6)
    assert (T.ELIMINATE, T.TECHNIQUE) == (7, 16)
    assert (R, C, D, T.VOCABULARY_SIZE) == (64, 128, 192, 256)
    assert T.TECHNIQUE + len(sr.techniques()) <= R
    assert D + 63 < T.VOCABULARY_SIZE


@pytest.mark.parametrize("line", samples() + [TOP])
def test_a_trace_replays_to_the_solution(line):
    trace = sr.search_trace(line)
    assert trace.dtype == np.uint8 and trace.ndim == 1
    solution = cells_of(sr.solve(line), 9)
    grid, end, guesses, backtracks, open_ = replay(
        cells_of(line, 9), trace, 9, 3, 3, solution=solution
    )
    assert end == T.SOLVED
    assert "".join(map(str, grid)) == sr.solve(line)
    assert guesses - backtracks == open_


def test_a_hard_puzzle_guesses_and_backtracks():
    trace = sr.search_trace(TOP)
    _, _, guesses, backtracks, _ = replay(cells_of(TOP, 9), trace, 9, 3, 3)
    assert guesses > 5 and backtracks > 0
    assert (trace == T.DEAD_END).sum() > 0


def test_no_solution_backtracks_to_the_start():
    assert sr.count_solutions(NONE) == 0
    trace = sr.search_trace(NONE)
    assert trace[-1] == T.NO_SOLUTION
    _, _, guesses, backtracks, open_ = replay(cells_of(NONE, 9), trace, 9, 3, 3)
    assert guesses == backtracks and open_ == 0


def test_several_solutions_end_at_the_one_solve_returns():
    assert sr.count_solutions(TWO) == 2
    grid, end, *_ = replay(cells_of(TWO, 9), sr.search_trace(TWO), 9, 3, 3)
    assert end == T.SOLVED
    assert "".join(map(str, grid)) == sr.solve(TWO)


def test_the_nine_engine_branches_on_a_digit_then_its_negation():
    trace = sr.search_trace(TOP).tolist()
    backtracks = [i for i, t in enumerate(trace) if t == T.BACKTRACK]
    assert backtracks
    # Each refuted guess is followed by the candidate it tried, ruled out; the generic
    # engine (every other shape) never eliminates.
    for i in backtracks:
        assert trace[i + 1] == T.ELIMINATE
    assert T.ELIMINATE in trace
    line = read_lines(data_dir() / "gen_16x16", 1)[0]
    assert T.ELIMINATE not in sr.search_trace(line).tolist()


def test_an_empty_grid_needs_no_backtrack():
    trace = sr.search_trace("." * 81)
    grid, end, guesses, backtracks, open_ = replay([0] * 81, trace, 9, 3, 3)
    assert end == T.SOLVED and sr.is_valid("".join(map(str, grid)))
    assert backtracks == 0 and open_ == guesses


@pytest.mark.parametrize(
    ("text", "n", "br", "bc", "box"),
    [
        ("1...\n..3.\n.4..\n...2", 4, 2, 2, None),
        (SIX, 6, 2, 3, (2, 3)),
    ],
)
def test_other_shapes_replay(text, n, br, bc, box):
    trace = sr.search_trace(text, box=box)
    grid, end, guesses, backtracks, open_ = replay(cells_of(text, n), trace, n, br, bc)
    assert end == T.SOLVED and guesses - backtracks == open_
    assert sr.is_unique(text, box=box)
    assert grid == cells_of(sr.solve(text, box=box), n)


def test_sixteen_by_sixteen_replays():
    line = read_lines(data_dir() / "gen_16x16", 1)[0]
    trace = sr.search_trace(line)
    grid, end, guesses, backtracks, open_ = replay(cells_of(line, 16), trace, 16, 4, 4)
    assert end == T.SOLVED and guesses - backtracks == open_
    assert grid == cells_of(sr.solve(line), 16) or sr.count_solutions(line, limit=2) == 2


def test_bad_input_and_budgets():
    with pytest.raises(sr.InvalidPuzzleError):
        sr.search_trace("11" + "." * 79)
    with pytest.raises(sr.GuessLimitError):
        sr.search_trace(TOP, max_guesses=1)
    killer = sr.Rules(diagonals=True)
    with pytest.raises(sr.InvalidRulesError):
        sr.search_trace("." * 81, rules=killer)
    assert sr.search_trace(TOP, rules=sr.Rules()).tolist() == sr.search_trace(TOP).tolist()


def test_batch_is_the_single_traces_padded_on_any_thread_count():
    lines = samples() + [TOP, NONE, "11" + "." * 79, "bad"]
    one = sr.search_trace_batch(lines, threads=1)
    two = sr.search_trace_batch(np.array(lines, dtype=object), threads=2)
    for a, b in zip(one, two):
        assert np.array_equal(a, b)
    tokens, lengths, status = one
    assert tokens.dtype == np.uint8 and tokens.shape == (len(lines), lengths.max())
    assert status.tolist() == [sr.Status.SOLVED] * (len(lines) - 3) + [
        sr.Status.NO_SOLUTION,
        sr.Status.INVALID,
        sr.Status.INVALID,
    ]
    for i, line in enumerate(lines[:-2]):
        single = sr.search_trace(line)
        assert lengths[i] == len(single)
        assert tokens[i, : lengths[i]].tolist() == single.tolist()
        assert not tokens[i, lengths[i] :].any()
    assert lengths[-2:].tolist() == [0, 0]


def test_batch_guess_limit_rows_have_no_tokens():
    easy = read_lines(data_dir() / "gen_easy35", 1)[0]
    out = sr.search_trace_batch([TOP, easy], max_guesses=1)
    assert out.status.tolist() == [sr.Status.GUESS_LIMIT, sr.Status.SOLVED]
    assert out.lengths[0] == 0 and out.lengths[1] > 0
    assert sr.search_trace_batch([], threads=2).tokens.shape == (0, 0)


# ---------------------------------------------------------------- logical steps


def step_tokens(step, index):
    out = [T.TECHNIQUE + index[step.technique]]
    for kind, triples in (
        (T.PLACE, step.placements),
        (T.ELIMINATE, step.eliminations),
    ):
        for r, c, d in triples:
            out += [kind, R + r, C + c, D + d - 1]
    return out


def apply_step(grid, marks, step, n, unit_list):
    """Eliminations, then placements into still-blank cells (striking the digit from peers)."""
    for r, c, d in step.eliminations:
        marks[r * n + c].discard(d)
    for r, c, d in step.placements:
        cell = r * n + c
        if grid[cell] == 0:
            grid[cell] = d
            marks[cell] = set()
            for u in unit_list:
                if cell in u:
                    for x in u:
                        marks[x].discard(d)


@pytest.mark.parametrize("states", [False, True])
def test_logic_trace_is_explain_step_by_step(states):
    lines = samples()[:6] + [TOP, "11" + "." * 79]
    index = {name: i for i, (name, _, _) in enumerate(sr.techniques())}
    out = sr.logic_trace_batch(lines, states=states, threads=2)
    again = sr.logic_trace_batch(lines, states=states, threads=1)
    for a, b in zip(out[:6], again[:6]):
        assert (a is None and b is None) or np.array_equal(a, b)
    unit_list = units(9, 3, 3)
    row = 0
    for i, line in enumerate(lines[:-1]):
        explanation = sr.explain(line)
        grid = cells_of(line, 9)
        marks = candidates(grid, 9, unit_list)
        for k, step in enumerate(explanation.steps):
            want = step_tokens(step, index)
            assert (out.puzzle[row], out.step[row]) == (i, k)
            assert out.lengths[row] == len(want)
            assert out.tokens[row, : len(want)].tolist() == want
            assert not out.tokens[row, len(want) :].any()
            if states:
                apply_step(grid, marks, step, 9, unit_list)
                assert out.grids[row].ravel().tolist() == grid
                bools = [
                    [d + 1 in marks[x] if grid[x] == 0 else grid[x] == d + 1 for d in range(9)]
                    for x in range(81)
                ]
                assert out.candidates[row].reshape(81, 9).tolist() == bools
            row += 1
        if states and explanation.steps:
            assert np.array_equal(out.candidates[row - 1], explanation.candidates)
        assert out.grades["level"][i] == explanation.grade.level
    assert row == len(out.lengths)
    assert out.grades["status"][-1] == sr.Status.INVALID
    if not states:
        assert out.grids is None and out.candidates is None
    else:
        assert out.grids.dtype == np.uint8 and out.candidates.dtype == np.bool_


def test_logic_trace_on_six_by_six():
    out = sr.logic_trace_batch([SIX], box=(2, 3), states=True)
    explanation = sr.explain(SIX, box=(2, 3))
    assert len(out.lengths) == len(explanation.steps)
    assert out.grids.shape == (len(explanation.steps), 6, 6)
    assert np.array_equal(out.candidates[-1], explanation.candidates)


@pytest.mark.parametrize("states", [False, True])
def test_explain_batch_tokens_is_logic_trace_batch(states):
    lines = samples()[:3] + [TOP, "11" + "." * 79]
    ours = sr.explain_batch(lines, tokens=True, states=states, threads=2)
    theirs = sr.logic_trace_batch(lines, states=states, threads=1)
    assert type(ours) is type(theirs)
    for a, b in zip(ours, theirs):
        assert (a is None and b is None) or np.array_equal(a, b)
    six = sr.explain_batch([SIX], box=(2, 3), tokens=True, states=states)
    assert len(six.lengths) == len(sr.explain(SIX, box=(2, 3)).steps)
    # Without tokens, the step records as before.
    assert sr.explain_batch(lines).steps["puzzle"].tolist() == ours.puzzle.tolist()


def test_explain_batch_states_need_tokens():
    with pytest.raises(ValueError, match="tokens=True"):
        sr.explain_batch([TOP], states=True)
