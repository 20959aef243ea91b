"""Shared test set-up: Hypothesis profiles, chosen by HYPOTHESIS_PROFILE (ci when CI is set)."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, settings

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci",
    max_examples=60,
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# .ci/mutants.py: the ci examples, but no shrinking (a mutant only needs to turn red).
settings.register_profile(
    "mutants",
    parent=settings.get_profile("ci"),
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    print_blob=False,
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Print the lines tests record as ``record_property("terminal_line", text)``: figures
    worth seeing in every run (the OpenSpiel differential counts). Reports carry them back
    from pytest-xdist workers, whose own output is not shown."""
    lines = [
        str(value)
        for kind in ("passed", "failed")
        for report in terminalreporter.stats.get(kind, [])
        for name, value in getattr(report, "user_properties", ())
        if name == "terminal_line" and getattr(report, "when", "call") == "call"
    ]
    if lines:
        terminalreporter.write_sep("-", "figures")
        for line in sorted(lines):
            terminalreporter.write_line(line)


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line speaks the locale's language (perudo_rules.base.i18n): tests read its
    English unless they set a locale or pass ``--lang`` themselves."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)
