"""Simulated games: many bot games of one variant, in one process or in a pool of them.

:func:`simulate` plays many games of one variant with bots
(:mod:`perudo_rules.analysis.bots`), or with the ``uniform`` random policy on the fast
path (:mod:`perudo_rules.engine.fastplay`), and returns their statistics
(:class:`~perudo_rules.analysis.simstats.SimStats`, where the figures and their
confidence intervals are). Game ``i`` is seeded from ``(seed, i)`` alone and results are
merged exactly (integer counts), so the same seed gives the same numbers whatever
``workers`` (:func:`auto_workers` is the command line's default) and whatever the backend:
this machine's processes or Ray tasks on a cluster (:func:`simulate_many`,
:mod:`perudo_rules.analysis.rayrun`).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor
from concurrent.futures import wait as futures_wait
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any, Protocol, TextIO

from perudo_rules.analysis.bots import BOTS, derive_seed, make_bot, play_game
from perudo_rules.analysis.rayrun import RayBackend
from perudo_rules.analysis.simstats import SimStats, summarise, summarise_rounds
from perudo_rules.base.i18n import ntr, tr
from perudo_rules.base.limits import (
    MAX_CLUSTER_GAMES,
    MAX_GAMES,
    MAX_WORKERS,
    check_count,
    short_number,
)
from perudo_rules.base.output import Outputs, write_text
from perudo_rules.editions.variant import Variant
from perudo_rules.engine import fastplay
from perudo_rules.engine.start import seats_verdict
from perudo_rules.records.record import to_record

__all__ = [
    "AUTO_WORKERS_GAMES",
    "BACKENDS",
    "UNIFORM",
    "Simulation",
    "auto_workers",
    "play_chunk",
    "simulate",
    "simulate_many",
]

#: The policy of the fast path: a uniformly random action among every seat's legal
#: actions (``perudo_rules.engine.fastplay``); not a per-seat bot, so it is not in ``BOTS``.
UNIFORM = "uniform"


def play_chunk(
    variant: Variant,
    players: int,
    bot: str,
    seed: int,
    start: int,
    stop: int,
    records: str | None = None,
) -> SimStats:
    """The statistics of games ``start`` to ``stop - 1`` of a run (game ``i`` seeded from
    ``(seed, i)`` alone, so a chunk plays the same games wherever and whenever it runs);
    ``records`` is a folder that receives each game's record. A task of every backend."""
    out = []
    for i in range(start, stop):
        game_seed = derive_seed(seed, "game", i)
        if bot == UNIFORM and records is None:
            fast = fastplay.play(variant, players, random.Random(game_seed), record=True)
            assert fast.trace is not None
            out.append(summarise_rounds(fast.trace, fast.winner, variant.rules))
            continue
        if bot == UNIFORM:  # the same game through the step API, for its record
            game = fastplay.step_play(variant, players, random.Random(game_seed))
        else:
            bots = [make_bot(bot, derive_seed(seed, "bot", i, s)) for s in range(players)]
            game = play_game(variant, players, bots, game_seed)
        if records is not None:
            text = json.dumps(to_record(game, full=True)) + "\n"
            write_text(Path(records) / f"{variant.id}-{i:06d}.json", text)
        out.append(summarise(game))
    return SimStats.from_games(variant, players, bot, seed, out)


AUTO_WORKERS_GAMES = 400
"""From this many games a variant on, the command line's ``simulate`` (and ``conform``,
over its editions' random games) uses every core by default (:func:`auto_workers`):
below it, starting the worker processes costs more than they save."""


def auto_workers(games: int, cpus: int | None = None) -> int:
    """The default number of worker processes for ``games`` games: one per CPU
    (``os.cpu_count()``, or ``cpus``) from :data:`AUTO_WORKERS_GAMES` games on, else 1.
    The result never depends on it: game ``i`` is seeded from ``(seed, i)`` alone."""
    if games < AUTO_WORKERS_GAMES:
        return 1
    return max(1, min(cpus if cpus is not None else (os.cpu_count() or 1), MAX_WORKERS))


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class _Bar:
    """The progress bar on a terminal: games done, games per second and the time left."""

    def __init__(self, label: str, total: int, stream: TextIO) -> None:
        self.label, self.total, self.stream = label, total, stream
        self.began = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        width = 30
        fill = width * done // max(total, 1)
        spent = time.monotonic() - self.began
        rate = done / spent if spent > 0 else 0.0
        eta = _clock((total - done) / rate) if rate > 0 else "?"
        self.stream.write(
            f"\r{self.label} [{'#' * fill}{'.' * (width - fill)}] {done}/{total} "
            + tr("games, {rate}/s, {eta} left", rate=f"{rate:.0f}", eta=eta)
        )
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


