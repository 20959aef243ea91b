"""perudo_rules.sphinxext on the tiny projects in tests/roots/ (sphinx.testing fixtures)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from html import unescape
from pathlib import Path

import pytest

pytest.importorskip("sphinx")

from docutils import nodes
from sphinx.testing.util import SphinxTestApp

from perudo_rules import load_variant
from perudo_rules.editions.corerules import core_rule_details, core_rules
from perudo_rules.editions.knobs import KNOB_PATHS
from perudo_rules.editions.variantfile import available_variants
from perudo_rules.engine.ranks import bid_space
from perudo_rules.sphinxext import rule_anchor
from perudo_rules.sphinxext.compare import edition_class
from perudo_rules.sphinxext.shared import breakable_literal

pytest_plugins = ("sphinx.testing.fixtures",)

ROOTS = Path(__file__).parent / "roots"


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where sphinx.testing finds ``test-<name>`` projects."""
    return ROOTS


def _html(app: SphinxTestApp, doc: str) -> str:
    return (Path(app.outdir) / f"{doc}.html").read_text(encoding="utf-8")


def _warnings(app: SphinxTestApp) -> str:
    return app.warning.getvalue()


def _text(html: str) -> str:
    """The visible text of an HTML page, whitespace collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _flat(html: str) -> str:
    """The text of an HTML fragment as the browser joins its inline elements (no spaces
    added at tags)."""
    return unescape(re.sub(r"<[^>]+>", "", html)).strip()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> SphinxTestApp:
    """The test project built once into a private copy (the tests only read it)."""
    src = tmp_path_factory.mktemp("perudo-root") / "src"
    shutil.copytree(ROOTS / "test-perudo", src)
    app = SphinxTestApp("html", srcdir=src, freshenv=True)
    try:
        app.build()
    finally:
        app.cleanup()  # the output stays; other apps of this process start clean
    return app


def test_import_does_not_pull_in_sphinx() -> None:
    code = "import sys, perudo_rules, perudo_rules.cli; print('sphinx' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_builds_without_warnings(built: SphinxTestApp) -> None:
    assert _warnings(built) == ""


def test_edition_pages_are_generated_for_every_variant_file(built: SphinxTestApp) -> None:
    editions = Path(built.srcdir) / "editions"
    assert sorted(p.name for p in editions.glob("*.rst")) == ["alpha.rst", "beta.rst"]
    page = _html(built, "editions/alpha")
    assert "Alpha house rules" in page
    for path in KNOB_PATHS:
        assert f'id="{rule_anchor(path, "alpha")}"' in page, path
        assert f"alpha:{path}" in page
    for rule_id in core_rules():
        assert f'id="{rule_anchor(rule_id, "alpha")}"' in page, rule_id


def test_variant_page_shows_value_source_and_interpretation(built: SphinxTestApp) -> None:
    page = _html(built, "editions/alpha")
    alpha = load_variant(Path(built.srcdir) / "variants" / "alpha.yaml")
    # the overridden knob: its own text and source, its value
    after = page.split(f'id="{rule_anchor("calza.who", "alpha")}"', 1)[1]
    block = after.split('<div class="perudo-rule ', 1)[0]
    assert "any_except_bidder" in block and "Our table" in block
    # an inherited interpretation is rendered with both readings in its own box
    interp = alpha.knob("palifico.face_lock").interpretation
    assert interp is not None
    text = _text(page)
    assert " ".join(interp.chosen.split()) in text
    assert " ".join(interp.alternative.split()) in text
    fixed = [r for r in core_rule_details() if r["interpretation"]]
    boxes = page.count('class="perudo-interpretation docutils container"')
    assert boxes == len(alpha.interpretations()) + len(fixed)


def test_rule_role_resolves_to_the_anchor(built: SphinxTestApp) -> None:
    index = _html(built, "index")
    assert f'href="editions/alpha.html#{rule_anchor("calza.who", "alpha")}"' in index
    assert f'href="rules.html#{rule_anchor("calza.who")}"' in index
    assert f'href="rules.html#{rule_anchor("play.dudo")}"' in index


def test_compare_matrix_highlights_the_differing_rules(built: SphinxTestApp) -> None:
    alpha = load_variant(Path(built.srcdir) / "variants" / "alpha.yaml")
    beta = load_variant(Path(built.srcdir) / "variants" / "beta.yaml")
    differing = {p for p in KNOB_PATHS if alpha[p] != beta[p]}
    index = _html(built, "index")
    rows = re.findall(r"<tr class=\"([^\"]*)\">(.*?)</tr>", index, flags=re.S)
    by_rule = {}
    for classes, row in rows:
        m = re.search(r'<td class="perudo-rule-cell">(.*?)</td>', row, flags=re.S)
        if m:
            by_rule[_flat(m.group(1))] = classes
    assert set(by_rule) == set(KNOB_PATHS)
    assert {p for p, c in by_rule.items() if "perudo-differs" in c} == differing
    # each value cell links to the rule on the variant's page
    assert f'href="editions/beta.html#{rule_anchor("dice.faces", "beta")}"' in index
    # :differences: keeps only the differing rows
    compare = _html(built, "compare")
    table = compare.split('class="perudo-table perudo-compare', 1)[1].split("</table>", 1)[0]
    assert table.count("perudo-differs") == len(differing)
    assert "perudo-same" not in table


def _matrix(html: str) -> str:
    return html.split('<table class="perudo-table perudo-compare', 1)[1].split("</table>", 1)[0]


def test_compare_matrix_marks_what_the_stylesheet_and_script_need(built: SphinxTestApp) -> None:
    index = _html(built, "index")
    matrix = _matrix(index)
    ids = ["alpha", "beta"]
    # each edition's header and cells carry its class, in column order
    heads = re.findall(r'<th class="head([^"]*)"><p>([^<]*)</p></th>', matrix)
    assert heads == [(" perudo-rule-cell", "Rule"), (" perudo-mark", ""),
                     *((f" {edition_class(v)}", v) for v in ids)]  # fmt: skip
    rows = re.findall(r"<tr class=\"[^\"]*\">(.*?)</tr>", matrix.split("<tbody>", 1)[1], flags=re.S)
    assert len(rows) == len(KNOB_PATHS)
    for path, row in zip(KNOB_PATHS, rows, strict=True):
        cells = re.findall(r'<td class="([^"]*)">(.*?)</td>', row, flags=re.S)
        assert [c.split()[:2] for c, _ in cells[2:]] == [
            ["perudo-value-cell", edition_class(v)] for v in ids
        ]
        assert _text(cells[1][1]) == "≠"  # in every row; the stylesheet hides it where they agree
        # the rule id in pieces that end at its dots (the only places it may wrap)
        pieces = re.findall(r'<span class="perudo-piece">(.*?)</span></span>', cells[0][1])
        words = [_flat(p) for p in pieces]
        assert "".join(words) == path
        assert all(w.endswith(".") for w in words[:-1]) and all("." not in w for w in words[-1:])
    # the controls come first, as text: a differing-rows toggle, then one per edition
    view = index.split('class="perudo-compare-view', 1)[1].split("<table", 1)[0]
    controls = view.split('class="perudo-compare-controls', 1)[1]
    assert (
        '<p class="perudo-toggle perudo-toggle-differing"><span>Show only the rules that differ '
        "among the editions shown</span></p>"
    ) in controls
    label = '<p class="perudo-choose-editions"><span class="perudo-label">Editions shown:</span>'
    assert label in controls  # first, as written (Sphinx moves a bare translatable inline)
    toggles = re.findall(r'class="perudo-toggle perudo-toggle-edition ([^"]*)">([^<]*)<', controls)
    assert toggles == [(edition_class(v), v) for v in ids]


def test_breakable_literal_keeps_the_text_and_ends_pieces_at_the_break_characters() -> None:
    node = breakable_literal("palifico.opener_may_change", "._", classes=["x"])
    assert node.astext() == node.rawsource == "palifico.opener_may_change"
    assert [p.astext() for p in node.children] == [
        "palifico.", "opener_", "may_", "change",
    ]  # fmt: skip
    assert all(p["classes"] == ["perudo-piece"] for p in node.children)
    assert [p.astext() for p in breakable_literal("a.", ".").children] == ["a."]
    assert [p.astext() for p in breakable_literal("", ".").children] == [""]
    assert node["classes"] == ["x"]


def test_compare_controls_are_translatable(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    """The gettext builder extracts the controls' labels (the script writes no text)."""
    src = tmp_path / "gettext"
    shutil.copytree(ROOTS / "test-perudo" / "variants", src / "variants")
    (src / "conf.py").write_text(
        'extensions = ["perudo_rules.sphinxext"]\nperudo_variants_dir = "variants"\n',
        encoding="utf-8",
    )
    (src / "index.rst").write_text(
        "Compare\n=======\n\n.. perudo-compare:: alpha beta\n", encoding="utf-8"
    )
    app = make_app("gettext", srcdir=src)
    try:
        app.build()
    finally:
        app.cleanup()
    pot = (Path(app.outdir) / "index.pot").read_text(encoding="utf-8")
    assert 'msgid "Show only the rules that differ among the editions shown"' in pot
    assert 'msgid "Editions shown:"' in pot
    assert 'msgid "alpha"' not in pot  # edition ids are names, not text


