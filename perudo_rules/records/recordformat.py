"""The record file format: its constants, errors, JSON Schema, and reading a file.

:mod:`perudo_rules.records.record` builds records and :mod:`perudo_rules.records.replay`
replays them; this module knows only their shape. :func:`load_record` and
:func:`parse_record` read the JSON, :func:`check_shape` checks it against the schema by
hand (fast on large input, with one clear message), :func:`record_schema` is the published
schema (``spec/record.schema.json``; rewrite it with
``python -m perudo_rules.records.recordformat > spec/record.schema.json``). The size limits
it enforces are those of :mod:`perudo_rules.base.limits`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perudo_rules.base.actions import (
    ACTION_PATTERN,
    BID_PATTERN,
    REDACTED_ROLL_PATTERN,
    ROLL_PATTERN,
)
from perudo_rules.base.errors import LocatedError, PerudoError
from perudo_rules.base.i18n import ntr, tr
from perudo_rules.base.limits import (
    MAX_NODES,
    MAX_PLAYERS,
    MAX_RECORD_BYTES,
    MAX_RECORD_NODES,
    json_problem,
    read_bounded,
)
from perudo_rules.base.messages import Refusal, format_message
from perudo_rules.base.schematext import json_kind

__all__ = [
    "FORMAT",
    "SCHEMA_ID",
    "VARIANT_ID_PATTERN",
    "VERSION",
    "RecordError",
    "RecordViolation",
    "Violation",
    "check_shape",
    "load_record",
    "parse_record",
    "record_schema",
    "schema_json",
]


FORMAT = "perudo-rules-record"
VERSION = 1
SCHEMA_ID = "https://perudo-rules.invalid/spec/record.schema.json"

#: A bundled variant id, as a record names it.
VARIANT_ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*$"
_ACTION_RE = re.compile(ACTION_PATTERN)
_ROLL_RE = re.compile(ROLL_PATTERN)
_HIDDEN_ROLL_RE = re.compile(REDACTED_ROLL_PATTERN)
_ID_RE = re.compile(VARIANT_ID_PATTERN)


@dataclass(frozen=True, slots=True)
class Violation:
    """The first step of a record that breaks a rule.

    ``round`` is the round number, ``step`` the 1-based index of the action in
    the round (0 for the round itself: its number, dice, opener, or its
    result), ``action`` the action text (``None`` at step 0) and ``refusal`` the
    structured :class:`~perudo_rules.base.messages.Refusal`: the rule id broken (a knob
    path or a fixed rule of ``spec/core-rules.yaml``, also ``rule``), a message id
    and the values of its sentence (``reason``, in English).
    """

    round: int
    step: int
    action: str | None
    refusal: Refusal

    @property
    def rule(self) -> str:
        """The rule id broken."""
        return self.refusal.rule

    @property
    def reason(self) -> str:
        """One English sentence why, made from the refusal."""
        return self.refusal.message

    def text(self, lang: str | None = None) -> str:
        """``round 1, step 2 (1:2x4): <reason> [rule]`` in ``lang`` (default: the language
        of the context, :func:`perudo_rules.base.i18n.use_language`)."""
        place = {"round": self.round, "step": self.step}
        if self.action is None:
            where = format_message("record-at-round", place, lang)
        else:
            where = format_message("record-at-step", {**place, "action": self.action}, lang)
        return f"{where}: {self.refusal.text(lang)} [{self.rule}]"

    def to_json(self) -> dict[str, Any]:
        """Where, the rule, the English reason, the message id and its parameters."""
        return {
            "round": self.round,
            "step": self.step,
            "action": self.action,
            "rule": self.rule,
            "reason": self.reason,
            "message_id": self.refusal.message_id,
            "params": dict(self.refusal.params),
        }

    def __str__(self) -> str:
        return self.text()


class RecordError(LocatedError):
    """A record is malformed, or (from :func:`replay`) breaks a rule.

    ``file`` is the record file (``None`` for in-memory input), ``key_path`` the
    dotted path inside it; ``violation`` is set when the record is well formed
    but breaks a rule (then :func:`perudo_rules.records.referee.referee` reports it).
    ``str(error)`` is one readable line.
    """

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        key_path: str = "",
        violation: Violation | None = None,
    ) -> None:
        super().__init__(message, file=file, key_path=key_path)
        self.violation = violation


class RecordViolation(PerudoError):
    """A well-formed record breaks a rule: raised by :func:`perudo_rules.records.replay.walk`.

    ``violation`` says where (round, step, action) and which rule, ``key_path`` the value
    at fault (``rounds.0.actions.3``; set by :func:`~perudo_rules.records.replay.walk`);
    ``str(error)`` is one line. :func:`perudo_rules.records.replay.replay` turns it into a
    :class:`RecordError`; :func:`perudo_rules.records.referee.referee` into a verdict.
    """

    def __init__(self, violation: Violation, key_path: str = "") -> None:
        self.violation = violation
        self.key_path = key_path
        super().__init__(str(violation))


# --- the schema ---------------------------------------------------------------------------


def record_schema(variant_ref: bool = True) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of records.

    With ``variant_ref`` an embedded variant refers to ``variant.schema.json``
    (the published schema); without, it is any object and the variant loader
    checks it (that is how :func:`replay` validates, for better messages).
    """
    seat = {"type": "integer", "minimum": 0, "maximum": MAX_PLAYERS - 1}
    seat_or_null = {"oneOf": [seat, {"type": "null"}]}
    embedded: dict[str, Any] = (
        {"$ref": "variant.schema.json"} if variant_ref else {"type": "object"}
    )
    result = {
        "type": "object",
        "description": (
            "How the round ended, for readers; when present it must agree with the rules."
        ),
        "additionalProperties": False,
        "required": ["kind", "caller", "bid", "count"],
        "properties": {
            "kind": {
                "enum": ["dudo", "calza", "leave"],
                "description": (
                    "leave: the caller left the game and the round ended without a call "
                    "(called off, or won by the last seat holding dice)."
                ),
            },
            "caller": seat,
            "bid": {
                "oneOf": [{"type": "string", "pattern": BID_PATTERN}, {"type": "null"}],
                "description": "The bid called; a leave's standing bid, or null before any.",
            },
            "count": {
                "oneOf": [{"type": "integer", "minimum": 0}, {"type": "null"}],
                "description": (
                    "The true number of dice counting as the bid's face; null for a leave, "
                    "and in a redacted record where a die of the round is hidden."
                ),
            },
            "loser": seat_or_null,
            "gainer": seat_or_null,
            "revealed": {
                "type": "array",
                "items": seat,
                "description": "The seats whose cups were lifted, in order.",
            },
            "next_player": {
                **seat_or_null,
                "description": "Who opens the next round (null once the game is over).",
            },
            "next_palifico": {"type": "boolean"},
        },
        # only a leave may come before any bid
        "if": {"properties": {"kind": {"const": "leave"}}},
        "else": {"properties": {"bid": {"type": "string"}}},
    }
    # a full record (no viewer) hides no die, and states every call's true count
    full = {
        "properties": {
            "rounds": {
                "items": {
                    "properties": {
                        "dice": {"items": {"items": {"type": "integer"}}},
                        "actions": {
                            "items": {
                                "anyOf": [{"pattern": ACTION_PATTERN}, {"pattern": ROLL_PATTERN}]
                            }
                        },
                        "result": {
                            "if": {"properties": {"kind": {"const": "leave"}}},
                            "else": {"properties": {"count": {"type": "integer"}}},
                        },
                    }
                }
            }
        }
    }
    round_ = {
        "type": "object",
        "additionalProperties": False,
        "required": ["round", "first_player", "palifico", "dice", "actions"],
        "properties": {
            "round": {"type": "integer", "minimum": 1},
            "first_player": seat,
            "palifico": {"type": "boolean"},
            "dice": {
                "type": "array",
                "description": (
                    "One cup per seat, [] for a seat that is out; in a redacted record null "
                    "for each die the viewer never saw."
                ),
                "items": {
                    "type": "array",
                    "items": {"oneOf": [{"type": "integer"}, {"type": "null"}]},
                },
            },
            "actions": {
                "type": "array",
                "description": (
                    "In order: 'seat:QxF' (a bid), 'seat:dudo', 'seat:calza', 'seat:leave' or "
                    "'seat:reroll F,F' (a re-roll), each re-roll followed by the roll of its "
                    "dice, 'roll [[], [2, 5]]' (one list per seat; null for a die the viewer "
                    "of a redacted record never saw); after the call that ended the round, "
                    "'seat:leave' for each seat that left before the next round was rolled."
                ),
                "items": {
                    "type": "string",
                    "anyOf": [{"pattern": ACTION_PATTERN}, {"pattern": REDACTED_ROLL_PATTERN}],
                },
            },
            "result": result,
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "perudo-rules game record",
        "description": (
            "One game of Perudo: the variant, the seats and every round's dice and actions. "
            "Generated by perudo_rules.records.recordformat.record_schema()."
        ),
        "type": "object",
        "additionalProperties": False,
        "required": ["format", "version", "variant", "seats", "rounds"],
        "properties": {
            "format": {"const": FORMAT},
            "version": {"type": "integer", "const": VERSION},
            "variant": {
                "description": (
                    "A bundled variant id, or a complete variant document (or one that "
                    "extends a bundled id)."
                ),
                "oneOf": [
                    {"type": "string", "pattern": VARIANT_ID_PATTERN},
                    embedded,
                ],
            },
            "seats": {"type": "integer", "minimum": 2, "maximum": MAX_PLAYERS},
            "viewer": {
                **seat_or_null,
                "description": (
                    "Present in a redacted record (perudo_rules.records.record.to_record(game, "
                    "viewer=seat)): the seat whose view it is, null for a spectator's (the "
                    "default). Its own cups and the cups lifted at a reveal are shown; every "
                    "other die is null. It can be refereed but not replayed."
                ),
            },
            "names": {
                "type": "array",
                "description": "Optional names of the seats, in seat order.",
                "items": {"type": "string", "maxLength": 200},
            },
            "setup": {
                "type": "object",
                "description": "Present when the game started from an explicit position.",
                "additionalProperties": False,
                "properties": {"palifico_used": {"type": "array", "items": seat}},
            },
            "rounds": {"type": "array", "minItems": 1, "items": round_},
            "winner": seat_or_null,
        },
        "if": {"required": ["viewer"]},
        "else": full,
    }


def schema_json() -> str:
    """The schema as the exact text of ``spec/record.schema.json``."""
    return json.dumps(record_schema(), indent=2) + "\n"


# --- reading ------------------------------------------------------------------------------


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordError(tr("duplicate key {key}", key=repr(key)))
        out[key] = value
    return out


def load_record(source: str | Path) -> dict[str, Any]:
    """Read a record file (``RecordError`` if it is unreadable, too large or not JSON).

    Only the JSON is read here; :func:`replay` and the referee check the rest.
    """
    name = str(source)
    raw = read_bounded(source, MAX_RECORD_BYTES, RecordError, tr("no such record file"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(tr("file is not valid UTF-8"), file=name) from None
    return parse_record(text, name)


def parse_record(text: str, file: str | None = None) -> dict[str, Any]:
    """Parse the JSON text of a record (``RecordError`` if it is not a JSON object)."""
    if len(text) > MAX_RECORD_BYTES:
        too_large = tr("record too large (limit {limit} bytes)", limit=MAX_RECORD_BYTES)
        raise RecordError(too_large, file=file)
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates)
    except RecordError as exc:
        raise RecordError(exc.message, file=file) from None
    except json.JSONDecodeError as exc:
        raise RecordError(json_problem(exc), file=file) from None
    except (ValueError, RecursionError) as exc:
        raise RecordError(json_problem(exc), file=file) from None
    if not isinstance(data, dict):
        raise RecordError(tr("a record must be a JSON object"), file=file)
    return data


def _count_values(data: Any) -> int:
    stack = [data]
    count = 0
    while stack and count <= MAX_NODES:
        node = stack.pop()
        count += 1
        if isinstance(node, Mapping):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return count


def _count_nodes(data: Any, file: str | None) -> None:
    # breadth first, counting a container's items before looking inside: a huge array
    # is refused as soon as its length is seen
    count = 1
    level = [data]
    for _depth in range(32):
        nested: list[Any] = []
        for node in level:
            items = node.values() if isinstance(node, Mapping) else node
            count += len(items)
            if count > MAX_RECORD_NODES:
                raise RecordError(
                    tr("record too large (over {most} values)", most=MAX_RECORD_NODES), file=file
                )
            nested.extend(v for v in items if isinstance(v, Mapping | list))
        if not nested:
            return
        level = nested
    raise RecordError(tr("record nested too deeply"), file=file)


_TOP_KEYS = (
    "format", "version", "variant", "seats", "viewer", "names", "setup", "rounds", "winner",
)  # fmt: skip
_ROUND_KEYS = ("round", "first_player", "palifico", "dice", "actions", "result")
_RESULT_KEYS = (
    "kind",
    "caller",
    "bid",
    "count",
    "loser",
    "gainer",
    "revealed",
    "next_player",
    "next_palifico",
)
_BID_RE = re.compile(BID_PATTERN)


class _Shape:
    """The checks of :func:`record_schema`, by hand: fast on large input, clear messages."""

    def __init__(self, file: str | None) -> None:
        self.file = file
        self.redacted = False

    def fail(self, path: str, message: str) -> RecordError:
        return RecordError(message, file=self.file, key_path=path)

    def obj(
        self, value: Any, path: str, keys: Sequence[str], required: Sequence[str]
    ) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(path, tr("expected an object, not {kind}", kind=json_kind(value)))
        for key in value:
            if key not in keys:
                shown, here = repr(str(key)[:60]), f"{path}.{str(key)[:60]}".lstrip(".")
                unknown = tr("unknown key {key} (allowed: {keys})", key=shown, keys=", ".join(keys))
                raise self.fail(here, unknown)
        for key in required:
            if key not in value:
                raise self.fail(path, tr("missing required key {key}", key=repr(key)))
        return value

    def integer(self, value: Any, path: str, lo: int, hi: int | None = None) -> int:
        if type(value) is not int:
            raise self.fail(path, tr("expected an integer, not {kind}", kind=json_kind(value)))
        if value < lo or (hi is not None and value > hi):
            bound = tr("at least {lo}", lo=lo) if hi is None else tr("{lo} to {hi}", lo=lo, hi=hi)
            raise self.fail(path, tr("{value} is out of range ({bound})", value=value, bound=bound))
        return value

    def seat(self, value: Any, path: str, nullable: bool = False) -> None:
        if value is None and nullable:
            return
        self.integer(value, path, 0, MAX_PLAYERS - 1)

    def boolean(self, value: Any, path: str) -> None:
        if type(value) is not bool:
            raise self.fail(path, tr("expected true or false, not {kind}", kind=json_kind(value)))

    def array(self, value: Any, path: str, min_items: int = 0) -> Sequence[Any]:
        if not isinstance(value, list):
            raise self.fail(path, tr("expected an array, not {kind}", kind=json_kind(value)))
        if len(value) < min_items:
            raise self.fail(path, ntr("expected at least {n} item", "expected at least {n} items",
                                      min_items))  # fmt: skip
        return value

    def text(self, value: Any, path: str, pattern: re.Pattern[str] | None = None) -> str:
        if not isinstance(value, str):
            raise self.fail(path, tr("expected a string, not {kind}", kind=json_kind(value)))
        if pattern is not None and not pattern.fullmatch(value):
            raise self.fail(path, tr("{value} is not in the expected form", value=repr(value[:60])))
        return value

    def record(self, data: Any) -> None:
        top = self.obj(data, "", _TOP_KEYS, ("format", "version", "variant", "seats", "rounds"))
        if top["format"] != FORMAT:
            raise self.fail("format", tr("expected {value}", value=repr(FORMAT)))
        if type(top["version"]) is not int or top["version"] != VERSION:
            raise self.fail("version", tr("this library reads version {version}", version=VERSION))
        variant = top["variant"]
        if isinstance(variant, str):
            self.text(variant, "variant", _ID_RE)
        elif not isinstance(variant, Mapping):
            raise self.fail("variant", tr("expected a bundled variant id or a variant document"))
        self.integer(top["seats"], "seats", 2, MAX_PLAYERS)
        if "viewer" in top:  # null: a spectator's record
            self.seat(top["viewer"], "viewer", nullable=True)
            if top["viewer"] is not None and top["viewer"] >= top["seats"]:
                raise self.fail("viewer", tr("seat {seat} does not exist", seat=top["viewer"]))
            self.redacted = True
        if "names" in top:
            for i, name in enumerate(self.array(top["names"], "names")):
                if len(self.text(name, f"names.{i}")) > 200:
                    raise self.fail(f"names.{i}", tr("a name has at most 200 characters"))
        if "setup" in top:
            setup = self.obj(top["setup"], "setup", ("palifico_used",), ())
            if "palifico_used" in setup:
                used = self.array(setup["palifico_used"], "setup.palifico_used")
                for i, s in enumerate(used):
                    self.seat(s, f"setup.palifico_used.{i}")
                    if s >= top["seats"]:
                        raise self.fail(
                            f"setup.palifico_used.{i}",
                            ntr(
                                "seat {seat} does not exist: the game has {n} seat",
                                "seat {seat} does not exist: the game has {n} seats",
                                top["seats"],
                                seat=s,
                            ),
                        )
        for r, rnd in enumerate(self.array(top["rounds"], "rounds", 1)):
            self.round(rnd, f"rounds.{r}")
        if "winner" in top:
            self.seat(top["winner"], "winner", nullable=True)

    def round(self, rnd: Any, path: str) -> None:
        rnd = self.obj(rnd, path, _ROUND_KEYS, _ROUND_KEYS[:-1])
        self.integer(rnd["round"], f"{path}.round", 1)
        self.seat(rnd["first_player"], f"{path}.first_player")
        self.boolean(rnd["palifico"], f"{path}.palifico")
        for i, cup in enumerate(self.array(rnd["dice"], f"{path}.dice")):
            for j, die in enumerate(self.array(cup, f"{path}.dice.{i}")):
                if type(die) is not int and not (die is None and self.redacted):
                    hidden = " " + tr("(a hidden die is null only in a redacted record)")
                    kind = tr("expected an integer, not {kind}", kind=json_kind(die))
                    raise self.fail(f"{path}.dice.{i}.{j}", kind + (hidden if die is None else ""))
        for i, action in enumerate(self.array(rnd["actions"], f"{path}.actions")):
            roll = _HIDDEN_ROLL_RE if self.redacted else _ROLL_RE
            if not isinstance(action, str) or not (
                _ACTION_RE.fullmatch(action) or roll.fullmatch(action)
            ):
                shown = repr(action[:60]) if isinstance(action, str) else json_kind(action)
                hidden = ""
                if isinstance(action, str) and _HIDDEN_ROLL_RE.fullmatch(action):
                    hidden = " " + tr("(a hidden die is null only in a redacted record)")
                raise self.fail(
                    f"{path}.actions.{i}",
                    tr(
                        "not an action: {shown} (write seat:QxF, seat:dudo, seat:calza, "
                        "seat:leave, seat:reroll F,F or roll [[F, F], []])",
                        shown=shown,
                    )
                    + hidden,
                )
        if "result" in rnd:
            self.result(rnd["result"], f"{path}.result")

    def result(self, res: Any, path: str) -> None:
        res = self.obj(res, path, _RESULT_KEYS, _RESULT_KEYS[:4])
        kind = res["kind"]
        if not isinstance(kind, str) or kind not in ("dudo", "calza", "leave"):
            raise self.fail(f"{path}.kind", "expected 'dudo', 'calza' or 'leave'")
        self.seat(res["caller"], f"{path}.caller")
        if res["bid"] is not None or kind != "leave":  # a leave before any bid: null
            self.text(res["bid"], f"{path}.bid", _BID_RE)
        if res["count"] is not None or not (kind == "leave" or self.redacted):
            self.integer(res["count"], f"{path}.count", 0)
        for key in ("loser", "gainer", "next_player"):
            if key in res:
                self.seat(res[key], f"{path}.{key}", nullable=True)
        if "revealed" in res:
            for i, s in enumerate(self.array(res["revealed"], f"{path}.revealed")):
                self.seat(s, f"{path}.revealed.{i}")
        if "next_palifico" in res:
            self.boolean(res["next_palifico"], f"{path}.next_palifico")


def check_shape(data: Any, file: str | None = None) -> None:
    """Check that ``data`` has the shape of a record (:class:`RecordError` if not).

    Types, keys, ranges and sizes, as :func:`record_schema` states them; an embedded
    variant is only checked to be an object of bounded size (the variant loader
    checks the rest). Rules are not checked here.
    """
    if not isinstance(data, Mapping):
        not_one = tr("a record must be a JSON object, not {kind}", kind=json_kind(data))
        raise RecordError(not_one, file=file)
    _count_nodes(data, file)
    _Shape(file).record(data)
    ref = data["variant"]
    if isinstance(ref, Mapping) and _count_values(ref) > MAX_NODES:
        raise RecordError(
            tr("the embedded variant is too large (over {most} values)", most=MAX_NODES),
            file=file,
            key_path="variant",
        )


if __name__ == "__main__":  # pragma: no cover - exercised through the freshness test
    print(schema_json(), end="")
