"""Bid ranks: every bid of a round in one total order, numbered 0, 1, 2, ...

The rank function (rule ids ``bidding.order``, ``bidding.wild_worth`` and
``bidding.wild_rank``):

* ``quantity_then_face`` with wild worth *k*: an ordinary bid (q, f) sorts by
  the key (q, 0, f); a bid of w wilds by (k*w, 1) (``bidding.wild_rank:
  above_multiple``) or (k*w, -1) (``below_multiple``). So a wild bid sits just
  above (or just below) every ordinary bid of quantity k*w. Hence "to wild"
  needs at least ceil(q/k) wilds and "back from w wilds" at least k*w+1 dice
  (below: floor(q/k)+1 and k*w), and no two bids can ever beat each other.
  With k = 2 the ladder reads ``... 4x6 < 2x1 < 5x2 ... 6x6 < 3x1 < 7x2 ...``
  (below: ``... 3x6 < 2x1 < 4x2 ...``, the Bluff board).
* ``face_then_quantity``: the key is (f, q); the wild face sorts by its value.
* ``neither_decreases``: a raise may lower neither the quantity nor the face
  and must change the bid. That is a partial order, not a total one; its bids
  are numbered by the key (q, 0, f), one of its linear extensions (every raise
  ranks higher), and the kernel decides a raise by comparing quantity and face
  (:meth:`BidSpace.grid_above` lists the raises).
* In a palifico round where wilds do not count there is no wild face: the
  key is (q, f) (or (f, q)), ones the lowest face.

Quantities run from 1 to the cap: the dice in play at the round's start
(``bidding.quantity_cap: dice_in_play``), or that plus one under
``bidding.quantity_cap: none``, and never above ``bidding.quantity_limit``
(``limit // k`` for wild bids). Without a cap any quantity up to the limit may be
bid, but a bid above the dice in play can only lose, so the table (and
``legal_actions()``) lists one step of pure bluff on every face and stops there; a
larger bid is still legal, compared by its key (:meth:`BidSpace.key`), and
:meth:`BidSpace.floor_rank` places it in the table. The rank of a bid is its
index in the sorted list of all bids; a raise is legal (outside the palifico
face lock, the wild bans and ``neither_decreases``) exactly when its rank (its
key) is higher.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterator, Sequence
from typing import overload

from perudo_rules.base.seatcheck import check_int
from perudo_rules.editions.ruleset import Ruleset

__all__ = ["BidSpace", "GridTail", "TupleTail", "bid_space"]


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
        "limit",
        "limit_face",
        "nonwild_ranks",
        "order",
        "rank_of",
        "size",
        "wild",
        "wild_below",
        "wild_cap",
        "worth",
    )

    def __init__(self, rules: Ruleset, dice: int, palifico: bool) -> None:
        self.dice = dice
        # bidding.quantity_cap: the dice in play, or (no cap) one step of bluff above them
        self.capped = rules.bidding_quantity_cap == "dice_in_play"
        cap = dice if self.capped else dice + 1
        self.faces = rules.dice_faces
        # palifico.wilds_count: without it a palifico round has no wild face
        wild = rules.wild if (not palifico or rules.palifico_wilds_count) else None
        self.wild = wild
        self.order = rules.bidding_order
        self.worth = rules.bidding_wild_worth
        self.wild_below = rules.bidding_wild_rank == "below_multiple"
        # bidding.quantity_limit: a fixed top for ordinary bids, limit // k for bids on the
        # wild face (in palifico rounds too, where it may not count: the table of an
        # ordinary round then still holds every bid of every round, as ActionMap needs)
        limit = rules.bidding_quantity_limit
        self.limit = limit
        self.limit_face = rules.wild
        self.cap = cap if limit is None else min(cap, limit)
        self.wild_cap = self.cap if limit is None else min(cap, limit // self.worth)
        tops = [
            self.wild_cap if face == rules.wild else self.cap for face in range(self.faces + 1)
        ]
        keyed = sorted(
            (self.key(q, face), (q, face))
            for face in range(1, self.faces + 1)
            for q in range(1, tops[face] + 1)
        )
        self.keys = [k for k, _ in keyed]
        self.bids: tuple[tuple[int, int], ...] = tuple(b for _, b in keyed)
        self.rank_of: dict[tuple[int, int], int] = {b: i for i, b in enumerate(self.bids)}
        self.size = len(self.bids)
        self.all_ranks = range(self.size)
        # the bids not on the wild face (even where it does not count): for the wild bans
        self.nonwild_ranks = tuple(i for i, b in enumerate(self.bids) if b[1] != rules.wild)
        self.face_ranks = {
            f: tuple(self.rank_of[(q, f)] for q in range(1, tops[f] + 1))
            for f in range(1, self.faces + 1)
        }

    def key(self, quantity: int, face: int) -> tuple[int, ...]:
        """The sort key of any bid of this round, in the table or beyond its cap."""
        order = self.order
        if order == "face_then_quantity":
            return (face, quantity)
        if face == self.wild and order == "quantity_then_face":
            return (self.worth * quantity, -1 if self.wild_below else 1, 0)
        return (quantity, 0, face)

    def over_limit(self, quantity: int, face: int) -> bool:
        """Whether a bid names more dice than ``bidding.quantity_limit`` allows."""
        limit = self.limit
        if limit is None:
            return False
        return quantity > (limit // self.worth if face == self.limit_face else limit)

    def rank(self, quantity: int, face: int) -> int | None:
        """The rank of a bid, or ``None`` when it is not a bid of this round's table."""
        return self.rank_of.get((quantity, face))

    def floor_rank(self, quantity: int, face: int) -> int:
        """The rank of a bid, or for a bid beyond the table (``bidding.quantity_cap: none``)
        the highest rank below it (``-1`` if none): the ranks above it are its raises in
        the key order. The bid at that rank is another bid, maybe on another face (a wild
        bid): rules that look at the standing bid's face or quantity (the palifico face
        lock, ``neither_decreases``) take the bid itself
        (:meth:`RoundRules.raise_ranks <perudo_rules.engine.kernel.RoundRules.raise_ranks>`)."""
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

    def grid_above(self, quantity: int, face: int, skip: int | None) -> Sequence[int]:
        """Ranks of the bids that lower neither ``quantity`` nor ``face`` and differ from
        them, the face ``skip`` left out (``bidding.order: neither_decreases``), ascending."""
        faces = tuple(f for f in range(face, self.faces + 1) if f != skip)
        return GridTail(self.face_ranks, faces, quantity, face, self.cap)


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
    def __getitem__(self, i: object) -> int | Sequence[int]:
        if isinstance(i, slice):
            return self._seq[self._start :][i]
        i = check_int(i, "index")  # any integer type, in both builds
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


