"""The compiled build: a hatchling build hook that compiles the hot modules with mypyc.

``PERUDO_COMPILE=1 pip install .`` (or ``make compiled``) builds a wheel in which the
modules of ``perudo_rules.base.version.COMPILED_MODULES`` are C extensions made by mypyc, as
black and mypy ship theirs; every other module, and the ``.py`` source of the compiled
ones, is in the wheel as usual. Without ``PERUDO_COMPILE`` this hook does nothing and the
wheel is the pure-Python package. The same source runs both ways.

It needs mypy (which brings mypyc), setuptools and a C compiler. The modules are compiled
in a temporary copy of the package, so the checkout never holds a ``.so`` that would
shadow its ``.py`` files. If mypyc rejects a module, or does not build one, the build
fails with mypyc's own error lines and the module named.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

PACKAGE = "perudo_rules"
SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="perudo-rules-compiled",
    ext_modules=mypycify(
        ["--ignore-missing-imports", *sys.argv[3:]], opt_level="3", debug_level="0"
    ),
    script_args=sys.argv[1:3],
)
"""


def compiled_modules(root: Path) -> tuple[str, ...]:
    """The module paths (``engine/kernel``) that ``COMPILED_MODULES`` in
    ``perudo_rules/base/version.py`` names, a folder standing for its modules, read without
    importing the package (the build environment has none of its dependencies)."""
    tree = ast.parse((root / PACKAGE / "base" / "version.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == "COMPILED_MODULES"
            and node.value is not None
        ):
            entries = ast.literal_eval(node.value)
            assert isinstance(entries, tuple) and all(isinstance(m, str) for m in entries)
            paths: list[str] = []
            for entry in entries:
                folder = root / PACKAGE / entry.replace(".", "/")
                if folder.is_dir():
                    paths += [
                        f"{entry.replace('.', '/')}/{p.stem}"
                        for p in sorted(folder.glob("*.py"))
                        if p.stem != "__init__"
                    ]
                else:
                    paths.append(entry.replace(".", "/"))
            return tuple(paths)
    raise RuntimeError(f"{PACKAGE}/base/version.py defines no COMPILED_MODULES")


def enabled() -> bool:
    """Whether this build is the compiled one (``PERUDO_COMPILE`` set, not ``0``)."""
    return os.environ.get("PERUDO_COMPILE", "").strip().lower() not in ("", "0", "false", "no")


class CompiledBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles ``COMPILED_MODULES`` with mypyc when ``PERUDO_COMPILE`` is set."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """mypy (mypyc) and setuptools (its ``build_ext``), for the compiled build only."""
        return ["mypy>=1.10", "setuptools>=61"] if enabled() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or not enabled():
            return
        if version == "editable":
            raise RuntimeError(
                "PERUDO_COMPILE: the compiled build is a regular install "
                "(pip install ., not pip install -e .)"
            )
        root = Path(self.root)
        modules = compiled_modules(root)
        self._tmp = tmp = Path(tempfile.mkdtemp(prefix="perudo-mypyc-"))
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so", "*.pyd", "_data")
        shutil.copytree(root / PACKAGE, tmp / PACKAGE, ignore=ignore)
        (tmp / "setup_mypyc.py").write_text(SETUP, encoding="utf-8")
        sources = [f"{PACKAGE}/{m}.py" for m in modules]
        self.app.display_info(f"mypyc: compiling {', '.join(sources)}")
        proc = subprocess.run(
            [sys.executable, "setup_mypyc.py", "build_ext", "--inplace", *sources],
            cwd=tmp,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            out = (proc.stdout + proc.stderr).splitlines()
            errors = [line for line in out if ": error:" in line] or out[-25:]
            raise RuntimeError(
                f"the compiled build failed: mypyc could not compile {', '.join(sources)}:\n"
                + "\n".join(errors)
                + "\n(a module that mypyc rejects must leave"
                " perudo_rules.base.version.COMPILED_MODULES or be made plain typed Python)"
            )
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        missing = [m for m in modules if not (tmp / PACKAGE / f"{m}{suffix}").is_file()]
        if missing:
            raise RuntimeError(f"the compiled build failed: mypyc built no extension for {missing}")
        force = build_data["force_include"]
        for path in sorted(tmp.glob(f"*{suffix}")):  # the group's shared library, if any
            force[str(path)] = path.name
        for m in modules:
            force[str(tmp / PACKAGE / f"{m}{suffix}")] = f"{PACKAGE}/{m}{suffix}"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        tmp = getattr(self, "_tmp", None)
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
