"""The text of the core rules: the fixed rules every edition shares, with their ids.

Their text lives in ``spec/core-rules.yaml``; knob rules (ids equal to knob
paths) live in the variant files. :func:`rule_text` answers for both kinds.
This module is prose for people and error messages; the knob *values* of one edition,
typed for the engine, are :class:`perudo_rules.ruleset.Ruleset` (a different thing).
"""

from __future__ import annotations

import functools
from typing import Any

from perudo_rules._yaml import load_yaml_file
from perudo_rules.errors import VariantError
from perudo_rules.i18n import tr
from perudo_rules.variant import Variant, data_dir

__all__ = ["core_rule_details", "core_rules", "rule_text"]


def _fold(value: Any) -> Any:
    return " ".join(value.split()) if isinstance(value, str) else value


@functools.cache
def core_rule_details() -> tuple[dict[str, Any], ...]:
    """Every fixed rule as ``{"id", "text", "interpretation"}`` (interpretation: a dict
    with ``chosen``, ``alternative`` and ``reason``, or ``None``), in spec order."""
    doc = load_yaml_file(data_dir("spec") / "core-rules.yaml", VariantError)
    out = []
    for r in doc.data["rules"]:
        interp = r.get("interpretation")
        out.append(
            {
                "id": r["id"],
                "text": " ".join(str(r["text"]).split()),
                "interpretation": None
                if interp is None
                else {k: _fold(v) for k, v in interp.items()},
            }
        )
    return tuple(out)


def core_rules() -> dict[str, str]:
    """Fixed rule id to its one-line statement, in spec order."""
    return {r["id"]: r["text"] for r in core_rule_details()}


def rule_text(rule_id: str, variant: Variant | None = None, lang: str | None = None) -> str:
    """The statement of a rule: a fixed rule, or a knob rule of ``variant``, in ``lang``
    (default: the language of the context, :func:`perudo_rules.i18n.use_language`; a
    house rule's own text that no catalogue knows stays as written)."""
    fixed = core_rules()
    if rule_id in fixed:
        return tr(fixed[rule_id], lang)
    if variant is not None:
        knob = variant.knob(rule_id)
        return tr(knob.text, lang) if knob.text else f"{rule_id} = {knob.value!r}"
    raise KeyError(rule_id)
