"""Simulation: determinism across workers, statistics against the game records, the CLI."""

from __future__ import annotations

import csv
import io
import json
import math
from collections import Counter
from pathlib import Path

import pytest

from perudo_rules import Game, load_variant
from perudo_rules.analysis.bots import make_bot, play_game
from perudo_rules.analysis.simstats import (
    SimStats,
    comparison_rows,
    mean_interval,
    plot,
    summarise,
    t95,
    wilson_interval,
)
from perudo_rules.analysis.simulate import simulate
from perudo_rules.cli import main
from perudo_rules.records.replay import replay

ITALIAN = load_variant("italian")
SPANISH = load_variant("spanish")


@pytest.fixture(scope="module")
def italian_stats() -> SimStats:
    return simulate(ITALIAN, players=4, games=40, seed=3, bot="baseline")


def test_same_seed_same_numbers_whatever_the_workers(italian_stats: SimStats) -> None:
    assert simulate(ITALIAN, players=4, games=40, seed=3, workers=2) == italian_stats
    assert simulate(ITALIAN, players=4, games=40, seed=3, workers=3) == italian_stats
    assert simulate(ITALIAN, players=4, games=40, seed=4) != italian_stats


def test_random_bot_is_deterministic_across_workers() -> None:
    one = simulate(SPANISH, players=6, games=60, seed=9, bot="random")
    assert simulate(SPANISH, players=6, games=60, seed=9, bot="random", workers=2) == one
    assert one.calza_calls > 0


def test_statistics_are_consistent(italian_stats: SimStats) -> None:
    s = italian_stats
    assert s.games == 40 and s.players == 4
    assert sum(s.wins_by_seat) == sum(s.wins_by_position) == 40
    assert math.isclose(sum(e.value for e in s.win_rate_by_seat()), 1.0)
    assert math.isclose(sum(e.value for e in s.win_rate_by_position()), 1.0)
    assert sum(c for _, c in s.rounds_per_game) == 40
    assert sum(v * c for v, c in s.rounds_per_game) == s.total_rounds
    assert s.dudo_calls + s.calza_calls == s.total_rounds
    assert 0 <= s.palifico_rounds <= s.total_rounds
    # a round moves one die at most; the three losers must lose all five of theirs
    assert min(v for v, _ in s.rounds_per_game) >= 15
    for name, e in s.summary_rows():
        if e.n:
            assert e.low <= e.value <= e.high, name
    rates = [s.palifico_share(), s.calza_success(), s.dudo_success(), *s.win_rate_by_seat()]
    assert all(0.0 <= e.low <= e.high <= 1.0 for e in rates if e.n)


def test_statistics_match_the_saved_game_records(tmp_path: Path) -> None:
    stats = simulate(SPANISH, players=3, games=12, seed=5, workers=2, save_records=tmp_path)
    files = sorted(tmp_path.glob("spanish-*.json"))
    assert len(files) == 12
    rounds: Counter[int] = Counter()
    bids: Counter[int] = Counter()
    palifico = calza = calza_right = dudo_right = 0
    seat_wins = [0, 0, 0]
    for f in files:
        record = json.loads(f.read_text())
        game = replay(record)  # the refereed replay accepts every simulated game
        assert game.winner == record["winner"]
        seat_wins[record["winner"]] += 1
        rounds[len(record["rounds"])] += 1
        for r in record["rounds"]:
            *bid_actions, call = r["actions"]
            bids[len(bid_actions)] += 1
            palifico += r["palifico"]
            quantity = int(r["result"]["bid"].split("x")[0])
            if call.endswith(":calza"):
                calza += 1
                calza_right += r["result"]["count"] == quantity
            else:
                assert call.endswith(":dudo")
                dudo_right += r["result"]["count"] < quantity
    assert dict(stats.rounds_per_game) == dict(rounds)
    assert dict(stats.bids_per_round) == dict(bids)
    assert (stats.palifico_rounds, stats.calza_calls, stats.calza_right) == (
        palifico,
        calza,
        calza_right,
    )
    assert stats.dudo_right == dudo_right
    assert list(stats.wins_by_seat) == seat_wins


def test_position_counts_in_the_direction_of_play() -> None:
    v = load_variant("italian", overrides={"setup.direction": "right"})
    for seed in range(4):
        game = play_game(v, 4, [make_bot("random", seed * 4 + s) for s in range(4)], seed)
        summary = summarise(game)
        seat, steps = summary.first_player, 0
        while seat != game.winner:
            seat, steps = (seat - 1) % 4, steps + 1
        assert summary.position == steps


def test_summarise_needs_a_finished_game() -> None:
    with pytest.raises(ValueError, match="not over"):
        summarise(Game.new(ITALIAN, 3, seed=1))


