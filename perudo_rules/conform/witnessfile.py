"""Witness files: the minimal case of a root failure, as a file that replays as printed.

A witness names the edition (a bundled id, or the edition file as it was given to
``conform``), the knob values a scenario set on top of it, a position plus the actions
played to the point where the engine differed, and ``then``: the action judged there
(the one the engine listed, omitted, took or refused, or the call whose outcome
differs). ``perudo-rules check --witness FILE`` replays it with the reference, and
``perudo-rules conform --witness FILE --engine CMD`` sends it to an engine again; both
read it unedited. It also records what the engine answered, what the reference
answers, and the root cause found (rule, and knob values where one explains it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from perudo_rules.base.actions import Action, format_action, parse_action
from perudo_rules.base.errors import ActionSyntaxError, PositionError
from perudo_rules.base.i18n import tr
from perudo_rules.base.limits import read_bounded
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.records.position import Position, Step, parse_line

__all__ = ["WITNESS_FORMAT", "WitnessFile", "read_witness", "witness_document"]

#: The version of the witness file format (its ``witness`` key).
WITNESS_FORMAT = 1
_MAX_BYTES = 1 << 20
_KEYS = ("witness", "edition", "overrides", "position", "then", "ask", "engine", "reference",
         "rule", "knob", "scope", "edition_values", "detail")  # fmt: skip


def witness_document(
    edition: str,
    overrides: dict[str, Any],
    position: Position,
    steps: tuple[Step, ...],
    then: Action | None,
    **found: Any,
) -> dict[str, Any]:
    """A witness file's content: the edition reference, the scenario's knob values, the
    position with the actions before the point, ``then``, and what was ``found``
    (``ask``: ``legal``, ``act``, ``outcome`` or ``end``, what was compared; ``engine``,
    ``reference``, ``rule``, ``knob``, ``edition_values``, ``detail``)."""
    pos = Position(position.dice, position.first_player, position.palifico, position.round,
                   position.palifico_used)  # fmt: skip
    doc: dict[str, Any] = {"witness": WITNESS_FORMAT, "edition": edition}
    if overrides:
        doc["overrides"] = dict(overrides)
    doc["position"] = pos.to_json(steps)
    doc["position"].setdefault("actions", [])
    doc["then"] = None if then is None else format_action(then)
    doc["ask"] = found.pop("ask", "act")
    doc.update({k: v for k, v in found.items() if k in _KEYS})
    return doc


class WitnessFile:
    """A witness file read back: its edition (``edition``, a bundled id or the file found;
    ``variant`` loaded, with the scenario's knob values), position, steps and ``then``."""

    def __init__(self, doc: dict[str, Any], edition: str, variant: Variant,
                 position: Position, steps: tuple[Step, ...],
                 then: Action | None) -> None:  # fmt: skip
        self.doc = doc
        self.edition = edition
        self.variant = variant
        self.position = position
        self.steps = steps
        self.then = then


def _edition_file(ref: str, where: Path) -> str:
    """A bundled id as it is; a file relative to the working folder, else to the
    witness file's folder."""
    if not ref.endswith((".yaml", ".yml")) or Path(ref).is_file():
        return ref
    beside = where.parent / ref
    return str(beside) if beside.is_file() else ref


def read_witness(path: str | Path) -> WitnessFile:
    """Read a witness file (:class:`~perudo_rules.base.errors.PositionError` naming the
    file and key when it is not one; a bad edition raises the loader's error)."""
    name = str(path)
    raw = read_bounded(path, _MAX_BYTES, PositionError, tr("cannot read the witness: no such file"))
    try:
        doc = json.loads(raw)
    except ValueError as exc:
        raise PositionError(f"not JSON: {exc}", file=name) from None
    if not isinstance(doc, dict) or doc.get("witness") != WITNESS_FORMAT:
        raise PositionError(f'not a witness file (no "witness": {WITNESS_FORMAT})', file=name)
    for key in doc:
        if key not in _KEYS:
            raise PositionError(f"unknown key (allowed: {', '.join(_KEYS)})", file=name,
                                key_path=str(key)[:60])  # fmt: skip
    edition = doc.get("edition")
    if not isinstance(edition, str):
        raise PositionError("expected an edition id or file", file=name, key_path="edition")
    overrides = doc.get("overrides", {})
    if not isinstance(overrides, dict):
        raise PositionError("expected knob values", file=name, key_path="overrides")
    edition = _edition_file(edition, Path(name))
    variant = load_variant(edition, overrides or None)
    try:
        position, steps = parse_line(doc.get("position"))
    except PositionError as exc:
        raise PositionError(
            exc.message,
            file=name,
            key_path="position" + (f".{exc.key_path}" if exc.key_path else ""),
        ) from None
    then_text = doc.get("then")
    then: Action | None = None
    if then_text is not None:
        if not isinstance(then_text, str):
            raise PositionError("expected an action", file=name, key_path="then")
        try:
            then = parse_action(then_text)
        except ActionSyntaxError as exc:
            raise PositionError(exc.refusal.text(), file=name, key_path="then") from None
    return WitnessFile(doc, edition, variant, position, steps, then)
