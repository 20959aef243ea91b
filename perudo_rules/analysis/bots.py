"""Bots that play any variant, and a driver that plays whole games with them.

A :class:`Bot` answers ``choose(game, player)``: the action seat ``player``
takes now, or ``None`` to decline an out-of-turn call. Bots look only at what
:meth:`Game.observation` gives their own seat (own dice, dice counts, bids) and at
the public shape of the round (``game.legal_actions()``, ``game.is_legal``,
``game.space``, ``game.rules``), never at another seat's dice.

* :class:`RandomBot` plays a uniformly random action among its own legal ones.
* :class:`BaselineBot` bids and calls on the exact odds of
  :mod:`perudo_rules.analysis.probability`.

:func:`play_game` plays a game from :meth:`Game.new` to the end; the same
seed gives the same game on every machine.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from perudo_rules.analysis.probability import bid_probability_float, exact_probability_float
from perudo_rules.base.actions import Action, Bid, Calza, Dudo
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.settlement import calza_gain_limit

__all__ = [
    "BOTS",
    "BaselineBot",
    "Bot",
    "RandomBot",
    "derive_seed",
    "make_bot",
    "out_of_turn_calls",
    "play_game",
]


@runtime_checkable
class Bot(Protocol):
    """A player: ``choose`` returns seat ``player``'s action now, or ``None`` to decline.

    The driver asks the player to move (who must act) and, after each bid,
    every other seat that may call out of turn (who may decline).
    """

    def choose(self, game: Game, player: int) -> Action | None:
        """The action of seat ``player`` in ``game`` (``None``: no out-of-turn call)."""
        ...


def derive_seed(*parts: int | str) -> int:
    """A 63-bit seed derived from ``parts`` (SHA-256: the same on every machine)."""
    text = "\x1f".join(f"{type(p).__name__}:{p}" for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def _draw(rng: random.Random, n: int) -> int:
    # like randrange(n) but from rng.random() only, whose sequence is fixed per seed
    return min(int(rng.random() * n), n - 1)


def out_of_turn_calls(game: Game, player: int) -> list[Action]:
    """The Dudo/Calza calls seat ``player`` may make now while it is not its turn."""
    if game.to_move is None or player == game.to_move or not game.bids:
        return []
    return [a for a in (Dudo(player), Calza(player)) if game.is_legal(a)]


class RandomBot:
    """Uniformly random play among the seat's own legal actions.

    On its turn: every legal bid of the seat and its own Dudo/Calza calls and re-rolls,
    equally likely (an index is drawn into ``game.legal_actions()``, nothing
    is materialised). Out of turn: declining and each available call, equally likely.
    """

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def __repr__(self) -> str:
        return "RandomBot()"

    def choose(self, game: Game, player: int) -> Action | None:
        """A uniformly random action of seat ``player`` (``None``: decline)."""
        if game.to_move is None or game.awaiting_roll:
            return None
        if player != game.to_move:
            calls = out_of_turn_calls(game, player)
            if not calls:
                return None
            i = _draw(self._rng, len(calls) + 1)
            return None if i == 0 else calls[i - 1]
        legal = game.legal_actions()
        nb = len(legal.bid_ranks)
        own = [i for i in range(nb, len(legal)) if legal[i].player == player]
        i = _draw(self._rng, nb + len(own))
        return legal[i] if i < nb else legal[own[i - nb]]


class BaselineBot:
    """A simple player that acts on the exact odds of the bids, seen from its own cup.

    On its turn, with a standing bid, it weighs three risks of losing a die:

    * Dudo loses if the bid holds: ``P(count >= q)``;
    * a raise loses if it is doubted and false: ``raise_risk * (1 - P(raise holds))``
      for the most likely legal raise (the lowest legal quantity on each face; ties
      broken at random), ``raise_risk`` standing for the chance that a raise is doubted;
    * Calza (only when it may gain a die) loses unless exact: ``1 - P(count == q)``;

    and takes the least risky (raise, then Dudo, then Calza on ties); it never re-rolls,
    and counts the dice other seats set aside face up as seen. Its
    opening bid is, over the faces, the highest-ranked bid that holds with
    probability at least a confidence drawn from ``opening_confidence``.
    Out of turn it calls Calza when ``P(exact) >= calza_threshold`` and it may
    gain a die, Dudo when ``P(holds) <= dudo_threshold``; otherwise it declines.
    """

    def __init__(
        self,
        seed: int | None = None,
        *,
        opening_confidence: tuple[float, float] = (0.55, 0.85),
        calza_threshold: float = 0.5,
        dudo_threshold: float = 0.1,
        raise_risk: float = 0.6,
    ) -> None:
        lo, hi = opening_confidence
        if not 0.0 < lo <= hi <= 1.0:
            raise ValueError(f"opening_confidence must satisfy 0 < low <= high <= 1, not {lo, hi}")
        self._rng = random.Random(seed)
        self.opening_confidence = (lo, hi)
        self.calza_threshold = calza_threshold
        self.dudo_threshold = dudo_threshold
        if not 0.0 <= raise_risk <= 1.0:
            raise ValueError(f"raise_risk must lie in [0, 1], not {raise_risk}")
        self.raise_risk = raise_risk

    def __repr__(self) -> str:
        return "BaselineBot()"

    def choose(self, game: Game, player: int) -> Action | None:
        """Seat ``player``'s action: see the class docstring for the policy."""
        if game.to_move is None or game.awaiting_roll:
            return None
        if not 0 <= player < game.players:
            raise ValueError(f"no seat {player}")
        # What the seat sees (as game.observation(player) gives it, without building the
        # views of every past round, which it does not use: that cost grows with the game)
        own = game.dice[player]
        dice_counts = game.dice_counts
        if not own:
            return None
        space = game.space
        wild = space.wild
        faces = space.faces
        rules = game.rules
        # its own dice and the dice other seats set aside face up (reroll.enabled) are seen
        seen = (own, *[c for s, c in enumerate(game.set_aside) if s != player and c])
        unknown = sum(dice_counts) - sum(len(c) for c in seen)
        # seen dice that count for a bid on each face (the kernel's count rule); index 0 unused
        known = [0, *(game.round_rules.count(seen, f) for f in range(1, faces + 1))]

        def holds(q: int, f: int) -> float:
            return bid_probability_float(known[f], unknown, q, f, faces, wild)

        bids = game.bids
        if not bids:
            if player != game.to_move:
                return None
            return self._opening(game, player, holds)
        cur = bids[-1]
        p_hold = holds(cur.quantity, cur.face)
        can_gain = dice_counts[player] < calza_gain_limit(rules)
        calza_ok = can_gain and game.is_legal(Calza(player))
        p_exact = (
            exact_probability_float(known[cur.face], unknown, cur.quantity, cur.face, faces, wild)
            if calza_ok
            else 0.0
        )
        if player != game.to_move:
            if calza_ok and p_exact >= self.calza_threshold:
                return Calza(player)
            if p_hold <= self.dudo_threshold and game.is_legal(Dudo(player)):
                return Dudo(player)
            return None

        raise_bid, p_raise = self._best_raise(game, player, holds)
        options: list[tuple[float, Action]] = []
        if raise_bid is not None:
            options.append((self.raise_risk * (1.0 - p_raise), raise_bid))
        if game.is_legal(Dudo(player)):
            options.append((p_hold, Dudo(player)))
        if calza_ok:
            options.append((1.0 - p_exact, Calza(player)))
        if not options:  # pragma: no cover - the player to move can always bid or call
            raise ValueError(f"seat {player} has no action")
        return min(options, key=lambda o: o[0])[1]

    def _opening(self, game: Game, player: int, holds: Callable[[int, int], float]) -> Action:
        lo, hi = self.opening_confidence
        conf = lo + (hi - lo) * self._rng.random()
        space = game.space
        best: Bid | None = None
        best_rank = -1
        for f in range(1, space.faces + 1):
            # the most dice of face f that hold with probability conf: holds() falls as the
            # quantity grows, so a binary search finds it (50,000 dice: 16 steps, not 25,000)
            q, hi = 0, len(space.face_ranks[f])  # the cap, or a lower bidding.quantity_limit
            while q < hi:
                mid = (q + hi + 1) // 2
                if holds(mid, f) >= conf:
                    q = mid
                else:
                    hi = mid - 1
            bid = Bid(player, max(q, 1), f)
            r = space.rank(bid.quantity, f)
            if r is not None and r > best_rank and game.is_legal(bid):
                best, best_rank = bid, r
        if best is None:
            legal = game.legal_actions()
            return legal[0]
        return best

    def _best_raise(
        self, game: Game, player: int, holds: Callable[[int, int], float]
    ) -> tuple[Bid | None, float]:
        space = game.space
        table = space.bids
        faces = space.faces
        seen: set[int] = set()
        best: list[tuple[int, int]] = []
        best_p = -1.0
        for r in game.legal_actions().bid_ranks:
            q, f = table[r]
            if f in seen:
                continue
            seen.add(f)
            p = holds(q, f)
            if p > best_p + 1e-12:
                best, best_p = [(q, f)], p
            elif math.isclose(p, best_p, rel_tol=0.0, abs_tol=1e-12):
                best.append((q, f))
            if len(seen) == faces:
                break
        if not best:
            return None, 0.0
        q, f = best[_draw(self._rng, len(best))] if len(best) > 1 else best[0]
        return Bid(player, q, f), best_p


