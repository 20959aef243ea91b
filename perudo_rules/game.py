"""The engine: an immutable :class:`Game` value and pure transitions.

``game.apply(action)`` returns a new game and leaves ``game`` unchanged.
Rolling the dice is an explicit chance step: after a Dudo or Calza resolves,
``awaiting_roll`` is true until ``game.roll(...)`` starts the next round.

Legality is arithmetic on bid ranks (:mod:`perudo_rules.ranks`): ``is_legal``
costs the same at 10 or 300 dice, and :meth:`Game.legal_actions` is a lazy
view that answers ``len``, indexing, ``in`` and iteration without building
every action. Every refusal names its rule id: a knob path, or a fixed rule of
``spec/core-rules.yaml``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, overload

from perudo_rules.actions import Action, Bid, Calza, Dudo
from perudo_rules.errors import IllegalAction
from perudo_rules.ranks import BidSpace, bid_space
from perudo_rules.variant import Ruleset, Variant

__all__ = [
    "Game",
    "LegalActions",
    "Observation",
    "PastRound",
    "RoundRecord",
    "RoundResult",
    "roll_die",
]


def roll_die(rng: random.Random, faces: int) -> int:
    """One die roll from ``rng``.

    Uses only ``rng.random()``, whose sequence Python guarantees for a given
    seed on every platform and version, so the same seed gives the same game.
    """
    return int(rng.random() * faces) + 1


def _opening(
    rules: Ruleset, players: int, rng: random.Random
) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Who opens a new game and every seat's dice, drawn from ``rng`` as :meth:`Game.new` does.

    The edition's roll-off first (ties re-rolled among the tied, in seat order), then
    ``dice.per_player`` dice seat by seat, each :func:`roll_die`.
    """
    faces = rules.faces
    rand = rng.random
    first = 0
    if rules.first_player == "roll_off":
        tied = list(range(players))
        while len(tied) > 1:
            totals = [sum(int(rand() * faces) + 1 for _ in range(rules.rolloff_dice)) for _ in tied]
            best = max(totals)
            tied = [s for s, t in zip(tied, totals, strict=True) if t == best]
        first = tied[0]
    per = rules.per_player
    flat = [int(rand() * faces) + 1 for _ in range(players * per)]  # seat by seat
    cups = tuple([tuple(flat[i : i + per]) for i in range(0, players * per, per)])
    return first, cups


def _cup_count(cup: tuple[int, ...], face: int, wild: int | None) -> int:
    """Dice of ``cup`` that count as ``face``: the face itself, and the wild face if any
    (a bid on the wild face counts only wilds)."""
    if wild is None or face == wild:
        return cup.count(face)
    return cup.count(face) + cup.count(wild)


