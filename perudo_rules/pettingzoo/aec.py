"""PettingZoo adapter: any variant, with a seat count, as an AEC environment.

``env(variant, players)`` returns a PettingZoo ``AECEnv`` (wrapped the way
PettingZoo's classic environments are); ``raw_env`` the unwrapped
:class:`PerudoEnv`. It needs the optional extra: ``pip install
'perudo-rules[pettingzoo]'``. Importing :mod:`perudo_rules` never imports
this module, ``pettingzoo`` or ``numpy``. ``docs/pettingzoo.rst`` describes
the environment for its users; in short:

* **Agents** ``player_0`` ... ``player_{n-1}``, one per seat. A seat that
  loses its last die is terminated and, after its last (``None``) step,
  leaves ``agents``.
* **Actions** (``Discrete``, fixed for the whole game): bid ``(q, f)`` has
  the id of its rank among all bids of the largest table the game can reach
  (the rank :class:`~perudo_rules.engine.ranks.BidSpace` gives it with the most dice
  that can ever be in play); then Dudo, Calza and Pass, then (``reroll.enabled``) the
  re-rolls, one per set of dice set aside. These are the ids of the OpenSpiel adapter
  (:func:`perudo_rules.engine.actionmap.action_map`).
* **Decisions**: the player to move bids, calls Dudo or calls Calza. After
  every bid, each seat that may call Dudo or Calza out of turn is offered,
  one at a time, in the direction of play after the player to move, the
  choice of Dudo / Calza / Pass; the first call ends the round, and when all
  have passed the player to move acts (as the OpenSpiel adapter does).
* **Observations**: ``{"observation": float32 array, "action_mask": int8
  array}``; :func:`~perudo_rules.pettingzoo.observation.observation_layout` names every
  slice of the array (:mod:`perudo_rules.pettingzoo.observation` encodes it). With
  ``observation_mode="flat"`` the observation is that array alone (a ``Box``, as
  SuperSuit's wrappers need) and every agent's mask is ``info["action_mask"]``.
* **Parallel**: :func:`parallel_env` is the same game through PettingZoo's
  turn-based conversion (one decision per parallel step).
* **Rewards** (zero-sum, :func:`perudo_rules.engine.settlement.returns`, as the OpenSpiel
  adapter's returns): over a game the winner collects ``+1`` and every other seat
  ``-1/(players-1)``; a game stopped by ``max_rounds`` is a draw, ``0`` to every seat
  (those eliminated before the stop too). Without ``max_rounds`` a seat that is
  eliminated gets its ``-1/(players-1)`` when it loses its last die, and leaves; at the
  end the winner gets ``+1`` and any other seat still in ``-1/(players-1)``. With
  ``max_rounds`` an eliminated seat's value is settled only when the game ends, so it
  stays among the agents (never selected, its mask all zeros) until then; the stop
  truncates every seat still in, and terminates every seat out, with ``0``.
* **Bounds**: the observation array holds at most
  :data:`~perudo_rules.pettingzoo.observation.MAX_OBSERVATION`
  entries; a larger game (seats x faces x dice) or ``past_rounds`` is refused
  with ``ValueError`` when the environment is made.
* **Chance**: the environment rolls the dice itself (a re-roll's dice too, as soon as
  the re-roll is taken); ``reset(seed=s)`` fixes the whole sequence of games that follows.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import conversions, wrappers
except ImportError as _exc:  # pragma: no cover - exercised only without the extra
    from perudo_rules.base.errors import missing_extra

    raise missing_extra("perudo_rules.pettingzoo", "PettingZoo", "pettingzoo") from _exc

from perudo_rules.base.actions import Action, Bid, Reroll
from perudo_rules.base.errors import IllegalAction
from perudo_rules.base.i18n import check_language, tr
from perudo_rules.base.limits import action_id, whole_number
from perudo_rules.base.messages import given
from perudo_rules.base.safetext import printable
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.engine.actionmap import action_map
from perudo_rules.engine.game import Game
from perudo_rules.engine.settlement import returns
from perudo_rules.pettingzoo.observation import Encoder
from perudo_rules.pettingzoo.render import table_text

__all__ = ["PerudoEnv", "env", "parallel_env", "raw_env"]

Obs = dict[str, "npt.NDArray[Any]"]
OBSERVATION_MODES = ("dict", "flat")


def integer_value(value: object, what: str) -> int:
    """``value`` (a seed, an opponent's answer) as an ``int`` if it is a whole number
    (:func:`~perudo_rules.base.limits.whole_number`: Python's or NumPy's, a 0-d integer
    array too); ``TypeError`` for anything else (a float, a bool, a list, a string)."""
    whole = whole_number(value)
    if whole is None:
        raise TypeError(tr("{what} must be an integer, not {value}", what=what, value=given(value)))
    return whole


# --- the environment ---------------------------------------------------------------------


class PerudoEnv(AECEnv):  # type: ignore[misc]
    """A variant as a PettingZoo AEC environment (make one with :func:`env` or :func:`raw_env`).

    ``game`` is the :class:`~perudo_rules.engine.game.Game` being played (read it,
    e.g. to drive a :mod:`perudo_rules.analysis.bots` bot; the environment replaces it
    on every step). ``ids`` are the :class:`~perudo_rules.engine.actionmap.ActionMap`;
    ``layout`` the :func:`~perudo_rules.pettingzoo.observation.observation_layout`. An
    illegal action raises :class:`~perudo_rules.base.errors.IllegalAction` naming the
    rule (``env()`` wraps this class so that one ends the game instead);
    ``docs/pettingzoo.rst`` lists every error.
    ``observation_mode`` is ``"dict"`` (``observe`` gives ``observation`` and
    ``action_mask``) or ``"flat"`` (``observe`` gives the ``observation`` array, a ``Box``;
    ``infos[agent]["action_mask"]`` the mask).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's class-level convention
        "render_modes": ["ansi", "human"],
        "name": "perudo_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | Path | Variant = "italian",
        players: int = 4,
        render_mode: str | None = None,
        max_rounds: int | None = None,
        past_rounds: int = 1,
        observation_mode: str = "dict",
        lang: str = "en",
    ) -> None:
        super().__init__()
        self.lang = check_language(lang)  # of the rendered table (perudo_rules.base.i18n)
        v = variant if isinstance(variant, Variant) else load_variant(variant)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                tr("render_mode must be None, 'ansi' or 'human', not {value}",
                   value=given(render_mode))
            )  # fmt: skip
        if max_rounds is not None and (type(max_rounds) is not int or max_rounds < 1):
            raise ValueError(
                tr("max_rounds must be a whole number >= 1, not {value}", value=given(max_rounds))
            )
        if not isinstance(observation_mode, str) or observation_mode not in OBSERVATION_MODES:
            raise ValueError(
                tr("observation_mode must be 'dict' or 'flat', not {value}",
                   value=given(observation_mode))
            )  # fmt: skip
        self.observation_mode = observation_mode
        self._flat = observation_mode == "flat"
        self.variant = v
        self.players = players
        self.render_mode = render_mode
        self.max_rounds = max_rounds
        self.ids = action_map(v, players)
        self._encoder = Encoder(v, players, past_rounds, self.ids)  # refuses a huge array
        self.layout = self._encoder.layout
        self.past_rounds = past_rounds
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n_ids = self.ids.num_actions
        self._action_spaces = {a: spaces.Discrete(n_ids) for a in self.possible_agents}
        # one observation space shared by every agent: its bounds are as large as the array
        box = spaces.Box(np.float32(0.0), self._encoder.high(), dtype=np.float32)
        self._observation_space: gymnasium.spaces.Space[Any] = (
            box
            if self._flat
            else spaces.Dict(
                {"observation": box, "action_mask": spaces.Box(0, 1, (n_ids,), np.int8)}
            )
        )
        self._rng: random.Random | None = None
        self._pending: tuple[int, ...] = ()
        self._started = False
        self.game: Game = Game.new(v, players, seed=0)
        self.agents: list[str] = []

    # -- spaces

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (same) observation space of every agent: a ``Dict`` of ``observation`` and
        ``action_mask``, or (``observation_mode="flat"``) the ``observation`` ``Box``."""
        self._seat_of(agent)
        return self._observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The (same) ``Discrete`` action space of every agent."""
        self._seat_of(agent)
        return self._action_spaces[agent]

    def _seat_of(self, agent: str) -> int:
        seat = self._seat.get(agent)
        if seat is None:
            raise ValueError(
                tr("no agent {agent} (agents: player_0 .. player_{last})",
                   agent=printable(agent), last=self.players - 1)
            )  # fmt: skip
        return seat

    # -- decisions

    def deciding_seat(self) -> int | None:
        """The seat whose decision it is: an offered caller, else the player to move."""
        if self._pending:
            return self._pending[0]
        return self.game.to_move

    def legal_ids(self, seat: int) -> list[int]:
        """The action ids seat ``seat`` may take now, ascending (empty if not its decision):
        the kernel's legal actions of that seat
        (:meth:`ActionMap.legal_ids <perudo_rules.engine.actionmap.ActionMap.legal_ids>`)."""
        game = self.game
        if seat != self.deciding_seat() or game.to_move is None:
            return []
        return self.ids.legal_ids(game, seat, bool(self._pending))

    def _mask(self, seat: int) -> npt.NDArray[np.int8]:
        mask = np.zeros(self.ids.num_actions, dtype=np.int8)
        mask[self.legal_ids(seat)] = 1
        return mask

    # -- the AEC API

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` (``None`` or an integer, NumPy's too) fixes it and every
        game after it until the next seed. Another seed raises ``TypeError``."""
        if seed is not None:
            self._rng = random.Random(integer_value(seed, "seed"))
        elif self._rng is None:
            self._rng = random.Random()
        self._begin(Game.new(self.variant, self.players, seed=self._rng.getrandbits(63)))
        if self.render_mode == "human":
            self.render()

    def reset_to(self, game: Game) -> None:
        """Continue from ``game``, a position of this variant and seat count with a seat to
        move (e.g. ``Game.start`` with chosen dice): for tests and worked examples.

        Seats with dice are the agents, rewards start at 0, no call offer is pending.
        """
        if game.variant != self.variant or game.players != self.players:
            raise ValueError(tr("the position is not of this environment's variant and seats"))
        if game.to_move is None:
            raise ValueError(tr("the position has nobody to move"))
        if self._rng is None:
            self._rng = random.Random()
        self._begin(game)

    def _begin(self, game: Game) -> None:
        self.game = game
        self._pending = ()
        self._started = True
        self.agents = [a for a in self.possible_agents if game.dice_counts[self._seat[a]]]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self._agent(self.deciding_seat())
        self._post_masks()

    def _post_masks(self) -> None:
        """Flat mode: each agent's mask as ``info["action_mask"]`` (new dicts every step)."""
        if self._flat:
            deciding, n = self.deciding_seat(), self.ids.num_actions
            self.infos = {
                a: {"action_mask": self._mask(s) if s == deciding else np.zeros(n, np.int8)}
                for a, s in ((a, self._seat[a]) for a in self.agents)
            }

    def _agent(self, seat: int | None) -> str:
        assert seat is not None
        return self.possible_agents[seat]

    def observe(self, agent: str) -> Obs | npt.NDArray[np.float32]:
        """What ``agent`` sees now: its ``observation`` array and its ``action_mask``, or
        (``observation_mode="flat"``) the array alone (the mask is in its ``info``)."""
        seat = self._seat_of(agent)
        obs = self._encoder.encode(self.game, seat, self.deciding_seat(), bool(self._pending))
        if self._flat:
            return obs
        return {"observation": obs, "action_mask": self._mask(seat)}

    def step(self, action: int | None) -> None:
        """Take ``action`` (an id: a Python or NumPy integer) for ``agent_selection``;
        ``None`` for a finished agent. ``RuntimeError`` before ``reset`` and once every
        agent is done, ``TypeError`` for an id that is not an integer, ``ValueError`` for
        an id outside the space, ``IllegalAction`` for one not legal now (naming the rule)."""
        if not self._started:
            raise RuntimeError(tr("call reset() before step()"))
        if not self.agents:
            raise RuntimeError(tr("the game is over: every agent is done; call reset()"))
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(
                    tr("{agent} is done: its last step takes None, not {value}",
                       agent=agent, value=given(action))
                )  # fmt: skip
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(
                tr("{agent} is still playing: give an action id, not None", agent=agent)
            )
        aid = action_id(action, self.ids.num_actions)
        seat = self._seat[agent]
        move = self._checked(agent, seat, aid)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if move is None:
            self._pending = self._pending[1:]
        else:
            self._play(move)
        live = [a for a in self.agents if not (self.terminations[a] or self.truncations[a])]
        if live:
            self.agent_selection = self._agent(self.deciding_seat())
        self._accumulate_rewards()
        self._deads_step_first()
        self._post_masks()
        if self.render_mode == "human":
            self.render()

    def _checked(self, agent: str, seat: int, aid: int) -> Action | None:
        """The engine action of ``aid`` for ``seat`` (``None``: Pass), or
        :class:`~perudo_rules.base.errors.IllegalAction` saying why it may not be taken now:
        the offer's rule (:meth:`ActionMap.offer_refusal
        <perudo_rules.engine.actionmap.ActionMap.offer_refusal>`), else the kernel's."""
        ids = self.ids
        bad = ids.offer_refusal(aid, seat, bool(self._pending))
        move = ids.to_action(aid, seat) if bad is None else None
        if move is not None:
            bad = self.game.violation(move)
        if bad is not None:
            why = tr("{action} is not legal for {agent} now: {reason}",
                     action=ids.name(aid), agent=agent, reason=bad.text())  # fmt: skip
            raise IllegalAction(bad, why)
        return move

    def _play(self, move: Action) -> None:
        before = self.game.dice_counts
        game = self.game.apply(move)
        self.game = game
        self._pending = ()
        if isinstance(move, Bid):
            self._pending = game.call_offers()
            return
        if isinstance(move, Reroll):  # the environment rolls the re-rolled dice at once
            assert self._rng is not None
            self.game = game.roll(rng=self._rng)
            return
        n = self.players
        if self.max_rounds is None:  # every game has a winner: a loser's value is settled
            for seat, (was, now) in enumerate(zip(before, game.dice_counts, strict=True)):
                if was and not now:  # a loser's value, whoever wins: any other seat as winner
                    self._finish(seat, returns((seat + 1) % n, n)[seat])
        if game.winner is not None:
            values = game.returns()
            for agent in self.agents:
                if not self.terminations[agent]:
                    seat = self._seat[agent]
                    self._finish(seat, values[seat])
            return
        if self.max_rounds is not None and game.round >= self.max_rounds:
            # a draw (settlement.returns without a winner): 0 to every seat, those out too
            for agent in self.agents:
                if game.dice_counts[self._seat[agent]]:
                    self.truncations[agent] = True
                else:
                    self._finish(self._seat[agent], 0.0)
            return
        assert self._rng is not None
        self.game = game.roll(rng=self._rng)

    def _finish(self, seat: int, reward: float) -> None:
        agent = self.possible_agents[seat]
        self.terminations[agent] = True
        self.rewards[agent] = reward

    # -- rendering

    def render(self) -> str | None:
        """The table as text: returned (``ansi``), printed (``human``), or ``None`` (no mode)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; nothing to show")
            return None
        text = self.table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def table_text(self) -> str:
        """Every cup, the dice counts, this round's bids, whose decision it is and how the
        last round ended (as the table saw it), as text in the environment's ``lang``
        (:func:`perudo_rules.pettingzoo.render.table_text`)."""
        deciding = self.deciding_seat()
        calls = None
        if self._pending and deciding is not None:
            calls = [self.ids.name(i) for i in self.legal_ids(deciding)]
        return table_text(self.game, self.possible_agents, deciding, calls, self.lang)

    def close(self) -> None:
        """Nothing to release (text rendering only)."""


def raw_env(
    variant: str | Path | Variant = "italian",
    players: int = 4,
    render_mode: str | None = None,
    max_rounds: int | None = None,
    past_rounds: int = 1,
    observation_mode: str = "dict",
    lang: str = "en",
) -> PerudoEnv:
    """The unwrapped :class:`PerudoEnv` (an illegal action raises ``IllegalAction``)."""
    return PerudoEnv(
        variant, players, render_mode, max_rounds, past_rounds, observation_mode, lang
    )


def env(
    variant: str | Path | Variant = "italian",
    players: int = 4,
    render_mode: str | None = None,
    max_rounds: int | None = None,
    past_rounds: int = 1,
    observation_mode: str = "dict",
    lang: str = "en",
) -> Any:
    """``variant`` (an id, a path or a :class:`Variant`) for ``players`` seats, as a PettingZoo
    ``AECEnv``, wrapped like PettingZoo's classic environments.

    An illegal action ends the game for everyone, with ``-1`` to the seat that
    took it; an action outside the space raises; stepping before ``reset``
    raises. ``render_mode`` is ``None``, ``"ansi"`` (``render()`` returns the
    table as text) or ``"human"`` (every step prints it); ``lang`` is its language
    (``"en"``, ``"it"`` or ``"es"``). ``observation_mode="flat"``: the observation is a
    ``Box`` and the mask ``info["action_mask"]`` (:class:`PerudoEnv`).
    """
    e: Any = raw_env(
        variant, players, render_mode, max_rounds, past_rounds, observation_mode, lang
    )
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def parallel_env(
    variant: str | Path | Variant = "italian",
    players: int = 4,
    render_mode: str | None = None,
    max_rounds: int | None = None,
    past_rounds: int = 1,
    observation_mode: str = "dict",
    lang: str = "en",
) -> Any:
    """:func:`env` as a PettingZoo ``ParallelEnv``, by PettingZoo's
    ``turn_based_aec_to_parallel``: every parallel step is one decision, taken by the agent
    whose mask is not all zeros (``info["active_agent"]`` after a step); the actions given
    for the other agents are ignored. ``aec_to_parallel`` refuses this game: it needs
    every live agent to act once per cycle, and a Perudo step decides who acts next."""
    aec = env(variant, players, render_mode, max_rounds, past_rounds, observation_mode, lang)
    return conversions.turn_based_aec_to_parallel(aec)
