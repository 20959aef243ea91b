"""Game records: export, exact round trips through JSON, replay, the published schema."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import referencing
from hypothesis import given
from hypothesis import strategies as st
from referencing.jsonschema import DRAFT202012

from perudo_rules import Bid, Calza, Dudo, Game, RecordError, load_variant, replay, to_record
from perudo_rules.base.actions import format_action, parse_action
from perudo_rules.base.errors import ActionSyntaxError
from perudo_rules.editions.schema import SCHEMA_ID, variant_schema
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import data_dir
from perudo_rules.records.recordformat import FORMAT, record_schema, schema_json
from perudo_rules.records.replay import states

HOUSE = {"dice.per_player": 2, "dice.max_per_player": 3, "calza.gain_cap": 3}


def play(game: Game, seed: int, max_steps: int | None = None) -> Game:
    """Play random legal actions (out-of-turn calls included) until the end or ``max_steps``."""
    rng = random.Random(seed)
    steps = 0
    while not game.is_over and (max_steps is None or steps < max_steps):
        steps += 1
        if game.awaiting_roll:
            game = game.roll(rng=rng)
            continue
        legal = game.legal_actions()
        n_bids = len(legal.bid_ranks)
        if n_bids and rng.random() < 0.75:
            # mostly small raises so that rounds last a few bids
            game = game.apply(legal[rng.randrange(min(n_bids, 4))])
        else:
            game = game.apply(legal[rng.randrange(len(legal))])
    return game


def published_validator() -> jsonschema.protocols.Validator:
    resource = DRAFT202012.create_resource(variant_schema())
    registry: referencing.Registry[Any] = referencing.Registry().with_resource(SCHEMA_ID, resource)
    return jsonschema.Draft202012Validator(record_schema(), registry=registry)


def public_fields(g: Game) -> tuple[Any, ...]:
    return (
        g.variant.values(),
        g.dice,
        g.dice_counts,
        g.to_move,
        g.bids,
        g.palifico,
        g.palifico_player,
        g.round,
        g.palifico_used,
        g.history,
        g.last_result,
        g.winner,
        g.first_player,
    )


VARIANTS = st.sampled_from(["italian", "spanish", "openspiel-liars-dice", "house"])


def variant_of(name: str) -> Variant:
    if name == "house":
        return load_variant("italian", overrides=HOUSE)
    return load_variant(name)


@given(
    name=VARIANTS,
    players=st.integers(2, 6),
    seed=st.integers(0, 2**32),
    stop=st.one_of(st.none(), st.integers(0, 60)),
)
def test_round_trip_is_exact(name: str, players: int, seed: int, stop: int | None) -> None:
    variant = variant_of(name)
    players = min(players, variant.rules.players_max)
    game = play(Game.new(variant, players, seed=seed), seed, stop)
    record = to_record(game, full=True)
    text = json.dumps(record)
    again = replay(json.loads(text))
    assert to_record(again, full=True) == record
    assert json.dumps(to_record(again, full=True)) == text
    assert public_fields(again) == public_fields(game)
    assert not list(published_validator().iter_errors(json.loads(text)))


@st.composite
def explicit_positions(draw: st.DrawFn) -> Game:
    """A game started from a random explicit position (Game.start), as a setup record holds."""
    variant = variant_of(draw(VARIANTS))
    rules = variant.rules
    n = draw(st.integers(rules.players_min, min(rules.players_max, 5)))
    counts = [draw(st.integers(0, rules.dice_max_per_player)) for _ in range(n)]
    if sum(1 for c in counts if c) < 2:
        counts[0] = counts[1] = 1
    dice = [[draw(st.integers(1, rules.dice_faces)) for _ in range(c)] for c in counts]
    first = draw(st.sampled_from([s for s, c in enumerate(counts) if c]))
    palifico = rules.palifico_enabled and counts[first] == 1 and draw(st.booleans())
    used = draw(st.sets(st.integers(0, n - 1), max_size=n))
    return Game.start(variant, dice, first, palifico, draw(st.integers(1, 40)), used)


@given(start=explicit_positions(), seed=st.integers(0, 2**32), stop=st.integers(0, 40))
def test_round_trip_from_explicit_positions(start: Game, seed: int, stop: int) -> None:
    game = play(start, seed, stop)
    record = json.loads(json.dumps(to_record(game, full=True)))
    again = replay(record)
    assert to_record(again, full=True) == record
    assert again.history == game.history and again.dice == game.dice
    assert again.palifico_used == game.palifico_used
    assert (again.to_move, again.bids, again.round, again.winner) == (
        game.to_move,
        game.bids,
        game.round,
        game.winner,
    )


def test_replayed_bundled_game_equals_the_original() -> None:
    game = play(Game.new(load_variant("italian"), 4, seed=11), 11)
    assert game.is_over
    assert replay(to_record(game, full=True)) == game


def test_record_shape() -> None:
    game = play(Game.new(load_variant("spanish"), 3, seed=5), 5)
    rec = to_record(game, full=True)
    assert rec["format"] == FORMAT and rec["version"] == 1
    assert rec["variant"] == "spanish"
    assert rec["seats"] == 3
    assert rec["winner"] == game.winner is not None
    assert "setup" not in rec
    assert len(rec["rounds"]) == len(game.history)
    first = rec["rounds"][0]
    assert first["round"] == 1 and first["palifico"] is False
    assert [len(c) for c in first["dice"]] == [5, 5, 5]
    for rnd, hist in zip(rec["rounds"], game.history, strict=True):
        assert rnd["actions"] == [format_action(a) for a in hist.actions]
        assert rnd["result"]["kind"] == hist.result.kind
        assert rnd["result"]["loser"] == hist.result.loser
        assert rnd["result"]["next_player"] == hist.result.next_player
        assert rnd["actions"][-1].endswith(hist.result.kind)


def test_unfinished_game_records_the_current_round() -> None:
    v = load_variant("italian")
    game = Game.start(v, [[1, 2, 3, 4, 5], [6, 6, 6, 6, 6]], first_player=1)
    game = game.apply(Bid(1, 3, 6)).apply(Bid(0, 4, 6))
    rec = to_record(game, full=True)
    assert rec["winner"] is None
    assert rec["rounds"] == [
        {
            "round": 1,
            "first_player": 1,
            "palifico": False,
            "dice": [[1, 2, 3, 4, 5], [6, 6, 6, 6, 6]],
            "actions": ["1:3x6", "0:4x6"],
        }
    ]
    assert replay(rec) == game
    # awaiting the roll of round 2: the resolved round is recorded, nothing more
    after = game.apply(Dudo(1))
    rec2 = to_record(after, full=True)
    assert len(rec2["rounds"]) == 1
    result = rec2["rounds"][0]["result"]
    assert result["count"] == 6  # five 6s and one wild 1
    assert result["loser"] == 1 and result["next_player"] == 1
    assert replay(rec2) == after


def test_explicit_position_is_marked_by_setup() -> None:
    v = load_variant("italian")
    game = Game.start(
        v,
        [[3], [2, 2], [], [5, 5, 5]],
        first_player=0,
        palifico=True,
        round=7,
        palifico_used=[3],
    )
    game = play(game, 3)
    rec = to_record(game, full=True)
    assert rec["setup"] == {"palifico_used": [3]}
    assert rec["rounds"][0]["round"] == 7
    again = replay(json.loads(json.dumps(rec)))
    assert to_record(again, full=True) == rec
    assert again == game


def test_house_rules_are_embedded_and_replay_without_the_file(tmp_path: Path) -> None:
    house = tmp_path / "pub.yaml"
    house.write_text(
        "extends: italian\nname: Pub rules\ndice:\n  per_player: 3\ncalza:\n  enabled: false\n"
    )
    v = load_variant(house)
    game = play(Game.new(v, 3, seed=2), 2)
    rec = to_record(game, full=True)
    house.unlink()
    doc = rec["variant"]
    assert isinstance(doc, dict) and "extends" not in doc
    assert doc["id"] == "pub" and doc["name"] == "Pub rules"
    assert doc["dice"]["per_player"] == 3 and doc["calza"]["enabled"] is False
    # inherited from the base, written out with its documentation
    assert doc["wild"]["face"]["value"] == 1 and doc["wild"]["face"]["source"]
    again = replay(json.loads(json.dumps(rec)))
    assert again.variant == v and again == game
    assert to_record(again, full=True) == rec


def test_embedded_document_may_extend_a_bundled_id() -> None:
    game = play(Game.new(load_variant("spanish"), 2, seed=4), 4)
    rec = to_record(game, full=True)
    rec["variant"] = {"extends": "spanish", "name": "same rules, embedded"}
    assert replay(rec).history == game.history


def test_embedded_document_may_not_extend_a_file() -> None:
    rec = to_record(play(Game.new(load_variant("spanish"), 2, seed=4), 4), full=True)
    rec["variant"] = {"extends": "/etc/passwd", "name": "x"}
    with pytest.raises(RecordError, match="only a bundled id") as err:
        replay(rec)
    assert err.value.key_path == "variant.extends"


def test_states_yield_every_position() -> None:
    game = play(Game.new(load_variant("italian"), 3, seed=8), 8)
    rec = to_record(game, full=True)
    seen = list(states(rec))
    n_actions = sum(len(r["actions"]) for r in rec["rounds"])
    assert len(seen) == len(rec["rounds"]) + n_actions
    assert seen[0].round == 1 and seen[0].bids == ()
    assert seen[-1] == game
    assert all(a.round <= b.round for a, b in itertools.pairwise(seen))


def test_replay_raises_on_a_rule_violation() -> None:
    rec = to_record(play(Game.new(load_variant("italian"), 3, seed=1), 1), full=True)
    first = rec["rounds"][0]
    seat = first["first_player"]
    first["actions"][0] = f"{(seat + 1) % 3}:1x2"
    with pytest.raises(RecordError) as err:
        replay(rec)
    v = err.value.violation
    assert v is not None and v.rule == "play.turn" and v.round == 1 and v.step == 1


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("0:5x4", Bid(0, 5, 4)),
        ("12:1x6", Bid(12, 1, 6)),
        ("3:dudo", Dudo(3)),
        ("1:calza", Calza(1)),
    ],
)
def test_parse_action(text: str, action: object) -> None:
    assert parse_action(text) == action
    assert format_action(parse_action(text)) == text


@pytest.mark.parametrize(
    "text", ["", "5x4", "0:5x", "-1:dudo", "a:b", "0:5x4x", "0:dudo calza", "1234567:dudo"]
)
def test_parse_action_rejects(text: str) -> None:
    with pytest.raises(ActionSyntaxError, match="not an action"):
        parse_action(text)


@pytest.mark.parametrize("text", ["0:0x4", "0:DUDO", "01:dudo", "0:5x4 ", "0:5x4\n", "0: bid 5x4"])
def test_records_write_only_the_canonical_notation(text: str) -> None:
    # parse_action reads looser spellings; a record file holds only the canonical form
    rec = to_record(Game.start(load_variant("italian"), [[1], [2]], first_player=0), full=True)
    rec["rounds"][0]["actions"] = [text]
    with pytest.raises(RecordError, match="not an action"):
        replay(rec)


def test_schema_file_is_fresh() -> None:
    assert (data_dir("spec") / "record.schema.json").read_text() == schema_json(), (
        "spec/record.schema.json is stale: python tools/generate.py"
    )


def test_published_schema_rejects_what_the_loader_rejects() -> None:
    rec = to_record(play(Game.new(load_variant("italian"), 2, seed=3), 3), full=True)
    validator = published_validator()
    assert not list(validator.iter_errors(rec))
    for mutate in (
        lambda r: r.__setitem__("seats", "two"),
        lambda r: r["rounds"][0].__setitem__("actions", ["0 bids 3x4"]),
        lambda r: r.__setitem__("extra", 1),
        lambda r: r.__setitem__("variant", {"name": "no knobs"}),
    ):
        bad = json.loads(json.dumps(rec))
        mutate(bad)
        assert list(validator.iter_errors(bad))
        with pytest.raises(RecordError):
            replay(bad)


def test_to_record_is_the_package_export_and_names_no_private_helper() -> None:
    import perudo_rules
    from perudo_rules.records import record

    game = play(Game.new(load_variant("italian"), 3, seed=5), 5)
    assert perudo_rules.to_record is record.to_record
    rec = to_record(game, full=True)
    assert rec["format"] == FORMAT and rec["winner"] == game.winner
    assert replay(rec) == game


def test_walk_raises_record_violation_with_the_first_broken_step() -> None:
    from perudo_rules.base.errors import PerudoError
    from perudo_rules.records.recordformat import RecordViolation
    from perudo_rules.records.replay import check_record, walk

    game = Game.start(load_variant("italian"), [[1, 2], [3, 4]], first_player=0)
    rec = to_record(game.apply(Bid(0, 1, 2)), full=True)
    variant = check_record(rec)
    assert [g.bids for g in walk(rec, variant)] == [(), (Bid(0, 1, 2),)]
    rec["rounds"][0]["actions"].append("1:1x2")
    seen = []
    with pytest.raises(RecordViolation) as err:
        for g in walk(rec, variant):
            seen.append(g)
    assert len(seen) == 2
    assert isinstance(err.value, PerudoError)
    v = err.value.violation
    assert (v.round, v.step, v.action, v.rule) == (1, 2, "1:1x2", "bidding.order")
    assert str(err.value) == str(v)
