"""The OpenSpiel game and state classes, and registering variants with OpenSpiel.

Importing this module registers every bundled variant twice: as ``perudo_<id>`` with the
seat count a game parameter (``pyspiel.load_game("perudo_italian", {"players": 3})``, or
``"perudo_italian(players=3)"``), and as ``perudo_<id>_<n>p`` for each seat count it allows
(the names of earlier releases). So a fresh process (a ``multiprocessing`` worker, a
deserialised game) loads them by name once :mod:`perudo_rules.openspiel` is imported, and
games and states pickle (a game as its variant and parameters, a state as its game and
history).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from perudo_rules.base.i18n import tr
from perudo_rules.base.limits import action_id
from perudo_rules.base.safetext import shortened
from perudo_rules.base.seatcheck import check_int
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import available_variants, load_variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.settlement import returns
from perudo_rules.openspiel.nodes import Node, Phase, initial_node, legal_ids, step
from perudo_rules.openspiel.observer import Observer
from perudo_rules.openspiel.spec import (
    GameSpec,
    check_max_rounds,
    family_name,
    game_length,
    game_name,
    spec_for,
)
from perudo_rules.openspiel.texts import history_text

__all__ = ["PerudoGame", "PerudoState", "load_game", "register", "register_bundled"]

# The factory classes registered with OpenSpiel in this process, by short name (OpenSpiel
# keeps every registration for the life of the process, so this table does too).
_FACTORIES: dict[str, type[PerudoGame]] = {}


def _game_type(name: str, v: Variant, players: int | None) -> Any:
    """The ``pyspiel.GameType`` of ``v``: its seat count a parameter (``players`` ``None``)
    or fixed. ``max_rounds`` 0 stands for the default of the seat count."""
    rules = v.rules
    params: dict[str, int] = {"max_rounds": 0}
    if players is None:
        params["players"] = rules.players_min
        low, high, seats = rules.players_min, rules.players_max, ""
    else:
        low = high = players
        seats = f", {players} players"
    return pyspiel.GameType(
        short_name=name,
        long_name=f"{v.name}{seats} (perudo-rules)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _register(name: str, v: Variant, players: int | None) -> type[PerudoGame]:
    """Register the factory of ``name`` with OpenSpiel (once) and return it."""
    factory = _FACTORIES.get(name)
    if factory is None:
        game_type = _game_type(name, v, players)
        # The factory must be a class: OpenSpiel keeps it until after the interpreter has
        # shut down, and a function or closure released then crashes the process at exit.
        attrs = {
            "_variant": v,
            "_players": players,
            "_game_type": game_type,
            "_specs": {},
            "__doc__": None,
        }
        factory = type(f"PerudoGame_{name}", (PerudoGame,), attrs)
        pyspiel.register_game(game_type, factory)
        _FACTORIES[name] = factory
    return factory


def register(v: Variant, players: int | None = None) -> str:
    """Register ``v`` with OpenSpiel (once) and return its short name: with ``players``
    ``None`` the name whose seat count is a parameter (:func:`family_name`), else the name
    with ``players`` seats fixed (:func:`game_name`)."""
    # game_name: ValueError for a seat count v does not allow
    name = family_name(v) if players is None else game_name(v, players)
    _register(name, v, players)
    return name


def register_bundled() -> None:
    """Register every bundled variant under both kinds of name (done on import)."""
    for vid in available_variants():
        v = load_variant(vid)
        register(v)
        for n in range(v.rules.players_min, v.rules.players_max + 1):
            register(v, n)


def load_game(
    variant: str | Path | Variant, players: int = 2, max_rounds: int | None = None
) -> Any:
    """``variant`` (an id, a path or a :class:`Variant`) with ``players`` seats, as a
    ``pyspiel.Game`` (a :class:`PerudoGame`).

    The game is ``pyspiel.load_game(family_name(variant), {"players": players, ...})``;
    a variant that is not bundled is registered first (under :func:`game_name` too).
    ``max_rounds`` caps the length of games in which Calza gives dice back (see the module
    docstring): a whole number from 1 to the game's bound
    (:func:`~perudo_rules.openspiel.spec.check_max_rounds`), else ``ValueError``, as for a
    seat count the variant does not allow.
    """
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    spec = spec_for(v, players)  # ValueError for a seat count v does not allow
    params: dict[str, Any] = {"players": players}
    if max_rounds is not None:
        params["max_rounds"] = check_max_rounds(spec, max_rounds)
    register(v, players)
    return pyspiel.load_game(register(v), params)


def _seat(node: Node, player: object) -> int:
    """The seat a tensor method is asked about: ``player``, or ``None`` for the player
    to move; ``TypeError`` for one that is not a whole number (a NumPy integer is its int;
    a bool, a float is refused), ``SpielError`` for one out of range."""
    if player is None:
        seat = node.player
    elif type(player) is not int:
        seat = check_int(player, "player")
    else:
        seat = player
    if not 0 <= seat < node.spec.players:
        raise pyspiel.SpielError(f"player {seat} out of range")
    return seat


def _unpickle_game(text: str, variant: Variant | None, players: int | None) -> Any:
    """A pickled :class:`PerudoGame`: its variant registered if it is not bundled."""
    if variant is not None:
        register(variant, players)
    return pyspiel.load_game(text)


def _unpickle_state(game: Any, history: tuple[int, ...]) -> PerudoState:
    """A pickled :class:`PerudoState`: its game's initial state, then its history."""
    state: PerudoState = game.new_initial_state()
    for a in history:
        state.apply_action(a)
    return state


