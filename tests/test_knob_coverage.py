"""Adding a knob is forced by tests: the random variants draw it, the kernel's rule map names
it, the oracles restate it.

* The random-variant strategy (``tests/strategies.py``) is derived from the knob table:
  every knob path is drawn, takes more than one value, and reaches every choice; a knob
  added to :data:`perudo_rules.editions.knobs.KNOBS` is drawn without editing the strategy.
* The kernel's module docstring maps every rule id to the code that decides it; every
  knob path must be in that map.
* The oracles of ``tests/strategies.py`` restate who may bid, who may call and how a game
  starts, independently of the engine; the property tests hold the engine to them. An
  oracle that never reads a knob deciding its actions (``decides`` in the knob table, or
  read by the engine's own decision) would hold the engine to a stale rule, and pass
  wherever the random variants happen to miss the knob's effect: each must read them all.
  So must the property tests that restate how a called round settles, every knob the
  engine's settlement reads.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import strategies
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import SMALL_INTS, knob_values, variant_values

from perudo_rules.editions.knobs import KNOB_PATHS, KNOBS, KnobSpec
from perudo_rules.editions.ruleset import field_name
from perudo_rules.engine import kernel, settlement, start

TESTS = Path(__file__).resolve().parent

EXAMPLES = 400


def _drawn() -> dict[str, set[str]]:
    """The values (as repr) each knob path takes over EXAMPLES random documents."""
    seen: dict[str, set[str]] = {}

    @settings(max_examples=EXAMPLES, derandomize=True, database=None)
    @given(variant_values())
    def collect(values: dict[str, Any]) -> None:
        for path, value in values.items():
            seen.setdefault(path, set()).add(repr(value))

    collect()
    return seen


def test_every_knob_path_is_drawn_with_every_choice() -> None:
    """Each knob path is set, varies (at least two values), and reaches each of its choices
    (both booleans, every enum value) and the bounds of its small integer range."""
    seen = _drawn()
    assert set(seen) == set(KNOB_PATHS)
    for spec in KNOBS:
        values = seen[spec.path]
        assert len(values) >= 2, f"{spec.path} is never varied: {values}"
        for choice, _ in spec.choices:
            assert repr(choice) in values, (spec.path, choice)
        if spec.schema.get("type") == "integer":
            low = SMALL_INTS.get(spec.path, (spec.schema["minimum"],))[0]
            assert repr(low) in values, (spec.path, low)


def _collect(strategy: st.SearchStrategy[Any], n: int = 200) -> set[Any]:
    out: set[Any] = set()

    @settings(max_examples=n, derandomize=True, database=None)
    @given(strategy)
    def run(value: Any) -> None:
        out.add(value)

    run()
    return out


def test_a_new_knob_is_drawn_from_its_definition() -> None:
    """Knobs that do not exist yet (an enum, a bool, a bounded and an unbounded integer,
    an integer-or-null) are drawn from their definitions alone."""
    enum = KnobSpec(
        "bidding.future", {"enum": ["a", "b", "c"]}, "x", (("a", ""), ("b", ""), ("c", ""))
    )
    assert _collect(knob_values(enum)) == {"a", "b", "c"}
    flag = KnobSpec("calza.future", {"type": "boolean"}, "x", ((True, ""), (False, "")))
    assert _collect(knob_values(flag)) == {True, False}
    bounded = KnobSpec("dice.future", {"type": "integer", "minimum": 3, "maximum": 4}, "x")
    assert _collect(knob_values(bounded)) == {3, 4}
    small = _collect(knob_values(KnobSpec("dice.other", {"type": "integer", "minimum": 1}, "x")))
    assert min(small) == 1 and 1 < max(small) <= 10
    schema = {"oneOf": [{"type": "integer", "minimum": 2}, {"type": "null"}]}
    maybe = _collect(knob_values(KnobSpec("bidding.other", schema, "x")))
    assert None in maybe and len(maybe) > 2


def _rule_map() -> str:
    doc = kernel.__doc__ or ""
    head = "Where each rule is decided"
    assert head in doc, "the kernel's module docstring lost its rule map"
    return doc.split(head, 1)[1]


def test_every_knob_path_is_in_the_kernels_rule_map() -> None:
    """Every knob path names the code that decides it in kernel.py's module docstring
    (``wild.name``, which names the wild face for people, is listed as no rule)."""
    mapped = set(re.findall(r"``([a-z_]+\.[a-z_]+)(?:[:`])", _rule_map()))
    missing = [path for path in KNOB_PATHS if path not in mapped]
    assert not missing, f"add these rule ids to the map in kernel.py's docstring: {missing}"


# --- the oracles restate every knob that decides their actions ----------------------------

#: A knob's :class:`~perudo_rules.editions.ruleset.Ruleset` field, and the values the
#: ruleset derives from knobs (``wild``: the wild face, ``highest`` resolved by the faces).
_FIELDS = {field_name(path): (path,) for path in KNOB_PATHS} | {
    "wild": ("wild.face", "dice.faces"),
    "direction": ("setup.direction",),
}


def knobs_read(source: ModuleType | Path, *functions: str) -> set[str]:
    """The knob paths that ``functions`` of a module (every function, where none is named)
    read: an attribute named after a ruleset field, or a knob's value looked up by its path
    (``v["setup.direction"]``), with every function or ``self`` method of the module they
    call."""
    text = source.read_text(encoding="utf-8") if isinstance(source, Path) else None
    tree = ast.parse(text if text is not None else inspect.getsource(source))
    defs = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    todo, seen, read = list(functions or defs), set(), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for node in ast.walk(defs[name]):
            if isinstance(node, ast.Attribute):
                read.update(_FIELDS.get(node.attr, ()))
                method = isinstance(node.value, ast.Name) and node.value.id == "self"
                if method and node.attr in defs:
                    todo.append(node.attr)
            elif isinstance(node, ast.Name) and node.id in defs:
                todo.append(node.id)
            elif isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
                read.update({node.slice.value} & set(KNOB_PATHS))
    return read


#: For each kind of decision of the knob table's ``decides``: the oracle that restates it
#: (``tests/strategies.py``) and the engine's functions that decide it.
ORACLES: dict[str, tuple[str, ModuleType, tuple[str, ...]]] = {
    "calls": ("call_expected_legal", kernel, ("call_verdict",)),
    "bids": ("bid_expected_legal", kernel, ("bid_verdict", "raise_ranks")),
    "setup": ("new_game_expected", start, ("seats_verdict", "roll_off", "opening")),
}


def test_every_kind_of_decision_has_an_oracle() -> None:
    assert {k.decides for k in KNOBS} - {""} == set(ORACLES)


@pytest.mark.parametrize("decides", sorted(ORACLES))
def test_each_oracle_reads_every_knob_that_decides_its_actions(decides: str) -> None:
    """The oracle of calls reads every knob of ``decides="calls"`` and every knob the
    kernel's ``call_verdict`` reads; likewise for bids and the start of a game."""
    oracle, module, deciders = ORACLES[decides]
    table = {k.path for k in KNOBS if k.decides == decides}
    engine = knobs_read(module, *deciders)
    missing = sorted((table | engine) - knobs_read(strategies, oracle))
    assert not missing, (
        f"tests/strategies.py:{oracle} never reads {missing}, which decide {decides} "
        f"(decides={decides!r} in the knob table, or read by {module.__name__}."
        f"{'/'.join(deciders)}): restate the rule there"
    )


