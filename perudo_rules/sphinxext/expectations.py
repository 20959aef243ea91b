"""What a scenario expects after a step, in the reader's words: ``expectation_text``.

A scenario file writes its expectations as keys (``loser: 2``, ``next_player: 3``,
``current_bid: 3x4``; :data:`perudo_rules.conform.scenarios.EXPECT_KEYS`). The catalogue of
scenarios (``perudo-scenarios``) shows each as a sentence in the build's language, seats
named as the rest of the spec names them (``seat 2``, ``posto 2``, ``asiento 2``), so no
key of the file reaches a reader; a key this module does not know is shown as written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from perudo_rules.base.i18n import N_, ntr, tr
from perudo_rules.records.describe import seat_name

__all__ = ["expectation_text"]


def _seat(value: Any, nobody: str, sentence: str) -> str:
    """``sentence`` (marked, untranslated) about the seat ``value`` (its ``{seat}``), or
    ``nobody`` (translated) for null."""
    return nobody if value is None else tr(sentence, seat=seat_name(int(value)))


def _flag(value: Any, yes: str, no: str) -> str:
    """The translation of ``yes`` or of ``no`` (both marked, untranslated)."""
    return tr(yes) if value else tr(no)


def _cups(dice: Sequence[Sequence[int]]) -> str:
    """``seat 0: [5, 5]; seat 1: []``: every seat's dice."""
    return "; ".join(f"{seat_name(s)}: [{', '.join(map(str, cup))}]" for s, cup in enumerate(dice))


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(seat_name(int(s)) for s in seats)


_KIND = {
    "dudo": N_("the round ends with a Dudo"),
    "calza": N_("the round ends with a Calza"),
    "leave": N_("the round ends as a seat leaves the game"),
}

#: Each expectation key and the sentence of its value.
_SAY: dict[str, Callable[[Any], str]] = {
    "kind": lambda v: tr(_KIND[str(v)]) if str(v) in _KIND else f"kind: {v}",
    "count": lambda v: ntr(
        "{n} die counts in the lifted cups", "{n} dice count in the lifted cups", int(v)
    ),
    "loser": lambda v: _seat(v, tr("nobody loses a die"), N_("{seat} loses")),
    "gainer": lambda v: _seat(v, tr("nobody gains a die"), N_("{seat} gains a die")),
    "revealed": lambda v: (
        tr("cups lifted, in order: {seats}", seats=_seats(v)) if v else tr("no cup is lifted")
    ),
    "shown": lambda v: tr("the lifted cups show {cups}", cups=_cups(v)),
    "next_player": lambda v: _seat(v, tr("no round follows"), N_("{seat} opens the next round")),
    "next_palifico": lambda v: _flag(
        v, N_("the next round is a palifico round"), N_("the next round is an ordinary round")
    ),
    "dice_counts": lambda v: tr("dice per seat: {counts}", counts=", ".join(map(str, v))),
    "palifico": lambda v: _flag(
        v, N_("this round is a palifico round"), N_("this round is an ordinary round")
    ),
    "palifico_player": lambda v: _seat(
        v, tr("nobody plays a palifico round"), N_("{seat} plays its palifico round")
    ),
    "to_move": lambda v: _seat(v, tr("nobody is to move"), N_("{seat} is to move")),
    "winner": lambda v: _seat(v, tr("nobody has won yet"), N_("{seat} wins the game")),
    "round": lambda v: tr("this is round {n}", n=v),
    "awaiting_roll": lambda v: _flag(
        v, N_("the dice of the next roll are awaited"), N_("no roll is awaited")
    ),
    "current_bid": lambda v: (
        tr("no bid stands") if v is None else tr("the standing bid is {bid}", bid=v)
    ),
    "wilds_active": lambda v: _flag(
        v, N_("wilds count in this round"), N_("wilds do not count in this round")
    ),
    "legal_bid_count": lambda v: ntr("{n} bid is legal", "{n} bids are legal", int(v)),
    "set_aside": lambda v: (
        tr("dice set aside: {cups}", cups=_cups(v)) if any(v) else tr("no die is set aside")
    ),
    "dice": lambda v: tr("the dice: {cups}", cups=_cups(v)),
}


def expectation_text(key: str, value: Any) -> str:
    """The expectation ``key: value`` of a scenario step as a sentence, in the language of
    the context (:func:`perudo_rules.base.i18n.use_language`); an unknown key as written.

    >>> expectation_text("loser", 2), expectation_text("current_bid", None)
    ('seat 2 loses', 'no bid stands')
    """
    say = _SAY.get(key)
    return say(value) if say is not None else f"{key}: {value}"
