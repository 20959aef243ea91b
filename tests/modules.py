"""Every importable module of the package, for tests that look across all of them."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator
from types import ModuleType

import perudo_rules


def package_modules() -> Iterator[ModuleType]:
    """Each module of ``perudo_rules`` that imports here, in walk order (``__main__`` is
    left out: importing it runs the command line; so are front ends whose optional extra,
    OpenSpiel, PettingZoo or Sphinx, is missing)."""
    for info in pkgutil.walk_packages(perudo_rules.__path__, "perudo_rules."):
        if info.name.endswith("__main__"):
            continue
        try:
            yield importlib.import_module(info.name)
        except ImportError:
            continue
