"""How a game starts: the seat count, who opens, the deal (the rules kernel's first step),
and the checks of an explicit position's dice and numbers (:meth:`Game.start
<perudo_rules.engine.game.Game.start>`, :meth:`Game.roll <perudo_rules.engine.game.Game.roll>`).

Every function names its rule ids, as :mod:`perudo_rules.engine.kernel` does; the kernel's rule
map lists them. Plain typed Python, like the kernel.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterable, Sequence
from math import floor

from perudo_rules.base.i18n import tr
from perudo_rules.base.messages import Param, Refusal, given
from perudo_rules.base.seatcheck import check_int
from perudo_rules.editions.ruleset import Ruleset

__all__ = [
    "Seed",
    "cut_cups",
    "given_cups",
    "given_roll",
    "opening",
    "opening_verdict",
    "roll_cups",
    "roll_die",
    "roll_off",
    "seat_count",
    "seats_verdict",
]

Seed = int | float | str | bytes | bytearray | None
"""A seed, as :class:`random.Random` takes one (``Game.new(seed=...)``, ``Game.roll``,
:func:`~perudo_rules.engine.fastplay.random_games`): the same seed, the same game, anywhere."""


def seats_verdict(rules: Ruleset, players: object, edition: str) -> Refusal | None:
    """Whether ``players`` seats may play ``edition`` (``players.min``, ``players.max``):
    ``None``, or the :class:`~perudo_rules.base.messages.Refusal` (the seats, the edition id
    and the seats it allows). A number of seats is an ``int`` (not a bool, a float or a
    string). Every place that takes a seat count asks this."""
    lo, hi = rules.players_min, rules.players_max
    if type(players) is not int:
        return Refusal("players.min", "seats-not-whole", {"players": given(players)})
    if not lo <= players <= hi:
        rule = "players.min" if players < lo else "players.max"
        if lo == hi:
            return Refusal(
                rule, "seats-not-exactly", {"players": players, "edition": edition, "exactly": lo}
            )
        allowed: dict[str, Param] = {"players": players, "edition": edition}
        return Refusal(rule, "seats-out-of-range", {**allowed, "least": lo, "most": hi})
    return None


def seat_count(rules: Ruleset, players: object, edition: str) -> int:
    """``players`` as an ``int`` if ``edition`` may be played by that many seats, else the
    ``ValueError`` of :func:`seats_verdict`. An integer of another type (a NumPy one) is
    read as its ``int`` first (:func:`~perudo_rules.base.seatcheck.check_int`), so both
    builds take it; a bool, a float or a text is no number of seats. ``Game.new`` and the
    fast path's :func:`~perudo_rules.engine.fastplay.random_games` take their seats so."""
    if type(players) is not int:
        with contextlib.suppress(TypeError):  # else refused below: a count that is not whole
            players = check_int(players, "players")
    bad = seats_verdict(rules, players, edition)
    if bad is not None:
        raise ValueError(bad.message)
    assert isinstance(players, int)  # seats_verdict refuses anything but an int
    return players


def roll_off(rules: Ruleset, players: int, rng: random.Random) -> int:
    """Who opens a new game (``setup.first_player``): seat 0, or the roll-off, where every
    seat rolls ``setup.rolloff_dice`` dice, the best score opens (``setup.rolloff_score``:
    their total or their highest die; ``setup.rolloff_wild_best``: the wild face scores
    above the highest face) and ties re-roll among the tied, in seat order."""
    if rules.setup_first_player != "roll_off":
        return 0
    rand = rng.random
    faces = rules.dice_faces
    best_wild = rules.wild if rules.setup_rolloff_wild_best else None
    highest = rules.setup_rolloff_score == "highest_die"
    tied = list(range(players))
    while len(tied) > 1:
        scores = []
        for _ in tied:
            dice = [floor(rand() * faces) + 1 for _ in range(rules.setup_rolloff_dice)]
            values = [faces + 1 if d == best_wild else d for d in dice]
            scores.append(max(values) if highest else sum(values))
        best = max(scores)
        tied = [s for s, t in zip(tied, scores, strict=True) if t == best]
    return tied[0]


