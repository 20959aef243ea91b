"""The shape of the package: layers, imports pointing one way, private names, module size.

The layer table below is the architecture (``docs/architecture.rst`` includes it): a
module may import only modules of its own layer or of lower ones, imports inside
functions included, and the import graph has no cycle. No module imports another
module's ``_private`` name, and none is over 700 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "perudo_rules"
MAX_LINES = 700

# [layers-start]
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    # Values and errors that everything shares; no rules. ``messages``: refusals as data
    # (rule id, message id, parameters) and the one table of their English sentences.
    ("base", (
        "safetext", "limits", "output", "i18n", "messages", "errors", "_yaml", "frozen",
        "actions", "knobs", "crossknob", "version", "builders",
    )),
    # A variant: the knob table typed, validated, loaded; the fixed core rules.
    ("variant", ("ruleset", "schema", "variant", "rules")),
    # The rules kernel: the bid table and every decision that varies between editions.
    ("kernel", ("ranks", "kernel", "leaving", "start", "reroll")),
    # The state: immutable games and pure transitions that ask the kernel.
    ("game", ("legal", "views", "rounds", "game")),
    # What builds on games: the fast path, odds, positions, records.
    ("record", (
        "fastplay", "probability", "describe", "position", "redact", "record", "recordformat",
        "gamejson",
    )),
    # Integer action ids for the RL adapters.
    ("ids", ("actionmap",)),
    # Tools over games and records; perft counts and the conformance kit. The witness
    # search: situations replayed (divergence), the search, the proofs, the witnesses.
    ("tools", (
        "referee", "scenarios", "divergence", "witnesssearch", "witnessproof", "witness",
        "bots", "simulate", "perft", "conform",
    )),
    # Front ends: the command line, the Sphinx extension, the RL adapters, the built-in
    # conformance harnesses, the package.
    ("front", (
        "commands", "cli", "sphinxext", "openspiel", "pettingzoo", "harness", "__main__", "",
    )),
)
# [layers-end]


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _layer(module: str) -> int:
    top = module.split(".", 1)[0]
    for i, (_, names) in enumerate(LAYERS):
        if top in names:
            return i
    raise AssertionError(f"perudo_rules.{module} has no layer: add it to LAYERS")


def _imports(module: str, path: Path, known: set[str]) -> list[tuple[int, str, str]]:
    """(line, imported module, name) for every import of a perudo_rules module."""
    pkg = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
                found.append((node.lineno, sub if sub in known else target, alias.name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if (alias.name + ".").startswith("perudo_rules."):
                    target = alias.name.removeprefix("perudo_rules").lstrip(".")
                    found.append((node.lineno, target, ""))
    return found


MODULES = _modules()


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_point_down_the_layers(module: str) -> None:
    mine = _layer(module)
    for line, target, name in _imports(module, MODULES[module], set(MODULES)):
        if target == module or target.startswith(module + "."):
            continue
        assert _layer(target) <= mine, (
            f"perudo_rules.{module}:{line} imports perudo_rules.{target} "
            f"({LAYERS[_layer(target)][0]}), above its layer ({LAYERS[mine][0]})"
        )
        assert not (name.startswith("_") and not name.startswith("__")), (
            f"perudo_rules.{module}:{line} imports the private name {name} of {target}"
        )


def test_no_import_cycle() -> None:
    known = set(MODULES)
    graph = {
        m: {t for _, t, _ in _imports(m, p, known) if t != m and t in known and t != ""}
        for m, p in MODULES.items()
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
def test_modules_stay_small(module: str) -> None:
    lines = MODULES[module].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"perudo_rules.{module} has {lines} lines (at most {MAX_LINES})"
