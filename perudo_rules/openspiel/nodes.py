"""The adapter's positions and moves: immutable nodes, their legal action ids, stepping.

A :class:`Node` wraps an engine :class:`~perudo_rules.engine.game.Game` with what OpenSpiel
needs around it: the phase (roll-off, die rolls, play, over), the dice rolled so far and
the seats still to be offered an out-of-turn call. Every rule is asked of the game:
legality from :meth:`Game.legal_actions <perudo_rules.engine.game.Game.legal_actions>` and
:meth:`Game.is_legal <perudo_rules.engine.game.Game.is_legal>`, who may call out of turn from
the same kernel list (:meth:`RoundRules.calls <perudo_rules.engine.kernel.RoundRules.calls>` of
:attr:`Game.round_rules <perudo_rules.engine.game.Game.round_rules>`), the direction of play from
:meth:`Game.next_seat <perudo_rules.engine.game.Game.next_seat>`, everything else from
:meth:`Game.apply <perudo_rules.engine.game.Game.apply>` and :meth:`Game.roll
<perudo_rules.engine.game.Game.roll>`.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from perudo_rules.base.actions import Bid, Reroll
from perudo_rules.base.errors import IllegalAction
from perudo_rules.base.i18n import tr
from perudo_rules.engine.game import Game
from perudo_rules.engine.start import cut_cups
from perudo_rules.openspiel.spec import REGISTERED, GameSpec

__all__ = ["Node", "Phase", "initial_node", "legal_ids", "node_after", "step"]

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class Phase(IntEnum):
    """What a node is, in the order a game goes through them; the terminal ones last
    (``phase >= Phase.OVER`` is a terminal node)."""

    OPENER = 0
    """A chance node: the roll-off that settles who opens the first round."""
    ROLL = 1
    """A chance node: one die of the round being rolled, or of a re-roll."""
    PLAY = 2
    """A decision: the player to move, or a seat offered an out-of-turn call."""
    OVER = 3
    """Terminal: a seat has won."""
    DRAW = 4
    """Terminal: the game was stopped by ``max_rounds`` without a winner."""


_ROLL = Phase.ROLL
_PLAY = Phase.PLAY
_OVER = Phase.OVER


class Node:
    """An immutable position of the adapter: shared, never copied (see ``__deepcopy__``).

    ``game`` is the engine position (``None`` until the first round is rolled),
    ``rolled`` the dice of the round being rolled so far, ``pending`` the seats still
    to be offered an out-of-turn call against the standing bid, in order.
    """

    __slots__ = (
        "action",
        "game",
        "ids",
        "max_rounds",
        "opener",
        "parent",
        "pending",
        "phase",
        "player",
        "rolled",
        "spec",
        "terminal",
        "width",
    )

    def __init__(
        self,
        spec: GameSpec,
        max_rounds: int,
        parent: Node | None,
        action: int,
        phase: Phase,
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
        # asked many times a step by OpenSpiel (legal actions, chance, terminal checks):
        # the seat to act (or OpenSpiel's CHANCE / TERMINAL player id), and how many ids
        # there are to take here: actions, die faces, or seats (the roll-off; at the end
        # too, where step refuses any)
        if phase == _PLAY:
            if pending:
                self.player = pending[0]
            else:
                assert game is not None and game.to_move is not None
                self.player = game.to_move
            self.width = spec.amap.num_actions
        elif phase == _ROLL:
            self.player = _CHANCE
            self.width = len(spec.die_outcomes)
        else:
            self.player = _CHANCE if phase == Phase.OPENER else _TERMINAL
            self.width = spec.players
        self.terminal = phase >= _OVER
        # the legal ids of the player to move, once asked (:func:`legal_ids`)
        self.ids: tuple[int, ...] | None = None

    def child(
        self,
        action: int,
        phase: Phase,
        game: Game | None,
        opener: int = 0,
        pending: tuple[int, ...] = (),
    ) -> Node:
        """The node after ``action``: same game spec and round cap, this node its parent."""
        return Node(self.spec, self.max_rounds, self, action, phase, game, opener, (), pending)

    def rolled_on(self, action: int, rolled: tuple[int, ...]) -> Node:
        """The next die of a roll: a chance node like this one, ``rolled`` its dice so far."""
        return Node(
            self.spec, self.max_rounds, self, action, Phase.ROLL, self.game, self.opener, rolled
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> Node:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        actions = []
        node: Node | None = self
        while node is not None and node.parent is not None:
            actions.append(node.action)
            node = node.parent
        return (node_after, (self.spec.name, self.max_rounds, tuple(reversed(actions))))

    # -- derived

    def roll_counts(self) -> tuple[int, ...]:
        """Every seat's number of dice in the round being (or last) rolled."""
        if self.game is None:
            return self.spec.start_counts
        return self.game.dice_counts

    def rolling_counts(self) -> tuple[int, ...]:
        """How many dice each seat rolls at this chance step: its dice between rounds, the
        re-rolled ones in a re-roll (:attr:`Game.roll_counts
        <perudo_rules.engine.game.Game.roll_counts>`)."""
        if self.game is None:
            return self.spec.start_counts
        return self.game.roll_counts

    def roller(self) -> int:
        """The seat whose die is being rolled."""
        left = len(self.rolled)
        for seat, c in enumerate(self.rolling_counts()):
            if left < c:
                return seat
            left -= c
        raise AssertionError("no die left to roll")  # pragma: no cover

    def partial_cups(self) -> list[list[int]]:
        """Every seat's dice rolled so far this round, sorted (in a re-roll, after the dice
        each seat holds)."""
        cups = [sorted(cup) for cup in cut_cups(self.rolled, self.rolling_counts())]
        game = self.game
        if game is not None and game.to_move is not None:  # a re-roll: the rest stay
            return [[*held, *cup] for held, cup in zip(game.dice, cups, strict=True)]
        return cups

    def current_player(self) -> int:
        """The seat to act, or OpenSpiel's CHANCE / TERMINAL player id."""
        return self.player


