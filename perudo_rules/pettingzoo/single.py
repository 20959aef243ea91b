"""One learning seat against fixed opponents, as a single-agent Gymnasium environment.

:class:`PerudoGymEnv` is a ``gymnasium.Env``: the learner plays one seat of
:class:`~perudo_rules.pettingzoo.aec.PerudoEnv` (the PettingZoo environment, which it
drives) and the opponents, bots or any callable ``(game, seat) -> action``, play the others
inside ``step``. So the game, the action ids, the masks (the kernel's legal actions), the
observation and the rewards are the PettingZoo environment's; ``docs/pettingzoo.rst``
describes them. Importing this module registers :data:`ENV_ID` with Gymnasium, so
``gymnasium.make("perudo_rules/Perudo-v0", variant=..., players=...)`` and
``gymnasium.make_vec`` work once :mod:`perudo_rules.pettingzoo` is imported.

* **Spaces**: the PettingZoo environment's ``observation_space(agent)`` (a ``Dict`` of
  ``observation`` and ``action_mask``, or with ``observation_mode="flat"`` the ``Box``, the
  mask then in ``info["action_mask"]``) and its ``Discrete`` action space.
* **Masks**: :meth:`PerudoGymEnv.action_masks` (sb3-contrib's ``MaskablePPO`` convention), a
  ``bool`` array of the learner's legal ids now; all ``False`` once the episode is over.
* **Episode**: it ends for the learner when the learner is out of the game or the game
  ends. The reward of a step is what the learner was paid since its previous decision,
  so an episode's rewards sum to the learner's return (``+1`` for a win, ``-1/(n-1)`` for
  a loss, ``0`` for a game stopped by ``max_rounds``: a draw for every seat, as in the
  OpenSpiel adapter). With ``max_rounds`` the learner's return when it is out is known
  only when the game ends, so the opponents play the game out within that last step.
* **Illegal actions**: an id in the space but not legal now ends the episode with reward
  ``-1`` and ``info["illegal_action"] = True`` (as PettingZoo's ``TerminateIllegalWrapper``,
  which :func:`~perudo_rules.pettingzoo.aec.env` adds, ends the game); an id outside the
  space raises ``ValueError``, one that is not an integer ``TypeError``.
* **Seeds**: ``reset(seed=s)`` fixes the game, the learner's seat (with ``seat=None``) and
  the bots' choices (bots named by string are made afresh at every reset, seeded from the
  environment's generator), and every episode after it until the next seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, SupportsFloat, TypeAlias

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
except ImportError as _exc:  # pragma: no cover - exercised only without the extra
    from perudo_rules.base.errors import missing_extra

    raise missing_extra("perudo_rules.pettingzoo", "PettingZoo", "pettingzoo") from _exc

from perudo_rules.analysis.bots import Bot, make_bot
from perudo_rules.base.actions import Action
from perudo_rules.base.i18n import tr
from perudo_rules.base.limits import action_id
from perudo_rules.base.messages import given
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.game import Game
from perudo_rules.pettingzoo.aec import PerudoEnv, integer_value

__all__ = ["ENV_ID", "Opponent", "PerudoGymEnv"]

ENV_ID = "perudo_rules/Perudo-v0"
"""The id :class:`PerudoGymEnv` is registered under (``gymnasium.make(ENV_ID, ...)``)."""

Policy: TypeAlias = Callable[[Game, int], "Action | int | None"]
Opponent: TypeAlias = str | Bot | Policy
"""An opponent: a bot name of :func:`~perudo_rules.analysis.bots.make_bot` (``"random"``,
``"baseline"``), a :class:`~perudo_rules.analysis.bots.Bot`, or a callable ``(game, seat)``
returning the seat's engine action, its action id, or ``None`` to pass on an offered
out-of-turn call."""

#: Deals tried by ``reset`` before giving up on one that reaches the learner's decision.
_MAX_DEALS = 1000


class PerudoGymEnv(gymnasium.Env[Any, np.int64]):
    """``variant`` for ``players`` seats with the learner at ``seat`` (``None``: a seat drawn
    at every reset) and ``opponents`` at the other seats: one :data:`Opponent` for all, or a
    sequence of one per other seat, in seat order. ``max_rounds``, ``past_rounds``,
    ``observation_mode``, ``render_mode`` and ``lang`` are the PettingZoo environment's
    (:class:`~perudo_rules.pettingzoo.aec.PerudoEnv`). ``game`` is the game being played."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's class-level convention
        "render_modes": ["ansi", "human"],
        "render_fps": 4,
    }

    def __init__(
        self,
        variant: str | Path | Variant = "italian",
        players: int = 4,
        seat: int | None = 0,
        opponents: Opponent | Sequence[Opponent] = "random",
        render_mode: str | None = None,
        max_rounds: int | None = None,
        past_rounds: int = 1,
        observation_mode: str = "dict",
        lang: str = "en",
    ) -> None:
        aec = PerudoEnv(variant, players, None, max_rounds, past_rounds, observation_mode, lang)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                tr("render_mode must be None, 'ansi' or 'human', not {value}",
                   value=given(render_mode))
            )  # fmt: skip
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            raise ValueError(
                tr("seat must be None or a seat 0 .. {last}, not {value}",
                   last=players - 1, value=given(seat))
            )  # fmt: skip
        self._aec = aec
        self.variant = aec.variant
        self.players = players
        self.seat_option = seat
        self.seat = 0 if seat is None else seat
        self.render_mode = render_mode
        self.observation_mode = observation_mode
        self._specs = _opponent_specs(opponents, players)
        self.observation_space = aec.observation_space("player_0")
        self.action_space = aec.action_space("player_0")
        self._policies: list[Policy | None] = [None] * players
        self._done = True
        self._started = False

    @property
    def aec(self) -> PerudoEnv:
        """The PettingZoo environment being driven (its ``ids``, ``deciding_seat()``,
        ``legal_ids(seat)``, ``table_text()``): read it, do not step it."""
        return self._aec

    @property
    def game(self) -> Game:
        """The game being played (the PettingZoo environment's)."""
        return self._aec.game

    @property
    def agent(self) -> str:
        """The learner's PettingZoo agent name, ``player_<seat>``."""
        return self._aec.possible_agents[self.seat]

    # -- the Gymnasium API

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """A new game, played by the opponents up to the learner's first decision;
        ``(observation, info)``. ``seed`` fixes it and every episode after it."""
        super().reset(seed=seed)
        rng = self.np_random
        if self.seat_option is None:
            self.seat = int(rng.integers(self.players))
        for deal in range(_MAX_DEALS):
            others = [s for s in range(self.players) if s != self.seat]
            self._policies = [None] * self.players
            for s, spec in zip(others, self._specs, strict=True):
                self._policies[s] = _policy(spec, rng)
            self._aec.reset(seed=int(rng.integers(2**63)))
            self._done = False
            self._started = True
            self._advance()
            if not self._done:
                break
            # challenge.exact others_lose can take the learner's dice, and end the game,
            # before its first decision: such a game is dealt again
            if deal == _MAX_DEALS - 1:
                raise RuntimeError(
                    tr("no game of {games} reached {agent}'s decision",
                       games=_MAX_DEALS, agent=self.agent)
                )  # fmt: skip
        if self.render_mode == "human":
            self.render()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[Any, SupportsFloat, bool, bool, dict[str, Any]]:
        """The learner takes ``action`` (an id), then the opponents play up to its next
        decision or the end of its episode; ``(observation, reward, terminated, truncated,
        info)``. An id that is not legal now ends the episode with reward ``-1``."""
        if not self._started:
            raise RuntimeError(tr("call reset() before step()"))
        if self._done:
            raise RuntimeError(tr("the episode is over: call reset()"))
        aid = action_id(action, self._aec.ids.num_actions)
        if not self.action_masks()[aid]:
            self._done = True
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), -1.0, True, False, info
        aec, me = self._aec, self.agent
        aec.step(aid)
        reward = aec.rewards.get(me, 0.0) + self._advance()
        terminated, truncated = aec.terminations[me], aec.truncations[me]
        if self.render_mode == "human":
            self.render()
        return self._observe(), float(reward), terminated, truncated, self._info()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal action ids now, as a ``bool`` array over the action space
        (all ``False`` once the episode is over): sb3-contrib's ``MaskablePPO`` reads it."""
        mask = np.zeros(self._aec.ids.num_actions, dtype=np.bool_)
        if self._started and not self._done:
            mask[self._aec.legal_ids(self.seat)] = True
        return mask

    def render(self) -> str | None:
        """The table as text (the PettingZoo environment's): returned (``ansi``), printed
        (``human``), or ``None`` without a ``render_mode``."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; nothing to show")
            return None
        text = self._aec.table_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    # -- driving the opponents

    def _advance(self) -> float:
        """Let the opponents decide until it is the learner's decision or its episode is
        over (``_done``); what the learner was paid meanwhile."""
        aec, me = self._aec, self.agent
        paid = 0.0
        while not (aec.terminations[me] or aec.truncations[me]):
            agent = aec.agent_selection
            if agent == me:
                return paid
            if aec.terminations[agent] or aec.truncations[agent]:
                aec.step(None)  # an eliminated opponent's last step
            else:
                aec.step(self._opponent_id(aec.possible_agents.index(agent)))
            paid += aec.rewards.get(me, 0.0)
        self._done = True
        return paid

    def _opponent_id(self, seat: int) -> int:
        """The action id of the opponent at ``seat``: its policy's answer."""
        policy = self._policies[seat]
        assert policy is not None
        answer = policy(self._aec.game, seat)
        if isinstance(answer, Action):
            if answer.player != seat:
                raise ValueError(
                    tr("the opponent of seat {seat} acted for seat {player}",
                       seat=seat, player=answer.player)
                )  # fmt: skip
            return self._aec.ids.to_id(answer)
        if answer is None:
            return self._aec.ids.pass_
        return integer_value(answer, tr("the action of the opponent of seat {seat}", seat=seat))

    def _observe(self) -> Any:
        return self._aec.observe(self.agent)

    def _info(self) -> dict[str, Any]:
        if self.observation_mode == "flat":
            return {"action_mask": self.action_masks().astype(np.int8)}
        return {}


