"""The set-aside re-roll (the ``reroll.*`` knobs): the rules kernel's decisions about it.

Where an edition allows it (``reroll.enabled``), the player to move may, before it acts,
set some of its concealed dice aside face up and re-roll the rest: a
:class:`~perudo_rules.base.actions.Reroll`, then a chance step that rolls the re-rolled dice
(:meth:`Game.roll <perudo_rules.engine.game.Game.roll>`), then the same player acts. Dice set
aside are seen by every seat, count like any others and stay aside until the round ends.

A round's re-rolls are a :class:`RerollState` kept with the position (``Game.reroll``):
the dice as the round began, what each seat has set aside, and every re-roll in order. A
seat's dice (``Game.dice``) are its set-aside dice first, ascending, then its concealed
ones; while its re-rolled dice are in the air it holds only the set-aside ones.

Every function names its rule ids, as :mod:`perudo_rules.engine.kernel` does (its rule map lists
them). Plain typed Python, like the kernel.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from perudo_rules.base.actions import Action, Bid, Calza, Dudo, Leave, Reroll
from perudo_rules.base.messages import Refusal, given
from perudo_rules.editions.ruleset import Ruleset
from perudo_rules.engine.kernel import RoundRules
from perudo_rules.engine.trace import Trace

__all__ = [
    "RerollState",
    "RerollStep",
    "bid_open",
    "concealed",
    "reroll_options",
    "reroll_verdict",
    "rerolled_dice",
    "rolling",
    "round_steps",
    "set_aside_dice",
    "set_asides",
    "turn_verdict",
    "verdict_with_rerolls",
]


class RerollStep(NamedTuple):
    """One re-roll of a round: ``at`` actions of the round came before it (bids, leaves and
    re-rolls), ``bids`` of them bids; ``action`` says who and what it set aside, ``rolled``
    the re-rolled dice (``None`` until they are rolled; ``()`` if its seat left the game
    before they were)."""

    at: int
    bids: int
    action: Reroll
    rolled: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class RerollState:
    """A round's re-rolls: ``start_dice`` the dice as the round began (one cup per seat),
    ``set_aside`` the dice each seat has set aside face up (ascending), ``steps`` every
    re-roll in order."""

    start_dice: tuple[tuple[int, ...], ...]
    set_aside: tuple[tuple[int, ...], ...]
    steps: tuple[RerollStep, ...]

    @property
    def pending(self) -> bool:
        """Whether the last re-roll's dice are still to be rolled (a chance step)."""
        return self.steps[-1].rolled is None

    def rerolled_now(self, to_move: int, bids_made: int) -> bool:
        """Whether ``to_move`` has re-rolled in its current turn (no bid since)."""
        last = self.steps[-1]
        return last.bids == bids_made and last.action.player == to_move

    def rerolled(self, seat: int) -> bool:
        """Whether ``seat`` has re-rolled in this round (``reroll.limit: once_per_round``)."""
        return any(s.action.player == seat for s in self.steps)

    def without(self, seat: int) -> RerollState:
        """The state once ``seat`` left a round that goes on (``leave.round: continues``):
        its dice, set aside ones too, leave with it, and a re-roll of its own whose dice
        were in the air is never rolled."""
        aside = list(self.set_aside)
        aside[seat] = ()
        steps = self.steps
        last = steps[-1]
        if last.rolled is None and last.action.player == seat:
            steps = (*steps[:-1], last._replace(rolled=()))
        return RerollState(self.start_dice, tuple(aside), steps)

    @property
    def rolled(self) -> tuple[tuple[int, ...], ...]:
        """The dice each re-roll rolled so far, in order (``()`` for one whose seat left
        before they were rolled; none for one whose dice are in the air)."""
        return tuple([s.rolled for s in self.steps if s.rolled is not None])

    def rolls(self, seat: int) -> tuple[tuple[int, ...], ...]:
        """The dice ``seat`` rolled in its re-rolls this round, in order (its own secret)."""
        return tuple([s.rolled for s in self.steps if s.action.player == seat and s.rolled])


