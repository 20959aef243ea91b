"""The single-agent Gymnasium environment (perudo_rules.pettingzoo.single, issue 30): one
learning seat against fixed opponents. Gymnasium's ``check_env`` on every bundled edition,
``gymnasium.make``, the masks against the kernel, seeding, the learner's return, illegal
actions, ``SyncVectorEnv`` and ``AsyncVectorEnv`` through eliminations and resets, and the
vector recipe of ``docs/pettingzoo.rst``. Skips without the ``pettingzoo`` extra."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="pip install 'perudo-rules[pettingzoo]'")

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

from perudo_rules import Bid, Calza, Dudo, Game, Variant, available_variants
from perudo_rules import load_variant as load
from perudo_rules.analysis.bots import RandomBot
from perudo_rules.engine.settlement import returns
from perudo_rules.pettingzoo import ENV_ID, PerudoGymEnv, observation_layout

DOC = Path(__file__).resolve().parent.parent / "docs" / "pettingzoo.rst"


def _players(variant: str | Variant) -> int:
    v = load(variant) if isinstance(variant, str) else variant
    return int(min(3, v["players.max"]))


def _short(per_player: int = 2) -> Variant:
    """Italian with few dice: games of a handful of rounds, eliminations early."""
    return load("italian", overrides={"dice.per_player": per_player})


@pytest.fixture
def quiet() -> Iterator[None]:
    """Gymnasium's checker warns about things it cannot test (render modes without a
    spec); the render check prints the table."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def _random_action(e: Any, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(e.unwrapped.action_masks())
    assert len(legal), "the learner must act but has no legal action"
    return int(rng.choice(legal))


def _episode(e: Any, seed: int | None, rng: np.random.Generator) -> tuple[float, list[Any]]:
    """One episode with random masked actions: the learner's return and every step."""
    obs, info = e.reset(seed=seed)
    steps: list[Any] = [(obs, info)]
    total, done = 0.0, False
    while not done:
        out = e.step(_random_action(e, rng))
        steps.append(out)
        total += float(out[1])
        done = out[2] or out[3]
    return total, steps


# --- Gymnasium's own checks and registration --------------------------------------------------


@pytest.mark.parametrize("variant", available_variants())
def test_check_env_on_every_edition(variant: str, quiet: None) -> None:
    n = _players(variant)
    check_env(PerudoGymEnv(variant, n, opponents="baseline"), skip_render_check=True)
    check_env(PerudoGymEnv(variant, n, seat=None, observation_mode="flat", max_rounds=3))


