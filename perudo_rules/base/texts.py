"""Texts as data: a sentence kept as its English template and the values it is made of,
said in a language only when it is shown.

A :class:`Text` is to any sentence what a :class:`~perudo_rules.base.messages.Refusal` is
to a refusal: a value that a search may compute once, store (:func:`text_json`,
:func:`text_from_json`) and show later in English, Italian or Spanish. Its ``kind`` says
how it is said:

* ``"tr"``: ``template`` is an English message of the gettext catalogues, said as
  :func:`~perudo_rules.base.i18n.tr` says it (made by :func:`tx`);
* ``"ntr"``: ``template`` and ``plural`` are the two English forms of a message that
  follows the count ``count``, said as :func:`~perudo_rules.base.i18n.ntr` (made by
  :func:`ntx`);
* ``"message"``: ``template`` is a message id of :data:`~perudo_rules.base.messages.ENGLISH`,
  said by :func:`~perudo_rules.base.messages.format_message` (made from a refusal by
  :func:`refusal_text`);
* ``"plain"``: ``template`` is a ``str.format`` string that is not translated (its
  literal parts, braces doubled, are data or punctuation), filled with its parameters: how
  texts are joined and put side by side (:func:`plain`, :func:`concat`, :func:`joined`).

``params`` are ``(name, value)`` pairs; a value is an integer, a short text that is data
(a rule id, a bid in the notation, a variant id) or a :class:`Text` itself, said in the same
language first. ``tx`` and ``ntx`` are marked for the catalogues like ``tr`` and ``ntr``
(``tools/catalogs.py`` extracts their English templates).

>>> t = tx("{who} loses a die", who=tx("seat {n}", n=1))
>>> t.text("en")
'seat 1 loses a die'
>>> text_from_json(text_json(t)) == t
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from perudo_rules.base.i18n import language, ntr, tr
from perudo_rules.base.messages import Refusal, format_message

__all__ = [
    "KINDS",
    "Arg",
    "Text",
    "concat",
    "joined",
    "ntx",
    "plain",
    "refusal_text",
    "say",
    "text_from_json",
    "text_json",
    "tx",
]

#: How a :class:`Text` is said (see the module's docstring).
KINDS: tuple[str, ...] = ("tr", "ntr", "message", "plain")


@dataclass(frozen=True, slots=True)
class Text:
    """A sentence as data: ``kind`` (one of :data:`KINDS`), its English ``template`` (or
    message id), its parameters ``params`` (``(name, value)`` pairs, in order) and, for
    ``"ntr"``, the ``plural`` form and the ``count`` that chooses between the two.
    Compared by value; :meth:`text` (and ``str()``) says it."""

    template: str
    params: tuple[tuple[str, Arg], ...] = ()
    kind: str = "tr"
    plural: str | None = None
    count: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown kind of text {self.kind!r} (kinds: {', '.join(KINDS)})")
        if (self.kind == "ntr") != (self.plural is not None and self.count is not None):
            raise ValueError("a text of kind 'ntr', and only one, has a plural and a count")

    def text(self, lang: str | None = None) -> str:
        """The sentence in ``lang`` (default: the language of the context,
        :func:`perudo_rules.base.i18n.use_language`)."""
        lang = lang or language()
        params = {name: say(value, lang) for name, value in self.params}
        if self.kind == "tr":
            return tr(self.template, lang, **params)
        if self.kind == "ntr":
            assert self.plural is not None and self.count is not None
            return ntr(self.template, self.plural, self.count, lang, **params)
        if self.kind == "message":
            return format_message(self.template, params, lang)
        return self.template.format(**params)  # plain: a format string, braces doubled

    def __str__(self) -> str:
        return self.text()


Arg = int | str | Text
"""A parameter of a :class:`Text`: an integer, a short text that is data, or a text."""


def say(value: Arg, lang: str | None = None) -> Any:
    """``value`` as a template's parameter in ``lang``: a :class:`Text` said, anything else
    as it is (an integer stays an integer, for the template's format spec)."""
    return value.text(lang) if isinstance(value, Text) else value


def _arg(value: object) -> Arg:
    """A parameter as a template would show it: an integer, a text or a :class:`Text` as
    it is, anything else (a bid, a list of dice) as its ``str``."""
    return value if isinstance(value, int | str | Text) else str(value)


def _params(params: Mapping[str, object]) -> tuple[tuple[str, Arg], ...]:
    return tuple((name, _arg(value)) for name, value in params.items())


def tx(message: str, /, **params: object) -> Text:
    """``tr(message, **params)`` kept as data: said in the reader's language later."""
    return Text(message, _params(params))


def ntx(singular: str, plural: str, n: int, /, **params: object) -> Text:
    """``ntr(singular, plural, n, **params)`` kept as data."""
    return Text(singular, _params(params), "ntr", plural, n)


def refusal_text(refusal: Refusal) -> Text:
    """A refusal's sentence (``refusal.text()``) kept as data."""
    return Text(refusal.message_id, _params(refusal.params), "message")


def _escaped(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}")


def concat(*parts: object) -> Text:
    """The parts side by side, each said in the reader's language (a ``str`` as it is)."""
    template: list[str] = []
    params: list[tuple[str, Arg]] = []
    for part in parts:
        if isinstance(part, str):
            template.append(_escaped(part))
        else:
            name = f"p{len(params)}"
            template.append("{" + name + "}")
            params.append((name, _arg(part)))
    return Text("".join(template), tuple(params), "plain")


def joined(sep: str | Text, parts: Sequence[object]) -> Text:
    """``sep.join(parts)``, each part and the separator said in the reader's language."""
    pieces: list[object] = []
    for i, part in enumerate(parts):
        if i:
            pieces.append(sep)
        pieces.append(part)
    return concat(*pieces)


def plain(text: str) -> Text:
    """A text that is said the same way in every language (data, or an English note that
    has no translation)."""
    return concat(text)


# --- JSON ------------------------------------------------------------------------------------


def text_json(value: Arg) -> Any:
    """``value`` JSON-ready: an integer or a ``str`` as it is, a :class:`Text` as
    ``{"tr": template}``, ``{"ntr": [singular, plural], "n": count}``,
    ``{"message": id}`` or ``{"plain": template}``, with ``"params"`` when it has any."""
    if not isinstance(value, Text):
        return value
    out: dict[str, Any]
    if value.kind == "ntr":
        out = {"ntr": [value.template, value.plural], "n": value.count}
    else:
        out = {value.kind: value.template}
    if value.params:
        out["params"] = {name: text_json(arg) for name, arg in value.params}
    return out


def text_from_json(data: Any) -> Arg:
    """The value :func:`text_json` made (``ValueError`` for any other shape)."""
    if isinstance(data, int | str):
        return data
    if not isinstance(data, Mapping):
        raise ValueError(f"not a text: {str(data)[:60]}")
    kinds = [k for k in KINDS if k in data]
    extra = set(data) - {*KINDS, "params", "n"}
    if len(kinds) != 1 or extra:
        raise ValueError(f"not a text: {sorted(data)}")
    params = data.get("params", {})
    if not isinstance(params, Mapping):
        raise ValueError("the params of a text are an object")
    args = tuple((str(name), text_from_json(arg)) for name, arg in params.items())
    (kind,) = kinds
    if kind == "ntr":
        forms, n = data["ntr"], data.get("n")
        if not (isinstance(forms, list) and len(forms) == 2 and type(n) is int):
            raise ValueError("an 'ntr' text has two forms and a count 'n'")
        return Text(str(forms[0]), args, "ntr", str(forms[1]), n)
    if not isinstance(data[kind], str):
        raise ValueError(f"the template of a text is a string, not {str(data[kind])[:60]}")
    return Text(data[kind], args, kind)
