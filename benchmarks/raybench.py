"""How fast ``simulate`` plays on this machine, locally and through Ray (``make bench``).

S1  games per second per core of ``simulate`` in one process (``--workers 1``) and in the
    local pool of two processes (``--workers 2``), six seats of baseline bots, Italian.
S2  the same games as Ray tasks on a local Ray instance of 2 CPUs (started once, outside
    the timing), games per second per core.
S3  Ray's overhead per task: a chunk of no games (``play_chunk`` with ``start == stop``)
    as a Ray task, one at a time (the round trip) and 200 at once (amortised); and what it
    costs a chunk of the size ``simulate`` hands out (a share of the chunk's time).

Wall-clock figures (``time.perf_counter``), each the median of ``--repeats`` runs; the
same seed everywhere, and the statistics of S1 and S2 are checked to be equal. Prints one
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
    games, repeats = args.games, args.repeats
    figures: dict[str, Any] = {"games": games, "players": 6, "bot": "baseline"}

    def local(workers: int) -> Callable[[], object]:
        return lambda: simulate(italian, players=6, games=games, seed=1, workers=workers)

    one = median_time(local(1), repeats)
    two = median_time(local(2), repeats)
    figures["local_1_games_per_s_per_core"] = games / one
    figures["local_2_games_per_s_per_core"] = games / two / 2

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        def on_ray() -> object:
            return simulate(italian, players=6, games=games, seed=1, backend="ray")

        assert on_ray() == local(1)(), "Ray and the local pool disagree"
        through = median_time(on_ray, repeats)
        figures["ray_games_per_s_per_core"] = games / through / 2

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
    chunk_s = chunk / figures["local_1_games_per_s_per_core"]
    figures["chunk_games"] = chunk
    figures["ray_overhead_share_of_chunk"] = figures["ray_task_round_trip_ms"] / 1000 / chunk_s

    def per_core(key: str) -> str:
        return f"{figures[key]:,.1f} games/s/core"

    rows = [
        ("S1", "simulate, 1 process", per_core("local_1_games_per_s_per_core")),
        ("S1", "simulate, local pool of 2", per_core("local_2_games_per_s_per_core")),
        ("S2", "simulate --ray, 2 CPUs", per_core("ray_games_per_s_per_core")),
        ("S3", "Ray task, round trip", f"{figures['ray_task_round_trip_ms']:.2f} ms"),
        ("S3", "Ray task, 200 in flight", f"{figures['ray_task_amortised_ms']:.2f} ms each"),
        ("S3", f"overhead on a chunk of {chunk} games",
         f"{figures['ray_overhead_share_of_chunk']:.2%} of its time"),
    ]  # fmt: skip
    print(f"simulate throughput: italian, 6 seats, baseline bots, {games} games a run")
    for bench, label, value in rows:
        print(f"{bench:3} {label:38} {value}")
    if args.out:
        args.out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
