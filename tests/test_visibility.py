"""What the players are told at the reveal: only their own dice and the lifted cups.

A Dudo whose reveal stops early (``challenge.early_stop``, ``challenge.stop_when_unreachable``)
leaves some cups closed. The outcome sentence, every seat's observation and the terminal
game's screen must then be the same whatever the closed cups hold: two deals that differ
only in the closed cups of other seats tell each seat exactly the same thing. The true
count (``RoundResult.count``) stays the referee's.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from perudo_rules import Bid, Dudo, Game, load_variant
from perudo_rules.cli.play import TerminalGame
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.rounds import RoundResult
from perudo_rules.records.describe import describe_result

EARLY = {"challenge.early_stop": True}
UNREACHABLE = {"challenge.early_stop": False, "challenge.stop_when_unreachable": True}
EDITIONS = ("italian", "spanish", "bluff", "mso-perudo", "openspiel-liars-dice")


def _screen(game: Game, seat: int) -> list[str]:
    lines: list[str] = []
    screen = TerminalGame(game, seat, [None] * game.players, 0, lambda _: None, lines.append)
    screen.show_result()
    return lines


def _play_round(variant: Variant, dice: list[list[int]], rng: random.Random) -> Game:
    """Bids drawn from ``rng`` (legality does not depend on the dice), then a Dudo by the
    player to move: the same actions whatever ``dice`` are."""
    g = Game.start(variant, dice, first_player=0)
    for _ in range(rng.randrange(1, 4)):
        ranks = g.legal_actions().bid_ranks
        if not len(ranks):
            break
        q, f = g.space.bids[ranks[min(int(rng.random() ** 3 * len(ranks)), len(ranks) - 1)]]
        assert g.to_move is not None
        g = g.apply(Bid(g.to_move, q, f))
    assert g.to_move is not None
    return g.apply(Dudo(g.to_move))


@settings(max_examples=60, deadline=None)
@given(
    edition=st.sampled_from(EDITIONS),
    stop=st.sampled_from([EARLY, UNREACHABLE]),
    seats=st.integers(3, 5),
    seed=st.integers(0, 2**32 - 1),
)
def test_closed_cups_never_reach_a_player(
    edition: str, stop: dict[str, bool], seats: int, seed: int
) -> None:
    variant = load_variant(edition, overrides=stop)
    rng = random.Random(seed)
    seats = min(seats, variant.rules.players_max)
    faces = variant.rules.dice_faces
    per = min(variant.rules.dice_per_player, 3)
    dice = [[rng.randint(1, faces) for _ in range(per)] for _ in range(seats)]
    a = _play_round(variant, dice, random.Random(seed))
    res = a.last_result
    assert isinstance(res, RoundResult)
    closed = [s for s in range(seats) if s not in res.revealed]
    if not closed:
        assert res.shown_count == res.count
        return
    # re-deal the closed cups: every other die stays
    other = [list(c) for c in dice]
    for s in closed:
        other[s] = [rng.randint(1, faces) for _ in other[s]]
    b = _play_round(variant, other, random.Random(seed))
    rb = b.last_result
    assert rb is not None
    assert (rb.revealed, rb.shown, rb.shown_count) == (res.revealed, res.shown, res.shown_count)
    said_a = describe_result(res, a.dice_counts, winner=a.winner)
    said_b = describe_result(rb, b.dice_counts, winner=b.winner)
    assert said_a == said_b
    for seat in range(seats):
        if seat in closed:
            continue  # its own cup changed: it may see that, nothing else
        assert a.observation(seat) == b.observation(seat)
        assert _screen(a, seat) == _screen(b, seat)


def test_the_sentence_after_a_partial_reveal_counts_the_lifted_cups_only() -> None:
    # Italian (challenge.early_stop): seat 1 doubts 3x4; seat 2's cup, then seat 0's, are
    # lifted until three fours show. Seat 1's closed cup holds three more fours.
    v = load_variant("italian")
    g = Game.start(v, [[4, 4, 2], [4, 4, 4], [4, 5, 6]], first_player=0)
    after = g.apply(Bid(0, 3, 4)).apply(Dudo(1))
    res = after.last_result
    assert res is not None
    assert res.revealed == (2, 0) and res.count == 6 and res.shown_count == 3
    text = describe_result(res, after.dice_counts)
    assert text.startswith("seat 1 calls dudo on 3x4 by seat 0: 3 dice count in the lifted cups")
    assert "6" not in text.split(";")[0]
    seen = after.observation(2).past_rounds[0]
    assert seen.shown_count == 3 and seen.bid == Bid(0, 3, 4)
    assert not hasattr(seen, "count")
