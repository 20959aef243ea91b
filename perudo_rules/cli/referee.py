"""The ``referee`` command: check that a game record obeys its variant."""

from __future__ import annotations

import argparse
from typing import Any

from perudo_rules.base.i18n import tr
from perudo_rules.base.safetext import json_text, printable
from perudo_rules.base.table import format_table
from perudo_rules.records.referee import referee

__all__ = ["register"]


def _run(args: argparse.Namespace) -> int:
    verdict = referee(args.record)
    if args.json:
        print(json_text(verdict.to_dict()))
    else:
        print(printable(verdict.headline()))
        if verdict.citation is not None and not args.quiet:  # the rule: section, quote
            print(printable(verdict.citation.line()))
        if verdict.rounds and not args.quiet:
            rows = [
                (
                    r.round,
                    r.first_player,
                    tr("yes") if r.palifico else "",
                    " ".join(map(str, r.dice_counts)),
                    r.actions,
                    r.outcome,
                    ", ".join(c.rule for c in r.decided_by),
                )
                for r in verdict.rounds
            ]
            headers = [tr("round"), tr("opener"), "palifico", tr("dice"), tr("actions")]
            headers += [tr("outcome"), tr("decided by")]
            print(format_table(headers, rows))
            cited = {c.rule: c for r in verdict.rounds for c in r.decided_by}
            if cited:  # each rule once: statement, section, the rulebook's words
                print("\n" + tr("The rules that decided the outcomes:"))
                for citation in cited.values():
                    print("  " + printable(citation.line()))
    return 0 if verdict.valid else 1


def register(subparsers: Any) -> None:
    """Add the ``referee`` command."""
    p = subparsers.add_parser(
        "referee",
        help=tr("check a game record against its variant's rules"),
        description=(
            tr("Replay a game record (JSON) step by step. Exit 0 if every step obeys the rules, "
            "1 at the first violation (round, step, action, rule id, reason), 2 if the file is "
            "not a well-formed record.")
        ),
    )
    p.add_argument("record", help=tr("path of a record file (JSON)"))
    p.add_argument("--json", action="store_true", help=tr("print the verdict as JSON"))
    p.add_argument("-q", "--quiet", action="store_true", help=tr("print only the verdict line"))
    p.set_defaults(handler=_run)
