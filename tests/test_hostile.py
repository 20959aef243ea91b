"""Hostile input: malformed, huge, mistyped or inconsistent variant files and records.

Each gets a clear VariantError / RecordError (one line), fast and without any
other exception; nothing in a file is ever executed. Large files are generated
in a temporary directory (sparse where possible), never committed.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perudo_rules import Game, RecordError, VariantError, load_variant, referee, to_record
from perudo_rules.base.limits import MAX_RECORD_BYTES
from perudo_rules.editions.variantfile import strict_validator
from perudo_rules.records.recordformat import check_shape, load_record, record_schema
from tests.test_record import play

# CPU time of this process, not wall time: a loaded machine (other jobs on the same cores)
# must not fail a guard that is about the work done, a blow-up of linear work.
LIMIT_S = 5.0


def expect_error(call: Callable[[], object], error: type[Exception], match: str) -> str:
    """Run ``call``: it must raise ``error`` (nothing else) with ``match`` in one line, fast."""
    start = time.process_time()
    with pytest.raises(error) as info:
        call()
    elapsed = time.process_time() - start
    text = str(info.value)
    assert elapsed < LIMIT_S, f"{elapsed:.2f}s"
    assert match in text, text
    assert "\n" not in text
    return text


def bomb() -> str:
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(8):
        prev, name = chr(97 + i), chr(98 + i)
        lines.append(f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    return "\n".join(lines) + "\n"


VARIANT_FILES: dict[str, tuple[str, str]] = {
    # name: (YAML text, expected part of the message)
    "alias bomb": (bomb(), "anchors and aliases are not allowed"),
    "a million seats": ("extends: italian\nplayers:\n  max: 1000000\n", "limit of 1000"),
    "huge bid table": (
        "extends: italian\nplayers:\n  max: 1000\ndice:\n  faces: 100\n  max_per_player: 100\n",
        "bids a round; the limit is",
    ),
    "huge integer": ("extends: italian\ndice:\n  per_player: " + "9" * 40 + "\n", "dice"),
    "float for an integer": ("extends: italian\ndice:\n  per_player: 5.0\n", "is not an integer"),
    "text for an integer": ("extends: italian\ndice:\n  per_player: five\n", "is not an integer"),
    "nan": ("extends: italian\ndice:\n  per_player: .nan\n", "is not an integer"),
    "a list": ("- 1\n- 2\n", "must be a YAML mapping"),
    "empty": ("", "must be a YAML mapping"),
    "unknown top-level key": ("extends: italian\ncolour: red\n", "unknown key 'colour'"),
    "unknown knob": ("extends: italian\ndice:\n  colour: red\n", "unknown key 'colour'"),
    "more dice than the maximum": (
        "extends: italian\ndice:\n  per_player: 6\n",
        "more starting dice than dice.max_per_player",
    ),
    "wild face outside the faces": (
        "extends: italian\nwild:\n  face: 7\n",
        "wild face 7 is not a face of a d6",
    ),
    "deep flow nesting": ("a: " + "[" * 200_000, "nesting"),
    "deep block nesting": ("".join(" " * i + "a:\n" for i in range(700)), "nesting deeper than"),
    "control characters": ("name: \x00\x01", "invalid YAML"),
    "duplicate key": ("extends: italian\nextends: spanish\n", "duplicate key 'extends'"),
    "merge key": ("b: &b {x: 1}\nextends: italian\ndice:\n  <<: *b\n", "not allowed"),
    "complex key": ("? [a, b]\n: c\n", "mapping keys must be plain scalars"),
    "integer key": ("1: x\nextends: italian\n", "unknown key 1"),
    "date for a name": ("extends: italian\nname: 2001-01-01\n", "is not a string"),
    "many keys": ("".join(f"k{i}: {i}\n" for i in range(18_000)), "too large"),
    "unterminated": ("extends: italian\nname: 'open\n", "invalid YAML"),
}


@pytest.mark.parametrize("name", sorted(VARIANT_FILES))
def test_hostile_variant_file(name: str, tmp_path: Path) -> None:
    text, match = VARIANT_FILES[name]
    path = tmp_path / "hostile.yaml"
    path.write_text(text, encoding="utf-8")
    expect_error(lambda: load_variant(path), VariantError, match)


def test_python_tags_are_never_executed(tmp_path: Path) -> None:
    marker = tmp_path / "PWNED"
    for tag in ("python/object/apply:os.system", "python/object/new:os.system"):
        path = tmp_path / "tag.yaml"
        path.write_text(f"extends: italian\nname: !!{tag} ['touch {marker}']\n")
        expect_error(lambda p=path: load_variant(p), VariantError, "could not determine")
    path.write_text("extends: italian\nname: !!python/name:os.system\n")
    expect_error(lambda: load_variant(path), VariantError, "could not determine")
    assert not marker.exists()


def test_extends_cycle(tmp_path: Path) -> None:
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text("extends: b.yaml\n")
    b.write_text("extends: a.yaml\n")
    expect_error(lambda: load_variant(a), VariantError, "'extends' cycle")


def test_100_mb_variant_file(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    with path.open("wb") as fh:
        fh.truncate(100 << 20)  # sparse: 100 MB by size, no disk used
    expect_error(lambda: load_variant(path), VariantError, "file too large (104857600 bytes")


def test_just_over_the_size_limit_with_real_content(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text("name: " + "x" * 300_000 + "\n")
    expect_error(lambda: load_variant(path), VariantError, "file too large")


def test_non_utf8_variant(tmp_path: Path) -> None:
    path = tmp_path / "latin1.yaml"
    path.write_bytes(b"name: caf\xe9\n")
    expect_error(lambda: load_variant(path), VariantError, "not valid UTF-8")


# --- records --------------------------------------------------------------------------------

BASE: dict[str, Any] = {
    "format": "perudo-rules-record",
    "version": 1,
    "variant": "italian",
    "seats": 2,
    "rounds": [
        {
            "round": 1,
            "first_player": 0,
            "palifico": False,
            "dice": [[1, 2, 3, 4, 5], [6, 5, 4, 3, 2]],
            "actions": ["0:2x3"],
        }
    ],
}


def with_round(**change: Any) -> dict[str, Any]:
    return {**BASE, "rounds": [{**BASE["rounds"][0], **change}]}


def nested(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = [value]
    return value


RECORD_TEXTS: dict[str, tuple[str, str]] = {
    # name: (file text, expected part of the message)
    "a million seats": (json.dumps({**BASE, "seats": 1_000_000}), "out of range (2 to 1000)"),
    "a million cups": (
        json.dumps({**BASE, "seats": 1000, "rounds": [with_round(dice=[[]] * 10**6)["rounds"][0]]}),
        "record too large",
    ),
    "a cup of 900000 dice": (json.dumps(with_round(dice=[[1] * 900_000, []])), "too large"),
    "900000 actions": (json.dumps(with_round(actions=["0:1x2"] * 900_000)), "too large"),
    "deeply nested array": ("[" * 1_000_000, "invalid JSON"),
    "deeply nested object": ('{"a":' * 100_000, "invalid JSON"),
    "nested within the limits": (
        json.dumps({**BASE, "names": nested(40)}),
        "nested too deeply",
    ),
    "100000-digit integer": ('{"seats": ' + "9" * 100_000 + "}", "invalid JSON"),
    "NaN": (json.dumps({**BASE, "seats": float("nan")}), "seats: expected an integer"),
    "duplicate key": ('{"seats": 2, "seats": 3}', "duplicate key 'seats'"),
    "YAML, not JSON": ("format: perudo-rules-record\n", "invalid JSON"),
    "an array": ("[]", "must be a JSON object"),
    "a float seat": (json.dumps(with_round(first_player=0.0)), "expected an integer"),
    "a boolean seat count": (json.dumps({**BASE, "seats": True}), "expected an integer"),
    "unknown key": (json.dumps({**BASE, "colour": 1}), "unknown key 'colour'"),
    "unknown round key": (json.dumps(with_round(colour=1)), "rounds.0.colour: unknown key"),
    "missing key": (json.dumps({k: v for k, v in BASE.items() if k != "rounds"}), "'rounds'"),
    "dice as text": (json.dumps(with_round(dice="12345")), "expected an array"),
    "die as text": (json.dumps(with_round(dice=[["1"], []])), "rounds.0.dice.0.0"),
    "bad action": (json.dumps(with_round(actions=["0 bids 2x3"])), "not an action"),
    "no rounds": (json.dumps({**BASE, "rounds": []}), "at least 1 item"),
    "unknown variant": (json.dumps({**BASE, "variant": "klingon"}), "unknown variant"),
    "variant as a number": (json.dumps({**BASE, "variant": 7}), "bundled variant id"),
    "embedded variant with a million seats": (
        json.dumps({**BASE, "variant": {"extends": "italian", "players": {"max": 10**6}}}),
        "limit of 1000",
    ),
    "embedded variant extending a file": (
        json.dumps({**BASE, "variant": {"extends": "/etc/passwd"}}),
        "only a bundled id",
    ),
    "embedded variant, wild outside the faces": (
        json.dumps({**BASE, "variant": {"extends": "italian", "wild": {"face": 9}}}),
        "wild face 9 is not a face of a d6",
    ),
    "embedded variant, more dice than the maximum": (
        json.dumps({**BASE, "variant": {"extends": "italian", "dice": {"per_player": 9}}}),
        "more starting dice",
    ),
    "embedded variant, huge": (
        json.dumps({**BASE, "variant": {"extends": "italian", "x": list(range(30_000))}}),
        "embedded variant is too large",
    ),
    "too much work for the referee": (
        json.dumps(
            {
                **BASE,
                "variant": {
                    "extends": "italian",
                    "players": {"max": 1000},
                    "dice": {"faces": 100, "per_player": 1, "max_per_player": 1},
                    "calza": {"gain_cap": 1},
                },
                "seats": 1000,
                "rounds": [{**BASE["rounds"][0], "dice": [[1]] * 1000}] * 20,
            }
        ),
        "record too large to referee",
    ),
    "UTF-16": (json.dumps(BASE), "not valid UTF-8"),
}


@pytest.mark.parametrize("name", sorted(RECORD_TEXTS))
def test_hostile_record_file(name: str, tmp_path: Path) -> None:
    text, match = RECORD_TEXTS[name]
    path = tmp_path / "hostile.json"
    path.write_bytes(text.encode("utf-16" if name == "UTF-16" else "utf-8"))
    expect_error(lambda: referee(path), RecordError, match)


def test_100_mb_record_file(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with path.open("wb") as fh:
        fh.truncate(100 << 20)
    expect_error(lambda: load_record(path), RecordError, "file too large (104857600 bytes")
    assert MAX_RECORD_BYTES < 100 << 20


def test_a_directory_is_not_a_record(tmp_path: Path) -> None:
    expect_error(lambda: referee(tmp_path), RecordError, "no such record file")


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        ({**with_round(dice=[[1] * 5] * 1000), "seats": 1000}, "players.max"),
        (with_round(actions=["0:999999999x6"]), "bidding.quantity_cap"),
        (with_round(dice=[[1, 2, 3, 4, 10**30], [1, 2, 3, 4, 5]]), "play.roll"),
        (with_round(dice=[[1, 2, 3, 4, 5, 6, 1, 2], [1, 2, 3, 4, 5]]), "dice.max_per_player"),
        (with_round(actions=["999999:dudo"]), "play.seat"),
    ],
)
def test_hostile_but_well_formed_records_are_violations(change: dict[str, Any], rule: str) -> None:
    start = time.process_time()
    verdict = referee({**BASE, **change})
    assert time.process_time() - start < LIMIT_S
    assert verdict.violation is not None and verdict.violation.rule == rule


def test_referee_input_that_is_not_a_mapping() -> None:
    for value in (None, 3, ["format"]):
        expect_error(lambda v=value: referee(v), RecordError, "must be a JSON object")


# --- fuzzing --------------------------------------------------------------------------------

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 1100),
    st.integers(),
    st.floats(allow_nan=True),
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\r"), max_size=12),
    st.sampled_from(["italian", "0:2x3", "1:dudo", "dudo", "highest", "extends", "7x7"]),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5), st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=20,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, (*prefix, i))
    return out


@st.composite
def mutated(draw: st.DrawFn, base: Any) -> Any:
    doc = json.loads(json.dumps(base))
    for _ in range(draw(st.integers(1, 3))):
        targets = paths(doc)
        path = draw(st.sampled_from(targets))
        if not path:
            doc = draw(JSON_VALUES) if draw(st.integers(0, 9)) == 0 else doc
            continue
        parent = doc
        for part in path[:-1]:
            parent = parent[part]
        how = draw(st.sampled_from(["replace", "delete", "add"]))
        if how == "replace":
            parent[path[-1]] = draw(JSON_VALUES)
        elif how == "delete":
            del parent[path[-1]]
        elif isinstance(parent, dict):
            parent[draw(st.text(max_size=8))] = draw(JSON_VALUES)
        else:
            parent.append(draw(JSON_VALUES))
    return doc


def sample_record() -> dict[str, Any]:
    return to_record(play(Game.new(load_variant("spanish"), 3, seed=9), 9, max_steps=25), full=True)


def complete_variant_doc() -> dict[str, Any]:
    doc: dict[str, Any] = {"id": "fuzz", "name": "fuzz"}
    for path, value in load_variant("italian").values().items():
        section, name = path.split(".")
        doc.setdefault(section, {})[name] = value
    return doc


RECORD = sample_record()
VARIANT_DOC = complete_variant_doc()

FUZZ = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@FUZZ
@given(doc=mutated(RECORD))
def test_fuzz_referee_raises_only_record_error(doc: Any) -> None:
    try:
        verdict = referee(doc) if isinstance(doc, dict) else referee(doc or {})
    except RecordError as exc:
        assert "\n" not in str(exc)
    else:
        assert verdict.valid == (verdict.violation is None)


@FUZZ
@given(doc=mutated({**RECORD, "variant": VARIANT_DOC}))
def test_fuzz_records_with_embedded_variants(doc: Any) -> None:
    try:
        referee(doc) if isinstance(doc, dict) else None
    except RecordError as exc:
        assert "\n" not in str(exc)


@FUZZ
@given(doc=mutated(RECORD))
def test_hand_checks_agree_with_the_published_schema(doc: Any) -> None:
    validator = strict_validator(record_schema(variant_ref=False))
    schema_ok = not list(validator.iter_errors(doc))
    try:
        check_shape(doc, None)
    except RecordError:
        shape_ok = False
    else:
        shape_ok = True
    assert shape_ok == schema_ok


@FUZZ
@given(text=st.text(max_size=300))
def test_fuzz_record_text(text: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "r.json"
    path.write_text(text, encoding="utf-8")
    try:
        referee(path)
    except RecordError as exc:
        assert "\n" not in str(exc)


def dump_yaml(value: Any) -> str:
    import yaml

    return yaml.safe_dump(value, allow_unicode=True, sort_keys=False)


@FUZZ
@given(doc=mutated({"extends": "italian", **{k: VARIANT_DOC[k] for k in ("dice", "wild")}}))
def test_fuzz_variant_loader_documents(doc: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "v.yaml"
    path.write_text(dump_yaml(doc), encoding="utf-8")
    try:
        v = load_variant(path)
    except VariantError as exc:
        assert "\n" not in str(exc)
    else:
        assert v.rules.dice_faces >= 2


@FUZZ
@given(
    text=st.one_of(
        st.text(max_size=300),
        st.lists(
            st.sampled_from(
                ["a:", " b:", "- x", "&a", "*a", "!!str", "!!python/name:os.system", "{", "[",
                 "]", "}", ": ", "? ", "|", ">", "'", '"', "extends: italian", "dice:",
                 "  per_player:", " 3", "\n", "\t", "%YAML 1.1", "---", "...", "<<: *a"]
            ),
            max_size=40,
        ).map("".join),
    )
)  # fmt: skip
def test_fuzz_variant_loader_text(text: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    path = tmp_path_factory.mktemp("fuzz") / "v.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_variant(path)
    except VariantError as exc:
        assert "\n" not in str(exc)
