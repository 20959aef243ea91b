"""Games and observations as JSON, for game servers: :meth:`Game.to_json
<perudo_rules.engine.game.Game.to_json>`, :meth:`Game.from_json
<perudo_rules.engine.game.Game.from_json>` and :meth:`Observation.to_json
<perudo_rules.engine.views.Observation.to_json>` (those methods call the functions of this module;
the
observation's JSON is :meth:`~perudo_rules.engine.views.Observation.to_json`).

A game's state is its game record (:mod:`perudo_rules.records.record`: the variant as records
name it, every round's dice and actions) and, for readers, the state derived from it::

    {"format": "perudo-rules-state", "version": 1,
     "record": {"format": "perudo-rules-record", "variant": "italian", ...},
     "state": {"round": 2, "to_move": 1, "awaiting_roll": false, "dice_counts": [5, 4],
               "bids": ["1:3x4"], "winner": null, ...}}

:func:`game_from_json` checks the document, then rebuilds the game by replaying the
record through the engine (:func:`~perudo_rules.records.replay.rebuild`): nothing in ``state`` is
trusted; each key given there must agree with the rebuilt game. Every problem is a
:class:`~perudo_rules.records.recordformat.RecordError` naming its key path (``record.rounds.0.
dice``, ``state.to_move``). ``spec/game.schema.json`` is :func:`schema_json`; a test keeps
it fresh. It refers to the record and variant schemas (``spec/record.schema.json``,
``spec/variant.schema.json``) by ``$ref``: :func:`validate_state` checks a document against
the three in one call (:func:`state_validator` is the validator it uses).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

import jsonschema
import referencing
from referencing.jsonschema import DRAFT202012

from perudo_rules.base.actions import ACTION_PATTERN, format_action
from perudo_rules.base.limits import MAX_PLAYERS, check_depth, short_number
from perudo_rules.base.safetext import shortened
from perudo_rules.editions.schema import SCHEMA_ID as VARIANT_SCHEMA_ID
from perudo_rules.editions.schema import variant_schema
from perudo_rules.engine.game import Game
from perudo_rules.records.record import to_record
from perudo_rules.records.recordformat import SCHEMA_ID as RECORD_SCHEMA_ID
from perudo_rules.records.recordformat import RecordError, record_schema
from perudo_rules.records.replay import rebuild

__all__ = [
    "FORMAT",
    "SCHEMA_ID",
    "VERSION",
    "game_from_json",
    "game_schema",
    "game_to_json",
    "schema_json",
    "state_validator",
    "validate_state",
]

FORMAT = "perudo-rules-state"
VERSION = 1
SCHEMA_ID = "https://perudo-rules.invalid/spec/game.schema.json"


def _seats(seats: frozenset[int]) -> list[int]:
    return sorted(seats)


# The derived state: each key's value in a game, in the order the document writes them.
_STATE: dict[str, Callable[[Game], Any]] = {
    "round": lambda g: g.round,
    "first_player": lambda g: g.first_player,
    "to_move": lambda g: g.to_move,
    "awaiting_roll": lambda g: g.awaiting_roll,
    "dice_counts": lambda g: list(g.dice_counts),
    "palifico": lambda g: g.palifico,
    "palifico_player": lambda g: g.palifico_player,
    "palifico_used": lambda g: _seats(g.palifico_used),
    "bids": lambda g: [format_action(b) for b in g.bids],
    "set_aside": lambda g: [list(cup) for cup in g.set_aside],
    "winner": lambda g: g.winner,
}


def game_to_json(game: Game) -> dict[str, Any]:
    """``game`` as a JSON-ready document: its record and the state derived from it;
    ``game_from_json(game_to_json(game)) == game``."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "record": to_record(game, full=True),
        "state": {key: value(game) for key, value in _STATE.items()},
    }


def _said(value: Any) -> str:
    """A JSON value of a document in a sentence, short whatever it is (a 5,000-digit
    number, a string of megabytes)."""
    if type(value) is int:
        return short_number(value)
    try:
        return shortened(json.dumps(value), 60)
    except (ValueError, TypeError, RecursionError):
        return type(value).__name__


def _same(stated: Any, actual: Any) -> bool:
    """Whether a value of ``state`` is the game's, of the same JSON types all the way
    down: ``3.0`` and ``true`` are no integer there, in a list (``dice_counts``,
    ``palifico_used``, ``set_aside``) as in ``round``."""
    if type(stated) is not type(actual):
        return False
    if isinstance(actual, list):
        return len(stated) == len(actual) and all(map(_same, stated, actual))
    return bool(stated == actual)


