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


def test_a_leave_between_rounds_but_not_once_over() -> None:
    called = _table().apply(Dudo(2))
    assert called.awaiting_roll and called.is_legal(Leave(0))
    assert called.decision(Leave(0)).rules[0] == "play.leave"
    for bad in (Bid(0, 3, 4), Dudo(0)):  # nothing else before the roll
        with pytest.raises(IllegalAction) as info:
            called.apply(bad)
        assert info.value.rule == "play.roll"
    gone = called.apply(Leave(3))
    for seat in (3, 7, True):  # a seat without dice, or no seat at all
        bad_leave = gone.violation(Leave(seat))  # type: ignore[arg-type]
        assert bad_leave is not None and bad_leave.rule == "play.seat"
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
    wrong["rounds"][0]["actions"].append("0:3x4")  # the round was over
    assert referee(wrong).violation.rule == "play.roll"  # type: ignore[union-attr]
    wrong["rounds"][0]["actions"][-1] = "2:leave"  # seat 2 left already
    assert referee(wrong).violation.rule == "play.seat"  # type: ignore[union-attr]
    wrong["rounds"][0]["actions"][-1] = "0:leave"  # a leave before the roll, then the
    assert referee(wrong).violation.rule == "play.roll"  # type: ignore[union-attr]  # cups
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
    """Every position of a random game where, at every decision and every roll (between
    rounds, or a re-roll's), a random seat with dice leaves with probability ``rate``:
    checks that only the leaver's dice leave, and who opens the round rolled next."""
    rng = random.Random(seed)
    seen = [game]
    for _ in range(3000):
        if game.is_over:
            break
        if rng.random() < rate:
            seats = [s for s, c in enumerate(game.dice_counts) if c]
            seat = rng.choice(seats)
            assert game.is_legal(Leave(seat))
            after = game.apply(Leave(seat))
            assert sum(after.dice_counts) == sum(game.dice_counts) - game.dice_counts[seat]
            assert after.dice_counts[seat] == 0
            if game.to_move is None and not after.is_over:  # between rounds
                assert after.awaiting_roll and after.history[-1].left[-1] == seat
                res = after.last_result
                assert res is not None and res.kind == "leave" and res.next_player is not None
                assert after.dice_counts[res.next_player]
                if after.palifico:
                    assert after.palifico_player == res.next_player
            game = after
        elif game.awaiting_roll:
            game = game.roll(rng=rng)
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


# --- leaving between rounds ---------------------------------------------------------------


def _called(cups: list[list[int]], first: int, bid: Bid, call: Any, **overrides: Any) -> Game:
    v = load_variant("italian", overrides=overrides or None)
    return Game.start(v, cups, first_player=first).apply(bid).apply(call)


def test_a_leave_between_rounds_takes_its_dice_and_keeps_the_opener() -> None:
    called = _called(TABLE, 1, Bid(1, 9, 4), Dudo(2))  # seat 1 loses a die and opens next
    assert called.last_result is not None and called.last_result.next_player == 1
    after = called.apply(Leave(3))
    assert after.dice_counts == (3, 2, 3, 0) and after.awaiting_roll
    assert after.last_result is not None and after.last_result.kind == "leave"
    assert after.last_result.next_player == 1 and after.last_result.lost == (0, 0, 0, 3)
    assert after.history[-1].result == called.last_result  # the round's own result stays
    assert after.history[-1].left == (3,)
    rolled = after.roll(dice=[[1, 2, 3], [4, 5], [6, 6, 6], []])
    assert rolled.first_player == rolled.to_move == 1 and rolled.round == 2


@pytest.mark.parametrize("choice", ["round_opener", "player_to_move", "after_leaver"])
def test_the_due_opener_leaving_passes_the_opening_on(choice: str) -> None:
    called = _called(TABLE, 1, Bid(1, 9, 4), Dudo(2), **{"leave.next_starts": choice})
    after = called.apply(Leave(1))  # seat 1 was due to open: the next seat with dice does
    assert after.last_result is not None and after.last_result.next_player == 2
    assert after.roll(seed=3).to_move == 2


def test_the_leavers_palifico_round_is_gone_with_it() -> None:
    called = _called([[2, 3], [5], [6, 4]], 0, Bid(0, 3, 5), Dudo(1))  # seat 0 reaches 1
    assert called.palifico and called.palifico_player == 0
    after = called.apply(Leave(0))
    assert not after.palifico and after.palifico_player is None
    assert after.last_result is not None and after.last_result.next_player == 1
    kept = called.apply(Leave(2))  # another seat leaves: seat 0's palifico round stays
    assert kept.palifico and kept.palifico_player == 0


