"""OpenSpiel's own ``liars_dice`` behind the protocol (it claims ``openspiel-liars-dice``).

``python -m perudo_rules.harness.pyspiel_liars_dice``. Everything is read from ``pyspiel``:
its bids are the action strings ``"q-f"``, the challenge is ``"Liar"``; the dice are its
chance outcomes, seat 0's first; the winner is the seat its returns pay. It plays two seats
with the same number of dice, seat 0 opening, one round; other starts are skipped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from perudo_rules.base.actions import Bid, Dudo, parse_action
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.harness import GAME_OVER, Cups, Harness, claim_edition, outcome, refusal, serve

__all__ = ["LiarsDiceHarness"]

RULES = {"quantity_then_face": "reset-face", "face_then_quantity": "reset-quantity"}


class LiarsDiceHarness(Harness):
    """``pyspiel.load_game("liars_dice", ...)``."""

    name = "OpenSpiel liars_dice"

    def __init__(self) -> None:
        self.state: Any = None
        self.counts: tuple[int, ...] = ()

    def claims(self) -> list[dict[str, Any]]:
        """The openspiel-liars-dice edition, any number of dice and either bidding rule."""
        claim = claim_edition(load_variant("openspiel-liars-dice"), free=["dice.per_player"])
        claim["bidding.order"] = list(RULES)
        return [claim]

    def start(self, edition: Mapping[str, Any], dice: Cups, first_player: int, round: int,
              palifico: bool, palifico_used: Sequence[int]) -> dict[str, Any]:  # fmt: skip
        """A new ``liars_dice`` game with this many dice; the dice as chance outcomes."""
        n = len(dice[0]) if dice else 0
        if len(dice) != 2 or len(dice[1]) != n or first_player != 0 or round != 1 or n < 1:
            return {"skip": "liars_dice: two seats with as many dice, seat 0 opens"}
        game = pyspiel.load_game("liars_dice", {"numdice": n, "dice_sides": 6,
                                                "bidding_rule": RULES[edition["bidding.order"]]})
        self.state = game.new_initial_state()
        for cup in dice:
            for d in cup:
                self.state.apply_action(d - 1)
        self.counts = (n, n)
        return {"ok": True}

    def _named(self) -> dict[str, int]:
        st = self.state
        p = st.current_player()
        return {st.action_to_string(p, a): a for a in st.legal_actions()}

    def legal(self, seat: int) -> list[str]:
        """The current player's action strings, in the project's notation."""
        st = self.state
        if st is None or st.is_terminal() or st.current_player() != seat:
            return []
        out = []
        for name in self._named():
            if name == "Liar":
                out.append(f"{seat}:dudo")
            else:
                q, f = name.split("-")
                out.append(f"{seat}:{q}x{f}")
        return out

    def act(self, action: str) -> dict[str, Any]:
        """Apply the matching action string, or refuse."""
        st = self.state
        a = parse_action(action)
        if st is not None and st.is_terminal():
            return {"illegal": GAME_OVER}
        if st is None or st.current_player() != a.player:
            return refusal(a, "not this seat's turn", 6)
        if isinstance(a, Bid):
            name = f"{a.quantity}-{a.face}"
        elif isinstance(a, Dudo):
            name = "Liar"
        else:
            return {"illegal": "no Calza in liars_dice"}
        named = self._named()
        if name not in named:
            return refusal(a, "not a legal action", 6)
        st.apply_action(named[name])
        if not st.is_terminal():
            return {"ok": True}
        returns = st.returns()
        winner = returns.index(max(returns))
        after = tuple(c - (s != winner) for s, c in enumerate(self.counts))
        return {"ok": True, "outcome": outcome(self.counts, after, None, False, winner)}

    def roll(self, dice: Cups) -> dict[str, Any]:
        """``liars_dice`` is one round."""
        return {"error": "liars_dice plays one round"}


if __name__ == "__main__":  # pragma: no cover
    serve(LiarsDiceHarness())
