"""House-rule sweeps and mergeable statistics: the grid, its checks, its output (the same
whatever the workers), the marks of differing figures, Ctrl-C and the missing Ray extra."""

from __future__ import annotations

import json
import random
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from perudo_rules import load_variant
from perudo_rules.analysis import simulate as simulate_module
from perudo_rules.analysis.simstats import Estimate, SimStats
from perudo_rules.analysis.simulate import play_chunk, simulate, simulate_many
from perudo_rules.analysis.sweep import (
    differing_metrics,
    overlap,
    parse_sweep,
    sweep_document,
    sweep_points,
)
from perudo_rules.base.errors import PerudoError
from perudo_rules.cli import main

ITALIAN = load_variant("italian")
SWEEP = ["--sweep", "calza.enabled=true,false", "--sweep", "palifico.enabled=false,true"]
SMALL = ["--games", "60", "--players", "3", "--seed", "7"]


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_merged_chunks_in_any_order_equal_the_whole_run() -> None:
    whole = play_chunk(ITALIAN, 3, "baseline", 5, 0, 30)
    parts = [play_chunk(ITALIAN, 3, "baseline", 5, a, a + 6) for a in range(0, 30, 6)]
    random.Random(1).shuffle(parts)
    merged = SimStats.from_games(ITALIAN, 3, "baseline", 5, [])
    for part in parts:
        merged = merged.merge(part)
    assert merged == whole and merged.games == 30
    assert json.dumps(merged.to_dict()) == json.dumps(whole.to_dict())
    with pytest.raises(ValueError, match="cannot merge"):
        whole.merge(play_chunk(ITALIAN, 3, "baseline", 6, 0, 1))


def test_parse_sweep_reads_values_as_a_variant_file_does() -> None:
    assert parse_sweep(["calza.enabled=true,false", "dice.per_player=4, 5"]) == (
        ("calza.enabled", (True, False)),
        ("dice.per_player", (4, 5)),
    )
    assert parse_sweep(["bidding.quantity_limit=null,12"]) == (
        ("bidding.quantity_limit", (None, 12)),
    )


