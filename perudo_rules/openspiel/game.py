"""The OpenSpiel game and state classes, and registering a variant with OpenSpiel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.settlement import returns, rounds_may_keep_dice
from perudo_rules.openspiel.nodes import Phase, initial_node, legal_ids, step
from perudo_rules.openspiel.observer import Observer, history_text
from perudo_rules.openspiel.spec import (
    REGISTERED,
    GameSpec,
    build_spec,
    check_max_rounds,
    game_name,
)

__all__ = ["PerudoGame", "PerudoState", "load_game", "register"]


def register(v: Variant, players: int) -> GameSpec:
    """Register ``v`` played by ``players`` seats with OpenSpiel (once) and return its spec."""
    name = game_name(v, players)
    spec = REGISTERED.get(name)
    if spec is not None:
        return spec
    spec = build_spec(v, players)
    # The factory must be a class: OpenSpiel keeps it until after the interpreter has
    # shut down, and a function or closure released then crashes the process at exit.
    factory = type(f"PerudoGame_{name}", (PerudoGame,), {"_spec": spec, "__doc__": None})
    pyspiel.register_game(spec.game_type, factory)
    REGISTERED[name] = spec
    return spec


def load_game(
    variant: str | Path | Variant, players: int = 2, max_rounds: int | None = None
) -> Any:
    """``variant`` (an id, a path or a :class:`Variant`) with ``players`` seats, as a
    ``pyspiel.Game`` (a :class:`PerudoGame`).

    The game is registered with OpenSpiel under :func:`game_name`, so
    ``pyspiel.load_game(name)`` works too. ``max_rounds`` caps the length of
    games in which Calza gives dice back (see the module docstring): a whole number
    from 1 to the game's bound (:func:`~perudo_rules.openspiel.spec.check_max_rounds`),
    else ``ValueError``, as for a seat count the variant does not allow.
    """
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    spec = register(v, players)
    params: dict[str, Any] = {}
    if max_rounds is not None:
        params["max_rounds"] = check_max_rounds(spec, max_rounds)
    return pyspiel.load_game(spec.name, params)


class PerudoGame(pyspiel.Game):  # type: ignore[misc]
    """A variant as an OpenSpiel game (build it with :func:`load_game`).

    Each registered game is a subclass that sets ``_spec``.
    """

    _spec: GameSpec

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = self._spec
        params = dict(params or {})
        max_rounds = check_max_rounds(spec, params.get("max_rounds", spec.default_max_rounds))
        params["max_rounds"] = max_rounds
        n = spec.players
        amap = spec.amap
        bounded = not rounds_may_keep_dice(spec.variant.rules)
        rounds = min(max_rounds, spec.natural_rounds) if bounded else max_rounds
        info = pyspiel.GameInfo(
            num_distinct_actions=amap.num_actions,
            max_chance_outcomes=max(len(spec.die_outcomes), n if spec.roll_off else 0),
            num_players=n,
            min_utility=min(returns(0, n)),
            max_utility=max(returns(0, n)),
            utility_sum=0.0,
            max_game_length=rounds * spec.moves_per_round,
        )
        super().__init__(spec.game_type, info, params)
        self.spec = spec
        self.max_rounds = max_rounds
        self.action_map = amap
        self.variant = spec.variant

    def new_initial_state(self, params: Any = None) -> PerudoState:
        """The start of a game: a chance node."""
        return PerudoState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> _StateObserver:
        """An observer for OpenSpiel's observation API (strings and tensors)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return _StateObserver(
            self.spec, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


class PerudoState(pyspiel.State):  # type: ignore[misc]
    """A position of a :class:`PerudoGame` (OpenSpiel's ``State`` API)."""

    def __init__(self, game: PerudoGame) -> None:
        super().__init__(game)
        self._node = initial_node(game.spec, game.max_rounds)

    # The only Python attribute is the immutable node, so OpenSpiel's clone (a deepcopy
    # of each attribute) costs nothing; pickling (serialisation) replays the actions.

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
        return self._node.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return legal_ids(self._node, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` of the chance node: a seat (roll-off) or a die face."""
        node = self._node
        if node.phase == Phase.OPENER:
            return list(node.spec.seat_outcomes)
        if node.phase == Phase.ROLL:
            return list(node.spec.die_outcomes)
        raise ValueError("not a chance node")

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
        return self._node.phase >= Phase.OVER

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


class _StateObserver(Observer):
    """OpenSpiel's PyObserver protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def set_from(self, state: PerudoState, player: int) -> None:
        """Fill ``tensor`` with what ``player`` sees of ``state``."""
        self.fill(state._node, player)

    def string_from(self, state: PerudoState, player: int) -> str:
        """What ``player`` sees of ``state``, as text (perfect recall for info states)."""
        return self.text(state._node, player)