#: Bot names known to :func:`make_bot` (and the ``simulate --bot`` option).
BOTS: dict[str, Callable[[int | None], Bot]] = {
    "baseline": BaselineBot,
    "random": RandomBot,
}


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``"baseline"`` or ``"random"``); ``ValueError`` for an unknown name."""
    try:
        factory = BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})") from None
    return factory(seed)


def play_game(variant: Variant, players: int, bots: Sequence[Bot], seed: int) -> Game:
    """Play one game from ``Game.new(variant, players, seed)`` to the end; the finished game.

    ``bots[s]`` plays seat ``s``. Before each move, when a bid stands, the seats
    the kernel offers an out-of-turn call (:meth:`Game.call_offers`) are asked
    in its order; the first that calls ends the round. Otherwise the player to move acts. New
    rounds are rolled from a generator derived from ``seed``. A bot that
    declines its own turn or answers for another seat raises ``ValueError``;
    an illegal action raises :class:`~perudo_rules.base.errors.IllegalAction`.
    """
    if len(bots) != players:
        raise ValueError(f"{len(bots)} bots for {players} players")
    game = Game.new(variant, players, seed)
    roll_rng = random.Random(derive_seed(seed, "roll"))
    while not game.is_over:
        to_move = game.to_move
        if to_move is None or game.awaiting_roll:  # a round's dice, or a re-roll's
            game = game.roll(rng=roll_rng)
            continue
        action: Action | None = None
        for seat in game.call_offers():  # the kernel's offers, in its order
            action = bots[seat].choose(game, seat)
            if action is not None:
                if action.player != seat:
                    raise ValueError(f"the bot of seat {seat} acted for seat {action.player}")
                break
        if action is None:
            action = bots[to_move].choose(game, to_move)
            if action is None:
                raise ValueError(f"the bot of seat {to_move} declined its own turn")
            if action.player != to_move:
                raise ValueError(f"the bot of seat {to_move} acted for seat {action.player}")
        game = game.apply(action)
    return game
