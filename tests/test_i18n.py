"""English, Italian and Spanish: the catalogues are complete and fresh, the language is a
context (never a process-wide setting), and the command line speaks the chosen language
on its whole path, with no English left for an Italian or a Spanish player."""

from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import pytest
import yaml

from perudo_rules import Bid, Dudo, Game, load_variant
from perudo_rules.base.i18n import (
    LANGUAGES,
    check_language,
    language,
    locale_language,
    tr,
    use_language,
)
from perudo_rules.cli import main
from perudo_rules.editions.corerules import core_rules, rule_text
from perudo_rules.editions.knobs import KNOBS
from perudo_rules.records.describe import describe_result
from tests.english import english_words as _english_words
from tests.english import run

ROOT = Path(__file__).resolve().parent.parent
Capsys = pytest.CaptureFixture[str]


def _catalogs():  # type: ignore[no-untyped-def]
    pytest.importorskip("babel")
    sys.path.insert(0, str(ROOT / "tools"))
    import catalogs

    return catalogs


def test_every_message_has_italian_spanish_and_english_with_the_same_placeholders() -> None:
    """Every refusal, outcome sentence, CLI line, knob description and choice, core rule,
    edition rule text, interpretation, scenario and term has an Italian and a Spanish
    translation with the placeholders of its English (the msgid), and each compiled .mo is
    the compilation of its .po: a new message without a translation fails here."""
    catalogs = _catalogs()
    problems = catalogs.problems()
    assert not problems, (
        "python tools/generate.py (or make catalogs), then write each Italian and Spanish "
        "msgstr in perudo_rules/locale/{it,es}/LC_MESSAGES/perudo_rules.po and run it again:\n"
        + "\n".join(problems)
    )


def test_the_spec_prose_of_the_translated_pages_is_translated() -> None:
    catalogs = _catalogs()
    assert catalogs.docs_problems() == []


def test_no_translation_uses_a_word_the_terms_table_rules_out() -> None:
    """spec/terms.yaml's ``ruled_out``: a knob is never a "manopola", and so on."""
    catalogs = _catalogs()
    assert catalogs.terms_problems() == []


def test_the_ruled_out_words_are_found_whole_or_by_their_stem() -> None:
    catalogs = _catalogs()
    [(knob, _entry)] = [c for c in catalogs.ruled_out("it") if c[1]["word"] == "manopol*"]
    assert knob.search("Le Manopole di calza") and knob.search("una manopola")
    assert not knob.search("rimanopola")


def test_a_new_rule_without_a_translation_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    catalogs = _catalogs()
    real = catalogs.all_messages

    def with_new_rule():  # type: ignore[no-untyped-def]
        yield from real()
        yield "A brand new rule nobody has translated.", None, "variants/new.yaml:1"

    monkeypatch.setattr(catalogs, "all_messages", with_new_rule)
    bad = catalogs.problems()
    assert any("A brand new rule" in p and p.startswith("it:") for p in bad)
    assert any("A brand new rule" in p and p.startswith("es:") for p in bad)


def test_knob_texts_and_core_rules_are_translated_at_runtime() -> None:
    for knob in KNOBS:
        for text in (knob.description, *(c[1] for c in knob.choices)):
            for lang in ("it", "es"):
                got = tr(text, lang)
                assert got and (got != text or text in ("no", "Calza", "Palifico")), (lang, text)
    for rid, text in core_rules().items():
        assert rule_text(rid, lang="it") != text
        assert rule_text(rid, lang="en") == " ".join(text.split())


def test_english_is_the_source_and_unknown_languages_are_refused() -> None:
    text = "Only the player to move may doubt the standing bid with Dudo."
    assert tr(text, "en") == text
    assert (
        tr(text, "it")
        == "Solo il giocatore di turno può dubitare della scommessa corrente con Dudo."
    )
    assert tr("A sentence no catalogue knows.", "it") == "A sentence no catalogue knows."
    with pytest.raises(ValueError, match="unknown language 'fr'"):
        check_language("fr")
    with pytest.raises(ValueError), use_language("fr"):
        pass


def test_the_language_is_a_context_never_a_process_setting() -> None:
    assert language() == "en"
    seen: dict[str, str] = {}
    ready = threading.Barrier(2)

    def speak(lang: str) -> None:
        with use_language(lang):
            ready.wait()  # both threads inside their own block at once
            seen[lang] = tr("seat {n}", n=2)

    threads = [threading.Thread(target=speak, args=(lang,)) for lang in ("it", "es")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"it": "posto 2", "es": "asiento 2"}
    assert language() == "en" and tr("seat {n}", n=2) == "seat 2"
    with use_language("it"):
        with use_language("es"):
            assert language() == "es"
        assert language() == "it"
    assert language() == "en"


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({"LANG": "it_IT.UTF-8"}, "it"),
        ({"LANG": "es_ES.UTF-8", "LC_MESSAGES": "it_CH"}, "it"),
        ({"LANG": "it_IT.UTF-8", "LC_ALL": "es_AR.UTF-8"}, "es"),
        ({"LC_ALL": "C"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "de_DE@euro"}, "en"),
        ({}, "en"),
    ],
)
def test_the_default_language_comes_from_the_locale(env: dict[str, str], lang: str) -> None:
    assert locale_language(env) == lang