def concealed(dice: tuple[int, ...], state: RerollState | None, seat: int) -> tuple[int, ...]:
    """The dice of ``seat`` still under its cup: ``dice`` (its cup) past those set aside."""
    if state is None:
        return dice
    return dice[len(state.set_aside[seat]) :]


def rolling(
    counts: tuple[int, ...], dice: Sequence[tuple[int, ...]], state: RerollState | None
) -> tuple[int, ...]:
    """How many dice each seat rolls at a re-roll's chance step (the concealed dice of the
    pending re-roll; all zero when none is pending). ``counts`` are the dice held."""
    out = [0] * len(counts)
    if state is not None and state.pending:
        p = state.steps[-1].action.player
        out[p] = counts[p] - len(dice[p])
    return tuple(out)


@functools.lru_cache(maxsize=4096)
def set_asides(hidden: tuple[int, ...], min_hidden: int) -> tuple[tuple[int, ...], ...]:
    """Every set of dice a re-roll may set aside from the concealed dice ``hidden``
    (ascending faces): one die at least (``play.reroll``), leaving at least ``min_hidden``
    concealed (``reroll.min_hidden``); each ascending, in lexicographic order."""
    counts: dict[int, int] = {}
    for f in hidden:
        counts[f] = counts.get(f, 0) + 1
    most = len(hidden) - min_hidden
    out: list[tuple[int, ...]] = [()]
    for face in sorted(counts):
        out = [s + (face,) * k for s in out for k in range(counts[face] + 1) if len(s) + k <= most]
    return tuple(sorted(s for s in out if s))


def bid_open(rr: RoundRules, to_move: int, bids: Sequence[Bid]) -> bool:
    """Whether ``to_move`` has a bid of the round's table to make now (an opening bid, or
    a raise that ``legal_actions`` lists). A re-roll that must be followed by a bid
    (``reroll.must_bid``) needs one: over a standing bid beyond the table
    (``bidding.quantity_cap: none``) the unlisted bluffs do not count, so that every seat
    that must act has a listed action."""
    if not bids:
        return bool(rr.opening_ranks)
    key = (bids[-1].quantity, bids[-1].face)
    rank = rr.table.rank_of.get(key)
    if rank is None:
        return bool(rr.raise_ranks(to_move, rr.table.floor_rank(*key), key))
    return bool(rr.raise_ranks(to_move, rank))


def _may_reroll(
    rules: Ruleset,
    state: RerollState | None,
    seat: int,
    bids_made: int,
    open_bid: bool,
    trace: Trace | None = None,
) -> Refusal | None:
    if not rules.reroll_enabled:
        return Refusal("reroll.enabled", "no-reroll", {})
    if trace is not None:
        trace.read("reroll.must_bid")
    if rules.reroll_must_bid and not open_bid:
        return Refusal("reroll.must_bid", "reroll-no-bid-left", {})
    if state is None:
        return None
    if trace is not None:
        trace.read("play.roll")
        trace.read("reroll.limit")
    if state.pending:
        return _in_the_air(state)
    if state.rerolled_now(seat, bids_made):
        return Refusal("reroll.limit", "reroll-once-per-turn", {"seat": seat})
    if rules.reroll_limit == "once_per_round" and state.rerolled(seat):
        return Refusal("reroll.limit", "reroll-once-per-round", {"seat": seat})
    return None


def _in_the_air(state: RerollState) -> Refusal:
    seat = state.steps[-1].action.player
    return Refusal("play.roll", "reroll-dice-in-the-air", {"seat": seat})


def reroll_options(
    rules: Ruleset,
    dice: Sequence[tuple[int, ...]],
    state: RerollState | None,
    to_move: int,
    bids_made: int,
    open_bid: bool,
) -> tuple[Reroll, ...]:
    """Every re-roll the player to move may make now, as :func:`reroll_verdict` accepts
    them, in the order of :func:`set_asides`; ``open_bid`` is :func:`bid_open`."""
    if _may_reroll(rules, state, to_move, bids_made, open_bid) is not None:
        return ()
    hidden = tuple(sorted(concealed(dice[to_move], state, to_move)))
    return tuple([Reroll(to_move, s) for s in set_asides(hidden, rules.reroll_min_hidden)])


