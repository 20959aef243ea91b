"""One bound on a bid, the same in the engine, the notation and the documentation.

Without a quantity cap any quantity used to be legal, but the notation writes at most nine
digits, so a legal game could have a record that does not replay (issue 19). The bound is
:data:`perudo_rules.base.limits.MAX_BID_QUANTITY` (and :data:`~perudo_rules.base.limits.MAX_FACES`
for the face): the kernel refuses a larger bid [play.bid_range], the notation's patterns
are derived from it, the README, the file-format page and the core rule state it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from perudo_rules import Bid, Dudo, Game, IllegalAction, load_variant, referee, replay, to_record
from perudo_rules.base.actions import ACTION_PATTERN, format_action, parse_action
from perudo_rules.base.errors import ActionSyntaxError
from perudo_rules.base.limits import MAX_BID_QUANTITY, MAX_FACES
from perudo_rules.editions.knobs import knob_spec

ROOT = Path(__file__).resolve().parent.parent


def _uncapped() -> Game:
    v = load_variant("textarena-liars-dice")
    assert v["bidding.quantity_cap"] == "none"
    return Game.start(v, dice=[[1, 2, 3], [4, 5, 6]], first_player=0)


def test_the_largest_legal_bid_round_trips_through_the_record() -> None:
    g = _uncapped().apply(Bid(0, 3, 2))
    top = Bid(1, MAX_BID_QUANTITY, 3)
    assert g.violation(top) is None
    g = g.apply(top)
    for game in (g, g.apply(Dudo(0))):
        record = json.loads(json.dumps(to_record(game, full=True)))
        assert f"1:{MAX_BID_QUANTITY}x3" in record["rounds"][0]["actions"]
        assert replay(record) == game
        assert referee(record).valid


def test_one_above_the_bound_is_refused_naming_it() -> None:
    g = _uncapped()
    for q in (MAX_BID_QUANTITY + 1, 10**20, 10**5000):
        bad = g.violation(Bid(0, q, 3))
        assert bad is not None and bad.rule == "play.bid_range", bad
        assert bad.params == {"quantity": q, "most": MAX_BID_QUANTITY}
        assert f"{MAX_BID_QUANTITY:,}" in bad.message and len(bad.message) < 200
        with pytest.raises(IllegalAction) as e:
            g.apply(Bid(0, q, 3))
        assert e.value.rule == "play.bid_range"
    # the same with a standing bid, and as an opening bid of a capped edition
    g = g.apply(Bid(0, 10, 3))
    bad = g.violation(Bid(1, MAX_BID_QUANTITY + 1, 3))
    assert bad is not None and bad.rule == "play.bid_range"


def test_the_notation_writes_exactly_the_bids_in_the_bound() -> None:
    pattern = re.compile(ACTION_PATTERN)
    top = format_action(Bid(0, MAX_BID_QUANTITY, MAX_FACES))
    assert pattern.fullmatch(top)
    assert parse_action(top) == Bid(0, MAX_BID_QUANTITY, MAX_FACES)
    assert Bid.parse(f"{MAX_BID_QUANTITY}x6") == Bid(0, MAX_BID_QUANTITY, 6)
    over = format_action(Bid(0, MAX_BID_QUANTITY + 1, 6))
    assert not pattern.fullmatch(over)
    with pytest.raises(ActionSyntaxError):
        parse_action(over)
    with pytest.raises(ActionSyntaxError):
        Bid.parse(f"{MAX_BID_QUANTITY + 1}x6")
    assert not pattern.fullmatch(f"0:5x{10 ** len(str(MAX_FACES))}")
    assert knob_spec("dice.faces").schema["maximum"] == MAX_FACES


def test_the_bound_is_documented() -> None:
    bound = f"{MAX_BID_QUANTITY:,} dice"
    for doc in ("README.md", "docs/format.rst"):
        text = " ".join((ROOT / doc).read_text(encoding="utf-8").split())
        assert bound in text and f"face up to {MAX_FACES}" in text, doc
    core = " ".join((ROOT / "spec" / "core-rules.yaml").read_text(encoding="utf-8").split())
    assert f"at most {MAX_BID_QUANTITY:,}" in core
