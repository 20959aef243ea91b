"""The kernel's decision trace (:mod:`perudo_rules.engine.trace`): ``Game.decision`` names
the rules that decided any action, ``Game.outcome_decision`` those behind each field of a
called round's outcome.

The property holds the trace to the verdict over every bundled edition (legal exactly when
``violation`` is ``None``, refused by the very rule ``violation`` names, every rule id a
real one); the hand-built positions pin the deciding rule of each case the conformance kit
asks about.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import boosted, bundled_variants, candidates, positions

from perudo_rules import Bid, Calza, Dudo, Game, IllegalAction, Leave, Reroll, load_variant
from perudo_rules.editions.corerules import core_rules
from perudo_rules.editions.knobs import KNOB_PATHS
from perudo_rules.engine.trace import OUTCOME_FIELDS, Decision
from perudo_rules.records.position import Position

RULE_IDS = set(KNOB_PATHS) | set(core_rules())


def _game(dice: list[list[int]], first: int = 0, variant: str = "italian",
          overrides: dict[str, Any] | None = None, **kw: Any) -> Game:  # fmt: skip
    cups = tuple(tuple(c) for c in dice)
    v = load_variant(variant, overrides=overrides) if overrides else load_variant(variant)
    return Position(dice=cups, first_player=first, **kw).game(v)


def _play(g: Game, *actions: Any) -> Game:
    for a in actions:
        g = g.apply(a)
    return g


# --- (a) the trace agrees with the verdict, for any action ---------------------------------


def _odd_actions(g: Game) -> list[Any]:
    """Actions no edition allows, or that hold the wrong types: zero dice, faces out of
    range, seats that are not seats, a float quantity, a thing that is no action."""
    n, faces = g.players, g.rules.dice_faces
    return [
        Bid(0, 0, 1), Bid(0, -1, 2), Bid(n, 1, 1), Bid(-1, 1, 1), Bid(0, 1, 0),
        Bid(0, 1, faces + 1), Bid(0, 10**6, 1), Bid(0, 1.0, 2), Bid(True, 1, 2),  # type: ignore[arg-type]
        Dudo(n), Calza(-1), Leave(n), Leave(0), Reroll(0, ()), Reroll(n, (1,)),
        Reroll(0, (faces + 1,)), "dudo", None,
    ]  # fmt: skip


@st.composite
def traced_positions(draw: st.DrawFn) -> Game:
    """A position of a bundled edition part-way into a round, sometimes just after the
    round was called (awaiting a roll, or over)."""
    g = draw(positions(bundled_variants()))
    calls = [a for a in g.legal_actions() if isinstance(a, Dudo | Calza)]
    if calls and draw(st.integers(0, 4)) == 0:
        g = g.apply(draw(st.sampled_from(calls)))
    return g


@boosted()
@given(traced_positions(), st.data())
def test_the_decision_agrees_with_the_verdict(g: Game, data: st.DataObject) -> None:
    pool = candidates(g) + _odd_actions(g)
    picks = data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=40))
    for a in [*picks, *g.legal_actions()[:20]]:
        d = g.decision(a)
        bad = g.violation(a)
        assert isinstance(d, Decision)
        assert d.legal == (bad is None), (a, d, bad)
        if bad is not None:
            assert d.rule == bad.rule, (a, d, bad)
        assert d.rules and len(set(d.rules)) == len(d.rules), d
        assert set(d.rules) <= RULE_IDS, set(d.rules) - RULE_IDS


@boosted()
@given(positions(bundled_variants()))
def test_every_outcome_field_names_its_rules(g: Game) -> None:
    for call in [a for a in g.legal_actions() if isinstance(a, Dudo | Calza)]:
        why = g.outcome_decision(call)
        assert tuple(why) == OUTCOME_FIELDS
        for field, rules in why.items():
            assert rules and set(rules) <= RULE_IDS, (field, rules)
        after = g.apply(call)
        assert why["eliminated"][0] == "play.elimination"
        assert why["eliminated"][1:] == why["delta"]
        assert why["winner"][0] == "end.condition"
        assert (why["next"][0] == "end.condition") == after.is_over
        if not after.is_over and after.palifico:
            assert why["next"][0] == "play.palifico_opener"
            assert why["palifico"][0] == "palifico.trigger"


# --- (b) the rule that allows each kind of action --------------------------------------------


def test_an_opening_bid_is_allowed_by_the_range() -> None:
    g = _game([[2, 3, 4], [2, 2, 1], [5, 6, 1]])
    d = g.decision(Bid(0, 2, 3))
    assert d == Decision(("play.bid_range", "play.seat", "play.turn"), True)
    assert d.rule == "play.bid_range"


def test_a_raise_of_another_face_is_allowed_by_the_order() -> None:
    g = _play(_game([[2, 3, 4], [2, 2, 1], [5, 6, 1]]), Bid(0, 2, 3))
    for bid in (Bid(1, 2, 4), Bid(1, 3, 2)):
        d = g.decision(bid)
        assert d.legal and d.rule == "bidding.order", d
        assert "bidding.wild_worth" not in d.rules and "bidding.wild_opening" not in d.rules


def test_a_raise_that_converts_to_or_from_the_wild_face_is_allowed_by_its_worth() -> None:
    g = _play(_game([[2, 3, 4, 5], [2, 2, 1, 4], [5, 6, 1, 3]]), Bid(0, 2, 3))
    d = g.decision(Bid(1, 1, 1))  # to wilds: ceil(2 / 2) = 1 (bidding.wild_worth: 2)
    assert d.legal and d.rule == "bidding.wild_worth"
    assert {"bidding.order", "bidding.wild_rank", "bidding.wild_opening"} <= set(d.rules)
    back = _play(g, Bid(1, 1, 1))
    assert back.decision(Bid(2, 3, 4)).rule == "bidding.wild_worth"  # back: 2 * 1 + 1
    assert back.decision(Bid(2, 2, 4)).rule == "bidding.wild_worth"  # refused by it too
    assert not back.decision(Bid(2, 2, 4)).legal
    # the same face on both sides is the plain order
    assert _play(back, Bid(2, 2, 1)).decision(Bid(0, 3, 1)).rule == "bidding.order"


def test_an_opening_bid_on_the_wild_face() -> None:
    g = _game([[2, 3, 4], [2, 2, 1], [5, 6, 1]])
    d = g.decision(Bid(0, 1, 1))
    assert d.legal and d.rule == "bidding.wild_opening" and "play.bid_range" in d.rules
    banned = _game([[2, 3, 4], [2, 2, 1]], overrides={"bidding.wild_opening": "not_as_opening_bid"})
    d = banned.decision(Bid(0, 1, 1))
    assert not d.legal and d.rule == "bidding.wild_opening"
    palifico = _game([[3], [2, 2, 1], [5, 6, 1]], palifico=True)
    d = palifico.decision(Bid(0, 1, 1))
    assert d.legal and d.rule == "palifico.wild_bids"
    assert "bidding.wild_opening" not in d.rules


def test_a_face_change_in_a_locked_palifico_round() -> None:
    # italian: locked except for a seat with a single die; the opener may not change it
    g = _play(_game([[3], [2], [5, 6, 1]], palifico=True), Bid(0, 1, 3))
    d = g.decision(Bid(1, 2, 4))  # seat 1 holds one die: the lock's exception
    assert d.legal and d.rule == "palifico.face_lock" and "bidding.order" in d.rules
    assert "palifico.opener_may_change" not in d.rules
    g = _play(g, Bid(1, 2, 3))
    d = g.decision(Bid(2, 3, 4))  # seat 2 holds three: locked
    assert not d.legal and d.rule == "palifico.face_lock"
    opener = _play(g, Bid(2, 3, 3))
    d = opener.decision(Bid(0, 4, 4))
    assert not d.legal and d.rule == "palifico.face_lock"
    assert "palifico.opener_may_change" in d.rules
    free = _play(
        _game([[3], [2], [5, 6, 1]], palifico=True,
              overrides={"palifico.opener_may_change": True}),
        Bid(0, 1, 3), Bid(1, 2, 3), Bid(2, 3, 3),
    )  # fmt: skip
    d = free.decision(Bid(0, 4, 4))
    assert d.legal and d.rule == "palifico.opener_may_change" and "palifico.face_lock" in d.rules
    d = free.decision(Bid(0, 4, 3))
    assert d.rule == "bidding.order" and "palifico.face_lock" not in d.rules  # same face


def test_a_bid_over_the_dice_in_play_without_a_cap() -> None:
    uncapped = {"bidding.quantity_cap": "none"}
    g = _game([[2, 3], [2, 2], [5, 6]], overrides=uncapped)
    d = g.decision(Bid(0, 9, 3))
    assert d.legal and d.rule == "bidding.quantity_cap"
    g = _play(g, Bid(0, 2, 3))
    assert g.decision(Bid(1, 7, 3)).rule == "bidding.quantity_cap"
    assert g.decision(Bid(1, 6, 3)).rule == "bidding.order"  # within the dice in play
    capped = _game([[2, 3], [2, 2], [5, 6]])
    d = capped.decision(Bid(0, 7, 3))
    assert not d.legal and d.rule == "bidding.quantity_cap"


def test_who_may_call() -> None:
    g = _play(_game([[2, 3, 4], [2, 2, 1], [5, 6, 1]]), Bid(0, 2, 3))
    d = g.decision(Dudo(1))
    assert d.legal and d.rule == "challenge.who"
    assert not g.decision(Dudo(2)).legal and g.decision(Dudo(2)).rule == "challenge.who"
    d = g.decision(Calza(2))
    assert d.legal and d.rules[:1] == ("calza.who",)
    assert [r for r in d.rules if r.startswith("calza.")] == [
        "calza.who", "calza.enabled", "calza.min_players",
    ]  # fmt: skip
    assert g.decision(Calza(1)).rule == "calza.who" and not g.decision(Calza(1)).legal
    two = _play(_game([[2, 3], [2, 2]], overrides={"calza.min_players": 3}), Bid(0, 1, 3))
    d = two.decision(Calza(1))
    assert not d.legal and d.rule == "calza.min_players"
    assert "calza.who" not in d.rules  # refused before who may call was read
    pal = _play(_game([[3], [2, 2, 1], [5, 6, 1]], palifico=True), Bid(0, 1, 3))
    assert "calza.in_palifico" in pal.decision(Calza(2)).rules


def test_a_reroll_and_a_leave() -> None:
    g = _game([[2, 3, 4, 5, 6], [2, 2, 1, 4, 4]], variant="bluff")
    rerolls = [a for a in g.legal_actions() if isinstance(a, Reroll)]
    assert rerolls
    d = g.decision(rerolls[0])
    assert d.legal and d.rule == "reroll.enabled"
    assert {"play.reroll", "reroll.min_hidden", "reroll.must_bid"} <= set(d.rules)
    d = _game([[2, 3], [4, 5]]).decision(Reroll(0, (2,)))
    assert not d.legal and d.rule == "reroll.enabled"
    assert g.decision(Leave(1)) == Decision(("play.leave", "play.seat"), True)


def test_refusals_outside_a_round() -> None:
    g = _play(_game([[2, 3, 4], [2, 2, 1], [5, 6, 1]]), Bid(0, 2, 3), Dudo(1))
    assert g.decision(Bid(1, 1, 2)) == Decision(("play.roll",), False)
    over = _play(_game([[2], [3]]), Bid(0, 2, 2), Dudo(1))  # one 2: seat 0 loses its die
    assert over.is_over
    assert over.decision(Dudo(0)) == Decision(("play.game_over",), False)


# --- (c) the rules behind a called round's outcome -----------------------------------------


def test_an_exact_dudo() -> None:
    g = _play(_game([[2, 3, 4], [2, 3, 1], [5, 6, 1]]), Bid(0, 4, 3))  # 3, 3, 1, 1: four
    why = g.outcome_decision(Dudo(1))
    assert why["delta"][0] == "challenge.exact"
    assert {"play.dudo", "challenge.loss", "play.count", "wild.face"} <= set(why["delta"])
    assert why["next"] == ("round.starter",)
    assert why["eliminated"] == ("play.elimination", *why["delta"])
    assert why["winner"] == ("end.condition",)


def test_a_dudo_that_is_not_exact() -> None:
    g = _play(_game([[2, 3, 4], [2, 3, 1], [5, 6, 1]]), Bid(0, 6, 3))  # four, not six
    why = g.outcome_decision(Dudo(1))
    assert why["delta"][0] == "play.dudo" and "challenge.loss" in why["delta"]
    assert "challenge.exact" not in why["delta"]
    assert why["delta"].index("play.count") > 0 and "palifico.wilds_count" not in why["delta"]
    difference = _game([[2, 3, 4], [2, 3, 1], [5, 6, 1]],
                       overrides={"challenge.loss": "difference"})  # fmt: skip
    why = _play(difference, Bid(0, 6, 3)).outcome_decision(Dudo(1))
    assert why["delta"][:1] == ("play.dudo",) and "challenge.loss" in why["delta"]


def test_a_calza() -> None:
    g = _play(_game([[2, 3, 4], [2, 3, 1], [5, 6, 1, 3, 3]]), Bid(0, 6, 3))
    why = g.outcome_decision(Calza(2))  # six: exact, seat 2 holds five, the cap
    assert why["delta"][0] == "calza.gain_cap" and "play.calza" in why["delta"]
    assert why["next"] == ("calza.next_starts",)
    g = _play(_game([[2, 3, 4], [2, 3, 1], [5, 6, 1, 3]]), Bid(0, 5, 3))
    why = g.outcome_decision(Calza(2))  # five: exact, seat 2 holds four: it gains
    assert why["delta"][0] == "play.calza" and "calza.gain_cap" in why["delta"]
    why = g.outcome_decision(Dudo(1))
    assert why["delta"][0] == "challenge.exact"
    g = _play(_game([[2, 3, 4], [2, 3, 1], [5, 6, 1, 3]]), Bid(0, 6, 3))
    why = g.outcome_decision(Calza(2))  # wrong: the caller loses
    assert why["delta"][0] == "play.calza" and "calza.gain_cap" not in why["delta"]


def test_the_next_round_is_palifico() -> None:
    g = _play(_game([[2, 3], [2, 4], [5, 6, 1]]), Bid(0, 2, 3), Dudo(1))
    assert g.palifico
    why = _play(_game([[2, 3], [2, 4], [5, 6, 1]]), Bid(0, 2, 3)).outcome_decision(Dudo(1))
    assert why["next"][0] == "play.palifico_opener"
    assert why["palifico"][0] == "palifico.trigger"
    used = _game([[2, 3], [2, 4], [5, 6, 1]], palifico_used=(1,))
    why = _play(used, Bid(0, 2, 3)).outcome_decision(Dudo(1))
    assert why["palifico"][0] == "palifico.once_per_player"
    assert why["next"][0] == "round.starter"
    off = _game([[2, 3], [2, 4], [5, 6, 1]], overrides={"palifico.enabled": False})
    why = _play(off, Bid(0, 2, 3)).outcome_decision(Dudo(1))
    assert why["palifico"] == ("palifico.enabled",)
    heads = _game([[2, 3], [2, 4]], overrides={"palifico.heads_up": False})
    why = _play(heads, Bid(0, 2, 3)).outcome_decision(Dudo(1))
    assert why["palifico"][0] == "palifico.heads_up"


def test_a_palifico_round_counts_without_wilds() -> None:
    g = _play(_game([[3], [2, 3, 1], [5, 6, 1]], palifico=True), Bid(0, 2, 3))
    why = g.outcome_decision(Dudo(1))
    assert "palifico.wilds_count" in why["delta"] and "wild.face" not in why["delta"]


def test_an_eliminated_starter_passes_the_start_on() -> None:
    # seat 0 holds one die and loses it: it would open (round.starter: loser)
    g = _play(_game([[3], [2, 3, 1], [5, 6, 1]], first=2), Bid(2, 5, 3))
    why = g.outcome_decision(Dudo(0))  # three 3s (wilds count), not five: seat 2 loses
    assert why["next"][0] == "round.starter"
    g = _play(_game([[3], [2, 3, 1], [5, 6, 1]], first=2), Bid(2, 2, 3))
    why = g.outcome_decision(Dudo(0))  # three, at least two: seat 0 loses its last die
    assert why["next"][0] == "play.next_seat" and "round.starter" in why["next"]
    assert why["eliminated"][0] == "play.elimination"
    assert g.apply(Dudo(0)).dice_counts[0] == 0


def test_the_game_is_over() -> None:
    g = _play(_game([[2], [3, 4]]), Bid(0, 2, 2))
    why = g.outcome_decision(Dudo(1))  # one 2, not two: seat 0 loses its last die
    assert g.apply(Dudo(1)).is_over
    assert why["next"] == ("end.condition", "round.starter")
    assert why["winner"] == ("end.condition",)
    assert why["palifico"] == ("end.condition",)


def test_the_outcome_of_an_illegal_call_is_refused() -> None:
    g = _play(_game([[2, 3], [2, 4], [5, 6, 1]]), Bid(0, 2, 3))
    with pytest.raises(IllegalAction):
        g.outcome_decision(Dudo(2))  # italian: only the player to move
    with pytest.raises(TypeError):
        g.outcome_decision(Bid(1, 3, 3))  # type: ignore[arg-type]
