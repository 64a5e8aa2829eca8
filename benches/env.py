"""Environment steps per second with random legal actions, side by side in one run:
sudoku_rs's SudokuVectorEnv, jumanji's Sudoku (JAX, jitted, vmapped over the same batch) and
gymnasium-sudoku.

    python benches/env.py                                   # sudoku_rs alone
    python benches/env.py --peer-python /path/to/venv/bin/python --envs 1024

The peers are benchmark-only tools, never dependencies: install them into a separate venv
(`pip install jumanji gymnasium-sudoku`) and pass its interpreter with --peer-python; this
script runs itself there (--peer NAME) for each peer and prints every figure in one table.
Every environment is 9x9 and takes a uniformly random legal action each step (a candidate digit
on a blank cell), episodes resetting as they end:

- sudoku_rs: SudokuVectorEnv over --envs environments, puzzles drawn from --pool generated
  puzzles; each batch step is two native calls (`sample_legal_actions`, `step`), and the same
  loop is timed again counting only the time spent in `step`.
- jumanji: `Sudoku-v0` under `VmapAutoResetWrapper`, one jitted function that draws the
  actions from the masks and steps the batch, called once per batch step (as an agent would
  call an env), and the same inside `jax.lax.scan` over --scan steps per call (its best case).
- gymnasium-sudoku: its environment is single, Python, so one instance steps --single-steps
  times and the figure is per environment step.

Each figure is the best of --repeat rounds of --steps batch steps after a warm-up, by the wall
clock; the load average is printed, since the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time


def best_of(repeat: int, run) -> float:
    """The best steps per second over `repeat` rounds of `run()`, which returns (steps, s)."""
    return max(steps / seconds for steps, seconds in (run() for _ in range(repeat)))


def bench_sudoku_rs(args) -> dict:
    import sudoku_rs as sr
    from sudoku_rs.env import SudokuVectorEnv

    pool = sr.generate_batch(args.pool, seed=1)
    env = SudokuVectorEnv(args.envs, pool, reward="dense")
    env.reset(seed=0)
    env.sample_legal_actions(seed=0)

    def sample_and_step():
        start = time.perf_counter()
        for _ in range(args.steps):
            env.step(env.sample_legal_actions())
        return args.steps * args.envs, time.perf_counter() - start

    def step_only():
        # The same loop, timing only the step calls.
        spent = 0.0
        for _ in range(args.steps):
            actions = env.sample_legal_actions()
            start = time.perf_counter()
            env.step(actions)
            spent += time.perf_counter() - start
        return args.steps * args.envs, spent

    sample_and_step()
    return {
        "sudoku_rs SudokuVectorEnv (sample_legal_actions + step)": best_of(
            args.repeat, sample_and_step
        ),
        "sudoku_rs SudokuVectorEnv (step alone)": best_of(args.repeat, step_only),
    }


def bench_jumanji(args) -> dict:
    import jax
    import jax.numpy as jnp
    import jumanji
    from jumanji.wrappers import VmapAutoResetWrapper

    env = VmapAutoResetWrapper(jumanji.make("Sudoku-v0"))
    keys = jax.random.split(jax.random.PRNGKey(0), args.envs)
    state, timestep = jax.jit(env.reset)(keys)

    def draw(key, mask):
        flat = mask.reshape(mask.shape[0], -1)
        logits = jnp.where(flat, 0.0, -jnp.inf)
        # A board with no legal action ends its episode; any action does then.
        logits = jnp.where(flat.any(axis=1, keepdims=True), logits, 0.0)
        index = jax.random.categorical(key, logits, axis=1)
        return jnp.stack([index // 81, index // 9 % 9, index % 9], axis=1)

    @jax.jit
    def one(carry):
        state, timestep, key = carry
        key, sub = jax.random.split(key)
        state, timestep = env.step(state, draw(sub, timestep.observation.action_mask))
        return state, timestep, key

    @jax.jit
    def many(carry):
        return jax.lax.scan(lambda c, _: (one(c), None), carry, None, length=args.scan)[0]

    carry = (state, timestep, jax.random.PRNGKey(1))
    carry = one(carry)
    jax.block_until_ready(carry)
    carry = many(carry)
    jax.block_until_ready(carry)

    def per_call():
        nonlocal carry
        start = time.perf_counter()
        for _ in range(args.steps):
            carry = one(carry)
        jax.block_until_ready(carry)
        return args.steps * args.envs, time.perf_counter() - start

    def scanned():
        nonlocal carry
        calls = max(1, args.steps // args.scan)
        start = time.perf_counter()
        for _ in range(calls):
            carry = many(carry)
        jax.block_until_ready(carry)
        return calls * args.scan * args.envs, time.perf_counter() - start

    return {
        "jumanji Sudoku-v0 (jit, one call per batch step)": best_of(args.repeat, per_call),
        f"jumanji Sudoku-v0 (jit, lax.scan of {args.scan} steps)": best_of(args.repeat, scanned),
    }


def bench_gymnasium_sudoku(args) -> dict:
    import gymnasium as gym
    import gymnasium_sudoku  # noqa: F401  (registers sudoku-v0 and sudoku-v1)
    import numpy as np

    env = gym.make("sudoku-v1").unwrapped
    rng = np.random.default_rng(0)
    env.reset(seed=0)

    def legal_action():
        """A random candidate digit on a blank cell of its board (row, col, digit), or None."""
        board = np.asarray(env.state)
        moves = []
        for r, c in zip(*np.nonzero(board == 0)):
            box = board[r - r % 3 : r - r % 3 + 3, c - c % 3 : c - c % 3 + 3]
            used = set(board[r].tolist()) | set(board[:, c].tolist()) | set(box.ravel().tolist())
            moves += [(int(r), int(c), d) for d in range(1, 10) if d not in used]
        return moves[rng.integers(len(moves))] if moves else None

    def run():
        # Only the env's step is timed; drawing the legal action is this script's work.
        steps, spent = 0, 0.0
        while steps < args.single_steps:
            action = legal_action()
            if action is None:
                env.reset()
                continue
            start = time.perf_counter()
            _, _, terminated, truncated, _ = env.step(action)
            spent += time.perf_counter() - start
            steps += 1
            if terminated or truncated:
                env.reset()
        return steps, spent

    run()
    return {"gymnasium-sudoku sudoku-v1 (one env, step alone)": best_of(args.repeat, run)}


PEERS = {"jumanji": bench_jumanji, "gymnasium-sudoku": bench_gymnasium_sudoku}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=200, help="batch steps per round")
    parser.add_argument("--scan", type=int, default=50, help="steps per jumanji scan call")
    parser.add_argument("--single-steps", type=int, default=2000)
    parser.add_argument("--pool", type=int, default=1000, help="puzzles sudoku_rs draws from")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peer-python", help="the interpreter of a venv with the peers")
    parser.add_argument("--peer", choices=sorted(PEERS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer:
        print(json.dumps(PEERS[args.peer](args)))
        return

    print(f"machine: {platform.machine()} {platform.processor() or ''}, {os.cpu_count()} CPUs")
    print(f"python {platform.python_version()}, load average {os.getloadavg()}")
    print(f"{args.envs} environments, best of {args.repeat} rounds of {args.steps} batch steps\n")
    figures = bench_sudoku_rs(args)
    missing = []
    for name in PEERS:
        if not args.peer_python:
            missing.append(f"{name}: no --peer-python given")
            continue
        forwarded = [a for a in sys.argv[1:] if not a.startswith("--peer-python")]
        if args.peer_python in forwarded:
            forwarded.remove(args.peer_python)
        done = subprocess.run(
            [args.peer_python, __file__, "--peer", name, *forwarded],
            check=False,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            missing.append(f"{name}: failed ({done.stderr.strip().splitlines()[-1:]})")
            continue
        figures.update(json.loads(done.stdout.strip().splitlines()[-1]))
    ours = figures["sudoku_rs SudokuVectorEnv (sample_legal_actions + step)"]
    print(f"| {'environment':<60} | {'steps/s':>14} | {'sudoku_rs is':>12} |")
    print(f"|{'-' * 62}|{'-' * 16}:|{'-' * 14}:|")
    for name, rate in figures.items():
        print(f"| {name:<60} | {rate:>14,.0f} | {ours / rate:>11,.1f}x |")
    for line in missing:
        print(f"\nleft out: {line}")


if __name__ == "__main__":
    main()
