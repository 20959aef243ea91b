"""Variant files: format, schema, loader errors, extends, overrides, and the bundled editions."""

from __future__ import annotations

import ast
import json
import textwrap
from pathlib import Path

import jsonschema
import pytest
import yaml

from perudo_rules import (
    Bid,
    Calza,
    Game,
    IllegalAction,
    Variant,
    VariantError,
    available_variants,
    load_variant,
)
from perudo_rules.editions.knobs import KNOB_PATHS, KNOBS
from perudo_rules.editions.schema import schema_json, variant_schema
from perudo_rules.editions.variantfile import data_dir, variant_problems

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = ("italian", "spanish")


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


# --- bundled editions -----------------------------------------------------------------------


def test_bundled_editions_are_listed() -> None:
    ids = available_variants()
    assert ids == sorted(ids)
    assert set(EDITIONS) <= set(ids)


@pytest.mark.parametrize("vid", EDITIONS)
def test_edition_files_are_complete_and_documented(vid: str) -> None:
    raw = yaml.safe_load((ROOT / "variants" / f"{vid}.yaml").read_text())
    assert "extends" not in raw
    v = load_variant(vid)
    assert [k.path for k in v.knobs] == list(KNOB_PATHS)
    for knob in v.knobs:
        assert knob.documented, f"{vid}: {knob.path} lacks text or source"
        assert knob.line is not None and knob.file is not None
        if knob.interpretation is not None:
            assert knob.interpretation.chosen != knob.interpretation.alternative


@pytest.mark.parametrize("vid", available_variants())
def test_bundled_files_carry_the_schema_comment_and_validate(vid: str) -> None:
    path = data_dir("variants") / f"{vid}.yaml"
    first = path.read_text().splitlines()[0]
    assert first == "# yaml-language-server: $schema=../spec/variant.schema.json"
    jsonschema.validate(yaml.safe_load(path.read_text()), variant_schema())


def test_every_knob_value_of_the_editions_is_a_declared_choice() -> None:
    for vid in EDITIONS:
        v = load_variant(vid)
        for spec in KNOBS:
            if spec.choices and "enum" in spec.schema:
                assert v[spec.path] in spec.schema["enum"]


def test_editions_differ_in_the_documented_knobs() -> None:
    it, es = load_variant("italian"), load_variant("spanish")
    assert it["bidding.wild_opening"] == "allowed"
    assert es["bidding.wild_opening"] == "not_as_opening_bid"
    assert it["challenge.early_stop"] is True and es["challenge.early_stop"] is False
    assert it["calza.who"] == "any_except_bidder_and_next"
    assert es["calza.who"] == "any_except_bidder"
    assert it["palifico.once_per_player"] and not es["palifico.once_per_player"]
    assert it["palifico.face_lock"] == "locked_except_single_die"
    assert es["palifico.face_lock"] == "locked"
    assert it["setup.rolloff_dice"] == 1 and es["setup.rolloff_dice"] == 2


def test_schema_file_is_fresh() -> None:
    assert (ROOT / "spec" / "variant.schema.json").read_text() == schema_json(), (
        "spec/variant.schema.json is stale: python tools/generate.py"
    )
    json.loads(schema_json())


def test_variant_repr_pastes_back() -> None:
    v = load_variant("spanish")
    assert repr(v) == "load_variant('spanish')"
    assert eval(repr(v), {"load_variant": load_variant}) == v
    o = load_variant("italian", overrides={"dice.per_player": 3})
    assert eval(repr(o), {"load_variant": load_variant}) == o


def test_no_edition_names_in_engine_code() -> None:
    """Identifiers and strings of the engine and the layers under it (the folders base/,
    editions/ and engine/) never name an edition (docstrings may); base/i18n.py names the
    languages, Italian and Spanish, as languages."""
    banned = ("italian", "spanish", "aztec", "paco")
    package = ROOT / "perudo_rules"
    for path in sorted(p for p in package.glob("[be]*/*.py") if p.name != "i18n.py"):
        name = path.relative_to(package).with_suffix("")
        tree = ast.parse(path.read_text())
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            text = None
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) in docstrings:
                    continue
                text = node.value
            elif isinstance(node, ast.Name):
                text = node.id
            elif isinstance(node, ast.Attribute):
                text = node.attr
            if text is not None:
                assert not any(b in text.lower() for b in banned), f"{name}.py: {text!r}"