def test_outcome_sentences_follow_the_context() -> None:
    g = Game.start(load_variant("italian"), [[3, 5], [3]], first_player=0)
    after = g.apply(Bid(0, 2, 3)).apply(Dudo(1))
    with use_language("it"):
        it = describe_result(after.last_result, after.dice_counts)
    with use_language("es"):
        es = describe_result(after.last_result, after.dice_counts)
    assert it.startswith("il posto 1 dice Dudo sulla scommessa 2x3 del posto 0")
    assert "è eliminato" in it and "posto 0 vince la partita" in it
    assert es.startswith("El asiento 1 anuncia Dudo sobre la puja 2x3 del asiento 0")
    assert "queda fuera" in es and "el asiento 0 gana la partida" in es


# --- the command line --------------------------------------------------------------------------

@pytest.mark.parametrize("lang", ["it", "es"])
def test_check_gives_verdict_rule_and_section_in_the_players_language(
    capsys: Capsys, lang: str
) -> None:
    code, out, err = run(capsys, "check", "italian", "--bids", "3x4 1x1", "--lang", lang)
    assert code == 1 and err == ""
    variant = load_variant("italian")
    assert rule_text("bidding.wild_worth", variant, lang) in out
    assert "Il rilancio; La partita di Perudo continua!" in out  # the section, as printed
    assert ("ILLEGALE" if lang == "it" else "ILEGAL") in out
    quote = variant.knob("bidding.wild_worth").quote
    assert f"[§ Il rilancio; La partita di Perudo continua!: «{quote}»]" in out
    assert _english_words(out, lang) == [], out


@pytest.mark.parametrize("lang", ["it", "es"])
def test_refusal_reasons_speak_the_players_language(capsys: Capsys, lang: str) -> None:
    _, out, _ = run(capsys, "check", "italian", "--bids", "3x4 1x1 2:calza", "--lang", lang)
    assert _english_words(out, lang) == [], out


@pytest.mark.parametrize("lang", ["it", "es"])
def test_check_of_a_call_tells_the_outcome_in_the_players_language(
    capsys: Capsys, tmp_path: Path, lang: str
) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({"dice": [[1, 4, 4, 5, 2], [3, 3, 6, 2, 2], [5]], "first_player": 0}))
    for bids in ("3x4 dudo", "3x4 2:calza", "3x4 1:calza 1x1"):
        _, out, err = run(
            capsys, "check", "italian", "--position", str(pos), "--bids", bids, "--lang", lang
        )
        assert err == "", err
        assert _english_words(out, lang) == [], (bids, out)


@pytest.mark.parametrize("lang", ["it", "es"])
def test_show_speaks_the_players_language(capsys: Capsys, lang: str) -> None:
    code, out, _ = run(capsys, "show", "italian", "--interpretations", "--lang", lang)
    assert code == 0
    variant = load_variant("italian")
    for knob in variant.knobs:
        assert knob.text is not None
        assert " ".join(knob.text.split()) not in " ".join(out.split()), knob.path
    for rid in core_rules():
        assert rule_text(rid, lang=lang)[:30] in " ".join(out.split())


@pytest.mark.parametrize("lang", ["it", "es"])
def test_compare_proves_and_tallies_in_the_players_language(capsys: Capsys, lang: str) -> None:
    """The tally and every proof that a differing rule makes no difference (never read,
    decide alike, every situation tried) reach an Italian or Spanish reader translated."""
    code, out, _ = run(capsys, "compare", "italian", "bluff", "spanish", "--lang", lang)
    assert code == 0
    flat = " ".join(out.split())
    for english in (
        "differing rule",
        "confirmed by a witness",
        "differs, but",
        "the engine never reads",
        "decide alike",
        "allows exactly",
        "holding dice",
        "in a position both editions allow",
        "confirmed together with",
    ):
        assert english not in flat, english
    assert (
        tr(
            "{rule} differs, but {why}: the engine never reads it in play",
            lang,
            rule="wild.name",
            why=tr("it only names the wild face for people", lang),
        )
        in flat
    )


