"""The ``conform`` and ``perft`` commands: certify an engine; count action sequences.

``perudo-rules conform --engine "CMD ARGS"`` runs the conformance kit
(:mod:`perudo_rules.conform`) and exits 0 when every claimed edition conforms, 1 when the
engine differs, 2 on a harness error (the engine crashed, hung, flooded or answered
garbage: one line says which) or bad input. ``perudo-rules perft EDITION --position FILE
--depth D`` prints the perft counts of a position (:mod:`perudo_rules.conform.perft`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from perudo_rules.base.i18n import tr
from perudo_rules.base.limits import MAX_WORKERS, check_count
from perudo_rules.base.output import progress_printer
from perudo_rules.base.safetext import printable
from perudo_rules.base.table import format_table
from perudo_rules.conform.perft import perft
from perudo_rules.conform.report import EditionReport, Report, rule_ids
from perudo_rules.conform.runner import PERFT_NODES, conform
from perudo_rules.editions.variantfile import available_variants, load_variant
from perudo_rules.records.position import Roll, read_position

__all__ = ["format_report", "format_rules", "register"]


def _counts(rep: EditionReport) -> tuple[int, int, int, int]:
    statuses = [rep.status(r) for r in rule_ids()]
    count = statuses.count
    return count("passed"), count("failed"), count("not reached"), count("not observed")


def format_rules(rep: EditionReport) -> str:
    """One edition's rule ids as a table: status, comparisons passed and failed."""
    rows = [
        [r, rep.status(r), rep.passed.get(r, 0), rep.failed.get(r, 0)] for r in rule_ids()
    ]
    return format_table([f"{rep.edition}: rule", "status", "passed", "failed"], rows)


def format_report(report: Report, rules: bool = False) -> str:
    """The report as text: a line per edition, then each failure with its witness (and
    with ``rules``, every rule id of every claimed edition)."""
    lines = [f"engine: {printable(report.engine)} ({printable(report.command)})"]
    rows = []
    for rep in report.editions:
        if not rep.claimed:
            rows.append([rep.edition, "not claimed", "", "", "", "", ""])
            continue
        p, f, n, u = _counts(rep)
        perft_ok = sum(1 for x in rep.perft if x.ok)
        rows.append([
            rep.edition,
            "conforms" if rep.conforms else ("DIFFERS" if rep.tested else "UNTESTED"),
            f"{p} passed",
            f"{f} failed", f"{n} not reached", f"{u} not observed",
            f"{rep.scenarios} scenarios, {rep.games} games, perft {perft_ok}/{len(rep.perft)}"
            + (f", {rep.skipped} starts skipped" if rep.skipped else ""),
        ])  # fmt: skip
    if rows:
        lines.append(format_table(["edition", "result", "rules", "", "", "", "ran"], rows))
    for rep in report.editions:
        for fail in rep.failures.values():
            checks = rep.failed[fail.rule] + rep.passed.get(fail.rule, 0)
            lines.append(
                f"FAIL {rep.edition} {fail.rule}: {rep.failed[fail.rule]} of {checks} checks "
                f"({fail.source})"
            )
            lines.append(f"  {printable(fail.detail)}")
            lines.append(f"  witness: {json.dumps(fail.witness)}")
            if fail.then is not None:
                lines.append(f"  then: {fail.then} (the engine must refuse it)")
            if fail.overrides:
                lines.append(f"  with the knob values: {json.dumps(fail.overrides)}")
        for x in rep.perft:
            if not x.ok:
                lines.append(
                    f"FAIL {rep.edition} perft {x.name} to depth {x.depth}: expected "
                    f"{x.expected}, the engine counts {x.got}"
                )
    for rep in report.editions:
        if rep.claimed and not rep.tested:
            lines.append(f"UNTESTED {rep.edition}: the engine skipped every start")
    if rules:
        lines += [format_rules(rep) for rep in report.editions if rep.claimed]
    if report.error is not None:
        lines.append(f"harness error: {printable(report.error)}")
    verdict = {0: "conforms", 1: "differs", 2: "harness error"}[report.exit_code]
    lines.append(f"result: {verdict} (exit {report.exit_code}) in {report.seconds:.1f} s")
    return "\n".join(lines)


