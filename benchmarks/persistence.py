"""Benchmark P of ``make bench``: restoring a game at the end of a six-seat game.

A game server that stores its games restores one per request. Three ways, side by side,
alternating inside every repeat, on the same games (the Italian and Spanish editions, six
seats, baseline bots, each game played to its end: its whole history to restore):

* ``from_json``: the verifying restore (``Game.from_json``: the record replayed and
  checked), for documents from elsewhere;
* ``restore``: a sealed snapshot of the server's own (``perudo_rules.restore``), target
  under 1 ms;
* ``pickle``: :func:`pickle.loads` of the game, for scale (not for untrusted bytes).
"""

from __future__ import annotations

import json
import pickle
import statistics
import time
from collections.abc import Callable
from typing import Any

from perudo_rules import Game, load_variant, restore, snapshot
from perudo_rules.analysis.bots import make_bot, play_game

SEATS = 6
EDITIONS = ("italian", "spanish")
KEY = b"the benchmark's secret, 32 bytes"
#: The target of the snapshot restore, per game, in milliseconds.
TARGET_MS = 1.0


def end_positions(games: int = 4) -> list[Game]:
    """For each seed edition, ``games`` six-seat games played to their end."""
    out = []
    for edition in EDITIONS:
        variant = load_variant(edition)
        for seed in range(games):
            bots = [make_bot("baseline", seed * 10 + i) for i in range(SEATS)]
            out.append(play_game(variant, SEATS, bots, seed=seed))  # its whole history
    return out


def persistence(
    repeats: int, clock: Callable[[], float] = time.process_time
) -> tuple[dict[str, Any], list[list[str]]]:
    """Milliseconds per restore for each way (medians of ``repeats``, by ``clock``: CPU
    time unless told otherwise), and table rows."""
    games = end_positions()
    docs = [json.dumps(g.to_json()) for g in games]
    sealed = [snapshot(g, KEY) for g in games]
    pickled = [pickle.dumps(g) for g in games]
    for g, s in zip(games, sealed, strict=True):  # the figures are of right answers
        assert restore(s, KEY) == g

    ways = {
        "from_json": lambda: [Game.from_json(json.loads(d)) for d in docs],
        "restore": lambda: [restore(s, KEY) for s in sealed],
        "pickle": lambda: [pickle.loads(p) for p in pickled],
    }
    samples: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(repeats):
        for name, fn in ways.items():
            t0 = clock()
            for _ in range(5):
                fn()
            samples[name].append((clock() - t0) * 1e3 / (5 * len(games)))
    ms = {name: statistics.median(xs) for name, xs in samples.items()}
    rounds = statistics.mean(len(g.history) for g in games)
    report = {
        "games": len(games),
        "rounds_per_game": rounds,
        "ms_per_restore": ms,
        "snapshot_bytes": statistics.mean(len(s) for s in sealed),
        "json_bytes": statistics.mean(len(d) for d in docs),
        "target_ms": TARGET_MS,
        "met": ms["restore"] < TARGET_MS,
    }
    what = f"{'/'.join(EDITIONS)} {SEATS} seats, end of game ({rounds:.0f} rounds)"
    speedup = ms["from_json"] / ms["restore"]
    rows = [
        ["P", f"{what}: Game.from_json (verifies)", f"{ms['from_json']:.3f} ms", "", ""],
        ["P", f"{what}: restore(snapshot)", f"{ms['restore']:.3f} ms",
         f"{speedup:.1f}x from_json", f"< {TARGET_MS:g} ms"],
        ["P", f"{what}: pickle.loads (for scale)", f"{ms['pickle']:.3f} ms", "", ""],
    ]  # fmt: skip
    return report, rows
