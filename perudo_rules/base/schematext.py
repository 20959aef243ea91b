"""JSON Schema problems in words of the catalogues: what a :mod:`jsonschema` error says,
in the language of the context, for the validators our schemas use (an other validator's
own English message is kept)."""

from __future__ import annotations

import json
from typing import Any

from perudo_rules.base.i18n import N_, ntr, tr
from perudo_rules.base.safetext import shortened

__all__ = ["json_kind", "schema_problem"]

#: A JSON Schema type, as a sentence names it.
_TYPES = {
    "object": N_("an object"),
    "array": N_("an array"),
    "string": N_("a string"),
    "integer": N_("an integer"),
    "number": N_("a number"),
    "boolean": N_("true or false"),
    "null": N_("null"),
}


#: The kind of a JSON value, as a sentence names it.
_KINDS = {dict: N_("an object"), list: N_("an array"), str: N_("a string"), bool: N_("a boolean")}


def json_kind(value: Any) -> str:
    """What a JSON value is, in the language of the context: "an object", "a string",
    "the number 3" ("null" for ``None``)."""
    if value is None:
        return "null"
    if type(value) in _KINDS:
        return tr(_KINDS[type(value)])
    if isinstance(value, float):
        return tr("the number {value}", value=repr(value))
    if isinstance(value, int):
        return tr("the number {value}", value=value)
    return type(value).__name__


def _value(value: Any) -> str:
    plain = value is None or isinstance(value, str | int | float | list | dict)
    text = json.dumps(value, ensure_ascii=False, default=str) if plain else repr(value)
    return shortened(text, 60)  # the one cut of echoed text (base.safetext)


def _expected(kinds: Any) -> str:
    names = [kinds] if isinstance(kinds, str) else list(kinds)
    return (" " + tr("or") + " ").join(tr(_TYPES[k]) if k in _TYPES else k for k in names)


def schema_problem(error: Any) -> str:
    """The problem a ``jsonschema.ValidationError`` reports, in the language of the
    context (its own message for a validator this module does not know)."""
    kind, want, value = error.validator, error.validator_value, error.instance
    if kind == "type":
        return tr("{value} is not {kind}", value=_value(value), kind=_expected(want))
    if kind == "required":
        missing = [k for k in want if isinstance(value, dict) and k not in value]
        return tr("missing required key {key}", key=repr(missing[0] if missing else want[0]))
    if kind == "additionalProperties" and isinstance(value, dict):
        allowed = error.schema.get("properties", {})
        extra = [k for k in value if k not in allowed]
        return tr("unknown key {key} (allowed: {keys})", key=repr(extra[0] if extra else "?"),
                  keys=", ".join(allowed))  # fmt: skip
    if kind in ("enum", "const"):
        options = want if kind == "enum" else [want]
        return tr("{value} is not one of {options}", value=_value(value),
                  options=", ".join(_value(o) for o in options))  # fmt: skip
    if kind == "minimum":
        return tr("{value} is less than {least}", value=_value(value), least=want)
    if kind == "maximum":
        return tr("{value} is more than {most}", value=_value(value), most=want)
    if kind == "minItems":
        return ntr("expected at least {n} item", "expected at least {n} items", want)
    if kind == "maxItems":
        return ntr("expected at most {n} item", "expected at most {n} items", want)
    if kind == "minLength":
        if value == "":
            return tr("the text is empty")
        return tr("{value} is too short", value=_value(value))
    if kind == "maxLength":
        return tr("{value} is too long", value=_value(value))
    if kind in ("oneOf", "anyOf"):
        return tr("{value} has none of the forms allowed here", value=_value(value))
    if kind == "pattern":
        return tr("{value} is not in the expected form", value=_value(value))
    return str(error.message)
