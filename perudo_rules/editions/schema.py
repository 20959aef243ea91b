"""The JSON Schema of variant files, generated from the knob table.

``spec/variant.schema.json`` is this module's output, checked in so that
editors validate variant files as you type (``# yaml-language-server:
$schema=../spec/variant.schema.json``). A test keeps the file fresh; rewrite it
with ``python -m perudo_rules.editions.schema > spec/variant.schema.json``.
"""

from __future__ import annotations

import json
from typing import Any

from perudo_rules.editions.corerules import core_rules
from perudo_rules.editions.knobs import KNOB_PATHS, KNOBS, SECTIONS

__all__ = ["SCHEMA_ID", "schema_json", "variant_schema"]

SCHEMA_ID = "https://perudo-rules.invalid/spec/variant.schema.json"


_QUOTE = {
    "type": "string",
    "maxLength": 120,
    "description": "A few words of the rulebook, where the exact wording decides.",
}


def _core_citations() -> dict[str, Any]:
    """The optional ``core`` mapping: where the edition's rulebook states a fixed rule."""
    return {
        "type": "object",
        "additionalProperties": False,
        "description": (
            "Where the rulebook states a fixed rule of spec/core-rules.yaml: its rule id to "
            "the section (source) and, where the words exist, a quote. The statement stays "
            "the core rule's. A file with 'extends' replaces the entries it names."
        ),
        "properties": {rule: {"$ref": "#/$defs/citation"} for rule in core_rules()},
    }


def _documented(value_schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "additionalProperties": False,
        "required": ["value", "text", "source"],
        "properties": {
            "value": value_schema,
            "text": {"type": "string", "minLength": 1, "description": "The rule in one line."},
            "source": {
                "type": "string",
                "minLength": 1,
                "description": "The rulebook section heading the rule comes from.",
            },
            "quote": _QUOTE,
            "interpretation": {"$ref": "#/$defs/interpretation"},
        },
    }


def _knob_schema(value_schema: dict[str, Any], description: str) -> dict[str, Any]:
    # A knob is a bare value or a documented mapping {value, text, source, ...}.
    # if/then/else (rather than anyOf) keeps validation errors specific.
    return {
        "description": description,
        "if": {"type": "object"},
        "then": _documented(value_schema),
        "else": value_schema,
    }


def variant_schema() -> dict[str, Any]:
    """Build the JSON Schema (draft 2020-12) that every variant file must satisfy."""
    sections: dict[str, Any] = {}
    required_knobs: dict[str, Any] = {}
    for section in SECTIONS:
        knobs = [k for k in KNOBS if k.section == section]
        sections[section] = {
            "type": "object",
            "additionalProperties": False,
            "properties": {k.name: _knob_schema(k.schema, k.description) for k in knobs},
        }
        required_knobs[section] = {"required": [k.name for k in knobs]}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "perudo-rules variant",
        "description": (
            "One edition or house-rules variant of Perudo. A file without 'extends' must set "
            "every knob; a file with 'extends' overrides only what it names."
        ),
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9_-]*$"},
            "name": {"type": "string", "minLength": 1},
            "description": {"type": "string"},
            "extends": {
                "type": "string",
                "minLength": 1,
                "description": "A bundled variant id, or a path relative to this file.",
            },
            "rulebook": {
                "type": "object",
                "additionalProperties": False,
                "required": ["title"],
                "properties": {
                    "title": {"type": "string"},
                    "file": {"type": "string"},
                    "language": {"type": "string"},
                },
            },
            "core": _core_citations(),
            **sections,
        },
        "if": {"not": {"required": ["extends"]}},
        "then": {
            "required": ["name", *SECTIONS],
            "properties": required_knobs,
        },
        "$defs": {
            "citation": {
                "type": "object",
                "additionalProperties": False,
                "required": ["source"],
                "properties": {
                    "source": {
                        "type": "string",
                        "minLength": 1,
                        "description": "The rulebook section heading that states the rule.",
                    },
                    "quote": _QUOTE,
                },
            },
            "interpretation": {
                "type": "object",
                "additionalProperties": False,
                "required": ["chosen", "alternative", "reason"],
                "properties": {
                    "chosen": {"type": "string", "minLength": 1},
                    "alternative": {"type": "string", "minLength": 1},
                    "reason": {"type": "string", "minLength": 1},
                    "override": {
                        "type": "object",
                        "minProperties": 1,
                        "propertyNames": {"enum": list(KNOB_PATHS)},
                        "description": (
                            "The knob values (path: value) that play the alternative reading."
                        ),
                    },
                    "inexpressible": {
                        "type": "string",
                        "minLength": 1,
                        "description": "Why no knob value plays the alternative reading.",
                    },
                },
            },
        },
    }


def schema_json() -> str:
    """The schema as the exact text of ``spec/variant.schema.json``."""
    return json.dumps(variant_schema(), indent=2, sort_keys=False) + "\n"


if __name__ == "__main__":  # pragma: no cover - exercised through the freshness test
    print(schema_json(), end="")
