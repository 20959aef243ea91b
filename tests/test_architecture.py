"""The shape of the package: folders that are the layers, imports pointing down, no
registry, small modules.

The layering is stated once, by the folders themselves: every module lives in a folder of
``perudo_rules`` (the package's ``__init__`` and ``__main__`` aside), and a folder's floor
is one above the highest floor it imports from (:mod:`perudo_rules.sphinxext.layout`, which
``docs/architecture.rst`` draws). An import that closes a loop between folders is an
upward import and fails here, imports inside functions included, with one exception that
this test names (``layout.UPWARD_EXCEPTION``). No module imports another module's
``_private`` name, changes a name another module defines (a registry filled by imports,
a method installed on another module's class), or is over 600 lines.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from perudo_rules.base import version
from perudo_rules.sphinxext import layout

MAX_LINES = 600
MODULES = layout.modules()
KNOWN = set(MODULES)
IMPORTS = {m: layout.imports(m, p, KNOWN) for m, p in MODULES.items()}


def test_every_module_lives_in_a_layer_folder() -> None:
    loose = sorted(
        m
        for m in MODULES
        if "." not in m and m not in ("", "__main__") and MODULES[m].name != "__init__.py"
    )
    assert not loose, f"modules outside every layer folder: {loose}"


def test_the_folders_stand_on_floors() -> None:
    graph = layout.folder_graph()
    floors = layout.floors(graph)  # ValueError names an upward import
    assert floors["base"] == 1 and graph["base"] == {}
    assert max(floors.values()) >= 5, floors


def test_an_upward_import_fails(tmp_path: Path) -> None:
    # A copy of base and engine where base imports the engine: the floors refuse it.
    for folder in ("base", "engine"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "engine" / "game.py").write_text(
        "from perudo_rules.base.errors import E\nfrom perudo_rules.base.limits import L\n"
    )
    (tmp_path / "base" / "limits.py").write_text("")
    (tmp_path / "base" / "errors.py").write_text(
        "def f():\n    from perudo_rules.engine.game import Game\n"
    )
    upward = r"^perudo_rules.base.errors:2 imports from engine/, a floor above base/"
    with pytest.raises(ValueError, match=upward):
        layout.floors(layout.folder_graph(tmp_path))


def test_the_one_upward_import_is_local_and_named() -> None:
    module, target = layout.UPWARD_EXCEPTION
    floors = layout.floors(layout.folder_graph())
    ups = [
        (m, imp)
        for m, found in IMPORTS.items()
        if m not in ("", "__main__")
        for imp in found
        if layout.folder_of(imp.target) not in ("", layout.folder_of(m))
        and floors[layout.folder_of(imp.target)] > floors[layout.folder_of(m)]
    ]
    assert ups, "the exception is no longer needed: remove layout.UPWARD_EXCEPTION"
    assert {(m, imp.target) for m, imp in ups} == {(module, target)}
    assert all(imp.local for _, imp in ups), "the import up a floor must be inside a function"


def test_no_import_cycle() -> None:
    graph = {
        m: {i.target for i in found if i.target not in (m, "") and i.target in KNOWN}
        - ({layout.UPWARD_EXCEPTION[1]} if m == layout.UPWARD_EXCEPTION[0] else set())
        for m, found in IMPORTS.items()
    }
    state: dict[str, int] = {}

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for t in sorted(graph[m]):
            assert state.get(t) != 1, "import cycle: " + " -> ".join([*stack, m, t])
            if t not in state:
                visit(t, [*stack, m])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [])


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_private_import(module: str) -> None:
    for imp in IMPORTS[module]:
        assert not (imp.name.startswith("_") and not imp.name.startswith("__")), (
            f"perudo_rules.{module}:{imp.line} imports the private name {imp.name} "
            f"of {imp.target}"
        )


def test_no_command_imports_another() -> None:
    commands = {m for m in MODULES if m.startswith("cli.") and m != "cli.commandline"}
    for m in commands:
        bad = [f"{i.target} (line {i.line})" for i in IMPORTS[m] if i.target in commands]
        assert not bad, f"perudo_rules.{m} imports another command: {bad}"


def _imported_names(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith(
            "perudo_rules"
        )):
            names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {
                (a.asname or a.name).split(".")[0]
                for a in node.names
                if a.name.startswith("perudo_rules")
            }
    return names


def _root(expr: ast.expr) -> str | None:
    while isinstance(expr, ast.Attribute | ast.Subscript):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def registry_writes(source: str) -> list[tuple[int, str]]:
    """Module-level statements that change what another module defines: an assignment to
    an attribute or item of an imported name, or a call, for its effect, that hands an
    imported name over (``install(Imported)``) or calls a method on one
    (``Imported.update(...)``, ``REGISTRY.append(...)``)."""
    tree = ast.parse(source)
    imported = _imported_names(tree)
    found: list[tuple[int, str]] = []

    def check(stmt: ast.stmt, aliases: set[str]) -> None:
        names = imported | aliases
        if isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                if isinstance(t, ast.Attribute | ast.Subscript) and _root(t) in names:
                    found.append((stmt.lineno, f"assigns into {_root(t)}"))
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            if isinstance(call.func, ast.Attribute) and _root(call.func) in names:
                found.append((stmt.lineno, f"calls {_root(call.func)}.{call.func.attr}"))
            for arg in [*call.args, *(k.value for k in call.keywords)]:
                if isinstance(arg, ast.Name) and arg.id in names:
                    found.append((stmt.lineno, f"hands {arg.id} to a call for its effect"))
        elif isinstance(stmt, ast.For):
            loop = set()
            if (
                isinstance(stmt.target, ast.Name)
                and isinstance(stmt.iter, ast.Tuple | ast.List)
                and any(isinstance(e, ast.Name) and e.id in names for e in stmt.iter.elts)
            ):
                loop.add(stmt.target.id)
            for inner in stmt.body:
                check(inner, aliases | loop)
        elif isinstance(stmt, ast.If | ast.With | ast.Try):
            for inner in stmt.body:
                check(inner, aliases)

    for stmt in tree.body:
        check(stmt, set())
    return found


def test_the_registry_check_finds_registries() -> None:
    assert registry_writes(
        "from perudo_rules.engine.views import install, Observation, CODECS\n"
        "from perudo_rules.engine.game import Game\n"
        "Game.to_json = lambda g: {}\n"
        "CODECS['game'] = 1\n"
        "install(Observation)\n"
        "CODECS.update(x=1)\n"
        "for cls in (Observation, Game):\n"
        "    install(cls)\n"
    ) == [
        (3, "assigns into Game"),
        (4, "assigns into CODECS"),
        (5, "hands Observation to a call for its effect"),
        (6, "calls CODECS.update"),
        (8, "hands cls to a call for its effect"),
    ]
    assert registry_writes("from perudo_rules.base import frozen\nX = frozen.f(1)\n") == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_registry(module: str) -> None:
    found = registry_writes(MODULES[module].read_text(encoding="utf-8"))
    assert not found, f"perudo_rules.{module} changes another module's names: {found}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_stay_small(module: str) -> None:
    lines = MODULES[module].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"perudo_rules.{module} has {lines} lines (at most {MAX_LINES})"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_names_need_no_disambiguation(module: str) -> None:
    text = MODULES[module].read_text(encoding="utf-8").lower()
    assert "not to be confused" not in text, f"perudo_rules.{module}: rename instead"


def test_the_compiled_build_is_named_by_folder() -> None:
    for entry in version.COMPILED_MODULES:
        assert entry in KNOWN, f"COMPILED_MODULES names {entry!r}, which is not a module"
    folders = [e for e in version.COMPILED_MODULES if "." not in e]
    assert folders, "name whole folders in COMPILED_MODULES where the build can compile them"
    assert set(version.COMPILED_MODULE_NAMES) == {
        m
        for e in version.COMPILED_MODULES
        for m in KNOWN
        if (m == e and "." in e) or m.startswith(e + ".")
    }


def test_the_import_paths_from_before_the_folders_still_work() -> None:
    import importlib

    import perudo_rules

    for old, home in perudo_rules.MOVED.items():
        view = importlib.import_module(f"perudo_rules.{old}")
        real = importlib.import_module(f"perudo_rules.{home}")
        for name in getattr(real, "__all__", ()):
            assert getattr(view, name) is getattr(real, name), f"perudo_rules.{old}.{name}"
    from perudo_rules.messages import Refusal  # the README's paths of 0.1
    from perudo_rules.witness import find_witnesses

    assert Refusal is perudo_rules.Refusal and callable(find_witnesses)
    assert perudo_rules.referee is perudo_rules.records.referee.referee  # the function


def test_the_package_names_each_public_name_once() -> None:
    import importlib

    import perudo_rules

    for name in perudo_rules.__all__:
        home = f"perudo_rules.{perudo_rules._HOMES[name]}"
        obj = getattr(perudo_rules, name)
        assert obj is getattr(importlib.import_module(home), name)
        module = getattr(obj, "__module__", "types")  # a type alias (Action) has none of ours
        assert module in (home, "types", "typing"), f"{name} lives in {module}, not {home}"


#: Names every module of a kind defines for itself: each file format's constants and
#: schema, each command module's ``register`` (and a program's ``main``).
PER_MODULE_NAMES = {"FORMAT", "VERSION", "SCHEMA_ID", "schema_json", "register", "main"}


def test_a_public_name_means_one_thing() -> None:
    """No two modules export the same name (a package's face re-exporting its modules'
    names aside): ``replay`` is the record's, ``Step`` a position's, and so on."""
    owners: dict[str, list[str]] = {}
    for module, path in MODULES.items():
        if path.name == "__init__.py" or module == "__main__":
            continue
        try:
            loaded = importlib.import_module(f"perudo_rules.{module}")
        except ImportError:  # an adapter whose optional extra is not installed
            continue
        for name in getattr(loaded, "__all__", ()):
            owners.setdefault(name, []).append(module)
    shared = {n: m for n, m in owners.items() if len(m) > 1 and n not in PER_MODULE_NAMES}
    assert not shared, shared
