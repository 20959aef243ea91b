"""The one output writer (issue 15): checked before the work, atomic, never over an input."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from perudo_rules.base.errors import OutputError
from perudo_rules.base.output import Outputs, write_bytes, write_text


def test_a_write_replaces_the_file_whole_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "out.json"
    target.write_text("old")
    target.chmod(0o640)
    write_text(target, "new")
    assert target.read_text() == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_a_failed_write_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "out.json"
    target.write_text("old")

    def full(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(OutputError, match=r"cannot write .*out\.json: No space left on device"):
        write_text(target, "new")
    assert target.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json"]


def test_a_symbolic_link_is_kept_and_its_file_replaced(tmp_path: Path) -> None:
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_text(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_devices_are_written_in_place_and_failures_reported() -> None:
    write_bytes("/dev/null", b"x")
    with pytest.raises(OutputError, match="cannot write /dev/full: No space left on device"):
        write_bytes("/dev/full", b"x" * 10_000)


def test_a_fifo_nobody_reads_is_an_error_not_a_hang(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="a FIFO that nobody reads"):
        write_text(fifo, "x")
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    for _ in range(200):  # once someone reads, the write goes through
        try:
            write_text(fifo, "hello")
            break
        except OutputError:
            threading.Event().wait(0.01)
    reader.join(5)
    assert got == [b"hello"]


def test_outputs_are_checked_before_the_work(tmp_path: Path) -> None:
    source = tmp_path / "in.yaml"
    source.write_text("x")
    outputs = Outputs([source, "italian", "-"])
    with pytest.raises(OutputError, match="it is an input of this run"):
        outputs.add(source)
    os.link(source, tmp_path / "hard.yaml")
    with pytest.raises(OutputError, match="it is an input of this run"):
        outputs.add(tmp_path / "hard.yaml")  # the same file by another name
    assert outputs.add(tmp_path / "a.json", "OUT") == tmp_path / "a.json"
    with pytest.raises(OutputError, match="OUT and --schema name the same file"):
        outputs.add(tmp_path / "sub" / ".." / "a.json", "--schema")
    for bad, needle in [
        (tmp_path, "it is a directory"),
        (tmp_path / "no" / "x.json", "no such folder"),
        ("nul\0.json", "NUL byte"),
        (tmp_path / ("a" * 300), "file name too long"),
        ("", "an empty file name"),
    ]:
        with pytest.raises(OutputError, match=needle):
            outputs.add(bad)
    if os.geteuid() != 0:  # root may write anywhere
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        with pytest.raises(OutputError, match="not writable"):
            outputs.add(locked / "x.json")


def test_an_output_folder_is_made_or_refused(tmp_path: Path) -> None:
    outputs = Outputs()
    assert outputs.add_folder(tmp_path / "a" / "b").is_dir()
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="exists and is not a folder"):
        outputs.add_folder(tmp_path / "file")
