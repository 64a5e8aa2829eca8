"""Sudoku as a reinforcement-learning environment (the ``rl`` extra: ``gymnasium>=1.1``).

Importing this module registers ``sudoku_rs/Sudoku-v0`` with Gymnasium, so both
``gymnasium.make("sudoku_rs/Sudoku-v0")`` after ``import sudoku_rs.env`` and
``gymnasium.make("sudoku_rs.env:sudoku_rs/Sudoku-v0")`` without it build a :class:`SudokuEnv`,
and ``gymnasium.make_vec("sudoku_rs/Sudoku-v0", num_envs=N,
vectorization_mode="vector_entry_point")`` a :class:`SudokuVectorEnv`.

Both step through the same native code: the vector environment moves all its environments in
one call with the GIL released, and the single environment is a batch of one.
"""

import os
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union, cast

import numpy as np

try:
    import gymnasium as gym
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as _missing:  # pragma: no cover - exercised without gymnasium installed
    raise ImportError(
        "sudoku_rs.env needs gymnasium: pip install 'sudoku_rs[rl]' (or 'gymnasium>=1.1')"
    ) from _missing

from ._files import read_puzzles
from ._sudoku_rs import Rules, _check_batch_shape, _EnvBatch, _read_grid

__all__ = ["EVENTS", "REWARD_PRESETS", "SudokuEnv", "SudokuVectorEnv"]

#: What a step can be; every step is exactly one of these and pays its reward.
EVENTS: Tuple[str, ...] = ("solved", "progress", "dead_end", "conflict", "invalid", "undo")

#: The reward of each event under each preset (``reward=``):
#:
#: | event      | what happened                                                  | sparse | dense |
#: |------------|----------------------------------------------------------------|--------|-------|
#: | `solved`   | a placement completed the grid with no conflict (terminates)   | 1.0    | 1.0   |
#: | `progress` | a candidate placed; the grid can still be solved               | 0.0    | 0.1   |
#: | `dead_end` | a candidate placed; the grid can no longer be solved           | 0.0    | -0.1  |
#: | `conflict` | a digit placed that a peer holds (``on_invalid="penalise"``)   | 0.0    | -0.5  |
#: | `invalid`  | an action that changed nothing (or ended the episode)          | 0.0    | -1.0  |
#: | `undo`     | the last placement taken back                                  | 0.0    | -0.05 |
REWARD_PRESETS: Dict[str, Dict[str, float]] = {
    "sparse": {
        "solved": 1.0,
        "progress": 0.0,
        "dead_end": 0.0,
        "conflict": 0.0,
        "invalid": 0.0,
        "undo": 0.0,
    },
    "dense": {
        "solved": 1.0,
        "progress": 0.1,
        "dead_end": -0.1,
        "conflict": -0.5,
        "invalid": -1.0,
        "undo": -0.05,
    },
}

_ON_INVALID = ("mask", "penalise", "end")

Puzzles = Union[None, str, "os.PathLike[str]", np.ndarray, Sequence[str]]
Observation = Dict[str, Any]


def _rewards(reward: Union[str, Mapping[str, float]]) -> List[float]:
    if isinstance(reward, str):
        if reward not in REWARD_PRESETS:
            raise ValueError(
                f"reward={reward!r} is not a preset: expected one of {sorted(REWARD_PRESETS)} "
                "or a mapping of events to rewards"
            )
        table = REWARD_PRESETS[reward]
    elif isinstance(reward, Mapping):
        unknown = sorted(set(reward) - set(EVENTS))
        if unknown:
            raise ValueError(f"unknown reward events {unknown}: the events are {list(EVENTS)}")
        table = {event: float(reward.get(event, 0.0)) for event in EVENTS}
    else:
        raise TypeError(f"reward must be a preset name or a mapping, got {type(reward).__name__}")
    return [float(table[event]) for event in EVENTS]


