"""The wheel ships the data: a non-editable install in a fresh venv loads every bundled variant."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
from pathlib import Path

from perudo_rules import available_variants

ROOT = Path(__file__).resolve().parent.parent


def test_wheel_installs_and_loads_every_variant(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "-w",
            str(wheels),
            str(ROOT),
        ],
        check=True,
    )
    (wheel,) = wheels.glob("perudo_rules-*.whl")
    env_dir = tmp_path / "fresh"
    venv.create(env_dir, with_pip=True)
    py = env_dir / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "--quiet", str(wheel)], check=True)
    script = (
        "import json, perudo_rules as p\n"
        "ids = p.available_variants()\n"
        "vs = [p.load_variant(i) for i in ids]\n"
        "g = p.Game.new(vs[0], players=2, seed=1)\n"
        "print(json.dumps({'ids': ids, 'file': p.__file__, 'rules': len(p.core_rules()),"
        " 'legal': len(g.legal_actions())}))\n"
    )
    out = subprocess.run(
        [str(py), "-c", script], check=True, capture_output=True, text=True, cwd=tmp_path
    )
    data = json.loads(out.stdout)
    assert data["ids"] == available_variants()
    assert str(env_dir) in data["file"]  # the installed copy, not the source tree
    assert data["rules"] > 5 and data["legal"] > 0
    cli = subprocess.run(
        [str(env_dir / "bin" / "perudo-rules"), "list"], capture_output=True, text=True
    )
    assert cli.returncode == 0 and "italian" in cli.stdout
    # the compiled catalogues ship too: the installed copy speaks Italian
    cli = subprocess.run(
        [str(env_dir / "bin" / "perudo-rules"), "list", "--lang", "it"],
        capture_output=True,
        text=True,
    )
    assert cli.returncode == 0 and "Perudo (edizione italiana)" in cli.stdout
