"""Each public name has one home, and each shared fact one function (issue 18)."""

from __future__ import annotations

import importlib
import pkgutil
import random

import pytest

import perudo_rules
from perudo_rules import commands
from perudo_rules.cli import COMMAND_MODULES
from perudo_rules.kernel import cut_cups, roll_cups

# Modules that still list limits they import; the record work of issue 18 removes these.
_PENDING = {"perudo_rules.record", "perudo_rules.recordformat"}


def _exported(name: str) -> list[str]:
    """The modules (sphinxext included) whose ``__all__`` lists ``name``."""
    found = []
    for info in pkgutil.walk_packages(perudo_rules.__path__, "perudo_rules."):
        if info.name.endswith("__main__"):  # runs the command line when imported
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional extra (OpenSpiel, PettingZoo, Sphinx) is missing
            continue
        if name in getattr(module, "__all__", ()):
            found.append(info.name)
    return found


def test_limits_are_exported_by_limits_only() -> None:
    from perudo_rules import limits

    for name in (n for n in limits.__all__ if n.startswith("MAX_")):
        homes = set(_exported(name)) - _PENDING
        assert homes == {"perudo_rules.limits"}, f"{name} is exported by {sorted(homes)}"


def test_format_value_has_one_home() -> None:
    assert _exported("format_value") == ["perudo_rules.variant"]


def test_witness_does_not_re_export() -> None:
    from perudo_rules import witness

    assert not {"Roll", "differing_knobs"} & set(witness.__all__)


def test_every_command_module_is_registered_by_a_plain_import() -> None:
    found = {
        importlib.import_module(f"perudo_rules.commands.{m.name}")
        for m in pkgutil.iter_modules(commands.__path__)
    }
    registering = {m for m in found if hasattr(m, "register")}
    assert set(COMMAND_MODULES) == registering
    assert len(COMMAND_MODULES) == len(registering)


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
