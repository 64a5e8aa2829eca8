"""sudoku_rs.env: the Gymnasium environments, checked against pure-Python references (the
candidates and conflicts of a grid, the solver of tests/reference.py) and against Gymnasium's
own SyncVectorEnv of single environments."""

import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from gymnasium.vector import SyncVectorEnv  # noqa: E402
from reference import count_solutions  # noqa: E402

import sudoku_rs as sr  # noqa: E402
import sudoku_rs.env as se  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

# Two 4x4 puzzles with one solution each, and a 9x9 one.
FOUR = ["..31........23..", ".32...4.12......"]
NINE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def reference_candidates(cells, n, br, bc):
    """(n, n, n) flags: digit d+1 may go in the blank cell (r, c)."""
    out = np.zeros((n, n, n), dtype=bool)
    for r in range(n):
        for c in range(n):
            if cells[r][c]:
                continue
            for d in range(1, n + 1):
                clash = any(cells[r][k] == d for k in range(n)) or any(
                    cells[k][c] == d for k in range(n)
                )
                r0, c0 = r - r % br, c - c % bc
                clash = clash or any(
                    cells[i][j] == d for i in range(r0, r0 + br) for j in range(c0, c0 + bc)
                )
                out[r, c, d - 1] = not clash
    return out


def reference_conflicts(cells, n, br, bc):
    """The filled cells that share a unit with an equal one."""
    count = 0
    for r in range(n):
        for c in range(n):
            v = cells[r][c]
            if not v:
                continue
            peers = {(r, k) for k in range(n)} | {(k, c) for k in range(n)}
            r0, c0 = r - r % br, c - c % bc
            peers |= {(i, j) for i in range(r0, r0 + br) for j in range(c0, c0 + bc)}
            peers.discard((r, c))
            count += any(cells[i][j] == v for i, j in peers)
    return count


def action(n, row, col, digit):
    return (row * n + col) * n + digit - 1


def test_the_package_imports_without_gymnasium_and_the_env_says_what_to_install():
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'gymnasium' or name.startswith('gymnasium.'):\n"
        "            raise ImportError('blocked')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import sudoku_rs\n"
        "assert 'env' not in sudoku_rs.__all__\n"
        "try:\n"
        "    import sudoku_rs.env\n"
        "except ImportError as err:\n"
        "    print(err)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'sudoku_rs[rl]'" in out.stdout


