"""Game servers: the state as JSON (round trips, the schema, refusals), observations as
JSON, one seat's legal actions and reading a seat's action text."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
import referencing
from hypothesis import given
from hypothesis import strategies as st
from referencing.jsonschema import DRAFT202012
from strategies import boosted, candidates, new_games, positions, random_play

from perudo_rules import Bid, Calza, Dudo, Game, RecordError, load_variant
from perudo_rules.base.actions import format_action, parse_action
from perudo_rules.base.errors import ActionSyntaxError
from perudo_rules.editions.schema import SCHEMA_ID, variant_schema
from perudo_rules.editions.variantfile import data_dir
from perudo_rules.records.gamejson import game_schema, schema_json
from perudo_rules.records.recordformat import SCHEMA_ID as RECORD_ID
from perudo_rules.records.recordformat import record_schema

ITALIAN = load_variant("italian")
SEEDS = st.integers(0, 2**32 - 1)


def roundtrip(g: Game) -> Game:
    return Game.from_json(json.loads(json.dumps(g.to_json())))


def validator() -> jsonschema.protocols.Validator:
    registry: referencing.Registry[Any] = (
        referencing.Registry()
        .with_resource(SCHEMA_ID, DRAFT202012.create_resource(variant_schema()))
        .with_resource(RECORD_ID, DRAFT202012.create_resource(record_schema()))
    )
    return jsonschema.Draft202012Validator(game_schema(), registry=registry)


def states_of(game: Game, seed: int, every: int = 7) -> list[Game]:
    """``game``, every ``every``-th state of a random play from it, and its last state."""
    out = [game]
    last = game
    for i, (_, _, after) in enumerate(random_play(game, seed, max_steps=400, strict=False)):
        last = after
        if i % every == 0:
            out.append(after)
    out.append(last)
    return out


@boosted()
@given(st.one_of(new_games(), positions()), SEEDS)
def test_state_round_trips_through_json(game: Game, seed: int) -> None:
    """Any game, any variant (house rules, random knobs), mid-round, awaiting a roll,
    palifico or over: the JSON state rebuilds an equal game, and the schema accepts it."""
    check = validator()
    for g in states_of(game, seed):
        doc = g.to_json()
        assert not list(check.iter_errors(doc))
        back = roundtrip(g)
        assert back == g
        assert back.awaiting_roll == g.awaiting_roll and back.last_result == g.last_result
        assert back.to_json() == doc


def test_round_trip_covers_every_kind_of_state() -> None:
    """The property above reaches these states; here each is named once."""
    house = load_variant("italian", overrides={"calza.enabled": False})
    g = Game.start(ITALIAN, [[1], [2, 3], [4]], first_player=0, palifico=True, round=4)
    mid = g.apply(Bid(0, 1, 2))
    called = mid.apply(Dudo(1))
    assert called.awaiting_roll
    for state in (g, mid, called, Game.new(house, 3, seed=5)):
        assert roundtrip(state) == state
    over = Game.start(ITALIAN, [[1], [2]], first_player=0).apply(Bid(0, 2, 2)).apply(Dudo(1))
    assert over.is_over and roundtrip(over) == over
    assert roundtrip(over).winner == over.winner == 0


def test_schema_file_is_fresh() -> None:
    assert (data_dir("spec") / "game.schema.json").read_text() == schema_json(), (
        "spec/game.schema.json is stale: python tools/generate.py"
    )


def test_state_is_rebuilt_not_trusted() -> None:
    g = Game.new(ITALIAN, 3, seed=4)
    g = g.apply(g.legal_actions()[2])
    doc = g.to_json()
    del doc["state"]
    assert Game.from_json(doc) == g  # the derived state is optional
    assert g.to_move is not None
    lies = (("to_move", (g.to_move + 1) % 3), ("dice_counts", [5, 5, 4]), ("awaiting_roll", 0))
    for key, lie in lies:
        bad = g.to_json()
        bad["state"][key] = lie
        with pytest.raises(RecordError) as err:
            Game.from_json(bad)
        assert err.value.key_path == f"state.{key}"
        assert "but the record gives" in str(err.value)


@pytest.mark.parametrize(
    ("mutate", "path", "words"),
    [
        (lambda d: d.update(format="x"), "format", "format must be"),
        (lambda d: d.update(version=True), "version", "version must be 1"),
        (lambda d: d.update(extra=1), "extra", "unknown key"),
        (lambda d: d.pop("record"), "record", "missing key"),
        (lambda d: d.update(state=[]), "state", "must be an object"),
        (lambda d: d["state"].update(dice=[]), "state.dice", "unknown key"),
        (lambda d: d["record"]["rounds"][0].update(dice="12"), "record.rounds.0.dice", ""),
        (lambda d: d["record"].update(variant="nope"), "record.variant", "unknown variant"),
        (
            lambda d: d["record"]["rounds"][0]["actions"].append("1:1x2"),
            "record.rounds.0.actions.0",
            "it is seat 0's turn, not seat 1's [play.turn]",
        ),
    ],
)
def test_bad_documents_name_the_key_path(mutate: Any, path: str, words: str) -> None:
    doc = json.loads(json.dumps(Game.start(ITALIAN, [[1, 2], [3]], first_player=0).to_json()))
    mutate(doc)
    with pytest.raises(RecordError) as err:
        Game.from_json(doc)
    assert err.value.key_path == path
    assert words in str(err.value)


def test_not_a_document() -> None:
    with pytest.raises(RecordError, match="a game state is a JSON object, not list"):
        Game.from_json([])


# --- one seat's view ------------------------------------------------------------------------


@boosted()
@given(positions(), SEEDS)
def test_legal_actions_of_one_seat(game: Game, seed: int) -> None:
    """The kernel's list filtered by seat, in the same order; ``in`` answers for the seat
    alone and agrees with the list."""
    for g in states_of(game, seed, every=3)[:6]:
        every = list(g.legal_actions())
        cands = candidates(g)
        for seat in range(g.players):
            mine = g.legal_actions(seat=seat)
            assert list(mine) == [a for a in every if a.player == seat]
            assert len(mine) == len(list(mine))
            assert [mine[i] for i in range(-len(mine), 0)] == list(mine)
            for a in cands:
                assert (a in mine) == (g.is_legal(a) and a.player == seat)
            assert list(g.observation(seat).legal_actions) == list(mine)


def test_observation_json() -> None:
    g = Game.start(ITALIAN, [[1, 4, 4], [2, 2], [6]], first_player=0, round=1)
    g = g.apply(Bid(0, 3, 4))
    o = g.observation(2).to_json()
    assert json.loads(json.dumps(o)) == o
    assert o["dice"] == [6] and "dice" not in json.dumps(o["past_rounds"])
    assert o["legal_actions"] == ["2:calza"]  # not seat 2's turn: its out-of-turn call only
    assert o["first_round"] is True and o["awaiting_roll"] is False
    assert o["bids"] == ["0:3x4"] and o["to_move"] == 1
    mover = g.observation(1).to_json()["legal_actions"]
    assert mover[-1] == "1:dudo" and mover[0] == "1:3x5" and "1:calza" not in mover
    after = g.apply(Dudo(1))
    o = after.observation(2).to_json()
    assert o["awaiting_roll"] is True and o["legal_actions"] == [] and o["bids"] == []
    past = o["past_rounds"][0]
    assert past["actions"] == ["0:3x4", "1:dudo"] and past["own_dice"] == [6]
    assert past["shown"] == [list(after.history[0].dice[s]) for s in past["revealed"]]
    nxt = after.roll(seed=3)
    o = nxt.observation(nxt.to_move or 0).to_json()
    assert o["first_round"] is False and o["round"] == 2


def test_observation_json_hides_other_cups() -> None:
    g = Game.start(ITALIAN, [[1, 4], [2, 2], [6, 5]], first_player=0)
    twin = Game.start(ITALIAN, [[1, 4], [3, 3], [1, 1]], first_player=0)
    assert g.observation(0).to_json() == twin.observation(0).to_json()
    assert g.observation(1).to_json() != twin.observation(1).to_json()


def test_palifico_used_is_observed() -> None:
    g = Game.start(ITALIAN, [[1], [2, 3], [4, 4]], first_player=0, palifico=True, palifico_used=[2])
    o = g.observation(1)
    assert o.palifico_used == frozenset({0, 2}) and o.to_json()["palifico_used"] == [0, 2]
    assert o.to_json()["palifico"] is True and o.to_json()["palifico_player"] == 0


# --- reading what a seat sent -------------------------------------------------------------


def test_parse_action_for_a_player() -> None:
    assert parse_action("5x4", player=2) == Bid(2, 5, 4)
    assert parse_action(" Dudo", player=1) == Dudo(1)
    assert parse_action("calza", player=0) == Calza(0)
    assert parse_action("2:5x4", player=2) == Bid(2, 5, 4)
    with pytest.raises(ActionSyntaxError, match="is seat 1's action; this request is seat 2's"):
        parse_action("1:5x4", player=2)
    with pytest.raises(ActionSyntaxError, match="not an action: 'x'"):
        parse_action("x", player=2)
    with pytest.raises(ActionSyntaxError):
        parse_action("5x4")  # without player, the seat is required
    for a in (Bid(3, 2, 6), Dudo(0), Calza(1)):
        assert parse_action(str(a), player=a.player) == a == parse_action(format_action(a))
