"""The Ray backend of :func:`perudo_rules.analysis.simulate.simulate_many`: chunks of games
as Ray tasks on a running cluster, or on a local Ray instance.

Ray is an optional extra (``pip install 'perudo-rules[ray]'``); :func:`require_ray` says so
in one line when it is missing. :class:`RayBackend` connects (``address``, else
``RAY_ADDRESS``, else a local instance it starts and stops), keeps at most
:attr:`RayBackend.slots` tasks in flight (two per CPU of the cluster, so memory does not
grow with the number of games), hands back each chunk's statistics as it arrives and, on
:meth:`RayBackend.cancel`, cancels every task still queued or running (Ctrl-C).

A task whose worker dies (a killed process, a lost machine) is run again by Ray, up to
:data:`MAX_RETRIES` times: a chunk's games are seeded by their indexes alone, so the
retried chunk plays the same games and the result does not change.

:data:`FAULT_ENV` is a test hook: when it names a file that exists, the one task that
manages to delete it kills its own worker process (SIGKILL), as a crashed machine would;
the test then checks that the retried run gives the local pool's numbers.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
from collections.abc import Callable
from types import ModuleType
from typing import Any

from perudo_rules.analysis.simstats import SimStats
from perudo_rules.base.errors import PerudoError
from perudo_rules.base.i18n import tr
from perudo_rules.base.safetext import shortened

__all__ = ["FAULT_ENV", "MAX_RETRIES", "RayBackend", "require_ray"]

#: How many times Ray runs a chunk again after its worker died.
MAX_RETRIES = 3
#: Test hook (see the module's text): a file name; the task that deletes it dies.
FAULT_ENV = "PERUDO_RAY_FAULT_ONCE"

#: A chunk's key: (job, first game, game after the last).
Task = tuple[int, int, int]


def require_ray() -> ModuleType:
    """The ``ray`` module, or a :class:`PerudoError` naming the extra that installs it."""
    try:
        import ray
    except ImportError:
        raise PerudoError(
            tr("the Ray backend needs Ray: pip install 'perudo-rules[ray]'")
        ) from None
    return ray


def _reachable(address: str | None, timeout: float = 10.0) -> None:
    """Refuse at once a ``host:port`` nobody answers at (Ray itself retries for minutes)."""
    if not address or "://" in address or address in ("auto", "local"):
        return
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        raise PerudoError(
            tr(
                "cannot reach the Ray cluster at {address}: {reason}",
                address=shortened(address, 80),
                reason=shortened(exc.strerror or type(exc).__name__, 80),
            )
        ) from None


def _chunk_task(fn: Callable[..., SimStats], *args: Any) -> SimStats:
    """One chunk of games on a Ray worker (``fn(*args)``), after the :data:`FAULT_ENV` hook."""
    marker = os.environ.get(FAULT_ENV)
    if marker:
        try:
            os.unlink(marker)  # atomic: one task at most succeeds
        except OSError:
            pass
        else:
            os.kill(os.getpid(), signal.SIGKILL)
    return fn(*args)


class RayBackend:
    """Chunks of games as Ray tasks: :meth:`submit`, then :meth:`wait` for finished ones.

    ``fn`` plays one chunk (``fn(*args) -> SimStats``; a module-level function, which Ray
    workers import by name, so perudo-rules must be installed on every node). ``address``
    is a cluster's address (``ray://host:10001`` or ``host:6379``); ``None`` reads
    ``RAY_ADDRESS``, and without it starts a local Ray instance for this run. An instance
    already initialised in this process (``ray.init`` by the caller) is used as it is.
    """

    def __init__(self, fn: Callable[..., SimStats], address: str | None = None) -> None:
        ray = require_ray()
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            _reachable(address or os.environ.get("RAY_ADDRESS"))
            try:
                ray.init(
                    address=address or None,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.WARNING,
                )
            except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError...
                where = address or os.environ.get("RAY_ADDRESS") or tr("a local instance")
                lines = str(exc).strip().splitlines()
                raise PerudoError(
                    tr(
                        "cannot start or reach Ray at {address}: {reason}",
                        address=shortened(where, 80),
                        reason=shortened(lines[0] if lines else type(exc).__name__, 160),
                    )
                ) from None
            self._started = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        #: Tasks in flight at most: two per CPU of the cluster.
        self.slots = max(2, 2 * cpus)
        self.cpus = max(1, cpus)
        self._remote = ray.remote(max_retries=MAX_RETRIES, retry_exceptions=False)(_chunk_task)
        self._fn = fn
        self._pending: dict[Any, Task] = {}
        self._shared: dict[int, tuple[Any, Any]] = {}  # id -> (object, its ObjectRef)

    @property
    def pending(self) -> int:
        """Tasks submitted and not yet handed back by :meth:`wait`."""
        return len(self._pending)

    def submit(self, task: Task, args: tuple[Any, ...]) -> None:
        """Run ``fn(*args)`` as a Ray task, known as ``task``. The first argument (the
        variant, the same object for every chunk of a job) goes to Ray's object store once
        and every task refers to it there."""
        first, *rest = args
        shared = self._shared.get(id(first))
        if shared is None:
            shared = self._shared[id(first)] = (first, self._ray.put(first))
        self._pending[self._remote.remote(self._fn, shared[1], *rest)] = task

    def wait(self) -> list[tuple[Task, SimStats]]:
        """Block until at least one task is done; the finished ones and their statistics.
        A task that failed for good is a :class:`PerudoError` (one line)."""
        ready, _ = self._ray.wait(list(self._pending), num_returns=1)
        out = []
        for ref in ready:
            task = self._pending.pop(ref)
            try:
                out.append((task, self._ray.get(ref)))
            except Exception as exc:
                text = str(exc).strip().splitlines()
                raise PerudoError(
                    tr(
                        "a Ray task failed: {reason}",
                        reason=shortened(text[-1] if text else type(exc).__name__, 200),
                    )
                ) from None
        return out

    def cancel(self) -> None:
        """Cancel every task still queued or running (their results are dropped)."""
        for ref in self._pending:
            # already finished or already gone: nothing left to stop
            with contextlib.suppress(Exception):
                self._ray.cancel(ref, force=True)
        self._pending.clear()

    def close(self) -> None:
        """Stop the local Ray instance this backend started (a cluster is left running)."""
        if self._started:
            self._ray.shutdown()
            self._started = False
