"""The ``check`` command: is each bid of a sequence a legal raise of the one before, and
may a Dudo or Calza be called (``--bids "3x4 calza"``, ``2:calza`` for seat 2)?

The bids are checked from a :class:`~perudo_rules.position.Position`: a fresh round
built from ``--players``/``--dice``/``--palifico``/``--round``, or one read with
``--position FILE.json`` in the JSON shape of a position plus actions (its actions
are played first). ``--json`` prints the position reached in the same shape.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perudo_rules.actions import Action, Bid, Calza, Dudo, Leave, parse_action
from perudo_rules.commands.table import format_table
from perudo_rules.describe import describe_result
from perudo_rules.errors import PositionError, VariantError
from perudo_rules.game import Game
from perudo_rules.limits import (
    MAX_POSITION_BYTES,
    MAX_STEPS,
    read_bounded,
    short_number,
)
from perudo_rules.position import Position, Roll, Step, parse_line
from perudo_rules.rules import rule_text
from perudo_rules.safetext import json_text, printable
from perudo_rules.start import seats_verdict
from perudo_rules.variant import Variant, load_variant, named_variant_file

__all__ = [
    "BidVerdict",
    "check_bids",
    "fresh_position",
    "position_variant_file",
    "read_position",
    "register",
]


@dataclass(frozen=True, slots=True)
class BidVerdict:
    """The verdict on one action (a bid, or a Dudo or Calza call): who acts, what bid
    stood before, and the rule that forbids it (``bid`` is the action checked)."""

    index: int
    bid: Action
    standing: Bid | None
    rule: str | None
    reason: str | None

    @property
    def legal(self) -> bool:
        """True when no rule forbids the bid."""
        return self.rule is None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping."""
        return {
            "index": self.index,
            "seat": self.bid.player,
            "bid": str(self.bid),
            "standing": None if self.standing is None else str(self.standing),
            "legal": self.legal,
            "rule": self.rule,
            "reason": self.reason,
        }


def fresh_position(
    variant: Variant,
    players: int | None = None,
    dice: int | None = None,
    palifico: bool = False,
    round: int = 1,
) -> Position:
    """A fresh round of ``variant`` where seat 0 opens.

    ``players`` seats (default: the variant's most) hold ``dice`` dice each (default:
    ``dice.per_player``); with ``palifico`` seat 0 holds one die and opens a palifico
    round. Dice values never matter for legality, so every die shows the highest face.
    The sizes are checked against the variant before anything is built (``ValueError``).
    """
    rules = variant.rules
    # checked before the cups are built: --players 100000000 must cost nothing
    n = rules.players_max if players is None else players
    per = rules.dice_per_player if dice is None else dice
    most = rules.dice_max_per_player
    if type(per) is not int or not 1 <= per <= most:
        raise ValueError(
            f"--dice: {short_number(per)} dice a seat; {variant.id} allows 1 to {most}"
        )
    bad = seats_verdict(rules, n, variant.id)
    if bad is not None:
        raise ValueError(bad[1])
    cups = [(rules.dice_faces,) * per for _ in range(n)]
    if palifico:
        cups[0] = (rules.dice_faces,)
    return Position(tuple(cups), 0, palifico=palifico, round=round, variant=variant.ref or None)


def position_variant_file(position: Position, path: str | Path) -> Path | None:
    """The variant file the ``variant`` of a position read from ``path`` names, by the
    policy for files named in files (:func:`~perudo_rules.variant.named_variant_file`:
    a bundled id, or a ``.yaml`` file in the position file's folder or below); ``None``
    when it names none. :class:`PositionError` (file, ``variant``, what is wrong) else."""
    if position.variant is None:
        return None
    try:
        return named_variant_file(position.variant, path)
    except VariantError as exc:
        raise PositionError(exc.message, file=str(path), key_path="variant") from None


