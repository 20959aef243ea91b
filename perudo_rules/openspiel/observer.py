"""What a seat sees of a node: information-state and observation strings and tensors.

The information-state string is perfect recall: the seat's own dice of every round, every
public action, every lifted cup and who is to act. So is the information-state tensor: the
seat, its dice, the dice counts, the palifico state, the round's opener, every bid of the
current round by bidder and who is to act, then one block per finished round (``past``,
one row per round the game can play, :func:`~perudo_rules.openspiel.spec.round_cap`): its
opener, whether it was a palifico round, the seat's dice as dealt, its bids (which ids were
bid: the order is their rank, the bidders the seats in turn from the opener), the caller
and the call, the cups lifted and who lost or gained a die. The observation string and
tensor show the same public state but only the standing bid. (A re-roll of a finished
round, ``reroll.enabled``, no bundled edition's rule, is shown in the string, not in
``past``.) Everything shown is read from the engine
:class:`~perudo_rules.engine.game.Game` and its :class:`~perudo_rules.engine.game.RoundRecord`
history, and which dice a seat (``PrivateInfoType.SINGLE_PLAYER``) or nobody's
(``NONE``) view shows is :func:`perudo_rules.engine.views.sight`'s answer; the
all-players view (``ALL_PLAYERS``) and a state's own string show every die.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

from perudo_rules.base.actions import Action, Bid, Reroll
from perudo_rules.engine.game import Game
from perudo_rules.engine.rounds import RoundRecord
from perudo_rules.engine.views import sight
from perudo_rules.openspiel.nodes import Node, Phase
from perudo_rules.openspiel.spec import GameSpec, round_cap
from perudo_rules.openspiel.texts import cup_text, history_text, round_text

__all__ = ["Observer", "own_cup"]

_PLAY = Phase.PLAY

Places = list[float] | defaultdict[int, float]
"""A node's tensor entries for a seat: every entry (a small tensor), or the places that are
not zero (a large one)."""
# the largest tensor whose entries are kept whole
_DENSE_MAX = 1024


def own_cup(cups: Sequence[Sequence[int]], player: int) -> tuple[int, ...]:
    """The cup seat ``player`` holds now (of ``cups``, one per seat), as
    :func:`~perudo_rules.engine.views.sight` shows it to that seat."""
    return sight(player, cups).cups[player] or ()


class Observer:
    """One kind of view (``pyspiel.IIGObservationType``) of a game's nodes: the tensor
    layout (``tensor`` and its named pieces in ``dict``), :meth:`fill` and :meth:`text`;
    for a state, OpenSpiel's PyObserver protocol (``tensor``, ``dict``, :meth:`set_from`,
    :meth:`string_from`)."""

    def __init__(self, spec: GameSpec, iig_obs_type: Any, max_rounds: int) -> None:
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
        # the finished rounds, one row each: opener, palifico, dice (as the dice piece),
        # the ids bid, caller, call (Dudo, Calza), the cups lifted, loser, gainer
        dice_width = {"single": d * faces, "all": n * d * faces}.get(self.private, 0)
        # re-rolls (reroll.enabled): per turn (the bids before it), whether its seat
        # re-rolled, the faces it set aside (how many of each) and the dice rolled, if seen
        self.turn = 1 + faces + d * faces
        rerolls = (nb + 1) * self.turn if spec.variant.rules.reroll_enabled else 0
        if self.public and self.recall and rerolls:
            pieces += [("dealt", (dice_width,)), ("rerolls", (nb + 1, self.turn))]
        self.block = (n, 1, dice_width, nb, rerolls, n, 2, n * d * faces, n, n)
        # where each piece of a row starts in it
        self.row_at = tuple(sum(self.block[:k]) for k in range(len(self.block)))
        self.row_width = sum(self.block)
        if self.public and self.recall:
            pieces.append(("past", (round_cap(spec, max_rounds), self.row_width)))
        size = sum(int(np.prod(shape)) for _, shape in pieces)
        self.size = size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        # where each piece starts in ``tensor``: fill writes there, one entry at a time
        self.at: dict[str, int] = {}
        at = 0
        for name, shape in pieces:
            k = int(np.prod(shape))
            self.dict[name] = self.tensor[at : at + k].reshape(shape)
            self.at[name] = at
            at += k
        self.faces = faces
        # the places :meth:`_delta` writes (-1: not in this view), and the bid ranks
        self.bids_at = self.at.get("bids", -1)
        self.to_act_at = self.at.get("to_act", -1)
        self.offer_at = self.at.get("offer", -1)
        self.num_bids = nb
        self.rank_of = spec.amap.space.rank_of
        # the last cups asked about, and each seat's cup in them as sight() shows it to that
        # seat: every position of a round shares its game's cups, and each is observed
        self._held: tuple[object, dict[int, tuple[int, ...]]] = ((), {})
        # the finished rounds' rows of one game (the one whose first round is ``_game``):
        # by the identity of its record and the seat (-1 for the public places), the record
        # kept alive by the entry, so an id is never reused while it is here. One game's
        # only: records kept beyond their game would pile up for the garbage collector.
        self._rows: dict[tuple[int, int], tuple[RoundRecord, list[int]]] = {}
        self._game: RoundRecord | None = None
        # the entries (:meth:`_stepped`) of a game's first node, by seat; of the last node
        # asked, by seat
        self._start: dict[int, Places] = {}
        self._last: dict[int, tuple[Node, Places]] = {}
        # the entries every seat sees of the last node written anew (:meth:`_places`)
        self._shared: tuple[Node | None, Places] = (None, [])
        # a small tensor's entries are kept whole (a list: copied and handed out at once);
        # a large one's by the places that are not zero (a dict: its size is no cost)
        self.dense = size <= _DENSE_MAX

    def set_from(self, state: Any, player: int) -> None:
        """Fill ``tensor`` with what ``player`` sees of ``state`` (a
        :class:`~perudo_rules.openspiel.game.PerudoState`). OpenSpiel asks a tensor's shape
        by filling it for a new initial state and no player (``-1``): the shape is fixed,
        so nothing is filled then."""
        if player >= 0:
            self.fill(state.node, player)

    def string_from(self, state: Any, player: int) -> str:
        """What ``player`` sees of ``state``, as text (perfect recall for info states)."""
        return self.text(state.node, player)

    def own(self, cups: Sequence[Sequence[int]], player: int) -> tuple[int, ...]:
        """:func:`own_cup` of ``cups`` (a game's, never changed, or a roll's so far: a new
        list each time), kept while the same cups are asked about."""
        held = self._held
        if held[0] is not cups:
            held = self._held = (cups, {})
        mine = held[1].get(player)
        if mine is None:
            mine = held[1][player] = own_cup(cups, player)
        return mine

    def fill(self, node: Node, player: int) -> None:
        """Fill ``tensor`` with what ``player`` sees of ``node`` (each piece of ``dict`` is a
        view of it; the entries are written by their place in ``tensor``)."""
        places = self._stepped(node, player)
        x = self.tensor
        if isinstance(places, list):
            x[:] = places
        else:
            x.fill(0.0)
            if places:
                x[list(places)] = list(places.values())

    def values(self, node: Node, player: int) -> list[float]:
        """What ``player`` sees of ``node``, as a new list (what OpenSpiel's tensor methods
        return): the entries :meth:`fill` writes in ``tensor``, without a round trip
        through NumPy."""
        places = self._stepped(node, player)
        if isinstance(places, list):
            return places.copy()
        out = [0.0] * self.size
        for i, v in places.items():
            out[i] = v
        return out

    def _stepped(self, node: Node, player: int) -> Places:
        """``node``'s entries for ``player`` (read only: the caller copies): stepped from
        the last node asked where it is the parent and the move allows (:meth:`_delta`, the
        common step of an RL loop), a game's first node (shared: OpenSpiel asks it often)
        kept, else written anew (:meth:`_places`)."""
        parent = node.parent
        if parent is None:
            places = self._start.get(player)
            if places is None:
                places = self._start[player] = self._places(node, player)
        else:
            last = self._last.get(player)
            if last is not None and parent is last[0] and self._steppable(node, parent):
                places = last[1].copy()
                self._delta(places, node, parent)
            else:
                places = self._places(node, player)
        self._last[player] = (node, places)
        return places

    def _steppable(self, node: Node, parent: Node) -> bool:
        """Whether :meth:`_delta` turns the entries of ``node``'s parent into its own: a
        bid or a pass within a round without re-rolls, in a view with the public state."""
        game, was = node.game, parent.game
        if node.phase != _PLAY or parent.phase != _PLAY or game is None or was is None:
            return False
        if game is not was and (game.round != was.round or len(game.bids) != len(was.bids) + 1):
            return False
        return game.reroll is None and self.public

    def _delta(self, x: Places, node: Node, parent: Node) -> None:
        """Turn ``x``, the entries of ``node``'s parent (same seat), into ``node``'s, where
        :meth:`_steppable` (the common step of an RL loop): only the bids, who acts and the
        offer change."""
        game, was = node.game, parent.game
        assert game is not None and was is not None
        if game is not was:
            rank_of = self.rank_of
            b = game.bids[-1]
            if self.recall:
                x[self.bids_at + b.player * self.num_bids + rank_of[(b.quantity, b.face)]] = 1.0
            else:
                at = self.at
                if was.bids:
                    old = was.bids[-1]
                    x[at["standing_bid"] + rank_of[(old.quantity, old.face)]] = 0.0
                    x[at["bidder"] + old.player] = 0.0
                x[at["standing_bid"] + rank_of[(b.quantity, b.face)]] = 1.0
                x[at["bidder"] + b.player] = 1.0
        to_act = self.to_act_at
        x[to_act + parent.player] = 0.0
        x[to_act + node.player] = 1.0
        x[self.offer_at] = 1.0 if node.pending else 0.0

    def _places(self, node: Node, player: int) -> Places:
        """``node``'s entries for ``player``, written anew: the entries every seat sees
        (:meth:`_write_public`, once per node), then the seat's own (:meth:`_write_own`)."""
        if self.public:
            shared = self._shared
            if shared[0] is not node:
                x = self._blank()
                self._write_public(x, node)
                shared = self._shared = (node, x)
            places = shared[1].copy()
        else:
            places = self._blank()
        self._write_own(places, node, player)
        return places

    def _cups(self, node: Node) -> Sequence[Sequence[int]]:
        """The dice in the cups at ``node``: the round's, or those rolled so far."""
        if node.phase == Phase.ROLL:
            return node.partial_cups()
        game = node.game
        return game.dice if game is not None else ()  # none at the roll-off

    def _write_own(self, x: Places, node: Node, player: int) -> None:
        """Write into ``x`` what only ``player`` sees of ``node`` (the seat, its dice, its
        dice in each finished round and in re-rolls), by place."""
        at = self.at
        faces = self.faces
        x[at["player"] + player] = 1.0
        cups = self._cups(node)
        if self.private == "single" and any(cups):  # no die held, none to see
            start = at["dice"] - 1
            for i, f in enumerate(self.own(cups, player)):
                x[start + i * faces + f] = 1.0
        elif self.private == "all":
            start = at["dice"] - 1
            per = self.spec.seat_dice * faces
            for s, cup in enumerate(cups):
                for i, f in enumerate(cup):
                    x[start + s * per + i * faces + f] = 1.0
        game = node.game
        if not self.public or game is None:
            return
        history = self._finished(game)
        if history and "past" in at:
            start, row = at["past"], self.row_width
            for k, r in enumerate(history):
                base = start + k * row
                for j in self.own_row(r, player):
                    x[base + j] += 1.0
        rerolling = node.phase == Phase.ROLL and game.to_move is not None
        in_round = node.phase == Phase.PLAY or rerolling
        if "rerolls" in at and game.reroll is not None and in_round:
            for j in self.dice_places(at["dealt"], game.dealt, player):
                x[j] = 1.0
            rolled = game.reroll.rolled
            for j in self.reroll_places(at["rerolls"], game.dealt, game.actions, rolled, player):
                x[j] += 1.0

    def _blank(self) -> Places:
        """Entries that are all zero, as this view keeps them (:attr:`dense`)."""
        if self.dense:
            return [0.0] * self.size
        return defaultdict(float)

    def _write_public(self, x: Places, node: Node) -> None:
        """Write into ``x`` what every seat sees of ``node``, by place (empty to start)."""
        at = self.at
        faces = self.faces
        game = node.game
        start, width = at["counts"], self.spec.seat_dice + 1
        for s, c in enumerate(node.roll_counts()):
            x[start + s * width + c] = 1.0
        history = self._finished(game) if game is not None else ()
        if history and "past" in at:
            start, row = at["past"], self.row_width
            for k, r in enumerate(history):
                base = start + k * row
                for j in self.public_row(r):
                    x[base + j] += 1.0
        if node.phase == Phase.OPENER:
            return
        if game is None:
            x[at["opener"] + node.opener] = 1.0
            return
        x[at["palifico"]] = float(game.palifico)
        for s in game.palifico_used:
            x[at["palifico_used"] + s] = 1.0
        if "set_aside" in at:
            start = at["set_aside"] - 1
            for s, cup in enumerate(game.set_aside):
                for f in cup:
                    x[start + s * faces + f] += 1.0
        rerolling = node.phase == Phase.ROLL and game.to_move is not None
        if node.phase != Phase.PLAY and not rerolling:
            x[at["over"]] = float(node.phase >= Phase.OVER)
            if node.phase == Phase.ROLL and game.last_result is not None:
                nxt = game.last_result.next_player
                if nxt is not None:
                    x[at["opener"] + nxt] = 1.0
            return
        assert game.first_player is not None
        x[at["opener"] + game.first_player] = 1.0
        amap = self.spec.amap
        if self.recall:
            start, nb = at["bids"], amap.num_bids
            for b in game.bids:
                x[start + b.player * nb + amap.bid_id(b.quantity, b.face)] = 1.0
        elif game.bids:
            b = game.bids[-1]
            x[at["standing_bid"] + amap.bid_id(b.quantity, b.face)] = 1.0
            x[at["bidder"] + b.player] = 1.0
        if not rerolling:
            x[at["to_act"] + node.current_player()] = 1.0
        x[at["offer"]] = float(bool(node.pending))

    def dice_places(self, at: int, cups: Sequence[Sequence[int]], player: int) -> list[int]:
        """The places set by the cups a seat sees (its own, or all), from ``at``."""
        faces, d = self.faces, self.spec.seat_dice
        if self.private == "single":
            return [at + i * faces + f - 1 for i, f in enumerate(self.own(cups, player))]
        if self.private == "all":
            return [
                at + s * d * faces + i * faces + f - 1
                for s, cup in enumerate(cups)
                for i, f in enumerate(cup)
            ]
        return []

    def reroll_places(
        self,
        at: int,
        dealt: Sequence[Sequence[int]],
        actions: Sequence[Action],
        rolled: Sequence[tuple[int, ...]],
        player: int,
    ) -> list[int]:
        """The places set by a round's re-rolls, from ``at``: per turn (the bids made before
        it), its flag, the faces set aside (counted) and the dice it rolled where
        :func:`~perudo_rules.engine.views.sight` shows them to ``player``."""
        if not rolled and not any(type(a) is Reroll for a in actions):
            return []
        rerolls = [a for a in actions if type(a) is Reroll]
        seer = player if self.private == "single" else None
        seen = sight(seer, dealt, (), [a.player for a in rerolls], rolled).rolls
        faces, width = self.faces, self.turn
        out: list[int] = []
        bids = k = 0
        for a in actions:
            if type(a) is Bid:
                bids += 1
            elif type(a) is Reroll:
                base = at + bids * width
                out.append(base)
                for f in a.set_aside:
                    out.append(base + f)  # counted: the place is set once per die
                dice = seen[k] if k < len(seen) and self.private != "none" else None
                if self.private == "all":
                    dice = rolled[k] if k < len(rolled) else None
                for i, f in enumerate(dice or ()):
                    out.append(base + 1 + faces + i * faces + f - 1)
                k += 1
        return out

    def _finished(self, game: Game) -> tuple[RoundRecord, ...]:
        """``game``'s finished rounds; the rows kept (:meth:`own_row`,
        :meth:`public_row`) are this game's from now on."""
        history = game.history
        if history and history[0] is not self._game:
            self._rows.clear()
            self._game = history[0]
        return history

    def own_row(self, r: RoundRecord, player: int) -> list[int]:
        """The places set in a finished round's row of ``past`` by what only ``player``
        sees (kept): its dice, and the dice of re-rolls it saw. The rest of the row is
        :meth:`public_row`."""
        key = (id(r), player)
        hit = self._rows.get(key)
        if hit is not None and hit[0] is r:
            return hit[1]
        at = self.row_at
        out = self.dice_places(at[2], r.dice, player)
        if self.block[4]:  # re-rolls enabled
            out += self.reroll_places(at[4], r.dice, r.actions, r.rerolls, player)
        self._rows[key] = (r, out)
        return out

    def public_row(self, r: RoundRecord) -> list[int]:
        """The places of a finished round's row that are the same for every seat (kept):
        its opener, palifico, the ids bid, the caller and the call, the cups lifted, the
        loser and the gainer."""
        key = (id(r), -1)
        hit = self._rows.get(key)
        if hit is not None and hit[0] is r:
            return hit[1]
        faces, d = self.faces, self.spec.seat_dice
        amap = self.spec.amap
        at = self.row_at
        out = [at[0] + r.first_player]
        if r.palifico:
            out.append(at[1])
        out += [at[3] + amap.bid_id(a.quantity, a.face) for a in r.actions if type(a) is Bid]
        res = r.result
        if res.caller is not None:
            out.append(at[5] + res.caller)
        out.append(at[6] + (0 if res.kind == "dudo" else 1))
        width = d * faces
        for s, cup in zip(res.revealed, res.shown, strict=True):
            base = at[7] + s * width - 1
            out += [base + i * faces + f for i, f in enumerate(cup)]
        if res.loser is not None:
            out.append(at[8] + res.loser)
        if res.gainer is not None:
            out.append(at[9] + res.gainer)
        self._rows[key] = (r, out)
        return out

    def text(self, node: Node, player: int) -> str:
        """What ``player`` sees of ``node``, as text (perfect recall for info states)."""
        game = node.game
        head = f"p{player}"
        if node.phase == Phase.OPENER:
            return f"{head} | roll-off"
        if not self.public:
            cups = self._cups(node)
            if self.private == "single":
                return f"{head} dice {cup_text(self.own(cups, player))}"
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
                parts.append(f"rolling, dice {cup_text(self.own(own, player))}")
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