def game_from_json(doc: Any) -> Game:
    """The game of a :func:`game_to_json` document, rebuilt by replaying its record.

    Raises :class:`~perudo_rules.records.recordformat.RecordError` (with the key path) for a
    malformed document, a record that breaks a rule, or a ``state`` key that does not
    agree with the rebuilt game.
    """
    if not isinstance(doc, Mapping):
        raise RecordError(f"a game state is a JSON object, not {type(doc).__name__}")
    check_depth(doc, RecordError)  # valid JSON may nest past what any reader recurses into
    for key in doc:
        if key not in ("format", "version", "record", "state"):
            raise RecordError(f"unknown key {key!r}", key_path=str(key))
    if doc.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}", key_path="format")
    if type(doc.get("version")) is not int or doc["version"] != VERSION:
        raise RecordError(f"version must be {VERSION}", key_path="version")
    if "record" not in doc:
        raise RecordError("missing key 'record'", key_path="record")
    try:
        game = rebuild(doc["record"])
    except RecordError as exc:
        where = f"record.{exc.key_path}" if exc.key_path else "record"
        raise RecordError(exc.message, key_path=where, violation=exc.violation) from None
    state = doc.get("state", {})
    if not isinstance(state, Mapping):
        raise RecordError("state must be an object", key_path="state")
    for key, stated in state.items():
        value = _STATE.get(key)
        if value is None:
            raise RecordError(f"unknown key {key!r}", key_path=f"state.{key}")
        actual = value(game)
        if not _same(stated, actual):
            raise RecordError(
                f"says {_said(stated)}, but the record gives {_said(actual)}",
                key_path=f"state.{key}",
            )
    return game


def game_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of :func:`game_to_json` documents."""
    seat = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
    seat_or_null = {"oneOf": [seat, {"type": "null"}]}
    seats = {"type": "array", "items": seat}
    properties: dict[str, Any] = {
        "round": {"type": "integer", "minimum": 1},
        "first_player": seat_or_null,
        "to_move": {**seat_or_null, "description": "null between rounds and once over."},
        "awaiting_roll": {"type": "boolean"},
        "dice_counts": {"type": "array", "items": {"type": "integer", "minimum": 0}},
        "palifico": {"type": "boolean"},
        "palifico_player": seat_or_null,
        "palifico_used": seats,
        "bids": {
            "type": "array",
            "description": "This round's bids (or the round just called, awaiting a roll).",
            "items": {"type": "string", "pattern": ACTION_PATTERN},
        },
        "set_aside": {
            "type": "array",
            "description": "The dice each seat has set aside face up this round (re-rolls).",
            "items": {"type": "array", "items": {"type": "integer", "minimum": 1}},
        },
        "winner": seat_or_null,
    }
    assert list(properties) == list(_STATE)
    state = {
        "type": "object",
        "description": (
            "Derived from the record, for readers; each key given must agree with the "
            "game the record replays to."
        ),
        "additionalProperties": False,
        "properties": properties,
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "perudo-rules game state",
        "description": (
            "A game in play (or over): its record, from which the engine rebuilds it, and "
            "the state derived from it. Generated by perudo_rules.records.gamejson.game_schema()."
        ),
        "type": "object",
        "additionalProperties": False,
        "required": ["format", "version", "record"],
        "properties": {
            "format": {"const": FORMAT},
            "version": {"type": "integer", "const": VERSION},
            "record": {"$ref": RECORD_SCHEMA_ID.rsplit("/", 1)[1]},
            "state": state,
        },
    }


def schema_json() -> str:
    """The schema as the exact text of ``spec/game.schema.json``."""
    return json.dumps(game_schema(), indent=2) + "\n"


def state_validator() -> jsonschema.Draft202012Validator:
    """A draft 2020-12 validator of :func:`game_to_json` documents: the game schema with the
    record and variant schemas it refers to registered under their ``$id``."""
    registry: referencing.Registry[Any] = (
        referencing.Registry()
        .with_resource(VARIANT_SCHEMA_ID, DRAFT202012.create_resource(variant_schema()))
        .with_resource(RECORD_SCHEMA_ID, DRAFT202012.create_resource(record_schema()))
    )
    return jsonschema.Draft202012Validator(game_schema(), registry=registry)


def validate_state(doc: Any) -> None:
    """Check ``doc`` against ``spec/game.schema.json`` (and the record and variant schemas
    it refers to) in one call: ``jsonschema.ValidationError`` if it does not conform.

    The schema checks the shape only; :func:`game_from_json` also replays the record.
    """
    _state_validator().validate(doc)


@cache
def _state_validator() -> jsonschema.Draft202012Validator:
    return state_validator()


if __name__ == "__main__":  # pragma: no cover - exercised through the freshness test
    print(schema_json(), end="")
