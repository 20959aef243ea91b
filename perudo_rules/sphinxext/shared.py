"""Docutils node builders every directive shares: paragraphs, tables, rule links.

Pure functions of their arguments: no Sphinx environment, no file access.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from docutils import nodes
from sphinx import addnodes

from perudo_rules.base.i18n import tr
from perudo_rules.editions.variant import Interpretation, format_value

__all__ = [
    "Cell",
    "breakable_literal",
    "interpretation_node",
    "join",
    "label",
    "one_line",
    "para",
    "rule_anchor",
    "rule_xref",
    "scenario_links",
    "scrolling",
    "self_link",
    "table",
    "value_literal",
]

#: What a table cell may hold: text, an inline node (wrapped in a paragraph) or a body node.
Cell = nodes.Node | str


def rule_anchor(rule: str, variant: str | None = None) -> str:
    """The HTML anchor of a rule: ``rule-italian-calza-who`` for ``italian:calza.who``."""
    name = f"{variant}-{rule}" if variant else rule
    return nodes.make_id(f"rule-{name}")


def one_line(text: str | None) -> str:
    """``text`` with its runs of whitespace (YAML line breaks) folded to single spaces."""
    return " ".join((text or "").split())


def para(*children: nodes.Node | str, classes: Sequence[str] = ()) -> nodes.paragraph:
    """A paragraph of ``children`` (strings become text)."""
    out = nodes.paragraph(classes=list(classes))
    for child in children:
        out += nodes.Text(child) if isinstance(child, str) else child
    return out


def join(parent: nodes.Element, children: Iterable[nodes.Node], separator: str = ", ") -> None:
    """Append ``children`` to ``parent`` with ``separator`` text between them."""
    for i, child in enumerate(children):
        if i:
            parent += nodes.Text(separator)
        parent += child


def label(text: str) -> nodes.inline:
    """The label that starts a line of facts (``Rulebook:`` or ``Position:`` and a space)."""
    return nodes.inline(text=text, classes=["perudo-label"])


def breakable_literal(text: str, after: str = ".", classes: Sequence[str] = ()) -> nodes.literal:
    """``text`` as code that a narrow column may wrap only after one of the characters in
    ``after``, never inside a word: each piece is an ``inline`` that the stylesheet keeps
    whole (``span.perudo-piece``: an inline block that does not wrap). The literal's text
    is ``text`` unchanged (copy, search, translation)."""
    out = nodes.literal(text, "", classes=list(classes))
    start = 0
    for i, char in enumerate(text):
        if char in after:
            out += nodes.inline(text=text[start : i + 1], classes=["perudo-piece"])
            start = i + 1
    if start < len(text) or not text:
        out += nodes.inline(text=text[start:], classes=["perudo-piece"])
    return out


def value_literal(value: Any) -> nodes.literal:
    """A knob value as the variant file writes it, styled as a value."""
    return nodes.literal(text=format_value(value), classes=["perudo-value"])


def self_link(text: str, anchor: str) -> nodes.reference:
    """``text`` as a rule id that links to its own ``anchor`` (a permalink)."""
    return nodes.reference(
        "", "", nodes.literal(text=text), refid=anchor, classes=["perudo-rule-id"]
    )


def rule_xref(
    target: str,
    content: nodes.Node | None = None,
    optional: bool = False,
    reftype: str = "rule",
) -> addnodes.pending_xref:
    """A ``:rule:`` (or ``:scenario:``) reference showing ``content`` (default: the target
    as code). ``optional`` ones fall back to plain text when the target is documented
    nowhere (a compare table of variants without pages)."""
    ref = addnodes.pending_xref(
        "",
        refdomain="std",
        reftype=reftype,
        reftarget=target,
        refexplicit=True,
        refwarn=not optional,
    )
    ref["perudo_optional"] = optional
    ref += content if content is not None else nodes.literal(text=target)
    return ref


def scenario_links(ids: Sequence[str]) -> nodes.paragraph:
    """``Scenarios: a, b``: links to the catalogue entries of the scenarios ``ids``."""
    out = para(label(tr("Scenarios: ")), classes=["perudo-rule-meta"])
    join(out, (rule_xref(sid, optional=True, reftype="scenario") for sid in ids))
    return out


def interpretation_node(interp: Interpretation) -> nodes.container:
    """The boxed interpretation: chosen reading, alternative reading, reason."""
    box = nodes.container(classes=["perudo-interpretation"])
    box += para(nodes.strong(text=tr("Interpretation")), classes=["perudo-interpretation-title"])
    fields = nodes.field_list()
    rows: list[tuple[str, str, nodes.Node]] = [
        ("Chosen", tr("Chosen"), nodes.paragraph(text=tr(interp.chosen))),
        ("Alternative", tr("Alternative"), nodes.paragraph(text=tr(interp.alternative))),
        ("Reason", tr("Reason"), nodes.paragraph(text=tr(interp.reason))),
    ]
    if interp.override:
        play = para(nodes.Text(tr("the override") + " "))
        for i, (path, value) in enumerate(interp.override):
            if i:
                play += nodes.Text(", ")
            play += nodes.literal(text=f"{path}: {format_value(value)}")
        rows.append(("Plays it", tr("Plays it"), play))
    elif interp.inexpressible:
        rows.append(("No knob", tr("No knob"), nodes.paragraph(text=tr(interp.inexpressible))))
    for name, shown, body_node in rows:
        field = nodes.field(classes=[f"perudo-{name.lower().replace(' ', '-')}"])
        field += nodes.field_name(text=shown)
        body = nodes.field_body()
        body += body_node
        field += body
        fields += field
    box += fields
    return box


def table(
    headers: Sequence[Cell],
    rows: Iterable[Sequence[Cell]],
    classes: Sequence[str] = (),
    widths: Sequence[int] | None = None,
    row_classes: Sequence[Sequence[str]] | None = None,
    cell_classes: Sequence[Sequence[Sequence[str]]] | None = None,
    header_classes: Sequence[Sequence[str]] | None = None,
) -> nodes.table:
    """A table with a header row (each header text, or an inline node such as the code of
    an identifier); ``widths`` are relative column widths; ``row_classes``,
    ``cell_classes`` and ``header_classes`` class the body rows, body cells and header cells."""
    given = ["colwidths-given"] if widths else []
    out = nodes.table(classes=["perudo-table", *given, *classes])
    group = nodes.tgroup(cols=len(headers))
    out += group
    for w in widths or [1] * len(headers):
        group += nodes.colspec(colwidth=w)
    head = nodes.thead()
    row = nodes.row()
    for k, h in enumerate(headers):
        head_cell = nodes.paragraph(text=h) if isinstance(h, str) else para(h)
        row += nodes.entry(
            "", head_cell, classes=list(header_classes[k]) if header_classes else []
        )
    head += row
    group += head
    body = nodes.tbody()
    for i, cells in enumerate(rows):
        row = nodes.row(classes=list(row_classes[i]) if row_classes else [])
        for j, cell in enumerate(cells):
            entry = nodes.entry(classes=list(cell_classes[i][j]) if cell_classes else [])
            if isinstance(cell, str):
                entry += nodes.paragraph(text=cell)
            elif isinstance(cell, nodes.Body):
                entry += cell
            else:
                entry += para(cell)
            row += entry
        body += row
    group += body
    return out


def scrolling(node: nodes.Node, classes: Sequence[str] = ()) -> nodes.container:
    """``node`` (a wide table) in a box that scrolls sideways on a narrow window."""
    box = nodes.container(classes=["perudo-scroll", *classes])
    box += node
    return box
