"""Executable rulebook scenarios: language-neutral conformance cases.

A scenario file (``spec/scenarios/*.yaml``) holds a list of scenarios. Each
starts from an explicit position and plays a list of steps; after any step it
may state what must hold. The same file format, exported as one JSON document
(:func:`export_document`, ``perudo-rules export-scenarios OUT.json``), lets an
implementation in another language test itself against this reference.

The start is a :class:`~perudo_rules.records.position.Position` in its JSON shape.
Steps are texts in the notation of :func:`~perudo_rules.records.position.parse_step`::

    "0: bid 3x4"     seat 0 bids three fours (also written "0:3x4")
    "1: dudo"        seat 1 calls Dudo
    "2: calza"       seat 2 calls Calza
    "2: leave"       seat 2 leaves the game (play.leave)
    "roll [[2, 3], [], [1]]"   the chance step between rounds, with explicit dice

A step is either such a text (it must be legal) or a mapping ``{action,
expect, probe}``. ``expect`` may hold any of :data:`EXPECT_KEYS`; a key that
is a variant id of the scenario holds expectations for that variant only
(merged over the shared ones), which is how one scenario shows two editions
side by side. An action expected ``illegal`` is refused and not applied; a
legal one is applied unless ``probe: true`` (then only its legality is
checked). Expectations about the round result (``count``, ``loser``, ...) read
``Game.last_result``; the others read the position after the step.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema

from perudo_rules.base.actions import Bid, Dudo, Leave, Reroll
from perudo_rules.base.errors import ActionSyntaxError, IllegalAction, LocatedError, VariantError
from perudo_rules.base.i18n import ntr, tr
from perudo_rules.base.memo import Memo, content_digest
from perudo_rules.base.messages import Refusal
from perudo_rules.base.schematext import schema_problem
from perudo_rules.base.version import __version__
from perudo_rules.base.yamlfile import YamlDoc, parse_yaml_bytes, read_yaml_bytes
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import data_dir, load_variant, named_variant_file
from perudo_rules.engine.game import Game
from perudo_rules.records.position import Position, Roll, parse_step

__all__ = [
    "EXPECT_KEYS",
    "RESULT_KEYS",
    "STATE_KEYS",
    "Scenario",
    "ScenarioError",
    "ScenarioStep",
    "default_paths",
    "export_document",
    "load_scenarios",
    "run_scenario",
    "scenario_schema",
]

#: Expectations read from ``Game.last_result`` after a Dudo or Calza.
RESULT_KEYS: tuple[str, ...] = (
    "kind",
    "count",
    "loser",
    "gainer",
    "revealed",
    "shown",
    "next_player",
    "next_palifico",
)
#: Expectations read from the position after the step.
STATE_KEYS: tuple[str, ...] = (
    "dice_counts",
    "palifico",
    "palifico_player",
    "to_move",
    "winner",
    "round",
    "awaiting_roll",
    "current_bid",
    "wilds_active",
    "legal_bid_count",
    "set_aside",
    "dice",
)
#: Every expectation key: ``legal`` (true) or ``illegal`` (a rule id), then the rest.
EXPECT_KEYS: tuple[str, ...] = ("legal", "illegal", *RESULT_KEYS, *STATE_KEYS)


class ScenarioError(LocatedError):
    """A scenario file is malformed; the message starts with ``file:line:``."""

    placeholder = "<scenarios>"


@dataclass(frozen=True, slots=True)
class ScenarioStep:
    """One step: an action text, what must hold after it, and where it is written.

    ``expect`` maps expectation keys (:data:`EXPECT_KEYS`) to values; a key
    that is a variant id maps to expectations for that variant only.
    ``probe`` steps check legality without applying the action.
    """

    action: str
    expect: Mapping[str, Any] = field(default_factory=dict)
    probe: bool = False
    line: int | None = field(default=None, compare=False)

    def expect_for(self, variant_id: str) -> dict[str, Any]:
        """The expectations that apply under ``variant_id`` (shared, then per-variant)."""
        out = {k: v for k, v in self.expect.items() if k in EXPECT_KEYS}
        specific = self.expect.get(variant_id)
        if isinstance(specific, Mapping):
            out.update(specific)
        return out


@dataclass(frozen=True, slots=True)
class Scenario:
    """A conformance case: a start position, steps, expectations, and what it documents.

    ``rules`` are the rule ids it exercises; ``source`` is the rulebook section
    it comes from, or ``"interpretation: <rule id>"``; ``overrides`` are knob
    values applied to every variant it runs under (for knob values no bundled
    edition uses). ``variants`` are bundled ids or ``.yaml`` files named as a variant
    file's ``extends`` is (:func:`~perudo_rules.editions.variantfile.named_variant_file`: in the
    scenario file's folder or below); ``variant_files`` maps each file named to the file
    it resolved to.
    """

    id: str
    title: str
    variants: tuple[str, ...]
    rules: tuple[str, ...]
    source: str
    description: str
    start: Position
    steps: tuple[ScenarioStep, ...]
    overrides: Mapping[str, Any] = field(default_factory=dict)
    file: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)
    variant_files: Mapping[str, str] = field(default_factory=dict, compare=False)

    @property
    def kind(self) -> str:
        """``"edition-difference"`` when expectations differ per variant, ``"interpretation"``
        for a case of a recorded interpretation, else ``"rulebook"``."""
        if any(v in step.expect for step in self.steps for v in self.variants):
            return "edition-difference"
        if self.source.startswith("interpretation:"):
            return "interpretation"
        return "rulebook"

    def variant(self, variant_id: str) -> Variant:
        """The variant this scenario runs under for ``variant_id`` (overrides applied)."""
        ref = self.variant_files.get(variant_id, variant_id)
        return load_variant(ref, dict(self.overrides) or None)


# --- steps ------------------------------------------------------------------------------


def _action_json(text: str) -> dict[str, Any]:
    a = parse_step(text)
    if isinstance(a, Roll):
        return {"type": "roll", "dice": [list(c) for c in a.dice]}
    if isinstance(a, Bid):
        return {"type": "bid", "player": a.player, "quantity": a.quantity, "face": a.face}
    if isinstance(a, Reroll):
        return {"type": "reroll", "player": a.player, "set_aside": list(a.set_aside)}
    kind = "dudo" if isinstance(a, Dudo) else "leave" if isinstance(a, Leave) else "calza"
    return {"type": kind, "player": a.player}


# --- loading ------------------------------------------------------------------------------


@functools.cache
def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of scenario files and of the exported document."""
    path = data_dir("spec") / "scenario.schema.json"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _schema_check(doc: YamlDoc) -> None:
    cls = jsonschema.validators.validator_for(scenario_schema())
    errors = sorted(
        cls(scenario_schema()).iter_errors(doc.data),
        key=lambda e: doc.line(list(e.absolute_path)) or 0,
    )
    if errors:
        e = errors[0]
        while e.context:  # a oneOf failure: report the error of the branch of the right type
            e = min(
                e.context,
                key=lambda c: (c.validator == "type" and not c.relative_path, -len(c.path)),
            )
        message = schema_problem(e)
        if e.validator == "pattern" and isinstance(e.instance, str):
            try:
                parse_step(e.instance)
            except ActionSyntaxError as exc:
                message = exc.refusal.text()
        path = list(e.absolute_path)
        more = ""
        if len(errors) > 1:
            more = " " + ntr("(and {n} more problem)", "(and {n} more problems)", len(errors) - 1)
        raise ScenarioError(
            message + more,
            file=doc.file,
            key_path=".".join(str(p) for p in path),
            line=doc.line(path),
        )


