"""The harness protocol: JSON lines between the conformance runner and an engine.

The runner starts the engine as a subprocess and writes one JSON object per line to its
standard input; the engine answers each with exactly one JSON object on one line of its
standard output (its standard error is free for logs). ``spec/harness.schema.json`` is
:func:`harness_schema` (a test keeps the file fresh; rewrite it with
``python -m perudo_rules.conform.protocol > spec/harness.schema.json``) and
``docs/conformance.rst`` walks through a session.

The commands, and their replies:

``{"cmd": "hello", "protocol": 1}``
    ``{"name": ..., "claims": [CLAIM, ...]}``. A claim maps every knob path
    (:data:`perudo_rules.editions.knobs.KNOB_PATHS`) to the value the engine implements, a list of
    values, or ``"*"`` (any value). It may leave out, taken as ``"*"``, the knobs of a seat
    leaving the game, which no request expresses (:data:`UNCLAIMED_KNOBS`), and every knob
    that no edition it covers reads (:func:`claim_leaves_out`: the knob table's
    ``never_read``, or a ``read_when`` that the claim's own values fail), so that a new
    knob of a part of the game an engine does not play asks nothing of its claims. It may
    also leave out a knob that has a *legacy* value (the knob table's ``legacy``: the value
    that plays the game as it was played before the knob existed, :func:`legacy_values`),
    and then claims exactly that value: a knob added after an engine wrote its claims does
    not stop them from covering the editions they covered (an edition with another value
    of it is not covered). A knob without a legacy value that its editions read must be
    named. An edition is *claimed* when one claim covers each of its knob values; an
    edition no claim covers is reported "not claimed", never failed.
``{"cmd": "start", "edition": {...}, "dice": [[...], ...], "first_player": 0, ...}``
    A new game at the start of a round: the edition's knob values, one cup per seat
    (``[]`` for a seat that is out), who opens, ``round`` (its number), ``palifico``
    (whether that seat opens its palifico round) and ``palifico_used`` (the seats that
    had theirs before). ``{"ok": true}``, or ``{"skip": "why"}`` for a start the engine
    cannot set up (not counted either way).
``{"cmd": "legal", "seat": 2}``
    ``{"actions": ["2:3x4", "2:dudo", ...]}``: every action that seat may take now, in
    the notation of :mod:`perudo_rules.base.actions`, in any order. Bids are listed up to the
    dice in play (with ``bidding.quantity_cap: none``, up to the dice in play plus one);
    the runner plays no legal bid beyond that table. ``[]`` when the seat may take none:
    a seat that is out, every seat while the next round's dice are awaited (after the
    reply that ended a round and before its ``roll``), and every seat once the game is
    over.
``{"cmd": "act", "action": "1:dudo"}``
    ``{"ok": true}`` when the engine takes it, ``{"illegal": "why"}`` when it refuses it
    (nothing changes; ``why`` is the rule id that refuses it, or words). The runner also
    sends actions that no edition allows, which must be refused: a bid of zero dice or of
    a face off the die (``play.bid_range``), any action once the game is over
    (``play.game_over``) or while the next round's dice are awaited (``play.roll``). A
    re-roll (``"2:reroll 5,5"``, ``reroll.enabled``) is followed by a ``roll`` of the
    re-rolled dice before anything else. A Dudo or Calza ends the round, and its reply
    carries an ``outcome``: ``delta`` (the dice each seat lost, negative, or gained),
    ``next`` (who opens the next round; ``null`` once the game is over), ``palifico``
    (whether that round is a palifico round), ``eliminated`` (the seats the round put out)
    and ``winner`` (the seat that won the game, ``null`` while the game goes on). After
    the game is over no ``roll`` follows.
``{"cmd": "roll", "dice": [[...], ...]}``
    The next round's dice, one cup per seat as the outcome left them: the round it starts
    has the number of the one that ended plus one, and ``next`` opens it. Or, after a
    re-roll, the dice it re-rolled, in the re-roller's list (``[]`` for every other
    seat), which follow the dice it set aside (the round goes on, its number unchanged):
    ``{"ok": true}``. An engine that does not claim ``reroll.enabled: true`` never sees a
    re-roll.
``{"cmd": "quit"}``
    No reply; the engine exits.

Any reply may instead be ``{"error": "why"}``: the engine cannot go on (a harness error).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from perudo_rules.base.actions import ACTION_PATTERN
from perudo_rules.editions.knobs import KNOB_PATHS, KNOBS, SEATS, ReadWhen, same_value

__all__ = [
    "ANY",
    "PROTOCOL",
    "UNCLAIMED_KNOBS",
    "claim_covers",
    "claim_leaves_out",
    "claims_problem",
    "harness_schema",
    "keeps_out",
    "legacy_values",
    "schema_json",
]

#: The protocol version the runner speaks (``hello``'s ``protocol``).
PROTOCOL = 1
#: A claim's value for "every value of this knob".
ANY = "*"
#: Knob paths a claim may leave out (taken as ``"*"``): what becomes of a round when a
#: seat leaves the game (``play.leave``), which no request of the protocol can express.
UNCLAIMED_KNOBS: tuple[str, ...] = tuple(k.path for k in KNOBS if k.section == "leave")


def legacy_values() -> dict[str, Any]:
    """Each knob path that has a legacy value (the knob table's ``legacy``) and that value:
    what a claim that leaves the knob out claims."""
    return {k.path: k.legacy[0] for k in KNOBS if k.legacy}


_SEATS: dict[str, Any] = {"type": "integer", "minimum": 0}
_CUPS: dict[str, Any] = {
    "type": "array",
    "items": {"type": "array", "items": {"type": "integer", "minimum": 1}},
    "description": "One cup per seat, [] for a seat that is out.",
}
_ACTION: dict[str, Any] = {"type": "string", "pattern": ACTION_PATTERN}
#: What ``act`` may send: also bids the rules refuse outright (zero dice, face 0), which
#: the engine must refuse.
_ANY_ACTION: dict[str, Any] = {
    "type": "string",
    "pattern": (
        r"^(0|[1-9][0-9]{0,5}):(?:([0-9]{1,9})x([0-9]{1,3})|(dudo|calza)"
        r"|reroll [0-9]{1,3}(?:,[0-9]{1,3})*)$"
    ),
}


def _cmd(name: str, description: str, **props: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "required": ["cmd", *props],
        "properties": {"cmd": {"const": name}, **props},
        "additionalProperties": False,
    }


def _claim_schema() -> dict[str, Any]:
    props: dict[str, Any] = {}
    for knob in KNOBS:
        one = dict(knob.schema)
        # the values only: what a knob decides is spec/variant.schema.json's to say
        props[knob.path] = {
            "anyOf": [{"const": ANY}, one, {"type": "array", "items": one, "minItems": 1}],
        }
        if knob.legacy:
            props[knob.path]["description"] = (
                f"Left out: {json.dumps(knob.legacy[0])}, the value that plays the game as "
                "it was played before this knob existed."
            )
    return {
        "type": "object",
        "description": (
            "Knob values the engine implements: a value, a list of values or '*' (any) for "
            "every knob path; those of a seat leaving, and those no edition the claim covers "
            "reads (the knob table's never_read, or a read_when the claim's own values fail), "
            "may be left out (taken as '*'), and so may a knob with a legacy value (the knob "
            "table's legacy), which claims that value. An edition is claimed when one claim "
            "covers all its values."
        ),
        "required": [
            k.path
            for k in KNOBS
            if k.path not in UNCLAIMED_KNOBS
            and not k.never_read
            and not k.read_when
            and not k.legacy
        ],
        "properties": props,
        "additionalProperties": False,
    }


def harness_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every message of the harness protocol."""
    outcome = {
        "type": "object",
        "required": ["delta", "next", "palifico", "eliminated", "winner"],
        "properties": {
            "delta": {"type": "array", "items": {"type": "integer"}},
            "next": {
                "oneOf": [_SEATS, {"type": "null"}],
                "description": "Who opens the next round; null once the game is over.",
            },
            "palifico": {"type": "boolean"},
            "eliminated": {"type": "array", "items": _SEATS},
            "winner": {
                "oneOf": [_SEATS, {"type": "null"}],
                "description": "The seat that won the game; null while the game goes on.",
            },
        },
        "additionalProperties": False,
    }
    edition = {
        "type": "object",
        "description": "Every knob path of perudo_rules.editions.knobs with the edition's value.",
        "required": list(KNOB_PATHS),
    }
    requests = [
        _cmd("hello", "First message: the engine names itself and its claims.",
             protocol={"const": PROTOCOL}),
        _cmd("start", "A new game at the start of a round.",
             edition=edition, dice=_CUPS, first_player=_SEATS,
             round={"type": "integer", "minimum": 1}, palifico={"type": "boolean"},
             palifico_used={"type": "array", "items": _SEATS}),
        _cmd("legal", "Every action one seat may take now.", seat=_SEATS),
        _cmd("act", "Take an action, or refuse it.", action=_ANY_ACTION),
        _cmd("roll", "The next round's dice (its number: the ended round's plus one), or "
             "a re-roll's (the same round).", dice=_CUPS),
        _cmd("quit", "The engine exits; no reply."),
    ]  # fmt: skip
    replies = [
        {
            "type": "object",
            "description": "Reply to hello.",
            "required": ["name", "claims"],
            "properties": {
                "name": {"type": "string", "minLength": 1, "maxLength": 200},
                "version": {"type": "string"},
                "claims": {"type": "array", "items": _claim_schema()},
            },
        },
        {
            "type": "object",
            "description": "Reply to start, act and roll: done (an act ending a round "
            "carries its outcome).",
            "required": ["ok"],
            "properties": {"ok": {"const": True}, "outcome": outcome},
            "additionalProperties": False,
        },
        {
            "type": "object",
            "description": "Reply to legal: [] for a seat that is out, and for every seat "
            "while the next round's dice are awaited and once the game is over.",
            "required": ["actions"],
            "properties": {"actions": {"type": "array", "items": _ACTION}},
            "additionalProperties": False,
        },
        {
            "type": "object",
            "description": "Reply to act: refused, nothing changed (why: a rule id or words; "
            "play.bid_range for a bid of zero dice or a face off the die, play.game_over once "
            "the game is over, play.roll while the next round's dice are awaited).",
            "required": ["illegal"],
            "properties": {"illegal": {"type": "string"}},
            "additionalProperties": False,
        },
        {
            "type": "object",
            "description": "Reply to start: a position this engine cannot set up.",
            "required": ["skip"],
            "properties": {"skip": {"type": "string"}},
            "additionalProperties": False,
        },
        {
            "type": "object",
            "description": "Any reply: the engine cannot go on.",
            "required": ["error"],
            "properties": {"error": {"type": "string"}},
            "additionalProperties": False,
        },
    ]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://perudo-rules.invalid/spec/harness.schema.json",
        "title": "perudo-rules harness protocol",
        "description": (
            "JSON lines: the runner writes one request a line to the engine's standard "
            "input; the engine answers each (but quit) with one reply a line."
        ),
        "$defs": {"request": {"oneOf": requests}, "reply": {"anyOf": replies}},
    }


