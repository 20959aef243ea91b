"""A seat leaves the game (a forfeit, a disconnect, a timeout): ``Leave``, ``play.leave``.

The kernel decides it (:meth:`RoundRules.leave <perudo_rules.engine.kernel.RoundRules.leave>`):
which seats may leave and when, what becomes of the round in play (``leave.round``) and
who opens the next one (``leave.next_starts``). The property test plays random games on
random variants (every value of both knobs drawn) with seats leaving at random points and
checks that only the leaver's dice leave, that one seat wins, and that the record
replays, referees and round-trips through the game state JSON.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perudo_rules import (
    Bid,
    Calza,
    Dudo,
    Game,
    IllegalAction,
    Leave,
    format_action,
    load_variant,
    parse_action,
    referee,
    replay,
    to_record,
)
from perudo_rules.base.actions import ActionSyntaxError
from perudo_rules.cli import main
from perudo_rules.engine.settlement import returns
from perudo_rules.records.describe import describe_result, describe_step
from perudo_rules.records.position import Position
from perudo_rules.records.recordformat import RecordError
from tests.strategies import choose, new_games

CONTINUES = {"leave.round": "continues"}
TABLE = [[2, 3, 4], [5, 5, 6], [6, 4, 4], [6, 6, 2]]


def _table(**overrides: Any) -> Game:
    """Four seats, seat 1 opened with 2x4, seat 2 to move."""
    v = load_variant("italian", overrides=overrides or None)
    return Game.start(v, TABLE, first_player=1).apply(Bid(1, 2, 4))


# --- the notation -------------------------------------------------------------------------


def test_leave_is_written_seat_colon_leave() -> None:
    assert format_action(Leave(2)) == "2:leave" and str(Leave(2)) == "leave"
    assert parse_action("2:leave") == parse_action(" 2 : LEAVE ") == Leave(2)
    assert parse_action("leave", player=3) == Leave(3)
    assert eval(repr(Leave(1))) == Leave(1)
    with pytest.raises(ActionSyntaxError, match="seat 1's action; this request is seat 2's"):
        parse_action("1:leave", player=2)
    with pytest.raises(ActionSyntaxError, match="calza, leave or reroll F,F, optionally prefixed"):
        parse_action("2:quit")


# --- who may leave, and when ----------------------------------------------------------


def test_any_seat_with_dice_may_leave_in_a_round_in_turn_or_not() -> None:
    g = Game.start(load_variant("italian"), [[2, 3], [], [4], [5, 6]], first_player=0)
    for at in (g, g.apply(Bid(0, 1, 4))):  # before and after a bid
        for seat in (0, 2, 3):
            assert at.violation(Leave(seat)) is None and at.is_legal(Leave(seat))
        assert at.violation(Leave(1)).rule == "play.seat"  # type: ignore[union-attr]
        for bad in (4, -1, "0", True):
            assert at.violation(Leave(bad)).rule == "play.seat"  # type: ignore[arg-type,union-attr]


def test_a_leave_is_never_listed() -> None:
    g = _table()
    assert all(type(a) is not Leave for a in g.legal_actions())
    assert Leave(2) not in g.legal_actions() and Leave(2) not in g.legal_actions(seat=2)
    assert g.is_legal(Leave(2))  # allowed all the same (play.leave)
    assert Leave(2) not in g.observation(2).legal_actions


def test_no_leave_between_rounds_or_once_over() -> None:
    called = _table().apply(Dudo(2))
    with pytest.raises(IllegalAction) as info:
        called.apply(Leave(0))
    assert info.value.rule == "play.roll"
    over = Game.start(load_variant("italian"), [[2], [5]], 0).apply(Leave(1))
    assert over.winner == 0
    with pytest.raises(IllegalAction) as info:
        over.apply(Leave(0))
    assert info.value.rule == "play.game_over"


# --- what becomes of the round (leave.round) and who opens next (leave.next_starts) ------


@pytest.mark.parametrize(
    ("choice", "leaver", "opener"),
    [
        ("round_opener", 3, 1),
        ("round_opener", 1, 2),  # the opener left: the next seat
        ("player_to_move", 3, 2),
        ("player_to_move", 2, 3),  # the seat to move left: the next seat
        ("after_leaver", 3, 0),
        ("after_leaver", 0, 1),
    ],
)
def test_a_round_called_off_is_opened_as_leave_next_starts_says(
    choice: str, leaver: int, opener: int
) -> None:
    g = _table(**{"leave.next_starts": choice})
    after = g.apply(Leave(leaver))
    r = after.last_result
    assert after.awaiting_roll and r is not None
    assert (r.kind, r.caller, r.loser, r.gainer, r.revealed) == ("leave", leaver, leaver, None, ())
    assert r.bid == Bid(1, 2, 4) and r.lost[leaver] == 3 and sum(r.lost) == 3
    assert r.next_player == opener and not r.next_palifico
    assert after.dice_counts == tuple(0 if s == leaver else 3 for s in range(4))
    assert after.history[-1].actions == (Bid(1, 2, 4), Leave(leaver))
    assert after.history[-1].dice == tuple(map(tuple, TABLE))
    nxt = after.roll(seed=3)
    assert nxt.to_move == opener and nxt.round == 2 and nxt.bids == ()


def test_a_leave_before_any_bid_has_no_bid() -> None:
    g = Game.start(load_variant("spanish"), TABLE, first_player=1)
    r = g.apply(Leave(1)).last_result
    assert r is not None and r.bid is None and r.next_player == 2
    assert "seat 1 leaves the game with its 3 dice; the round is called off" in describe_result(r)


def test_the_round_goes_on_without_the_cup_under_continues() -> None:
    g = _table(**CONTINUES)
    after = g.apply(Leave(2))  # the seat to move leaves: seat 3 moves against 2x4
    assert after.to_move == 3 and after.bids == (Bid(1, 2, 4),) and not after.awaiting_roll
    assert after.actions == (Bid(1, 2, 4), Leave(2)) and after.dice[2] == ()
    assert after.dealt == g.dice and after.last_result is None
    assert after.space == g.space  # the quantity cap stays the round's start
    assert after.is_legal(Bid(3, 12, 6)) and after.dice_in_play == 9
    other = g.apply(Leave(0))  # a seat not to move: the turn stays
    assert other.to_move == 2
    # the cup that left never counts: two fours and one Aztec... of seats 1 and 3
    called = after.apply(Bid(3, 3, 4)).apply(Dudo(0))
    r = called.last_result
    assert r is not None and r.count == 1 and r.loser == 3
    assert called.history[-1].dice == tuple(map(tuple, TABLE))  # as dealt
    assert called.history[-1].actions == (Bid(1, 2, 4), Leave(2), Bid(3, 3, 4), Dudo(0))


def test_a_bidder_that_left_loses_nothing() -> None:
    g = _table(**CONTINUES).apply(Leave(1))  # seat 1's 2x4 stands
    assert g.to_move == 2
    called = g.apply(Dudo(2))
    r = called.last_result
    # fours and Aztecs of seats 0, 2, 3: 1 + 2 + 0 = 3 >= 2, the bid holds: seat 2 loses
    assert r is not None and r.loser == 2 and called.dice_counts == (3, 0, 2, 3)
    g = _table(**CONTINUES).apply(Bid(2, 9, 4)).apply(Leave(2))
    called = g.apply(Dudo(3))
    r = called.last_result
    assert r is not None and r.loser == 2 and r.lost == (0, 0, 0, 0)
    assert called.dice_counts == (3, 3, 0, 3) and r.next_player == 3  # seat 2 is out
    assert "seat 2 has left the game: no die to lose" in describe_result(r)


def test_calza_after_a_leave_counts_the_seats_left() -> None:
    v = load_variant("italian", overrides=CONTINUES)
    g = Game.start(v, [[4, 4], [4, 4], [3, 3], [2, 2]], first_player=0).apply(Bid(0, 4, 4))
    g = g.apply(Leave(1)).apply(Calza(3))  # two fours are left, not four
    r = g.last_result
    assert r is not None and r.count == 2 and r.loser == 3


@pytest.mark.parametrize("mode", ["void", "continues"])
def test_a_seat_left_alone_wins_and_is_paid_as_a_winner(mode: str) -> None:
    v = load_variant("italian", overrides={"leave.round": mode})
    g = Game.start(v, [[2, 3], [4], [], [5, 5]], first_player=0).apply(Leave(3))
    if mode == "void":
        g = g.roll(seed=1)
    g = g.apply(Leave(0))
    assert g.is_over and g.winner == 1 and g.last_result is not None
    assert g.last_result.kind == "leave" and g.last_result.next_player is None
    assert g.returns() == returns(1, 4) == (-1 / 3, 1.0, -1 / 3, -1 / 3)


def test_a_palifico_round_called_off_is_played_again_by_its_player() -> None:
    v = load_variant("italian", overrides={"leave.next_starts": "after_leaver"})
    g = Game.start(v, [[3], [2, 2, 5], [6, 6, 4]], first_player=0, palifico=True)
    r = g.apply(Leave(1)).last_result
    assert r is not None and r.next_palifico and r.next_player == 0
    # heads-up without palifico rounds (palifico.heads_up false): an ordinary round
    v = load_variant("italian", overrides={"palifico.heads_up": False})
    g = Game.start(v, [[3], [2, 2, 5], [6, 6, 4]], first_player=0, palifico=True)
    r = g.apply(Leave(1)).last_result
    assert r is not None and not r.next_palifico and r.next_player == 0
    # the palifico player leaves: the round rolled after is an ordinary one
    g = Game.start(load_variant("italian"), [[3], [2, 2, 5], [6, 6, 4]], 0, palifico=True)
    after = g.apply(Leave(0))
    assert after.last_result is not None and not after.last_result.next_palifico
    assert after.roll(seed=0).palifico is False


def test_starts_with_one_makes_the_next_opener_palifico() -> None:
    v = load_variant("italian", overrides={"palifico.trigger": "starts_with_one"})
    g = Game.start(v, [[3, 4], [2], [6, 6, 4]], first_player=0).apply(Leave(0))
    r = g.last_result
    assert r is not None and r.next_player == 1 and r.next_palifico  # seat 1 holds one die
    assert 1 in g.palifico_used


# --- what every seat sees ----------------------------------------------------------------


def test_every_seat_sees_the_leave() -> None:
    g = _table(**CONTINUES).apply(Leave(3))
    for seat in range(4):
        obs = g.observation(seat)
        assert obs.actions == (Bid(1, 2, 4), Leave(3)) and obs.dice_counts == (3, 3, 3, 0)
        assert obs.to_json()["actions"] == ["1:2x4", "3:leave"]
    void = _table().apply(Leave(3)).roll(seed=2)
    past = void.observation(0).past_rounds[-1]
    assert (past.kind, past.caller, past.loser, past.shown, past.bid) == (
        "leave", 3, 3, (), Bid(1, 2, 4)
    )
    doc = void.observation(0).to_json()["past_rounds"][-1]
    assert doc["kind"] == "leave" and doc["actions"] == ["1:2x4", "3:leave"]


def test_describe_says_who_left() -> None:
    assert describe_step(Leave(2)) == "seat 2 leaves the game"
    r = _table().apply(Leave(3)).last_result
    assert r is not None
    text = describe_result(r, (3, 3, 3, 0))
    assert text == (
        "seat 3 leaves the game with its 3 dice, 2x4 by seat 1 standing; the round is called "
        "off; seat 1 opens an ordinary round"
    )


# --- records, the game state, check --position -------------------------------------------


def test_records_of_leaves_replay_and_referee() -> None:
    for game in (_table().apply(Leave(2)), _table(**CONTINUES).apply(Leave(2))):
        record = json.loads(json.dumps(to_record(game, full=True)))
        assert "2:leave" in record["rounds"][0]["actions"]
        assert replay(record) == game and referee(record).valid
        assert type(game).from_json(json.loads(json.dumps(game.to_json()))) == game
    record = to_record(_table().apply(Leave(2)), full=True)
    assert record["rounds"][0]["result"]["kind"] == "leave"
    assert record["rounds"][0]["result"]["count"] is None


def test_a_record_that_lies_about_a_leave_is_refused() -> None:
    record = to_record(_table().apply(Leave(2)).roll(seed=1), full=True)
    wrong = json.loads(json.dumps(record))
    wrong["rounds"][0]["result"]["next_player"] = 2
    assert referee(wrong).violation.rule == "leave.next_starts"  # type: ignore[union-attr]
    wrong = json.loads(json.dumps(record))
    wrong["rounds"][1]["first_player"] = 3
    assert referee(wrong).violation.rule == "leave.next_starts"  # type: ignore[union-attr]
    wrong = json.loads(json.dumps(record))
    wrong["rounds"][0]["actions"].append("2:leave")  # the round was over
    assert referee(wrong).violation.rule == "play.roll"  # type: ignore[union-attr]
    wrong = json.loads(json.dumps(record))
    wrong["rounds"][1]["actions"] = ["2:leave"]  # seat 2 holds no dice any more
    assert referee(wrong).violation.rule == "play.seat"  # type: ignore[union-attr]
    wrong = json.loads(json.dumps(record))
    wrong["rounds"][0]["result"]["bid"] = None  # a call has a bid
    with pytest.raises(RecordError):
        replay({**wrong, "rounds": [{**wrong["rounds"][0], "result": {
            **wrong["rounds"][0]["result"], "kind": "dudo"}}]})  # fmt: skip


def test_check_position_accepts_a_leave(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pos = Position.of(_table(**CONTINUES)).to_json([Bid(1, 2, 4), Leave(2)])
    assert pos["actions"] == ["1:2x4", "2:leave"]
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(pos), encoding="utf-8")
    args = ["check", "italian", "--position", str(path)]
    # under the Italian default the leave calls the round off: no bid is left to check
    assert main([*args, "--bids", "3:3x4"]) == 2
    assert "the round is over" in capsys.readouterr().err
    pos["actions"] = ["1:2x4"]
    path.write_text(json.dumps(pos), encoding="utf-8")
    assert main([*args, "--bids", "2:leave"]) == 0
    out = capsys.readouterr().out
    assert "Seat 2 leaves the game with its 3 dice" in out and "The action is legal." in out
    assert main([*args, "--bids", "2:leave", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["position"]["actions"] == ["1:2x4", "2:leave"] and data["legal"]


# --- random games with random leaves -----------------------------------------------------


def play_with_leaves(game: Game, seed: int, rate: float = 0.05) -> list[Game]:
    """Every position of a random game where, at every decision, a random seat with dice
    leaves with probability ``rate``: checks that only the leaver's dice leave."""
    rng = random.Random(seed)
    seen = [game]
    for _ in range(3000):
        if game.is_over:
            break
        if game.awaiting_roll:
            game = game.roll(rng=rng)
        elif rng.random() < rate:
            seats = [s for s, c in enumerate(game.dice_counts) if c]
            seat = rng.choice(seats)
            after = game.apply(Leave(seat))
            assert sum(after.dice_counts) == sum(game.dice_counts) - game.dice_counts[seat]
            assert after.dice_counts[seat] == 0
            game = after
        else:
            game = game.apply(choose(game, rng))
        seen.append(game)
    return seen


