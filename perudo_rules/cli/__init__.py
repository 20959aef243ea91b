"""The ``perudo-rules`` command line: a module per command; :mod:`~perudo_rules.cli.commandline`
is the entry point."""

from perudo_rules.cli.commandline import main

__all__ = ["main"]
