"""Importing perudo_rules never imports OpenSpiel; the adapter says what to install.

These run whether or not open_spiel is installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _python(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run by a fresh interpreter at the repository root (it must succeed)."""
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )


def test_importing_perudo_rules_does_not_import_pyspiel() -> None:
    code = (
        "import sys, perudo_rules, perudo_rules.cli, perudo_rules.engine.game\n"
        "import perudo_rules.editions.variantfile\n"
        "perudo_rules.load_variant('italian')\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('pyspiel', 'open_spiel'))\n"
        "print(bad)\n"
    )
    out = _python(code)
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
    out = _python(code)
    assert "pip install 'perudo-rules[openspiel]'" in out.stdout


def test_the_install_hint_is_in_the_readers_language() -> None:
    """Each front end that needs an extra says so in the language of the context, with the
    same command: OpenSpiel's adapter, the PettingZoo environments, the Gymnasium one."""
    code = (
        "import sys\n"
        "from perudo_rules.base.i18n import use_language\n"
        "sys.modules['pyspiel'] = sys.modules['pettingzoo'] = sys.modules['gymnasium'] = None\n"
        "for lang in ('en', 'it', 'es'):\n"
        "    for module in ('openspiel', 'pettingzoo.aec', 'pettingzoo.single'):\n"
        "        with use_language(lang):\n"
        "            try:\n"
        "                __import__('perudo_rules.' + module)\n"
        "            except ImportError as e:\n"
        "                print(lang, module, e, sep='|')\n"
    )
    out = _python(code)
    said = {tuple(line.split("|")[:2]): line.split("|")[2] for line in out.stdout.splitlines()}
    assert len(said) == 9, out.stdout
    for module, extra in [
        ("openspiel", "openspiel"),
        ("pettingzoo.aec", "pettingzoo"),
        ("pettingzoo.single", "pettingzoo"),
    ]:
        texts = [said[lang, module] for lang in ("en", "it", "es")]
        assert len(set(texts)) == 3, texts  # three languages, three sentences
        for text in texts:
            assert f"pip install 'perudo-rules[{extra}]'" in text
    assert said["en", "openspiel"] == (
        "perudo_rules.openspiel needs OpenSpiel: pip install 'perudo-rules[openspiel]'"
    )
