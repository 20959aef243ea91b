"""Commands about variant files: ``list``, ``show``, ``validate``, ``compare``."""

from __future__ import annotations

import argparse
import itertools
import shutil
import textwrap
from collections.abc import Sequence
from typing import Any

from perudo_rules.analysis.witness import find_witnesses
from perudo_rules.analysis.witnessvalue import Witness
from perudo_rules.base.errors import VariantError
from perudo_rules.base.i18n import N_, ntr, ptr, tr
from perudo_rules.base.limits import MAX_WITNESS_DICE, check_count
from perudo_rules.base.output import progress_printer
from perudo_rules.base.safetext import json_text, printable
from perudo_rules.base.table import format_table
from perudo_rules.editions.corerules import cite, core_rules
from perudo_rules.editions.variant import Knob, Variant, differing_knobs, format_value
from perudo_rules.editions.variantfile import available_variants, load_variant, variant_problems
from perudo_rules.records.describe import describe_step, describe_steps

__all__ = ["diff_variants", "register"]

#: The kinds of witness, for the catalogues (shown translated).
WITNESS_KINDS = (N_("legality"), N_("resolution"), N_("setup"))


def _statement(knob: Knob) -> str:
    """The rule's statement and its rulebook section, in the context's language."""
    text = tr(knob.text) if knob.text else tr("(set without a statement)")
    if knob.source:
        text += f" [{ptr('source', knob.source)}]"
    return text


def diff_variants(variants: list[Variant], include_all: bool = False) -> list[dict[str, Any]]:
    """Rule-by-rule comparison: one dict per knob (only differing knobs unless ``include_all``).

    Each dict has ``rule``, ``differs``, ``values`` and ``statements`` (variant id to
    the rule's statement in that variant, with its rulebook source).
    """
    rows = []
    differing = set(differing_knobs(*variants))
    for knob in variants[0].knobs:
        differs = knob.path in differing
        if differs or include_all:
            rows.append(
                {
                    "rule": knob.path,
                    "differs": differs,
                    "values": {v.id: v[knob.path] for v in variants},
                    "statements": {v.id: _statement(v.knob(knob.path)) for v in variants},
                }
            )
    return rows


def _width() -> int:
    return max(60, min(120, shutil.get_terminal_size((100, 24)).columns))


def _wrap(label: str, text: str, indent: int) -> str:
    """``label`` padded to ``indent`` columns, then ``text`` wrapped under itself (both
    from files, perhaps: characters that are not printable are escaped)."""
    head = printable(label)
    return textwrap.fill(
        printable("".join(" " if c.isspace() else c for c in text)),
        width=_width(),
        initial_indent=head.ljust(indent) if len(head) < indent else head + " ",
        subsequent_indent=" " * indent,
        break_on_hyphens=False,
    )