def _next_seat(counts: tuple[int, ...], step: int, seat: int) -> int:
    """The next seat after ``seat`` holding dice, ``step`` (+1 or -1) at a time."""
    n = len(counts)
    s = seat
    for _ in range(n):
        s = (s + step) % n
        if counts[s]:
            return s
    raise ValueError("no seat holds dice")  # pragma: no cover - a game always has two


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended.

    ``kind`` is ``"dudo"`` or ``"calza"``; ``count`` the true number of dice
    matching ``bid`` (the referee's view); ``revealed`` the seats whose cups
    were lifted, in order, and ``shown`` their dice; ``loser``/``gainer`` the
    seat that lost/gained a die or ``None``; ``next_player`` who opens the next
    round (``None`` when the game is over); ``caller`` who called;
    ``next_palifico`` whether the next round is a palifico round.
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


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """A finished round: its dice, opener, kind, actions in order and result."""

    round: int
    first_player: int
    palifico: bool
    dice: tuple[tuple[int, ...], ...]
    actions: tuple[Action, ...]
    result: RoundResult


@dataclass(frozen=True, slots=True)
class PastRound:
    """What one seat saw of a finished round: public actions, lifted cups, its own dice."""

    round: int
    first_player: int
    palifico: bool
    actions: tuple[Action, ...]
    kind: str
    caller: int | None
    loser: int | None
    gainer: int | None
    revealed: tuple[int, ...]
    shown: tuple[tuple[int, ...], ...]
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

# Every seat's view of a finished round, built once per RoundRecord: history tuples are
# shared by all later states, so observing a long game does not rebuild its past rounds.
# A bounded memo keyed by identity (the record is kept, so an id is never reused while
# its entry lives); the views are immutable values like the records themselves.
_SEEN: dict[int, tuple[RoundRecord, tuple[PastRound, ...]]] = {}
_SEEN_MAX = 4096


def _seen(record: RoundRecord) -> tuple[PastRound, ...]:
    """:class:`PastRound` views of ``record`` for every seat, memoised."""
    hit = _SEEN.get(id(record))
    if hit is not None and hit[0] is record:
        return hit[1]
    res = record.result
    views = tuple(
        PastRound(
            round=record.round,
            first_player=record.first_player,
            palifico=record.palifico,
            actions=record.actions,
            kind=res.kind,
            caller=res.caller,
            loser=res.loser,
            gainer=res.gainer,
            revealed=res.revealed,
            shown=res.shown,
            next_player=res.next_player,
            own_dice=own,
        )
        for own in record.dice
    )
    if len(_SEEN) >= _SEEN_MAX:
        del _SEEN[next(iter(_SEEN))]
    _SEEN[id(record)] = (record, views)
    return views


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
    _space: BidSpace | None = field(default=None, compare=False)

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
        if not rules.min_players <= n <= rules.max_players:
            raise ValueError(
                f"{n} seats; {variant.id} plays with {rules.min_players} to {rules.max_players}"
            )
        cups = tuple(tuple(int(d) for d in cup) for cup in dice)
        for seat, cup in enumerate(cups):
            if len(cup) > rules.max_dice:
                raise ValueError(f"seat {seat} holds {len(cup)} dice; the most is {rules.max_dice}")
            for d in cup:
                if not 1 <= d <= rules.faces:
                    raise ValueError(f"seat {seat}: {d} is not a face of a d{rules.faces}")
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
            if not rules.palifico:
                raise ValueError(f"{variant.id} has no palifico rounds")
            if counts[first_player] != 1:
                raise ValueError("a palifico round is opened by a seat holding exactly one die")
            used = used | {first_player}
        return cls(
            variant=variant,
            dice=cups,
            dice_counts=counts,
            to_move=first_player,
            palifico=palifico,
            palifico_player=first_player if palifico else None,
            round=round,
            palifico_used=used,
            first_player=first_player,
            _space=bid_space(rules, sum(counts), palifico),
        )

    @classmethod
    def new(cls, variant: Variant, players: int, seed: int | None = None) -> Game:
        """A new game: every seat holds ``dice.per_player`` dice, rolled from ``seed``.

        ``random.Random(seed)`` first settles who opens (the edition's roll-off,
        ties re-rolled among the tied, in seat order), then rolls the dice seat by seat.
        """
        rules = variant.rules
        if not rules.min_players <= players <= rules.max_players:
            raise ValueError(
                f"{players} players; {variant.id} plays with "
                f"{rules.min_players} to {rules.max_players}"
            )
        first, cups = _opening(rules, players, random.Random(seed))
        if cls is Game and players >= 2 and cups[0]:
            # The dice are valid by construction: skip start()'s checks.
            return _make_game(
                variant,
                cups,
                (rules.per_player,) * players,
                first,
                (),
                False,
                None,
                1,
                frozenset(),
                (),
                None,
                None,
                first,
                bid_space(rules, players * rules.per_player, False),
            )
        return cls.start(variant, cups, first)

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
        if self._space is None:
            return bid_space(self.rules, self.dice_in_play, self.palifico)
        return self._space

    @property
    def wilds_active(self) -> bool:
        """Whether the wild face counts as every face in this round."""
        return self.space.wild is not None

    def rank(self, bid: Bid) -> int | None:
        """The rank of ``bid`` in this round (``None`` if it is out of range)."""
        return self.space.rank(bid.quantity, bid.face)

    def count(self, face: int) -> int:
        """The true number of dice on the table that count as ``face`` this round."""
        wild = self.space.wild
        total = 0
        for cup in self.dice:
            total += _cup_count(cup, face, wild)
        return total

    def next_seat(self, seat: int) -> int:
        """The next seat after ``seat`` with dice, in the direction of play."""
        return _next_seat(self.dice_counts, self.variant.rules.step, seat)

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

    # --- legality -----------------------------------------------------------------------

    def _face_free(self, player: int) -> bool:
        lock = self.rules.face_lock
        return lock == "free" or (
            lock == "locked_except_single_die" and self.dice_counts[player] == 1
        )

    def _wild_banned(self) -> bool:
        opening = self.rules.wild_opening
        if self.palifico or opening == "allowed":
            return False
        if opening == "not_as_opening_bid":
            return not self.bids
        return self.round == 1

    def violation(self, action: Any) -> tuple[str, str] | None:
        """``None`` if ``action`` is legal now, else ``(rule id, reason)``."""
        if self.winner is not None:
            return "play.game_over", f"the game is over; seat {self.winner} won"
        if self.to_move is None:
            return "play.roll", "the round is over; roll the dice for the next round first"
        kind = type(action)
        if kind is not Bid and kind is not Dudo and kind is not Calza:
            return "play.turn", f"{action!r} is not a Bid, Dudo or Calza"
        p = action.player
        counts = self.dice_counts
        if type(p) is not int or not 0 <= p < len(counts) or not counts[p]:
            return "play.seat", f"seat {p!r} is not a seat with dice"
        bids = self.bids
        if kind is Bid:
            return self._bid_violation(action)
        if not bids:
            return (
                "play.bid_needed",
                f"there is no bid to {'doubt' if kind is Dudo else 'match'} yet",
            )
        bidder = bids[-1].player
        rules = self.rules
        if kind is Dudo:
            who = rules.challenge_who
            if who == "player_to_move" and p != self.to_move:
                return (
                    "challenge.who",
                    f"only seat {self.to_move}, the player to move, may call Dudo",
                )
            if p == bidder:
                return "challenge.who", "the bidder may not doubt their own bid"
            return None
        if not rules.calza:
            return "calza.enabled", "this variant has no Calza"
        who = rules.calza_who
        if p == bidder:
            return "calza.who", "the bidder may not call Calza on their own bid"
        if who == "any_except_bidder_and_next" and p == self.to_move:
            return "calza.who", "the player to move may not call Calza"
        if who == "player_to_move" and p != self.to_move:
            return "calza.who", f"only seat {self.to_move}, the player to move, may call Calza"
        return None

    def _bid_violation(self, bid: Bid) -> tuple[str, str] | None:
        if bid.player != self.to_move:
            return "play.turn", f"it is seat {self.to_move}'s turn, not seat {bid.player}'s"
        q, f = bid.quantity, bid.face
        space = self.space
        if type(q) is not int or type(f) is not int or q < 1 or not 1 <= f <= space.faces:
            return "play.bid_range", f"{q!r}x{f!r} is not a bid on a d{space.faces}"
        if q > space.cap:
            return "bidding.quantity_cap", f"only {space.cap} dice are in play; {q} is too many"
        wild = space.wild
        if f == wild and self._wild_banned():
            when = (
                "as the opening bid"
                if self.rules.wild_opening == "not_as_opening_bid"
                else ("in the first round")
            )
            return "bidding.wild_opening", f"no bid on the wild face {when}"
        if not self.bids:
            return None
        cur = self.bids[-1]
        if self.palifico and f != cur.face and not self._face_free(bid.player):
            return "palifico.face_lock", f"in this palifico round the face stays {cur.face}"
        rank = space._rank[(q, f)]
        if rank > space._rank[(cur.quantity, cur.face)]:
            return None
        k = self.rules.wild_worth
        if (
            (f == wild) != (cur.face == wild)
            and self.rules.order == "quantity_then_face"
            # with worth 1 a wild on the highest face ranks as that face: plain order
            and not (k == 1 and wild == space.faces)
        ):
            if f == wild:
                need = -(-cur.quantity // k)
                return "bidding.wild_worth", f"after {cur} a wild bid needs at least {need} dice"
            return "bidding.wild_worth", (
                f"after {cur} an ordinary bid needs at least {k * cur.quantity + 1} dice"
            )
        return "bidding.order", f"{q}x{f} does not raise the standing bid {cur}"

    def is_legal(self, action: Any) -> bool:
        """Whether ``action`` may be taken now; agrees exactly with :meth:`legal_actions`."""
        return self.violation(action) is None

    def legal_actions(self) -> LegalActions:
        """Every action any seat may take now, out-of-turn Calza included (a lazy view)."""
        return LegalActions(self)

    # --- transitions --------------------------------------------------------------------

    def apply(self, action: Action) -> Game:
        """The game after ``action``; raises :class:`IllegalAction` naming the rule broken."""
        if type(action) is Bid and not self.palifico and self.winner is None:
            # The common case, a raise outside palifico rounds: decided by the ranks alone
            # here, anything else goes to :meth:`violation` (same answers, more checks).
            p, q, f = action.player, action.quantity, action.face
            space = self._space
            counts = self.dice_counts
            if (
                p == self.to_move
                and space is not None
                and type(p) is int
                and type(q) is int
                and type(f) is int
                and 0 <= p < len(counts)
                and counts[p]
            ):
                rank = space._rank.get((q, f))
                bids = self.bids
                if (
                    rank is not None
                    and (
                        f != space.wild
                        or space.wild_opening == "allowed"
                        or not self._wild_banned()
                    )
                    and (not bids or rank > space._rank[(bids[-1].quantity, bids[-1].face)])
                ):
                    n = len(counts)
                    nxt = (p + self.variant.rules.step) % n
                    return _make_game(
                        self.variant,
                        self.dice,
                        counts,
                        nxt if counts[nxt] else self.next_seat(p),
                        (*bids, action),
                        False,
                        self.palifico_player,
                        self.round,
                        self.palifico_used,
                        self.history,
                        self.last_result,
                        None,
                        self.first_player,
                        space,
                    )
        if (
            type(action) is Dudo
            and self.bids
            and self.winner is None
            and action.player == self.to_move
            and type(action.player) is int
            and 0 <= action.player < len(self.dice_counts)
            and self.dice_counts[action.player]
            and action.player != self.bids[-1].player
            and self.variant.rules.challenge_who == "player_to_move"
        ):
            return self._resolve(action)  # the player to move doubts: legal, as violation() says
        bad = self.violation(action)
        if bad is not None:
            raise IllegalAction(bad[0], bad[1])
        if isinstance(action, Bid):
            return _make_game(
                self.variant,
                self.dice,
                self.dice_counts,
                self.next_seat(action.player),
                (*self.bids, action),
                self.palifico,
                self.palifico_player,
                self.round,
                self.palifico_used,
                self.history,
                self.last_result,
                None,
                self.first_player,
                self._space,
            )
        return self._resolve(action)

    def _reveal_order(self, caller: int, caller_first: bool) -> list[int]:
        counts = self.dice_counts
        n = len(counts)
        step = self.variant.rules.step
        start = caller if caller_first else caller + step
        seats = [(start + step * i) % n for i in range(n)]
        return [s for s in seats if counts[s]]

    def _resolve(self, action: Dudo | Calza) -> Game:
        rules = self.variant.rules
        bid = self.bids[-1]
        caller = action.player
        dice = self.dice
        wild = self.space.wild
        count = 0
        for cup in dice:
            count += _cup_count(cup, bid.face, wild)
        if type(action) is Dudo:
            kind = "dudo"
            order = self._reveal_order(caller, caller_first=False)
            if rules.early_stop:
                running = 0
                lifted = []
                for s in order:
                    lifted.append(s)
                    running += _cup_count(dice[s], bid.face, wild)
                    if running >= bid.quantity:
                        break
                order = lifted
        else:
            kind = "calza"
            order = self._reveal_order(caller, caller_first=True)
        assert self.to_move is not None
        new_counts, loser, gainer, winner, next_player, next_palifico, used = _settle(
            rules, self.dice_counts, kind, caller, bid, count, self.to_move, self.palifico_used
        )
        # RoundResult(kind, bid, count, loser, gainer, revealed, shown, next_player, caller,
        # next_palifico) and RoundRecord(round, first_player, palifico, dice, actions, result)
        result = _make_result(
            kind,
            bid,
            count,
            loser,
            gainer,
            tuple(order),
            tuple([dice[s] for s in order]),
            next_player,
            caller,
            next_palifico,
        )
        assert self.first_player is not None
        record = _make_record(
            self.round, self.first_player, self.palifico, dice, (*self.bids, action), result
        )
        return _make_game(
            self.variant,
            (_EMPTY,) * len(new_counts),
            new_counts,
            None,
            self.bids,
            next_palifico,
            next_player if next_palifico else None,
            self.round,
            used,
            (*self.history, record),
            result,
            winner,
            self.first_player,
            None,
        )

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
        if dice is None:
            r = rng if rng is not None else random.Random(seed)
            rand, faces = r.random, rules.faces  # roll_die, seat by seat, inlined
            cups = tuple([tuple([int(rand() * faces) + 1 for _ in range(c)]) for c in counts])
        else:
            if len(dice) != len(counts):
                raise ValueError(f"dice for {len(dice)} seats; the table has {len(counts)}")
            cups = tuple(tuple(int(d) for d in cup) for cup in dice)
            for seat, (cup, c) in enumerate(zip(cups, counts, strict=True)):
                if len(cup) != c:
                    raise ValueError(f"seat {seat} holds {c} dice, not {len(cup)}")
                if any(not 1 <= d <= rules.faces for d in cup):
                    raise ValueError(f"seat {seat}: a die outside 1..{rules.faces}")
        assert self.last_result is not None and self.last_result.next_player is not None
        first = self.last_result.next_player
        return _make_game(
            self.variant,
            cups,
            counts,
            first,
            (),
            self.palifico,
            self.palifico_player,
            self.round + 1,
            self.palifico_used,
            self.history,
            self.last_result,
            None,
            first,
            bid_space(rules, sum(counts), self.palifico),
        )

    def record(self) -> dict[str, Any]:
        """The game so far as a JSON-ready record (see :mod:`perudo_rules.record`)."""
        from perudo_rules.record import export

        return export(self)

    # --- views for one seat -------------------------------------------------------------

    def observation(self, player: int) -> Observation:
        """What seat ``player`` may see: own dice, dice counts, bids, lifted cups of past rounds."""
        if not 0 <= player < self.players:
            raise ValueError(f"no seat {player}")
        past = tuple(_seen(r)[player] for r in self.history)
        return Observation(
            player=player,
            dice=self.dice[player],
            dice_counts=self.dice_counts,
            round=self.round,
            to_move=self.to_move,
            palifico=self.palifico,
            palifico_player=self.palifico_player,
            bids=self.bids if self.to_move is not None else (),
            past_rounds=past,
            winner=self.winner,
        )


_GAME_FIELDS = (
    "variant",
    "dice",
    "dice_counts",
    "to_move",
    "bids",
    "palifico",
    "palifico_player",
    "round",
    "palifico_used",
    "history",
    "last_result",
    "winner",
    "first_player",
    "_space",
)
if tuple(f.name for f in fields(Game)) != _GAME_FIELDS:  # pragma: no cover - a guard
    raise RuntimeError("Game's fields changed: update _GAME_FIELDS and _make_game")
_new_object = object.__new__
(
    _set_variant,
    _set_dice,
    _set_dice_counts,
    _set_to_move,
    _set_bids,
    _set_palifico,
    _set_palifico_player,
    _set_round,
    _set_palifico_used,
    _set_history,
    _set_last_result,
    _set_winner,
    _set_first_player,
    _set_space,
) = (Game.__dict__[name].__set__ for name in _GAME_FIELDS)


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
    space: BidSpace | None,
) -> Game:
    """``Game(...)`` with every field given, without the dataclass ``__init__``.

    The engine's transitions build a game per action; filling the slots directly
    halves that cost. The result is the same frozen value (equality and hash
    come from the fields, which are all set).
    """
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
    _set_space(g, space)
    return g


(
    _set_r_kind,
    _set_r_bid,
    _set_r_count,
    _set_r_loser,
    _set_r_gainer,
    _set_r_revealed,
    _set_r_shown,
    _set_r_next_player,
    _set_r_caller,
    _set_r_next_palifico,
) = (RoundResult.__dict__[f.name].__set__ for f in fields(RoundResult))
(
    _set_h_round,
    _set_h_first_player,
    _set_h_palifico,
    _set_h_dice,
    _set_h_actions,
    _set_h_result,
) = (RoundRecord.__dict__[f.name].__set__ for f in fields(RoundRecord))


def _settle(
    rules: Ruleset,
    dice_counts: tuple[int, ...],
    kind: str,
    caller: int,
    bid: Bid,
    count: int,
    to_move: int,
    used: frozenset[int],
) -> tuple[tuple[int, ...], int | None, int | None, int | None, int | None, bool, frozenset[int]]:
    """How a Dudo (``kind="dudo"``) or Calza settles, given the true ``count``.

    Rules ``play.dudo``, ``play.calza`` (with ``calza.gain_cap``), ``round.starter``,
    ``calza.next_starts``, ``play.next_seat``, ``play.elimination``, ``end.condition``
    and the palifico knobs, in one place for the step API and the fast path. Returns the
    new dice counts, loser, gainer, winner, who opens the next round (``None`` once the
    game is over), whether that round is palifico, and the seats that had theirs.
    """
    counts = list(dice_counts)
    loser: int | None = None
    gainer: int | None = None
    if kind == "dudo":
        loser = caller if count >= bid.quantity else bid.player
        winner_of_challenge = bid.player if loser == caller else caller
        counts[loser] -= 1
        starter = loser if rules.round_starter == "loser" else winner_of_challenge
    else:
        if count == bid.quantity:
            if counts[caller] < min(rules.calza_gain_cap, rules.max_dice):
                gainer = caller
                counts[caller] += 1
        else:
            loser = caller
            counts[caller] -= 1
        starter = caller if rules.calza_next == "caller" else to_move
    new_counts = tuple(counts)
    alive = len(new_counts) - new_counts.count(0)
    winner: int | None = None
    if alive == 1 or rules.single_round:
        for s, c in enumerate(new_counts):  # the first seat with dice (not the loser)
            if c and (alive == 1 or s != loser):
                winner = s
                break
    next_player: int | None = None
    next_palifico = False
    if winner is None:
        if not new_counts[starter]:
            starter = _next_seat(new_counts, rules.step, starter)
        candidate: int | None = None
        if rules.palifico and (rules.palifico_heads_up or alive > 2):
            if rules.palifico_trigger == "reduced_to_one":
                if loser is not None and new_counts[loser] == 1:
                    candidate = loser
            elif new_counts[starter] == 1:
                candidate = starter
        if candidate is not None and not (rules.palifico_once and candidate in used):
            next_palifico = True
            starter = candidate
            used = used | {candidate}
        next_player = starter
    return new_counts, loser, gainer, winner, next_player, next_palifico, used


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
) -> RoundResult:
    """``RoundResult(...)`` with every field given, without the dataclass ``__init__``."""
    r: RoundResult = _new_object(RoundResult)
    _set_r_kind(r, kind)
    _set_r_bid(r, bid)
    _set_r_count(r, count)
    _set_r_loser(r, loser)
    _set_r_gainer(r, gainer)
    _set_r_revealed(r, revealed)
    _set_r_shown(r, shown)
    _set_r_next_player(r, next_player)
    _set_r_caller(r, caller)
    _set_r_next_palifico(r, next_palifico)
    return r