def test_a_palifico_round_heads_up_goes_where_heads_up_forbids_it() -> None:
    over = {"palifico.heads_up": False}
    called = _called([[2, 3], [5], [6, 4]], 0, Bid(0, 3, 5), Dudo(1), **over)
    assert called.palifico
    assert not called.apply(Leave(2)).palifico  # two seats left: no palifico round heads-up


def test_starts_with_one_makes_the_new_opener_palifico_between_rounds() -> None:
    over = {"palifico.trigger": "starts_with_one"}
    called = _called([[2, 3], [5, 5], [6]], 0, Bid(0, 2, 5), Dudo(1), **over)  # 1 loses
    assert called.last_result is not None and called.last_result.next_player == 1
    after = called.apply(Leave(1))
    assert after.palifico and after.palifico_player == 2 and 2 in after.palifico_used


def test_the_last_seat_left_between_rounds_wins() -> None:
    called = _called([[2, 3], [5, 5]], 0, Bid(0, 2, 5), Dudo(1))
    after = called.apply(Leave(0))
    assert after.winner == 1 and after.is_over and not after.awaiting_roll


def test_a_leave_between_rounds_is_recorded_after_the_call() -> None:
    called = _called(TABLE, 1, Bid(1, 9, 4), Dudo(2))
    after = called.apply(Leave(3)).apply(Leave(1))
    record = json.loads(json.dumps(to_record(after, full=True)))
    assert record["rounds"][-1]["actions"] == ["1:9x4", "2:dudo", "3:leave", "1:leave"]
    assert replay(record) == after and referee(record).valid
    assert Game.from_json(json.loads(json.dumps(after.to_json()))) == after
    from perudo_rules import restore, snapshot

    assert restore(snapshot(after, b"a secret of the server"), b"a secret of the server") == after
    rolled = after.roll(seed=4).apply(Leave(0))
    assert rolled.is_over and replay(to_record(rolled, full=True)) == rolled
    record["rounds"][-1]["actions"].append("2:3x4")  # nothing else before the roll
    with pytest.raises(RecordError) as info:
        replay(record)
    assert info.value.violation is not None and info.value.violation.rule == "play.roll"


def test_a_leave_between_rounds_is_described_and_reported_by_the_step_harness() -> None:
    from perudo_rules.harness.stepapi import StepHarness

    called = _called(TABLE, 1, Bid(1, 9, 4), Dudo(2))
    after = called.apply(Leave(1))
    assert after.last_result is not None and after.last_result.caller is None
    assert describe_result(after.last_result, after.dice_counts) == (
        "seat 1 leaves the game with its 2 dice; the next round is rolled without it; "
        "seat 2 opens an ordinary round"
    )
    harness = StepHarness()
    harness.game = called
    reply = harness.act("1:leave")
    assert reply["outcome"]["next"] == 2 and reply["outcome"]["delta"] == [0, -2, 0, 0]
    assert reply["outcome"]["eliminated"] == [1] and harness.game == after


def test_the_referee_tells_the_leaves_after_a_round() -> None:
    after = _called([[2, 3], [5, 5]], 0, Bid(0, 2, 5), Dudo(1)).apply(Leave(0))
    verdict = referee(to_record(after, full=True))
    assert verdict.valid and verdict.winner == 1
    assert verdict.rounds[0].outcome.endswith(
        "seat 1 loses a die (1 left); seat 1 opens a palifico round; "
        "seat 0 leaves the game with its 2 dice; seat 1 wins the game"
    )
    four = _called(TABLE, 1, Bid(1, 9, 4), Dudo(2)).apply(Leave(1)).roll(seed=2)
    assert referee(to_record(four, full=True)).rounds[0].outcome.endswith(
        "seat 1 loses a die (2 left); seat 1 opens an ordinary round; seat 1 leaves the game "
        "with its 2 dice; the next round is rolled without it; seat 2 opens an ordinary round"
    )
    five = _called(TABLE, 1, Bid(1, 9, 4), Dudo(2)).apply(Leave(3)).apply(Leave(1))
    assert "; seat 3 leaves the game; seat 1 leaves the game with its 2 dice" in (
        referee(to_record(five, full=True)).rounds[0].outcome
    )
