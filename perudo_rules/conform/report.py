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

from perudo_rules.base.i18n import ntr, tr
from perudo_rules.base.texts import Text, text_from_json, text_json
from perudo_rules.conform.protocol import UNCLAIMED_KNOBS
from perudo_rules.editions.corerules import cite, core_rules
from perudo_rules.editions.knobs import KNOB_PATHS
from perudo_rules.editions.variantfile import load_variant

__all__ = [
    "EXIT_CONFORMS",
    "EXIT_DIFFERS",
    "EXIT_HARNESS",
    "EXIT_UNTESTED",
    "NOT_OBSERVED",
    "SEEN_AS",
    "EditionReport",
    "Failure",
    "PerftCheck",
    "Report",
    "citation",
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


#: Rules an engine shows only through another: the runner rolls the dice, so the number of
#: faces an engine plays shows only in the bids it allows.
SEEN_AS: dict[str, str] = {"dice.faces": "play.bid_range"}


@dataclass
class Failure:
    """One root cause of an edition's differences, with a minimal case that shows it.

    ``rule`` is the rule the engine breaks. ``knob`` holds the knob values the engine
    plays where the edition says ``edition_values`` (empty when no knob value explains
    the difference: then ``rule`` is the rule that decided the reference's answer).
    ``witness`` is a witness file (:func:`perudo_rules.conform.witnessfile.witness_document`:
    ``perudo-rules check --witness`` replays it, ``conform --witness`` re-runs it);
    ``consequences`` the outcome fields that differ only because the first one does;
    ``count`` the differences of the run this root explains; where the witness asks for a
    call's outcome, ``decided_by`` the rules that decided the edition's outcome
    (:func:`perudo_rules.records.decided.decided_by`), the deciding rule of each field once.
    """

    rule: str
    detail: str | Text
    witness: dict[str, Any]
    source: str
    knob: dict[str, Any] = field(default_factory=dict)
    edition_values: dict[str, Any] = field(default_factory=dict)
    consequences: list[str] = field(default_factory=list)
    count: int = 1
    decided_by: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The failure as JSON."""
        return {"rule": self.rule, "detail": _english(self.detail), "source": self.source,
                "knob": self.knob, "edition_values": self.edition_values,
                "consequences": self.consequences, "count": self.count,
                "decided_by": self.decided_by, "witness": self.witness,
                **({"detail_text": text_json(self.detail)} if isinstance(self.detail, Text)
                   else {})}  # fmt: skip

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Failure:
        """The failure :meth:`to_json` wrote."""
        return cls(doc["rule"], _detail(doc), doc["witness"], doc["source"], doc["knob"],
                   doc["edition_values"], doc["consequences"], doc["count"],
                   list(doc.get("decided_by", ())))  # fmt: skip


def _english(detail: str | Text) -> str:
    """A failure's detail in English (the JSON report's ``detail``)."""
    return detail.text("en") if isinstance(detail, Text) else detail


def _detail(doc: dict[str, Any]) -> str | Text:
    """A failure's detail as :meth:`Failure.to_json` wrote it: the text as data when it
    kept it (``detail_text``, said in the reader's language), else the English."""
    if "detail_text" in doc:
        found = text_from_json(doc["detail_text"])
        if isinstance(found, Text):
            return found
    return str(doc["detail"])


@dataclass
class PerftCheck:
    """One perft position counted through the engine; on a mismatch, ``divide`` holds the
    first moves whose counts differ (move, expected, the engine's), and the first
    position where the engine's actions differ is a root failure of the edition."""

    name: str
    depth: int
    expected: list[int]
    got: list[int]
    divide: list[tuple[str, list[int], list[int]]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether the engine's counts are the published ones."""
        return self.expected == self.got

    def to_json(self) -> dict[str, Any]:
        """The check as JSON."""
        return {"position": self.name, "depth": self.depth, "expected": self.expected,
                "got": self.got, "divide": [list(d) for d in self.divide]}  # fmt: skip


@dataclass
class EditionReport:
    """What one edition's run found.

    ``keeps_out`` says, for an edition no claim covers, which claimed knob values kept it
    out; ``complete`` is false when a harness error stopped the run; ``probes`` counts
    the targeted probes sent per rule (positions where that rule decides); ``unread``
    names the rules this edition never reads, and why (``"nobody can call Calza"``).
    """

    edition: str
    claimed: bool
    passed: dict[str, int] = field(default_factory=dict)
    failed: dict[str, int] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    scenarios: int = 0
    games: int = 0
    skipped: int = 0
    perft: list[PerftCheck] = field(default_factory=list)
    probes: dict[str, int] = field(default_factory=dict)
    keeps_out: str = ""
    complete: bool = True
    unread: dict[str, str] = field(default_factory=dict)

    @property
    def tested(self) -> bool:
        """Whether anything was checked: a rule compared (passed or failed) or a perft
        count. An engine that skips every start certifies nothing, nor one whose starts
        compare no rule (a scenario run alone that stops before its first check)."""
        return bool(self.passed or self.failed or self.perft)

    @property
    def started(self) -> int:
        """The starts the engine took: scenarios, random games, probes and perft positions."""
        return self.scenarios + self.games + sum(self.probes.values()) + len(self.perft)

    def untested(self) -> str:
        """Why a claimed edition run to its end certified nothing (:attr:`tested` false),
        from the counts :meth:`to_json` writes: every start skipped, none sent, or starts
        that compared no rule; in the language of the context."""
        if not self.started and self.skipped:
            return ntr("the engine skipped the {n} start sent",
                       "the engine skipped all {n} starts sent", self.skipped)  # fmt: skip
        if not self.started:
            return tr("no start was sent: no scenario, probe, random game or perft position "
                      "applies")  # fmt: skip
        return ntr("nothing was checked: the engine took {n} start, and it compared no rule",
                   "nothing was checked: the engine took {n} starts, and they compared no rule",
                   self.started)  # fmt: skip

    @property
    def conforms(self) -> bool:
        """Complete, something ran, no rule failed and every perft count agrees."""
        return (self.complete and self.tested and not self.failed
                and all(p.ok for p in self.perft))  # fmt: skip

    def failure(self, rule: str) -> Failure | None:
        """The first root failure of ``rule``, or ``None``."""
        return next((f for f in self.failures if f.rule == rule), None)

    def status(self, rule: str) -> str:
        """``failed``, ``passed``, ``not observed`` (a rule the protocol cannot see,
        :data:`NOT_OBSERVED`), ``not read`` (one this edition never reads, :attr:`unread`)
        or ``not reached``; a rule seen through another (:data:`SEEN_AS`) has its status."""
        if rule in SEEN_AS:
            return self.status(SEEN_AS[rule])
        if rule in self.failed:
            return "failed"
        if rule in self.passed:
            return "passed"
        if rule in NOT_OBSERVED:
            return "not observed"
        return "not read" if rule in self.unread else "not reached"

    def to_json(self) -> dict[str, Any]:
        """The report as JSON."""
        if not self.claimed:
            return {"edition": self.edition, "claimed": False, "keeps_out": self.keeps_out}
        return {
            "edition": self.edition,
            "claimed": True,
            "conforms": self.conforms,
            "tested": self.tested,
            "complete": self.complete,
            "scenarios": self.scenarios,
            "games": self.games,
            "skipped": self.skipped,
            "rules": {
                r: {
                    "status": self.status(r),
                    "passed": self.passed.get(r, 0),
                    "failed": self.failed.get(r, 0),
                    "probes": self.probes.get(r, 0),
                    **({"why": self.unread[r]} if r in self.unread else {}),
                }
                for r in rule_ids()
            },
            "failures": [f.to_json() for f in self.failures],
            "perft": [p.to_json() for p in self.perft],
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> EditionReport:
        """The report :meth:`to_json` wrote (``from_json(r.to_json())`` writes the same)."""
        rep = cls(edition=doc["edition"], claimed=doc["claimed"])
        if not rep.claimed:
            rep.keeps_out = doc.get("keeps_out", "")
            return rep
        rep.scenarios, rep.games, rep.skipped = doc["scenarios"], doc["games"], doc["skipped"]
        rep.complete = doc["complete"]
        for rule, counts in doc["rules"].items():
            for name, into in (("passed", rep.passed), ("failed", rep.failed),
                               ("probes", rep.probes)):  # fmt: skip
                if counts[name]:
                    into[rule] = counts[name]
            if "why" in counts:
                rep.unread[rule] = counts["why"]
        rep.failures = [Failure.from_json(f) for f in doc["failures"]]
        rep.perft = [PerftCheck(p["position"], p["depth"], p["expected"], p["got"],
                                [(m, e, g) for m, e, g in p["divide"]])
                     for p in doc["perft"]]  # fmt: skip
        return rep


#: The exit codes of a run: conforms, differs, harness error, nothing certified.
EXIT_CONFORMS, EXIT_DIFFERS, EXIT_HARNESS, EXIT_UNTESTED = 0, 1, 2, 3


@dataclass
class Report:
    """A whole run: the engine, each edition, the time it took and any harness error.

    ``asked`` is true when the editions were named (``--edition``): then each one must
    be claimed and tested; otherwise at least one must be.
    """

    engine: str
    command: str
    editions: list[EditionReport]
    seconds: float = 0.0
    error: str | None = None
    asked: bool = False

    @property
    def exit_code(self) -> int:
        """0 conforms; 1 differs; 2 harness error; 3 nothing certified (an edition
        asked for that no claim covers, one that checked nothing (:attr:`EditionReport.tested`:
        every start skipped, none sent, or no rule compared), or no edition claimed)."""
        if self.error is not None:
            return EXIT_HARNESS
        claimed = [e for e in self.editions if e.claimed]
        if any(e.tested and not e.conforms for e in claimed):
            return EXIT_DIFFERS
        if not claimed or any(not e.tested for e in claimed):
            return EXIT_UNTESTED
        if self.asked and len(claimed) < len(self.editions):
            return EXIT_UNTESTED
        return EXIT_CONFORMS

    def to_json(self) -> dict[str, Any]:
        """The report as JSON."""
        return {
            "engine": self.engine,
            "command": self.command,
            "exit": self.exit_code,
            "error": self.error,
            "asked": self.asked,
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
            asked=doc["asked"],
        )


def citation(edition: str, rule: str) -> str:
    """The edition's statement of ``rule``, with its section and words, on one line
    (:meth:`Citation.line <perudo_rules.editions.corerules.Citation.line>`); ``""`` for an
    edition or a rule that cannot be cited. The text and HTML reports both cite this way."""
    try:
        return cite(rule, load_variant(edition)).line()
    except (KeyError, ValueError, OSError):
        return ""
