"""The engine: an immutable :class:`Game` value and pure transitions.

``game.apply(action)`` returns a new game and leaves ``game`` unchanged.
Rolling the dice is an explicit chance step: after a Dudo or Calza resolves,
``awaiting_roll`` is true until ``game.roll(...)`` starts the next round; after a
:class:`~perudo_rules.base.actions.Reroll` (``reroll.enabled``) it is true until
``game.roll(...)`` rolls the re-rolled dice, and the same player acts next.

Every rule that varies is decided by the rules kernel (:mod:`perudo_rules.engine.kernel`); this
module holds the state and asks it. Legality is arithmetic on bid ranks: ``is_legal``
costs the same at 10 or 300 dice, and :meth:`Game.legal_actions` is a lazy
view that answers ``len``, indexing, ``in`` and iteration without building
every action. Every refusal names its rule id: a knob path, or a fixed rule of
``spec/core-rules.yaml``.
"""

from __future__ import annotations

import _random
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, cast

from perudo_rules.base.actions import Action, Bid, Calza, Dudo, Leave, Reroll, bid_numbers
from perudo_rules.base.errors import IllegalAction
from perudo_rules.base.frozen import install_builder, pickle_by_fields
from perudo_rules.base.messages import Refusal
from perudo_rules.base.seatcheck import check_face, check_seat, check_seed
from perudo_rules.editions.ruleset import Ruleset
from perudo_rules.editions.variant import Variant
from perudo_rules.engine import leaving
from perudo_rules.engine.kernel import RoundRules, count_matching, round_rules
from perudo_rules.engine.legal import LegalActions, offers_now, view
from perudo_rules.engine.ranks import BidSpace, bid_space
from perudo_rules.engine.reroll import (
    RerollState,
    rerolled_dice,
    rolling,
    round_steps,
    set_aside_dice,
    verdict_with_rerolls,
)
from perudo_rules.engine.rounds import RoundRecord, RoundResult, outcome_rules, round_outcome
from perudo_rules.engine.seats import next_seat
from perudo_rules.engine.settlement import Settlement, returns
from perudo_rules.engine.start import (
    given_roll,
    given_start,
    opening,
    roll_cups,
    seat_count,
)
from perudo_rules.engine.trace import Decision, Trace
from perudo_rules.engine.views import Observation, sight

__all__ = ["Game"]


