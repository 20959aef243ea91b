"""The comparison matrix: ``perudo-compare``, one row per rule, one column per variant.

The matrix is plain HTML that reads without a script: every row and column is there, the
rule column stays in view while the values scroll sideways inside the table's box
(``docs/_static/perudo.css``), and rule ids wrap only after a dot. ``docs/_static/perudo.js``
adds the controls the directive lays out as text (so Sphinx can translate their labels):
"only the rules that differ" and a checkbox per edition. The script reads which edition a
cell belongs to from its class (:func:`edition_class`) and the value from its code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from perudo_rules.base.i18n import ntr, tr
from perudo_rules.editions.knobs import KNOBS
from perudo_rules.editions.variant import Variant, format_value
from perudo_rules.sphinxext.base import PerudoDirective
from perudo_rules.sphinxext.shared import (
    Cell,
    breakable_literal,
    para,
    rule_xref,
    scrolling,
    table,
)

__all__ = ["CompareDirective", "edition_class", "majority"]


def majority(values: Sequence[Any]) -> Any:
    """The most common of ``values`` (the first of them on a tie)."""
    counts = Counter(repr(v) for v in values)
    best = max(counts.values())
    return next(v for v in values if counts[repr(v)] == best)


def edition_class(variant_id: str) -> str:
    """The class of an edition's header, cells and checkbox: ``perudo-edition-italian``."""
    return nodes.make_id(f"perudo-edition-{variant_id}")


class CompareDirective(PerudoDirective):
    """``.. perudo-compare:: [ID ...]``: the knob matrix, differences highlighted.

    Without arguments every variant file is a column; ``:differences:`` keeps only
    the rules that differ.
    """

    optional_arguments = 100
    option_spec: ClassVar[dict[str, Any]] = {"differences": directives.flag}

    def run(self) -> list[nodes.Node]:
        variants = self.load_all(self.arguments)
        if not variants:
            return [self.error_node(tr("No variant to compare."))]
        only_diff = "differences" in self.options
        rows: list[list[Cell]] = []
        row_classes = []
        cell_classes = []
        for spec in KNOBS:
            values = [v[spec.path] for _, v in variants]
            differs = any(val != values[0] for val in values)
            if only_diff and not differs:
                continue
            rule = breakable_literal(spec.path, ".", classes=["perudo-rule-name"])
            # the mark is in every row; the stylesheet hides it where the row agrees, so the
            # script can re-mark rows when fewer editions are shown without writing text
            cells: list[Cell] = [rule_xref(spec.path, rule, optional=True), "≠"]
            classes: list[list[str]] = [["perudo-rule-cell"], ["perudo-mark"]]
            common = majority(values)
            for (vid, variant), value in zip(variants, values, strict=True):
                literal = breakable_literal(format_value(value), "_", classes=["perudo-value"])
                cell = para(rule_xref(f"{vid}:{spec.path}", literal, optional=True))
                if variant.knob(spec.path).interpretation is not None:
                    cell += nodes.inline(text=" *", classes=["perudo-interpreted"])
                cells.append(cell)
                odd = differs and value != common
                classes.append(
                    ["perudo-value-cell", edition_class(vid), *(["perudo-odd"] if odd else [])]
                )
            rows.append(cells)
            row_classes.append(["perudo-differs"] if differs else ["perudo-same"])
            cell_classes.append(classes)
        n_diff = sum(1 for c in row_classes if c == ["perudo-differs"])
        counts = ", ".join([
            ntr("{n} variant", "{n} variants", len(variants)),
            ntr("{n} rule", "{n} rules", len(KNOBS)),
            ntr("{n} differs", "{n} differ", n_diff),
        ])  # fmt: skip
        caption = tr(
            "Rows marked ≠ differ; a highlighted value differs from the most common value in "
            "its row; * marks a value that rests on an interpretation. Each value links to the "
            "rule on the variant's page."
        )
        summary = nodes.paragraph(
            text=f"{counts}. {caption}", classes=["perudo-compare-summary"]
        )
        matrix = table(
            [tr("Rule"), "", *[vid for vid, _ in variants]],
            rows,
            classes=["perudo-compare"],
            row_classes=row_classes,
            cell_classes=cell_classes,
            header_classes=[
                ["perudo-rule-cell"],
                ["perudo-mark"],
                *([edition_class(vid)] for vid, _ in variants),
            ],
        )
        view = nodes.container(classes=["perudo-compare-view"])
        view += self.controls(variants)
        view += scrolling(matrix, classes=["perudo-matrix"])
        return [summary, view]

    def controls(self, variants: Sequence[tuple[str, Variant]]) -> nodes.container:
        """The controls as text, hidden until ``perudo.js`` turns each ``perudo-toggle`` into
        a checkbox: differing rows only, then one per edition (all shown at first)."""
        box = nodes.container(classes=["perudo-compare-controls"])
        box += para(
            self.translatable("Show only the rules that differ among the editions shown"),
            classes=["perudo-toggle", "perudo-toggle-differing"],
        )
        heading = self.translatable("Editions shown:", classes=["perudo-label"])
        editions = para(heading, classes=["perudo-choose-editions"])
        for vid, _ in variants:
            editions += nodes.Text(" ")
            editions += nodes.inline(
                text=vid, classes=["perudo-toggle", "perudo-toggle-edition", edition_class(vid)]
            )
        box += editions
        return box

    def translatable(self, text: str, classes: Sequence[str] = ()) -> nodes.inline:
        """``text`` in an inline node (of ``classes``) the gettext builder extracts and the
        locale transform translates: marked translatable, with a raw source and this
        directive's location. The marked node is wrapped because Sphinx then replaces it by
        its text at the end of its parent (``RemoveTranslatableInline``)."""
        node = nodes.inline(text, text, translatable=True)
        self.set_source_info(node)
        return nodes.inline("", "", node, classes=list(classes))
