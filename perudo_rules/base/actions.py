"""Actions and their notation: value objects whose ``repr`` pastes back as code.

The notation lives here, in one place. A bid is written ``QxF`` (``str(bid)``,
:meth:`Bid.parse`); a call is ``dudo`` or ``calza``; a seat leaving the game is ``leave``;
a re-roll (``reroll.enabled``) is ``reroll`` and the faces it sets aside, ascending:
``reroll 5,5``. With its seat in front, as game records and scenarios write it, an action
is ``"0:3x4"``, ``"1:dudo"``, ``"2:calza"``, ``"2:leave"``, ``"2:reroll 5,5"``
(:func:`format_action`, :func:`parse_action`). Every parser raises
:class:`~perudo_rules.base.errors.ActionSyntaxError` on a malformed text. The chance step that
rolls the re-rolled dice is written as every roll is, ``roll [[...], ...]``
(:class:`perudo_rules.records.position.Roll`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from perudo_rules.base.errors import ActionSyntaxError
from perudo_rules.base.frozen import pickle_by_fields
from perudo_rules.base.i18n import tr
from perudo_rules.base.limits import MAX_BID_QUANTITY, MAX_FACES, MAX_PLAYERS
from perudo_rules.base.messages import Refusal
from perudo_rules.base.safetext import shortened
from perudo_rules.base.seatcheck import check_int, check_seat

__all__ = [
    "ACTION_PATTERN",
    "BID_PATTERN",
    "REDACTED_ROLL_PATTERN",
    "ROLL_PATTERN",
    "Action",
    "Bid",
    "Calza",
    "Dudo",
    "Leave",
    "Reroll",
    "bid_numbers",
    "bid_unchecked",
    "format_action",
    "parse_action",
    "parse_bid",
    "syntax_error",
]

# The digits of the largest quantity and face (perudo_rules.base.limits): the notation writes
# every bid the engine accepts (MAX_BID_QUANTITY is all nines, so the digit count is the bound).
_Q = len(str(MAX_BID_QUANTITY))
_F = len(str(MAX_FACES))

#: The canonical seat-prefixed form that files write (``"0:3x4"``, ``"1:dudo"``), as a
#: regular expression; :func:`parse_action` also reads looser spellings. A quantity has at
#: most nine digits (:data:`~perudo_rules.base.limits.MAX_BID_QUANTITY`), a face three.
_BID_BODY = rf"([1-9][0-9]{{0,{_Q - 1}}})x([1-9][0-9]{{0,{_F - 1}}})"
_FACE = rf"[1-9][0-9]{{0,{_F - 1}}}"
ACTION_PATTERN = (
    rf"^(0|[1-9][0-9]{{0,5}}):(?:{_BID_BODY}|(dudo|calza|leave)|reroll {_FACE}(?:,{_FACE})*)$"
)
#: A bid in its canonical form (``"3x4"``), as files write it: the bid part of
#: :data:`ACTION_PATTERN`, bounded the same way.
BID_PATTERN = rf"^{_BID_BODY}$"
_CUP = rf"\[(?:{_FACE}(?:, {_FACE})*)?\]"
#: A roll (the chance step) as files write it: ``roll`` and one list of faces per seat,
#: ``"roll [[2, 5], [], [1]]"`` (:class:`perudo_rules.records.position.Roll`).
ROLL_PATTERN = rf"^roll \[(?:{_CUP}(?:, {_CUP})*)?\]$"
_HIDDEN_CUP = rf"\[(?:(?:{_FACE}|null)(?:, (?:{_FACE}|null))*)?\]"
#: A roll as a redacted game record writes it (``to_record(game, viewer=seat)``): ``null``
#: for each die the viewer never saw, ``"roll [[], [null, null], []]"``.
REDACTED_ROLL_PATTERN = rf"^roll \[(?:{_HIDDEN_CUP}(?:, {_HIDDEN_CUP})*)?\]$"

_BID = re.compile(rf"\s*([0-9]{{1,{_Q}}})\s*(?:[x*]|\s)\s*([0-9]{{1,9}})\s*", re.IGNORECASE)
_ACTION = re.compile(
    rf"\s*([0-9]{{1,6}})\s*:\s*(?:(?:bid\s+)?([0-9]{{1,{_Q}}})\s*x\s*([0-9]{{1,9}})"
    r"|(dudo|calza|leave))\s*",
    re.IGNORECASE,
)
_REROLL = re.compile(
    rf"\s*([0-9]{{1,6}})\s*:\s*reroll((?:\s*[,\s]\s*[0-9]{{1,{_F}}})*)\s*", re.IGNORECASE
)


def _spaced(text: str) -> str:
    """``text`` with every run of white space one space: the notation's patterns read the
    same, and a text of thousands of spaces costs linear time, never a regular
    expression's backtracking over every way to split the run."""
    return " ".join(text.split()) if len(text) > 1 else text