def test_registered_and_made_by_id(quiet: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert ENV_ID == "perudo_rules/Perudo-v0" and ENV_ID in gymnasium.registry
    e = gymnasium.make(ENV_ID, variant="spanish", players=3, render_mode="ansi")
    assert isinstance(e.unwrapped, PerudoGymEnv)
    assert e.unwrapped.variant.id == "spanish" and e.unwrapped.players == 3
    check_env(e.unwrapped)  # the render check makes the other modes through the spec
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "player_0" in text
    mask = e.get_wrapper_attr("action_masks")()
    assert mask.dtype == np.bool_ and mask.any()
    # the Gymnasium default of an env made by id is the same as the class default
    d = gymnasium.make(ENV_ID)
    assert d.unwrapped.variant.id == "italian" and d.unwrapped.players == 4
    d.close()
    capsys.readouterr()


def test_spaces_are_the_pettingzoo_environments() -> None:
    from perudo_rules.pettingzoo import raw_env

    for mode in ("dict", "flat"):
        g = PerudoGymEnv("spanish", 3, observation_mode=mode)
        p = raw_env("spanish", 3, observation_mode=mode)
        assert g.observation_space == p.observation_space("player_0")
        assert g.action_space == p.action_space("player_0")


# --- masks, seats and opponents ---------------------------------------------------------------


def _kernel_mask(e: PerudoGymEnv) -> set[int]:
    """The learner's legal ids, from the kernel: its own legal actions on its turn, the
    calls it may make and Pass when it is offered an out-of-turn call."""
    game, seat, ids = e.game, e.seat, e.aec.ids
    assert e.aec.deciding_seat() == seat  # control is back with the learner
    if seat == game.to_move:
        return {ids.to_id(a) for a in game.legal_actions() if a.player == seat}
    calls = {ids.to_id(a) for a in (Dudo(seat), Calza(seat)) if game.is_legal(a)}
    return calls | {ids.pass_}


@pytest.mark.parametrize("variant", available_variants())
def test_masks_are_the_kernels_legal_actions(variant: str) -> None:
    rng = np.random.default_rng(3)
    e = PerudoGymEnv(variant, _players(variant), seat=None, observation_mode="flat")
    obs, info = e.reset(seed=3)
    for _ in range(150):
        mask = e.action_masks()
        assert set(np.flatnonzero(mask).tolist()) == _kernel_mask(e)
        assert np.array_equal(info["action_mask"], mask.astype(np.int8))
        obs, _r, terminated, truncated, info = e.step(_random_action(e, rng))
        assert e.observation_space.contains(obs)
        if terminated or truncated:
            assert not e.action_masks().any() and not info["action_mask"].any()
            obs, info = e.reset()


def test_same_seed_same_game_and_opponents_choices() -> None:
    def run(seed: int) -> list[Any]:
        e = PerudoGymEnv(_short(3), 4, seat=None, opponents=["baseline", "random", "baseline"])
        rng = np.random.default_rng(0)
        out = []
        for k in range(3):
            _total, steps = _episode(e, seed if k == 0 else None, rng)
            out.append((e.seat, e.game, [(s[1], s[2], s[3]) for s in steps[1:]]))
        return out

    first = run(11)
    assert run(11) == first
    assert run(12) != first


def test_opponents_by_name_bot_callable_or_list() -> None:
    calls: list[tuple[int, int]] = []

    def lowest(game: Game, seat: int) -> Any:
        calls.append((game.round, seat))
        if game.to_move != seat:
            return None  # pass on every offer
        legal = [a for a in game.legal_actions() if a.player == seat]
        return legal[0]

    bot = RandomBot(seed=1)
    for opponents in (lowest, bot, ["random", lowest, bot], "baseline"):
        e = PerudoGymEnv("italian", 4, seat=1, opponents=opponents)
        _episode(e, 5, np.random.default_rng(5))
    assert calls and {seat for _r, seat in calls} >= {0, 2}

    made: list[PerudoGymEnv] = []

    def by_id(game: Game, seat: int) -> int:  # the highest legal id: Dudo, Calza or Pass
        return int(made[0].aec.legal_ids(seat)[-1])

    made.append(PerudoGymEnv("italian", 3, opponents=by_id))
    _episode(made[0], 2, np.random.default_rng(2))

    with pytest.raises(ValueError, match="unknown bot"):
        PerudoGymEnv("italian", 3, opponents="nobody")
    with pytest.raises(ValueError, match="3 opponents for 2 other seats"):
        PerudoGymEnv("italian", 3, opponents=["random"] * 3)
    with pytest.raises(TypeError):
        PerudoGymEnv("italian", 3, opponents=["random", 7])
    with pytest.raises(ValueError, match="seat"):
        PerudoGymEnv("italian", 3, seat=3)

    def cheat(game: Game, seat: int) -> Any:
        return Bid((seat + 1) % game.players, 30, 6)

    e = PerudoGymEnv("italian", 3, seat=2, opponents=cheat)
    with pytest.raises(ValueError, match="acted for seat"):
        e.reset(seed=0)


def test_a_game_over_before_the_learners_first_decision_is_dealt_again() -> None:
    """With challenge.exact others_lose an exact Dudo between two opponents takes the
    learner's last die and ends the game before the learner decides: reset deals again."""
    knobs = {"challenge.exact": "others_lose", "dice.per_player": 1, "calza.enabled": False}
    v = load("italian", overrides=knobs)
    ended_early = 0

    def dudo_at_once(game: Game, seat: int) -> Any:
        nonlocal ended_early
        if game.to_move != seat:
            return None
        if game.bids and game.is_legal(Dudo(seat)):
            ended_early += game.apply(Dudo(seat)).winner is not None
            return Dudo(seat)
        return next(a for a in game.legal_actions() if a.player == seat)

    e = PerudoGymEnv(v, 3, seat=2, opponents=dudo_at_once)
    e.reset(seed=0)
    for _ in range(60):
        e.reset()
        assert e.game.winner is None and e.game.dice_counts[2] == 1
        assert e.action_masks().any() and e.aec.deciding_seat() == 2
    assert ended_early, "no deal ended before the learner's decision"


# --- the learner's return and illegal actions -------------------------------------------------


def test_the_episode_return_is_the_learners_return() -> None:
    rng = np.random.default_rng(7)
    seen = set()
    e = PerudoGymEnv(_short(), 3, seat=None, opponents="random")
    e.reset(seed=7)
    for _ in range(40):
        total, steps = _episode(e, None, rng)
        game, seat = e.game, e.seat
        terminated, truncated = steps[-1][2], steps[-1][3]
        assert terminated and not truncated
        out = game.dice_counts[seat] == 0
        if out:  # the learner's episode ends when it is out, whoever goes on to win
            assert total == -0.5
        else:
            assert game.winner is not None and total == returns(game.winner, 3)[seat]
        assert all(r == 0.0 for _o, r, *_ in steps[1:-1])
        seen.add((out, total))
    assert (True, -0.5) in seen and (False, 1.0) in seen


def test_a_capped_game_is_a_draw_for_the_learner_out_or_in() -> None:
    """With max_rounds the learner's return when it is out is known at the game's end:
    the opponents play the game out within the last step, and a stop is 0 for it too."""
    rng = np.random.default_rng(1)
    e = PerudoGymEnv(_short(), 4, seat=None, max_rounds=7)
    e.reset(seed=1)
    kinds = set()
    for _ in range(60):
        total, steps = _episode(e, None, rng)
        game, seat = e.game, e.seat
        terminated, truncated = steps[-1][2], steps[-1][3]
        out = game.dice_counts[seat] == 0
        assert total == returns(game.winner, 4)[seat]  # 0 for all without a winner
        assert game.winner is not None or game.round == 7
        assert truncated == (game.winner is None and not out)
        assert terminated == (not truncated)
        kinds.add((out, game.winner is None))
    # every case: out before a stop, out of a game won, in at a stop, in at a win
    assert kinds == {(True, True), (True, False), (False, True), (False, False)}


def test_illegal_action_ends_the_episode_with_minus_one() -> None:
    e = PerudoGymEnv("italian", 3)
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)
    e.reset(seed=4)
    ids = e.unwrapped.aec.ids
    with pytest.raises(ValueError, match="no action id"):
        e.step(ids.num_actions)
    with pytest.raises(TypeError):
        e.step(1.5)
    illegal = int(np.flatnonzero(~e.action_masks())[0])
    obs, reward, terminated, truncated, info = e.step(np.int64(illegal))
    assert (reward, terminated, truncated, info.get("illegal_action")) == (-1.0, True, False, True)
    assert e.observation_space.contains(obs) and not e.action_masks().any()
    with pytest.raises(RuntimeError, match="episode is over"):
        e.step(0)
    e.reset()
    assert e.action_masks().any()