@settings(deadline=None)
@given(game=new_games(), seed=st.integers(0, 2**32 - 1), rate=st.sampled_from([0.02, 0.2]))
def test_random_games_with_leaves_end_with_one_winner_and_replay(
    game: Game, seed: int, rate: float
) -> None:
    positions = play_with_leaves(game, seed, rate)
    last = positions[-1]
    if last.is_over:
        alive = [s for s, c in enumerate(last.dice_counts) if c]
        assert last.winner in alive
        if last.rules.end_condition != "single_round":
            assert alive == [last.winner]
        assert sorted(last.returns()) == sorted(returns(last.winner, last.players))
    for g in (positions[len(positions) // 2], last):
        record = json.loads(json.dumps(to_record(g, full=True)))
        assert replay(record) == g
        assert referee(record).valid
        assert type(g).from_json(json.loads(json.dumps(g.to_json()))) == g


# --- the conformance kit: not observed, never failed -------------------------------------


def test_the_conformance_kit_reports_leaving_as_not_observed() -> None:
    from perudo_rules.conform.protocol import UNCLAIMED_KNOBS, claim_covers, claims_problem
    from perudo_rules.conform.report import NOT_OBSERVED
    from perudo_rules.conform.runner import conform
    from perudo_rules.conform.scenarios import load_scenarios
    from perudo_rules.harness import claim_edition
    from perudo_rules.harness.stepapi import StepHarness

    assert set(UNCLAIMED_KNOBS) == {"leave.round", "leave.next_starts"}
    assert {"play.leave", *UNCLAIMED_KNOBS} <= NOT_OBSERVED
    # an engine written before the leave knobs existed still claims its editions
    claim = claim_edition(load_variant("spanish"))
    older = {k: v for k, v in claim.items() if k not in UNCLAIMED_KNOBS}
    assert claims_problem([older]) is None
    assert claim_covers([older], load_variant("spanish").values())

    class Harness(StepHarness):
        def act(self, action: str) -> dict[str, Any]:
            assert "leave" not in action  # the runner never sends one
            return super().act(action)

    class InProcess:
        def __init__(self) -> None:
            self.ask = Harness().handle

    leaves = [sc for sc in load_scenarios() if sc.id.startswith("leave-")]
    report = conform("x", ["spanish"], games=0, scenarios=leaves, channel=InProcess())
    (rep,) = report.editions
    assert rep.scenarios and rep.conforms, rep.failed
    assert all(rep.status(r) == "not observed" for r in ("play.leave", *UNCLAIMED_KNOBS))


# --- the RL adapters: no action, but a game with a leave does not break them -------------


def test_pettingzoo_plays_on_from_a_game_with_a_leave() -> None:
    pz = pytest.importorskip("perudo_rules.pettingzoo", exc_type=ImportError)
    e = pz.raw_env("italian", 4)
    e.reset(seed=1)
    assert e.ids.num_actions == e.ids.pass_ + 1  # no id stands for a leave
    at = {s.name: s for s in pz.observation_layout("italian", players=4)}
    called_off = _table().apply(Leave(3)).roll(seed=5)
    e.reset_to(called_off)
    assert e.agents == ["player_0", "player_1", "player_2"]
    obs = e.observe("player_0")["observation"]
    kind = at["past[0].kind"]
    assert not obs[kind.start : kind.stop].any()  # ended by neither Dudo nor Calza
    caller = at["past[0].caller"]
    assert obs[caller.start + 3] == 1  # seat 3, relative to seat 0
    assert "last round: seat 3 leaves the game with its 3 dice" in e.table_text()
    gone = _table(**CONTINUES).apply(Leave(2))
    e = pz.raw_env(gone.variant, 4)
    e.reset(seed=1)
    e.reset_to(gone)
    assert e.agents == ["player_0", "player_1", "player_3"] and e.agent_selection == "player_3"
    for _agent in e.agent_iter(max_iter=200):
        o, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(o["action_mask"].nonzero()[0][0]))
