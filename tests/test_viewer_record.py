"""Per-viewer records: ``to_record(game, viewer=seat)`` hides every die that seat never saw.

The record a seat may be given shows its own cups and the cups lifted at a reveal (as the
table saw them); every other die is ``null``. The properties: it tells the seat exactly
what its observations told it, never more (two deals that differ only in dice the seat
never saw give the same redacted record), and the referee finds every accepted game's
redacted record legal while saying what it could not check; ``replay`` refuses it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perudo_rules import Bid, Dudo, Game, Leave, Reroll, load_variant, referee, replay, to_record
from perudo_rules.cli import main
from perudo_rules.records.position import parse_step
from perudo_rules.records.recordformat import RecordError, check_shape
from perudo_rules.records.replay import states
from tests.strategies import choose, new_games


def _play(game: Game, seed: int, leave_rate: float = 0.0, steps: int = 400) -> list[Game]:
    """Every position of a random game (stopped after ``steps``), seats leaving sometimes."""
    rng = random.Random(seed)
    out = [game]
    for _ in range(steps):
        if game.is_over:
            break
        if game.awaiting_roll:
            game = game.roll(rng=rng)
        elif rng.random() < leave_rate:
            game = game.apply(Leave(rng.choice([s for s, c in enumerate(game.dice_counts) if c])))
        else:
            game = game.apply(choose(game, rng))
        out.append(game)
    return out


def _rerolled(actions: Any) -> set[int]:
    """The seats that re-rolled among a round's actions (texts or values)."""
    return {a.player for a in map(_step, actions) if isinstance(a, Reroll)}


def _step(a: Any) -> Any:
    return parse_step(a) if isinstance(a, str) and "null" not in a else a


def _seen(positions: list[Game], seat: int) -> dict[tuple[int, int], tuple[int, ...]]:
    """Every cup as dealt that seat ``seat`` was shown, by (round, seat), from its
    observations alone: its own, and the lifted cups of seats that never re-rolled (a
    re-roller's lifted cup shows its dice at the end, not as dealt)."""
    seen: dict[tuple[int, int], tuple[int, ...]] = {}
    for g in positions:
        obs = g.observation(seat)
        if obs.to_move is not None and obs.dice and not obs.actions:
            seen.setdefault((obs.round, seat), obs.dice)  # the round's first position
        for past in obs.past_rounds:
            if past.own_dice:
                seen[(past.round, seat)] = past.own_dice
            moved = _rerolled(past.actions)
            for s, cup in zip(past.revealed, past.shown, strict=True):
                if s not in moved:
                    seen[(past.round, s)] = cup
    return seen


def _shown(record: dict[str, Any]) -> dict[tuple[int, int], tuple[int, ...]]:
    out = {}
    for rnd in record["rounds"]:
        for s, cup in enumerate(rnd["dice"]):
            assert all(d is None for d in cup) or None not in cup  # a cup is whole or hidden
            if cup and None not in cup:
                out[(rnd["round"], s)] = tuple(cup)
    return out


def _rolls(rnd: dict[str, Any]) -> list[tuple[int, int, list[Any]]]:
    """(place, seat, dice) of each re-roll's roll in a round as written."""
    out = []
    for at, text in enumerate(rnd["actions"]):
        if at and text.startswith("roll"):
            before = _step(rnd["actions"][at - 1])
            if isinstance(before, Reroll):
                out.append((at, before.player, json.loads(text[4:])[before.player]))
    return out