def test_registered_for_make_and_make_vec_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        env = gym.make("sudoku_rs/Sudoku-v0", puzzles=FOUR)
        assert isinstance(env.unwrapped, se.SudokuEnv)
        venv = gym.make_vec(
            "sudoku_rs/Sudoku-v0", num_envs=3, vectorization_mode="vector_entry_point", size=4
        )
        assert isinstance(venv, se.SudokuVectorEnv)
        assert venv.metadata["autoreset_mode"] == gym.vector.AutoresetMode.NEXT_STEP
        venv.reset(seed=1)
        venv.step(venv.sample_legal_actions(seed=2))
    code = (
        "import gymnasium, sys\n"
        "env = gymnasium.make('sudoku_rs.env:sudoku_rs/Sudoku-v0', size=4)\n"
        "print(type(env.unwrapped).__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "SudokuEnv"


@pytest.mark.parametrize(
    "kwargs",
    [
        {"puzzles": FOUR},
        {"size": 4, "candidates": True, "undo": True},
        {"puzzles": [NINE], "on_invalid": "penalise", "compare_solution": True},
        {"size": 4, "level": "easy", "on_invalid": "end", "reward": "sparse"},
        {"size": 6, "box": (2, 3), "clues": 20},
    ],
)
def test_check_env_passes(kwargs):
    env = se.SudokuEnv(**kwargs)
    check_env(env, skip_render_check=True)
    check_env(gym.make("sudoku_rs/Sudoku-v0", **kwargs).unwrapped, skip_render_check=True)


def test_action_ids_masks_and_observations_follow_the_reference():
    env = se.SudokuEnv(puzzles=[NINE], candidates=True, undo=True, compare_solution=True)
    obs, info = env.reset(seed=0)
    n = 9
    assert env.action_space.n == n**3 + 1
    rng = np.random.default_rng(5)
    solution = sr.solve(NINE)
    for _ in range(60):
        cells = obs["grid"].tolist()
        expected = reference_candidates(cells, n, 3, 3)
        assert (obs["candidates"] == expected).all()
        masks = env.action_masks()
        assert masks.dtype == bool and masks.shape == (n**3 + 1,)
        assert (masks[:-1].reshape(n, n, n) == expected).all()
        assert (obs["givens"] == (np.array(sr._sudoku_rs._read_grid(NINE)[0]) != 0)).all()
        legal = np.flatnonzero(masks)
        if len(legal) == 0:
            break
        a = int(rng.choice(legal))
        obs, _reward, terminated, truncated, info = env.step(a)
        if a < n**3:
            cell, d = divmod(a, n)
            assert obs["grid"][cell // n, cell % n] == d + 1
        filled = np.array(obs["grid"]).reshape(-1)
        assert info["still_solvable"] == (count_solutions(filled.tolist(), n, 3, 3, limit=1) == 1)
        assert info["cells_correct"] == sum(
            1 for i, v in enumerate(filled) if v and str(v) == solution[i]
        )
        assert info["conflicts"] == 0
        if terminated or truncated:
            break


def test_rewards_follow_the_table_event_by_event():
    n = 4
    # Row 0 misses 2 at (0, 1); its solution is 1234/3412/2143/4321.
    puzzle = "1.34341221434321"
    for preset in ("sparse", "dense"):
        table = se.REWARD_PRESETS[preset]
        env = se.SudokuEnv(puzzles=[puzzle], reward=preset, undo=True)
        env.reset(seed=0)
        _, r, term, _, info = env.step(action(n, 0, 0, 1))  # a given cell
        assert (r, term) == (table["invalid"], False)
        _, r, term, _, _ = env.step(n**3)  # nothing to undo
        assert r == table["invalid"]
        _, r, term, _, info = env.step(action(n, 0, 1, 2))
        assert (r, term, info["solved"]) == (table["solved"], True, True)

    two = FOUR[0]  # ..31 / .... / .... / 23..
    env = se.SudokuEnv(puzzles=[two], undo=True, on_invalid="penalise")
    obs, _ = env.reset(seed=0)
    table = se.REWARD_PRESETS["dense"]
    solution = sr.solve(two)
    _, r, _, _, info = env.step(action(n, 0, 0, int(solution[0])))
    assert r == table["progress"] and info["still_solvable"]
    _, r, _, _, info = env.step(action(n, 1, 2, 3))  # a 3 under the 3 of row 0
    assert r == table["conflict"] and info["conflicts"] == 2 and not info["still_solvable"]
    obs, r, _, _, info = env.step(n**3)
    assert r == table["undo"] and info["conflicts"] == 0 and info["still_solvable"]
    # A candidate that is not the solution's digit leaves no completion.
    cands = reference_candidates(obs["grid"].tolist(), n, 2, 2)
    cell, digit = next(
        (cell, d)
        for cell in range(16)
        for d in range(1, 5)
        if cands[cell // 4, cell % 4, d - 1] and str(d) != solution[cell]
    )
    _, r, _, _, info = env.step(action(n, cell // 4, cell % 4, digit))
    assert r == table["dead_end"] and not info["still_solvable"]

    env = se.SudokuEnv(puzzles=[two], on_invalid="end", reward={"invalid": -3.0})
    env.reset(seed=0)
    _, r, term, _, _ = env.step(action(n, 0, 2, 1))  # a given cell
    assert (r, term) == (-3.0, True)
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_the_reward_table_is_the_same_in_the_docstring_the_docs_and_the_presets():
    row = re.compile(r"^\s*\|\s*`(\w+)`\s*\|[^|]*\|\s*(-?[\d.]+)\s*\|\s*(-?[\d.]+)\s*\|\s*$", re.M)
    for text in [se.SudokuEnv.__doc__, (ROOT / "docs" / "env.md").read_text()]:
        found = {m[1]: (float(m[2]), float(m[3])) for m in row.finditer(text)}
        assert found == {
            e: (se.REWARD_PRESETS["sparse"][e], se.REWARD_PRESETS["dense"][e]) for e in se.EVENTS
        }


def test_truncation_after_max_steps_and_termination_when_stuck():
    env = se.SudokuEnv(puzzles=FOUR, max_steps=3)
    env.reset(seed=3)
    flags = [env.step(0)[2:4] for _ in range(3)]
    assert flags[-1] in [(False, True), (True, False)]
    env = se.SudokuEnv(size=4)
    env.reset(seed=4)
    steps = 0
    while True:
        legal = np.flatnonzero(env.action_masks())
        _obs, _, term, trunc, info = env.step(int(legal[0]))
        steps += 1
        if term or trunc:
            break
    assert term and (info["solved"] or not env.action_masks().any())


def reference_conflicts_of(obs):
    return reference_conflicts(obs["grid"].tolist(), 4, 2, 2)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"puzzles": FOUR, "max_steps": 7},
        {"size": 4, "candidates": True, "undo": True, "on_invalid": "penalise"},
        {"size": 4, "level": "easy", "on_invalid": "end", "compare_solution": True},
    ],
)
def test_the_vector_env_steps_as_sync_vector_env_does(kwargs):
    count = 5
    fast = se.SudokuVectorEnv(count, **kwargs)
    slow = SyncVectorEnv(
        [lambda: se.SudokuEnv(**kwargs) for _ in range(count)],
        autoreset_mode=gym.vector.AutoresetMode.NEXT_STEP,
    )
    assert fast.single_observation_space == slow.single_observation_space
    assert fast.observation_space == slow.observation_space
    assert fast.action_space == slow.action_space
    a, ai = fast.reset(seed=11)
    b, bi = slow.reset(seed=11)
    assert gym.utils.env_checker.data_equivalence(a, b, exact=True)
    assert gym.utils.env_checker.data_equivalence(ai, bi, exact=True)
    rng = np.random.default_rng(0)
    resets = 0
    for _ in range(120):
        masks = fast.action_masks()
        assert (masks == np.stack([e.action_masks() for e in slow.envs])).all()
        # Mostly legal actions, some not, so every event happens.
        actions = np.array(
            [
                rng.choice(np.flatnonzero(m))
                if m.any() and rng.random() < 0.8
                else rng.integers(len(m))
                for m in masks
            ]
        )
        a_out = fast.step(actions)
        b_out = slow.step(actions)
        for x, y in zip(a_out, b_out):
            assert gym.utils.env_checker.data_equivalence(x, y, exact=True)
        resets += int((a_out[2] | a_out[3]).sum())
        if "penalise" in kwargs.values():
            for i in range(count):
                one = {k: v[i] for k, v in a_out[0].items()}
                assert a_out[4]["conflicts"][i] == reference_conflicts_of(one)
    assert resets > 0


def test_bad_input_raises_clear_errors():
    venv = se.SudokuVectorEnv(2, size=4)
    venv.reset(seed=0)
    with pytest.raises(ValueError, match="out of range"):
        venv.step(np.array([0, 64]))
    with pytest.raises(ValueError, match="out of range"):
        venv.step(np.array([-1, 0]))
    with pytest.raises(TypeError, match="integers"):
        venv.step(np.array([0.0, 1.0]))
    with pytest.raises(ValueError, match="shape"):
        venv.step(np.array([0, 1, 2]))
    with pytest.raises(ValueError, match="shape"):
        venv.step(np.zeros((2, 1), dtype=np.int64))
    with pytest.raises(TypeError):
        venv.step([0, 1])
    env = se.SudokuEnv(size=4)
    env.reset(seed=0)
    with pytest.raises(ValueError, match="out of range"):
        env.step(64)
    with pytest.raises(TypeError):
        env.step(1.0)
    for bad in ["1234", "11..............", "1234341221434321", "x" * 16, "." * 81]:
        with pytest.raises(ValueError):
            env.reset(options={"puzzle": bad})
    with pytest.raises(ValueError):
        se.SudokuEnv(puzzles=["11.............."])
    with pytest.raises(ValueError):
        se.SudokuEnv(size=4, on_invalid="explode")
    with pytest.raises(ValueError):
        se.SudokuEnv(size=4, reward="huge")
    with pytest.raises(ValueError):
        se.SudokuEnv(size=4, reward={"win": 1.0})
    with pytest.raises(ValueError):
        se.SudokuVectorEnv(0, size=4)
    with pytest.raises(ValueError):
        se.SudokuEnv(size=4, level="impossible")
    obs, _ = env.reset(options={"puzzle": FOUR[1]})
    assert obs["grid"][0, 1] == 3


def test_seeds_choose_the_same_episodes_and_a_given_puzzle_is_played():
    env = se.SudokuEnv(size=4)
    a = env.reset(seed=9)[0]["grid"].copy()
    env.reset(seed=10)
    b = env.reset(seed=9)[0]["grid"]
    assert (a == b).all()
    venv = se.SudokuVectorEnv(3, size=4)
    obs, _ = venv.reset(options={"puzzle": FOUR[1]})
    assert (obs["grid"] == np.array(sr._sudoku_rs._read_grid(FOUR[1])[0])).all()


def test_public_names_and_methods_have_docstrings():
    for name in se.__all__:
        value = getattr(se, name)
        if isinstance(value, type):
            assert value.__doc__, name
            for member, attr in vars(value).items():
                if not member.startswith("_") and callable(attr):
                    assert attr.__doc__, f"{name}.{member}"
    assert se.__doc__


@pytest.mark.parametrize(
    "rules",
    [sr.Rules(diagonals=True), sr.Rules(anti_knight=True), sr.Rules(non_consecutive=True)],
)
def test_variant_rules_mask_every_rule_and_solvability_is_counted_under_them(rules):
    env = se.SudokuEnv(rules=rules, size=9, on_invalid="penalise")
    obs, info = env.reset(seed=2)
    rng = np.random.default_rng(1)
    for _ in range(30):
        legal = np.flatnonzero(env.action_masks())
        if len(legal) == 0:
            break
        obs, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert sr.is_valid(obs["grid"], rules=rules)
        assert info["conflicts"] == 0
        expected = sr.count_solutions(obs["grid"], limit=1, rules=rules) == 1
        assert info["still_solvable"] == expected
        if terminated or truncated:
            break
    # A move the rules forbid is placed under "penalise" and counted as a conflict.
    grid = obs["grid"]
    blank = next((r, c) for r in range(9) for c in range(9) if grid[r, c] == 0)
    masks = env.action_masks()[:729].reshape(9, 9, 9)
    digit = int(np.flatnonzero(~masks[blank])[0]) + 1
    _, reward, _, _, info = env.step((blank[0] * 9 + blank[1]) * 9 + digit - 1)
    assert reward == se.REWARD_PRESETS["dense"]["conflict"]
    assert info["conflicts"] > 0 and not info["still_solvable"]


@pytest.mark.parametrize(("puzzle", "n"), [(FOUR[0], 4), (NINE, 9)])
def test_action_ids_are_the_move_ids_of_encode_moves(puzzle, n):
    # One id convention: every legal action of the env, decoded by decode_moves, is the move
    # the step makes, and encode_moves of that move gives the action back.
    env = se.SudokuEnv(puzzles=[puzzle], size=n)
    env.reset(seed=0)
    legal = np.flatnonzero(env.action_masks())
    moves = sr.decode_moves(legal, size=n)
    assert (sr.encode_moves(moves, size=n) == legal).all()
    for a, (row, col, digit) in list(zip(legal, moves))[:60]:
        env.reset(options={"puzzle": puzzle})
        obs = env.step(int(a))[0]
        changed = np.argwhere(obs["grid"] != np.array(sr._sudoku_rs._read_grid(puzzle)[0]))
        assert changed.tolist() == [[row, col]] and obs["grid"][row, col] == digit
    every = np.arange(n**3)
    assert (sr.encode_moves(sr.decode_moves(every, size=n), size=n) == every).all()


def test_a_batch_large_enough_for_threads_steps_as_single_envs_do():
    # Hundreds of environments are stepped on several threads; each must still step exactly
    # as its own single environment does, and the sampled actions must not depend on threads.
    count, kwargs = 300, {"size": 4, "level": "easy", "candidates": True}
    fast = se.SudokuVectorEnv(count, **kwargs)
    slow = SyncVectorEnv(
        [lambda: se.SudokuEnv(**kwargs) for _ in range(count)],
        autoreset_mode=gym.vector.AutoresetMode.NEXT_STEP,
    )
    a, _ = fast.reset(seed=3)
    b, _ = slow.reset(seed=3)
    assert gym.utils.env_checker.data_equivalence(a, b, exact=True)
    first = fast.sample_legal_actions(seed=9)
    assert (fast.sample_legal_actions(seed=9) == first).all()
    for _ in range(30):
        masks = fast.action_masks()
        actions = fast.sample_legal_actions()
        playable = masks.any(axis=1)
        assert masks[np.arange(count), actions][playable].all()
        a_out = fast.step(actions)
        b_out = slow.step(actions)
        for x, y in zip(a_out, b_out):
            assert gym.utils.env_checker.data_equivalence(x, y, exact=True)