# --- house rules and extends ---------------------------------------------------------------


def test_house_file_without_calza_forbids_calza(tmp_path: Path) -> None:
    house = write(tmp_path, "nocalza.yaml", "extends: italian\ncalza: {enabled: false}\n")
    v = load_variant(house)
    assert v.id == "nocalza" and v["calza.enabled"] is False
    assert v.knob("calza.enabled").text is None  # a bare override carries no rule text
    assert v["palifico.face_lock"] == "locked_except_single_die"  # the rest is inherited
    g = Game.start(v, [[2, 3], [4, 5], [6, 6]], 0).apply(Bid(0, 2, 3))
    assert not any(isinstance(a, Calza) for a in g.legal_actions())
    with pytest.raises(IllegalAction) as e:
        g.apply(Calza(2))
    assert e.value.rule == "calza.enabled"
    base = Game.start(load_variant("italian"), [[2, 3], [4, 5], [6, 6]], 0).apply(Bid(0, 2, 3))
    assert base.is_legal(Calza(2))


def test_extends_chain_by_relative_path_and_documented_override(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    write(tmp_path, "sub/a.yaml", "extends: spanish\nname: A\npalifico: {heads_up: false}\n")
    b = write(
        tmp_path,
        "b.yaml",
        """\
        extends: sub/a.yaml
        dice:
          per_player:
            value: 3
            text: Three dice each.
            source: House rules
        """,
    )
    v = load_variant(b)
    assert v.id == "b" and v.name == "A"
    assert v["palifico.heads_up"] is False and v["dice.per_player"] == 3
    assert v.knob("dice.per_player").text == "Three dice each."
    assert v["bidding.wild_opening"] == "not_as_opening_bid"


def test_extends_cycle_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, "x.yaml", "extends: y.yaml\n")
    y = write(tmp_path, "y.yaml", "extends: x.yaml\n")
    with pytest.raises(VariantError, match="cycle"):
        load_variant(y)


def test_extends_unknown_id_names_the_line(tmp_path: Path) -> None:
    f = write(tmp_path, "h.yaml", "name: H\n\nextends: klingon\n")
    with pytest.raises(VariantError) as e:
        load_variant(f)
    assert e.value.file == str(f) and e.value.line == 3 and e.value.key_path == "extends"
    assert "klingon" in str(e.value)


def test_overrides_nested_and_dotted_agree() -> None:
    a = load_variant("italian", overrides={"dice": {"per_player": 2, "faces": 8}})
    b = load_variant("italian", overrides={"dice.per_player": 2, "dice.faces": 8})
    assert a.values() == b.values()
    assert a["dice.faces"] == 8 and load_variant("italian")["dice.faces"] == 6


def test_bad_override_is_a_variant_error() -> None:
    with pytest.raises(VariantError) as e:
        load_variant("italian", overrides={"dice.per_player": "five"})
    assert e.value.file == "<overrides>" and e.value.key_path == "dice.per_player"
    with pytest.raises(VariantError, match="unknown key 'colour'"):
        load_variant("italian", overrides={"dice": {"colour": "red"}})


# --- errors name the file, the key path and the line ----------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "key_path", "message"),
    [
        ("extends: italian\ncalza:\n  enabled: yes please\n", 3, "calza.enabled", "true or false"),
        ("extends: italian\ncalza:\n  enabld: false\n", 3, "calza.enabld", "unknown key"),
        ("extends: italian\nbidding:\n  order: sideways\n", 3, "bidding.order", "sideways"),
        ("extends: italian\ndice:\n  faces: 6\n  faces: 8\n", 4, "dice.faces", "duplicate"),
        ("extends: italian\nwild: {face: 9}\n", 2, "wild.face", "not a face"),
        ("extends: italian\ndice:\n\n  per_player: 6\n", 4, "dice.per_player", "more starting"),
        ("extends: italian\ncalza:\n  who: {value: caller}\n", 3, "calza.who", ""),
        ("extends: italian\ncolour: red\n", 2, "colour", "unknown key"),
    ],
)
def test_errors_point_at_file_key_and_line(
    tmp_path: Path, text: str, line: int, key_path: str, message: str
) -> None:
    f = write(tmp_path, "bad.yaml", text)
    with pytest.raises(VariantError) as e:
        load_variant(f)
    err = e.value
    assert (err.file, err.line, err.key_path) == (str(f), line, key_path), str(err)
    assert message in str(err)
    assert str(err).startswith(f"{f}:{line}: {key_path}: ")


