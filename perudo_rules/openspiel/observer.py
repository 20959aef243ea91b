"""What a seat sees of a node: information-state and observation strings and tensors.

The information-state string is perfect recall: the seat's own dice of every round, every
public action, every lifted cup and who is to act. The information-state tensor holds the
seat, its dice, the dice counts, the palifico state, the round's opener, every bid of the
current round by bidder and who is to act; earlier rounds appear only through their
effects (dice counts, palifico state). The observation string and tensor show the same
public state but only the standing bid. Everything shown is read from the engine
:class:`~perudo_rules.engine.game.Game` and its :class:`~perudo_rules.engine.game.RoundRecord`
history, and which dice a seat (``PrivateInfoType.SINGLE_PLAYER``) or nobody's
(``NONE``) view shows is :func:`perudo_rules.engine.views.sight`'s answer; the
all-players view (``ALL_PLAYERS``) and a state's own string show every die.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from perudo_rules.base.actions import Action, Reroll
from perudo_rules.engine.game import Game
from perudo_rules.engine.rounds import RoundRecord
from perudo_rules.engine.views import sight
from perudo_rules.openspiel.nodes import Node, Phase
from perudo_rules.openspiel.spec import GameSpec

__all__ = ["Observer", "cup_text", "history_text", "own_cup", "round_text"]


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
    by = [a.player for a in actions if type(a) is Reroll]
    if private == "all" or viewer is None:
        cups = " ".join(f"s{s}:{cup_text(c)}" for s, c in enumerate(dice))
        seen_rolls: Sequence[Sequence[int] | None] = rolled
    else:
        seer = viewer if private == "single" else None
        seen = sight(seer, dice, (), by, rolled)
        cups = " ".join(
            f"dice {cup_text(c)}" if s == seer else f"s{s}:{cup_text(c)}"
            for s, c in enumerate(seen.cups)
            if c is not None
        )
        seen_rolls = seen.rolls
    texts = []
    k = 0
    for a in actions:
        text = f"s{a.player}:{a}"
        if type(a) is Reroll:
            dice_rolled = seen_rolls[k] if k < len(seen_rolls) else None
            k += 1
            if dice_rolled:
                text += ">" + cup_text(dice_rolled)
        texts.append(text)
    acts = " ".join(texts)
    return " ".join(x for x in (f"r{number}{pal} opener s{opener}", cups, acts) if x)


def own_cup(cups: Sequence[Sequence[int]], player: int) -> tuple[int, ...]:
    """The cup seat ``player`` holds now (of ``cups``, one per seat), as
    :func:`~perudo_rules.engine.views.sight` shows it to that seat."""
    return sight(player, cups).cups[player] or ()


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


def history_text(game: Game, viewer: int | None, private: str = "all", recall: bool = True) -> str:
    """The finished rounds (with ``recall``), then the current round or the winner."""
    parts: list[str] = []
    if recall:
        parts.extend(_past_round_text(r, viewer, private) for r in game.history)
    if game.to_move is not None:
        assert game.first_player is not None
        state = game.reroll
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
                rolled if recall else (),
            )
        )
    elif game.is_over:
        parts.append(f"winner s{game.winner}")
    return " | ".join(parts)


class Observer:
    """One kind of view (``pyspiel.IIGObservationType``) of a game's nodes: the tensor
    layout (``tensor`` and its named pieces in ``dict``), :meth:`fill` and :meth:`text`."""

    def __init__(self, spec: GameSpec, iig_obs_type: Any) -> None:
        self.spec = spec
        self.recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        kind = iig_obs_type.private_info
        self.private = (
            "single"
            if kind == pyspiel.PrivateInfoType.SINGLE_PLAYER
            else ("all" if kind == pyspiel.PrivateInfoType.ALL_PLAYERS else "none")
        )
        n = spec.players
        d = spec.seat_dice
        faces = spec.variant.rules.dice_faces
        nb = spec.amap.num_bids
        pieces: list[tuple[str, tuple[int, ...]]] = [("player", (n,))]
        if self.private == "single":
            pieces.append(("dice", (d, faces)))
        elif self.private == "all":
            pieces.append(("dice", (n, d, faces)))
        if self.public:
            pieces += [
                ("counts", (n, d + 1)),
                ("palifico", (1,)),
                ("palifico_used", (n,)),
                ("opener", (n,)),
            ]
            if self.recall:
                pieces.append(("bids", (n, nb)))
            else:
                pieces += [("standing_bid", (nb,)), ("bidder", (n,))]
            pieces += [("to_act", (n,)), ("offer", (1,)), ("over", (1,))]
            if spec.variant.rules.reroll_enabled:
                pieces.append(("set_aside", (n, faces)))
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        at = 0
        for name, shape in pieces:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + k].reshape(shape)
            at += k

    def fill(self, node: Node, player: int) -> None:
        """Fill ``tensor`` with what ``player`` sees of ``node``."""
        t = self.dict
        self.tensor.fill(0.0)
        t["player"][player] = 1.0
        game = node.game
        if node.phase == Phase.ROLL:
            cups: Sequence[Sequence[int]] = node.partial_cups()
        elif game is not None:
            cups = game.dice
        else:
            cups = [()] * self.spec.players
        if self.private == "single":
            for i, f in enumerate(own_cup(cups, player)):
                t["dice"][i, f - 1] = 1.0
        elif self.private == "all":
            for s, cup in enumerate(cups):
                for i, f in enumerate(cup):
                    t["dice"][s, i, f - 1] = 1.0
        if not self.public:
            return
        counts = node.roll_counts()
        for s, c in enumerate(counts):
            t["counts"][s, c] = 1.0
        if node.phase == Phase.OPENER:
            return
        if game is None:
            t["opener"][node.opener] = 1.0
            return
        t["palifico"][0] = float(game.palifico)
        for s in game.palifico_used:
            t["palifico_used"][s] = 1.0
        if "set_aside" in t:
            for s, cup in enumerate(game.set_aside):
                for f in cup:
                    t["set_aside"][s, f - 1] += 1.0
        rerolling = node.phase == Phase.ROLL and game.to_move is not None
        if node.phase != Phase.PLAY and not rerolling:
            t["over"][0] = float(node.phase >= Phase.OVER)
            if node.phase == Phase.ROLL and game.last_result is not None:
                nxt = game.last_result.next_player
                if nxt is not None:
                    t["opener"][nxt] = 1.0
            return
        assert game.first_player is not None
        t["opener"][game.first_player] = 1.0
        amap = self.spec.amap
        if self.recall:
            for b in game.bids:
                t["bids"][b.player, amap.bid_id(b.quantity, b.face)] = 1.0
        elif game.bids:
            b = game.bids[-1]
            t["standing_bid"][amap.bid_id(b.quantity, b.face)] = 1.0
            t["bidder"][b.player] = 1.0
        if not rerolling:
            t["to_act"][node.current_player()] = 1.0
        t["offer"][0] = float(bool(node.pending))

    def text(self, node: Node, player: int) -> str:
        """What ``player`` sees of ``node``, as text (perfect recall for info states)."""
        game = node.game
        head = f"p{player}"
        if node.phase == Phase.OPENER:
            return f"{head} | roll-off"
        if not self.public:
            if node.phase == Phase.ROLL:
                cups: Sequence[Sequence[int]] = node.partial_cups()
            elif game is not None:
                cups = game.dice
            else:  # pragma: no cover - the opener phase returned above
                cups = []
            if self.private == "single":
                return f"{head} dice {cup_text(own_cup(cups, player))}"
            if self.private == "all":
                return f"{head} " + " ".join(f"s{s}:{cup_text(c)}" for s, c in enumerate(cups))
            return head
        parts = [head]
        if game is None:
            parts.append(f"opener s{node.opener}")
        else:
            parts.append(f"counts {' '.join(map(str, game.dice_counts))}")
            if any(game.set_aside):
                aside = " ".join(f"s{s}:{cup_text(c)}" for s, c in enumerate(game.set_aside))
                parts.append(f"aside {aside}")
            if self.recall:
                parts.append(history_text(game, player, self.private, recall=True))
            elif game.to_move is not None:
                assert game.first_player is not None
                shown_bids = game.bids[-1:]
                parts.append(
                    round_text(
                        game.round,
                        game.first_player,
                        game.palifico,
                        game.dice,
                        shown_bids,
                        player,
                        self.private,
                    )
                )
            elif game.is_over:
                parts.append(f"winner s{game.winner}")
        if node.phase == Phase.ROLL:
            own = node.partial_cups()
            if self.private == "single":
                parts.append(f"rolling, dice {cup_text(own_cup(own, player))}")
            elif self.private == "all":
                parts.append(
                    "rolling " + " ".join(f"s{s}:{cup_text(c)}" for s, c in enumerate(own))
                )
            else:
                parts.append("rolling")
        elif node.phase == Phase.PLAY:
            offer = " (call or pass)" if node.pending else ""
            parts.append(f"s{node.current_player()} to act{offer}")
        elif node.phase == Phase.DRAW:
            parts.append("stopped at max_rounds")
        return " | ".join(parts)
