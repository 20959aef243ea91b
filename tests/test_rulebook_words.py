"""A verdict cites its rule, its section and the rulebook's words: every ``quote`` of the
Italian and Spanish editions (a knob's, or a ``core`` entry's for a fixed rule) stands
verbatim in its rulebook, under the section its ``source`` names; and the ``core`` mapping
of a variant file is checked, inherited and cited like the knobs.

The rulebooks are the text files beside the checkout (``shared/seeds``); the sections are
the headings printed in them, listed below with their depth (a heading of depth 2 lies
within the last heading of depth 1 before it, and its words are that section's words too).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from perudo_rules import load_variant
from perudo_rules.base.errors import VariantError
from perudo_rules.editions.corerules import Citation, cite, core_rules
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import variant_problems

ROOT = Path(__file__).resolve().parent.parent

#: Each rulebook's headings as printed, in order, with their depth.
HEADINGS: dict[str, list[tuple[int, str]]] = {
    "perudo-italian-rules.txt": [
        (1, "DESCRIZIONE DEL GIOCO"),
        (1, "ISTRUZIONI DEL GIOCO"),
        (1, "Scopo del gioco"),
        (1, "Contenuto"),
        (1, "Preparazione del gioco"),
        (1, "Come si gioca"),
        (1, "Il turno del giocatore successivo"),
        (2, "Il rilancio:"),
        (2, 'Il "Dudo":'),
        (1, "I dadi persi"),
        (1, "La partita di Perudo continua!"),
        (1, "I JoIIy:"),
        (1, "Scommesse particolari"),
        (2, '"Palifico"'),
        (2, '"Calza"'),
        (1, "Vittoria"),
        (1, "Osservazioni"),
        (2, "Cosa si intende per round?"),
        (2, "Mostrate i vostri dadi!"),
        (2, "Bluffate!"),
        (2, "Le teste dell' Azteco."),
        (2, "Cercate di ricordare quanti dadi sono usciti dal gioco!"),
        (1, "VARIANTI"),
    ],
    "perudo-spanish-rules.txt": [
        (1, "Contenido del juego"),
        (1, "Objetivo y principio"),
        (1, "Preparación"),
        (1, "Comienza el juego"),
        (1, "La proposición"),
        (1, "El siguiente jugador"),
        (2, "Hacer una proposición mejor."),
        (2, "Anunciar «Dudo»:"),
        (1, "Una nueva ronda"),
        (1, "Casos especiales"),
        (2, "Pujar por Paco"),
        (2, "Aumento de una puja de Paco"),
        (2, "Palifico"),
        (2, "Calza"),
    ],
}

#: A section as our files name it, where the printed heading differs: the text file's
#: "JoIIy" is a misprint of "Jolly"; "(opening paragraph)" is the words before the first
#: heading (of the instructions, in the Italian text).
ALIASES: dict[str, dict[str, str | None]] = {
    "perudo-italian-rules.txt": {
        "I Jolly": "I JoIIy:",
        "Le teste dell'Azteco": "Le teste dell' Azteco.",
        "Istruzioni del gioco (opening paragraph)": "ISTRUZIONI DEL GIOCO",
    },
    "perudo-spanish-rules.txt": {"(opening paragraph)": None},
}

#: The editions whose rulebook is one of the two text files, the -literal ones included.
EDITIONS = ["italian", "spanish", "italian-literal", "spanish-literal"]
MAX_WORDS = 12


def _rulebook_text(name: str) -> str:
    for base in (ROOT.parent, ROOT.parent.parent):
        path = base / "shared" / "seeds" / name
        if path.is_file():
            return path.read_text(encoding="utf-8")
    pytest.skip(f"the rulebook {name} is not beside the checkout (shared/seeds)")


def _fold(text: str) -> str:
    return " ".join(text.split())


class Rulebook:
    """A rulebook's text cut at its headings: the words under each section."""

    def __init__(self, name: str, text: str | None = None) -> None:
        self.name = name
        lines = (text if text is not None else _rulebook_text(name)).splitlines()
        self.starts: list[tuple[int, int, str]] = []  # (line index, depth, heading)
        at = 0
        for depth, heading in HEADINGS[name]:
            found = next((i for i in range(at, len(lines)) if lines[i].strip() == heading), None)
            assert found is not None, f"{name}: no heading {heading!r} after line {at + 1}"
            self.starts.append((found, depth, heading))
            at = found + 1
        self.lines = lines

    def section(self, heading: str | None) -> tuple[int, int]:
        """The lines ``[start, end)`` of a heading's section (its subsections included);
        ``None``: the words before the first heading."""
        if heading is None:
            return 0, self.starts[0][0]
        for n, (start, depth, printed) in enumerate(self.starts):
            if printed == heading:
                end = next((s for s, d, _ in self.starts[n + 1 :] if d <= depth), len(self.lines))
                return start + 1, end
        raise KeyError(heading)

    def printed(self, name: str) -> str | None:
        """The printed heading of a section as our files name it."""
        aliases = ALIASES[self.name]
        if name in aliases:
            return aliases[name]
        for _, _, printed in self.starts:
            if printed.rstrip(":.") == name:
                return printed
        raise AssertionError(f"{self.name}: no section {name!r} (headings: {HEADINGS[self.name]})")

    def words_under(self, source: str) -> str:
        """Every word of the sections ``source`` names (``A; B``: both; ``A / B``: the
        section B within A), folded to single spaces."""
        texts = []
        for part in source.split(";"):
            *parents, name = [p.strip() for p in part.split(" / ")]
            start, end = self.section(self.printed(name))
            for parent in parents:
                outer = self.section(self.printed(parent))
                assert outer[0] <= start and end <= outer[1], f"{name!r} is not within {parent!r}"
            texts.append(_fold("\n".join(self.lines[start:end])))
        return "\n".join(texts)


