"""Fast random play: whole games under the uniform random policy, on ranks and tuples.

The step API (:class:`~perudo_rules.engine.game.Game`) builds an immutable state per action and
explains every refusal; simulations that only need outcomes can skip both. This module
plays the same games directly on the rules kernel's per-round tables
(:class:`~perudo_rules.engine.kernel.RoundRules`), with the same rules, decided by the same
functions, and the same random draws, several times faster.

The random policy (also what ``benchmarks/run.py`` measures): at every decision point take
the whole ``game.legal_actions()`` list (bids of the player to move in rank order, then
Dudo calls, then Calza calls of every eligible seat, out-of-turn Calza included) and play
``actions[int(rng.random() * len(actions))]``; between rounds roll with
``game.roll(rng=rng)``, and after a re-roll (``reroll.enabled``) roll its dice the same way.
A game opens as :meth:`Game.new` opens one, but drawing from ``rng`` instead of a fresh
``random.Random(seed)``: the roll-off, then every seat's dice.

:func:`step_play` is that definition written with the public step API; :func:`play`
reproduces it exactly (same opening, same actions, same rounds, same winner) for the same
``rng`` state, which the tests check on every bundled edition.

>>> import random
>>> from perudo_rules import load_variant
>>> v = load_variant("italian")
>>> fast = play(v, 4, random.Random(7), record=True)
>>> slow = step_play(v, 4, random.Random(7))
>>> fast.winner == slow.winner and fast.rounds == len(slow.history)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from math import floor

from perudo_rules.base.actions import Action, Bid, Calza, Dudo, Reroll, bid_unchecked
from perudo_rules.base.frozen import install_builder
from perudo_rules.base.i18n import tr
from perudo_rules.base.seatcheck import check_int, check_seed
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.kernel import RoundRules, count_matching, round_rules
from perudo_rules.engine.reroll import (
    RerollState,
    bid_open,
    reroll_options,
    rerolled_dice,
    rolling,
    round_steps,
    set_aside_dice,
)
from perudo_rules.engine.rounds import RoundRecord, round_outcome
from perudo_rules.engine.settlement import settle
from perudo_rules.engine.start import opening, roll_cups, seat_count

__all__ = ["RandomGame", "RandomGames", "play", "random_games", "step_play", "turn_actions"]


@dataclass(frozen=True, slots=True)
class RandomGame:
    """The outcome of one random game: winner, rounds, decisions (actions played), bids.

    ``trace`` holds every round when the game was played with ``record=True``: the same
    :class:`~perudo_rules.engine.game.RoundRecord` values (dice, actions, the called bid and the
    :class:`~perudo_rules.engine.game.RoundResult`) as the ``history`` of the step API's game.
    """

    winner: int
    rounds: int
    decisions: int
    bids: int
    trace: tuple[RoundRecord, ...] | None = None

    @staticmethod
    def _build(
        *,
        winner: int,
        rounds: int,
        decisions: int,
        bids: int,
        trace: tuple[RoundRecord, ...] | None,
    ) -> RandomGame:
        """A game's outcome from every field, without ``__init__`` (as ``Game._build``)."""
        g: RandomGame = RandomGame.__new__(RandomGame)
        object.__setattr__(g, "winner", winner)
        object.__setattr__(g, "rounds", rounds)
        object.__setattr__(g, "decisions", decisions)
        object.__setattr__(g, "bids", bids)
        object.__setattr__(g, "trace", trace)
        return g


@dataclass(frozen=True, slots=True)
class RandomGames:
    """Totals over a batch of random games; ``wins[s]`` counts the games seat ``s`` won."""

    games: int
    rounds: int
    decisions: int
    bids: int
    wins: tuple[int, ...]


def step_play(variant: Variant, players: int, rng: random.Random) -> Game:
    """One random game through the public step API: the reference that :func:`play` follows.

    Returns the finished :class:`Game` (its ``history`` holds every round).
    """
    first, dice = opening(variant.rules, players, rng)
    game = Game.start(variant, dice, first)
    rand = rng.random
    while game.winner is None:
        if game.awaiting_roll:
            game = game.roll(rng=rng)
            continue
        actions = game.legal_actions()
        game = game.apply(actions[int(rand() * len(actions))])
    return game