def _check_rolls(mine: dict[str, Any], full: dict[str, Any], g: Game, viewer: int) -> None:
    """Each re-roll's roll in ``viewer``'s record: its own shown (as its observations had
    them), another seat's hidden but the last of a cup lifted at the reveal, which with
    the dice set aside makes up the cup the table saw."""
    for i, (a, b) in enumerate(zip(mine["rounds"], full["rounds"], strict=True)):
        past = g.history[i].seen_by(viewer) if i < len(g.history) else None
        lifted = dict(zip(past.revealed, past.shown, strict=True)) if past else {}
        rolls, truth = _rolls(a), _rolls(b)
        assert [(at, s) for at, s, _ in rolls] == [(at, s) for at, s, _ in truth]
        own = [d for _, s, d in rolls if s == viewer]
        if past is not None:
            assert [tuple(d) for d in own] == [d for d in past.own_rerolls if d]
        for k, (_, s, dice) in enumerate(rolls):
            last = all(t != s for _, t, _ in rolls[k + 1 :])
            if s == viewer or (s in lifted and last):
                assert dice == truth[k][2]
                if s != viewer:
                    aside = [
                        f
                        for x in map(_step, a["actions"])
                        if isinstance(x, Reroll) and x.player == s
                        for f in x.set_aside
                    ]
                    assert sorted(aside + dice) == sorted(lifted[s])
            else:
                assert dice == [None] * len(dice)
        others = [x for at, x in enumerate(a["actions"]) if at not in {p for p, _, _ in rolls}]
        assert others == [
            x for at, x in enumerate(b["actions"]) if at not in {p for p, _, _ in truth}
        ]


