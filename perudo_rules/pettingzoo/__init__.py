"""PettingZoo adapter: any variant, with a seat count, as an AEC environment.

``env(variant, players)`` returns a PettingZoo ``AECEnv``; :mod:`perudo_rules.pettingzoo.aec`
has the environment and its conventions (observations, rewards, bounds, chance).
Needs the ``pettingzoo`` extra (``pip install perudo-rules[pettingzoo]``).
"""

from perudo_rules.pettingzoo.aec import (
    MAX_OBSERVATION,
    PerudoEnv,
    Segment,
    env,
    observation_layout,
    observation_size,
    parallel_env,
    raw_env,
)

__all__ = [
    "MAX_OBSERVATION",
    "PerudoEnv",
    "Segment",
    "env",
    "observation_layout",
    "observation_size",
    "parallel_env",
    "raw_env",
]
