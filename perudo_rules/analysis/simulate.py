"""Simulated games: many bot games of one variant, in one process or in a pool of them.

:func:`simulate` plays many games of one variant with bots
(:mod:`perudo_rules.analysis.bots`), or with the ``uniform`` random policy on the fast
path (:mod:`perudo_rules.engine.fastplay`), and returns their statistics
(:class:`~perudo_rules.analysis.simstats.SimStats`, where the figures and their
confidence intervals are). Game ``i`` is seeded from ``(seed, i)`` alone and results are
merged in game order, so the same seed gives the same numbers whatever ``workers``
(:func:`auto_workers` is the command line's default).
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import TextIO

from perudo_rules.analysis.bots import BOTS, derive_seed, make_bot, play_game
from perudo_rules.analysis.simstats import GameSummary, SimStats, summarise, summarise_rounds
from perudo_rules.base.limits import MAX_GAMES, MAX_WORKERS, check_count, short_number
from perudo_rules.base.output import Outputs, write_text
from perudo_rules.editions.variant import Variant
from perudo_rules.engine import fastplay
from perudo_rules.engine.start import seats_verdict
from perudo_rules.records.record import to_record

__all__ = [
    "AUTO_WORKERS_GAMES",
    "UNIFORM",
    "auto_workers",
    "simulate",
]

#: The policy of the fast path: a uniformly random action among every seat's legal
#: actions (``perudo_rules.engine.fastplay``); not a per-seat bot, so it is not in ``BOTS``.
UNIFORM = "uniform"


def _run_chunk(
    variant: Variant,
    players: int,
    bot: str,
    seed: int,
    start: int,
    stop: int,
    records: str | None,
) -> list[GameSummary]:
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
    return out


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


class _Bar:
    def __init__(self, label: str, total: int, stream: TextIO) -> None:
        self.label, self.total, self.stream = label, total, stream

    def __call__(self, done: int, total: int) -> None:
        width = 30
        fill = width * done // max(total, 1)
        self.stream.write(
            f"\r{self.label} [{'#' * fill}{'.' * (width - fill)}] {done}/{total} games"
        )
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def simulate(
    variant: Variant,
    players: int = 6,
    games: int = 2000,
    seed: int = 1,
    bot: str = "baseline",
    workers: int = 1,
    progress: bool | Callable[[int, int], None] = False,
    save_records: str | os.PathLike[str] | None = None,
) -> SimStats:
    """Play ``games`` games of ``variant`` with ``players`` seats of bot ``bot``.

    Game ``i`` uses ``Game.new`` seeded from ``(seed, i)`` and bots seeded from
    ``(seed, i, seat)``, so the result depends on ``seed`` only, not on
    ``workers`` (processes; ``0`` means one per CPU). ``progress=True`` draws a
    bar on stderr; a callable gets ``(games done, games)``. ``save_records``
    names a directory that receives one JSON game record per game
    (``<variant>-<index>.json``, each written atomically; a file of that name from an
    earlier run is replaced). ``games`` is at most :data:`~perudo_rules.base.limits.MAX_GAMES`.
    """
    rules = variant.rules
    bad = seats_verdict(rules, players, variant.id)
    if bad is not None:
        raise ValueError(bad.message)
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a positive number, not {short_number(games)}")
    check_count("games", games, 1, MAX_GAMES)
    if type(workers) is not int or workers < 0:
        raise ValueError(f"workers must be 0 (one per CPU) or more, not {workers!r}")
    check_count("workers", workers, 0, MAX_WORKERS)
    if bot not in BOTS and bot != UNIFORM:
        known = ", ".join(sorted([*BOTS, UNIFORM]))
        raise ValueError(f"unknown bot {bot!r} (known: {known})")
    records: str | None = None
    if save_records is not None:
        Outputs().add_folder(save_records, "save_records")
        records = os.fspath(save_records)
    if workers == 0:
        workers = os.cpu_count() or 1
    workers = min(workers, games)
    report: Callable[[int, int], None] | None
    if progress is True:
        report = _Bar(variant.id, games, sys.stderr)
    elif progress is False:
        report = None
    else:
        report = progress
    # chunks of games per task; smaller for big tables, so that progress still moves
    # (a game of 250 seats takes about a minute)
    chunk = max(1, min(250, games // (workers * 8) or 1, 3000 // (players * rules.dice_per_player)))
    bounds = [(a, min(a + chunk, games)) for a in range(0, games, chunk)]
    parts: dict[int, list[GameSummary]] = {}
    done = 0
    if workers == 1:
        for k, (a, b) in enumerate(bounds):
            parts[k] = _run_chunk(variant, players, bot, seed, a, b, records)
            done += b - a
            if report:
                report(done, games)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {
                pool.submit(_run_chunk, variant, players, bot, seed, a, b, records): k
                for k, (a, b) in enumerate(bounds)
            }
            for fut in as_completed(futures):
                k = futures[fut]
                parts[k] = fut.result()
                done += len(parts[k])
                if report:
                    report(done, games)
    summaries = [s for k in range(len(bounds)) for s in parts[k]]
    return SimStats.from_games(variant, players, bot, seed, summaries)