_EMPTY: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, repr=False)
class Game:
    """A position of a game of Perudo under one :class:`Variant`.

    Build one with :meth:`Game.new` (rolled, roll-off included) or
    :meth:`Game.start` (an explicit position). Public fields: ``variant``,
    ``dice`` (per seat; empty while awaiting a roll and once the game is over),
    ``dice_counts``, ``to_move``, ``bids`` (this round's, or the round just
    resolved while awaiting a roll), ``palifico`` and ``palifico_player`` (of
    this round, or of the round about to be rolled), ``round``,
    ``palifico_used``, ``history`` (finished rounds), ``last_result``,
    ``winner``, ``first_player`` (who opened this round), ``reroll`` (this round's
    :class:`~perudo_rules.engine.reroll.RerollState`, ``None`` if nobody re-rolled:
    ``reroll.enabled``); :attr:`actions` is the round's actions so far, a seat's leave and
    re-rolls included.
    """

    variant: Variant
    dice: tuple[tuple[int, ...], ...]
    dice_counts: tuple[int, ...]
    to_move: int | None
    bids: tuple[Bid, ...] = ()
    palifico: bool = False
    palifico_player: int | None = None
    round: int = 1
    palifico_used: frozenset[int] = frozenset()
    history: tuple[RoundRecord, ...] = ()
    last_result: RoundResult | None = None
    winner: int | None = None
    first_player: int | None = None
    reroll: RerollState | None = None
    # The kernel's rules of the round in play, kept with the position (None between
    # rounds and once over); not part of the value: equality and hashing ignore it.
    _rules_in_play: RoundRules | None = field(default=None, compare=False)
    # Seats that left the round in play, which went on (leave.round: continues), else None.
    _departed: leaving.Departures | None = None

    # --- construction -------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        variant: Variant,
        dice: Sequence[Sequence[int]],
        first_player: object,
        palifico: object = False,
        round: object = 1,
        palifico_used: Iterable[object] = (),
    ) -> Game:
        """An explicit position at the start of a round (``ValueError`` if it is invalid).

        ``dice`` has one list per seat, its length that seat's dice (``[]`` = out).
        ``palifico=True`` makes ``first_player`` (who must hold one die) open a
        palifico round; ``palifico_used`` lists seats that already had theirs.
        ``first_player``, ``round`` and those seats are integers (NumPy's too): anything else
        (a bool, a float, a string) is refused, never coerced (hence ``object``); ``palifico``
        is a bool (``TypeError`` otherwise, in both builds: typed ``object`` too).
        """
        rules = variant.rules
        cups, first, round_no, used = given_start(
            rules, variant.id, dice, first_player, palifico, round, palifico_used
        )
        counts = tuple(len(c) for c in cups)
        palifico = palifico is True  # given_start refused anything but a bool
        owner = first if palifico else None
        return cls(
            variant=variant,
            dice=cups,
            dice_counts=counts,
            to_move=first,
            palifico=palifico,
            palifico_player=owner,
            round=round_no,
            palifico_used=used,
            first_player=first,
            reroll=None,
            _rules_in_play=round_rules(rules, counts, palifico, round_no, owner, used),
        )

    @classmethod
    def new(cls, variant: Variant, players: object, seed: object = None) -> Game:
        """A new game: every seat holds ``dice.per_player`` dice, rolled from ``seed``.

        ``random.Random(seed)`` first settles who opens (the edition's roll-off,
        ties re-rolled among the tied, in seat order), then rolls the dice seat by seat.
        ``players`` is an integer the edition allows, else ``ValueError`` (typed ``object``:
        :func:`~perudo_rules.engine.start.seat_count` checks it); ``seed``, what
        ``random.Random`` takes or a NumPy integer (:func:`.check_seed`).
        """
        rules, seed = variant.rules, check_seed(seed)  # a Seed; a NumPy integer as an int
        players = seat_count(rules, players, variant.id)
        # for an int seed, random.Random's C base draws the very same stream (Random.seed
        # hands an int to it unchanged), and is made in less time
        rng = _random.Random(seed) if type(seed) is int else random.Random(seed)
        first, cups = opening(rules, players, cast(random.Random, rng))
        if cls is not Game:
            return cls.start(variant, cups, first)
        counts = (rules.dice_per_player,) * players
        used: frozenset[int] = frozenset()
        # The dice are valid by construction: skip start()'s checks.
        return Game._build(  # every field, named
            variant=variant, dice=cups, dice_counts=counts, to_move=first, bids=(),
            palifico=False, palifico_player=None, round=1, palifico_used=used, history=(),
            last_result=None, winner=None, first_player=first, reroll=None,
            rules_in_play=round_rules(rules, counts, False, 1, None, used),
            departed=None,
        )

    @staticmethod
    def _build(
        *,
        variant: Variant,
        dice: tuple[tuple[int, ...], ...],
        dice_counts: tuple[int, ...],
        to_move: int | None,
        bids: tuple[Bid, ...],
        palifico: bool,
        palifico_player: int | None,
        round: int,
        palifico_used: frozenset[int],
        history: tuple[RoundRecord, ...],
        last_result: RoundResult | None,
        winner: int | None,
        first_player: int | None,
        reroll: RerollState | None,
        rules_in_play: RoundRules | None,
        departed: leaving.Departures | None,
    ) -> Game:
        """A game from every field, without ``__init__`` (perudo_rules.base.frozen: the compiled
        build's form; pure Python replaces it with a generated one)."""
        g: Game = Game.__new__(Game)
        object.__setattr__(g, "variant", variant)
        object.__setattr__(g, "dice", dice)
        object.__setattr__(g, "dice_counts", dice_counts)
        object.__setattr__(g, "to_move", to_move)
        object.__setattr__(g, "bids", bids)
        object.__setattr__(g, "palifico", palifico)
        object.__setattr__(g, "palifico_player", palifico_player)
        object.__setattr__(g, "round", round)
        object.__setattr__(g, "palifico_used", palifico_used)
        object.__setattr__(g, "history", history)
        object.__setattr__(g, "last_result", last_result)
        object.__setattr__(g, "winner", winner)
        object.__setattr__(g, "first_player", first_player)
        object.__setattr__(g, "reroll", reroll)
        object.__setattr__(g, "_rules_in_play", rules_in_play)
        object.__setattr__(g, "_departed", departed)
        return g

    @staticmethod
    def _after_bid(src: Game, *, to_move: int | None, bids: tuple[Bid, ...]) -> Game:
        """``src`` with another player to move and bids: all a bid changes (as ``_build``)."""
        s = src
        return Game._build(
            variant=s.variant, dice=s.dice, dice_counts=s.dice_counts, to_move=to_move,
            bids=bids, palifico=s.palifico, palifico_player=s.palifico_player, round=s.round,
            palifico_used=s.palifico_used, history=s.history, last_result=s.last_result,
            winner=s.winner, first_player=s.first_player, reroll=s.reroll,
            rules_in_play=s._rules_in_play, departed=s._departed,
        )

    @staticmethod
    def _after_reroll(
        src: Game, *, dice: tuple[tuple[int, ...], ...], reroll: RerollState | None
    ) -> Game:
        """``src`` with other dice and re-roll state: all a re-roll, or the roll of its dice,
        changes (as ``_build``)."""
        s = src
        return Game._build(
            variant=s.variant, dice=dice, dice_counts=s.dice_counts, to_move=s.to_move,
            bids=s.bids, palifico=s.palifico, palifico_player=s.palifico_player, round=s.round,
            palifico_used=s.palifico_used, history=s.history, last_result=s.last_result,
            winner=s.winner, first_player=s.first_player, reroll=reroll,
            rules_in_play=s._rules_in_play, departed=s._departed,
        )

    # --- derived views ------------------------------------------------------------------

    @property
    def players(self) -> int:
        """Number of seats, out seats included."""
        return len(self.dice_counts)

    @property
    def rules(self) -> Ruleset:
        """The typed rules of the variant."""
        return self.variant.rules

    @property
    def round_rules(self) -> RoundRules:
        """The kernel's rules of this round (or of the round about to be rolled)."""
        if self._rules_in_play is not None:
            return self._rules_in_play
        return round_rules(
            self.variant.rules,
            self.dice_counts,
            self.palifico,
            self.round + (self.to_move is None),
            self.palifico_player,
            self.palifico_used,
        )

    @property
    def current_bid(self) -> Bid | None:
        """The standing bid (``None`` before the opening bid or between rounds)."""
        if self.to_move is None or not self.bids:
            return None
        return self.bids[-1]

    @property
    def dealt(self) -> tuple[tuple[int, ...], ...]:
        """The cups of the round in play as dealt: :attr:`dice`, but for a seat that left a
        round that went on (``leave.round: continues``), whose cup ``dice`` no longer holds,
        and a seat that re-rolled (``reroll.enabled``), whose cup ``dice`` holds as it is now."""
        gone = self._departed
        if gone is not None:
            return gone.dealt
        return self.dice if self.reroll is None else self.reroll.start_dice

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions of the round in play so far, in order: its bids, any seat's
        :class:`~perudo_rules.base.actions.Leave` and :class:`~perudo_rules.base.actions.Reroll`
        (empty between rounds and once over; the finished rounds' are in :attr:`history`)."""
        if self.to_move is None:
            return ()
        out = leaving.with_leaves(self.bids, self._departed)
        return out if self.reroll is None else round_steps(out, self.reroll)[0]

    @property
    def is_over(self) -> bool:
        """True once one seat has won."""
        return self.winner is not None

    @property
    def awaiting_roll(self) -> bool:
        """True at a chance step: between rounds, until :meth:`roll` starts the next one,
        and while a re-roll's dice are in the air, until :meth:`roll` rolls them."""
        if self.to_move is None:
            return self.winner is None
        return self.reroll is not None and self.reroll.pending

    @property
    def roll_counts(self) -> tuple[int, ...]:
        """How many dice each seat rolls at the chance step now (all zero when there is
        none): every die held between rounds, the concealed dice of a re-roll."""
        if self.to_move is None and self.winner is None:
            return self.dice_counts
        return rolling(self.dice_counts, self.dice, self.reroll)

    @property
    def set_aside(self) -> tuple[tuple[int, ...], ...]:
        """The dice each seat has set aside face up this round (``reroll.enabled``): seen
        by every seat, counted like the others, aside until the round ends."""
        return ((),) * self.players if self.reroll is None else self.reroll.set_aside

    @property
    def dice_in_play(self) -> int:
        """Total dice held by all seats."""
        return sum(self.dice_counts)

    @property
    def space(self) -> BidSpace:
        """The ranked bids of the current round (see :mod:`perudo_rules.engine.ranks`)."""
        if self._rules_in_play is None:
            return bid_space(self.rules, self.dice_in_play, self.palifico)
        return self._rules_in_play.table

    @property
    def wilds_active(self) -> bool:
        """Whether the wild face counts as every face in this round."""
        return self.space.wild is not None

    def rank(self, bid: object) -> int | None:
        """The rank of ``bid`` (``None`` if out of range), read by ``bid_numbers``."""
        return self.space.rank(*bid_numbers(bid))

    def count(self, face: object) -> int:
        """The true number of dice on the table that count as ``face``, a face of the
        variant's dice (else ``TypeError`` or ``ValueError``:
        :func:`~perudo_rules.base.seatcheck.check_face`; the wild dice alone are no answer)."""
        return count_matching(self.dice, check_face(face, self.rules.dice_faces), self.space.wild)

    def next_seat(self, seat: object) -> int:
        """The next seat after ``seat`` (checked: ``check_seat``) with dice, in play's direction."""
        return next_seat(self.dice_counts, self.rules.direction, check_seat(seat, self.players))

    def __repr__(self) -> str:
        state = (
            f"winner={self.winner}"
            if self.is_over
            else ("awaiting_roll" if self.to_move is None else f"to_move={self.to_move}")
        )
        bids = " ".join(str(b) for b in self.bids)
        pal = " palifico" if self.palifico else ""
        return (
            f"<Game {self.variant.id} round={self.round}{pal} dice_counts={list(self.dice_counts)}"
            f" {state} bids=[{bids}]>"
        )

    # --- legality (decided by the kernel) -----------------------------------------------

    def violation(self, action: Any, trace: Trace | None = None) -> Refusal | None:
        """``None`` if ``action`` is legal now, else the
        :class:`~perudo_rules.base.messages.Refusal` (``.rule``, ``.message_id``,
        ``.params``, the English ``.message``); ``trace`` notes the rules read."""
        if self.winner is not None:
            return Refusal("play.game_over", "game-over", {"winner": self.winner})
        rr = self._rules_in_play
        to_move = self.to_move
        if to_move is None or rr is None:  # between rounds: only a seat's leave
            return leaving.between_verdict(self.dice_counts, action, trace)
        if self.reroll is None and type(action) is not Reroll:
            return rr.verdict(to_move, self.bids, action, trace)
        return verdict_with_rerolls(rr, self.dice, self.reroll, to_move, self.bids, action, trace)

    def decision(self, action: Any) -> Decision:
        """Which rules decide ``action`` now, legal or not (a
        :class:`~perudo_rules.engine.trace.Decision`): the one that refuses it (the
        :meth:`violation`'s rule) or allows it first, then the others the kernel read."""
        trace = Trace()
        bad = self.violation(action, trace)
        return trace.decision(None if bad is None else bad.rule)

    def outcome_decision(self, call: Dudo | Calza) -> dict[str, tuple[str, ...]]:
        """For a Dudo or Calza legal now (else ``IllegalAction``; ``TypeError`` for another
        action), the rule ids that decide each field of the round's outcome, the deciding
        one first (:func:`~perudo_rules.engine.rounds.outcome_rules`: the settlement, traced)."""
        bad = self.violation(call)
        if bad is not None:
            raise IllegalAction(bad)
        if type(call) is not Dudo and type(call) is not Calza:
            raise TypeError(f"not a Dudo or Calza: {call!r}")
        assert self._rules_in_play is not None and self.to_move is not None
        return outcome_rules(self._rules_in_play, self.dice, self.bids[-1], call, self.to_move)

    def is_legal(self, action: Any) -> bool:
        """Whether ``action`` may be taken now; agrees exactly with :meth:`legal_actions`,
        but for a seat's :class:`~perudo_rules.base.actions.Leave` (allowed, never listed)."""
        return self.violation(action) is None

    def legal_actions(self, seat: object = None) -> LegalActions:
        """Every action any seat may take now, out-of-turn Calza included (a lazy view);
        with ``seat``, only that seat's, in the same order (``in`` answers for it alone;
        ``seat`` is checked: :func:`~perudo_rules.base.seatcheck.check_seat`)."""
        at = None if seat is None else check_seat(seat, self.players)
        rr = self._rules_in_play if self.winner is None else None
        return view(rr, self.to_move, self.bids, at, self.dice, self.reroll)

    def call_offers(self) -> tuple[int, ...]:
        """The seats asked, in order, whether they call out of turn before the player to
        move acts (empty before the opening bid, between rounds and once over): the kernel's
        :meth:`RoundRules.offers <perudo_rules.engine.kernel.RoundRules.offers>`."""
        rr = self._rules_in_play if self.winner is None else None
        return offers_now(rr, self.to_move, self.bids, self.reroll)

    def returns(self) -> tuple[float, ...]:
        """What the game is worth to each seat, zero-sum: +1 for the winner, ``-1/(n-1)``
        for every other seat once over, 0 for all before
        (:func:`perudo_rules.engine.settlement.returns`)."""
        return returns(self.winner, self.players)

    # --- transitions --------------------------------------------------------------------

    def apply(self, action: object) -> Game:
        """The game after ``action``; raises :class:`IllegalAction` naming the rule broken
        (for anything that is not a :class:`Bid`, :class:`Dudo` or :class:`Calza` too)."""
        rr = self._rules_in_play
        to_move = self.to_move
        # no round rules: awaiting a roll or over (violation() says which); re-rolls: the
        # re-roll rules have their say
        if rr is None or to_move is None or self.reroll is not None or type(action) is Reroll:
            bad = self.violation(action)
        else:
            bad = rr.verdict(to_move, self.bids, action)
        if bad is not None:
            raise IllegalAction(bad)
        if type(action) is Leave:  # in a round, or between rounds (rr and to_move None)
            return self._leave(rr, action, to_move)
        assert rr is not None and to_move is not None
        if type(action) is Bid:
            # the same round: only the player to move and the bids change
            nxt = rr.successor[action.player]
            return Game._after_bid(self, to_move=nxt, bids=(*self.bids, action))
        if type(action) is Reroll:  # the re-rolled dice are in the air: a chance step
            at = len(self.actions) if self._departed is not None else None
            dice, state = set_aside_dice(self.dice, self.reroll, len(self.bids), action, at)
            return Game._after_reroll(self, dice=dice, reroll=state)
        assert type(action) is Dudo or type(action) is Calza
        result, s = round_outcome(rr, self.dice, self.bids[-1], action, to_move)
        return self._end_round(action, result, s)

    def _end_round(self, action: Action, result: RoundResult, s: Settlement) -> Game:
        """The game after ``action`` ended the round in play as ``result`` and ``s`` say."""
        assert self.first_player is not None
        if self._departed is None and self.reroll is None:  # nobody left or re-rolled
            actions: tuple[Action, ...] = (*self.bids, action)
            rerolls: tuple[tuple[int, ...], ...] = ()
            dealt = self.dice
        else:
            played = leaving.with_leaves(self.bids, self._departed)
            actions, rerolls = round_steps((*played, action), self.reroll)
            dealt = self.dealt
        record = RoundRecord._build(  # every field, named
            round=self.round, first_player=self.first_player, palifico=self.palifico,
            dice=dealt, actions=actions, result=result, palifico_used=self.palifico_used,
            rerolls=rerolls, left=(),
        )
        return Game._build(  # every field, named
            variant=self.variant, dice=(_EMPTY,) * len(s.counts), dice_counts=s.counts,
            to_move=None, bids=self.bids, palifico=s.next_palifico,
            palifico_player=s.next_player if s.next_palifico else None, round=self.round,
            palifico_used=s.used, history=(*self.history, record), last_result=result,
            winner=s.winner, first_player=self.first_player, reroll=None, rules_in_play=None,
            departed=None,
        )

    def _leave(self, rr: RoundRules | None, action: Leave, to_move: int | None) -> Game:
        """``action.player`` leaves: the round ends or goes on (``leaving.leave``), or, between
        rounds, the next round is rolled without it (``leaving.leave_between``)."""
        seat, last, done = action.player, self.last_result, self.history[-1:]
        if rr is None or to_move is None:  # between rounds: the last round records it
            assert last is not None and last.next_player is not None and done
            b, res = leaving.leave_between(self.round_rules, seat, last.next_player)
            rec = replace(done[0], left=(*done[0].left, seat))
            return replace(
                self, dice_counts=b.counts, palifico=b.next_palifico, palifico_used=b.used,
                palifico_player=b.next_player if b.next_palifico else None, last_result=res,
                winner=b.winner, history=(*self.history[:-1], rec),
            )  # fmt: skip
        assert self.first_player is not None
        s = leaving.leave(rr, seat, to_move, self.first_player)
        if s is not None:  # the round ends: no cup is lifted, the seat's dice are lost
            bid = self.bids[-1] if self.bids else None
            return self._end_round(action, leaving.leave_result(rr, s, seat, bid), s)
        rest = leaving.without(rr, seat)  # leave.round: continues
        # reroll.*: the seat's set-aside dice leave with it; its dice in the air are not rolled
        return replace(  # a leave is rare: the dataclass's own copy
            self, dice=tuple([_EMPTY if i == seat else c for i, c in enumerate(self.dice)]),
            dice_counts=rest.counts, to_move=rest.successor[seat] if to_move == seat else to_move,
            reroll=None if self.reroll is None else self.reroll.without(seat), _rules_in_play=rest,
            _departed=leaving.departing(self._departed, self.dealt, len(self.bids), seat),
        )  # fmt: skip

    def roll(
        self,
        dice: Sequence[Sequence[int]] | None = None,
        seed: object = None,
        rng: random.Random | None = None,
    ) -> Game:
        """The chance step: start the next round, or roll a re-roll's dice (its player acts
        next). With explicit ``dice`` (one list per seat of the dice it rolls now, ``[]`` for
        a seat that rolls none: see :attr:`roll_counts`), or rolled from ``seed`` / ``rng``
        seat by seat."""
        if self.winner is not None:
            raise IllegalAction(Refusal("play.game_over", "game-over", {"winner": self.winner}))
        rules = self.variant.rules
        if self.to_move is None:  # between rounds: every die held
            counts = self.dice_counts
        elif self.awaiting_roll:  # a re-roll's concealed dice
            counts = self.roll_counts
        else:
            said = "roll-mid-round-reroll" if rules.reroll_enabled else "roll-mid-round"
            raise IllegalAction(Refusal("play.roll", said, {}))
        faces = rules.dice_faces
        if dice is None:
            cups = roll_cups(faces, counts, rng or random.Random(check_seed(seed)))
        else:
            cups = given_roll(dice, faces, counts, self.to_move is None)
        if self.to_move is not None:  # a re-roll's dice
            assert self.reroll is not None
            dice, state = rerolled_dice(self.dice, self.reroll, cups)
            return Game._after_reroll(self, dice=dice, reroll=state)
        assert self.last_result is not None and self.last_result.next_player is not None
        first = self.last_result.next_player
        nxt = self.round + 1
        pal, owner = self.palifico, self.palifico_player
        rr = round_rules(rules, counts, pal, nxt, owner, self.palifico_used)
        return Game._build(  # every field, named
            variant=self.variant, dice=cups, dice_counts=counts, to_move=first, bids=(),
            palifico=pal, palifico_player=owner, round=nxt, palifico_used=self.palifico_used,
            history=self.history, last_result=self.last_result, winner=None,
            first_player=first, reroll=None, rules_in_play=rr, departed=None,
        )

    # --- views for one seat -------------------------------------------------------------

    def observation(self, player: object) -> Observation:
        """What seat ``player`` may see (:func:`~perudo_rules.engine.views.sight`): own dice,
        dice counts, bids, the dice set aside, lifted cups of past rounds, its legal actions.
        ``None`` is a spectator's view: only what every seat sees (no concealed die, no legal
        actions). ``player`` is checked (:func:`~perudo_rules.base.seatcheck.check_seat`)."""
        seat = None if player is None else check_seat(player, self.players, "player")
        past = [r.seen_by(seat or 0) for r in self.history]  # a spectator's: none of its own
        past = past if seat is not None else [replace(r, own_dice=(), own_rerolls=()) for r in past]
        mine = _EMPTY if seat is None else sight(seat, self.dice).cups[seat] or _EMPTY
        in_play = self.to_move is not None
        return Observation._build(  # every field, named
            player=seat, dice=mine,
            dice_counts=self.dice_counts, round=self.round, to_move=self.to_move,
            palifico=self.palifico, palifico_player=self.palifico_player,
            bids=self.bids if in_play else (), past_rounds=tuple(past), winner=self.winner,
            awaiting_roll=self.awaiting_roll, palifico_used=self.palifico_used,
            first_round=self.round == 1, actions=self.actions,
            set_aside=self.set_aside if in_play else (),
            legal_actions=() if seat is None else self.legal_actions(seat),
        )

    # --- JSON --------------------------------------------------------------------------
    # A game's JSON is its record (records, the floor above): these two methods import it
    # where they run, the one import up a floor that tests/test_architecture.py allows.

    def to_json(self) -> dict[str, Any]:
        """The whole game as JSON (:func:`perudo_rules.records.gamejson.game_to_json`)."""
        from perudo_rules.records.gamejson import game_to_json

        return game_to_json(self)

    @classmethod
    def from_json(cls, doc: Any) -> Game:
        """The game of a :meth:`to_json` document, checked and rebuilt by the engine
        (:func:`perudo_rules.records.gamejson.game_from_json`)."""
        from perudo_rules.records.gamejson import game_from_json

        return game_from_json(doc)


# --- fast construction (perudo_rules.base.frozen) -----------------------------------------------
# The transitions build one Game per action (and a result and a record per round) without
# the dataclass ``__init__``: in pure Python with builders generated from the fields (these
# calls replace the hand-written ``_build`` and ``_after_bid``), in the compiled build with
# those, which mypyc turns into plain stores. Either way the result is the same frozen
# value (tests/test_compiled.py checks that in both builds).
install_builder(Game, "_build")
install_builder(Game, "_after_bid", changes="to_move bids")
install_builder(Game, "_after_reroll", changes="dice reroll")
pickle_by_fields(Game)