def _scenarios_of(doc: YamlDoc) -> list[Scenario]:
    out: list[Scenario] = []
    for i, raw in enumerate(doc.data["scenarios"]):
        where: list[str | int] = ["scenarios", i]

        def fail(message: str, *sub: str | int, where: list[str | int] = where) -> ScenarioError:
            path = [*where, *sub]
            return ScenarioError(
                message,
                file=doc.file,
                key_path=".".join(str(p) for p in path),
                line=doc.line(path),
            )

        variants = tuple(raw["variants"])
        files: dict[str, str] = {}
        for j, vid in enumerate(variants):
            try:  # the policy for files named in files, from this file's folder
                named = named_variant_file(vid, doc.file)
            except VariantError as exc:
                raise fail(exc.message, "variants", j) from None
            if named.stem != vid:  # a file, not a bundled id
                files[vid] = str(named)
        steps = []
        for j, s in enumerate(raw["steps"]):
            step = (
                ScenarioStep(action=s, line=doc.line([*where, "steps", j]))
                if isinstance(s, str)
                else (
                    ScenarioStep(
                        action=s["action"],
                        expect=dict(s.get("expect") or {}),
                        probe=bool(s.get("probe", False)),
                        line=doc.line([*where, "steps", j]),
                    )
                )
            )
            try:
                parse_step(step.action)
            except ActionSyntaxError as exc:
                raise fail(exc.refusal.text(), "steps", j) from None
            for key in step.expect:
                if key not in EXPECT_KEYS and key not in variants:
                    raise fail(
                        f"{key!r} is neither an expectation nor a variant of this scenario",
                        "steps",
                        j,
                        "expect",
                        key,
                    )
            steps.append(step)
        start = Position.from_json(raw["start"])
        out.append(
            Scenario(
                id=raw["id"],
                title=raw["title"],
                variants=variants,
                rules=tuple(raw["rules"]),
                source=raw["source"],
                description=" ".join(str(raw.get("description", "")).split()),
                start=start,
                steps=tuple(steps),
                overrides=dict(raw.get("overrides") or {}),
                file=doc.file,
                line=doc.line(where),
                variant_files=files,
            )
        )
    return out


