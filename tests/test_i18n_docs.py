"""The spec in Italian (``make spec`` builds it beside English and Spanish): it builds with
warnings as errors, its pages speak Italian, and the edition pages show the rulebooks' own
words beside our Italian statement of each rule. (The Spanish build is the same machinery
with the other catalogue; ``make spec`` builds it, tests/test_i18n.py checks its catalogue.)
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("sphinx")

from perudo_rules import available_variants, load_variant
from perudo_rules.base.i18n import tr
from perudo_rules.editions.corerules import core_rules
from perudo_rules.editions.knobs import knob_spec

if TYPE_CHECKING:
    from docsbuild import DocsBuilds

pytestmark = pytest.mark.xdist_group("docs")


@pytest.fixture(scope="module")
def it_dir(docs_builds: DocsBuilds) -> Path:
    """The spec in Italian, built once per session (tests/docsbuild.py)."""
    return docs_builds.html("it")


def _main_text(html: str) -> str:
    """The text of the page's article (no navigation, no scripts), on one line."""
    found = re.search(r"<article[^>]*>(.*?)</article>", html, re.S)
    body = found.group(1) if found else html
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())


def _page(it_dir: Path, name: str) -> str:
    return _main_text((it_dir / f"{name}.html").read_text(encoding="utf-8"))


def test_the_italian_spec_declares_its_language(it_dir: Path) -> None:
    assert re.search(r'<html[^>]* lang="it"', (it_dir / "index.html").read_text(encoding="utf-8"))


def test_every_edition_page_states_its_rules_in_italian(it_dir: Path) -> None:
    for vid in available_variants():
        text = _page(it_dir, f"editions/{vid}")
        variant = load_variant(vid)
        assert tr(variant.name, "it") in text, vid
        for knob in variant.knobs:
            english = " ".join((knob.text or knob_spec(knob.path).description).split())
            italian = tr(english, "it")
            assert italian in text, (vid, knob.path)
            if italian != english:
                assert english not in text, (vid, knob.path)  # no English statement leaks
        for rid, english in core_rules().items():
            assert tr(english, "it") in text and english not in text, (vid, rid)


def test_the_italian_edition_page_shows_the_rulebook_words_beside_the_translation(
    it_dir: Path,
) -> None:
    text = _page(it_dir, "editions/italian")
    italian = load_variant("italian")
    for knob in italian.knobs:
        if knob.quote:
            assert f"«{' '.join(knob.quote.split())}»" in text, knob.path
    for label in ("Regolamento:", "Riferimento:", "Interpretazione", "Scelta", "Alternativa"):
        assert label in text
    for label in ("Rulebook:", "Reference:", "Chosen", "Alternative", "Rules every edition"):
        assert label not in text


def test_the_player_pages_are_in_italian(it_dir: Path) -> None:
    assert "Glossario" in _page(it_dir, "glossary")
    assert "Le edizioni vengono da un regolamento italiano" in _page(it_dir, "terms")
    index = _page(it_dir, "index")
    assert "Il Perudo (detto anche Dudo) è un gioco di dadi e di bluff" in index
    assert "Perudo (also called Dudo) is a bluffing dice game" not in index
    scenarios = _page(it_dir, "scenarios")
    assert "Scommessa d'apertura con trenta dadi in gioco" in scenarios
    assert "Opening bid with thirty dice in play" not in scenarios