def _wrapped_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A table whose last column wraps to the terminal width, continuation lines indented;
    each line of the last cell (``\n``: a statement, then its citation) wraps on its own."""
    fixed = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(len(headers) - 1)]
    room = max(30, _width() - sum(fixed) - 2 * len(fixed))
    lines: list[list[str]] = []
    for row in rows:
        parts = [
            part
            for para in str(row[-1]).split("\n")
            for part in textwrap.wrap(para, width=room, break_on_hyphens=False) or [""]
        ]
        lines.append([*row[:-1], parts[0]])
        lines.extend([*([""] * (len(row) - 1)), more] for more in parts[1:])
    return format_table(headers, lines)


# --- list, show -----------------------------------------------------------------------------


def _cmd_list(args: argparse.Namespace) -> int:
    variants = [load_variant(vid) for vid in available_variants()]
    if args.json:
        data = [
            {"id": v.id, "name": v.name, "description": " ".join(v.description.split())}
            for v in variants
        ]
        print(json_text(data))
        return 0
    rows = [
        (
            v.id,
            tr(v.name),
            f"{v['players.min']}-{v['players.max']}",
            v["dice.per_player"],
            len(v.interpretations()),
        )
        for v in variants
    ]
    headers = [tr("id"), tr("name"), tr("players"), tr("dice"), tr("interpretations")]
    print(format_table(headers, rows))
    return 0


def _show_json(v: Variant) -> dict[str, Any]:
    return {
        "id": v.id,
        "name": v.name,
        "description": " ".join(v.description.split()),
        "file": v.file,
        "extends": v.extends,
        "rulebook": dict(v.rulebook) if v.rulebook else None,
        "rules": [
            {
                "rule": k.path,
                "value": k.value,
                "text": k.text,
                "source": k.source,
                "quote": k.quote,
                "interpretation": None
                if k.interpretation is None
                else {
                    "chosen": k.interpretation.chosen,
                    "alternative": k.interpretation.alternative,
                    "reason": k.interpretation.reason,
                },
            }
            for k in v.knobs
        ],
        "fixed_rules": [{"rule": rid, "text": text} for rid, text in core_rules().items()],
    }


def _cmd_show(args: argparse.Namespace) -> int:
    v = load_variant(args.variant)
    if args.json:
        print(json_text(_show_json(v)))
        return 0
    print(printable(f"{tr(v.name)} ({v.id})"))
    if v.description:
        print(textwrap.fill(printable(tr(v.description)), width=_width()))
    if v.rulebook and v.rulebook.get("title"):
        print(_wrap(tr("Rulebook:"), ptr("source", v.rulebook["title"]), 10))
    print()
    rows = []
    for k in v.knobs:  # the statement, then one line: the section and the original words
        where = cite(k.path, v).where()
        statement = (tr(k.text) if k.text else tr("(set without a statement)")) + (
            " " + tr("[interpretation]") if k.interpretation else ""
        )
        rows.append((k.path, format_value(k.value), statement + (f"\n{where}" if where else "")))
    print(_wrapped_table([tr("rule"), tr("value"), tr("statement")], rows))
    if not args.brief:
        print("\n" + tr("Rules every edition shares:"))
        shared = [(rid, tr(text)) for rid, text in core_rules().items()]
        print(_wrapped_table([tr("rule"), tr("statement")], shared))
    interps = v.interpretations()
    if interps and args.interpretations:
        print("\n" + tr("Interpretations (where the rulebook is silent or ambiguous):"))
        for k in interps:
            assert k.interpretation is not None
            print(f"\n{k.path}")
            for label, text in (
                (tr("chosen:"), k.interpretation.chosen),
                (tr("alternative:"), k.interpretation.alternative),
                (tr("reason:"), k.interpretation.reason),
            ):
                print(_wrap("  " + label, tr(text), 16))
    elif interps:
        print(
            "\n"
            + ntr(
                "{n} rule records an interpretation; add --interpretations to read it.",
                "{n} rules record an interpretation; add --interpretations to read them.",
                len(interps),
            )
        )
    return 0


# --- validate -------------------------------------------------------------------------------


def _problem(exc: VariantError) -> dict[str, Any]:
    return {
        "error": printable(" ".join(str(exc).split())),
        "error_file": exc.file,
        "line": exc.line,
        "key_path": exc.key_path or None,
        "message": exc.message,
    }


def _validate_one(path: str) -> dict[str, Any]:
    try:
        problems = variant_problems(path)
    except (ValueError, OSError) as exc:  # every file gets its entry, even an unreadable one
        problems = [VariantError(" ".join(str(exc).split()), file=path)]
    if problems:
        # The first problem's fields stay at the top level; "problems" lists them all.
        return {
            "file": path,
            "ok": False,
            **_problem(problems[0]),
            "problems": [_problem(p) for p in problems],
        }
    v = load_variant(path)
    return {"file": path, "ok": True, "id": v.id, "name": v.name, "extends": v.extends}


def _cmd_validate(args: argparse.Namespace) -> int:
    results = [_validate_one(p) for p in args.files]
    if args.json:
        print(json_text(results))
    else:
        for r in results:
            if r["ok"]:
                base = tr(", extends {base}", base=r["extends"]) if r["extends"] else ""
                name = tr(r["name"])
                print(printable(f"{r['file']}: OK ({r['id']}: {name}{base})"))
            else:
                for problem in r["problems"]:
                    print(problem["error"])
    # An invalid variant file is bad input (exit 2), like broken YAML anywhere else.
    return 0 if all(r["ok"] for r in results) else 2


# --- compare --------------------------------------------------------------------------------


def _witness_lines(w: Witness) -> list[str]:
    """The witness as the ``compare`` command prints it, its texts in the context's language."""
    note = "" if w.note is None else w.note.text()
    status = tr("confirmed in both engines") if w.confirmed else tr("not confirmed")
    if w.together:
        status += ", " + tr("together with {rules}", rules=", ".join(w.together))
    if w.kind == "none":
        proved = tr("no difference in play, proved")
        what = proved if w.proved else tr("no difference found in play")
        return [f"{w.rule}  [{what}]", _wrap("  ", note, 2)]
    lines = [f"{w.rule}  [{tr(w.kind)}, {status}]"]
    assert w.start is not None
    lines.append(_wrap("  " + tr("position:"), w.start.describe(), 12))
    if w.actions:
        moves = ", ".join(describe_steps(w.actions))
        lines.append(_wrap("  " + tr("moves:"), moves, 12))
    if w.action is not None:
        lines.append(_wrap("  " + tr("then:"), describe_step(w.action), 12))
    width = max(len(vid) for vid in w.outcomes) + 4
    for vid, text in w.outcomes.items():
        lines.append(_wrap(f"  {vid}:", text.text(), max(12, width)))
    if note:
        lines.append(_wrap("  " + tr("note:"), note, 12))
    return lines


