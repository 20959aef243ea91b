"""A seat leaves the game (``play.leave``, ``leave.round``, ``leave.next_starts``): how
the round in play stands after it, decided once for the step API, and the leaves of a round
that went on (:class:`Departures`, :func:`with_leaves`); a seat leaving between rounds, while
the table awaits the roll of the next one (:func:`between_verdict`, :func:`leave_between`).

A kernel module (:mod:`perudo_rules.engine.kernel` maps the rule ids to it): it reads the
round's :class:`~perudo_rules.engine.kernel.RoundRules` and answers with a
:class:`~perudo_rules.engine.settlement.Settlement` or the rules of the rest of the round.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from perudo_rules.base.actions import Action, Bid, Leave
from perudo_rules.base.messages import Refusal, given
from perudo_rules.editions.ruleset import Ruleset
from perudo_rules.engine.kernel import RoundRules
from perudo_rules.engine.rounds import RoundResult
from perudo_rules.engine.seats import next_seat
from perudo_rules.engine.settlement import Settlement, dice_lost
from perudo_rules.engine.trace import Trace

__all__ = [
    "Departures",
    "between_verdict",
    "departing",
    "leave",
    "leave_between",
    "leave_result",
    "with_leaves",
    "without",
]


def leave(rr: RoundRules, seat: int, to_move: int, opener: int) -> Settlement | None:
    """How the round stands when ``seat`` (holding dice) leaves the game with ``to_move``
    to move in a round ``opener`` opened (``play.leave``); ``None`` when the round goes
    on without it (``leave.round: continues``, two or more seats still holding dice:
    :func:`without` gives the rest of the round's rules).

    Otherwise the round ends with ``seat`` as its loser (its dice leave the game): won
    by the one seat left holding dice, or called off (``leave.round: void``) and rolled
    again, opened by the seat ``leave.next_starts`` names (the next seat with dice if
    it left: ``play.next_seat``). A palifico round called off is played again by its
    palifico player while it holds dice (``palifico.heads_up`` permitting); else the
    new round is palifico only under ``palifico.trigger: starts_with_one``, for an
    opener holding one die (``palifico.once_per_player``): nobody lost a die."""
    rules = rr.rules
    counts = list(rr.counts)
    counts[seat] = 0
    new_counts = tuple(counts)
    used = rr.used
    alive = [s for s, c in enumerate(new_counts) if c]
    if len(alive) == 1:  # the last seat holding dice wins (end.condition)
        return Settlement(new_counts, seat, None, alive[0], None, False, used)
    if rules.leave_round == "continues":
        return None
    who = rules.leave_next_starts
    starter = opener if who == "round_opener" else to_move if who == "player_to_move" else seat
    if new_counts[starter] == 0:  # play.next_seat: the seat that left passes it on
        starter = next_seat(new_counts, rr.direction, starter)
    heads_up = rules.palifico_heads_up or len(alive) > 2
    owner = rr.palifico_player
    if rr.palifico and owner is not None and new_counts[owner] and heads_up:
        return Settlement(new_counts, seat, None, None, owner, True, used)
    if _opens_palifico(rules, new_counts, starter, used, heads_up):
        return Settlement(new_counts, seat, None, None, starter, True, used | {starter})
    return Settlement(new_counts, seat, None, None, starter, False, used)


def _opens_palifico(
    rules: Ruleset, counts: tuple[int, ...], starter: int, used: frozenset[int], heads_up: bool
) -> bool:
    """Whether the round after a leave is a palifico round of its opener: only where
    ``palifico.trigger`` is ``starts_with_one`` (a round opened by a seat holding one die),
    as the kernel's palifico rules would make any such round."""
    return (
        rules.palifico_enabled
        and heads_up
        and rules.palifico_trigger == "starts_with_one"
        and counts[starter] == 1
        and not (rules.palifico_once_per_player and starter in used)
    )


def between_verdict(
    counts: tuple[int, ...], action: object, trace: Trace | None = None
) -> Refusal | None:
    """Whether ``action`` is legal between rounds, the table awaiting the roll of the next
    one (dice ``counts`` per seat): a :class:`~perudo_rules.base.actions.Leave` of a seat
    with dice (``play.leave``: between rounds too), nothing else (``play.roll``: the dice
    are rolled first). ``None`` or the :class:`~perudo_rules.base.messages.Refusal`; a
    ``trace`` notes the rules read and the one that allows a leave."""
    if type(action) is not Leave:
        return Refusal("play.roll", "round-over", {})
    # as given: the fields of the object, not of the Leave the check above narrowed it to
    # (compiled code reads a Leave's player as an int: True as 1, a float a TypeError)
    fields: Any = action
    p = fields.player
    if trace is not None:  # play.seat: a seat with dice
        trace.read("play.seat")
    if type(p) is not int or not 0 <= p < len(counts) or not counts[p]:
        return Refusal("play.seat", "seat-without-dice", {"seat": given(p)})
    if trace is not None:
        trace.decide("play.leave")
    return None


def leave_between(rr: RoundRules, seat: int, due: int) -> tuple[Settlement, RoundResult]:
    """How the table stands when ``seat`` (holding dice) leaves between rounds (``play.leave``),
    ``rr`` the rules of the round about to be rolled (its dice counts, whether it is palifico
    and whose), due to be opened by ``due``.

    Its dice leave the game with it; the round about to be rolled is rolled without it,
    no other seat losing or gaining a die. The last seat holding dice wins (``end.condition``).
    Otherwise ``due`` opens it, or, if ``due`` left, the next seat with dice after it
    (``play.next_seat``: every value of ``leave.next_starts`` names that seat here, no round
    being called off). A palifico round of another seat stays palifico while
    ``palifico.heads_up`` permits it (else it is rolled as a plain round, opened by the same
    seat); the leaver's own palifico round is gone with it: the round is palifico only as
    a called-off round's would be (``palifico.trigger: starts_with_one``, for an opener
    holding one die, ``palifico.once_per_player``). With the settlement, the leave's
    :class:`~perudo_rules.engine.rounds.RoundResult` (kind ``"leave"``, no bid, no cup, no
    caller: the seat is its ``loser``)."""
    counts = rr.counts
    s = _between(rr.rules, counts, seat, due, rr.palifico, rr.palifico_player, rr.used)
    lost = tuple([c - n for c, n in zip(counts, s.counts, strict=True)])
    # no round in play, no caller: the seat is the loser (RoundResult)
    res = RoundResult("leave", None, 0, seat, None, (), (), s.next_player, None,
                      s.next_palifico, lost)  # fmt: skip
    return s, res


def _between(
    rules: Ruleset,
    counts: tuple[int, ...],
    seat: int,
    due: int,
    palifico: bool,
    owner: int | None,
    used: frozenset[int],
) -> Settlement:
    left = list(counts)
    left[seat] = 0
    new_counts = tuple(left)
    alive = [s for s, c in enumerate(new_counts) if c]
    if len(alive) == 1:  # the last seat holding dice wins (end.condition)
        return Settlement(new_counts, seat, None, alive[0], None, False, used)
    starter = due if new_counts[due] else next_seat(new_counts, rules.direction, due)
    heads_up = rules.palifico_heads_up or len(alive) > 2
    if palifico and owner is not None and owner != seat:  # another seat's palifico round
        return Settlement(new_counts, seat, None, None, owner, heads_up, used)
    if starter == due and not palifico:  # the opener stays, and the round stays plain
        return Settlement(new_counts, seat, None, None, starter, False, used)
    if _opens_palifico(rules, new_counts, starter, used, heads_up):
        return Settlement(new_counts, seat, None, None, starter, True, used | {starter})
    return Settlement(new_counts, seat, None, None, starter, False, used)


def leave_result(rr: RoundRules, s: Settlement, seat: int, bid: Bid | None) -> RoundResult:
    """The result of a round that ``seat``'s leave ended as ``s`` says, ``bid`` standing (kind
    ``"leave"``: no cup is lifted, the seat's dice are lost)."""
    lost = dice_lost(rr, s.counts, seat)
    return RoundResult("leave", bid, 0, seat, None, (), (), s.next_player, seat,
                       s.next_palifico, lost)  # fmt: skip


def without(rr: RoundRules, seat: int) -> RoundRules:
    """The rules of the rest of this round once ``seat`` has left it (``leave.round:
    continues``): the seats that still hold dice, their order, who may call, with the
    round's own bid table (the quantity cap of the round's start, ``bidding.quantity_cap``)."""
    counts = list(rr.counts)
    counts[seat] = 0
    return RoundRules(
        rr.rules,
        tuple(counts),
        rr.palifico,
        rr.first_round,
        rr.palifico_player,
        rr.used,
        rr.table,
    )


class Departures(NamedTuple):
    """The seats that left a round that went on (``leave.round: continues``): the cups as
    dealt, and each leave as (the number of bids made before it, the seat)."""

    dealt: tuple[tuple[int, ...], ...]
    leaves: tuple[tuple[int, int], ...]


def departing(gone: Departures | None, dealt: tuple[tuple[int, ...], ...], bids: int,
              seat: int) -> Departures:  # fmt: skip
    """The seats that left a round that goes on, ``gone`` (``None``: none yet; the cups
    ``dealt``) and ``seat``, which leaves it after ``bids`` bids."""
    if gone is None:
        return Departures(dealt, ((bids, seat),))
    return Departures(gone.dealt, (*gone.leaves, (bids, seat)))


def with_leaves(bids: tuple[Bid, ...], gone: Departures | None) -> tuple[Action, ...]:
    """A round's ``bids`` with the leaves of ``gone`` among them, in order (its re-rolls are
    put among them by :func:`perudo_rules.engine.reroll.round_steps`)."""
    if gone is None:
        return bids
    out: list[Action] = []
    done = 0
    for before, seat in gone.leaves:
        out += [*bids[done:before], Leave(seat)]
        done = before
    return (*out, *bids[done:])
