"""What each knob value means, for engine authors: ``perudo-knob-values``.

One row per knob of the knob table (:mod:`perudo_rules.editions.knobs`): its path (the key
of a claim and of a ``start`` request's edition), what it decides, and each of its values
with its meaning and the editions of the variants directory that use it (each a link to
the rule on the edition's page, where there is one). The choices of the table come first,
in its order; a value an edition uses that is no listed choice (a number) follows. The
value a claim that leaves the knob out claims (the knob table's ``legacy``) is marked.
Generated at the build from the knob table and the variant files, each a dependency.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docutils import nodes

from perudo_rules.base.i18n import tr
from perudo_rules.editions import knobs
from perudo_rules.editions.knobs import KNOBS, KnobSpec, same_value
from perudo_rules.editions.variant import Variant
from perudo_rules.sphinxext.base import PerudoDirective
from perudo_rules.sphinxext.shared import (
    Cell,
    join,
    one_line,
    para,
    rule_xref,
    scrolling,
    table,
    value_literal,
)

__all__ = ["KnobValuesDirective", "knob_values"]


def knob_values(
    spec: KnobSpec, editions: Sequence[tuple[str, Variant]]
) -> list[tuple[Any, str, list[str]]]:
    """Each value of the knob ``spec``: the value, its meaning (the knob table's, or ``""``)
    and the ids of the ``editions`` that use it; the table's choices first, then the other
    values the editions use, in the order they first appear."""
    out: list[tuple[Any, str, list[str]]] = [(v, meaning, []) for v, meaning in spec.choices]
    for vid, variant in editions:
        value = variant[spec.path]
        row = next((r for r in out if same_value(r[0], value)), None)
        if row is None:
            row = (value, "", [])
            out.append(row)
        row[2].append(vid)
    return out


class KnobValuesDirective(PerudoDirective):
    """``.. perudo-knob-values::``: every knob, each value's meaning and its editions."""

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(knobs.__file__)
        editions = self.load_all([])
        rows: list[list[Cell]] = []
        for spec in KNOBS:
            rows.append([
                para(nodes.literal(text=spec.path)),
                para(tr(one_line(spec.description))),
                self._values(spec, editions),
            ])  # fmt: skip
        return [
            scrolling(
                table(
                    [tr("Knob"), tr("What it decides"), tr("Values: meaning (editions)")],
                    rows,
                    classes=["perudo-knob-values"],
                    widths=[3, 5, 8],
                )
            )
        ]

    def _values(self, spec: KnobSpec, editions: Sequence[tuple[str, Variant]]) -> nodes.Node:
        blist = nodes.bullet_list(classes=["perudo-choices"])
        for value, meaning, users in knob_values(spec, editions):
            item = para(value_literal(value))
            if meaning:
                item += nodes.Text(f": {tr(one_line(meaning))}")
            if spec.legacy and same_value(spec.legacy[0], value):
                item += nodes.Text(" ")
                item += nodes.emphasis(text=tr("(a claim that leaves the knob out claims it)"))
            item += nodes.Text(" (")
            if users:
                links = (rule_xref(f"{vid}:{spec.path}", nodes.Text(vid), optional=True)
                         for vid in users)  # fmt: skip
                join(item, links)
            else:
                item += nodes.Text(tr("no edition"))
            item += nodes.Text(")")
            entry = nodes.list_item()
            entry += item
            blist += entry
        return blist if blist.children else para(tr("no edition"))
