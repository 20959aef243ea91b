"""Results the docs build computes once and shares: a folder of JSON files.

What a directive computes at length (the conformance runs of ``perudo-conformance``, the
simulation of ``perudo-simulation``) is data in no language: the directive says it in the
build's language when it renders it. So one computation serves every language: ``make
spec`` builds the spec in English, Italian and Spanish, and the second and third builds
read what the first computed, as a later build with the same inputs does.

A result is kept under a key, the :func:`fingerprint` of everything it may depend on: what
is computed and with which options, the files it reads, and :func:`source_digest` (every
file of the package and of its data folders: ``variants/``, ``spec/``, ``harnesses/``), the
Python version and the versions of the peer libraries (:data:`PEER_DISTRIBUTIONS`). Any
change to one of them is another key, so a result computed from other inputs is never
read. Builds running at once compute a result once: the first takes a lock on its key
(``fcntl``, where there is one) and the others wait for it, then read what it wrote.

The folder is the ``perudo_cache_dir`` configuration value (relative to the source
directory; the spec's ``conf.py`` sets ``_build/perudo-cache``); empty, nothing is kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from perudo_rules.base.errors import OutputError
from perudo_rules.base.output import write_text
from perudo_rules.editions.variantfile import data_dir, extends_chain

__all__ = ["PEER_DISTRIBUTIONS", "fingerprint", "source_digest", "stored", "variant_inputs"]

#: The libraries whose versions a result may depend on (the harnesses' peers, the plot's).
PEER_DISTRIBUTIONS = (
    "open_spiel", "pettingzoo", "gymnasium", "numpy", "supersuit", "textarena", "matplotlib",
)  # fmt: skip
#: How many results of one kind the folder keeps (the oldest go first).
KEEP = 12

_PACKAGE = Path(__file__).resolve().parents[1]


def _files_under(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(
        p
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    )


def _digest_files(h: Any, files: Iterable[Path]) -> None:
    for path in files:
        h.update(str(path).encode("utf-8", "surrogateescape") + b"\0")
        try:
            h.update(hashlib.blake2b(path.read_bytes(), digest_size=16).digest())
        except OSError:
            h.update(b"unreadable")


def source_digest() -> str:
    """A digest of every file of the package (its compiled modules too) and of its data
    folders (``variants/``, ``spec/`` and, in a source checkout, ``harnesses/``), of the
    Python version and of the installed version of each of :data:`PEER_DISTRIBUTIONS`.
    Computed at each call (a few milliseconds): a file changed since is seen."""
    h = hashlib.blake2b(digest_size=20)
    folders = [_PACKAGE, data_dir("variants"), data_dir("spec"), _PACKAGE.parent / "harnesses"]
    for folder in dict.fromkeys(f.resolve() for f in folders):
        _digest_files(h, _files_under(folder))
    versions: dict[str, str | None] = {}
    for dist in PEER_DISTRIBUTIONS:
        try:
            versions[dist] = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            versions[dist] = None
    h.update(json.dumps([sys.version, sys.implementation.name, versions]).encode())
    return h.hexdigest()


def variant_inputs(paths: Iterable[Path]) -> list[Path]:
    """The variant files ``paths`` and every file they extend."""
    out: dict[Path, None] = {}
    for path in paths:
        out.update(dict.fromkeys(extends_chain(path) or [path]))
    return list(out)


def fingerprint(what: object, files: Iterable[Path] = (), source: str | None = None) -> str:
    """The key of a result: a digest of ``what`` (JSON-ready: the name of the computation
    and its options), of the content of ``files`` and of :func:`source_digest` (``source``:
    that digest, computed once for several results)."""
    h = hashlib.blake2b(digest_size=20)
    h.update(json.dumps(what, sort_keys=True, default=str).encode())
    _digest_files(h, sorted(set(files)))
    h.update((source or source_digest()).encode())
    return h.hexdigest()


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on the file ``path`` (without ``fcntl``, or a lock file that
    cannot be opened, no lock: two builds may then both compute)."""
    try:
        import fcntl

        fh = open(path, "a+b")  # noqa: SIM115  # closed below, after the body ran
    except (ImportError, OSError):  # pragma: no cover - not on POSIX, or a read-only folder
        yield
        return
    try:
        fcntl.flock(fh, fcntl.LOCK_EX)
        yield
    finally:
        fh.close()  # which releases the lock


def _read(path: Path, key: str) -> Any:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(doc, dict) or doc.get("key") != key:
        return None
    return doc.get("value")


def _prune(folder: Path, kind: str) -> None:
    """Keep the :data:`KEEP` newest results of ``kind``."""
    found = []
    for path in folder.glob(f"{kind}-*.json"):
        with contextlib.suppress(OSError):
            found.append((path.stat().st_mtime, path))
    for _, path in sorted(found, reverse=True)[KEEP:]:
        with contextlib.suppress(OSError):
            path.unlink()
            path.with_suffix(".lock").unlink(missing_ok=True)


def stored(
    folder: Path | None,
    kind: str,
    key: str,
    compute: Callable[[], Any],
    keep: Callable[[Any], bool] = lambda value: True,
) -> Any:
    """The result of ``kind`` under ``key`` (a :func:`fingerprint`): read from ``folder``,
    or computed by ``compute`` (JSON-ready data) and written there when ``keep(value)``
    (a result that a busy machine may have spoiled, such as a harness timing out, is not
    kept). With ``folder`` ``None``, computed each time. The value is returned as JSON
    reads it back (lists, not tuples), whether it was read or computed."""
    if folder is None:
        return json.loads(json.dumps(compute()))
    path = folder / f"{kind}-{key}.json"
    value = _read(path, key)
    if value is not None:
        return value
    with contextlib.suppress(OSError):  # a folder we may not create: nothing is kept
        folder.mkdir(parents=True, exist_ok=True)
    with _locked(path.with_suffix(".lock")):
        value = _read(path, key)  # another build may have computed it while we waited
        if value is not None:
            return value
        text = json.dumps(compute())
        value = json.loads(text)
        if keep(value):
            with contextlib.suppress(OutputError):  # a folder we may not write: no harm done
                write_text(path, f'{{"key": "{key}", "value": {text}}}')  # atomically
                _prune(folder, kind)
    return value