def _puzzle_array(
    puzzles: Puzzles, box: Optional[Tuple[int, int]], rules: Optional[Rules]
) -> np.ndarray:
    """The puzzles as a (k, n*n) uint8 array."""
    if isinstance(puzzles, (str, os.PathLike)):
        return read_puzzles(puzzles, box=box)
    if isinstance(puzzles, np.ndarray) and puzzles.dtype.kind in "iu":
        _check_batch_shape(puzzles.shape)  # the batch readers' own rule and message
        if len(puzzles) == 0:
            raise ValueError("puzzles is empty: give at least one puzzle")
        puzzles = puzzles.reshape(len(puzzles), -1)
        if puzzles.size and (puzzles.min() < 0 or puzzles.max() > 255):
            raise ValueError("puzzle cells hold 0 (blank) to n")
        return np.ascontiguousarray(puzzles, dtype=np.uint8)
    if isinstance(puzzles, np.ndarray) and puzzles.dtype.kind not in "USO":
        raise TypeError(f"puzzles must hold integers or strings, got dtype {puzzles.dtype}")
    rows = [
        np.asarray(_read_grid(p, box=box, rules=rules)[0]).reshape(-1)
        for p in list(cast(Iterable[Any], puzzles))
    ]
    if not rows:
        raise ValueError("puzzles is empty: give at least one puzzle")
    if len({len(r) for r in rows}) != 1:
        raise ValueError("the puzzles must all have the same size")
    return np.stack(rows)


def _make_batch(
    count: int,
    puzzles: Puzzles,
    *,
    level: Optional[str],
    clues: Optional[int],
    size: Optional[int],
    box: Optional[Tuple[int, int]],
    rules: Optional[Rules],
    reward: Union[str, Mapping[str, float]],
    on_invalid: str,
    max_steps: Optional[int],
    undo: bool,
    candidates: bool,
) -> Tuple[Any, int]:
    """The native batch and the grid side."""
    if on_invalid not in _ON_INVALID:
        raise ValueError(f"on_invalid={on_invalid!r} is not one of {list(_ON_INVALID)}")
    values = _rewards(reward)
    array = None
    if puzzles is not None:
        if level is not None or clues is not None:
            raise ValueError(
                "level= and clues= choose generated puzzles; they cannot go with puzzles="
            )
        array = _puzzle_array(puzzles, box, rules)
        side = round(len(array[0]) ** 0.5)
        if side * side != array.shape[1]:
            raise ValueError(f"a puzzle of {array.shape[1]} cells is not a square grid")
        if size is not None and size != side:
            raise ValueError(f"size={size} but the puzzles are {side}x{side}")
        size = side
    probe = _EnvBatch(1, size=size, box=box, rules=rules)
    rows, cols = probe.box
    side = rows * cols
    if max_steps is None:
        max_steps = 4 * side * side
    if isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)):
        raise TypeError(f"max_steps must be an int, got {type(max_steps).__name__}")
    if not 1 <= max_steps < 2**32:
        raise ValueError(f"max_steps must be at least 1, got {max_steps}")
    batch = _EnvBatch(
        count,
        puzzles=array,
        size=size,
        box=box,
        rules=rules,
        level=level,
        clues=clues,
        on_invalid=on_invalid,
        rewards=values,
        max_steps=int(max_steps),
        undo=bool(undo),
        candidates=bool(candidates),
    )
    return batch, side


def _observation_space(side: int, candidates: bool) -> spaces.Dict:
    parts: Dict[str, spaces.Space[Any]] = {
        "grid": spaces.Box(0, side, (side, side), dtype=np.uint8),
        "givens": spaces.MultiBinary((side, side)),
    }
    if candidates:
        parts["candidates"] = spaces.MultiBinary((side, side, side))
    return spaces.Dict(parts)


def _reset_puzzle(
    options: Optional[Mapping[str, Any]], box: Tuple[int, int], rules: Optional[Rules]
) -> Optional[List[int]]:
    """``options={"puzzle": grid}``: one puzzle for the next episode, read as ``solve`` reads."""
    if not options or options.get("puzzle") is None:
        return None
    cells, _ = _read_grid(options["puzzle"], box=box, rules=rules)
    return [int(v) for v in np.asarray(cells).reshape(-1)]


