"""A hostile game document or record gets a documented error of bounded length (issue 33,
items 6 and 7): deep nesting, huge numbers, megabyte keys, names and strings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from perudo_rules import Game, RecordError, load_variant, referee, replay, to_record
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


def _palifico_game() -> Game:
    """Italian, a palifico round in play: seat 0 opens it with one die, seat 1's palifico is
    spent; seat 0 has bid."""
    game = Game.start(
        load_variant("italian"),
        [[1], [2, 3], [4, 4]],
        first_player=0,
        palifico=True,
        palifico_used=[1],
    )
    return game.apply(game.legal_actions()[0])


LOOSE: dict[str, tuple[str, Callable[[Game], Any]]] = {
    # name: (the state key, the game's value with one JSON type changed)
    "dice_counts as floats": ("dice_counts", lambda g: [float(n) for n in g.dice_counts]),
    "dice_counts with a bool": ("dice_counts", lambda g: [True, *g.dice_counts[1:]]),
    "palifico_used as bools": ("palifico_used", lambda g: list(map(bool, sorted(g.palifico_used)))),
    "palifico_used as a float": ("palifico_used", lambda g: [float(s) for s in g.palifico_used]),
    "set_aside nested floats": ("set_aside", lambda g: [list(map(float, c)) for c in g.set_aside]),
    "round as a float": ("round", lambda g: float(g.round)),
    "to_move as a float": ("to_move", lambda g: float(g.to_move or 0)),
    "first_player as a bool": ("first_player", lambda g: bool(g.first_player)),
    "palifico as 1": ("palifico", lambda g: int(g.palifico)),
}


@pytest.mark.parametrize("name", LOOSE, ids=list(LOOSE))
def test_state_values_of_the_wrong_json_type_are_refused_at_their_key(name: str) -> None:
    """``dice_counts: [3.0, 1.0, 2.0]`` and ``palifico_used: [true]`` were accepted where
    ``round: 2.0`` was refused (issue 33, item 8): one strict comparison for every key."""
    key, loose = LOOSE[name]
    game = _palifico_game()
    if key == "set_aside":  # a re-roll: some dice set aside (reroll.enabled)
        bluff = Game.start(load_variant("bluff"), [[5, 2], [3, 4]], first_player=0)
        game = bluff.apply(bluff.legal_actions()[0])
        game = game.apply(next(a for a in game.legal_actions() if str(a).startswith("reroll")))
        game = game.roll(dice=[[], [6]])
    doc = game.to_json()
    assert Game.from_json(doc) == game
    doc["state"][key] = loose(game)
    assert doc["state"][key] == game.to_json()["state"][key]  # equal in Python, not in type
    with pytest.raises(RecordError, match="but the record gives") as caught:
        Game.from_json(doc)
    assert caught.value.key_path == f"state.{key}"


def test_a_numpy_bool_palifico_flag_is_refused_and_a_bool_replays() -> None:
    """``Game.start(palifico=numpy.bool_(True))``: a clear TypeError, never stored; the
    game started with ``bool(flag)`` round-trips and its record replays (issue 33, item 8)."""
    np = pytest.importorskip("numpy")
    variant = load_variant("italian")
    for flag in (np.bool_(True), np.bool_(False)):
        with pytest.raises(TypeError, match="palifico must be True or False"):
            Game.start(variant, [[1], [2, 3]], first_player=0, palifico=flag)
        game = Game.start(variant, [[1], [2, 3]], first_player=0, palifico=bool(flag))
        assert type(game.palifico) is bool
        assert Game.from_json(game.to_json()) == game
        assert replay(to_record(game, full=True)) == game