# --- vector environments ----------------------------------------------------------------------


def _fresh(obs_row: Any, variant: Variant, players: int) -> bool:
    """Whether a flat observation is of a new game: the learner holds all its dice (it
    loses one only by its own bid or call, so not before its first decision)."""
    at = {s.name: s for s in observation_layout(variant, players)}
    return bool(obs_row[at["dice_counts"].start] == variant["dice.per_player"])


@pytest.mark.parametrize("vector", ["sync", "async"])
def test_vector_envs_step_masks_and_reset_after_elimination(vector: str) -> None:
    v, n = _short(), 3
    fns = [lambda: PerudoGymEnv(v, n, observation_mode="flat")] * 3
    cls = gymnasium.vector.SyncVectorEnv if vector == "sync" else gymnasium.vector.AsyncVectorEnv
    envs = cls(fns)
    try:
        obs, infos = envs.reset(seed=[1, 2, 3])
        assert obs.shape == (3, *envs.single_observation_space.shape)
        rng = np.random.default_rng(0)
        ended = np.zeros(3, dtype=bool)
        eliminated = 0
        for _ in range(80):
            masks = np.stack(envs.call("action_masks"))
            assert masks.dtype == np.bool_
            assert np.array_equal(masks[~ended], infos["action_mask"][~ended].astype(bool))
            assert not masks[ended].any()  # an ended table's mask waits for the reset
            acts = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
            was_ended = ended
            obs, rewards, term, trunc, infos = envs.step(acts)
            games = envs.get_attr("game")
            for i in np.flatnonzero(was_ended):  # reset on this step, its action ignored
                assert _fresh(obs[i], v, n) and rewards[i] == 0 and not term[i]
                assert games[i].winner is None and games[i].round <= 2
            ended = term | trunc
            if ended.any():
                for i in np.flatnonzero(ended):
                    out = games[i].dice_counts[0] == 0
                    eliminated += out and games[i].winner is None
                    assert rewards[i] == (-0.5 if out else 1.0)
        assert eliminated, "no episode ended with the learner out and the game going on"
    finally:
        envs.close()
    if vector == "async":
        assert envs.closed


