"""Targeted probes: for each rule, a point where it decides, published per edition.

Each probe must still make its rule decide there (a knob probe: the edition and the
edition with the knob's other value answer otherwise; a rule probe: the kernel's trace
names the rule deciding), and the published files must be what the search finds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perudo_rules import load_variant
from perudo_rules.base.actions import Calza, Dudo
from perudo_rules.conform.flips import flipped
from perudo_rules.conform.probes import find_probes, probes_for, probes_text
from perudo_rules.editions.variantfile import available_variants

ROOT = Path(__file__).resolve().parent.parent


def _answer(game, action):  # type: ignore[no-untyped-def]
    if game.violation(action) is not None:
        return "refused"
    if isinstance(action, (Dudo, Calza)):
        after = game.apply(action)
        res = after.last_result
        return (after.dice_counts, res.next_player, res.next_palifico, after.winner)
    return "allowed"


@pytest.mark.parametrize("vid", available_variants())
def test_each_probe_makes_its_rule_decide(vid: str) -> None:
    variant = load_variant(vid)
    probes = probes_for(variant)
    assert len(probes) > 15
    for probe in probes:
        game = probe.position.game(variant)
        for step in probe.steps:
            game = game.apply(step)
        assert probe.action is not None
        if probe.apart:  # this edition and the other value part here
            other = flipped(variant, {probe.rule: probe.against})
            assert other is not None
            there = probe.position.game(other)
            for step in probe.steps:
                there = there.apply(step)
            legal = {str(a) for a in game.legal_actions()}
            legal_there = {str(a) for a in there.legal_actions()}
            assert legal != legal_there or _answer(game, probe.action) != _answer(
                there, probe.action
            ), probe
        else:  # the kernel's trace names the rule deciding
            rules = {game.decision(probe.action).rule}
            if game.violation(probe.action) is None and isinstance(probe.action, (Dudo, Calza)):
                rules |= {r[0] for r in game.outcome_decision(probe.action).values()}
            assert probe.rule in rules, probe


@pytest.mark.parametrize("vid", ["openspiel-liars-dice", "italian"])
def test_published_probes_are_fresh(vid: str) -> None:
    # rewrite: python tools/generate.py (the other editions: tools/generate.py --check)
    assert (ROOT / "spec" / "probes" / f"{vid}.json").read_text() == probes_text(vid)


def test_an_edition_file_finds_its_own_probes(tmp_path: Path) -> None:
    house = tmp_path / "house.yaml"
    house.write_text("extends: italian\nid: house\nname: House\ndescription: d\n"
                     "palifico:\n  once_per_player: false\n")  # fmt: skip
    variant = load_variant(str(house))
    probes = find_probes(variant)
    italian = json.loads((ROOT / "spec" / "probes" / "italian.json").read_text())["probes"]
    assert [p.to_json() for p in probes] != italian  # its own values, its own probes
    assert any(p.rule == "palifico.once_per_player" for p in probes)
