"""The PettingZoo environment (perudo_rules.pettingzoo): PettingZoo's own API and seed tests
on every bundled edition, the action masks against the engine, elimination, rewards,
rendering. Skips cleanly when the ``pettingzoo`` extra is not installed."""

from __future__ import annotations

import random
import runpy
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="pip install 'perudo-rules[pettingzoo]'")

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test
from strategies import MAX_PLAYERS, boosted, variants

import perudo_rules.pettingzoo as pettingzoo_module
from perudo_rules import Calza, Dudo, Game, IllegalAction, Variant, available_variants
from perudo_rules import load_variant as load
from perudo_rules.engine.actionmap import action_map
from perudo_rules.pettingzoo import (
    PerudoEnv,
    env,
    observation_layout,
    raw_env,
)


def _players(variant: str | Variant) -> int:
    v = load(variant) if isinstance(variant, str) else variant
    return int(min(4, v["players.max"]))


def _quiet() -> Any:
    """PettingZoo's tests warn that a dict observation is not a Box (as for its own classic
    environments) and that a finished agent's mask is all zeros."""
    ctx = warnings.catch_warnings()
    ctx.__enter__()
    warnings.simplefilter("ignore", UserWarning)
    return ctx


@pytest.mark.parametrize("variant", available_variants())
def test_pettingzoo_api_test(variant: str) -> None:
    ctx = _quiet()
    try:
        api_test(env(variant, _players(variant), render_mode="ansi"), num_cycles=1000)
        api_test(raw_env(variant, _players(variant)), num_cycles=200)
    finally:
        ctx.__exit__(None, None, None)


@pytest.mark.parametrize("variant", available_variants())
def test_pettingzoo_seed_test(variant: str) -> None:
    seed_test(lambda: env(variant, _players(variant)), num_cycles=500)


def _play_out(e: PerudoEnv, rng: random.Random, limit: int = 50_000) -> dict[str, float]:
    """Play ``e`` (reset) to the end with uniformly random masked actions; total rewards."""
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for steps, agent in enumerate(e.agent_iter()):
        obs, _reward, terminated, truncated, _info = e.last()
        assert e.observation_space(agent).contains(obs)
        if terminated or truncated:
            assert not obs["action_mask"].any()
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal), f"{agent} must act but has no legal action"
            action = int(legal[int(rng.random() * len(legal))])
        e.step(action)
        for a, r in e.rewards.items():
            totals[a] += r
        assert steps < limit, "the game did not end"
    return totals


@boosted()
@given(variants(), st.data(), st.integers(0, 2**32 - 1))
def test_random_masked_games_end_with_exactly_one_winner(
    variant: Variant, data: st.DataObject, seed: int
) -> None:
    players = data.draw(st.integers(variant["players.min"], min(variant["players.max"], 5)))
    assert players <= MAX_PLAYERS
    e = raw_env(variant, players)
    e.reset(seed=seed)
    totals = _play_out(e, random.Random(seed))
    assert e.agents == []
    winner = e.game.winner
    assert winner is not None
    # zero-sum, the kernel's returns: +1 to the winner, -1/(n-1) to every other seat
    assert totals[f"player_{winner}"] == 1.0
    assert all(v == -1.0 / (players - 1) for a, v in totals.items() if a != f"player_{winner}")
    assert abs(sum(totals.values())) < 1e-9


def test_eliminated_agents_leave_with_a_losers_value() -> None:
    e = raw_env("italian", 3)
    e.reset(seed=11)
    # Seat 2 holds its last die; it bids 2x5 with one five and no wild on the table.
    e.reset_to(Game.start(e.variant, dice=[[3, 3, 3], [3, 3], [5]], first_player=2))
    assert e.agent_selection == "player_2"
    e.step(e.ids.bid_id(2, 5))
    assert e.agent_selection == "player_1"  # Italian Calza: offered to seat 1 out of turn
    e.step(e.ids.pass_)
    assert e.agent_selection == "player_0"
    e.step(e.ids.dudo)  # seat 0 doubts: seat 2 loses its last die
    assert e.terminations["player_2"] and e.rewards["player_2"] == -0.5  # -1/(3-1)
    assert e.agent_selection == "player_2"  # its last step, with None
    obs, reward, terminated, _, _ = e.last()
    assert terminated and reward == -0.5 and not obs["action_mask"].any()
    e.step(None)
    assert e.agents == ["player_0", "player_1"]
    assert "player_2" not in e.rewards
    assert e.game.dice_counts == (3, 2, 0)
    assert e.agent_selection == f"player_{e.game.to_move}"
    with pytest.raises(ValueError, match="still playing"):
        e.step(None)


