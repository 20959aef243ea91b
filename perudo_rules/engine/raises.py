"""How a raise compares with the standing bid (``bidding.order``, ``bidding.wild_worth``,
``bidding.wild_rank``) once the round's bid table has ranked both: why a bid that does not
raise is refused, and, for a decision trace, which rule allows one that does.

A kernel module: :meth:`RoundRules.bid_verdict
<perudo_rules.engine.kernel.RoundRules.bid_verdict>` asks it after the bans (the wild face,
the palifico face lock) let a bid through. Plain typed Python, like the kernel.
"""

from __future__ import annotations

from perudo_rules.base.actions import Bid
from perudo_rules.base.messages import Refusal
from perudo_rules.editions.ruleset import Ruleset
from perudo_rules.engine.ranks import BidSpace
from perudo_rules.engine.trace import Trace

__all__ = ["converts", "note_raise", "order_refusal", "partial_refusal"]


def converts(table: BidSpace, rules: Ruleset, standing: int, face: int) -> bool:
    """Whether a raise of ``face`` over a bid of face ``standing`` converts between the
    round's wild face and another under ``bidding.wild_worth`` (a ladder of its own)."""
    wild = table.wild
    k = rules.bidding_wild_worth
    return (
        (face == wild) != (standing == wild)
        and rules.bidding_order == "quantity_then_face"
        # with worth 1 a wild on the highest (lowest) face ranks just above (below) the
        # same quantity of the others, as that face: plain order
        and not (k == 1 and wild == (1 if table.wild_below else table.faces))
    )


def order_refusal(table: BidSpace, rules: Ruleset, current: Bid, q: int, f: int) -> Refusal:
    """The refusal of the bid (``q``, ``f``), ranked no higher than ``current`` in a
    total order: the conversion it falls short of (``bidding.wild_worth``), else
    ``bidding.order``."""
    if converts(table, rules, current.face, f):
        k = rules.bidding_wild_worth
        below = table.wild_below
        cq = current.quantity
        if f == table.wild:
            need = cq // k + 1 if below else -(-cq // k)
            code = "wild-bid-needs"
        else:
            need = k * cq if below else k * cq + 1
            code = "ordinary-bid-needs"
        return Refusal(
            "bidding.wild_worth",
            code,
            {"standing_quantity": cq, "standing_face": current.face, "need": need},
        )
    return Refusal("bidding.order", "not-a-raise", _against(q, f, current))


def partial_refusal(current: Bid, q: int, f: int) -> Refusal | None:
    """Whether the bid (``q``, ``f``) raises ``current`` under ``bidding.order:
    neither_decreases`` (a partial order: it lowers neither the quantity nor the face and
    changes one): ``None``, or the refusal."""
    cq, cf = current.quantity, current.face
    if q >= cq and f >= cf and (q != cq or f != cf):
        return None
    code = "lowers-quantity" if q < cq else ("lowers-face" if f < cf else "repeats-bid")
    return Refusal("bidding.order", code, _against(q, f, current))


def note_raise(
    table: BidSpace, rules: Ruleset, q: int, f: int, standing: int | None, trace: Trace
) -> None:
    """Note in ``trace`` the rule that allows the bid (``q``, ``f``) that got past the bans,
    over a bid of face ``standing`` (``None``: an opening bid), should the order not refuse
    it: a quantity beyond the dice in play (``bidding.quantity_cap: none``), else the
    opening bid's range (``play.bid_range``) or the order of the raise
    (``bidding.wild_worth`` where it converts, else ``bidding.order``)."""
    if q > table.dice and not table.capped:
        trace.decide("bidding.quantity_cap")
    if standing is None:
        trace.decide("play.bid_range")
        return
    trace.read("bidding.order")
    if converts(table, rules, standing, f):
        trace.decide("bidding.wild_worth")
        trace.read("bidding.wild_rank")
    else:
        trace.decide("bidding.order")


def _against(q: int, f: int, current: Bid) -> dict[str, int]:
    """The parameters of a refused raise: the bid and the standing bid it fails to raise."""
    return {
        "quantity": q,
        "face": f,
        "standing_quantity": current.quantity,
        "standing_face": current.face,
    }
