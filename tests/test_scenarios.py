"""The conformance scenarios of spec/scenarios/: run them, check the loader and the export.

``test_scenario`` runs every scenario under each variant it names; a failure reads
``scenario <id>, step <n> (...)``. The other tests check that the scenarios cover every
recorded interpretation and every edition difference, that broken scenario files give
``file:line`` errors, and that the exported JSON document is self-sufficient: a small
replayer below, which reads only the JSON (no :mod:`perudo_rules.conform.scenarios`), passes it.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from perudo_rules import (
    Bid,
    Calza,
    Dudo,
    Game,
    Leave,
    Reroll,
    available_variants,
    core_rules,
    load_variant,
)
from perudo_rules.base.errors import ActionSyntaxError, VariantError
from perudo_rules.cli import main
from perudo_rules.cli.variants import diff_variants
from perudo_rules.conform.scenarios import (
    EXPECT_KEYS,
    Scenario,
    ScenarioError,
    export_document,
    load_scenarios,
    run_scenario,
    scenario_schema,
)
from perudo_rules.editions.knobs import KNOB_PATHS, KNOBS, KnobSpec
from perudo_rules.records.position import Roll, parse_step

SCENARIOS = load_scenarios()
CASES = [(sc, vid) for sc in SCENARIOS for vid in sc.variants]

# Interpretations that no start position can show, and the test that pins each instead.
NOT_A_POSITION = {
    "setup.rolloff_dice": "tests/test_properties.py::test_first_player_roll_off (Game.new)",
    "setup.rolloff_score": "tests/test_properties.py::test_first_player_roll_off (Game.new)",
    "setup.rolloff_wild_best": "tests/test_properties.py::test_first_player_roll_off",
    "dice.per_player": "Game.new deals every seat dice.per_player dice (test_dice_conservation)",
    "setup.first_player": "tests/test_properties.py::test_first_player_roll_off (Game.new)",
}


@pytest.mark.parametrize(("scenario", "variant_id"), CASES, ids=[f"{s.id}[{v}]" for s, v in CASES])
def test_scenario(scenario: Scenario, variant_id: str) -> None:
    run_scenario(scenario, variant_id)


# --- what the scenarios cover ---------------------------------------------------------------


def test_scenarios_name_known_variants_and_rules() -> None:
    known_rules = set(KNOB_PATHS) | set(core_rules())
    bundled = set(available_variants())
    for sc in SCENARIOS:
        assert set(sc.variants) <= bundled, sc.id
        assert set(sc.rules) <= known_rules, (sc.id, set(sc.rules) - known_rules)
        assert sc.title and sc.description and sc.source, sc.id


def test_every_rulebook_example_is_a_scenario() -> None:
    """Both rulebooks' worked examples are encoded (Italian about a dozen, Spanish about
    half as many), each citing its rulebook section."""
    by_variant: dict[str, int] = {}
    for sc in SCENARIOS:
        if sc.kind == "rulebook":
            for vid in sc.variants:
                by_variant[vid] = by_variant.get(vid, 0) + 1
    assert by_variant.get("italian", 0) >= 12
    assert by_variant.get("spanish", 0) >= 6


def test_every_interpretation_has_an_edge_case() -> None:
    """Each interpretation recorded in a bundled variant file has an interpretation scenario
    run under that variant that exercises the rule, except the few no position can show."""
    covered = {
        (vid, rule)
        for sc in SCENARIOS
        if sc.kind == "interpretation"
        for vid in sc.variants
        for rule in sc.rules
    }
    missing = [
        (vid, k.path)
        for vid in available_variants()
        for k in load_variant(vid).interpretations()
        # an edition that extends another answers for the readings its own file sets
        if k.file == load_variant(vid).file
        and (vid, k.path) not in covered
        and k.path not in NOT_A_POSITION
    ]
    assert not missing


def test_every_edition_difference_has_a_side_by_side_case() -> None:
    """Every rule on which the Italian and Spanish editions differ in play has a scenario
    run under both whose expectations differ per variant."""
    cosmetic = {"wild.name", "setup.rolloff_dice"}  # a name; the roll-off is not a position
    differing = {
        r["rule"]
        for r in diff_variants([load_variant("italian"), load_variant("spanish")])
        if r["differs"]
    } - cosmetic
    side_by_side = {
        rule
        for sc in SCENARIOS
        if sc.kind == "edition-difference" and {"italian", "spanish"} <= set(sc.variants)
        for rule in sc.rules
    }
    assert differing <= side_by_side, differing - side_by_side


def _other_values(spec: KnobSpec, value: Any) -> list[Any]:
    """Values of a knob other than ``value``: its choices; for an integer, the schema's
    bounds and the neighbours of ``value``; null where the schema allows it."""
    out: list[Any] = [c for c, _ in spec.choices]
    for alt in spec.schema.get("oneOf", [spec.schema]):
        if alt.get("type") == "integer":
            low, high = alt["minimum"], alt.get("maximum", alt["minimum"] + 10)
            near = (value - 1, value + 1) if type(value) is int else ()
            out += [x for x in (low, *near, high) if low <= x <= high]
        elif alt.get("type") == "null":
            out.append(None)
    return [x for x in out if not (type(x) is type(value) and x == value)]


def _depends_on(sc: Scenario, vid: str, spec: KnobSpec) -> bool:
    """Whether ``sc`` fails under ``vid`` with only ``spec``'s knob set to another value
    (one the loader accepts with the scenario's overrides)."""
    for value in _other_values(spec, sc.variant(vid)[spec.path]):
        other = dataclasses.replace(sc, overrides={**sc.overrides, spec.path: value})
        try:
            other.variant(vid)
        except VariantError:
            continue
        try:
            run_scenario(other, vid)
        except AssertionError:
            return True
    return False


def _needs_a_scenario(spec: KnobSpec) -> bool:
    """Every knob but those no position shows, as they decide only how a new game starts
    (``decides="setup"``: their oracle, ``tests/strategies.py:new_game_expected``, is held
    to them by ``tests/test_knob_coverage.py``), and those play never reads."""
    return spec.decides != "setup" and not spec.never_read


@pytest.mark.parametrize(
    "spec", [k for k in KNOBS if _needs_a_scenario(k)], ids=lambda k: str(k.path)
)
def test_every_knob_has_a_scenario_that_depends_on_it(spec: KnobSpec) -> None:
    """A scenario names the knob among its ``rules`` and fails when only that knob takes
    another value: the scenarios pin what the knob decides, so an engine that ignored it
    (the mutant of ``.ci/mutants.py`` that reads past it) fails a scenario."""
    cases = [(sc, vid) for sc in SCENARIOS if spec.path in sc.rules for vid in sc.variants]
    assert any(_depends_on(sc, vid, spec) for sc, vid in cases), (
        f"no scenario of spec/scenarios/ that names {spec.path} in its rules fails when "
        f"{spec.path} takes another value: write one (a legal and an illegal case citing "
        "the rule id, or how a round settles)"
    )


# --- the runner bites -----------------------------------------------------------------------

GOOD = """\
scenarios:
  - id: tiny
    title: A tiny case
    variants: [italian]
    rules: [play.dudo]
    source: test
    start: {dice: [[2, 2], [3, 1]], first_player: 0}
    steps:
      - "0: bid 3x2"
      - action: "1: dudo"
        expect: {count: 3, loser: 1}
"""


def _write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_runner_passes_a_true_case_and_names_the_failing_step(tmp_path: Path) -> None:
    (sc,) = load_scenarios([_write(tmp_path, GOOD)])
    run_scenario(sc, "italian")
    (bad,) = load_scenarios([_write(tmp_path, GOOD.replace("loser: 1", "loser: 0"))])
    with pytest.raises(AssertionError, match=r"scenario tiny, step 2 .*loser is 1, expected 0"):
        run_scenario(bad, "italian")
    (wrong,) = load_scenarios(
        [
            _write(
                tmp_path,
                GOOD.replace(
                    '"0: bid 3x2"', '{action: "0: bid 3x2", expect: {illegal: bidding.order}}'
                ),
            )
        ]
    )
    with pytest.raises(AssertionError, match=r"scenario tiny, step 1 .*legal, expected illegal"):
        run_scenario(wrong, "italian")
    (rule,) = load_scenarios(
        [
            _write(
                tmp_path,
                GOOD.replace(
                    '"0: bid 3x2"', '{action: "0: bid 5x2", expect: {illegal: bidding.order}}'
                ),
            )
        ]
    )
    with pytest.raises(AssertionError, match=r"illegal by bidding.quantity_cap .*expected"):
        run_scenario(rule, "italian")


def test_per_variant_expectations_merge_over_shared_ones(tmp_path: Path) -> None:
    text = (
        GOOD.replace("[italian]", "[italian, spanish]")
        .replace("0: bid 3x2", "0: bid 2x2")
        .replace(
            "expect: {count: 3, loser: 1}",
            "expect: {count: 3, italian: {revealed: [0]}, spanish: {revealed: [0, 1]}}",
        )
    )
    (sc,) = load_scenarios([_write(tmp_path, text)])
    assert sc.kind == "edition-difference"
    assert sc.steps[1].expect_for("spanish") == {"count": 3, "revealed": [0, 1]}
    run_scenario(sc, "italian")
    run_scenario(sc, "spanish")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (GOOD.replace("    title: A tiny case\n", ""), 2, "missing required key 'title'"),
        (GOOD.replace('"0: bid 3x2"', '"0: raise 3x2"'), 9, "not an action: '0: raise 3x2'"),
        (GOOD.replace("{count: 3, loser: 1}", "{count: 3, lozer: 1}"), 11, "lozer"),
        (GOOD.replace("rules: [play.dudo]", "rules: [play.dudo]\n    rules: [x.y]"), 6, "dup"),
        (GOOD + GOOD.replace("scenarios:\n", ""), 12, "duplicate scenario id 'tiny'"),
        ("- just a list\n", 1, "must be a YAML mapping"),
    ],
    ids=[
        "missing-key",
        "bad-action",
        "unknown-expectation",
        "duplicate-key",
        "duplicate-id",
        "not-a-mapping",
    ],
)
def test_loader_errors_name_file_and_line(
    tmp_path: Path, text: str, line: int, message: str
) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        load_scenarios([path])
    err = info.value
    assert err.file == str(path) and err.line == line, str(err)
    assert str(err).startswith(f"{path}:{line}: ") and message in str(err)


