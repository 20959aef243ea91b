"""What one seat sees: the rule (:func:`sight`), a finished round (:class:`PastRound`) and
the game (:class:`Observation`).

:func:`sight` is the one statement of who sees which die of a round; every view asks it:
:meth:`RoundRecord.seen_by <perudo_rules.engine.rounds.RoundRecord.seen_by>` and
:meth:`Game.observation <perudo_rules.engine.game.Game.observation>` (which build the two
views here), the redacted records (:func:`perudo_rules.records.redact.redact`), the
OpenSpiel observer (:mod:`perudo_rules.openspiel.observer`) and the PettingZoo observation
(:mod:`perudo_rules.pettingzoo.observation`). The views hold a seat's own dice and what the
whole table saw, never a closed cup. An observation's JSON form is
:meth:`Observation.to_json`; a game's lives with the records
(:mod:`perudo_rules.records.gamejson`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from perudo_rules.base.actions import Action, Bid, format_action
from perudo_rules.base.frozen import install_builder, pickle_by_fields

__all__ = ["Observation", "PastRound", "Sight", "sight"]


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

    @staticmethod
    def _build(
        *,
        round: int,
        first_player: int,
        palifico: bool,
        actions: tuple[Action, ...],
        bid: Bid | None,
        kind: str,
        caller: int | None,
        loser: int | None,
        gainer: int | None,
        revealed: tuple[int, ...],
        shown: tuple[tuple[int, ...], ...],
        shown_count: int,
        next_player: int | None,
        own_dice: tuple[int, ...],
        own_rerolls: tuple[tuple[int, ...], ...],
    ) -> PastRound:
        """A view from every field, without ``__init__`` (as :meth:`Game._build
        <perudo_rules.engine.game.Game._build>`): one per seat of every finished round."""
        r: PastRound = PastRound.__new__(PastRound)
        object.__setattr__(r, "round", round)
        object.__setattr__(r, "first_player", first_player)
        object.__setattr__(r, "palifico", palifico)
        object.__setattr__(r, "actions", actions)
        object.__setattr__(r, "bid", bid)
        object.__setattr__(r, "kind", kind)
        object.__setattr__(r, "caller", caller)
        object.__setattr__(r, "loser", loser)
        object.__setattr__(r, "gainer", gainer)
        object.__setattr__(r, "revealed", revealed)
        object.__setattr__(r, "shown", shown)
        object.__setattr__(r, "shown_count", shown_count)
        object.__setattr__(r, "next_player", next_player)
        object.__setattr__(r, "own_dice", own_dice)
        object.__setattr__(r, "own_rerolls", own_rerolls)
        return r

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
    """What seat ``player`` may see: its own dice and everything public, nothing else
    (``player`` ``None``: a spectator's view, :meth:`Game.observation(None)
    <perudo_rules.engine.game.Game.observation>`, everything public and no dice nor legal
    actions of its own);
    ``actions`` is this round's actions so far (its ``bids``, any seat's
    :class:`~perudo_rules.base.actions.Leave` and :class:`~perudo_rules.base.actions.Reroll`);
    ``set_aside`` every seat's dice set aside face up this round (``reroll.enabled``:
    public, shown to every seat); ``legal_actions`` is its own
    :meth:`Game.legal_actions <perudo_rules.engine.game.Game.legal_actions>` (lazy; not
    compared)."""

    player: int | None
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

    @staticmethod
    def _build(
        *,
        player: int | None,
        dice: tuple[int, ...],
        dice_counts: tuple[int, ...],
        round: int,
        to_move: int | None,
        palifico: bool,
        palifico_player: int | None,
        bids: tuple[Bid, ...],
        past_rounds: tuple[PastRound, ...],
        winner: int | None,
        awaiting_roll: bool,
        palifico_used: frozenset[int],
        first_round: bool,
        actions: tuple[Action, ...],
        set_aside: tuple[tuple[int, ...], ...],
        legal_actions: Sequence[Action],
    ) -> Observation:
        """An observation from every field, without ``__init__`` (as :meth:`Game._build
        <perudo_rules.engine.game.Game._build>`): one per seat and step of an RL loop."""
        o: Observation = Observation.__new__(Observation)
        object.__setattr__(o, "player", player)
        object.__setattr__(o, "dice", dice)
        object.__setattr__(o, "dice_counts", dice_counts)
        object.__setattr__(o, "round", round)
        object.__setattr__(o, "to_move", to_move)
        object.__setattr__(o, "palifico", palifico)
        object.__setattr__(o, "palifico_player", palifico_player)
        object.__setattr__(o, "bids", bids)
        object.__setattr__(o, "past_rounds", past_rounds)
        object.__setattr__(o, "winner", winner)
        object.__setattr__(o, "awaiting_roll", awaiting_roll)
        object.__setattr__(o, "palifico_used", palifico_used)
        object.__setattr__(o, "first_round", first_round)
        object.__setattr__(o, "actions", actions)
        object.__setattr__(o, "set_aside", set_aside)
        object.__setattr__(o, "legal_actions", legal_actions)
        return o

    def to_json(self) -> dict[str, Any]:
        """What one seat may see, JSON-ready: its own dice, the public state, this round's
        actions (its bids and any seat's leave) and its own legal actions (in the project's
        notation, ``"seat:QxF"``; a seat may always send ``leave`` too, never listed), and
        the rounds it saw.

        Its shape never changes: every key in every phase (in play, awaiting a roll, over),
        each with one JSON type (``null`` only where ``spec/view.schema.json`` allows it);
        ``set_aside`` holds one list per seat, empty between rounds."""
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
            "set_aside": [list(cup) for cup in self.set_aside]
            or [[] for _ in self.dice_counts],
            "actions": [format_action(a) for a in self.actions],
            "legal_actions": [format_action(a) for a in self.legal_actions],
            "past_rounds": [p.to_json() for p in self.past_rounds],
            "winner": self.winner,
        }


@dataclass(frozen=True, slots=True)
class Sight:
    """What one viewer sees of a round's dice (:func:`sight`): ``cups`` each seat's cup as
    dealt and ``rolls`` the dice each re-roll rolled, in order, each ``None`` where hidden;
    ``whole`` whether no die of the round stays hidden from it (only then is the true count
    its to know)."""

    cups: tuple[tuple[int, ...] | None, ...]
    rolls: tuple[tuple[int, ...] | None, ...]
    whole: bool

    @staticmethod
    def _build(
        *,
        cups: tuple[tuple[int, ...] | None, ...],
        rolls: tuple[tuple[int, ...] | None, ...],
        whole: bool,
    ) -> Sight:
        """A sight from every field, without ``__init__``: one per view asked."""
        v: Sight = Sight.__new__(Sight)
        object.__setattr__(v, "cups", cups)
        object.__setattr__(v, "rolls", rolls)
        object.__setattr__(v, "whole", whole)
        return v


def sight(
    viewer: int | None,
    cups: Sequence[Sequence[int]],
    lifted: Collection[int] = (),
    rerolled_by: Sequence[int] = (),
    rolls: Sequence[Sequence[int]] = (),
) -> Sight:
    """What ``viewer`` (a seat; ``None``: a spectator, who has none) sees of one round's
    dice: the one statement of the rule, which every view asks.

    The round's public facts: ``cups``, each seat's cup as dealt (or, for the dice in play
    now, the cups held); ``lifted``, the seats whose cups were lifted at its reveal (none
    while it is in play, nor when a seat's leaving ended it); ``rerolled_by``, the seat of
    each of its re-rolls in order, and ``rolls``, the dice each rolled (``()``, or nothing at
    the end, for one never rolled: its seat left first, or the round ended with the dice in
    the air).

    * A seat sees its own dice: its cup as dealt and the dice of each of its own re-rolls
      (``play.public_counts``; ``play.reroll``).
    * The dice a seat sets aside face up are seen by every seat (``reroll.enabled``,
      ``play.reroll``): its :class:`~perudo_rules.base.actions.Reroll`, a public action,
      names them, so they are none of the dice here.
    * At the reveal of a called round every cup lifted is seen by everyone, spectators
      too (``play.reveal``, ``play.public_counts``), as it stood: a seat that never
      re-rolled shows its cup as dealt; one that re-rolled, its last roll beside its
      set-aside dice, never its cup as dealt nor an earlier roll.
    * Every other die stays hidden: a cup never lifted (``challenge.early_stop``,
      ``challenge.stop_when_unreachable``), the cup of a seat that left the game
      (``play.leave``), the dice a re-roll rolled away.
    * The true count (``play.count``) is the viewer's to know only when no die of the
      round stays hidden from it (:attr:`Sight.whole`).
    """
    n = len(cups)
    if not lifted and not rerolled_by:  # as below, with no cup lifted: its own, no other
        seen: list[tuple[int, ...] | None] = [None] * n
        held = 0
        if viewer is not None and 0 <= viewer < n:
            own = tuple(cups[viewer])
            seen[viewer] = own
            held = len(own)
        return Sight._build(cups=tuple(seen), rolls=(), whole=sum(map(len, cups)) == held)
    # each seat's last re-roll (the dice it holds, beside those set aside); none: its cup
    last = {s: k for k, s in enumerate(rerolled_by)} if rerolled_by else {}
    hidden = 0  # dice the viewer does not see
    seen = []
    for s, c in enumerate(cups):
        if s == viewer or (s in lifted and s not in last):
            seen.append(tuple(c))
        else:
            seen.append(None)
            hidden += len(c)
    seen_rolls: list[tuple[int, ...] | None] = []
    for k, s in enumerate(rerolled_by):
        dice = tuple(rolls[k]) if k < len(rolls) else ()
        if s == viewer or (s in lifted and last[s] == k):
            seen_rolls.append(dice)
        else:
            seen_rolls.append(None)
            hidden += len(dice)
    return Sight._build(cups=tuple(seen), rolls=tuple(seen_rolls), whole=hidden == 0)


# --- fast construction and pickling by fields (perudo_rules.base.frozen), both builds ------
for _cls in (PastRound, Observation, Sight):
    install_builder(_cls, "_build")
    pickle_by_fields(_cls)