def _make_record(
    round: int,
    first_player: int,
    palifico: bool,
    dice: tuple[tuple[int, ...], ...],
    actions: tuple[Action, ...],
    result: RoundResult,
) -> RoundRecord:
    """``RoundRecord(...)`` with every field given, without the dataclass ``__init__``."""
    h: RoundRecord = _new_object(RoundRecord)
    _set_h_round(h, round)
    _set_h_first_player(h, first_player)
    _set_h_palifico(h, palifico)
    _set_h_dice(h, dice)
    _set_h_actions(h, actions)
    _set_h_result(h, result)
    return h


_RESULT_FIELDS = "kind bid count loser gainer revealed shown next_player caller next_palifico"
if [f.name for f in fields(RoundResult)] != _RESULT_FIELDS.split() or [
    f.name for f in fields(RoundRecord)
] != ["round", "first_player", "palifico", "dice", "actions", "result"]:  # pragma: no cover
    raise RuntimeError("RoundResult/RoundRecord fields changed: update Game._resolve")

_set_bid_player, _set_bid_quantity, _set_bid_face = (
    Bid.__dict__[name].__set__ for name in ("player", "quantity", "face")
)
if tuple(f.name for f in fields(Bid)) != ("player", "quantity", "face"):  # pragma: no cover
    raise RuntimeError("Bid's fields changed: update _make_bid")


