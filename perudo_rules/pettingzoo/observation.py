"""What an agent of the PettingZoo environment sees: the ``observation`` array.

:func:`observation_layout` names every slice of the array (``docs/pettingzoo.rst`` lists
them), :func:`observation_size` is its length and :data:`MAX_OBSERVATION` its bound;
:class:`Encoder` fills it from a :class:`~perudo_rules.engine.game.Game` for one seat, with
the dice :func:`~perudo_rules.engine.views.sight` says that seat sees (its own cup, every
seat's set-aside dice, the cups lifted in past rounds as
:meth:`~perudo_rules.engine.rounds.RoundRecord.seen_by` gives them).
Seats appear relative to the observer: entry ``i`` of a per-seat segment is the seat
``i`` places after the observer in seat order (``0`` is the observer itself).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from perudo_rules.base.i18n import tr
from perudo_rules.base.messages import given
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.engine.actionmap import ActionMap, action_map
from perudo_rules.engine.game import Game
from perudo_rules.engine.settlement import most_dice_per_seat
from perudo_rules.engine.views import PastRound, sight

__all__ = [
    "MAX_OBSERVATION",
    "Encoder",
    "Segment",
    "face_counts",
    "observation_layout",
    "observation_size",
]

MAX_OBSERVATION = 4_194_304
"""The most entries the ``observation`` array may hold (16 MiB of ``float32``): a game
whose array would be larger (:func:`observation_size`: it grows with seats squared times
faces times dice, plus ``past_rounds`` times seats times faces times dice) is refused
with ``ValueError`` when the environment is made, before anything is allocated."""


@dataclass(frozen=True, slots=True)
class Segment:
    """One named slice ``[start, stop)`` of the observation array; ``high`` bounds its values.

    Seats appear relative to the observer: entry ``i`` of a per-seat segment is
    the seat ``i`` places after the observer in seat order (``0`` is the
    observer itself), whatever the direction of play.
    """

    name: str
    start: int
    stop: int
    high: float
    doc: str

    @property
    def size(self) -> int:
        """Number of entries."""
        return self.stop - self.start


def observation_size(variant: str | Path | Variant, players: int = 4, past_rounds: int = 1) -> int:
    """The length of the ``observation`` array (computed without building anything);
    ``ValueError`` for a seat count the variant does not allow or a bad ``past_rounds``."""
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    n, faces, b = _dims(v, players, past_rounds)[:3]
    now = faces + 5 * n + 3 + b + b * n + (n * faces if v.rules.reroll_enabled else 0)
    past = 4 + 5 * n + b + n * faces + faces
    return now + past_rounds * past


def _dims(v: Variant, players: int, past_rounds: object) -> tuple[int, int, int, int]:
    """(seats, faces, bid ids, most dice a seat holds) after checking the arguments."""
    ids = action_map(v, players)
    if type(past_rounds) is not int or past_rounds < 0:
        raise ValueError(
            tr("past_rounds must be a whole number >= 0, not {value}", value=given(past_rounds))
        )
    return players, v.rules.dice_faces, ids.num_bids, most_dice_per_seat(v.rules)


def observation_layout(
    variant: str | Path | Variant, players: int = 4, past_rounds: int = 1
) -> tuple[Segment, ...]:
    """The segments of the ``observation`` array, in order (see ``docs/pettingzoo.rst``).

    ``past_rounds`` is how many finished rounds, most recent first, the array
    keeps (:class:`~perudo_rules.pettingzoo.aec.PerudoEnv` takes the same parameter).
    ``ValueError`` when the array would hold more than :data:`MAX_OBSERVATION` entries.
    """
    v = variant if isinstance(variant, Variant) else load_variant(variant)
    n, faces, b, d = _dims(v, players, past_rounds)
    size = observation_size(v, players, past_rounds)
    if size > MAX_OBSERVATION:
        raise ValueError(
            tr("the observation of {variant} with {players} seats and past_rounds={past} would "
               "hold {size:,} entries; the bound is {bound:,} (fewer seats, dice, faces or "
               "past rounds)", variant=v.id, players=players, past=past_rounds, size=size,
               bound=MAX_OBSERVATION)
        )  # fmt: skip
    parts: list[tuple[str, int, float, str]] = [
        ("own_dice", faces, d, "the observer's dice this round: how many show face 1, 2, ..."),
        ("dice_counts", n, d, "dice each seat holds"),
        ("to_move", n, 1, "one-hot: the player to move (all 0 once the game is over)"),
        ("deciding", n, 1, "one-hot: the seat whose decision it is now"),
        ("call_offer", 1, 1, "1 when that decision is an out-of-turn call offer"),
        ("first_round", 1, 1, "1 in the first round of the game"),
        ("palifico", 1, 1, "1 when this round is a palifico round"),
        ("palifico_player", n, 1, "one-hot: the seat whose palifico round it is"),
        ("palifico_used", n, 1, "seats that have had their palifico round"),
        ("standing_bid", b, 1, "one-hot by action id: the bid to beat"),
        ("bids", b * n, 1, "bids of this round: entry id*players+i is 1 if seat i made bid id"),
    ]
    if v.rules.reroll_enabled:
        parts.append(
            ("set_aside", n * faces, d, "set-aside dice: entry i*faces+f-1 counts seat i's f's")
        )
    for k in range(past_rounds):
        p = f"past[{k}]."
        parts += [
            (p + "present", 1, 1, "1 if the game has that many finished rounds"),
            (p + "palifico", 1, 1, "1 if that round was a palifico round"),
            (p + "kind", 2, 1, "one-hot: ended by Dudo, by Calza"),
            (p + "caller", n, 1, "one-hot: who called"),
            (p + "bid", b, 1, "one-hot by action id: the bid called"),
            (p + "bidder", n, 1, "one-hot: who made that bid"),
            (p + "loser", n, 1, "one-hot: who lost a die (all 0 if nobody)"),
            (p + "gainer", n, 1, "one-hot: who gained a die back (all 0 if nobody)"),
            (p + "lifted", n, 1, "seats whose cups were lifted"),
            (p + "shown", n * faces, d, "lifted cups: entry i*faces+f-1 counts seat i's f's"),
            (p + "own_dice", faces, d, "the observer's own dice in that round, per face"),
        ]
    out = []
    start = 0
    for name, size, high, doc in parts:
        out.append(Segment(name, start, start + size, float(high), doc))
        start += size
    return tuple(out)


def face_counts(cup: Sequence[int], faces: int) -> list[int]:
    """How many dice of ``cup`` show face 1, 2, ... ``faces``."""
    counts = [0] * faces
    for die in cup:
        counts[die - 1] += 1
    return counts


class Encoder:
    """Writes a game into the ``observation`` array for one seat: ``layout`` is the
    :func:`observation_layout` of ``variant``, ``players`` and ``past_rounds`` (made here, so
    a game too large is refused), ``ids`` the action ids the bids are encoded by."""

    def __init__(self, variant: Variant, players: int, past_rounds: int, ids: ActionMap) -> None:
        self.layout = observation_layout(variant, players, past_rounds)  # refuses a huge array
        self.ids = ids
        self.faces = variant.rules.dice_faces
        self.past_rounds = past_rounds
        self.size = self.layout[-1].stop
        self.at = {s.name: s.start for s in self.layout}

    def high(self) -> npt.NDArray[np.float32]:
        """Every entry's upper bound (the lower bound is 0): the ``Box`` of the array."""
        high = np.zeros(self.size, dtype=np.float32)
        for s in self.layout:
            high[s.start : s.stop] = s.high
        return high

    def encode(
        self, game: Game, me: int, deciding: int | None, offer: bool
    ) -> npt.NDArray[np.float32]:
        """What seat ``me`` sees of ``game``; ``deciding`` is the seat whose decision it is
        and ``offer`` whether that decision is an out-of-turn call offer."""
        n, faces = game.players, self.faces
        obs = np.zeros(self.size, dtype=np.float32)
        at = self.at

        def rel(seat: int) -> int:
            return (seat - me) % n

        def put(name: str, values: Sequence[int], offset: int = 0) -> None:
            start = at[name] + offset
            obs[start : start + len(values)] = values

        put("own_dice", face_counts(sight(me, game.dice).cups[me] or (), faces))
        put("dice_counts", [game.dice_counts[(me + i) % n] for i in range(n)])
        if game.to_move is not None:
            obs[at["to_move"] + rel(game.to_move)] = 1
        if deciding is not None:
            obs[at["deciding"] + rel(deciding)] = 1
        obs[at["call_offer"]] = 1 if offer else 0
        obs[at["first_round"]] = 1 if game.round == 1 else 0
        obs[at["palifico"]] = 1 if game.palifico else 0
        if game.palifico_player is not None:
            obs[at["palifico_player"] + rel(game.palifico_player)] = 1
        for seat in game.palifico_used:
            obs[at["palifico_used"] + rel(seat)] = 1
        if "set_aside" in at:
            for seat, cup in enumerate(game.set_aside):
                start = at["set_aside"] + rel(seat) * faces
                obs[start : start + faces] = face_counts(cup, faces)
        if game.to_move is not None and game.bids:
            last = game.bids[-1]
            obs[at["standing_bid"] + self.ids.bid_id(last.quantity, last.face)] = 1
            for bid in game.bids:
                obs[at["bids"] + self.ids.bid_id(bid.quantity, bid.face) * n + rel(bid.player)] = 1
        if self.past_rounds:  # the latest first, as the seat saw them (RoundRecord.seen_by)
            for k, rec in enumerate(reversed(game.history[-self.past_rounds :])):
                self._encode_past(obs, f"past[{k}].", rec.seen_by(me), rel)
        return obs

    def _encode_past(
        self, obs: npt.NDArray[np.float32], p: str, r: PastRound, rel: Callable[[int], int]
    ) -> None:
        at = self.at
        faces = self.faces
        obs[at[p + "present"]] = 1
        obs[at[p + "palifico"]] = 1 if r.palifico else 0
        if r.kind != "leave":  # a round a seat's leaving ended marks neither kind
            obs[at[p + "kind"] + (0 if r.kind == "dudo" else 1)] = 1
        if r.caller is not None:
            obs[at[p + "caller"] + rel(r.caller)] = 1
        bid = r.bid
        if bid is not None:
            obs[at[p + "bid"] + self.ids.bid_id(bid.quantity, bid.face)] = 1
            obs[at[p + "bidder"] + rel(bid.player)] = 1
        for name, seat in (("loser", r.loser), ("gainer", r.gainer)):
            if seat is not None:
                obs[at[p + name] + rel(seat)] = 1
        for seat, cup in zip(r.revealed, r.shown, strict=True):
            obs[at[p + "lifted"] + rel(seat)] = 1
            start = at[p + "shown"] + rel(seat) * faces
            obs[start : start + faces] = face_counts(cup, faces)
        start = at[p + "own_dice"]
        obs[start : start + faces] = face_counts(r.own_dice, faces)
