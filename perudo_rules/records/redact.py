"""Redacted records (``to_record(game, viewer=seat)``): the dice a seat never saw, hidden.

:func:`redact` hides them in a record's rounds as written; :func:`placeholders` puts a
face under each hidden die so that :func:`perudo_rules.records.replay.walk` can follow the
public course of the round (turn order, every action's legality, every outcome that the
lifted cups decide), and :func:`hidden_dice` counts them for the referee. A round where a
seat re-rolled (``reroll.enabled``) hides the dice the table never saw: the ones it
re-rolled away (its cup as dealt, and every roll but the one it showed at the reveal):
:func:`~perudo_rules.engine.views.sight` says which.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from perudo_rules.base.actions import Reroll
from perudo_rules.base.i18n import tr
from perudo_rules.engine.views import sight
from perudo_rules.records.position import parse_step
from perudo_rules.records.recordformat import RecordError

__all__ = ["check_hidden", "hidden_dice", "placeholders", "redact"]


def redact(
    rounds: list[dict[str, Any]], lifted: Sequence[Sequence[int]], viewer: int | None
) -> None:
    """Hide in ``rounds`` (a game's, as :func:`~perudo_rules.records.record.to_record` writes them;
    ``lifted``: the cups lifted at each finished round's reveal) every die ``viewer`` (a
    seat; ``None``: a spectator) never saw, as :func:`~perudo_rules.engine.views.sight`
    says: another seat's cup unless lifted, and the true count of a round with a hidden die.

    Where a seat re-rolled (``reroll.enabled``) the table never saw the dice it re-rolled
    away: its cup as dealt is hidden, lifted or not, and so is every roll of its
    re-rolls but the last one of a cup lifted at the reveal (the dice it showed, beside
    the set-aside ones its re-rolls name)."""
    for i, rnd in enumerate(rounds):
        actions = rnd["actions"]
        by, places, rolls = _rerolls(actions)
        cups = rnd["dice"]
        shown = lifted[i] if i < len(lifted) else ()
        dice = [() if roll is None else roll[s] for s, roll in zip(by, rolls, strict=True)]
        seen = sight(viewer, cups, shown, by, dice)
        for seat, cup in enumerate(seen.cups):
            if cup is None:
                cups[seat] = [None] * len(cups[seat])
        for k, rolled in enumerate(seen.rolls):
            roll = rolls[k]
            if rolled is None and roll is not None:
                actions[places[k]] = _hidden_roll(roll, by[k])
        if not seen.whole and "result" in rnd:
            rnd["result"]["count"] = None  # the true count would tell the closed cups


def _rerolls(actions: Sequence[str]) -> tuple[list[int], list[int], list[list[Any] | None]]:
    """A round's re-rolls in its ``actions`` (as :func:`~perudo_rules.records.record.to_record`
    writes them: ``"2:reroll 5,5"``, then ``"roll [[], [], [3]]"`` if its dice were rolled),
    in order: the seat of each, and the place and the cups of the roll of its dice (-1 and
    ``None``: never rolled)."""
    by: list[int] = []
    places: list[int] = []
    rolls: list[list[Any] | None] = []
    after = False  # the step before was a re-roll
    for at, text in enumerate(actions):
        if after and text.startswith("roll"):
            places[-1] = at
            rolls[-1] = json.loads(text[4:])
        after = ":reroll" in text
        if after:
            by.append(int(text[: text.index(":")]))
            places.append(-1)
            rolls.append(None)
    return by, places, rolls


def check_hidden(data: Mapping[str, Any], file: str | None = None) -> None:
    """:class:`~perudo_rules.records.recordformat.RecordError` (with the key path of the
    value at fault) for a ``null`` die where no redaction puts one: ``data`` is a record
    already shaped as one (:func:`~perudo_rules.records.recordformat.check_shape`).

    :func:`redact` hides a cup whole or not at all, never the viewer's own dice, and in a
    roll only the dice of the seat whose re-roll (the step just before) rolled them; any
    other ``null`` is a forgery, not a view of a game, and the referee does not guess
    faces for it."""
    if "viewer" not in data:
        return
    viewer = data["viewer"]
    for r, rnd in enumerate(data["rounds"]):
        for seat, cup in enumerate(rnd["dice"]):
            _hidden_cup(cup, seat, viewer, f"rounds.{r}.dice.{seat}", file)
        by: int | None = None  # the seat whose re-roll is the step just before
        for k, text in enumerate(rnd["actions"]):
            where = f"rounds.{r}.actions.{k}"
            if text.startswith("roll") and "null" in text:
                if by is None:
                    said = tr(
                        "a roll with hidden dice that no re-roll precedes (a redacted record "
                        "hides only the dice of the re-roll just before)"
                    )
                    raise RecordError(said, file=file, key_path=where)
                for seat, cup in enumerate(json.loads(text[4:])):
                    if None in cup and seat != by:
                        said = tr(
                            "seat {seat} did not re-roll here, yet the roll hides its dice "
                            "(a roll hides only the dice of the seat that re-rolled: seat {by})",
                            seat=seat,
                            by=by,
                        )
                        raise RecordError(said, file=file, key_path=where)
                    _hidden_cup(cup, seat, viewer, where, file)
            step = None if text.startswith("roll") else parse_step(text)
            by = step.player if isinstance(step, Reroll) else None


def _hidden_cup(
    cup: Sequence[Any], seat: int, viewer: int | None, where: str, file: str | None
) -> None:
    """Refuse a cup hidden in part, or the viewer's own cup hidden (``where``: its key
    path, the roll's for a cup of a roll)."""
    if None not in cup:
        return
    if any(d is not None for d in cup):
        said = tr(
            "seat {seat}'s cup is hidden whole or not at all, not {n} of its {held} dice",
            seat=seat,
            n=cup.count(None),
            held=len(cup),
        )
        raise RecordError(said, file=file, key_path=where)
    if seat == viewer:
        said = tr("the record is seat {seat}'s, yet it hides that seat's own dice", seat=seat)
        raise RecordError(said, file=file, key_path=where)


