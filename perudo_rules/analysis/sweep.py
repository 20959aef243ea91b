"""House-rule sweeps: an edition played at every combination of a few knobs' values.

``simulate EDITION --sweep KNOB=V1,V2 [--sweep ...]`` asks a balance question ("does the
first player win more often without Calza?"). :func:`parse_sweep` reads the knobs and
their values; :func:`sweep_points` builds one house-rules variant per combination, the
edition with those values as overrides (:func:`~perudo_rules.editions.variantfile.load_variant`,
so each point is checked by the variant's own consistency rules, and an impossible one is
refused in one line). The point with the edition's own values is the baseline; when no
combination has them, the edition itself is played as a point of its own.

:func:`differing_metrics` names the figures of a point whose 95% interval does not
overlap the baseline's; :func:`sweep_document`, :func:`sweep_table` and
:func:`sweep_csv_rows` report every point's figures, and :func:`plot_sweep` draws them
(needs matplotlib, the ``plot`` extra).
"""

from __future__ import annotations

import io
import itertools
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from perudo_rules.analysis.simstats import Estimate, SimStats, metric_label, plot_format
from perudo_rules.base.errors import VariantError
from perudo_rules.base.i18n import N_, tr
from perudo_rules.base.limits import MAX_SWEEP_POINTS
from perudo_rules.base.output import write_bytes
from perudo_rules.base.safetext import shortened
from perudo_rules.editions.knobs import KNOB_PATHS, same_value
from perudo_rules.editions.variant import Variant, format_value
from perudo_rules.editions.variantfile import load_variant

__all__ = [
    "Sweep",
    "SweepPoint",
    "differing_metrics",
    "overlap",
    "parse_sweep",
    "plot_sweep",
    "sweep_csv_rows",
    "sweep_document",
    "sweep_points",
    "sweep_table",
]

#: The knobs of a sweep and the values each takes, in the order given.
Axes = tuple[tuple[str, tuple[Any, ...]], ...]


def _scalar(text: str) -> Any:
    """A value as a variant file would write it: an integer, true/false, null or a word."""
    t = text.strip()
    if re.fullmatch(r"[+-]?\d{1,18}", t):
        return int(t)
    if t.lower() in ("true", "false"):
        return t.lower() == "true"
    if t.lower() in ("null", "none", "~"):
        return None
    return t


def parse_sweep(specs: Sequence[str]) -> Axes:
    """The knobs and values of ``--sweep KNOB=V1,V2`` options (:class:`ValueError`, one
    line, for a malformed option, an unknown knob, a knob given twice or a repeated value).

    >>> parse_sweep(["calza.enabled=true,false", "dice.per_player=4,5"])
    (('calza.enabled', (True, False)), ('dice.per_player', (4, 5)))
    """
    axes: list[tuple[str, tuple[Any, ...]]] = []
    for spec in specs:
        knob, sep, values = spec.partition("=")
        knob = knob.strip()
        if not sep or not knob or not values.strip():
            raise ValueError(
                tr("--sweep takes KNOB=VALUE,VALUE..., not {spec}", spec=shortened(spec, 80))
            )
        if knob not in KNOB_PATHS:
            raise ValueError(
                tr("--sweep: no knob is called {knob}", knob=shortened(knob, 80))
            )
        if any(knob == k for k, _ in axes):
            raise ValueError(tr("--sweep: the knob {knob} is given twice", knob=knob))
        parsed: list[Any] = []
        for text in values.split(","):
            value = _scalar(text)
            if text.strip() == "":
                raise ValueError(tr("--sweep: an empty value for {knob}", knob=knob))
            if any(same_value(value, v) for v in parsed):
                raise ValueError(
                    tr(
                        "--sweep: the value {value} of {knob} is given twice",
                        value=shortened(format_value(value), 40),
                        knob=knob,
                    )
                )
            parsed.append(value)
        axes.append((knob, tuple(parsed)))
    return tuple(axes)


