"""The engine: an immutable :class:`Game` value and pure transitions.

``game.apply(action)`` returns a new game and leaves ``game`` unchanged.
Rolling the dice is an explicit chance step: after a Dudo or Calza resolves,
``awaiting_roll`` is true until ``game.roll(...)`` starts the next round.

Every rule that varies is decided by the rules kernel (:mod:`perudo_rules.kernel`); this
module holds the state and asks it. Legality is arithmetic on bid ranks: ``is_legal``
costs the same at 10 or 300 dice, and :meth:`Game.legal_actions` is a lazy
view that answers ``len``, indexing, ``in`` and iteration without building
every action. Every refusal names its rule id: a knob path, or a fixed rule of
``spec/core-rules.yaml``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from perudo_rules.actions import Action, Bid, Calza, Dudo
from perudo_rules.errors import IllegalAction
from perudo_rules.kernel import (
    RoundRules,
    count_matching,
    next_seat,
    opening,
    returns,
    roll_cups,
    round_rules,
)
from perudo_rules.legal import LegalActions
from perudo_rules.ranks import BidSpace, bid_space
from perudo_rules.ruleset import Ruleset
from perudo_rules.variant import Variant

__all__ = [
    "Game",
    "Observation",
    "PastRound",
    "RoundRecord",
    "RoundResult",
    "roll_die",
]


def roll_die(rng: random.Random, faces: int) -> int:
    """One die roll from ``rng`` (as :func:`perudo_rules.kernel.roll_cups` rolls each die)."""
    return roll_cups(faces, (1,), rng)[0][0]


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended.

    ``kind`` is ``"dudo"`` or ``"calza"``; ``count`` the true number of dice
    matching ``bid`` (the referee's view: it counts closed cups too); ``revealed`` the
    seats whose cups were lifted, in order, ``shown`` their dice and ``shown_count`` the
    dice among them that match ``bid`` (all that the players learn of the count:
    :meth:`RoundRules.shown_count <perudo_rules.kernel.RoundRules.shown_count>`);
    ``loser``/``gainer`` the
    seat that lost/gained a die or ``None``; ``next_player`` who opens the next
    round (``None`` when the game is over); ``caller`` who called;
    ``next_palifico`` whether the next round is a palifico round; ``lost`` the dice each
    seat lost, by seat (the loser's one die, or more under ``challenge.loss`` and
    ``challenge.exact``).
    """

    kind: str
    bid: Bid
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


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A finished round: its dice, opener, kind, actions in order and result.

    ``palifico_used`` is the seats that had had their palifico round when it began (its
    own palifico player included): a game record states the first round's as its set-up.
    """

    round: int
    first_player: int
    palifico: bool
    dice: tuple[tuple[int, ...], ...]
    actions: tuple[Action, ...]
    result: RoundResult
    palifico_used: frozenset[int] = frozenset()
    _views: tuple[PastRound, ...] | None = field(
        default=None, init=False, compare=False, repr=False
    )
    _hash: int | None = field(default=None, init=False, compare=False, repr=False)

    def __hash__(self) -> int:
        # by value, computed once: records are shared by every later position and used
        # as cache keys (e.g. the OpenSpiel adapter's text of past rounds)
        h = self._hash
        if h is None:
            h = hash((self.round, self.first_player, self.palifico, self.dice, self.actions))
            object.__setattr__(self, "_hash", h)
        return h

    def seen_by(self, player: int) -> PastRound:
        """What seat ``player`` saw of this round (the views of all seats are built once,
        on first use, and kept with the record: history is shared by all later states)."""
        views = self._views
        if views is None:
            res = self.result
            views = tuple(
                [
                    PastRound(
                        round=self.round,
                        first_player=self.first_player,
                        palifico=self.palifico,
                        actions=self.actions,
                        bid=res.bid,
                        kind=res.kind,
                        caller=res.caller,
                        loser=res.loser,
                        gainer=res.gainer,
                        revealed=res.revealed,
                        shown=res.shown,
                        shown_count=res.shown_count,
                        next_player=res.next_player,
                        own_dice=own,
                    )
                    for own in self.dice
                ]
            )
            object.__setattr__(self, "_views", views)
        return views[player]


@dataclass(frozen=True, slots=True)
class PastRound:
    """What one seat saw of a finished round: public actions, the called ``bid``, the
    lifted cups (``revealed``, ``shown``) and the dice among them matching the bid
    (``shown_count``), its own dice; never a closed cup nor the true count."""

    round: int
    first_player: int
    palifico: bool
    actions: tuple[Action, ...]
    bid: Bid
    kind: str
    caller: int | None
    loser: int | None
    gainer: int | None
    revealed: tuple[int, ...]
    shown: tuple[tuple[int, ...], ...]
    shown_count: int
    next_player: int | None
    own_dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Observation:
    """What seat ``player`` may see: its own dice and everything public, nothing else."""

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
    ``winner``, ``first_player`` (who opened this round).
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
    _round: RoundRules | None = field(default=None, compare=False)

    # --- construction -------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        variant: Variant,
        dice: Sequence[Sequence[int]],
        first_player: int,
        palifico: bool = False,
        round: int = 1,
        palifico_used: Iterable[int] = (),
    ) -> Game:
        """An explicit position at the start of a round (``ValueError`` if it is invalid).

        ``dice`` has one list per seat, its length that seat's dice (``[]`` = out).
        ``palifico=True`` makes ``first_player`` (who must hold one die) open a
        palifico round; ``palifico_used`` lists seats that already had theirs.
        """
        rules = variant.rules
        n = len(dice)
        if not rules.players_min <= n <= rules.players_max:
            raise ValueError(
                f"{n} seats; {variant.id} plays with {rules.players_min} to {rules.players_max}"
            )
        cups = tuple(tuple(int(d) for d in cup) for cup in dice)
        for seat, cup in enumerate(cups):
            if len(cup) > rules.dice_max_per_player:
                raise ValueError(
                    f"seat {seat} holds {len(cup)} dice; the most is {rules.dice_max_per_player}"
                )
            for d in cup:
                if not 1 <= d <= rules.dice_faces:
                    raise ValueError(f"seat {seat}: {d} is not a face of a d{rules.dice_faces}")
        counts = tuple(len(c) for c in cups)
        if sum(1 for c in counts if c) < 2:
            raise ValueError("at least two seats must hold dice")
        if not (0 <= first_player < n and counts[first_player]):
            raise ValueError(f"first player {first_player} is not a seat with dice")
        if round < 1:
            raise ValueError("rounds are numbered from 1")
        used = frozenset(int(s) for s in palifico_used)
        if any(not 0 <= s < n for s in used):
            raise ValueError("palifico_used names a seat that does not exist")
        if palifico:
            if not rules.palifico_enabled:
                raise ValueError(f"{variant.id} has no palifico rounds")
            if counts[first_player] != 1:
                raise ValueError("a palifico round is opened by a seat holding exactly one die")
            used = used | {first_player}
        owner = first_player if palifico else None
        return cls(
            variant=variant,
            dice=cups,
            dice_counts=counts,
            to_move=first_player,
            palifico=palifico,
            palifico_player=owner,
            round=round,
            palifico_used=used,
            first_player=first_player,
            _round=round_rules(rules, counts, palifico, round, owner, used),
        )

    @classmethod
    def new(cls, variant: Variant, players: int, seed: int | None = None) -> Game:
        """A new game: every seat holds ``dice.per_player`` dice, rolled from ``seed``.

        ``random.Random(seed)`` first settles who opens (the edition's roll-off,
        ties re-rolled among the tied, in seat order), then rolls the dice seat by seat.
        """
        rules = variant.rules
        if not rules.players_min <= players <= rules.players_max:
            raise ValueError(
                f"{players} players; {variant.id} plays with "
                f"{rules.players_min} to {rules.players_max}"
            )
        first, cups = opening(rules, players, random.Random(seed))
        if cls is not Game:
            return cls.start(variant, cups, first)
        counts = (rules.dice_per_player,) * players
        used: frozenset[int] = frozenset()
        # The dice are valid by construction: skip start()'s checks.
        return _make_game(
            variant, cups, counts, first, (), False, None, 1, used, (), None, None, first,
            round_rules(rules, counts, False, 1, None, used),
        )  # fmt: skip

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
        if self._round is not None:
            return self._round
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
    def is_over(self) -> bool:
        """True once one seat has won."""
        return self.winner is not None

    @property
    def awaiting_roll(self) -> bool:
        """True between rounds, until :meth:`roll` starts the next one."""
        return self.to_move is None and self.winner is None

    @property
    def dice_in_play(self) -> int:
        """Total dice held by all seats."""
        return sum(self.dice_counts)

    @property
    def space(self) -> BidSpace:
        """The ranked bids of the current round (see :mod:`perudo_rules.ranks`)."""
        if self._round is None:
            return bid_space(self.rules, self.dice_in_play, self.palifico)
        return self._round.table

    @property
    def wilds_active(self) -> bool:
        """Whether the wild face counts as every face in this round."""
        return self.space.wild is not None

    def rank(self, bid: Bid) -> int | None:
        """The rank of ``bid`` in this round (``None`` if it is out of range)."""
        return self.space.rank(bid.quantity, bid.face)

    def count(self, face: int) -> int:
        """The true number of dice on the table that count as ``face`` this round."""
        return count_matching(self.dice, face, self.space.wild)

    def next_seat(self, seat: int) -> int:
        """The next seat after ``seat`` with dice, in the direction of play."""
        return next_seat(self.dice_counts, self.variant.rules.step, seat)

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

    def violation(self, action: Any) -> tuple[str, str] | None:
        """``None`` if ``action`` is legal now, else ``(rule id, reason)``."""
        if self.winner is not None:
            return "play.game_over", f"the game is over; seat {self.winner} won"
        rr = self._round
        if self.to_move is None or rr is None:
            return "play.roll", "the round is over; roll the dice for the next round first"
        return rr.verdict(self.to_move, self.bids, action)

    def is_legal(self, action: Any) -> bool:
        """Whether ``action`` may be taken now; agrees exactly with :meth:`legal_actions`."""
        return self.violation(action) is None

    def legal_actions(self) -> LegalActions:
        """Every action any seat may take now, out-of-turn Calza included (a lazy view)."""
        rr = self._round if self.winner is None else None
        return LegalActions(rr, self.to_move, self.bids, self.is_legal)

    def call_offers(self) -> tuple[int, ...]:
        """The seats asked, in order, whether they call out of turn before the player to
        move acts (empty before the opening bid, between rounds and once over): the kernel's
        :meth:`RoundRules.offers <perudo_rules.kernel.RoundRules.offers>`."""
        rr = self._round
        if rr is None or self.to_move is None or not self.bids or self.winner is not None:
            return ()
        return rr.offers(self.to_move, self.bids[-1].player)

    def returns(self) -> tuple[float, ...]:
        """What the game is worth to each seat, zero-sum: +1 for the winner, ``-1/(n-1)``
        for every other seat once over, 0 for all before (:func:`perudo_rules.kernel.returns`)."""
        return returns(self.winner, self.players)

    # --- transitions --------------------------------------------------------------------

    def apply(self, action: Action) -> Game:
        """The game after ``action``; raises :class:`IllegalAction` naming the rule broken."""
        rr = self._round
        to_move = self.to_move
        # no round rules: awaiting a roll or over (violation() says which)
        bad = self.violation(action) if rr is None or to_move is None else rr.verdict(
            to_move, self.bids, action
        )
        if bad is not None:
            raise IllegalAction(bad[0], bad[1])
        assert rr is not None and to_move is not None
        if type(action) is Bid:
            return _make_game(
                self.variant, self.dice, self.dice_counts, rr.successor[action.player],
                (*self.bids, action), self.palifico, self.palifico_player, self.round,
                self.palifico_used, self.history, self.last_result, None, self.first_player, rr,
            )  # fmt: skip
        assert type(action) is Dudo or type(action) is Calza
        return self._resolve(rr, action, to_move)

    def _resolve(self, rr: RoundRules, action: Dudo | Calza, to_move: int) -> Game:
        bid = self.bids[-1]
        caller = action.player
        dice = self.dice
        dudo = type(action) is Dudo
        count = rr.count(dice, bid.face)
        order = rr.reveal(dice, caller, dudo, bid)
        s = rr.settle(dudo, caller, bid, count, to_move)
        lost = rr.lost(s.counts, s.loser)
        shown = tuple([dice[x] for x in order])
        result = _make_result(
            "dudo" if dudo else "calza", bid, count, s.loser, s.gainer, order,
            shown, s.next_player, caller, s.next_palifico, lost, rr.shown_count(shown, bid.face),
        )  # fmt: skip
        assert self.first_player is not None
        record = _make_record(
            self.round, self.first_player, self.palifico, dice, (*self.bids, action), result,
            self.palifico_used,
        )  # fmt: skip
        return _make_game(
            self.variant, (_EMPTY,) * len(s.counts), s.counts, None, self.bids, s.next_palifico,
            s.next_player if s.next_palifico else None, self.round, s.used,
            (*self.history, record), result, s.winner, self.first_player, None,
        )  # fmt: skip

    def roll(
        self,
        dice: Sequence[Sequence[int]] | None = None,
        seed: int | None = None,
        rng: random.Random | None = None,
    ) -> Game:
        """Start the next round: with explicit ``dice`` (one list per seat, ``[]`` for out
        seats), or rolled from ``seed`` / ``rng`` seat by seat."""
        if self.winner is not None:
            raise IllegalAction("play.game_over", f"the game is over; seat {self.winner} won")
        if self.to_move is not None:
            raise IllegalAction("play.roll", "the dice are rolled only between rounds")
        rules = self.rules
        counts = self.dice_counts
        faces = rules.dice_faces
        if dice is None:
            cups = roll_cups(faces, counts, rng if rng is not None else random.Random(seed))
        else:
            if len(dice) != len(counts):
                raise ValueError(f"dice for {len(dice)} seats; the table has {len(counts)}")
            cups = tuple(tuple(int(d) for d in cup) for cup in dice)
            for seat, (cup, c) in enumerate(zip(cups, counts, strict=True)):
                if len(cup) != c:
                    raise ValueError(f"seat {seat} holds {c} dice, not {len(cup)}")
                if any(not 1 <= d <= faces for d in cup):
                    raise ValueError(f"seat {seat}: a die outside 1..{faces}")
        assert self.last_result is not None and self.last_result.next_player is not None
        first = self.last_result.next_player
        nxt = self.round + 1
        pal, owner = self.palifico, self.palifico_player
        rr = round_rules(rules, counts, pal, nxt, owner, self.palifico_used)
        return _make_game(
            self.variant, cups, counts, first, (), self.palifico, self.palifico_player, nxt,
            self.palifico_used, self.history, self.last_result, None, first, rr,
        )  # fmt: skip

    # --- views for one seat -------------------------------------------------------------

    def observation(self, player: int) -> Observation:
        """What seat ``player`` may see: own dice, dice counts, bids, lifted cups of past rounds."""
        if not 0 <= player < self.players:
            raise ValueError(f"no seat {player}")
        return Observation(
            player=player,
            dice=self.dice[player],
            dice_counts=self.dice_counts,
            round=self.round,
            to_move=self.to_move,
            palifico=self.palifico,
            palifico_player=self.palifico_player,
            bids=self.bids if self.to_move is not None else (),
            past_rounds=tuple([r.seen_by(player) for r in self.history]),
            winner=self.winner,
        )


# --- fast construction --------------------------------------------------------------------
# The transitions build one Game per action; setting the slots directly (each field's
# descriptor, looked up by name) costs half the dataclass ``__init__``. The result is the
# same frozen value; tests/test_engine.py checks that the builders set every field.
_new_object = object.__new__


def _setters(cls: type, names: str) -> tuple[Any, ...]:
    """The slot setters of ``cls``'s fields ``names``, looked up by name."""
    return tuple(cls.__dict__[n].__set__ for n in names.split())


