"""Results the docs build keeps (perudo_rules.sphinxext.store): computed once per set of
inputs, shared by builds running at once, never read for other inputs."""

from __future__ import annotations

import re
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sphinx")

from sphinx.testing.util import SphinxTestApp

from perudo_rules.sphinxext import conformance, store

ROOTS = Path(__file__).parent / "roots"
pytest_plugins = ("sphinx.testing.fixtures",)


def _counting(value: Any, calls: list[int], pause: float = 0.0) -> Callable[[], Any]:
    def compute() -> Any:
        calls.append(1)
        time.sleep(pause)
        return value

    return compute


def test_a_result_is_computed_once_then_read(tmp_path: Path) -> None:
    calls: list[int] = []
    for _ in range(2):
        assert store.stored(tmp_path, "k", "abc", _counting({"n": [1, 2]}, calls)) == {"n": [1, 2]}
    assert len(calls) == 1
    store.stored(tmp_path, "k", "abd", _counting({"n": 3}, calls))  # another key
    assert len(calls) == 2
    for _ in range(2):  # a result not worth keeping (a harness error) is computed each time
        store.stored(tmp_path, "k", "x", _counting({"error": 1}, calls), keep=lambda v: False)
    store.stored(None, "k", "abc", _counting(0, calls))  # no folder: nothing kept
    assert len(calls) == 5
    (tmp_path / "k-abc.json").write_text("{not json", encoding="utf-8")  # a spoiled file
    assert store.stored(tmp_path, "k", "abc", _counting({"n": 4}, calls)) == {"n": 4}


def test_builds_at_once_compute_a_result_once(tmp_path: Path) -> None:
    calls: list[int] = []
    got: list[Any] = []

    def build() -> None:
        got.append(store.stored(tmp_path, "k", "key", _counting([7], calls, pause=0.3)))

    threads = [threading.Thread(target=build) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == [[7], [7], [7]] and len(calls) == 1


def test_the_key_follows_every_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "v.yaml"
    f.write_text("a: 1\n", encoding="utf-8")
    key = store.fingerprint(["x", 1], [f])
    assert key == store.fingerprint(["x", 1], [f])
    assert key != store.fingerprint(["x", 2], [f])
    f.write_text("a: 2\n", encoding="utf-8")
    assert key != store.fingerprint(["x", 1], [f])
    package = tmp_path / "package"  # a changed source file of the package
    package.mkdir()
    (package / "m.py").write_text("X = 1\n", encoding="utf-8")
    monkeypatch.setattr(store, "_PACKAGE", package)
    before = store.source_digest()
    (package / "m.py").write_text("X = 2\n", encoding="utf-8")
    assert store.source_digest() != before


def test_the_conformance_page_reads_a_kept_run(
    make_app: Callable[..., SphinxTestApp], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "src"
    shutil.copytree(ROOTS / "test-perudo" / "variants", src / "variants")
    (src / "conf.py").write_text(
        'extensions = ["perudo_rules.sphinxext"]\nperudo_variants_dir = "variants"\n'
        f"perudo_cache_dir = {str(tmp_path / 'kept')!r}\nsmartquotes = False\n",
        encoding="utf-8",
    )
    (src / "index.rst").write_text(
        "Conformance\n===========\n\n.. perudo-conformance::\n   :harnesses: stepapi\n",
        encoding="utf-8",
    )
    pages = []
    for lang in ("en", "it"):
        app = make_app("html", srcdir=src, freshenv=True, confoverrides={"language": lang})
        app.build()
        assert app.warning.getvalue() == ""
        pages.append((Path(app.outdir) / "index.html").read_text(encoding="utf-8"))
        app.cleanup()

        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("the kept run is read, not computed again")

        monkeypatch.setattr(conformance, "conform", refuse)
    assert "conforms" in pages[0]
    tables = [page.split("<table")[1].split("</table>")[0] for page in pages]
    # the same kept figures, each build in its language
    assert re.findall(r"\d+/\d+", tables[0]) == re.findall(r"\d+/\d+", tables[1])
    assert "conforms" in tables[0] and "conforme" in tables[1] and "conforms" not in tables[1]
