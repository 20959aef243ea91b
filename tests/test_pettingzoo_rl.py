"""The PettingZoo environment with the usual RL tool chain (issue 21): the flat observation
(``observation_mode="flat"``: a ``Box``, the mask in ``info["action_mask"]``) is the dict
observation's data, SuperSuit's wrappers and PettingZoo's tests run on it for every bundled
edition, ``parallel_env`` plays the AEC game, and the recipe in ``docs/pettingzoo.rst`` runs.

Skips without the ``pettingzoo`` extra; the SuperSuit tests skip without SuperSuit, unless
``PERUDO_REQUIRE_SUPERSUIT`` is set (``.ci/run`` sets it), which makes a missing SuperSuit a
failure."""

from __future__ import annotations

import importlib
import os
import random
import re
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="pip install 'perudo-rules[pettingzoo]'")

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.utils.conversions import aec_to_parallel
from strategies import variants

from perudo_rules import Game, Variant, available_variants
from perudo_rules import load_variant as load
from perudo_rules.pettingzoo import PerudoEnv, env, parallel_env, raw_env

DOC = Path(__file__).resolve().parent.parent / "docs" / "pettingzoo.rst"


def _players(variant: str | Variant) -> int:
    v = load(variant) if isinstance(variant, str) else variant
    return int(min(4, v["players.max"]))


@pytest.fixture
def ss() -> ModuleType:
    """SuperSuit, or a skip (a failure when ``PERUDO_REQUIRE_SUPERSUIT`` is set)."""
    try:
        return importlib.import_module("supersuit")
    except ImportError:
        if os.environ.get("PERUDO_REQUIRE_SUPERSUIT"):
            pytest.fail("PERUDO_REQUIRE_SUPERSUIT is set but supersuit does not import")
        pytest.skip("pip install 'perudo-rules[pettingzoo]' (it brings supersuit)")


