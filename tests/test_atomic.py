"""No data loss: every writer replaces its file all at once or not at all, and the CLI refuses
to write over the file it reads."""

import os
import signal
import stat
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import sudoku_rs as sr
from sudoku_rs._atomic import SameFileError, atomic_write, refuse_same_file, write_atomic

LEET = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def cli(*args, stdout=subprocess.PIPE, **kwargs):
    return subprocess.run(
        [sys.executable, "-m", "sudoku_rs", *args],
        check=False,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        **kwargs,
    )


def leftovers(folder):
    """Temporary files a writer left behind."""
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


# ------------------------------------------------------------ the writer


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "out.txt"
    target.write_bytes(b"old\n")
    for error in (RuntimeError("boom"), KeyboardInterrupt()):
        with pytest.raises(type(error)), atomic_write(target) as f:
            f.write(b"half of the new")
            raise error
        assert target.read_bytes() == b"old\n"
        assert leftovers(tmp_path) == []
    # A new file is not created either.
    with pytest.raises(RuntimeError), atomic_write(tmp_path / "new.txt") as f:
        raise RuntimeError
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_the_old_file_stays_whole_until_the_write_ends(tmp_path):
    target = tmp_path / "out.txt"
    target.write_bytes(b"old\n")
    with atomic_write(target) as f:
        f.write(b"new\n")
        f.flush()
        assert target.read_bytes() == b"old\n"
        assert len(leftovers(tmp_path)) == 1
    assert target.read_bytes() == b"new\n" and leftovers(tmp_path) == []


def test_keeps_the_mode_of_the_file_it_replaces_and_umask_for_a_new_one(tmp_path):
    old = tmp_path / "old.txt"
    old.write_bytes(b"x")
    old.chmod(0o640)
    write_atomic(old, b"y")
    assert stat.S_IMODE(old.stat().st_mode) == 0o640
    mask = os.umask(0o027)
    try:
        write_atomic(tmp_path / "new.txt", b"z")
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640


def test_a_symlink_keeps_pointing_at_the_new_content(tmp_path):
    real = tmp_path / "real.txt"
    real.write_bytes(b"old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    write_atomic(link, b"new")
    assert link.is_symlink() and real.read_bytes() == b"new"


def test_text_mode_and_a_pipe_that_cannot_be_replaced(tmp_path):
    with atomic_write(tmp_path / "t.txt", encoding="utf-8") as f:
        f.write("é\n")
    assert (tmp_path / "t.txt").read_bytes() == "é\n".encode()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_atomic(fifo, b"through the pipe")
    reader.join(10)
    assert got == [b"through the pipe"] and stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path, b"x")


def test_refuse_same_file_sees_through_links(tmp_path):
    src = tmp_path / "in.txt"
    src.write_bytes(b"x")
    os.link(src, tmp_path / "hard.txt")
    (tmp_path / "soft.txt").symlink_to(src)
    seen = os.stat(src)
    for name in ("in.txt", "hard.txt", "soft.txt"):
        with pytest.raises(SameFileError, match="is the input"):
            refuse_same_file(tmp_path / name, seen, "in.txt")
    refuse_same_file(tmp_path / "other.txt", seen, "in.txt")  # missing: fine


def test_write_puzzles_leaves_the_file_on_an_error(tmp_path):
    target = tmp_path / "p.txt"
    sr.write_puzzles(target, np.ones((2, 81), dtype=np.uint8))
    before = target.read_bytes()
    with pytest.raises(sr.InvalidPuzzleError):
        sr.write_puzzles(target, np.full((2, 81), 10, dtype=np.uint8))
    assert target.read_bytes() == before and leftovers(tmp_path) == []


# ------------------------------------------------------------ the command line


@pytest.mark.parametrize("how", ["same", "hard link", "symlink"])
def test_cli_refuses_to_write_over_its_input(tmp_path, how):
    src = tmp_path / "puzzles.txt"
    src.write_text((LEET + "\n") * 50)
    before = src.read_bytes()
    out = src
    if how == "hard link":
        out = tmp_path / "hard.txt"
        os.link(src, out)
    elif how == "symlink":
        out = tmp_path / "soft.txt"
        out.symlink_to(src)
    result = cli("solve", str(src), "-o", str(out))
    assert result.returncode == 2, result.stderr
    assert "is the input" in result.stderr and "Traceback" not in result.stderr
    assert src.read_bytes() == before and leftovers(tmp_path) == []


def test_cli_refuses_to_append_its_output_to_its_input(tmp_path):
    src = tmp_path / "puzzles.txt"
    src.write_text(LEET + "\n")
    with open(src, "a") as out:
        result = cli("solve", str(src), stdout=out)
    assert result.returncode == 2 and "is the input" in result.stderr
    assert src.read_text() == LEET + "\n"


def test_cli_writes_to_dev_stdout_directly(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text(LEET + "\n")
    result = cli("solve", str(src), "-o", "/dev/stdout", "-q")
    assert result.returncode == 0, result.stderr
    assert result.stdout == sr.solve(LEET) + "\n"


def test_cli_leaves_the_output_alone_when_a_line_is_bad(tmp_path):
    src = tmp_path / "in.txt"
    src.write_text(f"{LEET}\n{LEET[:40]}\n")
    out = tmp_path / "out.txt"
    out.write_text("yesterday's results\n")
    result = cli("solve", str(src), "-o", str(out))
    assert result.returncode == 2 and f"{src}:2:" in result.stderr
    assert out.read_text() == "yesterday's results\n" and leftovers(tmp_path) == []
    result = cli("solve", str(src), "-o", str(out), "--skip-invalid")
    assert result.returncode == 0
    assert out.read_text() == sr.solve(LEET) + "\n\n"


def test_cli_interrupted_leaves_the_output_alone(tmp_path, data_dir):
    lines = (data_dir / "puzzles5_forum_hardest_1905_11+").read_text().split()[:2000]
    src = tmp_path / "in.txt"
    # Counting the solutions of hard puzzles on one thread takes seconds.
    src.write_text("\n".join(lines * (40_000 // len(lines))) + "\n")
    out = tmp_path / "out.txt"
    out.write_text("yesterday's results\n")
    proc = subprocess.Popen(
        [sys.executable, "-m", "sudoku_rs", "count", str(src), "-o", str(out), "--threads", "1"],
        stderr=subprocess.PIPE,
        text=True,
        # A run started in the background (a CI job) may pass SIGINT down ignored, and Python
        # then keeps ignoring it: give the command Ctrl-C's usual handling, as in a terminal.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while not leftovers(tmp_path) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    # Let the search start: this test is about the output file, not a Ctrl-C during start-up.
    time.sleep(0.5)
    assert proc.poll() is None, "finished before it could be interrupted"
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "interrupted" in err, err
    assert out.read_text() == "yesterday's results\n" and leftovers(tmp_path) == []
