"""Perft: how many legal action sequences a position has, depth by depth.

As chess engines prove their move generators by counting the positions a few moves deep
(*perft*), a Perudo engine proves its legality by counting the action sequences of a
round from a position with fixed dice. Every legal action of every seat is a branch: the
bids of the player to move, every Dudo and Calza any seat may call (out-of-turn calls
included) and, where ``reroll.enabled``, the player to move's re-rolls. A call ends the
round, so it is a leaf. ``nodes[d-1]`` counts the sequences of exactly ``d`` actions
(chess counting: a round that ended earlier is not extended); ``calls[d-1]`` how many of
them end with a call. The dice stay fixed: a re-roll's chance step is not an action, and
its dice come up as they lay before (:func:`rolled_as_before`), so that the counts are of
the move generator alone and any engine can be walked the same way.

The counts here come from the reference (:class:`~perudo_rules.engine.game.Game`), memoised on
what legality depends on within a round (the player to move, the standing bid, and the
dice set aside, with whether the player to move has just re-rolled).
``spec/perft/<edition>.json`` publishes them for the :func:`standard_positions` of every
bundled edition (``perudo-rules perft`` prints any position's; a test keeps the files
fresh; rewrite them with ``python -m perudo_rules.conform.perft``); ``perudo-rules conform``
counts the same sequences through an engine's legal actions and compares.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perudo_rules.base.actions import Bid, Reroll
from perudo_rules.base.i18n import tr
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import available_variants, data_dir, load_variant
from perudo_rules.engine.game import Game
from perudo_rules.records.position import Position

__all__ = [
    "PerftTable",
    "perft",
    "perft_dir",
    "perft_document",
    "perft_entries",
    "published",
    "rolled_as_before",
    "standard_positions",
]

#: How many sequences the deepest published depth may count at most.
PUBLISHED_NODES = 2_000_000
#: The deepest published depth.
PUBLISHED_DEPTH = 6


@dataclass(frozen=True, slots=True)
class PerftTable:
    """The counts of one position: ``nodes[d-1]`` sequences of ``d`` actions, ``calls[d-1]``
    of them ending with a call."""

    nodes: tuple[int, ...]
    calls: tuple[int, ...]


def rolled_as_before(game: Game, reroll: Reroll) -> tuple[tuple[int, ...], ...]:
    """The roll perft gives a legal ``reroll`` in ``game``: the re-rolled dice show the
    faces they showed (the seat's concealed dice, less the ones set aside, in cup order);
    one cup per seat, as :meth:`Game.roll <perudo_rules.engine.game.Game.roll>` takes them."""
    p = reroll.player
    hidden = list(game.dice[p][len(game.set_aside[p]) :])
    for f in reroll.set_aside:
        hidden.remove(f)
    return tuple([tuple(hidden) if s == p else () for s in range(game.players)])


def perft(game: Game, depth: int, budget: int | None = None) -> PerftTable:
    """The perft counts of ``game`` (a position with a seat to move) to ``depth``;
    ``ValueError`` when the walk would expand more than ``budget`` positions (each
    position counted once: the walk remembers what it counted), or when the position is
    between rounds or its re-rolled dice are still to be rolled."""
    if game.to_move is None:
        raise ValueError(tr("perft needs a position with a seat to move (not between rounds)"))
    if game.awaiting_roll:
        raise ValueError(
            tr("perft needs the re-rolled dice: the position ends with a re-roll whose roll is "
               "not given")
        )  # fmt: skip
    if depth < 1:
        raise ValueError(tr("the depth is at least 1"))
    memo: dict[tuple[object, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def count(g: Game, left: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        state = g.reroll
        now = state is not None and state.rerolled_now(g.to_move or 0, len(g.bids))
        key = (g.current_bid, g.to_move, left, g.set_aside if state is not None else (), now)
        hit = memo.get(key)
        if hit is not None:
            return hit
        if budget is not None and len(memo) >= budget:
            raise ValueError(
                tr("perft to depth {depth} expands more than {most} positions; give a smaller "
                   "--depth or a larger --nodes", depth=depth, most=f"{budget:,}")
            )  # fmt: skip
        nodes = [0] * left
        calls = [0] * left
        for a in g.legal_actions():
            nodes[0] += 1
            if not isinstance(a, (Bid, Reroll)):
                calls[0] += 1
            elif left > 1:
                after = g.apply(a)
                if isinstance(a, Reroll):
                    after = after.roll(dice=rolled_as_before(g, a))
                sub_nodes, sub_calls = count(after, left - 1)
                for i in range(left - 1):
                    nodes[i + 1] += sub_nodes[i]
                    calls[i + 1] += sub_calls[i]
        out = memo[key] = (tuple(nodes), tuple(calls))
        return out

    nodes, calls = count(game, depth)
    return PerftTable(nodes, calls)


def standard_positions(variant: Variant) -> list[tuple[str, str, Position]]:
    """The published positions of an edition: (name, description, position)."""
    rules = variant.rules
    faces = rules.dice_faces

    def die(i: int) -> int:
        return i % faces + 1

    out = [
        ("heads-up-1", "two seats, one die each, seat 0 opens",
         Position(dice=((die(1),), (die(4),)), first_player=0)),
    ]  # fmt: skip
    if rules.players_max >= 3:
        out.append(
            ("three-seats-2", "three seats, two dice each, seat 1 opens",
             Position(dice=((die(0), die(2)), (die(1), die(1)), (die(4), die(5))),
                      first_player=1))
        )  # fmt: skip
    elif rules.dice_per_player >= 2 or rules.dice_max_per_player >= 2:
        out.append(
            ("heads-up-2", "two seats, two dice each, seat 1 opens",
             Position(dice=((die(0), die(2)), (die(1), die(4))), first_player=1))
        )  # fmt: skip
    if rules.palifico_enabled and rules.players_max >= 3:
        out.append(
            ("palifico-3", "three seats, seat 0 opens its palifico round with one die",
             Position(dice=((die(1),), (die(2), die(3)), (die(4), die(0))), first_player=0,
                      palifico=True, round=4))
        )  # fmt: skip
    return out


def _depth_for(game: Game) -> PerftTable:
    table = perft(game, 1)
    for d in range(2, PUBLISHED_DEPTH + 1):
        deeper = perft(game, d)
        if deeper.nodes[-1] > PUBLISHED_NODES:
            break
        table = deeper
    return table


def perft_entries(variant: Variant) -> list[dict[str, Any]]:
    """The standard positions of ``variant`` counted by the reference: what an edition
    file, which has no published table, is checked against (each entry as published)."""
    positions = []
    for name, description, pos in standard_positions(variant):
        table = _depth_for(pos.game(variant))
        positions.append(
            {
                "name": name,
                "description": description,
                "position": pos.to_json(),
                "nodes": list(table.nodes),
                "calls": list(table.calls),
            }
        )
    return positions


def perft_document(variant_id: str) -> dict[str, Any]:
    """The published perft table of a bundled edition (``spec/perft/<id>.json``)."""
    return {"edition": variant_id, "positions": perft_entries(load_variant(variant_id))}


def perft_dir() -> Path:
    """Where the published tables live: ``spec/perft/``."""
    return data_dir("spec") / "perft"


def published(variant_id: str) -> list[dict[str, Any]]:
    """The published positions of ``variant_id`` (none when it has no table)."""
    path = perft_dir() / f"{variant_id}.json"
    if not path.is_file():
        return []
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    positions: list[dict[str, Any]] = data["positions"]
    return positions


def _write_all() -> None:  # pragma: no cover - run by hand when the rules change
    perft_dir().mkdir(exist_ok=True)
    for vid in available_variants():
        text = json.dumps(perft_document(vid), indent=2) + "\n"
        (perft_dir() / f"{vid}.json").write_text(text, encoding="utf-8")
        print(f"wrote spec/perft/{vid}.json", file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    _write_all()