def default_paths() -> list[Path]:
    """Every bundled scenario file, sorted."""
    return sorted((data_dir("spec") / "scenarios").glob("*.yaml"))


#: Scenario files by path and digest of their bytes: the scenarios read from them (shared:
#: :func:`load_scenarios` returns copies) and the file each variant they name resolved to.
_READ: Memo[tuple[str, str], tuple[list[Scenario], dict[str, str]]] = Memo(64, budget=4 << 20)


def _named_files(refs: Iterable[str], file: str) -> dict[str, str] | None:
    """The file each variant reference of the scenario file ``file`` names (``None`` if
    one names none: reading the file again reports it)."""
    try:
        return {ref: str(named_variant_file(ref, file)) for ref in refs}
    except VariantError:
        return None


def _read(path: Path) -> list[Scenario]:
    """The scenarios of one file: parsed and checked once per content (and while each
    variant they name resolves to the same file), a copy of their own at each call."""
    raw = read_yaml_bytes(path, ScenarioError, tr("no such scenario file"))
    key = (str(path), content_digest(raw))
    hit = _READ.get(key)
    if hit is not None and _named_files(hit[1], str(path)) == hit[1]:
        return copy.deepcopy(hit[0])
    doc = parse_yaml_bytes(raw, str(path), ScenarioError)
    if not isinstance(doc.data, dict):
        raise ScenarioError("a scenario file must be a YAML mapping", file=str(path), line=1)
    _schema_check(doc)
    scenarios = _scenarios_of(doc)
    refs = _named_files(dict.fromkeys(v for sc in scenarios for v in sc.variants), str(path))
    if refs is not None:
        _READ.put(key, (scenarios, refs), weight=len(raw))
    return copy.deepcopy(scenarios)


def load_scenarios(paths: Iterable[str | Path] | None = None) -> list[Scenario]:
    """Load scenarios from ``paths`` (default: every ``spec/scenarios/*.yaml``).

    Raises :class:`ScenarioError` (``file:line: key.path: message``) on a
    malformed file or a duplicate id. A file is parsed and checked again only when its
    bytes changed (:mod:`perudo_rules.base.memo`); each call returns scenarios of its own.
    """
    files = default_paths() if paths is None else [Path(p) for p in paths]
    out: list[Scenario] = []
    seen: dict[str, Scenario] = {}
    for path in files:
        for sc in _read(path):
            if sc.id in seen:
                first = seen[sc.id]
                raise ScenarioError(
                    f"duplicate scenario id {sc.id!r} (first at {first.file}:{first.line})",
                    file=sc.file,
                    line=sc.line,
                )
            seen[sc.id] = sc
            out.append(sc)
    return out


# --- running ------------------------------------------------------------------------------


def _result_value(game: Game, key: str) -> Any:
    r = game.last_result
    if r is None:
        raise AssertionError(f"expected a round result for {key!r}, but no round has ended")
    value = getattr(r, key)
    if key == "revealed":
        return list(value)
    if key == "shown":
        return [list(c) for c in value]
    return value


def _state_value(game: Game, key: str) -> Any:
    if key == "dice_counts":
        return list(game.dice_counts)
    if key == "current_bid":
        bid = game.current_bid
        return None if bid is None else str(bid)
    if key == "legal_bid_count":
        return len(game.legal_actions().bid_ranks)
    if key in ("set_aside", "dice"):
        return [list(cup) for cup in getattr(game, key)]
    return getattr(game, key)


def _check(game: Game, expect: Mapping[str, Any], where: str) -> None:
    for key, want in expect.items():
        if key in ("legal", "illegal"):
            continue
        got = _result_value(game, key) if key in RESULT_KEYS else _state_value(game, key)
        if got != want:
            raise AssertionError(f"{where}: {key} is {got!r}, expected {want!r}")


