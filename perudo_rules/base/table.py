"""Plain-text tables for the command line."""

from __future__ import annotations

from collections.abc import Sequence

from perudo_rules.base.safetext import printable

__all__ = ["format_table"]


def format_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Align ``rows`` under ``headers`` in columns separated by two spaces (characters that
    are not printable, from a variant's name for instance, escaped: one row, one line)."""
    cells = [[printable(h) for h in headers], *[[printable(c) for c in row] for row in rows]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
