"""The conformance kit: certify any Perudo engine, in any language, against any edition.

An engine speaks the harness protocol (:mod:`perudo_rules.conform.protocol`, JSON lines on
its standard input and output), :mod:`perudo_rules.conform.process` runs it as a
subprocess with bounded reads, :mod:`perudo_rules.conform.check` compares it with the
reference point by point, :mod:`perudo_rules.conform.shrink` makes witnesses small, and
:func:`perudo_rules.conform.runner.conform` (the ``perudo-rules conform`` command) runs
the scenarios, random differential games and the published perft counts, and
:mod:`perudo_rules.conform.report` holds what it found: every rule id passed, failed (with
a minimal witness) or not reached.
``docs/conformance.rst`` is the guide for engine authors.
"""