def test_masks_agree_with_the_engine() -> None:
    rng = random.Random(5)
    for variant in available_variants():
        e = raw_env(variant, _players(variant))
        e.reset(seed=5)
        for _ in range(300):
            if not e.agents:
                e.reset()
            agent = e.agent_selection
            seat = int(agent.split("_")[1])
            mask = e.observe(agent)["action_mask"]
            if e.terminations[agent]:
                e.step(None)
                continue
            game = e.game
            for other in e.agents:
                if other != agent:
                    assert not e.observe(other)["action_mask"].any()
            legal = set(np.flatnonzero(mask).tolist())
            if seat == game.to_move:
                expected = {e.ids.to_id(a) for a in game.legal_actions() if a.player == seat}
                assert e.ids.pass_ not in legal
            else:  # an offered out-of-turn call
                expected = {e.ids.to_id(a) for a in (Dudo(seat), Calza(seat)) if game.is_legal(a)}
                expected.add(e.ids.pass_)
                assert len(expected) > 1
            assert legal == expected
            e.step(rng.choice(sorted(legal)))


def test_out_of_turn_calza_is_offered_seat_by_seat() -> None:
    # Spanish: any seat but the bidder may call Calza; the player to move decides last.
    e = raw_env("spanish", 4)
    e.reset_to(Game.start(e.variant, dice=[[2] * 5, [3] * 5, [4] * 5, [5] * 5], first_player=0))
    e.step(e.ids.bid_id(3, 4))
    assert e.deciding_seat() == 2  # after seat 1 (to move): seats 2, 3 offered in turn
    obs = e.observe("player_2")
    offer = next(s for s in e.layout if s.name == "call_offer")
    assert obs["observation"][offer.start] == 1
    assert e.legal_ids(2) == [e.ids.calza, e.ids.pass_]
    e.step(e.ids.pass_)
    assert e.agent_selection == "player_3"
    e.step(e.ids.pass_)
    assert e.agent_selection == "player_1" and e.game.to_move == 1
    assert e.ids.calza in e.legal_ids(1) and e.ids.dudo in e.legal_ids(1)
    e.step(e.ids.calza)  # 3x4 exact? seat 2 holds five 4s: no, seat 1 loses a die
    assert e.game.dice_counts[1] == 4
    r = e.game.last_result
    assert r is not None and r.kind == "calza" and r.caller == 1


def test_action_ids_match_the_openspiel_adapter() -> None:
    openspiel = pytest.importorskip("perudo_rules.openspiel", exc_type=ImportError)
    for variant in available_variants():
        ours = raw_env(variant, _players(variant)).ids
        theirs = openspiel.load_game(variant, _players(variant)).action_map
        assert (ours.num_actions, ours.dudo, ours.calza, ours.pass_) == (
            theirs.num_actions,
            theirs.dudo,
            theirs.calza,
            theirs.pass_,
        )
        assert [ours.name(i) for i in range(ours.num_actions)] == [
            theirs.name(i) for i in range(ours.num_actions)
        ]


def test_observation_shows_own_dice_and_nothing_of_other_cups() -> None:
    e = raw_env("italian", 3)
    layout = {s.name: s for s in e.layout}
    assert layout["own_dice"].start == 0
    assert all(a.stop == b.start for a, b in zip(e.layout, e.layout[1:], strict=False))
    assert e.observation_space("player_0")["observation"].shape == (e.layout[-1].stop,)
    e.reset_to(Game.start(e.variant, dice=[[1, 1, 4, 6, 6], [5] * 5, [1] * 5], first_player=0))
    seen = e.observe("player_0")["observation"]
    e.reset_to(Game.start(e.variant, dice=[[1, 1, 4, 6, 6], [2] * 5, [3] * 5], first_player=0))
    obs = e.observe("player_0")["observation"]
    assert np.array_equal(obs, seen)
    own = layout["own_dice"]
    assert obs[own.start : own.stop].tolist() == [2, 0, 0, 1, 0, 2]
    # Seats are relative: player_1 sees itself at 0 and player_0 two places on.
    e.step(e.ids.bid_id(2, 6))
    assert e.agent_selection == "player_2"  # offered Calza out of turn
    e.step(e.ids.pass_)
    obs1 = e.observe("player_1")["observation"]
    bids = layout["bids"]
    assert obs1[bids.start + e.ids.bid_id(2, 6) * 3 + 2] == 1
    assert obs1[layout["standing_bid"].start + e.ids.bid_id(2, 6)] == 1
    assert obs1[layout["to_move"].start] == 1  # player_1 is to move: offset 0
    e.step(e.ids.dudo)  # seat 1 doubts 2x6: two 6s and two wild 1s, so seat 1 loses
    obs0 = e.observe("player_0")["observation"]
    assert obs0[layout["past[0].present"].start] == 1
    assert obs0[layout["past[0].loser"].start + 1] == 1
    shown = layout["past[0].shown"]
    assert obs0[shown.start : shown.start + 6].tolist() == [2, 0, 0, 1, 0, 2]
    assert obs0[layout["dice_counts"].start + 1] == 4


