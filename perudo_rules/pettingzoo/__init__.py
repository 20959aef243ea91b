"""PettingZoo adapter: any variant, with a seat count, as an AEC environment.

``env(variant, players)`` returns a PettingZoo ``AECEnv``; :mod:`perudo_rules.pettingzoo.aec`
has the environment, its stepping and its conventions (rewards, bounds, chance),
:mod:`perudo_rules.pettingzoo.observation` what an agent sees (the observation array's
layout and encoding) and :mod:`perudo_rules.pettingzoo.render` the table as text.
:class:`PerudoGymEnv` (:mod:`perudo_rules.pettingzoo.single`) is one seat of it against
fixed opponents as a single-agent Gymnasium environment, registered as :data:`ENV_ID`
(``"perudo_rules/Perudo-v0"``) when this package is imported.
Needs the ``pettingzoo`` extra (``pip install perudo-rules[pettingzoo]``).
"""

from perudo_rules.pettingzoo.aec import PerudoEnv, env, parallel_env, raw_env
from perudo_rules.pettingzoo.observation import (
    MAX_OBSERVATION,
    Segment,
    observation_layout,
    observation_size,
)
from perudo_rules.pettingzoo.single import ENV_ID, PerudoGymEnv

__all__ = [
    "ENV_ID",
    "MAX_OBSERVATION",
    "PerudoEnv",
    "PerudoGymEnv",
    "Segment",
    "env",
    "observation_layout",
    "observation_size",
    "parallel_env",
    "raw_env",
]
