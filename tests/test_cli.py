"""The command line: list, show, validate, compare, check; --help, --json, exit codes, errors."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from perudo_rules import available_variants, load_variant
from perudo_rules.cli.commandline import build_parser, main
from perudo_rules.editions.corerules import core_rules
from perudo_rules.editions.knobs import KNOB_PATHS
from perudo_rules.editions.variant import differing_knobs

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(err: str, *needles: str) -> None:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("perudo-rules"), err
    assert "error" in lines[0]
    for needle in needles:
        assert needle in lines[0], (needle, err)


def _commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(sub.choices)


# --- --help everywhere ------------------------------------------------------------------------


def test_help_lists_every_command(capsys: Capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for cmd in ("list", "show", "validate", "compare", "check"):
        assert cmd in out


@pytest.mark.parametrize("command", _commands())
def test_every_command_has_help(capsys: Capsys, command: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: perudo-rules {command}")
    assert len(out.splitlines()) > 3


def test_usage_errors_are_one_line_exit_2(capsys: Capsys) -> None:
    for argv in (["bogus"], ["show"], ["compare"], []):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        assert_one_line_error(capsys.readouterr().err)
    assert main(["check", "italian"]) == 2  # neither --bids nor --witness
    assert_one_line_error(capsys.readouterr().err)


# --- list, show -------------------------------------------------------------------------------


def test_list_table_and_json(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "list")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["id", "name"] and set(lines[1]) <= {"-", " "}
    assert [line.split()[0] for line in lines[2:]] == available_variants()
    code, out, _ = run(capsys, "list", "--json")
    data = json.loads(out)
    assert [d["id"] for d in data] == available_variants()
    assert data[0]["name"] == load_variant(available_variants()[0]).name


def test_show_every_rule_with_ids(capsys: Capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    code, out, _ = run(capsys, "show", "spanish")
    assert code == 0
    spanish = load_variant("spanish")
    assert out.startswith(f"{spanish.name} (spanish)")
    rows = {line.split()[0]: line for line in out.splitlines() if line.split()}
    for path in KNOB_PATHS:
        assert path in rows, path
    assert "not_as_opening_bid" in rows["bidding.wild_opening"]
    for rid in core_rules():
        assert rid in rows
    # long statements wrap under their column, every word kept, lines within 100 columns
    flat = " ".join(out.split())
    for knob in spanish.knobs:
        assert " ".join((knob.text or "").split()) in flat, knob.path
    assert max(len(line) for line in out.splitlines()) <= 100
    assert "--interpretations" in out
    code, out, _ = run(capsys, "show", "spanish", "--interpretations", "--brief")
    assert "play.turn" not in out
    for knob in spanish.interpretations():
        assert knob.path in out
    assert "alternative:" in out


def test_show_json(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "show", "italian", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["id"] == "italian"
    assert [r["rule"] for r in data["rules"]] == list(KNOB_PATHS)
    by_rule = {r["rule"]: r for r in data["rules"]}
    assert by_rule["calza.who"]["value"] == "any_except_bidder_and_next"
    assert by_rule["calza.who"]["interpretation"]["chosen"]
    assert [r["rule"] for r in data["fixed_rules"]] == list(core_rules())


def test_show_house_file(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("id: house\nname: Ours\nextends: italian\ncalza:\n  enabled: false\n")
    code, out, _ = run(capsys, "show", str(path))
    assert code == 0 and out.startswith("Ours (house)")
    row = next(line for line in out.splitlines() if line.startswith("calza.enabled"))
    assert "false" in row and "(set without a statement)" in row


# --- rulebook citations: section and original words (issue 21) ---------------------------


def _cited(knob: Any) -> str:
    """What the CLI writes for a knob's rulebook citation."""
    where = f"§ {' '.join(knob.source.split())}"
    return where + (f": «{' '.join(knob.quote.split())}»" if knob.quote else "")