def _opponent_specs(opponents: object, players: int) -> list[Opponent]:
    """One opponent per other seat, in seat order, after checking bot names now rather
    than at the first reset."""
    if isinstance(opponents, (str, Bot)) or callable(opponents):
        listed: list[object] = [opponents] * (players - 1)
    elif isinstance(opponents, Sequence):
        listed = list(opponents)
        if len(listed) != players - 1:
            raise ValueError(
                tr("{count} opponents for {others} other seats",
                   count=len(listed), others=players - 1)
            )  # fmt: skip
    else:
        raise TypeError(
            tr("opponents must be a bot name, a Bot, a callable or a sequence of them")
        )
    for spec in listed:
        if isinstance(spec, str):
            make_bot(spec)  # ValueError for an unknown name
        elif not (isinstance(spec, Bot) or callable(spec)):
            raise TypeError(
                tr("an opponent must be a bot name, a Bot or a callable, not {value}",
                   value=given(spec))
            )  # fmt: skip
    return listed  # type: ignore[return-value]


def _policy(spec: Opponent, rng: np.random.Generator) -> Policy:
    """``spec`` as a callable; a bot named by string is made afresh, seeded from ``rng``."""
    if isinstance(spec, str):
        return make_bot(spec, seed=int(rng.integers(2**63))).choose
    if isinstance(spec, Bot):
        return spec.choose
    return spec


if ENV_ID not in gymnasium.registry:  # once, however often the module is loaded
    gymnasium.register(id=ENV_ID, entry_point="perudo_rules.pettingzoo.single:PerudoGymEnv")
