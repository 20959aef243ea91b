"""``perudo-knob-values``: what each knob value means, generated from the knob table."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from html import unescape
from pathlib import Path

import pytest

pytest.importorskip("sphinx")

from sphinx.testing.util import SphinxTestApp

from perudo_rules import load_variant
from perudo_rules.base.i18n import tr
from perudo_rules.editions.knobs import KNOBS, knob_spec
from perudo_rules.editions.variant import format_value
from perudo_rules.sphinxext import rule_anchor
from perudo_rules.sphinxext.knobvalues import knob_values

pytest_plugins = ("sphinx.testing.fixtures",)

ROOTS = Path(__file__).parent / "roots"


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _project(tmp_path: Path, language: str = "en") -> Path:
    """Two variants (alpha extends italian, beta extends spanish), an edition page for
    each, and a page with the table."""
    src = tmp_path / "knobs"
    shutil.copytree(ROOTS / "test-perudo" / "variants", src / "variants")
    (src / "conf.py").write_text(
        'extensions = ["perudo_rules.sphinxext"]\nperudo_variants_dir = "variants"\n'
        f'perudo_editions_dir = "editions"\nsmartquotes = False\nlanguage = "{language}"\n',
        encoding="utf-8",
    )
    (src / "index.rst").write_text(
        "Knobs\n=====\n\n.. toctree::\n   :glob:\n\n   editions/*\n\n.. perudo-knob-values::\n",
        encoding="utf-8",
    )
    return src


def _build(make_app: Callable[..., SphinxTestApp], src: Path) -> SphinxTestApp:
    app = make_app("html", srcdir=src)
    try:
        app.build()
    finally:
        app.cleanup()
    return app


def test_every_knob_and_value_with_its_meaning_and_editions(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    src = _project(tmp_path)
    app = _build(make_app, src)
    assert app.warning.getvalue() == ""
    page = (Path(app.outdir) / "index.html").read_text(encoding="utf-8")
    table = page.split('class="perudo-table', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table, flags=re.S)[1:]  # after the header
    assert len(rows) == len(KNOBS)
    alpha = load_variant(src / "variants" / "alpha.yaml")
    beta = load_variant(src / "variants" / "beta.yaml")
    for spec, row in zip(KNOBS, rows, strict=True):
        text = _text(row)
        assert text.startswith(spec.path), (spec.path, text)
        assert " ".join(spec.description.split()) in text
        for _value, meaning in spec.choices:
            assert " ".join(meaning.split()) in text, (spec.path, meaning)
        # each edition is linked at the value it uses, to the rule on its page
        for vid, variant in (("alpha", alpha), ("beta", beta)):
            anchor = rule_anchor(spec.path, vid)
            assert f'href="editions/{vid}.html#{anchor}"' in row, (spec.path, vid)
            item = next(li for li in re.findall(r"<li>(.*?)</li>", row, flags=re.S)
                        if anchor in li)  # fmt: skip
            assert _text(item).startswith(format_value(variant[spec.path])), (spec.path, item)
        if spec.legacy:
            assert "a claim that leaves the knob out claims it" in text


def test_values_no_edition_uses_and_values_no_choice_lists() -> None:
    italian = load_variant("italian")
    rows = knob_values(knob_spec("calza.who"), [("italian", italian)])
    assert [r[0] for r in rows] == [c[0] for c in knob_spec("calza.who").choices]
    assert [r[2] for r in rows if r[2]] == [["italian"]]
    # an integer knob: no choices, the values the editions use
    faces = knob_values(knob_spec("dice.faces"), [("italian", italian), ("x", italian)])
    assert faces == [(6, "", ["italian", "x"])]
    # True is not 1
    assert [r[0] for r in knob_values(knob_spec("calza.in_palifico"), [])] == [True, False]


def test_the_table_speaks_the_builds_language(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    app = _build(make_app, _project(tmp_path, "it"))
    text = _text((Path(app.outdir) / "index.html").read_text(encoding="utf-8"))
    spec = knob_spec("calza.who")
    assert tr(" ".join(spec.description.split()), "it") in text
    assert tr(spec.choices[0][1], "it") in text
    assert tr("What it decides", "it") in text and "What it decides" not in text


def test_editing_a_variant_file_rebuilds_the_table(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    src = _project(tmp_path)
    _build(make_app, src)
    alpha = src / "variants" / "alpha.yaml"
    alpha.write_text(alpha.read_text(encoding="utf-8") + "\ndice:\n  faces: 8\n", "utf-8")
    app = _build(make_app, src)
    page = (Path(app.outdir) / "index.html").read_text(encoding="utf-8")
    assert rule_anchor("dice.faces", "alpha") in page.split(">8<", 1)[1].split("</li>", 1)[0]
