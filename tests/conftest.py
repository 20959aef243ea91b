"""Shared test set-up: Hypothesis profiles, chosen by HYPOTHESIS_PROFILE (ci when CI is set)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, Phase, settings

if TYPE_CHECKING:
    from docsbuild import DocsBuilds

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


#: The fixtures that read a docs build, and the language each reads.
_DOCS_FIXTURES = {"html_dir": "en", "it_dir": "it"}


@pytest.fixture(scope="session")
def docs_builds(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[DocsBuilds]:
    """The docs built once per session (tests/docsbuild.py): every language a test of the
    session reads, started together when the first of them asks, in a folder the
    pytest-xdist workers share (the session's, not a worker's)."""
    from docsbuild import DocsBuilds

    wanted = {
        lang
        for item in request.session.items
        for name, lang in _DOCS_FIXTURES.items()
        if name in getattr(item, "fixturenames", ())
    }
    session = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        session = session.parent  # popen-gwN's parent: the session's folder
    builds = DocsBuilds(session / "docs-builds", sorted(wanted))
    yield builds
    builds.close()
