"""The variant file format reference: ``perudo-format``, from the JSON Schema."""

from __future__ import annotations

import json
from typing import Any

from docutils import nodes

from perudo_rules.base.i18n import N_, tr
from perudo_rules.editions.knobs import KNOBS, SECTIONS, KnobSpec
from perudo_rules.editions.variant import format_value
from perudo_rules.editions.variantfile import data_dir
from perudo_rules.sphinxext.base import PerudoDirective
from perudo_rules.sphinxext.shared import (
    Cell,
    join,
    one_line,
    para,
    rule_anchor,
    self_link,
    table,
)

__all__ = ["FormatDirective", "schema_type"]

_META_DESCRIPTIONS = {
    "id": N_("Identifier: lower-case letters, digits, '-' and '_'."),
    "name": N_("Human-readable name."),
    "description": N_("A paragraph about the variant."),
    "extends": N_("A bundled variant id or a relative path: take every knob from there."),
    "rulebook": N_("The rulebook the rules come from: title, file, language."),
}
#: The descriptions ``spec/variant.schema.json`` writes besides the knob table's
#: (:mod:`perudo_rules.editions.schema`), for the catalogues: the page shows each in the
#: build's language.
SCHEMA_TEXTS = (
    N_(
        "One edition or house-rules variant of Perudo. A file without 'extends' must set "
        "every knob; a file with 'extends' overrides only what it names."
    ),
    N_("A bundled variant id, or a path relative to this file."),
    N_(
        "Where the rulebook states a fixed rule of spec/core-rules.yaml: its rule id to the "
        "section (source) and, where the words exist, a quote. The statement stays the core "
        "rule's. A file with 'extends' replaces the entries it names."
    ),
    N_("The rule in one line."),
    N_("The rulebook section heading the rule comes from."),
    N_("A few words of the rulebook, where the exact wording decides."),
)


def _said(text: str | None) -> str:
    """A description of the schema on one line, in the build's language."""
    folded = one_line(text)
    return tr(folded) if folded else ""


_TYPES = {
    "integer": N_("integer"),
    "string": N_("string"),
    "boolean": N_("boolean"),
    "object": N_("mapping"),
    "null": "null",
    "any": N_("any"),
}


def schema_type(schema: dict[str, Any]) -> str:
    """A JSON Schema in words: ``integer (>= 1)``, ``one of a, b`` (in the language of the
    context; values as a file writes them)."""
    if "enum" in schema:
        return tr("one of {values}", values=", ".join(format_value(v) for v in schema["enum"]))
    if "oneOf" in schema:
        return (" " + tr("or") + " ").join(schema_type(s) for s in schema["oneOf"])
    kind = str(schema.get("type", "any"))
    bounds = []
    if "minimum" in schema:
        bounds.append(f">= {schema['minimum']}")
    if "maximum" in schema:
        bounds.append(f"<= {schema['maximum']}")
    if "minLength" in schema:
        bounds.append(tr("non-empty"))
    shown = tr(_TYPES[kind]) if kind in _TYPES else kind
    return shown + (f" ({', '.join(bounds)})" if bounds else "")


def _type_cell(schema: dict[str, Any]) -> nodes.paragraph:
    """:func:`schema_type` with each value an enumeration allows as code (the values are
    what a file writes, in every language)."""
    if "enum" in schema:
        out = para(tr("one of") + " ")
        join(out, (nodes.literal(text=format_value(v)) for v in schema["enum"]))
        return out
    if "oneOf" in schema:
        out = para()
        for i, sub in enumerate(schema["oneOf"]):
            if i:
                out += nodes.Text(" " + tr("or") + " ")
            out.extend(_type_cell(sub).children)
        return out
    return para(schema_type(schema))


def _yes(flag: bool) -> str:
    return tr("yes") if flag else tr("no")


