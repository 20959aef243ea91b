"""Structured refusals (issue 21): every refusal carries its rule id, a message id and the
values its sentence is made of, and the English sentence is made from them.

Each message id of :data:`perudo_rules.base.messages.ENGLISH` is reached by a real refusal
(the kernel, the game, the start of a game, the referee), with its real parameters: by a
case here, or by a scenario of ``spec/scenarios/`` that expects the refusal (a new knob's
refusal is reached by the scenario its recipe writes); the template's placeholders are
exactly the parameters supplied; random actions show that ``IllegalAction.message`` is
always ``format_message(message_id, params)``.
"""

from __future__ import annotations

import ast
import copy
import functools
import json
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from perudo_rules import (
    Bid,
    Calza,
    Dudo,
    Game,
    IllegalAction,
    Refused,
    Reroll,
    load_variant,
    parse_action,
    parse_bid,
    referee,
    to_record,
)
from perudo_rules.base.limits import MAX_BID_QUANTITY
from perudo_rules.base.messages import (
    CATALOGUES,
    ENGLISH,
    Plural,
    Refusal,
    format_message,
    template_fields,
)
from perudo_rules.conform.scenarios import load_scenarios, run_scenario
from perudo_rules.engine.actionmap import action_map
from perudo_rules.engine.start import opening_verdict, seats_verdict
from perudo_rules.records.position import Roll, parse_step
from perudo_rules.records.recordformat import Violation
from tests.strategies import candidates, positions

PACKAGE = Path(__file__).resolve().parent.parent / "perudo_rules"
DICE = [[1, 2, 3, 4, 5], [2, 2, 3, 6, 6], [4, 4, 5, 5, 6]]


def start(variant: str = "italian", dice: Any = DICE, first: int = 0, **kw: Any) -> Game:
    return Game.start(load_variant(variant, overrides=kw.pop("overrides", None)), dice, first, **kw)


def after(game: Game, *texts: str) -> Game:
    for text in texts:
        step = parse_step(text)
        game = game.roll(dice=step.dice) if isinstance(step, Roll) else game.apply(step)
    return game


def refused(game: Game, action: object) -> Refusal:
    """The game's refusal of ``action``; ``apply`` raises the same refusal."""
    bad = game.violation(action)
    assert bad is not None, (game, action)
    with pytest.raises(IllegalAction) as err:
        game.apply(action)  # type: ignore[arg-type]
    assert err.value.refusal == bad
    return bad


def _refused_by(call: Callable[[], object]) -> Refusal:
    """The refusal of the :class:`~perudo_rules.base.errors.Refused` that ``call`` raises."""
    with pytest.raises(Refused) as err:
        call()
    return err.value.refusal


def violation_of(record: dict[str, Any]) -> Refusal:
    v = referee(json.loads(json.dumps(record))).violation
    assert v is not None
    return v.refusal


def _right_calza() -> Game:
    """Seat 2 (four dice) calls a right Calza on 4x4 and gains a die."""
    dice = [[1, 2, 3, 4], [2, 2, 3, 6, 6], [4, 4, 5, 5]]
    return after(start("italian", dice), "0:4x4", "2:calza")


