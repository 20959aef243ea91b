"""An action id that is no id gets a clear error naming the range (issue 33, item 7).

``raw_env.step(10**5000)`` failed converting the id to text; OpenSpiel's ``apply_action``
took ``True`` for id 1, and a huge or negative id failed inside pybind11 or OpenSpiel's
C++ with an error about neither. Every adapter now checks an id with one function
(:func:`perudo_rules.base.limits.action_id`): a ``TypeError`` for what is not a whole
number (a bool, NumPy's too, a float, a string), a ``ValueError`` naming the range for a
whole number outside it, in one short line however many digits it has.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from perudo_rules.base.limits import action_id, whole_number  # noqa: E402

NOT_WHOLE: list[Any] = [True, False, np.bool_(True), 1.0, np.float64(3), np.array(2.0), "3", [1]]
OUT_OF_RANGE: list[Any] = [
    -1,
    np.int64(-5),
    10**5000,
    -(10**5000),
    2**63,
    np.uint64(2**64 - 1),
    np.array(10**18),
]


def _one_short_line(exc: BaseException) -> str:
    text = str(exc)
    assert "\n" not in text and len(text) < 160, text
    return text


@pytest.mark.parametrize("value", NOT_WHOLE, ids=repr)
def test_what_is_not_a_whole_number_is_a_type_error(value: Any) -> None:
    assert whole_number(value) is None
    with pytest.raises(TypeError, match="an action id must be an integer") as caught:
        action_id(value, 10)
    _one_short_line(caught.value)


def test_whole_numbers_of_python_and_numpy_are_ids() -> None:
    for value in (3, np.int8(3), np.uint64(3), np.array(3), np.intp(3)):
        assert action_id(value, 10) == 3 and type(action_id(value, 10)) is int


@pytest.mark.parametrize("value", OUT_OF_RANGE, ids=lambda v: type(v).__name__)
def test_a_whole_number_outside_the_range_names_the_range(value: Any) -> None:
    with pytest.raises(ValueError, match=r"^no action id .*\(ids run 0\.\.9\)$") as caught:
        action_id(value, 10)
    _one_short_line(caught.value)
    with pytest.raises(ValueError, match=r"^no chance outcome .*\(outcomes run 0\.\.5\)$"):
        action_id(value, 6, outcome=True)


def _aec_step() -> Callable[[Any], object]:
    pytest.importorskip("pettingzoo")
    from perudo_rules.pettingzoo import raw_env

    env = raw_env("italian", 3)
    env.reset(seed=1)
    return env.step


def _gym_step() -> Callable[[Any], object]:
    pytest.importorskip("gymnasium")
    from perudo_rules.pettingzoo import PerudoGymEnv

    env = PerudoGymEnv("italian", 3)
    env.reset(seed=1)
    return env.step


def _openspiel_apply(chance: bool) -> Callable[[Any], object]:
    pytest.importorskip("pyspiel")
    from perudo_rules import load_variant
    from perudo_rules.openspiel import load_game

    state = load_game(load_variant("italian"), 3).new_initial_state()
    while not chance and state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_chance_node() == chance
    apply: Callable[[Any], object] = state.apply_action
    return apply


ADAPTERS: dict[str, tuple[Callable[[], Callable[[Any], object]], str]] = {
    "PettingZoo raw_env.step": (_aec_step, "action id"),
    "Gymnasium env.step": (_gym_step, "action id"),
    "OpenSpiel apply_action": (lambda: _openspiel_apply(False), "action id"),
    "OpenSpiel apply_action, chance": (lambda: _openspiel_apply(True), "chance outcome"),
}


@pytest.mark.parametrize("adapter", ADAPTERS, ids=list(ADAPTERS))
@pytest.mark.parametrize("value", OUT_OF_RANGE, ids=lambda v: type(v).__name__)
def test_every_adapter_names_the_range_of_an_id_outside_it(adapter: str, value: Any) -> None:
    make, what = ADAPTERS[adapter]
    step = make()
    with pytest.raises(ValueError, match=rf"^no {what} .*run 0\.\.[0-9]+\)$") as caught:
        step(value)
    _one_short_line(caught.value)


@pytest.mark.parametrize("adapter", ADAPTERS, ids=list(ADAPTERS))
@pytest.mark.parametrize("value", NOT_WHOLE, ids=repr)
def test_every_adapter_refuses_an_id_that_is_not_a_whole_number(adapter: str, value: Any) -> None:
    make, what = ADAPTERS[adapter]
    step = make()
    with pytest.raises(TypeError, match=f"{what} must be an integer") as caught:
        step(value)
    _one_short_line(caught.value)
