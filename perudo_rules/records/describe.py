"""Play in words: one sentence for an action, a step or how a round ended.

The referee's summaries, the terminal game, ``check``, the PettingZoo table,
divergence witnesses and the ``compare`` command all describe play with these
functions, so the same thing is said the same way everywhere. ``name`` turns a seat
into words (default ``"seat 2"``; the terminal game says ``"seat 2 (you)"``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from perudo_rules.base.actions import Bid, Dudo, Leave, Reroll
from perudo_rules.base.i18n import tr
from perudo_rules.base.texts import Arg, Text, concat, joined, ntx, tx
from perudo_rules.engine.rounds import RoundResult
from perudo_rules.records.position import Step

__all__ = [
    "describe_result",
    "describe_step",
    "describe_steps",
    "result_text",
    "seat_name",
    "seat_text",
    "sentence",
]


def sentence(text: str) -> str:
    """``text`` as a sentence that starts a line: its first letter a capital (``"seat 1
    calls dudo ..."`` is ``"Seat 1 calls dudo ..."``, ``"il posto 1 ..."`` ``"Il posto 1
    ..."``); the rest as it is."""
    return text[:1].upper() + text[1:]


def seat_name(seat: int) -> str:
    """``"seat 2"`` (in the language of the context, :mod:`perudo_rules.base.i18n`)."""
    return tr("seat {n}", n=seat)


def seat_text(seat: int) -> Text:
    """``"seat 2"`` as data (:class:`~perudo_rules.base.texts.Text`), said when shown."""
    return tx("seat {n}", n=seat)


def _seats(seats: Sequence[int], name: Callable[[int], Arg]) -> Arg:
    if name is seat_text:
        listed = ", ".join(map(str, seats))
        return tx("seats {list}", list=listed) if len(seats) > 1 else tx("seat {n}", n=listed)
    return joined(", ", [name(s) for s in seats])


def describe_step(
    step: Step,
    gerund: bool = False,
    name: Callable[[int], str] = seat_name,
    rerolled: bool = False,
) -> str:
    """``"seat 0 bids 3x4"``, ``"seat 1 calls dudo"``, ``"seat 2 leaves the game"``,
    ``"seat 2 sets 5 5 aside and re-rolls the rest"``, ``"the next round is rolled (...)"``
    (with ``rerolled``, a roll inside a round: ``"the re-rolled dice come up (...)"``).

    With ``gerund``: ``"seat 0 bidding 3x4"``, ``"seat 1 calling dudo"``. In the language of
    the context (:func:`perudo_rules.base.i18n.use_language`).

    >>> describe_step(Bid(0, 3, 4)), describe_step(Bid(0, 3, 4), gerund=True)
    ('seat 0 bids 3x4', 'seat 0 bidding 3x4')
    >>> describe_step(Leave(2)), describe_step(Leave(2), gerund=True)
    ('seat 2 leaves the game', 'seat 2 leaving the game')
    """
    if isinstance(step, Bid):
        who = name(step.player)
        if gerund:
            return tr("{who} bidding {bid}", who=who, bid=step)
        return tr("{who} bids {bid}", who=who, bid=step)
    if isinstance(step, Leave):
        who = name(step.player)
        if gerund:
            return tr("{who} leaving the game", who=who)
        return tr("{who} leaves the game", who=who)
    if isinstance(step, Reroll):
        who = name(step.player)
        faces = " ".join(map(str, step.set_aside))
        if gerund:
            return tr("{who} setting {faces} aside and re-rolling the rest", who=who, faces=faces)
        return tr("{who} sets {faces} aside and re-rolls the rest", who=who, faces=faces)
    if hasattr(step, "player"):
        who = name(step.player)
        # one sentence a call: the rulebooks say Dudo and ask for Calza in other words
        if type(step) is Dudo:
            return tr("{who} calling dudo", who=who) if gerund else tr("{who} calls dudo", who=who)
        if gerund:
            return tr("{who} calling calza", who=who)
        return tr("{who} calls calza", who=who)
    cups = ", ".join(f"{name(s)}: {list(c)}" for s, c in enumerate(step.dice) if c)
    if rerolled:
        return tr("the re-rolled dice come up ({cups})", cups=cups)
    return tr("the next round is rolled ({cups})", cups=cups)


def _loses(who: Arg, n: int, left: int | None) -> Text:
    if n == 1:
        if left is None:
            return tx("{who} loses a die", who=who)
        if left == 0:
            return tx("{who} loses a die and is out", who=who)
        return ntx("{who} loses a die ({n} left)", "{who} loses a die ({n} left)", left, who=who)
    if left is None:
        return tx("{who} loses {n} dice", who=who, n=n)
    if left == 0:
        return tx("{who} loses {n} dice and is out", who=who, n=n)
    return ntx(
        "{who} loses {dice} dice ({n} left)",
        "{who} loses {dice} dice ({n} left)",
        left,
        who=who,
        dice=n,
    )


def describe_steps(steps: Sequence[Step], name: Callable[[int], str] = seat_name) -> list[str]:
    """:func:`describe_step` of each step, a roll right after a re-roll told as its dice."""
    out = []
    for i, step in enumerate(steps):
        rerolled = i > 0 and isinstance(steps[i - 1], Reroll)
        out.append(describe_step(step, name=name, rerolled=rerolled))
    return out


def describe_result(
    result: RoundResult,
    dice_counts: Sequence[int] | None = None,
    name: Callable[[int], str] = seat_name,
    winner: int | None = None,
) -> str:
    """How a round ended, in one sentence (in the language of the context).

    ``dice_counts`` are the dice every seat holds after the round (``game.dice_counts``
    after the call); with them the sentence says how many dice the loser has left,
    who is out and who wins. ``winner`` names the winner when the round ended the
    game (by default the last seat holding dice). The sentence is :func:`result_text`'s.

    >>> from perudo_rules import Game, Dudo, Bid, load_variant
    >>> g = Game.start(load_variant("italian"), [[3, 5], [3]], first_player=0)
    >>> after = g.apply(Bid(0, 2, 3)).apply(Dudo(1))
    >>> print(describe_result(after.last_result, after.dice_counts))
    seat 1 calls dudo on 2x3 by seat 0: 2 dice count in the lifted cups (seats 0, 1); seat 1 \
loses a die and is out; seat 0 wins the game
    """
    named: Callable[[int], Arg] = seat_text if name is seat_name else name
    return result_text(result, dice_counts, named, winner).text()


def result_text(
    result: RoundResult,
    dice_counts: Sequence[int] | None = None,
    name: Callable[[int], Arg] = seat_text,
    winner: int | None = None,
) -> Text:
    """How a round ended (:func:`describe_result`) as data: a
    :class:`~perudo_rules.base.texts.Text`, said in a language only when shown."""
    caller = tx("someone") if result.caller is None else name(result.caller)
    # only what the table sees: the dice among the lifted cups (a reveal that stops early
    # leaves closed cups secret; result.count, the true count, is the referee's)
    n = result.shown_count
    counted = tx("{n} die counts", n=n) if n == 1 else tx("{n} dice count", n=n)
    bid = result.bid
    gone = result.kind == "leave" or bid is None
    if gone or bid is None:  # play.leave: no call, no cup lifted; its dice leave with the seat
        seat = result.loser if result.caller is None else result.caller  # between rounds
        caller = caller if seat is None else name(seat)
        took = result.lost[seat] if seat is not None and seat < len(result.lost) else 0
        if took == 1:
            text = tx("{who} leaves the game with its die", who=caller)
        else:
            text = tx("{who} leaves the game with its {n} dice", who=caller, n=took)
        if bid is not None:
            standing = tx(", {bid} by {bidder} standing", bid=bid, bidder=name(bid.player))
            text = concat(text, standing)
        parts: list[Arg] = [text]
        if result.next_player is not None and result.caller is None:  # between rounds
            parts.append(tx("the next round is rolled without it"))
        elif result.next_player is not None:
            parts.append(tx("the round is called off"))
    else:
        said = {
            "caller": caller,
            "bid": bid,
            "bidder": name(bid.player),
            "counted": counted,
            "seats": _seats(result.revealed, name),
        }
        if result.kind == "dudo":  # one sentence a call, each in its rulebook's words
            parts = [tx("{caller} calls dudo on {bid} by {bidder}: {counted} in the lifted "
                        "cups ({seats})", **said)]  # fmt: skip
        else:
            parts = [tx("{caller} calls calza on {bid} by {bidder}: {counted} in the lifted "
                        "cups ({seats})", **said)]  # fmt: skip
    if gone:
        pass  # the seat's loss is said above
    elif result.loser is not None:
        lost = result.lost or ()
        # the loser first, then any seat that lost with it (challenge.exact: others_lose)
        for seat in [result.loser, *(s for s, n in enumerate(lost) if n and s != result.loser)]:
            n = lost[seat] if seat < len(lost) else 1
            if n == 0:  # a bidder that left the round (leave.round: continues)
                parts.append(tx("{who} has left the game: no die to lose", who=name(seat)))
                continue
            left = None if dice_counts is None else dice_counts[seat]
            parts.append(_loses(name(seat), n, left))
    elif result.gainer is not None:
        who = name(result.gainer)
        if dice_counts is not None:
            parts.append(tx("{who} gains a die ({n} now)", who=who, n=dice_counts[result.gainer]))
        else:
            parts.append(tx("{who} gains a die", who=who))
    else:
        parts.append(tx("the call is exact, but there is no die to gain"))
    if result.next_player is not None:
        who = name(result.next_player)
        if result.next_palifico:
            parts.append(tx("{who} opens a palifico round", who=who))
        else:
            parts.append(tx("{who} opens an ordinary round", who=who))
    elif winner is not None:
        parts.append(tx("{who} wins the game", who=name(winner)))
    elif dice_counts is not None and sum(1 for c in dice_counts if c) == 1:
        last = next(s for s, c in enumerate(dice_counts) if c)
        parts.append(tx("{who} wins the game", who=name(last)))
    else:
        parts.append(tx("the game is over"))
    return joined("; ", parts)
