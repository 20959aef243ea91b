"""What an engine was seen to do, and whether an edition agrees with it.

Every comparison of a conformance run is an :class:`Point`: a point of play (a
round's start and the steps played since), what was asked there (a seat's ``legal``
actions, or an ``act``) and what the engine answered. :func:`judge` holds it against the
reference under any :class:`~perudo_rules.editions.variant.Variant`: the edition asked
for, or the same edition with a knob set otherwise (what the diagnosis,
:mod:`perudo_rules.conform.diagnose`, tries). The rules a verdict names are the kernel's
own decision trace (:meth:`~perudo_rules.engine.game.Game.decision`,
:meth:`~perudo_rules.engine.game.Game.outcome_decision`): the rule that decided the
reference's answer, never a rule that only stood near it.

An outcome that differs in several fields is one difference: its first field (the dice
lost, then who is out, the winner, who opens next and whether that round is palifico)
names the rule, and the fields that follow from it are its consequences.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from perudo_rules.base.actions import Action, Bid, Calza, Dudo, format_action, parse_action
from perudo_rules.base.errors import ActionSyntaxError, IllegalAction
from perudo_rules.base.i18n import N_
from perudo_rules.base.texts import Text, joined, ntx, plain, refusal_text, tx
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.game import Game
from perudo_rules.records.position import Position, Roll, Step

__all__ = ["FIELD_ORDER", "Judged", "Point", "judge", "outcome_of", "reach", "short_json"]

#: The fields of a round's outcome, in the order one follows from another: the dice
#: lost decide who is out and the winner; who opens next and whether that round is
#: palifico follow.
FIELD_ORDER: tuple[str, ...] = ("delta", "eliminated", "winner", "next", "palifico")


_NO_DETAIL = plain("")

#: How an outcome field of the engine differs from the reference's, per field (the
#: protocol's key, data, stays out of the sentence).
_FIELD_DIFFERS = {
    "delta": N_("the dice each seat loses or gains are {got}, expected {want}"),
    "eliminated": N_("the seats out of the game are {got}, expected {want}"),
    "winner": N_("the winner is {got}, expected {want}"),
    "next": N_("the seat that opens the next round is {got}, expected {want}"),
    "palifico": N_("whether the next round is palifico: {got}, expected {want}"),
}


@dataclass(frozen=True, slots=True)
class Point:
    """One point of a run: after ``steps`` from ``start``, the engine was asked ``kind``.

    ``kind`` is ``"legal"`` (``seat``'s legal actions: ``engine`` holds the texts the
    engine listed), ``"act"`` (``action`` sent: ``engine`` is whether it took it) or
    ``"outcome"`` (``action``, a call both took: ``engine`` is the outcome it replied,
    ``None`` if none). ``variant`` is the edition the point was compared under (a
    scenario's knob values included); ``source`` where in the run it came from.
    """

    start: Position
    steps: tuple[Step, ...]
    kind: str
    variant: Variant = field(compare=False)
    source: str = field(default="", compare=False)
    seat: int = -1
    action: Action | None = None
    engine: Any = None


@dataclass(frozen=True, slots=True)
class Judged:
    """An observation held against an edition: ``ok`` when the edition answers as the
    engine did. ``rules`` are the rule ids that decided the edition's answer (on a
    difference, the first names it); ``detail`` says how the engine differed (a
    :class:`~perudo_rules.base.texts.Text`: said in the reader's language), and
    ``consequences`` the outcome fields that follow from the first difference."""

    observation: Point
    ok: bool
    rules: tuple[str, ...]
    detail: Text = _NO_DETAIL
    reference: Any = None
    consequences: tuple[str, ...] = ()

    @property
    def rule(self) -> str:
        """The rule that decided the edition's answer at this point."""
        return self.rules[0] if self.rules else "play.turn"


def reach(obs: Point, variant: Variant) -> Game | None:
    """The reference game at ``obs``'s point under ``variant``, or ``None`` when that
    edition does not reach it (a start it refuses, a step it does not take)."""
    try:
        game = obs.start.game(variant)
        for step in obs.steps:
            game = game.roll(dice=step.dice) if isinstance(step, Roll) else game.apply(step)
    except (ValueError, IllegalAction):
        return None
    if game.to_move is None or game.awaiting_roll:
        return None
    return game


def outcome_of(before: Game, after: Game) -> dict[str, Any]:
    """The ``outcome`` of a call, as the protocol writes it, from the games around it."""
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


def short_json(value: Any) -> str:
    """``value`` as JSON, cut to 80 characters (a reply or a field in a sentence)."""
    text = json.dumps(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _legal_texts(game: Game, seat: int) -> frozenset[str]:
    return frozenset(format_action(a) for a in game.legal_actions() if a.player == seat)


def _action_rule(game: Game, action: Action, seat: int) -> str:
    """The rule that decides ``action`` listed for ``seat``: another seat's action in its
    list breaks ``play.seat``."""
    if action.player != seat:
        return "play.seat"
    return game.decision(action).rule


def _judge_legal(game: Game, obs: Point, credit: bool) -> Judged:
    ref = _legal_texts(game, obs.seat)
    listed: frozenset[str] = obs.engine
    missing = sorted(ref - listed)
    extra = []
    for text in sorted(listed - ref):
        a = parse_action(text)
        if a.player == obs.seat and isinstance(a, Bid) and game.violation(a) is None:
            continue  # a legal bid beyond the listed table
        extra.append((text, a))
    if not missing and not extra:
        rules: set[str] = set()
        if credit:  # the rules that decided this list, each passed
            rules = {game.decision(parse_action(t)).rule for t in ref}
            rules.add("play.turn" if obs.seat != game.to_move else "play.bid_range")
        return Judged(obs, True, tuple(sorted(rules)), reference=sorted(ref))
    rules_of: list[str] = []
    parts = []
    for text in missing:
        rule = game.decision(parse_action(text)).rule
        rules_of.append(rule)
        parts.append(
            tx("the reference allows {action} ({rule}), the engine does not list it",
               action=text, rule=rule)
        )  # fmt: skip
    for text, a in extra:
        rule = _action_rule(game, a, obs.seat)
        rules_of.append(rule)
        parts.append(
            tx("the engine lists {action}, which the reference refuses ({rule})",
               action=text, rule=rule)
        )  # fmt: skip
    # the rule most of the differences share names the difference
    first = max(rules_of, key=lambda r: (rules_of.count(r), -rules_of.index(r)))
    order = [first, *dict.fromkeys(r for r in rules_of if r != first)]
    shown = joined("; ", parts[:3])
    if len(parts) > 3:
        shown = joined("; ", [shown, ntx("and {n} more", "and {n} more", len(parts) - 3)])
    detail = tx("seat {seat}'s legal actions: {shown}", seat=obs.seat, shown=shown)
    return Judged(obs, False, tuple(order), detail, sorted(ref))


def _judge_act(game: Game, obs: Point) -> Judged:
    action = obs.action
    assert action is not None
    decision = game.decision(action)
    text = format_action(action)
    if obs.engine == decision.legal:
        return Judged(obs, True, decision.rules, reference=decision.legal)
    if decision.legal:
        detail = tx("the engine refuses {action}, which the reference allows ({rule})",
                    action=text, rule=decision.rule)  # fmt: skip
    else:
        bad = game.violation(action)
        if bad is None:
            detail = tx("the engine takes {action}, which the reference refuses ({rule})",
                        action=text, rule=decision.rule)  # fmt: skip
        else:
            detail = tx("the engine takes {action}, which the reference refuses ({rule}: {why})",
                        action=text, rule=decision.rule, why=refusal_text(bad))  # fmt: skip
    return Judged(obs, False, decision.rules, detail, decision.legal)


def _judge_outcome(game: Game, obs: Point) -> Judged:
    action = obs.action
    assert isinstance(action, (Dudo, Calza))
    if game.violation(action) is not None:  # this edition refuses the call itself
        return _judge_act(game, Point(obs.start, obs.steps, "act", obs.variant,
                                            obs.source, obs.seat, action, True))  # fmt: skip
    decided = game.outcome_decision(action)
    want = outcome_of(game, game.apply(action))
    got = obs.engine
    every = tuple(dict.fromkeys(r for f in FIELD_ORDER for r in decided[f]))
    if not isinstance(got, dict):
        rules = decided["delta"]
        return Judged(obs, False, rules, tx("the engine's reply carries no outcome"), want)
    differ = [f for f in FIELD_ORDER if got.get(f) != want[f]]
    if not differ:
        return Judged(obs, True, every, reference=want)
    root = differ[0]
    rules = tuple(dict.fromkeys([*decided[root], *every]))
    detail = tx(_FIELD_DIFFERS[root], got=short_json(got.get(root)), want=short_json(want[root]))
    return Judged(obs, False, rules, detail, want, tuple(differ[1:]))


def judge(obs: Point, variant: Variant | None = None, credit: bool = False) -> Judged | None:
    """``obs`` held against ``variant`` (default: the edition it was compared under);
    ``None`` when that edition does not reach the point. ``credit`` also names, for an
    agreeing list of legal actions, every rule that decided it (costlier)."""
    game = reach(obs, variant or obs.variant)
    if game is None:
        return None
    try:
        if obs.kind == "legal":
            return _judge_legal(game, obs, credit)
        if obs.kind == "act":
            return _judge_act(game, obs)
        return _judge_outcome(game, obs)
    except ActionSyntaxError:  # pragma: no cover - the session checked every text
        return None
