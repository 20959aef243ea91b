"""The spec in docs/ built for the tests: each language once per session, in the background.

The session fixture ``docs_builds`` (tests/conftest.py) starts every build the session's
tests read (English for the ``html_dir`` fixture, Italian for ``it_dir``) as soon as the
first of them asks, each in a process of its own that runs ``sphinx-build -W --keep-going``
as ``make spec`` does, so the builds overlap with each other and with the tests that run
meanwhile. Under pytest-xdist the workers share them: the builds go to a folder of the
session's (not of a worker's), the first worker to ask starts each build (it claims the
language by creating a file), and every worker waits for the file that the build writes
when it ends. The builds share one folder of kept results (``perudo_cache_dir``, new for
the session): the conformance runs and the simulation are computed once for both.

A build takes as long as it takes on a busy machine: no timeout but :data:`GUARD`, an
hour, against a build that hangs. Run as a script, this module is that process: ``python
docsbuild.py FOLDER LANG`` builds ``LANG`` into ``FOLDER/html-LANG`` and writes
``FOLDER/LANG.done`` (the exit status) when it ends, whatever became of the test worker
that started it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The longest the tests wait for a docs build (seconds).
GUARD = 3600


def _command(base: Path, lang: str) -> list[str]:
    language = [] if lang == "en" else ["-D", f"language={lang}"]
    return [
        sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", *language,
        "-D", f"perudo_cache_dir={base / 'kept'}", "-d", str(base / f"doctrees-{lang}"),
        str(ROOT / "docs"), str(base / f"html-{lang}"),
    ]  # fmt: skip


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - someone else's process: alive
        return True
    return True


class DocsBuilds:
    """The docs builds of a session in the folder ``base`` (shared by the workers)."""

    def __init__(self, base: Path, languages: Iterable[str]) -> None:
        self.base = base
        self.base.mkdir(parents=True, exist_ok=True)
        self._started: list[subprocess.Popen[bytes]] = []
        for lang in languages:
            self._start(lang)

    def _start(self, lang: str) -> None:
        """Start the build of ``lang`` unless a worker did."""
        try:
            fd = os.open(self.base / f"{lang}.claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        proc = subprocess.Popen(
            [sys.executable, __file__, str(self.base), lang],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
        with os.fdopen(fd, "w") as claim:
            claim.write(str(proc.pid))
        self._started.append(proc)

    def html(self, lang: str = "en") -> Path:
        """The HTML folder of the spec in ``lang``, once its build has ended without a
        warning (started now if nobody started it)."""
        self._start(lang)
        done, claim = self.base / f"{lang}.done", self.base / f"{lang}.claim"
        deadline = time.monotonic() + GUARD
        while not done.exists():
            for proc in self._started:
                proc.poll()  # reap what ended, so that a dead build is seen as dead
            pid = claim.read_text(encoding="utf-8").strip()
            if pid and not _alive(int(pid)) and not done.exists():
                raise AssertionError(f"the {lang} docs build (process {pid}) died")
            assert time.monotonic() < deadline, f"the {lang} docs build took over {GUARD} s"
            time.sleep(0.2)
        code = int(done.read_text(encoding="utf-8"))
        err = (self.base / f"stderr-{lang}.txt").read_text(encoding="utf-8", errors="replace")
        assert code == 0, err[-5000:]
        assert err.strip() == "", err[-5000:]
        return self.base / f"html-{lang}"

    def close(self) -> None:
        """Wait for the builds this worker started (another worker may be reading one);
        stop them if the wait is interrupted."""
        try:
            for proc in self._started:
                proc.wait(timeout=GUARD)
        finally:
            for proc in self._started:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()


def main(base: Path, lang: str) -> None:
    """Build ``lang`` into ``base``; write ``LANG.done`` with the exit status at the end."""
    with (base / f"stderr-{lang}.txt").open("wb") as err:
        proc = subprocess.run(_command(base, lang), stdout=subprocess.DEVNULL, stderr=err)
    code = proc.returncode
    tmp = base / f".{lang}.done"  # written, then renamed: a reader sees all of it or none
    tmp.write_text(str(code), encoding="utf-8")
    os.replace(tmp, base / f"{lang}.done")


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
