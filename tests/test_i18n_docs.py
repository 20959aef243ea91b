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


# --- the pages of players, reviewers and engine authors, in Italian and Spanish ------------


@pytest.fixture(scope="module")
def es_dir(docs_builds: DocsBuilds) -> Path:
    """The spec in Spanish, built once per session (tests/docsbuild.py)."""
    return docs_builds.html("es")


#: The translated pages whose every sentence the Italian and Spanish builds must say in
#: their language: an edition, the comparison, the interpretations, the scenarios, the bid
#: ranks, conformance and the file format (prose from docs.po, directives from the package).
TRANSLATED_PAGES = (
    "editions/italian",
    "editions/spanish",
    "compare",
    "interpretations",
    "scenarios",
    "bid-ranks",
    "conformance",
    "format",
)

#: Words of English sentences beyond the command line's (tests/test_i18n.py ``ENGLISH``):
#: the raw keys and labels the directives used to show.
DOCS_ENGLISH = ("none", "loser", "reroll", "leave", "rank", "passed", "which", "when", "every")


def _spoken_text(html: str) -> str:
    """The prose of the page's article as a reader reads it: no code or literal (``3x4``,
    ``calza.who``, a JSON message, a knob value), no quotation (the rulebooks' and the other
    sources' own words, «...» and "..."), one line per block."""
    found = re.search(r"<article[^>]*>(.*?)</article>", html, re.S)
    body = found.group(1) if found else html
    body = re.sub(r"<(script|style|pre)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r"<code\b.*?</code>", " ", body, flags=re.S)
    body = re.sub(r'<span class="perudo-quote[^"]*">.*?</span>', " ", body, flags=re.S)
    text = unescape(re.sub(r"<(?:/?p|/?li|/?t[dh]|br|/?h\d)\b[^>]*>", "\n", body))
    text = re.sub(r"<[^>]+>", " ", text)
    text = re.sub(r"«[^»]*»|\"[^\"\n]*\"|“[^”]*”", " ", text)
    text = re.sub(r"\b[a-z_]+\.[a-z_]+: [a-z_0-9]+", " ", text)  # a knob and its value
    return "\n".join(" ".join(line.split()) for line in text.splitlines() if line.strip())


def _english_lines(text: str, lang: str) -> list[str]:
    from test_i18n import _english_words

    out = []
    for line in text.splitlines():
        found = _english_words(line, lang)
        found += [w for w in DOCS_ENGLISH if re.search(rf"(?<![\w'.-]){w}(?![\w'.-])", line, re.I)]
        if found:
            out.append(f"{sorted(set(found))}: {line[:160]}")
    return out


@pytest.mark.parametrize("lang", ["it", "es"])
def test_the_translated_pages_say_no_english_sentence(
    lang: str, it_dir: Path, es_dir: Path
) -> None:
    built = {"it": it_dir, "es": es_dir}[lang]
    leaks = []
    for page in TRANSLATED_PAGES:
        text = _spoken_text((built / f"{page}.html").read_text(encoding="utf-8"))
        assert text, page
        leaks += [f"{page}: {line}" for line in _english_lines(text, lang)]
    assert leaks == [], "\n".join(leaks)


@pytest.mark.parametrize("lang", ["it", "es"])
def test_the_directives_headings_badges_and_captions_are_translated(
    lang: str, it_dir: Path, es_dir: Path
) -> None:
    built = {"it": it_dir, "es": es_dir}[lang]

    def page(name: str) -> str:
        return _main_text((built / f"{name}.html").read_text(encoding="utf-8"))

    bluff = (built / "editions" / "bluff.html").read_text(encoding="utf-8")
    headings = [_main_text(h) for h in re.findall(r"<h2>(.*?)</h2>", bluff, re.S)]
    for english in ("Reroll", "Leave"):
        assert not any(h.startswith(english) for h in headings), headings
        assert any(h.startswith(tr(english, lang)) for h in headings), headings
    for name in ("interpretations", "compare"):
        assert "none:" not in page(name), name
        assert tr("no difference in play, proved", lang) in page(name), name
    compare = page("compare")
    assert "Rows marked" not in compare and " variants, " not in compare
    caption = tr(
        "Rows marked ≠ differ; a highlighted value differs from the most common value in "
        "its row; * marks a value that rests on an interpretation. Each value links to the "
        "rule on the variant's page.",
        lang,
    )
    assert caption in compare
    scenarios = page("scenarios")
    seat = tr("seat {n}", lang, n=0)
    assert f"{seat} " in scenarios and "0: bid" not in scenarios
    for raw in ("loser:", "next_player:", "to_move:", "current_bid:", "dice_counts:"):
        assert raw not in scenarios, raw
    bids = tr("{who} bids {bid}", lang, who=seat, bid="3x4")
    assert bids in scenarios, bids
    for name in ("api", "architecture", "pettingzoo"):
        assert tr(
            "This page is in English only: it is written for developers. The pages for "
            "players, reviewers and engine authors are translated.",
            lang,
        ) in page(name), name
