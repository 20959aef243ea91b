"""OpenSpiel adapter: any variant, with a seat count, as a ``pyspiel`` game.

``load_game(variant, players)`` registers a Python game with OpenSpiel (once
per variant and seat count) and returns it, so OpenSpiel's algorithms (MCTS,
CFR, ...) and its test harness (``pyspiel.random_sim_test``) run on our
editions. It needs the optional extra: ``pip install 'perudo-rules[openspiel]'``.
Importing :mod:`perudo_rules` never imports this module or ``pyspiel``.

The game, move by move:

* **Chance nodes.** If the variant settles the first player by a roll-off
  (``setup.first_player: roll_off``), the game opens with one chance node
  whose outcome ``k`` (probability ``1/players``) makes seat ``k`` the opener:
  a roll-off with ties re-rolled among the tied is symmetric, so every seat
  opens with the same probability, and one node keeps the game finite.
  Then every round starts with one chance node per die, seat 0's dice first,
  then seat 1's and so on (out seats skipped); outcome ``k`` (probability
  ``1/faces``) sets the die to face ``k+1``. Each cup is sorted once rolled.
* **Action ids** (fixed for the whole game, see :class:`ActionMap`): bid
  ``(q, f)`` has the id of its rank among all bids of the largest possible
  table (``BidSpace`` with the most dice that can ever be in play, ordinary
  ranking); rank order is the same at any smaller cap, so ids grow with rank.
  Then ``DUDO = number of bids``, ``CALZA = DUDO + 1``, ``PASS = DUDO + 2``.
* **Decision nodes.** The player to move chooses among its legal bids, Dudo
  (when ``challenge.who`` allows it) and Calza (when ``calza.who`` allows the
  player to move). Out-of-turn calls are explicit decisions: after every bid,
  each seat that may call Dudo or Calza out of turn (``challenge.who:
  any_except_bidder``, ``calza.who: any_except_bidder`` or
  ``any_except_bidder_and_next``) is offered, one at a time, in the direction
  of play starting after the player to move, the choice of Calza / Dudo /
  ``PASS``. The first call ends the round; when everyone offered has passed,
  the player to move acts. So each eligible seat gets exactly one chance to
  call against each standing bid, before the next bid replaces it; the seat
  order is the tie-break for calls that would be simultaneous at a table.
* **Returns** (zero-sum, terminal only): the winner gets ``+1`` and every
  other seat ``-1/(players-1)`` (so ``+1/-1`` with two seats, as in
  OpenSpiel's ``liars_dice``). An exact Calza gives a die back or changes
  nothing, so a game with Calza has no length bound; the game parameter
  ``max_rounds`` caps it (default: ``10 x`` the starting dice with Calza,
  else the natural bound ``starting dice - 1``, which is never reached). A
  game stopped by the cap is a draw: every return is 0.
* **Observations.** The information-state string is perfect recall: the
  seat's own dice of every round, every public action, every lifted cup and
  who is to act. The information-state tensor holds the seat, its dice, the
  dice counts, the palifico state, the round's opener, every bid of the
  current round by bidder and who is to act; earlier rounds appear only
  through their effects (dice counts, palifico state). The observation string
  and tensor show the same public state but only the standing bid.

With ``variants/openspiel-liars-dice.yaml`` (and overrides of
``dice.per_player``, ``dice.faces`` and ``bidding.order``) the game is move
for move OpenSpiel's own ``liars_dice``: the same chance nodes, action ids,
legal actions and returns (``tests/test_openspiel_diff.py`` proves it).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found]
except ImportError as _exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "perudo_rules.openspiel needs OpenSpiel: pip install 'perudo-rules[openspiel]'"
    ) from _exc

from perudo_rules.actions import Action, Bid, Calza, Dudo
from perudo_rules.game import Game, RoundRecord
from perudo_rules.kernel import most_dice_per_seat, rounds_may_keep_dice
from perudo_rules.ranks import BidSpace, bid_space
from perudo_rules.variant import Variant, available_variants, load_variant

__all__ = ["ActionMap", "PerudoGame", "PerudoState", "action_map", "game_name", "load_game"]


# --- the fixed action ids --------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class ActionMap:
    """The integer action ids of a variant played by ``players`` seats.

    ``space`` is the :class:`~perudo_rules.ranks.BidSpace` of the largest
    table (``max_dice`` dice in play, ordinary round); a bid's id is its rank
    there. ``dudo``, ``calza`` and ``pass_`` follow the bids;
    ``num_actions`` is their total.
    """

    players: int
    max_dice: int
    space: BidSpace

    @property
    def num_bids(self) -> int:
        """Number of bid ids."""
        return self.space.size

    @property
    def dudo(self) -> int:
        """The id of Dudo (OpenSpiel's ``liars_dice`` calls it Liar)."""
        return self.space.size

    @property
    def calza(self) -> int:
        """The id of Calza."""
        return self.space.size + 1

    @property
    def pass_(self) -> int:
        """The id of passing on an out-of-turn call."""
        return self.space.size + 2

    @property
    def num_actions(self) -> int:
        """Number of distinct action ids."""
        return self.space.size + 3

    def bid_id(self, quantity: int, face: int) -> int:
        """The id of bid ``quantity x face`` (``ValueError`` if no table allows it)."""
        rank = self.space.rank(quantity, face)
        if rank is None:
            raise ValueError(f"{quantity}x{face} is not a bid of this game")
        return rank

    def to_id(self, action: Action) -> int:
        """The id of an engine action (the seat is implied by the node)."""
        if isinstance(action, Bid):
            return self.bid_id(action.quantity, action.face)
        if isinstance(action, Dudo):
            return self.dudo
        if isinstance(action, Calza):
            return self.calza
        raise TypeError(f"not an action: {action!r}")

    def to_action(self, action_id: int, player: int) -> Action | None:
        """The engine action of ``action_id`` taken by ``player``; ``None`` for ``PASS``."""
        if 0 <= action_id < self.space.size:
            q, f = self.space.bid(action_id)
            return Bid(player, q, f)
        if action_id == self.dudo:
            return Dudo(player)
        if action_id == self.calza:
            return Calza(player)
        if action_id == self.pass_:
            return None
        raise ValueError(f"no action id {action_id} (ids run 0..{self.num_actions - 1})")

    def name(self, action_id: int) -> str:
        """A short name: ``3x4``, ``Dudo``, ``Calza`` or ``Pass``."""
        if 0 <= action_id < self.space.size:
            q, f = self.space.bid(action_id)
            return f"{q}x{f}"
        names = {self.dudo: "Dudo", self.calza: "Calza", self.pass_: "Pass"}
        if action_id in names:
            return names[action_id]
        raise ValueError(f"no action id {action_id} (ids run 0..{self.num_actions - 1})")


def action_map(variant: str | Path | Variant, players: int = 2) -> ActionMap:
    """The :class:`ActionMap` of ``variant`` played by ``players`` seats."""
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    _check_players(v, players)
    most = players * most_dice_per_seat(v.rules)
    return ActionMap(players=players, max_dice=most, space=bid_space(v.rules, most, False))


def _check_players(v: Variant, players: int) -> None:
    rules = v.rules
    if type(players) is not int or not rules.players_min <= players <= rules.players_max:
        raise ValueError(
            f"{players!r} players; {v.id} plays with {rules.players_min} to {rules.players_max}"
        )


# --- registration ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class _Spec:
    """Everything fixed for one registered game."""

    name: str
    variant: Variant
    players: int
    amap: ActionMap
    seat_dice: int
    roll_off: bool
    natural_rounds: int
    default_max_rounds: int
    die_outcomes: tuple[tuple[int, float], ...]
    seat_outcomes: tuple[tuple[int, float], ...]
    game_type: Any


_SPECS: dict[str, _Spec] = {}


def game_name(variant: str | Path | Variant, players: int = 2) -> str:
    """The OpenSpiel short name ``load_game`` registers for ``variant`` and ``players``.

    ``perudo_<id>_<players>p`` for a bundled variant as shipped, with an
    ``_<hash>`` of the knob values appended for any other (overrides, files).
    """
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    _check_players(v, players)
    base = f"perudo_{re.sub(r'[^0-9A-Za-z]+', '_', v.id)}_{players}p"
    if v.id in available_variants() and load_variant(v.id).values() == v.values():
        return base
    digest = hashlib.sha1(
        json.dumps(v.values(), sort_keys=True).encode(), usedforsecurity=False
    ).hexdigest()[:10]
    return f"{base}_{digest}"


def _register(v: Variant, players: int) -> _Spec:
    name = game_name(v, players)
    spec = _SPECS.get(name)
    if spec is not None:
        return spec
    rules = v.rules
    amap = action_map(v, players)
    total = players * rules.dice_per_player
    natural = total - 1
    default_rounds = 10 * total if rounds_may_keep_dice(rules) else natural
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"{v.name}, {players} players (perudo-rules)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players,
        min_num_players=players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"max_rounds": default_rounds},
    )
    spec = _Spec(
        name=name,
        variant=v,
        players=players,
        amap=amap,
        seat_dice=most_dice_per_seat(rules),
        roll_off=rules.setup_first_player == "roll_off",
        natural_rounds=natural,
        default_max_rounds=default_rounds,
        die_outcomes=tuple((k, 1.0 / rules.dice_faces) for k in range(rules.dice_faces)),
        seat_outcomes=tuple((k, 1.0 / players) for k in range(players)),
        game_type=game_type,
    )

    # The factory must be a class: OpenSpiel keeps it until after the interpreter has
    # shut down, and a function or closure released then crashes the process at exit.
    factory = type(f"PerudoGame_{name}", (PerudoGame,), {"_spec": spec, "__doc__": None})
    pyspiel.register_game(game_type, factory)
    _SPECS[name] = spec
    return spec


