"""``conform --profile``: an undocumented engine learns which edition it implements.

The planted engine with ``--edition ID`` plays one bundled edition whatever the runner
sends, and claims every value: the profile must name that edition and no knob where it
differs; with one knob planted, it must name that knob and the value the engine plays,
with a witness that replays.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from perudo_rules.conform.profile import profile
from perudo_rules.editions.variantfile import available_variants
from tests.planted import command

ROOT = Path(__file__).resolve().parent.parent
GAMES = 2


@pytest.fixture(autouse=True)
def _checkout_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("edition", available_variants())
def test_the_profile_recovers_the_edition_an_engine_plays(edition: str) -> None:
    found = profile(command("python", None, edition), games=GAMES)
    assert found.error is None and found.nearest == edition, found.to_json()
    assert not found.differs and not found.unexplained and found.exit_code == 0
    # the values it saw are the edition's
    from perudo_rules import load_variant

    ours = load_variant(edition)
    assert all(ours[p] == v for p, v in found.values.items())
    assert len(found.values) >= 8  # every knob it was seen to play


@pytest.mark.parametrize(
    ("edition", "knob", "value"),
    [("spanish", "calza.min_players", 3), ("italian", "palifico.once_per_player", False)],
)
def test_the_profile_names_a_planted_knob(
    edition: str, knob: str, value: object, tmp_path: Path
) -> None:
    found = profile(command("python", f"{knob}={json.dumps(value)}", edition), games=GAMES)
    assert found.nearest == edition and found.exit_code == 1, found.to_json()
    assert [f.knob for f in found.differs] == [{knob: value}]
    assert found.values[knob] == value
    witness = tmp_path / "w.json"
    witness.write_text(json.dumps(found.differs[0].witness))
    check = subprocess.run([sys.executable, "-m", "perudo_rules", "check", "--witness",
                            str(witness)], capture_output=True, text=True, timeout=60)  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr


def test_the_profile_command_prints_the_nearest_edition_first() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "perudo_rules", "conform", "--profile", "--games", "1",
         "--engine", command("python", "calza.min_players=3", "spanish")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 1, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].endswith("plays spanish, except:"), lines
    assert lines[1].strip().startswith("calza.min_players: the engine plays 3; spanish says 2")