def _make_bid(player: int | None, quantity: int, face: int) -> Bid:
    """``Bid(player, quantity, face)`` for known-good values, without ``__init__``."""
    b: Bid = _new_object(Bid)
    _set_bid_player(b, player)
    _set_bid_quantity(b, quantity)
    _set_bid_face(b, face)
    return b


_DUDOS = tuple(Dudo(s) for s in range(64))
_CALZAS = tuple(Calza(s) for s in range(64))
_DUDO_ONLY: tuple[tuple[Action, ...], ...] = tuple((d,) for d in _DUDOS)


def _dudo(seat: int) -> Dudo:
    return _DUDOS[seat] if 0 <= seat < 64 else Dudo(seat)


def _calza(seat: int) -> Calza:
    return _CALZAS[seat] if 0 <= seat < 64 else Calza(seat)


_CALLS: dict[tuple[str, bool, str, tuple[int, ...], int, int], tuple[Action, ...]] = {}


def _calls(
    rules: Ruleset, counts: tuple[int, ...], to_move: int, bidder: int
) -> tuple[Action, ...]:
    """The Dudo calls, then the Calza calls, open after ``bidder``'s bid (by seat; cached)."""
    if not rules.calza and rules.challenge_who == "player_to_move" and 0 <= to_move < 64:
        return _DUDO_ONLY[to_move]
    key = (rules.challenge_who, rules.calza, rules.calza_who, counts, to_move, bidder)
    hit = _CALLS.get(key)
    if hit is not None:
        return hit
    seats = range(len(counts))
    extras: list[Action]
    if rules.challenge_who == "player_to_move":
        extras = [_dudo(to_move)]
    else:
        extras = [_dudo(s) for s in seats if counts[s] and s != bidder]
    if rules.calza:
        who = rules.calza_who
        if who == "player_to_move":
            if counts[to_move] and to_move != bidder:
                extras.append(_calza(to_move))
        else:
            skip = to_move if who == "any_except_bidder_and_next" else -1
            extras += [_calza(s) for s in seats if counts[s] and s != bidder and s != skip]
    if len(_CALLS) >= 50_000:
        _CALLS.clear()
    out = _CALLS[key] = tuple(extras)
    return out


