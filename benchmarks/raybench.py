"""How fast ``simulate`` plays on this machine, locally and through Ray (``make bench``).

S1  games per second per core of ``simulate`` in one process (``--workers 1``), in the
    local pool of two processes (``--workers 2``) and as Ray tasks on a local Ray instance
    of 2 CPUs (started once, outside the timing): the Italian edition, six seats of
    baseline bots, then of the uniform policy (``--bot uniform``, eight times the games).
S3  Ray's overhead per task: a chunk of no games (``play_chunk`` with ``start == stop``)
    as a Ray task, one at a time (the round trip) and 200 at once (amortised); and what it
    costs a chunk of the size ``simulate`` hands out (a share of the chunk's time).

Wall-clock figures (``time.perf_counter``), each the median of ``--repeats`` runs; the
same seed everywhere, and the statistics through Ray are checked to equal the local ones. Prints one
table; ``--out PATH`` also writes the figures as JSON. Needs the ``ray`` extra.
"""

from __future__ import annotations

import argparse
import json
import logging
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from perudo_rules import load_variant
from perudo_rules.analysis.simulate import play_chunk, simulate


def median_time(fn: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


#: The policies measured: baseline bots (``simulate``'s default) and the uniform policy of
#: the fast path (``--bot uniform``), about ten times faster, so Ray's overhead weighs more.
BOTS = ("baseline", "uniform")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per run (default 400)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--out", type=Path, help="JSON output path")
    args = parser.parse_args(argv)
    try:
        import ray
    except ImportError:
        print("note: ray is not installed (pip install 'perudo-rules[ray]'): S1-S3 skipped")
        return 0
    italian = load_variant("italian")
    repeats = args.repeats
    figures: dict[str, Any] = {"players": 6, "variant": "italian"}

    def games_of(bot: str) -> int:  # the same wall time for either policy
        return args.games if bot == "baseline" else args.games * 8

    def run(bot: str, **how: Any) -> Callable[[], object]:
        return lambda: simulate(italian, players=6, games=games_of(bot), seed=1, bot=bot, **how)

    for bot in BOTS:
        figures[f"{bot}_games"] = games_of(bot)
        one = median_time(run(bot, workers=1), repeats)
        two = median_time(run(bot, workers=2), repeats)
        figures[f"{bot}_local_1_games_per_s_per_core"] = games_of(bot) / one
        figures[f"{bot}_local_2_games_per_s_per_core"] = games_of(bot) / two / 2

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        for bot in BOTS:
            assert run(bot, backend="ray")() == run(bot, workers=1)(), f"{bot}: Ray disagrees"
            through = median_time(run(bot, backend="ray"), repeats)
            figures[f"{bot}_ray_games_per_s_per_core"] = games_of(bot) / through / 2

        task = ray.remote(play_chunk)
        ref = ray.put(italian)
        ray.get(task.remote(ref, 6, "baseline", 1, 0, 0))  # a warm worker

        def round_trip() -> object:
            return ray.get(task.remote(ref, 6, "baseline", 1, 0, 0))

        def many() -> object:
            return ray.get([task.remote(ref, 6, "baseline", 1, 0, 0) for _ in range(200)])

        figures["ray_task_round_trip_ms"] = median_time(round_trip, 20) * 1000
        figures["ray_task_amortised_ms"] = median_time(many, repeats) / 200 * 1000
    finally:
        ray.shutdown()
    # the chunk of a long run (simulate hands out at most 250 games a task): the share of
    # its time that its task's round trip adds
    chunk = 250
    figures["chunk_games"] = chunk
    for bot in BOTS:
        chunk_s = chunk / figures[f"{bot}_local_1_games_per_s_per_core"]
        figures[f"{bot}_ray_overhead_share_of_chunk"] = (
            figures["ray_task_round_trip_ms"] / 1000 / chunk_s
        )

    print("simulate throughput: italian, 6 seats, wall clock, median of", repeats, "runs")
    for bot in BOTS:
        for key, label in (
            ("local_1", "1 process"),
            ("local_2", "local pool of 2"),
            ("ray", "--ray, local instance of 2 CPUs"),
        ):
            rate = figures[f"{bot}_{key}_games_per_s_per_core"]
            print(f"S1  {bot:9} {label:32} {rate:9,.1f} games/s/core")
    print(f"S3  Ray task, round trip {figures['ray_task_round_trip_ms']:.2f} ms, "
          f"{figures['ray_task_amortised_ms']:.2f} ms each with 200 in flight")  # fmt: skip
    for bot in BOTS:
        share = figures[f"{bot}_ray_overhead_share_of_chunk"]
        print(f"S3  {bot:9} overhead on a chunk of {chunk} games: {share:.2%} of its time")
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
