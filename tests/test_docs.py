"""The Sphinx spec in docs/: it builds with warnings as errors and shows every rule and scenario.

The build runs once per session in a subprocess (as ``make spec`` does) into a temporary
directory, started with the other languages' by the ``docs_builds`` fixture
(tests/conftest.py, tests/docsbuild.py); tests/test_screenshots.py reads it too.
"""

from __future__ import annotations

import re
import subprocess
import sys
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote, urlsplit

import pytest

pytest.importorskip("sphinx")

from docutils.nodes import make_id

from perudo_rules import available_variants, core_rules, load_variant
from perudo_rules.conform.scenarios import load_scenarios
from perudo_rules.editions.corerules import core_rule_details
from perudo_rules.editions.knobs import KNOB_PATHS
from perudo_rules.editions.variant import differing_knobs
from perudo_rules.engine.ranks import bid_space
from perudo_rules.sphinxext import rule_anchor
from perudo_rules.sphinxext.compare import edition_class

if TYPE_CHECKING:
    from docsbuild import DocsBuilds

ROOT = Path(__file__).resolve().parent.parent
# Under pytest-xdist (make test) the docs tests read builds the workers share
# (tests/docsbuild.py); with ``--dist loadgroup`` one worker runs them all, where the xdist
# in use honours the group (xdist 3.8 under pytest 9 does not: the builds are shared anyway).
pytestmark = pytest.mark.xdist_group("docs")


@pytest.fixture(scope="session")
def html_dir(docs_builds: DocsBuilds) -> Path:
    """The spec in English, built once per session (tests/docsbuild.py)."""
    return docs_builds.html("en")


def _read(html_dir: Path, page: str) -> str:
    return (html_dir / f"{page}.html").read_text(encoding="utf-8")


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _ids(html: str) -> set[str]:
    return set(re.findall(r'\sid="([^"]+)"', html))


PAGES = [
    "index",
    "glossary",
    "editions",
    "compare",
    "interpretations",
    "core-rules",
    "bid-ranks",
    "scenarios",
    "conformance",
    "format",
    "house-rules",
    "api",
    "pettingzoo",
    "about",
    "terms",
]


def test_every_page_is_built(html_dir: Path) -> None:
    for page in PAGES:
        assert (html_dir / f"{page}.html").is_file(), page
    for vid in available_variants():
        assert (html_dir / "editions" / f"{vid}.html").is_file(), vid


def test_every_rule_of_every_bundled_variant_is_on_its_page(html_dir: Path) -> None:
    for vid in available_variants():
        page = _read(html_dir, f"editions/{vid}")
        ids = _ids(page)
        variant = load_variant(vid)
        assert variant.name in _text(page)
        for knob in variant.knobs:
            assert rule_anchor(knob.path, vid) in ids, (vid, knob.path)
            assert f"{vid}:{knob.path}" in page
        for rule_id in core_rules():
            assert rule_anchor(rule_id, vid) in ids, (vid, rule_id)


def test_every_knob_and_fixed_rule_has_a_reference_anchor(html_dir: Path) -> None:
    format_ids = _ids(_read(html_dir, "format"))
    for path in KNOB_PATHS:
        assert rule_anchor(path) in format_ids, path
    core = _read(html_dir, "core-rules")
    for rule_id, text in core_rules().items():
        assert rule_anchor(rule_id) in _ids(core)
        assert text in _text(core)


def test_every_scenario_is_in_the_catalogue(html_dir: Path) -> None:
    page = _read(html_dir, "scenarios")
    ids = _ids(page)
    scenarios = load_scenarios()
    assert scenarios
    for s in scenarios:
        assert make_id(f"scenario-{s.id}") in ids, s.id
        assert f">{s.id}<" in page, s.id


def test_edition_pages_link_each_rule_to_its_scenarios(html_dir: Path) -> None:
    pages = {vid: _read(html_dir, f"editions/{vid}") for vid in available_variants()}
    rules = {*KNOB_PATHS, *core_rules()}
    linked = 0
    for s in load_scenarios():
        for vid in set(s.variants) & set(pages):
            if set(s.rules) & rules:
                assert f'href="../scenarios.html#{make_id("scenario-" + s.id)}"' in pages[vid]
                linked += 1
    assert linked >= len(load_scenarios())


def test_interpretations_page_gives_both_readings(html_dir: Path) -> None:
    text = _text(_read(html_dir, "interpretations"))
    count = 0
    for vid in available_variants():
        for knob in load_variant(vid).interpretations():
            assert knob.interpretation is not None
            assert f"{vid}:{knob.path}" in text
            assert " ".join(knob.interpretation.chosen.split()) in text, (vid, knob.path)
            assert " ".join(knob.interpretation.alternative.split()) in text, (vid, knob.path)
            count += 1
    assert count > 0
    for rule in core_rule_details():  # the fixed rules' readings too
        if rule["interpretation"]:
            assert rule["interpretation"]["chosen"] in text, rule["id"]
            assert rule["interpretation"]["alternative"] in text, rule["id"]


