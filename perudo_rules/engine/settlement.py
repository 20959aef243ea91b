"""How a called round settles: which cups are lifted and what the table learns of them
(:func:`reveal`, :func:`shown_count`), then the new dice counts, who lost or gained a die,
the winner and who opens the next round (:func:`settle`, a :class:`Settlement`;
:func:`dice_lost` by seat), and what a finished game is worth to each seat
(:func:`returns`); with the bounds on dice that follow from an exact Calza
(:func:`calza_gain_limit`, :func:`most_dice_per_seat`, :func:`rounds_may_keep_dice`).

A kernel module (:mod:`perudo_rules.engine.kernel` maps the rule ids to it): each function
reads the round's :class:`~perudo_rules.engine.kernel.RoundRules`, fixed when the round
began, and decides the rules it names. Plain typed Python, like the kernel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from perudo_rules.base.actions import Bid
from perudo_rules.editions.ruleset import Ruleset
from perudo_rules.engine.kernel import RoundRules, count_matching
from perudo_rules.engine.seats import next_seat
from perudo_rules.engine.trace import OutcomeTrace

__all__ = [
    "Settlement",
    "calza_gain_limit",
    "dice_lost",
    "most_dice_per_seat",
    "returns",
    "reveal",
    "rounds_may_keep_dice",
    "settle",
    "shown_count",
]


class Settlement(NamedTuple):
    """How a called round settles: the new dice counts, who lost (the challenge or the
    Calza; under ``challenge.exact: others_lose`` more seats lose a die) or gained a die,
    the winner (or ``None``), who opens the next round (``None`` once the game is over),
    whether that round is palifico, and the seats that have had their palifico round."""

    counts: tuple[int, ...]
    loser: int | None
    gainer: int | None
    winner: int | None
    next_player: int | None
    next_palifico: bool
    used: frozenset[int]


# --- a called round ---------------------------------------------------------------------


def reveal(
    rr: RoundRules, dice: Sequence[tuple[int, ...]], caller: int, dudo: bool, bid: Bid
) -> tuple[int, ...]:
    """The seats whose cups are lifted, in order, when ``caller`` calls Dudo (``dudo``) or
    Calza against ``bid`` in a round of rules ``rr`` (``play.reveal``): after a Dudo from the
    seat after the caller, stopping once the bid is reached when
    ``challenge.early_stop``, or once the cups still down hold too few dice to reach it
    when ``challenge.stop_when_unreachable``; after a Calza from the caller, every cup.

    A reveal stops early only where the outcome needs nothing but whether the bid is
    reached: a Dudo costing one die of one seat. Under ``challenge.loss: difference``
    or ``challenge.exact: others_lose`` the settlement needs the true count, so every
    cup is lifted (else the dice lost would tell what the closed cups hold)."""
    counts = rr.counts
    key = caller if dudo else -1 - caller
    every = rr.reveal_orders.get(key)  # every cup with dice, in the order they are lifted
    if every is None:
        n = len(counts)
        direction = rr.direction
        start = caller + direction if dudo else caller
        order = [s for s in ((start + direction * i) % n for i in range(n)) if counts[s]]
        every = rr.reveal_orders[key] = tuple(order)
    rules = rr.rules
    reached = rules.challenge_early_stop
    unreachable = rules.challenge_stop_when_unreachable
    if dudo and rr.one_die and (reached or unreachable):
        running = 0
        down = sum(counts)
        for i, s in enumerate(every):
            running += count_matching((dice[s],), bid.face, rr.wild)
            down -= counts[s]
            if (reached and running >= bid.quantity) or (
                unreachable and running + down < bid.quantity
            ):
                return every[: i + 1]
    return every


def shown_count(rr: RoundRules, shown: Sequence[tuple[int, ...]], face: int) -> int:
    """The dice among the lifted cups ``shown`` that count as ``face``: the only count
    every seat learns at the reveal (``play.reveal``). When the reveal stops early
    (``challenge.early_stop``, ``challenge.stop_when_unreachable``) the closed cups stay
    secret, and this is all the outcome sentence, ``play`` and the observations tell;
    the true count of every die is the referee's (``RoundResult.count``)."""
    return count_matching(shown, face, rr.wild)


