"""The ``perudo-rules`` command line: a module per command; :mod:`~perudo_rules.cli.main`
is the entry point."""

from perudo_rules.cli.main import main

__all__ = ["main"]
