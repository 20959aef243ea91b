"""``perudo-rules claim``: the claims an engine's ``hello`` sends, ready to paste."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from perudo_rules import load_variant
from perudo_rules.cli import main
from perudo_rules.cli.claim import merge_claims
from perudo_rules.conform.protocol import ANY, claim_covers, claims_problem, harness_schema
from perudo_rules.editions.variantfile import available_variants

ROOT = Path(__file__).resolve().parent.parent
Capsys = pytest.CaptureFixture[str]
HELLO = jsonschema.Draft202012Validator(
    {**harness_schema(), "$ref": "#/$defs/reply/anyOf/0"}
)


def _claims(capsys: Capsys, *argv: str) -> list[dict[str, Any]]:
    assert main(["claim", *argv]) == 0
    out = capsys.readouterr().out
    claims: list[dict[str, Any]] = json.loads(out)
    assert claims_problem(claims) is None
    HELLO.validate({"name": "my engine", "claims": claims})
    return claims


def test_one_exact_claim_per_edition(capsys: Capsys) -> None:
    editions = available_variants()
    claims = _claims(capsys, *editions)
    assert len(claims) == len(editions)
    for vid, claim in zip(editions, claims, strict=True):
        values = load_variant(vid).values()
        assert claim == values  # exact: every knob with the edition's value
        assert claim_covers([claim], values)
        others = [v for v in editions if load_variant(v).values() != values]
        assert not any(claim_covers([claim], load_variant(v).values()) for v in others)


def test_an_edition_file_and_free_knobs(capsys: Capsys) -> None:
    path = ROOT / "variants" / "spanish.yaml"
    claims = _claims(capsys, str(path), "--free", "dice.per_player", "--free", "players.max")
    (claim,) = claims
    assert claim["dice.per_player"] == ANY and claim["players.max"] == ANY
    spanish = load_variant("spanish").values()
    assert claim_covers(claims, spanish)
    assert claim_covers(claims, dict(spanish, **{"dice.per_player": 3, "players.max": 9}))


def test_merge_folds_the_editions_into_one_claim(capsys: Capsys) -> None:
    claims = _claims(capsys, "italian", "spanish", "--merge")
    assert len(claims) == 1
    for vid in ("italian", "spanish"):
        assert claim_covers(claims, load_variant(vid).values())
    italian, spanish = load_variant("italian"), load_variant("spanish")
    (claim,) = claims
    for path, value in claim.items():
        if italian[path] == spanish[path]:
            assert value == italian[path], path
        else:
            assert value == [italian[path], spanish[path]], path


def test_merge_keeps_any_and_one_value_where_all_agree() -> None:
    merged = merge_claims([{"a": 1, "dice.faces": 6}, {"dice.faces": ANY}])
    assert merged == {"dice.faces": ANY}
    merged = merge_claims([{"dice.faces": 6}, {"dice.faces": [6, 8]}, {"dice.faces": 6}])
    assert merged == {"dice.faces": [6, 8]}
    # True is not 1
    assert merge_claims([{"calza.gain_cap": 1}, {"calza.gain_cap": True}]) == {
        "calza.gain_cap": [1, True]
    }


def test_a_merge_covering_an_edition_not_given_is_refused(capsys: Capsys, tmp_path: Path) -> None:
    """Two house rules of the Italian edition, each changing another knob: their merged
    claim also covers the Italian edition itself, which an engine would then be held to."""
    one, two = tmp_path / "one.yaml", tmp_path / "two.yaml"
    one.write_text("id: one\nname: One\nextends: italian\ncalza:\n  who: anyone\n")
    two.write_text("id: two\nname: Two\nextends: italian\ndice:\n  faces: 8\n")
    assert main(["claim", str(one), str(two), "--merge"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and "italian" in err and "--merge" in err
    # given too, it merges
    (claim,) = _claims(capsys, str(one), str(two), "italian", "--merge")
    assert claim["dice.faces"] == [6, 8]


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["nosuch"], "nosuch"),
        (["italian", "--free", "dice.nope"], "dice.nope"),
        (["italian", "--free", "dice"], "dice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys: Capsys, argv: list[str], needle: str) -> None:
    assert main(["claim", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and needle in err
    assert err.startswith("perudo-rules: error: ")


def test_no_edition_is_a_usage_error(capsys: Capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["claim"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.count("\n") <= 2


def test_errors_speak_the_language_asked(capsys: Capsys) -> None:
    assert main(["--lang", "it", "claim", "italian", "--free", "dice.nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("perudo-rules: errore: ") and "regola variabile" in err
    assert main(["--lang", "es", "claim", "italian", "--free", "dice.nope"]) == 2
    assert "regla ajustable" in capsys.readouterr().err
