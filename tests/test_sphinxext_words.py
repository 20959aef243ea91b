"""What the directives say in words, in every language: each expectation of a scenario
step (perudo_rules.sphinxext.expectations), a published perft position and a bid of the
ladder, with no key of a file and no English left in Italian or Spanish."""

from __future__ import annotations

import pytest

pytest.importorskip("sphinx")

from perudo_rules.base.actions import Bid
from perudo_rules.base.i18n import use_language
from perudo_rules.conform.scenarios import EXPECT_KEYS
from perudo_rules.sphinxext.conformance import perft_position
from perudo_rules.sphinxext.expectations import expectation_text
from perudo_rules.sphinxext.ladder import bid_words

#: A value of each expectation key (null where a key allows it: its other sentence).
VALUES = {
    "kind": ["dudo", "calza", "leave"],
    "count": [1, 3],
    "loser": [2, None],
    "gainer": [1, None],
    "revealed": [[1, 2, 0], []],
    "shown": [[[1, 5], [], [3]]],
    "next_player": [3, None],
    "next_palifico": [True, False],
    "dice_counts": [[3, 3, 0]],
    "palifico": [True, False],
    "palifico_player": [0, None],
    "to_move": [2, None],
    "winner": [0, None],
    "round": [2],
    "awaiting_roll": [True, False],
    "current_bid": ["3x4", None],
    "wilds_active": [True, False],
    "legal_bid_count": [1, 12],
    "set_aside": [[[5, 5], []], [[], []]],
    "dice": [[[2, 3], [6]]],
}


def test_every_expectation_key_has_a_sentence() -> None:
    assert set(EXPECT_KEYS) - {"legal", "illegal"} == set(VALUES)
    assert expectation_text("loser", 2) == "seat 2 loses"
    assert expectation_text("next_player", None) == "no round follows"
    assert expectation_text("legal_bid_count", 1) == "1 bid is legal"
    aside = expectation_text("set_aside", [[5, 5], []])
    assert aside == "dice set aside: seat 0: [5, 5]; seat 1: []"


@pytest.mark.parametrize("lang", ["it", "es"])
def test_expectations_never_show_a_key_of_the_file(lang: str) -> None:
    seat = {"it": "posto", "es": "asiento"}[lang]
    for key, values in VALUES.items():
        english = {expectation_text(key, v) for v in values}
        with use_language(lang):
            said = {expectation_text(key, v) for v in values}
        assert len(said) == len(values), key  # each value its own sentence
        for text in said:
            assert f"{key}:" not in text and text not in english, (key, text)
            assert "seat" not in text, text
    with use_language(lang):
        assert seat in expectation_text("to_move", 2)


@pytest.mark.parametrize(
    ("lang", "heads_up", "palifico"),
    [
        ("en", "2 seats, 1 die each, seat 0 opens",
         "3 seats, seat 0 opens its palifico round"),
        ("it", "2 posti, 1 dado ciascuno, apre il posto 0",
         "3 posti, il posto 0 apre il suo round Palifico"),
        ("es", "2 asientos, 1 dado cada uno, abre el asiento 0",
         "3 asientos, el asiento 0 abre su ronda Palifico"),
    ],
)  # fmt: skip
def test_a_perft_position_in_words(lang: str, heads_up: str, palifico: str) -> None:
    with use_language(lang):
        assert perft_position({"first_player": 0, "dice": [[2], [5]]}) == heads_up
        position = {"first_player": 0, "palifico": True, "dice": [[2], [3, 4], [5, 1]]}
        assert perft_position(position) == palifico


def test_a_ladder_bid_in_words() -> None:
    assert [bid_words(Bid(0, q, f), 1, "Aztec") for q, f in ((3, 4), (1, 6), (2, 1))] == [
        "3 fours",
        "1 six",
        "2 Aztecs",
    ]
    with use_language("it"):
        assert bid_words(Bid(0, 3, 4), 1, "Aztec") == "3 quattro"
        assert bid_words(Bid(0, 2, 1), 1, "Aztec") == "2 teste d'Azteco"
    with use_language("es"):
        assert bid_words(Bid(0, 3, 6), 1, "Paco") == "3 seises"
        assert bid_words(Bid(0, 2, 6), 6, "star") == "2 estrellas"
