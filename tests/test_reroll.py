"""Bluff's set-aside re-roll (``reroll.*``) through every layer: the engine's invariants
as properties, the record, the JSON, observations, and both RL adapters."""

from __future__ import annotations

import io
import itertools
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perudo_rules import Bid, Dudo, Game, IllegalAction, Reroll, load_variant, replay, to_record
from perudo_rules.base.actions import format_action, parse_action
from perudo_rules.cli import main
from perudo_rules.engine.fastplay import play, step_play
from perudo_rules.records.referee import referee
from perudo_rules.records.replay import states
from tests.strategies import boosted, load_values, variant_values

BLUFF = load_variant("bluff")


@st.composite
def reroll_variants(draw: st.DrawFn) -> Any:
    """Random variants with the re-roll on, every other knob drawn as it comes."""
    values = draw(variant_values())
    values["reroll.enabled"] = True
    return load_values(values)


def _games(game: Game, rng: random.Random, limit: int = 400) -> list[Game]:
    """Every position of one random game from ``game`` (the random policy, rolls from rng)."""
    out = [game]
    while game.winner is None and len(out) < limit:
        if game.awaiting_roll:
            game = game.roll(rng=rng)
        else:
            legal = game.legal_actions()
            game = game.apply(legal[int(rng.random() * len(legal))])
        out.append(game)
    return out


def _same_round(a: Game, b: Game) -> bool:
    return a.to_move is not None and b.to_move is not None and a.round == b.round


@boosted()
@given(variant=reroll_variants(), seed=st.integers(0, 2**32 - 1))
def test_rerolls_keep_dice_and_set_aside_dice_never_change(variant: Any, seed: int) -> None:
    """Within a round the dice counts never change, every seat's dice start with its
    set-aside dice, set-aside dice only grow, and a re-roll changes nothing but the
    re-roller's concealed dice (dice conservation)."""
    rules = variant.rules
    players = random.Random(seed).randint(rules.players_min, min(rules.players_max, 4))
    rng = random.Random(seed)
    seen = _games(Game.new(variant, players, seed=seed), rng)
    for before, after in itertools.pairwise(seen):
        for g in (before, after):
            if g.to_move is None:
                continue
            for seat, cup in enumerate(g.dice):
                assert cup[: len(g.set_aside[seat])] == g.set_aside[seat]
                held = g.dice_counts[seat] - g.roll_counts[seat]
                assert len(cup) == held
        if not _same_round(before, after):
            continue
        assert after.dice_counts == before.dice_counts
        for seat in range(before.players):
            grown = Counter(after.set_aside[seat]) - Counter(before.set_aside[seat])
            assert not Counter(before.set_aside[seat]) - Counter(after.set_aside[seat])
            if not before.awaiting_roll and not after.awaiting_roll:
                assert after.dice == before.dice  # a bid changes no die
            if grown:
                assert after.awaiting_roll and after.to_move == before.to_move == seat
        if before.awaiting_roll and not after.awaiting_roll:  # the re-roll's chance step
            p = before.to_move
            assert p is not None
            others = [s for s in range(before.players) if s != p]
            assert all(after.dice[s] == before.dice[s] for s in others)
            assert after.dice[p][: len(before.dice[p])] == before.dice[p]


@settings(max_examples=25)
@given(variant=reroll_variants(), seed=st.integers(0, 2**32 - 1))
def test_rerolls_replay_from_records_and_json_at_every_step(variant: Any, seed: int) -> None:
    rules = variant.rules
    rng = random.Random(seed)
    players = rng.randint(rules.players_min, min(rules.players_max, 4))
    seen = _games(Game.new(variant, players, seed=seed), rng, limit=40)
    for i, g in enumerate(seen):
        record = json.loads(json.dumps(to_record(g, full=True)))
        assert replay(record) == g
        if i == len(seen) - 1:  # the referee and the JSON state once, at the end
            assert referee(record).valid
            assert Game.from_json(json.loads(json.dumps(g.to_json()))) == g


@pytest.mark.parametrize("seed", range(12))
def test_fastplay_plays_the_step_api_games_with_rerolls(seed: int) -> None:
    variant = load_variant("bluff", overrides={"reroll.must_bid": False})
    fast = play(variant, 3, random.Random(seed), record=True)
    slow = step_play(variant, 3, random.Random(seed))
    assert fast.trace == slow.history and fast.winner == slow.winner
    assert play(variant, 3, random.Random(seed), record=True) == fast  # determinism


def test_rerolls_happen_and_fastplay_agrees_on_bluff() -> None:
    rerolls = 0
    for seed in range(30):
        slow = step_play(BLUFF, 4, random.Random(seed))
        assert play(BLUFF, 4, random.Random(seed), record=True).trace == slow.history
        rerolls += sum(type(a) is Reroll for r in slow.history for a in r.actions)
    assert rerolls > 20


