"""Game records: a JSON format for whole games, like PGN is for chess.

A record holds everything needed to rebuild a game without the files that
defined its variant::

    {
      "format": "perudo-rules-record",
      "version": 1,
      "variant": "italian",
      "seats": 3,
      "rounds": [
        {"round": 1, "first_player": 2, "palifico": false,
         "dice": [[1, 4, 4, 6, 2], [3, 3, 5, 1, 6], [2, 2, 4, 6, 6]],
         "actions": ["2:3x4", "0:4x4", "1:dudo"],
         "result": {"kind": "dudo", "caller": 1, "bid": "4x4", "count": 5, ...}},
        ...
      ],
      "winner": 2
    }

* ``variant`` is a bundled variant id when the game ran on an unmodified bundled
  edition; otherwise the complete variant document (every knob with its merged
  value, as a variant file without ``extends`` would state it). On input a
  document may also ``extend`` a bundled id.
* Each round lists the dice of every seat (``[]`` for a seat that is out) and
  the actions in order, each ``"seat:QxF"`` (a bid), ``"seat:dudo"`` or
  ``"seat:calza"``. ``result`` (how the round ended) is for readers; when
  present it must agree with the rules. The last round may be unfinished.
* ``setup`` (optional, like PGN's SetUp tag) marks a game that started from an
  explicit position (:meth:`Game.start`): its first round may have any number,
  dice counts and palifico flag, and ``setup.palifico_used`` lists the seats
  that already had their palifico round. Without it the game starts from the
  standard position: round 1, ``dice.per_player`` dice per seat, no palifico.

:meth:`Game.record` (= :func:`export`) writes a record, :func:`replay` rebuilds
the game (:func:`states` yields every position on the way), and
:func:`perudo_rules.referee.referee` says whether a record obeys its variant.
``spec/record.schema.json`` is :func:`schema_json`; a test keeps it fresh.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from perudo_rules._yaml import MAX_NODES, YamlDoc
from perudo_rules.actions import Action, Bid, Calza, Dudo
from perudo_rules.errors import IllegalAction, LocatedError, VariantError
from perudo_rules.knobs import KNOB_PATHS
from perudo_rules.variant import (
    MAX_PLAYERS,
    Variant,
    _check_consistency,
    _merge_doc,
    _schema_errors,
    available_variants,
    load_variant,
)

if TYPE_CHECKING:
    from perudo_rules.game import Game, RoundRecord, RoundResult

__all__ = [
    "FORMAT",
    "MAX_RECORD_BIDS",
    "MAX_RECORD_BYTES",
    "MAX_RECORD_NODES",
    "VERSION",
    "RecordError",
    "Violation",
    "check_record",
    "export",
    "format_action",
    "load_record",
    "parse_action",
    "parse_record",
    "record_schema",
    "record_variant",
    "replay",
    "schema_json",
    "states",
]

FORMAT = "perudo-rules-record"
VERSION = 1
SCHEMA_ID = "https://perudo-rules.invalid/spec/record.schema.json"

#: Largest record file :func:`load_record` reads.
MAX_RECORD_BYTES = 8 << 20
#: Most JSON values (objects, arrays, scalars) a record may hold.
MAX_RECORD_NODES = 500_000
#: Most ranked bids the rounds of one record may need in total (dice.faces x dice in play,
#: summed over the rounds): each round builds its table of bids, so this bounds the work.
MAX_RECORD_BIDS = 1_000_000

_ACTION_RE = re.compile(
    r"^(0|[1-9][0-9]{0,5}):(?:([1-9][0-9]{0,8})x([1-9][0-9]{0,2})|(dudo|calza))$"
)
_ACTION_PATTERN = _ACTION_RE.pattern
_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")


@dataclass(frozen=True, slots=True)
class Violation:
    """The first step of a record that breaks a rule.

    ``round`` is the round number, ``step`` the 1-based index of the action in
    the round (0 for the round itself: its number, dice, opener, or its
    result), ``action`` the action text (``None`` at step 0), ``rule`` the rule
    id broken (a knob path or a fixed rule of ``spec/core-rules.yaml``) and
    ``reason`` one sentence why.
    """

    round: int
    step: int
    action: str | None
    rule: str
    reason: str

    def __str__(self) -> str:
        where = f"round {self.round}, step {self.step}"
        if self.action is not None:
            where += f" ({self.action})"
        return f"{where}: {self.reason} [{self.rule}]"


class RecordError(LocatedError):
    """A record is malformed, or (from :func:`replay`) breaks a rule.

    ``file`` is the record file (``None`` for in-memory input), ``key_path`` the
    dotted path inside it; ``violation`` is set when the record is well formed
    but breaks a rule (then :func:`perudo_rules.referee.referee` reports it).
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


