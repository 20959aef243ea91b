"""The engine under test cannot block, fill or outlive the kit (issue 33, items 1, 2, 3, 6):
every write has a deadline, standard error is kept only as a tail, the engine's whole
process group ends with it, and its own words are echoed short."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from perudo_rules.conform.process import ECHO, ERR_TAIL, Engine, HarnessError

HELLO = '{"name": "hostile", "claims": []}'
ROOT = Path(__file__).resolve().parent.parent


def _engine(tmp_path: Path, body: str) -> str:
    """The command of a Python engine whose main program is ``body``."""
    path = tmp_path / "engine.py"
    path.write_text("import sys, os, time\n" + body, encoding="utf-8")
    return f"{sys.executable} {path}"


def _gone(pid: int, within: float = 10.0) -> bool:
    """Whether process ``pid`` is gone (or a zombie) within ``within`` seconds."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        status = Path(f"/proc/{pid}/stat")
        if status.exists() and status.read_text().split()[2] == "Z":
            return True
        time.sleep(0.05)
    return False


def test_an_engine_that_stops_reading_cannot_block_a_write(tmp_path: Path) -> None:
    command = _engine(
        tmp_path,
        f"sys.stdout.write({HELLO!r} + '\\n'); sys.stdout.flush(); sys.stdin.readline()\n"
        "time.sleep(600)\n",
    )
    engine = Engine(command, timeout=1.0)
    try:
        assert engine.ask({"cmd": "hello"})["name"] == "hostile"
        started = time.monotonic()
        with pytest.raises(HarnessError, match="did not read the request"):
            for _ in range(100):  # far more than a pipe holds
                engine.send({"cmd": "noise", "pad": "x" * 65536})
        assert time.monotonic() - started < 30
    finally:
        started = time.monotonic()
        engine.close()  # writes nothing that could block; ends the engine
        assert time.monotonic() - started < 30
    assert _gone(engine._proc.pid)


def test_a_flood_on_standard_error_keeps_only_its_tail(tmp_path: Path) -> None:
    command = _engine(
        tmp_path,
        "chunk = b'e' * 65536\n"
        "for _ in range(800): sys.stderr.buffer.write(chunk)\n"  # 50 MiB
        "sys.stderr.buffer.write(b'\\nthe last words of the engine\\n'); sys.stderr.flush()\n"
        "sys.exit(3)\n",
    )
    with Engine(command, timeout=20.0) as engine:
        with pytest.raises(HarnessError) as caught:
            engine.ask({"cmd": "hello"})
        assert len(engine._tail) <= ERR_TAIL
    text = str(caught.value)
    assert "exited with status 3" in text and text.endswith("the last words of the engine")


def test_an_engine_behind_a_launcher_ends_with_it(tmp_path: Path) -> None:
    """A shell script that starts the real engine: closing the kit's engine ends both."""
    child = tmp_path / "child.py"
    pidfile = tmp_path / "child.pid"
    child.write_text(
        "import os, sys, time\n"
        f"open({str(pidfile)!r}, 'w').write(str(os.getpid()))\n"
        f"sys.stdout.write({HELLO!r} + '\\n'); sys.stdout.flush()\n"
        "time.sleep(600)\n",
        encoding="utf-8",
    )
    launcher = tmp_path / "launch.sh"
    launcher.write_text(f"#!/bin/sh\n{sys.executable} {child} &\nwait\n", encoding="utf-8")
    launcher.chmod(0o755)
    engine = Engine(str(launcher), timeout=10.0)
    assert engine.ask({"cmd": "hello"})["name"] == "hostile"
    pid = int(pidfile.read_text())
    engine.close()
    assert _gone(engine._proc.pid) and _gone(pid)


def test_an_engines_long_error_is_echoed_short(tmp_path: Path) -> None:
    command = _engine(
        tmp_path,
        "sys.stdout.write('{\"error\": \"' + 'boom ' * 600000 + '\"}\\n'); sys.stdout.flush()\n"
        "time.sleep(600)\n",
    )
    with Engine(command, timeout=20.0) as engine, pytest.raises(HarnessError) as caught:
        engine.ask({"cmd": "hello"})
    text = str(caught.value)
    assert "\n" not in text and len(text) < ECHO + 100 and text.count("boom") >= 10


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_stops_conform_and_every_engine_of_its_workers(
    tmp_path: Path, signum: int
) -> None:
    """``conform --workers 2`` stopped by SIGTERM or Ctrl-C (SIGINT to its own process):
    it says so in one line, exits 130 at once, and leaves no engine running."""
    pids = tmp_path / "pids"
    launcher = tmp_path / "engine.sh"
    launcher.write_text(
        f"#!/bin/sh\necho $$ >> {pids}\nexec {sys.executable} -m perudo_rules.harness.stepapi\n",
        encoding="utf-8",
    )
    launcher.chmod(0o755)
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen(
        [sys.executable, "-m", "perudo_rules", "conform", "--engine", str(launcher),
         "--workers", "2", "--games", "500", "--edition", "italian", "--edition", "spanish"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=ROOT,
    )  # fmt: skip
    try:
        end = time.monotonic() + 120
        while time.monotonic() < end:  # the greeting engine, then one per worker
            if pids.exists() and len(pids.read_text().split()) >= 3:
                break
            time.sleep(0.1)
        assert pids.exists() and len(pids.read_text().split()) >= 3
        time.sleep(1.0)
        proc.send_signal(signum)
        signalled = time.monotonic()
        _, err = proc.communicate(timeout=120)
        took = time.monotonic() - signalled
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    # at once, not after the editions' 500 games (which take the better part of a minute)
    assert took < 20, took
    assert err.decode().strip().splitlines()[-1].startswith("perudo-rules: interrupted")
    for pid in map(int, pids.read_text().split()):
        assert _gone(pid), pid


def test_an_engine_that_closes_its_input_is_said_to_have_closed_its_input(tmp_path: Path) -> None:
    # the engine answers hello, then closes its standard input and lives on: the next
    # request cannot be written, and the kit says which pipe was closed (not its output)
    command = _engine(
        tmp_path,
        f"sys.stdout.write({HELLO!r} + '\\n'); sys.stdout.flush(); sys.stdin.readline()\n"
        "os.close(0)\ntime.sleep(600)\n",
    )
    engine = Engine(command, timeout=5.0)
    try:
        assert engine.ask({"cmd": "hello"})["name"] == "hostile"
        time.sleep(0.5)  # most likely closed by now; if not, the writes wait until it is
        with pytest.raises(HarnessError) as caught:
            for _ in range(50):
                engine.send({"cmd": "noise", "pad": "x" * 65536})
        said = str(caught.value)
        assert "closed its input" in said and "output" not in said
    finally:
        engine.close()


def test_an_engine_that_closes_its_output_is_said_to_have_closed_its_output(tmp_path: Path) -> None:
    command = _engine(
        tmp_path,
        f"sys.stdout.write({HELLO!r} + '\\n'); sys.stdout.flush(); sys.stdin.readline()\n"
        "os.close(1)\nsys.stdin.readline()\ntime.sleep(600)\n",
    )
    engine = Engine(command, timeout=5.0)
    try:
        assert engine.ask({"cmd": "hello"})["name"] == "hostile"
        with pytest.raises(HarnessError) as caught:
            engine.ask({"cmd": "start"})
        said = str(caught.value)
        assert "closed its output" in said and "input" not in said
    finally:
        engine.close()
