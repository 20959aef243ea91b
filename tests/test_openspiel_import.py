"""Importing perudo_rules never imports OpenSpiel; the adapter says what to install.

These run whether or not open_spiel is installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_importing_perudo_rules_does_not_import_pyspiel() -> None:
    code = (
        "import sys, perudo_rules, perudo_rules.cli, perudo_rules.engine.game\n"
        "import perudo_rules.editions.variantfile\n"
        "perudo_rules.load_variant('italian')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pyspiel', 'open_spiel'))\n"
        "print(bad)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_without_open_spiel_the_adapter_says_what_to_install() -> None:
    code = (
        "import sys\n"
        "sys.modules['pyspiel'] = None\n"
        "try:\n"
        "    import perudo_rules.openspiel\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert "pip install 'perudo-rules[openspiel]'" in out.stdout