# --- actions ------------------------------------------------------------------------------


def format_action(action: Action) -> str:
    """The record text of an action: ``"2:5x4"``, ``"1:dudo"``, ``"0:calza"``."""
    return f"{action.player}:{action}"


def parse_action(text: str) -> Action:
    """Parse the record text of an action (``RecordError`` if it is not one)."""
    m = _ACTION_RE.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise RecordError(f"not an action: {text!r} (write seat:QxF, seat:dudo or seat:calza)")
    seat = int(m.group(1))
    if m.group(4) == "dudo":
        return Dudo(seat)
    if m.group(4) == "calza":
        return Calza(seat)
    return Bid(seat, int(m.group(2)), int(m.group(3)))


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
            "kind": {"enum": ["dudo", "calza"]},
            "caller": seat,
            "bid": {"type": "string", "pattern": r"^[1-9][0-9]*x[1-9][0-9]*$"},
            "count": {
                "type": "integer",
                "minimum": 0,
                "description": "The true number of dice counting as the bid's face.",
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
    }
    round_ = {
        "type": "object",
        "additionalProperties": False,
        "required": ["round", "first_player", "palifico", "dice", "actions"],
        "properties": {
            "round": {"type": "integer", "minimum": 1, "maximum": 10**9},
            "first_player": seat,
            "palifico": {"type": "boolean"},
            "dice": {
                "type": "array",
                "description": "One cup per seat, [] for a seat that is out.",
                "items": {"type": "array", "items": {"type": "integer"}},
            },
            "actions": {
                "type": "array",
                "description": "In order: 'seat:QxF' (a bid), 'seat:dudo' or 'seat:calza'.",
                "items": {"type": "string", "pattern": _ACTION_PATTERN},
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
            "Generated by perudo_rules.record.record_schema()."
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
                    {"type": "string", "pattern": _ID_RE.pattern},
                    embedded,
                ],
            },
            "seats": {"type": "integer", "minimum": 2, "maximum": MAX_PLAYERS},
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
    }


def schema_json() -> str:
    """The schema as the exact text of ``spec/record.schema.json``."""
    return json.dumps(record_schema(), indent=2) + "\n"


# --- export -------------------------------------------------------------------------------


@functools.cache
def _bundled(variant_id: str) -> Variant | None:
    if variant_id not in available_variants():
        return None
    return load_variant(variant_id)


def _slug(text: str) -> str:
    slug = re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-_")
    return slug if slug and _ID_RE.match(slug) else "house-rules"


def record_variant(variant: Variant) -> str | dict[str, Any]:
    """How a record names ``variant``: its id if it is an unmodified bundled edition,
    else the complete variant document with every knob's value."""
    if _bundled(variant.id) == variant:
        return variant.id
    doc: dict[str, Any] = {"id": _slug(variant.id), "name": variant.name}
    if variant.description:
        doc["description"] = variant.description
    for path in KNOB_PATHS:
        section, name = path.split(".", 1)
        doc.setdefault(section, {})[name] = variant[path]
    return doc


