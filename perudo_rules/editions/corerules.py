"""The text of the core rules: the fixed rules every edition shares, with their ids.

Their text lives in ``spec/core-rules.yaml``; knob rules (ids equal to knob
paths) live in the variant files. :func:`rule_text` answers for both kinds.
This module is prose for people and error messages; the knob *values* of one edition,
typed for the engine, are :class:`perudo_rules.editions.ruleset.Ruleset` (a different thing).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from perudo_rules.base.errors import VariantError
from perudo_rules.base.i18n import ptr, tr
from perudo_rules.base.yamlfile import load_yaml_file
from perudo_rules.editions.datafiles import data_dir
from perudo_rules.editions.variant import Variant

__all__ = ["Citation", "cite", "core_rule_details", "core_rules", "rule_text"]


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
    (default: the language of the context, :func:`perudo_rules.base.i18n.use_language`; a
    house rule's own text that no catalogue knows stays as written)."""
    fixed = core_rules()
    if rule_id in fixed:
        return tr(fixed[rule_id], lang)
    if variant is not None:
        knob = variant.knob(rule_id)
        return tr(knob.text, lang) if knob.text else f"{rule_id} = {knob.value!r}"
    raise KeyError(rule_id)


@dataclass(frozen=True, slots=True)
class Citation:
    """Where a rule of an edition is written, for a verdict that names it.

    ``statement`` is the rule in our words; ``source`` the rulebook section it cites and
    ``quote`` the rulebook's own words (in the rulebook's ``language``), where the
    edition has them; ``rulebook`` the rulebook's title; ``set_in`` the ``file:line`` of a
    house-rules value set without a source; ``interpreted`` whether the edition records
    an interpretation of it. A fixed rule every edition shares (``shared``) keeps the
    core rule's statement and cites the section and words where the edition's rulebook
    states it (the variant file's ``core`` mapping), or no section where it names none.
    """

    rule: str
    statement: str
    source: str | None = None
    quote: str | None = None
    rulebook: str | None = None
    language: str | None = None
    set_in: str | None = None
    shared: bool = False
    interpreted: bool = False

    def where(self, lang: str | None = None) -> str:
        """The section and the original words, one line: ``§ Pujar por Paco: «No pujar
        durante la primera ronda»`` (``""`` when the edition cites nothing). The section in
        ``lang`` where its name needs words of ours (default: the context's language); the
        rulebook's words as printed."""
        if self.source:
            source = ptr("source", self.source, lang)
            return f"§ {source}" + (f": «{self.quote}»" if self.quote else "")
        if self.quote:
            return f"«{self.quote}»"
        return tr("set in {file}", lang, file=self.set_in) if self.set_in else ""

    def line(self, lang: str | None = None) -> str:
        """``rule: statement [§ section: «quote»]``, one line, the statement in ``lang``
        (default: the context's language, :func:`perudo_rules.base.i18n.use_language`)."""
        cited = self.where(lang)
        return f"{self.rule}: {tr(self.statement, lang)}" + (f" [{cited}]" if cited else "")

    def to_json(self) -> dict[str, Any]:
        """Every field, JSON-ready."""
        return {
            "rule": self.rule,
            "statement": self.statement,
            "source": self.source,
            "quote": self.quote,
            "rulebook": self.rulebook,
            "language": self.language,
            "set_in": self.set_in,
            "shared": self.shared,
            "interpreted": self.interpreted,
        }


def _folded(text: str | None) -> str | None:
    return " ".join(text.split()) if text else None


def cite(rule_id: str, variant: Variant) -> Citation:
    """The :class:`Citation` of ``rule_id`` in ``variant``: a knob's statement, rulebook
    section and quote, or a fixed rule's statement with the section and words where the
    edition's rulebook states it (the variant file's ``core`` entry; none without one).
    ``KeyError`` for an unknown id."""
    fixed = core_rules()
    book = variant.rulebook or {}
    rulebook = _folded(book.get("title"))
    if rule_id in fixed:
        stated = variant.core.get(rule_id)
        if stated is None:
            return Citation(rule_id, fixed[rule_id], shared=True)
        return Citation(
            rule=rule_id,
            statement=fixed[rule_id],
            source=_folded(stated.source),
            quote=_folded(stated.quote),
            rulebook=rulebook,
            language=book.get("language"),
            shared=True,
        )
    knob = variant.knob(rule_id)
    set_in = None
    if knob.source is None and knob.file is not None:
        set_in = Path(knob.file).name + (f":{knob.line}" if knob.line else "")
    return Citation(
        rule=rule_id,
        statement=" ".join(knob.text.split()) if knob.text else f"{rule_id} = {knob.value!r}",
        source=_folded(knob.source),
        quote=_folded(knob.quote),
        rulebook=rulebook,
        language=book.get("language"),
        set_in=set_in,
        interpreted=knob.interpretation is not None,
    )