@pytest.mark.parametrize("variant", ["italian", "spanish", "bluff"])
def test_show_cites_each_rule_on_a_line_of_its_own(
    capsys: Capsys, monkeypatch: pytest.MonkeyPatch, variant: str
) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    code, out, _ = run(capsys, "show", variant, "--brief")
    v = load_variant(variant)
    assert code == 0
    assert f"Rulebook: {' '.join(v.rulebook['title'].split())[:40]}" in out
    blocks: dict[str, list[str]] = {}  # each rule's row: its first line and the wrapped ones
    for line in out.splitlines():
        if line[:1].strip():
            blocks[line.split()[0]] = [line]
        elif line.strip() and blocks:
            blocks[list(blocks)[-1]].append(line)
    for knob in v.knobs:  # the statement, then the citation on a line of its own
        statement = " ".join((knob.text or "").split())
        flat = " ".join(" ".join(blocks[knob.path]).split())
        assert statement in flat, knob.path
        citing = [line.strip() for line in blocks[knob.path] if line.strip().startswith("§ ")]
        if knob.source:
            assert len(citing) == 1, (knob.path, blocks[knob.path])
            assert flat.endswith(_cited(knob)) and flat.index(statement) < flat.index(citing[0])
        else:
            assert citing == [], knob.path


def test_show_quotes_the_original_words(capsys: Capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "120")
    out = " ".join(run(capsys, "show", "italian", "--brief")[1].split())
    assert "§ Le teste dell'Azteco: «in qualsiasi momento del round»" in out
    data = json.loads(run(capsys, "show", "spanish", "--json")[1])
    assert data["rulebook"]["language"] == "es"
    wild = next(r for r in data["rules"] if r["rule"] == "bidding.wild_opening")
    assert wild["source"] == "Pujar por Paco"
    assert wild["quote"] == "No pujar durante la primera ronda"


def test_check_names_the_section_and_quotes_the_rulebook(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "check", "spanish", "--bids", "1x1")
    assert code == 1
    spanish = load_variant("spanish")
    knob = spanish.knob("bidding.wild_opening")
    line = next(x for x in out.splitlines() if x.startswith("bidding.wild_opening: "))
    assert line == f"bidding.wild_opening: {knob.text} [{_cited(knob)}]"
    assert "[§ Pujar por Paco: «No pujar durante la primera ronda»]" in line
    data = json.loads(run(capsys, "check", "spanish", "--bids", "1x1", "--json")[1])
    verdict = data["bids"][0]
    assert (verdict["source"], verdict["quote"]) == (knob.source, knob.quote)
    assert data["rulebook"] == spanish.rulebook["title"]  # type: ignore[index]


def test_check_cites_each_rule_broken_once(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "check", "italian", "--bids", "3x4 1x1 2x4 dudo", "--players", "3")
    assert code == 1
    lines = out.splitlines()
    worth = [x for x in lines if x.startswith("bidding.wild_worth: ")]
    order = [x for x in lines if x.startswith("bidding.order: ")]
    assert len(worth) == len(order) == 1  # 1x1 and 2x4 are refused, each rule cited once
    assert "§ Il rilancio" in worth[0]
    data = json.loads(
        run(capsys, "check", "italian", "--bids", "3x4 1x1", "--players", "3", "--json")[1]
    )
    assert data["bids"][1]["message_id"] == "wild-bid-needs"
    assert data["bids"][1]["params"] == {"standing_quantity": 3, "standing_face": 4, "need": 2}


def test_check_cites_a_shared_rule_and_a_house_value(capsys: Capsys, tmp_path: Path) -> None:
    code, out, _ = run(capsys, "check", "italian", "--bids", "dudo")
    shared = next(x for x in out.splitlines() if x.startswith("play.bid_needed: "))
    where = "[§ Come si gioca: «Se siete voi a cominciare, fate la vostra scommessa»]"
    assert code == 1 and shared == f"play.bid_needed: {core_rules()['play.bid_needed']} {where}"
    path = tmp_path / "house.yaml"
    path.write_text("id: house\nextends: italian\nbidding:\n  wild_opening: not_as_opening_bid\n")
    code, out, _ = run(capsys, "check", str(path), "--bids", "1x1")
    line = next(x for x in out.splitlines() if x.startswith("bidding.wild_opening: "))
    assert code == 1 and line.endswith("[set in house.yaml:4]"), line
    assert json.loads(run(capsys, "check", str(path), "--bids", "1x1", "--json")[1])["bids"][0][
        "source"
    ] is None