@dataclass(frozen=True, slots=True)
class Bid:
    """``player`` claims that at least ``quantity`` dice on the table count as ``face``.

    ``str(bid)`` is its notation, ``"5x4"``; :meth:`parse` reads it back.
    """

    player: int
    quantity: int
    face: int

    def __str__(self) -> str:
        return f"{self.quantity}x{self.face}"

    @classmethod
    def parse(cls, text: str, player: int = 0) -> Bid:
        """Read ``"5x4"`` (also ``"5 4"``, ``"5*4"``) as a bid by ``player``.

        Raises :class:`~perudo_rules.base.errors.ActionSyntaxError` if ``text`` is not a bid.

        >>> Bid.parse("5x4", player=2)
        Bid(player=2, quantity=5, face=4)
        """
        m = _BID.fullmatch(_spaced(text)) if isinstance(text, str) else None
        if m is None:
            raise syntax_error("bid-syntax", text)
        return cls(player, int(m[1]), int(m[2]))


_set_bid_player = vars(Bid)["player"].__set__
_set_bid_quantity = vars(Bid)["quantity"].__set__
_set_bid_face = vars(Bid)["face"].__set__


def bid_unchecked(player: int, quantity: int, face: int) -> Bid:
    """``Bid(player, quantity, face)`` for values known to be good (a rank of the bid
    table), without the dataclass ``__init__``: the legal-move view builds one per index."""
    b: Bid = object.__new__(Bid)
    _set_bid_player(b, player)
    _set_bid_quantity(b, quantity)
    _set_bid_face(b, face)
    return b


def bid_numbers(bid: object) -> tuple[int, int]:
    """The quantity and face of the :class:`Bid` ``bid`` as integers: any integer type
    (a NumPy one too), else ``TypeError`` (:func:`~perudo_rules.base.seatcheck.check_int`;
    so for anything but a ``Bid``). Plain Python in both builds, for ``Game.rank``.

    >>> bid_numbers(Bid(0, 5, 4))
    (5, 4)
    """
    if type(bid) is not Bid:
        raise TypeError(tr("{value} is not a bid", value=shortened(repr(bid), 60)))
    return check_int(bid.quantity, "quantity"), check_int(bid.face, "face")


@dataclass(frozen=True, slots=True)
class Dudo:
    """``player`` doubts the standing bid: the cups are lifted and someone loses a die."""

    player: int

    def __str__(self) -> str:
        return "dudo"


@dataclass(frozen=True, slots=True)
class Calza:
    """``player`` claims the standing bid is exact: right gains a die, wrong loses one."""

    player: int

    def __str__(self) -> str:
        return "calza"


@dataclass(frozen=True, slots=True)
class Leave:
    """``player`` leaves the game (a forfeit, a disconnect, a timeout): its dice leave with
    it. Not a move of play: any seat with dice may leave while a round is in play, in turn
    or not, or between rounds, and ``Game.legal_actions`` never lists it (the core rule
    ``play.leave``; what becomes of the round is the knob ``leave.round``)."""

    player: int

    def __str__(self) -> str:
        return "leave"


@dataclass(frozen=True, slots=True)
class Reroll:
    """``player`` sets the dice ``set_aside`` (their faces, from its concealed dice) aside
    face up and re-rolls the rest of its concealed dice (``reroll.enabled``). The re-rolled
    dice are a chance step (:meth:`Game.roll <perudo_rules.engine.game.Game.roll>`); then the same
    player acts. ``set_aside`` is kept in ascending order (``Reroll(0, (5, 2))`` equals
    ``Reroll(0, (2, 5))``); ``str(reroll)`` is its notation, ``"reroll 2,5"``."""

    player: int
    set_aside: tuple[int, ...]

    def __post_init__(self) -> None:
        faces = self.set_aside
        try:
            ordered = tuple(sorted(faces))
        except TypeError:  # not faces: kept as given, and refused by the rules
            ordered = tuple(faces) if isinstance(faces, (list, tuple)) else faces
        object.__setattr__(self, "set_aside", ordered)

    def __str__(self) -> str:
        faces = self.set_aside
        shown = ",".join(map(str, faces)) if isinstance(faces, tuple) else str(faces)
        return f"reroll {shown}" if shown else "reroll"


