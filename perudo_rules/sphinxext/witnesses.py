"""Divergence witnesses: ``perudo-witnesses``, where two variants disagree in play."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from docutils import nodes

from perudo_rules.analysis.witness import Witness, find_witnesses
from perudo_rules.base.i18n import tr
from perudo_rules.editions.variant import Variant
from perudo_rules.records.describe import describe_step, describe_steps
from perudo_rules.sphinxext.base import PerudoDirective
from perudo_rules.sphinxext.shared import (
    Cell,
    label,
    one_line,
    para,
    rule_xref,
    table,
    value_literal,
)

__all__ = ["WitnessesDirective", "witness_node"]


def _head(w: Witness, pair: Sequence[tuple[str, Variant]]) -> nodes.paragraph:
    """The rule, its value under each variant, and the kind of divergence."""
    head = para(rule_xref(w.rule), ": ", classes=["perudo-rule-head"])
    for i, (vid, variant) in enumerate(pair):
        if i:
            head += nodes.Text(" " + tr("vs") + " ")
        value = w.values.get(variant.id, variant[w.rule])
        head += nodes.Text(f"{vid} ")
        head += rule_xref(f"{vid}:{w.rule}", value_literal(value), optional=True)
    status = tr("confirmed in both engines") if w.confirmed else tr("not confirmed")
    if w.together:
        status += ", " + tr("together with {rules}", rules=", ".join(w.together))
    if w.kind == "none":
        proved = tr("no difference in play, proved")
        status = proved if w.proved else tr("no difference found in play")
    head += nodes.inline(text=f"{tr(w.kind)}: {status}", classes=["perudo-badge"])
    return head


def witness_node(w: Witness, pair: Sequence[tuple[str, Variant]]) -> nodes.container:
    """One witness: the head, the position, the moves up to the decisive action, and what
    happens under each variant of ``pair`` (``(id, variant)`` twice)."""
    box = nodes.container(classes=["perudo-witness", f"perudo-kind-{w.kind}"])
    box += _head(w, pair)
    note = "" if w.note is None else w.note.text()
    if w.kind == "none" or w.start is None:
        box += nodes.paragraph(text=one_line(note))
        return box
    box += para(label(tr("Position:") + " "), w.start.describe() + ".")
    if w.action is not None:
        moves = para(label(tr("Moves:") + " "))
        for text in describe_steps(w.actions):
            moves += nodes.literal(text=text)
            moves += nodes.Text(", " + tr("then") + " ")
        moves += nodes.literal(text=describe_step(w.action), classes=["perudo-decisive"])
        moves += nodes.Text(" " + tr("(the decisive action)"))
        box += moves
    rows: list[list[Cell]] = [
        [nodes.literal(text=vid), one_line(_outcome(w, variant.id, vid))] for vid, variant in pair
    ]
    headers = [tr("Under"), tr("What happens")]
    box += table(headers, rows, classes=["perudo-outcomes"], widths=[1, 8])
    if note:
        box += nodes.paragraph(text=one_line(note))
    return box


def _outcome(w: Witness, variant_id: str, label: str) -> str:
    """What happens under the variant (by its id, or the label the page gives it), said in
    the language of the context."""
    text = w.outcomes.get(variant_id, w.outcomes.get(label))
    return "" if text is None else text.text()


class WitnessesDirective(PerudoDirective):
    """``.. perudo-witnesses:: A B``: concrete situations where two variants disagree,
    found and replayed by the engine (:func:`perudo_rules.analysis.witness.find_witnesses`)."""

    required_arguments = 2

    def run(self) -> list[nodes.Node]:
        a_id, b_id = (Path(a).stem for a in self.arguments)
        a, b = self.load(self.arguments[0]), self.load(self.arguments[1])
        if a is None or b is None:
            return [self.error_node(tr("A variant could not be loaded."))]
        witnesses = find_witnesses(a, b)
        if not witnesses:
            text = tr("No rule differs between {a} and {b}.", a=a_id, b=b_id)
            return [nodes.paragraph(text=text)]
        return [witness_node(w, ((a_id, a), (b_id, b))) for w in witnesses]
