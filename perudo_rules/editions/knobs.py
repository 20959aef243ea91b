"""The knob space: every rule that may differ between editions.

A *knob* is one rule option of a variant file, addressed by its path
(``section.name``). The path is also the rule's id everywhere: in
:class:`~perudo_rules.base.errors.IllegalAction`, in the spec, in the docs.
This table is the single source of truth for the variant file format: the
JSON Schema in ``spec/variant.schema.json`` is generated from it, the loader
checks completeness against it and the docs describe it.

Rules that never vary (turn order, counting, game over...) are not knobs;
their fixed ids live in ``spec/core-rules.yaml`` (see :mod:`perudo_rules.editions.corerules`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from perudo_rules.base.limits import MAX_FACES

__all__ = [
    "KNOBS",
    "KNOB_PATHS",
    "SEATS",
    "SECTIONS",
    "Alike",
    "KnobSpec",
    "ReadWhen",
    "knob_spec",
    "same_value",
]


#: The path a :class:`ReadWhen` uses for the most seats a position may have (not a knob:
#: where two editions are compared, the most seats both allow).
SEATS = "seats"


def same_value(x: Any, y: Any) -> bool:
    """Equal knob values of the same type (``True`` is not ``1``)."""
    return type(x) is type(y) and x == y


@dataclass(frozen=True, slots=True)
class ReadWhen:
    """A condition without which the engine never reads a knob: knob ``path`` has one of
    ``values``, or (``unless``) none of those, or (``at_least``) an integer at least that.

    ``otherwise`` says, for people, what holds in an edition where the condition fails
    (``"nobody can call Calza"``): the witness search explains with it why a knob that
    differs makes no difference in play. ``path`` may be :data:`SEATS`, the most seats a
    position may have. ``tests/test_read_when.py`` checks each condition against the
    engine: where it fails, every value of the knob plays the same games.
    """

    path: str
    values: tuple[Any, ...] = ()
    unless: tuple[Any, ...] = ()
    at_least: int | None = None
    otherwise: str = ""

    def holds(self, values: Mapping[str, Any]) -> bool:
        """Whether the condition holds for the knob values ``values`` (path to value)."""
        x = values[self.path]
        if self.at_least is not None:
            return isinstance(x, int) and x >= self.at_least
        if self.unless:
            return not any(same_value(x, u) for u in self.unless)
        return any(same_value(x, v) for v in self.values)


@dataclass(frozen=True, slots=True)
class Alike:
    """Choices of a knob that decide alike unless one of ``apart_when`` holds (where all
    fail, an edition plays the same games with any of ``values``)."""

    values: tuple[Any, ...]
    apart_when: tuple[ReadWhen, ...]

    def covers(self, x: Any, y: Any) -> bool:
        """Whether both ``x`` and ``y`` are among the alike choices."""
        values = self.values
        return any(same_value(x, v) for v in values) and any(same_value(y, v) for v in values)


@dataclass(frozen=True, slots=True)
class KnobSpec:
    """The definition of one knob: its path, the JSON Schema of its value and what it decides.

    ``read_when`` lists the conditions on other knobs without which the engine never reads
    this one (all must hold for it to be read); ``never_read``, when set, says why the
    engine never reads it in play at all (a name for people, a bound only positions obey);
    ``alike`` lists choices that decide alike under conditions. ``decides`` is
    ``"setup"`` for a knob that decides only how a new game starts (who opens, the dice,
    the number of seats), ``"calls"`` for one that decides only which calls are legal
    (the kernel's ``call_verdict``), ``"bids"`` for one that decides only which bids are
    legal, else ``""``: the witness search looks for a setup knob's witness in new games
    alone, and proves a calls or bids knob inert by trying every call or every bid of
    the positions two editions share.
    """

    path: str
    schema: dict[str, Any]
    description: str
    choices: tuple[tuple[Any, str], ...] = ()
    read_when: tuple[ReadWhen, ...] = ()
    never_read: str = ""
    alike: tuple[Alike, ...] = ()
    decides: str = ""
    legacy: tuple[Any, ...] = ()

    @property
    def section(self) -> str:
        """The section the knob lives in (the part of the path before the dot)."""
        return self.path.split(".", 1)[0]

    @property
    def name(self) -> str:
        """The knob's name inside its section."""
        return self.path.split(".", 1)[1]


def _enum(path: str, description: str, *choices: tuple[str, str], **extra: Any) -> KnobSpec:
    return KnobSpec(path, {"enum": [c[0] for c in choices]}, description, tuple(choices), **extra)


def _int(
    path: str, description: str, minimum: int, maximum: int | None = None, **extra: Any
) -> KnobSpec:
    schema: dict[str, Any] = {"type": "integer", "minimum": minimum}
    if maximum is not None:
        schema["maximum"] = maximum
    return KnobSpec(path, schema, description, **extra)


def _bool(path: str, description: str, **extra: Any) -> KnobSpec:
    return KnobSpec(path, {"type": "boolean"}, description, ((True, "yes"), (False, "no")), **extra)


# The conditions of ``read_when`` that several knobs share.
_CALZA = ReadWhen("calza.enabled", (True,), otherwise="nobody can call Calza")
_PALIFICO = ReadWhen("palifico.enabled", (True,), otherwise="there are no palifico rounds")
_WILD = ReadWhen("wild.face", unless=(None,), otherwise="no face is wild")
_ROLL_OFF = ReadWhen(
    "setup.first_player", ("roll_off",), otherwise="seat 0 opens every game: nobody rolls off"
)
_ONE_DIE = (
    ReadWhen(
        "challenge.loss",
        ("one_die",),
        otherwise="a Dudo may cost more than one die, and every cup is lifted",
    ),
    ReadWhen(
        "challenge.exact",
        ("challenger_loses",),
        otherwise="an exact count costs several seats a die, and every cup is lifted",
    ),
)
_LATER_ROUNDS = ReadWhen(
    "end.condition",
    ("last_player_standing",),
    otherwise="the game ends with its first round: no round follows it",
)


KNOBS: tuple[KnobSpec, ...] = (
    _int("players.min", "Fewest seats a game may start with.", 2, decides="setup"),
    _int("players.max", "Most seats a game may start with.", 2, decides="setup"),
    _int("dice.per_player", "Dice each seat starts the game with.", 1, decides="setup"),
    _int("dice.faces", "Faces of each die, numbered 1 to faces.", 2, MAX_FACES),
    _int(
        "dice.max_per_player",
        "Most dice a seat may ever hold (Calza gains stop there).",
        1,
        never_read="it only bounds the dice a position may hold: a Calza gains dice only up "
        "to calza.gain_cap, which is never above it",
    ),
    KnobSpec(
        "wild.face",
        {
            "oneOf": [
                {"type": "integer", "minimum": 1},
                {"enum": ["highest"]},
                {"type": "null"},
            ]
        },
        "The wild face: a face number, 'highest' for the highest face, or null for no wilds.",
        (
            (1, "face 1 is wild"),
            ("highest", "the highest face is wild"),
            (None, "no wild face"),
        ),
    ),
    KnobSpec(
        "wild.name",
        {"type": "string", "minLength": 1},
        "What the wild face is called.",
        never_read="it only names the wild face for people",
    ),
    _enum(
        "setup.first_player",
        "Who opens the first round of a game.",
        ("roll_off", "every seat rolls setup.rolloff_dice dice; best score opens, ties re-roll"),
        ("seat_zero", "seat 0 always opens the first round"),
        decides="setup",
    ),
    _int(
        "setup.rolloff_dice",
        "Dice each seat rolls in the roll-off.",
        1,
        10,
        read_when=(_ROLL_OFF,),
        decides="setup",
    ),
    _enum(
        "setup.direction",
        "Direction of play; 'next seat' always means the next seat in this direction.",
        ("left", "clockwise: to the next higher seat number"),
        ("right", "counter-clockwise: to the next lower seat number"),
        read_when=(
            ReadWhen(
                SEATS,
                at_least=3,
                otherwise="a position has at most 2 seats, and each seat's next seat is the "
                "other one either way",
            ),
        ),
    ),
    _enum(
        "setup.rolloff_score",
        "What a seat's roll-off dice score.",
        ("total", "the sum of the dice rolled"),
        ("highest_die", "the highest single die rolled"),
        read_when=(
            _ROLL_OFF,
            ReadWhen(
                "setup.rolloff_dice",
                at_least=2,
                otherwise="each seat rolls off with one die, whose total is its highest die",
            ),
        ),
        decides="setup",
        legacy=("total",),
    ),
    _bool(
        "setup.rolloff_wild_best",
        "In the roll-off the wild face scores above the highest face (else it counts its number).",
        read_when=(_ROLL_OFF, _WILD),
        decides="setup",
        legacy=(False,),
    ),
    _enum(
        "bidding.order",
        "How two ordinary bids compare.",
        ("quantity_then_face", "more dice of any face, or as many dice of a higher face"),
        ("face_then_quantity", "a higher face with any quantity, or the same face with more dice"),
        (
            "neither_decreases",
            "neither the quantity nor the face may decrease, and the bid must change (faces "
            "compare by number, the wild face included; after 3x5, 4x2 is no raise)",
        ),
        decides="bids",
    ),
    _int(
        "bidding.wild_worth",
        "Worth k of one wild in a bid: to wild needs at least ceil(q/k), back from w wilds "
        "needs at least k*w+1 (quantity_then_face only; must be 1 with the other orders).",
        1,
        10,
        read_when=(_WILD,),
        decides="bids",
    ),
    _enum(
        "bidding.wild_rank",
        "Where a bid of w wilds ranks among ordinary bids, with worth k (quantity_then_face).",
        ("above_multiple", "just above k*w of any face: to wilds needs ceil(q/k), back k*w+1"),
        (
            "below_multiple",
            "just below k*w of any face, above k*w-1: to wilds needs floor(q/k)+1, back k*w",
        ),
        read_when=(
            _WILD,
            ReadWhen(
                "bidding.order",
                ("quantity_then_face",),
                otherwise="a bid on the wild face ranks by its face number like any other",
            ),
        ),
        decides="bids",
        legacy=("above_multiple",),
    ),
    _enum(
        "bidding.wild_opening",
        "When a bid on the wild face is allowed outside palifico rounds.",
        ("allowed", "a wild bid is allowed at any time, opening bid included"),
        ("not_as_opening_bid", "the opening bid of a round may not be on the wild face"),
        ("not_in_first_round", "no wild bid at all in the first round of the game"),
        read_when=(_WILD,),
        decides="bids",
    ),
    _enum(
        "bidding.quantity_cap",
        "The largest quantity a bid may name.",
        ("dice_in_play", "the number of dice in play when the round started"),
        (
            "none",
            "no cap: any quantity may be bid (above the dice in play it can only lose); "
            "the listed raises stop at the dice in play plus one",
        ),
        decides="bids",
    ),
    KnobSpec(
        "bidding.quantity_limit",
        {"oneOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]},
        "A fixed limit (a bidding board's last space), whatever the dice in play: no "
        "ordinary bid names more dice, and no bid on the wild face (in any round) more than "
        "limit // bidding.wild_worth; null for none.",
        decides="bids",
        legacy=(None,),
    ),
    _bool(
        "reroll.enabled",
        "Whether the player to move may, before it acts, set some of its concealed dice aside "
        "face up and re-roll the rest (a chance step); dice set aside stay visible and count "
        "until the round ends.",
        legacy=(False,),
    ),
    _int(
        "reroll.min_hidden",
        "The fewest dice a re-roll leaves concealed (and re-rolls) under the cup.",
        1,
        10,
        legacy=(1,),
    ),
    _enum(
        "reroll.limit",
        "How often a seat may re-roll (reroll.enabled).",
        ("once_per_turn", "at most once in each of its turns, before it acts"),
        ("once_per_round", "at most once in a round"),
        legacy=("once_per_turn",),
    ),
    _bool(
        "reroll.must_bid",
        "Whether a re-roll must be followed by the same player's bid (else it may also call "
        "Dudo or Calza, as the edition lets it).",
        legacy=(True,),
    ),
    _enum(
        "challenge.who",
        "Who may call Dudo against the standing bid.",
        ("player_to_move", "only the player whose turn it is"),
        ("any_except_bidder", "any seat with dice except the bidder"),
        (
            "any_except_bidder_in_palifico",
            "only the player to move, but in a palifico round any seat with dice except the bidder",
        ),
        alike=(
            Alike(
                ("player_to_move", "any_except_bidder_in_palifico"),
                (ReadWhen("palifico.enabled", (True,), otherwise="there are no palifico rounds"),),
            ),
            Alike(
                ("player_to_move", "any_except_bidder", "any_except_bidder_in_palifico"),
                (
                    ReadWhen(
                        SEATS,
                        at_least=3,
                        otherwise="a position has at most 2 seats, and the only seat but the "
                        "bidder is the player to move",
                    ),
                ),
            ),
        ),
        decides="calls",
    ),
    _enum(
        "challenge.loss",
        "How many dice the loser of a Dudo loses.",
        ("one_die", "one die"),
        (
            "difference",
            "the difference between the bid's quantity and the true count (at least one)",
        ),
    ),
    _enum(
        "challenge.exact",
        "What a Dudo costs when the true count equals the bid's quantity.",
        ("challenger_loses", "the bid stands: the challenger loses, as when the count is higher"),
        (
            "others_lose",
            "the bid stands, and every seat with dice except the bidder loses one die",
        ),
        alike=(
            Alike(
                ("challenger_loses", "others_lose"),
                (
                    ReadWhen(
                        SEATS,
                        at_least=3,
                        otherwise="a position has at most 2 seats, so the seats but the bidder "
                        "are the challenger alone",
                    ),
                    ReadWhen(
                        "challenge.early_stop", (True,), otherwise="every cup is lifted at a Dudo"
                    ),
                    ReadWhen(
                        "challenge.stop_when_unreachable",
                        (True,),
                        otherwise="a reveal never stops for a bid out of reach",
                    ),
                ),
            ),
        ),
    ),
    _bool(
        "challenge.early_stop",
        "Dudo reveal stops as soon as the bid is proven reached (else every cup is lifted); "
        "only where a Dudo costs one die of one seat, since challenge.loss difference and "
        "challenge.exact others_lose need every die counted.",
        read_when=_ONE_DIE,
    ),
    _bool(
        "challenge.stop_when_unreachable",
        "Dudo reveal also stops as soon as the cups still down hold too few dice to reach the "
        "bid (the dice counts are public); only where a Dudo costs one die of one seat.",
        read_when=_ONE_DIE,
        legacy=(False,),
    ),
    _bool(
        "calza.enabled",
        "Whether Calza (claiming the standing bid is exact) may be called.",
        decides="calls",
    ),
    _enum(
        "calza.who",
        "Who may call Calza.",
        ("any_except_bidder_and_next", "any seat with dice but the bidder and the player to move"),
        ("any_except_bidder", "any seat with dice but the bidder, the player to move included"),
        ("player_to_move", "only the player to move, instead of bidding"),
        ("any_except_next", "any seat with dice but the player to move, the bidder included"),
        ("anyone", "any seat with dice, the bidder and the player to move included"),
        read_when=(_CALZA,),
        decides="calls",
    ),
    _int(
        "calza.gain_cap",
        "An exact Calza gains a die only if the caller holds fewer dice.",
        1,
        read_when=(_CALZA,),
    ),
    _int(
        "calza.min_players",
        "Fewest seats with dice for Calza to be called.",
        2,
        read_when=(_CALZA,),
        decides="calls",
        legacy=(2,),
    ),
    _enum(
        "calza.next_starts",
        "Who opens the round after a Calza.",
        ("caller", "the Calza caller (the next seat if the caller is out)"),
        ("player_to_move", "the player whose turn it was"),
        (
            "loser_else_bidder",
            "the caller after a wrong Calza (the seat that lost a die), the bidder after a "
            "right one",
        ),
        read_when=(_CALZA,),
    ),
    _bool(
        "calza.in_palifico",
        "Whether Calza may be called in a palifico round.",
        read_when=(_CALZA, _PALIFICO),
        decides="calls",
    ),
    _bool("palifico.enabled", "Whether palifico rounds exist.", read_when=(_LATER_ROUNDS,)),
    _enum(
        "palifico.trigger",
        "What makes the next round a palifico round.",
        ("reduced_to_one", "a seat has just lost a die and holds exactly one"),
        ("starts_with_one", "the seat opening the round holds exactly one die"),
        (
            "reduced_to_one_by_dudo",
            "a seat has just lost a Dudo (not a Calza) and holds exactly one die",
        ),
        read_when=(_PALIFICO,),
    ),
    _bool(
        "palifico.once_per_player",
        "Each seat has at most one palifico round per game.",
        read_when=(_PALIFICO,),
    ),
    _bool(
        "palifico.wilds_count",
        "Whether wild dice still count (and rank as wild) in palifico.",
        read_when=(_PALIFICO, _WILD),
    ),
    _enum(
        "palifico.face_lock",
        "Whether later bids of a palifico round must keep the standing face.",
        ("locked", "everyone keeps the face; only the quantity rises"),
        (
            "locked_except_single_die",
            "a seat holding exactly one die may change the face with an ordinary raise",
        ),
        ("free", "no lock: ordinary raises"),
        (
            "locked_except_former_palifico",
            "a seat that has already had its own palifico round may change the face with an "
            "ordinary raise",
        ),
        (
            "locked_except_single_die_or_former_palifico",
            "a seat holding exactly one die, or one that has already had its own palifico "
            "round, may change the face with an ordinary raise",
        ),
        read_when=(_PALIFICO,),
        decides="bids",
    ),
    _bool(
        "palifico.heads_up",
        "Whether palifico rounds still happen with two seats left.",
        read_when=(_PALIFICO,),
    ),
    _bool(
        "palifico.opener_may_change",
        "Whether the palifico player may change the face on a later turn of its own palifico "
        "round (under a face lock; the lock of the other seats is palifico.face_lock).",
        read_when=(
            _PALIFICO,
            ReadWhen("palifico.face_lock", unless=("free",), otherwise="no face is ever locked"),
        ),
        decides="bids",
    ),
    _enum(
        "palifico.wild_bids",
        "When a bid on the wild face is allowed in a palifico round.",
        ("allowed", "at any time, the opening bid included"),
        ("not_as_opening_bid", "not as the opening bid of the palifico round"),
        ("forbidden", "never in a palifico round"),
        read_when=(_PALIFICO, _WILD),
        decides="bids",
    ),
    _enum(
        "round.starter",
        "Who opens the round after a Dudo.",
        ("loser", "the seat that lost a die (the next seat if it is out)"),
        ("challenge_winner", "the seat that won the challenge"),
        ("after_caller", "the next seat with dice after the caller"),
        read_when=(_LATER_ROUNDS,),
    ),
    _enum(
        "end.condition",
        "When the game ends.",
        ("last_player_standing", "when one seat has dice left; it wins"),
        ("single_round", "after the first round; the seat that did not lose wins (2 seats)"),
    ),
    _enum(
        "leave.round",
        "What becomes of the round in play when a seat leaves the game (play.leave).",
        (
            "void",
            "the round is called off: no die is lost or gained, its bids are void and every "
            "cup is rolled again for a new round (leave.next_starts opens it)",
        ),
        (
            "continues",
            "the round goes on without the seat: its cup leaves unseen and no longer counts, "
            "the bids stand (the quantity cap stays that of the round's start) and the turn "
            "passes on if it was the seat's",
        ),
    ),
    _enum(
        "leave.next_starts",
        "Who opens the round rolled after a seat's leaving called a round off (leave.round "
        "void); a palifico round called off is played again by its palifico player.",
        ("round_opener", "the seat that opened the round called off (the next seat if it left)"),
        ("player_to_move", "the seat whose turn it was (the next seat if it left)"),
        ("after_leaver", "the next seat with dice after the one that left"),
    ),
)

KNOB_PATHS: tuple[str, ...] = tuple(k.path for k in KNOBS)
SECTIONS: tuple[str, ...] = tuple(dict.fromkeys(k.section for k in KNOBS))
_BY_PATH = {k.path: k for k in KNOBS}


def knob_spec(path: str) -> KnobSpec:
    """Return the :class:`KnobSpec` for a knob path; ``KeyError`` if there is no such knob."""
    return _BY_PATH[path]
