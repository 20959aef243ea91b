"""Positions: the start of a round, as a value, with one JSON shape.

A :class:`Position` is what :meth:`Game.start` takes: the dice of every seat,
who opens, whether it is a palifico round, the round number, the seats that
already had their palifico round, and optionally the variant it is meant for.
Scenarios start from one, divergence witnesses are found from them, a game
record's rounds are written in the same shape, and ``perudo-rules check --json``
prints one.

The JSON shape of "a position plus actions" (:meth:`Position.to_json`,
:meth:`Position.from_json`, :func:`parse_line`)::

    {"variant": "italian", "round": 1, "first_player": 0, "palifico": false,
     "palifico_used": [], "dice": [[1, 4], [], [2, 2, 6]],
     "actions": ["0:3x4", "2:dudo", "roll [[3], [], [1, 5]]", "2:1x5"]}

Only ``dice`` and ``first_player`` are required; ``variant`` (a bundled id or a
file), ``round`` (1), ``palifico`` (false), ``palifico_used`` ([]) and ``actions``
([]) may be left out. In a position *file* the ``variant`` names a file as ``extends``
does (:func:`~perudo_rules.editions.variantfile.named_variant_file`: a ``.yaml`` file in the
position file's folder or below; ``check --position`` reads it so). Actions use the notation
of :mod:`perudo_rules.base.actions`; ``roll [[...], ...]`` (a :class:`Roll`) is the chance
step that starts the next round with the dice given. Game records write their rounds in
this shape, with ``palifico_used`` stated once for the game (``setup.palifico_used``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perudo_rules.base.actions import Action, format_action, parse_action, syntax_error
from perudo_rules.base.errors import ActionSyntaxError, PositionError, VariantError
from perudo_rules.base.i18n import ntr, tr
from perudo_rules.base.limits import MAX_POSITION_BYTES, MAX_STEPS, json_problem, read_bounded
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import load_variant, named_variant_file
from perudo_rules.engine.game import Game

__all__ = [
    "Position",
    "Roll",
    "Step",
    "format_step",
    "parse_line",
    "parse_step",
    "position_variant_file",
    "read_position",
]

_KEYS = ("variant", "round", "first_player", "palifico", "palifico_used", "dice", "actions")


@dataclass(frozen=True, slots=True)
class Roll:
    """The chance step between two rounds: every cup rolled to ``dice`` (one tuple per seat).

    ``str(roll)`` is its notation, ``roll [[2, 3], [], [1]]``.
    """

    dice: tuple[tuple[int, ...], ...]

    def __str__(self) -> str:
        return "roll " + json.dumps([list(c) for c in self.dice])


Step = Action | Roll
"""One step of play: an action, or the roll that starts the next round."""


def format_step(step: Step) -> str:
    """The notation of a step: ``"0:3x4"``, ``"1:dudo"`` or ``"roll [[2], [], [1, 6]]"``."""
    return str(step) if isinstance(step, Roll) else format_action(step)


def parse_step(text: str) -> Step:
    """Read a step: an action (:func:`~perudo_rules.base.actions.parse_action`) or a roll.

    Raises :class:`~perudo_rules.base.errors.ActionSyntaxError`.

    >>> parse_step("0: bid 3x4")
    Bid(player=0, quantity=3, face=4)
    >>> parse_step("roll [[2], [], [1, 6]]")
    Roll(dice=((2,), (), (1, 6)))
    """
    stripped = text.strip() if isinstance(text, str) else ""
    if not stripped.startswith("roll"):
        return parse_action(text)
    try:
        dice = json.loads(stripped[4:])
    except (json.JSONDecodeError, RecursionError):
        raise syntax_error("roll-syntax", text) from None
    if not isinstance(dice, list) or not all(
        isinstance(c, list) and all(type(d) is int and d >= 1 for d in c) for c in dice
    ):
        raise syntax_error("roll-not-faces", text)
    return Roll(tuple(tuple(c) for c in dice))


@dataclass(frozen=True, slots=True)
class Position:
    """The start of a round: the arguments of :meth:`Game.start`, and the variant meant.

    ``dice`` holds one tuple per seat (empty for a seat that is out);
    ``first_player`` opens; ``palifico`` makes it a palifico round (the opener
    holds one die); ``round`` numbers it; ``palifico_used`` lists the seats that
    already had their palifico round; ``variant`` is a variant reference (a
    bundled id or a file) or ``None`` when the position is played under several.
    """

    dice: tuple[tuple[int, ...], ...]
    first_player: int
    palifico: bool = False
    round: int = 1
    palifico_used: tuple[int, ...] = ()
    variant: str | None = None

    @property
    def players(self) -> int:
        """The number of seats, out seats included."""
        return len(self.dice)

    @classmethod
    def of(cls, game: Game) -> Position:
        """The start of ``game``'s current round (``ValueError`` while it awaits a roll):
        with :attr:`Game.actions <perudo_rules.engine.game.Game.actions>` as steps, it plays to
        ``game``.

        ``variant`` is the reference the game's variant was loaded by, or ``None``
        when it cannot name it (overrides, or a variant built in memory).
        """
        if game.first_player is None or game.to_move is None:
            raise ValueError("the game is between rounds: no round has started")
        used = game.palifico_used - ({game.first_player} if game.palifico else set())
        return cls(
            dice=game.dealt,  # a cup that left the round (leave.round: continues) included
            first_player=game.first_player,
            palifico=game.palifico,
            round=game.round,
            palifico_used=tuple(sorted(used)),
            variant=game.variant.ref if game.variant.ref and not game.variant.overrides else None,
        )

    def game(self, variant: Variant | None = None) -> Game:
        """The :class:`Game` at this position under ``variant`` (default: :attr:`variant`
        loaded). ``ValueError`` if the variant does not allow the position."""
        if variant is None:
            if self.variant is None:
                raise ValueError("the position names no variant: pass one")
            variant = load_variant(self.variant)
        return Game.start(
            variant,
            self.dice,
            self.first_player,
            palifico=self.palifico,
            round=self.round,
            palifico_used=self.palifico_used,
        )

    def describe(self) -> str:
        """One sentence: the seats, their dice and who opens what kind of round (in the
        language of the context, :mod:`perudo_rules.base.i18n`)."""
        cups = ", ".join(tr("seat {n} {dice}", n=s, dice=list(c)) for s, c in enumerate(self.dice))
        facts = {"n": self.players, "cups": cups, "round": self.round, "first": self.first_player}
        if self.palifico:
            text = tr(
                "{n} seats ({cups}), round {round}, seat {first} opens a palifico round", **facts
            )
        else:
            text = tr(
                "{n} seats ({cups}), round {round}, seat {first} opens an ordinary round", **facts
            )
        used = [s for s in self.palifico_used if not (self.palifico and s == self.first_player)]
        if used:
            listed = ", ".join(map(str, used))
            seats = tr("seats {list}", list=listed) if len(used) > 1 else tr("seat {n}", n=listed)
            text += "; " + ntr(
                "{seats} already had a palifico round",
                "{seats} already had a palifico round",
                len(used),
                seats=seats,
            )
        return text

    def to_json(self, steps: Sequence[Step] = ()) -> dict[str, Any]:
        """The JSON shape of this position, plus ``steps`` as ``"actions"`` when given."""
        out: dict[str, Any] = {} if self.variant is None else {"variant": self.variant}
        out.update(
            round=self.round,
            first_player=self.first_player,
            palifico=self.palifico,
            palifico_used=list(self.palifico_used),
            dice=[list(c) for c in self.dice],
        )
        if steps:
            out["actions"] = [format_step(s) for s in steps]
        return out

    @classmethod
    def from_json(cls, data: Any) -> Position:
        """Read the JSON shape (``actions``, if present, are left to :func:`parse_line`).

        Raises :class:`~perudo_rules.base.errors.PositionError` naming the key at fault.
        """
        return parse_line(data)[0]


def _fail(key: str, message: str) -> PositionError:
    return PositionError(message, key_path=key)


def _int(value: Any, key: str, lo: int) -> int:
    if type(value) is not int or value < lo:
        raise _fail(
            key,
            tr("expected an integer of at least {lo}, not {value}", lo=lo, value=str(value)[:40]),
        )
    return value


def parse_line(data: Any) -> tuple[Position, tuple[Step, ...]]:
    """A position plus actions from its JSON shape: the :class:`Position` and the steps.

    Checks only the shape (types and keys); :meth:`Position.game` and the game
    check the rules. Raises :class:`~perudo_rules.base.errors.PositionError`.
    """
    if not isinstance(data, Mapping):
        raise PositionError(tr("a position must be a JSON object"))
    for key in data:
        if key not in _KEYS:
            raise _fail(str(key)[:60], tr("unknown key (allowed: {keys})", keys=", ".join(_KEYS)))
    for key in ("dice", "first_player"):
        if key not in data:
            raise PositionError(tr("missing required key {key}", key=repr(key)))
    dice = data["dice"]
    if not isinstance(dice, list) or not all(
        isinstance(c, list) and all(type(d) is int for d in c) for c in dice
    ):
        raise _fail("dice", tr("expected one list of integers per seat"))
    variant = data.get("variant")
    if variant is not None and not isinstance(variant, str):
        raise _fail("variant", tr("expected a variant id or file name"))
    palifico = data.get("palifico", False)
    if type(palifico) is not bool:
        raise _fail("palifico", tr("expected true or false"))
    used = data.get("palifico_used", [])
    if not isinstance(used, list):
        raise _fail("palifico_used", tr("expected a list of seats"))
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise _fail("actions", tr("expected a list of action texts"))
    steps = []
    for i, text in enumerate(actions):
        try:
            steps.append(parse_step(text))
        except ActionSyntaxError as exc:
            raise _fail(f"actions.{i}", exc.refusal.text()) from None
    position = Position(
        dice=tuple(tuple(c) for c in dice),
        first_player=_int(data["first_player"], "first_player", 0),
        palifico=palifico,
        round=_int(data.get("round", 1), "round", 1),
        palifico_used=tuple(_int(s, f"palifico_used.{i}", 0) for i, s in enumerate(used)),
        variant=variant,
    )
    return position, tuple(steps)


def position_variant_file(position: Position, path: str | Path) -> Path | None:
    """The variant file the ``variant`` of a position read from ``path`` names, by the
    policy for files named in files (:func:`~perudo_rules.editions.variant.named_variant_file`:
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
        path, MAX_POSITION_BYTES, PositionError, tr("cannot read the position: no such file")
    )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise PositionError(tr("cannot read the position: not valid UTF-8"), file=name) from None
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise PositionError(json_problem(exc), file=name) from None
    try:
        position, steps = parse_line(data)
    except PositionError as exc:
        raise PositionError(exc.message, file=name, key_path=exc.key_path) from None
    if len(steps) > MAX_STEPS:
        raise PositionError(
            tr("more than {most} actions", most=MAX_STEPS), file=name, key_path="actions"
        )
    position_variant_file(position, path)
    return position, steps