def test_what_each_seat_sees_of_a_reroll() -> None:
    g = Game.start(BLUFF, [[2, 5, 5], [1, 3, 6], [4, 4, 2]], first_player=0)
    g = g.apply(Reroll(0, (5, 5))).roll(dice=[[3], [], []]).apply(Bid(0, 3, 5))
    mine, theirs = g.observation(0), g.observation(1)
    assert mine.dice == (5, 5, 3) and theirs.dice == (1, 3, 6)
    assert mine.set_aside == theirs.set_aside == ((5, 5), (), ())
    assert theirs.actions == (Reroll(0, (5, 5)), Bid(0, 3, 5))
    assert [format_action(a) for a in theirs.legal_actions][-1] == "1:reroll 6"
    view = theirs.to_json()
    assert view["set_aside"] == [[5, 5], [], []] and view["actions"][0] == "0:reroll 5,5"
    assert "3" not in json.dumps(view["set_aside"])  # the re-rolled die is seat 0's secret
    after = g.apply(Dudo(1))
    past0, past1 = after.observation(0).past_rounds[0], after.observation(1).past_rounds[0]
    assert past0.own_dice == (2, 5, 5) and past0.own_rerolls == ((3,),)
    assert past1.own_rerolls == ()
    assert after.history[0].dice == ((2, 5, 5), (1, 3, 6), (4, 4, 2))
    assert after.history[0].rerolls == ((3,),)


def test_refusals_name_the_reroll_rules() -> None:
    g = Game.start(BLUFF, [[2, 5, 5], [1, 3, 6]], first_player=0)
    assert g.violation(Reroll(0, (5, 5, 2))).rule == "reroll.min_hidden"
    assert g.violation(Reroll(0, (4,))).rule == "play.reroll"
    assert g.violation(Reroll(0, ())).rule == "play.reroll"
    assert g.violation(Reroll(1, (1,))).rule == "play.turn"
    assert g.violation(Reroll(7, (1,))).rule == "play.seat"
    pending = g.apply(Reroll(0, (2,)))
    assert pending.legal_actions() == [] or len(pending.legal_actions()) == 0
    for action in (Bid(0, 1, 2), Dudo(1), Reroll(0, (5,))):
        assert pending.violation(action).rule == "play.roll"
    with pytest.raises(IllegalAction, match=r"play\.roll"):
        pending.apply(Bid(0, 1, 2))
    with pytest.raises(ValueError, match="seat 0 rolls 2 dice now, not 1"):
        pending.roll(dice=[[1], []])
    rolled = pending.roll(dice=[[1, 1], []])
    assert rolled.dice[0] == (2, 1, 1) and not rolled.awaiting_roll
    italian = Game.start(load_variant("italian"), [[2, 5, 5], [1, 3, 6]], first_player=0)
    assert italian.violation(Reroll(0, (5,))).rule == "reroll.enabled"


def test_reroll_notation_round_trips() -> None:
    for text in ("2:reroll 5,5", "0:reroll 1,3,6"):
        assert format_action(parse_action(text)) == text
    assert parse_action("1:reroll 6, 2") == Reroll(1, (2, 6))
    assert Reroll(0, (5, 2)) == Reroll(0, (2, 5)) and repr(Reroll(0, (5, 2))) == (
        "Reroll(player=0, set_aside=(2, 5))"
    )


def test_a_record_with_a_wrong_reroll_roll_is_refused() -> None:
    g = Game.start(BLUFF, [[2, 5, 5], [1, 3, 6]], first_player=0)
    g = g.apply(Reroll(0, (5, 5))).roll(dice=[[4], []]).apply(Bid(0, 3, 5))
    record = to_record(g, full=True)
    assert record["rounds"][0]["actions"] == ["0:reroll 5,5", "roll [[4], []]", "0:3x5"]
    bad = json.loads(json.dumps(record))
    bad["rounds"][0]["actions"][1] = "roll [[4, 4], []]"
    verdict = referee(bad)
    assert not verdict.valid and verdict.violation is not None
    assert verdict.violation.rule == "play.roll"
    missing = json.loads(json.dumps(record))
    del missing["rounds"][0]["actions"][1]
    assert referee(missing).violation.rule == "play.roll"  # type: ignore[union-attr]
    assert len(list(states(record))) == 4


