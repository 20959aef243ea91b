"""The version has one source, pyproject.toml, read from the package metadata or the file."""

from __future__ import annotations

import importlib
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

import perudo_rules
from perudo_rules.base import version
from perudo_rules.conform.scenarios import export_document, load_scenarios

ROOT = Path(__file__).resolve().parent.parent
STATED = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def test_version_is_the_one_pyproject_states() -> None:
    assert perudo_rules.__version__ == version.__version__ == STATED
    doc = export_document(load_scenarios()[:1])
    assert doc["generator"] == f"perudo-rules {STATED}"


def test_without_metadata_the_checkout_reads_pyproject(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> str:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    try:
        assert importlib.reload(version).__version__ == STATED
    finally:
        monkeypatch.undo()
        importlib.reload(version)
