"""Engines with one bug planted: the step API with one rule broken, for testing that the
conformance kit's report names the rule an engine breaks (tests/planted.py lists them).

``python tests/harnesses/planted.py [--edition ID] [--plant PLANT]``. Every engine claims
every knob value (``claim_all()``), so the kit tests it on every edition.

``--plant KNOB=JSON`` (``palifico.once_per_player=false``, ``calza.who="anyone"``)
    The engine plays the knob values the runner sends in ``start``, except that knob,
    which it plays with the value given: the rule broken is the knob path.
``--edition ID``
    The engine ignores the knob values the runner sends and always plays the bundled
    edition ``ID`` (with ``--plant KNOB=JSON`` too, that edition with the one knob
    changed): an undocumented engine, whose knob values the kit's ``--profile`` infers.
``--plant NAME``
    A bug that no knob value expresses, one per core rule the protocol observes
    (``spec/core-rules.yaml``). Each is the smallest change to the step API's answers;
    a changed outcome is only reported (the engine plays on from the runner's dice):

    ``zero-bid`` (``play.bid_range``)
        The opening bid may name zero dice: ``0xF`` is listed for every face and taken
        (the turn passes, no bid stands).
    ``face-range`` (``play.bid_range``)
        A face one above the die's faces is listed and taken, at each quantity the seat
        may bid on the highest face (it stands as that bid on the highest face).
    ``after-end`` (``play.game_over``)
        Once the game is over the winner is still offered the opening bids, and one is
        taken (nothing changes).
    ``exact-bidder-loses`` (``challenge.exact``)
        A Dudo against a bid that is exactly right settles as if the bid were one short:
        the bidder loses.
    ``count-no-wild`` (``play.count``)
        The true count of a Dudo or Calza leaves the wild dice out (bids still rank as
        with wilds).
    ``bid-out-of-turn`` (``play.turn``)
        A seat with dice that is not to move is offered, and may make, every bid the
        player to move may; play then passes to the seat after it.
    ``dead-seat`` (``play.seat``)
        A seat without dice is listed as able to call Dudo against a standing bid (the
        engine refuses the call when it is sent).
    ``dudo-first`` (``play.bid_needed``)
        Dudo is listed for the player to move before any bid (and refused when sent).
    ``no-elimination`` (``play.elimination``)
        An outcome's ``eliminated`` is always empty.
    ``next-dead`` (``play.next_seat``)
        When the seat due to open the next round (round.starter, calza.next_starts) has
        just lost its last die, it is named as the opener instead of the next seat.
    ``palifico-opener`` (``play.palifico_opener``)
        When the next round is a palifico round, the opener named is the next seat with
        dice after the palifico seat.
    ``calza-exact-nogain`` (``calza.gain_cap``: plays as gain_cap 1)
        An exact Calza gains nothing, even under calza.gain_cap.
    ``winner-early`` (``end.condition``)
        A round that puts a seat out and leaves two seats with dice ends the game: the
        seat with the most dice (the lower seat of a tie) is reported the winner.

Legal actions while a roll is awaited are empty, and once the game is over too (but in
``after-end``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from perudo_rules.base.actions import Bid, Calza, Dudo, format_action, parse_action
from perudo_rules.editions.knobs import KNOB_PATHS
from perudo_rules.editions.variantfile import load_variant
from perudo_rules.engine.game import Game
from perudo_rules.engine.kernel import count_matching, round_rules
from perudo_rules.engine.settlement import settle
from perudo_rules.harness import Cups, claim_all, edition_variant, outcome, serve
from perudo_rules.harness.stepapi import StepHarness

#: The named plants, each with the core rule it breaks.
NAMED: dict[str, str] = {
    "zero-bid": "play.bid_range",
    "face-range": "play.bid_range",
    "after-end": "play.game_over",
    "exact-bidder-loses": "challenge.exact",
    "count-no-wild": "play.count",
    "bid-out-of-turn": "play.turn",
    "dead-seat": "play.seat",
    "dudo-first": "play.bid_needed",
    "no-elimination": "play.elimination",
    "next-dead": "play.next_seat",
    "palifico-opener": "play.palifico_opener",
    "calza-exact-nogain": "calza.gain_cap",  # never a gain: the engine plays gain_cap 1
    "winner-early": "end.condition",
}


def parse_plant(text: str | None) -> tuple[str | None, tuple[str, Any] | None]:
    """``(name, None)``, ``(None, (path, value))`` or ``(None, None)``; ``ValueError`` for
    a plant that is neither a named one nor ``KNOB=JSON``."""
    if text is None:
        return None, None
    if "=" in text:
        path, _, raw = text.partition("=")
        if path not in KNOB_PATHS:
            raise ValueError(f"{path!r} is no knob path")
        return None, (path, json.loads(raw))
    if text not in NAMED:
        raise ValueError(f"{text!r} is no plant (one of {', '.join(NAMED)}, or KNOB=JSON)")
    return text, None


class Planted(StepHarness):
    """The step API with ``plant`` (a named bug) or ``knob`` (a path and the value played
    instead of the runner's) planted; with ``edition``, those knob values instead of the
    runner's."""

    def __init__(self, plant: str | None = None, knob: tuple[str, Any] | None = None,
                 edition: Mapping[str, Any] | None = None) -> None:  # fmt: skip
        super().__init__()
        self.plant = plant
        self.knob = knob
        self.edition = dict(edition) if edition is not None else None
        what = plant or (f"{knob[0]}={json.dumps(knob[1])}" if knob else "no plant")
        self.name = f"planted step API ({what})"

    def claims(self) -> list[dict[str, Any]]:
        return [claim_all()]

    def start(self, edition: Mapping[str, Any], dice: Cups, first_player: int, round: int,
              palifico: bool, palifico_used: Sequence[int]) -> dict[str, Any]:  # fmt: skip
        values = dict(self.edition if self.edition is not None else edition)
        if self.knob is not None:
            values[self.knob[0]] = self.knob[1]
        return super().start(values, dice, first_player, round, palifico, palifico_used)

    # --- legal actions ------------------------------------------------------------------

    def legal(self, seat: int) -> list[str]:
        game = self.game
        assert game is not None
        out = super().legal(seat)
        plant = self.plant
        if plant == "after-end":
            if game.winner == seat:
                out += [f"{seat}:1x{f}" for f in range(1, game.rules.dice_faces + 1)]
            return out
        to_move = game.to_move
        if to_move is None or game.awaiting_roll or not 0 <= seat < game.players:
            return out
        held = game.dice_counts[seat]
        if plant == "zero-bid" and seat == to_move and not game.bids:
            out += [f"{seat}:0x{f}" for f in range(1, game.rules.dice_faces + 1)]
        elif plant == "face-range" and seat == to_move:
            out += [f"{seat}:{q}x{game.rules.dice_faces + 1}" for q in self._top_face(seat)]
        elif plant == "bid-out-of-turn" and seat != to_move and held:
            out += [f"{seat}:{a.quantity}x{a.face}" for a in game.legal_actions(to_move)
                    if isinstance(a, Bid)]  # fmt: skip
        elif (plant == "dead-seat" and not held and game.bids) or (
            plant == "dudo-first" and seat == to_move and not game.bids
        ):
            out.append(format_action(Dudo(seat)))
        return out

    def _top_face(self, seat: int) -> list[int]:
        """The quantities ``seat`` may bid on the highest face now."""
        assert self.game is not None
        faces = self.game.rules.dice_faces
        return [a.quantity for a in self.game.legal_actions(seat)
                if isinstance(a, Bid) and a.face == faces]  # fmt: skip

    # --- actions ------------------------------------------------------------------------

    def act(self, action: str) -> dict[str, Any]:
        game = self.game
        assert game is not None
        a = parse_action(action)
        taken = self._take_planted(game, a)
        if taken is not None:
            return taken
        reply = super().act(action)
        out = reply.get("outcome")
        if out is not None and isinstance(a, (Dudo, Calza)):
            assert self.game is not None
            reply["outcome"] = self._planted_outcome(game, self.game, a, out)
        return reply

    def _take_planted(self, game: Game, a: Any) -> dict[str, Any] | None:
        """The reply to an action the reference refuses but this engine takes, or ``None``."""
        plant, to_move = self.plant, game.to_move
        if plant == "after-end":
            ok = game.winner is not None and a.player == game.winner and isinstance(a, Bid)
            return {"ok": True} if ok else None
        if not isinstance(a, Bid) or to_move is None or game.awaiting_roll:
            return None
        faces, seat, bids = game.rules.dice_faces, a.player, game.bids
        if plant == "zero-bid" and seat == to_move and not bids and a.quantity == 0:
            ok = 1 <= a.face <= faces
            if ok:  # the turn passes; no bid stands
                self.game = Game._after_bid(game, to_move=game.next_seat(seat), bids=bids)
        elif plant == "face-range" and seat == to_move and a.face == faces + 1:
            ok = a.quantity in self._top_face(seat)
            if ok:  # it stands as the same quantity of the highest face
                self.game = game.apply(Bid(seat, a.quantity, faces))
        elif plant == "bid-out-of-turn" and seat != to_move and 0 <= seat < game.players:
            ok = bool(game.dice_counts[seat]) and game.is_legal(Bid(to_move, a.quantity, a.face))
            if ok:  # the seat after the bidder is to move
                self.game = Game._after_bid(game, to_move=game.next_seat(seat), bids=(*bids, a))
        else:
            ok = False
        return {"ok": True} if ok else None
        return None

    def _planted_outcome(self, before: Game, after: Game, call: Dudo | Calza,
                         out: dict[str, Any]) -> dict[str, Any]:  # fmt: skip
        """The outcome this engine reports for ``call`` (``out`` is the reference's)."""
        plant = self.plant
        res = after.last_result
        assert res is not None and res.bid is not None and before.to_move is not None
        bid, dudo = res.bid, isinstance(call, Dudo)
        rr = before.round_rules
        if plant == "exact-bidder-loses" and dudo and res.count == bid.quantity:
            s = settle(rr, True, call.player, bid, res.count - 1, before.to_move)
            return outcome(before.dice_counts, s.counts, s.next_player, s.next_palifico, s.winner)
        if plant == "count-no-wild":
            count = count_matching(before.dice, bid.face, None)
            if count != res.count:
                s = settle(rr, dudo, call.player, bid, count, before.to_move)
                return outcome(before.dice_counts, s.counts, s.next_player, s.next_palifico,
                               s.winner)  # fmt: skip
        if plant == "calza-exact-nogain" and not dudo and res.gainer is not None:
            values = {**before.variant.values(), "calza.gain_cap": 1}  # no caller gains
            nogain = round_rules(edition_variant(values).rules, before.dice_counts,
                                 before.palifico, before.round, before.palifico_player,
                                 before.palifico_used)  # fmt: skip
            s = settle(nogain, False, call.player, bid, res.count, before.to_move)
            return outcome(before.dice_counts, s.counts, s.next_player, s.next_palifico, s.winner)
        out = dict(out)
        if plant == "no-elimination":
            out["eliminated"] = []
        elif plant == "next-dead" and out["next"] is not None and not out["palifico"]:
            due = _due_opener(before, call, res.loser)
            if due is not None and not after.dice_counts[due]:
                out["next"] = due
        elif plant == "palifico-opener" and out["palifico"]:
            out["next"] = after.next_seat(out["next"])
        elif plant == "winner-early" and out["winner"] is None and out["eliminated"]:
            counts = after.dice_counts
            if sum(1 for c in counts if c) == 2:
                out["winner"], out["next"] = counts.index(max(counts)), None
        return out


def _due_opener(before: Game, call: Dudo | Calza, loser: int | None) -> int | None:
    """The seat the rules name to open the next round before an eliminated one passes it
    on (``None`` where they name a seat with dice: the next after the caller)."""
    if isinstance(call, Dudo):  # the challenge's winner and the seat after the caller hold dice
        return loser if before.variant["round.starter"] == "loser" else None
    after_calza = before.variant["calza.next_starts"]
    if after_calza == "caller":
        return call.player
    if after_calza == "player_to_move":
        return before.to_move
    return call.player if loser == call.player else before.bids[-1].player


def main(argv: Sequence[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--edition", help="play this bundled edition, whatever the runner sends")
    p.add_argument("--plant", help="a named bug, or KNOB=JSON (that knob played with JSON)")
    args = p.parse_args(argv)
    try:
        plant, knob = parse_plant(args.plant)
    except ValueError as exc:
        p.error(str(exc))
    edition = load_variant(args.edition).values() if args.edition else None
    if edition is not None and knob is not None:  # refused at once, not at every start
        edition_variant({**edition, knob[0]: knob[1]})
    serve(Planted(plant, knob, edition))


if __name__ == "__main__":
    main(sys.argv[1:])
