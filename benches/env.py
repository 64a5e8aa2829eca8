"""Environment steps per second with random legal actions, side by side in one run:
sudoku_rs's SudokuVectorEnv, jumanji's Sudoku (JAX, jitted, vmapped over the same batch) and
gymnasium-sudoku, measured in alternating rounds.

    python benches/env.py                                   # sudoku_rs alone
    python benches/env.py --peer-python /path/to/venv/bin/python --envs 1024

The peers are benchmark-only tools, never dependencies: install them into a separate venv
(`pip install jumanji gymnasium-sudoku`) and pass its interpreter with --peer-python; this
script starts itself there once per peer (--peer NAME), each peer sets its environment up and
jit-compiles once, and then every round times sudoku_rs, then jumanji, then gymnasium-sudoku,
one after the other, so that each round's figures share the machine's load of that minute.
Every environment is 9x9 and takes a uniformly random legal action each step (a candidate digit
on a blank cell, drawn among the legal actions of its board), episodes resetting as they end:

- sudoku_rs: SudokuVectorEnv over --envs environments, puzzles drawn from --pool generated
  puzzles; each batch step is two native calls (`sample_legal_actions`, which draws from the
  legal actions as a mask would give them, and `step`, which, in such a loop, also draws the
  next call's actions while each board is in the cache); the step alone is timed in a loop
  that draws with a seed each time, which stops the step from drawing ahead.
- jumanji: `Sudoku-v0` under `VmapAutoResetWrapper`, one jitted function that draws the
  actions from the observation's action masks and steps the batch, called once per batch step
  (as an agent would call an env), and the same inside `jax.lax.scan` over --scan steps per
  call (its best case).
- gymnasium-sudoku: its environment is single, Python, so one instance steps and the figure is
  per environment step, the step alone timed.

A round runs each figure's loop for at least --seconds by the wall clock (whole calls). The
table gives every round's figures and ratios, and the median ratio over the rounds: the
like-for-like ratios are sudoku_rs sampling and stepping against both jumanji figures (each
draws and steps), and sudoku_rs's step alone against gymnasium-sudoku's step alone.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from typing import Callable, Dict, List, Tuple

Round = Callable[[], Dict[str, float]]


def timed(call: Callable[[], Tuple[int, float]], seconds: float) -> float:
    """Steps per second of `call()` (which returns (steps, seconds spent)) repeated until
    `seconds` of wall clock have passed."""
    steps, spent = 0, 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        more, took = call()
        steps += more
        spent += took
    return steps / spent


def sudoku_rs_round(args) -> Round:
    import sudoku_rs as sr
    from sudoku_rs.env import SudokuVectorEnv

    pool = sr.generate_batch(args.pool, seed=1)
    env = SudokuVectorEnv(args.envs, pool, reward="dense")
    env.reset(seed=0)
    env.sample_legal_actions(seed=0)

    def sample_and_step() -> Tuple[int, float]:
        start = time.perf_counter()
        env.step(env.sample_legal_actions())
        return args.envs, time.perf_counter() - start

    drawn = 0

    def step_only() -> Tuple[int, float]:
        # A seeded draw keeps the step from also drawing the next call's actions.
        nonlocal drawn
        drawn += 1
        actions = env.sample_legal_actions(seed=drawn)
        start = time.perf_counter()
        env.step(actions)
        return args.envs, time.perf_counter() - start

    timed(sample_and_step, 0.2)
    return lambda: {
        "sudoku_rs SudokuVectorEnv (sample_legal_actions + step)": timed(
            sample_and_step, args.seconds
        ),
        "sudoku_rs SudokuVectorEnv (step alone)": timed(step_only, args.seconds),
    }


def jumanji_round(args) -> Round:
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

    def per_call() -> Tuple[int, float]:
        nonlocal carry
        start = time.perf_counter()
        carry = one(carry)
        jax.block_until_ready(carry)
        return args.envs, time.perf_counter() - start

    def scanned() -> Tuple[int, float]:
        nonlocal carry
        start = time.perf_counter()
        carry = many(carry)
        jax.block_until_ready(carry)
        return args.scan * args.envs, time.perf_counter() - start

    return lambda: {
        "jumanji Sudoku-v0 (jit, one call per batch step)": timed(per_call, args.seconds),
        f"jumanji Sudoku-v0 (jit, lax.scan of {args.scan} steps)": timed(scanned, args.seconds),
    }


def gymnasium_sudoku_round(args) -> Round:
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

    def one_step() -> Tuple[int, float]:
        # Only the env's step is timed; drawing the legal action is this script's work.
        action = legal_action()
        while action is None:
            env.reset()
            action = legal_action()
        start = time.perf_counter()
        _, _, terminated, truncated, _ = env.step(action)
        spent = time.perf_counter() - start
        if terminated or truncated:
            env.reset()
        return 1, spent

    timed(one_step, 0.2)
    return lambda: {
        "gymnasium-sudoku sudoku-v1 (one env, step alone)": timed(one_step, args.seconds)
    }


PEERS = {"jumanji": jumanji_round, "gymnasium-sudoku": gymnasium_sudoku_round}
OURS = "sudoku_rs SudokuVectorEnv (sample_legal_actions + step)"
OURS_STEP = "sudoku_rs SudokuVectorEnv (step alone)"
#: (ours, peer): the like-for-like pairs whose per-round ratio the summary gives.
PAIRS = [
    (OURS, "jumanji Sudoku-v0 (jit, one call per batch step)"),
    (OURS, "jumanji Sudoku-v0 (jit, lax.scan of {scan} steps)"),
    (OURS_STEP, "gymnasium-sudoku sudoku-v1 (one env, step alone)"),
]


def serve(args) -> None:
    """A peer's side: set up, say which versions run, then one round per line read."""
    run = PEERS[args.peer](args)
    from importlib.metadata import PackageNotFoundError, version

    versions = {}
    for name in ("jax", "jaxlib", "jumanji", "gymnasium", "gymnasium-sudoku"):
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            continue
    print(json.dumps({"ready": versions}), flush=True)
    for line in sys.stdin:
        if line.strip() != "round":
            break
        print(json.dumps(run()), flush=True)


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=1.0, help="per figure per round")
    parser.add_argument("--scan", type=int, default=50, help="steps per jumanji scan call")
    parser.add_argument("--pool", type=int, default=1000, help="puzzles sudoku_rs draws from")
    parser.add_argument("--peer-python", help="the interpreter of a venv with the peers")
    parser.add_argument("--peer", choices=sorted(PEERS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer:
        serve(args)
        return

    import sudoku_rs

    print(f"machine: {cpu_model()}, {os.cpu_count()} CPUs, {platform.system()}")
    print(f"python {platform.python_version()}, sudoku_rs {sudoku_rs.__version__}")
    print(f"command: {' '.join([os.path.basename(sys.executable), *sys.argv])}")
    print(f"load average at the start: {os.getloadavg()}")
    rounds = {"sudoku_rs": sudoku_rs_round(args)}
    peers: Dict[str, subprocess.Popen] = {}
    missing = []
    for name in PEERS:
        if not args.peer_python:
            missing.append(f"{name}: no --peer-python given")
            continue
        forwarded = [a for a in sys.argv[1:] if not a.startswith("--peer-python")]
        if args.peer_python in forwarded:
            forwarded.remove(args.peer_python)
        peer = subprocess.Popen(
            [args.peer_python, __file__, "--peer", name, *forwarded],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert peer.stdout is not None
        ready = peer.stdout.readline()
        if not ready:
            peer.wait()
            assert peer.stderr is not None
            missing.append(f"{name}: failed ({peer.stderr.read().strip().splitlines()[-1:]})")
            continue
        print(f"{name}: {json.loads(ready)['ready']}")
        peers[name] = peer

    def peer_round(peer: subprocess.Popen) -> Dict[str, float]:
        assert peer.stdin is not None and peer.stdout is not None
        peer.stdin.write("round\n")
        peer.stdin.flush()
        figures: Dict[str, float] = json.loads(peer.stdout.readline())
        return figures

    table: List[Dict[str, float]] = []
    loads = []
    for _ in range(args.rounds):
        figures = rounds["sudoku_rs"]()
        for peer in peers.values():
            figures.update(peer_round(peer))
        table.append(figures)
        loads.append(os.getloadavg()[0])
    for peer in peers.values():
        assert peer.stdin is not None
        peer.stdin.close()
        peer.wait()
    print(f"load average at the end: {os.getloadavg()}; 1-minute load after each round:")
    print("  " + ", ".join(f"{x:.1f}" for x in loads))
    print(
        f"\n{args.envs} environments, {args.rounds} alternating rounds, each figure at least "
        f"{args.seconds} s a round; steps per second:\n"
    )
    names = list(table[0])
    print("| figure | " + " | ".join(f"round {r + 1}" for r in range(len(table))) + " | median |")
    print("|---|" + "---:|" * (len(table) + 1))
    for name in names:
        rates = [row[name] for row in table]
        cells = " | ".join(f"{x:,.0f}" for x in rates)
        print(f"| {name} | {cells} | {statistics.median(rates):,.0f} |")
    print(
        "\n| sudoku_rs is, per round | "
        + " | ".join(f"round {r + 1}" for r in range(len(table)))
        + " | median |"
    )
    print("|---|" + "---:|" * (len(table) + 1))
    pairs = [(ours, peer.format(scan=args.scan)) for ours, peer in PAIRS]
    for ours, peer in pairs:
        if peer not in names:
            continue
        ratios = [row[ours] / row[peer] for row in table]
        cells = " | ".join(f"{x:,.1f}x" for x in ratios)
        print(f"| {ours} / {peer} | {cells} | **{statistics.median(ratios):,.1f}x** |")
    for line in missing:
        print(f"\nleft out: {line}")


if __name__ == "__main__":
    main()
