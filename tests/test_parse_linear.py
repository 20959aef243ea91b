"""Parsing takes linear time whatever runs of white space a client sends (issue 33, item
4): ``parse_action("reroll" + " " * 30000 + "!")`` took 13-15 s; the README's server
passes client text straight to it."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perudo_rules import Bid, Dudo, Reroll, parse_action, parse_bid
from perudo_rules.base.errors import ActionSyntaxError

RUN = 200_000  # quadratic parsing of this run took minutes; linear, milliseconds

SHAPES = [
    "reroll{ws}!", "3{ws}x4!", "{ws}3x4!", "1:{ws}x", "dudo{ws}!", "0:reroll{ws}5,{ws}!",
    "bid{ws}3{ws}x{ws}4{ws}!", "0{ws}:{ws}calza{ws}?",
]  # fmt: skip


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("space", [" ", "\t", " \n"])
def test_a_long_run_of_white_space_is_refused_at_once(shape: str, space: str) -> None:
    text = shape.format(ws=space * (RUN // len(space)))
    started = time.process_time()
    for parse in (lambda t: parse_action(t, player=0), parse_bid):
        with pytest.raises(ActionSyntaxError):
            parse(text)
    assert time.process_time() - started < 5  # CPU time: a busy machine does not count


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from([" ", "  ", "\t", "\n "]), min_size=5, max_size=5))
def test_white_space_anywhere_reads_as_one_space(gaps: list[str]) -> None:
    a, b, c, d, e = gaps
    assert parse_action(f"{a}2{b}:{c}5{d}x{e}4") == Bid(2, 5, 4)
    assert parse_action(f"{a}1{b}:{c}dudo{d}") == Dudo(1)
    assert parse_action(f"{a}reroll{b}5,{c}6{d}", player=0) == Reroll(0, (5, 6))
    assert parse_bid(f"{a}3{b}x{c}4{d}") == Bid(0, 3, 4)