#: A chunk of games: (job, first game, game after the last).
_Task = tuple[int, int, int]


class _Backend(Protocol):
    slots: int

    @property
    def pending(self) -> int: ...

    def submit(self, task: _Task, args: tuple[Any, ...]) -> None: ...

    def wait(self) -> list[tuple[_Task, SimStats]]: ...

    def cancel(self) -> None: ...

    def close(self) -> None: ...


class _Inline:
    """This process: each chunk is played when :meth:`wait` asks for it."""

    slots = 1

    def __init__(self) -> None:
        self._queue: list[tuple[_Task, tuple[Any, ...]]] = []

    @property
    def pending(self) -> int:
        return len(self._queue)

    def submit(self, task: _Task, args: tuple[Any, ...]) -> None:
        self._queue.append((task, args))

    def wait(self) -> list[tuple[_Task, SimStats]]:
        task, args = self._queue.pop(0)
        return [(task, play_chunk(*args))]

    def cancel(self) -> None:
        self._queue.clear()

    def close(self) -> None:
        pass


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group: the parent decides, its workers carry on
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class _Pool:
    """Worker processes of this machine (a process pool), ``2 x workers`` chunks in flight."""

    def __init__(self, workers: int) -> None:
        self.slots = 2 * workers
        self._pool = ProcessPoolExecutor(max_workers=workers, initializer=_ignore_interrupts)
        self._futures: dict[Future[SimStats], _Task] = {}

    @property
    def pending(self) -> int:
        return len(self._futures)

    def submit(self, task: _Task, args: tuple[Any, ...]) -> None:
        self._futures[self._pool.submit(play_chunk, *args)] = task

    def wait(self) -> list[tuple[_Task, SimStats]]:
        done, _ = futures_wait(self._futures, return_when=FIRST_COMPLETED)
        return [(self._futures.pop(f), f.result()) for f in done]

    def cancel(self) -> None:
        for f in self._futures:
            f.cancel()
        self._futures.clear()
        self._pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


#: The backends of :func:`simulate_many`: this machine's processes, or a Ray cluster.
BACKENDS = ("local", "ray")


@dataclass(frozen=True, slots=True)
class Simulation:
    """What :func:`simulate_many` played: one :class:`SimStats` per variant, in the order
    given. ``interrupted`` when Ctrl-C stopped the run: each variant's statistics then hold
    the games finished before it (``stats[k].games`` may be below ``games``)."""

    stats: tuple[SimStats, ...]
    games: int
    interrupted: bool

    @property
    def played(self) -> int:
        """Games played over all variants."""
        return sum(s.games for s in self.stats)


