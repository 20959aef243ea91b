"""Play in words: one sentence for an action, a step or how a round ended.

The referee's summaries, the terminal game, divergence witnesses and the
``compare`` command all describe play with these functions, so the same thing
is said the same way everywhere. ``name`` turns a seat into words (default
``"seat 2"``; the terminal game says ``"seat 2 (you)"``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from perudo_rules.actions import Bid, Leave
from perudo_rules.game import RoundResult
from perudo_rules.position import Step

__all__ = ["describe_result", "describe_step", "seat_name"]


def seat_name(seat: int) -> str:
    """``"seat 2"``."""
    return f"seat {seat}"


def _seats(seats: Sequence[int], name: Callable[[int], str]) -> str:
    if name is seat_name:
        label = "seats " if len(seats) > 1 else "seat "
        return label + ", ".join(map(str, seats))
    return ", ".join(name(s) for s in seats)


def describe_step(step: Step, gerund: bool = False, name: Callable[[int], str] = seat_name) -> str:
    """``"seat 0 bids 3x4"``, ``"seat 1 calls dudo"``, ``"seat 2 leaves the game"``,
    ``"the next round is rolled (...)"``.

    With ``gerund``: ``"seat 0 bidding 3x4"``, ``"seat 1 calling dudo"``.

    >>> describe_step(Bid(0, 3, 4)), describe_step(Bid(0, 3, 4), gerund=True)
    ('seat 0 bids 3x4', 'seat 0 bidding 3x4')
    >>> describe_step(Leave(2)), describe_step(Leave(2), gerund=True)
    ('seat 2 leaves the game', 'seat 2 leaving the game')
    """
    if isinstance(step, Bid):
        return f"{name(step.player)} {'bidding' if gerund else 'bids'} {step}"
    if isinstance(step, Leave):
        return f"{name(step.player)} {'leaving' if gerund else 'leaves'} the game"
    if hasattr(step, "player"):
        return f"{name(step.player)} {'calling' if gerund else 'calls'} {step}"
    cups = ", ".join(f"{name(s)}: {list(c)}" for s, c in enumerate(step.dice) if c)
    return f"the next round is rolled ({cups})"


def describe_result(
    result: RoundResult,
    dice_counts: Sequence[int] | None = None,
    name: Callable[[int], str] = seat_name,
    winner: int | None = None,
) -> str:
    """How a round ended, in one sentence.

    ``dice_counts`` are the dice every seat holds after the round (``game.dice_counts``
    after the call); with them the sentence says how many dice the loser has left,
    who is out and who wins. ``winner`` names the winner when the round ended the
    game (by default the last seat holding dice).

    >>> from perudo_rules import Game, Dudo, Bid, load_variant
    >>> g = Game.start(load_variant("italian"), [[3, 5], [3]], first_player=0)
    >>> after = g.apply(Bid(0, 2, 3)).apply(Dudo(1))
    >>> print(describe_result(after.last_result, after.dice_counts))
    seat 1 calls dudo on 2x3 by seat 0: 2 dice count in the lifted cups (seats 0, 1); seat 1 \
loses a die and is out; seat 0 wins the game
    """
    caller = "someone" if result.caller is None else name(result.caller)
    # only what the table sees: the dice among the lifted cups (a reveal that stops early
    # leaves closed cups secret; result.count, the true count, is the referee's)
    n = result.shown_count
    counted = f"{n} die counts" if n == 1 else f"{n} dice count"
    bid = result.bid
    gone = result.kind == "leave" or bid is None
    if gone or bid is None:  # play.leave: no call, no cup lifted; its dice leave with the seat
        seat = result.caller
        took = result.lost[seat] if seat is not None and seat < len(result.lost) else 0
        standing = "" if bid is None else f", {bid} by {name(bid.player)} standing"
        dice = "its die" if took == 1 else f"its {took} dice"
        parts = [f"{caller} leaves the game with {dice}{standing}"]
        if result.next_player is not None:
            parts.append("the round is called off")
    else:
        parts = [
            f"{caller} calls {result.kind} on {bid} by {name(bid.player)}: {counted} "
            f"in the lifted cups ({_seats(result.revealed, name)})"
        ]
    if gone:
        pass  # the seat's loss is said above
    elif result.loser is not None:
        lost = result.lost or ()
        # the loser first, then any seat that lost with it (challenge.exact: others_lose)
        for seat in [result.loser, *(s for s, n in enumerate(lost) if n and s != result.loser)]:
            n = lost[seat] if seat < len(lost) else 1
            if n == 0:  # a bidder that left the round (leave.round: continues)
                parts.append(f"{name(seat)} has left the game: no die to lose")
                continue
            text = f"{name(seat)} loses {'a die' if n == 1 else f'{n} dice'}"
            if dice_counts is not None:
                left = dice_counts[seat]
                text += " and is out" if left == 0 else f" ({left} left)"
            parts.append(text)
    elif result.gainer is not None:
        text = f"{name(result.gainer)} gains a die"
        if dice_counts is not None:
            text += f" ({dice_counts[result.gainer]} now)"
        parts.append(text)
    else:
        parts.append("the call is exact, but there is no die to gain")
    if result.next_player is not None:
        kind = "a palifico round" if result.next_palifico else "an ordinary round"
        parts.append(f"{name(result.next_player)} opens {kind}")
    elif winner is not None:
        parts.append(f"{name(winner)} wins the game")
    elif dice_counts is not None and sum(1 for c in dice_counts if c) == 1:
        last = next(s for s, c in enumerate(dice_counts) if c)
        parts.append(f"{name(last)} wins the game")
    else:
        parts.append("the game is over")
    return "; ".join(parts)
