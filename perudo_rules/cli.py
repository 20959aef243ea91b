"""The ``perudo-rules`` command line (also ``python -m perudo_rules``).

Each command lives in a module of :mod:`perudo_rules.commands` that defines
``register(subparsers)``; a command's handler returns the exit code. Bad
input prints one readable line and exits 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from perudo_rules.errors import PerudoError

__all__ = ["COMMAND_MODULES", "build_parser", "main"]

#: Modules that add subcommands; each has ``register(subparsers) -> None``.
COMMAND_MODULES: tuple[str, ...] = (
    "perudo_rules.commands.variants",
    "perudo_rules.commands.check",
    "perudo_rules.commands.referee",
    "perudo_rules.commands.play",
    "perudo_rules.commands.scenarios",
    "perudo_rules.commands.simulate",
)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered command."""
    parser = _Parser(
        prog="perudo-rules",
        description="The reference rules of Perudo: editions, checks and comparisons.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.handler(args)
    except (PerudoError, ValueError, OSError) as exc:
        print(f"perudo-rules: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("perudo-rules: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # pragma: no cover - e.g. piping into head
        return 0
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
