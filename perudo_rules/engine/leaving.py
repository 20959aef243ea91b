"""A seat leaves the game (``play.leave``, ``leave.round``, ``leave.next_starts``): how
the round in play stands after it, decided once for the step API, and the leaves of a round
that went on (:class:`Departures`, :func:`with_leaves`).

A kernel module (:mod:`perudo_rules.engine.kernel` maps the rule ids to it): it reads the
round's :class:`~perudo_rules.engine.kernel.RoundRules` and answers with a
:class:`~perudo_rules.engine.settlement.Settlement` or the rules of the rest of the round.
"""

from __future__ import annotations

from typing import NamedTuple

from perudo_rules.base.actions import Action, Bid, Leave
from perudo_rules.engine.kernel import RoundRules
from perudo_rules.engine.seats import next_seat
from perudo_rules.engine.settlement import Settlement

__all__ = ["Departures", "leave", "with_leaves", "without"]


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
    if (
        rules.palifico_enabled
        and heads_up
        and rules.palifico_trigger == "starts_with_one"
        and new_counts[starter] == 1
        and not (rules.palifico_once_per_player and starter in used)
    ):
        return Settlement(new_counts, seat, None, None, starter, True, used | {starter})
    return Settlement(new_counts, seat, None, None, starter, False, used)

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
