"""Hostile input, second pass (issue 15): the command line given what a hostile user types.

Every case exits 0, 1 or 2 with at most one error line and no traceback, fast, and loses
nothing a user typed or saved. The last test generates argument lists and files with
Hypothesis and runs the entry point in-process on them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from perudo_rules.cli import main

Capsys = pytest.CaptureFixture[str]
LIMIT_S = 10.0


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    """Run the command line in-process: (exit code, stdout, stderr), within LIMIT_S."""
    start = time.perf_counter()
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse
        code = stop.code if isinstance(stop.code, int) else 2
    elapsed = time.perf_counter() - start
    out, err = capsys.readouterr()
    assert elapsed < LIMIT_S, f"{argv}: {elapsed:.1f}s"
    assert "Traceback" not in err and "internal error" not in err, err
    return code, out, err


def one_line(err: str, *needles: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


SCENARIO = """\
scenarios:
  - id: x
    title: X
    variants: [italian]
    rules: [play.roll]
    source: s
    description: d
    start:
      dice: [[1, 4], [3, 3]]
      first_player: 0
    steps:
      - "0: bid 2x4"
      - "1: dudo"
      - "{roll}"
"""


# --- sizes are checked before anything is allocated ----------------------------------------


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["check", "italian", "--dice", "100000000", "--bids", "1x2"], "100000000 dice a seat"),
        (["check", "italian", "--players", "100000000", "--bids", "1x2"], "100000000 seats"),
        (["check", "italian", "--players", "9" * 5000, "--bids", "1x2"], "invalid int value"),
        (["simulate", "italian", "--games", str(10**20)], "--games must be 1 to 1000000"),
        (["simulate", "italian", "--players", "100000000"], "100000000 players"),
        (["play", "italian", "--players", "100000000"], "100000000 players"),
        (["compare", "italian", "spanish", "--max-dice", "20"], "--max-dice must be 1 to 6"),
        (["check", "italian", "--bids", "1x2 " * 10_001], "at most 10000"),
    ],
)
def test_sizes_are_refused_up_front(capsys: Capsys, argv: list[str], needle: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    one_line(err, needle)


@pytest.mark.parametrize("token", ["²x4", "9" * 5000 + "x4", "4x" + "9" * 5000, "٣x4", "1x²"])
def test_check_tokens_that_are_not_bids(capsys: Capsys, token: str) -> None:
    code, _, err = run(capsys, "check", "italian", "--bids", token)
    assert code == 2
    one_line(err, "not a bid")


# --- files that are not what they claim --------------------------------------------------------


def test_scenario_input_that_breaks_the_export(capsys: Capsys, tmp_path: Path) -> None:
    bad = write(tmp_path / "roll.yaml", SCENARIO.format(roll="roll [[0]]"))
    code, out, err = run(capsys, "export-scenarios", "-", str(bad))
    assert code == 2 and out == ""
    one_line(err, f"{bad}:14:", "not a roll")
    deep = write(tmp_path / "deep.yaml", SCENARIO.format(roll="roll " + "[" * 100_000))
    code, _, err = run(capsys, "export-scenarios", "-", str(deep))
    assert code == 2
    one_line(err, "not a roll")
    deep.write_text("scenarios: " + "[" * 100_000)
    code, _, err = run(capsys, "export-scenarios", "-", str(deep))
    assert code == 2
    one_line(err, str(deep))


def test_devices_and_fifos_are_refused_not_read(capsys: Capsys, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    for argv in (
        ["export-scenarios", "-", "/dev/zero"],
        ["export-scenarios", "-", str(fifo)],
        ["validate", str(fifo)],
        ["show", "/dev/zero"],
        ["referee", str(fifo)],
        ["check", "italian", "--position", "/dev/zero", "--bids", "1x2"],
    ):
        code, out, err = run(capsys, *argv)
        assert code == 2, argv
        one_line(err or out, "not a regular file")


def test_extends_chains_that_hurt(capsys: Capsys, tmp_path: Path) -> None:
    write(tmp_path / "c0.yaml", "extends: italian\n")
    for i in range(1, 600):
        write(tmp_path / f"c{i}.yaml", f"extends: c{i - 1}.yaml\n")
    (tmp_path / "l1.yaml").symlink_to(tmp_path / "l2.yaml")
    (tmp_path / "l2.yaml").symlink_to(tmp_path / "l1.yaml")
    write(tmp_path / "loop.yaml", "extends: l1.yaml\n")
    write(tmp_path / "kmsg.yaml", "extends: /proc/kmsg\n")
    for name, needle in [
        ("c599.yaml", "chain longer than"),
        ("loop.yaml", "symbolic-link loop"),
        ("l1.yaml", "loop"),
        ("kmsg.yaml", "absolute path"),
    ]:
        code, out, err = run(capsys, "show", str(tmp_path / name))
        assert code == 2 and out == ""
        one_line(err, needle)


def test_a_stdout_that_is_closed() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "perudo_rules", "list"],
        stdout=subprocess.DEVNULL,
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        close_fds=True,
        preexec_fn=lambda: os.close(1),
    )
    assert proc.returncode == 2
    one_line(proc.stderr, "standard output is closed")


# --- outputs -----------------------------------------------------------------------------------


def test_export_refuses_colliding_outputs_before_the_work(capsys: Capsys, tmp_path: Path) -> None:
    out = tmp_path / "out.json"
    code, _, err = run(capsys, "export-scenarios", str(out), "--schema", str(out))
    assert code == 2 and not out.exists()
    one_line(err, "name the same file")
    scenario = write(tmp_path / "s.yaml", SCENARIO.format(roll="roll [[1], [2]]"))
    before = scenario.read_text()
    code, _, err = run(
        capsys, "export-scenarios", str(out), str(scenario), "--schema", str(scenario)
    )
    assert code == 2 and scenario.read_text() == before and not out.exists()
    one_line(err, "it is an input of this run")
    code, _, err = run(capsys, "export-scenarios", str(tmp_path / "nowhere" / "o.json"))
    assert code == 2
    one_line(err, "no such folder")


def test_export_to_stdout_still_writes_the_schema(capsys: Capsys, tmp_path: Path) -> None:
    schema = tmp_path / "schema.json"
    code, out, _ = run(capsys, "export-scenarios", "-", "--schema", str(schema))
    assert code == 0
    assert json.loads(out)["format"] == "perudo-rules-scenarios"
    assert json.loads(schema.read_text())["title"] == "perudo-rules scenarios"
    code, _, err = run(capsys, "export-scenarios", "-", "--schema", "-")
    assert code == 2
    one_line(err, "standard output")


def test_a_failed_write_is_reported(capsys: Capsys) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("needs /dev/full")
    code, _, err = run(capsys, "export-scenarios", "/dev/full")
    assert code == 2
    one_line(err, "cannot write /dev/full")
