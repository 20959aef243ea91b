"""The seats of a round: who plays after whom (``setup.direction``, ``play.next_seat``),
and the tables every round shares with the rounds in which the same seats hold dice.

A kernel module (:mod:`perudo_rules.engine.kernel` maps the rule ids to it, and its
:class:`~perudo_rules.engine.kernel.RoundRules` holds a round's :class:`Seats`). Plain
typed Python, like the kernel.
"""

from __future__ import annotations

from perudo_rules.base.actions import Action
from perudo_rules.editions.ruleset import Ruleset

__all__ = ["Seats", "next_seat", "seats_of"]


def next_seat(counts: tuple[int, ...], direction: int, seat: int) -> int:
    """The next seat after ``seat`` holding dice, ``direction`` (+1 or -1) at a time
    (``setup.direction``, ``play.next_seat``)."""
    n = len(counts)
    s = seat
    for _ in range(n):
        s = (s + direction) % n
        if counts[s]:
            return s
    raise ValueError("no seat holds dice")


class Seats:
    """What the rules of a round share with every round in which the same seats hold dice
    (the same ruleset, table size and round kind, whatever their counts): each seat's
    successor (``play.next_seat``) and how many seats hold dice, and the tables filled on
    first use by :meth:`RoundRules.calls <perudo_rules.engine.kernel.RoundRules.calls>` and
    :meth:`RoundRules.offers <perudo_rules.engine.kernel.RoundRules.offers>` (by player to
    move and bidder) and by the settlement (:mod:`perudo_rules.engine.settlement`: the order
    the cups are lifted in, by call and caller; the dice lost when one seat loses one).

    Every one of them is decided from those alone, so a round of a game with other counts
    reuses them (a game of many rounds lists its calls once per set of seats, not once a
    round)."""

    __slots__ = ("alive", "calls", "n_calls", "offers", "reveal_orders", "single_losses",
                 "successor")  # fmt: skip

    def __init__(self, rules: Ruleset, counts: tuple[int, ...], alive: int) -> None:
        direction = rules.direction
        # play.next_seat: each seat's successor with dice this round (the counts are fixed)
        self.successor = tuple([next_seat(counts, direction, s) for s in range(len(counts))])
        self.alive = alive
        self.n_calls = -1  # RoundRules counts them on first use
        self.calls: dict[tuple[int, int], tuple[Action, ...]] = {}
        self.offers: dict[tuple[int, int], tuple[int, ...]] = {}
        self.reveal_orders: dict[int, tuple[int, ...]] = {}
        self.single_losses: dict[int, tuple[int, ...]] = {}


# The shared tables of the rounds, by (ruleset, seats, the seats holding dice, palifico
# round); cleared when full.
_SEATS: dict[tuple[Ruleset, int, tuple[int, ...], bool], Seats] = {}
_SEATS_MAX = 4096


def seats_of(
    rules: Ruleset, counts: tuple[int, ...], alive: tuple[int, ...], palifico: bool
) -> Seats:
    """The shared :class:`Seats` of a round with dice ``counts`` (``alive``: the seats
    holding dice), made on first use and kept (a bounded table)."""
    key = (rules, len(counts), alive, palifico)
    seats = _SEATS.get(key)
    if seats is None:
        if len(_SEATS) >= _SEATS_MAX:
            _SEATS.clear()
        seats = _SEATS[key] = Seats(rules, counts, len(alive))
    return seats
