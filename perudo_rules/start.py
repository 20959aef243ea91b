"""How a game starts: the seat count, who opens, the deal (the rules kernel's first step).

Every function names its rule ids, as :mod:`perudo_rules.kernel` does; the kernel's rule
map lists them. Plain typed Python, like the kernel.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from perudo_rules.messages import Param, Refusal, given
from perudo_rules.ruleset import Ruleset

__all__ = [
    "cut_cups",
    "opening",
    "opening_verdict",
    "roll_cups",
    "roll_off",
    "seats_verdict",
]


def seats_verdict(rules: Ruleset, players: object, edition: str) -> Refusal | None:
    """Whether ``players`` seats may play ``edition`` (``players.min``, ``players.max``):
    ``None``, or the :class:`~perudo_rules.messages.Refusal` (the seats, the edition id
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
            dice = [int(rand() * faces) + 1 for _ in range(rules.setup_rolloff_dice)]
            values = [faces + 1 if d == best_wild else d for d in dice]
            scores.append(max(values) if highest else sum(values))
        best = max(scores)
        tied = [s for s, t in zip(tied, scores, strict=True) if t == best]
    return tied[0]


def roll_cups(faces: int, counts: Sequence[int], rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """Every seat's dice, seat by seat, each ``int(rng.random() * faces) + 1`` (``play.roll``).

    Only ``rng.random()`` is used: Python guarantees its sequence for a seed on every
    platform and version, so the same seed gives the same game on any machine.
    """
    rand = rng.random
    return cut_cups([int(rand() * faces) + 1 for _ in range(sum(counts))], counts)


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
    :class:`~perudo_rules.messages.Refusal`. A game record without a set-up must start so."""
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
