"""The conformance kit: protocol, runner, witnesses, perft, and the harnesses it certifies.

The built-in harnesses run as subprocesses through ``perudo-rules conform`` on every
bundled edition they claim, with a few small games each (the CI budget); the broken
harness (``tests/harnesses/broken_stepapi.py``) must be failed by the right rule id with a
short witness, and engines that crash, hang, flood or answer garbage must be reported in
one line without the runner hanging.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from perudo_rules import Reroll, load_variant, parse_action
from perudo_rules.cli import main
from perudo_rules.cli.conform import format_report
from perudo_rules.conform.perft import perft, perft_document
from perudo_rules.conform.protocol import (
    claim_covers,
    claim_leaves_out,
    claims_problem,
    harness_schema,
    schema_json,
)
from perudo_rules.conform.report import Report, rule_ids
from perudo_rules.conform.runner import conform
from perudo_rules.editions.knobs import KNOBS
from perudo_rules.editions.variantfile import available_variants
from perudo_rules.harness import Harness, claim_edition
from perudo_rules.harness.stepapi import StepHarness
from perudo_rules.records.position import Position, parse_line

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
BROKEN = f"{PY} {ROOT / 'tests' / 'harnesses' / 'broken_stepapi.py'}"
#: Random games per edition in these tests: enough to reach outcomes, small for CI.
GAMES = 2


@pytest.fixture(autouse=True)
def _worktree_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Engines started by the tests import this checkout of perudo_rules."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    monkeypatch.chdir(ROOT)


def _run(engine: str, *editions: str, games: int = GAMES, **kw: Any) -> Report:
    kw.setdefault("perft_nodes", 40)  # perft to depth 2 on most published positions
    return conform(engine, list(editions) or available_variants(), games=games, **kw)


# --- the protocol -----------------------------------------------------------------------


def test_schema_file_is_fresh() -> None:
    assert (ROOT / "spec" / "harness.schema.json").read_text() == schema_json(), (
        "spec/harness.schema.json is stale: python tools/generate.py"
    )


class Validating:
    """The step API in this process, every request and reply checked against the schema."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        schema = harness_schema()
        self.requests = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/request"})
        self.replies = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/reply"})
        self.seen: set[str] = set()

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        self.requests.validate(request)
        reply = self.harness.handle(request)
        self.replies.validate(reply)
        self.seen.add(str(request["cmd"]))
        return reply


def test_every_message_of_a_run_follows_the_schema() -> None:
    channel = Validating(StepHarness())
    report = conform("in-process", ["textarena-liars-dice"], games=1, channel=channel)
    assert report.exit_code == 0, report.to_json()
    assert channel.seen == {"hello", "start", "legal", "act", "roll"}


def test_claims_cover_exact_values_lists_and_any() -> None:
    italian = load_variant("italian")
    spanish = load_variant("spanish")
    exact = claim_edition(italian)
    assert claim_covers([exact], italian.values())
    assert not claim_covers([exact], spanish.values())
    loose = claim_edition(italian, free=[p for p in exact if italian[p] != spanish[p]])
    assert claim_covers([loose], spanish.values())
    listed = dict(exact, **{"calza.who": ["any_except_bidder", "any_except_bidder_and_next"]})
    assert claim_covers([listed], dict(italian.values(), **{"calza.who": "any_except_bidder"}))
    assert not claim_covers([listed], dict(italian.values(), **{"calza.who": "anyone"}))
    # True is not 1: a claim of calza.gain_cap 1 does not cover a boolean
    assert not claim_covers([dict(exact, **{"calza.in_palifico": 1})], italian.values())


def test_a_claim_may_leave_out_what_its_editions_never_read() -> None:
    """A claim need not name a knob that no edition it covers reads: never read in play, or
    read only under a condition (``read_when``) that the claim's own values fail."""
    openspiel, italian = load_variant("openspiel-liars-dice"), load_variant("italian")
    calza = [k.path for k in KNOBS if k.section == "calza" and k.path != "calza.enabled"]
    without = {p: v for p, v in claim_edition(openspiel).items() if p not in calza}
    del without["wild.name"]  # never read in play
    assert set(calza) | {"wild.name"} <= set(claim_leaves_out(without))
    assert claims_problem([without]) is None
    assert claim_covers([without], dict(openspiel.values(), **{"calza.who": "anyone"}))
    assert not claim_covers([without], italian.values())
    for enabled in (True, "*", [False, True]):  # Calza may be called: its knobs are read
        claim = dict(without, **{"calza.enabled": enabled})
        assert "calza.who" not in claim_leaves_out(claim)
        assert "calza.who" in str(claims_problem([claim]))
    alone = {p: v for p, v in claim_edition(italian).items() if p != "calza.who"}
    assert "calza.who" in str(claims_problem([alone]))