#: matplotlib's first run on a machine, slow: its 5-second timer fires at once.
SLOW_FONT_CACHE = """
import sys, threading
class AtOnce:
    def __init__(self, interval, function):
        self.function = function
    def start(self):
        self.function()
    def cancel(self):
        pass
threading.Timer = AtOnce
if sys.argv[1] == "quiet":
    from perudo_rules.sphinxext.simulation import load_fonts_quietly
    load_fonts_quietly()
import matplotlib.font_manager
"""


def test_the_plot_does_not_print_matplotlibs_font_cache_line(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    err = {}
    for how in ("loud", "quiet"):
        env = {**os.environ, "MPLCONFIGDIR": str(tmp_path / how)}  # an empty cache
        proc = subprocess.run([sys.executable, "-c", SLOW_FONT_CACHE, how], env=env,
                              capture_output=True, text=True, check=True)  # fmt: skip
        err[how] = proc.stderr
    assert "Matplotlib is building the font cache" in err["loud"]
    assert err["quiet"] == ""


def test_ladder_follows_the_engine_ranks(built: SphinxTestApp) -> None:
    beta = load_variant(Path(built.srcdir) / "variants" / "beta.yaml")
    space = bid_space(beta.rules, 4, False)
    compare = _text(_html(built, "compare"))
    bids = [(2, 1), (3, 4), (1, 5), (2, 5)]
    ranked = sorted(bids, key=lambda b: space.rank(*b) or 0)
    names = {1: "Pacos", 4: "fours", 5: "five"}
    words = [f"{q} {names[f] if (q, f) != (2, 5) else 'fives'}" for q, f in ranked]
    assert " < ".join(words) in compare
    lo, hi = space.rank(1, 2), space.rank(2, 2)
    assert lo is not None and hi is not None
    for r in range(lo, hi + 1):
        q, f = space.bid(r)
        assert f"{r} {q}x{f}" in compare


def test_reference_pages(built: SphinxTestApp) -> None:
    rules = _html(built, "rules")
    for path in KNOB_PATHS:  # the format reference anchors every knob
        assert f'id="{rule_anchor(path)}"' in rules, path
    for rule_id, text in core_rules().items():
        assert f'id="{rule_anchor(rule_id)}"' in rules
        assert text in _text(rules)
    # the scenario filter keeps only scenarios for palifico.face_lock under italian
    from perudo_rules.conform.scenarios import load_scenarios

    wanted = [
        s for s in load_scenarios() if "palifico.face_lock" in s.rules and "italian" in s.variants
    ]
    others = [s for s in load_scenarios() if s not in wanted]
    assert wanted
    for s in wanted:
        assert f'id="scenario-{s.id}"' in rules
    for s in others:
        assert f'id="scenario-{s.id}"' not in rules
    assert "perudo-stats" in rules and "rounds per game" in rules


def _build(make_app: Callable[..., SphinxTestApp], src: Path) -> SphinxTestApp:
    """Build (incrementally when ``src`` was built before); release the app at once."""
    app = make_app("html", srcdir=src)
    try:
        app.build()
    finally:
        app.cleanup()
    return app


def test_new_and_edited_variant_files_rebuild_incrementally(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    src = _copy_root("perudo", tmp_path)
    _without_computing(src)
    (src / "rules.rst").write_text(
        "Rules\n=====\n\n.. perudo-core-rules::\n\n.. perudo-format::\n", encoding="utf-8"
    )
    # a page that lists every variant but has no glob toctree (those are re-read anyway)
    (src / "compare.rst").write_text("Compare\n=======\n\n.. perudo-compare::\n", encoding="utf-8")
    app = _build(make_app, src)
    assert _warnings(app) == ""
    static_doctree = Path(app.doctreedir) / "static.doctree"
    static_mtime = static_doctree.stat().st_mtime_ns
    assert "gamma" not in _html(app, "index")

    (src / "variants" / "gamma.yaml").write_text(
        "id: gamma\nname: Gamma\nextends: italian\ncalza:\n  enabled: false\n", encoding="utf-8"
    )
    app2 = _build(make_app, src)
    assert _warnings(app2) == ""
    assert f'<th class="head {edition_class("gamma")}"><p>gamma</p></th>' in _html(app2, "index")
    assert f'<th class="head {edition_class("gamma")}"><p>gamma</p></th>' in _html(app2, "compare")
    assert (Path(app2.outdir) / "editions" / "gamma.html").is_file()
    assert static_doctree.stat().st_mtime_ns == static_mtime  # not a clean build

    # editing a variant file re-reads the pages that show it
    (src / "variants" / "gamma.yaml").write_text(
        "id: gamma\nname: Gamma\nextends: italian\ncalza:\n  enabled: true\n", encoding="utf-8"
    )
    app3 = _build(make_app, src)
    index = _html(app3, "index")
    row = index.split(f'href="editions/gamma.html#{rule_anchor("calza.enabled", "gamma")}"')[1]
    assert row.split("</td>", 1)[0].count("true") == 1

    # removing it removes its page and its column
    (src / "variants" / "gamma.yaml").unlink()
    app4 = _build(make_app, src)
    assert "gamma" not in _html(app4, "index")
    assert "gamma" not in _html(app4, "compare")
    assert not (src / "editions" / "gamma.rst").exists()


def _copy_root(name: str, tmp_path: Path) -> Path:
    src = tmp_path / name
    shutil.copytree(ROOTS / f"test-{name}", src)
    return src


def _without_computing(src: Path) -> None:
    """Keep a test of the extension's machinery fast: the pages of the test project whose
    directives compute at length (simulation, witnesses, the conformance kit, which run
    again at each build that re-reads them) are tested by the ``built`` project."""
    for page in ("rules", "compare", "conformance"):
        title = page.capitalize()
        (src / f"{page}.rst").write_text(f"{title}\n{'=' * len(title)}\n", encoding="utf-8")


def test_broken_yaml_warns_with_file_and_line(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    app = make_app("html", srcdir=_copy_root("perudo-broken", tmp_path))
    app.build()
    warnings = _warnings(app)
    line = next(
        i
        for i, text in enumerate(
            (Path(app.srcdir) / "variants" / "broken.yaml").read_text().splitlines(), 1
        )
        if text.strip().startswith("colour:")
    )
    assert re.search(
        rf"broken\.yaml:{line}: WARNING: perudo: cannot load variant: .*colour", warnings
    )
    assert "unknown variant 'missing'" in warnings
    assert re.search(r"index\.rst:\d+: WARNING: perudo: unknown variant", warnings)
    assert "could not be loaded" in _html(app, "index")


def test_dangling_rule_reference_warns(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    app = make_app("html", srcdir=_copy_root("perudo", tmp_path))
    _without_computing(Path(app.srcdir))
    (Path(app.srcdir) / "static.rst").write_text(
        "Static\n======\n\nSee :rule:`alpha:no.such_rule`.\n", encoding="utf-8"
    )
    app.build()
    assert re.search(r"static\.rst:\d+: WARNING: .*alpha:no\.such_rule", _warnings(app))


def test_conformance_page_tabulates_the_harnesses_and_links_the_perft_tables(
    built: SphinxTestApp,
) -> None:
    page = _html(built, "conformance")
    text = _text(page)
    assert "perudo-rules step API : the step API (the reference)." in text
    # one row per variant file of the project, every claimed edition conforms
    for vid in ("alpha", "beta"):
        assert re.search(rf"<p>{vid}</p></td>\s*<td><p>conforms</p>", page), vid
    assert "failed" not in text
    # the rule families are the columns, and the perft tables are anchored per edition
    for family in ("bidding", "calza", "palifico", "play"):  # identifiers: shown as code
        assert re.search(rf'<p><code[^>]*><span class="pre">{family}</span></code></p></th>', page)
    for vid in available_variants():
        assert f'id="perft-{vid}"' in page
    assert "ending in a call" in text
    # JavaScript: certified under Node when it is installed, else said so
    if shutil.which("node") or shutil.which("nodejs"):
        assert "perudo.js : a JavaScript engine under Node" in text
        assert "not claimed" in text  # alpha and beta are Perudo editions it does not play
    else:
        assert "not certified here (no Node.js)" in text


def test_a_harness_whose_peer_is_missing_names_the_extra(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``make spec`` installs no RL peer: the page says which extra certifies each one."""
    monkeypatch.setitem(sys.modules, "pettingzoo", None)  # as if PettingZoo were not installed
    for name in ("perudo_rules.pettingzoo", "perudo_rules.harness.pettingzoo"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    src = tmp_path / "peerless"
    shutil.copytree(ROOTS / "test-perudo" / "variants", src / "variants")
    (src / "conf.py").write_text(
        'extensions = ["perudo_rules.sphinxext"]\nperudo_variants_dir = "variants"\n'
        "smartquotes = False\n",
        encoding="utf-8",
    )
    (src / "index.rst").write_text(
        "Conformance\n===========\n\n.. perudo-conformance::\n   :harnesses: pettingzoo\n",
        encoding="utf-8",
    )
    app = _build(make_app, src)
    assert _warnings(app) == ""
    text = " ".join(_flat(_html(app, "index")).split())
    assert (
        "the PettingZoo environment: not certified in this build (pettingzoo not installed: "
        "pip install 'perudo-rules[pettingzoo]')."
    ) in text
    assert "perudo_rules.harness.pettingzoo" not in sys.modules  # looked up, not imported


def test_a_failed_rule_family_links_to_its_witness() -> None:
    from perudo_rules.conform.report import EditionReport
    from perudo_rules.sphinxext.conformance import families, family_cell

    rep = EditionReport("italian", True, passed={"calza.enabled": 3}, failed={"calza.who": 2})
    cell = family_cell(rep, "calza", "pettingzoo")
    ref = cell.next_node(nodes.reference)
    assert ref["refid"] == "conformance-pettingzoo-italian-calza-who"
    assert "failed 1 (calza.who)" in cell.astext()
    assert family_cell(rep, "bidding", "x") == "not reached"
    assert families()[0] == "players" and families()[-1] == "play"


def test_the_layers_picture_is_read_from_the_folders(built: SphinxTestApp) -> None:
    from perudo_rules.sphinxext import layout

    floors = layout.floors(layout.folder_graph())
    rows = re.findall(
        r"<tr[^>]*>\s*<td><p>(\d+)</p></td>\s*<td><p><code[^>]*>(?:<span[^>]*>)?(\w+)/",
        _html(built, "layers"),
    )
    assert {folder: int(floor) for floor, folder in rows} == floors
    assert [int(f) for f, _ in rows] == sorted((int(f) for f, _ in rows), reverse=True)


def test_the_api_reference_has_a_section_per_folder_and_every_module() -> None:
    from perudo_rules.sphinxext import layout
    from perudo_rules.sphinxext.layers import api_lines

    lines = api_lines(["base.messages :exclude-members: ENGLISH", "pettingzoo :page: pz"])
    documented = {
        line.removeprefix(".. automodule:: perudo_rules.")
        for line in lines
        if line.startswith(".. automodule::")
    }
    modules = {m for m in layout.modules() if m not in ("", "__main__")}
    assert documented == {m for m in modules if layout.folder_of(m) != "pettingzoo"}
    at = lines.index(".. automodule:: perudo_rules.base.messages")
    assert lines[at + 1] == "   :exclude-members: ENGLISH"
    assert "Documented on its own page: :doc:`pz`." in lines
    titles = [lines[i - 1] for i, line in enumerate(lines) if set(line) == {"-"}]
    assert [t.split("/")[0].strip("`") for t in titles][:3] == ["base", "editions", "engine"]