def run_scenario(scenario: Scenario, variant_id: str) -> list[Refusal]:
    """Play ``scenario`` under ``variant_id``; ``AssertionError`` on the first mismatch.

    The message reads ``scenario <id>, step <n>: ...`` (steps count from 1; step 0
    is the start position). Returns the refusal of each step expected illegal, in order
    (``tests/test_messages.py`` counts a message a scenario meets as reached).
    """
    refusals: list[Refusal] = []
    try:
        game = scenario.start.game(scenario.variant(variant_id))
    except ValueError as exc:
        raise AssertionError(f"scenario {scenario.id}, step 0: invalid start: {exc}") from None
    for n, step in enumerate(scenario.steps, start=1):
        where = f"scenario {scenario.id}, step {n} ({step.action!r}, {variant_id})"
        expect = step.expect_for(variant_id)
        action = parse_step(step.action)
        want_rule = expect.get("illegal")
        if isinstance(action, Roll):
            try:
                game = game.roll(dice=action.dice)
            except (IllegalAction, ValueError) as exc:
                raise AssertionError(f"{where}: roll refused: {exc}") from None
            _check(game, expect, where)
            continue
        bad = game.violation(action)
        if want_rule is not None:
            if bad is None:
                raise AssertionError(f"{where}: legal, expected illegal by {want_rule}")
            if bad.rule != want_rule:
                got = f"illegal by {bad.rule} ({bad.message})"
                raise AssertionError(f"{where}: {got}, expected illegal by {want_rule}")
            if game.is_legal(action) or action in game.legal_actions():
                raise AssertionError(f"{where}: is_legal/legal_actions disagree with violation")
            refusals.append(bad)
            _check(game, expect, where)
            continue
        if bad is not None:
            raise AssertionError(f"{where}: illegal by {bad.rule} ({bad.message}), expected legal")
        # a bid beyond the listed table (bidding.quantity_cap: none) is legal, not listed;
        # a Leave is no move of play: legal, never listed (play.leave)
        listed = not isinstance(action, Leave) and (
            not isinstance(action, Bid) or action.quantity <= game.space.cap
        )
        if listed and action not in list(game.legal_actions()):
            raise AssertionError(f"{where}: legal but missing from legal_actions()")
        if not step.probe:
            game = game.apply(action)
        _check(game, expect, where)
    return refusals


# --- export -------------------------------------------------------------------------------


def _scenario_json(sc: Scenario) -> dict[str, Any]:
    steps = []
    for step in sc.steps:
        entry: dict[str, Any] = {"action": step.action, "parsed": _action_json(step.action)}
        if step.expect:
            entry["expect"] = dict(step.expect)
        if step.probe:
            entry["probe"] = True
        steps.append(entry)
    out: dict[str, Any] = {
        "id": sc.id,
        "title": sc.title,
        "variants": list(sc.variants),
        "rules": list(sc.rules),
        "source": sc.source,
        "description": sc.description,
        "kind": sc.kind,
        "start": sc.start.to_json(),
        "steps": steps,
    }
    if sc.overrides:
        out["overrides"] = dict(sc.overrides)
    return out


def export_document(scenarios: Sequence[Scenario] | None = None) -> dict[str, Any]:
    """Every scenario as one JSON-ready document, with the knob values of each variant used.

    The document validates against ``spec/scenario.schema.json`` (:func:`scenario_schema`).
    """
    scs = load_scenarios() if scenarios is None else list(scenarios)
    variants: dict[str, dict[str, Any]] = {}
    for sc in scs:
        for vid in sc.variants:
            if vid not in variants:
                variants[vid] = load_variant(sc.variant_files.get(vid, vid)).values()
    return {
        "format": "perudo-rules-scenarios",
        "version": 1,
        "generator": f"perudo-rules {__version__}",
        "steps": (
            "action texts: '<seat>: bid <q>x<f>' (or '<seat>:<q>x<f>'), '<seat>: dudo', "
            "'<seat>: calza', '<seat>: leave', 'roll <dice per seat>'; 'parsed' gives the same "
            "as JSON. An action expected 'illegal' is not applied; a legal one is applied "
            "unless 'probe' is true. An expect key naming a variant holds expectations for "
            "that variant only."
        ),
        "variants": variants,
        "scenarios": [_scenario_json(sc) for sc in scs],
    }
