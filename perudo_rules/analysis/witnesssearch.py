"""The witness search: small situations where two variants of one rule disagree.

:func:`search_play` walks explicit positions breadth-first over action sequences and
yields every :class:`~perudo_rules.analysis.divergence.Situation` where a variant ``base`` and
its ``hybrid`` (``base`` with one rule changed) disagree: an action legal in one and not
the other, or a Dudo or Calza that resolves differently (who loses, which cups are
lifted, who opens next, whether the next round is a palifico round). It knows no rule:
it compares the engines. Every step it takes is legal in both, and in the ``other``
full variant too, so that each situation it yields can be replayed in both full
editions.

The positions, smallest first, in two stages:

* **small**: every seat count both editions allow up to ``SearchLimits.small_seats``,
  every vector of dice counts up to ``max_dice`` a seat, round 1 and a later round,
  ordinary and palifico rounds, no seat or every seat having had its palifico round, a
  few seeded rolls; one or two bids a round, then a second round;
* **large**, only when the small stage finds nothing: every seat count both editions
  allow up to ``SearchLimits.max_seats`` (see :func:`shared_seats` for the bound), each
  seat holding its starting dice (the opening table, where quantity caps and limits
  show) or a few dice; one bid.

Explored bids are the lowest legal bid on each face and the bids naming the true count
of a face, one less, one and two more (where a call's outcome turns), and every Dudo and
Calza. A node
budget bounds each stage. :func:`search_setup` compares new games (who opens, the dice,
a refused number of players) over every seat count either edition allows.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from perudo_rules.analysis.divergence import NewGame, Situation, play_situation, signature
from perudo_rules.base.actions import Action, Bid, Dudo, Reroll
from perudo_rules.base.errors import PerudoError
from perudo_rules.base.texts import Arg, Text, concat, tx
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.start import roll_die, seats_verdict
from perudo_rules.records.position import Position, Roll, Step

__all__ = [
    "Exhaustive",
    "SearchLimits",
    "exhaustive",
    "search_play",
    "search_setup",
    "shared_seats",
]


@dataclass(frozen=True, slots=True)
class SearchLimits:
    """Bounds of the witness search (all small: witnesses are meant to be read).

    ``max_seats`` bounds the seat counts searched (every count both editions allow, up to
    this; see :func:`shared_seats`), ``small_seats`` those of the thorough small stage;
    ``max_dice`` the dice a seat holds in small positions; ``seeds`` the dice rolls per
    position; ``max_bids`` the bids a round, ``max_rounds`` the rounds; ``node_budget``
    and ``large_budget`` the game states of the small and the large stage; ``coupled``
    the situations where the editions disagree that are tried with a partner rule;
    ``setup_seeds`` the new games per seat count, until ``setup_dice`` dice are rolled.
    """

    max_seats: int = 8
    small_seats: int = 4
    max_dice: int = 3
    seeds: int = 2
    max_bids: int = 2
    max_rounds: int = 2
    node_budget: int = 2000
    large_budget: int = 2000
    coupled: int = 40
    setup_seeds: int = 100
    setup_seats: int = 16
    #: Most dice rolled for new games per knob (fewer seeds for games of many dice).
    setup_dice: int = 50_000


def shared_seats(a: Variant, b: Variant, limits: SearchLimits) -> list[int]:
    """The seat counts a witness position may have: every count both editions play with
    (``players.min`` to ``players.max`` of both, as the kernel's ``seats_verdict``
    says), up to ``limits.max_seats``.

    The bound: the kernel sees the seats of a position only as the seats holding dice (a
    count), the bidder, the player to move, the caller and the seats between them, and
    the dice in play. Past a handful of seats a larger table only repeats seats in those
    roles; the one thing it adds is more dice in play, which the large stage also reaches
    with every seat holding its starting dice (8 seats of 5 dice put 40 dice in play).
    """
    top = min(a.rules.players_max, b.rules.players_max, limits.max_seats)
    return [
        n
        for n in range(2, top + 1)
        if seats_verdict(a.rules, n, a.id) is None and seats_verdict(b.rules, n, b.id) is None
    ]


# --- comparing two engines -----------------------------------------------------------------


def _legal_key(g: Game) -> tuple[Any, ...]:
    """The legal actions of ``g`` in a cheaply comparable form (equal iff the sets are equal)."""
    legal = g.legal_actions()
    table = g.space.bids
    return (
        g.to_move,
        frozenset(table[r] for r in legal.bid_ranks),
        frozenset(legal[len(legal.bid_ranks) :]),
    )


def _state(g: Game) -> tuple[Any, ...]:
    return (
        g.dice_counts,
        g.to_move,
        g.palifico,
        g.palifico_player,
        g.palifico_used,
        g.winner,
        g.last_result,
    )


def _action_key(a: Action) -> tuple[int, int, int, int]:
    if isinstance(a, Bid):
        return (2, a.player, a.quantity, a.face)
    if isinstance(a, Reroll):
        return (3, a.player, len(a.set_aside), 0)
    return (0 if isinstance(a, Dudo) else 1, a.player, 0, 0)


# --- the positions -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Pass:
    """A family of starts: ``seats`` seats, the largest cup holding ``top`` dice, ``bids``
    bids a round, ``rounds`` rounds; ``shape`` is ``"all"`` (every vector of dice counts),
    ``"full"`` (every seat holding ``top``: an opening table) or ``"few"`` (one cup of
    ``top``, the others one die); ``out`` more seats are out (no dice), for seat counts
    an edition plays with only from a larger table."""

    seats: int
    top: int
    bids: int
    rounds: int
    shape: str = "all"
    out: int = 0

    def cost(self) -> tuple[int, ...]:
        return (self.rounds, self.seats + self.top + 2 * self.bids, self.seats, self.top)

    def vectors(self) -> list[tuple[int, ...]]:
        """The dice count vectors of the pass, smallest sums first."""
        return [c + (0,) * self.out for c in self._alive()]

    def _alive(self) -> list[tuple[int, ...]]:
        n, top = self.seats, self.top
        if self.shape == "full":
            return [(top,) * n]
        if self.shape == "few":
            return sorted({(top,) + (1,) * (n - 1), (1,) * (n - 1) + (top,)})
        return sorted(
            (c for c in itertools.product(range(1, top + 1), repeat=n) if max(c) == top),
            key=lambda c: (sum(c), c),
        )


def _starts(v: Variant, p: _Pass, limits: SearchLimits) -> Iterator[Position]:
    """The starts of a pass: seat 0 opens; round 1 and a later round, ordinary and (when
    seat 0 holds one die) palifico rounds, with no seat or every seat having had its
    palifico round already, and ``limits.seeds`` dice rolls (the large tables: no seat
    having had its palifico round, one roll)."""
    faces = v.rules.dice_faces
    small = p.shape == "all"
    useds = ((), tuple(range(p.seats + p.out))) if small else ((),)
    for counts in p.vectors():
        for round_no in (1, 2):
            for palifico in (False, True):
                if palifico and counts[0] != 1:
                    continue
                for used in useds:
                    for seed in range(limits.seeds if small else 1):
                        rng = random.Random(seed * 7919 + sum(counts) * 31 + len(counts))
                        dice = tuple(tuple(roll_die(rng, faces) for _ in range(c)) for c in counts)
                        yield Position(
                            dice=dice,
                            first_player=0,
                            palifico=palifico,
                            round=round_no,
                            palifico_used=used,
                        )


def _stages(a: Variant, b: Variant, limits: SearchLimits) -> list[tuple[list[_Pass], int]]:
    """The passes of each stage, cheapest first, and its budget: the small positions in
    one round, the large ones, then the small ones rolling on into a second round."""
    seats = shared_seats(a, b, limits)
    most = min(a.rules.dice_max_per_player, b.rules.dice_max_per_player)
    top = min(limits.max_dice, most)
    # seats holding dice: every count from 2, at a table of the fewest seats both allow
    alive = (
        [(m, 0) for m in seats] + [(m, seats[0] - m) for m in range(2, seats[0])] if seats else []
    )
    small = [
        _Pass(n, t, bids, rounds, out=out)
        for n, out in alive
        if n <= limits.small_seats
        for t in range(1, top + 1)
        for bids in range(1, limits.max_bids + 1)
        for rounds in range(1, limits.max_rounds + 1)
    ]
    # The opening table of each seat count (each seat with its starting dice, as valid in
    # both editions), and the larger tables with a few dice a seat.
    full = min(a.rules.dice_per_player, b.rules.dice_per_player, most)
    large = [_Pass(n, full, 1, 1, "full") for n in seats if full > top or n > limits.small_seats]
    large += [_Pass(n, full, 1, 1, "few") for n in seats if full > top]
    large += [
        _Pass(n, t, 1, 1, "few" if t > 1 else "full")
        for n in seats
        if n > limits.small_seats
        for t in range(1, top + 1)
    ]
    later = [p for p in small if p.rounds > 1]
    return [
        (sorted((p for p in small if p.rounds == 1), key=_Pass.cost), limits.node_budget),
        # dict.fromkeys, not set: the passes of one cost keep the order they were listed in
        # (a set's order follows the hashes of their shape, which change from run to run)
        (sorted(dict.fromkeys(large), key=_Pass.cost), limits.large_budget),
        (sorted(later, key=_Pass.cost), limits.node_budget // 2),
    ]


# --- the walk ------------------------------------------------------------------------------


def _children(g: Game, bids_this_round: int, max_bids: int, every: bool = False) -> list[Action]:
    """Actions to explore: every call, and on each face the lowest legal bid and the
    legal bids naming one less than the true count of that face, the count, one and two
    more (where a call's outcome turns: ``every``: every bid)."""
    legal = g.legal_actions()
    ranks = legal.bid_ranks
    calls = sorted(legal[len(ranks) :], key=_action_key)
    if bids_this_round >= max_bids or not ranks:
        return calls
    if every:
        return [*legal[: len(ranks)], *calls]
    player = g.to_move
    assert player is not None
    table = g.space.bids
    faces: dict[int, int] = {}
    for r in ranks:  # rank order: the first bid met on a face is its lowest
        q, f = table[r]
        if f not in faces:
            faces[f] = q
    bids: list[Action] = []
    for f in sorted(faces):
        bids.append(Bid(player, faces[f], f))
        true = g.count(f)
        for q in (true - 1, true, true + 1, true + 2):
            if q > faces[f] and g.is_legal(bid := Bid(player, q, f)):
                bids.append(bid)
    return bids + calls


def _next_roll(g: Game, salt: int) -> Roll:
    """A deterministic roll of the cups for the next round (or of a re-roll's dice)."""
    rng = random.Random(salt * 104729 + g.round)
    faces = g.rules.dice_faces
    return Roll(tuple(tuple(roll_die(rng, faces) for _ in range(c)) for c in g.roll_counts))


_Node = tuple[Game, Game, Game, tuple[Step, ...], int, int]


def _walk(
    start: Position, games: tuple[Game, Game, Game], p: _Pass, counter: list[int], budget: int
) -> Iterator[Situation]:
    """Breadth-first from ``start``: the divergences of the first two games (base and
    hybrid); the third (the other full edition) only has to allow every step."""
    gx0, gy0, go0 = games
    frontier: list[_Node] = [(gx0, gy0, go0, (), 0, 1)]
    while frontier and counter[0] < budget:
        nxt: list[_Node] = []
        for gx, gy, go, steps, nbids, rounds in frontier:
            counter[0] += 1
            if _legal_key(gx) != _legal_key(gy):
                lx, ly = frozenset(gx.legal_actions()), frozenset(gy.legal_actions())
                for x in sorted(lx ^ ly, key=_action_key):
                    yield Situation("legality", start, steps, x)
                continue
            for x in _children(gx, nbids, p.bids, p.shape == "every"):
                if not go.is_legal(x):
                    continue
                rx, ry, ro = gx.apply(x), gy.apply(x), go.apply(x)
                if isinstance(x, Bid):
                    nxt.append((rx, ry, ro, (*steps, x), nbids + 1, rounds))
                elif _state(rx) != _state(ry):
                    yield Situation("resolution", start, steps, x)
                elif rx.awaiting_roll and ro.awaiting_roll and (
                    rounds < p.rounds or rx.to_move is not None
                ):
                    roll = _next_roll(rx, len(steps))  # a new round's, or a re-roll's dice
                    try:
                        games3 = (rx.roll(dice=roll.dice), ry.roll(dice=roll.dice))
                        other = ro.roll(dice=roll.dice)
                    except (PerudoError, ValueError):  # the other edition counts differently
                        continue
                    new = rx.to_move is None
                    nxt.append(
                        (*games3, other, (*steps, x, roll), 0 if new else nbids, rounds + new)
                    )
        frontier = nxt


def search_play(
    base: Variant,
    hybrid: Variant,
    other: Variant,
    limits: SearchLimits,
    counter: list[int],
    stages: Sequence[int] = (0, 1, 2),
) -> Iterator[Situation]:
    """Divergences between ``base`` and ``hybrid`` over explicit positions, smallest
    first, along steps that ``other`` (the other full edition) allows too: the small,
    large and two-round stages (``stages`` picks them: 0, 1, 2). ``counter[0]`` counts
    the game states searched; each stage stops at its budget."""
    seen: set[Situation] = set()
    plan = _stages(base, other, limits)
    for passes, share in (plan[i] for i in stages):
        budget = counter[0] + share
        for p in passes:
            for start in _starts(base, p, limits):
                if counter[0] >= budget:
                    break
                try:
                    games = (start.game(base), start.game(hybrid), start.game(other))
                except (PerudoError, ValueError):
                    counter[0] += 1  # a refused start costs budget too: the search stays bounded
                    continue
                for found in _walk(start, games, p, counter, budget):
                    if found not in seen:
                        seen.add(found)
                        yield found


def search_setup(
    first: Variant, second: Variant, limits: SearchLimits, seats: Sequence[int]
) -> Iterator[Situation]:
    """New games that start differently under ``first`` and ``second``: who opens, the
    dice counts, or one of them refusing the number of players, over ``seats`` (the seat
    counts either edition allows), until ``limits.setup_dice`` dice have been rolled."""
    per_seat = max(first.rules.dice_per_player, second.rules.dice_per_player)
    rolled = 0
    for n in seats:
        for seed in range(limits.setup_seeds):
            rolled += n * per_seat
            if rolled > limits.setup_dice:
                return
            start = NewGame(players=n, seed=seed)
            ga, gh = play_situation(first, start, ()), play_situation(second, start, ())
            assert ga is not None and gh is not None
            if signature("setup", ga, None) != signature("setup", gh, None):
                yield Situation("setup", start, (), None)
            elif isinstance(ga, str):
                break  # neither variant plays with n seats: no seed changes that


# --- every call, every bid ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Exhaustive:
    """Every situation of one kind that two editions share, when few enough to try all:
    ``starts`` (the positions), ``pass_`` (how deep from each) and ``coverage``, what
    they cover in words (a :class:`~perudo_rules.base.texts.Text`, said when shown)."""

    starts: tuple[Position, ...]
    pass_: _Pass
    coverage: Text


def _span(lo: int, hi: int, unit: Text) -> Arg:
    """``2 to 6 seats``."""
    if lo == hi:
        return concat(f"{lo} ", unit)
    return tx("{lo} to {hi} {unit}", lo=lo, hi=hi, unit=unit)


def exhaustive(decides: str, a: Variant, b: Variant, limits: SearchLimits) -> Exhaustive | None:
    """Every call situation (``decides == "calls"``) or every bidding situation
    (``"bids"``) that ``a`` and ``b`` share, or ``None`` when that cannot be listed.

    Calls: the kernel decides a call (``RoundRules.call_verdict``) from the number of
    seats holding dice, whether the round is palifico, and the caller as the bidder, the
    player to move or another seat: one position of one die a seat per seat count both
    editions allow (up to ``limits.max_seats``), ordinary and (where both have them)
    palifico rounds, one bid, then every call. Bids, where one edition has no palifico
    rounds (so every round both play is ordinary, without a face lock): a bid's legality
    depends on the dice in play, whether it is the first round, and the standing bid: one
    position per number of dice in play both allow, the first and a later round, every
    opening bid and every bid after it (``limits.large_budget`` bounds the positions
    times the bids).
    """
    seats = shared_seats(a, b, limits)
    if not seats or max(seats) < min(a.rules.players_max, b.rules.players_max):
        return None  # more seats than the search bound: not every situation is listed
    palifico = a.rules.palifico_enabled and b.rules.palifico_enabled
    if decides == "calls":
        starts = [  # m seats holding dice, of max(m, fewest seats) at the table
            Position(
                dice=((1,),) * m + ((),) * (max(seats[0], m) - m), first_player=0, palifico=pal
            )
            for m in range(2, max(seats) + 1)
            for pal in ((False, True) if palifico else (False,))
        ]
        kinds = tx("ordinary and palifico rounds") if palifico else tx("ordinary rounds")
        unit = tx("seats")  # babel extracts no message nested in another's call
        return Exhaustive(
            tuple(starts),
            _Pass(max(seats), 1, 1, 1),
            tx(
                "{seats} holding dice, {kinds}, the caller the bidder, the player to move or "
                "another seat",
                seats=_span(2, seats[-1], unit),
                kinds=kinds,
            ),
        )
    if decides != "bids" or palifico:
        return None
    most = min(a.rules.dice_max_per_player, b.rules.dice_max_per_player)
    faces = a.rules.dice_faces
    starts = []
    for dice in range(2, max(seats) * most + 1):
        n = max(seats[0], -(-dice // most))
        cups = [dice // n + (1 if s < dice % n else 0) for s in range(n)]
        for round_no in (1, 2):
            rng = random.Random(dice)
            starts.append(
                Position(
                    dice=tuple(tuple(roll_die(rng, faces) for _ in range(c)) for c in cups),
                    first_player=0,
                    round=round_no,
                )
            )
    largest = max(sum(len(c) for c in p.dice) for p in starts)
    if len(starts) * (faces * (largest + 1)) > limits.large_budget * 4:
        return None
    unit = tx("dice")
    return Exhaustive(
        tuple(starts),
        _Pass(max(seats), most, 1, 1, "every"),
        tx(
            "{dice} in play, the first and a later round, every opening bid and every bid after it",
            dice=_span(2, largest, unit),
        ),
    )


def search_exhaustive(
    base: Variant, hybrid: Variant, other: Variant, plan: Exhaustive, counter: list[int]
) -> Iterator[Situation]:
    """The divergences of ``base`` and ``hybrid`` in every situation of ``plan``, along
    steps ``other`` allows too (no budget: the plan is small)."""
    for start in plan.starts:
        try:
            games = (start.game(base), start.game(hybrid), start.game(other))
        except (PerudoError, ValueError):
            continue
        yield from _walk(start, games, plan.pass_, counter, 1 << 62)
