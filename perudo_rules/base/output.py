"""One writer for the files a command writes: checked before the work, written atomically.

A command that writes files (``play --record-out``, ``simulate --plot`` and
``--save-records``, ``export-scenarios OUT --schema FILE``) makes an :class:`Outputs`
with its input files, and :meth:`Outputs.add` each output path *before* it starts the
work: a missing or read-only folder, a directory, a read-only file, an input file or
another output of the same run is refused then, in one line (:class:`OutputError`).

:func:`write_bytes` and :func:`write_text` write a regular file atomically: to a
temporary file in the same folder, renamed over the target only once complete (a full
disk or an interrupt leaves the old file as it was, and no half-written one). A target
that exists and is not a regular file (``/dev/null``, ``/dev/stdout``, a FIFO) is
written in place. Any failure is an :class:`OutputError` naming the file.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from perudo_rules.base.errors import OutputError
from perudo_rules.base.safetext import display_path, printable

__all__ = ["Outputs", "progress_printer", "write_bytes", "write_text"]

PathLike = str | os.PathLike[str]


def _why(exc: OSError) -> str:
    if exc.errno == errno.ENAMETOOLONG:
        return "file name too long"
    return exc.strerror or type(exc).__name__


def _fail(path: PathLike, message: str) -> OutputError:
    return OutputError(f"cannot write {display_path(path)}: {message}")


def _stat(path: PathLike) -> os.stat_result | None:
    """``os.stat`` of ``path`` (following links), ``None`` if there is no such file."""
    try:
        return os.stat(path)
    except ValueError:  # a NUL byte
        raise _fail(path, "not a file name (it contains a NUL byte)") from None
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise _fail(path, _why(exc)) from None


_INPUT = "<input>"


def _key(path: PathLike) -> str:
    return os.path.realpath(os.fspath(path))


class Outputs:
    """The output files of one run, each checked when it is added (see the module text).

    ``inputs`` are the files the run reads (names of bundled editions and ``-`` are
    skipped): no output may be one of them, nor the same file as another output.
    """

    def __init__(self, inputs: Iterable[PathLike] = ()) -> None:
        # real path -> what it is, and the identity of each existing file (hard links)
        self._seen: dict[str, str] = {}
        self._ids: dict[tuple[int, int], str] = {}
        for path in inputs:
            info = _stat_quiet(path) if os.fspath(path) not in ("", "-") else None
            if info is not None:
                self._seen[_key(path)] = _INPUT
                self._ids[info.st_dev, info.st_ino] = _INPUT

    def add(self, path: PathLike, what: str = "output") -> Path:
        """Check that ``path`` can be written and is not an input or another output;
        return it. ``what`` names it in the error (``"--plot"``)."""
        if os.fspath(path) == "":
            raise OutputError(f"{what}: an empty file name")
        info = _stat(path)
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise _fail(path, "it is a directory")
        key = _key(path)
        clash = self._seen.get(key)
        if clash is None and info is not None:  # the same file by another name (a hard link)
            clash = self._ids.get((info.st_dev, info.st_ino))
        if clash == _INPUT:
            raise _fail(path, "it is an input of this run")
        if clash is not None:
            raise _fail(path, f"{clash} and {what} name the same file")
        if info is None or stat.S_ISREG(info.st_mode):
            folder = os.path.dirname(key) or "."
            folder_info = _stat(folder)
            if folder_info is None or not stat.S_ISDIR(folder_info.st_mode):
                raise _fail(path, f"no such folder {display_path(folder)}")
            if not os.access(folder, os.W_OK | os.X_OK):
                raise _fail(path, f"the folder {display_path(folder)} is not writable")
            if info is not None and not os.access(key, os.W_OK):
                raise _fail(path, "the file is read-only")
        self._seen[key] = what
        if info is not None:
            self._ids[info.st_dev, info.st_ino] = what
        return Path(path)

    def add_folder(self, path: PathLike, what: str = "output folder") -> Path:
        """Create the folder ``path`` if needed and check that files can be written in it."""
        try:
            Path(path).mkdir(parents=True, exist_ok=True)
        except ValueError:
            raise _fail(path, "not a folder name (it contains a NUL byte)") from None
        except FileExistsError:
            raise _fail(path, "it exists and is not a folder") from None
        except OSError as exc:
            raise _fail(path, _why(exc)) from None
        if not os.access(path, os.W_OK | os.X_OK):
            raise _fail(path, "the folder is not writable")
        return Path(path)


def _stat_quiet(path: PathLike) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def write_text(path: PathLike, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically (see :func:`write_bytes`)."""
    write_bytes(path, text.encode("utf-8", errors="surrogateescape"))


def write_bytes(path: PathLike, data: bytes) -> None:
    """Write ``data`` to ``path``: a regular file atomically (a temporary file in the same
    folder, then a rename; its permissions kept when it is replaced), anything else
    (``/dev/null``, a FIFO) in place. :class:`OutputError` if the write fails."""
    info = _stat(path)
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise _fail(path, "it is a directory")
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_in_place(path, data)
        return
    target = _key(path)  # a symbolic link is kept: the file it points to is replaced
    folder = os.path.dirname(target) or "."
    tmp = ""
    try:
        fd, tmp = _temporary(folder, os.path.basename(target))
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if info is not None:
            os.chmod(tmp, stat.S_IMODE(info.st_mode))
        os.replace(tmp, target)
        tmp = ""
    except OSError as exc:
        raise _fail(path, _why(exc)) from None
    finally:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def _write_in_place(path: PathLike, data: bytes) -> None:
    """Write to a device or a FIFO. The open does not wait: a FIFO nobody reads is an
    error at once, not a hang."""
    flags = os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise _fail(path, "it is a FIFO that nobody reads") from None
        raise _fail(path, _why(exc)) from None
    try:
        os.set_blocking(fd, True)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise _fail(path, _why(exc)) from None


def _temporary(folder: str, name: str) -> tuple[int, str]:
    """A new file next to the target, created with the user's umask (like any new file)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    stem = name[:100]
    for _ in range(100):
        tmp = os.path.join(folder, f".{stem}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, flags, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "cannot create a temporary file", folder)


def progress_printer(command: str = "conform") -> Callable[[str], None]:
    """A progress callback for :func:`~perudo_rules.conform.runner.conform` (or another
    long ``command``): silent for the first two seconds of a run, then a line on standard
    error at most every second."""
    started = time.monotonic()
    last = [started]

    def say(text: str) -> None:
        now = time.monotonic()
        if now - started > 2 and now - last[0] >= 1:
            last[0] = now
            print(f"{command}: {printable(text)} ({now - started:.0f} s)", file=sys.stderr)

    return say
