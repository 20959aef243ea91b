"""OpenSpiel's MCTS bot against random players, on a perudo-rules edition.

The edition becomes an OpenSpiel game through ``perudo_rules.openspiel.load_game``;
the bot is ``open_spiel.python.algorithms.mcts.MCTSBot`` unchanged. OpenSpiel's MCTS
searches the exact state, the opponents' hidden dice included, so on its own it would
cheat. This script keeps it honest by determinization: before each move it re-rolls
the opponents' dice of the current round (uniformly, by replaying the game's history
with new chance outcomes for those dice), searches each re-rolled state and plays the
action with the most visits summed over the searches.

    pip install 'perudo-rules[openspiel]'
    python examples/openspiel_mcts.py --variant italian --players 2 --games 6

Prints one line per game and the MCTS seat's win rate against the 1/players that
random play would get.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict
from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts

from perudo_rules.openspiel import load_game


def determinize(state: Any, player: int, rng: random.Random) -> Any:
    """A state ``player`` cannot tell from ``state``: other seats' current dice re-rolled."""
    game = state.get_game()
    history = state.history()
    replay = game.new_initial_state()
    rolls: list[tuple[int, int] | None] = []  # (seat, number of outcomes) per die roll
    for action in history:
        seat = replay.rolling_seat()
        rolls.append(None if seat is None else (seat, len(replay.chance_outcomes())))
        replay.apply_action(action)
    end = max(i for i, r in enumerate(rolls) if r is not None)
    start = end
    while start > 0 and rolls[start - 1] is not None:
        start -= 1
    actions = list(history)
    for i in range(start, end + 1):
        seat, outcomes = rolls[i]  # type: ignore[misc]
        if seat != player:
            actions[i] = rng.randrange(outcomes)
    out = game.new_initial_state()
    for action in actions:
        out.apply_action(action)
    return out


def mcts_move(bot: mcts.MCTSBot, state: Any, rng: random.Random, determinizations: int) -> int:
    """The action with the most MCTS visits over several determinizations."""
    player = state.current_player()
    visits: dict[int, int] = defaultdict(int)
    for _ in range(determinizations):
        root = bot.mcts_search(determinize(state, player, rng))
        for child in root.children:
            visits[child.action] += child.explore_count
    return max(sorted(visits), key=lambda a: visits[a])


def play(args: argparse.Namespace) -> int:
    """Play the games; return how many the MCTS seat won."""
    game = load_game(args.variant, args.players)
    rng = random.Random(args.seed)
    bot = mcts.MCTSBot(
        game,
        uct_c=2.0,
        max_simulations=args.simulations,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(args.seed)),
        solve=False,
        random_state=np.random.RandomState(args.seed + 1),
    )
    wins = 0
    for g in range(args.games):
        seat = g % args.players
        state = game.new_initial_state()
        start = time.perf_counter()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if state.current_player() == seat:
                action = mcts_move(bot, state, rng, args.determinizations)
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
            state.apply_action(action)
            moves += 1
        returns = state.returns()
        won = returns[seat] == max(returns) and returns[seat] > 0
        wins += won
        print(
            f"game {g + 1}: MCTS in seat {seat} {'won' if won else 'lost'}, "
            f"returns {[round(r, 3) for r in returns]}, {moves} moves, "
            f"{time.perf_counter() - start:.1f}s"
        )
    print(
        f"MCTS ({args.simulations} simulations x {args.determinizations} determinizations) "
        f"won {wins} of {args.games} games of {args.variant} with {args.players} players "
        f"(random play would win 1 in {args.players})"
    )
    return wins


def main(argv: list[str] | None = None) -> int:
    """Command line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="italian", help="variant id or path (italian)")
    parser.add_argument("--players", type=int, default=2, help="seats (2)")
    parser.add_argument("--games", type=int, default=6, help="games to play (6)")
    parser.add_argument("--simulations", type=int, default=100, help="MCTS simulations (100)")
    parser.add_argument(
        "--determinizations", type=int, default=3, help="re-rolls searched per move (3)"
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (0)")
    args = parser.parse_args(argv)
    play(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
