"""How a node reads as text: a cup, a round as a seat saw it, a game's history.

The texts behind the OpenSpiel adapter's information-state and observation strings
(:meth:`Observer.text <perudo_rules.openspiel.observer.Observer.text>`) and a state's own
string. Which dice a seat or a spectator sees in them is
:func:`perudo_rules.engine.views.sight`'s answer; the all-players view and a state's own
string show every die.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from perudo_rules.base.actions import Action, Reroll
from perudo_rules.engine.game import Game
from perudo_rules.engine.rounds import RoundRecord
from perudo_rules.engine.views import sight

__all__ = ["cup_text", "history_text", "round_text"]


def cup_text(dice: Sequence[int]) -> str:
    """A cup as its faces run together (``"-"`` for none)."""
    return "".join(map(str, dice)) or "-"


def round_text(
    number: int,
    opener: int,
    palifico: bool,
    dice: Sequence[Sequence[int]],
    actions: Sequence[Action],
    viewer: int | None,
    private: str,
    rolled: Sequence[tuple[int, ...]] = (),
) -> str:
    """One round as it was played, as ``viewer`` sees it: ``private`` is ``"single"`` (what
    seat ``viewer`` sees), ``"none"`` (what a spectator sees) or ``"all"`` (every die, as
    does ``viewer`` ``None``: OpenSpiel's all-players view and a state's own string, no
    seat's view). ``dice`` are the cups (as dealt), ``rolled`` the dice each re-roll among
    ``actions`` rolled, shown after it (``s1:reroll 5,5>2``) where seen. What a seat or a
    spectator sees is :func:`~perudo_rules.engine.views.sight`'s answer."""
    pal = " palifico" if palifico else ""
    texts = [f"s{a.player}:{a}" for a in actions]
    # the re-rolls among the actions, for the dice they rolled (none rolled: nothing to show)
    rerolls = [i for i, a in enumerate(actions) if type(a) is Reroll] if rolled else []
    if private == "all" or viewer is None:
        cups = " ".join([f"s{s}:{cup_text(c)}" for s, c in enumerate(dice)])
        seen_rolls: Sequence[Sequence[int] | None] = rolled
    else:
        seer = viewer if private == "single" else None
        seen = sight(seer, dice, (), [actions[i].player for i in rerolls], rolled)
        seen_cups = seen.cups
        own = None if seer is None else seen_cups[seer]
        cups = "" if own is None else f"dice {cup_text(own)}"
        if seen_cups.count(None) + (own is not None) < len(seen_cups):  # another seat's too
            seen_cups_of = enumerate(seen_cups)
            others = [f"s{s}:{cup_text(c)}" for s, c in seen_cups_of if c is not None and s != seer]
            cups = " ".join([x for x in (cups, *others) if x])
        seen_rolls = seen.rolls
    for k, i in enumerate(rerolls):  # the dice each re-roll rolled, where seen
        dice_rolled = seen_rolls[k] if k < len(seen_rolls) else None
        if dice_rolled:
            texts[i] += ">" + cup_text(dice_rolled)
    head = f"r{number}{pal} opener s{opener}"
    return " ".join([x for x in (head, cups, " ".join(texts)) if x])


@functools.lru_cache(maxsize=65536)
def _past_round_text(r: RoundRecord, viewer: int | None, private: str) -> str:
    """The text of a finished round for one view (cached by value: a record hashes once)."""
    res = r.result
    shown = " ".join(f"s{s}:{cup_text(c)}" for s, c in zip(res.revealed, res.shown, strict=True))
    outcome = f"lost s{res.loser}" if res.loser is not None else "no loss"
    if res.gainer is not None:
        outcome = f"gained s{res.gainer}"
    head = round_text(
        r.round, r.first_player, r.palifico, r.dice, r.actions, viewer, private, r.rerolls
    )
    return f"{head} ; shown {shown} ; {outcome}"


# The text of a game's finished rounds for one view, by the identity of its history: every
# position of a round shares that tuple (each entry keeps it alive, so an id is never reused
# while it is here). Hashing a history would hash each record, as many lookups as rounds.
_PAST: dict[tuple[int, int | None, str], tuple[tuple[RoundRecord, ...], list[str]]] = {}
_PAST_MAX = 4096


def _past_texts(history: tuple[RoundRecord, ...], viewer: int | None, private: str) -> list[str]:
    """The text of each finished round of ``history`` for one view."""
    key = (id(history), viewer, private)
    hit = _PAST.get(key)
    if hit is not None and hit[0] is history:
        return hit[1]
    texts = [_past_round_text(r, viewer, private) for r in history]
    if len(_PAST) >= _PAST_MAX:
        _PAST.clear()
    _PAST[key] = (history, texts)
    return texts


def history_text(game: Game, viewer: int | None, private: str = "all", recall: bool = True) -> str:
    """The finished rounds (with ``recall``), then the current round or the winner."""
    parts: list[str] = []
    if recall and game.history:
        parts.extend(_past_texts(game.history, viewer, private))
    if game.to_move is not None:
        assert game.first_player is not None
        state = game.reroll if recall else None
        rolled = () if state is None else state.rolled
        dice = game.dealt if recall else game.dice
        parts.append(
            round_text(
                game.round,
                game.first_player,
                game.palifico,
                dice,
                game.actions,
                viewer,
                private,
                rolled,
            )
        )
    elif game.is_over:
        parts.append(f"winner s{game.winner}")
    return " | ".join(parts)