def test_complete_file_missing_knobs_is_an_error(tmp_path: Path) -> None:
    full = yaml.safe_load((ROOT / "variants" / "italian.yaml").read_text())
    del full["calza"]["gain_cap"]
    f = tmp_path / "partial.yaml"
    f.write_text(yaml.safe_dump(full))
    with pytest.raises(VariantError, match="gain_cap") as e:
        load_variant(f)
    assert e.value.key_path == "calza"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("extends: italian\nx: &a [1]\ny: *a\n", "anchors and aliases"),
        ("extends: italian\nname: !!python/object/apply:os.system ['true']\n", "invalid YAML"),
        ("- just\n- a list\n", "mapping"),
        ("extends: italian\nname: [unclosed\n", "invalid YAML"),
        ("extends: italian\n<<: {name: x}\n", "merge keys"),
    ],
)
def test_unsafe_or_malformed_yaml_is_refused(tmp_path: Path, text: str, message: str) -> None:
    f = write(tmp_path, "evil.yaml", text)
    with pytest.raises(VariantError, match=message) as e:
        load_variant(f)
    assert e.value.file == str(f)


def test_missing_file_and_directory_are_variant_errors(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match="no such variant file"):
        load_variant(tmp_path / "nope.yaml")
    with pytest.raises(VariantError, match="unknown variant"):
        load_variant("nope")


@pytest.mark.parametrize(
    ("overrides", "key"),
    [
        ({"players.min": 5, "players.max": 4}, "players.min"),
        ({"calza.gain_cap": 6}, "calza.gain_cap"),
        # the conflict is reported at the value the house rules changed, not at the base's
        ({"bidding.order": "face_then_quantity"}, "bidding.order"),
        ({"bidding.wild_worth": 2, "bidding.order": "face_then_quantity"}, "bidding.wild_worth"),
        ({"end.condition": "single_round"}, "end.condition"),
    ],
)
def test_cross_knob_consistency(overrides: dict[str, object], key: str) -> None:
    with pytest.raises(VariantError) as e:
        load_variant("italian", overrides=overrides)
    assert e.value.key_path == key


def test_wild_face_highest_follows_the_faces() -> None:
    v = load_variant("italian", overrides={"wild.face": "highest", "dice.faces": 8})
    assert v.rules.wild == 8
    assert load_variant("italian", overrides={"wild.face": None}).rules.wild is None


def test_variant_is_a_value() -> None:
    a, b = load_variant("italian"), load_variant("italian")
    assert a == b and hash(a) == hash(b) and a is not b
    assert isinstance(a, Variant)
    with pytest.raises(AttributeError):
        a.id = "x"  # type: ignore[misc]


def test_error_without_a_file_has_no_placeholder_prefix() -> None:
    with pytest.raises(VariantError) as e:
        load_variant("klingon")
    assert str(e.value).startswith("unknown variant 'klingon'")
    assert str(VariantError("bad", key_path="dice.faces")) == "<variant>: dice.faces: bad"


def test_error_line_escapes_control_characters_in_key_paths(tmp_path: Path) -> None:
    f = write(tmp_path, "ctl.yaml", 'extends: italian\n"a\\nb": 1\n')
    with pytest.raises(VariantError) as e:
        load_variant(f)
    assert "\n" not in str(e.value) and "a\\nb" in str(e.value)
    assert e.value.key_path == "a\nb" and e.value.line == 2


def test_variant_from_document_checks_like_a_file() -> None:
    from perudo_rules.editions.variantfile import variant_from_document

    italian = load_variant("italian")
    doc = {"id": "short", "name": "Short", "extends": "italian", "dice": {"per_player": 2}}
    v = variant_from_document(doc)
    assert (v.id, v.extends, v["dice.per_player"]) == ("short", "italian", 2)
    assert v["calza.enabled"] == italian["calza.enabled"]
    full = {"id": "full", "name": "Full", **{s: dict(d) for s, d in _sections(italian).items()}}
    assert variant_from_document(full).values() == italian.values()
    with pytest.raises(VariantError, match="unknown key") as err:
        variant_from_document(
            {"id": "x", "name": "X", "extends": "italian", "dice": {"sides": 6}}, "<mine>"
        )
    assert err.value.file == "<mine>" and err.value.key_path.startswith("dice")
    with pytest.raises(VariantError, match="missing required key"):
        variant_from_document({"id": "x", "name": "X", "dice": {"per_player": 2}})
    with pytest.raises(VariantError, match=r"players\.min is larger"):
        variant_from_document(
            {"id": "x", "name": "X", "extends": "italian", "players": {"min": 9, "max": 3}}
        )


