"""The reference harness: :class:`~perudo_rules.engine.game.Game`'s step API behind the protocol.

``python -m perudo_rules.harness.stepapi``. It claims every knob value; the kit must find
it 100% conformant (it is the reference the kit compares with).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from perudo_rules.base.actions import Bid, Reroll, format_action, parse_action
from perudo_rules.engine.game import Game
from perudo_rules.harness import Cups, Harness, edition_variant, outcome, serve

__all__ = ["StepHarness"]


class StepHarness(Harness):
    """The step API: ``Game.start``, ``legal_actions``, ``violation``, ``apply``, ``roll``."""

    name = "perudo-rules step API"

    def __init__(self) -> None:
        self.game: Game | None = None

    def start(self, edition: Mapping[str, Any], dice: Cups, first_player: int, round: int,
              palifico: bool, palifico_used: Sequence[int]) -> dict[str, Any]:  # fmt: skip
        """A new game at ``Game.start``."""
        try:
            self.game = Game.start(
                edition_variant(edition), dice, first_player, palifico=palifico, round=round,
                palifico_used=palifico_used,
            )  # fmt: skip
        except ValueError as exc:
            return {"skip": str(exc)}
        return {"ok": True}

    def legal(self, seat: int) -> list[str]:
        """The seat's share of ``legal_actions()``."""
        assert self.game is not None
        return [format_action(a) for a in self.game.legal_actions() if a.player == seat]

    def act(self, action: str) -> dict[str, Any]:
        """``violation`` refuses, ``apply`` plays; a call's outcome from the counts."""
        game = self.game
        assert game is not None
        a = parse_action(action)
        bad = game.violation(a)
        if bad is not None:
            return {"illegal": bad.rule}
        after = self.game = game.apply(a)
        if isinstance(a, (Bid, Reroll)):
            return {"ok": True}
        res = after.last_result
        assert res is not None
        return {"ok": True, "outcome": outcome(game.dice_counts, after.dice_counts,
                                               res.next_player, res.next_palifico, after.winner)}

    def roll(self, dice: Cups) -> dict[str, Any]:
        """``Game.roll`` with the dice given (the next round's, or a re-roll's)."""
        assert self.game is not None
        self.game = self.game.roll(dice=dice)
        return {"ok": True}


if __name__ == "__main__":  # pragma: no cover
    serve(StepHarness())
