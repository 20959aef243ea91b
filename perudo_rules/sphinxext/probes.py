"""The targeted probes of each edition, for engine authors: ``perudo-probes``.

The conformance kit sends every claimed edition its targeted probes
(:func:`perudo_rules.conform.probes.probes_for`): for each rule, a point of play built so
that the rule decides there. This directive shows them, one table per edition of the
variants directory: the rule (a link to it on the edition's page, where there is one),
what the probe tells apart (the other value of a knob, whose engine would answer
otherwise there, or "decides here" for a rule the kernel's decision trace names), the
position (dice, opener, palifico round, round number), the steps played to it and the
action judged there. Found at the build from each variant file (a dependency of the page)
and kept in the build's store (:mod:`perudo_rules.sphinxext.store`) for the other
languages and the next build with the same inputs.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes

from perudo_rules.base.i18n import tr
from perudo_rules.conform.probes import Probe, probes_document
from perudo_rules.editions.variant import Variant
from perudo_rules.records.position import format_step
from perudo_rules.sphinxext.base import PerudoDirective
from perudo_rules.sphinxext.shared import Cell, para, rule_xref, scrolling, table, value_literal
from perudo_rules.sphinxext.store import fingerprint, source_digest, stored, variant_inputs

__all__ = ["ProbesDirective", "position_text"]


def position_text(probe: Probe) -> str:
    """The probe's position in one line: each seat's dice (``-`` for a seat that is out),
    who opens, a palifico round and the round number."""
    pos = probe.position
    cups = " ".join("[" + " ".join(map(str, cup)) + "]" if cup else "-" for cup in pos.dice)
    parts = [cups, tr("seat {seat} opens", seat=pos.first_player)]
    if pos.palifico:
        parts.append(tr("palifico round"))
    if pos.palifico_used:
        parts.append(tr("palifico played by {seats}", seats=", ".join(map(str, pos.palifico_used))))
    parts.append(tr("round {n}", n=pos.round))
    return "; ".join(parts)


class ProbesDirective(PerudoDirective):
    """``.. perudo-probes::``: each edition's targeted probes, one table per edition."""

    def run(self) -> list[nodes.Node]:
        editions = self.load_all([])  # every variant file, each a dependency of the page
        source = source_digest()
        out: list[nodes.Node] = []
        for vid, variant in editions:
            probes = self._probes(vid, variant, source)
            box = nodes.container(ids=[f"probes-{vid}"], classes=["perudo-probes"])
            box += para(nodes.strong(text=vid), " ",
                        tr("({n} probes)", n=len(probes)))  # fmt: skip
            rows: list[list[Cell]] = [self._row(vid, p) for p in probes]
            box += scrolling(table(
                [tr("Rule"), tr("What it tells apart"), tr("Position"), tr("Steps"),
                 tr("Action judged")],
                rows, classes=["perudo-probes-table"], widths=[3, 3, 5, 3, 2],
            ))  # fmt: skip
            out.append(box)
        return out

    def _probes(self, vid: str, variant: Variant, source: str) -> list[Probe]:
        """The probes of ``variant``, kept under the digest of its files and the source."""
        files = variant_inputs([self.variant_path(vid)])
        key = fingerprint(["perudo-probes", vid], files, source)
        data: dict[str, Any] = stored(self.store_folder(), "probes", key,
                                      lambda: probes_document(variant))  # fmt: skip
        return [Probe.from_json(doc) for doc in data["probes"]]

    def _row(self, vid: str, probe: Probe) -> list[Cell]:
        rule = rule_xref(f"{vid}:{probe.rule}", nodes.literal(text=probe.rule), optional=True)
        apart: Cell = tr("decides here")
        if probe.apart:
            apart = para(tr("the other value") + " ", value_literal(probe.against))
        steps = ", ".join(format_step(s) for s in probe.steps) or "-"
        action: Cell = (para(nodes.literal(text=format_step(probe.action)))
                        if probe.action is not None else tr("the legal actions"))  # fmt: skip
        return [para(rule), apart, position_text(probe), para(nodes.literal(text=steps)), action]
