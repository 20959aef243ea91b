"""Both builds take and refuse the same inputs with the same exceptions (issue 33, item 11).

The compiled build (mypyc) checks the declared type of every compiled parameter and
attribute it reads: it once took ``Reroll(0, (True,))`` and ``Reroll(False, (5,))`` (and
wrote ``"0:reroll True"``, a record that did not replay), raised a bare ``TypeError`` for a
float or text in a re-roll, and refused the NumPy integers that the pure package takes
(``legal_actions(seat=np.int64(1))``: what RL code gets from ``np.argmax``). Every test
here asserts what the pure package does; ``make test-compiled`` runs this file against
the compiled build too, so a divergence fails there.

A NumPy integer is played by :class:`Index` (a type Python reads as an index, not an
``int``) when NumPy is not installed, and by NumPy's own types when it is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from perudo_rules import (
    Bid,
    Calza,
    Dudo,
    Game,
    IllegalAction,
    Leave,
    Reroll,
    load_variant,
    replay,
    to_record,
)
from perudo_rules.base.errors import SeatError, SeatTypeError
from perudo_rules.engine.fastplay import random_games

try:
    import numpy as np
except ImportError:  # pragma: no cover - numpy comes with the pettingzoo extra
    np = None


class Index:
    """An integer of another type, as NumPy's are: ``operator.index`` reads it, it is no
    ``int`` (the stand-in for ``np.int64`` where NumPy is missing)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"Index({self.value})"


class Sub(int):
    """An ``int`` subclass: no ``int`` for an action's field (a record writes ``str``)."""

    def __str__(self) -> str:
        return f"Sub{int(self)}"


def integer_types() -> list[Callable[[int], object]]:
    """Every integer type a seat, a face, a count or an index may be given as."""
    kinds: list[Callable[[int], object]] = [Index]
    if np is not None:
        kinds += [np.int64, np.int32, np.int8, np.int16]
    return kinds


def not_integers(n: int) -> list[object]:
    """Values that are no integer though they may look like ``n``."""
    values: list[object] = [bool(n) if n in (0, 1) else True, float(n), str(n), None]
    if np is not None:
        values += [np.float64(n), np.bool_(bool(n))]
    return values


def refused_fields(n: int) -> list[object]:
    """What an action's field may not hold in place of ``n``: anything but an ``int``."""
    return [*not_integers(n), Sub(n), *(kind(n) for kind in integer_types())]


REROLLS = load_variant("bluff")  # an edition with re-rolls (reroll.enabled)
ITALIAN = load_variant("italian")


def reroll_game() -> Game:
    """Seat 0 to move, holding a 1 (``True == 1``) and a 5, in an edition with re-rolls."""
    return Game.start(REROLLS, [[1, 5, 2], [1, 2, 3]], first_player=0)


def bid_game() -> Game:
    """Italian, seat 1 to move after seat 0's 2x5: a bid, a dudo and a calza are legal."""
    game = Game.start(ITALIAN, [[5, 5, 2], [1, 2, 3], [4, 4, 6]], first_player=0)
    return game.apply(Bid(0, 2, 5))


