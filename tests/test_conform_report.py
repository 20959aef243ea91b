"""The conformance report's sentences say what its JSON says (issue 33, item 10).

For several fake engines the text report (:func:`~perudo_rules.cli.conform.format_report`)
is parsed and every claim it makes is checked against the JSON report of the same run:
each edition's verdict and rule counts, what ran and how many starts were skipped, why an
edition certified nothing, the harness error and the exit code. A run that compared no
rule is never "conforms" (it used to be, exit 0); an engine that hangs at its first start
is a harness error, never "skipped every start" beside ``skipped: 0``.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping
from html import unescape
from pathlib import Path
from typing import Any

import pytest

from perudo_rules import load_variant
from perudo_rules.cli.conform import format_report
from perudo_rules.conform.htmlreport import html_report
from perudo_rules.conform.report import EXIT_HARNESS, EXIT_UNTESTED, EditionReport, Report
from perudo_rules.conform.runner import Only, conform
from perudo_rules.harness import claim_edition
from perudo_rules.harness.stepapi import StepHarness

ITALIAN = "italian"


class InProcess:
    """A harness in this process."""

    def __init__(self, harness: StepHarness) -> None:
        self.ask = harness.handle


class ItalianOnly(StepHarness):
    """The reference step API, claiming the Italian edition alone."""

    def claims(self) -> list[dict[str, Any]]:
        return [claim_edition(load_variant(ITALIAN))]


class Skipper(ItalianOnly):
    """Claims the Italian edition, then skips every start."""

    def handle(self, req: Mapping[str, Any]) -> dict[str, Any]:
        if req.get("cmd") == "start":
            return {"skip": "not today"}
        return super().handle(req)


class ClaimsNothing(StepHarness):
    """Claims no edition at all."""

    def claims(self) -> list[dict[str, Any]]:
        return []


class Stubborn(ItalianOnly):
    """Claims the Italian edition and lists no legal action: it differs."""

    def handle(self, req: Mapping[str, Any]) -> dict[str, Any]:
        if req.get("cmd") == "legal":
            return {"actions": []}
        return super().handle(req)


# --- reading the text report back -------------------------------------------------------


_ROW = re.compile(
    r"^(?P<edition>\S+)\s+(?P<result>conforms|DIFFERS|UNTESTED|interrupted)\s+"
    r"(?P<passed>\d+) passed\s+(?P<failed>\d+) failed\s+(?P<unreached>\d+) not reached\s+"
    r"(?P<unobserved>\d+) not observed or read\s+(?P<s>\d+) scenarios, (?P<g>\d+) games, "
    r"(?P<p>\d+) probes, perft (?P<ok>\d+)/(?P<all>\d+)(?:, (?P<skipped>\d+) starts skipped)?$"
)


def _check_edition_row(line: str, doc: dict[str, Any]) -> None:
    row = _ROW.match(line)
    assert row is not None, line
    statuses = [r["status"] for r in doc["rules"].values()]
    result = row["result"]
    if not doc["complete"]:
        assert result == "interrupted"
    elif doc["conforms"]:
        assert result == "conforms" and doc["tested"]
    else:
        assert result == ("DIFFERS" if doc["tested"] else "UNTESTED")
    assert int(row["passed"]) == statuses.count("passed")
    assert int(row["failed"]) == statuses.count("failed")
    assert int(row["unreached"]) == statuses.count("not reached")
    assert int(row["unobserved"]) == statuses.count("not observed") + statuses.count("not read")
    assert int(row["s"]) == doc["scenarios"] and int(row["g"]) == doc["games"]
    assert int(row["p"]) == sum(r["probes"] for r in doc["rules"].values())
    assert int(row["all"]) == len(doc["perft"])
    assert int(row["ok"]) == sum(p["expected"] == p["got"] for p in doc["perft"])
    assert int(row["skipped"] or 0) == doc["skipped"]


def _check_untested_line(lines: list[str], doc: dict[str, Any]) -> None:
    said = [x for x in lines if x.startswith(f"UNTESTED {doc['edition']}:")]
    if not doc["complete"] or doc["tested"]:
        assert not said, said
        return
    (line,) = said
    started = doc["scenarios"] + doc["games"] + len(doc["perft"])
    started += sum(r["probes"] for r in doc["rules"].values())
    skipped = re.search(r"skipped (?:all|the) (\d+) starts? sent", line)
    took = re.search(r"the engine took (\d+) starts?, and (?:it|they) compared no rule", line)
    if started:
        assert took is not None and int(took[1]) == started and skipped is None, line
    elif doc["skipped"]:
        assert skipped is not None and int(skipped[1]) == doc["skipped"] and took is None, line
    else:
        assert "no start was sent" in line, line
    assert all(r["passed"] == r["failed"] == 0 for r in doc["rules"].values())


def check_text_against_json(report: Report) -> dict[str, Any]:
    """Every claim of the text report checked against the JSON report; the JSON."""
    doc = report.to_json()
    assert Report.from_json(doc).to_json() == doc  # what a stored run reads back
    lines = format_report(report).splitlines()
    verdict = re.fullmatch(r"result: (.+) \(exit (\d)\) in [0-9.]+ s", lines[-1])
    assert verdict is not None, lines[-1]
    assert int(verdict[2]) == doc["exit"]
    words = {0: "conforms", 1: "differs", 2: "harness error", 3: "nothing certified"}
    assert verdict[1] == words[doc["exit"]]
    errors = [x for x in lines if x.startswith("harness error: ")]
    assert errors == ([f"harness error: {doc['error']}"] if doc["error"] else [])
    for ed in doc["editions"]:
        rows = [x for x in lines if re.match(rf"{re.escape(ed['edition'])}\s", x)]
        if not ed["claimed"]:
            assert len(rows) == 1 and "not claimed" in rows[0]
            assert f"NOT CLAIMED {ed['edition']}: {ed['keeps_out']}" in lines
            continue
        (row,) = rows
        _check_edition_row(row, ed)
        _check_untested_line(lines, ed)
    if doc["exit"] != 0:  # "conforms" is said of nothing that did not conform
        assert not any(re.search(r"\bconforms\b", x) for x in lines)
    page = unescape(html_report(report))  # the HTML page says why as the text does
    for rep in report.editions:
        said = [x for x in lines if x.startswith(f"UNTESTED {rep.edition}:")]
        assert all(x in page for x in said)
        assert (f"UNTESTED {rep.edition}:" in page) == bool(said)
    return doc


# --- the fake engines -------------------------------------------------------------------


def test_a_run_that_compares_no_rule_certifies_nothing() -> None:
    """A scenario run alone that stops before its first check (its first step is a
    leave, which no request says): it used to be "conforms (exit 0)" with 0 passed."""
    only = Only(scenarios=("leave-last-seat-wins",))
    report = conform("x", [ITALIAN], channel=InProcess(ItalianOnly()), asked=True, only=only)
    doc = check_text_against_json(report)
    (ed,) = doc["editions"]
    assert ed["scenarios"] == 1 and not ed["tested"] and not ed["conforms"]
    assert report.exit_code == EXIT_UNTESTED
    assert "nothing was checked: the engine took 1 start" in format_report(report)


def test_an_engine_that_skips_every_start_says_how_many() -> None:
    report = conform("x", [ITALIAN], games=2, channel=InProcess(Skipper()), perft_nodes=0)
    doc = check_text_against_json(report)
    assert doc["editions"][0]["skipped"] > 0 and report.exit_code == EXIT_UNTESTED


def test_an_engine_that_claims_nothing_certifies_nothing() -> None:
    report = conform("x", [ITALIAN, "spanish"], games=1, channel=InProcess(ClaimsNothing()))
    check_text_against_json(report)
    assert report.exit_code == EXIT_UNTESTED
    assert "UNTESTED: the engine claims none" in format_report(report)


def test_an_engine_that_differs_is_reported_as_its_json_says() -> None:
    report = conform("x", [ITALIAN], games=1, channel=InProcess(Stubborn()), perft_nodes=0)
    doc = check_text_against_json(report)
    assert doc["exit"] == 1 and doc["editions"][0]["failures"]


def test_the_reference_conforms_and_its_report_says_so() -> None:
    report = conform("x", [ITALIAN], games=1, channel=InProcess(ItalianOnly()), perft_nodes=0)
    doc = check_text_against_json(report)
    assert doc["exit"] == 0 and doc["editions"][0]["conforms"]


def test_an_engine_that_hangs_at_its_first_start_is_a_harness_error(tmp_path: Path) -> None:
    """It used to be "UNTESTED: the engine skipped every start" beside ``skipped: 0``: the
    timeout, a ValueError, was taken for a start the edition does not allow, and every
    later start waited out the timeout too."""
    engine = tmp_path / "hangs.py"
    hello = json.dumps({"name": "hangs", "claims": ItalianOnly().claims()})
    engine.write_text(  # imports nothing of ours: its hello is quick on a loaded machine
        "import sys, time\n"
        "for line in sys.stdin:\n"
        "    if '\"hello\"' in line:\n"
        f"        print({hello!r}, flush=True)\n"
        "    else:\n"
        "        time.sleep(600)\n",
        encoding="utf-8",
    )
    report = conform(f"{sys.executable} {engine}", [ITALIAN], games=1, timeout=5.0)
    doc = check_text_against_json(report)
    assert report.exit_code == EXIT_HARNESS
    assert "did not answer 'start'" in str(doc["error"])
    ed = doc["editions"][0]
    assert not ed["complete"] and ed["skipped"] == 0 and ed["scenarios"] == 0
    assert "skipped" not in format_report(report)


@pytest.mark.parametrize(
    ("counts", "words"),
    [
        ({"skipped": 3}, "the engine skipped all 3 starts sent"),
        ({"skipped": 1}, "the engine skipped the 1 start sent"),
        ({}, "no start was sent"),
        ({"scenarios": 2, "skipped": 5}, "the engine took 2 starts, and they compared no rule"),
    ],
)
def test_why_an_edition_certified_nothing_follows_its_counts(
    counts: dict[str, int], words: str
) -> None:
    rep = EditionReport(edition=ITALIAN, claimed=True, **counts)
    assert not rep.tested and words in rep.untested()
    report = Report(engine="e", command="c", editions=[rep])
    assert report.exit_code == EXIT_UNTESTED
    check_text_against_json(report)
