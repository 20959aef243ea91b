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
    """Run the command line in-process: (exit code, stdout, stderr), within LIMIT_S of this
    process's CPU time (other jobs on the cores must not count)."""
    start = time.process_time()
    try:
        code = main(list(argv))
    except SystemExit as stop:  # argparse
        code = stop.code if isinstance(stop.code, int) else 2
    elapsed = time.process_time() - start
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
        (["simulate", "italian", "--players", "100000000"], "100000000 seats; italian plays"),
        (["simulate", "italian", "--workers", "100000"], "--workers must be 0 to 256"),
        (["play", "italian", "--players", "100000000"], "100000000 seats; italian plays"),
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


@pytest.mark.skipif(not Path("/proc/kmsg").exists(), reason="needs /proc/kmsg")
def test_extends_through_a_link_to_proc_kmsg_does_not_hang(capsys: Capsys, tmp_path: Path) -> None:
    (tmp_path / "kmsg.yaml").symlink_to("/proc/kmsg")
    house = write(tmp_path / "house.yaml", "extends: kmsg.yaml\n")
    code, _, err = run(capsys, "show", str(house))
    assert code == 2
    one_line(err, "kmsg")


def test_json_nested_100k_deep(capsys: Capsys, tmp_path: Path) -> None:
    deep = write(tmp_path / "deep.json", '{"dice": ' + "[" * 100_000 + "}")
    for argv in (
        ["referee", str(deep)],
        ["check", "italian", "--position", str(deep), "--bids", "1x2"],
    ):
        code, _, err = run(capsys, *argv)
        assert code == 2
        one_line(err, "invalid JSON")
    actions = {"dice": [[1], [2]], "first_player": 0, "actions": ["roll " + "[" * 100_000]}
    write(deep, json.dumps(actions))
    code, _, err = run(capsys, "check", "italian", "--position", str(deep), "--bids", "1x2")
    assert code == 2
    one_line(err, "not a roll")


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
    argv = ["export-scenarios", str(out), str(scenario), "--schema", str(scenario)]
    code, _, err = run(capsys, *argv)
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


# --- nothing a user typed or saved is lost ---------------------------------------------------


class _Stdin:
    """Lines, then ``end``: an exception to raise (Ctrl-C) or ``None`` (end of input)."""

    def __init__(self, lines: list[str], end: BaseException | None) -> None:
        self.lines, self.end = list(lines), end

    def readline(self) -> str:
        if self.lines:
            return self.lines.pop(0) + "\n"
        if self.end is not None:
            raise self.end
        return ""

    def isatty(self) -> bool:
        return False


def seat_to_open(players: int, seed: int) -> int:
    from perudo_rules import Game, load_variant

    first = Game.new(load_variant("italian"), players, seed=seed).first_player
    assert first is not None
    return first


@pytest.mark.parametrize(
    ("end", "code", "needle"),
    [
        (KeyboardInterrupt(), 130, "interrupted"),
        (UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"), 2, "not valid UTF-8"),
        (None, 0, ""),
    ],
)
def test_play_saves_the_record_whatever_ends_the_session(
    monkeypatch: pytest.MonkeyPatch,
    capsys: Capsys,
    tmp_path: Path,
    end: BaseException | None,
    code: int,
    needle: str,
) -> None:
    from perudo_rules import referee

    seat = seat_to_open(3, 5)
    monkeypatch.setattr(sys, "stdin", _Stdin(["2x3"], end))
    record = tmp_path / "game.json"
    args = ["play", "italian", "--players", "3", "--seed", "5", "--seat", str(seat)]
    got, out, err = run(capsys, *args, "--record-out", str(record))
    assert got == code
    assert f"record saved to {record}" in out
    assert needle in err
    saved = json.loads(record.read_text())
    assert saved["rounds"][0]["actions"][0] == f"{seat}:2x3"
    assert referee(saved).valid
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left


def test_play_checks_the_record_path_before_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: Capsys, tmp_path: Path
) -> None:
    monkeypatch.setattr(sys, "stdin", _Stdin(["2x3"], None))
    for target, needle in [
        (tmp_path / "missing" / "game.json", "no such folder"),
        (tmp_path, "it is a directory"),
    ]:
        code, out, err = run(capsys, "play", "italian", "--record-out", str(target))
        assert code == 2 and out == ""  # refused before the first screen
        one_line(err, needle)
    house = write(tmp_path / "house.yaml", "extends: italian\n")
    code, out, err = run(capsys, "play", str(house), "--record-out", str(house))
    assert code == 2 and out == "" and house.read_text() == "extends: italian\n"
    one_line(err, "it is an input of this run")


