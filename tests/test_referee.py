"""The referee: valid records, every kind of violation, malformed input, the CLI."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from perudo_rules import Game, RecordError, load_variant, referee, to_record
from perudo_rules.base.actions import parse_action
from perudo_rules.cli import main
from tests.test_record import play

DICE = [[1, 2, 3, 4, 5], [2, 2, 3, 6, 6], [4, 4, 5, 5, 6]]


def record_of(
    actions: Sequence[str],
    variant: str = "italian",
    dice: Sequence[Sequence[int]] = DICE,
    first: int = 0,
    **start: Any,
) -> dict[str, Any]:
    """The record of a legal game from an explicit position (built by the engine)."""
    game = Game.start(load_variant(variant), dice, first, **start)
    for text in actions:
        game = game.apply(parse_action(text))
    return to_record(game, full=True)


def finished(seed: int = 1, variant: str = "italian", players: int = 3) -> dict[str, Any]:
    game = play(Game.new(load_variant(variant), players, seed=seed), seed)
    assert game.is_over
    return to_record(game, full=True)


def two_rounds() -> dict[str, Any]:
    """Round 1 ends with seat 1 losing a Dudo; round 2 has begun."""
    game = Game.start(load_variant("italian"), DICE, 0)
    for text in ("0:3x4", "1:dudo"):
        game = game.apply(parse_action(text))
    assert game.last_result is not None and game.last_result.loser == 1
    game = game.roll(dice=[[6, 6, 6, 6, 6], [3, 3, 3, 3], [2, 2, 2, 2, 2]])
    return to_record(game.apply(parse_action("1:2x3")), full=True)


def test_valid_finished_game() -> None:
    rec = finished(seed=2)
    verdict = referee(rec)
    assert verdict.valid and bool(verdict)
    assert verdict.violation is None
    assert verdict.winner == rec["winner"] is not None
    assert verdict.variant == "italian" and verdict.seats == 3
    assert len(verdict.rounds) == len(rec["rounds"])
    for summary, rnd in zip(verdict.rounds, rec["rounds"], strict=True):
        assert summary.round == rnd["round"]
        assert summary.first_player == rnd["first_player"]
        assert summary.dice_counts == tuple(len(c) for c in rnd["dice"])
        assert summary.actions == len(rnd["actions"])
        assert f"seat {rnd['result']['caller']}" in summary.outcome
    assert verdict.headline().startswith(f"valid: seat {verdict.winner} wins")


@pytest.mark.parametrize("variant", ["italian", "spanish", "openspiel-liars-dice"])
@pytest.mark.parametrize("seed", range(8))
def test_engine_games_are_valid(variant: str, seed: int) -> None:
    players = 2 if variant == "openspiel-liars-dice" else 2 + seed % 5
    verdict = referee(finished(seed, variant, players))
    assert verdict.valid, verdict.violation


def test_unfinished_game_is_valid_without_a_winner() -> None:
    verdict = referee(two_rounds())
    assert verdict.valid and verdict.winner is None and not verdict.finished
    assert [r.round for r in verdict.rounds] == [1, 2]
    assert "unfinished; seat 2 to move" in verdict.rounds[1].outcome
    assert "seat 1 loses a die" in verdict.rounds[0].outcome


def bad(rec: dict[str, Any], change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    out = copy.deepcopy(rec)
    change(out)
    return out


def set_actions(rnd: int, actions: list[str]) -> Callable[[dict[str, Any]], None]:
    def change(r: dict[str, Any]) -> None:
        r["rounds"][rnd]["actions"] = actions
        r["rounds"][rnd].pop("result", None)
        r["winner"] = None

    return change


BASE = record_of([])

CASES: dict[str, tuple[dict[str, Any], int, int, str | None, str]] = {
    # name: (record, round, step, action, rule)
    "wrong seat bids": (bad(BASE, set_actions(0, ["1:2x3"])), 1, 1, "1:2x3", "play.turn"),
    "bid too low": (
        bad(BASE, set_actions(0, ["0:3x4", "1:2x4"])),
        1,
        2,
        "1:2x4",
        "bidding.order",
    ),
    "same bid again": (
        bad(BASE, set_actions(0, ["0:3x4", "1:3x4"])),
        1,
        2,
        "1:3x4",
        "bidding.order",
    ),
    "too few wilds": (
        bad(BASE, set_actions(0, ["0:5x4", "1:2x1"])),
        1,
        2,
        "1:2x1",
        "bidding.wild_worth",
    ),
    "calza by the bidder": (
        bad(BASE, set_actions(0, ["0:3x4", "0:calza"])),
        1,
        2,
        "0:calza",
        "calza.who",
    ),
    "calza by the next player": (
        bad(BASE, set_actions(0, ["0:3x4", "1:calza"])),
        1,
        2,
        "1:calza",
        "calza.who",
    ),
    "dudo out of turn": (
        bad(BASE, set_actions(0, ["0:3x4", "2:dudo"])),
        1,
        2,
        "2:dudo",
        "challenge.who",
    ),
    "dudo before any bid": (
        bad(BASE, set_actions(0, ["0:dudo"])),
        1,
        1,
        "0:dudo",
        "play.bid_needed",
    ),
    "more dice than in play": (
        bad(BASE, set_actions(0, ["0:16x4"])),
        1,
        1,
        "0:16x4",
        "bidding.quantity_cap",
    ),
    "face off the die": (bad(BASE, set_actions(0, ["0:3x7"])), 1, 1, "0:3x7", "play.bid_range"),
    "no such seat": (
        bad(BASE, set_actions(0, ["0:3x4", "9:dudo"])),
        1,
        2,
        "9:dudo",
        "play.seat",
    ),
    "action after the round ended": (
        bad(BASE, set_actions(0, ["0:3x4", "1:dudo", "1:3x4"])),
        1,
        3,
        "1:3x4",
        "play.roll",
    ),
    "die face out of range": (
        bad(BASE, lambda r: r["rounds"][0]["dice"][2].__setitem__(0, 7)),
        1,
        0,
        None,
        "play.roll",
    ),
    "die face zero": (
        bad(BASE, lambda r: r["rounds"][0]["dice"][1].__setitem__(4, 0)),
        1,
        0,
        None,
        "play.roll",
    ),
    "short starting cup": (
        bad(BASE, lambda r: r["rounds"][0]["dice"][1].pop()),
        1,
        0,
        None,
        "dice.per_player",
    ),
    "cup missing": (bad(BASE, lambda r: r["rounds"][0]["dice"].pop()), 1, 0, None, "play.roll"),
    "first round numbered 2": (
        bad(BASE, lambda r: r["rounds"][0].__setitem__("round", 2)),
        2,
        0,
        None,
        "play.roll",
    ),
    "first round palifico": (
        bad(BASE, lambda r: r["rounds"][0].__setitem__("palifico", True)),
        1,
        0,
        None,
        "palifico.trigger",
    ),
    "too many seats": (
        bad(
            BASE,
            lambda r: (
                r.__setitem__("seats", 7),
                r["rounds"][0].__setitem__("dice", [[1] * 5] * 7),
            ),
        ),
        1,
        0,
        None,
        "players.max",
    ),
    "dice count ignores the loss": (
        bad(two_rounds(), lambda r: r["rounds"][1]["dice"][1].append(4)),
        2,
        0,
        None,
        "play.roll",
    ),
    "wrong opener after dudo": (
        bad(two_rounds(), lambda r: r["rounds"][1].__setitem__("first_player", 0)),
        2,
        0,
        None,
        "round.starter",
    ),
    "rounds skipped": (
        bad(two_rounds(), lambda r: r["rounds"][1].__setitem__("round", 5)),
        5,
        0,
        None,
        "play.roll",
    ),
    "palifico claimed": (
        bad(two_rounds(), lambda r: r["rounds"][1].__setitem__("palifico", True)),
        2,
        0,
        None,
        "palifico.trigger",
    ),
    "new round before the last ended": (
        bad(
            two_rounds(), lambda r: (r["rounds"][0]["actions"].pop(), r["rounds"][0].pop("result"))
        ),
        2,
        0,
        None,
        "play.roll",
    ),
    "wrong loser stated": (
        bad(two_rounds(), lambda r: r["rounds"][0]["result"].__setitem__("loser", 0)),
        1,
        0,
        None,
        "play.dudo",
    ),
    "wrong count stated": (
        bad(two_rounds(), lambda r: r["rounds"][0]["result"].__setitem__("count", 9)),
        1,
        0,
        None,
        "play.count",
    ),
    "winner of an unfinished game": (
        bad(two_rounds(), lambda r: r.__setitem__("winner", 2)),
        2,
        0,
        None,
        "play.elimination",
    ),
    "wild opening bid (spanish)": (
        record_of([], "spanish")
        | {"rounds": [{**record_of([], "spanish")["rounds"][0], "actions": ["0:2x1"]}]},
        1,
        1,
        "0:2x1",
        "bidding.wild_opening",
    ),
    "calza where there is none": (
        bad(
            record_of([], "openspiel-liars-dice", [[3], [5]]),
            set_actions(0, ["0:1x3", "1:calza"]),
        ),
        1,
        2,
        "1:calza",
        "calza.enabled",
    ),
    "seat 1 opens a seat-zero game": (
        bad(
            record_of([], "openspiel-liars-dice", [[3], [5]]),
            lambda r: r["rounds"][0].__setitem__("first_player", 1),
        ),
        1,
        0,
        None,
        "setup.first_player",
    ),
    "palifico face changed": (
        bad(
            record_of([], "spanish", [[3], [2, 2], [5, 5]], palifico=True),
            set_actions(0, ["0:1x3", "1:2x4"]),
        ),
        1,
        2,
        "1:2x4",
        "palifico.face_lock",
    ),
    "seat that is out acts": (
        bad(
            record_of([], "italian", [[3, 3], [2, 2], []], round=4),
            set_actions(0, ["0:1x3", "2:calza"]),
        ),
        4,
        2,
        "2:calza",
        "play.seat",
    ),
}


def game_continues(rec: dict[str, Any]) -> None:
    nxt = copy.deepcopy(rec["rounds"][-1])
    nxt["round"] += 1
    nxt.pop("result")
    nxt["actions"] = []
    rec["rounds"].append(nxt)


REASONS = {
    "die face out of range": "seat 2 shows 7, not a face of a d6",
    "die face zero": "seat 1 shows 0",
    "dice count ignores the loss": "seat 1 rolls 5 dice, but holds 4 after round 1",
    "wrong opener after dudo": "seat 1 opens this round, not seat 0",
    "short starting cup": "seat 1 starts with 4 dice, not 5",
    "too many seats": "7 seats; italian plays with 2 to 6",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_violation(name: str) -> None:
    rec, round_, step, action, rule = CASES[name]
    verdict = referee(json.loads(json.dumps(rec)))
    assert not verdict.valid
    v = verdict.violation
    assert v is not None
    assert (v.round, v.step, v.action, v.rule) == (round_, step, action, rule), v
    assert v.reason and "\n" not in v.reason
    assert REASONS.get(name, "") in v.reason
    assert verdict.winner is None
    assert verdict.headline() == f"violation: {v}"


def test_game_continuing_after_the_end() -> None:
    rec = finished(seed=3)
    game_continues(rec)
    v = referee(rec).violation
    assert v is not None and v.rule == "play.game_over" and v.step == 0
    assert v.round == rec["rounds"][-1]["round"]
    assert f"seat {rec['winner']} had won" in v.reason


def test_wrong_winner() -> None:
    rec = finished(seed=3)
    rec["winner"] = (rec["winner"] + 1) % 3
    v = referee(rec).violation
    assert v is not None and v.rule == "play.elimination"


def test_result_stated_for_an_unfinished_round() -> None:
    rec = bad(two_rounds(), lambda r: r["rounds"][0]["actions"].pop())
    v = referee(rec).violation
    assert v is not None and (v.round, v.step, v.rule) == (1, 0, "play.dudo")
    assert "did not end" in v.reason


def test_violation_summary_stops_before_the_bad_round() -> None:
    rec = bad(two_rounds(), lambda r: r["rounds"][1].__setitem__("first_player", 0))
    verdict = referee(rec)
    assert [r.round for r in verdict.rounds] == [1]


MALFORMED: dict[str, Callable[[dict[str, Any]], object]] = {
    "not a record": lambda r: r.clear(),
    "unknown key": lambda r: r.__setitem__("colour", "red"),
    "seats as text": lambda r: r.__setitem__("seats", "3"),
    "unknown variant": lambda r: r.__setitem__("variant", "klingon"),
    "bad action text": lambda r: r["rounds"][0].__setitem__("actions", ["0 bids 3x4"]),
    "action with a newline": lambda r: r["rounds"][0].__setitem__("actions", ["0:3x4\n"]),
    "dice as a string": lambda r: r["rounds"][0].__setitem__("dice", "12345"),
    "no rounds": lambda r: r.__setitem__("rounds", []),
    "wrong version": lambda r: r.__setitem__("version", 2),
    "embedded variant inconsistent": lambda r: r.__setitem__(
        "variant", {"extends": "italian", "name": "x", "wild": {"face": 9}}
    ),
    "embedded variant unknown knob": lambda r: r.__setitem__(
        "variant", {"extends": "italian", "name": "x", "dice": {"colour": "red"}}
    ),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_records_raise_record_error(name: str) -> None:
    rec = bad(BASE, MALFORMED[name])
    with pytest.raises(RecordError) as err:
        referee(rec)
    assert "\n" not in str(err.value)


def test_cli_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(finished(seed=4)))
    assert main(["referee", str(good)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("valid: seat ") and "outcome" in out

    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(CASES["bid too low"][0]))
    assert main(["referee", str(wrong)]) == 1
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        "violation: round 1, step 2 (1:2x4): 2x4 does not raise the standing bid 3x4 "
        "[bidding.order]"
    )
    assert main(["referee", "--json", str(wrong)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is False and data["violation"]["rule"] == "bidding.order"

    broken = tmp_path / "broken.json"
    broken.write_text('{"format": ')
    assert main(["referee", str(broken)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid JSON" in err and str(broken) in err
    assert main(["referee", str(tmp_path / "missing.json")]) == 2
    assert "no such record file" in capsys.readouterr().err


def test_cli_in_a_fresh_process(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text(json.dumps(bad(BASE, MALFORMED["seats as text"])))
    proc = subprocess.run(
        [sys.executable, "-m", "perudo_rules", "referee", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("perudo-rules: error: ") and proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr and "seats" in proc.stderr


def test_simulated_games_pass_the_referee(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "records"
    args = ["simulate", "italian", "spanish", "--games", "3", "--players", "4", "--seed", "2"]
    assert main([*args, "--save-records", str(out)]) == 0
    files = sorted(out.glob("*.json"))
    assert len(files) == 6
    capsys.readouterr()
    for f in files:
        assert main(["referee", "-q", str(f)]) == 0
        assert capsys.readouterr().out.startswith("valid: seat ")


@pytest.mark.parametrize(
    ("field", "stated", "message_id", "said"),
    [
        ("loser", None, "record-result-loser-none", "no seat loses a die, but by the rules seat 0"),
        ("gainer", 1, "record-result-gainer-extra", "seat 1 gains a die, but by the rules nobody"),
        ("next_player", None, "record-result-next-player-none",
         "nobody opens a next round, but by the rules seat 0 does"),
    ],
)
def test_a_result_naming_no_seat_or_a_seat_too_many_is_said_without_null(
    field: str, stated: int | None, message_id: str, said: str
) -> None:
    """A record's result that names no seat where the rules name one (or the other way
    round) is told in its own sentence, in every language: never 'seat null'."""
    game = Game.start(load_variant("italian"), [[2, 3], [4, 4, 4]], first_player=0)
    done = game.apply(parse_action("0:3x2")).apply(parse_action("1:dudo"))  # one 2: 0 loses
    record = Game.to_json(done)["record"]
    record["rounds"][0]["result"][field] = stated
    verdict = referee(record)
    assert verdict.violation is not None
    refusal = verdict.violation.refusal
    assert refusal.message_id == message_id and said in refusal.text()
    for lang in ("en", "it", "es"):
        assert "null" not in refusal.text(lang) and "None" not in refusal.text(lang)
