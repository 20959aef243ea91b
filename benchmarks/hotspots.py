"""Profile the step-API loops of ``benchmarks/run.py`` with cProfile (or pyinstrument).

``python benchmarks/hotspots.py A`` profiles benchmark A (openspiel-liars-dice 2x5 random
games through the step API); ``C`` the Italian 6x5 games (``--edition spanish`` the
Spanish ones), ``B`` and ``Cfast`` the same on the fast path. ``--pyinstrument`` prints a
pyinstrument call tree instead (``pip install perudo-rules[bench]``).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench", choices=["A", "B", "C", "Cfast"])
    parser.add_argument("--games", type=int, default=0)
    parser.add_argument("--edition", default="italian", help="C and Cfast: the edition")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--pyinstrument", action="store_true")
    args = parser.parse_args(argv)
    if args.bench in ("A", "B"):
        variant, _ = run.liars_dice_variant()
        players, games = 2, args.games or 20_000
    else:
        variant = run.load_variant(args.edition)
        players, games = run.SEED_SEATS, args.games or 200
    fast = args.bench in ("B", "Cfast")
    runner = run.fast_games(variant, players) if fast else run.step_games(variant, players)
    runner(games // 10, 1)  # warm the bid tables
    if args.pyinstrument:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.0002)
        profiler.start()
        runner(games, 7)
        profiler.stop()
        print(profiler.output_text(unicode=False, color=False))
        return 0
    prof = cProfile.Profile()
    prof.enable()
    runner(games, 7)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
