"""Which rules decided how a round ended: a resolved Dudo or Calza, cited.

The kernel's decision trace (:meth:`Game.outcome_decision
<perudo_rules.engine.game.Game.outcome_decision>`, the one the conformance diagnosis reads)
names, for each field of a call's outcome, the rules that decided it. :func:`decided_by`
keeps the fields that say something about this round (who lost or gained dice; who is out
only when a seat is; the winner only when there is one; who opens next; whether the next
round is palifico when it is, or when a rule kept it from being one) and cites each deciding
rule once, in that order, in the edition (:func:`~perudo_rules.editions.corerules.cite`:
statement, rulebook section and the rulebook's words). ``check``, the referee and the
terminal game print these citations under an outcome; their JSON carries them as
``decided_by``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from perudo_rules.base.actions import Calza, Dudo
from perudo_rules.editions.corerules import Citation, cite

if TYPE_CHECKING:
    from perudo_rules.editions.variant import Variant
    from perudo_rules.engine.game import Game

__all__ = ["citations_json", "decided_by"]

#: The palifico rules that decide something worth saying when they keep a round from being
#: a palifico round (a seat left with one die that had its palifico round, or two seats left).
_KEPT_FROM_PALIFICO = ("palifico.once_per_player", "palifico.heads_up")


def decided_by(
    before: Game, call: Dudo | Calza, variant: Variant | None = None
) -> tuple[Citation, ...]:
    """The citations of the rules that decided the outcome of ``call`` (legal in ``before``;
    else :class:`~perudo_rules.base.errors.IllegalAction`) in ``variant`` (default: the
    game's own), the deciding rule of each field once, in ruling order: the dice won or lost,
    who is out, the winner, who opens next, whether the next round is palifico."""
    decided = before.outcome_decision(call)
    after = before.apply(call)
    result = after.last_result
    assert result is not None
    rules = [
        *decided.get("delta", ())[:1],
        *(
            decided.get("eliminated", ())[:1]
            if after.dice_counts.count(0) > before.dice_counts.count(0)
            else ()
        ),
        *(decided.get("winner", ())[:1] if after.winner is not None else ()),
        *decided.get("next", ())[:1],
    ]
    palifico = decided.get("palifico", ())[:1]
    if result.next_palifico or (palifico and palifico[0] in _KEPT_FROM_PALIFICO):
        rules += palifico
    edition = before.variant if variant is None else variant
    return tuple(cite(rule, edition) for rule in dict.fromkeys(rules))


def citations_json(citations: tuple[Citation, ...]) -> list[dict[str, Any]]:
    """The citations as JSON: each rule id, its statement (English), the rulebook section
    and the rulebook's words (``decided_by`` in every command's JSON)."""
    return [
        {"rule": c.rule, "statement": c.statement, "source": c.source, "quote": c.quote}
        for c in citations
    ]
