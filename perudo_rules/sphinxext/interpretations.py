"""Interpretations: ``perudo-interpretations``, both readings of every one, by rule."""

from __future__ import annotations

from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from perudo_rules.base.errors import VariantError
from perudo_rules.base.i18n import tr
from perudo_rules.editions.knobs import KNOBS, KnobSpec
from perudo_rules.editions.variant import Knob, Variant
from perudo_rules.sphinxext.base import CoreRule, PerudoDirective
from perudo_rules.sphinxext.shared import (
    interpretation_node,
    para,
    rule_xref,
    value_literal,
)
from perudo_rules.sphinxext.witnessdata import alternative_variant
from perudo_rules.sphinxext.witnesses import shown_witnesses, witness_node

__all__ = ["InterpretationsDirective"]


def _witness_nodes(
    directive: PerudoDirective, vid: str, variant: Variant, knob: Knob
) -> list[nodes.Node]:
    """What the alternative reading changes in play: a witness per knob it overrides
    (computed ahead, :func:`~perudo_rules.sphinxext.witnesses.shown_witnesses`)."""
    try:
        alt = alternative_variant(variant, knob)
    except VariantError as exc:
        return [nodes.paragraph(text=tr("The override does not load: {error}", error=exc))]
    if alt is None:
        return []
    pair = ((vid, variant), (tr("other reading"), alt))
    return [
        para(nodes.strong(text=tr("What the other reading changes in play"))),
        *(witness_node(w, pair) for w in shown_witnesses(directive, variant, alt)),
    ]


def _knob_section(
    spec: KnobSpec, readings: list[tuple[str, Variant, Knob]], directive: PerudoDirective | None
) -> nodes.section:
    """The interpretations of one knob, one box per variant that records one."""
    sec = nodes.section(ids=[nodes.make_id(f"interpretations-{spec.path}")])
    sec += nodes.title(text=spec.path)
    sec += para(
        nodes.emphasis(text=tr(spec.description)),
        " (",
        rule_xref(spec.path, nodes.inline(text=tr("format reference"))),
        ")",
    )
    for vid, variant, knob in readings:
        assert knob.interpretation is not None
        box = nodes.container(classes=["perudo-rule"])
        box += para(
            rule_xref(f"{vid}:{spec.path}"),
            " = ",
            value_literal(knob.value),
            classes=["perudo-rule-head"],
        )
        if knob.text:
            box += nodes.paragraph(text=tr(knob.text))
        box += interpretation_node(knob.interpretation)
        if directive and knob.file == variant.file:  # inherited readings show at their base
            box.extend(_witness_nodes(directive, vid, variant, knob))
        sec += box
    return sec


def _fixed_section(fixed: list[CoreRule]) -> nodes.section:
    """The interpretations of the fixed rules (they hold in every variant)."""
    sec = nodes.section(ids=[nodes.make_id("interpretations-fixed-rules")])
    sec += nodes.title(text=tr("Rules every edition shares"))
    sec += nodes.paragraph(
        text=tr("Both rulebooks are silent here; the reading holds in every variant.")
    )
    for rule_id, text, interp in fixed:
        assert interp is not None
        box = nodes.container(classes=["perudo-rule", "perudo-core-rule"])
        box += para(rule_xref(rule_id, optional=True), classes=["perudo-rule-head"])
        box += nodes.paragraph(text=tr(text))
        box += interpretation_node(interp)
        sec += box
    return sec


class InterpretationsDirective(PerudoDirective):
    """``.. perudo-interpretations:: [ID ...]``: both readings of every interpretation,
    grouped by rule, then those of the fixed rules (unless ``:no-core:``); with
    ``:witnesses:``, a divergence witness of what each override changes in play."""

    optional_arguments = 100
    option_spec: ClassVar[dict[str, Any]] = {
        "no-core": directives.flag,
        "witnesses": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        variants = self.load_all(self.arguments)
        out: list[nodes.Node] = []
        for spec in KNOBS:
            readings = [
                (vid, v, v.knob(spec.path))
                for vid, v in variants
                if v.knob(spec.path).interpretation is not None
            ]
            if readings:
                shown = self if "witnesses" in self.options else None
                out.append(_knob_section(spec, readings, shown))
        if "no-core" not in self.options:
            fixed = [rule for rule in self.core_rules() if rule[2] is not None]
            if fixed:
                out.append(_fixed_section(fixed))
        if not out:
            out.append(nodes.paragraph(text=tr("No variant records an interpretation.")))
        return out
