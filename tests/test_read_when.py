"""The knob table's claims about when the engine reads a knob, checked against the engine.

``read_when`` and ``never_read`` (the engine never reads a knob unless a condition on other
knobs holds), ``alike`` (choices that decide alike unless a condition holds) and
``decides`` (a knob that decides only the setup, the calls or the bids) are what the
witness search proves "no difference in play" from. Each is tested here on random
variants: where the table says a knob is not read, every value of it plays the same
games; where it says a knob decides only calls, changing it changes nothing but which
calls are legal; and so on.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from perudo_rules import Game, Variant, VariantError
from perudo_rules.base.actions import Bid
from perudo_rules.editions.knobs import KNOBS, SEATS, KnobSpec, ReadWhen, knob_spec
from tests.strategies import (
    knob_values,
    load_values,
    make_consistent,
    starts,
    variant_values,
    variants,
)

SETTINGS = settings(
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much], deadline=None
)


def _values(v: Variant) -> dict[str, Any]:
    return {**v.values(), SEATS: v.rules.players_max}


def _changed(v: Variant, path: str, value: Any) -> Variant | None:
    """``v`` with one knob changed, or ``None`` when the loader refuses the combination."""
    try:
        return load_values({**v.values(), path: value})
    except VariantError:
        return None


def _state(g: Game) -> tuple[Any, ...]:
    return (g.dice_counts, g.to_move, g.palifico, g.winner, g.last_result, g.palifico_used)


def _twin_play(g: Game, h: Game, seed: int, same: str = "all", steps: int = 80) -> None:
    """Play ``g`` and ``h`` (one position under two variants) with the same random legal
    actions; ``same`` says what must agree at every step: ``"all"`` the legal actions,
    ``"bids"`` the legal bids, ``"calls"`` the legal calls; the resolution of every call
    both allow, and the rolls, always."""
    rng = random.Random(seed)
    for _ in range(steps):
        assert _state(g) == _state(h)
        if g.is_over:
            return
        if g.awaiting_roll:
            s = rng.randrange(1 << 30)
            g, h = g.roll(seed=s), h.roll(seed=s)
            continue
        la, lb = set(g.legal_actions()), set(h.legal_actions())
        bids_a, bids_b = (
            {x for x in la if isinstance(x, Bid)},
            {x for x in lb if isinstance(x, Bid)},
        )
        if same in ("all", "bids"):
            assert bids_a == bids_b
        if same in ("all", "calls"):
            assert la - bids_a == lb - bids_b
        both = la & lb
        calls = sorted(both - bids_a, key=repr)
        bids = sorted(both & bids_a, key=lambda b: (g.rank(b) or 0, b.face))
        if calls and (not bids or rng.random() < 0.35):
            x = calls[rng.randrange(len(calls))]
        elif bids:
            x = bids[rng.randrange(min(len(bids), 6))] if rng.random() < 0.8 else rng.choice(bids)
        else:
            return
        g, h = g.apply(x), h.apply(x)


def _same_position(g: Game, w: Variant) -> Game | None:
    try:
        return Game.start(
            w,
            g.dice,
            g.to_move if g.to_move is not None else 0,
            palifico=g.palifico,
            round=g.round,
            palifico_used=g.palifico_used - ({g.to_move} if g.palifico else set()),
        )
    except ValueError:
        return None


def _failing(cond: ReadWhen) -> list[Any]:
    """Values of the condition's knob for which it fails (for SEATS: a players.max)."""
    if cond.path == SEATS:
        return [2]
    spec = knob_spec(cond.path)
    choices = [c[0] for c in spec.choices] or [None, 1, 2, 3]
    return [x for x in choices if not cond.holds({cond.path: x})]


CONDITIONS = [(spec, cond) for spec in KNOBS for cond in spec.read_when] + [
    (spec, None) for spec in KNOBS if spec.never_read
]


