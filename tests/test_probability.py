"""Exact bid odds checked against brute-force enumeration of every hidden roll."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from perudo_rules import Bid, Game, load_variant
from perudo_rules.analysis.probability import (
    bid_probability,
    bid_probability_float,
    count_distribution,
    exact_probability,
    exact_probability_float,
    from_game,
    round_wild,
    success_probability,
)


def brute_counts(
    own: tuple[int, ...], unknown: int, face: int, faces: int, wild: int | None
) -> Counter[int]:
    """How many of the faces**unknown hidden rolls give each table count of ``face``."""

    def counts(d: int) -> bool:
        if d == face:
            return True
        return wild is not None and face != wild and d == wild

    base = sum(1 for d in own if counts(d))
    tally: Counter[int] = Counter()
    for roll in itertools.product(range(1, faces + 1), repeat=unknown):
        tally[base + sum(1 for d in roll if counts(d))] += 1
    return tally


OWN_HANDS = [(), (1,), (2, 2), (1, 3, 4), (4, 4, 1, 2)]


@pytest.mark.parametrize("faces", [4, 5, 6])
@pytest.mark.parametrize("unknown", [0, 1, 2, 3, 4])
def test_matches_enumeration(faces: int, unknown: int) -> None:
    total_rolls = faces**unknown
    for wild in (None, 1, faces):
        for own in OWN_HANDS:
            for face in range(1, faces + 1):
                tally = brute_counts(own, unknown, face, faces, wild)
                dist = count_distribution(own, unknown, face, faces, wild)
                assert len(dist) == len(own) + unknown + 1
                assert sum(dist) == 1
                for k, p in enumerate(dist):
                    assert p == Fraction(tally[k], total_rolls), (own, unknown, face, wild, k)
                for q in range(-1, len(own) + unknown + 3):
                    at_least = Fraction(sum(c for k, c in tally.items() if k >= q), total_rolls)
                    exact = Fraction(tally[q], total_rolls)
                    assert bid_probability(own, unknown, q, face, faces, wild) == at_least
                    assert exact_probability(own, unknown, q, face, faces, wild) == exact
                    known = sum(1 for d in own if d == face or (d == wild and face != wild))
                    assert bid_probability_float(
                        known, unknown, q, face, faces, wild
                    ) == pytest.approx(float(at_least), abs=1e-12)
                    assert exact_probability_float(
                        known, unknown, q, face, faces, wild
                    ) == pytest.approx(float(exact), abs=1e-12)


def test_success_probability_depends_on_wild() -> None:
    assert success_probability(3, 6, 1) == Fraction(1, 3)
    assert success_probability(1, 6, 1) == Fraction(1, 6)  # a bid on the wild face itself
    assert success_probability(3, 6, None) == Fraction(1, 6)  # palifico: no wilds
    assert success_probability(6, 6, 6) == Fraction(1, 6)


def test_large_table_is_exact_and_sums_to_one() -> None:
    dist = count_distribution((2, 2, 1, 5, 6), 25, 2, 6, 1)
    assert sum(dist) == 1
    assert dist[:3] == [0, 0, 0]  # the caller already sees three dice counting as 2
    assert bid_probability((2, 2, 1, 5, 6), 25, 3, 2, 6, 1) == 1
    assert exact_probability((2, 2, 1, 5, 6), 25, 31, 2, 6, 1) == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (((), 2, 7, 6, 1), "not a face"),
        (((), 2, 0, 6, 1), "not a face"),
        (((), -1, 3, 6, 1), "non-negative"),
        (((), 2, 3, 6, 9), "wild face"),
        (((7,), 2, 3, 6, 1), "own die"),
        (((), 2, 1, 1, None), "two faces"),
    ],
)
def test_bad_input(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        count_distribution(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "italian", "spanish"),
    [
        (((), 2, 7, 6, 1), "7 non è una faccia di un dado a 6 facce", "7 no es una cara"),
        (((7,), 2, 3, 6, 1), "il proprio dado 7", "el dado propio 7"),
        (((), -1, 3, 6, 1), "non negativo, non -1", "no negativo, no -1"),
    ],
)
def test_bad_input_is_refused_in_the_readers_language(
    args: tuple[object, ...], italian: str, spanish: str
) -> None:
    from perudo_rules.base.i18n import use_language

    for lang, text in (("it", italian), ("es", spanish)):
        with use_language(lang), pytest.raises(ValueError, match=text):
            count_distribution(*args)  # type: ignore[arg-type]


def engine_odds(game: Game, player: int, bid: Bid) -> tuple[Fraction, Fraction]:
    """P(holds), P(exact) by rolling every other seat's dice through the engine's own count."""
    others = [s for s in range(game.players) if s != player]
    shapes = [game.dice_counts[s] for s in others]
    faces = game.rules.dice_faces
    n = sum(shapes)
    holds = exact = 0
    for roll in itertools.product(range(1, faces + 1), repeat=n):
        dice = [list(c) for c in game.dice]
        i = 0
        for s, c in zip(others, shapes, strict=True):
            dice[s] = list(roll[i : i + c])
            i += c
        g = Game.start(
            game.variant,
            dice,
            game.first_player or 0,
            palifico=game.palifico,
            palifico_used=game.palifico_used,
        )
        c = g.count(bid.face)
        holds += c >= bid.quantity
        exact += c == bid.quantity
    return Fraction(holds, faces**n), Fraction(exact, faces**n)


@pytest.mark.parametrize("variant_id", ["italian", "spanish"])
@pytest.mark.parametrize("palifico", [False, True])
def test_from_game_matches_engine_count(variant_id: str, palifico: bool) -> None:
    v = load_variant(variant_id)
    dice = [[1], [1, 4, 5], [2, 4]] if palifico else [[1, 4], [3, 1], [4, 6]]
    g = Game.start(v, dice, first_player=0, palifico=palifico)
    assert g.palifico is palifico
    for face in range(1, 7):
        for q in range(1, g.dice_in_play + 1):
            bid = Bid(0, q, face)
            odds = from_game(g, 1, bid)
            holds, exact = engine_odds(g, 1, bid)
            assert (odds.holds, odds.exact) == (holds, exact), (face, q)
            assert odds.unknown == g.dice_in_play - len(dice[1])
            assert odds.wild == (None if palifico else 1)


def test_palifico_with_wilds_keeps_the_wild() -> None:
    v = load_variant("italian", overrides={"palifico.wilds_count": True})
    assert round_wild(v.rules, True) == 1
    assert round_wild(load_variant("italian").rules, True) is None
    g = Game.start(v, [[1], [2, 3]], first_player=0, palifico=True)
    odds = from_game(g, 1, Bid(0, 2, 2))
    assert (odds.holds, odds.exact) == engine_odds(g, 1, Bid(0, 2, 2))
    assert odds.holds == Fraction(2, 6)  # seat 1 sees one 2; seat 0's die must be a 2 or a 1


def test_highest_face_wild() -> None:
    v = load_variant("italian", overrides={"wild.face": "highest"})
    g = Game.start(v, [[6, 2], [3, 3]], first_player=0)
    for face in (2, 3, 6):
        bid = Bid(0, 3, face)
        odds = from_game(g, 0, bid)
        assert (odds.holds, odds.exact) == engine_odds(g, 0, bid)


def test_from_game_uses_standing_bid_and_ignores_hidden_dice() -> None:
    v = load_variant("italian")
    a = Game.start(v, [[2, 2], [5, 5], [6, 3]], first_player=0).apply(Bid(0, 3, 2))
    b = Game.start(v, [[2, 2], [2, 1], [1, 1]], first_player=0).apply(Bid(0, 3, 2))
    assert from_game(a, 0) == from_game(b, 0)
    assert from_game(a, 0).bid == Bid(0, 3, 2)
    with pytest.raises(ValueError, match="no standing bid"):
        from_game(Game.start(v, [[2], [5]], first_player=0), 0)
