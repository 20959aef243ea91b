"""A match through the PettingZoo environment: random agents against the baseline bot.

Every seat plays through the AEC API of ``perudo_rules.pettingzoo.env``. The random
agents pick uniformly among the actions their ``action_mask`` allows; the baseline
seats (``perudo_rules.analysis.bots.BaselineBot``, which bids and calls on the exact odds of
its own cup) read the environment's game, answer with an engine action, and the
action goes back in as an id (``ActionMap.to_id``; declining an offered call is
Pass). The environment deals the dice: ``reset(seed=...)`` fixes the whole match.

    pip install 'perudo-rules[pettingzoo]'
    python examples/pettingzoo_match.py --variant italian --players 4 --games 200

Prints the win rate of each kind of agent with a 95% interval, against the
1/players that equal players would get.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from perudo_rules.analysis.bots import BaselineBot
from perudo_rules.pettingzoo import env


def play_match(
    variant: str, players: int, games: int, baseline_seats: set[int], seed: int
) -> dict[str, int]:
    """Play ``games`` games; wins per kind of agent (``"baseline"``, ``"random"``)."""
    e = env(variant, players)
    table = e.unwrapped  # the PerudoEnv: its game and action ids, for the baseline bot
    rng = np.random.default_rng(seed)
    wins = {"baseline": 0, "random": 0}
    e.reset(seed=seed)
    for g in range(games):
        if g:
            e.reset()
        # Rotate the seats so that neither kind always opens or sits first.
        rotate = g % players
        baseline = {(s + rotate) % players for s in baseline_seats}
        bots = {s: BaselineBot(seed=seed * 1000 + g * players + s) for s in baseline}
        totals = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                action = None
            else:
                seat = int(agent.rsplit("_", 1)[1])
                if seat in bots:
                    move = bots[seat].choose(table.game, seat)
                    action = table.ids.to_id(move)
                else:
                    legal = np.flatnonzero(obs["action_mask"])
                    action = int(rng.choice(legal))
            e.step(action)
            for a, r in e.rewards.items():
                totals[a] += r
        winner = max(totals, key=lambda a: totals[a])
        kind = "baseline" if int(winner.rsplit("_", 1)[1]) in baseline else "random"
        wins[kind] += 1
    e.close()
    return wins


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="italian")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--baseline", type=int, default=1, help="baseline seats (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if not 1 <= args.baseline < args.players:
        parser.error("--baseline must be at least 1 and leave a random seat")
    start = time.perf_counter()
    wins = play_match(args.variant, args.players, args.games, set(range(args.baseline)), args.seed)
    elapsed = time.perf_counter() - start
    print(f"{args.variant}, {args.players} players, {args.games} games in {elapsed:.1f}s")
    for kind, seats in (("baseline", args.baseline), ("random", args.players - args.baseline)):
        share = wins[kind] / args.games  # games won by a seat of this kind
        half = 1.96 * math.sqrt(share * (1 - share) / args.games)
        low, high = max(0.0, share - half) / seats, min(1.0, share + half) / seats
        print(
            f"  {kind:8} x{seats}: {wins[kind]:4d} wins, {share / seats:.3f} per seat "
            f"(95% CI {low:.3f}-{high:.3f}; equal play {1 / args.players:.3f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
