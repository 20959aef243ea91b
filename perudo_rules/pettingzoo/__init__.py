"""PettingZoo adapter: any variant, with a seat count, as an AEC environment.

``env(variant, players)`` returns a PettingZoo ``AECEnv``; :mod:`perudo_rules.pettingzoo.aec`
has the environment, its stepping and its conventions (rewards, bounds, chance),
:mod:`perudo_rules.pettingzoo.observation` what an agent sees (the observation array's
layout and encoding) and :mod:`perudo_rules.pettingzoo.render` the table as text.
Needs the ``pettingzoo`` extra (``pip install perudo-rules[pettingzoo]``).
"""

from perudo_rules.pettingzoo.aec import PerudoEnv, env, parallel_env, raw_env
from perudo_rules.pettingzoo.observation import (
    MAX_OBSERVATION,
    Segment,
    observation_layout,
    observation_size,
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