def test_simulate_outputs(capsys: Capsys, tmp_path: Path) -> None:
    a = write(tmp_path / "a.yaml", "extends: italian\nid: same\n")
    b = write(tmp_path / "b.yaml", "extends: spanish\nid: same\n")
    records = tmp_path / "records"
    code, out, err = run(
        capsys, "simulate", str(a), str(b), "--games", "2", "--save-records", str(records)
    )
    assert code == 2 and out == "" and not records.exists()
    one_line(err, "two variants share the id")
    code, out, err = run(capsys, "simulate", str(a), "--games", "1", "--plot", str(a))
    assert code == 2 and out == ""
    one_line(err, "it is an input of this run")
    code, _, err = run(capsys, "simulate", "italian", "--games", "1", "--plot", "x.nope")
    assert code == 2
    one_line(err, "cannot draw a .nope file")
    if Path("/dev/full").exists():
        code, out, err = run(capsys, "simulate", "italian", "--games", "2", "--plot", "/dev/full")
        assert code == 2
        assert "rounds per game" in out  # the figures are out before the plot fails
        one_line(err, "cannot write /dev/full: No space left on device")


# --- text from files is escaped -------------------------------------------------------------


def test_show_escapes_control_characters_from_the_file(capsys: Capsys, tmp_path: Path) -> None:
    evil = write(
        tmp_path / "evil.yaml",
        'extends: italian\nname: "Evil\\e[2J\\e]0;pwned\\a"\n'
        'description: "clear \\e[H\\u202e screen \\x9b"\n',
    )
    for argv in (["show", str(evil)], ["show", str(evil), "--json"], ["validate", str(evil)]):
        code, out, _ = run(capsys, *argv)
        assert code == 0
        assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
        assert "\x9b" not in out
        if "--json" in argv:
            assert json.loads(out)["name"] == "Evil\x1b[2J\x1b]0;pwned\x07"
        else:
            assert "Evil\\x1b[2J" in out
    code, out, _ = run(capsys, "compare", "italian", str(evil), "--no-witnesses")
    assert code == 0 and "\x1b" not in out


def test_a_file_name_with_a_newline_gives_one_error_line(capsys: Capsys, tmp_path: Path) -> None:
    bad = write(tmp_path / "two\nlines.yaml", "extends: italian\ndice:\n  per_player: 9\n")
    code, out, err = run(capsys, "show", str(bad))
    assert code == 2 and out == ""
    one_line(err, "two\\nlines.yaml:3: dice.per_player")
    code, out, _ = run(capsys, "validate", str(bad))
    assert code == 2 and len(out.splitlines()) == 1


