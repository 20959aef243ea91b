"""One rule for a game stopped by ``max_rounds`` in both RL adapters (issue 30): a draw,
worth 0 to every seat, the seats eliminated before the stop included
(:func:`perudo_rules.engine.settlement.returns` without a winner).

The PettingZoo environment keeps an eliminated seat among its agents until such a game
ends, then pays it; the Gymnasium environment pays its learner the same; and the same
capped games replayed in the OpenSpiel adapter (chance outcomes from the rounds' dice, the
same action ids) return the same values seat by seat. The OpenSpiel half skips without
``pyspiel``. SuperSuit's vector route: it stops at the first elimination without
``max_rounds`` and runs whole games with it (``docs/pettingzoo.rst`` says both)."""

from __future__ import annotations

import importlib
import random
import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="pip install 'perudo-rules[pettingzoo]'")

import numpy as np

from perudo_rules import Game, Variant
from perudo_rules import load_variant as load
from perudo_rules.engine.settlement import returns
from perudo_rules.pettingzoo import PerudoEnv, PerudoGymEnv, parallel_env, raw_env

CAP = 7


def _short() -> Variant:
    """Italian with two dice a seat: with four seats and a cap of 7 rounds, some games are
    won and some stopped after an elimination."""
    return load("italian", overrides={"dice.per_player": 2})


