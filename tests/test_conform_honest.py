"""The kit's verdicts are honest: nothing certified is never "conforms", a harness error
prints no "conforms" row, and an edition file is checked like a bundled edition (its own
scenarios, probes and perft counts), with witnesses that replay against the file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from perudo_rules import load_variant
from perudo_rules.cli.conform import format_report
from perudo_rules.conform.process import HarnessError
from perudo_rules.conform.report import EXIT_UNTESTED
from perudo_rules.conform.runner import conform
from perudo_rules.harness import claim_edition
from perudo_rules.harness.stepapi import StepHarness
from tests.planted import command

ROOT = Path(__file__).resolve().parent.parent


class InProcess:
    """A harness in this process."""

    def __init__(self, harness: StepHarness) -> None:
        self.ask = harness.handle


class SpanishOnly(StepHarness):
    """The step API, claiming the Spanish edition alone."""

    def claims(self) -> list[dict[str, Any]]:
        return [claim_edition(load_variant("spanish"))]


def test_an_edition_asked_for_and_not_claimed_is_not_conforms() -> None:
    report = conform("x", ["italian"], games=1, channel=InProcess(SpanishOnly()), asked=True)
    assert report.exit_code == EXIT_UNTESTED == 3
    text = format_report(report)
    (line,) = [x for x in text.splitlines() if x.startswith("NOT CLAIMED italian:")]
    # which claimed values kept it out: the Spanish ban on opening with Pacos, among others
    assert "bidding.wild_opening" in line and "(the edition:" in line
    assert "result: nothing certified (exit 3)" in text


def test_a_claim_that_covers_no_edition_is_not_conforms() -> None:
    class Odd(StepHarness):
        def claims(self) -> list[dict[str, Any]]:
            return [dict(claim_edition(load_variant("spanish")), **{"calza.gain_cap": 9})]

    report = conform("x", ["italian", "spanish"], games=1, channel=InProcess(Odd()))
    assert report.exit_code == 3 and not any(e.claimed for e in report.editions)
    assert "UNTESTED: the engine claims none" in format_report(report)


def test_a_harness_error_prints_no_conforms_row() -> None:
    class Dies(StepHarness):
        def __init__(self) -> None:
            super().__init__()
            self.asked = 0

        def handle(self, req: Any) -> dict[str, Any]:
            self.asked += 1
            if self.asked > 40:
                raise HarnessError("the engine fell over")
            return super().handle(req)

    report = conform("x", ["spanish"], games=2, channel=InProcess(Dies()))
    assert report.exit_code == 2
    text = format_report(report)
    assert "conforms" not in text.replace("result:", "")
    assert any(x.startswith("spanish") and "interrupted" in x for x in text.splitlines())


@pytest.fixture()
def house(tmp_path: Path) -> Path:
    path = tmp_path / "house.yaml"
    path.write_text("extends: italian\nid: house\nname: House rules\ndescription: d\n"
                    "palifico:\n  once_per_player: false\n")  # fmt: skip
    return path


def test_an_edition_file_gets_scenarios_probes_and_its_own_perft(house: Path) -> None:
    report = conform("x", [str(house)], games=2, channel=InProcess(StepHarness()),
                     perft_nodes=40, asked=True)  # fmt: skip
    (rep,) = report.editions
    assert report.exit_code == 0, format_report(report)
    assert rep.scenarios > 20 and sum(rep.probes.values()) > 20
    assert len(rep.perft) == 3 and all(p.ok for p in rep.perft)
    assert rep.status("palifico.once_per_player") == "passed"


def test_a_witness_against_an_edition_file_replays_unedited(house: Path, tmp_path: Path) -> None:
    """The engine plays Italian's palifico once per seat where the file says any number of
    times: the witness names the file, and check and conform --witness take it as is."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    engine = command("python", "palifico.once_per_player=true")
    report = conform(engine, [str(house)], games=2, perft_nodes=40, asked=True)
    (rep,) = report.editions
    assert [f.rule for f in rep.failures] == ["palifico.once_per_player"], format_report(report)
    witness = tmp_path / "w.json"
    witness.write_text(json.dumps(rep.failures[0].witness))
    for argv, code in ((["check", "--witness", str(witness)], 0),
                       (["conform", "--engine", engine, "--witness", str(witness)], 1)):
        proc = subprocess.run([sys.executable, "-m", "perudo_rules", *argv], env=env,
                              capture_output=True, text=True, timeout=120,
                              cwd=tmp_path)  # fmt: skip
        assert proc.returncode == code, proc.stdout + proc.stderr


def test_one_scenario_reruns_alone() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "perudo_rules", "conform", "--engine",
         command("python", "exact-bidder-loses"), "--scenario", "it-dudo-nine-fives-nine-found"],
        env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.startswith("FAIL italian challenge.exact:"), proc.stdout
    assert "1 scenarios, 0 games" in proc.stdout
