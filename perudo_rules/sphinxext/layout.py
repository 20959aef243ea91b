"""The package's layers, read from its folders and their imports.

Each folder of ``perudo_rules`` is a layer. A folder's *floor* is one above the highest
floor it imports from (``base`` imports no other folder: floor 1), so the floors are the
folders' import graph laid out bottom up, and the folder listing is the architecture. An
import from a folder to one on its own floor or above it closes a loop between folders: an
*upward import*, which ``tests/test_architecture.py`` refuses, naming the file and line.
One import is allowed up a floor, and named here: :data:`UPWARD_EXCEPTION`.

Nothing here imports Sphinx: the architecture test and the ``perudo-layers`` directive
(``docs/architecture.rst``) both read the package through this module.
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "PACKAGE",
    "UPWARD_EXCEPTION",
    "Import",
    "floors",
    "folder_graph",
    "folder_of",
    "imports",
    "modules",
]

PACKAGE = Path(__file__).resolve().parents[1]
"""The ``perudo_rules`` folder."""

UPWARD_EXCEPTION: tuple[str, str] = ("engine.game", "records.gamejson")
"""The one import up a floor: :meth:`Game.to_json <perudo_rules.engine.game.Game.to_json>`
and :meth:`Game.from_json <perudo_rules.engine.game.Game.from_json>` import the record's
JSON codec where they run (a game's JSON is its record, a floor above the game)."""


@dataclass(frozen=True)
class Import:
    """One import of a ``perudo_rules`` module: where it is, what it names, and whether it
    runs when the module loads (``local`` is an import inside a function)."""

    line: int
    target: str
    name: str
    local: bool


def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by its dotted name below ``perudo_rules`` (a folder's
    ``__init__`` by the folder's name, the package's own ``__init__`` as ``""``)."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def folder_of(module: str) -> str:
    """The folder (the layer) a module lives in: the first part of its dotted name."""
    return module.split(".", 1)[0]


def imports(module: str, path: Path, known: set[str]) -> list[Import]:
    """Every import of a ``perudo_rules`` module in ``module``'s source, with the module it
    loads (a submodule when the name imported is one, else the module named)."""
    pkg = module if path.name == "__init__.py" else module.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        local = id(node) not in top and not _guarded(tree, node)
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                target = f"{base}.{node.module}".strip(".") if node.module else base
            elif node.module and (node.module + ".").startswith("perudo_rules."):
                target = node.module.removeprefix("perudo_rules").lstrip(".")
            else:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}".strip(".")
                target_module = sub if sub in known else target
                found.append(Import(node.lineno, target_module, alias.name, local))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if (alias.name + ".").startswith("perudo_rules."):
                    target = alias.name.removeprefix("perudo_rules").lstrip(".")
                    found.append(Import(node.lineno, target, "", local))
    return found


def _guarded(tree: ast.Module, node: ast.AST) -> bool:
    """Whether ``node`` sits in a module-level ``if``/``try`` (``if TYPE_CHECKING:``, an
    optional dependency): it loads with the module, so it is not a local import."""
    for stmt in tree.body:
        if isinstance(stmt, ast.If | ast.Try) and any(n is node for n in ast.walk(stmt)):
            return True
    return False


def folder_graph(package: Path = PACKAGE) -> dict[str, dict[str, list[str]]]:
    """For each folder, the folders it imports from and, for each, where (``module:line``);
    the package's own ``__init__`` and ``__main__`` stand above every folder and are left
    out, and so is :data:`UPWARD_EXCEPTION`."""
    mods = modules(package)
    known = set(mods)
    graph: dict[str, dict[str, list[str]]] = {}
    for module, path in mods.items():
        folder = folder_of(module)
        if folder in ("", "__main__"):
            continue
        graph.setdefault(folder, {})
        for imp in imports(module, path, known):
            other = folder_of(imp.target)
            if other in (folder, "") or (module, imp.target) == UPWARD_EXCEPTION:
                continue
            graph[folder].setdefault(other, []).append(f"perudo_rules.{module}:{imp.line}")
    return graph


def floors(graph: dict[str, dict[str, list[str]]]) -> dict[str, int]:
    """Each folder's floor (1 for a folder that imports no other); ``ValueError`` naming
    the loop and an import that closes it when the folders import each other in a loop."""
    floor: dict[str, int] = {}
    state: dict[str, int] = {}

    def visit(folder: str, stack: list[str]) -> int:
        if state.get(folder) == 1:
            loop = [*stack[stack.index(folder):], folder]
            # The loop's odd edge, the one with the fewest imports, is the upward one.
            edges = list(itertools.pairwise(loop))
            low, high = min(edges, key=lambda e: (len(graph[e[0]][e[1]]), e))
            raise ValueError(
                f"{', '.join(graph[low][high])} imports from {high}/, a floor above "
                f"{low}/ (the folders import each other: {' -> '.join(f'{f}/' for f in loop)})"
            )
        if folder not in floor:
            state[folder] = 1
            below = [visit(other, [*stack, folder]) for other in sorted(graph.get(folder, {}))]
            floor[folder] = 1 + max(below, default=0)
            state[folder] = 2
        return floor[folder]

    for folder in sorted(graph):
        visit(folder, [])
    return floor