def reroll_verdict(
    rules: Ruleset,
    dice: Sequence[tuple[int, ...]],
    state: RerollState | None,
    to_move: int,
    bids_made: int,
    action: Reroll,
    open_bid: bool,
    trace: Trace | None = None,
) -> Refusal | None:
    """Whether ``action`` is legal with ``to_move`` to move after ``bids_made`` bids this
    round (``reroll.enabled``, ``reroll.limit``, ``reroll.min_hidden``,
    ``reroll.must_bid``, ``play.reroll``, ``play.seat``, ``play.turn``); ``open_bid`` is
    :func:`bid_open`. A ``trace`` notes the rules read; ``reroll.enabled`` allows a legal
    re-roll (the edition has them), the others bound it."""
    # the fields as given (``Any``), as the kernel's verdict reads them: compiled code that
    # read them as ``int`` would take ``True`` for 1, an ``int`` subclass for an int and
    # raise TypeError for a float, where the pure package refuses them all below
    fields: Any = action
    p = fields.player
    if trace is not None:
        trace.decide("reroll.enabled")
    if not rules.reroll_enabled:
        return Refusal("reroll.enabled", "no-reroll", {})
    if trace is not None:
        trace.read("play.seat")
        trace.read("play.turn")
    if type(p) is not int or not 0 <= p < len(dice) or (not dice[p] and p != to_move):
        return Refusal("play.seat", "seat-without-dice", {"seat": given(p)})
    if p != to_move:
        return Refusal("play.turn", "not-your-turn", {"to_move": to_move, "seat": p})
    bad = _may_reroll(rules, state, p, bids_made, open_bid, trace)
    if bad is not None:
        return bad
    if trace is not None:
        trace.read("play.reroll")
        trace.read("reroll.min_hidden")
    faces = fields.set_aside
    if not isinstance(faces, tuple) or any(
        type(f) is not int or not 1 <= f <= rules.dice_faces for f in faces
    ):
        listed = isinstance(faces, tuple)
        shown = ",".join([str(given(f)) for f in faces]) if listed else given(faces)
        return Refusal(
            "play.reroll", "reroll-not-faces", {"faces": shown, "sides": rules.dice_faces}
        )
    if not faces:
        return Refusal("play.reroll", "reroll-nothing-aside", {})
    hidden = list(concealed(dice[p], state, p))
    for f in faces:
        if f not in hidden:
            held = " ".join(map(str, sorted(concealed(dice[p], state, p))))
            return Refusal(
                "play.reroll", "reroll-not-held", {"seat": p, "dice": held, "face": f}
            )
        hidden.remove(f)
    if len(hidden) < rules.reroll_min_hidden:
        least = rules.reroll_min_hidden
        return Refusal("reroll.min_hidden", "reroll-min-hidden", {"least": least})
    return None


def turn_verdict(
    rules: Ruleset,
    state: RerollState,
    to_move: int,
    bids_made: int,
    action: object,
    trace: Trace | None = None,
) -> Refusal | None:
    """Whether a bid or call the kernel allows may be made in a round with re-rolls: nothing
    while re-rolled dice are in the air (``play.roll``); after a re-roll in this turn only
    its player acts (``play.turn``), and it must bid when ``reroll.must_bid`` (a ``trace``
    notes the rules read)."""
    if state.pending and type(action) is not Leave:
        return _in_the_air(state)
    if trace is not None:
        trace.read("play.roll")
    if not state.rerolled_now(to_move, bids_made):
        return None
    if trace is not None and type(action) in (Dudo, Calza):
        trace.read("play.turn")
        trace.read("reroll.must_bid")
    p = getattr(action, "player", None)
    if p != to_move and type(action) in (Dudo, Calza):
        return Refusal("play.turn", "reroll-acts-next", {"seat": to_move})
    if rules.reroll_must_bid and p == to_move and type(action) in (Dudo, Calza):
        return Refusal("reroll.must_bid", "reroll-must-bid", {"seat": to_move})
    return None