(_set_variant, _set_dice, _set_dice_counts, _set_to_move, _set_bids, _set_palifico,
 _set_palifico_player, _set_round, _set_palifico_used, _set_history, _set_last_result,
 _set_winner, _set_first_player, _set_round_rules) = _setters(
    Game, " ".join(f.name for f in fields(Game))  # every field, in declaration order
)  # fmt: skip


def _make_game(
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
    round_rules: RoundRules | None,
) -> Game:
    """``Game(...)`` with every field given, without the dataclass ``__init__``."""
    g: Game = _new_object(Game)
    _set_variant(g, variant)
    _set_dice(g, dice)
    _set_dice_counts(g, dice_counts)
    _set_to_move(g, to_move)
    _set_bids(g, bids)
    _set_palifico(g, palifico)
    _set_palifico_player(g, palifico_player)
    _set_round(g, round)
    _set_palifico_used(g, palifico_used)
    _set_history(g, history)
    _set_last_result(g, last_result)
    _set_winner(g, winner)
    _set_first_player(g, first_player)
    _set_round_rules(g, round_rules)
    return g


(_r_kind, _r_bid, _r_count, _r_loser, _r_gainer, _r_revealed, _r_shown, _r_next, _r_caller,
 _r_pal, _r_lost, _r_shown_count) = _setters(
    RoundResult,
    "kind bid count loser gainer revealed shown next_player caller next_palifico lost shown_count",
)  # fmt: skip
_h_round, _h_first, _h_pal, _h_dice, _h_actions, _h_result, _h_used = _setters(
    RoundRecord, "round first_player palifico dice actions result palifico_used"
)
_h_views = RoundRecord.__dict__["_views"].__set__
_h_hash = RoundRecord.__dict__["_hash"].__set__


def _make_result(
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
    """``RoundResult(...)`` with every field given, without the dataclass ``__init__``."""
    r: RoundResult = _new_object(RoundResult)
    _r_kind(r, kind)
    _r_bid(r, bid)
    _r_count(r, count)
    _r_loser(r, loser)
    _r_gainer(r, gainer)
    _r_revealed(r, revealed)
    _r_shown(r, shown)
    _r_next(r, next_player)
    _r_caller(r, caller)
    _r_pal(r, next_palifico)
    _r_lost(r, lost)
    _r_shown_count(r, shown_count)
    return r


def _make_record(
    round: int,
    first_player: int,
    palifico: bool,
    dice: tuple[tuple[int, ...], ...],
    actions: tuple[Action, ...],
    result: RoundResult,
    palifico_used: frozenset[int],
) -> RoundRecord:
    """``RoundRecord(...)`` with every field given, without the dataclass ``__init__``."""
    h: RoundRecord = _new_object(RoundRecord)
    _h_round(h, round)
    _h_first(h, first_player)
    _h_pal(h, palifico)
    _h_dice(h, dice)
    _h_actions(h, actions)
    _h_result(h, result)
    _h_used(h, palifico_used)
    _h_views(h, None)
    _h_hash(h, None)
    return h