def hostile_actions() -> list[tuple[str, Game, Any, str, str]]:
    """(label, game, action, rule, message id): a legal action with one field replaced by a
    value that is no ``int``, and the refusal the pure package gives it."""
    cases: list[tuple[str, Game, Any, str, str]] = []
    seat_rule = ("play.seat", "seat-without-dice")
    assert reroll_game().is_legal(Reroll(0, (1,))) and reroll_game().is_legal(Reroll(0, (5,)))
    for value in refused_fields(0):
        cases.append((f"Reroll({value!r}, (5,))", reroll_game(), Reroll(value, (5,)), *seat_rule))  # type: ignore[arg-type]
    for value in refused_fields(1):
        faces = ("play.reroll", "reroll-not-faces")
        cases.append((f"Reroll(0, ({value!r},))", reroll_game(), Reroll(0, (value,)), *faces))  # type: ignore[arg-type]
    for value in refused_fields(5):
        faces = ("play.reroll", "reroll-not-faces")
        cases.append((f"Reroll(0, {value!r})", reroll_game(), Reroll(0, value), *faces))  # type: ignore[arg-type]
    assert bid_game().is_legal(Bid(1, 3, 5)) and bid_game().is_legal(Dudo(1))
    for value in refused_fields(1):
        game = bid_game()
        cases.append((f"Bid({value!r}, 3, 5)", game, Bid(value, 3, 5), *seat_rule))  # type: ignore[arg-type]
        for kind in (Dudo, Calza, Leave):
            cases.append((f"{kind.__name__}({value!r})", game, kind(value), *seat_rule))  # type: ignore[arg-type]
    between = bid_game().apply(Dudo(1))  # awaiting the roll: only a seat's leave
    assert between.awaiting_roll and between.is_legal(Leave(1))
    for value in refused_fields(1):
        cases.append((f"between rounds: Leave({value!r})", between, Leave(value), *seat_rule))  # type: ignore[arg-type]
    for value in refused_fields(3):
        rng = ("play.bid_range", "not-a-bid")
        cases.append((f"Bid(1, {value!r}, 5)", bid_game(), Bid(1, value, 5), *rng))  # type: ignore[arg-type]
    for value in refused_fields(5):
        rng = ("play.bid_range", "not-a-bid")
        cases.append((f"Bid(1, 3, {value!r})", bid_game(), Bid(1, 3, value), *rng))  # type: ignore[arg-type]
    return cases


HOSTILE = hostile_actions()


@pytest.mark.parametrize(
    ("label", "game", "action", "rule", "message_id"), HOSTILE, ids=[c[0] for c in HOSTILE]
)
def test_an_action_field_that_is_no_int_is_refused_by_its_rule(
    label: str, game: Game, action: Any, rule: str, message_id: str
) -> None:
    """``apply``, ``is_legal``, ``in legal_actions()`` and ``decision`` agree: refused,
    under the rule the pure package names (never taken as the int it equals, never a bare
    ``TypeError``)."""
    with pytest.raises(IllegalAction) as caught:
        game.apply(action)
    assert (caught.value.rule, caught.value.refusal.message_id) == (rule, message_id), label
    assert "\n" not in str(caught.value)
    assert not game.is_legal(action)
    assert action not in game.legal_actions()
    assert not game.decision(action).legal


def test_a_reroll_record_replays_and_a_bool_face_never_reaches_one() -> None:
    """The issue's record ``"0:reroll True"`` did not replay: the re-roll is refused, and
    the legal one it stood for is written with its faces and replays."""
    game = reroll_game()
    with pytest.raises(IllegalAction, match="not True"):
        game.apply(Reroll(0, (True,)))
    with pytest.raises(IllegalAction, match="seat False"):
        game.apply(Reroll(False, (5,)))
    played = game.apply(Reroll(0, (1,))).roll(seed=3)
    record = to_record(played, full=True)
    assert "0:reroll 1" in json.dumps(record)
    again = replay(json.loads(json.dumps(record)))
    assert to_record(again, full=True) == record


@pytest.mark.parametrize("kind", integer_types())
def test_seat_arguments_take_any_integer_type(kind: Callable[[int], object]) -> None:
    game = bid_game()
    seat = kind(1)
    assert list(game.legal_actions(seat=seat)) == list(game.legal_actions(seat=1))
    assert len(game.legal_actions(seat=seat)) > 0
    assert game.observation(seat) == game.observation(1)
    assert game.next_seat(seat) == game.next_seat(1) == 2


@pytest.mark.parametrize("face", [0, 7, -1, 10**60])
def test_a_face_the_dice_do_not_have_is_refused_not_counted(face: int) -> None:
    """No die shows face 7 of a d6: counting it must not answer with the wild dice alone
    (the one Aztec of ``bid_game``), in either build, in one line, in the reader's language."""
    from perudo_rules.base.i18n import use_language

    game = bid_game()
    assert game.count(1) == 1 and game.count(6) == 2  # the wild die counts for every face
    with pytest.raises(ValueError, match=r"^face=.* is not a face of a d6$") as caught:
        game.count(face)
    assert "\n" not in str(caught.value) and len(str(caught.value)) < 120
    with use_language("it"), pytest.raises(ValueError, match="non è una faccia di un dado a 6"):
        game.count(face)


