"""TextArena's ``LiarsDiceEnv`` behind the protocol (it claims ``textarena-liars-dice``).

``python -m perudo_rules.harness.textarena``. Actions are TextArena's texts (``[Bid: q,
f]``, ``[Call]``); a bid's legality is TextArena's own check (``_is_valid_bid``, which its
``step`` runs), a call needs a standing bid; the runner's dice replace the environment's
own roll in its state after every new round. The outcome is read from its state: the
remaining dice, the elimination order, whose turn it is and the rewards. Starts with a
seat out or another seat opening are skipped (TextArena opens with player 0).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from textarena.envs.LiarsDice.env import LiarsDiceEnv

from perudo_rules.base.actions import Bid, Dudo, parse_action
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.harness import (
    AWAITING_ROLL,
    GAME_OVER,
    Cups,
    Harness,
    claim_edition,
    outcome,
    refusal,
    serve,
)

__all__ = ["TextArenaHarness"]


class TextArenaHarness(Harness):
    """``LiarsDiceEnv``, one text action at a time."""

    name = "TextArena LiarsDiceEnv"

    def __init__(self) -> None:
        self.env: Any = None
        # after a call: TextArena rolled its own dice, the runner's are awaited
        self.awaiting = False

    def claims(self) -> list[dict[str, Any]]:
        """The textarena-liars-dice edition, any number of seats and dice."""
        free = ["players.min", "players.max", "dice.per_player", "dice.max_per_player"]
        return [claim_edition(load_variant("textarena-liars-dice"), free=free)]

    def start(self, edition: Mapping[str, Any], dice: Cups, first_player: int, round: int,
              palifico: bool, palifico_used: Sequence[int]) -> dict[str, Any]:  # fmt: skip
        """A reset environment with the runner's cups."""
        if first_player != 0 or any(not c for c in dice) or not 2 <= len(dice) <= 15:
            return {"skip": "TextArena opens with player 0, every seat holding dice"}
        self.env = LiarsDiceEnv(num_dice=max(len(c) for c in dice))
        self.env.reset(num_players=len(dice))
        self.awaiting = False
        gs = self.env.state.game_state
        gs["remaining_dice"] = {p: len(c) for p, c in enumerate(dice)}
        self._dice(dice)
        return {"ok": True}

    def _dice(self, dice: Cups) -> None:
        self.env.state.game_state["dice_rolls"] = {p: list(c) for p, c in enumerate(dice)}

    def _counts(self) -> tuple[int, ...]:
        rem = self.env.state.game_state["remaining_dice"]
        return tuple(rem[p] for p in range(len(rem)))

    def legal(self, seat: int) -> list[str]:
        """Every bid up to the dice in play plus one that TextArena accepts, and the call."""
        env = self.env
        if env is None or env.state.done or self.awaiting:
            return []
        if env.state.current_player_id != seat:
            return []
        gs = env.state.game_state
        current = gs["current_bid"]
        top = sum(self._counts()) + 1
        out = [f"{seat}:{q}x{f}" for q in range(1, top + 1) for f in range(1, 7)
               if env._is_valid_bid(q, f, current)[0]]  # fmt: skip
        if gs["last_bidder_id"] is not None and current["quantity"] != 0:
            out.append(f"{seat}:dudo")
        return out

    def act(self, action: str) -> dict[str, Any]:
        """Step TextArena's text for the action if its checks accept it."""
        env = self.env
        a = parse_action(action)
        if env is not None and env.state.done:
            return {"illegal": GAME_OVER}
        if self.awaiting:
            return {"illegal": AWAITING_ROLL}
        if env is None or env.state.current_player_id != a.player:
            return refusal(a, "not this player's turn", 6)
        gs = env.state.game_state
        if isinstance(a, Bid):
            ok, why = env._is_valid_bid(a.quantity, a.face, gs["current_bid"])
            if not ok:  # (TextArena takes a bid of zero dice: the kit reports it)
                return refusal(a, str(why), 6)
            env.step(f"[Bid: {a.quantity}, {a.face}]")
            return {"ok": True}
        if not isinstance(a, Dudo):
            return {"illegal": "no Calza in TextArena"}
        if gs["last_bidder_id"] is None or gs["current_bid"]["quantity"] == 0:
            return {"illegal": "no bid to call"}
        before = self._counts()
        done, _ = env.step("[Call]")
        after = self._counts()
        winner = None
        if done:
            rewards = env.state.rewards
            winner = max(rewards, key=rewards.get)
        nxt = None if done else env.state.current_player_id
        self.awaiting = not done
        return {"ok": True, "outcome": outcome(before, after, nxt, False, winner)}

    def roll(self, dice: Cups) -> dict[str, Any]:
        """The runner's dice in place of TextArena's roll."""
        self._dice(dice)
        self.awaiting = False
        return {"ok": True}


if __name__ == "__main__":  # pragma: no cover
    serve(TextArenaHarness())