def _chunk(games: int, slots: int, players: int, dice: int) -> int:
    # chunks of games per task: a few per slot, so that progress moves and the load
    # evens out; smaller for big tables (a game of 250 seats takes about a minute)
    return max(1, min(250, games // (slots * 4) or 1, 3000 // (players * dice)))


def simulate_many(
    variants: Sequence[Variant],
    players: int = 6,
    games: int = 2000,
    seed: int = 1,
    bot: str = "baseline",
    workers: int = 1,
    progress: bool | Callable[[int, int], None] = False,
    save_records: str | os.PathLike[str] | None = None,
    backend: str = "local",
    ray_address: str | None = None,
) -> Simulation:
    """Play ``games`` games of each of ``variants`` (the arguments of :func:`simulate`),
    all in one run, and return a :class:`Simulation`.

    ``backend`` is ``"local"`` (``workers`` processes of this machine, at most
    :data:`~perudo_rules.base.limits.MAX_GAMES` games a variant) or ``"ray"`` (Ray tasks
    on the cluster at ``ray_address``, else ``RAY_ADDRESS``, else a local Ray instance;
    at most :data:`~perudo_rules.base.limits.MAX_CLUSTER_GAMES` games a variant;
    ``workers`` is ignored). Chunks of games are handed out as slots free up and their
    statistics merged as they arrive (:meth:`SimStats.merge`, exact): memory does not
    grow with ``games``, and the result is the same for every backend and worker count.
    Ctrl-C cancels the chunks not yet done and returns what was (``interrupted``).
    """
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if ray_address is not None and backend != "ray":
        raise ValueError("ray_address names a Ray cluster: it needs backend='ray'")
    if not variants:
        raise ValueError("no variant to simulate")
    for variant in variants:
        bad = seats_verdict(variant.rules, players, variant.id)
        if bad is not None:
            raise ValueError(bad.message)
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a positive number, not {short_number(games)}")
    check_count("games", games, 1, MAX_GAMES if backend == "local" else MAX_CLUSTER_GAMES)
    if type(workers) is not int or workers < 0:
        raise ValueError(f"workers must be 0 (one per CPU) or more, not {workers!r}")
    check_count("workers", workers, 0, MAX_WORKERS)
    if bot not in BOTS and bot != UNIFORM:
        known = ", ".join(sorted([*BOTS, UNIFORM]))
        raise ValueError(f"unknown bot {bot!r} (known: {known})")
    records: str | None = None
    if save_records is not None:
        if backend == "ray":
            raise ValueError(
                tr("game records are not saved from a Ray cluster: its nodes would keep them")
            )
        Outputs().add_folder(save_records, "save_records")
        records = os.fspath(save_records)
    total = games * len(variants)
    if workers == 0:
        workers = os.cpu_count() or 1
    workers = min(workers, total)
    label = variants[0].id if len(variants) == 1 else ntr(
        "{n} variant", "{n} variants", len(variants)
    )
    report: Callable[[int, int], None] | None
    if progress is True:
        report = _Bar(label, total, sys.stderr)
    elif progress is False:
        report = None
    else:
        report = progress
    runner: _Backend
    if backend == "ray":
        runner = RayBackend(play_chunk, ray_address)
    elif workers == 1:
        runner = _Inline()
    else:
        runner = _Pool(workers)
    merged = [SimStats.from_games(v, players, bot, seed, []) for v in variants]
    tasks = (
        (j, a, min(a + size, games))
        for j, v in enumerate(variants)
        for size in [_chunk(games, runner.slots, players, v.rules.dice_per_player)]
        for a in range(0, games, size)
    )
    done, interrupted = 0, False
    try:
        for task in islice(tasks, runner.slots):
            j, a, b = task
            runner.submit(task, (variants[j], players, bot, seed, a, b, records))
        while runner.pending:
            for (j, a, b), part in runner.wait():
                merged[j] = merged[j].merge(part)
                done += b - a
                task_next = next(tasks, None)
                if task_next is not None:
                    k, c, d = task_next
                    runner.submit(task_next, (variants[k], players, bot, seed, c, d, records))
            if report:
                report(done, total)
    except KeyboardInterrupt:
        runner.cancel()
        interrupted = True
    finally:
        runner.close()
    return Simulation(tuple(merged), games, interrupted)


def simulate(
    variant: Variant,
    players: int = 6,
    games: int = 2000,
    seed: int = 1,
    bot: str = "baseline",
    workers: int = 1,
    progress: bool | Callable[[int, int], None] = False,
    save_records: str | os.PathLike[str] | None = None,
    backend: str = "local",
    ray_address: str | None = None,
) -> SimStats:
    """Play ``games`` games of ``variant`` with ``players`` seats of bot ``bot``.

    Game ``i`` uses ``Game.new`` seeded from ``(seed, i)`` and bots seeded from
    ``(seed, i, seat)``, so the result depends on ``seed`` only, not on
    ``workers`` (processes; ``0`` means one per CPU) nor on ``backend`` (``"local"`` or
    ``"ray"``, with ``ray_address``: see :func:`simulate_many`). ``progress=True`` draws a
    bar on stderr; a callable gets ``(games done, games)``. ``save_records``
    names a directory that receives one JSON game record per game
    (``<variant>-<index>.json``, each written atomically; a file of that name from an
    earlier run is replaced). ``games`` is at most :data:`~perudo_rules.base.limits.MAX_GAMES`
    on this machine. Ctrl-C stops the games and raises :class:`KeyboardInterrupt` (the
    partial statistics are :func:`simulate_many`'s).
    """
    run = simulate_many(
        [variant], players, games, seed, bot, workers, progress, save_records, backend,
        ray_address,
    )  # fmt: skip
    if run.interrupted:
        raise KeyboardInterrupt
    return run.stats[0]
