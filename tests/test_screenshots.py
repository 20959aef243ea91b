"""The built spec in a real browser: headless Chromium lays out the pages and measures them.

Skips cleanly when no Chromium is installed. Each page is loaded from a copy with a small
script appended that records, after layout, every table, code block or image that sticks
out of the text column; ``--dump-dom`` then returns the verdict. One screenshot checks that
the comparison page renders (a non-blank PNG of the requested size).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("sphinx")

from test_docs import build_docs

BROWSER = next(
    (b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None
)
pytestmark = pytest.mark.skipif(BROWSER is None, reason="no Chromium installed")

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
)

PROBE = """
<script>
(function () {
  var bad = [];
  var column = document.querySelector('div.body').getBoundingClientRect();
  document.querySelectorAll('div.body table, div.body pre, div.body img').forEach(function (el) {
    var r = el.getBoundingClientRect();
    if (r.right > column.right + 1) {
      bad.push(el.tagName + '.' + el.className + '@' + Math.round(r.right - column.right));
    }
    if (el.tagName === 'IMG' && !(el.complete && el.naturalWidth > 0)) {
      bad.push('unloaded ' + el.className);
    }
  });
  if (document.documentElement.scrollWidth > window.innerWidth) { bad.push('page'); }
  var h = decodeURIComponent(location.hash.slice(1));
  if (h && !document.getElementById(h)) { bad.push('anchor ' + h); }
  document.body.setAttribute('data-overflow', bad.length ? bad.join('|') : 'none');
})();
</script>
"""


@pytest.fixture(scope="module")
def html_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_docs(tmp_path_factory.mktemp("docs"))


def _chromium(*args: str) -> subprocess.CompletedProcess[str]:
    assert BROWSER is not None
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [BROWSER, *FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True,
            text=True,
            timeout=60,
        )


def _overflow(html_dir: Path, page: str, width: int, fragment: str = "") -> str:
    source = html_dir / f"{page}.html"
    probe = source.with_name(f"probe-{source.name}")
    probe.write_text(
        source.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8"
    )
    try:
        url = probe.as_uri() + (f"#{fragment}" if fragment else "")
        proc = _chromium(f"--window-size={width},1000", "--dump-dom", url)
    finally:
        probe.unlink()
    m = re.search(r'data-overflow="([^"]*)"', proc.stdout)
    assert m, proc.stderr[-2000:]
    return m.group(1)


@pytest.mark.parametrize(
    ("page", "fragment"),
    [
        ("compare", ""),
        ("editions/italian", "rule-italian-palifico-face-lock"),
        ("scenarios", ""),
        ("format", "rule-calza-who"),
        ("bid-ranks", ""),
        ("interpretations", ""),
    ],
)
def test_pages_fit_the_window(html_dir: Path, page: str, fragment: str) -> None:
    assert _overflow(html_dir, page, 1400, fragment) == "none"


def test_compare_page_fits_a_narrow_window(html_dir: Path) -> None:
    assert _overflow(html_dir, "compare", 800) == "none"


def test_compare_page_screenshot(html_dir: Path, tmp_path: Path) -> None:
    png = tmp_path / "compare.png"
    _chromium(
        f"--screenshot={png}", "--window-size=1400,1000", (html_dir / "compare.html").as_uri()
    )
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1400, 1000)
    assert len(data) > 50_000  # a page of text and a coloured table, not a blank image
