"""The one check of a seat argument: :func:`check_seat`, which every public function that
takes a seat calls (``Game.legal_actions(seat=)``, ``Game.observation(seat)``,
``parse_action(player=)``, ``to_record(viewer=)``), and :func:`check_int`, the same
reading of any other integer argument (a face, a count, an index); :func:`check_face`
reads a face and checks it is one of the dice's.

A seat is an integer from 0 to the number of seats less one (the fixed rule ``play.seat``).
An ``int`` is one, and so is any integer type that Python reads as an index
(``operator.index``: a NumPy integer); a ``bool`` is not, nor a float (``1.0``), a text
(``"1"``) or ``None``. A wrong type raises :class:`~perudo_rules.base.errors.SeatTypeError`
(a ``TypeError``), an integer out of range :class:`~perudo_rules.base.errors.SeatError`
(a ``ValueError``); both are :class:`~perudo_rules.base.errors.Refused`, whose refusal names
the parameter, the value given and the range, so that a server answers them as it answers
an illegal action. Never an empty result for a seat that is not one.

Both run as plain Python in both builds (this module is not compiled): a compiled entry
point takes ``object`` and calls them, so that the pure package and the compiled build
accept the same integers (a NumPy one from ``np.argmax`` too) and refuse the rest with the
same exception.
"""

from __future__ import annotations

from perudo_rules.base.errors import SeatError, SeatTypeError
from perudo_rules.base.i18n import tr
from perudo_rules.base.limits import whole_number
from perudo_rules.base.messages import Refusal, given

__all__ = ["check_face", "check_int", "check_seat", "check_seed"]


def check_int(value: object, parameter: str) -> int:
    """``value`` as an ``int`` if it is an integer: an ``int``, or a type Python reads as an
    index (``operator.index``: a NumPy integer), not a bool; else a ``TypeError`` of one
    line naming ``parameter`` and the value.

    >>> check_int(3, "face")
    3
    >>> check_int(2.0, "face")
    Traceback (most recent call last):
    ...
    TypeError: face=2.0 is not an integer
    """
    if type(value) is int:
        return value
    index = whole_number(value)
    if index is None:
        raise TypeError(
            tr("{parameter}={value} is not an integer", parameter=parameter, value=given(value))
        )
    return index


def check_face(value: object, faces: int, parameter: str = "face") -> int:
    """``value`` as an ``int`` if it is a face of a die of ``faces`` faces (1 to ``faces``),
    read as :func:`check_int` reads it (``TypeError`` if it is no integer); else a
    ``ValueError`` of one line naming ``parameter``.

    >>> check_face(6, 6)
    6
    >>> check_face(7, 6)
    Traceback (most recent call last):
    ...
    ValueError: face=7 is not a face of a d6
    """
    face = check_int(value, parameter)
    if not 1 <= face <= faces:
        raise ValueError(
            tr(
                "{parameter}={face} is not a face of a d{faces}",
                parameter=parameter,
                face=given(face),
                faces=faces,
            )
        )
    return face


def check_seat(seat: object, players: int, parameter: str = "seat") -> int:
    """``seat`` as an ``int`` if it is a seat of a game of ``players`` seats, else a
    :class:`~perudo_rules.base.errors.SeatTypeError` (not an integer, or a bool) or a
    :class:`~perudo_rules.base.errors.SeatError` (out of range), each one line naming
    ``parameter`` and the seats.

    >>> check_seat(2, 3)
    2
    >>> check_seat(3, 3, "viewer")
    Traceback (most recent call last):
    ...
    perudo_rules.base.errors.SeatError: viewer=3 is not a seat: the seats are 0 to 2 [play.seat]
    >>> check_seat(True, 3)
    Traceback (most recent call last):
    ...
    perudo_rules.base.errors.SeatTypeError: seat=True is not a seat: a seat is an integer \
from 0 to 2 [play.seat]
    """
    index = seat if type(seat) is int else whole_number(seat)
    if index is None:
        params = {"parameter": parameter, "seat": given(seat), "last": players - 1}
        raise SeatTypeError(Refusal("play.seat", "seat-not-an-int", params))
    if not 0 <= index < players:
        params = {"parameter": parameter, "seat": given(index), "last": players - 1}
        raise SeatError(Refusal("play.seat", "no-such-seat", params))
    return index


def check_seed(seed: object) -> int | float | str | bytes | bytearray | None:
    """``seed`` as ``random.Random`` takes it: ``None``, an ``int`` (a NumPy integer, which
    RL code hands, is read as the ``int`` it is), a float, a text or bytes; anything else a
    ``TypeError`` of one line. Both builds read a seed here, so they take and refuse the same.

    >>> check_seed(7), check_seed("table 4")
    (7, 'table 4')
    >>> check_seed([1])
    Traceback (most recent call last):
    ...
    TypeError: seed=[1] is no seed: give an integer, a float, a text or bytes
    """
    if seed is None or isinstance(seed, (int, float, str, bytes, bytearray)):
        return seed
    index = whole_number(seed)
    if index is None:
        raise TypeError(
            tr(
                "seed={value} is no seed: give an integer, a float, a text or bytes",
                value=given(seed),
            )
        )
    return index
