"""What a game server sends: a seat's view keeps one shape in every phase and conforms to
``spec/view.schema.json``; a refusal to ``spec/refusal.schema.json``; a stored state to
``spec/game.schema.json`` through the one-call ``validate_state``. Broken documents fail."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given
from hypothesis import strategies as st
from strategies import candidates, new_games, positions

from perudo_rules import Game, IllegalAction, load_variant
from perudo_rules.base.actions import Leave
from perudo_rules.editions.variantfile import available_variants
from perudo_rules.records.gamejson import validate_state
from perudo_rules.records.viewjson import (
    refusal_schema,
    refusal_schema_json,
    validate_refusal,
    validate_view,
    view_schema,
    view_schema_json,
)

ROOT = Path(__file__).resolve().parent.parent
SEEDS = st.integers(0, 2**32 - 1)
#: The editions whose game is one round: never awaiting a roll.
ONE_ROUND = {"openspiel-liars-dice", "textarena-liars-dice"}
_KINDS = {bool: "boolean", int: "integer", str: "string", list: "array", dict: "object"}


def kind(value: Any) -> str:
    """The JSON type of ``value``."""
    return "null" if value is None else _KINDS[type(value)]


def phases(game: Game, seed: int, max_steps: int = 300) -> list[Game]:
    """``game`` and every position of a seeded random play of it to the end (bids, calls,
    re-rolls, a seat's leave now and then, every roll), so every phase is passed."""
    rng = random.Random(seed)
    out = [game]
    for _ in range(max_steps):
        if game.is_over:
            break
        if game.awaiting_roll:
            game = game.roll(rng=rng)
        elif rng.random() < 0.03:
            game = game.apply(Leave(rng.choice([s for s, n in enumerate(game.dice_counts) if n])))
        else:
            acts = game.legal_actions()
            game = game.apply(acts[rng.randrange(len(acts))] if len(acts) else Leave(0))
        out.append(game)
    return out


def allowed(schema: dict[str, Any]) -> set[str]:
    """The JSON types a property's schema allows."""
    types = schema.get("type", "string" if "enum" in schema else "object")
    return {types} if isinstance(types, str) else set(types)


def check_shapes(views: list[dict[str, Any]]) -> None:
    """Every view has the schema's keys, each with one JSON type (and ``null`` only where
    the schema allows it), and conforms to the schema; so does each past round."""
    schema = view_schema()
    props = schema["properties"]
    past_props = schema["$defs"]["past_round"]["properties"]
    seen: dict[str, set[str]] = {}
    for view in views:
        validate_view(view)
        assert list(view) == list(props)
        for key, value in view.items():
            seen.setdefault(key, set()).add(kind(value))
        for past in view["past_rounds"]:
            assert list(past) == list(past_props)
            for key, value in past.items():
                seen.setdefault(f"past.{key}", set()).add(kind(value))
        assert len(view["set_aside"]) == len(view["dice_counts"])  # one list per seat
    for key, kinds in seen.items():
        prop = past_props[key[5:]] if key.startswith("past.") else props[key]
        assert len(kinds - {"null"}) <= 1, (key, kinds)
        assert kinds <= allowed(prop), (key, kinds)


@pytest.mark.parametrize("edition", available_variants())
def test_view_shape_is_constant_in_every_edition(edition: str) -> None:
    """Every bundled edition, seeded games played out: in play, awaiting a roll (where
    the edition plays more than one round), over."""
    variant = load_variant(edition)
    views = []
    awaiting = over = in_play = 0
    for seed in range(3):
        players = max(variant.rules.players_min, min(3, variant.rules.players_max))
        for g in phases(Game.new(variant, players, seed=seed), seed):
            awaiting += g.awaiting_roll
            over += g.is_over
            in_play += g.to_move is not None
            views.extend(g.observation(s).to_json() for s in range(g.players))
    assert over and in_play
    assert awaiting or edition in ONE_ROUND
    check_shapes(views)


@given(st.one_of(new_games(), positions()), SEEDS)
def test_view_shape_is_constant_in_random_games(game: Game, seed: int) -> None:
    """Random variants (every knob drawn): the same keys and types in every phase."""
    views = []
    for g in phases(game, seed, max_steps=120)[::5]:
        views.extend(g.observation(s).to_json() for s in range(g.players))
    check_shapes(views)


def test_set_aside_is_one_list_per_seat_in_every_phase() -> None:
    g = Game.new(load_variant("italian"), 3, seed=2)
    assert g.observation(0).to_json()["set_aside"] == [[], [], []]
    while not g.awaiting_roll:
        g = g.apply(g.legal_actions()[-1])
    assert g.observation(0).to_json()["set_aside"] == [[], [], []]


@given(positions(), SEEDS)
def test_refusals_and_states_validate(game: Game, seed: int) -> None:
    """Each refusal of a candidate action conforms to the refusal schema; each state to
    the game schema, through the one-call validator."""
    for g in phases(game, seed, max_steps=40)[::8]:
        validate_state(json.loads(json.dumps(g.to_json())))
        if g.to_move is None:
            continue
        for action in candidates(g)[:40]:
            try:
                g.apply(action)
            except IllegalAction as exc:
                validate_refusal(json.loads(json.dumps(exc.refusal.to_json())))


def test_broken_documents_fail() -> None:
    g = Game.new(load_variant("italian"), 3, seed=1)
    view = g.observation(0).to_json()
    for key, value in (("set_aside", [1]), ("to_move", "1"), ("extra", 1), ("dice", [0])):
        bad = copy.deepcopy(view)
        bad[key] = value
        with pytest.raises(jsonschema.ValidationError):
            validate_view(bad)
    missing = copy.deepcopy(view)
    del missing["winner"]
    with pytest.raises(jsonschema.ValidationError):
        validate_view(missing)
    try:
        g.apply(Leave(7))
    except IllegalAction as exc:
        refusal = exc.refusal.to_json()
    validate_refusal(refusal)
    for broken in ({**refusal, "params": {"seat": [1]}}, {k: refusal[k] for k in ("rule",)}):
        with pytest.raises(jsonschema.ValidationError):
            validate_refusal(broken)
    state = g.to_json()
    validate_state(state)
    for mutate in (
        lambda d: d["state"].update(to_move="0"),
        lambda d: d["record"].update(seats=1),
        lambda d: d["record"]["rounds"][0].update(actions=[3]),
    ):
        bad = copy.deepcopy(state)
        mutate(bad)
        with pytest.raises(jsonschema.ValidationError):
            validate_state(bad)


def test_schemas_are_self_contained_and_fresh() -> None:
    for name, schema, text in (
        ("view", view_schema(), view_schema_json()),
        ("refusal", refusal_schema(), refusal_schema_json()),
    ):
        path = ROOT / "spec" / f"{name}.schema.json"
        assert path.read_text(encoding="utf-8") == text, "stale: python tools/generate.py"
        refs = [v for v in _values(schema, "$ref")]
        assert all(ref.startswith("#") for ref in refs)  # no external $ref
        jsonschema.Draft202012Validator.check_schema(schema)


def _values(node: Any, key: str) -> list[Any]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == key] + [
            x for v in node.values() for x in _values(v, key)
        ]
    if isinstance(node, list):
        return [x for v in node for x in _values(v, key)]
    return []
