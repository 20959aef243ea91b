"""The RL paths of ``benchmarks/run.py`` (``--only R``): steps per second through the loops
that RL code runs, our adapters against pyspiel's own ``liars_dice`` (``numdice=5``).

* **R1, PettingZoo**: the AEC loop (``env.agent_iter()``, ``env.last()``, a random legal id
  from the action mask, ``env.step``) on :func:`perudo_rules.pettingzoo.raw_env` with
  ``openspiel-liars-dice`` (2 seats x 5 dice), and on pyspiel's ``liars_dice`` as a
  PettingZoo AEC environment through Shimmy's ``OpenSpielCompatibilityV0`` (the bridge
  PettingZoo's documentation gives for OpenSpiel games). The mask is in the observation
  (ours) or in ``info`` (Shimmy's); nothing else differs.
* **R2, OpenSpiel**: OpenSpiel's own RL loop, ``open_spiel.python.rl_environment.Environment``
  (every time step carries each player's information-state tensor and legal actions; the
  environment samples the chance nodes), on the game of our OpenSpiel adapter
  (:func:`perudo_rules.openspiel.load_game`) and on pyspiel's ``liars_dice``.
* **R3, reference**: the same loop on OpenSpiel's own ``python_kuhn_poker`` against its C++
  ``kuhn_poker``: what a game written in Python reaches in ``rl_environment`` at best.
* **R4, reference**: the same loop on a Python game of ``liars_dice``'s shape that does no
  work at all (``benchmarks/floorgame.py``) against ``liars_dice``: the floor under R2, what
  any Python game of this shape reaches before it plays a rule. R2 over R4 is the share
  of the time our adapter's own work leaves.

A step is one decision of a live agent; the figure is steps per second of CPU time. The
random legal action comes from one ``random.Random(seed)`` per run, as in A and B. Each
runner returns ``(games, steps)``; a missing extra (PettingZoo, Shimmy, OpenSpiel) makes
:func:`runners` leave that pair out and say why.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

Runner = Callable[[int, int], tuple[int, int]]
NUMDICE = 5


def _ours_variant() -> Any:
    from perudo_rules import load_variant

    return load_variant("openspiel-liars-dice", overrides={"dice.per_player": NUMDICE})


def aec_loop(env: Any) -> Runner:
    """Whole games through a PettingZoo AEC environment, a random legal id per decision."""
    import numpy as np

    flatnonzero = np.flatnonzero

    def run(games: int, seed: int) -> tuple[int, int]:
        rand = random.Random(seed).random
        steps = 0
        for i in range(games):
            env.reset(seed=seed * 1_000_003 + i)
            for _agent in env.agent_iter():
                obs, _reward, term, trunc, info = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                mask = obs["action_mask"] if isinstance(obs, dict) else info["action_mask"]
                legal = flatnonzero(mask)
                env.step(int(legal[int(rand() * len(legal))]))
                steps += 1
        return games, steps

    return run


def rl_environment_loop(game: Any) -> Runner:
    """Whole games through OpenSpiel's ``rl_environment.Environment`` on ``game``."""
    from open_spiel.python import rl_environment

    def run(games: int, seed: int) -> tuple[int, int]:
        sampler = rl_environment.ChanceEventSampler(seed=seed)
        env = rl_environment.Environment(game, chance_event_sampler=sampler)
        rand = random.Random(seed).random
        steps = 0
        for _ in range(games):
            step = env.reset()
            while not step.last():
                player = step.observations["current_player"]
                legal = step.observations["legal_actions"][player]
                step = env.step([legal[int(rand() * len(legal))]])
                steps += 1
        return games, steps

    return run


def runners() -> tuple[dict[str, dict[str, Runner]], list[str]]:
    """``{"R1": {"pyspiel": ..., "ours": ...}, "R2": {...}}`` and notes on what is missing."""
    out: dict[str, dict[str, Runner]] = {}
    notes: list[str] = []
    try:
        import pyspiel
    except ImportError:
        return out, ["R: pyspiel (open_spiel) not installed: skipped"]
    liars_dice = pyspiel.load_game("liars_dice", {"numdice": NUMDICE})
    try:
        from shimmy import OpenSpielCompatibilityV0

        from perudo_rules.pettingzoo import raw_env

        out["R1"] = {
            # by name and config: Shimmy reloads the game by name on every reset
            "pyspiel": aec_loop(
                OpenSpielCompatibilityV0(game_name="liars_dice", config={"numdice": NUMDICE})
            ),
            "ours": aec_loop(raw_env(_ours_variant(), 2)),
        }
    except ImportError as exc:
        notes.append(f"R1: {exc.name or exc} not installed (pip install 'perudo-rules[bench]')")
    try:
        from perudo_rules import openspiel

        out["R2"] = {
            "pyspiel": rl_environment_loop(liars_dice),
            "ours": rl_environment_loop(openspiel.load_game(_ours_variant(), 2)),
        }
    except ImportError as exc:
        notes.append(f"R2: {exc.name or exc} not installed")
    # R3, a reference: OpenSpiel's own Python game against its C++ twin, the same loop
    import open_spiel.python.games  # noqa: F401  # registers python_kuhn_poker

    out["R3"] = {
        "pyspiel": rl_environment_loop(pyspiel.load_game("kuhn_poker")),
        "ours": rl_environment_loop(pyspiel.load_game("python_kuhn_poker")),
    }
    import floorgame  # noqa: F401  # benchmarks/floorgame.py: registers floor_game

    out["R4"] = {
        "pyspiel": rl_environment_loop(liars_dice),
        "ours": rl_environment_loop(pyspiel.load_game("floor_game")),
    }
    return out, notes
