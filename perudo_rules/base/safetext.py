"""One sanitiser for text that comes from files, file names and other input before it is shown.

A variant's name or description, a key of a YAML file, a file name given on the command
line: any of them may hold terminal control characters (an escape sequence that
rewrites the user's terminal), a newline that splits an error line in two, bidirectional
overrides, or, for a file name that is not UTF-8, the lone surrogates Python decodes
its bytes to (which a strict UTF-8 stdout refuses to print). :func:`printable` escapes
every such character the way Python writes it in a string (``\\n``, ``\\x1b``,
``\\u202e``; an undecodable byte of a file name as ``\\xff``); :func:`json_text` writes
JSON whose every such character is a JSON escape, so the output is still valid JSON and
decodes to the same value. Error lines (:class:`~perudo_rules.base.errors.LocatedError`, the
command line) and the commands' output use them.
"""

from __future__ import annotations

import json
import os
from typing import Any

__all__ = ["display_path", "json_text", "printable", "shortened"]


def _escape(c: str) -> str:
    code = ord(c)
    if 0xDC80 <= code <= 0xDCFF:  # a byte that was not UTF-8 (surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    return repr(c)[1:-1]


def printable(text: object, *, newlines: bool = False) -> str:
    """``text`` with every character that is not printable escaped, on one line unless
    ``newlines`` keeps its line breaks.

    >>> printable("Perudo\\x1b[2J\\nrules")
    'Perudo\\\\x1b[2J\\\\nrules'
    >>> printable("caf\\udce9.yaml")
    'caf\\\\xe9.yaml'
    """
    s = text if isinstance(text, str) else str(text)
    if s.isprintable():
        return s
    if newlines:
        return "\n".join(printable(line) for line in s.split("\n"))
    return "".join(c if c.isprintable() else _escape(c) for c in s)


def shortened(text: object, most: int = 200) -> str:
    """``text`` (as :func:`printable` shows it) cut to about ``most`` characters, saying how
    long it was: the one way an error line echoes text it was given (a key, a name, an
    engine's words), so that a hostile megabyte is never repeated whole.

    >>> shortened("x" * 1000, 40)
    'xxxxxxxxxxxxxxxxxxxx… (1,000 characters)'
    """
    s = text if isinstance(text, str) else str(text)
    shown = printable(s[: most + 1])
    if len(s) <= most and len(shown) <= most:
        return shown
    tail = f"… ({len(s):,} characters)"
    keep = max(most - len(tail), 1)
    return printable(s[:keep])[:keep] + tail  # escapes count too: never longer than most


def display_path(path: str | os.PathLike[str] | bytes) -> str:
    """A file name as error lines and output show it (see :func:`printable`)."""
    return printable(os.fsdecode(path))


def _json_escape(c: str) -> str:
    code = ord(c)
    if code > 0xFFFF:  # a surrogate pair, as JSON writes characters beyond the BMP
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def json_text(data: Any, indent: int | None = 2) -> str:
    """``data`` as JSON text that is safe on a terminal: UTF-8 letters stay as they are,
    every character that is not printable (control characters, lone surrogates,
    bidirectional overrides) is a ``\\uXXXX`` escape. The text decodes to ``data``.

    >>> json_text({"name": "a\\x9bb"}, indent=None)
    '{"name": "a\\\\u009bb"}'
    """
    text = json.dumps(data, indent=indent, ensure_ascii=False)
    if text.isprintable():
        return text
    # outside strings JSON has only printable characters and whitespace: the structure is kept
    return "".join(c if c.isprintable() or c in "\n " else _json_escape(c) for c in text)