def test_compare_page_has_every_variant_witnesses_and_statistics(html_dir: Path) -> None:
    page = _read(html_dir, "compare")
    for vid in available_variants():
        assert f'<th class="head {edition_class(vid)}"><p>{vid}</p></th>' in page
    for path in KNOB_PATHS:
        assert f'href="editions/italian.html#{rule_anchor(path, "italian")}"' in page
    # one witness card per knob that differs between the two editions, in each section;
    # each confirmed or proved to make no difference
    italian = load_variant("italian")
    sections = page.split('<section id="where-the-italian-')[1:]
    assert len(sections) == 2
    for other, section in zip(("spanish", "bluff"), sections, strict=True):
        section = section.split("<section", 1)[0]
        cards = section.split('<div class="perudo-witness ')[1:]
        paths = differing_knobs(italian, load_variant(other))
        assert len(cards) == len(paths)
        for path, card in zip(paths, cards, strict=True):
            assert f"#{rule_anchor(path)}" in card
            assert "confirmed in both engines" in card or "no difference in play, proved" in card
        assert "not confirmed" not in section
    # the simulated statistics: a table per edition and the plot
    stats = page.split('class="perudo-table perudo-stats', 1)[1].split("</table>", 1)[0]
    assert "rounds per game" in stats and "Calza success rate" in stats
    assert "data:image/png;base64," in page


def _ladder_bids(html: str) -> list[list[str]]:
    ladders = re.findall(r'<p class="perudo-ladder">(.*?)</p>', html, flags=re.S)
    return [
        [_text(m) for m in re.findall(r"<code[^>]*>(.*?)</code>", lad, re.S)] for lad in ladders
    ]


def test_worked_ladder_follows_the_engine(html_dir: Path) -> None:
    page = _read(html_dir, "bid-ranks")
    ladders = _ladder_bids(page)
    assert ladders
    italian = load_variant("italian")
    words = {"four": 4, "fours": 4, "Aztec": 1, "Aztecs": 1, "six": 6, "sixes": 6, "two": 2}
    words |= {"twos": 2, "Paco": 1, "Pacos": 1}
    space = bid_space(italian.rules, 10, False)
    for ladder in ladders:
        bids = [(int(q), words[name]) for q, name in (w.split() for w in ladder)]
        ranks = [space.rank(q, f) for q, f in bids]
        assert all(r is not None for r in ranks)
        assert ranks == sorted(ranks)  # type: ignore[type-var]
    # the example of the spec: 3 fours < 4 fours < 2 Aztecs < 5 fours
    first = " < ".join(ladders[0])
    assert re.search(r"3 fours < 4 fours < 2 Aztecs < 5 fours", first)


def test_house_rules_example_loads_and_validates(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "house-rules.rst").read_text(encoding="utf-8")
    block = text.split(".. code-block:: yaml\n\n", 1)[1]
    lines = []
    for line in block.splitlines():
        if line and not line.startswith("   "):
            break
        lines.append(line[3:])
    path = tmp_path / "our-table.yaml"
    path.write_text("\n".join(lines), encoding="utf-8")
    ours, italian = load_variant(path), load_variant("italian")
    assert ours.extends == "italian"
    differing = {p for p in KNOB_PATHS if ours[p] != italian[p]}
    assert differing == {"calza.who", "palifico.heads_up"}
    proc = subprocess.run(
        [sys.executable, "-m", "perudo_rules", "validate", str(path)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    # the Python example's overrides form gives the same calza.who
    quick = load_variant("italian", overrides={"calza.who": "any_except_bidder"})
    assert quick["calza.who"] == ours["calza.who"]


def test_glossary_terms(html_dir: Path) -> None:
    ids = _ids(_read(html_dir, "glossary"))
    for term in ("Dudo", "Calza", "Palifico", "Aztec", "Paco", "wild", "bid rank"):
        assert f"term-{term.replace(' ', '-')}" in ids, term


def test_conformance_page_certifies_the_reference_and_publishes_perft(html_dir: Path) -> None:
    page = _read(html_dir, "conformance")
    ids = _ids(page)
    reference = page.split("perudo-rules step API")[1].split("</table>")[0]
    for vid in available_variants():
        assert re.search(rf"<p>{vid}</p></td>\s*<td><p>conforms</p>", reference), vid
        assert f"perft-{vid}" in ids, vid
        assert f'href="#perft-{vid}"' in reference, vid
    assert "spec/harness.schema.json" in _text(page)


def test_api_reference_is_generated(html_dir: Path) -> None:
    ids = _ids(_read(html_dir, "api"))
    for name in (
        "perudo_rules.editions.variantfile.load_variant",
        "perudo_rules.engine.game.Game",
        "perudo_rules.engine.ranks.BidSpace",
    ):
        assert name in ids, name


def test_internal_links_resolve(html_dir: Path) -> None:
    pages = {p.relative_to(html_dir).as_posix(): p for p in html_dir.rglob("*.html")}
    ids = {name: _ids(p.read_text(encoding="utf-8")) for name, p in pages.items()}
    checked = 0
    for name, path in pages.items():
        if name.startswith("_"):
            continue
        for href in re.findall(r'href="([^"]+)"', path.read_text(encoding="utf-8")):
            parts = urlsplit(unescape(href))
            if parts.scheme or parts.netloc or not parts.fragment:
                continue
            target = name
            if parts.path:
                target = (Path(name).parent / parts.path).as_posix()
                target = str(Path(target)).replace("\\", "/")
                while "/../" in f"/{target}":
                    target = re.sub(r"[^/]+/\.\./", "", target, count=1)
            assert target in ids, (name, href)
            assert unquote(parts.fragment) in ids[target], (name, href)
            checked += 1
    assert checked > 500