@dataclass(frozen=True, slots=True)
class SweepPoint:
    """One combination of a sweep: the knob values (in the sweep's order), the house-rules
    variant they make, and whether they are the edition's own values (the baseline)."""

    values: tuple[tuple[str, Any], ...]
    variant: Variant
    own: bool

    @property
    def label(self) -> str:
        """``knob=value, knob=value`` as the command line writes it."""
        return ", ".join(f"{k}={format_value(v)}" for k, v in self.values)


@dataclass(frozen=True, slots=True)
class Sweep:
    """The points of a sweep of edition ``edition`` over ``knobs``; ``points[baseline]``
    has the edition's own values."""

    edition: str
    knobs: tuple[str, ...]
    points: tuple[SweepPoint, ...]

    @property
    def baseline(self) -> int:
        """The index of the point with the edition's own values."""
        return next(i for i, p in enumerate(self.points) if p.own)


def sweep_points(ref: str, axes: Axes) -> Sweep:
    """Every combination of ``axes`` (:func:`parse_sweep`) as a house-rules variant of the
    edition ``ref`` (a bundled id or a file), each checked like a house-rules file that
    extends it. An impossible combination is a :class:`ValueError` naming it and the rule
    it breaks; more than :data:`~perudo_rules.base.limits.MAX_SWEEP_POINTS` points too."""
    edition = load_variant(ref)
    count = math.prod(len(values) for _, values in axes)
    if count > MAX_SWEEP_POINTS:
        raise ValueError(
            tr(
                "--sweep: {n} combinations, at most {most} in one sweep",
                n=count,
                most=MAX_SWEEP_POINTS,
            )
        )
    knobs = tuple(k for k, _ in axes)
    own = tuple((k, edition[k]) for k in knobs)
    points: list[SweepPoint] = []
    for combo in itertools.product(*(values for _, values in axes)):
        values = tuple(zip(knobs, combo, strict=True))
        label = ", ".join(f"{k}={format_value(v)}" for k, v in values)
        try:
            variant = load_variant(ref, dict(values))
        except VariantError as exc:
            raise ValueError(
                tr(
                    "--sweep: {point} is not a possible variant of {edition}: {reason}",
                    point=shortened(label, 120),
                    edition=edition.id,
                    reason=exc.message
                    if not exc.key_path or exc.key_path in exc.message
                    else f"{exc.key_path}: {exc.message}",
                )
            ) from None
        mine = all(same_value(v, o) for (_, v), (_, o) in zip(values, own, strict=True))
        points.append(SweepPoint(values, variant, mine))
    if not any(p.own for p in points):
        points.insert(0, SweepPoint(own, edition, True))
    return Sweep(edition.id, knobs, tuple(points))


def overlap(a: Estimate, b: Estimate) -> bool:
    """Whether the 95% intervals of ``a`` and ``b`` overlap (an undefined one, with no
    samples, overlaps everything: it shows no difference)."""
    if any(math.isnan(x) for x in (a.low, a.high, b.low, b.high)):
        return True
    return a.low <= b.high and b.low <= a.high


def differing_metrics(stats: SimStats, baseline: SimStats) -> list[str]:
    """The figures of ``stats`` whose interval does not overlap ``baseline``'s."""
    base = dict(baseline.summary_rows())
    return [
        name for name, e in stats.summary_rows() if name in base and not overlap(e, base[name])
    ]


def sweep_document(sweep: Sweep, stats: Sequence[SimStats]) -> dict[str, Any]:
    """The sweep as JSON: its parameters and, per point, the knob values, whether they are
    the edition's own, the figures that differ from the baseline and every statistic."""
    base = stats[sweep.baseline]
    first = stats[0]
    return {
        "edition": sweep.edition,
        "knobs": list(sweep.knobs),
        "players": first.players,
        "games": max(s.games for s in stats),
        "bot": first.bot,
        "seed": first.seed,
        "baseline": sweep.baseline,
        "points": [
            {
                "values": dict(p.values),
                "own": p.own,
                "differs": differing_metrics(s, base),
                "statistics": s.to_dict(),
            }
            for p, s in zip(sweep.points, stats, strict=True)
        ],
    }