def _cited(v: Variant) -> Iterator[tuple[str, str, str]]:
    """(rule id, source, quote) of every quote the edition gives, knobs and ``core``."""
    for knob in v.knobs:
        if knob.quote:
            assert knob.source is not None, knob.path
            yield knob.path, knob.source, knob.quote
    for rule, stated in v.core.items():
        if stated.quote:
            yield rule, stated.source, stated.quote


def _problems(v: Variant, book: Rulebook) -> list[str]:
    out = []
    for rule, source, quote in _cited(v):
        words = _fold(quote)
        if source.startswith("no section"):
            out.append(f"{rule}: a quote but no section")
        elif len(words.split()) > MAX_WORDS:
            out.append(f"{rule}: {len(words.split())} words, more than {MAX_WORDS}")
        elif words not in book.words_under(source):
            out.append(f"{rule}: «{words}» is not under {source!r}")
    return out


@pytest.mark.parametrize("vid", EDITIONS)
def test_every_quote_stands_verbatim_under_its_section(vid: str) -> None:
    v = load_variant(vid)
    assert v.rulebook is not None
    book = Rulebook(v.rulebook["file"])
    assert _problems(v, book) == []
    assert len(list(_cited(v))) >= 30  # the words exist for most rules of these editions


@pytest.mark.parametrize("vid", ["italian", "spanish"])
def test_every_section_cited_is_a_heading_of_the_rulebook(vid: str) -> None:
    v = load_variant(vid)
    assert v.rulebook is not None
    book = Rulebook(v.rulebook["file"])
    sources = [k.source for k in v.knobs if k.source] + [s.source for s in v.core.values()]
    for source in sources:
        if not source.startswith("no section"):
            assert book.words_under(source), source


def test_a_changed_word_or_another_section_is_caught() -> None:
    v = load_variant("spanish")
    book = Rulebook("perudo-spanish-rules.txt")
    knob = v.knob("palifico.face_lock")
    assert knob.quote is not None
    changed = knob.quote.replace("modificado", "cambiado")
    elsewhere = load_variant("spanish", overrides={"palifico.face_lock": {
        "value": knob.value, "text": knob.text, "source": "Calza", "quote": knob.quote,
    }})  # fmt: skip
    wrong = load_variant("spanish", overrides={"palifico.face_lock": {
        "value": knob.value, "text": knob.text, "source": knob.source, "quote": changed,
    }})  # fmt: skip
    rule = "palifico.face_lock"
    assert _problems(elsewhere, book) == [f"{rule}: «{knob.quote}» is not under 'Calza'"]
    assert _problems(wrong, book) == [f"{rule}: «{changed}» is not under 'Palifico'"]
    # a subsection's words are its section's too, never a sibling's
    assert "Aumentar el número de dados" in book.words_under("El siguiente jugador")
    assert "Aumentar el número de dados" not in book.words_under("Anunciar «Dudo»")
    with pytest.raises(AssertionError, match="no section"):
        book.words_under("Reglas de oro")


def test_the_issue_s_rules_quote_their_rulebook() -> None:
    it, es = load_variant("italian"), load_variant("spanish")
    for v in (it, es):
        for path in ("bidding.wild_worth", "bidding.order"):
            assert v.knob(path).quote, (v.id, path)
    assert es.knob("palifico.face_lock").quote


# --- the core mapping: fixed rules cited where the rulebook states them --------------------