def play(
    variant: Variant, players: object, rng: random.Random, record: bool = False
) -> RandomGame:
    """One random game, the same as :func:`step_play` with the same ``rng`` state, fast.

    ``record=True`` also returns every round (as the step API's ``RoundRecord``). Every
    rule comes from the kernel's :class:`~perudo_rules.engine.kernel.RoundRules` of each round;
    this loop only draws among the ranks and calls it opens. ``players`` is an integer the
    edition allows, else ``ValueError`` (:func:`~perudo_rules.engine.start.seat_count`).
    """
    rules = variant.rules
    players = seat_count(rules, players, variant.id)
    rand = rng.random
    faces = rules.dice_faces
    if rules.reroll_enabled:
        return _play_with_rerolls(variant, players, rng, record)
    first, dice = opening(rules, players, rng)
    counts = tuple([len(c) for c in dice])
    palifico = False
    owner: int | None = None
    used: frozenset[int] = frozenset()
    round_no = 1
    to_move = first
    decisions = 0
    n_bids = 0
    trace: list[RoundRecord] = []
    while True:
        # --- one round: bids until a Dudo or Calza --------------------------------------
        rr = round_rules(rules, counts, palifico, round_no, owner, used)
        table = rr.table.bids
        size = rr.table.size
        plain = rr.plain
        n_calls = rr.n_calls
        successor = rr.successor
        opener = to_move
        actions: list[Action] = []
        ranks = rr.opening_ranks
        nb = len(ranks)
        i = floor(rand() * nb)  # the opening bid: no call yet
        decisions += 1
        cur = ranks[i]
        bidder = to_move
        while True:
            n_bids += 1
            if record:
                q, f = table[cur]
                actions.append(bid_unchecked(bidder, q, f))
            to_move = successor[bidder]
            if plain:  # every higher rank is open: arithmetic
                nb = size - cur - 1
                i = floor(rand() * (nb + n_calls))
                decisions += 1
                if i >= nb:
                    break
                cur += 1 + i
            else:
                ranks = rr.raise_ranks(to_move, cur)
                nb = len(ranks)
                i = floor(rand() * (nb + n_calls))
                decisions += 1
                if i >= nb:
                    break
                cur = ranks[i]
            bidder = to_move
        action = rr.calls(to_move, bidder)[i - nb]
        # --- resolution (as Game.apply) --------------------------------------------------
        cur_q, cur_f = table[cur]
        bid = bid_unchecked(bidder, cur_q, cur_f)
        assert type(action) is Dudo or type(action) is Calza  # rr.calls lists calls only
        if record:
            actions.append(action)
            result, s = round_outcome(rr, dice, bid, action, to_move)
            trace.append(
                RoundRecord(
                    round_no, opener, palifico, dice, tuple(actions), result, palifico_used=used
                )
            )
        else:
            count = count_matching(dice, cur_f, rr.wild)  # rr.count, a call fewer
            s = settle(rr, type(action) is Dudo, action.player, bid, count, to_move)
        if s.winner is not None:
            return RandomGame._build(
                winner=s.winner, rounds=round_no, decisions=decisions, bids=n_bids,
                trace=tuple(trace) if record else None,
            )
        # --- the next round (as Game.roll(rng=rng)) ----------------------------------------
        assert s.next_player is not None
        counts = s.counts
        dice = roll_cups(faces, counts, rng)
        palifico = s.next_palifico
        owner = s.next_player if palifico else None
        used = s.used
        round_no += 1
        to_move = s.next_player


def turn_actions(
    rr: RoundRules,
    dice: tuple[tuple[int, ...], ...],
    state: RerollState | None,
    to_move: int,
    bids: list[Bid],
) -> tuple[Sequence[int], tuple[Action, ...]]:
    """The ranks open to the player to move and its other actions (calls, then re-rolls),
    in the order of ``Game.legal_actions`` (:class:`~perudo_rules.engine.legal.LegalActions`)."""
    made = len(bids)
    table = rr.table
    if not bids:
        ranks: Sequence[int] = rr.opening_ranks
        calls: tuple[Action, ...] = ()
    else:
        ranks = rr.raise_ranks(to_move, table.rank_of[(bids[-1].quantity, bids[-1].face)])
        calls = rr.calls(to_move, bids[-1].player)
    if state is not None and state.rerolled_now(to_move, made):
        own = () if rr.rules.reroll_must_bid else calls
        return ranks, tuple([a for a in own if a.player == to_move])
    open_bid = not rr.rules.reroll_must_bid or bid_open(rr, to_move, bids)
    return ranks, calls + reroll_options(rr.rules, dice, state, to_move, made, open_bid)


