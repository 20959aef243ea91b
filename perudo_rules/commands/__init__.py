"""Subcommands of the ``perudo-rules`` command line, one module per group."""