def _javascript_claims() -> list[dict[str, Any]]:
    """The claims of ``harnesses/js/perudo.js``, built from its data as it builds them."""
    data = json.loads((ROOT / "harnesses" / "js" / "claims.json").read_text())
    return [
        {**dict.fromkeys(data["any"], "*"), **data["common"], **data[edition]}
        for edition in ("openspiel", "textarena")
    ]


def test_the_javascript_claims_name_every_knob_their_editions_read() -> None:
    """Without Node too: a new knob that the JavaScript editions read (its ``read_when``
    holds under their values, or it has none) fails here until harnesses/js/claims.json
    names it, with the value they implement or "*"."""
    claims = _javascript_claims()
    problem = claims_problem(claims)
    assert problem is None, f"harnesses/js/claims.json: {problem}"
    schema = harness_schema()
    validator = jsonschema.Draft202012Validator({**schema, "$ref": "#/$defs/reply"})
    validator.validate({"name": "perudo.js", "claims": claims})
    claimed = {v for v in available_variants() if claim_covers(claims, load_variant(v).values())}
    assert claimed == {"openspiel-liars-dice", "textarena-liars-dice"}


# --- the reference and the broken harness -------------------------------------------------


def test_the_step_api_conforms_on_every_bundled_edition() -> None:
    report = _run(f"{PY} -m perudo_rules.harness.stepapi")
    assert report.exit_code == 0, report.to_json()
    for rep in report.editions:
        assert rep.claimed and rep.conforms and not rep.failed
        assert rep.games == GAMES and rep.perft and all(p.ok for p in rep.perft)
        # what the protocol observes is reached: the outcome of a Dudo, and legality
        assert rep.status("play.dudo") == "passed"
        assert rep.status("play.turn") == "passed"
        assert rep.status("play.count") == "passed"
        # the runner deals and names the opener: the roll-off is not the engine's to show
        assert rep.status("setup.rolloff_dice") == "not observed"
    italian = next(r for r in report.editions if r.edition == "italian")
    assert italian.scenarios > 40
    for rule in ("calza.who", "palifico.face_lock", "bidding.wild_worth", "round.starter"):
        assert italian.status(rule) == "passed", rule


class InProcess:
    """The step API in this process, unchecked (fast)."""

    def __init__(self, harness: Harness) -> None:
        self.ask = harness.handle


def test_the_same_seed_gives_the_same_report() -> None:
    def run(seed: int) -> dict[str, Any]:
        channel = InProcess(StepHarness())
        out = conform("x", ["textarena-liars-dice"], games=2, seed=seed, channel=channel)
        out = out.to_json()
        out.pop("seconds")
        return out

    assert run(4) == run(4)
    assert run(4) != run(5)


def _witness_game(witness: dict[str, Any]) -> Any:
    """The reference at a witness's point (its edition, position and actions)."""
    pos, steps = parse_line(witness["position"])
    variant = load_variant(witness["edition"], overrides=witness.get("overrides") or None)
    game = pos.game(variant)
    for step in steps:
        game = game.apply(step)
    return game


def test_a_bidder_losing_on_an_exact_count_is_failed_by_challenge_exact_once() -> None:
    """The kit reached the exact Dudo on purpose (a probe), named the rule the kernel's
    trace says decides it (no knob value explains it), once, with a short witness."""
    report = _run(f"{BROKEN} dudo-exact", "openspiel-liars-dice", "mso-perudo", games=3)
    assert report.exit_code == 1
    for rep in report.editions:
        assert [f.rule for f in rep.failures] == ["challenge.exact"], format_report(report)
        fail = rep.failures[0]
        assert not fail.knob and "the dice each seat loses or gains" in str(fail.detail)
        w = fail.witness
        pos = w["position"]
        assert len(pos["dice"]) == 2 and sum(len(c) for c in pos["dice"]) <= 4, w
        assert w["then"].endswith(":dudo") and w["ask"] == "outcome", w
        # replayed by the reference: the Dudo meets a bid that is exactly right
        game = _witness_game(w).apply(parse_action(w["then"]))
        result = game.last_result
        assert result.count == result.bid.quantity
    text = _cli_text(["conform", "--engine", f"{BROKEN} dudo-exact", "--edition",
                      "openspiel-liars-dice", "--games", "2"], code=1)  # fmt: skip
    assert text.startswith("FAIL openspiel-liars-dice challenge.exact:")
    text = _cli_text(["conform", "--engine", f"{BROKEN} dudo-exact", "--edition",
                      "openspiel-liars-dice", "--games", "2", "--rules"], code=1)  # fmt: skip
    rows = {line.split()[0]: line.split()[1:] for line in text.splitlines() if line}
    assert rows["challenge.exact"][0] == "failed" and rows["challenge.who"][0] == "passed"
    assert rows["play.dudo"][0] == "passed"
    assert rows["setup.rolloff_dice"][:2] == ["not", "observed"]


