"""Variants: the rules of one edition as a value.

A :class:`Variant` is an edition's metadata and one :class:`Knob` per rule (see
:mod:`perudo_rules.editions.knobs`): its value, the statement of the rule, the rulebook
section it cites and, where the rulebook is silent or ambiguous, the :class:`Interpretation`
we chose. ``v.rules`` is the typed :class:`~perudo_rules.editions.ruleset.Ruleset` the
engine runs on. A variant is read from its file by
:func:`~perudo_rules.editions.variantfile.load_variant`; :func:`format_value` and
:func:`differing_knobs` show and compare knob values.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from perudo_rules.editions.ruleset import Ruleset

__all__ = [
    "Interpretation",
    "Knob",
    "RuleSource",
    "Variant",
    "differing_knobs",
    "format_value",
]


@dataclass(frozen=True, slots=True)
class Interpretation:
    """A reading we chose where the rulebook is silent or ambiguous.

    ``override`` is the knob values (``(path, value)`` pairs) that play the alternative
    reading, so that a table reading the rulebook the other way is one override away;
    where no knob value can, ``inexpressible`` says why.
    """

    chosen: str
    alternative: str
    reason: str
    override: tuple[tuple[str, Any], ...] | None = None
    inexpressible: str | None = None

    @classmethod
    def from_doc(cls, doc: Mapping[str, Any]) -> Interpretation:
        """Build from the mapping a variant file (or ``spec/core-rules.yaml``) holds."""
        override = doc.get("override")
        return cls(
            chosen=doc["chosen"],
            alternative=doc["alternative"],
            reason=doc["reason"],
            override=None if override is None else tuple(override.items()),
            inexpressible=doc.get("inexpressible"),
        )

    @property
    def overrides(self) -> dict[str, Any]:
        """The override as a mapping for ``load_variant(..., overrides=...)`` (``{}`` if none)."""
        return dict(self.override or ())


@dataclass(frozen=True, slots=True)
class Knob:
    """One rule option of a variant: its value and its documentation.

    ``path`` is the rule id. ``text`` states the rule, ``source`` names the
    rulebook section, ``interpretation`` records a reading we chose. A bare
    override in a house-rules file has no text or source; ``file`` and
    ``line`` say where the value was set.
    """

    path: str
    value: Any
    text: str | None = None
    source: str | None = None
    quote: str | None = None
    interpretation: Interpretation | None = None
    file: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)

    @property
    def documented(self) -> bool:
        """True when the knob states its rule and cites its source."""
        return self.text is not None and self.source is not None


@dataclass(frozen=True, slots=True)
class RuleSource:
    """Where an edition's rulebook states a fixed rule (``spec/core-rules.yaml``): an
    entry of a variant file's ``core`` mapping.

    ``source`` is the rulebook section heading, ``quote`` a few of its words where they
    exist; ``file`` and ``line`` say where the entry was written.
    """

    source: str
    quote: str | None = None
    file: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True, eq=False)
class Variant:
    """A complete, validated variant: metadata plus one :class:`Knob` per rule.

    ``v["calza.enabled"]`` gives a knob's value, ``v.knob(path)`` the whole
    knob, ``v.rules`` the typed :class:`Ruleset` the engine runs on. ``core`` maps a fixed
    rule's id to the :class:`RuleSource` where the edition's rulebook states it (only the
    rules it states). Its ``repr`` is the call that loads it again.
    """

    id: str
    name: str
    description: str
    knobs: tuple[Knob, ...]
    file: str | None = None
    extends: str | None = None
    rulebook: Mapping[str, str] | None = None
    ref: str = ""
    overrides: Mapping[str, Any] | None = None
    core: Mapping[str, RuleSource] = field(default_factory=dict)
    rules: Ruleset = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "rules", Ruleset.from_values(self.values()))

    def __repr__(self) -> str:
        ref = self.ref or self.id
        if self.overrides:
            return f"load_variant({ref!r}, overrides={dict(self.overrides)!r})"
        return f"load_variant({ref!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Variant):
            return NotImplemented
        return self.id == other.id and self.knobs == other.knobs

    def __hash__(self) -> int:
        return hash((self.id, self.knobs))

    def __getitem__(self, path: str) -> Any:
        return self.knob(path).value

    def __iter__(self) -> Iterator[Knob]:
        return iter(self.knobs)

    def knob(self, path: str) -> Knob:
        """The knob at ``path`` (a rule id); ``KeyError`` if the path is not a knob."""
        for k in self.knobs:
            if k.path == path:
                return k
        raise KeyError(path)

    def values(self) -> dict[str, Any]:
        """Knob path to value, for every knob."""
        return {k.path: k.value for k in self.knobs}

    def interpretations(self) -> list[Knob]:
        """The knobs that record an interpretation."""
        return [k for k in self.knobs if k.interpretation is not None]


def format_value(value: Any) -> str:
    """A knob value for people, as a variant file writes it.

    >>> [format_value(v) for v in (True, None, 2, "allowed", [1, 2])]
    ['true', 'null', '2', 'allowed', '[1, 2]']
    """
    if value is None:
        return "null"
    if isinstance(value, str):
        return value
    return json.dumps(value)


def differing_knobs(first: Variant, *others: Variant) -> list[str]:
    """The knob paths (rule ids) whose values are not the same in every variant given,
    in knob order.

    >>> differing_knobs(load_variant("italian"), load_variant("italian"))
    []
    """
    return [k.path for k in first.knobs if any(other[k.path] != k.value for other in others)]
