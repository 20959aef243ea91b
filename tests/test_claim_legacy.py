"""A new knob does not stop an old claim from covering the editions it covered.

A knob added after engines wrote their claims has a *legacy* value in the knob table (the
value that plays the game as before the knob existed); a claim that leaves it out claims
exactly that value (perudo_rules.conform.protocol)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from perudo_rules import load_variant
from perudo_rules.conform.protocol import (
    claim_covers,
    claim_leaves_out,
    claims_problem,
    harness_schema,
    legacy_values,
)
from perudo_rules.editions.knobs import KNOBS, knob_spec
from perudo_rules.editions.variantfile import available_variants
from perudo_rules.harness import claim_edition

LEGACY = legacy_values()


def _without(claim: dict[str, Any], *paths: str) -> dict[str, Any]:
    return {p: v for p, v in claim.items() if p not in paths}


def test_the_legacy_values_are_values_of_their_knobs() -> None:
    assert LEGACY, "the knob table names no legacy value"
    for path, value in LEGACY.items():
        spec = knob_spec(path)
        assert len(spec.legacy) == 1, path
        jsonschema.validate(value, spec.schema)
        if spec.choices:
            assert any(type(c) is type(value) and c == value for c, _ in spec.choices), path


def test_an_old_claim_without_a_new_knob_still_covers_its_edition() -> None:
    """The Italian edition's exact claim, written before the re-roll and the quantity limit
    existed: it still covers the Italian edition, and claims their old values only."""
    italian = load_variant("italian")
    assert italian["reroll.enabled"] is False and italian["bidding.quantity_limit"] is None
    old = _without(claim_edition(italian), "reroll.enabled", "bidding.quantity_limit")
    assert claims_problem([old]) is None
    assert claim_covers([old], italian.values())
    # an edition with another value of the left-out knob is not covered
    assert not claim_covers([old], dict(italian.values(), **{"reroll.enabled": True}))
    assert not claim_covers([old], dict(italian.values(), **{"bidding.quantity_limit": 20}))
    bluff = load_variant("bluff")
    assert bluff["reroll.enabled"] is True
    assert not claim_covers([old], dict(bluff.values(), **{p: old[p] for p in old}))


@pytest.mark.parametrize("path", sorted(LEGACY))
def test_each_legacy_knob_left_out_claims_exactly_its_legacy_value(path: str) -> None:
    for vid in available_variants():
        edition = load_variant(vid)
        old = _without(claim_edition(edition), path)
        assert claims_problem([old]) is None, (vid, path)
        if path in claim_leaves_out(old):  # no edition this claim covers reads it: any value
            continue
        same = edition[path] == LEGACY[path] and type(edition[path]) is type(LEGACY[path])
        assert claim_covers([old], edition.values()) == same, (vid, path)


def test_a_knob_without_a_legacy_value_must_still_be_named() -> None:
    italian = load_variant("italian")
    assert not knob_spec("dice.faces").legacy and not knob_spec("wild.face").legacy
    old = _without(claim_edition(italian), "dice.faces")
    problem = claims_problem([old])
    assert problem is not None and "dice.faces" in problem
    assert not claim_covers([old], italian.values())


def test_a_knob_left_out_is_never_a_claim_of_null() -> None:
    """textarena-liars-dice has no wild face (``wild.face: null``): a claim that leaves
    ``wild.face`` out (no legacy value) does not claim ``null``."""
    textarena = load_variant("textarena-liars-dice")
    assert textarena["wild.face"] is None
    old = _without(claim_edition(textarena), "wild.face")
    assert not claim_covers([old], textarena.values())


def test_the_claim_schema_requires_no_knob_with_a_legacy_value() -> None:
    claim = harness_schema()["$defs"]["reply"]["anyOf"][0]["properties"]["claims"]["items"]
    assert not set(claim["required"]) & set(LEGACY)
    for knob in KNOBS:
        described = "description" in claim["properties"][knob.path]
        assert described == bool(knob.legacy), knob.path
    italian = load_variant("italian")
    old = _without(claim_edition(italian), *LEGACY)
    jsonschema.validate(old, claim)
