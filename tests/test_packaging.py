"""Packaging: the wheel ships the data (a non-editable install in a fresh venv loads every
bundled variant), and the Makefile's two commands install what each needs (read from the
Makefile, pip not run)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
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


def _make_rules() -> dict[str, tuple[list[str], list[str]]]:
    """The Makefile's rules: target -> (prerequisites, recipe lines), variables expanded
    (``$(VENV)/.docs`` is ``.venv/.docs``), continued lines joined."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ")
    variables: dict[str, str] = {}

    def expand(s: str) -> str:
        for _ in range(5):
            s = re.sub(r"\$\((\w+)\)", lambda m: variables.get(m.group(1), m.group(0)), s)
        return s

    rules: dict[str, tuple[list[str], list[str]]] = {}
    recipe: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("\t") and recipe is not None:
            recipe.append(expand(line.strip()))
            continue
        if m := re.match(r"^(\w+)\s*(?:\?=|:=|=)\s*(.*?)\s*(?:#.*)?$", line):
            variables[m.group(1)] = expand(m.group(2))
            recipe = None
        elif (m := re.match(r"^([^\s:#=][^:=]*):(?!=)(.*)$", line)) and not line.startswith("."):
            target = expand(m.group(1).strip())
            prereqs = expand(m.group(2).replace("|", " ")).split()
            recipe = []
            rules[target] = (prereqs, recipe)
        else:
            recipe = None
    return rules


def _installs(rules: dict[str, tuple[list[str], list[str]]], target: str) -> list[str]:
    """Every ``pip install`` command that making ``target`` may run, in order."""
    seen: list[str] = []
    out: list[str] = []

    def walk(t: str) -> None:
        if t in seen or t not in rules:
            return
        seen.append(t)
        prereqs, recipe = rules[t]
        for p in prereqs:
            walk(p)
        for line in recipe:
            out.extend(re.findall(r"pip install[^&|;)]*", line))

    walk(target)
    return out


def _extras(command: str) -> set[str]:
    found = re.search(r"\.\[([^\]]*)\]", command)
    return set(found.group(1).split(",")) if found else set()


PEERS = ("open_spiel", "openspiel", "pettingzoo", "textarena", "supersuit")


def test_make_spec_installs_only_what_the_docs_build_needs() -> None:
    rules = _make_rules()
    installs = _installs(rules, "spec")
    assert installs, "make spec installs nothing"
    extras = set().union(*map(_extras, installs))
    assert {"docs", "plot"} <= extras
    assert extras <= {"docs", "plot"}, extras  # no test extras, no RL extras
    for command in installs:
        assert not any(peer in command.lower() for peer in PEERS), command


def test_make_test_installs_the_test_extras_and_peers_textarena_last() -> None:
    rules = _make_rules()
    installs = _installs(rules, "test")
    extras = set().union(*map(_extras, installs))
    # ray: the Ray backend's tests (tests/test_ray.py) run in CI, not skip
    assert {"test", "docs", "plot", "openspiel", "pettingzoo", "ray"} <= extras
    # TextArena without its LLM clients: its imports first, then the package alone, as the
    # very last install (pip reports the missing clients when it installs anything that a
    # textarena installed before it depends on)
    assert "--no-deps" in installs[-1] and "textarena" in installs[-1]
    assert all("textarena" not in c for c in installs[:-1])
    needs = next(c for c in installs if "nltk" in c)
    assert {"nltk", "rich", "websockets"} <= set(needs.split())
    # the README's TextArena section gives the same two commands in the same order
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## TextArena", 1)[1].split("\n## ", 1)[0]
    shown = [c.split("#")[0].strip() for c in re.findall(r"pip install[^\n]*", section)]
    assert shown[-2:] == [needs.replace("--quiet ", "").strip(),
                          installs[-1].replace("--quiet ", "").strip()]  # fmt: skip


def test_every_extra_the_makefile_installs_is_declared() -> None:
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ])
    rules = _make_rules()
    for target in ("spec", "test"):
        for command in _installs(rules, target):
            assert _extras(command) <= declared, command
