"""No English in Italian or Spanish output: every command, with typical arguments and on
its error paths (unknown variant, missing or unreadable file, bad JSON, argparse's own
errors, invalid choices, a position for another edition, ...), run with ``--lang it`` and
``--lang es``, prints no sentence of the package catalogue in English (no run of three
words of a translated msgid between its placeholders) and none of the English words of
tests/english.py. Plural forms follow each language's plural rule, and sentences count
steps and rounds from 1."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from perudo_rules import Game, load_variant, to_record
from perudo_rules.base.actions import parse_action
from perudo_rules.base.i18n import ntr
from tests.english import Capsys, english_left, run

#: English words of error messages beyond tests/english.py's (a message that is not in the
#: catalogues at all has no fragment to find).
ERRORS = ("unknown", "bundled", "cannot", "expected", "no such", "sequences", "depth",
          "wrote", "missing", "invalid", "required", "usage", "argument")  # fmt: skip

PY = sys.executable
ENGINE = f"{PY} -m perudo_rules.harness.stepapi"
BROKEN = f"{PY} {Path(__file__).resolve().parent / 'harnesses' / 'broken_stepapi.py'}"
DICE = [[1, 2, 3, 4, 5], [2, 2, 3, 6, 6], [4, 4, 5, 5, 6]]


def _record(actions: list[str], **changes: object) -> str:
    game = Game.start(load_variant("italian"), DICE, 0)
    for text in actions:
        game = game.apply(parse_action(text))
    record = to_record(game, full=True)
    record.update(changes)
    return json.dumps(record)


def _finished() -> str:
    game = Game.start(load_variant("italian"), [[3], [4]], 0)
    game = game.apply(parse_action("0:1x3")).apply(parse_action("1:dudo"))
    assert game.is_over
    record = to_record(game, full=True)
    # the game goes on after its end: the referee places the violation at a step
    record["rounds"][-1]["actions"] = [*record["rounds"][-1]["actions"], "1:1x5"]
    return json.dumps(record)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The input files of the cases, by name."""
    d = tmp_path_factory.mktemp("i18n")
    texts = {
        "pos.json": json.dumps(
            {"dice": [[1, 4, 4, 5, 2], [3, 3, 6, 2, 2], [5]], "first_player": 0}
        ),
        "pos-italian.json": json.dumps(
            {"variant": "italian", "dice": [[1, 4], [3, 3]], "first_player": 0}
        ),
        "pos-badkey.json": json.dumps({"dice": [[1]], "colour": 1}),
        "pos-badaction.json": json.dumps({"dice": [[1, 2], [3]], "actions": ["0:9x9"]}),
        "bad.json": '{"dice": ',
        "record.json": _record(["0:3x4", "1:4x4", "2:dudo"]),
        "record-low.json": _record(["0:3x4", "1:4x4"]).replace('"1:4x4"', '"1:2x4"'),
        "record-after-end.json": _finished(),
        "record-badkey.json": _record(["0:3x4"], colour="red"),
        "bad.yaml": "id: x\nname: X\nextends: italian\nwild:\n  face: 9\ndice:\n  colour: red\n",
        "bad-types.yaml": "extends: italian\ncalza:\n  enabled: maybe\n  who: everyone\n",
        "scenario.yaml": "scenarios: 3\n",
    }
    for name, text in texts.items():
        (d / name).write_text(text, encoding="utf-8")
    paths = {name: str(d / name) for name in texts}
    paths["missing.json"] = str(d / "nonexist.json")
    paths["dir"] = str(d)
    paths["out.json"] = str(d / "out.json")
    paths["records"] = str(d / "records")
    return paths