def test_cite_of_a_fixed_rule_names_the_section_and_the_words() -> None:
    it = cite("play.dudo", load_variant("italian"))
    assert (it.source, it.shared, it.statement) == ('Il "Dudo"', True, core_rules()["play.dudo"])
    book = Rulebook("perudo-italian-rules.txt")
    assert it.source and it.quote and it.quote in book.words_under(it.source)
    assert (it.rulebook, it.language) == ("Perudo, istruzioni del gioco (Italian)", "it")
    assert it.where("en") == f'§ Il "Dudo": «{it.quote}»'
    es = cite("play.dudo", load_variant("spanish"))
    assert es.source == "Anunciar «Dudo»" and es.quote and es.shared
    assert es.line("en").endswith(f"[§ Anunciar «Dudo»: «{es.quote}»]")
    for vid in ("italian", "spanish"):  # the rules the issue names
        v = load_variant(vid)
        for rule in ("play.turn", "play.bid_needed", "play.count", "play.dudo", "play.calza",
                     "play.next_seat", "play.palifico_opener"):  # fmt: skip
            c = cite(rule, v)
            assert c.source and c.quote and c.shared, (vid, rule)
    # a rule the rulebook does not state cites no section, as before
    none = cite("play.game_over", load_variant("italian"))
    assert (none.source, none.quote, none.where("en"), none.shared) == (None, None, "", True)
    # an edition without a core mapping cites no section
    bare = dataclasses.replace(load_variant("italian"), core={})
    assert cite("play.dudo", bare) == Citation("play.dudo", core_rules()["play.dudo"], shared=True)


def test_core_entries_are_inherited_and_replaced_one_by_one(tmp_path: Path) -> None:
    base = load_variant("italian")
    assert load_variant("italian-literal").core == base.core
    (tmp_path / "house.yaml").write_text(
        "id: house\nextends: italian\ncore:\n"
        "  play.dudo:\n    source: Il turno del giocatore successivo\n"
        "  play.seat:\n    source: Contenuto\n    quote: 6 bussolotti\n",
        encoding="utf-8",
    )
    house = load_variant(tmp_path / "house.yaml")
    assert house.core["play.dudo"].source == "Il turno del giocatore successivo"
    assert house.core["play.dudo"].quote is None  # the whole entry is replaced
    assert house.core["play.dudo"].line == 5
    assert house.core["play.seat"].quote == "6 bussolotti"
    assert house.core["play.calza"] == base.core["play.calza"]
    assert house.core["play.calza"].file == base.core["play.calza"].file
    dudo = cite("play.dudo", house)
    assert (dudo.source, dudo.quote, dudo.statement) == (
        "Il turno del giocatore successivo",
        None,
        core_rules()["play.dudo"],
    )
    over = load_variant("italian", overrides={"core": {"play.calza": {"source": "Vittoria"}}})
    assert over.core["play.calza"].source == "Vittoria" and over.core["play.dudo"].source


@pytest.mark.parametrize(
    ("core", "key_path", "line", "message"),
    [
        ("  play.dudoo:\n    source: X\n", "core.play.dudoo", 5, "unknown key 'play.dudoo'"),
        ("  calza.who:\n    source: X\n", "core.calza.who", 5, "unknown key 'calza.who'"),
        ("  play.dudo:\n    quote: words\n", "core.play.dudo", 5, "missing required key 'source'"),
        ("  play.dudo:\n    source: X\n    page: 3\n", "core.play.dudo.page", 6, "unknown key"),
        ("  play.dudo: Il Dudo\n", "core.play.dudo", 4, "is not an object"),
        ("  play.dudo:\n    source: ''\n", "core.play.dudo.source", 5, "the text is empty"),
    ],
)
def test_the_schema_refuses_a_bad_core_entry(
    tmp_path: Path, core: str, key_path: str, line: int, message: str
) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(f"id: bad\nextends: italian\ncore:\n{core}", encoding="utf-8")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    err = caught.value
    assert (err.file, err.key_path, err.line) == (str(path.resolve()), key_path, line), err
    assert message in err.message
    assert [p.key_path for p in variant_problems(path)] == [key_path]


def test_the_schema_accepts_every_fixed_rule_id_and_nothing_else() -> None:
    from perudo_rules.editions.schema import variant_schema

    schema = variant_schema()["properties"]["core"]
    assert schema["additionalProperties"] is False
    assert list(schema["properties"]) == list(core_rules())
    entries = {rule: {"source": "Vittoria"} for rule in core_rules()}
    v = load_variant("italian", overrides={"core": entries})
    assert set(v.core) == set(core_rules())


@pytest.mark.parametrize(
    "vid", ["bluff", "mso-perudo", "openspiel-liars-dice", "textarena-liars-dice"]
)
def test_other_editions_cite_fixed_rules_from_sections_their_knobs_cite(vid: str) -> None:
    """Editions whose sources are public pages or files (not beside the checkout) cite a
    fixed rule only from a section their knobs already cite, with words already quoted."""
    v = load_variant(vid)
    assert "play.dudo" in v.core and "play.turn" in v.core
    sources = {k.source for k in v.knobs}
    quotes = {k.quote for k in v.knobs if k.quote}
    for rule, stated in v.core.items():
        assert stated.source in sources, (rule, stated.source)
        assert stated.quote is None or stated.quote in quotes, (rule, stated.quote)
        assert cite(rule, v).source == stated.source
