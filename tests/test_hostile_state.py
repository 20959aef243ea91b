"""A hostile game document or record gets a documented error of bounded length (issue 33,
items 6 and 7): deep nesting, huge numbers, megabyte keys, names and strings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from perudo_rules import Game, RecordError, load_variant, referee
from perudo_rules.base.safetext import shortened


def _nested(depth: int, make: Callable[[Any], Any]) -> Any:
    node: Any = []
    for _ in range(depth):
        node = make(node)
    return node


def _doc() -> dict[str, Any]:
    return Game.new(load_variant("italian"), 3, seed=1).to_json()


CASES: dict[str, Callable[[dict[str, Any]], None]] = {
    "a list nested 3,000 deep": lambda d: d["state"].update(bids=_nested(3000, lambda n: [n])),
    "an object nested 3,000 deep": lambda d: d["record"]["rounds"][0].update(
        x=_nested(3000, lambda n: {"a": n})
    ),
    "a 5,000-digit number": lambda d: d["state"].update(round=10**5000),
    "a 5 MB string": lambda d: d["state"].update(bids=["x" * 5_000_000]),
    "a 5 MB unknown key": lambda d: d.update({"k" * 5_000_000: 1}),
    "a 5 MB unknown key of the state": lambda d: d["state"].update({"k" * 5_000_000: 1}),
    "a 5 MB variant id": lambda d: d["record"].update(variant="v" * 5_000_000),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_from_json_refuses_hostile_documents_in_one_short_line(case: str) -> None:
    doc = _doc()
    CASES[case](doc)
    with pytest.raises(RecordError) as caught:
        Game.from_json(doc)
    text = str(caught.value)
    assert "\n" not in text and len(text) < 1200, (case, len(text))


def test_the_referee_refuses_a_megabyte_variant_name_in_one_short_line() -> None:
    record = _doc()["record"]
    record["variant"] = "v" * 5_000_000
    with pytest.raises(RecordError) as caught:
        referee(record)
    assert len(str(caught.value)) < 1200


def test_shortened_says_how_long_the_text_was() -> None:
    assert shortened("abc") == "abc" and shortened("") == "" and shortened("a\nb") == "a\\nb"
    cut = shortened("\x1b" * 10_000, 50)
    assert cut.endswith("(10,000 characters)") and "\x1b" not in cut and len(cut) < 120


@pytest.mark.parametrize("flag", [1, 0, "yes", None, 1.0])
def test_a_palifico_flag_that_is_not_a_bool_is_refused_never_stored(flag: object) -> None:
    """``Game.start(palifico=1)`` was stored as given, and the game's record then did not
    replay (issue 33, item 8)."""
    with pytest.raises(TypeError, match="palifico must be True or False"):
        Game.start(load_variant("italian"), [[1], [2, 3]], first_player=0, palifico=flag)  # type: ignore[arg-type]
    game = Game.start(load_variant("italian"), [[1], [2, 3]], first_player=0, palifico=True)
    assert Game.from_json(game.to_json()) == game
