"""A divergence witness as a value: its fields, its words and its two JSON shapes.

A :class:`Witness` (found by :func:`perudo_rules.analysis.witness.find_witnesses`) says no
sentence in any language until it is shown: its ``outcomes`` and its ``note`` are
:class:`~perudo_rules.base.texts.Text` values (an English template and its parameters),
said in the language of the context (:func:`perudo_rules.base.i18n.use_language`) by
:meth:`Witness.describe`, :meth:`Witness.to_dict`, the ``compare`` command and the spec.
So one search serves every language, and its result may be kept: :meth:`Witness.to_data`
is a JSON shape without any sentence (the texts as data), read back by
:meth:`Witness.from_data` into an equal witness; :meth:`Witness.to_dict` is the shape for
people and programs (``compare --json``), with every text said.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from perudo_rules.analysis.divergence import NewGame, Start
from perudo_rules.base.actions import Action
from perudo_rules.base.i18n import tr
from perudo_rules.base.texts import Text, text_from_json, text_json
from perudo_rules.editions.variant import format_value
from perudo_rules.records.describe import describe_step, describe_steps
from perudo_rules.records.position import Position, Roll, Step, format_step, parse_line, parse_step

__all__ = ["Witness"]

#: The keys of :meth:`Witness.to_data`, in order.
_DATA_KEYS = (
    "rule",
    "values",
    "variants",
    "kind",
    "start",
    "action",
    "outcomes",
    "confirmed",
    "note",
    "searched",
    "together",
    "proved",
)


@dataclass(frozen=True, slots=True)
class Witness:
    """A concrete situation where two variants disagree because of one rule.

    ``rule`` is the knob path that differs, ``values`` its value per variant id,
    ``variants`` the two ids. ``kind`` is ``"legality"`` (``action`` is legal in
    one, illegal in the other), ``"resolution"`` (``action``, a Dudo or Calza,
    resolves differently), ``"setup"`` (a new game from ``start.seed`` starts
    differently; ``action`` is ``None``) or ``"none"`` (no difference in play;
    ``note`` says why, and ``proved`` is true when the knob table proves it). ``start``
    (a :class:`~perudo_rules.records.position.Position`, or a
    :class:`~perudo_rules.analysis.divergence.NewGame` for a setup witness) and ``actions``
    (steps before the decisive one, :class:`~perudo_rules.records.position.Roll` between rounds)
    give the position; ``outcomes`` what happens, one text per variant id; ``confirmed``
    is true when the divergence was replayed in both full variants, ``together`` the other
    differing rules that had to be set back with this one to undo it. ``outcomes`` and
    ``note`` are :class:`~perudo_rules.base.texts.Text` values, said when shown
    (``str(w.note)``, ``w.outcomes[id].text("it")``).
    """

    rule: str
    values: Mapping[str, Any]
    variants: tuple[str, str]
    kind: str
    start: Start | None
    actions: tuple[Step, ...]
    action: Action | None
    outcomes: Mapping[str, Text]
    confirmed: bool
    note: Text | None = None
    searched: int = field(default=0, compare=False)
    together: tuple[str, ...] = ()
    proved: bool = False

    def describe(self) -> str:
        """One readable paragraph (its texts in the language of the context)."""
        a, b = self.variants
        vals = tr("{a} has {va}, {b} has {vb}", a=a, va=format_value(self.values[a]), b=b,
                  vb=format_value(self.values[b]))  # fmt: skip
        head = f"{self.rule} ({vals})"
        note = "" if self.note is None else self.note.text()
        if self.kind == "none":
            return f"{head}: {note}"
        assert self.start is not None
        out_a, out_b = self.outcomes[a].text(), self.outcomes[b].text()
        said = {"a": a, "b": b, "out_a": out_a, "out_b": out_b}
        if self.kind == "setup":
            text = tr("{head}: {start}: under {a} {out_a}; under {b} {out_b}.", head=head,
                      start=self.start.describe(), **said)  # fmt: skip
        else:
            assert self.action is not None
            steps = ", ".join(describe_steps(self.actions))
            if self.kind == "legality":
                act = describe_step(self.action, gerund=True)
                sentence = tr("{act} is {out_a} under {a} but {out_b} under {b}.", act=act,
                              **said)  # fmt: skip
                if steps:
                    sentence = tr("After {steps}, {sentence}", steps=steps, sentence=sentence)
            else:
                act = describe_step(self.action)
                sentence = tr("{steps}, then {act}", steps=steps, act=act) if steps else act
                sentence = tr("{sentence}. Under {a}: {out_a}. Under {b}: {out_b}.",
                              sentence=sentence, **said)  # fmt: skip
            text = f"{head}: {self.start.describe()}. {sentence[0].upper()}{sentence[1:]}"
        if not self.confirmed:
            text += " " + tr("(Not confirmed in the full variants: {note})", note=note)
        elif note:
            text += f" ({note[0].upper()}{note[1:]}.)"
        return text

    def _start_json(self) -> dict[str, Any] | None:
        """The start in its JSON shape, with the steps before the decisive one."""
        start: dict[str, Any] | None = None
        if isinstance(self.start, Position):
            start = self.start.to_json(self.actions)
            start.setdefault("actions", [])
        elif self.start is not None:
            start = self.start.to_json()
        return start

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready mapping, its texts said in the language of the context. ``start``
        is the position in its JSON shape with the steps before the decisive one as
        ``actions`` (``"0:3x4"``, ``"roll [[..]]"``), or ``{"players", "seed"}`` for a new
        game; ``action`` is the decisive one."""
        return {
            "rule": self.rule,
            "values": dict(self.values),
            "variants": list(self.variants),
            "kind": self.kind,
            "start": self._start_json(),
            "action": None if self.action is None else format_step(self.action),
            "outcomes": {vid: text.text() for vid, text in self.outcomes.items()},
            "confirmed": self.confirmed,
            "together": list(self.together),
            "proved": self.proved,
            "note": "" if self.note is None else self.note.text(),
            "description": self.describe(),
        }

    def to_data(self) -> dict[str, Any]:
        """A JSON-ready mapping that says no sentence: :meth:`to_dict`'s shape with the
        texts as data (:func:`~perudo_rules.base.texts.text_json`), ``searched`` and no
        ``description``. :meth:`from_data` reads it back."""
        return {
            "rule": self.rule,
            "values": dict(self.values),
            "variants": list(self.variants),
            "kind": self.kind,
            "start": self._start_json(),
            "action": None if self.action is None else format_step(self.action),
            "outcomes": {vid: text_json(text) for vid, text in self.outcomes.items()},
            "confirmed": self.confirmed,
            "note": None if self.note is None else text_json(self.note),
            "searched": self.searched,
            "together": list(self.together),
            "proved": self.proved,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Witness:
        """The witness :meth:`to_data` wrote (``ValueError`` naming what is amiss)."""
        if not isinstance(data, Mapping) or set(data) != set(_DATA_KEYS):
            keys = sorted(data) if isinstance(data, Mapping) else type(data).__name__
            raise ValueError(f"a witness has the keys {', '.join(_DATA_KEYS)}, not {keys}")
        start: Start | None = None
        actions: tuple[Step, ...] = ()
        raw = data["start"]
        if isinstance(raw, Mapping) and set(raw) == {"players", "seed"}:
            start = NewGame(players=int(raw["players"]), seed=int(raw["seed"]))
        elif raw is not None:
            start, actions = parse_line(raw)
        step = None if data["action"] is None else parse_step(str(data["action"]))
        if isinstance(step, Roll):
            raise ValueError("the decisive action of a witness is not a roll")
        outcomes = {str(vid): _text(text) for vid, text in data["outcomes"].items()}
        first, second = data["variants"]
        return cls(
            rule=str(data["rule"]),
            values={str(k): _value(v) for k, v in data["values"].items()},
            variants=(str(first), str(second)),
            kind=str(data["kind"]),
            start=start,
            actions=actions,
            action=step,
            outcomes=outcomes,
            confirmed=bool(data["confirmed"]),
            note=None if data["note"] is None else _text(data["note"]),
            searched=int(data["searched"]),
            together=tuple(str(r) for r in data["together"]),
            proved=bool(data["proved"]),
        )


def _text(data: Any) -> Text:
    """A :class:`~perudo_rules.base.texts.Text` from its JSON shape."""
    text = text_from_json(data)
    if not isinstance(text, Text):
        raise ValueError(f"expected a text, not {str(data)[:60]}")
    return text


def _value(value: Any) -> Any:
    """A knob value as a variant holds it (a JSON list is a tuple there)."""
    return tuple(_value(v) for v in value) if isinstance(value, list) else value
