"""Writing a file all at once or not at all, for every writer of the package.

The bytes go to a temporary file beside the target, which replaces the target (one rename) only
when the writing finished without an exception. So a failed or interrupted run leaves the
target as it was, never half written, and a run that reads a file while writing another never
truncates what it is still reading. A killed process (SIGKILL, power loss) may leave a
``.NAME.*.tmp`` file beside the target, never a damaged target.
"""

from __future__ import annotations

import contextlib
import io
import os
import secrets
import stat
from typing import IO, Iterator, Optional, Union

PathLike = Union[str, "os.PathLike[str]"]


class SameFileError(ValueError):
    """The output named is the file being read (the same file, also through a link)."""


def same_file(a: os.stat_result, b: os.stat_result) -> bool:
    """Whether two stat results are one file (hard links and symlinks resolved by ``stat``)."""
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def refuse_same_file(output: PathLike, source: os.stat_result, source_name: str) -> None:
    """Raises SameFileError when ``output`` exists and is the file ``source`` describes."""
    try:
        target = os.stat(output)
    except FileNotFoundError:
        return
    if same_file(target, source):
        raise SameFileError(
            f"the output {os.fspath(output)!r} is the input {source_name!r} (the same file): "
            "writing it would destroy the puzzles being read; choose another output"
        )


@contextlib.contextmanager
def atomic_write(path: PathLike, *, encoding: Optional[str] = None) -> Iterator[IO]:
    """Opens a new file to stand in for ``path`` (binary, or text in ``encoding``) and puts it
    in place of ``path`` when the ``with`` block ends without an exception; on an exception it
    is removed and ``path`` stays as it was.

    A symlink at ``path`` keeps pointing where it did: its target is replaced. The new file
    gets the mode of the file it replaces, or the usual mode for a new file (0o666 less the
    umask). A ``path`` that is not a regular file (``/dev/null``, a pipe, a terminal) cannot be
    replaced, so it is written directly.
    """
    # stat, not realpath, decides what the path is: /dev/stdout resolves to a "pipe:[...]" name
    # that is no path at all.
    try:
        old: Optional[os.stat_result] = os.stat(path)
    except FileNotFoundError:
        old = None
    if old is not None and stat.S_ISDIR(old.st_mode):
        raise IsADirectoryError(f"the output {os.fspath(path)!r} is a directory")
    if old is not None and not stat.S_ISREG(old.st_mode):
        with open(path, "w" if encoding else "wb", encoding=encoding) as direct:
            yield direct
        return
    folder, name = os.path.split(os.path.realpath(os.fspath(path)))
    target = os.path.join(folder, name)
    tmp = ""
    # One try from before the file exists, so a Ctrl-C just after it appears still removes it.
    try:
        while not tmp:
            tmp = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
            try:
                # 0o666 less the umask, as `open` would create it.
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:
                tmp = ""  # another writer's name: not ours to remove; draw again
            except OSError as err:
                # A missing or read-only folder: name the file asked for, not our temporary one.
                tmp = ""
                raise type(err)(err.errno, err.strerror, os.fspath(path)) from None
        with os.fdopen(fd, "wb") as raw:
            if old is not None:
                os.chmod(tmp, stat.S_IMODE(old.st_mode))
            if encoding:
                with io.TextIOWrapper(raw, encoding=encoding, newline="") as text:
                    yield text
                    text.flush()
                    os.fsync(raw.fileno())
            else:
                yield raw
                raw.flush()
                os.fsync(raw.fileno())
        os.replace(tmp, target)
    except BaseException:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise


def write_atomic(path: PathLike, data: bytes) -> None:
    """Writes ``data`` as the whole of ``path``, all at once or not at all."""
    with atomic_write(path) as f:
        f.write(data)
