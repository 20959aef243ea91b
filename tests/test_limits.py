"""Hostile input, second pass (issue 15): the library's limits, file reading and replay.

Every case raises one of the documented errors (``VariantError``, ``RecordError``,
``ScenarioError``, ``ValueError``) on one line and fast, before any large allocation;
the command-line cases are in ``tests/test_cli_hostile.py``.
"""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perudo_rules import RecordError, VariantError, load_variant, referee, replay
from perudo_rules.base.limits import (
    MAX_BIDS,
    MAX_EXTENDS,
    MAX_FILE_BYTES,
    MAX_PLAYERS,
    check_count,
    read_bounded,
)
from perudo_rules.conform.scenarios import ScenarioError, load_scenarios
from perudo_rules.editions.variantfile import (
    available_variants,
    extends_chain,
    variant_from_document,
)
from perudo_rules.records.record import to_record
from tests.strategies import new_games
from tests.test_hostile import RECORD, expect_error, mutated
from tests.test_record import play


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


# --- extends ---------------------------------------------------------------------------------


def test_a_600_file_extends_chain_is_refused_without_recursion(tmp_path: Path) -> None:
    write(tmp_path / "c0.yaml", "extends: italian\n")
    for i in range(1, 600):
        write(tmp_path / f"c{i}.yaml", f"extends: c{i - 1}.yaml\n")
    text = expect_error(
        lambda: load_variant(tmp_path / "c599.yaml"), VariantError, f"longer than {MAX_EXTENDS}"
    )
    assert "extends" in text
    # a chain within the limit loads
    assert load_variant(tmp_path / f"c{MAX_EXTENDS - 2}.yaml").id == f"c{MAX_EXTENDS - 2}"


def test_an_extends_symlink_loop_is_a_variant_error(tmp_path: Path) -> None:
    (tmp_path / "loop1.yaml").symlink_to(tmp_path / "loop2.yaml")
    (tmp_path / "loop2.yaml").symlink_to(tmp_path / "loop1.yaml")
    house = write(tmp_path / "house.yaml", "extends: loop1.yaml\n")
    text = expect_error(lambda: load_variant(house), VariantError, "symbolic-link loop")
    assert text.startswith(f"{house}:1: extends: ")
    expect_error(lambda: load_variant(tmp_path / "loop1.yaml"), VariantError, "loop")
    assert extends_chain(tmp_path / "loop1.yaml") == []
    assert extends_chain(house) == [house.resolve()]


@pytest.mark.parametrize(
    ("name", "needle"),
    [("a" * 300 + ".yaml", "file name too long"), ("nul\0.yaml", "NUL")],
)
def test_names_that_cannot_be_files(tmp_path: Path, name: str, needle: str) -> None:
    expect_error(lambda: load_variant(str(tmp_path / name)), VariantError, needle)
    # as a bundled id: only the bundled names are tried, never a file built from the text
    text = expect_error(lambda: load_variant(name[:-5] * 10), VariantError, "unknown variant")
    bundled = ", ".join(available_variants())
    assert len(text) < 130 + len(bundled)  # the name is cut short, not echoed whole
    house = write(tmp_path / "house.yaml", f"extends: {json.dumps(name)}\n")
    expect_error(lambda: load_variant(house), VariantError, needle)


