"""The rules kernel (:mod:`perudo_rules.engine.kernel`) and the typed ruleset it reads.

The engine-level tests (test_engine, test_properties, test_fastplay, the OpenSpiel
differential test) exercise the kernel through its callers; these check the kernel's own
contracts: the ruleset mirrors the knob table, the raise window and the verdicts agree,
and the per-round tables are values.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import random
import sys
import typing
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from strategies import boosted, positions

from perudo_rules import Bid, Calza, Dudo, load_variant
from perudo_rules.editions import ruleset
from perudo_rules.editions.knobs import KNOB_PATHS, knob_spec
from perudo_rules.editions.ruleset import Ruleset, field_name
from perudo_rules.engine.kernel import RoundRules, round_rules
from perudo_rules.engine.seats import next_seat
from perudo_rules.engine.settlement import most_dice_per_seat
from perudo_rules.engine.start import opening


def test_ruleset_has_one_field_per_knob_named_after_its_path() -> None:
    fields = [f.name for f in dataclasses.fields(Ruleset) if f.init]
    assert fields == [field_name(p) for p in KNOB_PATHS]


def test_ruleset_fields_are_generated_from_the_knob_table() -> None:
    tools = str(Path(__file__).resolve().parent.parent / "tools")
    if tools not in sys.path:
        sys.path.insert(0, tools)
    import generate

    written = generate.RULESET.read_text(encoding="utf-8")
    assert written == generate.ruleset_source(), (
        "the knob fields of perudo_rules/editions/ruleset.py are stale: python tools/generate.py"
    )


def _ruleset_as_written() -> type:
    """``Ruleset`` with its annotations: the compiled build's class has lost the ``Literal``
    types, so there the ``.py`` source beside the extension is loaded on its own."""
    if str(ruleset.__file__).endswith(".py"):
        return Ruleset
    spec = importlib.util.spec_from_file_location(
        "ruleset_source", Path(str(ruleset.__file__)).with_name("ruleset.py")
    )
    assert spec is not None and spec.loader is not None
    module = sys.modules["ruleset_source"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    cls: type = module.Ruleset
    return cls


def test_ruleset_literal_choices_are_the_knob_choices() -> None:
    hints = typing.get_type_hints(_ruleset_as_written())
    for path in KNOB_PATHS:
        spec = knob_spec(path)
        hint = hints[field_name(path)]
        parts = [hint] if typing.get_origin(hint) is typing.Literal else typing.get_args(hint)
        literals: set[object] = set()
        for arg in parts:
            if typing.get_origin(arg) is typing.Literal:
                literals |= set(typing.get_args(arg))
        if "enum" in spec.schema:
            assert literals == set(spec.schema["enum"]), path
        else:
            assert literals <= {"highest"}, path


def test_ruleset_values_round_trip_and_hash_by_value() -> None:
    italian = load_variant("italian")
    again = load_variant("italian")
    assert italian.rules is not again.rules
    assert italian.rules == again.rules and hash(italian.rules) == hash(again.rules)
    for path in KNOB_PATHS:
        assert italian.rules.value(path) == italian[path]
    other = load_variant("italian", overrides={"calza.enabled": False})
    assert other.rules != italian.rules


def test_next_seat_skips_out_seats_in_both_directions() -> None:
    counts = (2, 0, 3, 0, 1)
    assert next_seat(counts, 1, 0) == 2
    assert next_seat(counts, 1, 4) == 0
    assert next_seat(counts, -1, 0) == 4
    assert next_seat(counts, -1, 2) == 0


def test_opening_is_deterministic_per_seed() -> None:
    rules = load_variant("italian").rules
    assert opening(rules, 5, random.Random(9)) == opening(rules, 5, random.Random(9))
    first, cups = opening(rules, 5, random.Random(9))
    assert 0 <= first < 5 and [len(c) for c in cups] == [5] * 5


def test_most_dice_per_seat_follows_calza_gains() -> None:
    italian = load_variant("italian")
    assert most_dice_per_seat(italian.rules) == 5  # Calza gains stop at five dice
    more = load_variant("italian", overrides={"dice.max_per_player": 7, "calza.gain_cap": 7})
    assert most_dice_per_seat(more.rules) == 7
    no_calza = load_variant(
        "italian",
        overrides={"calza.enabled": False, "dice.max_per_player": 7, "calza.gain_cap": 7},
    )
    assert most_dice_per_seat(no_calza.rules) == 5


def test_round_rules_are_cached_by_value() -> None:
    rules = load_variant("spanish").rules
    a = round_rules(rules, (3, 2), False, 1, None, frozenset())
    b = round_rules(load_variant("spanish").rules, (3, 2), False, 1, None, frozenset())
    assert a is b
    assert round_rules(rules, (3, 2), False, 2, None, frozenset()) is not a


def _window_by_verdict(rr: RoundRules, to_move: int, cur: Bid | None) -> list[int]:
    table = rr.table
    return [
        r
        for r, (q, f) in enumerate(table.bids)
        if rr.bid_verdict(to_move, cur, Bid(to_move, q, f)) is None
    ]


@boosted()
@given(positions())
def test_raise_window_is_exactly_what_the_verdict_accepts(g: typing.Any) -> None:
    """The listed raises (raise_ranks) and the explained verdict (bid_verdict) are two
    views of one rule set; they must agree on every bid of the table."""
    if g.to_move is None:
        return
    rr = g.round_rules
    cur = g.bids[-1] if g.bids else None
    rank = -1 if cur is None else rr.table.rank(cur.quantity, cur.face)
    assert list(rr.raise_ranks(g.to_move, rank)) == _window_by_verdict(rr, g.to_move, cur)


@boosted()
@given(positions(), st.data())
def test_calls_are_exactly_what_the_verdict_accepts(g: typing.Any, data: st.DataObject) -> None:
    if g.to_move is None or not g.bids:
        return
    rr = g.round_rules
    bidder = g.bids[-1].player
    seats = [s for s, c in enumerate(g.dice_counts) if c]
    accepted = [
        call
        for kind in (Dudo, Calza)
        for s in seats
        if rr.call_verdict(g.to_move, bidder, (call := kind(s))) is None
    ]
    assert list(rr.calls(g.to_move, bidder)) == accepted
    assert rr.n_calls == len(accepted)


def test_a_bool_is_never_a_seat() -> None:
    """``True == 1``, but a bid or call by ``True`` is refused (``play.seat``), on the
    verdict's plain-round shortcut too: at the opening and over a standing bid."""
    for vid in ("openspiel-liars-dice", "italian", "spanish"):
        v = load_variant(vid)
        rr = round_rules(v.rules, (2, 2), False, 1, None, frozenset())
        for bids in ((), (Bid(0, 1, 2),)):
            assert rr.verdict(1, bids, Bid(1, 2, 3)) is None
            refusal = rr.verdict(1, bids, Bid(True, 2, 3))  # type: ignore[arg-type]
            assert refusal is not None and refusal.rule == "play.seat", (vid, bids)