def record(game: Game, change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    rec = copy.deepcopy(to_record(game, full=True))
    change(rec)
    return rec


def record_as(
    game: Game, viewer: int, change: Callable[[dict[str, Any]], object]
) -> dict[str, Any]:
    """Seat ``viewer``'s redacted record of ``game``, changed by ``change``."""
    rec = copy.deepcopy(to_record(game, viewer=viewer))
    change(rec)
    return rec


def _round0(**fields: Any) -> Callable[[dict[str, Any]], object]:
    return lambda r: r["rounds"][0].update(fields)


def _two_rounds() -> Game:
    """Round 1 ends with seat 1 losing a Dudo (four fours show); round 2 is rolled."""
    g = after(start(), "0:3x4", "1:dudo")
    return g.roll(dice=[[6, 6, 6, 6, 6], [3, 3, 3, 3], [2, 2, 2, 2, 2]])


def _continue(r: dict[str, Any]) -> None:
    nxt = copy.deepcopy(r["rounds"][-1])
    nxt["round"] += 1
    nxt.pop("result", None)
    nxt["actions"] = []
    r["rounds"].append(nxt)


def _finished() -> Game:
    """Two seats with one die each: seat 1's Dudo is lost, the game is over."""
    return after(start("italian", [[4], [4]]), "0:1x4", "1:dudo")


def _bluff_rerolled(**kw: Any) -> Game:
    """Bluff: seat 0 sets its two fives aside and re-rolls its 1 into a 3."""
    return after(
        start("bluff", [[1, 5, 5], [2, 3, 6], [4, 4, 2]], **kw),
        "0:reroll 5,5",
        "roll [[3], [], []]",
    )


def _bluff_top_bid() -> Game:
    """Bluff, one die each: seat 0 makes the highest bid the round's table lists."""
    g = start("bluff", [[2], [3]])
    q, f = g.space.bids[-1]
    return g.apply(Bid(0, q, f))


_ITALIAN = load_variant("italian").rules
_OPENSPIEL = load_variant("openspiel-liars-dice").rules

#: message id -> (a refusal made by the package, its rule, its parameters)
_ITALIAN_IDS = action_map("italian", 4)

CASES: dict[str, tuple[Callable[[], Refusal | None], str, dict[str, Any]]] = {
    # the kernel: bids
    "not-your-turn": (
        lambda: refused(start(), Bid(1, 3, 4)),
        "play.turn",
        {"to_move": 0, "seat": 1},
    ),
    "not-a-bid": (
        lambda: refused(start(), Bid(0, 3, 7)),
        "play.bid_range",
        {"quantity": 3, "face": 7, "faces": 6},
    ),
    "beyond-notation": (
        lambda: refused(start("textarena-liars-dice", [[1, 2], [3, 4]]), Bid(0, 10**12, 3)),
        "play.bid_range",
        {"quantity": 10**12, "most": MAX_BID_QUANTITY},
    ),
    "over-quantity-limit": (
        lambda: refused(
            start(
                "italian",
                [[1, 3, 3], [4, 5, 1], [2, 2, 6]],
                overrides={"bidding.quantity_limit": 4},
            ),
            Bid(0, 5, 3),
        ),
        "bidding.quantity_limit",
        {"quantity": 5, "face": 3},
    ),
    "over-dice-in-play": (
        lambda: refused(start(), Bid(0, 16, 4)),
        "bidding.quantity_cap",
        {"dice": 15, "quantity": 16},
    ),
    "no-wild-opening": (
        lambda: refused(start("spanish"), Bid(0, 2, 1)),
        "bidding.wild_opening",
        {},
    ),
    "no-wild-first-round": (
        lambda: refused(after(start("spanish-literal"), "0:3x4"), Bid(1, 2, 1)),
        "bidding.wild_opening",
        {},
    ),
    "no-wild-opening-palifico": (
        lambda: refused(
            start(
                "italian",
                [[3], [2, 2], [5, 5]],
                palifico=True,
                overrides={"palifico.wild_bids": "not_as_opening_bid"},
            ),
            Bid(0, 1, 1),
        ),
        "palifico.wild_bids",
        {},
    ),
    "no-wild-palifico": (
        lambda: refused(
            after(
                start(
                    "italian",
                    [[3], [2, 2], [5, 5]],
                    palifico=True,
                    overrides={"palifico.wild_bids": "forbidden", "palifico.face_lock": "free"},
                ),
                "0:1x3",
            ),
            Bid(1, 3, 1),
        ),
        "palifico.wild_bids",
        {},
    ),
    "face-locked": (
        lambda: refused(
            after(start("spanish", [[3], [2, 2], [5, 5]], palifico=True), "0:1x3"), Bid(1, 2, 4)
        ),
        "palifico.face_lock",
        {"face": 3},
    ),
    "lowers-quantity": (
        lambda: refused(after(start("textarena-liars-dice", DICE[:2]), "0:3x4"), Bid(1, 2, 5)),
        "bidding.order",
        {"quantity": 2, "face": 5, "standing_quantity": 3, "standing_face": 4},
    ),
    "lowers-face": (
        lambda: refused(after(start("textarena-liars-dice", DICE[:2]), "0:3x4"), Bid(1, 4, 3)),
        "bidding.order",
        {"quantity": 4, "face": 3, "standing_quantity": 3, "standing_face": 4},
    ),
    "repeats-bid": (
        lambda: refused(after(start("textarena-liars-dice", DICE[:2]), "0:3x4"), Bid(1, 3, 4)),
        "bidding.order",
        {"quantity": 3, "face": 4, "standing_quantity": 3, "standing_face": 4},
    ),
    "not-a-raise": (
        lambda: refused(after(start(), "0:3x4"), Bid(1, 2, 4)),
        "bidding.order",
        {"quantity": 2, "face": 4, "standing_quantity": 3, "standing_face": 4},
    ),
    "wild-bid-needs": (  # the example: after 3x4 a wild bid needs 2
        lambda: refused(after(start(), "0:3x4"), Bid(1, 1, 1)),
        "bidding.wild_worth",
        {"standing_quantity": 3, "standing_face": 4, "need": 2},
    ),
    "ordinary-bid-needs": (  # back from 2 wilds needs 2 * 2 + 1
        lambda: refused(after(start(), "0:2x1"), Bid(1, 4, 4)),
        "bidding.wild_worth",
        {"standing_quantity": 2, "standing_face": 1, "need": 5},
    ),
    # the kernel: calls and actions
    "dudo-only-to-move": (
        lambda: refused(after(start(), "0:3x4"), Dudo(2)),
        "challenge.who",
        {"to_move": 1},
    ),
    "dudo-own-bid": (
        lambda: refused(
            after(start("italian-literal", [[3], [2, 2], [5, 5]], palifico=True), "0:1x3"), Dudo(0)
        ),
        "challenge.who",
        {},
    ),
    "no-calza": (
        lambda: refused(after(start("openspiel-liars-dice", DICE[:2]), "0:3x4"), Calza(1)),
        "calza.enabled",
        {},
    ),
    "calza-too-few-seats": (
        lambda: refused(after(start("mso-perudo", DICE[:2]), "0:3x4"), Calza(1)),
        "calza.min_players",
        {"seats": 2},
    ),
    "no-calza-palifico": (
        lambda: refused(
            after(
                start(
                    "italian",
                    [[3], [2, 2], [5, 5]],
                    palifico=True,
                    overrides={"calza.in_palifico": False},
                ),
                "0:1x3",
            ),
            Calza(2),
        ),
        "calza.in_palifico",
        {},
    ),
    "calza-own-bid": (lambda: refused(after(start(), "0:3x4"), Calza(0)), "calza.who", {}),
    "calza-to-move": (lambda: refused(after(start(), "0:3x4"), Calza(1)), "calza.who", {}),
    "calza-only-to-move": (
        lambda: refused(after(start("mso-perudo"), "0:3x4"), Calza(2)),
        "calza.who",
        {"to_move": 1},
    ),
    "seat-without-dice": (lambda: refused(start(), Bid(5, 3, 4)), "play.seat", {"seat": 5}),
    "dudo-without-bid": (lambda: refused(start(), Dudo(0)), "play.bid_needed", {}),
    "calza-without-bid": (lambda: refused(start(), Calza(0)), "play.bid_needed", {}),
    "not-an-action": (lambda: start().violation("dudo"), "play.turn", {"action": "'dudo'"}),
    # an offered out-of-turn call, as the RL adapters ask it (ActionMap.offer_refusal)
    "offered-call-only": (
        lambda: _ITALIAN_IDS.offer_refusal(_ITALIAN_IDS.bid_id(3, 4), 2, True),
        "play.turn",
        {"seat": 2, "action": "3x4"},
    ),
    "no-call-to-pass": (
        lambda: _ITALIAN_IDS.offer_refusal(_ITALIAN_IDS.pass_, 0, False),
        "play.turn",
        {"seat": 0},
    ),
    # the game
    "game-over": (lambda: refused(_finished(), Bid(0, 1, 2)), "play.game_over", {"winner": 0}),
    "round-over": (
        lambda: refused(after(start(), "0:3x4", "1:dudo"), Bid(1, 1, 2)),
        "play.roll",
        {},
    ),
    "roll-mid-round": (lambda: _roll_refusal(start()), "play.roll", {}),
    "roll-mid-round-reroll": (lambda: _roll_refusal(start("bluff")), "play.roll", {}),
    # the re-roll (Bluff: at least one die stays concealed, once a turn, then a bid)
    "no-reroll": (lambda: refused(start(), Reroll(0, (1,))), "reroll.enabled", {}),
    "reroll-no-bid-left": (
        lambda: refused(_bluff_top_bid(), Reroll(1, (3,))),
        "reroll.must_bid",
        {},
    ),
    "reroll-dice-in-the-air": (
        lambda: refused(after(start("bluff"), "0:reroll 4,5"), Bid(0, 1, 2)),
        "play.roll",
        {"seat": 0},
    ),
    "reroll-once-per-turn": (
        lambda: refused(_bluff_rerolled(), Reroll(0, (3,))),
        "reroll.limit",
        {"seat": 0},
    ),
    "reroll-once-per-round": (
        lambda: refused(
            after(
                _bluff_rerolled(overrides={"reroll.limit": "once_per_round"}),
                "0:3x5",
                "1:4x5",
                "2:5x5",
            ),
            Reroll(0, (3,)),
        ),
        "reroll.limit",
        {"seat": 0},
    ),
    "reroll-not-faces": (
        lambda: refused(start("bluff"), Reroll(0, (7,))),
        "play.reroll",
        {"faces": "7", "sides": 6},
    ),
    "reroll-nothing-aside": (lambda: refused(start("bluff"), Reroll(0, ())), "play.reroll", {}),
    "reroll-not-held": (
        lambda: refused(start("bluff"), Reroll(0, (6,))),
        "play.reroll",
        {"seat": 0, "dice": "1 2 3 4 5", "face": 6},
    ),
    "reroll-min-hidden": (
        lambda: refused(start("bluff", [[2, 5, 5], [1, 3, 6]]), Reroll(0, (2, 5, 5))),
        "reroll.min_hidden",
        {"least": 1},
    ),
    "reroll-acts-next": (  # an out-of-turn Calza waits for the re-roller's action
        lambda: refused(
            after(
                start(overrides={"reroll.enabled": True}),
                "0:3x4",
                "1:reroll 6,6",
                "roll [[], [2, 3, 3], []]",
            ),
            Calza(2),
        ),
        "play.turn",
        {"seat": 1},
    ),
    "reroll-must-bid": (
        lambda: refused(
            after(start("bluff"), "0:3x4", "1:reroll 6,6", "roll [[], [2, 3, 3], []]"), Dudo(1)
        ),
        "reroll.must_bid",
        {"seat": 1},
    ),
    # the start of a game
    "seats-not-whole": (
        lambda: seats_verdict(_ITALIAN, 2.5, "italian"),
        "players.min",
        {"players": "2.5"},
    ),
    "seats-out-of-range": (
        lambda: seats_verdict(_ITALIAN, 7, "italian"),
        "players.max",
        {"players": 7, "edition": "italian", "least": 2, "most": 6},
    ),
    "seats-not-exactly": (
        lambda: seats_verdict(_OPENSPIEL, 3, "openspiel-liars-dice"),
        "players.max",
        {"players": 3, "edition": "openspiel-liars-dice", "exactly": 2},
    ),
    "start-round": (
        lambda: opening_verdict(_ITALIAN, [5, 5], 0, round_no=3),
        "play.roll",
        {"round": 3},
    ),
    "start-dice": (
        lambda: opening_verdict(_ITALIAN, [5, 4, 5], 0),
        "dice.per_player",
        {"seat": 1, "held": 4, "dice": 5},
    ),
    "start-palifico": (
        lambda: opening_verdict(_ITALIAN, [5, 5], 0, palifico=True),
        "palifico.trigger",
        {},
    ),
    "start-palifico-used": (
        lambda: opening_verdict(_ITALIAN, [5, 5], 0, palifico_used=[1]),
        "palifico.once_per_player",
        {},
    ),
    "start-first-player": (
        lambda: opening_verdict(_OPENSPIEL, [_OPENSPIEL.dice_per_player] * 2, 1),
        "setup.first_player",
        {"seat": 1},
    ),
    # game records, as the referee finds them
    "record-cups": (
        lambda: violation_of(record(start(), _round0(dice=DICE[:2]))),
        "play.roll",
        {"cups": 2, "seats": 3},
    ),
    "record-not-a-face": (
        lambda: violation_of(record(start(), _round0(dice=[DICE[0], [2, 2, 3, 6, 7], DICE[2]]))),
        "play.roll",
        {"seat": 1, "die": 7, "faces": 6},
    ),
    "record-too-many-dice": (
        lambda: violation_of(record(start(), _round0(dice=[DICE[0], [2] * 6, DICE[2]]))),
        "dice.max_per_player",
        {"seat": 1, "held": 6, "most": 5},
    ),
    "record-two-seats": (
        lambda: violation_of(
            record(start("italian", [[1, 2], [3], []]), _round0(dice=[[1], [], []]))
        ),
        "play.roll",
        {},
    ),
    "record-opener-without-dice": (
        lambda: violation_of(record(start("italian", [[1, 2], [3], []]), _round0(first_player=2))),
        "play.next_seat",
        {"seat": 2},
    ),
    "record-no-palifico": (
        lambda: violation_of(
            record(start("mso-perudo", [[1, 2], [3], [4]]), _round0(palifico=True))
        ),
        "palifico.enabled",
        {"edition": "mso-perudo"},
    ),
    "record-palifico-opener": (
        lambda: violation_of(record(start("italian", [[1, 2], [3], [4]]), _round0(palifico=True))),
        "play.palifico_opener",
        {"seat": 0, "held": 2},
    ),
    "record-game-over": (
        lambda: violation_of(record(_finished(), _continue)),
        "play.game_over",
        {"winner": 0},
    ),
    "record-round-not-ended": (
        lambda: violation_of(record(after(start(), "0:3x4"), _continue)),
        "play.roll",
        {},
    ),
    "record-round-number": (
        lambda: violation_of(record(_two_rounds(), lambda r: r["rounds"][1].update(round=5))),
        "play.roll",
        {"previous": 1, "round": 5},
    ),
    "record-rolled": (
        lambda: violation_of(
            record(_two_rounds(), lambda r: r["rounds"][1]["dice"].__setitem__(1, [3]))
        ),
        "play.roll",
        {"seat": 1, "rolled": 1, "held": 4, "round": 1},
    ),
    "record-no-reroll-waiting": (
        lambda: violation_of(
            record(
                after(start("bluff"), "0:3x4"),
                lambda r: r["rounds"][0]["actions"].append("roll [[1], [], []]"),
            )
        ),
        "play.roll",
        {},
    ),
    "record-rerolled": (
        lambda: violation_of(
            record(
                _bluff_rerolled(),
                lambda r: r["rounds"][0]["actions"].__setitem__(1, "roll [[1, 2], [], []]"),
            )
        ),
        "play.roll",
        {"seat": 0, "rolled": 2, "held": 1},
    ),
    "record-opener": (
        lambda: violation_of(
            record(_two_rounds(), lambda r: r["rounds"][1].update(first_player=0))
        ),
        "round.starter",
        {"expected": 1, "seat": 0},
    ),
    "record-palifico-expected": (
        lambda: violation_of(
            record(
                after(start("italian", [[4, 4], [4], [5, 5]]), "0:4x4", "1:dudo").roll(
                    dice=[[2], [3], [5, 5]]
                ),
                lambda r: r["rounds"][1].update(palifico=False),
            )
        ),
        "palifico.trigger",
        {},
    ),
    "record-palifico-unexpected": (
        lambda: violation_of(record(_two_rounds(), lambda r: r["rounds"][1].update(palifico=True))),
        "palifico.trigger",
        {},
    ),
    # a result stated otherwise than the rules give it: a sentence per field
    **{
        f"record-result-{field.replace('_', '-')}": (
            lambda field=field, wrong=wrong: violation_of(
                record(
                    after(start(), "0:3x4", "1:dudo"),
                    lambda r: r["rounds"][0]["result"].update({field: wrong}),
                )
            ),
            rule,
            {"stated": stated, "actual": actual},
        )
        for field, wrong, rule, stated, actual in (
            ("kind", "calza", "play.dudo", "Calza", "Dudo"),
            ("caller", 2, "play.dudo", "2", "1"),
            ("bid", "4x4", "play.dudo", "4x4", "3x4"),
            ("count", 9, "play.count", "9", "4"),
            ("loser", 2, "play.dudo", "2", "1"),
            ("revealed", [0], "play.reveal", "[0]", "[2, 0]"),
            ("next_player", 2, "round.starter", "2", "1"),
            ("next_palifico", True, "palifico.trigger", "true", "false"),
        )
    },
    # a result that names no seat where the rules name one, or the other way round
    "record-result-gainer": (
        lambda: violation_of(record(_right_calza(), lambda r: r["rounds"][0]["result"].update(
            gainer=0))),
        "play.calza",
        {"stated": "0", "actual": "2"},
    ),
    "record-result-gainer-none": (
        lambda: violation_of(record(_right_calza(), lambda r: r["rounds"][0]["result"].update(
            gainer=None))),
        "play.calza",
        {"actual": "2"},
    ),
    "record-result-gainer-extra": (
        lambda: violation_of(record(after(start(), "0:3x4", "1:dudo"),
                                    lambda r: r["rounds"][0]["result"].update(gainer=1))),
        "play.calza",
        {"stated": "1"},
    ),
    "record-result-loser-none": (
        lambda: violation_of(record(after(start(), "0:3x4", "1:dudo"),
                                    lambda r: r["rounds"][0]["result"].update(loser=None))),
        "play.dudo",
        {"actual": "1"},
    ),
    "record-result-loser-extra": (
        lambda: violation_of(record(_right_calza(), lambda r: r["rounds"][0]["result"].update(
            loser=1))),
        "play.calza",
        {"stated": "1"},
    ),
    "record-result-next-player-none": (
        lambda: violation_of(record(after(start(), "0:3x4", "1:dudo"),
                                    lambda r: r["rounds"][0]["result"].update(next_player=None))),
        "round.starter",
        {"actual": "1"},
    ),
    "record-result-next-player-extra": (
        lambda: violation_of(record(after(start("italian", [[4], [5]]), "0:1x5", "1:dudo"),
                                    lambda r: r["rounds"][0]["result"].update(next_player=0))),
        "round.starter",
        {"stated": "0"},
    ),
    "record-after-end": (
        lambda: violation_of(
            record(
                after(start(), "0:3x4", "1:dudo"),
                lambda r: r["rounds"][0]["actions"].append("1:2x2"),
            )
        ),
        "play.roll",
        {},
    ),
    "record-result-without-call": (
        lambda: violation_of(
            record(after(start(), "0:3x4", "1:dudo"), lambda r: r["rounds"][0]["actions"].pop())
        ),
        "play.dudo",
        {},
    ),
    "record-lifted-cup-hidden": (
        lambda: violation_of(
            record_as(
                after(start(), "0:3x4", "1:dudo"),
                0,
                lambda r: r["rounds"][0]["dice"].__setitem__(2, [None] * 5),  # lifted at the reveal
            )
        ),
        "play.reveal",
        {"seat": 2},
    ),
    "record-winner-unfinished": (
        lambda: violation_of(record(start(), lambda r: r.update(winner=2))),
        "play.elimination",
        {"seat": 2},
    ),
    "record-winner-differs": (
        lambda: violation_of(record(_finished(), lambda r: r.update(winner=1))),
        "play.elimination",
        {"winner": 0, "stated": "1"},
    ),
    # --- the notation and the seats: ActionSyntaxError and SeatError are Refused too
    "action-syntax": (
        lambda: _refused_by(lambda: parse_action("banana", player=1)),
        "play.notation",
        {"text": "'banana'"},
    ),
    "bid-syntax": (
        lambda: _refused_by(lambda: parse_bid("8y4")),
        "play.notation",
        {"text": "'8y4'"},
    ),
    "roll-syntax": (
        lambda: _refused_by(lambda: parse_step("roll [[1]")),
        "play.notation",
        {"text": "'roll [[1]'"},
    ),
    "roll-not-faces": (
        lambda: _refused_by(lambda: parse_step("roll [[0]]")),
        "play.notation",
        {"text": "'roll [[0]]'"},
    ),
    "another-seats-action": (
        lambda: _refused_by(lambda: parse_action("0:2x3", player=1)),
        "play.notation",
        {"text": "'0:2x3'", "seat": 0, "player": 1},
    ),
    "seat-not-an-int": (
        lambda: _refused_by(lambda: start().legal_actions(seat="1")),  # type: ignore[arg-type]
        "play.seat",
        {"parameter": "seat", "seat": "'1'", "last": 2},
    ),
    "no-such-seat": (
        lambda: _refused_by(lambda: start().observation(3)),
        "play.seat",
        {"parameter": "player", "seat": 3, "last": 2},
    ),
}

#: Message ids that place a violation in a record rather than refuse (``Violation.text``).
PLACES = {"record-at-step", "record-at-round"}


def _roll_refusal(game: Game) -> Refusal:
    with pytest.raises(IllegalAction) as err:
        game.roll(dice=DICE)
    return err.value.refusal


@functools.cache
def scenario_refusals() -> tuple[Refusal, ...]:
    """The refusal of every step of a bundled scenario expected illegal, under each of its
    variants."""
    return tuple(
        refusal
        for sc in load_scenarios()
        for vid in sc.variants
        for refusal in run_scenario(sc, vid)
    )


def test_every_message_id_is_reached() -> None:
    """By a case here, or by a scenario that expects its refusal."""
    reached = set(CASES) | PLACES | {r.message_id for r in scenario_refusals()}
    missing = sorted(set(ENGLISH) - reached)
    assert not missing, (
        f"no refusal makes {missing}: write a scenario in spec/scenarios/ that expects it "
        "(illegal: RULE), or a case in CASES here"
    )
    assert set(CASES) | PLACES <= set(ENGLISH)


def _carries_its_values(refusal: Refusal) -> None:
    """The refusal's sentence is its template made from exactly its parameters."""
    rule, message_id, params = refusal.rule, refusal.message_id, dict(refusal.params)
    assert template_fields(ENGLISH[message_id]) == set(params)
    text = refusal.message
    assert text == format_message(message_id, refusal.params) == refusal.text("en")
    assert "{" not in text and "\n" not in text and text
    assert str(refusal) == f"{text} [{rule}]"
    assert pickle.loads(pickle.dumps(refusal)) == refusal
    assert json.loads(json.dumps(refusal.to_json())) == {
        "rule": rule,
        "message_id": message_id,
        "params": params,
        "message": text,
    }


@pytest.mark.parametrize("message_id", sorted(CASES))
def test_each_refusal_carries_its_real_values(message_id: str) -> None:
    make, rule, params = CASES[message_id]
    refusal = make()
    assert refusal is not None
    assert (refusal.rule, refusal.message_id, dict(refusal.params)) == (rule, message_id, params)
    _carries_its_values(refusal)


def test_each_refusal_a_scenario_meets_carries_its_values() -> None:
    for refusal in scenario_refusals():
        _carries_its_values(refusal)


def _message(message_id: str) -> str:
    refusal = CASES[message_id][0]()
    assert refusal is not None
    return refusal.message


def test_sentences_are_made_from_the_values() -> None:
    assert _message("wild-bid-needs") == "after 3x4 a wild bid needs at least 2 dice"
    assert _message("seats-out-of-range") == "7 seats; italian plays with 2 to 6"
    beyond = _message("beyond-notation")
    assert beyond.startswith("1000000000000 dice: no bid names more than 999,999,999 ")
    huge = Refusal("play.bid_range", "beyond-notation", {"quantity": 10**5000, "most": 9})
    assert huge.message.startswith("a number of about 5001 digits dice")


def test_plural_sentences_follow_their_count() -> None:
    one = seats_verdict(_ITALIAN, 1, "italian")
    assert one is not None and one.message == "1 seat; italian plays with 2 to 6"
    assert one.params == {"players": 1, "edition": "italian", "least": 2, "most": 6}
    none = seats_verdict(_ITALIAN, 0, "italian")
    assert none is not None and none.message.startswith("0 seats;") and none.rule == "players.min"
    single = opening_verdict(_ITALIAN, [5, 1], 0)
    assert single is not None and single.message == "seat 1 starts with 1 die, not 5"
    rolled = Refusal("play.roll", "record-rolled", {"seat": 1, "rolled": 2, "held": 4, "round": 1})
    assert rolled.message == "seat 1 rolls 2 dice, but holds 4 after round 1"


def test_every_template_names_its_placeholders_and_no_spliced_words() -> None:
    """Each template's placeholders are simple names, a plural's count among them; every
    parameter the package passes is a number or data (checked per case above)."""
    for message_id, template in ENGLISH.items():
        names = template_fields(template)
        assert all(n.isidentifier() for n in names), message_id
        if isinstance(template, Plural):
            assert template.count in names
            assert template_fields(template.one) == template_fields(template.other), message_id
    # English is the table itself; Italian and Spanish are the gettext catalogues
    # (tests/test_i18n.py checks that every template has both, with its placeholders)
    assert set(CATALOGUES) == {"en", "it", "es"} and CATALOGUES["en"] is ENGLISH
    assert set(CATALOGUES["it"]) == set(ENGLISH) == set(CATALOGUES["es"])


def test_every_message_id_in_the_source_is_in_the_table() -> None:
    """A ``Refusal(rule, "id", ...)`` or a record's ``stop(rule, "id", ...)`` names a known
    message id, and every id of the table is made somewhere in the package."""
    made: set[str] = set()
    for path in PACKAGE.rglob("*.py"):
        if path.name == "messages.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                made.add(node.value)
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("Refusal", "stop")
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
            ):
                assert node.args[1].value in ENGLISH, (path.name, node.lineno, node.args[1].value)
    assert set(ENGLISH) <= made


