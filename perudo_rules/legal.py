"""The legal actions of a position, as a lazy sequence (:meth:`Game.legal_actions
<perudo_rules.game.Game.legal_actions>`): python-chess's legal-move view for Perudo.

Which ranks and calls are open is the kernel's (:mod:`perudo_rules.kernel`); this module
only indexes them without building every action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import overload

from perudo_rules.actions import Action, Bid, Leave, bid_unchecked
from perudo_rules.kernel import RoundRules

__all__ = ["LegalActions"]


class LegalActions(Sequence[Action]):
    """The legal actions of a position, as a lazy sequence.

    Bids of the player to move come first in rank order, then Dudo calls,
    then Calza calls, each by seat. ``len``, indexing and ``in`` cost O(1)
    (``in`` is :meth:`Game.is_legal`); nothing is built until asked for. A
    :class:`~perudo_rules.actions.Leave` is no move of play: it is never listed (``in``
    says so too), though any seat with dice may take it (``play.leave``).
    The kernel decides which ranks and calls are open
    (:meth:`RoundRules.raise_ranks <perudo_rules.kernel.RoundRules.raise_ranks>`,
    :meth:`RoundRules.calls <perudo_rules.kernel.RoundRules.calls>`).
    """

    __slots__ = ("_extras", "_is_legal", "_nb", "_ranks", "_seat", "_table", "_to_move")

    def __init__(
        self,
        rr: RoundRules | None,
        to_move: int | None,
        bids: Sequence[Bid],
        is_legal: Callable[[object], bool],
        seat: int | None = None,
    ) -> None:
        """The view of a round (``rr``: ``None`` between rounds and once over) with
        ``to_move`` to move after ``bids``; ``in`` asks ``is_legal`` (the game's).
        With ``seat``, only that seat's actions, in the same order (``in`` too)."""
        self._is_legal = is_legal
        self._seat = seat
        self._extras: tuple[Action, ...] = ()
        if to_move is None or rr is None:
            self._to_move = 0
            self._table: tuple[tuple[int, int], ...] = ()
            self._ranks: Sequence[int] = ()
            self._nb = 0
            return
        self._to_move = to_move
        table = rr.table
        self._table = table.bids
        if bids:
            cur = bids[-1]
            key = (cur.quantity, cur.face)
            rank = table.rank_of.get(key)
            if rank is None:  # the real bid lies beyond the table: its floor and itself
                self._ranks = rr.raise_ranks(to_move, table.floor_rank(*key), key)
            else:
                self._ranks = rr.raise_ranks(to_move, rank)
            self._extras = rr.calls(to_move, cur.player)
        else:
            self._ranks = rr.opening_ranks
        if seat is not None:
            if seat != to_move:
                self._ranks = ()
            self._extras = tuple([a for a in self._extras if a.player == seat])
        self._nb = len(self._ranks)

    @property
    def bid_ranks(self) -> Sequence[int]:
        """The ranks of the legal bids, ascending."""
        return self._ranks

    def __len__(self) -> int:
        return self._nb + len(self._extras)

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...
    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        nb = self._nb
        if type(i) is int and 0 <= i < nb:  # the common case first: a bid
            q, f = self._table[self._ranks[i]]
            return bid_unchecked(self._to_move, q, f)
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = nb + len(self._extras)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        if i < nb:
            q, f = self._table[self._ranks[i]]
            return bid_unchecked(self._to_move, q, f)
        return self._extras[i - nb]

    def __iter__(self) -> Iterator[Action]:
        table = self._table
        to_move = self._to_move
        for r in self._ranks:
            q, f = table[r]
            yield Bid(to_move, q, f)
        yield from self._extras

    def __contains__(self, action: object) -> bool:
        if type(action) is Leave:  # no move of play: never listed (play.leave)
            return False
        seat = self._seat
        if seat is not None and getattr(action, "player", None) != seat:
            return False
        return self._is_legal(action)

    def __repr__(self) -> str:
        return f"<LegalActions {len(self)} actions: {' '.join(map(str, self[:8]))}...>"