def _redeal(record: dict[str, Any], mine: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``record`` (a full one) with every die hidden in ``mine`` (its redacted form) rolled
    again, but for the faces a re-roll sets aside from them, and no stated results (their
    true counts change)."""
    out = json.loads(json.dumps(record))
    faces = replay(record).rules.dice_faces
    for rnd, seen in zip(out["rounds"], mine["rounds"], strict=True):
        rnd.pop("result", None)
        hidden_rolls = {at for at, _, d in _rolls(seen) if None in d}
        source = {s: (rnd["dice"], s) for s, cup in enumerate(seen["dice"]) if None in cup}
        for at, text in enumerate(rnd["actions"]):
            step = _step(text)
            if isinstance(step, Reroll) and step.player in source:
                cups, s = source.pop(step.player)
                cups[s] = _again(cups[s], step.set_aside, faces, rng)
            if at in hidden_rolls:
                seat = _step(rnd["actions"][at - 1]).player
                roll = json.loads(text[4:])
                source[seat] = (roll, seat)
                rnd["actions"][at] = roll
        for cups, s in source.values():
            cups[s] = _again(cups[s], (), faces, rng)
        rnd["actions"] = [
            a if isinstance(a, str) else "roll " + json.dumps(a) for a in rnd["actions"]
        ]
    out.pop("winner", None)
    return out


def _again(cup: list[int], keep: tuple[int, ...], faces: int, rng: random.Random) -> list[int]:
    """``cup`` rolled again but for the faces ``keep`` (in their places)."""
    out = [rng.randint(1, faces) for _ in cup]
    free = list(range(len(cup)))
    for f in keep:
        i = next(i for i in free if cup[i] == f)
        out[i] = f
        free.remove(i)
    return out


# --- the property ------------------------------------------------------------------------


@settings(deadline=None, max_examples=40)
@given(game=new_games(), seed=st.integers(0, 2**32 - 1), leave=st.sampled_from([0.0, 0.05]))
def test_a_redacted_record_tells_a_seat_what_it_saw_and_nothing_more(
    game: Game, seed: int, leave: float
) -> None:
    _tells_what_it_saw(game, seed, leave)


_REROLLS = st.sampled_from(
    [
        load_variant("bluff"),
        load_variant(
            "bluff", overrides={"leave.round": "continues", "reroll.limit": "once_per_round"}
        ),
        load_variant("italian", overrides={"reroll.enabled": True, "reroll.must_bid": False}),
    ]
)


@settings(deadline=None, max_examples=20)
@given(game=new_games(_REROLLS), seed=st.integers(0, 2**32 - 1), leave=st.sampled_from([0.0, 0.05]))
def test_a_redacted_record_hides_the_dice_a_reroll_rolled_away(
    game: Game, seed: int, leave: float
) -> None:
    """Bluff's re-roll (reroll.enabled): a re-roller's cup as dealt and its rolls are hidden
    but for the dice it showed at the reveal; the rest holds as in every edition."""
    assert game.rules.reroll_enabled
    _tells_what_it_saw(game, seed, leave)


def _tells_what_it_saw(game: Game, seed: int, leave: float) -> None:
    positions = _play(game, seed, leave)
    g = positions[-1]
    full = to_record(g, full=True)
    rng = random.Random(seed)
    for viewer in range(g.players):
        mine = json.loads(json.dumps(to_record(g, viewer=viewer)))
        assert mine["viewer"] == viewer and "viewer" not in full
        # exactly the cups its observations showed it, at the same places
        assert _shown(mine) == _seen(positions, viewer)
        # the rest is the full record, dice (re-rolled ones too) and true counts hidden
        _check_rolls(mine, full, g, viewer)
        for a, b in zip(mine["rounds"], full["rounds"], strict=True):
            assert [len(c) for c in a["dice"]] == [len(c) for c in b["dice"]]
            if "result" in b:
                hidden = any(None in c for c in a["dice"]) or any("null" in x for x in a["actions"])
                want = {**b["result"], "count": None} if hidden else b["result"]
                assert a["result"] == want
        # another deal of the dice it never saw: the same game for it, the same record
        other = replay(_redeal(full, mine, rng))
        assert to_record(other, viewer=viewer) == mine
        # the referee: legal, and it says what it could not check
        verdict = referee(mine)
        assert verdict.valid and verdict.viewer == viewer and verdict.winner == g.winner
        hidden_dice = any(None in c for r in mine["rounds"] for c in r["dice"]) or any(
            "null" in x for r in mine["rounds"] for x in r["actions"]
        )
        assert verdict.complete == (not hidden_dice)
        head = verdict.headline()
        assert not head.startswith("valid")
        assert head.startswith("legal, counts unchecked" if hidden_dice else "legal, all checked")
        assert f"redacted for seat {viewer}" in head
        with pytest.raises(RecordError, match="redacted for seat"):
            replay(mine)


# --- examples ----------------------------------------------------------------------------


def _early_stop_round() -> Game:
    """Italian: seat 2 doubts 2x4; lifting from seat 0 stops at once (two fours)."""
    g = Game.start(load_variant("italian"), [[4, 4, 2], [3, 5, 6], [6, 6, 2]], first_player=0)
    return g.apply(Bid(0, 1, 4)).apply(Bid(1, 2, 4)).apply(Dudo(2))


def test_the_lifted_cups_stay_and_the_closed_ones_are_null() -> None:
    g = _early_stop_round()
    assert g.last_result is not None and g.last_result.revealed == (0,)
    mine = to_record(g, viewer=1)
    rnd = mine["rounds"][0]
    assert rnd["dice"] == [[4, 4, 2], [3, 5, 6], [None, None, None]]
    assert rnd["result"]["count"] is None and rnd["result"]["loser"] == 2
    assert to_record(g, viewer=2)["rounds"][0]["dice"] == [[4, 4, 2], [None] * 3, [6, 6, 2]]
    assert to_record(g, viewer=0)["rounds"][0]["dice"][1:] == [[None] * 3, [None] * 3]
    verdict = referee(mine)
    assert verdict.headline() == (
        "legal, counts unchecked: game not finished (italian, 3 seats, 1 round; redacted for "
        "seat 1, not checked: the faces of 3 hidden dice; the true count of round 1 "
        "(play.count))"
    )
    assert verdict.to_dict()["unchecked"] == list(verdict.unchecked) and not verdict.complete
    assert referee(to_record(g, full=True)).headline().startswith("valid: ")


def test_the_round_in_play_shows_only_the_viewers_cup() -> None:
    g = Game.start(load_variant("spanish"), [[1, 2], [3, 4], [5, 6]], first_player=0)
    g = g.apply(Bid(0, 1, 3))
    assert to_record(g, viewer=2)["rounds"][0]["dice"] == [[None] * 2, [None] * 2, [5, 6]]
    # a cup that left the round unseen (leave.round: continues) stays hidden
    v = load_variant("spanish", overrides={"leave.round": "continues"})
    g = Game.start(v, [[1, 2], [3, 4], [5, 6]], first_player=0).apply(Leave(1))
    g = g.apply(Bid(0, 1, 3)).apply(Dudo(2))
    assert g.last_result is not None and g.last_result.revealed == (0, 2)
    assert to_record(g, viewer=0)["rounds"][0]["dice"][1] == [None, None]
    assert to_record(g, viewer=1)["rounds"][0]["dice"][1] == [3, 4]  # its own, as dealt


def test_bad_viewers_are_refused() -> None:
    g = _early_stop_round()
    for bad in (3, -1, "1", True):
        with pytest.raises(ValueError, match="is not a seat"):
            to_record(g, viewer=bad)  # type: ignore[arg-type]


def test_a_redacted_record_that_breaks_a_rule_is_a_violation() -> None:
    mine = to_record(_early_stop_round(), viewer=1)
    wrong = json.loads(json.dumps(mine))
    wrong["rounds"][0]["actions"][1] = "2:2x4"  # out of turn
    verdict = referee(wrong)
    assert not verdict.valid and verdict.violation is not None
    assert verdict.violation.rule == "play.turn" and verdict.headline().startswith("violation")
    wrong = json.loads(json.dumps(mine))
    wrong["rounds"][0]["dice"][0] = [None] * 3  # the lifted cup hidden
    assert referee(wrong).violation.rule == "play.reveal"  # type: ignore[union-attr]
    wrong = json.loads(json.dumps(mine))
    wrong["rounds"][0]["result"]["revealed"] = [0, 1]  # the reveal stopped at seat 0
    assert referee(wrong).violation.rule == "play.reveal"  # type: ignore[union-attr]
    wrong = json.loads(json.dumps(mine))
    wrong["rounds"][0]["result"]["loser"] = 1
    assert referee(wrong).violation.rule == "play.dudo"  # type: ignore[union-attr]


def test_nulls_belong_to_redacted_records_only() -> None:
    full = to_record(_early_stop_round(), full=True)
    full["rounds"][0]["dice"][2] = [None] * 3
    with pytest.raises(RecordError, match="only in a redacted record"):
        check_shape(full)
    full = to_record(_early_stop_round(), full=True)
    full["rounds"][0]["result"]["count"] = None
    with pytest.raises(RecordError, match="count"):
        check_shape(full)
    mine = to_record(_early_stop_round(), viewer=1)
    mine["viewer"] = 3
    with pytest.raises(RecordError, match="seat 3 does not exist"):
        check_shape(mine)


def test_neither_replay_nor_the_game_state_takes_a_redacted_record() -> None:
    mine = to_record(_early_stop_round(), viewer=1)
    for rebuild in (replay, lambda r: list(states(r))):
        with pytest.raises(RecordError, match="cannot be rebuilt") as info:
            rebuild(mine)
        assert info.value.key_path == "viewer"
    doc = {"format": "perudo-rules-state", "version": 1, "record": mine}
    with pytest.raises(RecordError, match="redacted"):
        Game.from_json(doc)


def test_the_referee_command_says_legal_not_valid(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(to_record(_early_stop_round(), viewer=1)), encoding="utf-8")
    assert main(["referee", str(path), "-q"]) == 0
    assert capsys.readouterr().out.startswith("legal, counts unchecked: ")
    assert main(["referee", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] and not data["complete"] and data["viewer"] == 1 and data["unchecked"]
