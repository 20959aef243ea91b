"""Hostile input, third pass (issue 19): files named inside files.

One policy (:func:`perudo_rules.editions.variantfile.named_variant_file`) for every file a file
names: ``extends`` in a variant file, the ``variant`` of a position file (``check --position``),
the variants of a scenario file and the ``extends`` of a record's embedded variant.
Symbolic links are resolved first; the file reached must be in the naming file's folder
or below, a regular ``.yaml`` / ``.yml`` file, within the size limit. Every refusal is one
line naming the file, the key path and what is wrong (exit 2 on the command line).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from perudo_rules import RecordError, VariantError, load_variant, referee
from perudo_rules.base.limits import MAX_FILE_BYTES
from perudo_rules.conform.scenarios import ScenarioError, load_scenarios, run_scenario
from perudo_rules.editions.variantfile import (
    extends_chain,
    named_variant_file,
    variant_from_document,
)
from tests.test_cli_hostile import SCENARIO, Capsys, one_line, run, write
from tests.test_hostile import BASE, expect_error

PASSWD = Path("/etc/passwd")
needs_passwd = pytest.mark.skipif(not PASSWD.is_file(), reason="needs /etc/passwd")


def house(folder: Path, extends: str, name: str = "house.yaml") -> Path:
    return write(folder / name, f"extends: {json.dumps(extends)}\n")


def refused(path: Path, *needles: str) -> str:
    """``load_variant(path)`` fails with one line at ``path``'s ``extends`` key."""
    text = expect_error(lambda: load_variant(path), VariantError, needles[0])
    for needle in needles[1:]:
        assert needle in text, text
    assert text.startswith(f"{path}:1: extends: "), text
    return text


# --- extends -------------------------------------------------------------------------------


@needs_passwd
def test_a_relative_yaml_link_to_etc_passwd_is_refused_before_reading(tmp_path: Path) -> None:
    (tmp_path / "x.yaml").symlink_to(PASSWD)
    text = refused(house(tmp_path, "x.yaml"), "outside the folder", "/etc/passwd")
    assert "root:" not in text  # nothing of the file is read, so nothing of it is shown


def test_a_link_to_a_variant_outside_the_folder_is_refused(tmp_path: Path) -> None:
    # the target is a perfectly good variant: where it lies is what is refused
    outside = write(tmp_path / "elsewhere" / "base.yaml", "extends: italian\nname: Base\n")
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "base.yaml").symlink_to(outside)
    refused(house(rules, "base.yaml"), "outside the folder")
    # a link to a folder outside is the same
    (rules / "shared").symlink_to(outside.parent)
    refused(house(rules, "shared/base.yaml"), "outside the folder")
    # and so is a chain of links that ends outside
    (rules / "hop.yaml").symlink_to("base.yaml")
    refused(house(rules, "hop.yaml"), "outside the folder")


def test_dot_dot_is_allowed_only_while_it_stays_in_the_folder(tmp_path: Path) -> None:
    write(tmp_path / "base.yaml", "extends: italian\nname: Base\n")
    sub = tmp_path / "sub"
    refused(house(sub, "../base.yaml"), "outside the folder", str(tmp_path / "base.yaml"))
    refused(house(sub, "../../../../../../etc/x.yaml"), "outside the folder")
    (sub / "deeper").mkdir()
    write(sub / "base.yaml", "extends: italian\nname: Sub base\n")
    assert load_variant(house(sub, "deeper/../base.yaml")).name == "Sub base"


def test_links_inside_the_folder_are_followed(tmp_path: Path) -> None:
    write(tmp_path / "real" / "base.yaml", "extends: spanish\nname: Base\n")
    (tmp_path / "alias.yaml").symlink_to("real/base.yaml")
    v = load_variant(house(tmp_path, "alias.yaml"))
    assert (v.name, v["bidding.wild_opening"]) == ("Base", "not_as_opening_bid")
    # the naming file reached through a linked folder: its own folder is the real one
    (tmp_path / "door").symlink_to(tmp_path / "real")
    write(tmp_path / "real" / "house.yaml", "extends: base.yaml\nname: Via a link\n")
    assert load_variant(tmp_path / "door" / "house.yaml").name == "Via a link"


def test_a_link_named_yaml_to_a_file_that_is_not_yaml_is_refused(tmp_path: Path) -> None:
    write(tmp_path / "notes.txt", "extends: italian\n")
    (tmp_path / "notes.yaml").symlink_to("notes.txt")
    refused(house(tmp_path, "notes.yaml"), "not a .yaml or .yml file")


def test_directories_fifos_and_huge_files_are_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "dir.yaml").mkdir()
    refused(house(tmp_path, "dir.yaml"), "is a directory")
    os.mkfifo(tmp_path / "fifo.yaml")  # nobody writes to it: opening it would hang
    refused(house(tmp_path, "fifo.yaml"), "not a regular file")
    with open(tmp_path / "big.yaml", "wb") as fh:  # sparse: no disk used
        fh.truncate(MAX_FILE_BYTES + 1)
    refused(house(tmp_path, "big.yaml"), "too large", str(MAX_FILE_BYTES))
    refused(house(tmp_path, "absent.yaml"), "no such variant file", "absent.yaml")


def test_the_chain_for_tools_stops_at_a_refused_link(tmp_path: Path) -> None:
    write(tmp_path / "elsewhere" / "base.yaml", "extends: italian\n")
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "base.yaml").symlink_to(tmp_path / "elsewhere" / "base.yaml")
    h = house(rules, "base.yaml")
    assert extends_chain(h) == [h.resolve()]