class SudokuEnv(gym.Env[Observation, np.int64]):
    """One Sudoku episode at a time, as a ``gymnasium.Env``.

    Observation, a dict: ``grid`` (n, n) uint8, 0 = blank; ``givens`` (n, n) int8, 1 where the
    puzzle gave the digit; with ``candidates=True``, ``candidates`` (n, n, n) int8, 1 where the
    digit (last axis, digit - 1) may go in the blank cell. Action: ``Discrete(n**3)``, id
    ``(row*n + col)*n + digit - 1`` (0-based row and column, digits from 1), as
    ``encode_moves`` numbers moves; with ``undo=True``, ``Discrete(n**3 + 1)`` and id ``n**3``
    takes back the last placement. :meth:`action_masks` says which actions are legal (a
    candidate digit on a blank cell), the convention of sb3-contrib's MaskablePPO.

    Puzzles: ``puzzles`` is an array (k, n, n) or (k, n*n), a list of puzzle strings, or a file
    path (``read_puzzles``); each episode draws one, seeded by ``reset(seed=)``. Without it, the
    generator makes each episode's puzzle: ``level=`` (a technique level), ``clues=``, ``size=``,
    ``box=``, ``rules=``. ``reset(options={"puzzle": grid})`` plays one given puzzle.

    Every step is one event, and pays its reward (``reward=`` a preset name or a mapping of
    events to rewards, unnamed events paying 0):

    | event      | what happened                                                | sparse | dense |
    |------------|--------------------------------------------------------------|--------|-------|
    | `solved`   | a placement completed the grid with no conflict (terminates) | 1.0    | 1.0   |
    | `progress` | a candidate placed; the grid can still be solved             | 0.0    | 0.1   |
    | `dead_end` | a candidate placed; the grid can no longer be solved         | 0.0    | -0.1  |
    | `conflict` | a digit placed that a peer holds (`on_invalid="penalise"`)   | 0.0    | -0.5  |
    | `invalid`  | an action that changed nothing (or ended the episode)        | 0.0    | -1.0  |
    | `undo`     | the last placement taken back                                | 0.0    | -0.05 |

    ``on_invalid`` says what an action that is not legal does: ``"mask"`` (default) changes
    nothing; ``"penalise"`` places a conflicting digit anyway (other invalid actions change
    nothing); ``"end"`` changes nothing and terminates the episode. An episode also terminates
    when no action can change the grid, and is truncated after ``max_steps`` steps (default
    ``4 * n * n``).

    ``info``: ``conflicts`` (filled cells that break a rule with another), ``solved``, and
    ``still_solvable`` (whether the grid still has a completion: a count of solutions up to one
    by the solver, never a look at the solution); with ``compare_solution=True`` also
    ``cells_correct``, the filled cells equal to the solution found at reset.
    """

    # Gymnasium reads `metadata` as a plain class-level dict on every env (RUF012 would have it
    # a ClassVar, which gymnasium.Env annotates as an instance attribute).
    metadata: Dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        puzzles: Puzzles = None,
        *,
        level: Optional[str] = None,
        clues: Optional[int] = None,
        size: Optional[int] = None,
        box: Optional[Tuple[int, int]] = None,
        rules: Optional[Rules] = None,
        reward: Union[str, Mapping[str, float]] = "dense",
        on_invalid: str = "mask",
        max_steps: Optional[int] = None,
        undo: bool = False,
        candidates: bool = False,
        compare_solution: bool = False,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r} is not one of ['ansi']")
        self._batch, self.size = _make_batch(
            1,
            puzzles,
            level=level,
            clues=clues,
            size=size,
            box=box,
            rules=rules,
            reward=reward,
            on_invalid=on_invalid,
            max_steps=max_steps,
            undo=undo,
            candidates=candidates,
        )
        self._rules = rules
        self._candidates = bool(candidates)
        self._compare = bool(compare_solution)
        self._seeded = False
        self._done = True
        self._grid: Optional[np.ndarray] = None
        self.render_mode = render_mode
        self.observation_space = _observation_space(self.size, self._candidates)
        self._actions = self.size**3 + int(bool(undo))
        self.action_space = spaces.Discrete(self._actions)

    def _unpack(
        self, arrays: Tuple[Any, ...]
    ) -> Tuple[Observation, float, bool, bool, Dict[str, Any]]:
        grid, givens, cands, reward, term, trunc, conflicts, solved, solvable, correct = arrays
        obs = {"grid": grid[0], "givens": givens[0]}
        if self._candidates:
            obs["candidates"] = cands[0]
        info: Dict[str, Any] = {
            "conflicts": int(conflicts[0]),
            "solved": bool(solved[0]),
            "still_solvable": bool(solvable[0]),
        }
        if self._compare:
            info["cells_correct"] = int(correct[0])
        self._grid = grid[0]
        self._done = bool(term[0] or trunc[0])
        return obs, float(reward[0]), bool(term[0]), bool(trunc[0]), info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Observation, Dict[str, Any]]:
        """Starts an episode: ``seed`` restarts the choice of puzzles, ``options={"puzzle":
        grid}`` plays that puzzle (``InvalidPuzzleError``, a ``ValueError``, when it is
        malformed, breaks a rule or has no blank)."""
        super().reset(seed=seed)
        if seed is None and not self._seeded:
            seed = int(self.np_random.integers(2**63))
        self._seeded = True
        puzzle = _reset_puzzle(options, self._batch.box, self._rules)
        obs, _, _, _, info = self._unpack(self._batch.reset([seed], puzzle))
        return obs, info

    def step(
        self, action: Union[int, np.integer[Any]]
    ) -> Tuple[Observation, float, bool, bool, Dict[str, Any]]:
        """Takes one action (an int id, see the class docstring)."""
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"an action is an int, got {type(action).__name__}")
        if not 0 <= action < self._actions:
            raise ValueError(
                f"action {action} is out of range: actions go from 0 to {self._actions - 1}"
            )
        if self._done:
            raise RuntimeError("the episode has ended (or not started): call reset() first")
        return self._unpack(self._batch.step(np.array([action], dtype=np.int64)))

    def action_masks(self) -> np.ndarray:
        """The legal actions now: a bool array of the action space's size, True = legal."""
        masks: np.ndarray = self._batch.action_masks()[0]
        return masks

    def render(self) -> Optional[str]:  # type: ignore[override]
        """With ``render_mode="ansi"``, the grid as text, one row per line, '.' for a blank."""
        if self.render_mode != "ansi" or self._grid is None:
            return None
        digits = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
        return "\n".join(
            "".join("." if v == 0 else digits[v - 1] if v <= 35 else "?" for v in row)
            for row in self._grid.tolist()
        )