@pytest.fixture
def quiet() -> Iterator[None]:
    """PettingZoo's tests warn that a finished agent's mask is all zeros, and that an
    unmasked random action in its parallel test is illegal."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def _mask(e: Any, agent: str) -> Any:
    return e.infos[agent]["action_mask"]


# --- the flat observation is the dict observation ----------------------------------------


def _lockstep(variant: Variant | str, players: int, seed: int, limit: int = 3000) -> int:
    """Play a dict-mode and a flat-mode raw environment side by side with the same seed and
    the same random masked actions; at every step every agent's flat observation must be
    the dict's ``observation`` and its ``info["action_mask"]`` the dict's ``action_mask``.
    The number of steps taken."""
    d, f = raw_env(variant, players), raw_env(variant, players, observation_mode="flat")
    d.reset(seed=seed)
    f.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while d.agents and steps < limit:
        assert f.agents == d.agents and f.agent_selection == d.agent_selection
        for agent in d.agents:
            want = d.observe(agent)
            got = f.observe(agent)
            assert isinstance(want, dict) and isinstance(got, np.ndarray)
            assert got.dtype == np.float32 and np.array_equal(got, want["observation"])
            mask = _mask(f, agent)
            assert mask.dtype == np.int8 and np.array_equal(mask, want["action_mask"])
            assert f.observation_space(agent).contains(got)
            assert set(f.infos[agent]) == {"action_mask"} and d.infos[agent] == {}
        agent = d.agent_selection
        if d.terminations[agent] or d.truncations[agent]:
            action = None
        else:
            legal = np.flatnonzero(_mask(f, agent))
            action = int(legal[int(rng.random() * len(legal))])
        d.step(action)
        f.step(action)
        assert f.rewards == d.rewards and f.terminations == d.terminations
        assert f.game == d.game
        steps += 1
    assert f.agents == d.agents
    return steps


@pytest.mark.parametrize("variant", available_variants())
def test_the_flat_observation_is_the_dict_ones_data(variant: str) -> None:
    assert _lockstep(variant, _players(variant), seed=3) > 0


@given(variants(), st.data(), st.integers(0, 2**32 - 1))
def test_the_flat_observation_is_the_dict_ones_data_on_random_editions(
    variant: Variant, data: st.DataObject, seed: int
) -> None:
    players = data.draw(st.integers(variant["players.min"], min(variant["players.max"], 4)))
    _lockstep(variant, players, seed, limit=400)


def test_the_flat_space_is_the_dicts_observation_box() -> None:
    d, f = raw_env("italian", 3), raw_env("italian", 3, observation_mode="flat")
    assert (d.observation_mode, f.observation_mode) == ("dict", "flat")
    assert f.observation_space("player_1") == d.observation_space("player_1")["observation"]
    assert f.observation_space("player_0") is f.observation_space("player_2")
    assert f.action_space("player_0") == d.action_space("player_0")


@pytest.mark.parametrize("bad", ["Flat", "box", "", None, 1, ["flat"]])
def test_an_unknown_observation_mode_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match=r"^observation_mode must be 'dict' or 'flat', not "):
        raw_env("italian", 3, observation_mode=bad)


# --- PettingZoo's own tests and the illegal-action contract, flat -----------------------------


@pytest.mark.parametrize("variant", available_variants())
def test_pettingzoo_api_and_seed_tests_pass_in_flat_mode(variant: str, quiet: None) -> None:
    n = _players(variant)
    api_test(env(variant, n, render_mode="ansi", observation_mode="flat"), num_cycles=1000)
    api_test(raw_env(variant, n, observation_mode="flat"), num_cycles=200)
    seed_test(lambda: env(variant, n, observation_mode="flat"), num_cycles=300)


def test_an_illegal_id_names_the_kernels_rule_in_flat_mode(quiet: None) -> None:
    e = raw_env("spanish", 3, observation_mode="flat")
    e.reset_to(Game.start(e.variant, dice=[[2] * 5, [3] * 5, [4] * 5], first_player=0))
    with pytest.raises(
        ValueError, match=r"^Dudo is not legal for player_0 .*\[play\.bid_needed\]$"
    ):
        e.step(e.ids.dudo)
    with pytest.raises(ValueError, match=r"^1x1 is not legal .*\[bidding\.wild_opening\]$"):
        e.step(e.ids.bid_id(1, 1))
    e.step(e.ids.bid_id(3, 4))
    with pytest.raises(ValueError, match=r"^Dudo is not legal for player_2 .*\[challenge\.who\]$"):
        e.step(e.ids.dudo)
    # wrapped: PettingZoo's TerminateIllegalWrapper reads the mask from the info
    w = env("spanish", 3, observation_mode="flat")
    w.reset(seed=4)
    first = w.agent_selection
    assert _mask(w, first)[w.unwrapped.ids.dudo] == 0
    w.step(w.unwrapped.ids.dudo)
    assert all(w.terminations.values()) and w.rewards[first] == -1.0


# --- SuperSuit ------------------------------------------------------------------------------


def _chain(ss: ModuleType) -> dict[str, Callable[[Any], Any]]:
    """SuperSuit's observation and padding wrappers, one at a time and all together."""
    return {
        "flatten_v0": ss.flatten_v0,
        "dtype_v0": lambda e: ss.dtype_v0(e, np.float64),
        "normalize_obs_v0": ss.normalize_obs_v0,
        "frame_stack_v1": lambda e: ss.frame_stack_v1(e, 3),
        "pad_observations_v0": ss.pad_observations_v0,
        "pad_action_space_v0": ss.pad_action_space_v0,
        "all": lambda e: ss.pad_action_space_v0(
            ss.pad_observations_v0(ss.normalize_obs_v0(ss.dtype_v0(ss.flatten_v0(e), np.float64)))
        ),
    }


def _expected(name: str, raw: Any, space: Any) -> Any:
    """What SuperSuit's ``name`` makes of the raw float32 observation ``raw``."""
    if name == "dtype_v0":
        return raw.astype(np.float64)
    if name in ("normalize_obs_v0", "all"):
        low, high = space.low.astype(np.float64), space.high.astype(np.float64)
        return (raw.astype(np.float64) - low) / (high - low)
    return raw