def _result_dict(res: RoundResult) -> dict[str, Any]:
    return {
        "kind": res.kind,
        "caller": res.caller,
        "bid": str(res.bid),
        "count": res.count,
        "loser": res.loser,
        "gainer": res.gainer,
        "revealed": list(res.revealed),
        "next_player": res.next_player,
        "next_palifico": res.next_palifico,
    }


def _round_dict(rec: RoundRecord) -> dict[str, Any]:
    return {
        "round": rec.round,
        "first_player": rec.first_player,
        "palifico": rec.palifico,
        "dice": [list(c) for c in rec.dice],
        "actions": [format_action(a) for a in rec.actions],
        "result": _result_dict(rec.result),
    }


def export(game: Game) -> dict[str, Any]:
    """The record of ``game`` so far (JSON-ready); :meth:`Game.record` calls this."""
    rounds = [_round_dict(r) for r in game.history]
    if game.to_move is not None:
        assert game.first_player is not None
        rounds.append(
            {
                "round": game.round,
                "first_player": game.first_player,
                "palifico": game.palifico,
                "dice": [list(c) for c in game.dice],
                "actions": [format_action(a) for a in game.bids],
            }
        )
    rules = game.rules
    added = {r["first_player"] for r in rounds if r["palifico"]}
    if game.awaiting_roll and game.palifico and game.palifico_player is not None:
        added.add(game.palifico_player)
    used_before = sorted(game.palifico_used - added)
    first = rounds[0]
    standard = (
        first["round"] == 1
        and not first["palifico"]
        and not used_before
        and all(len(c) == rules.dice_per_player for c in first["dice"])
        and (rules.setup_first_player != "seat_zero" or first["first_player"] == 0)
    )
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "variant": record_variant(game.variant),
        "seats": game.players,
    }
    if not standard:
        out["setup"] = {"palifico_used": used_before}
    out["rounds"] = rounds
    out["winner"] = game.winner
    return out


# --- reading ------------------------------------------------------------------------------


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordError(f"duplicate key {key!r}")
        out[key] = value
    return out


def load_record(source: str | Path) -> dict[str, Any]:
    """Read a record file (``RecordError`` if it is unreadable, too large or not JSON).

    Only the JSON is read here; :func:`replay` and the referee check the rest.
    """
    name = str(source)
    path = Path(source)
    try:
        if not path.is_file():
            raise RecordError("no such record file", file=name)
        size = path.stat().st_size
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"file too large ({size} bytes, limit {MAX_RECORD_BYTES})", file=name)
        with path.open("rb") as fh:
            raw = fh.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise RecordError(f"cannot read file: {exc.strerror or exc}", file=name) from None
    if len(raw) > MAX_RECORD_BYTES:
        raise RecordError(f"file too large (limit {MAX_RECORD_BYTES} bytes)", file=name)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("file is not valid UTF-8", file=name) from None
    return parse_record(text, name)


