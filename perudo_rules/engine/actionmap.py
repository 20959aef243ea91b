"""Fixed integer action ids of a game, shared by the OpenSpiel and PettingZoo adapters.

Every bid of the largest table, then the calls, then the re-rolls.

A bid's id is its rank in the :class:`~perudo_rules.engine.ranks.BidSpace` of the most dice
that can ever be in play (:func:`~perudo_rules.engine.settlement.most_dice_per_seat` per seat, an
ordinary round); rank order is the same at any smaller cap, so ids grow with rank. Then
``DUDO = number of bids``, ``CALZA = DUDO + 1``, ``PASS = DUDO + 2``. Where a seat may
re-roll (``reroll.enabled``), ``REROLL = DUDO + 3`` and the ids after it are the re-rolls,
one per set of dice set aside: every multiset of 1 to ``dice.max_per_player -
reroll.min_hidden`` faces, ascending, in lexicographic order (the order in which
:func:`~perudo_rules.engine.reroll.set_asides` lists a hand's).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from perudo_rules.base.actions import Action, Bid, Calza, Dudo, Reroll
from perudo_rules.base.messages import Refusal
from perudo_rules.editions.ruleset import Ruleset
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.kernel import round_rules
from perudo_rules.engine.ranks import BidSpace, bid_space
from perudo_rules.engine.settlement import most_dice_per_seat
from perudo_rules.engine.start import seats_verdict

__all__ = ["ActionMap", "RoundIds", "action_map", "check_players", "most_offers"]


class RoundIds(NamedTuple):
    """A round's bid table in action ids: ``ids[r]`` is the id of the bid of rank ``r``
    in that round's table; ``increasing`` is whether ids grow with the round's rank (they
    do except where a palifico table ranks the wild face differently), ``identity`` whether
    ``ids[r] == r`` for every rank (the round's table is the largest one)."""

    ids: tuple[int, ...]
    increasing: bool
    identity: bool


@dataclass(frozen=True, slots=True, eq=False)
class ActionMap:
    """The integer action ids of a variant played by ``players`` seats.

    ``space`` is the :class:`~perudo_rules.engine.ranks.BidSpace` of the largest
    table (``max_dice`` dice in play, ordinary round); a bid's id is its rank
    there. ``dudo``, ``calza`` (if ``has_calza``) and ``pass_`` (if ``has_pass``) follow
    the bids, then the re-rolls (``set_asides``, from ``reroll``); ``num_actions`` is their
    total (the size of a ``Discrete`` action space). An id the game leaves out is ``-1``.
    """

    players: int
    max_dice: int
    space: BidSpace
    set_asides: tuple[tuple[int, ...], ...] = ()
    has_calza: bool = True
    has_pass: bool = True
    _reroll_ids: dict[tuple[int, ...], int] = field(default_factory=dict, init=False, repr=False)
    _round_cache: dict[tuple[int, int | None], RoundIds] = field(
        default_factory=dict, init=False, repr=False
    )

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
        """The id of Calza (``-1`` in a game without Calza)."""
        return self.space.size + 1 if self.has_calza else -1

    @property
    def pass_(self) -> int:
        """The id of passing on an out-of-turn call (``-1`` in a game that offers none)."""
        return self.space.size + 1 + self.has_calza if self.has_pass else -1

    @property
    def reroll(self) -> int:
        """The id of the first re-roll (``num_actions`` when nobody may re-roll)."""
        return self.space.size + 1 + self.has_calza + self.has_pass

    @property
    def num_actions(self) -> int:
        """Number of distinct action ids (the size of a ``Discrete`` action space)."""
        return self.reroll + len(self.set_asides)

    def reroll_id(self, set_aside: tuple[int, ...]) -> int:
        """The id of the re-roll that sets ``set_aside`` aside (``ValueError`` if none)."""
        ids = self._reroll_ids
        if not ids and self.set_asides:
            ids.update((s, self.reroll + i) for i, s in enumerate(self.set_asides))
        hit = ids.get(tuple(sorted(set_aside)))
        if hit is None:
            raise ValueError(f"no re-roll sets {list(set_aside)} aside in this game")
        return hit

    def bid_id(self, quantity: int, face: int) -> int:
        """The id of bid ``quantity x face`` (``ValueError`` if no table allows it)."""
        rank = self.space.rank(quantity, face)
        if rank is None:
            raise ValueError(f"{quantity}x{face} is not a bid of this game")
        return rank

    def round_ids(self, table: BidSpace) -> RoundIds:
        """The action ids of a round's bid table ``table`` (``Game.space``), by rank there;
        built once per table (its dice in play and wild face) and kept."""
        key = (table.dice, table.wild)
        hit = self._round_cache.get(key)
        if hit is not None:
            return hit
        rank_of = self.space.rank_of
        ids = tuple([rank_of[b] for b in table.bids])
        increasing = all(a < b for a, b in itertools.pairwise(ids))
        identity = increasing and (not ids or ids[-1] == len(ids) - 1)
        made = self._round_cache[key] = RoundIds(ids, increasing, identity)
        return made

    def legal_ids(self, game: Game, seat: int, offered: bool) -> list[int]:
        """The ids seat ``seat`` may take in ``game``, ascending: what the kernel lists for
        it (:meth:`Game.legal_actions <perudo_rules.engine.game.Game.legal_actions>`, filtered by
        seat). ``offered`` is an out-of-turn offer (:meth:`Game.call_offers
        <perudo_rules.engine.game.Game.call_offers>`): the seat's calls, then ``PASS``; else the
        seat's bids (when it is the player to move) and calls. Both adapters ask this."""
        legal = game.legal_actions()
        ranks = legal.bid_ranks
        out: list[int]
        if offered or seat != game.to_move:
            out = []
        else:
            ids, increasing, identity = self.round_ids(game.space)
            if identity:  # the round's table is the largest one
                out = list(ranks)
            else:
                out = [ids[r] for r in ranks]
                if not increasing:
                    out.sort()
        # then the seat's calls: Dudo calls come before Calza calls, as the ids do; then
        # the re-rolls, whose ids follow PASS in the order the view lists them
        dudo, calza = self.dudo, self.calza
        for call in legal.others:
            if call.player == seat:
                if type(call) is Reroll:
                    out.append(self.reroll_id(call.set_aside))
                else:
                    out.append(dudo if type(call) is Dudo else calza)
        if offered:
            out.append(self.pass_)
        return out

    def offer_refusal(self, action_id: int, seat: int, offered: bool) -> Refusal | None:
        """Why ``seat`` may not take ``action_id`` the way it is asked (rule ``play.turn``):
        a seat offered an out-of-turn call (``offered``) takes Dudo, Calza or ``PASS``, and
        the player to move never takes ``PASS``. ``None`` where the id fits: the kernel
        decides the rest. Both adapters ask this before they hand an action to the game."""
        if offered:
            if action_id in (self.dudo, self.calza, self.pass_):
                return None
            return Refusal(
                "play.turn", "offered-call-only", {"seat": seat, "action": self.name(action_id)}
            )
        if action_id == self.pass_:
            return Refusal("play.turn", "no-call-to-pass", {"seat": seat})
        return None

    def to_id(self, action: Action | None) -> int:
        """The id of an engine action (the seat is implied); ``None`` (declining an offered
        call) is ``PASS``."""
        if action is None:
            if not self.has_pass:
                raise ValueError("no seat is ever offered a call in this game: no PASS")
            return self.pass_
        if isinstance(action, Bid):
            return self.bid_id(action.quantity, action.face)
        if isinstance(action, Dudo):
            return self.dudo
        if isinstance(action, Calza):
            if not self.has_calza:
                raise ValueError("no Calza in this game")
            return self.calza
        if isinstance(action, Reroll):
            return self.reroll_id(action.set_aside)
        raise TypeError(f"not an action: {action!r}")

    def to_action(self, action_id: int, player: int) -> Action | None:
        """The engine action of ``action_id`` taken by ``player``; ``None`` for ``PASS``."""
        if action_id < 0:
            raise ValueError(f"no action id {action_id} (ids run 0..{self.num_actions - 1})")
        if action_id < self.space.size:
            q, f = self.space.bid(action_id)
            return Bid(player, q, f)
        if action_id == self.dudo:
            return Dudo(player)
        if action_id == self.calza:
            return Calza(player)
        if action_id == self.pass_:
            return None
        if self.reroll <= action_id < self.num_actions:
            return Reroll(player, self.set_asides[action_id - self.reroll])
        raise ValueError(f"no action id {action_id} (ids run 0..{self.num_actions - 1})")

    def name(self, action_id: int) -> str:
        """A short name: ``3x4``, ``Dudo``, ``Calza``, ``Pass`` or ``reroll 5,5``."""
        if action_id < 0:
            raise ValueError(f"no action id {action_id} (ids run 0..{self.num_actions - 1})")
        if action_id < self.space.size:
            q, f = self.space.bid(action_id)
            return f"{q}x{f}"
        if self.reroll <= action_id < self.num_actions:
            return str(Reroll(0, self.set_asides[action_id - self.reroll]))
        names = {self.dudo: "Dudo", self.calza: "Calza", self.pass_: "Pass"}
        if action_id in names:
            return names[action_id]
        raise ValueError(f"no action id {action_id} (ids run 0..{self.num_actions - 1})")


def action_map(variant: str | Path | Variant, players: int = 2) -> ActionMap:
    """The :class:`ActionMap` of ``variant`` played by ``players`` seats."""
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    check_players(v, players)
    rules = v.rules
    most = players * most_dice_per_seat(rules)
    space = bid_space(rules, most, False)
    kept = most_dice_per_seat(rules) - rules.reroll_min_hidden
    aside = _multisets(rules.dice_faces, kept) if rules.reroll_enabled else ()
    offers = most_offers(rules, (rules.dice_per_player,) * players)
    return ActionMap(
        players=players,
        max_dice=most,
        space=space,
        set_asides=aside,
        has_calza=rules.calza_enabled,
        has_pass=offers > 0,
    )


def most_offers(rules: Ruleset, start_counts: tuple[int, ...]) -> int:
    """The most seats offered an out-of-turn call after one bid: the seats other than the
    player to move that the kernel lets call (:meth:`RoundRules.calls
    <perudo_rules.engine.kernel.RoundRules.calls>`) at the full starting table, in an
    ordinary round or a palifico one. Who may call depends only on being the bidder or the
    player to move (and on the round's kind), so a table with fewer seats offers no more."""
    if len(start_counts) < 2:
        return 0
    most = 0
    # an ordinary round, and a palifico one (challenge.who may differ there: seat 0 at one
    # die, its palifico round)
    palifico_counts = (1, *start_counts[1:])
    for counts, palifico, player in ((start_counts, False, None), (palifico_counts, True, 0)):
        rr = round_rules(rules, counts, palifico, 2, player, frozenset())
        bidder = 0
        to_move = rr.next_seat(bidder)
        calls = rr.calls(to_move, bidder)
        most = max(most, len({call.player for call in calls} - {to_move}))
    return most


def _multisets(faces: int, most: int) -> tuple[tuple[int, ...], ...]:
    """Every multiset of 1 to ``most`` faces of a d``faces``, ascending, lexicographic (at
    most ``perudo_rules.base.limits.MAX_BIDS``: the variant loader bounds it)."""
    out = [
        c
        for k in range(1, most + 1)
        for c in itertools.combinations_with_replacement(range(1, faces + 1), k)
    ]
    return tuple(sorted(out))


def check_players(v: Variant, players: object) -> None:
    """``ValueError`` unless ``v`` is played by ``players`` seats: the kernel's
    :func:`~perudo_rules.engine.start.seats_verdict` (``players.min``, ``players.max``)."""
    verdict = seats_verdict(v.rules, players, v.id)
    if verdict is not None:
        raise ValueError(str(verdict))