def _cmd_conform(args: argparse.Namespace) -> int:
    editions = args.edition or available_variants()
    for e in editions:
        load_variant(e)  # an unknown edition is bad input: one line, exit 2
    games = check_count("--games", args.games, 0, 100_000)
    if not 0 < args.timeout <= 3600:
        raise ValueError("--timeout is seconds per reply, more than 0 and at most 3600")
    nodes = check_count("--perft-nodes", args.perft_nodes, 0, 1_000_000)
    # every core by default, one edition per process, when there are several editions
    workers = args.workers if args.workers is not None else min(os.cpu_count() or 1, len(editions))
    check_count("--workers", workers, 1, MAX_WORKERS)
    report = conform(args.engine, editions, games=games, seed=args.seed, timeout=args.timeout,
                     progress=progress_printer(), perft_nodes=nodes, workers=workers)  # fmt: skip
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(format_report(report, rules=args.rules))
    if report.error is not None and not args.json:
        print(f"perudo-rules: harness error: {printable(report.error)}", file=sys.stderr)
    return report.exit_code


def _cmd_perft(args: argparse.Namespace) -> int:
    variant = load_variant(args.edition)
    depth = check_count("--depth", args.depth, 1, 12)
    position, steps = read_position(args.position)
    if position.variant is not None and load_variant(position.variant).id != variant.id:
        raise ValueError(f"the position is for {position.variant}, not {variant.id}")
    game = position.game(variant)
    for step in steps:
        game = game.roll(dice=step.dice) if isinstance(step, Roll) else game.apply(step)
    table = perft(game, depth)
    if args.json:
        print(json.dumps({"edition": variant.id, "position": position.to_json(steps),
                          "nodes": list(table.nodes), "calls": list(table.calls)}))  # fmt: skip
        return 0
    rows = [[d + 1, n, c] for d, (n, c) in enumerate(zip(table.nodes, table.calls, strict=True))]
    print(format_table(["depth", "sequences", "ending in a call"], rows))
    return 0


def register(subparsers: Any) -> None:
    """Add ``conform`` and ``perft`` to the command line."""
    p = subparsers.add_parser(
        "conform",
        help=tr("certify an engine that speaks the harness protocol"),
        description=(
            tr("Start the engine CMD (it speaks the harness protocol, spec/harness.schema.json), "
            "read the knob values it claims, and for every edition it claims run the "
            "scenarios that apply, random games against the reference with the same dice, "
            "and the published perft counts. Reports every rule id as passed, failed (with "
            "a minimal witness), not reached or not observed. Exit 0: conforms; 1: differs; "
            "2: harness error or bad input.")
        ),
    )
    p.add_argument("--engine", required=True, metavar="CMD",
                   help=tr('the engine\'s command line, split as a shell splits it (no pipes or '
                   'redirections), e.g. "node harness.js"'))
    p.add_argument("--edition", action="append", metavar="ID",
                   help=tr("an edition id or file (repeatable; default: every bundled edition)"))
    p.add_argument("--games", type=int, default=20, help=tr("random games per edition (20)"))
    p.add_argument("--seed", type=int, default=0, help=tr("seed of the random games (0)"))
    p.add_argument("--timeout", type=float, default=10.0,
                   help=tr("seconds the engine may take per reply (10)"))
    p.add_argument("--perft-nodes", type=int, default=PERFT_NODES,
                   help=tr("positions each perft walk may expand ({n}); it counts the deepest "
                           "published depth within them", n=PERFT_NODES))
    p.add_argument("--workers", type=int, default=None,
                   help=tr("editions run at once, each in its own process against its own copy "
                           "of the engine (default: one per CPU, at most one per edition); the "
                           "report is the same for any number"))
    p.add_argument("--rules", action="store_true",
                   help=tr("also list every rule id of each claimed edition with its status"))
    p.add_argument("--json", action="store_true", help=tr("print the report as JSON"))
    p.set_defaults(handler=_cmd_conform)
    q = subparsers.add_parser(
        "perft",
        help=tr("count the legal action sequences from a position"),
        description=(
            tr("Count the action sequences of 1..D actions from a position with fixed dice: "
            "every bid of the player to move and every call of every seat that may call; a "
            "call ends the round (a leaf). Published tables: spec/perft/.")
        ),
    )
    q.add_argument("edition", metavar="EDITION", help=tr("an edition id or file"))
    q.add_argument("--position", required=True, metavar="FILE.json",
                   help=tr("the position (JSON: dice, first_player, ...; actions played first)"))
    q.add_argument("--depth", type=int, required=True, help=tr("depth, 1 to 12"))
    q.add_argument("--json", action="store_true", help=tr("print the counts as JSON"))
    q.set_defaults(handler=_cmd_perft)