def test_illegal_actions() -> None:
    e = raw_env("italian", 2)
    e.reset(seed=3)
    with pytest.raises(ValueError, match=r"Dudo is not legal for player_.*\[play.bid_needed\]"):
        e.step(e.ids.dudo)  # no bid to doubt yet
    with pytest.raises(ValueError, match="no action id"):
        e.step(e.ids.num_actions + 5)
    wrapped = env("italian", 2)
    wrapped.reset(seed=3)
    first = wrapped.agent_selection
    ctx = _quiet()
    try:
        wrapped.step(action_map("italian", 2).dudo)
    finally:
        ctx.__exit__(None, None, None)
    assert all(wrapped.terminations.values())
    assert wrapped.rewards[first] == -1.0
    with pytest.raises(ValueError, match="not of this environment"):
        e.reset_to(Game.new(load("spanish"), 2, seed=1))


def test_reset_with_a_seed_is_deterministic() -> None:
    a, b = raw_env("italian", 4), raw_env("italian", 4)
    a.reset(seed=7)
    b.reset(seed=7)
    assert a.game == b.game
    first = a.game
    a.reset()
    b.reset()
    assert a.game == b.game and a.game != first
    a.reset(seed=7)
    assert a.game == first
    c = raw_env("italian", 4)
    c.reset(seed=8)
    assert c.game != first


def test_max_rounds_truncates_with_zero_rewards() -> None:
    e = raw_env("italian", 3, max_rounds=1)
    e.reset(seed=4)
    totals = _play_out(e, random.Random(4))
    assert set(totals.values()) == {0.0}
    assert e.game.round == 1 and e.game.winner is None


def test_render(capsys: pytest.CaptureFixture[str]) -> None:
    e = raw_env("italian", 3, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text is not None
    assert "round 1" in text and "player_2" in text and "bids: (none yet)" in text
    h = raw_env("italian", 3, render_mode="human")
    h.reset(seed=1)
    assert h.render() is None
    out = capsys.readouterr().out
    assert text in out
    h.step(h.legal_ids(h.game.to_move or 0)[0])
    assert "bids: " in capsys.readouterr().out
    with pytest.warns(UserWarning):
        raw_env("italian", 3).render()


def test_bad_arguments_and_a_house_rules_file(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="plays with exactly 2"):
        raw_env("openspiel-liars-dice", 4)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("italian", 2, render_mode="rgb_array")
    with pytest.raises(ValueError, match="past_rounds"):
        observation_layout("italian", 2, past_rounds=-1)
    house = tmp_path / "house.yaml"
    house.write_text("extends: italian\ncalza:\n  enabled: false\n", encoding="utf-8")
    e = raw_env(house, 2, past_rounds=3)
    e.reset(seed=0)
    assert e.variant.id == "house"
    # no Calza in the house rules: its id is left out (as in OpenSpiel's liars_dice)
    assert e.ids.calza == -1
    assert e.ids.num_actions == action_map("italian", 2).num_actions - 1
    assert sum(1 for s in e.layout if s.name.endswith(".present")) == 3
    totals = _play_out(e, random.Random(0))
    assert sorted(totals.values()) == [-1.0, 1.0]  # two seats: -1/(2-1)


def test_the_example_match_runs(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).resolve().parent.parent / "examples" / "pettingzoo_match.py"
    example = runpy.run_path(str(path))
    assert example["main"](["--variant", "spanish", "--players", "3", "--games", "6"]) == 0
    out = capsys.readouterr().out
    assert "spanish, 3 players, 6 games" in out
    wins = example["play_match"]("italian", 2, 4, {0}, 3)
    assert sum(wins.values()) == 4


def test_the_docs_page_describes_every_segment_and_public_name() -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "pettingzoo.rst").read_text(
        encoding="utf-8"
    )
    for name in ("env", "raw_env", "observation_layout", "observation_size"):
        assert f"py:function:: {name}(" in page, name
    for name in pettingzoo_module.__all__:
        assert name in page, name
    for segment in observation_layout("italian", 4, past_rounds=2):
        generic = segment.name.replace("[0]", "[k]").replace("[1]", "[k]")
        assert f"``{generic}``" in page, segment.name


# --- the contract of the unwrapped environment (issue 19): documented errors only --------


def test_stepping_outside_a_game_is_a_runtime_error() -> None:
    e = raw_env("italian", 2)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        e.step(0)
    e.reset(seed=1)
    _play_out(e, random.Random(1))
    assert e.agents == []
    with pytest.raises(RuntimeError, match="the game is over"):
        e.step(0)
    e.reset()
    assert e.agents


