"""Many tables at once: one learning seat against bots, in Gymnasium's vector environments.

Each table is a ``perudo_rules.pettingzoo.PerudoGymEnv`` (registered as
``"perudo_rules/Perudo-v0"``): the learner sits at one seat, the opponents (here the
baseline bot, ``perudo_rules.analysis.bots.BaselineBot``) play the others inside ``step``.
The "policy" below is uniformly random among the actions ``action_masks()`` allows, where
a training loop would put its masked policy (sb3-contrib's ``MaskablePPO`` reads the same
method). A table whose episode ended (the learner won, lost or is out) is reset on the next
step, and that step's action for it is ignored (its mask is all False until then).

    pip install 'perudo-rules[pettingzoo]'
    python examples/gymnasium_vector.py --variant italian --players 4 --tables 8 --steps 2000

Prints the episodes finished and the learner's mean return (``+1`` a win, ``-1/(n-1)`` a
loss), against ``0`` for a learner as good as its opponents.
"""

from __future__ import annotations

import argparse
import sys

import gymnasium
import numpy as np

import perudo_rules.pettingzoo  # noqa: F401 - registers "perudo_rules/Perudo-v0"


def run(
    variant: str, players: int, tables: int, steps: int, seed: int, vectorization: str = "sync"
) -> list[float]:
    """Step ``tables`` tables ``steps`` times with random masked actions; the learner's
    return of every episode that finished."""
    envs = gymnasium.make_vec(
        "perudo_rules/Perudo-v0",
        num_envs=tables,
        vectorization_mode=vectorization,
        variant=variant,
        players=players,
        opponents="baseline",
        observation_mode="flat",
    )
    try:
        envs.reset(seed=seed)
        rng = np.random.default_rng(seed)
        running = np.zeros(tables)
        finished: list[float] = []
        for _ in range(steps):
            masks = np.stack(envs.call("action_masks"))
            actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
            _obs, rewards, terminations, truncations, _infos = envs.step(actions)
            running += rewards
            for i in np.flatnonzero(terminations | truncations):
                finished.append(float(running[i]))
                running[i] = 0.0
        return finished
    finally:
        envs.close()


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run the tables, print the episodes and the mean return."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--variant", default="italian")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--tables", type=int, default=8)
    p.add_argument("--steps", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--async", dest="vectorization", action="store_const", const="async",
                   default="sync", help="one worker process per table")  # fmt: skip
    args = p.parse_args(argv)
    finished = run(
        args.variant, args.players, args.tables, args.steps, args.seed, args.vectorization
    )
    mean = sum(finished) / len(finished) if finished else float("nan")
    print(f"{len(finished)} episodes, the learner's mean return {mean:+.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
