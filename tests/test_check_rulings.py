"""A resolved Dudo or Calza in ``check`` cites the rules that decided it (issue 32, item
1): the deciding rule of each field of the outcome, from the kernel's decision trace, with
its statement, section and words, in the reader's language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from perudo_rules import Bid, Dudo, Game, load_variant
from perudo_rules.cli import main


def _check(capsys: pytest.CaptureFixture[str], tmp_path: Path, position: dict[str, object],
           bids: str, *extra: str) -> str:  # fmt: skip
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position))
    capsys.readouterr()
    main([*extra, "check", "italian", "--position", str(path), "--bids", bids])
    return capsys.readouterr().out


def _decided(out: str) -> list[str]:
    lines = out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.endswith(":") and i > 2 and "  " not in x)
    return [x.strip().split(":", 1)[0] for x in lines[start + 1 :] if x.startswith("  ")]


def test_an_exact_dudo_cites_the_exact_rule(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:  # fmt: skip
    out = _check(capsys, tmp_path, {"dice": [[5, 5], [1, 3]], "first_player": 0}, "3x5 dudo")
    assert _decided(out)[0] == "challenge.exact", out


def test_a_refused_second_palifico_cites_once_per_player(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pos = {"dice": [[2, 2], [6]], "first_player": 0, "palifico_used": [0]}
    out = _check(capsys, tmp_path, pos, "3x5 dudo")
    assert _decided(out) == ["play.dudo", "round.starter", "palifico.once_per_player"], out
    assert "«una sola volta in ogni partita»" in out  # the rulebook's own words


@pytest.mark.parametrize(("lang", "head"), [("it", "Deciso da queste regole:"),
                                            ("es", "Decidido por estas reglas:")])  # fmt: skip
def test_the_ruling_is_in_the_readers_language(
    lang: str, head: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    pos = {"dice": [[2, 2], [6]], "first_player": 0, "palifico_used": [0]}
    out = _check(capsys, tmp_path, pos, "3x5 dudo", "--lang", lang)
    assert head in out and "palifico.once_per_player" in out, out
    assert "Each player may be Palifico" not in out  # the statement is translated


def test_the_json_names_the_deciding_rules(capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path) -> None:  # fmt: skip
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"dice": [[3], [6]], "first_player": 0}))
    capsys.readouterr()
    main(["check", "italian", "--position", str(path), "--bids", "2x4 dudo", "--json"])
    data = json.loads(capsys.readouterr().out)
    rules = [c["rule"] for c in data["bids"][-1]["decided_by"]]
    assert rules == ["play.dudo", "play.elimination", "end.condition"], rules
    assert data["bids"][-1]["decided_by"][2]["source"] == "Vittoria"


def _check_under(capsys: pytest.CaptureFixture[str], tmp_path: Path, edition: str,
                 position: dict[str, object], bids: str) -> tuple[int, dict[str, Any]]:  # fmt: skip
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(position))
    capsys.readouterr()
    code = main(["check", edition, "--position", str(path), "--bids", bids, "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("edition", ["italian", "italian-literal", "spanish", "spanish-literal"])
def test_one_position_is_checked_under_any_edition_its_seats_allow(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, edition: str
) -> None:
    """A position written for the Italian edition, checked under another edition: its dice
    and moves are played by that edition's rules, and the output says whose file it was."""
    pos = {"variant": "italian", "dice": [[1], [3, 4], [2, 2, 5]], "first_player": 0,
           "palifico": True}  # fmt: skip
    code, data = _check_under(capsys, tmp_path, edition, pos, "1x2 2x2 dudo")
    assert data["variant"] == edition
    assert data["written_for"] == (None if edition == "italian" else "italian")
    game = Game.start(load_variant(edition), pos["dice"], first_player=0,  # type: ignore[arg-type]
                      palifico=True)  # fmt: skip
    for verdict, action in zip(data["bids"], (Bid(0, 1, 2), Bid(1, 2, 2), Dudo(2)), strict=False):
        bad = game.violation(action)
        assert verdict["legal"] == (bad is None), (edition, verdict)
        assert verdict["rule"] == (None if bad is None else bad.rule)
        if bad is not None:
            break
        game = game.apply(action)
    assert code == (0 if all(v["legal"] for v in data["bids"]) else 1)


@pytest.mark.parametrize(
    ("edition", "palifico", "why"),
    [
        ("openspiel-liars-dice", False, "3 seats; openspiel-liars-dice plays with exactly 2"),
        ("bluff", True, "bluff has no palifico rounds"),
        ("mso-perudo", True, "mso-perudo has no palifico rounds"),
    ],
)
def test_a_position_another_edition_cannot_play_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, edition: str, palifico: bool, why: str
) -> None:
    path = tmp_path / "pos.json"
    path.write_text(json.dumps({"variant": "italian", "dice": [[1], [3, 4], [2, 2, 5]],
                                "first_player": 0, "palifico": palifico}))  # fmt: skip
    capsys.readouterr()
    assert main(["check", edition, "--position", str(path), "--bids", "1x2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and why in err, err


@pytest.mark.parametrize(
    ("edition", "message_id", "reason"),
    [
        ("spanish", "no-wild-opening", "no bid on the wild face as the opening bid"),
        ("spanish-literal", "no-wild-first-round", "no bid on the wild face in the first round"),
    ],
)
def test_each_reading_refuses_an_opening_paco_with_its_own_reason(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, edition: str, message_id: str,
    reason: str,
) -> None:  # fmt: skip
    """Spanish: no opening bid on Pacos; read literally, no Paco bid in the first round of
    the game at all: each refusal says its own reading's reason."""
    pos = {"dice": [[1, 2, 3], [4, 5, 6]], "first_player": 0}
    code, data = _check_under(capsys, tmp_path, edition, pos, "1x1")
    (verdict,) = data["bids"]
    assert code == 1 and verdict["rule"] == "bidding.wild_opening"
    assert (verdict["message_id"], verdict["reason"]) == (message_id, reason)
    # in a later round the literal reading allows an opening Paco; ours still does not
    code, data = _check_under(capsys, tmp_path, edition, {**pos, "round": 2}, "1x1")
    assert data["bids"][0]["legal"] == (edition == "spanish-literal")
