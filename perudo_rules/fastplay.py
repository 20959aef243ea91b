"""Fast random play: whole games under the uniform random policy, on ranks and tuples.

The step API (:class:`~perudo_rules.game.Game`) builds an immutable state per action and
explains every refusal; simulations that only need outcomes can skip both. This module
plays the same games directly on the bid tables of :mod:`perudo_rules.ranks`, with the
same rules and the same random draws, several times faster.

The random policy (also what ``benchmarks/run.py`` measures): at every decision point take
the whole ``game.legal_actions()`` list (bids of the player to move in rank order, then
Dudo calls, then Calza calls of every eligible seat, out-of-turn Calza included) and play
``actions[int(rng.random() * len(actions))]``; between rounds roll with
``game.roll(rng=rng)``. A game opens as :meth:`Game.new` opens one, but drawing from
``rng`` instead of a fresh ``random.Random(seed)``: the roll-off, then every seat's dice.

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

import bisect
import random
from dataclasses import dataclass

from perudo_rules.actions import Action, Bid, Dudo
from perudo_rules.game import Game, _calls, _next_seat, _opening, _settle
from perudo_rules.ranks import bid_space
from perudo_rules.variant import Variant

__all__ = ["RandomGame", "RandomGames", "RoundTrace", "play", "random_games", "step_play"]


@dataclass(frozen=True, slots=True)
class RoundTrace:
    """One round of a recorded fast game: what the step API's ``RoundRecord`` would hold
    (dice, opener, palifico, actions) and the result fields that drive the game on."""

    round: int
    first_player: int
    palifico: bool
    dice: tuple[tuple[int, ...], ...]
    actions: tuple[Action, ...]
    kind: str
    count: int
    loser: int | None
    gainer: int | None
    next_player: int | None
    next_palifico: bool


@dataclass(frozen=True, slots=True)
class RandomGame:
    """The outcome of one random game: winner, rounds, decisions (actions played), bids.

    ``trace`` holds every round when the game was played with ``record=True``.
    """

    winner: int
    rounds: int
    decisions: int
    bids: int
    trace: tuple[RoundTrace, ...] | None = None


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
    first, dice = _opening(variant.rules, players, rng)
    game = Game.start(variant, dice, first)
    rand = rng.random
    while game.winner is None:
        if game.to_move is None:
            game = game.roll(rng=rng)
            continue
        actions = game.legal_actions()
        game = game.apply(actions[int(rand() * len(actions))])
    return game


def play(variant: Variant, players: int, rng: random.Random, record: bool = False) -> RandomGame:
    """One random game, the same as :func:`step_play` with the same ``rng`` state, fast.

    ``record=True`` also returns every round (:class:`RoundTrace`) for comparison.
    """
    rules = variant.rules
    if not rules.min_players <= players <= rules.max_players:
        raise ValueError(
            f"{players} players; {variant.id} plays with {rules.min_players} to {rules.max_players}"
        )
    rand = rng.random
    faces = rules.faces
    step = rules.step
    opening = rules.wild_opening
    lock = rules.face_lock
    dudo_by_mover = rules.challenge_who == "player_to_move"
    calza_who = rules.calza_who if rules.calza else ""
    first, dice = _opening(rules, players, rng)
    counts = [len(c) for c in dice]
    palifico = False
    used: frozenset[int] = frozenset()
    round_no = 1
    to_move = first
    decisions = 0
    n_bids = 0
    trace: list[RoundTrace] = []
    while True:
        # --- one round: bids until a Dudo or Calza --------------------------------------
        space = bid_space(rules, sum(counts), palifico)
        table = space.bids
        wild = space.wild
        size = space.size
        cap = space.cap
        nonwild = space.nonwild_ranks
        # bids on the wild face are banned (never in palifico rounds) before the opening
        # bid under "not_as_opening_bid", all through round 1 under "not_in_first_round"
        ban_later = (
            wild is not None and not palifico and opening == "not_in_first_round" and round_no == 1
        )
        ban_open = ban_later or (
            wild is not None and not palifico and opening == "not_as_opening_bid"
        )
        round_counts = tuple(counts)
        # How many Dudo and Calza calls follow a bid: the bidder and the player to move are
        # two different seats with dice, so this is arithmetic on the seats with dice.
        alive = players - counts.count(0)
        n_calls = 1 if dudo_by_mover else alive - 1
        if calza_who == "player_to_move":
            n_calls += 1
        elif calza_who == "any_except_bidder":
            n_calls += alive - 1
        elif calza_who:
            n_calls += alive - 2
        opener = to_move
        actions: list[Action] = []
        cur = -1
        cur_q = cur_f = 0
        bidder = -1
        while True:
            if cur < 0:
                nb = len(nonwild) if ban_open else size
                i = int(rand() * nb)
            else:
                if palifico and not (
                    lock == "free" or (lock == "locked_except_single_die" and counts[to_move] == 1)
                ):
                    nb = cap - cur_q
                    lo = -1  # same face, higher quantity
                elif ban_later:
                    lo = bisect.bisect_right(nonwild, cur)
                    nb = len(nonwild) - lo
                else:
                    nb = size - cur - 1
                    lo = -2  # every rank above
                i = int(rand() * (nb + n_calls))
            decisions += 1
            if i < nb:
                if cur < 0:
                    rank = nonwild[i] if ban_open else i
                elif lo == -2:
                    rank = cur + 1 + i
                elif lo == -1:
                    rank = space.face_ranks[cur_f][cur_q + i]
                else:
                    rank = nonwild[lo + i]
                cur = rank
                cur_q, cur_f = table[rank]
                bidder = to_move
                n_bids += 1
                if record:
                    actions.append(Bid(to_move, cur_q, cur_f))
                nxt = (to_move + step) % players
                to_move = nxt if counts[nxt] else _next_seat(round_counts, step, to_move)
                continue
            action = _calls(rules, round_counts, to_move, bidder)[i - nb]
            break
        # --- resolution (as Game._resolve) ------------------------------------------------
        caller = action.player
        count = 0
        for cup in dice:
            count += cup.count(cur_f)
            if wild is not None and cur_f != wild:
                count += cup.count(wild)
        kind = "dudo" if type(action) is Dudo else "calza"
        settled = _settle(
            rules, round_counts, kind, caller, Bid(bidder, cur_q, cur_f), count, to_move, used
        )
        new_counts, loser, gainer, won, next_player, next_palifico, used = settled
        counts = list(new_counts)
        winner = -1 if won is None else won
        if record:
            actions.append(action)
            trace.append(
                RoundTrace(
                    round_no,
                    opener,
                    palifico,
                    tuple(dice),
                    tuple(actions),
                    kind,
                    count,
                    loser,
                    gainer,
                    next_player,
                    next_palifico,
                )
            )
        if winner >= 0:
            return RandomGame(winner, round_no, decisions, n_bids, tuple(trace) if record else None)
        # --- the next round (as Game.roll(rng=rng)) ----------------------------------------
        assert next_player is not None
        # seat by seat, as roll(): one run of draws cut into cups
        flat = [int(rand() * faces) + 1 for _ in range(sum(counts))]
        cut = 0
        cups = []
        for c in counts:
            cups.append(tuple(flat[cut : cut + c]))
            cut += c
        dice = tuple(cups)
        palifico = next_palifico
        round_no += 1
        to_move = next_player


def random_games(
    variant: Variant, players: int, games: int, seed: int | None = None
) -> RandomGames:
    """Play ``games`` random games from one ``random.Random(seed)`` stream and total them."""
    if games < 0:
        raise ValueError("games must be >= 0")
    rng = random.Random(seed)
    wins = [0] * players
    rounds = decisions = bids = 0
    for _ in range(games):
        g = play(variant, players, rng)
        wins[g.winner] += 1
        rounds += g.rounds
        decisions += g.decisions
        bids += g.bids
    return RandomGames(games, rounds, decisions, bids, tuple(wins))