class PerudoGame(pyspiel.Game):  # type: ignore[misc]
    """A variant as an OpenSpiel game (build it with :func:`load_game`, or
    ``pyspiel.load_game`` by name).

    Each registered name is a subclass that sets the variant (``_variant``), the seat
    count when fixed (``_players``) and the ``pyspiel.GameType``.
    """

    _variant: ClassVar[Variant]
    _players: ClassVar[int | None]
    _game_type: ClassVar[Any]
    _specs: ClassVar[dict[int, GameSpec]]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        cls = type(self)
        params = dict(params or {})
        fixed = cls._players
        players = fixed if fixed is not None else int(params.get("players", 2))
        spec = cls._specs.get(players)
        if spec is None:
            spec = cls._specs[players] = spec_for(cls._variant, players)
        asked = params.get("max_rounds", 0)
        max_rounds = spec.default_max_rounds if asked == 0 else check_max_rounds(spec, asked)
        given: dict[str, Any] = {"max_rounds": max_rounds}
        if fixed is None:
            given["players"] = players
        n = spec.players
        amap = spec.amap
        info = pyspiel.GameInfo(
            num_distinct_actions=amap.num_actions,
            max_chance_outcomes=max(len(spec.die_outcomes), n if spec.roll_off else 0),
            num_players=n,
            min_utility=min(returns(0, n)),
            max_utility=max(returns(0, n)),
            utility_sum=0.0,
            max_game_length=game_length(spec, max_rounds),
        )
        super().__init__(cls._game_type, info, given)
        self.spec = spec
        self.max_rounds = max_rounds
        self.action_map = amap
        self.variant = spec.variant
        # every game starts at this node (immutable, shared): OpenSpiel makes a new initial
        # state each time it asks a tensor's shape
        self.initial = initial_node(spec, max_rounds)
        # the views behind the state's own tensor methods (OpenSpiel's default kinds, as
        # its C++ side makes them: perfect recall for the information state)
        self.info_observer = Observer(spec, _INFO_STATE, max_rounds)
        self.obs_observer = Observer(spec, _OBSERVATION, max_rounds)

    def __reduce__(self) -> tuple[Any, ...]:
        cls = type(self)
        bundled = cls._game_type.short_name in _BUNDLED
        payload = (None, None) if bundled else (cls._variant, cls._players)
        return (_unpickle_game, (str(self), *payload))

    def new_initial_state(self, params: Any = None) -> PerudoState:
        """The start of a game: a chance node."""
        return PerudoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        """An observer for OpenSpiel's observation API (strings and tensors)."""
        if params:
            raise ValueError(tr("observation parameters are not supported: {params}",
                                params=shortened(repr(params), 60)))  # fmt: skip
        return Observer(
            self.spec,
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False),
            self.max_rounds,
        )


