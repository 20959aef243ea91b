"""Forged redacted records get the referee's documented answers (issue 33, item 7).

A redacted record (``to_record(game, viewer=seat)``) hides a cup whole or not at all,
never its viewer's own dice, and in a roll only the dice of the seat whose re-roll came
just before. A ``null`` anywhere else is refused as a :class:`RecordError` naming its key
path (it used to escape as an ``ActionSyntaxError``, or to be read with faces the referee
made up); a rule broken by a forged step is a violation that quotes the step as the file
writes it, never with the faces the referee puts under hidden dice to follow the round.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perudo_rules import Bid, Game, RecordError, Reroll, load_variant, referee, to_record
from perudo_rules.cli import main
from tests.strategies import choose

Forgery = Callable[[dict[str, Any]], None]


def _rerolled() -> dict[str, Any]:
    """Bluff, redacted for seat 1: seat 0 set a 5 aside and re-rolled four dice unseen."""
    game = Game.start(
        load_variant("bluff"), [[2, 6, 6, 5, 6], [2, 5, 6, 5, 3], [1, 3, 4, 6, 6]], first_player=2
    )
    game = game.apply(Bid(2, 10, 4)).apply(Reroll(0, (5,))).roll(dice=[[3, 6, 5, 6], [], []])
    record = json.loads(json.dumps(to_record(game, viewer=1)))
    assert record["rounds"][0]["actions"][2] == "roll [[null, null, null, null], [], []]"
    return record


def _actions(record: dict[str, Any]) -> list[str]:
    actions: list[str] = record["rounds"][0]["actions"]
    return actions


FORGERIES: dict[str, tuple[Forgery, str, str]] = {
    # name: (the forgery, the key path refused, the words that say why)
    "an extra roll step, its dice hidden": (
        lambda r: _actions(r).insert(3, "roll [[null, null, null, null], [], []]"),
        "rounds.0.actions.3",
        "no re-roll precedes",
    ),
    "a hidden roll opening the round": (
        lambda r: _actions(r).insert(0, "roll [[null], [], []]"),
        "rounds.0.actions.0",
        "no re-roll precedes",
    ),
    "a null die for a seat that did not re-roll": (
        lambda r: _actions(r).__setitem__(2, "roll [[null, null, null, null], [], [null]]"),
        "rounds.0.actions.2",
        "seat 2 did not re-roll here",
    ),
    "a re-rolled cup hidden in part": (
        lambda r: _actions(r).__setitem__(2, "roll [[null, 4, null, null], [], []]"),
        "rounds.0.actions.2",
        "seat 0's cup is hidden whole or not at all, not 3 of its 4 dice",
    ),
    "a cup hidden in part": (
        lambda r: r["rounds"][0]["dice"].__setitem__(2, [1, None, 4, 6, 6]),
        "rounds.0.dice.2",
        "seat 2's cup is hidden whole or not at all, not 1 of its 5 dice",
    ),
    "the viewer's own cup hidden": (
        lambda r: r["rounds"][0]["dice"].__setitem__(1, [None] * 5),
        "rounds.0.dice.1",
        "seat 1's, yet it hides that seat's own dice",
    ),
}


@pytest.mark.parametrize("name", FORGERIES, ids=list(FORGERIES))
def test_a_null_no_redaction_writes_is_a_record_error_at_its_key_path(name: str) -> None:
    forge, key_path, why = FORGERIES[name]
    record = _rerolled()
    assert referee(record).valid
    forge(record)
    with pytest.raises(RecordError) as caught:
        referee(record)
    assert caught.value.key_path == key_path
    assert why in str(caught.value) and "\n" not in str(caught.value)


def test_the_viewer_s_own_roll_hidden_is_a_record_error() -> None:
    record = _rerolled()
    record["viewer"] = 0  # seat 0 re-rolled: it saw its own dice
    record["rounds"][0]["dice"][0] = [2, 6, 6, 5, 6]
    record["rounds"][0]["dice"][1] = [None] * 5
    with pytest.raises(RecordError, match="hides that seat's own dice") as caught:
        referee(record)
    assert caught.value.key_path == "rounds.0.actions.2"


def test_a_violation_quotes_the_step_as_the_file_writes_it() -> None:
    """A hidden roll of five dice for a re-roll of four: the referee follows it with
    placeholder faces, and names the step with the file's nulls, not those faces."""
    record = _rerolled()
    written = "roll [[null, null, null, null, null], [], []]"
    _actions(record)[2] = written
    verdict = referee(record)
    assert verdict.violation is not None and not verdict.valid
    assert verdict.violation.action == written
    assert verdict.violation.to_json()["action"] == written
    assert f"({written})" in verdict.headline()
    assert "seat 0 rolls 5 dice, but re-rolls 4" in verdict.headline()


def _forged(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``record`` with one die, or one roll's die, turned into ``null``, or a roll step
    added where some step was."""
    rnd = rng.choice(record["rounds"])
    kind = rng.randrange(3)
    if kind == 0 and any(rnd["dice"]):
        cup = rng.choice([c for c in rnd["dice"] if c])
        cup[rng.randrange(len(cup))] = None
    elif kind == 1:
        cups = [[None] * rng.randrange(3) for _ in rnd["dice"]]
        rnd["actions"].insert(rng.randrange(len(rnd["actions"]) + 1), "roll " + json.dumps(cups))
    else:
        rolls = [i for i, a in enumerate(rnd["actions"]) if a.startswith("roll")]
        if rolls:
            i = rng.choice(rolls)
            cups = json.loads(rnd["actions"][i][4:])
            seat = rng.randrange(len(cups))
            cups[seat] = [None] * (len(cups[seat]) + rng.randrange(-1, 2))
            rnd["actions"][i] = "roll " + json.dumps(cups)
    return record


def _played(seed: int) -> Game:
    rng = random.Random(seed)
    game = Game.new(load_variant("bluff"), 3, seed=seed)
    for _ in range(rng.randrange(5, 120)):
        if game.is_over:
            break
        game = game.roll(rng=rng) if game.awaiting_roll else game.apply(choose(game, rng))
    return game


@settings(deadline=None, max_examples=60)
@given(seed=st.integers(0, 2**32 - 1), viewer=st.integers(0, 2))
def test_a_forged_redacted_record_gets_a_verdict_or_a_record_error(seed: int, viewer: int) -> None:
    """Whatever null is forged into a redacted record: a verdict, or a RecordError in one
    line, and a violation's step is one the file holds, word for word."""
    rng = random.Random(seed)
    record = _forged(json.loads(json.dumps(to_record(_played(seed), viewer=viewer))), rng)
    try:
        verdict = referee(record)
    except RecordError as exc:
        assert "\n" not in str(exc) and exc.key_path
        return
    bad = verdict.violation
    if bad is not None and bad.action is not None:
        rnd = next(r for r in record["rounds"] if r["round"] == bad.round)
        assert rnd["actions"][bad.step - 1] == bad.action


def test_the_referee_command_refuses_a_forged_record_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _rerolled()
    _actions(record).insert(3, "roll [[null, null, null, null], [], []]")
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["referee", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "rounds.0.actions.3: a roll with hidden dice that no re-roll precedes" in err
