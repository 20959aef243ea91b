"""The engine, rule by rule and knob by knob, including the rulebooks' worked examples."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest

from perudo_rules import (
    Bid,
    Calza,
    Dudo,
    Game,
    IllegalAction,
    Variant,
    load_variant,
    parse_bid,
)
from perudo_rules.engine.legal import LegalActions

IT = load_variant("italian")
ES = load_variant("spanish")


def position(
    v: Variant,
    dice: Sequence[Sequence[int]],
    first: int = 0,
    bids: Sequence[str] = (),
    palifico: bool = False,
    **kw: object,
) -> Game:
    """A game at round start, then ``bids`` ("qxf") made by consecutive seats."""
    g = Game.start(v, dice, first, palifico=palifico, **kw)  # type: ignore[arg-type]
    for text in bids:
        assert g.to_move is not None
        g = g.apply(parse_bid(text, g.to_move))
    return g


def refused(g: Game, action: object) -> str:
    with pytest.raises(IllegalAction) as e:
        g.apply(action)  # type: ignore[arg-type]
    assert not g.is_legal(action)
    assert action not in g.legal_actions()
    return e.value.rule


def candidates(g: Game) -> list[object]:
    out: list[object] = []
    cap = g.dice_in_play
    for p in range(-1, g.players + 1):
        out += [Dudo(p), Calza(p)]
        out += [Bid(p, q, f) for q in range(0, cap + 2) for f in range(0, g.rules.dice_faces + 2)]
    return out


def assert_view_agrees(g: Game) -> None:
    legal = g.legal_actions()
    listed = list(legal)
    assert len(listed) == len(legal) == len(set(listed))
    assert {a for a in candidates(g) if g.is_legal(a)} == set(listed)
    for i in (0, len(legal) // 2, len(legal) - 1):
        if legal:
            assert legal[i] == listed[i]


FIVE = [[2, 3, 4, 5, 6]] * 3


# --- bidding ------------------------------------------------------------------------------


def test_raise_quantity_of_any_face_or_same_quantity_higher_face() -> None:
    # Italian "Il rilancio": after 8 fours, 9+ of any face, or 8 fives/sixes, or 10 fives.
    g = position(IT, FIVE * 2, bids=["8x4"])
    for ok in ["9x2", "9x4", "8x5", "8x6", "10x5", "11x6"]:
        assert g.is_legal(parse_bid(ok, 1)), ok
    for bad in ["8x4", "8x3", "7x6", "8x2"]:
        assert refused(g, parse_bid(bad, 1)) == "bidding.order", bad


@pytest.mark.parametrize(("q", "need"), [(9, 5), (8, 4), (1, 1), (2, 1), (3, 2), (7, 4)])
def test_to_wild_needs_half_rounded_up(q: int, need: int) -> None:
    # Italian: after nine fours, at least five Aztecs; Spanish: ceil(q/2) Pacos.
    for v in (IT, ES):
        g = position(v, FIVE * 2, bids=[f"{q}x4"])
        assert g.is_legal(Bid(1, need, 1))
        if need > 1:
            assert refused(g, Bid(1, need - 1, 1)) == "bidding.wild_worth"
        assert need == math.ceil(q / 2)


@pytest.mark.parametrize("w", [1, 2, 3, 4])
def test_back_from_wild_needs_double_plus_one(w: int) -> None:
    # Italian: after four Aztecs, nine or more of a face; Spanish: 3 Pacos -> 7 fours.
    for v in (IT, ES):
        g = position(v, FIVE * 2, bids=["1x5", f"{w}x1"])
        assert g.is_legal(Bid(2, 2 * w + 1, 2))
        assert refused(g, Bid(2, 2 * w, 6)) == "bidding.wild_worth"
        assert g.is_legal(Bid(2, w + 1, 1))  # wild to wild: a higher quantity
        assert refused(g, Bid(2, w, 1)) == "bidding.order"


def test_spanish_worked_paco_examples() -> None:
    g = position(ES, FIVE * 2, bids=["5x3"])
    g = g.apply(Bid(1, 3, 1))  # 5 threes -> 3 Pacos
    assert g.is_legal(Bid(2, 8, 1))  # 3 Pacos -> 8 Pacos
    assert g.is_legal(Bid(2, 7, 4))  # 3 Pacos -> 7 fours (3*2+1)
    assert not g.is_legal(Bid(2, 6, 4))


def test_quantity_cap_is_the_dice_in_play() -> None:
    g = position(IT, [[2, 2], [3], [4, 4]], bids=["5x5"])
    assert refused(g, Bid(1, 6, 6)) == "bidding.quantity_cap"
    assert g.is_legal(Bid(1, 5, 6))
    g = g.apply(Bid(1, 5, 6))
    # 3 wilds rank above 5 sixes; wild bids are capped by the dice in play too
    assert [a for a in g.legal_actions() if isinstance(a, Bid)] == [
        Bid(2, 3, 1),
        Bid(2, 4, 1),
        Bid(2, 5, 1),
    ]
    assert refused(g, Bid(2, 6, 1)) == "bidding.quantity_cap"
    top = g.apply(Bid(2, 5, 1))
    assert [a for a in top.legal_actions() if isinstance(a, Bid)] == []
    assert top.is_legal(Dudo(0)) and top.is_legal(Calza(1))


def test_bid_range_and_turn() -> None:
    g = position(IT, FIVE)
    assert refused(g, Bid(0, 0, 3)) == "play.bid_range"
    assert refused(g, Bid(0, 2, 7)) == "play.bid_range"
    assert refused(g, Bid(0, 2, 0)) == "play.bid_range"
    assert refused(g, Bid(1, 2, 3)) == "play.turn"
    assert refused(g, Bid(3, 2, 3)) == "play.seat"
    assert refused(g, Dudo(1)) == "play.bid_needed"
    assert refused(g, Calza(1)) == "play.bid_needed"
    assert refused(g, "dudo") == "play.turn"


def test_wild_opening_italian_allowed_spanish_banned_only_as_opening() -> None:
    it = position(IT, FIVE)
    assert it.is_legal(Bid(0, 1, 1))
    es = position(ES, FIVE)
    assert refused(es, Bid(0, 1, 1)) == "bidding.wild_opening"
    assert all(a.face != 1 for a in es.legal_actions() if isinstance(a, Bid))
    later = es.apply(Bid(0, 2, 5))
    assert later.is_legal(Bid(1, 1, 1))
    assert_view_agrees(es)


def test_wild_ban_in_first_round_reading() -> None:
    v = load_variant("spanish", overrides={"bidding.wild_opening": "not_in_first_round"})
    g = position(v, FIVE, bids=["2x5"])
    assert refused(g, Bid(1, 1, 1)) == "bidding.wild_opening"
    assert_view_agrees(g)
    g2 = position(v, FIVE, round=2)
    assert g2.is_legal(Bid(0, 1, 1))
    pal = position(v, [[3], [2, 2]], palifico=True)
    assert pal.is_legal(Bid(0, 1, 1))  # never in a palifico round


# --- dudo ---------------------------------------------------------------------------------


def test_dudo_only_by_player_to_move_and_against_a_bid() -> None:
    g = position(IT, FIVE, bids=["2x3"])
    assert g.is_legal(Dudo(1))
    assert refused(g, Dudo(2)) == "challenge.who"
    assert refused(g, Dudo(0)) == "challenge.who"


def test_dudo_count_reached_challenger_loses_italian_early_stop() -> None:
    # seat 0 bids 3 fours; seat 1 doubts; cups lift from seat 2 (left of the challenger).
    g = position(IT, [[1, 4, 4, 5, 2], [3, 3, 6, 2, 2], [5]], bids=["3x4"]).apply(Dudo(1))
    r = g.last_result
    assert r is not None
    assert (r.kind, r.count, r.loser, r.gainer, r.next_player) == ("dudo", 3, 1, None, 1)
    assert r.revealed == (2, 0) and r.shown == ((5,), (1, 4, 4, 5, 2))
    assert g.dice_counts == (5, 4, 1) and g.awaiting_roll and g.to_move is None
    assert len(g.legal_actions()) == 0


def test_dudo_not_reached_bidder_loses_and_all_cups_lift() -> None:
    # Italian "Il Dudo": nine fives bid, only eight found: the bidder loses.
    dice = [[5, 5, 1, 2, 3], [5, 5, 5, 2, 3], [1, 1, 2, 3, 4]]
    g = position(IT, dice, bids=["9x5"]).apply(Dudo(1))
    r = g.last_result
    assert r is not None and r.count == 8 and r.loser == 0 and r.next_player == 0
    assert r.revealed == (2, 0, 1)  # never proven: every cup, challenger last


def test_spanish_dudo_reveals_everything_in_the_same_order() -> None:
    g = position(ES, [[1, 4, 4, 5, 2], [3, 3, 6, 2, 2], [5]], bids=["3x4"]).apply(Dudo(1))
    r = g.last_result
    assert r is not None and r.revealed == (2, 0, 1) and r.count == 3 and r.loser == 1


def test_count_includes_wilds_but_wild_bids_count_only_wilds() -> None:
    g = position(IT, [[1, 1, 4], [4, 6, 6]])
    assert g.count(4) == 4 and g.count(6) == 4 and g.count(1) == 2


def test_loser_out_next_seat_starts_and_reveal_skips_out_seats() -> None:
    g = position(IT, [[2], [], [3, 3], [4]], first=3, bids=["2x3"]).apply(Dudo(0))
    # seat 3 bid 2 threes, seat 0 (next with dice) doubts, count 2: seat 0 loses its last die.
    r = g.last_result
    assert r is not None and r.loser == 0 and g.dice_counts == (0, 0, 2, 1)
    assert r.revealed == (2,)  # from seat 0's left: seat 1 is out, seat 2 proves it
    assert r.next_player == 2


def test_game_over_one_winner() -> None:
    g = position(IT, [[2], [3]], bids=["1x3"]).apply(Dudo(1))
    assert g.is_over and g.winner == 0 and g.last_result is not None
    assert g.last_result.next_player is None and not g.awaiting_roll
    assert refused(g, Bid(0, 1, 2)) == "play.game_over"
    with pytest.raises(IllegalAction) as e:
        g.roll(seed=1)
    assert e.value.rule == "play.game_over"


# --- calza --------------------------------------------------------------------------------


def test_italian_calza_who() -> None:
    g = position(IT, [*FIVE, [2, 2]], bids=["2x3"])  # seat 0 bid; seat 1 to move
    assert refused(g, Calza(0)) == "calza.who"
    assert refused(g, Calza(1)) == "calza.who"
    assert g.is_legal(Calza(2)) and g.is_legal(Calza(3))
    assert_view_agrees(g)
    two = position(IT, [[2, 3], [4, 5]], bids=["1x3"])
    assert not any(isinstance(a, Calza) for a in two.legal_actions())


def test_spanish_calza_who() -> None:
    g = position(ES, FIVE, bids=["2x3"])
    assert refused(g, Calza(0)) == "calza.who"
    assert g.is_legal(Calza(1)) and g.is_legal(Calza(2))
    assert_view_agrees(g)


def test_calza_exact_gains_wrong_loses_caller_starts() -> None:
    dice = [[3, 3, 2], [1, 5, 6], [4, 4]]
    exact = position(IT, dice, bids=["3x3"]).apply(Calza(2))
    r = exact.last_result
    assert r is not None and r.kind == "calza" and r.count == 3
    assert (r.gainer, r.loser, r.next_player) == (2, None, 2)
    assert exact.dice_counts == (3, 3, 3) and r.revealed == (2, 0, 1)
    wrong = position(IT, dice, bids=["2x3"]).apply(Calza(2))
    r = wrong.last_result
    assert r is not None and (r.gainer, r.loser, r.next_player) == (None, 2, 2)
    assert wrong.dice_counts == (3, 3, 1)


def test_exact_calza_at_the_cap_changes_nothing() -> None:
    dice = [[3, 3, 2, 2, 2], [1, 5, 6, 6, 6], [4, 4, 4, 4, 4]]
    g = position(IT, dice, bids=["3x3"]).apply(Calza(2))
    r = g.last_result
    assert r is not None and r.gainer is None and r.loser is None and r.next_player == 2
    assert g.dice_counts == (5, 5, 5)


def test_wrong_calza_by_last_die_next_seat_starts() -> None:
    g = position(ES, [[3, 3], [5, 5], [4]], bids=["1x3"]).apply(Calza(2))
    r = g.last_result
    assert r is not None and r.loser == 2 and g.dice_counts == (2, 2, 0)
    assert r.next_player == 0 and not g.palifico


def test_wrong_calza_leaving_one_die_starts_palifico() -> None:
    g = position(ES, [[3, 3], [5, 5], [4, 4]], bids=["1x3"]).apply(Calza(2))
    assert g.dice_counts == (2, 2, 1) and g.palifico and g.palifico_player == 2
    assert g.last_result is not None and g.last_result.next_player == 2


# --- palifico -----------------------------------------------------------------------------


def test_reduced_to_one_starts_palifico_and_the_loser_opens() -> None:
    g = position(IT, [[2, 2], [3, 3], [4, 4]], bids=["1x6"]).apply(Dudo(1))
    assert g.dice_counts == (1, 2, 2)
    assert g.palifico and g.palifico_player == 0 and 0 in g.palifico_used
    nxt = g.roll(dice=[[5], [2, 2], [3, 3]])
    assert nxt.to_move == 0 and nxt.palifico and nxt.round == 2
    assert nxt.is_legal(Bid(0, 1, 1))  # ones may open a palifico round


def test_palifico_ones_are_not_wild() -> None:
    g = position(IT, [[1], [4, 4], [1, 4]], palifico=True, bids=["2x4"]).apply(Dudo(1))
    r = g.last_result
    assert r is not None and r.count == 3 and g.count(4) == 0  # dice cleared between rounds
    pal = position(IT, [[1], [4, 4], [1, 4]], palifico=True)
    assert pal.count(4) == 3 and pal.count(1) == 2


def test_italian_face_lock_and_single_die_exception() -> None:
    # Italian example: 1 two, 2 twos; you (one die) may bid 2 threes; then 3+ threes.
    dice = [[2], [2, 3], [5], [6, 6]]
    g = position(IT, dice, palifico=True, bids=["1x2", "2x2"])
    assert g.to_move == 2 and g.dice_counts[2] == 1
    assert g.is_legal(Bid(2, 2, 3))
    g = g.apply(Bid(2, 2, 3))
    assert refused(g, Bid(3, 3, 2)) == "palifico.face_lock"
    assert refused(g, Bid(3, 2, 4)) == "palifico.face_lock"
    assert g.is_legal(Bid(3, 3, 3))
    assert_view_agrees(g)
    g = g.apply(Bid(3, 3, 3))
    # the palifico player may not change its face again, though it holds one die ...
    assert g.to_move == 0 and refused(g, Bid(0, 4, 2)) == "palifico.face_lock"
    assert g.is_legal(Bid(0, 4, 3))  # ... it follows the face another seat changed to
    assert_view_agrees(g)


def test_palifico_opener_may_change_override() -> None:
    """The literal Spanish reading as an override: the palifico player may change its face
    later in its round, while the others stay locked."""
    v = load_variant("spanish", overrides={"palifico.opener_may_change": True})
    g = position(v, [[2], [2, 3], [5, 5]], palifico=True, bids=["1x2", "2x2", "3x2"])
    assert g.to_move == 0
    assert g.is_legal(Bid(0, 4, 3)) and g.is_legal(Bid(0, 3, 3))
    assert refused(g, Bid(0, 3, 1)) == "bidding.order"  # still a raise: ones rank lowest
    g = g.apply(Bid(0, 3, 3))
    assert refused(g, Bid(1, 4, 4)) == "palifico.face_lock"
    assert_view_agrees(g)


def test_former_palifico_may_change_the_face() -> None:
    v = load_variant("italian", overrides={"palifico.face_lock": "locked_except_former_palifico"})
    dice = [[2], [2, 3], [5], [6, 6]]
    g = Game.start(v, dice, 0, palifico=True, palifico_used=[3])
    g = g.apply(Bid(0, 1, 2))
    assert refused(g, Bid(1, 2, 3)) == "palifico.face_lock"
    g = g.apply(Bid(1, 2, 2))
    assert refused(g, Bid(2, 2, 3)) == "palifico.face_lock"  # one die, but never palifico
    g = g.apply(Bid(2, 3, 2))
    assert g.is_legal(Bid(3, 3, 4))  # seat 3 already had its palifico round
    assert_view_agrees(g)


def test_spanish_face_locked_for_everyone() -> None:
    g = position(ES, [[2], [2, 3], [5], [6, 6]], palifico=True, bids=["1x2", "2x2"])
    assert refused(g, Bid(2, 2, 3)) == "palifico.face_lock"
    assert_view_agrees(g)
    assert next(a for a in g.legal_actions() if isinstance(a, Bid)) == Bid(2, 3, 2)


def test_palifico_once_per_player_italian_every_time_spanish() -> None:
    for v, again in ((IT, False), (ES, True)):
        g = Game.start(v, [[2, 2], [3, 3], [4, 4]], 0, palifico_used=[0])
        g = g.apply(Bid(0, 1, 6)).apply(Dudo(1))
        assert g.dice_counts[0] == 1 and g.palifico is again, v.id


def test_no_palifico_when_the_loss_ends_the_game_or_heads_up_off() -> None:
    g = position(IT, [[2, 2], [3]], bids=["2x6"]).apply(Dudo(1))
    assert g.dice_counts == (1, 1) and g.palifico  # heads-up palifico still applies
    off = load_variant("italian", overrides={"palifico.heads_up": False})
    g = position(off, [[2, 2], [3]], bids=["2x6"]).apply(Dudo(1))
    assert not g.palifico and g.last_result is not None and g.last_result.next_player == 0


def test_palifico_knobs_free_lock_and_wilds_count() -> None:
    free = load_variant("spanish", overrides={"palifico.face_lock": "free"})
    g = position(free, [[2], [2, 3], [5]], palifico=True, bids=["1x2"])
    assert g.is_legal(Bid(1, 1, 3))
    wild = load_variant("italian", overrides={"palifico.wilds_count": True})
    p = position(wild, [[1], [4, 4], [1, 4]], palifico=True)
    assert p.count(4) == 5


def test_palifico_trigger_starts_with_one() -> None:
    v = load_variant("spanish", overrides={"palifico.trigger": "starts_with_one"})
    # seat 2 (one die) wrongly calls calza and is out; seat 0 (one die) opens: palifico.
    g = position(v, [[3], [5, 5], [4]], first=1, bids=["1x5"]).apply(Calza(2))
    assert g.dice_counts == (1, 2, 0) and g.last_result is not None
    assert g.last_result.next_player == 0 and g.palifico
    base = position(ES, [[3], [5, 5], [4]], first=1, bids=["1x5"]).apply(Calza(2))
    assert not base.palifico


def test_palifico_needs_one_die_and_the_knob() -> None:
    with pytest.raises(ValueError, match="exactly one die"):
        Game.start(IT, [[2, 2], [3]], 0, palifico=True)
    off = load_variant("italian", overrides={"palifico.enabled": False})
    with pytest.raises(ValueError, match="no palifico"):
        Game.start(off, [[2], [3]], 0, palifico=True)
    g = position(off, [[2, 2], [3, 3]], bids=["3x2"]).apply(Dudo(1))
    assert g.dice_counts == (1, 2) and not g.palifico


# --- other knobs --------------------------------------------------------------------------


def test_direction_right() -> None:
    v = load_variant("italian", overrides={"setup.direction": "right"})
    g = position(v, FIVE, bids=["2x3"])
    assert g.to_move == 2
    r = g.apply(Dudo(2)).last_result
    assert r is not None and r.revealed[0] == 1


def test_out_of_turn_dudo_knob() -> None:
    v = load_variant("italian", overrides={"challenge.who": "any_except_bidder"})
    g = position(v, FIVE, bids=["2x3"])
    assert g.is_legal(Dudo(2)) and g.is_legal(Dudo(1)) and not g.is_legal(Dudo(0))
    assert_view_agrees(g)


def test_round_starter_challenge_winner_and_calza_next_player_to_move() -> None:
    v = load_variant(
        "italian",
        overrides={"round.starter": "challenge_winner", "calza.next_starts": "player_to_move"},
    )
    g = position(v, FIVE, bids=["9x4"]).apply(Dudo(1))
    assert g.last_result is not None and g.last_result.loser == 0
    assert g.last_result.next_player == 1
    c = position(v, FIVE, bids=["9x4"]).apply(Calza(2))
    assert c.last_result is not None and c.last_result.next_player == 1


def test_calza_only_player_to_move_knob() -> None:
    v = load_variant("italian", overrides={"calza.who": "player_to_move"})
    g = position(v, FIVE, bids=["2x3"])
    assert g.is_legal(Calza(1)) and refused(g, Calza(2)) == "calza.who"


def test_single_round_and_highest_wild_face_then_quantity() -> None:
    v = load_variant(
        "italian",
        overrides={
            "players.max": 2,
            "end.condition": "single_round",
            "calza.enabled": False,
            "palifico.enabled": False,
            "wild.face": "highest",
            "bidding.order": "face_then_quantity",
            "bidding.wild_worth": 1,
            "setup.first_player": "seat_zero",
        },
    )
    g = position(v, [[6, 2], [2, 3]], bids=["3x2"])
    assert g.is_legal(Bid(1, 1, 3)) and not g.is_legal(Bid(1, 2, 2))
    assert g.is_legal(Bid(1, 1, 6))
    end = g.apply(Dudo(1))
    # two twos and the wild six: 3 twos hold, the challenger loses and the game ends
    assert end.is_over and end.winner == 0 and end.last_result is not None
    assert end.last_result.count == 3 and end.last_result.loser == 1
    other = position(v, [[5, 2], [2, 3]], bids=["3x2"]).apply(Dudo(1))
    assert other.winner == 1 and other.dice_counts == (1, 2)
    assert Game.new(v, 2, seed=3).to_move == 0


# --- chance, determinism, purity, observation ---------------------------------------------


def test_roll_validates_and_starts_the_next_round() -> None:
    g = position(IT, FIVE, bids=["9x4"]).apply(Dudo(1))
    assert refused(g, Bid(0, 1, 2)) == "play.roll"
    with pytest.raises(ValueError, match="seat 0 holds 4 dice"):
        g.roll(dice=[[2] * 5, [2] * 5, [2] * 5])
    with pytest.raises(ValueError):
        g.roll(dice=[[2] * 4, [2] * 5])
    with pytest.raises(ValueError):
        g.roll(dice=[[7] * 4, [2] * 5, [2] * 5])
    nxt = g.roll(dice=[[2] * 4, [3] * 5, [4] * 5])
    assert nxt.to_move == 0 and nxt.round == 2 and nxt.bids == () and nxt.first_player == 0
    with pytest.raises(IllegalAction) as e:
        nxt.roll(seed=1)
    assert e.value.rule == "play.roll"
    assert len(nxt.history) == 1 and nxt.history[0].actions[-1] == Dudo(1)


def test_same_seed_same_game_and_roll_off() -> None:
    assert Game.new(ES, 4, seed=7) == Game.new(ES, 4, seed=7)
    firsts = {Game.new(IT, 6, seed=s).to_move for s in range(40)}
    assert firsts == set(range(6))
    g = Game.new(IT, 3, seed=1)
    assert all(len(c) == 5 for c in g.dice) and g.round == 1
    with pytest.raises(ValueError):
        Game.new(IT, 7)
    with pytest.raises(ValueError):
        Game.new(IT, 1)


def test_spanish_roll_off_sums_two_dice() -> None:
    import random

    from perudo_rules.engine.start import roll_die

    for seed in range(20):
        rng = random.Random(seed)
        totals = [roll_die(rng, 6) + roll_die(rng, 6) for _ in range(4)]
        if totals.count(max(totals)) == 1:
            assert Game.new(ES, 4, seed=seed).to_move == totals.index(max(totals))


def test_apply_is_pure() -> None:
    g = position(IT, FIVE, bids=["2x3"])
    snapshot = (g.dice, g.bids, g.to_move, g.dice_counts, g.history)
    g.apply(Bid(1, 3, 3))
    g.apply(Dudo(1))
    assert (g.dice, g.bids, g.to_move, g.dice_counts, g.history) == snapshot
    with pytest.raises(AttributeError):
        g.to_move = 2  # type: ignore[misc]


def test_observation_hides_unlifted_cups() -> None:
    dice = [[1, 4, 4, 5, 2], [3, 3, 6, 2, 2], [5]]
    g = position(IT, dice, bids=["3x4"])
    o = g.observation(1)
    assert o.dice == (3, 3, 6, 2, 2) and o.dice_counts == (5, 5, 1) and o.bids == g.bids
    after = g.apply(Dudo(1)).roll(dice=[[6] * 5, [6] * 4, [6]])
    past = after.observation(1).past_rounds[0]
    assert past.revealed == (2, 0) and past.own_dice == (3, 3, 6, 2, 2)
    # seat 1's cup was never lifted: seat 2 must not see it
    seen = after.observation(2).past_rounds[0]
    assert (3, 3, 6, 2, 2) not in seen.shown and seen.own_dice == (5,)


def test_legal_actions_view_is_lazy_and_consistent() -> None:
    for g in [
        position(IT, FIVE),
        position(ES, FIVE),
        position(IT, FIVE, bids=["3x1"]),
        position(ES, [[2], [3, 3], [4]], palifico=True, bids=["1x5"]),
    ]:
        assert isinstance(g.legal_actions(), LegalActions)
        assert_view_agrees(g)
    g = position(IT, FIVE)
    legal = g.legal_actions()
    assert legal[-1] == legal[len(legal) - 1]
    with pytest.raises(IndexError):
        legal[len(legal)]


def test_start_position_validation() -> None:
    with pytest.raises(ValueError):
        Game.start(IT, [[2] * 6, [3]], 0)
    with pytest.raises(ValueError):
        Game.start(IT, [[2], []], 0)
    with pytest.raises(ValueError):
        Game.start(IT, [[2], [3]], 2)
    with pytest.raises(ValueError):
        Game.start(IT, [[], [3], [4]], 0)
    with pytest.raises(ValueError):
        Game.start(IT, [[9], [3]], 0)


def test_observations_share_past_round_views_without_leaking() -> None:
    g = position(IT, [[1, 4, 4, 5, 2], [3, 3, 6, 2, 2], [5]], bids=["3x4"]).apply(Dudo(1))
    g = g.roll(dice=[[2] * 5, [3] * 4, [4]])
    first, again = g.observation(2).past_rounds[0], g.observation(2).past_rounds[0]
    assert first is again  # built once per finished round, then shared
    assert first.own_dice == (5,) and first.revealed == (2, 0)
    assert g.observation(1).past_rounds[0].own_dice == (3, 3, 6, 2, 2)
    assert (3, 3, 6, 2, 2) not in first.shown  # seat 1's cup was never lifted


def test_fast_builders_set_every_field() -> None:
    """The engine builds games, results and records without the dataclass ``__init__``
    (for speed): every field must still be set, and the value equal its constructor's."""
    import dataclasses

    from perudo_rules.engine.fastplay import step_play

    game = step_play(load_variant("italian"), 4, random.Random(3))
    objs: list[Any] = [game, *game.history, *(r.result for r in game.history)]
    for obj in objs:
        values = {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.init}
        assert type(obj)(**values) == obj


