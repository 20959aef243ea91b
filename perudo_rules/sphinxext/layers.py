"""The architecture drawn from the package itself: ``perudo-layers`` and ``perudo-api``.

``.. perudo-layers::`` is the picture of ``docs/architecture.rst``: one row per folder of
``perudo_rules``, top floor first, with what the folder holds (its ``__init__``'s first
sentence), its modules and the folders it imports from, all read by
:mod:`perudo_rules.sphinxext.layout` (the same reading ``tests/test_architecture.py``
checks). ``.. perudo-api::`` is the API reference: a section per folder, bottom floor
first, and an ``automodule`` for each of its modules, so no module is ever left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

from perudo_rules.sphinxext import layout
from perudo_rules.sphinxext.shared import Cell, para, table

__all__ = ["ApiDirective", "LayersDirective", "api_lines", "folder_summary", "layers"]


def folder_summary(folder: str) -> str:
    """The first sentence of a folder's ``__init__`` docstring (``Floor 3, the engine: ...``
    without the floor, which the picture derives)."""
    init = layout.PACKAGE / folder / "__init__.py"
    doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or folder
    first = " ".join(doc.split("\n\n", 1)[0].split())
    return first.split(": ", 1)[1] if first.startswith("Floor ") and ": " in first else first


def layers() -> list[tuple[int, str, list[str], list[str]]]:
    """(floor, folder, its modules, the folders it imports from) for every folder, top
    floor first."""
    graph = layout.folder_graph()
    floors = layout.floors(graph)
    mods = layout.modules()
    rows = []
    for folder, floor in floors.items():
        own = sorted(
            m.split(".", 1)[1] for m in mods if m.startswith(folder + ".")
        )
        rows.append((floor, folder, own, sorted(graph[folder], key=lambda f: -floors[f])))
    return sorted(rows, key=lambda r: (-r[0], r[1]))


def _note_sources(directive: SphinxDirective) -> None:
    for path in sorted(layout.PACKAGE.rglob("*.py")):
        directive.env.note_dependency(str(path))


class LayersDirective(SphinxDirective):
    """``.. perudo-layers::``: the floors of the package, read from its folders."""

    def run(self) -> list[nodes.Node]:
        _note_sources(self)
        rows: list[list[Cell]] = []
        for floor, folder, own, below in layers():
            summary = folder_summary(folder)
            summary = summary[:1].upper() + summary[1:]
            text, _messages = self.state.inline_text(summary, self.lineno)
            uses = ", ".join(f"{f}/" for f in below) or "nothing"
            name = para(nodes.literal(text=f"{folder}/"))
            rows.append([str(floor), name, para(*text), ", ".join(own), uses])
        return [table(["floor", "folder", "what it holds", "modules", "imports from"], rows,
                      classes=["perudo-layers"])]  # fmt: skip


def api_lines(content: list[str]) -> list[str]:
    """The reStructuredText of the API reference (see :class:`ApiDirective`): a section per
    folder, bottom floor first, an ``automodule`` per module with the options ``content``
    gives it, or a link to the page that documents the folder."""
    options: dict[str, list[str]] = {}
    for line in content:
        module, _, option = line.strip().partition(" ")
        if module:
            options.setdefault(module, []).append(f"   {option.strip()}")
    lines: list[str] = []
    for _floor, folder, own, _below in reversed(layers()):
        title = f"``{folder}/``: {folder_summary(folder)}"
        lines += [title, "-" * len(title), ""]
        page = [o.split(":page:")[1].strip() for o in options.get(folder, []) if ":page:" in o]
        if page:
            lines += [f"Documented on its own page: :doc:`{page[0]}`.", ""]
            continue
        for module in [folder, *(f"{folder}.{m}" for m in own)]:
            lines += [f".. automodule:: perudo_rules.{module}", *options.get(module, []), ""]
    return lines


class ApiDirective(SphinxDirective):
    """``.. perudo-api::``: a section per folder, bottom floor first, with an
    ``automodule`` of each of its modules. Each line of the content gives one module
    (dotted, below ``perudo_rules``) an option of its ``automodule``
    (``base.messages :exclude-members: ENGLISH``), or names the page that documents a
    whole folder instead (``pettingzoo :page: pettingzoo``)."""

    has_content = True

    def run(self) -> list[nodes.Node]:
        _note_sources(self)
        lines = api_lines(list(self.content))
        content = StringList(lines, source=str(Path(self.env.srcdir) / self.env.docname))
        holder = nodes.section()
        nested_parse_with_titles(self.state, content, holder, self.content_offset)
        return list(holder.children)
