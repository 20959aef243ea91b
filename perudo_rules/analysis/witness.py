"""Divergence witnesses: for each rule two variants set differently, a smallest situation
where they disagree because of it, or the reason it makes no difference in play.

For every knob (rule id) ``k`` whose value differs between variants ``a`` and ``b``,
:func:`find_witness` does, in order:

1. **The proof of no difference** (:mod:`perudo_rules.analysis.witnessproof`). A knob one
   edition plays the same games with, whatever its value, cannot make a difference: the
   knob table (:mod:`perudo_rules.editions.knobs`) says the engine never reads it there
   (``read_when``, ``never_read``), or that the two values decide alike there
   (``alike``), or the knob decides only calls or bids (``decides``) and every call or
   bid the two editions share was tried. The witness is of kind ``"none"``, ``proved``,
   and says why, e.g. *calza.who differs, but bluff has calza.enabled: false, so in
   bluff nobody can call Calza*.
2. **The search** (:mod:`perudo_rules.analysis.witnesssearch`). The *hybrid* ``a`` with only
   ``k`` set to ``b``'s value differs from ``a`` only by ``k``: the search walks small
   positions, then larger tables (every seat count both editions allow), for situations
   where the two disagree, along steps both full editions allow; from ``b``'s side at
   the same time; new games are compared too.
3. **The confirmation.** Each situation is replayed in both full editions. It is
   *confirmed* when they disagree there and ``k`` is the cause: ``a`` with ``k`` set to
   ``b``'s value plays there as ``b`` does, and ``b`` with ``a``'s as ``a`` does, on the
   points ``k`` changes (where one of these counterfactual editions cannot be built, the
   other must agree on every point). Where another differing rule stands in the way
   (Bluff has no Calza *and* would let only the player to move call it), the two are set
   back together, and the other rule alone must not do it (``Witness.together`` names
   it); that is tried once ``k`` alone has failed everywhere. The first confirmed
   situation is the witness. For a knob that decides only bids, every bidding situation
   the editions share is tried last; if none is confirmed there either, that is the
   proof.

If nothing is confirmed, the first divergence of a hybrid pair is reported unconfirmed
with a note, and a knob for which nothing diverges at all gets a witness of kind
``"none"`` saying what was searched. Everything is deterministic: same variants, same
witnesses. The situations and how each is played are :mod:`perudo_rules.analysis.divergence`.

A witness says no sentence until it is shown: its outcomes and notes are
:class:`~perudo_rules.base.texts.Text` values, said in the language of the context when
shown, so a search serves every language and its result may be kept (the
:class:`~perudo_rules.analysis.witnessvalue.Witness` and its JSON).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from perudo_rules.analysis.divergence import (
    Situation,
    SituationGames,
    differing,
    outcome_texts,
    signature,
)
from perudo_rules.analysis.witnessproof import no_difference_reason
from perudo_rules.analysis.witnesssearch import (
    SearchLimits,
    exhaustive,
    search_exhaustive,
    search_play,
    search_setup,
    shared_seats,
)
from perudo_rules.analysis.witnessvalue import Witness
from perudo_rules.base.i18n import tr
from perudo_rules.base.texts import Text, plain, tx
from perudo_rules.editions.knobs import knob_spec
from perudo_rules.editions.variant import Variant, differing_knobs

__all__ = ["find_witness", "find_witnesses"]

Progress = Callable[[str], None]


# --- the confirmation ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Question:
    """What a witness is sought for: variants ``a`` and ``b`` (labelled ``ids``), the
    differing ``rule`` and the other rules that differ (``others``)."""

    a: Variant
    b: Variant
    rule: str
    ids: tuple[str, str]
    others: tuple[str, ...]
    variants: SituationGames

    def witness(
        self,
        kind: str,
        cand: Situation | None,
        outcomes: tuple[Text, Text] | None,
        confirmed: bool,
        note: Text | None = None,
        together: tuple[str, ...] = (),
        proved: bool = False,
    ) -> Witness:
        """A :class:`Witness` for this question (``outcomes``: one text per variant)."""
        ids = self.ids
        return Witness(
            self.rule,
            {ids[0]: self.a[self.rule], ids[1]: self.b[self.rule]},
            ids,
            kind,
            None if cand is None else cand.start,
            () if cand is None else cand.actions,
            None if cand is None else cand.action,
            {} if outcomes is None else {ids[0]: outcomes[0], ids[1]: outcomes[1]},
            confirmed,
            note=note,
            together=together,
            proved=proved,
        )


def _agrees(sig: Mapping[str, Any], target: Mapping[str, Any], points: set[str]) -> bool:
    return all(sig.get(k) == target.get(k) for k in points)


def _partners(q: _Question, sigs: list[dict[str, Any] | None]) -> list[str]:
    """The other differing rules to try setting back together with the rule: first those
    that refused the action in the counterfactuals (the engine names them)."""
    named = [sig.get("rule") for sig in sigs if sig]
    first = [r for r in q.others if r in named]
    return first + [r for r in q.others if r not in first]


def _cause(
    q: _Question, cand: Situation, sides: tuple[dict[str, Any], dict[str, Any]], couple: bool
) -> tuple[str, ...] | None:
    """How the rule causes the divergence of the full editions at ``cand`` (their
    signatures ``sides``): ``()`` when it alone does, ``(partner,)`` when it does with
    one other differing rule (only with ``couple``), ``None`` if not.

    A set of rules causes the divergence when setting them to the other edition's values
    turns each edition into the other on the points where they disagree that those rules
    change: ``a`` with them set to ``b``'s values agrees there with ``b``, and ``b`` with
    them set to ``a``'s with ``a``. Where one of the two counterfactual editions cannot
    be built (the loader refuses the combination), the other must agree on every point
    of the disagreement; a partner must not be what makes a counterfactual impossible
    (only a side the rule alone cannot build may stay unbuilt). With a partner, the
    partner alone must not do it."""
    points = differing(*sides)
    if not points:
        return None
    sigs: list[dict[str, Any] | None] = []
    rule = frozenset({q.rule})

    def turns(rules: frozenset[str]) -> bool:
        flipped = []
        for i in (0, 1):
            side, other = (q.a, q.b)[i], (q.a, q.b)[1 - i]
            made = q.variants.set_back(side, other, rules)
            sig = q.variants.signature(made, cand)
            if len(rules) == 1:
                sigs.append(sig)
            if made is not None and sig is None:
                return False  # the counterfactual refuses a step: no comparison here
            flipped.append(sig)
        fa, fb = flipped
        if fa is None and fb is None:
            return False
        if fa is None or fb is None:  # one counterfactual only
            gone = 0 if fa is None else 1
            alone = q.variants.set_back((q.a, q.b)[gone], (q.a, q.b)[1 - gone], rule)
            if len(rules) > 1 and alone is not None:
                return False  # a partner must not just make the other one impossible
            if fa is None:
                return fb is not None and _agrees(fb, sides[0], points)
            return _agrees(fa, sides[1], points)
        changed = points & (differing(fa, sides[0]) | differing(fb, sides[1]))
        return bool(changed) and _agrees(fa, sides[1], changed) and _agrees(fb, sides[0], changed)

    if turns(rule):
        return ()
    if not couple:
        return None
    for partner in _partners(q, sigs):
        if turns(rule | {partner}) and not turns(frozenset({partner})):
            return (partner,)
    return None


def _together_note(q: _Question, partners: tuple[str, ...]) -> Text | None:
    if not partners:
        return None
    (a, b), also = q.ids, ", ".join(partners)
    return tx(
        "confirmed together with {also}: with {rule} and {also} set to the other's values, "
        "{a} plays here as {b} does and {b} as {a} does; with only {also} set, not both do",
        also=also,
        rule=q.rule,
        a=a,
        b=b,
    )


def _confirmed(q: _Question, cand: Situation, couple: bool = False) -> tuple[Witness | None, bool]:
    """The confirmed witness at ``cand`` (or ``None``), if the full editions disagree there
    because of the rule (:func:`_cause`; with ``couple``, together with one partner), and
    whether they disagree there at all."""
    ga = q.variants.game(q.a, cand.start, cand.actions)
    gb = q.variants.game(q.b, cand.start, cand.actions)
    if ga is None or gb is None:
        return None, False
    sides = (signature(cand.kind, ga, cand.action), signature(cand.kind, gb, cand.action))
    if not differing(*sides):
        return None, False
    partners = _cause(q, cand, sides, couple)
    if partners is None:
        return None, True
    kind, oa, ob = outcome_texts(cand.kind, ga, gb, cand.action)
    note = _together_note(q, partners)
    return q.witness(kind, cand, (oa, ob), True, note=note, together=partners), True


# --- the search, both ways -------------------------------------------------------------------


def _masked_note(ids: tuple[str, str], rule: str, flipped: bool) -> Text:
    a, b = ids
    if flipped:
        return tx(
            "in every position searched, other differing rules change or mask this "
            "divergence; the outcomes shown compare {b} with only {rule} set to {a}'s value, "
            "and {b}",
            a=a,
            b=b,
            rule=rule,
        )
    return tx(
        "in every position searched, other differing rules change or mask this divergence; "
        "the outcomes shown compare {a}, and {a} with only {rule} set to {b}'s value",
        a=a,
        b=b,
        rule=rule,
    )


def _candidates(
    q: _Question,
    base: Variant,
    hyb: Variant,
    other: Variant,
    limits: SearchLimits,
    counter: list[int],
    phase: int,
) -> Iterator[Situation]:
    """Phase 0: the small and large positions, then new games; phase 1: the small
    positions rolling on into a second round."""
    setup = knob_spec(q.rule).decides == "setup"  # explicit positions never read it
    if phase == 1:
        if not setup:
            yield from search_play(base, hyb, other, limits, counter, stages=(2,))
        return
    if not setup:
        yield from search_play(base, hyb, other, limits, counter, stages=(0, 1))
    setup_seats = range(
        min(q.a.rules.players_min, q.b.rules.players_min),
        min(max(q.a.rules.players_max, q.b.rules.players_max), limits.setup_seats) + 1,
    )
    yield from search_setup(base, hyb, limits, setup_seats)


def _search(
    q: _Question, limits: SearchLimits, diverging: list[Situation], phase: int
) -> tuple[Witness | None, Witness | None, int]:
    """Search both ways at once, a situation from each in turn: ``a`` against ``a`` with
    the rule set to ``b``'s value, and ``b`` against ``b`` with ``a``'s. Returns the first
    confirmed witness (or ``None``), the first divergence of a hybrid pair as an
    unconfirmed witness (or ``None``) and the game states searched; keeps in
    ``diverging`` the first situations (``limits.coupled``) where the full editions
    disagree but the rule alone is not the cause, to try with a partner."""
    ways: list[tuple[bool, Variant, Variant, list[int], Iterator[Situation]]] = []
    for flipped in (False, True):
        base, other = (q.b, q.a) if flipped else (q.a, q.b)
        hyb = q.variants.set_back(base, other, frozenset({q.rule}))
        if hyb is not None:
            counter = [0]
            ways.append(
                (
                    flipped,
                    base,
                    hyb,
                    counter,
                    _candidates(q, base, hyb, other, limits, counter, phase),
                )
            )
    unconfirmed: Witness | None = None

    def searched() -> int:
        return sum(way[3][0] for way in ways)

    live = list(ways)
    while live:
        for way in list(live):
            flipped, base, hyb, _, found = way
            cand = next(found, None)
            if cand is None:
                live.remove(way)
                continue
            confirmed, disagree = _confirmed(q, cand)
            if confirmed is not None:
                return confirmed, unconfirmed, searched()
            if disagree and len(diverging) < limits.coupled:
                diverging.append(cand)
            if unconfirmed is None:
                gx = q.variants.game(hyb if flipped else base, cand.start, cand.actions)
                gy = q.variants.game(base if flipped else hyb, cand.start, cand.actions)
                if gx is None or gy is None:  # pragma: no cover - the search takes legal steps
                    continue
                kind, ox, oy = outcome_texts(cand.kind, gx, gy, cand.action)
                note = _masked_note(q.ids, q.rule, flipped)
                unconfirmed = q.witness(kind, cand, (ox, oy), False, note=note)
    return None, unconfirmed, searched()


def _no_difference(q: _Question, searched: int, limits: SearchLimits) -> Witness:
    """The witness of kind ``"none"`` when nothing diverged in any searched position."""
    seats = shared_seats(q.a, q.b, limits)
    same = plain("no behavioural difference")
    span = f"{seats[0]}-{seats[-1]}" if seats else "0"
    return q.witness(
        "none",
        None,
        (same, same),
        False,
        note=tx(
            "no behavioural difference found: in {searched} game states searched ({span} "
            "seats, as both editions allow up to {most}; 1 to {dice} dice a seat and each "
            "seat's starting dice; {rounds} rounds) and in new games from up to {seeds} "
            "seeds, both values allow the same actions, resolve every round alike and start "
            "games alike",
            searched=searched,
            span=span,
            most=limits.max_seats,
            dice=limits.max_dice,
            rounds=limits.max_rounds,
            seeds=limits.setup_seeds,
        ),
    )


def _every_bid(q: _Question, limits: SearchLimits) -> Witness | None:
    """For a rule that decides only which bids are legal, every bidding situation both
    editions share, when they are few enough
    (:func:`~perudo_rules.analysis.witnesssearch.exhaustive`):
    the first confirmed witness there, or, when none is, the proof that the rule is not
    the cause of any disagreement; ``None`` when that does not apply."""
    plan = exhaustive("bids", q.a, q.b, limits) if knob_spec(q.rule).decides == "bids" else None
    if plan is None:
        return None
    counter = [0]
    ways = [(base, other, q.variants.set_back(base, other, frozenset({q.rule})))
            for base, other in ((q.a, q.b), (q.b, q.a))]  # fmt: skip
    if any(hyb is None for _, _, hyb in ways):
        return None  # a counterfactual edition cannot be built: no proof either
    for base, other, hyb in ways:
        assert hyb is not None
        for cand in search_exhaustive(base, hyb, other, plan, counter):
            confirmed, _ = _confirmed(q, cand, couple=True)
            if confirmed is not None:
                return dataclasses.replace(confirmed, searched=counter[0])
    same = plain("no difference in play")
    note = tx(
        "{rule} differs, but it decides only which bids are legal, and every bidding "
        "situation both editions share was tried ({coverage}): in none where the two "
        "disagree does setting {rule} to the other's value, alone or with one other "
        "differing rule, make them agree where that other rule alone does not",
        rule=q.rule,
        coverage=plan.coverage,
    )
    witness = q.witness("none", None, (same, same), False, note=note, proved=True)
    return dataclasses.replace(witness, searched=counter[0])


def find_witness(a: Variant, b: Variant, rule: str, limits: SearchLimits | None = None) -> Witness:
    """The witness for one differing knob ``rule`` (see :func:`find_witnesses`)."""
    limits = limits or SearchLimits()
    return _find(a, b, rule, limits, SituationGames(), tuple(differing_knobs(a, b)))


def _find(
    a: Variant,
    b: Variant,
    rule: str,
    limits: SearchLimits,
    variants: SituationGames,
    diff: tuple[str, ...],
) -> Witness:
    """The steps of the module docstring: the proof, the search both ways, the fallbacks."""
    ids = _labels(a, b)
    q = _Question(a, b, rule, ids, tuple(r for r in diff if r != rule), variants)
    same = plain("no difference in play")
    reason = no_difference_reason(a, b, rule, ids, limits, variants)
    if reason:
        return q.witness("none", None, (same, same), False, note=reason, proved=True)
    unconfirmed: Witness | None = None
    searched = 0
    for phase in (0, 1):
        diverging: list[Situation] = []
        confirmed, first, nodes = _search(q, limits, diverging, phase)
        searched += nodes
        unconfirmed = unconfirmed or first
        if confirmed is not None:
            return dataclasses.replace(confirmed, searched=searched)
        for cand in diverging:  # the rule alone is never the cause: with a partner?
            confirmed, _ = _confirmed(q, cand, couple=True)
            if confirmed is not None:
                return dataclasses.replace(confirmed, searched=searched)
    every = _every_bid(q, limits)
    if every is not None:
        return dataclasses.replace(every, searched=searched + every.searched)
    if unconfirmed is not None:
        return dataclasses.replace(unconfirmed, searched=searched)
    if variants.set_back(a, b, frozenset({rule})) is None and (
        variants.set_back(b, a, frozenset({rule})) is None
    ):
        return q.witness(
            "none",
            None,
            None,
            False,
            note=tx(
                "no divergence searched: setting this rule alone makes neither variant consistent"
            ),
        )
    return dataclasses.replace(_no_difference(q, searched, limits), searched=searched)


def _labels(a: Variant, b: Variant) -> tuple[str, str]:
    """The two variant ids, told apart when both files carry the same id."""
    if a.id != b.id:
        return a.id, b.id
    return f"{a.id}#1", f"{b.id}#2"


def find_witnesses(
    a: Variant,
    b: Variant,
    max_dice: int = 3,
    limits: SearchLimits | None = None,
    progress: Progress | None = None,
) -> list[Witness]:
    """One :class:`~perudo_rules.analysis.witnessvalue.Witness` per knob whose value differs
    between ``a`` and ``b``, in knob order.

    ``max_dice`` bounds the dice per seat in small searched positions (``limits``
    overrides every bound); ``progress`` receives a line per rule searched.
    Deterministic.
    """
    if limits is None:
        limits = SearchLimits(max_dice=max_dice)
    diff = tuple(differing_knobs(a, b))
    variants = SituationGames()
    out = []
    for i, path in enumerate(diff):
        if progress is not None:
            progress(tr("{a} vs {b}: {rule} ({n} of {total})", a=a.id, b=b.id, rule=path, n=i + 1,
                        total=len(diff)))  # fmt: skip
        out.append(_find(a, b, path, limits, variants, diff))
    return out
