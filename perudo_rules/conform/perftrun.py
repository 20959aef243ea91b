"""Perft through an engine: the published counts of a position, walked by the engine.

:func:`count_through` starts the engine at a perft position, lists every action of
every seat, plays each bid and walks on, to the deepest depth the budget allows, and
compares the counts with the reference's. On a mismatch it gives the divide (the
counts per first move, :func:`~perudo_rules.conform.plan.divide`) and the first
position where the engine's legal actions differ, judged like any point of a run.
"""

from __future__ import annotations

from typing import Any

from perudo_rules.base.actions import Bid, Reroll, format_action, parse_action
from perudo_rules.base.i18n import tr
from perudo_rules.conform.check import listed_actions
from perudo_rules.conform.observe import Judged, Point, judge
from perudo_rules.conform.perft import rolled_as_before
from perudo_rules.conform.plan import divide
from perudo_rules.conform.process import Channel, HarnessError
from perudo_rules.conform.report import PerftCheck
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.game import Game
from perudo_rules.records.position import Position, Roll, Step, format_step

__all__ = ["count_through"]


class _Skipped(Exception):
    pass


class _Spent(Exception):
    """The engine's lists would take the walk past its budget of positions."""


def count_through(engine: Channel, variant: Variant, values: dict[str, Any],
                  entry: dict[str, Any], budget: int,
                  differences: list[Judged]) -> PerftCheck | None:  # fmt: skip
    """Count a perft ``entry`` (a published position and its counts) through the engine,
    to the deepest depth whose walk expands at most ``budget`` positions (the reference's
    walk; an engine that lists more, or lists actions the reference refuses, is never
    walked further than that: a refused action is counted, not walked); ``None`` when
    the engine skips the start. On a mismatch, the check holds the divide, and the first
    position where the engine's lists differ joins ``differences``."""
    pos = Position.from_json(entry["position"])
    nodes: list[int] = entry["nodes"]
    calls: list[int] = entry["calls"]
    depth, expanded = 1, 1
    while depth < len(nodes) and expanded + nodes[depth - 1] - calls[depth - 1] <= budget:
        expanded += nodes[depth - 1] - calls[depth - 1]
        depth += 1
    got = [0] * depth
    by_first: dict[str, list[int]] = {}
    seats = [s for s, c in enumerate(pos.dice) if c]
    reference = pos.game(variant)
    start = {
        "cmd": "start", "edition": values, "dice": [list(c) for c in pos.dice],
        "first_player": pos.first_player, "round": pos.round, "palifico": pos.palifico,
        "palifico_used": list(pos.palifico_used),
    }  # fmt: skip
    first: list[Judged] = []
    walked = [0]  # the positions walked through the engine, at most ``budget``

    def walk(path: list[Step]) -> None:
        reply = engine.ask(start)
        if "skip" in reply:
            raise _Skipped
        ref = reference
        for step in path:
            if isinstance(step, Roll):
                request: dict[str, Any] = {"cmd": "roll", "dice": [list(c) for c in step.dice]}
                if engine.ask(request).get("ok") is not True:
                    raise HarnessError(tr("perft: the engine refuses a re-roll's roll"))
                ref = ref.roll(dice=step.dice)
                continue
            text = format_action(step)
            if engine.ask({"cmd": "act", "action": text}).get("ok") is not True:
                raise HarnessError(
                    tr("perft: the engine refuses {action}, which it listed", action=text)
                )
            if ref.violation(step) is not None:  # listed, refused: counted, not walked
                return
            ref = ref.apply(step)
        listed = {seat: listed_actions(engine, seat) for seat in seats}
        children = [t for seat in seats for t in listed[seat]]
        if not first:
            _first_difference(variant, pos, path, ref, listed, first)
        played = sum(1 for step in path if not isinstance(step, Roll))  # a re-roll's roll: no
        got[played] += len(children)
        if path:
            key = format_step(path[0])
            counts = by_first.setdefault(key, [0] * depth)
            counts[played] += len(children)
        if played + 1 < depth:
            for text in children:
                a = parse_action(text)
                if not isinstance(a, Bid | Reroll) or ref.violation(a) is not None:
                    continue  # a call ends the round; listed but refused: counted, not walked
                if walked[0] >= budget:  # the engine lists more than the reference's walk
                    raise _Spent
                walked[0] += 1
                if isinstance(a, Bid):
                    walk([*path, a])
                else:
                    walk([*path, a, Roll(rolled_as_before(ref, a))])

    try:
        walk([])
    except _Skipped:
        return None
    except _Spent:
        pass  # the counts so far differ from the reference's: a failure, found in time
    check = PerftCheck(entry["name"], depth, nodes[:depth], got)
    if not check.ok:
        check.divide = divide(reference, by_first, depth)
        differences += first
    return check


def _first_difference(variant: Variant, pos: Position, path: list[Step], ref: Game,
                      listed: dict[int, list[str]], into: list[Judged]) -> None:  # fmt: skip
    """The first perft position where the engine's lists differ, as judged points."""
    if ref.to_move is None or ref.awaiting_roll:
        return
    for seat, texts in listed.items():
        obs = Point(pos, tuple(path), "legal", variant, "perft", seat=seat,
                          engine=frozenset(texts))  # fmt: skip
        found = judge(obs, credit=False)
        if found is not None and not found.ok:
            into.append(found)
