"""One engine session checked against the reference, point by point.

A :class:`Session` drives the engine and the reference :class:`~perudo_rules.engine.game.Game`
side by side from one start: :meth:`Session.check_point` asks every seat's legal actions,
:meth:`Session.probe` sends an action the reference refuses, :meth:`Session.apply` plays
one it allows and, after a Dudo or Calza, compares the round's outcome;
:meth:`Session.check_end` asks again once the game is over. Each comparison is an
:class:`~perudo_rules.conform.observe.Point`, judged against the edition
(:func:`~perudo_rules.conform.observe.judge`): the runner keeps them, and the diagnosis
explains the ones that differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perudo_rules.base.actions import (
    Action,
    Bid,
    Calza,
    Dudo,
    format_action,
    parse_action,
)
from perudo_rules.base.errors import ActionSyntaxError
from perudo_rules.base.i18n import tr
from perudo_rules.base.texts import Text, plain, tx
from perudo_rules.conform.observe import Judged, Point, judge, short_json
from perudo_rules.conform.process import Channel, HarnessError
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.game import Game
from perudo_rules.records.position import Position, Roll, Step

__all__ = ["Session", "listed_actions", "out_of_range"]


class Session:
    """The engine and the reference, side by side, from one start position."""

    def __init__(self, engine: Channel, variant: Variant, values: dict[str, Any],
                 source: str = "") -> None:  # fmt: skip
        self.engine = engine
        self.variant = variant
        self.values = values
        self.source = source
        self.game: Game | None = None
        self.round_start: Position | None = None
        self.round_steps: list[Step] = []
        self.broken = False

    def start(self, position: Position) -> bool:
        """Start both at ``position``; ``False`` when the engine skips it."""
        game = position.game(self.variant)
        reply = self.engine.ask(
            {
                "cmd": "start",
                "edition": self.values,
                "dice": [list(c) for c in position.dice],
                "first_player": position.first_player,
                "round": position.round,
                "palifico": position.palifico,
                "palifico_used": list(position.palifico_used),
            }
        )
        if "skip" in reply:
            return False
        self._expect_ok(reply, "start")
        self.game = game
        self.round_start = Position.of(game)
        self.round_steps = []
        self.broken = False
        return True

    def _expect_ok(self, reply: dict[str, Any], cmd: str) -> None:
        if reply.get("ok") is not True:
            raise HarnessError(
                tr("the engine answered {cmd} with {reply}", cmd=repr(cmd), reply=short_json(reply))
            )

    def legal(self, seat: int) -> list[str]:
        """The engine's legal actions of ``seat``, as texts (each one an action)."""
        return listed_actions(self.engine, seat)

    def _observe(self, kind: str, **what: Any) -> Point:
        assert self.round_start is not None
        return Point(self.round_start, tuple(self.round_steps), kind, self.variant,
                           self.source, **what)  # fmt: skip

    def _judged(self, obs: Point) -> Judged:
        found = judge(obs, credit=True)
        assert found is not None  # the session's own edition reaches its own points
        return found

    def check_point(self) -> list[Judged]:
        """Compare the legal actions of every seat (a seat that is out has none)."""
        game = self.game
        assert game is not None and game.to_move is not None
        out = []
        for seat in range(game.players):
            listed = frozenset(self.legal(seat))
            out.append(self._judged(self._observe("legal", seat=seat, engine=listed)))
        return out

    def probe(self, action: Action) -> list[Judged]:
        """Send ``action``, which the reference refuses: the engine must refuse it too."""
        game = self.game
        assert game is not None and game.violation(action) is not None
        reply = self.engine.ask({"cmd": "act", "action": format_action(action)})
        took = "illegal" not in reply
        if took:
            self._expect_ok(reply, "act")
            self.broken = True
        return [self._judged(self._observe("act", action=action, engine=took))]

    def apply(self, action: Action) -> list[Judged]:
        """Play ``action`` (legal in the reference) in both; after a call, compare outcomes."""
        game = self.game
        assert game is not None
        text = format_action(action)
        reply = self.engine.ask({"cmd": "act", "action": text})
        if "illegal" in reply:
            self.broken = True
            return [self._judged(self._observe("act", action=action, engine=False))]
        self._expect_ok(reply, "act")
        found = [self._judged(self._observe("act", action=action, engine=True))]
        if isinstance(action, (Dudo, Calza)):
            got = reply.get("outcome")
            found.append(self._judged(self._observe("outcome", action=action, engine=got)))
        self.round_steps.append(action)
        self.game = game.apply(action)
        if not all(j.ok for j in found):
            self.broken = True
        return found

    def check_end(self, rng_action: Action | None = None) -> list[Judged]:
        """Once the game is over (``play.game_over``): every seat's legal actions must be
        empty and an action sent must be refused (``rng_action``, or a Dudo)."""
        game = self.game
        assert game is not None and game.winner is not None
        seats = range(game.players)
        found: list[Judged] = []
        for seat in seats:
            listed = self.legal(seat)
            ok = not listed
            detail = plain("") if ok else tx(
                "seat {seat}'s legal actions after the game is over: the engine lists {actions}",
                seat=seat, actions=", ".join(listed[:3]),
            )  # fmt: skip
            found.append(self._end_judged(ok, detail, seat=seat))
        action = rng_action or Dudo(game.winner)
        reply = self.engine.ask({"cmd": "act", "action": format_action(action)})
        took = "illegal" not in reply
        detail = plain("")
        if took:
            detail = tx("the engine takes {action} after the game is over",
                        action=format_action(action))  # fmt: skip
        found.append(self._end_judged(not took, detail, action=action))
        if took:
            self.broken = True
        return found

    def _end_judged(self, ok: bool, detail: Text, **what: Any) -> Judged:
        assert self.round_start is not None
        obs = Point(self.round_start, tuple(self.round_steps), "end", self.variant,
                          self.source, **what)  # fmt: skip
        return Judged(obs, ok, ("play.game_over",), detail)

    def roll(self, dice: Sequence[Sequence[int]]) -> None:
        """Start the next round in both with ``dice``, or roll a re-roll's dice."""
        game = self.game
        assert game is not None
        self.game = game.roll(dice=dice)
        self._expect_ok(self.engine.ask({"cmd": "roll", "dice": [list(c) for c in dice]}), "roll")
        if game.to_move is not None:  # a re-roll: the round goes on
            self.round_steps.append(Roll(tuple(tuple(c) for c in dice)))
            return
        self.round_start = Position.of(self.game)
        self.round_steps = []


def listed_actions(engine: Channel, seat: int) -> list[str]:
    """The engine's answer to ``legal`` for ``seat``: its texts, each checked to be an
    action (:class:`HarnessError` naming what is wrong otherwise)."""
    reply = engine.ask({"cmd": "legal", "seat": seat})
    actions = reply.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise HarnessError(
            tr("the engine answered {cmd} with {reply}", cmd="'legal'", reply=short_json(reply))
        )
    for text in actions:
        try:
            parse_action(text)
        except ActionSyntaxError:
            raise HarnessError(
                tr("the engine lists {text}: not an action", text=short_json(text))
            ) from None
    return actions


def out_of_range(game: Game) -> list[Action]:
    """Bids no edition allows, which an engine must refuse (``play.bid_range``): zero
    dice, face 0, a face beyond the die, and a quantity beyond the dice in play."""
    seat = game.to_move
    assert seat is not None
    faces = game.rules.dice_faces
    return [
        Bid(seat, 0, 2), Bid(seat, 1, 0), Bid(seat, 1, faces + 1),
        Bid(seat, game.dice_in_play + 2, faces),
    ]  # fmt: skip
