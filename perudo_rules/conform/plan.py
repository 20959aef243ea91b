"""What a conformance run sends an edition, and how it writes what it found.

:func:`scenarios_for` picks the scenarios that apply to an edition (for an edition
file, those whose knobs it plays as one of the scenario's editions does);
:func:`perft_positions` the perft positions it is counted on (for an edition file,
counted by the reference for its own values); :func:`divide` splits a perft mismatch
by first move; :func:`then_of` says what a witness judges.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perudo_rules.base.actions import Action, Bid, Reroll, format_action, parse_action
from perudo_rules.conform.flips import flipped
from perudo_rules.conform.observe import Judged
from perudo_rules.conform.perft import perft, published, rolled_as_before, standard_positions
from perudo_rules.conform.scenarios import Scenario
from perudo_rules.editions.knobs import KNOBS, SEATS, same_value
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import available_variants, load_variant
from perudo_rules.engine.game import Game

__all__ = ["divide", "perft_positions", "scenarios_for", "then_of", "unread_rules"]


def scenarios_for(
    ref: str, variant: Variant, all_scenarios: Sequence[Scenario]
) -> list[tuple[Scenario, Variant, str]]:
    """The scenarios that apply to an edition, each with the variant it runs under and the
    edition whose expectations it reads: a bundled edition's own; for an edition file,
    every scenario one of whose editions plays the knobs it exercises as the file does."""
    out: list[tuple[Scenario, Variant, str]] = []
    own = variant.id if variant.id in available_variants() and ref == variant.id else None
    # an edition file's: each bundled edition's values, read once
    bundled = {} if own else {e: load_variant(e).values() for e in available_variants()}
    values = variant.values()
    for sc in all_scenarios:
        if own is not None:
            if own in sc.variants:
                out.append((sc, sc.variant(own), own))
            continue
        knobs = [r for r in sc.rules if r in values]
        for e in sc.variants:
            if e not in bundled:
                continue
            theirs = dict(bundled[e], **sc.overrides)
            if all(same_value(theirs[k], values[k]) for k in knobs):
                under = flipped(variant, sc.overrides) if sc.overrides else variant
                if under is not None:
                    out.append((sc, under, e))
                break
    return out


def perft_positions(ref: str, variant: Variant, budget: int) -> list[dict[str, Any]]:
    """The published perft positions of a bundled edition; for an edition file, the same
    positions counted by the reference for the file's own values (to the depth the
    budget reaches)."""
    if variant.id in available_variants() and ref == variant.id:
        return published(variant.id)
    out = []
    for name, _, pos in standard_positions(variant):
        game = pos.game(variant)
        table = perft(game, 1)
        for depth in range(2, 7):
            deeper = perft(game, depth)
            if sum(n - c for n, c in zip(deeper.nodes[:-1], deeper.calls[:-1],
                                         strict=True)) + 1 > budget:  # fmt: skip
                break
            table = deeper
        out.append({"name": name, "position": pos.to_json(), "nodes": list(table.nodes),
                    "calls": list(table.calls)})  # fmt: skip
    return out


def then_of(found: Judged) -> tuple[Action | None, Any, Any]:
    """The action a witness judges, what the engine answered and what the reference
    answers, from the difference ``found``."""
    obs = found.observation
    if obs.kind == "legal":
        ref, listed = set(found.reference or ()), set(obs.engine)
        texts = sorted(ref - listed) + sorted(listed - ref)
        then = parse_action(texts[0]) if texts else None
        if then is not None:
            return (
                then,
                ("lists it" if texts[0] in listed else "does not list it"),
                ("allows it" if texts[0] in ref else "refuses it"),
            )
        return None, sorted(listed), sorted(ref)
    if obs.kind == "end":
        if obs.action is not None:
            return obs.action, "takes it", "refuses it (the game is over)"
        return None, "lists actions", "lists none (the game is over)"
    if obs.kind == "act":
        engine = "takes it" if obs.engine else "refuses it"
        return obs.action, engine, "allows it" if found.reference else "refuses it"
    return obs.action, obs.engine, found.reference


def divide(reference: Game, by_first: dict[str, list[int]],
            depth: int) -> list[tuple[str, list[int], list[int]]]:  # fmt: skip
    """The first moves whose perft counts differ: the move, the reference's counts of the
    sequences it starts (by length), the engine's."""
    out = []
    moves = {format_action(a): a for a in reference.legal_actions() if isinstance(a, (Bid, Reroll))}
    for text in sorted(set(moves) | set(by_first)):
        got = by_first.get(text, [0] * depth)
        a = moves.get(text)
        want = [0] * depth
        if a is not None and depth > 1:
            after = reference.apply(a)
            if isinstance(a, Reroll):
                after = after.roll(dice=rolled_as_before(reference, a))
            want = [0, *perft(after, depth - 1).nodes]
        if got[1:] != want[1:]:
            out.append((text, want[1:], got[1:]))
    return out


#: Rules read only when another knob has a value, beyond the knob table's ``read_when``:
#: the fixed rules of Calza, palifico and the re-roll, and the re-roll's own knobs.
_ONLY_WHEN: dict[str, tuple[str, str]] = {
    "play.calza": ("calza.enabled", "nobody can call Calza"),
    "play.palifico_opener": ("palifico.enabled", "there are no palifico rounds"),
    "play.reroll": ("reroll.enabled", "nobody re-rolls"),
    "reroll.min_hidden": ("reroll.enabled", "nobody re-rolls"),
    "reroll.limit": ("reroll.enabled", "nobody re-rolls"),
    "reroll.must_bid": ("reroll.enabled", "nobody re-rolls"),
}


def unread_rules(variant: Variant) -> dict[str, str]:
    """The rules ``variant`` never reads in play, each with why: a knob the table says is
    never read, or read only under a condition this edition fails (with the most seats
    it allows), and the fixed rules of a part of the game it does not play."""
    values = dict(variant.values(), **{SEATS: variant.rules.players_max})
    out: dict[str, str] = {}
    for knob in KNOBS:
        if knob.never_read:
            out[knob.path] = knob.never_read
            continue
        for cond in knob.read_when:
            if not cond.holds(values):
                out[knob.path] = cond.otherwise or f"{cond.path} is {values[cond.path]!r}"
                break
    for rule, (path, why) in _ONLY_WHEN.items():
        if values[path] is not True:
            out.setdefault(rule, why)
    return out
