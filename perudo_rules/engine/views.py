"""What one seat sees: a finished round (:class:`PastRound`) and the game (:class:`Observation`).

:meth:`RoundRecord.seen_by <perudo_rules.engine.game.RoundRecord.seen_by>` and
:meth:`Game.observation <perudo_rules.engine.game.Game.observation>` build them; they hold a
seat's own dice and what the whole table saw, never a closed cup. An observation's JSON form
is :meth:`Observation.to_json`; a game's lives with the records
(:mod:`perudo_rules.records.gamejson`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from perudo_rules.base.actions import Action, Bid, format_action
from perudo_rules.base.frozen import pickle_by_fields

__all__ = ["Observation", "PastRound"]


@dataclass(frozen=True, slots=True)
class PastRound:
    """What one seat saw of a finished round: public actions, the called ``bid``, the
    lifted cups (``revealed``, ``shown``) and the dice among them matching the bid
    (``shown_count``), its own dice as the round began and the dice it rolled in its own
    re-rolls (``own_rerolls``); never a closed cup nor the true count. A round a seat's
    leaving ended has ``kind`` ``"leave"``, that seat as ``caller`` and ``loser``, and no
    lifted cup."""

    round: int
    first_player: int
    palifico: bool
    actions: tuple[Action, ...]
    bid: Bid | None
    kind: str
    caller: int | None
    loser: int | None
    gainer: int | None
    revealed: tuple[int, ...]
    shown: tuple[tuple[int, ...], ...]
    shown_count: int
    next_player: int | None
    own_dice: tuple[int, ...]
    own_rerolls: tuple[tuple[int, ...], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """This round as the seat saw it, JSON-ready (actions and the bid in the project's
        notation)."""
        return {
            "round": self.round,
            "first_player": self.first_player,
            "palifico": self.palifico,
            "actions": [format_action(a) for a in self.actions],
            "kind": self.kind,
            "caller": self.caller,
            "bid": None if self.bid is None else str(self.bid),
            "revealed": list(self.revealed),
            "shown": [list(cup) for cup in self.shown],
            "shown_count": self.shown_count,
            "loser": self.loser,
            "gainer": self.gainer,
            "next_player": self.next_player,
            "own_dice": list(self.own_dice),
            "own_rerolls": [list(dice) for dice in self.own_rerolls],
        }


@dataclass(frozen=True, slots=True)
class Observation:
    """What seat ``player`` may see: its own dice and everything public, nothing else;
    ``actions`` is this round's actions so far (its ``bids``, any seat's
    :class:`~perudo_rules.base.actions.Leave` and :class:`~perudo_rules.base.actions.Reroll`);
    ``set_aside`` every seat's dice set aside face up this round (``reroll.enabled``:
    public, shown to every seat); ``legal_actions`` is its own
    :meth:`Game.legal_actions <perudo_rules.engine.game.Game.legal_actions>` (lazy; not
    compared)."""

    player: int
    dice: tuple[int, ...]
    dice_counts: tuple[int, ...]
    round: int
    to_move: int | None
    palifico: bool
    palifico_player: int | None
    bids: tuple[Bid, ...]
    past_rounds: tuple[PastRound, ...]
    winner: int | None
    awaiting_roll: bool = False
    palifico_used: frozenset[int] = frozenset()
    first_round: bool = False
    actions: tuple[Action, ...] = ()
    set_aside: tuple[tuple[int, ...], ...] = ()
    legal_actions: Sequence[Action] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        """What one seat may see, JSON-ready: its own dice, the public state, this round's
        actions (its bids and any seat's leave) and its own legal actions (in the project's
        notation, ``"seat:QxF"``; a seat may always send ``leave`` too, never listed), and
        the rounds it saw."""
        return {
            "player": self.player,
            "dice": list(self.dice),
            "dice_counts": list(self.dice_counts),
            "round": self.round,
            "first_round": self.first_round,
            "to_move": self.to_move,
            "awaiting_roll": self.awaiting_roll,
            "palifico": self.palifico,
            "palifico_player": self.palifico_player,
            "palifico_used": sorted(self.palifico_used),
            "bids": [format_action(b) for b in self.bids],
            "set_aside": [list(cup) for cup in self.set_aside],
            "actions": [format_action(a) for a in self.actions],
            "legal_actions": [format_action(a) for a in self.legal_actions],
            "past_rounds": [p.to_json() for p in self.past_rounds],
            "winner": self.winner,
        }


# --- pickled by their fields (perudo_rules.base.frozen), the same in both builds -------------
for _cls in (PastRound, Observation):
    pickle_by_fields(_cls)
