"""The ``export-scenarios`` command: every conformance scenario as one JSON document."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

import jsonschema

from perudo_rules.base.i18n import ntr, tr
from perudo_rules.base.output import Outputs, write_text
from perudo_rules.base.safetext import display_path
from perudo_rules.base.schematext import schema_problem
from perudo_rules.conform.scenarios import (
    ScenarioError,
    default_paths,
    export_document,
    load_scenarios,
    scenario_schema,
)

__all__ = ["register"]


def _cmd_export(args: argparse.Namespace) -> int:
    inputs = args.files or default_paths()
    if args.out == "-" and args.schema == "-":
        raise ValueError(tr("the document and --schema cannot both go to standard output"))
    # every output is checked before the work: writable, and neither an input nor the other
    outputs = Outputs(inputs)
    targets = [(args.out, "OUT"), (args.schema, "--schema")]
    for name, what in targets:
        if name is not None and name != "-":
            outputs.add(name, what)
    scenarios = load_scenarios(args.files or None)
    doc = export_document(scenarios)
    try:
        jsonschema.validate(doc, scenario_schema())
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path)
        raise ScenarioError(
            tr(
                "the exported document does not validate at {where}: {problem}",
                where=where,
                problem=schema_problem(exc),
            )
        ) from None
    texts = {
        "OUT": json.dumps(doc, indent=2, ensure_ascii=False) + "\n",
        "--schema": json.dumps(scenario_schema(), indent=2) + "\n",
    }
    for name, what in targets:
        if name == "-":
            sys.stdout.write(texts[what])
        elif name is not None:
            write_text(name, texts[what])
    if args.out != "-":
        count = len(doc["scenarios"])
        print(
            ntr(
                "wrote {n} scenario to {file}",
                "wrote {n} scenarios to {file}",
                count,
                file=display_path(args.out),
            ),
            file=sys.stderr,
        )
    if args.schema not in (None, "-"):
        print(tr("wrote the schema to {file}", file=display_path(args.schema)), file=sys.stderr)
    return 0


def register(subparsers: Any) -> None:
    """Add ``export-scenarios`` to the command line."""
    p = subparsers.add_parser(
        "export-scenarios",
        help=tr("write every conformance scenario as one JSON document"),
        description=(
            tr(
                "Write the scenarios of spec/scenarios/ (or FILE...) as one JSON document that "
                "validates against spec/scenario.schema.json, with the knob values of each "
                "variant they use, so other implementations can test themselves. Output files "
                "are checked before the work and written whole or not at all; neither may be "
                "an input or the other output."
            )
        ),
    )
    p.add_argument("out", metavar="OUT.json", help=tr("output file ('-' for standard output)"))
    p.add_argument(
        "files", nargs="*", metavar="FILE.yaml", help=tr("scenario files (default: all)")
    )
    p.add_argument(
        "--schema", metavar="SCHEMA.json", help=tr("also write the JSON Schema here ('-': stdout)")
    )
    p.set_defaults(handler=_cmd_export)
