"""What one seat sees: a finished round (:class:`PastRound`) and the game (:class:`Observation`).

:meth:`RoundRecord.seen_by <perudo_rules.game.RoundRecord.seen_by>` and
:meth:`Game.observation <perudo_rules.game.Game.observation>` build them; they hold a
seat's own dice and what the whole table saw, never a closed cup. Their JSON forms live in
:mod:`perudo_rules.gamejson`, a layer above (they need the record's variant encoding and
replay), which installs them here when the package is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from perudo_rules.actions import Action, Bid

__all__ = ["Observation", "PastRound", "install_json_codecs", "json_codec"]


@dataclass(frozen=True, slots=True)
class PastRound:
    """What one seat saw of a finished round: public actions, the called ``bid``, the
    lifted cups (``revealed``, ``shown``) and the dice among them matching the bid
    (``shown_count``), its own dice as the round began and the dice it rolled in its own
    re-rolls (``own_rerolls``); never a closed cup nor the true count. A round a seat's
    leaving ended has ``kind`` ``"leave"``, that seat as ``caller`` and ``loser``, and no
    lifted cup."""

    round: int
    first_player: int
    palifico: bool
    actions: tuple[Action, ...]
    bid: Bid | None
    kind: str
    caller: int | None
    loser: int | None
    gainer: int | None
    revealed: tuple[int, ...]
    shown: tuple[tuple[int, ...], ...]
    shown_count: int
    next_player: int | None
    own_dice: tuple[int, ...]
    own_rerolls: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Observation:
    """What seat ``player`` may see: its own dice and everything public, nothing else;
    ``actions`` is this round's actions so far (its ``bids``, any seat's
    :class:`~perudo_rules.actions.Leave` and :class:`~perudo_rules.actions.Reroll`);
    ``set_aside`` every seat's dice set aside face up this round (``reroll.enabled``:
    public, shown to every seat); ``legal_actions`` is its own
    :meth:`Game.legal_actions <perudo_rules.game.Game.legal_actions>` (lazy; not
    compared)."""

    player: int
    dice: tuple[int, ...]
    dice_counts: tuple[int, ...]
    round: int
    to_move: int | None
    palifico: bool
    palifico_player: int | None
    bids: tuple[Bid, ...]
    past_rounds: tuple[PastRound, ...]
    winner: int | None
    awaiting_roll: bool = False
    palifico_used: frozenset[int] = frozenset()
    first_round: bool = False
    actions: tuple[Action, ...] = ()
    set_aside: tuple[tuple[int, ...], ...] = ()
    legal_actions: Sequence[Action] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        """This view as JSON (:func:`perudo_rules.gamejson.observation_to_json`)."""
        return json_codec("observation_to_json")(self)  # type: ignore[no-any-return]


# The JSON forms live in perudo_rules.gamejson, a layer above (they need the record's
# variant encoding and replay); it installs them here when the package is imported.
_JSON_CODECS: dict[str, Callable[..., Any]] = {}


def install_json_codecs(**codecs: Callable[..., Any]) -> None:
    """Install the JSON forms of games and observations (:mod:`perudo_rules.gamejson`)."""
    _JSON_CODECS.update(codecs)


def json_codec(name: str) -> Callable[..., Any]:
    """An installed JSON form (``game_to_json``, ``game_from_json``, ``observation_to_json``)."""
    return _JSON_CODECS[name]