class LegalActions(Sequence[Action]):
    """The legal actions of a position, as a lazy sequence.

    Bids of the player to move come first in rank order, then Dudo calls,
    then Calza calls, each by seat. ``len``, indexing and ``in`` cost O(1)
    (``in`` is :meth:`Game.is_legal`); nothing is built until asked for.
    """

    __slots__ = ("_extras", "_game", "_nb", "_ranks", "_space", "_to_move")

    def __init__(self, game: Game) -> None:
        self._game = game
        space = game._space
        if space is None:
            space = game.space
        self._space = space
        to_move = game.to_move
        self._to_move = to_move
        self._extras: tuple[Action, ...] = ()
        if to_move is None:
            self._ranks: Sequence[int] = ()
            self._nb = 0
            return
        bids = game.bids
        if not bids:
            if space.wild_opening != "allowed" and game._wild_banned():
                ranks: Sequence[int] = space.nonwild_above(-1)
            else:
                ranks = space.all_ranks
            self._ranks = ranks
            self._nb = len(ranks)
            return
        cur = bids[-1]
        if game.palifico and not game._face_free(to_move):
            ranks = space.same_face_above(cur.quantity, cur.face)
        elif space.wild_opening != "allowed" and game._wild_banned():
            ranks = space.nonwild_above(space._rank[(cur.quantity, cur.face)])
        else:
            ranks = range(space._rank[(cur.quantity, cur.face)] + 1, space.size)
        self._ranks = ranks
        self._nb = len(ranks)
        self._extras = _calls(game.variant.rules, game.dice_counts, to_move, cur.player)

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
            q, f = self._space.bids[self._ranks[i]]
            return _make_bid(self._to_move, q, f)
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        n = nb + len(self._extras)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        if i < nb:
            q, f = self._space.bids[self._ranks[i]]
            return _make_bid(self._to_move, q, f)
        return self._extras[i - nb]

    def __iter__(self) -> Iterator[Action]:
        to_move = self._game.to_move
        if to_move is not None:
            table = self._space.bids
            for r in self._ranks:
                q, f = table[r]
                yield Bid(to_move, q, f)
        yield from self._extras

    def __contains__(self, action: object) -> bool:
        return self._game.is_legal(action)

    def __repr__(self) -> str:
        return f"<LegalActions {len(self)} actions: {' '.join(map(str, self[:8]))}...>"
