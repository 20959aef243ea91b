"""The engine under test as a subprocess that speaks the harness protocol.

Every read is bounded: a reply must arrive within ``timeout`` seconds and fit in
:data:`MAX_LINE` bytes, else :class:`HarnessError` says in one line what went wrong (the
engine crashed, hung, flooded its output or answered something that is not a JSON
object). The runner never waits on an engine without a deadline, and :meth:`Engine.close`
kills it if it does not exit by itself.
"""

from __future__ import annotations

import json
import os
import select
import shlex
import subprocess
import tempfile
import time
from typing import IO, Any, Protocol

from perudo_rules.base.errors import PerudoError
from perudo_rules.base.i18n import tr
from perudo_rules.base.limits import os_reason
from perudo_rules.base.safetext import printable

__all__ = ["MAX_LINE", "Channel", "Engine", "HarnessError"]

#: The longest reply line accepted, in bytes.
MAX_LINE = 4 * 1024 * 1024


class HarnessError(PerudoError):
    """The engine broke the protocol: crashed, hung, flooded or answered garbage."""


class Channel(Protocol):
    """What the runner talks to: :class:`Engine`, or an engine in the same process (tests)."""

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send ``request``; its reply, or :class:`HarnessError`."""
        ...  # pragma: no cover


class Engine:
    """A running engine: :meth:`ask` sends one request and returns its reply."""

    def __init__(self, command: str, timeout: float = 10.0, cwd: str | None = None) -> None:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise HarnessError(tr("cannot read the engine command: {error}", error=exc)) from None
        if not argv:
            raise HarnessError(tr("the engine command is empty"))
        self.command = command
        self.timeout = timeout
        self._err: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed by close()
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._err,
                cwd=cwd,
            )
        except OSError as exc:
            self._err.close()
            raise HarnessError(
                tr(
                    "cannot start the engine {name}: {reason}",
                    name=printable(argv[0]),
                    reason=os_reason(exc),
                )
            ) from None
        assert self._proc.stdout is not None
        self._out = self._proc.stdout.fileno()
        self._buf = b""
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
            raise HarnessError(
                tr("the engine reports an error: {error}", error=printable(str(reply["error"])))
            )
        return reply

    def send(self, request: dict[str, Any]) -> None:
        """Write one request line (no reply read)."""
        proc = self._proc
        assert proc.stdin is not None
        self.requests += 1
        try:
            proc.stdin.write(json.dumps(request, separators=(",", ":")).encode() + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died(request.get("cmd", "?")) from None

    def _read_line(self, cmd: str) -> bytes:
        deadline = time.monotonic() + self.timeout
        while b"\n" not in self._buf:
            if len(self._buf) > MAX_LINE:
                raise HarnessError(
                    tr(
                        "the engine floods its output: over {most} bytes without a newline "
                        "in reply to {cmd}",
                        most=MAX_LINE,
                        cmd=repr(cmd),
                    )
                )
            left = deadline - time.monotonic()
            if left <= 0:
                raise HarnessError(
                    tr(
                        "the engine did not answer {cmd} within {seconds} s",
                        cmd=repr(cmd),
                        seconds=f"{self.timeout:g}",
                    )
                )
            ready, _, _ = select.select([self._out], [], [], left)
            if not ready:
                continue
            chunk = os.read(self._out, 65536)
            if not chunk:
                raise self._died(cmd)
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        if len(line) > MAX_LINE:
            raise HarnessError(
                tr("the engine's reply to {cmd} is over {most} bytes", cmd=repr(cmd), most=MAX_LINE)
            )
        return line

    def _died(self, cmd: str) -> HarnessError:
        try:
            code = self._proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        self._err.seek(0)
        tail = self._err.read()[-2000:].decode("utf-8", "replace").strip().splitlines()
        last = f": {printable(tail[-1][:200])}" if tail else ""
        if code is None:
            said = tr("the engine closed its output while answering {cmd}", cmd=repr(cmd))
        else:
            said = tr(
                "the engine exited with status {code} while answering {cmd}",
                code=code,
                cmd=repr(cmd),
            )
        return HarnessError(said + last)

    def close(self) -> None:
        """Ask the engine to quit; kill it if it has not exited within a second."""
        proc = self._proc
        try:
            if proc.poll() is None and proc.stdin is not None:
                proc.stdin.write(b'{"cmd":"quit"}\n')
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        self._err.close()

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