def test_an_extra_call_is_failed_by_challenge_who_and_by_perft() -> None:
    report = _run(f"{BROKEN} bidder-dudo", "italian", games=1)
    rep = report.editions[0]
    assert report.exit_code == 1 and set(rep.failed) == {"challenge.who"}
    # the report reads back from its JSON as it was (the docs build keeps runs that way)
    again = Report.from_json(json.loads(json.dumps(report.to_json())))
    assert again.to_json() == report.to_json() and again.editions[0].failures == rep.failures
    (fail,) = rep.failures  # one root: the lists, the act and the perft counts alike
    w = fail.witness
    assert len(w["position"]["dice"]) == 2 and len(w["position"]["actions"]) == 1, w
    game = _witness_game(w)
    bidder = game.current_bid.player
    assert f"the engine lists {bidder}:dudo" in str(fail.detail)
    assert rep.perft and not any(p.ok for p in rep.perft)
    assert all(x.divide for x in rep.perft)  # the counts split by first move


def test_a_reroll_of_every_die_is_failed_by_reroll_min_hidden() -> None:
    """Bluff's re-roll (issue 22): an engine that lets a seat set every concealed die aside
    fails ``reroll.min_hidden``, with a witness the reference replays up to the listing."""
    report = _run(f"{BROKEN} reroll-all", "bluff", games=2)
    rep = report.editions[0]
    assert report.exit_code == 1 and "reroll.min_hidden" in rep.failed, rep.failed
    fail = rep.failure("reroll.min_hidden")
    assert fail is not None
    game = _witness_game(fail.witness)
    seat = game.to_move
    assert seat is not None and ":reroll " in str(fail.detail)
    every = tuple(sorted(game.dice[seat][len(game.set_aside[seat]) :]))
    refusal = game.violation(Reroll(seat, every))
    assert refusal is not None and refusal.rule == "reroll.min_hidden"
    assert len(fail.witness["position"]["dice"]) == 2, fail.witness  # shrunk to two seats


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("garbage", "with something that is not JSON"),
        ("flood", "floods its output"),
        ("hang", "did not answer 'hello' within 3 s"),
        ("crash", "exited with status 3 while answering 'hello': Traceback: something broke"),
    ],
)
def test_a_bad_engine_is_one_line_and_exit_2(mode: str, message: str) -> None:
    started = time.monotonic()
    proc = subprocess.run(
        [PY, "-m", "perudo_rules", "conform", "--engine", f"{BROKEN} {mode}",
         "--edition", "italian", "--timeout", "3"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert time.monotonic() - started < 20
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], proc.stderr
    assert "Traceback (most recent call last)" not in proc.stderr + proc.stdout


def _cli_text(argv: list[str], code: int = 0) -> str:
    proc = subprocess.run([PY, "-m", "perudo_rules", *argv], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert proc.returncode == code, proc.stdout + proc.stderr
    return proc.stdout


@pytest.mark.parametrize(
    "argv",
    [
        ["conform", "--engine", "", "--edition", "italian"],
        ["conform", "--engine", "/nonexistent/engine", "--edition", "italian"],
        ["conform", "--engine", "x", "--edition", "no-such-edition"],
        ["conform", "--engine", "x", "--games", "-1"],
        ["conform", "--engine", "x", "--timeout", "0"],
        ["conform", "--engine", "x", "--perft-nodes", "-1"],
        ["perft", "italian", "--position", "/nonexistent.json", "--depth", "2"],
        ["perft", "italian", "--position", "README.md", "--depth", "0"],
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error" in err[0], err


def test_json_report_names_every_rule_id_with_its_status() -> None:
    out = json.loads(_cli_text(["conform", "--engine", f"{BROKEN} bidder-dudo", "--edition",
                                "openspiel-liars-dice", "--games", "1", "--json"], code=1))
    assert out["exit"] == 1 and out["error"] is None
    (ed,) = out["editions"]
    assert ed["claimed"] and not ed["conforms"]
    assert set(ed["rules"]) == set(rule_ids())
    assert ed["rules"]["challenge.who"]["status"] == "failed"
    assert ed["rules"]["play.dudo"]["status"] == "passed"
    assert ed["rules"]["calza.gain_cap"]["status"] == "not read"  # no Calza here
    assert ed["rules"]["calza.gain_cap"]["why"] == "nobody can call Calza"
    (fail,) = ed["failures"]
    assert fail["rule"] == "challenge.who" and parse_line(fail["witness"]["position"])[1]
    assert [p["position"] for p in ed["perft"]] == ["heads-up-1", "heads-up-2"]


def test_progress_is_printed_only_after_two_seconds(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from perudo_rules.base import output

    clock = [100.0]
    monkeypatch.setattr(output.time, "monotonic", lambda: clock[0])
    say = output.progress_printer()
    say("italian: scenario a")
    clock[0] += 1.5
    say("italian: scenario b")
    clock[0] += 1.0
    say("italian: random game 1/20")
    clock[0] += 0.5
    say("italian: random game 2/20")  # within a second of the last line
    assert capsys.readouterr().err == "conform: italian: random game 1/20 (2 s)\n"


class SkipsEverything(StepHarness):
    """Claims every edition, sets up nothing."""

    def start(self, *args: Any) -> dict[str, Any]:
        return {"skip": "no"}


def test_an_engine_that_skips_every_start_certifies_nothing() -> None:
    report = conform("x", ["spanish"], games=2, channel=InProcess(SkipsEverything()))
    (rep,) = report.editions
    assert rep.claimed and not rep.tested and not rep.conforms and report.exit_code == 3
    assert rep.skipped > 2 and not rep.passed
    said = f"UNTESTED spanish: the engine skipped all {rep.skipped} starts sent"
    assert said in format_report(report)


def test_shrink_keeps_the_smallest_case_that_still_fails() -> None:
    from perudo_rules.base.actions import Bid, Dudo
    from perudo_rules.conform.shrink import Case, shrink

    start = Position(dice=((1, 6, 6), (2, 3), (6, 4, 4, 5)), first_player=1, round=3,
                     palifico_used=(0,))  # fmt: skip
    actions = (Bid(1, 2, 3), Bid(2, 3, 3), Bid(0, 4, 6), Dudo(1))

    italian = load_variant("italian")

    def fails(case: Case) -> Case | None:  # a valid start, a cup showing a six, a Dudo
        try:
            case.position.game(italian)
        except ValueError:
            return None
        sixes = any(6 in cup for cup in case.position.dice)
        return case if sixes and any(isinstance(a, Dudo) for a in case.actions) else None

    small = shrink(Case(start, actions), fails)
    # two seats of one die each, the Dudo alone, round 1 with no palifico history
    assert small.size == (2, 2, 2, 1, 0), small
    assert fails(small) is not None and small.actions == (Dudo(small.actions[0].player),)


# --- perft ----------------------------------------------------------------------------


@pytest.mark.parametrize("vid", available_variants())
def test_published_perft_tables_are_fresh(vid: str) -> None:
    # rewrite: python -m perudo_rules.conform.perft
    text = (ROOT / "spec" / "perft" / f"{vid}.json").read_text()
    assert json.loads(text) == perft_document(vid)


def test_perft_counts_by_hand() -> None:
    # two seats, one die each: 2 dice x 6 faces = 12 opening bids; after the opening bid
    # of rank r, 11 - r raises and one Dudo (Italian Calza: neither bidder nor next seat)
    game = Position(dice=((2,), (5,)), first_player=0).game(load_variant("italian"))
    table = perft(game, 2)
    assert table.nodes[0] == 12 and table.calls[0] == 0
    assert table.calls[1] == 12 and table.nodes[1] == 12 + sum(range(12))
    # Spanish lets the player to move call Calza too, and no opening bid on aces (2 fewer)
    spanish = Position(dice=((2,), (5,)), first_player=0).game(load_variant("spanish"))
    assert perft(spanish, 2).calls[1] == 2 * perft(spanish, 1).nodes[0]


def test_perft_command(tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps({"dice": [[2], [5]], "first_player": 0}))
    text = _cli_text(["perft", "italian", "--position", str(pos), "--depth", "3"])
    assert text.split("\n")[2].split() == ["1", "12", "0"]
    out = json.loads(_cli_text(["perft", "italian", "--position", str(pos), "--depth", "3",
                                "--json"]))  # fmt: skip
    assert out["nodes"] == [12, 78, 286] and out["calls"] == [0, 12, 66]
    # a position with actions counts from where they lead; one written for another edition
    # is counted under the edition asked, and says so (as check does)
    pos.write_text(json.dumps({"dice": [[2], [5]], "first_player": 0, "actions": ["0:1x2"]}))
    after = json.loads(_cli_text(["perft", "italian", "--position", str(pos), "--depth", "1",
                                  "--json"]))  # fmt: skip
    assert after["nodes"] == [11 + 1] and after["calls"] == [1]
    pos.write_text(json.dumps({"variant": "spanish", "dice": [[2], [5]], "first_player": 0}))
    proc = subprocess.run([PY, "-m", "perudo_rules", "perft", "italian", "--position", str(pos),
                           "--depth", "1"], capture_output=True, text=True)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "written for spanish; it is checked under italian" in proc.stdout


# --- the built-in harnesses, certified -------------------------------------------------------

EVERY = tuple(available_variants())
def _certify(module: str, editions: tuple[str, ...], claimed: tuple[str, ...]) -> Report:
    # a harness that imports a large peer (TextArena, OpenSpiel) may take long to say hello
    # on a loaded machine; the kit's own 10 s default is tested on its own below
    report = _run(f"{PY} -m perudo_rules.harness.{module}", *editions, timeout=60)
    assert report.error is None, report.error
    assert tuple(r.edition for r in report.editions if r.claimed) == claimed
    return report


@pytest.mark.parametrize(
    ("module", "requires", "editions", "claimed"),
    [
        ("fastplay", None, EVERY, EVERY),
        ("openspiel", "pyspiel", EVERY, EVERY),
        ("pyspiel_liars_dice", "pyspiel", EVERY, ("openspiel-liars-dice",)),
        ("pettingzoo", "pettingzoo", EVERY, EVERY),
    ],
)  # fmt: skip
def test_a_built_in_harness_is_certified(
    module: str, requires: str | None, editions: tuple[str, ...], claimed: tuple[str, ...]
) -> None:
    if requires is not None:
        pytest.importorskip(requires)
    report = _certify(module, editions, claimed)
    assert report.exit_code == 0, report.to_json()
    for rep in report.editions:
        if rep.claimed:
            assert rep.games == GAMES and rep.status("play.dudo") == "passed"


def test_textarena_differs_only_where_its_edition_records_an_interpretation() -> None:
    """TextArena takes a bid of zero dice; textarena-liars-dice refuses it (an
    interpretation recorded in the variant file, scenario int-ta-zero-quantity)."""
    pytest.importorskip("textarena.envs.LiarsDice.env")
    report = _certify("textarena", EVERY, ("textarena-liars-dice",))
    rep = next(r for r in report.editions if r.claimed)
    assert report.exit_code == 1 and set(rep.failed) == {"play.bid_range"}
    (fail,) = rep.failures
    assert fail.rule == "play.bid_range" and not fail.knob
    assert fail.witness["position"]["actions"] == []
    assert fail.witness["then"].endswith(":0x3")
    assert all(p.ok for p in rep.perft) and rep.games == GAMES


# --- the second language ------------------------------------------------------------------


def test_the_javascript_harness_conforms_on_what_it_claims() -> None:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        if os.environ.get("PERUDO_REQUIRE_NODE"):
            pytest.fail("PERUDO_REQUIRE_NODE is set but there is no node")
        pytest.skip("no Node.js (apt-get install nodejs)")
    report = _run(f"{node} {ROOT / 'harnesses' / 'js' / 'perudo.js'}", games=3)
    assert report.exit_code == 0, report.to_json()
    claimed = {r.edition for r in report.editions if r.claimed}
    assert claimed == {"openspiel-liars-dice", "textarena-liars-dice"}
    for rep in report.editions:
        if rep.claimed:
            assert rep.games == 3 and rep.scenarios and all(p.ok for p in rep.perft)


def test_editions_in_workers_give_the_same_report() -> None:
    """``workers=2`` runs the editions in two processes, each against its own engine; the
    report is the one a single engine gives (all but the time it took), edition order too."""
    editions = ("italian", "spanish", "openspiel-liars-dice")
    engine = f"{PY} -m perudo_rules.harness.fastplay"
    one = _run(engine, *editions, seed=3).to_json()
    two = _run(engine, *editions, seed=3, workers=2).to_json()
    for report in (one, two):
        assert report.pop("seconds") >= 0 and report["error"] is None
    assert one == two and [e["edition"] for e in two["editions"]] == list(editions)
    assert all(e["games"] == GAMES for e in two["editions"])
