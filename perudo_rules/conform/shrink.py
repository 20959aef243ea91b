"""Minimal witnesses: a failing case made smaller while the same rule still fails.

A :class:`Case` is one round: its start position, the actions played, and optionally a
last action the reference refuses (a probe). :func:`shrink` tries, greedily, cases with
fewer seats, fewer dice and fewer actions, replaying each against the engine, and keeps
every one in which the same rule id still fails; it stops when nothing smaller fails or
after a bounded number of replays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from perudo_rules.base.actions import Action, Bid, Calza, Dudo, Reroll
from perudo_rules.records.position import Position, Roll, Step

__all__ = ["Case", "shrink"]


@dataclass(frozen=True, slots=True)
class Case:
    """One round to replay: ``position``, ``actions`` (legal in the reference; a re-roll's
    roll among them), ``probe``."""

    position: Position
    actions: tuple[Step, ...]
    probe: Action | None = None

    @property
    def size(self) -> tuple[int, int, int, int, int]:
        """Seats with dice, seats, dice, actions, then history (a later round, seats that
        had their palifico round): what a smaller witness has less of."""
        pos = self.position
        dice = pos.dice
        history = (pos.round != 1) + pos.palifico + len(pos.palifico_used)
        held = sum(1 for c in dice if c)
        return (held, len(dice), sum(len(c) for c in dice), len(self.actions), history)


def _seat(a: Action, seat: int) -> Action:
    if isinstance(a, Bid):
        return Bid(seat, a.quantity, a.face)
    if isinstance(a, Reroll):
        return Reroll(seat, a.set_aside)
    return Dudo(seat) if isinstance(a, Dudo) else Calza(seat)


def _without_seat(case: Case, gone: int) -> Case | None:
    pos = case.position
    if pos.first_player == gone or (case.probe is not None and case.probe.player == gone):
        return None

    def renum(s: int) -> int:
        return s - (s > gone)

    def moved(a: Step) -> Step:
        if isinstance(a, Roll):
            return Roll(a.dice[:gone] + a.dice[gone + 1 :])
        return _seat(a, renum(a.player))

    actions = tuple(moved(a) for a in case.actions if isinstance(a, Roll) or a.player != gone)
    probe = None if case.probe is None else _seat(case.probe, renum(case.probe.player))
    return Case(
        replace(
            pos,
            dice=pos.dice[:gone] + pos.dice[gone + 1 :],
            first_player=renum(pos.first_player),
            palifico_used=tuple(renum(s) for s in pos.palifico_used if s != gone),
        ),
        actions,
        probe,
    )


def _lowered(case: Case) -> Case | None:
    """Every bid one die lower (what the dice removed from the table took away)."""
    if not any(isinstance(a, Bid) for a in case.actions) or any(
        isinstance(a, Bid) and a.quantity < 2 for a in (*case.actions, case.probe)
    ):
        return None

    def low(a: Step | None) -> Step | None:
        return Bid(a.player, a.quantity - 1, a.face) if isinstance(a, Bid) else a

    actions = tuple(x for x in (low(a) for a in case.actions) if x is not None)
    probe = low(case.probe)
    assert not isinstance(probe, Roll)
    return Case(case.position, actions, probe)


def _candidates(case: Case) -> Iterator[Case]:
    pos = case.position
    n = len(pos.dice)
    for s in range(n):  # fewer seats (and bids one lower, as the seat's dice are gone)
        smaller = _without_seat(case, s)
        if smaller is not None:
            yield smaller
            lowered = _lowered(smaller)
            if lowered is not None:
                yield lowered
    for s, cup in enumerate(pos.dice):  # fewer dice
        for value in dict.fromkeys(cup):
            i = cup.index(value)
            dice = (*pos.dice[:s], cup[:i] + cup[i + 1 :], *pos.dice[s + 1 :])
            fewer = replace(case, position=replace(pos, dice=dice))
            yield fewer
            lowered = _lowered(fewer)
            if lowered is not None:
                yield lowered
    for k in range(1, n + 1):  # fewer actions: a run of k bids, k seats round
        for i in range(len(case.actions) - k + 1):
            run = case.actions[i : i + k]
            if all(isinstance(a, Bid) for a in run):
                yield replace(case, actions=case.actions[:i] + case.actions[i + k :])
    if pos.palifico:
        yield replace(case, position=replace(pos, palifico=False))
    if pos.round != 1 or (pos.palifico_used and not pos.palifico):
        yield replace(case, position=replace(pos, round=1, palifico_used=()))


def shrink(case: Case, fails: Callable[[Case], Case | None], budget: int = 200) -> Case:
    """The smallest case found from ``case`` for which ``fails`` still answers (the case,
    possibly cut short where the rule failed); ``budget`` bounds the replays."""
    best = case
    tries = 0
    improved = True
    while improved and tries < budget:
        improved = False
        for cand in _candidates(best):
            if tries >= budget:
                break
            tries += 1
            kept = fails(cand)
            if kept is not None and kept.size < best.size:
                best = kept
                improved = True
                break
    return best
