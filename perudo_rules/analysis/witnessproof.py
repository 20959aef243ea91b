"""Why a rule that differs between two editions makes no difference in play: proofs.

A rule makes no difference between editions ``a`` and ``b`` when one of them plays the
same games whatever its value: then every divergence of the two is another rule's. Three
proofs of that, tried in order by :func:`no_difference_reason`; each gives a sentence a
reader can check against the two files (as data, a :class:`~perudo_rules.base.texts.Text`,
said in the reader's language when shown):

* **never read**: the knob table (:mod:`perudo_rules.editions.knobs`) says the engine reads the
  knob only when a condition on other knobs holds (``read_when``), or never in play
  (``never_read``), and the condition fails in one edition (*calza.who differs, but bluff
  has calza.enabled: false, so in bluff nobody can call Calza*);
* **alike**: the two values are choices the knob table says decide alike unless a
  condition holds (``alike``), and it fails in one edition;
* **every situation tried**: the knob decides only which calls (or bids) are legal
  (``decides``), and in every call (or bidding) situation the two editions share
  (:func:`~perudo_rules.analysis.witnesssearch.exhaustive`), one edition with the rule set to the
  other's value allows exactly what it allows with its own.

The conditions may name :data:`~perudo_rules.editions.knobs.SEATS`, here the most seats a
position both editions allow may have. ``tests/test_read_when.py`` checks the knob
table's conditions against the engine.
"""

from __future__ import annotations

from typing import Any

from perudo_rules.analysis.divergence import SituationGames
from perudo_rules.analysis.witnesssearch import SearchLimits, exhaustive, search_exhaustive
from perudo_rules.base.texts import Arg, Text, concat, joined, tx
from perudo_rules.editions.knobs import SEATS, ReadWhen, knob_spec
from perudo_rules.editions.variant import Variant, format_value

__all__ = ["alike_reason", "exhaustive_reason", "no_difference_reason", "unread_reason"]


def _values(v: Variant, seats: int) -> dict[str, Any]:
    return {**v.values(), SEATS: seats}


def _shown(cond: ReadWhen, values: dict[str, Any]) -> Arg:
    if cond.path == SEATS:
        return tx("at most {n} seats in a position both editions allow", n=values[SEATS])
    return f"{cond.path}: {format_value(values[cond.path])}"


def _shared_seats(a: Variant, b: Variant) -> int:
    return min(a.rules.players_max, b.rules.players_max)


def unread_reason(a: Variant, b: Variant, rule: str, ids: tuple[str, str]) -> Text | None:
    """Why ``rule`` makes no difference between ``a`` and ``b`` (labelled ``ids``)
    because one of them never reads it, or ``None`` when both read it."""
    spec = knob_spec(rule)
    if spec.never_read:
        return tx(
            "{rule} differs, but {why}: the engine never reads it in play",
            rule=rule,
            why=tx(spec.never_read),
        )
    seats = _shared_seats(a, b)
    for vid, v in zip(ids, (a, b), strict=True):
        values = _values(v, seats)
        for cond in spec.read_when:
            if not cond.holds(values):
                return tx(
                    "{rule} differs, but {vid} has {has}, so in {vid} {why}: the engine "
                    "never reads {rule} there",
                    rule=rule,
                    vid=vid,
                    has=_shown(cond, values),
                    why=tx(cond.otherwise),
                )
    return None


def alike_reason(a: Variant, b: Variant, rule: str, ids: tuple[str, str]) -> Text | None:
    """Why the two values of ``rule`` decide alike in one of the editions (the knob
    table's ``alike``), or ``None``."""
    spec = knob_spec(rule)
    va, vb = a[rule], b[rule]
    seats = _shared_seats(a, b)
    for group in spec.alike:
        if not group.covers(va, vb):
            continue
        for vid, v in zip(ids, (a, b), strict=True):
            values = _values(v, seats)
            if any(cond.holds(values) for cond in group.apart_when):
                continue
            unless = joined(_OR, [_condition(c) for c in group.apart_when])
            has = joined(", ", [_shown(c, values) for c in group.apart_when])
            why = joined("; ", [tx(c.otherwise) for c in group.apart_when])
            return tx(
                "{rule} differs, but {a} and {b} decide alike unless {unless}, and none of "
                "that holds in {vid} ({has}): in {vid} {why}",
                rule=rule,
                a=format_value(va),
                b=format_value(vb),
                unless=unless,
                vid=vid,
                has=has,
                why=why,
            )
    return None


#: `` or `` between alternatives, in the reader's language.
_OR = concat(" ", tx("or"), " ")


def _condition(cond: ReadWhen) -> Text:
    """The condition in words: ``palifico.enabled is true``, ``3 seats or more``."""
    if cond.path == SEATS:
        return tx("a position has {n} seats or more", n=cond.at_least)
    if cond.at_least is not None:
        return tx("{rule} is at least {n}", rule=cond.path, n=cond.at_least)
    if cond.unless:
        values = joined(_OR, [format_value(u) for u in cond.unless])
        return tx("{rule} is not {values}", rule=cond.path, values=values)
    values = joined(_OR, [format_value(v) for v in cond.values])
    return tx("{rule} is {values}", rule=cond.path, values=values)


def exhaustive_reason(
    a: Variant,
    b: Variant,
    rule: str,
    ids: tuple[str, str],
    limits: SearchLimits,
    games: SituationGames,
) -> Text | None:
    """Why ``rule``, which decides only calls or only bids (the knob table's
    ``decides``), makes no difference: in every such situation the editions share, one of
    them with the rule set to the other's value allows exactly what it allows with its
    own (:func:`~perudo_rules.analysis.witnesssearch.exhaustive`); ``None`` if neither does, or
    the situations are too many to try."""
    decides = knob_spec(rule).decides
    plan = exhaustive(decides, a, b, limits) if decides else None
    if plan is None:
        return None
    pairs = ((ids[0], a, b), (ids[1], b, a))
    for vid, side, other in pairs:
        changed = games.set_back(side, other, frozenset({rule}))
        if changed is None:
            continue
        if next(search_exhaustive(side, changed, other, plan, [0]), None) is None:
            fields: dict[str, Arg] = {
                "rule": rule,
                "coverage": plan.coverage,
                "vid": vid,
                "other": format_value(other[rule]),
                "own": format_value(side[rule]),
            }
            if decides == "calls":
                return tx(
                    "{rule} differs, but it decides only which calls are legal, and in every "
                    "call situation both editions share ({coverage}), {vid} with {rule}: "
                    "{other} allows exactly the calls it allows with {own}",
                    **fields,
                )
            return tx(
                "{rule} differs, but it decides only which bids are legal, and in every "
                "bidding situation both editions share ({coverage}), {vid} with {rule}: "
                "{other} allows exactly the bids it allows with {own}",
                **fields,
            )
    return None


def no_difference_reason(
    a: Variant,
    b: Variant,
    rule: str,
    ids: tuple[str, str],
    limits: SearchLimits,
    games: SituationGames,
) -> Text | None:
    """The first proof that ``rule`` makes no difference between ``a`` and ``b`` (never
    read, alike, every situation tried), or ``None`` when none applies."""
    return (
        unread_reason(a, b, rule, ids)
        or alike_reason(a, b, rule, ids)
        or exhaustive_reason(a, b, rule, ids, limits, games)
    )
