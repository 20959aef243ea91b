"""Where the package's bundled data lives: the ``variants`` and ``spec`` folders.

One function, :func:`data_dir`, that every module reading bundled data asks (the loader
of variant files, the core rules, the schema of variant files, the tools).
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

__all__ = ["data_dir"]


def data_dir(name: str) -> Path:
    """The directory of bundled data: ``"variants"`` or ``"spec"``.

    Installed wheels carry it as ``perudo_rules/_data/<name>``; a source
    checkout uses the top-level folder of the same name.
    """
    packaged = importlib.resources.files("perudo_rules") / "_data" / name
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / name