def _sections(v: Variant) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for k in v.knobs:
        section, name = k.path.split(".", 1)
        out.setdefault(section, {})[name] = k.value
    return out


def test_resolve_extends_and_the_chain(tmp_path: Path) -> None:
    from perudo_rules.editions.variantfile import extends_chain, resolve_extends, variant_path

    (tmp_path / "sub").mkdir()
    write(tmp_path, "sub/a.yaml", "extends: spanish\nname: A\npalifico: {heads_up: false}\n")
    b = write(tmp_path, "b.yaml", "extends: sub/a.yaml\n")
    assert resolve_extends("sub/a.yaml", b) == (tmp_path / "sub" / "a.yaml").resolve()
    assert resolve_extends("spanish") == variant_path("spanish").resolve()
    with pytest.raises(VariantError, match="klingon"):
        resolve_extends("klingon")
    assert extends_chain(b) == [
        b.resolve(),
        (tmp_path / "sub" / "a.yaml").resolve(),
        variant_path("spanish").resolve(),
    ]
    # a cycle or a broken link ends the chain; loading reports it
    write(tmp_path, "x.yaml", "extends: y.yaml\n")
    y = write(tmp_path, "y.yaml", "extends: x.yaml\n")
    assert extends_chain(y) == [y.resolve(), (tmp_path / "x.yaml").resolve()]
    k = write(tmp_path, "k.yaml", "extends: klingon\n")
    assert extends_chain(k) == [k.resolve()]


def test_format_value_and_differing_knobs() -> None:
    from perudo_rules.editions.variant import differing_knobs, format_value

    assert [format_value(v) for v in (True, False, None, 3, "left", [1, 2])] == [
        "true",
        "false",
        "null",
        "3",
        "left",
        "[1, 2]",
    ]
    it, es = load_variant("italian"), load_variant("spanish")
    diff = differing_knobs(it, es)
    assert diff and diff == [k.path for k in it.knobs if it[k.path] != es[k.path]]
    assert differing_knobs(it, it) == [] and differing_knobs(it) == []
    house = load_variant("italian", overrides={"dice.per_player": 3})
    assert differing_knobs(it, it, house) == ["dice.per_player"]


def test_variant_problems_lists_every_schema_problem(tmp_path: Path) -> None:
    assert all(variant_problems(vid) == [] for vid in available_variants())
    path = tmp_path / "two.yaml"
    path.write_text("extends: spanish\ndice:\n  faces: 1\n  per_player: many\n")
    problems = variant_problems(path)
    assert [(p.line, p.key_path) for p in problems] == [(3, "dice.faces"), (4, "dice.per_player")]
    assert all(isinstance(p, VariantError) and p.file == str(path) for p in problems)
    with pytest.raises(VariantError, match="and 1 more problem"):
        load_variant(path)
    assert [str(p) for p in variant_problems(tmp_path / "absent.yaml")] == [
        f"{tmp_path / 'absent.yaml'}: no such variant file"
    ]


@pytest.mark.parametrize("variant_id", available_variants())
def test_every_interpretation_names_its_other_reading(variant_id: str) -> None:
    """Each interpretation of a bundled edition either names the override that plays the
    other reading, which loads and changes the knob, or says why no knob value can."""
    v = load_variant(variant_id)
    readings = v.interpretations()
    for knob in readings:
        interp = knob.interpretation
        assert interp is not None
        assert bool(interp.override) != bool(interp.inexpressible), knob.path
        if interp.override:
            other = load_variant(variant_id, overrides=interp.overrides)
            if knob.file != v.file:
                continue  # inherited: the extending file may already play the other reading
            changed = {p for p, value in interp.overrides.items() if v[p] != value}
            assert changed and {p for p in changed if other[p] != v[p]} == changed, knob.path
