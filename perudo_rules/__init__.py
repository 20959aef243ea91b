"""perudo-rules: the reference rules library for Perudo (Dudo).

Editions are data (``variants/*.yaml``); this package is the engine that
interprets them. Start with :func:`load_variant` and :meth:`Game.new`.

The folders are the layers, from the ground up: ``base`` (errors, messages, languages,
limits, actions), ``editions`` (the knobs and variant files), ``engine`` (the rules kernel
and the game), ``records`` (positions, records, JSON, the referee), ``analysis`` (odds,
bots, simulation, witnesses), ``conform`` (scenarios, perft, the conformance kit), and the
front ends ``openspiel``, ``pettingzoo``, ``harness``, ``cli`` and ``sphinxext``. A module
imports only from its own floor and below (``tests/test_architecture.py`` reads the floors
from these folders). The names below are imported when first used, so ``import
perudo_rules`` costs next to nothing.
"""

from __future__ import annotations

import importlib
import sys
import types
from importlib.machinery import ModuleSpec
from typing import TYPE_CHECKING, Any, cast

from perudo_rules.base.version import __version__ as __version__

if TYPE_CHECKING:
    from importlib.abc import Loader

    from perudo_rules.base.actions import (
        Action,
        Bid,
        Calza,
        Dudo,
        Leave,
        Reroll,
        format_action,
        parse_action,
        parse_bid,
    )
    from perudo_rules.base.errors import IllegalAction, PerudoError, Refused, VariantError
    from perudo_rules.base.messages import Refusal, format_message
    from perudo_rules.base.seatcheck import check_seat
    from perudo_rules.editions.corerules import core_rules, rule_text
    from perudo_rules.editions.variant import Knob, Variant
    from perudo_rules.editions.variantfile import available_variants, load_variant
    from perudo_rules.engine.game import Game
    from perudo_rules.engine.legal import LegalActions
    from perudo_rules.engine.rounds import RoundRecord, RoundResult
    from perudo_rules.engine.views import Observation, PastRound
    from perudo_rules.records.position import Position
    from perudo_rules.records.record import to_record
    from perudo_rules.records.recordformat import RecordError, load_record
    from perudo_rules.records.referee import Verdict, referee
    from perudo_rules.records.replay import replay
    from perudo_rules.records.snapshot import SnapshotError, restore, snapshot

#: Each public name of the package and the module it lives in (its one home).
_HOMES: dict[str, str] = {
    **dict.fromkeys(
        ("Action", "Bid", "Calza", "Dudo", "Leave", "Reroll", "format_action", "parse_action",
         "parse_bid"),
        "base.actions",
    ),
    **dict.fromkeys(("IllegalAction", "PerudoError", "Refused", "VariantError"), "base.errors"),
    **dict.fromkeys(("Refusal", "format_message"), "base.messages"),
    "check_seat": "base.seatcheck",
    **dict.fromkeys(("core_rules", "rule_text"), "editions.corerules"),
    **dict.fromkeys(("Knob", "Variant"), "editions.variant"),
    **dict.fromkeys(("available_variants", "load_variant"), "editions.variantfile"),
    "Game": "engine.game",
    "LegalActions": "engine.legal",
    **dict.fromkeys(("RoundRecord", "RoundResult"), "engine.rounds"),
    **dict.fromkeys(("Observation", "PastRound"), "engine.views"),
    "Position": "records.position",
    "to_record": "records.record",
    "replay": "records.replay",
    **dict.fromkeys(("RecordError", "load_record"), "records.recordformat"),
    **dict.fromkeys(("Verdict", "referee"), "records.referee"),
    **dict.fromkeys(("SnapshotError", "restore", "snapshot"), "records.snapshot"),
}

__all__ = [
    "Action",
    "Bid",
    "Calza",
    "Dudo",
    "Game",
    "IllegalAction",
    "Knob",
    "Leave",
    "LegalActions",
    "Observation",
    "PastRound",
    "PerudoError",
    "Position",
    "RecordError",
    "Refusal",
    "Refused",
    "Reroll",
    "RoundRecord",
    "RoundResult",
    "SnapshotError",
    "Variant",
    "VariantError",
    "Verdict",
    "available_variants",
    "check_seat",
    "core_rules",
    "format_action",
    "format_message",
    "load_record",
    "load_variant",
    "parse_action",
    "parse_bid",
    "referee",
    "replay",
    "restore",
    "rule_text",
    "snapshot",
    "to_record",
]
assert set(__all__) == set(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'perudo_rules' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"perudo_rules.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


#: Module paths from before the package was laid out in floors, and where each went: code
#: written against ``perudo_rules.messages`` or ``perudo_rules.witness`` keeps working.
#: (``perudo_rules.referee`` is the referee function, as it always was.) A view forwards to
#: one module: ``perudo_rules.simulate`` to the playing of the games, ``simulate`` and
#: ``UNIFORM``; the statistics (``Estimate``, ``plot``, ...) are now ``analysis.simstats``.
#: The old ``variant``
#: and ``record`` were each split in two; their paths view the half that kept most of their
#: names (variant files, which also hold ``Variant`` and ``Knob``; replaying records), so
#: ``format_value``, ``differing_knobs`` (``editions.variant``), ``to_record`` and
#: ``record_variant`` (``records.record``) are imported from their homes.
MOVED: dict[str, str] = {
    **{old: f"base.{old}" for old in (
        "safetext", "limits", "output", "i18n", "messages", "errors", "frozen", "version",
        "actions")},
    **{old: f"editions.{old}" for old in ("knobs", "crossknob", "schema", "ruleset")},
    "variant": "editions.variantfile",
    "rules": "editions.corerules",
    **{old: f"engine.{old}" for old in (
        "ranks", "kernel", "start", "reroll", "leaving", "legal", "views", "rounds", "game",
        "fastplay", "actionmap")},
    **{old: f"records.{old}" for old in (
        "position", "recordformat", "gamejson", "redact", "describe")},
    "record": "records.replay",
    **{old: f"analysis.{old}" for old in (
        "probability", "bots", "simulate", "divergence", "witnesssearch", "witnessproof",
        "witness")},
    **{old: f"conform.{old}" for old in ("scenarios", "perft")},
}


class _MovedModules:
    """Imports ``perudo_rules.OLD`` as a view of the module that now holds its names (a
    finder and loader of :data:`sys.meta_path`; plain, so that importing the package
    does not import :mod:`importlib.abc`)."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> ModuleSpec | None:
        head, _, old = fullname.partition(".")
        if head != "perudo_rules" or old not in MOVED:
            return None
        return ModuleSpec(fullname, cast("Loader", self))

    def create_module(self, spec: ModuleSpec) -> types.ModuleType:
        home = importlib.import_module(f"perudo_rules.{MOVED[spec.name.partition('.')[2]]}")
        view = types.ModuleType(spec.name, home.__doc__)
        view.__dict__["__getattr__"] = lambda name: getattr(home, name)
        view.__dict__["__dir__"] = lambda: dir(home)
        return view

    def exec_module(self, module: types.ModuleType) -> None:
        pass


if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
    sys.meta_path.append(_MovedModules())
