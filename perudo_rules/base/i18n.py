"""The languages of perudo-rules: English, Italian and Spanish, from gettext catalogues.

English is the source: every text stays where it is written (the knob table, the variant
files, ``spec/core-rules.yaml``, the scenarios, the command line's strings). Italian and
Spanish come from the gettext catalogues ``perudo_rules/locale/<lang>/LC_MESSAGES/
perudo_rules.po``, keyed by that English text (with a context where one text needs two
keys), compiled to ``.mo`` files that ship in the wheel and are read by the standard
library's :mod:`gettext` (``tools/catalogs.py`` extracts, updates and compiles them with
Babel; a test keeps the ``.mo`` files fresh).

The language is never a process-wide setting: every function takes ``lang``, and
without it uses the language of the current context, which :func:`use_language` sets for
a ``with`` block (a :class:`contextvars.ContextVar`: each thread and each asyncio task
has its own). The default is English.

>>> tr("Only the player to move may doubt the standing bid with Dudo.", "it")
'Solo il giocatore di turno può dubitare della scommessa corrente con Dudo.'
>>> with use_language("es"):
...     tr("{n} of {total} bids illegal.", n=1, total=2)
'Pujas ilegales: 1 de 2.'
"""

from __future__ import annotations

import contextlib
import functools
import gettext as _gettext
import os
import sys
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path

from perudo_rules.base.safetext import shortened

__all__ = [
    "DOMAIN",
    "LANGUAGES",
    "LANGUAGE_NAMES",
    "N_",
    "check_language",
    "fold",
    "language",
    "locale_dir",
    "locale_language",
    "ntr",
    "ptr",
    "template",
    "tr",
    "use_language",
]

#: The languages every message has: English (the source), Italian, Spanish.
LANGUAGES: tuple[str, ...] = ("en", "it", "es")
#: Each language's name, in that language.
LANGUAGE_NAMES: Mapping[str, str] = {"en": "English", "it": "Italiano", "es": "Español"}
#: The gettext domain of the catalogues.
DOMAIN = "perudo_rules"

_current: ContextVar[str] = ContextVar("perudo_rules_language", default="en")


def locale_dir() -> Path:
    """The folder holding ``<lang>/LC_MESSAGES/perudo_rules.mo`` (inside the package)."""
    return Path(__file__).resolve().parents[1] / "locale"


def check_language(lang: str) -> str:
    """``lang`` if it is one of :data:`LANGUAGES`, else ``ValueError`` naming them."""
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    return lang


def language() -> str:
    """The language of the current context (``"en"`` unless :func:`use_language` set one)."""
    return _current.get()


@contextlib.contextmanager
def use_language(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the ``with`` block, in this context only (thread or task)."""
    token = _current.set(check_language(lang))
    try:
        yield lang
    finally:
        _current.reset(token)


def locale_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the POSIX locale asks for: the first of ``LC_ALL``, ``LC_MESSAGES`` and
    ``LANG`` that is set (``it_IT.UTF-8`` is ``"it"``), English if it names none of ours
    (``C``, ``POSIX``, ``fr_FR``)."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            code = value.split(".", 1)[0].split("@", 1)[0].split("_", 1)[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


@functools.cache
def _catalogue(lang: str) -> _gettext.NullTranslations:
    """``lang``'s catalogue; English (with one warning line on standard error) when its
    ``.mo`` file is missing from a broken install or cannot be read."""
    if lang == "en":
        return _gettext.NullTranslations()
    try:
        return _gettext.translation(DOMAIN, localedir=locale_dir(), languages=[lang])
    except FileNotFoundError:
        return _gettext.NullTranslations()  # a build without catalogues: English
    except Exception as exc:  # a corrupt file: any parse error of gettext's
        why = shortened(exc, 80) or type(exc).__name__
        sys.stderr.write(
            f"perudo-rules: warning: the {lang!r} message catalogue cannot be read ({why}); "
            "English is used\n"
        )
        return _gettext.NullTranslations()


def _said(text: str, english: str, params: Mapping[str, object]) -> str:
    """``text`` (a translation of ``english``) with ``params`` filled in; ``english``'s when
    the translation's placeholders do not fit (a damaged catalogue never breaks a command)."""
    try:
        return text.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError):
        return english.format(**params)


def fold(text: str) -> str:
    """``text`` on one line, runs of white space made one space (how catalogues key it)."""
    return " ".join(text.split())


def tr(message: str, lang: str | None = None, /, **params: object) -> str:
    """``message`` (English, folded to one line) in ``lang`` (default: the context's), with
    ``params`` filled into its ``{name}`` placeholders. A message with no translation is
    English."""
    text = _catalogue(check_language(lang or _current.get())).gettext(fold(message))
    return _said(text, fold(message), params) if params else text


def ptr(context: str, message: str, lang: str | None = None, /, **params: object) -> str:
    """Like :func:`tr`, for a message keyed by a ``context`` too (a message id, or a kind
    of text such as ``"source"``)."""
    text = _catalogue(check_language(lang or _current.get())).pgettext(context, fold(message))
    return _said(text, fold(message), params) if params else text


def ntr(singular: str, plural: str, n: int, lang: str | None = None, /, **params: object) -> str:
    """Like :func:`tr`, choosing the plural form for ``n`` (``n`` is a parameter too)."""
    catalogue = _catalogue(check_language(lang or _current.get()))
    text = catalogue.ngettext(fold(singular), fold(plural), n)
    return _said(text, fold(singular) if n == 1 else fold(plural), {"n": n, **params})


def template(
    context: str, message: str, plural: str | None = None, n: int = 1, lang: str | None = None
) -> str:
    """The translation of the template ``message`` keyed by ``context`` (a message id),
    unformatted (its placeholders left for the caller's formatter); with ``plural``, the
    form for ``n``. English (the template itself) where no catalogue has it."""
    catalogue = _catalogue(check_language(lang or _current.get()))
    if plural is None:
        return catalogue.pgettext(context, message)
    return catalogue.npgettext(context, message, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for the catalogues without translating it (translate it later)."""
    return message
