"""``perudo-rules play``: a terminal game driven through stdin, in process and in a subprocess."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from perudo_rules import Bid, Dudo, Game, load_variant, referee
from perudo_rules.base.actions import Action
from perudo_rules.cli import main
from perudo_rules.cli.play import TerminalGame


def run_play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    lines: list[str],
    *args: str,
) -> tuple[int, str, dict[str, object]]:
    out_file = tmp_path / "game.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    code = main(["play", *args, "--record-out", str(out_file)])
    text = capsys.readouterr().out
    return code, text, json.loads(out_file.read_text())


def opener(variant: str, players: int, seed: int) -> int:
    first = Game.new(load_variant(variant), players, seed=seed).first_player
    assert first is not None
    return first


def test_session_shows_the_table_and_refuses_illegal_moves(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    seat = opener("italian", 3, 1)
    lines = ["help", "dudo", "hello", "9x9", "16x2", "2 3"]
    code, out, record = run_play(
        monkeypatch, capsys, tmp_path, lines, "italian", "--players", "3", "--seed", "1",
        "--seat", str(seat),
    )  # fmt: skip
    assert code == 0
    game = Game.new(load_variant("italian"), 3, seed=1)
    own = " ".join(map(str, sorted(game.dice[seat])))
    assert f"your dice: {own}" in out
    assert "dice held: " in out and f"seat {seat} (you): 5" in out
    assert "5x4 or 5 4" in out  # help
    assert "not allowed: there is no bid to doubt yet [play.bid_needed]" in out
    assert "not understood: 'hello'" in out
    assert "not allowed: 9x9 is not a bid on a d6 [play.bid_range]" in out
    assert "[bidding.quantity_cap]" in out
    # the legal opening bid was taken and recorded, then input ended cleanly
    assert record["rounds"][0]["actions"][0] == f"{seat}:2x3"  # type: ignore[index]
    assert "game stopped." in out
    assert referee(record).valid  # type: ignore[arg-type]


def cycle(n: int) -> Iterator[str]:
    for _ in range(n):
        yield from ("", "dudo", "1x6")


@pytest.mark.parametrize("variant", ["italian", "spanish"])
def test_whole_game_to_the_end(
    variant: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    code, out, record = run_play(
        monkeypatch, capsys, tmp_path, list(cycle(400)), variant, "--players", "3", "--seed", "7"
    )
    assert code == 0
    verdict = referee(record)  # type: ignore[arg-type]
    assert verdict.valid and verdict.finished
    assert f"seat {verdict.winner}" in out.splitlines()[-2] and "wins the game." in out
    assert out.count(" shows ") >= len(verdict.rounds)  # lifted cups after each round
    assert "holds with probability" in out
    assert "record saved to" in out


def test_same_seed_and_input_same_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ("spanish", "--players", "4", "--seed", "3", "--seat", "1")
    first = run_play(monkeypatch, capsys, tmp_path, list(cycle(300)), *args)
    second = run_play(monkeypatch, capsys, tmp_path, list(cycle(300)), *args)
    assert first == second


class Script:
    """A bot that plays the given actions in order."""

    def __init__(self, actions: list[Action]) -> None:
        self.actions = actions

    def choose(self, game: Game, player: int) -> Action | None:
        if player != game.to_move:
            return None
        return self.actions.pop(0)


def test_refused_raise_names_the_rule_and_odds_are_exact() -> None:
    v = load_variant("italian")
    game = Game.start(v, [[2, 2, 3, 4, 6], [5, 5, 5, 5, 5]], first_player=1)
    inputs = iter(["2x5", "5x2", "quit"])
    written: list[str] = []
    tg = TerminalGame(
        game,
        seat=0,
        bots=[None, Script([Bid(1, 3, 5), Dudo(1)])],
        roll_seed=0,
        read=lambda prompt: next(inputs),
        write=written.append,
    )
    final = tg.run()
    text = "\n".join(written)
    assert "not allowed: 2x5 does not raise the standing bid 3x5 [bidding.order]" in text
    # 3x5 from seat 0's view: none of its dice count, 5 unknown dice, p = 1/3 each
    assert "the standing bid 3x5 holds with probability 0.210" in text
    assert "seat 0 (you) shows 2 2 3 4 6" in text and "seat 1 shows 5 5 5 5 5" in text
    assert (
        "Seat 1 calls dudo on 5x2 by seat 0 (you): 2 dice count in the lifted cups (seat 0 (you), "
        "seat 1); seat 0 (you) loses a die (4 left); seat 0 (you) opens an ordinary round"
    ) in text
    assert final.dice_counts == (4, 5) and final.history[0].actions[1] == Bid(0, 5, 2)


def test_end_of_input_at_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, record = run_play(monkeypatch, capsys, tmp_path, [], "italian", "--seed", "2")
    assert code == 0 and "game stopped." in out
    assert referee(record).valid  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["italian", "--players", "9"], "9 seats; italian plays with 2 to 6"),
        (["italian", "--seat", "5"], "--seat must be 0 to 3"),
        (["klingon"], "unknown variant"),
    ],
)
def test_bad_arguments(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["play", *args, "--record-out", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not (tmp_path / "x.json").exists()


def test_piped_stdin_in_a_subprocess(tmp_path: Path) -> None:
    seat = opener("spanish", 2, 5)
    out_file = tmp_path / "piped.json"
    proc = subprocess.run(
        [
            sys.executable, "-m", "perudo_rules", "play", "spanish", "--players", "2",
            "--seed", "5", "--seat", str(seat), "--record-out", str(out_file),
        ],
        input="help\n2x1\n3x4\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "[bidding.wild_opening]" in proc.stdout  # no opening bid on the wild face
    assert "game stopped." in proc.stdout
    record = json.loads(out_file.read_text())
    assert record["rounds"][0]["actions"][0] == f"{seat}:3x4"
    assert referee(record).valid


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_in_a_pseudo_terminal(tmp_path: Path) -> None:
    import os
    import pty
    import select

    seat = opener("italian", 3, 4)
    out_file = tmp_path / "tty.json"
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "perudo_rules", "play", "italian", "--players", "3",
            "--seed", "4", "--seat", str(seat), "--record-out", str(out_file),
        ],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        close_fds=True,
    )  # fmt: skip
    os.close(slave)
    os.write(master, b"7x7\n2x5\nquit\n")
    chunks: list[bytes] = []
    try:
        while True:
            ready, _, _ = select.select([master], [], [], 30)
            if not ready:
                break
            try:
                data = os.read(master, 4096)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
    finally:
        os.close(master)
        code = proc.wait(timeout=30)
    text = b"".join(chunks).decode("utf-8", "replace")
    assert code == 0, text
    assert "your move> " in text and "[play.bid_range]" in text
    assert "Traceback" not in text
    record = json.loads(out_file.read_text())
    assert record["rounds"][0]["actions"][0] == f"{seat}:2x5"
