"""Fixed rules: the ones every edition shares, with their ids.

Their text lives in ``spec/core-rules.yaml``; knob rules (ids equal to knob
paths) live in the variant files. :func:`rule_text` answers for both kinds.
"""

from __future__ import annotations

import functools

from perudo_rules._yaml import load_yaml_file
from perudo_rules.errors import VariantError
from perudo_rules.variant import Variant, data_dir

__all__ = ["core_rules", "rule_text"]


@functools.cache
def core_rules() -> dict[str, str]:
    """Fixed rule id to its one-line statement, in spec order."""
    doc = load_yaml_file(data_dir("spec") / "core-rules.yaml", VariantError)
    return {r["id"]: " ".join(str(r["text"]).split()) for r in doc.data["rules"]}


def rule_text(rule_id: str, variant: Variant | None = None) -> str:
    """The statement of a rule: a fixed rule, or a knob rule of ``variant``."""
    fixed = core_rules()
    if rule_id in fixed:
        return fixed[rule_id]
    if variant is not None:
        knob = variant.knob(rule_id)
        return knob.text or f"{rule_id} = {knob.value!r}"
    raise KeyError(rule_id)
