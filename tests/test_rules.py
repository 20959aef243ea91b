"""Rule ids: every id the engine can name is a knob path or a fixed rule of the spec."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from perudo_rules import load_variant, rule_text
from perudo_rules.editions.corerules import core_rule_details, core_rules
from perudo_rules.editions.knobs import KNOB_PATHS, SECTIONS

ROOT = Path(__file__).resolve().parent.parent
ID = re.compile(r"^(play|" + "|".join(SECTIONS) + r")\.[a-z_]+$")


def engine_rule_ids() -> set[str]:
    """Every rule id the engine (the kernel, the modules beside it, the game) names."""
    ids: set[str] = set()
    for path in sorted((ROOT / "perudo_rules" / "engine").glob("*.py")):
        tree = ast.parse(path.read_text())
        ids |= {
            n.value
            for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and ID.match(n.value)
        }
    return ids


def test_every_rule_id_named_by_the_engine_is_known() -> None:
    ids = engine_rule_ids()
    assert len(ids) >= 12
    unknown = ids - set(core_rules()) - set(KNOB_PATHS)
    assert not unknown, unknown


def test_fixed_ids_do_not_collide_with_knob_paths() -> None:
    assert not set(core_rules()) & set(KNOB_PATHS)
    assert all(i.startswith("play.") for i in core_rules())


def test_rule_text_answers_for_both_kinds() -> None:
    v = load_variant("italian")
    assert "Aztec" in rule_text("wild.face", v)
    assert rule_text("play.turn") == core_rules()["play.turn"]


def test_core_interpretations_have_both_readings() -> None:
    recorded = [r for r in core_rule_details() if r["interpretation"]]
    assert {r["id"] for r in recorded} >= {"play.public_counts", "play.reveal"}
    for r in recorded:
        i = r["interpretation"]
        assert {"chosen", "alternative", "reason"} <= set(i) and all(i.values())
        # the other reading is a knob override away (play.leave), or it says why none is
        assert set(i) - {"chosen", "alternative", "reason"} in ({"inexpressible"}, {"override"})
        if "override" in i:
            base, other = load_variant("italian"), load_variant("italian", overrides=i["override"])
            assert all(other[path] == value for path, value in i["override"].items())
            assert any(base[path] != value for path, value in i["override"].items())
