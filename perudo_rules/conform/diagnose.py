"""Diagnosis by the knobs: the rule an engine breaks, found the way an arbiter cites one.

Every rule of an edition is a knob value with its alternatives. For a point where the
engine and the edition differ, :func:`diagnose` looks for the knob (then the pair of
knobs the kernel's trace names) whose other value makes the reference agree with the
engine there, and on the rest of the run: on every other difference it explains and on
no agreeing point it spoils. That knob, with the value the engine plays, is the root
cause (a :class:`Root`). Where no knob value explains a difference, the root is the rule
that decided the reference's answer, from the kernel's decision trace
(:class:`~perudo_rules.conform.observe.Judged`). Every later difference that a root
explains is counted under it, not reported again; a difference no root explains is a
root of its own, so that two bugs under one rule id are two roots.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from perudo_rules.conform.observe import Judged, Observation, judge, replay
from perudo_rules.editions.crossknob import knob_conflicts
from perudo_rules.editions.knobs import KNOB_PATHS, KNOBS
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import available_variants, load_variant

__all__ = ["Root", "alternatives", "diagnose", "flipped", "signature"]

#: Knobs the protocol cannot observe (the runner seats, deals and names the opener),
#: which no flip could explain: kept in step with the report's ``NOT_OBSERVED``.
UNFLIPPED: frozenset[str] = frozenset({
    "players.min", "players.max", "dice.per_player", "wild.name", "setup.first_player",
    "setup.rolloff_dice", "setup.rolloff_score", "setup.rolloff_wild_best",
    "challenge.early_stop", "challenge.stop_when_unreachable",
    *(k.path for k in KNOBS if k.section == "leave"),
})  # fmt: skip
#: Agreeing points a candidate knob value is held against (evenly spread over the run).
SAMPLE = 240


@dataclass
class Root:
    """One root cause: ``rule`` (a rule id); ``knob`` the knob values the engine plays
    where the edition says ``edition`` (empty when no knob value explains it); the
    differences it explains, the first of them the one reported."""

    rule: str
    knob: dict[str, Any]
    edition: dict[str, Any]
    differences: list[Judged] = field(default_factory=list)
    signature: tuple[str, ...] = ()

    @property
    def first(self) -> Judged:
        """The first difference this root explains."""
        return self.differences[0]

    def explains(self, found: Judged) -> bool:
        """Whether the engine's answer at ``found`` follows from this root."""
        if not self.knob:
            if not self.signature:  # a root named beforehand (a witness's): by its rule
                return found.rule == self.rule
            return signature(found) == self.signature
        other = flipped(found.observation.variant, self.knob)
        if other is None:
            return False
        again = judge(found.observation, other)
        return again is not None and again.ok


@functools.cache
def _bundled_values() -> tuple[dict[str, Any], ...]:
    return tuple(load_variant(v).values() for v in available_variants())


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b


def alternatives(variant: Variant) -> list[tuple[str, Any]]:
    """Every other value the diagnosis tries for each observable knob of ``variant``: a
    choice of the knob, a value a bundled edition plays, or an integer one away."""
    out: list[tuple[str, Any]] = []
    bundled = _bundled_values()
    for knob in KNOBS:
        if knob.path in UNFLIPPED:
            continue
        current = variant[knob.path]
        values: list[Any] = [c for c, _ in knob.choices]
        values += [b[knob.path] for b in bundled]
        if type(current) is int and knob.path != "dice.faces":
            values += list(range(int(knob.schema.get("minimum", 1)), max(current + 2, 7)))
        elif type(current) is int:
            values += [current - 1, current + 1]
        if knob.path == "wild.face":
            values += list(range(1, variant.rules.dice_faces + 1))
        seen: list[Any] = []
        for v in values:
            if not _same(v, current) and not any(_same(v, s) for s in seen):
                seen.append(v)
                out.append((knob.path, v))
    return out


_FLIPS: dict[tuple[int, tuple[tuple[str, str], ...]], Variant | None] = {}


def flipped(variant: Variant, values: Mapping[str, Any]) -> Variant | None:
    """``variant`` with the knob ``values`` set; ``None`` when they break a rule between
    knobs (or a knob's own bounds)."""
    key = (id(variant), tuple(sorted((p, repr(v)) for p, v in values.items())))
    if key in _FLIPS:
        return _FLIPS[key]
    all_values = dict(variant.values(), **values)
    made: Variant | None = None
    if not knob_conflicts(all_values):
        knobs = tuple(
            dataclasses.replace(k, value=values[k.path]) if k.path in values else k
            for k in variant.knobs
        )
        try:
            made = dataclasses.replace(variant, knobs=knobs)
        except (ValueError, TypeError):
            made = None
    if len(_FLIPS) > 4096:
        _FLIPS.clear()
    _FLIPS[key] = made
    return made