def _tally(ws: Sequence[Witness]) -> str:
    """How the differing rules came out: confirmed, proved alike, neither."""
    confirmed = sum(w.confirmed for w in ws)
    proved = sum(w.proved for w in ws)
    rest = len(ws) - confirmed - proved
    text = ntr(
        "{n} differing rule: {confirmed} confirmed by a witness, {proved} proved to make no "
        "difference in play",
        "{n} differing rules: {confirmed} confirmed by a witness, {proved} proved to make no "
        "difference in play",
        len(ws),
        confirmed=confirmed,
        proved=proved,
    )
    return text + (tr(", {rest} neither", rest=rest) if rest else "")


def _cmd_compare(args: argparse.Namespace) -> int:
    if len(args.variants) < 2:
        raise ValueError(tr("compare needs at least two variants (e.g. compare italian spanish)"))
    check_count("--max-dice", args.max_dice, 1, MAX_WITNESS_DICE)
    variants = [load_variant(r) for r in args.variants]
    ids = [v.id for v in variants]
    if len(set(ids)) < len(ids):
        raise ValueError(
            tr("two variants share the id {ids}; give each file its own id", ids=repr(ids))
        )
    rows = diff_variants(variants, include_all=args.all)
    pairs = list(itertools.combinations(variants, 2))
    witnesses: list[tuple[Variant, Variant, list[Witness]]] = []
    if not args.no_witnesses:
        say = progress_printer("compare")
        witnesses = [
            (a, b, find_witnesses(a, b, max_dice=args.max_dice, progress=say)) for a, b in pairs
        ]
    if args.json:
        data = {
            "variants": ids,
            "rules": rows,
            "differ": sum(1 for r in rows if r["differs"]),
            "agree": len(variants[0].knobs) - sum(1 for r in rows if r["differs"]),
            "witnesses": [
                {"variants": [a.id, b.id], "witnesses": [w.to_dict() for w in ws]}
                for a, b, ws in witnesses
            ],
        }
        print(json_text(data))
        return 0
    differ = sum(1 for r in rows if r["differs"])
    agree = len(variants[0].knobs) - differ
    header = [tr("rule"), *ids]
    body = [
        [
            r["rule"] + ("" if r["differs"] else " " + tr("(same)")),
            *[format_value(r["values"][i]) for i in ids],
        ]
        for r in rows
    ]
    if rows:
        print(format_table(header, body))
        print()
    print(
        ntr("{n} rule differs", "{n} rules differ", differ)
        + ", "
        + ntr("{n} agrees.", "{n} agree.", agree)
    )
    if rows:
        print("\n" + tr("What each edition says:"))
        indent = max(len(i) for i in ids) + 4
        for r in rows:
            print(f"\n{r['rule']}")
            texts = r["statements"]
            if not r["differs"] and len(set(texts.values())) == 1:
                print(_wrap("  " + tr("all:"), texts[ids[0]], indent))
                continue
            for i in ids:
                print(_wrap(f"  {i}:", f"({format_value(r['values'][i])}) {texts[i]}", indent))
    for a, b, ws in witnesses:
        if not ws:
            continue
        print()
        heading = tr("Divergence witnesses, {a} vs {b} (replayed in both engines):", a=a.id, b=b.id)
        print(printable(heading))
        print(_tally(ws) + ".")
        for w in ws:
            print()
            print("\n".join(_witness_lines(w)))
    return 0


