"""Divergence witnesses: ``perudo-witnesses``, where two variants disagree in play.

The witnesses come from the data file computed ahead (``perudo_witness_data`` in
``conf.py``; :mod:`perudo_rules.sphinxext.witnessdata`), said in the build's language; a
pair the file does not hold (a new or changed variant file) is searched live, with a
build warning saying how to refresh the file (:func:`shown_witnesses`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from docutils import nodes

from perudo_rules.analysis.witness import find_witnesses
from perudo_rules.analysis.witnessvalue import Witness
from perudo_rules.base.i18n import tr
from perudo_rules.editions.variant import Variant
from perudo_rules.records.describe import describe_step, describe_steps
from perudo_rules.sphinxext.base import PerudoDirective, logger
from perudo_rules.sphinxext.shared import (
    Cell,
    label,
    one_line,
    para,
    rule_xref,
    table,
    value_literal,
)
from perudo_rules.sphinxext.witnessdata import COMMAND, SPEC_LIMITS, lookup

__all__ = ["WitnessesDirective", "shown_witnesses", "witness_node"]


def shown_witnesses(directive: PerudoDirective, a: Variant, b: Variant) -> list[Witness]:
    """The witnesses of ``a`` against ``b`` that ``directive`` shows: those of the data file
    (``perudo_witness_data``, relative to the source directory; noted as a dependency of
    the page), else searched live (with a build warning when a data file is configured:
    it lacks the pair, or cannot be read)."""
    configured = directive.config.perudo_witness_data
    if not configured:
        return find_witnesses(a, b, limits=SPEC_LIMITS)
    path = Path(configured)
    path = path if path.is_absolute() else Path(directive.env.srcdir) / path
    directive.env.note_dependency(str(path))
    try:
        found = lookup(path, a, b, SPEC_LIMITS)
        why = f"{path} holds none for them" if path.is_file() else f"there is no {path}"
    except (ValueError, KeyError, TypeError) as exc:
        found, why = None, f"{path} cannot be read ({exc})"
    if found is None:
        logger.warning(
            "perudo: witnesses of %s vs %s searched live: %s; refresh it with %s",
            a.id,
            b.id,
            why,
            COMMAND,
            location=directive.get_location(),
            type="perudo",
            subtype="witnesses",
        )
        found = find_witnesses(a, b, limits=SPEC_LIMITS)
    return found


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
    if w.kind == "none":  # the status says it all: no kind of divergence to name
        proved = tr("no difference in play, proved")
        badge = proved if w.proved else tr("no difference found in play")
    else:
        badge = f"{tr(w.kind)}: {status}"
    head += nodes.inline(text=badge, classes=["perudo-badge"])
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
    found and replayed by the engine (:func:`perudo_rules.analysis.witness.find_witnesses`;
    computed ahead, :func:`shown_witnesses`)."""

    required_arguments = 2

    def run(self) -> list[nodes.Node]:
        """A witness box per differing rule, in the build's language."""
        a_id, b_id = (Path(a).stem for a in self.arguments)
        a, b = self.load(self.arguments[0]), self.load(self.arguments[1])
        if a is None or b is None:
            return [self.error_node(tr("A variant could not be loaded."))]
        witnesses = shown_witnesses(self, a, b)
        if not witnesses:
            text = tr("No rule differs between {a} and {b}.", a=a_id, b=b_id)
            return [nodes.paragraph(text=text)]
        return [witness_node(w, ((a_id, a), (b_id, b))) for w in witnesses]
