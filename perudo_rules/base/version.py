"""The version of perudo-rules (``__version__``) and which build this copy is.

``pyproject.toml`` is the single source of the version. An installed package reads it
from its metadata; a source checkout that is not installed reads ``pyproject.toml`` itself.

The compiled build (``make compiled``, or ``PERUDO_COMPILE=1 pip install .``) compiles
the modules of :data:`COMPILED_MODULES` with mypyc; every other module, and the whole
pure-Python package, runs as plain Python. :data:`compiled` says which one is running.
This module imports nothing else of the package, so any module may use it.
"""

from __future__ import annotations

import tomllib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

__all__ = [
    "COMPILED_MODULES",
    "COMPILED_MODULE_NAMES",
    "__version__",
    "build",
    "compiled",
    "compiled_modules",
    "module_names",
]

#: The modules of ``perudo_rules`` that the compiled build compiles with mypyc: the hot paths of
#: the step API, the fast path and the OpenSpiel adapter (its positions and tensors; its
#: ``pyspiel`` subclasses stay Python, and so must every subclass of a class compiled here: mypyc
#: refuses an interpreted subclass of a compiled class). ``hatch_build.py`` (the build hook behind
#: ``make compiled``) reads this tuple; a module added here must be one that mypyc accepts (plain
#: typed Python: no ``exec``-made code on the compiled path, no interpreted subclass of a compiled
#: class). A compiled class checks the types of its fields and a compiled function those of its
#: parameters, so a value that the pure package accepts and refuses later (``Bid(0, 1.0, 2)``,
#: refused by ``apply`` as ``play.bid_range``) must not meet one: :mod:`perudo_rules.base.actions`
#: stays Python, and the entry points that check their arguments themselves (``Game.start``,
#: ``Game.new``, ``Game.apply``) take ``object``. So does every one that takes a seat, a face, a
#: count or an index, and reads it with :mod:`perudo_rules.base.seatcheck` (plain Python: a NumPy
#: integer is taken, a bool is not, in both builds); a verdict reads an action's fields through
#: ``Any`` (``fields: Any = action``), never through the action class, whose ``int`` fields mypyc
#: would unbox (``True`` as 1). ``tests/test_build_parity.py`` runs on both builds to hold them to
#: it. A folder's name stands for every module in it (its ``__init__`` aside).
COMPILED_MODULES: tuple[str, ...] = (
    "editions.ruleset",
    "engine",
    "openspiel.nodes",
    "openspiel.observer",
)

_UNKNOWN = "0+unknown"


def _version() -> str:
    # A checkout (an editable install too) reads its pyproject.toml; an installed wheel,
    # which has none beside the package, its metadata (imported only then: it is slow).
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        data = None
    if isinstance(data, dict) and data.get("project", {}).get("name") == "perudo-rules":
        version = data["project"].get("version")
        return version if isinstance(version, str) else _UNKNOWN
    from importlib import metadata

    try:
        return metadata.version("perudo-rules")
    except metadata.PackageNotFoundError:
        return _UNKNOWN


__version__: str = _version()
"""The package version, as ``pyproject.toml`` states it (``"0+unknown"`` if it cannot be read)."""


def _is_extension(module: str) -> bool:
    """Whether ``perudo_rules.<module>`` loads from a compiled extension (``.so``/``.pyd``):
    one lies beside its ``.py`` (an extension comes first in Python's search of a folder).
    Read from the folder, so neither the module nor its package (``openspiel``, which
    imports OpenSpiel) is imported."""
    *folders, stem = module.split(".")
    where = Path(__file__).resolve().parents[1].joinpath(*folders)
    return any((where / f"{stem}{suffix}").is_file() for suffix in EXTENSION_SUFFIXES)


def module_names(entries: tuple[str, ...], package: Path) -> tuple[str, ...]:
    """The dotted module names (below ``perudo_rules``) that ``entries`` name: a module as
    it is, a folder of ``package`` as each of its modules but ``__init__``, sorted. The
    build hook (``hatch_build.py``) reads the same tuple the same way."""
    names: list[str] = []
    for entry in entries:
        folder = package.joinpath(*entry.split("."))
        if folder.is_dir():
            stems = {p.name.split(".")[0] for p in folder.iterdir() if p.suffix in (".py", ".so")}
            names += [f"{entry}.{stem}" for stem in sorted(stems - {"__init__"})]
        else:
            names.append(entry)
    return tuple(names)


def compiled_modules() -> tuple[str, ...]:
    """The modules of :data:`COMPILED_MODULES` that this copy runs compiled (empty for the
    pure-Python package)."""
    return tuple(m for m in COMPILED_MODULE_NAMES if _is_extension(m))


COMPILED_MODULE_NAMES: tuple[str, ...] = module_names(
    COMPILED_MODULES, Path(__file__).resolve().parents[1]
)
"""Every module that :data:`COMPILED_MODULES` names, a folder read as its modules."""
_FOUND = compiled_modules()

compiled: bool = _FOUND == COMPILED_MODULE_NAMES
"""True when this copy is the compiled build: every module of :data:`COMPILED_MODULES`
is a mypyc extension module (``perudo-rules --version`` says so)."""

build: str = (
    "compiled (mypyc)"
    if compiled
    else f"partly compiled ({', '.join(_FOUND)})" if _FOUND else "pure Python"
)
"""Which build this copy is, in words: ``"compiled (mypyc)"``, ``"pure Python"``, or
``"partly compiled (...)"`` naming the compiled modules of a copy that mixes both."""
