"""Perft work is bounded whatever is asked (issue 33, item 5): conform's perft never walks
an action the reference refuses, nor past its budget of positions, however many an engine
lists; the perft command refuses a walk over its node budget and a position whose
re-rolled dice are still to be rolled."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from perudo_rules import load_variant
from perudo_rules.cli import main
from perudo_rules.conform.observe import Judged
from perudo_rules.conform.perft import perft_document
from perudo_rules.conform.perftrun import count_through
from perudo_rules.harness.stepapi import StepHarness

Capsys = pytest.CaptureFixture[str]


class _Counting:
    """The step API in this process, counting requests; with ``bogus``, every seat's list
    also holds that many bids no reference allows (more dice than there are)."""

    def __init__(self, bogus: int = 0) -> None:
        self.harness = StepHarness()
        self.bogus = bogus
        self.asked = 0

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.asked += 1
        reply = self.harness.handle(request)
        if request.get("cmd") == "legal" and self.bogus:
            seat = request["seat"]
            extra = [f"{seat}:{900 + i}x2" for i in range(self.bogus)]
            reply = {**reply, "actions": [*reply["actions"], *extra]}
        return reply


def test_bogus_listed_bids_cost_the_perft_walk_nothing() -> None:
    variant = load_variant("italian")
    entry = perft_document("italian")["positions"][0]
    honest, bogus = _Counting(), _Counting(bogus=200)
    found: list[Judged] = []
    ok = count_through(honest, variant, variant.values(), entry, 400, [])
    bad = count_through(bogus, variant, variant.values(), entry, 400, found)
    assert ok is not None and ok.ok
    assert bad is not None and not bad.ok and found  # the extra listings are a difference
    # walked like the honest engine: the bogus bids are counted, never walked
    assert bogus.asked == honest.asked


def test_the_perft_command_refuses_a_walk_over_its_node_budget(
    capsys: Capsys, tmp_path: Path
) -> None:
    """Bluff with two cups of five to depth 12 would run for days (each depth 3-4 times the
    last): refused in one line once the walk has expanded ``--nodes`` positions."""
    file = tmp_path / "pos.json"
    file.write_text(json.dumps({"dice": [[1, 3, 4, 5, 6], [2, 2, 3, 4, 6]], "first_player": 0}))
    code = main(["perft", "bluff", "--position", str(file), "--depth", "12", "--nodes", "5000"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "more than 5,000 positions" in err
    # a walk within the budget counts as published (spec/perft/bluff.json)
    for entry in perft_document("bluff")["positions"]:
        file.write_text(json.dumps(entry["position"]))
        depth = str(min(3, len(entry["nodes"])))
        assert main(["perft", "bluff", "--position", str(file), "--depth", depth, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["nodes"] == entry["nodes"][: int(depth)]


def test_a_position_awaiting_its_re_roll_is_refused(capsys: Capsys, tmp_path: Path) -> None:
    file = tmp_path / "pos.json"
    file.write_text(json.dumps({"dice": [[1, 3], [2, 2], [5, 6]], "first_player": 0,
                                "actions": ["0:reroll 1"]}))  # fmt: skip
    assert main(["perft", "bluff", "--position", str(file), "--depth", "2"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "re-rolled dice" in err and err.count("\n") == 1


def test_a_position_of_another_edition_is_counted_under_the_one_asked(
    capsys: Capsys, tmp_path: Path
) -> None:
    file = tmp_path / "pos.json"
    file.write_text(json.dumps({"variant": "italian", "dice": [[2], [5]], "first_player": 0}))
    assert main(["perft", "spanish", "--position", str(file), "--depth", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["edition"] == "spanish" and data["written_for"] == "italian"
    assert main(["perft", "spanish", "--position", str(file), "--depth", "2"]) == 0
    assert "written for italian; it is checked under spanish" in capsys.readouterr().out