def initial_node(spec: GameSpec, max_rounds: int) -> Node:
    """The start of a game: the roll-off if the variant has one, else the first die."""
    return Node(spec, max_rounds, None, -1, Phase.OPENER if spec.roll_off else Phase.ROLL, None)


def node_after(name: str, max_rounds: int, actions: Sequence[int]) -> Node:
    """Rebuild a node from its actions (how a pickled state comes back)."""
    node = initial_node(REGISTERED[name], max_rounds)
    for a in actions:
        node = step(node, a)
    return node


def legal_ids(node: Node, player: int) -> list[int]:
    """The legal action ids of ``player`` at a decision node, ascending (the kernel's, by
    :meth:`ActionMap.legal_ids <perudo_rules.engine.actionmap.ActionMap.legal_ids>`)."""
    game = node.game
    assert game is not None
    if player != node.player:
        return node.spec.amap.legal_ids(game, player, bool(node.pending))
    ids = node.ids  # asked again and again at a node (an RL loop's legality check too)
    if ids is None:
        ids = node.ids = tuple(node.spec.amap.legal_ids(game, player, bool(node.pending)))
    return list(ids)


def step(node: Node, action: int) -> Node:
    """The node after ``action`` (a chance outcome or an action id); ``ValueError`` or
    :class:`~perudo_rules.base.errors.IllegalAction` if it cannot be taken."""
    spec = node.spec
    phase = node.phase
    if phase == _ROLL:  # the most common step: a die
        if not 0 <= action < node.width:
            raise ValueError(tr("no die outcome {value}", value=action))
        rolled = (*node.rolled, action + 1)
        counts = node.rolling_counts()
        if len(rolled) < sum(counts):
            return node.rolled_on(action, rolled)
        cups = [sorted(cup) for cup in cut_cups(rolled, counts)]
        if node.game is None:
            started = Game.start(spec.variant, cups, node.opener)
        else:
            started = node.game.roll(dice=cups)
        return node.child(action, Phase.PLAY, started)
    if phase == Phase.OPENER:
        if not 0 <= action < spec.players:
            raise ValueError(tr("no seat {value} to open", value=action))
        return node.child(action, Phase.ROLL, None, opener=action)
    if phase != Phase.PLAY:
        raise ValueError(tr("the game is over"))
    game = node.game
    assert game is not None
    player = node.player
    amap = spec.amap
    bad = amap.offer_refusal(action, player, bool(node.pending))
    if bad is not None:
        raise IllegalAction(bad)
    engine_action = amap.to_action(action, player)
    if engine_action is None:  # PASS, where offered (offer_refusal)
        return node.child(action, Phase.PLAY, game, pending=node.pending[1:])
    after = game.apply(engine_action)
    if isinstance(engine_action, Bid):
        return node.child(action, Phase.PLAY, after, pending=after.call_offers())
    if isinstance(engine_action, Reroll):  # its dice are chance nodes, die by die
        return node.child(action, Phase.ROLL, after)
    if after.is_over:
        return node.child(action, Phase.OVER, after)
    if after.round >= node.max_rounds:
        return node.child(action, Phase.DRAW, after)
    return node.child(action, Phase.ROLL, after)
