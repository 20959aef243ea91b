"""A damaged install never breaks a command: a corrupt Italian or Spanish catalogue falls
back to English with one warning line, and a translation whose placeholders do not fit is
said in English (issue 33, item 9)."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from perudo_rules.base import i18n
from perudo_rules.cli import main


@pytest.fixture
def locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder of catalogues the package reads instead of its own, caches cleared."""
    monkeypatch.setattr(i18n, "locale_dir", lambda: tmp_path)
    i18n._catalogue.cache_clear()  # the cache of the real catalogues
    yield tmp_path
    i18n._catalogue.cache_clear()


def _mo(folder: Path, lang: str, data: bytes) -> None:
    path = folder / lang / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo"
    path.parent.mkdir(parents=True)
    path.write_bytes(data)


@pytest.mark.parametrize(
    "data", [b"", b"not a catalogue at all" * 10, b"\xde\x12\x04\x95" + b"\xff" * 40]
)
def test_a_corrupt_catalogue_is_english_with_one_warning(
    locale: Path, data: bytes, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _mo(locale, "it", data)
    assert main(["--lang", "it", "list"]) == 0
    out, err = capsys.readouterr()
    assert "Perudo (Italian edition)" in out  # English
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("perudo-rules: warning: the 'it' message")
    assert "English is used" in lines[0]
    # the locale asks for it too: still English, and warned once per process only
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert main(["check", "italian", "--bids", "3x4 1x1"]) == 1
    out, err = capsys.readouterr()
    assert "ILLEGAL [bidding.wild_worth]" in out and err == ""


def test_a_missing_catalogue_is_english_without_a_word(
    locale: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--lang", "es", "list"]) == 0
    out, err = capsys.readouterr()
    assert "Perudo (Spanish edition)" in out and err == ""


def test_a_translation_whose_placeholders_do_not_fit_is_said_in_english(locale: Path) -> None:
    pytest.importorskip("babel")
    from babel.messages.catalog import Catalog
    from babel.messages.mofile import write_mo

    cat = Catalog(locale="it", domain=i18n.DOMAIN)
    cat.add("seat {n}", "posto {m}")
    cat.add(("{n} round", "{n} rounds"), ("{x} round", "{x} round", "{x} round"))
    buf = io.BytesIO()
    write_mo(buf, cat)
    _mo(locale, "it", buf.getvalue())
    assert i18n.tr("seat {n}", "it", n=2) == "seat 2"
    assert i18n.ntr("{n} round", "{n} rounds", 3, "it") == "3 rounds"
