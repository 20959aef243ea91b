"""Benchmark R4's reference: a Python OpenSpiel game with the shape of ``liars_dice``
(2 seats x 5 dice) that does no work at all.

Each die is one chance node, the seats then bid in turn (any bid above the standing one)
until one says Liar; every method answers from a few integers, and the information-state
tensor is a copy of a list of zeros as long as our adapter's (334 entries). It plays no
rule of anything: it measures what OpenSpiel's ``rl_environment`` costs a game written in
Python *before* the game does any work, the floor under the R2 figure of any Python game
of this shape, ours included. Not part of the package; registered as ``floor_game`` when
imported.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

DICE = 10  # 2 seats x 5 dice: one chance node each, as liars_dice
BIDS = 60  # ids 0..59 are bids, 60 is Liar (liars_dice's 61 ids)
TENSOR = 334  # our adapter's information-state tensor for openspiel-liars-dice 2x5

_TYPE = pyspiel.GameType(
    short_name="floor_game",
    long_name="floor game (no work, liars_dice's shape)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=False,
    provides_information_state_tensor=True,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={},
)
_INFO = pyspiel.GameInfo(
    num_distinct_actions=BIDS + 1,
    max_chance_outcomes=6,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=BIDS + 1,
)
_OUTCOMES = [(k, 1 / 6) for k in range(6)]
_ZEROS = [0.0] * TENSOR


class FloorGame(pyspiel.Game):  # type: ignore[misc]
    """The game: parameters none, states :class:`FloorState`."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_TYPE, _INFO, params or {})

    def new_initial_state(self) -> FloorState:
        return FloorState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer()


class _Observer:
    def __init__(self) -> None:
        self.tensor = np.zeros(TENSOR, np.float32)
        self.dict = {"tensor": self.tensor}

    def set_from(self, state: Any, player: int) -> None:
        pass

    def string_from(self, state: Any, player: int) -> str:
        return ""


class FloorState(pyspiel.State):  # type: ignore[misc]
    """Dice rolled so far, the standing bid, the player to move, whether it is over."""

    def __init__(self, game: FloorGame) -> None:
        super().__init__(game)
        self._rolled = 0
        self._bid = -1
        self._player = 0
        self._over = False

    def current_player(self) -> int:
        if self._over:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(pyspiel.PlayerId.CHANCE) if self._rolled < DICE else self._player

    def is_chance_node(self) -> bool:
        return self._rolled < DICE

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_OUTCOMES)

    def is_terminal(self) -> bool:
        return self._over

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self._over:
            return []
        if self._rolled < DICE:
            return [0, 1, 2, 3, 4, 5]
        if player is not None and player != self._player:
            return []
        liar = [BIDS] if self._bid >= 0 else []
        return list(range(self._bid + 1, BIDS)) + liar

    def _legal_actions(self, player: int) -> list[int]:
        return self.legal_actions(player)

    def _apply_action(self, action: int) -> None:
        if self._rolled < DICE:
            self._rolled += 1
        elif action == BIDS:
            self._over = True
        else:
            self._bid = action
            self._player = 1 - self._player

    def returns(self) -> list[float]:
        return [1.0, -1.0] if self._over else [0.0, 0.0]

    def rewards(self) -> list[float]:
        return self.returns()

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return _ZEROS.copy()

    def __str__(self) -> str:
        return f"{self._rolled} {self._bid} {self._player} {self._over}"


pyspiel.register_game(_TYPE, FloorGame)