def roll_cups(faces: int, counts: Sequence[int], rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Every seat's dice, seat by seat, each ``int(rng.random() * faces) + 1`` (``play.roll``).

    Only ``rng.random()`` is used: Python guarantees its sequence for a seed on every
    platform and version, so the same seed gives the same game on any machine. (The code
    writes ``floor`` for ``int``: the same die for a number that is never negative, made
    in less time.)
    """
    rand = rng.random
    return cut_cups([floor(rand() * faces) + 1 for _ in range(sum(counts))], counts)


def cut_cups(run: Sequence[int], counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """A run of dice cut into cups, seat by seat: the first ``counts[0]`` dice are seat 0's,
    the next ``counts[1]`` seat 1's, and so on (``play.roll``: the order dice are rolled
    in). A run shorter than ``sum(counts)`` leaves the later cups short or empty."""
    cups: list[tuple[int, ...]] = []
    cut = 0
    for c in counts:
        cups.append(tuple(run[cut : cut + c]))
        cut += c
    return tuple(cups)


def opening(
    rules: Ruleset, players: int, rng: random.Random
) -> tuple[int, tuple[tuple[int, ...], ...]]:
    """Who opens a new game and every seat's starting dice, drawn from ``rng`` in that order."""
    first = roll_off(rules, players, rng)
    return first, roll_cups(rules.dice_faces, (rules.dice_per_player,) * players, rng)


def opening_verdict(
    rules: Ruleset,
    dice_counts: Sequence[int],
    first_player: int,
    palifico: bool = False,
    round_no: int = 1,
    palifico_used: Iterable[int] = (),
) -> Refusal | None:
    """Whether a round is one that :func:`opening` can deal, the standard start of a game:
    round 1, ``dice.per_player`` dice a seat, no palifico round (none had), and seat 0
    opening unless a roll-off decides (``setup.first_player``). ``None``, or the
    :class:`~perudo_rules.base.messages.Refusal`. A game record without a set-up must start so."""
    if round_no != 1:
        return Refusal("play.roll", "start-round", {"round": round_no})
    for seat, held in enumerate(dice_counts):
        if held != rules.dice_per_player:
            dealt = {"seat": seat, "held": held, "dice": rules.dice_per_player}
            return Refusal("dice.per_player", "start-dice", dealt)
    if palifico:
        return Refusal("palifico.trigger", "start-palifico", {})
    if any(True for _ in palifico_used):
        return Refusal("palifico.once_per_player", "start-palifico-used", {})
    if rules.setup_first_player != "roll_off" and first_player != 0:
        return Refusal("setup.first_player", "start-first-player", {"seat": first_player})
    return None


# --- explicit input (Game.start, Game.roll) ----------------------------------------------


def _given_int(value: object, what: str) -> int:
    """``value`` as an ``int`` if it is an integer (a NumPy one too:
    :func:`~perudo_rules.base.seatcheck.check_int`; not a bool, a float or a string), else
    ``ValueError`` naming ``what``."""
    if type(value) is int:
        return value
    try:
        return check_int(value, what)
    except TypeError:
        raise ValueError(
            tr("{what} must be a whole number, not {value}", what=what, value=given(value))
        ) from None


def given_cups(dice: object, faces: int) -> tuple[tuple[int, ...], ...]:
    """Explicit ``dice`` (one sequence of faces per seat) as tuples; ``ValueError`` unless
    every die is an ``int`` face of a d``faces`` (nothing is coerced: ``"12"`` is not two
    seats)."""
    if isinstance(dice, (str, bytes)) or not isinstance(dice, Sequence):
        raise ValueError(tr("dice must be one list of dice per seat, not {dice}", dice=given(dice)))
    cups = []
    for seat, cup in enumerate(dice):
        if isinstance(cup, (str, bytes)) or not isinstance(cup, Sequence):
            raise ValueError(
                tr("seat {seat}: expected a list of dice, not {cup}", seat=seat, cup=given(cup))
            )
        for d in cup:
            if type(d) is not int or not 1 <= d <= faces:
                raise ValueError(
                    tr(
                        "seat {seat}: {die} is not a face of a d{faces}",
                        seat=seat,
                        die=given(d),
                        faces=faces,
                    )
                )
        cups.append(tuple(cup))
    return tuple(cups)


