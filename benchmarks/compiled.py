"""A and B again, with the rules kernel compiled by mypyc (``make bench`` runs this second).

Copies the package and its data into a temporary directory, compiles the kernel's modules
there with ``mypyc`` (installed with mypy; it needs a C compiler), and runs
``benchmarks/run.py --only AB`` against that copy, so the figures show what a compiled
build would give. Nothing is installed and the checkout is not touched. Without a C
compiler (or mypyc) it says so and exits 0: the compiled figures are informative, the
Python ones are the ones the targets hold for.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The rules kernel: the modules every rule decision runs through.
KERNEL = (
    "perudo_rules/kernel.py",
    "perudo_rules/start.py",
    "perudo_rules/ranks.py",
    "perudo_rules/ruleset.py",
)


def main(argv: list[str]) -> int:
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    mypyc = shutil.which("mypyc", path=str(Path(sys.executable).parent)) or shutil.which("mypyc")
    if not cc or not mypyc:
        print("compiled kernel: skipped (no C compiler or no mypyc on this machine)")
        return 0
    with tempfile.TemporaryDirectory(prefix="perudo-mypyc-") as tmp:
        root = Path(tmp)
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.so")
        for name in ("perudo_rules", "variants", "spec"):
            shutil.copytree(ROOT / name, root / name, ignore=ignore)
        build = subprocess.run(
            [mypyc, *KERNEL], cwd=root, capture_output=True, text=True, check=False
        )
        if build.returncode != 0:
            print("compiled kernel: mypyc failed; its last lines:", file=sys.stderr)
            print("\n".join(build.stderr.splitlines()[-15:]), file=sys.stderr)
            return 1
        env = dict(os.environ, PYTHONPATH=str(root))
        print(f"\nThe same, with {', '.join(KERNEL)} compiled by mypyc:")
        return subprocess.run(
            [sys.executable, str(ROOT / "benchmarks" / "run.py"), "--only", "AB", *argv],
            cwd=root,
            env=env,
            check=False,
        ).returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