#: How a called round settles (who loses or gains, who opens next, palifico, the end): the
#: engine's functions, and the property tests that restate it (their helpers and
#: ``tests/strategies.py``'s oracles).
SETTLES = ("settle", "dice_lost", "calza_gain_limit", "reveal")
PROPERTIES = (TESTS / "test_properties.py", TESTS / "strategies.py")


def test_the_property_tests_read_every_knob_a_round_settles_by() -> None:
    """Every knob that ``perudo_rules.engine.settlement`` reads to settle a called round is
    read by the property tests that restate the outcome (a loss, a gain, the next opener,
    the next palifico round, the winner), as the oracles of actions are above."""
    engine = knobs_read(settlement, *SETTLES)
    restated = set().union(*(knobs_read(path) for path in PROPERTIES))
    missing = sorted(engine - restated)
    assert not missing, (
        f"the settlement reads {missing}, which no property test restates: hold the outcome "
        "to the rule in tests/test_properties.py (test_dudo_and_calza_outcomes, "
        "test_dice_conservation, test_palifico_rounds_follow_the_trigger, or a new one)"
    )


def test_knobs_read_follows_calls_and_sees_every_field() -> None:
    assert knobs_read(strategies, "wild_banned") == {
        "palifico.wild_bids",
        "bidding.wild_opening",
    }
    assert "palifico.wilds_count" in knobs_read(strategies, "bid_expected_legal")
    assert knobs_read(kernel, "next_seat") == set()
    assert "setup.direction" in knobs_read(TESTS / "test_properties.py", "_mirror_variant")
