"""Stopping a conformance run on a signal, with nothing left running.

``SIGTERM`` stops ``conform`` as Ctrl-C does (:func:`stopped_by_sigterm` turns it into
:class:`KeyboardInterrupt` for the run's duration), so every engine is closed on the way
out (:meth:`perudo_rules.conform.process.Engine.close` ends its process group). With
``--workers``, each worker process of :func:`workers_pool` turns ``SIGTERM`` into the same
interruption (:func:`stop_on_sigterm`, the pool's initializer), and :func:`end_workers`
sends it to every worker still running instead of waiting for its editions to finish.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from types import FrameType

__all__ = ["end_workers", "stop_on_sigterm", "stopped_by_sigterm", "workers_pool"]


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def stop_on_sigterm() -> None:
    """In this process, ``SIGTERM`` raises :class:`KeyboardInterrupt` (a worker's initializer)."""
    signal.signal(signal.SIGTERM, _interrupt)


@contextlib.contextmanager
def stopped_by_sigterm() -> Iterator[None]:
    """Inside the block, ``SIGTERM`` raises :class:`KeyboardInterrupt`, in the main thread of
    the main interpreter (elsewhere the block changes nothing)."""
    try:
        before = signal.signal(signal.SIGTERM, _interrupt)
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def end_workers(pool: ProcessPoolExecutor) -> None:
    """Send ``SIGTERM`` to every worker process of ``pool`` still alive: each stops its
    edition and ends its own engine on the way out."""
    processes = getattr(pool, "_processes", None) or {}  # the pool keeps no public list
    for process in list(processes.values()):
        with contextlib.suppress(OSError, AttributeError, TypeError):
            if process.pid is not None and process.is_alive():
                os.kill(process.pid, signal.SIGTERM)


@contextlib.contextmanager
def workers_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` processes that stop on ``SIGTERM``; leaving the block by an
    exception (Ctrl-C, ``SIGTERM``, a harness error) ends the workers still running
    (:func:`end_workers`) instead of waiting for their editions."""
    pool = ProcessPoolExecutor(max_workers=workers, initializer=stop_on_sigterm)
    try:
        yield pool
    except BaseException:
        end_workers(pool)
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
