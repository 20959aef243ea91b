"""The conformance page: ``perudo-conformance`` (implementations x editions) and
``perudo-perft`` (the published perft tables).

``perudo-conformance`` runs the conformance kit (:mod:`perudo_rules.conform`) when the docs
are built, against each built-in harness (:mod:`perudo_rules.harness`; in this process, so
the build stays fast) and the JavaScript harness (under Node, when it is installed), with a
few games per edition. Each implementation gets a table: one row per edition, one column per
rule family (the part of the rule id before the dot), each cell passed / failed / not
reached / not observed (rules the protocol cannot see); an edition the harness does not
claim says so. Failed cells link to the witness; the perft column links to the edition's
table from ``perudo-perft``. Each run is a :class:`~perudo_rules.conform.report.Report`, kept
as JSON (:mod:`perudo_rules.sphinxext.store`): the builds of the other languages, and any
later build with the same inputs, read it instead of running the harness again.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from perudo_rules.base.errors import VariantError
from perudo_rules.base.i18n import N_, ntr, tr
from perudo_rules.conform.perft import published
from perudo_rules.conform.report import SEEN_AS, EditionReport, Report, rule_ids
from perudo_rules.conform.runner import conform
from perudo_rules.editions.variantfile import available_variants, load_variant
from perudo_rules.harness import Harness
from perudo_rules.records.describe import seat_name
from perudo_rules.sphinxext.base import PerudoDirective
from perudo_rules.sphinxext.events import note_lists_every_file, note_variant_files, variant_files
from perudo_rules.sphinxext.shared import Cell, para, scrolling, self_link, table
from perudo_rules.sphinxext.store import fingerprint, source_digest, stored, variant_inputs

__all__ = [
    "HARNESSES",
    "PEERS",
    "ConformanceDirective",
    "PerftDirective",
    "asked_as",
    "families",
    "family_cell",
    "missing_peers",
    "perft_position",
]

#: The built-in harnesses the page certifies: name, module, class, what it is.
HARNESSES: tuple[tuple[str, str, str, str], ...] = (
    ("stepapi", "stepapi", "StepHarness", N_("the step API (the reference)")),
    ("fastplay", "fastplay", "FastHarness", N_("the fast path's kernel tables")),
    ("pettingzoo", "pettingzoo", "PettingZooHarness", N_("the PettingZoo environment")),
    ("openspiel", "openspiel", "OpenSpielHarness", N_("the OpenSpiel adapter")),
    ("pyspiel", "pyspiel_liars_dice", "LiarsDiceHarness", N_("OpenSpiel's own liars_dice")),
    ("textarena", "textarena", "TextArenaHarness", N_("TextArena's LiarsDiceEnv")),
)
#: The peer libraries a harness imports and the extra that installs them. ``make spec``
#: installs none (the docs build needs none): the page certifies the harnesses whose peers
#: are installed and names the extra of the others (``make test`` installs them all). The
#: peers are looked up on the path, not imported: autodoc may have imported an adapter
#: against its mocked stand-ins (``autodoc_mock_imports``), and a harness driving mocks
#: never ends.
PEERS: dict[str, tuple[tuple[str, ...], str]] = {
    "pettingzoo": (("pettingzoo", "gymnasium", "numpy"), "pettingzoo"),
    "openspiel": (("pyspiel", "numpy"), "openspiel"),
    "pyspiel": (("pyspiel",), "openspiel"),
    "textarena": (("textarena",), "textarena"),
}


def missing_peers(harness: str) -> list[str]:
    """The peer libraries of ``harness`` (a name of :data:`HARNESSES`) not installed."""
    out = []
    for module in PEERS.get(harness, ((), ""))[0]:
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            out.append(module)
    return out

JS = Path(__file__).resolve().parents[2] / "harnesses" / "js" / "perudo.js"
#: The positions each perft walk of the page expands (a few per published position).
PERFT_NODES = 40
#: What a run depends on besides its options: the files it reads, the source digest.
_Basis = tuple[list[Path], str]


def families() -> list[str]:
    """The rule families, in the order of the knob table, then ``play`` (the fixed rules)."""
    return list(dict.fromkeys(r.split(".", 1)[0] for r in rule_ids()))


class _InProcess:
    def __init__(self, harness: Harness) -> None:
        self.ask: Callable[[dict[str, Any]], dict[str, Any]] = harness.handle


def _anchor(*parts: str) -> str:
    return "-".join(["conformance", *parts]).replace(".", "-").replace("_", "-")


def asked_as(path: Path) -> tuple[str, str]:
    """How the page asks the kit for the edition file ``path`` and the id it shows: a
    bundled edition's own file by its id (the kit then checks its published perft table
    and names the edition by it), any other file by its path (the kit names the edition
    by what it was asked for, so the page shows the file's id instead)."""
    try:
        variant = load_variant(path)
    except (VariantError, OSError):
        return str(path), path.stem
    bundled = variant.id in available_variants() and Path(
        load_variant(variant.id).file or ""
    ) == path.resolve()
    return (variant.id if bundled else str(path)), variant.id


def family_cell(rep: EditionReport, family: str, impl: str, label: str | None = None) -> Cell:
    """The cell of one rule family: failed (a link to the first witness of edition
    ``label``, by default the report's), passed, or not reached."""
    rules = [r for r in rule_ids() if r.split(".", 1)[0] == family]
    statuses = [rep.status(r) for r in rules]
    failed = [r for r, s in zip(rules, statuses, strict=True) if s == "failed"]
    passed = statuses.count("passed")
    if failed:
        shown = tr("failed {n} ({rules})", n=len(failed), rules=", ".join(failed))
        return para(self_link(shown,
                              _anchor(impl, label or rep.edition,
                                      SEEN_AS.get(failed[0], failed[0]))))  # fmt: skip
    if passed:
        return tr("passed {n}/{total}", n=passed, total=len(rules))
    unseen = all(s == "not observed" for s in statuses)
    return tr("not observed") if unseen else tr("not reached")


class ConformanceDirective(PerudoDirective):
    """``.. perudo-conformance::``: every built-in harness through the kit, tabulated.

    Options: ``:harnesses:`` (names of :data:`HARNESSES` and ``js``; default all),
    ``:editions:`` (ids or files; default every file of the variants directory),
    ``:games:`` (random games per edition, default 1), ``:seed:`` (0).
    """

    option_spec: ClassVar[dict[str, Any]] = {
        "harnesses": directives.unchanged,
        "editions": directives.unchanged,
        "games": directives.nonnegative_int,
        "seed": directives.nonnegative_int,
    }

    def run(self) -> list[nodes.Node]:
        names = (self.options.get("harnesses") or " ".join([*(h[0] for h in HARNESSES), "js"]))
        asked = (self.options.get("editions") or "").split()
        paths = [self.variant_path(e) for e in asked] if asked else variant_files(self.env)
        for path in paths:
            note_variant_files(self.env, path)
        note_lists_every_file(self.env)
        names_ids = [asked_as(p) for p in paths]
        editions = [name for name, _ in names_ids]
        labels = dict(names_ids)
        games = self.options.get("games", 1)
        seed = self.options.get("seed", 0)
        basis = (variant_inputs(paths), source_digest())  # the inputs of every run
        out: list[nodes.Node] = [nodes.paragraph(text=ntr(
            "Computed when these docs were built: {n} random game per edition, seed {seed}, "
            "every scenario that applies, and the perft tables below.",
            "Computed when these docs were built: {n} random games per edition, seed {seed}, "
            "every scenario that applies, and the perft tables below.",
            games, seed=seed,
        ))]  # fmt: skip
        known = {h[0]: h for h in HARNESSES}
        for name in names.split():
            if name == "js":
                out += self._js(editions, games, seed, basis, labels)
                continue
            if name not in known:
                raise self.error(f"perudo-conformance: no harness {name!r}")
            _, module, cls, english = known[name]
            what = tr(english)
            if missing := missing_peers(name):
                why = tr("{modules} not installed", modules=", ".join(missing))
                out.append(para(nodes.strong(text=f"{what}: "),
                                tr("not certified in this build") + f" ({why}: ",
                                nodes.literal(text=f"pip install 'perudo-rules[{PEERS[name][1]}]'"),
                                ")."))  # fmt: skip
                continue
            command = f"python -m perudo_rules.harness.{module}"

            def run(module: str = module, cls: str = cls, command: str = command) -> Report:
                harness = getattr(importlib.import_module(f"perudo_rules.harness.{module}"), cls)()
                return conform(command, editions, games=games, seed=seed,
                               channel=_InProcess(harness), perft_nodes=PERFT_NODES)  # fmt: skip

            try:
                report = self._stored([name, command, editions, games, seed], basis, run)
            except ImportError as exc:
                why = exc.msg.split(":")[0]
                out.append(para(nodes.strong(text=f"{what}: "),
                                tr("not certified here ({why}).", why=why)))  # fmt: skip
                continue
            out += self._report(name, what, report, labels)
        return out

    def _stored(self, what: list[Any], basis: _Basis, run: Callable[[], Report]) -> Report:
        """The report of ``run``, kept under the fingerprint of ``what`` and ``basis`` (the
        files it reads and the source digest); a run that met a harness error (perhaps a
        busy machine's timeout) is not kept."""
        key = fingerprint(["perudo-conformance", PERFT_NODES, *what], *basis)
        data = stored(self.store_folder(), "conformance", key, lambda: run().to_json(),
                      keep=lambda doc: doc["error"] is None)  # fmt: skip
        return Report.from_json(data)

    def _js(self, editions: list[str], games: int, seed: int, basis: _Basis,
            labels: dict[str, str]) -> list[nodes.Node]:  # fmt: skip
        node = shutil.which("node") or shutil.which("nodejs")
        what = tr("a JavaScript engine under Node ({file})", file="harnesses/js/perudo.js")
        if node is None or not JS.is_file():
            return [para(nodes.strong(text=f"{what}: "),
                         tr("not certified here ({why}).", why=tr("no Node.js")))]  # fmt: skip
        command = f"{node} {JS}"
        binary = os.stat(Path(node).resolve())  # another Node is another run

        def run() -> Report:
            return conform(command, editions, games=games, seed=seed, perft_nodes=PERFT_NODES)

        what_ = ["js", command, binary.st_size, binary.st_mtime_ns, editions, games, seed]
        report = self._stored(what_, ([*basis[0], JS], basis[1]), run)
        return self._report("js", what, report, labels)

    def _report(self, impl: str, what: str, report: Report,
                labels: dict[str, str]) -> list[nodes.Node]:  # fmt: skip
        fams = families()
        rows: list[list[Cell]] = []
        for rep in report.editions:
            label = labels.get(rep.edition, rep.edition)
            if not rep.claimed:
                rows.append([label, tr("not claimed"), *([""] * (len(fams) + 1))])
                continue
            perft: Cell = tr("none published")
            if rep.perft:
                counted = f"{sum(1 for p in rep.perft if p.ok)}/{len(rep.perft)}"
                # perudo-perft publishes the bundled editions' tables: those run by id
                bundled = rep.edition in available_variants()
                perft = para(self_link(counted, f"perft-{rep.edition}")) if bundled else counted
            result = (tr("conforms") if rep.conforms
                      else tr("differs") if rep.tested else tr("untested"))  # fmt: skip
            rows.append([label, result,
                         *(family_cell(rep, f, impl, label) for f in fams), perft])  # fmt: skip
        head = para(nodes.strong(text=f"{report.engine}"), f": {what}.")
        if report.error is not None:
            head += nodes.Text(" " + tr("Harness error: {error}", error=report.error))
        # the families are the first part of rule ids: identifiers, shown as code
        headers: list[Cell] = [tr("edition"), tr("result"),
                               *(nodes.literal(text=f) for f in fams), "perft"]  # fmt: skip
        out: list[nodes.Node] = [head, scrolling(
            table(headers, rows, classes=["perudo-conformance"])
        )]  # fmt: skip
        for rep in report.editions:
            label = labels.get(rep.edition, rep.edition)
            for fail in rep.failures:
                box = nodes.container(ids=[_anchor(impl, label, fail.rule)],
                                      classes=["perudo-witness"])  # fmt: skip
                cause = ""
                if fail.knob:
                    plays = ", ".join(f"{p}: {json.dumps(v)}" for p, v in fail.knob.items())
                    cause = " " + tr("The engine plays {plays}.", plays=plays)
                # the kit's own report line (perudo-rules conform prints it so), as code
                box += para(nodes.strong(text=f"{label}, {fail.rule}: "),
                            nodes.literal(text=str(fail.detail), classes=["perudo-report-line"]),
                            f" ({fail.source}).{cause} " + tr("Witness:"))  # fmt: skip
                text = json.dumps(fail.witness)
                box += nodes.literal_block(text, text)
                out.append(box)
        return out


def perft_position(position: dict[str, Any]) -> str:
    """A published perft position in words (``2 seats, 1 die each, seat 0 opens``), in
    the language of the context."""
    cups = [len(c) for c in position["dice"]]
    opener = seat_name(int(position["first_player"]))
    seats = ntr("{n} seat", "{n} seats", len(cups))
    if position.get("palifico"):
        return tr("{seats}, {opener} opens its palifico round", seats=seats, opener=opener)
    if len(set(cups)) == 1:
        each = ntr("{n} die each", "{n} dice each", cups[0])
    else:
        each = tr("dice per seat: {counts}", counts=", ".join(map(str, cups)))
    return tr("{seats}, {each}, {opener} opens", seats=seats, each=each, opener=opener)


class PerftDirective(PerudoDirective):
    """``.. perudo-perft::``: the published perft tables (``spec/perft/``), per edition."""

    def run(self) -> list[nodes.Node]:
        out: list[nodes.Node] = []
        for vid in available_variants():
            entries = published(vid)
            if not entries:
                continue
            box = nodes.container(ids=[f"perft-{vid}"], classes=["perudo-perft"])
            box += para(nodes.strong(text=vid))
            for e in entries:
                box += para(nodes.literal(text=e["name"]), f": {perft_position(e['position'])}. ",
                            nodes.literal(text=json.dumps(e["position"])))  # fmt: skip
                rows: list[list[Cell]] = [
                    [str(d + 1), str(n), str(c)]
                    for d, (n, c) in enumerate(zip(e["nodes"], e["calls"], strict=True))
                ]
                box += table([tr("depth"), tr("sequences"), tr("ending in a call")], rows,
                             classes=["perudo-perft-table"])  # fmt: skip
            out.append(box)
        return out