def schema_json() -> str:
    """The schema as the text of ``spec/harness.schema.json``."""
    return json.dumps(harness_schema(), indent=2) + "\n"


def _fails(cond: ReadWhen, claim: Mapping[str, Any]) -> bool:
    """Whether ``cond`` fails for every value ``claim`` allows its knob (``"*"``, or a knob
    the claim leaves out without a legacy value, allows any: the condition may hold; a knob
    left out with a legacy value allows that value)."""
    path = "players.max" if cond.path == SEATS else cond.path
    claimed = claim.get(path, _LEGACY.get(path, ANY))
    if claimed == ANY:
        return False
    values = claimed if isinstance(claimed, list) else [claimed]
    return not any(cond.holds({cond.path: v}) for v in values)


_LEGACY = legacy_values()


def claim_leaves_out(claim: Mapping[str, Any]) -> tuple[str, ...]:
    """The knob paths ``claim`` may leave out, taken as ``"*"``: :data:`UNCLAIMED_KNOBS`, and
    every knob that no edition the claim covers reads (the knob table's ``never_read``, or
    a ``read_when`` condition that fails for every value the claim allows). A knob with a
    legacy value (:func:`legacy_values`) that is not among them may be left out too, and
    then claims that value."""
    return tuple(
        k.path
        for k in KNOBS
        if k.path in UNCLAIMED_KNOBS
        or k.never_read
        or any(_fails(cond, claim) for cond in k.read_when)
    )