def settle(
    rr: RoundRules,
    dudo: bool,
    caller: int,
    bid: Bid,
    count: int,
    to_move: int,
    trace: OutcomeTrace | None = None,
) -> Settlement:
    """How a Dudo (``dudo=True``) or a Calza by ``caller`` against ``bid`` settles in a round
    of rules ``rr`` with ``to_move`` to move, given the true ``count``; the rules it decides
    are listed in the kernel's rule map (:mod:`perudo_rules.engine.kernel`). A ``trace``
    notes, for each field of the outcome, the rules read and the one that decided."""
    rules = rr.rules
    counts = list(rr.counts)
    loser: int | None = None
    gainer: int | None = None
    if dudo:  # play.dudo: the bid stands when at least its quantity shows
        loser = caller if count >= bid.quantity else bid.player
        challenge_winner = bid.player if loser == caller else caller
        if trace is not None:  # an exact count: the exact rule decides, then the Dudo's
            trace.delta.overrule("challenge.exact" if count == bid.quantity else "play.dudo")
            trace.delta.read("play.dudo")
            trace.delta.read("challenge.loss")
        if rr.one_die:
            if counts[loser]:  # a bidder that left the round (leave.round) loses nothing
                counts[loser] -= 1
        else:  # challenge.loss: one die, or the difference between the bid and the count
            lose = abs(count - bid.quantity) if rules.challenge_loss == "difference" else 1
            counts[loser] = max(0, counts[loser] - max(lose, 1))
            if count == bid.quantity and rules.challenge_exact == "others_lose":
                for s in range(len(counts)):  # challenge.exact: all but the bidder lose one
                    if counts[s] and s != loser and s != bid.player:
                        counts[s] -= 1
        starter = loser if rules.round_starter == "loser" else challenge_winner
        if trace is not None:
            trace.next.decide("round.starter")
    else:  # play.calza, calza.gain_cap
        if trace is not None:
            trace.delta.overrule("play.calza")
        if count == bid.quantity:
            if trace is not None:  # the cap decides when it stops the gain
                trace.delta.read("calza.gain_cap")
                trace.delta.read("dice.max_per_player")
            if counts[caller] < calza_gain_limit(rules):
                gainer = caller
                counts[caller] += 1
            elif trace is not None:
                trace.delta.overrule("calza.gain_cap")
        else:
            loser = caller
            counts[caller] -= 1
        after_calza = rules.calza_next_starts
        if after_calza == "caller":
            starter = caller
        elif after_calza == "player_to_move":
            starter = to_move
        else:  # loser_else_bidder
            starter = caller if loser == caller else bid.player
        if trace is not None:
            trace.next.decide("calza.next_starts")
    new_counts = tuple(counts)
    alive = len(new_counts) - new_counts.count(0)
    used = rr.used
    single = rules.end_condition == "single_round"
    if trace is not None:
        _trace_end(trace, alive == 1 or single)
    if alive == 1 or single:  # end.condition: the first seat with dice (not the loser)
        for s, c in enumerate(new_counts):
            if c and (alive == 1 or s != loser):
                return Settlement(new_counts, loser, gainer, s, None, False, used)
    if dudo and rr.after_caller:  # round.starter: the next seat after the caller
        starter = next_seat(new_counts, rr.direction, caller)
    if not new_counts[starter]:  # play.next_seat: an eliminated starter passes it on
        starter = next_seat(new_counts, rr.direction, starter)
        if trace is not None:
            trace.next.overrule("play.next_seat")
    candidate: int | None = None
    pal = None if trace is None else trace.palifico
    if pal is not None:
        pal.read("palifico.enabled")
        if rules.palifico_enabled and alive <= 2:
            pal.read("palifico.heads_up")
    if rules.palifico_enabled and (rules.palifico_heads_up or alive > 2):
        trigger = rules.palifico_trigger
        if pal is not None:
            pal.decide("palifico.trigger")
        if trigger == "starts_with_one":
            if new_counts[starter] == 1:
                candidate = starter
        elif (
            loser is not None
            and new_counts[loser] == 1
            and (dudo or trigger == "reduced_to_one")  # reduced_to_one_by_dudo: Dudo only
        ):
            candidate = loser
    elif pal is not None:  # no palifico rounds, or none with two seats left
        pal.decide("palifico.enabled" if not rules.palifico_enabled else "palifico.heads_up")
    if candidate is not None and pal is not None:
        pal.read("palifico.once_per_player")
    if candidate is not None and not (rules.palifico_once_per_player and candidate in used):
        if trace is not None:  # the candidate opens the palifico round
            trace.next.overrule("play.palifico_opener")
            trace.next.read("palifico.trigger")
        return Settlement(new_counts, loser, gainer, None, candidate, True, used | {candidate})
    if candidate is not None and pal is not None:  # the candidate had its palifico round
        pal.overrule("palifico.once_per_player")
    return Settlement(new_counts, loser, gainer, None, starter, False, used)