def parse_record(text: str, file: str | None = None) -> dict[str, Any]:
    """Parse the JSON text of a record (``RecordError`` if it is not a JSON object)."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"record too large (limit {MAX_RECORD_BYTES} bytes)", file=file)
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates)
    except RecordError as exc:
        raise RecordError(exc.message, file=file) from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"invalid JSON: {exc.msg} (line {exc.lineno})", file=file) from None
    except (ValueError, RecursionError) as exc:
        raise RecordError(f"invalid JSON: {exc}"[:200], file=file) from None
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object", file=file)
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
                raise RecordError(f"record too large (over {MAX_RECORD_NODES} values)", file=file)
            nested.extend(v for v in items if isinstance(v, Mapping | list))
        if not nested:
            return
        level = nested
    raise RecordError("record nested too deeply", file=file)


_TOP_KEYS = ("format", "version", "variant", "seats", "names", "setup", "rounds", "winner")
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
_BID_RE = re.compile(r"[1-9][0-9]*x[1-9][0-9]*")


class _Shape:
    """The checks of :func:`record_schema`, by hand: fast on large input, clear messages."""

    def __init__(self, file: str | None) -> None:
        self.file = file

    def fail(self, path: str, message: str) -> RecordError:
        return RecordError(message, file=self.file, key_path=path)

    def obj(
        self, value: Any, path: str, keys: Sequence[str], required: Sequence[str]
    ) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(path, f"expected an object, not {_kind(value)}")
        for key in value:
            if key not in keys:
                shown = repr(str(key)[:60])
                raise self.fail(path, f"unknown key {shown} (allowed: {', '.join(keys)})")
        for key in required:
            if key not in value:
                raise self.fail(path, f"missing required key {key!r}")
        return value

    def integer(self, value: Any, path: str, lo: int, hi: int | None = None) -> int:
        if type(value) is not int:
            raise self.fail(path, f"expected an integer, not {_kind(value)}")
        if value < lo or (hi is not None and value > hi):
            bound = f"{lo} to {hi}" if hi is not None else f"at least {lo}"
            raise self.fail(path, f"{value} is out of range ({bound})")
        return value

    def seat(self, value: Any, path: str, nullable: bool = False) -> None:
        if value is None and nullable:
            return
        self.integer(value, path, 0, MAX_PLAYERS - 1)

    def boolean(self, value: Any, path: str) -> None:
        if type(value) is not bool:
            raise self.fail(path, f"expected true or false, not {_kind(value)}")

    def array(self, value: Any, path: str, min_items: int = 0) -> Sequence[Any]:
        if not isinstance(value, list):
            raise self.fail(path, f"expected an array, not {_kind(value)}")
        if len(value) < min_items:
            raise self.fail(path, f"expected at least {min_items} item(s)")
        return value

    def text(self, value: Any, path: str, pattern: re.Pattern[str] | None = None) -> str:
        if not isinstance(value, str):
            raise self.fail(path, f"expected a string, not {_kind(value)}")
        if pattern is not None and not pattern.fullmatch(value):
            raise self.fail(path, f"{value[:60]!r} is not in the expected form")
        return value

    def record(self, data: Any) -> None:
        top = self.obj(data, "", _TOP_KEYS, ("format", "version", "variant", "seats", "rounds"))
        if top["format"] != FORMAT:
            raise self.fail("format", f"expected {FORMAT!r}")
        if type(top["version"]) is not int or top["version"] != VERSION:
            raise self.fail("version", f"this library reads version {VERSION}")
        variant = top["variant"]
        if isinstance(variant, str):
            self.text(variant, "variant", _ID_RE)
        elif not isinstance(variant, Mapping):
            raise self.fail("variant", "expected a bundled variant id or a variant document")
        self.integer(top["seats"], "seats", 2, MAX_PLAYERS)
        if "names" in top:
            for i, name in enumerate(self.array(top["names"], "names")):
                if len(self.text(name, f"names.{i}")) > 200:
                    raise self.fail(f"names.{i}", "a name has at most 200 characters")
        if "setup" in top:
            setup = self.obj(top["setup"], "setup", ("palifico_used",), ())
            if "palifico_used" in setup:
                used = self.array(setup["palifico_used"], "setup.palifico_used")
                for i, s in enumerate(used):
                    self.seat(s, f"setup.palifico_used.{i}")
        for r, rnd in enumerate(self.array(top["rounds"], "rounds", 1)):
            self.round(rnd, f"rounds.{r}")
        if "winner" in top:
            self.seat(top["winner"], "winner", nullable=True)

    def round(self, rnd: Any, path: str) -> None:
        rnd = self.obj(rnd, path, _ROUND_KEYS, _ROUND_KEYS[:-1])
        self.integer(rnd["round"], f"{path}.round", 1, 10**9)
        self.seat(rnd["first_player"], f"{path}.first_player")
        self.boolean(rnd["palifico"], f"{path}.palifico")
        for i, cup in enumerate(self.array(rnd["dice"], f"{path}.dice")):
            for j, die in enumerate(self.array(cup, f"{path}.dice.{i}")):
                if type(die) is not int:
                    raise self.fail(
                        f"{path}.dice.{i}.{j}", f"expected an integer, not {_kind(die)}"
                    )
        for i, action in enumerate(self.array(rnd["actions"], f"{path}.actions")):
            if not isinstance(action, str) or not _ACTION_RE.fullmatch(action):
                shown = repr(action[:60]) if isinstance(action, str) else _kind(action)
                raise self.fail(
                    f"{path}.actions.{i}",
                    f"not an action: {shown} (write seat:QxF, seat:dudo or seat:calza)",
                )
        if "result" in rnd:
            self.result(rnd["result"], f"{path}.result")

    def result(self, res: Any, path: str) -> None:
        res = self.obj(res, path, _RESULT_KEYS, _RESULT_KEYS[:4])
        if res["kind"] not in ("dudo", "calza") or not isinstance(res["kind"], str):
            raise self.fail(f"{path}.kind", "expected 'dudo' or 'calza'")
        self.seat(res["caller"], f"{path}.caller")
        self.text(res["bid"], f"{path}.bid", _BID_RE)
        self.integer(res["count"], f"{path}.count", 0)
        for key in ("loser", "gainer", "next_player"):
            if key in res:
                self.seat(res[key], f"{path}.{key}", nullable=True)
        if "revealed" in res:
            for i, s in enumerate(self.array(res["revealed"], f"{path}.revealed")):
                self.seat(s, f"{path}.revealed.{i}")
        if "next_palifico" in res:
            self.boolean(res["next_palifico"], f"{path}.next_palifico")


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    if type(value) in names:
        return names[type(value)]
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, int):
        return f"the number {value}"
    return type(value).__name__


def _check_structure(data: Any, file: str | None) -> None:
    if not isinstance(data, Mapping):
        raise RecordError(f"a record must be a JSON object, not {_kind(data)}", file=file)
    _count_nodes(data, file)
    _Shape(file).record(data)


def _variant_of(data: Mapping[str, Any], file: str | None) -> Variant:
    ref = data["variant"]
    if isinstance(ref, str):
        if ref not in available_variants():
            known = ", ".join(available_variants())
            raise RecordError(
                f"unknown variant {ref!r} (bundled: {known})", file=file, key_path="variant"
            )
        variant = _bundled(ref)
        assert variant is not None
        return variant
    if _count_values(ref) > MAX_NODES:
        raise RecordError(
            f"the embedded variant is too large (over {MAX_NODES} values)",
            file=file,
            key_path="variant",
        )
    extends = ref.get("extends")
    if extends is not None and extends not in available_variants():
        raise RecordError(
            f"an embedded variant may extend only a bundled id, not {str(extends)[:60]!r}",
            file=file,
            key_path="variant.extends",
        )
    try:
        doc = YamlDoc(dict(ref), None, "<record variant>")
        _schema_errors(doc)
        knobs, meta = _merge_doc(doc, None, ())
        _check_consistency(knobs, "<record variant>")
    except VariantError as exc:
        where = f"variant.{exc.key_path}" if exc.key_path else "variant"
        raise RecordError(f"bad variant: {exc.message}", file=file, key_path=where) from None
    return Variant(
        id=str(meta.get("id", "house-rules")),
        name=str(meta.get("name", meta.get("id", "house-rules"))),
        description=str(meta.get("description", "")),
        knobs=tuple(knobs[p] for p in KNOB_PATHS),
        extends=meta.get("extends"),
        rulebook=meta.get("rulebook"),
    )


def check_record(data: Any, file: str | None = None) -> Variant:
    """Check that ``data`` is a well-formed record and return its variant.

    Raises :class:`RecordError` for anything malformed (shape, types, unknown
    keys, sizes, an unknown or invalid variant); rule violations are left to
    :func:`states`.
    """
    _check_structure(data, file)
    variant = _variant_of(data, file)
    faces = variant.rules.dice_faces
    work = sum(faces * sum(len(cup) for cup in rnd["dice"]) for rnd in data["rounds"])
    if work > MAX_RECORD_BIDS:
        raise RecordError(
            f"record too large to referee: its rounds rank {work} bids in all "
            f"(limit {MAX_RECORD_BIDS})",
            file=file,
        )
    return variant


# --- replay -------------------------------------------------------------------------------


class _Stop(Exception):
    def __init__(self, violation: Violation) -> None:
        self.violation = violation


def _starter_rule(res: RoundResult) -> str:
    if res.next_palifico:
        return "play.palifico_opener"
    return "round.starter" if res.kind == "dudo" else "calza.next_starts"


_RESULT_RULES = {
    "kind": "play.dudo",
    "caller": "play.dudo",
    "bid": "play.dudo",
    "count": "play.count",
    "loser": "play.dudo",
    "gainer": "play.calza",
    "revealed": "play.reveal",
    "next_player": "round.starter",
    "next_palifico": "palifico.trigger",
}


def _check_result(stated: Mapping[str, Any], res: RoundResult, number: int) -> None:
    actual = _result_dict(res)
    for key, value in stated.items():
        if actual[key] != value:
            rule = _RESULT_RULES[key]
            if res.kind == "calza" and rule == "play.dudo":
                rule = "play.calza"
            if key == "next_player":
                rule = _starter_rule(res)
            raise _Stop(
                Violation(
                    number,
                    0,
                    None,
                    rule,
                    f"the record says {key} {json.dumps(value)}, but the rules give "
                    f"{json.dumps(actual[key])}",
                )
            )


def _start_round(
    game: Game | None, rnd: Mapping[str, Any], variant: Variant, data: Mapping[str, Any]
) -> Game:
    from perudo_rules.game import Game

    rules = variant.rules
    number = rnd["round"]
    dice = rnd["dice"]
    seats = data["seats"]

    def stop(rule: str, reason: str) -> _Stop:
        return _Stop(Violation(number, 0, None, rule, reason))

    if len(dice) != seats:
        raise stop("play.roll", f"the round lists {len(dice)} cups for {seats} seats")
    for seat, cup in enumerate(dice):
        for d in cup:
            if not 1 <= d <= rules.dice_faces:
                faces = rules.dice_faces
                raise stop("play.roll", f"seat {seat} shows {d}, not a face of a d{faces}")
        if len(cup) > rules.dice_max_per_player:
            raise stop(
                "dice.max_per_player",
                f"seat {seat} holds {len(cup)} dice; the most is {rules.dice_max_per_player}",
            )
    if game is None:
        if seats < rules.players_min:
            raise stop("players.min", f"{seats} seats; {variant.id} needs {rules.players_min}")
        if seats > rules.players_max:
            raise stop("players.max", f"{seats} seats; {variant.id} allows {rules.players_max}")
        setup = data.get("setup")
        first = rnd["first_player"]
        if setup is None:
            if number != 1:
                raise stop("play.roll", f"a game starts with round 1, not round {number}")
            for seat, cup in enumerate(dice):
                if len(cup) != rules.dice_per_player:
                    raise stop(
                        "dice.per_player",
                        f"seat {seat} starts with {len(cup)} dice, not {rules.dice_per_player}",
                    )
            if rnd["palifico"]:
                raise stop("palifico.trigger", "the first round of a game is not a palifico round")
            if rules.setup_first_player == "seat_zero" and first != 0:
                raise stop("setup.first_player", f"seat 0 opens the first round, not seat {first}")
            used: Sequence[int] = ()
        else:
            used = setup.get("palifico_used", ())
        if first >= seats or not dice[first]:
            raise stop("play.next_seat", f"seat {first} opens but holds no dice")
        try:
            return Game.start(variant, dice, first, rnd["palifico"], number, used)
        except ValueError as exc:
            rule = "palifico.enabled" if "palifico" in str(exc) else "play.roll"
            raise stop(rule, f"not a valid starting position: {exc}") from None
    if game.is_over:
        raise stop("play.game_over", f"the game was over; seat {game.winner} had won")
    if not game.awaiting_roll:
        raise stop("play.roll", "a new round starts before the previous one ended")
    prev = game.last_result
    assert prev is not None
    if number != game.round + 1:
        raise stop("play.roll", f"round {game.round} is followed by round {number}")
    for seat, (cup, held) in enumerate(zip(dice, game.dice_counts, strict=True)):
        if len(cup) != held:
            raise stop(
                "play.roll",
                f"seat {seat} rolls {len(cup)} dice, but holds {held} after round {game.round}",
            )
    if rnd["first_player"] != prev.next_player:
        raise stop(
            _starter_rule(prev),
            f"seat {prev.next_player} opens this round, not seat {rnd['first_player']}",
        )
    if rnd["palifico"] != prev.next_palifico:
        said = "is" if prev.next_palifico else "is not"
        raise stop("palifico.trigger", f"this round {said} a palifico round")
    try:
        return game.roll(dice=dice)
    except ValueError as exc:  # pragma: no cover - the checks above come first
        raise stop("play.roll", str(exc)) from None


def _walk(data: Mapping[str, Any], variant: Variant) -> Iterator[Game]:
    game: Game | None = None
    for rnd in data["rounds"]:
        number = rnd["round"]
        game = _start_round(game, rnd, variant, data)
        yield game
        for step, text in enumerate(rnd["actions"], start=1):
            action = parse_action(text)
            if game.awaiting_roll or game.is_over:
                rule = "play.game_over" if game.is_over else "play.roll"
                raise _Stop(
                    Violation(number, step, text, rule, "the round already ended; no more actions")
                )
            bad = game.violation(action)
            if bad is not None:
                raise _Stop(Violation(number, step, text, bad[0], bad[1]))
            try:
                game = game.apply(action)
            except IllegalAction as exc:  # pragma: no cover - violation() said it was legal
                raise _Stop(Violation(number, step, text, exc.rule, exc.message)) from None
            yield game
        stated = rnd.get("result")
        if stated is not None:
            if game.last_result is None or game.to_move is not None:
                raise _Stop(
                    Violation(
                        number,
                        0,
                        None,
                        "play.dudo",
                        "the record states a result, but the "
                        "round did not end with a Dudo or Calza",
                    )
                )
            _check_result(stated, game.last_result, number)
    assert game is not None
    if "winner" in data and data["winner"] != game.winner:
        last = data["rounds"][-1]["round"]
        if game.winner is None:
            reason = f"the record names seat {data['winner']} the winner, but the game is not over"
        else:
            reason = f"seat {game.winner} won, not {json.dumps(data['winner'])}"
        raise _Stop(Violation(last, 0, None, "play.elimination", reason))


def states(record: Mapping[str, Any], file: str | None = None) -> Iterator[Game]:
    """Every position of a record in order: each round's start and the game after each action.

    Raises :class:`RecordError` if the record is malformed or breaks a rule
    (``.violation`` then says where and which).
    """
    variant = check_record(record, file)
    try:
        yield from _walk(record, variant)
    except _Stop as stop:
        raise RecordError(str(stop.violation), file=file, violation=stop.violation) from None


def replay(record: Mapping[str, Any], file: str | None = None) -> Game:
    """Rebuild the game of ``record`` step by step and return its final position.

    ``replay(game.record())`` equals ``game`` in every public field. Raises
    :class:`RecordError` if the record is malformed or breaks a rule.
    """
    game: Game | None = None
    for state in states(record, file):
        game = state
    assert game is not None
    return game


if __name__ == "__main__":  # pragma: no cover - exercised through the freshness test
    print(schema_json(), end="")