@pytest.mark.parametrize("players", [1, 7, 2.5, 3.0, "4", "12", True, None])
def test_every_seat_count_is_refused_as_the_kernel_says(players: Any) -> None:
    """Game.start, Game.new, the fast path and the simulation take a seat count; each
    refuses a bad one with the kernel's own reason (seats_verdict), nothing coerced."""
    from perudo_rules.analysis.simulate import simulate
    from perudo_rules.engine.fastplay import play
    from perudo_rules.engine.start import seats_verdict

    v = load_variant("italian")
    bad = seats_verdict(v.rules, players, v.id)
    assert bad is not None
    calls = [
        lambda: Game.new(v, players, seed=1),
        lambda: play(v, players, random.Random(1)),
        lambda: simulate(v, players=players, games=1),
    ]
    if type(players) is int:  # Game.start counts the cups it is given
        calls.append(lambda: Game.start(v, [[2, 3]] * players, first_player=0))
    for call in calls:
        with pytest.raises(ValueError) as err:
            call()
        assert str(err.value) == bad.message


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"dice": "12"}, "dice must be one list of dice per seat"),
        ({"dice": [[2.5, 3], [4]]}, "seat 0: 2.5 is not a face of a d6"),
        ({"dice": [[2, "3"], [4]]}, "seat 0: '3' is not a face of a d6"),
        ({"dice": [[2, True], [4]]}, "seat 0: True is not a face of a d6"),
        ({"dice": [[2, 3], 4]}, "seat 1: expected a list of dice, not 4"),
        ({"dice": [[2, 3], "44"]}, "seat 1: expected a list of dice"),
        ({"first_player": None}, "first_player must be a whole number, not None"),
        ({"first_player": 0.0}, "first_player must be a whole number, not 0.0"),
        ({"first_player": False}, "first_player must be a whole number, not False"),
        ({"round": 2.0}, "round must be a whole number, not 2.0"),
        ({"round": "2"}, "round must be a whole number"),
        ({"palifico_used": [1.0]}, "palifico_used must be a whole number, not 1.0"),
        ({"palifico_used": [True]}, "palifico_used must be a whole number"),
    ],
)
def test_start_refuses_what_is_not_a_whole_number(kwargs: dict[str, Any], message: str) -> None:
    """Issue 19: Game.start used to coerce 2.5 to 2 and "12" to two seats, and raised
    TypeError for first_player=None; every non-integer is now a ValueError."""
    v = load_variant("italian")
    args: dict[str, Any] = {"dice": [[2, 3], [4]], "first_player": 0, **kwargs}
    with pytest.raises(ValueError, match=re.escape(message)):
        Game.start(v, **args)