def _trace_end(trace: OutcomeTrace, over: bool) -> None:
    """Note, once the new counts are known, the rules that put seats out
    (``play.elimination``, after the rules of the dice lost) and that end the game
    (``end.condition``: the winner, and, when ``over``, no next round)."""
    trace.eliminated.decide("play.elimination")
    for rule in trace.delta.rules():
        trace.eliminated.read(rule)
    trace.winner.decide("end.condition")
    if over:
        trace.next.overrule("end.condition")
        trace.palifico.decide("end.condition")


def dice_lost(rr: RoundRules, after: tuple[int, ...], loser: int | None) -> tuple[int, ...]:
    """The dice each seat lost in the settlement of a round of rules ``rr`` (``after`` its
    new counts, ``loser`` its loser): kept per loser when a Dudo costs one die (the common
    case)."""
    if rr.one_die or loser is None:
        key = -1 if loser is None else loser
        hit = rr.single_losses.get(key)
        if hit is None:
            hit = rr.single_losses[key] = tuple([int(s == key) for s in range(len(after))])
        if loser is None or after[loser] == rr.counts[loser] - 1:
            return hit
    return tuple([a - b if a > b else 0 for a, b in zip(rr.counts, after, strict=True)])


# --- the dice a seat may hold, and what a game is worth ---------------------------------


def calza_gain_limit(rules: Ruleset) -> int:
    """An exact Calza gains a die only for a caller holding fewer dice than this
    (``calza.gain_cap``, never above ``dice.max_per_player``)."""
    return min(rules.calza_gain_cap, rules.dice_max_per_player)


def most_dice_per_seat(rules: Ruleset) -> int:
    """The most dice one seat can ever hold in a game: its starting dice, or more when an
    exact Calza gains dice (``calza.gain_cap``, ``dice.max_per_player``)."""
    most = rules.dice_per_player
    if rules.calza_enabled:
        most = max(most, calza_gain_limit(rules))
    return most


def rounds_may_keep_dice(rules: Ruleset) -> bool:
    """Whether a round can end without any die lost (an exact Calza gains one or changes
    nothing), so that a game has no bound on its number of rounds."""
    return rules.calza_enabled


def returns(winner: int | None, players: int) -> tuple[float, ...]:
    """What a game is worth to each of ``players`` seats, zero-sum: ``+1`` for the winner
    and ``-1/(players - 1)`` for every other seat once there is a winner, ``0`` for every
    seat before (or in a game stopped without one). Both RL adapters pay this."""
    if winner is None:
        return (0.0,) * players
    lose = -1.0 / (players - 1)
    return tuple([1.0 if s == winner else lose for s in range(players)])
