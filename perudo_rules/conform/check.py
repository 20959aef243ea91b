"""One engine session checked against the reference, point by point.

A :class:`Session` drives the engine and the reference :class:`~perudo_rules.engine.game.Game`
side by side: :meth:`Session.check_point` compares every seat's legal actions,
:meth:`Session.probe` sends an action the reference refuses, :meth:`Session.apply` plays
one both accept and, after a Dudo or Calza, compares the round's outcome. Each comparison
yields :class:`Finding` s: a rule id (the one the reference names for a refusal, or the
rule that allows an action, or the rule that decides an outcome field), whether the engine
agreed, and what it did otherwise.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from perudo_rules.base.actions import (
    Action,
    Bid,
    Calza,
    Dudo,
    Leave,
    Reroll,
    format_action,
    parse_action,
)
from perudo_rules.base.errors import ActionSyntaxError
from perudo_rules.conform.process import Channel, HarnessError
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.reroll import set_asides
from perudo_rules.records.position import Position, Roll, Step

__all__ = ["Finding", "Session", "permitting_rule"]


@dataclass(frozen=True, slots=True)
class Finding:
    """One comparison: ``rule`` (a rule id), whether the engine agreed, and if not, how."""

    rule: str
    ok: bool
    detail: str = ""


def permitting_rule(game: Game, action: Action) -> str:
    """The rule that allows ``action`` (legal in ``game``): the one an engine breaks by
    refusing it or leaving it out of its legal set."""
    if isinstance(action, Dudo):
        return "challenge.who"
    if isinstance(action, Calza):
        return "calza.who"
    if isinstance(action, Leave):  # no move of the protocol (the runner never sends one)
        return "play.leave"
    if isinstance(action, Reroll):
        return "reroll.enabled"
    rules = game.rules
    current = game.current_bid
    if action.face == rules.wild and rules.wild is not None:
        if game.palifico:
            return "palifico.wild_bids"
        if current is None or game.round == 1:
            return "bidding.wild_opening"
    if current is None:
        return "play.bid_range"
    if game.palifico and action.face != current.face and rules.palifico_face_lock != "free":
        return "palifico.face_lock"
    if action.quantity > game.dice_in_play:
        return "bidding.quantity_cap"
    wild = game.space.wild
    if wild is not None and (action.face == wild) != (current.face == wild):
        return "bidding.wild_worth"
    return "bidding.order"


def _outcome_of(before: Game, after: Game) -> dict[str, Any]:
    res = after.last_result
    assert res is not None
    old, new = before.dice_counts, after.dice_counts
    return {
        "delta": [b - a for a, b in zip(old, new, strict=True)],
        "next": res.next_player,
        "palifico": res.next_palifico,
        "eliminated": [s for s, (a, b) in enumerate(zip(old, new, strict=True)) if a and not b],
        "winner": after.winner,
    }


def _palifico_rule(before: Game, after: Game) -> str:
    rules = before.rules
    if not rules.palifico_enabled:
        return "palifico.enabled"
    alive = sum(1 for c in after.dice_counts if c)
    if alive == 2 and not rules.palifico_heads_up:
        return "palifico.heads_up"
    if rules.palifico_once_per_player and before.palifico_used:
        return "palifico.once_per_player"
    return "palifico.trigger"


def _outcome_findings(
    before: Game, after: Game, action: Action, got: Any
) -> list[Finding]:
    want = _outcome_of(before, after)
    res = after.last_result
    assert res is not None
    dudo = isinstance(action, Dudo)
    exact = res.bid is not None and res.count == res.bid.quantity
    if dudo:
        rules_of = {
            "delta": "challenge.exact" if exact and before.rules.challenge_exact == "others_lose"
            else ("challenge.loss" if before.rules.challenge_loss != "one_die" else "play.dudo"),
            "next": "round.starter",
        }
        extra = ["play.dudo", "challenge.loss"] + (["challenge.exact"] if exact else [])
    else:
        rules_of = {
            "delta": "calza.gain_cap" if exact else "play.calza",
            "next": "calza.next_starts",
        }
        extra = ["play.calza"] + (["calza.gain_cap"] if exact else [])
    rules_of.update(
        palifico=_palifico_rule(before, after), eliminated="play.elimination",
        winner="end.condition",
    )  # fmt: skip
    # the true count decides the loser: the wild dice count, or not in a palifico round
    extra += ["play.count"]
    if before.rules.wild is not None:
        extra += ["wild.face"] + (["palifico.wilds_count"] if before.palifico else [])
    if want["next"] is not None:
        if want["palifico"]:
            rules_of["next"] = "play.palifico_opener"
        elif want["eliminated"]:
            rules_of["next"] = "play.next_seat"
    if not isinstance(got, dict):
        return [Finding(rules_of["delta"], False, "the engine's reply carries no outcome")]
    out: list[Finding] = []
    seen: set[str] = set()
    for key, rule in rules_of.items():
        if got.get(key) != want[key]:
            out.append(Finding(rule, False, f"{key} is {_short(got.get(key))}, expected "
                                            f"{_short(want[key])}"))
            seen.add(rule)
    if got.get("delta") != want["delta"]:
        extra = []  # the rules of the dice lost are not passed by a wrong count
    for rule in [*extra, *rules_of.values()]:
        if rule not in seen:
            seen.add(rule)
            out.append(Finding(rule, True))
    return out


def _short(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


class Session:
    """The engine and the reference, side by side, from one start position."""

    def __init__(self, engine: Channel, variant: Variant, values: dict[str, Any]) -> None:
        self.engine = engine
        self.variant = variant
        self.values = values
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
            raise HarnessError(f"the engine answered {cmd!r} with {_short(reply)}")

    def legal(self, seat: int) -> list[str]:
        """The engine's legal actions of ``seat``, as texts."""
        reply = self.engine.ask({"cmd": "legal", "seat": seat})
        actions = reply.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise HarnessError(f"the engine answered 'legal' with {_short(reply)}")
        return actions

    def check_point(self) -> list[Finding]:
        """Compare the legal actions of every seat with dice."""
        game = self.game
        assert game is not None and game.to_move is not None
        listed = list(game.legal_actions())
        ref = {format_action(a) for a in listed}
        out: list[Finding] = []
        seats = [s for s, c in enumerate(game.dice_counts) if c]
        table = game.space.bids
        for seat in seats:
            got = set(self.legal(seat))
            cands: list[Action] = [Dudo(seat), Calza(seat)]
            if seat == game.to_move:
                cands += [Bid(seat, q, f) for q, f in table]
                cands += _rerolls(game, seat)
            cand_texts = set()
            rules_ok: dict[str, bool] = {}
            if seat != game.to_move:  # no bids out of turn (a listed one fails below)
                rules_ok["play.turn"] = True
            details: dict[str, str] = {}
            for a in cands:
                text = format_action(a)
                cand_texts.add(text)
                legal = text in ref
                rule = permitting_rule(game, a) if legal else _refusal(game, a)
                agree = (text in got) == legal
                if not agree and rule not in details:
                    details[rule] = (
                        f"seat {seat}'s legal actions: the reference allows {text}, the engine "
                        "does not list it" if legal else
                        f"seat {seat}'s legal actions: the engine lists {text}, which the "
                        f"reference refuses ({rule})"
                    )
                rules_ok[rule] = rules_ok.get(rule, True) and agree
            for text in sorted(got - cand_texts):
                try:
                    a = parse_action(text)
                except ActionSyntaxError:
                    raise HarnessError(f"the engine lists {_short(text)}: not an action") from None
                if text in ref:  # a bid beyond the table, listed by both
                    continue
                rule = _refusal(game, a) if a.player == seat else "play.seat"
                rules_ok[rule] = False
                details.setdefault(
                    rule, f"seat {seat}'s legal actions: the engine lists {text}, which the "
                    f"reference refuses ({rule})"
                )
            if seat == game.to_move and rules_ok.get("bidding.order", True):
                rules_ok.setdefault("dice.faces", True)  # every face of the table agrees
            out += [Finding(r, ok, details.get(r, "")) for r, ok in rules_ok.items()]
        if game.bids and all(f.ok for f in out):  # the seat after the bidder is to move
            out.append(Finding("setup.direction", True))
        return out

    def probe(self, action: Action) -> list[Finding]:
        """Send ``action``, which the reference refuses: the engine must refuse it too."""
        game = self.game
        assert game is not None
        bad = game.violation(action)
        assert bad is not None
        reply = self.engine.ask({"cmd": "act", "action": format_action(action)})
        if "illegal" in reply:
            return [Finding(bad.rule, True)]
        self._expect_ok(reply, "act")
        self.broken = True
        return [Finding(bad.rule, False, f"the engine takes {format_action(action)}, which the "
                                       f"reference refuses ({bad.rule}: {bad.message})")]

    def apply(self, action: Action) -> list[Finding]:
        """Play ``action`` (legal in the reference) in both; after a call, compare outcomes."""
        game = self.game
        assert game is not None
        after = game.apply(action)
        text = format_action(action)
        reply = self.engine.ask({"cmd": "act", "action": text})
        self.round_steps.append(action)
        self.game = after
        if "illegal" in reply:
            self.broken = True
            why = _short(str(reply["illegal"]))
            return [Finding(permitting_rule(game, action), False,
                            f"the engine refuses {text} ({why}), which the reference allows")]
        self._expect_ok(reply, "act")
        if isinstance(action, (Bid, Reroll)):
            return []
        found = _outcome_findings(game, after, action, reply.get("outcome"))
        if any(not f.ok for f in found):
            self.broken = True
        return found

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

    def resync(self) -> None:
        """Bring the engine back to this session's position (after other replays used it):
        the round's start again and its actions; ``broken`` if the engine does not follow."""
        game, start, steps = self.game, self.round_start, list(self.round_steps)
        assert start is not None
        if not self.start(start):
            self.broken = True
            return
        for a in steps:
            if isinstance(a, Roll):
                request = {"cmd": "roll", "dice": [list(c) for c in a.dice]}
            else:
                request = {"cmd": "act", "action": format_action(a)}
            if self.engine.ask(request).get("ok") is not True:
                self.broken = True
        self.game, self.round_steps = game, steps

    def witness_steps(self) -> tuple[Position, tuple[Step, ...]]:
        """The start of the current round and its actions so far (a witness to shrink)."""
        assert self.round_start is not None
        return self.round_start, tuple(self.round_steps)


def _rerolls(game: Game, seat: int) -> list[Action]:
    """Every re-roll ``seat`` could name: each part of its concealed dice (``reroll.enabled``)."""
    if not game.rules.reroll_enabled:
        return []
    hidden = tuple(sorted(game.dice[seat][len(game.set_aside[seat]) :]))
    return [Reroll(seat, c) for c in set_asides(hidden, 0)]  # every die aside too: refused


def _refusal(game: Game, action: Action) -> str:
    bad = game.violation(action)
    return "play.turn" if bad is None else bad.rule