@pytest.mark.parametrize("variant", available_variants())
def test_supersuit_wrappers_run_on_every_edition_in_flat_mode(
    variant: str, ss: ModuleType, quiet: None
) -> None:
    n = _players(variant)
    for name, wrap in _chain(ss).items():
        if name != "pad_action_space_v0":  # it leaves observations alone
            with pytest.raises((AttributeError, AssertionError)):  # SuperSuit refuses the dict
                wrap(env(variant, n))
        e = wrap(env(variant, n, observation_mode="flat"))
        box = env(variant, n, observation_mode="flat").observation_space("player_0")
        e.reset(seed=5)
        rng = random.Random(5)
        stacked: dict[str, list[Any]] = {}
        for agent in e.agent_iter(10_000):
            obs, _reward, terminated, truncated, info = e.last()
            assert e.observation_space(agent).contains(obs), (name, agent)
            raw = e.unwrapped.observe(agent)
            if name == "frame_stack_v1":  # the last three observations of that agent, in turn
                frames = [*([np.zeros_like(raw)] * 2 + stacked.get(agent, []))[-2:], raw]
                stacked[agent] = frames
                assert np.array_equal(obs, np.concatenate(frames)), agent
            else:
                assert np.allclose(obs, _expected(name, raw, box)), (name, agent)
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(info["action_mask"])
                action = int(legal[int(rng.random() * len(legal))])
            e.step(action)
        assert not e.agents and e.unwrapped.game.winner is not None, name
        api_test(wrap(env(variant, n, observation_mode="flat")), num_cycles=300)


# --- the parallel view ------------------------------------------------------------------------


def test_aec_to_parallel_refuses_at_once_and_why_is_documented() -> None:
    e = env("italian", 3, observation_mode="flat")
    assert e.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(e)
    page = DOC.read_text(encoding="utf-8")
    assert "aec_to_parallel" in page and "turn_based_aec_to_parallel" in page


def _play_parallel(p: Any, seed: int) -> tuple[dict[str, float], Game, int]:
    """Play ``p`` (a ``parallel_env``) with random masked actions: only the agent whose mask
    is not all zeros acts. Total rewards, the final game, the number of steps."""
    observations, infos = p.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(p.possible_agents, 0.0)
    steps = 0
    while p.agents:
        acting = [a for a in p.agents if infos[a]["action_mask"].any()]
        assert len(acting) == 1, acting
        (agent,) = acting
        assert agent == p.unwrapped.agent_selection
        if steps:
            assert {infos[a]["active_agent"] for a in p.agents} == {agent}
        legal = np.flatnonzero(infos[agent]["action_mask"])
        others = {a: 0 for a in p.agents if a != agent}  # ignored
        action = int(legal[int(rng.random() * len(legal))])
        observations, rewards, _term, _trunc, infos = p.step({**others, agent: action})
        assert set(observations) >= set(p.agents)
        for a, r in rewards.items():
            totals[a] += r
        steps += 1
    return totals, p.unwrapped.game, steps


def _play_aec(e: PerudoEnv, seed: int) -> tuple[dict[str, float], Game, int]:
    """The same random policy through the AEC API (finished agents' steps not counted)."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    steps = 0
    for _agent in e.agent_iter():
        _obs, _r, terminated, truncated, info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(info["action_mask"])
        e.step(int(legal[int(rng.random() * len(legal))]))
        for a, r in e.rewards.items():
            totals[a] += r
        steps += 1
    return totals, e.game, steps


@pytest.mark.parametrize("variant", available_variants())
def test_parallel_env_plays_the_aec_game(variant: str, quiet: None) -> None:
    n = _players(variant)
    par = _play_parallel(parallel_env(variant, n, observation_mode="flat"), seed=9)
    aec = _play_aec(raw_env(variant, n, observation_mode="flat"), seed=9)
    assert par == aec
    winner = par[1].winner
    assert winner is not None and par[0][f"player_{winner}"] == 1.0
    parallel_api_test(parallel_env(variant, n), num_cycles=1000)
    parallel_api_test(parallel_env(variant, n, observation_mode="flat"), num_cycles=200)


# --- the recipe in docs/pettingzoo.rst ---------------------------------------------------------


def _python_blocks(text: str) -> list[str]:
    """The ``.. code-block:: python`` blocks of an rst page, dedented, in order."""
    blocks = []
    for m in re.finditer(r"^\.\. code-block:: python\n((?:\n|   .*\n)+)", text, re.M):
        lines = m.group(1).splitlines()
        blocks.append("\n".join(line[3:] for line in lines).strip() + "\n")
    return blocks


def test_the_docs_pages_python_runs(ss: ModuleType, quiet: None) -> None:
    """Every Python block of docs/pettingzoo.rst, in order, in one namespace (as a reader
    pasting them one after another would): the recipe included."""
    blocks = _python_blocks(DOC.read_text(encoding="utf-8"))
    assert any("supersuit" in b and 'observation_mode="flat"' in b for b in blocks)
    assert any("parallel_env(" in b for b in blocks)
    namespace: dict[str, Any] = {"__name__": "docs_pettingzoo"}
    for block in blocks:
        exec(compile(block, str(DOC), "exec"), namespace)
