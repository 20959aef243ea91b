"""Each planted engine of tests/planted.py plants something: its answers differ from the
unplanted engine's where its bug shows, and nowhere before. (What the kit reports of them
is tested elsewhere.)

The Python engine (tests/harnesses/planted.py) is driven in this process through
``handle``: each named bug at a position built to show it, each ``KNOB=JSON`` plant by
random play from random positions of at most 4 seats until the two engines answer one
request differently. The JavaScript engine (harnesses/js/perudo.js) runs under node, each
bug at a position built to show it.
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import shutil
import subprocess
import zlib
from typing import Any

import pytest

from perudo_rules import load_variant
from perudo_rules.base.actions import Bid, format_action
from perudo_rules.conform.report import NOT_OBSERVED
from perudo_rules.editions.knobs import KNOB_PATHS, KNOBS, SEATS
from perudo_rules.editions.variant import Variant
from perudo_rules.engine.start import roll_cups
from perudo_rules.harness import Harness, edition_variant
from perudo_rules.harness.stepapi import StepHarness
from tests.harnesses.planted import NAMED, Planted, parse_plant
from tests.planted import (
    JS_NAMED,
    KNOB_PLANTS,
    NOT_PLANTED,
    PERUDO_JS,
    PLANTS,
    PYTHON_NAMED,
    command,
)

Req = dict[str, Any]


def L(seat: int) -> Req:
    return {"cmd": "legal", "seat": seat}


def A(action: str) -> Req:
    return {"cmd": "act", "action": action}


def start(edition: str, dice: list[list[int]], first: int = 0, **kw: Any) -> Req:
    return {"cmd": "start", "edition": load_variant(edition).values(), "dice": dice,
            "first_player": first, **kw}  # fmt: skip


def _norm(reply: Any) -> Any:
    """A reply with its action list sorted (the protocol lists actions in any order)."""
    if isinstance(reply, dict) and isinstance(reply.get("actions"), list):
        return {**reply, "actions": sorted(reply["actions"])}
    return reply


def _answers(h: Harness, reqs: list[Req]) -> list[Any]:
    return [_norm(h.handle(r)) for r in reqs]


# --- the table ------------------------------------------------------------------------


def test_the_table_covers_every_plant_and_every_observed_knob() -> None:
    assert {p for p, _, _ in PYTHON_NAMED} == set(NAMED)
    assert {r for _, _, r in PYTHON_NAMED} == {NAMED[p] for p, _, _ in PYTHON_NAMED}
    js = re.search(r"const PLANTS = \[([^\]]*)\]", PERUDO_JS.read_text())
    assert js is not None
    assert {p for p, _, _ in JS_NAMED} == set(re.findall(r'"([^"]+)"', js.group(1)))
    observed = [p for p in KNOB_PATHS if p not in NOT_OBSERVED]
    assert sorted([*KNOB_PLANTS, *NOT_PLANTED]) == sorted(observed)
    assert len(PLANTS) == len(PYTHON_NAMED) + len(KNOB_PLANTS) + len(JS_NAMED)


@pytest.mark.parametrize("path", list(KNOB_PLANTS))
def test_a_knob_plant_loads_differs_and_is_read(path: str) -> None:
    edition, value = KNOB_PLANTS[path]
    v = load_variant(edition)
    assert v[path] != value or type(v[path]) is not type(value)
    edition_variant({**v.values(), path: value})  # a combination the loader takes
    values = {**v.values(), SEATS: min(v.rules.players_max, 4)}
    spec = next(k for k in KNOBS if k.path == path)
    assert not spec.never_read and all(c.holds(values) for c in spec.read_when)


def test_commands_quote_what_the_shell_would_split() -> None:
    cmd = command("python", 'calza.who="anyone"', "italian")
    assert shlex.split(cmd)[-4:] == ["--edition", "italian", "--plant", 'calza.who="anyone"']
    assert shlex.split(command("js", "who"))[:2] == ["env", "PERUDO_PLANT=who"]
    with pytest.raises(ValueError):
        command("js", "who", "italian")
    with pytest.raises(ValueError):
        parse_plant("no-such-plant")
    with pytest.raises(ValueError):
        parse_plant("no.such_knob=1")


def test_the_python_engine_answers_over_the_protocol() -> None:
    reqs = [{"cmd": "hello", "protocol": 1}, start("italian", [[2, 3], [4, 5]]), L(0),
            {"cmd": "quit"}]  # fmt: skip
    out = subprocess.run(
        shlex.split(command("python", "dudo-first", "textarena-liars-dice")),
        input="".join(json.dumps(r) + "\n" for r in reqs), capture_output=True, text=True,
        timeout=60, check=True,
    ).stdout.splitlines()  # fmt: skip
    hello, ok, legal = (json.loads(line) for line in out)
    assert "dudo-first" in hello["name"] and ok == {"ok": True}
    assert "0:dudo" in legal["actions"] and "0:1x1" in legal["actions"]  # no wild: 1x1 opens


# --- the Python engine's named bugs ----------------------------------------------------

# (plant, the requests: the last one, and only it, is answered differently)
THREE = [[2, 3], [4, 5], [5, 6]]
#: openspiel: seat 1 doubts one 2, which shows: seat 0 wins the game
OVER = [start("openspiel-liars-dice", [[2], [5]]), A("0:1x2"), A("1:dudo")]
NAMED_CASES: list[tuple[str, list[Req]]] = [
    ("zero-bid", [start("italian", [[2, 3], [4, 5]]), L(0)]),
    ("zero-bid", [start("italian", [[2, 3], [4, 5]]), A("0:0x3")]),
    ("face-range", [start("italian", [[2, 3], [4, 5]]), L(0)]),
    ("face-range", [start("italian", [[2, 3], [4, 5]]), A("0:1x7")]),
    ("after-end", [*OVER, L(0)]),
    ("after-end", [*OVER, A("0:1x3")]),
    # one 2 showing: the bid is exactly right
    ("exact-bidder-loses", [start("italian", [[2, 3], [4, 5]]), A("0:1x2"), A("1:dudo")]),
    # two 3s with the wild 1: exactly right; one without it
    ("count-no-wild", [start("italian", [[1, 3], [4, 5]]), A("0:2x3"), A("1:dudo")]),
    ("bid-out-of-turn", [start("italian", THREE), A("0:1x2"), L(2)]),
    ("bid-out-of-turn", [start("italian", THREE), A("0:1x2"), A("2:2x2")]),
    ("dead-seat", [start("italian", [[2, 3], [], [4, 5]]), A("0:1x2"), L(1)]),
    ("dudo-first", [start("italian", [[2, 3], [4, 5]]), L(0)]),
    ("no-elimination", OVER),
    # seat 1 loses its last die: the loser would open, seat 2 does
    ("next-dead", [start("italian", [[2, 3], [4], [5, 5]]), A("0:1x2"), A("1:dudo")]),
    # seat 1 is left with one die: its palifico round
    ("palifico-opener", [start("italian", [[2, 3], [4, 4], [5, 5]]), A("0:1x2"), A("1:dudo")]),
    # seat 2 (neither the bidder nor the player to move) calls an exact Calza
    ("calza-exact-nogain", [start("italian", THREE), A("0:1x2"), A("2:calza")]),
    ("winner-early", [start("italian", [[2, 3], [4], [5, 5]]), A("0:1x2"), A("1:dudo")]),
]


@pytest.mark.parametrize(("plant", "reqs"), NAMED_CASES, ids=[c[0] for c in NAMED_CASES])
def test_a_named_bug_changes_the_last_answer_only(plant: str, reqs: list[Req]) -> None:
    plain = _answers(StepHarness(), reqs)
    planted = _answers(Planted(*parse_plant(plant)), reqs)
    assert planted[:-1] == plain[:-1]
    assert planted[-1] != plain[-1], f"{plant} plants nothing here: {plain[-1]}"


def test_every_named_bug_has_a_case() -> None:
    assert {p for p, _ in NAMED_CASES} == set(NAMED)


def test_legal_actions_are_empty_between_rounds_and_once_over() -> None:
    for plant in NAMED:
        h = Planted(*parse_plant(plant))
        h.handle(start("italian", [[2, 3], [4, 5]]))
        h.handle(A("0:1x2"))
        h.handle(A("1:dudo"))  # a roll awaited
        assert all(h.legal(s) == [] for s in range(3)), plant
        h.handle(start("openspiel-liars-dice", [[2], [5]]))
        h.handle(A("0:1x2"))
        h.handle(A("1:dudo"))  # seat 0 won
        over = [h.legal(s) for s in range(3)]
        assert over == [[], [], []] or (plant == "after-end" and over[0] and not over[1])


# --- the Python engine's knob plants, and its --edition --------------------------------


def _random_start(v: Variant, rng: random.Random) -> Req:
    n = rng.randint(v.rules.players_min, min(v.rules.players_max, 4))
    top = min(5, v.rules.dice_max_per_player)
    counts = [rng.randint(1, top) if s < 2 or rng.random() < 0.8 else 0 for s in range(n)]
    rng.shuffle(counts)
    dice = [[rng.randint(1, 6) for _ in range(c)] for c in counts]
    alive = [s for s, c in enumerate(counts) if c]
    first = rng.choice(alive)
    pal = v.rules.palifico_enabled and counts[first] == 1 and rng.random() < 0.5
    used = sorted(s for s in alive if s != first and rng.random() < 0.3)
    return {"cmd": "start", "edition": v.values(), "dice": dice, "first_player": first,
            "round": rng.choice([1, 2]), "palifico": pal, "palifico_used": used}  # fmt: skip


def _first_difference(a: Harness, b: Harness, v: Variant, seed: int, games: int,
                      values_b: dict[str, Any] | None = None) -> str | None:  # fmt: skip
    """Random play of the reference ``a`` (its first seat's legal actions drawn, lowest
    bids and calls first) from random starts of ``v``, every request answered by ``a`` and
    ``b`` too (``b``'s starts carry ``values_b`` when given): the first request they answer
    differently, or ``None``."""
    rng = random.Random(seed)

    def ask(req: Req) -> Any:
        x, y = _norm(a.handle(req)), _norm(b.handle(req if values_b is None else
                                                     {**req, "edition": values_b}))  # fmt: skip
        if x != y:
            raise _Differs(f"{json.dumps(req)[:300]}: {x} / {y}")
        return x

    try:
        for _ in range(games):
            if "skip" in ask(_random_start(v, rng)):
                continue
            assert isinstance(a, StepHarness)
            for _ in range(80):
                game = a.game
                assert game is not None
                if game.is_over:
                    break
                if game.awaiting_roll:
                    ask({"cmd": "roll", "dice": roll_cups(v.rules.dice_faces,
                                                          game.roll_counts, rng)})  # fmt: skip
                    continue
                for seat in range(game.players):
                    ask(L(seat))
                legal = list(game.legal_actions())
                calls = [x for x in legal if not isinstance(x, Bid)]
                bids = [x for x in legal if isinstance(x, Bid)]
                if calls and (not bids or rng.random() < 0.3):
                    x = rng.choice(calls)
                else:
                    x = rng.choice(bids[:6]) if rng.random() < 0.8 else rng.choice(bids)
                ask(A(format_action(x)))
    except _Differs as exc:
        return str(exc)
    return None


class _Differs(Exception):
    pass


@pytest.mark.parametrize("path", list(KNOB_PLANTS))
def test_a_knob_plant_changes_play(path: str) -> None:
    edition, value = KNOB_PLANTS[path]
    v = load_variant(edition)
    planted = Planted(*parse_plant(f"{path}={json.dumps(value)}"))
    found = _first_difference(StepHarness(), planted, v, seed=zlib.crc32(path.encode()), games=400)
    assert found is not None, f"{path}={value!r} on {edition} changes nothing in 400 games"


def test_no_plant_plants_nothing() -> None:
    v = load_variant("italian")
    assert _first_difference(StepHarness(), Planted(), v, seed=1, games=15) is None


def test_an_edition_engine_plays_its_edition_whatever_it_is_sent() -> None:
    # sent italian's values, it plays textarena's: as the step API sent textarena's
    ta = load_variant("textarena-liars-dice")
    engine = Planted(edition=ta.values())
    italian = load_variant("italian").values()
    assert _first_difference(StepHarness(), engine, ta, 2, 15, values_b=italian) is None
    # and with a knob planted, that edition with the knob changed
    engine = Planted(knob=("round.starter", "loser"), edition=ta.values())
    assert _first_difference(StepHarness(), engine, ta, 3, 60, values_b=italian) is not None


# --- the JavaScript engine -------------------------------------------------------------

JS_CASES: list[tuple[str, list[Req]]] = [
    ("quantity-cap", [start("openspiel-liars-dice", [[2], [5]]), L(0)]),
    ("order", [start("openspiel-liars-dice", [[2, 3], [4, 5]]), A("0:1x5"), L(1)]),
    ("textarena-order", [start("textarena-liars-dice", [[2, 3], [4, 5]]), A("0:1x5"), L(1)]),
    # a 2 and the wild 6: two 2s
    ("wild", [start("openspiel-liars-dice", [[2], [6]]), A("0:2x2"), A("1:dudo")]),
    ("who", [start("textarena-liars-dice", THREE), A("0:1x2"), L(2)]),
    ("starter", [start("textarena-liars-dice", THREE), A("0:1x2"), A("1:dudo")]),
    ("single-round", [start("openspiel-liars-dice", [[2, 3], [4, 5]]), A("0:1x2"), A("1:dudo")]),
    ("zero-bid", [start("textarena-liars-dice", [[2], [4]]), L(0)]),
    ("after-end", [*OVER, L(0)]),
    ("exact", [start("textarena-liars-dice", [[2, 3], [4, 5]]), A("0:1x2"), A("1:dudo")]),
    ("dudo-first", [start("textarena-liars-dice", [[2, 3], [4, 5]]), L(0)]),
]


def _node() -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        if os.environ.get("PERUDO_REQUIRE_NODE"):
            pytest.fail("PERUDO_REQUIRE_NODE is set but there is no node")
        pytest.skip("no node")
    return node


def _js(plant: str | None, reqs: list[Req]) -> list[Any]:
    env = dict(os.environ)
    env.pop("PERUDO_PLANT", None)
    if plant is not None:
        env["PERUDO_PLANT"] = plant
    out = subprocess.run(
        [_node(), str(PERUDO_JS)], input="".join(json.dumps(r) + "\n" for r in reqs),
        capture_output=True, text=True, env=env, timeout=30, check=True,
    ).stdout.splitlines()  # fmt: skip
    return [_norm(json.loads(line)) for line in out]


@pytest.mark.parametrize(("plant", "reqs"), JS_CASES, ids=[c[0] for c in JS_CASES])
def test_a_js_bug_changes_the_last_answer_only(plant: str, reqs: list[Req]) -> None:
    plain, planted = _js(None, reqs), _js(plant, reqs)
    assert len(plain) == len(planted) == len(reqs)
    assert planted[:-1] == plain[:-1]
    assert planted[-1] != plain[-1], f"{plant} plants nothing here: {plain[-1]}"


def test_every_js_bug_has_a_case_and_a_wrong_name_is_refused() -> None:
    assert {p for p, _ in JS_CASES} == {p for p, _, _ in JS_NAMED}
    bad = subprocess.run([_node(), str(PERUDO_JS)], input="", capture_output=True, text=True,
                         env={**os.environ, "PERUDO_PLANT": "nope"}, timeout=30)  # fmt: skip
    assert bad.returncode == 2 and "nope" in bad.stderr
