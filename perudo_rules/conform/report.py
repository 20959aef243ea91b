"""The conformance report: what a run found, edition by edition and rule id by rule id.

A :class:`Report` is one run of :func:`perudo_rules.conform.runner.conform` against one
engine: an :class:`EditionReport` per edition asked for, with each rule id's passed and
failed comparisons (:func:`rule_ids`, :meth:`EditionReport.status`), the first
:class:`Failure` of each failed rule id with its minimal witness, and each published
perft position's counts (:class:`PerftCheck`). These are plain values: the command line
and the docs build print them, ``to_json`` writes them and ``from_json`` reads them back
(the docs build keeps a run that way, :mod:`perudo_rules.sphinxext.store`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from perudo_rules.conform.protocol import UNCLAIMED_KNOBS
from perudo_rules.editions.corerules import core_rules
from perudo_rules.editions.knobs import KNOB_PATHS

__all__ = [
    "NOT_OBSERVED",
    "EditionReport",
    "Failure",
    "PerftCheck",
    "Report",
    "rule_ids",
]


def rule_ids() -> tuple[str, ...]:
    """Every rule id a report counts: the knob paths, then the fixed rules."""
    return (*KNOB_PATHS, *core_rules())


#: Rule ids the protocol cannot observe: the runner seats the players, deals and rolls the
#: dice and names the opener; labels and reveals are not part of it, nor a seat leaving the
#: game (no request says so: a scenario stops before a leave, and claims may omit the
#: ``leave`` knobs, :data:`~perudo_rules.conform.protocol.UNCLAIMED_KNOBS`).
NOT_OBSERVED: frozenset[str] = frozenset({
    "players.min", "players.max", "dice.per_player", "wild.name", "setup.first_player",
    "setup.rolloff_dice", "setup.rolloff_score", "setup.rolloff_wild_best", "play.roll",
    "play.reveal", "play.public_counts", "challenge.early_stop",
    "challenge.stop_when_unreachable", "play.leave", *UNCLAIMED_KNOBS,
})  # fmt: skip


@dataclass
class Failure:
    """The first failure of a rule id: what differed, and a minimal case that shows it.

    ``witness`` is a position plus actions (the JSON of :mod:`perudo_rules.records.position`,
    ``check --position`` reads it); ``then`` an action the engine must refuse there;
    ``overrides`` knob values the case changes from the edition (a scenario's).
    """

    rule: str
    detail: str
    witness: dict[str, Any]
    source: str
    then: str | None = None
    overrides: dict[str, Any] = field(default_factory=dict)


@dataclass
class PerftCheck:
    """One published perft position counted through the engine."""

    name: str
    depth: int
    expected: list[int]
    got: list[int]

    @property
    def ok(self) -> bool:
        """Whether the engine's counts are the published ones."""
        return self.expected == self.got


@dataclass
class EditionReport:
    """What one edition's run found."""

    edition: str
    claimed: bool
    passed: dict[str, int] = field(default_factory=dict)
    failed: dict[str, int] = field(default_factory=dict)
    failures: dict[str, Failure] = field(default_factory=dict)
    scenarios: int = 0
    games: int = 0
    skipped: int = 0
    perft: list[PerftCheck] = field(default_factory=list)

    @property
    def tested(self) -> bool:
        """Whether anything ran: an engine that skips every start certifies nothing."""
        return bool(self.scenarios or self.games or self.perft)

    @property
    def conforms(self) -> bool:
        """Something ran, no rule failed and every perft count agrees."""
        return self.tested and not self.failed and all(p.ok for p in self.perft)

    def status(self, rule: str) -> str:
        """``passed``, ``failed``, ``not reached`` or ``not observed`` (a rule the protocol
        cannot see, :data:`NOT_OBSERVED`)."""
        if rule in self.failed:
            return "failed"
        if rule in self.passed:
            return "passed"
        return "not observed" if rule in NOT_OBSERVED else "not reached"

    def to_json(self) -> dict[str, Any]:
        """The report as JSON."""
        if not self.claimed:
            return {"edition": self.edition, "claimed": False}
        return {
            "edition": self.edition,
            "claimed": True,
            "conforms": self.conforms,
            "tested": self.tested,
            "scenarios": self.scenarios,
            "games": self.games,
            "skipped": self.skipped,
            "rules": {
                r: {
                    "status": self.status(r),
                    "passed": self.passed.get(r, 0),
                    "failed": self.failed.get(r, 0),
                }
                for r in rule_ids()
            },
            "failures": [
                {"rule": f.rule, "detail": f.detail, "source": f.source, "witness": f.witness,
                 "then": f.then, "overrides": f.overrides}
                for f in self.failures.values()
            ],
            "perft": [
                {"position": p.name, "depth": p.depth, "expected": p.expected, "got": p.got}
                for p in self.perft
            ],
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> EditionReport:
        """The report :meth:`to_json` wrote (``from_json(r.to_json())`` writes the same)."""
        rep = cls(edition=doc["edition"], claimed=doc["claimed"])
        if not rep.claimed:
            return rep
        rep.scenarios, rep.games, rep.skipped = doc["scenarios"], doc["games"], doc["skipped"]
        for rule, counts in doc["rules"].items():
            if counts["passed"]:
                rep.passed[rule] = counts["passed"]
            if counts["failed"]:
                rep.failed[rule] = counts["failed"]
        for f in doc["failures"]:
            rep.failures[f["rule"]] = Failure(f["rule"], f["detail"], f["witness"], f["source"],
                                              f["then"], f["overrides"])  # fmt: skip
        rep.perft = [PerftCheck(p["position"], p["depth"], p["expected"], p["got"])
                     for p in doc["perft"]]  # fmt: skip
        return rep


@dataclass
class Report:
    """A whole run: the engine, each edition, the time it took and any harness error."""

    engine: str
    command: str
    editions: list[EditionReport]
    seconds: float = 0.0
    error: str | None = None

    @property
    def exit_code(self) -> int:
        """0 conforms, 1 differs, 2 harness error."""
        if self.error is not None:
            return 2
        return 0 if all(e.conforms for e in self.editions if e.claimed) else 1

    def to_json(self) -> dict[str, Any]:
        """The report as JSON."""
        return {
            "engine": self.engine,
            "command": self.command,
            "exit": self.exit_code,
            "error": self.error,
            "seconds": round(self.seconds, 2),
            "editions": [e.to_json() for e in self.editions],
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Report:
        """The report :meth:`to_json` wrote (``from_json(r.to_json())`` writes the same)."""
        return cls(
            engine=doc["engine"],
            command=doc["command"],
            editions=[EditionReport.from_json(e) for e in doc["editions"]],
            seconds=doc["seconds"],
            error=doc["error"],
        )
