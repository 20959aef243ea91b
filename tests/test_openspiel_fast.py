"""The OpenSpiel state's own Python methods (the fast path of an RL loop) give what
OpenSpiel's C++ base methods give on the same state: legal actions, chance test, rewards,
information-state and observation tensors, for every seat and none, in any order of asking
(the tensors are stepped from the last node asked, so the order matters to the code)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="open_spiel (module pyspiel) cannot be imported: pip install 'perudo-rules[openspiel]'",
)

from perudo_rules import load_variant  # noqa: E402
from perudo_rules.openspiel import load_game  # noqa: E402

# small games of every kind of rule the tensors show: Calza and out-of-turn offers,
# palifico, several rounds, re-rolls (bluff), one round (openspiel-liars-dice)
GAMES = {
    "italian-3x2": lambda: load_game(
        load_variant("italian", overrides={"dice.per_player": 2}), 3, max_rounds=8
    ),
    "spanish-2x2": lambda: load_game(load_variant("spanish", overrides={"dice.per_player": 2}), 2),
    "bluff-2x2": lambda: load_game(
        load_variant("bluff", overrides={"dice.per_player": 2}), 2, max_rounds=6
    ),
    "liars-dice-2x5": lambda: load_game("openspiel-liars-dice", 2),
    "spanish-4x1": lambda: load_game(load_variant("spanish", overrides={"dice.per_player": 1}), 4),
}
_LOADED: dict[str, Any] = {}


def _game(name: str) -> Any:
    if name not in _LOADED:
        _LOADED[name] = GAMES[name]()
    return _LOADED[name]


def _base(state: Any, method: str, *args: Any) -> Any:
    """OpenSpiel's C++ ``State`` method on ``state``, past the Python override; its error
    as a value, to compare with ours."""
    try:
        return getattr(pyspiel.State, method)(state, *args)
    except pyspiel.SpielError:
        return pyspiel.SpielError


def _ours(state: Any, method: str, *args: Any) -> Any:
    try:
        return getattr(state, method)(*args)
    except pyspiel.SpielError:
        return pyspiel.SpielError


def _fresh(state: Any, method: str, player: int | None) -> Any:
    """The tensor from a new observer of the game (nothing stepped: every entry written)."""
    seat = state.current_player() if player is None else player
    if not 0 <= seat < state.num_players():
        return pyspiel.SpielError
    recall = method == "information_state_tensor"
    observer = state.get_game().make_py_observer(
        pyspiel.IIGObservationType(perfect_recall=recall)
    )
    observer.set_from(state, seat)
    return [float(v) for v in observer.tensor]


def _agree(state: Any, rng: random.Random) -> None:
    n = state.num_players()
    terminal = state.is_terminal()
    assert state.rewards() == (state.returns() if terminal else [0.0] * n)
    # (OpenSpiel's base ``rewards`` calls the Python one: checked above, not against it)
    asks: list[tuple[str, tuple[Any, ...]]] = [("is_chance_node", ())]
    asks += [("legal_actions", ()), ("legal_actions", (-1,)), ("legal_actions", (n,))]
    for p in range(n):
        asks.append(("legal_actions", (p,)))
    if not state.is_chance_node() and not state.is_terminal():
        asks += [("information_state_tensor", ()), ("observation_tensor", ())]
    for p in (*range(n), n, -3):
        asks += [("information_state_tensor", (p,)), ("observation_tensor", (p,))]
    rng.shuffle(asks)  # any order: the tensors are stepped from the last node asked
    for method, args in asks:
        if state.is_chance_node() and method.endswith("tensor"):
            continue  # OpenSpiel's base method asks the chance node's tensor too: not ours
        ours = _ours(state, method, *args)
        assert ours == _base(state, method, *args), (method, args, str(state))
        if method.endswith("tensor"):
            assert ours == _fresh(state, method, *args or (None,)), (method, args, str(state))


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), seed=st.integers(0, 2**32 - 1))
def test_the_python_methods_give_what_the_base_methods_give(name: str, seed: int) -> None:
    rng = random.Random(seed)
    game = _game(name)
    # two games played side by side, their positions asked in turn (and sometimes not):
    # the observers' stepping must never carry one game's entries into the other's
    states = [game.new_initial_state(), game.new_initial_state()]
    for _ in range(400):
        live = [s for s in states if not s.is_terminal()]
        if not live:
            break
        state = rng.choice(live)
        if rng.random() < 0.7:
            _agree(state, rng)
        legal = state.legal_actions()  # at a chance node its outcomes, all equally likely
        state.apply_action(legal[rng.randrange(len(legal))])
        if rng.random() < 0.1:  # a clone, asked before its original steps on
            clone = state.clone()
            _agree(clone, rng)
    for state in states:
        _agree(state, rng)


def test_a_returned_tensor_is_the_callers_own() -> None:
    game = _game("liars-dice-2x5")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    mine = state.information_state_tensor(0)
    mine[:] = [9.0] * len(mine)  # the caller changes its list
    state.apply_action(state.legal_actions()[0])
    assert state.information_state_tensor(0) == pyspiel.State.information_state_tensor(state, 0)
    assert 9.0 not in state.information_state_tensor(0)
