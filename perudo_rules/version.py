"""The version of perudo-rules: ``__version__``.

``pyproject.toml`` is the single source. An installed package reads it from its
metadata; a source checkout that is not installed reads ``pyproject.toml`` itself.
This module imports nothing else of the package, so any module may use it.
"""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

__all__ = ["__version__"]

_UNKNOWN = "0+unknown"


def _version() -> str:
    try:
        return metadata.version("perudo-rules")
    except metadata.PackageNotFoundError:
        pass
    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return _UNKNOWN
    version = data.get("project", {}).get("version")
    return version if isinstance(version, str) else _UNKNOWN


__version__: str = _version()
"""The package version, as ``pyproject.toml`` states it (``"0+unknown"`` if it cannot be read)."""
