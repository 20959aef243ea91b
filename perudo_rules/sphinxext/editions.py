"""Edition pages: ``perudo-variant``, ``perudo-editions`` and ``perudo-core-rules``."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes

from perudo_rules.base.i18n import N_, ptr, tr
from perudo_rules.editions.knobs import SECTIONS, knob_spec
from perudo_rules.editions.variant import Knob, Variant
from perudo_rules.sphinxext.base import OneVariantDirective, PerudoDirective
from perudo_rules.sphinxext.shared import (
    Cell,
    interpretation_node,
    label,
    one_line,
    para,
    rule_anchor,
    scenario_links,
    self_link,
    table,
    value_literal,
)

__all__ = ["CoreRulesDirective", "EditionsDirective", "VariantDirective", "core_rules_node"]

#: The section titles of an edition page (one per knob section), for the catalogues.
SECTION_TITLES = (
    N_("Players"), N_("Dice"), N_("Wild"), N_("Setup"), N_("Bidding"), N_("Challenge"),
    N_("Calza"), N_("Palifico"), N_("Round"), N_("End"), N_("Reroll"), N_("Leave"),
)


def core_rules_node(
    directive: PerudoDirective,
    prefix: str | None,
    scenarios: dict[str, list[str]] | None = None,
) -> nodes.container:
    """Every fixed rule with its anchor (``prefix:rule`` on an edition page), statement,
    scenario links and interpretation."""
    items = nodes.container(classes=["perudo-core-rules"])
    for rule_id, text, interp in directive.core_rules():
        anchor = rule_anchor(rule_id, prefix)
        directive.note_rule(f"{prefix}:{rule_id}" if prefix else rule_id, anchor)
        box = nodes.container(ids=[anchor], classes=["perudo-rule", "perudo-core-rule"])
        box += para(self_link(rule_id, anchor), classes=["perudo-rule-head"])
        box += nodes.paragraph(text=tr(text))
        if scenarios and scenarios.get(rule_id):
            box += scenario_links(scenarios[rule_id])
        if interp is not None:
            box += interpretation_node(interp)
        items += box
    return items


class CoreRulesDirective(PerudoDirective):
    """``.. perudo-core-rules::``: the fixed rules with their ids."""

    def run(self) -> list[nodes.Node]:
        return [core_rules_node(self, prefix=None)]


def _intro(vid: str, variant: Variant) -> nodes.container:
    """Description, facts (id, rulebook, base, counts) and every value at a glance."""
    intro = nodes.container(classes=["perudo-variant-intro"])
    if variant.description:
        intro += nodes.paragraph(text=tr(variant.description))
    facts = nodes.field_list()
    rows: list[tuple[str, nodes.Node]] = [(tr("Variant id"), nodes.literal(text=vid))]
    if variant.rulebook:
        title = variant.rulebook.get("title", "")
        lang = variant.rulebook.get("language")
        shown = ptr("source", title) + (f" ({lang})" if lang else "")
        rows.append((tr("Rulebook"), nodes.Text(shown)))
    if variant.extends:
        rows.append((tr("Extends"), nodes.literal(text=variant.extends)))
    interps = len(variant.interpretations())
    count = tr("{n} knobs, {m} interpreted", n=len(variant.knobs), m=interps)
    rows.append((tr("Rules"), nodes.Text(count)))
    for name, node in rows:
        field = nodes.field()
        field += nodes.field_name(text=name)
        body = nodes.field_body()
        body += para(node)
        field += body
        facts += field
    intro += facts
    glance = nodes.bullet_list(classes=["perudo-glance"])
    for knob in variant.knobs:
        item = nodes.list_item()
        item += para(
            nodes.reference(
                "", "", nodes.literal(text=knob.path), refid=rule_anchor(knob.path, vid)
            ),
            " = ",
            value_literal(knob.value),
            *(
                [nodes.inline(text=" *", classes=["perudo-interpreted"])]
                if knob.interpretation
                else []
            ),
        )
        glance += item
    intro += para(
        nodes.strong(text=tr("At a glance")),
        " " + tr("(* marks a value that rests on an interpretation):"),
    )
    intro += glance
    return intro


class VariantDirective(OneVariantDirective):
    """``.. perudo-variant:: ID``: a whole edition, rule by rule."""

    option_spec: ClassVar[dict[str, Any]] = {"no-core": directives.flag}

    def run_variant(self, vid: str, variant: Variant) -> list[nodes.Node]:
        scenarios = self.scenarios_by_rule(vid)
        rulebook_lang = (variant.rulebook or {}).get("language")
        out: list[nodes.Node] = [_intro(vid, variant)]
        for section in SECTIONS:
            sec = nodes.section(ids=[nodes.make_id(f"{vid}-section-{section}")])
            sec += nodes.title(text=tr(section.replace("_", " ").capitalize()))
            for knob in variant.knobs:
                if knob.path.split(".", 1)[0] == section:
                    sec += self.rule_node(vid, knob, scenarios, rulebook_lang)
            out.append(sec)
        if "no-core" not in self.options:
            sec = nodes.section(ids=[nodes.make_id(f"{vid}-section-core")])
            sec += nodes.title(text=tr("Rules every edition shares"))
            sec += nodes.paragraph(
                text=tr(
                    "These rules are not knobs: they hold in every variant. "
                    "Their ids are the ones the engine reports for an illegal action."
                )
            )
            sec += core_rules_node(self, prefix=vid, scenarios=scenarios)
            out.append(sec)
        return out

    def rule_node(
        self,
        vid: str,
        knob: Knob,
        scenarios: dict[str, list[str]] | None = None,
        rulebook_lang: str | None = None,
    ) -> nodes.container:
        """One rule of the edition: value, statement (in the build's language), rulebook
        section, the rulebook's own words (``quote``, as printed, in ``rulebook_lang``),
        scenario links and interpretation, anchored as ``vid:rule``."""
        anchor = rule_anchor(knob.path, vid)
        name = f"{vid}:{knob.path}"
        self.note_rule(name, anchor)
        box = nodes.container(ids=[anchor], classes=["perudo-rule"])
        box += para(
            self_link(knob.path, anchor),
            " = ",
            value_literal(knob.value),
            classes=["perudo-rule-head"],
        )
        box += nodes.paragraph(text=tr(knob.text or knob_spec(knob.path).description))
        meta = nodes.paragraph(classes=["perudo-rule-meta"])
        if knob.source:
            meta += label(tr("Rulebook:") + " ")
            meta += nodes.emphasis(text=ptr("source", knob.source))
        if knob.quote:  # the rulebook's own words, never translated
            meta += nodes.Text(" — ")
            quote = nodes.inline(text=f"«{one_line(knob.quote)}»", classes=["perudo-quote"])
            if rulebook_lang:
                quote["classes"].append(f"perudo-lang-{rulebook_lang}")
            meta += quote
        if not knob.source:
            meta += label(tr("Set in:") + " ")
            where = Path(knob.file).name if knob.file else "?"
            meta += nodes.literal(text=f"{where}:{knob.line}" if knob.line else where)
        meta += nodes.Text(" · ")
        meta += label(tr("Reference:") + " ")
        meta += nodes.literal(text=name)
        box += meta
        if scenarios and scenarios.get(knob.path):
            box += scenario_links(scenarios[knob.path])
        if knob.interpretation is not None:
            box += interpretation_node(knob.interpretation)
        return box


class EditionsDirective(PerudoDirective):
    """``.. perudo-editions::``: every variant, with a link to its page."""

    def run(self) -> list[nodes.Node]:
        editions = self.config.perudo_editions_dir
        rows: list[list[Cell]] = []
        for vid, variant in self.load_all(()):
            name = para(tr(variant.name))
            if editions:
                ref = addnodes.pending_xref(
                    "",
                    refdomain="std",
                    reftype="doc",
                    reftarget=f"/{editions}/{vid}",
                    refexplicit=True,
                    refwarn=True,
                )
                ref += nodes.inline(text=tr(variant.name))
                name = para(ref)
            rows.append(
                [
                    nodes.literal(text=vid),
                    name,
                    para(tr(variant.description)),
                    str(len(variant.interpretations())),
                ]
            )
        return [
            table(
                [tr("Id"), tr("Edition"), tr("Summary"), tr("Interpretations")],
                rows,
                classes=["perudo-editions"],
                widths=[2, 3, 8, 1],
            )
        ]
