"""The memos of the loaders (perudo_rules.base.memo): a variant or scenario file is parsed
and checked once per content, read again when it changed, and what a loader returns is
never shared in a way a caller could change."""

from __future__ import annotations

from pathlib import Path

import pytest

from perudo_rules import load_variant
from perudo_rules.base.errors import VariantError
from perudo_rules.base.memo import Memo
from perudo_rules.conform.scenarios import load_scenarios

ROOT = Path(__file__).resolve().parent.parent


def test_a_memo_drops_the_least_recently_used_beyond_its_size_or_budget() -> None:
    memo: Memo[str, int] = Memo(3, budget=10)
    for k in "abc":
        memo.put(k, ord(k))
    assert memo.get("a") == ord("a")  # now the most recently used
    memo.put("d", 0)
    assert memo.get("b") is None and len(memo) == 3
    memo.put("e", 1, weight=9)  # over the budget: the oldest go until it fits
    assert memo.get("a") is None and memo.get("c") is None and len(memo) == 2
    memo.put("f", 2, weight=50)  # a value alone over the budget is still kept
    assert memo.get("f") == 2 and memo.get("e") is None


def test_a_changed_variant_file_is_read_again(tmp_path: Path) -> None:
    f = tmp_path / "house.yaml"
    f.write_text("extends: italian\ndice:\n  per_player: 3\n", encoding="utf-8")
    assert load_variant(f)["dice.per_player"] == 3
    f.write_text("extends: italian\ndice:\n  per_player: 4\n", encoding="utf-8")
    assert load_variant(f)["dice.per_player"] == 4
    f.write_text("extends: italian\ndice:\n  per_player: four\n", encoding="utf-8")
    with pytest.raises(VariantError):
        load_variant(f)
    base = tmp_path / "base.yaml"  # a changed base is read again too
    base.write_text("extends: italian\ndice:\n  faces: 8\n", encoding="utf-8")
    f.write_text("extends: base.yaml\n", encoding="utf-8")
    assert load_variant(f)["dice.faces"] == 8
    base.write_text("extends: italian\ndice:\n  faces: 7\n", encoding="utf-8")
    assert load_variant(f)["dice.faces"] == 7


def test_a_loaded_variant_shares_nothing_a_caller_could_change() -> None:
    a, b = load_variant("italian"), load_variant("italian")
    assert a == b and a is not b
    assert a.rulebook is not None and a.rulebook is not b.rulebook
    a.rulebook["title"] = "changed"  # type: ignore[index]
    assert load_variant("italian").rulebook == b.rulebook


def test_loaded_scenarios_are_copies_and_a_changed_file_is_read_again(tmp_path: Path) -> None:
    first = load_scenarios()
    step = next(s for sc in first for s in sc.steps if s.expect)
    step.expect.clear()  # type: ignore[attr-defined]  # a caller that changes its copy
    first[0].overrides["dice.faces"] = 9  # type: ignore[index]
    again = load_scenarios()
    assert again != first and again == load_scenarios()
    one = ROOT / "spec" / "scenarios" / "leave.yaml"
    f = tmp_path / "one.yaml"
    f.write_bytes(one.read_bytes())
    ids = [sc.id for sc in load_scenarios([f])]
    f.write_text(one.read_text(encoding="utf-8").replace(f"id: {ids[0]}\n", "id: renamed\n", 1),
                 encoding="utf-8")  # fmt: skip
    assert [sc.id for sc in load_scenarios([f])] == ["renamed", *ids[1:]]


def test_a_document_in_memory_is_checked_again_when_its_content_differs() -> None:
    from perudo_rules.editions.variantfile import variant_from_document

    doc = {"extends": "italian", "dice": {"per_player": 3}}
    assert variant_from_document(doc)["dice.per_player"] == 3
    doc["dice"]["per_player"] = "three"
    with pytest.raises(VariantError):
        variant_from_document(doc)
    doc["dice"]["per_player"] = 3.0  # equal to 3, but not an integer: another document
    with pytest.raises(VariantError):
        variant_from_document(doc)
    doc["dice"]["per_player"] = True  # equal to 1, but not an integer either
    with pytest.raises(VariantError):
        variant_from_document(doc)