def test_the_locale_chooses_the_language_and_lang_overrides_it(
    capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    _, out, _ = run(capsys, "check", "spanish", "--bids", "3x4")
    assert "La puja es legal." in out
    _, out, _ = run(capsys, "check", "spanish", "--bids", "3x4", "--lang", "it")
    assert "La scommessa è legale." in out
    _, out, _ = run(capsys, "--lang", "en", "check", "spanish", "--bids", "3x4")
    assert "The bid is legal." in out


def test_errors_speak_the_language_too(capsys: Capsys) -> None:
    code, _, err = run(
        capsys, "check", "italian", "--bids", "3x4", "--lang", "it", "--players", "9"
    )
    assert code == 2 and err.startswith("perudo-rules: errore: ")


def test_json_keys_do_not_change_with_the_language(capsys: Capsys) -> None:
    shapes = []
    for lang in LANGUAGES:
        _, out, _ = run(capsys, "check", "italian", "--bids", "3x4 1x1", "--json", "--lang", lang)
        data = json.loads(out)
        shapes.append((sorted(data), [sorted(b) for b in data["bids"]], data["bids"][1]["rule"]))
    assert shapes[0] == shapes[1] == shapes[2]


def test_help_is_in_the_chosen_language(capsys: Capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--lang", "it", "--help"])
    out = capsys.readouterr().out
    assert "Le regole di riferimento del Perudo" in out


# --- the terminology table ---------------------------------------------------------------------


def _rulebook(lang: str) -> str:
    name = {"it": "perudo-italian-rules.txt", "es": "perudo-spanish-rules.txt"}[lang]
    for base in (ROOT.parent, ROOT.parent.parent):
        path = base / "shared" / "seeds" / name
        if path.is_file():
            return path.read_text(encoding="utf-8")
    pytest.skip(f"the rulebook {name} is not beside the checkout (shared/seeds)")


def test_every_rulebook_term_stands_in_its_rulebook_under_its_section() -> None:
    terms = yaml.safe_load((ROOT / "spec" / "terms.yaml").read_text(encoding="utf-8"))["terms"]
    for lang in ("it", "es"):
        book = _rulebook(lang)
        lines = book.splitlines()
        for term in terms:
            entry = term.get(lang)
            if not entry:
                continue
            heading = next(
                (i for i, line in enumerate(lines) if line.strip().rstrip(":") == entry["section"]),
                None,
            )
            assert heading is not None, (lang, entry)
            after = "\n".join(lines[heading : heading + 40]).lower()
            assert entry["word"].lower() in after, (lang, entry)
            # and our translations use it where the rulebook has its own word
            assert term["ours"][lang], term


# --- the terminal game and the PettingZoo table -------------------------------------------------


@pytest.mark.parametrize("lang", ["it", "es"])
def test_the_terminal_game_speaks_the_players_language(
    monkeypatch: pytest.MonkeyPatch, capsys: Capsys, tmp_path: Path, lang: str
) -> None:
    import io

    lines = ["help", "hello", "2 3", "dudo", "calza"] + ["dudo"] * 40
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    code = main(
        ["play", "italian", "--players", "3", "--seed", "1", "--lang", lang,
         "--record-out", str(tmp_path / "g.json")]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert ("i vostri dadi:" if lang == "it" else "tus dados:") in out
    assert ("comandi:" if lang == "it" else "órdenes:") in out
    assert _english_words(out, lang) == [], out


def test_the_pettingzoo_table_follows_lang() -> None:
    pz = pytest.importorskip("perudo_rules.pettingzoo")
    env = pz.raw_env("italian", players=3, render_mode="ansi", lang="it")
    env.reset(seed=3)
    text = env.render()
    assert text is not None
    assert text.startswith("Perudo (edizione italiana): round 1")
    assert "posto" in text and "bussolotto" in text and "di turno: player_" in text
    en = pz.raw_env("italian", players=3, render_mode="ansi")
    en.reset(seed=3)
    assert en.render().startswith("Perudo (Italian edition): round 1")
    with pytest.raises(ValueError, match="unknown language"):
        pz.raw_env("italian", players=3, lang="fr")


def test_refusals_and_illegal_actions_speak_the_language_asked() -> None:
    from perudo_rules import IllegalAction

    g = Game.start(load_variant("italian"), [[1, 4], [3, 3]], first_player=0).apply(Bid(0, 3, 4))
    with pytest.raises(IllegalAction) as caught:
        g.apply(Bid(1, 1, 1))
    e = caught.value
    assert e.rule == "bidding.wild_worth" and e.refusal.message_id == "wild-bid-needs"
    assert e.message == "after 3x4 a wild bid needs at least 2 dice"  # always English
    assert e.message_in("it") == (
        "dopo 3x4 una scommessa sulla faccia jolly richiede almeno 2 dadi [bidding.wild_worth]"
    )
    with use_language("es"):
        assert e.refusal.text() == "tras 3x4 una puja de comodines exige al menos 2 dados"
        assert e.message == "after 3x4 a wild bid needs at least 2 dice"
    assert e.refusal.text() == e.message  # outside the block: English again
