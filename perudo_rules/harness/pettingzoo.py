"""The PettingZoo environment's harness: :class:`~perudo_rules.pettingzoo.PerudoEnv`
behind the protocol, through its AEC API and action masks only.

``python -m perudo_rules.harness.pettingzoo``. The environment asks seats one decision at a
time: after a bid, each seat it offers an out-of-turn call decides Dudo, Calza or Pass, then
the player to move acts. So a seat's legal set is collected by walking the offers: every
offered seat's mask, then Pass, until the player to move decides; the walk is replayed
from the round's start (``reset_to``) before the next action. The environment rolls its
own dice after a call and after a re-roll; the harness gives it the runner's instead (the
same dice counts, so nothing the environment decided changes).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

from perudo_rules.base.actions import Action, Bid, Reroll, format_action, parse_action
from perudo_rules.engine.game import Game
from perudo_rules.engine.settlement import most_dice_per_seat
from perudo_rules.harness import (
    AWAITING_ROLL,
    GAME_OVER,
    Cups,
    Harness,
    edition_variant,
    outcome,
    refusal,
    serve,
)
from perudo_rules.pettingzoo import PerudoEnv, raw_env
from perudo_rules.records.position import Roll

__all__ = ["PettingZooHarness"]


class PettingZooHarness(Harness):
    """The AEC environment, seat by seat."""

    name = "perudo-rules PettingZoo environment"

    def __init__(self) -> None:
        self.envs: dict[tuple[str, int], PerudoEnv] = {}
        self.env: PerudoEnv | None = None
        self.round_start: Game | None = None
        self.played: list[Action | Roll] = []
        self.rolling: Game | None = None  # a re-roll's game, its dice still to be rolled
        self.fresh = False  # whether the environment is right after ``played``
        self.sets: dict[int, list[Action]] | None = None
        # after a call: the environment rolled its own dice, the runner's are awaited
        self.awaiting = False
        self.over = False

    def start(self, edition: Mapping[str, Any], dice: Cups, first_player: int, round: int,
              palifico: bool, palifico_used: Sequence[int]) -> dict[str, Any]:  # fmt: skip
        """The environment for the edition and seat count, reset to the position."""
        key = (json.dumps(dict(edition), sort_keys=True), len(dice))
        if key not in self.envs:
            self.envs[key] = raw_env(edition_variant(edition), len(dice))
        self.env = self.envs[key]
        try:
            game = Game.start(self.env.variant, dice, first_player, palifico=palifico,
                              round=round, palifico_used=palifico_used)  # fmt: skip
        except ValueError as exc:
            return {"skip": str(exc)}
        self.over = False
        most = most_dice_per_seat(game.rules)
        if max(game.dice_counts) > most:  # reset_to takes it, but no action id exists
            return {"skip": f"the environment's action ids cover {most} dice a seat at most"}
        self._new_round(game)
        return {"ok": True}

    def _new_round(self, game: Game) -> None:
        assert self.env is not None
        self.env.reset_to(game)
        self.round_start = game
        self.awaiting = False
        self.played = []
        self.rolling = None
        self.fresh = True
        self.sets = None

    def _rebuild(self) -> PerudoEnv:
        env = self.env
        assert env is not None and self.round_start is not None
        if not self.fresh:
            env.reset_to(self.round_start)
            for a in self.played:
                if isinstance(a, Roll):  # the runner's dice for the re-roll before it
                    env.game = env.game.roll(dice=a.dice)
                    continue
                self._reach(env, a.player)
                rolling = env.game.apply(a) if isinstance(a, Reroll) else None
                env.step(env.ids.to_id(a))
                if rolling is not None:
                    env.game = rolling
            self.fresh = True
        return env

    def _reach(self, env: PerudoEnv, seat: int) -> bool:
        """Pass the offers before ``seat``'s decision; ``False`` if it gets none now."""
        to_move = env.game.to_move
        while env.deciding_seat() != seat:
            if env.deciding_seat() == to_move:
                return False
            self.fresh = False
            env.step(env.ids.pass_)
        return True

    def _sets(self) -> dict[int, list[Action]]:
        if self.sets is None:
            env = self._rebuild()
            sets: dict[int, list[Action]] = {}
            to_move = env.game.to_move
            while True:
                seat = env.deciding_seat()
                assert seat is not None
                actions = [env.ids.to_action(i, seat) for i in env.legal_ids(seat)]
                sets[seat] = [a for a in actions if a is not None]
                if seat == to_move:
                    break
                self.fresh = False
                env.step(env.ids.pass_)
            self.sets = sets
        return self.sets

    def legal(self, seat: int) -> list[str]:
        """What the mask allows the seat when its decision comes (after the offers)."""
        env = self.env
        if env is None or env.game.to_move is None or self.rolling is not None:
            return []
        if self.awaiting or self.over:
            return []
        return [format_action(a) for a in self._sets().get(seat, [])]

    def act(self, action: str) -> dict[str, Any]:
        """Pass the offers up to the seat, then step the action if its mask allows it."""
        a = parse_action(action)
        if not 0 <= a.player < (self.env.players if self.env else 0):
            return {"illegal": "no such seat"}
        if self.over:
            return {"illegal": GAME_OVER}
        if self.awaiting:
            return {"illegal": AWAITING_ROLL}
        if self.rolling is not None:
            return {"illegal": "the re-rolled dice are still to be rolled"}
        env = self._rebuild()
        ids = env.ids
        if env.game.to_move is None or not self._reach(env, a.player):
            self.fresh = False
            return {"illegal": "the environment offers this seat no decision now"}
        try:
            aid = ids.to_id(a)
        except (KeyError, ValueError):
            aid = -1
        if aid not in env.legal_ids(a.player):
            self.fresh = False
            return refusal(a, "masked", env.game.rules.dice_faces)
        before = env.game.dice_counts
        rolling = env.game.apply(a) if isinstance(a, Reroll) else None
        env.step(aid)
        self.played.append(a)
        self.sets = None
        if rolling is not None:  # the environment rolled; the runner's dice come next
            self.rolling = env.game = rolling
            return {"ok": True}
        if isinstance(a, Bid):
            return {"ok": True}
        game = env.game  # rolled by the environment unless the game is over
        winner = next(
            (s for s, ag in enumerate(env.possible_agents) if env.rewards.get(ag) == 1.0), None
        )
        nxt = None if winner is not None else game.to_move
        self.over, self.awaiting = winner is not None, winner is None
        return {"ok": True, "outcome": outcome(before, game.dice_counts, nxt, game.palifico,
                                               winner)}  # fmt: skip

    def roll(self, dice: Cups) -> dict[str, Any]:
        """The runner's dice in place of the environment's roll (same counts)."""
        env = self.env
        assert env is not None
        cups = tuple(tuple(c) for c in dice)
        if self.rolling is not None:  # a re-roll's dice: in place of the environment's
            env.game = self.rolling.roll(dice=cups)
            self.rolling = None
            self.played.append(Roll(cups))
            self.sets = None
            return {"ok": True}
        self._new_round(dataclasses.replace(env.game, dice=cups))
        return {"ok": True}


if __name__ == "__main__":  # pragma: no cover
    serve(PettingZooHarness())