def read_position(path: str | Path) -> tuple[Position, tuple[Step, ...]]:
    """A position plus actions from a JSON file (:class:`PositionError` if it is not one,
    or if its ``variant`` names a file that :func:`position_variant_file` refuses)."""
    name = str(path)
    raw = read_bounded(
        path, MAX_POSITION_BYTES, PositionError, "cannot read the position: no such file"
    )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise PositionError("cannot read the position: not valid UTF-8", file=name) from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise PositionError(f"invalid JSON: {exc}"[:200], file=name) from None
    try:
        position, steps = parse_line(data)
    except PositionError as exc:
        raise PositionError(exc.message, file=name, key_path=exc.key_path) from None
    if len(steps) > MAX_STEPS:
        raise PositionError(f"more than {MAX_STEPS} actions", file=name, key_path="actions")
    position_variant_file(position, path)
    return position, steps


def check_bids(
    variant: Variant,
    bids: list[str],
    players: int | None = None,
    dice: int | None = None,
    palifico: bool = False,
    round: int = 1,
    position: Position | None = None,
    before: Sequence[Step] = (),
) -> tuple[Game, list[BidVerdict]]:
    """Check ``bids`` (``"8x4"`` ...) in turn from ``position`` after the steps ``before``.

    ``position`` defaults to :func:`fresh_position` of the other arguments; at most
    :data:`~perudo_rules.limits.MAX_STEPS` bids are checked at once.
    A legal bid stands and passes the turn; an illegal one is refused and the same seat
    bids again, so later bids are checked against the last legal one.
    ``ValueError`` for a text that is not a bid, a position the variant does not allow,
    a step before that is illegal, or no seat to bid.
    """
    if len(bids) > MAX_STEPS:
        raise ValueError(f"{len(bids)} bids; check takes at most {MAX_STEPS} at once")
    if position is None:
        position = fresh_position(variant, players, dice, palifico, round)
    game = position.game(variant)
    for step in before:
        game = game.roll(dice=step.dice) if isinstance(step, Roll) else game.apply(step)
    parsed = [_parse(text) for text in bids]
    verdicts = []
    for i, raw in enumerate(parsed, 1):
        if game.to_move is None:
            raise ValueError(f"step {i}: no seat is to act, the round is over")
        bid = raw(game.to_move) if callable(raw) else raw
        bad = game.violation(bid)
        if bad is None:
            verdicts.append(BidVerdict(i, bid, game.current_bid, None, None))
            game = game.apply(bid)
        else:
            verdicts.append(BidVerdict(i, bid, game.current_bid, bad[0], bad[1]))
    return game, verdicts


def _parse(text: str) -> Action | Callable[[int], Action]:
    """An action as ``check`` reads it: ``3x4``, ``dudo``, ``calza`` or ``leave`` (by the
    seat to move when it is checked), or with a seat, ``2:calza``."""
    word = text.strip().lower()
    if ":" in word:
        return parse_action(word)
    calls: dict[str, type[Dudo | Calza | Leave]] = {"dudo": Dudo, "calza": Calza, "leave": Leave}
    if word in calls:
        call = calls[word]
        return lambda seat: call(seat)
    raw = Bid.parse(text)
    return lambda seat: Bid(seat, raw.quantity, raw.face)


def _split_bids(values: list[str]) -> list[str]:
    out = [t for v in values for t in re.split(r"[\s,;]+", v.strip()) if t]
    if not out:
        raise ValueError('no bids given (write them like --bids "8x4 5x1")')
    return out


