"""PettingZoo environment speed: ``raw_env`` vs ``env`` (PettingZoo's wrappers), both modes.

    .venv/bin/python benchmarks/pettingzoo_env.py [--variant italian] [--players 4]
        [--repeats 7] [--steps 20000] [--json PATH]

Four peers run in one process, alternating inside every repeat: ``raw_env`` and ``env``
(``TerminateIllegalWrapper``, ``AssertOutOfBoundsWrapper``, ``OrderEnforcingWrapper``, as
PettingZoo wraps its classic games), each with ``observation_mode="dict"`` and ``"flat"``.
Each peer plays whole games, ``reset(seed=...)`` and then the AEC loop as a user writes it
(``agent_iter``, ``last()``, a uniformly random action among those the mask allows, ``None``
for a finished agent, ``step``), until it has taken ``--steps`` steps; the loop's own cost
(reading the mask, drawing the action) is part of every figure. Figures are steps per
second, the median over ``--repeats``; each ratio is the median of the per-repeat ratios,
so it holds on a noisy machine. Nothing here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path and importlib.util.find_spec("perudo_rules") is None:
    sys.path.insert(0, str(ROOT))  # run from a checkout without installing

import numpy as np  # noqa: E402

from perudo_rules.pettingzoo import env, raw_env  # noqa: E402

PEERS: dict[str, tuple[Callable[..., Any], str]] = {
    "raw_env dict": (raw_env, "dict"),
    "env dict": (env, "dict"),
    "raw_env flat": (raw_env, "flat"),
    "env flat": (env, "flat"),
}


def run(
    make: Callable[..., Any], mode: str, variant: str, players: int, steps: int, seed: int
) -> tuple[float, int]:
    """Seconds to take at least ``steps`` AEC steps through whole games; the steps taken."""
    e = make(variant, players, observation_mode=mode)
    rng = random.Random(seed)
    flat = mode == "flat"
    done = 0
    game = 0
    start = time.perf_counter()
    while done < steps:
        e.reset(seed=seed + game)
        game += 1
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(info["action_mask"] if flat else obs["action_mask"])
                action = int(legal[int(rng.random() * len(legal))])
            e.step(action)
            done += 1
    return time.perf_counter() - start, done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--variant", default="italian")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=7, help="repeats per figure (median)")
    parser.add_argument("--steps", type=int, default=20_000, help="AEC steps per peer and repeat")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    rates: dict[str, list[float]] = {name: [] for name in PEERS}
    for rep in range(args.repeats):
        order = list(PEERS) if rep % 2 == 0 else list(reversed(PEERS))
        for name in order:
            make, mode = PEERS[name]
            seconds, done = run(make, mode, args.variant, args.players, args.steps, 1000 * rep)
            rates[name].append(done / seconds)
    median = {name: statistics.median(xs) for name, xs in rates.items()}

    def ratio(a: str, b: str) -> float:
        return statistics.median(x / y for x, y in zip(rates[a], rates[b], strict=True))

    ratios = {
        "env / raw_env, dict": ratio("env dict", "raw_env dict"),
        "env / raw_env, flat": ratio("env flat", "raw_env flat"),
        "flat / dict, raw_env": ratio("raw_env flat", "raw_env dict"),
        "flat / dict, env": ratio("env flat", "env dict"),
    }
    print(
        f"{args.variant}, {args.players} seats: AEC steps per second, median of "
        f"{args.repeats} repeats of {args.steps:,} steps (random masked actions)"
    )
    width = max(len(n) for n in [*PEERS, *ratios])
    for name in PEERS:
        print(f"  {name:<{width}}  {median[name]:>9,.0f} steps/s")
    for name, value in ratios.items():
        print(f"  {name:<{width}}  {value:>9.2f}")
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "variant": args.variant,
                    "players": args.players,
                    "repeats": args.repeats,
                    "steps": args.steps,
                    "steps_per_s": median,
                    "ratios": ratios,
                    "python": sys.version.split()[0],
                },
                indent=2,
            )
            + "\n",
            encoding="utf-8",
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
