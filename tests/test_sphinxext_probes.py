"""``perudo-probes``: each edition's targeted probes, tabulated from the probe finder."""

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
from perudo_rules.base.actions import format_action
from perudo_rules.conform.probes import probes_for
from perudo_rules.editions.variant import format_value
from perudo_rules.sphinxext.probes import position_text

pytest_plugins = ("sphinx.testing.fixtures",)

ROOTS = Path(__file__).parent / "roots"


def _text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _project(tmp_path: Path) -> Path:
    src = tmp_path / "probes"
    shutil.copytree(ROOTS / "test-perudo" / "variants", src / "variants")
    (src / "conf.py").write_text(
        'extensions = ["perudo_rules.sphinxext"]\nperudo_variants_dir = "variants"\n'
        f"perudo_cache_dir = {str(tmp_path / 'kept')!r}\nsmartquotes = False\n",
        encoding="utf-8",
    )
    (src / "index.rst").write_text("Probes\n======\n\n.. perudo-probes::\n", encoding="utf-8")
    return src


def _box(page: str, vid: str) -> str:
    """The HTML of edition ``vid``'s probe table."""
    start = page.index(f'id="probes-{vid}"')
    return page[start : page.index("</table>", start)]


def test_each_edition_has_a_table_of_its_probes(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path
) -> None:
    src = _project(tmp_path)
    app = make_app("html", srcdir=src, freshenv=True)
    app.build()
    app.cleanup()
    assert app.warning.getvalue() == ""
    page = (Path(app.outdir) / "index.html").read_text(encoding="utf-8")
    for vid in ("alpha", "beta"):
        probes = probes_for(load_variant(src / "variants" / f"{vid}.yaml"))
        assert probes
        box = _text(_box(page, vid))
        assert f"({len(probes)} probes)" in box
        assert "What it tells apart" in box and "Action judged" in box
        for p in probes:
            assert p.rule in box, p.rule
            assert position_text(p) in box, p
            if p.action is not None:
                assert format_action(p.action) in box
        # a knob probe names the other value it tells apart; a fixed rule decides there
        knob = next(p for p in probes if p.against is not None)
        assert f"the other value {format_value(knob.against)}" in box
        assert "decides here" in box and "play.dudo" in box
    # the variant files (and the file alpha extends) are dependencies of the page
    deps = {Path(d).name for d in app.env.dependencies["index"]}
    assert {"alpha.yaml", "beta.yaml", "italian.yaml"} <= deps


def test_a_kept_run_is_read_not_found_again(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from perudo_rules.sphinxext import probes

    src = _project(tmp_path)
    pages = []
    for _ in range(2):
        app = make_app("html", srcdir=src, freshenv=True)
        app.build()
        app.cleanup()
        pages.append((Path(app.outdir) / "index.html").read_text(encoding="utf-8"))

        def refuse(*args: object) -> object:
            raise AssertionError("the kept probes are read, not found again")

        monkeypatch.setattr(probes, "probes_document", refuse)
    assert _box(pages[0], "alpha") == _box(pages[1], "alpha")


def test_position_text_names_dice_opener_and_palifico() -> None:
    from perudo_rules.conform.probes import Probe
    from perudo_rules.records.position import Position

    p = Probe("palifico.face_lock", Position(((2,), (), (3, 4)), 0, True, 3, (2,)), ())
    assert position_text(p) == (
        "[2] - [3 4]; seat 0 opens; palifico round; palifico played by 2; round 3"
    )
