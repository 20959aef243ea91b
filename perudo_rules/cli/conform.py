"""The ``conform`` and ``perft`` commands: certify an engine; count action sequences.

``perudo-rules conform --engine "CMD ARGS"`` runs the conformance kit
(:mod:`perudo_rules.conform`) and exits 0 when every claimed edition conforms, 1 when the
engine differs, 2 on a harness error (the engine crashed, hung, flooded or answered
garbage: one line says which) or bad input, 3 when nothing was certified (an edition asked
for that no claim covers, a run that tested nothing). ``--witness FILE`` and
``--scenario ID`` re-run one case alone; ``--profile`` fingerprints an engine.
``perudo-rules perft EDITION --position FILE
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
from perudo_rules.base.output import Outputs, progress_printer, write_text
from perudo_rules.base.safetext import printable
from perudo_rules.base.table import format_table
from perudo_rules.conform.diagnose import Root
from perudo_rules.conform.htmlreport import html_report
from perudo_rules.conform.perft import perft
from perudo_rules.conform.profile import Profile, profile
from perudo_rules.conform.report import (
    EXIT_CONFORMS,
    EXIT_DIFFERS,
    EXIT_HARNESS,
    EXIT_UNTESTED,
    EditionReport,
    Failure,
    Report,
    citation,
    rule_ids,
)
from perudo_rules.conform.runner import PERFT_NODES, Only, conform
from perudo_rules.conform.scenarios import load_scenarios
from perudo_rules.conform.shrink import Case
from perudo_rules.conform.stopping import stopped_by_sigterm
from perudo_rules.conform.witnessfile import read_witness
from perudo_rules.editions.variantfile import available_variants, load_variant
from perudo_rules.records.position import Roll, read_position

#: The most positions ``perft`` expands unless ``--nodes`` says otherwise.
PERFT_BUDGET = 2_000_000

__all__ = ["failure_lines", "format_profile", "format_report", "format_rules", "register"]


def _counts(rep: EditionReport) -> tuple[int, int, int, int]:
    statuses = [rep.status(r) for r in rule_ids()]
    count = statuses.count
    return (count("passed"), count("failed"), count("not reached"),
            count("not observed") + count("not read"))  # fmt: skip


def format_rules(rep: EditionReport) -> str:
    """One edition's rule ids as a table: status, comparisons passed and failed, probes
    sent, and why a rule is not read."""
    rows = [
        [r, tr(rep.status(r)), rep.passed.get(r, 0), rep.failed.get(r, 0),
         rep.probes.get(r, 0), tr(rep.unread[r]) if rep.unread.get(r) else ""]
        for r in rule_ids()
    ]  # fmt: skip
    return format_table([f"{rep.edition}: " + tr("rule"), tr("status"), tr("passed"),
                         tr("failed"), tr("probes"), tr("why")], rows)  # fmt: skip


def failure_lines(edition: str, fail: Failure, checks: int) -> list[str]:
    """One root failure: the rule and its cause first, then the edition's rule, how the
    engine differed, what followed from it and the witness."""
    if fail.knob:
        plays = ", ".join(f"{p}: {json.dumps(v)}" for p, v in fail.knob.items())
        says = ", ".join(f"{json.dumps(v)}" for v in fail.edition_values.values())
        head = tr("FAIL {edition} {rule}: the engine plays {plays}; the edition says {says}",
                  edition=edition, rule=fail.rule, plays=plays, says=says)
    else:
        head = tr("FAIL {edition} {rule}: no knob value explains it; this rule decided the "
                  "reference's answer", edition=edition, rule=fail.rule)
    lines = [head + " " + tr("({n} of {checks} checks, first in {source})", n=fail.count,
                             checks=checks, source=fail.source)]  # fmt: skip
    cited = citation(edition, fail.rule)
    if cited:
        lines.append("  " + printable(cited))
    lines.append("  " + printable(str(fail.detail)))
    if fail.consequences:
        lines.append("  " + tr("and so: {fields} differ too", fields=", ".join(fail.consequences)))
    if fail.decided_by:  # the edition's outcome of the call: each deciding rule, where it stands
        lines.append("  " + tr("The edition's outcome was decided by these rules:"))
        lines += ["    " + printable(citation(edition, rule) or rule) for rule in fail.decided_by]
    # the witness as data (its English "detail" is said above, in the reader's language)
    shown = {k: v for k, v in fail.witness.items() if k != "detail"}
    lines.append("  " + tr("witness: {json}", json=json.dumps(shown)))
    return lines


def format_report(report: Report, rules: bool = False) -> str:
    """The report as text: each root failure first (its rule named on its first line),
    then a line per edition, then (with ``rules``) every rule id of every claimed edition."""
    lines: list[str] = []
    for rep in report.editions:
        for fail in rep.failures:
            checks = rep.failed.get(fail.rule, 0) + rep.passed.get(fail.rule, 0)
            lines += failure_lines(rep.edition, fail, checks)
        for x in rep.perft:
            if not x.ok:
                lines.append(tr("FAIL {edition} perft {name} to depth {depth}: expected "
                                "{expected}, the engine counts {got}", edition=rep.edition,
                                name=x.name, depth=x.depth, expected=x.expected, got=x.got))
                for move, want, got in x.divide[:8]:
                    lines.append("  " + tr("after {move}: expected {want}, the engine counts "
                                           "{got}", move=move, want=want, got=got))  # fmt: skip
    lines.append(tr("engine: {name} ({command})", name=printable(report.engine),
                    command=printable(report.command)))  # fmt: skip
    rows = []
    for rep in report.editions:
        if not rep.claimed:
            rows.append([rep.edition, tr("not claimed"), "", "", "", "", ""])
            continue
        p, f, n, u = _counts(rep)
        perft_ok = sum(1 for x in rep.perft if x.ok)
        if not rep.complete:
            result = tr("interrupted")
        elif rep.conforms:
            result = tr("conforms")
        else:
            result = tr("DIFFERS") if rep.tested else tr("UNTESTED")
        ran = tr("{s} scenarios, {g} games, {p} probes, perft {ok}/{all}", s=rep.scenarios,
                 g=rep.games, p=sum(rep.probes.values()), ok=perft_ok, all=len(rep.perft))
        if rep.skipped:
            ran += tr(", {n} starts skipped", n=rep.skipped)
        rows.append([rep.edition, result, tr("{n} passed", n=p), tr("{n} failed", n=f),
                     tr("{n} not reached", n=n), tr("{n} not observed or read", n=u),
                     ran])  # fmt: skip
    if rows:
        lines.append(format_table([tr("edition"), tr("result"), tr("rules"), "", "", "",
                                   tr("ran")], rows))  # fmt: skip
    for rep in report.editions:
        if not rep.claimed:
            lines.append(tr("NOT CLAIMED {edition}: {why}", edition=rep.edition,
                            why=printable(rep.keeps_out)))  # fmt: skip
        elif rep.complete and not rep.tested:
            lines.append(tr("UNTESTED {edition}: {why}", edition=rep.edition, why=rep.untested()))
    if not any(rep.claimed for rep in report.editions) and report.error is None:
        lines.append(tr("UNTESTED: the engine claims none of the editions asked for"))
    if rules:
        lines += [format_rules(rep) for rep in report.editions if rep.claimed and rep.complete]
    if report.error is not None:
        lines.append(tr("harness error: {error}", error=printable(report.error)))
    verdict = {
        EXIT_CONFORMS: tr("conforms"), EXIT_DIFFERS: tr("differs"),
        EXIT_HARNESS: tr("harness error"), EXIT_UNTESTED: tr("nothing certified"),
    }[report.exit_code]  # fmt: skip
    lines.append(tr("result: {verdict} (exit {code}) in {seconds} s", verdict=verdict,
                    code=report.exit_code, seconds=f"{report.seconds:.1f}"))  # fmt: skip
    return "\n".join(lines)


def _only(args: argparse.Namespace) -> tuple[list[str] | None, Only | None]:
    """The editions and the one thing ``--witness`` or ``--scenario`` runs alone."""
    if args.witness is not None:
        if args.scenario or args.edition:
            raise ValueError(tr("--witness names its edition and case: give it alone"))
        w = read_witness(args.witness)
        known: tuple[Root, ...] = ()
        rule, knob, says = w.doc.get("rule"), w.doc.get("knob"), w.doc.get("edition_values")
        scope = w.doc.get("scope", "")
        if isinstance(rule, str) and isinstance(knob, dict) and isinstance(says, dict):
            known = (Root(rule, knob, says, scope=scope if isinstance(scope, str) else ""),)
        case = Case(w.position, w.steps, w.then)
        return [w.edition], Only(witness=(w.variant, case), known=known)
    if not args.scenario:
        return args.edition, None
    by_id = {sc.id: sc for sc in load_scenarios()}
    for sid in args.scenario:
        if sid not in by_id:
            raise ValueError(
                tr("no scenario {id} (see 'perudo-rules export-scenarios')", id=repr(sid))
            )
    editions = args.edition or list(dict.fromkeys(
        e for sid in args.scenario for e in by_id[sid].variants
    ))  # fmt: skip
    return editions, Only(scenarios=tuple(args.scenario))


def format_profile(found: Profile) -> str:
    """A profile as text: the nearest bundled edition first, then each knob where the
    engine differs from it (with the witness that showed it), what stayed unexplained
    and the knobs never seen to decide."""
    lines: list[str] = []
    if found.error is None:
        if found.differs:
            lines.append(tr("{engine} plays {edition}, except:", engine=printable(found.engine),
                            edition=found.nearest))  # fmt: skip
        else:
            lines.append(tr("{engine} plays {edition}", engine=printable(found.engine),
                            edition=found.nearest))  # fmt: skip
    for fail in found.differs:
        (path, value), = fail.knob.items()
        says = fail.edition_values.get(path)
        lines.append("  " + tr("{knob}: the engine plays {value}; {edition} says {says}",
                               knob=path, value=json.dumps(value), edition=found.nearest,
                               says=json.dumps(says)))  # fmt: skip
        if fail.witness:
            lines.append("    " + tr("witness: {json}", json=json.dumps(fail.witness)))
    for fail in found.unexplained:
        lines += failure_lines(found.nearest, fail, fail.count)
    if found.undetermined:
        lines.append(tr("not seen to decide (undetermined): {knobs}",
                        knobs=", ".join(found.undetermined)))  # fmt: skip
    if found.error is not None:
        lines.append(tr("harness error: {error}", error=printable(found.error)))
    lines.append(tr("result: exit {code} in {seconds} s", code=found.exit_code,
                    seconds=f"{found.seconds:.1f}"))  # fmt: skip
    return "\n".join(lines)


def _cmd_profile(args: argparse.Namespace) -> int:
    if args.edition or args.witness or args.scenario:
        raise ValueError(
            tr(
                "--profile looks at every bundled edition: give it without "
                "--edition, --witness or --scenario"
            )
        )
    games = check_count("--games", args.games, 0, 100_000)
    found = profile(args.engine, games=min(games, 4), seed=args.seed, timeout=args.timeout,
                    progress=progress_printer())  # fmt: skip
    print(json.dumps(found.to_json(), indent=2) if args.json else format_profile(found))
    if found.error is not None and not args.json:
        error = printable(found.error)
        print(tr("perudo-rules: harness error: {error}", error=error), file=sys.stderr)
    return found.exit_code


def _cmd_conform(args: argparse.Namespace) -> int:
    # SIGTERM stops the run as Ctrl-C does: the engines (and the workers' engines) are
    # ended, one line is printed, and the exit status is 130
    with stopped_by_sigterm():
        return _conform_run(args)


def _conform_run(args: argparse.Namespace) -> int:
    if args.profile:
        return _cmd_profile(args)
    asked, only = _only(args)
    editions = asked or available_variants()
    for e in editions:
        load_variant(e)  # an unknown edition is bad input: one line, exit 2
    games = check_count("--games", args.games, 0, 100_000)
    if not 0 < args.timeout <= 3600:
        raise ValueError(tr("--timeout is seconds per reply, more than 0 and at most 3600"))
    nodes = check_count("--perft-nodes", args.perft_nodes, 0, 1_000_000)
    if args.html is not None:  # refused before the run, not after it
        Outputs([*editions, *([args.witness] if args.witness else [])]).add(args.html, "--html")
    # every core by default, one edition per process, when there are several editions
    workers = args.workers if args.workers is not None else min(os.cpu_count() or 1, len(editions))
    check_count("--workers", workers, 1, MAX_WORKERS)
    report = conform(args.engine, editions, games=games, seed=args.seed, timeout=args.timeout,
                     progress=progress_printer(), perft_nodes=nodes, workers=workers,
                     asked=bool(asked), only=only)  # fmt: skip
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(format_report(report, rules=args.rules))
    if args.html is not None:  # an unwritable file: OutputError, one line and exit 2
        write_text(args.html, html_report(report))
    if report.error is not None and not args.json:
        error = printable(report.error)
        print(tr("perudo-rules: harness error: {error}", error=error), file=sys.stderr)
    return report.exit_code


def _cmd_perft(args: argparse.Namespace) -> int:
    variant = load_variant(args.edition)
    depth = check_count("--depth", args.depth, 1, 12)
    budget = check_count("--nodes", args.nodes, 1, 100_000_000)
    position, steps = read_position(args.position)
    written_for = None  # a position of another edition is counted under EDITION, and said so
    if position.variant is not None and load_variant(position.variant).id != variant.id:
        written_for = position.variant
    game = position.game(variant)
    for step in steps:
        game = game.roll(dice=step.dice) if isinstance(step, Roll) else game.apply(step)
    table = perft(game, depth, budget)
    if args.json:
        print(json.dumps({"edition": variant.id, "position": position.to_json(steps),
                          "written_for": written_for, "nodes": list(table.nodes),
                          "calls": list(table.calls)}))  # fmt: skip
        return 0
    if written_for is not None:
        print(tr("The position was written for {edition}; it is checked under {id}.",
                 edition=printable(written_for), id=printable(variant.id)))  # fmt: skip
    rows = [[d + 1, n, c] for d, (n, c) in enumerate(zip(table.nodes, table.calls, strict=True))]
    print(format_table([tr("depth"), tr("sequences"), tr("ending in a call")], rows))
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
            "a minimal witness), not reached or not observed. Each difference is traced to "
            "its root: the knob value the engine plays, or the rule the kernel's trace names. "
            "Exit 0: conforms; 1: differs; 2: harness error or bad input; 3: nothing "
            "certified (an edition asked for that no claim covers, or nothing tested).")
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
    p.add_argument("--witness", metavar="FILE.json",
                   help=tr("re-run one witness file (as a failure printed it) against the "
                           "engine alone"))
    p.add_argument("--scenario", action="append", metavar="ID",
                   help=tr("re-run one scenario against the engine alone (repeatable; on "
                           "its editions, or those given with --edition)"))
    p.add_argument("--profile", action="store_true",
                   help=tr("fingerprint the engine, claims aside: the knob values it plays, "
                           "the nearest bundled edition and each knob where it differs, with "
                           "a witness each (exit 0: it plays that edition; 1: it differs)"))
    p.add_argument("--rules", action="store_true",
                   help=tr("also list every rule id of each claimed edition with its status"))
    p.add_argument("--json", action="store_true", help=tr("print the report as JSON"))
    p.add_argument("--html", metavar="FILE.html", help=tr("also write the report as one HTML page"))
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
    q.add_argument("--nodes", type=int, default=PERFT_BUDGET,
                   help=tr("the most positions the walk may expand (default {n:,}): a "
                           "deeper walk is refused, never left running for days",
                           n=PERFT_BUDGET))  # fmt: skip
    q.add_argument("--json", action="store_true", help=tr("print the counts as JSON"))
    q.set_defaults(handler=_cmd_perft)