def test_intervals() -> None:
    e = wilson_interval(0, 10)
    assert (e.value, e.low) == (0.0, 0.0) and e.high == pytest.approx(0.2775, abs=1e-4)
    e = wilson_interval(5, 10)
    assert (e.low, e.high) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    assert math.isnan(wilson_interval(0, 0).value)
    with pytest.raises(ValueError):
        wilson_interval(3, 2)
    m = mean_interval({1: 1, 2: 1, 3: 1})  # mean 2, sd 1, t(2 df) = 4.303
    assert m.value == 2 and m.high - 2 == pytest.approx(4.303 / math.sqrt(3))
    big = mean_interval({0: 500, 1: 500})  # t(999) is nearly the normal quantile
    assert big.high - 0.5 == pytest.approx(1.9623 * math.sqrt(0.25 * 1000 / 999 / 1000), rel=1e-4)
    # published two-sided 95% quantiles of Student's t
    for df, t in [(1, 12.706), (10, 2.228), (30, 2.042), (40, 2.021), (60, 2.000), (120, 1.980)]:
        assert t95(df) == pytest.approx(t, abs=1e-3)
    with pytest.raises(ValueError):
        t95(0)
    assert mean_interval({4: 1}).low == 4


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 7}, "7 seats; italian plays with 2 to 6"),
        ({"players": 1}, "1 seat; italian plays with 2 to 6"),
        ({"games": 0}, "games"),
        ({"workers": -1}, "workers"),
        ({"bot": "clever"}, "unknown bot"),
    ],
)
def test_simulate_rejects_bad_parameters(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        simulate(ITALIAN, **kwargs)  # type: ignore[arg-type]


def test_progress_callback_and_to_dict(italian_stats: SimStats) -> None:
    seen: list[tuple[int, int]] = []
    simulate(SPANISH, players=2, games=9, seed=1, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (9, 9)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    data = json.loads(json.dumps(italian_stats.to_dict(), allow_nan=False))
    assert data["games"] == 40
    assert data["estimates"]["rounds per game"]["value"] == italian_stats.rounds().value
    assert SimStats.from_dict(data) == italian_stats  # the docs build keeps them so
    rows = comparison_rows([italian_stats, italian_stats])
    assert rows[0][0] == "rounds per game" and rows[0][1] == rows[0][2]
    assert len(rows) == len(italian_stats.summary_rows())


def test_plot_writes_a_png(tmp_path: Path, italian_stats: SimStats) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "sim.png"
    other = simulate(SPANISH, players=4, games=10, seed=3)
    plot([italian_stats, other], out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError, match="nothing to plot"):
        plot([], out)


# --- the command line ---------------------------------------------------------------------

ARGS = ["simulate", "italian", "spanish", "--players", "3", "--games", "6", "--seed", "2"]


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(ARGS) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert lines[0].startswith("6 games per variant, 3 players, baseline bots, seed 2")
    assert lines[1].split() == ["metric", "italian", "spanish"]
    assert any(line.startswith("Calza success rate") for line in lines)
    assert err == ""  # no progress bar when stderr is not a terminal


def test_cli_json_and_csv(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARGS, "--json", "--workers", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [d["variant"] for d in data] == ["italian", "spanish"]
    assert data[0] == simulate(ITALIAN, players=3, games=6, seed=2).to_dict()
    assert main([*ARGS, "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert {r["variant"] for r in rows} == {"italian", "spanish"}
    win = [r for r in rows if r["variant"] == "spanish" and r["metric"].startswith("win rate seat")]
    assert len(win) == 3 and math.isclose(sum(float(r["value"]) for r in win), 1.0)


def test_cli_plot_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "out.png"
    assert main([*ARGS, "--plot", str(png), "--save-records", str(tmp_path / "rec")]) == 0
    assert png.read_bytes()[:4] == b"\x89PNG"
    assert len(list((tmp_path / "rec").glob("*.json"))) == 12
    assert "plot written" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["simulate", "nosuch"], "unknown variant 'nosuch'"),
        (["simulate", "italian", "--players", "9"], "9 seats; italian plays with 2 to 6"),
        (["simulate", "italian", "--games", "0"], "must be at least 1"),
        (["simulate", "italian", "--workers", "x"], "not a whole number"),
        (["simulate", "italian", "--bot", "clever"], "invalid choice"),
        (["simulate", "italian", "--json", "--csv"], "not allowed with"),
    ],
)
def test_cli_errors(extra: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main(extra)
    except SystemExit as exc:  # argparse errors
        code = exc.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_cli_bad_yaml_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "house.yaml"
    bad.write_text("id: house\nextends: italian\ndice:\n  faces: banana\n")
    assert main(["simulate", str(bad), "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "house.yaml" in err and len(err.strip().splitlines()) == 1