class GridTail(Sequence[int]):
    """The ranks of the bids (q, f) with ``quantity <= q <= top`` and ``f`` in ``faces``
    (ascending, all at least ``face``), (``quantity``, ``face``) itself left out, row by
    row: their ranks ascend when the table sorts by (q, f). Length and indexing in O(1)."""

    __slots__ = ("_faces", "_first", "_n", "_quantity", "_ranks")

    def __init__(
        self,
        ranks: dict[int, tuple[int, ...]],
        faces: tuple[int, ...],
        quantity: int,
        face: int,
        top: int,
    ) -> None:
        self._ranks = ranks
        self._faces = faces
        self._quantity = quantity
        # the first row keeps the faces above ``face``; a row per quantity after it
        self._first = len(faces) - (1 if faces and faces[0] == face else 0)
        rows = max(0, top - quantity)
        self._n = (self._first + rows * len(faces)) if quantity <= top else 0

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[int]: ...
    def __getitem__(self, i: object) -> int | Sequence[int]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._n))]
        i = check_int(i, "index")  # any integer type, in both builds
        n = self._n
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        faces = self._faces
        first = self._first
        if i < first:
            return self._ranks[faces[len(faces) - first + i]][self._quantity - 1]
        row, col = divmod(i - first, len(faces))
        return self._ranks[faces[col]][self._quantity + row]

    def __iter__(self) -> Iterator[int]:
        for i in range(self._n):
            yield self[i]


@functools.lru_cache(maxsize=512)
def bid_space(rules: Ruleset, dice: int, palifico: bool) -> BidSpace:
    """The cached :class:`BidSpace` for a ruleset, the dice in play and a round kind."""
    return BidSpace(rules, dice, palifico)
