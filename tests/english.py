"""What English is left in an Italian or a Spanish output: the words of our English that
must never reach an Italian or a Spanish player (:data:`ENGLISH`), and every sentence of
the package catalogue that the language translates (:func:`english_fragments`), shared by
tests/test_i18n.py and tests/test_i18n_commands.py."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest

from perudo_rules.cli import main

ROOT = Path(__file__).resolve().parent.parent
Capsys = pytest.CaptureFixture[str]

#: Words and phrases of our English output that must never reach an Italian or a Spanish
#: player (matched as whole words, case-insensitively).
ENGLISH = (
    "seat",
    "seats",
    "bid",
    "bids",
    "legal",
    "illegal",
    "standing",
    "verdict",
    "rulebook",
    "round",
    "opens",
    "dice",
    "after",
    "needs",
    "wild",
    "the",
    "of",
    "is",
    "at least",
    "may",
    "must",
    "player",
    "face",
    "doubt",
    "rule",
    "raise",
    "in play",
    "only",
    "no bid",
)

#: Words both languages share with English: "round" is the Italian rulebook's word, "legal"
#: is Spanish, "dice" is Italian and Spanish for "says".
SHARED = {"it": ("round", "dice"), "es": ("legal", "dice")}


def english_words(text: str, lang: str, extra: tuple[str, ...] = ()) -> list[str]:
    """The words of :data:`ENGLISH` (and ``extra``) in ``text`` (rule ids, bid notation,
    edition ids in parentheses, file names, options, JSON and the rulebooks' quoted words
    aside)."""
    # rule ids (bidding.wild_worth), bid notation (3x4) and the edition's id are not English
    text = re.sub(r"\b[a-z_]+\.[a-z_]+\b|\b\d+x\d+\b|\(italian\)|\(spanish\)", " ", text)
    text = re.sub(r"\S*/\S*", " ", text)  # file names
    text = re.sub(r"«[^«»]*(«[^«»]*»[^«»]*)*»", " ", text)  # a rulebook's words, as printed
    text = re.sub(r"\{\".*\}", " ", text)  # JSON (a witness, a reply)
    text = re.sub(r"\b\w+(?:-\w+)+\b", " ", text)  # ids: it-raise-after-eight-fours
    # lists of JSON keys: (allowed: variant, round, first_player, ...), (JSON: dice, ...)
    text = re.sub(r"\b\w+(?:, \w+)*, \w*_\w*(?:, \w+)*", " ", text)
    text = re.sub(r"\(\w+: [a-z_]+(?:, [a-z_]+){2,}\)", " ", text)
    # options and their metavars (--bids BIDS [BIDS ...]) are what one types
    text = re.sub(r"--[\w-]+(?:[ =][A-Z][A-Z_.]*)?|\[[A-Z][A-Z_.]* \.\.\.\]", " ", text)
    words = [w for w in (*ENGLISH, *extra) if w not in SHARED[lang]]
    return [w for w in words if re.search(rf"(?<![\w'])({w})(?![\w'])", text, re.I)]


#: A placeholder: ``{name}``, ``{n:,}``, and argparse's ``%(prog)s``, ``%s``, ``%r``.
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sdr]|%[sdr]")


@functools.cache
def english_fragments(lang: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    """Every run of three or more words of an English msgid of the package catalogue
    between its placeholders, where ``lang`` translates the msgid to something else, each
    with the pattern that finds it (whole words, any case, any white space)."""
    read_po = pytest.importorskip("babel.messages.pofile").read_po
    path = ROOT / "perudo_rules" / "locale" / lang / "LC_MESSAGES" / "perudo_rules.po"
    with path.open("rb") as fh:
        catalogue = read_po(fh)
    found: dict[str, re.Pattern[str]] = {}
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for english in ids:
            if english in strings:
                continue
            for part in _PLACEHOLDER.split(english):
                words = re.findall(r"[A-Za-z][\w'-]*", part)
                if len(words) < 3:
                    continue
                pattern = r"(?<![\w-])" + r"\W+".join(re.escape(w) for w in words) + r"(?![\w-])"
                found[" ".join(words)] = re.compile(pattern, re.I)
    return tuple(sorted(found.items()))


def english_left(text: str, lang: str, extra: tuple[str, ...] = ()) -> list[str]:
    """Every English catalogue fragment and every word of :data:`ENGLISH` (and ``extra``)
    in ``text``."""
    found = [f for f, pattern in english_fragments(lang) if pattern.search(text)]
    return found + english_words(text, lang, extra)


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    """Run the command line in this process: its exit code, standard output and error."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err
