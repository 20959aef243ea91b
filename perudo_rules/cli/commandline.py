"""The ``perudo-rules`` command line (also ``python -m perudo_rules``).

Each command lives in a module of :mod:`perudo_rules.cli` that defines
``register(subparsers)``; a command's handler returns the exit code. The modules are
imported by name below (plain imports, so the architecture test sees them). Bad
input prints one readable line and exits 2, never a traceback (characters that
are not printable, in a file name for instance, are escaped: the line stays one
line); an unexpected error (a bug) prints one line too and exits 70
(``PERUDO_RULES_DEBUG=1`` shows the traceback). Output cut short by a closed
pipe (``| head``) exits 0 quietly; a closed standard output (``>&-``) is an
error, exit 2.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from perudo_rules.base.errors import IllegalAction, PerudoError
from perudo_rules.base.i18n import LANGUAGES, locale_language, tr, use_language
from perudo_rules.base.safetext import printable
from perudo_rules.base.version import __version__, build
from perudo_rules.cli import check, conform, play, referee, scenarios, simulate, variants

__all__ = ["COMMAND_MODULES", "build_parser", "main"]

#: Modules that add subcommands, in help order; each has ``register(subparsers) -> None``.
COMMAND_MODULES: tuple[ModuleType, ...] = (
    variants, check, referee, play, scenarios, simulate, conform,
)


class _Formatter(argparse.HelpFormatter):
    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, tr("usage:") + " " if prefix is None else prefix)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, its own headings in the language of the context too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)
        self._positionals.title = tr("positional arguments")
        self._optionals.title = tr("options")
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = tr("show this help message and exit")

    def error(self, message: str) -> None:  # type: ignore[override]
        # argparse quotes what was typed: one line, escaped, and a 5000-digit value cut short
        text = printable(" ".join(message.split()))
        if len(text) > 300:
            text = text[:150] + "..." + text[-100:]
        self.exit(2, f"{self.prog}: error: {text}\n")


def _add_lang(parser: argparse.ArgumentParser, default: object) -> None:
    parser.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=default,
        help=tr(
            "language of the human output: en, it or es (default: from the locale, "
            "LC_ALL / LC_MESSAGES / LANG); JSON keys never change"
        ),
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered command (its help in the language of the
    context, :func:`perudo_rules.base.i18n.use_language`); every command takes ``--lang``."""
    parser = _Parser(
        prog="perudo-rules",
        description=tr("The reference rules of Perudo: editions, checks and comparisons."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"perudo-rules {__version__} ({build})",
        help=tr("print the version and the build (pure Python or compiled) and exit"),
    )
    _add_lang(parser, None)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for module in COMMAND_MODULES:
        module.register(subparsers)
    for sub in dict.fromkeys(subparsers.choices.values()):
        _add_lang(sub, argparse.SUPPRESS)  # after the command too; the first one given wins
    return parser


def _argv_language(argv: Sequence[str]) -> str | None:
    """The ``--lang`` an argument list gives (before parsing: the help is in it)."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(argv) and argv[i + 1] in LANGUAGES:
            return argv[i + 1]
        if arg.startswith("--lang=") and arg[7:] in LANGUAGES:
            return arg[7:]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    if sys.stdout is None:  # started with standard output closed: nowhere to print to
        if sys.stderr is not None:
            print(tr("perudo-rules: error: standard output is closed"), file=sys.stderr)
        return 2
    given = list(sys.argv[1:] if argv is None else argv)
    lang = _argv_language(given) or locale_language()
    with use_language(lang):
        return _main(given)


def _main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python's own
        # flush at exit from complaining about the closed pipe.
        with contextlib.suppress(OSError, ValueError):  # captured stdout has no descriptor
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (PerudoError, ValueError, OSError) as exc:
        print(tr("perudo-rules: error: {message}", message=_one_line(exc)), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(tr("perudo-rules: interrupted"), file=sys.stderr)
        return 130
    except Exception as exc:
        # A bug, not bad input: still one line, unless PERUDO_RULES_DEBUG asks for the traceback.
        if os.environ.get("PERUDO_RULES_DEBUG"):
            raise
        print(
            tr(
                "perudo-rules: internal error: {kind}: {message} "
                "(set PERUDO_RULES_DEBUG=1 to see the traceback)",
                kind=type(exc).__name__,
                message=_one_line(exc),
            ),
            file=sys.stderr,
        )
        return 70
    return code


def _one_line(exc: BaseException) -> str:
    """The message of ``exc`` on one line (a refusal in the language of the context), with
    characters that are not printable escaped."""
    text = exc.message_in() if isinstance(exc, IllegalAction) else str(exc)
    return printable(" ".join(text.split())) or type(exc).__name__


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