def verdict_with_rerolls(
    rr: RoundRules,
    dice: Sequence[tuple[int, ...]],
    state: RerollState | None,
    to_move: int,
    bids: Sequence[Bid],
    action: object,
    trace: Trace | None = None,
) -> Refusal | None:
    """Whether ``action`` is legal in a round of rules ``rr`` with re-rolls: a re-roll as
    :func:`reroll_verdict` says; nothing while re-rolled dice are in the air but a seat's
    :class:`~perudo_rules.base.actions.Leave` (``play.leave``: at any point); any other
    action as the kernel's :meth:`RoundRules.verdict
    <perudo_rules.engine.kernel.RoundRules.verdict>` says, then :func:`turn_verdict`. A
    ``trace`` notes the rules read and the one that allows a legal action."""
    if type(action) is Reroll:
        open_bid = not rr.rules.reroll_must_bid or bid_open(rr, to_move, bids)
        return reroll_verdict(rr.rules, dice, state, to_move, len(bids), action, open_bid, trace)
    if state is not None and state.pending and type(action) is not Leave:
        return _in_the_air(state)
    bad = rr.verdict(to_move, bids, action, trace)  # the kernel's own rule, where it refuses
    if bad is not None or state is None:
        return bad
    return turn_verdict(rr.rules, state, to_move, len(bids), action, trace)


def set_aside_dice(
    dice: tuple[tuple[int, ...], ...],
    state: RerollState | None,
    bids_made: int,
    action: Reroll,
    at: int | None = None,
    dealt: tuple[tuple[int, ...], ...] | None = None,
) -> tuple[tuple[tuple[int, ...], ...], RerollState]:
    """The dice and re-roll state after the legal ``action``, made after ``bids_made``
    bids and ``at`` actions of the round in all (default: the bids and re-rolls so far, a
    round no seat left), in a round dealt as ``dealt`` (default ``dice``): its dice join
    the seat's set-aside ones; the rest are in the air (the seat holds only its set-aside
    dice)."""
    p = action.player
    if state is None:
        state = RerollState(dice if dealt is None else dealt, ((),) * len(dice), ())
    if at is None:
        at = bids_made + len(state.steps)
    aside = tuple(sorted(state.set_aside[p] + action.set_aside))
    cups = list(dice)
    cups[p] = aside
    all_aside = list(state.set_aside)
    all_aside[p] = aside
    step = RerollStep(at, bids_made, action, None)
    return tuple(cups), RerollState(state.start_dice, tuple(all_aside), (*state.steps, step))


def rerolled_dice(
    dice: tuple[tuple[int, ...], ...], state: RerollState, cups: Sequence[tuple[int, ...]]
) -> tuple[tuple[tuple[int, ...], ...], RerollState]:
    """The dice and re-roll state once the pending re-roll's dice came up as ``cups`` (one
    per seat, the re-roller's holding its re-rolled dice)."""
    last = state.steps[-1]
    p = last.action.player
    rolled = tuple(cups[p])
    cups = list(dice)
    cups[p] = (*state.set_aside[p], *rolled)
    steps = (*state.steps[:-1], last._replace(rolled=rolled))
    return tuple(cups), RerollState(state.start_dice, state.set_aside, steps)


def round_steps(
    actions: Sequence[Action], state: RerollState | None
) -> tuple[tuple[Action, ...], tuple[tuple[int, ...], ...]]:
    """A round's actions in order, its re-rolls among its other actions (``actions``: its
    bids and leaves, and a call if it ended), and the dice each re-roll rolled, in order
    (``()`` for one whose seat left before they were rolled; none for one whose dice are
    still in the air): what a round record keeps."""
    if state is None:
        return tuple(actions), ()
    out = list(actions)
    rolled: list[tuple[int, ...]] = []
    for s in state.steps:  # each knows how many actions came before it, earlier re-rolls too
        out.insert(s.at, s.action)
        if s.rolled is not None:
            rolled.append(s.rolled)
    return tuple(out), tuple(rolled)
