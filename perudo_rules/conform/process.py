"""The engine under test as a subprocess that speaks the harness protocol.

Every read and every write is bounded: a request must be read and a reply must arrive
within ``timeout`` seconds and fit in :data:`MAX_LINE` bytes, else :class:`HarnessError`
says in one line what went wrong (the engine crashed, hung, stopped reading, flooded its
output or answered something that is not a JSON object). The runner never waits on an
engine without a deadline, keeps only the tail of its standard error, and
:meth:`Engine.close` ends the engine and every process it started if it does not exit by
itself.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shlex
import signal
import subprocess
import time
from typing import Any, Protocol

from perudo_rules.base.errors import PerudoError
from perudo_rules.base.i18n import tr
from perudo_rules.base.limits import os_reason
from perudo_rules.base.safetext import printable, shortened

__all__ = ["ECHO", "ERR_TAIL", "MAX_LINE", "Channel", "Engine", "HarnessError"]

#: The longest reply line accepted, in bytes.
MAX_LINE = 4 * 1024 * 1024
#: How much of the engine's standard error is kept (its last bytes), for a failure's line.
ERR_TAIL = 4096
#: The most characters of an engine's own text (its ``error``) repeated in a sentence.
ECHO = 200


class HarnessError(PerudoError):
    """The engine broke the protocol: crashed, hung, flooded or answered garbage."""


class Channel(Protocol):
    """What the runner talks to: :class:`Engine`, or an engine in the same process (tests)."""

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send ``request``; its reply, or :class:`HarnessError`."""
        ...  # pragma: no cover