def test_the_formatter_is_a_pure_function_of_its_arguments() -> None:
    params = {"standing_quantity": 3, "standing_face": 4, "need": 2}
    assert format_message("wild-bid-needs", params, "en") == format_message(
        "wild-bid-needs", dict(params)
    )
    with pytest.raises(ValueError, match="no messages in 'xx'"):
        format_message("wild-bid-needs", params, lang="xx")
    with pytest.raises(KeyError):
        format_message("no.such.message", {})
    with pytest.raises(KeyError):
        format_message("wild-bid-needs", {"need": 2})


def test_a_violation_places_its_refusal() -> None:
    turn = Refusal("play.turn", "not-your-turn", {"to_move": 0, "seat": 1})
    v = Violation(1, 2, "1:2x4", turn)
    assert (v.rule, v.reason) == ("play.turn", "it is seat 0's turn, not seat 1's")
    assert str(v) == "round 1, step 2 (1:2x4): it is seat 0's turn, not seat 1's [play.turn]"
    # the round itself (its dice, opener or result) has no step: steps count from 1
    assert str(Violation(3, 0, None, turn)).startswith("round 3: it is seat 0's")
    assert v.to_json() == {
        "round": 1,
        "step": 2,
        "action": "1:2x4",
        "rule": "play.turn",
        "reason": "it is seat 0's turn, not seat 1's",
        "message_id": "not-your-turn",
        "params": {"to_move": 0, "seat": 1},
    }