@pytest.mark.parametrize("kind", integer_types())
def test_faces_bids_and_indices_take_any_integer_type(kind: Callable[[int], object]) -> None:
    game = bid_game()
    assert game.count(kind(5)) == game.count(5) == 3
    assert game.rank(Bid(1, kind(3), kind(5))) == game.rank(Bid(1, 3, 5)) is not None  # type: ignore[arg-type]
    legal = game.legal_actions()
    assert legal[kind(2)] == legal[2] and legal[kind(-1)] == legal[-1]  # type: ignore[index]
    assert legal.bid_ranks[kind(1)] == legal.bid_ranks[1]  # type: ignore[index]
    with pytest.raises(IndexError):
        legal[kind(len(legal))]  # type: ignore[index]


@pytest.mark.parametrize("value", not_integers(1), ids=repr)
def test_seat_arguments_refuse_what_is_no_integer(value: object) -> None:
    game = bid_game()
    calls: list[Callable[[], object]] = [
        lambda: game.legal_actions(seat=value),
        lambda: game.observation(value),
        lambda: game.next_seat(value),
    ]
    for call in calls:
        if value is None and call is not calls[2]:
            call()  # None is every seat's view (legal_actions) or a spectator's (observation)
            continue
        with pytest.raises(SeatTypeError, match=r"is not a seat: a seat is an integer from 0 to 2"):
            call()


@pytest.mark.parametrize("seat", [3, -1, 10**30])
def test_seat_arguments_out_of_range_are_a_value_error(seat: int) -> None:
    game = bid_game()
    for value in [seat, *(kind(seat) for kind in integer_types() if kind is Index)]:
        for call in (game.legal_actions, game.observation, game.next_seat):
            with pytest.raises(SeatError, match="the seats are 0 to 2") as caught:
                call(value)
            assert isinstance(caught.value, ValueError)
            assert not isinstance(caught.value, TypeError)


@pytest.mark.parametrize("value", not_integers(5), ids=repr)
def test_faces_bids_and_indices_refuse_what_is_no_integer(value: object) -> None:
    game = bid_game()
    legal = game.legal_actions()
    calls: dict[str, Callable[[], object]] = {
        "face": lambda: game.count(value),
        "quantity": lambda: game.rank(Bid(1, value, 5)),  # type: ignore[arg-type]
        "index": lambda: legal[value],  # type: ignore[index]
    }
    for name, call in calls.items():
        with pytest.raises(TypeError, match=rf"^{name}=.* is not an integer$"):
            call()
    with pytest.raises(TypeError, match="is not a bid"):
        game.rank(Dudo(1))


@pytest.mark.parametrize("kind", integer_types())
def test_random_games_and_new_games_take_integer_counts(kind: Callable[[int], object]) -> None:
    totals = random_games(ITALIAN, kind(3), kind(4), seed=7)
    assert totals == random_games(ITALIAN, 3, 4, seed=7)
    assert type(totals.games) is int and totals.games == 4 and sum(totals.wins) == 4
    assert Game.new(ITALIAN, kind(3), seed=2) == Game.new(ITALIAN, 3, seed=2)
    start = Game.start(ITALIAN, [[1], [2, 3]], first_player=kind(1), round=kind(2))
    assert start == Game.start(ITALIAN, [[1], [2, 3]], first_player=1, round=2)


@pytest.mark.parametrize("value", not_integers(2), ids=repr)
def test_random_games_refuses_counts_that_are_no_integer(value: object) -> None:
    with pytest.raises(TypeError, match=r"^games=.* is not an integer$"):
        random_games(ITALIAN, 3, value)
    with pytest.raises(ValueError, match="is not a whole number of seats"):
        random_games(ITALIAN, value, 2)
    with pytest.raises(ValueError, match="is not a whole number of seats"):
        Game.new(ITALIAN, value)