class Engine:
    """A running engine: :meth:`ask` sends one request and returns its reply.

    The engine runs in a session of its own, so that it and every process it starts (an
    engine behind a launcher: a shell script, ``npx``, ``poetry run``) are one process group,
    which :meth:`close` ends whole. Every write and every read has the deadline
    ``timeout``; standard error is read as it comes and only its last :data:`ERR_TAIL`
    bytes are kept, so an engine can neither block the runner nor fill its memory or disk.
    """

    def __init__(self, command: str, timeout: float = 10.0, cwd: str | None = None) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise HarnessError(tr("cannot read the engine command: {error}", error=exc)) from None
        if not argv:
            raise HarnessError(tr("the engine command is empty"))
        self.command = command
        self.timeout = timeout
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                start_new_session=True,  # its own process group: closed whole
            )
        except OSError as exc:
            raise HarnessError(
                tr(
                    "cannot start the engine {name}: {reason}",
                    name=printable(argv[0]),
                    reason=os_reason(exc),
                )
            ) from None
        assert self._proc.stdout is not None and self._proc.stdin is not None
        assert self._proc.stderr is not None
        self._out = self._proc.stdout.fileno()
        self._in = self._proc.stdin.fileno()
        self._errfd: int | None = self._proc.stderr.fileno()
        for fd in (self._out, self._in, self._errfd):
            os.set_blocking(fd, False)
        self._buf = b""
        self._tail = b""  # the last ERR_TAIL bytes of standard error
        self.requests = 0

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send ``request``; its reply (a JSON object), or :class:`HarnessError`."""
        self.send(request)
        line = self._read_line(request.get("cmd", "?"))
        try:
            reply = json.loads(line)
        except (ValueError, RecursionError):
            raise HarnessError(
                tr(
                    "the engine answered {cmd} with something that is not JSON: {line}",
                    cmd=repr(request.get("cmd")),
                    line=printable(line[:80].decode("utf-8", "replace")),
                )
            ) from None
        if not isinstance(reply, dict):
            raise HarnessError(
                tr("the engine answered {cmd} with a non-object", cmd=repr(request.get("cmd")))
            )
        if "error" in reply:
            said = shortened(str(reply["error"]), ECHO)
            raise HarnessError(tr("the engine reports an error: {error}", error=said))
        return reply

    def send(self, request: dict[str, Any]) -> None:
        """Write one request line (no reply read), within the deadline: an engine that
        stops reading its input is a :class:`HarnessError`, never a runner blocked."""
        self.requests += 1
        cmd = request.get("cmd", "?")
        data = json.dumps(request, separators=(",", ":")).encode() + b"\n"
        deadline = time.monotonic() + self.timeout
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise HarnessError(
                    tr(
                        "the engine did not read the request {cmd} within {seconds} s",
                        cmd=repr(cmd),
                        seconds=f"{self.timeout:g}",
                    )
                )
            ready, writable, _ = select.select(self._readable(), [self._in], [], left)
            self._drain(ready, cmd)
            if writable:
                try:
                    data = data[os.write(self._in, data) :]
                except BlockingIOError:
                    continue
                except OSError:  # the engine closed its input (or is gone)
                    raise self._died(cmd, reading=False) from None

    def _readable(self) -> list[int]:
        """The engine's outputs still open: standard output, and standard error until it
        closes."""
        return [self._out] + ([self._errfd] if self._errfd is not None else [])

    def _drain(self, ready: list[int], cmd: str) -> None:
        """Read what is ready: standard error into its tail, standard output into the
        reply buffer (bounded: more than a reply can be is a flood)."""
        if self._errfd is not None and self._errfd in ready:
            said: bytes | None
            try:
                said = os.read(self._errfd, 65536)
            except BlockingIOError:
                said = None
            if said == b"":
                self._errfd = None  # closed: select on it no more
            elif said:
                self._tail = (self._tail + said)[-ERR_TAIL:]
        if self._out in ready:
            try:
                chunk = os.read(self._out, 65536)
            except BlockingIOError:
                return
            if not chunk:
                raise self._died(cmd)
            self._buf += chunk
            if len(self._buf) > 2 * MAX_LINE:
                raise self._flood(cmd)

    def _flood(self, cmd: str) -> HarnessError:
        return HarnessError(
            tr(
                "the engine floods its output: over {most} bytes without a newline "
                "in reply to {cmd}",
                most=MAX_LINE,
                cmd=repr(cmd),
            )
        )

    def _read_line(self, cmd: str) -> bytes:
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._buf:
            if len(self._buf) > MAX_LINE:
                raise self._flood(cmd)
            left = deadline - time.monotonic()
            if left <= 0:
                raise HarnessError(
                    tr(
                        "the engine did not answer {cmd} within {seconds} s",
                        cmd=repr(cmd),
                        seconds=f"{self.timeout:g}",
                    )
                )
            ready, _, _ = select.select(self._readable(), [], [], left)
            self._drain(ready, cmd)
        line, _, self._buf = self._buf.partition(b"\n")
        if len(line) > MAX_LINE:
            raise HarnessError(
                tr("the engine's reply to {cmd} is over {most} bytes", cmd=repr(cmd), most=MAX_LINE)
            )
        return line

    def _died(self, cmd: str, reading: bool = True) -> HarnessError:
        try:
            code = self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        with contextlib.suppress(OSError):  # what it wrote last, if anything is left
            while self._errfd is not None and select.select([self._errfd], [], [], 0)[0]:
                chunk = os.read(self._errfd, 65536)
                if not chunk:
                    break
                self._tail = (self._tail + chunk)[-ERR_TAIL:]
        tail = self._tail.decode("utf-8", "replace").strip().splitlines()
        last = f": {printable(tail[-1][:200])}" if tail else ""
        if code is not None:
            said = tr(
                "the engine exited with status {code} while answering {cmd}",
                code=code,
                cmd=repr(cmd),
            )
        elif reading:
            said = tr("the engine closed its output while answering {cmd}", cmd=repr(cmd))
        else:
            said = tr("the engine closed its input before reading {cmd}", cmd=repr(cmd))
        return HarnessError(said + last)

    def close(self) -> None:
        """Ask the engine to quit (never waiting to write it); end its whole process group
        if it has not exited within a second."""
        proc = self._proc
        with contextlib.suppress(OSError):
            if proc.poll() is None:
                os.write(self._in, b'{"cmd":"quit"}\n')  # non-blocking: may not fit
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=1)
        with contextlib.suppress(OSError):  # the engine and whatever it started
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
