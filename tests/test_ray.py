"""The Ray backend on a local Ray instance of 2 CPUs: the same output as the local pool on a
sweep of two knobs, a worker killed mid-run retried without changing the result, Ctrl-C.

Ray is the ``ray`` extra: without it these tests skip, unless ``PERUDO_REQUIRE_RAY`` is set
(``.ci/run`` sets it), which makes a missing Ray a failure. They share one Ray instance
(started once for the module) and one xdist worker.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from perudo_rules import load_variant
from perudo_rules.analysis.rayrun import FAULT_ENV
from perudo_rules.analysis.simulate import play_chunk, simulate, simulate_many
from perudo_rules.cli import main

pytestmark = pytest.mark.xdist_group("ray")

SWEEP = ["--sweep", "calza.enabled=true,false", "--sweep", "palifico.enabled=false,true"]
SMALL = ["--games", "80", "--players", "3", "--seed", "11"]


def _ray() -> ModuleType:
    try:
        import ray
    except ImportError:
        if os.environ.get("PERUDO_REQUIRE_RAY"):
            pytest.fail("PERUDO_REQUIRE_RAY is set but ray is not installed")
        pytest.skip("ray is not installed (the ray extra)")
    return ray


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A local Ray instance of 2 CPUs; its workers see :data:`FAULT_ENV`, whose file the
    killed-worker test creates (the worker that deletes it dies)."""
    ray = _ray()
    marker = tmp_path_factory.mktemp("ray") / "kill-one-worker"
    before = os.environ.get(FAULT_ENV)
    os.environ[FAULT_ENV] = str(marker)  # inherited by the workers ray.init starts
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        yield marker
    finally:
        ray.shutdown()
        if before is None:
            del os.environ[FAULT_ENV]
        else:
            os.environ[FAULT_ENV] = before


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("fmt", [[], ["--json"], ["--csv"]])
def test_sweep_on_ray_prints_what_the_local_pool_prints(
    cluster: Path, fmt: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    local = run_cli(["simulate", "italian", *SWEEP, *SMALL, "--workers", "2", *fmt], capsys)
    on_ray = run_cli(["simulate", "italian", *SWEEP, *SMALL, "--ray", *fmt], capsys)
    assert on_ray == local
    assert "calza.enabled" in local


def test_a_killed_worker_is_retried_and_the_result_does_not_change(cluster: Path) -> None:
    variants = [load_variant("spanish"), load_variant("italian", {"calza.enabled": False})]
    local = simulate_many(variants, players=4, games=60, seed=3, workers=1)
    cluster.touch()  # armed: the first task to delete it kills its own worker
    on_ray = simulate_many(variants, players=4, games=60, seed=3, backend="ray")
    assert not cluster.exists(), "no worker was killed"
    assert not on_ray.interrupted
    assert on_ray.stats == local.stats
    assert [s.games for s in on_ray.stats] == [60, 60]


def test_ctrl_c_cancels_the_cluster_work_and_keeps_what_was_done(cluster: Path) -> None:
    italian = load_variant("italian")

    def stop(done: int, total: int) -> None:
        raise KeyboardInterrupt

    run = simulate_many([italian], players=3, games=400, seed=5, backend="ray", progress=stop)
    assert run.interrupted and 0 < run.played < 400
    # what was done is whole chunks of games 0..played-1 or beyond; its counts add up
    assert sum(run.stats[0].wins_by_seat) == run.played
    # the instance still serves a run after the cancel
    after = simulate(italian, players=3, games=30, seed=5, backend="ray")
    assert after == play_chunk(italian, 3, "baseline", 5, 0, 30)
    assert json.dumps(after.to_dict())


def test_the_command_starts_and_stops_its_own_local_instance(
    cluster: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--ray`` in a process without Ray started: the command starts a local instance,
    plays there and stops it; the output is the local pool's."""
    args = ["simulate", "italian", "spanish", "--games", "30", "--players", "3", "--json"]
    local = run_cli([*args, "--workers", "1"], capsys)
    env = {k: v for k, v in os.environ.items() if k not in (FAULT_ENV, "RAY_ADDRESS")}
    proc = subprocess.run(
        [sys.executable, "-m", "perudo_rules", *args, "--ray"],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout == local