def _play(e: PerudoEnv, seed: int) -> dict[str, float]:
    """A seeded game with random masked actions to the end; each agent's total reward."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for _agent in e.agent_iter():
        obs, _r, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            e.step(int(legal[int(rng.random() * len(legal))]))
        for a, r in e.rewards.items():
            totals[a] += r
    return totals


def _capped_games(count: int = 40) -> list[tuple[Game, list[float]]]:
    """Seeded capped games through the PettingZoo environment: final game, returns."""
    e = raw_env(_short(), 4, max_rounds=CAP)
    out = []
    for seed in range(count):
        totals = _play(e, seed)
        out.append((e.game, [totals[a] for a in e.possible_agents]))
    return out


def _kinds(games: list[tuple[Game, list[float]]]) -> set[str]:
    kinds = set()
    for game, _values in games:
        if game.winner is not None:
            kinds.add("won")
        elif 0 in game.dice_counts:
            kinds.add("stopped after an elimination")
        else:
            kinds.add("stopped, every seat in")
    return kinds


def test_pettingzoo_scores_a_capped_game_as_a_draw_for_every_seat() -> None:
    games = _capped_games()
    assert _kinds(games) >= {"won", "stopped after an elimination"}
    for game, values in games:
        assert values == list(returns(game.winner, 4))
        assert game.winner is not None or game.round == CAP


def test_an_eliminated_seat_stays_until_a_capped_game_ends() -> None:
    for cap in (1, 5):
        e = raw_env("italian", 3, max_rounds=cap)
        e.reset(seed=11)
        # Seat 2 holds its last die; it bids 2x5 with one five and no wild on the table.
        e.reset_to(Game.start(e.variant, dice=[[3, 3, 3], [3, 3], [5]], first_player=2))
        e.step(e.ids.bid_id(2, 5))
        e.step(e.ids.pass_)  # seat 1, offered Calza
        e.step(e.ids.dudo)  # seat 0 doubts: seat 2 loses its last die
        assert e.game.dice_counts == (3, 2, 0)
        if cap == 1:  # the stop: every seat paid 0, the seat out terminated
            assert e.terminations == {"player_0": False, "player_1": False, "player_2": True}
            assert all(e.truncations[a] for a in ("player_0", "player_1"))
            assert set(e.rewards.values()) == {0.0}
            continue
        # the game goes on: seat 2 is still an agent, never selected, its mask all zeros
        assert "player_2" in e.agents and not e.terminations["player_2"]
        assert e.rewards["player_2"] == 0.0 and not e.observe("player_2")["action_mask"].any()
        rng = random.Random(3)
        total = 0.0
        while not (e.terminations["player_2"] or e.truncations["player_2"]):
            assert e.agent_selection != "player_2"
            legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
            e.step(int(legal[int(rng.random() * len(legal))]))
            total += e.rewards["player_2"]
        assert e.game.winner is not None or e.game.round == cap
        assert total == returns(e.game.winner, 3)[2]


# --- OpenSpiel: the same games, the same returns --------------------------------------------


def _openspiel_returns(game: Game, max_rounds: int) -> list[float]:
    """``game`` (finished or stopped) replayed in the OpenSpiel adapter capped at
    ``max_rounds``: each round's opener and dice as chance outcomes, its actions as ids
    (every seat offered a call before an action passes); the terminal returns."""
    from perudo_rules.openspiel import load_game

    g = load_game(game.variant, game.players, max_rounds=max_rounds)
    amap = g.action_map
    state = g.new_initial_state()
    for rec in game.history:
        dice = [(s, d) for s in range(game.players) for d in sorted(rec.dice[s])]
        while state.is_chance_node():
            seat = state.rolling_seat()
            if seat is None:  # the roll-off's opener, before the first round's dice
                state.apply_action(rec.first_player)
                continue
            expected, die = dice.pop(0)
            assert seat == expected
            state.apply_action(die - 1)
        assert not dice
        for action in rec.actions:
            while state.current_player() != action.player:
                assert state.offered()
                state.apply_action(amap.pass_)
            state.apply_action(amap.to_id(action))
    assert state.is_terminal()
    final = state.perudo_game
    assert (final.dice_counts, final.winner, final.round) == (
        game.dice_counts,
        game.winner,
        game.round,
    )
    return list(state.returns())


def test_both_adapters_score_the_same_capped_games() -> None:
    pytest.importorskip("pyspiel", reason="pip install 'perudo-rules[openspiel]'")
    games = _capped_games()
    assert "stopped after an elimination" in _kinds(games)
    for game, values in games:
        assert _openspiel_returns(game, CAP) == pytest.approx(values, abs=0.0)


def test_the_gymnasium_learner_gets_its_openspiel_return() -> None:
    pytest.importorskip("pyspiel", reason="pip install 'perudo-rules[openspiel]'")
    e = PerudoGymEnv(_short(), 4, seat=None, max_rounds=CAP)
    rng = np.random.default_rng(4)
    e.reset(seed=4)
    outcomes = set()
    for _ in range(30):
        e.reset()
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(e.action_masks())
            _obs, reward, terminated, truncated, _info = e.step(int(rng.choice(legal)))
            total += float(reward)
            done = terminated or truncated
        game = e.game  # with a cap the episode ends only when the game does
        assert game.winner is not None or game.round == CAP
        assert total == _openspiel_returns(game, CAP)[e.seat]
        outcomes.add((game.dice_counts[e.seat] == 0, game.winner is None))
    assert (True, True) in outcomes  # out before a stop: 0, as in OpenSpiel


# --- SuperSuit's vector route -----------------------------------------------------------------


def _supersuit_steps(max_rounds: int | None, steps: int, black_death: bool = False) -> int:
    """SuperSuit's vector env over ``parallel_env``, random masked actions; games ended."""
    ss: Any = importlib.import_module("supersuit")
    p = parallel_env(_short(), 3, observation_mode="flat", max_rounds=max_rounds)
    venv = ss.pettingzoo_env_to_vec_env_v1(ss.black_death_v3(p) if black_death else p)
    _obs, infos = venv.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(steps):
        masks = [info.get("action_mask") for info in infos]
        acts = [int(rng.choice(np.flatnonzero(m))) if m is not None and m.any() else 0
                for m in masks]  # fmt: skip
        _obs, _rew, term, trunc, infos = venv.step(np.array(acts))
        ended += bool((term | trunc).all())
    return ended


def test_supersuit_stops_at_an_elimination_without_max_rounds_only() -> None:
    pytest.importorskip("supersuit")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with pytest.raises(AssertionError, match="varying numbers of active agents"):
            _supersuit_steps(None, 400)
        assert _supersuit_steps(CAP, 300) >= 5


def test_supersuit_black_death_never_ends_the_game() -> None:
    """SuperSuit 3.11's black_death_v3 reports the end only when every agent is both
    terminated and truncated: the vector env never resets, and fails after the game."""
    ss = pytest.importorskip("supersuit")
    if not ss.__version__.startswith("3.11."):
        pytest.skip(f"docs/pettingzoo.rst describes SuperSuit 3.11, not {ss.__version__}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with pytest.raises(ValueError, match="not enough values to unpack"):
            _supersuit_steps(None, 2000, black_death=True)
