"""The terminology table: ``perudo-terms``, the words of the game in both rulebooks."""

from __future__ import annotations

from typing import Any

from docutils import nodes

from perudo_rules.base.errors import VariantError
from perudo_rules.base.i18n import tr
from perudo_rules.base.yamlfile import load_yaml_file
from perudo_rules.editions.variantfile import data_dir
from perudo_rules.sphinxext.base import PerudoDirective
from perudo_rules.sphinxext.shared import Cell, para, table

__all__ = ["TermsDirective", "terms"]


def terms() -> list[dict[str, Any]]:
    """The entries of ``spec/terms.yaml``: ``en``, ``meaning``, ``it`` and ``es`` (each
    ``{"word", "section"}`` or ``None``) and ``ours`` (``{"it", "es"}``)."""
    doc = load_yaml_file(data_dir("spec") / "terms.yaml", VariantError)
    return list(doc.data["terms"])


def _rulebook(entry: dict[str, Any] | None) -> Cell:
    if not entry:
        return "—"
    return para(
        nodes.inline(text=f"«{entry['word']}»", classes=["perudo-quote"]),
        " (",
        nodes.emphasis(text=entry["section"]),
        ")",
    )


class TermsDirective(PerudoDirective):
    """``.. perudo-terms::``: our English word, what it means, the Italian and Spanish
    rulebooks' words (with the section where each stands) and the words our translations
    use."""

    def run(self) -> list[nodes.Node]:
        self.env.note_dependency(str(data_dir("spec") / "terms.yaml"))
        rows: list[list[Cell]] = [
            [
                para(nodes.strong(text=t["en"])),
                tr(t["meaning"]),
                _rulebook(t.get("it")),
                _rulebook(t.get("es")),
                f"{t['ours']['it']} / {t['ours']['es']}",
            ]
            for t in terms()
        ]
        headers = [
            tr("English"),
            tr("Meaning"),
            tr("Italian rulebook"),
            tr("Spanish rulebook"),
            tr("Our Italian / Spanish"),
        ]
        return [table(headers, rows, classes=["perudo-terms"], widths=[2, 5, 3, 3, 3])]
