"""Refusals as data: the rule broken, a message id and the values its sentence is made of.

Every refusal of the package (the kernel's verdicts on bids and calls, the seat count of
:func:`~perudo_rules.engine.start.seats_verdict`, the standard start, the referee's findings on a
record) is a :class:`Refusal`: a rule id (``bidding.wild_worth``), a stable message id
(``wild-bid-needs``) and its parameters (``{"standing_quantity": 3, "standing_face": 4,
"need": 2}``). An app writes its own sentence, in any language, from the message id and
the parameters; the English sentence is made from the same values by
:func:`format_message` and the one table of English templates, :data:`ENGLISH`.

The parameters are plain values: integers (seats, quantities, faces, counts of dice) and
short texts that are data, never English words (an edition id, a bid in the notation, a
value as given when it is not a number, a JSON value of a record). Each template names its
placeholders (``{need}``); a template whose words follow a count is a :class:`Plural`.

Message ids are kebab-case words (``not-a-raise``), never dotted, so that a message id is
never mistaken for a rule id; they never change meaning, and a new sentence gets a new id.
:data:`CATALOGUES` maps a language code to its table (English; Italian and Spanish from the
gettext catalogues of :mod:`perudo_rules.base.i18n`); the language
is an argument of the formatter, never a global, so two threads may speak two languages.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from perudo_rules.base.i18n import LANGUAGES, language, template
from perudo_rules.base.i18n import template as template_of
from perudo_rules.base.limits import short_number

__all__ = [
    "CATALOGUES",
    "ENGLISH",
    "Param",
    "Plural",
    "Refusal",
    "format_message",
    "given",
    "template_fields",
]

Param = int | str
"""A parameter value: an integer, or a short text that is data (never English words)."""


@dataclass(frozen=True, slots=True)
class Plural:
    """A sentence whose words follow a count: ``one`` when the parameter named ``count``
    is 1, ``other`` for every other number (English's two plural forms)."""

    count: str
    one: str
    other: str


Template = str | Plural

#: Every message the package refuses with, in English: message id to its template.
#: Grouped by where the refusal is made: the kernel (bids, calls, seats), the game,
#: the start of a game (:mod:`perudo_rules.engine.start`), and game records (the referee).
ENGLISH: Mapping[str, Template] = {
    # --- the kernel: bids (RoundRules.bid_verdict) -----------------------------------------
    "not-your-turn": "it is seat {to_move}'s turn, not seat {seat}'s",
    "not-a-bid": "{quantity}x{face} is not a bid on a d{faces}",
    "beyond-notation": (
        "{quantity} dice: no bid names more than {most:,} "
        "(perudo_rules.base.limits.MAX_BID_QUANTITY)"
    ),
    "over-quantity-limit": "no bid may name {quantity} dice of face {face}",
    "over-dice-in-play": "only {dice} dice are in play; {quantity} is too many",
    "no-wild-opening": "no bid on the wild face as the opening bid",
    "no-wild-first-round": "no bid on the wild face in the first round",
    "no-wild-opening-palifico": "no bid on the wild face as the opening bid in a palifico round",
    "no-wild-palifico": "no bid on the wild face at all in a palifico round",
    "face-locked": "in this palifico round the face stays {face}",
    "lowers-quantity": (
        "{quantity}x{face} lowers the quantity of the standing bid "
        "{standing_quantity}x{standing_face}"
    ),
    "lowers-face": (
        "{quantity}x{face} lowers the face of the standing bid {standing_quantity}x{standing_face}"
    ),
    "repeats-bid": (
        "{quantity}x{face} repeats the standing bid {standing_quantity}x{standing_face}"
    ),
    "not-a-raise": (
        "{quantity}x{face} does not raise the standing bid {standing_quantity}x{standing_face}"
    ),
    # (a refused raise needs two dice or more: one die would be refused as no bid at all)
    "wild-bid-needs": (
        "after {standing_quantity}x{standing_face} a wild bid needs at least {need} dice"
    ),
    "ordinary-bid-needs": (
        "after {standing_quantity}x{standing_face} an ordinary bid needs at least {need} dice"
    ),
    # --- the kernel: calls (RoundRules.call_verdict) and any action (RoundRules.verdict) ----
    "dudo-only-to-move": "only seat {to_move}, the player to move, may call Dudo",
    "dudo-own-bid": "the bidder may not doubt their own bid",
    "no-calza": "this variant has no Calza",
    "calza-too-few-seats": "no Calza with {seats} seats left",
    "no-calza-palifico": "no Calza in a palifico round",
    "calza-own-bid": "the bidder may not call Calza on their own bid",
    "calza-to-move": "the player to move may not call Calza",
    "calza-only-to-move": "only seat {to_move}, the player to move, may call Calza",
    "seat-without-dice": "seat {seat} is not a seat with dice",
    "dudo-without-bid": "there is no bid to doubt yet",
    "calza-without-bid": "there is no bid to match yet",
    "not-an-action": "{action} is not a Bid, Dudo, Calza or Leave",
    # --- an offered out-of-turn call, as the RL adapters ask it (ActionMap.offer_refusal) ---
    "offered-call-only": (
        "seat {seat} is offered an out-of-turn call (Dudo, Calza or Pass) and may not play "
        "{action}"
    ),
    "no-call-to-pass": (
        "seat {seat} is the player to move: Pass only declines an offered out-of-turn call"
    ),
    # --- the notation and the seats (perudo_rules.base.actions, perudo_rules.base.seatcheck) --
    "action-syntax": (
        "not an action: {text} (write QxF, dudo, calza, leave or reroll F,F, optionally "
        "prefixed by the seat, 2:QxF)"
    ),
    "bid-syntax": "not a bid: {text} (write quantity x face, e.g. 5x4)",
    "roll-syntax": "not a roll: {text} (write roll [[1, 2], [], [6]])",
    "roll-not-faces": "not a roll: {text} (one list of faces, 1 or more, per seat)",
    "another-seats-action": "{text} is seat {seat}'s action; this request is seat {player}'s",
    "seat-not-an-int": "{parameter}={seat} is not a seat: a seat is an integer from 0 to {last}",
    "no-such-seat": "{parameter}={seat} is not a seat: the seats are 0 to {last}",
    # --- the re-roll (perudo_rules.engine.reroll) -------------------------------------------------
    "no-reroll": "this variant has no re-roll",
    "reroll-no-bid-left": "a re-roll must be followed by a bid, and no bid is left",
    "reroll-dice-in-the-air": "seat {seat}'s re-rolled dice are still to be rolled",
    "reroll-once-per-turn": "seat {seat} has re-rolled in this turn already",
    "reroll-once-per-round": "seat {seat} has re-rolled in this round already",
    "reroll-not-faces": "a re-roll sets aside faces of a d{sides}, not {faces}",
    "reroll-nothing-aside": "a re-roll sets at least one die aside",
    "reroll-not-held": "seat {seat}'s concealed dice ({dice}) hold no more {face}s to set aside",
    "reroll-min-hidden": Plural(
        "least",
        "a re-roll leaves at least {least} die concealed",
        "a re-roll leaves at least {least} dice concealed",
    ),
    "reroll-acts-next": "seat {seat} has re-rolled and acts next",
    "reroll-must-bid": "seat {seat} has re-rolled, so it must bid",
    # --- the game (Game.violation, Game.roll) ----------------------------------------------
    "game-over": "the game is over; seat {winner} won",
    "round-over": "the round is over; roll the dice for the next round first",
    "roll-mid-round": "the dice are rolled only between rounds",
    "roll-mid-round-reroll": "the dice are rolled only between rounds and after a re-roll",
    # --- the start of a game (perudo_rules.engine.start) ------------------------------------------
    "seats-not-whole": "{players} is not a whole number of seats",
    "seats-out-of-range": Plural(
        "players",
        "{players} seat; {edition} plays with {least} to {most}",
        "{players} seats; {edition} plays with {least} to {most}",
    ),
    "seats-not-exactly": Plural(
        "players",
        "{players} seat; {edition} plays with exactly {exactly}",
        "{players} seats; {edition} plays with exactly {exactly}",
    ),
    "start-round": "a game starts with round 1, not round {round}",
    "start-dice": Plural(
        "held",
        "seat {seat} starts with {held} die, not {dice}",
        "seat {seat} starts with {held} dice, not {dice}",
    ),
    "start-palifico": "the first round of a game is not a palifico round",
    "start-palifico-used": "no seat has had a palifico round at the start",
    "start-first-player": "seat 0 opens the first round, not seat {seat}",
    # --- game records (perudo_rules.records.replay, the referee) ----------------------------------
    "record-at-step": "round {round}, step {step} ({action})",
    "record-at-round": "round {round}",
    "record-cups": "the round lists {cups} cups for {seats} seats",
    "record-not-a-face": "seat {seat} shows {die}, not a face of a d{faces}",
    "record-too-many-dice": "seat {seat} holds {held} dice; the most is {most}",
    "record-two-seats": "at least two seats must hold dice",
    "record-opener-without-dice": "seat {seat} opens but holds no dice",
    "record-no-palifico": "{edition} has no palifico rounds",
    "record-palifico-opener": (
        "seat {seat} opens a palifico round holding {held} dice, not exactly one"
    ),
    "record-game-over": "the game was over; seat {winner} had won",
    "record-round-not-ended": "a new round starts before the previous one ended",
    "record-round-number": "round {previous} is followed by round {round}",
    "record-rolled": Plural(
        "rolled",
        "seat {seat} rolls {rolled} die, but holds {held} after round {round}",
        "seat {seat} rolls {rolled} dice, but holds {held} after round {round}",
    ),
    "record-opener": "seat {expected} opens this round, not seat {seat}",
    "record-no-reroll-waiting": "no re-roll is waiting for its dice",
    "record-rerolled": Plural(
        "rolled",
        "seat {seat} rolls {rolled} die, but re-rolls {held}",
        "seat {seat} rolls {rolled} dice, but re-rolls {held}",
    ),
    "record-lifted-cup-hidden": "seat {seat}'s cup was lifted, but the record hides its dice",
    "record-palifico-expected": "this round is a palifico round",
    "record-palifico-unexpected": "this round is not a palifico round",
    # a result the record states otherwise than the rules: one sentence per field of it
    "record-result-kind": (
        "the record says the round ends with {stated}, but by the rules with {actual}"
    ),
    "record-result-caller": "the record says seat {stated} calls, but by the rules seat {actual}",
    "record-result-bid": "the record says the call is on {stated}, but by the rules on {actual}",
    "record-result-count": "the record counts {stated} dice, but by the rules there are {actual}",
    "record-result-loser": (
        "the record says seat {stated} loses a die, but by the rules seat {actual}"
    ),
    "record-result-gainer": (
        "the record says seat {stated} gains a die, but by the rules seat {actual}"
    ),
    "record-result-revealed": (
        "the record says the cups lifted are {stated}, but by the rules {actual}"
    ),
    "record-result-next-player": (
        "the record says seat {stated} opens the next round, but by the rules seat {actual}"
    ),
    # a seat the record or the rules name where the other names none
    "record-result-loser-none": (
        "the record says no seat loses a die, but by the rules seat {actual} does"
    ),
    "record-result-loser-extra": (
        "the record says seat {stated} loses a die, but by the rules nobody does"
    ),
    "record-result-gainer-none": (
        "the record says no seat gains a die, but by the rules seat {actual} does"
    ),
    "record-result-gainer-extra": (
        "the record says seat {stated} gains a die, but by the rules nobody does"
    ),
    "record-result-next-player-none": (
        "the record says nobody opens a next round, but by the rules seat {actual} does"
    ),
    "record-result-next-player-extra": (
        "the record says seat {stated} opens the next round, but by the rules none follows"
    ),
    "record-result-next-palifico": (
        "the record says the next round is palifico: {stated}, but by the rules: {actual}"
    ),
    "record-after-end": "the round already ended; no more actions",
    "record-result-without-call": (
        "the record states a result, but the round did not end with a Dudo, a Calza or a "
        "seat leaving"
    ),
    "record-winner-unfinished": (
        "the record names seat {seat} the winner, but the game is not over"
    ),
    "record-winner-differs": "seat {winner} won, not {stated}",
}

class _Translated(Mapping[str, Template]):
    """The templates of ``lang``: each English template of :data:`ENGLISH` through the
    package's gettext catalogues (:func:`perudo_rules.base.i18n.template`, keyed by the message
    id); a template no catalogue translates stays English."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def __getitem__(self, message_id: str) -> Template:
        english = ENGLISH[message_id]
        if isinstance(english, str):
            return template(message_id, english, lang=self.lang)
        one = template(message_id, english.one, english.other, 1, self.lang)
        other = template(message_id, english.one, english.other, 2, self.lang)
        return Plural(english.count, one, other)

    def __iter__(self) -> Iterator[str]:
        return iter(ENGLISH)

    def __len__(self) -> int:
        return len(ENGLISH)


#: Language code to its catalogue of templates (message id to template): English, then
#: Italian and Spanish from the package's gettext catalogues.
CATALOGUES: Mapping[str, Mapping[str, Template]] = {
    "en": ENGLISH,
    **{lang: _Translated(lang) for lang in LANGUAGES if lang != "en"},
}


class _Formatter(string.Formatter):
    """``str.format`` with a template's parameters: an integer with no format spec in
    digits, a huge one shortened (``str`` refuses over 4300 digits)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        if type(value) is int and abs(value) >= 10**18:
            return short_number(value)
        return format(value, format_spec)


_FORMATTER = _Formatter()


def template_fields(template: Template) -> frozenset[str]:
    """The parameter names a template uses: its placeholders, and a plural's count.

    >>> sorted(template_fields(ENGLISH["over-dice-in-play"]))
    ['dice', 'quantity']
    """
    texts = (template,) if isinstance(template, str) else (template.one, template.other)
    names = {name for text in texts for _, name, _, _ in _FORMATTER.parse(text) if name}
    if isinstance(template, Plural):
        names.add(template.count)
    return frozenset(names)


def format_message(message_id: str, params: Mapping[str, Any], lang: str | None = None) -> str:
    """The sentence of ``message_id`` in ``lang``, made from ``params``.

    The catalogue is chosen by ``lang``, never by a global: without one, the language of
    the context (:func:`perudo_rules.base.i18n.use_language`; English unless a block sets one).
    Integers
    are written in digits (a huge one shortened, :func:`~perudo_rules.base.limits.short_number`;
    ``{most:,}`` in a template groups the digits), every other value as it is. ``KeyError``
    for an unknown message id or a missing parameter, ``ValueError`` for a language
    without a catalogue.

    >>> format_message("wild-bid-needs", {"standing_quantity": 3, "standing_face": 4, "need": 2})
    'after 3x4 a wild bid needs at least 2 dice'
    """
    lang = lang or language()
    catalogue = CATALOGUES.get(lang)
    if catalogue is None:
        raise ValueError(f"no messages in {lang!r} (languages: {', '.join(CATALOGUES)})")
    english = ENGLISH.get(message_id)
    if isinstance(english, Plural) and lang != "en" and type(params[english.count]) is int:
        # the form the language's plural rule chooses for the count (Italian and Spanish
        # have a third one, for a million and its multiples)
        n = params[english.count]
        text = template_of(message_id, english.one, english.other, n, lang)
        return _FORMATTER.vformat(text, (), params)
    template = catalogue[message_id]
    if isinstance(template, Plural):
        template = template.one if params[template.count] == 1 else template.other
    return _FORMATTER.vformat(template, (), params)


def given(value: object) -> Param:
    """A value as an action gave it, for a parameter: an integer as it is, anything else
    (a float, a text, ``True``) as its short ``repr``."""
    return value if type(value) is int else short_number(value)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why an action (or a seat count, or a step of a record) is refused.

    ``rule`` is the rule id broken (a knob path such as ``bidding.wild_worth`` or a fixed
    rule such as ``play.turn``), ``message_id`` a stable key of :data:`ENGLISH` and
    ``params`` the values its sentence is made of, by placeholder name. ``message`` is
    the English sentence; :meth:`text` the sentence in another catalogue's language.
    Not a tuple: ``rule, reason = refusal`` fails, read ``refusal.rule`` and
    ``refusal.message``. Treat ``params`` as read-only (a refusal is compared by value,
    not hashed).

    >>> r = Refusal("bidding.quantity_cap", "over-dice-in-play", {"dice": 11, "quantity": 12})
    >>> r.message
    'only 11 dice are in play; 12 is too many'
    >>> str(r)
    'only 11 dice are in play; 12 is too many [bidding.quantity_cap]'
    """

    rule: str
    message_id: str
    params: Mapping[str, Param]

    @property
    def message(self) -> str:
        """The English sentence, made from the message id and the parameters."""
        return format_message(self.message_id, self.params, "en")

    def text(self, lang: str | None = None) -> str:
        """The sentence in ``lang`` (:func:`format_message`; default: the language of the
        context, :func:`perudo_rules.base.i18n.use_language`)."""
        return format_message(self.message_id, self.params, lang)

    def to_json(self) -> dict[str, Any]:
        """``{"rule", "message_id", "params", "message"}``, JSON-ready."""
        return {
            "rule": self.rule,
            "message_id": self.message_id,
            "params": dict(self.params),
            "message": self.message,
        }

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]"