def test_parse_step() -> None:
    assert parse_step(" 2 : bid 10x6 ") == Bid(2, 10, 6)
    assert parse_step("2:10x6") == Bid(2, 10, 6)
    assert parse_step("1: dudo") == Dudo(1)
    assert parse_step("3: calza") == Calza(3)
    assert parse_step("3: leave") == parse_step("3:LEAVE") == Leave(3)
    assert parse_step("roll [[1], [], [2, 3]]") == Roll(((1,), (), (2, 3)))
    for bad in ("bid 3x4", "0: bid 3", "roll [1, 2]", "roll [[", "0: pass"):
        with pytest.raises(ActionSyntaxError):
            parse_step(bad)


def test_scenario_files_may_use_the_record_notation(tmp_path: Path) -> None:
    (sc,) = load_scenarios([_write(tmp_path, GOOD.replace("0: bid 3x2", "0:3x2"))])
    assert sc.steps[0].action == "0:3x2"
    run_scenario(sc, "italian")


# --- the export -----------------------------------------------------------------------------


def test_schema_file_is_a_valid_schema_and_accepts_every_scenario_file() -> None:
    schema = scenario_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert set(schema["$defs"]["expectProps"]) == set(EXPECT_KEYS)


def test_export_command_writes_a_valid_document(tmp_path: Path) -> None:
    out = tmp_path / "scenarios.json"
    schema_out = tmp_path / "schema.json"
    assert main(["export-scenarios", str(out), "--schema", str(schema_out)]) == 0
    doc = json.loads(out.read_text(encoding="utf-8"))
    jsonschema.validate(doc, json.loads(schema_out.read_text(encoding="utf-8")))
    assert [s["id"] for s in doc["scenarios"]] == [s.id for s in SCENARIOS]
    assert doc == json.loads(json.dumps(export_document()))
    for vid, values in doc["variants"].items():
        assert values == load_variant(vid).values()


