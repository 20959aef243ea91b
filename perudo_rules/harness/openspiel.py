"""The OpenSpiel adapter's harness: :mod:`perudo_rules.openspiel` behind the protocol,
through ``pyspiel``'s State API (chance outcomes, ``legal_actions``, ``apply_action``,
``clone``, ``returns``).

``python -m perudo_rules.harness.openspiel``. A ``pyspiel`` state starts at the game's
first chance node, so the harness takes starts of a new game only (every seat with
``dice.per_player`` dice, round 1, no palifico); other starts are skipped. The roll-off is
its chance outcome (the opener), every die its own chance outcome, seat by seat. Out-of-turn
calls are decisions of the offered seats: a seat's legal set is read by walking the offers
with ``PASS`` on a clone.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from perudo_rules.base.actions import Action, Bid, Reroll, format_action, parse_action
from perudo_rules.engine.actionmap import ActionMap, action_map
from perudo_rules.engine.game import Game
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
from perudo_rules.openspiel import load_game

__all__ = ["OpenSpielHarness"]


class OpenSpielHarness(Harness):
    """The registered ``pyspiel`` game, state by state."""

    name = "perudo-rules OpenSpiel adapter"

    def __init__(self) -> None:
        self.games: dict[tuple[str, int], tuple[Any, ActionMap]] = {}
        self.state: Any = None
        self.amap: ActionMap | None = None
        self.faces = 0

    def start(self, edition: Mapping[str, Any], dice: Cups, first_player: int, round: int,
              palifico: bool, palifico_used: Sequence[int]) -> dict[str, Any]:  # fmt: skip
        """The game's initial state, then the opener and the dice as chance outcomes."""
        key = (json.dumps(dict(edition), sort_keys=True), len(dice))
        if key not in self.games:
            v = edition_variant(edition)
            self.games[key] = (load_game(v, len(dice)), action_map(v, len(dice)))
        game, self.amap = self.games[key]
        self.faces = edition["dice.faces"]
        per = edition["dice.per_player"]
        if round != 1 or palifico or any(len(c) != per for c in dice):
            return {"skip": "a pyspiel state starts at a new game"}
        state = game.new_initial_state()
        if state.is_chance_node() and state.rolling_seat() is None:  # the roll-off
            state.apply_action(first_player)
        elif first_player != 0:
            return {"skip": "this edition opens with seat 0"}
        self.state = state
        self._roll(dice)
        return {"ok": True}

    def _roll(self, dice: Cups) -> None:
        for cup in dice:
            for d in cup:
                self.state.apply_action(d - 1)

    def _to_move(self) -> int | None:
        game: Game | None = self.state.perudo_game
        return None if game is None else game.to_move

    def _sets(self) -> dict[int, list[Action]]:
        amap = self.amap
        assert amap is not None
        st = self.state.clone()
        to_move = self._to_move()
        sets: dict[int, list[Action]] = {}
        while not st.is_terminal() and not st.is_chance_node():
            seat = st.current_player()
            acts = [amap.to_action(i, seat) for i in st.legal_actions()]
            sets[seat] = [a for a in acts if a is not None]
            if seat == to_move:
                break
            st.apply_action(amap.pass_)
        return sets

    def legal(self, seat: int) -> list[str]:
        """The seat's legal ids when its decision comes, as actions."""
        if self.state is None or self.state.is_terminal() or self.state.is_chance_node():
            return []
        return [format_action(a) for a in self._sets().get(seat, [])]

    def act(self, action: str) -> dict[str, Any]:
        """``PASS`` the offers before the seat, then apply the action if it is legal."""
        amap = self.amap
        st = self.state
        if amap is None or st is None:
            return {"illegal": "no decision now"}
        if st.is_terminal():
            return {"illegal": GAME_OVER}
        if st.is_chance_node():
            return {"illegal": AWAITING_ROLL}
        a = parse_action(action)
        to_move = self._to_move()
        trial = st.clone()
        while trial.current_player() != a.player:
            if trial.current_player() == to_move:
                return {"illegal": "this seat decides nothing now"}
            trial.apply_action(amap.pass_)
        try:
            aid = amap.to_id(a)
        except (KeyError, ValueError):
            return refusal(a, "no action id", self.faces)
        if aid not in trial.legal_actions():
            return refusal(a, "not a legal id", self.faces)
        before: Game = st.perudo_game
        trial.apply_action(aid)
        self.state = trial
        if isinstance(a, (Bid, Reroll)):  # a re-roll: its dice are the next chance nodes
            return {"ok": True}
        after: Game = trial.perudo_game
        res = after.last_result
        assert res is not None
        winner = None
        if trial.is_terminal():
            returns = trial.returns()
            winner = returns.index(max(returns)) if max(returns) > 0 else None
        return {"ok": True, "outcome": outcome(before.dice_counts, after.dice_counts,
                                               None if winner is not None else res.next_player,
                                               res.next_palifico, winner)}  # fmt: skip

    def roll(self, dice: Cups) -> dict[str, Any]:
        """Every die of the next round (or of a re-roll) as a chance outcome."""
        self._roll(dice)
        return {"ok": True}


if __name__ == "__main__":  # pragma: no cover
    serve(OpenSpielHarness())
