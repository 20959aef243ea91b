"""One round's outcome as values: :class:`RoundResult` (how a called round ended) and
:class:`RoundRecord` (a finished round in the history), and :func:`round_outcome`, which
asks the kernel (:mod:`perudo_rules.engine.settlement`) how a call ends a round. The step
API (:mod:`perudo_rules.engine.game`) and the fast path (:mod:`perudo_rules.engine.fastplay`)
both build their rounds with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from perudo_rules.base.actions import Action, Bid, Calza, Dudo, Reroll
from perudo_rules.base.frozen import install_builder, pickle_by_fields
from perudo_rules.engine.kernel import RoundRules, count_matching
from perudo_rules.engine.settlement import Settlement, dice_lost, reveal, settle, shown_count
from perudo_rules.engine.trace import OutcomeTrace
from perudo_rules.engine.views import PastRound, sight

__all__ = ["RoundRecord", "RoundResult", "outcome_rules", "round_outcome"]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended.

    ``kind`` is ``"dudo"``, ``"calza"`` or ``"leave"`` (a seat left the game, ``caller``,
    and the round ended without a call: called off, or won by the last seat with dice;
    then ``bid`` is the standing bid or ``None``, ``count`` 0 and no cup is lifted; between
    rounds, the table awaiting the roll, ``caller`` is ``None``, the seat is ``loser``);
    ``count`` the true number of dice
    matching ``bid`` (the referee's view: it counts closed cups too); ``revealed`` the
    seats whose cups were lifted, in order, ``shown`` their dice and ``shown_count`` the
    dice among them that match ``bid`` (all that the players learn of the count:
    :func:`~perudo_rules.engine.settlement.shown_count`);
    ``loser``/``gainer`` the
    seat that lost/gained a die or ``None``; ``next_player`` who opens the next
    round (``None`` when the game is over); ``caller`` who called;
    ``next_palifico`` whether the next round is a palifico round; ``lost`` the dice each
    seat lost, by seat (the loser's one die, or more under ``challenge.loss`` and
    ``challenge.exact``).
    """

    kind: str
    bid: Bid | None
    count: int
    loser: int | None
    gainer: int | None
    revealed: tuple[int, ...]
    shown: tuple[tuple[int, ...], ...]
    next_player: int | None
    caller: int | None = None
    next_palifico: bool = False
    lost: tuple[int, ...] = ()
    shown_count: int = 0

    @staticmethod
    def _build(
        *,
        kind: str,
        bid: Bid,
        count: int,
        loser: int | None,
        gainer: int | None,
        revealed: tuple[int, ...],
        shown: tuple[tuple[int, ...], ...],
        next_player: int | None,
        caller: int | None,
        next_palifico: bool,
        lost: tuple[int, ...],
        shown_count: int,
    ) -> RoundResult:
        """A result from every field, without ``__init__`` (as :meth:`Game._build`)."""
        r: RoundResult = RoundResult.__new__(RoundResult)
        object.__setattr__(r, "kind", kind)
        object.__setattr__(r, "bid", bid)
        object.__setattr__(r, "count", count)
        object.__setattr__(r, "loser", loser)
        object.__setattr__(r, "gainer", gainer)
        object.__setattr__(r, "revealed", revealed)
        object.__setattr__(r, "shown", shown)
        object.__setattr__(r, "next_player", next_player)
        object.__setattr__(r, "caller", caller)
        object.__setattr__(r, "next_palifico", next_palifico)
        object.__setattr__(r, "lost", lost)
        object.__setattr__(r, "shown_count", shown_count)
        return r


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A finished round: its dice, opener, kind, actions in order and result.

    ``palifico_used`` is the seats that had had their palifico round when it began (its
    own palifico player included): a game record states the first round's as its set-up.
    ``dice`` are the dice as the round began; ``rerolls`` the dice each
    :class:`~perudo_rules.base.actions.Reroll` among ``actions`` rolled, in order (``()`` for a
    re-roll whose seat left before its dice were rolled); ``left`` the seats that left the
    game once it had ended, before the next round was rolled (``play.leave``), in order.
    """

    round: int
    first_player: int
    palifico: bool
    dice: tuple[tuple[int, ...], ...]
    actions: tuple[Action, ...]
    result: RoundResult
    palifico_used: frozenset[int] = frozenset()
    rerolls: tuple[tuple[int, ...], ...] = ()
    left: tuple[int, ...] = ()
    _views: tuple[PastRound, ...] | None = field(
        default=None, init=False, compare=False, repr=False
    )
    _hash: int | None = field(default=None, init=False, compare=False, repr=False)

    @staticmethod
    def _build(
        *,
        round: int,
        first_player: int,
        palifico: bool,
        dice: tuple[tuple[int, ...], ...],
        actions: tuple[Action, ...],
        result: RoundResult,
        palifico_used: frozenset[int],
        rerolls: tuple[tuple[int, ...], ...],
        left: tuple[int, ...],
    ) -> RoundRecord:
        """A record from every field, without ``__init__`` (as :meth:`Game._build`)."""
        r: RoundRecord = RoundRecord.__new__(RoundRecord)
        object.__setattr__(r, "round", round)
        object.__setattr__(r, "first_player", first_player)
        object.__setattr__(r, "palifico", palifico)
        object.__setattr__(r, "dice", dice)
        object.__setattr__(r, "actions", actions)
        object.__setattr__(r, "result", result)
        object.__setattr__(r, "palifico_used", palifico_used)
        object.__setattr__(r, "rerolls", rerolls)
        object.__setattr__(r, "left", left)
        object.__setattr__(r, "_views", None)
        object.__setattr__(r, "_hash", None)
        return r

    def __hash__(self) -> int:
        # by value, computed once: records are shared by every later position and used
        # as cache keys (e.g. the OpenSpiel adapter's text of past rounds)
        h = self._hash
        if h is None:
            h = hash((self.round, self.first_player, self.palifico, self.dice, self.actions))
            object.__setattr__(self, "_hash", h)
        return h

    def seen_by(self, player: int) -> PastRound:
        """What seat ``player`` saw of this round, as :func:`~perudo_rules.engine.views.sight`
        says: its own dice and re-rolls, the cups lifted at the reveal (the views of all
        seats are built once, on first use, and kept with the record: history is shared by
        all later states)."""
        views = self._views
        if views is None:
            views = self._seen_by_all()
            object.__setattr__(self, "_views", views)
        return views[player]

    def _seen_by_all(self) -> tuple[PastRound, ...]:
        """Every seat's view of this round, in seat order."""
        res = self.result
        dice = self.dice
        revealed = res.revealed
        rerolls = self.rerolls
        by = tuple([a.player for a in self.actions if type(a) is Reroll])
        views: list[PastRound] = []
        for p in range(len(dice)):
            seen = sight(p, dice, revealed, by, rerolls)
            mine: tuple[tuple[int, ...], ...] = ()
            if by:
                rolls = zip(seen.rolls, by, strict=True)
                mine = tuple([d for d, s in rolls if s == p and d is not None])
            views.append(
                PastRound._build(
                    round=self.round,
                    first_player=self.first_player,
                    palifico=self.palifico,
                    actions=self.actions,
                    bid=res.bid,
                    kind=res.kind,
                    caller=res.caller,
                    loser=res.loser,
                    gainer=res.gainer,
                    revealed=revealed,
                    shown=res.shown,
                    shown_count=res.shown_count,
                    next_player=res.next_player,
                    own_dice=seen.cups[p] or (),
                    own_rerolls=mine,
                )
            )
        return tuple(views)