@pytest.mark.parametrize(
    ("specs", "message"),
    [
        (["calza.enabled"], "KNOB=VALUE"),
        (["calza.enabled="], "KNOB=VALUE"),
        (["calza.nope=true"], "no knob is called calza.nope"),
        (["calza.enabled=true", "calza.enabled=false"], "given twice"),
        (["calza.enabled=true,true"], "the value true of calza.enabled is given twice"),
        (["calza.enabled=true,,false"], "an empty value"),
    ],
)
def test_parse_sweep_refuses_bad_options(specs: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_sweep(specs)


def test_points_are_house_rules_checked_by_the_variant_rules() -> None:
    sweep = sweep_points("italian", parse_sweep(["calza.enabled=true,false"]))
    assert [p.label for p in sweep.points] == ["calza.enabled=true", "calza.enabled=false"]
    assert sweep.baseline == 0 and sweep.points[0].variant.values() == ITALIAN.values()
    assert sweep.points[1].variant["calza.enabled"] is False
    # the edition's own values are not in the grid: the edition is played as a point first
    other = sweep_points("italian", parse_sweep(["dice.per_player=3,4"]))
    assert [p.label for p in other.points] == [
        "dice.per_player=5", "dice.per_player=3", "dice.per_player=4"
    ]
    assert other.baseline == 0 and other.points[0].own
    with pytest.raises(ValueError, match=r"players\.min=9 is not a possible variant of italian"):
        sweep_points("italian", parse_sweep(["players.min=2,9"]))
    with pytest.raises(ValueError, match="300 combinations, at most 256"):
        values = ",".join(map(str, range(1, 301)))
        sweep_points("italian", parse_sweep([f"dice.per_player={values}"]))


def test_cli_refuses_an_impossible_point_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(["simulate", "italian", "--sweep", "dice.per_player=0,5"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "dice.per_player=0 is not a possible variant" in err
    code, _, err = run_cli(["simulate", "italian", "spanish", *SWEEP], capsys)
    assert code == 2 and "one VARIANT" in err


def test_overlap() -> None:
    assert overlap(Estimate(1, 0, 2, 5), Estimate(3, 2, 4, 5))
    assert not overlap(Estimate(1, 0, 2, 5), Estimate(3, 2.1, 4, 5))
    nan = float("nan")
    assert overlap(Estimate(nan, nan, nan, 0), Estimate(3, 2.1, 4, 5))


def test_differences_are_marked_where_intervals_are_apart() -> None:
    sweep = sweep_points("italian", parse_sweep(["palifico.enabled=true,false"]))
    run = simulate_many([p.variant for p in sweep.points], players=3, games=60, seed=2)
    own, without = run.stats
    # no palifico round without palifico: the share is 0 and its interval is far below
    assert without.palifico_rounds == 0 < own.palifico_rounds
    assert "palifico share of rounds" in differing_metrics(without, own)
    assert differing_metrics(own, own) == []
    doc = sweep_document(sweep, run.stats)
    assert doc["baseline"] == 0 and doc["points"][0]["differs"] == []
    assert "palifico share of rounds" in doc["points"][1]["differs"]
    assert doc["points"][1]["values"] == {"palifico.enabled": False}


@pytest.mark.parametrize("fmt", [[], ["--json"], ["--csv"]])
def test_sweep_output_is_the_same_whatever_the_workers(
    fmt: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    outputs = []
    for workers in ("1", "2"):
        args = ["simulate", "italian", *SWEEP, *SMALL, "--workers", workers, *fmt]
        code, out, _ = run_cli(args, capsys)
        assert code == 0
        outputs.append(out)
    assert outputs[0] == outputs[1]
    if fmt == ["--json"]:
        doc = json.loads(outputs[0])
        assert [p["values"] for p in doc["points"]] == [
            {"calza.enabled": c, "palifico.enabled": p}
            for c in (True, False) for p in (False, True)
        ]  # fmt: skip
        assert doc["baseline"] == 1 and doc["points"][1]["own"]
        # every point is the house-rules variant played on its own
        house = load_variant("italian", {"calza.enabled": False, "palifico.enabled": False})
        alone = simulate(house, players=3, games=60, seed=7)
        assert doc["points"][2]["statistics"] == json.loads(json.dumps(alone.to_dict()))
    elif not fmt:
        own = "#2: calza.enabled=true, palifico.enabled=true (the edition's own values)"
        assert own in outputs[0]
        assert " *" in outputs[0] and "(#2)" in outputs[0]


def test_sweep_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    image = tmp_path / "sweep.png"
    code, _, err = run_cli(["simulate", "italian", *SWEEP, *SMALL, "--plot", str(image)], capsys)
    assert code == 0 and "plot written" in err
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ctrl_c_keeps_what_was_played(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    run = simulate_many([ITALIAN], players=3, games=400, seed=1, progress=stop)
    assert run.interrupted and 0 < run.played < 400
    assert run.stats[0] == play_chunk(ITALIAN, 3, "baseline", 1, 0, run.played)
    with pytest.raises(KeyboardInterrupt):
        simulate(ITALIAN, players=3, games=400, seed=1, progress=stop)

    calls = []

    def interrupted_chunk(*args: object) -> SimStats:
        calls.append(args)
        if len(calls) > 1:
            raise KeyboardInterrupt
        return play_chunk(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(simulate_module, "play_chunk", interrupted_chunk)
    code, out, err = run_cli(["simulate", "italian", "--games", "400", "--players", "3",
                              "--workers", "1", "--json"], capsys)  # fmt: skip
    assert code == 130
    assert json.loads(out)[0]["games"] == 100
    assert "interrupted: 100 of 400 games were played" in err


def test_ray_backend_without_ray_names_the_extra(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(PerudoError, match=r"pip install 'perudo-rules\[ray\]'"):
        simulate(ITALIAN, players=3, games=5, backend="ray")
    with pytest.raises(ValueError, match="needs backend='ray'"):
        simulate(ITALIAN, players=3, games=5, ray_address="localhost:6379")
    with pytest.raises(ValueError, match="unknown backend 'dask'"):
        simulate(ITALIAN, players=3, games=5, backend="dask")
    code, out, err = run_cli(["simulate", "italian", "--games", "5", "--ray"], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "perudo-rules[ray]" in err


def test_game_caps_by_backend(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(["simulate", "italian", "--games", "1000001"], capsys)
    assert code == 2 and "1000000" in err
    code, _, err = run_cli(["simulate", "italian", "--games", "1000001", "--ray",
                            "--save-records", "x"], capsys)  # fmt: skip
    assert code == 2 and "Ray cluster" in err and "1000000" not in err
    code, _, err = run_cli(["simulate", "italian", "--ray", "--backend", "local"], capsys)
    assert code == 2 and "--backend local" in err


def test_the_docs_show_what_their_sweep_prints_now(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/balance-studies.rst shows a command, its table and its plot (committed files):
    the command, run again, prints that table and draws a plot."""
    docs = Path(__file__).resolve().parent.parent / "docs"
    page = (docs / "balance-studies.rst").read_text(encoding="utf-8")
    block = page.split(".. code-block:: console", 1)[1].split("\n\n", 2)[1]
    command = shlex.split(block.replace("\\\n", " "))
    assert command[:3] == ["$", "perudo-rules", "simulate"]
    args = command[2:]
    shown = docs / "_data" / "sweep-calza-palifico.txt"
    image = docs / "_static" / args[args.index("--plot") + 1]
    assert image.is_file() and f"_static/{image.name}" in page
    assert f"_data/{shown.name}" in page
    args[args.index("--plot") + 1] = str(tmp_path / image.name)
    code, out, _ = run_cli(["--lang", "en", *args, "--workers", "2"], capsys)
    assert code == 0 and (tmp_path / image.name).is_file()
    assert out == shown.read_text(encoding="utf-8")


def test_progress_line_shows_rate_and_time_left(capsys: pytest.CaptureFixture[str]) -> None:
    simulate_many([ITALIAN, ITALIAN], players=3, games=20, seed=1, progress=True)
    err = capsys.readouterr().err
    assert err.startswith("\r2 variants [") and err.endswith("\n")
    last = err.rstrip("\n").rsplit("\r", 1)[-1]
    assert "] 40/40 games, " in last and "/s, 0:00:00 left" in last


@pytest.mark.parametrize("lang", ["en", "it", "es"])
def test_help_names_the_new_options(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--lang", lang, "simulate", "--help"])
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert all(opt in out for opt in ("--sweep KNOB=V1,V2", "--ray-address", "--backend"))


def test_chunks_in_flight_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory does not grow with the games: chunks are handed out as slots free up (two per
    worker), never all at once, and their statistics merged as they come back."""
    from concurrent.futures import Future, ProcessPoolExecutor

    flight = {"now": 0, "most": 0, "submitted": 0}

    class CountingPool(ProcessPoolExecutor):
        def submit(self, *args: Any, **kwargs: Any) -> Future[Any]:
            flight["now"] += 1
            flight["submitted"] += 1
            flight["most"] = max(flight["most"], flight["now"])
            future = super().submit(*args, **kwargs)
            future.add_done_callback(lambda _: flight.__setitem__("now", flight["now"] - 1))
            return future

    monkeypatch.setattr(simulate_module, "ProcessPoolExecutor", CountingPool)
    run = simulate_many([ITALIAN], players=3, games=400, seed=4, workers=2)
    assert run.stats[0] == simulate(ITALIAN, players=3, games=400, seed=4, workers=1)
    assert flight["submitted"] >= 16 and flight["most"] <= 4


def test_a_rate_of_nothing_says_so_instead_of_nan() -> None:
    """A figure with no case to count (Calza's success rate where nobody may call Calza)
    is said in words, in the reader's language, never printed as ``nan``."""
    from perudo_rules.analysis.simstats import wilson_interval
    from perudo_rules.base.i18n import use_language

    assert wilson_interval(3, 4).format().startswith("0.750 [")
    assert wilson_interval(0, 0).format() == "none to count (n = 0)"
    with use_language("it"):
        assert "nan" not in wilson_interval(0, 0).format()
        assert wilson_interval(0, 0).format() != "none to count (n = 0)"
