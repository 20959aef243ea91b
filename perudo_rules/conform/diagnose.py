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

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from perudo_rules.conform.flips import UNFLIPPED, alternatives, flipped
from perudo_rules.conform.observe import FIELD_ORDER, Judged, Point, judge, reach
from perudo_rules.conform.probes import Probe, distinguishing
from perudo_rules.editions.knobs import KNOB_PATHS
from perudo_rules.editions.variant import Variant

__all__ = ["COUNT", "Ask", "Root", "diagnose", "difference_kind"]

#: Agreeing points a candidate knob value is held against (evenly spread over the run).
SAMPLE = 240


#: Runs a probe against the engine under an edition (the run's, or a scenario's) and returns
#: its points judged under it (the
#: diagnosis asks the engine where two explanations part).
Ask = Callable[[Probe, Variant], list[Judged]]
#: A scope of a knob value: ``""`` everywhere, ``"count"`` only where a called round is
#: counted (the engine counts as if no face were wild, and bids as the edition does).
COUNT = "count"


@dataclass
class Root:
    """One root cause: ``rule`` (a rule id); ``knob`` the knob values the engine plays
    where the edition says ``edition`` (empty when no knob value explains it), in
    ``scope`` (``"count"``: only in the count, which makes the rule ``play.count``); the
    differences it explains, the first of them the one reported."""

    rule: str
    knob: dict[str, Any]
    edition: dict[str, Any]
    differences: list[Judged] = field(default_factory=list)
    signature: tuple[str, ...] = ()
    scope: str = ""

    @property
    def first(self) -> Judged:
        """The first difference this root explains."""
        return self.differences[0]

    def explains(self, found: Judged) -> bool:
        """Whether the engine's answer at ``found`` follows from this root."""
        if not self.knob:
            if not self.signature:  # a root named beforehand (a witness's): by its rule
                return found.rule == self.rule
            return difference_kind(found) == self.signature
        ok = _ok_under(found.observation, self.knob, self.scope)
        if ok is None:  # the values cannot be tried there: the same kind of difference
            return difference_kind(found) == self.signature
        return ok


def difference_kind(found: Judged) -> tuple[str, ...]:
    """What kind of difference ``found`` is, beyond its rule: the engine allows what the
    rule refuses (lists it or takes it), refuses what it allows (leaves it out or refuses
    it), or the outcome field that differs first."""
    obs = found.observation
    if obs.kind == "legal" or (obs.kind == "end" and obs.action is None):
        detail = found.detail.text("en")
        how = (
            "allows"
            if "the engine lists" in detail and "does not list" not in detail
            else ("refuses")
        )
    elif obs.kind in ("act", "end"):
        how = "allows" if obs.engine or obs.kind == "end" else "refuses"
    else:
        got, want = obs.engine, found.reference
        fields = FIELD_ORDER if isinstance(got, dict) and isinstance(want, dict) else ()
        how = next((f for f in fields if got.get(f) != want.get(f)), "no outcome")
    return (found.rule, how)


def _ok_under(obs: Point, values: Mapping[str, Any], scope: str = "") -> bool | None:
    """Whether the edition with ``values`` (in ``scope``) answers at ``obs`` as the engine
    did; ``None`` when it cannot be built or does not reach the point."""
    if scope == COUNT and obs.kind != "outcome":
        again = judge(obs)
        return None if again is None else again.ok
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


def _changed_answers(obs: Point, values: Mapping[str, Any]) -> int:
    """How many answers at ``obs``'s point the knob ``values`` change, every seat's legal
    actions together: the smaller, the more specific the explanation."""
    base = reach(obs, obs.variant)
    other_variant = flipped(obs.variant, values)
    other = None if other_variant is None else reach(obs, other_variant)
    if base is None or other is None:
        return 1 << 20
    a = {str(x) for x in base.legal_actions()}
    b = {str(x) for x in other.legal_actions()}
    return len(a ^ b)


Candidate = tuple[dict[str, Any], str]


def _candidates(found: Judged) -> list[Candidate]:
    """The knob values that make the edition agree with the engine at ``found``: one knob
    at a time, then the count without wilds, then pairs of the knobs the kernel's trace
    names there."""
    obs = found.observation
    singles: list[Candidate] = [
        ({p: v}, "") for p, v in alternatives(obs.variant) if _ok_under(obs, {p: v})
    ]
    wilds = obs.kind == "outcome" and obs.variant.rules.wild is not None
    if wilds and _ok_under(obs, {"wild.face": None}, COUNT):
        singles.append(({"wild.face": None}, COUNT))
    if singles:
        return singles
    traced = [r for r in found.rules if r in KNOB_PATHS and r not in UNFLIPPED]
    alts = [(p, v) for p, v in alternatives(obs.variant) if p in traced]
    pairs: list[Candidate] = []
    for i, (p, v) in enumerate(alts):
        for q, w in alts[i + 1 :]:
            if p != q and _ok_under(obs, {p: v, q: w}):
                pairs.append(({p: v, q: w}, ""))
    return pairs