def round_outcome(
    rr: RoundRules,
    dice: Sequence[tuple[int, ...]],
    bid: Bid,
    call: Dudo | Calza,
    to_move: int,
    trace: OutcomeTrace | None = None,
) -> tuple[RoundResult, Settlement]:
    """How a round of rules ``rr`` ends when ``call`` answers the standing ``bid`` with
    ``to_move`` to move: the :class:`RoundResult` (the true count, the lifted cups, what
    they show) and the :class:`~perudo_rules.engine.settlement.Settlement` (the new dice
    counts, winner, palifico seats). The step API and the fast path both ask this; a
    ``trace`` notes the rules that decide each field of the outcome (the count's too)."""
    caller = call.player
    dudo = type(call) is Dudo
    if trace is None:
        count = count_matching(dice, bid.face, rr.wild)  # rr.count, a call fewer
    else:
        count = rr.count(dice, bid.face, trace.delta)
    order = reveal(rr, dice, caller, dudo, bid)
    s = settle(rr, dudo, caller, bid, count, to_move, trace)
    shown = tuple(map(dice.__getitem__, order))
    # every cup lifted: the table sees the true count (no second count on the hot path)
    seen = count if len(order) == rr.alive else shown_count(rr, shown, bid.face)
    result = RoundResult._build(
        kind="dudo" if dudo else "calza",
        bid=bid,
        count=count,
        loser=s.loser,
        gainer=s.gainer,
        revealed=order,
        shown=shown,
        next_player=s.next_player,
        caller=caller,
        next_palifico=s.next_palifico,
        lost=dice_lost(rr, s.counts, s.loser),
        shown_count=seen,
    )
    return result, s


def outcome_rules(
    rr: RoundRules,
    dice: Sequence[tuple[int, ...]],
    bid: Bid,
    call: Dudo | Calza,
    to_move: int,
) -> dict[str, tuple[str, ...]]:
    """The rule ids that decide each field of the outcome of a round that ``call`` ends
    (``delta``, ``next``, ``palifico``, ``eliminated``, ``winner``: see
    :class:`~perudo_rules.engine.trace.OutcomeTrace`), the deciding one first, as
    :func:`round_outcome` notes them while it settles the round."""
    trace = OutcomeTrace()
    round_outcome(rr, dice, bid, call, to_move, trace)
    return trace.as_dict()


# --- fast construction (perudo_rules.base.frozen; see perudo_rules.engine.game) -------------------
install_builder(RoundResult, "_build")
install_builder(RoundRecord, "_build")
for _cls in (RoundResult, RoundRecord):
    pickle_by_fields(_cls)
