"""Each public name has one home, and each shared fact one function (issue 18)."""

from __future__ import annotations

import importlib
import pkgutil
import random

import pytest

from perudo_rules import cli as commands
from perudo_rules.cli.commandline import COMMANDS, command_modules
from perudo_rules.engine.start import cut_cups, roll_cups
from tests.modules import package_modules


def _exported(name: str) -> list[str]:
    """The modules (sphinxext included) whose ``__all__`` lists ``name``."""
    return [m.__name__ for m in package_modules() if name in getattr(m, "__all__", ())]


def test_limits_are_exported_by_limits_only() -> None:
    from perudo_rules.base import limits

    for name in (n for n in limits.__all__ if n.startswith("MAX_")):
        homes = set(_exported(name))
        assert homes == {"perudo_rules.base.limits"}, f"{name} is exported by {sorted(homes)}"


def test_format_value_has_one_home() -> None:
    assert _exported("format_value") == ["perudo_rules.editions.variant"]


def test_witness_has_one_home() -> None:
    assert _exported("Witness") == ["perudo_rules.analysis.witnessvalue"]


def test_witness_does_not_re_export() -> None:
    from perudo_rules.analysis import witness

    assert not {"Roll", "differing_knobs"} & set(witness.__all__)


def test_every_command_module_registers_what_the_command_table_says() -> None:
    import argparse

    found = {
        m.name: importlib.import_module(f"perudo_rules.cli.{m.name}")
        for m in pkgutil.iter_modules(commands.__path__)
    }
    registering = {name for name, m in found.items() if hasattr(m, "register")}
    assert registering == set(COMMANDS.values())
    for name in registering:
        sub = argparse.ArgumentParser().add_subparsers()
        found[name].register(sub)
        assert set(sub.choices) == {c for c, m in COMMANDS.items() if m == name}, name
    assert [m.__name__ for m in command_modules(["--lang", "it", "check", "x"])] == [
        "perudo_rules.cli.check"
    ]
    assert len(command_modules(["--help"])) == len(registering)


def test_a_command_imports_only_what_it_needs() -> None:
    import subprocess
    import sys

    code = (
        "import sys; from perudo_rules.cli import main\n"
        "main(['check', 'spanish', '--bids', '8x4 5x1', '--players', '4'])\n"
        "print(sorted(m for m in sys.modules if m.startswith(('perudo_rules.analysis',"
        " 'perudo_rules.conform.runner', 'perudo_rules.cli.', 'sphinx'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == (
        "['perudo_rules.cli.check', 'perudo_rules.cli.commandline']"
    )


@pytest.mark.parametrize(
    ("run", "counts", "cups"),
    [
        ([1, 2, 3, 4, 5], (2, 0, 3), ((1, 2), (), (3, 4, 5))),
        ([6, 6, 1], (1, 1, 1), ((6,), (6,), (1,))),
        ([4, 5], (1, 3, 2), ((4,), (5,), ())),  # a short run: the later cups are short
        ([], (0, 0), ((), ())),
    ],
)
def test_cut_cups_deals_a_run_seat_by_seat(
    run: list[int], counts: tuple[int, ...], cups: tuple[tuple[int, ...], ...]
) -> None:
    assert cut_cups(run, counts) == cups


def test_roll_cups_is_one_run_cut_into_cups() -> None:
    counts = (3, 0, 5, 1)
    rolled = roll_cups(6, counts, random.Random(9))
    rng = random.Random(9)
    run = [int(rng.random() * 6) + 1 for _ in range(sum(counts))]
    assert rolled == cut_cups(run, counts)


def _prose() -> dict[str, str]:
    from perudo_rules.editions.corerules import core_rule_details
    from perudo_rules.editions.variantfile import data_dir

    def words(rule: dict[str, object]) -> str:  # the text, and every prose part of its reading
        reading = rule["interpretation"] or {}
        assert isinstance(reading, dict)
        return " ".join([str(rule["text"]), *(v for v in reading.values() if isinstance(v, str))])

    core = " ".join(words(r) for r in core_rule_details())
    glossary = (data_dir("spec").parent / "docs" / "glossary.rst").read_text(encoding="utf-8")
    return {"spec/core-rules.yaml": core, "docs/glossary.rst": glossary}


def test_core_rules_and_glossary_name_knobs_that_exist() -> None:
    """The shared prose refers to knobs by path; a renamed knob must not leave it stale."""
    import re

    from perudo_rules.editions.corerules import core_rules
    from perudo_rules.editions.knobs import KNOB_PATHS

    known = set(KNOB_PATHS) | set(core_rules())
    sections = {p.split(".")[0] for p in KNOB_PATHS} | {"play"}
    for name, text in _prose().items():
        for ref in re.findall(r":rule:`(?:[\w-]+:)?([\w.]+)`", text):
            assert ref in known, f"{name} refers to {ref}, which is no rule"
        for token in re.findall(r"\b([a-z]+\.[a-z_]+)\b", text):
            if token.split(".")[0] in sections:
                assert token in known, f"{name} names {token}, which is no rule"


def test_core_rules_name_every_knob() -> None:
    """Every knob varies a rule that every edition shares, and the statement of that rule in
    ``spec/core-rules.yaml`` says so by the knob's path (``... is the knob calza.who``): a
    reader of the core rules learns what they leave to the editions, and a new knob fails
    here until the sentence it changes names it."""
    import re

    from perudo_rules.editions.corerules import core_rule_details
    from perudo_rules.editions.knobs import KNOB_PATHS

    named = {
        token
        for rule in core_rule_details()
        for token in re.findall(r"\b[a-z]+\.[a-z_]+\b", str(rule["text"]))
    }
    missing = [path for path in KNOB_PATHS if path not in named]
    assert not missing, (
        f"spec/core-rules.yaml names no {missing}: say, in the text of the fixed rule each "
        "knob varies, that it is the knob's to decide (by its path, never its values)"
    )


@pytest.mark.parametrize(
    "restated",
    [r"\bones\b", r"\bface 1\b", r"\btwice\b", r"\bdouble\b", r"\busually\b", r"\blocked\b"],
)
def test_shared_prose_does_not_restate_knob_values(restated: str) -> None:
    """Knob values differ between editions and live in the variant files; prose that every
    edition shares says which knob decides, not what it usually is (issue 18)."""
    import re

    for name, text in _prose().items():
        assert not re.search(restated, text, re.IGNORECASE), f"{name} restates a value"
