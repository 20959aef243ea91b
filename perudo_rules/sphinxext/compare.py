"""The comparison matrix: ``perudo-compare``, one row per rule, one column per variant."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives

from perudo_rules.knobs import KNOBS
from perudo_rules.sphinxext.base import PerudoDirective
from perudo_rules.sphinxext.shared import Cell, para, rule_xref, scrolling, table
from perudo_rules.variant import format_value

__all__ = ["CompareDirective", "majority"]


def majority(values: Sequence[Any]) -> Any:
    """The most common of ``values`` (the first of them on a tie)."""
    counts = Counter(repr(v) for v in values)
    best = max(counts.values())
    return next(v for v in values if counts[repr(v)] == best)


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
            return [self.error_node("No variant to compare.")]
        only_diff = "differences" in self.options
        rows: list[list[Cell]] = []
        row_classes = []
        cell_classes = []
        for spec in KNOBS:
            values = [v[spec.path] for _, v in variants]
            differs = any(val != values[0] for val in values)
            if only_diff and not differs:
                continue
            cells: list[Cell] = [rule_xref(spec.path, optional=True), "≠" if differs else ""]
            classes: list[list[str]] = [["perudo-rule-cell"], ["perudo-mark"]]
            common = majority(values)
            for (vid, variant), value in zip(variants, values, strict=True):
                literal = nodes.literal(text=format_value(value))
                cell = para(rule_xref(f"{vid}:{spec.path}", literal, optional=True))
                if variant.knob(spec.path).interpretation is not None:
                    cell += nodes.inline(text=" *", classes=["perudo-interpreted"])
                cells.append(cell)
                odd = differs and value != common
                classes.append(["perudo-value-cell", *(["perudo-odd"] if odd else [])])
            rows.append(cells)
            row_classes.append(["perudo-differs"] if differs else ["perudo-same"])
            cell_classes.append(classes)
        n_diff = sum(1 for c in row_classes if c == ["perudo-differs"])
        summary = nodes.paragraph(
            text=f"{len(variants)} variants, {len(KNOBS)} rules, {n_diff} differ. Rows marked "
            "≠ differ; a highlighted value differs from the most common value in its row; * "
            "marks a value that rests on an interpretation. Each value links to the rule on "
            "the variant's page.",
            classes=["perudo-compare-summary"],
        )
        matrix = table(
            ["Rule", "", *[vid for vid, _ in variants]],
            rows,
            classes=["perudo-compare"],
            widths=[4, 1, *([3] * len(variants))],
            row_classes=row_classes,
            cell_classes=cell_classes,
        )
        return [summary, scrolling(matrix)]