class PerudoState(pyspiel.State):  # type: ignore[misc]
    """A position of a :class:`PerudoGame` (OpenSpiel's ``State`` API).

    The methods an RL loop asks at every step (``legal_actions``, ``is_chance_node``,
    ``rewards``, ``information_state_tensor``, ``observation_tensor``) answer in Python,
    without the round trip through OpenSpiel's C++ ``State`` and back into this class
    that its base methods take; each gives what the base method gives
    (``tests/test_openspiel_fast.py`` compares them on random states). C++ code (its
    algorithms, ``random_sim_test``) still calls the base methods.
    """

    def __init__(self, game: PerudoGame) -> None:
        super().__init__(game)
        self._node = game.initial

    # The only Python attribute is the immutable node, so OpenSpiel's clone (a deepcopy
    # of each attribute) costs nothing; OpenSpiel's serialisation pickles the node (its
    # actions, replayed), and pickle itself takes the game and the history.

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle_state, (self.get_game(), tuple(self.history())))

    def __eq__(self, other: object) -> bool:
        """Two states are equal when their games are and their histories are."""
        if not isinstance(other, PerudoState):
            return NotImplemented
        return bool(self.history() == other.history() and self.get_game() == other.get_game())

    def __hash__(self) -> int:
        return hash((str(self.get_game()), tuple(self.history())))

    @property
    def node(self) -> Node:
        """The adapter's immutable position behind this state (what its observers read)."""
        return self._node

    @property
    def perudo_game(self) -> Game | None:
        """The engine position (``None`` until the first round's dice are rolled)."""
        return self._node.game

    def rolling_seat(self) -> int | None:
        """At a die-roll chance node, the seat whose die it rolls; else ``None``."""
        node = self._node
        return node.roller() if node.phase == Phase.ROLL else None

    def offered(self) -> bool:
        """True at an out-of-turn decision (call or ``PASS``), not the player to move's turn."""
        return self._node.phase == Phase.PLAY and bool(self._node.pending)

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's CHANCE / TERMINAL player id."""
        return self._node.player

    def _legal_actions(self, player: int) -> list[int]:
        return legal_ids(self._node, player)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids of ``player`` (default: the player to move), ascending: at a
        chance node its outcomes, none for another seat or at the end (as OpenSpiel's
        ``State.LegalActions``; a negative ``player`` at a decision is ``SpielError``). A
        ``player`` that is not a whole number (a bool, a float) is a ``TypeError``."""
        if player is not None and type(player) is not int:
            player = check_int(player, "player")
        node = self._node
        if node.terminal:
            return []
        if node.player == _CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if player is None or player == node.player:
            return legal_ids(node, node.player)
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        """True at a die roll or the roll-off."""
        return self._node.player == _CHANCE

    def rewards(self) -> list[float]:
        """This step's rewards: the returns at the end, else 0 for every seat."""
        node = self._node
        return self.returns() if node.terminal else [0.0] * node.spec.players

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """What ``player`` (default: the player to move) has seen, as the perfect-recall
        tensor (the game's ``information_state_tensor_shape``)."""
        node = self._node
        if type(player) is not int or not 0 <= player < node.spec.players:
            player = _seat(node, player)
        observer: Observer = self.get_game().info_observer
        return observer.values(node, player)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """What ``player`` (default: the player to move) sees now, as the observation tensor."""
        node = self._node
        if type(player) is not int or not 0 <= player < node.spec.players:
            player = _seat(node, player)
        observer: Observer = self.get_game().obs_observer
        return observer.values(node, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` of the chance node: a seat (roll-off) or a die face."""
        node = self._node
        if node.phase == Phase.OPENER:
            return list(node.spec.seat_outcomes)
        if node.phase == Phase.ROLL:
            return list(node.spec.die_outcomes)
        raise ValueError(tr("not a chance node"))

    def apply_action(self, action: int) -> None:
        """Take ``action``: an action id, or at a chance node an outcome. ``TypeError``
        unless it is a whole number (a bool, NumPy's too, or a float is not; NumPy
        integers are), ``ValueError`` naming the range for one outside it (``-1``, a
        5,000-digit number), checked before OpenSpiel converts it to its 64-bit id."""
        if type(action) is _INT64:  # what OpenSpiel's chance sampler draws: its int
            action = int(action)
        node = self._node
        if type(action) is not int or not 0 <= action < node.width:  # the common case: in
            action = action_id(action, node.width, outcome=node.phase != _PLAY)
        _BASE_APPLY(self, action)

    def _apply_action(self, action: int) -> None:
        self._node = step(self._node, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._node.phase == Phase.OPENER:
                return f"Opener s{action}"
            return f"Roll {action + 1}"
        return self._node.spec.amap.name(action)

    def is_terminal(self) -> bool:
        """True once a seat has won or the round cap stopped the game."""
        return self._node.terminal

    def returns(self) -> list[float]:
        """+1 for the winner, ``-1/(players-1)`` for the others; 0 for all before the end
        and after a game stopped by ``max_rounds``
        (:func:`perudo_rules.engine.settlement.returns`)."""
        node = self._node
        game = node.game
        winner = game.winner if game is not None else None
        return list(returns(winner, node.spec.players))

    def __str__(self) -> str:
        node = self._node
        game = node.game
        if node.phase == Phase.OPENER:
            return "roll-off"
        if node.phase == Phase.ROLL:
            cups = node.partial_cups()
            head = "rolling " + " ".join(f"s{s}:{''.join(map(str, c))}" for s, c in enumerate(cups))
            if game is not None:
                head = f"{history_text(game, None)} | {head}"
            return head
        assert game is not None
        text = history_text(game, None)
        if node.phase == Phase.PLAY:
            text += f" | s{node.current_player()} to act"
        elif node.phase == Phase.DRAW:
            text += " | stopped at max_rounds"
        return text


_INFO_STATE = pyspiel.IIGObservationType(perfect_recall=True)
_OBSERVATION = pyspiel.IIGObservationType(perfect_recall=False)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_BASE_APPLY = pyspiel.State.apply_action
_INT64: Any = np.int64
_PLAY = Phase.PLAY

register_bundled()
_BUNDLED = frozenset(_FACTORIES)
