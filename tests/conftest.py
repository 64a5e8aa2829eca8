"""Shared pytest fixtures and the hypothesis profiles.

Helper functions live in helpers.py and the oracle in reference.py; this file
puts tests/ on sys.path so that `import helpers` and `import reference` work
whatever pytest import mode is in use.
"""

import os
import signal
import sys
from pathlib import Path

import pytest
from hypothesis import settings

TESTS_DIR = Path(__file__).resolve().parent
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

import helpers  # noqa: E402

# CI: same examples every run (no flaky reds), no example database.
settings.register_profile(
    "ci", max_examples=100, deadline=None, derandomize=True, database=None, print_blob=True
)
# Local runs: fewer examples, random each run.
settings.register_profile("dev", max_examples=50, deadline=None)
_in_ci = os.environ.get("CI", "").lower() in ("true", "1", "yes")
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if _in_ci else "dev"))


@pytest.fixture(scope="session")
def data_dir():
    """../shared/data beside the repository, or the small samples in
    tests/data when that is not there."""
    return helpers.data_dir()


@pytest.fixture(scope="session")
def shared_data_dir():
    """../shared/data; tests that need the full sets skip without it."""
    if not helpers.SHARED_DATA_DIR.is_dir():
        pytest.skip("../shared/data is not present; only tests/data samples are")
    return helpers.SHARED_DATA_DIR


@pytest.fixture(scope="session")
def load_dataset(data_dir):
    """load_dataset(name, k) -> the first k puzzle lines of data file `name`."""

    def load(name, k):
        lines = helpers.read_lines(data_dir / name, k)
        assert lines, f"no puzzles in {data_dir / name}"
        return lines

    return load


@pytest.fixture
def alarm():
    """alarm(seconds) -> helpers.Interrupted is raised in the main thread after `seconds`, as
    Ctrl-C would raise KeyboardInterrupt; the timer and the old handler are restored after."""
    previous = signal.signal(signal.SIGALRM, helpers.raise_interrupted)
    yield lambda seconds: signal.setitimer(signal.ITIMER_REAL, seconds)
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)
