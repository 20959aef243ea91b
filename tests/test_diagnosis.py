"""The kit names the rule an engine breaks, once: one planted bug at a time.

Each row of :data:`tests.planted.PLANTS` is an engine with one bug (the step API in
Python, or the JavaScript engine) and the rule it breaks. The kit must report exactly one
root failure for it, naming that rule on the report's first line; where a knob value
explains the bug, the engine's value of that knob; and the witness it prints must replay
with ``perudo-rules check --witness`` and re-run with ``conform --witness`` unedited.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from perudo_rules import load_variant
from perudo_rules.cli import main
from perudo_rules.cli.conform import format_report
from perudo_rules.conform.flips import flipped
from perudo_rules.conform.runner import conform
from tests.planted import PLANTS, Plant, command

ROOT = Path(__file__).resolve().parent.parent
#: Random games per run: the probes reach the rare rules, the games the rest.
GAMES = 4


@pytest.fixture(autouse=True)
def _checkout_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.chdir(ROOT)


def _needs(plant: Plant) -> None:
    if plant.engine == "js" and shutil.which("node") is None:
        pytest.skip("node is not installed")


@pytest.mark.parametrize("plant", PLANTS, ids=lambda p: f"{p.engine}-{p.plant}-{p.edition}")
def test_the_report_names_the_planted_rule_once(
    plant: Plant, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _needs(plant)
    report = conform(command(plant.engine, plant.plant), [plant.edition], games=GAMES,
                     perft_nodes=40, asked=True)  # fmt: skip
    assert report.exit_code == 1, format_report(report)
    (rep,) = report.editions
    assert [f.rule for f in rep.failures] == [plant.rule], format_report(report)
    first = format_report(report).splitlines()[0]
    assert first.startswith(f"FAIL {plant.edition} {plant.rule}:"), first
    fail = rep.failures[0]
    path, _, value = plant.plant.partition("=")
    if path == plant.rule:  # a knob plant: the engine's value is named (or one that plays alike)
        edition = load_variant(plant.edition)
        assert set(fail.knob) == {path}, fail
        named, planted = flipped(edition, fail.knob), flipped(edition, {path: json.loads(value)})
        assert named is not None and planted is not None
        alike = named.rules == planted.rules or named.rules.wild == planted.rules.wild
        assert alike, (fail.knob, value)
    # the witness replays as printed, with the reference and against the engine
    witness = tmp_path / "witness.json"
    witness.write_text(json.dumps(fail.witness))
    capsys.readouterr()
    assert main(["check", "--witness", str(witness)]) == 0, capsys.readouterr()
    capsys.readouterr()
    code = main(["conform", "--engine", command(plant.engine, plant.plant),
                 "--witness", str(witness)])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 1, out
    assert out.splitlines()[0].startswith(f"FAIL {plant.edition} {plant.rule}:"), out