@pytest.mark.parametrize(
    ("lang", "kwargs", "message"),
    [
        ("it", {"dice": "12"}, "i dadi vanno dati come un elenco di dadi per posto, non '12'"),
        ("es", {"dice": [[2, 7], [4]]}, "puesto 0: 7 no es una cara de un dado de 6 caras"),
        ("it", {"round": 0}, "i round si contano da 1"),
        ("es", {"first_player": 0.0}, "first_player debe ser un número entero, no 0.0"),
    ],
)
def test_start_says_what_is_wrong_in_the_readers_language(
    lang: str, kwargs: dict[str, Any], message: str
) -> None:
    """Every sentence a user reads comes from the catalogues: Game.start's refusals too."""
    from perudo_rules.base.i18n import use_language

    args: dict[str, Any] = {"dice": [[2, 3], [4]], "first_player": 0, **kwargs}
    with use_language(lang), pytest.raises(ValueError) as err:
        Game.start(load_variant("italian"), **args)
    assert str(err.value) == message


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ([[2, 3.0], [4]], "seat 0: 3.0 is not a face of a d6"),
        ("12", "dice must be one list of dice per seat"),
        ([[2, 3], [7]], "seat 1: 7 is not a face of a d6"),
        ([[2, 3], None], "seat 1: expected a list of dice, not None"),
    ],
)
def test_roll_refuses_what_is_not_a_die(dice: Any, message: str) -> None:
    g = Game.start(load_variant("italian"), [[2, 3], [4, 4]], first_player=0)
    g = g.apply(Bid(0, 1, 5)).apply(Dudo(1))  # seat 1 doubts: no 5 shows, seat 0 loses one
    assert g.awaiting_roll and g.dice_counts == (1, 2)
    with pytest.raises(ValueError, match=re.escape(message)):
        g.roll(dice=dice)
    assert g.roll(dice=[[6], [1, 2]]).dice == ((6,), (1, 2))


def test_fast_builders_take_every_field_by_keyword_only() -> None:
    """The generated builders name every field they set: no positional call can swap two
    ``int | None`` fields; the bid transition takes only what a bid changes."""
    import dataclasses
    import inspect

    from perudo_rules.engine.rounds import RoundRecord, RoundResult

    for build, cls in (
        (Game._build, Game),
        (RoundResult._build, RoundResult),
        (RoundRecord._build, RoundRecord),
    ):
        params = inspect.signature(build).parameters.values()
        assert all(p.kind is p.KEYWORD_ONLY for p in params)
        assert [p.name for p in params] == [
            f.name.lstrip("_") for f in dataclasses.fields(cls) if f.init
        ]
    after_bid = inspect.signature(Game._after_bid).parameters
    assert [(n, p.kind) for n, p in after_bid.items()] == [
        ("src", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        ("to_move", inspect.Parameter.KEYWORD_ONLY),
        ("bids", inspect.Parameter.KEYWORD_ONLY),
    ]
    g = Game.start(load_variant("italian"), [[2, 3], [4]], first_player=0)
    with pytest.raises(TypeError):
        Game._after_bid(g, 1, ())
