"""The one vocabulary: action notation, positions and their JSON shape, play in words."""

from __future__ import annotations

import json

import pytest

from perudo_rules import Bid, Calza, Dudo, Game, load_variant, parse_bid
from perudo_rules.base.actions import format_action, parse_action
from perudo_rules.base.errors import ActionSyntaxError, PerudoError, PositionError
from perudo_rules.records.describe import describe_result, describe_step
from perudo_rules.records.position import Position, Roll, format_step, parse_line, parse_step


def test_bid_notation_round_trips() -> None:
    for text in ("5x4", "5 4", "5*4", " 5 X 4 "):
        assert Bid.parse(text, player=2) == Bid(2, 5, 4)
    assert parse_bid("5x4", 1) == Bid.parse("5x4", 1)
    assert str(Bid(0, 12, 6)) == "12x6" and str(Dudo(1)) == "dudo" and str(Calza(2)) == "calza"
    for action in (Bid(3, 7, 2), Dudo(0), Calza(11)):
        assert parse_action(format_action(action)) == action
    assert parse_action(" 2 : bid 10x6 ") == Bid(2, 10, 6)


@pytest.mark.parametrize("text", ["", "5", "5x", "x4", "5x4x3", "five x four", "1234567890x1"])
def test_every_bid_parser_raises_action_syntax_error(text: str) -> None:
    with pytest.raises(ActionSyntaxError, match="not a bid"):
        Bid.parse(text)
    with pytest.raises(ActionSyntaxError, match="not an action"):
        parse_action(f"0:{text}")
    with pytest.raises(ValueError) as err:
        parse_bid(text)
    assert isinstance(err.value, PerudoError) and "\n" not in str(err.value)


def test_steps_include_the_roll() -> None:
    roll = Roll(((2, 3), (), (1,)))
    assert str(roll) == "roll [[2, 3], [], [1]]"
    assert parse_step(str(roll)) == roll and format_step(roll) == str(roll)
    assert parse_step("1:dudo") == Dudo(1) and format_step(Bid(0, 3, 4)) == "0:3x4"
    for bad in ("roll [1, 2]", "roll [[", "roll", "0: pass"):
        with pytest.raises(ActionSyntaxError):
            parse_step(bad)


def test_position_json_round_trip_and_game() -> None:
    pos = Position(((1, 4), (), (2, 2, 6)), 2, round=3, palifico_used=(0,), variant="italian")
    steps = (Bid(2, 2, 4), Bid(0, 2, 6), Dudo(2))
    data = json.loads(json.dumps(pos.to_json(steps)))
    assert data["actions"] == ["2:2x4", "0:2x6", "2:dudo"]
    assert parse_line(data) == (pos, steps) and Position.from_json(data) == pos
    game = pos.game()
    assert game == Game.start(load_variant("italian"), pos.dice, 2, round=3, palifico_used=(0,))
    assert pos.players == 3 and "seat 2 opens an ordinary round" in pos.describe()
    for step in steps:
        game = game.apply(step)  # type: ignore[arg-type]
    assert game.awaiting_roll
    # the same position without a variant runs under any
    bare = Position((((1,), (2,))), 0)
    assert bare.to_json() == {
        "round": 1,
        "first_player": 0,
        "palifico": False,
        "palifico_used": [],
        "dice": [[1], [2]],
    }
    assert bare.game(load_variant("spanish")).variant.id == "spanish"
    with pytest.raises(ValueError, match="names no variant"):
        bare.game()


def test_position_of_a_game_is_its_round_start() -> None:
    v = load_variant("italian")
    g = Game.start(v, [[1], [2, 3]], first_player=0, palifico=True, round=4, palifico_used=[1])
    after = g.apply(Bid(0, 1, 5))
    pos = Position.of(after)
    assert pos == Position(((1,), (2, 3)), 0, True, 4, (1,), "italian")
    assert pos.game() == g
    with pytest.raises(ValueError, match="between rounds"):
        Position.of(after.apply(Dudo(1)))


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ([], "must be a JSON object"),
        ({"dice": [[1]]}, "missing required key 'first_player'"),
        ({"dice": [[1], "x"], "first_player": 0}, "dice: expected one list"),
        ({"dice": [[1]], "first_player": -1}, "first_player: expected an integer"),
        ({"dice": [[1]], "first_player": 0, "palifico": 1}, "palifico: expected true or false"),
        ({"dice": [[1]], "first_player": 0, "round": 0}, "round: expected an integer"),
        ({"dice": [[1]], "first_player": 0, "actions": ["0:1y1"]}, "actions.0: not an action"),
        ({"dice": [[1]], "first_player": 0, "seats": 2}, "seats: unknown key"),
    ],
)
def test_malformed_positions_name_the_key(data: object, needle: str) -> None:
    with pytest.raises(PositionError) as err:
        parse_line(data)
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_describe_result_and_step() -> None:
    v = load_variant("italian")
    g = Game.start(v, [[3, 5], [3, 3, 4], [2]], first_player=0)
    after = g.apply(Bid(0, 2, 3)).apply(Dudo(1))
    res = after.last_result
    assert res is not None
    assert describe_result(res, after.dice_counts) == (
        "seat 1 calls dudo on 2x3 by seat 0: 3 dice count in the lifted cups (seats 2, 0, 1); "
        "seat 1 loses a die (2 left); seat 1 opens an ordinary round"
    )
    assert describe_result(res).endswith("seat 1 loses a die; seat 1 opens an ordinary round")
    named = describe_result(res, name=lambda s: f"P{s}")
    assert named.startswith("P1 calls dudo on 2x3 by P0") and "lifted cups (P2, P0, P1)" in named
    assert describe_step(Dudo(1)) == "seat 1 calls dudo"
    assert describe_step(Calza(2), gerund=True) == "seat 2 calling calza"
    assert describe_step(Roll(((1,), (), (4, 5)))) == (
        "the next round is rolled (seat 0: [1], seat 2: [4, 5])"
    )
