"""The command line in-process on generated argument lists and files (issue 15).

Hypothesis draws a command, hostile arguments (huge, negative or malformed numbers,
tokens that are not bids, paths to FIFOs, devices, directories, symbolic-link loops,
names with a newline or an undecodable byte) and files (mutated variants, records,
positions and scenarios, or random text), runs ``perudo_rules.cli.commandline`` and checks the
contract: exit 0, 1 or 2, no traceback, no internal error, and an exit 2 explained by
exactly one error line. The sizes drawn stay small where the input is valid, so every
example runs in a fraction of a second.
"""

from __future__ import annotations

import io
import json
import os
import sys

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from perudo_rules.cli import main
from tests.test_hostile import RECORD, VARIANT_DOC, dump_yaml, mutated

SPECIAL = {
    "fifo": "fifo.yaml",
    "dir": "folder",
    "loop": "loop1.yaml",
    "newline": "two\nlines.yaml",
    "latin1": "caf\udce9.yaml",
    "missing": "missing/nothing.yaml",
}
POSITION = {"dice": [[1, 4, 4], [2, 6], [3, 3]], "first_player": 0, "actions": ["0:2x4"]}
SCENARIO_DOC = {
    "scenarios": [
        {
            "id": "x",
            "title": "X",
            "variants": ["italian"],
            "rules": ["play.roll"],
            "source": "s",
            "description": "d",
            "start": {"dice": [[1, 4], [3, 3]], "first_player": 0},
            "steps": ["0: bid 2x4", "1: dudo", "roll [[1], [2]]"],
        }
    ]
}


@pytest.fixture(scope="module")
def special(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Paths that are not plain files, made once."""
    root = tmp_path_factory.mktemp("special")
    os.mkfifo(root / SPECIAL["fifo"])
    (root / SPECIAL["dir"]).mkdir()
    (root / "loop1.yaml").symlink_to(root / "loop2.yaml")
    (root / "loop2.yaml").symlink_to(root / "loop1.yaml")
    (root / SPECIAL["newline"]).write_text("extends: italian\n")
    with open(os.path.join(os.fsencode(root), b"caf\xe9.yaml"), "wb") as fh:
        fh.write(b"extends: italian\nname: Caf\xc3\xa9\n")
    out = {key: str(root / name) for key, name in SPECIAL.items()}
    out.update(zero="/dev/zero", full="/dev/full", root=str(root))
    return out


TEXT = st.text(max_size=60)
NUMBER = st.sampled_from(
    ["0", "1", "2", "3", "4", "-1", "6", "9", "100000000", str(10**20), "9" * 5000, "x", "1.5",
     "", " 2", "٣"]
)  # fmt: skip
SMALL = st.sampled_from(["1", "2", "0", "-3", "x", str(10**20), "9" * 5000])
FEW = st.one_of(st.sampled_from(["2", "3", "4", "5"]), NUMBER)
BID = st.one_of(
    st.sampled_from(["1x2", "3x4", "2 3", "6x6", "²x4", "9" * 60 + "x4", "4x" + "9" * 60, "dudo",
                     "0x0", "1x7", "1x1", "5*5", "x", ""]),
    TEXT,
)  # fmt: skip


def files() -> st.SearchStrategy[dict[str, str]]:
    """The text of the generated files of one example."""
    return st.fixed_dictionaries(
        {
            "v.yaml": st.one_of(
                mutated(
                    {"extends": "italian", **{k: VARIANT_DOC[k] for k in ("dice", "wild")}}
                ).map(dump_yaml),
                TEXT,
            ),
            "r.json": st.one_of(mutated(RECORD).map(json.dumps), TEXT),
            "p.json": st.one_of(mutated(POSITION).map(json.dumps), TEXT),
            "s.yaml": st.one_of(mutated(SCENARIO_DOC).map(dump_yaml), TEXT),
        }
    )


def path(*own: str) -> st.SearchStrategy[str]:
    """A path token: one of this example's files, a special path, or a made-up one."""
    return st.one_of(
        st.sampled_from([f"{{{name}}}" for name in own]),
        st.sampled_from(["{fifo}", "{dir}", "{loop}", "{newline}", "{latin1}", "{missing}",
                         "{zero}", "nul\0.yaml", "a" * 300 + ".yaml", "-"]),
    )  # fmt: skip


def variant() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(["italian", "spanish"]),
        st.sampled_from(["openspiel-liars-dice", "nosuch", ""]),
        path("v.yaml"),
    )


def output() -> st.SearchStrategy[str]:
    """Where an output may go: a fresh file, an input, a special path, /dev/full."""
    return st.one_of(
        st.sampled_from(["{out}/a.json", "{out}/b.json", "{full}", "{out}/no/such/x.json"]),
        path("v.yaml", "s.yaml"),
    )


