"""Runs every rulebook scenario in spec/scenarios/ under each variant it names."""

from __future__ import annotations

import pytest

from perudo_rules.scenarios import Scenario, load_scenarios, run_scenario

SCENARIOS = load_scenarios()
CASES = [(sc, vid) for sc in SCENARIOS for vid in sc.variants]


@pytest.mark.parametrize(("scenario", "variant_id"), CASES, ids=[f"{s.id}[{v}]" for s, v in CASES])
def test_scenario(scenario: Scenario, variant_id: str) -> None:
    run_scenario(scenario, variant_id)