def _run(args: argparse.Namespace) -> int:
    variant = load_variant(args.variant)
    before: tuple[Step, ...] = ()
    if args.position is not None:
        given = [
            args.players,
            args.dice,
            args.palifico or None,
            args.round if args.round != 1 else None,
        ]
        if any(x is not None for x in given):
            raise ValueError("--position replaces --players, --dice, --palifico and --round")
        position, before = read_position(args.position)
        named = position_variant_file(position, args.position)
        if named is not None and load_variant(named).id != variant.id:
            raise ValueError(f"the position is for {position.variant}, not {variant.id}")
    else:
        position = fresh_position(variant, args.players, args.dice, args.palifico, args.round)
    game, verdicts = check_bids(variant, _split_bids(args.bids), position=position, before=before)
    ok = all(v.legal for v in verdicts)
    if args.json:
        played = (*before, *(v.bid for v in verdicts if v.legal))
        data = {
            "variant": variant.id,
            "players": game.players,
            "dice": list(game.dice_counts),
            "palifico": game.palifico,
            "round": game.round,
            "legal": ok,
            "bids": [v.to_dict() for v in verdicts],
            "position": position.to_json(played),
        }
        print(json_text(data))
        return 0 if ok else 1
    # the round checked: after a call ended it, as it was before the call
    ended = game.history[-1] if game.to_move is None and game.history else None
    palifico = game.palifico if ended is None else ended.palifico
    held = game.dice_counts if ended is None else tuple(len(cup) for cup in ended.dice)
    kind = "palifico round" if palifico else "round"
    counts = " ".join(map(str, held))
    print(
        printable(f"{variant.name} ({variant.id}): ")
        + f"{kind} {game.round}, {game.players} seats holding "
        f"{counts} dice ({sum(held)} in play), seat {game.first_player} opens"
        + (f", after {len(before)} steps" if before else "")
    )
    rows = [
        (
            v.index,
            v.bid.player,
            str(v.bid),
            "-" if v.standing is None else str(v.standing),
            "legal" if v.legal else f"ILLEGAL [{v.rule}] {v.reason}",
        )
        for v in verdicts
    ]
    print(format_table(["#", "seat", "bid", "standing bid", "verdict"], rows))
    bad = [v for v in verdicts if not v.legal]
    for rule in dict.fromkeys(v.rule for v in bad if v.rule is not None):
        print(f"\n{rule}: {printable(' '.join(rule_text(rule, variant).split()))}")
    what = "bid" if all(isinstance(v.bid, Bid) for v in verdicts) else "action"
    if len(verdicts) == 1:
        print(f"\nThe {what} is {'illegal' if bad else 'legal'}.")
    elif bad:
        print(f"\n{len(bad)} of {len(verdicts)} {what}s illegal.")
    else:
        print(f"\nAll {len(verdicts)} {what}s legal.")
    if ended is not None and args.position is not None:  # a call ended the round: how
        result = describe_result(ended.result, game.dice_counts, winner=game.winner)
        print()
        print(printable(f"{result}."))
    elif ended is not None:  # a fresh round's dice are placeholders: no outcome to tell
        print("\nThe call ends the round; give the dice with --position to see how.")
    return 0 if ok else 1


def register(subparsers: Any) -> None:
    """Add the ``check`` command."""
    p = subparsers.add_parser(
        "check",
        help="is each bid a legal raise of the one before, and if not which rule forbids it",
        description=(
            "Check a sequence of bids in a fresh round of VARIANT: seats bid in turn from "
            "seat 0; a legal bid stands, an illegal one is refused (naming the rule id and "
            "the reason) and the same seat bids again. Exit 0 if every bid is legal, 1 if "
            "some bid is illegal, 2 on bad input."
        ),
    )
    p.add_argument("variant", metavar="VARIANT", help="a bundled id (see 'list') or a .yaml path")
    p.add_argument(
        "--bids",
        required=True,
        nargs="+",
        metavar="BIDS",
        help=(
            'bids as QUANTITYxFACE and calls, e.g. --bids "8x4 5x1 calza" (spaces or commas '
            "between); dudo/calza is called by the seat to move, SEAT:calza by another seat"
        ),
    )
    p.add_argument(
        "--palifico",
        action="store_true",
        help="seat 0 holds one die and opens a palifico round",
    )
    p.add_argument(
        "--players", type=int, metavar="N", help="seats at the table (default: the variant's most)"
    )
    p.add_argument(
        "--dice",
        type=int,
        metavar="N",
        help="dice per seat (default: the variant's starting dice)",
    )
    p.add_argument(
        "--round",
        type=int,
        default=1,
        metavar="N",
        help="the round number of the game (default 1; matters for wild-opening rules)",
    )
    p.add_argument(
        "--position",
        metavar="FILE.json",
        help=(
            "start from this position instead (JSON: dice, first_player, palifico, round, "
            "palifico_used, and actions played before the bids)"
        ),
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(handler=_run)
