"""The fast path's harness: the kernel's per-round tables, as :mod:`perudo_rules.engine.fastplay`
plays them, behind the protocol.

``python -m perudo_rules.harness.fastplay``. :func:`perudo_rules.engine.fastplay.play` draws whole
random games without building a state per action; this harness makes the same calls on
the same :class:`~perudo_rules.engine.kernel.RoundRules` (``opening_ranks`` / ``raise_ranks`` for
the bids, ``calls`` for Dudo and Calza, ``count`` and
:func:`~perudo_rules.engine.settlement.settle` for the outcome, then the next round's table
from the settlement) and the same re-roll functions of
:mod:`perudo_rules.engine.reroll`, one action at a time, so that the kit certifies the path the
simulations run on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from perudo_rules.base.actions import Action, Bid, Dudo, Reroll, format_action, parse_action
from perudo_rules.editions.ruleset import Ruleset
from perudo_rules.engine.fastplay import turn_actions
from perudo_rules.engine.kernel import RoundRules, round_rules
from perudo_rules.engine.reroll import RerollState, rerolled_dice, set_aside_dice
from perudo_rules.engine.settlement import settle
from perudo_rules.harness import (
    AWAITING_ROLL,
    GAME_OVER,
    Cups,
    Harness,
    edition_variant,
    outcome,
    refusal,
    serve,
)

__all__ = ["FastHarness"]


class FastHarness(Harness):
    """Kernel tables and ranks, as the fast path keeps them."""

    name = "perudo-rules fast path (kernel tables)"

    def __init__(self) -> None:
        self.rules: Ruleset | None = None
        self.rr: RoundRules | None = None
        self.dice: tuple[tuple[int, ...], ...] = ()
        self.counts: tuple[int, ...] = ()
        self.to_move: int | None = None
        self.cur = -1
        self.bidder = -1
        self.round_no = 1
        self.palifico = False
        self.owner: int | None = None
        self.used: frozenset[int] = frozenset()
        self.next: int | None = None
        self.over = False
        self.bids: list[Bid] = []
        self.reroll: RerollState | None = None

    def _round(self) -> None:
        assert self.rules is not None
        self.rr = round_rules(self.rules, self.counts, self.palifico, self.round_no,
                              self.owner, self.used)  # fmt: skip
        self.cur = -1
        self.bids = []
        self.reroll = None

    def _open(self) -> list[Action]:
        """The player to move's bids, then the calls and re-rolls, as the fast path draws."""
        rr, to_move = self.rr, self.to_move
        assert rr is not None and to_move is not None
        if self.reroll is not None and self.reroll.pending:
            return []
        ranks, others = turn_actions(rr, self.dice, self.reroll, to_move, self.bids)
        return [Bid(to_move, *rr.table.bids[r]) for r in ranks] + list(others)

    def start(self, edition: Mapping[str, Any], dice: Cups, first_player: int, round: int,
              palifico: bool, palifico_used: Sequence[int]) -> dict[str, Any]:  # fmt: skip
        """The round's table from the position (as ``Game.start`` would set it up)."""
        self.rules = edition_variant(edition).rules
        self.dice = tuple(tuple(c) for c in dice)
        self.counts = tuple(len(c) for c in self.dice)
        self.to_move = first_player
        self.round_no = round
        self.palifico = palifico
        self.owner = first_player if palifico else None
        self.used = frozenset(palifico_used) | ({first_player} if palifico else frozenset())
        self.over = False
        self._round()
        return {"ok": True}

    def legal(self, seat: int) -> list[str]:
        """The ranks open to the player to move, the calls the kernel lists, the re-rolls."""
        if self.rr is None or self.to_move is None:
            return []
        return [format_action(a) for a in self._open() if a.player == seat]

    def act(self, action: str) -> dict[str, Any]:
        """A bid moves the rank on; a call is counted and settled by the kernel."""
        rr, to_move = self.rr, self.to_move
        if self.over:
            return {"illegal": GAME_OVER}
        if rr is None or to_move is None:
            return {"illegal": AWAITING_ROLL}
        a = parse_action(action)
        if a not in self._open():
            why = "not an open rank, a listed call or a listed re-roll"
            return refusal(a, why, rr.table.faces)
        if isinstance(a, Bid):
            rank = rr.table.rank(a.quantity, a.face)
            assert rank is not None
            self.cur, self.bidder = rank, to_move
            self.bids.append(a)
            self.to_move = rr.successor[to_move]
            return {"ok": True}
        if isinstance(a, Reroll):  # the runner rolls its dice next
            self.dice, self.reroll = set_aside_dice(self.dice, self.reroll, len(self.bids), a)
            return {"ok": True}
        q, f = rr.table.bids[self.cur]
        bid = Bid(self.bidder, q, f)
        dudo = isinstance(a, Dudo)
        s = settle(rr, dudo, a.player, bid, rr.count(self.dice, f), to_move)
        before = self.counts
        self.counts = s.counts
        self.to_move = None
        self.next = s.next_player
        self.palifico = s.next_palifico
        self.owner = s.next_player if s.next_palifico else None
        self.used = s.used
        self.over = s.winner is not None
        return {"ok": True, "outcome": outcome(before, s.counts, s.next_player,
                                               s.next_palifico, s.winner)}  # fmt: skip

    def roll(self, dice: Cups) -> dict[str, Any]:
        """The next round's table, from the settlement; or a re-roll's dice."""
        cups = tuple(tuple(c) for c in dice)
        if self.reroll is not None and self.reroll.pending and self.to_move is not None:
            self.dice, self.reroll = rerolled_dice(self.dice, self.reroll, cups)
            return {"ok": True}
        self.dice = cups
        self.round_no += 1
        self.to_move = self.next
        self._round()
        return {"ok": True}


if __name__ == "__main__":  # pragma: no cover
    serve(FastHarness())
