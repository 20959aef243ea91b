"""simulate's 'uniform' policy runs on the fast path and reports what the step API would."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from perudo_rules import available_variants, load_variant, referee
from perudo_rules.analysis.simstats import summarise, summarise_rounds
from perudo_rules.analysis.simulate import UNIFORM, simulate
from perudo_rules.cli import main
from perudo_rules.engine.fastplay import play, step_play


@pytest.mark.parametrize("vid", available_variants())
def test_fast_summary_equals_step_api_summary(vid: str) -> None:
    v = load_variant(vid)
    players = min(4, v.rules.players_max)
    for seed in range(15):
        fast = play(v, players, random.Random(seed), record=True)
        slow = step_play(v, players, random.Random(seed))
        assert fast.trace is not None
        assert summarise_rounds(fast.trace, fast.winner, v.rules) == summarise(slow)


def test_uniform_simulation_is_deterministic_and_records_are_valid(tmp_path: Path) -> None:
    v = load_variant("spanish")
    one = simulate(v, players=4, games=40, seed=3, bot=UNIFORM, workers=1)
    two = simulate(v, players=4, games=40, seed=3, bot=UNIFORM, workers=2)
    assert one.to_dict() == two.to_dict()
    saved = simulate(v, players=4, games=5, seed=3, bot=UNIFORM, save_records=tmp_path)
    first5 = simulate(v, players=4, games=5, seed=3, bot=UNIFORM)
    assert saved.to_dict() == first5.to_dict()  # the step API replays the fast path's games
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 5
    for f in files:
        assert referee(json.loads(f.read_text())).valid


def test_uniform_is_a_cli_choice(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["simulate", "italian", "--players", "3", "--games", "20", "--bot", "uniform", "--json"]
    )
    out = capsys.readouterr().out
    assert code == 0 and json.loads(out)
    with pytest.raises(SystemExit) as e:
        main(["simulate", "italian", "--bot", "klingon"])
    assert e.value.code == 2
    assert "invalid choice: 'klingon'" in capsys.readouterr().err