#: Each case: its name, its arguments (``{name}``: a file of the fixture) and its input.
CASES: list[tuple[str, tuple[str, ...], str]] = [
    ("help", ("--help",), ""),
    ("no-command", (), ""),
    ("unknown-command", ("nosuch",), ""),
    ("command-help", ("check", "--help"), ""),
    ("list", ("list",), ""),
    ("show", ("show", "italian", "--interpretations"), ""),
    ("show-spanish", ("show", "spanish"), ""),
    ("show-unknown", ("show", "nosuch"), ""),
    ("show-file-missing", ("show", "{missing.json}"), ""),
    (
        "validate",
        ("validate", "variants/italian.yaml", "{bad.yaml}", "{bad-types.yaml}", "{missing.json}"),
        "",
    ),
    ("validate-dir", ("validate", "{dir}"), ""),
    ("compare", ("compare", "italian", "spanish", "--max-dice", "2"), ""),
    ("compare-six", ("compare", "italian", "bluff", "--all", "--no-witnesses"), ""),
    ("compare-one", ("compare", "italian"), ""),
    ("compare-max-dice", ("compare", "italian", "spanish", "--max-dice", "0"), ""),
    ("compare-unknown", ("compare", "italian", "nosuch"), ""),
    ("check", ("check", "italian", "--bids", "3x4 1x1 2:calza 2x1 9x9"), ""),
    ("check-palifico", ("check", "italian", "--palifico", "--bids", "1x2 2x3"), ""),
    ("check-dudo", ("check", "italian", "--position", "{pos.json}", "--bids", "3x4 dudo"), ""),
    ("check-calza", ("check", "italian", "--position", "{pos.json}", "--bids", "3x4 2:calza"), ""),
    (
        "check-calza-1",
        ("check", "italian", "--position", "{pos.json}", "--bids", "3x4 1:calza"),
        "",
    ),
    (
        "check-other-edition",
        ("check", "spanish", "--position", "{pos-italian.json}", "--bids", "3x4"),
        "",
    ),
    ("check-missing", ("check", "italian", "--position", "{missing.json}", "--bids", "3x4"), ""),
    ("check-dir", ("check", "italian", "--position", "{dir}", "--bids", "3x4"), ""),
    ("check-bad-json", ("check", "italian", "--position", "{bad.json}", "--bids", "3x4"), ""),
    ("check-bad-key", ("check", "italian", "--position", "{pos-badkey.json}", "--bids", "3x4"), ""),
    (
        "check-bad-action",
        ("check", "italian", "--position", "{pos-badaction.json}", "--bids", "3x4"),
        "",
    ),
    ("check-unknown", ("check", "nosuch", "--bids", "3x4"), ""),
    ("check-nothing", ("check", "italian"), ""),
    ("check-players", ("check", "italian", "--bids", "3x4", "--players", "9"), ""),
    ("check-players-1", ("check", "italian", "--bids", "3x4", "--players", "1"), ""),
    ("check-not-an-int", ("check", "italian", "--bids", "3x4", "--players", "x"), ""),
    ("check-bad-bid", ("check", "italian", "--bids", "3y4"), ""),
    ("check-no-value", ("check", "italian", "--bids"), ""),
    ("check-unrecognized", ("check", "italian", "--bids", "3x4", "--colour"), ""),
    ("check-witness-missing", ("check", "--witness", "{missing.json}"), ""),
    ("referee", ("referee", "{record.json}"), ""),
    ("referee-low", ("referee", "{record-low.json}"), ""),
    ("referee-after-end", ("referee", "{record-after-end.json}"), ""),
    ("referee-bad-key", ("referee", "{record-badkey.json}"), ""),
    ("referee-bad-json", ("referee", "{bad.json}"), ""),
    ("referee-missing", ("referee", "{missing.json}"), ""),
    ("referee-dir", ("referee", "{dir}"), ""),
    ("referee-no-file", ("referee",), ""),
    (
        "play",
        ("play", "italian", "--players", "2", "--seed", "3", "--record-out", "{out.json}"),
        "help\nhello\n2 3\n1x9\ncalza\n" + "dudo\n" * 40,
    ),
    (
        "play-quit",
        ("play", "spanish", "--players", "3", "--seed", "1", "--record-out", "{out.json}"),
        "5x4\nquit\n",
    ),
    ("play-bad-bot", ("play", "italian", "--bot", "clever"), ""),
    ("play-unknown", ("play", "nosuch"), ""),
    ("play-seat", ("play", "italian", "--players", "2", "--seat", "5"), ""),
    (
        "export-scenarios",
        ("export-scenarios", "{out.json}", "spec/scenarios/italian-rulebook.yaml"),
        "",
    ),
    ("export-scenarios-bad", ("export-scenarios", "{out.json}", "{scenario.yaml}"), ""),
    ("export-scenarios-missing", ("export-scenarios", "{out.json}", "{missing.json}"), ""),
    ("simulate", ("simulate", "italian", "--games", "12", "--players", "3", "--workers", "1"), ""),
    (
        "simulate-records",
        ("simulate", "italian", "--games", "2", "--workers", "1", "--save-records", "{records}"),
        "",
    ),
    ("simulate-bad", ("simulate", "italian", "--games", "0"), ""),
    ("simulate-unknown", ("simulate", "nosuch", "--games", "2"), ""),
    (
        "conform",
        (
            "conform",
            "--engine",
            ENGINE,
            "--edition",
            "italian",
            "--games",
            "1",
            "--perft-nodes",
            "20",
            "--workers",
            "1",
            "--rules",
        ),
        "",
    ),
    (
        "conform-scenario",
        (
            "conform",
            "--engine",
            ENGINE,
            "--scenario",
            "it-raise-after-eight-fours",
            "--workers",
            "1",
        ),
        "",
    ),
    (
        "conform-broken",
        (
            "conform",
            "--engine",
            f"{BROKEN} dudo-exact",
            "--edition",
            "italian",
            "--games",
            "2",
            "--perft-nodes",
            "20",
            "--workers",
            "1",
        ),
        "",
    ),
    (
        "conform-bidder-dudo",
        (
            "conform",
            "--engine",
            f"{BROKEN} bidder-dudo",
            "--edition",
            "spanish",
            "--games",
            "1",
            "--perft-nodes",
            "20",
            "--workers",
            "1",
        ),
        "",
    ),
    ("conform-garbage", ("conform", "--engine", f"{BROKEN} garbage", "--workers", "1"), ""),
    ("conform-no-engine", ("conform", "--engine", "/nonexistent/engine", "--workers", "1"), ""),
    ("conform-unknown-scenario", ("conform", "--engine", ENGINE, "--scenario", "nosuch"), ""),
    ("conform-required", ("conform",), ""),
    ("perft", ("perft", "italian", "--position", "{pos.json}", "--depth", "2"), ""),
    (
        "perft-other-edition",
        ("perft", "spanish", "--position", "{pos-italian.json}", "--depth", "1"),
        "",
    ),
    ("perft-depth", ("perft", "italian", "--position", "{pos.json}", "--depth", "13"), ""),
    ("perft-missing", ("perft", "italian", "--position", "{missing.json}", "--depth", "1"), ""),
    ("claim", ("claim", "italian"), ""),
    ("claim-merge", ("claim", "italian", "spanish", "--merge"), ""),
    ("claim-free", ("claim", "italian", "--free", "no.such"), ""),
    ("claim-unknown", ("claim", "nosuch"), ""),
]


