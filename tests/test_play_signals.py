"""Hostile input, third pass (issue 19): ``perudo-rules play`` never loses the game record.

SIGTERM and SIGHUP save it as Ctrl-C does (then exit 128 + the signal, one line on
standard error); a record folder deleted or replaced by a file during the game sends the
record to a fresh file in the current or the temporary folder, named in one line; and
when nothing can be written the record is printed to standard error as JSON.
"""

from __future__ import annotations

import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from perudo_rules import Game, load_variant, referee, replay
from perudo_rules.cli import main, play
from perudo_rules.cli.play import save_record
from tests.test_cli_hostile import Capsys, one_line

ROOT = Path(__file__).resolve().parent.parent
SEED = 5
posix_only = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def opener(players: int = 3) -> int:
    first = Game.new(load_variant("italian"), players, seed=SEED).first_player
    assert first is not None
    return first


def start(record: Path, cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """``play`` in a subprocess, the human seat opening, stdin and stdout as pipes."""
    argv = [
        sys.executable, "-m", "perudo_rules", "play", "italian", "--players", "3",
        "--seed", str(SEED), "--seat", str(opener()), "--record-out", str(record),
    ]  # fmt: skip
    environ = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.Popen(
        argv, cwd=cwd, env=environ, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip


def read_until(proc: subprocess.Popen[bytes], prompts: int, timeout: float = 30) -> str:
    """Standard output until ``prompts`` prompts (``> `` at the end) have been printed."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    text = b""
    deadline = time.monotonic() + timeout
    while text.count(b"> ") < prompts:
        left = deadline - time.monotonic()
        ready, _, _ = select.select([fd], [], [], max(left, 0))
        assert ready, f"no prompt in {timeout}s: {text.decode(errors='replace')}"
        chunk = os.read(fd, 65536)
        assert chunk, f"play ended early: {text.decode(errors='replace')}"
        text += chunk
    return text.decode()


def type_line(proc: subprocess.Popen[bytes], line: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(line.encode() + b"\n")
    proc.stdin.flush()


def finish(proc: subprocess.Popen[bytes], shown: str) -> tuple[int, str, str]:
    """Wait for the end: (exit code, all standard output, standard error)."""
    out, err = proc.communicate(timeout=30)
    return proc.returncode, shown + out.decode(), err.decode()


def assert_replays(path: Path) -> None:
    """The saved record replays, and holds the human's opening bid."""
    record = json.loads(path.read_text())
    game = replay(record)
    assert game.round >= 1
    assert record["rounds"][0]["actions"][0] == f"{opener()}:2x3"
    assert referee(record).valid


# --- SIGTERM and SIGHUP ----------------------------------------------------------------------


@posix_only
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_stop_signal_saves_the_record_as_ctrl_c_does(name: str, tmp_path: Path) -> None:
    sig = getattr(signal, name)
    record = tmp_path / "game.json"
    proc = start(record, tmp_path)
    shown = read_until(proc, 1)
    type_line(proc, "2x3")
    shown += read_until(proc, 1)  # the bots played; play waits for the human again
    proc.send_signal(sig)  # keep stdin open: play is blocked reading a line
    code, out, err = finish(proc, shown)
    assert code == 128 + sig, (code, err)
    one_line(err, f"perudo-rules: stopped by {name}")
    assert f"record saved to {record}" in out
    assert_replays(record)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary left


@posix_only
def test_the_signal_guard_raises_once_then_ignores(monkeypatch: pytest.MonkeyPatch) -> None:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    before = {s: signal.getsignal(s) for s in (*play.STOP_SIGNALS, signal.SIGINT)}
    guard = play._SignalGuard()
    guard.arm()
    try:
        with pytest.raises(play._Stopped) as stopped:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)  # the handler runs at once; this is never reached
        assert stopped.value.signum == signal.SIGTERM
        guard.disarm()
        for sig in (*play.STOP_SIGNALS, signal.SIGINT):  # while the record is saved
            os.kill(os.getpid(), sig)
        time.sleep(0.05)
    finally:
        guard.restore()
    assert {s: signal.getsignal(s) for s in before} == before


# --- the record's folder goes away during the game ------------------------------------------


FALLBACK = re.compile(r"the record is saved to (\S+) instead \(check it")


def fallback_path(err: str, *needles: str) -> Path:
    line = one_line(err, "perudo-rules: error: cannot write", *needles)
    match = FALLBACK.search(line)
    assert match, line
    return Path(match.group(1))


def test_a_deleted_folder_sends_the_record_to_the_current_folder(tmp_path: Path) -> None:
    games, here = tmp_path / "games", tmp_path / "here"
    games.mkdir()
    here.mkdir()
    proc = start(games / "game.json", here)
    shown = read_until(proc, 1)
    type_line(proc, "2x3")
    shown += read_until(proc, 1)
    shutil.rmtree(games)
    type_line(proc, "quit")
    code, out, err = finish(proc, shown)
    assert code == 2, err
    saved = fallback_path(err, str(games / "game.json"))
    assert saved.parent == here and saved.name.startswith(f"perudo-italian-seed{SEED}-")
    assert "record saved to" not in out
    assert_replays(saved)


def test_a_folder_replaced_by_a_file_sends_the_record_to_the_temporary_folder(
    tmp_path: Path,
) -> None:
    # the game runs in the folder that goes away, so the current folder is gone too
    games, spare = tmp_path / "games", tmp_path / "spare"
    games.mkdir()
    spare.mkdir()
    proc = start(games / "game.json", games, env={"TMPDIR": str(spare)})
    shown = read_until(proc, 1)
    type_line(proc, "2x3")
    shown += read_until(proc, 1)
    shutil.rmtree(games)
    games.write_text("a file where the folder was\n")
    type_line(proc, "quit")
    code, _, err = finish(proc, shown)
    assert code == 2, err
    saved = fallback_path(err)
    assert saved.parent == spare
    assert_replays(saved)


class _Stdin:
    """Types ``2x3``, runs ``then`` (the folder goes away), then the input ends."""

    def __init__(self, then: object) -> None:
        self.lines = ["2x3\n"]
        self.then = then

    def readline(self) -> str:
        if self.lines:
            return self.lines.pop()
        if callable(self.then):
            self.then()
            self.then = None
        return ""

    def isatty(self) -> bool:
        return False


def test_when_nothing_can_be_written_the_record_goes_to_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: Capsys, tmp_path: Path
) -> None:
    games = tmp_path / "games"
    games.mkdir()
    monkeypatch.setattr(sys, "stdin", _Stdin(lambda: shutil.rmtree(games)))
    monkeypatch.setattr(play, "fallback_folders", lambda: [str(tmp_path / "none")])
    argv = ["play", "italian", "--players", "3", "--seed", str(SEED), "--seat", str(opener())]
    code = main([*argv, "--record-out", str(games / "game.json")])
    out, err = capsys.readouterr()
    assert code == 2
    first, second = err.splitlines()
    assert first.startswith("perudo-rules: error: cannot write") and "one line of JSON" in first
    assert str(tmp_path / "none") in first
    record = json.loads(second)
    replay(record)
    assert record["rounds"][0]["actions"][0] == f"{opener()}:2x3"
    assert "record saved to" not in out


def test_save_record_tries_each_folder_in_turn(tmp_path: Path) -> None:
    good = tmp_path / "good"
    good.mkdir()
    target = tmp_path / "gone" / "game.json"
    where, problem = save_record("{}\n", target, "stem", [str(tmp_path / "none"), str(good)])
    assert problem is not None and str(target) in str(problem)
    assert where is not None and where.parent == good and where.name.startswith("stem-")
    assert where.read_text() == "{}\n"
    # a second save never overwrites the first
    again, _ = save_record("[]\n", target, "stem", [str(good)])
    assert again != where and where.read_text() == "{}\n"
    assert save_record("{}\n", target, "stem", [str(tmp_path / "none")])[0] is None
    ok = tmp_path / "ok.json"
    assert save_record("{}\n", ok, "stem", []) == (ok, None)