def signature(found: Judged) -> tuple[str, ...]:
    """What kind of difference ``found`` is, beyond its rule: the engine allows what the
    rule refuses (lists it or takes it), refuses what it allows (leaves it out or refuses
    it), or the outcome field that differs first."""
    obs = found.observation
    if obs.kind == "legal" or (obs.kind == "end" and obs.action is None):
        detail = found.detail
        how = "allows" if "the engine lists" in detail and "does not list" not in detail else (
            "refuses"
        )
    elif obs.kind in ("act", "end"):
        how = "allows" if obs.engine or obs.kind == "end" else "refuses"
    else:
        how = found.detail.split(" ", 1)[0]
    return (found.rule, how)


def _ok_under(obs: Observation, values: Mapping[str, Any]) -> bool | None:
    other = flipped(obs.variant, values)
    if other is None:
        return None
    again = judge(obs, other)
    return None if again is None else again.ok


def _spread(items: Sequence[Judged], most: int) -> list[Judged]:
    if len(items) <= most:
        return list(items)
    step = len(items) / most
    return [items[int(i * step)] for i in range(most)]


def _changed_answers(obs: Observation, values: Mapping[str, Any]) -> int:
    """How many answers at ``obs``'s point the knob ``values`` change, every seat's legal
    actions together: the smaller, the more specific the explanation."""
    base = replay(obs, obs.variant)
    other_variant = flipped(obs.variant, values)
    other = None if other_variant is None else replay(obs, other_variant)
    if base is None or other is None:
        return 1 << 20
    a = {str(x) for x in base.legal_actions()}
    b = {str(x) for x in other.legal_actions()}
    return len(a ^ b)


def _candidates(found: Judged) -> list[dict[str, Any]]:
    """The knob values that make the edition agree with the engine at ``found``: one knob
    at a time, then pairs of the knobs the kernel's trace names there."""
    obs = found.observation
    singles = [{p: v} for p, v in alternatives(obs.variant) if _ok_under(obs, {p: v})]
    if singles:
        return singles
    traced = [r for r in found.rules if r in KNOB_PATHS and r not in UNFLIPPED]
    alts = [(p, v) for p, v in alternatives(obs.variant) if p in traced]
    pairs = []
    for i, (p, v) in enumerate(alts):
        for q, w in alts[i + 1 :]:
            if p != q and _ok_under(obs, {p: v, q: w}):
                pairs.append({p: v, q: w})
    return pairs


def _root_for(found: Judged, differences: Sequence[Judged], passing: Sequence[Judged]) -> Root:
    sample = _spread(passing, SAMPLE)
    best: tuple[tuple[int, int, int, int], dict[str, Any]] | None = None
    for order, cand in enumerate(_candidates(found)):
        if any(_ok_under(p.observation, cand) is False for p in sample):
            continue  # it would spoil a point where the engine agrees with the edition
        explained = sum(1 for d in differences if _ok_under(d.observation, cand))
        traced = min((found.rules.index(p) for p in cand if p in found.rules), default=99)
        score = (-explained, _changed_answers(found.observation, cand), traced, order)
        if best is None or score < best[0]:
            best = (score, cand)
    variant = found.observation.variant
    if best is None:
        return Root(found.rule, {}, {}, [found], signature(found))
    knob = best[1]
    rule = min(knob, key=lambda p: (found.rules.index(p) if p in found.rules else 99, p))
    return Root(rule, knob, {p: variant[p] for p in knob}, [found], signature(found))


def diagnose(
    differences: Sequence[Judged], passing: Iterable[Judged], known: Sequence[Root] = ()
) -> list[Root]:
    """The root causes of a run's ``differences`` (in the order met), held against its
    agreeing points ``passing``; ``known`` roots (a witness's, re-run) are tried first,
    and kept only where they explain a difference."""
    agreed = list(passing)
    roots: list[Root] = [Root(r.rule, dict(r.knob), dict(r.edition)) for r in known]
    for found in differences:
        for root in roots:
            if root.explains(found):
                root.differences.append(found)
                break
        else:
            roots.append(_root_for(found, differences, agreed))
    return [r for r in roots if r.differences]