# --- registration ---------------------------------------------------------------------------


def register(subparsers: Any) -> None:
    """Add the variant commands to the command line."""
    p = subparsers.add_parser(
        "list",
        help=tr("list the bundled variants"),
        description=tr("List the bundled editions: id, name, players, dice, interpretations."),
    )
    p.add_argument("--json", action="store_true", help=tr("print JSON"))
    p.set_defaults(handler=_cmd_list)

    p = subparsers.add_parser(
        "show",
        help=tr("every rule of a variant, with ids"),
        description=(
            tr(
                "Every rule of a variant with its id, value and statement, then the fixed "
                "rules every edition shares. Exit 2 if the variant cannot be loaded."
            )
        ),
    )
    p.add_argument("variant", help=tr("a bundled id (see 'list') or a path to a .yaml file"))
    p.add_argument(
        "--json", action="store_true", help=tr("print JSON (sources and quotes included)")
    )
    p.add_argument(
        "--interpretations", action="store_true", help=tr("also print every interpretation in full")
    )
    p.add_argument("--brief", action="store_true", help=tr("leave out the fixed shared rules"))
    p.set_defaults(handler=_cmd_show)

    p = subparsers.add_parser(
        "validate",
        help=tr("check house-rules files"),
        description=(
            tr(
                "Load each variant file as the engine would. Prints 'FILE: OK', or every "
                "problem of the file, one line each: FILE:LINE: key.path: message. Exit 0 if "
                "every file is valid, 2 if any is not (bad input, as everywhere in this CLI)."
            )
        ),
    )
    p.add_argument("files", nargs="+", metavar="FILE.yaml", help=tr("variant files to check"))
    p.add_argument("--json", action="store_true", help=tr("print JSON"))
    p.set_defaults(handler=_cmd_validate)

    p = subparsers.add_parser(
        "compare",
        help=tr("the rule-by-rule difference of variants, with divergence witnesses"),
        description=(
            tr(
                "The rules where the variants differ (all rules with --all), what each edition "
                "says, and for each differing rule a divergence witness: a smallest situation "
                "where the engines disagree because of it, found by search (every seat count "
                "both editions allow, up to 8) and replayed in both variants, or the reason it "
                "makes no difference in play. Progress goes to standard error after 2 seconds."
            )
        ),
    )
    p.add_argument(
        "variants", nargs="+", metavar="VARIANT", help=tr("two or more bundled ids or .yaml paths")
    )
    p.add_argument("--all", action="store_true", help=tr("show agreeing rules too"))
    p.add_argument("--json", action="store_true", help=tr("print JSON"))
    p.add_argument("--no-witnesses", action="store_true", help=tr("skip the witness search"))
    p.add_argument(
        "--max-dice",
        type=int,
        default=3,
        metavar="N",
        help=tr(
            "most dice per seat in searched positions (default 3, at most {n})",
            n=MAX_WITNESS_DICE,
        ),
    )
    p.set_defaults(handler=_cmd_compare)