def claims_problem(claims: Any) -> str | None:
    """Why ``claims`` (the ``hello`` reply's) is malformed, or ``None``."""
    if not isinstance(claims, list):
        return "claims must be a list of objects"
    for i, claim in enumerate(claims):
        if not isinstance(claim, dict):
            return f"claim {i} is not an object"
        free = claim_leaves_out(claim)
        missing = [p for p in KNOB_PATHS if p not in claim and p not in free and p not in _LEGACY]
        if missing:
            return (
                f"claim {i} does not name {missing[0]} (every knob path its editions read, "
                "'*' for any value)"
            )
        extra = [k for k in claim if k not in KNOB_PATHS]
        if extra:
            return f"claim {i} names {str(extra[0])[:60]!r}, which is no knob path"
    return None


def _covers(claimed: Any, value: Any) -> bool:
    if claimed == ANY:
        return True
    if isinstance(claimed, list):
        return any(same_value(c, value) for c in claimed)
    return same_value(claimed, value)


def claim_covers(claims: Sequence[Mapping[str, Any]], values: Mapping[str, Any]) -> bool:
    """Whether one of ``claims`` covers every knob value of ``values`` (an edition)."""
    return any(_claim_covers(c, values) for c in claims)


def _claim_covers(claim: Mapping[str, Any], values: Mapping[str, Any]) -> bool:
    free = claim_leaves_out(claim)
    return all(_covers(_claimed(claim, p, free), values[p]) for p in KNOB_PATHS)


