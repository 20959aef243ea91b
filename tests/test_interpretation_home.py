"""An interpretation sits on the knob that decides it: its override changes that knob.

A reading recorded under one knob whose other reading is played by changing a different
knob would show its mark on the wrong rule (issue 21: the Spanish "a palifico round may
open on Pacos" sat under ``palifico.wilds_count`` while ``palifico.wild_bids`` decides it).
"""

from __future__ import annotations

import pytest

from perudo_rules import available_variants, load_variant


@pytest.mark.parametrize("variant_id", available_variants())
def test_every_interpretation_overrides_its_own_knob(variant_id: str) -> None:
    misplaced = [
        (k.path, sorted(k.interpretation.overrides))
        for k in load_variant(variant_id).interpretations()
        if k.interpretation is not None
        and k.interpretation.overrides
        and k.path not in k.interpretation.overrides
    ]
    assert not misplaced, f"interpretations recorded under another knob: {misplaced}"