def _play_with_rerolls(
    variant: Variant, players: int, rng: random.Random, record: bool
) -> RandomGame:
    """:func:`play` where a seat may re-roll (``reroll.enabled``): the same draws as
    :func:`step_play`, each decision among the kernel's bids, calls and re-rolls."""
    rules = variant.rules
    rand = rng.random
    faces = rules.dice_faces
    first, dice = opening(rules, players, rng)
    counts = tuple([len(c) for c in dice])
    palifico = False
    owner: int | None = None
    used: frozenset[int] = frozenset()
    round_no = 1
    to_move = first
    decisions = n_bids = 0
    trace: list[RoundRecord] = []
    while True:
        rr = round_rules(rules, counts, palifico, round_no, owner, used)
        table = rr.table.bids
        opener = to_move
        bids: list[Bid] = []
        state: RerollState | None = None
        while True:
            ranks, others = turn_actions(rr, dice, state, to_move, bids)
            nb = len(ranks)
            i = floor(rand() * (nb + len(others)))
            decisions += 1
            if i < nb:
                q, f = table[ranks[i]]
                bids.append(bid_unchecked(to_move, q, f))
                n_bids += 1
                to_move = rr.successor[to_move]
                continue
            action = others[i - nb]
            if type(action) is Reroll:  # the re-rolled dice: as Game.roll(rng=rng)
                dice, state = set_aside_dice(dice, state, len(bids), action)
                rolled = roll_cups(faces, rolling(counts, dice, state), rng)
                dice, state = rerolled_dice(dice, state, rolled)
                continue
            break
        assert type(action) is Dudo or type(action) is Calza
        bid = bids[-1]
        if record:
            result, s = round_outcome(rr, dice, bid, action, to_move)
            actions, rerolls = round_steps((*bids, action), state)
            start = dice if state is None else state.start_dice
            trace.append(
                RoundRecord(
                    round_no, opener, palifico, start, actions, result, used, rerolls=rerolls
                )
            )
        else:
            dudo = type(action) is Dudo
            s = settle(rr, dudo, action.player, bid, rr.count(dice, bid.face), to_move)
        if s.winner is not None:
            return RandomGame._build(
                winner=s.winner, rounds=round_no, decisions=decisions, bids=n_bids,
                trace=tuple(trace) if record else None,
            )
        assert s.next_player is not None  # the next round (as Game.roll(rng=rng))
        counts = s.counts
        dice = roll_cups(faces, counts, rng)
        palifico = s.next_palifico
        owner = s.next_player if palifico else None
        used = s.used
        round_no += 1
        to_move = s.next_player


def random_games(
    variant: Variant, players: object, games: object, seed: object = None
) -> RandomGames:
    """Play ``games`` random games from one ``random.Random(seed)`` stream and total them.

    ``players`` is a seat count the edition allows (:func:`~perudo_rules.engine.start.seat_count`:
    ``ValueError`` else) and ``games`` an integer of at least 0 (``TypeError`` for a bool, a
    float or a text: :func:`~perudo_rules.base.seatcheck.check_int`; ``ValueError`` below 0);
    a NumPy integer is one. Typed ``object``: both builds take and refuse the same values.
    """
    players = seat_count(variant.rules, players, variant.id)
    games = check_int(games, "games")
    if games < 0:
        raise ValueError(tr("games={games} is no number of games: it is at least 0", games=games))
    rng = random.Random(check_seed(seed))
    wins = [0] * players
    rounds = decisions = bids = 0
    for _ in range(games):
        g = play(variant, players, rng)
        wins[g.winner] += 1
        rounds += g.rounds
        decisions += g.decisions
        bids += g.bids
    return RandomGames(games, rounds, decisions, bids, tuple(wins))


install_builder(RandomGame, "_build")  # perudo_rules.base.frozen, as Game's