Action = Bid | Dudo | Calza | Leave | Reroll
for _cls in (Bid, Dudo, Calza, Leave, Reroll):
    pickle_by_fields(_cls)


def _shown(text: object) -> str:
    return repr(text[:60]) if isinstance(text, str) else type(text).__name__


def syntax_error(message_id: str, text: object, **params: int) -> ActionSyntaxError:
    """The :class:`~perudo_rules.base.errors.ActionSyntaxError` of ``text`` (cut short: its
    first 60 characters, quoted; or the name of its type if it is not a text), refused
    under the fixed rule ``play.notation`` with ``message_id`` and ``params``."""
    return ActionSyntaxError(Refusal("play.notation", message_id, {"text": _shown(text), **params}))


def parse_bid(text: str, player: int = 0) -> Bid:
    """Parse ``"5x4"``, ``"5 4"`` or ``"5*4"`` into a :class:`Bid` (same as :meth:`Bid.parse`).

    >>> parse_bid("5x4", player=2)
    Bid(player=2, quantity=5, face=4)
    """
    return Bid.parse(text, player)


def format_action(action: Action) -> str:
    """An action with its seat, as records and scenarios write it.

    >>> format_action(Bid(2, 5, 4)), format_action(Dudo(1)), format_action(Calza(0))
    ('2:5x4', '1:dudo', '0:calza')
    >>> format_action(Leave(2)), format_action(Reroll(2, (5, 1)))
    ('2:leave', '2:reroll 1,5')
    """
    return f"{action.player}:{action}"


def parse_action(text: str, player: int | None = None) -> Action:
    """Read an action with its seat: ``"2:5x4"``, ``"1:dudo"``, ``"0:calza"``, ``"2:leave"``,
    ``"2:reroll 5,5"``.

    With ``player``, a text without a seat (``"5x4"``, ``"dudo"``) is that seat's, and
    a seat in front must be ``player`` (a server reading what a seat sent: another seat's
    text is refused, message id ``another-seats-action``). ``player`` is a seat
    (:func:`~perudo_rules.base.seatcheck.check_seat`, up to the most seats a game has):
    anything else raises :class:`~perudo_rules.base.errors.SeatTypeError` or
    :class:`~perudo_rules.base.errors.SeatError`.

    Spaces around the parts, capitals and the word ``bid`` (``"2: bid 5x4"``, as
    scenario files write it) are accepted; :func:`format_action` writes the
    canonical form. Raises :class:`~perudo_rules.base.errors.ActionSyntaxError`, a
    :class:`~perudo_rules.base.errors.Refused` under ``play.notation`` (message id
    ``action-syntax``).

    >>> parse_action("2:5x4"), parse_action("1: dudo"), parse_action("calza", player=3)
    (Bid(player=2, quantity=5, face=4), Dudo(player=1), Calza(player=3))
    """
    if player is not None:
        player = check_seat(player, MAX_PLAYERS, "player")
    full = _spaced(text) if isinstance(text, str) else text
    if player is not None and isinstance(full, str) and ":" not in full:
        full = f"{player}:{full}"
    m = _ACTION.fullmatch(full) if isinstance(full, str) else None
    if m is None:
        r = _REROLL.fullmatch(full) if isinstance(full, str) else None
        if r is None:
            raise syntax_error("action-syntax", text)
        seat = int(r[1])
        if player is not None and seat != player:
            raise syntax_error("another-seats-action", text, seat=seat, player=player)
        return Reroll(seat, tuple(int(f) for f in re.findall(r"[0-9]+", r[2])))
    seat = int(m[1])
    if player is not None and seat != player:
        raise syntax_error("another-seats-action", text, seat=seat, player=player)
    call = (m[4] or "").lower()
    if call == "dudo":
        return Dudo(seat)
    if call == "calza":
        return Calza(seat)
    if call == "leave":
        return Leave(seat)
    return Bid(seat, int(m[2]), int(m[3]))
