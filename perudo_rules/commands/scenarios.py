"""The ``export-scenarios`` command: every conformance scenario as one JSON document."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import jsonschema

from perudo_rules.scenarios import export_document, load_scenarios, scenario_schema

__all__ = ["register"]


def _cmd_export(args: argparse.Namespace) -> int:
    scenarios = load_scenarios(args.files or None)
    doc = export_document(scenarios)
    jsonschema.validate(doc, scenario_schema())
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if args.out == "-":
        sys.stdout.write(text)
    else:
        out = Path(args.out)
        out.write_text(text, encoding="utf-8")
        if args.schema:
            Path(args.schema).write_text(
                json.dumps(scenario_schema(), indent=2) + "\n", encoding="utf-8"
            )
        print(f"wrote {len(doc['scenarios'])} scenarios to {out}", file=sys.stderr)
    return 0


def register(subparsers: Any) -> None:
    """Add ``export-scenarios`` to the command line."""
    p = subparsers.add_parser(
        "export-scenarios",
        help="write every conformance scenario as one JSON document",
        description=(
            "Write the scenarios of spec/scenarios/ (or FILE...) as one JSON document that "
            "validates against spec/scenario.schema.json, with the knob values of each "
            "variant they use, so other implementations can test themselves."
        ),
    )
    p.add_argument("out", metavar="OUT.json", help="output file ('-' for standard output)")
    p.add_argument("files", nargs="*", metavar="FILE.yaml", help="scenario files (default: all)")
    p.add_argument("--schema", metavar="SCHEMA.json", help="also write the JSON Schema here")
    p.set_defaults(handler=_cmd_export)