def test_referee_names_the_section_of_the_rule_broken(capsys: Capsys, tmp_path: Path) -> None:
    from perudo_rules import Game, to_record

    spanish = load_variant("spanish")
    rec = to_record(Game.start(spanish, [[1, 2, 3], [4, 5, 6]], 0), full=True)
    rec["rounds"][0]["actions"] = ["0:1x1"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    code, out, _ = run(capsys, "referee", str(path))
    lines = out.splitlines()
    assert code == 1
    assert lines[0] == (
        "violation: round 1, step 1 (0:1x1): no bid on the wild face as the opening bid "
        "[bidding.wild_opening]"
    )
    knob = spanish.knob("bidding.wild_opening")
    assert lines[1] == f"bidding.wild_opening: {knob.text} [{_cited(knob)}]"
    assert run(capsys, "referee", "-q", str(path))[1].splitlines() == lines[:1]
    data = json.loads(run(capsys, "referee", "--json", str(path))[1])["violation"]
    assert data["rule"] == "bidding.wild_opening" and data["message_id"] == "no-wild-opening"
    assert (data["source"], data["quote"]) == (knob.source, knob.quote)
    assert data["statement"] == knob.text and data["params"] == {}


@pytest.mark.parametrize("command", ["show", "compare", "check"])
def test_unknown_variant_is_one_line_exit_2(capsys: Capsys, command: str) -> None:
    argv = {
        "show": ["show", "castilian"],
        "compare": ["compare", "italian", "castilian"],
        "check": ["check", "castilian", "--bids", "1x2"],
    }[command]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert_one_line_error(err, "unknown variant 'castilian'", "italian")


# --- validate ---------------------------------------------------------------------------------


BROKEN = {
    "bad-value.yaml": (
        "id: x\nextends: italian\ncalza:\n  enabled: maybe\n",
        ":4:",
        "calza.enabled",
    ),
    "bad-yaml.yaml": ("id: x\nextends: italian\ncalza: [\n", ":4:", "invalid YAML"),
    "unknown-key.yaml": ("id: x\nextends: italian\nfoo: 1\n", ":3:", "unknown key 'foo'"),
    "bad-base.yaml": ("id: x\nextends: castilian\n", ":2:", "unknown variant"),
    "not-a-map.yaml": ("- 1\n- 2\n", ":1:", "mapping"),
}


def test_validate_ok(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("id: house\nname: Ours\nextends: spanish\npalifico:\n  heads_up: false\n")
    bundled = str(Path(load_variant("italian").file or ""))
    code, out, err = run(capsys, "validate", str(path), bundled)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines == [
        f"{path}: OK (house: Ours, extends spanish)",
        f"{bundled}: OK (italian: {load_variant('italian').name})",
    ]


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_validate_reports_file_and_line(capsys: Capsys, tmp_path: Path, name: str) -> None:
    text, where, what = BROKEN[name]
    path = tmp_path / name
    path.write_text(text)
    good = tmp_path / "good.yaml"
    good.write_text("extends: italian\n")
    code, out, err = run(capsys, "validate", str(good), str(path))
    assert code == 2 and err == ""
    ok, bad = out.splitlines()
    assert ok.startswith(f"{good}: OK")
    assert bad.startswith(f"{path}{where}") and what in bad, bad
    # the same file given to show is bad input: one line on stderr, exit 2
    code, out, err = run(capsys, "show", str(path))
    assert code == 2 and out == ""
    assert_one_line_error(err, f"{path}{where}", what)


def test_validate_json_and_missing_file(capsys: Capsys, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(BROKEN["bad-value.yaml"][0])
    code, out, _ = run(capsys, "validate", "--json", str(bad), str(tmp_path / "nope.yaml"))
    assert code == 2
    data = json.loads(out)
    assert [d["ok"] for d in data] == [False, False]
    assert data[0]["line"] == 4 and data[0]["key_path"] == "calza.enabled"
    assert "no such variant file" in data[1]["message"]


def test_validate_lists_every_problem_one_line_each(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text(
        "id: x\nextends: italian\nfoo: 1\nbar: 2\ncalza:\n  enabled: maybe\n"
        "  who: everyone\ndice:\n  faces: 0\n"
    )
    code, out, err = run(capsys, "validate", str(path))
    assert code == 2 and err == ""
    lines = out.splitlines()
    expected = [
        (3, "foo", "unknown key 'foo'"),
        (4, "bar", "unknown key 'bar'"),
        (6, "calza.enabled", '"maybe" is not true or false'),
        (7, "calza.who", '"everyone" is not one of'),
        (9, "dice.faces", "0 is less than 2"),
    ]
    assert len(lines) == len(expected)
    for line, (number, key_path, what) in zip(lines, expected, strict=True):
        assert line.startswith(f"{path}:{number}: {key_path}: {what}"), line
    assert "more problem" not in out
    code, out, _ = run(capsys, "validate", "--json", str(path))
    assert code == 2
    (result,) = json.loads(out)
    assert [(p["line"], p["key_path"]) for p in result["problems"]] == [
        (n, k) for n, k, _ in expected
    ]
    assert result["problems"][0]["error"] == result["error"] == lines[0]
    # The loader still raises the first problem, and says how many follow.
    code, out, err = run(capsys, "show", str(path))
    assert code == 2
    assert_one_line_error(err, f"{path}:3: foo:", "(and 4 more problems)")


def test_validate_reports_a_consistency_problem_after_a_clean_schema(
    capsys: Capsys, tmp_path: Path
) -> None:
    path = tmp_path / "wild.yaml"
    path.write_text("extends: italian\ndice:\n  faces: 4\nwild:\n  face: 6\n")
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 2
    assert out.splitlines() == [f"{path}:5: wild.face: wild face 6 is not a face of a d4"]


def test_validate_lists_schema_and_cross_knob_problems_in_one_pass(
    capsys: Capsys, tmp_path: Path
) -> None:
    # a schema problem does not hide the rules between knobs, nor one of those the next
    path = tmp_path / "mixed.yaml"
    path.write_text(
        "extends: italian\nplayers:\n  min: 7\n  max: 3\ncalza:\n  who: bogus\n"
        "dice:\n  per_player: 9\n  max_per_player: 5\n"
    )
    code, out, _ = run(capsys, "validate", str(path))
    assert code == 2
    assert [line.split(": ", 2)[:2] for line in out.splitlines()] == [
        [f"{path}:3", "players.min"],
        [f"{path}:6", "calza.who"],
        [f"{path}:8", "dice.per_player"],
    ]
    # a broken extends is listed beside the file's own schema problems
    path.write_text("extends: nothere\nbidding:\n  nonsense: 1\n")
    code, out, _ = run(capsys, "validate", str(path))
    lines = out.splitlines()
    assert code == 2 and len(lines) == 2
    assert lines[0].startswith(f"{path}:1: extends: unknown variant 'nothere'")
    assert lines[1].startswith(f"{path}:3: bidding.nonsense: unknown key")


# --- compare ----------------------------------------------------------------------------------


def test_compare_table_statements_and_witnesses(capsys: Capsys) -> None:
    code, out, err = run(capsys, "compare", "italian", "spanish")
    assert code == 0 and err == ""
    italian, spanish = load_variant("italian"), load_variant("spanish")
    paths = differing_knobs(italian, spanish)
    table, rest = out.split("\n\n", 1)
    rows = table.splitlines()[2:]
    assert [r.split()[0] for r in rows] == paths
    for row, path in zip(rows, paths, strict=True):
        assert row.split()[1:] == [str(italian[path]).lower(), str(spanish[path]).lower()] or (
            path == "wild.name"
        )
    assert f"{len(paths)} rules differ, {len(KNOB_PATHS) - len(paths)} agree." in rest
    statements, witnesses = rest.split("Divergence witnesses, italian vs spanish", 1)
    for path in paths:
        assert f"\n{path}\n" in statements
        assert f"\n{path}  [" in witnesses
    assert " ".join(spanish.knob("calza.who").text.split()[:6]) in statements
    assert witnesses.count("confirmed in both engines") == len(paths) - 1
    assert f"{len(paths)} differing rules: {len(paths) - 1} confirmed by a witness, 1 proved" in out
    assert "illegal [bidding.wild_opening:" in witnesses


def test_compare_italian_bluff_confirms_or_proves_every_rule(
    capsys: Capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    from perudo_rules.base import output

    clock = [0.0]

    def tick() -> float:  # three seconds a call: every rule searched is a line of progress
        clock[0] += 3.0
        return clock[0]

    monkeypatch.setattr(output.time, "monotonic", tick)
    code, out, err = run(capsys, "compare", "italian", "bluff")
    assert code == 0
    paths = differing_knobs(load_variant("italian"), load_variant("bluff"))
    assert f"{len(paths)} differing rules: 11 confirmed by a witness, 9 proved to make " in out
    assert "not confirmed" not in out
    # Bluff's set-aside re-roll (issue 22): a legality difference, replayed in both engines
    assert "reroll.enabled  [legality, confirmed in both engines]" in out
    assert "sets 6 aside and re-rolls the rest" in out
    assert "calza.enabled  [legality, confirmed in both engines, together with calza.who]" in out
    assert "calza.who  [no difference in play, proved]" in out
    # progress goes to standard error, a line per rule searched
    lines = err.splitlines()
    assert lines and all(line.startswith("compare: italian vs bluff: ") for line in lines)
    assert f"({len(paths)} of {len(paths)})" in lines[-1]
    code, out, err = run(capsys, "compare", "italian", "bluff", "--json")
    assert code == 0 and err.startswith("compare: ")
    ws = json.loads(out)["witnesses"][0]["witnesses"]
    assert all(w["confirmed"] or w["proved"] for w in ws)
    assert next(w for w in ws if w["rule"] == "calza.enabled")["together"] == ["calza.who"]


def test_compare_all_and_json(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "compare", "italian", "spanish", "--all", "--no-witnesses")
    assert code == 0 and "Divergence" not in out
    table = out.split("\n\n", 1)[0].splitlines()[2:]
    assert [r.split()[0] for r in table] == list(KNOB_PATHS)
    assert any(r.split()[1] == "(same)" for r in table)
    code, out, _ = run(capsys, "compare", "italian", "spanish", "--json")
    data = json.loads(out)
    italian, spanish = load_variant("italian"), load_variant("spanish")
    assert [r["rule"] for r in data["rules"]] == differing_knobs(italian, spanish)
    assert data["differ"] + data["agree"] == len(KNOB_PATHS)
    (pair,) = data["witnesses"]
    assert pair["variants"] == ["italian", "spanish"]
    assert [w["rule"] for w in pair["witnesses"]] == differing_knobs(italian, spanish)
    assert all(w["confirmed"] for w in pair["witnesses"] if w["kind"] != "none")


def test_compare_three_variants(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("id: house\nextends: italian\ncalza:\n  enabled: false\n")
    code, out, _ = run(
        capsys, "compare", "italian", "spanish", str(path), "--json", "--max-dice", "1"
    )
    assert code == 0
    data = json.loads(out)
    assert data["variants"] == ["italian", "spanish", "house"]
    assert [p["variants"] for p in data["witnesses"]] == [
        ["italian", "spanish"],
        ["italian", "house"],
        ["spanish", "house"],
    ]
    calza = next(r for r in data["rules"] if r["rule"] == "calza.enabled")
    assert calza["values"] == {"italian": True, "spanish": True, "house": False}


def test_compare_bad_input(capsys: Capsys, tmp_path: Path) -> None:
    code, _, err = run(capsys, "compare", "italian")
    assert code == 2
    assert_one_line_error(err, "at least two variants")
    bad = tmp_path / "bad.yaml"
    bad.write_text(BROKEN["bad-yaml.yaml"][0])
    code, _, err = run(capsys, "compare", "italian", str(bad))
    assert code == 2
    assert_one_line_error(err, f"{bad}:4:")
    code, _, err = run(capsys, "compare", "italian", "spanish", "--max-dice", "0")
    assert code == 2
    assert_one_line_error(err, "--max-dice")


# --- check ------------------------------------------------------------------------------------


def test_check_all_legal(capsys: Capsys) -> None:
    code, out, err = run(capsys, "check", "spanish", "--bids", "8x4 5x1")
    assert code == 0 and err == ""
    assert "6 seats" in out and "30 in play" in out
    assert "All 2 bids legal." in out
    code, out, _ = run(capsys, "check", "spanish", "--bids", "8x4")
    assert code == 0 and "The bid is legal." in out and "All 1" not in out
    code, out, _ = run(capsys, "check", "spanish", "--bids", "2x1")
    assert code == 1 and "The bid is illegal." in out


def test_check_names_the_rule(capsys: Capsys) -> None:
    code, out, _ = run(capsys, "check", "spanish", "--bids", "2x1 8x4 3x4 5x1 9x4")
    assert code == 1
    rows = [line.split() for line in out.splitlines()[3:8]]
    assert [r[2] for r in rows] == ["2x1", "8x4", "3x4", "5x1", "9x4"]
    assert [r[1] for r in rows] == ["0", "0", "1", "1", "2"]  # a refused seat bids again
    assert rows[0][4:6] == ["ILLEGAL", "[bidding.wild_opening]"]
    assert rows[1][4] == "legal"
    assert rows[2][4:6] == ["ILLEGAL", "[bidding.order]"]
    assert rows[3][4] == "legal"
    assert rows[4][4:6] == ["ILLEGAL", "[bidding.wild_worth]"]
    spanish = load_variant("spanish")
    assert " ".join(spanish.knob("bidding.wild_opening").text.split()) in out
    assert "3 of 5 bids illegal." in out
    # the same opening is legal in the Italian edition
    assert run(capsys, "check", "italian", "--bids", "2x1")[0] == 0


def test_check_palifico(capsys: Capsys) -> None:
    args = ["--bids", "2x4 3x5", "--palifico", "--players", "3", "--dice", "1"]
    # seat 1 holds one die: the Italian exception lets it change the face, Spanish does not
    assert run(capsys, "check", "italian", *args)[0] == 0
    code, out, _ = run(capsys, "check", "spanish", *args)
    assert code == 1 and "[palifico.face_lock]" in out and "palifico round 1" in out
    code, out, _ = run(capsys, "check", "italian", "--bids", "1x1 2x1", "--palifico", "--json")
    data = json.loads(out)
    assert code == 0 and data["palifico"] and data["dice"][0] == 1


def test_check_round_and_json(capsys: Capsys) -> None:
    house = ["--bids", "1x1", "--players", "2", "--dice", "2"]
    code, out, _ = run(capsys, "check", "spanish", *house, "--json")
    data = json.loads(out)
    assert code == 1 and data["legal"] is False
    assert data["bids"][0] == {
        "index": 1,
        "seat": 0,
        "bid": "1x1",
        "standing": None,
        "legal": False,
        "rule": "bidding.wild_opening",
        "reason": "no bid on the wild face as the opening bid",
        "message_id": "no-wild-opening",
        "params": {},
        "message": "no bid on the wild face as the opening bid",  # in --lang
        "statement": "The opening bid of a round may not be on Pacos.",
        "source": "Pujar por Paco",
        "quote": "No pujar durante la primera ronda",
    }
    assert data["rulebook"] == "Perudo, reglas del juego (Spanish)"
    assert data["dice"] == [2, 2]
    code, out, _ = run(capsys, "check", "spanish", "--bids", "5x4", *house[2:], "--json")
    assert code == 1 and json.loads(out)["bids"][0]["rule"] == "bidding.quantity_cap"


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["check", "italian", "--bids", "8y4"], "not a bid: '8y4'"),
        (["check", "italian", "--bids", " "], "no bids"),
        (["check", "italian", "--bids", "1x2", "--players", "9"], "9 seats"),
        (["check", "italian", "--bids", "1x2", "--dice", "6"], "6 dice"),
        (["check", "italian", "--bids", "1x2", "--dice", "0"], "--dice"),
        (["check", "italian", "--bids", "1x2", "--round", "0"], "rounds are numbered"),
    ],
)
def test_check_bad_input(capsys: Capsys, argv: list[str], needle: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert_one_line_error(err, needle)


def test_check_round_number_and_palifico_switch(capsys: Capsys, tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text(
        "id: house\nextends: italian\nbidding:\n  wild_opening: not_in_first_round\n"
        "palifico:\n  enabled: false\n"
    )
    code, out, _ = run(capsys, "check", str(path), "--bids", "3x4 2x1")
    assert code == 1 and "[bidding.wild_opening] no bid on the wild face in the first round" in out
    assert run(capsys, "check", str(path), "--bids", "3x4 2x1", "--round", "2")[0] == 0
    code, _, err = run(capsys, "check", str(path), "--bids", "1x2", "--palifico")
    assert code == 2
    assert_one_line_error(err, "no palifico rounds")


# --- the real entry point ---------------------------------------------------------------------


def test_python_dash_m_entry_point(tmp_path: Path) -> None:
    ok = subprocess.run(
        [sys.executable, "-m", "perudo_rules", "check", "spanish", "--bids", "8x4", "4x1"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ok.returncode == 0, ok.stderr
    assert "All 2 bids legal." in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "perudo_rules", "show", str(tmp_path / "missing.yaml")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert_one_line_error(bad.stderr, "no such variant file")


def test_check_from_a_position_file(capsys: Capsys, tmp_path: Path) -> None:
    # the JSON shape of a position plus actions: seat 1 opens, seat 2 raises, then the bids
    path = tmp_path / "pos.json"
    position = {
        "variant": "italian",
        "round": 2,
        "first_player": 1,
        "dice": [[2, 3], [4, 4, 5], [1]],
        "actions": ["1:2x4", "2: bid 3x4"],
    }
    path.write_text(json.dumps(position), encoding="utf-8")
    code, out, _ = run(capsys, "check", "italian", "--position", str(path), "--bids", "3x4 4x4")
    assert code == 1 and "seat 1 opens, after 2 steps" in out
    code, out, _ = run(
        capsys, "check", "italian", "--position", str(path), "--bids", "3x4 4x4", "--json"
    )
    data = json.loads(out)
    assert [b["seat"] for b in data["bids"]] == [0, 0]
    assert [b["legal"] for b in data["bids"]] == [False, True]
    # the position reached, in the same shape: the file's actions plus the bids that stood
    assert data["position"]["actions"] == ["1:2x4", "2:3x4", "0:4x4"]
    assert data["position"]["dice"] == position["dice"] and data["position"]["round"] == 2
    for bad, needle in [
        ({"dice": [[1], [2]]}, "missing required key 'first_player'"),
        ({**position, "actions": ["1:2y4"]}, "actions.0: not an action"),
        ({**position, "extra": 1}, "extra: unknown key"),
    ]:
        path.write_text(json.dumps(bad), encoding="utf-8")
        code, _, err = run(capsys, "check", "italian", "--position", str(path), "--bids", "5x4")
        assert code == 2 and needle in err, err
    # a position written for another edition is played under the one asked for, and said so
    path.write_text(json.dumps({**position, "variant": "spanish"}), encoding="utf-8")
    code, out, err = run(capsys, "check", "italian", "--position", str(path), "--bids", "5x4")
    assert code == 0 and err == "", err
    assert "The position was written for spanish; it is checked under italian." in out
    code, out, _ = run(
        capsys, "check", "italian", "--position", str(path), "--bids", "5x4", "--json"
    )
    assert json.loads(out)["written_for"] == "spanish"
    code, _, err = run(
        capsys, "check", "italian", "--position", str(path), "--players", "3", "--bids", "5x4"
    )
    assert code == 2 and "--position replaces" in err
    path.write_bytes(b"{" + b" " * (1 << 20) + b"}")
    code, _, err = run(capsys, "check", "italian", "--position", str(path), "--bids", "5x4")
    assert code == 2 and "file too large" in err
    code, _, err = run(capsys, "check", "italian", "--position", "nowhere.json", "--bids", "5x4")
    assert code == 2 and "nowhere.json: cannot read the position" in err


def test_check_takes_calls(capsys: Capsys, tmp_path: Path) -> None:
    # an illegal call is a verdict (exit 1) naming its rule, like an illegal bid
    code, out, _ = run(capsys, "check", "italian", "--players", "3", "--bids", "3x4 calza")
    assert code == 1 and "ILLEGAL [calza.who]" in out and "1 of 2 actions illegal." in out
    code, out, _ = run(capsys, "check", "italian", "--players", "3", "--bids", "dudo")
    assert code == 1 and "[play.bid_needed]" in out and "The action is illegal." in out
    # a call by another seat, written with its seat; a fresh round's dice are placeholders
    code, out, _ = run(capsys, "check", "italian", "--players", "3", "--bids", "3x4, 2:calza")
    assert code == 0 and "All 2 actions legal." in out and "--position to see how" in out
    # from a position with real dice: the outcome, as the table is told it
    path = tmp_path / "pos.json"
    position = {"variant": "italian", "first_player": 0, "dice": [[4, 1], [2, 3], [4, 6]]}
    path.write_text(json.dumps(position), encoding="utf-8")
    code, out, _ = run(capsys, "check", "italian", "--position", str(path), "--bids", "3x4 dudo")
    assert code == 0 and "3 seats holding 2 2 2 dice (6 in play)" in out
    assert "Seat 1 calls dudo on 3x4 by seat 0: 3 dice count in the lifted cups" in out
    assert "seat 1 loses a die (1 left)" in out
    code, out, _ = run(
        capsys, "check", "italian", "--position", str(path), "--bids", "3x4 dudo", "--json"
    )
    assert json.loads(out)["position"]["actions"] == ["0:3x4", "1:dudo"]
    # nothing after the call: the round is over (bad input, exit 2)
    code, _, err = run(capsys, "check", "italian", "--bids", "3x4 dudo 4x4")
    assert code == 2 and "the round is over" in err
