"""The conformance report as HTML (``conform --html FILE``): a page that parses, shows every
rule id of each claimed edition, each root failure with its witness linked from its rule's
row, the perft checks, the editions left out, and escapes whatever the engine said."""

from __future__ import annotations

import json
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from perudo_rules import load_variant
from perudo_rules.base.i18n import use_language
from perudo_rules.cli import main
from perudo_rules.conform.htmlreport import html_report
from perudo_rules.conform.report import (
    EditionReport,
    Failure,
    PerftCheck,
    Report,
    rule_ids,
)
from perudo_rules.conform.runner import conform
from perudo_rules.editions.corerules import cite
from perudo_rules.harness.stepapi import StepHarness

ROOT = Path(__file__).resolve().parent.parent
BROKEN = f"{sys.executable} {ROOT / 'tests' / 'harnesses' / 'broken_stepapi.py'}"
EVIL = '<script>alert("x")</script>'


class _Page(HTMLParser):
    """The elements, ids, links and text of a page; unbalanced tags are an error."""

    VOID = frozenset({"meta", "br", "hr", "img", "link", "input"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.tags: list[str] = []
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.text: list[str] = []
        self.pre: list[str] = []
        self._in_pre = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        found = dict(attrs)
        if found.get("id"):
            assert found["id"] not in self.ids, f"id {found['id']} twice"
            self.ids.add(str(found["id"]))
        if found.get("href"):
            self.hrefs.append(str(found["href"]))
        if tag == "pre":
            self._in_pre = True
            self.pre.append("")
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, (tag, self.stack[-4:])
        self.stack.pop()
        if tag == "pre":
            self._in_pre = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._in_pre:
            self.pre[-1] += data


def _parse(page: str) -> _Page:
    parser = _Page()
    parser.feed(page)
    parser.close()
    assert parser.stack == [], parser.stack
    return parser


def _report() -> Report:
    witness = {"edition": "italian", "position": {"dice": [[3], [1]]}, "then": "1:calza",
               "rule": "calza.who", "engine": EVIL}  # fmt: skip
    knob = Failure(
        rule="calza.who",
        detail="seat 1's legal actions: the reference allows 1:calza, the engine does not list it",
        witness=witness,
        source="probe calza.who",
        knob={"calza.who": "bidder_only"},
        edition_values={"calza.who": "any_except_bidder"},
        consequences=["next", "palifico"],
        count=3,
    )
    plain = Failure("challenge.exact", f"outcome delta: the engine says {EVIL}",
                    {"edition": "italian", "then": "0:dudo"}, "game 2",
                    decided_by=["challenge.exact", "round.starter"])  # fmt: skip
    italian = EditionReport(
        "italian", True, passed={"play.dudo": 9, "calza.who": 1},
        failed={"calza.who": 3, "challenge.exact": 1}, failures=[knob, plain], scenarios=4,
        games=2, probes={"calza.who": 1, "challenge.exact": 1},
        perft=[PerftCheck("heads-up-1", 2, [12, 78], [12, 80],
                          [("0:1x2", [1, 6], [1, 8])])],
    )  # fmt: skip
    bluff = EditionReport("bluff", False, keeps_out=f"reroll.enabled: the engine claims {EVIL}")
    return Report(EVIL, f"node {EVIL}.js", [italian, bluff], seconds=1.25)


def test_the_page_parses_and_holds_every_rule_failure_and_witness() -> None:
    report = _report()
    page = html_report(report)
    parsed = _parse(page)
    text = " ".join(" ".join(parsed.text).split())
    assert page.startswith("<!DOCTYPE html>")
    # self-contained: no script, no external file
    assert "script" not in parsed.tags and "link" not in parsed.tags
    assert all(h.startswith("#") for h in parsed.hrefs), parsed.hrefs
    assert all(h[1:] in parsed.ids for h in parsed.hrefs), parsed.hrefs
    # the header: verdict and exit code
    assert "differs" in text and report.exit_code == 1
    assert 'class="verdict-1">1</span>' in page
    # every rule id has a row in the claimed edition's matrix
    for rule in rule_ids():
        assert "rule-0-" + rule in parsed.ids, rule
    # each failure: its rule, linked from its row, its witness in a <pre>
    for j, fail in enumerate(report.editions[0].failures):
        assert fail.rule in text
        assert f"failure-0-{j}" in parsed.ids
        assert f"#failure-0-{j}" in parsed.hrefs
        assert json.loads(parsed.pre[j]) == fail.witness
    # the knob the engine plays against the edition's, consequences and perft divide
    assert '"bidder_only"' in text and '"any_except_bidder"' in text
    assert "next, palifico" in text
    # the edition's outcome of the call: each deciding rule with its section
    assert "The edition's outcome was decided by these rules:" in text
    assert cite("round.starter", load_variant("italian")).line() in text
    assert "0:1x2" in text and "[1, 8]" in text
    # the unclaimed edition with what kept it out
    assert "bluff" in text and "reroll.enabled: the engine claims" in text


def test_whatever_the_engine_says_is_escaped() -> None:
    page = html_report(_report())
    assert "<script" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    text = " ".join(_parse(page).text)
    assert EVIL in text  # shown as text, in the title, the header, details and witnesses


def test_the_page_speaks_the_language_of_the_context() -> None:
    report = Report("e", "cmd", [EditionReport("italian", True, passed={"play.dudo": 1},
                                               games=1)])  # fmt: skip
    with use_language("it"):
        page = html_report(report)
    assert '<html lang="it">' in page
    _parse(page)


def test_a_run_through_the_kit_renders() -> None:
    class InProcess:
        def __init__(self) -> None:
            self.ask = StepHarness().handle

    report = conform("x", ["textarena-liars-dice"], games=1, seed=0, channel=InProcess())
    assert report.exit_code == 0, report.to_json()
    parsed = _parse(html_report(report))
    text = " ".join(" ".join(parsed.text).split())
    assert "textarena-liars-dice" in text and "conforms" in text
    assert not any(i.startswith("failure-") for i in parsed.ids)


def test_the_cli_writes_the_page(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report.html"
    code = main(["conform", "--engine", f"{BROKEN} dudo-exact", "--edition",
                 "openspiel-liars-dice", "--games", "1", "--html", str(out)])  # fmt: skip
    assert code == 1
    parsed = _parse(out.read_text(encoding="utf-8"))
    text = " ".join(" ".join(parsed.text).split())
    assert "challenge.exact" in text and "broken step API (dudo-exact)" in text
    witness: dict[str, Any] = json.loads(parsed.pre[0])
    assert witness["edition"] == "openspiel-liars-dice" and witness["then"].endswith(":dudo")
    capsys.readouterr()


def test_an_unwritable_html_file_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no-such-folder" / "report.html"
    code = main(["conform", "--engine", "true", "--edition", "italian", "--html", str(missing)])
    assert code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "no such folder" in err, err
