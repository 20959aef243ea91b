"""The ``perudo-rules`` command line (also ``python -m perudo_rules``).

Each command lives in a module of :mod:`perudo_rules.cli` that defines
``register(subparsers)``; a command's handler returns the exit code. :data:`COMMANDS` says
which module registers each command, and a run imports only the module of the command it
runs (every module for the help, or when no known command is given): ``perudo-rules
check`` never imports the witness search, the simulator or the conformance kit. Bad
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
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from perudo_rules.base.errors import PerudoError, Refused
from perudo_rules.base.i18n import (
    LANGUAGES,
    N_,
    language,
    locale_language,
    ntr,
    tr,
    use_language,
)
from perudo_rules.base.safetext import printable
from perudo_rules.base.version import __version__, build

__all__ = ["COMMANDS", "build_parser", "command_modules", "main"]

#: Each command and the module of :mod:`perudo_rules.cli` that registers it (with
#: ``register(subparsers) -> None``), in help order; tests/test_one_home.py holds the table
#: to what the modules register.
COMMANDS: dict[str, str] = {
    "list": "variants",
    "show": "variants",
    "validate": "variants",
    "compare": "variants",
    "check": "check",
    "referee": "referee",
    "play": "play",
    "export-scenarios": "scenarios",
    "simulate": "simulate",
    "conform": "conform",
    "perft": "conform",
    "claim": "claim",
}


def _argv_command(argv: Sequence[str]) -> str | None:
    """The command an argument list names: its first word that is no option (nor the
    value of ``--lang``), if that is a command."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--lang":
            skip = True
        elif arg == "--":
            break
        elif not arg.startswith("-"):
            return arg if arg in COMMANDS else None
    return None


def command_modules(argv: Sequence[str] | None = None) -> list[ModuleType]:
    """The command modules a run of ``argv`` needs: the module of the command it names,
    or every module (in help order) when it names none (``--help``, a typo: argparse then
    lists every command). ``None``: every module."""
    name = None if argv is None else _argv_command(argv)
    wanted = [COMMANDS[name]] if name is not None else list(dict.fromkeys(COMMANDS.values()))
    return [importlib.import_module(f"perudo_rules.cli.{module}") for module in wanted]


#: argparse's own messages (Python 3.11 to 3.13), marked for the catalogues: argparse says
#: them through its module's ``_`` and ``ngettext``, which :func:`_argparse_gettext` and
#: :func:`_argparse_ngettext` replace with the catalogues in the language of the context.
ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
)
_gettext = argparse._  # type: ignore[attr-defined]
_ngettext = argparse.ngettext  # type: ignore[attr-defined]


def _argparse_gettext(message: str) -> str:
    """argparse's ``_``: ``message`` from the catalogues in the language of the context
    (its leading and trailing white space kept), argparse's own outside Italian and Spanish."""
    if language() == "en":
        return str(_gettext(message))
    core = message.strip()
    text = tr(core)
    return message[: len(message) - len(message.lstrip())] + text + message[len(message.rstrip()) :]


def _argparse_ngettext(singular: str, plural: str, n: int) -> str:
    """argparse's ``ngettext``, through :func:`perudo_rules.base.i18n.ntr` the same way."""
    if language() == "en" or singular != "expected %s argument":
        return str(_ngettext(singular, plural, n))
    return ntr("expected %s argument", "expected %s arguments", n)


setattr(argparse, "_", _argparse_gettext)  # noqa: B010 - argparse reads its module's names
setattr(argparse, "ngettext", _argparse_ngettext)  # noqa: B010


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
        self.exit(2, tr("{prog}: error: {message}", prog=self.prog, message=text) + "\n")


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


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser (its help in the language of the context,
    :func:`perudo_rules.base.i18n.use_language`) with every command, or with only the one
    that ``argv`` runs (:func:`command_modules`); every command takes ``--lang``."""
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
    for module in command_modules(argv):
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
    parser = build_parser(argv)
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
    text = exc.message_in() if isinstance(exc, Refused) else str(exc)
    return printable(" ".join(text.split())) or type(exc).__name__


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
