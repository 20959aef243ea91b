"""The rules kernel: every rule that varies between editions, decided in one place.

Pure functions and precomputed per-round tables over compact values (bid ranks, tuples of
dice counts, flags). This module holds the rules of one round, :class:`RoundRules`: which
bids and calls are open, and why an action is refused. The modules beside it decide the
rest: how a game starts (:mod:`~perudo_rules.engine.start`), and, reading the round's
``RoundRules``, how a called round settles (:mod:`~perudo_rules.engine.settlement`), the
re-roll (:mod:`~perudo_rules.engine.reroll`) and a seat leaving
(:mod:`~perudo_rules.engine.leaving`). The step API (:class:`~perudo_rules.engine.game.Game`
and its ``LegalActions``), the fast path (:mod:`perudo_rules.engine.fastplay`) and the
OpenSpiel adapter all ask the kernel; none of them decides a rule itself. Each decision
names its rule id: a knob path of :mod:`perudo_rules.editions.knobs` or a fixed rule of
``spec/core-rules.yaml``. A verdict is ``None`` (legal, the cheap answer) or a
:class:`~perudo_rules.base.messages.Refusal`: the rule id, a message id and the values its
sentence is made of (built only to refuse).

The decision trace: every verdict below (:meth:`RoundRules.verdict`, ``bid_verdict``,
``call_verdict``, ``face_free``, ``count``; the re-roll's verdicts, ``settle`` and
:func:`~perudo_rules.engine.rounds.round_outcome`) takes an optional recorder of
:mod:`perudo_rules.engine.trace` and notes in it, in the same branches that decide, the
rules it reads and the one that decides: for a legal action the rule that allows it, for
a called round the rule behind each field of the outcome (``Game.decision``,
``Game.outcome_decision``). Without one (``None``) nothing is noted; the fast path of
``verdict`` runs only then.

Where each rule is decided (rule id: code; a name without its module is this module's):

* ``players.min``, ``players.max``: :func:`~perudo_rules.engine.start.seats_verdict`
* ``setup.first_player``, ``setup.rolloff_dice``, ``setup.rolloff_score``,
  ``setup.rolloff_wild_best``: :func:`~perudo_rules.engine.start.roll_off`
* ``play.roll``, ``dice.faces``: :func:`~perudo_rules.engine.start.roll_cups` (the faces also
  bound the bid table)
* the standard start of a game (``dice.per_player``, ``setup.first_player``):
  :func:`~perudo_rules.engine.start.opening` deals it,
  :func:`~perudo_rules.engine.start.opening_verdict`
  recognises it
* ``setup.direction``, ``play.next_seat``: :func:`~perudo_rules.engine.seats.next_seat`,
  :attr:`RoundRules.successor` (the tables rounds share: :mod:`perudo_rules.engine.seats`)
* ``wild.face``, ``palifico.wilds_count`` (the round's wild face, or none in a palifico
  round without wilds): ``RoundRules.wild``, from the bid table of :mod:`perudo_rules.engine.ranks`
* ``play.count`` (wilds, palifico wilds): :func:`count_matching`
* ``bidding.order``, ``bidding.wild_worth``, ``bidding.wild_rank``, ``bidding.quantity_cap``,
  ``bidding.quantity_limit``: the bid table of :mod:`perudo_rules.engine.ranks`;
  ``bidding.order: neither_decreases`` (a partial order) also in
  :meth:`RoundRules.bid_verdict` and :meth:`RoundRules.raise_ranks`; why a bid does not
  raise, and which rule lets one that does: :mod:`perudo_rules.engine.raises`
* ``bidding.wild_opening``, ``palifico.wild_bids``: :meth:`RoundRules.wild_banned`
* ``palifico.face_lock``, ``palifico.opener_may_change``: :meth:`RoundRules.face_free`
* which raises are open: :meth:`RoundRules.raise_ranks` (listed) and
  :meth:`RoundRules.bid_verdict` (explained), both from the two rules above and the ranks
* ``challenge.who``, ``calza.enabled``, ``calza.min_players``, ``calza.who``,
  ``calza.in_palifico``: :meth:`RoundRules.call_verdict`
  (and :meth:`RoundRules.calls`, which lists what it accepts)
* who is asked, and in what order, whether to call out of turn after a bid:
  :meth:`RoundRules.offers` (from :meth:`RoundRules.calls`)
* ``play.turn``, ``play.seat``, ``play.bid_needed``: :meth:`RoundRules.verdict`;
  ``play.bid_range`` (a face of the die, a quantity from 1 to
  :data:`~perudo_rules.base.limits.MAX_BID_QUANTITY`): :meth:`RoundRules.bid_verdict`
* ``reroll.enabled``, ``reroll.min_hidden``, ``reroll.limit``, ``play.reroll`` (which dice
  a re-roll may set aside): :func:`~perudo_rules.engine.reroll.reroll_verdict` (and
  :func:`~perudo_rules.engine.reroll.reroll_options`, which lists what it accepts);
  ``reroll.must_bid`` and who acts after a re-roll: :func:`~perudo_rules.engine.reroll.turn_verdict`
* ``play.reveal``, ``challenge.early_stop``, ``challenge.stop_when_unreachable``:
  :func:`~perudo_rules.engine.settlement.reveal`; what every seat learns at the reveal (the
  lifted cups and the count among them, never the closed cups):
  :func:`~perudo_rules.engine.settlement.shown_count`
* ``play.dudo``, ``challenge.loss``, ``challenge.exact``, ``play.calza``,
  ``round.starter``, ``calza.next_starts``, ``play.elimination``, ``end.condition``,
  ``palifico.enabled``, ``palifico.trigger``, ``palifico.once_per_player``,
  ``palifico.heads_up``: :func:`~perudo_rules.engine.settlement.settle` (and the dice each
  seat lost: :func:`~perudo_rules.engine.settlement.dice_lost`)
* ``calza.gain_cap`` (with ``dice.max_per_player``):
  :func:`~perudo_rules.engine.settlement.calza_gain_limit`
* ``play.leave`` (who may leave, and when): :meth:`RoundRules.verdict`, between rounds
  :func:`~perudo_rules.engine.leaving.between_verdict`; ``leave.round``,
  ``leave.next_starts`` (and the winner a leave leaves): :func:`perudo_rules.engine.leaving.leave`;
  the rest of a round a seat left (``leave.round: continues``):
  :func:`perudo_rules.engine.leaving.without`; a leave between rounds (who opens the round
  about to be rolled, whether it is palifico): :func:`~perudo_rules.engine.leaving.leave_between`
* what a finished game is worth to each seat (zero-sum):
  :func:`~perudo_rules.engine.settlement.returns`
* the most dice a seat can hold, and whether rounds can keep every die:
  :func:`~perudo_rules.engine.settlement.most_dice_per_seat`,
  :func:`~perudo_rules.engine.settlement.rounds_may_keep_dice`
* no rule: ``wild.name`` only names the wild face for people (descriptions, the spec)

The module is plain typed Python that ``mypyc`` compiles (``make bench`` measures that).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from perudo_rules.base.actions import Action, Bid, Calza, Dudo, Leave
from perudo_rules.base.limits import MAX_BID_QUANTITY
from perudo_rules.base.messages import Refusal, given
from perudo_rules.editions.ruleset import Ruleset
from perudo_rules.engine.raises import note_raise, order_refusal, partial_refusal
from perudo_rules.engine.ranks import BidSpace, bid_space
from perudo_rules.engine.seats import seats_of
from perudo_rules.engine.trace import Trace

__all__ = [
    "RoundRules",
    "count_matching",
    "round_rules",
]


# --- the count ----------------------------------------------------------------------


def count_matching(dice: Sequence[tuple[int, ...]], face: int, wild: int | None) -> int:
    """Dice on the table that count as ``face`` (``play.count``): the face itself and the
    wild face if wilds count this round; a bid on the wild face counts only wilds."""
    total = 0
    if wild is None or face == wild:
        for cup in dice:
            total += cup.count(face)
    else:
        for cup in dice:
            total += cup.count(face) + cup.count(wild)
    return total


# --- one round --------------------------------------------------------------------------


class RoundRules:
    """The rules of one round, precomputed once: everything needed to decide any action.

    Built by :func:`round_rules` (cached by value) from the ruleset, the dice counts at
    the round's start, whether it is a palifico round (and whose), whether it is the first
    round of the game, and the seats that already had their palifico round; ``table``
    (the round's bid table) is given only for the rest of a round a seat left
    (:func:`perudo_rules.engine.leaving.without`).
    """

    __slots__ = (
        "_calls",
        "_offers",
        "after_caller",
        "alive",
        "ban_later",
        "ban_open",
        "counts",
        "direction",
        "first_round",
        "locked",
        "n_calls",
        "one_die",
        "opening_ranks",
        "palifico",
        "palifico_player",
        "partial",
        "plain",
        "reroll",
        "reveal_orders",
        "rules",
        "single_losses",
        "successor",
        "table",
        "used",
        "views",
        "wild",
    )

    def __init__(
        self,
        rules: Ruleset,
        counts: tuple[int, ...],
        palifico: bool,
        first_round: bool,
        palifico_player: int | None,
        used: frozenset[int],
        table: BidSpace | None = None,
    ) -> None:
        self.rules = rules
        self.counts = counts
        self.palifico = palifico
        self.first_round = first_round
        self.palifico_player = palifico_player
        self.used = used
        self.direction = rules.direction
        # what depends only on which seats hold dice is shared by every round of those seats
        # (the successors, who may call and the offers, the reveal orders): see Seats
        alive = tuple([s for s, c in enumerate(counts) if c])
        seats = seats_of(rules, counts, alive, palifico)
        self.successor = seats.successor
        self.alive = seats.alive  # calza.min_players
        self._calls = seats.calls
        self._offers = seats.offers
        self.reveal_orders = seats.reveal_orders
        self.single_losses = seats.single_losses
        if table is None:
            table = bid_space(rules, sum(counts), palifico)
        self.table: BidSpace = table
        # palifico.wilds_count: in a palifico round without wilds the table has none
        self.wild: int | None = table.wild
        if palifico:  # palifico.wild_bids (bidding.wild_opening never applies here)
            wild_bids = rules.palifico_wild_bids
            banned = rules.wild is not None and wild_bids != "allowed"
            self.ban_later = banned and wild_bids == "forbidden"
            self.ban_open = banned
        else:  # bidding.wild_opening
            opening_rule = rules.bidding_wild_opening
            banned = rules.wild is not None
            self.ban_later = banned and opening_rule == "not_in_first_round" and first_round
            self.ban_open = self.ban_later or (banned and opening_rule == "not_as_opening_bid")
        self.locked = palifico and rules.palifico_face_lock != "free"
        # bidding.order neither_decreases: a partial order, decided by quantity and face
        self.partial = rules.bidding_order == "neither_decreases"
        # every rank above the standing bid is a legal raise for every seat
        self.plain = not self.ban_later and not self.locked and not self.partial
        self.opening_ranks: Sequence[int] = (
            table.nonwild_above(-1) if self.ban_open else table.all_ranks
        )
        # challenge.loss, challenge.exact: whether a Dudo costs exactly one die of one seat
        # (the settlement's shortcut, and the only reveal that may stop early)
        self.one_die = rules.challenge_loss == "one_die" and rules.challenge_exact == (
            "challenger_loses"
        )
        self.after_caller = rules.round_starter == "after_caller"  # round.starter
        self.reroll = rules.reroll_enabled  # reroll.*: perudo_rules.engine.reroll decides
        # the legal-action views of the round's positions (perudo_rules.engine.legal), kept
        # only for an opening round (round_rules sets it: every game of the edition and
        # seat count plays that round, so its positions recur); a later round's positions
        # seldom recur, and keeping their views cost more than building them anew (every
        # view kept is one more object for the cyclic collector to walk)
        self.views: dict[tuple[int, int, int, int], Any] | None = None
        # who may call is the same number of seats for any (player to move, bidder) pair
        if seats.n_calls < 0:
            seats.n_calls = len(self.calls(alive[1], alive[0])) if len(alive) > 1 else 0
        self.n_calls = seats.n_calls

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # pickled as the key it is built from (round_rules rebuilds it, or finds it cached)
        round_no = 1 if self.first_round else 2
        key = (self.rules, self.counts, self.palifico, round_no, self.palifico_player, self.used)
        return round_rules, key

    # --- bids ---------------------------------------------------------------------------

    def face_free(self, player: int, trace: Trace | None = None) -> bool:
        """Whether ``player`` may change the face in this palifico round: no lock
        (``palifico.face_lock: free``); the palifico player itself as
        ``palifico.opener_may_change`` says; any other seat as the lock's exception says
        (none, holding exactly one die, or having had its own palifico round). A ``trace``
        notes the rules read, and the one that frees the face when it is free."""
        rules = self.rules
        lock = rules.palifico_face_lock
        free = True
        rule = "palifico.face_lock"
        if lock == "free":
            pass
        elif player == self.palifico_player:
            rule = "palifico.opener_may_change"
            free = rules.palifico_opener_may_change
        else:
            single = self.counts[player] == 1
            former = player in self.used
            if lock == "locked_except_single_die":
                free = single
            elif lock == "locked_except_former_palifico":
                free = former
            else:
                free = lock == "locked_except_single_die_or_former_palifico" and (single or former)
        if trace is not None:
            trace.read("palifico.face_lock")
            if free:
                trace.decide(rule)
            else:
                trace.read(rule)
        return free

    def wild_banned(self, opening_bid: bool) -> bool:
        """Whether a bid on the wild face is forbidden now: ``bidding.wild_opening`` outside
        palifico rounds, ``palifico.wild_bids`` in them."""
        return self.ban_open if opening_bid else self.ban_later

    def raise_ranks(
        self, to_move: int, current: int, standing: tuple[int, int] | None = None
    ) -> Sequence[int]:
        """The ranks ``to_move`` may bid over the standing bid, ascending: ``current`` is
        its rank (-1: no bid yet). A standing bid beyond the table (``bidding.quantity_cap:
        none``) has no rank: pass its :meth:`~perudo_rules.engine.ranks.BidSpace.floor_rank` and
        ``standing``, its (quantity, face). The face lock and ``neither_decreases`` decide
        from that real bid, never from the table bid at the floor rank (which may have
        another face); the ordered branches compare keys, which the floor rank keeps.
        Beyond the table the listed raises are the table's; larger bids stay legal
        (:meth:`bid_verdict`) but are not listed."""
        if current < 0:
            return self.opening_ranks
        table = self.table
        if self.locked and not self.face_free(to_move):  # palifico.face_lock
            q, f = table.bids[current] if standing is None else standing
            return table.same_face_above(q, f)
        if self.partial:  # neither_decreases: the grid above the standing bid
            q, f = table.bids[current] if standing is None else standing
            return table.grid_above(q, f, self.rules.wild if self.ban_later else None)
        if self.ban_later:
            return table.nonwild_above(current)
        return range(current + 1, table.size)

    def bid_verdict(
        self, to_move: int, current: Bid | None, bid: Bid, trace: Trace | None = None
    ) -> Refusal | None:
        """Whether ``bid`` is legal over ``current`` (``None`` for an opening bid):
        ``None``, or the :class:`~perudo_rules.base.messages.Refusal` (rule, message id and
        the values of its sentence), built only when refusing. A ``trace`` notes the rules
        read and, for a legal bid, the one that allows it."""
        fields: Any = bid  # its fields as given: a Bid may hold anything (Bid(0, 1.0, 2))
        if trace is not None:
            trace.read("play.turn")
            trace.read("play.bid_range")
        if fields.player != to_move:
            seats = {"to_move": to_move, "seat": given(fields.player)}
            return Refusal("play.turn", "not-your-turn", seats)
        q, f = fields.quantity, fields.face
        table = self.table
        if type(q) is not int or type(f) is not int or q < 1 or not 1 <= f <= table.faces:
            return Refusal(
                "play.bid_range",
                "not-a-bid",
                {"quantity": given(q), "face": given(f), "faces": table.faces},
            )
        rank = table.rank(q, f)
        if rank is None:
            if trace is not None:
                trace.read("bidding.quantity_limit")
                trace.read("bidding.quantity_cap")
            if q > MAX_BID_QUANTITY:  # what the notation writes (bidding.quantity_cap: none)
                return Refusal(
                    "play.bid_range",
                    "beyond-notation",
                    {"quantity": q, "most": MAX_BID_QUANTITY},
                )
            if table.over_limit(q, f):
                return Refusal(
                    "bidding.quantity_limit", "over-quantity-limit", {"quantity": q, "face": f}
                )
            if table.capped:
                return Refusal(
                    "bidding.quantity_cap", "over-dice-in-play", {"dice": table.dice, "quantity": q}
                )
        if trace is not None and f == self.rules.wild:  # the ban below: the opening's rule
            ban = "palifico.wild_bids" if self.palifico else "bidding.wild_opening"
            if current is None:
                trace.decide(ban)
            else:
                trace.read(ban)
        if f == self.rules.wild and self.wild_banned(current is None):
            if self.palifico:
                code = "no-wild-opening-palifico" if current is None else "no-wild-palifico"
                return Refusal("palifico.wild_bids", code, {})
            # the reading that bans it says why: the first round of the game, or the opening
            code = "no-wild-first-round" if self.ban_later else "no-wild-opening"
            return Refusal("bidding.wild_opening", code, {})
        if current is None:
            if trace is not None:
                note_raise(table, self.rules, q, f, None, trace)
            return None
        if self.locked and f != current.face and not self.face_free(bid.player, trace):
            return Refusal("palifico.face_lock", "face-locked", {"face": current.face})
        if trace is not None:  # the rule that allows it, if the order does (else refused)
            note_raise(table, self.rules, q, f, current.face, trace)
        if self.partial:  # neither_decreases: O(1) on quantity and face
            return partial_refusal(current, q, f)
        cur_rank = table.rank(current.quantity, current.face)
        if rank is not None and cur_rank is not None:
            if rank > cur_rank:
                return None
        elif table.key(q, f) > table.key(current.quantity, current.face):
            return None  # beyond the table (bidding.quantity_cap: none): compared by key
        return order_refusal(table, self.rules, current, q, f)

    # --- calls --------------------------------------------------------------------------

    def calls(self, to_move: int, bidder: int) -> tuple[Action, ...]:
        """The Dudo calls, then the Calza calls, that :meth:`call_verdict` accepts after
        ``bidder``'s bid, by seat (listed once per pair of seats and kept)."""
        key = (to_move, bidder)
        hit = self._calls.get(key)
        if hit is not None:
            return hit
        seats = [s for s, c in enumerate(self.counts) if c]
        out: list[Action] = [
            d for s in seats if self.call_verdict(to_move, bidder, d := Dudo(s)) is None
        ]
        out += [c for s in seats if self.call_verdict(to_move, bidder, c := Calza(s)) is None]
        calls = self._calls[key] = tuple(out)
        return calls

    def offers(self, to_move: int, bidder: int) -> tuple[int, ...]:
        """The seats asked, one at a time, whether they call out of turn against
        ``bidder``'s standing bid before ``to_move`` acts: every seat other than ``to_move``
        with a call in :meth:`calls` (the bidder too, when the edition lets it call Calza
        on its own bid), in the direction of play starting after ``to_move``. The first
        seat that calls ends the round; when all decline, ``to_move`` acts. Every front end
        that asks seats in turn (the bots, ``play``, both RL adapters) asks this."""
        key = (to_move, bidder)
        hit = self._offers.get(key)
        if hit is not None:
            return hit
        callers = {call.player for call in self.calls(to_move, bidder)}
        callers.discard(to_move)
        out: list[int] = []
        if callers:
            successor = self.successor
            s = successor[to_move]
            while s != to_move:
                if s in callers:
                    out.append(s)
                s = successor[s]
        offers = self._offers[key] = tuple(out)
        return offers

    def call_verdict(
        self, to_move: int, bidder: int, call: Dudo | Calza, trace: Trace | None = None
    ) -> Refusal | None:
        """Whether ``call`` (by a seat with dice) is legal against ``bidder``'s standing bid
        (a ``trace`` notes the rules read; the deciding one is ``challenge.who`` or
        ``calza.who`` for a legal call)."""
        p = call.player
        rules = self.rules
        if type(call) is Dudo:
            if trace is not None:
                trace.decide("challenge.who")
            who = rules.challenge_who
            if p != to_move and (
                who == "player_to_move"
                or (who == "any_except_bidder_in_palifico" and not self.palifico)
            ):
                return Refusal("challenge.who", "dudo-only-to-move", {"to_move": to_move})
            if p == bidder:
                return Refusal("challenge.who", "dudo-own-bid", {})
            return None
        if trace is not None:
            trace.read("calza.enabled")
        if not rules.calza_enabled:
            return Refusal("calza.enabled", "no-calza", {})
        if trace is not None:
            trace.read("calza.min_players")
        if self.alive < rules.calza_min_players:
            return Refusal("calza.min_players", "calza-too-few-seats", {"seats": self.alive})
        if trace is not None and self.palifico:
            trace.read("calza.in_palifico")
        if self.palifico and not rules.calza_in_palifico:
            return Refusal("calza.in_palifico", "no-calza-palifico", {})
        if trace is not None:  # who may call decides a Calza the three rules above allow
            trace.decide("calza.who")
        calza_who = rules.calza_who
        if p == bidder and calza_who in ("any_except_bidder_and_next", "any_except_bidder"):
            return Refusal("calza.who", "calza-own-bid", {})
        if p == to_move and calza_who in ("any_except_bidder_and_next", "any_except_next"):
            return Refusal("calza.who", "calza-to-move", {})
        if calza_who == "player_to_move" and p != to_move:
            return Refusal("calza.who", "calza-only-to-move", {"to_move": to_move})
        return None

    def verdict(
        self, to_move: int, bids: Sequence[Bid], action: object, trace: Trace | None = None
    ) -> Refusal | None:
        """Whether ``action`` is legal with ``to_move`` to move after ``bids`` this round:
        ``None``, or the :class:`~perudo_rules.base.messages.Refusal`. A ``trace``
        (:class:`~perudo_rules.engine.trace.Trace`) notes the rules read and, for a legal
        action, the one that allows it (the fast path is skipped then)."""
        # the fields as given (``Any``): an action may hold anything, a float seat too, and
        # is refused for it below (the compiled build would check them on reading as ints)
        fields: Any = action
        if type(action) is Bid:
            p = fields.player
            if self.plain and p == to_move and type(p) is int and trace is None:
                # the common case at once: in a plain round every rank of the table above
                # the standing bid is a raise (and every rank opens, without a ban on
                # opening with wilds); anything else is decided in full below
                q, f = fields.quantity, fields.face
                if type(q) is int and type(f) is int:
                    rank_of = self.table.rank_of
                    rank = rank_of.get((q, f))
                    if rank is not None:
                        if bids:
                            cur = bids[-1]
                            standing = rank_of.get((cur.quantity, cur.face))
                            if standing is not None and rank > standing:
                                return None
                        elif not self.ban_open:
                            return None
            if self._not_a_seat(fields.player, trace):
                return Refusal("play.seat", "seat-without-dice", {"seat": given(fields.player)})
            return self.bid_verdict(to_move, bids[-1] if bids else None, action, trace)
        if type(action) is Dudo or type(action) is Calza:
            if self._not_a_seat(fields.player, trace):
                return Refusal("play.seat", "seat-without-dice", {"seat": given(fields.player)})
            if trace is not None:
                trace.read("play.bid_needed")
            if not bids:
                code = "dudo-without-bid" if type(action) is Dudo else "calza-without-bid"
                return Refusal("play.bid_needed", code, {})
            return self.call_verdict(to_move, bids[-1].player, action, trace)
        if type(action) is Leave:  # play.leave: any seat with dice, at any point of a round
            if self._not_a_seat(fields.player, trace):
                return Refusal("play.seat", "seat-without-dice", {"seat": given(fields.player)})
            if trace is not None:
                trace.decide("play.leave")
            return None
        return Refusal("play.turn", "not-an-action", {"action": given(action)})

    def _not_a_seat(self, p: object, trace: Trace | None) -> bool:
        if trace is not None:  # play.seat: a seat with dice
            trace.read("play.seat")
        counts = self.counts
        return type(p) is not int or not 0 <= p < len(counts) or not counts[p]

    # --- the round's seats and count ----------------------------------------------------

    def next_seat(self, seat: int) -> int:
        """The next seat after ``seat`` with dice this round, in the direction of play."""
        return self.successor[seat]

    def count(
        self, dice: Sequence[tuple[int, ...]], face: int, trace: Trace | None = None
    ) -> int:
        """Dice of ``dice`` that count as ``face`` this round (a ``trace`` notes the rules
        read: ``play.count``, ``wild.face`` when wilds count, ``palifico.wilds_count`` in a
        palifico round of an edition with wilds)."""
        if trace is not None:
            trace.read("play.count")
            if self.wild is not None:
                trace.read("wild.face")
            if self.palifico and self.rules.wild is not None:
                trace.read("palifico.wilds_count")
        return count_matching(dice, face, self.wild)


_ROUNDS: dict[
    tuple[Ruleset, tuple[int, ...], bool, bool, int | None, frozenset[int]], RoundRules
] = {}
_ROUNDS_MAX = 4096


def round_rules(
    rules: Ruleset,
    counts: tuple[int, ...],
    palifico: bool,
    round_no: int,
    palifico_player: int | None,
    used: frozenset[int],
) -> RoundRules:
    """The :class:`RoundRules` of a round, cached by value (a bounded table)."""
    key = (rules, counts, palifico, round_no == 1, palifico_player, used)
    hit = _ROUNDS.get(key)
    if hit is not None:
        return hit
    if len(_ROUNDS) >= _ROUNDS_MAX:
        # the opening rounds stay (few, and met by every game: their views are kept)
        opening = [(k, v) for k, v in _ROUNDS.items() if k[3]]
        _ROUNDS.clear()
        if len(opening) <= _ROUNDS_MAX // 4:
            _ROUNDS.update(opening)
    made = _ROUNDS[key] = RoundRules(*key)
    if round_no == 1:  # every game of the edition and seats opens with it: keep its views
        made.views = {}
    return made