def test_a_latin1_file_name_under_a_strict_utf8_stdout(tmp_path: Path) -> None:
    name = os.path.join(os.fsencode(tmp_path), b"caf\xe9.yaml")
    with open(name, "wb") as fh:
        fh.write(b"extends: italian\nname: Cafe\n")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
    for argv in (["validate", name], ["show", name, "--brief"], ["validate", "--json", name]):
        proc = subprocess.run(
            [sys.executable.encode(), b"-m", b"perudo_rules", *argv],
            capture_output=True,
            env=env,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        assert b"Traceback" not in proc.stderr
    assert (
        b"caf\\xe9.yaml: OK"
        in subprocess.run(
            [sys.executable.encode(), b"-m", b"perudo_rules", b"validate", name],
            capture_output=True,
            env=env,
            timeout=60,
        ).stdout
    )


def test_validate_json_prints_every_file(capsys: Capsys, tmp_path: Path) -> None:
    good = write(tmp_path / "good.yaml", "extends: italian\n")
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    (tmp_path / "l1.yaml").symlink_to(tmp_path / "l2.yaml")
    (tmp_path / "l2.yaml").symlink_to(tmp_path / "l1.yaml")
    files = [str(good), str(fifo), str(tmp_path), str(tmp_path / "l1.yaml"), "nul\0.yaml"]
    files += [str(write(tmp_path / "deep.yaml", "a: " + "[" * 100_000))]
    code, out, _ = run(capsys, "validate", "--json", *files)
    assert code == 2
    data = json.loads(out)
    assert [d["file"] for d in data] == files
    assert [d["ok"] for d in data] == [True, False, False, False, False, False]
    for d in data[1:]:
        assert d["error"] and "\n" not in d["error"]


# --- big but valid variants: bounded work ------------------------------------------------------

BIG = {
    # 250 seats of 5 d6: the odds of 1245 unseen dice once overflowed a float
    "seats250.yaml": "extends: italian\nid: seats250\nplayers:\n  max: 250\n",
    # 10 seats of 5000 d2 (the largest table of 100,000 bids): exact odds took minutes
    "d2.yaml": (
        "extends: italian\nid: d2\nplayers:\n  max: 10\ndice:\n  faces: 2\n  per_player: 5000\n"
        "  max_per_player: 5000\ncalza:\n  gain_cap: 5000\nwild:\n  face: null\n"
    ),
    "d100.yaml": "extends: italian\nid: d100\ndice:\n  faces: 100\n",
}


@pytest.mark.parametrize(("name", "players"), [("seats250.yaml", "250"), ("d2.yaml", "10")])
def test_play_on_big_tables_answers_in_seconds(
    monkeypatch: pytest.MonkeyPatch, capsys: Capsys, tmp_path: Path, name: str, players: str
) -> None:
    variant = write(tmp_path / name, BIG[name])
    monkeypatch.setattr(sys, "stdin", _Stdin(["1x2", "", "", "quit"], None))
    record = tmp_path / "game.json"
    code, out, _ = run(
        capsys, "play", str(variant), "--players", players, "--seed", "1",
        "--record-out", str(record),
    )  # fmt: skip
    assert code == 0 and "record saved" in out
    assert max(len(line) for line in out.splitlines()) < 5000
    if name == "d2.yaml":
        assert "holds with probability" in out and " x 1, " in out  # a cup of 5000, by face


def test_simulate_a_250_seat_variant_does_not_overflow(tmp_path: Path) -> None:
    from perudo_rules import Game, load_variant
    from perudo_rules.analysis.bots import BaselineBot
    from perudo_rules.analysis.probability import bid_probability_float, exact_probability_float

    assert 0.0 < bid_probability_float(0, 1245, 400, 3, 6, 1) < 1.0
    assert 0.0 < exact_probability_float(2, 1245, 415, 3, 6, 1) < 1.0
    assert bid_probability_float(0, 49_995, 25_000, 1, 2, None) == pytest.approx(0.5, abs=0.01)
    variant = load_variant(write(tmp_path / "seats250.yaml", BIG["seats250.yaml"]))
    game = Game.new(variant, 250, seed=1)
    start = time.process_time()  # CPU time: other jobs on the cores must not count
    for _ in range(20):  # a few hundred bids of a 250-seat round, as simulate plays them
        seat = game.to_move
        assert seat is not None
        action = BaselineBot(seed=seat).choose(game, seat)
        assert action is not None
        game = game.apply(action)
        if game.to_move is None:
            break
    assert time.process_time() - start < LIMIT_S


def test_compare_against_big_variants_finishes_in_seconds(capsys: Capsys, tmp_path: Path) -> None:
    d100 = write(tmp_path / "d100.yaml", BIG["d100.yaml"])
    code, out, _ = run(capsys, "compare", "italian", str(d100), "--max-dice", "6")
    assert code == 0 and "dice.faces" in out