def test_openspiel_rerolls_are_actions_and_their_dice_chance_nodes() -> None:
    pytest.importorskip("pyspiel")
    from perudo_rules.openspiel import load_game

    game = load_game("bluff", 2)
    amap = game.action_map
    state = game.new_initial_state()
    state.apply_action(0)  # the roll-off: seat 0 opens
    for d in (2, 5, 5, 1, 2, 1, 3, 6, 4, 4):
        state.apply_action(d - 1)
    rid = amap.to_id(Reroll(0, (5, 5)))
    assert rid >= amap.reroll and amap.to_action(rid, 0) == Reroll(0, (5, 5))
    assert rid in state.legal_actions()
    state.apply_action(rid)
    assert state.is_chance_node() and state.rolling_seat() == 0
    for _ in range(3):  # seat 0 re-rolls three dice, one chance node each
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12 and len(outcomes) == 6
        state.apply_action(0)
    assert not state.is_chance_node() and state.current_player() == 0
    assert state.perudo_game.dice[0] == (5, 5, 1, 1, 1)
    assert all(a < amap.dudo for a in state.legal_actions())  # reroll.must_bid
    assert "aside s0:55" in state.observation_string(1)
    assert "s0:reroll 5,5>111" in state.information_state_string(0)
    assert ">111" not in state.information_state_string(1)


def test_pettingzoo_rerolls_step_and_roll_at_once() -> None:
    pytest.importorskip("pettingzoo")
    from perudo_rules.pettingzoo import raw_env

    env = raw_env("bluff", 2)
    env.reset_to(Game.start(BLUFF, [[2, 5, 5, 1, 1], [1, 3, 6, 4, 4]], first_player=0))
    rid = env.ids.to_id(Reroll(0, (1, 1)))
    assert env.observe("player_0")["action_mask"][rid] == 1
    env.step(rid)
    assert not env.game.awaiting_roll and env.game.set_aside == ((1, 1), ())
    obs = env.observe("player_1")["observation"]
    at = {s.name: s for s in env.layout}["set_aside"]
    assert list(obs[at.start : at.start + 6]) == [0, 0, 0, 0, 0, 0]  # seat 1's own: none
    assert list(obs[at.start + 6 : at.start + 12]) == [2, 0, 0, 0, 0, 0]  # seat 0's two 1s
    assert env.agent_selection == "player_0"


# --- the command line: play and check ------------------------------------------------------


def test_play_takes_a_reroll_and_shows_the_dice_set_aside(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``play`` (Bluff, seed 3: seat 0, the human, opens holding 6 3 6 3 4): a re-roll of
    dice it does not hold is refused with its rule, a legal one rolls at once and the
    table shows the dice set aside; the record keeps the re-roll and its roll."""
    out_file = tmp_path / "game.json"
    lines = ["help", "reroll 5", "reroll 6,6", "3x6", "quit"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    code = main(["play", "bluff", "--players", "2", "--seed", "3", "--seat", "0",
                 "--record-out", str(out_file)])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "reroll 5,5" in out  # help
    assert "hold no more 5s to set aside [play.reroll]" in out
    assert "set aside, face up: seat 0 (you): 6 6" in out
    record = json.loads(out_file.read_text())
    acts = record["rounds"][0]["actions"]
    assert acts[0] == "0:reroll 6,6" and acts[1].startswith("roll [[") and acts[2] == "0:3x6"
    assert referee(record).valid


def test_check_plays_a_position_with_a_reroll_and_checks_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``check --position`` replays a re-roll and its roll, then checks re-rolls among the
    bids: their dice come up as they lay (perft's rule), and each verdict names its rule."""
    pos = {"variant": "bluff", "round": 1, "first_player": 0, "palifico": False,
           "palifico_used": [], "dice": [[2, 5, 5], [1, 3, 6]],
           "actions": ["0:reroll 5,5", "roll [[4], []]", "0:3x5"]}  # fmt: skip
    path = tmp_path / "pos.json"
    path.write_text(json.dumps(pos), encoding="utf-8")
    bids = "reroll 3 reroll 6 4x5"
    code = main(["check", "bluff", "--position", str(path), "--bids", bids, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1  # the second re-roll in seat 1's turn is refused
    verdicts = data["bids"]
    assert [v["legal"] for v in verdicts] == [True, False, True]
    assert verdicts[0]["rolled"] == "roll [[], [1, 6]]"
    assert verdicts[1]["rule"] == "reroll.limit"
    assert data["position"]["actions"][3:] == ["1:reroll 3", "roll [[], [1, 6]]", "1:4x5"]
    code = main(["check", "bluff", "--position", str(path), "--bids", "reroll 3 reroll 2"])
    out = capsys.readouterr().out
    assert code == 1 and "legal; the re-rolled dice come up 1 6" in out
    assert "ILLEGAL [reroll.limit]" in out