def test_random_games_refuses_counts_out_of_range() -> None:
    for games in [-1, *(kind(-1) for kind in integer_types())]:
        with pytest.raises(ValueError, match="at least 0"):
            random_games(ITALIAN, 3, games)
    with pytest.raises(ValueError, match="italian plays with 2 to 6"):
        random_games(ITALIAN, Index(7), 1)


FLAGS: list[object] = [1, 0, "yes", None, *([np.bool_(True)] if np is not None else [])]


@pytest.mark.parametrize("flag", FLAGS, ids=repr)
def test_a_palifico_flag_is_a_bool_in_both_builds(flag: object) -> None:
    with pytest.raises(TypeError, match=r"^palifico must be True or False, not "):
        Game.start(ITALIAN, [[1], [2, 3]], first_player=0, palifico=flag)


@pytest.mark.parametrize("kind", integer_types(), ids=lambda k: getattr(k, "__name__", repr(k)))
def test_a_seed_of_any_integer_type_is_the_int_it_is(kind: Callable[[int], object]) -> None:
    """RL code draws its seeds with NumPy: ``np.int64(5)`` seeds what ``5`` seeds, in
    ``Game.new``, ``Game.roll`` and ``random_games``, on both builds."""
    assert Game.new(ITALIAN, 3, seed=kind(5)) == Game.new(ITALIAN, 3, seed=5)
    between = Game.start(ITALIAN, [[1, 2], [3, 4]], first_player=0).apply(Bid(0, 1, 3))
    called = between.apply(Dudo(1))  # between rounds: the next roll is seeded
    assert called.roll(seed=kind(9)) == called.roll(seed=9)
    assert random_games(ITALIAN, 3, 4, seed=kind(7)) == random_games(ITALIAN, 3, 4, seed=7)


@pytest.mark.parametrize(
    "seed", [[1], {"a": 1}, object(), 2j], ids=["list", "dict", "object", "complex"]
)
def test_a_seed_random_cannot_take_is_one_type_error_in_both_builds(seed: object) -> None:
    message = r"^seed=.* is no seed: give an integer, a float, a text or bytes$"
    with pytest.raises(TypeError, match=message):
        Game.new(ITALIAN, 3, seed=seed)
    called = Game.start(ITALIAN, [[1, 2], [3, 4]], first_player=0).apply(Bid(0, 1, 3))
    with pytest.raises(TypeError, match=message):
        called.apply(Dudo(1)).roll(seed=seed)
    with pytest.raises(TypeError, match=message):
        random_games(ITALIAN, 3, 2, seed=seed)


def openspiel_decision() -> Any:
    """An OpenSpiel state of ``openspiel-liars-dice`` at seat 0's first decision (the
    adapter's nodes and observers are compiled in the compiled build)."""
    pytest.importorskip("pyspiel")
    from perudo_rules import openspiel

    state = openspiel.load_game(load_variant("openspiel-liars-dice"), 2).new_initial_state()
    while state.is_chance_node():
        state.apply_action(1)
    assert state.current_player() == 0
    return state


@pytest.mark.parametrize("kind", integer_types())
def test_openspiel_player_arguments_take_any_integer_type(kind: Callable[[int], object]) -> None:
    state = openspiel_decision()
    for seat in (0, 1):
        player = kind(seat)
        assert state.information_state_tensor(player) == state.information_state_tensor(seat)
        assert state.observation_tensor(player) == state.observation_tensor(seat)
        assert state.legal_actions(player) == state.legal_actions(seat)
    assert state.legal_actions(kind(0)) and not state.legal_actions(kind(1))


@pytest.mark.parametrize("value", [v for v in not_integers(1) if v is not None], ids=repr)
def test_openspiel_player_arguments_refuse_what_is_no_integer(value: object) -> None:
    """(``None`` is the player to move, as in OpenSpiel.)"""
    state = openspiel_decision()
    for call in (state.information_state_tensor, state.observation_tensor, state.legal_actions):
        with pytest.raises(TypeError, match=r"^player=.* is not an integer$"):
            call(value)
