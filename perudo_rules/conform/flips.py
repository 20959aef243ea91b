"""The other values of an edition's knobs: what the diagnosis and the probes try.

:func:`alternatives` lists, for every knob the protocol observes, the other values worth
trying (each choice, each value a bundled edition plays, small integers);
:func:`flipped` makes the edition with some knobs set otherwise (or says it cannot be:
a rule between knobs broken).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from typing import Any

from perudo_rules.conform.report import NOT_OBSERVED, SEEN_AS
from perudo_rules.editions.crossknob import knob_conflicts
from perudo_rules.editions.knobs import KNOB_PATHS, KNOBS, same_value
from perudo_rules.editions.variant import Variant
from perudo_rules.editions.variantfile import available_variants, load_variant

__all__ = ["UNFLIPPED", "alternatives", "flipped"]

#: Knobs no flip could explain: those the protocol cannot observe (the report's
#: ``NOT_OBSERVED``: the runner seats, deals and names the opener), and those seen only
#: through another rule (``SEEN_AS``: the runner rolls the dice, so ``dice.faces`` shows
#: only as the bids an engine allows, ``play.bid_range``).
UNFLIPPED: frozenset[str] = frozenset(
    p for p in KNOB_PATHS if p in NOT_OBSERVED or p in SEEN_AS
)


@functools.cache
def _bundled_values() -> tuple[dict[str, Any], ...]:
    return tuple(load_variant(v).values() for v in available_variants())


def alternatives(variant: Variant) -> list[tuple[str, Any]]:
    """Every other value the diagnosis tries for each observable knob of ``variant``: a
    choice of the knob, a value a bundled edition plays, or an integer one away."""
    out: list[tuple[str, Any]] = []
    bundled = _bundled_values()
    for knob in KNOBS:
        if knob.path in UNFLIPPED:
            continue
        current = variant[knob.path]
        values: list[Any] = [c for c, _ in knob.choices]
        values += [b[knob.path] for b in bundled]
        if current is None and '"integer"' in json.dumps(knob.schema):  # none, or a number
            values += list(range(1, 13))
        if type(current) is int and knob.path != "dice.faces":
            values += list(range(int(knob.schema.get("minimum", 1)), max(current + 2, 7)))
        elif type(current) is int:
            values += [current - 1, current + 1]
        if knob.path == "wild.face":
            values += list(range(1, variant.rules.dice_faces + 1))
        seen: list[Any] = []
        for v in values:
            if not same_value(v, current) and not any(same_value(v, s) for s in seen):
                seen.append(v)
                out.append((knob.path, v))
    return out


# made before, by the variant's identity and the values; the variant is kept in the entry
# (an identity is reused once its object is gone)
_FLIPS: dict[tuple[int, tuple[tuple[str, str], ...]], tuple[Variant, Variant | None]] = {}


def flipped(variant: Variant, values: Mapping[str, Any]) -> Variant | None:
    """``variant`` with the knob ``values`` set; ``None`` when they break a rule between
    knobs (or a knob's own bounds)."""
    key = (id(variant), tuple(sorted((p, repr(v)) for p, v in values.items())))
    hit = _FLIPS.get(key)
    if hit is not None and hit[0] is variant:
        return hit[1]
    all_values = dict(variant.values(), **values)
    made: Variant | None = None
    if not knob_conflicts(all_values):
        knobs = tuple(
            dataclasses.replace(k, value=values[k.path]) if k.path in values else k
            for k in variant.knobs
        )
        try:
            made = dataclasses.replace(variant, knobs=knobs)
        except (ValueError, TypeError):
            made = None
    if len(_FLIPS) > 4096:
        _FLIPS.clear()
    _FLIPS[key] = (variant, made)
    return made