@pytest.mark.parametrize(
    ("spec", "cond"),
    CONDITIONS,
    ids=[f"{s.path}-{c.path if c else 'never'}" for s, c in CONDITIONS],
)
@settings(SETTINGS, max_examples=max(8, settings.default.max_examples // 6))
@given(values=variant_values(), data=st.data())
def test_a_knob_the_table_says_is_not_read_changes_no_game(
    spec: KnobSpec, cond: ReadWhen | None, values: dict[str, Any], data: st.DataObject
) -> None:
    if cond is not None:  # an edition where the condition fails
        path = "players.max" if cond.path == SEATS else cond.path
        values[path] = data.draw(st.sampled_from(_failing(cond)))
        values = make_consistent(values)
        assume(not cond.holds({**values, SEATS: values["players.max"]}))
    v = _load_or_none(values)
    assume(v is not None)
    assert v is not None
    w = _changed(v, spec.path, data.draw(knob_values(spec)))
    assume(w is not None and w[spec.path] != v[spec.path])
    assert w is not None
    seed = data.draw(st.integers(0, 2**20))
    n = data.draw(st.integers(v.rules.players_min, min(v.rules.players_max, 5)))
    _twin_play(Game.new(v, n, seed=seed), Game.new(w, n, seed=seed), seed)
    g = data.draw(starts(st.just(v)))
    h = _same_position(g, w)
    if h is not None:  # dice.max_per_player bounds positions, and nothing else
        _twin_play(g, h, seed)


def _load_or_none(values: dict[str, Any]) -> Variant | None:
    try:
        return load_values(values)
    except VariantError:
        return None


def _alike_cases(v: Variant) -> list[tuple[str, tuple[Any, ...]]]:
    values = _values(v)
    return [
        (spec.path, group.values)
        for spec in KNOBS
        for group in spec.alike
        if group.covers(v[spec.path], v[spec.path])
        and not any(c.holds(values) for c in group.apart_when)
    ]


@SETTINGS
@given(st.data())
def test_alike_choices_play_the_same_games(data: st.DataObject) -> None:
    v = data.draw(variants())
    cases = _alike_cases(v)
    assume(cases)
    path, group = data.draw(st.sampled_from(cases))
    w = _changed(v, path, data.draw(st.sampled_from(group)))
    assume(w is not None)
    assert w is not None
    g = data.draw(starts(st.just(v)))
    h = _same_position(g, w)
    assume(h is not None)
    assert h is not None
    _twin_play(g, h, data.draw(st.integers(0, 2**20)))


@SETTINGS
@given(st.data())
def test_a_knob_decides_only_what_the_table_says(data: st.DataObject) -> None:
    spec = data.draw(st.sampled_from([k for k in KNOBS if k.decides]))
    v = data.draw(variants())
    w = _changed(v, spec.path, data.draw(knob_values(spec)))
    assume(w is not None and w[spec.path] != v[spec.path])
    assert w is not None
    g = data.draw(starts(st.just(v)))
    h = _same_position(g, w)
    assume(h is not None)
    assert h is not None
    # a setup knob changes no explicit position; a calls knob no bid; a bids knob no call
    same = {"setup": "all", "calls": "bids", "bids": "calls"}[spec.decides]
    _twin_play(g, h, data.draw(st.integers(0, 2**20)), same=same)


@pytest.mark.parametrize("spec", [k for k in KNOBS if k.read_when or k.alike], ids=str)
def test_conditions_name_knobs_and_say_what_follows(spec: KnobSpec) -> None:
    conds: list[ReadWhen] = [*spec.read_when, *(c for g in spec.alike for c in g.apart_when)]
    for cond in conds:
        assert cond.path == SEATS or knob_spec(cond.path).path != spec.path
        assert cond.otherwise and not cond.otherwise.endswith(".")


def test_every_condition_can_hold_and_fail() -> None:
    """A condition that always holds (or never) says nothing: each is met by one bundled
    edition or another, or by a value of its knob."""
    for spec in KNOBS:
        for cond in spec.read_when:
            if cond.path == SEATS:
                assert cond.holds({SEATS: 6}) and not cond.holds({SEATS: 2})
                continue
            choices = [c[0] for c in knob_spec(cond.path).choices] or [1, 2, 3, None]
            outcomes = {cond.holds({cond.path: x}) for x in choices}
            assert outcomes == {True, False}, (spec.path, cond.path)