def test_fifo_device_and_proc_files_are_refused_unread(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    expect_error(lambda: load_variant(fifo), VariantError, "not a regular file")
    expect_error(lambda: load_scenarios([fifo]), ScenarioError, "not a regular file")
    expect_error(lambda: load_scenarios(["/dev/zero"]), ScenarioError, "not a regular file")
    expect_error(lambda: referee("/dev/zero"), RecordError, "not a regular file")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    house = write(tmp_path / "house.yaml", "extends: zero.yaml\n")
    expect_error(lambda: load_variant(house), VariantError, "outside the folder")
    house = write(tmp_path / "house.yaml", "extends: fifo.yaml\n")
    expect_error(lambda: load_variant(house), VariantError, "not a regular file")
    (tmp_path / "fifo-link.yaml").symlink_to(fifo)
    expect_error(lambda: load_scenarios([tmp_path / "fifo-link.yaml"]), ScenarioError, "regular")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_a_proc_file_is_read_no_further_than_the_limit() -> None:
    # /proc files report a size of 0; the read stops one byte past the limit all the same
    expect_error(lambda: read_bounded("/proc/self/status", 10, RecordError), RecordError, "large")


def test_extends_may_not_name_an_absolute_path_or_a_non_yaml_file(tmp_path: Path) -> None:
    for ref in ("/proc/kmsg", "/etc/passwd", str(tmp_path / "base.yaml")):
        house = write(tmp_path / "house.yaml", f"extends: {ref}\n")
        text = expect_error(lambda h=house: load_variant(h), VariantError, "absolute path")
        assert text.startswith(f"{house}:1: extends: ")
    house = write(tmp_path / "house.yaml", "extends: ../../etc/passwd\n")
    expect_error(lambda: load_variant(house), VariantError, "names a .yaml or .yml file")
    # relative paths are what extends is for; .. only while it stays in the file's folder
    write(tmp_path / "base.yaml", "extends: italian\nname: Base\n")
    sub = write(tmp_path / "sub" / "house.yaml", "extends: ../base.yaml\n")
    expect_error(lambda: load_variant(sub), VariantError, "outside the folder")
    house = write(tmp_path / "house.yaml", "extends: sub/../base.yaml\n")
    assert load_variant(house).name == "Base"
    # load_variant itself takes any path the caller gives
    assert load_variant(str((tmp_path / "base.yaml").resolve())).name == "Base"


def test_a_child_files_bad_value_is_reported_at_the_childs_line(tmp_path: Path) -> None:
    base = write(tmp_path / "base.yaml", "extends: italian\nname: Base\n")
    child = write(tmp_path / "child.yaml", "extends: base.yaml\n\ndice:\n  max_per_player: 3\n")
    with pytest.raises(VariantError) as e:
        load_variant(child)
    assert (e.value.file, e.value.line, e.value.key_path) == (str(child), 4, "dice.max_per_player")
    assert "more starting dice than dice.max_per_player (5 > 3)" in str(e.value)
    # a conflict made in the base alone stays the base's
    write(base, "extends: italian\ndice:\n  per_player: 6\n")
    write(child, "extends: base.yaml\nname: Child\n")
    with pytest.raises(VariantError) as e:
        load_variant(child)
    assert e.value.file == str(base.resolve()) and e.value.key_path == "dice.per_player"


def test_documents_in_memory_are_bounded_too() -> None:
    deep: Any = {}
    node = deep
    for _ in range(100_000):
        node["x"] = {}
        node = node["x"]
    expect_error(lambda: variant_from_document(deep), VariantError, "nesting deeper than")
    expect_error(lambda: load_variant("italian", overrides={"x": deep}), VariantError, "nesting")
    expect_error(lambda: variant_from_document([]), VariantError, "mapping")  # type: ignore[arg-type]


def test_a_5000_digit_integer_in_yaml(tmp_path: Path) -> None:
    house = write(tmp_path / "h.yaml", "extends: italian\ndice:\n  per_player: " + "9" * 5000)
    expect_error(lambda: load_variant(house), VariantError, "invalid YAML")


def test_a_file_just_over_the_limit_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path / "big.yaml", "#" * (MAX_FILE_BYTES + 1))
    expect_error(lambda: load_variant(path), VariantError, "file too large")


# --- sizes -----------------------------------------------------------------------------------


def test_check_count_refuses_before_allocating() -> None:
    assert check_count("--players", 4, 2, 6) == 4
    with pytest.raises(ValueError, match="--dice must be 1 to 5, not 100000000"):
        check_count("--dice", 10**8, 1, 5)
    with pytest.raises(ValueError, match=r"not 100000...000000 \(3000 digits\)"):
        check_count("--games", 10**2999, 1, 10)
    with pytest.raises(ValueError, match="not a number of about 10000 digits"):
        check_count("--games", 10**9999, 1, 10)
    with pytest.raises(ValueError, match="whole number"):
        check_count("--games", 2.5, 1, 10)
    assert MAX_PLAYERS == 1000 and MAX_BIDS == 100_000


# --- records ---------------------------------------------------------------------------------


def big_record(bids: int) -> dict[str, Any]:
    """A record of one round of ``bids`` legal bids (10 seats of 100 d100: 100,000 bids rank)."""
    variant = {
        "extends": "italian",
        "id": "big",
        "name": "Big",
        "players": {"max": 10},
        "dice": {"faces": 100, "per_player": 100, "max_per_player": 100},
        "calza": {"gain_cap": 100},
        "wild": {"face": None},
    }
    rng = random.Random(1)
    dice = [[rng.randint(1, 100) for _ in range(100)] for _ in range(10)]
    actions = [f"{i % 10}:{i // 100 + 1}x{i % 100 + 1}" for i in range(bids)]
    return {
        "format": "perudo-rules-record",
        "version": 1,
        "variant": variant,
        "seats": 10,
        "rounds": [{"round": 1, "first_player": 0, "palifico": False, "dice": dice,
                    "actions": actions}],
    }  # fmt: skip


