"""The error types of perudo-rules. All are ``ValueError`` subclasses (:class:`SeatTypeError`
is a ``TypeError`` too)."""

from __future__ import annotations

from perudo_rules.base.i18n import tr
from perudo_rules.base.messages import Refusal
from perudo_rules.base.safetext import shortened

__all__ = [
    "ActionSyntaxError",
    "IllegalAction",
    "LocatedError",
    "OutputError",
    "PerudoError",
    "PositionError",
    "Refused",
    "SeatError",
    "SeatTypeError",
    "VariantError",
    "missing_extra",
]


class PerudoError(ValueError):
    """Base class of every error this package raises on bad input.

    Every error survives :mod:`pickle` with its attributes (``rule``, ``file``,
    ``key_path``, ``line``, ``violation``, ``refusal``...), so a worker process may raise one to its
    pool: the copy is rebuilt from its arguments and attributes, not by calling
    ``__init__`` again (whose parameters differ from the message it passes on).
    """

    def __reduce__(
        self,
    ) -> tuple[object, tuple[type[PerudoError], tuple[object, ...], dict[str, object]]]:
        return _rebuild, (type(self), self.args, dict(self.__dict__))


def _rebuild(
    cls: type[PerudoError], args: tuple[object, ...], state: dict[str, object]
) -> PerudoError:
    """An error of class ``cls`` with ``args`` and the attributes ``state``, as pickled."""
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class Refused(PerudoError):
    """An input refused with a :class:`~perudo_rules.base.messages.Refusal`: the one type a
    server catches to answer any bad request (an illegal action, a text that is not an
    action, a seat that is not one) with a rule id, a message id and its parameters.

    ``refusal`` is the structured refusal, for an app that writes its own message
    (``refusal.to_json()`` is JSON-ready); ``rule`` its rule id (a knob path such as
    ``bidding.wild_opening`` or a fixed rule id such as ``play.turn``), ``message`` the
    English sentence made from it; ``str(error)`` is ``"message [rule]"`` and
    :meth:`message_in` the same in another language. A raiser that words the sentence
    itself (an environment naming its agent, in the reader's language) gives it as
    ``text``: ``str(error)`` is then ``"text [rule]"``, the rest unchanged.
    """

    def __init__(self, refusal: Refusal, text: str | None = None) -> None:
        self.refusal = refusal
        self.rule = refusal.rule
        self.message = refusal.message
        super().__init__(f"{self.message if text is None else text} [{self.rule}]")

    def message_in(self, lang: str | None = None) -> str:
        """``str(error)`` in ``lang`` (default: the language of the context,
        :func:`perudo_rules.base.i18n.use_language`): the refusal's sentence and the rule id."""
        return f"{self.refusal.text(lang)} [{self.rule}]"


class ActionSyntaxError(Refused):
    """A text that is not an action in the notation (``"5x4"``, ``"0:5x4"``, ``"1:dudo"``),
    or one with another seat in front than the seat it is read for: refused under the
    fixed rule ``play.notation`` (``refusal.message_id``: ``action-syntax``, ``bid-syntax``,
    ``roll-syntax``, ``roll-not-faces`` or ``another-seats-action``).

    Raised by every parser of actions: :meth:`perudo_rules.base.actions.Bid.parse`,
    :func:`perudo_rules.base.actions.parse_action` and the readers built on them.
    """


class IllegalAction(Refused):
    """An action that the rules do not allow in this position: ``refusal`` names the rule
    it breaks and why (:class:`Refused`)."""


class SeatError(Refused):
    """A seat argument that is no seat of the game (out of range): a ``ValueError``
    refused under the fixed rule ``play.seat`` (message id ``no-such-seat``, the parameter
    named). :func:`perudo_rules.base.seatcheck.check_seat` raises it."""


class SeatTypeError(SeatError, TypeError):
    """A seat argument that is not an integer (a bool, a float, a text, ``None`` where a
    seat is needed): a ``TypeError`` as well as a :class:`SeatError` (message id
    ``seat-not-an-int``)."""


class LocatedError(PerudoError):
    """An error in input that is located: by ``file``, dotted ``key_path`` and 1-based ``line``.

    ``str(error)`` is one readable line, ``file:line: key.path: message``; parts that are
    unknown are left out (``placeholder`` stands in for a missing file name when a line or
    key path follows, for subclasses that set it). Characters that are not printable (in
    a file name, a key, a quoted value) are escaped (:func:`perudo_rules.base.safetext.printable`);
    the attributes keep the text as given.
    """

    placeholder = ""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        key_path: str = "",
        line: int | None = None,
    ) -> None:
        self.message = message
        self.file = file
        self.key_path = key_path
        self.line = line
        where = shortened(file, 300) if file else ""
        where = where or (self.placeholder if line is not None or key_path else "")
        if line is not None:
            where += f":{line}"
        path = shortened(key_path, 200) if key_path else ""
        prefix = (f"{where}: " if where else "") + (f"{path}: " if path else "")
        # one readable line of bounded length, whatever text the input gave it to echo
        super().__init__(prefix + shortened(message, 600))


class VariantError(LocatedError):
    """A variant file (or override) is malformed, incomplete or inconsistent.

    ``file`` is the file at fault (or ``None`` for in-memory input), ``key_path``
    the dotted key path inside it, ``line`` the 1-based line where it stands.
    ``str(error)`` is one readable line: ``file:line: key.path: message``.
    """

    placeholder = "<variant>"


class OutputError(PerudoError):
    """An output file cannot be written: its folder is missing or read-only, it is a
    directory, it would overwrite an input or another output of the same run, or the
    write failed (a full disk). ``str(error)`` is one line naming the file."""


class PositionError(LocatedError):
    """A position (or a position plus actions) in JSON is malformed.

    ``key_path`` names the key at fault; ``str(error)`` is one readable line.
    """

    placeholder = "<position>"


def missing_extra(module: str, library: str, extra: str) -> ImportError:
    """The ``ImportError`` a front end raises when its optional dependency is missing:
    ``module`` needs ``library``, installed by the extra ``extra`` of perudo-rules (in the
    reader's language, :func:`perudo_rules.base.i18n.use_language`).

    >>> str(missing_extra("perudo_rules.openspiel", "OpenSpiel", "openspiel"))
    "perudo_rules.openspiel needs OpenSpiel: pip install 'perudo-rules[openspiel]'"
    """
    return ImportError(
        tr("{module} needs {library}: pip install 'perudo-rules[{extra}]'",
           module=module, library=library, extra=extra)
    )  # fmt: skip