def _claimed(claim: Mapping[str, Any], path: str, free: Sequence[str]) -> Any:
    """What ``claim`` claims of the knob ``path``: its value; left out, ``"*"`` if the claim
    may leave it out, else its legacy value (a list of that one value: the value may be
    ``None``), else an empty list, which covers no value (so a knob left out is never taken
    as a claim of ``null``)."""
    if path in claim:
        return claim[path]
    if path in free:
        return ANY
    if path in _LEGACY:
        return [_LEGACY[path]]
    return _NOTHING


_NOTHING: list[Any] = []


def keeps_out(claims: Sequence[Mapping[str, Any]], values: Mapping[str, Any]) -> str:
    """Why no claim covers the edition ``values``: for the claim nearest to it (fewest
    knobs apart), each claimed knob value that differs from the edition's, as
    ``"calza.who: 'anyone' (the edition: 'any_except_bidder')"``; or that the engine
    claims nothing."""
    best: list[str] | None = None
    for claim in claims:
        free = claim_leaves_out(claim)
        misses = [
            f"{p}: {json.dumps(_claimed(claim, p, free))} (the edition: {json.dumps(values[p])})"
            for p in KNOB_PATHS
            if not _covers(_claimed(claim, p, free), values[p])
        ]
        if best is None or len(misses) < len(best):
            best = misses
    if best is None:
        return "the engine claims no edition"
    return "; ".join(best)


if __name__ == "__main__":  # pragma: no cover
    print(schema_json(), end="")