def test_100k_bids_in_one_round_replay_in_linear_time() -> None:
    record = big_record(99_999)
    start = time.process_time()  # CPU time: other jobs on the cores must not count
    verdict = referee(record)
    game = replay(record)
    elapsed = time.process_time() - start
    assert verdict.valid and len(game.bids) == 99_999 and game.to_move == 9
    assert elapsed < 10, f"{elapsed:.1f}s"
    # a bad bid deep in the round is still found, at its step, with the same verdict
    record["rounds"][0]["actions"][50_000] = "0:1x1"
    bad = referee(record).violation
    assert bad is not None and (bad.step, bad.rule) == (50_001, "bidding.order")


def test_palifico_used_naming_a_missing_seat_is_blamed_on_that_key() -> None:
    record = big_record(1)
    record["setup"] = {"palifico_used": [0, 12]}
    with pytest.raises(RecordError) as e:
        referee(record)
    assert e.value.key_path == "setup.palifico_used.1"
    assert "seat 12 does not exist: the game has 10 seats" in str(e.value)


# --- the documented limits are the enforced ones -----------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_and_the_spec_state_the_limits() -> None:
    from perudo_rules.base import limits

    def n(value: int) -> str:
        return f"{value:,}"

    stated = [
        n(limits.MAX_PLAYERS),
        n(limits.MAX_BIDS),
        f"{limits.MAX_FILE_BYTES >> 10} KiB, {n(limits.MAX_NODES)} YAML nodes, nested "
        f"{limits.MAX_DEPTH} levels deep",
        f"{limits.MAX_EXTENDS} files",
        f"{limits.MAX_POSITION_BYTES >> 20} MiB",
        f"{n(limits.MAX_STEPS)} actions",
        f"{limits.MAX_RECORD_BYTES >> 20} MiB, {n(limits.MAX_RECORD_NODES)} JSON values, "
        f"{n(limits.MAX_RECORD_BIDS)} ranked bids",
        f"{n(limits.MAX_EXACT_DICE)} unseen dice",
        f"{n(limits.MAX_GAMES)} games a variant, {limits.MAX_WORKERS} processes",
        f"{n(limits.MAX_CLUSTER_GAMES)} games a variant or point on a Ray cluster, "
        f"{limits.MAX_SWEEP_POINTS} points a sweep",
        f"{limits.MAX_WITNESS_DICE} dice a seat",
    ]
    for doc in ("README.md", "docs/format.rst"):
        text = " ".join((ROOT / doc).read_text(encoding="utf-8").split())
        for needle in stated:
            assert needle in text, f"{doc}: {needle!r}"


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    """Records of random legal games, some with one action changed (a violation), and
    mutated records (mostly malformed)."""
    if draw(st.integers(0, 3)) == 0:
        doc: dict[str, Any] = draw(mutated(RECORD))
        return doc
    game = play(draw(new_games()), draw(st.integers(0, 10**6)), draw(st.integers(0, 60)))
    doc = to_record(game, full=True)
    if draw(st.booleans()):
        rnd = draw(st.sampled_from(doc["rounds"]))
        text = draw(st.sampled_from(["0:1x2", "1:2x2", "0:dudo", "1:calza", "2:9x6", "1:1x1"]))
        rnd["actions"].insert(draw(st.integers(0, len(rnd["actions"]))), text)
    return doc


@settings(suppress_health_check=[HealthCheck.too_slow])
@given(doc=records())
def test_the_linear_replay_judges_as_the_step_by_step_one(doc: Any) -> None:
    """walk(every=False), which the referee and replay use, finds the same verdict and the
    same final game as walking every position."""
    from perudo_rules.records.recordformat import RecordViolation
    from perudo_rules.records.replay import check_record, walk

    try:
        variant = check_record(doc)
    except RecordError:
        return
    results: list[tuple[str, object]] = []
    for every in (True, False):
        last = None
        try:
            for state in walk(doc, variant, every=every):
                last = state
            results.append(("ok", last))
        except RecordViolation as stop:
            results.append(("violation", stop.violation))
    assert results[0] == results[1]
