"""Pages kept in English: ``perudo-english-only``, a note that says so in the other languages.

The developer pages of the spec (the Python API, the architecture, the PettingZoo
environment) are not translated: their prose is English in every build. The directive,
at the top of such a page, shows nothing in the English build and, in the Italian and
Spanish builds, a note in the reader's language saying that the page is in English only
(the pages that are translated are listed on the index page).
"""

from __future__ import annotations

from docutils import nodes

from perudo_rules.base.i18n import language, tr
from perudo_rules.sphinxext.base import PerudoDirective

__all__ = ["EnglishOnlyDirective"]


class EnglishOnlyDirective(PerudoDirective):
    """``.. perudo-english-only::``: "This page is in English only.", in the build's
    language; nothing in the English build."""

    def run(self) -> list[nodes.Node]:
        if language() == "en":
            return []
        note = nodes.note(classes=["perudo-english-only"])
        note += nodes.paragraph(
            text=tr(
                "This page is in English only: it is written for developers. The pages for "
                "players, reviewers and engine authors are translated."
            )
        )
        return [note]
