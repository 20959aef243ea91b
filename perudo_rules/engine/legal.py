"""The legal actions of a position, as a lazy sequence (:meth:`Game.legal_actions
<perudo_rules.engine.game.Game.legal_actions>`): python-chess's legal-move view for Perudo.

Which ranks and calls are open is the kernel's (:mod:`perudo_rules.engine.kernel`); this module
only indexes them without building every action.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from perudo_rules.base.actions import Action, Bid, Leave, bid_unchecked
from perudo_rules.base.seatcheck import check_int
from perudo_rules.engine.kernel import RoundRules
from perudo_rules.engine.reroll import RerollState, bid_open, reroll_options, verdict_with_rerolls

__all__ = ["LegalActions", "offers_now", "view"]


class LegalActions(Sequence[Action]):
    """The legal actions of a position, as a lazy sequence.

    Bids of the player to move come first in rank order, then Dudo calls,
    then Calza calls, each by seat, then the player to move's re-rolls
    (:func:`~perudo_rules.engine.reroll.reroll_options`). ``len``, indexing and ``in`` cost O(1)
    (``in`` is :meth:`Game.is_legal`); nothing is built until asked for. A
    :class:`~perudo_rules.base.actions.Leave` is no move of play: it is never listed (``in``
    says so too), though any seat with dice may take it (``play.leave``).
    The kernel decides which ranks and calls are open
    (:meth:`RoundRules.raise_ranks <perudo_rules.engine.kernel.RoundRules.raise_ranks>`,
    :meth:`RoundRules.calls <perudo_rules.engine.kernel.RoundRules.calls>`) and what ``in``
    accepts (:meth:`RoundRules.verdict <perudo_rules.engine.kernel.RoundRules.verdict>`).

    A view depends only on the round's rules, the player to move and the standing bid,
    so :func:`view` shares one view among all the positions of an opening round (which
    every game of an edition and seat count plays) that have them in common (a view is
    immutable; the bids a shared view hands out are built once, on first use).
    """

    __slots__ = (
        "_dice", "_extras", "_made", "_nb", "_ranks", "_reroll", "_rr", "_seat", "_standing",
        "_table", "_to_move",
    )

    _dice: Sequence[tuple[int, ...]] | None
    _extras: tuple[Action, ...]
    _made: dict[int, Action] | None  # a kept view's bids, made once (view)
    _nb: int
    _ranks: Sequence[int]
    _reroll: RerollState | None
    _rr: RoundRules | None
    _seat: int | None
    _standing: tuple[Bid, ...]
    _table: tuple[tuple[int, int], ...]
    _to_move: int

    def __init__(
        self,
        rr: RoundRules | None = None,
        to_move: int | None = None,
        bids: Sequence[Bid] = (),
        seat: int | None = None,
        dice: Sequence[tuple[int, ...]] | None = None,
        reroll: RerollState | None = None,
    ) -> None:
        """The view of a round (``rr``: ``None`` between rounds and once over, and
        ``LegalActions()`` the view of no action) with ``to_move`` to move after ``bids``.
        With ``seat``, only that seat's actions, in the same order (``in`` too). ``dice``
        and ``reroll`` (the round's re-rolls) matter where ``reroll.enabled``: ``in`` then
        asks :func:`~perudo_rules.engine.reroll.verdict_with_rerolls`."""
        if to_move is None or rr is None:
            self._seat = seat
            self._made = None
            self._rr = None
            self._standing = ()
            self._to_move = 0
            self._table = ()
            self._ranks = ()
            self._extras = ()
            self._nb = 0
            self._dice = None
            self._reroll = None
            return
        _fill(self, rr, to_move, bids)
        self._seat = seat
        self._reroll = reroll
        ranks = self._ranks
        extras = self._extras
        if rr.reroll and dice is not None:  # reroll.*: what the re-roll rules leave open
            made = len(bids)
            self._dice = dice
            self._standing = tuple(bids)  # the re-roll rules count the bids made
            if reroll is not None and reroll.pending:  # a chance step: nobody acts
                ranks, extras = (), ()
            elif reroll is not None and reroll.rerolled_now(to_move, made):
                own = () if rr.rules.reroll_must_bid else extras  # reroll.must_bid
                extras = tuple([a for a in own if a.player == to_move])
            else:
                open_bid = not rr.rules.reroll_must_bid or bid_open(rr, to_move, bids)
                extras += reroll_options(rr.rules, dice, reroll, to_move, made, open_bid)
        if seat is not None:
            if seat != to_move:
                ranks = ()
            extras = tuple([a for a in extras if a.player == seat])
        self._ranks = ranks
        self._extras = extras
        self._nb = len(ranks)

    @classmethod
    def of(
        cls,
        rr: RoundRules | None,
        to_move: int | None,
        bids: Sequence[Bid],
        seat: int | None = None,
        dice: Sequence[tuple[int, ...]] | None = None,
        reroll: RerollState | None = None,
    ) -> LegalActions:
        """The view of a position: :func:`view` (``Game.legal_actions`` asks it)."""
        return view(rr, to_move, bids, seat, dice, reroll)

    @property
    def bid_ranks(self) -> Sequence[int]:
        """The ranks of the legal bids, ascending."""
        return self._ranks

    @property
    def others(self) -> tuple[Action, ...]:
        """The legal actions that are not bids, in the view's order (they follow the bids):
        the calls, then the re-rolls."""
        return self._extras

    def __len__(self) -> int:
        return self._nb + len(self._extras)

    @overload
    def __getitem__(self, i: int) -> Action: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...
    def __getitem__(self, i: object) -> Action | Sequence[Action]:
        # ``object``: the compiled build takes what the pure one takes (an index of any
        # integer type, a NumPy one from ``np.argmax`` too: check_int) and refuses the same
        nb = self._nb
        if type(i) is int and 0 <= i < nb:  # the common case first: a bid
            kept = self._made
            if kept is None:
                q, f = self._table[self._ranks[i]]
                return bid_unchecked(self._to_move, q, f)
            made = kept.get(i)
            if made is None:
                q, f = self._table[self._ranks[i]]
                made = kept[i] = bid_unchecked(self._to_move, q, f)
            return made
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        i = check_int(i, "index")
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
        rr = self._rr
        if rr is None:
            return False
        dice = self._dice
        if dice is not None:  # reroll.enabled: the re-roll rules have their say
            bids = self._standing
            verdict = verdict_with_rerolls(rr, dice, self._reroll, self._to_move, bids, action)
            return verdict is None
        return rr.verdict(self._to_move, self._standing, action) is None

    def __repr__(self) -> str:
        return f"<LegalActions {len(self)} actions: {' '.join(map(str, self[:8]))}...>"


def view(
    rr: RoundRules | None,
    to_move: int | None,
    bids: Sequence[Bid],
    seat: int | None = None,
    dice: Sequence[tuple[int, ...]] | None = None,
    reroll: RerollState | None = None,
) -> LegalActions:
    """``LegalActions(rr, to_move, bids, seat, dice, reroll)``; in an opening round
    (``rr.views``: every game of the edition and seat count plays it, and a one-round game
    plays nothing else) the same view for every position with this player to move and this
    standing bid, kept with the round's rules (its bids made once). A view for one
    ``seat``, of a round with re-rolls (whose view depends on the dice), or of a later
    round (whose positions seldom recur) is made anew."""
    if rr is None or to_move is None or seat is not None or rr.reroll:
        return LegalActions(rr, to_move, bids, seat, dice, reroll)
    views = rr.views
    if views is None:
        return _plain(rr, to_move, bids)
    if bids:
        cur = bids[-1]
        key = (to_move, cur.player, cur.quantity, cur.face)
    else:
        key = (to_move, -1, 0, 0)
    kept: LegalActions | None = views.get(key)
    if kept is None:
        kept = _plain(rr, to_move, bids)
        kept._made = {}
        views[key] = kept
    return kept


def offers_now(
    rr: RoundRules | None,
    to_move: int | None,
    bids: Sequence[Bid],
    reroll: RerollState | None,
) -> tuple[int, ...]:
    """The seats asked, in order, whether they call out of turn before ``to_move`` acts in
    a round of rules ``rr`` (``None`` between rounds and once over) after ``bids``: the
    kernel's :meth:`RoundRules.offers <perudo_rules.engine.kernel.RoundRules.offers>`; none
    before the opening bid, nor after a re-roll in this turn (its player acts next)."""
    if rr is None or to_move is None or not bids:
        return ()
    if reroll is not None and (reroll.pending or reroll.rerolled_now(to_move, len(bids))):
        return ()
    return rr.offers(to_move, bids[-1].player)


def _plain(rr: RoundRules, to_move: int, bids: Sequence[Bid]) -> LegalActions:
    """The view of a position of a round without re-rolls, for every seat: the common
    case, once per decision. Pure Python makes it without ``__init__``; the compiled
    build's ``__new__`` runs the native ``__init__`` of the empty view first (both cheap)."""
    v: LegalActions = LegalActions.__new__(LegalActions)
    _fill(v, rr, to_move, bids)
    v._seat = None
    v._reroll = None
    return v


def _fill(v: LegalActions, rr: RoundRules, to_move: int, bids: Sequence[Bid]) -> None:
    """Set the fields of ``v``, the view of every seat's actions with ``to_move`` to move
    after ``bids`` in a round of rules ``rr`` (the re-roll rules aside)."""
    table = rr.table
    ranks: Sequence[int]
    if bids:
        cur = bids[-1]
        key = (cur.quantity, cur.face)
        rank = table.rank_of.get(key)
        if rank is None:  # the real bid lies beyond the table: its floor and itself
            ranks = rr.raise_ranks(to_move, table.floor_rank(*key), key)
        elif rr.plain:  # the kernel says every higher rank is open (raise_ranks' range)
            ranks = range(rank + 1, table.size)
        else:
            ranks = rr.raise_ranks(to_move, rank)
        v._extras = rr.calls(to_move, cur.player)
        v._standing = (cur,)  # all the kernel's verdicts read of the bids
    else:
        ranks = rr.opening_ranks
        v._extras = ()
        v._standing = ()
    v._made = None
    v._dice = None
    v._rr = rr
    v._to_move = to_move
    v._table = table.bids
    v._ranks = ranks
    v._nb = len(ranks)