def test_the_policy_function_directly(tmp_path: Path) -> None:
    naming = write(tmp_path / "a.yaml", "extends: italian\n")
    assert named_variant_file("italian", naming).name == "italian.yaml"
    assert named_variant_file("a.yaml", naming) == naming.resolve()
    for ref, needle in [
        ("/etc/passwd", "absolute path"),
        ("passwd", "unknown variant"),
        ("../a.yaml", "outside the folder"),
        ("sub/a.json", "names a .yaml or .yml file"),
        ("", "not a variant reference"),
    ]:
        expect_error(lambda r=ref: named_variant_file(r, naming), VariantError, needle)
    # a document that is not a file has no folder: bundled ids only
    assert named_variant_file("spanish", None).name == "spanish.yaml"
    expect_error(lambda: named_variant_file("a.yaml", None), VariantError, "only a bundled id")


# --- a position file's variant --------------------------------------------------------------


def position(folder: Path, variant: str) -> Path:
    data = {"variant": variant, "dice": [[1, 2], [3, 4]], "first_player": 0}
    return write(folder / "pos.json", json.dumps(data))


def check_refused(capsys: Capsys, pos: Path, *needles: str) -> str:
    code, out, err = run(capsys, "check", "italian", "--position", str(pos), "--bids", "1x2")
    assert (code, out) == (2, ""), (code, out, err)
    return one_line(err, f"{pos}: variant: ", *needles)


@needs_passwd
def test_a_position_naming_etc_passwd_is_refused(capsys: Capsys, tmp_path: Path) -> None:
    check_refused(capsys, position(tmp_path, str(PASSWD)), "absolute path")
    check_refused(capsys, position(tmp_path, "../../../../../../../etc/passwd"), ".yaml or .yml")
    (tmp_path / "italian.yaml").symlink_to(PASSWD)
    check_refused(capsys, position(tmp_path, "italian.yaml"), "outside the folder")


def test_a_position_naming_a_fifo_or_a_directory_is_refused(capsys: Capsys, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "fifo.yaml")
    check_refused(capsys, position(tmp_path, "fifo.yaml"), "not a regular file")
    (tmp_path / "dir.yaml").mkdir()
    check_refused(capsys, position(tmp_path, "dir.yaml"), "is a directory")
    check_refused(capsys, position(tmp_path, "klingon"), "unknown variant")


def test_a_position_naming_a_variant_next_to_it_is_read_from_its_folder(
    capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = tmp_path / "games"
    write(games / "house.yaml", "extends: italian\nname: House\n")
    pos = position(games, "house.yaml")
    monkeypatch.chdir(tmp_path)  # not the position's folder: the name is read from there
    code, out, err = run(
        capsys, "check", "games/house.yaml", "--position", str(pos), "--bids", "1x2"
    )
    assert (code, err) == (0, ""), err
    assert "House (house)" in out
    code, out, err = run(capsys, "check", "spanish", "--position", str(pos), "--bids", "1x2")
    assert (code, err) == (0, ""), err  # played under spanish, and said so
    assert "The position was written for house.yaml; it is checked under spanish." in out


# --- a record's embedded variant -------------------------------------------------------------


@pytest.mark.parametrize("extends", ["/etc/passwd", "x.yaml", "../x.yaml", "sub/x.yaml"])
def test_a_records_embedded_variant_extends_only_a_bundled_id(
    capsys: Capsys, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extends: str
) -> None:
    write(tmp_path / "x.yaml", "extends: italian\n")  # exists, and is still refused
    write(tmp_path / "sub" / "x.yaml", "extends: italian\n")
    monkeypatch.chdir(tmp_path)
    rec = write(tmp_path / "rec.json", json.dumps({**BASE, "variant": {"extends": extends}}))
    text = expect_error(lambda: referee(rec), RecordError, "only a bundled id")
    assert text.startswith(f"{rec}: variant.extends: ")
    code, out, err = run(capsys, "referee", str(rec))
    assert (code, out) == (2, "")
    one_line(err, "variant.extends", "only a bundled id")
    expect_error(
        lambda: variant_from_document({"extends": extends}), VariantError, "only a bundled id"
    )


# --- a scenario file's variants --------------------------------------------------------------


def scenario(folder: Path, variant: str) -> Path:
    text = SCENARIO.format(roll="roll [[2, 5], [3]]").replace(
        "variants: [italian]", f"variants: [{json.dumps(variant)}]"
    )
    return write(folder / "sc.yaml", text)


@needs_passwd
def test_a_scenario_naming_files_outside_its_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pw.yaml").symlink_to(PASSWD)
    write(tmp_path / "base.yaml", "extends: italian\n")
    for variant, needle in [
        ("/etc/passwd", "absolute path"),
        ("pw.yaml", "outside the folder"),
        ("../base.yaml", "outside the folder"),
        ("klingon", "unknown variant"),
    ]:
        sc = scenario(tmp_path / "sub", variant)
        text = expect_error(lambda s=sc: load_scenarios([s]), ScenarioError, needle)
        assert text.startswith(f"{sc}:4: scenarios.0.variants.0: "), text


def test_a_scenario_naming_a_variant_next_to_it_runs_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "rules" / "house.yaml", "extends: italian\nname: House\n")
    (sc,) = load_scenarios([scenario(tmp_path / "rules", "house.yaml")])
    monkeypatch.chdir(tmp_path)  # the file is found from the scenario's folder, not here
    assert sc.variant("house.yaml").name == "House"
    run_scenario(sc, "house.yaml")
