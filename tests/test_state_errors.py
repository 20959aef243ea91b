"""``Game.from_json`` names the key path of what is wrong: each part of a stored state
tampered with (a wrong type, a wrong value, an illegal action, an unknown key), the
``RecordError`` points at the value changed, and never says "round 1, step 0"."""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from perudo_rules import Bid, Dudo, Game, RecordError, load_variant
from perudo_rules.records.gamejson import game_schema

Doc = dict[str, Any]


def _stored() -> Doc:
    """A stored state in the third round of a three-seat Italian game, two bids in: two
    finished rounds (a Calza and a Dudo) and one in play."""
    g = Game.new(load_variant("italian"), 3, seed=3)
    rng = random.Random(1)
    while g.round < 3 or g.awaiting_roll or len(g.bids) < 2:
        if g.awaiting_roll:
            g = g.roll(rng=rng)
        else:
            acts = g.legal_actions()
            call = g.bids and rng.random() < 0.3
            g = g.apply(acts[rng.randrange(len(acts))] if call else acts[0])
    doc: Doc = json.loads(json.dumps(g.to_json()))
    return doc


STORED = _stored()
DONE = STORED["record"]["rounds"][1]  # a finished round
RESULT = DONE["result"]
UNENDED = {k: v for k, v in DONE.items() if k != "result"}
OTHER = {"kind": "calza" if RESULT["kind"] == "dudo" else "dudo", "bid": "1x2"}


def _seat_but(seat: int) -> int:
    return (seat + 1) % STORED["record"]["seats"]


def _set(path: str, value: Any) -> Callable[[Doc], None]:
    """Set the value at dotted ``path`` (creating a last key)."""

    def change(doc: Doc) -> None:
        *head, last = path.split(".")
        node: Any = doc
        for key in head:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return change


def _result_lie(key: str) -> Any:
    value = RESULT[key]
    if key in OTHER:
        return OTHER[key]
    if key == "count":
        return value + 1
    if key == "next_palifico":
        return not value
    if key == "revealed":
        return value[:1]
    if key == "gainer":
        return 0 if value is None else None
    return _seat_but(value)


# (what is changed, the change, the key path expected)
CASES: list[tuple[str, Callable[[Doc], None], str]] = [
    ("unknown top key", _set("colour", 1), "colour"),
    ("format value", _set("format", "x"), "format"),
    ("format type", _set("format", 1), "format"),
    ("version value", _set("version", 2), "version"),
    ("version type", _set("version", "1"), "version"),
    ("record type", _set("record", []), "record"),
    ("state type", _set("state", []), "state"),
    ("record unknown key", _set("record.colour", 1), "record.colour"),
    ("record format", _set("record.format", "x"), "record.format"),
    ("record version", _set("record.version", True), "record.version"),
    ("variant value", _set("record.variant", "klingon"), "record.variant"),
    ("variant type", _set("record.variant", 7), "record.variant"),
    ("variant knob", _set("record.variant", {"extends": "italian", "x": 1}), "record.variant.x"),
    ("seats type", _set("record.seats", "3"), "record.seats"),
    ("seats range", _set("record.seats", 1), "record.seats"),
    ("seats value", _set("record.seats", 4), "record.seats"),
    ("viewer", _set("record.viewer", 0), "record.viewer"),
    ("names type", _set("record.names", "abc"), "record.names"),
    ("a name", _set("record.names", ["a", 2, "c"]), "record.names.1"),
    ("setup type", _set("record.setup", []), "record.setup"),
    ("setup key", _set("record.setup", {"colour": 1}), "record.setup.colour"),
    ("rounds type", _set("record.rounds", {}), "record.rounds"),
    ("rounds empty", _set("record.rounds", []), "record.rounds"),
    ("winner type", _set("record.winner", "0"), "record.winner"),
    ("winner value", _set("record.winner", 1), "record.winner"),
    ("round type", _set("record.rounds.1", 2), "record.rounds.1"),
    ("round unknown key", _set("record.rounds.1.colour", 1), "record.rounds.1.colour"),
    ("round number", _set("record.rounds.1.round", 5), "record.rounds.1.round"),
    ("round number type", _set("record.rounds.1.round", "2"), "record.rounds.1.round"),
    (
        "opener",
        _set("record.rounds.1.first_player", _seat_but(DONE["first_player"])),
        "record.rounds.1.first_player",
    ),
    ("opener type", _set("record.rounds.1.first_player", None), "record.rounds.1.first_player"),
    ("palifico", _set("record.rounds.1.palifico", True), "record.rounds.1.palifico"),
    ("palifico type", _set("record.rounds.1.palifico", 0), "record.rounds.1.palifico"),
    ("dice type", _set("record.rounds.1.dice", "12"), "record.rounds.1.dice"),
    ("a cup short", _set("record.rounds.1.dice.0", DONE["dice"][0][1:]), "record.rounds.1.dice.0"),
    ("a die", _set("record.rounds.1.dice.2.1", 9), "record.rounds.1.dice.2.1"),
    ("a die type", _set("record.rounds.1.dice.2.1", "4"), "record.rounds.1.dice.2.1"),
    ("actions type", _set("record.rounds.1.actions", "x"), "record.rounds.1.actions"),
    ("an action type", _set("record.rounds.1.actions.3", 5), "record.rounds.1.actions.3"),
    ("an action text", _set("record.rounds.1.actions.3", "bid"), "record.rounds.1.actions.3"),
    (
        "an illegal action",
        _set("record.rounds.1.actions.3", DONE["actions"][3].split(":")[0] + ":1x2"),
        "record.rounds.1.actions.3",
    ),
    (
        "out of turn",
        _set("record.rounds.2.actions.1", STORED["record"]["rounds"][2]["actions"][0]),
        "record.rounds.2.actions.1",
    ),
    (
        "a round left unended",
        _set("record.rounds.1", {**UNENDED, "actions": DONE["actions"][:-1]}),
        "record.rounds.1.actions",
    ),
    ("result type", _set("record.rounds.1.result", 1), "record.rounds.1.result"),
    ("result key", _set("record.rounds.1.result.colour", 1), "record.rounds.1.result.colour"),
    ("result count", _set("record.rounds.1.result.count", "3"), "record.rounds.1.result.count"),
    *[
        (
            f"result {key}",
            _set(f"record.rounds.1.result.{key}", _result_lie(key)),
            f"record.rounds.1.result.{key}",
        )
        for key in RESULT
    ],
    *[
        (f"result {key} none", _set(f"record.rounds.1.result.{key}", None),
         f"record.rounds.1.result.{key}")
        for key in ("loser", "next_player")
    ],  # no seat where the rules name one: its own sentence, the same path
    ("state unknown key", _set("state.colour", 1), "state.colour"),
    *[(f"state {key} type", _set(f"state.{key}", "x"), f"state.{key}") for key in STORED["state"]],
    *[
        (f"state {key} value", _set(f"state.{key}", json.loads(lie)), f"state.{key}")
        for key, lie in (
            ("round", "2"), ("first_player", "0"), ("to_move", "2"), ("awaiting_roll", "true"),
            ("dice_counts", "[4, 5, 5]"), ("palifico", "true"), ("palifico_player", "1"),
            ("palifico_used", "[1]"), ("bids", '["2:1x2"]'), ("set_aside", "[[], []]"),
            ("winner", "1"),
        )
    ],
]


