"""Bid ranks: every bid of a round in one total order, numbered 0, 1, 2, ...

The rank function (rule ids ``bidding.order`` and ``bidding.wild_worth``):

* ``quantity_then_face`` with wild worth *k*: an ordinary bid (q, f) sorts by
  the key (q, 0, f); a bid of w wilds by (k*w, 1). So a wild bid sits just
  above every ordinary bid of quantity k*w. Hence "to wild" needs at least
  ceil(q/k) wilds and "back from w wilds" at least k*w+1 dice, and no two bids
  can ever beat each other. With k = 2 the ladder reads
  ``... 4x6 < 2x1 < 5x2 ... 6x6 < 3x1 < 7x2 ...``.
* ``face_then_quantity``: the key is (f, q); the wild face sorts by its value.
* In a palifico round where wilds do not count there is no wild face: the
  key is (q, f) (or (f, q)), ones the lowest face.

Quantities run from 1 to the cap: the dice in play at the round's start
(``bidding.quantity_cap: dice_in_play``), or that plus one under
``bidding.quantity_cap: none``. Without a cap any quantity may be bid, but a bid
above the dice in play can only lose, so the table (and ``legal_actions()``)
lists one step of pure bluff on every face and stops there; a larger bid is
still legal, compared by its key (:meth:`BidSpace.key`), and
:meth:`BidSpace.floor_rank` places it in the table. The rank of a bid is its
index in the sorted list of all bids; a raise is legal (outside the palifico
face lock and the wild bans) exactly when its rank (its key) is higher.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterator, Sequence
from typing import overload

from perudo_rules.ruleset import Ruleset

__all__ = ["BidSpace", "TupleTail", "bid_space"]


class BidSpace:
    """The ranked bids of one round: a table built once per (rules, dice in play, palifico)."""

    __slots__ = (
        "all_ranks",
        "bids",
        "cap",
        "capped",
        "dice",
        "face_ranks",
        "faces",
        "keys",
        "nonwild_ranks",
        "order",
        "rank_of",
        "size",
        "wild",
        "worth",
    )

    def __init__(self, rules: Ruleset, dice: int, palifico: bool) -> None:
        self.dice = dice
        # bidding.quantity_cap: the dice in play, or (no cap) one step of bluff above them
        self.capped = rules.bidding_quantity_cap == "dice_in_play"
        cap = dice if self.capped else dice + 1
        self.cap = cap
        self.faces = rules.dice_faces
        # palifico.wilds_count: without it a palifico round has no wild face
        wild = rules.wild if (not palifico or rules.palifico_wilds_count) else None
        self.wild = wild
        self.order = rules.bidding_order
        self.worth = rules.bidding_wild_worth
        keyed = sorted(
            (self.key(q, face), (q, face))
            for face in range(1, self.faces + 1)
            for q in range(1, cap + 1)
        )
        self.keys = [k for k, _ in keyed]
        self.bids: tuple[tuple[int, int], ...] = tuple(b for _, b in keyed)
        self.rank_of: dict[tuple[int, int], int] = {b: i for i, b in enumerate(self.bids)}
        self.size = len(self.bids)
        self.all_ranks = range(self.size)
        # the bids not on the wild face (even where it does not count): for the wild bans
        self.nonwild_ranks = tuple(i for i, b in enumerate(self.bids) if b[1] != rules.wild)
        self.face_ranks = {
            f: tuple(self.rank_of[(q, f)] for q in range(1, cap + 1))
            for f in range(1, self.faces + 1)
        }

    def key(self, quantity: int, face: int) -> tuple[int, ...]:
        """The sort key of any bid of this round, in the table or beyond its cap."""
        if self.order == "face_then_quantity":
            return (face, quantity)
        if face == self.wild:
            return (self.worth * quantity, 1, 0)
        return (quantity, 0, face)

    def rank(self, quantity: int, face: int) -> int | None:
        """The rank of a bid, or ``None`` when it is not a bid of this round's table."""
        return self.rank_of.get((quantity, face))

    def floor_rank(self, quantity: int, face: int) -> int:
        """The rank of a bid, or for a bid beyond the table (``bidding.quantity_cap: none``)
        the highest rank below it (``-1`` if none): the ranks above it are its raises."""
        rank = self.rank_of.get((quantity, face))
        if rank is not None:
            return rank
        return bisect.bisect_right(self.keys, self.key(quantity, face)) - 1

    def bid(self, rank: int) -> tuple[int, int]:
        """The (quantity, face) of a rank."""
        return self.bids[rank]

    def above(self, rank: int) -> range:
        """Ranks strictly above ``rank`` (``-1`` for every rank)."""
        return range(rank + 1, self.size)

    def nonwild_above(self, rank: int) -> Sequence[int]:
        """Ranks above ``rank`` whose face is not the wild face."""
        return TupleTail(self.nonwild_ranks, bisect.bisect_right(self.nonwild_ranks, rank))

    def same_face_above(self, quantity: int, face: int) -> Sequence[int]:
        """Ranks of bids on ``face`` with a quantity above ``quantity``."""
        return TupleTail(self.face_ranks[face], quantity)


class TupleTail(Sequence[int]):
    """A read-only view of ``seq[start:]`` without copying."""

    __slots__ = ("_seq", "_start")

    def __init__(self, seq: tuple[int, ...], start: int) -> None:
        self._seq = seq
        self._start = min(start, len(seq))

    def __len__(self) -> int:
        return len(self._seq) - self._start

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[int]: ...
    def __getitem__(self, i: int | slice) -> int | Sequence[int]:
        if isinstance(i, slice):
            return self._seq[self._start :][i]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        return self._seq[self._start + i]

    def __iter__(self) -> Iterator[int]:
        seq = self._seq
        for i in range(self._start, len(seq)):
            yield seq[i]


@functools.lru_cache(maxsize=512)
def bid_space(rules: Ruleset, dice: int, palifico: bool) -> BidSpace:
    """The cached :class:`BidSpace` for a ruleset, the dice in play and a round kind."""
    return BidSpace(rules, dice, palifico)