def sweep_table(sweep: Sweep, stats: Sequence[SimStats], digits: int = 3) -> list[list[str]]:
    """One row per figure: its name (in the context's language), then ``value [low, high]``
    for each point, followed by ``*`` where the interval does not overlap the baseline's.
    Use with the header ``[metric, "#1", "#2", ...]``."""
    base = stats[sweep.baseline]
    rows: list[list[str]] = []
    by_point = [dict(s.summary_rows()) for s in stats]
    marks = [set(differing_metrics(s, base)) for s in stats]
    for name, _ in base.summary_rows():
        cells = [
            d[name].format(digits) + (" *" if name in m else "")
            for d, m in zip(by_point, marks, strict=True)
        ]
        rows.append([metric_label(name), *cells])
    return rows


def sweep_csv_rows(sweep: Sweep, stats: Sequence[SimStats]) -> list[list[Any]]:
    """The CSV of a sweep, header first: ``point``, one column per knob, ``own``, then
    ``metric,value,low,high,n,differs`` (``differs`` is 1 where the intervals do not
    overlap the baseline's)."""
    base = stats[sweep.baseline]
    rows: list[list[Any]] = [
        ["point", *sweep.knobs, "own", "metric", "value", "low", "high", "n", "differs"]
    ]
    for i, (p, s) in enumerate(zip(sweep.points, stats, strict=True), start=1):
        differs = set(differing_metrics(s, base))
        values = [format_value(v) for _, v in p.values]
        for name, e in s.summary_rows():
            rows.append(
                [i, *values, int(p.own), name, e.value, e.low, e.high, e.n, int(name in differs)]
            )
    return rows


#: The figures :func:`plot_sweep` draws, one panel each.
PLOTTED = (
    "rounds per game", "bids per round", "palifico share of rounds",
    "Calza calls per game", "Dudo success rate", "win rate position 0",
)  # fmt: skip
_TITLES = (
    N_("Rounds per game"), N_("Bids per round"), N_("Palifico share of rounds"),
    N_("Calza calls per game"), N_("Dudo success rate"), N_("Win rate of the first player"),
)  # fmt: skip


def plot_sweep(sweep: Sweep, stats: Sequence[SimStats], path: str | os.PathLike[str]) -> None:
    """Draw six figures of every point of the sweep with their 95% intervals into an image
    file (PNG, SVG, PDF by suffix): the baseline in black with its interval shaded, a
    point whose interval does not overlap it in red. Needs matplotlib (the ``plot``
    extra); written atomically like :func:`~perudo_rules.analysis.simstats.plot`."""
    fmt = plot_format(path)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(12, 7.5), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(2, 3)
    base = dict(stats[sweep.baseline].summary_rows())
    ticks = ["\n".join(format_value(v) for _, v in p.values) for p in sweep.points]
    xs = list(range(len(sweep.points)))
    for ax, name, title in zip([a for row in axes for a in row], PLOTTED, _TITLES, strict=True):
        b = base[name]
        if not math.isnan(b.value):
            ax.axhspan(b.low, b.high, color="0.85", zorder=0)
        for x, p, s in zip(xs, sweep.points, stats, strict=True):
            e = dict(s.summary_rows())[name]
            if math.isnan(e.value):
                continue
            colour = "black" if p.own else ("tab:red" if not overlap(e, b) else "tab:blue")
            ax.errorbar(
                [x], [e.value], yerr=[[e.value - e.low], [e.high - e.value]],
                fmt="o", color=colour, capsize=3,
            )  # fmt: skip
        ax.set_title(tr(title))
        ax.set_xticks(xs, ticks, fontsize=8)
        ax.set_xlim(-0.5, len(xs) - 0.5)
    fig.supxlabel(" / ".join(sweep.knobs))
    first = stats[0]
    fig.suptitle(
        tr(
            "{edition}: {games} games a point, {players} players, {bot} bots, seed {seed}; "
            "black: the edition's own values, red: 95% intervals apart from them",
            edition=sweep.edition,
            games=first.games,
            players=first.players,
            bot=first.bot,
            seed=first.seed,
        )
    )
    image = io.BytesIO()
    fig.savefig(image, format=fmt, dpi=80)
    write_bytes(path, image.getvalue())