@pytest.mark.parametrize("lang", ["it", "es"])
@pytest.mark.parametrize(("args", "stdin"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_no_english_in_the_output_of_any_command(
    capsys: Capsys,
    monkeypatch: pytest.MonkeyPatch,
    files: dict[str, str],
    args: tuple[str, ...],
    stdin: str,
    lang: str,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    argv = [files[a[1:-1]] if a.startswith("{") else a for a in args]
    try:
        _, out, err = run(capsys, "--lang", lang, *argv)
    except SystemExit:  # --help, argparse's errors
        out, err = capsys.readouterr()
    assert out or err
    text = out + err
    assert english_left(text, lang, ERRORS) == [], text


@pytest.mark.parametrize("env", ["it_IT.UTF-8", "es_ES.UTF-8"])
def test_the_locale_alone_chooses_the_language_of_errors(
    capsys: Capsys, monkeypatch: pytest.MonkeyPatch, env: str
) -> None:
    monkeypatch.setenv("LANG", env)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    code, _, err = run(capsys, "check", "nosuch", "--bids", "3x4")
    assert code == 2 and english_left(err, env[:2], ERRORS) == [], err
    with pytest.raises(SystemExit):
        run(capsys, "check", "italian", "--players", "x")
    err = capsys.readouterr().err
    assert english_left(err, env[:2], ERRORS) == [], err


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        ("en", (", after 1 step", ", after 2 steps", ", after 1000000 steps")),
        ("it", (", dopo 1 passo", ", dopo 2 passi", ", dopo 1000000 di passi")),
        ("es", (", tras 1 paso", ", tras 2 pasos", ", tras 1000000 de pasos")),
    ],
)
def test_counts_take_the_plural_form_of_their_language(lang: str, forms: tuple[str, ...]) -> None:
    """Through the language's own plural rule (Italian and Spanish have three forms)."""
    got = tuple(ntr(", after {n} step", ", after {n} steps", n, lang) for n in (1, 2, 1000000))
    assert got == forms


@pytest.mark.parametrize("lang", ["en", "it", "es"])
def test_one_of_a_kind_is_singular_in_the_output(
    capsys: Capsys, files: dict[str, str], lang: str
) -> None:
    """A game of one round, a walk of one step: no "1 rounds", "1 rondas", "after 1 steps"."""
    code, out, _ = run(
        capsys, "--lang", lang, "simulate", "italian", "--games", "1", "--players", "2",
        "--workers", "1",
    )  # fmt: skip
    assert code == 0
    for wrong in ("1 rounds", "1 rondas", "1 partite", "1 partidas", "1 steps", "1 pasos"):
        assert wrong not in out, out
    code, out, _ = run(capsys, "--lang", lang, "referee", files["record.json"])
    for wrong in ("1 rounds", "1 rondas", "1 steps", "1 passi", "1 pasos"):
        assert wrong not in out, out


@pytest.mark.parametrize("lang", ["en", "it", "es"])
def test_sentences_count_steps_from_one(capsys: Capsys, files: dict[str, str], lang: str) -> None:
    """The referee places a violation at the step people count (the first action is step
    1), and says what the record claims in words, not as its JSON keys."""
    code, out, _ = run(capsys, "--lang", lang, "referee", files["record-after-end.json"])
    assert code == 1
    first = out.splitlines()[0]
    assert " 0 " not in first.replace("0:", "") and "loser" not in first, first