def _meta_table(schema: dict[str, Any]) -> nodes.table:
    """The top-level keys of a variant file (every key but the knob sections)."""
    rows: list[list[Cell]] = []
    for key, sub in schema["properties"].items():
        if key in SECTIONS:
            continue
        rows.append(
            [
                nodes.literal(text=key),
                schema_type(sub) if "type" in sub else tr("mapping"),
                _yes(key in schema.get("required", [])),
                _said(sub.get("description")) or _said(_META_DESCRIPTIONS.get(key)),
            ]
        )
    return table(
        [tr("Key"), tr("Type"), tr("Required"), tr("Meaning")],
        rows,
        classes=["perudo-format-meta"],
        widths=[2, 3, 1, 6],
    )


def _documented_knob(schema: dict[str, Any]) -> list[nodes.Node]:
    """The keys of a documented knob mapping (``value``, ``text``, ``source``, ...)."""
    documented = next(
        (
            then
            for sub in schema["properties"].values()
            for knob in sub.get("properties", {}).values()
            if (then := knob.get("then"))
        ),
        None,
    )
    if not documented:
        return []
    interp = schema.get("$defs", {}).get("interpretation", {})
    rows: list[list[Cell]] = []
    for key, sub in documented["properties"].items():
        if key == "interpretation":
            parts = ", ".join(interp.get("properties", {}))
            desc = _said(interp.get("description")) or tr("A reading chosen by us")
            desc += " " + tr("(a mapping of {keys}).", keys=parts)
        else:
            desc = _said(sub.get("description")) or tr("The knob's value (see below).")
        rows.append([nodes.literal(text=key), _yes(key in documented.get("required", [])), desc])
    return [
        nodes.paragraph(
            text=tr(
                "A knob is either a bare value (house-rules files) or a documented "
                "mapping with these keys:"
            )
        ),
        table(
            [tr("Key"), tr("Required"), tr("Meaning")],
            rows,
            classes=["perudo-format-knob"],
            widths=[2, 1, 8],
        ),
    ]


def _choices(spec: KnobSpec, value_schema: dict[str, Any]) -> Cell:
    """The values an enumerated knob takes, each with its meaning."""
    if not spec.choices or ("enum" not in value_schema and "oneOf" not in value_schema):
        return "—"
    blist = nodes.bullet_list(classes=["perudo-choices"])
    for value, meaning in spec.choices:
        item = nodes.list_item()
        item += para(nodes.literal(text=format_value(value)), f": {tr(one_line(meaning))}")
        blist += item
    return blist


class FormatDirective(PerudoDirective):
    """``.. perudo-format::``: the variant file format, from the JSON Schema."""

    def run(self) -> list[nodes.Node]:
        path = data_dir("spec") / "variant.schema.json"
        self.env.note_dependency(str(path))
        schema = json.loads(path.read_text(encoding="utf-8"))
        out: list[nodes.Node] = [
            nodes.paragraph(text=_said(schema.get("description"))),
            _meta_table(schema),
            *_documented_knob(schema),
        ]
        for section in SECTIONS:
            out.append(self.section_node(section, schema["properties"][section]["properties"]))
        return out

    def section_node(self, section: str, props: dict[str, Any]) -> nodes.section:
        """One section of knobs: each anchored at its rule id (the ``:rule:`` target)."""
        sec = nodes.section(ids=[nodes.make_id(f"format-section-{section}")])
        head, _, tail = tr("Section {name}", name="\0").partition("\0")
        sec += nodes.title("", "", nodes.Text(head), nodes.literal(text=section), nodes.Text(tail))
        rows: list[list[Cell]] = []
        for spec in KNOBS:
            if spec.section != section:
                continue
            sub = props[spec.name]
            anchor = rule_anchor(spec.path)
            self.note_rule(spec.path, anchor)
            value_schema = sub.get("else", spec.schema)
            rows.append(
                [
                    nodes.paragraph("", "", self_link(spec.path, anchor), ids=[anchor]),
                    _type_cell(value_schema),
                    para(_said(sub.get("description", spec.description))),
                    _choices(spec, value_schema),
                ]
            )
        sec += table(
            [tr("Rule id"), tr("Value"), tr("Decides"), tr("Choices")],
            rows,
            classes=["perudo-format-section"],
            widths=[3, 3, 5, 6],
        )
        return sec
