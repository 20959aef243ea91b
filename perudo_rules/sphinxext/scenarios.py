"""The scenario catalogue: ``perudo-scenarios``, conformance scenarios as step tables."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from perudo_rules.base.errors import ActionSyntaxError, PerudoError
from perudo_rules.base.i18n import N_, ptr, tr
from perudo_rules.conform.scenarios import Scenario, ScenarioStep, default_paths
from perudo_rules.editions.corerules import core_rules
from perudo_rules.editions.knobs import KNOB_PATHS
from perudo_rules.editions.variant import format_value
from perudo_rules.records.describe import describe_steps, seat_name
from perudo_rules.records.position import Position, parse_step
from perudo_rules.sphinxext.base import PerudoDirective, warn_located
from perudo_rules.sphinxext.expectations import expectation_text
from perudo_rules.sphinxext.shared import (
    Cell,
    join,
    label,
    para,
    rule_xref,
    table,
)

__all__ = ["ScenariosDirective", "describe_value", "expect_node", "start_node"]

_FILTERS = ("rule", "variant", "id")
#: The kinds of scenario (the badge of each), for the catalogues.
SCENARIO_KINDS = (N_("rulebook"), N_("interpretation"), N_("edition-difference"))


def _filter_list(text: str) -> list[str]:
    return [p for p in re.split(r"[\s,]+", text or "") if p]


def _rule_order(rule: str) -> tuple[int, str]:
    """Knobs in table order, then the fixed rules in spec order, then anything else."""
    order = [*KNOB_PATHS, *core_rules()]
    return (order.index(rule), rule) if rule in order else (len(order), rule)


def describe_value(value: Any) -> str:
    """An expected value in one line: mappings as ``k: v; ...``, lists in brackets."""
    if isinstance(value, dict):
        return "; ".join(f"{k}: {describe_value(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(describe_value(v) for v in value) + "]"
    return format_value(value)


def start_node(start: Position) -> nodes.paragraph:
    """The start position: round, kind of round, who opens, every cup."""
    facts = {"round": start.round, "seat": start.first_player}
    if start.palifico:
        where = tr("round {round}, palifico round, seat {seat} to open", **facts)
    else:
        where = tr("round {round}, ordinary round, seat {seat} to open", **facts)
    out = para(label(tr("Position:") + " "), where, classes=["perudo-position"])
    if start.palifico_used:
        seats = ", ".join(tr("seat {n}", n=s) for s in start.palifico_used)
        out += nodes.Text("; " + tr("already had palifico: {seats}", seats=seats))
    out += nodes.Text(". " + tr("Dice:") + " ")
    for seat, cup in enumerate(start.dice):
        out += nodes.Text(("; " if seat else "") + seat_name(seat) + " ")
        held = f"[{', '.join(map(str, cup))}]" if cup else tr("out")
        out += nodes.literal(text=held, classes=["perudo-cup"])
    return out


def _expect_items(expect: Mapping[str, Any], probe: bool, implicit_legal: bool) -> list[nodes.Node]:
    items: list[nodes.Node] = []
    played = ""
    if "illegal" not in expect:
        played = " " + (tr("(probe: not played)") if probe else tr("(played)"))
    if "illegal" not in expect and "legal" not in expect and implicit_legal:
        items.append(para(nodes.strong(text=tr("legal")), played))
    for key, value in expect.items():
        if key == "legal":
            items.append(para(nodes.strong(text=tr("legal") if value else tr("illegal")), played))
        elif key == "illegal":
            items.append(
                para(
                    nodes.strong(text=tr("illegal"), classes=["perudo-illegal"]),
                    " " + tr("by rule") + " ",
                    rule_xref(str(value), optional=True),
                    " " + tr("(refused, not played)"),
                )
            )
        else:
            items.append(para(expectation_text(key, value)))
    return items


def expect_node(step: ScenarioStep, variants: Sequence[str]) -> nodes.container:
    """What must hold after ``step``: shared expectations, then those of each variant."""
    expect = step.expect
    shared = {k: v for k, v in expect.items() if k not in variants}
    specific = {k: v for k, v in expect.items() if k in variants and isinstance(v, dict)}
    split = any("legal" in v or "illegal" in v for v in specific.values())
    box = nodes.container(classes=["perudo-expect"])
    for node in _expect_items(shared, step.probe, implicit_legal=not split):
        box += node
    for vid, sub in specific.items():
        inner = nodes.container(classes=["perudo-expect-variant"])
        inner += para(label(tr("Under {variant}:", variant=vid)))
        for node in _expect_items(sub, step.probe, implicit_legal=False):
            inner += node
        box += inner
    return box


def _steps_said(s: Scenario) -> list[Cell]:
    """Each step of ``s`` as a sentence (``seat 0 bids 3x4``, in the build's language); a
    step that does not parse (the loader refuses those) as written."""
    try:
        steps = [parse_step(step.action) for step in s.steps]
    except ActionSyntaxError:
        return [para(nodes.literal(text=str(step.action))) for step in s.steps]
    return [para(text) for text in describe_steps(steps)]


def _meta(s: Scenario) -> nodes.paragraph:
    """Variants, rules, rulebook source and file:line of a scenario."""
    meta = nodes.paragraph(classes=["perudo-rule-meta"])
    meta += label(tr("Variants:") + " ")
    join(meta, (nodes.literal(text=v) for v in s.variants))
    meta += nodes.Text(" · ")
    meta += label(tr("Rules:") + " ")
    join(meta, (rule_xref(r, optional=True) for r in s.rules))
    meta += nodes.Text(" · ")
    meta += label(tr("Source:") + " ")
    meta += nodes.emphasis(text=ptr("source", str(s.source)))
    if s.file:
        meta += nodes.Text(" · ")
        meta += nodes.literal(text=f"{Path(s.file).name}:{s.line}" if s.line else s.file)
    return meta


class ScenariosDirective(PerudoDirective):
    """``.. perudo-scenarios::``: conformance scenarios as step tables, grouped by rule.

    Filters (each a list; a scenario matches when it shares an item with each given
    filter): ``:rule:``, ``:variant:``, ``:id:``. Scenarios are grouped under the first
    of their rules that passes the ``:rule:`` filter. The unfiltered catalogue is where
    ``:scenario:`` references point.
    """

    option_spec: ClassVar[dict[str, Any]] = {name: directives.unchanged for name in _FILTERS}

    def run(self) -> list[nodes.Node]:
        try:
            scenarios = self.bundled_scenarios()
        except PerudoError as err:
            warn_located(err, "cannot load scenarios", str(default_paths()))
            return [self.error_node(tr("The scenarios could not be loaded."))]
        rules = _filter_list(self.options.get("rule", ""))
        variants = set(_filter_list(self.options.get("variant", "")))
        ids = set(_filter_list(self.options.get("id", "")))
        chosen = [
            s
            for s in scenarios
            if (not rules or set(rules) & set(s.rules))
            and (not variants or variants & set(s.variants))
            and (not ids or s.id in ids)
        ]
        if not chosen:
            return [nodes.paragraph(text=tr("No scenario matches."))]
        by_rule: dict[str, list[Scenario]] = {}
        for s in chosen:
            first = next((r for r in s.rules if not rules or r in rules), "other")
            by_rule.setdefault(first, []).append(s)
        out: list[nodes.Node] = [
            nodes.paragraph(
                text=tr("{n} scenarios under {m} rules.", n=len(chosen), m=len(by_rule)),
                classes=["perudo-compare-summary"],
            )
        ]
        for rule in sorted(by_rule, key=_rule_order):
            sec = nodes.section(ids=[nodes.make_id(f"scenarios-{self.env.docname}-{rule}")])
            sec += nodes.title(text=rule)
            n = len(by_rule[rule])
            count = tr("({n} scenario)", n=n) if n == 1 else tr("({n} scenarios)", n=n)
            sec += para(tr("Rule:") + " ", rule_xref(rule, optional=True), " " + count)
            for s in by_rule[rule]:
                sec += self.scenario_node(s)
            out.append(sec)
        return out

    def scenario_node(self, s: Scenario) -> nodes.container:
        """One scenario: head, facts, start position and its steps as a table."""
        anchor = nodes.make_id(f"scenario-{s.id}")
        if not any(name in self.options for name in _FILTERS):
            self.note_rule(s.id, anchor, objtype="scenario")  # the catalogue: :scenario: target
        box = nodes.container(ids=[anchor], classes=["perudo-scenario"])
        box += para(
            nodes.reference("", "", nodes.literal(text=s.id), refid=anchor),
            " — ",
            nodes.strong(text=tr(s.title)),
            nodes.inline(text=tr(s.kind), classes=["perudo-badge", f"perudo-kind-{s.kind}"]),
            classes=["perudo-scenario-head"],
        )
        box += _meta(s)
        if s.description:
            box += nodes.paragraph(text=tr(s.description))
        if s.overrides:
            box += para(
                label(tr("Knobs set for this scenario:") + " "),
                nodes.literal(
                    text=", ".join(f"{k} = {format_value(v)}" for k, v in s.overrides.items())
                ),
            )
        box += start_node(s.start)
        rows: list[list[Cell]] = [
            [str(i), said, expect_node(step, s.variants)]
            for i, (step, said) in enumerate(zip(s.steps, _steps_said(s), strict=True), 1)
        ]
        headers = ["#", tr("Action"), tr("Expected")]
        box += table(headers, rows, classes=["perudo-steps"], widths=[1, 4, 9])
        return box