def _hidden_roll(cups: Sequence[Sequence[Any]], seat: int) -> str:
    """A re-roll's roll (``cups``: one per seat) as a redacted record writes it: ``seat``'s
    dice ``null``."""
    hidden = [[None] * len(c) if s == seat else list(c) for s, c in enumerate(cups)]
    return "roll " + json.dumps(hidden)


def hidden_dice(rnd: Mapping[str, Any]) -> int:
    """How many dice a round of a (redacted) record hides: ``null`` in its cups and in the
    rolls of its re-rolls."""
    hidden = sum(d is None for cup in rnd["dice"] for d in cup)
    for text in rnd["actions"]:
        if text.startswith("roll"):
            hidden += text.count("null")
    return hidden


def placeholders(rnd: Mapping[str, Any], faces: int) -> tuple[dict[str, Any], list[int]]:
    """A round of a redacted record with a face under every hidden die, and the seats whose
    cups stay closed at its end (a die of theirs hidden).

    The face is ``faces`` (the highest), but for the dice a seat's next re-roll sets
    aside from the hidden ones: those faces, so that the re-roll can be checked as far as
    the table could (how many dice, which seat, when; the faces it names are public)."""
    actions: list[Any] = list(rnd["actions"])
    cups = [list(cup) for cup in rnd["dice"]]
    sources: dict[int, list[Any]] = dict(enumerate(cups))  # each seat's concealed dice now
    rolled: dict[int, str] = {}  # each seat's last roll, as written
    gone: set[int] = set()  # seats whose last re-roll was never rolled
    before: Reroll | None = None
    for at, text in enumerate(rnd["actions"]):
        if text.startswith("roll"):
            if before is not None:  # the re-roll's dice: what its seat holds concealed now
                seat = before.player
                roll = json.loads(text[4:])
                if seat < len(roll):
                    sources[seat] = roll[seat]
                    rolled[seat] = text
                    gone.discard(seat)
                actions[at] = roll  # written back below, once filled
            before = None
            continue
        step = parse_step(text)
        before = step if isinstance(step, Reroll) else None
        if before is not None:  # the faces it sets aside were under its seat's cup
            _fill(sources.get(before.player, []), before.set_aside, faces)
            gone.add(before.player)
    for cup in sources.values():
        _fill(cup, (), faces)
    for cup in cups:
        _fill(cup, (), faces)
    closed = []
    for seat, cup in enumerate(rnd["dice"]):
        last = rolled.get(seat)
        if seat not in gone and ("null" in last if last is not None else None in cup):
            closed.append(seat)
    written = [a if isinstance(a, str) else "roll " + json.dumps(a) for a in actions]
    return {**rnd, "dice": cups, "actions": written}, closed


def _fill(cup: list[Any], needed: Sequence[int], faces: int) -> None:
    """Put ``needed`` faces (those ``cup`` does not show) under its hidden dice, ``faces``
    under the rest."""
    missing = list(needed)
    for d in cup:
        if d in missing:
            missing.remove(d)
    for i, d in enumerate(cup):
        if d is None:
            cup[i] = missing.pop(0) if missing else faces