def load_game(
    variant: str | Path | Variant, players: int = 2, max_rounds: int | None = None
) -> Any:
    """``variant`` (an id, a path or a :class:`Variant`) with ``players`` seats, as a
    ``pyspiel.Game`` (a :class:`PerudoGame`).

    The game is registered with OpenSpiel under :func:`game_name`, so
    ``pyspiel.load_game(name)`` works too. ``max_rounds`` caps the length of
    games in which Calza gives dice back (see the module docstring).
    """
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    spec = _register(v, players)
    params: dict[str, Any] = {}
    if max_rounds is not None:
        params["max_rounds"] = max_rounds
    return pyspiel.load_game(spec.name, params)


# --- the game ---------------------------------------------------------------------------


class PerudoGame(pyspiel.Game):  # type: ignore[misc]
    """A variant as an OpenSpiel game (build it with :func:`load_game`).

    Each registered game is a subclass that sets ``_spec``.
    """

    _spec: _Spec

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec = self._spec
        params = dict(params or {})
        max_rounds = int(params.get("max_rounds", spec.default_max_rounds))
        if max_rounds < 1:
            raise ValueError(f"max_rounds must be at least 1, not {max_rounds}")
        params["max_rounds"] = max_rounds
        n = spec.players
        amap = spec.amap
        bounded = not rounds_may_keep_dice(spec.variant.rules)
        rounds = min(max_rounds, spec.natural_rounds) if bounded else max_rounds
        # Per round: every bid, each followed by at most n-2 out-of-turn offers (neither to
        # the bidder nor to the player to move), then the call.
        rules = spec.variant.rules
        out_of_turn = rules.challenge_who != "player_to_move" or (
            rules.calza_enabled and rules.calza_who != "player_to_move"
        )
        per_round = amap.num_bids * (1 + (n - 2 if out_of_turn else 0)) + 1
        info = pyspiel.GameInfo(
            num_distinct_actions=amap.num_actions,
            max_chance_outcomes=max(spec.variant.rules.dice_faces, n if spec.roll_off else 0),
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=rounds * per_round,
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
    ) -> _Observer:
        """An observer for OpenSpiel's observation API (strings and tensors)."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return _Observer(
            self.spec, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


# Phases of a node.
_OPENER, _ROLL, _PLAY, _OVER, _DRAW = range(5)


class _Node:
    """An immutable position of the adapter: shared, never copied (see ``__deepcopy__``)."""

    __slots__ = (
        "action",
        "game",
        "max_rounds",
        "opener",
        "parent",
        "pending",
        "phase",
        "rolled",
        "spec",
    )

    def __init__(
        self,
        spec: _Spec,
        max_rounds: int,
        parent: _Node | None,
        action: int,
        phase: int,
        game: Game | None,
        opener: int = 0,
        rolled: tuple[int, ...] = (),
        pending: tuple[int, ...] = (),
    ) -> None:
        self.spec = spec
        self.max_rounds = max_rounds
        self.parent = parent
        self.action = action
        self.phase = phase
        self.game = game
        self.opener = opener
        self.rolled = rolled
        self.pending = pending

    def __deepcopy__(self, memo: dict[int, Any]) -> _Node:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        actions = []
        node: _Node | None = self
        while node is not None and node.parent is not None:
            actions.append(node.action)
            node = node.parent
        return (_replay, (self.spec.name, self.max_rounds, tuple(reversed(actions))))

    # -- derived

    def roll_counts(self) -> tuple[int, ...]:
        if self.game is None:
            return (self.spec.variant.rules.dice_per_player,) * self.spec.players
        return self.game.dice_counts

    def roller(self) -> int:
        """The seat whose die is being rolled."""
        left = len(self.rolled)
        for seat, c in enumerate(self.roll_counts()):
            if left < c:
                return seat
            left -= c
        raise AssertionError("no die left to roll")  # pragma: no cover

    def partial_cups(self) -> list[list[int]]:
        cups: list[list[int]] = []
        i = 0
        for c in self.roll_counts():
            cups.append(sorted(self.rolled[i : i + c]))
            i += c
        return cups

    def current_player(self) -> int:
        phase = self.phase
        if phase == _PLAY:
            if self.pending:
                return self.pending[0]
            assert self.game is not None and self.game.to_move is not None
            return self.game.to_move
        if phase in (_OPENER, _ROLL):
            return int(pyspiel.PlayerId.CHANCE)
        return int(pyspiel.PlayerId.TERMINAL)


def _initial(spec: _Spec, max_rounds: int) -> _Node:
    return _Node(spec, max_rounds, None, -1, _OPENER if spec.roll_off else _ROLL, None)


def _replay(name: str, max_rounds: int, actions: Sequence[int]) -> _Node:
    """Rebuild a node from its actions (how a pickled state comes back)."""
    node = _initial(_SPECS[name], max_rounds)
    for a in actions:
        node = _step(node, a)
    return node


_ID_CACHE: dict[tuple[str, int, int | None], tuple[tuple[int, ...], bool]] = {}


def _ids_of(spec: _Spec, space: BidSpace) -> tuple[tuple[int, ...], bool]:
    """Round-space rank -> action id, and whether that map is increasing."""
    key = (spec.name, space.cap, space.wild)
    hit = _ID_CACHE.get(key)
    if hit is None:
        ids = tuple(spec.amap.space.rank_of[b] for b in space.bids)
        hit = (ids, all(a < b for a, b in itertools.pairwise(ids)))
        _ID_CACHE[key] = hit
    return hit


def _legal(node: _Node, player: int) -> list[int]:
    game = node.game
    assert game is not None
    amap = node.spec.amap
    if node.pending:
        out = []
        if game.is_legal(Dudo(player)):
            out.append(amap.dudo)
        if game.is_legal(Calza(player)):
            out.append(amap.calza)
        out.append(amap.pass_)
        return out
    ranks = game.legal_actions().bid_ranks
    ids, increasing = _ids_of(node.spec, game.space)
    if ids[-1] == len(ids) - 1 and increasing:  # the round's table is the largest one
        out = list(ranks)
    else:
        out = [ids[r] for r in ranks]
        if not increasing:
            out.sort()
    if game.bids:
        if game.is_legal(Dudo(player)):
            out.append(amap.dudo)
        if game.is_legal(Calza(player)):
            out.append(amap.calza)
    return out


def _offers(game: Game) -> tuple[int, ...]:
    """Seats offered an out-of-turn call after the bid just made, in order."""
    to_move = game.to_move
    assert to_move is not None
    bidder = game.bids[-1].player
    out = []
    s = game.next_seat(to_move)
    while s != to_move:
        if s != bidder and (game.is_legal(Calza(s)) or game.is_legal(Dudo(s))):
            out.append(s)
        s = game.next_seat(s)
    return tuple(out)


def _step(node: _Node, action: int) -> _Node:
    spec = node.spec
    phase = node.phase
    mr = node.max_rounds
    if phase == _OPENER:
        if not 0 <= action < spec.players:
            raise ValueError(f"no seat {action} to open")
        return _Node(spec, mr, node, action, _ROLL, None, opener=action)
    if phase == _ROLL:
        if not 0 <= action < spec.variant.rules.dice_faces:
            raise ValueError(f"no die outcome {action}")
        counts = node.roll_counts()
        rolled = (*node.rolled, action + 1)
        if len(rolled) < sum(counts):
            return _Node(spec, mr, node, action, _ROLL, node.game, node.opener, rolled)
        cups = []
        i = 0
        for c in counts:
            cups.append(sorted(rolled[i : i + c]))
            i += c
        if node.game is None:
            started = Game.start(spec.variant, cups, node.opener)
        else:
            started = node.game.roll(dice=cups)
        return _Node(spec, mr, node, action, _PLAY, started)
    if phase != _PLAY:
        raise ValueError("the game is over")
    game = node.game
    assert game is not None
    player = node.current_player()
    if node.pending:
        if action == spec.amap.pass_:
            return _Node(spec, mr, node, action, _PLAY, game, pending=node.pending[1:])
        if action not in (spec.amap.dudo, spec.amap.calza):
            raise ValueError(f"seat {player} may only call or pass now, not {action}")
    engine_action = spec.amap.to_action(action, player)
    if engine_action is None:
        raise ValueError(f"seat {player} has nothing to pass on")
    after = game.apply(engine_action)
    if isinstance(engine_action, Bid):
        return _Node(spec, mr, node, action, _PLAY, after, pending=_offers(after))
    if after.is_over:
        return _Node(spec, mr, node, action, _OVER, after)
    if after.round >= mr:
        return _Node(spec, mr, node, action, _DRAW, after)
    return _Node(spec, mr, node, action, _ROLL, after)


class PerudoState(pyspiel.State):  # type: ignore[misc]
    """A position of a :class:`PerudoGame` (OpenSpiel's ``State`` API)."""

    def __init__(self, game: PerudoGame) -> None:
        super().__init__(game)
        self._node = _initial(game.spec, game.max_rounds)

    # The only Python attribute is the immutable node, so OpenSpiel's clone (a deepcopy
    # of each attribute) costs nothing; pickling (serialisation) replays the actions.

    @property
    def perudo_game(self) -> Game | None:
        """The engine position (``None`` until the first round's dice are rolled)."""
        return self._node.game

    def rolling_seat(self) -> int | None:
        """At a die-roll chance node, the seat whose die it rolls; else ``None``."""
        node = self._node
        return node.roller() if node.phase == _ROLL else None

    def offered(self) -> bool:
        """True at an out-of-turn decision (call or ``PASS``), not the player to move's turn."""
        return self._node.phase == _PLAY and bool(self._node.pending)

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's CHANCE / TERMINAL player id."""
        return self._node.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return _legal(self._node, player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(outcome, probability)`` of the chance node: a seat (roll-off) or a die face."""
        node = self._node
        if node.phase == _OPENER:
            return list(node.spec.seat_outcomes)
        if node.phase == _ROLL:
            return list(node.spec.die_outcomes)
        raise ValueError("not a chance node")

    def _apply_action(self, action: int) -> None:
        self._node = _step(self._node, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._node.phase == _OPENER:
                return f"Opener s{action}"
            return f"Roll {action + 1}"
        return self._node.spec.amap.name(action)

    def is_terminal(self) -> bool:
        """True once a seat has won or the round cap stopped the game."""
        return self._node.phase >= _OVER

    def returns(self) -> list[float]:
        """+1 for the winner, ``-1/(players-1)`` for the others; 0 for all before the end
        and after a game stopped by ``max_rounds``."""
        node = self._node
        n = node.spec.players
        if node.phase != _OVER:
            return [0.0] * n
        assert node.game is not None
        winner = node.game.winner
        lose = -1.0 / (n - 1)
        return [1.0 if s == winner else lose for s in range(n)]

    def __str__(self) -> str:
        node = self._node
        game = node.game
        if node.phase == _OPENER:
            return "roll-off"
        if node.phase == _ROLL:
            cups = node.partial_cups()
            head = "rolling " + " ".join(f"s{s}:{''.join(map(str, c))}" for s, c in enumerate(cups))
            if game is not None:
                head = f"{_history_text(game, None)} | {head}"
            return head
        assert game is not None
        text = _history_text(game, None)
        if node.phase == _PLAY:
            text += f" | s{node.current_player()} to act"
        elif node.phase == _DRAW:
            text += " | stopped at max_rounds"
        return text


# --- observation ---------------------------------------------------------------------------


def _cup(dice: Sequence[int]) -> str:
    return "".join(map(str, dice)) or "-"


def _round_text(
    number: int,
    opener: int,
    palifico: bool,
    dice: Sequence[Sequence[int]],
    actions: Sequence[Action],
    viewer: int | None,
    private: str,
) -> str:
    pal = " palifico" if palifico else ""
    if private == "all" or viewer is None:
        cups = " ".join(f"s{s}:{_cup(c)}" for s, c in enumerate(dice))
    elif private == "single":
        cups = f"dice {_cup(dice[viewer])}"
    else:
        cups = ""
    acts = " ".join(f"s{a.player}:{a}" for a in actions)
    return " ".join(x for x in (f"r{number}{pal} opener s{opener}", cups, acts) if x)


@functools.lru_cache(maxsize=65536)
def _past_round_text(r: RoundRecord, viewer: int | None, private: str) -> str:
    """The text of a finished round for one view (cached by value: a record hashes once)."""
    res = r.result
    shown = " ".join(f"s{s}:{_cup(c)}" for s, c in zip(res.revealed, res.shown, strict=True))
    outcome = f"lost s{res.loser}" if res.loser is not None else "no loss"
    if res.gainer is not None:
        outcome = f"gained s{res.gainer}"
    head = _round_text(r.round, r.first_player, r.palifico, r.dice, r.actions, viewer, private)
    return f"{head} ; shown {shown} ; {outcome}"


def _history_text(game: Game, viewer: int | None, private: str = "all", recall: bool = True) -> str:
    parts: list[str] = []
    if recall:
        parts.extend(_past_round_text(r, viewer, private) for r in game.history)
    if game.to_move is not None:
        assert game.first_player is not None
        parts.append(
            _round_text(
                game.round, game.first_player, game.palifico, game.dice, game.bids, viewer, private
            )
        )
    elif game.is_over:
        parts.append(f"winner s{game.winner}")
    return " | ".join(parts)


class _Observer:
    """OpenSpiel's PyObserver protocol: ``tensor``, ``dict``, ``set_from``, ``string_from``."""

    def __init__(self, spec: _Spec, iig_obs_type: Any) -> None:
        self.spec = spec
        self.recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        kind = iig_obs_type.private_info
        self.private = (
            "single"
            if kind == pyspiel.PrivateInfoType.SINGLE_PLAYER
            else ("all" if kind == pyspiel.PrivateInfoType.ALL_PLAYERS else "none")
        )
        n = spec.players
        d = spec.seat_dice
        faces = spec.variant.rules.dice_faces
        nb = spec.amap.num_bids
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))]
        if self.private == "single":
            pieces.append(("dice", (d, faces)))
        elif self.private == "all":
            pieces.append(("dice", (n, d, faces)))
        if self.public:
            pieces += [
                ("counts", (n, d + 1)),
                ("palifico", (1,)),
                ("palifico_used", (n,)),
                ("opener", (n,)),
            ]
            if self.recall:
                pieces.append(("bids", (n, nb)))
            else:
                pieces += [("standing_bid", (nb,)), ("bidder", (n,))]
            pieces += [("to_act", (n,)), ("offer", (1,)), ("over", (1,))]
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, shape in pieces:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + k].reshape(shape)
            at += k

    def set_from(self, state: PerudoState, player: int) -> None:
        """Fill ``tensor`` with what ``player`` sees of ``state``."""
        node = state._node
        t = self.dict
        self.tensor.fill(0.0)
        t["player"][player] = 1.0
        game = node.game
        if node.phase == _ROLL:
            cups: Sequence[Sequence[int]] = node.partial_cups()
        elif game is not None:
            cups = game.dice
        else:
            cups = [()] * self.spec.players
        if self.private == "single":
            for i, f in enumerate(cups[player]):
                t["dice"][i, f - 1] = 1.0
        elif self.private == "all":
            for s, cup in enumerate(cups):
                for i, f in enumerate(cup):
                    t["dice"][s, i, f - 1] = 1.0
        if not self.public:
            return
        counts = node.roll_counts()
        for s, c in enumerate(counts):
            t["counts"][s, c] = 1.0
        if node.phase == _OPENER:
            return
        if game is None:
            t["opener"][node.opener] = 1.0
            return
        t["palifico"][0] = float(game.palifico)
        for s in game.palifico_used:
            t["palifico_used"][s] = 1.0
        if node.phase != _PLAY:
            t["over"][0] = float(node.phase >= _OVER)
            if node.phase == _ROLL and game.last_result is not None:
                nxt = game.last_result.next_player
                if nxt is not None:
                    t["opener"][nxt] = 1.0
            return
        assert game.first_player is not None
        t["opener"][game.first_player] = 1.0
        amap = self.spec.amap
        if self.recall:
            for b in game.bids:
                t["bids"][b.player, amap.bid_id(b.quantity, b.face)] = 1.0
        elif game.bids:
            b = game.bids[-1]
            t["standing_bid"][amap.bid_id(b.quantity, b.face)] = 1.0
            t["bidder"][b.player] = 1.0
        t["to_act"][node.current_player()] = 1.0
        t["offer"][0] = float(bool(node.pending))

    def string_from(self, state: PerudoState, player: int) -> str:
        """What ``player`` sees of ``state``, as text (perfect recall for info states)."""
        node = state._node
        game = node.game
        head = f"p{player}"
        if node.phase == _OPENER:
            return f"{head} | roll-off"
        if not self.public:
            if node.phase == _ROLL:
                cups: Sequence[Sequence[int]] = node.partial_cups()
            elif game is not None:
                cups = game.dice
            else:  # pragma: no cover - the opener phase returned above
                cups = []
            if self.private == "single":
                return f"{head} dice {_cup(cups[player])}"
            if self.private == "all":
                return f"{head} " + " ".join(f"s{s}:{_cup(c)}" for s, c in enumerate(cups))
            return head
        parts = [head]
        if game is None:
            parts.append(f"opener s{node.opener}")
        else:
            parts.append(f"counts {' '.join(map(str, game.dice_counts))}")
            if self.recall:
                parts.append(_history_text(game, player, self.private, recall=True))
            elif game.to_move is not None:
                assert game.first_player is not None
                shown_bids = game.bids[-1:]
                parts.append(
                    _round_text(
                        game.round,
                        game.first_player,
                        game.palifico,
                        game.dice,
                        shown_bids,
                        player,
                        self.private,
                    )
                )
            elif game.is_over:
                parts.append(f"winner s{game.winner}")
        if node.phase == _ROLL:
            own = node.partial_cups()
            if self.private == "single":
                parts.append(f"rolling, dice {_cup(own[player])}")
            elif self.private == "all":
                parts.append("rolling " + " ".join(f"s{s}:{_cup(c)}" for s, c in enumerate(own)))
            else:
                parts.append("rolling")
        elif node.phase == _PLAY:
            offer = " (call or pass)" if node.pending else ""
            parts.append(f"s{node.current_player()} to act{offer}")
        elif node.phase == _DRAW:
            parts.append("stopped at max_rounds")
        return " | ".join(parts)