# --- the recipe in docs/pettingzoo.rst --------------------------------------------------------


def _python_blocks(text: str) -> list[str]:
    blocks = []
    for m in re.finditer(r"^\.\. code-block:: python\n((?:\n|   .*\n)+)", text, re.M):
        lines = m.group(1).splitlines()
        blocks.append("\n".join(line[3:] for line in lines).strip() + "\n")
    return blocks


def test_the_docs_gymnasium_blocks_run(quiet: None, capsys: pytest.CaptureFixture[str]) -> None:
    """The single-agent example and the vector recipe, as written on the page (the recipe
    asserts its own results: observations of four tables, returns of finished episodes)."""
    blocks = [b for b in _python_blocks(DOC.read_text(encoding="utf-8")) if "gymnasium" in b]
    assert any("make_vec" in b and "action_masks" in b for b in blocks)
    for block in blocks:
        namespace: dict[str, Any] = {"__name__": "docs_gymnasium"}
        exec(compile(block, str(DOC), "exec"), namespace)
    assert float(capsys.readouterr().out.split()[-1]) in (1.0, -0.5)


def test_the_vector_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    import runpy

    path = Path(__file__).resolve().parent.parent / "examples" / "gymnasium_vector.py"
    example = runpy.run_path(str(path))
    finished = example["run"]("spanish", 3, 2, 60, 1)
    assert finished and set(finished) <= {1.0, -0.5}
    assert example["main"](["--players", "3", "--tables", "2", "--steps", "30"]) == 0
    assert "episodes, the learner's mean return" in capsys.readouterr().out


def test_the_environments_errors_are_in_the_readers_language() -> None:
    """Every error text of the two environments comes from the catalogues: the same error
    in English, Italian and Spanish, its values and rule id unchanged."""
    from perudo_rules.base.i18n import use_language
    from perudo_rules.pettingzoo import raw_env

    def said(make: Any) -> dict[str, str]:
        out = {}
        for lang in ("en", "it", "es"):
            with use_language(lang), pytest.raises((ValueError, TypeError, RuntimeError)) as e:
                make()
            out[lang] = str(e.value)
        assert len(set(out.values())) == 3, out  # three languages, three texts
        return out

    fresh = PerudoGymEnv("italian", 3)
    assert said(lambda: fresh.step(0))["it"] == "chiama reset() prima di step()"
    assert "3 rivales para 2 puestos" in said(
        lambda: PerudoGymEnv("italian", 3, opponents=["random"] * 3)
    )["es"]
    said(lambda: PerudoGymEnv("italian", 3, opponents=["random", 7]))
    said(lambda: PerudoGymEnv("italian", 3, seat=3))

    def bad_opponent(game: Game, seat: int) -> Any:
        return 1.5

    odd = PerudoGymEnv("italian", 3, seat=0, opponents=bad_opponent)
    texts = said(lambda: odd.reset(seed=1) and odd.step(int(np.flatnonzero(odd.action_masks())[0])))
    assert "1.5" in texts["it"] and "posto" in texts["it"]

    env = raw_env("italian", 3)
    env.reset(seed=1)
    dudo = env.unwrapped.ids.dudo
    texts = said(lambda: env.step(dudo))  # no bid yet: the kernel's reason, translated
    assert all(t.endswith("[play.bid_needed]") for t in texts.values())
    assert "non è ora legale" in texts["it"] and "no es legal ahora" in texts["es"]
    said(lambda: env.reset(seed=1.5))
