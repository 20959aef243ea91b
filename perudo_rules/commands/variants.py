"""Commands about variant files: ``list``, ``show``, ``validate``, ``compare``."""

from __future__ import annotations

import argparse
import json
from typing import Any

from perudo_rules.table import format_table
from perudo_rules.variant import Variant, available_variants, load_variant

__all__ = ["diff_variants", "register"]


def _value(v: Any) -> str:
    return "null" if v is None else json.dumps(v) if not isinstance(v, str) else v


def diff_variants(variants: list[Variant], include_all: bool = False) -> list[dict[str, Any]]:
    """Rule-by-rule comparison: one dict per knob (only differing knobs unless ``include_all``)."""
    rows = []
    for knob in variants[0].knobs:
        values = [v[knob.path] for v in variants]
        differs = any(x != values[0] for x in values[1:])
        if differs or include_all:
            rows.append(
                {
                    "rule": knob.path,
                    "differs": differs,
                    "values": {v.id: v[knob.path] for v in variants},
                }
            )
    return rows


def _cmd_list(args: argparse.Namespace) -> int:
    rows = [(vid, load_variant(vid).name) for vid in available_variants()]
    if args.json:
        print(json.dumps([{"id": i, "name": n} for i, n in rows], indent=2))
    else:
        print(format_table(["id", "name"], rows))
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    v = load_variant(args.variant)
    if args.json:
        print(
            json.dumps(
                {
                    "id": v.id,
                    "name": v.name,
                    "rules": [
                        {
                            "rule": k.path,
                            "value": k.value,
                            "text": k.text,
                            "source": k.source,
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
                },
                indent=2,
                ensure_ascii=False,
            )
        )
        return 0
    print(f"{v.name} ({v.id})")
    rows = [
        (
            k.path,
            _value(k.value),
            (k.text or "(set by override)") + (" [interpretation]" if k.interpretation else ""),
        )
        for k in v.knobs
    ]
    print(format_table(["rule", "value", "statement"], rows))
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    for path in args.files:
        v = load_variant(path)
        print(f"{path}: OK ({v.id}: {v.name})")
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    variants = [load_variant(r) for r in args.variants]
    rows = diff_variants(variants, include_all=args.all)
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    header = ["rule", *[v.id for v in variants]]
    body = [[r["rule"], *[_value(r["values"][v.id]) for v in variants]] for r in rows]
    print(format_table(header, body))
    same = len(variants[0].knobs) - sum(1 for r in rows if r["differs"])
    print(f"\n{sum(1 for r in rows if r['differs'])} rules differ, {same} agree.")
    return 0


def register(subparsers: Any) -> None:
    """Add the variant commands to the command line."""
    p = subparsers.add_parser("list", help="list the bundled variants")
    p.add_argument("--json", action="store_true", help="output JSON")
    p.set_defaults(handler=_cmd_list)

    p = subparsers.add_parser("show", help="every rule of a variant, with ids")
    p.add_argument("variant", help="a bundled id or a path to a .yaml file")
    p.add_argument("--json", action="store_true", help="output JSON")
    p.set_defaults(handler=_cmd_show)

    p = subparsers.add_parser("validate", help="check house-rules files")
    p.add_argument("files", nargs="+", metavar="FILE.yaml")
    p.set_defaults(handler=_cmd_validate)

    p = subparsers.add_parser("compare", help="the rule-by-rule difference of variants")
    p.add_argument("variants", nargs="+", metavar="VARIANT")
    p.add_argument("--all", action="store_true", help="show agreeing rules too")
    p.add_argument("--json", action="store_true", help="output JSON")
    p.set_defaults(handler=_cmd_compare)