def given_roll(
    dice: object, faces: int, counts: Sequence[int], new_round: bool
) -> tuple[tuple[int, ...], ...]:
    """Explicit ``dice`` of a chance step (:meth:`Game.roll <perudo_rules.engine.game.Game.roll>`),
    checked as :func:`given_cups` checks them: one cup per seat, each of the ``counts`` dice
    that seat rolls now (every die it holds when a ``new_round`` starts, else its concealed
    dice of a re-roll); ``ValueError`` naming what is wrong."""
    cups = given_cups(dice, faces)
    if len(cups) != len(counts):
        raise ValueError(
            tr("dice for {given} seats; the table has {seats}", given=len(cups), seats=len(counts))
        )
    for seat, (cup, c) in enumerate(zip(cups, counts, strict=True)):
        if len(cup) != c and new_round:
            raise ValueError(
                tr("seat {seat} holds {held} dice, not {given}", seat=seat, held=c, given=len(cup))
            )
        if len(cup) != c:  # a re-roll's: the seat's concealed dice
            raise ValueError(
                tr(
                    "seat {seat} rolls {held} dice now, not {given}",
                    seat=seat,
                    held=c,
                    given=len(cup),
                )
            )
    return cups


def given_start(
    rules: Ruleset,
    edition: str,
    dice: object,
    first_player: object,
    palifico: object,
    round_no: object,
    palifico_used: Iterable[object],
) -> tuple[tuple[tuple[int, ...], ...], int, int, frozenset[int]]:
    """An explicit start of a round (:meth:`Game.start <perudo_rules.engine.game.Game.start>`),
    checked: the cups, who opens, the round number and the seats that have had their
    palifico round (the opener too, in a palifico round); ``ValueError`` naming what is
    wrong (the seat count as :func:`seats_verdict` says, nothing coerced), ``TypeError``
    for a ``palifico`` flag that is not a bool."""
    if type(palifico) is not bool:  # 1, "yes", None, numpy.bool_: said, never stored as given
        raise TypeError(tr("palifico must be True or False, not {value}", value=given(palifico)))
    cups = given_cups(dice, rules.dice_faces)
    bad = seats_verdict(rules, len(cups), edition)
    if bad is not None:
        raise ValueError(bad.message)
    for seat, cup in enumerate(cups):
        if len(cup) > rules.dice_max_per_player:
            raise ValueError(
                tr(
                    "seat {seat} holds {given} dice; the most is {most}",
                    seat=seat,
                    given=len(cup),
                    most=rules.dice_max_per_player,
                )
            )
    n = len(cups)
    counts = tuple(len(c) for c in cups)
    if sum(1 for c in counts if c) < 2:
        raise ValueError(tr("at least two seats must hold dice"))
    first = _given_int(first_player, "first_player")
    if not (0 <= first < n and counts[first]):
        raise ValueError(tr("first player {first} is not a seat with dice", first=first))
    number = _given_int(round_no, "round")
    if number < 1:
        raise ValueError(tr("rounds are numbered from 1"))
    used = frozenset(_given_int(s, "palifico_used") for s in palifico_used)
    if any(not 0 <= s < n for s in used):
        raise ValueError(tr("palifico_used names a seat that does not exist"))
    if palifico:
        if not rules.palifico_enabled:
            raise ValueError(tr("{edition} has no palifico rounds", edition=edition))
        if counts[first] != 1:
            raise ValueError(tr("a palifico round is opened by a seat holding exactly one die"))
        used = used | {first}
    return cups, first, number, used


def roll_die(rng: random.Random, faces: int) -> int:
    """One die roll from ``rng`` (as :func:`perudo_rules.engine.start.roll_cups` rolls each die)."""
    return roll_cups(faces, (1,), rng)[0][0]
