"""The witnesses the spec shows, computed ahead (docs/_data/witnesses.json): fresh,
language-neutral, read back equal, and read by the directives instead of a search."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

pytest.importorskip("sphinx")

from sphinx.testing.util import SphinxTestApp

from perudo_rules import Variant, load_variant
from perudo_rules.analysis.witness import find_witnesses
from perudo_rules.analysis.witnesssearch import SearchLimits
from perudo_rules.analysis.witnessvalue import Witness
from perudo_rules.base.i18n import LANGUAGES, use_language
from perudo_rules.base.texts import Text, concat, joined, ntx, plain, text_from_json, text_json, tx
from perudo_rules.sphinxext import witnesses as witnesses_module
from perudo_rules.sphinxext.witnessdata import (
    COMMAND,
    SPEC_LIMITS,
    Question,
    compute,
    dumps,
    lookup,
    spec_questions,
    stale_entries,
    witness_key,
)

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "docs" / "_data" / "witnesses.json"
TEXTS = Path(__file__).parent / "data" / "witness_texts.json"
COMPARED = {"italian vs spanish": ("italian", "spanish"), "italian vs bluff": ("italian", "bluff")}


@pytest.fixture(scope="module")
def data() -> dict[str, list[Witness]]:
    document = json.loads(DATA.read_text(encoding="utf-8"))
    return {e["label"]: [Witness.from_data(w) for w in e["witnesses"]] for e in document["entries"]}


# Its own group: under pytest-xdist (make test) it runs beside the other tests, not after
# the docs group; it searches every witness the spec shows (about fifty seconds).
@pytest.mark.xdist_group("witness-data")
def test_the_data_file_is_fresh() -> None:
    questions = spec_questions(ROOT / "docs")
    assert {q.label for q in questions} >= set(COMPARED)
    # searched in Spanish: a witness says no sentence until shown, so the language of the
    # search must not matter (the file is written by a search in English)
    with use_language("es"):
        fresh = compute(questions)
    current = json.loads(DATA.read_text(encoding="utf-8"))
    stale = stale_entries(current, fresh)
    assert not stale, (
        f"{DATA.relative_to(ROOT)} is stale for {len(stale)} pairs ({'; '.join(stale[:5])}): "
        f"run {COMMAND} and commit the file (if it stays stale, the search says a sentence "
        "in the language of the context: keep texts as perudo_rules.base.texts.Text)"
    )
    assert DATA.read_text(encoding="utf-8") == dumps(fresh), f"not as written: run {COMMAND}"


def test_every_witness_of_the_file_reads_back_equal(data: dict[str, list[Witness]]) -> None:
    document = json.loads(DATA.read_text(encoding="utf-8"))
    count = 0
    for entry in document["entries"]:
        for raw in entry["witnesses"]:
            w = Witness.from_data(raw)
            assert w.to_data() == raw
            assert Witness.from_data(json.loads(json.dumps(w.to_data()))) == w
            count += 1
    assert count >= 60
    with pytest.raises(ValueError, match="a witness has the keys"):
        Witness.from_data({"rule": "calza.who"})


def test_said_once_in_each_language_as_a_search_in_that_language_said_it(
    data: dict[str, list[Witness]],
) -> None:
    """Every witness of docs/compare.rst, kept once and said in English, Italian and
    Spanish, is word for word what a search run in that language said before witnesses
    were language-neutral (tests/data/witness_texts.json)."""
    said = {
        label: {lang: {w.rule: _describe(w, lang) for w in data[label]} for lang in LANGUAGES}
        for label in COMPARED
    }
    if os.environ.get("PERUDO_WRITE_WITNESS_TEXTS"):
        recorded = json.loads(TEXTS.read_text(encoding="utf-8"))
        recorded["pairs"] = said
        TEXTS.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n", "utf-8")
    expected = json.loads(TEXTS.read_text(encoding="utf-8"))["pairs"]
    for label in COMPARED:
        for lang in LANGUAGES:
            assert said[label][lang] == expected[label][lang], (label, lang)
    assert said["italian vs bluff"]["it"] != said["italian vs bluff"]["en"]


def _describe(w: Witness, lang: str) -> str:
    with use_language(lang):
        return w.describe()


def test_a_search_in_any_language_finds_the_same_witness() -> None:
    italian, spanish = load_variant("italian"), load_variant("spanish")
    found = []
    for lang in LANGUAGES:
        with use_language(lang):
            found.append(find_witnesses(italian, spanish))
    assert found[0] == found[1] == found[2]
    legality = next(w for w in found[0] if w.kind == "legality")
    refused = next(t for t in legality.outcomes.values() if t.text("en") != "legal")
    assert refused.text("en").startswith("illegal [") and refused.text("it").startswith("illegale")


def test_texts_are_data_and_said_on_demand() -> None:
    who = tx("seat {n}", n=2)
    texts = [
        tx("{who} loses a die", who=who),
        ntx("{who} loses a die ({n} left)", "{who} loses a die ({n} left)", 3, who=who),
        joined(concat(" ", tx("or"), " "), ["calza.enabled: true", who]),
        plain("no difference in play {not a placeholder}"),
    ]
    for t in texts:
        assert text_from_json(json.loads(json.dumps(text_json(t)))) == t
    assert texts[0].text("en") == "seat 2 loses a die"
    assert texts[1].text("en") == "seat 2 loses a die (3 left)"
    assert texts[2].text("es") == "calza.enabled: true o asiento 2"
    assert texts[3].text("it") == "no difference in play {not a placeholder}"
    with use_language("it"):
        assert str(texts[0]) == texts[0].text("it") != texts[0].text("en")
    with pytest.raises(ValueError):
        Text("x", kind="ntr")
    with pytest.raises(ValueError, match="not a text"):
        text_from_json({"tr": "x", "message": "y"})


def test_the_key_tells_variant_values_and_limits_apart() -> None:
    italian, spanish = load_variant("italian"), load_variant("spanish")
    key = witness_key(italian, spanish)
    assert key == witness_key(load_variant("italian"), load_variant("spanish"))
    changed = load_variant("italian", overrides={"calza.enabled": False})
    assert witness_key(changed, spanish) != key
    assert witness_key(spanish, italian) != key
    assert witness_key(italian, spanish, SearchLimits(max_dice=2)) != key
    assert lookup(DATA, italian, spanish) is not None
    assert lookup(DATA, changed, spanish) is None  # never a stale witness: searched live
    assert lookup(DATA.with_name("missing.json"), italian, spanish) is None


# --- the directives read the file ---------------------------------------------------------


def _project(tmp_path: Path, second: str) -> Path:
    """A spec of one page showing the witnesses of italian against a house-rules file."""
    src = tmp_path / "src"
    (src / "variants").mkdir(parents=True)
    shutil.copy(ROOT / "variants" / "italian.yaml", src / "variants")
    (src / "variants" / "house.yaml").write_text(second, encoding="utf-8")
    (src / "conf.py").write_text(
        'extensions = ["perudo_rules.sphinxext"]\nperudo_variants_dir = "variants"\n'
        'perudo_witness_data = "witnesses.json"\nexclude_patterns = ["_build"]\n',
        encoding="utf-8",
    )
    (src / "index.rst").write_text(
        "Witnesses\n=========\n\n.. perudo-witnesses:: italian house\n", encoding="utf-8"
    )
    return src


def _build(src: Path) -> tuple[str, str]:
    app = SphinxTestApp("html", srcdir=src, freshenv=True)
    try:
        app.build()
    finally:
        app.cleanup()
    html = (Path(app.outdir) / "index.html").read_text(encoding="utf-8")
    return html, app.warning.getvalue()


HOUSE = "id: house\nname: House\nextends: italian\ncalza:\n  enabled: false\n"


def test_the_directive_reads_the_file_and_searches_only_what_it_lacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = _project(tmp_path, HOUSE)
    italian = load_variant(src / "variants" / "italian.yaml")
    house = load_variant(src / "variants" / "house.yaml")
    (src / "witnesses.json").write_text(dumps(compute([Question("x", italian, house)])))
    searched: list[tuple[Variant, Variant]] = []

    def counted(a: Variant, b: Variant, **kwargs: object) -> list[Witness]:
        searched.append((a, b))
        return find_witnesses(a, b, limits=SPEC_LIMITS)

    monkeypatch.setattr(witnesses_module, "find_witnesses", counted)
    html, warnings = _build(src)
    assert "perudo" not in warnings and searched == []  # (the knob reference is elsewhere)
    assert "calza.enabled" in html and "perudo-witness" in html

    # the house rules change: the file holds no witness for them, so it is searched
    (src / "variants" / "house.yaml").write_text(HOUSE + "dice:\n  per_player: 4\n")
    html, warnings = _build(src)
    assert len(searched) == 1
    assert "witnesses of italian vs house searched live" in warnings
    assert "make spec-data" in warnings