def _exact(obs: Point) -> bool:
    """Whether the call at ``obs`` meets a bid that is exactly right."""
    game = reach(obs, obs.variant)
    if game is None or obs.action is None or game.violation(obs.action) is not None:
        return False
    result = game.apply(obs.action).last_result
    return result is not None and result.bid is not None and result.count == result.bid.quantity


def _distance(variant: Variant, values: Mapping[str, Any]) -> int:
    """How far integer knob values lie from the edition's (the nearer, the likelier)."""
    return sum(
        abs(v - variant[p]) for p, v in values.items() if type(v) is int and type(variant[p]) is int
    )


def _discriminate(found: Judged, tied: list[Candidate], ask: Ask) -> list[Candidate]:
    """Of explanations that fit the run alike, those that fit the engine's answers at
    points built where they part (each asked of the engine)."""
    base = found.observation.variant
    survivors = list(tied)
    for other in tied[1:]:
        if len(survivors) < 2 or other not in survivors:
            continue
        first = survivors[0] if survivors[0] is not other else survivors[1]
        if first[1] or other[1]:
            continue  # a scoped explanation has no edition to walk
        a, b = flipped(base, first[0]), flipped(base, other[0])
        if a is None or b is None:
            continue
        probe = distinguishing(a, b)
        if probe is None:
            continue
        seen = ask(probe, base)
        survivors = [
            c for c in survivors
            if all(_ok_under(j.observation, c[0], c[1]) is not False for j in seen)
        ]  # fmt: skip
    return survivors or tied


def _root_for(
    found: Judged, differences: Sequence[Judged], passing: Sequence[Judged], ask: Ask | None
) -> Root:
    sample = _spread(passing, SAMPLE)
    variant = found.observation.variant
    scored: list[tuple[tuple[int, ...], Candidate]] = []
    for order, cand in enumerate(_candidates(found)):
        values, scope = cand
        if any(_ok_under(p.observation, values, scope) is False for p in sample):
            continue  # it would spoil a point where the engine agrees with the edition
        fits = [d for d in differences if _ok_under(d.observation, values, scope)]
        if scope == COUNT and all(_exact(d.observation) for d in fits):
            continue  # only exact counts: the exact-count rule as much as the count
        explained = len(fits)
        traced = min((found.rules.index(p) for p in values if p in found.rules), default=99)
        changed = _changed_answers(found.observation, values) if not scope else 1 << 19
        score = (-explained, changed, _distance(variant, values), traced, order)
        scored.append((score, cand))
    if not scored:
        return Root(found.rule, {}, {}, [found], difference_kind(found))
    scored.sort(key=lambda x: x[0])
    best = [c for sc, c in scored if sc[0] == scored[0][0][0]]
    if ask is not None and len(best) > 1:
        best = _discriminate(found, best, ask)
    values, scope = best[0]
    if scope == COUNT:
        return Root("play.count", dict(values), {p: variant[p] for p in values}, [found],
                    difference_kind(found), scope)  # fmt: skip
    rule = min(values, key=lambda p: (found.rules.index(p) if p in found.rules else 99, p))
    says = {p: variant[p] for p in values}
    return Root(rule, dict(values), says, [found], difference_kind(found))


def diagnose(
    differences: Sequence[Judged],
    passing: Iterable[Judged],
    known: Sequence[Root] = (),
    ask: Ask | None = None,
) -> list[Root]:
    """The root causes of a run's ``differences`` (in the order met), held against its
    agreeing points ``passing``; ``known`` roots (a witness's, re-run) are tried first,
    and kept only where they explain a difference; ``ask`` sends the engine points that
    tell apart explanations the run fits alike."""
    agreed = list(passing)
    roots: list[Root] = [Root(r.rule, dict(r.knob), dict(r.edition), scope=r.scope)
                         for r in known]  # fmt: skip
    for found in differences:
        for root in roots:
            if root.explains(found):
                root.differences.append(found)
                break
        else:
            roots.append(_root_for(found, differences, agreed, ask))
    return [r for r in roots if r.differences]