def test_the_cases_reach_every_key() -> None:
    """Each key of the state document, of the record, of a round, of a result and of the
    derived state is tampered with by some case."""
    paths = {path for _, _, path in CASES}
    game = game_schema()
    assert {"format", "version", "record", "state"} <= paths
    assert {f"state.{k}" for k in game["properties"]["state"]["properties"]} <= paths
    record = ("format", "version", "variant", "seats", "viewer", "names", "setup", "rounds")
    assert {f"record.{k}" for k in (*record, "winner")} <= paths
    round_keys = ("round", "first_player", "palifico", "dice", "actions", "result")
    assert {f"record.rounds.1.{k}" for k in round_keys} <= paths
    assert {f"record.rounds.1.result.{k}" for k in RESULT} <= paths
    assert len(RESULT) == 9


@pytest.mark.parametrize(("what", "change", "path"), CASES, ids=[c[0] for c in CASES])
def test_a_tampered_state_names_the_key_path(
    what: str, change: Callable[[Doc], None], path: str
) -> None:
    doc = copy.deepcopy(STORED)
    assert Game.from_json(copy.deepcopy(doc)) is not None
    change(doc)
    with pytest.raises(RecordError) as err:
        Game.from_json(doc)
    assert err.value.key_path == path, str(err.value)
    assert str(err.value).startswith(f"{path}: ")
    assert not re.search(r"round \d+, step \d+", str(err.value))


def test_a_round_after_the_game_ended() -> None:
    g = Game.start(load_variant("italian"), [[1], [2]], first_player=0)
    over = g.apply(Bid(0, 2, 2)).apply(Dudo(1))
    assert over.is_over
    doc = json.loads(json.dumps(over.to_json()))
    doc["record"]["rounds"].append({**doc["record"]["rounds"][0], "round": 2, "actions": []})
    del doc["record"]["rounds"][1]["result"]
    with pytest.raises(RecordError) as err:
        Game.from_json(doc)
    assert err.value.key_path == "record.rounds.1"


def test_a_violation_carries_its_rule() -> None:
    doc = copy.deepcopy(STORED)
    _set("record.rounds.1.actions.3", DONE["actions"][3].split(":")[0] + ":1x2")(doc)
    with pytest.raises(RecordError) as err:
        Game.from_json(doc)
    assert err.value.violation is not None
    assert err.value.violation.rule == "bidding.order"
    assert err.value.message.endswith("[bidding.order]")