def test_export_command_errors_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = _write(tmp_path, GOOD.replace("    title: A tiny case\n", ""))
    assert main(["export-scenarios", str(tmp_path / "o.json"), str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("perudo-rules: error: ") and f"{bad}:2" in err and "\n" not in err


def _replay(doc: dict[str, Any], sc: dict[str, Any], vid: str) -> None:
    """Replays one exported scenario from its JSON alone, as another implementation would."""
    values = doc["variants"][vid] | sc.get("overrides", {})
    variant = load_variant(vid, overrides=values)
    st = sc["start"]
    g = Game.start(
        variant, st["dice"], st["first_player"], st["palifico"], st["round"], st["palifico_used"]
    )
    for step in sc["steps"]:
        expect = {k: v for k, v in step.get("expect", {}).items() if k not in doc["variants"]}
        expect |= step.get("expect", {}).get(vid, {})
        a = step["parsed"]
        if a["type"] == "roll":
            g = g.roll(dice=a["dice"])
        else:
            act: Any
            if a["type"] == "bid":
                act = Bid(a["player"], a["quantity"], a["face"])
            elif a["type"] == "reroll":
                act = Reroll(a["player"], tuple(a["set_aside"]))
            else:
                act = {"dudo": Dudo, "calza": Calza, "leave": Leave}[a["type"]](a["player"])
            bad = g.violation(act)
            if "illegal" in expect:
                assert bad is not None and bad.rule == expect["illegal"], (sc["id"], step)
                continue
            assert bad is None, (sc["id"], step, bad)
            if not step.get("probe"):
                g = g.apply(act)
        r = g.last_result
        facts = {
            "dice_counts": list(g.dice_counts),
            "to_move": g.to_move,
            "winner": g.winner,
            "palifico": g.palifico,
            "palifico_player": g.palifico_player,
            "round": g.round,
            "awaiting_roll": g.awaiting_roll,
            "current_bid": None if g.current_bid is None else str(g.current_bid),
            "wilds_active": g.wilds_active,
            "legal_bid_count": len(g.legal_actions().bid_ranks),
            "set_aside": [list(c) for c in g.set_aside],
            "dice": [list(c) for c in g.dice],
        }
        if r is not None:
            facts |= {
                "kind": r.kind,
                "count": r.count,
                "loser": r.loser,
                "gainer": r.gainer,
                "revealed": list(r.revealed),
                "shown": [list(c) for c in r.shown],
                "next_player": r.next_player,
                "next_palifico": r.next_palifico,
            }
        for key, want in expect.items():
            if key != "legal":
                assert facts[key] == want, (sc["id"], step, key)


def test_exported_document_replays_without_the_scenario_module() -> None:
    doc = json.loads(json.dumps(export_document()))
    for sc in doc["scenarios"]:
        for vid in sc["variants"]:
            _replay(doc, sc, vid)
