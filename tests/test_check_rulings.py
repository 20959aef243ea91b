"""A resolved Dudo or Calza in ``check`` cites the rules that decided it (issue 32, item
1): the deciding rule of each field of the outcome, from the kernel's decision trace, with
its statement, section and words, in the reader's language."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
