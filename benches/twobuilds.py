"""Two builds of sudoku_rs side by side in one run: the harness benches/builds.py and
benches/variant_engines.py share.

A build is a Python interpreter that imports the sudoku_rs to time (a venv with that build
installed: `python3 -m venv V && V/bin/pip install maturin numpy && V/bin/pip install <checkout>`).
Each runs the calling script as a worker (`script --worker`) in its own process, kept for the
whole run, answering one JSON request a line with one JSON line; the builds are asked in turn,
the order swapped every round, so load on a shared machine falls on both alike.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys


class Build:
    """One build's worker process."""

    def __init__(self, name: str, python: str, script: str) -> None:
        self.name = name
        self.proc = subprocess.Popen(
            [python, os.path.abspath(script), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ask(self, **req) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            sys.exit(f"the {self.name} worker stopped; run it by hand to see why")
        return json.loads(line)

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait()


def alternate(before: Build, after: Build, rounds: int, **req) -> dict[str, list[dict]]:
    """Asks both builds `req` once a round, `before` first in even rounds and `after` first in
    odd ones; each build's replies, in round order."""
    replies: dict[str, list[dict]] = {before.name: [], after.name: []}
    for r in range(rounds):
        for build in (before, after) if r % 2 == 0 else (after, before):
            replies[build.name].append(build.ask(**req))
    return replies


def serve(answer) -> None:
    """The worker loop: `answer(request)` for each JSON line on stdin, its reply to stdout."""
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)


def cpu_model() -> str:
    """The processor's model name, for the header of a run."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    import platform

    return platform.processor() or platform.machine()