class SudokuVectorEnv(VectorEnv[Observation, np.ndarray, np.ndarray]):
    """``num_envs`` Sudoku episodes stepped together in one native call with the GIL released.

    Takes the options of :class:`SudokuEnv` (the same puzzles, rewards and events), and steps
    exactly as a ``SyncVectorEnv`` of ``SudokuEnv`` does, seed for seed: ``reset(seed=s)``
    seeds environment i with ``s + i``, and an environment whose episode ended is reset on the
    next step (``AutoresetMode.NEXT_STEP``: its action is ignored, its reward is 0). ``infos``
    holds ``conflicts``, ``solved`` and ``still_solvable`` arrays (and ``cells_correct`` with
    ``compare_solution=True``), each with its ``_name`` mask, as ``SyncVectorEnv`` gathers them.
    """

    metadata: Dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        puzzles: Puzzles = None,
        *,
        level: Optional[str] = None,
        clues: Optional[int] = None,
        size: Optional[int] = None,
        box: Optional[Tuple[int, int]] = None,
        rules: Optional[Rules] = None,
        reward: Union[str, Mapping[str, float]] = "dense",
        on_invalid: str = "mask",
        max_steps: Optional[int] = None,
        undo: bool = False,
        candidates: bool = False,
        compare_solution: bool = False,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)):
            raise TypeError(f"num_envs must be an int, got {type(num_envs).__name__}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.num_envs = int(num_envs)
        self._batch, self.size = _make_batch(
            self.num_envs,
            puzzles,
            level=level,
            clues=clues,
            size=size,
            box=box,
            rules=rules,
            reward=reward,
            on_invalid=on_invalid,
            max_steps=max_steps,
            undo=undo,
            candidates=candidates,
        )
        self._rules = rules
        self._candidates = bool(candidates)
        self._compare = bool(compare_solution)
        self._seeded = False
        self.single_observation_space = _observation_space(self.size, self._candidates)
        self.single_action_space = spaces.Discrete(self.size**3 + int(bool(undo)))
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._ones = np.ones(self.num_envs, dtype=np.bool_)

    def _unpack(
        self, arrays: Tuple[Any, ...]
    ) -> Tuple[Observation, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        grid, givens, cands, reward, term, trunc, conflicts, solved, solvable, correct = arrays
        obs = {"grid": grid, "givens": givens}
        if self._candidates:
            obs["candidates"] = cands
        ones = self._ones
        infos: Dict[str, Any] = {
            "conflicts": conflicts,
            "_conflicts": ones.copy(),
            "solved": solved,
            "_solved": ones.copy(),
            "still_solvable": solvable,
            "_still_solvable": ones.copy(),
        }
        if self._compare:
            infos["cells_correct"] = correct
            infos["_cells_correct"] = ones.copy()
        return obs, reward, term, trunc, infos

    def reset(
        self,
        *,
        seed: Optional[Union[int, List[Optional[int]]]] = None,
        options: Optional[Dict[str, Any]] = None,
    ) -> Tuple[Observation, Dict[str, Any]]:
        """Resets every environment: ``seed`` an int (environment i gets ``seed + i``) or one
        per environment; ``options={"puzzle": grid}`` plays that puzzle in every one."""
        seeds: List[Optional[int]]
        if seed is None:
            seeds = [None] * self.num_envs
        elif isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            seeds = [int(seed) + i for i in range(self.num_envs)]
            super().reset(seed=int(seed))
        else:
            seeds = list(cast(List[Optional[int]], seed))
            if len(seeds) != self.num_envs:
                raise ValueError(f"{len(seeds)} seeds for {self.num_envs} environments")
        if not self._seeded:
            fresh = np.random.SeedSequence().generate_state(self.num_envs, dtype=np.uint64)
            seeds = [int(f) >> 1 if s is None else s for s, f in zip(seeds, fresh)]
        self._seeded = True
        puzzle = _reset_puzzle(options, self._batch.box, self._rules)
        obs, _, _, _, infos = self._unpack(self._batch.reset(seeds, puzzle))
        return obs, infos

    def step(
        self, actions: np.ndarray
    ) -> Tuple[Observation, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """One step of every environment: ``actions`` one int id per environment."""
        if not self._seeded:
            raise RuntimeError("call reset() before step()")
        return self._unpack(self._batch.step(actions))

    def action_masks(self) -> np.ndarray:
        """The legal actions of every environment: a (num_envs, actions) bool array."""
        masks: np.ndarray = self._batch.action_masks()
        return masks

    def sample_legal_actions(self, seed: Optional[int] = None) -> np.ndarray:
        """One uniformly drawn legal action per environment (0 where there is none), in one
        native call, from random numbers of its own (``seed`` restarts them)."""
        actions: np.ndarray = self._batch.sample_legal_actions(seed)
        return actions


_ID = "sudoku_rs/Sudoku-v0"
if _ID not in gym.registry:
    gym.register(
        id=_ID,
        entry_point="sudoku_rs.env:SudokuEnv",
        vector_entry_point="sudoku_rs.env:SudokuVectorEnv",
    )