def options(*pairs: tuple[str, st.SearchStrategy[str]]) -> st.SearchStrategy[list[str]]:
    """Each option maybe present, with its value."""
    each = [st.one_of(st.just([]), value.map(lambda v, f=flag: [f, v])) for flag, value in pairs]
    return st.tuples(*each).map(lambda parts: [x for p in parts for x in p])


def flags(*names: str) -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from(names), unique=True, max_size=len(names))


ARGV = st.one_of(
    st.tuples(st.just(["list"]), flags("--json")),
    st.tuples(st.just(["show"]), variant().map(lambda v: [v]), flags("--json", "--brief")),
    st.tuples(st.just(["validate"]), st.lists(path("v.yaml"), min_size=1, max_size=3),
              flags("--json")),
    st.tuples(
        st.just(["compare"]),
        st.lists(variant(), min_size=0, max_size=3),
        st.just(["--no-witnesses"]),
        flags("--json", "--all"),
    ),
    st.tuples(
        st.just(["compare", "italian", "spanish"]),
        st.sampled_from(["1", "0", "-1", "20", "9" * 30, "x"]).map(lambda n: ["--max-dice", n]),
    ),
    st.tuples(
        st.just(["check"]),
        variant().map(lambda v: [v]),
        st.lists(BID, min_size=1, max_size=4).map(lambda bids: ["--bids", *bids]),
        options(("--players", FEW), ("--dice", FEW), ("--round", NUMBER),
                ("--position", path("p.json"))),
        flags("--palifico", "--json"),
    ),
    st.tuples(st.just(["referee"]), path("r.json").map(lambda p: [p]), flags("--json", "-q")),
    st.tuples(
        st.just(["play"]),
        variant().map(lambda v: [v]),
        options(("--players", FEW), ("--seat", SMALL), ("--seed", NUMBER),
                ("--bot", st.sampled_from(["random", "baseline", "x"]))),
        output().map(lambda p: ["--record-out", p]),
    ),
    st.tuples(
        st.just(["export-scenarios"]),
        output().map(lambda p: [p]),
        st.lists(path("s.yaml"), max_size=2),
        options(("--schema", output())),
    ),
    st.tuples(
        st.just(["simulate"]),
        st.lists(variant(), min_size=1, max_size=2),
        SMALL.map(lambda n: ["--games", n]),
        options(("--players", SMALL), ("--seed", NUMBER),
                ("--workers", st.sampled_from(["1", "-1", "x"])),
                ("--bot", st.sampled_from(["random", "uniform", "x"])),
                ("--save-records",
                 st.sampled_from(["{out}/records", "{full}", "{v.yaml}", "{dir}"])),
                ("--plot",
                 st.sampled_from(["{out}/p.nope", "{v.yaml}", "{dir}", "{out}/no/p.png"]))),
        flags("--json", "--csv"),
    ),
).map(lambda parts: [x for p in parts for x in p])  # fmt: skip


def expand(argv: list[str], names: dict[str, str]) -> list[str]:
    out = []
    for arg in argv:
        for key, value in names.items():
            arg = arg.replace(f"{{{key}}}", value)
        out.append(arg)
    return out


class _Stdin(io.StringIO):
    def isatty(self) -> bool:
        return False


def _run(argv: list[str], stdin: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    saved = sys.stdin
    sys.stdin = _Stdin(stdin)
    try:
        code = main(argv)
    except SystemExit as stop:  # argparse: one line, exit 2
        code = stop.code if isinstance(stop.code, int) else 2
    finally:
        sys.stdin = saved
    return code, capsys.readouterr().err


@settings(
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    max_examples=max(20, settings().max_examples // 2),
)
@given(argv=ARGV, content=files(), stdin=st.lists(st.one_of(BID, TEXT), max_size=4))
def test_the_command_line_on_generated_input(
    argv: list[str],
    content: dict[str, str],
    stdin: list[str],
    special: dict[str, str],
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    here = tmp_path_factory.mktemp("example")
    for name, text in content.items():
        (here / name).write_text(text, encoding="utf-8", errors="surrogateescape")
    names = {**special, **{name: str(here / name) for name in content}, "out": str(here)}
    full = expand(argv, names)
    cwd = os.getcwd()
    os.chdir(here)  # a default output (play's record) lands here
    try:
        code, err = _run(full, "\n".join([*stdin, "quit"]) + "\n", capsys)
    finally:
        os.chdir(cwd)
    event(f"{full[0]} exit {code}")
    assert code in (0, 1, 2), (full, code, err)
    assert "Traceback" not in err and "internal error" not in err, (full, err)
    if code == 2 and full[0] != "validate":  # validate reports each file on stdout
        errors = [line for line in err.splitlines() if "error:" in line]
        assert len(errors) == 1, (full, err)
    # nothing but the outputs asked for was written
    leftovers = [p.name for p in here.iterdir() if p.name.startswith(".")]
    assert not leftovers, leftovers
