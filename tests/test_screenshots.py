"""The built spec in a real browser: headless Chromium lays out the pages and measures them.

Skips cleanly when no Chromium is installed (``.ci/run`` installs Debian's ``chromium``
when it runs as root). Each page is loaded from a copy with a small script appended that
records, after layout, every table, code block or image that sticks out of the text
column, and text of the spec's own blocks whose contrast with its background is too low;
``--dump-dom`` then returns the verdict. Pages are checked at desktop and phone widths and
in the dark theme (Furo follows the system's colour scheme; ``--force-dark-mode`` sets
it). One screenshot checks that the comparison page renders (a non-blank PNG of the
requested size).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from html import unescape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip("sphinx")

from perudo_rules import available_variants, load_variant
from perudo_rules.editions.knobs import KNOB_PATHS

if TYPE_CHECKING:
    from docsbuild import DocsBuilds

#: Debian and Ubuntu name the binary chromium, others chromium-browser or google-chrome;
#: PERUDO_CHROMIUM names another.
BROWSER = next(
    (
        found
        for b in (
            os.environ.get("PERUDO_CHROMIUM", ""),
            "chromium",
            "chromium-browser",
            "google-chrome",
            "google-chrome-stable",
        )
        if b and (found := shutil.which(b))
    ),
    None,
)
if BROWSER is None and os.environ.get("PERUDO_REQUIRE_BROWSER"):  # .ci/run sets it
    raise RuntimeError("PERUDO_REQUIRE_BROWSER is set but no Chromium was found on PATH")
pytestmark = [
    pytest.mark.skipif(BROWSER is None, reason="no Chromium installed (see README: browser tests)"),
    # the docs are built once per session for these tests and tests/test_docs.py
    pytest.mark.xdist_group("docs"),
]

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

#: At phone width a wide table may scroll sideways inside its own box; at desktop widths
#: everything must fit the text column, but for the comparison matrix (one column per
#: edition: it scrolls inside its box at any width, its rule column staying in view).
DESKTOP, PHONE = 1400, 390

PROBE = """
<script>
window.addEventListener('load', function () {
  var SCROLL_OK = @SCROLL_OK@;
  var bad = [];
  var main = document.querySelector('div.body') || document.querySelector('article[role=main]');
  var column = main.getBoundingClientRect();
  main.querySelectorAll('table, pre, img').forEach(function (el) {
    var r = el.getBoundingClientRect();
    // SCROLL_OK: a wide table may scroll inside its own box if the box fits the column;
    // the comparison matrix (div.perudo-matrix) scrolls inside its box at every width
    var box = SCROLL_OK ? el.closest('div.perudo-scroll, div.table-wrapper, div.highlight')
                        : el.closest('div.perudo-matrix');
    var boxed = box && box.getBoundingClientRect().right <= column.right + 1;
    if (r.right > column.right + 1 && !boxed) {
      bad.push(el.tagName + '.' + el.className + '@' + Math.round(r.right - column.right));
    }
    if (el.tagName === 'IMG' && !(el.complete && el.naturalWidth > 0)) {
      bad.push('unloaded ' + el.className);
    }
  });
  if (document.documentElement.scrollWidth > window.innerWidth) { bad.push('page'); }
  function rgb(c) { var m = c.match(/[0-9.]+/g); return m ? m.map(Number) : [0, 0, 0, 0]; }
  function lum(c) {
    var v = c.slice(0, 3).map(function (x) {
      x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2];
  }
  function background(el) {
    for (; el; el = el.parentElement) {
      var c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length < 4 || c[3] > 0.5) { return c; }
    }
    return rgb(getComputedStyle(document.body).backgroundColor);
  }
  var seen = 0;
  main.querySelectorAll(
    '[class*="perudo-"], [class*="perudo-"] th, [class*="perudo-"] td, [class*="perudo-"] code'
  ).forEach(function (el) {
    if (seen > 400 || !el.textContent.trim() || el.getClientRects().length === 0) { return; }
    seen += 1;
    var a = lum(rgb(getComputedStyle(el).color)), b = lum(background(el));
    var ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    if (ratio < 4.5) {
      bad.push('contrast ' + el.tagName + '.' + el.className + ' ' + ratio.toFixed(1));
    }
  });
  var h = decodeURIComponent(location.hash.slice(1));
  if (h && !document.getElementById(h)) { bad.push('anchor ' + h); }
  document.body.setAttribute('data-overflow', bad.length ? bad.join('|') : 'none');
});
</script>
"""


@pytest.fixture(scope="module")
def html_dir(docs_builds: DocsBuilds) -> Path:
    """The spec in English, built once per session (tests/docsbuild.py)."""
    return docs_builds.html("en")


def _chromium(*args: str) -> subprocess.CompletedProcess[str]:
    assert BROWSER is not None
    with tempfile.TemporaryDirectory() as profile:
        return subprocess.run(
            [BROWSER, *FLAGS, f"--user-data-dir={profile}", *args],
            capture_output=True,
            text=True,
            timeout=60,
        )


def _overflow(html_dir: Path, page: str, width: int, fragment: str = "", dark: bool = False) -> str:
    source = html_dir / f"{page}.html"
    probe = source.with_name(f"probe-{width}-{'dark' if dark else 'light'}-{source.name}")
    probe.write_text(
        source.read_text(encoding="utf-8").replace(
            "</body>",
            PROBE.replace("@SCROLL_OK@", "true" if width <= PHONE else "false") + "</body>",
        ),
        encoding="utf-8",
    )
    try:
        url = probe.as_uri() + (f"#{fragment}" if fragment else "")
        extra = ("--force-dark-mode",) if dark else ()
        proc = _chromium(*extra, f"--window-size={width},1000", "--dump-dom", url)
    finally:
        probe.unlink()
    m = re.search(r'data-overflow="([^"]*)"', proc.stdout)
    assert m, proc.stderr[-2000:]
    return m.group(1)


PAGES = [
    ("compare", ""),
    ("editions/italian", "rule-italian-palifico-face-lock"),
    ("scenarios", ""),
    ("format", "rule-calza-who"),
    ("bid-ranks", ""),
    ("interpretations", ""),
    ("pettingzoo", ""),
    ("balance-studies", ""),
]


@pytest.mark.parametrize(("page", "fragment"), PAGES)
def test_pages_fit_the_window(html_dir: Path, page: str, fragment: str) -> None:
    assert _overflow(html_dir, page, DESKTOP, fragment) == "none"


@pytest.mark.parametrize(("page", "fragment"), PAGES)
def test_pages_fit_a_phone(html_dir: Path, page: str, fragment: str) -> None:
    assert _overflow(html_dir, page, PHONE, fragment) == "none"


@pytest.mark.parametrize("page", ["compare", "editions/italian", "interpretations"])
def test_pages_are_readable_in_the_dark_theme(html_dir: Path, page: str) -> None:
    assert _overflow(html_dir, page, DESKTOP, dark=True) == "none"


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


@pytest.fixture(scope="module")
def it_dir(docs_builds: DocsBuilds) -> Path:
    """The spec in Italian, built once per session (tests/docsbuild.py)."""
    return docs_builds.html("it")


def test_the_italian_edition_page_reads_italian_in_the_browser(it_dir: Path) -> None:
    """The Italian spec's page of the Italian edition, laid out by Chromium: it declares
    Italian, every rule reads in Italian (the rulebook's quotes beside it), no English rule
    statement is left, and it fits the window like the English page."""
    from perudo_rules import load_variant
    from perudo_rules.base.i18n import tr

    page = it_dir / "editions" / "italian.html"
    proc = _chromium("--window-size=1400,1000", "--dump-dom", page.as_uri())
    dom = proc.stdout
    assert re.search(r'<html[^>]* lang="it"', dom), proc.stderr[-2000:]
    body = re.sub(r"<script.*?</script>", "", dom, flags=re.S)
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())
    variant = load_variant("italian")
    assert "Perudo (edizione italiana)" in text
    for knob in variant.knobs:
        assert knob.text is not None
        english = " ".join(knob.text.split())
        assert tr(english, "it") in text, knob.path
        assert english not in text, knob.path
        if knob.quote:
            assert " ".join(knob.quote.split()) in text, knob.path
    assert _overflow(it_dir, "editions/italian", DESKTOP) == "none"


#: The comparison matrix, driven as a reader would once the page has loaded: the layout of
#: each rule id (where its lines break), the rule column with the values scrolled to their
#: right end, then the controls (differing rows only; choosing editions). The answer is JSON.
MATRIX_PROBE = """
<script>
window.addEventListener('load', function () {
  var CHOSEN = @CHOSEN@;
  var out = {broken: [], covered: [], pageOverflow: []};
  var view = document.querySelector('div.perudo-compare-view');
  var table = view.querySelector('table.perudo-compare');
  var body = table.tBodies[0];
  function shown(el) { return el.getClientRects().length > 0; }
  function rule(row) { return row.cells[0].textContent.trim(); }
  function visibleRules() {
    return [].filter.call(body.rows, shown).map(rule);
  }
  function overflow(what) {
    if (document.documentElement.scrollWidth > window.innerWidth) { out.pageOverflow.push(what); }
  }
  out.enhanced = view.classList.contains('perudo-enhanced');
  out.rules = [].map.call(body.rows, rule);
  out.editions = [].filter.call(table.tHead.rows[0].cells, function (th) {
    return /perudo-edition-/.test(th.className);
  }).map(function (th) { return th.textContent.trim(); });
  // 1. each rule id: a new line may start only right after a dot (measured per character)
  out.wrapped = 0;
  body.querySelectorAll('td.perudo-rule-cell code').forEach(function (code) {
    var walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT), node, seen = '', top = null;
    var range = document.createRange(), lines = 1;
    while ((node = walker.nextNode())) {
      for (var i = 0; i < node.data.length; i++) {
        range.setStart(node, i); range.setEnd(node, i + 1);
        var rects = range.getClientRects();
        if (!rects.length) { continue; }
        if (top !== null && rects[0].top > top + 2) {
          lines += 1;
          if (seen.slice(-1) !== '.') { out.broken.push(code.textContent + ' after ' + seen); }
        }
        top = rects[0].top; seen += node.data[i];
      }
    }
    if (lines > 1) { out.wrapped += 1; }
  });
  // 2. scrolled to the right end, every rule cell is in the box and on top
  var box = table.parentElement;
  while (box && getComputedStyle(box).overflowX === 'visible') { box = box.parentElement; }
  out.scrollable = box.scrollWidth - box.clientWidth;
  box.scrollLeft = box.scrollWidth;
  out.scrolled = box.scrollLeft;
  var edge = box.getBoundingClientRect();
  var heads = table.tHead.rows[0].cells;
  out.lastColumnInView = heads[heads.length - 1].getBoundingClientRect().right <= edge.right + 1;
  [].forEach.call(body.rows, function (row) {
    var cell = row.cells[0];
    // (the window is tall enough to hold the whole table: elementFromPoint needs the cell
    // in the viewport, and a page being loaded for --dump-dom does not scroll)
    var r = cell.getBoundingClientRect();
    var hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (r.left < edge.left - 1 || r.right > edge.right + 1 || !cell.contains(hit)) {
      out.covered.push(rule(row));
    }
  });
  overflow('scrolled');
  box.scrollLeft = 0;
  window.scrollTo(0, 0);
  // 3. differing rows only
  var differing = view.querySelector('.perudo-toggle-differing input');
  differing.click();
  out.differingOnly = visibleRules();
  differing.click();
  out.afterUntick = visibleRules().length;
  // 4. choose the editions CHOSEN: the other columns go, then differing rows among them
  view.querySelectorAll('.perudo-toggle-edition').forEach(function (toggle) {
    if (CHOSEN.indexOf(toggle.textContent.trim()) < 0) { toggle.querySelector('input').click(); }
  });
  out.shownEditions = [].filter.call(heads, function (th) {
    return shown(th) && /perudo-edition-/.test(th.className);
  }).map(function (th) { return th.textContent.trim(); });
  out.strayCells = 0;
  body.querySelectorAll('td.perudo-value-cell').forEach(function (td) {
    var ed = heads[td.cellIndex].textContent.trim();
    if (shown(td) !== (CHOSEN.indexOf(ed) >= 0)) { out.strayCells += 1; }
  });
  differing.click();
  out.chosenDiffering = visibleRules();
  out.chosenMarked = [].filter.call(body.rows, function (row) {
    return shown(row) && getComputedStyle(row.cells[1].firstElementChild).visibility !== 'hidden';
  }).map(rule);
  overflow('chosen');
  document.body.setAttribute('data-matrix', JSON.stringify(out));
});
</script>
"""


#: The window's height for the matrix probe: the whole table in view (see MATRIX_PROBE).
MATRIX_HEIGHT = 8000


def _matrix(html_dir: Path, width: int, chosen: list[str]) -> dict[str, Any]:
    source = html_dir / "compare.html"
    probe = source.with_name(f"matrix-{width}-{source.name}")
    script = MATRIX_PROBE.replace("@CHOSEN@", json.dumps(chosen))
    probe.write_text(
        source.read_text(encoding="utf-8").replace("</body>", script + "</body>"),
        encoding="utf-8",
    )
    try:
        proc = _chromium(f"--window-size={width},{MATRIX_HEIGHT}", "--dump-dom", probe.as_uri())
    finally:
        probe.unlink()
    m = re.search(r'data-matrix="([^"]*)"', proc.stdout)
    assert m, proc.stderr[-2000:]
    result: dict[str, Any] = json.loads(unescape(m.group(1)))
    return result


@pytest.mark.parametrize("width", [DESKTOP, PHONE])
def test_compare_matrix_reads_at_every_width(html_dir: Path, width: int) -> None:
    ids = available_variants()
    variants = {vid: load_variant(vid) for vid in ids}
    chosen = ["italian", "spanish"]
    m = _matrix(html_dir, width, chosen)
    assert m["enhanced"], "perudo.js did not set up the controls"
    assert m["rules"] == list(KNOB_PATHS) and sorted(m["editions"]) == sorted(ids)
    # rule ids wrap only after a dot (on a phone some do; on a desktop none needs to)
    assert m["broken"] == []
    if width == DESKTOP:
        assert m["wrapped"] == 0
    # the values scroll inside the table's box, never the page, and the rule column stays
    if width == PHONE:
        assert m["scrollable"] > 0
    if m["scrollable"] > 0:
        assert m["scrolled"] > 0 and m["lastColumnInView"]
        assert m["covered"] == []
    assert m["pageOverflow"] == []
    # differing rows only: exactly the rules whose values are not all equal, from the data
    def differing(among: list[str]) -> list[str]:
        return [p for p in KNOB_PATHS if len({repr(variants[v][p]) for v in among}) > 1]

    assert m["differingOnly"] == differing(ids)
    assert len(differing(ids)) < len(KNOB_PATHS)  # the toggle hid something
    assert m["afterUntick"] == len(KNOB_PATHS)
    # choosing editions hides the others' columns; differing rows are then among those shown
    assert m["shownEditions"] == chosen and m["strayCells"] == 0
    assert m["chosenDiffering"] == differing(chosen)
    assert m["chosenMarked"] == differing(chosen)
    assert set(differing(chosen)) < set(differing(ids))