def test_a_refusal_is_not_a_tuple() -> None:
    """``violation()`` changed from ``(rule, reason)`` to a Refusal: old unpacking fails
    loudly instead of reading the wrong field."""
    bad = CASES["not-a-raise"][0]()
    assert bad is not None
    with pytest.raises(TypeError):
        _rule, _reason = bad  # type: ignore[misc]
    with pytest.raises(TypeError):
        bad[0]  # type: ignore[index]


@given(positions(), st.data())
def test_every_refusal_formats_from_its_values(g: Game, data: st.DataObject) -> None:
    """For random actions, legal or not: an illegal one raises the refusal violation()
    gives, its message made by the one formatter from its message id and parameters, the
    parameters exactly the template's placeholders; a legal one raises nothing."""
    odd: list[object] = [Bid(0, 2.5, 3), Bid("x", 1, 2), Dudo(-1), "calza"]  # type: ignore[arg-type]
    pool = [*candidates(g), *odd]
    for action in data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=12)):
        bad = g.violation(action)
        try:
            g.apply(action)  # type: ignore[arg-type]
        except IllegalAction as exc:
            assert bad is not None and exc.refusal == bad
            assert exc.rule == bad.rule and exc.message == bad.message
            assert exc.message == format_message(bad.message_id, bad.params)
            assert template_fields(ENGLISH[bad.message_id]) == set(bad.params)
            assert all(type(v) in (int, str) for v in bad.params.values())
            assert str(exc) == f"{exc.message} [{exc.rule}]"
        else:
            assert bad is None


def test_the_examples_in_the_docstrings_hold() -> None:
    import doctest

    from perudo_rules.base import messages

    failed, attempted = doctest.testmod(messages)
    assert attempted >= 4 and failed == 0


def test_message_ids_cannot_be_mistaken_for_rule_ids() -> None:
    for message_id in ENGLISH:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", message_id), message_id
