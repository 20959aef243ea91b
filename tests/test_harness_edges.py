"""The protocol's edge cases, driven through every built-in harness in this process.

perudo_rules.conform.protocol writes them down: ``legal`` answers ``[]`` for a seat that is
out, for every seat while the next round's dice are awaited and once the game is over;
``act`` is refused with ``play.roll`` while the dice are awaited, with ``play.game_over``
once the game is over and with ``play.bid_range`` for a bid of zero dice or of a face off
the die; the outcome of the last round has ``next: null`` and the winner; ``roll`` starts
the round numbered one more than the round that ended. A harness whose peer library is
not installed is skipped.
"""

from __future__ import annotations

import importlib
from typing import Any

import jsonschema
import pytest

from perudo_rules import load_variant
from perudo_rules.conform.protocol import harness_schema
from perudo_rules.harness import Harness, edition_variant

#: Module, class, the edition it plays, and whether it plays more than one round and
#: starts with a seat out.
HARNESSES = [
    ("stepapi", "StepHarness", "italian", True, True),
    ("fastplay", "FastHarness", "italian", True, True),
    ("pettingzoo", "PettingZooHarness", "italian", True, True),
    ("openspiel", "OpenSpielHarness", "italian", True, False),
    ("pyspiel_liars_dice", "LiarsDiceHarness", "openspiel-liars-dice", False, False),
    ("textarena", "TextArenaHarness", "textarena-liars-dice", True, False),
]
IDS = [h[0] for h in HARNESSES]
REPLY = jsonschema.Draft202012Validator({**harness_schema(), "$ref": "#/$defs/reply"})


class Driver:
    """One harness, each reply checked against the schema."""

    def __init__(self, module: str, cls: str) -> None:
        try:
            mod = importlib.import_module(f"perudo_rules.harness.{module}")
        except ImportError as exc:
            pytest.skip(f"{module}: {exc}")
        self.harness: Harness = getattr(mod, cls)()

    def ask(self, **request: Any) -> dict[str, Any]:
        reply = self.harness.handle(request)
        REPLY.validate(reply)
        return reply

    def start(self, edition: dict[str, Any], dice: list[list[int]], first: int = 0) -> None:
        edition_variant(edition)  # a valid edition
        reply = self.ask(cmd="start", edition=edition, dice=dice, first_player=first,
                         round=1, palifico=False, palifico_used=[])  # fmt: skip
        assert reply == {"ok": True}, reply

    def legal(self, seat: int) -> list[str]:
        actions: list[str] = self.ask(cmd="legal", seat=seat)["actions"]
        return actions

    def end_round(self, opener: int, seats: int) -> dict[str, Any]:
        """The opener's lowest bid, then the first seat's Dudo: the round's outcome."""
        bid = next(a for a in self.legal(opener) if "x" in a)
        assert self.ask(cmd="act", action=bid) == {"ok": True}
        caller = next(s for s in range(seats) if f"{s}:dudo" in self.legal(s))
        reply = self.ask(cmd="act", action=f"{caller}:dudo")
        assert reply["ok"] is True and "outcome" in reply, reply
        return dict(reply["outcome"])


def _edition(vid: str, **changes: Any) -> dict[str, Any]:
    return dict(load_variant(vid).values(), **{k.replace("__", "."): v for k, v in
                                               changes.items()})  # fmt: skip


def _refusal(reply: dict[str, Any]) -> str:
    assert set(reply) == {"illegal"}, reply
    return str(reply["illegal"])


@pytest.mark.parametrize(("module", "cls", "vid", "rounds", "out"), HARNESSES, ids=IDS)
def test_the_game_over_edge_cases(module: str, cls: str, vid: str, rounds: bool,
                                  out: bool) -> None:  # fmt: skip
    """One die each: the first Dudo ends the game. Its outcome says no one opens next
    and who won; then every seat has no legal action and every act is play.game_over."""
    d = Driver(module, cls)
    d.start(_edition(vid, dice__per_player=1), [[2], [5]])
    result = d.end_round(0, 2)
    assert result["next"] is None and result["winner"] in (0, 1), result
    assert result["eliminated"] == [1 - result["winner"]]
    for seat in (0, 1):
        assert d.legal(seat) == []
        assert _refusal(d.ask(cmd="act", action=f"{seat}:1x2")) == "play.game_over"
        assert _refusal(d.ask(cmd="act", action=f"{seat}:dudo")) == "play.game_over"


@pytest.mark.parametrize(("module", "cls", "vid", "rounds", "out"), HARNESSES, ids=IDS)
def test_bids_out_of_range_are_refused_by_play_bid_range(
    module: str, cls: str, vid: str, rounds: bool, out: bool
) -> None:
    d = Driver(module, cls)
    edition = _edition(vid, dice__per_player=2)
    faces = edition["dice.faces"]
    d.start(edition, [[2, 3], [4, 5]])
    bad = ["0:1x0", f"0:1x{faces + 1}", "0:2x0"]
    if module != "textarena":  # TextArena takes a bid of zero dice (test_conform says so)
        bad.append("0:0x2")
    for action in bad:
        assert _refusal(d.ask(cmd="act", action=action)) == "play.bid_range", action
    assert d.ask(cmd="act", action="0:1x2") == {"ok": True}  # nothing changed


@pytest.mark.parametrize(("module", "cls", "vid", "rounds", "out"), HARNESSES, ids=IDS)
def test_awaiting_the_roll_a_seat_out_and_the_next_rounds_number(
    module: str, cls: str, vid: str, rounds: bool, out: bool
) -> None:
    """Three seats (one out, where the harness starts such a position): after a round
    ends and before its roll, no seat has a legal action and an act is play.roll; a seat
    that is out (from the start, or put out by the round) never has one; the rolled round
    is round 2, where a bid on the wild face is allowed (``bidding.wild_opening:
    not_in_first_round``)."""
    if not rounds:
        pytest.skip(f"{module} plays one round")
    wilds = {"bidding__wild_opening": "not_in_first_round", "palifico__enabled": False}
    if vid != "italian":
        wilds = {}
    per = 1 if module == "textarena" else 2
    edition = _edition(vid, dice__per_player=per, **wilds)
    seats = [[2] * per, [3] * per, [4] * per]
    if out:
        seats[2] = []
    first = 0
    d = Driver(module, cls)
    d.start(edition, seats, first)
    if out:
        assert d.legal(2) == []
    if wilds:
        assert not any(a.endswith("x1") for a in d.legal(first)), "round 1 has no wild bid"
    result = d.end_round(first, 3)
    assert result["winner"] is None and result["next"] is not None, result
    for seat in range(3):
        assert d.legal(seat) == [], seat
    assert _refusal(d.ask(cmd="act", action=f"{result['next']}:1x2")) == "play.roll"
    counts = [len(c) + delta for c, delta in zip(seats, result["delta"], strict=True)]
    assert d.ask(cmd="roll", dice=[[6] * n for n in counts]) == {"ok": True}
    for seat, n in enumerate(counts):
        if n == 0:
            assert d.legal(seat) == [], seat
    assert d.legal(result["next"]), "the next round's opener may bid"
    if wilds:  # round 2: a bid on the wild face is allowed now
        assert any(a.endswith("x1") for a in d.legal(result["next"]))