def test_action_ids_must_be_integers_numpy_ones_included() -> None:
    e = raw_env("italian", 2)
    e.reset(seed=2)
    seat = e.game.to_move
    assert seat is not None
    for bad in (3.7, float("inf"), [3], "3", True, np.float32(3.0), None.__class__):
        with pytest.raises(TypeError, match="an action id must be an integer"):
            e.step(bad)  # type: ignore[arg-type]
    assert e.game.bids == ()  # nothing was played
    e.step(np.int64(e.ids.bid_id(1, 2)))  # type: ignore[arg-type]
    assert e.game.bids[-1].quantity == 1 and e.game.bids[-1].face == 2
    while e.game.call_offers() and e.deciding_seat() != e.game.to_move:
        e.step(np.array(e.ids.pass_))  # type: ignore[arg-type]
    e.step(np.uint16(e.ids.dudo))  # type: ignore[arg-type]
    assert e.game.history


def test_an_illegal_id_names_the_kernels_rule() -> None:
    e = raw_env("spanish", 3)
    e.reset_to(Game.start(e.variant, dice=[[2] * 5, [3] * 5, [4] * 5], first_player=0))
    with pytest.raises(
        IllegalAction, match=r"^Dudo is not legal for player_0 now: .*\[play\.bid_needed\]$"
    ) as dudo:
        e.step(e.ids.dudo)
    assert dudo.value.rule == "play.bid_needed"
    assert dudo.value.refusal.message_id == "dudo-without-bid"
    assert dudo.value.message_in("es") == "aún no hay una puja de la que dudar [play.bid_needed]"
    with pytest.raises(ValueError, match=r"^Pass is not legal for player_0 now: .*\[play\.turn\]$"):
        e.step(e.ids.pass_)
    # Spanish: no wild opening bid
    with pytest.raises(ValueError, match=r"^1x1 is not legal .*\[bidding\.wild_opening\]$"):
        e.step(e.ids.bid_id(1, 1))
    with pytest.raises(ValueError, match=r"^no action id -1 \(ids run 0\.\."):
        e.step(-1)
    e.step(e.ids.bid_id(3, 4))
    assert e.agent_selection == "player_2"  # offered Calza out of turn
    with pytest.raises(IllegalAction, match=r"offered an out-of-turn call .*\[play\.turn\]$") as x:
        e.step(e.ids.bid_id(4, 4))
    assert x.value.refusal.message_id == "offered-call-only"
    with pytest.raises(IllegalAction) as offer_first:  # a bid the kernel refuses too:
        e.step(e.ids.bid_id(1, 1))  # the offer's rule is asked first
    assert offer_first.value.refusal.message_id == "offered-call-only"
    with pytest.raises(
        ValueError, match=r"^Dudo is not legal for player_2 now: .*\[challenge\.who\]$"
    ):
        e.step(e.ids.dudo)


def test_seeds_are_none_or_integers_numpy_ones_included() -> None:
    a, b = raw_env("italian", 3), raw_env("italian", 3)
    a.reset(seed=7)
    b.reset(seed=np.int64(7))  # type: ignore[arg-type]
    assert a.game == b.game
    for bad in ([7], 7.0, "7", True):
        with pytest.raises(TypeError, match="seed must be an integer"):
            a.reset(seed=bad)  # type: ignore[arg-type]


def test_the_observation_is_bounded_before_anything_is_allocated(tmp_path: Path) -> None:
    for variant, players, past in (("italian", 4, 0), ("spanish", 6, 3), ("bluff", 4, 1)):
        layout = observation_layout(variant, players, past)
        assert pettingzoo_module.observation_size(variant, players, past) == layout[-1].stop
    with pytest.raises(ValueError, match=r"would hold [\d,]+ entries; the bound is 4,194,304"):
        raw_env("italian", 4, past_rounds=10**7)
    crowd = tmp_path / "crowd.yaml"
    crowd.write_text(
        "extends: italian\nplayers:\n  max: 1000\ndice:\n  per_player: 16\n  max_per_player: 16\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="would hold 96,"):
        raw_env(crowd, 1000)  # 1000 seats x 16 d6: 385 MB an observation
    e = raw_env("italian", 6)  # one observation space, shared by every agent
    assert e.observation_space("player_0") is e.observation_space("player_5")


def test_human_rendering_escapes_a_variants_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    house = tmp_path / "house.yaml"
    house.write_text(
        'extends: italian\nname: "Red \\e[31m\\e]0;pwned\\a house"\n', encoding="utf-8"
    )
    e = raw_env(house, 2, render_mode="human")
    assert "\x1b]0;" in e.variant.name  # the name holds terminal escapes
    e.reset(seed=1)
    out = capsys.readouterr().out
    assert "house" in out and "\x1b" not in out and "\a" not in out
